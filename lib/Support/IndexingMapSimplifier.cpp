//===- IndexingMapSimplifier.cpp - range-aware affine simplification ------===//
//
// mlir::AffineExpr's own folding knows nothing of the variables' ranges, so it
// cannot rewrite `d1 floordiv 16` to 0 when d1 is in [0, 14]. This file does:
//
// - interval arithmetic over an expression (getRange);
// - a bottom-up rewriter that flattens sums into `coefficient * atom` terms
//   and simplifies `floordiv` / `mod` by a constant c:
//     * a sum whose range lies in one multiple of c folds (to a constant for
//       floordiv, to the sum minus that multiple for mod);
//     * terms whose coefficient is a multiple of c leave the division
//       (`(c*a + r) floordiv c = a + r floordiv c`, `(c*a + r) mod c = r mod
//       c`);
//     * with g dividing c, `g*X + Y` where Y is in [0, g-1]:
//       `floordiv c = X floordiv (c/g)` and `mod c = Y + (X mod (c/g)) * g`;
//     * nested divisions: `(x floordiv a) floordiv b = x floordiv (a*b)`,
//       `(x mod a) mod b = x mod b` when b divides a;
//     * in a sum, `(x floordiv c) * (c*k) + (x mod c) * k = x * k` and
//       `(x floordiv c) * (c/b*k) + ((x mod c) floordiv b) * k =
//       (x floordiv b) * k`;
// - IndexingMap::simplify, which applies that to the results and the
//   constraints, tightens variable bounds from constraints on
//   `var (+-*, floordiv) constant` and drops constraints that always hold.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Support/IndexingMap.h"

#include "mlir/IR/AffineExprVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::hlo;

namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

int64_t satAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    return b > 0 ? kMax : kMin;
  return r;
}

int64_t satMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    return ((a < 0) != (b < 0)) ? kMin : kMax;
  return r;
}

int64_t floorMod(int64_t a, int64_t b) {
  return a - llvm::divideFloorSigned(a, b) * b;
}

Interval unbounded() { return {kMin, kMax}; }

Interval scale(Interval i, int64_t k) {
  int64_t a = satMul(i.lower, k), b = satMul(i.upper, k);
  return {std::min(a, b), std::max(a, b)};
}

Interval product(Interval x, Interval y) {
  int64_t c[] = {satMul(x.lower, y.lower), satMul(x.lower, y.upper),
                 satMul(x.upper, y.lower), satMul(x.upper, y.upper)};
  return {*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
}

/// A sum `constant + sum(coefficient * atom)` with atoms in order of first
/// appearance and no zero coefficients.
struct LinearSum {
  SmallVector<std::pair<AffineExpr, int64_t>> terms;
  int64_t constant = 0;

  void addTerm(AffineExpr atom, int64_t coefficient) {
    for (auto &term : terms) {
      if (term.first == atom) {
        term.second += coefficient;
        return;
      }
    }
    terms.push_back({atom, coefficient});
  }

  void add(AffineExpr expr, int64_t coefficient) {
    if (coefficient == 0)
      return;
    if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
      constant += c.getValue() * coefficient;
      return;
    }
    if (auto bin = dyn_cast<AffineBinaryOpExpr>(expr)) {
      if (expr.getKind() == AffineExprKind::Add) {
        add(bin.getLHS(), coefficient);
        add(bin.getRHS(), coefficient);
        return;
      }
      if (expr.getKind() == AffineExprKind::Mul) {
        if (auto k = dyn_cast<AffineConstantExpr>(bin.getRHS())) {
          add(bin.getLHS(), coefficient * k.getValue());
          return;
        }
        if (auto k = dyn_cast<AffineConstantExpr>(bin.getLHS())) {
          add(bin.getRHS(), coefficient * k.getValue());
          return;
        }
      }
    }
    addTerm(expr, coefficient);
  }

  void dropZeros() {
    llvm::erase_if(terms, [](const auto &t) { return t.second == 0; });
  }

  AffineExpr build(MLIRContext *context) const {
    AffineExpr result;
    for (const auto &[atom, coefficient] : terms) {
      AffineExpr term = coefficient == 1 ? atom : atom * coefficient;
      result = result ? result + term : term;
    }
    if (!result)
      return getAffineConstantExpr(constant, context);
    return constant ? result + constant : result;
  }
};

