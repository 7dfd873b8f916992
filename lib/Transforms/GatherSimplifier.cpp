//===- GatherSimplifier.cpp - gathers in canonical form -------------------===//
//
// XLA's GatherSimplifier, which XLA 0.10.2 runs first in its simplification
// pipeline. A gather is canonical when its indices are a [N, K] matrix
// (index_vector_dim 1), no slice dimension is collapsed and its offset
// dimensions are 1..rank: one window per row, in the operand's dimension
// order (start_index_map stays as it is, as in XLA 0.10.2). Any other
// gather becomes
//   canonical gather of the indices reshaped (and transposed) to [N, K]
//   -> reshape without the collapsed dimensions and with the indices'
//      batch dimensions for N
//   -> transpose of the offset dimensions to where the gather had them.
// A gather with a zero slice size is a broadcast zero, a gather from a
// scalar a broadcast of it. Identity transposes and reshapes are not
// created. Left alone: gathers with batching dimensions, dynamic shapes or
// control predecessors, and fused computations.
//
//===----------------------------------------------------------------------===//

#include "GatherScatterUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOGATHERSIMPLIFIER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// XLA's GatherSimplifier::InstructionMatchesPattern.
static bool isCanonical(GatherOp gather) {
  auto indices = cast<RankedTensorType>(gather.getStartIndices().getType());
  ArrayRef<int64_t> offsets = gather.getOffsetDims();
  return indices.getRank() == 2 && gather.getIndexVectorDim() == 1 &&
         gather.getCollapsedSliceDims().empty() && !offsets.empty() &&
         offsets.front() == 1 &&
         offsets.back() == static_cast<int64_t>(offsets.size());
}

static bool isRewritable(GatherOp gather) {
  if (hasControlPredecessors(gather) || isControlPredecessor(gather))
    return false;
  if (!orEmpty(gather.getOperandBatchingDims()).empty() ||
      !orEmpty(gather.getStartIndicesBatchingDims()).empty())
    return false;
  return isStaticArray(gather.getOperand().getType()) &&
         isStaticArray(gather.getStartIndices().getType()) &&
         isStaticArray(gather.getType());
}

/// XLA's GatherSimplifier::ExpandInstruction.
static void simplify(GatherOp gather) {
  OpBuilder b(gather);
  InstBuilder ib(b, derivedLoc(gather.getLoc()));
  auto resultType = cast<RankedTensorType>(gather.getType());
  Type element = resultType.getElementType();
  ArrayRef<int64_t> sliceSizes = gather.getSliceSizes();
  Operation *last;
  int64_t operandRank =
      cast<RankedTensorType>(gather.getOperand().getType()).getRank();
  if (operandRank == 0) {
    // Every index selects the scalar.
    last = createInstruction(
        b, ib.getLoc(), BroadcastOp::getOperationName(), resultType,
        {gather.getOperand()},
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({}))});
  } else if (llvm::is_contained(sliceSizes, 0)) {
    auto scalar = RankedTensorType::get({}, element);
    Value zero = createInstruction(
                     b, ib.getLoc(), ConstantOp::getOperationName(), scalar, {},
                     {b.getNamedAttr("value", b.getZeroAttr(scalar))})
                     ->getResult(0);
    last = createInstruction(
        b, ib.getLoc(), BroadcastOp::getOperationName(), resultType, {zero},
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({}))});
  } else {
    ArrayRef<int64_t> offsetDims = gather.getOffsetDims();
    ArrayRef<int64_t> collapsed = gather.getCollapsedSliceDims();
    ArrayRef<int64_t> startIndexMap = gather.getStartIndexMap();
    int64_t indexVectorDim = gather.getIndexVectorDim();

    // XLA's TransformStartIndices: the index vectors as the rows of a
    // [N, K] matrix.
    auto indicesType =
        cast<RankedTensorType>(gather.getStartIndices().getType());
    WindowIndexing w{indicesType.getShape(),
                     indexVectorDim,
                     startIndexMap,
                     {},
                     {},
                     operandRank,
                     indicesType.getElementType()};
    Value indices = canonicalizeIndices(ib, w, gather.getStartIndices());

    // The canonical gather: [N, window].
    SmallVector<int64_t> outShape;
    int64_t n = cast<RankedTensorType>(indices.getType()).getDimSize(0);
    outShape.push_back(n);
    llvm::append_range(outShape, sliceSizes);
    SmallVector<int64_t> newOffsets =
        llvm::to_vector(llvm::seq<int64_t>(1, operandRank + 1));
    SmallVector<NamedAttribute> attrs = {
        b.getNamedAttr("offset_dims", b.getDenseI64ArrayAttr(newOffsets)),
        b.getNamedAttr("collapsed_slice_dims", b.getDenseI64ArrayAttr({})),
        b.getNamedAttr("start_index_map",
                       b.getDenseI64ArrayAttr(startIndexMap)),
        b.getNamedAttr("index_vector_dim", b.getI64IntegerAttr(1)),
        b.getNamedAttr("slice_sizes", b.getDenseI64ArrayAttr(sliceSizes))};
    if (BoolAttr sorted = gather.getIndicesAreSortedAttr())
      attrs.push_back(b.getNamedAttr("indices_are_sorted", sorted));
    Value result =
        createInstruction(b, ib.getLoc(), GatherOp::getOperationName(),
                          RankedTensorType::get(outShape, element),
                          {gather.getOperand(), indices}, attrs)
            ->getResult(0);

    // Without the collapsed dimensions, with the indices' batch dimensions.
    SmallVector<int64_t> batchShape;
    for (int64_t d = 0; d < indicesType.getRank(); ++d)
      if (d != indexVectorDim)
        batchShape.push_back(indicesType.getDimSize(d));
    SmallVector<int64_t> shape(batchShape);
    for (int64_t d = 0; d < operandRank; ++d)
      if (!llvm::is_contained(collapsed, d))
        shape.push_back(sliceSizes[d]);
    result = ib.reshape(result, shape);

    // The offset dimensions where the gather puts them.
    int64_t outputRank = batchShape.size() + offsetDims.size();
    SmallVector<int64_t> finalPerm;
    int64_t nextOffset = batchShape.size(), nextBatch = 0;
    for (int64_t i = 0; i < outputRank; ++i)
      finalPerm.push_back(llvm::is_contained(offsetDims, i) ? nextOffset++
                                                            : nextBatch++);
    result = ib.transpose(result, finalPerm);
    last = result.getDefiningOp();
  }
  // The replacement keeps the gather's result type (its layout included).
  last->getResult(0).setType(resultType);
  transferInstructionAttrs(gather, last);
  gather.getResult().replaceAllUsesWith(last->getResult(0));
  gather.erase();
}

namespace {
struct GatherSimplifierPass
    : ChangeReportingPass<GatherSimplifierPass,
                          hlo::impl::HloGatherSimplifierBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    SmallVector<GatherOp> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](GatherOp gather) {
        if (isRewritable(gather) && !isCanonical(gather))
          worklist.push_back(gather);
      });
    for (GatherOp gather : worklist) {
      simplify(gather);
      ++numSimplified;
      changed = true;
    }
  }
};
} // namespace
