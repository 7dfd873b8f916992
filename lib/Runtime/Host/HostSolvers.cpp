//===- HostSolvers.cpp - the linear-algebra thunks on the CPU -------------===//
//
// The linear-algebra thunks on the CPU through OpenBLAS, column-major as
// cuBLAS and cuSOLVER read them: cblas_?trsm for triangular solves (one
// call per matrix of the batch, alpha 1, in place on b), and LAPACK
// (Hlo/Runtime/Lapack/Lapack.h) for Cholesky (?potrf; it leaves the other
// triangle as it was, the host zeros it, as the interpreter writes it), QR
// (?geqrf, ?orgqr / ?ungqr), LU (?getrf), eigendecompositions (?syevd / ?heevd)
// and singular value decompositions (?gesdd; V for cuSOLVER's gesvdj, which
// returns V, as the conjugate transpose of LAPACK's V^H).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Thunk/ThunkDialect.h"
#include "Hlo/Runtime/Host/HostRuntime.h"
#include "Hlo/Runtime/Lapack/Lapack.h"

#include <cblas.h>

#include <climits>
#include <complex>
#include <cstring>

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

/// The LAPACK element type of a batch of matrices of int dimensions.
std::optional<lapack::Scalar> solverScalar(MemRefType type) {
  for (int64_t d : type.getShape())
    if (d > INT_MAX)
      return std::nullopt;
  return lapack::getScalar(type.getElementType());
}

/// (batch, rows, columns) of a batch of matrices.
std::tuple<int64_t, int, int> matrixShape(MemRefType type) {
  ArrayRef<int64_t> shape = type.getShape();
  int m = int(shape.drop_back().back()), n = int(shape.back());
  return {type.getNumElements() / std::max<int64_t>(1, int64_t(m) * n), m, n};
}

/// The conjugate transpose of a column-major rows x cols matrix.
template <typename T>
void adjoint(const uint8_t *fromBytes, uint8_t *toBytes, int64_t rows,
             int64_t cols) {
  const T *from = reinterpret_cast<const T *>(fromBytes);
  T *to = reinterpret_cast<T *>(toBytes);
  for (int64_t c = 0; c < cols; ++c)
    for (int64_t r = 0; r < rows; ++r) {
      T x = from[c * rows + r];
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
        to[r * cols + c] = x;
      else
        to[r * cols + c] = std::conj(x);
    }
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
  std::optional<lapack::Scalar> scalar = solverScalar(type);
  if (!scalar) {
    error = "thunk.cholesky: LAPACK takes f32, f64, complex<f32> and "
            "complex<f64> matrices of int dimensions";
    return failure();
  }
  int n = potrfOp.getOrder();
  bool lower = potrfOp.getLower();
  auto *infos = reinterpret_cast<int32_t *>(info);
  lapack::potrf(*scalar, potrfOp.getBatch(), n, lower, a, infos);
  // potrf leaves the other triangle as it was: zero it, as the interpreter
  // writes it. Column-major: element (r, c) at c * n + r.
  int64_t size = lapack::sizeOf(*scalar);
  for (int64_t i = 0, e = potrfOp.getBatch(); i < e; ++i)
    for (int64_t c = 0; c < n; ++c)
      for (int64_t r = 0; r < n; ++r)
        if (lower ? r < c : r > c)
          std::memset(a + ((i * n + c) * n + r) * size, 0, size);
  return success();
}

LogicalResult mlir::thunk::runHostReflectors(Operation *op, uint8_t *a,
                                             uint8_t *tau, std::string &error) {
  auto aType = cast<MemRefType>(op->getOperand(0).getType());
  auto tauType = cast<MemRefType>(op->getOperand(1).getType());
  std::optional<lapack::Scalar> scalar = solverScalar(aType);
  auto [batch, m, n] = matrixShape(aType);
  int k = tauType.getRank() ? int(tauType.getShape().back()) : 1;
  bool ran = scalar && (isa<HouseholderProductOp>(op)
                            ? lapack::orgqr(*scalar, batch, m, n, k, a, tau)
                            : lapack::geqrf(*scalar, batch, m, n, a, tau));
  if (!ran) {
    error = op->getName().getStringRef().str() +
            ": LAPACK takes f32, f64, complex<f32> and complex<f64> "
            "matrices of int dimensions";
    return failure();
  }
  return success();
}

