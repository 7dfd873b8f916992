//===- Convolution4DExpander.cpp - drop trivial spatial dimensions --------===//
//
// XLA's Convolution4DExpander, in XLA-GPU's optimization pipeline: cuDNN
// takes at most three spatial dimensions, so a convolution with four drops
// those it computes nothing over: input size 1, no padding (so the window
// and the output are 1 there too). The operands are reshaped without them,
// the convolution runs on the rest, and a reshape gives back its shape:
//
//   conv = f32[15,1,9,1,7,5] convolution(f32[1,10,1,10,5,20] input,
//            f32[20,1,2,1,4,15] kernel), window={size=1x2x1x4},
//            dim_labels=0123bf_i0123o->f0123b
// ->
//   conv = f32[15,1,9,1,7,5] reshape(convolution(f32[10,10,5,20]
//   reshape(input),
//            f32[20,2,4,15] reshape(kernel)), window={size=2x4},
//            dim_labels=01bf_i01o->f01b)
//
// The new convolution keeps every other attribute; the reshape of its
// result takes the old one's name. Layouts, where the types have them, lose
// the dropped dimensions (XLA's ShapeUtil::DeleteDimension). Left alone:
// other spatial ranks, dynamic shapes, fused computations.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "LayoutUtils.h"
#include "ReductionUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCONVOLUTION4DEXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// `type` without the dimensions `removed` (increasing), its layout (if
/// explicit) without them too.
static RankedTensorType dropDimensions(Type type, ArrayRef<int64_t> removed) {
  auto rt = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape;
  for (auto [d, size] : llvm::enumerate(rt.getShape()))
    if (!llvm::is_contained(removed, int64_t(d)))
      shape.push_back(size);
  RankedTensorType result = withShapeOf(rt, shape);
  if (!isa_and_nonnull<LayoutAttr>(rt.getEncoding()) || shape.empty())
    return result;
  return cast<RankedTensorType>(
      withMinorToMajor(result, deleteDimensions(getMinorToMajor(rt), removed)));
}

/// Dimension `d` numbered among those left after `removed` go.
static int64_t renumber(int64_t d, ArrayRef<int64_t> removed) {
  return d - llvm::count_if(removed, [&](int64_t r) { return r < d; });
}

static SmallVector<int64_t> renumber(ArrayRef<int64_t> dims,
                                     ArrayRef<int64_t> removed) {
  return llvm::map_to_vector(dims,
                             [&](int64_t d) { return renumber(d, removed); });
}

namespace {
struct Convolution4DExpanderPass
    : ChangeReportingPass<Convolution4DExpanderPass,
                          hlo::impl::HloConvolution4DExpanderBase> {
  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](ConvolutionOp conv) {
        if (expand(conv)) {
          ++numExpanded;
          changed = true;
        }
      });
  }

  bool expand(ConvolutionOp conv) {
    ConvDimensionNumbersAttr dn = conv.getDimLabels();
    if (dn.getInputSpatial().size() != 4 ||
        !isStaticArray(conv.getLhs().getType()) ||
        !isStaticArray(conv.getRhs().getType()) ||
        !isStaticArray(conv.getType()))
      return false;
    auto lhs = cast<RankedTensorType>(conv.getLhs().getType());
    auto rhs = cast<RankedTensorType>(conv.getRhs().getType());
    auto out = cast<RankedTensorType>(conv.getType());
    WindowFields window(conv.getWindowAttr(), 4);
    // The spatial dimensions that go, and what stays of the window.
    SmallVector<int64_t> inGone, kernelGone, outGone, kept;
    for (int64_t i = 0; i < 4; ++i) {
      int64_t in = dn.getInputSpatial()[i], k = dn.getKernelSpatial()[i],
              o = dn.getOutputSpatial()[i];
      if (lhs.getDimSize(in) == 1 && window.padLow[i] == 0 &&
          window.padHigh[i] == 0 && rhs.getDimSize(k) == 1 &&
          out.getDimSize(o) == 1) {
        inGone.push_back(in);
        kernelGone.push_back(k);
        outGone.push_back(o);
      } else {
        kept.push_back(i);
      }
    }
    if (inGone.empty())
      return false;
    llvm::sort(inGone);
    llvm::sort(kernelGone);
    llvm::sort(outGone);
    auto keptOf = [&](ArrayRef<int64_t> dims, ArrayRef<int64_t> gone) {
      SmallVector<int64_t> picked;
      for (int64_t i : kept)
        picked.push_back(dims[i]);
      return renumber(picked, gone);
    };
    MLIRContext *ctx = conv.getContext();
    auto labels = ConvDimensionNumbersAttr::get(
        ctx, renumber(dn.getInputBatch(), inGone),
        renumber(dn.getInputFeature(), inGone),
        keptOf(dn.getInputSpatial(), inGone),
        renumber(dn.getKernelInput(), kernelGone),
        renumber(dn.getKernelOutput(), kernelGone),
        keptOf(dn.getKernelSpatial(), kernelGone),
        renumber(dn.getOutputBatch(), outGone),
        renumber(dn.getOutputFeature(), outGone),
        keptOf(dn.getOutputSpatial(), outGone));
    WindowFields fewer;
    for (int64_t i : kept) {
      fewer.size.push_back(window.size[i]);
      fewer.stride.push_back(window.stride[i]);
      fewer.padLow.push_back(window.padLow[i]);
      fewer.padHigh.push_back(window.padHigh[i]);
      fewer.lhsDilate.push_back(window.lhsDilate[i]);
      fewer.rhsDilate.push_back(window.rhsDilate[i]);
      fewer.reversal.push_back(window.reversal[i]);
    }

    OpBuilder b(conv);
    Location loc = derivedLoc(conv.getLoc());
    Value input =
        ReshapeOp::create(b, loc, dropDimensions(lhs, inGone), conv.getLhs());
    Value kernel = ReshapeOp::create(b, loc, dropDimensions(rhs, kernelGone),
                                     conv.getRhs());
    auto smaller = cast<ConvolutionOp>(b.clone(*conv));
    smaller->setLoc(loc);
    smaller.getLhsMutable().assign(input);
    smaller.getRhsMutable().assign(kernel);
    smaller.setDimLabelsAttr(labels);
    smaller.setWindowAttr(kept.empty() ? WindowAttr() : fewer.toAttr(ctx));
    smaller.getResult().setType(dropDimensions(out, outGone));
    replaceByNamed(conv, ReshapeOp::create(b, loc, out, smaller.getResult()));
    return true;
  }
};
} // namespace
