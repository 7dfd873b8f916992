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

/// The text XLA's autotune results key a cuDNN convolution call by: its
/// shape, its operands' shapes, window, dim_labels, group counts, target
/// and backend_config; hlo-conv-algorithm-picker matches its cache's
/// entries on the part up to the target.
std::string getConvAutotuneKey(CustomCallOp call);

/// One autotuned library call: its custom call as HLO text (the key of
/// XLA's autotune results: getGemmAutotuneKey or getConvAutotuneKey), the
/// chosen algorithm (a GEMM's index among cuBLASLt's heuristic's
/// candidates, a convolution's cuDNN algorithm number), its time and, for a
/// convolution, its scratch and whether it may use tensor cores.
struct AutotuneResult {
  enum class Kind { Gemm, Convolution };
  Kind kind = Kind::Gemm;
  std::string hlo;
  int64_t algorithm = 0;
  double seconds = 0;
  int64_t scratchBytes = 0;
  bool tensorOps = false;
};

/// Writes `results` to `path` as XLA's AutotuneResults text proto
/// (`version: 3`, then per call `results { device hlo result { ... } }`:
/// a GEMM's `gemm { algorithm }`, a convolution's `scratch_bytes` and
/// `algorithm { algo_id math_type }`, each with its `run_time`), for the
/// device named `device`.
LogicalResult writeAutotuneResults(StringRef path, StringRef device,
                                   ArrayRef<AutotuneResult> results,
                                   std::string &error);

#define GEN_PASS_DECL
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"

} // namespace mlir::hlo

#endif // HLO_TRANSFORMS_GPU_LIBRARY_PASSES_H
