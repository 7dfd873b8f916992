//===- Elementwise.cpp - elementwise unary, binary and ternary ops --------===//
//
// Floats are computed in double and rounded to the result type when stored;
// complex numbers in std::complex<double>. Integers follow XLA:
// - add, subtract, multiply, negate and abs wrap around;
// - x / 0 = -1 (all ones for unsigned), x % 0 = x, INT_MIN / -1 = INT_MIN,
//   INT_MIN % -1 = 0;
// - a shift amount is read as unsigned; amounts >= the width give 0 (left,
//   logical right) or the sign fill (arithmetic right);
// - integer power with a negative exponent is 1 for base 1 and 0 otherwise
//   (as XLA computes it, also for base -1).
// maximum/minimum propagate NaN; maximum(-0, +0) is +0, minimum -0.
// compare uses IEEE comparisons for floats (NaN unordered) unless the
// comparison type is TOTALORDER (-NaN < -inf < -0 < +0 < inf < NaN).
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <complex>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;

namespace {
enum class Un {
  Abs,
  Acos,
  Acosh,
  Asin,
  Asinh,
  Atanh,
  Cosh,
  Sinh,
  Cbrt,
  Ceil,
  Clz,
  Cos,
  Erf,
  Exp,
  Expm1,
  Floor,
  Imag,
  IsFinite,
  Log,
  Log1p,
  Logistic,
  Neg,
  Not,
  Popcnt,
  Real,
  RoundAfz,
  RoundEven,
  Rsqrt,
  Sign,
  Sin,
  Sqrt,
  Tan,
  Tanh,
  Copy
};
enum class Bin {
  Add,
  Atan2,
  And,
  Complex,
  Div,
  Max,
  Min,
  Mul,
  Mulhi,
  Or,
  Pow,
  Rem,
  Shl,
  Sra,
  Srl,
  Sub,
  Xor,
  Cmp
};
/// A comparison: direction and whether floats use the total order.
struct Cmp {
  ComparisonDirection direction = ComparisonDirection::EQ;
  bool totalOrder = false;
};
} // namespace

static std::optional<Un> unaryKind(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<Un>>(op)
      .Case([](AbsOp) { return Un::Abs; })
      .Case([](AcosOp) { return Un::Acos; })
      .Case([](AcoshOp) { return Un::Acosh; })
      .Case([](AsinOp) { return Un::Asin; })
      .Case([](AsinhOp) { return Un::Asinh; })
      .Case([](AtanhOp) { return Un::Atanh; })
      .Case([](CoshOp) { return Un::Cosh; })
      .Case([](SinhOp) { return Un::Sinh; })
      .Case([](CbrtOp) { return Un::Cbrt; })
      .Case([](CeilOp) { return Un::Ceil; })
      .Case([](ClzOp) { return Un::Clz; })
      .Case([](CosOp) { return Un::Cos; })
      .Case([](ErfOp) { return Un::Erf; })
      .Case([](ExpOp) { return Un::Exp; })
      .Case([](Expm1Op) { return Un::Expm1; })
      .Case([](FloorOp) { return Un::Floor; })
      .Case([](ImagOp) { return Un::Imag; })
      .Case([](IsFiniteOp) { return Un::IsFinite; })
      .Case([](LogOp) { return Un::Log; })
      .Case([](Log1pOp) { return Un::Log1p; })
      .Case([](LogisticOp) { return Un::Logistic; })
      .Case([](NegOp) { return Un::Neg; })
      .Case([](NotOp) { return Un::Not; })
      .Case([](PopcntOp) { return Un::Popcnt; })
      .Case([](RealOp) { return Un::Real; })
      .Case([](RoundAfzOp) { return Un::RoundAfz; })
      .Case([](RoundEvenOp) { return Un::RoundEven; })
      .Case([](RsqrtOp) { return Un::Rsqrt; })
      .Case([](SignOp) { return Un::Sign; })
      .Case([](SinOp) { return Un::Sin; })
      .Case([](SqrtOp) { return Un::Sqrt; })
      .Case([](TanOp) { return Un::Tan; })
      .Case([](TanhOp) { return Un::Tanh; })
      .Case([](CopyOp) { return Un::Copy; })
      .Default([](Operation *) { return std::nullopt; });
}

