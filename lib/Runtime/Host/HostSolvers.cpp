//===- HostSolvers.cpp - thunk.triangular_solve and thunk.cholesky --------===//
//
// The linear-algebra thunks on the CPU through OpenBLAS, column-major as
// cuBLAS and cuSOLVER read them: cblas_?trsm for triangular solves (one
// call per matrix of the batch, alpha 1, in place on b) and LAPACK's ?potrf
// (OpenBLAS ships it) for Cholesky factors. potrf leaves the other triangle
// as it was; the host zeros it, as the interpreter writes it.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Thunk/ThunkDialect.h"
#include "Hlo/Runtime/Host/HostRuntime.h"

#include <cblas.h>

#include <climits>
#include <complex>
#include <cstring>

using namespace mlir;
using namespace mlir::thunk;

// LAPACK's Cholesky factorization (Fortran calling convention; the hidden
// length of the character argument last).
extern "C" {
void spotrf_(const char *uplo, const int *n, float *a, const int *lda,
             int *info, size_t uploLength);
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda,
             int *info, size_t uploLength);
void cpotrf_(const char *uplo, const int *n, std::complex<float> *a,
             const int *lda, int *info, size_t uploLength);
void zpotrf_(const char *uplo, const int *n, std::complex<double> *a,
             const int *lda, int *info, size_t uploLength);
}

// LAPACK's QR factorization and the product of its reflectors.
#define HLO_DECLARE_QR(P, T, ORG)                                              \
  void P##geqrf_(const int *m, const int *n, T *a, const int *lda, T *tau,     \
                 T *work, const int *lwork, int *info);                        \
  void P##ORG##_(const int *m, const int *n, const int *k, T *a,               \
                 const int *lda, const T *tau, T *work, const int *lwork,      \
                 int *info);
extern "C" {
HLO_DECLARE_QR(s, float, orgqr)
HLO_DECLARE_QR(d, double, orgqr)
HLO_DECLARE_QR(c, std::complex<float>, ungqr)
HLO_DECLARE_QR(z, std::complex<double>, ungqr)
}
#undef HLO_DECLARE_QR

namespace {

/// The BLAS/LAPACK entry points of one element type.
template <typename T> struct Blas;

template <> struct Blas<float> {
  static void trsm(CBLAS_SIDE s, CBLAS_UPLO u, CBLAS_TRANSPOSE t, CBLAS_DIAG d,
                   int m, int n, float *a, int lda, float *b, int ldb) {
    cblas_strsm(CblasColMajor, s, u, t, d, m, n, 1.0f, a, lda, b, ldb);
  }
  static constexpr auto potrf = spotrf_;
  static constexpr auto geqrf = sgeqrf_;
  static constexpr auto orgqr = sorgqr_;
};

template <> struct Blas<double> {
  static void trsm(CBLAS_SIDE s, CBLAS_UPLO u, CBLAS_TRANSPOSE t, CBLAS_DIAG d,
                   int m, int n, double *a, int lda, double *b, int ldb) {
    cblas_dtrsm(CblasColMajor, s, u, t, d, m, n, 1.0, a, lda, b, ldb);
  }
  static constexpr auto potrf = dpotrf_;
  static constexpr auto geqrf = dgeqrf_;
  static constexpr auto orgqr = dorgqr_;
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

template <> struct Blas<std::complex<float>> : ComplexBlas<float> {
  static constexpr auto potrf = cpotrf_;
  static constexpr auto geqrf = cgeqrf_;
  static constexpr auto orgqr = cungqr_;
};
template <> struct Blas<std::complex<double>> : ComplexBlas<double> {
  static constexpr auto potrf = zpotrf_;
  static constexpr auto geqrf = zgeqrf_;
  static constexpr auto orgqr = zungqr_;
};

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

template <typename T>
void potrf(CholeskyOp op, uint8_t *aBytes, uint8_t *infoBytes) {
  int n = op.getOrder(), lda = std::max(n, 1);
  bool lower = op.getLower();
  char uplo = lower ? 'L' : 'U';
  T *a = reinterpret_cast<T *>(aBytes);
  for (int64_t i = 0, e = op.getBatch(); i < e; ++i) {
    T *m = a + i * int64_t(n) * n;
    int info = 0;
    if (n > 0)
      Blas<T>::potrf(&uplo, &n, m, &lda, &info, 1);
    std::memcpy(infoBytes + 4 * i, &info, 4);
    // Column-major: element (r, c) at m[c * n + r].
    for (int c = 0; c < n; ++c)
      for (int r = 0; r < n; ++r)
        if (lower ? r < c : r > c)
          m[int64_t(c) * n + r] = T(0);
  }
}

/// geqrf (`product` false) or orgqr / ungqr on each m x n matrix of `a`
/// with its k scales of `tau`, with the workspace LAPACK asks for.
template <typename T>
LogicalResult reflectors(MemRefType type, uint8_t *aBytes, uint8_t *tauBytes,
                         int64_t tauPerMatrix, bool product) {
  ArrayRef<int64_t> shape = type.getShape();
  int m = int(shape.drop_back().back()), n = int(shape.back());
  int k = int(tauPerMatrix), lda = std::max(m, 1);
  int64_t batch = type.getNumElements() / std::max<int64_t>(1, int64_t(m) * n);
  T *a = reinterpret_cast<T *>(aBytes), *tau = reinterpret_cast<T *>(tauBytes);
  auto call = [&](T *matrix, T *scales, T *work, int lwork, int &info) {
    if (product)
      Blas<T>::orgqr(&m, &n, &k, matrix, &lda, scales, work, &lwork, &info);
    else
      Blas<T>::geqrf(&m, &n, matrix, &lda, scales, work, &lwork, &info);
  };
  if (m == 0 || n == 0)
    return success();
  T query(0);
  int info = 0;
  call(a, tau, &query, -1, info);
  std::vector<T> work(std::max<int64_t>(1, int64_t(std::real(query))));
  for (int64_t i = 0; i < batch && info == 0; ++i)
    call(a + i * int64_t(m) * n, tau + i * k, work.data(), int(work.size()),
         info);
  return success(info == 0);
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
  if (failed(withSolverType(potrfOp.getA().getType(), [&](auto element) {
        potrf<decltype(element)>(potrfOp, a, info);
      }))) {
    error = "thunk.cholesky: LAPACK takes f32, f64, complex<f32> and "
            "complex<f64> matrices of int dimensions";
    return failure();
  }
  return success();
}

LogicalResult mlir::thunk::runHostReflectors(Operation *op, uint8_t *a,
                                             uint8_t *tau, std::string &error) {
  bool product = isa<HouseholderProductOp>(op);
  auto aType = cast<MemRefType>(op->getOperand(0).getType());
  auto tauType = cast<MemRefType>(op->getOperand(1).getType());
  int64_t k = tauType.getRank() ? tauType.getShape().back() : 1;
  LogicalResult ran = success();
  if (failed(withSolverType(aType,
                            [&](auto element) {
                              ran = reflectors<decltype(element)>(aType, a, tau,
                                                                  k, product);
                            })) ||
      failed(ran)) {
    error = op->getName().getStringRef().str() +
            ": LAPACK takes f32, f64, complex<f32> and complex<f64> "
            "matrices of int dimensions";
    return failure();
  }
  return success();
}
