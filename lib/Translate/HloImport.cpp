//===- HloImport.cpp - HLO text to the hlo dialect ------------------------===//
//
// A two-stage importer. The parser reads the text into a light syntax tree
// (computations, instructions, operands by name, attribute values as raw
// spans). The builder then creates one hlo op per instruction in text order
// (operands defined later are built first), converting each attribute with
// the codec chosen by its HLO name. Errors carry file:line:col.
//
//===----------------------------------------------------------------------===//

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
#include "llvm/Support/Error.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <complex>
#include <deque>

using namespace mlir;
using namespace mlir::hlo;
using syntax::Cursor;

namespace {

//===----------------------------------------------------------------------===//
// Syntax tree
//===----------------------------------------------------------------------===//

struct AttrAst {
  StringRef name;
  StringRef value;
  size_t offset;
};

struct OperandAst {
  StringRef name;   // Referenced instruction, or empty for a nested one.
  int nested = -1;  // Index of a nested (anonymous) instruction.
  size_t offset;
  Type declared;    // The shape written before the operand, if any.
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
};

struct CompAst {
  StringRef name;
  size_t offset = 0;
  bool isEntry = false;
  Type declaredResult; // `-> shape` of the signature, if written.
  size_t declaredResultOffset = 0;
  std::optional<std::string> executionThread;
  std::deque<InstrAst> instrs;
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
  bool cursorError() {
    return error(c.getErrorOffset(), c.getError());
  }
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
  bool parseComputation(CompAst &comp);
  bool parseInstruction(CompAst &comp, size_t index, bool nested);
  bool parseOperands(CompAst &comp, size_t index);
  bool parseAttrList(SmallVectorImpl<AttrAst> &attrs);
  bool captureValue(StringRef &value);
  bool parseName(StringRef &name);

public:
  // Shapes (also used for attribute values that hold shapes).
  bool parseShape(Cursor &cur, Type &type);
  bool parseArrayShape(Cursor &cur, Type &type);
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
                       Block &block, Value &result);
  Operation *createOp(StringRef opcode, InstrAst &instr,
                      ArrayRef<Value> operands, ArrayRef<AttrAst> attrs,
                      Location loc);
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
  Attribute parseStructured(AttrKind kind, const AttrAst &attr);
  ArrayAttr parseList(const AttrAst &attr, StringRef expected,
                      function_ref<Attribute(Cursor &, std::string &)> item);
  Attribute parseTypedLiteral(Cursor &cur, Type &type);
  DictionaryAttr parseDictOfStrings(const AttrAst &attr);
  Attribute parseMetadata(const AttrAst &attr);
  FlatSymbolRefAttr parseSymbol(const AttrAst &attr);

  Cursor c;
  StringRef text;
  MLIRContext *ctx;
  Builder b;
  StringAttr file;
  std::vector<size_t> lineStarts;
  llvm::StringMap<Type> shapeCache;
  bool failed = false;

  /// Nested syntax (operands, tuple shapes and literals) may go this deep;
  /// deeper input is rejected rather than overflowing the stack.
  static constexpr unsigned kMaxNesting = 256;
  unsigned nesting = 0;
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

  // Per-computation state while building.
  llvm::StringMap<size_t> nameToIndex;
  SmallVector<uint8_t> state;
};

} // namespace

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

Location Importer::locAt(size_t offset) {
  auto it = std::upper_bound(lineStarts.begin(), lineStarts.end(), offset);
  size_t line = it - lineStarts.begin();
  size_t col = offset - lineStarts[line - 1] + 1;
  return FileLineColLoc::get(file, line, col);
}

