//===- SpmdValues.cpp - the tiles of the values being partitioned ---------===//
//
// SpmdValues (SpmdValues.h): resharding by all-gathers across the
// dimensions tiled otherwise (in groups of the partitions holding the same
// tile elsewhere), then one dynamic-slice of each partition's tile at
// offsets read from tables at the partition id; partial results summed by
// all-reduces.
//
//===----------------------------------------------------------------------===//

#include "SpmdValues.h"

#include "CollectiveOptUtils.h"
#include "RewriteUtils.h"

#include <map>

using namespace mlir;
using namespace mlir::hlo;

void SpmdValues::setGroups(const ManualGroups *g) {
  groups = g;
  numPartitions = g ? g->getNumLocal() : allPartitions;
}

SmallVector<SmallVector<int64_t>>
SpmdValues::moduleGroups(ArrayRef<SmallVector<int64_t>> g) const {
  if (!groups)
    return SmallVector<SmallVector<int64_t>>(g);
  SmallVector<SmallVector<int64_t>> all;
  for (ArrayRef<int64_t> members : groups->getGroups())
    for (ArrayRef<int64_t> group : g) {
      all.emplace_back();
      for (int64_t l : group)
        all.back().push_back(members[l]);
    }
  return all;
}

Value SpmdValues::atPartition(InstBuilder &ib, ArrayRef<int32_t> table,
                              Value *pid) {
  SmallVector<int32_t> all(table);
  if (groups) {
    all.assign(allPartitions, 0);
    for (int64_t p = 0; p < allPartitions; ++p)
      all[p] = table[groups->localOf(p)];
  }
  OpBuilder &b = ib.getBuilder();
  auto tableType =
      RankedTensorType::get({int64_t(all.size())}, IntegerType::get(ctx, 32));
  Value values = ib.create<ConstantOp>(
      tableType, {},
      {b.getNamedAttr("value",
                      DenseElementsAttr::get(tableType, ArrayRef(all)))});
  Value id;
  if (pid && *pid)
    id = *pid;
  else
    id = ib.create<PartitionIdOp>(
        RankedTensorType::get({},
                              IntegerType::get(ctx, 32, IntegerType::Unsigned)),
        {});
  if (pid)
    *pid = id;
  return ib.reshape(ib.dynamicSlice(values, {id}, {1}), {});
}

TileSharding SpmdValues::currentOf(Value v) {
  auto it = current.find(v);
  // A value from outside a manual region is whole there (the partitioner
  // makes it so before it enters the region).
  if (it != current.end() && it->second.getNumPartitions() == numPartitions)
    return it->second;
  return TileSharding::replicated(arrayType(v).getRank(), numPartitions);
}

ReplicaGroupsAttr
SpmdValues::globalGroups(ArrayRef<SmallVector<int64_t>> groups) {
  SmallVector<SmallVector<int64_t>> all;
  for (int64_t r = 0; r < numReplicas; ++r)
    for (ArrayRef<int64_t> g : moduleGroups(groups)) {
      all.emplace_back();
      for (int64_t p : g)
        all.back().push_back(r * allPartitions + p);
    }
  return makeReplicaGroups(ctx, all);
}

NamedAttribute SpmdValues::newChannel(OpBuilder &b) {
  ++collectives;
  return b.getNamedAttr("channel_id", b.getI64IntegerAttr(nextChannel++));
}

SmallVector<NamedAttribute>
SpmdValues::collectiveAttrs(OpBuilder &b, ArrayRef<SmallVector<int64_t>> g) {
  return {newChannel(b), b.getNamedAttr("replica_groups", globalGroups(g)),
          b.getNamedAttr("use_global_device_ids", b.getBoolAttr(true))};
}

