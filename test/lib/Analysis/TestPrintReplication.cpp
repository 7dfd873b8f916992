//===- TestPrintReplication.cpp - print which values are replicated ------===//
//
// --hlo-test-print-replication: HloReplicationAnalysis of a module, across
// replicas (or across partitions with `cross-partition`). Every
// instruction and parameter of every computation, with one flag per array
// leaf (R: the same on every device of the mode, U: not, or not analysed):
//
//   computation main
//     %p0: R
//     %t: R U
//
//===----------------------------------------------------------------------===//

#include "HloTestPasses.h"
#include "TestNames.h"

#include "Hlo/Analysis/HloReplicationAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"

#include "mlir/Pass/Pass.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct TestPrintReplicationPass
    : public PassWrapper<TestPrintReplicationPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintReplicationPass)

  TestPrintReplicationPass() = default;
  TestPrintReplicationPass(const TestPrintReplicationPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final { return "hlo-test-print-replication"; }
  StringRef getDescription() const final {
    return "Print which values are the same on every replica (or partition): "
           "HloReplicationAnalysis";
  }

  Option<bool> crossPartition{*this, "cross-partition",
                              llvm::cl::desc("Across partitions instead of "
                                             "across replicas"),
                              llvm::cl::init(false)};

  void runOnOperation() override {
    ModuleOp module = getOperation();
    HloReplicationAnalysis replication(module, crossPartition);
    raw_ostream &os = llvm::outs();
    InstructionNames name;
    auto print = [&](Value v) {
      os << "  %" << name(v) << ':';
      for (unsigned i = 0, e = getNumLeaves(v.getType()); i < e; ++i)
        os << (replication.isReplicatedAt(v, i) ? " R" : " U");
      os << '\n';
    };
    for (auto comp : module.getOps<ComputationOp>()) {
      os << "computation " << comp.getSymName() << '\n';
      for (BlockArgument arg : comp.getArguments())
        print(arg);
      for (Operation &op : comp.getOps())
        for (Value result : op.getResults())
          print(result);
    }
    os.flush();
    markAllAnalysesPreserved();
  }
};
} // namespace

void mlir::hlo::registerTestPrintReplicationPass() {
  PassRegistration<TestPrintReplicationPass>();
}
