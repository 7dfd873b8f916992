//===- AlgebraicSimplifierShapes.cpp - shape rewrites of the simplifier ---===//
//
// hlo-algebraic-simplifier's rewrites of slices, concatenates,
// dynamic-update-slices, pads, broadcasts, reductions, reduce-windows and
// dots (the pass and its arithmetic rewrites are in AlgebraicSimplifier.cpp).
//
//===----------------------------------------------------------------------===//

#include "AlgebraicSimplifier.h"
#include "ReductionUtils.h"
#include "WhileLoopUtils.h"

#include "mlir/IR/SymbolTable.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::algsimp;

namespace {
//===----------------------------------------------------------------------===//
// Slices and concatenates
//===----------------------------------------------------------------------===//

/// slice(slice(A)) = slice(A): element j of the outer slice is element
/// start2 + j*stride2 of the inner one, so element start1 + (start2 +
/// j*stride2)*stride1 of A.
struct SliceOfSlice : HloPattern<SliceOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(SliceOp op, PatternRewriter &r) const override {
    auto inner = plainDef<SliceOp>(op.getOperand());
    RankedTensorType type = staticType(op.getResult());
    if (!inner || !type)
      return failure();
    SliceAttr in = inner.getSlice(), out = op.getSlice();
    SmallVector<int64_t> starts, limits, strides;
    for (int64_t d = 0, e = type.getRank(); d < e; ++d) {
      int64_t start =
          in.getStarts()[d] + out.getStarts()[d] * in.getStrides()[d];
      int64_t stride = in.getStrides()[d] * out.getStrides()[d];
      int64_t n = type.getDimSize(d);
      starts.push_back(start);
      limits.push_back(n == 0 ? start : start + (n - 1) * stride + 1);
      strides.push_back(stride);
    }
    r.modifyOpInPlace(op, [&] {
      op.getOperandMutable().assign(inner.getOperand());
      op.setSliceAttr(SliceAttr::get(op.getContext(), starts, limits, strides));
    });
    return success();
  }
};

/// A slice of a concatenate that reads one operand only is a slice of that
/// operand.
struct SliceOfConcatenate : HloPattern<SliceOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(SliceOp op, PatternRewriter &r) const override {
    auto concat = plainDef<ConcatenateOp>(op.getOperand());
    RankedTensorType type = staticType(op.getResult());
    if (!concat || !type || concat.getDimensions().size() != 1)
      return failure();
    int64_t dim = concat.getDimensions()[0];
    SliceAttr s = op.getSlice();
    int64_t n = type.getDimSize(dim);
    if (n == 0)
      return failure();
    int64_t first = s.getStarts()[dim];
    int64_t last = first + (n - 1) * s.getStrides()[dim];
    int64_t offset = 0;
    for (Value input : concat.getInputs()) {
      RankedTensorType t = staticType(input);
      if (!t)
        return failure();
      int64_t size = t.getDimSize(dim);
      if (first >= offset && last < offset + size) {
        SmallVector<int64_t> starts(s.getStarts()), limits(s.getLimits());
        starts[dim] = first - offset;
        limits[dim] = last - offset + 1;
        r.modifyOpInPlace(op, [&] {
          op.getOperandMutable().assign(input);
          op.setSliceAttr(
              SliceAttr::get(op.getContext(), starts, limits, s.getStrides()));
        });
        return success();
      }
      offset += size;
    }
    return failure();
  }
};

/// concatenate drops operands with no elements, and merges neighbouring
/// operands that are unit-stride slices of one array, adjacent along the
/// concatenated dimension and equal in the others, into one slice.
struct ConcatenateOperands : HloPattern<ConcatenateOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(ConcatenateOp op, PatternRewriter &r) const override {
    if (!staticType(op.getResult()) || op.getDimensions().size() != 1)
      return failure();
    int64_t dim = op.getDimensions()[0];
    SmallVector<Value> inputs;
    bool changed = false;
    for (Value input : op.getInputs()) {
      RankedTensorType t = staticType(input);
      if (!t)
        return failure();
      if (t.getNumElements() == 0) {
        changed = true;
        continue;
      }
      if (!inputs.empty())
        if (Value merged = mergeSlices(r, inputs.back(), input, dim)) {
          inputs.back() = merged;
          changed = true;
          continue;
        }
      inputs.push_back(input);
    }
    if (!changed || inputs.empty())
      return failure();
    r.modifyOpInPlace(op, [&] { op.getInputsMutable().assign(inputs); });
    return success();
  }

  /// One slice for slices `a` then `b` along `dim`, or null.
  static Value mergeSlices(PatternRewriter &r, Value a, Value b, int64_t dim) {
    auto sa = plainDef<SliceOp>(a), sb = plainDef<SliceOp>(b);
    if (!sa || !sb || sa.getOperand() != sb.getOperand())
      return {};
    SliceAttr x = sa.getSlice(), y = sb.getSlice();
    auto unit = [](int64_t s) { return s == 1; };
    if (!llvm::all_of(x.getStrides(), unit) ||
        !llvm::all_of(y.getStrides(), unit))
      return {};
    for (int64_t d = 0, e = x.getStarts().size(); d < e; ++d)
      if (d != dim && (x.getStarts()[d] != y.getStarts()[d] ||
                       x.getLimits()[d] != y.getLimits()[d]))
        return {};
    if (x.getLimits()[dim] != y.getStarts()[dim])
      return {};
    SmallVector<int64_t> limits(x.getLimits());
    limits[dim] = y.getLimits()[dim];
    auto slice =
        SliceAttr::get(r.getContext(), x.getStarts(), limits, x.getStrides());
    return createInferred<SliceOp>(r, sa.getLoc(), {sa.getOperand()},
                                   {r.getNamedAttr("slice", slice)});
  }
};

/// dynamic-update-slice of an update as large as the operand is the update
/// (the start indices are clamped to zero); of an empty update, the
/// operand.
struct DynamicUpdateSliceTrivial : HloPattern<DynamicUpdateSliceOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(DynamicUpdateSliceOp op,
                        PatternRewriter &r) const override {
    RankedTensorType update = staticType(op.getUpdate());
    if (!update || !staticType(op.getResult()))
      return failure();
    if (op.getUpdate().getType() == op.getType()) {
      replace(r, op, op.getUpdate(), false);
      return success();
    }
    if (update.getNumElements() == 0 &&
        op.getOperand().getType() == op.getType()) {
      replace(r, op, op.getOperand(), false);
      return success();
    }
    return failure();
  }
};

/// pad(broadcast(s), s) of a scalar s is the broadcast of s to the padded
/// shape: every element, padding or not, is s.
struct PadOfScalarBroadcast : HloPattern<PadOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(PadOp op, PatternRewriter &r) const override {
    auto b = plainDef<BroadcastOp>(op.getOperand());
    if (!b || b.getOperand() != op.getPaddingValue() ||
        !staticType(op.getResult()))
      return failure();
    Operation *result = createInstruction(
        r, op.getLoc(), BroadcastOp::getOperationName(), op.getType(),
        {b.getOperand()},
        {r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr({}))});
    replace(r, op, result->getResult(0), true);
    return success();
  }
};

