//===- Lapack.cpp - LAPACK's factorizations on column-major batches -------===//
//
// OpenBLAS's LAPACK through its Fortran entry points (arguments by address,
// the hidden lengths of character arguments last). Each routine asks LAPACK
// for its workspace once per batch (lwork = -1) and runs matrix by matrix.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Runtime/Lapack/Lapack.h"

#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>
#include <climits>
#include <complex>
#include <cstring>
#include <vector>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::lapack;

using Cf = std::complex<float>;
using Cd = std::complex<double>;

extern "C" {
#define HLO_DECLARE_REAL_AND_COMPLEX(P, T)                                     \
  void P##getrf_(const int *m, const int *n, T *a, const int *lda, int *ipiv,  \
                 int *info);                                                   \
  void P##potrf_(const char *uplo, const int *n, T *a, const int *lda,         \
                 int *info, size_t);                                           \
  void P##geqrf_(const int *m, const int *n, T *a, const int *lda, T *tau,     \
                 T *work, const int *lwork, int *info);                        \
  void P##gehrd_(const int *n, const int *ilo, const int *ihi, T *a,           \
                 const int *lda, T *tau, T *work, const int *lwork,            \
                 int *info);                                                   \
  void P##gtsv_(const int *n, const int *nrhs, T *dl, T *d, T *du, T *b,       \
                const int *ldb, int *info);
HLO_DECLARE_REAL_AND_COMPLEX(s, float)
HLO_DECLARE_REAL_AND_COMPLEX(d, double)
HLO_DECLARE_REAL_AND_COMPLEX(c, Cf)
HLO_DECLARE_REAL_AND_COMPLEX(z, Cd)
#undef HLO_DECLARE_REAL_AND_COMPLEX

#define HLO_DECLARE_REAL(P, T)                                                 \
  void P##orgqr_(const int *m, const int *n, const int *k, T *a,               \
                 const int *lda, const T *tau, T *work, const int *lwork,      \
                 int *info);                                                   \
  void P##syevd_(const char *jobz, const char *uplo, const int *n, T *a,       \
                 const int *lda, T *w, T *work, const int *lwork, int *iwork,  \
                 const int *liwork, int *info, size_t, size_t);                \
  void P##gesdd_(const char *jobz, const int *m, const int *n, T *a,           \
                 const int *lda, T *s, T *u, const int *ldu, T *vt,            \
                 const int *ldvt, T *work, const int *lwork, int *iwork,       \
                 int *info, size_t);                                           \
  void P##gesvd_(const char *jobu, const char *jobvt, const int *m,            \
                 const int *n, T *a, const int *lda, T *s, T *u,               \
                 const int *ldu, T *vt, const int *ldvt, T *work,              \
                 const int *lwork, int *info, size_t, size_t);                 \
  void P##geev_(const char *jobvl, const char *jobvr, const int *n, T *a,      \
                const int *lda, T *wr, T *wi, T *vl, const int *ldvl, T *vr,   \
                const int *ldvr, T *work, const int *lwork, int *info, size_t, \
                size_t);                                                       \
  void P##gees_(const char *jobvs, const char *sort, void *select,             \
                const int *n, T *a, const int *lda, int *sdim, T *wr, T *wi,   \
                T *vs, const int *ldvs, T *work, const int *lwork, int *bwork, \
                int *info, size_t, size_t);                                    \
  void P##sytrd_(const char *uplo, const int *n, T *a, const int *lda, T *d,   \
                 T *e, T *tau, T *work, const int *lwork, int *info, size_t);
HLO_DECLARE_REAL(s, float)
HLO_DECLARE_REAL(d, double)
#undef HLO_DECLARE_REAL

