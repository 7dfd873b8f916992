//===- AlgebraicSimplifierArithmetic.cpp - rewrites by operand values -----===//
//
// hlo-algebraic-simplifier's rewrites of XLA's AlgebraicSimplifier that
// follow from what an instruction's operands are: abs of a value known
// non-negative, a clamp of a clamp the outer bounds make redundant, a
// remainder by the divisor of the remainder it takes, quotients of
// quotients, the parts of a complex number, selects between the two pred
// constants, and maps whose computation is one instruction.
//
//===----------------------------------------------------------------------===//

#include "AlgebraicSimplifier.h"
#include "ReductionUtils.h"

#include "Hlo/Dialect/Hlo/HloOpClasses.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::algsimp;

bool mlir::hlo::algsimp::isNonNegative(Value v) {
  if (auto b = v.getDefiningOp<BroadcastOp>())
    v = b.getOperand();
  Type elt = elementTypeOf(v);
  if (!isa_and_nonnull<IntegerType, FloatType>(elt))
    return false;
  auto intType = dyn_cast<IntegerType>(elt);
  if (intType && intType.isUnsigned())
    return true;
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<AbsOp>(def))
    return true;
  if (auto iota = dyn_cast<IotaOp>(def)) {
    RankedTensorType t = staticType(iota.getResult());
    if (!t)
      return false;
    int64_t n = t.getDimSize(iota.getIotaDimension());
    // The values 0..n-1 must not wrap around.
    return !intType || intType.getWidth() >= 64 ||
           n - 1 <= (int64_t(1) << (intType.getWidth() - 1)) - 1;
  }
  DenseElementsAttr literal;
  if (matchPattern(v, m_Constant(&literal))) {
    if (intType)
      return llvm::none_of(literal.getValues<APInt>(),
                           [](const APInt &x) { return x.isNegative(); });
    return llvm::none_of(literal.getValues<APFloat>(),
                         [](const APFloat &x) { return x.isNegative(); });
  }
  if (!isa<FloatType>(elt))
    return false;
  // exp is never below +0, a square has the sign bit clear.
  if (isa<ExpOp>(def))
    return true;
  auto mul = dyn_cast<MulOp>(def);
  return mul && mul.getLhs() == mul.getRhs();
}

namespace {
/// abs(A) = A for A known non-negative.
struct AbsOfNonNegative : HloPattern<AbsOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(AbsOp op, PatternRewriter &r) const override {
    Value a = op.getOperand();
    if (a.getType() != op.getType() || !isNonNegative(a))
      return failure();
    replace(r, op, a, false);
    return success();
  }
};

/// clamp(L, clamp(L', A, H'), H) = clamp(L, A, H) when the inner bounds
/// cut nothing the outer ones let through: the same bounds (XLA's rule),
/// or constants with L' <= L <= H <= H', where each inner bound is the
/// outer one or strictly beyond it (so that -0 and +0, equal but not the
/// same, do not count: clamp(-0, clamp(+0, A, H), H) is +0 for negative A).
struct ClampOfClamp : HloPattern<ClampOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(ClampOp op, PatternRewriter &r) const override {
    auto inner = plainDef<ClampOp>(op.getOperand());
    if (!inner)
      return failure();
    bool same = sameSplat(op.getMin(), inner.getMin()) &&
                sameSplat(op.getMax(), inner.getMax());
    SplatElementsAttr lo = splatOperand(op.getMin()),
                      hi = splatOperand(op.getMax()),
                      innerLo = splatOperand(inner.getMin()),
                      innerHi = splatOperand(inner.getMax());
    auto sameOrBelow = [](SplatElementsAttr a, SplatElementsAttr b) {
      return a.getSplatValue<Attribute>() == b.getSplatValue<Attribute>() ||
             (splatLessOrEqual(a, b) && !splatLessOrEqual(b, a));
    };
    bool within = lo && hi && innerLo && innerHi && sameOrBelow(innerLo, lo) &&
                  splatLessOrEqual(lo, hi) && sameOrBelow(hi, innerHi);
    if (!same && !within)
      return failure();
    r.modifyOpInPlace(
        op, [&] { op.getOperandMutable().assign(inner.getOperand()); });
    return success();
  }
};

/// (A % B) % B = A % B: the inner remainder is already smaller than B in
/// magnitude, with A's sign (integers and floats alike).
struct RemainderOfRemainder : HloPattern<RemOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(RemOp op, PatternRewriter &r) const override {
    auto inner = plainDef<RemOp>(op.getLhs());
    if (!inner || inner.getType() != op.getType() ||
        !sameSplat(inner.getRhs(), op.getRhs()))
      return failure();
    replace(r, op, inner, false);
    return success();
  }
};

