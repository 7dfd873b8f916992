//===- IndexingMapSimplifierTest.cpp - simplify, compose, remove vars -----===//
//
// The simplifier's examples of the indexing-analysis spec give exactly the
// spec's results; composition, removal of unused variables, symbol
// rescaling and mod-constraint merging on small maps. The exhaustive check
// (simplified maps agree with the originals on every point) is in
// IndexingOracleTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Support/IndexingMap.h"

#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace mlir::hlo;

namespace {

class SimplifierTest : public ::testing::Test {
protected:
  IndexingMap parse(const std::string &text) {
    std::optional<IndexingMap> map = parseIndexingMap(text, &context);
    EXPECT_TRUE(map.has_value()) << text;
    return map ? *map : IndexingMap();
  }
  /// simplify(parse(text)) printed on one line.
  std::string simplified(const std::string &text) {
    IndexingMap map = parse(text);
    map.simplify();
    return map.toOneLineString();
  }

  MLIRContext context;
};

TEST_F(SimplifierTest, SpecExample1) {
  EXPECT_EQ(simplified("(d0, d1) -> (d0 + d1 floordiv 16, d1 mod 16), "
                       "domain: d0 in [0, 6], d1 in [0, 14]"),
            "(d0, d1) -> (d0, d1), domain: d0 in [0, 6], d1 in [0, 14]");
}

TEST_F(SimplifierTest, SpecExample2) {
  EXPECT_EQ(
      simplified("(d0, d1, d2) -> ((d0 * 100 + d1 * 10 + d2) floordiv 100, "
                 "((d0 * 100 + d1 * 10 + d2) mod 100) floordiv 10, d2 mod 10), "
                 "domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]"),
      "(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 9], d1 in [0, 9], "
      "d2 in [0, 9]");
}

TEST_F(SimplifierTest, SpecExample3) {
  EXPECT_EQ(simplified("(d0, d1, d2) -> ((d0 * 16 + d1 * 4 + d2) floordiv 8, "
                       "(d0 * 16 + d1 * 4 + d2) mod 8), "
                       "domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]"),
            "(d0, d1, d2) -> (d0 * 2 + (d1 * 4 + d2) floordiv 8, "
            "(d1 * 4 + d2) mod 8), domain: d0 in [0, 9], d1 in [0, 9], "
            "d2 in [0, 9]");
}

TEST_F(SimplifierTest, SpecExample4) {
  // The spec writes -(-11d0 - d1 + 109) floordiv 11 + 9, the negation of the
  // quotient.
  EXPECT_EQ(simplified("(d0, d1) -> (-((d0 * -11 - d1 + 109) floordiv 11) + "
                       "9), domain: d0 in [0, 9], d1 in [0, 10]"),
            "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 10]");
}

TEST_F(SimplifierTest, ReshapeOfReshapeCancels) {
  // f32[10,10,10] -> f32[50,20] -> f32[10,10,10], output to input.
  IndexingMap outer =
      parse("(d0, d1, d2) -> ((d0 * 100 + d1 * 10 + d2) floordiv 20, "
            "(d0 * 100 + d1 * 10 + d2) mod 20), domain: d0 in [0, 9], "
            "d1 in [0, 9], d2 in [0, 9]");
  IndexingMap inner = parse("(d0, d1) -> ((d0 * 20 + d1) floordiv 100, "
                            "((d0 * 20 + d1) mod 100) floordiv 10, "
                            "(d0 * 20 + d1) mod 10), domain: d0 in [0, 49], "
                            "d1 in [0, 19]");
  IndexingMap composed = composeIndexingMaps(outer, inner);
  composed.simplify();
  EXPECT_EQ(composed.toOneLineString(),
            "(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 9], "
            "d1 in [0, 9], d2 in [0, 9]");
}

TEST_F(SimplifierTest, QuotientAndDividedRemainderRecombine) {
  // f32[64,128] -> f32[32,256] -> f32[8192], output to input.
  EXPECT_EQ(simplified("(d0) -> ((d0 floordiv 256) * 2 + (d0 mod 256) "
                       "floordiv 128, d0 mod 128), domain: d0 in [0, 8191]"),
            "(d0) -> (d0 floordiv 128, d0 mod 128), domain: d0 in [0, 8191]");
}

TEST_F(SimplifierTest, ConstraintTightening) {
  // `expr (+ - * floordiv) constant in [lo, hi]` moves onto the variable.
  EXPECT_EQ(simplified("(d0, d1) -> (d0, d1), domain: d0 in [0, 99], "
                       "d1 in [0, 99], d0 * 2 + 4 in [10, 21], "
                       "d1 floordiv 4 in [2, 3]"),
            "(d0, d1) -> (d0, d1), domain: d0 in [3, 8], d1 in [8, 15]");
  // Always true constraints disappear; others stay, simplified.
  EXPECT_EQ(simplified("(d0)[s0] -> (d0 + s0), domain: d0 in [0, 50], "
                       "s0 in [1, 3], d0 + s0 in [0, 60], "
                       "(d0 + s0 * 8) mod 8 in [0, 0]"),
            "(d0)[s0] -> (d0 + s0), domain: d0 in [0, 50], s0 in [1, 3], "
            "d0 mod 8 in [0, 0]");
  // The spec's example: d0 + s0 in [0, 20] always holds for d0 in [0, 5]
  // and s0 in [1, 3]; a mod whose argument stays below the divisor is the
  // argument itself, so the last constraint pins d0.
  EXPECT_EQ(simplified("(d0)[s0] -> (d0 + s0), domain: d0 in [0, 5], "
                       "s0 in [1, 3], d0 + s0 in [0, 20], "
                       "(d0 + s0 * 8) mod 8 in [0, 0]"),
            "(d0)[s0] -> (d0 + s0), domain: d0 in [0, 0], s0 in [1, 3]");
}

TEST_F(SimplifierTest, EmptyConstraintIsDetected) {
  IndexingMap map = parse("(d0) -> (d0), domain: d0 in [0, 5], "
                          "d0 floordiv 2 in [7, 9]");
  map.simplify();
  EXPECT_TRUE(map.isKnownEmpty()) << map.toString();
}

TEST_F(SimplifierTest, ComposeCarriesVariables) {
  // Consumer: reduce-like, producer: dynamic-slice-like with a constraint.
  IndexingMap consumer =
      parse("(d0)[s0] -> (s0, d0), domain: d0 in [0, 9], s0 in [0, 3]");
  IndexingMap producer = parse("(d0, d1)[s0] -> (d0 * 2, d1 + s0), domain: "
                               "d0 in [0, 3], d1 in [0, 9], s0 in [0, 5], "
                               "d1 mod 2 in [0, 0]");
  IndexingMap composed = composeIndexingMaps(consumer, producer);
  EXPECT_EQ(composed.toOneLineString(),
            "(d0)[s0, s1] -> (s1 * 2, d0 + s0), domain: d0 in [0, 9], "
            "s0 in [0, 5], s1 in [0, 3], d0 mod 2 in [0, 0]");
}

TEST_F(SimplifierTest, ComposeAddsProducerBounds) {
  IndexingMap consumer = parse("(d0) -> (d0 + 5), domain: d0 in [0, 9]");
  IndexingMap producer = parse("(d0) -> (d0), domain: d0 in [0, 11]");
  IndexingMap composed = composeIndexingMaps(consumer, producer);
  EXPECT_EQ(composed.toOneLineString(),
            "(d0) -> (d0 + 5), domain: d0 in [0, 9], d0 + 5 in [0, 11]");
  composed.simplify();
  EXPECT_EQ(composed.toOneLineString(),
            "(d0) -> (d0 + 5), domain: d0 in [0, 6]");
}

TEST_F(SimplifierTest, RemoveUnusedVariables) {
  IndexingMap map = parse("(d0, d1)[s0, s1, s2] -> (d1, s1), domain: "
                          "d0 in [0, 3], d1 in [0, 4], s0 in [0, 5], "
                          "s1 in [0, 6], s2 in [0, 7], s2 mod 2 in [0, 0]");
  EXPECT_TRUE(map.removeUnusedSymbols());
  EXPECT_EQ(map.toOneLineString(),
            "(d0, d1)[s0, s1] -> (d1, s0), domain: d0 in [0, 3], "
            "d1 in [0, 4], s0 in [0, 6], s1 in [0, 7], s1 mod 2 in [0, 0]");
  EXPECT_TRUE(map.removeUnusedDims());
  EXPECT_EQ(map.toOneLineString(),
            "(d0)[s0, s1] -> (d0, s0), domain: d0 in [0, 4], s0 in [0, 6], "
            "s1 in [0, 7], s1 mod 2 in [0, 0]");
  EXPECT_FALSE(map.removeUnusedSymbols());
}

TEST_F(SimplifierTest, RescaleSymbols) {
  IndexingMap map = parse("(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], "
                          "s0 in [0, 20], s0 mod 4 in [1, 1]");
  EXPECT_TRUE(map.rescaleSymbols());
  EXPECT_EQ(map.toOneLineString(),
            "(d0)[s0] -> (d0 + s0 * 4 + 1), domain: d0 in [0, 3], "
            "s0 in [0, 4]");
}

TEST_F(SimplifierTest, MergeModConstraints) {
  IndexingMap map = parse("(d0) -> (d0), domain: d0 in [0, 99], "
                          "d0 mod 2 in [0, 0], d0 mod 3 in [0, 0]");
  EXPECT_TRUE(map.mergeModConstraints());
  EXPECT_EQ(map.toOneLineString(),
            "(d0) -> (d0), domain: d0 in [0, 99], d0 mod 6 in [0, 0]");
  IndexingMap clash = parse("(d0) -> (d0), domain: d0 in [0, 99], "
                            "d0 mod 2 in [1, 1], d0 mod 4 in [2, 2]");
  clash.mergeModConstraints();
  EXPECT_TRUE(clash.isKnownEmpty()) << clash.toString();
}

} // namespace