/// broadcast(iota) is an iota along the dimension the iota's lands in.
struct BroadcastOfIota : HloPattern<BroadcastOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(BroadcastOp op, PatternRewriter &r) const override {
    auto iota = plainDef<IotaOp>(op.getOperand());
    if (!iota || !op.getDimensions() || !staticType(op.getResult()) ||
        elementTypeOf(iota) != elementTypeOf(op))
      return failure();
    int64_t dim = (*op.getDimensions())[iota.getIotaDimension()];
    Operation *result = createInstruction(
        r, op.getLoc(), IotaOp::getOperationName(), op.getType(), {},
        {r.getNamedAttr("iota_dimension", r.getI64IntegerAttr(dim))});
    replace(r, op, result->getResult(0), true);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// A pattern over single-input reduces of static shapes, with the module's
/// symbol table to find reducers.
struct ReducePattern : HloPattern<ReduceOp> {
  ReducePattern(MLIRContext *context, SymbolTable &symbols)
      : HloPattern(context), symbols(symbols) {}
  LogicalResult rewrite(ReduceOp op, PatternRewriter &r) const override {
    if (op.getInputs().size() != 2 || !staticType(op.getInputs()[0]) ||
        !staticType(op.getResult()))
      return failure();
    return rewriteReduce(op, op.getInputs()[0], op.getInputs()[1], r);
  }
  virtual LogicalResult rewriteReduce(ReduceOp op, Value arg, Value init,
                                      PatternRewriter &r) const = 0;
  Operation *reducer(ReduceOp op) const {
    return reducerOp(symbols.lookup<ComputationOp>(op.getToApply()));
  }
  SymbolTable &symbols;
};

/// A reduce that adds no elements together: of an empty array, the init
/// broadcast; else each result element is reducer(init, x) for one x: the
/// reshaped operand when init is the reducer's identity, else a map of the
/// reducer over the broadcast init and the reshaped operand.
struct ReduceNothing : ReducePattern {
  using ReducePattern::ReducePattern;
  LogicalResult rewriteReduce(ReduceOp op, Value arg, Value init,
                              PatternRewriter &r) const override {
    auto argType = staticType(arg), type = staticType(op.getResult());
    auto broadcastInit = [&] {
      return createInstruction(
                 r, op.getLoc(), BroadcastOp::getOperationName(), op.getType(),
                 {init},
                 {r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr({}))})
          ->getResult(0);
    };
    if (argType.getNumElements() == 0) {
      replace(r, op, broadcastInit(), true);
      return success();
    }
    if (argType.getNumElements() != type.getNumElements() ||
        argType.getElementType() != type.getElementType())
      return failure();
    Value reshaped =
        createInstruction(r, op.getLoc(), ReshapeOp::getOperationName(),
                          op.getType(), {arg}, {})
            ->getResult(0);
    if (isIdentityOf(reducer(op), init)) {
      replace(r, op, reshaped, true);
      return success();
    }
    auto dims = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
    Operation *map = createInstruction(
        r, op.getLoc(), MapOp::getOperationName(), op.getType(),
        {broadcastInit(), reshaped},
        {r.getNamedAttr("to_apply", op.getToApplyAttr()),
         r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr(dims))});
    replace(r, op, map->getResult(0), true);
    return success();
  }
};

/// reduce-add(broadcast(A)) over dimensions only the broadcast made: each
/// result adds one element of A up N times (N the reduced elements), so
/// it is broadcast(init + A * N) (A * N with the identity as init). Exact
/// for integers (wrapping as the sum does); for floats as XLA's.
struct ReduceOfBroadcast : ReducePattern {
  using ReducePattern::ReducePattern;
  LogicalResult rewriteReduce(ReduceOp op, Value arg, Value init,
                              PatternRewriter &r) const override {
    auto b = plainDef<BroadcastOp>(arg);
    RankedTensorType in = b ? staticType(b.getOperand()) : RankedTensorType();
    Type element = in ? in.getElementType() : Type();
    if (!in || !b.getDimensions() || !isa_and_nonnull<AddOp>(reducer(op)) ||
        !isa<IntegerType, FloatType>(element) || element.isInteger(1) ||
        element != elementTypeOf(init))
      return failure();
    ArrayRef<int64_t> bdims = *b.getDimensions(), reduced = op.getDimensions();
    int64_t n = 1;
    for (int64_t d : reduced) {
      if (llvm::is_contained(bdims, d))
        return failure();
      n *= staticType(arg).getDimSize(d);
    }
    // A's dimension i lands in result dimension bdims[i] less the reduced
    // dimensions before it.
    SmallVector<int64_t> dims;
    for (int64_t d : bdims)
      dims.push_back(d -
                     llvm::count_if(reduced, [&](int64_t x) { return x < d; }));
    Attribute count =
        isa<FloatType>(element)
            ? Attribute(r.getFloatAttr(element, double(n)))
            : Attribute(r.getIntegerAttr(
                  element, APInt(element.getIntOrFloatBitWidth(), uint64_t(n),
                                 /*isSigned=*/false, /*implicitTrunc=*/true)));
    Location loc = unnamed(op.getLoc());
    Value a = b.getOperand();
    Value value = createInferred<MulOp>(
        r, loc, {a, makeSplat(r, loc, a.getType(), count)});
    if (!isIdentityOf(reducer(op), init)) {
      Value inits =
          in.getRank() == 0
              ? init
              : createInstruction(
                    r, loc, BroadcastOp::getOperationName(),
                    RankedTensorType::get(in.getShape(), element), {init},
                    {r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr({}))})
                    ->getResult(0);
      value = createInferred<AddOp>(r, loc, {inits, value});
    }
    if (llvm::equal(dims, llvm::seq<int64_t>(0, in.getRank())) &&
        in.getShape() == staticType(op.getResult()).getShape()) {
      replace(r, op, value, true);
      return success();
    }
    Operation *result = createInstruction(
        r, loc, BroadcastOp::getOperationName(), op.getResult().getType(),
        {value}, {r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr(dims))});
    replace(r, op, result->getResult(0), true);
    return success();
  }
};

/// reduce(transpose(A)) = reduce(A) over the permuted dimensions, when the
/// kept dimensions stay in order.
struct ReduceOfTranspose : ReducePattern {
  using ReducePattern::ReducePattern;
  LogicalResult rewriteReduce(ReduceOp op, Value arg, Value init,
                              PatternRewriter &r) const override {
    auto transpose = plainDef<TransposeOp>(arg);
    if (!transpose)
      return failure();
    ArrayRef<int64_t> perm = transpose.getDimensions();
    SmallVector<bool> reduced(perm.size(), false);
    for (int64_t d : op.getDimensions())
      reduced[d] = true;
    SmallVector<int64_t> dims;
    int64_t lastKept = -1;
    for (auto [d, from] : llvm::enumerate(perm)) {
      if (reduced[d]) {
        dims.push_back(from);
      } else {
        if (from < lastKept)
          return failure();
        lastKept = from;
      }
    }
    llvm::sort(dims);
    r.modifyOpInPlace(op, [&] {
      op->setOperand(0, transpose.getOperand());
      op.setDimensions(dims);
    });
    return success();
  }
};

/// reduce(reduce(A)) with one reducer and one init, the reducer's
/// identity, is one reduce over both sets of dimensions.
struct ReduceOfReduce : ReducePattern {
  using ReducePattern::ReducePattern;
  LogicalResult rewriteReduce(ReduceOp op, Value arg, Value init,
                              PatternRewriter &r) const override {
    auto inner = plainDef<ReduceOp>(arg);
    if (!inner || inner.getInputs().size() != 2 ||
        inner.getToApplyAttr() != op.getToApplyAttr() ||
        !isIdentityOf(reducer(op), init) ||
        !isIdentityOf(reducer(op), inner.getInputs()[1]))
      return failure();
    Value a = inner.getInputs()[0];
    auto aType = staticType(a);
    if (!aType)
      return failure();
    SmallVector<bool> reduced(aType.getRank(), false);
    for (int64_t d : inner.getDimensions())
      reduced[d] = true;
    // Dimension i of the inner result is the i-th kept dimension of A.
    SmallVector<int64_t> kept;
    for (int64_t d = 0; d < aType.getRank(); ++d)
      if (!reduced[d])
        kept.push_back(d);
    for (int64_t d : op.getDimensions())
      reduced[kept[d]] = true;
    SmallVector<int64_t> dims;
    for (int64_t d = 0; d < aType.getRank(); ++d)
      if (reduced[d])
        dims.push_back(d);
    r.modifyOpInPlace(op, [&] {
      op->setOperand(0, a);
      op.setDimensions(dims);
    });
    return success();
  }
};

/// reduce(reshape(A)) = reduce(A) when every kept dimension of the reshape
/// is a dimension of A left alone (same size, same elements after it):
/// the reshape only merged or split reduced dimensions.
struct ReduceOfReshape : ReducePattern {
  using ReducePattern::ReducePattern;
  LogicalResult rewriteReduce(ReduceOp op, Value arg, Value init,
                              PatternRewriter &r) const override {
    auto reshape = plainDef<ReshapeOp>(arg);
    if (!reshape)
      return failure();
    auto aType = staticType(reshape.getOperand()), rType = staticType(arg);
    if (!aType)
      return failure();
    auto suffixes = [](ArrayRef<int64_t> shape) {
      SmallVector<int64_t> s(shape.size());
      int64_t p = 1;
      for (int64_t i = shape.size() - 1; i >= 0; --i) {
        s[i] = p;
        p *= shape[i];
      }
      return s;
    };
    SmallVector<int64_t> inSuffix = suffixes(aType.getShape());
    SmallVector<int64_t> outSuffix = suffixes(rType.getShape());
    SmallVector<bool> reduced(rType.getRank(), false);
    for (int64_t d : op.getDimensions())
      reduced[d] = true;
    SmallVector<bool> keep(aType.getRank(), false);
    int64_t next = 0;
    for (int64_t i = 0; i < rType.getRank(); ++i) {
      if (reduced[i])
        continue;
      while (next < aType.getRank() &&
             !(inSuffix[next] == outSuffix[i] &&
               aType.getDimSize(next) == rType.getDimSize(i)))
        ++next;
      if (next == aType.getRank())
        return failure();
      keep[next++] = true;
    }
    SmallVector<int64_t> dims;
    for (int64_t d = 0; d < aType.getRank(); ++d)
      if (!keep[d])
        dims.push_back(d);
    r.modifyOpInPlace(op, [&] {
      op->setOperand(0, reshape.getOperand());
      op.setDimensions(dims);
    });
    return success();
  }
};

