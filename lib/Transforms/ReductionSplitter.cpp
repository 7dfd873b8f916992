//===- ReductionSplitter.cpp - non-contiguous reduces in two --------------===//
//
// XLA's ReductionSplitter (gpu/reduction_splitter): a reduce over dimensions
// that are not contiguous, and whose kept dimensions are not either, becomes
// a reduce over its largest reduced dimension (which shrinks the
// intermediate most) followed by a reduce over the others. XLA runs it in
// HloPassFix; here the second reduce is split again in the same run until
// the emitter can take it.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "ReductionUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOREDUCTIONSPLITTER
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct ReductionSplitterPass
    : ChangeReportingPass<ReductionSplitterPass,
                          hlo::impl::HloReductionSplitterBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    SmallVector<ReduceOp> worklist = nonFusionReduces(getOperation());
    while (!worklist.empty()) {
      ReduceOp op = worklist.pop_back_val();
      if (ReduceOp next = split(op))
        worklist.push_back(next);
    }
  }

  /// Splits `op`; returns the final reduce, or null if `op` stays.
  ReduceOp split(ReduceOp op) {
    if (!isPlainReduce(op) || numReducedArrays(op) != 1)
      return nullptr;
    Value input = op.getInputs()[0], init = op.getInputs()[1];
    auto type = cast<RankedTensorType>(input.getType());
    ArrayRef<int64_t> shape = type.getShape();
    ArrayRef<int64_t> dims = op.getDimensions();
    if (dims.size() < 2 || isReductionFromOrToContiguousDimensions(shape, dims))
      return nullptr;
    // XLA requires the dimension grouper first: no two reduced dimensions
    // adjacent.
    for (size_t i = 0; i < dims.size(); ++i)
      for (size_t j = i + 1; j < dims.size(); ++j)
        if (std::abs(dims[i] - dims[j]) <= 1)
          return nullptr;

    // The largest reduced dimension, the first of equal ones.
    int64_t maxDim = -1, maxSize = 0;
    for (int64_t d : dims)
      if (shape[d] > maxSize) {
        maxDim = d;
        maxSize = shape[d];
      }
    if (maxDim < 0 || (ignoreSmallDims && maxSize <= 8))
      return nullptr;

    SmallVector<int64_t> preShape(shape);
    preShape.erase(preShape.begin() + maxDim);
    SmallVector<int64_t> finalDims;
    for (int64_t d : dims)
      if (d != maxDim)
        finalDims.push_back(d > maxDim ? d - 1 : d);

    OpBuilder b(op);
    Value pre = createReduce(
        b, derivedLoc(op.getLoc()), op,
        RankedTensorType::get(preShape, getElementTypeOrSelf(op.getType())),
        {input}, {init}, {maxDim});
    Value final = createReduce(b, op.getLoc(), op, op.getType(), {pre}, {init},
                               finalDims);
    replaceReduce(op, final);
    ++numSplits;
    changed = true;
    return cast<ReduceOp>(final.getDefiningOp());
  }
};
} // namespace
