//===- AlgebraicSimplifier.cpp - algebraic identities of HLO -------------===//
//
// XLA's AlgebraicSimplifier. The identities that hold whatever the context
// are the ops' folders and canonicalization patterns (HloFolding.cpp): the
// pass applies them with its own rewrites, to a fixed point, with MLIR's
// greedy driver (which also keeps constants on the right of commutative
// ops). Its own rewrites are XLA's handlers that depend on element types
// (integers for A-A, A*0, x==x and reassociation; floats for A/C), on
// options (power, dot to multiply), on users (A/sqrt(B) only when the sqrt
// has no other user) or on the reducer of a reduce; and XLA's rewrites of
// slices, concatenates, reduces, dots, divides and conversions.
//
// Every rewrite looks at an instruction and its operands only, so the
// greedy driver keeps the cost linear in the module size. The reduce
// rewrites find reducers in a symbol table built once per run.
//
// An instruction with control predecessors is never rewritten, nor is an
// operand with control predecessors looked through: the edges would have
// nowhere to go.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOALGEBRAICSIMPLIFIER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The element type of an array value, or null for tuples and tokens.
static Type elementTypeOf(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type ? type.getElementType() : Type();
}

static bool isInteger(Value v) {
  return isa_and_nonnull<IntegerType>(elementTypeOf(v));
}

/// The value of `v` if it is a constant splat of a float or integer.
static std::optional<double> splatValue(Value v) {
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  auto splat = dyn_cast<SplatElementsAttr>(attr);
  if (!splat)
    return std::nullopt;
  if (isa<FloatType>(splat.getElementType()))
    return splat.getSplatValue<APFloat>().convertToDouble();
  if (auto it = dyn_cast<IntegerType>(splat.getElementType()))
    return it.isUnsigned()
               ? double(splat.getSplatValue<APInt>().getZExtValue())
               : double(splat.getSplatValue<APInt>().getSExtValue());
  return std::nullopt;
}

/// An array of `type` whose elements are all `scalar` (an integer or float
/// attribute of its element type): a scalar constant broadcast to the shape,
/// as XLA builds it, so that no large literal is made.
static Value makeSplat(PatternRewriter &rewriter, Location loc, Type type,
                       Attribute scalar) {
  auto rt = cast<RankedTensorType>(type);
  auto scalarType = RankedTensorType::get({}, rt.getElementType());
  auto literal = DenseElementsAttr::get(scalarType, scalar);
  NamedAttribute value = rewriter.getNamedAttr("value", literal);
  if (rt.getRank() == 0)
    return createInstruction(rewriter, loc, ConstantOp::getOperationName(),
                             type, {}, {value})
        ->getResult(0);
  // The broadcast takes the replaced instruction's name; the scalar gets a
  // fresh one (`constant.N`) from the exporter.
  Value c =
      createInstruction(rewriter, rewriter.getUnknownLoc(),
                        ConstantOp::getOperationName(), scalarType, {}, {value})
          ->getResult(0);
  return createInstruction(
             rewriter, loc, BroadcastOp::getOperationName(), type, {c},
             {rewriter.getNamedAttr("dimensions",
                                    rewriter.getDenseI64ArrayAttr({}))})
      ->getResult(0);
}

/// The type of `v` if it is an array of static shape.
static RankedTensorType staticType(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.hasStaticShape() ? t : RankedTensorType();
}

/// The op defining `v` if it is an `OpT` without control predecessors.
template <typename OpT> static OpT plainDef(Value v) {
  auto op = v.getDefiningOp<OpT>();
  return op && !hasControlPredecessors(op) ? op : OpT();
}

/// Replaces `op` by `value`, moving its attributes to the op defining
/// `value` when the rewrite made it.
static void replace(PatternRewriter &rewriter, Operation *op, Value value,
                    bool madeByRewrite) {
  if (madeByRewrite)
    if (Operation *def = value.getDefiningOp())
      transferInstructionAttrs(op, def);
  rewriter.replaceOp(op, value);
}

