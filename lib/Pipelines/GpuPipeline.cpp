//===- GpuPipeline.cpp - hlo-gpu-pipeline ---------------------------------===//

#include "Hlo/Pipelines/GpuPipeline.h"

#include "Hlo/Conversion/Passes.h"
#include "Hlo/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
struct GpuPipelineOptions : PassPipelineOptions<GpuPipelineOptions> {
  Option<bool> deterministic{
      *this, "deterministic",
      llvm::cl::desc("XLA's xla_gpu_deterministic_ops: scatters whose "
                     "result may depend on the order of their updates as "
                     "loops, the program marked deterministic (the CUDA "
                     "runtime then takes deterministic cuDNN algorithms)"),
      llvm::cl::init(false)};
  Option<std::string> autotuneCache{
      *this, "autotune-cache",
      llvm::cl::desc("XLA's autotune results (xla_gpu_load_autotune_results_"
                     "from; what hlo-run --device=cuda --autotune-cache "
                     "writes), read by the GEMM and convolution algorithm "
                     "pickers")};
};
} // namespace

void mlir::hlo::buildHloGpuPipeline(OpPassManager &pm,
                                    const GpuOptimizeOptions &options) {
  buildHloGpuOptimizePipeline(pm, options);
  pm.addPass(createHloToGpu());
  HloToThunkOptions thunkOptions;
  thunkOptions.deterministic = options.deterministic;
  pm.addPass(createHloToThunk(thunkOptions));
  pm.addPass(createHloCommandBufferScheduling());
  pm.addPass(createHloEmbedPtx());
}

void mlir::hlo::registerHloGpuPipeline() {
  PassPipelineRegistration<GpuPipelineOptions>(
      "hlo-gpu-pipeline",
      "XLA's GPU compiler end to end: pre-optimization HLO in, a thunk "
      "program out with its kernels' PTX, and their cubin where ptxas is "
      "found (hlo-gpu-optimize, hlo-to-gpu, hlo-to-thunk, "
      "hlo-command-buffer-scheduling, hlo-embed-ptx)",
      [](OpPassManager &pm, const GpuPipelineOptions &options) {
        GpuOptimizeOptions optimize;
        optimize.deterministic = options.deterministic;
        optimize.autotuneCache = options.autotuneCache;
        buildHloGpuPipeline(pm, optimize);
      });
}
