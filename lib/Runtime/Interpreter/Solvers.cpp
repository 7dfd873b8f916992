//===- Solvers.cpp - linear algebra, FFT and batch normalization ----------===//
//
// triangular-solve (left or right side, lower or upper triangle read,
// unit diagonal, op(a) = a, a^T or a^H), cholesky (lower: L L^H = a from
// the lower triangle; upper: U^H U = a from the upper triangle; the other
// triangle of the result is zero; a matrix that is not positive definite
// gives all NaNs), XLA CPU's LAPACK triangular solve (?trsm; its
// factorizations are in Factorizations.cpp), fft (FFT, IFFT scaled by 1/n,
// RFFT, IRFFT over the last fft_length.size() dimensions, as direct DFTs) and
// batch-norm-training / -inference / -grad. Everything is computed in (complex)
// double and rounded to the result type at the end; leading dimensions are
// batches.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <complex>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;

using C = std::complex<double>;

/// Row-major m x n matrix of complex doubles.
namespace {
struct Matrix {
  int64_t rows = 0, cols = 0;
  std::vector<C> data;
  Matrix(int64_t rows, int64_t cols)
      : rows(rows), cols(cols), data(rows * cols) {}
  C &at(int64_t i, int64_t j) { return data[i * cols + j]; }
  C at(int64_t i, int64_t j) const { return data[i * cols + j]; }
};
} // namespace

static Matrix readMatrix(const Literal &l, int64_t batch) {
  int64_t rows = l.getShape()[l.getRank() - 2];
  int64_t cols = l.getShape()[l.getRank() - 1];
  Matrix m(rows, cols);
  for (int64_t i = 0; i < rows * cols; ++i)
    m.data[i] = l.getComplex(batch * rows * cols + i);
  return m;
}

static void writeMatrix(Literal &l, int64_t batch, const Matrix &m) {
  for (int64_t i = 0; i < m.rows * m.cols; ++i)
    l.setComplex(batch * m.rows * m.cols + i, m.data[i]);
}

static int64_t batchCount(const Literal &l) {
  int64_t n = 1;
  for (int64_t d = 0; d + 2 < l.getRank(); ++d)
    n *= l.getShape()[d];
  return n;
}

/// Solves t x = b for a triangular t (lower or upper), column by column.
static Matrix solveTriangular(const Matrix &t, bool lower, const Matrix &b) {
  Matrix x = b;
  int64_t m = t.rows;
  for (int64_t c = 0; c < b.cols; ++c) {
    for (int64_t s = 0; s < m; ++s) {
      int64_t i = lower ? s : m - 1 - s;
      C sum = b.at(i, c);
      for (int64_t s2 = 0; s2 < s; ++s2) {
        int64_t j = lower ? s2 : m - 1 - s2;
        sum -= t.at(i, j) * x.at(j, c);
      }
      x.at(i, c) = sum / t.at(i, i);
    }
  }
  return x;
}

static Matrix transposed(const Matrix &m, bool conjugate) {
  Matrix t(m.cols, m.rows);
  for (int64_t i = 0; i < m.rows; ++i)
    for (int64_t j = 0; j < m.cols; ++j)
      t.at(j, i) = conjugate ? std::conj(m.at(i, j)) : m.at(i, j);
  return t;
}

Literal eval::triangularSolve(bool leftSide, bool lower, bool unit,
                              Transpose trans, const Literal &a,
                              const Literal &b, Literal result) {
  for (int64_t batch = 0, e = batchCount(a); batch < e; ++batch) {
    Matrix am = readMatrix(a, batch);
    // Keep the triangle that is read; set the unit diagonal.
    for (int64_t i = 0; i < am.rows; ++i)
      for (int64_t j = 0; j < am.cols; ++j) {
        if (lower ? j > i : j < i)
          am.at(i, j) = 0.0;
        if (i == j && unit)
          am.at(i, j) = 1.0;
      }
    bool effLower = lower;
    if (trans == Transpose::TRANSPOSE || trans == Transpose::ADJOINT) {
      am = transposed(am, trans == Transpose::ADJOINT);
      effLower = !lower;
    }
    Matrix bm = readMatrix(b, batch);
    if (leftSide) {
      writeMatrix(result, batch, solveTriangular(am, effLower, bm));
    } else {
      // x op(a) = b  <=>  op(a)^T x^T = b^T.
      Matrix xt = solveTriangular(transposed(am, false), !effLower,
                                  transposed(bm, false));
      writeMatrix(result, batch, transposed(xt, false));
    }
  }
  return result;
}

static FailureOr<Literal> triangularSolveOp(Interp &interp,
                                            TriangularSolveOp op,
                                            const Literal &a,
                                            const Literal &b) {
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  return eval::triangularSolve(
      op.getLeftSide().value_or(false), op.getLower().value_or(false),
      op.getUnitDiagonal().value_or(false),
      op.getTransposeA().value_or(Transpose::NO_TRANSPOSE), a, b,
      std::move(*result));
}

