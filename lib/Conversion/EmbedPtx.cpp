//===- EmbedPtx.cpp - hlo-embed-ptx ---------------------------------------===//
//
// Attaches each kernel module's PTX to it (`thunk.ptx`), so that a thunk
// program carries both the kernel IR (the host runtime's) and the PTX (the
// CUDA runtime's) in one file.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Conversion/Passes.h"
#include "Hlo/Conversion/PtxPipeline.h"

#include "mlir/Pass/PassManager.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOEMBEDPTX
#include "Hlo/Conversion/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct EmbedPtxPass : hlo::impl::HloEmbedPtxBase<EmbedPtxPass> {
  using HloEmbedPtxBase::HloEmbedPtxBase;

  // The nested pipeline's dialects and the NVVM target's serialization,
  // so that tools other than hlo-opt can run the pass.
  void getDependentDialects(DialectRegistry &registry) const override {
    HloEmbedPtxBase::getDependentDialects(registry);
    registerPtxDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    HloToPtxOptions options;
    options.chip = chip;
    std::string target = chip.empty() ? getSelectedGpuChip() : chip.getValue();
    std::optional<std::string> ptxas =
        cubin ? findPtxas(options.cudaPath) : std::nullopt;
    for (auto kernels : module.getOps<gpu::GPUModuleOp>()) {
      // The kernels alone, lowered to PTX in a module of their own.
      OwningOpRef<ModuleOp> scratch = ModuleOp::create(module.getLoc());
      scratch.get()->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                             UnitAttr::get(ctx));
      scratch->getBody()->push_back(kernels->clone());
      PassManager pm(ctx);
      buildKernelsToPtxPipeline(pm, options);
      if (failed(pm.run(*scratch))) {
        kernels.emitError("hlo-embed-ptx: the kernels could not be "
                          "compiled to PTX");
        return signalPassFailure();
      }
      FailureOr<std::string> ptx = getPtx(*scratch);
      if (failed(ptx))
        return signalPassFailure();
      kernels->setAttr("thunk.ptx", StringAttr::get(ctx, *ptx));
      if (!cubin || !ptxas)
        continue;
      // The same PTX assembled for the chip, which a CUDA runtime on that
      // chip loads instead of compiling the PTX when it starts.
      std::string error;
      FailureOr<std::string> binary = assemblePtx(*ptxas, *ptx, target, error);
      if (failed(binary)) {
        kernels.emitError("hlo-embed-ptx: ") << error;
        return signalPassFailure();
      }
      kernels->setAttr("thunk.cubin", StringAttr::get(ctx, *binary));
      kernels->setAttr("thunk.cubin_chip", StringAttr::get(ctx, target));
    }
  }
};
} // namespace
