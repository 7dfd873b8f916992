//===- SpmdRules.cpp - instructions the partitioner computes on tiles -----===//
//
// hlo-spmd-partitioner's rules (SpmdValues.h): each reshards an
// instruction's operands to the tiles its result's tiles need and gives
// the result those tiles.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"
#include "SpmdValues.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloOpClasses.h"

using namespace mlir;
using namespace mlir::hlo;

/// Operand i of `op` in the tiles `out` gives it through `dims[i]` (its
/// dimensions' result dimensions), the result in `out`.
static bool projectOperands(SpmdValues &values, Operation *op,
                            const TileSharding &out,
                            ArrayRef<SmallVector<int64_t>> dims) {
  for (auto [i, d] : llvm::enumerate(dims))
    values.setOperandTiles(op, i, out.project(d));
  values.setResultTiles(op, out);
  return true;
}

bool mlir::hlo::partitionElementwise(SpmdValues &values, Operation *op,
                                     const TileSharding &out) {
  RankedTensorType type = arrayType(op->getResult(0));
  for (Value v : getDataOperands(op))
    if (!arrayType(v) || values.wholeShape(v) != type.getShape())
      return false;
  for (unsigned i = 0, e = getDataOperands(op).size(); i < e; ++i)
    values.setOperandTiles(op, i, out);
  values.setResultTiles(op, out);
  return true;
}

/// Broadcast, transpose and reshape: each tile from the operand's tiles
/// of the dimensions it keeps (a reshape only where it can carry every
/// tile of the result: dimensions kept as they are, and the major part of
/// a split or merge whose sizes the tile count divides).
bool mlir::hlo::partitionMapped(SpmdValues &values, Operation *op,
                                const TileSharding &out) {
  ArrayRef<int64_t> shape = arrayType(op->getResult(0)).getShape();
  ArrayRef<int64_t> in = values.wholeShape(op->getOperand(0));
  SmallVector<int64_t> resultDim = *resultDimsOf(op, in, shape);
  if (isa<ReshapeOp>(op) &&
      !(fitReshapeTiles(out, shape, in, invertDims(resultDim, shape.size())) ==
        out))
    return false;
  values.setOperandTiles(op, 0, out.project(resultDim));
  values.setResultTiles(op, out);
  return true;
}

void mlir::hlo::partitionDot(SpmdValues &values, DotOp op,
                             const TileSharding &out,
                             function_ref<StringRef(Type)> adder) {
  ArrayRef<int64_t> lc =
      op.getLhsContractingDims().value_or(ArrayRef<int64_t>{});
  ArrayRef<int64_t> rc =
      op.getRhsContractingDims().value_or(ArrayRef<int64_t>{});
  TileSharding lhsTiles = out.project(dotResultDims(op, 0));
  TileSharding rhsTiles = out.project(dotResultDims(op, 1));
  // Partial sums where both operands are tiled alike, evenly, along the
  // contracting dimensions.
  TileSharding l = values.currentOf(op.getLhs()),
               r = values.currentOf(op.getRhs());
  SmallVector<int64_t> kTiles;
  SmallVector<SmallVector<int64_t>> kCoords(values.getNumPartitions());
  bool partial = false, alike = true;
  for (auto [a, c] : llvm::zip(lc, rc)) {
    alike &= l.getTiles(a) == r.getTiles(c) &&
             values.wholeShape(op.getLhs())[a] % l.getTiles(a) == 0;
    for (int64_t p = 0; p < values.getNumPartitions(); ++p) {
      alike &= l.getCoords(p)[a] == r.getCoords(p)[c];
      kCoords[p].push_back(l.getCoords(p)[a]);
    }
    kTiles.push_back(l.getTiles(a));
    partial |= l.getTiles(a) > 1;
  }
  std::optional<SmallVector<SmallVector<int64_t>>> groups;
  if (partial && alike)
    groups = values.partialSums(out, kTiles, kCoords,
                                {{&lhsTiles, lc}, {&rhsTiles, rc}});
  values.setOperandTiles(op, 0, lhsTiles);
  values.setOperandTiles(op, 1, rhsTiles);
  values.setResultTiles(op, out);
  if (groups)
    values.sumPartials(op, adder(arrayType(op.getResult()).getElementType()),
                       *groups);
}

