//===- SpmdRules.cpp - instructions the partitioner computes on tiles -----===//
//
// hlo-spmd-partitioner's rules (SpmdValues.h): each reshards an
// instruction's operands to the tiles its result's tiles need and gives
// the result those tiles.
//
//===----------------------------------------------------------------------===//

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
  if (partial && alike) {
    std::optional<TileSharding> k = TileSharding::fromCoords(kTiles, kCoords);
    if (k)
      groups = values.partialGroups(out, *k);
    if (groups) {
      std::optional<TileSharding> lk =
          values.withPartialDims(lhsTiles, lc, kTiles, kCoords);
      std::optional<TileSharding> rk =
          values.withPartialDims(rhsTiles, rc, kTiles, kCoords);
      if (lk && rk) {
        lhsTiles = *lk;
        rhsTiles = *rk;
      } else {
        groups.reset();
      }
    }
  }
  values.setOperandTiles(op, 0, lhsTiles);
  values.setOperandTiles(op, 1, rhsTiles);
  values.setResultTiles(op, out);
  if (groups)
    values.sumPartials(op, adder(arrayType(op.getResult()).getElementType()),
                       *groups);
}

/// An ungrouped convolution whose result is tiled along its batch and
/// output feature dimensions only: the input's batch tiles times the
/// kernel's output feature tiles, each partition its own (the spatial
/// dimensions would need halos: such a convolution runs whole).
bool mlir::hlo::partitionConvolution(SpmdValues &values, ConvolutionOp op,
                                     const TileSharding &out) {
  ConvDimensionNumbersAttr dims = op.getDimLabels();
  if (op.getFeatureGroupCount().value_or(1) != 1 ||
      op.getBatchGroupCount().value_or(1) != 1)
    return false;
  for (int64_t d = 0; d < out.getRank(); ++d)
    if (out.getTiles(d) > 1 && d != dims.getOutputBatch() &&
        d != dims.getOutputFeature())
      return false;
  SmallVector<int64_t> lhsDim(arrayType(op.getLhs()).getRank(), -1);
  SmallVector<int64_t> rhsDim(arrayType(op.getRhs()).getRank(), -1);
  lhsDim[dims.getInputBatch()] = dims.getOutputBatch();
  rhsDim[dims.getKernelOutput()] = dims.getOutputFeature();
  return projectOperands(values, op, out, {lhsDim, rhsDim});
}

/// A gather whose result is tiled along its batch dimensions only: each
/// partition gathers from the whole operand (but for its batching
/// dimensions, tiled as the indices') at its tile of the indices (XLA's
/// index-passthrough strategy).
bool mlir::hlo::partitionGather(SpmdValues &values, GatherOp op,
                                const TileSharding &out) {
  SmallVector<int64_t> indexDim = gatherIndexDims(op);
  for (int64_t d = 0; d < out.getRank(); ++d)
    if (out.getTiles(d) > 1 && !llvm::is_contained(indexDim, d))
      return false;
  // The operand whole but for its batching dimensions, which go with the
  // indices' (a batched gather pairs them).
  SmallVector<int64_t> operandDim(arrayType(op.getOperand()).getRank(), -1);
  for (auto [o, i] : llvm::zip(
           op.getOperandBatchingDims().value_or(ArrayRef<int64_t>{}),
           op.getStartIndicesBatchingDims().value_or(ArrayRef<int64_t>{})))
    operandDim[o] = indexDim[i];
  return projectOperands(values, op, out, {operandDim, indexDim});
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
  std::optional<SmallVector<SmallVector<int64_t>>> groups;
  if (!kDims.empty())
    if (std::optional<TileSharding> k =
            TileSharding::fromCoords(kTiles, kCoords))
      groups = values.partialGroups(out, *k);
  if (groups) {
    if (std::optional<TileSharding> t =
            values.withPartialDims(target, kDims, kTiles, kCoords))
      target = *t;
    else
      groups.reset();
  }
  values.setOperandTiles(op, 0, target);
  values.setResultTiles(op, out);
  if (groups)
    values.sumPartials(op, op.getToApply(), *groups);
  return true;
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
  for (int64_t d = 0; d < out.getRank(); ++d)
    if (out.getTiles(d) > 1 &&
        llvm::any_of(dims, [&](ArrayRef<int64_t> m) { return m[d] != d; }))
      return false;
  for (unsigned i = 0; i < in.size(); ++i)
    values.setOperandTiles(
        op, i,
        i < arrays ? out.project(dims[i])
                   : TileSharding::replicated(arrayType(in[i]).getRank(),
                                              out.getNumPartitions()));
  values.setResultTiles(op, out);
  SmallVector<int64_t> tile = out.shardShape(shape);
  Builder b(op->getContext());
  if (isa<DynamicSliceOp>(op))
    op->setAttr("dynamic_slice_sizes", b.getDenseI64ArrayAttr(tile));
  if (auto slice = dyn_cast<SliceOp>(op)) {
    SliceAttr s = slice.getSlice();
    SmallVector<int64_t> limits(s.getLimits());
    for (int64_t d = 0; d < out.getRank(); ++d)
      if (out.getTiles(d) > 1)
        limits[d] = tile[d];
    op->setAttr("slice", SliceAttr::get(b.getContext(), s.getStarts(), limits,
                                        s.getStrides()));
  }
  return true;
}
