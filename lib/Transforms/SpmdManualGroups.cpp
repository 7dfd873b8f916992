//===- SpmdManualGroups.cpp - regions manual over some axes ---------------===//
//
// ManualGroups (SpmdManualGroups.h): the groups of a sharding's `manual`
// subgroup, the local tiles of shardings over them, and the tiles the
// boundaries of a region manual over some axes take and give. A sharding
// is read by TileSharding::getPartlyManual, as the interpreter reads it.
//
//===----------------------------------------------------------------------===//

#include "SpmdManualGroups.h"

using namespace mlir;
using namespace mlir::hlo;

std::optional<ManualGroups> ManualGroups::get(ShardingAttr s,
                                              int64_t numPartitions) {
  SmallVector<int64_t> group;
  if (!s || !s.isTiled() ||
      !TileSharding::getPartlyManual(s, s.getTiledDataRank(), numPartitions,
                                     group))
    return std::nullopt;
  ManualGroups g;
  g.devices.resize(*llvm::max_element(group) + 1);
  g.local.assign(numPartitions, 0);
  for (int64_t p : s.getDeviceList()) {
    SmallVector<int64_t> &members = g.devices[group[p]];
    g.local[p] = members.size();
    members.push_back(p);
  }
  return g;
}

const ManualGroups *ManualGroups::unique(ShardingAttr s, int64_t numPartitions,
                                         std::deque<ManualGroups> &known) {
  // (A tuple's first leaf manual over some axes: a loop's state may hold
  // values from outside the region too, whole there.)
  if (s && s.isTuple()) {
    ArrayRef<ShardingAttr> leaves = s.getTupleElements();
    const ShardingAttr *leaf = llvm::find_if(leaves, [&](ShardingAttr e) {
      return get(e, numPartitions).has_value();
    });
    s = leaf == leaves.end() ? ShardingAttr() : *leaf;
  }
  std::optional<ManualGroups> g = get(s, numPartitions);
  if (!g)
    return nullptr;
  for (const ManualGroups &k : known)
    if (k == *g)
      return &k;
  return &known.emplace_back(std::move(*g));
}

std::optional<TileSharding> ManualGroups::localTiles(ShardingAttr s,
                                                     int64_t rank) const {
  SmallVector<int64_t> group;
  std::optional<TileSharding> t =
      s ? TileSharding::getPartlyManual(s, rank, local.size(), group)
        : std::nullopt;
  // The same groups (numbered and ordered as they may be).
  if (!t || *llvm::max_element(group) + 1 != int64_t(devices.size()))
    return std::nullopt;
  for (ArrayRef<int64_t> members : devices)
    if (llvm::any_of(members, [&](int64_t p) {
          return group[p] != group[members.front()];
        }))
      return std::nullopt;
  // The members of one local id hold one tile.
  SmallVector<SmallVector<int64_t>> tiles;
  for (int64_t l = 0; l < getNumLocal(); ++l) {
    ArrayRef<int64_t> first = t->getCoords(devices.front()[l]);
    for (ArrayRef<int64_t> members : devices)
      if (t->getCoords(members[l]) != first)
        return std::nullopt;
    tiles.emplace_back(first);
  }
  return TileSharding::fromCoords(t->getTiles(), tiles);
}

ShardingAttr ManualGroups::toAttr(const TileSharding &t,
                                  MLIRContext *ctx) const {
  // The tiles in row-major order, then the groups, then the members of a
  // group holding one tile.
  SmallVector<std::pair<ArrayRef<int64_t>, int64_t>> order;
  for (int64_t l = 0; l < getNumLocal(); ++l)
    order.push_back({t.getCoords(l), l});
  llvm::stable_sort(
      order, [](const auto &a, const auto &b) { return a.first < b.first; });
  SmallVector<int64_t> list;
  for (size_t i = 0; i < order.size();) {
    size_t end = i;
    while (end < order.size() && order[end].first == order[i].first)
      ++end;
    for (ArrayRef<int64_t> members : devices)
      for (size_t k = i; k < end; ++k)
        list.push_back(members[order[k].second]);
    i = end;
  }
  SmallVector<int64_t> dims(t.getTiles());
  dims.push_back(devices.size());
  SmallVector<ShardingSubgroup> subgroups{ShardingSubgroup::Manual};
  if (int64_t replication = t.getReplication(); replication > 1) {
    dims.push_back(replication);
    subgroups.push_back(ShardingSubgroup::Replicated);
  }
  SmallVector<int64_t> reshape, perm;
  if (findIotaForm(list, reshape, perm))
    return ShardingAttr::getIota(ctx, dims, reshape, perm,
                                 /*lastTileDimReplicate=*/false, subgroups);
  return ShardingAttr::getTiled(ctx, dims, list,
                                /*lastTileDimReplicate=*/false, subgroups);
}

std::optional<TileSharding>
ManualGroups::toLocal(const TileSharding &global, ArrayRef<int64_t> whole,
                      ArrayRef<int64_t> local) const {
  if (!global.isEven(whole))
    return std::nullopt;
  SmallVector<int64_t> tiles;
  for (int64_t d = 0; d < global.getRank(); ++d) {
    if (local[d] == 0 || whole[d] % local[d] != 0 ||
        global.getTiles(d) % (whole[d] / local[d]) != 0)
      return std::nullopt;
    tiles.push_back(global.getTiles(d) / (whole[d] / local[d]));
  }
  // Tile k of the whole array along d is tile k mod tiles[d] of block k /
  // tiles[d].
  auto split = [&](int64_t p) {
    SmallVector<int64_t> block, tile;
    for (int64_t d = 0; d < global.getRank(); ++d) {
      block.push_back(global.getCoords(p)[d] / tiles[d]);
      tile.push_back(global.getCoords(p)[d] % tiles[d]);
    }
    return std::make_pair(block, tile);
  };
  SmallVector<SmallVector<int64_t>> coords;
  for (int64_t p : devices.front())
    coords.push_back(split(p).second);
  for (ArrayRef<int64_t> members : devices)
    for (auto [l, p] : llvm::enumerate(members)) {
      auto [block, tile] = split(p);
      if (tile != coords[l] || block != split(members.front()).first)
        return std::nullopt;
    }
  return TileSharding::fromCoords(tiles, coords);
}

std::optional<TileSharding>
ManualGroups::toGlobal(const TileSharding &t,
                       const TileSharding &blocks) const {
  SmallVector<int64_t> tiles;
  for (int64_t d = 0; d < t.getRank(); ++d)
    tiles.push_back(blocks.getTiles(d) * t.getTiles(d));
  SmallVector<SmallVector<int64_t>> coords(local.size());
  for (ArrayRef<int64_t> members : devices)
    for (auto [l, p] : llvm::enumerate(members)) {
      if (blocks.getCoords(p) != blocks.getCoords(members.front()))
        return std::nullopt;
      for (int64_t d = 0; d < t.getRank(); ++d)
        coords[p].push_back(blocks.getCoords(p)[d] * t.getTiles(d) +
                            t.getCoords(l)[d]);
    }
  return TileSharding::fromCoords(tiles, coords);
}