bool Importer::error(size_t offset, const Twine &msg) {
  if (!failed)
    mlir::emitError(locAt(offset)) << msg;
  failed = true;
  return false;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

bool Importer::captureValue(StringRef &value) {
  c.skipSpace();
  size_t start = c.getPos();
  size_t pos = start;
  int depth = 0;
  while (pos < text.size()) {
    char ch = text[pos];
    if (ch == '"') {
      c.setPos(pos);
      std::string ignored;
      if (!c.parseQuoted(ignored))
        return cursorError();
      pos = c.getPos();
      continue;
    }
    if (ch == '{' || ch == '[' || ch == '(') {
      ++depth;
    } else if (ch == '}' || ch == ']' || ch == ')') {
      if (depth == 0)
        break;
      --depth;
    } else if (depth == 0 && (ch == ',' || ch == ' ' || ch == '\n' ||
                              ch == '\t' || ch == '\r')) {
      break;
    }
    ++pos;
  }
  if (depth != 0)
    return error(start, "unbalanced brackets in attribute value");
  if (pos == start)
    return error(start, "expected attribute value");
  value = text.slice(start, pos);
  c.setPos(pos);
  return true;
}

bool Importer::parseAttrList(SmallVectorImpl<AttrAst> &attrs) {
  while (c.consumeIf(",")) {
    AttrAst a;
    c.skipSpace();
    a.offset = c.getPos();
    if (!c.parseIdentifier(a.name) || !c.expect("="))
      return cursorError();
    if (!captureValue(a.value))
      return false;
    attrs.push_back(a);
  }
  return true;
}

bool Importer::parseName(StringRef &name) {
  c.consumeIf("%");
  if (!c.parseIdentifier(name))
    return cursorError();
  return true;
}

bool Importer::parseHeader() {
  if (!c.consumeIf("HloModule"))
    return true;
  if (!c.parseIdentifier(moduleName))
    return cursorError();
  return parseAttrList(headerAttrs);
}

bool Importer::parseSections() {
  while (true) {
    c.skipSpace();
    size_t save = c.getPos();
    StringRef word;
    if (!llvm::isAlpha(c.peek()) || !c.parseIdentifier(word)) {
      c.setPos(save);
      return true;
    }
    if (word != "FileNames" && word != "FunctionNames" &&
        word != "FileLocations" && word != "StackFrames") {
      c.setPos(save);
      return true;
    }
    auto &entries = sections.emplace_back(word, decltype(sections[0].second){})
                        .second;
    int64_t expected = 1;
    while (llvm::isDigit(c.peek())) {
      int64_t id;
      StringRef value;
      c.skipSpace();
      size_t at = c.getPos();
      if (!c.parseInt(id))
        return cursorError();
      if (id != expected)
        return error(at, word + " ids must be 1, 2, 3, ...: expected " +
                             std::to_string(expected) + ", got " +
                             std::to_string(id));
      ++expected;
      if (!captureValue(value))
        return false;
      entries.push_back({id, value});
    }
  }
}

bool Importer::parseComputation(CompAst &comp) {
  c.skipSpace();
  comp.offset = c.getPos();
  comp.isEntry = c.consumeIf("ENTRY");
  if (!parseName(comp.name))
    return false;
  if (!compNames.insert(comp.name).second)
    return error(comp.offset, "redefinition of computation '" + comp.name + "'");
  if (c.peek() == '(') {
    StringRef params;
    if (!c.parseBalanced(params))
      return cursorError();
  }
  if (c.consumeIf("->")) {
    c.skipSpace();
    comp.declaredResultOffset = c.getPos();
    if (!parseShape(c, comp.declaredResult))
      return false;
  }
  if (!c.expect("{"))
    return cursorError();
  while (!c.consumeIf("}")) {
    if (c.atEnd())
      return error(c.getPos(), "expected '}' to end computation '" +
                                   comp.name + "'");
    comp.instrs.emplace_back();
    if (!parseInstruction(comp, comp.instrs.size() - 1, false))
      return false;
  }
  size_t save = c.getPos();
  if (c.consumeIf(",")) {
    StringRef key;
    std::string thread;
    if (c.parseIdentifier(key) && key == "execution_thread" &&
        c.expect("=") && c.parseQuoted(thread))
      comp.executionThread = thread;
    else
      c.setPos(save);
  }
  return true;
}

bool Importer::parseInstruction(CompAst &comp, size_t index, bool nested) {
  c.skipSpace();
  size_t start = c.getPos();
  NestingGuard guard(*this, start);
  if (!guard.ok)
    return false;
  comp.instrs[index].offset = start;
  if (!nested)
    comp.instrs[index].anchor = start;
  if (!nested) {
    comp.instrs[index].isRoot = c.consumeIf("ROOT");
    StringRef name;
    if (!parseName(name) || !c.expect("="))
      return c.failed() ? cursorError() : false;
    comp.instrs[index].name = name.str();
  }
  Type type;
  if (!parseShape(c, type))
    return false;
  comp.instrs[index].type = type;
  c.skipSpace();
  comp.instrs[index].opcodeOffset = c.getPos();
  StringRef opcode;
  if (!c.parseIdentifier(opcode))
    return cursorError();
  comp.instrs[index].opcode = opcode;
  if (nested)
    comp.instrs[index].name = (opcode + ".anon").str();
  if (c.peek() != '(')
    return error(c.getPos(), "expected '(' after opcode '" + opcode + "'");
  if (opcode == "constant") {
    StringRef group;
    if (!c.parseBalanced(group))
      return cursorError();
    comp.instrs[index].literal = group.drop_front().drop_back();
  } else if (opcode == "parameter") {
    int64_t n;
    if (!c.expect("(") || !c.parseInt(n) || !c.expect(")"))
      return cursorError();
    if (n < 0)
      return error(start, "negative parameter number");
    comp.instrs[index].paramNumber = n;
  } else if (!parseOperands(comp, index)) {
    return false;
  }
  if (nested)
    return true;
  SmallVector<AttrAst, 4> attrs;
  if (!parseAttrList(attrs))
    return false;
  comp.instrs[index].attrs = std::move(attrs);
  return true;
}

bool Importer::parseOperands(CompAst &comp, size_t index) {
  if (!c.expect("("))
    return cursorError();
  if (c.consumeIf(")"))
    return true;
  do {
    OperandAst operand;
    c.skipSpace();
    operand.offset = c.getPos();
    if (c.peek() != '%' && startsShapeAt(c, ctx)) {
      size_t shapeStart = c.getPos();
      if (!parseShape(c, operand.declared))
        return false;
      // `shape opcode(...)` is a nested anonymous instruction.
      size_t afterShape = c.getPos();
      StringRef word;
      if (c.peek() != '%' && c.parseIdentifier(word) && c.peek() == '(') {
        c.setPos(shapeStart);
        size_t nestedIndex = comp.instrs.size();
        comp.instrs.emplace_back();
        comp.instrs[nestedIndex].anchor = comp.instrs[index].anchor;
        if (!parseInstruction(comp, nestedIndex, /*nested=*/true))
          return false;
        operand.nested = nestedIndex;
        operand.declared = Type();
        comp.instrs[index].operands.push_back(operand);
        continue;
      }
      c.setPos(afterShape);
    }
    if (!parseName(operand.name))
      return false;
    comp.instrs[index].operands.push_back(operand);
  } while (c.consumeIf(","));
  if (!c.expect(")"))
    return cursorError();
  return true;
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

static StringRef arrayShapeSpelling(StringRef rest);

bool Importer::parseShape(Cursor &cur, Type &type) {
  cur.skipSpace();
  NestingGuard guard(*this, cur.getPos());
  if (!guard.ok)
    return false;
  if (cur.consumeIf("(")) {
    SmallVector<Type> elts;
    if (!cur.consumeIf(")")) {
      do {
        Type t;
        if (!parseShape(cur, t))
          return false;
        elts.push_back(t);
      } while (cur.consumeIf(","));
      if (!cur.expect(")"))
        return error(cur.getErrorOffset(), cur.getError());
    }
    type = TupleType::get(ctx, elts);
    return true;
  }
  // Array shapes repeat a lot: reuse the type built for the same spelling.
  StringRef spelling = arrayShapeSpelling(cur.rest());
  if (!spelling.empty()) {
    auto it = shapeCache.find(spelling);
    if (it != shapeCache.end()) {
      cur.setPos(cur.getPos() + spelling.size());
      type = it->second;
      return true;
    }
  }
  if (!parseArrayShape(cur, type))
    return false;
  if (!spelling.empty())
    shapeCache.try_emplace(spelling, type);
  return true;
}

/// The text of the array shape at the start of `rest` (`f32[2,3]{1,0}`), or
/// empty if it is not one spelled without spaces.
static StringRef arrayShapeSpelling(StringRef rest) {
  size_t open = rest.find_first_of("[ ({,");
  if (open == StringRef::npos || rest[open] != '[')
    return {};
  size_t close = rest.find_first_of("] ", open);
  if (close == StringRef::npos || rest[close] != ']')
    return {};
  size_t end = close + 1;
  if (end < rest.size() && rest[end] == '{') {
    size_t brace = rest.find_first_of("} ", end);
    if (brace == StringRef::npos || rest[brace] != '}')
      return {};
    end = brace + 1;
  }
  return rest.take_front(end);
}

bool Importer::parseArrayShape(Cursor &cur, Type &type) {
  size_t start = cur.getPos();
  StringRef name;
  if (!cur.parseIdentifier(name))
    return error(cur.getErrorOffset(), "expected shape");
  Type elt = parseElementType(ctx, name);
  if (!elt)
    return error(start, "unknown element type '" + name + "'");
  if (!cur.expect("["))
    return error(cur.getErrorOffset(), cur.getError());
  SmallVector<int64_t> dims, bounds;
  bool anyBounded = false;
  if (!cur.consumeIf("]")) {
    do {
      if (cur.consumeIf("?")) {
        dims.push_back(ShapedType::kDynamic);
        bounds.push_back(ShapedType::kDynamic);
        continue;
      }
      bool bounded = cur.consumeIf("<=");
      int64_t d;
      if (!cur.parseInt(d))
        return error(cur.getErrorOffset(), cur.getError());
      if (d < 0)
        return error(start, "negative dimension size in shape");
      dims.push_back(bounded ? ShapedType::kDynamic : d);
      bounds.push_back(bounded ? d : ShapedType::kDynamic);
      anyBounded |= bounded;
    } while (cur.consumeIf(","));
    if (!cur.expect("]"))
      return error(cur.getErrorOffset(), cur.getError());
  }
  if (isa<TokenType, hlo::OpaqueType>(elt)) {
    if (!dims.empty())
      return error(start, "'" + name + "' shapes have no dimensions");
    type = elt;
    return true;
  }
  // Like XLA, reject shapes whose element count does not fit in int64.
  int64_t elements = 1;
  for (auto [d, bound] : llvm::zip(dims, bounds)) {
    int64_t size = ShapedType::isDynamic(d) ? bound : d;
    if (ShapedType::isDynamic(size))
      continue;
    if (llvm::MulOverflow(elements, size, elements))
      return error(start, "shape has more than 2^63 elements");
  }
  LayoutAttr layout;
  // A layout follows directly: `f32[2]{0}` (not `f32[2] {1, 2}`, a literal).
  if (cur.getPos() < text.size() && cur.rest().starts_with("{")) {
    if (!parseLayout(cur, bounds, anyBounded, layout))
      return false;
  } else if (anyBounded) {
    layout = LayoutAttr::get(ctx, false, {}, {}, {}, 0, 0, bounds,
                             StringAttr::get(ctx, ""));
  }
  type = RankedTensorType::get(dims, elt, layout);
  return true;
}

bool Importer::parseLayout(Cursor &cur, ArrayRef<int64_t> bounds,
                           bool anyBounded, LayoutAttr &layout) {
  size_t start = cur.getPos();
  SmallVector<int64_t> m2m, tileSizes, tileData;
  int64_t elementSize = 0, memorySpace = 0;
  std::string extra;
  if (!cur.expect("{"))
    return error(cur.getErrorOffset(), cur.getError());
  if (cur.peek() != '}' && cur.peek() != ':') {
    if (!cur.parseJoinedInts(m2m, ','))
      return error(cur.getErrorOffset(), cur.getError());
  }
  if (cur.consumeIf(":")) {
    while (!cur.atEnd() && cur.peek() != '}') {
      if (cur.consumeIf("T")) {
        while (cur.peek() == '(') {
          size_t before = tileData.size();
          if (!cur.expect("("))
            break;
          do {
            if (cur.consumeIf("*")) {
              tileData.push_back(std::numeric_limits<int64_t>::min());
              continue;
            }
            int64_t v;
            if (!cur.parseInt(v))
              return error(cur.getErrorOffset(), cur.getError());
            tileData.push_back(v);
          } while (cur.consumeIf(","));
          if (!cur.expect(")"))
            return error(cur.getErrorOffset(), cur.getError());
          tileSizes.push_back(tileData.size() - before);
        }
      } else if (cur.consumeIf("E(")) {
        if (!cur.parseInt(elementSize) || !cur.expect(")"))
          return error(cur.getErrorOffset(), cur.getError());
      } else if (cur.consumeIf("S(")) {
        if (!cur.parseInt(memorySpace) || !cur.expect(")"))
          return error(cur.getErrorOffset(), cur.getError());
      } else {
        // Other layout items (L(..), P(..), SC(..), ...) are kept verbatim.
        size_t itemStart = cur.getPos();
        StringRef word, group;
        if (!cur.consumeIf("#") && !cur.consumeIf("*") &&
            !cur.parseIdentifier(word))
          return error(itemStart, "malformed layout item");
        if (!cur.parseBalanced(group))
          return error(itemStart, "malformed layout item");
        extra += cur.getText().slice(itemStart, cur.getPos()).str();
      }
    }
  }
  if (!cur.expect("}"))
    return error(cur.getErrorOffset(), cur.getError());
  size_t rank = bounds.size();
  if (rank == 0 && tileSizes.empty() && !elementSize && !memorySpace &&
      extra.empty() && m2m.empty())
    return true; // `f32[]{}` is the default scalar layout.
  if (m2m.size() != rank)
    return error(start, "layout {" + std::to_string(m2m.size()) +
                            " dims} does not match the shape's rank " +
                            std::to_string(rank));
  SmallVector<bool> seen(rank, false);
  for (int64_t d : m2m) {
    if (d < 0 || d >= int64_t(rank) || seen[d])
      return error(start, "layout is not a permutation of the dimensions");
    seen[d] = true;
  }
  layout = LayoutAttr::get(ctx, true, m2m, tileSizes, tileData, elementSize,
                           memorySpace,
                           anyBounded ? bounds : ArrayRef<int64_t>(),
                           StringAttr::get(ctx, extra));
  return true;
}

//===----------------------------------------------------------------------===//
// Literals
//===----------------------------------------------------------------------===//

/// Reads one scalar token of a literal: a number, inf/nan spelling, or
/// true/false.
static StringRef scanScalarToken(Cursor &cur) {
  cur.skipSpace();
  StringRef rest = cur.rest();
  size_t n = 0;
  while (n < rest.size()) {
    char ch = rest[n];
    if (ch == ',' || ch == '}' || ch == ')' || ch == ' ' || ch == '\n' ||
        ch == '\t' || ch == '\r')
      break;
    if (ch == '(') { // nan(0x...)
      size_t close = rest.find(')', n);
      n = close == StringRef::npos ? rest.size() : close + 1;
      break;
    }
    ++n;
  }
  cur.setPos(cur.getPos() + n);
  return rest.take_front(n);
}

static std::optional<APFloat> parseFloatToken(StringRef tok,
                                              const llvm::fltSemantics &sem,
                                              std::string &err) {
  bool neg = tok.consume_front("-");
  if (!neg)
    tok.consume_front("+");
  if (tok == "inf") {
    if (!APFloat::semanticsHasInf(sem)) {
      err = "this floating-point type has no infinity";
      return std::nullopt;
    }
    return APFloat::getInf(sem, neg);
  }
  if (tok.starts_with("nan")) {
    if (!APFloat::semanticsHasNaN(sem)) {
      err = "this floating-point type has no NaN";
      return std::nullopt;
    }
    StringRef payload = tok.drop_front(3);
    if (payload.empty())
      return APFloat::getQNaN(sem, neg);
    uint64_t bits;
    if (!payload.consume_front("(0x") || !payload.consume_back(")") ||
        payload.getAsInteger(16, bits)) {
      err = "malformed NaN payload";
      return std::nullopt;
    }
    // The payload is the significand bits, quiet bit included.
    unsigned width = APFloat::semanticsSizeInBits(sem);
    APInt all = APFloat::getQNaN(sem, neg).bitcastToAPInt();
    unsigned mantBits = APFloat::semanticsPrecision(sem) - 1;
    APInt mantMask = APInt::getLowBitsSet(width, mantBits);
    APInt value = (all & ~mantMask) | (APInt(width, bits) & mantMask);
    return APFloat(sem, value);
  }
  APFloat value(sem);
  auto status = value.convertFromString(tok, APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
    err = "invalid floating-point literal '" + tok.str() + "'";
    return std::nullopt;
  }
  if (*status & APFloat::opOverflow) {
    err = "value " + tok.str() + " is out of range for the element type";
    return std::nullopt;
  }
  if (neg)
    value.changeSign();
  return value;
}

bool Importer::parseScalar(Cursor &cur, Type elt, SmallVectorImpl<APInt> &ints,
                           SmallVectorImpl<APFloat> &floats,
                           SmallVectorImpl<std::complex<APFloat>> &complexes) {
  cur.skipSpace();
  size_t at = cur.getPos();
  std::string err;
  if (auto complex = dyn_cast<ComplexType>(elt)) {
    auto &sem = cast<FloatType>(complex.getElementType()).getFloatSemantics();
    if (!cur.expect("("))
      return error(cur.getErrorOffset(), "expected '(' of a complex literal");
    auto re = parseFloatToken(scanScalarToken(cur), sem, err);
    if (!re || !cur.expect(","))
      return error(at, err.empty() ? "malformed complex literal" : err);
    auto im = parseFloatToken(scanScalarToken(cur), sem, err);
    if (!im || !cur.expect(")"))
      return error(at, err.empty() ? "malformed complex literal" : err);
    complexes.emplace_back(*re, *im);
    return true;
  }
  StringRef tok = scanScalarToken(cur);
  if (tok.empty())
    return error(at, "expected a literal value");
  if (auto ft = dyn_cast<FloatType>(elt)) {
    auto v = parseFloatToken(tok, ft.getFloatSemantics(), err);
    if (!v)
      return error(at, err);
    floats.push_back(*v);
    return true;
  }
  auto it = cast<IntegerType>(elt);
  unsigned width = it.getWidth();
  if (width == 1 && it.isSignless()) {
    // pred: true/false, or an integer where nonzero is true (as XLA reads).
    APInt v;
    bool neg = tok.starts_with("-");
    if (tok == "true" || tok == "false")
      ints.push_back(APInt(1, tok == "true"));
    else if (!tok.drop_front(neg).getAsInteger(10, v))
      ints.push_back(APInt(1, !v.isZero()));
    else
      return error(at, "invalid pred literal '" + tok + "'");
    return true;
  }
  bool neg = tok.consume_front("-");
  APInt v;
  if (tok.getAsInteger(10, v))
    return error(at, "invalid integer literal '" + tok + "'");
  if (neg && it.isUnsigned())
    return error(at, "negative value for an unsigned type");
  bool fits;
  if (it.isUnsigned() || width == 1)
    fits = v.getActiveBits() <= width;
  else if (neg)
    fits = v.getActiveBits() < width ||
           (v.getActiveBits() == width && v.isPowerOf2());
  else
    fits = v.getActiveBits() < width;
  if (!fits)
    return error(at, "literal value " + tok + " does not fit in " +
                         std::to_string(width) + " bits");
  v = v.zextOrTrunc(width);
  if (neg)
    v.negate();
  ints.push_back(v);
  return true;
}

Attribute Importer::parseArrayLiteral(Cursor &cur, RankedTensorType type) {
  auto plain = RankedTensorType::get(type.getShape(), type.getElementType());
  SmallVector<APInt> ints;
  SmallVector<APFloat> floats;
  SmallVector<std::complex<APFloat>> complexes;
  Type elt = type.getElementType();
  int64_t rank = type.getRank();
  for (int64_t d : type.getShape())
    if (ShapedType::isDynamic(d)) {
      error(cur.getPos(), "literal of a dynamic shape");
      return {};
    }
  // Nested braces, one level per dimension; counts are checked at the end
  // of each level.
  std::function<bool(int64_t)> level = [&](int64_t dim) -> bool {
    if (dim == rank)
      return parseScalar(cur, elt, ints, floats, complexes);
    if (!cur.expect("{"))
      return error(cur.getErrorOffset(), cur.getError());
    int64_t count = 0;
    if (!cur.consumeIf("}")) {
      do {
        if (!level(dim + 1))
          return false;
        ++count;
      } while (cur.consumeIf(","));
      if (!cur.expect("}"))
        return error(cur.getErrorOffset(), cur.getError());
    }
    if (count != type.getDimSize(dim))
      return error(cur.getPos(), "literal has " + std::to_string(count) +
                                     " elements in dimension " +
                                     std::to_string(dim) + ", shape says " +
                                     std::to_string(type.getDimSize(dim)));
    return true;
  };
  if (!level(0))
    return {};
  if (isa<ComplexType>(elt))
    return DenseElementsAttr::get(plain, complexes);
  if (isa<FloatType>(elt))
    return DenseElementsAttr::get(plain, floats);
  if (elt.isInteger(1)) {
    SmallVector<bool> bools;
    for (const APInt &v : ints)
      bools.push_back(!v.isZero());
    return DenseElementsAttr::get(plain, bools);
  }
  return DenseElementsAttr::get(plain, ints);
}

Attribute Importer::parseLiteral(Cursor &cur, Type type) {
  cur.skipSpace();
  NestingGuard guard(*this, cur.getPos());
  if (!guard.ok)
    return {};
  if (cur.rest().starts_with("{...}")) {
    cur.setPos(cur.getPos() + 5);
    return b.getUnitAttr(); // Elided.
  }
  if (auto tuple = dyn_cast<TupleType>(type)) {
    if (!cur.expect("("))
      return error(cur.getErrorOffset(), "expected '(' of a tuple literal"),
             Attribute();
    SmallVector<Attribute> elts;
    for (size_t i = 0; i < tuple.size(); ++i) {
      if (i && !cur.expect(","))
        return error(cur.getErrorOffset(), cur.getError()), Attribute();
      // Tuple elements may repeat their shape: `( s32[4]{0} {...}, ... )`.
      if (cur.peek() != '(' && startsShapeAt(cur, ctx)) {
        Type ignored;
        if (!parseShape(cur, ignored))
          return {};
      }
      Attribute elt = parseLiteral(cur, tuple.getType(i));
      if (!elt)
        return {};
      elts.push_back(elt);
    }
    if (!cur.expect(")"))
      return error(cur.getErrorOffset(), cur.getError()), Attribute();
    return b.getArrayAttr(elts);
  }
  auto rt = dyn_cast<RankedTensorType>(type);
  if (!rt) {
    error(cur.getPos(), "constant of a type without literals");
    return {};
  }
  return parseArrayLiteral(cur, rt);
}

//===----------------------------------------------------------------------===//
// Attribute values
//===----------------------------------------------------------------------===//

/// Builds the enum attribute `mlirName` of an op from its HLO spelling.
static Attribute makeEnumAttr(MLIRContext *ctx, StringRef opcode,
                              StringRef mlirName, StringRef v) {
  auto wrap = [&](auto maybe, auto getter) -> Attribute {
    if (!maybe)
      return {};
    return getter(ctx, *maybe);
  };
  if (mlirName == "direction")
    return wrap(symbolizeComparisonDirection(v), ComparisonDirectionAttr::get);
  if (mlirName == "comparison_type")
    return wrap(symbolizeComparisonType(v), ComparisonTypeAttr::get);
  if (mlirName == "kind")
    return wrap(symbolizeFusionKind(v), FusionKindAttr::get);
  if (mlirName == "fft_type")
    return wrap(symbolizeFftType(v), FftTypeAttr::get);
  if (mlirName == "distribution")
    return wrap(symbolizeRngDistribution(v), RngDistributionAttr::get);
  if (mlirName == "transpose_a")
    return wrap(symbolizeTranspose(v), TransposeAttr::get);
  if (mlirName == "api_version")
    return wrap(symbolizeCustomCallApiVersion(v), CustomCallApiVersionAttr::get);
  if (mlirName == "schedule")
    return wrap(symbolizeCustomCallSchedule(v), CustomCallScheduleAttr::get);
  if (mlirName == "algorithm") {
    if (opcode == "rng-bit-generator")
      return wrap(symbolizeRngAlgorithm(v), RngAlgorithmAttr::get);
    return StringAttr::get(ctx, v); // dot algorithm, e.g. dot_f32_f32_f32
  }
  return {};
}

FlatSymbolRefAttr Importer::parseSymbol(const AttrAst &attr) {
  StringRef v = attr.value;
  v.consume_front("%");
  if (v.empty()) {
    error(attr.offset, "expected a computation name");
    return {};
  }
  return FlatSymbolRefAttr::get(ctx, v);
}

DictionaryAttr Importer::parseDictOfStrings(const AttrAst &attr) {
  Cursor cur = sub(attr.value);
  NamedAttrList entries;
  if (cur.expect("{") && !cur.consumeIf("}")) {
    do {
      std::string key, value;
      StringRef ident;
      if (cur.peek() == '"') {
        if (!cur.parseQuoted(key))
          break;
      } else if (cur.parseIdentifier(ident)) {
        key = ident.str();
      } else {
        break;
      }
      if (!cur.expect("="))
        break;
      if (cur.peek() == '"') {
        if (!cur.parseQuoted(value))
          break;
      } else {
        StringRef raw;
        if (cur.peek() == '{' ? !cur.parseBalanced(raw)
                              : !cur.parseIdentifier(raw))
          break;
        value = raw.str();
      }
      entries.set(b.getStringAttr(key), b.getStringAttr(value));
    } while (cur.consumeIf(","));
    cur.expect("}");
  }
  if (cur.failed() || !cur.atEnd()) {
    error(cur.failed() ? cur.getErrorOffset() : cur.getPos(),
          "malformed " + attr.name + ": " +
              (cur.failed() ? cur.getError() : "trailing characters"));
    return {};
  }
  return entries.getDictionary(ctx);
}

Attribute Importer::convertAttr(StringRef opcode, const AttrAst &attr,
                                StringRef &mlirName) {
  const AttrInfo *info = lookupHloAttr(attr.name);
  if (!info)
    return {};
  mlirName = info->mlirName;
  StringRef v = attr.value;
  auto fail = [&](const Twine &msg) -> Attribute {
    error(attr.offset, "invalid " + attr.name + "=" + v.take_front(60) +
                           ": " + msg);
    return {};
  };
  // Structured values report errors relative to the attribute value.
  auto syntaxError = [&]() -> InFlightDiagnostic {
    failed = true;
    return mlir::emitError(locAt(attr.offset))
           << "invalid " << attr.name << ": ";
  };
  switch (info->kind) {
  case AttrKind::IntList: {
    Cursor cur = sub(v);
    SmallVector<int64_t> values;
    if (!cur.parseIntList(values) || !cur.atEnd())
      return fail("expected {i, j, ...}");
    return b.getDenseI64ArrayAttr(values);
  }
  case AttrKind::Int: {
    int64_t x;
    if (v.getAsInteger(10, x))
      return fail("expected an integer");
    return b.getI64IntegerAttr(x);
  }
  case AttrKind::Float: {
    double x;
    if (v.getAsDouble(x))
      return fail("expected a number");
    return b.getF32FloatAttr(x);
  }
  case AttrKind::Bool:
    if (v == "true" || v == "{true}")
      return b.getBoolAttr(true);
    if (v == "false" || v == "{false}")
      return b.getBoolAttr(false);
    return fail("expected true or false");
  case AttrKind::Enum: {
    Attribute a = makeEnumAttr(ctx, opcode, mlirName, v);
    if (!a)
      return fail("unknown value");
    return a;
  }
  case AttrKind::String: {
    Cursor cur = sub(v);
    std::string s;
    if (!cur.parseQuoted(s) || !cur.atEnd())
      return fail("expected a quoted string");
    return b.getStringAttr(s);
  }
  case AttrKind::BackendConfig: {
    if (v.starts_with("\"")) {
      Cursor cur = sub(v);
      std::string s;
      if (!cur.parseQuoted(s) || !cur.atEnd())
        return fail("malformed string");
      return b.getStringAttr(s);
    }
    return TextAttr::get(ctx, v);
  }
  case AttrKind::Window:
    return WindowAttr::parseHlo(ctx, v, syntaxError);
  case AttrKind::ConvDims:
    return ConvDimensionNumbersAttr::parseHlo(ctx, v, syntaxError);
  case AttrKind::Slice:
    return SliceAttr::parseHlo(ctx, v, syntaxError);
  case AttrKind::Padding:
    return PaddingAttr::parseHlo(ctx, v, syntaxError);
  case AttrKind::ReplicaGroups:
    return ReplicaGroupsAttr::parseHlo(ctx, v, syntaxError);
  case AttrKind::Sharding:
    return ShardingAttr::parseHlo(ctx, v, syntaxError);
  case AttrKind::Symbol:
    if (v.starts_with("{")) // calls={%a} with a single computation.
      v = v.drop_front().drop_back().trim();
    if (v.contains(','))
      return fail("expected one computation");
    return parseSymbol({attr.name, v, attr.offset});
  case AttrKind::SymbolList:
  case AttrKind::NameList:
    return parseList(attr, "expected {%name, ...}",
                     [&](Cursor &cur, std::string &) -> Attribute {
                       StringRef name;
                       cur.consumeIf("%");
                       if (!cur.parseIdentifier(name))
                         return {};
                       if (info->kind == AttrKind::SymbolList)
                         return FlatSymbolRefAttr::get(ctx, name);
                       return b.getStringAttr(name);
                     });
  case AttrKind::Pairs:
    return parseList(attr, "expected {{source,target}, ...}",
                     [&](Cursor &cur, std::string &err) -> Attribute {
                       SmallVector<int64_t> pair;
                       if (!cur.parseIntList(pair))
                         return {};
                       if (pair.size() != 2) {
                         err = "each pair needs two ids";
                         return {};
                       }
                       return b.getDenseI64ArrayAttr(pair);
                     });
  case AttrKind::StringDict:
    return parseDictOfStrings(attr);
  case AttrKind::Shape: {
    Cursor cur = sub(v);
    Type t;
    if (!parseShape(cur, t))
      return {};
    return TypeAttr::get(t);
  }
  case AttrKind::ShapeList:
    return parseList(attr, "expected {shape, ...}",
                     [&](Cursor &cur, std::string &) -> Attribute {
                       Type t;
                       if (!parseShape(cur, t))
                         return {};
                       return TypeAttr::get(t);
                     });
  case AttrKind::PrecisionList:
    return parseList(attr, "expected {default, high, ...}",
                     [&](Cursor &cur, std::string &err) -> Attribute {
                       StringRef p;
                       if (!cur.parseIdentifier(p))
                         return {};
                       auto sym = symbolizePrecision(p.lower());
                       if (!sym) {
                         err = ("unknown precision '" + p + "'").str();
                         return {};
                       }
                       return PrecisionAttr::get(ctx, *sym);
                     });
  case AttrKind::BoolList:
  case AttrKind::Statistics:
  case AttrKind::Accuracy:
  case AttrKind::Aliasing:
  case AttrKind::Domain:
  case AttrKind::TypedLiteral:
    return parseStructured(info->kind, attr);
  case AttrKind::Text:
    return TextAttr::get(ctx, v);
  }
  return {};
}

/// `{1,2}` as a DenseI64ArrayAttr.
static DenseI64ArrayAttr parseIndex(Cursor &cur, Builder &b) {
  SmallVector<int64_t> idx;
  if (!cur.parseIntList(idx))
    return {};
  return b.getDenseI64ArrayAttr(idx);
}

Attribute Importer::parseTypedLiteral(Cursor &cur, Type &type) {
  cur.skipSpace();
  NestingGuard guard(*this, cur.getPos());
  if (!guard.ok)
    return {};
  if (cur.consumeIf("(")) {
    SmallVector<Type> types;
    SmallVector<Attribute> values;
    if (!cur.consumeIf(")")) {
      do {
        Type t;
        Attribute v = parseTypedLiteral(cur, t);
        if (!v)
          return {};
        types.push_back(t);
        values.push_back(v);
      } while (cur.consumeIf(","));
      if (!cur.expect(")"))
        return error(cur.getErrorOffset(), cur.getError()), Attribute();
    }
    type = TupleType::get(ctx, types);
    return b.getArrayAttr(values);
  }
  if (!parseShape(cur, type))
    return {};
  return parseLiteral(cur, type);
}

Attribute Importer::parseStructured(AttrKind kind, const AttrAst &attr) {
  Cursor cur = sub(attr.value);
  Attribute result;
  switch (kind) {
  case AttrKind::BoolList: {
    SmallVector<bool> values;
    bool braced = cur.consumeIf("{");
    if (!braced || !cur.consumeIf("}")) {
      do {
        StringRef word;
        if (!cur.parseIdentifier(word))
          break;
        if (word != "true" && word != "false") {
          cur.error("expected true or false");
          break;
        }
        values.push_back(word == "true");
      } while (braced && cur.consumeIf(","));
      if (braced)
        cur.expect("}");
    }
    result = b.getDenseBoolArrayAttr(values);
    break;
  }
  case AttrKind::Statistics: {
    NamedAttrList entries;
    if (cur.expect("{") && !cur.consumeIf("}")) {
      do {
        StringRef key;
        if (!cur.parseIdentifier(key) || !cur.expect("="))
          break;
        StringRef tok = scanScalarToken(cur);
        double x;
        if (tok.getAsDouble(x)) {
          cur.error("expected a number");
          break;
        }
        if (key == "visualizing_index")
          entries.set(key, b.getI64IntegerAttr(int64_t(x)));
        else
          entries.set(key, b.getF64FloatAttr(x));
      } while (cur.consumeIf(","));
      cur.expect("}");
    }
    result = entries.getDictionary(ctx);
    break;
  }
  case AttrKind::Accuracy: {
    NamedAttrList entries;
    if (cur.expect("{")) {
      StringRef key;
      if (cur.parseIdentifier(key) && cur.expect("=")) {
        if (key == "mode") {
          StringRef mode;
          if (cur.parseIdentifier(mode))
            entries.set("mode", b.getStringAttr(mode));
        } else if (key == "tolerance" && cur.expect("{")) {
          do {
            StringRef k;
            if (!cur.parseIdentifier(k) || !cur.expect("="))
              break;
            StringRef tok = scanScalarToken(cur);
            double x;
            if (tok.getAsDouble(x) ||
                (k != "atol" && k != "rtol" && k != "ulps")) {
              cur.error("expected atol=, rtol= or ulps= with a number");
              break;
            }
            if (k == "ulps")
              entries.set(k, b.getI64IntegerAttr(int64_t(x)));
            else
              entries.set(k, b.getF64FloatAttr(x));
          } while (cur.consumeIf(","));
          cur.expect("}");
        } else if (!cur.failed()) {
          cur.error("expected mode= or tolerance=");
        }
      }
      cur.expect("}");
    }
    result = entries.getDictionary(ctx);
    break;
  }
  case AttrKind::Aliasing: {
    // {{output index}: (operand, {operand index}), ...}
    SmallVector<Attribute> entries;
    if (cur.expect("{") && !cur.consumeIf("}")) {
      do {
        DenseI64ArrayAttr out, operandIndex;
        int64_t operand;
        if (!(out = parseIndex(cur, b)) || !cur.expect(":") ||
            !cur.expect("(") || !cur.parseInt(operand) || !cur.expect(",") ||
            !(operandIndex = parseIndex(cur, b)) || !cur.expect(")"))
          break;
        NamedAttrList e;
        e.set("output_index", out);
        e.set("operand", b.getI64IntegerAttr(operand));
        e.set("operand_index", operandIndex);
        entries.push_back(e.getDictionary(ctx));
      } while (cur.consumeIf(","));
      cur.expect("}");
    }
    result = b.getArrayAttr(entries);
    break;
  }
  case AttrKind::Domain: {
    NamedAttrList entries;
    if (cur.expect("{") && !cur.consumeIf("}")) {
      do {
        StringRef key;
        if (!cur.parseIdentifier(key) || !cur.expect("="))
          break;
        if (key == "kind") {
          std::string kindName;
          if (!cur.parseQuoted(kindName))
            break;
          entries.set("kind", b.getStringAttr(kindName));
          continue;
        }
        StringRef group;
        if ((key != "entry" && key != "exit") || !cur.parseBalanced(group)) {
          cur.error("expected kind=, entry= or exit=");
          break;
        }
        Attribute sharding = ShardingAttr::parseHlo(ctx, group, [&]() {
          failed = true;
          return mlir::emitError(locAt(attr.offset)) << "invalid domain: ";
        });
        if (!sharding)
          return {};
        entries.set(key, sharding);
      } while (cur.consumeIf(","));
      cur.expect("}");
    }
    result = entries.getDictionary(ctx);
    break;
  }
  case AttrKind::TypedLiteral: {
    Type type;
    Attribute value = parseTypedLiteral(cur, type);
    if (!value)
      return {};
    NamedAttrList e;
    e.set("shape", TypeAttr::get(type));
    e.set("value", value);
    result = e.getDictionary(ctx);
    break;
  }
  default:
    break;
  }
  if (failed)
    return {};
  if (cur.failed() || !cur.atEnd()) {
    error(cur.failed() ? cur.getErrorOffset() : cur.getPos(),
          "malformed " + attr.name + ": " +
              (cur.failed() ? cur.getError() : "unexpected trailing text"));
    return {};
  }
  return result;
}

/// `{item, ...}` (possibly empty) spanning the whole attribute value. `item`
/// parses one element; it returns null to stop, after a cursor error or with
/// `err` set to a specific message. `expected` describes the form.
ArrayAttr
Importer::parseList(const AttrAst &attr, StringRef expected,
                    function_ref<Attribute(Cursor &, std::string &)> item) {
  Cursor cur = sub(attr.value);
  SmallVector<Attribute> elts;
  std::string err;
  if (cur.expect("{") && !cur.consumeIf("}")) {
    do {
      Attribute elt = item(cur, err);
      if (!elt)
        break;
      elts.push_back(elt);
    } while (cur.consumeIf(","));
    if (err.empty() && !failed)
      cur.expect("}");
  }
  if (failed)
    return {};
  if (!err.empty() || cur.failed() || !cur.atEnd()) {
    error(attr.offset, "invalid " + attr.name + "=" +
                           attr.value.take_front(60) + ": " +
                           (err.empty() ? expected : StringRef(err)));
    return {};
  }
  return b.getArrayAttr(elts);
}

Attribute Importer::parseMetadata(const AttrAst &attr) {
  Cursor cur = sub(attr.value);
  NamedAttrList entries;
  if (cur.expect("{")) {
    while (!cur.consumeIf("}")) {
      if (cur.atEnd()) {
        cur.error("expected '}'");
        break;
      }
      StringRef key;
      if (!cur.parseIdentifier(key) || !cur.expect("="))
        break;
      Attribute value;
      if (cur.peek() == '"') {
        std::string s;
        if (!cur.parseQuoted(s))
          break;
        value = b.getStringAttr(s);
      } else if (cur.peek() == '{') {
        StringRef group;
        if (!cur.parseBalanced(group))
          break;
        value = TextAttr::get(ctx, group);
      } else {
        StringRef word;
        if (!cur.parseIdentifier(word))
          break;
        int64_t x;
        if (!word.getAsInteger(10, x))
          value = b.getI64IntegerAttr(x);
        else if (word == "true" || word == "false")
          value = b.getBoolAttr(word == "true");
        else
          value = TextAttr::get(ctx, word);
      }
      entries.set(b.getStringAttr(key), value);
    }
  }
  if (cur.failed()) {
    error(attr.offset, "malformed metadata: " + cur.getError());
    return {};
  }
  return entries.getDictionary(ctx);
}

Attribute Importer::convertModuleAttr(const AttrAst &attr) {
  StringRef v = attr.value;
  if (attr.name == "entry_computation_layout") {
    Cursor cur = sub(v);
    SmallVector<Type> params;
    Type result;
    if (!cur.expect("{") || !cur.expect("(")) {
      error(attr.offset, "malformed entry_computation_layout");
      return {};
    }
    if (!cur.consumeIf(")")) {
      do {
        Type t;
        if (!parseShape(cur, t))
          return {};
        params.push_back(t);
      } while (cur.consumeIf(","));
      if (!cur.expect(")")) {
        error(attr.offset, "malformed entry_computation_layout");
        return {};
      }
    }
    if (!cur.expect("->") || !parseShape(cur, result) || !cur.expect("}") ||
        !cur.atEnd()) {
      if (!failed)
        error(attr.offset, "malformed entry_computation_layout");
      return {};
    }
    return TypeAttr::get(FunctionType::get(ctx, params, result));
  }
  if (attr.name == "is_scheduled" || attr.name == "alias_passthrough_params") {
    if (v != "true" && v != "false") {
      error(attr.offset, attr.name + " must be true or false");
      return {};
    }
    return b.getBoolAttr(v == "true");
  }
  if (attr.name == "replica_count" || attr.name == "num_partitions") {
    int64_t n;
    if (v.getAsInteger(10, n) || n < 1) {
      error(attr.offset, attr.name + " must be a positive integer");
      return {};
    }
    return b.getI64IntegerAttr(n);
  }
  if (attr.name == "frontend_attributes")
    return parseDictOfStrings(attr);
  if (attr.name.starts_with("allow_spmd_sharding_propagation"))
    return parseStructured(AttrKind::BoolList, attr);
  if (attr.name == "input_output_alias" || attr.name == "buffer_donor") {
    // {{out}: (param, {index}, kind), ...} and {(param, {index}), ...}
    bool alias = attr.name == "input_output_alias";
    Cursor cur = sub(v);
    SmallVector<Attribute> entries;
    if (cur.expect("{") && !cur.consumeIf("}")) {
      do {
        NamedAttrList e;
        if (alias) {
          DenseI64ArrayAttr out = parseIndex(cur, b);
          if (!out || !cur.expect(":"))
            break;
          e.set("output_index", out);
        }
        int64_t param;
        DenseI64ArrayAttr index;
        if (!cur.expect("(") || !cur.parseInt(param) || !cur.expect(",") ||
            !(index = parseIndex(cur, b)))
          break;
        e.set("parameter", b.getI64IntegerAttr(param));
        e.set("parameter_index", index);
        if (alias && cur.consumeIf(",")) {
          StringRef kind;
          if (!cur.parseIdentifier(kind))
            break;
          e.set("kind", b.getStringAttr(kind));
        }
        if (!cur.expect(")"))
          break;
        entries.push_back(e.getDictionary(ctx));
      } while (cur.consumeIf(","));
      cur.expect("}");
    }
    if (cur.failed() || !cur.atEnd()) {
      error(cur.failed() ? cur.getErrorOffset() : cur.getPos(),
            "malformed " + attr.name + ": " +
                (cur.failed() ? cur.getError() : "unexpected trailing text"));
      return {};
    }
    return b.getArrayAttr(entries);
  }
  return TextAttr::get(ctx, v);
}

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

static std::string hloShape(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printHloShape(os, t);
  return s;
}

Location Importer::instrLoc(InstrAst &instr, ArrayRef<AttrAst> attrs) {
  // A nested parameter becomes a block argument: it is placed where the
  // instruction using it starts, so that export prints it before that use.
  size_t at = instr.opcode == "parameter" ? instr.anchor : instr.offset;
  Location nameLoc = NameLoc::get(b.getStringAttr(instr.name), locAt(at));
  for (const AttrAst &a : attrs)
    if (a.name == "metadata")
      if (Attribute md = parseMetadata(a))
        return FusedLoc::get(ctx, {nameLoc}, md);
  return nameLoc;
}

bool Importer::convertAttrs(StringRef opcode, ArrayRef<AttrAst> attrs,
                            ArrayRef<StringAttr> known, NamedAttrList &out) {
  NamedAttrList unknown;
  for (const AttrAst &a : attrs) {
    if (a.name == "metadata")
      continue;
    StringRef mlirName;
    const AttrInfo *info = lookupHloAttr(a.name);
    bool isKnown = info && (known.empty() ||
                            llvm::any_of(known, [&](StringAttr k) {
                              return k.getValue() == info->mlirName;
                            }));
    if (!isKnown) {
      // Kept verbatim so that nothing in the text is lost.
      unknown.set(b.getStringAttr(a.name), TextAttr::get(ctx, a.value));
      continue;
    }
    Attribute value = convertAttr(opcode, a, mlirName);
    if (!value)
      return failed ? false : error(a.offset, "invalid attribute " + a.name);
    if (out.get(mlirName))
      return error(a.offset, "duplicate attribute '" + a.name + "'");
    out.set(mlirName, value);
  }
  if (!unknown.empty())
    out.set("unknown_attrs", unknown.getDictionary(ctx));
  return true;
}

Operation *Importer::createOp(StringRef opcode, InstrAst &instr,
                              ArrayRef<Value> operands,
                              ArrayRef<AttrAst> attrs, Location loc) {
  std::string name = "hlo." + opcode.str();
  std::replace(name.begin(), name.end(), '-', '_');
  std::optional<RegisteredOperationName> opName =
      RegisteredOperationName::lookup(name, ctx);
  if (!opName || name == "hlo.computation" || name == "hlo.return") {
    error(instr.opcodeOffset, "unknown opcode '" + opcode + "'");
    return nullptr;
  }
  OperationState state(loc, *opName);
  state.addOperands(operands);
  state.addTypes(instr.type);
  NamedAttrList attributes;
  if (!convertAttrs(opcode, attrs, opName->getAttributeNames(), attributes))
    return nullptr;
  if (opcode == "constant") {
    Cursor cur = sub(instr.literal);
    Attribute literal = parseLiteral(cur, instr.type);
    if (!literal)
      return nullptr;
    if (!cur.atEnd()) {
      error(instr.opcodeOffset, "unexpected text after the literal");
      return nullptr;
    }
    if (!isa<UnitAttr>(literal))
      attributes.set("value", literal);
  }
  state.addAttributes(attributes);
  return Operation::create(state);
}

bool Importer::buildAsyncSugar(CompAst &comp, InstrAst &instr, StringRef base,
                               StringRef suffix,
                               SmallVectorImpl<Value> &operands, Block &block,
                               Value &result) {
  Location loc = instrLoc(instr, instr.attrs);
  if (suffix != "start") {
    if (operands.size() != 1)
      return error(instr.offset, "'" + instr.opcode.str() +
                                     "' takes the async chain as its operand");
    StringRef opName = suffix == "update" ? "async-update" : "async-done";
    Operation *op = createOp(opName, instr, operands, instr.attrs, loc);
    if (!op)
      return false;
    block.push_back(op);
    result = op->getResult(0);
    return true;
  }
  // X-start(...): wrap X in a new computation whose ROOT is X.
  auto tuple = dyn_cast<TupleType>(instr.type);
  if (!tuple || tuple.size() < 2)
    return error(instr.offset, "'" + instr.opcode.str() +
                                   "' must produce ((operands), output, ...)");
  std::string calleeName = instr.name + ".wrapped";
  while (compNames.contains(calleeName))
    calleeName += "_";
  compNames.insert(calleeName);
  SmallVector<Type> argTypes;
  for (Value v : operands)
    argTypes.push_back(v.getType());
  OpBuilder ob(ctx);
  ob.setInsertionPoint(block.getParentOp());
  auto callee = ComputationOp::create(
      ob, loc, calleeName, ob.getFunctionType(argTypes, {tuple.getType(1)}),
      /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr, /*entry=*/false,
      StringAttr());
  Block *body = new Block();
  callee.getBody().push_back(body);
  SmallVector<Value> args;
  for (auto [i, t] : llvm::enumerate(argTypes))
    args.push_back(body->addArgument(
        t, NameLoc::get(b.getStringAttr("Arg_" + std::to_string(i)),
                        locAt(instr.offset))));
  // The start keeps what is about the chain; the rest is the wrapped op's.
  SmallVector<AttrAst> inner, outer;
  for (const AttrAst &a : instr.attrs)
    (a.name == "async_execution_thread" || a.name == "control-predecessors"
         ? outer
         : inner)
        .push_back(a);
  InstrAst wrapped = instr;
  wrapped.type = tuple.getType(1);
  Operation *op = createOp(base, wrapped, args, inner, loc);
  if (!op)
    return false;
  body->push_back(op);
  ob.setInsertionPointToEnd(body);
  ReturnOp::create(ob, loc, op->getResult(0));
  for (const AttrAst &a : outer)
    if (a.name == "async_execution_thread")
      if (auto thread = dyn_cast_or_null<StringAttr>(
              convertAttr("async-start", a, base)))
        callee.setExecutionThreadAttr(thread);
  Operation *start = createOp("async-start", instr, operands, outer, loc);
  if (!start)
    return false;
  start->setAttr("calls", FlatSymbolRefAttr::get(ctx, calleeName));
  block.push_back(start);
  result = start->getResult(0);
  return true;
}

bool Importer::buildInstr(CompAst &comp, size_t root, Block &block,
                          SmallVectorImpl<Value> &values) {
  // Iterative depth-first build so that operands defined later in the text
  // are built first without deep recursion.
  // state: 0 unvisited, 1 on the current path, 2 built.
  SmallVector<size_t, 16> stack{root};
  while (!stack.empty()) {
    size_t i = stack.back();
    InstrAst &instr = comp.instrs[i];
    if (state[i] == 2) {
      stack.pop_back();
      continue;
    }
    if (state[i] == 0) {
      state[i] = 1;
      for (const OperandAst &operand : llvm::reverse(instr.operands)) {
        size_t dep;
        if (operand.nested >= 0) {
          dep = operand.nested;
        } else {
          auto it = nameToIndex.find(operand.name);
          if (it == nameToIndex.end())
            return error(operand.offset, "use of undefined value '%" +
                                             operand.name + "'");
          dep = it->second;
        }
        if (state[dep] == 1)
          return error(operand.offset, "instruction '" + instr.name +
                                           "' depends on itself");
        if (state[dep] == 0)
          stack.push_back(dep);
      }
      continue;
    }
    stack.pop_back();
    SmallVector<Value, 4> operands;
    for (const OperandAst &operand : instr.operands) {
      Value v = values[operand.nested >= 0 ? size_t(operand.nested)
                                           : nameToIndex.lookup(operand.name)];
      if (operand.declared && !typesCompatible(operand.declared, v.getType()))
        return error(operand.offset,
                     "declared operand shape " + hloShape(operand.declared) +
                         " is not compatible with the shape of '%" +
                         operand.name + "', " + hloShape(v.getType()));
      operands.push_back(v);
    }
    for (const AttrAst &a : instr.attrs) {
      if (a.name != "control-predecessors")
        continue;
      Cursor cur = sub(a.value);
      if (cur.consumeIf("{") && !cur.consumeIf("}")) {
        do {
          StringRef name;
          cur.skipSpace();
          size_t at = cur.getPos();
          cur.consumeIf("%");
          if (!cur.parseIdentifier(name))
            break;
          if (!nameToIndex.count(name))
            return error(at, "instruction '" + name +
                                 "' named in control-predecessors is not "
                                 "defined in this computation");
        } while (cur.consumeIf(","));
      }
    }
    StringRef opcode = instr.opcode;
    Value result;
    for (StringRef suffix : {"start", "update", "done"}) {
      StringRef base = opcode;
      if (base.consume_back(("-" + Twine(suffix)).str()) && base != "async" &&
          !hasOwnAsyncOpcodes(base) && base != "send" && base != "recv" &&
          !base.empty()) {
        if (!buildAsyncSugar(comp, instr, base, suffix, operands, block,
                             result))
          return false;
        break;
      }
    }
    if (!result) {
      Operation *op =
          createOp(opcode, instr, operands, instr.attrs, instrLoc(instr, instr.attrs));
      if (!op)
        return false;
      block.push_back(op);
      result = op->getResult(0);
    }
    values[i] = result;
    state[i] = 2;
  }
  return true;
}

bool Importer::buildComputation(CompAst &comp, ModuleOp module) {
  nameToIndex.clear();
  state.assign(comp.instrs.size(), 0);
  for (auto [i, instr] : llvm::enumerate(comp.instrs)) {
    if (!nameToIndex.try_emplace(instr.name, i).second) {
      // Nested anonymous instructions get unique names, as XLA gives them.
      if (StringRef(instr.name).ends_with(".anon")) {
        std::string base = instr.name;
        for (unsigned n = 1; !nameToIndex.try_emplace(instr.name, i).second;
             ++n)
          instr.name = base + "." + std::to_string(n);
        continue;
      }
      return error(instr.offset,
                   "redefinition of instruction '%" + instr.name + "'");
    }
  }
  if (comp.instrs.empty())
    return error(comp.offset, "computation '" + comp.name + "' is empty");
  // Parameters become block arguments.
  SmallVector<int> paramOf;
  for (auto [i, instr] : llvm::enumerate(comp.instrs)) {
    if (instr.opcode != "parameter")
      continue;
    size_t n = instr.paramNumber;
    if (n >= comp.instrs.size())
      return error(instr.offset, "parameter number " + std::to_string(n) +
                                     " is out of range: the computation has " +
                                     std::to_string(comp.instrs.size()) +
                                     " instructions");
    if (n >= paramOf.size())
      paramOf.resize(n + 1, -1);
    if (paramOf[n] >= 0)
      return error(instr.offset, "duplicate parameter number " +
                                     std::to_string(n));
    paramOf[n] = i;
  }
  for (auto [n, i] : llvm::enumerate(paramOf))
    if (i < 0)
      return error(comp.offset, "computation '" + comp.name +
                                    "' has no parameter number " +
                                    std::to_string(n));
  size_t rootIndex = comp.instrs.size();
  for (auto [i, instr] : llvm::enumerate(comp.instrs)) {
    if (!instr.isRoot)
      continue;
    if (rootIndex != comp.instrs.size())
      return error(instr.offset, "computation '" + comp.name +
                                     "' has more than one ROOT");
    rootIndex = i;
  }
  if (rootIndex == comp.instrs.size()) {
    // Without ROOT the last (non-nested) instruction is the root.
    for (size_t i = comp.instrs.size(); i-- > 0;)
      if (!StringRef(comp.instrs[i].name).contains(".anon")) {
        rootIndex = i;
        break;
      }
  }

  if (comp.declaredResult &&
      !typesCompatible(comp.declaredResult, comp.instrs[rootIndex].type))
    return error(comp.declaredResultOffset,
                 "computation '" + comp.name + "' declares result shape " +
                     hloShape(comp.declaredResult) + " but its ROOT has " +
                     hloShape(comp.instrs[rootIndex].type));
  SmallVector<Type> argTypes;
  SmallVector<Attribute> argAttrs;
  bool anyArgAttrs = false;
  for (int i : paramOf) {
    InstrAst &p = comp.instrs[i];
    argTypes.push_back(p.type);
    NamedAttrList converted, attrs;
    if (!convertAttrs("parameter", p.attrs, {}, converted))
      return false;
    for (NamedAttribute a : converted)
      attrs.set(("hlo." + a.getName().getValue()).str(), a.getValue());
    anyArgAttrs |= !attrs.empty();
    argAttrs.push_back(attrs.getDictionary(ctx));
  }
  OpBuilder ob(ctx);
  ob.setInsertionPointToEnd(module.getBody());
  auto fnType =
      ob.getFunctionType(argTypes, {comp.instrs[rootIndex].type});
  auto op = ComputationOp::create(
      ob, locAt(comp.offset), comp.name, fnType,
      anyArgAttrs ? ob.getArrayAttr(argAttrs) : ArrayAttr(), ArrayAttr(),
      comp.isEntry,
      comp.executionThread ? ob.getStringAttr(*comp.executionThread)
                           : StringAttr());
  Block *block = new Block();
  op.getBody().push_back(block);
  SmallVector<Value> values(comp.instrs.size());
  for (int i : paramOf) {
    InstrAst &p = comp.instrs[i];
    values[i] = block->addArgument(p.type, instrLoc(p, p.attrs));
    state[i] = 2;
  }
  for (size_t i = 0; i < comp.instrs.size(); ++i)
    if (state[i] != 2 && !buildInstr(comp, i, *block, values))
      return false;
  ob.setInsertionPointToEnd(block);
  ReturnOp::create(ob, locAt(comp.instrs[rootIndex].offset), values[rootIndex]);
  return true;
}

bool Importer::buildModule(ModuleOp module) {
  if (!moduleName.empty())
    module.setSymName(moduleName);
  for (const AttrAst &a : headerAttrs) {
    Attribute v = convertModuleAttr(a);
    if (!v)
      return false;
    module->setAttr(("hlo." + a.name).str(), v);
  }
  for (auto &[name, entries] : sections) {
    SmallVector<Attribute> values;
    for (auto &entry : entries)
      values.push_back(TextAttr::get(ctx, entry.second));
    std::string key = "hlo.section." + name.str();
    module->setAttr(key, b.getArrayAttr(values));
  }
  bool haveEntry = llvm::any_of(comps, [](auto &c) { return c.isEntry; });
  if (!haveEntry && !comps.empty())
    comps.back().isEntry = true;
  for (CompAst &comp : comps)
    if (!buildComputation(comp, module))
      return false;
  return true;
}

OwningOpRef<ModuleOp> Importer::run() {
  if (!parseHeader() || !parseSections())
    return nullptr;
  while (!c.atEnd()) {
    comps.emplace_back();
    if (!parseComputation(comps.back()))
      return nullptr;
  }
  if (comps.empty()) {
    error(c.getPos(), "expected at least one computation");
    return nullptr;
  }
  const CompAst *firstEntry = nullptr;
  for (const CompAst &comp : comps) {
    if (!comp.isEntry)
      continue;
    if (firstEntry) {
      error(comp.offset, "more than one ENTRY computation (the first is '" +
                             firstEntry->name + "')");
      return nullptr;
    }
    firstEntry = &comp;
  }
  OwningOpRef<ModuleOp> module = ModuleOp::create(locAt(0));
  if (!buildModule(*module) || failed)
    return nullptr;
  if (mlir::failed(mlir::verify(*module)))
    return nullptr;
  return module;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> mlir::hlo::importHloText(llvm::SourceMgr &sourceMgr,
                                               MLIRContext *context) {
  context->loadDialect<HloDialect>();
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  Importer importer(buffer->getBuffer(), buffer->getBufferIdentifier(),
                    context);
  return importer.run();
}

OwningOpRef<ModuleOp> mlir::hlo::importHloText(StringRef text,
                                               MLIRContext *context,
                                               StringRef bufferName) {
  context->loadDialect<HloDialect>();
  Importer importer(text, bufferName, context);
  return importer.run();
}

bool mlir::hlo::looksLikeHloText(StringRef text) {
  syntax::Cursor cur(text);
  cur.skipSpace();
  StringRef rest = cur.rest();
  if (rest.starts_with("HloModule") || rest.starts_with("ENTRY"))
    return true;
  // Headerless: `name {` or `%name (` at the start.
  return rest.starts_with("%");
}

void mlir::hlo::registerHloTranslateDialects(DialectRegistry &registry) {
  registry.insert<HloDialect>();
}
