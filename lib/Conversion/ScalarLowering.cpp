//===- ScalarLowering.cpp - HLO elementwise ops to arith/math -------------===//
//
// One hlo elementwise op to arith / math / complex ops on scalars, with the
// reference interpreter's semantics (lib/Runtime/Interpreter/Elementwise.cpp
// and Convert.cpp). The rules are tabled in docs/kernels.md; in short:
// - integers wrap; x / 0 = -1 (all ones), x % 0 = x, INT_MIN / -1 = INT_MIN,
//   INT_MIN % -1 = 0; shift amounts are unsigned and >= width gives 0 or the
//   sign fill; pred add is `or` (the interpreter stores x != 0);
// - floats narrower than f32 are computed in f32 and rounded back (exact for
//   + - * / sqrt, as the interpreter computes in double); maximum/minimum
//   propagate NaN and order -0 < +0 (arith.maximumf/minimumf);
// - float to integer converts truncate, saturate and map NaN to 0; integer
//   to narrow float converts round once (64-bit integers through f64 with
//   round-to-odd).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Conversion/ScalarLowering.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

enum class Kind { Pred, Signed, Unsigned, Float, Complex, Other };

Kind kindOf(Type t) {
  if (auto it = dyn_cast<IntegerType>(t)) {
    if (it.getWidth() == 1 && it.isSignless())
      return Kind::Pred;
    return it.isUnsigned() ? Kind::Unsigned : Kind::Signed;
  }
  if (isa<FloatType>(t))
    return Kind::Float;
  if (isa<ComplexType>(t))
    return Kind::Complex;
  return Kind::Other;
}

/// Floats narrower than f32, computed in f32 (f16, bf16, the f8, f6 and f4
/// variants: NaN-free f4E2M1FN / f6E2M3FN / f6E3M2FN and the exponent-only
/// f8E8M0FNU too; their rounding is NarrowFloatExpansion's).
bool isNarrowFloat(Type t) {
  auto ft = dyn_cast<FloatType>(t);
  return ft && ft.getWidth() < 32;
}

/// Element types the lowering takes.
bool isSupportedType(Type t) {
  switch (kindOf(t)) {
  case Kind::Pred:
  case Kind::Signed:
  case Kind::Unsigned:
    return cast<IntegerType>(t).getWidth() <= 64;
  case Kind::Float:
    return t.isF32() || t.isF64() || isNarrowFloat(t);
  case Kind::Complex: {
    Type e = cast<ComplexType>(t).getElementType();
    return e.isF32() || e.isF64();
  }
  case Kind::Other:
    return false;
  }
  return false;
}

Type elementTypeOf(Value v) { return getElementTypeOrSelf(v.getType()); }

/// Builds the scalar ops of one hlo op.
struct Emitter {
  OpBuilder &b;
  Location loc;

  //===--- Constants and conversions of helpers -------------------------===//

  Value intConst(Type t, int64_t v) {
    unsigned w = t.getIntOrFloatBitWidth();
    return arith::ConstantOp::create(
        b, loc, t, IntegerAttr::get(t, APInt(w, v, /*isSigned=*/true)));
  }
  Value intConst(Type t, const APInt &v) {
    return arith::ConstantOp::create(b, loc, t, IntegerAttr::get(t, v));
  }
  Value floatConst(Type t, double v) {
    return arith::ConstantOp::create(b, loc, t, b.getFloatAttr(t, v));
  }
  Value allOnes(Type t) { return intConst(t, -1); }

  /// A float value in f32 (narrow floats extended, exactly); f8E8M0FNU in
  /// f64, whose range holds its products and quotients (2^-254 .. 2^254:
  /// in f32 they would underflow to 0, which is NaN in e8m0, where the
  /// interpreter's double gives the smallest value).
  Value wide(Value v) {
    if (isa<Float8E8M0FNUType>(v.getType()))
      return arith::ExtFOp::create(b, loc, b.getF64Type(), v);
    if (isNarrowFloat(v.getType()))
      return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
    return v;
  }
  /// Rounds a value computed by wide() back to type `t`.
  Value narrow(Value v, Type t) {
    if (v.getType() == t)
      return v;
    return arith::TruncFOp::create(b, loc, t, v);
  }