static FailureOr<Literal> choleskyOp(Interp &interp, CholeskyOp op,
                                     const Literal &a) {
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  return eval::cholesky(op.getLower().value_or(false), a, std::move(*result));
}

Literal eval::cholesky(bool lower, const Literal &a, Literal result) {
  for (int64_t batch = 0, e = batchCount(a); batch < e; ++batch) {
    Matrix am = readMatrix(a, batch);
    // Work on the lower form: for upper, a = U^H U with U = L^H where
    // L L^H = a read from the conjugate transpose of the upper triangle.
    if (!lower)
      am = transposed(am, true);
    int64_t n = am.rows;
    Matrix l(n, n);
    bool positive = true;
    for (int64_t j = 0; j < n; ++j) {
      C d = am.at(j, j);
      for (int64_t k = 0; k < j; ++k)
        d -= l.at(j, k) * std::conj(l.at(j, k));
      double diag = std::sqrt(d.real());
      positive &= d.real() > 0;
      l.at(j, j) = diag;
      for (int64_t i = j + 1; i < n; ++i) {
        C s = am.at(i, j);
        for (int64_t k = 0; k < j; ++k)
          s -= l.at(i, k) * std::conj(l.at(j, k));
        l.at(i, j) = s / diag;
      }
    }
    if (!positive) // as XLA: a matrix that is not positive definite is NaN
      std::fill(l.data.begin(), l.data.end(), C(std::nan(""), std::nan("")));
    writeMatrix(result, batch, lower ? l : transposed(l, true));
  }
  return result;
}

//===----------------------------------------------------------------------===//
// XLA CPU's LAPACK triangular solve
//===----------------------------------------------------------------------===//

EvalResult eval::evalLapackCustomCall(Interp &interp, CustomCallOp op,
                                      Operands operands) {
  StringRef target = op.getCustomCallTarget();
  if (!target.consume_front("lapack_") || !target.consume_back("_ffi") ||
      target.size() < 2 || !StringRef("sdcz").contains(target.front()) ||
      target.drop_front() != "trsm")
    return std::nullopt;
  auto fail = [&](const Twine &why) {
    return interp.error(op, op.getCustomCallTarget() + ": " + why);
  };
  for (const Literal *l : operands)
    if (!l->isArray())
      return fail("operands must be arrays");
  // (a, b[, alpha]) -> x: op(a) x = alpha b or x op(a) = alpha b.
  auto result = dyn_cast<RankedTensorType>(op.getType());
  const Literal &a = *operands.front();
  if (operands.size() < 2 || operands.size() > 3 || !result ||
      a.getRank() < 2 || operands[1]->getRank() != a.getRank() ||
      result.getShape() != ArrayRef<int64_t>(operands[1]->getShape()))
    return fail("expected operands (a, b[, alpha]), batches of matrices, and "
                "the result x");
  Attribute config = op->getAttr("backend_config");
  char side = readFfiCharOption(config, "side", 'L');
  char uplo = readFfiCharOption(config, "uplo", 'L');
  char trans = readFfiCharOption(config, "trans_x", 'N');
  char diag = readFfiCharOption(config, "diag", 'N');
  if (!StringRef("LR").contains(side) || !StringRef("LU").contains(uplo) ||
      !StringRef("NTC").contains(trans) || !StringRef("NU").contains(diag))
    return fail("side, uplo, trans_x and diag must be LAPACK's characters");
  Literal b = *operands[1];
  if (operands.size() == 3) {
    C alpha = operands[2]->getComplex(0);
    for (int64_t i = 0, e = b.getNumElements(); i < e; ++i)
      b.setComplex(i, b.getComplex(i) * alpha);
  }
  Transpose t = trans == 'N'   ? Transpose::NO_TRANSPOSE
                : trans == 'T' ? Transpose::TRANSPOSE
                               : Transpose::ADJOINT;
  return eval::triangularSolve(side == 'L', uplo == 'L', diag == 'U', t, a, b,
                               Literal::zeros(result));
}

/// e^(sign * 2 pi i m / n), exact at multiples of a quarter turn.
static C twiddle(int64_t m, int64_t n, double sign) {
  m %= n;
  if ((4 * m) % n == 0) {
    static const C quarter[4] = {C(1, 0), C(0, 1), C(-1, 0), C(0, -1)};
    int64_t q = (4 * m) / n;
    return sign > 0 ? quarter[q] : quarter[(4 - q) % 4];
  }
  double angle =
      sign * 2.0 * M_PI * static_cast<double>(m) / static_cast<double>(n);
  return C(std::cos(angle), std::sin(angle));
}

