//===- ReshapeMover.cpp - sink reshapes and transposes --------------------===//
//
// XLA's ReshapeMover. A "rearrange" is a reshape or a transpose. An
// elementwise instruction whose operands are all either the same rearrange
// (same kind, same result and operand dimensions, same permutation) or
// operands that take the inverse rearrange for free is computed before the
// rearrange instead:
//   add(reshape(a), reshape(b)) -> reshape(add(a, b)).
// Free to rearrange (XLA's CanTriviallyRearrange): a constant, an rng with
// one user, and a broadcast with sorted dimensions that is, for a
// transpose, one that keeps its dimensions in order, and for a reshape, a
// broadcast of a scalar or, with `reshape-of-1d-broadcast-is-cheap`, of an
// operand with at most one dimension above 1 or whose dimensions the
// reshape leaves alone. A rearrange that changes nothing is free too. Those
// operands get the inverse rearrange (constant folding and the algebraic
// simplifier clean up); the moved rearranges' operands are used directly.
//
// A rearrange is moved only if every instruction that reads it moves it
// (the candidates are pruned until that holds, as in XLA); otherwise
// sinking it would duplicate it. Left alone: instructions with control
// predecessors, rearranges with control edges, dynamic shapes, elementwise
// instructions with operands of another shape (scalar clamp bounds) and
// fused computations.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLORESHAPEMOVER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The static array type of `value`, or null.
static RankedTensorType staticType(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.hasStaticShape() ? type : nullptr;
}

/// A reshape or transpose between static array types, or null.
static Operation *asRearrange(Value value) {
  Operation *op = value.getDefiningOp();
  if (!isa_and_nonnull<ReshapeOp, TransposeOp>(op) ||
      !staticType(op->getResult(0)) || !staticType(op->getOperand(0)))
    return nullptr;
  return op;
}

static ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// XLA's CommonFactors: the pairs (i, j) with prod(a[0:i]) == prod(b[0:j])
/// that split the two shapes into groups of equal size, from (0, 0) to
/// (a.size(), b.size()).
static SmallVector<std::pair<int64_t, int64_t>>
commonFactors(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  int64_t n = a.size(), m = b.size();
  SmallVector<std::pair<int64_t, int64_t>> bounds;
  if (a == b) {
    for (int64_t i = 0; i <= n; ++i)
      bounds.push_back({i, i});
    return bounds;
  }
  auto product = [](ArrayRef<int64_t> dims) {
    int64_t p = 1;
    for (int64_t d : dims)
      p *= d;
    return p;
  };
  int64_t i = 0, j = 0, lastI = -1, lastJ = -1;
  for (; i < n && j < m && a[i] == b[j]; ++i, ++j) {
    bounds.push_back({i, j});
    lastI = i;
    lastJ = j;
  }
  int64_t restA = product(a.drop_front(i)), restB = product(b.drop_front(j));
  if (restA != restB)
    return {{0, 0}, {n, m}};
  if (restA == 0) {
    bounds.push_back({i, j});
    bounds.push_back({n, m});
    return bounds;
  }
  // Grow the prefix products, always the smaller one (the next smaller
  // dimension on a tie), and record every point where they meet.
  for (int64_t sizeA = 1, sizeB = 1;;) {
    if (sizeA == sizeB && (i > lastI || j > lastJ)) {
      bounds.push_back({i, j});
      lastI = i;
      lastJ = j;
      continue;
    }
    bool moreA = i < n, moreB = j < m;
    if (!moreA && !moreB)
      break;
    bool stepA = sizeA < sizeB ||
                 (moreA && (!moreB || (sizeA == sizeB && a[i] <= b[j])));
    bool stepB = sizeB < sizeA ||
                 (moreB && (!moreA || (sizeA == sizeB && b[j] <= a[i])));
    if (stepA)
      sizeA *= a[i++];
    if (stepB)
      sizeB *= b[j++];
  }
  return bounds;
}

/// XLA's ShapeUtil::ReshapeLeavesDimensionsUnmodified: true if each
/// dimension in `dims` (sorted) of `from` is a group of its own in the
/// reshape to `to`, a dimension of the same size at the same offset.
static bool reshapeLeavesDimensionsUnmodified(ArrayRef<int64_t> from,
                                              ArrayRef<int64_t> to,
                                              ArrayRef<int64_t> dims) {
  auto bounds = commonFactors(from, to);
  llvm::SmallDenseSet<int64_t> unmodified;
  for (size_t k = 0; k + 1 < bounds.size(); ++k)
    if (bounds[k + 1].first - bounds[k].first == 1 &&
        bounds[k + 1].second - bounds[k].second == 1)
      unmodified.insert(bounds[k].first);
  return llvm::all_of(dims, [&](int64_t d) { return unmodified.contains(d); });
}