  Value select(Value c, Value t, Value f) {
    return arith::SelectOp::create(b, loc, c, t, f);
  }
  Value cmpi(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value cmpf(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }

  //===--- Integer ops --------------------------------------------------===//

  Value divInt(Value x, Value y, bool isSigned) {
    Type t = x.getType();
    Value zero = intConst(t, 0), one = intConst(t, 1), minusOne = allOnes(t);
    Value byZero = cmpi(arith::CmpIPredicate::eq, y, zero);
    if (!isSigned) {
      Value safe = select(byZero, one, y);
      Value q = arith::DivUIOp::create(b, loc, x, safe);
      return select(byZero, minusOne, q);
    }
    Value byMinusOne = cmpi(arith::CmpIPredicate::eq, y, minusOne);
    Value safe =
        select(arith::OrIOp::create(b, loc, byZero, byMinusOne), one, y);
    Value q = arith::DivSIOp::create(b, loc, x, safe);
    q = select(byMinusOne, arith::SubIOp::create(b, loc, zero, x), q);
    return select(byZero, minusOne, q);
  }

  Value remInt(Value x, Value y, bool isSigned) {
    Type t = x.getType();
    Value zero = intConst(t, 0), one = intConst(t, 1);
    Value byZero = cmpi(arith::CmpIPredicate::eq, y, zero);
    if (!isSigned) {
      Value r = arith::RemUIOp::create(b, loc, x, select(byZero, one, y));
      return select(byZero, x, r);
    }
    Value byMinusOne = cmpi(arith::CmpIPredicate::eq, y, allOnes(t));
    Value safe =
        select(arith::OrIOp::create(b, loc, byZero, byMinusOne), one, y);
    Value r = arith::RemSIOp::create(b, loc, x, safe);
    r = select(byMinusOne, zero, r);
    return select(byZero, x, r);
  }

  enum class Shift { Left, RightArith, RightLogical };
  Value shift(Shift kind, Value x, Value amount) {
    Type t = x.getType();
    unsigned w = t.getIntOrFloatBitWidth();
    Value width = intConst(t, w);
    Value zero = intConst(t, 0);
    // The amount is unsigned: >= width is out of range.
    Value out = cmpi(arith::CmpIPredicate::uge, amount, width);
    switch (kind) {
    case Shift::Left:
      return select(
          out, zero,
          arith::ShLIOp::create(b, loc, x, select(out, zero, amount)));
    case Shift::RightLogical:
      return select(
          out, zero,
          arith::ShRUIOp::create(b, loc, x, select(out, zero, amount)));
    case Shift::RightArith:
      // Past the width: the sign fill, a shift by width - 1.
      return arith::ShRSIOp::create(b, loc, x,
                                    select(out, intConst(t, w - 1), amount));
    }
    return {};
  }

  /// x ** y on integers by squaring over the exponent's bits; a negative
  /// signed exponent gives 1 for x == 1 and 0 otherwise.
  Value powInt(Value x, Value y, bool isSigned) {
    Type t = x.getType();
    unsigned w = t.getIntOrFloatBitWidth();
    Value lb = arith::ConstantIndexOp::create(b, loc, 0);
    Value ub = arith::ConstantIndexOp::create(b, loc, w);
    Value step = arith::ConstantIndexOp::create(b, loc, 1);
    Value one = intConst(t, 1);
    auto loop = scf::ForOp::create(
        b, loc, lb, ub, step, ValueRange{one, x, y},
        [&](OpBuilder &nb, Location l, Value, ValueRange iter) {
          OpBuilder::InsertionGuard guard(b);
          b.restoreInsertionPoint(nb.saveInsertionPoint());
          Value r = iter[0], base = iter[1], e = iter[2];
          Value bit = arith::TruncIOp::create(b, l, b.getI1Type(), e);
          Value r2 = select(bit, arith::MulIOp::create(b, l, r, base), r);
          Value base2 = arith::MulIOp::create(b, l, base, base);
          Value e2 = w > 1 ? arith::ShRUIOp::create(b, l, e, one).getResult()
                           : intConst(t, 0);
          scf::YieldOp::create(b, l, ValueRange{r2, base2, e2});
        });
    Value r = loop.getResult(0);
    if (!isSigned)
      return r;
    Value zero = intConst(t, 0);
    Value negative = cmpi(arith::CmpIPredicate::slt, y, zero);
    Value baseOne = cmpi(arith::CmpIPredicate::eq, x, one);
    return select(negative, arith::ExtUIOp::create(b, loc, t, baseOne), r);
  }

  Value mulhi(Value x, Value y, bool isSigned) {
    Type t = x.getType();
    unsigned w = t.getIntOrFloatBitWidth();
    Type w2 = b.getIntegerType(2 * w);
    auto ext = [&](Value v) -> Value {
      if (isSigned)
        return arith::ExtSIOp::create(b, loc, w2, v);
      return arith::ExtUIOp::create(b, loc, w2, v);
    };
    Value p = arith::MulIOp::create(b, loc, ext(x), ext(y));
    Value hi = arith::ShRUIOp::create(b, loc, p, intConst(w2, w));
    return arith::TruncIOp::create(b, loc, t, hi);
  }

  //===--- Float ops ----------------------------------------------------===//

  /// sign(x): NaN and +-0 unchanged, else +-1.
  Value signFloat(Value x) {
    Type t = x.getType();
    Value one = floatConst(t, 1.0);
    Value r = math::CopySignOp::create(b, loc, one, x);
    Value keep = cmpf(arith::CmpFPredicate::UEQ, x, floatConst(t, 0.0));
    return select(keep, x, r);
  }

  /// The total-order key of float bits: negative floats flip their
  /// magnitude bits, so signed integer order is the total order.
  Value totalOrderKey(Value x) {
    auto ft = cast<FloatType>(x.getType());
    unsigned w = ft.getWidth();
    Type it = b.getIntegerType(w);
    Value bits = arith::BitcastOp::create(b, loc, it, x);
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    if (!llvm::APFloat::semanticsHasSignedRepr(sem)) {
      // f8E8M0FNU: no sign; its NaN, all ones, comes last (as the
      // interpreter's +NaN): the bits in unsigned order.
      return arith::ExtUIOp::create(b, loc, b.getIntegerType(2 * w), bits);
    }
    Value negative = cmpi(arith::CmpIPredicate::slt, bits, intConst(it, 0));
    APInt mag = APInt::getSignedMaxValue(w);
    Value flipped = arith::XOrIOp::create(b, loc, bits, intConst(it, mag));
    Value key = select(negative, flipped, bits);
    if (llvm::APFloat::semanticsHasNaN(sem) &&
        llvm::APFloat::getQNaN(sem).bitcastToAPInt().isSignMask()) {
      // The NaN of an FNUZ type is the negative zero's bits; the
      // interpreter orders it first (as -NaN), below every key: widen.
      Type wide = b.getIntegerType(2 * w);
      Value isNan = cmpi(arith::CmpIPredicate::eq, bits,
                         intConst(it, APInt::getSignMask(w)));
      key = select(isNan, intConst(wide, APInt::getSignedMinValue(2 * w)),
                   arith::ExtSIOp::create(b, loc, wide, key));
    }
    return key;
  }

  Value compare(ComparisonDirection d, bool totalOrder, Kind kind, Value x,
                Value y) {
    using P = arith::CmpIPredicate;
    using F = arith::CmpFPredicate;
    if (kind == Kind::Float && totalOrder) {
      x = totalOrderKey(x);
      y = totalOrderKey(y);
      kind = Kind::Signed;
    }
    if (kind == Kind::Float) {
      x = wide(x);
      y = wide(y);
      F p = F::OEQ;
      switch (d) {
      case ComparisonDirection::EQ:
        p = F::OEQ;
        break;
      case ComparisonDirection::NE:
        p = F::UNE;
        break;
      case ComparisonDirection::GE:
        p = F::OGE;
        break;
      case ComparisonDirection::GT:
        p = F::OGT;
        break;
      case ComparisonDirection::LE:
        p = F::OLE;
        break;
      case ComparisonDirection::LT:
        p = F::OLT;
        break;
      }
      return cmpf(p, x, y);
    }
    bool s = kind == Kind::Signed;
    P p = P::eq;
    switch (d) {
    case ComparisonDirection::EQ:
      p = P::eq;
      break;
    case ComparisonDirection::NE:
      p = P::ne;
      break;
    case ComparisonDirection::GE:
      p = s ? P::sge : P::uge;
      break;
    case ComparisonDirection::GT:
      p = s ? P::sgt : P::ugt;
      break;
    case ComparisonDirection::LE:
      p = s ? P::sle : P::ule;
      break;
    case ComparisonDirection::LT:
      p = s ? P::slt : P::ult;
      break;
    }
    return cmpi(p, x, y);
  }

  //===--- Converts -----------------------------------------------------===//

  /// Float (f32 or f64) to integer of `to`: truncate, saturate, NaN -> 0.
  Value floatToInt(Value x, IntegerType to, bool toUnsigned) {
    Type ft = x.getType();
    unsigned w = to.getWidth();
    Value zeroF = floatConst(ft, 0.0);
    if (toUnsigned) {
      // [0, 1), negatives and NaN give 0; >= 2^w the maximum.
      Value small = cmpf(arith::CmpFPredicate::ULT, x, floatConst(ft, 1.0));
      Value big = cmpf(arith::CmpFPredicate::OGE, x,
                       floatConst(ft, std::ldexp(1.0, w)));
      Value safe = select(arith::OrIOp::create(b, loc, small, big), zeroF, x);
      Value r = arith::FPToUIOp::create(b, loc, to, safe);
      r = select(big, intConst(to, APInt::getMaxValue(w)), r);
      return select(small, intConst(to, 0), r);
    }
    Value lim = floatConst(ft, std::ldexp(1.0, w - 1));
    Value big = cmpf(arith::CmpFPredicate::OGE, x, lim);
    Value low =
        cmpf(arith::CmpFPredicate::OLT, x, arith::NegFOp::create(b, loc, lim));
    Value nan = cmpf(arith::CmpFPredicate::UNO, x, x);
    Value bad = arith::OrIOp::create(
        b, loc, arith::OrIOp::create(b, loc, big, low), nan);
    Value r = arith::FPToSIOp::create(b, loc, to, select(bad, zeroF, x));
    r = select(big, intConst(to, APInt::getSignedMaxValue(w)), r);
    r = select(low, intConst(to, APInt::getSignedMinValue(w)), r);
    return select(nan, intConst(to, 0), r);
  }

  /// Integer `x` (unsigned when `isUnsigned`) to float type `to`, rounded
  /// once to nearest even.
  Value intToFloat(Value x, bool isUnsigned, FloatType to) {
    auto it = cast<IntegerType>(x.getType());
    unsigned w = it.getWidth();
    auto direct = [&](Type t, Value v) -> Value {
      if (isUnsigned)
        return arith::UIToFPOp::create(b, loc, t, v);
      return arith::SIToFPOp::create(b, loc, t, v);
    };
    if (to.isF32() || to.isF64())
      return direct(to, x);
    Type f64 = b.getF64Type();
    if (w <= 53)
      return narrow(direct(f64, x), to);
    // 64 bits: to f64 with round-to-odd (truncate the magnitude to 53
    // significant bits, or-ing the dropped bits into the last), so that the
    // rounding to `to` (precision <= 24) is the single rounding of x.
    Value zero = intConst(it, 0);
    Value negative =
        isUnsigned ? Value() : cmpi(arith::CmpIPredicate::slt, x, zero);
    Value mag = isUnsigned ? x
                           : select(negative,
                                    arith::SubIOp::create(b, loc, zero, x), x);
    Value lz = math::CountLeadingZerosOp::create(b, loc, mag);
    // drop = max(0, 64 - lz - 53) = max(0, 11 - lz)
    Value drop = arith::MaxSIOp::create(
        b, loc, intConst(it, 0),
        arith::SubIOp::create(b, loc, intConst(it, w - 53), lz));
    Value kept = arith::ShRUIOp::create(b, loc, mag, drop);
    Value lostMask = arith::SubIOp::create(
        b, loc, arith::ShLIOp::create(b, loc, intConst(it, 1), drop),
        intConst(it, 1));
    Value lost = cmpi(arith::CmpIPredicate::ne,
                      arith::AndIOp::create(b, loc, mag, lostMask), zero);
    kept = arith::OrIOp::create(b, loc, kept,
                                arith::ExtUIOp::create(b, loc, it, lost));
    Value f = arith::UIToFPOp::create(b, loc, f64, kept);
    // Scale by 2^drop: exact, drop <= 11.
    Value scale = arith::UIToFPOp::create(
        b, loc, f64, arith::ShLIOp::create(b, loc, intConst(it, 1), drop));
    f = arith::MulFOp::create(b, loc, f, scale);
    if (negative)
      f = select(negative, arith::NegFOp::create(b, loc, f), f);
    return narrow(f, to);
  }

  /// Float `x` to float type `to`, rounded once.
  Value floatToFloat(Value x, FloatType to) {
    Type from = x.getType();
    if (from == to)
      return x;
    if (to.isF32() || to.isF64()) {
      Value v = wide(x);
      if (v.getType() == to)
        return v;
      if (to.getWidth() > v.getType().getIntOrFloatBitWidth())
        return arith::ExtFOp::create(b, loc, to, v);
      return arith::TruncFOp::create(b, loc, to, v);
    }
    // To a narrow type: from f64 directly, else through f32 (exact).
    if (!from.isF64())
      x = wide(x);
    return arith::TruncFOp::create(b, loc, to, x);
  }

  /// convert from HLO element type `from` to `to`.
  Value convert(Value x, Type from, Type to) {
    Kind fk = kindOf(from), tk = kindOf(to);
    if (from == to)
      return x;
    if (fk == Kind::Complex && tk != Kind::Complex) {
      if (tk == Kind::Pred) {
        Type part = cast<ComplexType>(from).getElementType();
        Value zero = floatConst(part, 0.0);
        Value re = complex::ReOp::create(b, loc, x);
        Value im = complex::ImOp::create(b, loc, x);
        return arith::OrIOp::create(b, loc,
                                    cmpf(arith::CmpFPredicate::UNE, re, zero),
                                    cmpf(arith::CmpFPredicate::UNE, im, zero));
      }
      x = complex::ReOp::create(b, loc, x);
      from = x.getType();
      fk = Kind::Float;
    }
    if (tk == Kind::Complex) {
      Type part = cast<ComplexType>(to).getElementType();
      Value re, im;
      if (fk == Kind::Complex) {
        re = convert(complex::ReOp::create(b, loc, x),
                     cast<ComplexType>(from).getElementType(), part);
        im = convert(complex::ImOp::create(b, loc, x),
                     cast<ComplexType>(from).getElementType(), part);
      } else {
        re = convert(x, from, part);
        im = floatConst(part, 0.0);
      }
      return complex::CreateOp::create(b, loc, to, re, im);
    }
    if (tk == Kind::Pred) {
      if (fk == Kind::Float)
        return cmpf(arith::CmpFPredicate::UNE, wide(x),
                    floatConst(wide(x).getType(), 0.0));
      return cmpi(arith::CmpIPredicate::ne, x, intConst(x.getType(), 0));
    }
    if (tk == Kind::Signed || tk == Kind::Unsigned) {
      auto it = cast<IntegerType>(getScalarType(to));
      if (fk == Kind::Float)
        return floatToInt(wide(x), it, tk == Kind::Unsigned);
      unsigned fw = x.getType().getIntOrFloatBitWidth();
      if (fw == it.getWidth())
        return x;
      if (fw > it.getWidth())
        return arith::TruncIOp::create(b, loc, it, x);
      if (fk == Kind::Signed)
        return arith::ExtSIOp::create(b, loc, it, x);
      return arith::ExtUIOp::create(b, loc, it, x);
    }
    // To a float.
    auto ft = cast<FloatType>(to);
    if (fk == Kind::Float)
      return floatToFloat(x, ft);
    return intToFloat(x, fk != Kind::Signed, ft);
  }

  /// stochastic-convert of float `x` to integer type `to` with random bits
  /// `r` (an unsigned integer of width w): the magnitude rounds up when r is
  /// below the fraction as a w-bit fixed-point number, else truncates; then
  /// saturates as convert (NaN -> 0).
  Value stochasticConvert(Value x, Value r, IntegerType to, bool toUnsigned) {
    Value v = wide(x);
    Type ft = v.getType();
    unsigned w = r.getType().getIntOrFloatBitWidth();
    Value whole = math::TruncOp::create(b, loc, v);
    Value frac =
        math::AbsFOp::create(b, loc, arith::SubFOp::create(b, loc, v, whole));
    // frac < 1: frac * 2^w < 2^w is exact and fits w unsigned bits. A NaN
    // fraction is made 0 (the result is 0 anyway).
    Value scaled =
        arith::MulFOp::create(b, loc, frac, floatConst(ft, std::ldexp(1.0, w)));
    Value isNan = cmpf(arith::CmpFPredicate::UNO, v, v);
    scaled = select(isNan, floatConst(ft, 0.0), scaled);
    Value fixed = arith::FPToUIOp::create(b, loc, r.getType(), scaled);
    Value up = cmpi(arith::CmpIPredicate::ult, r, fixed);
    Value step = math::CopySignOp::create(b, loc, floatConst(ft, 1.0), v);
    Value rounded =
        select(up, arith::AddFOp::create(b, loc, whole, step), whole);
    return floatToInt(rounded, to, toUnsigned);
  }

  /// reduce-precision on the bits of `x`, as the interpreter computes it.
  Value reducePrecision(Value x, int64_t exponentBits, int64_t mantissaBits) {
    auto ft = cast<FloatType>(x.getType());
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    unsigned width = ft.getWidth();
    int64_t m = llvm::APFloat::semanticsPrecision(sem) - 1;
    int64_t e = width - 1 - m;
    Type it = b.getIntegerType(width);
    Value bits = arith::BitcastOp::create(b, loc, it, x);
    if (mantissaBits < m) {
      int64_t shiftBy = m - std::max<int64_t>(mantissaBits, 0);
      uint64_t last = uint64_t(1) << shiftBy;
      Value lastBit = arith::ShRUIOp::create(
          b, loc, arith::AndIOp::create(b, loc, bits, intConst(it, last)),
          intConst(it, shiftBy));
      Value bias =
          arith::AddIOp::create(b, loc, intConst(it, (last >> 1) - 1), lastBit);
      bits = arith::AndIOp::create(b, loc,
                                   arith::AddIOp::create(b, loc, bits, bias),
                                   intConst(it, ~(last - 1)));
    }
    if (exponentBits < e && exponentBits > 0) {
      uint64_t signMask = uint64_t(1) << (width - 1);
      uint64_t expMask = ((uint64_t(1) << e) - 1) << m;
      int64_t typeBias = (int64_t(1) << (e - 1)) - 1;
      int64_t reducedBias = (int64_t(1) << (exponentBits - 1)) - 1;
      uint64_t maxExp = static_cast<uint64_t>(typeBias + reducedBias) << m;
      uint64_t minExp = static_cast<uint64_t>(typeBias - reducedBias) << m;
      Value exp = arith::AndIOp::create(b, loc, bits, intConst(it, expMask));
      Value sign = arith::AndIOp::create(b, loc, bits, intConst(it, signMask));
      Value over = cmpi(arith::CmpIPredicate::ugt, exp, intConst(it, maxExp));
      Value under = cmpi(arith::CmpIPredicate::ule, exp, intConst(it, minExp));
      bits = select(over,
                    arith::OrIOp::create(b, loc, sign, intConst(it, expMask)),
                    select(under, sign, bits));
    }
    Value r = arith::BitcastOp::create(b, loc, ft, bits);
    if (mantissaBits > 0) {
      Value wx = wide(x);
      Value isNan = cmpf(arith::CmpFPredicate::UNO, wx, wx);
      r = select(isNan, x, r);
    }
    return r;
  }

  //===--- Dispatch -----------------------------------------------------===//

  FailureOr<Value> unaryFloat(Operation *op, Value x) {
    Type t = x.getType();
    Value v = wide(x);
    Type wt = v.getType();
    Value r =
        llvm::TypeSwitch<Operation *, Value>(op)
            .Case([&](AbsOp) { return math::AbsFOp::create(b, loc, v); })
            .Case([&](NegOp) { return arith::NegFOp::create(b, loc, v); })
            .Case([&](SignOp) { return signFloat(v); })
            .Case([&](FloorOp) { return math::FloorOp::create(b, loc, v); })
            .Case([&](CeilOp) { return math::CeilOp::create(b, loc, v); })
            .Case([&](RoundAfzOp) { return math::RoundOp::create(b, loc, v); })
            .Case([&](RoundEvenOp) {
              return math::RoundEvenOp::create(b, loc, v);
            })
            .Case([&](ExpOp) { return math::ExpOp::create(b, loc, v); })
            .Case([&](Expm1Op) { return math::ExpM1Op::create(b, loc, v); })
            .Case([&](LogOp) { return math::LogOp::create(b, loc, v); })
            .Case([&](Log1pOp) { return math::Log1pOp::create(b, loc, v); })
            .Case([&](LogisticOp) -> Value {
              Value one = floatConst(wt, 1.0);
              Value e =
                  math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, v));
              return arith::DivFOp::create(
                  b, loc, one, arith::AddFOp::create(b, loc, one, e));
            })
            .Case([&](TanhOp) { return math::TanhOp::create(b, loc, v); })
            .Case([&](SqrtOp) { return math::SqrtOp::create(b, loc, v); })
            .Case([&](RsqrtOp) -> Value {
              return arith::DivFOp::create(b, loc, floatConst(wt, 1.0),
                                           math::SqrtOp::create(b, loc, v));
            })
            .Case([&](CbrtOp) { return math::CbrtOp::create(b, loc, v); })
            .Case([&](SinOp) { return math::SinOp::create(b, loc, v); })
            .Case([&](CosOp) { return math::CosOp::create(b, loc, v); })
            .Case([&](TanOp) { return math::TanOp::create(b, loc, v); })
            .Case([&](ErfOp) { return math::ErfOp::create(b, loc, v); })
            .Case([&](AcosOp) { return math::AcosOp::create(b, loc, v); })
            .Case([&](AcoshOp) { return math::AcoshOp::create(b, loc, v); })
            .Case([&](AsinOp) { return math::AsinOp::create(b, loc, v); })
            .Case([&](AsinhOp) { return math::AsinhOp::create(b, loc, v); })
            .Case([&](AtanhOp) { return math::AtanhOp::create(b, loc, v); })
            .Case([&](CoshOp) { return math::CoshOp::create(b, loc, v); })
            .Case([&](SinhOp) { return math::SinhOp::create(b, loc, v); })
            .Case([&](RealOp) { return v; })
            .Case([&](ImagOp) { return floatConst(wt, 0.0); })
            .Default([](Operation *) { return Value(); });
    if (!r)
      return failure();
    return narrow(r, t);
  }

  FailureOr<Value> unaryComplex(Operation *op, Value z) {
    auto ct = cast<ComplexType>(z.getType());
    Type part = ct.getElementType();
    Value r =
        llvm::TypeSwitch<Operation *, Value>(op)
            .Case([&](AbsOp) { return complex::AbsOp::create(b, loc, z); })
            .Case([&](RealOp) { return complex::ReOp::create(b, loc, z); })
            .Case([&](ImagOp) { return complex::ImOp::create(b, loc, z); })
            .Case([&](NegOp) { return complex::NegOp::create(b, loc, z); })
            .Case([&](SignOp) { return complex::SignOp::create(b, loc, z); })
            .Case([&](ExpOp) { return complex::ExpOp::create(b, loc, z); })
            .Case([&](Expm1Op) { return complex::Expm1Op::create(b, loc, z); })
            .Case([&](LogOp) { return complex::LogOp::create(b, loc, z); })
            .Case([&](Log1pOp) { return complex::Log1pOp::create(b, loc, z); })
            .Case([&](SqrtOp) { return complex::SqrtOp::create(b, loc, z); })
            .Case([&](RsqrtOp) { return complex::RsqrtOp::create(b, loc, z); })
            .Case([&](SinOp) { return complex::SinOp::create(b, loc, z); })
            .Case([&](CosOp) { return complex::CosOp::create(b, loc, z); })
            .Case([&](TanOp) { return complex::TanOp::create(b, loc, z); })
            .Case([&](TanhOp) { return complex::TanhOp::create(b, loc, z); })
            .Case([&](LogisticOp) -> Value {
              Value one = complex::CreateOp::create(
                  b, loc, ct, floatConst(part, 1.0), floatConst(part, 0.0));
              Value e = complex::ExpOp::create(
                  b, loc, complex::NegOp::create(b, loc, z));
              return complex::DivOp::create(
                  b, loc, one, complex::AddOp::create(b, loc, one, e));
            })
            .Default([](Operation *) { return Value(); });
    if (!r)
      return failure();
    return r;
  }

  FailureOr<Value> unaryInt(Operation *op, Value x, Kind kind) {
    Type t = x.getType();
    bool isSigned = kind == Kind::Signed;
    Value r =
        llvm::TypeSwitch<Operation *, Value>(op)
            .Case([&](AbsOp) -> Value {
              if (!isSigned)
                return x;
              return math::AbsIOp::create(b, loc, x);
            })
            .Case([&](NegOp) -> Value {
              return arith::SubIOp::create(b, loc, intConst(t, 0), x);
            })
            .Case([&](NotOp) -> Value {
              return arith::XOrIOp::create(b, loc, x, allOnes(t));
            })
            .Case([&](PopcntOp) { return math::CtPopOp::create(b, loc, x); })
            .Case([&](ClzOp) {
              return math::CountLeadingZerosOp::create(b, loc, x);
            })
            .Case([&](SignOp) -> Value {
              Value zero = intConst(t, 0);
              Value nonZero = arith::ExtUIOp::create(
                  b, loc, t, cmpi(arith::CmpIPredicate::ne, x, zero));
              if (!isSigned || t.getIntOrFloatBitWidth() == 1)
                return nonZero;
              Value negative = cmpi(arith::CmpIPredicate::slt, x, zero);
              return select(negative, allOnes(t), nonZero);
            })
            .Default([](Operation *) { return Value(); });
    if (!r)
      return failure();
    return r;
  }

  FailureOr<Value> binaryInt(Operation *op, Value x, Value y, Kind kind) {
    bool isSigned = kind == Kind::Signed;
    bool isPred = kind == Kind::Pred;
    Value r =
        llvm::TypeSwitch<Operation *, Value>(op)
            .Case([&](AddOp) -> Value {
              // pred: the sum stored as `!= 0` is `or`.
              if (isPred)
                return arith::OrIOp::create(b, loc, x, y);
              return arith::AddIOp::create(b, loc, x, y);
            })
            .Case(
                [&](SubtractOp) { return arith::SubIOp::create(b, loc, x, y); })
            .Case([&](MulOp) { return arith::MulIOp::create(b, loc, x, y); })
            .Case([&](AndOp) { return arith::AndIOp::create(b, loc, x, y); })
            .Case([&](OrOp) { return arith::OrIOp::create(b, loc, x, y); })
            .Case([&](XorOp) { return arith::XOrIOp::create(b, loc, x, y); })
            .Case([&](DivOp) { return divInt(x, y, isSigned); })
            .Case([&](RemOp) { return remInt(x, y, isSigned); })
            .Case([&](MaxOp) -> Value {
              if (isSigned)
                return arith::MaxSIOp::create(b, loc, x, y);
              return arith::MaxUIOp::create(b, loc, x, y);
            })
            .Case([&](MinOp) -> Value {
              if (isSigned)
                return arith::MinSIOp::create(b, loc, x, y);
              return arith::MinUIOp::create(b, loc, x, y);
            })
            .Case([&](ShiftLeftOp) { return shift(Shift::Left, x, y); })
            .Case([&](ShiftRightArithmeticOp) {
              return shift(Shift::RightArith, x, y);
            })
            .Case([&](ShiftRightLogicalOp) {
              return shift(Shift::RightLogical, x, y);
            })
            .Case([&](PowOp) { return powInt(x, y, isSigned); })
            .Case([&](MulhiOp) { return mulhi(x, y, isSigned); })
            .Case([&](CompareOp c) {
              return compare(c.getDirection(), false, kind, x, y);
            })
            .Default([](Operation *) { return Value(); });
    if (!r)
      return failure();
    return r;
  }

  Value maxF(Value x, Value y) {
    return arith::MaximumFOp::create(b, loc, x, y);
  }
  Value minF(Value x, Value y) {
    return arith::MinimumFOp::create(b, loc, x, y);
  }

  FailureOr<Value> binaryFloat(Operation *op, Value x, Value y) {
    Type t = x.getType();
    if (auto c = dyn_cast<CompareOp>(op))
      return compare(c.getDirection(),
                     c.getComparisonType() == ComparisonType::TOTALORDER,
                     Kind::Float, x, y);
    if (isa<ComplexOp>(op)) {
      Type ct = ComplexType::get(t);
      return complex::CreateOp::create(b, loc, ct, x, y).getResult();
    }
    Value u = wide(x), v = wide(y);
    Value r =
        llvm::TypeSwitch<Operation *, Value>(op)
            .Case([&](AddOp) { return arith::AddFOp::create(b, loc, u, v); })
            .Case(
                [&](SubtractOp) { return arith::SubFOp::create(b, loc, u, v); })
            .Case([&](MulOp) { return arith::MulFOp::create(b, loc, u, v); })
            .Case([&](DivOp) { return arith::DivFOp::create(b, loc, u, v); })
            .Case([&](RemOp) { return arith::RemFOp::create(b, loc, u, v); })
            .Case([&](MaxOp) { return maxF(u, v); })
            .Case([&](MinOp) { return minF(u, v); })
            .Case([&](PowOp) { return math::PowFOp::create(b, loc, u, v); })
            .Case([&](Atan2Op) { return math::Atan2Op::create(b, loc, u, v); })
            .Default([](Operation *) { return Value(); });
    if (!r)
      return failure();
    return narrow(r, t);
  }

  FailureOr<Value> binaryComplex(Operation *op, Value x, Value y) {
    auto ct = cast<ComplexType>(x.getType());
    Value r =
        llvm::TypeSwitch<Operation *, Value>(op)
            .Case([&](AddOp) { return complex::AddOp::create(b, loc, x, y); })
            .Case([&](SubtractOp) {
              return complex::SubOp::create(b, loc, x, y);
            })
            .Case([&](MulOp) { return complex::MulOp::create(b, loc, x, y); })
            .Case([&](DivOp) { return complex::DivOp::create(b, loc, x, y); })
            .Case([&](PowOp) -> Value {
              // x ** 0 = 1 for every x (also 0 and NaN).
              Type part = ct.getElementType();
              Value zero = floatConst(part, 0.0);
              Value re = complex::ReOp::create(b, loc, y);
              Value im = complex::ImOp::create(b, loc, y);
              Value isZero = arith::AndIOp::create(
                  b, loc, cmpf(arith::CmpFPredicate::OEQ, re, zero),
                  cmpf(arith::CmpFPredicate::OEQ, im, zero));
              Value one = complex::CreateOp::create(
                  b, loc, ct, floatConst(part, 1.0), zero);
              return select(isZero, one, complex::PowOp::create(b, loc, x, y));
            })
            .Case([&](CompareOp c) -> Value {
              if (c.getDirection() == ComparisonDirection::EQ)
                return complex::EqualOp::create(b, loc, x, y);
              if (c.getDirection() == ComparisonDirection::NE)
                return complex::NotEqualOp::create(b, loc, x, y);
              return Value();
            })
            .Default([](Operation *) { return Value(); });
    if (!r)
      return failure();
    return r;
  }

  FailureOr<Value> emit(Operation *op, ValueRange operands) {
    OperandRange data = getDataOperands(op);
    if (op->getNumResults() != 1 || data.size() != operands.size())
      return failure();
    Type resultType = elementTypeOf(op->getResult(0));
    if (!isSupportedType(resultType))
      return failure();
    for (Value v : data)
      if (!isSupportedType(elementTypeOf(v)))
        return failure();
    for (auto [v, s] : llvm::zip(data, operands))
      if (getScalarType(elementTypeOf(v)) != s.getType())
        return failure();

    if (isa<CopyOp>(op))
      return operands[0];
    if (isa<SelectOp>(op))
      return select(operands[0], operands[1], operands[2]);
    if (isa<ConvertOp>(op))
      return convert(operands[0], elementTypeOf(data[0]), resultType);
    // A bitcast between element types of one width is a bitcast-convert
    // (XLA's simplifier makes such bitcast-converts bitcasts).
    if (isa<BitcastConvertOp, BitcastOp>(op)) {
      Type from = getScalarType(elementTypeOf(data[0]));
      Type to = getScalarType(resultType);
      if (from == to)
        return operands[0];
      if (!from.isIntOrFloat() || !to.isIntOrFloat() ||
          from.getIntOrFloatBitWidth() != to.getIntOrFloatBitWidth())
        return failure();
      return arith::BitcastOp::create(b, loc, to, operands[0]).getResult();
    }
    if (isa<StochasticConvertOp>(op)) {
      Kind to = kindOf(resultType);
      if (kindOf(elementTypeOf(data[0])) != Kind::Float ||
          (to != Kind::Signed && to != Kind::Unsigned) ||
          !isa<IntegerType>(operands[1].getType()))
        return failure();
      return stochasticConvert(operands[0], operands[1],
                               cast<IntegerType>(getScalarType(resultType)),
                               to == Kind::Unsigned);
    }
    if (auto rp = dyn_cast<ReducePrecisionOp>(op)) {
      if (kindOf(resultType) != Kind::Float)
        return failure();
      return reducePrecision(operands[0], rp.getExponentBits(),
                             rp.getMantissaBits());
    }
    // The rest are ops of one operand or more (an op without operands
    // here, a call of a parameterless computation, is not lowered).
    if (data.empty())
      return failure();
    Type operandType = elementTypeOf(data[0]);
    Kind kind = kindOf(operandType);
    if (isa<ClampOp>(op)) {
      // clamp = min(max(x, lo), hi).
      Value lo = operands[0], x = operands[1], hi = operands[2];
      switch (kind) {
      case Kind::Float: {
        Type t = x.getType();
        return narrow(minF(maxF(wide(x), wide(lo)), wide(hi)), t);
      }
      case Kind::Signed:
        return arith::MinSIOp::create(b, loc,
                                      arith::MaxSIOp::create(b, loc, x, lo), hi)
            .getResult();
      case Kind::Unsigned:
      case Kind::Pred:
        return arith::MinUIOp::create(b, loc,
                                      arith::MaxUIOp::create(b, loc, x, lo), hi)
            .getResult();
      default:
        return failure();
      }
    }
    if (isa<IsFiniteOp>(op)) {
      if (kind != Kind::Float)
        return failure();
      Value v = wide(operands[0]);
      Value a = math::AbsFOp::create(b, loc, v);
      return cmpf(arith::CmpFPredicate::ONE, a,
                  floatConst(v.getType(), INFINITY));
    }
    if (operands.size() == 1) {
      switch (kind) {
      case Kind::Float:
        return unaryFloat(op, operands[0]);
      case Kind::Complex:
        return unaryComplex(op, operands[0]);
      default:
        return unaryInt(op, operands[0], kind);
      }
    }
    if (operands.size() == 2) {
      switch (kind) {
      case Kind::Float:
        return binaryFloat(op, operands[0], operands[1]);
      case Kind::Complex:
        return binaryComplex(op, operands[0], operands[1]);
      default:
        return binaryInt(op, operands[0], operands[1], kind);
      }
    }
    return failure();
  }
};

