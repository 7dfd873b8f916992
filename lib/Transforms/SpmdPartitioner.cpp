//===- SpmdPartitioner.cpp - the program each partition runs --------------===//
//
// XLA's SpmdPartitioner: the entry computation of a module of several
// partitions, its values annotated with shardings, becomes the program
// each partition runs on its tiles, with the bodies of its loops and the
// branches of its conditionals. Values keep their tiles as the
// instruction that made them left them; an instruction asks for its
// operands' tiles as it needs them, and SpmdValues (SpmdValues.h) reshards
// them. Instructions the partitioner has no rule for (SpmdRules.cpp) run
// on whole arrays.
//
//===----------------------------------------------------------------------===//

#include "CollectiveOptUtils.h"
#include "ReductionUtils.h"
#include "RewriteUtils.h"
#include "SpmdValues.h"
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

/// SpmdValues working over the local ids of `groups` (null: the module's
/// partitions) while it lives; then over those it worked over before.
class InGroups {
public:
  InGroups(SpmdValues &values, const ManualGroups *groups)
      : values(values), outer(values.getGroups()) {
    values.setGroups(groups);
  }
  ~InGroups() { values.setGroups(outer); }

private:
  SpmdValues &values;
  const ManualGroups *outer;
};

struct SpmdPartitionerPass
    : ChangeReportingPass<SpmdPartitionerPass,
                          hlo::impl::HloSpmdPartitionerBase> {
  void run() {
    ModuleOp module = getOperation();
    auto [replicas, partitions] = getDeviceCounts(module);
    numReplicas = replicas;
    numPartitions = partitions;
    entry = entryComputation(module);
    if (!entry || numPartitions < 2)
      return;
    values.emplace(&getContext(), replicas, numPartitions,
                   nextChannelId(module));
    symbols.emplace(module);
    callers = countCallers(module);
    LogicalResult result = partition();
    numCollectives += values->getNumCollectives();
    if (failed(result)) {
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
    // In a region manual over some axes: the tiles of its local values
    // among each group's partitions (whole where the sharding is not
    // over the region's groups).
    if (const ManualGroups *groups = values->getGroups()) {
      if (s && !s.isTuple())
        if (std::optional<TileSharding> t = groups->localTiles(s, rank))
          return *t;
      return whole(rank);
    }
    if (s && isManualSharding(s))
      return emitError(loc) << "hlo-spmd-partitioner: manual sharding " << s
                            << " outside a manual region";
    std::optional<TileSharding> t = TileSharding::get(s, rank, numPartitions);
    if (!t)
      return emitError(loc) << "hlo-spmd-partitioner: cannot partition by "
                            << "sharding " << s << " of rank " << rank;
    return *t;
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
      values->setTiles(arg, *t, type.getShape());
      arg.setType(withShape(type, t->shardShape(type.getShape())));
      // The whole array, for callers that pass it (hlo-to-thunk).
      if (!t->isReplicated())
        entry.setArgAttr(arg.getArgNumber(), "hlo.global_type",
                         TypeAttr::get(type));
    }
    // The result's sharding as the program gives it (its instruction may
    // be replaced), and whether the compiler may choose it (XLA's
    // allow_spmd_sharding_propagation_to_output).
    Value root = body.getTerminator()->getOperand(0);
    if (Operation *def = root.getDefiningOp())
      rootSharding = def->getAttrOfType<ShardingAttr>("sharding");
    else
      rootSharding = entry.getArgAttrOfType<ShardingAttr>(
          cast<BlockArgument>(root).getArgNumber(), "hlo.sharding");
    outputFree.clear();
    if (auto free = getOperation()->getAttrOfType<DenseBoolArrayAttr>(
            "hlo.allow_spmd_sharding_propagation_to_output"))
      outputFree.assign(free.asArrayRef().begin(), free.asArrayRef().end());
    if (failed(partitionOps(body)) ||
        failed(partitionRoot(body.getTerminator())))
      return failure();
    // Only the ROOT keeps a sharding: the layout of the result, which the
    // ENTRY records with the whole result's type.
    root = body.getTerminator()->getOperand(0);
    for (Operation &op : body.without_terminator())
      if (op.getNumResults() != 1 || op.getResult(0) != root)
        op.removeAttr("sharding");
    entry.setResultAttr(0, "hlo.global_type",
                        TypeAttr::get(entry.getResultTypes().front()));
    ShardingAttr kept =
        root.getDefiningOp()
            ? root.getDefiningOp()->getAttrOfType<ShardingAttr>("sharding")
            : entry.getArgAttrOfType<ShardingAttr>(
                  cast<BlockArgument>(root).getArgNumber(), "hlo.sharding");
    if (kept)
      entry.setResultAttr(0, "hlo.sharding", kept);
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

  /// The instructions of `body`, in order.
  LogicalResult partitionOps(Block &body) {
    SmallVector<Operation *> ops;
    for (Operation &op : body.without_terminator())
      ops.push_back(&op);
    findRotations(ops);
    for (Operation *op : ops)
      if (!unsliced.contains(op) && failed(partitionOp(op)))
        return failure();
    return success();
  }

  /// The concatenates of `ops` that rotate their source along a tiled
  /// dimension (`partitionRotation`), and their slices that nothing else
  /// uses: those are not partitioned (the rotation reads its source).
  void findRotations(ArrayRef<Operation *> ops) {
    auto shapeOf = [&](Value v) {
      return SmallVector<int64_t>(values->wholeShape(v));
    };
    for (Operation *op : ops) {
      auto concat = dyn_cast<ConcatenateOp>(op);
      if (!concat || hasControlEdges(op) || isManualOp(op))
        continue;
      std::optional<Rotation> r = matchRotation(concat, shapeOf);
      auto s = op->getAttrOfType<ShardingAttr>("sharding");
      std::optional<TileSharding> out =
          s ? TileSharding::get(s, arrayType(concat.getResult()).getRank(),
                                numPartitions)
            : std::nullopt;
      if (!r || !out || out->getTiles(r->dim) == 1)
        continue;
      int64_t size = shapeOf(r->source)[r->dim];
      int64_t outSize = arrayType(concat.getResult()).getDimSize(r->dim);
      if (fitRotationTiles(*out, *r, size, outSize) == *out)
        rotations.insert(op);
    }
    for (Operation *op : ops)
      if (isa<SliceOp>(op) && !hasControlEdges(op) && !op->use_empty() &&
          llvm::all_of(op->getUsers(),
                       [&](Operation *u) { return rotations.contains(u); }))
        unsliced.insert(op);
  }

  LogicalResult partitionOp(Operation *op) {
    if (auto call = dyn_cast<CustomCallOp>(op)) {
      StringRef target = call.getCustomCallTarget();
      if (target == "SPMDFullToShardShape")
        return partitionFullToShard(call);
      if (target == "SPMDShardToFullShape")
        return partitionShardToFull(call);
    }
    if (isManualOp(op))
      return partitionManual(op);
    return partitionTiled(op);
  }

  /// `op` (outside manual regions, or in one manual over some axes) on
  /// tiles by the rules of SpmdRules.cpp, or whole.
  LogicalResult partitionTiled(Operation *op) {
    if (auto call = dyn_cast<CustomCallOp>(op)) {
      StringRef target = call.getCustomCallTarget();
      // Shardy's marks of a result's sharding (the ROOT's says it) and of
      // sharding groups (read by Shardy's propagation) go, as do sharding
      // constraints that leave the sharding to propagation (`{unknown}`:
      // JAX's shard_alike) where it gave them none: the value keeps its
      // tiles.
      if (target == kShardingGroupTarget && op->use_empty()) {
        op->erase();
        return success();
      }
      auto given = op->getAttrOfType<ShardingAttr>("sharding");
      if ((target == "xla.sdy.FuncResultSharding" ||
           (target == "Sharding" && given && given.isUnknown())) &&
          getDataOperands(op).size() == 1 && arrayType(op->getResult(0)) &&
          values->wholeShape(op->getOperand(0)) ==
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
        Value v = values->reshard(ib, in, values->currentOf(in), *t,
                                  values->wholeShape(in));
        values->setTiles(v, *t, values->wholeShape(in));
        op->getResult(0).replaceAllUsesWith(v);
        op->erase();
        return success();
      }
    }
    bool inRegion = values->getGroups();
    if (auto loop = dyn_cast<WhileOp>(op); loop && !hasControlEdges(op))
      if (auto comps = tiledLoop(loop, *symbols, callers))
        return partitionWhile(loop, comps->first, comps->second);
    if (auto cond = dyn_cast<ConditionalOp>(op); cond && !hasControlEdges(op))
      if (auto branches = tiledBranches(cond, *symbols, callers))
        return partitionConditional(cond, *branches);
    if (op->getNumResults() == 1 && arrayType(op->getResult(0)) &&
        !hasControlEdges(op)) {
      FailureOr<TileSharding> out = wanted(op);
      if (failed(out))
        return failure();
      if (isElementwise(op) && partitionElementwise(*values, op, *out))
        return success();
      if (inRegion && partitionRegionCollective(op, *out))
        return success();
      if (isa<BroadcastOp, ReshapeOp, TransposeOp>(op) &&
          partitionMapped(*values, op, *out))
        return success();
      if (auto dot = dyn_cast<DotOp>(op))
        return partitionDot(*values, dot, *out,
                            [&](Type t) { return addComputation(t, op); }),
               success();
      if (auto conv = dyn_cast<ConvolutionOp>(op);
          conv && partitionConvolution(*values, conv, *out, [&](Type t) {
            return addComputation(t, op);
          }))
        return success();
      if (auto gather = dyn_cast<GatherOp>(op);
          gather && partitionGather(*values, gather, *out, [&](Type t) {
            return addComputation(t, op);
          }))
        return success();
      if (auto iota = dyn_cast<IotaOp>(op);
          iota && partitionIota(*values, iota, *out))
        return success();
      if (auto reverse = dyn_cast<ReverseOp>(op);
          reverse && partitionReverse(*values, reverse, *out))
        return success();
      if (auto window = dyn_cast<ReduceWindowOp>(op);
          window && partitionReduceWindow(*values, window, *out))
        return success();
      if (auto slice = dyn_cast<SliceOp>(op);
          slice && partitionSlice(*values, slice, *out))
        return success();
      if (auto pad = dyn_cast<PadOp>(op);
          pad && partitionPad(*values, pad, *out))
        return success();
      if (auto sas = dyn_cast<SelectAndScatterOp>(op);
          sas && partitionSelectAndScatter(
                     *values, sas, *out,
                     identity(sas.getScatterAttr(), sas.getType())))
        return success();
      if (rotations.erase(op)) {
        FailureOr<bool> done = partitionRotated(cast<ConcatenateOp>(op), *out);
        if (failed(done))
          return failure();
        if (*done)
          return success();
      }
      if (isa<ConcatenateOp, SortOp, ReduceWindowOp, PadOp>(op) &&
          partitionPassthrough(*values, op, *out))
        return success();
      if (isa<DynamicSliceOp, DynamicUpdateSliceOp, SliceOp>(op) &&
          partitionSliced(*values, op, *out))
        return success();
      if (auto scatter = dyn_cast<ScatterOp>(op);
          scatter && partitionScatter(*values, scatter, *out,
                                      adds(scatter.getToApplyAttr())))
        return success();
      if (auto reduce = dyn_cast<ReduceOp>(op);
          reduce && getDataOperands(op).size() == 2 &&
          partitionReduce(*values, reduce, *out))
        return success();
    }
    if (isa<ReduceOp, SortOp>(op) && op->getNumResults() == 1 &&
        isa<TupleType>(op->getResult(0).getType()) && !hasControlEdges(op)) {
      FailureOr<bool> done = partitionLeaves(op);
      if (failed(done))
        return failure();
      if (*done)
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
      if (auto leaf = values->leafOf(gte.getOperand(), gte.getIndex()))
        values->setTiles(r, leaf->first, leaf->second);
      r.setType(tuple.getType(gte.getIndex()));
      return success();
    }
    return partitionWhole(op);
  }

  //===--------------------------------------------------------------------===//
  // Manual regions (shard_map)
  //===--------------------------------------------------------------------===//

  /// Whether `s` is manual: `{manual}`, or manual over some axes (a
  /// `manual` subgroup), or a tuple of such.
  static bool isManualSharding(ShardingAttr s) {
    if (s.isTuple())
      return !s.getTupleElements().empty() &&
             llvm::all_of(s.getTupleElements(), isManualSharding);
    return s.isManual() ||
           llvm::is_contained(s.getLastTileDims(), ShardingSubgroup::Manual);
  }

  /// An instruction of a manual region: its sharding is manual, or it
  /// reads a local value.
  bool isManualOp(Operation *op) {
    if (auto s = op->getAttrOfType<ShardingAttr>("sharding");
        s && isManualSharding(s))
      return true;
    return llvm::any_of(getDataOperands(op),
                        [&](Value v) { return manual.contains(v); });
  }

  /// The groups of the region manual over some axes that `op` belongs to:
  /// its sharding's, else those of the local values it reads; null for a
  /// region manual over every axis (or over groups the partitioner does
  /// not read).
  const ManualGroups *regionOf(Operation *op) {
    if (auto s = op->getAttrOfType<ShardingAttr>("sharding");
        s && isManualSharding(s))
      return ManualGroups::unique(s, numPartitions, allGroups);
    for (Value v : getDataOperands(op))
      if (const ManualGroups *g = groupsOf.lookup(v))
        return g;
    return nullptr;
  }

  /// A manual instruction: in a region manual over some axes, partitioned
  /// along the others among each group's partitions (`partitionTiled` on
  /// local tiles; a value from outside, a constant, whole); in one manual
  /// over every axis, run as written on each partition's local values (a
  /// value from outside whole, as every partition has it before
  /// partitioning).
  LogicalResult partitionManual(Operation *op) {
    if (const ManualGroups *groups = regionOf(op)) {
      for (auto [i, v] : llvm::enumerate(getDataOperands(op)))
        if (auto type = arrayType(v); type && !manual.contains(v))
          values->setOperandTiles(op, i, whole(type.getRank()));
      // What its users read once it is partitioned (it may be replaced).
      SmallVector<OpOperand *> uses;
      for (Value r : op->getResults())
        for (OpOperand &use : r.getUses())
          uses.push_back(&use);
      LogicalResult done = success();
      {
        InGroups scope(*values, groups);
        done = partitionTiled(op);
      }
      for (OpOperand *use : uses) {
        manual.insert(use->get());
        groupsOf[use->get()] = groups;
      }
      return done;
    }
    // A sharding constraint in a region manual over every axis leaves
    // nothing to partition.
    if (auto call = dyn_cast<CustomCallOp>(op);
        call && call.getCustomCallTarget() == "Sharding" &&
        getDataOperands(op).size() == 1 &&
        getDataOperands(op)[0].getType() == op->getResult(0).getType()) {
      op->getResult(0).replaceAllUsesWith(getDataOperands(op)[0]);
      op->erase();
      return success();
    }
    for (auto [i, v] : llvm::enumerate(getDataOperands(op)))
      if (auto type = arrayType(v);
          type && !manual.contains(v) && !values->currentOf(v).isReplicated())
        values->setOperandTiles(op, i, whole(type.getRank()));
    for (Value r : op->getResults())
      manual.insert(r);
    return success();
  }

  /// A collective of a region manual over some axes (the body's own, over
  /// manual axes) whose groups each join partitions of one local id: they
  /// hold the same tiles, so it runs on them as an elementwise instruction
  /// (an all-reduce, a collective-permute); false for others.
  bool partitionRegionCollective(Operation *op, const TileSharding &out) {
    if (!isa<AllReduceOp, CollectivePermuteOp>(op) ||
        getDataOperands(op).size() != 1 || !arrayType(op->getOperand(0)))
      return false;
    const ManualGroups &groups = *values->getGroups();
    auto localOf = [&](int64_t device) {
      return groups.localOf(device % numPartitions);
    };
    std::string error;
    if (auto permute = dyn_cast<CollectivePermuteOp>(op)) {
      auto pairs = getDevicePairs(op, permute.getSourceTargetPairsAttr(),
                                  numReplicas, numPartitions, error);
      if (failed(pairs) || llvm::any_of(*pairs, [&](auto pair) {
            return localOf(pair.first) != localOf(pair.second);
          }))
        return false;
    } else {
      auto groupList = getDeviceGroups(op, numReplicas, numPartitions,
                                       /*hasGlobalFlag=*/true, error);
      if (failed(groupList) ||
          llvm::any_of(*groupList, [&](ArrayRef<int64_t> group) {
            return llvm::any_of(group, [&](int64_t d) {
              return localOf(d) != localOf(group.front());
            });
          }))
        return false;
    }
    values->setOperandTiles(op, 0, out);
    values->setResultTiles(op, out);
    return true;
  }

  /// The sharding `v`'s instruction (or parameter) gives it.
  ShardingAttr shardingOf(Value v) {
    if (Operation *def = v.getDefiningOp())
      return def->getAttrOfType<ShardingAttr>("sharding");
    return cast<ComputationOp>(v.getParentBlock()->getParentOp())
        .getArgAttrOfType<ShardingAttr>(cast<BlockArgument>(v).getArgNumber(),
                                        "hlo.sharding");
  }

  /// SPMDFullToShardShape: each partition's tile of the operand, in the
  /// sharding of the instruction making the operand, is its local value
  /// (in a region manual over some axes, its tile of its group's local
  /// value, in the tiles of the call's sharding).
  LogicalResult partitionFullToShard(CustomCallOp call) {
    OperandRange in = getDataOperands(call);
    auto type = in.size() == 1 ? arrayType(in[0]) : RankedTensorType();
    auto local = arrayType(call->getResult(0));
    auto s = call->getAttrOfType<ShardingAttr>("sharding");
    if (!type || !local || !s || !isManualSharding(s))
      return call.emitError("hlo-spmd-partitioner: SPMDFullToShardShape "
                            "needs one array operand and a manual sharding");
    Value v = in[0];
    ShardingAttr from = shardingOf(v);
    if (const ManualGroups *outer = groupsOf.lookup(v))
      return partitionNestedFullToShard(call, outer, from);
    FailureOr<TileSharding> t = tilesFor(from, type.getRank(), call.getLoc());
    if (failed(t))
      return failure();
    ArrayRef<int64_t> whole = values->wholeShape(v);
    const ManualGroups *groups = regionOf(call);
    std::optional<TileSharding> localTiles =
        groups ? groups->localTiles(s, local.getRank()) : std::nullopt;
    if (groups &&
        !(localTiles &&
          groups->toLocal(*t, whole, local.getShape()) == *localTiles))
      groups = nullptr;
    if (!groups &&
        (!t->isEven(whole) || t->shardShape(whole) != local.getShape()))
      return call.emitError("hlo-spmd-partitioner: SPMDFullToShardShape's ")
             << "result is not the tile its operand's sharding " << from
             << " gives each partition";
    Value copy = enterRegion(call, v, *t, whole);
    if (groups) {
      values->setTiles(copy, *localTiles, local.getShape());
      groupsOf[copy] = groups;
    }
    return success();
  }

  /// SPMDFullToShardShape into a region manual over every axis from one
  /// manual over some (`outer`; JAX nests a shard_map over the others
  /// there, for `axis_index`): each partition's tile of its group's local
  /// value, in the tiles of the operand's sharding among the group.
  LogicalResult partitionNestedFullToShard(CustomCallOp call,
                                           const ManualGroups *outer,
                                           ShardingAttr from) {
    Value v = getDataOperands(call)[0];
    auto local = arrayType(call->getResult(0));
    SmallVector<int64_t> shape(values->wholeShape(v));
    InGroups scope(*values, outer);
    std::optional<TileSharding> t =
        from ? outer->localTiles(from, shape.size())
             : std::optional<TileSharding>(whole(shape.size()));
    if (!t || !t->isEven(shape) || t->shardShape(shape) != local.getShape())
      return call.emitError("hlo-spmd-partitioner: SPMDFullToShardShape's ")
             << "result is not the tile its operand's sharding " << from
             << " gives each partition of its group";
    enterRegion(call, v, *t, shape);
    return success();
  }

  /// `call` (an SPMDFullToShardShape) replaced by a copy of `v` (an array
  /// of shape `shape`) resharded to tiles `t`: the local value.
  Value enterRegion(CustomCallOp call, Value v, const TileSharding &t,
                    ArrayRef<int64_t> shape) {
    OpBuilder b(call);
    InstBuilder ib(b, derivedLoc(call.getLoc()));
    Value tile = values->reshard(ib, v, values->currentOf(v), t, shape);
    // A copy is the local value or its tile (which may be read as such).
    Value copy = ib.create<CopyOp>(arrayType(tile), {tile});
    call->getResult(0).replaceAllUsesWith(copy);
    call.erase();
    manual.insert(copy);
    return copy;
  }

  /// SPMDShardToFullShape out of a region manual over every axis into one
  /// manual over some (`partitionNestedFullToShard` the other way round):
  /// each partition's local value is its tile of its group's.
  LogicalResult partitionNestedShardToFull(CustomCallOp call,
                                           const ManualGroups *outer) {
    Value operand = getDataOperands(call)[0];
    auto local = arrayType(operand);
    auto type = arrayType(call->getResult(0));
    std::optional<TileSharding> t = outer->localTiles(
        call->getAttrOfType<ShardingAttr>("sharding"), type.getRank());
    if (!t || !t->isEven(type.getShape()) ||
        t->shardShape(type.getShape()) != local.getShape())
      return call.emitError("hlo-spmd-partitioner: SPMDShardToFullShape's ")
             << "operand is not the tile its sharding gives each partition "
             << "of its group";
    OpBuilder b(call);
    InstBuilder ib(b, derivedLoc(call.getLoc()));
    Value v = ib.create<CopyOp>(local, {operand});
    {
      InGroups scope(*values, outer);
      values->setTiles(v, *t, type.getShape());
    }
    call->getResult(0).replaceAllUsesWith(v);
    call.erase();
    manual.insert(v);
    groupsOf[v] = outer;
    return success();
  }

  /// SPMDShardToFullShape: each partition's local value (in a region
  /// manual over some axes, its tile of its group's) is its tile of the
  /// result, in the instruction's sharding.
  LogicalResult partitionShardToFull(CustomCallOp call) {
    OperandRange in = getDataOperands(call);
    auto local = in.size() == 1 ? arrayType(in[0]) : RankedTensorType();
    auto type = arrayType(call->getResult(0));
    if (!local || !type)
      return call.emitError("hlo-spmd-partitioner: SPMDShardToFullShape "
                            "needs one array operand");
    if (const ManualGroups *outer = regionOf(call);
        outer && !groupsOf.lookup(in[0]))
      return partitionNestedShardToFull(call, outer);
    FailureOr<TileSharding> t = wanted(call);
    if (failed(t))
      return failure();
    Value operand = in[0];
    SmallVector<int64_t> localShape(local.getShape());
    if (const ManualGroups *groups = groupsOf.lookup(operand)) {
      // The local tiles that are the result's tiles (else whole local
      // values: each partition's whole block).
      localShape.assign(values->wholeShape(operand).begin(),
                        values->wholeShape(operand).end());
      InGroups scope(*values, groups);
      std::optional<TileSharding> mine =
          groups->toLocal(*t, type.getShape(), localShape);
      values->setOperandTiles(call, 0, mine ? *mine : whole(localShape.size()));
      operand = call->getOperand(0);
      local = arrayType(operand);
    }
    if (!t->isEven(type.getShape()) ||
        t->shardShape(type.getShape()) != local.getShape())
      return call.emitError("hlo-spmd-partitioner: SPMDShardToFullShape's ")
             << "operand is not the tile its sharding gives each partition";
    // A copy holds the tiles (the local value may be read as such too).
    OpBuilder b(call);
    InstBuilder ib(b, derivedLoc(call.getLoc()));
    Value v = ib.create<CopyOp>(local, {operand});
    values->setTiles(v, *t, type.getShape());
    call->getResult(0).replaceAllUsesWith(v);
    call.erase();
    return success();
  }

  /// Every operand whole, the instruction unchanged.
  LogicalResult partitionWhole(Operation *op) {
    for (auto [i, v] : llvm::enumerate(getDataOperands(op))) {
      if (auto type = arrayType(v)) {
        values->setOperandTiles(op, i, whole(type.getRank()));
        continue;
      }
      // A tuple of tiled leaves (made here, a loop's state) is remade of
      // whole ones (other tuples hold whole arrays: parameters are
      // replicated, other instructions that make tuples ran whole).
      if (auto tuple = dyn_cast<TupleType>(v.getType())) {
        OpBuilder b(op);
        InstBuilder ib(b, derivedLoc(op->getLoc()));
        op->setOperand(i, values->reshardLeaves(ib, v, wholeLeaves(tuple)));
      }
    }
    ++numWhole;
    return success();
  }

  /// A rotation `findRotations` found, matched again (its source may have
  /// been replaced since), partitioned by `partitionRotation`, its slices
  /// (not partitioned) erased; false, those slices partitioned, where that
  /// does not apply.
  FailureOr<bool> partitionRotated(ConcatenateOp op, const TileSharding &out) {
    std::optional<Rotation> r = matchRotation(op, [&](Value v) {
      return SmallVector<int64_t>(values->wholeShape(v));
    });
    SmallVector<Operation *> pieces;
    for (Value v : getDataOperands(op))
      if (Operation *def = v.getDefiningOp(); def && unsliced.contains(def))
        pieces.push_back(def);
    if (r) {
      SmallVector<int64_t> shape(values->wholeShape(r->source));
      if (partitionRotation(*values, op, *r, shape, out)) {
        op->erase();
        for (Operation *piece : pieces)
          if (unsliced.contains(piece) && piece->use_empty()) {
            unsliced.erase(piece);
            piece->erase();
          }
        return true;
      }
    }
    for (Operation *piece : pieces)
      if (unsliced.erase(piece) && failed(partitionOp(piece)))
        return failure();
    return false;
  }

  /// The identity of `computation` (a binary op of its parameters: add,
  /// maximum, ...) for the element type of array type `type`, or null.
  DenseElementsAttr identity(FlatSymbolRefAttr computation, Type type) {
    auto array = dyn_cast<RankedTensorType>(type);
    if (!array)
      return {};
    return identityOf(
        reducerOp(symbols->lookup<ComputationOp>(computation.getAttr())),
        array.getElementType());
  }

  /// Whether `computation` (an update computation) adds integers or floats.
  bool adds(FlatSymbolRefAttr computation) {
    auto comp = symbols->lookup<ComputationOp>(computation.getAttr());
    if (!comp || comp.getBody().empty())
      return false;
    Block &body = comp.getBody().front();
    Value root = body.getTerminator()->getOperand(0);
    auto add = root.getDefiningOp<AddOp>();
    auto type = arrayType(root);
    return add && type && isa<FloatType, IntegerType>(type.getElementType()) &&
           body.getNumArguments() == 2 &&
           ((add.getLhs() == body.getArgument(0) &&
             add.getRhs() == body.getArgument(1)) ||
            (add.getLhs() == body.getArgument(1) &&
             add.getRhs() == body.getArgument(0)));
  }

  /// Every partition holding the whole array of rank `rank` (in a manual
  /// region, every partition of a group its whole local value).
  TileSharding whole(int64_t rank) {
    return TileSharding::replicated(rank, values->getNumPartitions());
  }

  /// Whole tiles for the leaves of `tuple` (arrays; others unused).
  SmallVector<TileSharding> wholeLeaves(TupleType tuple) {
    SmallVector<TileSharding> t;
    for (Type e : tuple.getTypes()) {
      auto a = dyn_cast<RankedTensorType>(e);
      t.push_back(whole(a ? a.getRank() : 0));
    }
    return t;
  }

  //===--------------------------------------------------------------------===//
  // Loops and conditionals
  //===--------------------------------------------------------------------===//

  /// The tiles of the leaves of a value (an array or a tuple of arrays).
  struct StateTiles {
    bool tuple = false;
    SmallVector<TileSharding> tiles;
    SmallVector<SmallVector<int64_t>> whole;
    /// The type of each partition's value.
    Type local;
  };

  /// The tiles sharding `s` gives the leaves of a value of type `type`.
  FailureOr<StateTiles> stateTiles(Type type, ShardingAttr s, Location loc) {
    StateTiles state;
    auto tuple = dyn_cast<TupleType>(type);
    state.tuple = bool(tuple);
    if (s && !tuple && s.isTuple())
      return emitError(loc) << "hlo-spmd-partitioner: a tuple sharding " << s
                            << " of an array";
    SmallVector<Type> leaves =
        tuple ? SmallVector<Type>(tuple.getTypes()) : SmallVector<Type>{type};
    SmallVector<Type> local;
    for (auto [i, t] : llvm::enumerate(leaves)) {
      auto array = cast<RankedTensorType>(t);
      ShardingAttr leaf = s && s.isTuple() ? s.getLeafSharding(i) : s;
      FailureOr<TileSharding> tile = tilesFor(leaf, array.getRank(), loc);
      if (failed(tile))
        return failure();
      state.tiles.push_back(*tile);
      state.whole.emplace_back(array.getShape());
      local.push_back(withShape(array, tile->shardShape(array.getShape())));
    }
    state.local =
        tuple ? Type(TupleType::get(&getContext(), local)) : local.front();
    return state;
  }

  /// `v` resharded at `at` to the tiles of `state`.
  Value reshardState(Operation *at, Value v, const StateTiles &state) {
    OpBuilder b(at);
    InstBuilder ib(b, derivedLoc(at->getLoc()));
    if (state.tuple)
      return values->reshardLeaves(ib, v, state.tiles);
    return values->reshard(ib, v, values->currentOf(v), state.tiles[0],
                           state.whole[0]);
  }

  /// Records that `v` holds the tiles of `state`.
  void setState(Value v, const StateTiles &state) {
    if (state.tuple)
      values->setLeafTiles(v, state.tiles, state.whole);
    else
      values->setTiles(v, state.tiles[0], state.whole[0]);
    v.setType(state.local);
  }

  /// `comp` (a loop's body or condition, a branch) partitioned on a
  /// parameter in the tiles of `param`, its result resharded to those of
  /// `root` (whole without one); its instructions keep no sharding.
  LogicalResult partitionCalled(ComputationOp comp, const StateTiles &param,
                                const StateTiles *root) {
    Block &block = comp.getBody().front();
    setState(block.getArgument(0), param);
    // In a region manual over some axes, the parameter is the region's.
    if (const ManualGroups *groups = values->getGroups()) {
      manual.insert(block.getArgument(0));
      groupsOf[block.getArgument(0)] = groups;
    }
    if (failed(partitionOps(block)))
      return failure();
    Operation *ret = block.getTerminator();
    if (root)
      ret->setOperand(0, reshardState(ret, ret->getOperand(0), *root));
    else if (auto type = arrayType(ret->getOperand(0)))
      values->setOperandTiles(ret, 0, whole(type.getRank()));
    for (Operation &op : block)
      op.removeAttr("sharding");
    comp.removeArgAttr(0, "hlo.sharding");
    comp.setFunctionTypeAttr(TypeAttr::get(FunctionType::get(
        &getContext(), {param.local}, {ret->getOperand(0).getType()})));
    return success();
  }

  /// A loop whose state's leaves keep the tiles of its sharding: its
  /// initial state resharded to them, its body and condition partitioned
  /// on them, the body's result resharded to them (the condition's whole).
  LogicalResult partitionWhile(WhileOp loop, ComputationOp body,
                               ComputationOp cond) {
    FailureOr<StateTiles> state = stateTiles(
        loop->getResult(0).getType(),
        loop->getAttrOfType<ShardingAttr>("sharding"), loop.getLoc());
    if (failed(state))
      return failure();
    loop->setOperand(0, reshardState(loop, loop->getOperand(0), *state));
    if (failed(partitionCalled(body, *state, &*state)) ||
        failed(partitionCalled(cond, *state, nullptr)))
      return failure();
    setState(loop->getResult(0), *state);
    return success();
  }

  /// A conditional whose result keeps the tiles of its sharding: each
  /// branch partitioned on the tiles of its parameter's sharding (its
  /// operand resharded to them), its result resharded to the
  /// conditional's; the branch index whole.
  LogicalResult partitionConditional(ConditionalOp op,
                                     ArrayRef<ComputationOp> branches) {
    FailureOr<StateTiles> result =
        stateTiles(op->getResult(0).getType(),
                   op->getAttrOfType<ShardingAttr>("sharding"), op.getLoc());
    if (failed(result))
      return failure();
    values->setOperandTiles(op, 0, whole(0));
    for (auto [k, constBranch] : llvm::enumerate(branches)) {
      ComputationOp branch = constBranch;
      Value in = op->getOperand(k + 1);
      FailureOr<StateTiles> param =
          stateTiles(branch.getArgument(0).getType(),
                     branch.getArgAttrOfType<ShardingAttr>(0, "hlo.sharding"),
                     op.getLoc());
      if (failed(param))
        return failure();
      op->setOperand(k + 1, reshardState(op, in, *param));
      if (failed(partitionCalled(branch, *param, &*result)))
        return failure();
    }
    setState(op->getResult(0), *result);
    return success();
  }

  /// A variadic reduce or sort (a tuple of arrays of one shape) whose
  /// leaves keep its sharding's tiles (the first leaf's), along
  /// dimensions every operand has (kept, not sorted): each operand in
  /// those tiles; false where it does not apply.
  FailureOr<bool> partitionLeaves(Operation *op) {
    auto tuple = cast<TupleType>(op->getResult(0).getType());
    auto first = dyn_cast<RankedTensorType>(tuple.getType(0));
    if (!first || llvm::any_of(tuple.getTypes(), [&](Type t) {
          auto a = dyn_cast<RankedTensorType>(t);
          return !a || a.getShape() != first.getShape();
        }))
      return false;
    auto s = op->getAttrOfType<ShardingAttr>("sharding");
    FailureOr<TileSharding> out =
        tilesFor(s && s.isTuple() ? s.getLeafSharding(0) : s, first.getRank(),
                 op->getLoc());
    if (failed(out))
      return failure();
    SmallVector<SmallVector<int64_t>> dims;
    for (Value v : getDataOperands(op)) {
      std::optional<SmallVector<int64_t>> d =
          resultDimsOf(op, values->wholeShape(v), first.getShape());
      if (!d)
        return false;
      for (int64_t r = 0; r < out->getRank(); ++r)
        if (out->getTiles(r) > 1 && !d->empty() && !llvm::is_contained(*d, r))
          return false;
      dims.push_back(*d);
    }
    for (auto [i, d] : llvm::enumerate(dims))
      values->setOperandTiles(op, i, out->project(d));
    FailureOr<StateTiles> state = stateTiles(
        tuple,
        ShardingAttr::getTuple(&getContext(),
                               SmallVector<ShardingAttr>(
                                   tuple.size(), out->toAttr(&getContext()))),
        op->getLoc());
    if (failed(state))
      return failure();
    setState(op->getResult(0), *state);
    return true;
  }

  /// A scalar add computation of `element` (made once, at `op`).
  StringRef addComputation(Type element, Operation *op) {
    auto it = adders.find(element);
    if (it != adders.end())
      return it->second;
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    auto scalar = RankedTensorType::get({}, element);
    ComputationOp comp = createComputation(
        symbols, entry, "add", {scalar, scalar}, derivedLoc(op->getLoc()));
    OpBuilder b(comp.getBody().front().getParentOp()->getContext());
    b.setInsertionPointToEnd(&comp.getBody().front());
    InstBuilder ib(b, derivedLoc(op->getLoc()));
    Value sum =
        ib.create<AddOp>(scalar, {comp.getArgument(0), comp.getArgument(1)});
    setComputationResult(comp, b, sum);
    return adders[element] = comp.getSymName();
  }

  /// The tiles result leaf `i` (an array of rank `rank`, holding `now`)
  /// is returned in: its sharding's, else where the compiler may choose,
  /// those it has, else whole.
  FailureOr<TileSharding> resultTiles(ShardingAttr s, unsigned i, int64_t rank,
                                      const TileSharding &now, Location loc) {
    bool free = outputFree.size() == 1   ? outputFree[0]
                : i < outputFree.size() ? outputFree[i]
                                         : false;
    if (!s && free)
      return now;
    return tilesFor(s, rank, loc);
  }

  /// The ROOT in the tiles `resultTiles` gives, which the instruction
  /// making it keeps as its `sharding`.
  LogicalResult partitionRoot(Operation *ret) {
    Value root = ret->getOperand(0);
    auto rootOp = root.getDefiningOp();
    ShardingAttr s = rootOp ? rootOp->getAttrOfType<ShardingAttr>("sharding")
                            : ShardingAttr();
    if (!s)
      s = rootSharding;
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
        FailureOr<TileSharding> t = resultTiles(
            leaf, i, type.getRank(), values->currentOf(v), tuple.getLoc());
        if (failed(t))
          return failure();
        values->setOperandTiles(tuple, i, *t);
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
        resultTiles(s, 0, type.getRank(), values->currentOf(root),
                    rootOp ? rootOp->getLoc() : ret->getLoc());
    if (failed(t))
      return failure();
    values->setOperandTiles(ret, 0, *t);
    Value now = ret->getOperand(0);
    if (Operation *def = now.getDefiningOp())
      def->setAttr("sharding", t->toAttr(&getContext()));
    else if (!t->isReplicated())
      entry.setArgAttr(cast<BlockArgument>(now).getArgNumber(), "hlo.sharding",
                       t->toAttr(&getContext()));
    return success();
  }

  ComputationOp entry;
  int64_t numPartitions = 1;
  std::optional<SpmdValues> values;
  /// The rotations `partitionRotation` partitions (`findRotations`), and
  /// the slices of them it leaves as they are.
  DenseSet<Operation *> rotations;
  DenseSet<Operation *> unsliced;
  std::optional<SymbolTable> symbols;
  /// How many instructions name each computation.
  DenseMap<StringAttr, int64_t> callers;
  DenseMap<Type, StringRef> adders;
  /// The local values of manual regions, and the groups of those of
  /// regions manual over some axes (`regionOf`).
  DenseSet<Value> manual;
  DenseMap<Value, const ManualGroups *> groupsOf;
  std::deque<ManualGroups> allGroups;
  int64_t numReplicas = 1;
  /// The ROOT's sharding before partitioning; whether each result leaf's
  /// sharding is the compiler's to choose.
  ShardingAttr rootSharding;
  SmallVector<bool> outputFree;
};

} // namespace
