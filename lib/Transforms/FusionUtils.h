//===- FusionUtils.h - building fusions -------------------------*- C++ -*-===//
//
// Private to lib/Transforms: how the fusion passes build `hlo.fusion` ops
// and their fused computations (XLA's HloInstruction::FuseInstruction and
// the fusion kinds, names and backend_config XLA gives them).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_FUSIONUTILS_H
#define HLO_LIB_TRANSFORMS_FUSIONUTILS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::hlo {

/// The body of the computation `fusion` calls, or null.
Block *getFusedBody(FusionOp fusion, SymbolTableCollection &tables);

/// The instruction a kernel is built around (XLA's non-trivial hero): the
/// root of `op`'s fused computation (or `op` itself), followed back through
/// single-operand elementwise ops, bitcasts and reshapes to a reduce when
/// there is one.
Operation *getFusionHero(Operation *op, SymbolTableCollection &tables);

/// Wraps `op` in a new `fusion` of kind kLoop calling a new private fused
/// computation (one parameter per distinct data operand of `op`, a copy of
/// `op` as its root), inserted after `where` in `symbols`. The fusion takes
/// `op`'s place and `op` is erased.
FusionOp wrapInFusion(Operation *op, SymbolTable &symbols,
                      SymbolTableCollection &tables, Operation *where);

/// Fuses `producer` into `fusion` (XLA's FuseInstruction): the parameters
/// of the fused computation that `producer`'s result feeds are replaced by
/// a copy of `producer` (of its fused instructions when it is a fusion),
/// whose operands become fusion operands (shared with existing ones). The
/// producer itself is left in place for its other users.
void fuseProducerInto(Operation *producer, FusionOp fusion,
                      SymbolTableCollection &tables);

/// Sets `fusion`'s kind (kInput when its hero is a reduce, else kLoop) and
/// the backend_config XLA's GPU fusions carry
/// (`{"operation_queue_id":"0","wait_on_operation_queues":[],
/// "fusion_backend_config":{"kind":...},"force_earliest_schedule":false}`).
void setFusionKindAndConfig(FusionOp fusion, SymbolTableCollection &tables);

/// Names `fusion` and its fused computation as XLA's RenameFusions does:
/// `<kind>_<hero opcodes>_fusion` and `fused_<hero opcodes>`
/// (`loop_add_fusion`, `input_reduce_fusion`; the computation name made unique
/// in `symbols`, `suffixes` holding the next `.N` to try per name).
void nameFusion(FusionOp fusion, SymbolTable &symbols,
                SymbolTableCollection &tables,
                llvm::StringMap<unsigned> &suffixes);

/// The computations whose instructions run as kernels (XLA's
/// GetFusibleComputations): not fused computations, nor computations that
/// other instructions apply element by element (reducers, comparators,
/// mapped and scattered computations); while bodies and conditions,
/// conditional branches and called computations are.
SmallVector<ComputationOp> getFusibleComputations(ModuleOp module,
                                                  SymbolTable &symbols);

/// Sets `fusion`'s kind to `kind` and the backend_config XLA's GPU fusions
/// carry (the JSON of setFusionKindAndConfig).
void setFusionConfig(FusionOp fusion, FusionKind kind);

/// The values a fusion's body returns: the elements of its root tuple (a
/// multi-output fusion) or its root. Empty when the body is missing.
SmallVector<Value> getFusionOutputs(FusionOp fusion,
                                    SymbolTableCollection &tables);

/// True if `op` is a fusion whose root is a tuple (XLA's
/// IsMultiOutputFusion).
bool isMultiOutputFusion(Operation *op, SymbolTableCollection &tables);

/// `outputs` (values of `fusion`'s fused computation) returned as the root
/// tuple of that computation, whose type follows; the old root tuple
/// `oldTuple`, if any and unused, is erased. Returns a fusion of the new
/// type created just before `fusion`, with its operands, attributes and
/// location; the caller moves `fusion`'s users and erases it.
FusionOp withOutputs(FusionOp fusion, ArrayRef<Value> outputs,
                     Operation *oldTuple);

/// Fuses `src` into `dst` as extra outputs (XLA's
/// FuseInstructionIntoMultiOutput and, for a fusion `src`,
/// MergeFusionInstructionIntoMultiOutput): a copy of `src` (of its fused
/// instructions) joins `dst`'s fused computation, its operands becoming
/// fusion operands (shared with existing ones); parameters that `src`'s
/// result fed take the copy (producer-consumer fusion). The root becomes a
/// tuple of `dst`'s outputs followed by `src`'s. The returned fusion
/// replaces `dst` (created just before `dst`, with its attributes and
/// location): `dst`'s and `src`'s users read get-tuple-elements of it
/// (created right after it; existing get-tuple-elements are renumbered).
/// `src`, `dst` and `src`'s fused computation are erased. Both must be
/// array-valued or multi-output fusions, without control edges; `src` must
/// not be a multi-output fusion when it feeds `dst`.
FusionOp fuseIntoMultiOutput(Operation *src, FusionOp dst, SymbolTable &symbols,
                             SymbolTableCollection &tables);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_FUSIONUTILS_H
