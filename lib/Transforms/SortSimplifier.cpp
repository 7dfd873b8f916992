//===- SortSimplifier.cpp - drop unused operands of a sort ----------------===//
//
// XLA's SortSimplifier: an operand of a variadic sort whose sorted output
// nothing reads and whose comparator parameters (2i and 2i+1) are unused
// only rides along with the permutation; it is removed. The sort gets a
// copy of its comparator without those parameters (the original may have
// other callers; hlo-dce removes it if not), and the get-tuple-elements
// reading it are renumbered, or replaced by the sort itself when one
// operand is left. A sort whose result is the ROOT or has a user other than
// get-tuple-element is left alone, as in XLA, and so are sorts in fused
// computations and sorts with control predecessors.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "llvm/ADT/BitVector.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSORTSIMPLIFIER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The operands of `sort` that its users or its comparator read, or
/// nothing if they cannot be told (a user other than get-tuple-element).
static std::optional<llvm::BitVector> usedOperands(SortOp sort,
                                                   ComputationOp comparator) {
  size_t n = sort.getInputs().size();
  llvm::BitVector used(n);
  for (OpOperand &use : sort->getUses()) {
    auto gte = dyn_cast<GetTupleElementOp>(use.getOwner());
    if (!gte || use.getOperandNumber() != 0 || gte.getIndex() >= n ||
        hasControlPredecessors(gte))
      return std::nullopt;
    used.set(gte.getIndex());
  }
  Block &body = comparator.getBody().front();
  if (body.getNumArguments() != 2 * n)
    return std::nullopt;
  for (BlockArgument arg : body.getArguments())
    if (!arg.use_empty())
      used.set(arg.getArgNumber() / 2);
  return used;
}

namespace {
struct SortSimplifierPass
    : ChangeReportingPass<SortSimplifierPass,
                          hlo::impl::HloSortSimplifierBase> {
  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<SortOp> sorts;
    for (ComputationOp comp : nonFusionComputations(module))
      for (auto sort : comp.getBody().getOps<SortOp>())
        if (isa<TupleType>(sort.getType()) && !hasControlPredecessors(sort))
          sorts.push_back(sort);
    for (SortOp sort : sorts)
      simplify(sort, symbols);
  }

  void simplify(SortOp sort, SymbolTable &symbols) {
    auto comparator = symbols.lookup<ComputationOp>(sort.getToApply());
    if (!comparator)
      return;
    std::optional<llvm::BitVector> used = usedOperands(sort, comparator);
    if (!used || used->all())
      return;
    size_t n = sort.getInputs().size();
    // The new position of each kept operand.
    SmallVector<int64_t> position(n, -1);
    SmallVector<Value> operands;
    llvm::BitVector dropArgs(2 * n);
    for (size_t i = 0; i < n; ++i) {
      if (used->test(i)) {
        position[i] = operands.size();
        operands.push_back(sort.getInputs()[i]);
      } else {
        dropArgs.set(2 * i);
        dropArgs.set(2 * i + 1);
      }
    }

    auto newComparator = cast<ComputationOp>(comparator->clone());
    newComparator.setPrivate();
    newComparator.setEntry(false);
    if (failed(newComparator.eraseArguments(dropArgs))) {
      newComparator.erase();
      return;
    }
    // Before the computation of the sort: callees before callers.
    symbols.insert(newComparator, Block::iterator(sort->getParentOp()));

    OpBuilder builder(sort);
    SmallVector<NamedAttribute> attrs = {
        builder.getNamedAttr("dimensions", sort.getDimensionsAttr()),
        builder.getNamedAttr("to_apply", FlatSymbolRefAttr::get(
                                             newComparator.getSymNameAttr()))};
    if (auto stable = sort.getIsStableAttr())
      attrs.push_back(builder.getNamedAttr("is_stable", stable));
    auto newSort =
        createInferred<SortOp>(builder, sort.getLoc(), operands, attrs);
    if (!newSort) {
      newComparator.erase();
      return;
    }
    transferInstructionAttrs(sort, newSort);
    bool single = operands.size() == 1;
    for (OpOperand &use : llvm::make_early_inc_range(sort->getUses())) {
      auto gte = cast<GetTupleElementOp>(use.getOwner());
      int64_t index = position[gte.getIndex()];
      if (single) {
        gte.getResult().replaceAllUsesWith(newSort.getResult());
        gte.erase();
        continue;
      }
      use.set(newSort.getResult());
      gte.setIndex(index);
    }
    sort.erase();
    ++numSimplified;
    changed = true;
    numRemovedOperands += n - operands.size();
    changed = true;
  }
};
} // namespace
