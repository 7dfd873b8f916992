//===- HloImportAttrs.cpp - attribute values ------------------------------===//
//
// Part of the HLO text importer (see HloImporter.h).
//
//===----------------------------------------------------------------------===//

#include "HloImporter.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::detail;

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
    return wrap(symbolizeCustomCallApiVersion(v),
                CustomCallApiVersionAttr::get);
  if (mlirName == "schedule")
    return wrap(symbolizeCustomCallSchedule(v), CustomCallScheduleAttr::get);
  if (mlirName == "algorithm") {
    if (opcode == "rng-bit-generator")
      return wrap(symbolizeRngAlgorithm(v), RngAlgorithmAttr::get);
    return wrap(symbolizeDotAlgorithm(v), DotAlgorithmAttr::get);
  }
  return {};
}

/// The value of a number token: integers are 64-bit as in XLA's lexer (from
/// 2^63 up they wrap around to negative numbers).
static double numberValue(StringRef tok, NumberToken kind) {
  if (kind == NumberToken::Int) {
    bool negative = tok.consume_front("-");
    APInt v;
    (void)tok.getAsInteger(10, v);
    int64_t x = static_cast<int64_t>(v.zextOrTrunc(64).getZExtValue());
    return static_cast<double>(
        negative ? static_cast<int64_t>(0 - static_cast<uint64_t>(x)) : x);
  }
  double x = 0;
  (void)tok.getAsDouble(x);
  return x;
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
      // A quoted key (what the exporter writes for a key that is no HLO
      // name) is an extension; XLA reads `name=` as one token.
      if (cur.peek() == '"') {
        if (!cur.parseQuoted(key) || !cur.expect("="))
          break;
      } else if (cur.parseAttrName(ident)) {
        key = ident.str();
      } else {
        break;
      }
      // The value is a string, or braced text kept as it is.
      if (cur.peek() == '"') {
        if (!cur.parseQuoted(value))
          break;
      } else {
        StringRef raw;
        if (cur.peek() != '{') {
          cur.error("expects string or a braced value");
          break;
        }
        if (!cur.parseBalanced(raw))
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
  const AttrInfo *info = lookupHloAttr(attr.name, opcode);
  if (!info)
    return {};
  mlirName = info->mlirName;
  StringRef v = attr.value;
  auto fail = [&](const Twine &msg) -> Attribute {
    error(attr.offset,
          "invalid " + attr.name + "=" + v.take_front(60) + ": " + msg);
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
    // XLA reads this one as a 32-bit integer.
    if (attr.name == "cross_program_prefetch_index" &&
        x != static_cast<int32_t>(x)) {
      error(attr.offset, "value out of range for int32_t");
      return {};
    }
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
    // JSON that prints back exactly from its typed form becomes a
    // #hlo.backend_config; anything else is kept as it is.
    if (v.starts_with("\"")) {
      Cursor cur = sub(v);
      std::string s;
      if (!cur.parseQuoted(s) || !cur.atEnd())
        return fail("malformed string");
      if (StringRef(s).starts_with("{"))
        if (auto typed = BackendConfigAttr::parseJson(ctx, s, /*quoted=*/true))
          return typed;
      return b.getStringAttr(s);
    }
    // Unquoted, XLA takes only a braced value (raw JSON).
    if (!v.starts_with("{"))
      return fail("expected a quoted string or a braced value");
    if (auto typed = BackendConfigAttr::parseJson(ctx, v))
      return typed;
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
  case AttrKind::IntLists: {
    bool pairs = info->kind == AttrKind::Pairs;
    return parseList(attr,
                     pairs ? "expected {{source,target}, ...}"
                           : "expected {{i, ...}, ...}",
                     [&](Cursor &cur, std::string &err) -> Attribute {
                       SmallVector<int64_t> list;
                       if (!cur.parseIntList(list))
                         return {};
                       if (pairs && list.size() != 2) {
                         err = "each pair needs two ids";
                         return {};
                       }
                       return b.getDenseI64ArrayAttr(list);
                     });
  }
  case AttrKind::StringDict:
    return parseDictOfStrings(attr);
  case AttrKind::Shape: {
    Cursor cur = sub(v);
    Type t;
    if (!parseShape(cur, t, /*spacedLayout=*/true))
      return {};
    return TypeAttr::get(t);
  }
  case AttrKind::ShapeList:
    return parseList(attr, "expected {shape, ...}",
                     [&](Cursor &cur, std::string &) -> Attribute {
                       Type t;
                       if (!parseShape(cur, t, /*spacedLayout=*/true))
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
  // A `{` after spaces is the shape's layout when a number or `:` follows,
  // as in XLA's parser.
  if (!parseShape(cur, type, /*spacedLayout=*/true))
    return {};
  type = withStaticBounds(type);
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
    // As XLA reads them: visualizing_index an integer, the others integers,
    // decimals or nan (not inf).
    NamedAttrList entries;
    if (cur.expect("{") && !cur.consumeIf("}")) {
      do {
        StringRef key;
        if (!cur.parseAttrName(key))
          break;
        cur.skipSpace();
        size_t at = cur.getPos();
        StringRef tok = scanScalarToken(cur);
        NumberToken kind = classifyNumber(tok);
        bool index = key == "visualizing_index";
        if (index ? kind != NumberToken::Int
                  : kind == NumberToken::None || kind == NumberToken::Inf) {
          cur.setPos(at);
          cur.error(index ? "expects integer" : "expects decimal or integer");
          break;
        }
        double x = numberValue(tok, kind);
        if (index)
          entries.set(key, b.getI64IntegerAttr(static_cast<int64_t>(x)));
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
      if (cur.parseAttrName(key)) {
        if (key == "mode") {
          // XLA's modes, in any case.
          StringRef mode;
          cur.skipSpace();
          size_t at = cur.getPos();
          if (cur.parseIdentifier(mode)) {
            if (!mode.equals_insensitive("default") &&
                !mode.equals_insensitive("highest")) {
              cur.setPos(at);
              cur.error("expects ResultAccuracy type");
            }
            entries.set("mode", b.getStringAttr(mode));
          }
        } else if (key == "tolerance") {
          // `tolerance={}` is all zeros.
          bool empty = !cur.expect("{") || cur.consumeIf("}");
          if (empty && !cur.failed()) {
            entries.set("atol", b.getF64FloatAttr(0));
            entries.set("rtol", b.getF64FloatAttr(0));
            entries.set("ulps", b.getI64IntegerAttr(0));
          }
          while (!empty) {
            StringRef k;
            if (!cur.parseAttrName(k))
              break;
            cur.skipSpace();
            size_t at = cur.getPos();
            StringRef tok = scanScalarToken(cur);
            NumberToken kind = classifyNumber(tok);
            double x = numberValue(tok, kind);
            if (kind == NumberToken::None ||
                (kind == NumberToken::Decimal && !std::isfinite(x)) ||
                (k != "atol" && k != "rtol" && k != "ulps")) {
              cur.setPos(at);
              cur.error("expected atol=, rtol= or ulps= with a number");
              break;
            }
            if (k == "ulps") {
              // An integer field: XLA converts the number (nan to 0).
              int64_t ulps = 0;
              if (!std::isnan(x))
                ulps = x >= 0x1p63   ? std::numeric_limits<int64_t>::max()
                       : x < -0x1p63 ? std::numeric_limits<int64_t>::min()
                                     : static_cast<int64_t>(x);
              entries.set(k, b.getI64IntegerAttr(ulps));
            } else {
              entries.set(k, b.getF64FloatAttr(x));
            }
            if (!cur.consumeIf(",")) {
              cur.expect("}");
              break;
            }
          }
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
        SmallVector<int64_t> out, operandIndex;
        int64_t operand;
        size_t at = cur.getPos();
        if (!cur.parseIntList(out) || !cur.expect(":") || !cur.expect("(") ||
            !cur.parseInt(operand) || !cur.expect(",") ||
            !cur.parseIntList(operandIndex) || !cur.expect(")"))
          break;
        Attribute e = OutputOperandAliasAttr::getChecked(
            [&]() {
              failed = true;
              return mlir::emitError(locAt(at))
                     << "invalid " << attr.name << ": ";
            },
            ctx, ArrayRef<int64_t>(out), operand,
            ArrayRef<int64_t>(operandIndex));
        if (!e)
          return {};
        entries.push_back(e);
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
        cur.skipSpace();
        size_t keyAt = cur.getPos();
        if (!cur.parseAttrName(key))
          break;
        if (entries.get(key)) {
          error(keyAt, "attribute " + key + " already exists");
          return {};
        }
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
    // XLA's parser requires all three.
    for (StringRef key : {"kind", "entry", "exit"}) {
      if (!cur.failed() && !entries.get(key)) {
        error(attr.offset, "sub-attribute " + key + " is expected but not seen");
        return {};
      }
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

bool Importer::checkSubAttributes(StringRef value, ArrayRef<SubField> fields,
                                  bool allowUnknown) {
  Cursor cur = sub(value);
  if (!cur.expect("{"))
    return error(cur.getErrorOffset(), cur.getError());
  llvm::SmallDenseSet<StringRef, 16> seen; // No allocation for few fields.
  while (!cur.consumeIf("}")) {
    cur.skipSpace();
    size_t at = cur.getPos();
    if (cur.atEnd())
      return error(at, "expected '}'");
    StringRef key;
    if (!cur.parseIdentifier(key) || cur.rest().empty() ||
        cur.rest().front() != '=')
      return error(at, "expects attribute name");
    const SubField *field =
        llvm::find_if(fields, [&](const SubField &f) { return f.name == key; });
    if (!seen.insert(key).second)
      return error(at, "attribute " + key + " already exists");
    if (field == fields.end() && allowUnknown) {
      // Kept as it is read (parseOpMetadata): one value, any kind.
      StringRef raw;
      std::string quoted;
      if (!cur.expect("="))
        return error(cur.getErrorOffset(), cur.getError());
      bool ok;
      if (cur.peek() == '"')
        ok = cur.parseQuoted(quoted);
      else if (cur.peek() == '{')
        ok = cur.parseBalanced(raw);
      else
        ok = cur.parseIdentifier(raw);
      if (!ok)
        return error(cur.getErrorOffset(), cur.getError());
      if (cur.consumeIf(",") && cur.consumeIf("}"))
        return error(cur.getPos() - 1, "expects attribute name");
      continue;
    }
    if (field == fields.end()) {
      SmallVector<StringRef> names;
      for (const SubField &f : fields)
        names.push_back(f.name);
      llvm::sort(names);
      return error(at, "unexpected attribute \"" + key +
                           "\"; allowed: " + llvm::join(names, ", "));
    }
    if (!cur.expect("="))
      return error(cur.getErrorOffset(), cur.getError());
    cur.skipSpace();
    size_t valueAt = cur.getPos();
    auto integer = [&](int64_t &x) {
      StringRef word;
      size_t start = cur.getPos();
      cur.consumeIf("-");
      if (!llvm::isDigit(cur.peek()) || !cur.parseIdentifier(word))
        return error(start, "expects integer");
      StringRef digits = cur.getText().slice(start, cur.getPos());
      bool negative = digits.consume_front("-");
      APInt v;
      if (digits.getAsInteger(10, v) || v.getActiveBits() > 64 ||
          (negative && v.getActiveBits() == 64 && !v.isPowerOf2()))
        return error(start, "expects integer");
      // XLA's lexer reads 64-bit integers, numbers from 2^63 up wrapping
      // around to negative ones.
      x = static_cast<int64_t>(v.getZExtValue());
      if (negative && x != std::numeric_limits<int64_t>::min())
        x = -x;
      if (x < std::numeric_limits<int32_t>::min() ||
          x > std::numeric_limits<int32_t>::max())
        return error(start, "value out of range for int32_t");
      return true;
    };
    switch (field->kind) {
    case SubKind::Int32: {
      int64_t x;
      if (!integer(x))
        return false;
      break;
    }
    case SubKind::String: {
      std::string s;
      if (cur.peek() != '"' || !cur.parseQuoted(s))
        return error(valueAt, "expects string");
      break;
    }
    case SubKind::Bool: {
      StringRef word;
      if (!cur.parseIdentifier(word) || (word != "true" && word != "false"))
        return error(valueAt, "expects true or false");
      break;
    }
    case SubKind::ProfileTypes: {
      if (!cur.expect("{"))
        return error(cur.getErrorOffset(), cur.getError());
      if (!cur.consumeIf("}")) {
        do {
          cur.skipSpace();
          size_t at = cur.getPos();
          int64_t x = 0;
          if (!integer(x))
            return false;
          // XLA's ProfileType enum: INVALID, WINDOW, FLAG, INTEGER.
          if (x < 0 || x > 3)
            return error(at, "unknown profile type " + Twine(x));
        } while (cur.consumeIf(","));
        if (!cur.expect("}"))
          return error(cur.getErrorOffset(), cur.getError());
      }
      break;
    }
    }
    if (cur.consumeIf(",") && cur.consumeIf("}"))
      return error(cur.getPos() - 1, "expects attribute name");
  }
  if (!cur.atEnd())
    return error(cur.getPos(), "unexpected text after '}'");
  for (const SubField &f : fields)
    if (f.required && !seen.contains(f.name))
      return error(value.begin() - text.begin(),
                   "sub-attribute " + f.name + " is expected but not seen");
  return true;
}

Attribute Importer::parseMetadata(const AttrAst &attr) {
  using K = SubKind;
  static const SubField kFields[] = {
      {"op_type", K::String},           {"op_name", K::String},
      {"source_file", K::String},       {"source_line", K::Int32},
      {"source_end_line", K::Int32},    {"source_column", K::Int32},
      {"source_end_column", K::Int32},  {"profile_type", K::ProfileTypes},
      {"deduplicated_name", K::String}, {"preserve_layout", K::Bool},
      {"stack_frame_id", K::Int32},     {"scheduling_name", K::String},
      {"metadata_payload", K::String}};
  if (Attribute known = metadataByText.lookup(attr.value))
    return known;
  // Other fields are kept (an extension, as for unknown attributes).
  if (!checkSubAttributes(attr.value, kFields, /*allowUnknown=*/true))
    return {};
  Cursor cur = sub(attr.value);
  DictionaryAttr entries = syntax::parseOpMetadata(cur, ctx);
  if (cur.failed()) {
    error(attr.offset, "malformed metadata: " + cur.getError());
    return {};
  }
  metadataByText[attr.value] = entries;
  return entries;
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
      // As in XLA's parser, one trailing comma may end the list.
      do {
        Type t;
        if (!params.empty() && cur.peek() == ')')
          break;
        if (!parseShape(cur, t, /*spacedLayout=*/true))
          return {};
        params.push_back(t);
      } while (cur.consumeIf(","));
      if (!cur.expect(")")) {
        error(attr.offset, "malformed entry_computation_layout");
        return {};
      }
    }
    if (!cur.expect("->") || !parseShape(cur, result, /*spacedLayout=*/true) ||
        !cur.expect("}") || !cur.atEnd()) {
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
        SmallVector<int64_t> out, index;
        size_t at = cur.getPos();
        if (alias && (!cur.parseIntList(out) || !cur.expect(":")))
          break;
        int64_t param;
        if (!cur.expect("(") || !cur.parseInt(param) || !cur.expect(",") ||
            !cur.parseIntList(index))
          break;
        std::optional<AliasKind> kind;
        if (alias && cur.consumeIf(",")) {
          StringRef word;
          if (!cur.parseIdentifier(word))
            break;
          kind = symbolizeAliasKind(word);
          if (!kind) {
            cur.error("expected may-alias or must-alias, got '" + word + "'");
            break;
          }
        }
        if (!cur.expect(")"))
          break;
        auto emit = [&]() {
          failed = true;
          return mlir::emitError(locAt(at)) << "invalid " << attr.name << ": ";
        };
        Attribute e = alias ? Attribute(InputOutputAliasAttr::getChecked(
                                  emit, ctx, ArrayRef<int64_t>(out), param,
                                  ArrayRef<int64_t>(index), kind))
                            : Attribute(BufferDonorAttr::getChecked(
                                  emit, ctx, param, ArrayRef<int64_t>(index)));
        if (!e)
          return {};
        entries.push_back(e);
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
