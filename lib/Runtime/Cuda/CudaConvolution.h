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
  cudnnTensorDescriptor_t x = nullptr, y = nullptr, z = nullptr, bias = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  cudnnActivationDescriptor_t activation = nullptr;
  cudnnConvolutionFwdAlgo_t forward = {};
  cudnnConvolutionBwdDataAlgo_t backwardData = {};
  cudnnConvolutionBwdFilterAlgo_t backwardFilter = {};
  /// The op's workspace slice, and what the algorithm needs: when that is
  /// more, the runtime passes scratch of its own (the buffer assignment
  /// sized the slice without a GPU to ask).
  size_t sliceBytes = 0, neededBytes = 0;
  /// The algorithms cuDNN offers for it (its heuristic's order;
  /// deterministic ones only in a deterministic program), each with the
  /// scratch it needs, and the one that runs (`candidates[chosen]`), which
  /// autotuning may change (selectConvAlgorithm).
  struct Candidate {
    int algo = 0;
    size_t bytes = 0;
  };
  SmallVector<Candidate> candidates;
  size_t chosen = 0;
  /// The math the descriptor allows: tensor cores (f16, bf16) or not.
  bool tensorOps = false;
  double alpha = 1, alpha2 = 0;
  bool isDouble = false;
  /// A fused convolution without activation: cuDNN's fused call takes it
  /// with one algorithm only, which often refuses the layouts; it runs as
  /// a convolution, then the side input and the bias added.
  bool identity = false;
};

/// Plans `op`, whose workspace slice has `workspace` bytes; with
/// `deterministic`, only among the algorithms cuDNN says are deterministic.
FailureOr<std::unique_ptr<ConvPlan>>
planConvolution(const Cudnn &dnn, ConvolutionOp op, int64_t workspace,
                bool deterministic, std::string &error);

/// Makes `plan.candidates[index]` the algorithm that runs.
void selectConvAlgorithm(ConvPlan &plan, size_t index);

/// Enqueues the convolution on `stream` (bias and side input may be 0)
/// with `workspaceBytes` of scratch at `workspace`.
LogicalResult runConvolution(ConvPlan &plan, CUdeviceptr input,
                             CUdeviceptr filter, CUdeviceptr output,
                             CUdeviceptr bias, CUdeviceptr sideInput,
                             CUdeviceptr workspace, size_t workspaceBytes,
                             CUstream stream, std::string &error);

} // namespace mlir::thunk::cuda

#endif // HLO_LIB_RUNTIME_CUDA_CUDACONVOLUTION_H
