//===- HloCubSortCalls.h - XLA-GPU's CUB radix sort calls -------*- C++ -*-===//
//
// XLA-GPU's SortRewriter makes a sort it can give to CUB's radix sort a
// custom call (XLA 0.10.2's names):
//
//   (K[..., n], [V[..., n],] u8[scratch]) custom-call(keys [, values]),
//       custom_call_target="xla.gpu.ext.cub_sort_unassigned_scratch_size",
//       backend_config={"descending":false}
//
// and its deviceless-estimate-cub-sort-scratch-size sizes the scratch and
// names the typed-FFI handler, `xla.gpu.ext.cub_sort_keys` or
// `xla.gpu.ext.cub_sort_pairs`, with backend_config
// `{descending = false, batch_size = B : i64}`. Either sorts every row (the
// last dimension) of `keys` stably by CUB's order of the key type (integers
// by value; floats by their total order, -NaN < -inf < ... < -0 < +0 < ...
// < inf < NaN), ascending or descending, and `values` along with them.
// XLA's verifier leaves custom calls alone; readCubSortCall checks one such
// call once for the passes, the interpreter and hlo-to-thunk.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOCUBSORTCALLS_H
#define HLO_DIALECT_HLO_HLOCUBSORTCALLS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include <string>

namespace mlir::hlo {

/// XLA 0.10.2's targets.
inline constexpr llvm::StringLiteral kCubSortUnassignedTarget =
    "xla.gpu.ext.cub_sort_unassigned_scratch_size";
inline constexpr llvm::StringLiteral kCubSortKeysTarget =
    "xla.gpu.ext.cub_sort_keys";
inline constexpr llvm::StringLiteral kCubSortPairsTarget =
    "xla.gpu.ext.cub_sort_pairs";

/// Whether `target` is one of the three.
bool isCubSortTarget(StringRef target);

/// A CUB sort call, read and checked.
struct CubSortCall {
  CustomCallOp op;
  /// The keys' and (for pairs) the values' array types; the scratch's
  /// bytes.
  RankedTensorType keys, values;
  int64_t scratchBytes = 0;
  /// The rows (the product of all dimensions but the last) and their
  /// length.
  int64_t rows = 1, n = 0;
  bool descending = false;
  /// Whether the scratch is sized (the typed-FFI targets).
  bool assigned = false;
};

/// Whether CUB's radix sort takes keys of element type `t`: integers of 8,
/// 16, 32 or 64 bits, f16, bf16, f32 and f64.
bool isCubSortKeyType(Type t);
/// Whether it moves values of element type `t` along: any integer or float
/// type of 8 to 64 bits, and pred.
bool isCubSortValueType(Type t);

/// `op` as a CUB sort call; failure with `why` (a sentence without the
/// target) when it is not one or does not fit: one or two static arrays of
/// one shape and of key and value types CUB takes, results of their types
/// and a u8 scratch array, keys_only (pairs) for one operand (two) where
/// the target says, a `descending` flag, and a `batch_size` equal to the
/// rows where the backend_config gives one.
FailureOr<CubSortCall> readCubSortCall(CustomCallOp op, std::string &why);

/// The radix key of bits `bits` of an element of key type `t`: the unsigned
/// integer whose order is CUB's order of the keys (the sign bit flipped for
/// signed integers; for floats, all bits of negative values flipped and
/// the sign bit of the others).
uint64_t cubRadixKey(Type t, uint64_t bits);

} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLOCUBSORTCALLS_H
