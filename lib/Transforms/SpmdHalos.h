//===- SpmdHalos.h - halo exchanges of hlo-spmd-partitioner -----*- C++ -*-===//
//
// What the partitions of a window tiled along a dimension it slides over
// read of the other tiles (their halo), and the collective-permutes and
// slices that give it to them (XLA's halo exchange). The rules that use
// them are in SpmdWindows.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_SPMDHALOS_H
#define HLO_LIB_TRANSFORMS_SPMDHALOS_H

#include "CudnnUtils.h"
#include "SpmdValues.h"

namespace mlir::hlo {

/// What the partitions need of their neighbours along one operand
/// dimension a window slides over.
struct Halo {
  int64_t dim = 0;
  /// Positions before and after its tile each partition's extended tile
  /// holds (its windows' reach), and of those, how many some partition
  /// reads inside the array: the elements received from the previous and
  /// next tiles. The others lie past the array's ends on every partition
  /// that reads them and are padding, sent by no one.
  int64_t left = 0, right = 0, sentLeft = 0, sentRight = 0;
  /// Where each partition's windows start in its tile with its halo.
  SmallVector<int32_t> offsets;
  /// How many elements its windows read from there.
  int64_t length = 0;
  /// Whether some partition's windows read past the array's ends (the
  /// padding), and whether its tiles are uneven (the last tile's elements
  /// past the end are not zeros).
  bool pads = false, uneven = false;
  /// Whether positions past the array's ends wrap around to its other end
  /// (a rotation): the first tile's previous neighbour is the last (even
  /// tiles only).
  bool cyclic = false;
  /// The window's padding there after the halo (a dilated base's edges).
  int64_t padLow = 0, padHigh = 0;
};

/// What the partitions of a select-and-scatter whose windows cross tiles
/// along one dimension take of their neighbours.
struct Crossing {
  Halo operand, source;
  /// Where each partition's tile starts in the rows it scatters over.
  SmallVector<int32_t> offsets;
};

/// The halo of operand dimension `dim` (of `size` elements in `n` tiles;
/// `in`, if given, says which partitions hold each) where the partitions
/// holding tile k read `length` elements from `first(k)` of the whole
/// operand (from as many tiles before and after as that takes); nothing
/// where that reaches past every other tile.
std::optional<Halo> planHalo(const TileSharding *in, int64_t dim, int64_t n,
                             int64_t size, int64_t length,
                             function_ref<int64_t(int64_t)> first);

/// The halo of operand dimension `dim` (of `size` elements in `n` tiles,
/// `in` if given) under window dimension `w` of `window` where the
/// result's dimension (`outSize` long) is tiled alike (see SpmdHalos.cpp).
std::optional<Halo> slidingHalo(const TileSharding *in, int64_t dim, int64_t n,
                                int64_t size, int64_t outSize,
                                const WindowFields &window, size_t w);

/// How the partitions of a select-and-scatter whose windows cross tiles
/// along operand dimension `d` (of `size` elements, its source
/// `sourceSize`, in `n` tiles, `tiles` if given) take the windows that
/// meet their tile (see SpmdHalos.cpp); nothing for padded or dilated
/// windows.
std::optional<Crossing> planCrossing(const TileSharding *tiles,
                                     const WindowFields &window, size_t d,
                                     int64_t n, int64_t size,
                                     int64_t sourceSize);

/// The halo of a rotation (a result of `outSize` elements along the
/// source's dimension `dim`, element i the source's (start + i) mod size)
/// tiled `n` ways along it, evenly in the source (`in`, if given, says
/// which partitions hold each tile): a cyclic halo from the tiles nearest
/// each partition's result tile, or where the rotation does not wrap
/// around, a slice's; nothing for uneven source tiles that it wraps.
std::optional<Halo> rotationHalo(const TileSharding *in, int64_t dim, int64_t n,
                                 int64_t size, int64_t outSize, int64_t start);

/// `v` sliced to [start, limit) along `dim`.
Value sliceDim(InstBuilder &ib, Value v, int64_t dim, int64_t start,
               int64_t limit);

/// `length` elements of `v` along `dim` from each partition's offset
/// there: a slice where every offset is the same, else a dynamic-slice at
/// a table of them (`v` itself where that is all of it).
Value sliceAt(SpmdValues &values, InstBuilder &ib, Value v, int64_t dim,
              ArrayRef<int32_t> offsets, int64_t length);

/// Tile `v` (tiles `in`) with its halo `h`, positions past the array's
/// ends (of `size`) `padValue` (a scalar; null: zeros), sliced to what its
/// windows read.
Value withHalo(SpmdValues &values, InstBuilder &ib, Value v,
               const TileSharding &in, const Halo &h, int64_t size,
               Value padValue);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_SPMDHALOS_H
