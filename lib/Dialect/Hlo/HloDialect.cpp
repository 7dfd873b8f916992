//===- HloDialect.cpp - hlo dialect ---------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::hlo;

#include "Hlo/Dialect/Hlo/HloOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "Hlo/Dialect/Hlo/HloOpsTypes.cpp.inc"

void HloDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "Hlo/Dialect/Hlo/HloOps.cpp.inc"
      >();
}

void HloDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "Hlo/Dialect/Hlo/HloOpsTypes.cpp.inc"
      >();
}

std::string mlir::hlo::getOpcode(Operation *op) {
  std::string name = op->getName().stripDialect().str();
  for (char &c : name)
    if (c == '_')
      c = '-';
  return name;
}
