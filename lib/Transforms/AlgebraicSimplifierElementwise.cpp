//===- AlgebraicSimplifierElementwise.cpp - elementwise rewrites ----------===//
//
// hlo-algebraic-simplifier's rewrites of elementwise instructions that XLA's
// AlgebraicSimplifier makes whatever the element type's corner cases:
// A+0 and A-C for floats too, min/max pairs as clamps, selects on a
// negated predicate, multiplies by a converted predicate, and the
// identities of real numbers that XLA applies to floats (log(exp(A)) = A,
// exp(A)*exp(B) = exp(A+B), sqrt(A*A) = |A|, log(pow(A, B)) = B*log|A|,
// log(sqrt(A)) = log(A)/2), which infinities and NaN can break, as in XLA.
//
//===----------------------------------------------------------------------===//

#include "AlgebraicSimplifier.h"
#include "ReductionUtils.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::algsimp;

/// The operand of `op` (two operands) defined by a plain `OpT`, with the
/// other operand in `other`.
template <typename OpT> static OpT operandOf(Operation *op, Value &other) {
  for (int i : {0, 1})
    if (auto def = plainDef<OpT>(op->getOperand(i))) {
      other = op->getOperand(1 - i);
      return def;
    }
  return OpT();
}

namespace {
/// op(A, E) = A for the element E that op leaves every value alone with
/// (`identityOf`: A+0, A*1, max(A, -inf or the lowest integer), min(A,
/// +inf or the highest), A&~0, A|0, A^0), E a constant or a broadcast one
/// (the folders see constants only); for floats too, as XLA (-0 + +0 is
/// +0, A here).
template <typename OpT> struct NeutralOperand : HloPattern<OpT> {
  using HloPattern<OpT>::HloPattern;
  LogicalResult rewrite(OpT op, PatternRewriter &r) const override {
    for (auto [a, b] : {std::pair(op.getLhs(), op.getRhs()),
                        std::pair(op.getRhs(), op.getLhs())}) {
      if (a.getType() != op.getType() || !isIdentityOf(op, b))
        continue;
      replace(r, op, a, false);
      return success();
    }
    return failure();
  }
};

/// A&0 = 0 and A|~0 = ~0 (pred or integers): the constant operand.
template <typename OpT> struct AbsorbingOperand : HloPattern<OpT> {
  using HloPattern<OpT>::HloPattern;
  LogicalResult rewrite(OpT op, PatternRewriter &r) const override {
    for (Value b : {op.getRhs(), op.getLhs()}) {
      SplatElementsAttr c = splatOperand(b);
      if (!c || !isa<IntegerType>(c.getElementType()) ||
          b.getType() != op.getType())
        continue;
      APInt v = c.getSplatValue<APInt>();
      if (std::is_same_v<OpT, AndOp> ? !v.isZero() : !v.isAllOnes())
        continue;
      replace(r, op, b, false);
      return success();
    }
    return failure();
  }
};

/// (-A) * (-B) = A * B.
struct NegTimesNeg : HloPattern<MulOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(MulOp op, PatternRewriter &r) const override {
    auto a = plainDef<NegOp>(op.getLhs()), b = plainDef<NegOp>(op.getRhs());
    if (!a || !b)
      return failure();
    r.modifyOpInPlace(op, [&] {
      op.getLhsMutable().assign(a.getOperand());
      op.getRhsMutable().assign(b.getOperand());
    });
    return success();
  }
};

/// A - C = A + (-C) for a constant C (or a broadcast one): exact in two's
/// complement and IEEE arithmetic, and it lets constants reassociate.
struct SubtractConstant : HloPattern<SubtractOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(SubtractOp op, PatternRewriter &r) const override {
    SplatElementsAttr c = splatOperand(op.getRhs());
    if (!c || isConstant(op.getLhs()) || !staticType(op.getResult()))
      return failure();
    Attribute negated;
    if (isa<FloatType>(c.getElementType()))
      negated =
          r.getFloatAttr(c.getElementType(), neg(c.getSplatValue<APFloat>()));
    else if (auto it = dyn_cast<IntegerType>(c.getElementType());
             it && it.isSignless() && it.getWidth() > 1)
      negated = r.getIntegerAttr(it, -c.getSplatValue<APInt>());
    if (!negated)
      return failure();
    Value rhs = makeSplat(r, unnamed(op.getLoc()), op.getType(), negated);
    replace(r, op,
            createInferred<AddOp>(r, unnamed(op.getLoc()), {op.getLhs(), rhs}),
            true);
    return success();
  }
};

