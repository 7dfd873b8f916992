//===- Factorizations.cpp - JAX's linear algebra calls --------------------===//
//
// The custom calls of HloFactorizationCalls.h in the reference interpreter.
// LU (lapack_?getrf_ffi, cusolver_getrf_ffi) is computed here, in (complex)
// double, as LAPACK's getrf defines it: partial pivoting on the first
// element of largest magnitude (|re| + |im| for complex, as LAPACK's i?amax),
// no elimination below a zero pivot, info the first zero pivot's 1-based
// index. cu_lu_pivots_to_permutation likewise. The other calls run LAPACK's
// own routine of the call's precision (Hlo/Runtime/Lapack/Lapack.h): the
// eigendecompositions and SVDs are defined only up to the unit factors of
// their vectors, which the library chooses, and the Householder forms (QR,
// Hessenberg, tridiagonal) are LAPACK's conventions; so the interpreter
// gives XLA CPU's values and the host runtime's. cuSOLVER on a GPU may
// choose other signs. Where a call's result is unspecified the interpreter
// writes what the host runtime does: zeros in the triangle a Cholesky
// factor does not use, the operands in the diagonals of LAPACK's
// tridiagonal solve (LAPACK leaves its elimination there; JAX drops them),
// zero `sdim` (nothing is sorted).
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

/// `count` complex values of the precision of `s` from `bytes`.
static Literal complexValues(MLIRContext *ctx, lapack::Scalar s,
                             ArrayRef<uint8_t> bytes, int64_t count) {
  Type part = lapack::realSizeOf(s) == 4 ? Type(Float32Type::get(ctx))
                                         : Type(Float64Type::get(ctx));
  Literal values = Literal::array(ComplexType::get(part), {count});
  unpack(ctx, bytes, values);
  return values;
}

/// Eigenvalues into `w` (complex), or their real parts into `w` and their
/// imaginary parts into `*wi`.
static void writeEigenvalues(const Literal &values, Literal &w, Literal *wi) {
  for (int64_t i = 0, e = values.getNumElements(); i < e; ++i) {
    C x = values.getComplex(i);
    w.setComplex(i, wi ? C(x.real()) : x);
    if (wi)
      wi->setComplex(i, x.imag());
  }
}

