//===- GpuConvPaddingLegalization.cpp - legal cuDNN conv padding ----------===//
//
// XLA's ConvPaddingLegalization: cuDNN pads both sides of a spatial
// dimension by the same non-negative amount and dilates neither the input
// nor (here) the kernel, so each cuDNN custom call whose window asks for
// more gets explicit pads and slices:
//   - forward and bias-activation convs: positive padding and base dilation
//     go into a `pad` of the input, negative padding into a `slice` of it
//     (window dilation stays, as in XLA 0.10.2, or becomes interior padding
//     of the kernel with pad-dilated-kernels);
//   - backward-filter convs: the activations are padded by the difference
//     between the two sides, the window keeps the smaller one;
//   - backward-input convs: the window keeps the smaller padding, the call
//     computes a larger result and a `slice` cuts it back; the call's users
//     read tuple(slice, get-tuple-element(call, 1)).
// Each rewrite is local to one custom call: linear in the module.
//
//===----------------------------------------------------------------------===//

#include "CudnnUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOGPUCONVPADDINGLEGALIZATION
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct GpuConvPaddingLegalizationPass
    : ChangeReportingPass<GpuConvPaddingLegalizationPass,
                          hlo::impl::HloGpuConvPaddingLegalizationBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation())) {
      SmallVector<CustomCallOp> calls;
      comp.walk([&](CustomCallOp c) {
        if (isCudnnConvCall(c) && !hasControlPredecessors(c) &&
            !isControlPredecessor(c) && c.getDimLabelsAttr() &&
            isa<TupleType>(c.getType()) &&
            llvm::all_of(c->getOperands(),
                         [](Value v) { return isStaticArray(v.getType()); }))
          calls.push_back(c);
      });
      for (CustomCallOp call : calls) {
        StringRef t = call.getCustomCallTarget();
        bool done = t == kCudnnConvBackwardFilter  ? backwardFilter(call)
                    : t == kCudnnConvBackwardInput ? backwardInput(call)
                                                   : forward(call);
        if (done) {
          ++numLegalized;
          changed = true;
        }
      }
    }
  }

  bool forward(CustomCallOp conv) {
    WindowFields w = windowOf(conv);
    bool padKernel = padDilatedKernels && w.hasWindowDilation();
    if (w.hasSymmetricPadding() && !w.hasNegativePadding() &&
        !w.hasBaseDilation() && !padKernel)
      return false;
    ConvDimensionNumbersAttr dn = conv.getDimLabelsAttr();
    OpBuilder b(conv);
    Value input = conv->getOperand(0), kernel = conv->getOperand(1);
    int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
    if (!w.hasSymmetricPadding() || w.hasBaseDilation()) {
      SmallVector<int64_t> low(rank, 0), high(rank, 0), interior(rank, 0);
      for (size_t i = 0; i < w.rank(); ++i) {
        int64_t d = dn.getInputSpatial()[i];
        if (w.padLow[i] > 0)
          std::tie(low[d], w.padLow[i]) = std::pair(w.padLow[i], 0);
        if (w.padHigh[i] > 0)
          std::tie(high[d], w.padHigh[i]) = std::pair(w.padHigh[i], 0);
        if (w.lhsDilate[i] != 1)
          std::tie(interior[d], w.lhsDilate[i]) =
              std::pair(w.lhsDilate[i] - 1, 1);
      }
      input = createPad(b, input.getLoc(), input, low, high, interior);
    }
    if (w.hasNegativePadding()) {
      auto it = cast<RankedTensorType>(input.getType());
      SmallVector<int64_t> starts(rank, 0), limits(it.getShape());
      for (size_t i = 0; i < w.rank(); ++i) {
        int64_t d = dn.getInputSpatial()[i];
        if (w.padLow[i] < 0)
          std::tie(starts[d], w.padLow[i]) = std::pair(-w.padLow[i], 0);
        if (w.padHigh[i] < 0)
          std::tie(limits[d], w.padHigh[i]) =
              std::pair(limits[d] + w.padHigh[i], 0);
      }
      input = createSlice(b, input, starts, limits);
    }
    if (padKernel) {
      int64_t krank = cast<RankedTensorType>(kernel.getType()).getRank();
      SmallVector<int64_t> zeros(krank, 0), interior(krank, 0);
      for (size_t i = 0; i < w.rank(); ++i)
        interior[dn.getKernelSpatial()[i]] = w.rhsDilate[i] - 1;
      kernel = createPad(b, kernel.getLoc(), kernel, zeros, zeros, interior);
    }
    auto kt = cast<RankedTensorType>(kernel.getType());
    if (padKernel)
      for (size_t i = 0; i < w.rank(); ++i) {
        w.size[i] = kt.getDimSize(dn.getKernelSpatial()[i]);
        w.rhsDilate[i] = 1;
      }
    SmallVector<Value> operands(conv->getOperands());
    operands[0] = input;
    operands[1] = kernel;
    replace(conv, cloneCudnnConv(b, conv, operands, conv.getType(),
                                 w.toAttr(conv.getContext())));
    return true;
  }

  bool backwardFilter(CustomCallOp conv) {
    WindowFields w = windowOf(conv);
    if (w.hasSymmetricPadding() || w.hasNegativePadding())
      return false;
    ConvDimensionNumbersAttr dn = conv.getDimLabelsAttr();
    Value input = conv->getOperand(0);
    int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
    SmallVector<int64_t> low(rank, 0), high(rank, 0), interior(rank, 0);
    for (size_t i = 0; i < w.rank(); ++i) {
      int64_t keep = std::min(w.padLow[i], w.padHigh[i]);
      int64_t d = dn.getInputSpatial()[i];
      low[d] = w.padLow[i] - keep;
      high[d] = w.padHigh[i] - keep;
      w.padLow[i] = w.padHigh[i] = keep;
    }
    OpBuilder b(conv);
    // XLA's pad here has no metadata.
    Location loc = UnknownLoc::get(conv.getContext());
    Value padded = createPad(b, loc, input, low, high, interior);
    replace(conv, cloneCudnnConv(b, conv, {padded, conv->getOperand(1)},
                                 conv.getType(), w.toAttr(conv.getContext())));
    return true;
  }

  bool backwardInput(CustomCallOp conv) {
    WindowFields w = windowOf(conv);
    if (w.hasSymmetricPadding() || w.hasNegativePadding())
      return false;
    ConvDimensionNumbersAttr dn = conv.getDimLabelsAttr();
    auto tt = cast<TupleType>(conv.getType());
    auto rt = cast<RankedTensorType>(tt.getType(0));
    SmallVector<int64_t> dims(rt.getShape()), starts(rt.getRank(), 0),
        limits(rt.getShape());
    for (size_t i = 0; i < w.rank(); ++i) {
      int64_t d = dn.getInputSpatial()[i];
      int64_t lo = w.padLow[i], hi = w.padHigh[i];
      dims[d] += std::abs(lo - hi);
      // The extra rows are at the end with the larger padding.
      if (lo > hi)
        starts[d] = lo - hi;
      limits[d] = starts[d] + rt.getDimSize(d);
      w.padLow[i] = w.padHigh[i] = std::min(lo, hi);
    }
    MLIRContext *ctx = conv.getContext();
    OpBuilder b(conv);
    auto bigger =
        RankedTensorType::get(dims, rt.getElementType(), rt.getEncoding());
    Type newTuple = TupleType::get(ctx, {bigger, scratchType(ctx, 0)});
    CustomCallOp call =
        cloneCudnnConv(b, conv, conv->getOperands(), newTuple, w.toAttr(ctx));
    // XLA's get-tuple-elements and slice here have no metadata.
    Location none = UnknownLoc::get(ctx);
    Value result = createGte(b, none, call.getResult(), 0);
    Value sliced = createSlice(b, result, starts, limits);
    Value scratch = createGte(b, none, call.getResult(), 1);
    Value tuple =
        createInstruction(
            b,
            NameLoc::get(b.getStringAttr("tuple"), derivedLoc(conv.getLoc())),
            TupleOp::getOperationName(),
            TupleType::get(ctx, {sliced.getType(), scratch.getType()}),
            {sliced, scratch})
            ->getResult(0);
    conv.getResult().replaceAllUsesWith(tuple);
    conv.erase();
    return true;
  }

  static void replace(CustomCallOp conv, CustomCallOp with) {
    conv.getResult().replaceAllUsesWith(with.getResult());
    conv.erase();
  }
};
} // namespace
