//===- Factorizations.cpp - JAX's LU, eigh and SVD calls ------------------===//
//
// The custom calls of HloFactorizationCalls.h in the reference interpreter.
// LU (lapack_?getrf_ffi, cusolver_getrf_ffi) is computed here, in (complex)
// double, as LAPACK's getrf defines it: partial pivoting on the first
// element of largest magnitude (|re| + |im| for complex, as LAPACK's i?amax),
// no elimination below a zero pivot, info the first zero pivot's 1-based
// index. cu_lu_pivots_to_permutation likewise. The eigendecompositions and
// SVDs are defined only up to the unit factors of their vectors, which the
// library chooses: the interpreter runs LAPACK's own routine of the call's
// precision (?syevd / ?heevd, ?gesdd or ?gesvd, ?geev;
// Hlo/Runtime/Lapack/Lapack.h),
// so that it gives XLA CPU's values and the host runtime's; cuSOLVER on a GPU
// may choose other signs.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "Hlo/Dialect/Hlo/HloFactorizationCalls.h"
#include "Hlo/Runtime/Lapack/Lapack.h"

#include <complex>
#include <cstring>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;

using C = std::complex<double>;
using Vectors = FactorizationCall::Vectors;

/// LAPACK's magnitude for choosing pivots.
static double pivotMagnitude(C x, bool complex) {
  return complex ? std::abs(x.real()) + std::abs(x.imag()) : std::abs(x);
}

/// getrf on the row-major m x n matrix at `a`: the factors in place, the
/// 1-based pivots and the info status.
static int32_t luFactor(std::vector<C> &a, int64_t m, int64_t n, bool complex,
                        int32_t *pivots) {
  int32_t info = 0;
  auto at = [&](int64_t i, int64_t j) -> C & { return a[i * n + j]; };
  for (int64_t j = 0, k = std::min(m, n); j < k; ++j) {
    int64_t p = j;
    for (int64_t i = j + 1; i < m; ++i)
      if (pivotMagnitude(at(i, j), complex) > pivotMagnitude(at(p, j), complex))
        p = i;
    pivots[j] = int32_t(p + 1);
    if (at(p, j) == C(0)) {
      if (info == 0)
        info = int32_t(j + 1);
      continue;
    }
    if (p != j)
      for (int64_t c = 0; c < n; ++c)
        std::swap(at(j, c), at(p, c));
    for (int64_t i = j + 1; i < m; ++i) {
      at(i, j) /= at(j, j);
      for (int64_t c = j + 1; c < n; ++c)
        at(i, c) -= at(i, j) * at(j, c);
    }
  }
  return info;
}

/// The column-major bytes of each matrix of `l` (rows x cols, row-major in
/// the literal) in LAPACK's type `s`; with `linear`, the literal's own
/// order (the column-major form of the transposed matrices).
static std::vector<uint8_t> pack(const Literal &l, lapack::Scalar s,
                                 int64_t rows, int64_t cols, bool linear) {
  int64_t size = lapack::sizeOf(s), total = l.getNumElements();
  std::vector<uint8_t> bytes(total * size);
  for (int64_t i = 0; i < total; ++i) {
    int64_t matrix = i / std::max<int64_t>(1, rows * cols),
            within = i % std::max<int64_t>(1, rows * cols);
    int64_t from =
        linear ? i
               : matrix * rows * cols + (within % rows) * cols + within / rows;
    C x = l.getComplex(from);
    uint8_t *to = bytes.data() + i * size;
    switch (s) {
    case lapack::Scalar::S: {
      float v = float(x.real());
      std::memcpy(to, &v, 4);
      break;
    }
    case lapack::Scalar::D: {
      double v = x.real();
      std::memcpy(to, &v, 8);
      break;
    }
    case lapack::Scalar::C: {
      std::complex<float> v(x);
      std::memcpy(to, &v, 8);
      break;
    }
    case lapack::Scalar::Z:
      std::memcpy(to, &x, 16);
      break;
    }
  }
  return bytes;
}

