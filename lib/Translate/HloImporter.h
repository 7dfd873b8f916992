//===- HloImporter.h - the HLO text importer's parts ------------*- C++ -*-===//
//
// Private to lib/Translate. The importer in two stages: the parser reads the
// text into a light syntax tree (computations, instructions, operands by
// name, attribute values as raw spans); the builder then creates one hlo op
// per instruction in text order (operands defined later are built first),
// converting each attribute with the codec chosen by its HLO name. Errors
// carry file:line:col.
//
// The class is defined across:
//   HloImport.cpp         diagnostics, the syntax-tree parser, entry points
//   HloImportLiterals.cpp shapes, layouts and literals
//   HloImportAttrs.cpp    attribute values (codecs, metadata, header)
//   HloImportBuild.cpp    building ops, computations and the module
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSLATE_HLOIMPORTER_H
#define HLO_LIB_TRANSLATE_HLOIMPORTER_H

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloSyntax.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Translate/HloText.h"
#include "HloTextCommon.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <complex>

namespace mlir::hlo::detail {

using syntax::Cursor;

/// Reads one scalar token of a literal: a number, inf/nan spelling, or
/// true/false.
StringRef scanScalarToken(Cursor &cur);

/// The number tokens of XLA's lexer.
enum class NumberToken { None, Int, Decimal, Nan, Inf };
/// What XLA's lexer makes of `tok`: an integer (decimal digits, from -2^63
/// to 2^64-1), a decimal (`1.`, `1.5e-3`, `2E5`, `-.5`;
/// no `+`, no `.` first), `nan`, `inf` (each with an optional `-`), or none
/// of them.
NumberToken classifyNumber(StringRef tok);
/// `type` with its bounded dynamic dimensions made static at their bounds.
Type withStaticBounds(Type type);

//===----------------------------------------------------------------------===//
// Syntax tree
//===----------------------------------------------------------------------===//

struct AttrAst {
  StringRef name;
  StringRef value;
  size_t offset;
};

struct OperandAst {
  StringRef name;  // Referenced instruction, or empty for a nested one.
  int nested = -1; // Index of a nested (anonymous) instruction.
  size_t offset;
  Type declared; // The shape written before the operand, if any.
};

struct InstrAst {
  std::string name;
  size_t offset = 0;
  size_t opcodeOffset = 0;
  // Where the instruction stands in the text: a nested instruction stands
  // where the instruction using it starts.
  size_t anchor = 0;
  bool isRoot = false;
  Type type;
  StringRef opcode;
  SmallVector<OperandAst, 4> operands;
  StringRef literal;        // constant(...) contents.
  int64_t paramNumber = -1; // parameter(N).
  SmallVector<AttrAst, 4> attrs;
  // control-predecessors={...}, filled in when the instruction is built.
  SmallVector<OperandAst, 1> controls;
};

struct CompAst {
  StringRef name;
  size_t offset = 0;
  bool isEntry = false;
  Type declaredResult; // `-> shape` of the signature, if written.
  size_t declaredResultOffset = 0;
  std::optional<std::string> executionThread;
  std::vector<InstrAst> instrs;
};

//===----------------------------------------------------------------------===//
// Importer
//===----------------------------------------------------------------------===//

class Importer {
public:
  Importer(StringRef text, StringRef fileName, MLIRContext *ctx)
      : c(text), text(text), ctx(ctx), b(ctx),
        file(StringAttr::get(ctx, fileName)) {
    lineStarts.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n')
        lineStarts.push_back(i + 1);
  }

  OwningOpRef<ModuleOp> run();

private:
  // Diagnostics.
  Location locAt(size_t offset);
  bool error(size_t offset, const Twine &msg);
  bool cursorError() { return error(c.getErrorOffset(), c.getError()); }
  /// A cursor over `part` (a piece of the text) whose positions are offsets
  /// into the whole text, so that errors point at the right line and column.
  Cursor sub(StringRef part) {
    Cursor cur(text.take_front(part.end() - text.begin()));
    cur.setPos(part.begin() - text.begin());
    return cur;
  }

