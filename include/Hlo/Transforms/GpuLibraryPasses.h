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

#include <string>

namespace mlir::hlo {

class CustomCallOp;

/// The text XLA's autotune results key a cuBLAS GEMM call by (`hlo` of an
/// AutotuneResults entry): its shape, its operands' shapes, its target and
/// its backend_config, `(f32[4,16]{1,0}, s8[4194304]{0})
/// custom-call(f32[4,8]{1,0}, f32[8,16]{1,0}),
/// custom_call_target="__cublas$lt$matmul", backend_config={...}`; what
/// hlo-gemm-algorithm-picker matches its cache's entries against.
std::string getGemmAutotuneKey(CustomCallOp call);

/// One GEMM's autotuning result: its custom call as HLO text (the key XLA's
/// autotune results use), the index of the chosen cuBLASLt algorithm among
/// the heuristic's candidates, and its time.
struct GemmAutotuneResult {
  std::string hlo;
  int64_t algorithm = 0;
  double seconds = 0;
};

/// Writes `results` to `path` as XLA's AutotuneResults text proto
/// (`version: 3`, then `results { device hlo result { run_time gemm {
/// algorithm } } }`), for the device named `device`.
LogicalResult writeGemmAutotuneResults(StringRef path, StringRef device,
                                       ArrayRef<GemmAutotuneResult> results,
                                       std::string &error);

#define GEN_PASS_DECL
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"

} // namespace mlir::hlo

#endif // HLO_TRANSFORMS_GPU_LIBRARY_PASSES_H