#define HLO_DECLARE_COMPLEX(P, T, R)                                           \
  void P##ungqr_(const int *m, const int *n, const int *k, T *a,               \
                 const int *lda, const T *tau, T *work, const int *lwork,      \
                 int *info);                                                   \
  void P##heevd_(const char *jobz, const char *uplo, const int *n, T *a,       \
                 const int *lda, R *w, T *work, const int *lwork, R *rwork,    \
                 const int *lrwork, int *iwork, const int *liwork, int *info,  \
                 size_t, size_t);                                              \
  void P##gesdd_(const char *jobz, const int *m, const int *n, T *a,           \
                 const int *lda, R *s, T *u, const int *ldu, T *vt,            \
                 const int *ldvt, T *work, const int *lwork, R *rwork,         \
                 int *iwork, int *info, size_t);                               \
  void P##gesvd_(const char *jobu, const char *jobvt, const int *m,            \
                 const int *n, T *a, const int *lda, R *s, T *u,               \
                 const int *ldu, T *vt, const int *ldvt, T *work,              \
                 const int *lwork, R *rwork, int *info, size_t, size_t);       \
  void P##geev_(const char *jobvl, const char *jobvr, const int *n, T *a,      \
                const int *lda, T *w, T *vl, const int *ldvl, T *vr,           \
                const int *ldvr, T *work, const int *lwork, R *rwork,          \
                int *info, size_t, size_t);                                    \
  void P##gees_(const char *jobvs, const char *sort, void *select,             \
                const int *n, T *a, const int *lda, int *sdim, T *w, T *vs,    \
                const int *ldvs, T *work, const int *lwork, R *rwork,          \
                int *bwork, int *info, size_t, size_t);                        \
  void P##hetrd_(const char *uplo, const int *n, T *a, const int *lda, R *d,   \
                 R *e, T *tau, T *work, const int *lwork, int *info, size_t);
HLO_DECLARE_COMPLEX(c, Cf, float)
HLO_DECLARE_COMPLEX(z, Cd, double)
#undef HLO_DECLARE_COMPLEX
}

