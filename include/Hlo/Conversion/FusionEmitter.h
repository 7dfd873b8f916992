//===- FusionEmitter.h - hlo fusions to gpu.func kernels --------*- C++ -*-===//
//
// The fusion emitters: a fusion instruction becomes a `gpu.func` kernel in a
// `gpu.module`, its operands and results memrefs over their buffers. Every
// element's address comes from the indexing maps of the fused computation
// (Hlo/Analysis/IndexingAnalysis.h), its value from the scalar lowering
// (ScalarLowering.h). docs/kernels.md describes the kernels.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_CONVERSION_FUSIONEMITTER_H
#define HLO_CONVERSION_FUSIONEMITTER_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
namespace gpu {
class GPUFuncOp;
class GPUModuleOp;
} // namespace gpu

namespace hlo {

struct KernelOptions {
  /// Threads per block of a loop kernel (XLA's loop emitter: 128).
  int64_t threadsPerBlock = 128;
  /// Elements per thread of a loop kernel; 0: 16 bytes over the widest
  /// output element (halved until it divides the element count).
  int64_t unroll = 0;
};

/// The memref a buffer of array type `type` is passed as: one dimension of
/// its element count, in its layout's (physical) order, of the element's
/// scalar type (getScalarType).
MemRefType getKernelBufferType(Type type);

/// Whether a loop kernel can be emitted for `fusion` (an `hlo.fusion` of
/// kind kLoop whose fused instructions all have an emitter); if not,
/// `reason` says why.
bool canEmitLoopKernel(Operation *fusion, SymbolTable &symbols,
                       std::string &reason);

/// Emits the loop kernel of `fusion` into `module` under `name`: one thread
/// per element of the output (of each output of a multi-output fusion, which
/// all have one shape), in the output's physical order, with launch
/// dimensions recorded as the kernel's `known_block_size` and
/// `known_grid_size`. Arguments: the fusion's operands, then its outputs.
/// Fails with an error on `fusion` when an instruction has no emitter.
FailureOr<gpu::GPUFuncOp> emitLoopKernel(Operation *fusion,
                                         gpu::GPUModuleOp module,
                                         StringRef name, SymbolTable &symbols,
                                         const KernelOptions &options = {});

} // namespace hlo
} // namespace mlir

#endif // HLO_CONVERSION_FUSIONEMITTER_H