/// A gather whose result is tiled along its batch dimensions only: each
/// partition gathers from the whole operand (but for its batching
/// dimensions, tiled as the indices') at its tile of the indices (XLA's
/// index-passthrough strategy).
bool mlir::hlo::partitionGather(SpmdValues &values, GatherOp op,
                                const TileSharding &out,
                                function_ref<StringRef(Type)> adder) {
  SmallVector<int64_t> indexDim = gatherIndexDims(op);
  ArrayRef<int64_t> whole = values.wholeShape(op.getOperand());
  // The operand whole but for its passthrough dimensions, in the result's
  // tiles (each partition gathers its part of every slice), and its
  // batching dimensions, which go with the indices' (a batched gather
  // pairs them).
  SmallVector<int64_t> operandDim = gatherPassthroughDims(op, whole);
  for (int64_t d = 0; d < out.getRank(); ++d)
    if (out.getTiles(d) > 1 && !llvm::is_contained(indexDim, d) &&
        !llvm::is_contained(operandDim, d))
      return false;
  // The slice sizes of the passthrough dimensions are the tile's.
  SmallVector<int64_t> sizes(op.getSliceSizes());
  RankedTensorType type = arrayType(op.getResult());
  SmallVector<int64_t> tile = out.shardShape(type.getShape());
  for (auto [d, r] : llvm::enumerate(operandDim))
    if (r >= 0)
      sizes[d] = tile[r];
  for (auto [o, i] : llvm::zip(
           op.getOperandBatchingDims().value_or(ArrayRef<int64_t>{}),
           op.getStartIndicesBatchingDims().value_or(ArrayRef<int64_t>{})))
    operandDim[o] = indexDim[i];
  TileSharding operandTiles = out.project(operandDim);
  // An operand tiled evenly along the one dimension indexed (rows of one
  // element: an embedding table sharded by vocabulary) stays so: each
  // partition gathers from its rows, zeros where an index is another's,
  // and an all-reduce sums them (XLA's strategy: only the result moves).
  TileSharding now = values.currentOf(op.getOperand());
  auto indexType = arrayType(op.getStartIndices()).getElementType();
  int64_t d = op.getStartIndexMap().size() == 1 ? op.getStartIndexMap()[0] : -1;
  std::optional<SmallVector<SmallVector<int64_t>>> groups;
  if (d >= 0 && now.getTiles(d) > 1 && whole[d] % now.getTiles(d) == 0 &&
      sizes[d] == 1 && operandDim[d] < 0 &&
      isa<IntegerType, FloatType>(type.getElementType()) &&
      isa<IntegerType>(indexType) && !indexType.isUnsignedInteger()) {
    SmallVector<SmallVector<int64_t>> kCoords;
    for (int64_t p = 0; p < now.getNumPartitions(); ++p)
      kCoords.push_back({now.getCoords(p)[d]});
    groups = values.partialSums(out, {now.getTiles(d)}, kCoords,
                                {{&operandTiles, {d}}});
  }
  values.setOperandTiles(op, 0, operandTiles);
  values.setOperandTiles(op, 1, out.project(indexDim));
  values.setResultTiles(op, out);
  op.setSliceSizes(sizes);
  if (!groups)
    return true;
  // The indices, clamped as the whole operand clamps them, counted from
  // the partition's first row; those out of its rows masked.
  OpBuilder b(op);
  InstBuilder ib(b, derivedLoc(op->getLoc()));
  Value indices = op.getStartIndices();
  RankedTensorType it = arrayType(indices);
  int64_t rows = whole[d] / now.getTiles(d);
  SmallVector<int32_t> firstRows;
  for (int64_t p = 0; p < now.getNumPartitions(); ++p)
    firstRows.push_back(now.getCoords(p)[d] * rows);
  auto splat = [&](Value scalar) { return ib.broadcast(scalar, it); };
  Value zero = splat(ib.scalar(indexType, 0));
  Value clamped = ib.create<ClampOp>(
      it, {zero, indices, splat(ib.scalar(indexType, whole[d] - 1))});
  Value local = ib.create<SubtractOp>(
      it, {clamped,
           splat(ib.convert(values.atPartition(ib, firstRows), indexType))});
  op->setOperand(1, local);
  Value mine =
      ib.create<AndOp>(RankedTensorType::get(it.getShape(), b.getI1Type()),
                       {ib.compare(local, zero, ComparisonDirection::GE),
                        ib.compare(local, splat(ib.scalar(indexType, rows)),
                                   ComparisonDirection::LT)});
  // The mask over the result: each index's batch position.
  SmallVector<int64_t> kept, dims;
  for (auto [i, r] : llvm::enumerate(indexDim))
    if (i != op.getIndexVectorDim()) {
      kept.push_back(it.getDimSize(i));
      dims.push_back(r);
    }
  mine = ib.reshape(mine, kept);
  b.setInsertionPointAfter(op);
  Value r = op.getResult();
  Value mask = ib.create<BroadcastOp>(
      RankedTensorType::get(tile, b.getI1Type()), mine,
      {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(dims))});
  Value zeros = ib.broadcast(ib.scalar(type.getElementType(), 0), r.getType());
  Value selected = ib.create<SelectOp>(r.getType(), {mask, r, zeros});
  r.replaceAllUsesExcept(selected, selected.getDefiningOp());
  values.setTiles(selected, out, type.getShape());
  values.sumPartials(selected.getDefiningOp(), adder(type.getElementType()),
                     *groups);
  return true;
}

