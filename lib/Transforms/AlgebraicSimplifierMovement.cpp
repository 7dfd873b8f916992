//===- AlgebraicSimplifierMovement.cpp - data-movement rewrites -----------===//
//
// hlo-algebraic-simplifier's rewrites of instructions that only move
// elements: scalar broadcasts read through permutations and subsets, the
// size-1 dimensions of broadcasts, slices of broadcasts and pads, reverses
// of reverses, negative pads, uniform constants, iotas along a size-1
// dimension, transposes of size-1 dimensions, broadcast scalars at the
// ends of a concatenate, dynamic slices of dynamic slices, gathers,
// scatters, sorts and copies (XLA's HandleBroadcast, HandleSlice,
// HandleDynamicSlice, HandleReverse, HandlePad, HandleConstant,
// HandleIota, HandleTranspose, HandleConcatenate, HandleGather,
// HandleScatter, HandleSort and HandleCopy).
//
//===----------------------------------------------------------------------===//

#include "AlgebraicSimplifier.h"
#include "GatherScatterUtils.h"
#include "WhileLoopUtils.h"

#include "Hlo/Dialect/Hlo/HloOpClasses.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::algsimp;

std::optional<SmallVector<ReshapeRun>>
mlir::hlo::algsimp::reshapeRuns(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  if (llvm::is_contained(a, 0) || llvm::is_contained(b, 0))
    return std::nullopt;
  SmallVector<ReshapeRun> runs;
  int64_t i = 0, j = 0, na = a.size(), nb = b.size();
  while (i < na || j < nb) {
    int64_t i0 = i, j0 = j, pa = i < na ? a[i++] : 1, pb = j < nb ? b[j++] : 1;
    while (pa != pb) {
      if (pa < pb && i < na)
        pa *= a[i++];
      else if (pb < pa && j < nb)
        pb *= b[j++];
      else
        return std::nullopt;
    }
    runs.push_back({{i0, i}, {j0, j}});
  }
  return runs;
}

namespace {
//===----------------------------------------------------------------------===//
// Broadcasts
//===----------------------------------------------------------------------===//

/// An instruction whose result only permutes its first operand's elements
/// (reshape, transpose, reverse, a one-array sort) or takes some of them
/// (slice, dynamic-slice), applied to a broadcast scalar s: every result
/// element is s, so it is s broadcast to the result shape.
template <typename OpT> struct OfScalarBroadcast : HloPattern<OpT> {
  using HloPattern<OpT>::HloPattern;
  LogicalResult rewrite(OpT op, PatternRewriter &r) const override {
    if (op->getNumOperands() == 0 || op->getNumResults() != 1)
      return failure();
    auto b = plainDef<BroadcastOp>(op->getOperand(0));
    auto scalar = b ? dyn_cast<RankedTensorType>(b.getOperand().getType())
                    : RankedTensorType();
    RankedTensorType type = staticType(op->getResult(0));
    if (!scalar || scalar.getRank() != 0 || !type ||
        type.getElementType() != scalar.getElementType())
      return failure();
    if constexpr (std::is_same_v<OpT, SortOp>)
      if (op.getInputs().size() != 1)
        return failure();
    InstBuilder ib(r, op.getLoc());
    replace(r, op, ib.broadcast(b.getOperand(), type), true);
    return success();
  }
};

/// broadcast(A) where A has dimensions of size 1: broadcast(reshape(A))
/// without them, so that only dimensions with more than one element are
/// broadcast from (an A of one element becomes a scalar). Not after layout
/// assignment, where the reshape would need a layout of its own.
struct BroadcastDegenerateOperand : HloPattern<BroadcastOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(BroadcastOp op, PatternRewriter &r) const override {
    RankedTensorType in = staticType(op.getOperand());
    if (!in || !staticType(op.getResult()) || !op.getDimensions() ||
        !llvm::is_contained(in.getShape(), 1))
      return failure();
    SmallVector<int64_t> shape, dims;
    ArrayRef<int64_t> bdims = *op.getDimensions();
    for (auto [size, d] : llvm::zip(in.getShape(), bdims))
      if (size != 1) {
        shape.push_back(size);
        dims.push_back(d);
      }
    InstBuilder ib(r, unnamed(op.getLoc()));
    Value reshaped = ib.reshape(op.getOperand(), shape);
    r.modifyOpInPlace(op, [&] {
      op.getOperandMutable().assign(reshaped);
      op.setDimensions(dims);
    });
    return success();
  }
};

