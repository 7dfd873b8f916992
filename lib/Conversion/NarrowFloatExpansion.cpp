//===- NarrowFloatExpansion.cpp - narrow float converts as integer ops ----===//
//
// arith.extf / arith.truncf between a float narrower than 32 bits (f16,
// bf16, the f8 variants with a sign, a zero and NaN) and f32 / f64 as
// integer operations on the bits, for targets that have no conversion for
// the narrow type (the host JIT: none of them; NVPTX: those narrower than
// 16 bits). The constants of each format (bias, largest value, NaN and inf
// encodings) come from its APFloat semantics, so the IEEE-like formats
// (f16, bf16, f8E5M2, f8E4M3, f8E3M4), the finite formats with an all-ones
// NaN (f8E4M3FN), the formats whose NaN is the negative zero (the FNUZ
// variants) and the formats without NaN or inf (f4E2M1FN, f6E2M3FN,
// f6E3M2FN) share one rule, the reference interpreter's:
//
// - truncf rounds to nearest even: values in the narrow type's normal range
//   by rounding the mantissa bits and rebiasing the exponent; smaller values
//   by shifting the significand (with its hidden bit) right with the dropped
//   bits rounded; a result past the largest finite value becomes inf (NaN
//   where the type has no inf, the largest value where it has neither); NaN
//   becomes the type's quiet NaN (-0 where it has none).
// - extf is exact: normal values rebias the exponent, denormals are their
//   integer significand times the smallest denormal, NaN and inf map over.
// - sitofp / uitofp to a narrow float (which the canonicalizer folds an
//   exact int-to-f64 conversion and a truncf into) go through f64 and
//   truncf.
//
// f8E8M0FNU (an exponent only: 2^(b - 127), no sign, no zero, NaN 0xFF) has
// its own rule: truncf rounds a positive value's significand 1.m up when m
// >= 1/2 (APFloat's rounding of a one-bit significand: ties up), values
// below 2^-127 become 2^-127, values past 2^127 and anything not positive
// (zeros, negatives, inf, NaN) NaN; extf makes 2^(b - 127).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Conversion/ScalarLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;

namespace {

/// The constants of a float format, as unsigned integers of its width.
struct Format {
  unsigned width = 0;
  int64_t mantissa = 0; // stored mantissa bits
  int64_t bias = 0;     // 1 - minExponent
  int64_t minExponent = 0;
  uint64_t largest = 0; // bits of the largest finite value
  uint64_t qnan = 0;    // bits of the quiet NaN
  std::optional<uint64_t> inf;
  bool nanIsNegativeZero = false;