bool mlir::hlo::partitionReduce(SpmdValues &values, ReduceOp op,
                                const TileSharding &out) {
  Value in = op->getOperand(0);
  ArrayRef<int64_t> reduced = op.getDimensions();
  TileSharding target = out.project(*resultDimsOf(
      op, values.wholeShape(in), arrayType(op->getResult(0)).getShape()));
  // Partial results where the operand is tiled evenly along reduced
  // dimensions.
  TileSharding now = values.currentOf(in);
  SmallVector<int64_t> kTiles, kDims;
  SmallVector<SmallVector<int64_t>> kCoords(values.getNumPartitions());
  for (int64_t d : reduced)
    if (now.getTiles(d) > 1 &&
        values.wholeShape(in)[d] % now.getTiles(d) == 0) {
      kDims.push_back(d);
      kTiles.push_back(now.getTiles(d));
      for (int64_t p = 0; p < values.getNumPartitions(); ++p)
        kCoords[p].push_back(now.getCoords(p)[d]);
    }
  std::optional<SmallVector<SmallVector<int64_t>>> groups =
      values.partialSums(out, kTiles, kCoords, {{&target, kDims}});
  values.setOperandTiles(op, 0, target);
  values.setResultTiles(op, out);
  if (groups)
    values.sumPartials(op, op.getToApply(), *groups);
  return true;
}

/// `out`, tiles of the result of `op` (of shape `shape`), where every
/// operand of its rank keeps each tiled dimension (`dims`: each array
/// operand's dimensions' result dimensions); where one does not, its tiles
/// moved to a whole dimension all keep (evenly: an all-to-all, not an
/// all-gather, reshards the operands, as XLA's partitioner does), else made
/// whole (the other dimensions keep their tiles; users cut the result's
/// tiles from it).
static TileSharding keptTiles(SpmdValues &values, Operation *op,
                              const TileSharding &out,
                              ArrayRef<SmallVector<int64_t>> dims) {
  ArrayRef<int64_t> shape = arrayType(op->getResult(0)).getShape();
  auto keeps = [&](int64_t d) {
    return llvm::all_of(dims, [&](ArrayRef<int64_t> m) {
      return int64_t(m.size()) != out.getRank() || m[d] == d;
    });
  };
  TileSharding tiles = out;
  for (int64_t d = 0; d < out.getRank(); ++d) {
    int64_t n = tiles.getTiles(d);
    if (n == 1 || keeps(d))
      continue;
    std::optional<TileSharding> moved;
    for (int64_t e = 0; e < out.getRank() && !moved; ++e) {
      if (tiles.getTiles(e) != 1 || !keeps(e) || shape[e] % n != 0 ||
          llvm::any_of(getDataOperands(op), [&](Value v) {
            ArrayRef<int64_t> w = values.wholeShape(v);
            return int64_t(w.size()) == out.getRank() && w[d] % n != 0;
          }))
        continue;
      SmallVector<int64_t> counts(tiles.getTiles());
      std::swap(counts[d], counts[e]);
      SmallVector<SmallVector<int64_t>> coords;
      for (int64_t p = 0; p < tiles.getNumPartitions(); ++p) {
        coords.emplace_back(tiles.getCoords(p));
        std::swap(coords.back()[d], coords.back()[e]);
      }
      moved = TileSharding::fromCoords(counts, coords);
    }
    tiles = moved ? *moved : tiles.withoutDim(d);
  }
  return tiles;
}

