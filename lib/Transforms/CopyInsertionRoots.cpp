//===- CopyInsertionRoots.cpp - copies for in-place ops and roots ---------===//
//
// The rules of hlo-gpu-copy-insertion (CopyInsertion.cpp) for in-place
// instructions, computation roots and conditional branches, and what an
// instruction may write over.
//
//===----------------------------------------------------------------------===//

#include "CopyInsertion.h"
#include "TransformUtils.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::hlo;

/// True if the elementwise op `op` has no implicit broadcast of `operand`:
/// they have the same shape.
static bool sameShape(Type a, Type b) {
  auto ra = dyn_cast<RankedTensorType>(a), rb = dyn_cast<RankedTensorType>(b);
  return ra && rb && ra.hasStaticShape() && ra.getShape() == rb.getShape();
}

bool CopyPlanner::fusionWritesOver(FusionOp fusion, unsigned operand,
                                   unsigned resultNode) const {
  bool input = fusion.getKind() == FusionKind::kInput;
  if ((fusion.getKind() != FusionKind::kLoop && !input) || !symbols)
    return false;
  Type operandType = fusion->getOperand(operand).getType();
  Type resultType = fusion.getResult().getType();
  if (auto tuple = dyn_cast<TupleType>(resultType)) {
    ArrayRef<unsigned> nodes = dataflow->getElementNodes(tuple);
    const unsigned *it = llvm::find(nodes, resultNode);
    if (resultNode == 0 || it == nodes.end())
      return false;
    resultType = tuple.getType(it - nodes.begin());
  } else if (resultNode != 0) {
    return false;
  }
  if (resultType != operandType || !isStaticArray(operandType))
    return false;
  auto fused = symbols->lookup<ComputationOp>(fusion.getCalls());
  if (!fused || fused.getBody().empty() || operand >= fused.getNumArguments())
    return false;
  // XLA's AreTransitiveUsesElementwiseOrTuple: every element is read by the
  // thread that writes the same element of the output. A reduction fusion
  // (kInput with a reduce hero and no transpose) reads its input's elements
  // in the step that writes the side outputs' same elements
  // (ReductionEmitter.cpp), so the elementwise values may also feed a
  // reduce there; the side output written must then be one of them.
  if (input && (!fused.getBody()
                     .walk([](ReduceOp) { return WalkResult::interrupt(); })
                     .wasInterrupted() ||
                fused.getBody()
                    .walk([](TransposeOp) { return WalkResult::interrupt(); })
                    .wasInterrupted()))
    return false;
  Value root = fused.getRootValue();
  SmallVector<Value> stack{fused.getArgument(operand)};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!stack.empty()) {
    Value v = stack.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (user->hasTrait<OpTrait::IsTerminator>())
        continue;
      if (isa<TupleOp>(user) && user->getResult(0) == root)
        continue;
      if (auto reduce = dyn_cast<ReduceOp>(user); reduce && input) {
        OperandRange data = reduce.getInputs();
        if (llvm::is_contained(data.take_front(data.size() / 2), v))
          continue;
      }
      if (!isElementwise(user) || user->getNumResults() != 1 ||
          !sameShape(user->getResult(0).getType(), operandType))
        return false;
      if (seen.insert(user).second)
        stack.push_back(user->getResult(0));
    }
  }
  // The written output of a reduction fusion: a side output, one of the
  // elementwise values of the parameter (or the parameter itself).
  if (input) {
    auto tuple = root.getDefiningOp<TupleOp>();
    if (!tuple || resultNode == 0)
      return false;
    ArrayRef<unsigned> nodes = dataflow->getElementNodes(
        cast<TupleType>(fusion.getResult().getType()));
    Value written =
        tuple.getOperand(llvm::find(nodes, resultNode) - nodes.begin());
    Operation *def = written.getDefiningOp();
    return written == fused.getArgument(operand) || (def && seen.contains(def));
  }
  return true;
}

