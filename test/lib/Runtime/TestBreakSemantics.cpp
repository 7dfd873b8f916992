//===- TestBreakSemantics.cpp - a pass that changes the results -----------===//
//
// --hlo-test-break-semantics: replaces every hlo.add by hlo.subtract, the
// deliberately wrong pass of the tests of --hlo-check-semantics
// (test/Runtime/check-semantics.mlir).
//
//===----------------------------------------------------------------------===//

#include "HloTestPasses.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

/// --hlo-test-break-semantics: hlo.add -> hlo.subtract.
struct BreakSemanticsPass
    : public PassWrapper<BreakSemanticsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BreakSemanticsPass)

  StringRef getArgument() const final { return "hlo-test-break-semantics"; }
  StringRef getDescription() const final {
    return "Test pass: replaces every hlo.add by hlo.subtract (changes the "
           "results, for --hlo-check-semantics)";
  }

  void runOnOperation() override {
    SmallVector<Operation *> adds;
    getOperation()->walk([&](hlo::AddOp add) { adds.push_back(add); });
    for (Operation *add : adds) {
      OpBuilder builder(add);
      OperationState state(add->getLoc(),
                           hlo::SubtractOp::getOperationName());
      state.addOperands(add->getOperands());
      state.addTypes(add->getResultTypes());
      state.addAttributes(add->getAttrs());
      Operation *subtract = builder.create(state);
      add->replaceAllUsesWith(subtract->getResults());
      add->erase();
    }
  }
};

} // namespace

void mlir::hlo::runtime::registerSemanticsCheckTestPasses() {
  PassRegistration<BreakSemanticsPass>();
}
