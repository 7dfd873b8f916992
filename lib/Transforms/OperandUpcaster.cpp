//===- OperandUpcaster.cpp - dot/convolution operands to the result type --===//
//
// XLA's OperandUpcaster. The element type HLO infers for a dot or a
// convolution is the higher-precision one of its operands' (XLA's
// HigherPrecisionType); an instruction may declare another. When the
// declared type ranks at least as high as the inferred one and the
// operands are not all of it already, every operand of another type is
// converted to the result's:
//   dot(bf16 x, bf16 y) -> f32   ==>   dot(convert(x), convert(y)) -> f32
// A declared type that ranks lower is hlo-result-caster's case. On the GPU
// (`skip-cublas-matmuls`) matrix multiplications cuBLAS runs in mixed
// precision are left to it and to hlo-dot-operand-converter. Left alone:
// operand types XLA cannot rank against each other, fused computations,
// and packed-nibble precision (XLA splits those dots per nibble; not done
// here).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOOPERANDUPCASTER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// True if one of `op`'s operands has packed-nibble precision.
static bool hasPackedNibble(Operation *op) {
  auto precision = op->getAttrOfType<ArrayAttr>("operand_precision");
  return precision && llvm::any_of(precision, [](Attribute a) {
           auto p = dyn_cast<PrecisionAttr>(a);
           return p && p.getValue() == Precision::PackedNibble;
         });
}

/// The element type `op` (a dot or convolution) should compute in with
/// converted operands, or null if it is not one to rewrite.
static Type upcastType(Operation *op) {
  auto lhs = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto rhs = dyn_cast<RankedTensorType>(op->getOperand(1).getType());
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!lhs || !rhs || !result || hasPackedNibble(op))
    return nullptr;
  Type inferred =
      higherPrecisionType(lhs.getElementType(), rhs.getElementType());
  Type declared = result.getElementType();
  if (!inferred || (declared == inferred && lhs.getElementType() == inferred &&
                    rhs.getElementType() == inferred))
    return nullptr;
  return higherPrecisionType(inferred, declared) == declared ? declared
                                                             : nullptr;
}

/// Whether XLA-GPU's upcaster filter leaves `dot` to cuBLAS: a matrix
/// multiplication cuBLAS runs. Floats narrower than 16 bits are upcast
/// here, but for 8-bit ones from Ada (sm_89) on, which hlo-gemm-rewriter
/// takes to cuBLASLt's fp8 GEMM (or, where that does not apply, computes in
/// f16 as XLA does).
static bool isLeftToCublas(DotOp dot, bool fp8Gemms) {
  auto narrowFloat = [&](Value v) {
    auto f = dyn_cast<FloatType>(getElementTypeOrSelf(v.getType()));
    return f && f.getWidth() < 16 && !(fp8Gemms && f.getWidth() == 8);
  };
  return !narrowFloat(dot.getLhs()) && !narrowFloat(dot.getRhs()) &&
         isCublasSupportedMatMul(dot, /*allowMatrixVector=*/false);
}

namespace {
struct OperandUpcasterPass
    : ChangeReportingPass<OperandUpcasterPass,
                          hlo::impl::HloOperandUpcasterBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    // XLA-GPU's filter applies from Volta on.
    const GpuDeviceInfo &gpu = getSelectedGpuDevice();
    bool leaveMatmuls = skipCublasMatmuls && gpu.computeCapabilityMajor >= 7;
    bool fp8Gemms =
        gpu.computeCapabilityMajor * 10 + gpu.computeCapabilityMinor >= 89;
    for (ComputationOp comp : nonFusionComputations(getOperation())) {
      for (Operation &op : comp.getBody().getOps()) {
        if (!isa<DotOp, ConvolutionOp>(op))
          continue;
        if (auto dot = dyn_cast<DotOp>(op);
            dot && leaveMatmuls && isLeftToCublas(dot, fp8Gemms))
          continue;
        Type element = upcastType(&op);
        if (!element)
          continue;
        OpBuilder b(&op);
        for (unsigned i : {0u, 1u}) {
          Value operand = op.getOperand(i);
          if (cast<RankedTensorType>(operand.getType()).getElementType() ==
              element)
            continue;
          Operation *convert = createInstruction(
              b, derivedLoc(op.getLoc()), ConvertOp::getOperationName(),
              withElementType(operand.getType(), element), {operand});
          op.setOperand(i, convert->getResult(0));
        }
        ++numUpcast;
        changed = true;
      }
    }
  }
};
} // namespace
