//===- GpuLibraryPasses.h - GPU library-call passes -------------*- C++ -*-===//
//
// XLA-GPU's library-call rewrites: dots, convolutions and
// solvers into cuBLAS, cuDNN and cuSOLVER custom calls, their padding and
// algorithm choice, and float normalization for them
// (GpuLibraryPasses.td).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSFORMS_GPU_LIBRARY_PASSES_H
#define HLO_TRANSFORMS_GPU_LIBRARY_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::hlo {

class CustomCallOp;

/// The text XLA's autotune results key a cuBLAS GEMM call by (`hlo` of an
/// AutotuneResults entry): its shape, its operands' shapes, its target and
/// its backend_config, `(f32[4,16]{1,0}, s8[4194304]{0})
/// custom-call(f32[4,8]{1,0}, f32[8,16]{1,0}),
/// custom_call_target="__cublas$lt$matmul", backend_config={...}`; what
/// hlo-gemm-algorithm-picker matches its cache's entries against.
std::string getGemmAutotuneKey(CustomCallOp call);

#define GEN_PASS_DECL
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"

} // namespace mlir::hlo

#endif // HLO_TRANSFORMS_GPU_LIBRARY_PASSES_H
