//===- AlgebraicSimplifier.cpp - algebraic identities of HLO -------------===//
//
// XLA's AlgebraicSimplifier. The identities that hold whatever the context
// are the ops' folders and canonicalization patterns (HloFolding.cpp): the
// pass applies them with its own rewrites, to a fixed point, with MLIR's
// greedy driver (which also keeps constants on the right of commutative
// ops). Its own rewrites are XLA's handlers that depend on element types
// (integers for A-A, A*0, x==x and A*C+B*C; floats for A/C;
// signed or unsigned divides by 2^k), on options (power, dot to multiply,
// dot strength reduction, floats are real, ...), on users (A/sqrt(B) only
// when the sqrt has no other user) or on the reducer of a reduce; and
// XLA's rewrites of slices, concatenates, reduces, reduce-windows, dots,
// divides and conversions.
//
// This file holds the arithmetic and conversion rewrites and the pass; the
// shape rewrites are in AlgebraicSimplifierShapes.cpp, the data-movement
// ones in AlgebraicSimplifierMovement.cpp, XLA's other elementwise ones in
// AlgebraicSimplifierElementwise.cpp. Every rewrite looks
// at an instruction and its operands only, so the greedy driver keeps the
// cost linear in the module size. The reduce rewrites find reducers in a
// symbol table built once per run; the add computations the dot strength
// reduction needs are made once per element type.
//
// An instruction with control predecessors is never rewritten, nor is an
// operand with control predecessors looked through: the edges would have
// nowhere to go.
//
//===----------------------------------------------------------------------===//

#include "AlgebraicSimplifier.h"
#include "Hlo/Dialect/Hlo/HloMemoryAnnotations.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Transforms/Passes.h"
#include "LayoutUtils.h"
#include "RewriteUtils.h"

#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOALGEBRAICSIMPLIFIER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::algsimp;

namespace {
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

/// power(A, 0) = 1, power(A, 1) = A, power(A, 2) = A * A, power(A, 3) =
/// A * A * A and, for floats, power(A, -1) = 1 / A.
struct PowerByConstant : HloPattern<PowOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(PowOp op, PatternRewriter &r) const override {
    std::optional<double> exponent = splatValue(op.getRhs());
    Type elementType = elementTypeOf(op.getLhs());
    if (!exponent || !elementType || elementType != elementTypeOf(op.getRhs()))
      return failure();
    Value a = op.getLhs();
    Location loc = unnamed(op.getLoc());
    auto one = [&] {
      return makeSplat(r, loc, op.getType(), r.getOneAttr(elementType));
    };
    if (*exponent == 0) {
      replace(r, op, one(), true);
    } else if (a.getType() != op.getType()) {
      return failure();
    } else if (*exponent == 1) {
      replace(r, op, a, false);
    } else if (*exponent == 2 || *exponent == 3) {
      Value mul = createInferred<MulOp>(r, loc, {a, a});
      if (*exponent == 3)
        mul = createInferred<MulOp>(r, loc, {mul, a});
      replace(r, op, mul, true);
    } else if (*exponent == -1 && isa<FloatType>(elementType)) {
      replace(r, op, createInferred<DivOp>(r, loc, {one(), a}), true);
    } else {
      return failure();
    }
    return success();
  }
};

/// select(p, A, A) = A; select(true, A, B) = A and select(false, A, B) =
/// B for a predicate that is all one value (a splat constant or a
/// broadcast of a constant: XLA's IsAll).
struct SelectSameBranches : HloPattern<SelectOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(SelectOp op, PatternRewriter &r) const override {
    Value chosen;
    if (op.getOnTrue() == op.getOnFalse())
      chosen = op.getOnTrue();
    else if (SplatElementsAttr p = splatOperand(op.getPred()))
      chosen = p.getSplatValue<bool>() ? op.getOnTrue() : op.getOnFalse();
    if (!chosen || chosen.getType() != op.getType())
      return failure();
    replace(r, op, chosen, false);
    return success();
  }
};

/// The positive power of two a signed integer divisor `c` is, or null.
static std::optional<APInt> signedPowerOfTwo(Type elt, SplatElementsAttr c) {
  auto it = dyn_cast_or_null<IntegerType>(elt);
  if (!c || !it || it.isUnsigned() || it.getWidth() == 1)
    return std::nullopt;
  APInt v = c.getSplatValue<APInt>();
  if (!v.isStrictlyPositive() || !v.isPowerOf2())
    return std::nullopt;
  return v;
}