LinearSum linearize(AffineExpr expr) {
  LinearSum sum;
  sum.add(expr, 1);
  sum.dropZeros();
  return sum;
}

class Simplifier {
public:
  Simplifier(ArrayRef<Interval> dims, ArrayRef<Interval> symbols)
      : dims(dims), symbols(symbols) {}

  Interval range(AffineExpr expr);
  AffineExpr simplify(AffineExpr expr);

private:
  Interval range(const LinearSum &sum);
  AffineExpr simplifySum(AffineExpr expr);
  AffineExpr simplifyFloorDiv(AffineExpr lhs, int64_t divisor);
  AffineExpr simplifyMod(AffineExpr lhs, int64_t divisor);
  /// Finds g > 1 dividing `divisor` such that the terms of `sum` with
  /// coefficients divisible by g (X, non-empty) and the rest with the constant
  /// (Y) satisfy Y in [0, g - 1]. Returns 0 when there is none.
  int64_t findSplit(const LinearSum &sum, int64_t divisor);

  ArrayRef<Interval> dims;
  ArrayRef<Interval> symbols;
  llvm::DenseMap<AffineExpr, AffineExpr> cache;
};

} // namespace

Interval Simplifier::range(const LinearSum &sum) {
  Interval r{sum.constant, sum.constant};
  for (const auto &[atom, coefficient] : sum.terms) {
    Interval t = scale(range(atom), coefficient);
    r = {satAdd(r.lower, t.lower), satAdd(r.upper, t.upper)};
  }
  return r;
}

Interval Simplifier::range(AffineExpr expr) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant: {
    int64_t v = cast<AffineConstantExpr>(expr).getValue();
    return {v, v};
  }
  case AffineExprKind::DimId: {
    unsigned pos = cast<AffineDimExpr>(expr).getPosition();
    return pos < dims.size() ? dims[pos] : unbounded();
  }
  case AffineExprKind::SymbolId: {
    unsigned pos = cast<AffineSymbolExpr>(expr).getPosition();
    return pos < symbols.size() ? symbols[pos] : unbounded();
  }
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  Interval lhs = range(bin.getLHS()), rhs = range(bin.getRHS());
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return {satAdd(lhs.lower, rhs.lower), satAdd(lhs.upper, rhs.upper)};
  case AffineExprKind::Mul:
    return product(lhs, rhs);
  default:
    break;
  }
  // Division by a non-constant: nothing is known.
  if (rhs.lower != rhs.upper || rhs.lower <= 0)
    return unbounded();
  int64_t c = rhs.lower;
  switch (expr.getKind()) {
  case AffineExprKind::FloorDiv:
    return {llvm::divideFloorSigned(lhs.lower, c),
            llvm::divideFloorSigned(lhs.upper, c)};
  case AffineExprKind::CeilDiv:
    return {llvm::divideCeilSigned(lhs.lower, c),
            llvm::divideCeilSigned(lhs.upper, c)};
  case AffineExprKind::Mod:
    if (lhs.lower != kMin && lhs.upper != kMax &&
        llvm::divideFloorSigned(lhs.lower, c) ==
            llvm::divideFloorSigned(lhs.upper, c))
      return {floorMod(lhs.lower, c), floorMod(lhs.upper, c)};
    return {0, c - 1};
  default:
    return unbounded();
  }
}

int64_t Simplifier::findSplit(const LinearSum &sum, int64_t divisor) {
  int64_t best = 0;
  for (const auto &candidate : sum.terms) {
    int64_t g = std::gcd(std::abs(candidate.second), divisor);
    if (g <= 1)
      continue;
    // The largest g for this choice of X: the gcd of X's coefficients.
    LinearSum x, y;
    y.constant = sum.constant;
    for (const auto &term : sum.terms)
      (term.second % g == 0 ? x : y).terms.push_back(term);
    int64_t xg = divisor;
    for (const auto &term : x.terms)
      xg = std::gcd(xg, std::abs(term.second));
    Interval yRange = range(y);
    if (yRange.lower >= 0 && yRange.upper < xg && xg > best)
      best = xg;
  }
  return best;
}

