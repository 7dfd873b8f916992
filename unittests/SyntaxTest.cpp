//===- SyntaxTest.cpp - hlo::syntax::Cursor and quoting -------------------===//
//
// The cursor the hlo attributes and the HLO text importer read with:
// integers, integer lists, identifiers, quoted strings (C escapes, octal,
// hex), balanced groups, whitespace and comment skipping, and the error it
// records; printQuoted/parseQuoted round trips.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloSyntax.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using mlir::hlo::syntax::Cursor;
using mlir::hlo::syntax::printJoined;
using mlir::hlo::syntax::printQuoted;

namespace {

std::vector<int64_t> vec(llvm::ArrayRef<int64_t> v) { return {v.begin(), v.end()}; }

std::string quote(llvm::StringRef s) {
  std::string out;
  llvm::raw_string_ostream os(out);
  printQuoted(os, s);
  return out;
}

/// Parses `text` as one quoted string that must span all of it.
std::string unquote(llvm::StringRef text) {
  Cursor c(text);
  std::string value;
  EXPECT_TRUE(c.parseQuoted(value)) << "'" << text.str() << "': " << c.getError();
  EXPECT_TRUE(c.atEnd()) << "'" << text.str() << "' left '" << c.rest().str()
                         << "'";
  return value;
}

//===----------------------------------------------------------------------===//
// Whitespace and comments
//===----------------------------------------------------------------------===//

TEST(HloSyntaxCursor, SkipsWhitespaceAndComments) {
  Cursor c(" \t\r\n// line comment\n  /* block\n comment */ 42 // tail");
  int64_t v = 0;
  ASSERT_TRUE(c.parseInt(v));
  EXPECT_EQ(v, 42);
  EXPECT_TRUE(c.atEnd());
  EXPECT_FALSE(c.failed());
}

TEST(HloSyntaxCursor, CommentsBetweenTokens) {
  Cursor c("{1,/*two*/2 // three\n,3}");
  llvm::SmallVector<int64_t> v;
  ASSERT_TRUE(c.parseIntList(v)) << c.getError();
  EXPECT_EQ(vec(v), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_TRUE(c.atEnd());
}

TEST(HloSyntaxCursor, UnterminatedBlockCommentRunsToEnd) {
  Cursor c("  /* never closed 1 2 3");
  EXPECT_TRUE(c.atEnd());
  EXPECT_EQ(c.peek(), '\0');
  EXPECT_EQ(c.getPos(), c.getText().size());
}

TEST(HloSyntaxCursor, LineCommentWithoutNewlineRunsToEnd) {
  Cursor c("// only a comment");
  EXPECT_TRUE(c.atEnd());
}

TEST(HloSyntaxCursor, SingleSlashIsNotAComment) {
  Cursor c(" /x");
  EXPECT_EQ(c.peek(), '/');
  EXPECT_EQ(c.getPos(), 1u);
}

TEST(HloSyntaxCursor, PeekSkipsSpaceButConsumesNothingElse) {
  Cursor c("   abc");
  EXPECT_EQ(c.peek(), 'a');
  EXPECT_EQ(c.getPos(), 3u);
  EXPECT_EQ(c.rest(), "abc");
}

//===----------------------------------------------------------------------===//
// consumeIf / expect / errors
//===----------------------------------------------------------------------===//

TEST(HloSyntaxCursor, ConsumeIfAndExpect) {
  Cursor c("  ->  b");
  EXPECT_FALSE(c.consumeIf("=>"));
  EXPECT_FALSE(c.failed());
  EXPECT_TRUE(c.consumeIf("->"));
  EXPECT_TRUE(c.expect("b"));
  EXPECT_TRUE(c.atEnd());
  EXPECT_FALSE(c.failed());
}

TEST(HloSyntaxCursor, FirstErrorIsKept) {
  Cursor c("abc def");
  EXPECT_FALSE(c.expect("x"));
  EXPECT_TRUE(c.failed());
  EXPECT_EQ(c.getError(), "expected 'x'");
  EXPECT_EQ(c.getErrorOffset(), 0u);
  llvm::StringRef ident;
  ASSERT_TRUE(c.parseIdentifier(ident));
  EXPECT_FALSE(c.expect("y"));
  // The second error does not replace the first one.
  EXPECT_EQ(c.getError(), "expected 'x'");
  EXPECT_EQ(c.getErrorOffset(), 0u);
}

TEST(HloSyntaxCursor, ErrorOffsetIsAfterSkippedSpace) {
  Cursor c("{1, 2,   x}");
  llvm::SmallVector<int64_t> v;
  EXPECT_FALSE(c.parseIntList(v));
  EXPECT_EQ(c.getError(), "expected integer");
  EXPECT_EQ(c.getErrorOffset(), 9u);
}

//===----------------------------------------------------------------------===//
// Integers
//===----------------------------------------------------------------------===//

TEST(HloSyntaxCursor, ParseInt) {
  struct Case {
    const char *text;
    int64_t value;
  } cases[] = {
      {"0", 0},
      {"  42", 42},
      {"-7", -7},
      {"+5", 5},
      {"007", 7},
      {"9223372036854775807", std::numeric_limits<int64_t>::max()},
      {"-9223372036854775808", std::numeric_limits<int64_t>::min()},
  };
  for (const Case &k : cases) {
    Cursor c(k.text);
    int64_t v = 123;
    ASSERT_TRUE(c.parseInt(v)) << k.text << ": " << c.getError();
    EXPECT_EQ(v, k.value) << k.text;
    EXPECT_TRUE(c.atEnd()) << k.text;
  }
}

TEST(HloSyntaxCursor, ParseIntStopsAtNonDigit) {
  Cursor c("12x34");
  int64_t v;
  ASSERT_TRUE(c.parseInt(v));
  EXPECT_EQ(v, 12);
  EXPECT_EQ(c.rest(), "x34");
}

TEST(HloSyntaxCursor, ParseIntErrors) {
  for (const char *text : {"", "   ", "abc", "-", "+", "- 1", "+-1", "x1"}) {
    Cursor c(text);
    int64_t v;
    EXPECT_FALSE(c.parseInt(v)) << "'" << text << "'";
    EXPECT_EQ(c.getError(), "expected integer") << "'" << text << "'";
  }
  for (const char *text :
       {"9223372036854775808", "-9223372036854775809",
        "99999999999999999999999999"}) {
    Cursor c(text);
    int64_t v;
    EXPECT_FALSE(c.parseInt(v)) << text;
    EXPECT_EQ(c.getError(), "integer out of range") << text;
    // The cursor does not move past a rejected integer.
    EXPECT_EQ(c.getPos(), 0u) << text;
    EXPECT_EQ(c.getErrorOffset(), 0u) << text;
  }
}

TEST(HloSyntaxCursor, ParseIntList) {
  struct Case {
    const char *text;
    char open, close;
    std::vector<int64_t> values;
  } cases[] = {
      {"{1,2,3}", '{', '}', {1, 2, 3}},
      {" { 1 , -2 ,\n3 } ", '{', '}', {1, -2, 3}},
      {"{}", '{', '}', {}},
      {"{ }", '{', '}', {}},
      {"[4,5]", '[', ']', {4, 5}},
      {"(1,0)", '(', ')', {1, 0}},
      {"{7}", '{', '}', {7}},
  };
  for (const Case &k : cases) {
    Cursor c(k.text);
    llvm::SmallVector<int64_t> v;
    ASSERT_TRUE(c.parseIntList(v, k.open, k.close)) << k.text << ": "
                                                    << c.getError();
    EXPECT_EQ(vec(v), k.values) << k.text;
    EXPECT_TRUE(c.atEnd()) << k.text;
  }
}

TEST(HloSyntaxCursor, ParseIntListAppends) {
  Cursor c("{1}{2,3}");
  llvm::SmallVector<int64_t> v;
  ASSERT_TRUE(c.parseIntList(v));
  ASSERT_TRUE(c.parseIntList(v));
  EXPECT_EQ(vec(v), (std::vector<int64_t>{1, 2, 3}));
}

TEST(HloSyntaxCursor, ParseIntListErrors) {
  struct Case {
    const char *text;
    const char *error;
  } cases[] = {
      {"1,2}", "expected '{'"},
      {"{1,2", "expected '}'"},
      {"{1,}", "expected integer"},
      {"{,1}", "expected integer"},
      {"{1 2}", "expected '}'"},
      {"[1,2]", "expected '{'"},
  };
  for (const Case &k : cases) {
    Cursor c(k.text);
    llvm::SmallVector<int64_t> v;
    EXPECT_FALSE(c.parseIntList(v)) << k.text;
    EXPECT_EQ(c.getError(), k.error) << k.text;
  }
}

TEST(HloSyntaxCursor, ParseJoinedInts) {
  {
    Cursor c("3x3x1 rest");
    llvm::SmallVector<int64_t> v;
    ASSERT_TRUE(c.parseJoinedInts(v));
    EXPECT_EQ(vec(v), (std::vector<int64_t>{3, 3, 1}));
    EXPECT_EQ(c.rest(), " rest");
  }
  {
    Cursor c("0,2,1,3}");
    llvm::SmallVector<int64_t> v;
    ASSERT_TRUE(c.parseJoinedInts(v, ','));
    EXPECT_EQ(vec(v), (std::vector<int64_t>{0, 2, 1, 3}));
    EXPECT_EQ(c.rest(), "}");
  }
  {
    // The separator must follow the number directly.
    Cursor c("2 x3");
    llvm::SmallVector<int64_t> v;
    ASSERT_TRUE(c.parseJoinedInts(v));
    EXPECT_EQ(vec(v), (std::vector<int64_t>{2}));
  }
  {
    Cursor c("2x");
    llvm::SmallVector<int64_t> v;
    EXPECT_FALSE(c.parseJoinedInts(v));
    EXPECT_EQ(c.getError(), "expected integer");
  }
  {
    Cursor c("x2");
    llvm::SmallVector<int64_t> v;
    EXPECT_FALSE(c.parseJoinedInts(v));
  }
}

//===----------------------------------------------------------------------===//
// Identifiers
//===----------------------------------------------------------------------===//

TEST(HloSyntaxCursor, ParseIdentifier) {
  Cursor c("  add.1-x_$2 = f32[]");
  llvm::StringRef ident;
  ASSERT_TRUE(c.parseIdentifier(ident));
  EXPECT_EQ(ident, "add.1-x_$2");
  EXPECT_TRUE(c.expect("="));
  ASSERT_TRUE(c.parseIdentifier(ident));
  EXPECT_EQ(ident, "f32");
  EXPECT_EQ(c.peek(), '[');
}

TEST(HloSyntaxCursor, ParseIdentifierErrors) {
  for (const char *text : {"", "%x", "{a}", "  ", "\"q\""}) {
    Cursor c(text);
    llvm::StringRef ident;
    EXPECT_FALSE(c.parseIdentifier(ident)) << text;
    EXPECT_EQ(c.getError(), "expected identifier") << text;
  }
}

//===----------------------------------------------------------------------===//
// Quoted strings
//===----------------------------------------------------------------------===//

TEST(HloSyntaxCursor, ParseQuotedPlain) {
  EXPECT_EQ(unquote("\"\""), "");
  EXPECT_EQ(unquote("  \"hello world\""), "hello world");
  EXPECT_EQ(unquote("\"{a=1, b=[2]}\""), "{a=1, b=[2]}");
}

TEST(HloSyntaxCursor, ParseQuotedEscapes) {
  EXPECT_EQ(unquote(R"("a\"b")"), "a\"b");
  EXPECT_EQ(unquote(R"("back\\slash")"), "back\\slash");
  EXPECT_EQ(unquote(R"("\n\t\r")"), "\n\t\r");
  EXPECT_EQ(unquote(R"("it\'s")"), "it's");
  EXPECT_EQ(unquote(R"("\?")"), "?");
  // Octal: one to three digits.
  EXPECT_EQ(unquote(R"("\101\102C")"), "ABC");
  EXPECT_EQ(unquote(R"("\7")"), "\a");
  EXPECT_EQ(unquote(R"("\12")"), "\n");
  EXPECT_EQ(unquote(R"("\1234")"), "S4"); // \123 then '4'
  EXPECT_EQ(unquote(R"("\18")"), "\001" "8"); // 8 is not octal
  EXPECT_EQ(unquote(R"("\377")"), "\xff");
  EXPECT_EQ(unquote(R"("\0")"), std::string(1, '\0'));
  EXPECT_EQ(unquote(R"("a\000b")"), std::string("a\0b", 3));
  // Hex: up to two digits.
  EXPECT_EQ(unquote(R"("\x41\x4a\x4B")"), "AJK");
  EXPECT_EQ(unquote(R"("\x414")"), "A4");
  EXPECT_EQ(unquote(R"("\x7")"), "\a");
}

TEST(HloSyntaxCursor, ParseQuotedStopsAtClosingQuote) {
  Cursor c(R"("a" "b")");
  std::string v;
  ASSERT_TRUE(c.parseQuoted(v));
  EXPECT_EQ(v, "a");
  ASSERT_TRUE(c.parseQuoted(v));
  EXPECT_EQ(v, "b"); // the value is replaced, not appended to
  EXPECT_TRUE(c.atEnd());
}

TEST(HloSyntaxCursor, ParseQuotedErrors) {
  struct Case {
    const char *text;
    const char *error;
  } cases[] = {
      {"abc", "expected '\"'"},
      {"", "expected '\"'"},
      {"\"abc", "unterminated string"},
      {"\"abc\\\"", "unterminated string"},
      {"\"abc\\", "unterminated string"},
      {"  \"", "unterminated string"},
  };
  for (const Case &k : cases) {
    Cursor c(k.text);
    std::string v;
    EXPECT_FALSE(c.parseQuoted(v)) << k.text;
    EXPECT_EQ(c.getError(), k.error) << k.text;
  }
  // An unterminated string leaves the cursor at its opening quote.
  Cursor c("  \"abc");
  std::string v;
  EXPECT_FALSE(c.parseQuoted(v));
  EXPECT_EQ(c.getPos(), 2u);
  EXPECT_EQ(c.getErrorOffset(), 2u);
}

TEST(HloSyntaxQuoting, PrintQuotedEscapes) {
  EXPECT_EQ(quote(""), "\"\"");
  EXPECT_EQ(quote("plain text"), "\"plain text\"");
  EXPECT_EQ(quote("a\"b"), R"("a\"b")");
  EXPECT_EQ(quote("it's"), R"("it\'s")");
  EXPECT_EQ(quote("back\\slash"), R"("back\\slash")");
  EXPECT_EQ(quote("\n\t\r"), R"("\n\t\r")");
  EXPECT_EQ(quote(std::string(1, '\0')), R"("\000")");
  EXPECT_EQ(quote("\x01" "7"), R"("\0017")");
  EXPECT_EQ(quote("\x7f"), R"("\177")");
  EXPECT_EQ(quote("\xc3\xa9"), R"("\303\251")");
}

TEST(HloSyntaxQuoting, PrintJoined) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printJoined(os, {3, -1, 2}, "x");
  os << '|';
  printJoined(os, {}, ",");
  os << '|';
  printJoined(os, {5}, ", ");
  EXPECT_EQ(s, "3x-1x2||5");
}

TEST(HloSyntaxQuoting, RoundTripEveryByte) {
  for (int b = 0; b < 256; ++b) {
    std::string s(1, static_cast<char>(b));
    EXPECT_EQ(unquote(quote(s)), s) << "byte " << b;
    // Followed by a digit, which must not be taken into an octal escape.
    std::string t = s + "1";
    EXPECT_EQ(unquote(quote(t)), t) << "byte " << b << " then '1'";
  }
}

TEST(HloSyntaxQuoting, RoundTripRandomStrings) {
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> len(0, 40), byte(0, 255), pick(0, 9);
  const char specials[] = {'"', '\\', '\'', '\n', '0', '7', 'x', '\0', '/', '*'};
  for (int i = 0; i < 2000; ++i) {
    std::string s;
    for (int n = len(rng); n > 0; --n)
      s.push_back(pick(rng) < 4 ? specials[byte(rng) % sizeof(specials)]
                                : static_cast<char>(byte(rng)));
    std::string q = quote(s);
    EXPECT_EQ(unquote(q), s) << "printed as " << q;
  }
}

TEST(HloSyntaxQuoting, QuotedStringCanHoldCommentMarkers) {
  // Comment skipping happens between tokens, never inside strings.
  Cursor c(R"( "a // b /* c */" 1)");
  std::string v;
  ASSERT_TRUE(c.parseQuoted(v));
  EXPECT_EQ(v, "a // b /* c */");
  int64_t i;
  ASSERT_TRUE(c.parseInt(i));
  EXPECT_EQ(i, 1);
}

//===----------------------------------------------------------------------===//
// Balanced groups
//===----------------------------------------------------------------------===//

TEST(HloSyntaxCursor, ParseBalanced) {
  struct Case {
    const char *text;
    const char *group;
    const char *rest;
  } cases[] = {
      {"{a=1}, b", "{a=1}", ", b"},
      {"  [1, (2, {3})] tail", "[1, (2, {3})]", " tail"},
      {"(x)(y)", "(x)", "(y)"},
      {"{}", "{}", ""},
      {R"({s="}"})", R"({s="}"})", ""},
      {R"({s="\"}{"} after)", R"({s="\"}{"})", " after"},
      {R"([op_name="a[0]" source_file="f(x"])", R"([op_name="a[0]" source_file="f(x"])", ""},
      {"{{{{}}}}x", "{{{{}}}}", "x"},
  };
  for (const Case &k : cases) {
    Cursor c(k.text);
    llvm::StringRef group;
    ASSERT_TRUE(c.parseBalanced(group)) << k.text << ": " << c.getError();
    EXPECT_EQ(group, k.group) << k.text;
    EXPECT_EQ(c.rest(), k.rest) << k.text;
  }
}

TEST(HloSyntaxCursor, ParseBalancedErrors) {
  struct Case {
    const char *text;
    const char *error;
  } cases[] = {
      {"{", "unbalanced brackets"},
      {"{a", "unbalanced brackets"},
      {"{]", "unbalanced brackets"},
      {"([)]", "unbalanced brackets"},
      {"}", "expected '{', '[' or '('"},
      {"", "expected '{', '[' or '('"},
      {"abc", "expected '{', '[' or '('"},
      {R"({"})", "unterminated string"},
  };
  for (const Case &k : cases) {
    Cursor c(k.text);
    llvm::StringRef group;
    EXPECT_FALSE(c.parseBalanced(group)) << k.text;
    EXPECT_EQ(c.getError(), k.error) << k.text;
  }
  // A failed group leaves the cursor where the group started.
  Cursor c("  {a, (b}");
  llvm::StringRef group;
  EXPECT_FALSE(c.parseBalanced(group));
  EXPECT_EQ(c.getPos(), 2u);
}

// The header documents a group as `{...}`, `[...]` or `(...)`; a bare quoted
// string is not one.
TEST(HloSyntaxCursor, ParseBalancedRejectsBareString) {
  Cursor c(R"("abc" rest)");
  llvm::StringRef group;
  EXPECT_FALSE(c.parseBalanced(group)) << "accepted group '" << group.str()
                                       << "'";
}

} // namespace
