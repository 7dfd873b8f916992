//===- HloToThunkDynamic.cpp - hlo-to-thunk: bounded dynamic arrays -------===//
//
// What the dynamic padder leaves of bounded dynamic arrays: `PadToStatic`
// (a dynamic array -> the array at its bounds and one s32 size per
// dimension) and `SliceToDynamic` (the inverse) become
// `thunk.pad_to_static` / `thunk.slice_to_dynamic`. A dynamic array's
// slice is its bytes as XLA stores it (the elements dense over the runtime
// sizes in the layout's order, then the sizes); the array at its bounds is
// typed with its layout's strides, which give that order.
//
//===----------------------------------------------------------------------===//

#include "HloToThunk.h"

#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::hlo;

LogicalResult ThunkLowering::lowerDynamicShape(CustomCallOp call) {
  bool pad = call.getCustomCallTarget() == "PadToStatic";
  ValueRange operands = getDataOperands(call);
  // The array at its bounds: PadToStatic's result element 0 (node 1),
  // SliceToDynamic's operand 0.
  Value bounded = pad ? Value(call) : operands.front();
  unsigned boundedNode = pad ? 1 : 0;
  Type boundedType = bounded.getType();
  if (auto tuple = dyn_cast<TupleType>(boundedType))
    boundedType = tuple.size() ? tuple.getType(0) : Type();
  auto tensor = dyn_cast_or_null<RankedTensorType>(boundedType);
  int64_t rank = tensor ? tensor.getRank() : 0;
  if (!tensor || !tensor.hasStaticShape() ||
      (pad ? operands.size() != 1 : int64_t(operands.size()) != rank + 1))
    return call.emitError("hlo-to-thunk: ")
           << call.getCustomCallTarget()
           << " needs a static array and one size per dimension";
  FailureOr<Value> array =
      slice(call, bounded, boundedNode, getSignatureType(tensor));
  FailureOr<Value> dynamic =
      pad ? slice(call, operands.front()) : slice(call, call);
  if (failed(array) || failed(dynamic))
    return failure();
  SmallVector<Value> sizes;
  auto sizeType = MemRefType::get({1}, b.getI32Type());
  for (int64_t d = 0; d < rank; ++d) {
    FailureOr<Value> s = pad ? slice(call, call, 2 + d, sizeType)
                             : slice(call, operands[1 + d], 0, sizeType);
    if (failed(s))
      return failure();
    sizes.push_back(*s);
  }
  Operation *thunk =
      pad ? th::PadToStaticOp::create(b, call.getLoc(), *dynamic, *array, sizes)
                .getOperation()
          : th::SliceToDynamicOp::create(b, call.getLoc(), *array, sizes,
                                         *dynamic)
                .getOperation();
  return mlir::verify(thunk);
}
