//===- HloOps.td - hlo dialect ops --------------------------*- tablegen -*-===//
//
// One op per HLO opcode. Every HLO instruction produces exactly one value
// (an array, a tuple, a token or opaque), so every op has one result. Op
// attributes carry HLO's attribute names with `-` turned into `_`. Called
// computations are symbol references to `hlo.computation` ops. Semantics are
// those of XLA's operation semantics for the opcode of the same name.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOOPS_TD
#define HLO_DIALECT_HLO_HLOOPS_TD

include "Hlo/Dialect/Hlo/HloBase.td"
include "Hlo/Dialect/Hlo/HloTypes.td"
include "Hlo/Dialect/Hlo/HloAttrs.td"
include "Hlo/Dialect/Hlo/HloInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/IR/BuiltinAttributes.td"

//===----------------------------------------------------------------------===//
// Computations.
//===----------------------------------------------------------------------===//

// The type of every HLO value: operands, results, computation parameters and
// ROOTs (isHloValueType).
def Hlo_Value : Type<CPred<"::mlir::hlo::isHloValueType($_self)">,
    "HLO shape (tensor of an HLO element type, tuple, token or opaque)">;

def Hlo_ComputationOp : Op<Hlo_Dialect, "computation", [
    IsolatedFromAbove, FunctionOpInterface, OpAsmOpInterface,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "an HLO computation";
  let description = [{
    An HLO computation: its parameters are the block arguments (parameter
    number = argument number) and its ROOT instruction is the operand of the
    terminating `hlo.return`. `entry` marks the module's ENTRY computation and
    `execution_thread` keeps a non-main execution thread. Parameter
    instruction attributes (sharding, metadata, parameter_replication, ...)
    are argument attributes; parameter names are the arguments' locations.
    Every computation but the ENTRY one is private (only instructions of the
    module call it), so `symbol-dce` removes computations nothing calls.
    The ENTRY computation checks, once per module, that every fused
    computation has exactly one caller and that no instruction calls ENTRY.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
    OptionalAttr<StrAttr>:$sym_visibility,
    TypeAttrOf<FunctionType>:$function_type,
    OptionalAttr<DictArrayAttr>:$arg_attrs,
    OptionalAttr<DictArrayAttr>:$res_attrs,
    UnitAttr:$entry,
    OptionalAttr<StrAttr>:$execution_thread);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ArrayRef<Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ArrayRef<Type> getResultTypes() { return getFunctionType().getResults(); }
    Region *getCallableRegion() { return &getBody(); }
    /// The ROOT instruction's value.
    Value getRootValue();
    static StringRef getDefaultDialect() { return "hlo"; }
  }];
}

def Hlo_ReturnOp : Op<Hlo_Dialect, "return", [Pure, Terminator,
    HasParent<"ComputationOp">]> {
  let summary = "marks the ROOT instruction of a computation";
  let arguments = (ins Hlo_Value:$root);
  let assemblyFormat = "$root attr-dict `:` type($root)";
}

//===----------------------------------------------------------------------===//
// Instruction base classes.
//===----------------------------------------------------------------------===//

// Ops whose result type HLO determines from the operands and attributes:
// `inferReturnTypes`, `isCompatibleReturnTypes` and `verify()` come from
// one shape rule each (HloInferTypes.cpp).
defvar HloInfer = InferTypeOpAdaptorWithIsCompatible;

// A dictionary attribute whose entries `::mlir::hlo::<check>` accepts
// (HloDialect.h): each has an HLO spelling.
class Hlo_DictAttr<string check, string summary> : DictionaryAttrBase<
    And<[CPred<"::llvm::isa<::mlir::DictionaryAttr>($_self)">,
         CPred<"::mlir::hlo::" # check #
               "(::llvm::cast<::mlir::DictionaryAttr>($_self))">]>,
    summary>;
def Hlo_StringDictAttr : Hlo_DictAttr<"isStringDictionary",
    "dictionary of strings">;
def Hlo_TextDictAttr : Hlo_DictAttr<"isTextDictionary",
    "dictionary of HLO attribute names to #hlo.text">;
def Hlo_StatisticsDictAttr : Hlo_DictAttr<"isStatisticsDictionary",
    "statistics (visualizing_index an integer, other HLO names floats)">;
def Hlo_AccuracyDictAttr : Hlo_DictAttr<"isAccuracyDictionary",
    "result accuracy ({mode = name} or atol/rtol floats and ulps integer)">;
def Hlo_DomainDictAttr : Hlo_DictAttr<"isDomainDictionary",
    "domain (kind a string, entry and exit shardings)">;
def Hlo_TypedLiteralDictAttr : Hlo_DictAttr<"isTypedLiteralDictionary",
    "typed literal (an HLO shape and a value)">;

// The attributes every HLO instruction may carry.
defvar HloAttrs = (ins
  OptionalAttr<Hlo_ShardingAttr>:$sharding,
  OptionalAttr<AnyAttrOf<[StrAttr, Hlo_TextAttr, Hlo_BackendConfigAttr]>>:$backend_config,
  OptionalAttr<Hlo_StringDictAttr>:$frontend_attributes,
  OptionalAttr<Hlo_StatisticsDictAttr>:$statistics,
  OptionalAttr<Hlo_TextAttr>:$origin,
  OptionalAttr<Hlo_AccuracyDictAttr>:$result_accuracy,
  OptionalAttr<Hlo_TextDictAttr>:$unknown_attrs);
// The control predecessors (always the last operands) and HloAttrs.
defvar HloCommonAttrs =
    !con((ins Variadic<Hlo_Value>:$control_predecessors), HloAttrs);

// An HLO instruction. Its assembly is
//   hlo.op %data... after(%pred... : types) {attrs} : (data types) -> result
// where `after(...)` lists the control predecessors (omitted when none).
//
// `leading`: for ops with a variadic data operand group besides the control
// predecessors (they need AttrSizedOperandSegments), the number of data
// operands before that group; -1 for the other ops.
class Hlo_Op<string mnemonic, list<Trait> traits = [], int leading = -1>
    : Op<Hlo_Dialect, mnemonic,
         !listconcat(traits, [Hlo_InstructionOpInterface,
                              Hlo_LeadingOperands<leading>])> {
  let results = (outs Hlo_Value:$result);
  // The HLO opcode this op implements.
  string opcode = !subst("_", "-", mnemonic);
  let summary = "HLO `" # opcode # "`";
  let hasCustomAssemblyFormat = 1;
  let extraClassDefinition = [{
    ::mlir::ParseResult $cppClass::parse(::mlir::OpAsmParser &parser,
                                         ::mlir::OperationState &result) {
      return ::mlir::hlo::parseInstruction(parser, result);
    }
    void $cppClass::print(::mlir::OpAsmPrinter &p) {
      ::mlir::hlo::printInstruction(p, getOperation());
    }
  }];
}

