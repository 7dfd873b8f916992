//===- Factorizations.cpp - the factorization thunks on the CPU -----------===//
//
// LAPACK on the thunks' column-major batches: ?geqrf, ?orgqr / ?ungqr,
// ?getrf, ?syevd / ?heevd, ?gesdd / ?gesvd, ?geev, ?gees, ?gehrd, ?sytrd /
// ?hetrd, ?gtsv. thunk.svd with `adjoint_v`
// (cuSOLVER's gesvdj, which returns V) gets the conjugate transpose of
// LAPACK's V^H; with no vectors, `u` and `v` are zeroed, as the
// interpreter writes them (LAPACK leaves them untouched).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Runtime/Thunk/Factorizations.h"

#include "Hlo/Dialect/Thunk/ThunkDialect.h"
#include "Hlo/Runtime/Lapack/Lapack.h"

#include "llvm/ADT/TypeSwitch.h"

#include <complex>
#include <cstring>
#include <vector>

using namespace mlir;
using namespace mlir::thunk;
using namespace mlir::hlo;

/// (batch, rows, columns) of a batch of matrices.
static std::tuple<int64_t, int, int> matrixShape(MemRefType type) {
  ArrayRef<int64_t> shape = type.getShape();
  int m = int(shape.drop_back().back()), n = int(shape.back());
  return {type.getNumElements() / std::max<int64_t>(1, int64_t(m) * n), m, n};
}