static std::optional<Bin> binaryKind(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<Bin>>(op)
      .Case([](AddOp) { return Bin::Add; })
      .Case([](Atan2Op) { return Bin::Atan2; })
      .Case([](AndOp) { return Bin::And; })
      .Case([](ComplexOp) { return Bin::Complex; })
      .Case([](DivOp) { return Bin::Div; })
      .Case([](MaxOp) { return Bin::Max; })
      .Case([](MinOp) { return Bin::Min; })
      .Case([](MulOp) { return Bin::Mul; })
      .Case([](MulhiOp) { return Bin::Mulhi; })
      .Case([](OrOp) { return Bin::Or; })
      .Case([](PowOp) { return Bin::Pow; })
      .Case([](RemOp) { return Bin::Rem; })
      .Case([](ShiftLeftOp) { return Bin::Shl; })
      .Case([](ShiftRightArithmeticOp) { return Bin::Sra; })
      .Case([](ShiftRightLogicalOp) { return Bin::Srl; })
      .Case([](SubtractOp) { return Bin::Sub; })
      .Case([](XorOp) { return Bin::Xor; })
      .Case([](CompareOp) { return Bin::Cmp; })
      .Default([](Operation *) { return std::nullopt; });
}

static Cmp compareInfo(Operation *op) {
  Cmp cmp;
  if (auto c = dyn_cast<CompareOp>(op)) {
    cmp.direction = c.getDirection();
    cmp.totalOrder = c.getComparisonType() == ComparisonType::TOTALORDER;
  }
  return cmp;
}

//===----------------------------------------------------------------------===//
// Unary.
//===----------------------------------------------------------------------===//

static uint64_t widthMask(unsigned width) {
  return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
}

static bool unaryInt(Un k, const Literal &in, int64_t i, Literal &out,
                     int64_t o) {
  int64_t v = in.getInt(i);
  ElementKind kind = in.getElementKind();
  unsigned width = in.getElementBitWidth();
  uint64_t bits = static_cast<uint64_t>(v) & widthMask(width);
  switch (k) {
  case Un::Abs:
    out.setInt(o, kind == ElementKind::Signed && v < 0
                      ? static_cast<int64_t>(0 - static_cast<uint64_t>(v))
                      : v);
    return true;
  case Un::Neg:
    out.setInt(o, static_cast<int64_t>(0 - static_cast<uint64_t>(v)));
    return true;
  case Un::Not:
    out.setInt(o, kind == ElementKind::Pred ? !v : ~v);
    return true;
  case Un::Popcnt:
    out.setInt(o, llvm::popcount(bits));
    return true;
  case Un::Clz:
    out.setInt(o, static_cast<int64_t>(width) -
                      (64 - static_cast<int64_t>(llvm::countl_zero(bits))));
    return true;
  case Un::Sign:
    out.setInt(o, kind == ElementKind::Signed ? (v > 0) - (v < 0) : v != 0);
    return true;
  case Un::Copy:
    out.copyElement(o, in, i);
    return true;
  default:
    return false;
  }
}

static double signOf(double x) {
  if (std::isnan(x) || x == 0.0)
    return x;
  return std::copysign(1.0, x);
}