/// Replaces `op` by `value` broadcast along the dimensions that `b`
/// broadcasts its operand along.
static void replaceByBroadcastLike(PatternRewriter &r, Operation *op,
                                   Value value, BroadcastOp b) {
  InstBuilder ib(r, unnamed(op->getLoc()));
  replace(r, op,
          ib.create<BroadcastOp>(
              op->getResult(0).getType(), value,
              {r.getNamedAttr("dimensions", b.getDimensionsAttr())}),
          true);
}

/// slice(broadcast(A)) = broadcast(slice(A)): A sliced along the
/// dimensions it is broadcast into.
struct SliceOfBroadcast : HloPattern<SliceOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(SliceOp op, PatternRewriter &r) const override {
    auto b = plainDef<BroadcastOp>(op.getOperand());
    RankedTensorType in = b ? staticType(b.getOperand()) : RankedTensorType();
    if (!in || in.getRank() == 0 || !b.getDimensions() ||
        !staticType(op.getResult()))
      return failure();
    SliceAttr s = op.getSlice();
    SmallVector<int64_t> starts, limits, strides, shape;
    ArrayRef<int64_t> bdims = *b.getDimensions();
    for (int64_t d : bdims) {
      starts.push_back(s.getStarts()[d]);
      limits.push_back(s.getLimits()[d]);
      strides.push_back(s.getStrides()[d]);
      shape.push_back(staticType(op.getResult()).getDimSize(d));
    }
    InstBuilder ib(r, unnamed(op.getLoc()));
    Value sliced = ib.create<SliceOp>(
        RankedTensorType::get(shape, in.getElementType()), b.getOperand(),
        {r.getNamedAttr(
            "slice", SliceAttr::get(r.getContext(), starts, limits, strides))});
    replaceByBroadcastLike(r, op, sliced, b);
    return success();
  }
};

/// dynamic-slice(broadcast(A), i...) = broadcast(dynamic-slice(A, ...)):
/// each dimension's start clamps on its own, so A takes the starts of the
/// dimensions it is broadcast into.
struct DynamicSliceOfBroadcast : HloPattern<DynamicSliceOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(DynamicSliceOp op, PatternRewriter &r) const override {
    auto b = plainDef<BroadcastOp>(op.getOperand());
    RankedTensorType in = b ? staticType(b.getOperand()) : RankedTensorType();
    if (!in || in.getRank() == 0 || !b.getDimensions() ||
        !staticType(op.getResult()))
      return failure();
    SmallVector<Value> starts;
    SmallVector<int64_t> sizes;
    ArrayRef<int64_t> bdims = *b.getDimensions();
    for (int64_t d : bdims) {
      starts.push_back(op.getStartIndices()[d]);
      sizes.push_back(op.getDynamicSliceSizes()[d]);
    }
    InstBuilder ib(r, unnamed(op.getLoc()));
    Value sliced = ib.dynamicSlice(b.getOperand(), starts, sizes);
    replaceByBroadcastLike(r, op, sliced, b);
    return success();
  }
};

