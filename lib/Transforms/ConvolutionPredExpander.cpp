//===- ConvolutionPredExpander.cpp - pred convolutions in f16 -------------===//
//
// XLA's ConvolutionPredExpander, in XLA-GPU's optimization pipeline: cuDNN
// has no pred convolutions, so one of pred operands and result computes in
// f16 (true 1, false 0: each output element counts the products that are
// true) and converts back (a count other than 0 is true):
//
//   conv = pred[10,10] convolution(pred[10,10] input, pred[10,10] kernel)
// ->
//   conv = pred[10,10] convert(f16[10,10] convolution(
//            f16[10,10] convert(input), f16[10,10] convert(kernel)))
//
// f16 rather than s8, whose sums could wrap to 0 (XLA's reason); f16 counts
// exactly up to 2048 and saturates to inf, non-zero either way. The
// convolution keeps every attribute; the convert back takes its name.
// Left alone: convolutions with an operand or result of another type,
// fused computations.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCONVOLUTIONPREDEXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

static bool isPred(Type type) {
  return isa<RankedTensorType>(type) && getElementTypeOrSelf(type).isInteger(1);
}

namespace {
struct ConvolutionPredExpanderPass
    : ChangeReportingPass<ConvolutionPredExpanderPass,
                          hlo::impl::HloConvolutionPredExpanderBase> {
  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](ConvolutionOp conv) {
        if (!isPred(conv.getLhs().getType()) ||
            !isPred(conv.getRhs().getType()) || !isPred(conv.getType()))
          return;
        OpBuilder b(conv);
        Location loc = derivedLoc(conv.getLoc());
        Type f16 = b.getF16Type();
        auto toF16 = [&](Value v) -> Value {
          return ConvertOp::create(b, loc, withElementType(v.getType(), f16),
                                   v);
        };
        Value lhs = toF16(conv.getLhs()), rhs = toF16(conv.getRhs());
        auto counted = cast<ConvolutionOp>(b.clone(*conv));
        counted->setLoc(loc);
        counted.getLhsMutable().assign(lhs);
        counted.getRhsMutable().assign(rhs);
        counted.getResult().setType(withElementType(conv.getType(), f16));
        replaceByNamed(conv, ConvertOp::create(b, loc, conv.getType(),
                                               counted.getResult()));
        ++numExpanded;
        changed = true;
      });
  }
};
} // namespace