/// XLA's signed A / 2^k and A % 2^k, right for negative A: the unsigned
/// result on |A| (a logical shift right by k, a mask of 2^k - 1), negated
/// where A is negative (HLO's divide rounds toward zero; its remainder has
/// A's sign). A = INT_MIN works too: its negation is itself, which as an
/// unsigned number is 2^(w-1).
static Value signedByPowerOfTwo(PatternRewriter &r, Location loc, Value a,
                                const APInt &divisor, bool remainder) {
  Type type = a.getType(), elt = elementTypeOf(a);
  Value zero = makeSplat(r, loc, type, r.getZeroAttr(elt));
  auto direction =
      ComparisonDirectionAttr::get(r.getContext(), ComparisonDirection::LT);
  Value negative =
      createInstruction(r, loc, CompareOp::getOperationName(),
                        withElementType(type, r.getI1Type()), {a, zero},
                        {r.getNamedAttr("direction", direction)})
          ->getResult(0);
  auto unary = [&](StringRef name, Value x) {
    return createInstruction(r, loc, name, type, {x}, {})->getResult(0);
  };
  auto select = [&](Value onTrue, Value onFalse) {
    return createInstruction(r, loc, SelectOp::getOperationName(), type,
                             {negative, onTrue, onFalse}, {})
        ->getResult(0);
  };
  Value abs = select(unary(NegOp::getOperationName(), a), a);
  APInt amount = remainder ? divisor - 1
                           : APInt(divisor.getBitWidth(), divisor.logBase2());
  Value c = makeSplat(r, loc, type, r.getIntegerAttr(elt, amount));
  Value result =
      createInstruction(r, loc,
                        remainder ? AndOp::getOperationName()
                                  : ShiftRightLogicalOp::getOperationName(),
                        type, {abs, c}, {})
          ->getResult(0);
  return select(unary(NegOp::getOperationName(), result), result);
}

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
    Location loc = unnamed(op.getLoc());
    // Unsigned or non-negative A / 2^k = A >> k.
    std::optional<APInt> divisor = signedPowerOfTwo(elt, c);
    if ((c && elt.isUnsignedInteger() &&
         c.getSplatValue<APInt>().isPowerOf2()) ||
        (divisor && isNonNegative(a))) {
      unsigned k = c.getSplatValue<APInt>().logBase2();
      Value shift = makeSplat(r, loc, op.getType(), r.getIntegerAttr(elt, k));
      Operation *result =
          createInstruction(r, loc, ShiftRightLogicalOp::getOperationName(),
                            op.getType(), {a, shift}, {});
      replace(r, op, result->getResult(0), true);
      return success();
    }
    // Signed A / 2^k: the shift on |A|, negated for negative A.
    if (divisor) {
      replace(r, op, signedByPowerOfTwo(r, loc, a, *divisor, false), true);
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

/// (A + C1) + C2 = A + (C1 + C2) and (A * C1) * C2 = A * (C1 * C2), in any
/// operand order, C1 and C2 constants or broadcast constants: the constant
/// is computed here. Exact for integers (wrapping arithmetic is
/// associative); for floats as XLA reassociates them (C1 + C2 rounded
/// once). The same for maximum and minimum (max(max(A, C1), C2) =
/// max(A, max(C1, C2)): two ReLUs are one), exact; for floats only where
/// C1 and C2 are the same value or neither is a zero or NaN (so that how
/// a maximum orders -0 and +0 does not matter).
template <typename OpT> struct Reassociate : HloPattern<OpT> {
  using HloPattern<OpT>::HloPattern;
  LogicalResult rewrite(OpT op, PatternRewriter &r) const override {
    Type element = elementTypeOf(op.getLhs());
    if (!isa_and_nonnull<IntegerType, FloatType>(element) ||
        element.isInteger(1))
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
        Attribute combined = combine(c1, c2, element);
        if (!combined)
          continue;
        Value c = makeSplat(r, unnamed(op.getLoc()), op.getType(), combined);
        r.modifyOpInPlace(op, [&] {
          op.getLhsMutable().assign(a);
          op.getRhsMutable().assign(c);
        });
        return success();
      }
    }
    return failure();
  }

  /// C1 op C2, or null where the maximum or minimum of floats is not
  /// exact (see above).
  static Attribute combine(SplatElementsAttr c1, SplatElementsAttr c2,
                           Type element) {
    constexpr bool add = std::is_same_v<OpT, AddOp>;
    constexpr bool mul = std::is_same_v<OpT, MulOp>;
    constexpr bool max = std::is_same_v<OpT, MaxOp>;
    if (isa<FloatType>(element)) {
      APFloat x = c1.getSplatValue<APFloat>(), y = c2.getSplatValue<APFloat>();
      if (add || mul)
        return FloatAttr::get(element, add ? x + y : x * y);
      if (!x.bitwiseIsEqual(y) &&
          (x.isZero() || y.isZero() || x.isNaN() || y.isNaN()))
        return {};
      return FloatAttr::get(element,
                            max ? llvm::maximum(x, y) : llvm::minimum(x, y));
    }
    APInt x = c1.getSplatValue<APInt>(), y = c2.getSplatValue<APInt>();
    if (add || mul)
      return IntegerAttr::get(element, add ? x + y : x * y);
    bool isUnsigned = cast<IntegerType>(element).isUnsigned();
    bool xFirst = max ? (isUnsigned ? x.uge(y) : x.sge(y))
                      : (isUnsigned ? x.ule(y) : x.sle(y));
    return IntegerAttr::get(element, xFirst ? x : y);
  }
};

