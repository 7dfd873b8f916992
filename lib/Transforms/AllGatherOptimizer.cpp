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
// one type along one dimension over the same devices (the groups their
// modes give, layout constraint, collective_group_key) and feed only
// the op. The result is the left all-gather's clone (its channel id, no
// layout constraint) under the op's name. Candidates are taken in program
// order before any rewrite, so `add(add(ag, ag), ag)` collapses in one run.
//
//===----------------------------------------------------------------------===//

#include "CollectiveCombinerUtils.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
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

/// The groups of devices all-gather `op` joins on `devices` (replicas,
/// partitions), each group in order and the groups sorted; nothing if its
/// groups cannot be read.
static std::optional<DeviceGroups>
sortedGroups(AllGatherOp op, std::pair<int64_t, int64_t> devices) {
  std::string error;
  FailureOr<DeviceGroups> groups =
      getDeviceGroups(op, devices.first, devices.second,
                      /*hasGlobalFlag=*/true, error);
  if (failed(groups))
    return std::nullopt;
  llvm::sort(*groups);
  return *groups;
}

/// True if `a` and `b` gather alike: one operand of one type each, along
/// the same dimension over the same devices (the groups their modes give
/// on the module's devices, so that an all-gather with a channel id and
/// one without join alike in a module of one partition, as XLA combines
/// them).
static bool gatherAlike(AllGatherOp a, AllGatherOp b,
                        std::pair<int64_t, int64_t> devices) {
  if (a.getInputs().size() != 1 || b.getInputs().size() != 1 ||
      a.getInputs()[0].getType() != b.getInputs()[0].getType() ||
      a.getType() != b.getType() || a.getDimensions() != b.getDimensions() ||
      a.getConstrainLayout().value_or(false) !=
          b.getConstrainLayout().value_or(false) ||
      collectiveGroupKey(a) != collectiveGroupKey(b))
    return false;
  std::optional<DeviceGroups> groups = sortedGroups(a, devices);
  return groups && groups == sortedGroups(b, devices);
}

namespace {
struct AllGatherOptimizerPass
    : ChangeReportingPass<AllGatherOptimizerPass,
                          hlo::impl::HloAllGatherOptimizerBase> {
  void run() {
    devices = getDeviceCounts(getOperation());
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
    if (!lhs || !rhs || !gatherAlike(lhs, rhs, devices) || !hasOneUser(lhs) ||
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

  std::pair<int64_t, int64_t> devices;
};
} // namespace