std::optional<Value> SpmdValues::permuteTiles(InstBuilder &ib, Value v,
                                              const TileSharding &from,
                                              const TileSharding &to) {
  if (from.getTiles() != to.getTiles())
    return std::nullopt;
  // Each tile's holders now send it to its holders then, one to one (as
  // many hold each tile); a partition that keeps its tile sends to itself.
  std::map<SmallVector<int64_t>, SmallVector<int64_t>> senders, receivers;
  for (int64_t p = 0; p < numPartitions; ++p) {
    senders[SmallVector<int64_t>(from.getCoords(p))].push_back(p);
    receivers[SmallVector<int64_t>(to.getCoords(p))].push_back(p);
  }
  SmallVector<std::pair<int64_t, int64_t>> pairs;
  for (auto &[tile, dst] : receivers) {
    SmallVector<int64_t> src = senders[tile];
    SmallVector<int64_t> rest;
    for (int64_t p : dst) {
      if (auto *it = llvm::find(src, p); it != src.end()) {
        pairs.push_back({p, p});
        src.erase(it);
      } else {
        rest.push_back(p);
      }
    }
    for (auto [s, t] : llvm::zip(src, rest))
      pairs.push_back({s, t});
  }
  return permute(ib, v, pairs);
}

Value SpmdValues::permute(InstBuilder &ib, Value v,
                          ArrayRef<std::pair<int64_t, int64_t>> pairs) {
  OpBuilder &b = ib.getBuilder();
  SmallVector<Attribute> attrs;
  for (auto [s, t] : pairs) {
    if (!groups) {
      attrs.push_back(b.getDenseI64ArrayAttr({s, t}));
      continue;
    }
    for (ArrayRef<int64_t> members : groups->getGroups())
      attrs.push_back(b.getDenseI64ArrayAttr({members[s], members[t]}));
  }
  return ib.create<CollectivePermuteOp>(
      v.getType(), v,
      {newChannel(b),
       b.getNamedAttr("source_target_pairs", b.getArrayAttr(attrs))});
}

std::optional<Value> SpmdValues::allToAllTiles(InstBuilder &ib, Value v,
                                               const TileSharding &from,
                                               const TileSharding &to,
                                               ArrayRef<int64_t> whole) {
  // The one dimension `a` tiled now whose tiles go to dimension `b`, each
  // partition's coordinate along `a` its coordinate along `b` then.
  SmallVector<int64_t> changed;
  for (int64_t d = 0; d < from.getRank(); ++d)
    for (int64_t p = 0; p < numPartitions; ++p)
      if (from.getTiles(d) != to.getTiles(d) ||
          from.getCoords(p)[d] != to.getCoords(p)[d]) {
        changed.push_back(d);
        break;
      }
  if (changed.size() != 2)
    return std::nullopt;
  int64_t a = changed[0], c = changed[1];
  if (from.getTiles(a) == 1)
    std::swap(a, c);
  int64_t n = from.getTiles(a);
  if (n == 1 || from.getTiles(c) != 1 || to.getTiles(a) != 1 ||
      to.getTiles(c) != n || whole[a] % n != 0 || whole[c] % n != 0)
    return std::nullopt;
  for (int64_t p = 0; p < numPartitions; ++p)
    if (to.getCoords(p)[c] != from.getCoords(p)[a])
      return std::nullopt;
  SmallVector<SmallVector<int64_t>> groups = from.groupsAcross({a});
  if (groups != to.groupsAcross({c}))
    return std::nullopt;
  // Dimension c split in n chunks (a new dimension before it), chunk k sent
  // to the group's k-th member, the chunks received (the members' rows, in
  // order) moved before dimension a and merged into it.
  RankedTensorType type = arrayType(v);
  SmallVector<int64_t> split(type.getShape());
  split[c] /= n;
  split.insert(split.begin() + c, n);
  OpBuilder &b = ib.getBuilder();
  Value x = ib.reshape(v, split);
  // HLO's all-to-all has no use_global_device_ids: with a channel id its
  // groups are partition ids, within each replica.
  x = ib.create<AllToAllOp>(
      x.getType(), x,
      {newChannel(b),
       b.getNamedAttr("replica_groups",
                      makeReplicaGroups(ctx, moduleGroups(groups))),
       b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({c}))});
  int64_t at = a < c ? a : a + 1;
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < int64_t(split.size()); ++d) {
    if (d == c)
      continue;
    if (d == at)
      perm.push_back(c);
    perm.push_back(d);
  }
  x = ib.transpose(x, perm);
  x = ib.reshape(x, to.shardShape(whole));
  x.setType(withShape(type, to.shardShape(whole)));
  return x;
}

