//===- HloToThunkSort.cpp - hlo-to-thunk: CUB radix sorts -----------------===//
//
// XLA-GPU's CUB sort calls (`xla.gpu.ext.cub_sort_keys` / `_pairs`, of
// hlo-sort-rewriter and hlo-estimate-cub-sort-scratch-size) become
// `thunk.radix_sort`: the operands' slices in, the result tuple's arrays
// and scratch out. CUB sorts contiguous rows: the thunk's verifier takes
// row-major arrays only, as GPU layout assignment leaves custom calls'
// operands.
//
//===----------------------------------------------------------------------===//

#include "HloToThunk.h"

#include "Hlo/Dialect/Hlo/HloCubSortCalls.h"

#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::hlo;

LogicalResult ThunkLowering::lowerCubSort(CustomCallOp op) {
  std::string why;
  FailureOr<CubSortCall> call = readCubSortCall(op, why);
  if (failed(call))
    return op.emitError("hlo-to-thunk: ")
           << op.getCustomCallTarget() << " " << why;
  if (!call->assigned)
    return op.emitError("hlo-to-thunk: ")
           << kCubSortUnassignedTarget
           << " has no scratch size yet (run "
              "hlo-estimate-cub-sort-scratch-size)";
  ValueRange operands = getDataOperands(op);
  SmallVector<Value> slices;
  // Operands, then the result tuple's elements (nodes 1, 2, ...), typed
  // with their shapes (rows) and element types (the keys' order).
  for (unsigned i = 0, e = operands.size(); i < 2 * e + 1; ++i) {
    auto type = cast<RankedTensorType>(
        i < e ? operands[i].getType()
              : cast<TupleType>(op.getType()).getType(i - e));
    FailureOr<Value> s =
        i < e ? slice(op, operands[i], 0, getSignatureType(type))
              : slice(op, op.getResult(), i - e + 1, getSignatureType(type));
    if (failed(s))
      return failure();
    slices.push_back(*s);
  }
  bool pairs = operands.size() == 2;
  auto thunk = th::RadixSortOp::create(
      b, op.getLoc(), slices[0], pairs ? slices[1] : Value(),
      slices[operands.size()], pairs ? slices[3] : Value(), slices.back(),
      call->descending ? b.getUnitAttr() : UnitAttr());
  return mlir::verify(thunk);
}
