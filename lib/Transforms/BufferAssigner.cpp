//===- BufferAssigner.cpp - hlo-buffer-assignment -------------------------===//
//
// XLA's BufferAssigner as a pass: the analyses (dataflow, alias, live
// ranges) and the assignment live in lib/Analysis (BufferAssignment.h); this
// pass runs them, writes the result into the module and checks it.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/BufferAssignment.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/BufferAssignmentPasses.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOBUFFERASSIGNMENT
#include "Hlo/Transforms/BufferAssignmentPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

struct BufferAssignmentPass
    : hlo::impl::HloBufferAssignmentBase<BufferAssignmentPass> {
  using HloBufferAssignmentBase::HloBufferAssignmentBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    BufferAssignmentOptions options;
    options.alignment = alignment;
    std::optional<HeapPacking> chosen;
    for (HeapPacking p :
         {HeapPacking::Spatial, HeapPacking::Temporal, HeapPacking::Area,
          HeapPacking::BestOfSpatialTemporal, HeapPacking::Best})
      if (packing == stringifyHeapPacking(p))
        chosen = p;
    if (!chosen) {
      module.emitError("hlo-buffer-assignment: unknown packing '")
          << packing << "' (spatial, temporal, area, xla or best)";
      return signalPassFailure();
    }
    options.packing = *chosen;
    if (alignment < 1) {
      module.emitError("hlo-buffer-assignment: alignment must be positive");
      return signalPassFailure();
    }
    HloDataflowAnalysis dataflow(module);
    HloAliasAnalysis alias(dataflow);
    HloLiveRange liveRange(alias);
    FailureOr<BufferAssignmentStats> stats =
        assignBuffers(module, liveRange, options);
    if (failed(stats))
      return signalPassFailure();
    numAllocations += stats->numAllocations;
    tempBytes += stats->tempBytes;
    tempLowerBound += stats->tempLowerBound;
    hostTempBytes += stats->hostTempBytes;
    if (!check)
      return;
    std::string problems = checkBufferAssignment(module);
    if (!problems.empty()) {
      module.emitError("hlo-buffer-assignment: the overlap check failed:\n")
          << problems;
      signalPassFailure();
    }
  }
};

} // namespace
