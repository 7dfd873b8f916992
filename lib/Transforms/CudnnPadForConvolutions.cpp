//===- CudnnPadForConvolutions.cpp - features for tensor cores and IMMA --===//
//
// XLA's CudnnPadForConvolutions, its two rules: the feature counts of
// integer forward convolutions padded to multiples of 32 (int8x32, from
// sm_75, for an integer result) or else of 4 (int8x4, from sm_61), within
// a 2x size bound; then those of f16 convolutions to what tensor cores take
// (from sm_70: 4 input features for 3-feature inputs with 32 or 64 outputs,
// else multiples of 8, within a 1.35x bound). Operands are padded with
// zeros, the result sliced back. Each rewrite is local to one custom call:
// linear in the module.
//
//===----------------------------------------------------------------------===//

#include "CudnnUtils.h"
#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "llvm/Support/MathExtras.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCUDNNPADFORCONVOLUTIONS
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// The shapes of a convolution's operands and result.
struct ConvShapes {
  SmallVector<int64_t> lhs, rhs, result;
  /// The bias and the side input of a bias-activation conv (else empty).
  SmallVector<int64_t> bias, side;
};

/// The elements of an array of `shape` (the bytes, for a fixed type).
int64_t bytesOf(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// XLA's CudnnSupportsOptimizedIntegerConvolution for the vector size
/// `vect` (4 or 32) on a GPU of compute capability `major.minor`.
bool supportsIntegerVectors(CustomCallOp conv, int64_t vect, int major,
                            int minor) {
  auto atLeast = [&](int ma, int mi) {
    return major > ma || (major == ma && minor >= mi);
  };
  if ((vect == 32 && !atLeast(7, 5)) || !atLeast(6, 1))
    return false;
  if (!isCudnnForwardConvCall(conv))
    return false;
  auto elt = [&](Value v) { return getElementTypeOrSelf(v.getType()); };
  if (!isa<IntegerType>(elt(conv->getOperand(0))) ||
      !isa<IntegerType>(elt(conv->getOperand(1))))
    return false;
  ConvDimensionNumbersAttr dn = conv.getDimLabelsAttr();
  if (dn.getInputSpatial().size() != 2 || dn.getKernelSpatial().size() != 2 ||
      dn.getOutputSpatial().size() != 2)
    return false;
  WindowFields w = windowOf(conv);
  if (vect == 32) {
    Type result = cast<TupleType>(conv.getType()).getType(0);
    if (!isa<IntegerType>(getElementTypeOrSelf(result)))
      return false;
    auto in = cast<RankedTensorType>(conv->getOperand(0).getType());
    auto k = cast<RankedTensorType>(conv->getOperand(1).getType());
    for (int d = 0; d < 2; ++d)
      if (in.getDimSize(dn.getInputSpatial()[d]) <=
          (k.getDimSize(dn.getKernelSpatial()[d]) - 1) * w.lhsDilate[d])
        return false;
  }
  return !w.hasBaseDilation() && !w.hasWindowDilation();
}

/// The padded shapes of integer conv `conv` (of shapes `old`) for vector
/// size `vect`, or none: XLA's TryResolvePaddedShapesForIntegerConvolution
/// (convolutions that are not yet vectorized).
std::optional<ConvShapes>
integerPaddedShapes(CustomCallOp conv, const ConvShapes &old, int64_t vect) {
  const GpuDeviceInfo &device = getSelectedGpuDevice();
  if (!supportsIntegerVectors(conv, vect, device.computeCapabilityMajor,
                              device.computeCapabilityMinor))
    return std::nullopt;
  ConvDimensionNumbersAttr dn = conv.getDimLabelsAttr();
  if (old.lhs.size() != 4)
    return std::nullopt;
  ConvShapes now = old;
  auto roundUp = [&](int64_t &d) { d = llvm::alignTo(d, vect); };
  roundUp(now.lhs[dn.getInputFeature()]);
  roundUp(now.rhs[dn.getKernelInput()]);
  roundUp(now.rhs[dn.getKernelOutput()]);
  roundUp(now.result[dn.getOutputFeature()]);
  if (!now.bias.empty())
    roundUp(now.bias[0]);
  if (!now.side.empty())
    roundUp(now.side[dn.getOutputFeature()]);
  // Not when the input or the result would double (XLA's bound).
  auto grows = [](ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
    return bytesOf(to) >= 2 * bytesOf(from);
  };
  if (grows(old.lhs, now.lhs) || grows(old.result, now.result))
    return std::nullopt;
  if (now.lhs == old.lhs && now.rhs == old.rhs && now.bias == old.bias &&
      now.side == old.side)
    return std::nullopt;
  return now;
}

/// An f16 forward or backward conv (not bias-activation: XLA leaves those).
bool isTensorCoreCandidate(CustomCallOp conv) {
  return conv->getNumOperands() == 2 &&
         conv.getCustomCallTarget() != kCudnnConvBiasActivationForward &&
         getElementTypeOrSelf(cast<TupleType>(conv.getType()).getType(0))
             .isF16();
}

/// The padded shapes of f16 conv `conv` (of shapes `old`), or none when it
/// is not padded: XLA's TryResolvePaddedShapesForTensorCore.
std::optional<ConvShapes> tensorCorePaddedShapes(CustomCallOp conv,
                                                 const ConvShapes &old) {
  if (!isTensorCoreCandidate(conv) ||
      getSelectedGpuDevice().computeCapabilityMajor < 7)
    return std::nullopt;
  ConvDimensionNumbersAttr dn = conv.getDimLabelsAttr();
  ConvShapes now = old;
  // The tensors in their forward roles.
  StringRef target = conv.getCustomCallTarget();
  SmallVector<int64_t> *input = &now.lhs, *filter = &now.rhs,
                       *output = &now.result;
  if (target == kCudnnConvBackwardInput)
    std::swap(input, output);
  else if (target == kCudnnConvBackwardFilter)
    std::swap(filter, output);
  int64_t inputFeatures = (*input)[dn.getInputFeature()];
  int64_t outputFeatures = (*output)[dn.getOutputFeature()];
  if (inputFeatures == 3 && (outputFeatures == 32 || outputFeatures == 64)) {
    (*input)[dn.getInputFeature()] = 4;
    (*filter)[dn.getKernelInput()] = 4;
  } else {
    auto roundUp = [](int64_t &d) { d = llvm::alignTo(d, 8); };
    roundUp((*input)[dn.getInputFeature()]);
    roundUp((*filter)[dn.getKernelInput()]);
    roundUp((*filter)[dn.getKernelOutput()]);
    roundUp((*output)[dn.getOutputFeature()]);
    // Not when a tensor would grow by more than 1.35x (XLA's bound, tuned
    // on its benchmarks).
    auto grows = [](ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
      return double(bytesOf(to)) > double(bytesOf(from)) * 1.35;
    };
    if (grows(old.lhs, now.lhs) || grows(old.rhs, now.rhs) ||
        grows(old.result, now.result))
      return std::nullopt;
  }
  if (now.lhs == old.lhs && now.rhs == old.rhs)
    return std::nullopt;
  return now;
}

/// `v` padded with zeros at the high end to `shape`.
Value padTo(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getShape() == shape)
    return v;
  SmallVector<int64_t> zeros(shape.size(), 0), high;
  for (auto [from, to] : llvm::zip_equal(type.getShape(), shape))
    high.push_back(to - from);
  return createPad(b, loc, v, zeros, high, zeros);
}