Value SpmdValues::reshard(InstBuilder &ib, Value v, TileSharding from,
                          const TileSharding &to, ArrayRef<int64_t> whole) {
  if (from == to)
    return v;
  // One made before in this block serves every later user (instructions
  // are partitioned in order, each resharding before itself or later).
  Block *block = ib.getBuilder().getInsertionBlock();
  for (const Reshard &r : reshards.lookup(v))
    if (r.from == from && r.to == to &&
        r.value.getDefiningOp()->getBlock() == block)
      return r.value;
  Value made = reshardAnew(ib, v, from, to, whole);
  reshards[v].push_back({from, to, made});
  return made;
}

Value SpmdValues::madeFrom(Value v, Block *block, ArrayRef<int64_t> key) const {
  auto it = derived.find(v);
  if (it == derived.end())
    return {};
  for (const auto &[k, made] : it->second)
    if (ArrayRef<int64_t>(k) == key &&
        made.getDefiningOp()->getBlock() == block)
      return made;
  return {};
}

Value SpmdValues::reshardAnew(InstBuilder &ib, Value v, TileSharding from,
                              const TileSharding &to, ArrayRef<int64_t> whole) {
  OpBuilder &b = ib.getBuilder();
  // A whole broadcast is made again at the tile: of its operand's tile
  // (a scalar's is itself), not sliced out of the whole array.
  if (auto bcast = v.getDefiningOp<BroadcastOp>();
      bcast && from.isReplicated()) {
    SmallVector<int64_t> dims(
        bcast.getDimensions().value_or(ArrayRef<int64_t>{}));
    Value in = bcast->getOperand(0);
    Value tile =
        reshard(ib, in, currentOf(in), to.project(dims), wholeShape(in));
    return ib.create<BroadcastOp>(
        withShape(arrayType(v), to.shardShape(whole)), tile,
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(dims))});
  }
  // Tiles that only move between partitions go by a collective-permute,
  // one dimension's tiles going to another's by an all-to-all (each moves
  // only what changes place).
  if (std::optional<Value> moved = permuteTiles(ib, v, from, to))
    return *moved;
  if (std::optional<Value> moved = allToAllTiles(ib, v, from, to, whole))
    return *moved;
  auto keeps = [&](int64_t d) {
    if (from.getTiles(d) != to.getTiles(d))
      return false;
    for (int64_t p = 0; p < numPartitions; ++p)
      if (from.getCoords(p)[d] != to.getCoords(p)[d])
        return false;
    return true;
  };
  // Gather every dimension tiled otherwise than `to` tiles it.
  for (int64_t d = 0; d < from.getRank(); ++d) {
    if (from.getTiles(d) == 1 || keeps(d))
      continue;
    RankedTensorType type = arrayType(v);
    SmallVector<int64_t> shape(type.getShape());
    shape[d] *= from.getTiles(d);
    auto attrs = collectiveAttrs(b, from.groupsAcross({d}));
    attrs.push_back(b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({d})));
    v = ib.create<AllGatherOp>(withShape(type, shape), v, attrs);
    if (shape[d] != whole[d]) {
      // The padding of uneven tiles goes.
      SmallVector<int64_t> limits(shape);
      limits[d] = whole[d];
      v = ib.create<SliceOp>(
          withShape(type, limits), v,
          {b.getNamedAttr(
              "slice",
              SliceAttr::get(ctx, SmallVector<int64_t>(shape.size(), 0), limits,
                             SmallVector<int64_t>(shape.size(), 1)))});
    }
    from = from.withoutDim(d);
  }
  if (from == to)
    return v;
  // Slice each partition's tile out of the dimensions now whole.
  RankedTensorType type = arrayType(v);
  SmallVector<int64_t> tile = to.shardShape(whole);
  SmallVector<int64_t> padded(type.getShape()), high;
  bool pad = false;
  for (int64_t d = 0; d < to.getRank(); ++d) {
    int64_t h = from.getTiles(d) == 1 ? tile[d] * to.getTiles(d) - whole[d] : 0;
    padded[d] += h;
    high.push_back(h);
    pad |= h > 0;
  }
  if (pad) {
    Value zero = ib.scalar(type.getElementType(), 0);
    SmallVector<int64_t> zeros(high.size(), 0);
    v = ib.create<PadOp>(
        withShape(type, padded), {v, zero},
        {b.getNamedAttr("padding", PaddingAttr::get(ctx, zeros, high, zeros))});
  }
  auto s32 = IntegerType::get(ctx, 32);
  SmallVector<Value> starts;
  SmallVector<int64_t> sizes(type.getShape());
  Value pid;
  for (int64_t d = 0; d < to.getRank(); ++d) {
    if (from.getTiles(d) > 1 || to.getTiles(d) == 1) {
      starts.push_back(ib.scalar(s32, 0));
      continue;
    }
    sizes[d] = tile[d];
    SmallVector<int32_t> table;
    for (int64_t p = 0; p < numPartitions; ++p)
      table.push_back(to.getCoords(p)[d] * tile[d]);
    starts.push_back(atPartition(ib, table, &pid));
  }
  Value sliced = ib.dynamicSlice(v, starts, sizes);
  sliced.setType(withShape(type, sizes));
  return sliced;
}

