//===- DotOperandConverter.cpp - one element type for a dot's operands ----===//
//
// XLA-GPU's DotOperandConverter. cuBLAS multiplies operands of one element
// type; a dot whose two operands differ (s8 x bf16, as int8 weights with
// bf16 activations are) gets the lower-ranked operand converted to the
// other's type, in place:
//   dot(s8 x, bf16 y) -> f32   ==>   dot(convert(x) -> bf16, y) -> f32
// The rank is XLA's HigherPrecisionType. Mixed f8 operands of XLA's f8
// GEMM types stay (cuBLASLt takes e4m3 x e5m2); two types XLA ranks
// equally stay too (XLA's CHECK fails on them). XLA-GPU runs this after
// OperandUpcaster, whose GPU filter leaves cuBLAS matmuls alone.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLODOTOPERANDCONVERTER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The f8 types cuBLASLt multiplies mixed (XLA's non-converting set).
static bool isMixableF8(Type t) {
  return isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
             Float8E5M2FNUZType>(t);
}

namespace {
struct DotOperandConverterPass
    : ChangeReportingPass<DotOperandConverterPass,
                          hlo::impl::HloDotOperandConverterBase> {
  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation())) {
      for (DotOp dot : comp.getBody().getOps<DotOp>()) {
        auto lhs = dyn_cast<RankedTensorType>(dot.getLhs().getType());
        auto rhs = dyn_cast<RankedTensorType>(dot.getRhs().getType());
        if (!lhs || !rhs)
          continue;
        Type l = lhs.getElementType(), r = rhs.getElementType();
        if (l == r || (isMixableF8(l) && isMixableF8(r)))
          continue;
        Type wanted = higherPrecisionType(l, r);
        if (!wanted)
          continue;
        unsigned index = wanted == l ? 1 : 0;
        Value operand = dot->getOperand(index);
        OpBuilder b(dot);
        Operation *convert = createInstruction(
            b, derivedLoc(dot.getLoc()), ConvertOp::getOperationName(),
            withElementType(operand.getType(), wanted), {operand});
        dot->setOperand(index, convert->getResult(0));
        ++numConverted;
        changed = true;
      }
    }
  }
};
} // namespace
