//===- CudaApi.h - the CUDA driver and libraries, opened at run time ------===//
//
// The entry points the CUDA runtime uses, as function pointers filled when
// the libraries are first needed: the driver's through cuGetProcAddress
// (for the API version of the headers this was built with), the libraries'
// (cuBLASLt, cuBLAS, cuDNN, cuFFT, cuSOLVER, NCCL) by dlsym. Building needs
// only the CUDA toolkit's headers; a machine without a driver or without
// cuBLASLt gets an error saying which library is missing instead of a program
// that cannot start.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_RUNTIME_CUDA_CUDAAPI_H
#define HLO_LIB_RUNTIME_CUDA_CUDAAPI_H

#include <cublasLt.h>
#include <cublas_api.h>
#include <cuda.h>
#include <cudnn.h>
#include <cufft.h>
#include <cusolverDn.h>
#ifdef HLO_HAVE_NCCL
#include <nccl.h>
#endif

#include <string>

namespace mlir::thunk::cuda {

// X(name): a driver function, looked up by its unversioned name; the
// member has the type (and the versioned name) cuda.h gives it.
#define HLO_CUDA_DRIVER_FUNCTIONS(X)                                           \
  X(cuInit)                                                                    \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceTotalMem)                                                          \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuCtxSetCurrent)                                                           \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncSetAttribute)                                                        \
  X(cuLaunchKernel)                                                            \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemHostAlloc)                                                            \
  X(cuMemHostGetDevicePointer)                                                 \
  X(cuMemFreeHost)                                                             \
  X(cuMemGetInfo)                                                              \
  X(cuMemcpyHtoDAsync)                                                         \
  X(cuMemcpyDtoHAsync)                                                         \
  X(cuMemcpyDtoDAsync)                                                         \
  X(cuMemsetD8Async)                                                           \
  X(cuMemsetD32Async)                                                          \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuStreamQuery)                                                             \
  X(cuStreamWaitEvent)                                                         \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuStreamBeginCapture)                                                      \
  X(cuStreamEndCapture)                                                        \
  X(cuGraphInstantiateWithFlags)                                               \
  X(cuGraphLaunch)                                                             \
  X(cuGraphDestroy)                                                            \
  X(cuGraphExecDestroy)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)

#define HLO_CUBLASLT_FUNCTIONS(X)                                              \
  X(cublasLtCreate)                                                            \
  X(cublasLtDestroy)                                                           \
  X(cublasLtGetStatusString)                                                   \
  X(cublasLtMatmulDescCreate)                                                  \
  X(cublasLtMatmulDescDestroy)                                                 \
  X(cublasLtMatmulDescSetAttribute)                                            \
  X(cublasLtMatrixLayoutCreate)                                                \
  X(cublasLtMatrixLayoutDestroy)                                               \
  X(cublasLtMatrixLayoutSetAttribute)                                          \
  X(cublasLtMatmulPreferenceCreate)                                            \
  X(cublasLtMatmulPreferenceDestroy)                                           \
  X(cublasLtMatmulPreferenceSetAttribute)                                      \
  X(cublasLtMatmulAlgoGetHeuristic)                                            \
  X(cublasLtMatmul)

// cuDNN's convolution API (the legacy one of cuDNN 9's libcudnn.so.9).
#define HLO_CUDNN_FUNCTIONS(X)                                                 \
  X(cudnnCreate)                                                               \
  X(cudnnDestroy)                                                              \
  X(cudnnSetStream)                                                            \
  X(cudnnGetErrorString)                                                       \
  X(cudnnCreateTensorDescriptor)                                               \
  X(cudnnSetTensorNdDescriptor)                                                \
  X(cudnnDestroyTensorDescriptor)                                              \
  X(cudnnCreateFilterDescriptor)                                               \
  X(cudnnSetFilterNdDescriptor)                                                \
  X(cudnnDestroyFilterDescriptor)                                              \
  X(cudnnCreateConvolutionDescriptor)                                          \
  X(cudnnSetConvolutionNdDescriptor)                                           \
  X(cudnnSetConvolutionGroupCount)                                             \
  X(cudnnSetConvolutionMathType)                                               \
  X(cudnnDestroyConvolutionDescriptor)                                         \
  X(cudnnCreateActivationDescriptor)                                           \
  X(cudnnSetActivationDescriptor)                                              \
  X(cudnnDestroyActivationDescriptor)                                          \
  X(cudnnGetConvolutionForwardAlgorithm_v7)                                    \
  X(cudnnGetConvolutionForwardWorkspaceSize)                                   \
  X(cudnnGetConvolutionBackwardDataAlgorithm_v7)                               \
  X(cudnnGetConvolutionBackwardFilterAlgorithm_v7)                             \
  X(cudnnConvolutionForward)                                                   \
  X(cudnnConvolutionBackwardData)                                              \
  X(cudnnConvolutionBackwardFilter)                                            \
  X(cudnnConvolutionBiasActivationForward)                                     \
  X(cudnnAddTensor)

#define HLO_CUFFT_FUNCTIONS(X)                                                 \
  X(cufftPlanMany)                                                             \
  X(cufftSetStream)                                                            \
  X(cufftExecC2C)                                                              \
  X(cufftExecR2C)                                                              \
  X(cufftExecC2R)                                                              \
  X(cufftExecZ2Z)                                                              \
  X(cufftExecD2Z)                                                              \
  X(cufftExecZ2D)                                                              \
  X(cufftDestroy)

