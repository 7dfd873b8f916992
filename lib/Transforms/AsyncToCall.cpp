//===- AsyncToCall.cpp - generic async chains as calls --------------------===//
//
// Ours. HLO's generic async ops wrap any computation: `async-start` begins
// it (possibly on another execution thread or stream), `async-update`s
// step it, `async-done` waits and yields its result. XLA's GPU compiler
// runs such a computation's thunks on another stream; this compiler's
// runtimes run one, so the chain becomes a call of the computation where
// the result is needed (the done), which hlo-call-inliner inlines. An
// async-start of one collective stays: hlo-to-thunk makes it a collective
// start and done that overlap compute.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOASYNCTOCALL
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// The chain start -> update* -> done, or empty if some link is read by
/// anything else or has control edges.
SmallVector<Operation *> getChain(AsyncStartOp start) {
  SmallVector<Operation *> chain;
  Operation *link = start;
  while (true) {
    if (hasControlEdges(link) || !link->hasOneUse())
      return {};
    chain.push_back(link);
    Operation *next = *link->getUsers().begin();
    if (isa<AsyncDoneOp>(next)) {
      if (hasControlEdges(next))
        return {};
      chain.push_back(next);
      return chain;
    }
    if (!isa<AsyncUpdateOp>(next))
      return {};
    link = next;
  }
}

struct AsyncToCallPass
    : ChangeReportingPass<AsyncToCallPass, hlo::impl::HloAsyncToCallBase> {
  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<AsyncStartOp> starts;
    module.walk([&](AsyncStartOp start) { starts.push_back(start); });
    for (AsyncStartOp start : starts) {
      auto comp = symbols.lookup<ComputationOp>(start.getCalls());
      // One collective stays: hlo-to-thunk runs it asynchronously.
      if (!comp || isArrayCollective(comp.getRootValue().getDefiningOp()))
        continue;
      SmallVector<Operation *> chain = getChain(start);
      if (chain.empty())
        continue;
      Operation *done = chain.back();
      OpBuilder b(done);
      NamedAttribute attrs[] = {
          b.getNamedAttr("to_apply", start.getCallsAttr())};
      Operation *call = createInstruction(
          b, done->getLoc(), CallOp::getOperationName(),
          done->getResult(0).getType(),
          SmallVector<Value>(getDataOperands(start)), attrs);
      done->getResult(0).replaceAllUsesWith(call->getResult(0));
      for (Operation *link : llvm::reverse(chain))
        link->erase();
      // Called from this thread now (by this call alone: another chain
      // left alone still runs it on its own thread).
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(comp, module);
      if (uses && llvm::hasSingleElement(*uses))
        comp.removeExecutionThreadAttr();
      ++numConverted;
      changed = true;
    }
  }
};

} // namespace
