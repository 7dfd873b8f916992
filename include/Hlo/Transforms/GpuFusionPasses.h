//===- GpuFusionPasses.h - GPU fusion passes --------------------*- C++ -*-===//
//
// XLA-GPU's fusion passes: priority, multi-output, merger and
// horizontal fusion
// (GpuFusionPasses.td).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSFORMS_GPU_FUSION_PASSES_H
#define HLO_TRANSFORMS_GPU_FUSION_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::hlo {

#define GEN_PASS_DECL
#include "Hlo/Transforms/GpuFusionPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "Hlo/Transforms/GpuFusionPasses.h.inc"

} // namespace mlir::hlo

#endif // HLO_TRANSFORMS_GPU_FUSION_PASSES_H
