//===- ConvertAsyncCollectivesToSync.cpp - unoverlapped pairs made sync ---===//
//
// XLA's GpuConvertAsyncCollectivesToSync: after scheduling, an asynchronous
// collective with nothing but nops between its start and its done overlaps
// nothing; its start is marked synchronous (`is_sync` in its
// collective_backend_config) and moved next to its done.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Analysis/GpuLatencyEstimator.h"
#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Transforms/CollectivePasses.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOGPUCONVERTASYNCCOLLECTIVESTOSYNC
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// A start of a collective (send, recv and copy-start are on streams of
/// their own).
bool isCollectiveStart(Operation *op) {
  return isSchedulableAsyncStart(op) &&
         getAsyncResource(op) == AsyncResource::Collectives;
}

/// XLA's GPU nops for this pass.
bool isNop(Operation *op) {
  return isa<ConstantOp, BitcastOp, GetTupleElementOp>(op);
}

/// `start`'s backend_config with collective_backend_config.is_sync = true.
BackendConfigAttr syncConfig(Operation *start) {
  MLIRContext *ctx = start->getContext();
  Builder b(ctx);
  BackendConfigAttr config = readBackendConfig(start);
  if (!config)
    config = BackendConfigAttr::get(ctx, BackendConfigMessage::Root, {});
  BackendConfigAttr collective = config.getCollectiveBackendConfig();
  if (!collective)
    collective = BackendConfigAttr::get(
        ctx, BackendConfigMessage::CollectiveBackendConfig, {});
  return config.withMember(
      "collective_backend_config",
      collective.withMember("is_sync", b.getBoolAttr(true)));
}

struct ConvertAsyncCollectivesToSyncPass
    : ChangeReportingPass<ConvertAsyncCollectivesToSyncPass,
                          hlo::impl::HloGpuConvertAsyncCollectivesToSyncBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    auto scheduled = module->getAttrOfType<BoolAttr>("hlo.is_scheduled");
    if (!scheduled || !scheduled.getValue())
      return;
    for (ComputationOp comp : nonFusionComputations(module)) {
      SmallVector<std::pair<Operation *, Operation *>> pairs;
      llvm::DenseSet<Operation *> inFlight;
      for (Operation &op : comp.getBody().front().without_terminator()) {
        if (isCollectiveStart(&op)) {
          inFlight.insert(&op);
        } else if (Operation *start = getAsyncStartOfDone(&op)) {
          // The start can move to the done when the done is all that
          // reads it and no control edge ties it to what lies between.
          if (op.getOperand(0).getDefiningOp() == start &&
              inFlight.erase(start) && start->hasOneUse() &&
              !isControlPredecessor(start))
            pairs.push_back({start, &op});
        } else if (!isNop(&op)) {
          inFlight.clear();
        }
      }
      for (auto [start, done] : pairs) {
        start->setAttr("backend_config", syncConfig(start));
        start->moveBefore(done);
        ++numConverted;
        changed = true;
      }
    }
  }
};

} // namespace
