//===- GpuPipeline.cpp - hlo-gpu-pipeline ---------------------------------===//

#include "Hlo/Pipelines/GpuPipeline.h"

#include "Hlo/Conversion/Passes.h"
#include "Hlo/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void mlir::hlo::buildHloGpuPipeline(OpPassManager &pm) {
  buildHloGpuOptimizePipeline(pm);
  pm.addPass(createHloToGpu());
  pm.addPass(createHloToThunk());
  pm.addPass(createHloCommandBufferScheduling());
  pm.addPass(createHloEmbedPtx());
}

void mlir::hlo::registerHloGpuPipeline() {
  PassPipelineRegistration<>(
      "hlo-gpu-pipeline",
      "XLA's GPU compiler end to end: pre-optimization HLO in, a thunk "
      "program out with its kernels' PTX, and their cubin where ptxas is "
      "found (hlo-gpu-optimize, hlo-to-gpu, hlo-to-thunk, "
      "hlo-command-buffer-scheduling, hlo-embed-ptx)",
      buildHloGpuPipeline);
}
