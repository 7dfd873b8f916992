//===- GpuScatterExpander.cpp - scatters XLA:GPU cannot run as loops ------===//
//
// XLA's GpuScatterExpander: hlo-scatter-expander's expansion
// (ScatterExpansion, ScatterExpander.cpp) applied to the scatters XLA:GPU
// has no kernel for: those whose elements are wider than 64 bits (c128),
// and variadic scatters whose indices are not marked unique (or that have
// such an element).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "ScatterExpander.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOGPUSCATTEREXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The bit width of the elements of the array type `type`.
static unsigned elementBitWidth(Type type) {
  Type element = cast<RankedTensorType>(type).getElementType();
  if (auto complex = dyn_cast<ComplexType>(element))
    return 2 * complex.getElementType().getIntOrFloatBitWidth();
  return element.getIntOrFloatBitWidth();
}

/// True if XLA:GPU cannot run `op` as a scatter.
static bool isUnsupportedOnGpu(ScatterOp op) {
  auto tooWide = [](Type t) { return elementBitWidth(t) > 64; };
  auto tuple = dyn_cast<TupleType>(op.getType());
  if (!tuple)
    return tooWide(op.getType());
  return !op.getUniqueIndices().value_or(false) ||
         llvm::any_of(tuple.getTypes(), tooWide);
}

namespace {
struct GpuScatterExpanderPass
    : ChangeReportingPass<GpuScatterExpanderPass,
                          hlo::impl::HloGpuScatterExpanderBase> {
  void run() {
    ScatterExpansion expansion(getOperation());
    SmallVector<ScatterOp> scatters;
    getOperation().walk([&](ScatterOp op) {
      if (expansion.isExpandable(op) && isUnsupportedOnGpu(op))
        scatters.push_back(op);
    });
    for (ScatterOp op : scatters) {
      expansion.expand(op);
      ++numExpanded;
      changed = true;
    }
  }
};
} // namespace
