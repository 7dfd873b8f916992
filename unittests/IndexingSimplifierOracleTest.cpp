//===- IndexingSimplifierOracleTest.cpp - simplify() keeps the meaning ----===//
//
// Random affine maps (sums, products by constants, nested floordiv / mod by
// constants) over small random domains, with random constraints: after
// simplify() (and the other rewrites) the set of feasible points is the same
// and every result takes the same value on each of them. Points are
// enumerated exhaustively; expressions are evaluated by an evaluator written
// here from the definition of floordiv / mod, not by MLIR.
//
//===----------------------------------------------------------------------===//

#include "AffineEvaluator.h"
#include "Hlo/Support/IndexingMap.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/StringExtras.h"

#include "gtest/gtest.h"

#include <functional>
#include <optional>
#include <random>
#include <vector>

using namespace mlir;
using namespace mlir::hlo;
using hlo_test::evaluate;

namespace {


/// For every point of the box `bounds` (dims then symbols) calls `fn`.
void forEachPoint(ArrayRef<Interval> bounds,
                  const std::function<void(ArrayRef<int64_t>)> &fn) {
  std::vector<int64_t> point;
  for (const Interval &b : bounds) {
    if (b.isEmpty())
      return;
    point.push_back(b.lower);
  }
  while (true) {
    fn(point);
    size_t i = 0;
    for (; i < point.size(); ++i) {
      if (++point[i] <= bounds[i].upper)
        break;
      point[i] = bounds[i].lower;
    }
    if (i == point.size())
      return;
  }
}

std::vector<Interval> boxOf(const IndexingMap &map) {
  std::vector<Interval> box(map.getDimBounds().begin(),
                            map.getDimBounds().end());
  for (unsigned i = 0; i < map.getNumSymbols(); ++i)
    box.push_back(map.getSymbolBound(i));
  return box;
}

/// The results at `point` when it is feasible for `map`.
std::optional<std::vector<int64_t>> apply(const IndexingMap &map,
                                          ArrayRef<int64_t> point) {
  ArrayRef<int64_t> d = point.take_front(map.getNumDims());
  ArrayRef<int64_t> s = point.drop_front(map.getNumDims());
  std::vector<Interval> box = boxOf(map);
  for (size_t i = 0; i < point.size(); ++i)
    if (!box[i].contains(point[i]))
      return std::nullopt;
  for (const auto &[expr, interval] : map.getConstraints())
    if (!interval.contains(evaluate(expr, d, s)))
      return std::nullopt;
  std::vector<int64_t> results;
  for (AffineExpr e : map.getAffineMap().getResults())
    results.push_back(evaluate(e, d, s));
  return results;
}

class RandomMaps {
public:
  RandomMaps(MLIRContext *context, unsigned seed)
      : context(context), rng(seed) {}

  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }

  AffineExpr expr(unsigned numDims, unsigned numSymbols, int depth) {
    int kind = uniform(0, depth <= 0 ? 1 : 6);
    if (kind == 0 || (kind == 1 && numSymbols == 0))
      return getAffineDimExpr(uniform(0, numDims - 1), context);
    if (kind == 1)
      return getAffineSymbolExpr(uniform(0, numSymbols - 1), context);
    AffineExpr lhs = expr(numDims, numSymbols, depth - 1);
    switch (kind) {
    case 2:
      return lhs + expr(numDims, numSymbols, depth - 1);
    case 3:
      return lhs * uniform(-4, 16);
    case 4:
      return lhs + uniform(-20, 20);
    case 5:
      return lhs.floorDiv(uniform(1, 12));
    default:
      return lhs % uniform(1, 12);
    }
  }

  IndexingMap map() {
    unsigned numDims = uniform(1, 3), numSymbols = uniform(0, 1);
    std::vector<Interval> dims, symbols;
    for (unsigned i = 0; i < numDims; ++i) {
      int64_t lo = uniform(-2, 3);
      dims.push_back({lo, lo + uniform(0, 11)});
    }
    for (unsigned i = 0; i < numSymbols; ++i)
      symbols.push_back({0, uniform(0, 7)});
    SmallVector<AffineExpr> results;
    for (int i = 0, e = uniform(1, 3); i < e; ++i)
      results.push_back(expr(numDims, numSymbols, 4));
    IndexingMap m(AffineMap::get(numDims, numSymbols, results, context), dims,
                  symbols);
    for (int i = 0, e = uniform(0, 2); i < e; ++i) {
      int64_t lo = uniform(-10, 30);
      m.addConstraint(expr(numDims, numSymbols, 3), {lo, lo + uniform(0, 40)});
    }
    return m;
  }

private:
  MLIRContext *context;
  std::mt19937 rng;
};

/// `after` has the feasible points of `before` (over `before`'s box, which
/// contains `after`'s) and the same results on them.
void expectSameMeaning(const IndexingMap &before, const IndexingMap &after) {
  ASSERT_EQ(before.getNumDims(), after.getNumDims());
  ASSERT_EQ(before.getNumSymbols(), after.getNumSymbols());
  int mismatches = 0;
  forEachPoint(boxOf(before), [&](ArrayRef<int64_t> point) {
    auto want = apply(before, point), got = apply(after, point);
    if (want == got || mismatches++)
      return;
    ADD_FAILURE() << "differs at the point (" << llvm::join(
                         llvm::map_range(point,
                                         [](int64_t v) {
                                           return std::to_string(v);
                                         }),
                         ", ")
                  << ")\nbefore:\n"
                  << before.toString() << "after:\n"
                  << after.toString();
  });
}

TEST(IndexingSimplifierOracle, SimplifyKeepsTheMeaning) {
  MLIRContext context;
  RandomMaps random(&context, /*seed=*/20261122);
  for (int i = 0; i < 3000; ++i) {
    IndexingMap before = random.map();
    IndexingMap after = before;
    after.simplify();
    expectSameMeaning(before, after);
    if (HasFailure())
      return;
  }
}

TEST(IndexingSimplifierOracle, SimplifiedSimpleMapsAreShorter) {
  // Not a correctness check: the simplifier must actually simplify. Over many
  // random maps the simplified text is never longer and often shorter.
  MLIRContext context;
  RandomMaps random(&context, /*seed=*/7);
  int shorter = 0;
  for (int i = 0; i < 500; ++i) {
    IndexingMap before = random.map();
    IndexingMap after = before;
    after.simplify();
    std::string b = before.toOneLineString(), a = after.toOneLineString();
    shorter += a.size() < b.size();
  }
  EXPECT_GT(shorter, 100);
}

TEST(IndexingSimplifierOracle, MergeModConstraintsKeepsTheMeaning) {
  MLIRContext context;
  RandomMaps random(&context, /*seed=*/99);
  AffineExpr d0 = getAffineDimExpr(0, &context);
  for (int i = 0; i < 500; ++i) {
    IndexingMap before(AffineMap::get(1, 0, {d0}, &context),
                       {{0, random.uniform(0, 60)}}, {});
    for (int j = 0; j < 2; ++j) {
      int64_t k = random.uniform(1, 8);
      int64_t r = random.uniform(0, k - 1);
      before.addConstraint(d0 % k, {r, r});
    }
    IndexingMap after = before;
    after.mergeModConstraints();
    expectSameMeaning(before, after);
    if (HasFailure())
      return;
  }
}

} // namespace