bool CopyPlanner::writesOver(Operation *op, unsigned operand,
                             unsigned operandNode, unsigned resultNode) const {
  if (isElementwise(op) && operandNode == 0 && resultNode == 0 &&
      op->getOperand(operand).getType() == op->getResult(0).getType())
    return true;
  for (auto [in, inNode, outNode] : dataflow->getInPlacePairs(op))
    if (in == operand && inNode == operandNode && outNode == resultNode)
      return true;
  // A nested loop carries its uncopied init element in its state: its
  // result at that index is written over it.
  if (isa<WhileOp>(op))
    return operand == 0 && operandNode == resultNode;
  if (auto fusion = dyn_cast<FusionOp>(op))
    return operandNode == 0 && fusionWritesOver(fusion, operand, resultNode);
  return false;
}

void CopyPlanner::planInPlace(Operation *op) {
  for (auto [operand, inNode, outNode] : dataflow->getInPlacePairs(op)) {
    Value v = op->getOperand(operand);
    bool need = llvm::any_of(dataflow->getValueSet(v, inNode),
                             [&](unsigned id) { return readOnly(id); });
    auto [src, srcNode] = dataOrigin(*dataflow, v, inNode);
    SmallVector<DataReader> readers;
    collectDataReaders(*dataflow, src, srcNode, readers);
    for (const DataReader &r : readers) {
      if (r.user == op)
        need |= r.operand != operand;
      else
        need |=
            r.user->getBlock() != op->getBlock() || op->isBeforeInBlock(r.user);
    }
    // Data from a branch's or callee's parameter is the caller's operand:
    // it is written in place only when the conditional's operand dies there.
    if (auto arg = dyn_cast<BlockArgument>(src); arg && !need) {
      auto comp = dyn_cast<ComputationOp>(arg.getOwner()->getParentOp());
      if (comp && comp != dataflow->getEntry() && !isWhileBody(comp)) {
        unsigned index = 0;
        ConditionalOp cond = conditionalOf(comp, index);
        need = !cond || !outsideLoops(cond) ||
               !operandDies(cond, index, srcNode, comp, {});
      }
    }
    if (need)
      mark(op, operand, inNode);
  }
}

/// The conditional running `branch` (its only caller, once), and the
/// branch's number; null otherwise.
ConditionalOp CopyPlanner::conditionalOf(ComputationOp branch,
                                         unsigned &index) const {
  ArrayRef<Operation *> callers = dataflow->getCallers(branch);
  if (callers.size() != 1)
    return nullptr;
  auto cond = dyn_cast<ConditionalOp>(callers.front());
  if (!cond)
    return nullptr;
  SmallVector<FlatSymbolRefAttr> names(cond.getBranches());
  auto isThis = [&](FlatSymbolRefAttr n) {
    return n.getValue() == branch.getSymName();
  };
  if (llvm::count_if(names, isThis) != 1 ||
      names.size() + 1 != cond.getDataOperands().size() ||
      dataflow->getCallees(cond).size() != names.size())
    return nullptr;
  index = llvm::find_if(names, isThis) - names.begin();
  return cond;
}

/// True if the values of `cond`'s operand for branch `index` at `node` are
/// writable and read only before the conditional, by it (there only), in
/// `branch`, or at positions holding one of `via` (values only the
/// conditional's result passes on).
bool CopyPlanner::operandDies(ConditionalOp cond, unsigned index, unsigned node,
                              ComputationOp branch,
                              const llvm::DenseSet<unsigned> &via) const {
  Value operand = cond.getDataOperands()[index + 1];
  ArrayRef<unsigned> set = dataflow->getValueSet(operand, node);
  if (set.empty())
    return false;
  Block *branchBlock = &branch.getBody().front();
  for (unsigned id : set) {
    if (readOnly(id))
      return false;
    for (const HloUse &use : dataflow->getValue(id).uses) {
      Operation *user = use.user;
      if (user == cond.getOperation()) {
        if (use.operand != index + 1 || use.node != node)
          return false;
        continue;
      }
      if (user->getBlock() == branchBlock ||
          (user->getBlock() == cond->getBlock() && user->isBeforeInBlock(cond)))
        continue;
      if (llvm::any_of(
              dataflow->getValueSet(user->getOperand(use.operand), use.node),
              [&](unsigned v) { return via.contains(v); }))
        continue;
      return false;
    }
  }
  return true;
}

