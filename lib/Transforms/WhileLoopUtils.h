//===- WhileLoopUtils.h - building instructions and counted loops -*- C++
//-*-===//
//
// Private to lib/Transforms: a builder of HLO instructions whose result
// types the caller knows (the expanders compute every shape themselves, so
// nothing is inferred and nothing can fail), and a counted `while` loop
// whose condition and body are new private computations.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_WHILELOOPUTILS_H
#define HLO_LIB_TRANSFORMS_WHILELOOPUTILS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::hlo {

/// Creates HLO instructions at `b`'s insertion point, all at `loc`.
class InstBuilder {
public:
  InstBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  OpBuilder &getBuilder() { return b; }
  Location getLoc() { return loc; }

  /// An `OpT` instruction of result type `type`.
  template <typename OpT>
  Value create(Type type, ValueRange operands,
               ArrayRef<NamedAttribute> attrs = {}) {
    return createInstruction(b, loc, OpT::getOperationName(), type, operands,
                             attrs)
        ->getResult(0);
  }

  /// A scalar constant `value` of element type `elementType` (made once
  /// per builder: the insertion point must stay in one block and move
  /// forward only).
  Value scalar(Type elementType, int64_t value);
  /// `value` of element type `elementType`, broadcast to `shape`.
  Value splat(Type elementType, int64_t value, ArrayRef<int64_t> shape);
  /// Scalar `s` broadcast to array type `type`.
  Value broadcast(Value s, Type type);
  /// `v` reshaped to `shape` (same element type, no layout); `v` itself
  /// when it has that shape.
  Value reshape(Value v, ArrayRef<int64_t> shape);
  /// `v` transposed by `perm` (result dimension i is dimension perm[i]);
  /// `v` itself for the identity.
  Value transpose(Value v, ArrayRef<int64_t> perm);
  /// `v` converted to element type `elementType` (`v` if it has it).
  Value convert(Value v, Type elementType);
  /// The scalar at `index` of `v` (a static slice, reshaped).
  Value element(Value v, ArrayRef<int64_t> index);
  /// dynamic-slice of `v` at `starts`, of `sizes`.
  Value dynamicSlice(Value v, ValueRange starts, ArrayRef<int64_t> sizes);
  /// dynamic-update-slice of `v` by `update` at `starts`.
  Value dynamicUpdateSlice(Value v, Value update, ValueRange starts);
  /// Elementwise comparison of `lhs` and `rhs` (pred result).
  Value compare(Value lhs, Value rhs, ComparisonDirection direction);
  /// get-tuple-element `index` of `tuple`.
  Value getTupleElement(Value tuple, int64_t index);
  /// A tuple of `elements`.
  Value tuple(ValueRange elements);

private:
  OpBuilder &b;
  Location loc;
  DenseMap<std::pair<Type, int64_t>, Value> scalars;
};

/// The type of `v` as a ranked tensor.
inline RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// The body of a counted loop: given an InstBuilder inside the body
/// computation, the induction variable (an s32 scalar) and the loop-carried
/// values, returns their values for the next iteration (same types).
using CountedLoopBody =
    function_ref<SmallVector<Value>(InstBuilder &, Value, ValueRange)>;

/// Whether a loop goes on, given an InstBuilder inside its condition
/// computation and the loop-carried values: a pred scalar.
using LoopGoesOn = function_ref<Value(InstBuilder &, ValueRange)>;

/// Builds `for (i = 0; i < tripCount; ++i) state = body(i, state)` at `ib`'s
/// insertion point: an hlo.while over tuple(i, state...) whose condition
/// and body are new private computations (`<name>_condition`,
/// `<name>_body`, renamed on a clash) inserted before `parent`, on its
/// execution thread. `tripCount` must fit in s32. With `goesOn`, the loop
/// also stops before the first trip where it is false. Returns the first
/// `numResults` state values after the loop.
SmallVector<Value> buildCountedLoop(InstBuilder &ib, SymbolTable &symbols,
                                    ComputationOp parent, StringRef name,
                                    int64_t tripCount, ValueRange init,
                                    CountedLoopBody body, size_t numResults,
                                    LoopGoesOn goesOn = nullptr);

/// A new private computation with parameters of `argTypes` and an empty
/// body block, inserted before `parent` (on its execution thread) under
/// `name` (renamed on a clash). The caller adds the instructions and the
/// hlo.return, then sets the result type with `setComputationResult`.
ComputationOp createComputation(SymbolTable &symbols, ComputationOp parent,
                                StringRef name, TypeRange argTypes,
                                Location loc);

/// Ends `comp`'s body with `hlo.return root` and makes `root`'s type the
/// computation's result type.
void setComputationResult(ComputationOp comp, OpBuilder &b, Value root);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_WHILELOOPUTILS_H
