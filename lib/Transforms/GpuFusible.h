//===- GpuFusible.h - XLA-GPU's fusibility rules ----------------*- C++ -*-===//
//
// Private to lib/Transforms: the rules of XLA's gpu_fusible that the fusion
// passes after priority fusion share (multi-output fusion, fusion merger,
// horizontal fusion): which instructions may be roots or producers of
// multi-output fusions, when two fusions' kernels are compatible (their
// heroes' loop shapes), and the operand, reduction and shared memory
// budgets of a fusion.
//
// Not modelled: XLA's tiled transposes (a transpose hero is refused by
// shapesCompatibleForMultiOutputFusion), variadic reductions (never
// multi-output roots), reductions of inputs in a non-default layout.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_GPUFUSIBLE_H
#define HLO_LIB_TRANSFORMS_GPUFUSIBLE_H

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::hlo {

/// A bitcast between element types of different widths (XLA's bitcast of a
/// packed `u4[18]{0:E(4)}` to `s8[9]`): no emitter reads through it, so it
/// is never fused and stays an alias of its operand's buffer.
inline bool isRepackingBitcast(Operation *op) {
  auto bitcast = dyn_cast<BitcastOp>(op);
  if (!bitcast)
    return false;
  Type from = getElementTypeOrSelf(bitcast.getOperand().getType());
  Type to = getElementTypeOrSelf(bitcast.getType());
  return from != to && from.isIntOrFloat() && to.isIntOrFloat() &&
         from.getIntOrFloatBitWidth() != to.getIntOrFloatBitWidth();
}

/// XLA's kMaxUnnestedReductionOutputsPerFusion.
constexpr int64_t kMaxUnnestedReductionsPerFusion = 8;

/// XLA's GetDescriptionForTiledTransposeEmitter for a transpose in the
/// default layout: with unit dimensions dropped and the operand dimensions
/// that stay adjacent and in order merged, the operand's minor group moves
/// and, with the result's minor group, is at least 16 long, or both are at
/// least 8 long and 64 x 128 elements together. Smaller transposes are
/// loops like any other (XLA's transposes that keep a minor dimension of at
/// most 8 bytes, its "102" form, are not recognized here). A copy between
/// layouts counts as one (layout normalization makes it a transpose).
bool isTiledTranspose(Operation *op);

/// Answers XLA's gpu_fusible questions about the instructions of one
/// module; caches per-instruction facts, which `invalidate` drops.
class GpuFusible {
public:
  GpuFusible(SymbolTableCollection &tables, const GpuDeviceInfo &device,
             int64_t maxOperands)
      : tables(tables), device(device), maxOperands(maxOperands) {}

  /// The fused computation's body of a fusion `op`, or null.
  Block *body(Operation *op);

  /// The basic requirements of every fusion here: one static array or
  /// tuple result, static array operands, no control edges, no side
  /// effects; a fusion must be kLoop or kInput and have a body.
  bool isFusible(Operation *op);

  /// True if `op` is a reduce of one array from or to contiguous
  /// dimensions of an input in the default layout (XLA's
  /// IsReductionFromOrToContiguousDimensions): a reduction kernel.
  bool isUnnestedReduction(Operation *op);

  /// The instruction a fused output is computed around: `v`'s definition
  /// followed back through single-operand elementwise ops, bitcasts and
  /// reshapes to an unnested reduction when there is one (XLA's
  /// FindNonTrivialHero for reductions); null for a parameter.
  Operation *heroOf(Value v);

  /// XLA's GetRealHeroForMultiOutputFusion: `op` itself, or for a fusion
  /// the hero of its first output computed around a reduction, else its
  /// first output's definition.
  Operation *realHero(Operation *op);

  /// True if some output of `op` is computed around an unnested reduction
  /// (XLA's IsInputFusibleReduction).
  bool isInputFusibleReduction(Operation *op);

  /// XLA's IsLoopFusion for our fusions: a fusion without a reduction
  /// hero, scatter or dynamic-update-slice root.
  bool isLoopFusion(Operation *op);

  /// XLA's IsFusibleAsMultiOutputFusionRoot.
  bool isFusibleAsMultiOutputFusionRoot(Operation *op);

  /// XLA's IsLoopFusibleAsProducer.
  bool isLoopFusibleAsProducer(Operation *op);

  /// XLA's IsProducerMultiOutputFusible: not a multi-output fusion, nothing
  /// in place, loop-fusible as a producer, not physically transposing.
  bool isProducerMultiOutputFusible(Operation *op);

  /// XLA's ShapesCompatibleForMultiOutputFusion.
  bool shapesCompatibleForMultiOutputFusion(Operation *a, Operation *b);

  /// XLA's FusionFitsInBudget: shared memory, unnested reductions and
  /// operands plus outputs of `a` and `b` fused.
  bool fusionFitsInBudget(Operation *a, Operation *b,
                          bool isConsumerProducerFusion);

  /// The number of instructions of `op` (its fused ones for a fusion).
  int64_t instructionCount(Operation *op);

  /// True if `op` (or a fused instruction) is a dynamic-update-slice or a
  /// scatter (XLA's in-place input/output pairs).
  bool hasInPlaceOp(Operation *op);

  /// Forgets what is cached about `op`.
  void invalidate(Operation *op) { cache.erase(op); }

  SymbolTableCollection &getTables() { return tables; }

private:
  struct Facts {
    int64_t sharedMemory = 0;
    int64_t unnestedReductions = 0;
  };
  const Facts &facts(Operation *op);

  SymbolTableCollection &tables;
  const GpuDeviceInfo &device;
  int64_t maxOperands;
  llvm::DenseMap<Operation *, Facts> cache;
};

/// fuseIntoMultiOutput(src, dst) keeping the block in a valid order: the
/// new fusion takes the place of the later of the two, and the users of
/// the earlier one between them (and theirs) move after it. The two must
/// not reach each other except through the `src` -> `dst` edge (none of
/// the moved instructions may feed the later one). Costs the window
/// between them.
FusionOp fuseIntoMultiOutputInOrder(Operation *src, FusionOp dst,
                                    SymbolTable &symbols,
                                    SymbolTableCollection &tables);

/// The users of `op` that follow it and precede `limit` in its block, and
/// theirs (transitively), in program order.
SmallVector<Operation *> usersBefore(Operation *op, Operation *limit);

/// The number of elements of a static array type; -1 otherwise.
int64_t staticElementCount(Type type);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_GPUFUSIBLE_H