/// XLA's reduce(concatenate(A, B, ...)) over the concatenated dimension =
/// map(reduce(A), map(reduce(B), ...)) of the reducer: when the operands
/// have one shape, the result is a scalar, or with
/// `enable-unconditional-reduce-of-concat-replacement` (default on). The
/// init must be the reducer's identity (XLA asks nothing of it, but another
/// init would be added in once per operand).
struct ReduceOfConcatenate : ReducePattern {
  ReduceOfConcatenate(MLIRContext *context, SymbolTable &symbols,
                      bool unconditional)
      : ReducePattern(context, symbols), unconditional(unconditional) {}
  LogicalResult rewriteReduce(ReduceOp op, Value arg, Value init,
                              PatternRewriter &r) const override {
    auto concat = plainDef<ConcatenateOp>(arg);
    if (!concat || concat.getDimensions().size() != 1 ||
        !llvm::is_contained(op.getDimensions(), concat.getDimensions()[0]) ||
        !isIdentityOf(reducer(op), init))
      return failure();
    ValueRange inputs = concat.getInputs();
    for (Value input : inputs)
      if (!staticType(input))
        return failure();
    bool sameShapes = llvm::all_of(inputs, [&](Value input) {
      return staticType(input).getShape() ==
             staticType(inputs.front()).getShape();
    });
    auto type = staticType(op.getResult());
    if (!unconditional && !sameShapes && type.getRank() != 0)
      return failure();
    Location loc = op.getLoc();
    auto dims = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
    Value result;
    for (Value input : inputs) {
      Value reduced =
          createInstruction(
              r, loc, ReduceOp::getOperationName(), type, {input, init},
              {r.getNamedAttr("dimensions", op.getDimensionsAttr()),
               r.getNamedAttr("to_apply", op.getToApplyAttr())})
              ->getResult(0);
      result = !result ? reduced
                       : createInstruction(
                             r, loc, MapOp::getOperationName(), type,
                             {result, reduced},
                             {r.getNamedAttr("to_apply", op.getToApplyAttr()),
                              r.getNamedAttr("dimensions",
                                             r.getDenseI64ArrayAttr(dims))})
                             ->getResult(0);
    }
    replace(r, op, result, true);
    return success();
  }
  bool unconditional;
};

/// The attributes a dot made from `dot` keeps: its operand precision (the
/// two sides swapped for a dot of `dot`'s operands swapped) and algorithm.
static SmallVector<NamedAttribute> dotConfig(PatternRewriter &r, DotOp dot,
                                             bool swapOperands = false) {
  SmallVector<NamedAttribute> attrs;
  if (ArrayAttr precision = dot.getOperandPrecisionAttr()) {
    if (swapOperands)
      precision = r.getArrayAttr(
          SmallVector<Attribute>(llvm::reverse(precision.getValue())));
    attrs.push_back(r.getNamedAttr("operand_precision", precision));
  }
  if (auto algorithm = dot.getAlgorithmAttr())
    attrs.push_back(r.getNamedAttr("algorithm", algorithm));
  return attrs;
}

/// XLA's reduce-add of a dot over some of its batch dimensions: those
/// become contracting dimensions of the dot, and the other reduced
/// dimensions stay with the reduce (none left: the dot alone). Under
/// `enable-dot-strength-reduction` (as in XLA); the dot has no other user.
/// With no reduce left the init must be the identity (XLA drops it).
struct ReduceOfDot : ReducePattern {
  using ReducePattern::ReducePattern;
  LogicalResult rewriteReduce(ReduceOp op, Value arg, Value init,
                              PatternRewriter &r) const override {
    auto dot = plainDef<DotOp>(arg);
    if (!dot || !dot->hasOneUse() || !isDenseStaticDot(dot) ||
        !isa_and_nonnull<AddOp>(reducer(op)))
      return failure();
    ArrayRef<int64_t> lb = orEmpty(dot.getLhsBatchDims()),
                      rb = orEmpty(dot.getRhsBatchDims());
    int64_t numBatch = lb.size();
    SmallVector<int64_t> newLb, newRb,
        newLc(orEmpty(dot.getLhsContractingDims())),
        newRc(orEmpty(dot.getRhsContractingDims())), rest, shape;
    ArrayRef<int64_t> dims = op.getDimensions();
    for (int64_t b = 0; b < numBatch; ++b) {
      bool reduced = llvm::is_contained(dims, b);
      (reduced ? newLc : newLb).push_back(lb[b]);
      (reduced ? newRc : newRb).push_back(rb[b]);
    }
    int64_t removed = numBatch - newLb.size();
    if (removed == 0)
      return failure();
    for (int64_t d : dims)
      if (d >= numBatch)
        rest.push_back(d - removed);
    if (rest.empty() && !isIdentityOf(reducer(op), init))
      return failure();
    auto dotType = staticType(arg);
    for (int64_t d = 0; d < dotType.getRank(); ++d)
      if (d >= numBatch || !llvm::is_contained(dims, d))
        shape.push_back(dotType.getDimSize(d));
    SmallVector<NamedAttribute> attrs = {
        r.getNamedAttr("lhs_contracting_dims", r.getDenseI64ArrayAttr(newLc)),
        r.getNamedAttr("rhs_contracting_dims", r.getDenseI64ArrayAttr(newRc))};
    if (!newLb.empty()) {
      attrs.push_back(
          r.getNamedAttr("lhs_batch_dims", r.getDenseI64ArrayAttr(newLb)));
      attrs.push_back(
          r.getNamedAttr("rhs_batch_dims", r.getDenseI64ArrayAttr(newRb)));
    }
    llvm::append_range(attrs, dotConfig(r, dot));
    Type newType = rest.empty()
                       ? op.getType()
                       : RankedTensorType::get(shape, dotType.getElementType());
    Value result =
        createInstruction(r, dot.getLoc(), DotOp::getOperationName(), newType,
                          {dot.getLhs(), dot.getRhs()}, attrs)
            ->getResult(0);
    if (!rest.empty())
      result = createInstruction(
                   r, op.getLoc(), ReduceOp::getOperationName(), op.getType(),
                   {result, init},
                   {r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr(rest)),
                    r.getNamedAttr("to_apply", op.getToApplyAttr())})
                   ->getResult(0);
    replace(r, op, result, true);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Reduce-windows
//===----------------------------------------------------------------------===//

/// XLA's reduce-window rewrites, tried in its order, on single-input
/// reduce-windows of static shapes:
/// - of an empty array (or to one): the init broadcast;
/// - of a scalar: the operand when the init is the reducer's identity,
///   else a map of the reducer over the init and the operand (XLA takes
///   the operand whatever the init);
/// - windows of one element (size 1, stride 1, no dilation or reversal)
///   with an add, minimum or maximum reducer: the reducer applied to the
///   operand and the init broadcast, padded with the init where the window
///   is; the operand itself when the init is the identity and there is no
///   padding. A padded add needs the identity init (a padded element sums
///   the init twice);
/// - with `enable-window-reduce-to-reduce-replacement` (default on), no
///   stride, dilation or padding and every window of size 1 or spanning its
///   whole dimension: a reduce over the spanned dimensions, reshaped;
/// - of a pad by the init (the same value, or equal constants): the pad
///   folded into the window's padding (times the base dilation) and its
///   interior padding into the base dilation (which must be 1 then). Edge
///   padding must not be negative.
struct ReduceWindowRewrites : HloPattern<ReduceWindowOp> {
  ReduceWindowRewrites(MLIRContext *context, SymbolTable &symbols,
                       bool toReduce)
      : HloPattern(context), symbols(symbols), toReduce(toReduce) {}

