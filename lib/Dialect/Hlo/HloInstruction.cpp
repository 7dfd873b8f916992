//===- HloInstruction.cpp - what every HLO instruction op shares ----------===//
//
// The assembly of instruction ops (data operands, control predecessors,
// attributes, functional type), their operand segments, the inliner
// interface and constant materialization.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::hlo;

#include "Hlo/Dialect/Hlo/HloInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

/// InstructionOpInterface's getNumLeadingOperands for an op name; -1 when
/// the op is no HLO instruction.
static int numLeadingOperands(OperationName name) {
  if (auto *concept = name.getInterface<InstructionOpInterface>())
    return concept->getNumLeadingOperands();
  return -1;
}

void mlir::hlo::addInstructionOperands(OperationState &state, ValueRange data,
                                       ValueRange control) {
  state.addOperands(data);
  state.addOperands(control);
  int leading = numLeadingOperands(state.name);
  if (leading < 0)
    return;
  // One segment per fixed operand, the variadic data group, the control
  // predecessors. Too few data operands leave fixed segments empty, which
  // the op's verifier reports.
  SmallVector<int32_t> segments;
  int32_t left = data.size();
  for (int i = 0; i < leading; ++i) {
    segments.push_back(left > 0 ? 1 : 0);
    left -= segments.back();
  }
  segments.push_back(left);
  segments.push_back(control.size());
  state.addAttribute("operandSegmentSizes",
                     DenseI32ArrayAttr::get(state.getContext(), segments));
}

OperandRange mlir::hlo::getDataOperands(Operation *op) {
  if (auto inst = dyn_cast<InstructionOpInterface>(op))
    return inst.getDataOperands();
  return op->getOperands();
}

//===----------------------------------------------------------------------===//
// Assembly
//===----------------------------------------------------------------------===//

ParseResult mlir::hlo::parseInstruction(OpAsmParser &parser,
                                        OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> data, control;
  SmallVector<Type> controlTypes;
  FunctionType type;
  if (parser.parseOperandList(data))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("after"))) {
    if (parser.parseLParen() || parser.parseOperandList(control) ||
        parser.parseColonTypeList(controlTypes) || parser.parseRParen())
      return failure();
  }
  SMLoc attrLoc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  if (result.attributes.get("operandSegmentSizes"))
    return parser.emitError(attrLoc, "operand segments are implied by the "
                                     "operands and `after(...)`");
  SMLoc typeLoc = parser.getCurrentLocation();
  SmallVector<Value> dataValues, controlValues;
  if (parser.parseColonType(type) ||
      parser.resolveOperands(data, type.getInputs(), typeLoc, dataValues) ||
      parser.resolveOperands(control, controlTypes, typeLoc, controlValues))
    return failure();
  result.addTypes(type.getResults());
  addInstructionOperands(result, dataValues, controlValues);
  return success();
}

void mlir::hlo::printInstruction(OpAsmPrinter &p, Operation *op) {
  auto inst = cast<InstructionOpInterface>(op);
  OperandRange data = inst.getDataOperands();
  OperandRange control = inst.getControlPredecessors();
  if (!data.empty()) {
    p << ' ';
    p.printOperands(data);
  }
  if (!control.empty()) {
    p << " after(";
    p.printOperands(control);
    p << " : ";
    llvm::interleaveComma(control.getTypes(), p);
    p << ')';
  }
  p.printOptionalAttrDict(op->getAttrs(), {"operandSegmentSizes"});
  p << " : ";
  p.printFunctionalType(data.getTypes(), op->getResultTypes());
}

//===----------------------------------------------------------------------===//
// Dialect hooks
//===----------------------------------------------------------------------===//

namespace {
/// Lets MLIR's `inline` pass inline `hlo.call` (as XLA's CallInliner does).
/// Other calls are not inlined: a fusion's computation is its body, and
/// reducers, loop bodies and branches are not called once.
struct HloInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *call, Operation *callable,
                       bool wouldBeCloned) const final {
    auto callOp = dyn_cast<CallOp>(call);
    if (!callOp || !callOp.getControlPredecessors().empty())
      return false;
    // A call that is some instruction's control predecessor stays: its
    // inlined body would not be one instruction to order after.
    return llvm::all_of(callOp->getUses(), [](OpOperand &use) {
      auto user = dyn_cast<InstructionOpInterface>(use.getOwner());
      return !user || use.getOperandNumber() < user.getDataOperands().size();
    });
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  void handleTerminator(Operation *op, ValueRange valuesToReplace) const final {
    valuesToReplace.front().replaceAllUsesWith(cast<ReturnOp>(op).getRoot());
  }
};
} // namespace

void HloDialect::registerInterfaces() {
  addInterfaces<HloInlinerInterface>();
}

Operation *HloDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  if (!isa<ElementsAttr, ArrayAttr, DistinctAttr>(value))
    return nullptr;
  OperationState state(loc, ConstantOp::getOperationName());
  state.addTypes(type);
  state.addAttribute("value", value);
  return builder.create(state);
}
