//===- AffineEvaluator.h - evaluate affine expressions in tests -*- C++ -*-===//
//
// An evaluator for mlir::AffineExpr written from the definitions (floordiv
// rounds toward negative infinity, mod is never negative for a positive
// divisor), independent of the library code the oracle tests check.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_UNITTESTS_AFFINEEVALUATOR_H
#define HLO_UNITTESTS_AFFINEEVALUATOR_H

#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace hlo_test {

inline int64_t floorDivide(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/// The value of `expr` with dims `d` and symbols `s`.
inline int64_t evaluate(mlir::AffineExpr expr, llvm::ArrayRef<int64_t> d,
                        llvm::ArrayRef<int64_t> s) {
  using namespace mlir;
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return c.getValue();
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return d[dim.getPosition()];
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr))
    return s[sym.getPosition()];
  auto bin = cast<AffineBinaryOpExpr>(expr);
  int64_t l = evaluate(bin.getLHS(), d, s), r = evaluate(bin.getRHS(), d, s);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return l + r;
  case AffineExprKind::Mul:
    return l * r;
  case AffineExprKind::FloorDiv:
    return floorDivide(l, r);
  case AffineExprKind::CeilDiv:
    return -floorDivide(-l, r);
  default:
    return l - floorDivide(l, r) * r;
  }
}

} // namespace hlo_test

#endif // HLO_UNITTESTS_AFFINEEVALUATOR_H
