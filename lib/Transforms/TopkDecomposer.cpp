//===- TopkDecomposer.cpp - topk as a sort and slices ---------------------===//
//
// XLA's TopkDecomposer: `topk(x), k` becomes a stable sort of (x, iota along
// the last dimension) by x, largest first (`largest=false`: smallest first),
// floats in their total order, and the first k elements of both results
// sliced out along the last dimension: the values and their s32 indices,
// ties in index order (what the interpreter's topk gives). The stable sort
// expander then breaks ties by the iota operand. TopKs with control
// predecessors are left alone.
//
//===----------------------------------------------------------------------===//

#include "ExpanderUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOTOPKDECOMPOSER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct TopkDecomposerPass
    : ChangeReportingPass<TopkDecomposerPass,
                          hlo::impl::HloTopkDecomposerBase> {
  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<TopKOp> topks;
    module.walk([&](TopKOp op) {
      if (!hasControlPredecessors(op))
        topks.push_back(op);
    });
    for (TopKOp op : topks)
      decompose(op, symbols);
  }

  void decompose(TopKOp op, SymbolTable &symbols) {
    Value x = getDataOperands(op)[0];
    auto type = dyn_cast<RankedTensorType>(x.getType());
    auto tuple = dyn_cast<TupleType>(op.getType());
    if (!type || !type.hasStaticShape() || type.getRank() == 0 || !tuple ||
        tuple.size() != 2)
      return;
    Type element = type.getElementType();
    if (!element.isIntOrFloat() || element.isInteger(1))
      return;
    int64_t last = type.getRank() - 1;
    int64_t k = op.getK();
    if (k > type.getDimSize(last))
      return;
    MLIRContext *ctx = &getContext();
    OpBuilder b(op);
    Location loc = op.getLoc();
    Type s32 = IntegerType::get(ctx, 32);

    // The comparator: a before b when larger (or smaller), floats in their
    // total order.
    auto parent = op->getParentOfType<ComputationOp>();
    auto scalar = RankedTensorType::get({}, element);
    auto index = RankedTensorType::get({}, s32);
    ComputationOp comparator = createComputation(
        symbols, parent,
        op.getLargest().value_or(true) ? "compare-greater-than"
                                       : "compare-less-than",
        {scalar, scalar, index, index}, loc);
    Block &body = comparator.getBody().front();
    OpBuilder cb = OpBuilder::atBlockEnd(&body);
    ExpansionBuilder eb(cb, loc);
    std::optional<ComparisonType> compareType;
    if (isa<FloatType>(element))
      compareType = ComparisonType::TOTALORDER;
    Value root =
        eb.compare(op.getLargest().value_or(true) ? ComparisonDirection::GT
                                                  : ComparisonDirection::LT,
                   body.getArgument(0), body.getArgument(1), compareType);
    setComputationResult(comparator, cb, root);

    Operation *iota = createInstruction(
        b, loc, IotaOp::getOperationName(),
        RankedTensorType::get(type.getShape(), s32, type.getEncoding()), {},
        {b.getNamedAttr("iota_dimension", b.getI64IntegerAttr(last))});
    auto sort = createInferred<SortOp>(
        b, loc, {x, iota->getResult(0)},
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({last})),
         b.getNamedAttr("to_apply",
                        FlatSymbolRefAttr::get(comparator.getSymNameAttr())),
         b.getNamedAttr("is_stable", b.getBoolAttr(true))});
    if (!sort) {
      comparator.erase();
      iota->erase();
      return;
    }
    SmallVector<int64_t> starts(type.getRank(), 0), strides(type.getRank(), 1);
    SmallVector<int64_t> limits(type.getShape());
    limits[last] = k;
    SmallVector<Value> results;
    for (int64_t i = 0; i < 2; ++i) {
      Value element =
          createInstruction(b, loc, GetTupleElementOp::getOperationName(), {},
                            {sort.getResult()},
                            {b.getNamedAttr("index", b.getI64IntegerAttr(i))})
              ->getResult(0);
      results.push_back(
          createInstruction(
              b, loc, SliceOp::getOperationName(), tuple.getType(i), {element},
              {b.getNamedAttr("slice",
                              SliceAttr::get(ctx, starts, limits, strides))})
              ->getResult(0));
    }
    Value replacement =
        createInstruction(b, loc, TupleOp::getOperationName(), {}, results)
            ->getResult(0);
    transferInstructionAttrs(op, sort);
    op.getResult().replaceAllUsesWith(replacement);
    op.erase();
    ++numDecomposed;
    changed = true;
  }
};
} // namespace
