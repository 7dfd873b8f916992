//===- AlgebraicSimplifierConvolution.cpp - convolution rewrites ----------===//
//
// hlo-algebraic-simplifier's rewrites of XLA's HandleConvolution: a pad of
// the input by zeros taken into the window's padding (XLA's
// FoldConvInputPad), a kernel spread apart by interior zeros as the
// window's dilation (FoldConvFilterPad), zeros for an empty operand, and a
// depthwise convolution whose windows are one element or whole dimensions
// as a multiplication by the kernel and a sum (XLA's
// SimplifyConvToMultiply), and the operands swapped where the kernel is
// larger than the input (XLA's SwapConvOperands).
//
//===----------------------------------------------------------------------===//

#include "AlgebraicSimplifier.h"
#include "CudnnUtils.h"
#include "WhileLoopUtils.h"

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
    WindowFields w = windowOf(op);
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

/// convolution(X, pad(K, 0)) where the pad only spreads K's spatial
/// elements apart (interior padding, no edges): the window dilated as
/// much, over K itself (XLA's FoldConvFilterPad). Each spatial dimension
/// padded must have no window dilation yet; the pad by +0 (or integer 0),
/// keeping K's layout.
struct ConvolutionOfDilatedKernel : HloPattern<ConvolutionOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(ConvolutionOp op, PatternRewriter &r) const override {
    auto pad = plainDef<PadOp>(op.getRhs());
    if (!pad || !isPositiveZero(pad.getPaddingValue()))
      return failure();
    RankedTensorType kernel = staticType(pad.getOperand());
    RankedTensorType padded = staticType(pad.getResult());
    if (!kernel || !padded || kernel.getEncoding() != padded.getEncoding())
      return failure();
    PaddingAttr config = pad.getPadding();
    ArrayRef<int64_t> interiors = config.getInterior();
    auto interior = [&](int64_t d) {
      return d < int64_t(interiors.size()) ? interiors[d] : 0;
    };
    if (llvm::any_of(config.getLow(), [](int64_t v) { return v != 0; }) ||
        llvm::any_of(config.getHigh(), [](int64_t v) { return v != 0; }))
      return failure();
    ConvDimensionNumbersAttr dn = op.getDimLabels();
    if (interior(dn.getKernelInput()) || interior(dn.getKernelOutput()))
      return failure();
    WindowFields w = windowOf(op);
    bool dilated = false;
    for (auto [i, d] : llvm::enumerate(dn.getKernelSpatial())) {
      if (!interior(d))
        continue;
      if (w.rhsDilate[i] != 1)
        return failure();
      w.rhsDilate[i] = interior(d) + 1;
      w.size[i] = kernel.getDimSize(d);
      dilated = true;
    }
    if (!dilated)
      return failure();
    r.modifyOpInPlace(op, [&] {
      op->setOperand(1, pad.getOperand());
      op.setWindowAttr(w.toAttr(op.getContext()));
    });
    return success();
  }
};

