//===- SpmdPartitioner.cpp - the program each partition runs --------------===//
//
// XLA's SpmdPartitioner: the entry computation of a module of several
// partitions, its values annotated with shardings, becomes the program
// each partition runs on its tiles. Values keep their tiles as the
// instruction that made them left them (`current`); an instruction asks
// for its operands' tiles as it needs them, and `reshard` makes them:
// all-gathers across the dimensions tiled otherwise (in groups of the
// partitions holding the same tile elsewhere), then one dynamic-slice of
// each partition's tile at offsets read from tables at the partition id.
// Instructions the partitioner has no rule for run on whole arrays.
//
//===----------------------------------------------------------------------===//

#include "CollectiveOptUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloOpClasses.h"
#include "Hlo/Dialect/Hlo/HloShardingCalls.h"
#include "Hlo/Dialect/Hlo/HloTileSharding.h"
#include "Hlo/Transforms/CollectivePasses.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSPMDPARTITIONER
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

static RankedTensorType arrayType(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}

static RankedTensorType withShape(RankedTensorType t, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, t.getElementType(), t.getEncoding());
}

struct SpmdPartitionerPass
    : ChangeReportingPass<SpmdPartitionerPass,
                          hlo::impl::HloSpmdPartitionerBase> {
  void run() {
    ModuleOp module = getOperation();
    std::tie(numReplicas, numPartitions) = getDeviceCounts(module);
    for (auto comp : module.getOps<ComputationOp>())
      if (comp.getEntry())
        entry = comp;
    if (!entry || numPartitions < 2)
      return;
    nextChannel = nextChannelId(module);
    if (failed(partition())) {
      signalPassFailure();
      return;
    }
    changed = true;
  }

  //===--------------------------------------------------------------------===//
  // Shardings
  //===--------------------------------------------------------------------===//

  /// The tiles `s` gives an array of rank `rank`; an error at `loc` for a
  /// sharding the partitioner does not read.
  FailureOr<TileSharding> tilesFor(ShardingAttr s, int64_t rank, Location loc) {
    if (s && s.isManual())
      return emitError(loc) << "hlo-spmd-partitioner: manual shardings "
                               "(shard_map) are not supported yet";
    std::optional<TileSharding> t = TileSharding::get(s, rank, numPartitions);
    if (!t)
      return emitError(loc) << "hlo-spmd-partitioner: cannot partition by "
                            << "sharding " << s << " of rank " << rank;
    return *t;
  }

  TileSharding currentOf(Value v) {
    auto it = current.find(v);
    if (it != current.end())
      return it->second;
    return TileSharding::replicated(arrayType(v).getRank(), numPartitions);
  }

  /// Replica groups of partition-id groups `groups` as global device ids,
  /// on every replica.
  ReplicaGroupsAttr globalGroups(ArrayRef<SmallVector<int64_t>> groups) {
    SmallVector<SmallVector<int64_t>> all;
    for (int64_t r = 0; r < numReplicas; ++r)
      for (ArrayRef<int64_t> g : groups) {
        all.emplace_back();
        for (int64_t p : g)
          all.back().push_back(r * numPartitions + p);
      }
    return makeReplicaGroups(&getContext(), all);
  }

  SmallVector<NamedAttribute>
  collectiveAttrs(OpBuilder &b, ArrayRef<SmallVector<int64_t>> g) {
    ++numCollectives;
    return {b.getNamedAttr("channel_id", b.getI64IntegerAttr(nextChannel++)),
            b.getNamedAttr("replica_groups", globalGroups(g)),
            b.getNamedAttr("use_global_device_ids", b.getBoolAttr(true))};
  }

  //===--------------------------------------------------------------------===//
  // Resharding
  //===--------------------------------------------------------------------===//

  /// `v` (tiles `from` of an array of shape `whole`) with the tiles `to`.
  Value reshard(InstBuilder &ib, Value v, TileSharding from,
                const TileSharding &to, ArrayRef<int64_t> whole) {
    if (from == to)
      return v;
    OpBuilder &b = ib.getBuilder();
    // A whole broadcast is made again at the tile: of its operand's tile
    // (a scalar's is itself), not sliced out of the whole array.
    if (auto bcast = v.getDefiningOp<BroadcastOp>();
        bcast && from.isReplicated()) {
      SmallVector<int64_t> dims(
          bcast.getDimensions().value_or(ArrayRef<int64_t>{}));
      Value in = bcast->getOperand(0);
      Value tile =
          reshard(ib, in, currentOf(in), project(to, dims), wholeShape(in));
      return ib.create<BroadcastOp>(
          withShape(arrayType(v), to.shardShape(whole)), tile,
          {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(dims))});
    }
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
      attrs.push_back(
          b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({d})));
      v = ib.create<AllGatherOp>(withShape(type, shape), v, attrs);
      if (shape[d] != whole[d]) {
        // The padding of uneven tiles goes.
        SmallVector<int64_t> limits(shape);
        limits[d] = whole[d];
        v = ib.create<SliceOp>(
            withShape(type, limits), v,
            {b.getNamedAttr(
                "slice",
                SliceAttr::get(&getContext(),
                               SmallVector<int64_t>(shape.size(), 0), limits,
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
      int64_t h =
          from.getTiles(d) == 1 ? tile[d] * to.getTiles(d) - whole[d] : 0;
      padded[d] += h;
      high.push_back(h);
      pad |= h > 0;
    }
    if (pad) {
      Value zero = ib.scalar(type.getElementType(), 0);
      SmallVector<int64_t> zeros(high.size(), 0);
      v = ib.create<PadOp>(
          withShape(type, padded), {v, zero},
          {b.getNamedAttr(
              "padding", PaddingAttr::get(&getContext(), zeros, high, zeros))});
    }
    auto s32 = IntegerType::get(&getContext(), 32);
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
      auto tableType = RankedTensorType::get({numPartitions}, s32);
      Value offsets = ib.create<ConstantOp>(
          tableType, {},
          {b.getNamedAttr("value",
                          DenseElementsAttr::get(tableType, ArrayRef(table)))});
      if (!pid)
        pid = ib.create<PartitionIdOp>(
            RankedTensorType::get(
                {}, IntegerType::get(&getContext(), 32, IntegerType::Unsigned)),
            {});
      starts.push_back(ib.reshape(ib.dynamicSlice(offsets, {pid}, {1}), {}));
    }
    Value sliced = ib.dynamicSlice(v, starts, sizes);
    sliced.setType(withShape(type, sizes));
    return sliced;
  }

  /// Operand `i` of `op` resharded to `to`.
  void setOperandTiles(Operation *op, unsigned i, const TileSharding &to) {
    Value v = op->getOperand(i);
    OpBuilder b(op);
    InstBuilder ib(b, derivedLoc(op->getLoc()));
    op->setOperand(i, reshard(ib, v, currentOf(v), to, wholeShape(v)));
  }

  /// The shape of array `v` before partitioning.
  ArrayRef<int64_t> wholeShape(Value v) {
    auto it = wholeShapes.find(v);
    return it != wholeShapes.end() ? ArrayRef<int64_t>(it->second)
                                   : arrayType(v).getShape();
  }

  /// Result 0 of `op` (an array of shape `whole`) becomes tile `t`.
  void setResultTiles(Operation *op, const TileSharding &t) {
    Value r = op->getResult(0);
    RankedTensorType type = arrayType(r);
    wholeShapes[r] = SmallVector<int64_t>(type.getShape());
    r.setType(withShape(type, t.shardShape(type.getShape())));
    current.insert_or_assign(r, t);
  }

  /// The tiles the result of `op` is wanted in: its sharding's, or
  /// replicated.
  FailureOr<TileSharding> wanted(Operation *op) {
    RankedTensorType type = arrayType(op->getResult(0));
    auto s = op->getAttrOfType<ShardingAttr>("sharding");
    if (s && s.isTuple())
      return failure();
    return tilesFor(s, type.getRank(), op->getLoc());
  }

  //===--------------------------------------------------------------------===//
  // Instructions
  //===--------------------------------------------------------------------===//

  LogicalResult partition() {
    Block &body = entry.getBody().front();
    for (BlockArgument arg : body.getArguments()) {
      auto type = arrayType(arg);
      auto s = entry.getArgAttrOfType<ShardingAttr>(arg.getArgNumber(),
                                                    "hlo.sharding");
      if (!type) {
        if (s && !s.isReplicated())
          return emitError(entry.getLoc())
                 << "hlo-spmd-partitioner: parameter " << arg.getArgNumber()
                 << " is a sharded tuple (not supported yet)";
        continue;
      }
      FailureOr<TileSharding> t = tilesFor(s, type.getRank(), entry.getLoc());
      if (failed(t))
        return failure();
      wholeShapes[arg] = SmallVector<int64_t>(type.getShape());
      arg.setType(withShape(type, t->shardShape(type.getShape())));
      current.insert_or_assign(arg, *t);
    }
    SmallVector<Operation *> ops;
    for (Operation &op : body.without_terminator())
      ops.push_back(&op);
    for (Operation *op : ops)
      if (failed(partitionOp(op)))
        return failure();
    if (failed(partitionRoot(body.getTerminator())))
      return failure();
    // Only the ROOT keeps a sharding: the layout of the result.
    Value root = body.getTerminator()->getOperand(0);
    for (Operation &op : body.without_terminator())
      if (op.getNumResults() != 1 || op.getResult(0) != root)
        op.removeAttr("sharding");
    SmallVector<Type> args(body.getArgumentTypes());
    entry.setFunctionTypeAttr(TypeAttr::get(
        FunctionType::get(&getContext(), args, {root.getType()})));
    ModuleOp module = getOperation();
    if (module->hasAttr("hlo.entry_computation_layout"))
      module->setAttr("hlo.entry_computation_layout",
                      TypeAttr::get(FunctionType::get(&getContext(), args,
                                                      {root.getType()})));
    return success();
  }

  LogicalResult partitionOp(Operation *op) {
    if (auto call = dyn_cast<CustomCallOp>(op)) {
      StringRef target = call.getCustomCallTarget();
      if (target == "SPMDFullToShardShape" || target == "SPMDShardToFullShape")
        return emitError(op->getLoc())
               << "hlo-spmd-partitioner: manual shardings (shard_map) are "
                  "not supported yet";
      // Shardy's marks of a result's sharding (the ROOT's says it) and of
      // sharding groups (read by Shardy's propagation) go.
      if (target == kShardingGroupTarget && op->use_empty()) {
        op->erase();
        return success();
      }
      if (target == "xla.sdy.FuncResultSharding" &&
          getDataOperands(op).size() == 1 && arrayType(op->getResult(0)) &&
          wholeShape(op->getOperand(0)) ==
              arrayType(op->getResult(0)).getShape()) {
        op->getResult(0).replaceAllUsesWith(op->getOperand(0));
        op->erase();
        return success();
      }
      if (target == "Sharding" && getDataOperands(op).size() == 1 &&
          arrayType(op->getResult(0))) {
        FailureOr<TileSharding> t = wanted(op);
        if (failed(t))
          return failure();
        Value in = op->getOperand(0);
        OpBuilder b(op);
        InstBuilder ib(b, derivedLoc(op->getLoc()));
        Value v = reshard(ib, in, currentOf(in), *t, wholeShape(in));
        wholeShapes[v] = SmallVector<int64_t>(wholeShape(in));
        current.insert_or_assign(v, *t);
        op->getResult(0).replaceAllUsesWith(v);
        op->erase();
        return success();
      }
    }
    if (op->getNumResults() == 1 && arrayType(op->getResult(0)) &&
        !hasControlEdges(op)) {
      FailureOr<TileSharding> out = wanted(op);
      if (failed(out))
        return failure();
      if (isElementwise(op) && partitionElementwise(op, *out))
        return success();
      if (auto bcast = dyn_cast<BroadcastOp>(op))
        return partitionBroadcast(bcast, *out), success();
      if (auto reshape = dyn_cast<ReshapeOp>(op);
          reshape && partitionReshape(reshape, *out))
        return success();
      if (auto transpose = dyn_cast<TransposeOp>(op))
        return partitionTranspose(transpose, *out), success();
      if (auto dot = dyn_cast<DotOp>(op))
        return partitionDot(dot, *out), success();
      if (auto reduce = dyn_cast<ReduceOp>(op);
          reduce && getDataOperands(op).size() == 2 &&
          partitionReduce(reduce, *out))
        return success();
    }
    if (isa<TupleOp>(op)) {
      // Its elements keep their tiles.
      SmallVector<Type> types;
      for (Value v : getDataOperands(op))
        types.push_back(v.getType());
      op->getResult(0).setType(TupleType::get(&getContext(), types));
      return success();
    }
    if (auto gte = dyn_cast<GetTupleElementOp>(op)) {
      auto tuple = cast<TupleType>(gte.getOperand().getType());
      Value r = op->getResult(0);
      if (auto t = dyn_cast<TupleOp>(gte.getOperand().getDefiningOp())) {
        Value element = getDataOperands(t)[gte.getIndex()];
        if (arrayType(element)) {
          wholeShapes[r] = SmallVector<int64_t>(wholeShape(element));
          current.insert_or_assign(r, currentOf(element));
        }
      }
      r.setType(tuple.getType(gte.getIndex()));
      return success();
    }
    return partitionWhole(op);
  }

  /// Every operand whole, the instruction unchanged.
  LogicalResult partitionWhole(Operation *op) {
    for (auto [i, v] : llvm::enumerate(getDataOperands(op))) {
      if (auto type = arrayType(v)) {
        setOperandTiles(
            op, i, TileSharding::replicated(type.getRank(), numPartitions));
        continue;
      }
      // A tuple made here of tiled elements is remade of whole ones (other
      // tuples hold whole arrays: parameters are replicated, instructions
      // that make tuples ran whole).
      auto t = v.getDefiningOp<TupleOp>();
      if (t && llvm::any_of(getDataOperands(t), [&](Value e) {
            return arrayType(e) && !currentOf(e).isReplicated();
          })) {
        OpBuilder b(op);
        InstBuilder ib(b, derivedLoc(op->getLoc()));
        SmallVector<Value> elements;
        for (Value e : getDataOperands(t))
          elements.push_back(
              arrayType(e) ? reshard(ib, e, currentOf(e),
                                     TileSharding::replicated(
                                         arrayType(e).getRank(), numPartitions),
                                     wholeShape(e))
                           : e);
        op->setOperand(i, ib.tuple(elements));
      }
    }
    ++numWhole;
    return success();
  }

  bool partitionElementwise(Operation *op, const TileSharding &out) {
    RankedTensorType type = arrayType(op->getResult(0));
    for (Value v : getDataOperands(op))
      if (!arrayType(v) || wholeShape(v) != type.getShape())
        return false;
    for (unsigned i = 0, e = getDataOperands(op).size(); i < e; ++i)
      setOperandTiles(op, i, out);
    setResultTiles(op, out);
    return true;
  }

  /// The tiles of an operand of rank `rank` whose dimension d is result
  /// dimension `resultDim[d]` of tiles `out` (-1: whole).
  TileSharding project(const TileSharding &out, ArrayRef<int64_t> resultDim) {
    SmallVector<int64_t> tiles;
    for (int64_t r : resultDim)
      tiles.push_back(r < 0 ? 1 : out.getTiles(r));
    SmallVector<SmallVector<int64_t>> coords;
    for (int64_t p = 0; p < numPartitions; ++p) {
      coords.emplace_back();
      for (int64_t r : resultDim)
        coords.back().push_back(r < 0 ? 0 : out.getCoords(p)[r]);
    }
    return *TileSharding::fromCoords(tiles, coords);
  }

  void partitionBroadcast(BroadcastOp op, const TileSharding &out) {
    SmallVector<int64_t> dims(op.getDimensions().value_or(ArrayRef<int64_t>{}));
    setOperandTiles(op, 0, project(out, dims));
    setResultTiles(op, out);
  }

  /// A reshape whose tiled result dimensions it keeps as they were (same
  /// size, as many elements before them) reshapes each tile.
  bool partitionReshape(ReshapeOp op, const TileSharding &out) {
    ArrayRef<int64_t> in = wholeShape(op->getOperand(0));
    ArrayRef<int64_t> shape = arrayType(op.getResult()).getShape();
    SmallVector<int64_t> resultDim(in.size(), -1);
    for (int64_t d = 0; d < out.getRank(); ++d) {
      int64_t e = unmodifiedDim(in, shape, d);
      if (e >= 0)
        resultDim[e] = d;
      else if (out.getTiles(d) > 1)
        return false;
    }
    setOperandTiles(op, 0, project(out, resultDim));
    setResultTiles(op, out);
    return true;
  }

  void partitionTranspose(TransposeOp op, const TileSharding &out) {
    // Operand dimension perm[i] is result dimension i.
    ArrayRef<int64_t> perm = op.getDimensions();
    SmallVector<int64_t> resultDim(perm.size());
    for (auto [i, d] : llvm::enumerate(perm))
      resultDim[d] = i;
    setOperandTiles(op, 0, project(out, resultDim));
    setResultTiles(op, out);
  }

  /// Tiles `out` of the result and `partial` (tiles and coordinates of
  /// further dimensions, the partial sums) as one assignment, and the
  /// groups that sum across the partial dimensions; nothing when no one
  /// assignment holds them.
  std::optional<SmallVector<SmallVector<int64_t>>>
  partialGroups(const TileSharding &out, const TileSharding &partial) {
    SmallVector<int64_t> tiles(out.getTiles()), dims;
    llvm::append_range(tiles, partial.getTiles());
    for (int64_t d = 0; d < partial.getRank(); ++d)
      dims.push_back(out.getRank() + d);
    SmallVector<SmallVector<int64_t>> coords;
    for (int64_t p = 0; p < numPartitions; ++p) {
      coords.emplace_back(out.getCoords(p));
      llvm::append_range(coords.back(), partial.getCoords(p));
    }
    std::optional<TileSharding> both = TileSharding::fromCoords(tiles, coords);
    if (!both)
      return std::nullopt;
    return both->groupsAcross(dims);
  }

  /// `base` with dimensions `dims` tiled as `tiles` with each partition's
  /// coordinates `coords` there (the partial-sum dimensions), if one
  /// assignment holds them.
  std::optional<TileSharding>
  withPartialDims(const TileSharding &base, ArrayRef<int64_t> dims,
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

  /// The all-reduce by `reducer` of `op`'s result across `groups`.
  void sumPartials(Operation *op, StringRef reducer,
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
    wholeShapes[sum] = wholeShapes[r];
    current.insert_or_assign(sum, current.at(r));
  }

  void partitionDot(DotOp op, const TileSharding &out) {
    ArrayRef<int64_t> lb = op.getLhsBatchDims().value_or(ArrayRef<int64_t>{});
    ArrayRef<int64_t> lc =
        op.getLhsContractingDims().value_or(ArrayRef<int64_t>{});
    ArrayRef<int64_t> rb = op.getRhsBatchDims().value_or(ArrayRef<int64_t>{});
    ArrayRef<int64_t> rc =
        op.getRhsContractingDims().value_or(ArrayRef<int64_t>{});
    int64_t lhsRank = arrayType(op.getLhs()).getRank();
    int64_t rhsRank = arrayType(op.getRhs()).getRank();
    // Result dimension of each operand dimension (-1: contracting).
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
    TileSharding lhsTiles = project(out, lhsDim);
    TileSharding rhsTiles = project(out, rhsDim);
    // Partial sums where both operands are tiled alike, evenly, along the
    // contracting dimensions.
    TileSharding l = currentOf(op.getLhs()), r = currentOf(op.getRhs());
    SmallVector<int64_t> kTiles;
    SmallVector<SmallVector<int64_t>> kCoords(numPartitions);
    bool partial = false, alike = true;
    for (auto [a, c] : llvm::zip(lc, rc)) {
      alike &= l.getTiles(a) == r.getTiles(c) &&
               wholeShape(op.getLhs())[a] % l.getTiles(a) == 0;
      for (int64_t p = 0; p < numPartitions; ++p) {
        alike &= l.getCoords(p)[a] == r.getCoords(p)[c];
        kCoords[p].push_back(l.getCoords(p)[a]);
      }
      kTiles.push_back(l.getTiles(a));
      partial |= l.getTiles(a) > 1;
    }
    std::optional<SmallVector<SmallVector<int64_t>>> groups;
    if (partial && alike) {
      std::optional<TileSharding> k = TileSharding::fromCoords(kTiles, kCoords);
      if (k)
        groups = partialGroups(out, *k);
      if (groups) {
        std::optional<TileSharding> lk =
            withPartialDims(lhsTiles, lc, kTiles, kCoords);
        std::optional<TileSharding> rk =
            withPartialDims(rhsTiles, rc, kTiles, kCoords);
        if (lk && rk) {
          lhsTiles = *lk;
          rhsTiles = *rk;
        } else {
          groups.reset();
        }
      }
    }
    setOperandTiles(op, 0, lhsTiles);
    setOperandTiles(op, 1, rhsTiles);
    setResultTiles(op, out);
    if (groups)
      sumPartials(op, addComputation(op), *groups);
  }

  /// A scalar add of the dot's result element type.
  StringRef addComputation(DotOp op) {
    Type element = arrayType(op.getResult()).getElementType();
    auto it = adders.find(element);
    if (it != adders.end())
      return it->second;
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    auto scalar = RankedTensorType::get({}, element);
    ComputationOp comp = createComputation(
        symbols, entry, "add", {scalar, scalar}, derivedLoc(op.getLoc()));
    OpBuilder b(comp.getBody().front().getParentOp()->getContext());
    b.setInsertionPointToEnd(&comp.getBody().front());
    InstBuilder ib(b, derivedLoc(op.getLoc()));
    Value sum =
        ib.create<AddOp>(scalar, {comp.getArgument(0), comp.getArgument(1)});
    setComputationResult(comp, b, sum);
    return adders[element] = comp.getSymName();
  }

  bool partitionReduce(ReduceOp op, const TileSharding &out) {
    Value in = op->getOperand(0);
    ArrayRef<int64_t> reduced = op.getDimensions();
    int64_t rank = arrayType(in).getRank();
    SmallVector<int64_t> resultDim(rank, -1);
    for (int64_t d = 0, next = 0; d < rank; ++d)
      if (!llvm::is_contained(reduced, d))
        resultDim[d] = next++;
    TileSharding target = project(out, resultDim);
    // Partial results where the operand is tiled evenly along reduced
    // dimensions.
    TileSharding now = currentOf(in);
    SmallVector<int64_t> kTiles, kDims;
    SmallVector<SmallVector<int64_t>> kCoords(numPartitions);
    for (int64_t d : reduced)
      if (now.getTiles(d) > 1 && wholeShape(in)[d] % now.getTiles(d) == 0) {
        kDims.push_back(d);
        kTiles.push_back(now.getTiles(d));
        for (int64_t p = 0; p < numPartitions; ++p)
          kCoords[p].push_back(now.getCoords(p)[d]);
      }
    std::optional<SmallVector<SmallVector<int64_t>>> groups;
    if (!kDims.empty())
      if (std::optional<TileSharding> k =
              TileSharding::fromCoords(kTiles, kCoords))
        groups = partialGroups(out, *k);
    if (groups) {
      if (std::optional<TileSharding> t =
              withPartialDims(target, kDims, kTiles, kCoords))
        target = *t;
      else
        groups.reset();
    }
    setOperandTiles(op, 0, target);
    setResultTiles(op, out);
    if (groups)
      sumPartials(op, op.getToApply(), *groups);
    return true;
  }

  /// The ROOT in the tiles of its sharding (whole without one), which the
  /// instruction making it keeps as its `sharding`.
  LogicalResult partitionRoot(Operation *ret) {
    Value root = ret->getOperand(0);
    auto rootOp = root.getDefiningOp();
    ShardingAttr s = rootOp ? rootOp->getAttrOfType<ShardingAttr>("sharding")
                            : ShardingAttr();
    if (auto tuple = dyn_cast_or_null<TupleOp>(rootOp)) {
      SmallVector<ShardingAttr> leaves;
      for (auto [i, v] : llvm::enumerate(getDataOperands(tuple))) {
        auto type = arrayType(v);
        if (!type) {
          leaves.push_back(
              ShardingAttr::get(&getContext(), ShardingKind::Replicated));
          continue;
        }
        ShardingAttr leaf = s && s.isTuple() ? s.getLeafSharding(i) : s;
        FailureOr<TileSharding> t =
            tilesFor(leaf, type.getRank(), tuple.getLoc());
        if (failed(t))
          return failure();
        setOperandTiles(tuple, i, *t);
        leaves.push_back(t->toAttr(&getContext()));
      }
      SmallVector<Type> types;
      for (Value v : getDataOperands(tuple))
        types.push_back(v.getType());
      tuple->getResult(0).setType(TupleType::get(&getContext(), types));
      tuple->setAttr("sharding", ShardingAttr::getTuple(&getContext(), leaves));
      return success();
    }
    auto type = arrayType(root);
    if (!type)
      return success();
    FailureOr<TileSharding> t =
        tilesFor(s, type.getRank(), rootOp ? rootOp->getLoc() : ret->getLoc());
    if (failed(t))
      return failure();
    setOperandTiles(ret, 0, *t);
    Value now = ret->getOperand(0);
    if (Operation *def = now.getDefiningOp())
      def->setAttr("sharding", t->toAttr(&getContext()));
    else if (!t->isReplicated())
      entry.setArgAttr(cast<BlockArgument>(now).getArgNumber(), "hlo.sharding",
                       t->toAttr(&getContext()));
    return success();
  }

  ComputationOp entry;
  int64_t numReplicas = 1, numPartitions = 1, nextChannel = 1;
  /// The tiles each partitioned array value holds (absent: whole).
  DenseMap<Value, TileSharding> current;
  /// The whole shapes of values made tiles.
  DenseMap<Value, SmallVector<int64_t>> wholeShapes;
  DenseMap<Type, StringRef> adders;
};

} // namespace
