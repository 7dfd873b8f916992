//===- TestPrintCost.cpp - print XLA's GPU cost of every instruction ------===//
//
// --hlo-test-print-cost: for every instruction of the entry computation,
// fusions included, one line with the cost model's estimate on the device
// `--hlo-gpu-device` selects:
//
//   device: NVIDIA H100 80GB HBM3
//   %add: flops=3072 read=8192 written=4096 blocks=8 compute_us=...
//     memory_us=... exec_us=... total_us=...
//     operand 0 %p0: total=4096 net=4096 coalesced
//
// (one line each in the output). Instructions that launch no kernel print
// `%name: no kernel`. Times are in microseconds, printed with 6 significant
// digits.
//
//===----------------------------------------------------------------------===//

#include "HloTestPasses.h"
#include "TestNames.h"

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Analysis/GpuPerformanceModel.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

struct TestPrintCostPass
    : public PassWrapper<TestPrintCostPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintCostPass)

  StringRef getArgument() const final { return "hlo-test-print-cost"; }
  StringRef getDescription() const final {
    return "Print XLA's GPU cost model estimate of every instruction of the "
           "entry computation on the --hlo-gpu-device GPU";
  }

  void runOnOperation() override {
    const GpuDeviceInfo &device = getSelectedGpuDevice();
    GpuPerformanceModel model(device);
    raw_ostream &os = llvm::outs();
    os << "device: " << device.name << "\n";
    auto us = [](double v) { return llvm::format("%.6g", v); };
    InstructionNames instructionName;
    for (auto comp : getOperation().getOps<ComputationOp>()) {
      if (!comp.getEntry() || comp.getBody().empty())
        continue;
      for (Operation &op : comp.getBody().front().without_terminator()) {
        if (op.getNumResults() != 1)
          continue;
        os << "%" << instructionName(op.getResult(0)) << ":";
        const EstimateRunTimeData &data = model.estimateRunTime(&op);
        if (!data.isKernel) {
          os << " no kernel\n";
          continue;
        }
        os << " flops=" << data.flops << " read=" << data.bytesRead
           << " written=" << data.bytesWritten << " blocks=" << data.numBlocks
           << " compute_us=" << us(data.computeUs)
           << " memory_us=" << us(data.memoryUs())
           << " exec_us=" << us(data.execUs) << " total_us=" << us(data.totalUs)
           << "\n";
        for (auto [i, read] : llvm::enumerate(data.reads))
          os << "  operand " << i << " %" << instructionName(read.operand)
             << ": total=" << read.bytesTotal << " net=" << read.bytesNet
             << (read.coalesced ? " coalesced" : " uncoalesced") << "\n";
      }
    }
    os.flush();
  }
};

/// --hlo-test-print-fusion-benefit: for every instruction of the entry
/// computation with users, the model's unfused and fused times when it is
/// fused into all its users (priority fusion's options).
struct TestPrintFusionBenefitPass
    : public PassWrapper<TestPrintFusionBenefitPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintFusionBenefitPass)

  StringRef getArgument() const final {
    return "hlo-test-print-fusion-benefit";
  }
  StringRef getDescription() const final {
    return "Print the cost model's unfused and fused times of every "
           "instruction of the entry computation with its users";
  }

  void runOnOperation() override {
    GpuPerformanceModel model(getSelectedGpuDevice(),
                              GpuPerformanceModelOptions::priorityFusion());
    raw_ostream &os = llvm::outs();
    auto us = [](double v) { return llvm::format("%.6g", v); };
    InstructionNames instructionName;
    for (auto comp : getOperation().getOps<ComputationOp>()) {
      if (!comp.getEntry() || comp.getBody().empty())
        continue;
      for (Operation &op : comp.getBody().front().without_terminator()) {
        if (op.getNumResults() != 1 || !model.estimateRunTime(&op).isKernel)
          continue;
        SmallVector<Operation *> users;
        for (Operation *user : op.getResult(0).getUsers())
          if (!isa<ReturnOp>(user) && !llvm::is_contained(users, user))
            users.push_back(user);
        if (users.empty())
          continue;
        FusionRunTimes times = model.estimateFusionBenefit(&op, users);
        os << "%" << instructionName(op.getResult(0)) << " into";
        for (Operation *user : users)
          os << " %" << instructionName(user->getResult(0));
        os << ": unfused_us=" << us(times.unfusedUs)
           << " fused_us=" << us(times.fusedUs)
           << " benefit_us=" << us(times.benefitUs()) << "\n";
      }
    }
    os.flush();
  }
};

} // namespace

void mlir::hlo::registerTestPrintCostPass() {
  PassRegistration<TestPrintCostPass>();
  PassRegistration<TestPrintFusionBenefitPass>();
}
