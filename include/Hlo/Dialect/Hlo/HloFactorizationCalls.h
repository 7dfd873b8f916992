//===- HloFactorizationCalls.h - JAX's linear algebra calls -----*- C++ -*-===//
//
// JAX lowers jax.numpy.linalg's and jax.scipy.linalg's factorizations to
// custom calls of its own FFI handlers, one family per platform:
//
//   XLA CPU (LAPACK)             XLA GPU (cuSOLVER, cuSPARSE)
//   lapack_?getrf_ffi            cusolver_getrf_ffi (and
//                                cu_lu_pivots_to_permutation)
//   lapack_?potrf_ffi            cusolver_potrf_ffi
//   lapack_?geqrf_ffi            cusolver_geqrf_ffi
//   lapack_?orgqr_ffi / ?ungqr   cusolver_orgqr_ffi
//   lapack_?syevd_ffi / ?heevd   cusolver_syevd_ffi
//   lapack_?gesdd_ffi, ?gesvd    cusolver_gesvd_ffi, cusolver_gesvdj_ffi
//   lapack_?geev_ffi             cusolver_geev_ffi, cuhybrid_eig_real / _comp
//   lapack_?gees_ffi             (none: jax.scipy.linalg.schur is CPU only)
//   lapack_?gehrd_ffi            (none: hessenberg is CPU only)
//   lapack_?sytrd_ffi / ?hetrd   cusolver_sytrd_ffi
//   lapack_?gtsv_ffi             cusparse_gtsv2_ffi
//
// Each takes batches of matrices whose minor dimensions are laid out
// column-major (its operand_layout_constraints) and returns a tuple: LU
// (a, pivots, info), Cholesky (a, info), QR (a, tau[, info]), the
// Householder product q alone, eigh (a, w, info), SVD (a, s, u, v^H or v,
// info), eig of real matrices (wr, wi, vl, vr, info) and of complex ones
// (w, vl, vr, info), the vectors complex; cuSOLVER's eig (a, w, vl, vr,
// info), w complex, a real matrix's vectors in LAPACK's packed real form;
// Schur (t, vs, wr, wi, sdim, info) or for complex matrices (t, vs, w,
// sdim, info); Hessenberg (a, tau, info); tridiagonal (a, d, e, tau, info);
// the tridiagonal solve, of operands (dl, d, du, b), (dl, d, du, b, info)
// on LAPACK and b alone on cuSPARSE.
// XLA's client library has calls of its own, which XLA's expanders turn
// into HLO: `Qr` (a, tau), `ProductOfElementaryHouseholderReflectors` (q)
// and `Eigh` ((v, w), backend_config "lower,sort_eigenvalues,max_iter,tol"),
// of any layout; they are read here too.
// readFactorizationCall reads one such call into a typed description,
// checking its shapes and options once for the interpreter, hlo-to-thunk
// and the runtimes.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOFACTORIZATIONCALLS_H
#define HLO_DIALECT_HLO_HLOFACTORIZATIONCALLS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include <string>

namespace mlir::hlo {

struct FactorizationCall {
  enum class Kind {
    Lu,
    PivotsToPermutation,
    Cholesky,
    Qr,
    HouseholderProduct,
    Eigh,
    Svd,
    Eig,
    Schur,
    Hessenberg,
    Tridiagonal,
    TridiagonalSolve
  };
  enum class Vectors { All, Reduced, None };

  Kind kind = Kind::Lu;
  /// The operand: the batch of m x n matrices (the pivots, s32[..., k], for
  /// PivotsToPermutation, whose result holds m rows per matrix; b, of m x n
  /// right-hand sides, for TridiagonalSolve).
  RankedTensorType operand;
  int64_t batch = 1, m = 0, n = 0;
  /// Cholesky, Eigh and Tridiagonal: the triangle read.
  bool lower = true;
  /// HouseholderProduct: the reflectors per matrix (tau's minor dimension).
  int64_t reflectors = 0;
  /// Hessenberg: gehrd's 1-based ilo and ihi.
  int64_t low = 1, high = 0;
  /// Qr, TridiagonalSolve and Eigh: the call returns an info array too
  /// (not XLA's own calls, not cuSPARSE's solve).
  bool hasInfo = true;
  /// Eig: which eigenvectors are computed; cuSOLVER's form (`a` first, w
  /// complex, a real matrix's vectors packed as LAPACK's real routines
  /// write them).
  bool left = false, right = true, packed = false;
  /// XLA's Eigh call: its backend_config's sort_eigenvalues, max_iter
  /// (Jacobi sweeps) and tol.
  bool sortEigenvalues = true;
  int64_t maxIterations = 0;
  double tolerance = 0;
  /// Eigh and Schur (All or None) and SVD: the vectors computed.
  Vectors vectors = Vectors::All;
  /// SVD: the fourth result is V, not V^H (cuSOLVER's gesvdj).
  bool adjointV = false;
  /// SVD: by QR iteration (?gesvd), not divide and conquer (?gesdd) or
  /// Jacobi rotations (gesvdj).
  bool qrIteration = false;
  /// SVD: the call factors the transpose of the operand's matrices and
  /// returns the transposes of its factors (cuSOLVER's gesvd of a wide
  /// matrix, given row-major): m and n are the transpose's.
  bool transposed = false;

  int64_t k() const { return std::min(m, n); }
};

/// Whether `target` names one of the calls above.
bool isFactorizationTarget(StringRef target);

/// Reads and checks `call`, a call of one of the targets above; on a
/// malformed call, fails with the reason in `why`.
FailureOr<FactorizationCall> readFactorizationCall(CustomCallOp call,
                                                   std::string &why);

} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLOFACTORIZATIONCALLS_H
