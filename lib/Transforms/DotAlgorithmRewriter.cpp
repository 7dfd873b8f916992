//===- DotAlgorithmRewriter.cpp - multi-pass dot algorithms as dots -------===//
//
// XLA-GPU's DotAlgorithmRewriter. The algorithms dot_bf16_bf16_f32_x3/_x6/
// _x9 and dot_tf32_tf32_f32_x3 ask for an f32 dot computed as several dots
// of narrower numbers, which the tensor cores multiply faster than f32:
// each f32 operand is split into a part holding its leading bits and the
// remainders below it, and the products of the parts that matter are
// summed, the smallest first:
//
//   x3:   lo*hi + hi*lo                                   (2 parts each)
//   x6:   mid*mid + hi*lo + lo*hi + hi*mid + mid*hi       (3 parts each)
//   x9:   lo*lo + lo*mid + mid*lo + mid*mid + hi*lo + lo*hi + hi*mid + mid*hi
//
// then, where that sum is not finite, 0 (an operand's infinite value has
// the high part inf and the low part inf - inf = NaN: the low products
// must not spoil hi*hi), plus hi*hi. The parts are bf16 values (the bf16
// algorithms) or f32 values with 10 mantissa bits (TF32); the high part is
// `x` with its trailing bits masked off through bitcast-converts, so that
// `x - hi` is exact. The order of the instructions and of the additions is
// XLA's, so the results round as XLA's do.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include <limits>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLODOTALGORITHMREWRITER
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// The masks keeping a bf16's (8 significant bits) and a TF32's (11) bits
/// of an f32.
constexpr uint32_t kBf16Mask = 0xFFFF0000u;
constexpr uint32_t kTf32Mask = 0xFFFFE000u;

/// Builds the split and the sum of one dot before it, every array in the
/// layout of the value it derives from.
class Splitter {
public:
  Splitter(DotOp dot) : dot(dot), b(dot), loc(derivedLoc(dot.getLoc())) {}

