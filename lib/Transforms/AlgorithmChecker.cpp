//===- AlgorithmChecker.cpp - dot algorithms the GPU runs -----------------===//
//
// XLA-GPU's AlgorithmChecker: a dot that names its algorithm (XLA's
// PrecisionConfig.Algorithm) is compiled with it or not at all. The rules
// are XLA's IsSupportedDotAlgorithmOnGpu for CUDA GPUs: which algorithms
// the selected GPU's generation runs, on which operand (storage) and
// result types. Both operands must have one type. The pass changes
// nothing; it fails at the first dot it rejects, with XLA's message.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "RewriteUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOALGORITHMCHECKER
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// True if a GPU of compute capability `cc` (major * 10 + minor) runs
/// `algorithm` on operands of type `in` with a result of type `out`.
static bool isSupportedOnGpu(DotAlgorithm algorithm, int cc, Type in,
                             Type out) {
  bool ampere = cc >= 80, ada = cc >= 89;
  auto isF8 = [](Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); };
  switch (algorithm) {
  case DotAlgorithm::DotAnyF8AnyF8F32:
  case DotAlgorithm::DotAnyF8AnyF8F32FastAccum:
    return ada && isF8(in) &&
           (isF8(out) || out.isF16() || out.isBF16() || out.isF32());
  case DotAlgorithm::DotF16F16F32:
    return in.isF16() && (out.isF16() || out.isF32());
  case DotAlgorithm::DotBF16BF16F32:
    return ampere && ((in.isBF16() && (out.isBF16() || out.isF32())) ||
                      (in.isF32() && out.isF32()));
  case DotAlgorithm::DotBF16BF16F32X3:
  case DotAlgorithm::DotBF16BF16F32X6:
  case DotAlgorithm::DotBF16BF16F32X9:
  case DotAlgorithm::DotTF32TF32F32:
  case DotAlgorithm::DotTF32TF32F32X3:
    return ampere && in.isF32() && out.isF32();
  case DotAlgorithm::DotF32F32F32:
    return in.isF32() && out.isF32();
  case DotAlgorithm::DotF64F64F64:
    return in.isF64() && out.isF64();
  default:
    return false;
  }
}

namespace {
struct AlgorithmCheckerPass
    : hlo::impl::HloAlgorithmCheckerBase<AlgorithmCheckerPass> {
  void runOnOperation() override {
    const GpuDeviceInfo &gpu = getSelectedGpuDevice();
    int cc = gpu.computeCapabilityMajor * 10 + gpu.computeCapabilityMinor;
    for (ComputationOp comp : nonFusionComputations(getOperation())) {
      for (DotOp dot : comp.getBody().getOps<DotOp>()) {
        std::optional<DotAlgorithm> algorithm = dot.getAlgorithm();
        if (!algorithm || *algorithm == DotAlgorithm::Unset)
          continue;
        Type lhs = getElementTypeOrSelf(dot.getLhs().getType());
        Type rhs = getElementTypeOrSelf(dot.getRhs().getType());
        Type out = getElementTypeOrSelf(dot.getResult().getType());
        if (lhs != rhs) {
          std::string types;
          llvm::raw_string_ostream(types) << lhs << " and " << rhs;
          dot.emitError("Dot operands must have the same type when using an "
                        "algorithm (")
              << types << ")";
          return signalPassFailure();
        }
        if (!isSupportedOnGpu(*algorithm, cc, lhs, out)) {
          std::string types;
          llvm::raw_string_ostream(types)
              << lhs << " operands, " << out << " result, sm_" << cc;
          dot.emitError("Unsupported algorithm on the current device(s): ALG_")
              << stringifyDotAlgorithm(*algorithm).upper() << " (" << types
              << ")";
          return signalPassFailure();
        }
      }
    }
  }
};
} // namespace
