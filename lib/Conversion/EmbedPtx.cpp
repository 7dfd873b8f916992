//===- EmbedPtx.cpp - hlo-embed-ptx ---------------------------------------===//
//
// Attaches each kernel module's PTX to it (`thunk.ptx`), and the cubin
// nvJitLink or ptxas assembles from it (`thunk.cubin`), so that a thunk
// program carries the kernel IR (the host runtime's) and the device code
// (the CUDA runtime's) in one file.
//
// LLVM's NVPTX back end and the PTX assembler are most of the GPU
// compiler's time, and each kernel module is one sequential run of both
// (ptxas also costs some 10 ms to start, which nvJitLink, in the process,
// saves). So a kernel module is first split into `kernel-modules`
// modules of about equal size (a fusion's kernels stay together, the
// thunks' references follow them), which are then compiled concurrently on
// the context's threads.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Conversion/CubinAssembler.h"
#include "Hlo/Conversion/FusionEmitter.h"
#include "Hlo/Conversion/Passes.h"
#include "Hlo/Conversion/PtxPipeline.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Threading.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOEMBEDPTX
#include "Hlo/Conversion/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// Splits `kernels` into at most `n` modules (itself and new ones after
/// it) of about equal numbers of operations: each group of kernels (a
/// kernel and those its `hlo.then_kernels` names) goes, largest first, to
/// the module with the fewest. Returns the modules; references to moved
/// kernels in `program` name their new module.
SmallVector<gpu::GPUModuleOp> splitKernelModule(gpu::GPUModuleOp kernels,
                                                unsigned n, ModuleOp program) {
  // The groups, each with its size.
  SmallVector<std::pair<int64_t, SmallVector<gpu::GPUFuncOp>>> groups;
  llvm::DenseSet<StringAttr> followers;
  for (auto f : kernels.getOps<gpu::GPUFuncOp>())
    if (auto then = f->getAttrOfType<ArrayAttr>(kThenKernelsAttrName))
      for (auto ref : then.getAsRange<FlatSymbolRefAttr>())
        followers.insert(ref.getAttr());
  SymbolTable kernelTable(kernels);
  for (auto f : kernels.getOps<gpu::GPUFuncOp>()) {
    if (followers.contains(f.getNameAttr()))
      continue;
    SmallVector<gpu::GPUFuncOp> group{f};
    if (auto then = f->getAttrOfType<ArrayAttr>(kThenKernelsAttrName))
      for (auto ref : then.getAsRange<FlatSymbolRefAttr>())
        if (auto g = kernelTable.lookup<gpu::GPUFuncOp>(ref.getValue()))
          group.push_back(g);
    int64_t size = 0;
    for (gpu::GPUFuncOp g : group)
      g.walk([&](Operation *) { ++size; });
    groups.push_back({size, std::move(group)});
  }
  SmallVector<gpu::GPUModuleOp> modules{kernels};
  n = std::min<unsigned>(n, groups.size());
  if (n < 2)
    return modules;
  llvm::stable_sort(
      groups, [](const auto &a, const auto &b) { return a.first > b.first; });
  SmallVector<int64_t> sizes(n, 0);
  SmallVector<SmallVector<gpu::GPUFuncOp>> bins(n);
  for (auto &[size, group] : groups) {
    unsigned bin = std::min_element(sizes.begin(), sizes.end()) - sizes.begin();
    sizes[bin] += size;
    llvm::append_range(bins[bin], group);
  }
  // Bin 0 stays in `kernels` (the largest group is there); the others move
  // to new modules named after it.
  SymbolTable programTable(program);
  llvm::DenseMap<StringAttr, StringAttr> moved; // kernel -> its module
  Operation *last = kernels;
  for (unsigned i = 1; i < n; ++i) {
    auto part = cast<gpu::GPUModuleOp>(kernels->cloneWithoutRegions());
    part.getBodyRegion().emplaceBlock();
    part.setName((kernels.getName() + "_" + Twine(i)).str());
    // (renamed where the name is taken)
    programTable.insert(part, std::next(Block::iterator(last)));
    last = part;
    for (gpu::GPUFuncOp f : bins[i]) {
      f->moveBefore(part.getBody(), part.getBody()->end());
      moved[f.getNameAttr()] = part.getSymNameAttr();
    }
    modules.push_back(part);
  }
  // The references: @kernels::@f becomes @kernels_1::@f where f moved.
  StringAttr from = kernels.getSymNameAttr();
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](SymbolRefAttr ref) -> std::optional<Attribute> {
    if (ref.getRootReference() != from || ref.getNestedReferences().size() != 1)
      return std::nullopt;
    auto it = moved.find(ref.getLeafReference());
    if (it == moved.end())
      return std::nullopt;
    return SymbolRefAttr::get(it->second, ref.getNestedReferences());
  });
  program->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    replacer.replaceElementsIn(op);
    return WalkResult::advance();
  });
  return modules;
}

