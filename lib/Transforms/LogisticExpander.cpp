//===- LogisticExpander.cpp - logistic as exp and divide ------------------===//
//
// XLA's LogisticExpander: `logistic(x)` becomes `1 / (1 + exp(-x))`, for
// float and complex elements, the 1 a scalar constant broadcast to the
// shape. XLA once chose between expansions (LogisticExpansionType); only
// this one, kExp, is left, so the pass has no option.
//
//===----------------------------------------------------------------------===//

#include "ExpanderUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOLOGISTICEXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct LogisticExpanderPass
    : ChangeReportingPass<LogisticExpanderPass,
                          hlo::impl::HloLogisticExpanderBase> {
  void run() {
    SmallVector<LogisticOp> worklist;
    getOperation().walk([&](LogisticOp op) {
      Type type = op.getType();
      if (!hasControlPredecessors(op) && isStaticArray(type) &&
          isa<FloatType, ComplexType>(
              cast<RankedTensorType>(type).getElementType()))
        worklist.push_back(op);
    });
    for (LogisticOp op : worklist) {
      OpBuilder builder(op);
      ExpansionBuilder b(builder, op.getLoc());
      Value x = op->getOperand(0);
      Value one = b.splatReal(x.getType(), 1.0);
      Value exp = b.elementwise<ExpOp>({b.elementwise<NegOp>({x})});
      Value denominator = b.elementwise<AddOp>({one, exp});
      Value result =
          b.create(DivOp::getOperationName(), op.getType(), {one, denominator});
      transferInstructionAttrs(op, result.getDefiningOp());
      op->getResult(0).replaceAllUsesWith(result);
      op.erase();
      ++numExpanded;
      changed = true;
    }
  }
};
} // namespace
