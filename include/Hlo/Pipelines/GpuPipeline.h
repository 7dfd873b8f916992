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

#include "Hlo/Transforms/Passes.h"

namespace mlir {
class OpPassManager;
namespace hlo {

/// `options` as hlo-gpu-optimize takes them (with `deterministic` the
/// program is also marked deterministic for the CUDA runtime).
void buildHloGpuPipeline(OpPassManager &pm,
                         const GpuOptimizeOptions &options = {});
void registerHloGpuPipeline();

} // namespace hlo
} // namespace mlir

#endif // HLO_PIPELINES_GPUPIPELINE_H