namespace {
struct ReshapeMoverPass
    : ChangeReportingPass<ReshapeMoverPass, hlo::impl::HloReshapeMoverBase> {
  using ChangeReportingPass::ChangeReportingPass;

  /// XLA's CanTriviallyRearrange: `value` takes the inverse of `rearrange`
  /// for free.
  bool canTriviallyRearrange(Value value, Operation *rearrange) {
    Value from = rearrange->getOperand(0);
    if (auto reshape = dyn_cast<ReshapeOp>(rearrange);
        reshape && reshape.getType() == from.getType())
      return true;
    if (auto transpose = dyn_cast<TransposeOp>(rearrange);
        transpose && isIdentityPermutation(transpose.getDimensions()))
      return true;
    Operation *def = value.getDefiningOp();
    if (isa_and_nonnull<ConstantOp>(def))
      return true;
    // One user (XLA counts distinct users): a copy of another shape would
    // draw its numbers in another order.
    if (isa_and_nonnull<RngOp>(def) && !def->use_empty() &&
        llvm::all_equal(def->getUsers()))
      return true;
    auto broadcast = dyn_cast_or_null<BroadcastOp>(def);
    if (!broadcast)
      return false;
    RankedTensorType operandType = staticType(broadcast.getOperand());
    ArrayRef<int64_t> dims =
        broadcast.getDimensions().value_or(ArrayRef<int64_t>());
    if (!operandType || !llvm::is_sorted(dims))
      return false;
    if (isa<ReshapeOp>(rearrange)) {
      if (operandType.getRank() == 0)
        return true;
      if (!reshapeOf1dBroadcastIsCheap)
        return false;
      if (llvm::count_if(operandType.getShape(),
                         [](int64_t d) { return d != 1; }) <= 1)
        return true;
      return reshapeLeavesDimensionsUnmodified(shapeOf(rearrange->getResult(0)),
                                               shapeOf(from), dims);
    }
    // The inverse transpose must keep the broadcast dimensions in order.
    ArrayRef<int64_t> perm = cast<TransposeOp>(rearrange).getDimensions();
    return llvm::is_sorted(
        llvm::map_to_vector(dims, [&](int64_t d) { return perm[d]; }));
  }

  /// XLA's FirstNontrivialRearrange over the operands of `op`.
  Operation *firstNontrivialRearrange(Operation *op) {
    for (Value operand : getDataOperands(op))
      if (Operation *rearrange = asRearrange(operand))
        if (!canTriviallyRearrange(rearrange->getOperand(0), rearrange))
          return rearrange;
    return nullptr;
  }

  /// XLA's AreEquivalentRearranges.
  static bool equivalent(Operation *a, Operation *b) {
    if (a->getName() != b->getName() ||
        shapeOf(a->getResult(0)) != shapeOf(b->getResult(0)))
      return false;
    if (auto ta = dyn_cast<TransposeOp>(a))
      return ta.getDimensions() == cast<TransposeOp>(b).getDimensions();
    return shapeOf(a->getOperand(0)) == shapeOf(b->getOperand(0));
  }

  /// XLA's IsReshapeMoveCandidate, restricted to static shapes, operands of
  /// the result's shape and no control edges on what is moved.
  bool isCandidate(Operation *op) {
    if (!isElementwise(op) || hasControlPredecessors(op))
      return false;
    RankedTensorType type = staticType(op->getResult(0));
    if (!type || llvm::any_of(getDataOperands(op), [&](Value v) {
          RankedTensorType t = staticType(v);
          return !t || t.getShape() != type.getShape();
        }))
      return false;
    Operation *rearrange = firstNontrivialRearrange(op);
    if (!rearrange)
      return false;
    return llvm::all_of(getDataOperands(op), [&](Value v) {
      if (Operation *other = asRearrange(v))
        return equivalent(other, rearrange) && !hasControlPredecessors(other) &&
               !isControlPredecessor(other);
      return !isa_and_nonnull<ReshapeOp, TransposeOp>(v.getDefiningOp()) &&
             canTriviallyRearrange(v, rearrange);
    });
  }

  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      moveInComputation(comp);
  }