AffineExpr Simplifier::simplifyFloorDiv(AffineExpr lhs, int64_t divisor) {
  MLIRContext *context = lhs.getContext();
  if (divisor == 1)
    return lhs;
  Interval r = range(lhs);
  if (r.lower != kMin && r.upper != kMax &&
      llvm::divideFloorSigned(r.lower, divisor) ==
          llvm::divideFloorSigned(r.upper, divisor))
    return getAffineConstantExpr(llvm::divideFloorSigned(r.lower, divisor),
                                 context);

  // (x floordiv a) floordiv b = x floordiv (a * b).
  if (lhs.getKind() == AffineExprKind::FloorDiv) {
    auto inner = cast<AffineBinaryOpExpr>(lhs);
    if (auto a = dyn_cast<AffineConstantExpr>(inner.getRHS()))
      if (a.getValue() > 0)
        return simplifyFloorDiv(inner.getLHS(), satMul(a.getValue(), divisor));
  }

  LinearSum sum = linearize(lhs);
  // Pull out the terms whose coefficient is a multiple of the divisor; the
  // division of the rest takes the place of its first term.
  LinearSum result, rest;
  rest.constant = sum.constant;
  bool restPlaced = false;
  AffineExpr placeholder = getAffineConstantExpr(0, context);
  for (const auto &[atom, coefficient] : sum.terms) {
    if (coefficient % divisor == 0) {
      result.terms.push_back({atom, coefficient / divisor});
      continue;
    }
    rest.terms.push_back({atom, coefficient});
    if (!restPlaced) {
      result.terms.push_back({placeholder, 1});
      restPlaced = true;
    }
  }

  AffineExpr restDiv;
  if (result.terms.size() == 1 && restPlaced) {
    // Nothing was pulled out: try the split g*X + Y.
    int64_t g = findSplit(rest, divisor);
    if (!g)
      return lhs.floorDiv(divisor);
    LinearSum x;
    for (const auto &[atom, coefficient] : rest.terms)
      if (coefficient % g == 0)
        x.terms.push_back({atom, coefficient / g});
    return simplifyFloorDiv(x.build(context), divisor / g);
  }
  if (restPlaced) {
    restDiv = simplifyFloorDiv(rest.build(context), divisor);
  } else {
    // Only the constant is left over.
    result.constant = llvm::divideFloorSigned(rest.constant, divisor);
    rest.constant = 0;
  }
  LinearSum out;
  out.constant = result.constant;
  for (const auto &[atom, coefficient] : result.terms)
    out.add(atom == placeholder ? restDiv : atom, coefficient);
  out.dropZeros();
  return out.build(context);
}

AffineExpr Simplifier::simplifyMod(AffineExpr lhs, int64_t divisor) {
  MLIRContext *context = lhs.getContext();
  if (divisor == 1)
    return getAffineConstantExpr(0, context);
  Interval r = range(lhs);
  if (r.lower != kMin && r.upper != kMax &&
      llvm::divideFloorSigned(r.lower, divisor) ==
          llvm::divideFloorSigned(r.upper, divisor))
    return simplifySum(lhs -
                       llvm::divideFloorSigned(r.lower, divisor) * divisor);

  // (x mod a) mod b = x mod b when b divides a.
  if (lhs.getKind() == AffineExprKind::Mod) {
    auto inner = cast<AffineBinaryOpExpr>(lhs);
    if (auto a = dyn_cast<AffineConstantExpr>(inner.getRHS()))
      if (a.getValue() > 0 && a.getValue() % divisor == 0)
        return simplifyMod(inner.getLHS(), divisor);
  }

  LinearSum sum = linearize(lhs);
  LinearSum rest;
  rest.constant = sum.constant % divisor == 0 ? 0 : sum.constant;
  for (const auto &term : sum.terms)
    if (term.second % divisor != 0)
      rest.terms.push_back(term);
  bool dropped =
      rest.terms.size() != sum.terms.size() || rest.constant != sum.constant;
  if (dropped)
    return simplifyMod(rest.build(context), divisor);

  if (int64_t g = findSplit(rest, divisor)) {
    LinearSum x, y;
    y.constant = rest.constant;
    for (const auto &[atom, coefficient] : rest.terms) {
      if (coefficient % g == 0)
        x.terms.push_back({atom, coefficient / g});
      else
        y.terms.push_back({atom, coefficient});
    }
    AffineExpr xMod = simplifyMod(x.build(context), divisor / g);
    LinearSum out = y;
    out.add(xMod, g);
    out.dropZeros();
    return out.build(context);
  }
  return lhs % divisor;
}