void SpmdValues::setOperandTiles(Operation *op, unsigned i,
                                 const TileSharding &to) {
  Value v = op->getOperand(i);
  OpBuilder b(op);
  InstBuilder ib(b, derivedLoc(op->getLoc()));
  op->setOperand(i, reshard(ib, v, currentOf(v), to, wholeShape(v)));
}

ArrayRef<int64_t> SpmdValues::wholeShape(Value v) {
  auto it = wholeShapes.find(v);
  return it != wholeShapes.end() ? ArrayRef<int64_t>(it->second)
                                 : arrayType(v).getShape();
}

void SpmdValues::setResultTiles(Operation *op, const TileSharding &t) {
  Value r = op->getResult(0);
  RankedTensorType type = arrayType(r);
  wholeShapes[r] = SmallVector<int64_t>(type.getShape());
  r.setType(withShape(type, t.shardShape(type.getShape())));
  current.insert_or_assign(r, t);
}

std::optional<SmallVector<int64_t>>
mlir::hlo::resultDimsOf(Operation *op, ArrayRef<int64_t> in,
                        ArrayRef<int64_t> out) {
  SmallVector<int64_t> dims(in.size(), -1);
  if (auto bcast = dyn_cast<BroadcastOp>(op)) {
    for (auto [i, d] :
         llvm::enumerate(bcast.getDimensions().value_or(ArrayRef<int64_t>{})))
      dims[i] = d;
  } else if (auto transpose = dyn_cast<TransposeOp>(op)) {
    // Operand dimension perm[i] is result dimension i.
    for (auto [i, d] : llvm::enumerate(transpose.getDimensions()))
      dims[d] = i;
  } else if (isa<ReshapeOp>(op)) {
    // The groups of dimensions of as many elements on both sides: the
    // first dimension of more than one element of each is the other's
    // (kept as it is, or the major part of a split or merge).
    if (llvm::is_contained(in, 0) || llvm::is_contained(out, 0))
      return dims;
    size_t i = 0, k = 0;
    while (i < in.size() && k < out.size()) {
      size_t i0 = i, k0 = k;
      int64_t a = in[i++], b = out[k++];
      while (a != b && (a < b ? i < in.size() : k < out.size()))
        a < b ? a *= in[i++] : b *= out[k++];
      if (a != b)
        break;
      auto major = [](ArrayRef<int64_t> shape, size_t from, size_t to) {
        for (size_t d = from; d < to; ++d)
          if (shape[d] > 1)
            return int64_t(d);
        return int64_t(-1);
      };
      int64_t e = major(in, i0, i), d = major(out, k0, k);
      if (e >= 0 && d >= 0)
        dims[e] = d;
    }
  } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
    for (int64_t e = 0, next = 0; e < int64_t(in.size()); ++e)
      if (!llvm::is_contained(reduce.getDimensions(), e))
        dims[e] = next++;
  } else if (in.size() != out.size() &&
             isa<ConcatenateOp, SortOp, ReduceWindowOp, PadOp, DynamicSliceOp,
                 DynamicUpdateSliceOp, SliceOp>(op)) {
    // A scalar operand (a padding or initial value, a start index).
  } else if (auto c = dyn_cast<ConcatenateOp>(op)) {
    // Every dimension but the one joined along.
    for (size_t d = 0; d < in.size(); ++d)
      if (int64_t(d) != c.getDimensions()[0])
        dims[d] = d;
  } else if (auto sort = dyn_cast<SortOp>(op)) {
    for (size_t d = 0; d < in.size(); ++d)
      if (int64_t(d) != sort.getDimensions()[0])
        dims[d] = d;
  } else if (auto pad = dyn_cast<PadOp>(op)) {
    // The dimensions not padded.
    PaddingAttr p = pad.getPadding();
    for (size_t d = 0; d < in.size(); ++d)
      if (p.getLow()[d] == 0 && p.getHigh()[d] == 0 && p.getInterior()[d] == 0)
        dims[d] = d;
  } else if (auto rw = dyn_cast<ReduceWindowOp>(op)) {
    // The dimensions whose window is one element, unpadded, undilated.
    WindowAttr w = rw.getWindowAttr();
    auto at = [](ArrayRef<int64_t> a, size_t d, int64_t otherwise) {
      return d < a.size() ? a[d] : otherwise;
    };
    for (size_t d = 0; d < in.size(); ++d)
      if (!w ||
          (at(w.getSize(), d, 1) == 1 && at(w.getStride(), d, 1) == 1 &&
           at(w.getPadLow(), d, 0) == 0 && at(w.getPadHigh(), d, 0) == 0 &&
           at(w.getLhsDilate(), d, 1) == 1 && at(w.getRhsDilate(), d, 1) == 1))
        dims[d] = d;
  } else if (isa<DynamicSliceOp, DynamicUpdateSliceOp, SliceOp>(op)) {
    // A dimension taken whole keeps its tiles (a start there is 0, a
    // dynamic one clamped to it); for a dynamic-update-slice, its operand's
    // and its update's.
    for (size_t d = 0; d < in.size(); ++d)
      if (in[d] == out[d])
        dims[d] = d;
  } else {
    return std::nullopt;
  }
  return dims;
}

