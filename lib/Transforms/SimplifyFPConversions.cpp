//===- SimplifyFPConversions.cpp - chains of float converts as one --------===//
//
// XLA's SimplifyFPConversions: a chain of converts to floating-point types
// becomes one convert from the chain's input (none when the input has the
// chain's result type):
//   convert_f32(convert_bf16(x_f32)) -> x_f32
//   convert_f16(convert_bf16(convert_f32(y_s32))) -> convert_f16(y_s32)
// The algebraic simplifier removes only chains that lose nothing (bf16 ->
// f32 -> bf16); this pass also removes those that round, which keeps more
// precision than the program asks for (XLA's xla_allow_excess_precision,
// on by default, under which XLA-GPU runs it).
//
// The chain follows converts whose result is a real floating-point type;
// its input may be of any type. Converts of the chain that other
// instructions read stay for them. Left alone: converts with control edges.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSIMPLIFYFPCONVERSIONS
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// A convert whose result is a real floating-point type.
static ConvertOp floatConvert(Value v) {
  auto convert = v.getDefiningOp<ConvertOp>();
  if (!convert || !isa<FloatType>(getElementTypeOrSelf(convert.getType())))
    return nullptr;
  return convert;
}

namespace {
struct SimplifyFPConversionsPass
    : ChangeReportingPass<SimplifyFPConversionsPass,
                          hlo::impl::HloSimplifyFPConversionsBase> {
  void run() {
    SmallVector<ConvertOp> converts;
    getOperation().walk([&](ConvertOp op) { converts.push_back(op); });
    // In program order, so a chain's earlier converts are already one.
    for (ConvertOp convert : converts) {
      if (!floatConvert(convert.getResult()) || hasControlEdges(convert))
        continue;
      Value input = convert.getResult();
      unsigned length = 0;
      while (ConvertOp link = floatConvert(input)) {
        input = link.getOperand();
        ++length;
      }
      if (length < 2)
        continue;
      Operation *first = convert.getOperand().getDefiningOp();
      if (input.getType() == convert.getType()) {
        convert.getResult().replaceAllUsesWith(input);
        convert->erase();
      } else {
        OpBuilder b(convert);
        Value direct = ConvertOp::create(b, derivedLoc(convert.getLoc()),
                                         convert.getType(), input);
        replaceByNamed(convert, direct);
      }
      if (first->use_empty() && !hasControlEdges(first))
        eraseWithDeadOperands(first);
      ++numSimplified;
      changed = true;
    }
  }
};
} // namespace
