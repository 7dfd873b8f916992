//===- HloInterfaces.td - hlo dialect op interfaces ---------*- tablegen -*-===//
//
// Interfaces every HLO instruction op implements.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOINTERFACES_TD
#define HLO_DIALECT_HLO_HLOINTERFACES_TD

include "mlir/IR/OpBase.td"

def Hlo_InstructionOpInterface : OpInterface<"InstructionOpInterface"> {
  let cppNamespace = "::mlir::hlo";
  let description = [{
    An HLO instruction. Its operands are its data operands (HLO's operand
    list) followed by its control predecessors (HLO's
    `control-predecessors={...}`): instructions that must run before this one
    although no data flows from them. Control predecessors are SSA uses, so
    they survive renaming, CSE and DCE, and an instruction with control
    successors stays alive (as in XLA, where a control edge is a use).
  }];
  let methods = [
    StaticInterfaceMethod<"For ops with a variadic data operand group "
      "besides the control predecessors: the number of data operands before "
      "it (the op then has AttrSizedOperandSegments); -1 for the other ops.",
      "int", "getNumLeadingOperands">,
    InterfaceMethod<"The control predecessors.", "::mlir::OperandRange",
      "getControlPredecessors">,
    InterfaceMethod<"The control predecessors, as a mutable range.",
      "::mlir::MutableOperandRange", "getControlPredecessorsMutable">,
    InterfaceMethod<"The data operands: every operand but the control "
      "predecessors.", "::mlir::OperandRange", "getDataOperands", (ins), [{}],
      [{
        return $_op->getOperands().drop_back(
            $_op.getControlPredecessors().size());
      }]>,
  ];
  // The instruction's sharding, if any, fits its result type.
  let verify = [{ return ::mlir::hlo::verifyInstructionSharding($_op); }];
}

// Gives an op the `getNumLeadingOperands` of InstructionOpInterface.
class Hlo_LeadingOperands<int n>
    : ParamNativeOpTrait<"hlo::LeadingOperands", !cast<string>(n)>;

#endif // HLO_DIALECT_HLO_HLOINTERFACES_TD