// An op with a variadic data operand group after `leading` fixed operands.
class Hlo_SegmentedOp<string mnemonic, int leading, list<Trait> traits = []>
    : Hlo_Op<mnemonic, !listconcat(traits, [AttrSizedOperandSegments]),
             leading>;

// One operand. Not Pure by default: infeed, recv, the -done ops, while,
// opt-barrier and domain must not be merged or dropped.
class Hlo_UnaryOp<string mnemonic, string what, dag attrs = (ins),
                  list<Trait> traits = []>
    : Hlo_Op<mnemonic, traits> {
  let arguments = !con((ins Hlo_Value:$operand), attrs, HloCommonAttrs);
  let summary = "HLO `" # opcode # "`: " # what;
}

class Hlo_ElementwiseUnaryOp<string mnemonic, string what,
                             list<Trait> traits = [HloInfer]>
    : Hlo_UnaryOp<mnemonic, what, (ins), !listconcat([Pure], traits)> {
  let hasVerifier = 1;
  let description = [{
    Elementwise: the result has the operand's shape; see XLA operation
    semantics, "Element-wise unary functions".
  }];
}

class Hlo_ElementwiseBinaryOp<string mnemonic, string what, dag attrs = (ins),
                              list<Trait> traits = []>
    : Hlo_Op<mnemonic, !listconcat(traits, [Pure, HloInfer])> {
  let arguments = !con((ins Hlo_Value:$lhs, Hlo_Value:$rhs), attrs, HloCommonAttrs);
  let summary = "HLO `" # opcode # "`: " # what;
  let hasVerifier = 1;
  let description = [{
    Elementwise: both operands and the result have the same dimensions; see
    XLA operation semantics, "Element-wise binary arithmetic operations".
  }];
}

class Hlo_VariadicOp<string mnemonic, string what, dag attrs = (ins),
                     list<Trait> traits = []>
    : Hlo_SegmentedOp<mnemonic, 0, traits> {
  let arguments = !con((ins Variadic<Hlo_Value>:$inputs), attrs, HloCommonAttrs);
  let summary = "HLO `" # opcode # "`: " # what;
}

// Ops that touch state outside their operands and results (device queues,
// channels, other devices, the RNG state, asynchronous chains): never
// merged, removed or moved across each other.
defvar HloSideEffects = MemoryEffects<[MemRead, MemWrite]>;
// Ops that call computations check them through the symbol table.
defvar HloCalls = DeclareOpInterfaceMethods<SymbolUserOpInterface>;
// Ops whose effects are those of the computations they call.
defvar HloCallEffects = DeclareOpInterfaceMethods<MemoryEffectsOpInterface>;

// CallOpInterface for an op whose `inputs` are the arguments of the
// computation its callee attribute names: `HLO_CALL_INTERFACE_METHODS(X)` in
// its extraClassDeclaration (HloDialect.h), X the callee's accessor name.

defvar CollectiveAttrs = (ins
  OptionalAttr<Hlo_ReplicaGroupsAttr>:$replica_groups,
  OptionalAttr<I64Attr>:$channel_id,
  OptionalAttr<BoolAttr>:$use_global_device_ids,
  OptionalAttr<BoolAttr>:$constrain_layout);

defvar DotAttrs = (ins
  OptionalAttr<DenseI64ArrayAttr>:$lhs_batch_dims,
  OptionalAttr<DenseI64ArrayAttr>:$lhs_contracting_dims,
  OptionalAttr<DenseI64ArrayAttr>:$rhs_batch_dims,
  OptionalAttr<DenseI64ArrayAttr>:$rhs_contracting_dims,
  OptionalAttr<Hlo_PrecisionArrayAttr>:$operand_precision,
  OptionalAttr<Hlo_DotAlgorithmAttr>:$algorithm);

//===----------------------------------------------------------------------===//
// Elementwise unary.
//===----------------------------------------------------------------------===//

def Hlo_AbsOp : Hlo_ElementwiseUnaryOp<"abs", "absolute value">;
def Hlo_AcosOp : Hlo_ElementwiseUnaryOp<"acos", "arc cosine">;
def Hlo_AcoshOp : Hlo_ElementwiseUnaryOp<"acosh", "inverse hyperbolic cosine">;
def Hlo_AsinOp : Hlo_ElementwiseUnaryOp<"asin", "arc sine">;
def Hlo_AsinhOp : Hlo_ElementwiseUnaryOp<"asinh", "inverse hyperbolic sine">;
def Hlo_AtanhOp : Hlo_ElementwiseUnaryOp<"atanh", "inverse hyperbolic tangent">;
def Hlo_CoshOp : Hlo_ElementwiseUnaryOp<"cosh", "hyperbolic cosine">;
def Hlo_SinhOp : Hlo_ElementwiseUnaryOp<"sinh", "hyperbolic sine">;
def Hlo_CbrtOp : Hlo_ElementwiseUnaryOp<"cbrt", "cube root">;
def Hlo_CeilOp : Hlo_ElementwiseUnaryOp<"ceil", "round up">;
def Hlo_ClzOp : Hlo_ElementwiseUnaryOp<"count_leading_zeros",
    "count leading zero bits">;
