//===- HloDeviceGroups.cpp - the devices a collective joins ---------------===//
//
// XLA's collective group modes (HloDeviceGroups.h).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::hlo;

bool mlir::hlo::isArrayCollective(Operation *op) {
  return isa_and_nonnull<AllReduceOp, AllGatherOp, ReduceScatterOp, AllToAllOp,
                         RaggedAllToAllOp, CollectivePermuteOp,
                         CollectiveBroadcastOp>(op);
}

std::pair<int64_t, int64_t> mlir::hlo::getDeviceCounts(Operation *module) {
  auto count = [&](StringRef name) -> int64_t {
    auto attr = module->getAttrOfType<IntegerAttr>(name);
    return attr ? std::max<int64_t>(1, attr.getInt()) : 1;
  };
  return {count("hlo.replica_count"), count("hlo.num_partitions")};
}

FailureOr<DeviceGroups>
mlir::hlo::getDeviceGroups(Operation *op, int64_t numReplicas,
                           int64_t numPartitions, bool hasGlobalFlag,
                           std::string &error) {
  SmallVector<SmallVector<int64_t>> ids;
  if (auto attr = op->getAttrOfType<ReplicaGroupsAttr>("replica_groups"))
    ids = attr.getGroups();
  llvm::erase_if(ids, [](auto &g) { return g.empty(); });
  bool channel = op->hasAttr("channel_id");
  bool global = false;
  if (auto a = op->getAttrOfType<BoolAttr>("use_global_device_ids"))
    global = hasGlobalFlag && channel && a.getValue();
  bool byPartition = channel && !hasGlobalFlag;
  int64_t limit = global        ? numReplicas * numPartitions
                  : byPartition ? numPartitions
                                : numReplicas;
  if (ids.empty()) {
    ids.emplace_back();
    for (int64_t i = 0; i < limit; ++i)
      ids.back().push_back(i);
  }
  for (auto &g : ids)
    for (int64_t id : g)
      if (id < 0 || id >= limit) {
        error = "replica group id " + std::to_string(id) +
                " is out of range [0, " + std::to_string(limit) + ")";
        return failure();
      }
  DeviceGroups groups;
  if (!channel) { // replica ids within each partition
    for (auto &g : ids)
      for (int64_t p = 0; p < numPartitions; ++p) {
        groups.emplace_back();
        for (int64_t r : g)
          groups.back().push_back(r * numPartitions + p);
      }
  } else if (byPartition) { // partition ids within each replica
    for (auto &g : ids)
      for (int64_t r = 0; r < numReplicas; ++r) {
        groups.emplace_back();
        for (int64_t p : g)
          groups.back().push_back(r * numPartitions + p);
      }
  } else if (!global) { // replica ids over all partitions
    for (auto &g : ids) {
      groups.emplace_back();
      for (int64_t r : g)
        for (int64_t p = 0; p < numPartitions; ++p)
          groups.back().push_back(r * numPartitions + p);
    }
  } else {
    groups.assign(ids.begin(), ids.end());
  }
  // Every device must be in exactly one group.
  std::vector<int> seen(numReplicas * numPartitions, 0);
  for (auto &g : groups)
    for (int64_t d : g)
      ++seen[d];
  if (llvm::any_of(seen, [](int c) { return c != 1; })) {
    error = "replica groups must cover every device exactly once";
    return failure();
  }
  return groups;
}

/// `pairs` of replica ids on every partition (no channel_id on `op`) or of
/// partition ids on every replica (with one), as device ids.
static FailureOr<SmallVector<std::pair<int64_t, int64_t>>>
toDevicePairs(Operation *op, ArrayRef<std::pair<int64_t, int64_t>> pairs,
              int64_t numReplicas, int64_t numPartitions, std::string &error) {
  bool byPartition = op->hasAttr("channel_id");
  int64_t limit = byPartition ? numPartitions : numReplicas;
  int64_t copies = byPartition ? numReplicas : numPartitions;
  SmallVector<std::pair<int64_t, int64_t>> result;
  for (auto [source, target] : pairs) {
    for (int64_t id : {source, target})
      if (id < 0 || id >= limit) {
        error = "source_target_pairs id " + std::to_string(id) +
                " is out of range [0, " + std::to_string(limit) + ") (" +
                (byPartition ? "partition ids: the op has a channel_id"
                             : "replica ids") +
                ")";
        return failure();
      }
    for (int64_t other = 0; other < copies; ++other) {
      auto device = [&](int64_t id) {
        return byPartition ? other * numPartitions + id
                           : id * numPartitions + other;
      };
      result.push_back({device(source), device(target)});
    }
  }
  return result;
}

