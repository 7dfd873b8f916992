//===- ReductionLayoutNormalizer.cpp - reduces in the default layout ------===//
//
// XLA's ReductionLayoutNormalizer (gpu/transforms/reduction_layout_normalizer):
// the reduction emitter expects the default layout, so a reduce of an input
// with another layout reduces a bitcast of the input to its physical shape
// (size-1 dimensions dropped) over the renumbered reduced dimensions, and
// the result is bitcast (or, when its layout does not keep the order of the
// kept dimensions, copied) back to the reduce's result type.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "LayoutUtils.h"
#include "ReductionUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/Builders.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOREDUCTIONLAYOUTNORMALIZER
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

struct ReductionLayoutNormalizerPass
    : ChangeReportingPass<ReductionLayoutNormalizerPass,
                          hlo::impl::HloReductionLayoutNormalizerBase> {
  void run() {
    for (ReduceOp op : nonFusionReduces(getOperation()))
      rewrite(op);
  }

  void rewrite(ReduceOp op) {
    if (numReducedArrays(op) != 1 || hasControlPredecessors(op) ||
        isControlPredecessor(op))
      return;
    Value input = op.getInputs()[0];
    auto in = dyn_cast<RankedTensorType>(input.getType());
    auto out = dyn_cast<RankedTensorType>(op.getType());
    if (!in || !out || !in.hasStaticShape() || !out.hasStaticShape() ||
        !hasPlainLayout(in) || !hasPlainLayout(out) || in.getRank() == 0)
      return;
    SmallVector<int64_t> inM2M = getMinorToMajor(in);
    if (isDefaultMinorToMajor(inM2M))
      return;
    ArrayRef<int64_t> reduced = op.getDimensions();
    ArrayRef<int64_t> shape = in.getShape();
    Type element = in.getElementType();
    auto typed = [&](ArrayRef<int64_t> dims, Type elt) {
      return withMinorToMajor(RankedTensorType::get(dims, elt),
                              defaultMinorToMajor(dims.size()));
    };

    // The input's physical shape without size-1 dimensions.
    SmallVector<int64_t> physical, newDims, keptOrder, keptShape;
    for (int64_t d : llvm::reverse(inM2M)) {
      if (shape[d] == 1)
        continue;
      if (llvm::is_contained(reduced, d)) {
        newDims.push_back(physical.size());
      } else {
        keptOrder.push_back(
            d - llvm::count_if(reduced, [&](int64_t r) { return r < d; }));
        keptShape.push_back(shape[d]);
      }
      physical.push_back(shape[d]);
    }

    OpBuilder b(op);
    Location loc = op.getLoc();
    Value x = createBitcast(b, loc, input, typed(physical, element));
    Type outElement = out.getElementType();
    Value r = createReduce(b, loc, op, typed(keptShape, outElement), {x},
                           op.getInputs().drop_front(1), newDims);
    // The layout of the result that keeps the kept dimensions in the
    // input's physical order (size-1 dimensions, which hold no data, as
    // close to the default order as they can be).
    SmallVector<int64_t> m2m;
    for (int64_t d : llvm::reverse(keptOrder))
      m2m.push_back(d);
    for (int64_t d = 0; d < out.getRank(); ++d)
      if (!llvm::is_contained(keptOrder, d)) {
        auto *it = llvm::find_if(m2m, [&](int64_t e) { return e < d; });
        m2m.insert(it, d);
      }
    Value result;
    if (samePhysicalOrder(out.getShape(), m2m, getMinorToMajor(out))) {
      result = createBitcast(b, loc, r, out);
    } else {
      Value c = createBitcast(b, loc, r, withMinorToMajor(out, m2m));
      result = createCopy(b, loc, c, out);
    }
    transferInstructionAttrs(op, r.getDefiningOp());
    op->getResult(0).replaceAllUsesWith(result);
    op.erase();
    ++numRewritten;
    changed = true;
  }
};
} // namespace
