//===- BatchedGatherScatterNormalizer.cpp - batching dims as indices ------===//
//
// XLA's BatchedGatherScatterNormalizer, the first pass of XLA-GPU's
// optimization pipeline. A gather or scatter with batching dimensions
// (operand_batching_dims / input_batching_dims, paired with dimensions of
// the indices) reads or writes, for index vector v at batch coordinate b,
// the window whose start has b at the batching dimension. The same window
// is named without batching dimensions by putting b into the index vector:
//
//   indices' = concatenate(iota_0, ..., iota_k-1, indices)
//              along index_vector_dim, iota_i counting along the i-th
//              indices batching dimension (of the indices' shape with the
//              index vector dimension of size 1);
//   start_index_map'   = operand_batching_dims ++ start_index_map
//   collapsed_slice_dims' = sorted(collapsed_slice_dims ++
//                                  operand_batching_dims)
//
// (scatter alike: scatter_dims_to_operand_dims and inserted_window_dims).
// An implicit index vector dimension (== rank of the indices) becomes an
// explicit one of size 1 first. The gather or scatter is changed in place:
// it keeps its name, result and metadata. The iotas have the indices'
// element type, as in XLA, unless a batch coordinate would not fit in it
// (XLA 0.10.2 lets it wrap): then the indices are converted to s32 (s64
// past 2^31). `indices_are_sorted` stays only where the batch coordinates
// lead the index vectors' order (the indices batching dimensions are the
// leading dimensions, in order); XLA keeps it always. `unique_indices`
// stays (distinct vectors stay distinct). Left alone: dynamic index shapes
// and fused computations.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

#include "llvm/ADT/STLExtras.h"

#include <limits>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOBATCHEDGATHERSCATTERNORMALIZER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// The dimension numbers of one batched gather or scatter, as they change.
struct BatchedIndexing {
  Value indices;
  int64_t indexVectorDim;
  ArrayRef<int64_t> operandBatchingDims;
  ArrayRef<int64_t> indicesBatchingDims;
  /// start_index_map / scatter_dims_to_operand_dims.
  ArrayRef<int64_t> indexToOperandDims;
  /// collapsed_slice_dims / inserted_window_dims.
  ArrayRef<int64_t> droppedDims;
  bool indicesAreSorted;
};

/// What replaces the dimension numbers.
struct Normalized {
  Value indices;
  SmallVector<int64_t> indexToOperandDims;
  SmallVector<int64_t> droppedDims;
  bool indicesAreSorted;
};
} // namespace

static bool isNormalizable(Value indices, ArrayRef<int64_t> batchingDims) {
  return !batchingDims.empty() && isStaticArray(indices.getType());
}

/// The element type of the new indices: theirs, unless a batch coordinate
/// (up to size - 1 along a batching dimension) does not fit.
static Type batchedIndexType(RankedTensorType indices,
                             ArrayRef<int64_t> indicesBatchingDims) {
  auto element = cast<IntegerType>(indices.getElementType());
  int64_t largest = 0;
  for (int64_t d : indicesBatchingDims)
    largest = std::max(largest, indices.getDimSize(d) - 1);
  unsigned width = element.getWidth();
  unsigned valueBits = element.isUnsigned() ? width : width - 1;
  if (valueBits >= 63 || largest < (int64_t(1) << valueBits))
    return element;
  bool fits32 = largest <= std::numeric_limits<int32_t>::max();
  return IntegerType::get(element.getContext(), fits32 ? 32 : 64);
}