  void moveInComputation(ComputationOp comp) {
    llvm::SetVector<Operation *> candidates;
    for (Operation &op : comp.getBody().getOps())
      if (isCandidate(&op))
        candidates.insert(&op);
    // Prune (XLA's TryReshapeMoveOnCandidates): a rearrange read by an
    // instruction that is not a candidate stays, so none of its readers
    // moves it. The root (hlo.return) is not a user in XLA.
    SmallVector<Operation *> worklist;
    llvm::SmallPtrSet<Operation *, 16> seen;
    auto check = [&](Operation *candidate) {
      for (Value v : getDataOperands(candidate))
        if (Operation *rearrange = asRearrange(v))
          if (seen.insert(rearrange).second)
            worklist.push_back(rearrange);
    };
    for (Operation *candidate : candidates)
      check(candidate);
    while (!worklist.empty()) {
      Operation *rearrange = worklist.pop_back_val();
      bool stays = llvm::any_of(rearrange->getUsers(), [&](Operation *user) {
        return !isa<ReturnOp>(user) && !candidates.contains(user);
      });
      if (!stays)
        continue;
      for (Operation *user : rearrange->getUsers())
        if (candidates.remove(user))
          for (Value v : getDataOperands(user))
            if (Operation *other = asRearrange(v))
              if (other != rearrange)
                worklist.push_back(other);
    }
    for (Operation *candidate : candidates)
      sink(candidate);
  }

  /// `value` rearranged by the inverse of `rearrange`: of the type of the
  /// rearrange's operand, with the element type of `value`.
  Value inverse(OpBuilder &b, Location loc, Operation *rearrange, Value value) {
    auto type = cast<RankedTensorType>(value.getType());
    RankedTensorType target = withElementType(
        rearrange->getOperand(0).getType(), type.getElementType());
    if (isa<ReshapeOp>(rearrange)) {
      if (type == target)
        return value;
      if (auto reshape = value.getDefiningOp<ReshapeOp>();
          reshape && reshape.getOperand().getType() == target)
        return reshape.getOperand();
      return createInstruction(b, loc, ReshapeOp::getOperationName(), target,
                               value)
          ->getResult(0);
    }
    ArrayRef<int64_t> perm = cast<TransposeOp>(rearrange).getDimensions();
    if (isIdentityPermutation(perm))
      return value;
    // transpose'(transpose(x)) is x (XLA leaves that to the simplifier).
    if (auto transpose = value.getDefiningOp<TransposeOp>();
        transpose && transpose.getDimensions() == perm)
      return transpose.getOperand();
    return createInstruction(
               b, loc, TransposeOp::getOperationName(), target, value,
               {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(
                                                 inversePermutation(perm)))})
        ->getResult(0);
  }

  /// XLA's SinkRearrangeOperands.
  void sink(Operation *op) {
    Operation *rearrange = firstNontrivialRearrange(op);
    OpBuilder b(op);
    Location loc = derivedLoc(op->getLoc());
    SmallVector<Value> operands;
    for (Value v : getDataOperands(op))
      operands.push_back(inverse(b, loc, rearrange, v));
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Operation *moved = b.clone(*op);
    moved->setOperands(operands);
    moved->setLoc(loc);
    moved->getResult(0).setType(withElementType(
        rearrange->getOperand(0).getType(), resultType.getElementType()));
    // XLA drops the sharding: it was for the old shape.
    moved->removeAttr("sharding");
    if (auto map = dyn_cast<MapOp>(moved); map && map.getDimensionsAttr())
      map.setDimensions(llvm::to_vector(
          llvm::seq<int64_t>(0, shapeOf(moved->getResult(0)).size())));
    SmallVector<NamedAttribute> attrs;
    if (auto transpose = dyn_cast<TransposeOp>(rearrange))
      attrs.push_back(
          b.getNamedAttr("dimensions", transpose.getDimensionsAttr()));
    Operation *result =
        createInstruction(b, loc, rearrange->getName().getStringRef(),
                          resultType, moved->getResult(0), attrs);
    transferInstructionAttrs(op, result);
    op->getResult(0).replaceAllUsesWith(result->getResult(0));
    op->erase();
    ++numMoved;
    changed = true;
  }
};
} // namespace
