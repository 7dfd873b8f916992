//===- GpuConvRewriter.cpp - convolutions into cuDNN custom calls ---------===//
//
// XLA's ConvRewriter. Each convolution of a non-fused computation is matched,
// in XLA's order, as a backward-input convolution (a transposed convolution:
// the gradient of a forward convolution's input), a backward-filter
// convolution (the gradient of its kernel) or a forward one, and replaced by
// get-tuple-element(custom-call(...), 0), the custom call returning
// (result, u8[0] scratch) with XLA's window, dim_labels and default
// cudnn_conv_backend_config. Every rewrite is local to the convolution and
// its operands: one walk, linear in the module.
//
//===----------------------------------------------------------------------===//

#include "CudnnUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <algorithm>
#include <numeric>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOGPUCONVREWRITER
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// A matched convolution: the custom call's window, dimension numbers and
/// the operand that replaces one of the convolution's.
struct ConvMatch {
  WindowFields window;
  ConvDimensionNumbersAttr dnums;
  Value operand;
};
} // namespace

/// XLA's CheckTypes: floats (fp8 only f8e4m3fn and f8e5m2) and integers.
static bool typeSupported(Type type) {
  auto rt = dyn_cast<RankedTensorType>(type);
  if (!rt || !rt.hasStaticShape())
    return false;
  Type et = rt.getElementType();
  if (auto it = dyn_cast<IntegerType>(et))
    return it.getWidth() > 1;
  if (!isa<FloatType>(et))
    return false;
  if (et.getIntOrFloatBitWidth() == 8)
    return isa<Float8E4M3FNType, Float8E5M2Type>(et);
  return true;
}

static int64_t dimOf(Value v, int64_t d) {
  return cast<RankedTensorType>(v.getType()).getDimSize(d);
}

/// XLA's MaybeConv1dToConv2d: a 2-D convolution whose kernel is a reshape
/// inserting exactly one size-1 dimension, a kernel spatial one.
static bool maybeConv1dToConv2d(ConvolutionOp conv) {
  if (conv.getDimLabels().getInputSpatial().size() != 2)
    return false;
  auto reshape = conv.getRhs().getDefiningOp<ReshapeOp>();
  if (!reshape)
    return false;
  auto in = cast<RankedTensorType>(reshape.getOperand().getType());
  auto out = cast<RankedTensorType>(reshape.getType());
  // Walk both shapes: equal sizes advance together, a 1 in the result only
  // is inserted; anything else is not a 1-sized insertion.
  SmallVector<int64_t> inserted;
  int64_t i = 0, j = 0;
  while (j < out.getRank()) {
    if (i < in.getRank() && in.getDimSize(i) == out.getDimSize(j)) {
      ++i;
      ++j;
    } else if (out.getDimSize(j) == 1) {
      inserted.push_back(j++);
    } else {
      return false;
    }
  }
  if (i != in.getRank() || inserted.size() != 1)
    return false;
  return llvm::is_contained(conv.getDimLabels().getKernelSpatial(),
                            inserted[0]);
}

static bool isPermutationOf(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  return a.size() == b.size() &&
         std::is_permutation(a.begin(), a.end(), b.begin());
}

/// The high padding XLA picks: `low` when in [minHigh, minHigh + stride - 1],
/// else the closest end of that range.
static int64_t pickPadHigh(int64_t low, int64_t minHigh, int64_t stride) {
  int64_t maxHigh = minHigh + stride - 1;
  if (low >= minHigh && low <= maxHigh)
    return low;
  return low < minHigh ? minHigh : maxHigh;
}

