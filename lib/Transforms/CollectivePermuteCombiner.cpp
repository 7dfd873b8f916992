//===- CollectivePermuteCombiner.cpp - one collective-permute for many ----===//
//
// XLA's CollectivePermuteCombiner with the GPU compiler's settings:
// independent collective-permutes of one array each that send along the
// same (source, target) pairs become one collective-permute of all their
// operands (XLA's combined form, a tuple result) whose elements replace
// them; grouped by CollectiveCombinerUtils.h's driver.
//
//===----------------------------------------------------------------------===//

#include "CollectiveCombinerUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCOLLECTIVEPERMUTECOMBINER
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The pairs of a collective-permute as key text, in their order (XLA's
/// CollectivePermuteKey compares the list as written).
static std::string pairsKey(CollectivePermuteOp op) {
  std::string key;
  llvm::raw_string_ostream os(key);
  if (std::optional<ArrayAttr> pairs = op.getSourceTargetPairs())
    for (Attribute a : *pairs) {
      os << '{';
      for (int64_t id : cast<DenseI64ArrayAttr>(a).asArrayRef())
        os << id << ',';
      os << '}';
    }
  return key;
}

namespace {
struct CollectivePermuteCombinerPass
    : ChangeReportingPass<CollectivePermuteCombinerPass,
                          hlo::impl::HloCollectivePermuteCombinerBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    auto key = [&](Operation *op) -> std::optional<std::string> {
      auto permute = dyn_cast<CollectivePermuteOp>(op);
      // collectiveKey takes only one array operand: never the in-place or
      // an already combined form.
      if (!permute || permute.getSliceSizes())
        return std::nullopt;
      return collectiveKey(op, pairsKey(permute));
    };
    auto combine = [&](ArrayRef<Operation *> members, OpBuilder &builder) {
      auto first = cast<CollectivePermuteOp>(members.front());
      SmallVector<NamedAttribute> attrs;
      if (std::optional<ArrayAttr> pairs = first.getSourceTargetPairs())
        attrs.push_back(builder.getNamedAttr("source_target_pairs", *pairs));
      llvm::append_range(attrs, sharedCollectiveAttrs(first));
      numCombined += members.size();
      return combineIntoTuple(members, builder,
                              CollectivePermuteOp::getOperationName(),
                              "collective-permute", attrs);
    };
    int64_t groups =
        combineByKey(module, key, combine, thresholdBytes, thresholdCount);
    numGroups += groups;
    changed |= groups > 0;
  }
};
} // namespace
