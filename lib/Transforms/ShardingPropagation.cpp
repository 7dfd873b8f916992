//===- ShardingPropagation.cpp - shardings from operands to users ---------===//
//
// XLA's ShardingPropagation: each instruction of the entry computation and
// of its loops' bodies and conditions takes the sharding its operands'
// give it (TileSharding: the tile each partition holds, per dimension), in
// program order, so that a user sees its operands' shardings first; then,
// in reverse order, the one its users ask of it; in rounds until nothing
// changes. A sharding the program gives stays; one propagation gave gains
// the tiles later ones add where they agree (mergeTiles).
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"
#include "SpmdValues.h"
#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloOpClasses.h"
#include "Hlo/Dialect/Hlo/HloShardingCalls.h"
#include "Hlo/Dialect/Hlo/HloTileSharding.h"
#include "Hlo/Transforms/CollectivePasses.h"

#include <map>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSHARDINGPROPAGATION
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

static int64_t rankOf(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t ? t.getRank() : -1;
}

/// A sharding whose partition p holds, in result dimension d, the tile
/// `sources[s]`'s partition p holds in its dimension e, for (s, e) =
/// from[d] (s < 0: the whole dimension): a dot's result from both operands'
/// tiles; nothing when those tiles are not held by as many partitions each.
static std::optional<TileSharding>
mapDims(ArrayRef<const TileSharding *> sources,
        ArrayRef<std::pair<int, int64_t>> from) {
  SmallVector<int64_t> tiles;
  for (auto [s, d] : from)
    tiles.push_back(s < 0 ? 1 : sources[s]->getTiles(d));
  SmallVector<SmallVector<int64_t>> coords;
  for (int64_t p = 0; p < sources.front()->getNumPartitions(); ++p) {
    coords.emplace_back();
    for (auto [s, d] : from)
      coords.back().push_back(s < 0 ? 0 : sources[s]->getCoords(p)[d]);
  }
  return TileSharding::fromCoords(tiles, coords);
}

