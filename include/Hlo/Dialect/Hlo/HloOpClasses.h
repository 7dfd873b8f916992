//===- HloOpClasses.h - classes of HLO instructions by opcode ---*- C++ -*-===//
//
// Classes of HLO instructions that XLA defines by opcode and that passes
// and analyses alike ask about.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOOPCLASSES_H
#define HLO_DIALECT_HLO_HLOOPCLASSES_H

#include "mlir/IR/Operation.h"

namespace mlir::hlo {

/// True if `op` is elementwise in XLA's sense
/// (HloInstruction::IsElementwise, by opcode: unary and binary arithmetic,
/// compare, select, clamp, converts, copy and map; XLA also counts a
/// constant, which callers add where they need it).
bool isElementwise(Operation *op);

} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLOOPCLASSES_H
