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

/// The buffer type of `l` as LAPACK reads it: each matrix column-major (in
/// the layout {r-2, r-1, r-3, ..., 0}), or with `linear` in the literal's
/// own row-major order (the column-major form of the transposed matrices;
/// the order of arrays that are not matrices: eigenvalues, singular values).
static RankedTensorType bufferType(MLIRContext *ctx, const Literal &l,
                                   bool linear) {
  int64_t r = l.getRank();
  Attribute layout;
  if (!linear && r >= 2) {
    SmallVector<int64_t> m2m = {r - 2, r - 1};
    for (int64_t d = r - 3; d >= 0; --d)
      m2m.push_back(d);
    layout = LayoutAttr::get(ctx, true, m2m, {}, {}, 0, 0, {},
                             StringAttr::get(ctx, ""));
  }
  return RankedTensorType::get(l.getShape(), l.getElementType(), layout);
}

static std::vector<uint8_t> pack(MLIRContext *ctx, const Literal &l,
                                 bool linear = false) {
  return encodeArrayBytes(l, bufferType(ctx, l, linear));
}

/// The inverse of pack: `l` (its shape and type) read from `bytes`.
static void unpack(MLIRContext *ctx, ArrayRef<uint8_t> bytes, Literal &l,
                   bool linear = false) {
  l = decodeArrayBytes(bytes, bufferType(ctx, l, linear));
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
  MLIRContext *ctx = op.getContext();
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
    std::vector<uint8_t> matrices = pack(ctx, a),
                         w(batch * n * lapack::realSizeOf(s));
    std::vector<int32_t> info = zerosI32(batch);
    lapack::syevd(s, batch, int(n), call->lower, call->vectors == Vectors::All,
                  matrices.data(), w.data(), info.data());
    unpack(ctx, matrices, results[0]);
    unpack(ctx, w, results[1], /*linear=*/true);
    writeInts(results[2], info);
    return Literal::tuple(std::move(results));
  }
  case FactorizationCall::Kind::Eig: {
    lapack::Scalar s = *lapack::getScalar(a.getElementType()), c = complexOf(s);
    // cuSOLVER's form keeps a real matrix's vectors packed, in its type.
    lapack::Scalar v = call->packed ? s : c;
    std::vector<uint8_t> matrices = pack(ctx, a),
                         w(batch * n * lapack::sizeOf(c)),
                         vl(batch * n * n * lapack::sizeOf(v)),
                         vr(batch * n * n * lapack::sizeOf(v));
    std::vector<int32_t> info = zerosI32(batch);
    lapack::geev(s, batch, int(n), call->left, call->right, call->packed,
                 matrices.data(), w.data(), vl.data(), vr.data(), info.data());
    // The eigenvalues: complex, or for real matrices in LAPACK's form their
    // real and imaginary parts apart.
    bool split = results.size() == 5 && !call->packed;
    Type part = lapack::realSizeOf(s) == 4 ? Type(Float32Type::get(ctx))
                                           : Type(Float64Type::get(ctx));
    Literal values = Literal::array(ComplexType::get(part), {batch * n});
    unpack(ctx, w, values);
    unsigned first = call->packed ? 1 : 0;
    if (call->packed)
      results[0] = a; // cuSOLVER's a is scratch; the interpreter keeps a.
    for (int64_t i = 0; i < batch * n; ++i) {
      C x = values.getComplex(i);
      results[first].setComplex(i, split ? C(x.real()) : x);
      if (split)
        results[1].setComplex(i, x.imag());
    }
    unpack(ctx, vl, results[results.size() - 3]);
    unpack(ctx, vr, results[results.size() - 2]);
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
    std::vector<uint8_t> matrices = pack(ctx, a, linear),
                         sigma(batch * k * lapack::realSizeOf(s)),
                         u(job == 'N' ? 0 : batch * m * uCols * size),
                         vt(job == 'N' ? 0 : batch * vRows * n * size);
    std::vector<int32_t> info = zerosI32(batch);
    (call->qrIteration ? lapack::gesvd : lapack::gesdd)(
        s, batch, int(m), int(n), job, matrices.data(), sigma.data(), u.data(),
        vt.data(), info.data());
    unpack(ctx, matrices, results[0], linear);
    unpack(ctx, sigma, results[1], /*linear=*/true);
    if (job != 'N') {
      unpack(ctx, u, results[2], linear);
      if (!call->adjointV) {
        unpack(ctx, vt, results[3], linear);
      } else {
        // V = (V^H)^H: V^H's column-major bytes read as its transpose, then
        // conjugated.
        unpack(ctx, vt, results[3], /*linear=*/true);
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