namespace {
/// A pattern over `OpT` that skips instructions with control predecessors.
template <typename OpT> struct HloPattern : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op, PatternRewriter &rewriter) const final {
    if (hasControlPredecessors(op))
      return failure();
    return rewrite(op, rewriter);
  }
  virtual LogicalResult rewrite(OpT op, PatternRewriter &rewriter) const = 0;
};

//===----------------------------------------------------------------------===//
// Rewrites
//===----------------------------------------------------------------------===//

/// A - A = 0 for integers.
struct SubtractSelf : HloPattern<SubtractOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(SubtractOp op, PatternRewriter &r) const override {
    if (op.getLhs() != op.getRhs() || !isInteger(op.getLhs()))
      return failure();
    replace(r, op,
            makeSplat(r, op.getLoc(), op.getType(),
                      r.getZeroAttr(elementTypeOf(op.getLhs()))),
            true);
    return success();
  }
};

/// A * 0 = 0 for integers (the greedy driver keeps the constant on the
/// right).
struct MultiplyByZero : HloPattern<MulOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(MulOp op, PatternRewriter &r) const override {
    if (!isInteger(op.getLhs()) || splatValue(op.getRhs()) != 0.0 ||
        op.getRhs().getType() != op.getType())
      return failure();
    replace(r, op, op.getRhs(), false);
    return success();
  }
};

/// compare(A, A) of integers: true for EQ, GE, LE; false for NE, LT, GT.
/// (For floats a NaN compares unequal to itself.)
struct CompareSelf : HloPattern<CompareOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(CompareOp op, PatternRewriter &r) const override {
    if (op.getLhs() != op.getRhs() || !isInteger(op.getLhs()))
      return failure();
    ComparisonDirection d = op.getDirection();
    bool result = d == ComparisonDirection::EQ ||
                  d == ComparisonDirection::GE || d == ComparisonDirection::LE;
    replace(r, op,
            makeSplat(r, op.getLoc(), op.getType(), r.getBoolAttr(result)),
            true);
    return success();
  }
};

/// power(A, 0) = 1, power(A, 1) = A, power(A, 2) = A * A and, for floats,
/// power(A, -1) = 1 / A.
struct PowerByConstant : HloPattern<PowOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(PowOp op, PatternRewriter &r) const override {
    std::optional<double> exponent = splatValue(op.getRhs());
    Type elementType = elementTypeOf(op.getLhs());
    if (!exponent || !elementType || elementType != elementTypeOf(op.getRhs()))
      return failure();
    Value a = op.getLhs();
    auto one = [&] {
      return makeSplat(r, op.getLoc(), op.getType(), r.getOneAttr(elementType));
    };
    if (*exponent == 0) {
      replace(r, op, one(), true);
    } else if (*exponent == 1) {
      if (a.getType() != op.getType())
        return failure();
      replace(r, op, a, false);
    } else if (*exponent == 2) {
      auto mul = createInferred<MulOp>(r, op.getLoc(), {a, a});
      if (!mul || mul.getType() != op.getType())
        return failure();
      replace(r, op, mul, true);
    } else if (*exponent == -1 && isa<FloatType>(elementType)) {
      auto div = createInferred<DivOp>(r, op.getLoc(), {one(), a});
      if (!div || div.getType() != op.getType())
        return failure();
      replace(r, op, div, true);
    } else {
      return failure();
    }
    return success();
  }
};

/// select(p, A, A) = A.
struct SelectSameBranches : HloPattern<SelectOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(SelectOp op, PatternRewriter &r) const override {
    if (op.getOnTrue() != op.getOnFalse() ||
        op.getOnTrue().getType() != op.getType())
      return failure();
    replace(r, op, op.getOnTrue(), false);
    return success();
  }
};