EvalResult eval::evalFactorizationCall(Interp &interp, CustomCallOp op,
                                       Operands operands) {
  if (!isFactorizationTarget(op.getCustomCallTarget()))
    return std::nullopt;
  std::string why;
  FailureOr<FactorizationCall> call = readFactorizationCall(op, why);
  if (failed(call))
    return interp.error(op, why);
  const Literal &a = call->kind == FactorizationCall::Kind::TridiagonalSolve
                         ? *operands.back()
                         : *operands.front();
  MLIRContext *ctx = op.getContext();
  int64_t batch = call->batch, m = call->m, n = call->n, k = call->k();
  // The LAPACK routines' precision (LU and the permutation use none).
  lapack::Scalar s =
      lapack::getScalar(a.getElementType()).value_or(lapack::Scalar::D);
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
  case FactorizationCall::Kind::Cholesky: {
    std::vector<uint8_t> matrices = pack(ctx, a);
    std::vector<int32_t> info = zerosI32(batch);
    lapack::potrf(s, batch, int(n), call->lower, matrices.data(), info.data());
    unpack(ctx, matrices, results[0]);
    writeInts(results[1], info);
    return Literal::tuple(std::move(results));
  }
  case FactorizationCall::Kind::Qr:
  case FactorizationCall::Kind::HouseholderProduct: {
    bool qr = call->kind == FactorizationCall::Kind::Qr;
    std::vector<uint8_t> matrices = pack(ctx, a),
                         tau = qr ? std::vector<uint8_t>(batch * k *
                                                         lapack::sizeOf(s))
                                  : pack(ctx, *operands[1], /*linear=*/true);
    bool ran =
        qr ? lapack::geqrf(s, batch, int(m), int(n), matrices.data(),
                           tau.data())
           : lapack::orgqr(s, batch, int(m), int(n), int(call->reflectors),
                           matrices.data(), tau.data());
    if (!ran)
      return interp.error(op, op.getCustomCallTarget() + ": LAPACK failed");
    if (!qr) {
      Literal q = Literal::zeros(op.getType());
      unpack(ctx, matrices, q);
      return q;
    }
    unpack(ctx, matrices, results[0]);
    unpack(ctx, tau, results[1], /*linear=*/true);
    return Literal::tuple(std::move(results)); // info, if any, zero
  }
  case FactorizationCall::Kind::Schur: {
    std::vector<uint8_t> matrices = pack(ctx, a), vs(matrices.size()),
                         w(batch * n * lapack::sizeOf(complexOf(s)));
    std::vector<int32_t> info = zerosI32(batch);
    lapack::gees(s, batch, int(n), call->vectors == Vectors::All,
                 matrices.data(), vs.data(), w.data(), info.data());
    unpack(ctx, matrices, results[0]);
    unpack(ctx, vs, results[1]);
    bool split = results.size() == 6;
    writeEigenvalues(complexValues(ctx, s, w, batch * n), results[2],
                     split ? &results[3] : nullptr);
    writeInts(results.back(), info); // sdim, before it, stays zero
    return Literal::tuple(std::move(results));
  }
  case FactorizationCall::Kind::Hessenberg: {
    std::vector<uint8_t> matrices = pack(ctx, a),
                         tau(results[1].getNumElements() * lapack::sizeOf(s));
    std::vector<int32_t> info = zerosI32(batch);
    lapack::gehrd(s, batch, int(n), int(call->low), int(call->high),
                  matrices.data(), tau.data(), info.data());
    unpack(ctx, matrices, results[0]);
    unpack(ctx, tau, results[1], /*linear=*/true);
    writeInts(results[2], info);
    return Literal::tuple(std::move(results));
  }
  case FactorizationCall::Kind::Tridiagonal: {
    int64_t offDiagonal = results[2].getNumElements();
    std::vector<uint8_t> matrices = pack(ctx, a),
                         d(batch * n * lapack::realSizeOf(s)),
                         e(offDiagonal * lapack::realSizeOf(s)),
                         tau(offDiagonal * lapack::sizeOf(s));
    std::vector<int32_t> info = zerosI32(batch);
    lapack::sytrd(s, batch, int(n), call->lower, matrices.data(), d.data(),
                  e.data(), tau.data(), info.data());
    unpack(ctx, matrices, results[0]);
    unpack(ctx, d, results[1], /*linear=*/true);
    unpack(ctx, e, results[2], /*linear=*/true);
    unpack(ctx, tau, results[3], /*linear=*/true);
    writeInts(results[4], info);
    return Literal::tuple(std::move(results));
  }
  case FactorizationCall::Kind::TridiagonalSolve: {
    std::vector<uint8_t> dl = pack(ctx, *operands[0], /*linear=*/true),
                         d = pack(ctx, *operands[1], /*linear=*/true),
                         du = pack(ctx, *operands[2], /*linear=*/true),
                         rhs = pack(ctx, a);
    std::vector<int32_t> info = zerosI32(batch);
    lapack::gtsv(s, batch, int(m), int(n), dl.data(), d.data(), du.data(),
                 rhs.data(), info.data());
    if (!call->hasInfo) {
      Literal x = Literal::zeros(op.getType());
      unpack(ctx, rhs, x);
      return x;
    }
    for (unsigned i = 0; i < 3; ++i)
      results[i] = *operands[i];
    unpack(ctx, rhs, results[3]);
    writeInts(results[4], info);
    return Literal::tuple(std::move(results));
  }
  case FactorizationCall::Kind::Eigh: {
    std::vector<uint8_t> matrices = pack(ctx, a),
                         w(batch * n * lapack::realSizeOf(s));
    std::vector<int32_t> info = zerosI32(batch);
    lapack::syevd(s, batch, int(n), call->lower, call->vectors == Vectors::All,
                  matrices.data(), w.data(), info.data());
    unpack(ctx, matrices, results[0]);
    unpack(ctx, w, results[1], /*linear=*/true);
    if (call->hasInfo)
      writeInts(results[2], info);
    return Literal::tuple(std::move(results));
  }
  case FactorizationCall::Kind::Eig: {
    lapack::Scalar c = complexOf(s);
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
    unsigned first = call->packed ? 1 : 0;
    if (call->packed)
      results[0] = a; // cuSOLVER's a is scratch; the interpreter keeps a.
    writeEigenvalues(complexValues(ctx, s, w, batch * n), results[first],
                     split ? &results[1] : nullptr);
    unpack(ctx, vl, results[results.size() - 3]);
    unpack(ctx, vr, results[results.size() - 2]);
    writeInts(results.back(), info);
    return Literal::tuple(std::move(results));
  }
  case FactorizationCall::Kind::Svd: {
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
