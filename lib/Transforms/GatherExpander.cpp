//===- GatherExpander.cpp - gather as a while loop ------------------------===//
//
// XLA's GatherExpander: a gather becomes a while loop over its index
// vectors. Before the loop, the indices become a [count, K] matrix (one
// index vector a row) and an accumulator [count, offset...] is made (the
// offset dimensions are the slice's dimensions other than collapsed and
// batching ones). Iteration i reads row i, makes the window start (index
// components at start_index_map, the coordinate of i at operand batching
// dimensions, 0 elsewhere), dynamic-slices the window (dynamic-slice clamps
// the start as gather does) and writes it into row i of the accumulator.
// After the loop, the accumulator is reshaped to the batch dimensions of
// the indices and transposed into the gather's dimension order.
//
// A gather of the whole operand (slice_sizes are its dimensions) does not
// depend on its indices: it becomes a reshape and a broadcast. Gathers of
// no element are left to hlo-zero-sized-hlo-elimination, as in XLA.
//
//===----------------------------------------------------------------------===//

#include "GatherScatterUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"

#include <limits>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOGATHEREXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

static int64_t gatherIndexCount(GatherOp op) {
  return indexVectorCount(tensorType(op.getStartIndices()).getShape(),
                          op.getIndexVectorDim());
}

/// True if the slice is the whole operand (the indices do not matter).
static bool isBroadcast(GatherOp op) {
  return op.getSliceSizes() == tensorType(op.getOperand()).getShape();
}

/// Replaces `op` by a loop, or by a broadcast of its operand.
static void expandGather(GatherOp op, SymbolTable &symbols) {
  Value operand = op.getOperand();
  RankedTensorType operandType = tensorType(operand);
  auto resultType = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> sliceSizes = op.getSliceSizes();
  ArrayRef<int64_t> offsetDims = op.getOffsetDims();
  ArrayRef<int64_t> operandBatchingDims = orEmpty(op.getOperandBatchingDims());
  // The slice's dimensions that the result keeps, and their sizes.
  SmallVector<int64_t> offsetSizes;
  for (int64_t d : dimsExcept(operandType.getRank(), op.getCollapsedSliceDims(),
                              operandBatchingDims))
    offsetSizes.push_back(sliceSizes[d]);

  OpBuilder b(op);
  InstBuilder ib(b, op.getLoc());
  Value result;
  if (isBroadcast(op)) {
    // Collapsed and batching dimensions have size 1 here.
    result = ib.create<BroadcastOp>(
        resultType, ib.reshape(operand, offsetSizes),
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(offsetDims))});
  } else {
    Value indices = op.getStartIndices();
    ArrayRef<int64_t> indicesShape = tensorType(indices).getShape();
    WindowIndexing w{indicesShape,
                     int64_t(op.getIndexVectorDim()),
                     op.getStartIndexMap(),
                     operandBatchingDims,
                     orEmpty(op.getStartIndicesBatchingDims()),
                     operandType.getRank(),
                     startIndexType(tensorType(indices).getElementType())};
    int64_t count = gatherIndexCount(op);
    SmallVector<int64_t> rowSizes{1}, accumulatorShape{count};
    llvm::append_range(rowSizes, offsetSizes);
    llvm::append_range(accumulatorShape, offsetSizes);
    Value accumulator =
        ib.splat(resultType.getElementType(), 0, accumulatorShape);

    auto body = [&](InstBuilder &bb, Value iv,
                    ValueRange state) -> SmallVector<Value> {
      // state: accumulator, operand, indices.
      SmallVector<Value> start = windowStart(bb, w, state[2], iv);
      Value slice =
          bb.reshape(bb.dynamicSlice(state[1], start, sliceSizes), rowSizes);
      SmallVector<Value> rowStart{iv};
      rowStart.append(offsetSizes.size(),
                      bb.scalar(tensorType(iv).getElementType(), 0));
      return {bb.dynamicUpdateSlice(state[0], slice, rowStart), state[1],
              state[2]};
    };
    auto parent = op->getParentOfType<ComputationOp>();
    Value canonicalIndices = canonicalizeIndices(ib, w, indices);
    Value gathered =
        buildCountedLoop(ib, symbols, parent, "gather", count,
                         {accumulator, operand, canonicalIndices}, body,
                         /*numResults=*/1)[0];

    // [count, offset...] -> [batch..., offset...] -> the gather's order.
    SmallVector<int64_t> shape;
    for (int64_t d : dimsExcept(indicesShape.size(), {w.indexVectorDim}))
      shape.push_back(indicesShape[d]);
    int64_t numBatch = shape.size();
    llvm::append_range(shape, offsetSizes);
    SmallVector<int64_t> perm;
    int64_t batch = 0, offset = numBatch;
    for (int64_t d = 0; d < resultType.getRank(); ++d)
      perm.push_back(llvm::is_contained(offsetDims, d) ? offset++ : batch++);
    result = ib.transpose(ib.reshape(gathered, shape), perm);
    if (result.getType() != resultType)
      result = ib.create<CopyOp>(resultType, result);
  }
  transferInstructionAttrs(op, result.getDefiningOp());
  op.getResult().replaceAllUsesWith(result);
  op.erase();
}

namespace {
struct GatherExpanderPass
    : ChangeReportingPass<GatherExpanderPass,
                          hlo::impl::HloGatherExpanderBase> {
  using ChangeReportingPass::ChangeReportingPass;

  /// True if `op` can be expanded and the mode picks it.
  bool matches(GatherOp op) {
    auto result = dyn_cast<RankedTensorType>(op.getType());
    if (hasControlPredecessors(op) || !isStaticArray(op.getType()) ||
        !isStaticArray(op.getOperand().getType()) ||
        !isStaticArray(op.getStartIndices().getType()) ||
        result.getNumElements() == 0 ||
        gatherIndexCount(op) > std::numeric_limits<int32_t>::max())
      return false;
    return mode == GatherExpanderMode::EliminateAll ||
           gatherIndexCount(op) == 1 || isBroadcast(op);
  }

  void run() {
    SymbolTable symbols(getOperation());
    SmallVector<GatherOp> gathers;
    getOperation().walk([&](GatherOp op) {
      if (matches(op))
        gathers.push_back(op);
    });
    for (GatherOp op : gathers) {
      expandGather(op, symbols);
      ++numExpanded;
      changed = true;
    }
  }
};
} // namespace
