//===- AllGatherToCollectivePermuteSimplifier.cpp - permuted gather slices ===//
//
// XLA's AllGatherDynamicSlicePermutedOffsetSimplifier
// (all-gather-to-collective-permute-simplifier). When every partition
// slices one block out of an all-gather at an offset a table gives it, and
// the table sends the blocks of each group to its partitions in some
// order, each partition only needs the one block it reads, from the
// partition that owns it:
//
//   %ag = f32[256,8] all-gather(f32[32,8] %p), dimensions={0},
//         replica_groups={{0,...,7}}, channel_id=1, use_global_device_ids
//   %o  = s32[1] dynamic-slice(s32[8] constant({224,...,0}), partition-id)
//   %ds = f32[32,8] dynamic-slice(%ag, reshape(%o), 0)
// ->
//   collective-permute(%p), source_target_pairs={{0,7},...,{7,0}}
//
// The all-gather's own-block case (the identity table) is
// hlo-all-gather-dynamic-slice-simplifier's and runs first.
//
//===----------------------------------------------------------------------===//

#include "CollectiveOptUtils.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOALLGATHERTOCOLLECTIVEPERMUTESIMPLIFIER
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The one user of `v` if it has exactly one use and no control edges.
static Operation *soleUser(Value v) {
  if (!v.hasOneUse())
    return nullptr;
  OpOperand &use = *v.use_begin();
  Operation *user = use.getOwner();
  return use.getOperandNumber() == 0 && !hasControlPredecessors(user) ? user
                                                                      : nullptr;
}

namespace {
struct AllGatherToCollectivePermuteSimplifierPass
    : ChangeReportingPass<
          AllGatherToCollectivePermuteSimplifierPass,
          hlo::impl::HloAllGatherToCollectivePermuteSimplifierBase> {
  void run() {
    auto [numReplicas, numPartitions] = getDeviceCounts(getOperation());
    if (numReplicas > 1 || numPartitions <= 1)
      return;
    SmallVector<AllGatherOp> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](AllGatherOp ag) { worklist.push_back(ag); });
    for (AllGatherOp ag : worklist)
      if (simplify(ag, numPartitions)) {
        ++numSimplified;
        changed = true;
      }
  }

  bool simplify(AllGatherOp ag, int64_t numPartitions) {
    auto flag = [&](StringRef name) { return isFlagSet(ag, name); };
    auto groupsAttr = ag->getAttrOfType<ReplicaGroupsAttr>("replica_groups");
    // XLA's FLATTENED_ID mode, explicit groups, one array.
    if (!ag->hasAttr("channel_id") || !flag("use_global_device_ids") ||
        flag("constrain_layout") || !groupsAttr ||
        groupsAttr.getGroups().empty() || ag.getInputs().size() != 1 ||
        ag->getNumResults() != 1 || ag.getDimensions().size() != 1 ||
        isControlPredecessor(ag) || hasControlPredecessors(ag))
      return false;
    Value operand = ag.getInputs()[0];
    auto gathered = dyn_cast<RankedTensorType>(ag->getResult(0).getType());
    auto piece = dyn_cast<RankedTensorType>(operand.getType());
    if (!gathered || !piece || !gathered.hasStaticShape() ||
        !piece.hasStaticShape())
      return false;
    int64_t agDim = ag.getDimensions()[0];
    int64_t shard = piece.getDimSize(agDim);

    // all-gather -> [reshape ->] [bitcast ->] dynamic-slice, each the only
    // user of the one before; the gathered dimension followed through.
    int64_t dim = agDim;
    Operation *user = soleUser(ag->getResult(0));
    for (bool isReshape : {true, false}) {
      if (!user || !(isReshape ? isa<ReshapeOp>(user) : isa<BitcastOp>(user)))
        continue;
      auto in = cast<RankedTensorType>(user->getOperand(0).getType());
      auto out = dyn_cast<RankedTensorType>(user->getResult(0).getType());
      if (!out || !out.hasStaticShape())
        return false;
      // The result dimension that is the gathered one, unchanged.
      int64_t found = -1;
      for (int64_t d = 0; d < out.getRank() && found < 0; ++d)
        if (unmodifiedDim(in.getShape(), out.getShape(), d) == dim)
          found = d;
      if (found < 0)
        return false;
      dim = found;
      user = soleUser(user->getResult(0));
    }
    auto ds = dyn_cast_or_null<DynamicSliceOp>(user);
    if (!ds || ds.getType() != operand.getType())
      return false;
    // One sliced dimension, the gathered one, one block wide.
    auto sliced = cast<RankedTensorType>(ds.getOperand().getType());
    auto out = cast<RankedTensorType>(ds.getType());
    for (int64_t d = 0; d < sliced.getRank(); ++d)
      if ((sliced.getDimSize(d) != out.getDimSize(d)) != (d == dim))
        return false;
    if (out.getDimSize(dim) != shard || shard == 0)
      return false;
    std::optional<SmallVector<int64_t>> offsets =
        partitionOffsets(ds.getStartIndices()[dim], numPartitions);
    if (!offsets)
      return false;

    // Each group's partitions read its blocks, each block once: the pair
    // (owner of the block, reader), by block as XLA lists them.
    SmallVector<Attribute> pairs;
    Builder b(ag.getContext());
    for (const SmallVector<int64_t> &group : groupsAttr.getGroups()) {
      SmallVector<int64_t> reader(group.size(), -1);
      for (int64_t p : group) {
        if (p < 0 || p >= numPartitions)
          return false;
        int64_t offset = (*offsets)[p];
        int64_t block = offset / shard;
        if (offset % shard != 0 || block >= int64_t(group.size()) ||
            reader[block] != -1)
          return false;
        reader[block] = p;
      }
      for (auto [owner, p] : llvm::zip(group, reader))
        pairs.push_back(b.getDenseI64ArrayAttr({owner, p}));
    }

    OpBuilder builder(ds);
    SmallVector<NamedAttribute> attrs = {
        builder.getNamedAttr("source_target_pairs", b.getArrayAttr(pairs)),
        builder.getNamedAttr("channel_id", ag->getAttr("channel_id"))};
    // XLA copies the all-gather's collective_group_key (the slice's own
    // frontend attributes are not kept).
    if (auto fa = ag->getAttrOfType<DictionaryAttr>("frontend_attributes"))
      if (Attribute key = fa.get("collective_group_key"))
        attrs.push_back(
            builder.getNamedAttr("frontend_attributes",
                                 builder.getDictionaryAttr(builder.getNamedAttr(
                                     "collective_group_key", key))));
    Operation *permute =
        createInstruction(builder, derivedLoc(ds.getLoc()),
                          CollectivePermuteOp::getOperationName(),
                          operand.getType(), {operand}, attrs);
    ds.getResult().replaceAllUsesWith(permute->getResult(0));
    eraseWithDeadOperands(ds);
    if (ag->use_empty())
      ag.erase();
    return true;
  }
};
} // namespace