/// max(min(A, H), L) = clamp(L, A, H) when L <= H (else it is L), and
/// min(max(A, L), H) = clamp(L, A, H), clamp's definition; L and H splat
/// constants, operands in either order.
template <typename OuterOp, typename InnerOp>
struct MinMaxToClamp : HloPattern<OuterOp> {
  using HloPattern<OuterOp>::HloPattern;
  LogicalResult rewrite(OuterOp op, PatternRewriter &r) const override {
    constexpr bool maxOutside = std::is_same_v<OuterOp, MaxOp>;
    Value outerBound, innerBound;
    InnerOp inner = operandOf<InnerOp>(op, outerBound);
    if (!inner)
      return failure();
    SplatElementsAttr outerConst = splatOperand(outerBound);
    Value x = inner.getRhs();
    innerBound = inner.getLhs();
    SplatElementsAttr innerConst = splatOperand(innerBound);
    if (!innerConst) {
      std::swap(x, innerBound);
      innerConst = splatOperand(innerBound);
    }
    if (!outerConst || !innerConst || isConstant(x) ||
        x.getType() != op.getType() || innerBound.getType() != op.getType() ||
        outerBound.getType() != op.getType())
      return failure();
    Value lo = maxOutside ? outerBound : innerBound;
    Value hi = maxOutside ? innerBound : outerBound;
    if (maxOutside && !splatLessOrEqual(outerConst, innerConst))
      return failure();
    replace(r, op, createInferred<ClampOp>(r, op.getLoc(), {lo, x, hi}), true);
    return success();
  }
};

/// select(not(P), A, B) = select(P, B, A).
struct SelectOfNot : HloPattern<SelectOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(SelectOp op, PatternRewriter &r) const override {
    auto negated = plainDef<NotOp>(op.getPred());
    if (!negated || !isa<IntegerType>(elementTypeOf(op.getPred())) ||
        elementTypeOf(op.getPred()).getIntOrFloatBitWidth() != 1)
      return failure();
    r.modifyOpInPlace(op, [&] {
      Value onTrue = op.getOnTrue(), onFalse = op.getOnFalse();
      op.getPredMutable().assign(negated.getOperand());
      op.getOnTrueMutable().assign(onFalse);
      op.getOnFalseMutable().assign(onTrue);
    });
    return success();
  }
};

/// convert(P) * B = select(P, B, 0) for a predicate P.
struct MultiplyByConvertedPred : HloPattern<MulOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(MulOp op, PatternRewriter &r) const override {
    Value other;
    auto convert = operandOf<ConvertOp>(op, other);
    Type from = convert ? elementTypeOf(convert.getOperand()) : Type();
    if (!from || !from.isInteger(1) || other.getType() != op.getType() ||
        !isa<FloatType, IntegerType>(elementTypeOf(op)))
      return failure();
    Location loc = unnamed(op.getLoc());
    Value zero =
        makeSplat(r, loc, op.getType(), r.getZeroAttr(elementTypeOf(op)));
    replace(
        r, op,
        createInferred<SelectOp>(r, loc, {convert.getOperand(), other, zero}),
        true);
    return success();
  }
};

/// log(exp(A)) = A.
struct LogOfExp : HloPattern<LogOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(LogOp op, PatternRewriter &r) const override {
    auto exp = plainDef<ExpOp>(op.getOperand());
    if (!exp || exp.getOperand().getType() != op.getType())
      return failure();
    replace(r, op, exp.getOperand(), false);
    return success();
  }
};

/// log(pow(A, B)) = select(B == 0, 0, log(|A|) * B) and
/// log(sqrt(A)) = log(A) * 0.5, for floats.
struct LogOfPowerOrSqrt : HloPattern<LogOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(LogOp op, PatternRewriter &r) const override {
    auto floatType = dyn_cast_or_null<FloatType>(elementTypeOf(op));
    if (!floatType || !staticType(op.getResult()))
      return failure();
    Location loc = unnamed(op.getLoc());
    if (auto sqrt = plainDef<SqrtOp>(op.getOperand())) {
      Value log = createInferred<LogOp>(r, loc, {sqrt.getOperand()});
      Value half =
          makeSplat(r, loc, op.getType(), r.getFloatAttr(floatType, 0.5));
      replace(r, op, createInferred<MulOp>(r, loc, {log, half}), true);
      return success();
    }
    auto pow = plainDef<PowOp>(op.getOperand());
    if (!pow || pow.getRhs().getType() != op.getType())
      return failure();
    Value abs = createInferred<AbsOp>(r, loc, {pow.getLhs()});
    Value log = createInferred<LogOp>(r, loc, {abs});
    Value product = createInferred<MulOp>(r, loc, {log, pow.getRhs()});
    Value zero = makeSplat(r, loc, op.getType(), r.getFloatAttr(floatType, 0));
    Value isZero = createInferred<CompareOp>(
        r, loc, {pow.getRhs(), zero},
        {r.getNamedAttr("direction",
                        ComparisonDirectionAttr::get(
                            r.getContext(), ComparisonDirection::EQ))});
    replace(r, op, createInferred<SelectOp>(r, loc, {isZero, zero, product}),
            true);
    return success();
  }
};