/// abs(abs(A)) = abs(A): an abs cannot be negative (HLO's abs takes signed
/// and float elements only, so no other operand is known non-negative).
struct AbsOfAbs : HloPattern<AbsOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(AbsOp op, PatternRewriter &r) const override {
    Value a = op.getOperand();
    if (!a.getDefiningOp<AbsOp>() || a.getType() != op.getType())
      return failure();
    replace(r, op, a, false);
    return success();
  }
};

/// The scalar constant that `v` is all of, as a splat constant or a
/// broadcast of a scalar constant (XLA's `Constant` or
/// `Broadcast(Constant)`), or null.
static SplatElementsAttr splatOperand(Value v) {
  if (auto b = v.getDefiningOp<BroadcastOp>())
    v = b.getOperand();
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return {};
  return dyn_cast<SplatElementsAttr>(attr);
}

/// True if `v` is a constant (so an operand XLA's `NonConstant` rejects).
static bool isConstant(Value v) { return matchPattern(v, m_Constant()); }

/// A / 1 = A; for floats A / C = A * (1 / C) (C a constant or a broadcast
/// constant); A / sqrt(B) = A * rsqrt(B) and A / rsqrt(B) = A * sqrt(B)
/// when the root has no other user; exp(A) / exp(B) = exp(A - B);
/// A / exp(B) = A * exp(-B); A / pow(B, C) = A * pow(B, -C).
struct DivideRewrites : HloPattern<DivOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(DivOp op, PatternRewriter &r) const override {
    Value a = op.getLhs(), b = op.getRhs();
    Type elt = elementTypeOf(a);
    if (!elt || a.getType() != op.getType() || b.getType() != op.getType())
      return failure();
    SplatElementsAttr c = splatOperand(b);
    if (c &&
        (isa<IntegerType>(elt) ? c.getSplatValue<APInt>().isOne()
         : isa<FloatType>(elt) ? c.getSplatValue<APFloat>().isExactlyValue(1.0)
                               : false)) {
      replace(r, op, a, false);
      return success();
    }
    Location loc = op.getLoc();
    // Unsigned A / 2^k = A >> k.
    if (c && elt.isUnsignedInteger() && c.getSplatValue<APInt>().isPowerOf2()) {
      unsigned k = c.getSplatValue<APInt>().logBase2();
      Value shift = makeSplat(r, loc, op.getType(), r.getIntegerAttr(elt, k));
      Operation *result =
          createInstruction(r, loc, ShiftRightLogicalOp::getOperationName(),
                            op.getType(), {a, shift}, {});
      replace(r, op, result->getResult(0), true);
      return success();
    }
    if (!isa<FloatType>(elt))
      return failure();
    auto unary = [&](StringRef name, Value x) {
      return createInstruction(r, loc, name, op.getType(), {x}, {})
          ->getResult(0);
    };
    auto multiply = [&](Value x, Value y) {
      replace(r, op, createInferred<MulOp>(r, loc, {x, y}), true);
      return success();
    };
    auto plainOneUse = [](Operation *def) {
      return def && def->hasOneUse() && !hasControlPredecessors(def);
    };
    if (c && !isConstant(a)) {
      APFloat inverse(c.getSplatValue<APFloat>().getSemantics(), 1);
      inverse.divide(c.getSplatValue<APFloat>(), APFloat::rmNearestTiesToEven);
      return multiply(
          a, makeSplat(r, loc, op.getType(), r.getFloatAttr(elt, inverse)));
    }
    if (auto sqrt = b.getDefiningOp<SqrtOp>(); plainOneUse(sqrt))
      return multiply(a, unary(RsqrtOp::getOperationName(), sqrt.getOperand()));
    if (auto rsqrt = b.getDefiningOp<RsqrtOp>(); plainOneUse(rsqrt))
      return multiply(a, unary(SqrtOp::getOperationName(), rsqrt.getOperand()));
    auto expB = plainDef<ExpOp>(b);
    if (auto expA = plainDef<ExpOp>(a);
        expA && expB && expA.getOperand().getType() == op.getType() &&
        expB.getOperand().getType() == op.getType()) {
      Value diff = createInferred<SubtractOp>(
          r, loc, {expA.getOperand(), expB.getOperand()});
      replace(r, op, unary(ExpOp::getOperationName(), diff), true);
      return success();
    }
    if (expB && expB.getOperand().getType() == op.getType()) {
      Value neg = unary(NegOp::getOperationName(), expB.getOperand());
      return multiply(a, unary(ExpOp::getOperationName(), neg));
    }
    if (auto pow = plainDef<PowOp>(b);
        pow && pow.getRhs().getType() == op.getType()) {
      Value neg = unary(NegOp::getOperationName(), pow.getRhs());
      return multiply(a, createInferred<PowOp>(r, loc, {pow.getLhs(), neg}));
    }
    return failure();
  }
};

