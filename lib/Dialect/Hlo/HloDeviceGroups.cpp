//===- HloDeviceGroups.cpp - the devices a collective joins ---------------===//
//
// XLA's collective group modes (HloDeviceGroups.h).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"

using namespace mlir;
using namespace mlir::hlo;

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

FailureOr<SmallVector<std::pair<int64_t, int64_t>>>
mlir::hlo::getDevicePairs(Operation *op, ArrayAttr pairs, int64_t numReplicas,
                          int64_t numPartitions, std::string &error) {
  bool byPartition = op->hasAttr("channel_id");
  int64_t limit = byPartition ? numPartitions : numReplicas;
  int64_t copies = byPartition ? numReplicas : numPartitions;
  SmallVector<std::pair<int64_t, int64_t>> result;
  for (Attribute a : pairs ? pairs.getValue() : ArrayRef<Attribute>()) {
    auto pair = dyn_cast<DenseI64ArrayAttr>(a);
    if (!pair || pair.size() != 2) {
      error = "source_target_pairs entries must be pairs";
      return failure();
    }
    for (int64_t id : pair.asArrayRef())
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
      result.push_back({device(pair[0]), device(pair[1])});
    }
  }
  return result;
}
