//===- ConvertMover.cpp - converts across data movement -------------------===//
//
// XLA's ConvertMover (XLA-GPU's "simplification-2", after the
// simplification loop): a data-movement instruction (concatenate, pad,
// reshape, slice, transpose) moves its data in the narrower of the types a
// convert next to it passes between, so fewer bytes move.
//
// 1. Widening converts sink: an instruction whose operands are all
//    converts (read by it alone) from one narrower type, or constants that
//    type holds exactly, runs on the converts' inputs (the constants
//    converted) and one convert of its result follows:
//      pad(convert_f32(x_bf16), 0.0) -> convert_f32(pad(x_bf16, 0.0_bf16)).
// 2. Narrowing converts rise: a convert to a narrower type of an
//    instruction read by it alone becomes that instruction on converts of
//    its operands, which keep rising the same way:
//      convert_bf16(transpose(y_f32)) -> transpose(convert_bf16(y_f32)).
//
// Sub-byte types (but pred) stay where they are, as do complex and pred
// constants (not checked for exactness here). The instruction that
// replaces another takes its name. Left alone: dynamic shapes, control
// edges, fused computations.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Runtime/Literal.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

#include "llvm/ADT/SetVector.h"

#include <cmath>
#include <deque>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCONVERTMOVER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;
using runtime::Literal;

/// XLA's OpCommutesWithConvert.
static bool commutesWithConvert(Operation *op) {
  return isa<ConcatenateOp, PadOp, ReshapeOp, SliceOp, TransposeOp>(op) &&
         op->getNumResults() == 1 &&
         isStaticArray(op->getResult(0).getType()) &&
         !hasControlPredecessors(op) && !isControlPredecessor(op);
}

static unsigned bitWidth(Type element) {
  return getElementBitWidth(element).value_or(0);
}

/// Sub-byte types but pred stay where they are (XLA:
/// IsSubByteNonPredType).
static bool isSubByteNonPred(Type element) {
  return bitWidth(element) < 8 && !element.isInteger(1);
}

static bool isComplexOrPred(Type element) {
  return isa<ComplexType>(element) || element.isInteger(1);
}

/// XLA's IsLosslesslyConvertibleTo: the constant converted to `to` and
/// back is itself.
static bool isLossless(ConstantOp constant, Type to) {
  auto type = cast<RankedTensorType>(constant.getType());
  Type from = type.getElementType();
  if (isComplexOrPred(from) || isComplexOrPred(to))
    return false;
  FailureOr<Literal> value = Literal::fromAttr(constant.getValue(), type);
  if (failed(value) || !value->isArray())
    return false;
  Literal there = Literal::array(to, type.getShape());
  Literal back = Literal::array(from, type.getShape());
  bool intFrom = isa<IntegerType>(from), intTo = isa<IntegerType>(to);
  for (int64_t i = 0, e = value->getNumElements(); i < e; ++i) {
    if (intTo) {
      double f = value->getFloat(i);
      if (!intFrom && (!std::isfinite(f) || f != std::trunc(f)))
        return false;
      there.setInt(i, intFrom ? value->getInt(i) : static_cast<int64_t>(f));
    } else {
      there.setFloat(i, value->getFloat(i));
    }
    if (intFrom)
      back.setInt(i, intTo ? there.getInt(i)
                           : static_cast<int64_t>(there.getFloat(i)));
    else
      back.setFloat(i, there.getFloat(i));
  }
  return back == *value;
}

namespace {
struct ConvertMoverPass
    : ChangeReportingPass<ConvertMoverPass, hlo::impl::HloConvertMoverBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation())) {
      sinkWideningConverts(comp);
      raiseNarrowingConverts(comp);
    }
  }

  /// A copy of `op` at `op` with `operands` and element type `element`.
  static Value cloneWith(OpBuilder &b, Operation *op, ValueRange operands,
                         Type element) {
    Operation *copy = b.clone(*op);
    copy->setLoc(derivedLoc(op->getLoc()));
    copy->setOperands(operands);
    copy->getResult(0).setType(
        withElementType(op->getResult(0).getType(), element));
    return copy->getResult(0);
  }

  static Value convert(OpBuilder &b, Location loc, Value v, Type element) {
    return createInstruction(b, loc, ConvertOp::getOperationName(),
                             withElementType(v.getType(), element), {v})
        ->getResult(0);
  }

  void sinkWideningConverts(ComputationOp comp) {
    SmallVector<Operation *> candidates;
    comp.walk([&](Operation *op) {
      if (commutesWithConvert(op) && op->getNumOperands() > 0)
        candidates.push_back(op);
    });
    for (Operation *op : candidates) {
      Type from;
      bool ok = true;
      for (Value v : op->getOperands()) {
        auto conv = v.getDefiningOp<ConvertOp>();
        if (conv && hasOneUser(v) && !hasControlPredecessors(conv)) {
          Type in = tensorType(conv.getOperand()).getElementType();
          ok &= !from || from == in;
          from = in;
        } else {
          ok &= isa_and_nonnull<ConstantOp>(v.getDefiningOp());
        }
      }
      Type to = tensorType(op->getResult(0)).getElementType();
      if (!ok || !from || bitWidth(from) >= bitWidth(to) ||
          isSubByteNonPred(from) ||
          llvm::any_of(op->getOperands(), [&](Value v) {
            auto c = v.getDefiningOp<ConstantOp>();
            return c && !isLossless(c, from);
          }))
        continue;
      OpBuilder b(op);
      Location loc = derivedLoc(op->getLoc());
      SmallVector<Value> operands;
      for (Value v : op->getOperands())
        operands.push_back(v.getDefiningOp<ConvertOp>()
                               ? v.getDefiningOp<ConvertOp>().getOperand()
                               : convert(b, loc, v, from));
      Value narrow = cloneWith(b, op, operands, from);
      llvm::SmallSetVector<Operation *, 4> converts;
      for (Value v : op->getOperands())
        if (auto c = v.getDefiningOp<ConvertOp>())
          converts.insert(c);
      replaceByNamed(op, convert(b, loc, narrow, to));
      for (Operation *c : converts)
        if (c->use_empty())
          c->erase();
      ++numSunk;
      changed = true;
    }
  }

  void raiseNarrowingConverts(ComputationOp comp) {
    std::deque<ConvertOp> queue;
    comp.walk([&](ConvertOp op) { queue.push_front(op); });
    while (!queue.empty()) {
      ConvertOp conv = queue.front();
      queue.pop_front();
      Operation *op = conv.getOperand().getDefiningOp();
      if (!op || !commutesWithConvert(op) || !hasOneUser(conv.getOperand()) ||
          hasControlPredecessors(conv) || isControlPredecessor(conv))
        continue;
      Type from = tensorType(conv.getOperand()).getElementType();
      Type to = tensorType(conv.getResult()).getElementType();
      if (bitWidth(from) <= bitWidth(to) || isSubByteNonPred(to))
        continue;
      OpBuilder b(conv);
      Location loc = derivedLoc(conv.getLoc());
      SmallVector<Value> operands;
      for (Value v : op->getOperands()) {
        Value c = convert(b, loc, v, to);
        queue.push_front(c.getDefiningOp<ConvertOp>());
        operands.push_back(c);
      }
      replaceByNamed(conv, cloneWith(b, op, operands, to));
      op->erase();
      ++numRaised;
      changed = true;
    }
  }
};
} // namespace