// cuBLAS (v2 API): the triangular solves.
#define HLO_CUBLAS_FUNCTIONS(X)                                                \
  X(cublasCreate_v2)                                                           \
  X(cublasDestroy_v2)                                                          \
  X(cublasSetStream_v2)                                                        \
  X(cublasGetStatusString)                                                     \
  X(cublasStrsm_v2)                                                            \
  X(cublasDtrsm_v2)                                                            \
  X(cublasCtrsm_v2)                                                            \
  X(cublasZtrsm_v2)

// cuSOLVER's dense API: Cholesky factorizations (its 64-bit potrf).
#define HLO_CUSOLVER_FUNCTIONS(X)                                              \
  X(cusolverDnCreate)                                                          \
  X(cusolverDnDestroy)                                                         \
  X(cusolverDnSetStream)                                                       \
  X(cusolverDnCreateParams)                                                    \
  X(cusolverDnXpotrf_bufferSize)                                               \
  X(cusolverDnXpotrf)

// NCCL: the collectives of programs on several devices (libnccl.so.2).
#define HLO_NCCL_FUNCTIONS(X)                                                  \
  X(ncclGetVersion)                                                            \
  X(ncclGetErrorString)                                                        \
  X(ncclCommInitAll)                                                           \
  X(ncclCommDestroy)                                                           \
  X(ncclCommAbort)                                                             \
  X(ncclCommGetAsyncError)                                                     \
  X(ncclGroupStart)                                                            \
  X(ncclGroupEnd)                                                              \
  X(ncclAllReduce)                                                             \
  X(ncclAllGather)                                                             \
  X(ncclReduceScatter)                                                         \
  X(ncclBroadcast)                                                             \
  X(ncclSend)                                                                  \
  X(ncclRecv)

struct Driver {
#define HLO_DECLARE(name) decltype(&::name) name = nullptr;
  HLO_CUDA_DRIVER_FUNCTIONS(HLO_DECLARE)
  /// The CUDA version the driver supports (12080 is 12.8).
  int version = 0;

  /// "cuLaunchKernel: CUDA_ERROR_LAUNCH_FAILED (unspecified launch
  /// failure)".
  std::string describe(const char *call, CUresult result) const;
};

struct CublasLt {
  HLO_CUBLASLT_FUNCTIONS(HLO_DECLARE)
  cublasLtHandle_t handle = nullptr;

  std::string describe(const char *call, cublasStatus_t status) const;
};

struct Cudnn {
  HLO_CUDNN_FUNCTIONS(HLO_DECLARE)
  cudnnHandle_t handle = nullptr;

  std::string describe(const char *call, cudnnStatus_t status) const;
};
struct Cublas {
  HLO_CUBLAS_FUNCTIONS(HLO_DECLARE)
  cublasHandle_t handle = nullptr;

  std::string describe(const char *call, cublasStatus_t status) const;
};

struct Cusolver {
  HLO_CUSOLVER_FUNCTIONS(HLO_DECLARE)
  cusolverDnHandle_t handle = nullptr;
  cusolverDnParams_t params = nullptr;

  std::string describe(const char *call, cusolverStatus_t status) const;
};

struct Cufft {
  HLO_CUFFT_FUNCTIONS(HLO_DECLARE)

  std::string describe(const char *call, cufftResult status) const;
};
#ifdef HLO_HAVE_NCCL
struct Nccl {
  HLO_NCCL_FUNCTIONS(HLO_DECLARE)
  /// The library's version (22809 is 2.28.9).
  int version = 0;

  std::string describe(const char *call, ncclResult_t result) const;
};
#endif
#undef HLO_DECLARE

/// The driver, loaded and initialized once per process (cuInit); null with
/// `error` set when there is none.
const Driver *loadDriver(std::string &error);

/// The most devices one process drives.
constexpr int kMaxDevices = 64;

/// cuBLASLt, loaded once per process, with one handle per device
/// (`device`, an ordinal below kMaxDevices, whose context is current when
/// it is first asked for); null with `error` set when the library cannot
/// be found.
const CublasLt *loadCublasLt(int device, std::string &error);

/// cuDNN, likewise (`$HLO_CUDNN_LIBRARY`, else libcudnn.so.9 where the
/// loader or the CUDA installation has it).
const Cudnn *loadCudnn(int device, std::string &error);

/// cuBLAS (libcublas.so.N, or $HLO_CUBLAS_LIBRARY), one handle per device.
const Cublas *loadCublas(int device, std::string &error);

/// cuSOLVER (libcusolver.so.N, or $HLO_CUSOLVER_LIBRARY), likewise.
const Cusolver *loadCusolver(int device, std::string &error);

/// cuFFT (libcufft.so.N, or $HLO_CUFFT_LIBRARY).
const Cufft *loadCufft(int device, std::string &error);

#ifdef HLO_HAVE_NCCL
/// NCCL (libnccl.so.2, or $HLO_NCCL_LIBRARY), once per process.
const Nccl *loadNccl(std::string &error);
#endif

} // namespace mlir::thunk::cuda

#endif // HLO_LIB_RUNTIME_CUDA_CUDAAPI_H
