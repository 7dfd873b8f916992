//===- ReductionDimensionGrouper.cpp - merge adjacent reduced dims --------===//
//
// XLA's ReductionDimensionGrouper (gpu/reduction_dimension_grouper): a reduce
// over adjacent dimensions reduces a reshape of its inputs in which each run
// of adjacent reduced dimensions is one dimension. In the default layout,
// which XLA requires, adjacent logical dimensions are adjacent in memory, so
// the reshape is a bitcast.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "ReductionUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOREDUCTIONDIMENSIONGROUPER
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct ReductionDimensionGrouperPass
    : ChangeReportingPass<ReductionDimensionGrouperPass,
                          hlo::impl::HloReductionDimensionGrouperBase> {
  void run() {
    SmallVector<ReduceOp> worklist = nonFusionReduces(getOperation());
    for (ReduceOp op : worklist)
      rewrite(op);
  }

  void rewrite(ReduceOp op) {
    if (!isPlainReduce(op))
      return;
    unsigned n = numReducedArrays(op);
    ValueRange inputs = op.getInputs().take_front(n);
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(inputs.front().getType()).getShape();
    int64_t rank = shape.size();
    SmallVector<bool> reduced(rank, false);
    for (int64_t d : op.getDimensions())
      if (d >= 0 && d < rank)
        reduced[d] = true;

    SmallVector<int64_t> grouped, dims;
    bool merged = false;
    int64_t run = 1;
    for (int64_t d = 0; d < rank; ++d) {
      if (reduced[d] && d + 1 < rank && reduced[d + 1]) {
        merged = true;
        run *= shape[d];
        continue;
      }
      if (reduced[d]) {
        dims.push_back(grouped.size());
        grouped.push_back(run * shape[d]);
        run = 1;
      } else {
        grouped.push_back(shape[d]);
      }
    }
    if (!merged)
      return;

    OpBuilder b(op);
    Location loc = derivedLoc(op.getLoc());
    SmallVector<Value> reshaped;
    for (Value input : inputs)
      reshaped.push_back(reshapeTo(b, loc, input, grouped));
    replaceReduce(op, createReduce(b, op.getLoc(), op, op.getType(), reshaped,
                                   op.getInputs().drop_front(n), dims));
    ++numRewritten;
    changed = true;
  }
};
} // namespace