  LogicalResult rewrite(ReduceWindowOp op, PatternRewriter &r) const override {
    if (op.getInputs().size() != 2)
      return failure();
    Value arg = op.getInputs()[0], init = op.getInputs()[1];
    auto argType = staticType(arg), type = staticType(op.getResult());
    if (!argType || !type || argType.getElementType() != type.getElementType())
      return failure();
    Location loc = op.getLoc();
    Operation *reducer =
        reducerOp(symbols.lookup<ComputationOp>(op.getToApply()));
    bool identity = isIdentityOf(reducer, init);
    auto broadcast = [&](Value scalar, Type to) {
      return createInstruction(
                 r, loc, BroadcastOp::getOperationName(), to, {scalar},
                 {r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr({}))})
          ->getResult(0);
    };
    if (argType.getNumElements() == 0 || type.getNumElements() == 0) {
      replace(r, op, broadcast(init, op.getType()), true);
      return success();
    }
    if (argType.getRank() == 0) {
      if (identity && arg.getType() == op.getType()) {
        replace(r, op, arg, false);
        return success();
      }
      Operation *map = createInstruction(
          r, loc, MapOp::getOperationName(), op.getType(), {init, arg},
          {r.getNamedAttr("to_apply", op.getToApplyAttr()),
           r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr({}))});
      replace(r, op, map->getResult(0), true);
      return success();
    }
    WindowFields w(op.getWindowAttr(), argType.getRank());
    if (WindowFields::all(w.size, 1) && WindowFields::all(w.stride, 1) &&
        WindowFields::all(w.lhsDilate, 1) &&
        WindowFields::all(w.rhsDilate, 1) && WindowFields::all(w.reversal, 0) &&
        isa_and_nonnull<AddOp, MinOp, MaxOp>(reducer) &&
        succeeded(elementwise(op, arg, init, reducer, identity, w, r)))
      return success();
    if (toReduce && succeeded(asReduce(op, arg, init, w, r)))
      return success();
    // The pad's elements join the windows' reductions, the window's padding
    // does not (the interpreter, as XLA's evaluator, skips it): the same
    // only for the identity init, or a reducer that may take the init
    // again. XLA folds any pad by the init.
    if (!identity && !isa_and_nonnull<MaxOp, MinOp, AndOp, OrOp>(reducer))
      return failure();
    return foldPad(op, arg, init, identity, w, r);
  }

  /// A window of one element: reducer(x, init), padded with the init.
  LogicalResult elementwise(ReduceWindowOp op, Value arg, Value init,
                            Operation *reducer, bool identity,
                            const WindowFields &w, PatternRewriter &r) const {
    bool padded = w.padded();
    if (!padded && identity) {
      if (arg.getType() != op.getType())
        return failure();
      replace(r, op, arg, false);
      return success();
    }
    if (padded && isa<AddOp>(reducer) && !identity)
      return failure();
    Location loc = op.getLoc();
    Value b =
        createInstruction(
            r, loc, BroadcastOp::getOperationName(), arg.getType(), {init},
            {r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr({}))})
            ->getResult(0);
    Value result =
        createInstruction(r, loc, reducer->getName().getStringRef(),
                          padded ? arg.getType() : op.getType(), {arg, b}, {})
            ->getResult(0);
    if (padded) {
      SmallVector<int64_t> interior(w.padLow.size(), 0);
      auto padding =
          PaddingAttr::get(r.getContext(), w.padLow, w.padHigh, interior);
      result = createInstruction(r, loc, PadOp::getOperationName(),
                                 op.getType(), {result, init},
                                 {r.getNamedAttr("padding", padding)})
                   ->getResult(0);
    }
    replace(r, op, result, true);
    return success();
  }

  /// Windows that span whole dimensions (or one element): a reduce.
  LogicalResult asReduce(ReduceWindowOp op, Value arg, Value init,
                         const WindowFields &w, PatternRewriter &r) const {
    if (!WindowFields::all(w.stride, 1) || !WindowFields::all(w.lhsDilate, 1) ||
        !WindowFields::all(w.rhsDilate, 1) || w.padded())
      return failure();
    auto type = staticType(op.getResult());
    SmallVector<int64_t> dims, kept;
    for (int64_t d = 0, e = w.size.size(); d < e; ++d) {
      if (w.size[d] == 1)
        kept.push_back(type.getDimSize(d));
      else if (type.getDimSize(d) == 1)
        dims.push_back(d);
      else
        return failure();
    }
    if (dims.empty())
      return failure();
    Location loc = op.getLoc();
    Value reduced =
        createInstruction(
            r, loc, ReduceOp::getOperationName(),
            RankedTensorType::get(kept, type.getElementType()), {arg, init},
            {r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr(dims)),
             r.getNamedAttr("to_apply", op.getToApplyAttr())})
            ->getResult(0);
    Operation *reshape = createInstruction(
        r, loc, ReshapeOp::getOperationName(), op.getType(), {reduced}, {});
    replace(r, op, reshape->getResult(0), true);
    return success();
  }

  /// reduce-window(pad(x, init)): the pad in the window; also through a
  /// convert of the pad (its only user) whose padding value converts to
  /// the init (the same number, sign of zero included), the convert then
  /// of x. Where every window holds one element of x and otherwise the
  /// init, the reducer's identity (effectiveBroadcast), a broadcast of x.
  LogicalResult foldPad(ReduceWindowOp op, Value arg, Value init, bool identity,
                        const WindowFields &w, PatternRewriter &r) const {
    auto convert = plainDef<ConvertOp>(arg);
    auto pad = plainDef<PadOp>(convert && arg.hasOneUse() ? convert.getOperand()
                                                          : arg);
    if (!pad || !staticType(pad.getOperand()))
      return failure();
    if (convert ? !convertsTo(pad.getPaddingValue(), init) ||
                      !worthFoldingThroughConvert(pad, w, staticType(arg))
                : !sameSplat(pad.getPaddingValue(), init))
      return failure();
    PaddingAttr config = pad.getPadding();
    ArrayRef<int64_t> interiors = config.getInterior();
    // As XLA: no interior padding into a base-dilated window at all.
    if (!WindowFields::all(interiors, 0) && !WindowFields::all(w.lhsDilate, 1))
      return failure();
    WindowFields folded = w;
    for (int64_t d = 0, e = w.size.size(); d < e; ++d) {
      int64_t low = config.getLow()[d], high = config.getHigh()[d];
      int64_t interior = d < int64_t(interiors.size()) ? interiors[d] : 0;
      if (low < 0 || high < 0)
        return failure();
      folded.padLow[d] += w.lhsDilate[d] * low;
      folded.padHigh[d] += w.lhsDilate[d] * high;
      if (interior != 0)
        folded.lhsDilate[d] = 1 + interior;
    }
    Value x = pad.getOperand();
    if (convert)
      x = createInstruction(
              r, unnamed(convert.getLoc()), ConvertOp::getOperationName(),
              withElementType(x.getType(), elementTypeOf(arg)), {x}, {})
              ->getResult(0);
    RankedTensorType xType = staticType(pad.getOperand());
    if (identity && effectiveBroadcast(config, w, xType)) {
      SmallVector<int64_t> kept, dims;
      for (auto [d, size] : llvm::enumerate(xType.getShape()))
        if (size != 1) {
          kept.push_back(size);
          dims.push_back(d);
        }
      InstBuilder ib(r, unnamed(op.getLoc()));
      Value b = ib.create<BroadcastOp>(
          op.getType(), {ib.reshape(x, kept)},
          {r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr(dims))});
      replace(r, op, b, true);
      return success();
    }
    r.modifyOpInPlace(op, [&] {
      op->setOperand(0, x);
      op.setWindowAttr(folded.toAttr(op.getContext()));
    });
    return success();
  }

  /// XLA's pad and reduce-window that is a broadcast: the pad surrounds
  /// only size-1 dimensions of x, as much on both sides, each window
  /// along them reaches x's element, and the windows are one element wide
  /// along x's other dimensions; no stride, window padding or dilation
  /// (XLA asks neither these nor an identity init, without which the
  /// windows would not reduce to x's element).
  static bool effectiveBroadcast(PaddingAttr config, const WindowFields &w,
                                 RankedTensorType x) {
    if (!WindowFields::all(w.stride, 1) || w.padded() ||
        !WindowFields::all(w.lhsDilate, 1) ||
        !WindowFields::all(w.rhsDilate, 1) ||
        !WindowFields::all(config.getInterior(), 0))
      return false;
    for (int64_t d = 0, e = w.size.size(); d < e; ++d) {
      int64_t low = config.getLow()[d];
      if (low != config.getHigh()[d] ||
          (low != 0 && (x.getDimSize(d) != 1 || w.size[d] < low + 1)) ||
          (x.getDimSize(d) != 1 && w.size[d] != 1))
        return false;
    }
    return true;
  }

  /// XLA's threshold for the fold through a convert: a window of one
  /// dimension of more than one element (a scan) keeps a pad that adds
  /// less than a tenth of that dimension, which `hlo-reduce-window-rewriter`
  /// then takes as it is.
  static bool worthFoldingThroughConvert(PadOp pad, const WindowFields &w,
                                         RankedTensorType padded) {
    SmallVector<int64_t> scanned;
    for (auto [d, size] : llvm::enumerate(w.size))
      if (size != 1)
        scanned.push_back(d);
    if (scanned.size() != 1)
      return true;
    int64_t d = scanned[0];
    PaddingAttr config = pad.getPadding();
    return 10 * (config.getLow()[d] + config.getHigh()[d]) >=
           padded.getDimSize(d);
  }

  /// True if splat `from` converted to the element type of splat `to` is
  /// `to`: equal numbers (not NaN) with the same sign, which a convert
  /// keeps exactly since `to`'s type holds the number.
  static bool convertsTo(Value from, Value to) {
    std::optional<double> x = splatValue(from), y = splatValue(to);
    return x && y && *x == *y && std::signbit(*x) == std::signbit(*y);
  }

  SymbolTable &symbols;
  bool toReduce;
};

