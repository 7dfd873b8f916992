//===- ExpanderUtils.h - building HLO expansions ----------------*- C++ -*-===//
//
// Private to lib/Transforms: a small builder for the expander passes
// (XLA's OpExpanderPass family), which replace one instruction by a few
// ordinary HLO instructions: elementwise ops on arrays of one shape,
// scalar constants broadcast to that shape, converts and compares.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_EXPANDERUTILS_H
#define HLO_LIB_TRANSFORMS_EXPANDERUTILS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "TransformUtils.h"

#include "mlir/IR/Builders.h"

namespace mlir::hlo {

/// The dimension a counter-based generator splits `shape` along into two
/// halves: the first even one, else the first largest; -1 for a scalar.
inline int64_t splitDimension(ArrayRef<int64_t> shape) {
  int64_t rank = shape.size(), split = -1;
  for (int64_t d = 0; d < rank && split < 0; ++d)
    if (shape[d] % 2 == 0)
      split = d;
  if (split >= 0)
    return split;
  for (int64_t d = 0; d < rank; ++d)
    if (split < 0 || shape[d] > shape[split])
      split = d;
  return split;
}

/// Builds instructions before the insertion point of `builder`, all at
/// `loc`. Values are arrays of static shape; the arrays it makes have the
/// default layout unless a type is given.
class ExpansionBuilder {
public:
  ExpansionBuilder(OpBuilder &builder, Location loc)
      : builder(builder), loc(loc) {}

  OpBuilder &getBuilder() { return builder; }
  Location getLoc() { return loc; }

  /// `type`'s shape with element type `element` (no layout).
  static RankedTensorType withElementType(Type type, Type element) {
    return RankedTensorType::get(cast<RankedTensorType>(type).getShape(),
                                 element);
  }
  static Type getElementType(Value v) {
    return cast<RankedTensorType>(v.getType()).getElementType();
  }

  /// The instruction `name` of result type `type`.
  Value create(StringRef name, Type type, ValueRange operands,
               ArrayRef<NamedAttribute> attrs = {}) {
    return createInstruction(builder, loc, name, type, operands, attrs)
        ->getResult(0);
  }
  /// An elementwise op whose result has the type of its first operand.
  template <typename OpT> Value elementwise(ValueRange operands) {
    return create(OpT::getOperationName(), operands.front().getType(),
                  operands);
  }

  /// A scalar constant `value` (an attribute of `type`'s element type)
  /// broadcast to `type`'s shape (no layout); made once per builder.
  Value splat(Type type, TypedAttr value) {
    return splat(type, DenseElementsAttr::get(
                           RankedTensorType::get({}, value.getType()), value));
  }
  /// The rank-0 literal `scalar` broadcast to `type`'s shape (no layout);
  /// made once per builder.
  Value splat(Type type, DenseElementsAttr scalar) {
    auto rt = withElementType(type, scalar.getElementType());
    Value &cached = splats[{rt, scalar}];
    if (cached)
      return cached;
    cached = create(ConstantOp::getOperationName(), scalar.getType(), {},
                    {builder.getNamedAttr("value", scalar)});
    if (rt.getRank() != 0)
      cached = create(BroadcastOp::getOperationName(), rt, {cached},
                      {builder.getNamedAttr("dimensions",
                                            builder.getDenseI64ArrayAttr({}))});
    return cached;
  }
  /// `value` of `type`'s float or complex element type (rounded to it; the
  /// imaginary part of a complex is 0).
  Value splatReal(Type type, double value) {
    Type element = cast<RankedTensorType>(type).getElementType();
    auto scalarType = RankedTensorType::get({}, element);
    if (auto complex = dyn_cast<ComplexType>(element)) {
      auto part = cast<FloatType>(complex.getElementType());
      APFloat re(value), im(0.0);
      bool lost;
      re.convert(part.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      im.convert(part.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      std::complex<APFloat> c(re, im);
      return splat(type, DenseElementsAttr::get(scalarType, ArrayRef(c)));
    }
    return splat(type, builder.getFloatAttr(element, value));
  }
  /// `value` of `type`'s integer element type (wrapped to its width).
  Value splatInt(Type type, uint64_t value) {
    auto element =
        cast<IntegerType>(cast<RankedTensorType>(type).getElementType());
    return splat(
        type, builder.getIntegerAttr(element, APInt(element.getWidth(), value,
                                                    /*isSigned=*/false,
                                                    /*implicitTrunc=*/true)));
  }
  /// `compare(lhs, rhs)`, with `type` when given.
  Value compare(ComparisonDirection direction, Value lhs, Value rhs,
                std::optional<ComparisonType> type = std::nullopt) {
    SmallVector<NamedAttribute, 2> attrs = {builder.getNamedAttr(
        "direction",
        ComparisonDirectionAttr::get(builder.getContext(), direction))};
    if (type)
      attrs.push_back(builder.getNamedAttr(
          "comparison_type",
          ComparisonTypeAttr::get(builder.getContext(), *type)));
    return create(CompareOp::getOperationName(),
                  withElementType(lhs.getType(), builder.getI1Type()),
                  {lhs, rhs}, attrs);
  }
  Value select(Value pred, Value onTrue, Value onFalse) {
    return create(SelectOp::getOperationName(), onTrue.getType(),
                  {pred, onTrue, onFalse});
  }
  /// `convert` to element type `element` (same value if it already has it).
  Value convert(Value v, Type element) {
    if (getElementType(v) == element)
      return v;
    return create(ConvertOp::getOperationName(),
                  withElementType(v.getType(), element), {v});
  }
  /// `bitcast-convert` to element type `element` of the same width (same
  /// value if it already has it).
  Value bitcast(Value v, Type element) {
    if (getElementType(v) == element)
      return v;
    return create(BitcastConvertOp::getOperationName(),
                  withElementType(v.getType(), element), {v});
  }

private:
  OpBuilder &builder;
  Location loc;
  DenseMap<std::pair<Type, Attribute>, Value> splats;
};

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_EXPANDERUTILS_H
