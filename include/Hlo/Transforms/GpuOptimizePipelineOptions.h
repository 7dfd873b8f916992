//===- GpuOptimizePipelineOptions.h - options of the GPU pipelines -*- C++ -*-//
//
// GpuOptimizeOptions as textual pipeline options, shared by
// `hlo-gpu-optimize`, `hlo-gpu-pipeline` and the pipelines of XLA-GPU's
// stages that take them (`hlo-post-layout-assignment`, `hlo-fusion`,
// `hlo-post-fusion-optimization`).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSFORMS_GPUOPTIMIZEPIPELINEOPTIONS_H
#define HLO_TRANSFORMS_GPUOPTIMIZEPIPELINEOPTIONS_H

#include "Hlo/Transforms/Passes.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace hlo {

struct GpuOptimizePipelineOptions
    : PassPipelineOptions<GpuOptimizePipelineOptions> {
  Option<bool> tritonSoftmax{
      *this, "triton-softmax",
      llvm::cl::desc("Run hlo-softmax-rewriter-triton and fuse into its "
                     "`__triton` fusions in priority fusion"),
      llvm::cl::init(true)};
  Option<bool> latencyHiding{
      *this, "latency-hiding",
      llvm::cl::desc("Run hlo-latency-hiding-scheduler after the memory "
                     "scheduler (XLA's xla_gpu_enable_latency_hiding_"
                     "scheduler)"),
      llvm::cl::init(true)};
  Option<bool> deterministic{
      *this, "deterministic",
      llvm::cl::desc("XLA's xla_gpu_deterministic_ops: scatters whose "
                     "result may depend on the order of their updates "
                     "become loops; a thunk program is marked "
                     "deterministic (the CUDA runtime then takes "
                     "deterministic cuDNN algorithms)"),
      llvm::cl::init(false)};
  Option<bool> allowExcessPrecision{
      *this, "allow-excess-precision",
      llvm::cl::desc("XLA's xla_allow_excess_precision: run "
                     "hlo-simplify-fp-conversions, which makes a chain of "
                     "float converts (f32 -> bf16 -> f32) one convert or "
                     "none"),
      llvm::cl::init(true)};
  Option<bool> cubSort{
      *this, "cub-sort",
      llvm::cl::desc("XLA's xla_gpu_enable_cub_radix_sort: run "
                     "hlo-sort-rewriter, which gives large sorts to CUB's "
                     "radix sort"),
      llvm::cl::init(true)};
  Option<bool> expandCholesky{
      *this, "expand-cholesky",
      llvm::cl::desc("As XLA 0.10.2: run hlo-cholesky-expander, which makes "
                     "every cholesky blocked HLO loops, instead of giving it "
                     "to cuSOLVER (hlo-gpusolver-rewriter)"),
      llvm::cl::init(false)};
  Option<bool> expandEigh{
      *this, "expand-eigh",
      llvm::cl::desc("As XLA 0.10.2: run hlo-eigh-expander, which makes "
                     "XLA's Eigh calls Jacobi sweeps, instead of giving "
                     "them to cuSOLVER (hlo-gpusolver-rewriter)"),
      llvm::cl::init(false)};
  Option<bool> topkKernel{
      *this, "topk-kernel",
      llvm::cl::desc("Emit XLA-GPU's top-k kernel calls (__gpu$TopK) as "
                     "kernels of the program (hlo-to-gpu's top-k emitter) "
                     "instead of thunk.top_k, which the runtimes run by "
                     "their prebuilt kernel as XLA runs its custom kernel"),
      llvm::cl::init(false)};
  Option<bool> spmd{
      *this, "spmd",
      llvm::cl::desc("XLA's use_spmd_partitioning: partition a program of "
                     "several partitions by its shardings "
                     "(hlo-spmd-partitioning) instead of removing them"),
      llvm::cl::init(false)};
  Option<std::string> autotuneCache{
      *this, "autotune-cache",
      llvm::cl::desc("XLA's autotune results (xla_gpu_load_autotune_results_"
                     "from; what hlo-run --device=cuda --autotune-cache "
                     "writes), read by the GEMM and convolution algorithm "
                     "pickers")};

  GpuOptimizeOptions get() const {
    GpuOptimizeOptions o;
    o.deterministic = deterministic;
    o.autotuneCache = autotuneCache;
    o.tritonSoftmax = tritonSoftmax;
    o.latencyHiding = latencyHiding;
    o.allowExcessPrecision = allowExcessPrecision;
    o.cubSort = cubSort;
    o.expandCholesky = expandCholesky;
    o.expandEigh = expandEigh;
    o.topkKernel = topkKernel;
    o.spmd = spmd;
    return o;
  }
};

} // namespace hlo
} // namespace mlir

#endif // HLO_TRANSFORMS_GPUOPTIMIZEPIPELINEOPTIONS_H