/// XLA's MatchBackwardInput. Without `builder` only whether it matches
/// (the match's operand then null where the call needs a new reverse).
static std::optional<ConvMatch> matchBackwardInput(ConvolutionOp conv,
                                                   OpBuilder *builder) {
  if (conv.getFeatureGroupCount().value_or(1) > 1)
    return std::nullopt;
  ConvDimensionNumbersAttr dn = conv.getDimLabels();
  WindowFields w = windowOf(conv);
  Value rhs = conv.getRhs();
  auto reverse = rhs.getDefiningOp<ReverseOp>();
  bool reversed = reverse && isPermutationOf(dn.getKernelSpatial(),
                                             reverse.getDimensions());
  bool oneByOne = llvm::all_of(w.size, [](int64_t s) { return s == 1; });
  bool constant = static_cast<bool>(rhs.getDefiningOp<ConstantOp>());
  // conv1d as conv2d (reshape of a reverse): left as a forward conv here.
  if (!reversed && !(w.hasBaseDilation() && (constant || oneByOne)))
    return std::nullopt;
  for (size_t i = 0; i < w.rank(); ++i)
    if (w.stride[i] != 1 || w.rhsDilate[i] != 1 || w.reversal[i] != 0)
      return std::nullopt;

  WindowFields nw = w;
  for (size_t i = 0; i < w.rank(); ++i) {
    nw.stride[i] = w.lhsDilate[i];
    nw.lhsDilate[i] = 1;
    int64_t k = w.size[i];
    int64_t low = k - 1 - w.padLow[i];
    if (low < 0)
      return std::nullopt;
    nw.padLow[i] = low;
    int64_t unpadded = dimOf(conv.getResult(), dn.getOutputSpatial()[i]);
    int64_t outSize = dimOf(conv.getLhs(), dn.getInputSpatial()[i]);
    int64_t padded = k + nw.stride[i] * (outSize - 1);
    nw.padHigh[i] = pickPadHigh(low, padded - unpadded - low, nw.stride[i]);
    if (nw.padHigh[i] < 0)
      return std::nullopt;
  }
  auto dnums = ConvDimensionNumbersAttr::get(
      conv.getContext(), dn.getOutputBatch(), dn.getOutputFeature(),
      dn.getOutputSpatial(), dn.getKernelOutput(), dn.getKernelInput(),
      dn.getKernelSpatial(), dn.getInputBatch(), dn.getInputFeature(),
      dn.getInputSpatial());
  Value filter = rhs;
  if (reversed) {
    filter = reverse.getOperand();
  } else if (constant && !builder) {
    filter = nullptr;
  } else if (constant) {
    // The call reverses the kernel: give it the reversed constant.
    // XLA's added reverse carries no metadata.
    Location loc = NameLoc::get(builder->getStringAttr("reverse"));
    filter =
        createInstruction(
            *builder, loc, ReverseOp::getOperationName(), rhs.getType(), {rhs},
            {builder->getNamedAttr("dimensions", builder->getDenseI64ArrayAttr(
                                                     dn.getKernelSpatial()))})
            ->getResult(0);
  }
  return ConvMatch{nw, dnums, filter};
}

/// XLA's LooksLikeForwardConvolution.
static bool looksLikeForward(ConvolutionOp conv) {
  ConvDimensionNumbersAttr dn = conv.getDimLabels();
  Value lhs = conv.getLhs(), rhs = conv.getRhs(), out = conv.getResult();
  if (dimOf(lhs, dn.getInputBatch()) != dimOf(out, dn.getOutputBatch()) ||
      dimOf(rhs, dn.getKernelOutput()) != dimOf(out, dn.getOutputFeature()))
    return false;
  for (size_t i = 0; i < dn.getKernelSpatial().size(); ++i)
    if (dimOf(rhs, dn.getKernelSpatial()[i]) >
        dimOf(out, dn.getOutputSpatial()[i]))
      return false;
  return true;
}