/// reverse(reverse(A, D1), D2) = reverse(A, D1 xor D2): a dimension
/// reversed twice is as it was; A itself when none is left.
struct ReverseOfReverse : HloPattern<ReverseOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(ReverseOp op, PatternRewriter &r) const override {
    auto inner = plainDef<ReverseOp>(op.getOperand());
    if (!inner)
      return failure();
    SmallVector<int64_t> dims;
    for (ArrayRef<int64_t> mine : {op.getDimensions(), inner.getDimensions()})
      for (int64_t d : mine)
        if (llvm::count(op.getDimensions(), d) +
                llvm::count(inner.getDimensions(), d) ==
            1)
          dims.push_back(d);
    llvm::sort(dims);
    if (dims.empty()) {
      if (inner.getOperand().getType() != op.getType())
        return failure();
      replace(r, op, inner.getOperand(), false);
      return success();
    }
    r.modifyOpInPlace(op, [&] {
      op.getOperandMutable().assign(inner.getOperand());
      op.setDimensions(dims);
    });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pads and slices
//===----------------------------------------------------------------------===//

/// A pad with negative edge padding: the pad with the positive part only,
/// then a slice dropping what the negative part removes.
struct NegativePad : HloPattern<PadOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(PadOp op, PatternRewriter &r) const override {
    PaddingAttr p = op.getPadding();
    RankedTensorType type = staticType(op.getResult());
    auto negative = [](int64_t v) { return v < 0; };
    if (!type || !staticType(op.getOperand()) ||
        (llvm::none_of(p.getLow(), negative) &&
         llvm::none_of(p.getHigh(), negative)))
      return failure();
    SmallVector<int64_t> low, high, shape, starts, limits, strides;
    for (auto [d, size] : llvm::enumerate(type.getShape())) {
      low.push_back(std::max<int64_t>(p.getLow()[d], 0));
      high.push_back(std::max<int64_t>(p.getHigh()[d], 0));
      int64_t dropLow = low.back() - p.getLow()[d];
      int64_t dropHigh = high.back() - p.getHigh()[d];
      shape.push_back(size + dropLow + dropHigh);
      starts.push_back(dropLow);
      limits.push_back(dropLow + size);
      strides.push_back(1);
    }
    InstBuilder ib(r, unnamed(op.getLoc()));
    Value padded = ib.create<PadOp>(
        RankedTensorType::get(shape, type.getElementType()),
        {op.getOperand(), op.getPaddingValue()},
        {r.getNamedAttr("padding", PaddingAttr::get(r.getContext(), low, high,
                                                    p.getInterior()))});
    replace(r, op,
            ib.create<SliceOp>(
                op.getType(), padded,
                {r.getNamedAttr("slice", SliceAttr::get(r.getContext(), starts,
                                                        limits, strides))}),
            true);
    return success();
  }
};

/// slice(pad(A, v)) without interior padding: a slice of A when every
/// element it takes is one of A's, the padding value broadcast when none
/// is.
struct SliceOfPad : HloPattern<SliceOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(SliceOp op, PatternRewriter &r) const override {
    auto pad = plainDef<PadOp>(op.getOperand());
    RankedTensorType in =
        pad ? staticType(pad.getOperand()) : RankedTensorType();
    RankedTensorType type = staticType(op.getResult());
    if (!in || !type || type.getNumElements() == 0 ||
        llvm::any_of(pad.getPadding().getInterior(),
                     [](int64_t v) { return v != 0; }))
      return failure();
    SliceAttr s = op.getSlice();
    SmallVector<int64_t> starts, limits;
    bool inside = true;
    for (auto [d, count] : llvm::enumerate(type.getShape())) {
      int64_t low = pad.getPadding().getLow()[d];
      int64_t first = s.getStarts()[d] - low;
      int64_t last = first + (count - 1) * s.getStrides()[d];
      if (last < 0 || first >= in.getDimSize(d)) {
        // Only padding along this dimension, so everywhere.
        InstBuilder ib(r, unnamed(op.getLoc()));
        replace(r, op, ib.broadcast(pad.getPaddingValue(), op.getType()), true);
        return success();
      }
      inside &= first >= 0 && last < in.getDimSize(d);
      starts.push_back(first);
      limits.push_back(last + 1);
    }
    if (!inside)
      return failure();
    InstBuilder ib(r, unnamed(op.getLoc()));
    replace(
        r, op,
        ib.create<SliceOp>(
            op.getType(), pad.getOperand(),
            {r.getNamedAttr("slice", SliceAttr::get(r.getContext(), starts,
                                                    limits, s.getStrides()))}),
        true);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

/// An array constant of one value in every element is that value
/// broadcast. (XLA also makes a vector constant 0, 1, ..., n-1 an iota;
/// kept a constant here, it lets while-loop constant sinking and constant
/// folding go on: the defined diffrax module of bench/kernels_vs_xla.py
/// takes 18 kernels so, 25 with the iota, XLA 26.)
struct UniformConstant : OpRewritePattern<ConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConstantOp op,
                                PatternRewriter &r) const override {
    auto value = dyn_cast<DenseElementsAttr>(op.getValue());
    RankedTensorType type = staticType(op.getResult());
    if (!value || !value.isSplat() || !type || type.getNumElements() < 2 ||
        !isa<IntegerType, FloatType>(type.getElementType()))
      return failure();
    replace(r, op,
            makeSplat(r, unnamed(op.getLoc()), op.getType(),
                      value.getSplatValue<Attribute>()),
            true);
    return success();
  }
};