struct CudnnPadForConvolutionsPass
    : ChangeReportingPass<CudnnPadForConvolutionsPass,
                          hlo::impl::HloCudnnPadForConvolutionsBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation())) {
      SmallVector<CustomCallOp> calls;
      comp.walk([&](CustomCallOp c) {
        if (isCandidate(c))
          calls.push_back(c);
      });
      // The integer rule first (int8x32, else int8x4), then tensor cores,
      // each over the convs as they were when the rule began (XLA's order).
      SmallVector<CustomCallOp> after;
      for (CustomCallOp call : calls) {
        CustomCallOp now = pad(call, [](CustomCallOp c, const ConvShapes &s) {
          if (auto r = integerPaddedShapes(c, s, 32))
            return r;
          return integerPaddedShapes(c, s, 4);
        });
        after.push_back(now ? now : call);
      }
      for (CustomCallOp call : after)
        pad(call, tensorCorePaddedShapes);
    }
  }

  /// A cuDNN convolution this pass may pad: static shapes, no feature or
  /// batch groups, no control edges, an empty scratch (the algorithm
  /// picker sizes it later).
  static bool isCandidate(CustomCallOp c) {
    if (!isCudnnConvCall(c))
      return false;
    auto tuple = dyn_cast<TupleType>(c.getType());
    unsigned n = c->getNumOperands();
    bool fused = c.getCustomCallTarget() == kCudnnConvBiasActivationForward;
    if (!tuple || tuple.size() != 2 || !c.getDimLabelsAttr() ||
        (fused ? n != 3 && n != 4 : n != 2) || hasControlEdges(c) ||
        c.getFeatureGroupCount().value_or(1) != 1 ||
        c.getBatchGroupCount().value_or(1) != 1)
      return false;
    auto result = dyn_cast<RankedTensorType>(tuple.getType(0));
    auto scratch = dyn_cast<RankedTensorType>(tuple.getType(1));
    return result && result.hasStaticShape() && scratch &&
           scratch.hasStaticShape() && scratch.getNumElements() == 0 &&
           llvm::all_of(c->getOperands(),
                        [](Value v) { return isStaticArray(v.getType()); });
  }

  /// Pads `conv` to the shapes `rule` gives; the new conv, or null when
  /// the rule gives none.
  CustomCallOp
  pad(CustomCallOp conv,
      function_ref<std::optional<ConvShapes>(CustomCallOp, const ConvShapes &)>
          rule) {
    auto tuple = cast<TupleType>(conv.getType());
    auto resultType = cast<RankedTensorType>(tuple.getType(0));
    auto shapeOf = [](Value v) {
      return SmallVector<int64_t>(cast<RankedTensorType>(v.getType()).getShape());
    };
    ConvShapes old{shapeOf(conv->getOperand(0)), shapeOf(conv->getOperand(1)),
                   SmallVector<int64_t>(resultType.getShape())};
    unsigned n = conv->getNumOperands();
    if (n > 2)
      old.bias = shapeOf(conv->getOperand(2));
    if (n > 3)
      old.side = shapeOf(conv->getOperand(3));
    std::optional<ConvShapes> now = rule(conv, old);
    if (!now)
      return nullptr;
    MLIRContext *ctx = conv.getContext();
    OpBuilder b(conv);
    Location loc = conv.getLoc();
    SmallVector<Value> operands = {
        padTo(b, loc, conv->getOperand(0), now->lhs),
        padTo(b, loc, conv->getOperand(1), now->rhs)};
    if (n > 2)
      operands.push_back(padTo(b, loc, conv->getOperand(2), now->bias));
    if (n > 3)
      operands.push_back(padTo(b, loc, conv->getOperand(3), now->side));
    auto bigger = RankedTensorType::get(
        now->result, resultType.getElementType(), resultType.getEncoding());
    CustomCallOp call = cloneCudnnConv(
        b, conv, operands, TupleType::get(ctx, {bigger, tuple.getType(1)}),
        WindowAttr());
    Value replacement = call.getResult();
    if (now->result != old.result) {
      // XLA's get-tuple-element, slice and tuple here have no metadata.
      Location none = UnknownLoc::get(ctx);
      Value result = createGte(b, none, call.getResult(), 0);
      SmallVector<int64_t> starts(old.result.size(), 0);
      Value sliced = createSlice(b, result, starts, old.result);
      // The type the conv's users read, layout (or none) included.
      sliced.setType(resultType);
      auto u8 = cast<RankedTensorType>(tuple.getType(1));
      Value empty =
          createInstruction(
              b, NameLoc::get(b.getStringAttr("constant")),
              ConstantOp::getOperationName(), u8, {},
              {b.getNamedAttr("value", DenseElementsAttr::get(
                                           u8, ArrayRef<Attribute>()))})
              ->getResult(0);
      replacement =
          createInstruction(
              b, NameLoc::get(b.getStringAttr("tuple"), derivedLoc(loc)),
              TupleOp::getOperationName(),
              TupleType::get(ctx, {sliced.getType(), u8}), {sliced, empty})
              ->getResult(0);
    }
    conv.getResult().replaceAllUsesWith(replacement);
    conv.erase();
    ++numPadded;
    changed = true;
    return call;
  }
};
} // namespace