static std::optional<ConvMatch> matchBackwardFilter(ConvolutionOp conv) {
  if (conv.getFeatureGroupCount().value_or(1) > 1 || looksLikeForward(conv))
    return std::nullopt;
  ConvDimensionNumbersAttr dn = conv.getDimLabels();
  WindowFields w = windowOf(conv);
  for (size_t i = 0; i < w.rank(); ++i)
    if (w.stride[i] != 1 || w.lhsDilate[i] != 1 || w.padLow[i] < 0 ||
        w.reversal[i] != 0)
      return std::nullopt;
  // Forward convolutions have small kernels; backward filters' "kernels"
  // (the output gradients) are large.
  int64_t small = 0;
  for (size_t i = 0; i < dn.getKernelSpatial().size(); ++i)
    if (dimOf(conv.getRhs(), dn.getKernelSpatial()[i]) <=
        dimOf(conv.getResult(), dn.getOutputSpatial()[i]))
      ++small;
  if ((dn.getKernelSpatial().empty() || small > 1 ||
       (!maybeConv1dToConv2d(conv) && small == 1)) &&
      !w.hasWindowDilation())
    return std::nullopt;

  WindowFields nw = w;
  for (size_t i = 0; i < w.rank(); ++i) {
    nw.size[i] = dimOf(conv.getResult(), dn.getOutputSpatial()[i]);
    nw.stride[i] = w.rhsDilate[i];
    nw.lhsDilate[i] = nw.rhsDilate[i] = 1;
    int64_t inSize = dimOf(conv.getLhs(), dn.getInputSpatial()[i]);
    int64_t padded = nw.size[i] + (w.size[i] - 1) * nw.stride[i];
    nw.padHigh[i] =
        pickPadHigh(w.padLow[i], padded - inSize - w.padLow[i], nw.stride[i]);
    if (nw.padHigh[i] < 0)
      return std::nullopt;
  }
  auto dnums = ConvDimensionNumbersAttr::get(
      conv.getContext(), dn.getInputFeature(), dn.getInputBatch(),
      dn.getInputSpatial(), dn.getOutputBatch(), dn.getOutputFeature(),
      dn.getOutputSpatial(), dn.getKernelInput(), dn.getKernelOutput(),
      dn.getKernelSpatial());
  return ConvMatch{nw, dnums, conv.getLhs()};
}

/// XLA's CanImplementAsGpuForwardConv.
static bool canBeForward(ConvolutionOp conv) {
  ConvDimensionNumbersAttr dn = conv.getDimLabels();
  if (dn.getInputSpatial().size() > 3)
    return false;
  for (Value v : {conv.getLhs(), conv.getRhs()})
    if (cast<RankedTensorType>(v.getType()).getNumElements() == 0)
      return false;
  WindowFields w = windowOf(conv);
  int64_t reversed = llvm::count_if(w.reversal, [](int64_t r) { return r; });
  if (w.rank() == 2)
    return reversed == 0 || reversed == 2;
  return reversed == 0;
}

/// XLA's ConvertBatchGroupedToFeatureGroupedConvolution: the input's batch
/// N becomes [G, N/G], G moves before the features and merges with them.
static Value batchGroupsToFeatureGroups(OpBuilder &builder, ConvolutionOp conv,
                                        int64_t groups) {
  ConvDimensionNumbersAttr dn = conv.getDimLabels();
  Value lhs = conv.getLhs();
  auto lt = cast<RankedTensorType>(lhs.getType());
  int64_t b = dn.getInputBatch(), f = dn.getInputFeature();
  // XLA's added reshapes and transpose carry no metadata.
  auto named = [&](StringRef name) {
    return NameLoc::get(builder.getStringAttr(name));
  };
  SmallVector<int64_t> dims(lt.getShape());
  dims[b] /= groups;
  dims.insert(dims.begin() + b, groups);
  Value v = createInstruction(builder, named("reshape"),
                              ReshapeOp::getOperationName(),
                              rowMajorType(dims, lt.getElementType()), {lhs})
                ->getResult(0);
  SmallVector<int64_t> perm(dims.size());
  std::iota(perm.begin(), perm.end(), 0);
  perm.erase(perm.begin() + b);
  perm.insert(perm.begin() + f, b);
  SmallVector<int64_t> tdims;
  for (int64_t p : perm)
    tdims.push_back(dims[p]);
  v = createInstruction(builder, named("transpose"),
                        TransposeOp::getOperationName(),
                        rowMajorType(tdims, lt.getElementType()), {v},
                        {builder.getNamedAttr(
                            "dimensions", builder.getDenseI64ArrayAttr(perm))})
          ->getResult(0);
  SmallVector<int64_t> merged(tdims);
  merged.erase(merged.begin() + f);
  merged[f] = lt.getDimSize(f) * groups;
  return createInstruction(builder, named("reshape"),
                           ReshapeOp::getOperationName(),
                           rowMajorType(merged, lt.getElementType()), {v})
      ->getResult(0);
}