/// A broadcast that only inserts dimensions of size 1 (as many elements as
/// its operand, the operand's dimensions in order) is a reshape. Not after
/// layout assignment.
struct BroadcastAsReshape : HloPattern<BroadcastOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(BroadcastOp op, PatternRewriter &r) const override {
    RankedTensorType in = staticType(op.getOperand());
    RankedTensorType type = staticType(op.getResult());
    if (!in || !type || in.getRank() == 0 || !op.getDimensions() ||
        in.getNumElements() != type.getNumElements() ||
        !llvm::is_sorted(*op.getDimensions()))
      return failure();
    InstBuilder ib(r, unnamed(op.getLoc()));
    replace(r, op, ib.create<ReshapeOp>(op.getType(), op.getOperand()), true);
    return success();
  }
};

/// An elementwise instruction whose operands are all broadcasts, of one
/// array A (the same dimensions) or of scalars: the instruction on A's
/// shape (the scalars broadcast to it), broadcast after it, so that it
/// computes each distinct element once (XLA's sinking of broadcasts). Not
/// after layout assignment.
struct SinkBroadcast : RewritePattern {
  SinkBroadcast(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &r) const override {
    RankedTensorType type =
        op->getNumResults() == 1 ? staticType(op->getResult(0)) : nullptr;
    if (!type || op->getNumOperands() == 0 || !isElementwise(op) ||
        isa<CopyOp, BitcastConvertOp, MapOp>(op) || hasControlPredecessors(op))
      return failure();
    BroadcastOp main;
    for (Value v : op->getOperands()) {
      auto b = plainDef<BroadcastOp>(v);
      RankedTensorType in = b ? staticType(b.getOperand()) : nullptr;
      if (!in || !b.getDimensions())
        return failure();
      if (in.getRank() == 0)
        continue;
      if (main && (main.getOperand() != b.getOperand() ||
                   main.getDimensions() != b.getDimensions()))
        return failure();
      main = b;
    }
    if (!main)
      main = op->getOperand(0).getDefiningOp<BroadcastOp>();
    ArrayRef<int64_t> shape = staticType(main.getOperand()).getShape();
    InstBuilder ib(r, unnamed(op->getLoc()));
    SmallVector<Value> operands;
    for (Value v : op->getOperands()) {
      Value in = v.getDefiningOp<BroadcastOp>().getOperand();
      auto t = cast<RankedTensorType>(in.getType());
      operands.push_back(
          t.getShape() == shape
              ? in
              : ib.broadcast(in,
                             RankedTensorType::get(shape, t.getElementType())));
    }
    Operation *inner = r.clone(*op);
    r.modifyOpInPlace(inner, [&] {
      inner->setOperands(operands);
      inner->getResult(0).setType(
          RankedTensorType::get(shape, type.getElementType()));
      inner->setLoc(unnamed(op->getLoc()));
      inner->removeAttr("sharding");
    });
    replace(r, op,
            ib.create<BroadcastOp>(
                op->getResult(0).getType(), inner->getResult(0),
                {r.getNamedAttr("dimensions", main.getDimensionsAttr())}),
            true);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Gathers
//===----------------------------------------------------------------------===//

/// A gather from an array of one element: every start index clamps to 0,
/// so each result element is that element (a broadcast of it).
struct GatherFromScalar : HloPattern<GatherOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(GatherOp op, PatternRewriter &r) const override {
    RankedTensorType in = staticType(op.getOperand());
    RankedTensorType type = staticType(op.getResult());
    if (!in || !type || in.getNumElements() != 1)
      return failure();
    InstBuilder ib(r, unnamed(op.getLoc()));
    replace(r, op, ib.broadcast(ib.reshape(op.getOperand(), {}), type), true);
    return success();
  }
};

/// A gather of single elements from a vector of at most `maxSize` elements
/// (one scalar start index per result element, the dimension collapsed):
/// a chain of selects, cheaper to fuse than a gather. Element i is chosen
/// where index >= i, the last such i winning, which clamps indices below 0
/// to element 0 and above the end to the last element, as gather does.
struct VerySmallGather : HloPattern<GatherOp> {
  VerySmallGather(MLIRContext *context, int64_t maxSize)
      : HloPattern(context), maxSize(maxSize) {}
  LogicalResult rewrite(GatherOp op, PatternRewriter &r) const override {
    RankedTensorType in = staticType(op.getOperand());
    RankedTensorType indices = staticType(op.getStartIndices());
    RankedTensorType type = staticType(op.getResult());
    if (!in || !indices || !type || in.getRank() != 1 || in.getDimSize(0) < 2 ||
        in.getDimSize(0) > maxSize ||
        int64_t(op.getIndexVectorDim()) != indices.getRank() ||
        op.getCollapsedSliceDims() != ArrayRef<int64_t>{0} ||
        !op.getOffsetDims().empty() ||
        (op.getOperandBatchingDimsAttr() &&
         !op.getOperandBatchingDimsAttr().empty()))
      return failure();
    InstBuilder ib(r, unnamed(op.getLoc()));
    Value index = op.getStartIndices();
    Type indexElement = indices.getElementType();
    Value result;
    for (int64_t i = 0, n = in.getDimSize(0); i < n; ++i) {
      Value element = ib.broadcast(ib.element(op.getOperand(), {i}), type);
      if (i == 0) {
        result = element;
        continue;
      }
      Value atLeast =
          ib.compare(index, ib.splat(indexElement, i, indices.getShape()),
                     ComparisonDirection::GE);
      result = ib.create<SelectOp>(type, {atLeast, element, result});
    }
    replace(r, op, result, true);
    return success();
  }
  int64_t maxSize;
};

/// Replaces variadic `op` by the tuple of `values` when that is its type.
static LogicalResult replaceByTuple(Operation *op, ValueRange values,
                                    PatternRewriter &r) {
  if (TupleType::get(r.getContext(), values.getTypes()) !=
      op->getResult(0).getType())
    return failure();
  InstBuilder ib(r, op->getLoc());
  replace(r, op, ib.tuple(values), true);
  return success();
}

//===----------------------------------------------------------------------===//
// Scatters
//===----------------------------------------------------------------------===//

/// A scatter of no update elements leaves its operands as they are.
struct ScatterNothing : HloPattern<ScatterOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(ScatterOp op, PatternRewriter &r) const override {
    ScatterParts in(op);
    for (Value update : in.updates) {
      RankedTensorType t = staticType(update);
      if (!t || t.getNumElements() != 0)
        return failure();
    }
    if (in.operands.size() == 1) {
      if (in.operands[0].getType() != op.getType())
        return failure();
      replace(r, op, in.operands[0], false);
      return success();
    }
    return replaceByTuple(op, in.operands, r);
  }
};

