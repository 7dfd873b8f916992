//===- HloTransformerEngineCalls.h - TE's FFI calls -------------*- C++ -*-===//
//-*-===//
//
// NVIDIA Transformer Engine's JAX extension lowers its fused softmax to
// typed-FFI custom calls that TE's library registers with XLA:
//
//   y = bf16[b,h,q,k] custom-call(x), custom_call_target=
//     "te_scaled_softmax_forward_ffi", api_version=API_VERSION_TYPED_FFI,
//     backend_config={scale_factor = 0.2 : f64}
//
// y = softmax(scale_factor * x) over the last dimension, computed in f32
// and rounded to x's type (TE's kernels take f16 and bf16 arrays of rank
// 4, [batch, heads, queries, keys]). Read and checked here once: the
// op's verifier, the interpreter and hlo-transformer-engine-softmax-expander
// (which makes it HLO that the GPU pipeline compiles) share it. TE's masked
// and backward softmax calls are not read (not yet here).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOTRANSFORMERENGINECALLS_H
#define HLO_DIALECT_HLO_HLOTRANSFORMERENGINECALLS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::hlo {

class CustomCallOp;

/// The target of TE's scaled softmax (forward).
constexpr llvm::StringLiteral kTeScaledSoftmaxForward =
    "te_scaled_softmax_forward_ffi";

/// A TE scaled softmax call: softmax(scale * x) over the last dimension.
struct TeScaledSoftmaxCall {
  double scale = 1.0;
};

/// `op` read as TE's scaled softmax forward call: one f16, bf16 or f32
/// array of rank 4 in, one of the same type out, a finite `scale_factor`
/// in its FFI attributes. Failure with `why` where it is malformed.
FailureOr<TeScaledSoftmaxCall> readTeScaledSoftmaxCall(CustomCallOp op,
                                                       std::string &why);

} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLOTRANSFORMERENGINECALLS_H
