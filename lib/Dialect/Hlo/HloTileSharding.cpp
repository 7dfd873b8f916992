//===- HloTileSharding.cpp - the tile each partition holds ----------------===//
//
// TileSharding (HloTileSharding.h): shardings read as the tile each
// partition holds, and written back.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloTileSharding.h"

#include <numeric>

#include <map>

using namespace mlir;
using namespace mlir::hlo;

TileSharding TileSharding::replicated(int64_t rank, int64_t numPartitions) {
  TileSharding s;
  s.tiles.assign(rank, 1);
  s.coords.assign(numPartitions, SmallVector<int64_t>(rank, 0));
  return s;
}

/// The tiles of a tiled `sharding` whose subgroups are replicated, but
/// for one `manual` subgroup where `groups` is given (each partition's
/// coordinate along it goes there).
static std::optional<TileSharding> readTiles(ShardingAttr sharding,
                                             int64_t rank,
                                             int64_t numPartitions,
                                             SmallVector<int64_t> *groups) {
  if (!sharding.isTiled() || sharding.getTiledDataRank() != rank)
    return std::nullopt;
  int64_t manualDim = -1;
  for (auto [i, g] : llvm::enumerate(sharding.getLastTileDims())) {
    if (g == ShardingSubgroup::Manual && groups && manualDim < 0)
      manualDim = sharding.getTiledDataRank() + i;
    else if (g != ShardingSubgroup::Replicated)
      return std::nullopt;
  }
  if (groups && manualDim < 0)
    return std::nullopt;
  SmallVector<int64_t> devices = sharding.getDeviceList();
  ArrayRef<int64_t> dims = sharding.getTileAssignmentDims();
  if (int64_t(devices.size()) != numPartitions)
    return std::nullopt;
  SmallVector<int64_t> tiles(sharding.getDataTileDims());
  SmallVector<SmallVector<int64_t>> coords(numPartitions);
  if (groups)
    groups->assign(numPartitions, 0);
  SmallVector<int64_t> index(dims.size(), 0);
  for (int64_t device : devices) {
    if (device < 0 || device >= numPartitions || !coords[device].empty())
      return std::nullopt;
    coords[device].assign(index.begin(), index.begin() + rank);
    if (groups)
      (*groups)[device] = index[manualDim];
    for (int i = int(dims.size()) - 1; i >= 0; --i) {
      if (++index[i] < dims[i])
        break;
      index[i] = 0;
    }
  }
  return TileSharding::fromCoords(tiles, coords);
}

std::optional<TileSharding>
TileSharding::get(ShardingAttr sharding, int64_t rank, int64_t numPartitions) {
  if (!sharding || sharding.isReplicated() || sharding.isMaximal())
    return replicated(rank, numPartitions);
  return readTiles(sharding, rank, numPartitions, nullptr);
}

std::optional<TileSharding>
TileSharding::getPartlyManual(ShardingAttr sharding, int64_t rank,
                              int64_t numPartitions,
                              SmallVector<int64_t> &groups) {
  if (!sharding)
    return std::nullopt;
  return readTiles(sharding, rank, numPartitions, &groups);
}

std::optional<TileSharding>
TileSharding::fromCoords(ArrayRef<int64_t> tiles,
                         ArrayRef<SmallVector<int64_t>> coords) {
  std::map<SmallVector<int64_t>, int64_t> holders;
  for (ArrayRef<int64_t> c : coords) {
    if (c.size() != tiles.size())
      return std::nullopt;
    for (auto [x, t] : llvm::zip(c, tiles))
      if (x < 0 || x >= t)
        return std::nullopt;
    ++holders[SmallVector<int64_t>(c)];
  }
  int64_t count = 1;
  for (int64_t t : tiles)
    count *= t;
  if (int64_t(holders.size()) != count)
    return std::nullopt;
  for (auto &[tile, n] : holders)
    if (n != holders.begin()->second)
      return std::nullopt;
  TileSharding s;
  s.tiles.assign(tiles.begin(), tiles.end());
  s.coords.assign(coords.begin(), coords.end());
  return s;
}

int64_t TileSharding::getReplication() const {
  int64_t count = 1;
  for (int64_t t : tiles)
    count *= t;
  return getNumPartitions() / count;
}

bool TileSharding::isReplicated() const {
  return llvm::all_of(tiles, [](int64_t t) { return t == 1; });
}

SmallVector<int64_t> TileSharding::shardShape(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> shard(shape);
  for (auto [size, t] : llvm::zip(shard, tiles))
    size = llvm::divideCeil(size, t);
  return shard;
}

bool TileSharding::isEven(ArrayRef<int64_t> shape) const {
  for (auto [size, t] : llvm::zip(shape, tiles))
    if (size % t)
      return false;
  return true;
}

TileSharding TileSharding::withoutDim(int64_t dim) const {
  TileSharding s = *this;
  s.tiles[dim] = 1;
  for (SmallVector<int64_t> &c : s.coords)
    c[dim] = 0;
  return s;
}

TileSharding TileSharding::project(ArrayRef<int64_t> dims) const {
  TileSharding s;
  for (int64_t d : dims)
    s.tiles.push_back(d < 0 ? 1 : tiles[d]);
  for (ArrayRef<int64_t> c : coords) {
    s.coords.emplace_back();
    for (int64_t d : dims)
      s.coords.back().push_back(d < 0 ? 0 : c[d]);
  }
  return s;
}