/// A scatter of one update window as large as its operand at the origin
/// (an empty index vector, so no start indices): every element is
/// combined with its update once, a map of the combiner.
struct ScatterWholeWindow : HloPattern<ScatterOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(ScatterOp op, PatternRewriter &r) const override {
    ScatterParts in(op);
    RankedTensorType indices = staticType(in.indices);
    RankedTensorType type = staticType(op.getResult());
    if (in.operands.size() != 1 || !indices || !type ||
        indices.getNumElements() != 0 ||
        in.operands[0].getType() != op.getType() ||
        in.updates[0].getType() != op.getType())
      return failure();
    auto dims = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
    InstBuilder ib(r, op.getLoc());
    Value map = ib.create<MapOp>(
        type, {in.operands[0], in.updates[0]},
        {r.getNamedAttr("to_apply", op.getToApplyAttr()),
         r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr(dims))});
    replace(r, op, map, true);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Iotas, transposes, concatenates and dynamic slices
//===----------------------------------------------------------------------===//

/// An iota along a dimension of size 1 is all zeros.
struct IotaAlongUnitDimension : HloPattern<IotaOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(IotaOp op, PatternRewriter &r) const override {
    RankedTensorType type = staticType(op.getResult());
    if (!type || !isa<IntegerType, FloatType>(type.getElementType()) ||
        type.getDimSize(op.getIotaDimension()) != 1)
      return failure();
    replaceByZeros(r, op);
    return success();
  }
};

/// A transpose that moves only dimensions of size 1, keeping the others in
/// their order, is a reshape (before layout assignment).
struct TransposeOfUnitDimensions : HloPattern<TransposeOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(TransposeOp op, PatternRewriter &r) const override {
    RankedTensorType in = staticType(op.getOperand());
    if (!in || !staticType(op.getResult()) ||
        isIdentityPermutation(op.getDimensions()))
      return failure();
    int64_t last = -1;
    for (int64_t d : op.getDimensions()) {
      if (in.getDimSize(d) == 1)
        continue;
      if (d < last)
        return failure();
      last = d;
    }
    InstBuilder ib(r, op.getLoc());
    replace(r, op, ib.create<ReshapeOp>(op.getType(), op.getOperand()), true);
    return success();
  }
};

