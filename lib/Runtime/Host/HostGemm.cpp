//===- HostGemm.cpp - thunk.gemm on the CPU -------------------------------===//
//
// `thunk.gemm` through OpenBLAS: f32, f64, c64 and c128 operands are handed
// to cblas_?gemm in place (a matrix stored in the other order than the
// output's is passed transposed); f16 and bf16 are widened to f32 first and
// the result rounded back to nearest even, as cuBLAS computes them in f32
// (so are the f32 operands of a `tf32` GEMM, rounded to TF32 as widened);
// integer GEMMs (s8 x s8 -> s32, ...) are a plain loop with 64-bit sums.
// The epilogue (bias, relu, gelu) is applied to the result afterwards.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Thunk/ThunkDialect.h"
#include "Hlo/Runtime/Host/HostRuntime.h"

#include "Hlo/Dialect/Hlo/HloDotAlgorithm.h"
#include "HostFloat.h"

#include <cblas.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstring>

using namespace mlir;
using namespace mlir::thunk;

namespace {

/// e^x in float without a library call, so that loops over it vectorize
/// (this file is built with -fno-trapping-math, which lets the compiler
/// turn the comparisons into selects): 2^n e^r with n = round(x / ln 2),
/// r = x - n ln 2 in [-ln2/2, ln2/2] (ln 2 in two parts so r is exact),
/// e^r by its Taylor series to r^7 (truncation under 5e-9 relative there;
/// within 2 ulps of e^x in all). x is clamped to [-87, 88], where 2^n is a
/// normal float.
inline float expFloat(float x) {
  x = x < -87.0f ? -87.0f : x;
  x = x > 88.0f ? 88.0f : x;
  float t = x * 1.44269504f + 0.5f;
  float n = float(int(t));
  n = n > t ? n - 1.0f : n; // floor
  float r = x - n * 0.693359375f + n * 2.12194440e-4f;
  float p = 1.0f / 5040;
  p = p * r + 1.0f / 720;
  p = p * r + 1.0f / 120;
  p = p * r + 1.0f / 24;
  p = p * r + 1.0f / 6;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  int32_t bits = (int32_t(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, 4);
  return p * scale;
}

/// The tanh approximation of GELU that cuBLASLt's epilogue computes,
/// x (1 + tanh(u)) / 2 with u = sqrt(2 / pi) (x + 0.044715 x^3), written as
/// x / (1 + e^(-2u)) (the same function, one exponential, no cancellation).
inline float geluOf(float x) {
  float u = 0.7978845608f * (x + 0.044715f * x * x * x);
  return x / (1.0f + expFloat(-2.0f * u));
}
inline double geluOf(double x) {
  double u = std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x);
  return x / (1.0 + std::exp(-2.0 * u));
}

bool addsBias(GemmEpilogue e) {
  return e == GemmEpilogue::Bias || e == GemmEpilogue::BiasRelu ||
         e == GemmEpilogue::BiasGelu;
}

/// The epilogue on `x`, a value of the output column whose bias is `bias`.
template <typename T> T applyEpilogue(GemmEpilogue e, T x, T bias) {
  if (addsBias(e))
    x += bias;
  if (e == GemmEpilogue::Relu || e == GemmEpilogue::BiasRelu)
    return x < T(0) ? T(0) : x;
  if constexpr (std::is_floating_point_v<T>)
    if (e == GemmEpilogue::Gelu || e == GemmEpilogue::BiasGelu)
      return geluOf(x);
  return x;
}

CBLAS_TRANSPOSE transposeFor(MatrixLayoutAttr x, MatrixOrder order) {
  return x.getOrder() == order ? CblasNoTrans : CblasTrans;
}

/// One BLAS call per batch, on the slices in place (T: float, double,
/// std::complex<float>, std::complex<double>).
template <typename T>
void blasGemm(GemmOp op, T *lhs, T *rhs, T *out, T alpha, T beta) {
  MatrixLayoutAttr a = op.getLhsLayout(), b = op.getRhsLayout(),
                   c = op.getOutLayout();
  MatrixOrder order = c.getOrder();
  CBLAS_ORDER major =
      order == MatrixOrder::RowMajor ? CblasRowMajor : CblasColMajor;
  int m = c.getRows(), n = c.getCols(), k = a.getCols();
  for (int64_t batch = 0; batch < c.getBatch(); ++batch) {
    T *x = lhs + batch * a.getBatchStride();
    T *y = rhs + batch * b.getBatchStride();
    T *z = out + batch * c.getBatchStride();
    if constexpr (std::is_same_v<T, float>)
      cblas_sgemm(major, transposeFor(a, order), transposeFor(b, order), m, n,
                  k, alpha, x, a.getLeadingDim(), y, b.getLeadingDim(), beta, z,
                  c.getLeadingDim());
    else if constexpr (std::is_same_v<T, double>)
      cblas_dgemm(major, transposeFor(a, order), transposeFor(b, order), m, n,
                  k, alpha, x, a.getLeadingDim(), y, b.getLeadingDim(), beta, z,
                  c.getLeadingDim());
    else if constexpr (std::is_same_v<T, std::complex<float>>)
      cblas_cgemm(major, transposeFor(a, order), transposeFor(b, order), m, n,
                  k, &alpha, x, a.getLeadingDim(), y, b.getLeadingDim(), &beta,
                  z, c.getLeadingDim());
    else
      cblas_zgemm(major, transposeFor(a, order), transposeFor(b, order), m, n,
                  k, &alpha, x, a.getLeadingDim(), y, b.getLeadingDim(), &beta,
                  z, c.getLeadingDim());
  }
}

/// Applies the epilogue to every output element in place, a row (or a
/// column, column-major) at a time over contiguous elements, one simple loop
/// per step so each vectorizes.
template <typename T> void epilogueInPlace(GemmOp op, T *out, const T *bias) {
  MatrixLayoutAttr c = op.getOutLayout();
  GemmEpilogue e = op.getEpilogue();
  if (e == GemmEpilogue::Default)
    return;
  bool rowMajor = c.getOrder() == MatrixOrder::RowMajor;
  bool relu = e == GemmEpilogue::Relu || e == GemmEpilogue::BiasRelu;
  bool gelu = e == GemmEpilogue::Gelu || e == GemmEpilogue::BiasGelu;
  int64_t lines = rowMajor ? c.getRows() : c.getCols();
  int64_t length = rowMajor ? c.getCols() : c.getRows();
  for (int64_t batch = 0; batch < c.getBatch(); ++batch)
    for (int64_t line = 0; line < lines; ++line) {
      T *x = out + batch * c.getBatchStride() + line * c.getLeadingDim();
      if (bias && addsBias(e) && rowMajor)
        for (int64_t i = 0; i < length; ++i)
          x[i] += bias[i];
      if (bias && addsBias(e) && !rowMajor)
        for (int64_t i = 0; i < length; ++i)
          x[i] += bias[line];
      if (relu)
        for (int64_t i = 0; i < length; ++i)
          x[i] = x[i] < T(0) ? T(0) : x[i];
      if (gelu)
        for (int64_t i = 0; i < length; ++i)
          x[i] = geluOf(x[i]);
    }
}

/// Reads a signed or signless integer of `bytes` bytes.
int64_t loadInt(const uint8_t *base, int64_t i, unsigned bytes,
                bool isUnsigned) {
  uint64_t v = 0;
  std::memcpy(&v, base + i * bytes, bytes);
  if (bytes < 8 && !isUnsigned && (v >> (8 * bytes - 1)) & 1)
    v |= ~uint64_t(0) << (8 * bytes);
  return int64_t(v);
}

} // namespace

