//===- Convert.cpp - element type conversions -----------------------------===//
//
// convert, bitcast-convert, reduce-precision and stochastic-convert.
//
// convert: integer to integer wraps; float to integer truncates toward zero,
// saturates at the type's range and maps NaN to 0; anything to pred is
// `x != 0`; integer and float to float round to nearest even (from the
// exact value, so 64-bit integers round once); complex to real keeps the
// real part. bitcast-convert reinterprets bits, splitting or joining
// elements in little-endian order when the widths differ (the smaller type
// gets a new minor dimension).
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;

/// The value of integer element `i` of `in` as a double of float type
/// `floatType`, rounded once.
static double intToFloat(const Literal &in, int64_t i, Type floatType) {
  int64_t v = in.getInt(i);
  bool isUnsigned = in.getElementKind() == ElementKind::Unsigned;
  bool exact = isUnsigned ? static_cast<uint64_t>(v) < (uint64_t(1) << 53)
                          : (v > -(int64_t(1) << 53) && v < (int64_t(1) << 53));
  // A type without a sign (f8E8M0FNU) makes every negative value NaN, as
  // the exact path below does.
  if (exact || (!isUnsigned && v < 0 &&
                !llvm::APFloat::semanticsHasSignedRepr(
                    cast<FloatType>(floatType).getFloatSemantics())))
    return roundToFloatType(isUnsigned
                                ? static_cast<double>(static_cast<uint64_t>(v))
                                : static_cast<double>(v),
                            floatType);
  llvm::APFloat f(cast<FloatType>(floatType).getFloatSemantics());
  f.convertFromAPInt(APInt(64, static_cast<uint64_t>(v)), !isUnsigned,
                     llvm::APFloat::rmNearestTiesToEven);
  return bitsToFloat(f.bitcastToAPInt(), floatType);
}

void eval::convertElement(const Literal &in, int64_t i, Literal &out,
                          int64_t k) {
  ElementKind from = in.getElementKind(), to = out.getElementKind();
  bool fromInt = from == ElementKind::Pred || from == ElementKind::Signed ||
                 from == ElementKind::Unsigned;
  switch (to) {
  case ElementKind::Pred:
    out.setInt(k, !in.isZero(i));
    return;
  case ElementKind::Signed:
  case ElementKind::Unsigned:
    if (fromInt)
      out.setInt(k, in.getInt(i));
    else
      out.setFloat(k, in.getFloat(i)); // saturating, NaN -> 0
    return;
  case ElementKind::Float:
    out.setFloat(k, fromInt ? intToFloat(in, i, out.getElementType())
                            : in.getFloat(i));
    return;
  case ElementKind::Complex: {
    if (from == ElementKind::Complex) {
      out.setComplex(k, in.getComplex(i));
      return;
    }
    Type part = cast<ComplexType>(out.getElementType()).getElementType();
    out.setComplex(k,
                   {fromInt ? intToFloat(in, i, part) : in.getFloat(i), 0.0});
    return;
  }
  }
}

/// reduce-precision on the bits of `v` in its type: round the mantissa to
/// `mantissaBits` (nearest even), then overflow to inf and flush values
/// below the reduced format's smallest normal to zero. NaN stays NaN when
/// mantissaBits > 0.
double eval::reducePrecision(double v, Type type, int64_t exponentBits,
                             int64_t mantissaBits) {
  const llvm::fltSemantics &sem = cast<FloatType>(type).getFloatSemantics();
  unsigned width = llvm::APFloat::getSizeInBits(sem);
  int64_t m = llvm::APFloat::semanticsPrecision(sem) - 1;
  int64_t e = width - 1 - m;
  uint64_t all = width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  uint64_t bits = floatToBits(v, type).getZExtValue();
  if (mantissaBits < m) {
    uint64_t last = uint64_t(1) << (m - mantissaBits);
    uint64_t bias = ((last >> 1) - 1) + ((bits & last) >> (m - mantissaBits));
    bits = ((bits + bias) & ~(last - 1)) & all;
  }
  if (exponentBits < e && exponentBits > 0) {
    uint64_t signMask = uint64_t(1) << (width - 1);
    uint64_t expMask = ((uint64_t(1) << e) - 1) << m;
    int64_t typeBias = (int64_t(1) << (e - 1)) - 1;
    int64_t reducedBias = (int64_t(1) << (exponentBits - 1)) - 1;
    uint64_t maxExp = static_cast<uint64_t>(typeBias + reducedBias) << m;
    uint64_t minExp = static_cast<uint64_t>(typeBias - reducedBias) << m;
    uint64_t exp = bits & expMask;
    if (exp > maxExp)
      bits = (bits & signMask) | expMask;
    else if (exp <= minExp)
      bits = bits & signMask;
  }
  if (std::isnan(v) && mantissaBits > 0)
    return v;
  return bitsToFloat(APInt(width, bits), type);
}

