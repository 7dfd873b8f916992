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

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir {
namespace gpu {
class GPUFuncOp;
class GPUModuleOp;
} // namespace gpu

namespace hlo {

struct KernelOptions {
  /// Threads per block of a loop kernel (XLA's loop emitter: 128).
  int64_t threadsPerBlock = 128;
  /// Elements per thread of a loop kernel; 0: XLA's choice
  /// (getLoopUnrollFactor), halved until it divides the element count.
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
  /// Reductions of one shape with their epilogues and side outputs (XLA's
  /// ReductionFusion: row and column reductions).
  Reduction,
  /// A transpose of the physically minor dimension at the root, through
  /// shared-memory tiles (XLA's TransposeFusion).
  Transpose,
  /// Input fusions whose outputs are unstrided slices of values of one
  /// shape (horizontal fusion's): one thread per element of the sliced-from
  /// shape (XLA's InputSlicesFusion).
  InputSlices,
  /// Loop fusions whose root is a concatenate of at most 4 operands (after
  /// elementwise unary ops): one thread per element of the largest operand
  /// (XLA's ConcatenateFusion).
  Concatenate,
  /// Loop fusions whose outputs are dynamic-update-slices of fusion
  /// parameters: one thread per element of the update, written into the
  /// output that aliases the parameter (XLA's
  /// InPlaceDynamicUpdateSliceFusion).
  InPlaceDynamicUpdateSlice,
  /// One thread per update element of a scatter root, combined into the
  /// output in place (XLA's ScatterFusion).
  Scatter,
  /// Reduces of the rows of one shape (its physically minor dimensions)
  /// whose results the outputs read back along the same rows (softmax,
  /// layer norm: XLA's Triton normalization fusions, and loop fusions with
  /// a reduce inside): the threads of a row reduce it together, each
  /// reduce in turn, then write the row's outputs.
  Normalization,
  /// A sort (wrapped into a fusion of its own): a bitonic sort, tiles in
  /// shared memory and then global compare-and-swap stages, as a sequence
  /// of kernels (XLA's sort emitter).
  Sort,
  /// A `__gpu$TopK` call (wrapped into a fusion of its own): a block per
  /// row, each thread's best k merged across the warp and the block (XLA's
  /// top-k custom kernel).
  TopK,
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
FailureOr<gpu::GPUFuncOp> emitKernel(Operation *fusion, gpu::GPUModuleOp module,
                                     StringRef name, SymbolTable &symbols,
                                     const KernelOptions &options = {});

/// The loop emitter: one thread per element of the output (of each output
/// of a multi-output fusion, which all have one shape), in the output's
/// physical order.
FailureOr<gpu::GPUFuncOp> emitLoopKernel(Operation *fusion,
                                         gpu::GPUModuleOp module,
                                         StringRef name, SymbolTable &symbols,
                                         const KernelOptions &options = {});

/// A reduction fusion as the reduction emitter sees it
/// (ReductionEmitter.cpp): its heroes (reduces of one input type over the
/// same dimensions, with one result type), its roots (the heroes' results
/// through an elementwise epilogue, or side outputs of the input's shape),
/// and the input's dimensions grouped in physical order (major to minor):
/// kept-major, reduced, kept-minor (kept dimensions minor to every reduced
/// one; none for a row reduction).
struct ReductionInfo {
  SmallVector<ReduceOp> heroes;
  /// The outputs: a root value and, for a variadic reduce's tuple, which
  /// of its elements (else 0).
  SmallVector<Value> roots;
  SmallVector<unsigned> rootElements;
  llvm::DenseSet<Value> sideOutputs;
  RankedTensorType inputType, outputType;
  SmallVector<int64_t> keptMajorDims, reducedDims, keptMinorDims;
  int64_t numKeptMajor = 1, numReduced = 1, numKeptMinor = 1;
  /// The kept-major, reduced and kept-minor dimensions follow each other
  /// in physical order (degenerate ones aside): element (major, r, minor)
  /// is at offset (major * numReduced + r) * numKeptMinor + minor.
  bool contiguous = false;
};

/// The reduction emitter's view of `fusion`, or failure with `reason`.
FailureOr<ReductionInfo> analyzeReductionFusion(Operation *fusion,
                                                SymbolTable &symbols,
                                                std::string &reason);

/// The reduction emitter: row reductions (warp shuffles, shared memory
/// across warps, several rows per block for short rows, vector loads) and
/// column reductions (32 x 32 tiles transposed through shared memory).
FailureOr<gpu::GPUFuncOp>
emitReductionKernel(Operation *fusion, gpu::GPUModuleOp module, StringRef name,
                    SymbolTable &symbols, const KernelOptions &options = {});

/// Whether `fusion` has one output that is, through elementwise ops, a
/// transpose moving the physically minor dimension, large enough for tiles
/// (XLA's thresholds); if not, `reason` says why.
bool isTiledTransposeFusion(Operation *fusion, SymbolTable &symbols,
                            std::string &reason);

/// The transpose emitter: 32 x 32 tiles through shared memory, blocks of
/// 32 x 4 threads, 8 elements per thread (XLA's launch for 32-bit types).
FailureOr<gpu::GPUFuncOp>
emitTransposeKernel(Operation *fusion, gpu::GPUModuleOp module, StringRef name,
                    SymbolTable &symbols, const KernelOptions &options = {});

/// The input-slices emitter: one thread per element of the shape the
/// slices slice (its physical order), each output written where the element
/// lies inside its slice.
FailureOr<gpu::GPUFuncOp>
emitInputSlicesKernel(Operation *fusion, gpu::GPUModuleOp module,
                      StringRef name, SymbolTable &symbols,
                      const KernelOptions &options = {});

/// The concatenate emitter: one thread per element of the concatenate's
/// largest operand; each operand's element (where the operand has it) goes
/// through the elementwise ops after the concatenate to its place in the
/// output.
FailureOr<gpu::GPUFuncOp>
emitConcatenateKernel(Operation *fusion, gpu::GPUModuleOp module,
                      StringRef name, SymbolTable &symbols,
                      const KernelOptions &options = {});

/// The in-place dynamic-update-slice emitter: one thread per element of the
/// update, stored at the clamped offsets into the output, which aliases the
/// updated parameter (the kernel's `hlo.output_aliases`); the output's other
/// elements are not written.
FailureOr<gpu::GPUFuncOp>
emitInPlaceDynamicUpdateSliceKernel(Operation *fusion, gpu::GPUModuleOp module,
                                    StringRef name, SymbolTable &symbols,
                                    const KernelOptions &options = {});

/// Whether the normalization emitter takes `fusion`: its reduces have one
/// input shape and reduce its physically minor dimensions, its outputs have
/// that shape or the reductions' (at least one the rows'), and what depends
/// on a reduction is read only along the same row (elementwise ops,
/// broadcasts of the kept dimensions, later reduces); failure with `reason`
/// saying why not.
LogicalResult canEmitNormalizationKernel(Operation *fusion,
                                         SymbolTable &symbols,
                                         std::string &reason);

/// The normalization emitter: `tx` threads per row (as the reduction
/// emitter's rows), each reduce of the row in program order through xor
/// shuffles (shared memory across warps), every thread then knowing the
/// row's results; then the outputs' elements of the row.
FailureOr<gpu::GPUFuncOp>
emitNormalizationKernel(Operation *fusion, gpu::GPUModuleOp module,
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

/// Whether the sort emitter takes `fusion` (a fusion whose outputs are all
/// the results of one sort, in order); failure with `reason` saying why not.
LogicalResult canEmitSortKernel(Operation *fusion, SymbolTable &symbols,
                                std::string &reason);

/// The sort emitter: the sort as a bitonic sorting network along its
/// dimension, in several kernels (one per global stage, one per run of
/// stages that stay inside a shared-memory tile). Returns the first kernel,
/// which reads the sort's operands and writes the outputs; the others (which
/// sort the outputs in place) are named, in launch order, by its
/// `hlo.then_kernels` (kThenKernelsAttrName).
FailureOr<gpu::GPUFuncOp>
emitSortKernel(Operation *fusion, gpu::GPUModuleOp module, StringRef name,
               SymbolTable &symbols, const KernelOptions &options = {});

/// Whether the top-k emitter takes `fusion` (a fusion whose outputs are
/// the values and indices of one `__gpu$TopK` call); failure with `reason`
/// saying why not.
LogicalResult canEmitTopkKernel(Operation *fusion, SymbolTable &symbols,
                                std::string &reason);

/// The top-k emitter: one kernel, a block per row (TopkEmitter.cpp).
FailureOr<gpu::GPUFuncOp> emitTopkKernel(Operation *fusion,
                                         gpu::GPUModuleOp module,
                                         StringRef name, SymbolTable &symbols,
                                         const KernelOptions &options = {});

/// On a fusion's (first) kernel: the kernels of the same `gpu.module` a
/// runtime launches after it, in order, for the same fusion and with the
/// same arguments (an ArrayAttr of FlatSymbolRefAttr).
constexpr StringLiteral kThenKernelsAttrName = "hlo.then_kernels";

/// The alignment in bytes every kernel's arguments are marked with
/// (`llvm.align`): a runtime passes no buffer aligned less.
constexpr int64_t kKernelArgumentAlignment = 16;

} // namespace hlo
} // namespace mlir

#endif // HLO_CONVERSION_FUSIONEMITTER_H
