//===- HloTopKCalls.h - XLA's top-k custom calls ----------------*- C++ -*-===//
//
// XLA's TopkRewriter makes a top-k of rows a custom call `TopK` (and
// XLA-GPU's TopkSpecializer one of its kernel, `__gpu$TopK`):
//
//   (T[..., k], s32[..., k]) custom-call(T[..., n] x),
//       custom_call_target="TopK", called_computations={comparator}
//
// the k first elements of each row (the last dimension) of x and their
// indices, as a stable sort of the row by the comparator (of two values,
// or of two values and two s32 indices) orders them. XLA's verifier leaves
// custom calls alone; readTopKCall checks one such call's shapes once for
// the passes, the interpreter and the top-k emitter.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOTOPKCALLS_H
#define HLO_DIALECT_HLO_HLOTOPKCALLS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include <string>

namespace mlir::hlo {

/// A top-k custom call, read and checked.
struct TopKCall {
  CustomCallOp op;
  /// The operand (`[..., n]`) and the results (`[..., k]`).
  RankedTensorType input, values, indices;
  /// The rows (the product of all dimensions but the last), their length
  /// and the elements kept of each.
  int64_t rows = 1, n = 0, k = 0;
  /// The comparator computation.
  FlatSymbolRefAttr comparator;
};

/// Whether `target` is a top-k custom call target (`TopK`, `__gpu$TopK`).
bool isTopKTarget(StringRef target);

/// `op` as a top-k call; failure with `why` (a sentence without the
/// target) when it is not one or its shapes do not fit: one static array
/// operand of rank >= 1, a (values, s32 indices) result of its shape but
/// for the last dimension, k <= n, and one called computation.
FailureOr<TopKCall> readTopKCall(CustomCallOp op, std::string &why);

/// Whether `call` is one the top-k kernel (`thunk.top_k`) takes: f32 or
/// bf16 elements, arrays laid out row-major, 1 <= k <= 16, fewer than 2^31
/// rows of fewer than 2^31 elements; `why` says what it is not.
bool isTopKKernelCall(const TopKCall &call, std::string &why);

/// Whether every float compare of `comparator` orders by total order
/// (`TOTALORDER`); a compare of the floats themselves ties -0 and +0.
bool comparesByTotalOrder(ComputationOp comparator);

} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLOTOPKCALLS_H
