//===- TestPrintAliasing.cpp - print HLO values and buffers --------------===//
//
// --hlo-test-print-aliasing: the dataflow and alias analyses of a module.
// For every computation analyzed, every position with the values it may
// hold, then every value with its definition, and every buffer:
//
//   computation e
//     %t {}: 2
//     %t {0}: 1
//   value 1: %z {} s32[] live-out
//   buffer 0: 0 4 7
//
//===----------------------------------------------------------------------===//

#include "HloTestPasses.h"
#include "TestNames.h"

#include "Hlo/Analysis/HloAliasAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

void printIndex(raw_ostream &os, ArrayRef<int64_t> index) {
  os << '{';
  llvm::interleave(index, os, ",");
  os << '}';
}

struct TestPrintAliasingPass
    : public PassWrapper<TestPrintAliasingPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintAliasingPass)

  StringRef getArgument() const final { return "hlo-test-print-aliasing"; }
  StringRef getDescription() const final {
    return "Print the HLO values of every position (dataflow analysis) and "
           "the buffers grouping them (alias analysis)";
  }

  void runOnOperation() override {
    auto &alias = getAnalysis<HloAliasAnalysis>();
    const HloDataflowAnalysis &dataflow = alias.getDataflow();
    raw_ostream &os = llvm::outs();
    if (!dataflow.isAnalyzed()) {
      os << "no ENTRY computation\n";
      return;
    }
    InstructionNames instructionName;
    auto printPositions = [&](Value v) {
      forEachSubshape(v.getType(),
                      [&, node = 0u](Type, ArrayRef<int64_t> index) mutable {
                        os << "  %" << instructionName(v) << ' ';
                        printIndex(os, index);
                        os << ':';
                        for (unsigned id : dataflow.getValueSet(v, node++))
                          os << ' ' << id;
                        os << '\n';
                      });
    };
    for (Operation *c : dataflow.getComputations()) {
      auto comp = cast<ComputationOp>(c);
      os << "computation " << comp.getSymName() << '\n';
      for (BlockArgument arg : comp.getArguments())
        printPositions(arg);
      for (Operation &op : comp.getOps())
        if (op.getNumResults() == 1)
          printPositions(op.getResult(0));
    }
    for (const HloValue &v : dataflow.getValues()) {
      os << "value " << v.id << ": %" << instructionName(v.defined.value)
         << ' ';
      printIndex(os, v.index);
      os << ' ' << v.type << (v.liveOut ? " live-out" : "") << '\n';
    }
    for (const HloBuffer &b : alias.getBuffers()) {
      os << "buffer " << b.id << ':';
      for (unsigned id : b.values)
        os << ' ' << id;
      os << '\n';
    }
    os.flush();
    markAllAnalysesPreserved();
  }
};

} // namespace

void mlir::hlo::registerTestPrintAliasingPass() {
  PassRegistration<TestPrintAliasingPass>();
}