/// XLA's SwapConvOperands: a convolution whose kernel spans more elements
/// than the input's spatial dimensions (those the window does not take
/// whole or as groups) is the convolution of the kernel by the input: the
/// input's batch and features become the kernel's output and input
/// features, the kernel's output features the batch, the output's batch
/// and feature dimensions trade places, and each swapped spatial dimension
/// takes the input's size as its window, reversed (the kernel reversed
/// where it was not), base and window dilation traded, padded by the
/// difference of the dilated sizes. A full convolution of one input
/// element counts as its kernel's size. As XLA-GPU, only where
/// hlo-gpu-conv-rewriter can take the swapped convolution
/// (ConvIsLowerable); not for grouped convolutions nor in layout-sensitive
/// runs.
struct ConvolutionSwapOperands : HloPattern<ConvolutionOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(ConvolutionOp op, PatternRewriter &r) const override {
    RankedTensorType input = staticType(op.getLhs());
    RankedTensorType kernel = staticType(op.getRhs());
    if (!input || !kernel || !staticType(op.getResult()) ||
        op.getFeatureGroupCount().value_or(1) != 1 ||
        op.getBatchGroupCount().value_or(1) != 1)
      return failure();
    ConvDimensionNumbersAttr dn = op.getDimLabels();
    WindowFields w = windowOf(op), swapped = w;
    int64_t kernelElements = 1, swappedElements = 1;
    SmallVector<int64_t> reversed;
    for (size_t i = 0; i < w.rank(); ++i) {
      int64_t k = w.size[i], n = input.getDimSize(dn.getInputSpatial()[i]);
      bool plain = !w.reversal[i] && w.padLow[i] == 0 && w.padHigh[i] == 0 &&
                   w.rhsDilate[i] == 1;
      bool groups = plain && w.lhsDilate[i] == k && w.stride[i] == k - 1;
      bool whole = plain && k == n && w.lhsDilate[i] == 1 && w.stride[i] == 1;
      if (groups || whole)
        continue;
      bool fullOfOne = n == 1 && w.stride[i] == 1 && w.rhsDilate[i] == 1 &&
                       w.padLow[i] == k - 1 && w.padHigh[i] == k - 1;
      kernelElements *= k;
      swappedElements *= fullOfOne ? k : n;
      int64_t dilatedKernel = 1 + (k - 1) * w.rhsDilate[i];
      int64_t dilatedInput = 1 + (n - 1) * w.lhsDilate[i];
      if (!w.reversal[i])
        reversed.push_back(dn.getKernelSpatial()[i]);
      swapped.size[i] = n;
      swapped.reversal[i] = 1;
      swapped.lhsDilate[i] = w.rhsDilate[i];
      swapped.rhsDilate[i] = w.lhsDilate[i];
      swapped.padLow[i] = dilatedInput + w.padLow[i] - dilatedKernel;
      swapped.padHigh[i] = dilatedInput + w.padHigh[i] - dilatedKernel;
    }
    if (kernelElements <= swappedElements)
      return failure();
    MLIRContext *ctx = op.getContext();
    auto dnums = ConvDimensionNumbersAttr::get(
        ctx, dn.getKernelOutput(), dn.getKernelInput(), dn.getKernelSpatial(),
        dn.getInputFeature(), dn.getInputBatch(), dn.getInputSpatial(),
        dn.getOutputFeature(), dn.getOutputBatch(), dn.getOutputSpatial());
    // The swapped convolution, outside the IR until the GPU rewriter's
    // check (which reads its shapes and its kernel's producer) takes it.
    auto candidate = cast<ConvolutionOp>(op->clone());
    candidate->setOperands({op.getRhs(), op.getLhs()});
    candidate.setWindowAttr(swapped.toAttr(ctx));
    candidate.setDimLabelsAttr(dnums);
    if (ArrayAttr precision = op.getOperandPrecisionAttr())
      candidate.setOperandPrecisionAttr(r.getArrayAttr(
          SmallVector<Attribute>(llvm::reverse(precision.getValue()))));
    if (!isConvLowerableToCudnn(candidate)) {
      candidate->erase();
      return failure();
    }
    if (!reversed.empty()) {
      InstBuilder ib(r, unnamed(op.getLoc()));
      candidate->setOperand(
          0,
          ib.create<ReverseOp>(
              kernel, op.getRhs(),
              r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr(reversed))));
    }
    r.insert(candidate);
    r.replaceOp(op, candidate->getResults());
    return success();
  }
};

/// A convolution of an empty input or kernel is zeros (XLA's
/// HandleConvolution).
struct ConvolutionOfEmpty : HloPattern<ConvolutionOp> {
  using HloPattern::HloPattern;
  LogicalResult rewrite(ConvolutionOp op, PatternRewriter &r) const override {
    auto in = staticType(op.getLhs()), kernel = staticType(op.getRhs());
    auto type = staticType(op.getResult());
    if (!in || !kernel || !type || !type.getElementType().isIntOrFloat() ||
        (in.getNumElements() != 0 && kernel.getNumElements() != 0))
      return failure();
    replaceByZeros(r, op);
    return success();
  }
};

/// XLA's SimplifyConvToMultiply: a convolution with no stride, padding,
/// dilation or reversal whose every input feature is its own group of one
/// output feature (depthwise with multiplier 1, or one feature), and whose
/// windows are one element wide or span their whole dimension, is the
/// input times the kernel broadcast along batch, then summed over the
/// spanned dimensions: reduce(transpose(X) * broadcast(K')) reshaped, the
/// operands transposed into the result's dimension order and converted to
/// its element type. Not in layout-sensitive runs (as XLA).
struct ConvolutionToMultiply : HloPattern<ConvolutionOp> {
  ConvolutionToMultiply(MLIRContext *context, ScalarAddComputations &adds)
      : HloPattern(context), adds(adds) {}