/// If `atom` is `x mod c` or `(x mod c) floordiv b` (b dividing c) with the
/// `x` and `c` of `div` = `x floordiv c`, returns what `div * m + atom`
/// equals, with m the returned multiplier: `x` (m = c) or `x floordiv b`
/// (m = c / b).
static std::optional<std::pair<AffineExpr, int64_t>>
matchQuotientRemainder(AffineBinaryOpExpr div, int64_t c, AffineExpr atom) {
  AffineExpr mod = div.getLHS() % div.getRHS();
  if (atom == mod)
    return std::make_pair(div.getLHS(), c);
  if (atom.getKind() != AffineExprKind::FloorDiv)
    return std::nullopt;
  auto outer = cast<AffineBinaryOpExpr>(atom);
  auto b = dyn_cast<AffineConstantExpr>(outer.getRHS());
  if (outer.getLHS() != mod || !b || b.getValue() <= 0 || c % b.getValue() != 0)
    return std::nullopt;
  return std::make_pair(div.getLHS().floorDiv(b), c / b.getValue());
}

AffineExpr Simplifier::simplifySum(AffineExpr expr) {
  LinearSum sum = linearize(expr);
  // Quotient and remainder recombine:
  //   (x floordiv c) * (c * k) + (x mod c) * k = x * k,
  //   (x floordiv c) * (c / b * k) + ((x mod c) floordiv b) * k
  //     = (x floordiv b) * k.
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < sum.terms.size() && !changed; ++i) {
      auto [div, a] = sum.terms[i];
      if (div.getKind() != AffineExprKind::FloorDiv)
        continue;
      auto divBin = cast<AffineBinaryOpExpr>(div);
      auto c = dyn_cast<AffineConstantExpr>(divBin.getRHS());
      if (!c || c.getValue() <= 0)
        continue;
      for (size_t j = 0; j < sum.terms.size(); ++j) {
        auto match =
            matchQuotientRemainder(divBin, c.getValue(), sum.terms[j].first);
        int64_t k = sum.terms[j].second;
        if (!match || a != k * match->second)
          continue;
        // The quotient term becomes the combination, in place; the
        // remainder term goes.
        LinearSum combined = linearize(match->first);
        LinearSum merged;
        merged.constant = sum.constant + combined.constant * k;
        for (size_t t = 0; t < sum.terms.size(); ++t) {
          if (t == j)
            continue;
          if (t != i) {
            merged.addTerm(sum.terms[t].first, sum.terms[t].second);
            continue;
          }
          for (const auto &[atom, coefficient] : combined.terms)
            merged.addTerm(atom, coefficient * k);
        }
        merged.dropZeros();
        sum = std::move(merged);
        changed = true;
        break;
      }
    }
  }
  return sum.build(expr.getContext());
}

AffineExpr Simplifier::simplify(AffineExpr expr) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return expr;
  auto it = cache.find(expr);
  if (it != cache.end())
    return it->second;

  AffineExpr lhs = simplify(bin.getLHS());
  AffineExpr rhs = simplify(bin.getRHS());
  auto divisor = dyn_cast<AffineConstantExpr>(rhs);
  AffineExpr result;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    result = simplifySum(lhs + rhs);
    break;
  case AffineExprKind::Mul:
    result = simplifySum(lhs * rhs);
    break;
  case AffineExprKind::FloorDiv:
    result = divisor && divisor.getValue() > 0
                 ? simplifyFloorDiv(lhs, divisor.getValue())
                 : lhs.floorDiv(rhs);
    break;
  case AffineExprKind::Mod:
    result = divisor && divisor.getValue() > 0
                 ? simplifyMod(lhs, divisor.getValue())
                 : lhs % rhs;
    break;
  default:
    result = lhs.ceilDiv(rhs);
    break;
  }
  cache[expr] = result;
  return result;
}