/// The inverse of pack: column-major rows x cols matrices of `bytes` into
/// `l`; `realOnly` reads the real type of `s` (eigenvalues, singular
/// values, whose order is the same either way).
static void unpack(const std::vector<uint8_t> &bytes, lapack::Scalar s,
                   Literal &l, int64_t rows, int64_t cols, bool linear,
                   bool realOnly = false) {
  bool wide = s == lapack::Scalar::D || s == lapack::Scalar::Z;
  bool complex =
      !realOnly && (s == lapack::Scalar::C || s == lapack::Scalar::Z);
  int64_t part = wide ? 8 : 4, size = complex ? 2 * part : part;
  auto read = [&](const uint8_t *p) {
    if (wide) {
      double v;
      std::memcpy(&v, p, 8);
      return v;
    }
    float v;
    std::memcpy(&v, p, 4);
    return double(v);
  };
  for (int64_t i = 0, total = l.getNumElements(); i < total; ++i) {
    int64_t matrix = i / std::max<int64_t>(1, rows * cols),
            within = i % std::max<int64_t>(1, rows * cols);
    int64_t to =
        linear ? i
               : matrix * rows * cols + (within % rows) * cols + within / rows;
    const uint8_t *p = bytes.data() + i * size;
    l.setComplex(to, C(read(p), complex ? read(p + part) : 0.0));
  }
}

/// The complex type of the precision of `s`.
static lapack::Scalar complexOf(lapack::Scalar s) {
  return s == lapack::Scalar::S || s == lapack::Scalar::C ? lapack::Scalar::C
                                                          : lapack::Scalar::Z;
}

static std::vector<int32_t> zerosI32(int64_t n) {
  return std::vector<int32_t>(std::max<int64_t>(n, 1), 0);
}

static void writeInts(Literal &l, ArrayRef<int32_t> values) {
  for (int64_t i = 0, e = l.getNumElements(); i < e; ++i)
    l.setInt(i, values[i]);
}

