//===- ConditionalSimplifier.cpp - remove or narrow conditionals ----------===//
//
// XLA's ConditionalSimplifier, its main rewrites:
//  - a conditional with one branch, or whose branch index is a constant,
//    is replaced by the instructions of the branch that runs (XLA makes it
//    a call and inlines the call): pred true is branch 0, false branch 1,
//    an s32 index out of range the last branch;
//  - a conditional whose tuple result is read only by get-tuple-elements
//    returns only the elements read: each branch gets a copy whose root is
//    a tuple of those elements, and the get-tuple-elements are renumbered.
// Conditionals with side effects are not removed (XLA's
// IsSafelyRemovable/HasSideEffect); conditionals with sharding, with
// control predecessors or used as one are left alone, as are conditionals
// whose branches hold channel instructions (XLA: cloning them would
// duplicate channels).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCONDITIONALSIMPLIFIER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The branch a constant branch index selects, or -1.
static int64_t constantBranch(ConditionalOp cond, size_t numBranches) {
  auto constant = cond.getBranchIndex().getDefiningOp<ConstantOp>();
  auto literal =
      constant ? dyn_cast<DenseIntElementsAttr>(constant.getValue()) : nullptr;
  if (!literal || literal.getNumElements() != 1)
    return -1;
  APInt value = *literal.value_begin<APInt>();
  if (literal.getElementType().isInteger(1))
    return value.isZero() ? 1 : 0;
  int64_t index = value.getSExtValue();
  return index < 0 || index >= int64_t(numBranches) ? numBranches - 1 : index;
}

/// Replaces `cond` by a copy of the instructions of `branch` on `operand`.
static void inlineBranch(ConditionalOp cond, ComputationOp branch,
                         Value operand) {
  Block &body = branch.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArgument(0), operand);
  OpBuilder builder(cond);
  for (Operation &op : body.without_terminator())
    builder.clone(op, mapping);
  cond.getResult().replaceAllUsesWith(
      mapping.lookupOrDefault(branch.getRootValue()));
  cond.erase();
}

/// True if an instruction of `comp`, or of a computation it calls, has a
/// channel id (send, recv, collectives across partitions).
static bool callsChannelInstructions(ComputationOp comp, SymbolTable &symbols) {
  SmallVector<ComputationOp> work = {comp};
  llvm::DenseSet<Operation *> seen = {comp};
  while (!work.empty()) {
    ComputationOp c = work.pop_back_val();
    bool found = false;
    c.walk([&](Operation *op) { found |= op->hasAttr("channel_id"); });
    if (found)
      return true;
    forEachCallee(c, symbols, [&](ComputationOp callee) {
      if (seen.insert(callee).second)
        work.push_back(callee);
    });
  }
  return false;
}

namespace {
struct ConditionalSimplifierPass
    : hlo::impl::HloConditionalSimplifierBase<ConditionalSimplifierPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<ConditionalOp> conds;
    module.walk([&](ConditionalOp cond) { conds.push_back(cond); });
    for (ConditionalOp cond : conds) {
      if (cond->hasAttr("sharding") || hasControlPredecessors(cond) ||
          isControlPredecessor(cond))
        continue;
      SmallVector<ComputationOp> branches;
      for (FlatSymbolRefAttr ref : cond.getBranches())
        if (auto branch = symbols.lookup<ComputationOp>(ref.getAttr()))
          branches.push_back(branch);
      if (branches.empty() ||
          branches.size() != cond.getBranchOperands().size() ||
          llvm::any_of(branches, [&](ComputationOp b) {
            return b.getBody().front().getNumArguments() != 1 ||
                   callsChannelInstructions(b, symbols);
          }))
        continue;
      if (removeUnusedElements(cond, branches, symbols))
        ++numNarrowed;
      if (!isMemoryEffectFree(cond))
        continue;
      int64_t taken =
          branches.size() == 1 ? 0 : constantBranch(cond, branches.size());
      if (taken < 0)
        continue;
      inlineBranch(cond, branches[taken], cond.getBranchOperands()[taken]);
      ++numRemoved;
    }
  }

  /// Narrows the tuple `cond` returns to the elements its
  /// get-tuple-elements read; true if it did.
  bool removeUnusedElements(ConditionalOp cond,
                            MutableArrayRef<ComputationOp> branches,
                            SymbolTable &symbols) {
    auto type = dyn_cast<TupleType>(cond.getType());
    if (!type || cond->use_empty())
      return false;
    llvm::BitVector used(type.size());
    for (OpOperand &use : cond->getUses()) {
      auto gte = dyn_cast<GetTupleElementOp>(use.getOwner());
      if (!gte || use.getOperandNumber() != 0 || gte.getIndex() >= type.size())
        return false;
      used.set(gte.getIndex());
    }
    if (used.all())
      return false;
    SmallVector<int64_t> position(type.size(), -1);
    SmallVector<Type> kept;
    for (unsigned i : used.set_bits()) {
      position[i] = kept.size();
      kept.push_back(type.getType(i));
    }
    auto newType = TupleType::get(cond.getContext(), kept);

    // A copy of each branch returning the kept elements.
    SmallVector<Attribute> refs;
    for (ComputationOp &branch : branches) {
      auto copy = cast<ComputationOp>(branch->clone());
      copy.setPrivate();
      copy.setEntry(false);
      Operation *ret = copy.getBody().front().getTerminator();
      Value root = ret->getOperand(0);
      OpBuilder builder(ret);
      SmallVector<Value> elements;
      for (unsigned i : used.set_bits())
        elements.push_back(
            createInferred<GetTupleElementOp>(
                builder, root.getLoc(), {root},
                {builder.getNamedAttr("index", builder.getI64IntegerAttr(i))})
                .getResult());
      Value tuple =
          createInferred<TupleOp>(builder, root.getLoc(), elements).getResult();
      ret->setOperand(0, tuple);
      copy.setFunctionTypeAttr(TypeAttr::get(FunctionType::get(
          cond.getContext(), copy.getArgumentTypes(), {newType})));
      symbols.insert(copy, Block::iterator(cond->getParentOp()));
      branch = copy;
      refs.push_back(FlatSymbolRefAttr::get(copy.getSymNameAttr()));
    }
    if (cond.getBranchComputationsAttr()) {
      cond.setBranchComputationsAttr(ArrayAttr::get(cond.getContext(), refs));
    } else {
      cond.setTrueComputationAttr(cast<FlatSymbolRefAttr>(refs[0]));
      cond.setFalseComputationAttr(cast<FlatSymbolRefAttr>(refs[1]));
    }
    cond.getResult().setType(newType);
    for (OpOperand &use : cond->getUses()) {
      auto gte = cast<GetTupleElementOp>(use.getOwner());
      gte.setIndex(position[gte.getIndex()]);
    }
    return true;
  }
};
} // namespace
