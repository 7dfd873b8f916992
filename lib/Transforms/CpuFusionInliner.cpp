//===- CpuFusionInliner.cpp - hlo-cpu-fusion-inliner ----------------------===//
//
// XLA CPU's custom fusions (a `fusion_config` backend config: XNNPACK,
// YNNPACK) replaced by the instructions they fuse, so that the GPU
// compiler can take a module XLA CPU optimized. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCPUFUSIONINLINER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct CpuFusionInlinerPass
    : ChangeReportingPass<CpuFusionInlinerPass,
                          hlo::impl::HloCpuFusionInlinerBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<FusionOp> fusions;
    module.walk([&](FusionOp fusion) {
      if (isXlaCpuCustomFusion(fusion) && !hasControlEdges(fusion))
        fusions.push_back(fusion);
    });
    llvm::DenseSet<Operation *> inlined;
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
      changed = true;
    }
    // Fused computations no fusion calls any more.
    eraseUnreferencedComputations(module, inlined, symbols);
  }
};
} // namespace