def Hlo_CosOp : Hlo_ElementwiseUnaryOp<"cosine", "cosine">;
def Hlo_ErfOp : Hlo_ElementwiseUnaryOp<"erf", "error function">;
def Hlo_ExpOp : Hlo_ElementwiseUnaryOp<"exponential", "e^x">;
def Hlo_Expm1Op : Hlo_ElementwiseUnaryOp<"exponential_minus_one", "e^x - 1">;
def Hlo_FloorOp : Hlo_ElementwiseUnaryOp<"floor", "round down">;
def Hlo_ImagOp : Hlo_ElementwiseUnaryOp<"imag", "imaginary part of a complex">;
def Hlo_IsFiniteOp : Hlo_ElementwiseUnaryOp<"is_finite", "x is neither inf nor nan (pred result)">;
def Hlo_LogOp : Hlo_ElementwiseUnaryOp<"log", "natural logarithm">;
def Hlo_Log1pOp : Hlo_ElementwiseUnaryOp<"log_plus_one", "log(1 + x)">;
def Hlo_LogisticOp : Hlo_ElementwiseUnaryOp<"logistic", "1 / (1 + e^-x)">;
def Hlo_NegOp : Hlo_ElementwiseUnaryOp<"negate", "-x"> {
  let hasFolder = 1;
}
def Hlo_NotOp : Hlo_ElementwiseUnaryOp<"not", "logical or bitwise not"> {
  let hasFolder = 1;
}
def Hlo_PopcntOp : Hlo_ElementwiseUnaryOp<"popcnt", "count set bits">;
def Hlo_RealOp : Hlo_ElementwiseUnaryOp<"real", "real part of a complex">;
def Hlo_RoundAfzOp : Hlo_ElementwiseUnaryOp<"round_nearest_afz", "round half away from zero">;
def Hlo_RoundEvenOp : Hlo_ElementwiseUnaryOp<"round_nearest_even", "round half to even">;
def Hlo_RsqrtOp : Hlo_ElementwiseUnaryOp<"rsqrt", "1 / sqrt(x)">;
def Hlo_SignOp : Hlo_ElementwiseUnaryOp<"sign", "-1, 0 or 1 by sign">;
def Hlo_SinOp : Hlo_ElementwiseUnaryOp<"sine", "sine">;
def Hlo_SqrtOp : Hlo_ElementwiseUnaryOp<"sqrt", "square root">;
def Hlo_TanOp : Hlo_ElementwiseUnaryOp<"tan", "tangent">;
def Hlo_TanhOp : Hlo_ElementwiseUnaryOp<"tanh", "hyperbolic tangent">;
def Hlo_CopyOp : Hlo_ElementwiseUnaryOp<"copy", "copy (may change the layout)">;
def Hlo_ConvertOp : Hlo_ElementwiseUnaryOp<"convert", "element type conversion",
    []> {
  let hasFolder = 1;
}
def Hlo_BitcastConvertOp : Hlo_UnaryOp<"bitcast_convert",
    "reinterpret element bits as another type", (ins), [Pure]> {
  let hasVerifier = 1;
  let hasFolder = 1;
}
def Hlo_ReducePrecisionOp : Hlo_UnaryOp<"reduce_precision",
    "round to a narrower float format",
    (ins I64Attr:$exponent_bits, I64Attr:$mantissa_bits), [Pure, HloInfer]> {
  let hasVerifier = 1;
}
def Hlo_StochasticConvertOp : Hlo_Op<"stochastic_convert", [Pure]> {
  let arguments = !con((ins Hlo_Value:$operand, Hlo_Value:$random), HloCommonAttrs);
  let summary = "HLO `stochastic-convert`: convert with stochastic rounding";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise binary and ternary.
//===----------------------------------------------------------------------===//

def Hlo_AddOp : Hlo_ElementwiseBinaryOp<"add", "lhs + rhs", (ins),
    [Commutative]> {
  let hasFolder = 1;
}
def Hlo_Atan2Op : Hlo_ElementwiseBinaryOp<"atan2", "atan(lhs / rhs) by quadrant">;
def Hlo_AndOp : Hlo_ElementwiseBinaryOp<"and", "logical or bitwise and",
    (ins), [Commutative]> {
  let hasFolder = 1;
}
def Hlo_ComplexOp : Hlo_ElementwiseBinaryOp<"complex", "complex(real, imag)">;
def Hlo_DivOp : Hlo_ElementwiseBinaryOp<"divide", "lhs / rhs">;
def Hlo_MaxOp : Hlo_ElementwiseBinaryOp<"maximum", "max(lhs, rhs)", (ins),
    [Commutative]> {
  let hasFolder = 1;
}
def Hlo_MinOp : Hlo_ElementwiseBinaryOp<"minimum", "min(lhs, rhs)", (ins),
    [Commutative]> {
  let hasFolder = 1;
}
def Hlo_MulOp : Hlo_ElementwiseBinaryOp<"multiply", "lhs * rhs", (ins),
    [Commutative]> {
  let hasFolder = 1;
}
def Hlo_MulhiOp : Hlo_ElementwiseBinaryOp<"mulhi", "high half of the integer product">;
def Hlo_OrOp : Hlo_ElementwiseBinaryOp<"or", "logical or bitwise or", (ins),
    [Commutative]> {
  let hasFolder = 1;
}
def Hlo_PowOp : Hlo_ElementwiseBinaryOp<"power", "lhs ^ rhs">;
def Hlo_RemOp : Hlo_ElementwiseBinaryOp<"remainder", "lhs rem rhs (sign of lhs)">;
def Hlo_ShiftLeftOp : Hlo_ElementwiseBinaryOp<"shift_left", "lhs << rhs">;
def Hlo_ShiftRightArithmeticOp
    : Hlo_ElementwiseBinaryOp<"shift_right_arithmetic", "lhs >> rhs (sign fill)">;
def Hlo_ShiftRightLogicalOp
    : Hlo_ElementwiseBinaryOp<"shift_right_logical", "lhs >> rhs (zero fill)">;
def Hlo_SubtractOp : Hlo_ElementwiseBinaryOp<"subtract", "lhs - rhs"> {
  let hasFolder = 1;
}
def Hlo_XorOp : Hlo_ElementwiseBinaryOp<"xor", "logical or bitwise xor", (ins),
    [Commutative]> {
  let hasFolder = 1;
}
def Hlo_CompareOp : Hlo_ElementwiseBinaryOp<"compare",
    "elementwise comparison producing pred",
    (ins Hlo_ComparisonDirectionAttr:$direction,
         OptionalAttr<Hlo_ComparisonTypeAttr>:$comparison_type)>;

def Hlo_ClampOp : Hlo_Op<"clamp", [Pure, HloInfer]> {
  let arguments = !con((ins Hlo_Value:$min, Hlo_Value:$operand, Hlo_Value:$max),
                       HloCommonAttrs);
  let summary = "HLO `clamp`: min(max(operand, min), max)";
  let hasVerifier = 1;
}
def Hlo_SelectOp : Hlo_Op<"select", [Pure, HloInfer]> {
  let arguments = !con((ins Hlo_Value:$pred, Hlo_Value:$on_true,
                            Hlo_Value:$on_false), HloCommonAttrs);
  let summary = "HLO `select`: pred ? on_true : on_false, elementwise";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Shape manipulation.
//===----------------------------------------------------------------------===//

def Hlo_BroadcastOp : Hlo_UnaryOp<"broadcast",
    "operand dimension i maps to result dimension dimensions[i]",
    (ins OptionalAttr<DenseI64ArrayAttr>:$dimensions), [Pure]> {
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizeMethod = 1;
}
def Hlo_ReshapeOp : Hlo_UnaryOp<"reshape",
    "same elements in row-major order, new dimensions",
    (ins OptionalAttr<I64Attr>:$inferred_dimension), [Pure]> {
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizeMethod = 1;
}
def Hlo_DynamicReshapeOp : Hlo_SegmentedOp<"dynamic_reshape", 1, [Pure]> {
  let arguments = !con((ins Hlo_Value:$operand, Variadic<Hlo_Value>:$output_dims),
                       HloCommonAttrs);
  let summary = "HLO `dynamic-reshape`: reshape to runtime dimension sizes";
  let hasVerifier = 1;
}
def Hlo_TransposeOp : Hlo_UnaryOp<"transpose",
    "result dimension i is operand dimension dimensions[i]",
    (ins DenseI64ArrayAttr:$dimensions), [Pure, HloInfer]> {
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizeMethod = 1;
}
def Hlo_ReverseOp : Hlo_UnaryOp<"reverse", "reverse the listed dimensions",
    (ins DenseI64ArrayAttr:$dimensions), [Pure, HloInfer]> {
  let hasVerifier = 1;
  let hasFolder = 1;
}
def Hlo_SliceOp : Hlo_UnaryOp<"slice", "static strided slice",
    (ins Hlo_SliceAttr:$slice), [Pure, HloInfer]> {
  let hasVerifier = 1;
  let hasFolder = 1;
}
def Hlo_BitcastOp : Hlo_UnaryOp<"bitcast",
    "reinterpret the buffer with another shape or layout", (ins), [Pure]> {
  let hasFolder = 1;
  let description = [{
    XLA `kBitcast`: the result reads the operand's bytes with another shape
    and layout, so both are arrays of the same size in bytes.
  }];
  let hasVerifier = 1;
}
def Hlo_ConcatenateOp : Hlo_VariadicOp<"concatenate",
    "join operands along dimensions[0]", (ins DenseI64ArrayAttr:$dimensions),
    [Pure, HloInfer]> {
  let hasVerifier = 1;
  let hasFolder = 1;
}
def Hlo_PadOp : Hlo_Op<"pad", [Pure, HloInfer]> {
  let arguments = !con((ins Hlo_Value:$operand, Hlo_Value:$padding_value,
                            Hlo_PaddingAttr:$padding), HloCommonAttrs);
  let summary = "HLO `pad`: edge (low/high, may be negative) and interior padding";
  let hasVerifier = 1;
  let hasFolder = 1;
}
def Hlo_IotaOp : Hlo_Op<"iota", [Pure]> {
  let arguments = !con((ins I64Attr:$iota_dimension), HloCommonAttrs);
  let summary = "HLO `iota`: element value is its index along iota_dimension";
  let hasVerifier = 1;
}
def Hlo_ConstantOp : Hlo_Op<"constant", [Pure, ConstantLike]> {
  // No control predecessors: a literal does not run (the importer drops
  // control-predecessors of a constant with a warning).
  let arguments = !con((ins AnyAttr:$value), HloAttrs);
  let summary = "HLO `constant`: a literal";
  let description = [{
    `value` is a dense elements attribute for arrays and an array attribute
    (one entry per element) for tuple literals. An elided literal (`{...}` in
    HLO text: its values are unknown) is a `distinct[N]<unit>` attribute, so
    two elided literals are never taken for the same constant; an elided
    element of a tuple literal is a `distinct` attribute too.
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// True if the literal's values are unknown (`{...}` in HLO text).
    bool isElided() { return ::llvm::isa<::mlir::DistinctAttr>(getValue()); }
    ::mlir::OperandRange getControlPredecessors() {
      return (*this)->getOperands();
    }
    ::mlir::MutableOperandRange getControlPredecessorsMutable() {
      return ::mlir::MutableOperandRange(getOperation(), 0, 0);
    }
  }];
}
def Hlo_DynamicSliceOp : Hlo_SegmentedOp<"dynamic_slice", 1, [Pure, HloInfer]> {
  let arguments = !con((ins Hlo_Value:$operand, Variadic<Hlo_Value>:$start_indices,
                            DenseI64ArrayAttr:$dynamic_slice_sizes),
                       HloCommonAttrs);
  let summary = "HLO `dynamic-slice`: slice at runtime start indices (clamped)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizeMethod = 1;
}
def Hlo_DynamicUpdateSliceOp : Hlo_SegmentedOp<"dynamic_update_slice", 2, [Pure, HloInfer]> {
  let arguments = !con((ins Hlo_Value:$operand, Hlo_Value:$update,
                            Variadic<Hlo_Value>:$start_indices), HloCommonAttrs);
  let summary = "HLO `dynamic-update-slice`: overwrite a slice at runtime indices";
  let hasVerifier = 1;
}
def Hlo_GetDimensionSizeOp : Hlo_UnaryOp<"get_dimension_size",
    "runtime size of dimensions[0]", (ins DenseI64ArrayAttr:$dimensions), [Pure, HloInfer]> {
  let hasVerifier = 1;
}
def Hlo_SetDimensionSizeOp : Hlo_Op<"set_dimension_size", [Pure]> {
  let arguments = !con((ins Hlo_Value:$operand, Hlo_Value:$size,
                            DenseI64ArrayAttr:$dimensions), HloCommonAttrs);
  let summary = "HLO `set-dimension-size`: set the runtime size of a dimension";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tuples, control and calls.
//===----------------------------------------------------------------------===//

def Hlo_TupleOp : Hlo_VariadicOp<"tuple", "build a tuple", (ins), [Pure, HloInfer]> {
  let hasVerifier = 1;
}
def Hlo_GetTupleElementOp : Hlo_UnaryOp<"get_tuple_element",
    "element `index` of a tuple", (ins I64Attr:$index), [Pure, HloInfer]> {
  let hasVerifier = 1;
  let hasFolder = 1;
}
def Hlo_CallOp : Hlo_VariadicOp<"call", "call a computation",
    (ins FlatSymbolRefAttr:$to_apply, OptionalAttr<BoolAttr>:$is_composite),
    [CallOpInterface, HloCalls, HloCallEffects]> {
  let description = [{
    Runs `to_apply` on the operands (XLA `kCall`). Its effects are those of
    the called computation; MLIR's `inline` pass inlines it.
  }];
  let extraClassDeclaration = "HLO_CALL_INTERFACE_METHODS(ToApply)";
}
def Hlo_FusionOp : Hlo_VariadicOp<"fusion", "call a fused computation",
    (ins FlatSymbolRefAttr:$calls, Hlo_FusionKindAttr:$kind,
         OptionalAttr<Hlo_OutputOperandAliasArrayAttr>:$output_to_operand_aliasing),
    [CallOpInterface, HloCalls, Pure]> {
  let description = [{
    Runs the fused computation `calls` on the operands (XLA `kFusion`). A
    fused computation has exactly this one caller and holds no side effects,
    so a fusion is pure; it is never inlined (that is un-fusing).
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = "HLO_CALL_INTERFACE_METHODS(Calls)";
}
def Hlo_MapOp : Hlo_VariadicOp<"map", "apply a scalar computation elementwise",
    (ins FlatSymbolRefAttr:$to_apply, OptionalAttr<DenseI64ArrayAttr>:$dimensions),
    [HloCalls, Pure]> {
  let hasVerifier = 1;
}
def Hlo_WhileOp : Hlo_UnaryOp<"while", "loop body while condition holds",
    (ins FlatSymbolRefAttr:$condition, FlatSymbolRefAttr:$body),
    [HloCalls, HloCallEffects, HloInfer]> {
  let description = [{
    XLA `kWhile`: the state is the operand; its effects are those of the
    condition and body computations.
  }];
  let hasVerifier = 1;
}
def Hlo_ConditionalOp : Hlo_SegmentedOp<"conditional", 1, [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let arguments = !con((ins Hlo_Value:$branch_index,
      Variadic<Hlo_Value>:$branch_operands,
      OptionalAttr<SymbolRefArrayAttr>:$branch_computations,
      OptionalAttr<FlatSymbolRefAttr>:$true_computation,
      OptionalAttr<FlatSymbolRefAttr>:$false_computation), HloCommonAttrs);
  let summary = "HLO `conditional`: run the branch selected by a pred or s32";
  let description = [{
    XLA `kConditional`; its effects are those of its branch computations.
  }];
  let extraClassDeclaration = [{
    /// The branch computations, in branch order.
    SmallVector<FlatSymbolRefAttr> getBranches();
  }];
  let hasVerifier = 1;
}
def Hlo_CustomCallOp : Hlo_VariadicOp<"custom_call",
    "call a backend-defined target",
    (ins StrAttr:$custom_call_target,
         OptionalAttr<Hlo_CustomCallApiVersionAttr>:$api_version,
         OptionalAttr<BoolAttr>:$custom_call_has_side_effect,
         OptionalAttr<TypeArrayAttr>:$operand_layout_constraints,
         OptionalAttr<Hlo_OutputOperandAliasArrayAttr>:$output_to_operand_aliasing,
         OptionalAttr<Hlo_TypedLiteralDictAttr>:$literal,
         OptionalAttr<Hlo_CustomCallScheduleAttr>:$schedule,
         OptionalAttr<SymbolRefArrayAttr>:$called_computations,
         OptionalAttr<FlatSymbolRefAttr>:$to_apply,
         OptionalAttr<Hlo_WindowAttr>:$window,
         OptionalAttr<Hlo_ConvDimensionNumbersAttr>:$dim_labels,
         OptionalAttr<I64Attr>:$feature_group_count,
         OptionalAttr<I64Attr>:$batch_group_count,
         OptionalAttr<Hlo_PrecisionArrayAttr>:$operand_precision),
    [HloCalls, DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let description = [{
    XLA `kCustomCall`. It has side effects only when
    `custom_call_has_side_effect` is true, as in XLA; otherwise identical
    custom calls may be merged and unused ones removed.
  }];
  let hasVerifier = 1;
}
def Hlo_OptimizationBarrierOp : Hlo_UnaryOp<"opt_barrier",
    "value passes through; blocks movement across it", (ins),
    [HloSideEffects, HloInfer]> {
  let hasVerifier = 1;
}
def Hlo_AddDependencyOp : Hlo_Op<"add_dependency", [HloSideEffects, HloInfer]> {
  let arguments = !con((ins Hlo_Value:$operand, Hlo_Value:$token), HloCommonAttrs);
  let summary = "HLO `add-dependency`: operand, ordered after a token";
  let hasVerifier = 1;
}
def Hlo_AfterAllOp : Hlo_VariadicOp<"after_all",
    "a token ordered after all operand tokens", (ins), [Pure, HloInfer]> {
  let hasVerifier = 1;
}
def Hlo_DomainOp : Hlo_UnaryOp<"domain", "marks a sharding/domain boundary",
    (ins OptionalAttr<Hlo_DomainDictAttr>:$domain), [Pure, HloInfer]> {
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions, windows, sorting.
//===----------------------------------------------------------------------===//

def Hlo_ReduceOp : Hlo_VariadicOp<"reduce",
    "reduce N inputs with N inits over dimensions",
    (ins DenseI64ArrayAttr:$dimensions, FlatSymbolRefAttr:$to_apply),
    [HloCalls, Pure, HloInfer]> {
  let hasVerifier = 1;
}
def Hlo_ReduceWindowOp : Hlo_VariadicOp<"reduce_window",
    "reduce N inputs with N inits over sliding windows",
    (ins OptionalAttr<Hlo_WindowAttr>:$window, FlatSymbolRefAttr:$to_apply),
    [HloCalls, Pure, HloInfer]> {
  let hasVerifier = 1;
}
def Hlo_SelectAndScatterOp : Hlo_Op<"select_and_scatter", [HloCalls, Pure, HloInfer]> {
  let arguments = !con((ins Hlo_Value:$operand, Hlo_Value:$source,
      Hlo_Value:$init_value, Hlo_WindowAttr:$window,
      FlatSymbolRefAttr:$select, FlatSymbolRefAttr:$scatter), HloCommonAttrs);
  let summary = "HLO `select-and-scatter`: scatter source at selected window elements";
  let hasVerifier = 1;
}
def Hlo_SortOp : Hlo_VariadicOp<"sort", "sort operands along dimensions[0]",
    (ins DenseI64ArrayAttr:$dimensions, FlatSymbolRefAttr:$to_apply,
         OptionalAttr<BoolAttr>:$is_stable), [HloCalls, Pure, HloInfer]> {
  let hasVerifier = 1;
}
def Hlo_TopKOp : Hlo_UnaryOp<"topk", "k largest (or smallest) along the last dimension",
    (ins I64Attr:$k, OptionalAttr<BoolAttr>:$largest), [Pure, HloInfer]> {
  let hasVerifier = 1;
}
def Hlo_ScanOp : Hlo_VariadicOp<"scan", "prefix scan of a computation along a dimension",
    (ins OptionalAttr<DenseI64ArrayAttr>:$dimensions,
         OptionalAttr<FlatSymbolRefAttr>:$to_apply,
         OptionalAttr<BoolAttr>:$is_reverse,
         OptionalAttr<BoolAttr>:$is_associative,
         OptionalAttr<I64Attr>:$num_carries), [HloCalls, Pure]> {
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Linear algebra, convolution, gather/scatter.
//===----------------------------------------------------------------------===//

def Hlo_DotOp : Hlo_Op<"dot", [Pure, HloInfer]> {
  let arguments = !con((ins Hlo_Value:$lhs, Hlo_Value:$rhs), DotAttrs, HloCommonAttrs);
  let summary = "HLO `dot`: general dot product with batch and contracting dims";
  let hasVerifier = 1;
}
def Hlo_ScaledDotOp : Hlo_VariadicOp<"scaled_dot",
    "dot with block scales for lhs and rhs", DotAttrs, [Pure]> {
  let description = [{
    Operands (lhs, rhs, lhs_scale, rhs_scale), XLA's order since its
    CompositeRewriter makes them of JAX's `xla.scaled_dot` composites: a dot
    of lhs and rhs, each element multiplied first by the element of its
    scale covering its block (scale dimension d covers operand_d / scale_d
    elements; a scalar scale leaves its operand unscaled). The result has
    the dot's dimensions.
  }];
  let extraClassDeclaration = [{
    // The four operands by role (valid on a verified op).
    Value getLhs() { return getInputs()[0]; }
    Value getRhs() { return getInputs()[1]; }
    Value getLhsScale() { return getInputs()[2]; }
    Value getRhsScale() { return getInputs()[3]; }
  }];
  let hasVerifier = 1;
}
def Hlo_RaggedDotOp : Hlo_VariadicOp<"ragged_dot",
    "dot over ragged groups given by group sizes",
    !con(DotAttrs, (ins OptionalAttr<DenseI64ArrayAttr>:$lhs_ragged_dims,
                        OptionalAttr<DenseI64ArrayAttr>:$rhs_group_dims)), [Pure]> {
  let description = [{
    Operands (lhs, rhs, group_sizes): a dot whose lhs ragged dimension is
    split into groups of the given sizes, each multiplied by its own slice of
    rhs along `rhs_group_dims`.
  }];
  let hasVerifier = 1;
}
def Hlo_ConvolutionOp : Hlo_Op<"convolution", [Pure, HloInfer]> {
  let arguments = !con((ins Hlo_Value:$lhs, Hlo_Value:$rhs,
      OptionalAttr<Hlo_WindowAttr>:$window,
      Hlo_ConvDimensionNumbersAttr:$dim_labels,
      OptionalAttr<I64Attr>:$feature_group_count,
      OptionalAttr<I64Attr>:$batch_group_count,
      OptionalAttr<Hlo_PrecisionArrayAttr>:$operand_precision), HloCommonAttrs);
  let summary = "HLO `convolution`: general dilated, grouped convolution";
  let hasVerifier = 1;
}
def Hlo_GatherOp : Hlo_Op<"gather", [Pure, HloInfer]> {
  let arguments = !con((ins Hlo_Value:$operand, Hlo_Value:$start_indices,
      DenseI64ArrayAttr:$offset_dims, DenseI64ArrayAttr:$collapsed_slice_dims,
      DenseI64ArrayAttr:$start_index_map, I64Attr:$index_vector_dim,
      OptionalAttr<DenseI64ArrayAttr>:$operand_batching_dims,
      OptionalAttr<DenseI64ArrayAttr>:$start_indices_batching_dims,
      DenseI64ArrayAttr:$slice_sizes,
      OptionalAttr<BoolAttr>:$indices_are_sorted), HloCommonAttrs);
  let summary = "HLO `gather`: collect slices at runtime start indices";
  let hasVerifier = 1;
}
def Hlo_ScatterOp : Hlo_VariadicOp<"scatter",
    "N operands, indices, N updates: combine updates into slices",
    (ins DenseI64ArrayAttr:$update_window_dims,
         DenseI64ArrayAttr:$inserted_window_dims,
         DenseI64ArrayAttr:$scatter_dims_to_operand_dims,
         I64Attr:$index_vector_dim,
         OptionalAttr<DenseI64ArrayAttr>:$input_batching_dims,
         OptionalAttr<DenseI64ArrayAttr>:$scatter_indices_batching_dims,
         OptionalAttr<BoolAttr>:$indices_are_sorted,
         OptionalAttr<BoolAttr>:$unique_indices,
         FlatSymbolRefAttr:$to_apply), [HloCalls, Pure, HloInfer]> {
  let hasVerifier = 1;
}
def Hlo_CholeskyOp : Hlo_UnaryOp<"cholesky", "Cholesky factor of SPD matrices",
    (ins OptionalAttr<BoolAttr>:$lower), [Pure, HloInfer]> {
  let hasVerifier = 1;
}
def Hlo_TriangularSolveOp : Hlo_Op<"triangular_solve", [Pure, HloInfer]> {
  let arguments = !con((ins Hlo_Value:$a, Hlo_Value:$b,
      OptionalAttr<BoolAttr>:$left_side, OptionalAttr<BoolAttr>:$lower,
      OptionalAttr<BoolAttr>:$unit_diagonal,
      OptionalAttr<Hlo_TransposeAttr>:$transpose_a), HloCommonAttrs);
  let summary = "HLO `triangular-solve`: solve op(a) x = b or x op(a) = b";
  let hasVerifier = 1;
}
def Hlo_FftOp : Hlo_UnaryOp<"fft", "fast Fourier transform",
    (ins Hlo_FftTypeAttr:$fft_type, DenseI64ArrayAttr:$fft_length), [Pure, HloInfer]> {
  let hasVerifier = 1;
}
def Hlo_BatchNormTrainingOp : Hlo_Op<"batch_norm_training", [Pure, HloInfer]> {
  let arguments = !con((ins Hlo_Value:$operand, Hlo_Value:$scale, Hlo_Value:$offset,
      F32Attr:$epsilon, I64Attr:$feature_index), HloCommonAttrs);
  let summary = "HLO `batch-norm-training`: normalize, return (out, mean, var)";
  let hasVerifier = 1;
}
def Hlo_BatchNormInferenceOp : Hlo_Op<"batch_norm_inference", [Pure, HloInfer]> {
  let arguments = !con((ins Hlo_Value:$operand, Hlo_Value:$scale, Hlo_Value:$offset,
      Hlo_Value:$mean, Hlo_Value:$variance, F32Attr:$epsilon,
      I64Attr:$feature_index), HloCommonAttrs);
  let summary = "HLO `batch-norm-inference`: normalize with given mean/variance";
  let hasVerifier = 1;
}
def Hlo_BatchNormGradOp : Hlo_Op<"batch_norm_grad", [Pure, HloInfer]> {
  let arguments = !con((ins Hlo_Value:$operand, Hlo_Value:$scale, Hlo_Value:$mean,
      Hlo_Value:$variance, Hlo_Value:$grad_output, F32Attr:$epsilon,
      I64Attr:$feature_index), HloCommonAttrs);
  let summary = "HLO `batch-norm-grad`: gradients (operand, scale, offset)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Random numbers.
//===----------------------------------------------------------------------===//

def Hlo_RngOp : Hlo_VariadicOp<"rng", "random numbers from a distribution",
    (ins Hlo_RngDistributionAttr:$distribution), [HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_RngBitGeneratorOp : Hlo_UnaryOp<"rng_bit_generator",
    "(new state, random bits) from a state",
    (ins Hlo_RngAlgorithmAttr:$algorithm), [Pure]> {
  let hasVerifier = 1;
}
def Hlo_RngGetAndUpdateStateOp : Hlo_Op<"rng_get_and_update_state",
    [HloSideEffects, HloInfer]> {
  let arguments = !con((ins I64Attr:$delta), HloCommonAttrs);
  let summary = "HLO `rng-get-and-update-state`: read and advance the RNG state";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Collectives and ids.
//===----------------------------------------------------------------------===//

def Hlo_AllReduceOp : Hlo_VariadicOp<"all_reduce",
    "reduce across replicas with to_apply",
    !con((ins FlatSymbolRefAttr:$to_apply), CollectiveAttrs),
    [HloCalls, HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_AllReduceStartOp : Hlo_VariadicOp<"all_reduce_start",
    "start an asynchronous all-reduce",
    !con((ins FlatSymbolRefAttr:$to_apply), CollectiveAttrs),
    [HloCalls, HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_AllReduceDoneOp : Hlo_UnaryOp<"all_reduce_done",
    "wait for an all-reduce-start", (ins), [HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_AllGatherOp : Hlo_VariadicOp<"all_gather",
    "concatenate operands of all replicas along dimensions[0]",
    !con((ins DenseI64ArrayAttr:$dimensions), CollectiveAttrs),
    [HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_AllGatherStartOp : Hlo_VariadicOp<"all_gather_start",
    "start an asynchronous all-gather",
    !con((ins DenseI64ArrayAttr:$dimensions), CollectiveAttrs),
    [HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_AllGatherDoneOp : Hlo_UnaryOp<"all_gather_done",
    "wait for an all-gather-start", (ins), [HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_AllToAllOp : Hlo_VariadicOp<"all_to_all",
    "split, exchange and concatenate across replicas",
    !con((ins OptionalAttr<DenseI64ArrayAttr>:$dimensions), CollectiveAttrs),
    [HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_RaggedAllToAllOp : Hlo_VariadicOp<"ragged_all_to_all",
    "all-to-all of ragged row ranges", CollectiveAttrs, [HloSideEffects]> {
  let description = [{
    Operands (input, output, input_offsets, send_sizes, output_offsets,
    recv_sizes): rows of `input` are sent to each peer and written into
    `output` at the given offsets; the result has the type of `output`.
  }];
  let hasVerifier = 1;
}
def Hlo_ReduceScatterOp : Hlo_VariadicOp<"reduce_scatter",
    "all-reduce then scatter along dimensions[0]",
    !con((ins DenseI64ArrayAttr:$dimensions, FlatSymbolRefAttr:$to_apply),
         CollectiveAttrs), [HloCalls, HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_CollectiveBroadcastOp : Hlo_VariadicOp<"collective_broadcast",
    "broadcast from the first replica of each group", CollectiveAttrs,
    [HloSideEffects]> {
  let hasVerifier = 1;
}
// One list of slice sizes per buffer and start-index entry of the in-place
// collective-permute.
def Hlo_SliceSizeLists
    : TypedArrayAttrBase<DenseI64ArrayAttr, "lists of slice sizes">;
defvar CollectivePermuteAttrs = !con((ins
    OptionalAttr<ArrayAttr>:$source_target_pairs,
    OptionalAttr<Hlo_SliceSizeLists>:$slice_sizes), CollectiveAttrs);
def Hlo_CollectivePermuteOp : Hlo_VariadicOp<"collective_permute",
    "send to target of each (source, target) pair", CollectivePermuteAttrs,
    [HloSideEffects]> {
  let description = [{
    HLO's `collective-permute`: every target of a (source, target) pair of
    `source_target_pairs` (replica ids, or partition ids with a
    `channel_id`) receives its source's operand; a device that is no target
    gets zeros.

    The in-place form takes four operands: input buffer(s), output
    buffer(s), input start indices, output start indices (the buffers
    arrays, or tuples of arrays of the same length; the start indices, per
    buffer, a tuple of one integer scalar per dimension, or a tuple of `c`
    such tuples). The pairs are `c` equal consecutive chunks: the pairs of
    chunk k copy the slice of size `slice_sizes[b * c + k]` (the whole
    input buffer without `slice_sizes`) of buffer b of the source's input,
    at the source's k-th input start indices, into the target's output at
    its k-th output start indices (clamped as dynamic-slice and
    dynamic-update-slice clamp them); a source or target appears once per
    chunk. The result is the output buffer(s) with those updates.
  }];
  let hasVerifier = 1;
}
def Hlo_CollectivePermuteStartOp : Hlo_VariadicOp<"collective_permute_start",
    "start an asynchronous collective-permute", CollectivePermuteAttrs,
    [HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_CollectivePermuteDoneOp : Hlo_UnaryOp<"collective_permute_done",
    "wait for a collective-permute-start", (ins), [HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_CollectiveReduceOp : Hlo_VariadicOp<"collective_reduce",
    "reduce within groups without the scatter/gather of all-reduce",
    !con((ins OptionalAttr<FlatSymbolRefAttr>:$to_apply), CollectiveAttrs),
    [HloCalls, HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_ShuffleOp : Hlo_VariadicOp<"shuffle", "exchange data between replicas",
    CollectiveAttrs, [HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_ReplicaIdOp : Hlo_Op<"replica_id", [Pure, HloInfer]> {
  let arguments = HloCommonAttrs;
  let summary = "HLO `replica-id`: this replica's id (u32)";
  let hasVerifier = 1;
}
def Hlo_PartitionIdOp : Hlo_Op<"partition_id", [Pure, HloInfer]> {
  let arguments = HloCommonAttrs;
  let summary = "HLO `partition-id`: this partition's id (u32)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Host transfer and point-to-point.
//===----------------------------------------------------------------------===//

defvar ChannelAttrs = (ins OptionalAttr<I64Attr>:$channel_id,
                           OptionalAttr<BoolAttr>:$is_host_transfer);
def Hlo_SendOp : Hlo_Op<"send", [HloSideEffects]> {
  let arguments = !con((ins Hlo_Value:$operand, Hlo_Value:$token), ChannelAttrs,
                       HloCommonAttrs);
  let summary = "HLO `send`: start sending to a channel; (data, u32 context, token)";
  let hasVerifier = 1;
}
def Hlo_SendDoneOp : Hlo_UnaryOp<"send_done", "wait for a send", ChannelAttrs,
    [HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_RecvOp : Hlo_UnaryOp<"recv",
    "start receiving from a channel; (data, u32 context, token)", ChannelAttrs,
    [HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_RecvDoneOp : Hlo_UnaryOp<"recv_done", "wait for a recv; (data, token)",
    ChannelAttrs, [HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_InfeedOp : Hlo_UnaryOp<"infeed", "read from the device infeed; (data, token)",
    (ins OptionalAttr<StrAttr>:$infeed_config), [HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_OutfeedOp : Hlo_Op<"outfeed", [HloSideEffects]> {
  let arguments = !con((ins Hlo_Value:$operand, Hlo_Value:$token,
      OptionalAttr<TypeAttr>:$outfeed_shape,
      OptionalAttr<StrAttr>:$outfeed_config), HloCommonAttrs);
  let summary = "HLO `outfeed`: write to the device outfeed; returns a token";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Asynchronous instructions (seed 001).
//===----------------------------------------------------------------------===//

def Hlo_AsyncStartOp : Hlo_VariadicOp<"async_start",
    "start running `calls` asynchronously",
    (ins FlatSymbolRefAttr:$calls,
         OptionalAttr<StrAttr>:$async_execution_thread),
    [CallOpInterface, HloCalls, HloSideEffects]> {
  let extraClassDeclaration = "HLO_CALL_INTERFACE_METHODS(Calls)";
  let description = [{
    Wraps a called computation. The result is a tuple laid out as
    ((operands...), outputs, context...): element 0 aliases the operands,
    element 1 the wrapped computation's result (aliased by the matching
    `hlo.async_done`), further elements are context state. The chain
    start -> update* -> done is linear: each start or update has exactly one
    user, an `hlo.async_update` or `hlo.async_done`. Opcodes that have their
    own -start/-done forms (copy, all-reduce, all-gather, collective-permute,
    send, recv) may not be wrapped.
  }];
  let hasVerifier = 1;
}
def Hlo_AsyncUpdateOp : Hlo_UnaryOp<"async_update",
    "an intermediate step of an async chain",
    (ins OptionalAttr<FlatSymbolRefAttr>:$calls,
         OptionalAttr<StrAttr>:$async_execution_thread),
    [HloCalls, HloSideEffects]> { let hasVerifier = 1; }
def Hlo_AsyncDoneOp : Hlo_UnaryOp<"async_done",
    "wait for an async chain; yields the wrapped computation's result",
    (ins OptionalAttr<FlatSymbolRefAttr>:$calls,
         OptionalAttr<StrAttr>:$async_execution_thread),
    [HloCalls, HloSideEffects]> { let hasVerifier = 1; }
def Hlo_CopyStartOp : Hlo_UnaryOp<"copy_start",
    "start an asynchronous copy; (dest, src, u32 context)",
    (ins OptionalAttr<I64Attr>:$cross_program_prefetch_index), [HloSideEffects]> {
  let hasVerifier = 1;
}
def Hlo_CopyDoneOp : Hlo_UnaryOp<"copy_done", "wait for a copy-start", (ins),
    [HloSideEffects]> {
  let hasVerifier = 1;
}

#endif // HLO_DIALECT_HLO_HLOOPS_TD
