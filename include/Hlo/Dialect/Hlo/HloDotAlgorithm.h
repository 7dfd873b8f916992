//===- HloDotAlgorithm.h - operand rounding of dot algorithms ---*- C++ -*-===//
//
// What a dot algorithm (XLA's PrecisionConfig.Algorithm) does to f32
// operands before they multiply: dot_bf16_bf16_f32 and dot_tf32_tf32_f32
// round them to nearest even bf16 and TF32 values, as the tensor cores take
// them; the other algorithms keep them. One rule for the interpreter, the
// loop emitter and the host runtime's GEMM.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLODOTALGORITHM_H
#define HLO_DIALECT_HLO_HLODOTALGORITHM_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "llvm/ADT/bit.h"

#include <cmath>
#include <cstdint>

namespace mlir::hlo {

/// The low mantissa bits of f32 operands that `algorithm` rounds away: 16
/// for bf16, 13 for TF32, 0 for the others.
inline unsigned getDroppedOperandBits(DotAlgorithm algorithm) {
  if (algorithm == DotAlgorithm::DotBF16BF16F32)
    return 16;
  if (algorithm == DotAlgorithm::DotTF32TF32F32)
    return 13;
  return 0;
}

/// `f` rounded to nearest even with its `dropped` low bits zero (NaNs kept;
/// a value rounding past the largest finite one becomes inf).
inline float roundDroppingBits(float f, unsigned dropped) {
  if (dropped == 0 || std::isnan(f))
    return f;
  uint32_t low = (1u << dropped) - 1;
  uint32_t bits = llvm::bit_cast<uint32_t>(f);
  bits += (low >> 1) + ((bits >> dropped) & 1);
  return llvm::bit_cast<float>(bits & ~low);
}

} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLODOTALGORITHM_H
