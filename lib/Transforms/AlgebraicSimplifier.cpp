//===- AlgebraicSimplifier.cpp - algebraic identities of HLO -------------===//
//
// XLA's AlgebraicSimplifier. The identities that hold whatever the context
// are the ops' folders and canonicalization patterns (HloFolding.cpp): the
// pass applies them with its own rewrites, to a fixed point, with MLIR's
// greedy driver (which also keeps constants on the right of commutative
// ops). Its own rewrites are those XLA applies only for some element types:
// integers for A-A and A*0 (NaN and infinities break them for floats),
// x==x for integers, and power by a small constant.
//
// An instruction with control predecessors is never rewritten: the edges
// would have nowhere to go.
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
  Value c = createInstruction(rewriter, rewriter.getUnknownLoc(),
                              ConstantOp::getOperationName(), scalarType, {},
                              {value})
                ->getResult(0);
  return createInstruction(
             rewriter, loc, BroadcastOp::getOperationName(), type, {c},
             {rewriter.getNamedAttr("dimensions",
                                    rewriter.getDenseI64ArrayAttr({}))})
      ->getResult(0);
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
template <typename OpT>
struct HloPattern : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const final {
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
      return makeSplat(r, op.getLoc(), op.getType(),
                       r.getOneAttr(elementType));
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

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct AlgebraicSimplifierPass
    : hlo::impl::HloAlgebraicSimplifierBase<AlgebraicSimplifierPass> {
  using HloAlgebraicSimplifierBase::HloAlgebraicSimplifierBase;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    for (RegisteredOperationName name : context->getRegisteredOperations())
      if (name.getDialectNamespace() == HloDialect::getDialectNamespace())
        name.getCanonicalizationPatterns(set, context);
    set.add<SubtractSelf, MultiplyByZero, CompareSelf, SelectSameBranches,
            AbsOfAbs>(context);
    if (enablePowerRewrites)
      set.add<PowerByConstant>(context);
    patterns = std::make_shared<FrozenRewritePatternSet>(std::move(set));
    return success();
  }

  void runOnOperation() override {
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), *patterns, config)))
      mlir::emitWarning(getOperation().getLoc())
          << "hlo-algebraic-simplifier: the rewrites did not converge";
  }

  std::shared_ptr<FrozenRewritePatternSet> patterns;
};
} // namespace