SmallVector<SmallVector<int64_t>>
TileSharding::groupsAcross(ArrayRef<int64_t> dims) const {
  // A partition's rank among those holding its tile.
  std::map<ArrayRef<int64_t>, int64_t> seen;
  SmallVector<int64_t> rank;
  for (const SmallVector<int64_t> &c : coords)
    rank.push_back(seen[c]++);
  // Group key: the coordinates outside `dims` and the rank; place: the
  // coordinates in `dims`.
  std::map<SmallVector<int64_t>, std::map<SmallVector<int64_t>, int64_t>>
      groups;
  for (int64_t p = 0; p < getNumPartitions(); ++p) {
    SmallVector<int64_t> key, place;
    for (int64_t d = 0; d < getRank(); ++d)
      (llvm::is_contained(dims, d) ? place : key).push_back(coords[p][d]);
    key.push_back(rank[p]);
    groups[key][place] = p;
  }
  SmallVector<SmallVector<int64_t>> result;
  for (auto &[key, members] : groups) {
    result.emplace_back();
    for (auto &[place, p] : members)
      result.back().push_back(p);
  }
  return result;
}

ShardingAttr TileSharding::toAttr(MLIRContext *ctx) const {
  if (isReplicated())
    return ShardingAttr::get(ctx, ShardingKind::Replicated);
  SmallVector<std::pair<ArrayRef<int64_t>, int64_t>> order;
  for (int64_t p = 0; p < getNumPartitions(); ++p)
    order.push_back({coords[p], p});
  llvm::sort(order);
  SmallVector<int64_t> devices, dims(tiles);
  bool iota = true;
  for (auto [i, entry] : llvm::enumerate(order)) {
    devices.push_back(entry.second);
    iota &= entry.second == int64_t(i);
  }
  int64_t replication = getReplication();
  if (replication > 1)
    dims.push_back(replication);
  if (iota)
    return ShardingAttr::getIota(ctx, dims, {getNumPartitions()}, {},
                                 replication > 1);
  // A transposed iota, as XLA writes it (`<=[2,2]T(1,0)`).
  SmallVector<int64_t> reshape, perm;
  if (findIotaForm(devices, reshape, perm))
    return ShardingAttr::getIota(ctx, dims, reshape, perm, replication > 1);
  return ShardingAttr::getTiled(ctx, dims, devices, replication > 1);
}

void mlir::hlo::canonicalizeIota(SmallVector<int64_t> &reshape,
                                 SmallVector<int64_t> &perm) {
  // The dimensions kept, renumbered in source order.
  SmallVector<int64_t> rankOf(reshape.size(), -1), sizes;
  for (auto [d, size] : llvm::enumerate(reshape))
    if (size > 1) {
      rankOf[d] = sizes.size();
      sizes.push_back(size);
    }
  SmallVector<int64_t> keep;
  for (int64_t p : perm)
    if (rankOf[p] >= 0)
      keep.push_back(rankOf[p]);
  // Runs of consecutive source dimensions in the transposed order.
  SmallVector<std::pair<int64_t, int64_t>> runs; // (first source dim, size)
  for (size_t i = 0; i < keep.size(); ++i) {
    if (i > 0 && keep[i] == keep[i - 1] + 1)
      runs.back().second *= sizes[keep[i]];
    else
      runs.push_back({keep[i], sizes[keep[i]]});
  }
  // Sources of the runs in increasing order give the new reshape.
  SmallVector<int64_t> order(runs.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::sort(order, [&](int64_t a, int64_t b) {
    return runs[a].first < runs[b].first;
  });
  reshape.clear();
  perm.assign(runs.size(), 0);
  for (auto [rank, run] : llvm::enumerate(order)) {
    reshape.push_back(runs[run].second);
    perm[run] = rank;
  }
  bool identity = true;
  for (auto [i, p] : llvm::enumerate(perm))
    identity &= (int64_t)i == p;
  if (identity) {
    int64_t n = 1;
    for (int64_t d : reshape)
      n *= d;
    reshape.assign({n});
    perm.clear();
  }
}

bool mlir::hlo::findIotaForm(ArrayRef<int64_t> devices,
                             SmallVector<int64_t> &reshape,
                             SmallVector<int64_t> &perm) {
  int64_t n = devices.size();
  if (n < 2 || devices[0] != 0)
    return false;
  // The shape of the transposed array (major first) and each dimension's
  // stride in the device ids, peeled off from the minor end.
  SmallVector<int64_t> dims, strides;
  for (int64_t block = 1; block < n;) {
    int64_t stride = devices[block], count = 1;
    while (block * (count + 1) <= n && devices[block * count] == count * stride)
      ++count;
    while (count > 1 && n % (block * count) != 0)
      --count;
    if (count < 2 || stride < 1)
      return false;
    dims.insert(dims.begin(), count);
    strides.insert(strides.begin(), stride);
    block *= count;
  }
  // Every device where the strides put it.
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i, id = 0;
    for (int64_t k = dims.size() - 1; k >= 0; --k) {
      id += rest % dims[k] * strides[k];
      rest /= dims[k];
    }
    if (id != devices[i])
      return false;
  }
  // The source dimensions: by decreasing stride, row-major.
  SmallVector<int64_t> order(dims.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::sort(order,
             [&](int64_t a, int64_t b) { return strides[a] > strides[b]; });
  reshape.clear();
  perm.assign(dims.size(), 0);
  int64_t expected = n;
  for (auto [rank, k] : llvm::enumerate(order)) {
    expected /= dims[k];
    if (strides[k] != expected)
      return false;
    reshape.push_back(dims[k]);
    perm[k] = rank;
  }
  canonicalizeIota(reshape, perm);
  return true;
}