//===----------------------------------------------------------------------===//
// Dots
//===----------------------------------------------------------------------===//

/// A dot of an empty operand is zeros.
struct DotOfEmpty : HloPattern<DotOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(DotOp op, PatternRewriter &r) const override {
    auto lhs = staticType(op.getLhs()), rhs = staticType(op.getRhs());
    auto type = staticType(op.getResult());
    if (!lhs || !rhs || !type || type.getNumElements() == 0 ||
        !type.getElementType().isIntOrFloat() ||
        (lhs.getNumElements() != 0 && rhs.getNumElements() != 0))
      return failure();
    replaceByZeros(r, op);
    return success();
  }
};

/// A dot that adds nothing up (every contracting dimension of size 1, or
/// none) is a multiply: each operand transposed to (batch, free,
/// contracting), reshaped without the contracting dimensions, converted to
/// the result's element type and broadcast to the result.
struct DotToMultiply : HloPattern<DotOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(DotOp op, PatternRewriter &r) const override {
    auto lhsType = staticType(op.getLhs()), rhsType = staticType(op.getRhs());
    auto type = staticType(op.getResult());
    if (!lhsType || !rhsType || !type || type.getElementType().isInteger(1))
      return failure();
    auto dims = [](std::optional<ArrayRef<int64_t>> d) {
      return d ? *d : ArrayRef<int64_t>();
    };
    ArrayRef<int64_t> lb = dims(op.getLhsBatchDims()),
                      lc = dims(op.getLhsContractingDims()),
                      rb = dims(op.getRhsBatchDims()),
                      rc = dims(op.getRhsContractingDims());
    for (int64_t d : lc)
      if (lhsType.getDimSize(d) != 1)
        return failure();
    for (int64_t d : rc)
      if (rhsType.getDimSize(d) != 1)
        return failure();
    Location loc = op.getLoc();
    int64_t numBatch = lb.size();
    // (batch, free) of `x`, in the result's element type: the size-1
    // contracting dimensions reshaped away, then the batch dimensions
    // transposed to the front.
    auto normalize = [&](Value x, RankedTensorType t, ArrayRef<int64_t> batch,
                         ArrayRef<int64_t> contracting, int64_t &numFree) {
      SmallVector<int64_t> kept, position(t.getRank(), -1), keptShape;
      for (int64_t d = 0; d < t.getRank(); ++d)
        if (!llvm::is_contained(contracting, d)) {
          position[d] = kept.size();
          kept.push_back(d);
          keptShape.push_back(t.getDimSize(d));
        }
      if (!contracting.empty())
        x = createInstruction(
                r, loc, ReshapeOp::getOperationName(),
                RankedTensorType::get(keptShape, t.getElementType()), {x}, {})
                ->getResult(0);
      SmallVector<int64_t> perm, shape;
      for (int64_t d : batch)
        perm.push_back(position[d]);
      for (int64_t d : kept)
        if (!llvm::is_contained(batch, d))
          perm.push_back(position[d]);
      numFree = perm.size() - batch.size();
      for (int64_t p : perm)
        shape.push_back(keptShape[p]);
      if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
        x = createInstruction(
                r, loc, TransposeOp::getOperationName(),
                RankedTensorType::get(shape, t.getElementType()), {x},
                {r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr(perm))})
                ->getResult(0);
      if (t.getElementType() != type.getElementType())
        x = createInstruction(
                r, loc, ConvertOp::getOperationName(),
                RankedTensorType::get(shape, type.getElementType()), {x}, {})
                ->getResult(0);
      return x;
    };
    int64_t lf, rf;
    Value lhs = normalize(op.getLhs(), lhsType, lb, lc, lf);
    Value rhs = normalize(op.getRhs(), rhsType, rb, rc, rf);
    SmallVector<int64_t> lhsDims, rhsDims;
    for (int64_t d = 0; d < numBatch + lf; ++d)
      lhsDims.push_back(d);
    for (int64_t d = 0; d < numBatch; ++d)
      rhsDims.push_back(d);
    for (int64_t d = 0; d < rf; ++d)
      rhsDims.push_back(numBatch + lf + d);
    auto broadcast = [&](Value x, ArrayRef<int64_t> d) {
      return createInstruction(
                 r, loc, BroadcastOp::getOperationName(), op.getType(), {x},
                 {r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr(d))})
          ->getResult(0);
    };
    Operation *mul = createInstruction(
        r, loc, MulOp::getOperationName(), op.getType(),
        {broadcast(lhs, lhsDims), broadcast(rhs, rhsDims)}, {});
    replace(r, op, mul->getResult(0), true);
    return success();
  }
};

/// XLA's RemoveDegenerateDimensionFromDot: size-1 dimensions of the operands
/// are reshaped away (a size-1 batch or contracting dimension leaves the
/// dimension numbers) and the dot of the reshaped operands, with the same
/// precision and algorithm, is reshaped back to the result when its shape
/// differs. Not after layout assignment (XLA's dot rewrites are layout
/// insensitive); sparse dots stay.
struct DotDegenerateDims : HloPattern<DotOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(DotOp op, PatternRewriter &r) const override {
    if (!isDenseStaticDot(op))
      return failure();
    auto lhsType = staticType(op.getLhs()), rhsType = staticType(op.getRhs());
    auto type = staticType(op.getResult());
    // The new position of each dimension of `t`, -1 for a size-1 one.
    auto dimensionMap = [](RankedTensorType t, int64_t &numDegenerate) {
      SmallVector<int64_t> map;
      numDegenerate = 0;
      for (int64_t d = 0; d < t.getRank(); ++d) {
        if (t.getDimSize(d) == 1) {
          ++numDegenerate;
          map.push_back(-1);
        } else {
          map.push_back(d - numDegenerate);
        }
      }
      return map;
    };
    int64_t lhsDegenerate, rhsDegenerate;
    SmallVector<int64_t> lhsMap = dimensionMap(lhsType, lhsDegenerate);
    SmallVector<int64_t> rhsMap = dimensionMap(rhsType, rhsDegenerate);
    if (lhsDegenerate == 0 && rhsDegenerate == 0)
      return failure();
    auto remap = [](ArrayRef<int64_t> dims, ArrayRef<int64_t> map) {
      SmallVector<int64_t> out;
      for (int64_t d : dims)
        if (map[d] != -1)
          out.push_back(map[d]);
      return out;
    };
    SmallVector<int64_t> lb = remap(orEmpty(op.getLhsBatchDims()), lhsMap),
                         lc =
                             remap(orEmpty(op.getLhsContractingDims()), lhsMap),
                         rb = remap(orEmpty(op.getRhsBatchDims()), rhsMap),
                         rc =
                             remap(orEmpty(op.getRhsContractingDims()), rhsMap);
    // A batch dimension of size 1 on one side only would not pair up.
    if (lb.size() != rb.size() || lc.size() != rc.size())
      return failure();
    Location loc = op.getLoc();
    auto dropDegenerate = [&](Value x, RankedTensorType t,
                              int64_t count) -> Value {
      if (count == 0)
        return x;
      SmallVector<int64_t> shape;
      for (int64_t size : t.getShape())
        if (size != 1)
          shape.push_back(size);
      return createInstruction(r, loc, ReshapeOp::getOperationName(),
                               RankedTensorType::get(shape, t.getElementType()),
                               {x}, {})
          ->getResult(0);
    };
    Value lhs = dropDegenerate(op.getLhs(), lhsType, lhsDegenerate);
    Value rhs = dropDegenerate(op.getRhs(), rhsType, rhsDegenerate);
    // The result: batch, lhs free, rhs free dimensions of the new operands.
    auto newLhsType = cast<RankedTensorType>(lhs.getType()),
         newRhsType = cast<RankedTensorType>(rhs.getType());
    SmallVector<int64_t> shape;
    for (int64_t d : lb)
      shape.push_back(newLhsType.getDimSize(d));
    for (int64_t d = 0; d < newLhsType.getRank(); ++d)
      if (!llvm::is_contained(lb, d) && !llvm::is_contained(lc, d))
        shape.push_back(newLhsType.getDimSize(d));
    for (int64_t d = 0; d < newRhsType.getRank(); ++d)
      if (!llvm::is_contained(rb, d) && !llvm::is_contained(rc, d))
        shape.push_back(newRhsType.getDimSize(d));
    SmallVector<NamedAttribute> attrs = {
        r.getNamedAttr("lhs_contracting_dims", r.getDenseI64ArrayAttr(lc)),
        r.getNamedAttr("rhs_contracting_dims", r.getDenseI64ArrayAttr(rc))};
    if (!lb.empty()) {
      attrs.push_back(
          r.getNamedAttr("lhs_batch_dims", r.getDenseI64ArrayAttr(lb)));
      attrs.push_back(
          r.getNamedAttr("rhs_batch_dims", r.getDenseI64ArrayAttr(rb)));
    }
    llvm::append_range(attrs, dotConfig(r, op));
    // XLA's SetupDerivedInstruction: the new dot keeps the frontend
    // attributes.
    if (Attribute fa = op->getAttr("frontend_attributes"))
      attrs.push_back(r.getNamedAttr("frontend_attributes", fa));
    bool sameShape = ArrayRef<int64_t>(shape) == type.getShape();
    Type dotType = sameShape
                       ? op.getType()
                       : RankedTensorType::get(shape, type.getElementType());
    Value result = createInstruction(r, loc, DotOp::getOperationName(), dotType,
                                     {lhs, rhs}, attrs)
                       ->getResult(0);
    if (!sameShape)
      result = createInstruction(r, loc, ReshapeOp::getOperationName(),
                                 op.getType(), {result}, {})
                   ->getResult(0);
    replace(r, op, result, true);
    return success();
  }
};

