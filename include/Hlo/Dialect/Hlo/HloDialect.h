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
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Hlo/Dialect/Hlo/HloOpsDialect.h.inc"
#include "Hlo/Dialect/Hlo/HloEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "Hlo/Dialect/Hlo/HloOpsTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Hlo/Dialect/Hlo/HloAttrs.h.inc"

namespace mlir::OpTrait::hlo {
/// Gives an op InstructionOpInterface's `getNumLeadingOperands`.
template <int N> class LeadingOperands {
public:
  template <typename ConcreteType>
  class Impl : public TraitBase<ConcreteType, Impl> {
  public:
    static int getNumLeadingOperands() { return N; }
  };
};
} // namespace mlir::OpTrait::hlo

namespace mlir::hlo {
/// Checks an instruction's `sharding` attribute against its result type
/// (InstructionOpInterface's verifier).
LogicalResult verifyInstructionSharding(Operation *op);
/// True for the element types HLO has: pred (i1), s1 (si1), s2..s64
/// (signless), u1..u64, the float types of HLO text (f16, bf16, f32, f64,
/// tf32, the f8/f6/f4 types) and c64/c128.
bool isHloElementType(Type type);
/// True for the types an HLO value can have (an HLO shape): a ranked tensor
/// of an HLO element type with no encoding or an #hlo.layout, a tuple of
/// HLO shapes, !hlo.token, !hlo.opaque.
bool isHloValueType(Type type);

/// The dictionary-valued instruction attributes, checked entry by entry so
/// that every verified one has an HLO spelling (ODS constraints of
/// HloOps.td):
/// frontend_attributes: every value a string.
bool isStringDictionary(DictionaryAttr dict);
/// unknown_attrs: HLO attribute names mapped to #hlo.text values.
bool isTextDictionary(DictionaryAttr dict);
/// statistics: HLO names mapped to floats; `visualizing_index` an integer.
bool isStatisticsDictionary(DictionaryAttr dict);
/// result_accuracy: `{mode = "<name>"}`, or one or more of `atol` and `rtol`
/// (floats) and `ulps` (an integer).
bool isAccuracyDictionary(DictionaryAttr dict);
/// domain: `kind` (a string), `entry` and `exit` (#hlo.sharding).
bool isDomainDictionary(DictionaryAttr dict);
/// custom-call literal: `shape` (an HLO shape) and `value`.
bool isTypedLiteralDictionary(DictionaryAttr dict);
} // namespace mlir::hlo

#include "Hlo/Dialect/Hlo/HloInterfaces.h.inc"

/// CallOpInterface for an op whose `inputs` are the arguments of the
/// computation its `Callee` attribute names (`get##Callee##Attr`). HLO calls
/// carry no argument or result attributes.
#define HLO_CALL_INTERFACE_METHODS(Callee)                                     \
  ::mlir::CallInterfaceCallable getCallableForCallee() {                       \
    return get##Callee##Attr();                                                \
  }                                                                            \
  void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {           \
    set##Callee##Attr(::llvm::cast<::mlir::FlatSymbolRefAttr>(                 \
        ::llvm::cast<::mlir::SymbolRefAttr>(callee)));                         \
  }                                                                            \
  ::mlir::Operation::operand_range getArgOperands() { return getInputs(); }    \
  ::mlir::MutableOperandRange getArgOperandsMutable() {                        \
    return getInputsMutable();                                                 \
  }                                                                            \
  ::mlir::ArrayAttr getArgAttrsAttr() { return nullptr; }                      \
  ::mlir::ArrayAttr getResAttrsAttr() { return nullptr; }                      \
  void setArgAttrsAttr(::mlir::ArrayAttr) {}                                   \
  void setResAttrsAttr(::mlir::ArrayAttr) {}                                   \
  ::mlir::Attribute removeArgAttrsAttr() { return nullptr; }                   \
  ::mlir::Attribute removeResAttrsAttr() { return nullptr; }

namespace mlir::hlo {
/// The assembly of an HLO instruction op:
///   `%data, ... after(%pred, ... : types) {attrs} : (types) -> type`.
ParseResult parseInstruction(OpAsmParser &parser, OperationState &result);
void printInstruction(OpAsmPrinter &p, Operation *op);

/// Adds the data operands and control predecessors of an HLO instruction to
/// `state`, with the operand segment sizes of the ops that need them.
void addInstructionOperands(OperationState &state, ValueRange data,
                            ValueRange control);

/// The result type HLO infers for the instruction `op` from its operands
/// and attributes (its InferTypeOpInterface, whatever its current result
/// type); failure, with a diagnostic at `op`, if its shape rule rejects
/// them or HLO does not determine its result (broadcast, reshape, ...).
FailureOr<Type> inferInstructionType(Operation *op);

/// Creates the HLO instruction op `name` (e.g. SliceOp::getOperationName())
/// with data operands `operands` and attributes `attrs`. A null `type` is
/// inferred (inferInstructionType); if that fails nothing is created and
/// the result is null.
Operation *createInstruction(OpBuilder &builder, Location loc, StringRef name,
                             Type type, ValueRange operands,
                             ArrayRef<NamedAttribute> attrs = {});

/// Creates an `OpT` instruction with an inferred result type, no control
/// predecessors and, of the attributes every instruction may carry, only
/// those in `attrs`: `createInferred<AddOp>(b, loc, {x, y})`. Null (after
/// a diagnostic at `loc`) if the shape rule rejects the operands.
template <typename OpT>
OpT createInferred(OpBuilder &builder, Location loc, ValueRange operands,
                   ArrayRef<NamedAttribute> attrs = {}) {
  return llvm::cast_or_null<OpT>(createInstruction(
      builder, loc, OpT::getOperationName(), Type(), operands, attrs));
}

/// Moves what a replaced instruction carries besides its operands and
/// result to its replacement: frontend attributes and sharding (unless the
/// replacement has its own; the sharding only to a result of the same
/// dimensions and structure, as XLA), its location (name and metadata,
/// fused with the replacement's) and its control predecessors.
void transferInstructionAttrs(Operation *from, Operation *to);
} // namespace mlir::hlo

#define GET_OP_CLASSES
#include "Hlo/Dialect/Hlo/HloOps.h.inc"

namespace mlir::hlo {
/// The HLO opcode spelling of an op of this dialect (`hlo.dynamic_slice` ->
/// `dynamic-slice`).
std::string getOpcode(Operation *op);

/// The data operands of an HLO instruction (all operands but its control
/// predecessors); all operands of any other op.
OperandRange getDataOperands(Operation *op);

/// The minor-to-major dimension order of the array type `type`: its
/// layout's, or row-major (rank - 1, ..., 0) when it has none.
SmallVector<int64_t> getMinorToMajor(Type type);

/// The element type a scaled-dot's operand of element type `operand` and its
/// scale of element type `scale` are multiplied in (XLA-GPU's
/// ScaledDotRewriter): bf16 when both are narrower than 16 bits, else
/// their common type, f32 for two types of one width, else the wider.
Type getScaledDotOperandType(Type operand, Type scale);
/// The stride, in elements, of each dimension of the static array type
/// `type` in its layout's physical order (tiles aside): element `i` is at
/// sum(i[d] * strides[d]).
SmallVector<int64_t> getPhysicalStrides(Type type);
/// Whether the static array type `type` lies in memory as a row-major array
/// of its shape does (its physical strides are the row-major ones; unit
/// dimensions may be anywhere in its layout).
bool hasRowMajorStrides(Type type);
} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLODIALECT_H
