//===- KernelsToHost.cpp - hlo-gpu-kernels-to-host ------------------------===//
//
// A kernel with known launch dimensions becomes a host function that runs
// its body once per (block, thread): two `scf.for` nests over the grid and
// the block, the GPU index ops replaced by the loop variables. Kernels that
// synchronize threads (barriers, shuffles, workgroup memory) need the body
// split into phases, which this pass does not do yet: they are an error.
//
//===----------------------------------------------------------------------===//

#include "EmitterUtils.h"

#include "Hlo/Conversion/Passes.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOGPUKERNELSTOHOST
#include "Hlo/Conversion/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

LogicalResult convertKernel(gpu::GPUFuncOp kernel, ModuleOp module,
                            OpBuilder &b) {
  std::optional<ArrayRef<int32_t>> block = kernel.getKnownBlockSize();
  std::optional<ArrayRef<int32_t>> grid = kernel.getKnownGridSize();
  if (!block || !grid)
    return kernel.emitError("hlo-gpu-kernels-to-host: the kernel has no "
                            "known_block_size and known_grid_size");
  if (!kernel.getBody().hasOneBlock() || kernel.getNumWorkgroupAttributions() ||
      kernel.getNumPrivateAttributions())
    return kernel.emitError("hlo-gpu-kernels-to-host: only single-block "
                            "kernels without attributions are supported");
  WalkResult sync = kernel.walk([](Operation *op) {
    return isa<gpu::BarrierOp, gpu::ShuffleOp>(op) ? WalkResult::interrupt()
                                                   : WalkResult::advance();
  });
  if (sync.wasInterrupted())
    return kernel.emitError("hlo-gpu-kernels-to-host: kernels that "
                            "synchronize threads are not supported yet");

  Location loc = kernel.getLoc();
  b.setInsertionPointToEnd(module.getBody());
  auto func =
      func::FuncOp::create(b, loc, kernel.getName(), kernel.getFunctionType());
  // In-place outputs stay marked: the caller fills them from the operands.
  setOutputAliases(func, getOutputAliases(kernel));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value zero = constant(0), one = constant(1);
  // Loops over the grid (z, y, x) then the block (z, y, x); x innermost.
  Value blockIds[3], threadIds[3];
  for (int d = 2; d >= 0; --d) {
    auto loop = scf::ForOp::create(b, loc, zero, constant((*grid)[d]), one);
    b.setInsertionPointToStart(loop.getBody());
    blockIds[d] = loop.getInductionVar();
  }
  for (int d = 2; d >= 0; --d) {
    auto loop = scf::ForOp::create(b, loc, zero, constant((*block)[d]), one);
    b.setInsertionPointToStart(loop.getBody());
    threadIds[d] = loop.getInductionVar();
  }
  IRMapping map;
  Block &body = kernel.getBody().front();
  for (auto [from, to] : llvm::zip(body.getArguments(), entry->getArguments()))
    map.map(from, to);
  for (Operation &op : body.without_terminator()) {
    auto index = [](gpu::Dimension d) { return unsigned(d); };
    if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
      map.map(id.getResult(), blockIds[index(id.getDimension())]);
    } else if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
      map.map(id.getResult(), threadIds[index(id.getDimension())]);
    } else if (auto dim = dyn_cast<gpu::BlockDimOp>(op)) {
      map.map(dim.getResult(), constant((*block)[index(dim.getDimension())]));
    } else if (auto dim = dyn_cast<gpu::GridDimOp>(op)) {
      map.map(dim.getResult(), constant((*grid)[index(dim.getDimension())]));
    } else {
      b.clone(op, map);
    }
  }
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc);
  // Index ops nested in regions (none from the loop emitter) would be left.
  WalkResult left = func.walk([](Operation *op) {
    return isa<gpu::BlockIdOp, gpu::ThreadIdOp, gpu::BlockDimOp,
               gpu::GridDimOp>(op)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  if (left.wasInterrupted())
    return kernel.emitError("hlo-gpu-kernels-to-host: a GPU index op inside "
                            "a nested region is not supported");
  return success();
}

struct GpuKernelsToHostPass
    : hlo::impl::HloGpuKernelsToHostBase<GpuKernelsToHostPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    for (auto gpuModule :
         llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>())) {
      for (auto kernel :
           llvm::make_early_inc_range(gpuModule.getOps<gpu::GPUFuncOp>())) {
        if (!kernel.isKernel())
          continue;
        if (failed(convertKernel(kernel, module, b)))
          return signalPassFailure();
        kernel.erase();
      }
      // Globals (array constants) move to the top module.
      for (Operation &op :
           llvm::make_early_inc_range(gpuModule.getBody()->getOperations()))
        if (isa<memref::GlobalOp>(op))
          op.moveBefore(module.getBody(), module.getBody()->end());
      if (gpuModule.getBody()->empty())
        gpuModule.erase();
    }
    // Fusions name their kernel's host function now.
    SymbolTable table(module);
    module.walk([&](Operation *op) {
      auto ref = op->getAttrOfType<SymbolRefAttr>("hlo.kernel");
      if (ref && ref.getNestedReferences().size() == 1 &&
          table.lookup<func::FuncOp>(ref.getLeafReference()))
        op->setAttr("hlo.kernel",
                    FlatSymbolRefAttr::get(ref.getLeafReference()));
    });
    if (module.getOps<gpu::GPUModuleOp>().empty())
      module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  }
};

} // namespace