/// bitcast-convert of a whole array.
static FailureOr<Literal> bitcastConvert(Interp &interp, Operation *op,
                                         const Literal &in) {
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  Literal &out = *result;
  unsigned inWidth = getElementBitWidth(in.getElementType());
  unsigned outWidth = getElementBitWidth(out.getElementType());
  if (in.getElementKind() == ElementKind::Complex)
    inWidth *= 2;
  if (out.getElementKind() == ElementKind::Complex)
    outWidth *= 2;
  if (in.getElementKind() == ElementKind::Pred ||
      out.getElementKind() == ElementKind::Pred)
    if (inWidth != outWidth)
      return interp.error(op, "cannot bitcast-convert pred to another width");
  int64_t n = out.getNumElements();
  if (inWidth == outWidth) {
    for (int64_t i = 0; i < n; ++i)
      out.setBits(i, in.getBits(i));
  } else if (inWidth > outWidth) {
    // Each input element becomes inWidth / outWidth output elements.
    unsigned ratio = inWidth / outWidth;
    for (int64_t i = 0; i < n; ++i) {
      APInt bits = in.getBits(i / ratio);
      out.setBits(i, bits.lshr((i % ratio) * outWidth).trunc(outWidth));
    }
  } else {
    unsigned ratio = outWidth / inWidth;
    for (int64_t i = 0; i < n; ++i) {
      APInt bits(outWidth, 0);
      for (unsigned j = 0; j < ratio; ++j)
        bits |= in.getBits(i * ratio + j).zext(outWidth).shl(j * inWidth);
      out.setBits(i, bits);
    }
  }
  return std::move(out);
}

/// stochastic-convert of a float to an integer, as XLA's evaluator: the
/// magnitude is rounded up when the random bits (an unsigned integer of
/// `width` bits) are below the fractional part as a `width`-bit fixed-point
/// number (frac * 2^width, truncated), else truncated; the result
/// saturates; NaN gives 0.
static FailureOr<Literal> stochasticConvert(Interp &interp, Operation *op,
                                            const Literal &in,
                                            const Literal &random) {
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  Literal &out = *result;
  if (in.getElementKind() != ElementKind::Float ||
      (out.getElementKind() != ElementKind::Signed &&
       out.getElementKind() != ElementKind::Unsigned))
    return interp.error(op, "only float to integer is supported");
  unsigned width = getElementBitWidth(random.getElementType());
  for (int64_t i = 0, n = out.getNumElements(); i < n; ++i) {
    double x = in.getFloat(i);
    if (std::isnan(x)) {
      out.setInt(i, 0);
      continue;
    }
    double whole = std::trunc(x);
    double frac = std::fabs(x - whole);
    uint64_t r = static_cast<uint64_t>(random.getInt(i)) &
                 (width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1);
    // frac < 1, so the fixed-point fraction fits in `width` bits.
    auto fixed = static_cast<uint64_t>(std::ldexp(frac, width));
    if (r < fixed)
      whole += x < 0 ? -1.0 : 1.0;
    out.setFloat(i, whole);
  }
  return std::move(out);
}

EvalResult eval::evalConvertOp(Interp &interp, Operation *op,
                               Operands operands) {
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case<ConvertOp>([&](auto) -> EvalResult {
        auto result = makeResult(interp, op);
        if (failed(result))
          return FailureOr<Literal>(failure());
        for (int64_t i = 0, n = result->getNumElements(); i < n; ++i)
          convertElement(*operands[0], i, *result, i);
        return std::move(*result);
      })
      .Case<BitcastConvertOp>([&](auto) -> EvalResult {
        return bitcastConvert(interp, op, *operands[0]);
      })
      .Case<ReducePrecisionOp>([&](ReducePrecisionOp rp) -> EvalResult {
        Literal out = *operands[0];
        if (out.getElementKind() != ElementKind::Float)
          return interp.error(op, "needs a floating-point operand");
        for (int64_t i = 0, n = out.getNumElements(); i < n; ++i)
          out.setFloat(i, reducePrecision(out.getFloat(i), out.getElementType(),
                                          rp.getExponentBits(),
                                          rp.getMantissaBits()));
        return std::move(out);
      })
      .Case<StochasticConvertOp>([&](auto) -> EvalResult {
        return stochasticConvert(interp, op, *operands[0], *operands[1]);
      })
      .Default([](Operation *) -> EvalResult { return std::nullopt; });
}
