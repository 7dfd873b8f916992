//===- AllGatherOptimizer.cpp - gather once after the elementwise op ------===//
//
// XLA-GPU's AllGatherOptimizer: an elementwise commutative op of two
// all-gathers gathers its result instead,
//
//   %add = f32[8,8] add(all-gather(f32[4,8] %a), all-gather(f32[4,8] %b))
// ->
//   %add = f32[8,8] all-gather(f32[4,8] add(%a, %b))
//
// one collective and half the elementwise work. The all-gathers must gather
// one type along one dimension over the same devices (groups, global ids,
// channel or not, layout constraint, collective_group_key) and feed only
// the op. The result is the left all-gather's clone (its channel id, no
// layout constraint) under the op's name. Candidates are taken in program
// order before any rewrite, so `add(add(ag, ag), ag)` collapses in one run.
//
//===----------------------------------------------------------------------===//

#include "CollectiveCombinerUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOALLGATHEROPTIMIZER
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// True if `a` and `b` gather alike: one operand of one type each, along
/// the same dimension over the same devices.
static bool gatherAlike(AllGatherOp a, AllGatherOp b) {
  return a.getInputs().size() == 1 && b.getInputs().size() == 1 &&
         a.getInputs()[0].getType() == b.getInputs()[0].getType() &&
         a.getType() == b.getType() && a.getDimensions() == b.getDimensions() &&
         a.getReplicaGroupsAttr() == b.getReplicaGroupsAttr() &&
         a.getChannelId().has_value() == b.getChannelId().has_value() &&
         a.getUseGlobalDeviceIds().value_or(false) ==
             b.getUseGlobalDeviceIds().value_or(false) &&
         a.getConstrainLayout().value_or(false) ==
             b.getConstrainLayout().value_or(false) &&
         collectiveGroupKey(a) == collectiveGroupKey(b);
}

namespace {
struct AllGatherOptimizerPass
    : ChangeReportingPass<AllGatherOptimizerPass,
                          hlo::impl::HloAllGatherOptimizerBase> {
  void run() {
    SmallVector<Operation *> candidates;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](Operation *op) {
        if (isa<AddOp, AndOp, MulOp, MaxOp, MinOp, OrOp, XorOp>(op) &&
            op->getNumOperands() == 2)
          candidates.push_back(op);
      });
    for (Operation *op : candidates)
      if (optimize(op)) {
        ++numOptimized;
        changed = true;
      }
  }

  bool optimize(Operation *op) {
    auto lhs = op->getOperand(0).getDefiningOp<AllGatherOp>();
    auto rhs = op->getOperand(1).getDefiningOp<AllGatherOp>();
    if (!lhs || !rhs || !gatherAlike(lhs, rhs) || !hasOneUser(lhs) ||
        !hasOneUser(rhs) || hasControlEdges(op) || hasControlEdges(lhs) ||
        hasControlEdges(rhs))
      return false;
    OpBuilder b(op);
    Value a = lhs.getInputs()[0], c = rhs.getInputs()[0];
    Value combined =
        createInstruction(b, derivedLoc(op->getLoc()),
                          op->getName().getStringRef(), a.getType(), {a, c})
            ->getResult(0);
    auto gather = cast<AllGatherOp>(b.clone(*lhs));
    gather.getInputsMutable().assign(combined);
    gather.removeConstrainLayoutAttr();
    gather->setLoc(op->getLoc());
    op->getResult(0).replaceAllUsesWith(gather.getResult());
    op->erase();
    lhs.erase();
    if (rhs != lhs)
      rhs.erase();
    return true;
  }
};
} // namespace
