//===- AllReduceCombiner.cpp - one all-reduce for many --------------------===//
//
// XLA's AllReduceCombiner with the GPU compiler's settings: independent
// all-reduces that agree on the kind of reduction, element type, replica
// groups, channel kind and global device ids become one variadic
// all-reduce whose tuple elements replace them (CollectiveCombinerUtils.h
// holds the grouping). Skipped when the module has a layout-constrained
// all-reduce, as in XLA.
//
//===----------------------------------------------------------------------===//

#include "CollectiveCombinerUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOALLREDUCECOMBINER
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct AllReduceCombinerPass
    : ChangeReportingPass<AllReduceCombinerPass,
                          hlo::impl::HloAllReduceCombinerBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    bool constrained = false;
    module.walk([&](AllReduceOp ar) {
      if (ar.getConstrainLayout().value_or(false))
        constrained = true;
    });
    if (constrained)
      return;
    SymbolTable symbols(module);
    auto key = [&](Operation *op) -> std::optional<std::string> {
      auto ar = dyn_cast<AllReduceOp>(op);
      if (!ar)
        return std::nullopt;
      std::optional<std::string> kind =
          reductionKind(symbols, ar.getToApplyAttr());
      if (!kind)
        return std::nullopt;
      return collectiveKey(op, *kind);
    };
    auto combine = [&](ArrayRef<Operation *> members, OpBuilder &builder) {
      SmallVector<NamedAttribute> attrs = {builder.getNamedAttr(
          "to_apply", cast<AllReduceOp>(members.front()).getToApplyAttr())};
      llvm::append_range(attrs, sharedCollectiveAttrs(members.front()));
      numCombined += members.size();
      return combineIntoTuple(members, builder, AllReduceOp::getOperationName(),
                              "all-reduce", attrs);
    };
    int64_t groups =
        combineByKey(module, key, combine, thresholdBytes, thresholdCount);
    numGroups += groups;
    changed |= groups > 0;
  }
};
} // namespace