/// reshape(transpose(reshape(X))) = reshape(transpose(X)) when the
/// transpose moves the inner reshape's runs (reshapeRuns) whole, each
/// keeping its dimensions in order: the transpose then permutes X's runs
/// alike. The result is that transpose of X when it has the outer
/// reshape's shape (XLA's TryHoistTransposeOfReshape: a reshape split
/// and merged back around a transpose). The transpose must have no other
/// user; not in layout-sensitive runs.
struct ReshapeOfTransposeOfReshape : HloPattern<ReshapeOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(ReshapeOp op, PatternRewriter &r) const override {
    auto transpose = plainDef<TransposeOp>(op.getOperand());
    auto inner =
        transpose ? plainDef<ReshapeOp>(transpose.getOperand()) : ReshapeOp();
    if (!inner || !transpose->hasOneUse() || !staticType(op.getResult()))
      return failure();
    RankedTensorType x = staticType(inner.getOperand()),
                     mid = staticType(inner.getResult());
    if (!x || !mid)
      return failure();
    std::optional<SmallVector<ReshapeRun>> runs =
        reshapeRuns(x.getShape(), mid.getShape());
    if (!runs)
      return failure();
    ArrayRef<int64_t> perm = transpose.getDimensions();
    SmallVector<int64_t> position = inversePermutation(perm);
    // The runs in the order the transpose puts them; runs of X's trailing
    // size-1 dimensions alone go last.
    SmallVector<std::pair<int64_t, ReshapeRun>> order;
    for (const ReshapeRun &run : *runs) {
      auto [b0, b1] = run.second;
      for (int64_t d = b0; d < b1; ++d)
        if (position[d] != position[b0] + (d - b0))
          return failure();
      order.push_back({b0 < b1 ? position[b0] : int64_t(perm.size()), run});
    }
    llvm::stable_sort(order,
                      [](auto &p, auto &q) { return p.first < q.first; });
    SmallVector<int64_t> xPerm;
    for (auto &[pos, run] : order)
      for (int64_t d = run.first.first; d < run.first.second; ++d)
        xPerm.push_back(d);
    InstBuilder ib(r, unnamed(transpose.getLoc()));
    Value t = ib.transpose(inner.getOperand(), xPerm);
    if (t.getType() == op.getType()) {
      replace(r, op, t, t != inner.getOperand());
      return success();
    }
    r.modifyOpInPlace(op, [&] { op.getOperandMutable().assign(t); });
    return success();
  }
};

/// select(P, XS, dynamic-update-slice(XS, X, I)) =
/// dynamic-update-slice(XS, select(P', dynamic-slice(XS, I), X), I), and
/// the same with the branches the other way: the select of the one slice
/// that may change (XLA's HandleSelect). P' is P if a scalar, else its
/// slice at I. The update has no other user.
struct SelectOfDynamicUpdateSlice : HloPattern<SelectOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(SelectOp op, PatternRewriter &r) const override {
    for (bool updateOnFalse : {true, false}) {
      Value xs = updateOnFalse ? op.getOnTrue() : op.getOnFalse();
      auto dus = plainDef<DynamicUpdateSliceOp>(updateOnFalse ? op.getOnFalse()
                                                              : op.getOnTrue());
      RankedTensorType update = dus ? staticType(dus.getUpdate()) : nullptr;
      RankedTensorType pred = staticType(op.getPred());
      if (!dus || dus.getOperand() != xs || !dus->hasOneUse() || !update ||
          !pred || xs.getType() != op.getType())
        continue;
      InstBuilder ib(r, unnamed(op.getLoc()));
      NamedAttribute sizes = r.getNamedAttr(
          "dynamic_slice_sizes", r.getDenseI64ArrayAttr(update.getShape()));
      auto slice = [&](Value v, Type element) {
        SmallVector<Value> operands{v};
        llvm::append_range(operands, dus.getStartIndices());
        return ib.create<DynamicSliceOp>(
            RankedTensorType::get(update.getShape(), element), operands,
            {sizes});
      };
      Value p = pred.getRank() == 0
                    ? op.getPred()
                    : slice(op.getPred(), pred.getElementType());
      Value old = slice(xs, update.getElementType());
      Value chosen = ib.create<SelectOp>(
          RankedTensorType::get(update.getShape(), update.getElementType()),
          {p, updateOnFalse ? old : dus.getUpdate(),
           updateOnFalse ? dus.getUpdate() : old});
      SmallVector<Value> operands{xs, chosen};
      llvm::append_range(operands, dus.getStartIndices());
      replace(r, op, ib.create<DynamicUpdateSliceOp>(op.getType(), operands),
              true);
      return success();
    }
    return failure();
  }
};

