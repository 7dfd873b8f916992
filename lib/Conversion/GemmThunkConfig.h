//===- GemmThunkConfig.h - cuBLAS custom calls as thunk.gemm ----*- C++ -*-===//
//
// The configuration of the `thunk.gemm` a cuBLAS custom call becomes
// (hlo-to-thunk).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_CONVERSION_GEMMTHUNKCONFIG_H
#define HLO_LIB_CONVERSION_GEMMTHUNKCONFIG_H

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Thunk/ThunkDialect.h"

namespace mlir::hlo {

struct GemmThunkConfig {
  thunk::MatrixLayoutAttr lhs, rhs, out;
  thunk::GemmEpilogue epilogue = thunk::GemmEpilogue::Default;
  double alphaReal = 1, alphaImag = 0, beta = 0;
  int64_t algorithm = -1;
  /// Whether products take TF32 operands (ALG_DOT_TF32_TF32_F32).
  bool tf32 = false;
  /// Whether an fp8 GEMM accumulates as cuBLASLt's fast accumulation
  /// (CUBLASLT_MATMUL_DESC_FAST_ACCUM).
  bool fastAccum = false;
  /// Whether the result is the tuple (D, workspace) rather than D alone
  /// (XLA's form before the workspace, which ROCm dumps still write).
  bool hasWorkspace = true;
  /// Whether the result is (D, f32[] amax, workspace) (damax_output).
  bool hasAmax = false;
  /// Whether the epilogue adds a bias.
  bool hasBias() const;
  /// The call's operands: the bias and, of `__cublas$lt$matmul$f8`, the
  /// scales (-1 where absent).
  int64_t bias = -1, aScale = -1, bScale = -1, dScale = -1;
};

/// The `thunk.gemm` configuration of `__cublas$gemm` / `__cublas$lt$matmul`
/// `call` (operands A, B[, C when beta != 0][, bias]; result (D,
/// workspace) or D) or `__cublas$lt$matmul$f8` (A, B[, C], a_scale,
/// b_scale[, bias][, d_scale of an fp8 D]): each operand's batch, row and
/// column dimensions collapse into one each (they must be contiguous, as cuBLAS
/// needs); a matrix whose columns are contiguous is row major, one whose rows
/// are is column major; an operand without batch dimensions has batch stride 0.
/// Failure (with a diagnostic at the call) for what cuBLASLt cannot take.
FailureOr<GemmThunkConfig> getGemmThunkConfig(CustomCallOp call);

} // namespace mlir::hlo

#endif // HLO_LIB_CONVERSION_GEMMTHUNKCONFIG_H
