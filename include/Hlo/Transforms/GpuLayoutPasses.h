//===- GpuLayoutPasses.h - GPU layout passes --------------------*- C++ -*-===//
//
// XLA-GPU's layout assignment and the passes that normalize
// layouts, reshapes, transposes and reductions around it
// (GpuLayoutPasses.td).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSFORMS_GPU_LAYOUT_PASSES_H
#define HLO_TRANSFORMS_GPU_LAYOUT_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::hlo {

#define GEN_PASS_DECL
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"

} // namespace mlir::hlo

#endif // HLO_TRANSFORMS_GPU_LAYOUT_PASSES_H