/// transpose(broadcast(A)) = broadcast(A) into the dimensions where the
/// transpose puts the broadcast's, when those stay in A's order (XLA's
/// SimplifyTransposeOfBroadcast, which also asks the broadcast's own
/// dimensions to be ascending). Not in layout-sensitive runs.
struct TransposeOfBroadcast : HloPattern<TransposeOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(TransposeOp op, PatternRewriter &r) const override {
    auto broadcast = plainDef<BroadcastOp>(op.getOperand());
    if (!broadcast || !broadcast.getDimensions())
      return failure();
    ArrayRef<int64_t> from = *broadcast.getDimensions();
    if (!llvm::is_sorted(from))
      return failure();
    ArrayRef<int64_t> perm = op.getDimensions();
    SmallVector<int64_t> position = inversePermutation(perm), dims;
    for (int64_t d : from)
      dims.push_back(position[d]);
    if (!llvm::is_sorted(dims))
      return failure();
    InstBuilder ib(r, op.getLoc());
    replace(r, op,
            ib.create<BroadcastOp>(
                op.getType(), {broadcast.getOperand()},
                {r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr(dims))}),
            true);
    return success();
  }
};

/// A concatenate whose first or last operand is a broadcast scalar is a
/// pad of the other operands by that scalar (XLA's HandleConcatenate).
struct ConcatenateOfBroadcastAtEnd : HloPattern<ConcatenateOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(ConcatenateOp op, PatternRewriter &r) const override {
    RankedTensorType type = staticType(op.getResult());
    OperandRange inputs = op.getInputs();
    if (!type || inputs.size() < 2 || op.getDimensions().size() != 1)
      return failure();
    int64_t dim = op.getDimensions()[0];
    for (bool first : {true, false}) {
      Value end = first ? inputs.front() : inputs.back();
      auto b = plainDef<BroadcastOp>(end);
      if (!b || cast<RankedTensorType>(b.getOperand().getType()).getRank() ||
          !staticType(end))
        continue;
      SmallVector<Value> rest(first ? inputs.drop_front() : inputs.drop_back());
      InstBuilder ib(r, unnamed(op.getLoc()));
      Value x = rest.front();
      if (rest.size() > 1) {
        SmallVector<int64_t> shape(type.getShape());
        shape[dim] -= staticType(end).getDimSize(dim);
        x = ib.create<ConcatenateOp>(
            RankedTensorType::get(shape, type.getElementType()), rest,
            {r.getNamedAttr("dimensions", op.getDimensionsAttr())});
      }
      SmallVector<int64_t> low(type.getRank(), 0), high(low), interior(low);
      (first ? low : high)[dim] = staticType(end).getDimSize(dim);
      Value pad = ib.create<PadOp>(
          op.getType(), {x, b.getOperand()},
          {r.getNamedAttr("padding", PaddingAttr::get(r.getContext(), low, high,
                                                      interior))});
      replace(r, op, pad, true);
      return success();
    }
    return failure();
  }
};