/// A block of ops built before they are known to be wanted: dropped
/// cleanly (references first) unless moved out.
struct ScratchBlock {
  Block block;
  ~ScratchBlock() {
    for (Operation &op : block)
      op.dropAllReferences();
    while (!block.empty())
      block.back().erase();
  }
};

} // namespace

Type mlir::hlo::getScalarType(Type t) {
  if (auto it = dyn_cast<IntegerType>(t))
    if (!it.isSignless())
      return IntegerType::get(t.getContext(), it.getWidth());
  return t;
}

FailureOr<SmallVector<Value>> mlir::hlo::emitScalarOp(OpBuilder &b,
                                                      Location loc,
                                                      Operation *hloOp,
                                                      ValueRange operands) {
  // Emit into a scratch block first so that nothing is left behind on
  // failure.
  ScratchBlock scratchBlock;
  Block &scratch = scratchBlock.block;
  OpBuilder sb(b.getContext());
  sb.setInsertionPointToStart(&scratch);
  Emitter e{sb, loc};
  FailureOr<Value> r = e.emit(hloOp, operands);
  if (failed(r) || !*r) {
    InFlightDiagnostic diag =
        hloOp->emitError("cannot be lowered to scalar ops: ")
        << hloOp->getName();
    if (!getDataOperands(hloOp).empty())
      diag << " on " << elementTypeOf(getDataOperands(hloOp)[0]);
    diag << " is not handled";
    return failure();
  }
  // Move what was built to the insertion point.
  Block *block = b.getInsertionBlock();
  Block::iterator at = b.getInsertionPoint();
  block->getOperations().splice(at, scratch.getOperations());
  return SmallVector<Value>{*r};
}