bool mlir::hlo::isConvLowerableToCudnn(ConvolutionOp conv) {
  return canBeForward(conv) || matchBackwardFilter(conv) ||
         matchBackwardInput(conv, /*builder=*/nullptr);
}

namespace {
struct GpuConvRewriterPass
    : ChangeReportingPass<GpuConvRewriterPass,
                          hlo::impl::HloGpuConvRewriterBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation())) {
      SmallVector<ConvolutionOp> convs;
      comp.walk([&](ConvolutionOp c) { convs.push_back(c); });
      for (ConvolutionOp conv : convs)
        rewrite(conv);
    }
  }

  void rewrite(ConvolutionOp conv) {
    if (hasControlPredecessors(conv) || isControlPredecessor(conv))
      return;
    if (!typeSupported(conv.getType()) ||
        !typeSupported(conv.getLhs().getType()) ||
        !typeSupported(conv.getRhs().getType()))
      return;
    OpBuilder builder(conv);
    MLIRContext *ctx = conv.getContext();
    StringRef target, name;
    Value lhs = conv.getLhs(), rhs = conv.getRhs();
    WindowFields window;
    ConvDimensionNumbersAttr dnums;
    int64_t groups = conv.getFeatureGroupCount().value_or(1);
    if (std::optional<ConvMatch> m = matchBackwardInput(conv, &builder)) {
      target = kCudnnConvBackwardInput;
      name = "cudnn-conv-bw-input";
      std::tie(window, dnums, rhs) = std::tie(m->window, m->dnums, m->operand);
      ++numBackwardInput;
    } else if (std::optional<ConvMatch> m = matchBackwardFilter(conv)) {
      target = kCudnnConvBackwardFilter;
      name = "cudnn-conv-bw-filter";
      std::tie(window, dnums, lhs) = std::tie(m->window, m->dnums, m->operand);
      groups = conv.getBatchGroupCount().value_or(1);
      ++numBackwardFilter;
    } else if (canBeForward(conv)) {
      target = kCudnnConvForward;
      name = "cudnn-conv";
      window = windowOf(conv);
      dnums = conv.getDimLabels();
      int64_t batchGroups = conv.getBatchGroupCount().value_or(1);
      if (batchGroups > 1) {
        if (groups != 1)
          return;
        lhs = batchGroupsToFeatureGroups(builder, conv, batchGroups);
        groups = batchGroups;
      }
      ++numForward;
    } else {
      return;
    }
    Location loc =
        NameLoc::get(StringAttr::get(ctx, name), derivedLoc(conv.getLoc()));
    CustomCallOp call = createCudnnConv(
        builder, loc, target, conv.getType(), scratchType(ctx, 0), {lhs, rhs},
        window.toAttr(ctx), dnums, groups, conv.getOperandPrecisionAttr(),
        defaultConvBackendConfig(ctx));
    if (DictionaryAttr fa = conv.getFrontendAttributesAttr())
      call->setAttr("frontend_attributes", fa);
    Value gte = createGte(builder, conv.getLoc(), call.getResult(), 0);
    conv.getResult().replaceAllUsesWith(gte);
    eraseWithDeadOperands(conv);
    changed = true;
  }
};
} // namespace