TileSharding mlir::hlo::mirrorTiles(TileSharding t, ArrayRef<int64_t> dims) {
  SmallVector<SmallVector<int64_t>> coords;
  for (int64_t p = 0; p < t.getNumPartitions(); ++p)
    coords.emplace_back(t.getCoords(p));
  for (int64_t d : dims)
    for (SmallVector<int64_t> &c : coords)
      c[d] = t.getTiles(d) - 1 - c[d];
  return *TileSharding::fromCoords(t.getTiles(), coords);
}

TileSharding mlir::hlo::mergeTiles(const TileSharding &a,
                                   const TileSharding &b) {
  TileSharding merged = a;
  for (int64_t d = 0; d < a.getRank(); ++d) {
    if (merged.getTiles(d) > 1 || b.getTiles(d) == 1)
      continue;
    SmallVector<int64_t> tiles(merged.getTiles());
    tiles[d] = b.getTiles(d);
    SmallVector<SmallVector<int64_t>> coords;
    for (int64_t p = 0; p < a.getNumPartitions(); ++p) {
      coords.emplace_back(merged.getCoords(p));
      coords.back()[d] = b.getCoords(p)[d];
    }
    if (std::optional<TileSharding> t = TileSharding::fromCoords(tiles, coords))
      merged = *t;
  }
  return merged;
}

SmallVector<int64_t> mlir::hlo::invertDims(ArrayRef<int64_t> dims,
                                           int64_t rank) {
  SmallVector<int64_t> inverse(rank, -1);
  for (auto [e, d] : llvm::enumerate(dims))
    if (d >= 0)
      inverse[d] = e;
  return inverse;
}