/// The new indices and dimension numbers, built before `op`.
static Normalized normalize(Operation *op, const BatchedIndexing &in) {
  OpBuilder b(op);
  InstBuilder ib(b, derivedLoc(op->getLoc()));
  RankedTensorType type = tensorType(in.indices);
  Type element = batchedIndexType(type, in.indicesBatchingDims);
  Value indices = ib.convert(in.indices, element);

  // An explicit index vector dimension.
  SmallVector<int64_t> shape(type.getShape());
  if (in.indexVectorDim == type.getRank()) {
    shape.push_back(1);
    indices = ib.reshape(indices, shape);
  }

  // One iota per batching dimension, then the index vectors.
  SmallVector<int64_t> iotaShape(shape);
  iotaShape[in.indexVectorDim] = 1;
  auto iotaType = RankedTensorType::get(iotaShape, element);
  SmallVector<Value> parts;
  for (int64_t d : in.indicesBatchingDims)
    parts.push_back(ib.create<IotaOp>(
        iotaType, {},
        {b.getNamedAttr("iota_dimension", b.getI64IntegerAttr(d))}));
  parts.push_back(indices);
  SmallVector<int64_t> concatShape(shape);
  concatShape[in.indexVectorDim] += in.indicesBatchingDims.size();
  Normalized out;
  out.indices = ib.create<ConcatenateOp>(
      RankedTensorType::get(concatShape, element), parts,
      {b.getNamedAttr("dimensions",
                      b.getDenseI64ArrayAttr({in.indexVectorDim}))});

  out.indexToOperandDims.assign(in.operandBatchingDims.begin(),
                                in.operandBatchingDims.end());
  llvm::append_range(out.indexToOperandDims, in.indexToOperandDims);
  out.droppedDims.assign(in.droppedDims.begin(), in.droppedDims.end());
  llvm::append_range(out.droppedDims, in.operandBatchingDims);
  llvm::sort(out.droppedDims);
  // Batch coordinates put first keep sorted index vectors sorted when the
  // indices batching dimensions lead, in order.
  out.indicesAreSorted =
      in.indicesAreSorted && isIdentityPermutation(in.indicesBatchingDims);
  return out;
}

static bool normalizeGather(GatherOp gather) {
  BatchedIndexing in{gather.getStartIndices(),
                     int64_t(gather.getIndexVectorDim()),
                     orEmpty(gather.getOperandBatchingDims()),
                     orEmpty(gather.getStartIndicesBatchingDims()),
                     gather.getStartIndexMap(),
                     gather.getCollapsedSliceDims(),
                     gather.getIndicesAreSorted().value_or(false)};
  if (!isNormalizable(in.indices, in.indicesBatchingDims))
    return false;
  Normalized out = normalize(gather, in);
  gather.getStartIndicesMutable().assign(out.indices);
  gather.setStartIndexMap(out.indexToOperandDims);
  gather.setCollapsedSliceDims(out.droppedDims);
  gather.removeOperandBatchingDimsAttr();
  gather.removeStartIndicesBatchingDimsAttr();
  if (!out.indicesAreSorted)
    gather.removeIndicesAreSortedAttr();
  return true;
}

static bool normalizeScatter(ScatterOp scatter) {
  OperandRange inputs = scatter.getInputs();
  size_t n = inputs.size() / 2;
  BatchedIndexing in{inputs[n],
                     int64_t(scatter.getIndexVectorDim()),
                     orEmpty(scatter.getInputBatchingDims()),
                     orEmpty(scatter.getScatterIndicesBatchingDims()),
                     scatter.getScatterDimsToOperandDims(),
                     scatter.getInsertedWindowDims(),
                     scatter.getIndicesAreSorted().value_or(false)};
  if (!isNormalizable(in.indices, in.indicesBatchingDims))
    return false;
  Normalized out = normalize(scatter, in);
  scatter->setOperand(n, out.indices);
  scatter.setScatterDimsToOperandDims(out.indexToOperandDims);
  scatter.setInsertedWindowDims(out.droppedDims);
  scatter.removeInputBatchingDimsAttr();
  scatter.removeScatterIndicesBatchingDimsAttr();
  if (!out.indicesAreSorted)
    scatter.removeIndicesAreSortedAttr();
  return true;
}

namespace {
struct BatchedGatherScatterNormalizerPass
    : ChangeReportingPass<BatchedGatherScatterNormalizerPass,
                          hlo::impl::HloBatchedGatherScatterNormalizerBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    SmallVector<Operation *> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](Operation *op) {
        if (isa<GatherOp, ScatterOp>(op))
          worklist.push_back(op);
      });
    for (Operation *op : worklist) {
      bool done = isa<GatherOp>(op) ? normalizeGather(cast<GatherOp>(op))
                                    : normalizeScatter(cast<ScatterOp>(op));
      if (!done)
        continue;
      ++numNormalized;
      changed = true;
    }
  }
};
} // namespace
