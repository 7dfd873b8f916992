//===- DynamicDimensionSimplifier.cpp - forward through shape chains ------===//
//
// XLA's DynamicDimensionSimplifier (XLA-GPU's "optimization" pipeline,
// after the conditional canonicalizer, before the dynamic padder): six
// rewrites that leave the shapes the dynamic padder reads simpler, each in
// its own sweep over the computations no fusion calls, in XLA's order:
//
// 1. concatenate(concatenate(a, b), c) along one dimension is
//    concatenate(a, b, c);
// 2. a rank-1 unit-stride slice of a concatenate that is exactly one of its
//    operands is that operand;
// 3. reshape(broadcast(s) to [1]) to a scalar is the scalar s;
// 4. reshape(reshape(a)) of a's own type is a;
// 5. a convert to its operand's type is its operand;
// 6. a reshape to its operand's type is its operand.
//
// "Type" includes the layout (XLA's Shape::Equal). An instruction whose
// uses went elsewhere is erased. Left alone: instructions with control
// edges.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLODYNAMICDIMENSIONSIMPLIFIER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The operation defining `v` if it is an `OpT` without control edges.
template <typename OpT> static OpT plainDefiningOp(Value v) {
  auto op = v.getDefiningOp<OpT>();
  return op && !hasControlEdges(op) ? op : OpT();
}

/// Rule 1: operands of `op` that are concatenates along its dimension are
/// replaced by their operands. True if it did.
static bool forwardConcatenates(ConcatenateOp op) {
  int64_t dim = op.getDimensions()[0];
  SmallVector<Value> operands;
  bool found = false;
  for (Value operand : op.getInputs()) {
    auto inner = plainDefiningOp<ConcatenateOp>(operand);
    if (inner && inner.getDimensions()[0] == dim) {
      llvm::append_range(operands, inner.getInputs());
      found = true;
    } else {
      operands.push_back(operand);
    }
  }
  if (!found)
    return false;
  op.getInputsMutable().assign(operands);
  return true;
}

/// Rule 2: the operand of the concatenate `op` slices out exactly, or null.
static Value forwardSliceOfConcatenate(SliceOp op) {
  auto concat = plainDefiningOp<ConcatenateOp>(op.getOperand());
  auto type = cast<RankedTensorType>(op.getType());
  if (!concat || type.getRank() != 1 || op.getSlice().getStrides()[0] != 1)
    return {};
  int64_t start = op.getSlice().getStarts()[0], offset = 0;
  for (Value operand : concat.getInputs()) {
    auto operandType = cast<RankedTensorType>(operand.getType());
    if (offset == start && operandType == type)
      return operand;
    offset += operandType.getDimSize(0);
  }
  return {};
}

/// Rule 3: reshape(broadcast(scalar) to rank 1) to a scalar: the scalar.
static Value forwardScalarBroadcast(ReshapeOp op) {
  auto broadcast = plainDefiningOp<BroadcastOp>(op.getOperand());
  if (!broadcast)
    return {};
  Value scalar = broadcast.getOperand();
  auto rank = [](Value v) {
    return cast<RankedTensorType>(v.getType()).getRank();
  };
  if (rank(op) != 0 || rank(broadcast) != 1 || rank(scalar) != 0 ||
      scalar.getType() != op.getType())
    return {};
  return scalar;
}

/// Rule 4: reshape(reshape(a)) with a's type: a.
static Value forwardReshapeOfReshape(ReshapeOp op) {
  auto inner = plainDefiningOp<ReshapeOp>(op.getOperand());
  if (!inner || inner.getOperand().getType() != op.getType())
    return {};
  return inner.getOperand();
}

/// Rules 5 and 6: a convert or reshape to its operand's type: the operand.
static Value forwardIdentity(Operation *op) {
  Value operand = op->getOperand(0);
  return operand.getType() == op->getResult(0).getType() ? operand : Value();
}

namespace {
struct DynamicDimensionSimplifierPass
    : ChangeReportingPass<DynamicDimensionSimplifierPass,
                          hlo::impl::HloDynamicDimensionSimplifierBase> {
  void run() {
    SmallVector<ComputationOp> comps = nonFusionComputations(getOperation());
    sweep<ConcatenateOp>(comps, [&](ConcatenateOp op) {
      if (forwardConcatenates(op)) {
        ++numConcatenatesFlattened;
        changed = true;
      }
      return Value();
    });
    sweep<SliceOp>(comps, forwardSliceOfConcatenate);
    sweep<ReshapeOp>(comps, forwardScalarBroadcast);
    sweep<ReshapeOp>(comps, forwardReshapeOfReshape);
    sweep<ConvertOp>(comps, [](ConvertOp op) { return forwardIdentity(op); });
    sweep<ReshapeOp>(comps, [](ReshapeOp op) { return forwardIdentity(op); });
  }

  /// Visits the `OpT` instructions without control edges of `comps` in
  /// order; where `rule` gives a value, the instruction's uses go to it and
  /// the instruction is erased.
  template <typename OpT>
  void sweep(ArrayRef<ComputationOp> comps, function_ref<Value(OpT)> rule) {
    for (ComputationOp comp : comps)
      for (Operation &op : llvm::make_early_inc_range(comp.getBody().front())) {
        auto typed = dyn_cast<OpT>(op);
        if (!typed || hasControlEdges(&op))
          continue;
        Value forwarded = rule(typed);
        if (!forwarded)
          continue;
        op.getResult(0).replaceAllUsesWith(forwarded);
        op.erase();
        ++numForwarded;
        changed = true;
      }
  }
};
} // namespace
