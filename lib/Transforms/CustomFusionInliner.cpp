//===- CustomFusionInliner.cpp - hlo-custom-fusion-inliner ----------------===//
//
// The custom fusions of XLA's optimized modules that no emitter here takes
// (XLA CPU's XNNPACK and YNNPACK fusions, XLA GPU's Triton and cuDNN GEMM
// fusions) replaced by the instructions they fuse, so that the GPU compiler
// can take such a module. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCUSTOMFUSIONINLINER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// XLA GPU's GEMM fusions (its `fusion_backend_config.kind`): Triton GEMMs,
/// the generic Triton emitter's nested GEMM fusions and their operand
/// fusions, cuDNN fusions.
static bool isXlaGpuGemmFusion(FusionOp fusion) {
  if (fusion.getKind() != FusionKind::kCustom)
    return false;
  auto config = readBackendConfig(fusion);
  std::optional<StringRef> kind =
      config ? config.getFusionKind() : std::nullopt;
  return kind && llvm::is_contained({"__triton_gemm",
                                     "__triton_nested_gemm_fusion",
                                     "__cudnn$fusion"},
                                    *kind);
}

namespace {
struct CustomFusionInlinerPass
    : ChangeReportingPass<CustomFusionInlinerPass,
                          hlo::impl::HloCustomFusionInlinerBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    llvm::DenseSet<Operation *> inlined;
    // Inlining a GEMM fusion brings its nested fusions to light: again
    // until none is left.
    for (bool more = true; more;) {
      SmallVector<FusionOp> fusions;
      module.walk([&](FusionOp fusion) {
        if ((isXlaCpuCustomFusion(fusion) || isXlaGpuGemmFusion(fusion)) &&
            !hasControlEdges(fusion))
          fusions.push_back(fusion);
      });
      more = false;
      for (FusionOp fusion : fusions) {
        auto callee = symbols.lookup<ComputationOp>(fusion.getCalls());
        if (!callee || callee.getBody().empty())
          continue;
        OpBuilder builder(fusion);
        fusion.getResult().replaceAllUsesWith(
            inlineComputation(builder, callee, fusion.getInputs()));
        fusion.erase();
        inlined.insert(callee);
        ++numInlined;
        changed = more = true;
      }
    }
    // Fused computations no fusion calls any more.
    eraseUnreferencedComputations(module, inlined, symbols);
  }
};
} // namespace
