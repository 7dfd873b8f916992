//===- ZeroSizedHloElimination.cpp - empty arrays as constants -----------===//
//
// XLA's ZeroSizedHloElimination: an instruction whose result is an array
// with no element is replaced by an empty constant of the same type, which
// the instructions it used may then leave dead (hlo-dce removes them).
// Left alone: constants, instructions with side effects, instructions with
// control predecessors or used as one (their ordering would be lost), and
// dynamic shapes (a `<=N` dimension may hold elements).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOZEROSIZEDHLOELIMINATION
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// True if `op` is an instruction this pass may replace.
static bool isReplaceable(Operation *op) {
  if (!isa<InstructionOpInterface>(op) || isa<ConstantOp>(op) ||
      op->getNumResults() != 1 || hasControlPredecessors(op) ||
      isControlPredecessor(op))
    return false;
  // A bounded dynamic dimension (`<=N`) may hold elements: static only.
  // The effects last: those of a call, loop or branch take a walk of the
  // module to look up its computations.
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return type && type.hasStaticShape() && type.getNumElements() == 0 &&
         isMemoryEffectFree(op);
}

namespace {
struct ZeroSizedHloEliminationPass
    : ChangeReportingPass<ZeroSizedHloEliminationPass,
                          hlo::impl::HloZeroSizedHloEliminationBase> {
  void run() {
    for (auto comp : getOperation().getOps<ComputationOp>()) {
      for (Operation &op :
           llvm::make_early_inc_range(comp.getBody().getOps())) {
        if (!isReplaceable(&op))
          continue;
        auto type = cast<RankedTensorType>(op.getResult(0).getType());
        auto literal = DenseElementsAttr::get(
            RankedTensorType::get(type.getShape(), type.getElementType()),
            ArrayRef<Attribute>());
        OpBuilder builder(&op);
        Operation *constant = createInstruction(
            builder, op.getLoc(), ConstantOp::getOperationName(), type, {},
            {builder.getNamedAttr("value", literal)});
        transferInstructionAttrs(&op, constant);
        op.getResult(0).replaceAllUsesWith(constant->getResult(0));
        op.erase();
        ++numReplaced;
        changed = true;
      }
    }
  }
};
} // namespace
