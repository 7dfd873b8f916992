//===- GpuPipeline.h - the whole GPU compiler as one pipeline ---*- C++ -*-===//
//
// `hlo-gpu-pipeline`: pre-optimization HLO in, a thunk program out (XLA's
// GPU compiler end to end): hlo-gpu-optimize (simplification, library
// calls, layouts, fusion, scheduling, buffer assignment), hlo-to-gpu (a
// kernel per fusion), hlo-to-thunk and hlo-embed-ptx (the kernels' PTX
// attached to their module).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_PIPELINES_GPUPIPELINE_H
#define HLO_PIPELINES_GPUPIPELINE_H

namespace mlir {
class OpPassManager;
namespace hlo {

/// With `deterministic`: XLA's xla_gpu_deterministic_ops.
void buildHloGpuPipeline(OpPassManager &pm, bool deterministic = false);
void registerHloGpuPipeline();

} // namespace hlo
} // namespace mlir

#endif // HLO_PIPELINES_GPUPIPELINE_H
