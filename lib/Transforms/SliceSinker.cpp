//===- SliceSinker.cpp - elementwise ops on slices, on their sources ------===//
//
// XLA's SliceSinker (in XLA-GPU's simplification loop, before the reshape
// mover). Elementwise instructions of one kind whose operands are slices
// of the same sources, taken alike within each instruction, become one
// instruction on the sources, sliced per use:
//
//   a = add(slice(p)[0:9], slice(q)[0:9])
//   b = add(slice(p)[2:10], slice(q)[2:10])
//     -> s = add(p, q); a = slice(s)[0:9]; b = slice(s)[2:10]
//
// which removes the work the overlapping slices repeat, or the kernels of
// adjacent ones. A group (the instructions alike the first one met: same
// op and attributes, same result element type, operand i a slice of the
// first one's operand i source, all operands sliced alike) is taken only
// when its elements add up to at least a source's, so no element is
// computed that was not before (XLA's heuristic). Each instruction of the
// group is replaced by a slice of the new one, which takes its name.
// Left alone: control edges, dynamic shapes, fused computations.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSLICESINKER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The slice defining `v`, if it is one this pass reads.
static SliceOp sliceOf(Value v) {
  auto slice = v.getDefiningOp<SliceOp>();
  return slice && !hasControlEdges(slice) &&
                 isStaticArray(slice.getOperand().getType())
             ? slice
             : SliceOp();
}

/// True if `op` is an elementwise instruction the pass rewrites.
static bool isCandidate(Operation *op) {
  return isElementwise(op) && op->getNumResults() == 1 &&
         op->getNumOperands() > 0 && !op->use_empty() && !hasControlEdges(op) &&
         isStaticArray(op->getResult(0).getType());
}

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

/// XLA's IsElementwiseOperationOnSimilarSlices: every operand of `op` a
/// slice taken alike from a source of the first one's shape.
static bool onSimilarSlices(Operation *op) {
  SliceOp first = sliceOf(op->getOperand(0));
  if (!first)
    return false;
  return llvm::all_of(op->getOperands(), [&](Value v) {
    SliceOp slice = sliceOf(v);
    return slice && slice.getSlice() == first.getSlice() &&
           shapeOf(slice.getOperand()) == shapeOf(first.getOperand());
  });
}

/// XLA's IsSimilarOperationOnSlices: `candidate` does what `op` does, on
/// slices of the same sources taken alike.
static bool isSimilar(Operation *op, Operation *candidate) {
  if (!isCandidate(candidate) || candidate->getName() != op->getName() ||
      candidate->getAttrDictionary() != op->getAttrDictionary() ||
      candidate->getNumOperands() != op->getNumOperands() ||
      getElementTypeOrSelf(candidate->getResult(0).getType()) !=
          getElementTypeOrSelf(op->getResult(0).getType()))
    return false;
  SliceOp first = sliceOf(candidate->getOperand(0));
  for (auto [mine, theirs] :
       llvm::zip(op->getOperands(), candidate->getOperands())) {
    SliceOp slice = sliceOf(theirs);
    if (!slice || !first || slice.getSlice() != first.getSlice() ||
        slice.getOperand() != sliceOf(mine).getOperand())
      return false;
  }
  return true;
}

/// The instructions alike `op` (itself included).
static SmallVector<Operation *> findGroup(Operation *op) {
  Value source = sliceOf(op->getOperand(0)).getOperand();
  llvm::SetVector<Operation *> group;
  for (Operation *slice : source.getUsers())
    if (auto s = dyn_cast<SliceOp>(slice); s && sliceOf(s.getResult()))
      for (Operation *user : s->getUsers())
        if (isSimilar(op, user))
          group.insert(user);
  return group.takeVector();
}

/// XLA's ShouldTransform: the group computes at least a source's elements.
static bool isWorthIt(ArrayRef<Operation *> group, Value source) {
  int64_t sum = 0;
  for (Operation *member : group)
    sum +=
        cast<RankedTensorType>(member->getResult(0).getType()).getNumElements();
  return sum >= cast<RankedTensorType>(source.getType()).getNumElements();
}

namespace {
struct SliceSinkerPass
    : ChangeReportingPass<SliceSinkerPass, hlo::impl::HloSliceSinkerBase> {
  void run() {
    SmallVector<Operation *> replaced;
    // Members of a group found too small: each would find the same group
    // (linear, where asking again per member would be quadratic).
    llvm::DenseSet<Operation *> rejected;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      for (Operation &op : comp.getBody().front().without_terminator()) {
        // An instruction replaced already has no users left.
        if (rejected.contains(&op) || !isCandidate(&op) ||
            !onSimilarSlices(&op))
          continue;
        SmallVector<Operation *> group = findGroup(&op);
        if (!isWorthIt(group, sliceOf(op.getOperand(0)).getOperand())) {
          rejected.insert(group.begin(), group.end());
          continue;
        }
        sink(&op, group);
        llvm::append_range(replaced, group);
        ++numGroups;
        changed = true;
      }
    for (Operation *op : replaced)
      op->erase();
  }

  /// `op` on the sources of its slices, each member of `group` replaced
  /// by a slice of it (named as the member).
  static void sink(Operation *op, ArrayRef<Operation *> group) {
    SmallVector<Value> sources;
    for (Value v : op->getOperands())
      sources.push_back(sliceOf(v).getOperand());
    OpBuilder b(op);
    Operation *whole = b.clone(*op);
    whole->setLoc(derivedLoc(op->getLoc()));
    whole->setOperands(sources);
    whole->getResult(0).setType(
        withElementType(sources[0].getType(),
                        getElementTypeOrSelf(op->getResult(0).getType())));
    for (Operation *member : group) {
      b.setInsertionPoint(member);
      auto part = cast<SliceOp>(b.clone(*sliceOf(member->getOperand(0))));
      part->setOperand(0, whole->getResult(0));
      part.getResult().setType(member->getResult(0).getType());
      member->getResult(0).replaceAllUsesWith(part.getResult());
      // The slice takes the member's name; the member stays (without users)
      // until the sweep is over.
      part->setLoc(member->getLoc());
    }
  }
};
} // namespace