/// exp(A) * exp(B) = exp(A + B).
struct ExpTimesExp : HloPattern<MulOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(MulOp op, PatternRewriter &r) const override {
    auto a = plainDef<ExpOp>(op.getLhs()), b = plainDef<ExpOp>(op.getRhs());
    if (!a || !b || a.getOperand().getType() != b.getOperand().getType())
      return failure();
    Location loc = unnamed(op.getLoc());
    Value sum = createInferred<AddOp>(r, loc, {a.getOperand(), b.getOperand()});
    replace(r, op, createInferred<ExpOp>(r, loc, {sum}), true);
    return success();
  }
};

/// sqrt(A * A) = |A|.
struct SqrtOfSquare : HloPattern<SqrtOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(SqrtOp op, PatternRewriter &r) const override {
    auto square = plainDef<MulOp>(op.getOperand());
    if (!square || square.getLhs() != square.getRhs() ||
        !isa_and_nonnull<FloatType>(elementTypeOf(op)))
      return failure();
    replace(r, op, createInferred<AbsOp>(r, op.getLoc(), {square.getLhs()}),
            true);
    return success();
  }
};

/// and(A < C1, A < C2) = A < C1 for integer constants C1 <= C2, and the
/// same for <=, and for > and >= with the larger constant: the tighter
/// bound, of two compares of one value in one direction (XLA's
/// TrySimplifyTautologicalCompare, which lets a loop's trip count be
/// read from its condition). or() of such compares is the looser one.
template <typename OpT> struct BoundsOfOneValue : HloPattern<OpT> {
  using HloPattern<OpT>::HloPattern;
  LogicalResult rewrite(OpT op, PatternRewriter &r) const override {
    auto x = plainDef<CompareOp>(op.getLhs());
    auto y = plainDef<CompareOp>(op.getRhs());
    if (!x || !y || x.getLhs() != y.getLhs() || !isInteger(x.getLhs()) ||
        x.getDirection() != y.getDirection() ||
        x.getComparisonTypeAttr() != y.getComparisonTypeAttr() ||
        x.getType() != op.getType() || y.getType() != op.getType())
      return failure();
    SplatElementsAttr cx = splatOperand(x.getRhs());
    SplatElementsAttr cy = splatOperand(y.getRhs());
    ComparisonDirection d = x.getDirection();
    bool upper = d == ComparisonDirection::LT || d == ComparisonDirection::LE;
    if (!cx || !cy ||
        (!upper && d != ComparisonDirection::GT &&
         d != ComparisonDirection::GE))
      return failure();
    bool xTighter = upper ? splatLessOrEqual(cx, cy) : splatLessOrEqual(cy, cx);
    bool keepTighter = std::is_same_v<OpT, AndOp>;
    replace(r, op, xTighter == keepTighter ? x.getResult() : y.getResult(),
            false);
    return success();
  }
};
} // namespace

void mlir::hlo::algsimp::populateElementwisePatterns(RewritePatternSet &set) {
  set.add<NeutralOperand<AddOp>, NeutralOperand<MulOp>, NeutralOperand<MaxOp>,
          NeutralOperand<MinOp>, NeutralOperand<AndOp>, NeutralOperand<OrOp>,
          NeutralOperand<XorOp>, AbsorbingOperand<AndOp>,
          AbsorbingOperand<OrOp>, NegTimesNeg, SubtractConstant,
          MinMaxToClamp<MaxOp, MinOp>, MinMaxToClamp<MinOp, MaxOp>, SelectOfNot,
          MultiplyByConvertedPred, LogOfExp, LogOfPowerOrSqrt, ExpTimesExp,
          SqrtOfSquare, BoundsOfOneValue<AndOp>, BoundsOfOneValue<OrOp>>(
      set.getContext());
}
