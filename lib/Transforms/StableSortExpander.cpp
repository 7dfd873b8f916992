//===- StableSortExpander.cpp - stable sorts as unstable ones -------------===//
//
// XLA's StableSortExpander: a sort with is_stable=true becomes an unstable
// sort that breaks ties by the elements' original positions. An operand that
// is already an integer iota along the sort dimension gives the positions;
// otherwise an s32 iota of the keys' shape and layout becomes the last
// operand. The comparator is replaced by one that computes the original
// comparator both ways, `less = cmp(l, r)` and `greater = cmp(r, l)`, and
// where the two agree (neither is ordered before the other) compares the
// positions instead: `select(less == greater, pos_l < pos_r, less)`. The
// sort's users see its original results (a get-tuple-element of the new
// tuple for a one-operand sort). Sorts in fused computations and sorts with
// control predecessors are left alone.
//
//===----------------------------------------------------------------------===//

#include "ExpanderUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSTABLESORTEXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The index of an operand of `sort` that is an integer iota along the sort
/// dimension wide enough for its positions, or -1.
static int64_t findIotaOperand(SortOp sort) {
  int64_t dim = sort.getDimensions()[0];
  for (auto [i, v] : llvm::enumerate(sort.getInputs())) {
    auto iota = v.getDefiningOp<IotaOp>();
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!iota || !type || int64_t(iota.getIotaDimension()) != dim)
      continue;
    auto element = dyn_cast<IntegerType>(type.getElementType());
    if (!element || element.getWidth() < 32 || element.isUnsigned())
      continue;
    if (type.getDimSize(dim) <= (int64_t(1) << 31) - 1)
      return i;
  }
  return -1;
}

namespace {
struct StableSortExpanderPass
    : ChangeReportingPass<StableSortExpanderPass,
                          hlo::impl::HloStableSortExpanderBase> {
  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<SortOp> sorts;
    for (ComputationOp comp : nonFusionComputations(module))
      comp.walk([&](SortOp sort) {
        if (sort.getIsStable().value_or(false) &&
            !hasControlPredecessors(sort) && sort.getDimensions().size() == 1)
          sorts.push_back(sort);
      });
    for (SortOp sort : sorts)
      expand(sort, symbols);
  }

  void expand(SortOp sort, SymbolTable &symbols) {
    auto comparator = symbols.lookup<ComputationOp>(sort.getToApply());
    auto keys = dyn_cast<RankedTensorType>(sort.getInputs()[0].getType());
    size_t n = sort.getInputs().size();
    if (!comparator || comparator.getBody().empty() || !keys ||
        !keys.hasStaticShape() ||
        comparator.getBody().getNumArguments() != 2 * n)
      return;
    int64_t dim = sort.getDimensions()[0];
    if (keys.getDimSize(dim) > (int64_t(1) << 31) - 1)
      return;
    MLIRContext *ctx = &getContext();
    OpBuilder b(sort);
    Location loc = sort.getLoc();
    SmallVector<Value> operands(sort.getInputs());
    int64_t iotaIndex = findIotaOperand(sort);
    if (iotaIndex < 0) {
      // Positions: an s32 iota of the keys' shape and layout.
      auto type = RankedTensorType::get(
          keys.getShape(), IntegerType::get(ctx, 32), keys.getEncoding());
      Operation *iota = createInstruction(
          b, loc, IotaOp::getOperationName(), type, {},
          {b.getNamedAttr("iota_dimension", b.getI64IntegerAttr(dim))});
      iotaIndex = operands.size();
      operands.push_back(iota->getResult(0));
    }

    // The comparator with ties broken by position.
    Block &old = comparator.getBody().front();
    SmallVector<Type> argTypes(old.getArgumentTypes());
    if (size_t(iotaIndex) == n) {
      auto scalar = RankedTensorType::get({}, IntegerType::get(ctx, 32));
      argTypes.append({scalar, scalar});
    }
    auto parent = sort->getParentOfType<ComputationOp>();
    ComputationOp stable = createComputation(
        symbols, parent, (comparator.getSymName() + ".stable").str(), argTypes,
        comparator.getLoc());
    Block &body = stable.getBody().front();
    OpBuilder cb = OpBuilder::atBlockEnd(&body);
    auto inline_ = [&](bool swapped) -> Value {
      IRMapping map;
      for (unsigned i = 0; i < old.getNumArguments(); ++i)
        map.map(old.getArgument(i), body.getArgument(swapped ? i ^ 1 : i));
      for (Operation &op : old.without_terminator())
        cb.clone(op, map);
      return map.lookup(getDataOperands(old.getTerminator())[0]);
    };
    Value less = inline_(false);
    Value greater = inline_(true);
    ExpansionBuilder eb(cb, comparator.getLoc());
    Value tie = eb.compare(ComparisonDirection::EQ, less, greater);
    Value before =
        eb.compare(ComparisonDirection::LT, body.getArgument(2 * iotaIndex),
                   body.getArgument(2 * iotaIndex + 1));
    setComputationResult(stable, cb, eb.select(tie, before, less));

    auto newSort = createInferred<SortOp>(
        b, loc, operands,
        {b.getNamedAttr("dimensions", sort.getDimensionsAttr()),
         b.getNamedAttr("to_apply",
                        FlatSymbolRefAttr::get(stable.getSymNameAttr())),
         b.getNamedAttr("is_stable", b.getBoolAttr(false))});
    if (!newSort) {
      stable.erase();
      return;
    }
    transferInstructionAttrs(sort, newSort);
    Value replacement = newSort.getResult();
    if (operands.size() != n) {
      if (!isa<TupleType>(sort.getType())) {
        replacement =
            createInstruction(b, loc, GetTupleElementOp::getOperationName(), {},
                              {replacement},
                              {b.getNamedAttr("index", b.getI64IntegerAttr(0))})
                ->getResult(0);
      } else {
        // get-tuple-elements keep reading the same elements; other users
        // get a tuple of the original results.
        SmallVector<Value> elements;
        for (OpOperand &use : llvm::make_early_inc_range(sort->getUses()))
          if (isa<GetTupleElementOp>(use.getOwner()))
            use.set(newSort.getResult());
        if (!sort->use_empty()) {
          for (size_t i = 0; i < n; ++i)
            elements.push_back(
                createInstruction(
                    b, loc, GetTupleElementOp::getOperationName(), {},
                    {newSort.getResult()},
                    {b.getNamedAttr("index", b.getI64IntegerAttr(i))})
                    ->getResult(0));
          replacement = createInstruction(b, loc, TupleOp::getOperationName(),
                                          {}, elements)
                            ->getResult(0);
        }
      }
    }
    sort.getResult().replaceAllUsesWith(replacement);
    sort.erase();
    ++numExpanded;
    changed = true;
  }
};
} // namespace