EvalResult eval::evalFactorizationCall(Interp &interp, CustomCallOp op,
                                       Operands operands) {
  if (!isFactorizationTarget(op.getCustomCallTarget()))
    return std::nullopt;
  std::string why;
  FailureOr<FactorizationCall> call = readFactorizationCall(op, why);
  if (failed(call))
    return interp.error(op, why);
  const Literal &a = *operands.front();
  int64_t batch = call->batch, m = call->m, n = call->n, k = call->k();
  auto tuple = dyn_cast<TupleType>(op.getType());
  std::vector<Literal> results;
  if (tuple)
    for (Type t : tuple.getTypes())
      results.push_back(Literal::zeros(t));

  switch (call->kind) {
  case FactorizationCall::Kind::PivotsToPermutation: {
    Literal permutation = Literal::zeros(op.getType());
    for (int64_t b = 0; b < batch; ++b) {
      std::vector<int64_t> rows(m);
      for (int64_t i = 0; i < m; ++i)
        rows[i] = i;
      for (int64_t i = 0; i < n; ++i) {
        int64_t j = a.getInt(b * n + i);
        if (j >= 0 && j < m)
          std::swap(rows[i], rows[j]);
      }
      for (int64_t i = 0; i < m; ++i)
        permutation.setInt(b * m + i, rows[i]);
    }
    return permutation;
  }
  case FactorizationCall::Kind::Lu: {
    bool complex = isa<ComplexType>(a.getElementType());
    std::vector<int32_t> pivots = zerosI32(batch * k), info = zerosI32(batch);
    for (int64_t b = 0; b < batch; ++b) {
      std::vector<C> matrix(m * n);
      for (int64_t i = 0; i < m * n; ++i)
        matrix[i] = a.getComplex(b * m * n + i);
      info[b] = luFactor(matrix, m, n, complex, pivots.data() + b * k);
      for (int64_t i = 0; i < m * n; ++i)
        results[0].setComplex(b * m * n + i, matrix[i]);
    }
    writeInts(results[1], pivots);
    writeInts(results[2], info);
    return Literal::tuple(std::move(results));
  }
  case FactorizationCall::Kind::Eigh: {
    lapack::Scalar s = *lapack::getScalar(a.getElementType());
    std::vector<uint8_t> matrices = pack(a, s, n, n, false),
                         w(batch * n * lapack::realSizeOf(s));
    std::vector<int32_t> info = zerosI32(batch);
    lapack::syevd(s, batch, int(n), call->lower, call->vectors == Vectors::All,
                  matrices.data(), w.data(), info.data());
    unpack(matrices, s, results[0], n, n, false);
    unpack(w, s, results[1], 1, batch * n, true, /*realOnly=*/true);
    writeInts(results[2], info);
    return Literal::tuple(std::move(results));
  }
  case FactorizationCall::Kind::Eig: {
    lapack::Scalar s = *lapack::getScalar(a.getElementType()), c = complexOf(s);
    // cuSOLVER's form keeps a real matrix's vectors packed, in its type.
    lapack::Scalar v = call->packed ? s : c;
    std::vector<uint8_t> matrices = pack(a, s, n, n, false),
                         w(batch * n * lapack::sizeOf(c)),
                         vl(batch * n * n * lapack::sizeOf(v)),
                         vr(batch * n * n * lapack::sizeOf(v));
    std::vector<int32_t> info = zerosI32(batch);
    lapack::geev(s, batch, int(n), call->left, call->right, call->packed,
                 matrices.data(), w.data(), vl.data(), vr.data(), info.data());
    // The eigenvalues: complex, or for real matrices in LAPACK's form their
    // real and imaginary parts apart.
    bool split = results.size() == 5 && !call->packed;
    Type part = lapack::realSizeOf(s) == 4
                    ? Type(Float32Type::get(op.getContext()))
                    : Type(Float64Type::get(op.getContext()));
    Literal values = Literal::array(ComplexType::get(part), {batch * n});
    unpack(w, c, values, 1, batch * n, true);
    unsigned first = call->packed ? 1 : 0;
    if (call->packed)
      results[0] = a; // cuSOLVER's a is scratch; the interpreter keeps a.
    for (int64_t i = 0; i < batch * n; ++i) {
      C x = values.getComplex(i);
      results[first].setComplex(i, split ? C(x.real()) : x);
      if (split)
        results[1].setComplex(i, x.imag());
    }
    unpack(vl, v, results[results.size() - 3], n, n, false);
    unpack(vr, v, results[results.size() - 2], n, n, false);
    writeInts(results.back(), info);
    return Literal::tuple(std::move(results));
  }
  case FactorizationCall::Kind::Svd: {
    lapack::Scalar s = *lapack::getScalar(a.getElementType());
    bool linear = call->transposed;
    char job = call->vectors == Vectors::All       ? 'A'
               : call->vectors == Vectors::Reduced ? 'S'
                                                   : 'N';
    int64_t uCols = job == 'A' ? m : k, vRows = job == 'A' ? n : k;
    int64_t size = lapack::sizeOf(s);
    std::vector<uint8_t> matrices = pack(a, s, m, n, linear),
                         sigma(batch * k * lapack::realSizeOf(s)),
                         u(job == 'N' ? 0 : batch * m * uCols * size),
                         vt(job == 'N' ? 0 : batch * vRows * n * size);
    std::vector<int32_t> info = zerosI32(batch);
    (call->qrIteration ? lapack::gesvd : lapack::gesdd)(
        s, batch, int(m), int(n), job, matrices.data(), sigma.data(), u.data(),
        vt.data(), info.data());
    unpack(matrices, s, results[0], m, n, linear);
    unpack(sigma, s, results[1], 1, batch * k, true, /*realOnly=*/true);
    if (job != 'N') {
      unpack(u, s, results[2], m, uCols, linear);
      if (!call->adjointV) {
        unpack(vt, s, results[3], vRows, n, linear);
      } else {
        // V = (V^H)^H: V^H's column-major bytes read as its transpose, then
        // conjugated.
        unpack(vt, s, results[3], n, vRows, /*linear=*/true);
        for (int64_t i = 0, e = results[3].getNumElements(); i < e; ++i)
          results[3].setComplex(i, std::conj(results[3].getComplex(i)));
      }
    }
    writeInts(results[4], info);
    return Literal::tuple(std::move(results));
  }
  }
  return std::nullopt;
}