namespace {

/// One precision's entry points; `R` its real type.
template <typename T> struct Routines;

template <> struct Routines<float> {
  using R = float;
  static constexpr auto getrf = sgetrf_;
  static constexpr auto potrf = spotrf_;
  static constexpr auto geqrf = sgeqrf_;
  static constexpr auto orgqr = sorgqr_;
  static constexpr auto syevd = ssyevd_;
  static constexpr auto gesdd = sgesdd_;
  static constexpr auto gesvd = sgesvd_;
  static constexpr auto geev = sgeev_;
  static constexpr auto gees = sgees_;
  static constexpr auto gehrd = sgehrd_;
  static constexpr auto tridiagonal = ssytrd_;
  static constexpr auto gtsv = sgtsv_;
};
template <> struct Routines<double> {
  using R = double;
  static constexpr auto getrf = dgetrf_;
  static constexpr auto potrf = dpotrf_;
  static constexpr auto geqrf = dgeqrf_;
  static constexpr auto orgqr = dorgqr_;
  static constexpr auto syevd = dsyevd_;
  static constexpr auto gesdd = dgesdd_;
  static constexpr auto gesvd = dgesvd_;
  static constexpr auto geev = dgeev_;
  static constexpr auto gees = dgees_;
  static constexpr auto gehrd = dgehrd_;
  static constexpr auto tridiagonal = dsytrd_;
  static constexpr auto gtsv = dgtsv_;
};
template <> struct Routines<Cf> {
  using R = float;
  static constexpr auto getrf = cgetrf_;
  static constexpr auto potrf = cpotrf_;
  static constexpr auto geqrf = cgeqrf_;
  static constexpr auto orgqr = cungqr_;
  static constexpr auto heevd = cheevd_;
  static constexpr auto gesdd = cgesdd_;
  static constexpr auto gesvd = cgesvd_;
  static constexpr auto geev = cgeev_;
  static constexpr auto gees = cgees_;
  static constexpr auto gehrd = cgehrd_;
  static constexpr auto tridiagonal = chetrd_;
  static constexpr auto gtsv = cgtsv_;
};
template <> struct Routines<Cd> {
  using R = double;
  static constexpr auto getrf = zgetrf_;
  static constexpr auto potrf = zpotrf_;
  static constexpr auto geqrf = zgeqrf_;
  static constexpr auto orgqr = zungqr_;
  static constexpr auto heevd = zheevd_;
  static constexpr auto gesdd = zgesdd_;
  static constexpr auto gesvd = zgesvd_;
  static constexpr auto geev = zgeev_;
  static constexpr auto gees = zgees_;
  static constexpr auto gehrd = zgehrd_;
  static constexpr auto tridiagonal = zhetrd_;
  static constexpr auto gtsv = zgtsv_;
};

template <typename T> constexpr bool isComplex = false;
template <typename R> constexpr bool isComplex<std::complex<R>> = true;

/// A workspace size LAPACK returned in a T (its real part).
template <typename T> int workSize(T query) {
  return std::max(1, int(std::real(query)));
}

/// Calls `f` with a null pointer of the C++ type of `s`.
template <typename F> auto dispatch(Scalar s, F &&f) {
  switch (s) {
  case Scalar::S:
    return f(static_cast<float *>(nullptr));
  case Scalar::D:
    return f(static_cast<double *>(nullptr));
  case Scalar::C:
    return f(static_cast<Cf *>(nullptr));
  case Scalar::Z:
    return f(static_cast<Cd *>(nullptr));
  }
  return f(static_cast<float *>(nullptr));
}

template <typename T>
void getrfOf(int64_t batch, int m, int n, T *a, int32_t *pivots,
             int32_t *info) {
  int lda = std::max(m, 1), k = std::min(m, n);
  for (int64_t i = 0; i < batch; ++i) {
    int status = 0;
    if (k > 0)
      Routines<T>::getrf(&m, &n, a + i * int64_t(m) * n, &lda, pivots + i * k,
                         &status);
    info[i] = status;
  }
}

template <typename T>
void syevdOf(int64_t batch, int n, bool lower, bool vectors, T *a,
             typename Routines<T>::R *w, int32_t *info) {
  using R = typename Routines<T>::R;
  char jobz = vectors ? 'V' : 'N', uplo = lower ? 'L' : 'U';
  int lda = std::max(n, 1), status = 0;
  if (n == 0) {
    std::fill(info, info + batch, 0);
    return;
  }
  T workQuery(0);
  R rworkQuery(0);
  int iworkQuery = 0, query = -1;
  std::vector<T> work;
  std::vector<R> rwork;
  std::vector<int> iwork;
  auto call = [&](T *matrix, R *values, int lwork, int lrwork, int liwork,
                  T *workData, R *rworkData, int *iworkData) {
    if constexpr (isComplex<T>)
      Routines<T>::heevd(&jobz, &uplo, &n, matrix, &lda, values, workData,
                         &lwork, rworkData, &lrwork, iworkData, &liwork,
                         &status, 1, 1);
    else
      Routines<T>::syevd(&jobz, &uplo, &n, matrix, &lda, values, workData,
                         &lwork, iworkData, &liwork, &status, 1, 1);
  };
  call(a, w, query, query, query, &workQuery, &rworkQuery, &iworkQuery);
  work.resize(workSize(workQuery));
  rwork.resize(workSize(rworkQuery));
  iwork.resize(std::max(1, iworkQuery));
  for (int64_t i = 0; i < batch; ++i) {
    call(a + i * int64_t(n) * n, w + i * n, int(work.size()), int(rwork.size()),
         int(iwork.size()), work.data(), rwork.data(), iwork.data());
    info[i] = status;
  }
}

/// ?gesdd (`divideAndConquer`) or ?gesvd.
template <typename T>
void svdOf(int64_t batch, int m, int n, char job, bool divideAndConquer, T *a,
           typename Routines<T>::R *s, T *u, T *vt, int32_t *info) {
  using R = typename Routines<T>::R;
  int k = std::min(m, n), mx = std::max(m, n);
  if (k == 0) {
    std::fill(info, info + batch, 0);
    return;
  }
  int uCols = job == 'A' ? m : k, vtRows = job == 'A' ? n : k;
  int lda = std::max(m, 1), ldu = std::max(m, 1);
  int ldvt = std::max(job == 'N' ? 1 : vtRows, 1);
  // LAPACK's bounds on the real workspace of the complex routines.
  int64_t lrwork = !divideAndConquer ? 5 * int64_t(k)
                   : job == 'N'
                       ? 7 * int64_t(k)
                       : std::max(5 * int64_t(k) * k + 5 * k,
                                  2 * int64_t(mx) * k + 2 * int64_t(k) * k + k);
  std::vector<R> rwork(isComplex<T> ? lrwork : 1);
  std::vector<int> iwork(8 * int64_t(k));
  // With job 'N' LAPACK references neither U nor V^H.
  T dummy(0);
  int status = 0;
  auto call = [&](T *matrix, R *values, T *uData, T *vtData, T *work,
                  int lwork) {
    if (!divideAndConquer) {
      if constexpr (isComplex<T>)
        Routines<T>::gesvd(&job, &job, &m, &n, matrix, &lda, values, uData,
                           &ldu, vtData, &ldvt, work, &lwork, rwork.data(),
                           &status, 1, 1);
      else
        Routines<T>::gesvd(&job, &job, &m, &n, matrix, &lda, values, uData,
                           &ldu, vtData, &ldvt, work, &lwork, &status, 1, 1);
    } else if constexpr (isComplex<T>) {
      Routines<T>::gesdd(&job, &m, &n, matrix, &lda, values, uData, &ldu,
                         vtData, &ldvt, work, &lwork, rwork.data(),
                         iwork.data(), &status, 1);
    } else {
      Routines<T>::gesdd(&job, &m, &n, matrix, &lda, values, uData, &ldu,
                         vtData, &ldvt, work, &lwork, iwork.data(), &status, 1);
    }
  };
  T query(0);
  call(a, s, job == 'N' ? &dummy : u, job == 'N' ? &dummy : vt, &query, -1);
  std::vector<T> work(workSize(query));
  for (int64_t i = 0; i < batch; ++i) {
    T *uI = job == 'N' ? &dummy : u + i * int64_t(m) * uCols;
    T *vtI = job == 'N' ? &dummy : vt + i * int64_t(vtRows) * n;
    call(a + i * int64_t(m) * n, s + i * k, uI, vtI, work.data(),
         int(work.size()));
    info[i] = status;
  }
}

/// ?geev; with `packed` (real T) the real routine's vectors as it writes
/// them, else unpacked into complex ones.
template <typename T>
void geevOf(int64_t batch, int n, bool left, bool right, bool packed, T *a,
            std::complex<typename Routines<T>::R> *w, void *vlOut, void *vrOut,
            int32_t *info) {
  using R = typename Routines<T>::R;
  using CR = std::complex<R>;
  if (n == 0) {
    std::fill(info, info + batch, 0);
    return;
  }
  auto *vl = static_cast<CR *>(vlOut), *vr = static_cast<CR *>(vrOut);
  char jobvl = left ? 'V' : 'N', jobvr = right ? 'V' : 'N';
  int lda = n, ldvl = left ? n : 1, ldvr = right ? n : 1, status = 0;
  int64_t nn = int64_t(n) * n;
  // The real routines' eigenvalues (real and imaginary parts) and packed
  // vectors; the complex routines write w, vl and vr directly.
  std::vector<T> wr(n), wi(n), vlPacked(left ? nn : 1),
      vrPacked(right ? nn : 1);
  std::vector<R> rwork(isComplex<T> ? 2 * n : 1);
  auto call = [&](T *matrix, CR *values, CR *vlI, CR *vrI, T *work, int lwork) {
    if constexpr (isComplex<T>)
      Routines<T>::geev(&jobvl, &jobvr, &n, matrix, &lda, values,
                        left ? vlI : vlPacked.data(), &ldvl,
                        right ? vrI : vrPacked.data(), &ldvr, work, &lwork,
                        rwork.data(), &status, 1, 1);
    else
      Routines<T>::geev(&jobvl, &jobvr, &n, matrix, &lda, wr.data(), wi.data(),
                        vlPacked.data(), &ldvl, vrPacked.data(), &ldvr, work,
                        &lwork, &status, 1, 1);
  };
  T query(0);
  call(a, w, vl, vr, &query, -1);
  std::vector<T> work(workSize(query));
  // Column j of a real routine's packed vectors: a real eigenvector, or
  // with column j + 1 the real and imaginary parts of a conjugate pair's.
  auto unpack = [&](const std::vector<T> &columns, CR *out) {
    for (int j = 0; j < n; ++j) {
      const T *re = columns.data() + int64_t(j) * n;
      if (wi[j] == T(0)) {
        for (int r = 0; r < n; ++r)
          out[int64_t(j) * n + r] = CR(std::real(re[r]), 0);
        continue;
      }
      const T *im = re + n;
      for (int r = 0; r < n; ++r) {
        out[int64_t(j) * n + r] = CR(std::real(re[r]), std::real(im[r]));
        out[int64_t(j + 1) * n + r] = CR(std::real(re[r]), -std::real(im[r]));
      }
      ++j;
    }
  };
  for (int64_t i = 0; i < batch; ++i) {
    // (For packed real vectors the complex views are not written.)
    CR *wI = w + i * n, *vlI = vl + i * nn, *vrI = vr + i * nn;
    call(a + i * nn, wI, vlI, vrI, work.data(), int(work.size()));
    info[i] = status;
    if constexpr (!isComplex<T>) {
      for (int j = 0; j < n; ++j)
        wI[j] = CR(std::real(wr[j]), std::real(wi[j]));
      if (packed) {
        if (left)
          std::copy(vlPacked.begin(), vlPacked.end(),
                    static_cast<T *>(vlOut) + i * nn);
        if (right)
          std::copy(vrPacked.begin(), vrPacked.end(),
                    static_cast<T *>(vrOut) + i * nn);
        continue;
      }
      if (left)
        unpack(vlPacked, vlI);
      if (right)
        unpack(vrPacked, vrI);
    }
  }
}

template <typename T>
void potrfOf(int64_t batch, int n, bool lower, T *a, int32_t *info) {
  char uplo = lower ? 'L' : 'U';
  int lda = std::max(n, 1);
  for (int64_t i = 0; i < batch; ++i) {
    T *matrix = a + i * int64_t(n) * n;
    int status = 0;
    if (n > 0)
      Routines<T>::potrf(&uplo, &n, matrix, &lda, &status, 1);
    info[i] = status;
    // The other triangle; column-major: element (r, c) at c * n + r.
    for (int c = 0; c < n; ++c)
      for (int r = 0; r < n; ++r)
        if (lower ? r < c : r > c)
          matrix[int64_t(c) * n + r] = T(0);
  }
}

/// geqrf (`product` false) or orgqr / ungqr with k scales per matrix.
template <typename T>
bool reflectorsOf(int64_t batch, int m, int n, int k, T *a, T *tau,
                  bool product) {
  int lda = std::max(m, 1), status = 0;
  auto call = [&](T *matrix, T *scales, T *work, int lwork) {
    if (product)
      Routines<T>::orgqr(&m, &n, &k, matrix, &lda, scales, work, &lwork,
                         &status);
    else
      Routines<T>::geqrf(&m, &n, matrix, &lda, scales, work, &lwork, &status);
  };
  if (m == 0 || n == 0)
    return true;
  T query(0);
  call(a, tau, &query, -1);
  std::vector<T> work(workSize(query));
  for (int64_t i = 0; i < batch && status == 0; ++i)
    call(a + i * int64_t(m) * n, tau + i * k, work.data(), int(work.size()));
  return status == 0;
}

/// ?gees without sorting: T in place, Z into `vs`, the eigenvalues
/// (complex) into `w`.
template <typename T>
void geesOf(int64_t batch, int n, bool vectors, T *a, T *vs,
            std::complex<typename Routines<T>::R> *w, int32_t *info) {
  using R = typename Routines<T>::R;
  if (n == 0) {
    std::fill(info, info + batch, 0);
    return;
  }
  char jobvs = vectors ? 'V' : 'N', sort = 'N';
  int lda = n, ldvs = vectors ? n : 1, sdim = 0, status = 0, bwork = 0;
  std::vector<T> wr(n), wi(n), vsDummy(1);
  std::vector<R> rwork(isComplex<T> ? n : 1);
  auto call = [&](T *matrix, T *vsI, std::complex<R> *values, T *work,
                  int lwork) {
    T *z = vectors ? vsI : vsDummy.data();
    if constexpr (isComplex<T>)
      Routines<T>::gees(&jobvs, &sort, nullptr, &n, matrix, &lda, &sdim, values,
                        z, &ldvs, work, &lwork, rwork.data(), &bwork, &status,
                        1, 1);
    else
      Routines<T>::gees(&jobvs, &sort, nullptr, &n, matrix, &lda, &sdim,
                        wr.data(), wi.data(), z, &ldvs, work, &lwork, &bwork,
                        &status, 1, 1);
  };
  T query(0);
  call(a, vs, w, &query, -1);
  std::vector<T> work(workSize(query));
  int64_t nn = int64_t(n) * n;
  for (int64_t i = 0; i < batch; ++i) {
    call(a + i * nn, vs + i * nn, w + i * n, work.data(), int(work.size()));
    info[i] = status;
    if constexpr (!isComplex<T>)
      for (int j = 0; j < n; ++j)
        w[i * n + j] = std::complex<R>(wr[j], wi[j]);
  }
}

template <typename T>
void gehrdOf(int64_t batch, int n, int low, int high, T *a, T *tau,
             int32_t *info) {
  std::fill(info, info + batch, 0);
  if (n <= 1)
    return;
  int lda = n, status = 0, lwork = -1;
  T query(0);
  Routines<T>::gehrd(&n, &low, &high, a, &lda, tau, &query, &lwork, &status);
  std::vector<T> work(workSize(query));
  lwork = int(work.size());
  for (int64_t i = 0; i < batch; ++i) {
    Routines<T>::gehrd(&n, &low, &high, a + i * int64_t(n) * n, &lda,
                       tau + i * (n - 1), work.data(), &lwork, &status);
    info[i] = status;
  }
}

/// ?sytrd / ?hetrd.
template <typename T>
void tridiagonalOf(int64_t batch, int n, bool lower, T *a,
                   typename Routines<T>::R *d, typename Routines<T>::R *e,
                   T *tau, int32_t *info) {
  std::fill(info, info + batch, 0);
  if (n == 0)
    return;
  char uplo = lower ? 'L' : 'U';
  int lda = n, status = 0, lwork = -1;
  T query(0);
  Routines<T>::tridiagonal(&uplo, &n, a, &lda, d, e, tau, &query, &lwork,
                           &status, 1);
  std::vector<T> work(workSize(query));
  lwork = int(work.size());
  for (int64_t i = 0; i < batch; ++i) {
    Routines<T>::tridiagonal(&uplo, &n, a + i * int64_t(n) * n, &lda, d + i * n,
                             e + i * (n - 1), tau + i * (n - 1), work.data(),
                             &lwork, &status, 1);
    info[i] = status;
  }
}

/// ?gtsv on copies of the diagonals (LAPACK overwrites them).
template <typename T>
void gtsvOf(int64_t batch, int m, int nrhs, const T *dl, const T *d,
            const T *du, T *b, int32_t *info) {
  int ldb = std::max(m, 1);
  std::vector<T> lower(std::max(m - 1, 1)), diagonal(std::max(m, 1)),
      upper(std::max(m - 1, 1));
  for (int64_t i = 0; i < batch; ++i) {
    int status = 0;
    if (m > 0) {
      // dl[0] and du[m - 1] are outside the matrix.
      std::copy(dl + i * m + 1, dl + (i + 1) * m, lower.begin());
      std::copy(d + i * m, d + (i + 1) * m, diagonal.begin());
      std::copy(du + i * m, du + (i + 1) * m - 1, upper.begin());
      Routines<T>::gtsv(&m, &nrhs, lower.data(), diagonal.data(), upper.data(),
                        b + i * int64_t(m) * nrhs, &ldb, &status);
    }
    info[i] = status;
  }
}

} // namespace