/// (A + C1) + C2 = A + (C1 + C2) and (A * C1) * C2 = A * (C1 * C2) for
/// integers (wrapping arithmetic is associative), in any operand order, C1
/// and C2 constants or broadcast constants: the constant is computed here.
template <typename OpT> struct Reassociate : HloPattern<OpT> {
  using HloPattern<OpT>::HloPattern;
  LogicalResult rewrite(OpT op, PatternRewriter &r) const override {
    if (!isInteger(op.getLhs()) || elementTypeOf(op.getLhs()).isInteger(1))
      return failure();
    for (int outer = 0; outer < 2; ++outer) {
      auto inner = plainDef<OpT>(op->getOperand(outer));
      SplatElementsAttr c2 = splatOperand(op->getOperand(1 - outer));
      if (!inner || !c2 || inner.getType() != op.getType())
        continue;
      for (int k = 0; k < 2; ++k) {
        Value a = inner->getOperand(1 - k);
        SplatElementsAttr c1 = splatOperand(inner->getOperand(k));
        if (!c1 || splatOperand(a) || a.getType() != op.getType())
          continue;
        APInt x = c1.getSplatValue<APInt>(), y = c2.getSplatValue<APInt>();
        APInt combined = std::is_same_v<OpT, AddOp> ? x + y : x * y;
        Value c = makeSplat(r, op.getLoc(), op.getType(),
                            r.getIntegerAttr(elementTypeOf(a), combined));
        r.modifyOpInPlace(op, [&] {
          op.getLhsMutable().assign(a);
          op.getRhsMutable().assign(c);
        });
        return success();
      }
    }
    return failure();
  }
};

/// Unsigned A % 2^k = A & (2^k - 1).
struct RemainderByPowerOfTwo : HloPattern<RemOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(RemOp op, PatternRewriter &r) const override {
    Type elt = elementTypeOf(op.getLhs());
    SplatElementsAttr c = splatOperand(op.getRhs());
    if (!elt || !elt.isUnsignedInteger() || !c ||
        !c.getSplatValue<APInt>().isPowerOf2() ||
        op.getLhs().getType() != op.getType())
      return failure();
    APInt mask = c.getSplatValue<APInt>() - 1;
    Value m =
        makeSplat(r, op.getLoc(), op.getType(), r.getIntegerAttr(elt, mask));
    replace(r, op, createInferred<AndOp>(r, op.getLoc(), {op.getLhs(), m}),
            true);
    return success();
  }
};