  static std::optional<Format> get(FloatType t) {
    const llvm::fltSemantics &sem = t.getFloatSemantics();
    if (!llvm::APFloat::semanticsHasSignedRepr(sem) ||
        !llvm::APFloat::semanticsHasZero(sem))
      return std::nullopt;
    Format f;
    f.width = t.getWidth();
    f.mantissa = llvm::APFloat::semanticsPrecision(sem) - 1;
    f.minExponent = llvm::APFloat::semanticsMinExponent(sem);
    f.bias = 1 - f.minExponent;
    f.largest = llvm::APFloat::getLargest(sem).bitcastToAPInt().getZExtValue();
    if (llvm::APFloat::semanticsHasNaN(sem))
      f.qnan = llvm::APFloat::getQNaN(sem).bitcastToAPInt().getZExtValue();
    else
      f.hasNaN = false;
    if (llvm::APFloat::semanticsHasInf(sem))
      f.inf = llvm::APFloat::getInf(sem).bitcastToAPInt().getZExtValue();
    f.nanIsNegativeZero = f.hasNaN && f.qnan == uint64_t(1) << (f.width - 1);
    return f;
  }
  bool hasNaN = true;
};

bool isE8M0(Type t) { return isa<Float8E8M0FNUType>(t); }

/// Narrow floats this expansion takes: all but f8E8M0FNU through Format,
/// f8E8M0FNU by its own rule; with `below16`, only those narrower than 16
/// bits.
bool isNarrow(Type t, bool below16 = false) {
  auto ft = dyn_cast<FloatType>(t);
  if (!ft || ft.getWidth() >= (below16 ? 16u : 32u))
    return false;
  return isE8M0(ft) || Format::get(ft);
}

struct IntBuilder {
  PatternRewriter &b;
  Location loc;
  Type t;
  Value c(uint64_t v) {
    return arith::ConstantOp::create(
        b, loc, t, IntegerAttr::get(t, APInt(t.getIntOrFloatBitWidth(), v)));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value band(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value bor(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value shl(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
  Value shr(Value x, Value y) { return arith::ShRUIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value sel(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
};

/// f32 or f64 `in` (format `s`) to the bits of f8E8M0FNU, in an integer of
/// the source's width.
Value truncToE8M0(IntBuilder &i, Value bits, const Format &s) {
  using P = arith::CmpIPredicate;
  unsigned sw = s.width;
  uint64_t signMask = uint64_t(1) << (sw - 1);
  Value abs = i.band(bits, i.c(signMask - 1));
  Value nan = i.c(0xFF);
  // Zeros, negatives, inf and NaN: NaN.
  Value notPositive = arith::OrIOp::create(
      i.b, i.loc, i.cmp(P::uge, bits, i.c(signMask)),
      arith::OrIOp::create(i.b, i.loc, i.cmp(P::eq, abs, i.c(0)),
                           i.cmp(P::uge, abs, i.c(*s.inf))));
  Value e = i.shr(abs, i.c(s.mantissa));
  Value m = i.band(abs, i.c((uint64_t(1) << s.mantissa) - 1));
  // Normal: the exponent, rounded up when m >= 1/2, rebiased (below
  // 2^-127: 2^-127; past 2^127: NaN).
  Value up = arith::ExtUIOp::create(
      i.b, i.loc, i.t, i.cmp(P::uge, m, i.c(uint64_t(1) << (s.mantissa - 1))));
  Value biased = i.add(e, up);
  uint64_t low = s.bias - 127;
  Value b =
      i.sel(i.cmp(P::ugt, biased, i.c(low)), i.sub(biased, i.c(low)), i.c(0));
  b = i.sel(i.cmp(P::ugt, b, i.c(254)), nan, b);
  if (s.bias == 127) {
    // f32 denormals: [2^-127, 2^-126) rounds to 2^-126 from 1.5 * 2^-127.
    Value denormal = arith::ExtUIOp::create(
        i.b, i.loc, i.t,
        i.cmp(P::uge, m, i.c(uint64_t(3) << (s.mantissa - 2))));
    b = i.sel(i.cmp(P::eq, e, i.c(0)), denormal, b);
  }
  return i.sel(notPositive, nan, b);
}

struct ExpandTruncF : OpRewritePattern<arith::TruncFOp> {
  ExpandTruncF(MLIRContext *ctx, bool below16)
      : OpRewritePattern(ctx), below16(below16) {}
  bool below16;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    auto src = dyn_cast<FloatType>(op.getIn().getType());
    auto dst = dyn_cast<FloatType>(op.getType());
    if (!src || !dst || !isNarrow(dst, below16) ||
        !(src.isF32() || src.isF64() || isNarrow(src)))
      return failure();
    if (op.getRoundingmodeAttr() &&
        op.getRoundingmode() != arith::RoundingMode::to_nearest_even)
      return failure();
    Location loc = op.getLoc();
    Value in = op.getIn();
    if (isNarrow(src)) {
      // Between narrow types (folders make these): through f32, exactly.
      src = rewriter.getF32Type();
      in = arith::ExtFOp::create(rewriter, loc, src, in);
    }
    Format s = *Format::get(src);
    unsigned sw = s.width;
    Type it = rewriter.getIntegerType(sw);
    IntBuilder i{rewriter, loc, it};
    using P = arith::CmpIPredicate;
    Value bits = arith::BitcastOp::create(rewriter, loc, it, in);
    if (isE8M0(dst)) {
      Value b = truncToE8M0(i, bits, s);
      Value narrowBits =
          arith::TruncIOp::create(rewriter, loc, rewriter.getIntegerType(8), b);
      rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, dst, narrowBits);
      return success();
    }
    Format d = *Format::get(dst);
    uint64_t signMask = uint64_t(1) << (sw - 1);
    Value sign = i.band(bits, i.c(signMask));
    Value abs = i.band(bits, i.c(signMask - 1));
    Value isNan = i.cmp(P::ugt, abs, i.c(*s.inf));

    // Normal range: round the mantissa to d.mantissa bits, rebias.
    int64_t sh = s.mantissa - d.mantissa;
    Value lsb = i.band(i.shr(abs, i.c(sh)), i.c(1));
    Value rounded = i.shr(
        i.add(i.add(abs, i.c((uint64_t(1) << (sh - 1)) - 1)), lsb), i.c(sh));
    Value normal = i.sub(
        rounded, i.c(static_cast<uint64_t>(s.bias - d.bias) << d.mantissa));
    Value overflow = i.cmp(P::ugt, normal, i.c(d.largest));
    Value result = i.sel(overflow,
                         i.c(d.inf      ? *d.inf
                             : d.hasNaN ? d.qnan
                                        : d.largest),
                         normal);

    if (d.minExponent > s.minExponent) {
      // Below the narrow type's smallest normal: k = round(|x| / 2^(minExp
      // - m)), the significand M shifted right by s = sh + minExp - E.
      uint64_t minNormal = static_cast<uint64_t>(d.minExponent + s.bias)
                           << s.mantissa;
      Value small = i.cmp(P::ult, abs, i.c(minNormal));
      Value expField = i.shr(abs, i.c(s.mantissa));
      Value frac = i.band(abs, i.c((uint64_t(1) << s.mantissa) - 1));
      Value isDenormal = i.cmp(P::eq, expField, i.c(0));
      Value sig =
          i.sel(isDenormal, frac, i.bor(frac, i.c(uint64_t(1) << s.mantissa)));
      Value e = i.sel(isDenormal, i.c(1), expField);
      // shift = sh + d.minExponent + s.bias - e (> sh since e is below).
      Value shift =
          i.sub(i.c(static_cast<uint64_t>(sh + d.minExponent + s.bias)), e);
      Value maxShift = i.c(s.mantissa + 2);
      shift = arith::MinUIOp::create(rewriter, loc, shift, maxShift);
      Value q = i.shr(sig, shift);
      Value one = i.c(1);
      Value remMask = i.sub(i.shl(one, shift), one);
      Value rem = i.band(sig, remMask);
      Value half = i.shl(one, i.sub(shift, one));
      Value up = arith::OrIOp::create(
          rewriter, loc, i.cmp(P::ugt, rem, half),
          arith::AndIOp::create(rewriter, loc, i.cmp(P::eq, rem, half),
                                i.cmp(P::ne, i.band(q, one), i.c(0))));
      Value k = i.add(q, arith::ExtUIOp::create(rewriter, loc, it, up));
      result = i.sel(small, k, result);
    }
    // The sign, but not on a zero of a type whose NaN is -0.
    Value signed_ = i.bor(result, i.shr(sign, i.c(sw - d.width)));
    if (d.nanIsNegativeZero)
      signed_ = i.sel(i.cmp(P::eq, result, i.c(0)), result, signed_);
    // NaN: the quiet NaN, -0 where the type has none.
    result = i.sel(isNan, i.c(d.hasNaN ? d.qnan : uint64_t(1) << (d.width - 1)),
                   signed_);
    Type nt = rewriter.getIntegerType(d.width);
    Value narrowBits = arith::TruncIOp::create(rewriter, loc, nt, result);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, dst, narrowBits);
    return success();
  }
};

struct ExpandExtF : OpRewritePattern<arith::ExtFOp> {
  ExpandExtF(MLIRContext *ctx, bool below16)
      : OpRewritePattern(ctx), below16(below16) {}
  bool below16;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    auto src = dyn_cast<FloatType>(op.getIn().getType());
    auto dst = dyn_cast<FloatType>(op.getType());
    if (!src || !dst || !(dst.isF32() || dst.isF64()) ||
        !isNarrow(src, below16))
      return failure();
    Format d = *Format::get(dst);
    Location loc = op.getLoc();
    using P = arith::CmpIPredicate;
    if (isE8M0(src)) {
      // 2^(b - 127): the exponent rebiased (2^-127 is an f32 denormal).
      Type it = rewriter.getIntegerType(d.width);
      IntBuilder i{rewriter, loc, it};
      Value b = arith::ExtUIOp::create(
          rewriter, loc, it,
          arith::BitcastOp::create(rewriter, loc, rewriter.getIntegerType(8),
                                   op.getIn()));
      Value v = i.shl(i.add(b, i.c(d.bias - 127)), i.c(d.mantissa));
      if (d.bias == 127)
        v = i.sel(i.cmp(P::eq, b, i.c(0)), i.c(uint64_t(1) << (d.mantissa - 1)),
                  v);
      v = i.sel(i.cmp(P::eq, b, i.c(0xFF)), i.c(d.qnan), v);
      rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, dst, v);
      return success();
    }
    Format s = *Format::get(src);
    Type nt = rewriter.getIntegerType(s.width);
    Type it = rewriter.getIntegerType(d.width);
    IntBuilder i{rewriter, loc, it};
    Value bits = arith::ExtUIOp::create(
        rewriter, loc, it,
        arith::BitcastOp::create(rewriter, loc, nt, op.getIn()));
    uint64_t signMask = uint64_t(1) << (s.width - 1);
    Value sign = i.band(bits, i.c(signMask));
    Value abs = i.band(bits, i.c(signMask - 1));
    Value wideSign = i.shl(sign, i.c(d.width - s.width));
    // Normal: rebias the exponent, widen the mantissa.
    Value normal =
        i.add(i.shl(abs, i.c(d.mantissa - s.mantissa)),
              i.c(static_cast<uint64_t>(d.bias - s.bias) << d.mantissa));
    // Denormal (exponent field 0): the significand times 2^(minExp - m).
    Value expField = i.shr(abs, i.c(s.mantissa));
    Value isDenormal = i.cmp(P::eq, expField, i.c(0));
    Value frac = arith::UIToFPOp::create(rewriter, loc, dst, abs);
    Value scale = arith::ConstantOp::create(
        rewriter, loc, dst,
        rewriter.getFloatAttr(dst,
                              std::ldexp(1.0, s.minExponent - s.mantissa)));
    Value denormal = arith::BitcastOp::create(
        rewriter, loc, it, arith::MulFOp::create(rewriter, loc, frac, scale));
    Value magnitude = i.sel(isDenormal, denormal, normal);
    // Specials.
    Value isNan;
    if (s.nanIsNegativeZero) {
      isNan = i.cmp(P::eq, bits, i.c(signMask));
    } else if (s.inf) {
      isNan = i.cmp(P::ugt, abs, i.c(*s.inf));
      Value isInf = i.cmp(P::eq, abs, i.c(*s.inf));
      magnitude = i.sel(isInf, i.c(*d.inf), magnitude);
    } else if (s.hasNaN) {
      isNan = i.cmp(P::eq, abs, i.c(s.qnan & (signMask - 1)));
    }
    Value result = i.bor(magnitude, wideSign);
    if (isNan) // types without NaN: every value finite
      result = i.sel(isNan, i.c(d.qnan), result);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, dst, result);
    return success();
  }
};

/// An integer to a narrow float, which the canonicalizer makes of an exact
/// int-to-f64 conversion and a truncf (its sitofp(truncf) folding): back to
/// f64, then truncf (expanded by ExpandTruncF), one rounding either way.
template <typename IntToFpOp>
struct ExpandIntToNarrow : OpRewritePattern<IntToFpOp> {
  ExpandIntToNarrow(MLIRContext *ctx, bool below16)
      : OpRewritePattern<IntToFpOp>(ctx), below16(below16) {}
  LogicalResult matchAndRewrite(IntToFpOp op,
                                PatternRewriter &rewriter) const override {
    auto src = dyn_cast<IntegerType>(op.getIn().getType());
    Type dst = op.getType();
    // Integers of at most 53 bits are exact in f64.
    if (!src || src.getWidth() > 53 || !isNarrow(dst, below16))
      return failure();
    Value wide = IntToFpOp::create(rewriter, op.getLoc(), rewriter.getF64Type(),
                                   op.getIn());
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, dst, wide);
    return success();
  }
  bool below16;
};

} // namespace

void mlir::hlo::populateNarrowFloatExpansionPatterns(
    RewritePatternSet &patterns, bool onlyBelow16Bits) {
  patterns.add<ExpandTruncF, ExpandExtF, ExpandIntToNarrow<arith::SIToFPOp>,
               ExpandIntToNarrow<arith::UIToFPOp>>(patterns.getContext(),
                                                   onlyBelow16Bits);
}

namespace {
struct ExpandNarrowFloatsPass
    : PassWrapper<ExpandNarrowFloatsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ExpandNarrowFloatsPass)
  explicit ExpandNarrowFloatsPass(bool onlyBelow16Bits)
      : onlyBelow16Bits(onlyBelow16Bits) {}
  StringRef getArgument() const final { return "hlo-expand-narrow-floats"; }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    hlo::populateNarrowFloatExpansionPatterns(patterns, onlyBelow16Bits);
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
  bool onlyBelow16Bits;
};
} // namespace

std::unique_ptr<Pass>
mlir::hlo::createExpandNarrowFloatsPass(bool onlyBelow16Bits) {
  return std::make_unique<ExpandNarrowFloatsPass>(onlyBelow16Bits);
}
