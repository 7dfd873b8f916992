//===- CudaInternal.h - the CUDA runtime's parts --------------------------===//

#ifndef HLO_LIB_RUNTIME_CUDA_CUDAINTERNAL_H
#define HLO_LIB_RUNTIME_CUDA_CUDAINTERNAL_H

#include "CudaApi.h"

#include "Hlo/Dialect/Thunk/ThunkDialect.h"

#include <memory>
#include <string>

namespace mlir::thunk::cuda {

/// One `thunk.gemm` planned for cuBLASLt: its descriptors, the layouts of
/// A, B and C (= D), the algorithm, alpha and beta in the scale type.
struct GemmPlan {
  ~GemmPlan();
  const CublasLt *lt = nullptr;
  cublasLtMatmulDesc_t desc = nullptr;
  /// D's layout is `c` but for fp8 outputs, where C (unread: beta is 0)
  /// has a 16-bit type of its own.
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr, d = nullptr;
  cublasLtMatmulAlgo_t algo = {};
  /// The heuristic's candidates (`algo` is candidates[chosen]), which
  /// autotuning times.
  SmallVector<cublasLtMatmulAlgo_t> candidates;
  int64_t chosen = 0;
  size_t workspaceBytes = 0;
  /// Computed as out^T = rhs^T x lhs^T (a row-major output).
  bool swapped = false;
  alignas(16) char alpha[16] = {};
  alignas(16) char beta[16] = {};
};

/// Plans `op` with `workspace` bytes of scratch; `alignment(v)` is the
/// largest power of two (at most 256) dividing slice `v`'s address.
FailureOr<std::unique_ptr<GemmPlan>>
planGemm(const CublasLt &lt, GemmOp op, int64_t workspace,
         llvm::function_ref<uint32_t(Value)> alignment, std::string &error);

/// The device addresses of an fp8 GEMM's f32 scales and amax, and of a C
/// apart from the output (0 where absent).
struct GemmExtras {
  CUdeviceptr a = 0, b = 0, d = 0, amax = 0, c = 0;
};

/// Enqueues the GEMM on `stream` (bias and workspace may be 0).
LogicalResult runGemm(GemmPlan &plan, CUdeviceptr lhs, CUdeviceptr rhs,
                      CUdeviceptr bias, CUdeviceptr out, CUdeviceptr workspace,
                      const GemmExtras &extras, CUstream stream,
                      std::string &error);

} // namespace mlir::thunk::cuda

#endif // HLO_LIB_RUNTIME_CUDA_CUDAINTERNAL_H
