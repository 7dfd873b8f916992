//===- TransformUtils.h - helpers the HLO passes share ----------*- C++ -*-===//
//
// Private to lib/Transforms: questions about control edges that decide
// whether a pass may replace or remove an instruction.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_TRANSFORMUTILS_H
#define HLO_LIB_TRANSFORMS_TRANSFORMUTILS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

namespace mlir::hlo {

/// True if `op` is an instruction with control predecessors (it must run
/// after them: removing or replacing it would drop the edges).
inline bool hasControlPredecessors(Operation *op) {
  auto inst = dyn_cast<InstructionOpInterface>(op);
  return inst && !inst.getControlPredecessors().empty();
}

/// True if `op`'s result is some instruction's control predecessor.
inline bool isControlPredecessor(Operation *op) {
  for (OpOperand &use : op->getUses()) {
    auto user = dyn_cast<InstructionOpInterface>(use.getOwner());
    if (user && use.getOperandNumber() >= user.getDataOperands().size())
      return true;
  }
  return false;
}

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_TRANSFORMUTILS_H
