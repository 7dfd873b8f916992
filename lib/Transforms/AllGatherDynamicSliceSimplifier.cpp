//===- AllGatherDynamicSliceSimplifier.cpp - own block of a gather --------===//
//
// XLA's AllGatherDynamicSliceSimplifier (XLA-GPU's configuration: one
// sliced dimension, a reshape allowed between, one user): each device
// slicing its own block out of an all-gather gets back what it sent,
//
//   %ag = f32[256,8] all-gather(f32[32,8] %p), dimensions={0}, ...
//   %ds = f32[32,8] dynamic-slice(%ag, multiply(partition-id, 32), 0)
// ->
//   %p
//
// and through a reshape that leaves the gathered dimension alone, a
// reshape of %p. Which offsets pick each device's block is the
// reduce-scatter creator's match (XLA's MatchWithDynamicSlice,
// CollectiveOptUtils.h).
//
//===----------------------------------------------------------------------===//

#include "CollectiveOptUtils.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOALLGATHERDYNAMICSLICESIMPLIFIER
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct AllGatherDynamicSliceSimplifierPass
    : ChangeReportingPass<AllGatherDynamicSliceSimplifierPass,
                          hlo::impl::HloAllGatherDynamicSliceSimplifierBase> {
  void run() {
    auto [numReplicas, numPartitions] = getDeviceCounts(getOperation());
    SmallVector<AllGatherOp> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](AllGatherOp ag) { worklist.push_back(ag); });
    for (AllGatherOp ag : worklist)
      if (simplify(ag, numReplicas, numPartitions)) {
        ++numSimplified;
        changed = true;
      }
  }

  bool simplify(AllGatherOp ag, int64_t numReplicas, int64_t numPartitions) {
    if (ag.getDimensions().size() != 1 || isControlPredecessor(ag))
      return false;
    std::optional<OwnBlockSlice> match =
        matchOwnBlockSlice(ag, numReplicas, numPartitions);
    if (!match || match->splitDim != ag.getDimensions()[0])
      return false;
    DynamicSliceOp ds = match->slice;
    Value operand = ag.getInputs()[0];
    Value replacement = operand;
    if (operand.getType() != ds.getType()) {
      auto from = cast<RankedTensorType>(operand.getType());
      auto to = cast<RankedTensorType>(ds.getType());
      if (from.getNumElements() != to.getNumElements())
        return false;
      OpBuilder b(ds);
      replacement = ReshapeOp::create(b, derivedLoc(ds.getLoc()), to, operand);
      transferInstructionAttrs(ds, replacement.getDefiningOp());
    }
    ds.getResult().replaceAllUsesWith(replacement);
    eraseWithDeadOperands(ds);
    if (ag->use_empty())
      ag.erase();
    return true;
  }
};
} // namespace
