//===- TupleSimplifier.cpp - forward tuple elements -----------------------===//
//
// XLA's TupleSimplifier:
//   get-tuple-element(tuple(a0, ..., an), i)            -> ai
//   tuple(get-tuple-element(t, 0), ..., gte(t, n))      -> t
// The second form needs every element of `t`, in order, and the same type.
// One walk per computation in program order: a rewritten get-tuple-element
// may make the tuple using it a candidate, which comes later. Instructions
// with control predecessors are left alone; replaced ones are erased.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOTUPLESIMPLIFIER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The value `gte` forwards, or null.
static Value forwardElement(GetTupleElementOp gte) {
  auto tuple = gte.getOperand().getDefiningOp<TupleOp>();
  if (!tuple || hasControlPredecessors(gte))
    return {};
  ValueRange elements = tuple.getDataOperands();
  uint64_t index = gte.getIndex();
  if (index >= elements.size() || elements[index].getType() != gte.getType())
    return {};
  return elements[index];
}

/// The tuple that `tuple` rebuilds element by element, or null.
static Value forwardTuple(TupleOp tuple) {
  if (hasControlPredecessors(tuple))
    return {};
  Value source;
  for (auto [i, element] : llvm::enumerate(tuple.getDataOperands())) {
    auto gte = element.getDefiningOp<GetTupleElementOp>();
    if (!gte || gte.getIndex() != i || (source && gte.getOperand() != source))
      return {};
    source = gte.getOperand();
  }
  if (!source || source.getType() != tuple.getType())
    return {};
  return source;
}

namespace {
struct TupleSimplifierPass
    : ChangeReportingPass<TupleSimplifierPass,
                          hlo::impl::HloTupleSimplifierBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    for (auto comp : getOperation().getOps<ComputationOp>()) {
      if (excludeEntryComputation && comp.getEntry())
        continue;
      for (Operation &op :
           llvm::make_early_inc_range(comp.getBody().getOps())) {
        Value replacement;
        if (auto gte = dyn_cast<GetTupleElementOp>(op))
          replacement = forwardElement(gte);
        else if (auto tuple = dyn_cast<TupleOp>(op))
          replacement = forwardTuple(tuple);
        if (!replacement)
          continue;
        op.getResult(0).replaceAllUsesWith(replacement);
        op.erase();
        ++numRewrites;
        changed = true;
      }
    }
  }
};
} // namespace