  Value create(StringRef name, Type type, ValueRange operands,
               ArrayRef<NamedAttribute> attrs = {}) {
    return createInstruction(b, loc, name, type, operands, attrs)->getResult(0);
  }
  template <typename OpT> Value elementwise(Value x, Value y) {
    return create(OpT::getOperationName(), x.getType(), {x, y});
  }
  Value retype(StringRef name, Value x, Type element) {
    return create(name, withElementType(x.getType(), element), {x});
  }
  /// The scalar `value` broadcast to `type`.
  Value splat(Type type, TypedAttr value) {
    auto scalar = DenseElementsAttr::get(
        RankedTensorType::get({}, value.getType()), value);
    Value c = create(ConstantOp::getOperationName(), scalar.getType(), {},
                     {b.getNamedAttr("value", scalar)});
    return create(BroadcastOp::getOperationName(),
                  withElementType(type, value.getType()), {c},
                  {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({}))});
  }

  /// `x` with the bits outside `mask` cleared.
  Value truncate(Value x, uint32_t mask) {
    Type u32 = b.getIntegerType(32, /*isSigned=*/false);
    Value bits = retype(BitcastConvertOp::getOperationName(), x, u32);
    Value masked = elementwise<AndOp>(
        bits, splat(bits.getType(), b.getIntegerAttr(u32, APInt(32, mask))));
    return retype(BitcastConvertOp::getOperationName(), masked, b.getF32Type());
  }
  Value toBf16(Value x) {
    return retype(ConvertOp::getOperationName(), x, b.getBF16Type());
  }

  /// (hi, lo) as bf16.
  std::pair<Value, Value> splitBf16x2(Value x) {
    Value hi = truncate(x, kBf16Mask);
    Value lo = elementwise<SubtractOp>(x, hi);
    return {toBf16(hi), toBf16(lo)};
  }
  /// (hi, mid, lo) as bf16.
  std::array<Value, 3> splitBf16x3(Value x) {
    Value hi = truncate(x, kBf16Mask);
    Value rest = elementwise<SubtractOp>(x, hi);
    Value mid = truncate(rest, kBf16Mask);
    Value lo = elementwise<SubtractOp>(rest, mid);
    return {toBf16(hi), toBf16(mid), toBf16(lo)};
  }
  /// (hi, lo) as f32 values of TF32 precision (lo rounded by the dot).
  std::pair<Value, Value> splitTf32(Value x) {
    Value hi = truncate(x, kTf32Mask);
    return {hi, elementwise<SubtractOp>(x, hi)};
  }

  /// The original dot of `lhs` and `rhs` computed with `algorithm`.
  Value product(Value lhs, Value rhs, DotAlgorithm algorithm) {
    Operation *copy = b.clone(*dot);
    copy->setOperands({lhs, rhs});
    copy->setLoc(loc);
    cast<DotOp>(copy).setAlgorithmAttr(
        DotAlgorithmAttr::get(b.getContext(), algorithm));
    return copy->getResult(0);
  }

  /// `sum` of the small products, 0 where it is not finite, plus `high`.
  Value finish(Value sum, Value high) {
    Type type = sum.getType();
    Value inf =
        splat(type, b.getF32FloatAttr(std::numeric_limits<float>::infinity()));
    Value abs = create(AbsOp::getOperationName(), type, {sum});
    Value finite =
        create(CompareOp::getOperationName(),
               withElementType(type, b.getI1Type()), {inf, abs},
               {b.getNamedAttr("direction",
                               ComparisonDirectionAttr::get(
                                   b.getContext(), ComparisonDirection::GE))});
    Value zero = splat(type, b.getF32FloatAttr(0));
    Value kept =
        create(SelectOp::getOperationName(), type, {finite, sum, zero});
    return elementwise<AddOp>(kept, high);
  }

  /// XLA's sums of the products `terms` (the high-high product last).
  Value sum(ArrayRef<Value> terms) {
    Value acc = terms.front();
    for (Value t : terms.drop_front().drop_back())
      acc = elementwise<AddOp>(acc, t);
    return finish(acc, terms.back());
  }

  Value rewrite(DotAlgorithm algorithm) {
    Value l = dot.getLhs(), r = dot.getRhs();
    constexpr DotAlgorithm bf16 = DotAlgorithm::DotBF16BF16F32;
    switch (algorithm) {
    case DotAlgorithm::DotBF16BF16F32X3: {
      auto [lh, ll] = splitBf16x2(l);
      auto [rh, rl] = splitBf16x2(r);
      Value lowHigh = product(ll, rh, bf16), highLow = product(lh, rl, bf16);
      Value highHigh = product(lh, rh, bf16);
      return sum({lowHigh, highLow, highHigh});
    }
    case DotAlgorithm::DotBF16BF16F32X6: {
      auto [lh, lm, ll] = splitBf16x3(l);
      auto [rh, rm, rl] = splitBf16x3(r);
      SmallVector<Value> terms = {product(lm, rm, bf16), product(lh, rl, bf16),
                                  product(ll, rh, bf16), product(lh, rm, bf16),
                                  product(lm, rh, bf16), product(lh, rh, bf16)};
      return sum(terms);
    }
    case DotAlgorithm::DotBF16BF16F32X9: {
      auto [lh, lm, ll] = splitBf16x3(l);
      auto [rh, rm, rl] = splitBf16x3(r);
      SmallVector<Value> terms = {
          product(ll, rl, bf16), product(ll, rm, bf16), product(lm, rl, bf16),
          product(lm, rm, bf16), product(lh, rl, bf16), product(ll, rh, bf16),
          product(lh, rm, bf16), product(lm, rh, bf16), product(lh, rh, bf16)};
      return sum(terms);
    }
    case DotAlgorithm::DotTF32TF32F32X3: {
      constexpr DotAlgorithm tf32 = DotAlgorithm::DotTF32TF32F32;
      auto [lh, ll] = splitTf32(l);
      auto [rh, rl] = splitTf32(r);
      Value lowHigh = product(ll, rh, tf32), highLow = product(lh, rl, tf32);
      Value highHigh = product(lh, rh, tf32);
      return sum({lowHigh, highLow, highHigh});
    }
    default:
      return Value();
    }
  }

private:
  DotOp dot;
  OpBuilder b;
  Location loc;
};

/// True if the algorithm of `dot` is one this pass splits and the dot
/// multiplies and yields f32 arrays of static shape.
bool isSplit(DotOp dot) {
  std::optional<DotAlgorithm> algorithm = dot.getAlgorithm();
  if (!algorithm || (*algorithm != DotAlgorithm::DotBF16BF16F32X3 &&
                     *algorithm != DotAlgorithm::DotBF16BF16F32X6 &&
                     *algorithm != DotAlgorithm::DotBF16BF16F32X9 &&
                     *algorithm != DotAlgorithm::DotTF32TF32F32X3))
    return false;
  if (!isDenseStaticDot(dot) || hasControlEdges(dot))
    return false;
  for (Type t : {dot.getLhs().getType(), dot.getRhs().getType(),
                 dot.getResult().getType()})
    if (!cast<RankedTensorType>(t).getElementType().isF32())
      return false;
  return true;
}

struct DotAlgorithmRewriterPass
    : ChangeReportingPass<DotAlgorithmRewriterPass,
                          hlo::impl::HloDotAlgorithmRewriterBase> {
  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation())) {
      SmallVector<DotOp> dots;
      for (DotOp dot : comp.getBody().getOps<DotOp>())
        if (isSplit(dot))
          dots.push_back(dot);
      for (DotOp dot : dots) {
        Value result = Splitter(dot).rewrite(*dot.getAlgorithm());
        replaceByNamed(dot, result);
        ++numRewritten;
        changed = true;
      }
    }
  }
};

} // namespace
