//===- SpmdManualGroups.h - regions manual over some axes -------*- C++ -*-===//
//
// The partitions of a region manual over some of the mesh's axes, as
// hlo-sharding-propagation and hlo-spmd-partitioner read them.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_SPMDMANUALGROUPS_H
#define HLO_LIB_TRANSFORMS_SPMDMANUALGROUPS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTileSharding.h"

#include <deque>
#include <optional>

namespace mlir::hlo {

/// The partitions of a region manual over some of the mesh's axes (a
/// shard_map with `axis_names`: shardings with a `manual` subgroup): groups
/// of the partitions that share the manual axes' coordinates, each group
/// holding one local value, which the other axes partition among the
/// group's members. A member's place in its group (in the order the
/// sharding lists the devices) is its local partition id; the partitioner
/// partitions the region for one group's local ids and each collective
/// it makes there runs in every group.
class ManualGroups {
public:
  /// The groups of `s` (a sharding with one `manual` subgroup) over
  /// `numPartitions` partitions; nothing for other shardings.
  static std::optional<ManualGroups> get(ShardingAttr s, int64_t numPartitions);
  /// The groups of `s` (for a tuple sharding, its first leaf that has
  /// some) as one of
  /// `known`, added there when new (so that one region has one object);
  /// null for other shardings.
  static const ManualGroups *unique(ShardingAttr s, int64_t numPartitions,
                                    std::deque<ManualGroups> &known);
  /// Partitions in each group.
  int64_t getNumLocal() const { return devices.front().size(); }
  /// Each group's partitions, by local id.
  ArrayRef<SmallVector<int64_t>> getGroups() const { return devices; }
  /// The local id of partition `p`.
  int64_t localOf(int64_t p) const { return local[p]; }
  bool operator==(const ManualGroups &other) const {
    return devices == other.devices;
  }
  /// The tiles `s` (manual over these groups) gives an array of rank
  /// `rank`, over the local ids; nothing where `s` groups the partitions
  /// otherwise or the groups' members of one local id hold different tiles.
  std::optional<TileSharding> localTiles(ShardingAttr s, int64_t rank) const;
  /// The sharding of local tiles `t` (over the local ids): manual over
  /// these groups (`localTiles` the other way round).
  ShardingAttr toAttr(const TileSharding &t, MLIRContext *ctx) const;

  /// The local tiles (of local values of shape `local`, each group's block
  /// of an array of shape `whole`) that tiles `global` of the whole array
  /// give each partition, where the members of each group hold tiles of
  /// one block: what SPMDFullToShardShape makes of an array; nothing
  /// otherwise.
  std::optional<TileSharding> toLocal(const TileSharding &global,
                                      ArrayRef<int64_t> whole,
                                      ArrayRef<int64_t> local) const;
  /// The tiles of the whole array that local tiles `t` give each partition
  /// where `blocks` (tiles of the whole array along the manual axes only:
  /// one per group) says which block each group's local value is: what
  /// SPMDShardToFullShape makes of local values; nothing where the members
  /// of a group hold different blocks.
  std::optional<TileSharding> toGlobal(const TileSharding &t,
                                       const TileSharding &blocks) const;

private:
  SmallVector<SmallVector<int64_t>> devices;
  SmallVector<int64_t> local;
};

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_SPMDMANUALGROUPS_H