/// Slice, dynamic-slice and dynamic-update-slice tiled along dimensions
/// they take whole: the operand (and update) in the result's tiles there,
/// the slice's sizes those of the tile.
bool mlir::hlo::partitionSliced(SpmdValues &values, Operation *op,
                                const TileSharding &out) {
  ArrayRef<int64_t> shape = arrayType(op->getResult(0)).getShape();
  OperandRange in = getDataOperands(op);
  unsigned arrays = isa<DynamicUpdateSliceOp>(op) ? 2 : 1;
  SmallVector<SmallVector<int64_t>> dims;
  for (unsigned i = 0; i < arrays; ++i)
    dims.push_back(*resultDimsOf(op, values.wholeShape(in[i]), shape));
  TileSharding tiles = keptTiles(values, op, out, dims);
  for (unsigned i = 0; i < in.size(); ++i)
    values.setOperandTiles(
        op, i,
        i < arrays ? tiles.project(dims[i])
                   : TileSharding::replicated(arrayType(in[i]).getRank(),
                                              tiles.getNumPartitions()));
  values.setResultTiles(op, tiles);
  SmallVector<int64_t> tile = tiles.shardShape(shape);
  Builder b(op->getContext());
  if (isa<DynamicSliceOp>(op))
    op->setAttr("dynamic_slice_sizes", b.getDenseI64ArrayAttr(tile));
  if (auto slice = dyn_cast<SliceOp>(op)) {
    SliceAttr s = slice.getSlice();
    SmallVector<int64_t> limits(s.getLimits());
    for (int64_t d = 0; d < tiles.getRank(); ++d)
      if (tiles.getTiles(d) > 1)
        limits[d] = tile[d];
    op->setAttr("slice", SliceAttr::get(b.getContext(), s.getStarts(), limits,
                                        s.getStrides()));
  }
  return true;
}

bool mlir::hlo::partitionIota(SpmdValues &values, IotaOp op,
                              const TileSharding &out) {
  Value r = op.getResult();
  RankedTensorType type = arrayType(r);
  int64_t dim = op.getIotaDimension();
  SmallVector<int64_t> whole(type.getShape());
  bool offset = out.getTiles(dim) > 1;
  if (offset && !isa<IntegerType, FloatType>(type.getElementType()))
    return false;
  values.setResultTiles(op, out);
  if (!offset)
    return true;
  // Each tile counts from its offset along the iota dimension.
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  InstBuilder ib(b, derivedLoc(op->getLoc()));
  SmallVector<int64_t> tile = out.shardShape(whole);
  SmallVector<int32_t> starts;
  for (int64_t p = 0; p < out.getNumPartitions(); ++p)
    starts.push_back(out.getCoords(p)[dim] * tile[dim]);
  Value start =
      ib.convert(values.atPartition(ib, starts), type.getElementType());
  Value sum =
      ib.create<AddOp>(r.getType(), {r, ib.broadcast(start, r.getType())});
  r.replaceAllUsesExcept(sum, sum.getDefiningOp());
  values.setTiles(sum, out, whole);
  return true;
}

bool mlir::hlo::isZeros(Value v) {
  while (auto b = v.getDefiningOp<BroadcastOp>())
    v = b->getOperand(0);
  auto c = v.getDefiningOp<ConstantOp>();
  auto attr = c ? dyn_cast<DenseElementsAttr>(c->getAttr("value"))
                : DenseElementsAttr();
  if (!attr || !attr.isSplat())
    return false;
  if (isa<FloatType>(attr.getElementType()))
    return attr.getSplatValue<APFloat>().isZero();
  if (isa<IntegerType>(attr.getElementType()))
    return attr.getSplatValue<APInt>().isZero();
  return false;
}