std::optional<Scalar> lapack::getScalar(Type element) {
  if (element.isF32())
    return Scalar::S;
  if (element.isF64())
    return Scalar::D;
  if (auto c = dyn_cast<ComplexType>(element)) {
    if (c.getElementType().isF32())
      return Scalar::C;
    if (c.getElementType().isF64())
      return Scalar::Z;
  }
  return std::nullopt;
}

std::optional<Scalar> lapack::getMatrixScalar(ShapedType type) {
  for (int64_t d : type.getShape())
    if (d > INT_MAX)
      return std::nullopt;
  return getScalar(type.getElementType());
}

int64_t lapack::sizeOf(Scalar s) {
  return dispatch(s, [](auto *p) { return int64_t(sizeof(*p)); });
}

int64_t lapack::realSizeOf(Scalar s) {
  return s == Scalar::S || s == Scalar::C ? 4 : 8;
}

void lapack::getrf(Scalar s, int64_t batch, int m, int n, void *a,
                   int32_t *pivots, int32_t *info) {
  dispatch(s, [&](auto *p) {
    using T = std::remove_pointer_t<decltype(p)>;
    getrfOf(batch, m, n, static_cast<T *>(a), pivots, info);
  });
}

void lapack::syevd(Scalar s, int64_t batch, int n, bool lower, bool vectors,
                   void *a, void *w, int32_t *info) {
  dispatch(s, [&](auto *p) {
    using T = std::remove_pointer_t<decltype(p)>;
    using R = typename Routines<T>::R;
    syevdOf(batch, n, lower, vectors, static_cast<T *>(a), static_cast<R *>(w),
            info);
  });
}

