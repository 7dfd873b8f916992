//===- HloDCE.cpp - remove dead instructions and computations -------------===//
//
// XLA's HloDCE. An instruction is dead when nothing uses its result (a
// control edge is a use) and it has no side effect; a computation is dead
// when no live computation calls it. Instructions go in one reverse walk of
// each computation (users come after what they use); computations by
// reachability from the entry computation and the public ones.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLODCE
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct HloDcePass : ChangeReportingPass<HloDcePass, hlo::impl::HloDceBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    for (auto comp : module.getOps<ComputationOp>())
      removeDeadInstructions(comp);
    if (removeDeadComputations)
      removeUnreachableComputations(module);
  }

  void removeDeadInstructions(ComputationOp comp) {
    for (Block &block : comp.getBody())
      for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
        if (!op.hasTrait<OpTrait::IsTerminator>() && isOpTriviallyDead(&op)) {
          op.erase();
          ++numDeadInstructions;
          changed = true;
        }
  }

  void removeUnreachableComputations(ModuleOp module) {
    // Without an entry computation (a library of computations), every
    // computation may be called from outside: nothing is dead.
    SymbolTable symbols(module);
    SmallVector<ComputationOp> roots;
    bool hasEntry = false;
    for (auto comp : module.getOps<ComputationOp>()) {
      hasEntry |= comp.getEntry();
      if (comp.getEntry() || comp.isPublic())
        roots.push_back(comp);
    }
    if (!hasEntry)
      return;
    DenseSet<Operation *> live;
    for (ComputationOp comp : reachableComputations(roots, symbols))
      live.insert(comp);
    for (auto comp : llvm::make_early_inc_range(module.getOps<ComputationOp>()))
      if (!live.contains(comp)) {
        comp.erase();
        ++numDeadComputations;
        changed = true;
      }
  }
};
} // namespace
