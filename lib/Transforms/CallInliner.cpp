//===- CallInliner.cpp - inline every call --------------------------------===//
//
// XLA's CallInliner. Computations are visited callees first (calleesFirst,
// TransformUtils.h), so that a body is free of calls when it is copied into
// its callers. A `call` is replaced by a copy of its
// computation's instructions with the call's operands for the parameters;
// the copies keep their locations (names and metadata), so the exporter
// makes names unique again. Afterwards, computations that are not called any
// more and are not the entry computation are removed.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCALLINLINER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct CallInlinerPass
    : ChangeReportingPass<CallInlinerPass, hlo::impl::HloCallInlinerBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // The calls of each computation, and how many call sites each callee
    // has.
    DenseMap<Operation *, SmallVector<CallOp>> callsIn;
    DenseMap<Operation *, unsigned> callSites;
    module.walk([&](CallOp call) {
      callsIn[call->getParentOp()].push_back(call);
      if (Operation *callee = symbols.lookup(call.getToApply()))
        ++callSites[callee];
    });

    // Callees first: a body is free of calls when it is copied. A callee
    // not processed yet when its caller is (a recursive call) stays a call.
    llvm::DenseSet<Operation *> done, inlined;
    for (ComputationOp comp : calleesFirst(module, symbols)) {
      for (CallOp call : callsIn.lookup(comp)) {
        auto callee = symbols.lookup<ComputationOp>(call.getToApply());
        if (!callee || !done.contains(callee) ||
            (singleCallSite && callSites.lookup(callee) != 1) ||
            hasControlPredecessors(call) || isControlPredecessor(call))
          continue;
        OpBuilder builder(call);
        call.getResult().replaceAllUsesWith(
            inlineComputation(builder, callee, call.getInputs()));
        call.erase();
        inlined.insert(callee);
        ++numInlined;
        changed = true;
      }
      done.insert(comp);
    }

    // Inlined computations that nothing calls any more.
    eraseUnreferencedComputations(module, inlined, symbols);
  }
};
} // namespace
