//===- HloSyntax.cpp - scanning HLO attribute spellings -------------------===//

#include "Hlo/Dialect/Hlo/HloSyntax.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::syntax;

void Cursor::skipSpace() {
  while (pos < text.size()) {
    char c = text[pos];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos;
      continue;
    }
    if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '/') {
      size_t end = text.find('\n', pos);
      pos = end == StringRef::npos ? text.size() : end + 1;
      continue;
    }
    if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '*') {
      size_t end = text.find("*/", pos + 2);
      pos = end == StringRef::npos ? text.size() : end + 2;
      continue;
    }
    break;
  }
}

bool Cursor::consumeIf(StringRef tok) {
  skipSpace();
  if (!text.drop_front(pos).starts_with(tok))
    return false;
  pos += tok.size();
  return true;
}

bool Cursor::expect(StringRef tok) {
  if (consumeIf(tok))
    return true;
  return error("expected '" + tok + "'");
}

bool Cursor::error(const Twine &msg) {
  if (errorMessage.empty()) {
    errorMessage = msg.str();
    errorOffset = pos;
  }
  return false;
}

bool Cursor::parseInt(int64_t &value) {
  skipSpace();
  size_t start = pos;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+'))
    ++pos;
  while (pos < text.size() && llvm::isDigit(text[pos]))
    ++pos;
  StringRef digits = text.slice(start, pos);
  if (digits.empty() || digits == "-" || digits == "+") {
    pos = start;
    return error("expected integer");
  }
  if (digits.front() == '+')
    digits = digits.drop_front();
  if (digits.getAsInteger(10, value)) {
    pos = start;
    return error("integer out of range");
  }
  return true;
}

bool Cursor::parseIntList(SmallVectorImpl<int64_t> &values, char open,
                          char close) {
  if (!expect(StringRef(&open, 1)))
    return false;
  if (consumeIf(StringRef(&close, 1)))
    return true;
  do {
    int64_t v;
    if (!parseInt(v))
      return false;
    values.push_back(v);
  } while (consumeIf(","));
  return expect(StringRef(&close, 1));
}

bool Cursor::parseJoinedInts(SmallVectorImpl<int64_t> &values, char sep) {
  do {
    int64_t v;
    if (!parseInt(v))
      return false;
    values.push_back(v);
  } while (pos < text.size() && text[pos] == sep && ++pos);
  return true;
}

static bool isNameChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '.' || c == '-';
}

bool syntax::isHloName(StringRef name) {
  return !name.empty() && llvm::all_of(name, isNameChar);
}

std::string syntax::sanitizeHloName(StringRef name) {
  std::string s = name.empty() ? "_" : name.str();
  for (char &c : s)
    if (!isNameChar(c))
      c = '_';
  return s;
}

static bool isIdentChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '.' || c == '-' || c == '$';
}

bool Cursor::parseIdentifier(StringRef &ident) {
  skipSpace();
  size_t start = pos;
  while (pos < text.size() && isIdentChar(text[pos]))
    ++pos;
  if (start == pos)
    return error("expected identifier");
  ident = text.slice(start, pos);
  return true;
}

bool Cursor::parseAttrName(StringRef &name) {
  skipSpace();
  size_t start = pos;
  if (pos < text.size() && (llvm::isAlpha(text[pos]) || text[pos] == '_') &&
      parseIdentifier(name) && pos < text.size() && text[pos] == '=') {
    ++pos;
    return true;
  }
  pos = start;
  return error("expects attribute name");
}

/// Just past the closing quote of the string literal whose opening quote is
/// at `pos`, or npos when it is not closed. An escape covers the character
/// after the backslash, which is all parseQuoted needs to find the end.
static size_t quotedEnd(StringRef text, size_t pos) {
  for (++pos; pos < text.size(); ++pos) {
    if (text[pos] == '"')
      return pos + 1;
    if (text[pos] == '\\')
      ++pos;
  }
  return StringRef::npos;
}

