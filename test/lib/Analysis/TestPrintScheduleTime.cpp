//===- TestPrintScheduleTime.cpp - the estimated time of a schedule -------===//
//
// --hlo-test-print-schedule-time: for the entry computation and every
// computation holding an asynchronous start or done, the forward simulation
// of GpuLatencyEstimator over the computation's current order, on the
// `--hlo-gpu-device` GPU:
//
//   %e: makespan=12.5 exposed=3.2 pairs=2
//
// Times in microseconds (`approximate`: XLA's ApproximateLatencyEstimator
// units), 6 significant digits. It measures any module by one measure, so
// two schedules of a program (ours, XLA's) compare side by side.
//
//===----------------------------------------------------------------------===//

#include "HloTestPasses.h"

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Analysis/GpuLatencyEstimator.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

struct TestPrintScheduleTimePass
    : public PassWrapper<TestPrintScheduleTimePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintScheduleTimePass)

  TestPrintScheduleTimePass() = default;
  TestPrintScheduleTimePass(const TestPrintScheduleTimePass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final { return "hlo-test-print-schedule-time"; }
  StringRef getDescription() const final {
    return "Print the estimated time of each computation's order "
           "(GpuLatencyEstimator's simulation)";
  }

  Option<bool> approximate{
      *this, "approximate",
      llvm::cl::desc("XLA's ApproximateLatencyEstimator units")};
  Option<unsigned> overlapLimit{*this, "collective-overlap-limit",
                                llvm::cl::desc("Collectives in flight at once"),
                                llvm::cl::init(1)};

  void runOnOperation() override {
    LatencyEstimatorOptions options;
    options.approximate = approximate;
    options.collectiveOverlapLimit = overlapLimit;
    GpuLatencyEstimator estimator(getSelectedGpuDevice(), options);
    raw_ostream &os = llvm::outs();
    for (auto comp : getOperation().getOps<ComputationOp>()) {
      if (comp.getBody().empty())
        continue;
      SmallVector<Operation *> order;
      bool async = false;
      for (Operation &op : comp.getBody().front().without_terminator()) {
        order.push_back(&op);
        async |= isSchedulableAsyncStart(&op) || getAsyncStartOfDone(&op);
      }
      if (!async && !comp.getEntry())
        continue;
      GpuLatencyEstimator::Timeline t = estimator.simulate(order);
      os << "%" << comp.getSymName()
         << ": makespan=" << llvm::format("%.6g", t.makespan)
         << " exposed=" << llvm::format("%.6g", t.exposed)
         << " pairs=" << t.pairs << "\n";
    }
    os.flush();
  }
};

} // namespace

void mlir::hlo::registerTestPrintScheduleTimePass() {
  PassRegistration<TestPrintScheduleTimePass>();
}