AffineExpr mlir::hlo::simplifyAffineExpr(AffineExpr expr,
                                         ArrayRef<Interval> dimBounds,
                                         ArrayRef<Interval> symbolBounds) {
  Simplifier simplifier(dimBounds, symbolBounds);
  // Each rewrite may enable another one: iterate to a fixed point.
  for (int i = 0; i < 8; ++i) {
    AffineExpr next = simplifier.simplify(expr);
    if (next == expr)
      break;
    expr = next;
  }
  return expr;
}

//===----------------------------------------------------------------------===//
// IndexingMap::simplify
//===----------------------------------------------------------------------===//

Interval IndexingMap::getRange(AffineExpr expr) const {
  SmallVector<Interval> symbolBounds;
  for (unsigned i = 0; i < getNumSymbols(); ++i)
    symbolBounds.push_back(getSymbolBound(i));
  return Simplifier(dimBounds, symbolBounds).range(expr);
}

/// Rewrites `expr in interval` to a simpler expression over a tighter
/// interval: strips `+ c`, `* c`, `floordiv c` and common factors of sums.
static std::pair<AffineExpr, Interval> tighten(AffineExpr expr,
                                               Interval interval) {
  while (!interval.isEmpty()) {
    LinearSum sum = linearize(expr);
    if (sum.constant != 0) {
      interval = {satAdd(interval.lower, -sum.constant),
                  satAdd(interval.upper, -sum.constant)};
      sum.constant = 0;
      expr = sum.build(expr.getContext());
      continue;
    }
    int64_t g = 0;
    for (const auto &term : sum.terms)
      g = std::gcd(g, term.second);
    if (sum.terms.size() >= 1 && g > 1) {
      for (auto &term : sum.terms)
        term.second /= g;
      interval = {llvm::divideCeilSigned(interval.lower, g),
                  llvm::divideFloorSigned(interval.upper, g)};
      expr = sum.build(expr.getContext());
      continue;
    }
    if (sum.terms.size() == 1 && sum.terms[0].second == -1) {
      interval = {-interval.upper, -interval.lower};
      expr = sum.terms[0].first;
      continue;
    }
    if (expr.getKind() == AffineExprKind::FloorDiv) {
      auto bin = cast<AffineBinaryOpExpr>(expr);
      auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
      if (c && c.getValue() > 0) {
        int64_t k = c.getValue();
        interval = {satMul(interval.lower, k),
                    satAdd(satMul(interval.upper, k), k - 1)};
        expr = bin.getLHS();
        continue;
      }
    }
    break;
  }
  return {expr, interval};
}

bool IndexingMap::simplify() {
  bool changed = false;
  // Constraints first: they may tighten the bounds the results rely on.
  for (int iteration = 0; iteration < 8; ++iteration) {
    bool round = false;
    SmallVector<Interval> symbolBounds;
    for (unsigned i = 0; i < getNumSymbols(); ++i)
      symbolBounds.push_back(getSymbolBound(i));
    ConstraintMap old = std::move(constraints);
    constraints.clear();
    for (auto [expr, interval] : old) {
      AffineExpr simplified = simplifyAffineExpr(expr, dimBounds, symbolBounds);
      auto [tight, tightInterval] = tighten(simplified, interval);
      if (tight != expr || tightInterval != interval)
        round = true;
      // A constraint on a single variable becomes its bound.
      Interval *bound = nullptr;
      if (auto dim = dyn_cast<AffineDimExpr>(tight))
        bound = &dimBounds[dim.getPosition()];
      else if (auto sym = dyn_cast<AffineSymbolExpr>(tight))
        bound = sym.getPosition() < getNumRangeVars()
                    ? &rangeVarBounds[sym.getPosition()]
                    : &runtimeVars[sym.getPosition() - getNumRangeVars()]
                           .feasibleValues;
      if (bound) {
        *bound = bound->intersect(tightInterval);
        round = true;
        continue;
      }
      Interval r = getRange(tight);
      if (r.lower >= tightInterval.lower && r.upper <= tightInterval.upper) {
        round = true; // Always holds.
        continue;
      }
      addConstraint(tight, tightInterval.intersect(r).isEmpty()
                               ? Interval{1, 0}
                               : tightInterval);
    }
    changed |= round;
    if (!round)
      break;
  }
  changed |= mergeModConstraints();

  SmallVector<Interval> symbolBounds;
  for (unsigned i = 0; i < getNumSymbols(); ++i)
    symbolBounds.push_back(getSymbolBound(i));
  SmallVector<AffineExpr> results;
  for (AffineExpr result : affineMap.getResults())
    results.push_back(simplifyAffineExpr(result, dimBounds, symbolBounds));
  AffineMap simplified =
      AffineMap::get(affineMap.getNumDims(), affineMap.getNumSymbols(), results,
                     affineMap.getContext());
  changed |= simplified != affineMap;
  affineMap = simplified;
  return changed;
}

