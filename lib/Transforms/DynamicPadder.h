//===- DynamicPadder.h - the padder of hlo-dynamic-padder --------*- C++
//-*-===//
//
// Private to lib/Transforms: the state of hlo-dynamic-padder on one entry
// computation (the runtime size of each dynamic dimension) and the type
// helpers its two files share. DynamicPadder.cpp has the pass, the entry's
// parameters and outputs and the final static types; DynamicPadderRules.cpp
// the rule of each instruction (XLA's DynamicDimensionInference and the
// padder's rewrites).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_DYNAMICPADDER_H
#define HLO_LIB_TRANSFORMS_DYNAMICPADDER_H

#include "ExpanderUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir::hlo::padder {

/// The layout of `type` if it has bounded dynamic dimensions.
LayoutAttr boundedLayout(Type type);
/// True if `type` (or an element of it) has a dynamic dimension.
bool hasDynamicDims(Type type);
/// True if dimension `d` of `type` is a bounded dynamic dimension.
bool isDynamicDim(Type type, int64_t d);
/// `type` with its bounded dynamic dimensions at their bounds and the
/// bounds dropped from its layout (tuples element by element).
Type staticType(Type type);
/// The static shape of the array `v`.
ArrayRef<int64_t> shapeOf(Value v);

/// Pads the entry computation of one module.
class Padder {
public:
  Padder(ComputationOp entry, bool sliceOutput)
      : entry(entry), sliceOutput(sliceOutput), builder(entry.getContext()),
        i32(builder.getI32Type()) {}

  LogicalResult run();

private:
  /// The runtime size of dimension `d` of `v`: null when it is the bound.
  Value size(Value v, int64_t d) const { return sizes.lookup({v, d}); }
  void setSize(Value v, int64_t d, Value s) {
    if (!s || !isDynamicDim(v.getType(), d))
      return;
    sizes[{v, d}] = s;
    dynamic.insert(v);
  }
  /// Dimension `to` of `result` has the size of dimension `from` of `v`.
  void forward(Value v, int64_t from, Value result, int64_t to) {
    setSize(result, to, size(v, from));
  }
  /// The size of dimension `d` of `v` as a value: the bound when unknown.
  Value sizeOrBound(Value v, int64_t d) {
    Value s = size(v, d);
    return s ? s : constant(shapeOf(v)[d]);
  }

  Value constant(int64_t v) {
    return ExpansionBuilder(builder, loc)
        .splatInt(RankedTensorType::get({}, i32), v);
  }
  Value create(StringRef name, Type type, ValueRange operands,
               ArrayRef<NamedAttribute> attrs = {}) {
    return ExpansionBuilder(builder, loc).create(name, type, operands, attrs);
  }
  template <typename OpT> Value scalar(Value a, Value b) {
    return create(OpT::getOperationName(), a.getType(), {a, b});
  }
  /// XLA's PadWithScalar: `x` with the elements at or past `s` along `d`
  /// replaced by the rank-0 value `pad`.
  Value mask(Value x, int64_t d, Value s, Value pad);
  /// The rank-0 zero of `element`.
  Value zero(Type element);

  LogicalResult visit(Operation *op);
  LogicalResult unsupported(Operation *op, const Twine &why);
  LogicalResult visitReshape(ReshapeOp op);
  LogicalResult visitConcatenate(ConcatenateOp op);
  void visitDot(DotOp op);
  LogicalResult visitConvolution(ConvolutionOp op);
  LogicalResult visitPad(PadOp op);
  void padParameters();
  LogicalResult sliceOutputs();
  Value sliceToDynamic(Value v, Type type);

  ComputationOp entry;
  bool sliceOutput;
  OpBuilder builder;
  Location loc = builder.getUnknownLoc();
  Type i32;
  DenseMap<std::pair<Value, int64_t>, Value> sizes;
  DenseSet<Value> dynamic;
  /// set-dimension-size and SliceToDynamic: replaced by their operand once
  /// every type is static.
  SmallVector<Operation *> forwarded;
  /// Ops whose result keeps its dynamic type (the entry's outputs).
  DenseSet<Operation *> keepType;
};

} // namespace mlir::hlo::padder

#endif // HLO_LIB_TRANSFORMS_DYNAMICPADDER_H