/// For floats, (A / B) / C = A / (B * C) and A / (B / C) = (A * C) / B, when
/// the inner quotient has no other user (XLA's; rounding may differ in the
/// last place).
struct DivideOfDivide : HloPattern<DivOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(DivOp op, PatternRewriter &r) const override {
    // Every operand of one type, so that the multiply and the divides
    // keep it.
    Type type = op.getType();
    if (!isa_and_nonnull<FloatType>(elementTypeOf(op)) ||
        op.getLhs().getType() != type || op.getRhs().getType() != type)
      return failure();
    auto single = [&](Value v) {
      auto div = plainDef<DivOp>(v);
      return div && div->hasOneUse() && div.getLhs().getType() == type &&
                     div.getRhs().getType() == type
                 ? div
                 : DivOp();
    };
    Location loc = unnamed(op.getLoc());
    Value lhs, rhs;
    if (DivOp inner = single(op.getLhs())) {
      lhs = inner.getLhs();
      rhs = createInferred<MulOp>(r, loc, {inner.getRhs(), op.getRhs()});
    } else if (DivOp inner = single(op.getRhs())) {
      lhs = createInferred<MulOp>(r, loc, {op.getLhs(), inner.getRhs()});
      rhs = inner.getLhs();
    } else {
      return failure();
    }
    r.modifyOpInPlace(op, [&] {
      op.getLhsMutable().assign(lhs);
      op.getRhsMutable().assign(rhs);
    });
    return success();
  }
};

/// real(complex(A, B)) = A and imag(complex(A, B)) = B.
template <typename OpT> struct PartOfComplex : HloPattern<OpT> {
  using HloPattern<OpT>::HloPattern;
  LogicalResult rewrite(OpT op, PatternRewriter &r) const override {
    auto complex = plainDef<ComplexOp>(op.getOperand());
    if (!complex)
      return failure();
    Value part =
        std::is_same_v<OpT, RealOp> ? complex.getLhs() : complex.getRhs();
    if (part.getType() != op.getType())
      return failure();
    replace(r, op, part, false);
    return success();
  }
};

/// complex(real(C), imag(C)) = C.
struct ComplexOfParts : HloPattern<ComplexOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(ComplexOp op, PatternRewriter &r) const override {
    auto re = plainDef<RealOp>(op.getLhs());
    auto im = plainDef<ImagOp>(op.getRhs());
    if (!re || !im || re.getOperand() != im.getOperand() ||
        re.getOperand().getType() != op.getType())
      return failure();
    replace(r, op, re.getOperand(), false);
    return success();
  }
};

/// select(P, true, false) = P and select(P, false, true) = not(P), the
/// branches pred constants or broadcasts of them.
struct SelectOfPredConstants : HloPattern<SelectOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(SelectOp op, PatternRewriter &r) const override {
    SplatElementsAttr t = splatOperand(op.getOnTrue()),
                      f = splatOperand(op.getOnFalse());
    if (!t || !f || !t.getElementType().isInteger(1) ||
        op.getPred().getType() != op.getType())
      return failure();
    bool onTrue = t.getSplatValue<bool>(), onFalse = f.getSplatValue<bool>();
    if (onTrue == onFalse)
      return failure(); // Both branches alike: the folder's.
    Value p = op.getPred();
    if (!onTrue)
      p = createInferred<NotOp>(r, op.getLoc(), {p});
    replace(r, op, p, !onTrue);
    return success();
  }
};

/// select(compare(A, B), A, B) of pred arrays: A | B for > and >=, A & B
/// for < and <=, B for ==, A for != (XLA's HandleSelect).
struct SelectOfPredCompare : HloPattern<SelectOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(SelectOp op, PatternRewriter &r) const override {
    auto compare = plainDef<CompareOp>(op.getPred());
    Value a = op.getOnTrue(), b = op.getOnFalse();
    Type element = elementTypeOf(op);
    if (!compare || compare.getLhs() != a || compare.getRhs() != b ||
        !element || !element.isInteger(1) || a.getType() != op.getType() ||
        b.getType() != op.getType())
      return failure();
    switch (compare.getDirection()) {
    case ComparisonDirection::GT:
    case ComparisonDirection::GE:
      replace(r, op, createInferred<OrOp>(r, op.getLoc(), {a, b}), true);
      return success();
    case ComparisonDirection::LT:
    case ComparisonDirection::LE:
      replace(r, op, createInferred<AndOp>(r, op.getLoc(), {a, b}), true);
      return success();
    case ComparisonDirection::EQ:
      replace(r, op, b, false);
      return success();
    case ComparisonDirection::NE:
      replace(r, op, a, false);
      return success();
    }
    return failure();
  }
};