FailureOr<SmallVector<Value>>
mlir::hlo::emitScalarComputation(OpBuilder &b, Location loc,
                                 Region &computation, ValueRange args) {
  if (!computation.hasOneBlock())
    return failure();
  Block &body = computation.front();
  if (body.getNumArguments() != args.size()) {
    emitError(loc) << "scalar computation takes " << body.getNumArguments()
                   << " arguments, " << args.size() << " given";
    return failure();
  }
  IRMapping map;
  for (auto [arg, v] : llvm::zip(body.getArguments(), args)) {
    auto tt = dyn_cast<RankedTensorType>(arg.getType());
    if (!tt || tt.getRank() != 0 ||
        getScalarType(tt.getElementType()) != v.getType()) {
      emitError(loc) << "scalar computation argument " << arg.getArgNumber()
                     << " of type " << arg.getType() << " is not a scalar of "
                     << v.getType();
      return failure();
    }
    map.map(arg, v);
  }
  // Emit into a scratch block, moved to the insertion point on success.
  ScratchBlock scratchBlock;
  Block &scratch = scratchBlock.block;
  OpBuilder sb(b.getContext());
  sb.setInsertionPointToStart(&scratch);
  Emitter e{sb, loc};
  SmallVector<Value> results;
  for (Operation &op : body) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      Value root = op.getOperand(0);
      if (auto tuple = root.getDefiningOp<TupleOp>()) {
        for (Value v : tuple.getInputs())
          results.push_back(map.lookup(v));
      } else {
        results.push_back(map.lookup(root));
      }
      break;
    }
    if (auto tuple = dyn_cast<TupleOp>(op)) {
      if (!tuple->hasOneUse() || !tuple->getUses()
                                      .begin()
                                      ->getOwner()
                                      ->hasTrait<OpTrait::IsTerminator>()) {
        op.emitError("cannot be lowered to scalar ops: a tuple that is not "
                     "the root");
        return failure();
      }
      continue;
    }
    if (auto c = dyn_cast<ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
      auto tt = dyn_cast<RankedTensorType>(c.getType());
      if (!dense || !tt || tt.getRank() != 0 ||
          !isSupportedType(tt.getElementType())) {
        op.emitError("cannot be lowered to scalar ops: not a scalar constant");
        return failure();
      }
      Type st = getScalarType(tt.getElementType());
      Value v;
      if (auto it = dyn_cast<IntegerType>(st)) {
        v = e.intConst(it, dense.getSplatValue<APInt>());
      } else if (auto ft = dyn_cast<FloatType>(st); ft && !isNarrowFloat(ft)) {
        v = arith::ConstantOp::create(
            sb, loc, ft, sb.getFloatAttr(ft, dense.getSplatValue<APFloat>()));
      } else if (auto ft = dyn_cast<FloatType>(st)) {
        // Narrow floats as their bits (not every target has constants of
        // every f8 type).
        APInt bits = dense.getSplatValue<APFloat>().bitcastToAPInt();
        Type it = sb.getIntegerType(ft.getWidth());
        v = arith::BitcastOp::create(sb, loc, ft, e.intConst(it, bits));
      } else {
        auto ct = cast<ComplexType>(st);
        auto value = dense.getSplatValue<std::complex<APFloat>>();
        v = complex::CreateOp::create(
            sb, loc, ct,
            arith::ConstantOp::create(
                sb, loc, ct.getElementType(),
                sb.getFloatAttr(ct.getElementType(), value.real())),
            arith::ConstantOp::create(
                sb, loc, ct.getElementType(),
                sb.getFloatAttr(ct.getElementType(), value.imag())));
      }
      map.map(c.getResult(), v);
      continue;
    }
    SmallVector<Value> operands;
    for (Value v : getDataOperands(&op)) {
      Value m = map.lookupOrNull(v);
      if (!m) {
        op.emitError("cannot be lowered to scalar ops: an operand from "
                     "outside the computation");
        return failure();
      }
      operands.push_back(m);
    }
    if (op.getNumResults() != 1 ||
        !isa<RankedTensorType>(op.getResult(0).getType()) ||
        cast<RankedTensorType>(op.getResult(0).getType()).getRank() != 0) {
      op.emitError("cannot be lowered to scalar ops: not a scalar op");
      return failure();
    }
    FailureOr<SmallVector<Value>> r = emitScalarOp(sb, loc, &op, operands);
    if (failed(r))
      return failure();
    map.map(op.getResult(0), (*r)[0]);
  }
  Block *block = b.getInsertionBlock();
  block->getOperations().splice(b.getInsertionPoint(), scratch.getOperations());
  return results;
}