/// rsqrt(1 / A) = sqrt(A) when the divide has no other user.
struct RsqrtOfReciprocal : HloPattern<RsqrtOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(RsqrtOp op, PatternRewriter &r) const override {
    auto div = plainDef<DivOp>(op.getOperand());
    if (!div || !div->hasOneUse() || div.getRhs().getType() != op.getType())
      return failure();
    SplatElementsAttr one = splatOperand(div.getLhs());
    if (!one || !isa<FloatType>(one.getElementType()) ||
        !one.getSplatValue<APFloat>().isExactlyValue(1.0))
      return failure();
    Operation *sqrt =
        createInstruction(r, op.getLoc(), SqrtOp::getOperationName(),
                          op.getType(), {div.getRhs()}, {});
    replace(r, op, sqrt->getResult(0), true);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

/// True if every value of element type `from` converts to `to` exactly
/// (so converting back restores it).
static bool convertsExactly(Type from, Type to) {
  if (from == to)
    return true;
  auto fi = dyn_cast<IntegerType>(from), ti = dyn_cast<IntegerType>(to);
  if (fi && ti) {
    if (fi.getWidth() == 1)
      return true;
    bool fu = fi.isUnsigned(), tu = ti.isUnsigned();
    if (fu == tu)
      return ti.getWidth() >= fi.getWidth();
    return fu && !tu && ti.getWidth() > fi.getWidth();
  }
  auto ff = dyn_cast<FloatType>(from), tf = dyn_cast<FloatType>(to);
  if (ff && tf)
    return APFloat::isRepresentableBy(ff.getFloatSemantics(),
                                      tf.getFloatSemantics());
  if (fi && tf) {
    // Integers of up to the float's precision in bits, sign apart.
    unsigned bits =
        fi.getWidth() - (fi.isUnsigned() || fi.getWidth() == 1 ? 0 : 1);
    return bits <= APFloat::semanticsPrecision(tf.getFloatSemantics());
  }
  return false;
}

/// convert(convert(A)) = A when the result has A's type and the inner
/// convert is exact (a widening).
struct ConvertPair : HloPattern<ConvertOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(ConvertOp op, PatternRewriter &r) const override {
    auto inner = plainDef<ConvertOp>(op.getOperand());
    if (!inner || inner.getOperand().getType() != op.getType())
      return failure();
    Type from = elementTypeOf(inner.getOperand()), to = elementTypeOf(inner);
    if (!from || !to || !convertsExactly(from, to))
      return failure();
    replace(r, op, inner.getOperand(), false);
    return success();
  }
};

/// bitcast-convert(bitcast-convert(A)) is A when the result has A's type,
/// else one bitcast-convert when all three element types have one width.
struct BitcastConvertPair : HloPattern<BitcastConvertOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(BitcastConvertOp op,
                        PatternRewriter &r) const override {
    auto inner = plainDef<BitcastConvertOp>(op.getOperand());
    if (!inner)
      return failure();
    Value a = inner.getOperand();
    if (a.getType() == op.getType()) {
      replace(r, op, a, false);
      return success();
    }
    Type e0 = elementTypeOf(a), e1 = elementTypeOf(inner),
         e2 = elementTypeOf(op);
    if (!e0 || !e1 || !e2 || !e0.isIntOrFloat() || !e1.isIntOrFloat() ||
        !e2.isIntOrFloat() ||
        e0.getIntOrFloatBitWidth() != e1.getIntOrFloatBitWidth() ||
        e1.getIntOrFloatBitWidth() != e2.getIntOrFloatBitWidth())
      return failure();
    r.modifyOpInPlace(op, [&] { op->setOperand(0, a); });
    return success();
  }
};

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

/// The op of a reducer computation that returns one binary op of its two
/// parameters (`add(p0, p1)`, ...), or null.
static Operation *reducerOp(ComputationOp comp) {
  if (!comp || comp.getNumArguments() != 2)
    return nullptr;
  Block &body = comp.getBody().front();
  if (body.getOperations().size() != 2)
    return nullptr;
  Operation *op = &body.front();
  if (op->getNumOperands() != 2 || hasControlPredecessors(op))
    return nullptr;
  Value p0 = body.getArgument(0), p1 = body.getArgument(1);
  Value a = op->getOperand(0), b = op->getOperand(1);
  if (!((a == p0 && b == p1) || (a == p1 && b == p0)))
    return nullptr;
  return op;
}