struct ShardingPropagationPass
    : ChangeReportingPass<ShardingPropagationPass,
                          hlo::impl::HloShardingPropagationBase> {
  void run() {
    ModuleOp module = getOperation();
    numPartitions = getDeviceCounts(module).second;
    ComputationOp entry = entryComputation(module);
    if (!entry || numPartitions < 2)
      return;
    // The entry, then the bodies and conditions of the loops whose state
    // keeps its tiles (tiledLoop), nested ones after those holding them
    // (outside regions manual over every axis).
    SymbolTable symbols(module);
    DenseMap<StringAttr, int64_t> callers = countCallers(module);
    SmallVector<ComputationOp> comps{entry};
    for (size_t i = 0; i < comps.size(); ++i)
      comps[i].walk([&](Operation *op) {
        if (isManual(op->getAttrOfType<ShardingAttr>("sharding")) ||
            llvm::any_of(getDataOperands(op),
                         [&](Value v) { return isManual(shardingOf(v)); }))
          return;
        if (auto loop = dyn_cast<WhileOp>(op)) {
          auto linked = tiledLoop(loop, symbols, callers);
          if (!linked)
            return;
          for (ComputationOp c : {linked->first, linked->second}) {
            loops[c] = loop;
            comps.push_back(c);
          }
          bodies[loop] = linked->first;
          conditions[loop] = linked->second;
        } else if (auto cond = dyn_cast<ConditionalOp>(op)) {
          auto linked = tiledBranches(cond, symbols, callers);
          if (!linked)
            return;
          for (ComputationOp c : *linked) {
            conditionals[c] = cond;
            comps.push_back(c);
          }
          branches[cond] = std::move(*linked);
        }
      });
    for (ComputationOp c : comps)
      for (Operation &op : c.getBody().front()) {
        findUnknown(op);
        if (op.hasAttr("sharding"))
          fixed.insert(&op);
        findOpenDims(op);
        hasRegions |=
            isPartlyManual(op.getAttrOfType<ShardingAttr>("sharding"));
        findBoundary(op);
      }
    // Forward, then backward from the users (in reverse order, so that a
    // chain takes the sharding of its last user), until nothing improves:
    // a sharding only gains tiles (mergeTiles), so this ends.
    for (int round = 0; round < kMaxRounds; ++round) {
      improved = false;
      for (ComputationOp c : comps)
        forward(c);
      for (ComputationOp c : llvm::reverse(comps))
        backward(c);
      unifyShardGroups();
      if (!improved)
        break;
    }
  }

  /// Rounds of propagation at most (each sharding can only gain tiles; a
  /// loop's state takes one round to go around it).
  static constexpr int kMaxRounds = 8;

  static bool isManual(ShardingAttr s) {
    return s && (s.isManual() ||
                 (s.isTuple() &&
                  llvm::any_of(s.getTupleElements(),
                               [](ShardingAttr e) { return e.isManual(); })));
  }

  /// `op` takes sharding `s` (merged with the one propagation gave it
  /// before; the shardings the program gives stay).
  void improve(Operation &op, ShardingAttr s) {
    if (auto it = openDims.find(&op); s && it != openDims.end())
      s = alongOnly(s, it->second, op.getResult(0));
    if (!s || (fixed.contains(&op) && !free.contains(&op)) ||
        boundaries.contains(&op))
      return;
    auto old = op.getAttrOfType<ShardingAttr>("sharding");
    ShardingAttr now = old ? merge(old, s, op.getResult(0).getType()) : s;
    if (now == old)
      return;
    op.setAttr("sharding", now);
    if (!old)
      ++numAssigned;
    changed = improved = true;
  }

  /// `old` with the tiles `s` adds (leaf by leaf for a tuple), for a value
  /// of type `type`.
  ShardingAttr merge(ShardingAttr old, ShardingAttr s, Type type) {
    if (auto tuple = dyn_cast<TupleType>(type)) {
      if (!old.isTuple() || !s.isTuple() ||
          old.getTupleElements().size() != tuple.size() ||
          s.getTupleElements().size() != tuple.size())
        return old;
      SmallVector<ShardingAttr> leaves;
      for (auto [a, b, t] : llvm::zip(old.getTupleElements(),
                                      s.getTupleElements(), tuple.getTypes()))
        leaves.push_back(isa<TupleType>(t) ? a : merge(a, b, t));
      return ShardingAttr::getTuple(type.getContext(), leaves);
    }
    auto array = dyn_cast<RankedTensorType>(type);
    std::optional<TileSharding> a, b;
    if (array) {
      a = tilesFor(old, array.getRank());
      b = tilesFor(s, array.getRank());
    }
    if (!a || !b)
      return old;
    TileSharding m = mergeTiles(*a, *b);
    return m == *a ? old : attr(m, type.getContext());
  }

  /// The tiles `s` gives array `v` along `dims` alone.
  ShardingAttr alongOnly(ShardingAttr s, ArrayRef<int64_t> dims, Value v) {
    std::optional<TileSharding> t = tilesFor(s, rankOf(v));
    if (!t)
      return {};
    for (int64_t d = 0, e = rankOf(v); d < e; ++d)
      if (!llvm::is_contained(dims, d))
        t = t->withoutDim(d);
    return attr(t, v.getContext());
  }

  /// Records `op` if it is a `Sharding` call leaving dimensions to
  /// propagation (GSPMD's unspecified_dims, JAX's P.UNCONSTRAINED): its
  /// sharding gains the tiles of its operand and users along those.
  void findOpenDims(Operation &op) {
    if (!isShardingCall(&op) || !op.hasAttr("sharding"))
      return;
    std::string why;
    FailureOr<SmallVector<int64_t>> dims = readUnspecifiedDims(&op, why);
    if (failed(dims) || dims->empty())
      return;
    free.insert(&op);
    openDims[&op] = std::move(*dims);
  }

  /// Records `op` if it is a `Sharding` call that leaves the sharding to
  /// propagation (`{unknown}`, JAX's shard_alike: `{unknown shard_as 0}`):
  /// it passes its operand's tiles on (its users' back), as an
  /// elementwise op would, and the members of one shard group take one
  /// sharding (`unifyShardGroups`).
  void findUnknown(Operation &op) {
    auto s = op.getAttrOfType<ShardingAttr>("sharding");
    if (!isShardingCall(&op) || !s || !s.isUnknown() ||
        rankOf(op.getResult(0)) < 0)
      return;
    if (s.getShardGroupKind() != ShardGroupKind::None)
      shardGroups[s.getShardGroupId()].push_back(&op);
    op.removeAttr("sharding");
  }

  /// Whether `op` is a `Sharding` call (a sharding constraint).
  static bool isShardingCall(Operation *op) {
    auto call = dyn_cast<CustomCallOp>(op);
    return call && call.getCustomCallTarget() == "Sharding";
  }

  /// Each shard group's members (of one type) take the tiles each of them
  /// has, merged.
  void unifyShardGroups() {
    for (auto &[id, members] : shardGroups) {
      Type type = members.front()->getResult(0).getType();
      if (llvm::any_of(members, [&](Operation *m) {
            return m->getResult(0).getType() != type;
          }))
        continue;
      ShardingAttr merged;
      for (Operation *m : members)
        merged = mergeOrEither(merged, shardingOf(m->getResult(0)), type);
      for (Operation *m : members) {
        groups = regionOf(*m);
        improve(*m, merged);
        groups = nullptr;
      }
    }
  }

  /// `a` merged with `b`, either of which may be null.
  ShardingAttr mergeOrEither(ShardingAttr a, ShardingAttr b, Type type) {
    return a && b ? merge(a, b, type) : a ? a : b;
  }

  //===--------------------------------------------------------------------===//
  // Regions manual over some axes
  //===--------------------------------------------------------------------===//

  /// Records `op` if it is a boundary of a region manual over some axes
  /// (an SPMDFullToShardShape or SPMDShardToFullShape call of a manual
  /// sharding, and the copy on its outer side): as Shardy's shard_map
  /// leaves the axes it is not manual over free, their shardings gain the
  /// tiles of those axes.
  void findBoundary(Operation &op) {
    auto call = dyn_cast<CustomCallOp>(op);
    if (!call || getDataOperands(&op).size() != 1)
      return;
    StringRef target = call.getCustomCallTarget();
    Value in = getDataOperands(&op)[0];
    if (target == "SPMDFullToShardShape") {
      if (!isPartlyManual(op.getAttrOfType<ShardingAttr>("sharding")))
        return;
      boundaries.insert(&op);
      if (auto copy = in.getDefiningOp<CopyOp>(); copy && copy->hasOneUse())
        free.insert(copy);
    } else if (target == "SPMDShardToFullShape") {
      if (!isPartlyManual(shardingOf(in)) || rankOf(op.getResult(0)) < 0)
        return;
      boundaries.insert(&op);
      if (in.getDefiningOp<CopyOp>())
        free.insert(in.getDefiningOp());
      // The blocks the groups' local values are (its sharding, which
      // ShardyXLA gives along the manual axes only).
      if (std::optional<TileSharding> t =
              TileSharding::get(op.getAttrOfType<ShardingAttr>("sharding"),
                                rankOf(op.getResult(0)), numPartitions))
        blocks.insert({&op, *t});
    }
  }

  /// A boundary call's sharding from its operand's: the local tiles of
  /// SPMDFullToShardShape's operand, the whole array's tiles of
  /// SPMDShardToFullShape's local tiles in the blocks of its sharding.
  void forwardBoundary(CustomCallOp call) {
    Operation *op = call;
    Value in = getDataOperands(op)[0];
    Value out = op->getResult(0);
    const ManualGroups *region = regionOf(*op);
    if (!region || rankOf(in) < 0 || rankOf(out) != rankOf(in))
      return;
    std::optional<TileSharding> t;
    ShardingAttr s;
    if (call.getCustomCallTarget() == "SPMDFullToShardShape") {
      std::optional<TileSharding> global =
          TileSharding::get(shardingOf(in), rankOf(in), numPartitions);
      if (global)
        t = region->toLocal(*global, shapeOf(in), shapeOf(out));
      if (t)
        s = region->toAttr(*t, op->getContext());
    } else {
      auto it = blocks.find(op);
      std::optional<TileSharding> local =
          region->localTiles(shardingOf(in), rankOf(in));
      if (local && it != blocks.end())
        t = region->toGlobal(*local, it->second);
      if (t)
        s = t->toAttr(op->getContext());
    }
    if (!s || s == op->getAttrOfType<ShardingAttr>("sharding"))
      return;
    op->setAttr("sharding", s);
    changed = improved = true;
  }

  void forward(ComputationOp comp) {
    for (Operation &op : comp.getBody().front()) {
      if (boundaries.contains(&op)) {
        forwardBoundary(cast<CustomCallOp>(op));
        continue;
      }
      groups = regionOf(op);
      if (auto loop = dyn_cast<WhileOp>(op); loop && bodies.count(loop))
        forwardLoop(loop);
      else if (auto cond = dyn_cast<ConditionalOp>(op);
               cond && branches.count(cond))
        forwardConditional(cond);
      else if (op.getNumResults() == 1)
        improve(op, derive(&op));
      groups = nullptr;
    }
  }

  /// A loop's state takes one sharding: its initial state's, its body's
  /// result's, and what its body and condition ask of their parameter;
  /// the parameters take it.
  void forwardLoop(WhileOp loop) {
    ComputationOp body = bodies.lookup(loop), cond = conditions.lookup(loop);
    Type type = loop->getResult(0).getType();
    ShardingAttr s = shardingOf(loop->getOperand(0));
    s = mergeOrEither(s, shardingOf(rootOf(body)), type);
    for (ComputationOp c : {body, cond})
      s = mergeOrEither(s, c.getArgAttrOfType<ShardingAttr>(0, "hlo.sharding"),
                        type);
    improve(*loop, s);
    if (auto now = loop->getAttrOfType<ShardingAttr>("sharding"))
      for (ComputationOp c : {body, cond})
        c.setArgAttr(0, "hlo.sharding", now);
  }

  /// A branch's parameter takes its operand's sharding (merged with what
  /// the branch asks of it), the conditional its branches' results'.
  void forwardConditional(ConditionalOp cond) {
    Type type = cond->getResult(0).getType();
    ShardingAttr s;
    for (auto [k, branch] : llvm::enumerate(branches.lookup(cond))) {
      Value in = cond->getOperand(k + 1);
      setParameterSharding(branch, shardingOf(in));
      s = mergeOrEither(s, shardingOf(rootOf(branch)), type);
    }
    improve(*cond, s);
  }

  /// `comp`'s parameter takes `s` merged with the sharding it has.
  void setParameterSharding(ComputationOp comp, ShardingAttr s) {
    auto old = comp.getArgAttrOfType<ShardingAttr>(0, "hlo.sharding");
    s = mergeOrEither(old, s, comp.getArgument(0).getType());
    if (s == old)
      return;
    comp.setArgAttr(0, "hlo.sharding", s);
    changed = improved = true;
  }

  static Value rootOf(ComputationOp comp) {
    return comp.getBody().front().getTerminator()->getOperand(0);
  }

  void backward(ComputationOp comp) {
    Block &block = comp.getBody().front();
    WhileOp loop = loops.lookup(comp);
    ConditionalOp cond = conditionals.lookup(comp);
    // A body's result is the loop's next state, a branch's the
    // conditional's result.
    Operation *caller = loop && bodies.lookup(loop) == comp ? loop : cond;
    if (caller)
      if (Operation *def = rootOf(comp).getDefiningOp()) {
        groups = regionOf(*caller);
        improve(*def, caller->getAttrOfType<ShardingAttr>("sharding"));
        groups = nullptr;
      }
    // A broadcast keeps the tiles its operand gave it (as XLA's does).
    for (Operation &op : llvm::reverse(block))
      if (op.getNumResults() == 1 &&
          !(isa<BroadcastOp>(op) && op.hasAttr("sharding")))
        for (OpOperand &use : op.getResult(0).getUses()) {
          // Within a region manual over some axes, or outside them all.
          groups = regionOf(*use.getOwner());
          if (groups == regionOf(op))
            improve(op, fromUser(use));
          groups = nullptr;
        }
    if (!loop && !cond)
      return;
    // What the instructions reading the parameter ask of it.
    BlockArgument arg = comp.getArgument(0);
    for (OpOperand &use : arg.getUses()) {
      groups = regionOf(*use.getOwner());
      setParameterSharding(comp, fromUser(use));
      groups = nullptr;
    }
  }

  /// The sharding the user of `use` asks of that operand (an array): the
  /// same tiles for an elementwise user of its shape and a `Sharding`
  /// call, its tuple element's for a tuple, the tiles of the dimensions
  /// they become for broadcast, transpose and reshape (kept dimensions).
  ShardingAttr fromUser(OpOperand &use) {
    Operation *user = use.getOwner();
    Value operand = use.get();
    // A conditional asks of a branch's operand its parameter's sharding.
    if (auto cond = dyn_cast<ConditionalOp>(user)) {
      unsigned k = use.getOperandNumber();
      auto it = branches.find(cond);
      if (k == 0 || it == branches.end())
        return {};
      return it->second[k - 1].getArgAttrOfType<ShardingAttr>(0,
                                                              "hlo.sharding");
    }
    MLIRContext *ctx = user->getContext();
    // A slice of a rotation asks of its source the rotation's tiles.
    if (isa<SliceOp>(user))
      for (Operation *concat : user->getUsers())
        if (std::optional<Rotation> r = rotationOf(concat);
            r && r->source == operand)
          if (std::optional<TileSharding> t = tilesOf(concat->getResult(0)))
            return attr(fitRotation(*t, *r, concat), ctx);
    auto s = user->getAttrOfType<ShardingAttr>("sharding");
    if (!s || user->getNumResults() != 1 ||
        use.getOperandNumber() >= getDataOperands(user).size())
      return {};
    // A loop asks of its initial state the state's sharding; an element
    // of a tuple that sharding's leaf, the rest replicated.
    if (auto loop = dyn_cast<WhileOp>(user))
      return bodies.count(loop) ? s : ShardingAttr();
    if (auto gte = dyn_cast<GetTupleElementOp>(user)) {
      auto tuple = dyn_cast<TupleType>(operand.getType());
      if (!tuple || s.isTuple() || isa<TupleType>(gte.getType()))
        return {};
      SmallVector<ShardingAttr> leaves(
          tuple.size(), ShardingAttr::get(ctx, ShardingKind::Replicated));
      leaves[gte.getIndex()] = s;
      return ShardingAttr::getTuple(ctx, leaves);
    }
    if (isa<TupleOp>(user)) {
      if (!s.isTuple() || isa<TupleType>(operand.getType()))
        return {};
      return attr(
          tilesFor(s.getLeafSharding(use.getOperandNumber()), rankOf(operand)),
          ctx);
    }
    // A variadic reduce or sort: its leaves' (one shape, one sharding).
    RankedTensorType resultType = leafArrayType(user);
    if (!resultType)
      return {};
    if (s.isTuple())
      s = s.getLeafSharding(0);
    int64_t rank = resultType.getRank();
    std::optional<TileSharding> out = tilesFor(s, rank);
    if (!out || out->isReplicated())
      return {};
    if (isShardingCall(user) ||
        (keepsTiles(user) && operand.getType() == user->getResult(0).getType()))
      return attr(out, ctx);
    // A dot asks of each operand the tiles of its batch and free
    // dimensions (contracting ones whole).
    if (auto dot = dyn_cast<DotOp>(user))
      return attr(out->project(dotResultDims(dot, use.getOperandNumber())),
                  ctx);
    // A convolution asks of its input the tiles of its batch and spatial
    // dimensions, of its kernel its output features'; with feature groups,
    // of its input also the output features' tiles where they tile whole
    // groups (else the output features whole).
    if (auto conv = dyn_cast<ConvolutionOp>(user)) {
      unsigned i = use.getOperandNumber();
      int64_t featureGroups = conv.getFeatureGroupCount().value_or(1);
      int64_t feature = conv.getDimLabels().getOutputFeature();
      SmallVector<int64_t> dims = convResultDims(conv, i);
      TileSharding o = *out;
      if (featureGroups > 1 && featureGroups % o.getTiles(feature) != 0)
        o = o.withoutDim(feature);
      else if (featureGroups > 1 && i == 0)
        dims[conv.getDimLabels().getInputFeature()] = feature;
      TileSharding t = o.project(dims);
      return attr(i == 0 ? fitWindowTiles(conv, t, /*ofResult=*/false) : t,
                  ctx);
    }
    // A reverse asks for the mirrored tiles.
    if (auto reverse = dyn_cast<ReverseOp>(user))
      return attr(mirrorTiles(*out, reverse.getDimensions()), ctx);
    // A gather asks of its indices the tiles of its batch dimensions, of
    // its operand those of its passthrough dimensions.
    if (auto gather = dyn_cast<GatherOp>(user))
      return attr(out->project(use.getOperandNumber() == 0
                                   ? gatherPassthroughDims(
                                         gather, shapeOf(gather.getOperand()))
                                   : gatherIndexDims(gather)),
                  ctx);
    // A scatter asks of its operand the result's tiles along its
    // passthrough dimensions, of its updates those of their windows.
    if (auto scatter = dyn_cast<ScatterOp>(user)) {
      unsigned i = use.getOperandNumber();
      if (getDataOperands(user).size() != 3 || i == 1)
        return {};
      SmallVector<int64_t> pass =
          scatterPassthroughDims(scatter, shapeOf(getDataOperands(scatter)[0]),
                                 shapeOf(getDataOperands(scatter)[2]));
      return attr(out->project(i == 0 ? keptDims(scatter, pass)
                                      : invertDims(pass, rankOf(operand))),
                  ctx);
    }
    std::optional<SmallVector<int64_t>> resultDim =
        carriedDims(user, shapeOf(operand), resultType.getShape());
    if (!resultDim)
      return {};
    TileSharding tiles = out->project(*resultDim);
    if (rankOf(operand) == resultType.getRank())
      tiles = fitWindowTiles(user, tiles, /*ofResult=*/false);
    if (isa<ReshapeOp>(user))
      tiles = fitReshapeTiles(tiles, shapeOf(operand), resultType.getShape(),
                              *resultDim);
    return attr(tiles, ctx);
  }

  /// For each dimension of an operand of shape `in` of `op`, the result
  /// dimension (of `out`) whose tiles it carries: `resultDimsOf`, and every
  /// dimension of a reduce-window's, select-and-scatter's, pad's or slice's
  /// array operands (the partitioner gives the dimensions it slides over
  /// halos: `fitWindowTiles` says where).
  static std::optional<SmallVector<int64_t>>
  carriedDims(Operation *op, ArrayRef<int64_t> in, ArrayRef<int64_t> out) {
    if (isa<ReduceWindowOp, SelectAndScatterOp, PadOp, SliceOp>(op) &&
        in.size() == out.size())
      return llvm::to_vector(llvm::seq<int64_t>(0, in.size()));
    return resultDimsOf(op, in, out);
  }

  /// `op` as a rotation (`matchRotation`), if it is one.
  static std::optional<Rotation> rotationOf(Operation *op) {
    auto concat = dyn_cast<ConcatenateOp>(op);
    if (!concat)
      return std::nullopt;
    return matchRotation(
        concat, [](Value v) { return SmallVector<int64_t>(shapeOf(v)); });
  }

  /// `t`, tiles of rotation `r` (`op`), where the partitioner rotates them.
  static TileSharding fitRotation(const TileSharding &t, const Rotation &r,
                                  Operation *op) {
    return fitRotationTiles(t, r, shapeOf(r.source)[r.dim],
                            shapeOf(op->getResult(0))[r.dim]);
  }

  /// The type of `op`'s array result, or of every leaf of a variadic reduce
  /// or sort's (arrays of one shape); null otherwise.
  static RankedTensorType leafArrayType(Operation *op) {
    Type type = op->getResult(0).getType();
    auto tuple = dyn_cast<TupleType>(type);
    if (!tuple || !isa<ReduceOp, SortOp>(op))
      return dyn_cast<RankedTensorType>(type);
    auto first = dyn_cast<RankedTensorType>(tuple.getType(0));
    if (!first || llvm::any_of(tuple.getTypes(), [&](Type t) {
          auto a = dyn_cast<RankedTensorType>(t);
          return !a || a.getShape() != first.getShape();
        }))
      return {};
    return first;
  }

  /// The operand dimensions of `scatter` whose tiles its result keeps, each
  /// to itself: those `pass` maps (scatterPassthroughDims) and the one it
  /// indexes by rows of one element (each partition scatters into its own
  /// rows).
  static SmallVector<int64_t> keptDims(ScatterOp scatter,
                                       ArrayRef<int64_t> pass) {
    SmallVector<int64_t> dims;
    for (auto [d, u] : llvm::enumerate(pass))
      dims.push_back(u >= 0 ? int64_t(d) : -1);
    ArrayRef<int64_t> indexed = scatter.getScatterDimsToOperandDims();
    if (indexed.size() == 1 &&
        llvm::is_contained(scatter.getInsertedWindowDims(), indexed[0]))
      dims[indexed[0]] = indexed[0];
    return dims;
  }

  /// The sharding `v` carries (an instruction's `sharding`, a parameter's
  /// `hlo.sharding`), or null.
  static ShardingAttr shardingOf(Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return cast<ComputationOp>(arg.getOwner()->getParentOp())
          .getArgAttrOfType<ShardingAttr>(arg.getArgNumber(), "hlo.sharding");
    return v.getDefiningOp()->getAttrOfType<ShardingAttr>("sharding");
  }

  /// The tiles of array `v`, when it has a sharding the partitioner reads.
  std::optional<TileSharding> tilesOf(Value v) {
    ShardingAttr s = shardingOf(v);
    if (!s || rankOf(v) < 0)
      return std::nullopt;
    return tilesFor(s, rankOf(v));
  }

  /// The tiles `s` gives an array of rank `rank` (in a region manual over
  /// some axes, over its groups' local ids: `ManualGroups`).
  std::optional<TileSharding> tilesFor(ShardingAttr s, int64_t rank) {
    if (groups)
      return groups->localTiles(s, rank);
    return TileSharding::get(s, rank, numPartitions);
  }

  /// Every partition (of a manual region's group) holding the whole array.
  TileSharding whole(int64_t rank) {
    return TileSharding::replicated(rank, groups ? groups->getNumLocal()
                                                 : numPartitions);
  }

  ShardingAttr attr(std::optional<TileSharding> t, MLIRContext *ctx) {
    if (!t || t->isReplicated())
      return {};
    return groups ? groups->toAttr(*t, ctx) : t->toAttr(ctx);
  }

  /// Whether `op` keeps its operand's tiles: elementwise, or in a region
  /// manual over some axes one of its own all-reduces or
  /// collective-permutes (the partitioner runs them on tiles where each
  /// group joins partitions of one local id).
  bool keepsTiles(Operation *op) {
    return isElementwise(op) ||
           (groups && isa<AllReduceOp, CollectivePermuteOp>(op) &&
            getDataOperands(op).size() == 1);
  }

  /// The groups of the region manual over some axes that `op` is in (its
  /// sharding's, else that of an operand's), or null.
  const ManualGroups *regionOf(Operation &op) {
    if (!hasRegions)
      return nullptr;
    ShardingAttr s = op.getAttrOfType<ShardingAttr>("sharding");
    if (!isPartlyManual(s))
      for (Value v : getDataOperands(&op))
        if (isPartlyManual(s = shardingOf(v)))
          break;
    return isPartlyManual(s) ? ManualGroups::unique(s, numPartitions, allGroups)
                             : nullptr;
  }

  /// Whether `s` (or a leaf of it) is manual over some axes.
  static bool isPartlyManual(ShardingAttr s) {
    if (s && s.isTuple())
      return llvm::any_of(s.getTupleElements(), isPartlyManual);
    return s &&
           llvm::is_contained(s.getLastTileDims(), ShardingSubgroup::Manual);
  }

  ShardingAttr derive(Operation *op) {
    MLIRContext *ctx = op->getContext();
    OperandRange in = getDataOperands(op);
    if (isa<TupleOp>(op)) {
      if (llvm::none_of(in, [](Value v) { return shardingOf(v); }))
        return {};
      SmallVector<ShardingAttr> leaves;
      for (Value v : in) {
        ShardingAttr s = shardingOf(v);
        if ((s && s.isTuple()) || isa<TupleType>(v.getType()))
          return {};
        leaves.push_back(s ? s
                           : ShardingAttr::get(ctx, ShardingKind::Replicated));
      }
      return ShardingAttr::getTuple(ctx, leaves);
    }
    if (auto gte = dyn_cast<GetTupleElementOp>(op)) {
      ShardingAttr s = shardingOf(in[0]);
      auto tuple = dyn_cast<TupleType>(in[0].getType());
      if (!s || !s.isTuple() || !tuple ||
          s.getTupleElements().size() != tuple.size() ||
          llvm::any_of(tuple.getTypes(),
                       [](Type t) { return isa<TupleType>(t); }))
        return {};
      return s.getTupleElements()[gte.getIndex()];
    }
    RankedTensorType resultType = leafArrayType(op);
    if (!resultType)
      return {};
    int64_t rank = resultType.getRank();
    // (A `Sharding` call's: where propagation may still tile it, along
    // open dimensions or `{unknown}`.)
    if (keepsTiles(op) || isShardingCall(op)) {
      // The operand tiled most finely, with the others' tiles merged in.
      SmallVector<TileSharding> tiles;
      for (Value v : in)
        if (std::optional<TileSharding> t =
                rankOf(v) == rank ? tilesOf(v) : std::nullopt)
          tiles.push_back(*t);
      if (tiles.empty())
        return {};
      llvm::stable_sort(tiles,
                        [](const TileSharding &a, const TileSharding &b) {
                          return a.getReplication() < b.getReplication();
                        });
      TileSharding best = tiles.front();
      for (const TileSharding &t : ArrayRef(tiles).drop_front())
        best = mergeTiles(best, t);
      return attr(best, ctx);
    }
    if (auto dot = dyn_cast<DotOp>(op)) {
      std::optional<TileSharding> lhs = tilesOf(dot.getLhs());
      if (!lhs && !tilesOf(dot.getRhs()))
        return {};
      return deriveDot(dot, lhs ? *lhs : whole(rankOf(dot.getLhs())), ctx);
    }
    if (auto conv = dyn_cast<ConvolutionOp>(op))
      return deriveConvolution(conv, ctx);
    // A reverse: its operand's tiles mirrored along the reversed
    // dimensions (XLA's: no data moves).
    if (auto reverse = dyn_cast<ReverseOp>(op)) {
      std::optional<TileSharding> operand = tilesOf(reverse.getOperand());
      if (!operand)
        return {};
      return attr(mirrorTiles(*operand, reverse.getDimensions()), ctx);
    }
    // A scatter: its operand's tiles and its updates' windows' along its
    // passthrough dimensions.
    if (auto scatter = dyn_cast<ScatterOp>(op)) {
      if (in.size() != 3)
        return {};
      SmallVector<int64_t> pass =
          scatterPassthroughDims(scatter, shapeOf(getDataOperands(scatter)[0]),
                                 shapeOf(getDataOperands(scatter)[2]));
      std::optional<TileSharding> operand = tilesOf(in[0]);
      std::optional<TileSharding> updates = tilesOf(in[2]);
      TileSharding t =
          operand ? operand->project(keptDims(scatter, pass)) : whole(rank);
      if (updates)
        t = mergeTiles(t, updates->project(pass));
      return attr(t, ctx);
    }
    // A gather's batch dimensions take its indices' tiles.
    // and its passthrough dimensions the operand's.
    if (auto gather = dyn_cast<GatherOp>(op)) {
      std::optional<TileSharding> indices = tilesOf(gather.getStartIndices());
      std::optional<TileSharding> operand = tilesOf(gather.getOperand());
      TileSharding t =
          indices ? indices->project(invertDims(gatherIndexDims(gather), rank))
                  : whole(rank);
      if (operand)
        t = mergeTiles(
            t, operand->project(invertDims(
                   gatherPassthroughDims(gather, shapeOf(gather.getOperand())),
                   rank)));
      return attr(t, ctx);
    }
    // A rotation: its source's tiles, where the partitioner rotates them.
    if (std::optional<Rotation> r = rotationOf(op))
      if (std::optional<TileSharding> t = tilesOf(r->source))
        return attr(fitRotation(*t, *r, op), ctx);
    // The tiles each operand carries to the dimensions it becomes, the
    // first's with the others' merged in (each leaf of a variadic reduce
    // or sort the same).
    ArrayRef<int64_t> outShape = resultType.getShape();
    std::optional<TileSharding> merged;
    for (Value v : in) {
      std::optional<TileSharding> t = tilesOf(v);
      if (!t)
        continue;
      std::optional<SmallVector<int64_t>> resultDim =
          carriedDims(op, shapeOf(v), outShape);
      if (!resultDim)
        return {};
      SmallVector<int64_t> operandDim = invertDims(*resultDim, rank);
      TileSharding tiles =
          fitWindowTiles(op, t->project(operandDim), /*ofResult=*/true);
      if (isa<ReshapeOp>(op))
        tiles = fitReshapeTiles(tiles, outShape, shapeOf(v), operandDim);
      merged = merged ? mergeTiles(*merged, tiles) : tiles;
    }
    ShardingAttr leaf = attr(merged, ctx);
    auto tuple = dyn_cast<TupleType>(op->getResult(0).getType());
    if (!leaf || !tuple)
      return leaf;
    return ShardingAttr::getTuple(
        ctx, SmallVector<ShardingAttr>(tuple.size(), leaf));
  }

  /// The batch and free dimensions' tiles of both operands where one
  /// assignment holds them all, else the left operand's alone.
  ShardingAttr deriveDot(DotOp dot, const TileSharding &lhs, MLIRContext *ctx) {
    std::optional<TileSharding> rhs = tilesOf(dot.getRhs());
    TileSharding none = whole(rankOf(dot.getRhs()));
    const TileSharding &r = rhs ? *rhs : none;
    // Each result dimension from the rhs, then from the lhs where it has
    // the dimension (a batch dimension: where the lhs tiles it).
    int64_t rank = rankOf(dot.getResult());
    SmallVector<std::pair<int, int64_t>> both(rank, {-1, 0}),
        lhsOnly(rank, {-1, 0});
    for (auto [d, e] : llvm::enumerate(dotResultDims(dot, 1)))
      if (e >= 0)
        both[e] = {1, d};
    for (auto [d, e] : llvm::enumerate(dotResultDims(dot, 0)))
      if (e >= 0) {
        lhsOnly[e] = {0, d};
        if (both[e].first < 0 || lhs.getTiles(d) > 1)
          both[e] = {0, d};
      }
    if (std::optional<TileSharding> t = mapDims({&lhs, &r}, both))
      return attr(t, ctx);
    return attr(mapDims({&lhs, &r}, lhsOnly), ctx);
  }

  /// A convolution (no batch groups): the batch's and spatial dimensions'
  /// tiles of the input and the output features' of the kernel where one
  /// assignment holds both, else the input's alone; with feature groups,
  /// the kernel's where they tile whole groups, else the input's features'
  /// where they do (a depthwise convolution by channels).
  ShardingAttr deriveConvolution(ConvolutionOp conv, MLIRContext *ctx) {
    int64_t featureGroups = conv.getFeatureGroupCount().value_or(1);
    if (conv.getBatchGroupCount().value_or(1) != 1)
      return {};
    std::optional<TileSharding> lhs = tilesOf(conv.getLhs());
    std::optional<TileSharding> rhs = tilesOf(conv.getRhs());
    if (!lhs && !rhs)
      return {};
    TileSharding l = lhs ? *lhs : whole(rankOf(conv.getLhs()));
    TileSharding r = rhs ? *rhs : whole(rankOf(conv.getRhs()));
    ConvDimensionNumbersAttr dims = conv.getDimLabels();
    int64_t rank = rankOf(conv.getResult());
    SmallVector<std::pair<int, int64_t>> both(rank, {-1, 0});
    both[dims.getOutputBatch()] = {0, dims.getInputBatch()};
    for (auto [i, o] :
         llvm::zip(dims.getInputSpatial(), dims.getOutputSpatial()))
      both[o] = {0, i};
    both[dims.getOutputFeature()] = {1, dims.getKernelOutput()};
    if (featureGroups > 1 &&
        featureGroups % r.getTiles(dims.getKernelOutput()) != 0)
      both[dims.getOutputFeature()] = {-1, 0};
    if (featureGroups > 1 && r.getTiles(dims.getKernelOutput()) == 1 &&
        featureGroups % l.getTiles(dims.getInputFeature()) == 0)
      both[dims.getOutputFeature()] = {0, dims.getInputFeature()};
    std::optional<TileSharding> t = mapDims({&l, &r}, both);
    if (!t) {
      both[dims.getOutputFeature()] = {-1, 0};
      t = mapDims({&l, &r}, both);
    }
    return t ? attr(fitWindowTiles(conv, *t, /*ofResult=*/true), ctx)
             : ShardingAttr();
  }

  int64_t numPartitions = 1;
  /// The region manual over some axes whose instructions are being read
  /// (null: outside them), and every such region's groups.
  const ManualGroups *groups = nullptr;
  std::deque<ManualGroups> allGroups;
  /// Whether the module has such regions (`regionOf` looks for them).
  bool hasRegions = false;
  /// The boundary calls of those regions (`findBoundary`), the
  /// instructions whose given shardings still gain tiles (the copies
  /// outside those boundaries, `Sharding` calls with open dimensions), and
  /// the blocks of each SPMDShardToFullShape.
  DenseSet<Operation *> boundaries, free;
  DenseMap<Operation *, TileSharding> blocks;
  /// The dimensions each `Sharding` call leaves to propagation, and the
  /// members of each shard group among the `{unknown}` ones (by id, in
  /// program order).
  DenseMap<Operation *, SmallVector<int64_t>> openDims;
  std::map<int64_t, SmallVector<Operation *>> shardGroups;
  /// The loops propagation goes into: each one's body and condition, and
  /// the loop of each.
  DenseMap<Operation *, ComputationOp> bodies, conditions;
  DenseMap<Operation *, WhileOp> loops;
  /// The conditionals propagation goes into: each one's branches, and the
  /// conditional of each branch.
  DenseMap<Operation *, SmallVector<ComputationOp>> branches;
  DenseMap<Operation *, ConditionalOp> conditionals;
  /// The instructions whose sharding the program gives.
  DenseSet<Operation *> fixed;
  bool improved = false;
};

} // namespace
