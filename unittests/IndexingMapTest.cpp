//===- IndexingMapTest.cpp - IndexingMap, its printer and its parser ------===//
//
// Maps built in C++ print exactly as the indexing-analysis spec's examples
// (copied verbatim); parse(print(m)) == m for the multi-line and the one-line
// forms, with range variables, runtime variables and constraints; malformed
// text is rejected without diagnostics.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Support/IndexingMap.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::hlo;

namespace {

class IndexingMapTest : public ::testing::Test {
protected:
  AffineExpr d(unsigned i) { return getAffineDimExpr(i, &context); }
  AffineExpr s(unsigned i) { return getAffineSymbolExpr(i, &context); }
  AffineExpr c(int64_t v) { return getAffineConstantExpr(v, &context); }
  AffineMap map(unsigned dims, unsigned syms, ArrayRef<AffineExpr> results) {
    return AffineMap::get(dims, syms, results, &context);
  }

  /// parse(print(m)) == m and parse(oneLine(m)) == m, and printing the parsed
  /// map gives the same text.
  void expectRoundTrip(const IndexingMap &m) {
    std::string text = m.toString();
    std::optional<IndexingMap> parsed = parseIndexingMap(text, &context);
    ASSERT_TRUE(parsed.has_value()) << text;
    EXPECT_EQ(*parsed, m) << text;
    EXPECT_EQ(parsed->toString(), text);

    std::string oneLine = m.toOneLineString();
    EXPECT_EQ(oneLine.find('\n'), std::string::npos) << oneLine;
    std::optional<IndexingMap> parsedOneLine =
        parseIndexingMap(oneLine, &context);
    ASSERT_TRUE(parsedOneLine.has_value()) << oneLine;
    EXPECT_EQ(*parsedOneLine, m) << oneLine;
    EXPECT_EQ(parsedOneLine->toOneLineString(), oneLine);
  }