/// True if `v` is XLA's float power-of-two constant: a constant of one
/// element, or a broadcast of one, whose value is +-2^k.
static bool isFloatPowerOfTwo(Value v) {
  if (auto b = v.getDefiningOp<BroadcastOp>())
    v = b.getOperand();
  auto t = staticType(v);
  if (!t || t.getNumElements() != 1 || !isa<FloatType>(t.getElementType()))
    return false;
  std::optional<double> value = splatValue(v);
  int exponent;
  return value && std::abs(std::frexp(*value, &exponent)) == 0.5;
}

/// XLA's A*C + B*C = (A+B)*C (either operand order in each multiply), when
/// both multiplies have no other user (one multiply fewer): for integers;
/// for floats only with `enable-floats-are-real` or when C is a constant
/// +-2^k (XLA's IsAllFpConstantPowerOf2: exact but for overflow and
/// underflow).
struct DistributeMultiply : HloPattern<AddOp> {
  DistributeMultiply(MLIRContext *context, bool floatsAreReal)
      : HloPattern(context), floatsAreReal(floatsAreReal) {}
  LogicalResult rewrite(AddOp op, PatternRewriter &r) const override {
    auto lhs = plainDef<MulOp>(op.getLhs()), rhs = plainDef<MulOp>(op.getRhs());
    if (!lhs || !rhs || lhs == rhs || !lhs->hasOneUse() || !rhs->hasOneUse())
      return failure();
    // C is the lhs's rhs, then its lhs (XLA's order).
    for (int i : {1, 0}) {
      Value c = lhs->getOperand(i), a = lhs->getOperand(1 - i);
      Value b;
      if (rhs.getLhs() == c)
        b = rhs.getRhs();
      else if (rhs.getRhs() == c)
        b = rhs.getLhs();
      else
        continue;
      bool integer =
          isInteger(op.getLhs()) && !elementTypeOf(op.getLhs()).isInteger(1);
      if (!integer && !floatsAreReal && !isFloatPowerOfTwo(c))
        continue;
      if (a.getType() != op.getType() || b.getType() != op.getType() ||
          c.getType() != op.getType())
        continue;
      Value sum = createInferred<AddOp>(r, op.getLoc(), {a, b});
      replace(r, op, createInferred<MulOp>(r, op.getLoc(), {sum, c}), true);
      return success();
    }
    return failure();
  }
  bool floatsAreReal;
};