static void svd(Scalar s, int64_t batch, int m, int n, char job,
                bool divideAndConquer, void *a, void *sigma, void *u, void *vt,
                int32_t *info) {
  dispatch(s, [&](auto *p) {
    using T = std::remove_pointer_t<decltype(p)>;
    using R = typename Routines<T>::R;
    svdOf(batch, m, n, job, divideAndConquer, static_cast<T *>(a),
          static_cast<R *>(sigma), static_cast<T *>(u), static_cast<T *>(vt),
          info);
  });
}

void lapack::gesdd(Scalar s, int64_t batch, int m, int n, char job, void *a,
                   void *sigma, void *u, void *vt, int32_t *info) {
  svd(s, batch, m, n, job, /*divideAndConquer=*/true, a, sigma, u, vt, info);
}

void lapack::gesvd(Scalar s, int64_t batch, int m, int n, char job, void *a,
                   void *sigma, void *u, void *vt, int32_t *info) {
  svd(s, batch, m, n, job, /*divideAndConquer=*/false, a, sigma, u, vt, info);
}

void lapack::geev(Scalar s, int64_t batch, int n, bool left, bool right,
                  bool packed, void *a, void *w, void *vl, void *vr,
                  int32_t *info) {
  dispatch(s, [&](auto *p) {
    using T = std::remove_pointer_t<decltype(p)>;
    using CR = std::complex<typename Routines<T>::R>;
    geevOf(batch, n, left, right, packed, static_cast<T *>(a),
           static_cast<CR *>(w), vl, vr, info);
  });
}