/// In-place DFT of the `n` elements data[base + i * stride].
static void dft(std::vector<C> &data, int64_t base, int64_t stride, int64_t n,
                bool inverse) {
  std::vector<C> out(n);
  double sign = inverse ? 1.0 : -1.0;
  for (int64_t k = 0; k < n; ++k) {
    C sum = 0.0;
    for (int64_t j = 0; j < n; ++j)
      sum += data[base + j * stride] * twiddle(j * k, n, sign);
    out[k] = inverse ? sum / static_cast<double>(n) : sum;
  }
  for (int64_t k = 0; k < n; ++k)
    data[base + k * stride] = out[k];
}

/// DFTs along dimension `dim` of a complex array of `shape`.
static void dftAlong(std::vector<C> &data, ArrayRef<int64_t> shape, int64_t dim,
                     bool inverse) {
  (void)forEachLine(shape, dim,
                    [&](int64_t base, int64_t stride, int64_t length) {
                      dft(data, base, stride, length, inverse);
                      return success();
                    });
}

static FailureOr<Literal> fft(Interp &interp, FftOp op, const Literal &in) {
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  Literal &out = *result;
  ArrayRef<int64_t> lengths = op.getFftLength();
  int64_t rank = in.getRank(), fftRank = lengths.size();
  FftType type = op.getFftType();
  // Work on a complex array of the full (logical) transform shape.
  SmallVector<int64_t> shape(in.getShape());
  for (int64_t i = 0; i < fftRank; ++i)
    shape[rank - fftRank + i] = lengths[i];
  std::vector<C> data(numElements(shape), 0.0);
  SmallVector<int64_t> idx(rank, 0), src(rank);
  for (int64_t i = 0, e = numElements(shape); i < e;
       ++i, nextIndex(idx, shape)) {
    src.assign(idx.begin(), idx.end());
    bool inside = true;
    if (type == FftType::IRFFT) {
      // Hermitian input: the last dimension holds n/2 + 1 values.
      int64_t last = rank - 1, n = shape[last], half = in.getShape()[last];
      if (idx[last] >= half) {
        // X[k] = conj(X[n - k]) over all transformed dims.
        for (int64_t d = rank - fftRank; d < rank; ++d)
          src[d] = (shape[d] - idx[d]) % shape[d];
        if (src[last] >= half)
          inside = false;
        if (inside)
          data[i] = std::conj(in.getComplex(in.linearize(src)));
        continue;
      }
      (void)n;
    }
    for (int64_t d = 0; d < rank && inside; ++d)
      inside = src[d] < in.getShape()[d];
    if (inside)
      data[i] = in.getComplex(in.linearize(src));
  }
  bool inverse = type == FftType::IFFT || type == FftType::IRFFT;
  for (int64_t d = rank - fftRank; d < rank; ++d)
    dftAlong(data, shape, d, inverse);
  SmallVector<int64_t> o(out.getRank(), 0);
  for (int64_t i = 0, e = out.getNumElements(); i < e;
       ++i, nextIndex(o, out.getShape())) {
    int64_t linear = 0;
    for (int64_t d = 0; d < rank; ++d)
      linear = linear * shape[d] + o[d];
    if (type == FftType::IRFFT)
      out.setFloat(i, data[linear].real());
    else
      out.setComplex(i, data[linear]);
  }
  return std::move(out);
}

/// Per-feature statistics over every dimension but `feature`.
static void featureStats(const Literal &x, int64_t feature,
                         std::vector<double> &mean, std::vector<double> &var) {
  int64_t nf = x.getShape()[feature];
  mean.assign(nf, 0.0);
  var.assign(nf, 0.0);
  int64_t count = nf ? x.getNumElements() / nf : 0;
  SmallVector<int64_t> idx(x.getRank(), 0);
  for (int64_t i = 0, e = x.getNumElements(); i < e;
       ++i, nextIndex(idx, x.getShape()))
    mean[idx[feature]] += x.getFloat(i);
  for (double &m : mean)
    m /= static_cast<double>(count);
  std::fill(idx.begin(), idx.end(), 0);
  for (int64_t i = 0, e = x.getNumElements(); i < e;
       ++i, nextIndex(idx, x.getShape())) {
    double d = x.getFloat(i) - mean[idx[feature]];
    var[idx[feature]] += d * d;
  }
  for (double &v : var)
    v /= static_cast<double>(count);
}

static std::vector<double> values(const Literal &l) {
  std::vector<double> v;
  for (int64_t i = 0, e = l.getNumElements(); i < e; ++i)
    v.push_back(l.getFloat(i));
  return v;
}

