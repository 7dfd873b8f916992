//===- HloEffects.h - effects of calls, loops and branches ------*- C++ -*-===//
//
// `call`, `while` and `conditional` have the effects of the computations
// they run: their getEffects reports a read and a write when an
// instruction of one may have effects (recursively). An interface method
// has no symbol table, so getEffects finds each computation by a walk of
// the module; a pass that asks about many instructions passes its own.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOEFFECTS_H
#define HLO_DIALECT_HLO_HLOEFFECTS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::hlo {

/// isMemoryEffectFree(op), with the computations of a call, while or
/// conditional (and of the instructions in them) looked up in `symbols`
/// (the module's table) instead of by a walk of the module: the same
/// answer. A call back into a computation already being asked about adds
/// nothing (a recursive call graph, which HLO forbids but the IR can hold);
/// a computation that does not exist may do anything.
bool isEffectFree(Operation *op, SymbolTable &symbols);

} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLOEFFECTS_H
