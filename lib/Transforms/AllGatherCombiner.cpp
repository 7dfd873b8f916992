//===- AllGatherCombiner.cpp - one all-gather for many --------------------===//
//
// XLA's AllGatherCombiner with the GPU compiler's settings: independent
// all-gathers with the same replica groups, channel kind and global device
// ids (element types may differ) become one variadic all-gather along the
// dimension most of them use; the others are bitcast to that dimension and
// back (CollectiveCombinerUtils.h). Skipped when the module has a
// layout-constrained all-gather, as in XLA.
//
//===----------------------------------------------------------------------===//

#include "CollectiveCombinerUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOALLGATHERCOMBINER
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

static int64_t gatherDim(Operation *op) {
  return cast<AllGatherOp>(op).getDimensions()[0];
}

namespace {
struct AllGatherCombinerPass
    : ChangeReportingPass<AllGatherCombinerPass,
                          hlo::impl::HloAllGatherCombinerBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    bool constrained = false;
    module.walk([&](AllGatherOp ag) {
      if (ag.getConstrainLayout().value_or(false))
        constrained = true;
    });
    if (constrained)
      return;
    auto key = [&](Operation *op) -> std::optional<std::string> {
      auto ag = dyn_cast<AllGatherOp>(op);
      if (!ag || ag.getDimensions().size() != 1)
        return std::nullopt;
      return collectiveKey(
          op, combineByDim ? std::to_string(ag.getDimensions()[0]) : "");
    };
    auto combine = [&](ArrayRef<Operation *> members, OpBuilder &builder) {
      numCombined += members.size();
      return combineAlongDim(members, builder, AllGatherOp::getOperationName(),
                             "all-gather", mostFrequentDim(members, gatherDim),
                             gatherDim, {});
    };
    int64_t groups =
        combineByKey(module, key, combine, thresholdBytes, thresholdCount);
    numGroups += groups;
    changed |= groups > 0;
  }
};
} // namespace
