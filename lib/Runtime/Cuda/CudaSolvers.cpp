//===- CudaSolvers.cpp - trsm by cuBLAS, potrf by cuSOLVER ----------------===//
//
// Column-major matrices as both libraries read them (the verifier's
// Fortran strides): trsm with alpha 1 from the host, m x n b, leading
// dimensions the matrices' rows; cuSOLVER's 64-bit potrf
// (cusolverDnXpotrf) with the element type as its compute type. Nothing
// here has run on a GPU yet.
//
//===----------------------------------------------------------------------===//

#include "CudaSolvers.h"

#include <climits>
#include <vector>

using namespace mlir;
using namespace mlir::thunk;
using namespace mlir::thunk::cuda;

/// cuSOLVER's name for an element type, if it factors it.
static std::optional<cudaDataType> dataType(Type t) {
  if (t.isF32())
    return CUDA_R_32F;
  if (t.isF64())
    return CUDA_R_64F;
  if (auto c = dyn_cast<ComplexType>(t)) {
    if (c.getElementType().isF32())
      return CUDA_C_32F;
    if (c.getElementType().isF64())
      return CUDA_C_64F;
  }
  return std::nullopt;
}

static cublasFillMode_t fillMode(bool lower) {
  return lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
}

/// The device and host workspace bytes potrf asks for one matrix of `op`
/// (they depend on its shape and type only: no matrix is read).
static LogicalResult potrfBufferSizes(const Cusolver &solver, CholeskyOp op,
                                      size_t &device, size_t &host,
                                      std::string &error) {
  std::optional<cudaDataType> type =
      dataType(op.getA().getType().getElementType());
  if (!type) {
    error = "thunk.cholesky: cuSOLVER factors f32, f64, complex<f32> and "
            "complex<f64>";
    return failure();
  }
  int64_t n = op.getOrder();
  if (cusolverStatus_t s = solver.cusolverDnXpotrf_bufferSize(
          solver.handle, solver.params, fillMode(op.getLower()), n, *type,
          nullptr, std::max<int64_t>(n, 1), *type, &device, &host)) {
    error = solver.describe("cusolverDnXpotrf_bufferSize", s);
    return failure();
  }
  return success();
}

FailureOr<size_t>
mlir::thunk::cuda::choleskyWorkspaceBytes(const Cusolver &solver, CholeskyOp op,
                                          std::string &error) {
  size_t device = 0, host = 0;
  if (failed(potrfBufferSizes(solver, op, device, host, error)))
    return failure();
  return device;
}

LogicalResult
mlir::thunk::cuda::runTriangularSolve(const Cublas &blas, TriangularSolveOp op,
                                      CUdeviceptr a, CUdeviceptr b,
                                      CUstream stream, std::string &error) {
  if (cublasStatus_t s = blas.cublasSetStream_v2(blas.handle, stream)) {
    error = blas.describe("cublasSetStream", s);
    return failure();
  }
  int64_t m = op.getRows(), n = op.getColumns();
  int64_t order = op.getLeftSide() ? m : n;
  if (m > INT_MAX || n > INT_MAX) {
    error = "thunk.triangular_solve: matrices larger than cuBLAS's int sizes";
    return failure();
  }
  cublasSideMode_t side =
      op.getLeftSide() ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
  cublasFillMode_t fill = fillMode(op.getLower());
  cublasOperation_t trans =
      op.getTransposeA() == TrsmTranspose::None        ? CUBLAS_OP_N
      : op.getTransposeA() == TrsmTranspose::Transpose ? CUBLAS_OP_T
                                                       : CUBLAS_OP_C;
  cublasDiagType_t diag =
      op.getUnitDiagonal() ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
  int lda = std::max<int64_t>(order, 1), ldb = std::max<int64_t>(m, 1);
  Type element = op.getB().getType().getElementType();
  int64_t bytes = getElementStorageBytes(element);
  for (int64_t i = 0, e = op.getBatch(); i < e; ++i) {
    void *am = reinterpret_cast<void *>(a + i * order * order * bytes);
    void *bm = reinterpret_cast<void *>(b + i * m * n * bytes);
    cublasStatus_t s;
    if (element.isF32()) {
      float one = 1;
      s = blas.cublasStrsm_v2(blas.handle, side, fill, trans, diag, m, n, &one,
                              static_cast<float *>(am), lda,
                              static_cast<float *>(bm), ldb);
    } else if (element.isF64()) {
      double one = 1;
      s = blas.cublasDtrsm_v2(blas.handle, side, fill, trans, diag, m, n, &one,
                              static_cast<double *>(am), lda,
                              static_cast<double *>(bm), ldb);
    } else if (bytes == 8) {
      cuComplex one = {1, 0};
      s = blas.cublasCtrsm_v2(blas.handle, side, fill, trans, diag, m, n, &one,
                              static_cast<cuComplex *>(am), lda,
                              static_cast<cuComplex *>(bm), ldb);
    } else {
      cuDoubleComplex one = {1, 0};
      s = blas.cublasZtrsm_v2(blas.handle, side, fill, trans, diag, m, n, &one,
                              static_cast<cuDoubleComplex *>(am), lda,
                              static_cast<cuDoubleComplex *>(bm), ldb);
    }
    if (s) {
      error = blas.describe("cublas?trsm", s);
      return failure();
    }
  }
  return success();
}

LogicalResult
mlir::thunk::cuda::runCholesky(const Cusolver &solver, CholeskyOp op,
                               CUdeviceptr a, CUdeviceptr info,
                               CUdeviceptr workspace, size_t workspaceBytes,
                               CUstream stream, std::string &error) {
  size_t deviceBytes = 0, hostBytes = 0;
  if (failed(potrfBufferSizes(solver, op, deviceBytes, hostBytes, error)))
    return failure();
  if (deviceBytes > workspaceBytes) {
    error = "thunk.cholesky: cuSOLVER asks for " + std::to_string(deviceBytes) +
            " workspace bytes, " + std::to_string(workspaceBytes) + " given";
    return failure();
  }
  if (cusolverStatus_t s = solver.cusolverDnSetStream(solver.handle, stream)) {
    error = solver.describe("cusolverDnSetStream", s);
    return failure();
  }
  Type element = op.getA().getType().getElementType();
  cudaDataType type = *dataType(element);
  int64_t n = op.getOrder();
  int64_t bytes = getElementStorageBytes(element);
  std::vector<uint8_t> host(hostBytes);
  for (int64_t i = 0, e = op.getBatch(); i < e; ++i) {
    if (cusolverStatus_t s = solver.cusolverDnXpotrf(
            solver.handle, solver.params, fillMode(op.getLower()), n, type,
            reinterpret_cast<void *>(a + i * n * n * bytes),
            std::max<int64_t>(n, 1), type, reinterpret_cast<void *>(workspace),
            workspaceBytes, host.empty() ? nullptr : host.data(), hostBytes,
            reinterpret_cast<int *>(info + 4 * i))) {
      error = solver.describe("cusolverDnXpotrf", s);
      return failure();
    }
  }
  return success();
}