/// dynamic-slice(dynamic-slice(A, I), J) = dynamic-slice(A, I' + J'), I'
/// and J' the starts each slice clamps its own to, so their sum needs no
/// further clamp. (XLA 0.10.2 clamps only I, to the outer slice's range,
/// which differs where I lies outside the inner one's.) Not where the
/// inner starts are constants: that slice becomes a slice.
struct DynamicSliceOfDynamicSlice : HloPattern<DynamicSliceOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(DynamicSliceOp op, PatternRewriter &r) const override {
    auto inner = plainDef<DynamicSliceOp>(op.getOperand());
    if (!inner || !inner->hasOneUse() || !staticType(op.getResult()))
      return failure();
    RankedTensorType source = staticType(inner.getOperand()),
                     middle = staticType(inner.getResult());
    if (!source || !middle ||
        llvm::all_of(inner.getStartIndices(),
                     [](Value v) { return isConstant(v); }))
      return failure();
    Type indexType = op.getStartIndices().front().getType();
    auto sameType = [&](Value v) { return v.getType() == indexType; };
    if (!llvm::all_of(op.getStartIndices(), sameType) ||
        !llvm::all_of(inner.getStartIndices(), sameType))
      return failure();
    Type elt = elementTypeOf(op.getStartIndices().front());
    InstBuilder ib(r, unnamed(op.getLoc()));
    auto clamped = [&](Value start, int64_t max) {
      return ib.create<ClampOp>(
          indexType, {ib.scalar(elt, 0), start, ib.scalar(elt, max)});
    };
    SmallVector<Value> starts;
    ArrayRef<int64_t> sizes = op.getDynamicSliceSizes();
    for (int64_t d = 0, e = source.getRank(); d < e; ++d) {
      Value i = clamped(inner.getStartIndices()[d],
                        source.getDimSize(d) - middle.getDimSize(d));
      Value j =
          clamped(op.getStartIndices()[d], middle.getDimSize(d) - sizes[d]);
      starts.push_back(ib.create<AddOp>(indexType, {i, j}));
    }
    SmallVector<Value> operands = {inner.getOperand()};
    llvm::append_range(operands, starts);
    replace(r, op,
            ib.create<DynamicSliceOp>(
                op.getType(), operands,
                {r.getNamedAttr("dynamic_slice_sizes",
                                op.getDynamicSliceSizesAttr())}),
            true);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Sorts
//===----------------------------------------------------------------------===//

/// A sort along a dimension of at most one element, or of empty arrays,
/// moves nothing: its operands (a tuple of them for several).
struct SortNothing : HloPattern<SortOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(SortOp op, PatternRewriter &r) const override {
    if (op.getInputs().empty() || op.getDimensions().size() != 1)
      return failure();
    RankedTensorType t = staticType(op.getInputs()[0]);
    int64_t dim = op.getDimensions()[0];
    if (!t || dim < 0 || dim >= t.getRank() ||
        (t.getDimSize(dim) > 1 && t.getNumElements() != 0))
      return failure();
    if (op.getInputs().size() == 1) {
      if (op.getInputs()[0].getType() != op.getType())
        return failure();
      replace(r, op, op.getInputs()[0], false);
      return success();
    }
    return replaceByTuple(op, op.getInputs(), r);
  }
};

//===----------------------------------------------------------------------===//
// Copies
//===----------------------------------------------------------------------===//

/// A copy whose result type (layout included) is its operand's is the
/// operand, and a copy of a copy one copy (XLA's HandleCopy: layout
/// assignment and copy insertion add back the copies the program needs).
/// The entry's root copy with a sharding stays, as in XLA.
struct RedundantCopy : HloPattern<CopyOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(CopyOp op, PatternRewriter &r) const override {
    if (auto inner = plainDef<CopyOp>(op.getOperand())) {
      if (inner.getOperand().getType() == op.getType()) {
        replace(r, op, inner.getOperand(), false);
        return success();
      }
      r.modifyOpInPlace(
          op, [&] { op.getOperandMutable().assign(inner.getOperand()); });
      return success();
    }
    if (op.getOperand().getType() != op.getType() ||
        (op->hasAttr("sharding") && isEntryRoot(op)))
      return failure();
    replace(r, op, op.getOperand(), false);
    return success();
  }

  static bool isEntryRoot(Operation *op) {
    auto comp = op->getParentOfType<ComputationOp>();
    return comp && comp.getEntry() &&
           llvm::any_of(op->getUsers(), [](Operation *user) {
             return user->hasTrait<OpTrait::IsTerminator>();
           });
  }
};
} // namespace

void mlir::hlo::algsimp::populateMovementPatterns(RewritePatternSet &set,
                                                  const ShapeOptions &options) {
  MLIRContext *context = set.getContext();
  set.add<OfScalarBroadcast<ReshapeOp>, OfScalarBroadcast<TransposeOp>,
          OfScalarBroadcast<ReverseOp>, OfScalarBroadcast<SliceOp>,
          OfScalarBroadcast<DynamicSliceOp>, OfScalarBroadcast<SortOp>,
          SliceOfBroadcast, DynamicSliceOfBroadcast, ReverseOfReverse,
          NegativePad, SliceOfPad, UniformConstant, GatherFromScalar,
          ScatterNothing, ScatterWholeWindow, SortNothing,
          IotaAlongUnitDimension, ConcatenateOfBroadcastAtEnd,
          DynamicSliceOfDynamicSlice, SelectOfDynamicUpdateSlice,
          RedundantCopy>(context);
  set.add<VerySmallGather>(context, options.verySmallGatherSize);
  if (!options.layoutSensitive)
    set.add<BroadcastDegenerateOperand, BroadcastAsReshape, SinkBroadcast,
            TransposeOfUnitDimensions, ReshapeOfTransposeOfReshape,
            TransposeOfBroadcast>(context);
}
