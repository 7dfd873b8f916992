//===- CudnnSimplifyPadding.cpp - drop slice + pad between cuDNN convs ----===//
//
// XLA's CudnnSimplifyPadding. CudnnPadForConvolutions pads a conv's output
// features and slices them off its result; when the next conv pads its
// input features again, the result is pad(slice(conv)) where the features
// sliced off are zeros the pad puts back. When the conv's trailing output
// features are known to be zero, the slice folds into the pad, which pads
// that much less (algsimp then drops a pad that became a no-op).
//
// Trailing zero output features come from the filter, as in XLA: a pad of
// the filter with zero (its high padding of the kernel output features) or
// a constant filter (its trailing all-zero output features). Beyond XLA,
// the epilogue of a bias-activation conv must keep them zero too: a bias
// and side input that are zero there (padded or broadcast zeros) and an
// activation that maps 0 to 0. Each match looks at one pad and its
// producers: linear in the module.
//
//===----------------------------------------------------------------------===//

#include "CudnnUtils.h"
#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCUDNNSIMPLIFYPADDING
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// How many trailing indices of dimension `dim` of `v` hold only zeros, as
/// far as its producer shows (0 when unknown).
int64_t trailingZeros(Value v, int64_t dim) {
  auto type = cast<RankedTensorType>(v.getType());
  Operation *def = v.getDefiningOp();
  if (!def)
    return 0;
  if (auto pad = dyn_cast<PadOp>(def)) {
    if (effectiveScalar(pad.getPaddingValue()) != std::optional<double>(0.0))
      return 0;
    return std::max<int64_t>(0, pad.getPadding().getHigh()[dim]);
  }
  if (auto bcast = dyn_cast<BroadcastOp>(def)) {
    if (effectiveScalar(bcast.getOperand()) == std::optional<double>(0.0))
      return type.getDimSize(dim);
    return 0;
  }
  auto cst = dyn_cast<ConstantOp>(def);
  auto dense = cst ? dyn_cast<DenseElementsAttr>(cst.getValue()) : nullptr;
  if (!dense || !(isa<FloatType>(type.getElementType()) ||
                  isa<IntegerType>(type.getElementType())))
    return 0;
  // The largest index along `dim` of a nonzero element.
  SmallVector<int64_t> strides(type.getRank(), 1);
  for (int64_t d = type.getRank() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * type.getDimSize(d + 1);
  int64_t lastNonzero = -1;
  auto visit = [&](int64_t linear, bool zero) {
    if (!zero)
      lastNonzero = std::max(lastNonzero,
                             (linear / strides[dim]) % type.getDimSize(dim));
  };
  int64_t i = 0;
  if (isa<FloatType>(type.getElementType()))
    for (APFloat x : dense.getValues<APFloat>())
      visit(i++, x.isZero());
  else
    for (APInt x : dense.getValues<APInt>())
      visit(i++, x.isZero());
  return type.getDimSize(dim) - 1 - lastNonzero;
}

/// The trailing output features of `conv` known to be zero.
int64_t trailingZeroOutputFeatures(CustomCallOp conv) {
  ConvDimensionNumbersAttr dn = conv.getDimLabelsAttr();
  int64_t zeros = trailingZeros(conv->getOperand(1), dn.getKernelOutput());
  if (conv.getCustomCallTarget() != kCudnnConvBiasActivationForward ||
      zeros == 0)
    return zeros;
  auto root = readBackendConfig(conv.getBackendConfigAttr());
  BackendConfigAttr cfg = root ? root.getCudnnConvBackendConfig() : nullptr;
  if (!cfg)
    return 0;
  // kSigmoid maps 0 to 0.5; the rest keep 0.
  if (cfg.getString("activation_mode").value_or("kNone") == "kSigmoid")
    return 0;
  if (conv->getNumOperands() > 2)
    zeros = std::min(zeros, trailingZeros(conv->getOperand(2), 0));
  if (conv->getNumOperands() > 3 &&
      cfg.getDouble("side_input_scale").value_or(0) != 0)
    zeros = std::min(zeros,
                     trailingZeros(conv->getOperand(3), dn.getOutputFeature()));
  return zeros;
}

struct CudnnSimplifyPaddingPass
    : ChangeReportingPass<CudnnSimplifyPaddingPass,
                          hlo::impl::HloCudnnSimplifyPaddingBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation())) {
      SmallVector<PadOp> pads;
      comp.walk([&](PadOp pad) { pads.push_back(pad); });
      for (PadOp pad : pads)
        if (simplify(pad)) {
          ++numSimplified;
          changed = true;
        }
    }
  }

  /// pad(slice(gte(conv)), 0) -> pad(gte(conv), 0) with less high padding
  /// of the output features.
  static bool simplify(PadOp pad) {
    if (hasControlEdges(pad) ||
        effectiveScalar(pad.getPaddingValue()) != std::optional<double>(0.0))
      return false;
    auto slice = pad.getOperand().getDefiningOp<SliceOp>();
    if (!slice || hasControlEdges(slice))
      return false;
    auto gte = slice.getOperand().getDefiningOp<GetTupleElementOp>();
    if (!gte || gte.getIndex() != 0 || hasControlEdges(gte))
      return false;
    auto conv = gte.getOperand().getDefiningOp<CustomCallOp>();
    if (!conv || !isCudnnForwardConvCall(conv) || !conv.getDimLabelsAttr() ||
        conv->getNumOperands() < 2)
      return false;
    int64_t feature = conv.getDimLabelsAttr().getOutputFeature();
    auto in = cast<RankedTensorType>(gte.getType());
    auto out = cast<RankedTensorType>(slice.getType());
    if (!in.hasStaticShape() || !out.hasStaticShape())
      return false;
    // Only the high end of the feature dimension is sliced off.
    SliceAttr s = slice.getSlice();
    for (int64_t d = 0; d < in.getRank(); ++d)
      if (s.getStarts()[d] != 0 || s.getStrides()[d] != 1 ||
          (d != feature && s.getLimits()[d] != in.getDimSize(d)))
        return false;
    int64_t sliced = in.getDimSize(feature) - s.getLimits()[feature];
    PaddingAttr p = pad.getPadding();
    if (p.getInterior()[feature] != 0 ||
        sliced > trailingZeroOutputFeatures(conv))
      return false;
    SmallVector<int64_t> high(p.getHigh());
    high[feature] -= sliced;
    pad.setPaddingAttr(PaddingAttr::get(pad.getContext(), p.getLow(), high,
                                        p.getInterior()));
    pad.getOperandMutable().assign(gte.getResult());
    if (slice->use_empty())
      slice.erase();
    return true;
  }
};

} // namespace