  LogicalResult rewrite(ConvolutionOp op, PatternRewriter &r) const override {
    auto in = staticType(op.getLhs()), kernel = staticType(op.getRhs());
    auto type = staticType(op.getResult());
    if (!in || !kernel || !type || !type.getElementType().isIntOrFloat() ||
        op.getBatchGroupCount().value_or(1) != 1)
      return failure();
    ConvDimensionNumbersAttr dn = op.getDimLabels();
    int64_t groups = op.getFeatureGroupCount().value_or(1);
    if (kernel.getDimSize(dn.getKernelInput()) != 1 ||
        in.getDimSize(dn.getInputFeature()) != groups ||
        type.getDimSize(dn.getOutputFeature()) != groups)
      return failure();
    WindowFields w = windowOf(op);
    auto all = [](ArrayRef<int64_t> v, int64_t x) {
      return llvm::all_of(v, [&](int64_t y) { return y == x; });
    };
    if (!all(w.stride, 1) || !all(w.padLow, 0) || !all(w.padHigh, 0) ||
        !all(w.lhsDilate, 1) || !all(w.rhsDilate, 1) || !all(w.reversal, 0))
      return failure();
    // Result dimension d reads input dimension inPerm[d] and kernel
    // dimension kernelPerm[d].
    int64_t rank = type.getRank();
    SmallVector<int64_t> inPerm(rank), kernelPerm(rank), reduced;
    inPerm[dn.getOutputBatch()] = dn.getInputBatch();
    inPerm[dn.getOutputFeature()] = dn.getInputFeature();
    kernelPerm[dn.getOutputBatch()] = dn.getKernelInput();
    kernelPerm[dn.getOutputFeature()] = dn.getKernelOutput();
    for (auto [i, d] : llvm::enumerate(dn.getOutputSpatial())) {
      inPerm[d] = dn.getInputSpatial()[i];
      kernelPerm[d] = dn.getKernelSpatial()[i];
      if (kernel.getDimSize(kernelPerm[d]) == 1)
        continue;
      if (type.getDimSize(d) != 1)
        return failure();
      reduced.push_back(d);
    }
    InstBuilder ib(r, unnamed(op.getLoc()));
    Type element = type.getElementType();
    Value x = ib.convert(ib.transpose(op.getLhs(), inPerm), element);
    Value k = ib.convert(ib.transpose(op.getRhs(), kernelPerm), element);
    // The kernel without its size-1 dimensions, broadcast to X's shape.
    ArrayRef<int64_t> shape = cast<RankedTensorType>(x.getType()).getShape();
    SmallVector<int64_t> kept, dims;
    for (auto [d, size] :
         llvm::enumerate(cast<RankedTensorType>(k.getType()).getShape()))
      if (size != 1) {
        kept.push_back(size);
        dims.push_back(d);
      }
    k = ib.create<BroadcastOp>(
        RankedTensorType::get(shape, element), {ib.reshape(k, kept)},
        {r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr(dims))});
    Value product =
        ib.create<MulOp>(RankedTensorType::get(shape, element), {x, k});
    if (!reduced.empty()) {
      SmallVector<int64_t> rest;
      for (int64_t d = 0; d < rank; ++d)
        if (!llvm::is_contained(reduced, d))
          rest.push_back(shape[d]);
      Value zero = ib.create<ConstantOp>(
          RankedTensorType::get({}, element), {},
          {r.getNamedAttr("value", DenseElementsAttr::get(
                                       RankedTensorType::get({}, element),
                                       r.getZeroAttr(element)))});
      product = ib.create<ReduceOp>(
          RankedTensorType::get(rest, element), {product, zero},
          {r.getNamedAttr("dimensions", r.getDenseI64ArrayAttr(reduced)),
           r.getNamedAttr("to_apply", adds.get(element))});
    }
    if (product.getType() != op.getType())
      product = ib.create<ReshapeOp>(op.getType(), {product});
    replace(r, op, product, true);
    return success();
  }

  ScalarAddComputations &adds;
};

} // namespace

void mlir::hlo::algsimp::populateConvolutionPatterns(
    RewritePatternSet &set, ScalarAddComputations &adds,
    const ShapeOptions &options) {
  set.add<ConvolutionOfPad>(set.getContext(), options.layoutSensitive);
  set.add<ConvolutionOfDilatedKernel, ConvolutionOfEmpty>(set.getContext());
  if (!options.layoutSensitive) {
    set.add<ConvolutionToMultiply>(set.getContext(), adds);
    set.add<ConvolutionSwapOperands>(set.getContext());
  }
}
