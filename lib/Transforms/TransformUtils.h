//===- TransformUtils.h - helpers the HLO passes share ----------*- C++ -*-===//
//
// Private to lib/Transforms: questions about control edges that decide
// whether a pass may replace or remove an instruction, and walks of the
// call graph.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_TRANSFORMUTILS_H
#define HLO_LIB_TRANSFORMS_TRANSFORMUTILS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloOpClasses.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace mlir::hlo {

/// True if `type` is an array whose dimensions are all static (a bounded
/// dynamic dimension `<=N` is not).
inline bool isStaticArray(Type type) {
  auto rt = dyn_cast<RankedTensorType>(type);
  return rt && rt.hasStaticShape();
}

/// True if `dims` is 0, 1, ..., size-1 (an identity permutation, or
/// dimensions that lead in order).
inline bool isIdentityPermutation(ArrayRef<int64_t> dims) {
  for (auto [i, d] : llvm::enumerate(dims))
    if (d != static_cast<int64_t>(i))
      return false;
  return true;
}

/// The inverse of the permutation `perm`: element perm[i] of the result is
/// i (where a transpose by `perm` puts each operand dimension).
inline SmallVector<int64_t> inversePermutation(ArrayRef<int64_t> perm) {
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = static_cast<int64_t>(i);
  return inverse;
}

/// The dimension list of an optional attribute; empty when absent.
inline ArrayRef<int64_t> orEmpty(std::optional<ArrayRef<int64_t>> dims) {
  return dims.value_or(ArrayRef<int64_t>());
}

/// True if `dot` is dense (no `sparsity` descriptor, which XLA's sparse dots
/// carry as an unknown attribute) with static operand and result shapes:
/// the dots the dot passes rewrite.
inline bool isDenseStaticDot(DotOp dot) {
  if (DictionaryAttr unknown = dot.getUnknownAttrsAttr())
    if (unknown.get("sparsity"))
      return false;
  return isStaticArray(dot.getLhs().getType()) &&
         isStaticArray(dot.getRhs().getType()) && isStaticArray(dot.getType());
}

/// True if every use of `v` is a get-tuple-element.
inline bool onlyElementsRead(Value v) {
  return llvm::all_of(v.getUsers(),
                      [](Operation *u) { return isa<GetTupleElementOp>(u); });
}

/// True if `op` is an instruction with control predecessors (it must run
/// after them: removing or replacing it would drop the edges).
inline bool hasControlPredecessors(Operation *op) {
  auto inst = dyn_cast<InstructionOpInterface>(op);
  return inst && !inst.getControlPredecessors().empty();
}

/// True if `op`'s result is some instruction's control predecessor.
inline bool isControlPredecessor(Operation *op) {
  for (OpOperand &use : op->getUses()) {
    auto user = dyn_cast<InstructionOpInterface>(use.getOwner());
    if (user && use.getOperandNumber() >= user.getDataOperands().size())
      return true;
  }
  return false;
}

/// True if only one instruction reads `v`, once or more (XLA's
/// user_count() == 1).
bool hasOneUser(Value v);

/// True if `op` has control edges, to or from it.
inline bool hasControlEdges(Operation *op) {
  return hasControlPredecessors(op) || isControlPredecessor(op);
}

/// The use of `v` if it has exactly one and its user has no control edges
/// (the next link of a chain of single users a rewrite may move), else
/// null.
inline OpOperand *soleUse(Value v) {
  if (!v.hasOneUse())
    return nullptr;
  OpOperand &use = *v.use_begin();
  return hasControlEdges(use.getOwner()) ? nullptr : &use;
}

/// Adds to `counts` the computations `op`'s attributes name (once per
/// reference).
void countSymbolReferences(Operation *op,
                           DenseMap<StringAttr, int64_t> &counts);

/// Erases `op` and then the side-effect-free operands it leaves without
/// users (and without control predecessors), as XLA's ReplaceInstruction
/// removes them.
void eraseWithDeadOperands(Operation *op);

/// The base of an HLO pass that reports whether it changed the module:
/// `Derived::run()` does the work and sets `changed` with every rewrite.
/// A run that changed nothing preserves all analyses, so MLIR's pass
/// manager does not verify the module after it and hlo-fixed-point sees
/// the run changed nothing without hashing the module.
///   struct FooPass : ChangeReportingPass<FooPass, hlo::impl::HloFooBase>
template <typename Derived, template <typename> class GeneratedBase>
class ChangeReportingPass : public GeneratedBase<Derived> {
public:
  using GeneratedBase<Derived>::GeneratedBase;

  void runOnOperation() final {
    changed = false;
    static_cast<Derived *>(this)->run();
    if (!changed)
      this->markAllAnalysesPreserved();
  }

protected:
  bool changed = false;
};

/// Calls `fn` on every computation that an instruction of `comp` refers to
/// (once per reference).
void forEachCallee(ComputationOp comp, SymbolTable &symbols,
                   function_ref<void(ComputationOp)> fn);

/// `roots` and the computations they reach through the call graph, each
/// once, roots first.
SmallVector<ComputationOp> reachableComputations(ArrayRef<ComputationOp> roots,
                                                 SymbolTable &symbols);

/// The entry computation of `module` (null when it has none).
ComputationOp entryComputation(ModuleOp module);

/// The computations of `module`, each after every computation it refers to
/// (a depth-first post-order of the call graph, iterative; the members of a
/// cycle come in some order).
SmallVector<ComputationOp> calleesFirst(ModuleOp module, SymbolTable &symbols);

/// XLA's unique names: `base` if no symbol of `symbols` has it and none was
/// given out for `base` before, else `base.N` with the first free N from
/// `suffixes[base]` on, which then moves past it (so naming k computations
/// alike is linear, not quadratic).
std::string uniqueSymbolName(StringRef base, SymbolTable &symbols,
                             llvm::StringMap<unsigned> &suffixes);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_TRANSFORMUTILS_H
