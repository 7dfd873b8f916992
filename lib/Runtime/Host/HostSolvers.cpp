//===- HostSolvers.cpp - the linear-algebra thunks on the CPU -------------===//
//
// The linear-algebra thunks on the CPU through OpenBLAS, column-major as
// cuBLAS and cuSOLVER read them: cblas_?trsm for triangular solves (one
// call per matrix of the batch, alpha 1, in place on b), and LAPACK
// (Hlo/Runtime/Lapack/Lapack.h) for Cholesky (?potrf; it leaves the other
// triangle as it was, the host zeros it, as the interpreter writes it). The
// other factorizations are shared with the CUDA runtime
// (Hlo/Runtime/Thunk/Factorizations.h).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Thunk/ThunkDialect.h"
#include "Hlo/Runtime/Host/HostRuntime.h"
#include "Hlo/Runtime/Lapack/Lapack.h"

#include <cblas.h>

#include <climits>
#include <complex>

using namespace mlir;
using namespace mlir::thunk;
using namespace mlir::hlo;

namespace {

/// The BLAS/LAPACK entry points of one element type.
template <typename T> struct Blas;

template <> struct Blas<float> {
  static void trsm(CBLAS_SIDE s, CBLAS_UPLO u, CBLAS_TRANSPOSE t, CBLAS_DIAG d,
                   int m, int n, float *a, int lda, float *b, int ldb) {
    cblas_strsm(CblasColMajor, s, u, t, d, m, n, 1.0f, a, lda, b, ldb);
  }
};

template <> struct Blas<double> {
  static void trsm(CBLAS_SIDE s, CBLAS_UPLO u, CBLAS_TRANSPOSE t, CBLAS_DIAG d,
                   int m, int n, double *a, int lda, double *b, int ldb) {
    cblas_dtrsm(CblasColMajor, s, u, t, d, m, n, 1.0, a, lda, b, ldb);
  }
};

template <typename R> struct ComplexBlas {
  using T = std::complex<R>;
  static void trsm(CBLAS_SIDE s, CBLAS_UPLO u, CBLAS_TRANSPOSE t, CBLAS_DIAG d,
                   int m, int n, T *a, int lda, T *b, int ldb) {
    T one(1);
    if constexpr (std::is_same_v<R, float>)
      cblas_ctrsm(CblasColMajor, s, u, t, d, m, n, &one, a, lda, b, ldb);
    else
      cblas_ztrsm(CblasColMajor, s, u, t, d, m, n, &one, a, lda, b, ldb);
  }
};

template <> struct Blas<std::complex<float>> : ComplexBlas<float> {};
template <> struct Blas<std::complex<double>> : ComplexBlas<double> {};

template <typename T>
void trsm(TriangularSolveOp op, uint8_t *aBytes, uint8_t *bBytes) {
  int m = op.getRows(), n = op.getColumns();
  int order = op.getLeftSide() ? m : n;
  CBLAS_TRANSPOSE trans =
      op.getTransposeA() == TrsmTranspose::None        ? CblasNoTrans
      : op.getTransposeA() == TrsmTranspose::Transpose ? CblasTrans
                                                       : CblasConjTrans;
  T *a = reinterpret_cast<T *>(aBytes), *b = reinterpret_cast<T *>(bBytes);
  for (int64_t i = 0, e = op.getBatch(); i < e; ++i)
    Blas<T>::trsm(op.getLeftSide() ? CblasLeft : CblasRight,
                  op.getLower() ? CblasLower : CblasUpper, trans,
                  op.getUnitDiagonal() ? CblasUnit : CblasNonUnit, m, n,
                  a + i * order * order, std::max(order, 1),
                  b + i * int64_t(m) * n, std::max(m, 1));
}

/// Calls `f` with a value of the C++ type of element type `t` (f32, f64,
/// complex of either) when the matrices of `type` have int dimensions;
/// fails otherwise.
template <typename F> LogicalResult withSolverType(MemRefType type, F &&f) {
  for (int64_t d : type.getShape())
    if (d > INT_MAX)
      return failure();
  Type t = type.getElementType();
  if (auto c = dyn_cast<ComplexType>(t)) {
    if (c.getElementType().isF32())
      return f(std::complex<float>()), success();
    if (c.getElementType().isF64())
      return f(std::complex<double>()), success();
    return failure();
  }
  if (t.isF32())
    return f(float()), success();
  if (t.isF64())
    return f(double()), success();
  return failure();
}

} // namespace

LogicalResult mlir::thunk::runHostTriangularSolve(Operation *op, uint8_t *a,
                                                  uint8_t *b,
                                                  std::string &error) {
  auto trsmOp = cast<TriangularSolveOp>(op);
  if (failed(withSolverType(trsmOp.getB().getType(), [&](auto element) {
        trsm<decltype(element)>(trsmOp, a, b);
      }))) {
    error = "thunk.triangular_solve: OpenBLAS takes f32, f64, complex<f32> "
            "and complex<f64> matrices of int dimensions";
    return failure();
  }
  return success();
}

LogicalResult mlir::thunk::runHostCholesky(Operation *op, uint8_t *a,
                                           uint8_t *info, std::string &error) {
  auto potrfOp = cast<CholeskyOp>(op);
  MemRefType type = potrfOp.getA().getType();
  std::optional<lapack::Scalar> scalar = lapack::getMatrixScalar(type);
  if (!scalar) {
    error = "thunk.cholesky: LAPACK takes f32, f64, complex<f32> and "
            "complex<f64> matrices of int dimensions";
    return failure();
  }
  // The other triangle zeroed, as the interpreter writes it.
  lapack::potrf(*scalar, potrfOp.getBatch(), potrfOp.getOrder(),
                potrfOp.getLower(), a, reinterpret_cast<int32_t *>(info));
  return success();
}
