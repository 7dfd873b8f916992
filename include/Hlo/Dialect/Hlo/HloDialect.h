//===- HloDialect.h - hlo dialect -------------------------------*- C++ -*-===//
//
// The hlo dialect: types, attributes and one op per HLO opcode.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLODIALECT_H
#define HLO_DIALECT_HLO_HLODIALECT_H

#include "Hlo/Support/IndexingMap.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Hlo/Dialect/Hlo/HloOpsDialect.h.inc"
#include "Hlo/Dialect/Hlo/HloEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "Hlo/Dialect/Hlo/HloOpsTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Hlo/Dialect/Hlo/HloAttrs.h.inc"

#define GET_OP_CLASSES
#include "Hlo/Dialect/Hlo/HloOps.h.inc"

namespace mlir::hlo {
/// The HLO opcode spelling of an op of this dialect (`hlo.dynamic_slice` ->
/// `dynamic-slice`).
std::string getOpcode(Operation *op);
} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLODIALECT_H
