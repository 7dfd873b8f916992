//===- AllReduceSplitter.cpp - reduce in subgroups, then across them ------===//
//
// XLA's AllReduceSplitter (XLA-GPU, "collective-optimizations", after the
// all-reduce folder; HSDP): an all-reduce over all N partitions whose one
// user, a dynamic-slice, keeps 1/G of it (G < N, so N/G devices need each
// block) becomes
//
//   all-reduce over G consecutive partitions {0..G-1}, {G..2G-1}, ...
//   -> the same dynamic-slice
//   -> all-reduce over the partitions holding the same block {g, g+G, ...}
//
// The first all-reduce and the slice are then a reduce-scatter (the
// reduce-scatter creator makes it one), and the second moves N/G times less
// data. Taken only when the slice takes, on the j-th partition of each
// first group, block j (the reduce-scatter creator's match, XLA's
// MatchReduceScatter), and, unless `ignore-profitability-check`, when the
// computation already has an all-reduce over the first or the second
// groups (the combiner can then merge them).
//
//===----------------------------------------------------------------------===//

#include "CollectiveOptUtils.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include <set>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOALLREDUCESPLITTER
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

static DeviceGroups groupsOf(Operation *op) {
  if (auto attr = op->getAttrOfType<ReplicaGroupsAttr>("replica_groups"))
    return attr.getGroups();
  return {};
}

namespace {
struct AllReduceSplitterPass
    : ChangeReportingPass<AllReduceSplitterPass,
                          hlo::impl::HloAllReduceSplitterBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    auto [numReplicas, numPartitions] = getDeviceCounts(module);
    if (numReplicas != 1 || numPartitions <= 1)
      return;
    int64_t channel = nextChannelId(module);
    for (ComputationOp comp : nonFusionComputations(module)) {
      // The groups of the computation's all-reduces before any rewrite.
      std::set<DeviceGroups> existing;
      SmallVector<AllReduceOp> candidates;
      comp.walk([&](AllReduceOp ar) {
        existing.insert(groupsOf(ar));
        candidates.push_back(ar);
      });
      for (AllReduceOp ar : candidates)
        if (split(ar, numPartitions, existing, channel)) {
          ++numSplit;
          changed = true;
        }
    }
  }

  bool split(AllReduceOp ar, int64_t numPartitions,
             const std::set<DeviceGroups> &existing, int64_t &channel) {
    DeviceGroups groups = groupsOf(ar);
    auto type = dyn_cast<RankedTensorType>(ar.getResult().getType());
    if (!ar.getUseGlobalDeviceIds().value_or(false) || !ar.getChannelId() ||
        ar.getInputs().size() != 1 || !type || !type.hasStaticShape() ||
        groups.size() != 1 || int64_t(groups[0].size()) != numPartitions ||
        !ar->hasOneUse() || hasControlEdges(ar))
      return false;
    auto ds = dyn_cast<DynamicSliceOp>(*ar->user_begin());
    if (!ds || ds.getOperand() != ar.getResult() || hasControlEdges(ds))
      return false;
    auto sliced = cast<RankedTensorType>(ds.getType());
    int64_t splitDim = -1;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.getDimSize(d) != sliced.getDimSize(d)) {
        if (splitDim != -1)
          return false;
        splitDim = d;
      }
    if (splitDim == -1 || sliced.getDimSize(splitDim) == 0 ||
        type.getDimSize(splitDim) % sliced.getDimSize(splitDim) != 0)
      return false;
    int64_t blocks = type.getDimSize(splitDim) / sliced.getDimSize(splitDim);
    if (blocks == numPartitions || numPartitions % blocks != 0)
      return false;

    // First groups: `blocks` consecutive partitions; second: the ones at
    // the same position in each first group.
    DeviceGroups first, second(blocks);
    for (int64_t i = 0; i < numPartitions; ++i) {
      if (i % blocks == 0)
        first.emplace_back();
      first.back().push_back(groups[0][i]);
      second[i % blocks].push_back(groups[0][i]);
    }
    if (!ignoreProfitabilityCheck && !existing.count(first) &&
        !existing.count(second))
      return false;

    MLIRContext *ctx = ar.getContext();
    OpBuilder b(ar);
    auto reduced = cast<AllReduceOp>(b.clone(*ar));
    reduced.setReplicaGroupsAttr(makeReplicaGroups(ctx, first));
    // The slice must take block j on the j-th partition of each group.
    ds->setOperand(0, reduced.getResult());
    bool blockwise = matchOwnBlockSlice(reduced, 1, numPartitions).has_value();
    if (!blockwise) {
      ds->setOperand(0, ar.getResult());
      reduced.erase();
      return false;
    }
    reduced.setChannelId(channel++);
    ar.erase();

    b.setInsertionPointAfter(ds);
    auto across = cast<AllReduceOp>(b.clone(*reduced));
    across.getInputsMutable().assign(ds.getResult());
    across.getResult().setType(ds.getType());
    across.setReplicaGroupsAttr(makeReplicaGroups(ctx, second));
    across.setChannelId(channel++);
    across->setLoc(derivedLoc(ds.getLoc()));
    if (auto attrs =
            across->getAttrOfType<DictionaryAttr>("frontend_attributes")) {
      NamedAttrList kept(attrs);
      kept.erase("collective_group_key");
      if (kept.empty())
        across->removeAttr("frontend_attributes");
      else
        across->setAttr("frontend_attributes", kept.getDictionary(ctx));
    }
    ds.getResult().replaceAllUsesExcept(across.getResult(), across);
    return true;
  }
};
} // namespace
