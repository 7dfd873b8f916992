//===- CudaFft.cpp - thunk.fft by cuFFT -----------------------------------===//
//
// One cufftPlanMany per thunk.fft: the transformed dimensions as cuFFT's
// `n`, the outer dimensions as its batch, packed row-major arrays (the
// verifier's slices). C2C/R2C/C2R in single precision, Z2Z/D2Z/Z2D in
// double. XLA's FftThunk makes the same calls.
//
//===----------------------------------------------------------------------===//

#include "CudaFft.h"

// kFftScalePtx: FftScale.ptx, embedded by CMake.
#include "FftScalePtx.inc"

#include <climits>

using namespace mlir;
using namespace mlir::thunk;
using namespace mlir::thunk::cuda;

const char *mlir::thunk::cuda::fftScalePtx() { return kFftScalePtx; }

FftPlan::~FftPlan() {
  if (planned)
    fft->cufftDestroy(handle);
}

FailureOr<std::unique_ptr<FftPlan>>
mlir::thunk::cuda::planFft(const Cufft &fft, FftOp op, std::string &error) {
  auto plan = std::make_unique<FftPlan>();
  plan->fft = &fft;
  plan->kind = op.getFftType();
  plan->isDouble = op.getRealType().isF64();
  SmallVector<int> n(op.getLength().begin(), op.getLength().end());
  int64_t total = op.getTransformElements();
  if (total > INT_MAX || op.getBatch() > INT_MAX) {
    error = "thunk.fft: more elements than cufftPlanMany's int sizes describe";
    return failure();
  }
  int full = total, half = op.getHalfSpectrumElements();
  int inDist = full, outDist = full;
  cufftType type = CUFFT_C2C; // every kind sets it below
  switch (plan->kind) {
  case FftType::Fft:
  case FftType::Ifft:
    type = plan->isDouble ? CUFFT_Z2Z : CUFFT_C2C;
    break;
  case FftType::Rfft:
    type = plan->isDouble ? CUFFT_D2Z : CUFFT_R2C;
    outDist = half;
    break;
  case FftType::Irfft:
    type = plan->isDouble ? CUFFT_Z2D : CUFFT_C2R;
    inDist = half;
    plan->inputBytes = getStorageBytes(op.getInput().getType());
    break;
  }
  if (plan->kind == FftType::Ifft || plan->kind == FftType::Irfft) {
    plan->scale = 1.0 / double(total);
    plan->outputReals =
        getStorageBytes(op.getOutput().getType()) / (plan->isDouble ? 8 : 4);
  }
  if (cufftResult r =
          fft.cufftPlanMany(&plan->handle, n.size(), n.data(), nullptr, 1,
                            inDist, nullptr, 1, outDist, type, op.getBatch())) {
    error = fft.describe("cufftPlanMany", r);
    return failure();
  }
  plan->planned = true;
  return plan;
}

LogicalResult mlir::thunk::cuda::runFft(const Driver &cu, FftPlan &plan,
                                        CUdeviceptr input, CUdeviceptr output,
                                        CUdeviceptr scratch, CUfunction scale,
                                        CUstream stream, std::string &error) {
  const Cufft &fft = *plan.fft;
  auto check = [&](const char *call, cufftResult r) {
    if (r != CUFFT_SUCCESS)
      error = fft.describe(call, r);
    return success(r == CUFFT_SUCCESS);
  };
  if (failed(check("cufftSetStream", fft.cufftSetStream(plan.handle, stream))))
    return failure();
  if (plan.inputBytes) {
    if (CUresult r =
            cu.cuMemcpyDtoDAsync(scratch, input, plan.inputBytes, stream)) {
      error = cu.describe("cuMemcpyDtoDAsync (fft input)", r);
      return failure();
    }
    input = scratch;
  }
  auto *in = reinterpret_cast<void *>(input);
  auto *out = reinterpret_cast<void *>(output);
  cufftResult r = CUFFT_SUCCESS;
  const char *call = "";
  bool inverse = plan.kind == FftType::Ifft;
  switch (plan.kind) {
  case FftType::Fft:
  case FftType::Ifft:
    call = plan.isDouble ? "cufftExecZ2Z" : "cufftExecC2C";
    r = plan.isDouble
            ? fft.cufftExecZ2Z(plan.handle, (cufftDoubleComplex *)in,
                               (cufftDoubleComplex *)out,
                               inverse ? CUFFT_INVERSE : CUFFT_FORWARD)
            : fft.cufftExecC2C(plan.handle, (cufftComplex *)in,
                               (cufftComplex *)out,
                               inverse ? CUFFT_INVERSE : CUFFT_FORWARD);
    break;
  case FftType::Rfft:
    call = plan.isDouble ? "cufftExecD2Z" : "cufftExecR2C";
    r = plan.isDouble ? fft.cufftExecD2Z(plan.handle, (cufftDoubleReal *)in,
                                         (cufftDoubleComplex *)out)
                      : fft.cufftExecR2C(plan.handle, (cufftReal *)in,
                                         (cufftComplex *)out);
    break;
  case FftType::Irfft:
    call = plan.isDouble ? "cufftExecZ2D" : "cufftExecC2R";
    r = plan.isDouble ? fft.cufftExecZ2D(plan.handle, (cufftDoubleComplex *)in,
                                         (cufftDoubleReal *)out)
                      : fft.cufftExecC2R(plan.handle, (cufftComplex *)in,
                                         (cufftReal *)out);
    break;
  }
  if (failed(check(call, r)))
    return failure();
  if (!plan.outputReals)
    return success();
  // data, count, factor: the factor in the plan's precision.
  uint64_t count = plan.outputReals;
  float factor32 = float(plan.scale);
  double factor64 = plan.scale;
  void *args[] = {&output, &count,
                  plan.isDouble ? static_cast<void *>(&factor64)
                                : static_cast<void *>(&factor32)};
  constexpr unsigned kBlock = 256;
  unsigned grid = (count + kBlock - 1) / kBlock;
  if (CUresult e = cu.cuLaunchKernel(scale, grid, 1, 1, kBlock, 1, 1, 0, stream,
                                     args, nullptr)) {
    error = cu.describe("cuLaunchKernel(hlo_fft_scale)", e);
    return failure();
  }
  return success();
}
