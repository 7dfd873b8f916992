//===- HloToGpu.cpp - hlo-to-gpu ------------------------------------------===//
//
// Emits a kernel for every fusion outside fused computations into the
// module's `gpu.module @kernels` and names it on the fusion (`hlo.kernel`).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Conversion/FusionEmitter.h"
#include "Hlo/Conversion/MemcpyFusion.h"
#include "Hlo/Conversion/Passes.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringSet.h"

#include <unordered_map>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOTOGPU
#include "Hlo/Conversion/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// A kernel name from an HLO instruction name: `.` and `-` become `_`
/// (PTX identifiers), made unique among `used` (the kernel module's
/// symbols), which it joins.
std::string kernelName(StringRef hloName, llvm::StringSet<> &used) {
  std::string base = hloName.empty() ? "fusion" : hloName.str();
  for (char &c : base)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  // PTX identifiers start with a letter, or with `_`, `$` or `%` followed
  // by more characters.
  if (!llvm::isAlpha(base[0]) && (base[0] != '_' || base.size() == 1))
    base = "k_" + base;
  std::string name = base;
  for (unsigned i = 1; used.contains(name); ++i)
    name = base + "_" + std::to_string(i);
  used.insert(name);
  return name;
}

/// The kernels emitted so far, by what must match for two to be the same
/// (XLA's KernelReuseCache: fusions whose kernels come out identical, as
/// the repeated blocks of a network's layers do, launch one kernel).
class KernelReuse {
public:
  /// An emitted kernel identical to `kernel` but for its name, else null
  /// (`kernel` is then remembered).
  gpu::GPUFuncOp findOrAdd(gpu::GPUFuncOp kernel) {
    int64_t ops = 0;
    kernel.walk([&](Operation *) { ++ops; });
    size_t key = llvm::hash_combine(
        kernel.getFunctionType().getAsOpaquePointer(),
        kernel.getKnownBlockSizeAttr(), kernel.getKnownGridSizeAttr(), ops);
    SmallVector<gpu::GPUFuncOp, 1> &same = kernels[key];
    for (gpu::GPUFuncOp other : same)
      if (attributesButName(other) == attributesButName(kernel) &&
          OperationEquivalence::isRegionEquivalentTo(
              &other.getBody(), &kernel.getBody(),
              OperationEquivalence::IgnoreLocations))
        return other;
    same.push_back(kernel);
    return {};
  }

private:
  static DictionaryAttr attributesButName(gpu::GPUFuncOp kernel) {
    NamedAttrList attrs(kernel->getAttrDictionary());
    attrs.erase(SymbolTable::getSymbolAttrName());
    return attrs.getDictionary(kernel->getContext());
  }

  std::unordered_map<size_t, SmallVector<gpu::GPUFuncOp, 1>> kernels;
};

struct HloToGpuPass : hlo::impl::HloToGpuBase<HloToGpuPass> {
  using HloToGpuBase::HloToGpuBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // Fused computations hold no kernels of their own.
    llvm::DenseSet<Operation *> fused;
    module.walk([&](FusionOp f) {
      if (Operation *c = symbols.lookup(f.getCalls()))
        fused.insert(c);
    });
    SmallVector<FusionOp> fusions;
    for (auto comp : module.getOps<ComputationOp>())
      if (!fused.contains(comp))
        comp.walk([&](FusionOp f) { fusions.push_back(f); });
    if (fusions.empty())
      return;

    // The kernel module, made with the first kernel.
    gpu::GPUModuleOp kernels = dyn_cast_or_null<gpu::GPUModuleOp>(
        SymbolTable::lookupSymbolIn(module, "kernels"));
    auto getKernels = [&] {
      if (kernels)
        return kernels;
      OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
      kernels = gpu::GPUModuleOp::create(b, module.getLoc(), "kernels");
      symbols.insert(kernels);
      module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      b.getUnitAttr());
      return kernels;
    };
    llvm::StringSet<> used;
    KernelReuse reuse;
    MemcpyFusionAnalysis memcpyFusions(module, symbols);
    KernelOptions options;
    options.threadsPerBlock = threadsPerBlock;
    options.unroll = elementsPerThread;
    for (FusionOp fusion : fusions) {
      // A copy of contiguous bytes: no kernel (hlo-to-thunk copies).
      if (memcpyFusions.get(fusion)) {
        ++numMemcpy;
        continue;
      }
      std::string reason;
      if (failed(chooseEmitter(fusion, symbols, reason))) {
        if (allowUnsupported) {
          ++numUnsupported;
          continue;
        }
        fusion.emitError("hlo-to-gpu: no emitter takes this fusion: ")
            << reason;
        return signalPassFailure();
      }
      auto loc = dyn_cast<NameLoc>(fusion->getLoc());
      getKernels();
      // Kernel names are unique among the kernel module's symbols and the
      // top module's (the host lowering moves kernels there).
      if (used.empty())
        for (Block *body : {kernels.getBody(), module.getBody()})
          for (Operation &op : body->getOperations())
            if (auto sym = op.getAttrOfType<StringAttr>(
                    SymbolTable::getSymbolAttrName()))
              used.insert(sym.getValue());
      std::string name = kernelName(loc ? loc.getName().getValue() : "", used);
      FailureOr<gpu::GPUFuncOp> kernel = failure();
      if (allowUnsupported) {
        // An instruction without an element generator leaves this fusion
        // to the runtime's other means, silently.
        ScopedDiagnosticHandler quiet(&getContext(),
                                      [](Diagnostic &) { return success(); });
        kernel = emitKernel(fusion, kernels, name, symbols, options);
        if (failed(kernel)) {
          ++numUnsupported;
          continue;
        }
      } else {
        kernel = emitKernel(fusion, kernels, name, symbols, options);
        if (failed(kernel))
          return signalPassFailure();
      }
      // (A sort's kernels name the kernels that follow it: never the same.)
      if (gpu::GPUFuncOp same = reuse.findOrAdd(*kernel)) {
        kernel->erase();
        kernel = same;
        ++numReused;
      } else {
        ++numKernels;
      }
      fusion->setAttr("hlo.kernel",
                      SymbolRefAttr::get(kernels.getSymNameAttr(),
                                         {FlatSymbolRefAttr::get(*kernel)}));
    }
    if (kernels && kernels.getBody()->empty()) {
      kernels.erase();
      module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
    }
  }
};

} // namespace