/// The conjugate transpose of a column-major rows x cols matrix.
template <typename T>
static void adjoint(const uint8_t *fromBytes, uint8_t *toBytes, int64_t rows,
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

static void pivotsToPermutation(LuPivotsToPermutationOp op,
                                const uint8_t *pivots, uint8_t *permutation) {
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

static void svd(SvdOp op, lapack::Scalar scalar, uint8_t *a, uint8_t *s,
                uint8_t *u, uint8_t *v, uint8_t *info) {
  auto [batch, m, n] = matrixShape(op.getA().getType());
  int k = std::min(m, n);
  char job = op.getVectors() == SvdVectors::All       ? 'A'
             : op.getVectors() == SvdVectors::Reduced ? 'S'
                                                      : 'N';
  auto *infos = reinterpret_cast<int32_t *>(info);
  int64_t size = lapack::sizeOf(scalar);
  if (job == 'N') {
    std::memset(u, 0, op.getU().getType().getNumElements() * size);
    std::memset(v, 0, op.getV().getType().getNumElements() * size);
  }
  auto routine = op.getQr() ? lapack::gesvd : lapack::gesdd;
  if (!op.getAdjointV() || job == 'N') {
    routine(scalar, batch, m, n, job, a, s, u, v, infos);
    return;
  }
  // V itself: V^H from LAPACK, then each matrix's conjugate transpose.
  int vRows = job == 'A' ? n : k;
  int64_t perMatrix = int64_t(vRows) * n;
  std::vector<uint8_t> vt(batch * perMatrix * size);
  routine(scalar, batch, m, n, job, a, s, u, vt.data(), infos);
  for (int64_t i = 0; i < batch; ++i) {
    const uint8_t *from = vt.data() + i * perMatrix * size;
    uint8_t *to = v + i * perMatrix * size;
    switch (scalar) {
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
}

/// The complex eigenvalues `w` (LAPACK's values of `part` bytes each, real
/// and imaginary) into `out`, or with `imag` their real parts into `out` and
/// their imaginary parts into `imag`.
static void writeEigenvalues(ArrayRef<uint8_t> w, int64_t part, uint8_t *out,
                             uint8_t *imag) {
  if (!imag) {
    std::memcpy(out, w.data(), w.size());
    return;
  }
  for (int64_t i = 0, e = int64_t(w.size()) / (2 * part); i < e; ++i) {
    std::memcpy(out + i * part, w.data() + 2 * i * part, part);
    std::memcpy(imag + i * part, w.data() + (2 * i + 1) * part, part);
  }
}

/// geev on a copy of `a` (the thunk reads it only); vectors not computed
/// are zeros, the eigenvalues of real matrices in LAPACK's form split into
/// w and wi.
static void eig(EigOp op, lapack::Scalar scalar, ArrayRef<uint8_t *> buffers) {
  auto [batch, m, n] = matrixShape(op.getA().getType());
  (void)m;
  int64_t size = lapack::sizeOf(scalar), part = lapack::realSizeOf(scalar);
  int64_t matrices = batch * n * n;
  std::vector<uint8_t> a(buffers[0], buffers[0] + matrices * size),
      w(batch * n * 2 * part);
  bool split = bool(op.getWi());
  uint8_t *vl = buffers[split ? 3 : 2], *vr = buffers[split ? 4 : 3];
  int64_t vectorBytes = matrices * (op.getPacked() ? size : 2 * part);
  std::memset(vl, 0, vectorBytes);
  std::memset(vr, 0, vectorBytes);
  lapack::geev(scalar, batch, n, op.getLeft(), op.getRight(), op.getPacked(),
               a.data(), w.data(), vl, vr,
               reinterpret_cast<int32_t *>(buffers[split ? 5 : 4]));
  writeEigenvalues(w, part, buffers[1], split ? buffers[2] : nullptr);
}

/// gees; without `vectors`, vs is zeroed (the interpreter's value).
static void schur(SchurOp op, lapack::Scalar scalar,
                  ArrayRef<uint8_t *> buffers) {
  auto [batch, m, n] = matrixShape(op.getA().getType());
  (void)m;
  int64_t part = lapack::realSizeOf(scalar);
  std::vector<uint8_t> w(batch * n * 2 * part);
  if (!op.getVectors())
    std::memset(buffers[1], 0, batch * n * n * lapack::sizeOf(scalar));
  bool split = bool(op.getWi());
  lapack::gees(scalar, batch, n, op.getVectors(), buffers[0], buffers[1],
               w.data(), reinterpret_cast<int32_t *>(buffers[split ? 4 : 3]));
  writeEigenvalues(w, part, buffers[2], split ? buffers[3] : nullptr);
}

/// gtsv; b's column-major m x nrhs matrices solved in place.
static void tridiagonalSolve(TridiagonalSolveOp op, lapack::Scalar scalar,
                             ArrayRef<uint8_t *> buffers) {
  auto [batch, m, nrhs] = matrixShape(op.getB().getType());
  std::vector<int32_t> ignored(op.getInfo() ? 0 : batch);
  auto *info =
      op.getInfo() ? reinterpret_cast<int32_t *>(buffers[4]) : ignored.data();
  lapack::gtsv(scalar, batch, m, nrhs, buffers[0], buffers[1], buffers[2],
               buffers[3], info);
}

bool mlir::thunk::isFactorization(Operation *op) {
  return isa<QrOp, HouseholderProductOp, LuOp, LuPivotsToPermutationOp, EighOp,
             EigOp, SvdOp, SchurOp, HessenbergOp, TridiagonalOp,
             TridiagonalSolveOp>(op);
}

LogicalResult mlir::thunk::runFactorization(Operation *op,
                                            ArrayRef<uint8_t *> buffers,
                                            std::string &error) {
  if (auto p = dyn_cast<LuPivotsToPermutationOp>(op)) {
    pivotsToPermutation(p, buffers[0], buffers[1]);
    return success();
  }
  // The matrices: a, or b for the tridiagonal solve.
  auto matrices = cast<MemRefType>(
      op->getOperand(isa<TridiagonalSolveOp>(op) ? 3 : 0).getType());
  std::optional<lapack::Scalar> scalar = lapack::getMatrixScalar(matrices);
  if (!scalar) {
    error = op->getName().getStringRef().str() +
            ": LAPACK takes f32, f64, complex<f32> and complex<f64> "
            "matrices of int dimensions";
    return failure();
  }
  auto [batch, m, n] = matrixShape(matrices);
  auto *a = buffers[0];
  auto ints = [&](unsigned i) {
    return reinterpret_cast<int32_t *>(buffers[i]);
  };
  bool ran = true;
  llvm::TypeSwitch<Operation *>(op)
      .Case<QrOp, HouseholderProductOp>([&](Operation *o) {
        auto tau = cast<MemRefType>(o->getOperand(1).getType());
        int k = tau.getRank() ? int(tau.getShape().back()) : 1;
        ran = isa<QrOp>(o)
                  ? lapack::geqrf(*scalar, batch, m, n, a, buffers[1])
                  : lapack::orgqr(*scalar, batch, m, n, k, a, buffers[1]);
      })
      .Case([&](LuOp) {
        lapack::getrf(*scalar, batch, m, n, a, ints(1), ints(2));
      })
      .Case([&](EighOp e) {
        lapack::syevd(*scalar, batch, n, e.getLower(), e.getVectors(), a,
                      buffers[1], ints(2));
      })
      .Case([&](EigOp e) { eig(e, *scalar, buffers); })
      .Case([&](SchurOp o) { schur(o, *scalar, buffers); })
      .Case([&](HessenbergOp h) {
        lapack::gehrd(*scalar, batch, n, int(h.getLow()), int(h.getHigh()), a,
                      buffers[1], ints(2));
      })
      .Case([&](TridiagonalOp t) {
        lapack::sytrd(*scalar, batch, n, t.getLower(), a, buffers[1],
                      buffers[2], buffers[3], ints(4));
      })
      .Case(
          [&](TridiagonalSolveOp t) { tridiagonalSolve(t, *scalar, buffers); })
      .Case([&](SvdOp s) {
        svd(s, *scalar, a, buffers[1], buffers[2], buffers[3], buffers[4]);
      });
  if (!ran) {
    error = op->getName().getStringRef().str() + ": LAPACK failed";
    return failure();
  }
  return success();
}
