//===- TextProto.cpp - protobuf text format, read -------------------------===//

#include "TextProto.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::hlo;
using llvm::hexDigitValue;
using llvm::isAlnum;
using llvm::isHexDigit;
using llvm::isSpace;

namespace {
/// A small parser of protobuf's text format (comments, `name: value`,
/// `name { ... }` / `name: { ... }` / `<...>`, string escapes).
class TextParser {
public:
  explicit TextParser(StringRef text) : s(text) {}

  /// Fills `msg` until `close` (0: the end); the error text on failure.
  std::optional<std::string> parse(TextMessage &msg, char close = 0) {
    while (true) {
      skip();
      if (pos >= s.size()) {
        if (close)
          return error("unexpected end of file");
        return std::nullopt;
      }
      if (close && s[pos] == close) {
        ++pos;
        return std::nullopt;
      }
      size_t start = pos;
      while (pos < s.size() &&
             (isAlnum(s[pos]) || s[pos] == '_' || s[pos] == '.' ||
              s[pos] == '[' || s[pos] == ']' || s[pos] == '/'))
        ++pos;
      if (start == pos)
        return error("expected a field name");
      TextMessage::Field field;
      field.name = s.slice(start, pos).str();
      skip();
      bool colon = pos < s.size() && s[pos] == ':';
      if (colon) {
        ++pos;
        skip();
      }
      if (pos < s.size() && (s[pos] == '{' || s[pos] == '<')) {
        char end = s[pos++] == '{' ? '}' : '>';
        field.message = std::make_unique<TextMessage>();
        if (auto err = parse(*field.message, end))
          return err;
      } else if (!colon) {
        return error("expected ':' after '" + field.name + "'");
      } else if (pos < s.size() && (s[pos] == '"' || s[pos] == '\'')) {
        // Adjacent strings concatenate.
        while (pos < s.size() && (s[pos] == '"' || s[pos] == '\'')) {
          if (auto err = parseString(field.scalar))
            return err;
          skip();
        }
      } else {
        size_t vs = pos;
        while (pos < s.size() &&
               (isAlnum(s[pos]) || s[pos] == '_' || s[pos] == '-' ||
                s[pos] == '+' || s[pos] == '.'))
          ++pos;
        if (vs == pos)
          return error("expected a value for '" + field.name + "'");
        field.scalar = s.slice(vs, pos).str();
      }
      msg.fields.push_back(std::move(field));
      skip();
      if (pos < s.size() && (s[pos] == ',' || s[pos] == ';'))
        ++pos;
    }
  }

private:
  StringRef s;
  size_t pos = 0;

  std::string error(const Twine &what) {
    unsigned line = 1 + s.take_front(pos).count('\n');
    return ("line " + Twine(line) + ": " + what).str();
  }
  void skip() {
    while (pos < s.size()) {
      if (isSpace(s[pos])) {
        ++pos;
      } else if (s[pos] == '#') {
        while (pos < s.size() && s[pos] != '\n')
          ++pos;
      } else {
        break;
      }
    }
  }
  std::optional<std::string> parseString(std::string &out) {
    char quote = s[pos++];
    while (pos < s.size() && s[pos] != quote) {
      char c = s[pos++];
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (pos >= s.size())
        break;
      char e = s[pos++];
      switch (e) {
      case 'n':
        out.push_back('\n');
        break;
      case 't':
        out.push_back('\t');
        break;
      case 'r':
        out.push_back('\r');
        break;
      case 'x': {
        unsigned v = 0;
        for (int i = 0; i < 2 && pos < s.size() && isHexDigit(s[pos]); ++i)
          v = v * 16 + hexDigitValue(s[pos++]);
        out.push_back(static_cast<char>(v));
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          unsigned v = e - '0';
          for (int i = 0;
               i < 2 && pos < s.size() && s[pos] >= '0' && s[pos] <= '7'; ++i)
            v = v * 8 + (s[pos++] - '0');
          out.push_back(static_cast<char>(v));
        } else {
          out.push_back(e);
        }
      }
    }
    if (pos >= s.size())
      return error("unterminated string");
    ++pos;
    return std::nullopt;
  }
};
} // namespace

std::optional<std::string> mlir::hlo::parseTextProto(StringRef text,
                                                     TextMessage &msg) {
  return TextParser(text).parse(msg);
}

void mlir::hlo::printTextProtoString(llvm::raw_ostream &os, StringRef text) {
  os << '"';
  for (char c : text) {
    if (c == '\n') {
      os << "\\n";
      continue;
    }
    if (c == '"' || c == '\\')
      os << '\\';
    os << c;
  }
  os << '"';
}