/// True if `dot` is XLA's 2D non-batch dot with one contracting dimension
/// (the dots its dot-of-concatenate and dot-of-gather rewrites take).
static bool isPlain2DDot(DotOp dot) {
  return isDenseStaticDot(dot) &&
         orEmpty(dot.getLhsContractingDims()).size() == 1 &&
         orEmpty(dot.getLhsBatchDims()).empty() &&
         staticType(dot.getResult()).getRank() == 2;
}

/// XLA's dot of a concatenate along the contracting dimension and a rank-2
/// constant (either operand order): the sum of the dots of each operand of
/// the concatenate with its slice of the constant. Same dimension numbers,
/// precision and algorithm; 2D non-batch dots with one contracting
/// dimension only.
struct DotOfConcatenate : HloPattern<DotOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(DotOp op, PatternRewriter &r) const override {
    if (!isPlain2DDot(op))
      return failure();
    int64_t lc = (*op.getLhsContractingDims())[0];
    int64_t rc = (*op.getRhsContractingDims())[0];
    for (bool swapped : {false, true}) {
      Value cat = swapped ? op.getRhs() : op.getLhs();
      Value other = swapped ? op.getLhs() : op.getRhs();
      int64_t catDim = swapped ? rc : lc, otherDim = swapped ? lc : rc;
      auto concat = plainDef<ConcatenateOp>(cat);
      auto otherType = staticType(other);
      if (!concat || concat.getDimensions().size() != 1 ||
          concat.getDimensions()[0] != catDim ||
          !other.getDefiningOp<ConstantOp>() || otherType.getRank() != 2)
        continue;
      Location loc = op.getLoc();
      SmallVector<NamedAttribute> attrs = dotConfig(r, op);
      attrs.push_back(r.getNamedAttr("lhs_contracting_dims",
                                     op.getLhsContractingDimsAttr()));
      attrs.push_back(r.getNamedAttr("rhs_contracting_dims",
                                     op.getRhsContractingDimsAttr()));
      Value sum;
      int64_t offset = 0;
      for (Value part : concat.getInputs()) {
        auto partType = staticType(part);
        if (!partType)
          return failure();
        int64_t k = partType.getDimSize(catDim);
        SmallVector<int64_t> starts(2, 0), limits(otherType.getShape()),
            strides(2, 1), shape(otherType.getShape());
        starts[otherDim] = offset;
        limits[otherDim] = offset + k;
        shape[otherDim] = k;
        Value slice =
            createInstruction(
                r, loc, SliceOp::getOperationName(),
                RankedTensorType::get(shape, otherType.getElementType()),
                {other},
                {r.getNamedAttr("slice", SliceAttr::get(r.getContext(), starts,
                                                        limits, strides))})
                ->getResult(0);
        Value lhs = swapped ? slice : part, rhs = swapped ? part : slice;
        Value dot = createInstruction(r, loc, DotOp::getOperationName(),
                                      op.getType(), {lhs, rhs}, attrs)
                        ->getResult(0);
        sum = !sum ? dot
                   : createInstruction(r, loc, AddOp::getOperationName(),
                                       op.getType(), {sum, dot}, {})
                         ->getResult(0);
        offset += k;
      }
      replace(r, op, sum, true);
      return success();
    }
    return failure();
  }
};

/// transpose(dot(A, B)) = dot(B, A) where the transpose swaps the last two
/// dimensions of a dot whose batch dimensions come first on both operands
/// and lead the result alike, and each operand has one free dimension
/// (XLA's HandleTranspose on DotDecomposer's canonical dots): the
/// contracting dimensions and operand precisions swap sides. The dot has
/// no other user; not in layout-sensitive runs.
struct TransposeOfDot : HloPattern<TransposeOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(TransposeOp op, PatternRewriter &r) const override {
    auto dot = plainDef<DotOp>(op.getOperand());
    if (!dot || !dot->hasOneUse() || !isDenseStaticDot(dot))
      return failure();
    ArrayRef<int64_t> lb = orEmpty(dot.getLhsBatchDims()),
                      rb = orEmpty(dot.getRhsBatchDims()),
                      lc = orEmpty(dot.getLhsContractingDims()),
                      rc = orEmpty(dot.getRhsContractingDims());
    auto batchFirst = [&](ArrayRef<int64_t> batch) {
      SmallVector<int64_t> sorted(batch);
      llvm::sort(sorted);
      return llvm::equal(sorted, llvm::seq<int64_t>(0, batch.size()));
    };
    int64_t lhsRank = staticType(dot.getLhs()).getRank();
    int64_t rhsRank = staticType(dot.getRhs()).getRank();
    if (lb != rb || !batchFirst(lb) || lc.empty() ||
        int64_t(lb.size() + lc.size()) + 1 != lhsRank ||
        int64_t(rb.size() + rc.size()) + 1 != rhsRank)
      return failure();
    ArrayRef<int64_t> perm = op.getDimensions();
    int64_t rank = perm.size();
    for (int64_t d = 0; d < rank; ++d)
      if (perm[d] != (d < rank - 2 ? d : (d == rank - 2 ? rank - 1 : rank - 2)))
        return failure();
    SmallVector<NamedAttribute> attrs = {
        r.getNamedAttr("lhs_contracting_dims", r.getDenseI64ArrayAttr(rc)),
        r.getNamedAttr("rhs_contracting_dims", r.getDenseI64ArrayAttr(lc))};
    if (!lb.empty()) {
      attrs.push_back(
          r.getNamedAttr("lhs_batch_dims", dot.getLhsBatchDimsAttr()));
      attrs.push_back(
          r.getNamedAttr("rhs_batch_dims", dot.getRhsBatchDimsAttr()));
    }
    llvm::append_range(attrs, dotConfig(r, dot, /*swapOperands=*/true));
    Value swappedDot =
        createInstruction(r, unnamed(dot.getLoc()), DotOp::getOperationName(),
                          op.getType(), {dot.getRhs(), dot.getLhs()}, attrs)
            ->getResult(0);
    replace(r, op, swappedDot, true);
    return success();
  }
};

