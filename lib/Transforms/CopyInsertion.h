//===- CopyInsertion.h - hlo-gpu-copy-insertion's planner -----*- C++ -*-===//
//
// Private to lib/Transforms. The rules of hlo-gpu-copy-insertion (see
// CopyInsertion.cpp) mark the operand leaves to copy; the planner keeps the
// marks and then makes the copies. Its rules live by what they protect:
// CopyInsertionLoops.cpp (while loops: the state going in, the body's
// root, one copy shared by a loop and its enclosing body), and
// CopyInsertionRoots.cpp (in-place instructions, computation roots,
// conditional branches).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_COPYINSERTION_H
#define HLO_LIB_TRANSFORMS_COPYINSERTION_H

#include "CopyInsertionUtils.h"

#include "Hlo/Analysis/HloDataflowAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::hlo {

class CopyPlanner {
public:
  explicit CopyPlanner(SymbolTable &symbols) : symbols(&symbols) {}

  /// The analysis the rules read (redone by the pass after copies).
  const HloDataflowAnalysis *dataflow = nullptr;
  /// Copies made so far.
  int64_t copies = 0;

  void planRedirect(WhileOp loop);
  void planWhileInit(WhileOp loop);
  void planWhileBody(WhileOp loop);
  void planInPlace(Operation *op);
  void planRoot(ComputationOp comp);
  /// Makes the planned copies; true if there were any.
  bool apply();
  bool applyRedirects();

private:
  bool readOnly(unsigned id) const {
    const HloValue &v = dataflow->getValue(id);
    if (auto arg = dyn_cast<BlockArgument>(v.defined.value))
      return arg.getOwner()->getParentOp() == dataflow->getEntry();
    return v.defined.value.getDefiningOp<ConstantOp>() != nullptr;
  }
  /// Marks leaf `node` of operand `operand` of `op` for a copy.
  void mark(Operation *op, unsigned operand, unsigned node) {
    SmallVector<bool> &mask = plans[{op, operand}];
    if (mask.empty())
      mask.resize(getNumSubshapes(op->getOperand(operand).getType()), false);
    mask[node] = true;
  }
  /// The first leaf of `v` holding each value.
  DenseMap<unsigned, unsigned> firstLeaves(Value v) const {
    DenseMap<unsigned, unsigned> first;
    forEachLeaf(v, [&](unsigned node) {
      for (unsigned id : dataflow->getValueSet(v, node))
        first.try_emplace(id, node);
    });
    return first;
  }
  /// True if a leaf of `v` holds a value also at an earlier leaf.
  bool repeated(Value v, unsigned node,
                const DenseMap<unsigned, unsigned> &first) const {
    return llvm::any_of(dataflow->getValueSet(v, node),
                        [&](unsigned id) { return first.lookup(id) != node; });
  }
  bool readOnlyOrRepeated(Value v, unsigned node,
                          const DenseMap<unsigned, unsigned> &first) const {
    return repeated(v, node, first) ||
           llvm::any_of(dataflow->getValueSet(v, node),
                        [&](unsigned id) { return readOnly(id); });
  }
  void forEachLeaf(Value v, function_ref<void(unsigned)> fn) const {
    forEachSubshape(v.getType(),
                    [&, node = 0u](Type t, ArrayRef<int64_t>) mutable {
                      if (!isa<TupleType>(t))
                        fn(node);
                      ++node;
                    });
  }
  /// True if node `node` of `v` is read after `def`, or by `def` itself
  /// unless `def` writes its result node `resultNode` over what it reads.
  bool readAtOrAfter(Value v, unsigned node, Operation *def,
                     unsigned resultNode) const {
    SmallVector<DataReader> readers;
    collectDataReaders(*dataflow, v, node, readers);
    return llvm::any_of(readers, [&](const DataReader &r) {
      if (r.user == def)
        return !writesOver(def, r.operand, r.node, resultNode);
      return r.user->getBlock() == def->getBlock() &&
             def->isBeforeInBlock(r.user);
    });
  }
  bool writesOver(Operation *op, unsigned operand, unsigned operandNode,
                  unsigned resultNode) const;
  bool fusionWritesOver(FusionOp fusion, unsigned operand,
                        unsigned resultNode) const;
  ComputationOp bodyOf(WhileOp loop) const;
  bool passesThrough(ComputationOp body, unsigned node) const;
  bool branchMayReturnOperand(ComputationOp branch, unsigned node) const;
  bool isWhileBody(ComputationOp comp) const;
  ConditionalOp conditionalOf(ComputationOp branch, unsigned &index) const;
  bool outsideLoops(Operation *op) const;
  bool operandDies(ConditionalOp cond, unsigned index, unsigned node,
                   ComputationOp branch,
                   const llvm::DenseSet<unsigned> &via) const;
  Value deepCopy(OpBuilder &b, Location loc, Value v, ArrayRef<bool> mask,
                 unsigned node, const DenseMap<unsigned, Value> &early,
                 const DenseMap<unsigned, Value> &ready);

  SymbolTable *symbols;
  llvm::MapVector<std::pair<Operation *, unsigned>, SmallVector<bool>> plans;
  /// Leaves of a plan (by node) to copy from a copy of a body parameter
  /// element (by node) made at the start of the body.
  DenseMap<std::pair<Operation *, unsigned>, DenseMap<unsigned, unsigned>>
      fromStart;
  /// Cycles of a body root's leaves that rotate parameter elements
  /// (new[a1] = old[a2], ..., new[ak] = old[a1]), as [a1, ..., ak]: one
  /// element saved at the start of the body, the others copied in the
  /// cycle's order at the root (k + 1 copies, not 2k).
  DenseMap<std::pair<Operation *, unsigned>, SmallVector<SmallVector<unsigned>>>
      cycles;
  /// Readers of a body parameter element to give one copy of it
  /// (planRedirect).
  struct Redirect {
    Operation *loop;
    Value param;
    unsigned node;
    SmallVector<OpOperand *> operands;
  };
  SmallVector<Redirect> redirects;
  /// Node `node` of `v`, extracted with get-tuple-element.
  Value extractNode(OpBuilder &b, Location loc, Value v, unsigned node) const;
};

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_COPYINSERTION_H
