//===- StochasticConvertDecomposer.cpp - stochastic rounding as HLO ops ---===//
//
// XLA's StochasticConvertDecomposer: `stochastic-convert(x, random)` of a
// float array to integers becomes ordinary HLO ops. With w the width of
// the random bits (the operand's width), the magnitude |x| is rounded up
// when random < floor(frac(|x|) * 2^w) (random read as an unsigned
// integer: the fraction as a w-bit fixed-point number, as XLA's evaluator
// and the reference interpreter compute it), else truncated; the sign is
// put back and the result converted with `convert` (saturating, NaN to 0).
//
// The arithmetic is done in f32 for operands of at most 32 bits and in f64
// for f64: frac(|x|) has no more significant bits than x, so frac * 2^w
// and its floor are exact, and so is their conversion to the w-bit type.
//
//===----------------------------------------------------------------------===//

#include "ExpanderUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"

#include <cmath>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSTOCHASTICCONVERTDECOMPOSER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The decomposition of `op`'s stochastic rounding.
static Value decompose(ExpansionBuilder &b, StochasticConvertOp op) {
  OpBuilder &builder = b.getBuilder();
  Value random = op.getRandom();
  unsigned width =
      cast<IntegerType>(ExpansionBuilder::getElementType(random)).getWidth();
  Type computeType =
      width > 32 ? Type(builder.getF64Type()) : Type(builder.getF32Type());
  Value x = b.convert(op.getOperand(), computeType);
  Type type = x.getType();
  Value magnitude = b.elementwise<AbsOp>({x});
  Value truncated = b.elementwise<FloorOp>({magnitude});
  Value fraction = b.elementwise<SubtractOp>({magnitude, truncated});
  // F = fraction * 2^w, exact (a power of two and no overflow).
  Value scaled = b.elementwise<MulOp>(
      {fraction, b.splatReal(type, std::ldexp(1.0, width))});
  Value fixed = b.convert(b.elementwise<FloorOp>({scaled}),
                          ExpansionBuilder::getElementType(random));
  Value roundUp = b.compare(ComparisonDirection::LT, random, fixed);
  Value rounded = b.select(
      roundUp, b.elementwise<AddOp>({truncated, b.splatReal(type, 1.0)}),
      truncated);
  Value isNegative =
      b.compare(ComparisonDirection::LT, x, b.splatReal(type, 0.0));
  Value result = b.select(isNegative, b.elementwise<NegOp>({rounded}), rounded);
  return b.create(ConvertOp::getOperationName(), op.getType(), {result});
}

namespace {
struct StochasticConvertDecomposerPass
    : ChangeReportingPass<StochasticConvertDecomposerPass,
                          hlo::impl::HloStochasticConvertDecomposerBase> {
  void run() {
    SmallVector<StochasticConvertOp> worklist;
    getOperation().walk([&](StochasticConvertOp op) {
      auto result = dyn_cast<RankedTensorType>(op.getType());
      auto random = dyn_cast<RankedTensorType>(op.getRandom().getType());
      if (hasControlPredecessors(op) || !isStaticArray(op.getType()) ||
          !random || !isa<IntegerType>(random.getElementType()))
        return;
      // Float to integer only (as the interpreter; XLA: to signed ones).
      auto to = dyn_cast<IntegerType>(result.getElementType());
      if (to && to.getWidth() > 1 &&
          cast<IntegerType>(random.getElementType()).getWidth() <= 64)
        worklist.push_back(op);
    });
    for (StochasticConvertOp op : worklist) {
      OpBuilder builder(op);
      ExpansionBuilder b(builder, op.getLoc());
      Value result = decompose(b, op);
      transferInstructionAttrs(op, result.getDefiningOp());
      op.getResult().replaceAllUsesWith(result);
      op.erase();
      ++numDecomposed;
      changed = true;
    }
  }
};
} // namespace