bool Cursor::parseQuoted(std::string &value) {
  skipSpace();
  if (pos >= text.size() || text[pos] != '"')
    return error("expected '\"'");
  size_t start = pos++;
  value.clear();
  while (pos < text.size() && text[pos] != '"') {
    // A run of plain characters is copied at once.
    size_t run = pos;
    while (run < text.size() && text[run] != '"' && text[run] != '\\')
      ++run;
    value.append(text.data() + pos, run - pos);
    pos = run;
    if (pos >= text.size() || text[pos] == '"')
      break;
    if (++pos >= text.size())
      break;
    char e = text[pos++];
    switch (e) {
    case 'n': value.push_back('\n'); break;
    case 't': value.push_back('\t'); break;
    case 'r': value.push_back('\r'); break;
    case '0': case '1': case '2': case '3':
    case '4': case '5': case '6': case '7': {
      unsigned v = e - '0';
      for (int n = 1; n < 3 && pos < text.size() && text[pos] >= '0' &&
                      text[pos] <= '7';
           ++n)
        v = v * 8 + (text[pos++] - '0');
      value.push_back(static_cast<char>(v));
      break;
    }
    case 'x': {
      unsigned v = 0;
      int n = 0;
      while (n < 2 && pos < text.size() && llvm::isHexDigit(text[pos])) {
        v = v * 16 + llvm::hexDigitValue(text[pos++]);
        ++n;
      }
      value.push_back(static_cast<char>(v));
      break;
    }
    default: value.push_back(e); break;
    }
  }
  if (pos >= text.size()) {
    pos = start;
    return error("unterminated string");
  }
  ++pos;
  return true;
}