LogicalResult mlir::thunk::runHostLu(LuOp op, uint8_t *a, uint8_t *pivots,
                                     uint8_t *info, std::string &error) {
  MemRefType type = op.getA().getType();
  std::optional<lapack::Scalar> scalar = solverScalar(type);
  if (!scalar) {
    error = "thunk.lu: LAPACK takes f32, f64, complex<f32> and complex<f64> "
            "matrices of int dimensions";
    return failure();
  }
  auto [batch, m, n] = matrixShape(type);
  lapack::getrf(*scalar, batch, m, n, a, reinterpret_cast<int32_t *>(pivots),
                reinterpret_cast<int32_t *>(info));
  return success();
}

void mlir::thunk::runHostPivotsToPermutation(LuPivotsToPermutationOp op,
                                             const uint8_t *pivots,
                                             uint8_t *permutation) {
  ArrayRef<int64_t> shape = op.getPermutation().getType().getShape();
  int64_t m = shape.back(), k = op.getPivots().getType().getShape().back();
  int64_t batch =
      op.getPermutation().getType().getNumElements() / std::max<int64_t>(m, 1);
  const auto *from = reinterpret_cast<const int32_t *>(pivots);
  auto *to = reinterpret_cast<int32_t *>(permutation);
  for (int64_t b = 0; b < batch; ++b) {
    int32_t *rows = to + b * m;
    for (int64_t i = 0; i < m; ++i)
      rows[i] = int32_t(i);
    for (int64_t i = 0; i < k; ++i) {
      int32_t j = from[b * k + i];
      if (j >= 0 && j < m)
        std::swap(rows[i], rows[j]);
    }
  }
}

LogicalResult mlir::thunk::runHostEigh(EighOp op, uint8_t *a, uint8_t *w,
                                       uint8_t *info, std::string &error) {
  MemRefType type = op.getA().getType();
  std::optional<lapack::Scalar> scalar = solverScalar(type);
  if (!scalar) {
    error = "thunk.eigh: LAPACK takes f32, f64, complex<f32> and "
            "complex<f64> matrices of int dimensions";
    return failure();
  }
  auto [batch, m, n] = matrixShape(type);
  (void)m;
  lapack::syevd(*scalar, batch, n, op.getLower(), op.getVectors(), a, w,
                reinterpret_cast<int32_t *>(info));
  return success();
}

LogicalResult mlir::thunk::runHostSvd(SvdOp op, uint8_t *a, uint8_t *s,
                                      uint8_t *u, uint8_t *v, uint8_t *info,
                                      std::string &error) {
  MemRefType type = op.getA().getType();
  std::optional<lapack::Scalar> scalar = solverScalar(type);
  if (!scalar) {
    error = "thunk.svd: LAPACK takes f32, f64, complex<f32> and complex<f64> "
            "matrices of int dimensions";
    return failure();
  }
  auto [batch, m, n] = matrixShape(type);
  int k = std::min(m, n);
  char job = op.getVectors() == SvdVectors::All       ? 'A'
             : op.getVectors() == SvdVectors::Reduced ? 'S'
                                                      : 'N';
  auto *infos = reinterpret_cast<int32_t *>(info);
  if (job == 'N') {
    // LAPACK leaves them untouched; the interpreter gives zeros.
    std::memset(u, 0,
                op.getU().getType().getNumElements() * lapack::sizeOf(*scalar));
    std::memset(v, 0,
                op.getV().getType().getNumElements() * lapack::sizeOf(*scalar));
  }
  auto svd = op.getQr() ? lapack::gesvd : lapack::gesdd;
  if (!op.getAdjointV()) {
    svd(*scalar, batch, m, n, job, a, s, u, v, infos);
    return success();
  }
  // V itself (cuSOLVER's gesvdj): V^H from LAPACK, then each matrix's
  // conjugate transpose into the slice.
  int vRows = job == 'A' ? n : k;
  int64_t size = lapack::sizeOf(*scalar), perMatrix = int64_t(vRows) * n;
  std::vector<uint8_t> vt(job == 'N' ? 0 : batch * perMatrix * size);
  svd(*scalar, batch, m, n, job, a, s, u, vt.data(), infos);
  if (job == 'N')
    return success();
  for (int64_t i = 0; i < batch; ++i) {
    const uint8_t *from = vt.data() + i * perMatrix * size;
    uint8_t *to = v + i * perMatrix * size;
    switch (*scalar) {
    case lapack::Scalar::S:
      adjoint<float>(from, to, vRows, n);
      break;
    case lapack::Scalar::D:
      adjoint<double>(from, to, vRows, n);
      break;
    case lapack::Scalar::C:
      adjoint<std::complex<float>>(from, to, vRows, n);
      break;
    case lapack::Scalar::Z:
      adjoint<std::complex<double>>(from, to, vRows, n);
      break;
    }
  }
  return success();
}