/// Unsigned or non-negative A % 2^k = A & (2^k - 1); other signed A, the
/// mask on |A|, negated for negative A.
struct RemainderByPowerOfTwo : HloPattern<RemOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(RemOp op, PatternRewriter &r) const override {
    Type elt = elementTypeOf(op.getLhs());
    SplatElementsAttr c = splatOperand(op.getRhs());
    if (!elt || !c || op.getLhs().getType() != op.getType())
      return failure();
    std::optional<APInt> divisor = signedPowerOfTwo(elt, c);
    if (divisor && !isNonNegative(op.getLhs())) {
      replace(r, op,
              signedByPowerOfTwo(r, unnamed(op.getLoc()), op.getLhs(), *divisor,
                                 true),
              true);
      return success();
    }
    if (!divisor &&
        (!elt.isUnsignedInteger() || !c.getSplatValue<APInt>().isPowerOf2()))
      return failure();
    APInt mask = c.getSplatValue<APInt>() - 1;
    Value m = makeSplat(r, unnamed(op.getLoc()), op.getType(),
                        r.getIntegerAttr(elt, mask));
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

/// XLA's HandleConditional: a two-branch conditional whose index is a
/// convert of a pred runs branch 1 where the pred is true, so it is the
/// pred conditional with the branches (and their operands) swapped; later
/// rewrites (conditional to select) take pred conditionals only.
struct ConditionalOfConvertedPred : HloPattern<ConditionalOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(ConditionalOp op, PatternRewriter &r) const override {
    auto cvt = plainDef<ConvertOp>(op.getBranchIndex());
    SmallVector<FlatSymbolRefAttr> branches = op.getBranches();
    if (!cvt || !op.getBranchComputationsAttr() || branches.size() != 2 ||
        op.getBranchOperands().size() != 2 ||
        !llvm::all_of(branches, [](FlatSymbolRefAttr b) { return bool(b); }))
      return failure();
    Type pred = elementTypeOf(cvt.getOperand());
    if (!pred || !pred.isInteger(1))
      return failure();
    Value onFalse = op.getBranchOperands()[0], onTrue = op.getBranchOperands()[1];
    r.modifyOpInPlace(op, [&] {
      op.getBranchIndexMutable().assign(cvt.getOperand());
      op.getBranchOperandsMutable().assign(ValueRange{onTrue, onFalse});
      op.removeBranchComputationsAttr();
      op.setTrueComputationAttr(branches[1]);
      op.setFalseComputationAttr(branches[0]);
    });
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

/// bitcast-convert(concatenate(bitcast-convert(A1), ...)) =
/// concatenate(A1, ...) when every Ai has the outer convert's element type
/// (and so the inner converts keep their widths and shapes): XLA's
/// TrySimplifyTautologicalBitcastConvert.
struct BitcastConvertOfConcatenate : HloPattern<BitcastConvertOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(BitcastConvertOp op,
                        PatternRewriter &r) const override {
    auto concat = plainDef<ConcatenateOp>(op.getOperand());
    if (!concat)
      return failure();
    SmallVector<Value> parts;
    for (Value v : concat.getInputs()) {
      auto inner = plainDef<BitcastConvertOp>(v);
      if (!inner || elementTypeOf(inner.getOperand()) != elementTypeOf(op) ||
          cast<ShapedType>(inner.getOperand().getType()).getShape() !=
              cast<ShapedType>(v.getType()).getShape())
        return failure();
      parts.push_back(inner.getOperand());
    }
    Operation *joined = createInstruction(
        r, unnamed(op.getLoc()), ConcatenateOp::getOperationName(),
        op.getType(), parts,
        {r.getNamedAttr("dimensions", concat.getDimensionsAttr())});
    replace(r, op, joined->getResult(0), true);
    return success();
  }
};

/// getElementStorageBits of `type` when its layout is plain (no tiles) and
/// its elements real; 0 otherwise.
static int64_t storageBits(RankedTensorType type) {
  auto layout = dyn_cast_or_null<LayoutAttr>(type.getEncoding());
  if ((layout && !layout.getTileSizes().empty()) ||
      isa<ComplexType>(type.getElementType()))
    return 0;
  return getElementStorageBits(type).value_or(0);
}

/// After layout assignment, a bitcast-convert that leaves every bit where it
/// is in memory is a bitcast (XLA's layout-sensitive simplifier: SubByte-
/// CollectiveNormalization's `s8[4,4] bitcast-convert(s4[4,4,2]{2,1,0:E(4)})`
/// becomes a bitcast of the packed array). Of one width: the same physical
/// order. Narrow to wide (the operand has the extra trailing dimension of r
/// elements), or the reverse: that dimension is the most minor, the others
/// keep their order, and its r elements fill one wide element exactly
/// (packed or whole bytes), the low bits first as bitcast-convert reads them.
struct BitcastConvertInPlace : HloPattern<BitcastConvertOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(BitcastConvertOp op,
                        PatternRewriter &r) const override {
    RankedTensorType in = staticType(op.getOperand()),
                     out = staticType(op.getResult());
    if (!in || !out)
      return failure();
    int64_t inBits = storageBits(in), outBits = storageBits(out);
    if (!inBits || !outBits || getMemorySpace(in) != getMemorySpace(out))
      return failure();
    SmallVector<int64_t> inOrder = getMinorToMajor(in),
                         outOrder = getMinorToMajor(out);
    RankedTensorType narrow = in, wide = out;
    SmallVector<int64_t> *narrowOrder = &inOrder, *wideOrder = &outOrder;
    if (in.getRank() < out.getRank()) {
      std::swap(narrow, wide);
      std::swap(narrowOrder, wideOrder);
    }
    int64_t narrowBits = storageBits(narrow), wideBits = storageBits(wide);
    if (narrow.getRank() == wide.getRank()) {
      if (inBits != outBits || inOrder != outOrder)
        return failure();
    } else {
      int64_t ratio = narrow.getShape().back();
      if (narrowBits * ratio != wideBits ||
          narrowBits != *getElementBitWidth(narrow.getElementType()) ||
          narrowOrder->front() != narrow.getRank() - 1 ||
          ArrayRef(*narrowOrder).drop_front() != ArrayRef(*wideOrder))
        return failure();
    }
    replace(r, op,
            createInstruction(r, op.getLoc(), BitcastOp::getOperationName(),
                              op.getType(), {op.getOperand()})
                ->getResult(0),
            true);
    return success();
  }
};

