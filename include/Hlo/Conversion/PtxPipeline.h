//===- PtxPipeline.h - fusions to PTX ---------------------------*- C++ -*-===//
//
// The `hlo-to-ptx` pipeline: the module's fusions as kernels (hlo-to-gpu),
// lowered through NVVM to one PTX module by MLIR's gpu-module-to-binary.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_CONVERSION_PTXPIPELINE_H
#define HLO_CONVERSION_PTXPIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class DialectRegistry;
class OpPassManager;

namespace hlo {

struct HloToPtxOptions : public PassPipelineOptions<HloToPtxOptions> {
  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("The GPU architecture (sm_80, sm_90, sm_90a, sm_100; "
                     "default: --hlo-gpu-chip, else the compute capability "
                     "of --hlo-gpu-device: sm_90 for the H100)"),
      llvm::cl::init("")};
  Option<int64_t> threadsPerBlock{
      *this, "threads-per-block",
      llvm::cl::desc("Threads per block of loop kernels"), llvm::cl::init(128)};
  Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("The CUDA toolkit, for libdevice (default: $CUDA_HOME, "
                     "$CUDA_PATH, $CUDA_ROOT, /usr/local/cuda)"),
      llvm::cl::init("")};
  Option<bool> allowUnsupported{
      *this, "allow-unsupported",
      llvm::cl::desc("Leave fusions no emitter takes without a kernel"),
      llvm::cl::init(false)};
};

/// `given`, or the CUDA toolkit the environment names, or /usr/local/cuda.
std::string getCudaToolkitPath(StringRef given);

/// The dialects and translations the pipeline needs in the context.
void registerPtxDialects(DialectRegistry &registry);
void buildHloToPtxPipeline(OpPassManager &pm, const HloToPtxOptions &options);
/// The part after hlo-to-gpu: the module's `gpu.module`s of kernels through
/// NVVM to `gpu.binary` objects holding PTX. It is the two below in turn.
void buildKernelsToPtxPipeline(OpPassManager &pm,
                               const HloToPtxOptions &options);
/// The kernel modules lowered to the LLVM and NVVM dialects, with their
/// NVVM target attached.
void buildKernelsToNvvmPipeline(OpPassManager &pm,
                                const HloToPtxOptions &options);
/// Those modules through LLVM's NVPTX back end to `gpu.binary` objects.
void buildNvvmToPtxPipeline(OpPassManager &pm, const HloToPtxOptions &options);
void registerHloToPtxPipeline();

/// The PTX text of the module's `gpu.binary` objects, in order, and of its
/// kernel modules' `thunk.ptx` (a thunk program's), as one PTX module (the
/// header once).
FailureOr<std::string> getPtx(ModuleOp module);

} // namespace hlo
} // namespace mlir

#endif // HLO_CONVERSION_PTXPIPELINE_H
