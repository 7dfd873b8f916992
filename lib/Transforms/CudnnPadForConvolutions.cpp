//===- CudnnPadForConvolutions.cpp - f16 convolutions for tensor cores ----===//
//
// XLA's CudnnPadForConvolutions (its tensor-core rule): the feature counts
// of f16 cuDNN convolutions padded with zeros to what tensor cores take (4
// input features for 3-feature inputs with 32 or 64 outputs, else
// multiples of 8, within a 1.35x size bound), the result sliced back.
// Each rewrite is local to one custom call: linear in the module.
//
//===----------------------------------------------------------------------===//

#include "CudnnUtils.h"
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

/// The shapes of a convolution's lhs, rhs and result.
struct ConvShapes {
  SmallVector<int64_t> lhs, rhs, result;
};

/// The bytes of an f16 array of `shape`.
int64_t bytesOf(ArrayRef<int64_t> shape) {
  int64_t n = 2;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// The padded shapes of `conv` (of shapes `old`), or none when it is not
/// padded: XLA's TryResolvePaddedShapesForTensorCore.
std::optional<ConvShapes> paddedShapes(CustomCallOp conv,
                                       const ConvShapes &old) {
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
      for (CustomCallOp call : calls)
        if (pad(call)) {
          ++numPadded;
          changed = true;
        }
    }
  }

  static bool isCandidate(CustomCallOp c) {
    StringRef t = c.getCustomCallTarget();
    if (t != kCudnnConvForward && t != kCudnnConvBackwardInput &&
        t != kCudnnConvBackwardFilter)
      return false;
    auto tuple = dyn_cast<TupleType>(c.getType());
    if (!tuple || tuple.size() != 2 || !c.getDimLabelsAttr() ||
        c->getNumOperands() != 2 || hasControlPredecessors(c) ||
        isControlPredecessor(c) ||
        c.getFeatureGroupCount().value_or(1) != 1 ||
        c.getBatchGroupCount().value_or(1) != 1)
      return false;
    // The scratch must be empty: the algorithm picker sizes it later.
    auto result = dyn_cast<RankedTensorType>(tuple.getType(0));
    auto scratch = dyn_cast<RankedTensorType>(tuple.getType(1));
    return result && result.hasStaticShape() &&
           result.getElementType().isF16() && scratch &&
           scratch.hasStaticShape() && scratch.getNumElements() == 0 &&
           llvm::all_of(c->getOperands(),
                        [](Value v) { return isStaticArray(v.getType()); });
  }

  bool pad(CustomCallOp conv) {
    auto tuple = cast<TupleType>(conv.getType());
    auto resultType = cast<RankedTensorType>(tuple.getType(0));
    auto shapeOf = [](Value v) {
      return SmallVector<int64_t>(cast<RankedTensorType>(v.getType()).getShape());
    };
    ConvShapes old{shapeOf(conv->getOperand(0)), shapeOf(conv->getOperand(1)),
                   SmallVector<int64_t>(resultType.getShape())};
    std::optional<ConvShapes> now = paddedShapes(conv, old);
    if (!now)
      return false;
    MLIRContext *ctx = conv.getContext();
    OpBuilder b(conv);
    Location loc = conv.getLoc();
    SmallVector<Value> operands = {
        padTo(b, loc, conv->getOperand(0), now->lhs),
        padTo(b, loc, conv->getOperand(1), now->rhs)};
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
    return true;
  }
};
} // namespace