bool mlir::hlo::partitionScatter(SpmdValues &values, ScatterOp op,
                                 const TileSharding &out, bool adds) {
  OperandRange data = getDataOperands(op);
  if (data.size() != 3)
    return false;
  ArrayRef<int64_t> operandShape = values.wholeShape(data[0]);
  SmallVector<int64_t> pass =
      scatterPassthroughDims(op, operandShape, values.wholeShape(data[2]));
  // Besides, the one dimension indexed by rows of one element may be tiled
  // (a table sharded by vocabulary): each partition scatters into its own
  // rows, its indices counted from its first (those of other rows then out
  // of its bounds: a scatter skips them), with any update computation.
  Value indices = data[1], updates = data[2];
  Type indexType = arrayType(indices).getElementType();
  int64_t owned = -1;
  for (int64_t d = 0; d < out.getRank(); ++d) {
    if (out.getTiles(d) == 1 || pass[d] >= 0)
      continue;
    if (owned >= 0 || op.getScatterDimsToOperandDims().size() != 1 ||
        op.getScatterDimsToOperandDims()[0] != d ||
        !llvm::is_contained(op.getInsertedWindowDims(), d) ||
        operandShape[d] % out.getTiles(d) != 0 ||
        !op.getInputBatchingDims().value_or(ArrayRef<int64_t>{}).empty() ||
        !isa<IntegerType>(indexType) || indexType.isUnsignedInteger())
      return false;
    owned = d;
  }
  int64_t numPartitions = out.getNumPartitions();
  // The updates' windows in the result's tiles, their scatter dimensions
  // (the indices' batch dimensions, in order) whole but where partial
  // results are summed.
  SmallVector<int64_t> updateDims(arrayType(updates).getRank(), -1);
  for (auto [d, u] : llvm::enumerate(pass))
    if (u >= 0)
      updateDims[u] = d;
  TileSharding upd = out.project(updateDims);
  TileSharding idx =
      TileSharding::replicated(arrayType(indices).getRank(), numPartitions);
  SmallVector<int64_t> scatterDims, indexDims;
  for (int64_t u = 0; u < int64_t(updateDims.size()); ++u)
    if (!llvm::is_contained(op.getUpdateWindowDims(), u))
      scatterDims.push_back(u);
  for (int64_t d = 0; d < idx.getRank(); ++d)
    if (d != int64_t(op.getIndexVectorDim()))
      indexDims.push_back(d);
  TileSharding now = values.currentOf(updates);
  ArrayRef<int64_t> whole = values.wholeShape(updates);
  SmallVector<int64_t> kUpdate, kIndex, kTiles;
  SmallVector<SmallVector<int64_t>> kCoords(numPartitions);
  if (adds && op.getInputBatchingDims().value_or(ArrayRef<int64_t>{}).empty() &&
      scatterDims.size() == indexDims.size())
    for (auto [i, u] : llvm::enumerate(scatterDims))
      if (now.getTiles(u) > 1 && whole[u] % now.getTiles(u) == 0) {
        kUpdate.push_back(u);
        kIndex.push_back(indexDims[i]);
        kTiles.push_back(now.getTiles(u));
        for (int64_t p = 0; p < numPartitions; ++p)
          kCoords[p].push_back(now.getCoords(p)[u]);
      }
  std::optional<SmallVector<SmallVector<int64_t>>> groups = values.partialSums(
      out, kTiles, kCoords, {{&upd, kUpdate}, {&idx, kIndex}});
  values.setOperandTiles(op, 0, out);
  values.setOperandTiles(op, 1, idx);
  values.setOperandTiles(op, 2, upd);
  if (owned >= 0) {
    OpBuilder b(op);
    InstBuilder ib(b, derivedLoc(op->getLoc()));
    int64_t rows = operandShape[owned] / out.getTiles(owned);
    SmallVector<int32_t> firstRows;
    for (int64_t p = 0; p < numPartitions; ++p)
      firstRows.push_back(out.getCoords(p)[owned] * rows);
    Value first = ib.convert(values.atPartition(ib, firstRows), indexType);
    Value at = op->getOperand(1);
    op->setOperand(
        1, ib.create<SubtractOp>(at.getType(),
                                 {at, ib.broadcast(first, at.getType())}));
  }
  // The operand's elements count once in the sum: every partition but the
  // first of each group scatters into zeros.
  Value operand = op->getOperand(0);
  if (groups && !isZeros(operand)) {
    OpBuilder b(op);
    InstBuilder ib(b, derivedLoc(op->getLoc()));
    RankedTensorType type = arrayType(operand);
    MLIRContext *ctx = op->getContext();
    SmallVector<int32_t> firsts(numPartitions, 0);
    for (ArrayRef<int64_t> g : *groups)
      firsts[g.front()] = 1;
    Value first = ib.compare(values.atPartition(ib, firsts),
                             ib.scalar(IntegerType::get(ctx, 32), 1),
                             ComparisonDirection::EQ);
    Value mask =
        ib.broadcast(first, RankedTensorType::get(type.getShape(),
                                                  IntegerType::get(ctx, 1)));
    Value zeros = ib.broadcast(ib.scalar(type.getElementType(), 0), type);
    op->setOperand(0, ib.create<SelectOp>(type, {mask, operand, zeros}));
  }
  values.setResultTiles(op, out);
  if (groups)
    values.sumPartials(op, op.getToApply(), *groups);
  return true;
}

bool mlir::hlo::partitionPassthrough(SpmdValues &values, Operation *op,
                                     const TileSharding &out) {
  ArrayRef<int64_t> shape = arrayType(op->getResult(0)).getShape();
  SmallVector<SmallVector<int64_t>> dims;
  for (Value v : getDataOperands(op)) {
    std::optional<SmallVector<int64_t>> d =
        resultDimsOf(op, values.wholeShape(v), shape);
    if (!d)
      return false;
    dims.push_back(*d);
  }
  return projectOperands(values, op, keptTiles(values, op, out, dims), dims);
}