/// True if `branch`, a branch of a conditional returning its parameter's
/// element at `node`, may do so without a copy: the conditional's result
/// then takes the operand's buffer, which must be dead after the
/// conditional, writable, and not given to another branch, and the other
/// branches must write values of their own into it.
bool CopyPlanner::branchMayReturnOperand(ComputationOp branch,
                                         unsigned node) const {
  unsigned index = 0;
  ConditionalOp cond = conditionalOf(branch, index);
  if (!cond || !outsideLoops(cond))
    return false;
  // Every other branch defines its own values at `node` (writable, by an
  // instruction of the branch that takes no operand's buffer): they reach
  // no position but the conditional's result and what comes from it.
  llvm::DenseSet<unsigned> operandValues, otherValues;
  for (Value operand : cond.getDataOperands().drop_front())
    for (unsigned n = 0, e = dataflow->getNumNodes(operand); n < e; ++n)
      operandValues.insert_range(dataflow->getValueSet(operand, n));
  for (Operation *callee : dataflow->getCallees(cond)) {
    auto other = cast<ComputationOp>(callee);
    if (other == branch)
      continue;
    Block *otherBlock = &other.getBody().front();
    ArrayRef<unsigned> there =
        dataflow->getValueSet(other.getRootValue(), node);
    if (there.empty() || llvm::any_of(there, [&](unsigned id) {
          Operation *def = dataflow->getValue(id).defined.value.getDefiningOp();
          return operandValues.contains(id) || readOnly(id) || !def ||
                 def->getBlock() != otherBlock ||
                 !dataflow->getInPlacePairs(def).empty();
        }))
      return false;
    otherValues.insert_range(there);
  }
  return !otherValues.empty() &&
         operandDies(cond, index, node, branch, otherValues);
}

void CopyPlanner::planRoot(ComputationOp comp) {
  Value root = comp.getRootValue();
  Operation *ret = comp.getBody().front().getTerminator();
  bool isEntry = comp == dataflow->getEntry();
  // A while body's root is the loop's (planWhileBody).
  if (!isEntry && isWhileBody(comp))
    return;
  DenseMap<unsigned, unsigned> first = firstLeaves(root);
  // Outputs aliased to a parameter: (output node) -> (parameter, node).
  DenseMap<unsigned, std::pair<unsigned, unsigned>> aliased;
  if (isEntry)
    if (auto aliases = comp->getParentOp()->getAttrOfType<ArrayAttr>(
            "hlo.input_output_alias"))
      for (auto alias : aliases.getAsRange<InputOutputAliasAttr>()) {
        if (alias.getParameter() >= int64_t(comp.getNumArguments()))
          continue;
        Type param = comp.getArgument(alias.getParameter()).getType();
        int64_t in =
            HloDataflowAnalysis::getNode(param, alias.getParameterIndex());
        int64_t out = HloDataflowAnalysis::getNode(root.getType(),
                                                   alias.getOutputIndex());
        if (in >= 0 && out >= 0)
          aliased[out] = {unsigned(alias.getParameter()), unsigned(in)};
      }
  forEachLeaf(root, [&](unsigned node) {
    auto [src, srcNode] = dataOrigin(*dataflow, root, node);
    bool need = repeated(root, node, first);
    auto alias = aliased.find(node);
    if (alias != aliased.end()) {
      BlockArgument param = comp.getArgument(alias->second.first);
      if (src != param || srcNode != alias->second.second) {
        Operation *def = src.getDefiningOp();
        need |=
            !def || readAtOrAfter(param, alias->second.second, def, srcNode);
      }
    } else {
      need |= readOnlyOrRepeated(root, node, first);
      if (!isEntry && isa<BlockArgument>(src))
        need |= srcNode != node || !branchMayReturnOperand(comp, node);
    }
    if (need)
      mark(ret, 0, node);
  });
}
