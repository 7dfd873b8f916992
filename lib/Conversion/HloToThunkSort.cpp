//===- HloToThunkSort.cpp - hlo-to-thunk: radix sorts and top-k -----------===//
//
// XLA-GPU's CUB sort calls (`xla.gpu.ext.cub_sort_keys` / `_pairs`, of
// hlo-sort-rewriter and hlo-estimate-cub-sort-scratch-size) become
// `thunk.radix_sort`: the operands' slices in, the result tuple's arrays
// and scratch out. CUB sorts contiguous rows: the thunk's verifier takes
// row-major arrays only, as GPU layout assignment leaves custom calls'
// operands. Its top-k kernel calls (`__gpu$TopK`, of hlo-topk-specializer,
// which hlo-fusion-wrapper leaves unfused unless asked for the emitted
// kernel) become `thunk.top_k`, as XLA runs them by a custom kernel
// thunk.
//
//===----------------------------------------------------------------------===//

#include "HloToThunk.h"

#include "Hlo/Dialect/Hlo/HloCubSortCalls.h"
#include "Hlo/Dialect/Hlo/HloTopKCalls.h"

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

LogicalResult ThunkLowering::lowerTopK(CustomCallOp op) {
  std::string why;
  FailureOr<TopKCall> call = readTopKCall(op, why);
  if (failed(call) || !isTopKKernelCall(*call, why))
    return op.emitError("hlo-to-thunk: __gpu$TopK ") << why;
  auto comparator = symbols.lookup<ComputationOp>(call->comparator.getAttr());
  if (!comparator)
    return op.emitError("hlo-to-thunk: __gpu$TopK's comparator is missing");
  FailureOr<Value> input =
      slice(op, getDataOperands(op)[0], 0, getSignatureType(call->input));
  FailureOr<Value> values =
      slice(op, op.getResult(), 1, getSignatureType(call->values));
  FailureOr<Value> indices =
      slice(op, op.getResult(), 2, getSignatureType(call->indices));
  if (failed(input) || failed(values) || failed(indices))
    return failure();
  auto thunk = th::TopKOp::create(
      b, op.getLoc(), *input, *values, *indices,
      comparesByTotalOrder(comparator) ? b.getUnitAttr() : UnitAttr());
  return mlir::verify(thunk);
}
