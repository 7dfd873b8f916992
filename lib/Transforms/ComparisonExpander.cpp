//===- ComparisonExpander.cpp - total-order compares on integers ----------===//
//
// XLA's ComparisonExpander: a float `compare` with `type=TOTALORDER` becomes
// a signed integer compare of keys made from the operands' bits. The key of
// a float is its bit pattern read as a signed integer, with the magnitude
// bits of negative values flipped, so that the integers are ordered as
// -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN. Element types without a
// negative zero (the f8 `fnuz` types, whose sign-only pattern is their NaN)
// map a negative x to INT_MIN - x and their NaN to INT_MIN. A pair
// `from:to` of `expand-via-upcast` converts `from` operands to the wider
// float type `to` first (exactly, so the order is the same).
//
//===----------------------------------------------------------------------===//

#include "ExpanderUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"

#include "mlir/AsmParser/AsmParser.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCOMPARISONEXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// True if every value of float semantics `from` is a value of `to`.
static bool castPreservesValues(const llvm::fltSemantics &from,
                                const llvm::fltSemantics &to) {
  using llvm::APFloat;
  int fromPrecision = APFloat::semanticsPrecision(from);
  int toPrecision = APFloat::semanticsPrecision(to);
  // The smallest denormal is 2^(minExponent - precision + 1).
  return toPrecision >= fromPrecision &&
         APFloat::semanticsMaxExponent(to) >=
             APFloat::semanticsMaxExponent(from) &&
         APFloat::semanticsMinExponent(to) - toPrecision <=
             APFloat::semanticsMinExponent(from) - fromPrecision &&
         (!APFloat::semanticsHasInf(from) || APFloat::semanticsHasInf(to)) &&
         (!APFloat::semanticsHasNaN(from) || APFloat::semanticsHasNaN(to)) &&
         (!APFloat::semanticsHasSignedRepr(from) ||
          APFloat::semanticsHasSignedRepr(to));
}

/// The total-order key of the float array `v`: its bits as a signed integer
/// of the same width, negative values flipped.
static Value totalOrderKey(ExpansionBuilder &b, Value v) {
  auto floatType = cast<FloatType>(ExpansionBuilder::getElementType(v));
  unsigned width = floatType.getWidth();
  Type intType = b.getBuilder().getIntegerType(width);
  Value bits = b.bitcast(v, intType);
  Type type = bits.getType();
  uint64_t min = uint64_t(1) << (width - 1);
  Value zero = b.splatInt(type, 0);
  Value isNegative = b.compare(ComparisonDirection::LT, bits, zero);
  // APFloat gives a positive zero when the type has no negative one.
  Value flipped;
  if (llvm::APFloat::getZero(floatType.getFloatSemantics(), /*Negative=*/true)
          .isNegative()) {
    // -0 (INT_MIN) becomes -1, the most negative NaN INT_MIN.
    flipped = b.elementwise<XorOp>({bits, b.splatInt(type, min - 1)});
  } else {
    // No -0: the negative values start at -1 (the smallest denormal); the
    // sign-only pattern is NaN and goes first.
    Value intMin = b.splatInt(type, min);
    Value isNaN = b.compare(ComparisonDirection::EQ, bits, intMin);
    flipped =
        b.select(isNaN, intMin, b.elementwise<SubtractOp>({intMin, bits}));
  }
  return b.select(isNegative, flipped, bits);
}

namespace {
struct ComparisonExpanderPass
    : ChangeReportingPass<ComparisonExpanderPass,
                          hlo::impl::HloComparisonExpanderBase> {
  using ChangeReportingPass::ChangeReportingPass;

  /// The parsed `expand-via-upcast` pairs.
  SmallVector<std::pair<FloatType, FloatType>> upcasts;

  LogicalResult initialize(MLIRContext *context) override {
    upcasts.clear();
    for (StringRef pair : expandViaUpcast) {
      auto [from, to] = pair.split(':');
      auto fromType = dyn_cast_or_null<FloatType>(
          parseType(from.trim(), context, nullptr, /*isKnownNullTerminated=*/
                    false));
      auto toType = dyn_cast_or_null<FloatType>(
          parseType(to.trim(), context, nullptr, false));
      if (!fromType || !toType)
        return emitError(UnknownLoc::get(context))
               << "expand-via-upcast: '" << pair
               << "' is not a pair of float types 'from:to'";
      if (!castPreservesValues(fromType.getFloatSemantics(),
                               toType.getFloatSemantics()))
        return emitError(UnknownLoc::get(context))
               << "expand-via-upcast: " << toType
               << " does not hold every value of " << fromType;
      upcasts.push_back({fromType, toType});
    }
    return success();
  }

  /// The element type `compare` is done in for operands of `type`.
  FloatType compareType(FloatType type) {
    for (auto [from, to] : upcasts)
      if (from == type)
        return to;
    return type;
  }

  void run() {
    SmallVector<CompareOp> worklist;
    getOperation().walk([&](CompareOp op) {
      if (op.getComparisonType() != ComparisonType::TOTALORDER ||
          hasControlPredecessors(op) || !isStaticArray(op.getType()))
        return;
      auto type =
          dyn_cast<FloatType>(ExpansionBuilder::getElementType(op.getLhs()));
      // A type without a sign bit (f8E8M0FNU) has no order to expand.
      if (type && llvm::APFloat::semanticsHasSignedRepr(
                      compareType(type).getFloatSemantics()))
        worklist.push_back(op);
    });
    for (CompareOp op : worklist) {
      OpBuilder builder(op);
      ExpansionBuilder b(builder, op.getLoc());
      Type type = compareType(
          cast<FloatType>(ExpansionBuilder::getElementType(op.getLhs())));
      Value lhs = totalOrderKey(b, b.convert(op.getLhs(), type));
      Value rhs = totalOrderKey(b, b.convert(op.getRhs(), type));
      Value result = b.create(
          CompareOp::getOperationName(), op.getType(), {lhs, rhs},
          {builder.getNamedAttr("direction", op.getDirectionAttr()),
           builder.getNamedAttr("comparison_type",
                                ComparisonTypeAttr::get(
                                    &getContext(), ComparisonType::SIGNED))});
      transferInstructionAttrs(op, result.getDefiningOp());
      op.getResult().replaceAllUsesWith(result);
      op.erase();
      ++numExpanded;
      changed = true;
    }
  }
};
} // namespace