  // Parsing.
  bool parseHeader();
  bool parseSections();
  bool checkSectionEntry(StringRef section, StringRef value, size_t offset);
  bool parseComputation(CompAst &comp);
  bool parseInstruction(CompAst &comp, size_t index, bool nested);
  bool parseOperands(CompAst &comp, size_t index);
  bool parseAttrList(SmallVectorImpl<AttrAst> &attrs);
  bool captureValue(StringRef &value);
  /// replica_groups in XLA's mesh-axes form, which holds a comma and a
  /// space: `mesh['x'=2], device_ids=(1,0) {'x'}`.
  bool captureMeshGroups(StringRef &value);
  bool parseName(StringRef &name);

public:
  // Shapes (also used for attribute values that hold shapes).
  /// `spacedLayout`: a layout may follow the dimensions after spaces
  /// (`f32[3,6] {1,0}`), as XLA's parser allows where no literal can
  /// follow a shape (instruction, operand and signature shapes).
  bool parseShape(Cursor &cur, Type &type, bool spacedLayout = false);
  bool parseArrayShape(Cursor &cur, Type &type, bool spacedLayout);
  bool parseLayout(Cursor &cur, ArrayRef<int64_t> bounds, bool anyBounded,
                   LayoutAttr &layout);

private:
  // Building.
  bool buildModule(ModuleOp module);
  bool buildComputation(CompAst &comp, ModuleOp module);
  bool buildInstr(CompAst &comp, size_t index, Block &block,
                  SmallVectorImpl<Value> &values);
  bool buildAsyncSugar(CompAst &comp, InstrAst &instr, StringRef base,
                       StringRef suffix, SmallVectorImpl<Value> &operands,
                       ArrayRef<Value> controls, Block &block, Value &result);
  Operation *createOp(StringRef opcode, InstrAst &instr,
                      ArrayRef<Value> operands, ArrayRef<AttrAst> attrs,
                      Location loc, ArrayRef<Value> controls = {});
  bool parseControlPredecessors(InstrAst &instr);
  std::optional<int64_t> fixedDataOperands(RegisteredOperationName name,
                                           ArrayRef<Value> operands);
  Type inferShape(Operation *op, InstrAst &instr);
  Location instrLoc(InstrAst &instr, ArrayRef<AttrAst> attrs);
  bool convertAttrs(StringRef opcode, ArrayRef<AttrAst> attrs,
                    ArrayRef<StringAttr> known, NamedAttrList &out);

public:
  Attribute convertAttr(StringRef opcode, const AttrAst &attr,
                        StringRef &mlirName);
  Attribute parseLiteral(Cursor &cur, Type type);

private:
  Attribute parseArrayLiteral(Cursor &cur, RankedTensorType type);
  bool parseScalar(Cursor &cur, Type elt, SmallVectorImpl<APInt> &ints,
                   SmallVectorImpl<APFloat> &floats,
                   SmallVectorImpl<std::complex<APFloat>> &complexes);
  Attribute convertModuleAttr(const AttrAst &attr);
  Type setDimensionSizeShape(SetDimensionSizeOp op);
  Type shapeXlaBuilds(StringRef opcode, ArrayRef<Value> operands,
                      Type declared);
  bool checkParameterReplication(ArrayRef<AttrAst> attrs, Type type);
  bool checkCalleesDefined(const AttrAst &attr, Attribute value);
  Attribute parseStructured(AttrKind kind, const AttrAst &attr);
  ArrayAttr parseList(const AttrAst &attr, StringRef expected,
                      function_ref<Attribute(Cursor &, std::string &)> item);
  Attribute parseTypedLiteral(Cursor &cur, Type &type);
  DictionaryAttr parseDictOfStrings(const AttrAst &attr);
  Attribute parseMetadata(const AttrAst &attr);

public:
  /// The kinds of value a `{key=value ...}` group's fields hold.
  /// ProfileTypes: a list of OpMetadata's ProfileType numbers (0..3).
  enum class SubKind { Int32, String, Bool, ProfileTypes };
  struct SubField {
    StringRef name;
    SubKind kind;
    bool required = false;
  };
  /// Checks `value`, a `{key=value ...}` group (metadata, stack-frame table
  /// entries), the way XLA's parser reads it: known keys only, each at most
  /// once, values of their kind (32-bit integers in range), the required
  /// ones present, optional commas between fields. `allowUnknown` lets
  /// other keys through with a value of any kind.
  bool checkSubAttributes(StringRef value, ArrayRef<SubField> fields,
                          bool allowUnknown = false);

private:
  FlatSymbolRefAttr parseSymbol(const AttrAst &attr);

  Cursor c;
  StringRef text;
  MLIRContext *ctx;
  Builder b;
  StringAttr file;
  std::vector<size_t> lineStarts;
  llvm::StringMap<Type> shapeCache;
  /// The computations built so far (callees of an instruction written
  /// without a shape give it their result type).
  llvm::StringMap<ComputationOp> built;
  /// The op of each opcode seen so far (null for unknown opcodes).
  llvm::StringMap<std::optional<RegisteredOperationName>> opNames;
  /// fixedDataOperands' answers by op name.
  llvm::StringMap<int64_t> fixedOperandCounts;
  bool failed = false;

  /// Nested syntax (operands, tuple shapes and literals) may go this deep;
  /// deeper input is rejected rather than overflowing the stack.
  static constexpr unsigned kMaxNesting = 256;
  unsigned nesting = 0;
  /// How many tuple shapes enclose the shape being parsed.
  unsigned tupleDepth = 0;
  struct NestingGuard {
    Importer &im;
    bool ok;
    NestingGuard(Importer &im, size_t offset) : im(im) {
      ok = ++im.nesting <= kMaxNesting ||
           im.error(offset, "nesting deeper than " +
                                std::to_string(kMaxNesting) + " levels");
    }
    ~NestingGuard() { --im.nesting; }
  };

  StringRef moduleName;
  SmallVector<AttrAst> headerAttrs;
  SmallVector<std::pair<StringRef, SmallVector<std::pair<int64_t, StringRef>>>>
      sections;
  std::vector<CompAst> comps;
  llvm::StringSet<> compNames;

  // Metadata already read, by its text: instructions lowered from one source
  // operation usually share it.
  llvm::DenseMap<StringRef, Attribute> metadataByText;

  // Per-computation state while building.
  llvm::StringMap<size_t> nameToIndex;
  SmallVector<uint8_t> state;
};

} // namespace mlir::hlo::detail

#endif // HLO_LIB_TRANSLATE_HLOIMPORTER_H
