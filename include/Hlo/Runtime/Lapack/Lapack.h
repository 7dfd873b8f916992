//===- Lapack.h - LAPACK on column-major batches of matrices ----*- C++ -*-===//
//
// The LAPACK routines (OpenBLAS ships them) that the reference interpreter
// and the host runtime call for XLA's and JAX's linear-algebra custom calls,
// behind one element-type switch: every routine takes `batch` consecutive
// column-major matrices (leading dimension the row count) and allocates the
// workspace LAPACK asks for. Element types: f32, f64, complex<f32>,
// complex<f64> (LAPACK's s, d, c, z); real outputs (eigenvalues, singular
// values) are of the real type of that precision.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_RUNTIME_LAPACK_LAPACK_H
#define HLO_RUNTIME_LAPACK_LAPACK_H

#include "mlir/IR/BuiltinTypeInterfaces.h"

#include <cstdint>
#include <optional>

namespace mlir::hlo::lapack {

/// LAPACK's four element types.
enum class Scalar { S, D, C, Z };

/// The LAPACK element type of `element`, if it has one.
std::optional<Scalar> getScalar(Type element);
/// The LAPACK element type of a batch of matrices, if it has one and its
/// dimensions fit LAPACK's int.
std::optional<Scalar> getMatrixScalar(ShapedType type);
/// Bytes of one element, and of its real part.
int64_t sizeOf(Scalar s);
int64_t realSizeOf(Scalar s);

/// ?getrf: the LU factorization with partial pivoting P A = L U of each m x
/// n matrix, in place (L below the diagonal with an implicit unit diagonal,
/// U on and above it); `pivots` gets min(m, n) 1-based row interchanges per
/// matrix and `info` one status per matrix (i > 0: U(i, i) is zero).
void getrf(Scalar s, int64_t batch, int m, int n, void *a, int32_t *pivots,
           int32_t *info);

/// ?syevd (real) / ?heevd (complex): the eigenvalues of each Hermitian n x n
/// matrix, read from its `lower` or upper triangle, ascending in `w` (n per
/// matrix), and with `vectors` the orthonormal eigenvectors as the columns
/// of `a`; without, `a` is destroyed.
void syevd(Scalar s, int64_t batch, int n, bool lower, bool vectors, void *a,
           void *w, int32_t *info);

/// ?gesdd: the singular values of each m x n matrix, descending in `s`
/// (min(m, n) per matrix), and with `job` 'A' all of U (m x m) and V^H (n x
/// n), with 'S' the first min(m, n) columns of U and rows of V^H, with 'N'
/// neither (`u` and `vt` untouched). `a` is destroyed.
void gesdd(Scalar s, int64_t batch, int m, int n, char job, void *a,
           void *sigma, void *u, void *vt, int32_t *info);

/// ?gesvd: as ?gesdd (the same results up to the signs of the vectors),
/// by QR iteration instead of divide and conquer.
void gesvd(Scalar s, int64_t batch, int m, int n, char job, void *a,
           void *sigma, void *u, void *vt, int32_t *info);

/// ?geev: the eigenvalues of each general n x n matrix (`a` destroyed) into
/// `w` (n complex values per matrix, of the precision of `s`), and with
/// `left` / `right` its left (u^H A = w u^H) and right (A v = w v)
/// eigenvectors as the columns of `vl` / `vr` (complex, column-major; each
/// of unit norm with its largest component real, as LAPACK normalizes
/// them; the conjugate pairs of the real routines unpacked). With `packed`
/// (real matrices only) `vl` / `vr` receive the real routine's own columns
/// instead: a conjugate pair's vector as two columns, its real and its
/// imaginary part.
void geev(Scalar s, int64_t batch, int n, bool left, bool right, bool packed,
          void *a, void *w, void *vl, void *vr, int32_t *info);

/// ?potrf: the Cholesky factor of each n x n matrix in its `lower` or upper
/// triangle, the other triangle zeroed (LAPACK leaves the input there, which
/// HLO leaves unspecified); `info` one status per matrix.
void potrf(Scalar s, int64_t batch, int n, bool lower, void *a, int32_t *info);

/// ?geqrf: the Householder QR factorization of each m x n matrix in place,
/// min(m, n) scales per matrix in `tau`. Returns false where LAPACK failed.
bool geqrf(Scalar s, int64_t batch, int m, int n, void *a, void *tau);

/// ?orgqr / ?ungqr: the first n columns of the product of the first k
/// reflectors of each m x n matrix (as ?geqrf leaves them) in place, k
/// scales per matrix in `tau`. Returns false where LAPACK failed.
bool orgqr(Scalar s, int64_t batch, int m, int n, int k, void *a,
           const void *tau);

/// ?gees without sorting: the Schur form T of each n x n matrix A = Z T Z^H
/// in place (upper triangular, or for real matrices quasi-triangular with
/// 2 x 2 blocks for conjugate pairs), with `vectors` Z into `vs` (else `vs`
/// is not written), and the eigenvalues in T's diagonal order into `w` (n
/// complex values per matrix, of the precision of `s`).
void gees(Scalar s, int64_t batch, int n, bool vectors, void *a, void *vs,
          void *w, int32_t *info);

/// ?gehrd: the reduction of each n x n matrix to upper Hessenberg form in
/// place, rows and columns [low, high] (1-based, LAPACK's ilo and ihi)
/// reduced; the Householder vectors below the first subdiagonal and their
/// n - 1 scales per matrix in `tau`.
void gehrd(Scalar s, int64_t batch, int n, int low, int high, void *a,
           void *tau, int32_t *info);

/// ?sytrd (real) / ?hetrd (complex): the reduction of each Hermitian n x n
/// matrix, read from its `lower` or upper triangle, to real symmetric
/// tridiagonal form: its diagonal into `d` (n real values per matrix), its
/// off-diagonal into `e` (n - 1 real values), the Householder vectors in
/// that triangle of `a`, their n - 1 scales per matrix in `tau`.
void sytrd(Scalar s, int64_t batch, int n, bool lower, void *a, void *d,
           void *e, void *tau, int32_t *info);

/// ?gtsv: solves each m x m tridiagonal system, given by its sub-diagonal
/// `dl`, diagonal `d` and super-diagonal `du` (m values per matrix each;
/// dl[0] and du[m - 1] are not read, and none of the three is written), for
/// the m x nrhs right-hand sides of `b`, overwritten with the solutions;
/// `info` per matrix: 0, or i > 0 where U(i, i) is exactly zero.
void gtsv(Scalar s, int64_t batch, int m, int nrhs, const void *dl,
          const void *d, const void *du, void *b, int32_t *info);

} // namespace mlir::hlo::lapack

#endif // HLO_RUNTIME_LAPACK_LAPACK_H
