//===- ScatterSliceSimplifier.cpp - scatter only what is kept -------------===//
//
// XLA's ScatterSliceSimplifier (XLA-GPU's simplification loop, after the
// scatter expander). A scatter whose result reaches its users only through
// slices that keep a prefix of it (starts 0, strides 1, all to the same
// limits), possibly through elementwise ops and get-tuple-elements on the
// way, scatters into the kept prefix instead: its operands are sliced
// first, and updates at indices past the prefix are skipped as out of
// bounds, which the slices dropped anyway. A buffer of N+1 elements whose
// last one collects the updates to ignore (a common way of writing a
// masked scatter) then has no element all those updates contend for.
//
//   %s = f32[9] scatter(%init, %indices, %updates), ...
//   %r = f32[8] slice(%s), slice={[0:8]}
// ->
//   %r = f32[8] scatter(f32[8] slice(%init), %indices, %updates), ...
//
// Elementwise ops between the scatter and the slices compute on the prefix
// (their other operands sliced to it); the slices are replaced by what
// they sliced. A window dimension of the operands (not inserted, not a
// batching dimension) is never truncated: a window that crosses the new
// end would be skipped whole, dropping elements the slices kept. Taken
// only when something is truncated. Left alone: any other user on the way
// (or the computation's root), slices that disagree, dynamic shapes,
// control edges, fused computations.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSCATTERSLICESIMPLIFIER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// `type` (an array) with `shape`, its element type and layout kept.
static RankedTensorType resized(Type type, ArrayRef<int64_t> shape) {
  auto rt = cast<RankedTensorType>(type);
  return RankedTensorType::get(shape, rt.getElementType(), rt.getEncoding());
}

/// `type` (an array or a tuple of arrays) with every array of `shape`.
static Type resizedAll(Type type, ArrayRef<int64_t> shape) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return TupleType::get(type.getContext(),
                          llvm::map_to_vector(tuple.getTypes(), [&](Type t) {
                            return Type(resized(t, shape));
                          }));
  return resized(type, shape);
}

namespace {
/// What the scatter's result flows through (get-tuple-elements,
/// elementwise ops, and the slices that end each path, in program order)
/// and the shape all the slices keep.
struct Truncation {
  SmallVector<int64_t> shape;
  llvm::SetVector<Operation *> ops;
};
} // namespace

static std::optional<Truncation> analyze(ScatterOp scatter) {
  auto operandType =
      dyn_cast<RankedTensorType>(scatter.getInputs()[0].getType());
  if (!operandType || !operandType.hasStaticShape() || hasControlEdges(scatter))
    return std::nullopt;
  // The operand dimensions a window spans.
  llvm::SmallDenseSet<int64_t> window;
  for (int64_t d = 0; d < operandType.getRank(); ++d)
    if (!llvm::is_contained(scatter.getInsertedWindowDims(), d) &&
        !llvm::is_contained(orEmpty(scatter.getInputBatchingDims()), d))
      window.insert(d);
  Truncation t;
  t.shape.assign(operandType.getShape().begin(), operandType.getShape().end());
  SmallVector<SliceOp> slices;
  SmallVector<Value> worklist = {scatter.getResult()};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (!seen.insert(user).second)
        continue;
      if (hasControlEdges(user))
        return std::nullopt;
      if (auto slice = dyn_cast<SliceOp>(user)) {
        SliceAttr bounds = slice.getSlice();
        for (auto [d, start, limit, stride] : llvm::enumerate(
                 bounds.getStarts(), bounds.getLimits(), bounds.getStrides())) {
          if (start != 0 || stride != 1)
            return std::nullopt;
          if (limit == t.shape[d])
            continue;
          if (t.shape[d] != operandType.getDimSize(d) || window.contains(d))
            return std::nullopt;
          t.shape[d] = limit;
        }
        slices.push_back(slice);
      } else if (isa<GetTupleElementOp>(user) ||
                 (isElementwise(user) && user->getNumResults() == 1 &&
                  llvm::all_of(user->getOperandTypes(), [&](Type type) {
                    return isa<RankedTensorType>(type) &&
                           cast<RankedTensorType>(type).getShape() ==
                               operandType.getShape();
                  }))) {
        worklist.push_back(user->getResult(0));
      } else {
        return std::nullopt;
      }
      t.ops.insert(user);
    }
  }
  // Every slice keeps the same prefix, and something is cut.
  if (t.shape == SmallVector<int64_t>(operandType.getShape()))
    return std::nullopt;
  for (SliceOp slice : slices)
    if (slice.getSlice().getLimits() != ArrayRef<int64_t>(t.shape) ||
        slice.getType() != resized(slice.getOperand().getType(), t.shape))
      return std::nullopt;
  SmallVector<Operation *> ordered = t.ops.takeVector();
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  t.ops.insert(ordered.begin(), ordered.end());
  return t;
}

/// `v` sliced to the prefix `shape`.
static Value slicePrefix(OpBuilder &b, Location loc, Value v,
                         ArrayRef<int64_t> shape) {
  int64_t rank = shape.size();
  InstBuilder ib(b, loc);
  return ib.create<SliceOp>(
      resized(v.getType(), shape), v,
      {b.getNamedAttr(
          "slice", SliceAttr::get(b.getContext(), SmallVector<int64_t>(rank, 0),
                                  shape, SmallVector<int64_t>(rank, 1)))});
}

static void rewrite(ScatterOp scatter, const Truncation &t) {
  size_t n = scatter.getInputs().size() / 2;
  OpBuilder b(scatter);
  Location loc = derivedLoc(scatter.getLoc());
  SmallVector<Value> inputs(scatter.getInputs());
  for (size_t i = 0; i < n; ++i)
    inputs[i] = slicePrefix(b, loc, inputs[i], t.shape);
  auto smaller = cast<ScatterOp>(b.clone(*scatter));
  smaller.getInputsMutable().assign(inputs);
  smaller.getResult().setType(resizedAll(scatter.getType(), t.shape));
  IRMapping map;
  map.map(scatter.getResult(), smaller.getResult());
  for (Operation *op : t.ops) {
    if (isa<SliceOp>(op)) {
      op->getResult(0).replaceAllUsesWith(map.lookup(op->getOperand(0)));
      continue;
    }
    b.setInsertionPoint(op);
    SmallVector<Value> operands;
    for (Value v : op->getOperands())
      operands.push_back(
          map.lookupOrNull(v)
              ? map.lookup(v)
              : slicePrefix(b, derivedLoc(op->getLoc()), v, t.shape));
    Operation *copy = b.clone(*op);
    copy->setOperands(operands);
    copy->getResult(0).setType(resizedAll(op->getResult(0).getType(), t.shape));
    map.map(op->getResult(0), copy->getResult(0));
  }
  for (Operation *op : llvm::reverse(t.ops))
    op->erase();
  scatter->erase();
}

namespace {
struct ScatterSliceSimplifierPass
    : ChangeReportingPass<ScatterSliceSimplifierPass,
                          hlo::impl::HloScatterSliceSimplifierBase> {
  void run() {
    SmallVector<ScatterOp> scatters;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](ScatterOp op) { scatters.push_back(op); });
    for (ScatterOp scatter : scatters)
      if (std::optional<Truncation> t = analyze(scatter)) {
        rewrite(scatter, *t);
        ++numSimplified;
        changed = true;
      }
  }
};
} // namespace