std::optional<SmallVector<SmallVector<int64_t>>> SpmdValues::partialSums(
    const TileSharding &out, ArrayRef<int64_t> tiles,
    ArrayRef<SmallVector<int64_t>> coords,
    ArrayRef<std::pair<TileSharding *, ArrayRef<int64_t>>> operands) {
  if (tiles.empty())
    return std::nullopt;
  // The result's tiles and the partial dimensions as one assignment.
  SmallVector<int64_t> allTiles(out.getTiles()), dims;
  llvm::append_range(allTiles, tiles);
  for (size_t d = 0; d < tiles.size(); ++d)
    dims.push_back(out.getRank() + d);
  SmallVector<SmallVector<int64_t>> allCoords;
  for (int64_t p = 0; p < numPartitions; ++p) {
    allCoords.emplace_back(out.getCoords(p));
    llvm::append_range(allCoords.back(), coords[p]);
  }
  std::optional<TileSharding> both =
      TileSharding::fromCoords(allTiles, allCoords);
  if (!both)
    return std::nullopt;
  SmallVector<TileSharding> withPartial;
  for (auto [t, d] : operands) {
    std::optional<TileSharding> w = withPartialDims(*t, d, tiles, coords);
    if (!w)
      return std::nullopt;
    withPartial.push_back(*w);
  }
  for (auto [o, w] : llvm::zip(operands, withPartial))
    *o.first = w;
  return both->groupsAcross(dims);
}

std::optional<TileSharding>
SpmdValues::withPartialDims(const TileSharding &base, ArrayRef<int64_t> dims,
                            ArrayRef<int64_t> tiles,
                            ArrayRef<SmallVector<int64_t>> coords) {
  SmallVector<int64_t> allTiles(base.getTiles());
  SmallVector<SmallVector<int64_t>> allCoords;
  for (auto [i, d] : llvm::enumerate(dims))
    allTiles[d] = tiles[i];
  for (int64_t p = 0; p < numPartitions; ++p) {
    allCoords.emplace_back(base.getCoords(p));
    for (auto [i, d] : llvm::enumerate(dims))
      allCoords.back()[d] = coords[p][i];
  }
  return TileSharding::fromCoords(allTiles, allCoords);
}

void SpmdValues::sumPartials(Operation *op, StringRef reducer,
                             ArrayRef<SmallVector<int64_t>> groups) {
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  InstBuilder ib(b, derivedLoc(op->getLoc()));
  Value r = op->getResult(0);
  auto attrs = collectiveAttrs(b, groups);
  attrs.push_back(b.getNamedAttr(
      "to_apply", FlatSymbolRefAttr::get(b.getContext(), reducer)));
  Value sum = ib.create<AllReduceOp>(r.getType(), r, attrs);
  r.replaceAllUsesExcept(sum, sum.getDefiningOp());
  // Copies first: inserting may move the maps' entries.
  SmallVector<int64_t> whole = wholeShapes.lookup(r);
  TileSharding tiles = current.at(r);
  wholeShapes[sum] = std::move(whole);
  current.insert_or_assign(sum, std::move(tiles));
}

std::optional<std::pair<TileSharding, SmallVector<int64_t>>>
SpmdValues::leafOf(Value tuple, unsigned i) {
  if (auto t = tuple.getDefiningOp<TupleOp>()) {
    Value e = getDataOperands(t)[i];
    if (!arrayType(e))
      return std::nullopt;
    return std::make_pair(currentOf(e), SmallVector<int64_t>(wholeShape(e)));
  }
  auto it = leaves.find(tuple);
  if (it != leaves.end())
    return it->second[i];
  auto type =
      dyn_cast<RankedTensorType>(cast<TupleType>(tuple.getType()).getType(i));
  if (!type)
    return std::nullopt;
  return std::make_pair(TileSharding::replicated(type.getRank(), numPartitions),
                        SmallVector<int64_t>(type.getShape()));
}

void SpmdValues::setLeafTiles(Value tuple, ArrayRef<TileSharding> t,
                              ArrayRef<SmallVector<int64_t>> whole) {
  auto &l = leaves[tuple];
  l.clear();
  for (auto [tiles, shape] : llvm::zip(t, whole))
    l.emplace_back(tiles, shape);
}