  MLIRContext context;
};

TEST_F(IndexingMapTest, IntervalPrint) {
  EXPECT_EQ(Interval({0, 9}).toString(), "[0, 9]");
  EXPECT_EQ(Interval({-5, -1}).toString(), "[-5, -1]");
  EXPECT_TRUE(Interval({1, 0}).isEmpty());
  EXPECT_FALSE(Interval({0, 0}).isEmpty());
  EXPECT_EQ(Interval({0, 9}).intersect({5, 20}), Interval({5, 9}));
}

// Spec: elementwise, output -> input_i.
TEST_F(IndexingMapTest, PrintElementwise) {
  IndexingMap m(map(2, 0, {d(0), d(1)}), {{0, 9}, {0, 19}}, {});
  EXPECT_EQ(m.toString(), "(d0, d1) -> (d0, d1)\n"
                          "domain:\n"
                          "d0 in [0, 9]\n"
                          "d1 in [0, 19]\n");
  expectRoundTrip(m);
}

// Spec: broadcast, input -> output (range variables).
TEST_F(IndexingMapTest, PrintBroadcastInputToOutput) {
  IndexingMap m(map(1, 2, {s(0), d(0), s(1)}), {{0, 19}}, {{0, 9}, {0, 29}});
  EXPECT_EQ(m.toString(), "(d0)[s0, s1] -> (s0, d0, s1)\n"
                          "domain:\n"
                          "d0 in [0, 19]\n"
                          "s0 in [0, 9]\n"
                          "s1 in [0, 29]\n");
  EXPECT_EQ(m.getNumRangeVars(), 2u);
  EXPECT_EQ(m.getSymbolBound(1), Interval({0, 29}));
  expectRoundTrip(m);
}

// Spec: reduce, init_i -> output_j (no dimensions).
TEST_F(IndexingMapTest, PrintReduceInitToOutput) {
  IndexingMap m(map(0, 1, {s(0)}), {}, {{0, 9}});
  EXPECT_EQ(m.toString(), "()[s0] -> (s0)\n"
                          "domain:\n"
                          "s0 in [0, 9]\n");
  expectRoundTrip(m);
}

// Spec: reduce, output -> init_j (no results).
TEST_F(IndexingMapTest, PrintNoResults) {
  IndexingMap m(map(1, 0, {}), {{0, 9}}, {});
  EXPECT_EQ(m.toString(), "(d0) -> ()\n"
                          "domain:\n"
                          "d0 in [0, 9]\n");
  expectRoundTrip(m);
}

// Spec: slice, input -> output (constraints).
TEST_F(IndexingMapTest, PrintSliceInputToOutput) {
  IndexingMap m(map(3, 0, {d(0) - 5, (d(1) - 3).floorDiv(7), d(2).floorDiv(2)}),
                {{5, 9}, {3, 17}, {0, 48}}, {});
  m.addConstraint((d(1) - 3) % 7, {0, 0});
  m.addConstraint(d(2) % 2, {0, 0});
  EXPECT_EQ(m.toString(),
            "(d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2)\n"
            "domain:\n"
            "d0 in [5, 9]\n"
            "d1 in [3, 17]\n"
            "d2 in [0, 48]\n"
            "(d1 - 3) mod 7 in [0, 0]\n"
            "d2 mod 2 in [0, 0]\n");
  EXPECT_EQ(m.getNumConstraints(), 2u);
  expectRoundTrip(m);
}

// Spec: slice, output -> input.
TEST_F(IndexingMapTest, PrintSliceOutputToInput) {
  IndexingMap m(map(3, 0, {d(0) + 5, d(1) * 7 + 3, d(2) * 2}),
                {{0, 4}, {0, 2}, {0, 24}}, {});
  EXPECT_EQ(m.toString(), "(d0, d1, d2) -> (d0 + 5, d1 * 7 + 3, d2 * 2)\n"
                          "domain:\n"
                          "d0 in [0, 4]\n"
                          "d1 in [0, 2]\n"
                          "d2 in [0, 24]\n");
  expectRoundTrip(m);
}

// Spec: generic reshape, examples 1 and 2.
TEST_F(IndexingMapTest, PrintReshapes) {
  IndexingMap m1(
      map(3, 0, {d(0) * 2 + d(1).floorDiv(2), d(2) + (d(1) % 2) * 4}),
      {{0, 1}, {0, 3}, {0, 3}}, {});
  EXPECT_EQ(m1.toString(),
            "(d0, d1, d2) -> (d0 * 2 + d1 floordiv 2, d2 + (d1 mod 2) * 4)\n"
            "domain:\n"
            "d0 in [0, 1]\n"
            "d1 in [0, 3]\n"
            "d2 in [0, 3]\n");
  expectRoundTrip(m1);

  IndexingMap m2(
      map(2, 0,
          {d(0).floorDiv(2), d(1).floorDiv(4) + (d(0) % 2) * 2, d(1) % 4}),
      {{0, 3}, {0, 7}}, {});
  EXPECT_EQ(m2.toString(), "(d0, d1) -> (d0 floordiv 2, d1 floordiv 4 + "
                           "(d0 mod 2) * 2, d1 mod 4)\n"
                           "domain:\n"
                           "d0 in [0, 3]\n"
                           "d1 in [0, 7]\n");
  expectRoundTrip(m2);
}

// Spec: dynamic-update-slice, upd (runtime variables, value left null).
TEST_F(IndexingMapTest, PrintRuntimeVars) {
  AffineMap access = map(2, 0, {});
  IndexingMap m(map(2, 2, {d(0) - s(0), d(1) - s(1)}), {{0, 19}, {0, 29}}, {},
                {{{0, 15}, Value(), access}, {{0, 20}, Value(), access}});
  EXPECT_EQ(m.getNumRangeVars(), 0u);
  EXPECT_EQ(m.getNumRuntimeVars(), 2u);
  EXPECT_EQ(m.toString(), "(d0, d1)[s0, s1] -> (d0 - s0, d1 - s1)\n"
                          "domain:\n"
                          "d0 in [0, 19]\n"
                          "d1 in [0, 29]\n"
                          "s0 in [0, 15]\n"
                          "  hlo: NULL\n"
                          "  (d0, d1) -> ()\n"
                          "s1 in [0, 20]\n"
                          "  hlo: NULL\n"
                          "  (d0, d1) -> ()\n");
  expectRoundTrip(m);
}

// Range variables before runtime variables, plus constraints on both.
TEST_F(IndexingMapTest, RangeAndRuntimeVarsWithConstraints) {
  IndexingMap m(map(4, 2, {d(1) + s(0), d(2) + s(1), d(3)}),
                {{0, 1805}, {0, 6}, {0, 7}, {0, 3}}, {{0, 26}},
                {{{0, 68}, Value(), map(4, 0, {d(0), c(1)})}});
  m.addConstraint(d(1) + s(1), {-3, 70});
  m.addConstraint(s(0) * 4 - d(0), {0, 100});
  std::string text = m.toString();
  EXPECT_NE(text.find("s0 in [0, 26]\ns1 in [0, 68]\n  hlo: NULL\n"
                      "  (d0, d1, d2, d3) -> (d0, 1)\n"),
            std::string::npos)
      << text;
  expectRoundTrip(m);
}

TEST_F(IndexingMapTest, OneLineForm) {
  IndexingMap m(map(2, 0, {d(0) + d(1).floorDiv(16), d(1) % 16}),
                {{0, 6}, {0, 14}}, {});
  EXPECT_EQ(m.toOneLineString(),
            "(d0, d1) -> (d0 + d1 floordiv 16, d1 mod 16), domain: d0 in [0, "
            "6], d1 in [0, 14]");
  expectRoundTrip(m);

  IndexingMap empty(map(0, 0, {}), {}, {});
  EXPECT_EQ(empty.toOneLineString(), "() -> (), domain:");
  EXPECT_EQ(empty.toString(), "() -> ()\ndomain:\n");
  expectRoundTrip(empty);

  IndexingMap withConstraint(map(1, 1, {d(0) * 4 + s(0)}), {{0, 7}}, {{0, 3}});
  withConstraint.addConstraint(d(0) * 4 + s(0), {1, 30});
  EXPECT_EQ(withConstraint.toOneLineString(),
            "(d0)[s0] -> (d0 * 4 + s0), domain: d0 in [0, 7], s0 in [0, 3], "
            "d0 * 4 + s0 in [1, 30]");
  expectRoundTrip(withConstraint);
}

TEST_F(IndexingMapTest, ParseSpecText) {
  // Verbatim from the spec (gather, indices operand), indentation included.
  std::optional<IndexingMap> m =
      parseIndexingMap("  (d0, d1, d2, d3)[s0] -> (d0, s0)\n"
                       "  domain:\n"
                       "  d0 in [0, 1805]\n"
                       "  d1 in [0, 6]\n"
                       "  d2 in [0, 7]\n"
                       "  d3 in [0, 3]\n"
                       "  s0 in [0, 1]\n",
                       &context);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(*m, IndexingMap(map(4, 1, {d(0), s(0)}),
                            {{0, 1805}, {0, 6}, {0, 7}, {0, 3}}, {{0, 1}}));

  // Runtime variables with an `hlo:` line naming an instruction.
  std::optional<IndexingMap> rt =
      parseIndexingMap("(d0, d1, d2, d3)[s0, s1] -> (d1 + s0, d2 + s1, d3)\n"
                       "domain:\n"
                       "d0 in [0, 1805]\n"
                       "d1 in [0, 6]\n"
                       "d2 in [0, 7]\n"
                       "d3 in [0, 3]\n"
                       "s0 in [0, 26]\n"
                       "  hlo: indices = s32[1806,2]{1,0} parameter(1)\n"
                       "  (d0, d1, d2, d3) -> (d0, 0)\n"
                       "s1 in [0, 68]\n"
                       "  hlo: indices = s32[1806,2]{1,0} parameter(1)\n"
                       "  (d0, d1, d2, d3) -> (d0, 1)\n",
                       &context);
  ASSERT_TRUE(rt.has_value());
  EXPECT_EQ(rt->getNumRangeVars(), 0u);
  ASSERT_EQ(rt->getNumRuntimeVars(), 2u);
  EXPECT_EQ(rt->getRuntimeVar(1).feasibleValues, Interval({0, 68}));
  EXPECT_EQ(rt->getRuntimeVar(1).map, map(4, 0, {d(0), c(1)}));
  EXPECT_FALSE(rt->getRuntimeVar(0).value);
}

TEST_F(IndexingMapTest, Equality) {
  IndexingMap a(map(1, 0, {d(0)}), {{0, 9}}, {});
  IndexingMap b(map(1, 0, {d(0)}), {{0, 8}}, {});
  EXPECT_NE(a, b);
  IndexingMap c1 = a, c2 = a;
  c1.addConstraint(d(0) % 2, {0, 0});
  c1.addConstraint(d(0) % 3, {0, 1});
  c2.addConstraint(d(0) % 3, {0, 1});
  EXPECT_NE(c1, c2);
  c2.addConstraint(d(0) % 2, {0, 0});
  EXPECT_EQ(c1, c2);                  // constraints compare as sets
  c2.addConstraint(d(0) % 2, {0, 5}); // intersects: unchanged
  EXPECT_EQ(c1, c2);
  c2.addConstraint(d(0) % 2, {1, 1}); // intersects: empty
  EXPECT_NE(c1, c2);
}

TEST_F(IndexingMapTest, KnownEmpty) {
  IndexingMap m(map(2, 1, {d(0), s(0)}), {{0, 9}, {0, 19}}, {{0, 3}});
  EXPECT_FALSE(m.isKnownEmpty());
  IndexingMap emptyDim(map(1, 0, {d(0)}), {{5, 4}}, {});
  EXPECT_TRUE(emptyDim.isKnownEmpty());
  IndexingMap emptyRange(map(0, 1, {s(0)}), {}, {{1, 0}});
  EXPECT_TRUE(emptyRange.isKnownEmpty());
  IndexingMap emptyRt(map(1, 1, {s(0)}), {{0, 1}}, {},
                      {{{3, 2}, Value(), map(1, 0, {})}});
  EXPECT_TRUE(emptyRt.isKnownEmpty());
  m.addConstraint(d(0) + d(1), {10, 5});
  EXPECT_TRUE(m.isKnownEmpty());
  // Empty intervals print and parse back.
  expectRoundTrip(m);
}

TEST_F(IndexingMapTest, Malformed) {
  const char *bad[] = {
      "",
      "domain:",
      "(d0) -> (d0)",                                    // no domain
      "(d0) -> (d0)\ndomain:\n",                         // d0 missing
      "(d0) -> (d0)\ndomain:\nd1 in [0, 9]\n",           // wrong name
      "(d0) -> (d0)\ndomain:\nd0 in [0 9]\n",            // bad interval
      "(d0) -> (d0)\ndomain:\nd0 in [0, x]\n",           // bad bound
      "(d0) -> (d0)\ndomain:\nd0 in (0, 9)\n",           // wrong brackets
      "(d0) -> (d0\ndomain:\nd0 in [0, 9]\n",            // unbalanced
      "(d0) -> (d0 +)\ndomain:\nd0 in [0, 9]\n",         // bad map
      "(d0)[s0] -> (d0)\ndomain:\nd0 in [0, 9]\n",       // s0 missing
      "(d0) -> (d0)\ndomain:\nd0 in [0, 9]\nd0 mod 2\n", // no interval
      "(d0) -> (d0)\ndomain:\nd0 in [0, 9]\nd1 mod 2 in [0, 0]\n", // bad dim
      "(d0) -> (d0)\ndomain:\nd0 in [0, 9]\ns0 in [0, 0]\n", // unknown symbol
      // A range variable after a runtime variable.
      "(d0)[s0, s1] -> (d0)\ndomain:\nd0 in [0, 9]\ns0 in [0, 1]\n"
      "  hlo: NULL\n  (d0) -> ()\ns1 in [0, 1]\n",
      // A runtime variable without its access map.
      "(d0)[s0] -> (d0)\ndomain:\nd0 in [0, 9]\ns0 in [0, 1]\n  hlo: NULL\n",
      "(d0) -> (d0), domain: d0 in [0, 9], junk",
      "(d0) -> (d0), domain: d0 in [0, 9]]",
  };
  for (const char *text : bad) {
    testing::internal::CaptureStderr();
    EXPECT_FALSE(parseIndexingMap(text, &context).has_value()) << text;
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "") << text;
  }
}

} // namespace
