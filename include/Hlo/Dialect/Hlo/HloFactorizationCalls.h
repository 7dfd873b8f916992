//===- HloFactorizationCalls.h - JAX's LU, eigh and SVD calls ----*- C++
//-*-===//
//
// JAX lowers jax.numpy.linalg's LU (solve, inv, det, lu), Hermitian
// eigendecomposition (eigh, eigvalsh) and singular value decomposition
// (svd) and general eigendecomposition (eig) to custom calls of its own FFI
// handlers, one family per platform:
//
//   XLA CPU (LAPACK)             XLA GPU (cuSOLVER)
//   lapack_?getrf_ffi            cusolver_getrf_ffi,
//   cu_lu_pivots_to_permutation lapack_?syevd_ffi / ?heevd   cusolver_syevd_ffi
//   lapack_?gesdd_ffi, ?gesvd    cusolver_gesvd_ffi, cusolver_gesvdj_ffi
//   lapack_?geev_ffi             cusolver_geev_ffi, cuhybrid_eig_real / _comp
//
// Each takes a batch of matrices whose minor dimensions are laid out
// column-major (its operand_layout_constraints) and returns a tuple: LU
// (a, pivots, info), eigh (a, w, info), SVD (a, s, u, v^H or v, info), eig
// of real matrices (wr, wi, vl, vr, info) and of complex ones (w, vl, vr,
// info), the vectors complex; cuSOLVER's eig (a, w, vl, vr, info), w
// complex, a real matrix's vectors in LAPACK's packed real form.
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
  enum class Kind { Lu, PivotsToPermutation, Eigh, Svd, Eig };
  enum class Vectors { All, Reduced, None };

  Kind kind = Kind::Lu;
  /// The operand: the batch of m x n matrices (the pivots, s32[..., k], for
  /// PivotsToPermutation, whose result holds m rows per matrix).
  RankedTensorType operand;
  int64_t batch = 1, m = 0, n = 0;
  /// Eigh: the triangle read.
  bool lower = true;
  /// Eig: which eigenvectors are computed; cuSOLVER's form (`a` first, w
  /// complex, a real matrix's vectors packed as LAPACK's real routines
  /// write them).
  bool left = false, right = true, packed = false;
  /// Eigh (All or None) and SVD: the vectors computed.
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