/// bitcast(bitcast(A)) is one bitcast of A (XLA's HandleBitcast), where
/// that one keeps A's memory (a packed array whose layout does not name its
/// element size yet reads as bytes).
struct BitcastOfBitcast : HloPattern<BitcastOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(BitcastOp op, PatternRewriter &r) const override {
    auto inner = plainDef<BitcastOp>(op.getOperand());
    if (!inner || !bitcastKeepsMemory(
                      cast<RankedTensorType>(inner.getOperand().getType()),
                      cast<RankedTensorType>(op.getType())))
      return failure();
    r.modifyOpInPlace(op, [&] { op->setOperand(0, inner.getOperand()); });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

} // namespace

FlatSymbolRefAttr ScalarAddComputations::get(Type element) {
  FlatSymbolRefAttr &ref = made[element];
  // First in the module: it calls nothing, and HLO text (XLA's parser)
  // defines a computation before any instruction calls it.
  if (!ref)
    ref = createScalarAddComputation(
        symbols, element, symbols.getOp()->getRegion(0).front().begin());
  return ref;
}

namespace {
struct AlgebraicSimplifierPass
    : ChangeReportingPass<AlgebraicSimplifierPass,
                          hlo::impl::HloAlgebraicSimplifierBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    // The reduce rewrites find reducers in the module's symbol table, built
    // once per run (no rewrite removes a computation; the dot strength
    // reduction adds its scalar add computations to the table), so the
    // patterns are made per run.
    SymbolTable symbols(module);
    RewritePatternSet set(context);
    for (RegisteredOperationName name : context->getRegisteredOperations())
      if (name.getDialectNamespace() == HloDialect::getDialectNamespace())
        name.getCanonicalizationPatterns(set, context);
    set.add<SubtractSelf, MultiplyByZero, CompareSelf, SelectSameBranches,
            DivideRewrites, Reassociate<AddOp>, Reassociate<MulOp>,
            Reassociate<MaxOp>, Reassociate<MinOp>, RsqrtOfReciprocal,
            RemainderByPowerOfTwo, ConvertPair, BitcastConvertPair,
            BitcastConvertOfConcatenate, ConditionalOfConvertedPred>(context);
    set.add<DistributeMultiply>(context, enableFloatsAreReal);
    if (layoutSensitive)
      set.add<BitcastConvertInPlace, BitcastOfBitcast>(context);
    ScalarAddComputations adds(symbols);
    ShapeOptions options;
    options.dotToMultiply = enableDotToMultiplyRewrite;
    options.dotStrengthReduction = enableDotStrengthReduction;
    options.windowReduceToReduce = enableWindowReduceToReduceReplacement;
    options.unconditionalReduceOfConcat =
        enableUnconditionalReduceOfConcatReplacement;
    options.layoutSensitive = layoutSensitive;
    options.verySmallGatherSize = verySmallGatherSize;
    populateShapePatterns(set, symbols, adds, options);
    populateMovementPatterns(set, options);
    populateElementwisePatterns(set);
    populateArithmeticPatterns(set, symbols);
    populateConvolutionPatterns(set, adds, options);
    if (enablePowerRewrites)
      set.add<PowerByConstant>(context);
    FrozenRewritePatternSet patterns(std::move(set));
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(module, patterns, config, &changed)))
      mlir::emitWarning(module.getLoc())
          << "hlo-algebraic-simplifier: the rewrites did not converge";
    // The shape rules give new instructions no layout: after layout
    // assignment they take one from their operands.
    if (layoutSensitive && assignMissingLayouts(module))
      changed = true;
  }
};
} // namespace
