//===- FlattenCallGraph.cpp - one call site per computation ---------------===//
//
// XLA's FlattenCallGraph: a computation called from several places in a
// sequential context (call's to_apply, while's condition and body,
// conditional's branches) is cloned, so that each such call site has a
// computation of its own and a pass may change one without the others.
// A fused computation belongs to its fusion (XLA's verifier wants one
// caller): one shared by two fusions (as after cloning their computation)
// is cloned too. Computations applied elementwise (reduce, map, sort, ...)
// are left shared, as in XLA.
//
// Callers are visited before their callees (a topological order of the
// call graph), so that the call sites inside clones are counted when their
// callees are reached. The cost is linear in the size of the result.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOFLATTENCALLGRAPH
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// A reference to a computation from a sequential context: attribute `name`
/// of `op`, element `index` of it when it is an array.
struct CallSite {
  Operation *op;
  StringAttr name;
  int index = -1;

  StringAttr callee() const {
    Attribute a = op->getAttr(name);
    if (index >= 0)
      a = cast<ArrayAttr>(a)[index];
    return cast<FlatSymbolRefAttr>(a).getAttr();
  }
  void setCallee(StringAttr sym) const {
    auto ref = FlatSymbolRefAttr::get(sym);
    if (index < 0)
      return op->setAttr(name, ref);
    SmallVector<Attribute> refs(cast<ArrayAttr>(op->getAttr(name)).getValue());
    refs[index] = ref;
    op->setAttr(name, ArrayAttr::get(op->getContext(), refs));
  }
};

/// Appends the sequential call sites of the instructions in `comp`.
void collectCallSites(ComputationOp comp, SmallVectorImpl<CallSite> &sites) {
  comp.walk([&](Operation *op) {
    auto add = [&](StringRef name) {
      Attribute a = op->getAttr(name);
      if (isa_and_nonnull<FlatSymbolRefAttr>(a))
        sites.push_back({op, StringAttr::get(op->getContext(), name)});
      else if (auto array = dyn_cast_or_null<ArrayAttr>(a))
        for (auto [i, e] : llvm::enumerate(array))
          if (isa<FlatSymbolRefAttr>(e))
            sites.push_back(
                {op, StringAttr::get(op->getContext(), name), int(i)});
    };
    if (isa<CallOp>(op))
      add("to_apply");
    else if (isa<FusionOp, AsyncStartOp>(op))
      add("calls"); // a fusion owns its fused computation
    else if (isa<WhileOp>(op))
      for (StringRef name : {"condition", "body"})
        add(name);
    else if (isa<ConditionalOp>(op))
      for (StringRef name :
           {"branch_computations", "true_computation", "false_computation"})
        add(name);
  });
}

struct FlattenCallGraphPass
    : ChangeReportingPass<FlattenCallGraphPass,
                          hlo::impl::HloFlattenCallGraphBase> {
  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    DenseMap<Operation *, SmallVector<CallSite>> sitesOf;
    DenseMap<Operation *, unsigned> pendingCallers;
    SmallVector<ComputationOp> comps(module.getOps<ComputationOp>());
    for (ComputationOp comp : comps) {
      SmallVector<CallSite> sites;
      collectCallSites(comp, sites);
      for (const CallSite &site : sites)
        if (Operation *callee = symbols.lookup(site.callee())) {
          sitesOf[callee].push_back(site);
          ++pendingCallers[callee];
        }
    }
    // Kahn's order over the computations with callers counted per call
    // site: a computation is ready once every site calling it is in a
    // computation already visited. A cycle (recursion) leaves its members
    // unvisited, hence unflattened.
    SmallVector<Operation *> ready;
    for (ComputationOp comp : comps)
      if (!pendingCallers.lookup(comp))
        ready.push_back(comp);
    while (!ready.empty()) {
      auto comp = cast<ComputationOp>(ready.pop_back_val());
      // A copy: adding the clones' sites may grow the map.
      SmallVector<CallSite> sites = sitesOf.lookup(comp);
      for (size_t i = 1; i < sites.size(); ++i) {
        auto clone = cast<ComputationOp>(comp->clone());
        symbols.insert(clone, std::next(Block::iterator(comp)));
        sites[i].setCallee(clone.getSymNameAttr());
        ++numClones;
        changed = true;
        SmallVector<CallSite> inner;
        collectCallSites(clone, inner);
        for (const CallSite &site : inner)
          if (Operation *callee = symbols.lookup(site.callee())) {
            sitesOf[callee].push_back(site);
            ++pendingCallers[callee];
          }
        ready.push_back(clone);
      }
      // The callees of this computation (and of its clones, which have the
      // same callees) lose one pending caller per site.
      SmallVector<CallSite> own;
      collectCallSites(comp, own);
      for (const CallSite &site : own)
        if (Operation *callee = symbols.lookup(site.callee()))
          if (--pendingCallers[callee] == 0)
            ready.push_back(callee);
    }
  }
};
} // namespace