/// A + scatter(zeros, I, U) = scatter(A, I, U) (either operand order) for
/// a one-array scatter with no other user whose combiner adds: every
/// element of A gains the updates the zeros gained (XLA's HandleAdd; for
/// floats the sums are reassociated, and an element -0 of A no other
/// update reaches stays -0, where -0 + 0 is +0).
struct AddOfScatterIntoZeros : HloPattern<AddOp> {
  AddOfScatterIntoZeros(MLIRContext *context, SymbolTable &symbols)
      : HloPattern(context), symbols(symbols) {}
  LogicalResult rewrite(AddOp op, PatternRewriter &r) const override {
    for (int k = 0; k < 2; ++k) {
      auto scatter = plainDef<ScatterOp>(op->getOperand(k));
      Value a = op->getOperand(1 - k);
      if (!scatter || !scatter->hasOneUse() ||
          scatter.getInputs().size() != 3 || a.getType() != op.getType() ||
          scatter.getType() != op.getType())
        continue;
      SplatElementsAttr zeros = splatOperand(scatter.getInputs()[0]);
      if (!zeros || !isa_and_nonnull<AddOp>(reducerOp(
                        symbols.lookup<ComputationOp>(scatter.getToApply()))))
        continue;
      Attribute zero = zeros.getSplatValue<Attribute>();
      auto f = dyn_cast<FloatAttr>(zero);
      auto i = dyn_cast<IntegerAttr>(zero);
      if (!(f && f.getValue().isZero()) && !(i && i.getValue().isZero()))
        continue;
      // A new scatter where the add is, after A.
      Operation *sum = r.clone(*scatter);
      sum->setOperand(0, a);
      replace(r, op, sum->getResult(0), false);
      return success();
    }
    return failure();
  }
  SymbolTable &symbols;
};

/// A map whose computation is one instruction: its ROOT a parameter (the
/// mapped operand), a constant (broadcast), or an elementwise instruction
/// of parameters only (that instruction on the mapped operands), as XLA's
/// HandleMap.
struct MapOfOneInstruction : HloPattern<MapOp> {
  MapOfOneInstruction(MLIRContext *context, SymbolTable &symbols)
      : HloPattern(context), symbols(symbols) {}
  LogicalResult rewrite(MapOp op, PatternRewriter &r) const override {
    auto comp = symbols.lookup<ComputationOp>(op.getToApply());
    RankedTensorType type = staticType(op.getResult());
    if (!comp || !type)
      return failure();
    Value root = comp.getRootValue();
    auto mapped = [&](Value v) -> Value {
      auto arg = dyn_cast<BlockArgument>(v);
      if (!arg || arg.getOwner() != &comp.getBody().front() ||
          arg.getArgNumber() >= op.getInputs().size())
        return {};
      return op.getInputs()[arg.getArgNumber()];
    };
    if (Value in = mapped(root)) {
      if (in.getType() != op.getType())
        return failure();
      replace(r, op, in, false);
      return success();
    }
    Operation *def = root.getDefiningOp();
    if (!def || hasControlEdges(def) || def->getNumResults() != 1 ||
        def->getNumRegions() != 0 ||
        cast<ShapedType>(root.getType()).getElementType() !=
            type.getElementType())
      return failure();
    SplatElementsAttr literal;
    if (matchPattern(root, m_Constant(&literal))) {
      if (!isa<IntegerType, FloatType>(type.getElementType()))
        return failure();
      replace(
          r, op,
          makeSplat(r, op.getLoc(), type, literal.getSplatValue<Attribute>()),
          true);
      return success();
    }
    if (!isElementwise(def) || isa<MapOp>(def))
      return failure();
    SmallVector<Value> operands;
    for (Value v : def->getOperands()) {
      operands.push_back(mapped(v));
      if (!operands.back() || !staticType(operands.back()) ||
          staticType(operands.back()).getShape() != type.getShape())
        return failure();
    }
    // The instruction's own attributes (a comparison's direction, a
    // conversion's ...), not the scalar's sharding.
    SmallVector<NamedAttribute> attrs;
    for (NamedAttribute a : def->getAttrs())
      if (a.getName() != "sharding")
        attrs.push_back(a);
    Operation *result = createInstruction(
        r, op.getLoc(), def->getName().getStringRef(), type, operands, attrs);
    replace(r, op, result->getResult(0), true);
    return success();
  }
  SymbolTable &symbols;
};
} // namespace

void mlir::hlo::algsimp::populateArithmeticPatterns(RewritePatternSet &set,
                                                    SymbolTable &symbols) {
  MLIRContext *ctx = set.getContext();
  set.add<AbsOfNonNegative, ClampOfClamp, RemainderOfRemainder, DivideOfDivide,
          PartOfComplex<RealOp>, PartOfComplex<ImagOp>, ComplexOfParts,
          SelectOfPredConstants, SelectOfPredCompare>(ctx);
  set.add<MapOfOneInstruction, AddOfScatterIntoZeros>(ctx, symbols);
}