void lapack::potrf(Scalar s, int64_t batch, int n, bool lower, void *a,
                   int32_t *info) {
  dispatch(s, [&](auto *p) {
    using T = std::remove_pointer_t<decltype(p)>;
    potrfOf(batch, n, lower, static_cast<T *>(a), info);
  });
}

bool lapack::geqrf(Scalar s, int64_t batch, int m, int n, void *a, void *tau) {
  return dispatch(s, [&](auto *p) {
    using T = std::remove_pointer_t<decltype(p)>;
    return reflectorsOf(batch, m, n, std::min(m, n), static_cast<T *>(a),
                        static_cast<T *>(tau), /*product=*/false);
  });
}

bool lapack::orgqr(Scalar s, int64_t batch, int m, int n, int k, void *a,
                   const void *tau) {
  return dispatch(s, [&](auto *p) {
    using T = std::remove_pointer_t<decltype(p)>;
    return reflectorsOf(batch, m, n, k, static_cast<T *>(a),
                        const_cast<T *>(static_cast<const T *>(tau)),
                        /*product=*/true);
  });
}

void lapack::gees(Scalar s, int64_t batch, int n, bool vectors, void *a,
                  void *vs, void *w, int32_t *info) {
  dispatch(s, [&](auto *p) {
    using T = std::remove_pointer_t<decltype(p)>;
    using CR = std::complex<typename Routines<T>::R>;
    geesOf(batch, n, vectors, static_cast<T *>(a), static_cast<T *>(vs),
           static_cast<CR *>(w), info);
  });
}

