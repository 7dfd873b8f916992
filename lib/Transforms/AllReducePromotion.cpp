//===- AllReducePromotion.cpp - 16-bit integer reductions in 32 bits ------===//
//
// XLA's AllReducePromotion as XLA-GPU builds it (`{u16 -> u32, s16 -> s32}`,
// near the end of its "collective-optimizations"): NCCL reduces no 16-bit
// integers, so an all-reduce or reduce-scatter of u16 or s16 runs in 32
// bits between converts:
//
//   %r = u16[2] all-reduce(%a), to_apply=%sum
// ->
//   %r = u32[2] all-reduce(u32[2] convert(%a)), to_apply=%sum_promoted
//   users read u16[2] convert(%r)
//
// Exact: add, multiply, and the bitwise reductions agree with the 16-bit
// ones modulo 2^16, which the convert back keeps; minimum and maximum
// compare the same values. `<reducer>_promoted` (one per reducer, made
// unique) applies the reducer's op to two 32-bit parameters. Taken only
// where the reducer is one such op of its two parameters (XLA assumes it);
// the all-reduce keeps its name and every attribute. Left alone:
// collectives of several operands or of other types, async forms, control
// edges, fused computations.
//
//===----------------------------------------------------------------------===//

#include "CollectiveCombinerUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOALLREDUCEPROMOTION
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The 32-bit type a 16-bit integer type is promoted to, else null.
static Type promotedType(Type element) {
  auto integer = dyn_cast<IntegerType>(element);
  if (!integer || integer.getWidth() != 16)
    return nullptr;
  return IntegerType::get(element.getContext(), 32, integer.getSignedness());
}

namespace {
struct AllReducePromotionPass
    : ChangeReportingPass<AllReducePromotionPass,
                          hlo::impl::HloAllReducePromotionBase> {
  void run() {
    promoted.clear();
    SymbolTable symbols(getOperation());
    SmallVector<Operation *> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](Operation *op) {
        if (isa<AllReduceOp, ReduceScatterOp>(op))
          worklist.push_back(op);
      });
    for (Operation *op : worklist)
      if (promote(op, symbols)) {
        ++numPromoted;
        changed = true;
      }
  }

  bool promote(Operation *op, SymbolTable &symbols) {
    OperandRange inputs = getDataOperands(op);
    if (inputs.size() != 1 || op->getNumResults() != 1 ||
        !isa<RankedTensorType>(op->getResult(0).getType()) ||
        hasControlEdges(op))
      return false;
    Type narrow = getElementTypeOrSelf(inputs[0].getType());
    Type wide = promotedType(narrow);
    auto reducer = op->getAttrOfType<FlatSymbolRefAttr>("to_apply");
    if (!wide || !reducer || !reductionKind(symbols, reducer))
      return false;
    OpBuilder b(op);
    Location loc = derivedLoc(op->getLoc());
    Value widened = ConvertOp::create(
        b, loc, withElementType(inputs[0].getType(), wide), inputs[0]);
    Operation *copy = b.clone(*op);
    copy->setOperand(0, widened);
    copy->getResult(0).setType(
        withElementType(op->getResult(0).getType(), wide));
    copy->setAttr("to_apply", promotedReducer(reducer, wide, symbols, op));
    Value back = ConvertOp::create(b, loc, op->getResult(0).getType(),
                                   copy->getResult(0));
    op->getResult(0).replaceAllUsesWith(back);
    op->erase();
    return true;
  }

  /// `<reducer>_promoted`: the reducer's op on two scalars of `wide`
  /// (made once per reducer and type).
  FlatSymbolRefAttr promotedReducer(FlatSymbolRefAttr reducer, Type wide,
                                    SymbolTable &symbols, Operation *user) {
    FlatSymbolRefAttr &made = promoted[{reducer, wide}];
    if (!made)
      made = retypedReducer(symbols, reducer, wide, "_promoted", user);
    return made;
  }

  DenseMap<std::pair<Attribute, Type>, FlatSymbolRefAttr> promoted;
};
} // namespace
