//===- HloImport.cpp - HLO text to the hlo dialect ------------------------===//
//
// Part of the HLO text importer (see HloImporter.h).
//
//===----------------------------------------------------------------------===//

#include "HloImporter.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::detail;

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
  if (!c.parseRawValue(value))
    return cursorError();
  return true;
}

bool Importer::captureMeshGroups(StringRef &value) {
  // `mesh[...]`, an optional `, device_ids=(...)`, then ` {...}`: XLA's
  // mesh-axes replica groups, which hold a comma and a space.
  size_t start = c.getPos();
  StringRef group;
  c.setPos(start + 4);
  if (!c.parseBalanced(group))
    return cursorError();
  size_t afterMesh = c.getPos();
  if (c.consumeIf(",")) {
    c.skipSpace();
    if (c.rest().starts_with("device_ids=")) {
      c.setPos(c.getPos() + 11);
      if (!c.parseBalanced(group))
        return cursorError();
    } else {
      c.setPos(afterMesh);
    }
  }
  if (!c.parseBalanced(group))
    return cursorError();
  value = text.slice(start, c.getPos());
  return true;
}

bool Importer::parseAttrList(SmallVectorImpl<AttrAst> &attrs) {
  while (c.consumeIf(",")) {
    AttrAst a;
    c.skipSpace();
    a.offset = c.getPos();
    if (!c.parseIdentifier(a.name))
      return cursorError();
    // XLA reads `name=` as one token: nothing may stand before the `=`.
    if (c.getPos() >= text.size() || text[c.getPos()] != '=')
      return error(a.offset, "expects attribute name");
    if (!c.expect("="))
      return cursorError();
    if (llvm::any_of(attrs, [&](const AttrAst &o) { return o.name == a.name; }))
      return error(a.offset, "attribute " + a.name + " already exists");
    if (a.name == "replica_groups" && c.rest().starts_with("mesh[")) {
      if (!captureMeshGroups(a.value))
        return false;
    } else if (!captureValue(a.value)) {
      return false;
    }
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
    auto &entries =
        sections.emplace_back(word, decltype(sections[0].second){}).second;
    int64_t expected = 1;
    // An entry starts with its id (a negative one is an entry too: XLA's
    // lexer makes one of ids from 2^63 up).
    auto atEntry = [&] {
      char ch = c.peek();
      StringRef rest = c.rest();
      return llvm::isDigit(ch) ||
             (ch == '-' && rest.size() > 1 && llvm::isDigit(rest[1]));
    };
    while (atEntry()) {
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
      c.skipSpace();
      size_t valueAt = c.getPos();
      if (!captureValue(value))
        return false;
      if (!checkSectionEntry(word, value, valueAt))
        return false;
      entries.push_back({id, value});
    }
  }
}

/// An entry of a stack-frame table, as XLA reads it: a quoted name in
/// FileNames and FunctionNames, all fields (32-bit integers) in
/// FileLocations and StackFrames.
bool Importer::checkSectionEntry(StringRef section, StringRef value,
                                 size_t offset) {
  using K = SubKind;
  static const SubField kLocation[] = {
      {"file_name_id", K::Int32, true}, {"function_name_id", K::Int32, true},
      {"line", K::Int32, true},         {"end_line", K::Int32, true},
      {"column", K::Int32, true},       {"end_column", K::Int32, true}};
  static const SubField kFrame[] = {{"file_location_id", K::Int32, true},
                                    {"parent_frame_id", K::Int32, true}};
  if (section == "FileLocations")
    return checkSubAttributes(value, kLocation);
  if (section == "StackFrames")
    return checkSubAttributes(value, kFrame);
  Cursor cur = sub(value);
  std::string name;
  if (cur.peek() != '"' || !cur.parseQuoted(name) || !cur.atEnd())
    return error(offset, "expects string");
  return true;
}

bool Importer::parseComputation(CompAst &comp) {
  c.skipSpace();
  comp.offset = c.getPos();
  comp.isEntry = c.consumeIf("ENTRY");
  if (!parseName(comp.name))
    return false;
  if (!compNames.insert(comp.name).second)
    return error(comp.offset,
                 "redefinition of computation '" + comp.name + "'");
  // The signature `(name: shape, ...) -> shape`. XLA's parser reads the
  // parameter shapes (they must be valid shapes) but compares neither their
  // number, names nor shapes with the parameter instructions; the declared
  // result must be compatible with the ROOT's shape (checked when built).
  bool haveParams = c.peek() == '(';
  if (haveParams) {
    c.expect("(");
    if (!c.consumeIf(")")) {
      do {
        StringRef param;
        Type type;
        c.skipSpace();
        // As XLA's lexer reads it: `name:` (the `:` right after the name),
        // `name` or `%name` (no `:` after a `%name`).
        bool percent = c.peek() == '%';
        if (!parseName(param))
          return false;
        if (!percent && c.getPos() < text.size() && text[c.getPos()] == ':')
          c.setPos(c.getPos() + 1);
        c.skipSpace();
        if (!parseShape(c, type, /*spacedLayout=*/true))
          return false;
      } while (c.consumeIf(","));
      if (!c.expect(")"))
        return cursorError();
    }
  }
  c.skipSpace();
  if (!haveParams && c.rest().starts_with("->"))
    return error(c.getPos(), "expected '(' before the result shape");
  if (c.consumeIf("->")) {
    c.skipSpace();
    comp.declaredResultOffset = c.getPos();
    if (!parseShape(c, comp.declaredResult, /*spacedLayout=*/true))
      return false;
  }
  if (!c.expect("{"))
    return cursorError();
  while (!c.consumeIf("}")) {
    if (c.atEnd())
      return error(c.getPos(),
                   "expected '}' to end computation '" + comp.name + "'");
    comp.instrs.emplace_back();
    if (!parseInstruction(comp, comp.instrs.size() - 1, false))
      return false;
  }
  size_t save = c.getPos();
  if (c.consumeIf(",")) {
    StringRef key;
    std::string thread;
    // `execution_thread=` is one token for XLA's lexer, as every `name=`.
    if (c.parseAttrName(key) && key == "execution_thread" &&
        c.parseQuoted(thread))
      comp.executionThread = thread;
    else
      c.setPos(save);
  }
  return true;
}

/// True if `opcode(` follows (an instruction written without a shape).
static bool startsOpcodeCall(syntax::Cursor &c) {
  c.skipSpace();
  size_t save = c.getPos();
  StringRef word;
  bool call =
      llvm::isAlpha(c.peek()) && c.parseIdentifier(word) && c.peek() == '(';
  c.setPos(save);
  return call;
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
  // XLA's parser accepts an instruction without a shape (`%t = tuple(...)`)
  // and infers it; so does the importer, when the instruction is built.
  Type type;
  if (nested || !startsOpcodeCall(c)) {
    if (!parseShape(c, type, /*spacedLayout=*/true))
      return false;
  }
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
  // XLA's parser drops an empty operand and a shape without a name:
  // `tuple(%a, )`, `tuple(, %a)` and `call(f32[] )` read as `tuple(%a)`,
  // `tuple(%a)` and `call()`.
  auto operandEnds = [&] { return c.peek() == ',' || c.peek() == ')'; };
  do {
    OperandAst operand;
    c.skipSpace();
    operand.offset = c.getPos();
    if (operandEnds())
      continue;
    if (c.peek() != '%' && startsShapeAt(c, ctx)) {
      size_t shapeStart = c.getPos();
      if (!parseShape(c, operand.declared, /*spacedLayout=*/true))
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
      if (operandEnds())
        continue;
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
