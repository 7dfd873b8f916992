//===- ReduceScatterCombiner.cpp - one reduce-scatter for many ------------===//
//
// XLA's ReduceScatterCombiner with the GPU compiler's settings: independent
// reduce-scatters that agree on the kind of reduction, element type,
// replica groups, channel kind and global device ids become one variadic
// reduce-scatter along the dimension most of them use; the others are
// bitcast to that dimension and back (CollectiveCombinerUtils.h).
//
//===----------------------------------------------------------------------===//

#include "CollectiveCombinerUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOREDUCESCATTERCOMBINER
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

static int64_t scatterDim(Operation *op) {
  return cast<ReduceScatterOp>(op).getDimensions()[0];
}

namespace {
struct ReduceScatterCombinerPass
    : ChangeReportingPass<ReduceScatterCombinerPass,
                          hlo::impl::HloReduceScatterCombinerBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    auto key = [&](Operation *op) -> std::optional<std::string> {
      auto rs = dyn_cast<ReduceScatterOp>(op);
      if (!rs || rs.getDimensions().size() != 1)
        return std::nullopt;
      std::optional<std::string> kind =
          reductionKind(symbols, rs.getToApplyAttr());
      if (!kind)
        return std::nullopt;
      if (combineByDim)
        *kind += " dim " + std::to_string(rs.getDimensions()[0]);
      return collectiveKey(op, *kind);
    };
    auto combine = [&](ArrayRef<Operation *> members, OpBuilder &builder) {
      numCombined += members.size();
      auto first = cast<ReduceScatterOp>(members.front());
      return combineAlongDim(
          members, builder, ReduceScatterOp::getOperationName(),
          "reduce-scatter", mostFrequentDim(members, scatterDim), scatterDim,
          {builder.getNamedAttr("to_apply", first.getToApplyAttr())});
    };
    int64_t groups =
        combineByKey(module, key, combine, thresholdBytes, thresholdCount);
    numGroups += groups;
    changed |= groups > 0;
  }
};
} // namespace
