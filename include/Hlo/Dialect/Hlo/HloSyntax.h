//===- HloSyntax.h - scanning HLO attribute spellings -----------*- C++ -*-===//
//
// A small cursor over HLO text used by the dialect's attributes (whose MLIR
// form embeds their HLO spelling) and by the HLO text importer.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOSYNTAX_H
#define HLO_DIALECT_HLO_HLOSYNTAX_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace mlir {
class DictionaryAttr;
class MLIRContext;
} // namespace mlir

namespace mlir::hlo::syntax {

/// Reads HLO spellings left to right. Whitespace (and `/*...*/` comments) is
/// skipped before every token. Errors are recorded once, with the offset.
class Cursor {
public:
  explicit Cursor(StringRef text) : text(text) {}

  void skipSpace();
  bool atEnd() {
    skipSpace();
    return pos >= text.size();
  }
  char peek() {
    skipSpace();
    return pos < text.size() ? text[pos] : '\0';
  }
  /// Consumes `tok` if the text continues with it.
  bool consumeIf(StringRef tok);
  /// Consumes `tok` or records an error.
  bool expect(StringRef tok);
  bool parseInt(int64_t &value);
  /// `{1,2,3}` (braces required); `{}` is empty.
  bool parseIntList(SmallVectorImpl<int64_t> &values, char open = '{',
                    char close = '}');
  /// `3x3` style lists joined by `sep`.
  bool parseJoinedInts(SmallVectorImpl<int64_t> &values, char sep = 'x');
  /// An identifier: [A-Za-z0-9_.$-]+ (HLO names may contain `.` and `-`).
  bool parseIdentifier(StringRef &ident);
  /// `name=` inside a structured value, read as XLA's lexer reads it: one
  /// token, a name starting with a letter or `_` with the `=` right after it
  /// (no space or comment between). Consumes the `=`.
  bool parseAttrName(StringRef &name);
  /// A double-quoted string with C escapes; the result is unescaped.
  bool parseQuoted(std::string &value);
  /// One attribute value as HLO text delimits it: up to a `,`, `}`, `)`,
  /// `]` or white space outside brackets and quoted strings.
  bool parseRawValue(StringRef &value);
  /// The text of a balanced `{...}`, `[...]` or `(...)` group, delimiters
  /// included, honoring quoted strings.
  bool parseBalanced(StringRef &group);

  bool error(const Twine &msg);
  bool failed() const { return !errorMessage.empty(); }
  const std::string &getError() const { return errorMessage; }
  size_t getErrorOffset() const { return errorOffset; }
  size_t getPos() const { return pos; }
  void setPos(size_t p) { pos = p; }
  StringRef getText() const { return text; }
  StringRef rest() const { return text.drop_front(pos); }

private:
  StringRef text;
  size_t pos = 0;
  std::string errorMessage;
  size_t errorOffset = 0;
};

/// Prints `values` joined by `sep` (no braces).
void printJoined(raw_ostream &os, ArrayRef<int64_t> values, StringRef sep);
/// Prints `s` as an HLO double-quoted string, escaping as XLA does.
void printQuoted(raw_ostream &os, StringRef s);
/// True for a name printed without quotes: [A-Za-z0-9_.-]+ (what XLA's
/// printer writes for instruction, computation and attribute names).
bool isHloName(StringRef name);
/// `name` with every character an HLO name cannot hold replaced by `_`
/// (`_` for an empty name).
std::string sanitizeHloName(StringRef name);

/// Parses an OpMetadata `{op_type="add" op_name="a/b" source_line=3 ...}`
/// (braces included) into a dictionary: quoted values become strings,
/// integers i64, `true`/`false` bools, a braced group or any other word an
/// `#hlo.text`. Returns null after recording an error in `cur`.
DictionaryAttr parseOpMetadata(Cursor &cur, MLIRContext *ctx);
/// Prints the fields of an OpMetadata dictionary (without braces) as XLA
/// does: space separated, XLA's fields in XLA's order, then the others.
void printOpMetadata(raw_ostream &os, DictionaryAttr metadata);

} // namespace mlir::hlo::syntax

#endif // HLO_DIALECT_HLO_HLOSYNTAX_H
