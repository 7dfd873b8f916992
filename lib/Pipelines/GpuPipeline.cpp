//===- GpuPipeline.cpp - hlo-gpu-pipeline ---------------------------------===//

#include "Hlo/Pipelines/GpuPipeline.h"

#include "Hlo/Conversion/Passes.h"
#include "Hlo/Transforms/GpuOptimizePipelineOptions.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

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
  PassPipelineRegistration<GpuOptimizePipelineOptions>(
      "hlo-gpu-pipeline",
      "XLA's GPU compiler end to end: pre-optimization HLO in, a thunk "
      "program out with its kernels' PTX, and their cubin where nvJitLink "
      "or ptxas is found (hlo-gpu-optimize, hlo-to-gpu, hlo-to-thunk, "
      "hlo-command-buffer-scheduling, hlo-embed-ptx)",
      [](OpPassManager &pm, const GpuOptimizePipelineOptions &options) {
        buildHloGpuPipeline(pm, options.get());
      });
}