Value SpmdValues::reshardLeaves(InstBuilder &ib, Value tuple,
                                ArrayRef<TileSharding> to) {
  auto type = cast<TupleType>(tuple.getType());
  bool same = true;
  for (unsigned i = 0; i < type.size(); ++i) {
    auto leaf = leafOf(tuple, i);
    same &= !leaf || leaf->first == to[i];
  }
  if (same)
    return tuple;
  auto t = tuple.getDefiningOp<TupleOp>();
  SmallVector<Value> elements;
  for (unsigned i = 0; i < type.size(); ++i) {
    Value e = t ? getDataOperands(t)[i] : ib.getTupleElement(tuple, i);
    auto leaf = leafOf(tuple, i);
    if (leaf) {
      e = reshard(ib, e, leaf->first, to[i], leaf->second);
      setTiles(e, to[i], leaf->second);
    }
    elements.push_back(e);
  }
  return ib.tuple(elements);
}

TileSharding mlir::hlo::fitReshapeTiles(TileSharding t, ArrayRef<int64_t> shape,
                                        ArrayRef<int64_t> other,
                                        ArrayRef<int64_t> dims) {
  for (auto [d, e] : llvm::enumerate(dims)) {
    int64_t n = t.getTiles(d);
    if (n > 1 && (e < 0 || (shape[d] != other[e] &&
                            (shape[d] % n != 0 || other[e] % n != 0))))
      t = t.withoutDim(d);
  }
  return t;
}

SmallVector<int64_t> mlir::hlo::gatherIndexDims(GatherOp op) {
  int64_t indicesRank = arrayType(op.getStartIndices()).getRank();
  int64_t resultRank = arrayType(op.getResult()).getRank();
  SmallVector<int64_t> dims(indicesRank, -1);
  int64_t next = 0;
  auto nextBatch = [&] {
    while (llvm::is_contained(op.getOffsetDims(), next))
      ++next;
    return next++;
  };
  for (int64_t d = 0; d < indicesRank; ++d)
    if (d != int64_t(op.getIndexVectorDim()))
      dims[d] = nextBatch();
  for (int64_t &d : dims)
    if (d >= resultRank)
      d = -1;
  return dims;
}

/// For each dimension of an operand of shape `operand`, the dimension of
/// `windows` that is its window (they go in order over the operand's
/// dimensions but `skipped` and `batching`), where that window, of size
/// `windowSize`,
/// takes it whole and `indexed` does not name it; -1 otherwise.
static SmallVector<int64_t>
passthroughDims(ArrayRef<int64_t> operand, ArrayRef<int64_t> skipped,
                ArrayRef<int64_t> batching, ArrayRef<int64_t> windows,
                ArrayRef<int64_t> indexed,
                function_ref<int64_t(int64_t d, int64_t w)> windowSize) {
  SmallVector<int64_t> dims(operand.size(), -1);
  size_t next = 0;
  for (int64_t d = 0; d < int64_t(operand.size()); ++d) {
    if (llvm::is_contained(skipped, d) || llvm::is_contained(batching, d))
      continue;
    if (next >= windows.size())
      break;
    int64_t w = windows[next++];
    if (!llvm::is_contained(indexed, d) && windowSize(d, w) == operand[d])
      dims[d] = w;
  }
  return dims;
}

SmallVector<int64_t>
mlir::hlo::gatherPassthroughDims(GatherOp op, ArrayRef<int64_t> operand) {
  ArrayRef<int64_t> sizes = op.getSliceSizes();
  return passthroughDims(
      operand, op.getCollapsedSliceDims(),
      op.getOperandBatchingDims().value_or(ArrayRef<int64_t>{}),
      op.getOffsetDims(), op.getStartIndexMap(),
      [&](int64_t d, int64_t) -> int64_t {
        return d < int64_t(sizes.size()) ? sizes[d] : -1;
      });
}

SmallVector<int64_t>
mlir::hlo::scatterPassthroughDims(ScatterOp op, ArrayRef<int64_t> operand,
                                  ArrayRef<int64_t> updates) {
  return passthroughDims(
      operand, op.getInsertedWindowDims(),
      op.getInputBatchingDims().value_or(ArrayRef<int64_t>{}),
      op.getUpdateWindowDims(), op.getScatterDimsToOperandDims(),
      [&](int64_t, int64_t u) { return updates[u]; });
}

