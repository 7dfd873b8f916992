//===- CudaFft.h - thunk.fft by cuFFT ---------------------------*- C++ -*-===//
//
// A cuFFT plan per thunk.fft (made once when the program is loaded) and the
// call that runs it. cuFFT's inverse transforms are unnormalized: the 1/N of
// XLA's ifft and irfft is applied by a small kernel of the runtime's own
// (fftScalePtx), loaded with the program's kernels.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_RUNTIME_CUDA_CUDAFFT_H
#define HLO_LIB_RUNTIME_CUDA_CUDAFFT_H

#include "CudaApi.h"

#include "Hlo/Dialect/Thunk/ThunkDialect.h"

#include <memory>
#include <string>

namespace mlir::thunk::cuda {

struct FftPlan {
  ~FftPlan();
  const Cufft *fft = nullptr;
  cufftHandle handle = 0;
  bool planned = false;
  FftType kind = FftType::Fft;
  bool isDouble = false;
  /// For the inverse transforms: the reals of the output, and 1/N.
  int64_t outputReals = 0;
  double scale = 1;
  /// irfft reads a copy of its input (cuFFT's complex-to-real transforms
  /// overwrite theirs): the input's size, the runtime's scratch holds it.
  int64_t inputBytes = 0;
};

/// The PTX of the scaling kernels, `hlo_fft_scale_f32` and
/// `hlo_fft_scale_f64` (data, count, factor): data[i] *= factor for i <
/// count, one thread an element.
const char *fftScalePtx();

FailureOr<std::unique_ptr<FftPlan>> planFft(const Cufft &fft, FftOp op,
                                            std::string &error);

/// Runs `plan` from `input` into `output` on `stream`; `scratch` holds a
/// copy of an irfft's input, `scale` is the scaling kernel of the plan's
/// precision.
LogicalResult runFft(const Driver &cu, FftPlan &plan, CUdeviceptr input,
                     CUdeviceptr output, CUdeviceptr scratch, CUfunction scale,
                     CUstream stream, std::string &error);

} // namespace mlir::thunk::cuda

#endif // HLO_LIB_RUNTIME_CUDA_CUDAFFT_H
