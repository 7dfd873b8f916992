//===- AlgebraicSimplifierConvolution.cpp - convolution rewrites ----------===//
//
// hlo-algebraic-simplifier's rewrites of XLA's HandleConvolution: a pad of
// the input by zeros taken into the window's padding (XLA's
// FoldConvInputPad), and a depthwise convolution of 1x1 windows that is an
// elementwise multiplication by the kernel (XLA's SimplifyConvToMultiply).
//
//===----------------------------------------------------------------------===//

#include "AlgebraicSimplifier.h"
#include "CudnnUtils.h"

#include "Hlo/Dialect/Hlo/HloOpClasses.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::algsimp;

namespace {

/// True if `v` is all +0 (a float +0, not -0, whose products with the
/// kernel could change the sign of a zero sum) or integer zeros.
bool isPositiveZero(Value v) {
  SplatElementsAttr splat = splatOperand(v);
  if (!splat)
    return false;
  if (isa<FloatType>(splat.getElementType()))
    return splat.getSplatValue<APFloat>().isPosZero();
  return isa<IntegerType>(splat.getElementType()) &&
         splat.getSplatValue<APInt>().isZero();
}

/// convolution(pad(X, 0), K) = convolution(X, K) with the pad's edges in
/// the window's padding and its interior padding as the base (lhs)
/// dilation: the pad must leave batch and feature dimensions alone, pad by
/// +0, have no negative edges, and add interior padding only where the
/// window has no base dilation. An edge of e elements of a base-dilated
/// input is e times the dilation in the window's padding, as the dilation
/// spreads the padded elements too. In layout-sensitive runs only where
/// the pad and its operand have one layout.
struct ConvolutionOfPad : HloPattern<ConvolutionOp> {
  ConvolutionOfPad(MLIRContext *context, bool layoutSensitive)
      : HloPattern(context), layoutSensitive(layoutSensitive) {}

  LogicalResult rewrite(ConvolutionOp op, PatternRewriter &r) const override {
    auto pad = plainDef<PadOp>(op.getLhs());
    if (!pad || !isPositiveZero(pad.getPaddingValue()))
      return failure();
    auto from = staticType(pad.getOperand()), to = staticType(pad.getResult());
    if (!from || !to ||
        (layoutSensitive && from.getEncoding() != to.getEncoding()))
      return failure();
    ConvDimensionNumbersAttr dn = op.getDimLabels();
    PaddingAttr config = pad.getPadding();
    auto edge = [&](int64_t d) {
      return std::make_pair(config.getLow()[d], config.getHigh()[d]);
    };
    auto interior = [&](int64_t d) {
      ArrayRef<int64_t> in = config.getInterior();
      return d < int64_t(in.size()) ? in[d] : 0;
    };
    for (int64_t d : {dn.getInputBatch(), dn.getInputFeature()})
      if (edge(d) != std::make_pair<int64_t, int64_t>(0, 0) || interior(d))
        return failure();
    ConvWindow w = windowOf(op);
    for (auto [i, d] : llvm::enumerate(dn.getInputSpatial())) {
      auto [low, high] = edge(d);
      if (low < 0 || high < 0 || (interior(d) && w.lhsDilate[i] != 1))
        return failure();
    }
    for (auto [i, d] : llvm::enumerate(dn.getInputSpatial())) {
      auto [low, high] = edge(d);
      w.padLow[i] += low * w.lhsDilate[i];
      w.padHigh[i] += high * w.lhsDilate[i];
      if (interior(d))
        w.lhsDilate[i] = interior(d) + 1;
    }
    r.modifyOpInPlace(op, [&] {
      op->setOperand(0, pad.getOperand());
      op.setWindowAttr(w.toAttr(op.getContext()));
    });
    return success();
  }

  bool layoutSensitive;
};

/// A convolution of 1x1 windows (no stride, padding, dilation or reversal)
/// whose every input feature is its own group of one output feature (a
/// depthwise convolution with multiplier 1, or one feature) multiplies each
/// feature by its kernel element: X * broadcast(reshape(K)) along the
/// feature dimension. Input and result must number their dimensions alike
/// and have one type, the kernel's element type too.
struct ConvolutionToMultiply : HloPattern<ConvolutionOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(ConvolutionOp op, PatternRewriter &r) const override {
    auto in = staticType(op.getLhs()), kernel = staticType(op.getRhs());
    auto type = staticType(op.getResult());
    if (!in || !kernel || !type || in != type ||
        kernel.getElementType() != type.getElementType() ||
        op.getBatchGroupCount().value_or(1) != 1)
      return failure();
    ConvDimensionNumbersAttr dn = op.getDimLabels();
    if (dn.getInputBatch() != dn.getOutputBatch() ||
        dn.getInputFeature() != dn.getOutputFeature() ||
        dn.getInputSpatial() != dn.getOutputSpatial())
      return failure();
    int64_t features = in.getDimSize(dn.getInputFeature());
    if (int64_t(op.getFeatureGroupCount().value_or(1)) != features ||
        kernel.getDimSize(dn.getKernelInput()) != 1 ||
        kernel.getDimSize(dn.getKernelOutput()) != features)
      return failure();
    ConvWindow w = windowOf(op);
    auto all = [](ArrayRef<int64_t> v, int64_t x) {
      return llvm::all_of(v, [&](int64_t y) { return y == x; });
    };
    if (!all(w.size, 1) || !all(w.stride, 1) || !all(w.padLow, 0) ||
        !all(w.padHigh, 0) || !all(w.lhsDilate, 1) || !all(w.rhsDilate, 1) ||
        !all(w.reversal, 0))
      return failure();
    Location loc = unnamed(op.getLoc());
    Value scale = createInstruction(
                      r, loc, ReshapeOp::getOperationName(),
                      RankedTensorType::get({features}, type.getElementType()),
                      {op.getRhs()}, {})
                      ->getResult(0);
    scale =
        createInstruction(
            r, loc, BroadcastOp::getOperationName(), type, {scale},
            {r.getNamedAttr("dimensions",
                            r.getDenseI64ArrayAttr({dn.getOutputFeature()}))})
            ->getResult(0);
    replace(r, op, createInferred<MulOp>(r, loc, {op.getLhs(), scale}), true);
    return success();
  }
};

} // namespace

void mlir::hlo::algsimp::populateConvolutionPatterns(
    RewritePatternSet &set, const ShapeOptions &options) {
  set.add<ConvolutionOfPad>(set.getContext(), options.layoutSensitive);
  set.add<ConvolutionToMultiply>(set.getContext());
}