static Literal vectorLiteral(const Literal &like,
                             const std::vector<double> &v) {
  Literal l = Literal::array(like.getElementType(), like.getShape());
  for (size_t i = 0; i < v.size(); ++i)
    l.setFloat(i, v[i]);
  return l;
}

/// y = (x - mean) * scale / sqrt(var + eps) + offset.
static Literal normalize(const Literal &x, int64_t feature,
                         const std::vector<double> &mean,
                         const std::vector<double> &var,
                         const std::vector<double> &scale,
                         const std::vector<double> &offset, double eps) {
  Literal y = Literal::array(x.getElementType(), x.getShape());
  SmallVector<int64_t> idx(x.getRank(), 0);
  for (int64_t i = 0, e = x.getNumElements(); i < e;
       ++i, nextIndex(idx, x.getShape())) {
    int64_t f = idx[feature];
    y.setFloat(i,
               (x.getFloat(i) - mean[f]) * scale[f] / std::sqrt(var[f] + eps) +
                   offset[f]);
  }
  return y;
}

static FailureOr<Literal> batchNorm(Interp &interp, Operation *op,
                                    Operands operands) {
  const Literal &x = *operands[0];
  if (x.getElementKind() != ElementKind::Float)
    return interp.error(op, "needs a floating-point operand");
  std::vector<double> mean, var;
  if (auto bn = dyn_cast<BatchNormTrainingOp>(op)) {
    int64_t f = bn.getFeatureIndex();
    featureStats(x, f, mean, var);
    std::vector<Literal> r;
    r.push_back(normalize(x, f, mean, var, values(*operands[1]),
                          values(*operands[2]),
                          bn.getEpsilon().convertToDouble()));
    r.push_back(vectorLiteral(*operands[1], mean));
    r.push_back(vectorLiteral(*operands[1], var));
    return Literal::tuple(std::move(r));
  }
  if (auto bn = dyn_cast<BatchNormInferenceOp>(op))
    return normalize(x, bn.getFeatureIndex(), values(*operands[3]),
                     values(*operands[4]), values(*operands[1]),
                     values(*operands[2]), bn.getEpsilon().convertToDouble());
  auto bn = cast<BatchNormGradOp>(op);
  int64_t feature = bn.getFeatureIndex();
  double eps = bn.getEpsilon().convertToDouble();
  std::vector<double> scale = values(*operands[1]);
  mean = values(*operands[2]);
  var = values(*operands[3]);
  const Literal &dy = *operands[4];
  int64_t nf = x.getShape()[feature];
  int64_t count = nf ? x.getNumElements() / nf : 0;
  // sum(dy) and sum(dy * (x - mean)) per feature.
  std::vector<double> sumDy(nf, 0.0), sumDyXc(nf, 0.0);
  SmallVector<int64_t> idx(x.getRank(), 0);
  for (int64_t i = 0, e = x.getNumElements(); i < e;
       ++i, nextIndex(idx, x.getShape())) {
    int64_t f = idx[feature];
    sumDy[f] += dy.getFloat(i);
    sumDyXc[f] += dy.getFloat(i) * (x.getFloat(i) - mean[f]);
  }
  Literal dx = Literal::array(x.getElementType(), x.getShape());
  std::fill(idx.begin(), idx.end(), 0);
  for (int64_t i = 0, e = x.getNumElements(); i < e;
       ++i, nextIndex(idx, x.getShape())) {
    int64_t f = idx[feature];
    double inv = 1.0 / std::sqrt(var[f] + eps);
    double n = static_cast<double>(count);
    double xc = x.getFloat(i) - mean[f];
    dx.setFloat(i, scale[f] * inv *
                       (dy.getFloat(i) - sumDy[f] / n -
                        xc * (sumDyXc[f] / n) / (var[f] + eps)));
  }
  std::vector<double> dScale(nf);
  for (int64_t f = 0; f < nf; ++f)
    dScale[f] = sumDyXc[f] / std::sqrt(var[f] + eps);
  std::vector<Literal> r;
  r.push_back(std::move(dx));
  r.push_back(vectorLiteral(*operands[1], dScale));
  r.push_back(vectorLiteral(*operands[1], sumDy));
  return Literal::tuple(std::move(r));
}

EvalResult eval::evalSolverOp(Interp &interp, Operation *op,
                              Operands operands) {
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case([&](TriangularSolveOp t) {
        return triangularSolveOp(interp, t, *operands[0], *operands[1]);
      })
      .Case([&](CholeskyOp c) { return choleskyOp(interp, c, *operands[0]); })
      .Case([&](FftOp f) { return fft(interp, f, *operands[0]); })
      .Case<BatchNormTrainingOp, BatchNormInferenceOp, BatchNormGradOp>(
          [&](Operation *) { return batchNorm(interp, op, operands); })
      .Default([](Operation *) -> EvalResult { return std::nullopt; });
}