LogicalResult mlir::thunk::runHostGemm(Operation *operation,
                                       ArrayRef<uint8_t *> buffers,
                                       std::string &error) {
  auto op = cast<GemmOp>(operation);
  uint8_t *lhs = buffers[0], *rhs = buffers[1], *bias = buffers[2],
          *out = buffers[3];
  Type in = op.getLhs().getType().getElementType();
  Type result = op.getOut().getType().getElementType();
  // A C apart from the output: its bytes there first, then as without;
  // one of another type (an fp8 output's bf16 or f16 C) is read in place.
  Type cType = op.getC() ? op.getC().getType().getElementType() : result;
  if (op.getC() && cType == result && buffers[9] != out)
    std::memmove(out, buffers[9],
                 std::min(getStorageBytes(op.getC().getType()),
                          getStorageBytes(op.getOut().getType())));
  const uint8_t *cBase = cType == result ? out : buffers[9];
  double alphaRe = op.getAlphaReal().convertToDouble();
  double alphaIm = op.getAlphaImag().convertToDouble();
  double beta = op.getBeta().convertToDouble();
  if (in == result && (in.isF32() || in.isF64()) && !op.getTf32()) {
    if (in.isF32()) {
      blasGemm<float>(op, reinterpret_cast<float *>(lhs),
                      reinterpret_cast<float *>(rhs),
                      reinterpret_cast<float *>(out), alphaRe, beta);
      epilogueInPlace<float>(op, reinterpret_cast<float *>(out),
                             reinterpret_cast<float *>(bias));
    } else {
      blasGemm<double>(op, reinterpret_cast<double *>(lhs),
                       reinterpret_cast<double *>(rhs),
                       reinterpret_cast<double *>(out), alphaRe, beta);
      epilogueInPlace<double>(op, reinterpret_cast<double *>(out),
                              reinterpret_cast<double *>(bias));
    }
    return success();
  }
  if (auto complex = dyn_cast<ComplexType>(in); complex && in == result) {
    if (op.getEpilogue() != GemmEpilogue::Default) {
      error = "thunk.gemm: complex GEMMs take no epilogue";
      return failure();
    }
    if (complex.getElementType().isF32()) {
      using C = std::complex<float>;
      blasGemm<C>(op, reinterpret_cast<C *>(lhs), reinterpret_cast<C *>(rhs),
                  reinterpret_cast<C *>(out), C(alphaRe, alphaIm), C(beta));
      return success();
    }
    using Z = std::complex<double>;
    blasGemm<Z>(op, reinterpret_cast<Z *>(lhs), reinterpret_cast<Z *>(rhs),
                reinterpret_cast<Z *>(out), Z(alphaRe, alphaIm), Z(beta));
    return success();
  }
  MatrixLayoutAttr a = op.getLhsLayout(), b = op.getRhsLayout(),
                   c = op.getOutLayout();
  auto isNarrowFloat = [](Type t) { return t.isF16() || t.isBF16(); };
  // cuBLAS's s8 x s8 -> f32 (XLA leaves the operands s8).
  bool s8ToF32 = in.isSignlessInteger(8) && result.isF32();
  // cuBLASLt's fp8 GEMM: the operands scaled as they are widened, the
  // result scaled by d_scale and saturated as it is stored (FloatCodec).
  bool fp8 = bool(op.getAScale());
  if (fp8 || ((isNarrowFloat(in) || in.isF32() || s8ToF32) &&
              (isNarrowFloat(result) || result.isF32()))) {
    // Widened to f32 row-major copies, multiplied by sgemm, rounded back.
    FloatCodec x(s8ToF32 ? result : in),
        y(s8ToF32 ? result : op.getRhs().getType().getElementType()), z(result),
        zc(cType), zb(bias ? op.getBias().getType().getElementType() : result);
    auto scale = [&](Value v, uint8_t *at) {
      float f = 1;
      if (v)
        std::memcpy(&f, at, 4);
      return f;
    };
    float sa = scale(op.getAScale(), buffers[5]),
          sb = scale(op.getBScale(), buffers[6]),
          sd = scale(op.getDScale(), buffers[7]);
    unsigned dropped =
        op.getTf32() ? getDroppedOperandBits(hlo::DotAlgorithm::DotTF32TF32F32)
                     : 0;
    auto load = [&](const uint8_t *base, int64_t i) {
      if (s8ToF32)
        return float(loadInt(base, i, 1, false));
      return hlo::roundDroppingBits(x.load(base, i), dropped);
    };
    auto loadRhs = [&](const uint8_t *base, int64_t i) {
      if (s8ToF32)
        return float(loadInt(base, i, 1, false));
      return hlo::roundDroppingBits(y.load(base, i), dropped);
    };
    int64_t m = c.getRows(), n = c.getCols(), k = a.getCols();
    // Element (batch, row, column) of a layout at batch * s[0] + row * s[1]
    // + column * s[2].
    auto stridesOf = [](MatrixLayoutAttr l) -> std::array<int64_t, 3> {
      bool rowMajor = l.getOrder() == MatrixOrder::RowMajor;
      return {int64_t(l.getBatchStride()), rowMajor ? l.getLeadingDim() : 1,
              rowMajor ? 1 : l.getLeadingDim()};
    };
    std::array<int64_t, 3> at = stridesOf(a), bt = stridesOf(b),
                           sc = stridesOf(c);
    std::vector<float> wa(m * k), wb(k * n), wc(m * n), wbias(n, 0.0f);
    float amax = 0; // of the result before d_scale
    if (bias)
      for (int64_t col = 0; col < n; ++col)
        wbias[col] = zb.load(bias, col);
    for (int64_t batch = 0; batch < c.getBatch(); ++batch) {
      for (int64_t r = 0; r < m; ++r)
        for (int64_t i = 0; i < k; ++i)
          wa[r * k + i] = load(lhs, batch * at[0] + r * at[1] + i * at[2]) * sa;
      for (int64_t i = 0; i < k; ++i)
        for (int64_t col = 0; col < n; ++col)
          wb[i * n + col] =
              loadRhs(rhs, batch * bt[0] + i * bt[1] + col * bt[2]) * sb;
      for (int64_t r = 0; r < m; ++r)
        for (int64_t col = 0; col < n; ++col)
          wc[r * n + col] =
              beta == 0
                  ? 0.0f
                  : zc.load(cBase, batch * sc[0] + r * sc[1] + col * sc[2]);
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, alphaRe,
                  wa.data(), k, wb.data(), n, beta, wc.data(), n);
      for (int64_t r = 0; r < m; ++r)
        for (int64_t col = 0; col < n; ++col) {
          float v = applyEpilogue<float>(op.getEpilogue(), wc[r * n + col],
                                         wbias[col]);
          amax = std::isnan(v) || std::isnan(amax)
                     ? NAN
                     : std::max(amax, std::fabs(v));
          z.store(out, batch * sc[0] + r * sc[1] + col * sc[2], v * sd);
        }
    }
    if (op.getDAmax())
      std::memcpy(buffers[8], &amax, 4);
    return success();
  }
  if (in.isInteger() && result.isInteger() &&
      in.getIntOrFloatBitWidth() % 8 == 0 &&
      result.getIntOrFloatBitWidth() % 8 == 0) {
    unsigned inBytes = in.getIntOrFloatBitWidth() / 8;
    unsigned outBytes = result.getIntOrFloatBitWidth() / 8;
    bool isUnsigned = in.isUnsignedInteger();
    for (int64_t batch = 0; batch < c.getBatch(); ++batch)
      for (int64_t r = 0; r < c.getRows(); ++r)
        for (int64_t col = 0; col < c.getCols(); ++col) {
          int64_t sum = 0;
          for (int64_t i = 0; i < a.getCols(); ++i)
            sum +=
                loadInt(lhs, a.getOffset(batch, r, i), inBytes, isUnsigned) *
                loadInt(rhs, b.getOffset(batch, i, col), inBytes, isUnsigned);
          int64_t at = c.getOffset(batch, r, col);
          int64_t value = int64_t(alphaRe) * sum;
          if (beta != 0)
            value += int64_t(beta) * loadInt(out, at, outBytes, false);
          value = applyEpilogue<int64_t>(
              op.getEpilogue(), value,
              bias ? loadInt(bias, col, outBytes, false) : 0);
          std::memcpy(out + at * outBytes, &value, outBytes);
        }
    return success();
  }
  llvm::raw_string_ostream os(error);
  os << "thunk.gemm: element types " << in << " -> " << result
     << " are not supported on the host";
  return failure();
}