/// What compiling one kernel module gave: its PTX and cubin, or an error.
struct Compiled {
  std::string ptx, cubin, error;
};

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
    std::optional<CubinAssembler> assembler;
    if (cubin) {
      std::string error;
      assembler =
          CubinAssembler::find(this->assembler, options.cudaPath, error);
      if (!assembler && this->assembler != "auto") {
        module.emitError("hlo-embed-ptx: ") << error;
        return signalPassFailure();
      }
    }
    SmallVector<gpu::GPUModuleOp> all;
    for (auto kernels : llvm::to_vector(module.getOps<gpu::GPUModuleOp>()))
      llvm::append_range(all,
                         splitKernelModule(kernels, kernelModules, module));
    if (all.empty())
      return;
    // The kernels alone, each module in a module of its own; the dialects
    // the nested pipelines need are loaded here, before the threads.
    SmallVector<OwningOpRef<ModuleOp>> scratch;
    for (gpu::GPUModuleOp kernels : all) {
      scratch.push_back(ModuleOp::create(module.getLoc()));
      scratch.back().get()->setAttr(
          gpu::GPUDialect::getContainerModuleAttrName(), UnitAttr::get(ctx));
      scratch.back()->getBody()->push_back(kernels->clone());
    }
    {
      PassManager pm(ctx);
      buildKernelsToPtxPipeline(pm, options);
      DialectRegistry registry;
      pm.getDependentDialects(registry);
      ctx->appendDialectRegistry(registry);
      for (StringRef name : registry.getDialectNames())
        ctx->getOrLoadDialect(name);
    }
    std::vector<Compiled> results(all.size());
    (void)failableParallelForEachN(ctx, 0, all.size(), [&](size_t i) {
      Compiled &r = results[i];
      // The lowering's IR is verified once, before LLVM reads it, rather
      // than after each of its passes (which costs several per cent of
      // the compile).
      PassManager lower(ctx), serialize(ctx);
      lower.enableVerifier(false);
      buildKernelsToNvvmPipeline(lower, options);
      buildNvvmToPtxPipeline(serialize, options);
      if (failed(lower.run(*scratch[i])) || failed(verify(*scratch[i]))) {
        r.error = "the kernels could not be lowered to the NVVM dialect";
        return failure();
      }
      FailureOr<std::string> ptx = failure();
      if (succeeded(serialize.run(*scratch[i])))
        ptx = getPtx(*scratch[i]);
      if (failed(ptx)) {
        r.error = "the kernels could not be compiled to PTX";
        return failure();
      }
      r.ptx = std::move(*ptx);
      if (!assembler)
        return success();
      // The same PTX assembled for the chip, which a CUDA runtime on that
      // chip loads instead of compiling the PTX when it starts.
      FailureOr<std::string> binary =
          assembler->assemble(r.ptx, target, r.error);
      if (failed(binary))
        return failure();
      r.cubin = std::move(*binary);
      return success();
    });
    bool failedAny = false;
    for (auto [kernels, r] : llvm::zip(all, results)) {
      if (!r.error.empty()) {
        kernels.emitError("hlo-embed-ptx: ") << r.error;
        failedAny = true;
        continue;
      }
      kernels->setAttr("thunk.ptx", StringAttr::get(ctx, r.ptx));
      if (!assembler)
        continue;
      kernels->setAttr("thunk.cubin", StringAttr::get(ctx, r.cubin));
      kernels->setAttr("thunk.cubin_chip", StringAttr::get(ctx, target));
    }
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
