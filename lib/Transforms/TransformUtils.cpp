//===- TransformUtils.cpp - op classes and walks of the call graph --------===//

#include "TransformUtils.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::hlo;

bool mlir::hlo::hasOneUser(Value v) {
  llvm::SmallPtrSet<Operation *, 2> users(v.getUsers().begin(),
                                          v.getUsers().end());
  return users.size() == 1;
}

void mlir::hlo::countSymbolReferences(Operation *op,
                                      DenseMap<StringAttr, int64_t> &counts) {
  for (NamedAttribute attr : op->getAttrs()) {
    if (auto ref = dyn_cast<FlatSymbolRefAttr>(attr.getValue()))
      ++counts[ref.getAttr()];
    else if (auto refs = dyn_cast<ArrayAttr>(attr.getValue()))
      for (auto r : refs.getAsRange<FlatSymbolRefAttr>())
        ++counts[r.getAttr()];
  }
}

void mlir::hlo::forEachCallee(ComputationOp comp, SymbolTable &symbols,
                              function_ref<void(ComputationOp)> fn) {
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(&comp.getBody()))
    for (const SymbolTable::SymbolUse &use : *uses)
      if (auto callee = symbols.lookup<ComputationOp>(
              use.getSymbolRef().getRootReference()))
        fn(callee);
}

SmallVector<ComputationOp>
mlir::hlo::reachableComputations(ArrayRef<ComputationOp> roots,
                                 SymbolTable &symbols) {
  SmallVector<ComputationOp> reached;
  llvm::DenseSet<Operation *> seen;
  for (ComputationOp root : roots)
    if (seen.insert(root).second)
      reached.push_back(root);
  for (size_t i = 0; i < reached.size(); ++i)
    forEachCallee(reached[i], symbols, [&](ComputationOp callee) {
      if (seen.insert(callee).second)
        reached.push_back(callee);
    });
  return reached;
}

ComputationOp mlir::hlo::entryComputation(ModuleOp module) {
  for (auto comp : module.getOps<ComputationOp>())
    if (comp.getEntry())
      return comp;
  return {};
}

SmallVector<ComputationOp> mlir::hlo::calleesFirst(ModuleOp module,
                                                   SymbolTable &symbols) {
  SmallVector<ComputationOp> order;
  llvm::DenseSet<Operation *> seen;
  // Each entry: a computation and the callees it has yet to visit.
  SmallVector<std::pair<ComputationOp, SmallVector<ComputationOp>>> stack;
  auto visit = [&](ComputationOp comp) {
    if (!seen.insert(comp).second)
      return;
    SmallVector<ComputationOp> callees;
    forEachCallee(comp, symbols,
                  [&](ComputationOp c) { callees.push_back(c); });
    stack.push_back({comp, std::move(callees)});
  };
  for (auto root : module.getOps<ComputationOp>()) {
    visit(root);
    while (!stack.empty()) {
      if (!stack.back().second.empty()) {
        visit(stack.back().second.pop_back_val());
        continue;
      }
      order.push_back(stack.back().first);
      stack.pop_back();
    }
  }
  return order;
}

void mlir::hlo::eraseWithDeadOperands(Operation *op) {
  SmallVector<Operation *> work = {op};
  while (!work.empty()) {
    Operation *dead = work.pop_back_val();
    SmallVector<Operation *> feeders;
    for (Value v : dead->getOperands())
      if (Operation *d = v.getDefiningOp())
        feeders.push_back(d);
    dead->erase();
    for (Operation *d : feeders)
      if (d->use_empty() && isMemoryEffectFree(d) &&
          !hasControlPredecessors(d) && !llvm::is_contained(work, d))
        work.push_back(d);
  }
}

std::string mlir::hlo::uniqueSymbolName(StringRef base, SymbolTable &symbols,
                                        llvm::StringMap<unsigned> &suffixes) {
  unsigned &next = suffixes[base];
  std::string name = base.str();
  if (next)
    name += "." + std::to_string(next);
  while (symbols.lookup(name))
    name = base.str() + "." + std::to_string(++next);
  ++next;
  return name;
}