SmallVector<int64_t> mlir::hlo::dotResultDims(DotOp op, unsigned operand) {
  ArrayRef<int64_t> lb = op.getLhsBatchDims().value_or(ArrayRef<int64_t>{});
  ArrayRef<int64_t> lc =
      op.getLhsContractingDims().value_or(ArrayRef<int64_t>{});
  ArrayRef<int64_t> rb = op.getRhsBatchDims().value_or(ArrayRef<int64_t>{});
  ArrayRef<int64_t> rc =
      op.getRhsContractingDims().value_or(ArrayRef<int64_t>{});
  int64_t lhsRank = arrayType(op.getLhs()).getRank();
  int64_t rhsRank = arrayType(op.getRhs()).getRank();
  // The result: batch, the lhs's free, the rhs's free dimensions.
  SmallVector<int64_t> lhsDim(lhsRank, -1), rhsDim(rhsRank, -1);
  int64_t next = 0;
  for (auto [l, r] : llvm::zip(lb, rb))
    lhsDim[l] = rhsDim[r] = next++;
  for (int64_t d = 0; d < lhsRank; ++d)
    if (!llvm::is_contained(lb, d) && !llvm::is_contained(lc, d))
      lhsDim[d] = next++;
  for (int64_t d = 0; d < rhsRank; ++d)
    if (!llvm::is_contained(rb, d) && !llvm::is_contained(rc, d))
      rhsDim[d] = next++;
  return operand == 0 ? lhsDim : rhsDim;
}

DenseMap<StringAttr, int64_t> mlir::hlo::countCallers(ModuleOp module) {
  DenseMap<StringAttr, int64_t> callers;
  if (auto uses = SymbolTable::getSymbolUses(&module.getBodyRegion()))
    for (const SymbolTable::SymbolUse &use : *uses)
      ++callers[use.getSymbolRef().getRootReference()];
  return callers;
}

/// Whether `t` is an array or a tuple of arrays.
static bool isArrayOrFlatTuple(Type t) {
  auto tuple = dyn_cast<TupleType>(t);
  return isa<RankedTensorType>(t) ||
         (tuple && llvm::all_of(tuple.getTypes(), [](Type e) {
            return isa<RankedTensorType>(e);
          }));
}

std::optional<SmallVector<ComputationOp>>
mlir::hlo::tiledBranches(ConditionalOp op, SymbolTable &symbols,
                         const DenseMap<StringAttr, int64_t> &callers) {
  OperandRange data = getDataOperands(op);
  auto index = dyn_cast<RankedTensorType>(data[0].getType());
  if (!index || index.getRank() != 0 ||
      !isArrayOrFlatTuple(op->getResult(0).getType()))
    return std::nullopt;
  SmallVector<ComputationOp> branches;
  for (auto [k, name] : llvm::enumerate(op.getBranches())) {
    auto branch = symbols.lookup<ComputationOp>(name.getValue());
    if (!branch || k + 1 >= data.size() ||
        callers.lookup(branch.getSymNameAttr()) != 1 ||
        !isArrayOrFlatTuple(data[k + 1].getType()))
      return std::nullopt;
    branches.push_back(branch);
  }
  if (branches.size() + 1 != data.size())
    return std::nullopt;
  return branches;
}

std::optional<std::pair<ComputationOp, ComputationOp>>
mlir::hlo::tiledLoop(WhileOp loop, SymbolTable &symbols,
                     const DenseMap<StringAttr, int64_t> &callers) {
  if (!isArrayOrFlatTuple(loop->getResult(0).getType()))
    return std::nullopt;
  auto body = symbols.lookup<ComputationOp>(loop.getBody());
  auto cond = symbols.lookup<ComputationOp>(loop.getCondition());
  if (!body || !cond || body == cond ||
      callers.lookup(body.getSymNameAttr()) != 1 ||
      callers.lookup(cond.getSymNameAttr()) != 1)
    return std::nullopt;
  return std::make_pair(body, cond);
}
