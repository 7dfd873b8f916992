//===- HloTextCommon.h - tables shared by HLO import and export -*- C++ -*-===//
//
// Element type names and the HLO attribute table: for every attribute name
// HLO text uses, the op attribute it becomes and how its value is spelled.
// The table order is the order the exporter prints attributes in.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_TRANSLATE_HLOTEXTCOMMON_H
#define LIB_TRANSLATE_HLOTEXTCOMMON_H

#include "Hlo/Dialect/Hlo/HloSyntax.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Types.h"

namespace mlir::hlo {

/// `f32` -> f32, `pred` -> i1, `s4` -> i4, `u8` -> ui8, `s1` -> si1,
/// `c64` -> complex<f32>, `token` -> !hlo.token, ...; null if unknown.
Type parseElementType(MLIRContext *ctx, StringRef name);
/// The inverse of parseElementType; empty if the type has no HLO name.
StringRef getElementTypeName(Type type);
/// True if the cursor is at a shape (`(` or an element type then `[`).
bool startsShapeAt(syntax::Cursor &cur, MLIRContext *ctx);

enum class AttrKind {
  IntList,       // {1,2,3}                 DenseI64ArrayAttr
  Int,           // 3                       I64Attr
  Float,         // 0.001                   F32Attr
  Bool,          // true                    BoolAttr
  Enum,          // LT, kLoop, ...          the op's enum attribute
  String,        // "..."                   StringAttr
  BackendConfig, // "..." or {...}          BackendConfigAttr or verbatim
  Window,        // {size=3x3 ...}          WindowAttr
  ConvDims,      // b01f_01io->b01f         ConvDimensionNumbersAttr
  Slice,         // {[0:2]}                 SliceAttr
  Padding,       // 0_0x1_1                 PaddingAttr
  ReplicaGroups, // {{0,1}} or [2,4]<=[8]   ReplicaGroupsAttr
  Sharding,      // {replicated}            ShardingAttr
  Symbol,        // %comp                   FlatSymbolRefAttr
  SymbolList,    // {%a, %b}                ArrayAttr of FlatSymbolRefAttr
  Pairs,         // {{0,1},{1,2}}           ArrayAttr of DenseI64ArrayAttr
  IntLists,      // {{2,4},{1}}             ArrayAttr of DenseI64ArrayAttr
  StringDict,    // {a="x",b="y"}           DictionaryAttr of StringAttr
  NameList,      // {%a, %b}                ArrayAttr of StringAttr
  Shape,         // f32[2]{0}               TypeAttr
  ShapeList,     // {f32[2]{0}, ...}        ArrayAttr of TypeAttr
  PrecisionList, // {default,high}          ArrayAttr of PrecisionAttr
  BoolList,      // {true,false}            DenseBoolArrayAttr
  Statistics,    // {visualizing_index=1,s=2.5}  DictionaryAttr (i64, f64)
  Accuracy,      // {mode=HIGHEST} or {tolerance={atol=..,rtol=..,ulps=..}}
  Aliasing,      // {{0}: (1, {})}          ArrayAttr of DictionaryAttr
  Domain,        // {kind="..", entry={..}, exit={..}}  DictionaryAttr
  TypedLiteral,  // f32[2]{0} {1, 2} or ( shape lit, ... )  {shape, value}
  Text,          // anything                TextAttr (verbatim)
};

struct AttrInfo {
  StringRef hloName;
  StringRef mlirName;
  AttrKind kind;
  /// When set, the entry is for the opcodes starting with it only (an
  /// attribute name that means something else there).
  StringRef opcodePrefix = {};
};

/// All known attributes in print order.
ArrayRef<AttrInfo> getAttrTable();
/// The entry of HLO attribute `hloName` on `opcode`.
const AttrInfo *lookupHloAttr(StringRef hloName, StringRef opcode = {});
/// The first entry named `mlirName` that `accept` takes (any when null),
/// else the first one.
const AttrInfo *
lookupMlirAttr(StringRef mlirName,
               function_ref<bool(const AttrInfo &)> accept = nullptr);

/// Opcodes whose `-start`/`-done` are opcodes of their own (not async sugar).
bool hasOwnAsyncOpcodes(StringRef opcode);

} // namespace mlir::hlo

#endif // LIB_TRANSLATE_HLOTEXTCOMMON_H
