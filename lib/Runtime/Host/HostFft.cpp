//===- HostFft.cpp - thunk.fft on the CPU ---------------------------------===//
//
// `thunk.fft` through FFTW (Debian's libfftw3): one plan per run over the
// slices' bytes, the batch as FFTW's `howmany`, single precision through
// fftwf_*, double through fftw_*. FFTW computes unnormalized transforms, so
// the inverse ones are scaled by 1/N afterwards, as XLA's are. Plans are made
// with FFTW_ESTIMATE (no trial runs, the slices untouched) and
// FFTW_UNALIGNED (a slice starts anywhere in the arena).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Thunk/ThunkDialect.h"
#include "Hlo/Runtime/Host/HostRuntime.h"

#include <fftw3.h>

#include <climits>
#include <complex>
#include <cstring>
#include <mutex>
#include <vector>

using namespace mlir;
using namespace mlir::thunk;

namespace {

/// FFTW's planner is not thread-safe: plans are made and destroyed under
/// this lock (executing them is safe).
std::mutex plannerMutex;

/// The FFTW entry points of one precision.
template <typename Real> struct Fftw;

template <> struct Fftw<float> {
  using Plan = fftwf_plan;
  using Complex = fftwf_complex;
  static constexpr auto c2c = fftwf_plan_many_dft;
  static constexpr auto r2c = fftwf_plan_many_dft_r2c;
  static constexpr auto c2r = fftwf_plan_many_dft_c2r;
  static constexpr auto execute = fftwf_execute;
  static constexpr auto destroy = fftwf_destroy_plan;
};

template <> struct Fftw<double> {
  using Plan = fftw_plan;
  using Complex = fftw_complex;
  static constexpr auto c2c = fftw_plan_many_dft;
  static constexpr auto r2c = fftw_plan_many_dft_r2c;
  static constexpr auto c2r = fftw_plan_many_dft_c2r;
  static constexpr auto execute = fftw_execute;
  static constexpr auto destroy = fftw_destroy_plan;
};

template <typename Real>
LogicalResult runFft(FftOp op, uint8_t *input, uint8_t *output,
                     std::string &error) {
  using F = Fftw<Real>;
  using Complex = typename F::Complex;
  FftType kind = op.getFftType();
  SmallVector<int> n(op.getLength().begin(), op.getLength().end());
  int rank = n.size();
  int batch = op.getBatch();
  int64_t total = op.getTransformElements();
  if (total > INT_MAX || op.getBatch() > INT_MAX) {
    error = "thunk.fft: more elements than FFTW's int sizes describe";
    return failure();
  }
  // Elements per transform on the real (or full complex) side and on the
  // half-spectrum side of rfft/irfft.
  int full = total, half = op.getHalfSpectrumElements();
  int64_t inBytes = getStorageBytes(op.getInput().getType());
  int64_t outBytes = getStorageBytes(op.getOutput().getType());

  // The input is read from a copy when FFTW would overwrite it (irfft) or
  // when it overlaps the output other than exactly (in place).
  std::vector<uint8_t> copy;
  bool overlaps = input < output + outBytes && output < input + inBytes;
  if (kind == FftType::Irfft || (overlaps && input != output)) {
    copy.assign(input, input + inBytes);
    input = copy.data();
  }
  unsigned flags = FFTW_ESTIMATE | FFTW_UNALIGNED;
  typename F::Plan plan = nullptr;
  {
    std::lock_guard<std::mutex> lock(plannerMutex);
    switch (kind) {
    case FftType::Fft:
    case FftType::Ifft:
      plan = F::c2c(rank, n.data(), batch, reinterpret_cast<Complex *>(input),
                    nullptr, 1, full, reinterpret_cast<Complex *>(output),
                    nullptr, 1, full,
                    kind == FftType::Fft ? FFTW_FORWARD : FFTW_BACKWARD, flags);
      break;
    case FftType::Rfft:
      plan = F::r2c(rank, n.data(), batch, reinterpret_cast<Real *>(input),
                    nullptr, 1, full, reinterpret_cast<Complex *>(output),
                    nullptr, 1, half, flags);
      break;
    case FftType::Irfft:
      plan = F::c2r(rank, n.data(), batch, reinterpret_cast<Complex *>(input),
                    nullptr, 1, half, reinterpret_cast<Real *>(output), nullptr,
                    1, full, flags);
      break;
    }
  }
  if (!plan) {
    error = "thunk.fft: FFTW has no plan for this transform";
    return failure();
  }
  F::execute(plan);
  {
    std::lock_guard<std::mutex> lock(plannerMutex);
    F::destroy(plan);
  }
  if (kind == FftType::Ifft || kind == FftType::Irfft) {
    // Real numbers: every component of the output scaled alike.
    Real scale = Real(1) / Real(total);
    auto *values = reinterpret_cast<Real *>(output);
    for (int64_t i = 0, e = outBytes / int64_t(sizeof(Real)); i < e; ++i)
      values[i] *= scale;
  }
  return success();
}

} // namespace

LogicalResult mlir::thunk::runHostFft(Operation *fft, uint8_t *input,
                                      uint8_t *output, std::string &error) {
  auto op = cast<FftOp>(fft);
  if (op.getRealType().isF32())
    return runFft<float>(op, input, output, error);
  return runFft<double>(op, input, output, error);
}
