//===- HloTileSharding.h - the tile each partition holds --------*- C++ -*-===//
//
// A sharding read as what the SPMD partitioner and the runtimes need: for
// each partition, the coordinates of the tile of the array it holds (XLA's
// HloSharding tile assignment, with replicated subgroups). Replicated and
// maximal shardings are the one tile on every partition.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOTILESHARDING_H
#define HLO_DIALECT_HLO_HLOTILESHARDING_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include <optional>

namespace mlir::hlo {

class TileSharding {
public:
  /// Every partition holds the whole array of rank `rank`.
  static TileSharding replicated(int64_t rank, int64_t numPartitions);
  /// `sharding` over an array of rank `rank` on `numPartitions`
  /// partitions: nothing for manual, unknown and tuple shardings, subgroups
  /// other than replicated ones, and tile assignments that are not a
  /// permutation of the partitions.
  static std::optional<TileSharding> get(ShardingAttr sharding, int64_t rank,
                                         int64_t numPartitions);
  /// `sharding` manual over some axes (one `manual` subgroup, any others
  /// replicated) as the tiles of the local values: the data dimensions'
  /// tiles as `get` reads them, each partition's coordinate along the
  /// manual subgroup (its group, whose members share one local value) in
  /// `groups`. Nothing for other shardings.
  static std::optional<TileSharding>
  getPartlyManual(ShardingAttr sharding, int64_t rank, int64_t numPartitions,
                  SmallVector<int64_t> &groups);
  /// From the tile counts per dimension and each partition's coordinates:
  /// nothing unless every tile is held by as many partitions.
  static std::optional<TileSharding>
  fromCoords(ArrayRef<int64_t> tiles, ArrayRef<SmallVector<int64_t>> coords);

  int64_t getRank() const { return tiles.size(); }
  int64_t getNumPartitions() const { return coords.size(); }
  ArrayRef<int64_t> getTiles() const { return tiles; }
  int64_t getTiles(int64_t dim) const { return tiles[dim]; }
  /// The tile coordinates of partition `p`.
  ArrayRef<int64_t> getCoords(int64_t p) const { return coords[p]; }
  /// Partitions holding each tile.
  int64_t getReplication() const;
  bool isReplicated() const;
  bool operator==(const TileSharding &other) const {
    return tiles == other.tiles && coords == other.coords;
  }

  /// The shape of each partition's tile: ceil(size / tiles) per dimension.
  SmallVector<int64_t> shardShape(ArrayRef<int64_t> shape) const;
  /// True when every tiled dimension divides evenly.
  bool isEven(ArrayRef<int64_t> shape) const;
  /// The same tiles with dimension `dim` whole (its partitions replicate).
  TileSharding withoutDim(int64_t dim) const;
  /// The tiles of an array whose dimension i is dimension `dims[i]` of this
  /// one (-1: whole): the tiles of the other dimensions become replication.
  TileSharding project(ArrayRef<int64_t> dims) const;
  /// The groups of partitions that hold the same tile in every dimension
  /// but `dims` and together hold every tile of `dims`, each ordered by its
  /// coordinates in `dims` (row-major): an all-gather or all-reduce across
  /// `dims`. Partitions holding the same tile are told apart by their
  /// rank among them.
  SmallVector<SmallVector<int64_t>> groupsAcross(ArrayRef<int64_t> dims) const;
  /// The attribute: `{replicated}`, or the tile assignment with the
  /// partitions of each tile listed in increasing order (iota form when
  /// that is 0..n-1) and a trailing replicated subgroup.
  ShardingAttr toAttr(MLIRContext *ctx) const;

private:
  SmallVector<int64_t> tiles;
  SmallVector<SmallVector<int64_t>> coords;
};

/// The iota tile assignment `[reshape]T(perm)` in XLA's canonical form:
/// size-1 dimensions dropped, dimensions that stay adjacent merged, no
/// `T(...)` for the identity.
void canonicalizeIota(SmallVector<int64_t> &reshape,
                      SmallVector<int64_t> &perm);

/// Whether `devices` (a tile assignment's, row-major) are a transposed
/// iota, `iota(n).reshape(reshape).transpose(perm)`, and which (canonical).
bool findIotaForm(ArrayRef<int64_t> devices, SmallVector<int64_t> &reshape,
                  SmallVector<int64_t> &perm);

} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLOTILESHARDING_H
