//===- ResultCaster.cpp - dot/convolution in the operands' type -----------===//
//
// XLA's ResultCaster. The element type HLO infers for a dot or a
// convolution is the higher-precision one of its operands' (XLA's
// HigherPrecisionType); an instruction may declare another. When the
// declared type ranks below the inferred one, the instruction computes in
// the inferred type and a convert to the declared type takes its place:
//   dot(f32 x, f32 y) -> bf16   ==>   convert(dot(x, y) -> f32) -> bf16
// The instruction keeps its name, attributes and control edges; the
// convert takes its uses. A declared type that ranks higher is
// hlo-operand-upcaster's case. Left alone: operand types XLA cannot rank
// against each other and fused computations.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLORESULTCASTER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The element type `op` (a dot or convolution) should compute in before a
/// convert to its declared type, or null if it is not one to rewrite.
static Type accumulationType(Operation *op) {
  auto lhs = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto rhs = dyn_cast<RankedTensorType>(op->getOperand(1).getType());
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!lhs || !rhs || !result)
    return nullptr;
  Type inferred =
      higherPrecisionType(lhs.getElementType(), rhs.getElementType());
  Type declared = result.getElementType();
  if (!inferred || inferred == declared)
    return nullptr;
  return higherPrecisionType(inferred, declared) == inferred ? inferred
                                                             : nullptr;
}

namespace {
struct ResultCasterPass
    : ChangeReportingPass<ResultCasterPass, hlo::impl::HloResultCasterBase> {
  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation())) {
      for (Operation &op :
           llvm::make_early_inc_range(comp.getBody().getOps())) {
        if (!isa<DotOp, ConvolutionOp>(op))
          continue;
        Type element = accumulationType(&op);
        if (!element)
          continue;
        Value result = op.getResult(0);
        Type declared = result.getType();
        result.setType(withElementType(declared, element));
        OpBuilder b(op.getContext());
        b.setInsertionPointAfter(&op);
        Operation *convert = createInstruction(b, derivedLoc(op.getLoc()),
                                               ConvertOp::getOperationName(),
                                               declared, {result});
        result.replaceAllUsesExcept(convert->getResult(0), convert);
        ++numCast;
        changed = true;
      }
    }
  }
};
} // namespace
