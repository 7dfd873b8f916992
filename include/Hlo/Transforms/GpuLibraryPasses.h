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

#define GEN_PASS_DECL
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"

} // namespace mlir::hlo

#endif // HLO_TRANSFORMS_GPU_LIBRARY_PASSES_H