bool Cursor::parseRawValue(StringRef &value) {
  skipSpace();
  size_t start = pos;
  int depth = 0;
  while (pos < text.size()) {
    char ch = text[pos];
    if (ch == '"') {
      size_t end = quotedEnd(text, pos);
      if (end == StringRef::npos)
        return error("unterminated string");
      pos = end;
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
  if (depth != 0 || pos == start) {
    pos = start;
    return error(depth ? "unbalanced brackets in attribute value"
                       : "expected attribute value");
  }
  value = text.slice(start, pos);
  return true;
}

bool Cursor::parseBalanced(StringRef &group) {
  skipSpace();
  size_t start = pos;
  if (pos >= text.size() ||
      (text[pos] != '{' && text[pos] != '[' && text[pos] != '('))
    return error("expected '{', '[' or '('");
  SmallVector<char, 8> stack;
  do {
    if (pos >= text.size()) {
      pos = start;
      return error("unbalanced brackets");
    }
    char c = text[pos];
    if (c == '"') {
      size_t end = quotedEnd(text, pos);
      if (end == StringRef::npos)
        return error("unterminated string");
      pos = end;
      continue;
    }
    ++pos;
    if (c == '{' || c == '[' || c == '(') {
      stack.push_back(c == '{' ? '}' : c == '[' ? ']' : ')');
    } else if (c == '}' || c == ']' || c == ')') {
      if (stack.empty() || stack.back() != c) {
        pos = start;
        return error("unbalanced brackets");
      }
      stack.pop_back();
    } else if (stack.empty()) {
      pos = start;
      return error("expected '{', '[' or '('");
    }
  } while (!stack.empty());
  group = text.slice(start, pos);
  return true;
}

void mlir::hlo::syntax::printJoined(raw_ostream &os, ArrayRef<int64_t> values,
                                    StringRef sep) {
  llvm::interleave(values, os, sep);
}

/// Whether printQuoted writes `c` as it is.
static bool isPlainInQuotes(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return u >= 0x20 && u < 0x7f && c != '"' && c != '\'' && c != '\\';
}

void mlir::hlo::syntax::printQuoted(raw_ostream &os, StringRef s) {
  os << '"';
  while (!s.empty()) {
    // A run of plain characters is written at once.
    size_t run = 0;
    while (run < s.size() && isPlainInQuotes(s[run]))
      ++run;
    os << s.take_front(run);
    s = s.drop_front(run);
    if (s.empty())
      break;
    char c = s.front();
    s = s.drop_front();
    switch (c) {
    case '"': os << "\\\""; break;
    case '\'': os << "\\'"; break;
    case '\\': os << "\\\\"; break;
    case '\n': os << "\\n"; break;
    case '\t': os << "\\t"; break;
    case '\r': os << "\\r"; break;
    default: { // A control or non-ASCII byte.
      unsigned char u = static_cast<unsigned char>(c);
      os << '\\' << char('0' + (u >> 6)) << char('0' + ((u >> 3) & 7))
         << char('0' + (u & 7));
    }
    }
  }
  os << '"';
}

//===----------------------------------------------------------------------===//
// OpMetadata
//===----------------------------------------------------------------------===//

DictionaryAttr mlir::hlo::syntax::parseOpMetadata(Cursor &cur,
                                                  MLIRContext *ctx) {
  Builder b(ctx);
  NamedAttrList entries;
  if (!cur.expect("{"))
    return {};
  while (!cur.consumeIf("}")) {
    if (cur.atEnd()) {
      cur.error("expected '}'");
      return {};
    }
    StringRef key;
    if (!cur.parseAttrName(key))
      return {};
    Attribute value;
    if (cur.peek() == '"') {
      std::string s;
      if (!cur.parseQuoted(s))
        return {};
      value = b.getStringAttr(s);
    } else if (cur.peek() == '{') {
      StringRef group;
      if (!cur.parseBalanced(group))
        return {};
      value = TextAttr::get(ctx, group);
    } else {
      StringRef word;
      if (!cur.parseIdentifier(word))
        return {};
      int64_t x;
      if (!word.getAsInteger(10, x))
        value = b.getI64IntegerAttr(x);
      else if (word == "true" || word == "false")
        value = b.getBoolAttr(word == "true");
      else
        value = TextAttr::get(ctx, word);
    }
    entries.set(b.getStringAttr(key), value);
    // XLA's sub-attribute syntax allows a comma between fields.
    cur.consumeIf(",");
  }
  return entries.getDictionary(ctx);
}

/// XLA's order of OpMetadata fields.
static constexpr StringLiteral kMetadataOrder[] = {
    "op_type",           "op_name",         "source_file",
    "source_line",       "source_end_line", "source_column",
    "source_end_column", "profile_type",    "deduplicated_name",
    "preserve_layout",   "stack_frame_id",  "scheduling_name"};

void mlir::hlo::syntax::printOpMetadata(raw_ostream &os,
                                        DictionaryAttr metadata) {
  bool first = true;
  auto field = [&](StringRef key, Attribute v) {
    os << (first ? "" : " ") << key << '=';
    first = false;
    if (auto s = dyn_cast<StringAttr>(v))
      printQuoted(os, s.getValue());
    else if (auto bv = dyn_cast<BoolAttr>(v))
      os << (bv.getValue() ? "true" : "false");
    else if (auto i = dyn_cast<IntegerAttr>(v))
      os << i.getInt();
    else if (auto t = dyn_cast<TextAttr>(v))
      os << t.getValue();
  };
  // The entries in XLA's order, the others after them in the dictionary's
  // (sorted) order: one pass over the entries and a sort of at most a few.
  constexpr size_t kKnown = std::size(kMetadataOrder);
  SmallVector<std::pair<size_t, NamedAttribute>, kKnown> ordered;
  for (auto [i, a] : llvm::enumerate(metadata)) {
    StringRef key = a.getName().getValue();
    size_t rank = llvm::find(kMetadataOrder, key) - std::begin(kMetadataOrder);
    ordered.push_back({rank == kKnown ? kKnown + i : rank, a});
  }
  llvm::sort(ordered, llvm::less_first());
  for (auto &[rank, a] : ordered)
    field(a.getName().getValue(), a.getValue());
}
