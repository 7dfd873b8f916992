//===- HloDialect.cpp - hlo dialect ---------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include <set>
#include <vector>

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

/// `hlo.input_output_alias` (#hlo.input_output_alias entries) and
/// `hlo.buffer_donor` (#hlo.buffer_donor entries) of a module: the indices
/// exist in the ENTRY computation's parameters and result, no output is
/// aliased twice and no parameter buffer is donated twice.
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
  std::set<std::vector<int64_t>> outputs, params;
  for (Attribute a : entries) {
    int64_t param;
    ArrayRef<int64_t> paramIndex, outputIndex;
    if (auto e = dyn_cast<InputOutputAliasAttr>(a); e && alias) {
      param = e.getParameter();
      paramIndex = e.getParameterIndex();
      outputIndex = e.getOutputIndex();
    } else if (auto d = dyn_cast<BufferDonorAttr>(a); d && !alias) {
      param = d.getParameter();
      paramIndex = d.getParameterIndex();
    } else {
      return module->emitError()
             << attr.getName() << " entry " << a << " must be a "
             << (alias ? "#hlo.input_output_alias" : "#hlo.buffer_donor");
    }
    std::vector<int64_t> key(paramIndex.begin(), paramIndex.end());
    key.insert(key.begin(), param);
    if (alias && !outputs
                      .insert(std::vector<int64_t>(outputIndex.begin(),
                                                   outputIndex.end()))
                      .second)
      return module->emitError() << attr.getName() << " aliases output {"
                                 << outputIndex << "} twice";
    if (!alias && !params.insert(key).second)
      return module->emitError() << attr.getName() << " donates parameter "
                                 << param << " {" << paramIndex << "} twice";
    if (!entry)
      continue;
    FunctionType fn = entry.getFunctionType();
    if (param >= int64_t(fn.getNumInputs()))
      return module->emitError()
             << attr.getName() << " names parameter " << param
             << " but the ENTRY computation has " << fn.getNumInputs();
    if (!getSubshape(fn.getInput(param), paramIndex))
      return module->emitError() << attr.getName() << " parameter index {"
                                 << paramIndex << "} is not in parameter "
                                 << param << " of type " << fn.getInput(param);
    if (alias && fn.getNumResults() == 1 &&
        !getSubshape(fn.getResult(0), outputIndex))
      return module->emitError()
             << attr.getName() << " output index {" << outputIndex
             << "} is not in the ENTRY result " << fn.getResult(0);
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

LogicalResult HloDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  if (attr.getName() != "hlo.sharding")
    return success();
  auto sharding = dyn_cast<ShardingAttr>(attr.getValue());
  if (!sharding)
    return op->emitError("hlo.sharding of argument ")
           << argIndex << " must be an #hlo.sharding";
  auto fn = dyn_cast<FunctionOpInterface>(op);
  if (!fn || argIndex >= fn.getNumArguments())
    return success();
  return sharding.verifyForType(fn.getArgumentTypes()[argIndex], [&]() {
    return op->emitError("hlo.sharding of argument ") << argIndex << ": ";
  });
}