/// XLA's RemoveTransposesFromDotOperands: dot(transpose(A), transpose(B))
/// of DotDecomposer's form (the batch dimensions first and in order on both
/// operands, then LHS [M, K] and RHS [K, N]) where the two transposes
/// permute alike and leave the last two dimensions last: transpose(dot(A,
/// B)) where the permutation keeps their order, transpose(dot(B, A)) where
/// it swaps them (B's [N, K] and A's [K, M] then contract as before), by
/// the same permutation. Two transposes become one, which TransposeOfDot
/// may remove in turn. Not in layout-sensitive runs.
struct DotOfTransposes : HloPattern<DotOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(DotOp op, PatternRewriter &r) const override {
    auto lhs = plainDef<TransposeOp>(op.getLhs());
    auto rhs = plainDef<TransposeOp>(op.getRhs());
    if (!lhs || !rhs || lhs.getDimensions() != rhs.getDimensions() ||
        !isDenseStaticDot(op))
      return failure();
    ArrayRef<int64_t> lb = orEmpty(op.getLhsBatchDims()),
                      rb = orEmpty(op.getRhsBatchDims()),
                      lc = orEmpty(op.getLhsContractingDims()),
                      rc = orEmpty(op.getRhsContractingDims());
    RankedTensorType type = staticType(op.getResult());
    int64_t rank = type.getRank();
    if (lb != rb || !isIdentityPermutation(lb) ||
        int64_t(lb.size()) + 2 != rank || lc.size() != 1 || rc.size() != 1 ||
        lc[0] != rank - 1 || rc[0] != rank - 2)
      return failure();
    ArrayRef<int64_t> perm = lhs.getDimensions();
    bool swap = perm[rank - 2] == rank - 1 && perm[rank - 1] == rank - 2;
    if (!swap && (perm[rank - 2] != rank - 2 || perm[rank - 1] != rank - 1))
      return failure();
    // The dot of the operands has dimension perm[i] where the result has
    // dimension i.
    SmallVector<int64_t> shape;
    for (int64_t d : inversePermutation(perm))
      shape.push_back(type.getDimSize(d));
    SmallVector<NamedAttribute> attrs = dotConfig(r, op, swap);
    for (StringRef name : {"lhs_batch_dims", "rhs_batch_dims",
                           "lhs_contracting_dims", "rhs_contracting_dims"})
      if (Attribute a = op->getAttr(name))
        attrs.push_back(r.getNamedAttr(name, a));
    Value a = lhs.getOperand(), b = rhs.getOperand();
    if (swap)
      std::swap(a, b);
    InstBuilder ib(r, unnamed(op.getLoc()));
    Value dot = ib.create<DotOp>(
        RankedTensorType::get(shape, type.getElementType()), {a, b}, attrs);
    Value transposed = ib.create<TransposeOp>(
        type, dot, r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr(perm)));
    replace(r, op, transposed, true);
    return success();
  }
};

/// XLA's OptimizeDotOfReorderContractingDims: a dot of a constant and a
/// reshape of a transpose (either order), where the reshape merges into
/// the one contracting dimension a run of dimensions that the transpose
/// permutes among themselves (and moves no other): the dot of the reshape
/// of the transpose's operand and of the constant with its contracting
/// dimension's elements permuted alike (a reshape, transpose and reshape
/// of the constant, which constant folding computes). Not in
/// layout-sensitive runs.
struct DotOfReorderedContraction : HloPattern<DotOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(DotOp op, PatternRewriter &r) const override {
    if (!isPlain2DDot(op))
      return failure();
    int64_t lc = (*op.getLhsContractingDims())[0];
    int64_t rc = (*op.getRhsContractingDims())[0];
    for (bool swapped : {false, true}) {
      Value side = swapped ? op.getRhs() : op.getLhs();
      Value other = swapped ? op.getLhs() : op.getRhs();
      if (succeeded(reorder(op, side, other, swapped ? rc : lc,
                            swapped ? lc : rc, swapped, r)))
        return success();
    }
    return failure();
  }

  /// `side` (operand `swapped`) the reshape of a transpose contracted
  /// along `c`, `other` the constant contracted along `k`.
  LogicalResult reorder(DotOp op, Value side, Value other, int64_t c, int64_t k,
                        bool swapped, PatternRewriter &r) const {
    auto reshape = plainDef<ReshapeOp>(side);
    auto transpose =
        reshape ? plainDef<TransposeOp>(reshape.getOperand()) : TransposeOp();
    RankedTensorType constant = staticType(other);
    if (!transpose || !constant || !isConstant(other) ||
        !staticType(transpose.getOperand()))
      return failure();
    ArrayRef<int64_t> shape = staticType(transpose.getResult()).getShape();
    std::optional<SmallVector<ReshapeRun>> runs =
        reshapeRuns(shape, staticType(side).getShape());
    if (!runs)
      return failure();
    const ReshapeRun *merged = llvm::find_if(
        *runs, [&](const ReshapeRun &run) { return run.second.first == c; });
    if (merged == runs->end() || merged->second.second != c + 1)
      return failure();
    auto [i0, i1] = merged->first;
    auto inRun = [&, i0 = i0, i1 = i1](int64_t d) { return d >= i0 && d < i1; };
    ArrayRef<int64_t> perm = transpose.getDimensions();
    for (auto [d, from] : llvm::enumerate(perm))
      if (inRun(d) != inRun(from) || (!inRun(d) && from != int64_t(d)))
        return failure();
    if (isIdentityPermutation(perm))
      return failure();
    // The constant's contracting dimension split as the transpose orders
    // the run, then put in the order of the transpose's operand: position
    // k + q takes split position k + (where the transpose put operand
    // dimension i0 + q) - i0.
    ArrayRef<int64_t> cshape = constant.getShape();
    SmallVector<int64_t> split(cshape.take_front(k));
    split.append(shape.begin() + i0, shape.begin() + i1);
    split.append(cshape.begin() + k + 1, cshape.end());
    SmallVector<int64_t> position = inversePermutation(perm), order;
    for (int64_t d = 0, e = split.size(); d < e; ++d)
      order.push_back(
          d < k || d >= k + (i1 - i0) ? d : k + position[i0 + (d - k)] - i0);
    InstBuilder ib(r, unnamed(op.getLoc()));
    Value permuted =
        ib.reshape(ib.transpose(ib.reshape(other, split), order), cshape);
    Value operand =
        ib.create<ReshapeOp>(side.getType(), transpose.getOperand());
    r.modifyOpInPlace(op, [&] {
      op->setOperand(swapped ? 1 : 0, operand);
      op->setOperand(swapped ? 0 : 1, permuted);
    });
    return success();
  }
};

/// XLA's dot of a dynamic-slice of a constant and a constant (either
/// order), the slice one row (or column) of the constant along its free
/// dimension and whole along the contracting one: the dynamic-slice, at the
/// same start indices, of the dot of the two constants (which constant
/// folding computes). 2D non-batch dots with one contracting dimension.
struct DotOfGather : HloPattern<DotOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(DotOp op, PatternRewriter &r) const override {
    if (!isPlain2DDot(op))
      return failure();
    int64_t lc = (*op.getLhsContractingDims())[0];
    int64_t rc = (*op.getRhsContractingDims())[0];
    // `a` a dynamic-slice of a constant, one element along its free
    // dimension and all of it along `contracting`; `b` a constant.
    auto sliceOfConstant = [](Value a, Value b, int64_t contracting) {
      auto ds = plainDef<DynamicSliceOp>(a);
      if (!ds || !ds.getOperand().getDefiningOp<ConstantOp>() ||
          !b.getDefiningOp<ConstantOp>())
        return DynamicSliceOp();
      auto sliced = staticType(a), full = staticType(ds.getOperand());
      if (!sliced || !full || sliced.getDimSize(1 - contracting) != 1 ||
          full.getDimSize(contracting) != sliced.getDimSize(contracting))
        return DynamicSliceOp();
      return ds;
    };
    bool lhsSliced = true;
    DynamicSliceOp ds = sliceOfConstant(op.getLhs(), op.getRhs(), lc);
    if (!ds) {
      lhsSliced = false;
      ds = sliceOfConstant(op.getRhs(), op.getLhs(), rc);
    }
    if (!ds)
      return failure();
    Value left = lhsSliced ? ds.getOperand() : op.getLhs();
    Value right = lhsSliced ? op.getRhs() : ds.getOperand();
    auto type = staticType(op.getResult());
    int64_t m = staticType(left).getDimSize(1 - lc);
    int64_t n = staticType(right).getDimSize(1 - rc);
    SmallVector<NamedAttribute> attrs = dotConfig(r, op);
    attrs.push_back(
        r.getNamedAttr("lhs_contracting_dims", op.getLhsContractingDimsAttr()));
    attrs.push_back(
        r.getNamedAttr("rhs_contracting_dims", op.getRhsContractingDimsAttr()));
    Location loc = op.getLoc();
    Value full =
        createInstruction(r, loc, DotOp::getOperationName(),
                          RankedTensorType::get({m, n}, type.getElementType()),
                          {left, right}, attrs)
            ->getResult(0);
    // The slice's start along its free dimension, zero along the other.
    ValueRange starts = ds.getStartIndices();
    int64_t freeDim = lhsSliced ? 1 - lc : 1 - rc;
    Value start = starts[freeDim], zero = starts[1 - freeDim];
    SmallVector<Value> operands = {full};
    if (lhsSliced)
      operands.append({start, zero});
    else
      operands.append({zero, start});
    SmallVector<int64_t> sizes = {lhsSliced ? 1 : m, lhsSliced ? n : 1};
    Operation *result = createInstruction(
        r, loc, DynamicSliceOp::getOperationName(), op.getType(), operands,
        {r.getNamedAttr("dynamic_slice_sizes", r.getDenseI64ArrayAttr(sizes))});
    replace(r, op, result->getResult(0), true);
    return success();
  }
};

