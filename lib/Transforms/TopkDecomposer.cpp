//===- TopkDecomposer.cpp - topk as a sort and slices ---------------------===//
//
// XLA's TopkDecomposer: `topk(x), k` becomes a stable sort of (x, iota along
// the last dimension) by x, largest first (`largest=false`: smallest first),
// floats in their total order, and the first k elements of both results
// sliced out along the last dimension: the values and their s32 indices,
// ties in index order (what the interpreter's topk gives). The stable sort
// expander then breaks ties by the iota operand. A `TopK` custom call
// (hlo-topk-rewriter's, where hlo-topk-specializer left it) becomes the same
// stable sort by its own comparator, of the values alone where only they are
// read and the comparator takes no indices (XLA's DecomposeTopKFallback).
// TopKs with control predecessors are left alone.
//
//===----------------------------------------------------------------------===//

#include "CudnnUtils.h"
#include "ExpanderUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTopKCalls.h"
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
    SmallVector<Operation *> topks;
    module.walk([&](Operation *op) {
      auto call = dyn_cast<CustomCallOp>(op);
      if ((isa<TopKOp>(op) || (call && call.getCustomCallTarget() == "TopK")) &&
          !hasControlPredecessors(op))
        topks.push_back(op);
    });
    widened.clear();
    for (Operation *op : topks)
      if (auto topk = dyn_cast<TopKOp>(op))
        decompose(topk, symbols);
      else
        decompose(cast<CustomCallOp>(op), symbols);
  }

  /// Each comparator of the values alone with its index parameters added,
  /// made once.
  llvm::DenseMap<ComputationOp, ComputationOp> widened;

  /// The comparator of a topk: a before b when larger (or smaller), floats
  /// in their total order.
  ComputationOp createComparator(TopKOp op, RankedTensorType type,
                                 SymbolTable &symbols) {
    bool largest = op.getLargest().value_or(true);
    auto parent = op->getParentOfType<ComputationOp>();
    auto scalar = RankedTensorType::get({}, type.getElementType());
    auto index = RankedTensorType::get({}, IntegerType::get(&getContext(), 32));
    ComputationOp comparator = createComputation(
        symbols, parent, largest ? "compare-greater-than" : "compare-less-than",
        {scalar, scalar, index, index}, op.getLoc());
    Block &body = comparator.getBody().front();
    OpBuilder cb = OpBuilder::atBlockEnd(&body);
    ExpansionBuilder eb(cb, op.getLoc());
    std::optional<ComparisonType> compareType;
    if (isa<FloatType>(type.getElementType()))
      compareType = ComparisonType::TOTALORDER;
    Value root =
        eb.compare(largest ? ComparisonDirection::GT : ComparisonDirection::LT,
                   body.getArgument(0), body.getArgument(1), compareType);
    setComputationResult(comparator, cb, root);
    return comparator;
  }

  void decompose(TopKOp op, SymbolTable &symbols) {
    auto type = dyn_cast<RankedTensorType>(getDataOperands(op)[0].getType());
    if (!type || !type.getElementType().isIntOrFloat() ||
        type.getElementType().isInteger(1))
      return;
    if (!canDecompose(op, type, op.getK()))
      return;
    replaceBySort(op, createComparator(op, type, symbols),
                  /*valuesOnly=*/false);
  }

  void decompose(CustomCallOp call, SymbolTable &symbols) {
    std::string why;
    FailureOr<TopKCall> topk = readTopKCall(call, why);
    if (failed(topk))
      return;
    auto comparator = symbols.lookup<ComputationOp>(topk->comparator.getAttr());
    if (!comparator || !canDecompose(call, topk->input, topk->k))
      return;
    unsigned numParams = comparator.getNumArguments();
    if (numParams != 2 && numParams != 4)
      return;
    bool valuesOnly = llvm::all_of(call->getUsers(), [](Operation *user) {
      auto gte = dyn_cast<GetTupleElementOp>(user);
      return gte && gte.getIndex() == 0;
    });
    if (numParams == 2 && !valuesOnly) {
      ComputationOp &wide = widened[comparator];
      if (!wide)
        wide = withIgnoredIndexParameters(comparator, symbols, call.getLoc());
      comparator = wide;
    }
    replaceBySort(call, comparator, valuesOnly && numParams == 2);
  }

  bool canDecompose(Operation *op, RankedTensorType type, int64_t k) {
    auto tuple = dyn_cast<TupleType>(op->getResult(0).getType());
    return type.hasStaticShape() && type.getRank() > 0 && tuple &&
           tuple.size() == 2 && k <= type.getShape().back();
  }

  /// Replaces `op` (of operand x and result (values, indices)) by a stable
  /// sort of x (and an iota unless `valuesOnly`) by `comparator` along the
  /// last dimension, and slices of its first k elements.
  void replaceBySort(Operation *op, ComputationOp comparator, bool valuesOnly) {
    Value x = getDataOperands(op)[0];
    auto type = cast<RankedTensorType>(x.getType());
    auto tuple = cast<TupleType>(op->getResult(0).getType());
    MLIRContext *ctx = &getContext();
    OpBuilder b(op);
    Location loc = op->getLoc();
    int64_t last = type.getRank() - 1;
    SmallVector<Value> operands = {x};
    if (!valuesOnly)
      operands.push_back(
          createInstruction(
              b, loc, IotaOp::getOperationName(),
              RankedTensorType::get(type.getShape(), IntegerType::get(ctx, 32),
                                    type.getEncoding()),
              {}, {b.getNamedAttr("iota_dimension", b.getI64IntegerAttr(last))})
              ->getResult(0));
    auto sort = createInferred<SortOp>(
        b, loc, operands,
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({last})),
         b.getNamedAttr("to_apply",
                        FlatSymbolRefAttr::get(comparator.getSymNameAttr())),
         b.getNamedAttr("is_stable", b.getBoolAttr(true))});
    if (!sort) {
      for (Value v : ArrayRef<Value>(operands).drop_front())
        v.getDefiningOp()->erase();
      return;
    }
    SmallVector<int64_t> starts(type.getRank(), 0), strides(type.getRank(), 1);
    SmallVector<int64_t> limits(type.getShape());
    limits[last] = cast<RankedTensorType>(tuple.getType(0)).getShape().back();
    auto sliceOf = [&](Value v, Type t) {
      return createInstruction(
                 b, loc, SliceOp::getOperationName(), t, {v},
                 {b.getNamedAttr("slice",
                                 SliceAttr::get(ctx, starts, limits, strides))})
          ->getResult(0);
    };
    transferInstructionAttrs(op, sort);
    if (valuesOnly) {
      Value values = sliceOf(sort.getResult(), tuple.getType(0));
      for (Operation *user : llvm::make_early_inc_range(op->getUsers())) {
        user->getResult(0).replaceAllUsesWith(values);
        user->erase();
      }
    } else {
      SmallVector<Value> results;
      for (int64_t i = 0; i < 2; ++i)
        results.push_back(
            sliceOf(createGte(b, loc, sort.getResult(), i), tuple.getType(i)));
      op->getResult(0).replaceAllUsesWith(
          createInstruction(b, loc, TupleOp::getOperationName(), {}, results)
              ->getResult(0));
    }
    op->erase();
    ++numDecomposed;
    changed = true;
  }
};
} // namespace