void lapack::gehrd(Scalar s, int64_t batch, int n, int low, int high, void *a,
                   void *tau, int32_t *info) {
  dispatch(s, [&](auto *p) {
    using T = std::remove_pointer_t<decltype(p)>;
    gehrdOf(batch, n, low, high, static_cast<T *>(a), static_cast<T *>(tau),
            info);
  });
}

void lapack::sytrd(Scalar s, int64_t batch, int n, bool lower, void *a, void *d,
                   void *e, void *tau, int32_t *info) {
  dispatch(s, [&](auto *p) {
    using T = std::remove_pointer_t<decltype(p)>;
    using R = typename Routines<T>::R;
    tridiagonalOf(batch, n, lower, static_cast<T *>(a), static_cast<R *>(d),
                  static_cast<R *>(e), static_cast<T *>(tau), info);
  });
}

void lapack::gtsv(Scalar s, int64_t batch, int m, int nrhs, const void *dl,
                  const void *d, const void *du, void *b, int32_t *info) {
  dispatch(s, [&](auto *p) {
    using T = std::remove_pointer_t<decltype(p)>;
    gtsvOf(batch, m, nrhs, static_cast<const T *>(dl),
           static_cast<const T *>(d), static_cast<const T *>(du),
           static_cast<T *>(b), info);
  });
}