FailureOr<SmallVector<std::pair<int64_t, int64_t>>>
mlir::hlo::getDevicePairs(Operation *op, ArrayAttr pairs, int64_t numReplicas,
                          int64_t numPartitions, std::string &error) {
  SmallVector<std::pair<int64_t, int64_t>> ids;
  for (Attribute a : pairs ? pairs.getValue() : ArrayRef<Attribute>()) {
    auto pair = dyn_cast<DenseI64ArrayAttr>(a);
    if (!pair || pair.size() != 2) {
      error = "source_target_pairs entries must be pairs";
      return failure();
    }
    ids.push_back({pair[0], pair[1]});
  }
  return toDevicePairs(op, ids, numReplicas, numPartitions, error);
}

TransferChannel mlir::hlo::getTransferChannel(Operation *op) {
  TransferChannel channel;
  if (auto id = op->getAttrOfType<IntegerAttr>("channel_id"))
    channel.id = id.getInt();
  if (auto host = op->getAttrOfType<BoolAttr>("is_host_transfer"))
    channel.host = host.getValue();
  return channel;
}

FailureOr<std::optional<SmallVector<std::pair<int64_t, int64_t>>>>
mlir::hlo::getSendRecvPairs(Operation *op, int64_t numReplicas,
                            int64_t numPartitions, std::string &error) {
  using Pairs = SmallVector<std::pair<int64_t, int64_t>>;
  auto frontend = op->getAttrOfType<DictionaryAttr>("frontend_attributes");
  auto text =
      frontend
          ? frontend.getAs<StringAttr>("_xla_send_recv_source_target_pairs")
          : StringAttr();
  if (getTransferChannel(op).host || !text)
    return std::optional<Pairs>();
  // "{{a,b},{c,d}}", spaces anywhere.
  std::string compact;
  for (char c : text.getValue())
    if (!llvm::isSpace(c))
      compact.push_back(c);
  StringRef rest(compact);
  auto bad = [&]() -> FailureOr<std::optional<Pairs>> {
    error = "_xla_send_recv_source_target_pairs must be a list of pairs "
            "like {{0,1},{1,2}}, not \"" +
            text.getValue().str() + "\"";
    return failure();
  };
  if (!rest.consume_front("{") || !rest.consume_back("}"))
    return bad();
  // No attributes made: the interpreter's device threads call this.
  Pairs pairs;
  while (!rest.empty()) {
    int64_t source, target;
    if (!rest.consume_front("{") || rest.consumeInteger(10, source) ||
        !rest.consume_front(",") || rest.consumeInteger(10, target) ||
        !rest.consume_front("}"))
      return bad();
    pairs.push_back({source, target});
    if (!rest.empty() && (!rest.consume_front(",") || rest.empty()))
      return bad();
  }
  FailureOr<Pairs> devices =
      toDevicePairs(op, pairs, numReplicas, numPartitions, error);
  if (failed(devices))
    return failure();
  llvm::SmallDenseSet<int64_t> sources, targets;
  for (auto [source, target] : *devices) {
    bool twice = !sources.insert(source).second;
    if (twice || !targets.insert(target).second) {
      error = "_xla_send_recv_source_target_pairs: device " +
              std::to_string(twice ? source : target) + " is the " +
              (twice ? "source" : "target") + " of two pairs";
      return failure();
    }
  }
  return std::optional<Pairs>(std::move(*devices));
}