/// XLA's dot strength reduction (`enable-dot-strength-reduction`, default
/// on): a dot where one operand has only batch and contracting dimensions
/// (a vector per batch element) is a reduce-add of a multiply. Both
/// operands are transposed to (batch, free, contracting) and converted to
/// the result's element type, the vector one broadcast to the other's
/// shape; the product is added up over the contracting dimensions in f32
/// (f64 for f64 results; integers in their own type) with a new scalar add
/// computation and converted back. As XLA: dots with a dot algorithm other
/// than unset or dot_f32_f32_f32 stay, and dots that the dot-to-multiply
/// rewrite takes (it comes first in XLA's handler) are left to it. Integer
/// and float elements only (not pred, complex).
struct DotStrengthReduction : HloPattern<DotOp> {
  DotStrengthReduction(MLIRContext *context, ScalarAddComputations &adds,
                       bool dotToMultiply)
      : HloPattern(context), adds(adds), dotToMultiply(dotToMultiply) {}
  LogicalResult rewrite(DotOp op, PatternRewriter &r) const override {
    if (!isDenseStaticDot(op))
      return failure();
    if (std::optional<DotAlgorithm> algorithm = op.getAlgorithm();
        algorithm && *algorithm != DotAlgorithm::Unset &&
        *algorithm != DotAlgorithm::DotF32F32F32)
      return failure();
    auto lhsType = staticType(op.getLhs()), rhsType = staticType(op.getRhs());
    auto type = staticType(op.getResult());
    auto intOrFloat = [](Type t) {
      return isa<FloatType>(t) || (isa<IntegerType>(t) && !t.isInteger(1));
    };
    Type elt = type.getElementType();
    if (!intOrFloat(elt) || !intOrFloat(lhsType.getElementType()) ||
        !intOrFloat(rhsType.getElementType()))
      return failure();
    ArrayRef<int64_t> lb = orEmpty(op.getLhsBatchDims()),
                      lc = orEmpty(op.getLhsContractingDims()),
                      rb = orEmpty(op.getRhsBatchDims()),
                      rc = orEmpty(op.getRhsContractingDims());
    int64_t lhsFree = lhsType.getRank() - lb.size() - lc.size();
    int64_t rhsFree = rhsType.getRank() - rb.size() - rc.size();
    if (lhsFree != 0 && rhsFree != 0)
      return failure();
    if (dotToMultiply &&
        llvm::all_of(lc, [&](int64_t d) { return lhsType.getDimSize(d) == 1; }))
      return failure();
    Location loc = op.getLoc();
    // `x` transposed to (batch, free, contracting), in the result's type.
    auto normalize = [&](Value x, RankedTensorType t, ArrayRef<int64_t> batch,
                         ArrayRef<int64_t> contracting) {
      SmallVector<int64_t> perm(batch);
      for (int64_t d = 0; d < t.getRank(); ++d)
        if (!llvm::is_contained(batch, d) &&
            !llvm::is_contained(contracting, d))
          perm.push_back(d);
      llvm::append_range(perm, contracting);
      SmallVector<int64_t> shape;
      for (int64_t d : perm)
        shape.push_back(t.getDimSize(d));
      if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
        x = createInstruction(
                r, loc, TransposeOp::getOperationName(),
                RankedTensorType::get(shape, t.getElementType()), {x},
                {r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr(perm))})
                ->getResult(0);
      if (t.getElementType() != elt)
        x = createInstruction(r, loc, ConvertOp::getOperationName(),
                              RankedTensorType::get(shape, elt), {x}, {})
                ->getResult(0);
      return x;
    };
    Value lhs = normalize(op.getLhs(), lhsType, lb, lc);
    Value rhs = normalize(op.getRhs(), rhsType, rb, rc);
    int64_t numBatch = lb.size(), numContracting = lc.size();
    int64_t numFree = std::max(lhsFree, rhsFree);
    // The vector operand broadcast to the other: its batch dimensions lead,
    // its contracting dimensions follow the other's free ones.
    auto broadcastTo = [&](Value vector, Value to) {
      SmallVector<int64_t> dims;
      for (int64_t d = 0; d < numBatch; ++d)
        dims.push_back(d);
      for (int64_t d = 0; d < numContracting; ++d)
        dims.push_back(numBatch + numFree + d);
      return createInstruction(
                 r, loc, BroadcastOp::getOperationName(), to.getType(),
                 {vector},
                 {r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr(dims))})
          ->getResult(0);
    };
    if (rhsFree > 0)
      lhs = broadcastTo(lhs, rhs);
    else if (lhsFree > 0)
      rhs = broadcastTo(rhs, lhs);
    auto productType = cast<RankedTensorType>(lhs.getType());
    Value product = createInstruction(r, loc, MulOp::getOperationName(),
                                      productType, {lhs, rhs}, {})
                        ->getResult(0);
    Type acc = elt;
    if (isa<FloatType>(elt) && !elt.isF64())
      acc = r.getF32Type();
    if (acc != elt)
      product =
          createInstruction(r, loc, ConvertOp::getOperationName(),
                            RankedTensorType::get(productType.getShape(), acc),
                            {product}, {})
              ->getResult(0);
    Value zero =
        makeSplat(r, loc, RankedTensorType::get({}, acc), r.getZeroAttr(acc));
    auto dims = llvm::to_vector(llvm::seq<int64_t>(
        numBatch + numFree, numBatch + numFree + numContracting));
    Type reducedType =
        acc == elt ? op.getType() : RankedTensorType::get(type.getShape(), acc);
    Value result =
        createInstruction(
            r, loc, ReduceOp::getOperationName(), reducedType, {product, zero},
            {r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr(dims)),
             r.getNamedAttr("to_apply", adds.get(acc))})
            ->getResult(0);
    if (acc != elt)
      result = createInstruction(r, loc, ConvertOp::getOperationName(),
                                 op.getType(), {result}, {})
                   ->getResult(0);
    replace(r, op, result, true);
    return success();
  }
  ScalarAddComputations &adds;
  bool dotToMultiply;
};

} // namespace

void mlir::hlo::algsimp::populateShapePatterns(RewritePatternSet &set,
                                               SymbolTable &symbols,
                                               ScalarAddComputations &adds,
                                               const ShapeOptions &options) {
  MLIRContext *context = set.getContext();
  set.add<SliceOfSlice, SliceOfConcatenate, ConcatenateOperands,
          DynamicUpdateSliceTrivial, PadOfScalarBroadcast, BroadcastOfIota,
          DotOfEmpty, DotOfConcatenate, DotOfGather>(context);
  set.add<ReduceNothing, ReduceOfTranspose, ReduceOfReshape, ReduceOfBroadcast>(
      context, symbols);
  // After layout assignment XLA keeps a reduce of a reduce: the two are what
  // the tree reduction rewriter made of one reduction too large to be
  // race-free (XLA 0.10.2's post-layout simplifier leaves them).
  if (!options.layoutSensitive)
    set.add<ReduceOfReduce>(context, symbols);
  set.add<ReduceOfConcatenate>(context, symbols,
                               options.unconditionalReduceOfConcat);
  set.add<ReduceWindowRewrites>(context, symbols, options.windowReduceToReduce);
  if (options.dotStrengthReduction)
    set.add<ReduceOfDot>(context, symbols);
  if (options.dotToMultiply)
    set.add<DotToMultiply>(context);
  if (!options.layoutSensitive)
    set.add<DotDegenerateDims, DotOfReorderedContraction, DotOfTransposes,
            TransposeOfDot>(context);
  if (options.dotStrengthReduction)
    set.add<DotStrengthReduction>(context, adds, options.dotToMultiply);
}
