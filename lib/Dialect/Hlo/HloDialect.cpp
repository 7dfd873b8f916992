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
  registerInterfaces();
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

//===----------------------------------------------------------------------===//
// Module attributes
//===----------------------------------------------------------------------===//

/// `hlo.input_output_alias` and `hlo.buffer_donor` of a module: lists of
/// {output_index (aliases only), parameter, parameter_index, kind?} naming
/// parameters of the ENTRY computation.
static LogicalResult verifyEntryAliasing(Operation *module,
                                         NamedAttribute attr) {
  bool alias = attr.getName() == "hlo.input_output_alias";
  auto entries = dyn_cast<ArrayAttr>(attr.getValue());
  if (!entries)
    return module->emitError() << attr.getName() << " must be an array";
  ComputationOp entry;
  for (Region &region : module->getRegions())
    for (auto comp : region.getOps<ComputationOp>())
      if (comp.getEntry())
        entry = comp;
  for (Attribute a : entries) {
    auto e = dyn_cast<DictionaryAttr>(a);
    auto param = e ? e.getAs<IntegerAttr>("parameter") : IntegerAttr();
    auto index = e ? e.getAs<DenseI64ArrayAttr>("parameter_index")
                   : DenseI64ArrayAttr();
    auto output =
        e ? e.getAs<DenseI64ArrayAttr>("output_index") : DenseI64ArrayAttr();
    auto kind = e ? e.get("kind") : Attribute();
    bool kindOk = !kind || (alias && isa<StringAttr>(kind) &&
                            llvm::is_contained({"may-alias", "must-alias"},
                                               cast<StringAttr>(kind)));
    size_t expected = 2 + (alias ? 1 : 0) + (kind ? 1 : 0);
    if (!param || !index || (alias != bool(output)) || !kindOk ||
        e.size() != expected)
      return module->emitError()
             << attr.getName() << " entry " << a << " must be {"
             << (alias ? "output_index = array<i64>, " : "")
             << "parameter = N, parameter_index = array<i64>"
             << (alias ? ", kind = \"may-alias\" | \"must-alias\"" : "")
             << "}";
    if (!entry)
      continue;
    int64_t n = param.getInt();
    if (n < 0 || n >= int64_t(entry.getFunctionType().getNumInputs()))
      return module->emitError()
             << attr.getName() << " names parameter " << n
             << " but the ENTRY computation has "
             << entry.getFunctionType().getNumInputs();
  }
  return success();
}

LogicalResult HloDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == "hlo.input_output_alias" || name == "hlo.buffer_donor")
    return verifyEntryAliasing(op, attr);
  return success();
}
