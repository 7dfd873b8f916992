//===- ShardingPropagation.cpp - shardings from operands to users ---------===//
//
// XLA's ShardingPropagation: each instruction of the entry computation
// without a `sharding` takes one its operands' shardings give it
// (TileSharding: the tile each partition holds, per dimension), in program
// order, so that a user sees its operands' shardings first; then, in
// reverse order, one its users ask of it; then from its operands again.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"
#include "SpmdValues.h"
#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloOpClasses.h"
#include "Hlo/Dialect/Hlo/HloTileSharding.h"
#include "Hlo/Transforms/CollectivePasses.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSHARDINGPROPAGATION
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

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
    Block &body = entry.getBody().front();
    // Forward, backward from the users (in reverse order, so that a chain
    // takes the sharding of its last user), forward again.
    auto assign = [&](Operation &op, ShardingAttr s) {
      if (!s)
        return;
      op.setAttr("sharding", s);
      ++numAssigned;
      changed = true;
    };
    auto unassigned = [](Operation &op) {
      return op.getNumResults() == 1 && !op.hasAttr("sharding");
    };
    for (Operation &op : body)
      if (unassigned(op))
        assign(op, derive(&op));
    for (Operation &op : llvm::reverse(body)) {
      if (!unassigned(op) || rankOf(op.getResult(0)) < 0)
        continue;
      for (OpOperand &use : op.getResult(0).getUses())
        if (ShardingAttr s = fromUser(use)) {
          assign(op, s);
          break;
        }
    }
    for (Operation &op : body)
      if (unassigned(op))
        assign(op, derive(&op));
  }

  /// The sharding the user of `use` asks of that operand (an array): the
  /// same tiles for an elementwise user of its shape and a `Sharding`
  /// call, its tuple element's for a tuple, the tiles of the dimensions
  /// they become for broadcast, transpose and reshape (kept dimensions).
  ShardingAttr fromUser(OpOperand &use) {
    Operation *user = use.getOwner();
    Value operand = use.get();
    auto s = user->getAttrOfType<ShardingAttr>("sharding");
    if (!s || user->getNumResults() != 1 ||
        use.getOperandNumber() >= getDataOperands(user).size())
      return {};
    MLIRContext *ctx = user->getContext();
    if (isa<TupleOp>(user)) {
      if (!s.isTuple() || isa<TupleType>(operand.getType()))
        return {};
      return attr(TileSharding::get(s.getLeafSharding(use.getOperandNumber()),
                                    rankOf(operand), numPartitions),
                  ctx);
    }
    int64_t rank = rankOf(user->getResult(0));
    std::optional<TileSharding> out =
        rank < 0 ? std::nullopt : TileSharding::get(s, rank, numPartitions);
    if (!out || out->isReplicated())
      return {};
    auto call = dyn_cast<CustomCallOp>(user);
    if ((call && call.getCustomCallTarget() == "Sharding") ||
        (isElementwise(user) &&
         operand.getType() == user->getResult(0).getType()))
      return attr(out, ctx);
    // A dot asks of each operand the tiles of its batch and free
    // dimensions (contracting ones whole).
    if (auto dot = dyn_cast<DotOp>(user))
      return attr(out->project(dotResultDims(dot, use.getOperandNumber())),
                  ctx);
    std::optional<SmallVector<int64_t>> resultDim = resultDimsOf(
        user, cast<RankedTensorType>(operand.getType()).getShape(),
        cast<RankedTensorType>(user->getResult(0).getType()).getShape());
    if (!resultDim)
      return {};
    TileSharding tiles = out->project(*resultDim);
    if (isa<ReshapeOp>(user))
      tiles = fitReshapeTiles(
          tiles, cast<RankedTensorType>(operand.getType()).getShape(),
          cast<RankedTensorType>(user->getResult(0).getType()).getShape(),
          *resultDim);
    return attr(tiles, ctx);
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
    return TileSharding::get(s, rankOf(v), numPartitions);
  }

  ShardingAttr attr(std::optional<TileSharding> t, MLIRContext *ctx) {
    return t && !t->isReplicated() ? t->toAttr(ctx) : ShardingAttr();
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
    int64_t rank = rankOf(op->getResult(0));
    if (rank < 0)
      return {};
    if (isElementwise(op)) {
      // The operand tiled most finely.
      std::optional<TileSharding> best;
      for (Value v : in) {
        std::optional<TileSharding> t =
            rankOf(v) == rank ? tilesOf(v) : std::nullopt;
        if (t && (!best || t->getReplication() < best->getReplication()))
          best = t;
      }
      return attr(best, ctx);
    }
    if (auto dot = dyn_cast<DotOp>(op)) {
      std::optional<TileSharding> lhs = tilesOf(dot.getLhs());
      if (!lhs && !tilesOf(dot.getRhs()))
        return {};
      return deriveDot(
          dot,
          lhs ? *lhs
              : TileSharding::replicated(rankOf(dot.getLhs()), numPartitions),
          ctx);
    }
    if (auto conv = dyn_cast<ConvolutionOp>(op))
      return deriveConvolution(conv, ctx);
    // A gather's batch dimensions take its indices' tiles.
    if (auto gather = dyn_cast<GatherOp>(op)) {
      std::optional<TileSharding> indices = tilesOf(gather.getStartIndices());
      if (!indices)
        return {};
      return attr(indices->project(invertDims(gatherIndexDims(gather), rank)),
                  ctx);
    }
    std::optional<TileSharding> operand =
        in.empty() ? std::nullopt : tilesOf(in[0]);
    if (!operand)
      return {};
    ArrayRef<int64_t> inShape =
        cast<RankedTensorType>(in[0].getType()).getShape();
    ArrayRef<int64_t> outShape =
        cast<RankedTensorType>(op->getResult(0).getType()).getShape();
    std::optional<SmallVector<int64_t>> resultDim =
        resultDimsOf(op, inShape, outShape);
    if (!resultDim)
      return {};
    SmallVector<int64_t> operandDim = invertDims(*resultDim, rank);
    TileSharding tiles = operand->project(operandDim);
    if (isa<ReshapeOp>(op))
      tiles = fitReshapeTiles(tiles, outShape, inShape, operandDim);
    return attr(tiles, ctx);
  }

  /// The batch and free dimensions' tiles of both operands where one
  /// assignment holds them all, else the left operand's alone.
  ShardingAttr deriveDot(DotOp dot, const TileSharding &lhs, MLIRContext *ctx) {
    std::optional<TileSharding> rhs = tilesOf(dot.getRhs());
    TileSharding none =
        TileSharding::replicated(rankOf(dot.getRhs()), numPartitions);
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

  /// An ungrouped convolution: the batch's tiles of the input and the
  /// output features' of the kernel where one assignment holds both, else
  /// the input's alone.
  ShardingAttr deriveConvolution(ConvolutionOp conv, MLIRContext *ctx) {
    if (conv.getFeatureGroupCount().value_or(1) != 1 ||
        conv.getBatchGroupCount().value_or(1) != 1)
      return {};
    std::optional<TileSharding> lhs = tilesOf(conv.getLhs());
    std::optional<TileSharding> rhs = tilesOf(conv.getRhs());
    if (!lhs && !rhs)
      return {};
    TileSharding l =
        lhs ? *lhs : TileSharding::replicated(rankOf(conv.getLhs()),
                                               numPartitions);
    TileSharding r =
        rhs ? *rhs : TileSharding::replicated(rankOf(conv.getRhs()),
                                               numPartitions);
    ConvDimensionNumbersAttr dims = conv.getDimLabels();
    int64_t rank = rankOf(conv.getResult());
    SmallVector<std::pair<int, int64_t>> both(rank, {-1, 0});
    both[dims.getOutputBatch()] = {0, dims.getInputBatch()};
    both[dims.getOutputFeature()] = {1, dims.getKernelOutput()};
    if (std::optional<TileSharding> t = mapDims({&l, &r}, both))
      return attr(t, ctx);
    both[dims.getOutputFeature()] = {-1, 0};
    return attr(mapDims({&l, &r}, both), ctx);
  }

  int64_t numPartitions = 1;
};

} // namespace
