//===- MoveCopyToUsers.cpp - layout-changing copies sink ------------------===//
//
// XLA's MoveCopyToUsers: a user that works in any layout (layout-preserving
// shape ops, elementwise ops, reductions) runs on the value a copy copied,
// and the copy follows it (a reduce drops it), so that copies gather where
// they are needed and fuse there. One walk in order sinks a copy through a
// chain of users: linear in the module.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "LayoutUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOMOVECOPYTOUSERS
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// The value `v` copies, if `v` is a copy's result.
Value copiedBy(Value v) {
  auto copy = v.getDefiningOp<CopyOp>();
  if (!copy || hasControlPredecessors(copy) || isControlPredecessor(copy))
    return {};
  return getDataOperands(copy)[0];
}

struct MoveCopyToUsersPass
    : ChangeReportingPass<MoveCopyToUsersPass,
                          hlo::impl::HloMoveCopyToUsersBase> {
  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation())) {
      SmallVector<Operation *> ops;
      for (Operation &op : comp.getBody().front().without_terminator())
        ops.push_back(&op);
      for (Operation *op : ops)
        if (!hasControlPredecessors(op) && !isControlPredecessor(op) &&
            op->getNumResults() == 1)
          rewrite(op);
    }
  }

  /// Which data operands of `op` may take the copied values (all of them
  /// copies), or none when `op` is not moved across.
  SmallVector<unsigned> movableOperands(Operation *op) {
    OperandRange data = getDataOperands(op);
    // Every operand a copy, of values of one type (binary ops) or one
    // layout (concatenate).
    auto allCopies = [&](bool sameType) -> SmallVector<unsigned> {
      SmallVector<unsigned> all;
      Value first;
      for (auto [i, v] : llvm::enumerate(data)) {
        Value src = copiedBy(v);
        if (!src)
          return {};
        if (first && (sameType ? src.getType() != first.getType()
                               : getMinorToMajor(src.getType()) !=
                                     getMinorToMajor(first.getType())))
          return {};
        if (!first)
          first = src;
        all.push_back(i);
      }
      return all;
    };
    if (isa<PadOp, SliceOp, DynamicSliceOp, ReverseOp, ConvertOp>(op) ||
        (isa<ReduceWindowOp>(op) && data.size() == 2))
      return copiedBy(data[0]) ? SmallVector<unsigned>{0}
                               : SmallVector<unsigned>();
    if (isa<ConcatenateOp>(op))
      return allCopies(/*sameType=*/false);
    if (isElementwise(op) &&
        !isa<CopyOp, ReducePrecisionOp, BitcastConvertOp>(op)) {
      if (data.size() == 1)
        return copiedBy(data[0]) ? SmallVector<unsigned>{0}
                                 : SmallVector<unsigned>();
      if (data.size() == 2)
        return allCopies(/*sameType=*/true);
    }
    return {};
  }

  void rewrite(Operation *op) {
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !type.hasStaticShape() || !hasPlainLayout(type))
      return;
    // A reduce takes any layout: it reads the copied value.
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      Value src = getDataOperands(op).size() == 2
                      ? copiedBy(getDataOperands(op)[0])
                      : Value();
      if (!src)
        return;
      Value copy = getDataOperands(op)[0];
      op->setOperand(0, src);
      eraseIfDead(copy);
      ++numMoved;
      changed = true;
      return;
    }
    SmallVector<unsigned> moved = movableOperands(op);
    if (moved.empty())
      return;
    Value first = copiedBy(getDataOperands(op)[moved.front()]);
    auto srcType = cast<RankedTensorType>(first.getType());
    if (srcType.getRank() != type.getRank() || !hasPlainLayout(srcType))
      return;
    // The op in the copied value's layout, then a copy to its own.
    OpBuilder b(op);
    Operation *earlier = b.clone(*op);
    // (each copy once: `compare(copy, copy)` reads one copy twice)
    SetVector<Value> copies;
    for (unsigned i : moved) {
      Value v = getDataOperands(op)[i];
      copies.insert(v);
      earlier->setOperand(i, copiedBy(v));
    }
    earlier->getResult(0).setType(
        withMinorToMajor(type, getMinorToMajor(srcType)));
    Value later = createCopy(b, op->getLoc(), earlier->getResult(0), type);
    transferInstructionAttrs(op, later.getDefiningOp());
    op->getResult(0).replaceAllUsesWith(later);
    op->erase();
    for (Value c : copies)
      eraseIfDead(c);
    ++numMoved;
    changed = true;
  }

  static void eraseIfDead(Value v) {
    if (Operation *def = v.getDefiningOp(); def && def->use_empty())
      def->erase();
  }
};
} // namespace