/// HLO's unary op `k` on a float element, as a function of its value in
/// double precision (setFloat then rounds it to the element type); null for
/// ops that are not such a function.
using FloatFn = double (*)(double);
static FloatFn unaryFloatFn(Un k) {
  switch (k) {
  case Un::Abs:
    return [](double x) { return std::fabs(x); };
  case Un::Acos:
    return [](double x) { return std::acos(x); };
  case Un::Acosh:
    return [](double x) { return std::acosh(x); };
  case Un::Asin:
    return [](double x) { return std::asin(x); };
  case Un::Asinh:
    return [](double x) { return std::asinh(x); };
  case Un::Atanh:
    return [](double x) { return std::atanh(x); };
  case Un::Cosh:
    return [](double x) { return std::cosh(x); };
  case Un::Sinh:
    return [](double x) { return std::sinh(x); };
  case Un::Cbrt:
    return [](double x) { return std::cbrt(x); };
  case Un::Ceil:
    return [](double x) { return std::ceil(x); };
  case Un::Cos:
    return [](double x) { return std::cos(x); };
  case Un::Erf:
    return [](double x) { return std::erf(x); };
  case Un::Exp:
    return [](double x) { return std::exp(x); };
  case Un::Expm1:
    return [](double x) { return std::expm1(x); };
  case Un::Floor:
    return [](double x) { return std::floor(x); };
  case Un::Imag:
    return [](double x) { return 0.0; };
  case Un::Log:
    return [](double x) { return std::log(x); };
  case Un::Log1p:
    return [](double x) { return std::log1p(x); };
  case Un::Logistic:
    return [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
  case Un::Neg:
    return [](double x) { return -x; };
  case Un::Real:
    return [](double x) { return x; };
  case Un::RoundAfz:
    return [](double x) { return std::round(x); };
  case Un::RoundEven:
    return [](double x) { return std::nearbyint(x); };
  case Un::Rsqrt:
    return [](double x) { return 1.0 / std::sqrt(x); };
  case Un::Sign:
    return [](double x) { return signOf(x); };
  case Un::Sin:
    return [](double x) { return std::sin(x); };
  case Un::Sqrt:
    return [](double x) { return std::sqrt(x); };
  case Un::Tan:
    return [](double x) { return std::tan(x); };
  case Un::Tanh:
    return [](double x) { return std::tanh(x); };
  default:
    return nullptr;
  }
}

static bool unaryFloat(Un k, const Literal &in, int64_t i, Literal &out,
                       int64_t o) {
  double x = in.getFloat(i);
  if (FloatFn f = unaryFloatFn(k)) {
    out.setFloat(o, f(x));
    return true;
  }
  switch (k) {
  case Un::IsFinite:
    out.setInt(o, std::isfinite(x));
    return true;
  case Un::Copy:
    out.copyElement(o, in, i);
    return true;
  default:
    return false;
  }
}

static bool unaryComplex(Un k, const Literal &in, int64_t i, Literal &out,
                         int64_t o) {
  using C = std::complex<double>;
  C z = in.getComplex(i);
  C r;
  switch (k) {
  case Un::Abs:
    out.setFloat(o, std::abs(z));
    return true;
  case Un::Real:
    out.setFloat(o, z.real());
    return true;
  case Un::Imag:
    out.setFloat(o, z.imag());
    return true;
  case Un::Copy:
    out.copyElement(o, in, i);
    return true;
  case Un::Acos:
    r = std::acos(z);
    break;
  case Un::Acosh:
    r = std::acosh(z);
    break;
  case Un::Asin:
    r = std::asin(z);
    break;
  case Un::Asinh:
    r = std::asinh(z);
    break;
  case Un::Atanh:
    r = std::atanh(z);
    break;
  case Un::Cosh:
    r = std::cosh(z);
    break;
  case Un::Sinh:
    r = std::sinh(z);
    break;
  case Un::Cbrt:
    r = std::pow(z, 1.0 / 3.0);
    break;
  case Un::Cos:
    r = std::cos(z);
    break;
  case Un::Exp:
    r = std::exp(z);
    break;
  case Un::Expm1:
    r = std::exp(z) - 1.0;
    break;
  case Un::Log:
    r = std::log(z);
    break;
  case Un::Log1p:
    r = std::log(1.0 + z);
    break;
  case Un::Logistic:
    r = 1.0 / (1.0 + std::exp(-z));
    break;
  case Un::Neg:
    r = -z;
    break;
  case Un::Rsqrt:
    r = 1.0 / std::sqrt(z);
    break;
  case Un::Sign:
    r = z == C(0.0, 0.0) ? z : z / std::abs(z);
    break;
  case Un::Sin:
    r = std::sin(z);
    break;
  case Un::Sqrt:
    r = std::sqrt(z);
    break;
  case Un::Tan:
    r = std::tan(z);
    break;
  case Un::Tanh:
    r = std::tanh(z);
    break;
  default:
    return false;
  }
  out.setComplex(o, r);
  return true;
}

static bool unaryElement(Un k, const Literal &in, int64_t i, Literal &out,
                         int64_t o) {
  switch (in.getElementKind()) {
  case ElementKind::Float:
    return unaryFloat(k, in, i, out, o);
  case ElementKind::Complex:
    return unaryComplex(k, in, i, out, o);
  default:
    return unaryInt(k, in, i, out, o);
  }
}

//===----------------------------------------------------------------------===//
// Binary.
//===----------------------------------------------------------------------===//

template <typename T> static bool compareWith(ComparisonDirection d, T a, T b) {
  switch (d) {
  case ComparisonDirection::EQ:
    return a == b;
  case ComparisonDirection::NE:
    return a != b;
  case ComparisonDirection::GE:
    return a >= b;
  case ComparisonDirection::GT:
    return a > b;
  case ComparisonDirection::LE:
    return a <= b;
  case ComparisonDirection::LT:
    return a < b;
  }
  return false;
}

/// Integer power by squaring, wrapping.
static uint64_t intPow(uint64_t base, uint64_t exp) {
  uint64_t result = 1;
  while (exp) {
    if (exp & 1)
      result *= base;
    base *= base;
    exp >>= 1;
  }
  return result;
}

static bool binaryInt(Bin k, Cmp cmp, const Literal &a, int64_t i,
                      const Literal &b, int64_t j, Literal &out, int64_t o) {
  int64_t sa = a.getInt(i), sb = b.getInt(j);
  uint64_t ua = static_cast<uint64_t>(sa), ub = static_cast<uint64_t>(sb);
  bool isSigned = a.getElementKind() == ElementKind::Signed;
  unsigned width = a.getElementBitWidth();
  uint64_t mask = widthMask(width);
  auto set = [&](uint64_t v) { out.setInt(o, static_cast<int64_t>(v)); };
  // The operand bits read as a signed value of `width` bits.
  auto sext = [&](uint64_t v) {
    v &= mask;
    if (width < 64 && (v >> (width - 1)) & 1)
      v |= ~mask;
    return static_cast<int64_t>(v);
  };
  switch (k) {
  case Bin::Add:
    set(ua + ub);
    return true;
  case Bin::Sub:
    set(ua - ub);
    return true;
  case Bin::Mul:
    set(ua * ub);
    return true;
  case Bin::And:
    set(ua & ub);
    return true;
  case Bin::Or:
    set(ua | ub);
    return true;
  case Bin::Xor:
    set(ua ^ ub);
    return true;
  case Bin::Div:
    if (sb == 0)
      set(~uint64_t(0));
    else if (!isSigned)
      set(ua / ub);
    else if (sb == -1)
      set(0 - ua); // INT_MIN / -1 wraps to INT_MIN
    else
      set(static_cast<uint64_t>(sa / sb));
    return true;
  case Bin::Rem:
    if (sb == 0)
      set(ua);
    else if (!isSigned)
      set(ua % ub);
    else if (sb == -1)
      set(0);
    else
      set(static_cast<uint64_t>(sa % sb));
    return true;
  case Bin::Max:
    set(isSigned ? (sa > sb ? ua : ub) : (ua > ub ? ua : ub));
    return true;
  case Bin::Min:
    set(isSigned ? (sa < sb ? ua : ub) : (ua < ub ? ua : ub));
    return true;
  case Bin::Shl: {
    uint64_t amount = ub & mask;
    set(amount >= width ? 0 : ua << amount);
    return true;
  }
  case Bin::Srl: {
    uint64_t amount = ub & mask;
    set(amount >= width ? 0 : (ua & mask) >> amount);
    return true;
  }
  case Bin::Sra: {
    uint64_t amount = ub & mask;
    int64_t v = sext(ua);
    set(static_cast<uint64_t>(amount >= width ? (v < 0 ? -1 : 0)
                                              : v >> amount));
    return true;
  }
  case Bin::Pow:
    if (isSigned && sb < 0)
      set(sa == 1 ? 1 : 0);
    else
      set(intPow(ua, ub));
    return true;
  case Bin::Mulhi:
    if (isSigned)
      set(static_cast<uint64_t>(static_cast<__int128>(sa) * sb >> width));
    else
      set(static_cast<uint64_t>(
          static_cast<unsigned __int128>(ua & mask) * (ub & mask) >> width));
    return true;
  case Bin::Cmp:
    out.setInt(o, isSigned ? compareWith(cmp.direction, sa, sb)
                           : compareWith(cmp.direction, ua & mask, ub & mask));
    return true;
  default:
    return false;
  }
}

/// HLO's binary op `k` on float elements, as a function of their values in
/// double precision (setFloat then rounds it to the element type); null for
/// ops that are not such a function.
using FloatFn2 = double (*)(double, double);
static FloatFn2 binaryFloatFn(Bin k) {
  switch (k) {
  case Bin::Add:
    return [](double x, double y) { return x + y; };
  case Bin::Sub:
    return [](double x, double y) { return x - y; };
  case Bin::Mul:
    return [](double x, double y) { return x * y; };
  case Bin::Div:
    return [](double x, double y) { return x / y; };
  case Bin::Max:
    return [](double x, double y) { return floatMax(x, y); };
  case Bin::Min:
    return [](double x, double y) { return floatMin(x, y); };
  case Bin::Pow:
    return [](double x, double y) { return std::pow(x, y); };
  case Bin::Rem:
    return [](double x, double y) { return std::fmod(x, y); };
  case Bin::Atan2:
    return [](double x, double y) { return std::atan2(x, y); };
  default:
    return nullptr;
  }
}

static bool binaryFloat(Bin k, Cmp cmp, const Literal &a, int64_t i,
                        const Literal &b, int64_t j, Literal &out, int64_t o) {
  double x = a.getFloat(i), y = b.getFloat(j);
  if (FloatFn2 f = binaryFloatFn(k)) {
    out.setFloat(o, f(x, y));
    return true;
  }
  switch (k) {
  case Bin::Complex:
    out.setComplex(o, {x, y});
    return true;
  case Bin::Cmp:
    out.setInt(o, cmp.totalOrder ? compareWith(cmp.direction, totalOrderKey(x),
                                               totalOrderKey(y))
                                 : compareWith(cmp.direction, x, y));
    return true;
  default:
    return false;
  }
}

static bool binaryComplex(Bin k, Cmp cmp, const Literal &a, int64_t i,
                          const Literal &b, int64_t j, Literal &out,
                          int64_t o) {
  using C = std::complex<double>;
  C x = a.getComplex(i), y = b.getComplex(j);
  C r;
  switch (k) {
  case Bin::Add:
    r = x + y;
    break;
  case Bin::Sub:
    r = x - y;
    break;
  case Bin::Mul:
    r = x * y;
    break;
  case Bin::Div:
    r = x / y;
    break;
  case Bin::Pow:
    r = y == C(0.0, 0.0) ? C(1.0, 0.0) : std::pow(x, y);
    break;
  case Bin::Cmp:
    if (cmp.direction == ComparisonDirection::EQ)
      out.setInt(o, x == y);
    else if (cmp.direction == ComparisonDirection::NE)
      out.setInt(o, x != y);
    else
      return false;
    return true;
  default:
    return false;
  }
  out.setComplex(o, r);
  return true;
}

static bool binaryElement(Bin k, Cmp cmp, const Literal &a, int64_t i,
                          const Literal &b, int64_t j, Literal &out,
                          int64_t o) {
  switch (a.getElementKind()) {
  case ElementKind::Float:
    return binaryFloat(k, cmp, a, i, b, j, out, o);
  case ElementKind::Complex:
    return binaryComplex(k, cmp, a, i, b, j, out, o);
  default:
    return binaryInt(k, cmp, a, i, b, j, out, o);
  }
}

//===----------------------------------------------------------------------===//
// Ops.
//===----------------------------------------------------------------------===//

/// Index into an operand that may be a scalar standing for an array.
static int64_t at(const Literal &l, int64_t i) {
  return l.getRank() == 0 ? 0 : i;
}

static bool clampElement(const Literal &lo, int64_t li, const Literal &x,
                         int64_t xi, const Literal &hi, int64_t hi_,
                         Literal &out, int64_t o) {
  // clamp = min(max(x, lo), hi), with max(x, lo) held in out[o] (each
  // element function reads its operands before it writes).
  return binaryElement(Bin::Max, {}, x, xi, lo, li, out, o) &&
         binaryElement(Bin::Min, {}, out, o, hi, hi_, out, o);
}

/// A bitcast-convert between element types of one width (neither pred nor
/// complex): each element's bits kept, the shape unchanged; also a
/// scalar's bitcast between them (which XLA's layout-sensitive passes make
/// of such a bitcast-convert).
static bool isSameWidthBitcast(Operation *op) {
  auto in = dyn_cast<ShapedType>(op->getOperand(0).getType());
  auto out = dyn_cast<ShapedType>(op->getResult(0).getType());
  if (!in || !out || (isa<BitcastOp>(op) && (in.getRank() || out.getRank())))
    return false;
  Type a = in.getElementType(), b = out.getElementType();
  auto plain = [](Type t) {
    return isa<FloatType, IntegerType>(t) && !t.isInteger(1);
  };
  return plain(a) && plain(b) &&
         a.getIntOrFloatBitWidth() == b.getIntOrFloatBitWidth();
}

std::optional<ElementwiseFn> ElementwiseFn::get(Operation *op) {
  ElementwiseFn fn;
  if (auto k = unaryKind(op)) {
    fn.kind = Kind::Unary;
    fn.code = static_cast<uint8_t>(*k);
  } else if (auto k = binaryKind(op)) {
    fn.kind = Kind::Binary;
    fn.code = static_cast<uint8_t>(*k);
    Cmp cmp = compareInfo(op);
    fn.direction = static_cast<uint8_t>(cmp.direction);
    fn.totalOrder = cmp.totalOrder;
  } else if (isa<SelectOp>(op)) {
    fn.kind = Kind::Select;
  } else if (isa<ClampOp>(op)) {
    fn.kind = Kind::Clamp;
  } else if (isa<ConvertOp>(op)) {
    fn.kind = Kind::Convert;
  } else if (isa<BitcastConvertOp, BitcastOp>(op) && isSameWidthBitcast(op)) {
    fn.kind = Kind::Bitcast;
  } else {
    return std::nullopt;
  }
  return fn;
}

bool ElementwiseFn::apply(ArrayRef<const Literal *> args, ArrayRef<int64_t> idx,
                          Literal &out, int64_t o) const {
  switch (kind) {
  case Kind::Unary:
    return unaryElement(static_cast<Un>(code), *args[0], idx[0], out, o);
  case Kind::Binary: {
    Cmp cmp{static_cast<ComparisonDirection>(direction), totalOrder};
    return binaryElement(static_cast<Bin>(code), cmp, *args[0], idx[0],
                         *args[1], idx[1], out, o);
  }
  case Kind::Select: {
    bool p = !args[0]->isZero(idx[0]);
    out.copyElement(o, p ? *args[1] : *args[2], p ? idx[1] : idx[2]);
    return true;
  }
  case Kind::Clamp:
    return clampElement(*args[0], idx[0], *args[1], idx[1], *args[2], idx[2],
                        out, o);
  case Kind::Convert:
    convertElement(*args[0], idx[0], out, o);
    return true;
  case Kind::Bitcast:
    out.setBits(o, args[0]->getBits(idx[0]));
    return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Typed loops.
//===----------------------------------------------------------------------===//
//
// The common cases over whole arrays without the per-element dispatch: f32
// and f64 arrays through the float functions above, integer and pred arrays
// through their stored values. Each stores what the element functions
// store, bit for bit: setFloat rounds a double to f32 as the conversion
// does, NaNs included (their payload's high bits and sign kept; the double
// is never a signaling NaN, having been computed or converted from f32);
// false where a case does not apply, and the element functions run.

/// r[i] = value(i) as setFloat stores it in an f32 or f64 array.
template <typename T, typename Value>
static void storeFloats(MutableArrayRef<T> r, Value value) {
  for (int64_t i = 0, n = r.size(); i < n; ++i)
    r[i] = static_cast<T>(value(i));
}

template <typename T>
static bool floatLoops(Un k, ArrayRef<T> x, MutableArrayRef<T> r) {
  FloatFn f = unaryFloatFn(k);
  if (!f || r.size() != x.size())
    return false;
  storeFloats(r, [&](int64_t i) { return f(x[i]); });
  return true;
}

static bool unaryLoops(Un k, const Literal &in, Literal &out) {
  Type type = in.getElementType();
  if (type != out.getElementType())
    return false;
  if (type.isF32())
    return floatLoops(k, in.getFloatElements<float>(),
                      out.getFloatElements<float>());
  if (type.isF64())
    return floatLoops(k, in.getFloatElements<double>(),
                      out.getFloatElements<double>());
  return false;
}

template <typename T>
static bool floatLoops(Bin k, Cmp cmp, ArrayRef<T> x, ArrayRef<T> y,
                       Literal &out) {
  if (k == Bin::Cmp) {
    if (cmp.totalOrder || out.getElementKind() != ElementKind::Pred)
      return false;
    MutableArrayRef<int64_t> r = out.getIntElements();
    for (int64_t i = 0, n = r.size(); i < n; ++i)
      r[i] = compareWith<double>(cmp.direction, x[i], y[i]);
    return true;
  }
  FloatFn2 f = binaryFloatFn(k);
  MutableArrayRef<T> r = out.getFloatElements<T>();
  if (!f || r.size() != x.size())
    return false;
  // The most common ones inline (binaryFloatFn's expressions), so that the
  // compiler can vectorize them; it may then swap the operands of an add or
  // multiply, so which NaN comes out of two is the table function's again.
  auto loop = [&](auto g) {
    storeFloats(r, [&](int64_t i) { return g(x[i], y[i]); });
    for (int64_t i = 0, n = r.size(); i < n; ++i)
      if (std::isnan(r[i]))
        r[i] = static_cast<T>(f(x[i], y[i]));
    return true;
  };
  switch (k) {
  case Bin::Add:
    return loop([](double a, double b) { return a + b; });
  case Bin::Sub:
    return loop([](double a, double b) { return a - b; });
  case Bin::Mul:
    return loop([](double a, double b) { return a * b; });
  case Bin::Div:
    return loop([](double a, double b) { return a / b; });
  case Bin::Max:
    return loop(floatMax);
  case Bin::Min:
    return loop(floatMin);
  default:
    return loop(f);
  }
}

/// What binaryInt computes for `k`, on the stored values of integer or pred
/// elements (before the result's wrapping).
static bool intLoops(Bin k, Cmp cmp, const Literal &a, const Literal &b,
                     Literal &out) {
  ArrayRef<int64_t> x = a.getIntElements(), y = b.getIntElements();
  MutableArrayRef<int64_t> r = out.getIntElements();
  if (r.size() != x.size() || y.size() != x.size())
    return false;
  bool isSigned = a.getElementKind() == ElementKind::Signed;
  uint64_t mask = widthMask(a.getElementBitWidth());
  auto loop = [&](auto f) {
    for (int64_t i = 0, n = r.size(); i < n; ++i)
      r[i] = out.wrapInt(
          static_cast<int64_t>(f(static_cast<uint64_t>(x[i]),
                                 static_cast<uint64_t>(y[i]), x[i], y[i])));
    return true;
  };
  switch (k) {
  case Bin::Add:
    return loop([](uint64_t u, uint64_t v, int64_t, int64_t) { return u + v; });
  case Bin::Sub:
    return loop([](uint64_t u, uint64_t v, int64_t, int64_t) { return u - v; });
  case Bin::Mul:
    return loop([](uint64_t u, uint64_t v, int64_t, int64_t) { return u * v; });
  case Bin::And:
    return loop([](uint64_t u, uint64_t v, int64_t, int64_t) { return u & v; });
  case Bin::Or:
    return loop([](uint64_t u, uint64_t v, int64_t, int64_t) { return u | v; });
  case Bin::Xor:
    return loop([](uint64_t u, uint64_t v, int64_t, int64_t) { return u ^ v; });
  case Bin::Max:
    if (isSigned)
      return loop([](uint64_t u, uint64_t v, int64_t p, int64_t q) {
        return p > q ? u : v;
      });
    return loop(
        [](uint64_t u, uint64_t v, int64_t, int64_t) { return u > v ? u : v; });
  case Bin::Min:
    if (isSigned)
      return loop([](uint64_t u, uint64_t v, int64_t p, int64_t q) {
        return p < q ? u : v;
      });
    return loop(
        [](uint64_t u, uint64_t v, int64_t, int64_t) { return u < v ? u : v; });
  case Bin::Cmp:
    if (out.getElementKind() != ElementKind::Pred)
      return false;
    if (isSigned)
      return loop([&](uint64_t, uint64_t, int64_t p, int64_t q) {
        return uint64_t(compareWith(cmp.direction, p, q));
      });
    return loop([&](uint64_t u, uint64_t v, int64_t, int64_t) {
      return uint64_t(compareWith(cmp.direction, u & mask, v & mask));
    });
  default:
    return false;
  }
}

static bool binaryLoops(Bin k, Cmp cmp, const Literal &a, const Literal &b,
                        Literal &out) {
  Type type = a.getElementType();
  if (type != b.getElementType() || a.getShape() != b.getShape())
    return false;
  if (k != Bin::Cmp && type != out.getElementType())
    return false;
  if (type.isF32())
    return floatLoops(k, cmp, a.getFloatElements<float>(),
                      b.getFloatElements<float>(), out);
  if (type.isF64())
    return floatLoops(k, cmp, a.getFloatElements<double>(),
                      b.getFloatElements<double>(), out);
  if (isa<IntegerType>(type))
    return intLoops(k, cmp, a, b, out);
  return false;
}

EvalResult eval::evalElementwiseOp(Interp &interp, Operation *op,
                                   Operands operands) {
  std::optional<Un> un = unaryKind(op);
  std::optional<Bin> bin = un ? std::nullopt : binaryKind(op);
  if (!un && !bin && !isa<SelectOp, ClampOp>(op))
    return std::nullopt;
  auto result = makeResult(interp, op);
  if (failed(result))
    return FailureOr<Literal>(failure());
  Literal &out = *result;
  int64_t n = out.getNumElements();
  Cmp cmp = compareInfo(op);
  auto unsupported = [&]() -> EvalResult {
    return interp.error(op,
                        "does not support element type " +
                            getElementTypeName(operands[0]->getElementType()));
  };
  if (un) {
    if (unaryLoops(*un, *operands[0], out))
      return std::move(out);
    for (int64_t i = 0; i < n; ++i)
      if (!unaryElement(*un, *operands[0], i, out, i))
        return unsupported();
  } else if (bin) {
    if (binaryLoops(*bin, cmp, *operands[0], *operands[1], out))
      return std::move(out);
    for (int64_t i = 0; i < n; ++i)
      if (!binaryElement(*bin, cmp, *operands[0], i, *operands[1], i, out, i))
        return unsupported();
  } else if (isa<SelectOp>(op)) {
    const Literal &p = *operands[0];
    for (int64_t i = 0; i < n; ++i) {
      bool t = !p.isZero(at(p, i));
      out.copyElement(i, *operands[t ? 1 : 2], i);
    }
  } else {
    const Literal &lo = *operands[0], &x = *operands[1], &hi = *operands[2];
    for (int64_t i = 0; i < n; ++i)
      if (!clampElement(lo, at(lo, i), x, i, hi, at(hi, i), out, i))
        return unsupported();
  }
  return std::move(out);
}