/// True if `init` is a constant that `reducer` leaves every value alone
/// with: 0 for add, or and xor, 1 for multiply, the lowest value for
/// maximum, the highest for minimum, all ones for and. (A float add takes
/// +0 too, as XLA does: it differs from -0 only in the sign of a zero.)
static bool isIdentityOf(Operation *reducer, Value init) {
  Attribute attr;
  if (!reducer || !matchPattern(init, m_Constant(&attr)))
    return false;
  auto splat = dyn_cast<SplatElementsAttr>(attr);
  if (!splat)
    return false;
  Type elt = splat.getElementType();
  if (auto ft = dyn_cast<FloatType>(elt)) {
    APFloat v = splat.getSplatValue<APFloat>();
    if (isa<AddOp>(reducer))
      return v.isZero();
    if (isa<MulOp>(reducer))
      return v.isExactlyValue(1.0);
    if (isa<MaxOp>(reducer))
      return v.isInfinity() && v.isNegative();
    if (isa<MinOp>(reducer))
      return v.isInfinity() && !v.isNegative();
    return false;
  }
  auto it = dyn_cast<IntegerType>(elt);
  if (!it)
    return false;
  APInt v = splat.getSplatValue<APInt>();
  bool isUnsigned = it.isUnsigned() || it.getWidth() == 1;
  unsigned w = v.getBitWidth();
  if (isa<AddOp, OrOp, XorOp>(reducer))
    return v.isZero();
  if (isa<MulOp>(reducer))
    return v.isOne();
  if (isa<AndOp>(reducer))
    return v.isAllOnes();
  if (isa<MaxOp>(reducer))
    return v ==
           (isUnsigned ? APInt::getMinValue(w) : APInt::getSignedMinValue(w));
  if (isa<MinOp>(reducer))
    return v ==
           (isUnsigned ? APInt::getMaxValue(w) : APInt::getSignedMaxValue(w));
  return false;
}

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
    replace(r, op,
            makeSplat(r, op.getLoc(), op.getType(),
                      r.getZeroAttr(type.getElementType())),
            true);
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

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct AlgebraicSimplifierPass
    : hlo::impl::HloAlgebraicSimplifierBase<AlgebraicSimplifierPass> {
  using HloAlgebraicSimplifierBase::HloAlgebraicSimplifierBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    // The reduce rewrites find reducers in the module's symbol table, built
    // once per run (no rewrite adds or removes a computation), so the
    // patterns are made per run.
    SymbolTable symbols(module);
    RewritePatternSet set(context);
    for (RegisteredOperationName name : context->getRegisteredOperations())
      if (name.getDialectNamespace() == HloDialect::getDialectNamespace())
        name.getCanonicalizationPatterns(set, context);
    set.add<SubtractSelf, MultiplyByZero, CompareSelf, SelectSameBranches,
            AbsOfAbs, SliceOfSlice, SliceOfConcatenate, ConcatenateOperands,
            DynamicUpdateSliceTrivial, DivideRewrites, Reassociate<AddOp>,
            Reassociate<MulOp>, RsqrtOfReciprocal, RemainderByPowerOfTwo,
            ConvertPair, BitcastConvertPair, PadOfScalarBroadcast,
            BroadcastOfIota>(context);
    set.add<ReduceNothing, ReduceOfTranspose, ReduceOfReduce, ReduceOfReshape>(
        context, symbols);
    set.add<DotOfEmpty>(context);
    if (enablePowerRewrites)
      set.add<PowerByConstant>(context);
    if (enableDotToMultiplyRewrite)
      set.add<DotToMultiply>(context);
    FrozenRewritePatternSet patterns(std::move(set));
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(module, patterns, config)))
      mlir::emitWarning(module.getLoc())
          << "hlo-algebraic-simplifier: the rewrites did not converge";
  }
};
} // namespace
