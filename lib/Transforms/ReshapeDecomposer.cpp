//===- ReshapeDecomposer.cpp - reshapes as bitcasts and copies ------------===//
//
// XLA's ReshapeDecomposer (run in the layout normalization pipeline, seed
// 004): after layout assignment, a reshape whose operand and result have
// the same bytes in memory is a bitcast; any other one moves data, which
// a copy (a physical transpose) does explicitly next to a bitcast.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "LayoutUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/Builders.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLORESHAPEDECOMPOSER
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

struct ReshapeDecomposerPass
    : ChangeReportingPass<ReshapeDecomposerPass,
                          hlo::impl::HloReshapeDecomposerBase> {
  void run() {
    SmallVector<ReshapeOp> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](ReshapeOp op) { worklist.push_back(op); });
    for (ReshapeOp op : worklist)
      rewrite(op);
  }

  void rewrite(ReshapeOp op) {
    Value operand = op.getOperand();
    auto in = dyn_cast<RankedTensorType>(operand.getType());
    auto out = dyn_cast<RankedTensorType>(op.getType());
    if (!in || !out || !in.hasStaticShape() || !out.hasStaticShape() ||
        !hasPlainLayout(in) || !hasPlainLayout(out) ||
        hasControlPredecessors(op) || isControlPredecessor(op))
      return;
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value result;
    if (reshapeIsBitcast(in, out)) {
      result = createBitcast(b, loc, operand, out);
      ++numBitcasts;
    } else if (std::optional<SmallVector<int64_t>> inLayout = alignLayout(
                   out.getShape(), getMinorToMajor(out), in.getShape())) {
      // The operand copied to the layout that makes the reshape a bitcast.
      Value c = createCopy(b, loc, operand, withMinorToMajor(in, *inLayout));
      result = createBitcast(b, loc, c, out);
      ++numDecomposed;
    } else if (std::optional<SmallVector<int64_t>> outLayout = alignLayout(
                   in.getShape(), getMinorToMajor(in), out.getShape())) {
      // A bitcast to the aligned result layout, then a copy to the result's.
      Value c =
          createBitcast(b, loc, operand, withMinorToMajor(out, *outLayout));
      result = createCopy(b, loc, c, out);
      ++numDecomposed;
    } else {
      Value c =
          createCopy(b, loc, operand,
                     withMinorToMajor(in, defaultMinorToMajor(in.getRank())));
      Value bc = createBitcast(
          b, loc, c, withMinorToMajor(out, defaultMinorToMajor(out.getRank())));
      result = createCopy(b, loc, bc, out);
      ++numDecomposed;
    }
    // The last instruction takes the reshape's name and metadata.
    if (result != operand) {
      transferInstructionAttrs(op, result.getDefiningOp());
      result.getDefiningOp()->setLoc(op.getLoc());
    }
    op.getResult().replaceAllUsesWith(result);
    op.erase();
    changed = true;
  }
};
} // namespace
