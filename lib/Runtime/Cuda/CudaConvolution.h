//===- CudaConvolution.h - thunk.convolution through cuDNN ----------------===//

#ifndef HLO_LIB_RUNTIME_CUDA_CUDACONVOLUTION_H
#define HLO_LIB_RUNTIME_CUDA_CUDACONVOLUTION_H

#include "CudaApi.h"

#include "Hlo/Dialect/Thunk/ThunkDialect.h"

#include <memory>
#include <string>

namespace mlir::thunk::cuda {

/// One `thunk.convolution` planned for cuDNN: descriptors, algorithm,
/// scales.
struct ConvPlan {
  ~ConvPlan();
  const Cudnn *dnn = nullptr;
  ConvKind kind = ConvKind::Forward;
  cudnnTensorDescriptor_t x = nullptr, y = nullptr, z = nullptr,
                          bias = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  cudnnActivationDescriptor_t activation = nullptr;
  cudnnConvolutionFwdAlgo_t forward = {};
  cudnnConvolutionBwdDataAlgo_t backwardData = {};
  cudnnConvolutionBwdFilterAlgo_t backwardFilter = {};
  size_t workspaceBytes = 0;
  double alpha = 1, alpha2 = 0;
  bool isDouble = false;
  /// A fused convolution without activation (cuDNN runs it with one
  /// algorithm only).
  bool identity = false;
};

/// Plans `op` with `workspace` bytes of scratch.
FailureOr<std::unique_ptr<ConvPlan>> planConvolution(const Cudnn &dnn,
                                                     ConvolutionOp op,
                                                     int64_t workspace,
                                                     std::string &error);

/// Enqueues the convolution on `stream` (bias, side input and workspace
/// may be 0).
LogicalResult runConvolution(ConvPlan &plan, CUdeviceptr input,
                             CUdeviceptr filter, CUdeviceptr output,
                             CUdeviceptr bias, CUdeviceptr sideInput,
                             CUdeviceptr workspace, CUstream stream,
                             std::string &error);

} // namespace mlir::thunk::cuda

#endif // HLO_LIB_RUNTIME_CUDA_CUDACONVOLUTION_H