//===----------------------------------------------------------------------===//
// Constraint-driven rewrites
//===----------------------------------------------------------------------===//

/// Matches `expr mod k in [n, n]` with a constant k > 0.
static bool matchModEquality(AffineExpr expr, Interval interval,
                             AffineExpr &lhs, int64_t &k) {
  if (expr.getKind() != AffineExprKind::Mod || interval.lower != interval.upper)
    return false;
  auto bin = cast<AffineBinaryOpExpr>(expr);
  auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (!c || c.getValue() <= 0)
    return false;
  lhs = bin.getLHS();
  k = c.getValue();
  return true;
}

bool IndexingMap::mergeModConstraints() {
  bool changed = false;
  // Two equalities on the same lhs: x mod a = r1 and x mod b = r2 with a
  // dividing b: the second implies the first (or contradicts it).
  for (bool again = true; again;) {
    again = false;
    for (auto [e1, i1] : constraints) {
      AffineExpr x1;
      int64_t a;
      if (!matchModEquality(e1, i1, x1, a))
        continue;
      for (auto [e2, i2] : constraints) {
        AffineExpr x2;
        int64_t b;
        if (e1 == e2 || !matchModEquality(e2, i2, x2, b) || x1 != x2)
          continue;
        if (b % a == 0) {
          if (floorMod(i2.lower, a) != i1.lower)
            constraints[e2] = Interval{1, 0};
          constraints.erase(e1);
        } else if (a % b == 0) {
          if (floorMod(i1.lower, b) != i2.lower)
            constraints[e1] = Interval{1, 0};
          constraints.erase(e2);
        } else if (i1.lower == 0 && i2.lower == 0) {
          // Both divide x: so does their least common multiple.
          constraints.erase(e1);
          constraints.erase(e2);
          addConstraint(x1 % std::lcm(a, b), Interval{0, 0});
        } else {
          continue;
        }
        changed = again = true;
        break;
      }
      if (again)
        break;
    }
  }
  return changed;
}

bool IndexingMap::rescaleSymbols() {
  bool changed = false;
  for (bool again = true; again;) {
    again = false;
    for (auto [expr, interval] : constraints) {
      AffineExpr lhs;
      int64_t k;
      if (!matchModEquality(expr, interval, lhs, k))
        continue;
      auto sym = dyn_cast<AffineSymbolExpr>(lhs);
      if (!sym || sym.getPosition() >= getNumRangeVars())
        continue;
      unsigned pos = sym.getPosition();
      int64_t n = interval.lower;
      Interval &bound = rangeVarBounds[pos];
      // s = s' * k + n with s in bound.
      bound = {llvm::divideCeilSigned(bound.lower - n, k),
               llvm::divideFloorSigned(bound.upper - n, k)};
      constraints.erase(expr);
      MLIRContext *context = getContext();
      SmallVector<AffineExpr> symReplacements;
      for (unsigned i = 0; i < getNumSymbols(); ++i)
        symReplacements.push_back(getAffineSymbolExpr(i, context));
      symReplacements[pos] = symReplacements[pos] * k + n;
      SmallVector<AffineExpr> dimReplacements;
      for (unsigned i = 0; i < getNumDims(); ++i)
        dimReplacements.push_back(getAffineDimExpr(i, context));
      replaceVariables(dimReplacements, symReplacements, getNumDims(),
                       getNumSymbols());
      changed = again = true;
      break;
    }
  }
  if (changed)
    simplify();
  return changed;
}
