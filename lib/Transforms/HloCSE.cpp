//===- HloCSE.cpp - common subexpressions, computations by structure ------===//
//
// XLA's HloCSE. Two instructions are one when they have the same opcode,
// operands, attributes and result type (MLIR's CSE, which respects the ops'
// effects and never merges elided constants); instructions that call
// computations compare those computations by structure, not by name. That
// last part is done first: identical computations (same signature, same
// instructions, locations aside) become one, callees before callers so that
// callers calling merged callees compare equal too. Fused computations are
// left apart (each has its one fusion).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/CSE.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCSE
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// A hash of `comp`'s signature and instructions, operands and names aside.
static llvm::hash_code structuralHash(ComputationOp comp) {
  llvm::hash_code h = hash_value(comp.getFunctionType());
  comp.getBody().walk([&](Operation *op) {
    h = llvm::hash_combine(h, OperationEquivalence::computeHash(
                                  op, OperationEquivalence::ignoreHashValue,
                                  OperationEquivalence::ignoreHashValue,
                                  OperationEquivalence::IgnoreLocations));
  });
  return h;
}

namespace {
struct HloCsePass : ChangeReportingPass<HloCsePass, hlo::impl::HloCseBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    if (mergeComputations)
      mergeIdenticalComputations(module);
    IRRewriter rewriter(&getContext());
    for (auto comp : module.getOps<ComputationOp>()) {
      DominanceInfo dominance(comp);
      bool merged = false;
      eliminateCommonSubExpressions(rewriter, dominance, comp, &merged);
      changed |= merged;
    }
  }

  void mergeIdenticalComputations(ModuleOp module) {
    SymbolTable symbols(module);
    DenseSet<Operation *> fused;
    module.walk([&](FusionOp fusion) {
      if (Operation *callee = symbols.lookup(fusion.getCalls()))
        fused.insert(callee);
    });
    SmallVector<ComputationOp> order = calleesFirst(module, symbols);

    // Each computation's references to merged computations are renamed
    // before it is compared, so callers of merged callees compare equal.
    DenseMap<StringAttr, StringAttr> renamed;
    AttrTypeReplacer replacer;
    replacer.addReplacement(
        [&](FlatSymbolRefAttr ref) -> std::optional<Attribute> {
          if (StringAttr to = renamed.lookup(ref.getAttr()))
            return FlatSymbolRefAttr::get(to);
          return std::nullopt;
        });
    DenseMap<llvm::hash_code, SmallVector<ComputationOp>> buckets;
    SmallVector<ComputationOp> merged;
    for (ComputationOp comp : order) {
      if (!renamed.empty())
        comp.getBody().walk([&](Operation *op) {
          replacer.recursivelyReplaceElementsIn(op, /*replaceAttrs=*/true,
                                                /*replaceLocs=*/false,
                                                /*replaceTypes=*/false);
        });
      if (comp.getEntry() || comp.isPublic() || fused.contains(comp))
        continue;
      SmallVector<ComputationOp> &bucket = buckets[structuralHash(comp)];
      ComputationOp same;
      for (ComputationOp other : bucket)
        if (other.getFunctionType() == comp.getFunctionType() &&
            OperationEquivalence::isRegionEquivalentTo(
                &other.getBody(), &comp.getBody(),
                OperationEquivalence::IgnoreLocations)) {
          same = other;
          break;
        }
      if (!same) {
        bucket.push_back(comp);
        continue;
      }
      renamed[comp.getSymNameAttr()] = same.getSymNameAttr();
      merged.push_back(comp);
    }
    for (ComputationOp comp : merged) {
      comp.erase();
      ++numMergedComputations;
      changed = true;
    }
  }
};
} // namespace
