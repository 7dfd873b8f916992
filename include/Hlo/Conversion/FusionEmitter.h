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

/// The fusion emitters, as XLA's GPU backend names them.
enum class EmitterKind {
  /// One thread per output element (XLA's LoopFusion); also takes input
  /// fusions whose reductions no reduction emitter takes, as loops.
  Loop,
  /// One thread per update element of a scatter root, combined into the
  /// output in place (XLA's ScatterFusion).
  Scatter,
};

/// The name of an emitter ("loop", ...), for diagnostics and remarks.
StringRef stringifyEmitterKind(EmitterKind kind);

/// The emitter that takes `fusion` (XLA's choice of fusion emitter from
/// the fusion's kind and heroes), or failure with `reason` saying why none
/// does.
FailureOr<EmitterKind> chooseEmitter(Operation *fusion, SymbolTable &symbols,
                                     std::string &reason);

/// Emits the kernel of `fusion` into `module` under `name` with the emitter
/// chooseEmitter picks. Kernel arguments: the fusion's operands, then its
/// outputs (getKernelBufferType); launch dimensions are recorded as the
/// kernel's `known_block_size` and `known_grid_size`. Fails with an error
/// on `fusion` when no emitter takes it or an instruction has no element
/// generator.
FailureOr<gpu::GPUFuncOp> emitKernel(Operation *fusion,
                                     gpu::GPUModuleOp module, StringRef name,
                                     SymbolTable &symbols,
                                     const KernelOptions &options = {});

/// The loop emitter: one thread per element of the output (of each output
/// of a multi-output fusion, which all have one shape), in the output's
/// physical order.
FailureOr<gpu::GPUFuncOp> emitLoopKernel(Operation *fusion,
                                         gpu::GPUModuleOp module,
                                         StringRef name, SymbolTable &symbols,
                                         const KernelOptions &options = {});

/// Whether the scatter emitter takes `fusion` (an input fusion whose root
/// is a scatter); failure with `reason` saying why not.
LogicalResult canEmitScatterKernel(Operation *fusion, SymbolTable &symbols,
                                   std::string &reason);

/// The scatter emitter: one thread per element of the updates, which it
/// combines into the element of the output its scatter index names (plain
/// read-modify-write for unique indices, atomics otherwise). The outputs
/// share the buffers of the scatter operands (`hlo.output_aliases`): only
/// scattered elements are written.
FailureOr<gpu::GPUFuncOp>
emitScatterKernel(Operation *fusion, gpu::GPUModuleOp module, StringRef name,
                  SymbolTable &symbols, const KernelOptions &options = {});

} // namespace hlo
} // namespace mlir

#endif // HLO_CONVERSION_FUSIONEMITTER_H
