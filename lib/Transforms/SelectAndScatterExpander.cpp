//===- SelectAndScatterExpander.cpp - select-and-scatter as a scatter -----===//
//
// XLA's SelectAndScatterExpander (XLA-GPU's "optimization" pipeline): a
// select-and-scatter becomes a variadic reduce-window that finds, for each
// window, the selected element and its position, and a scatter of the
// source into the init value broadcast, at those positions.
//
// The reduce-window reads the operand and one s32 iota per dimension (the
// positions), with the init value and -1 as inits (so a padded or empty
// slot has position -1). Its reducer keeps the current element (lhs) where
//   (select(lhs, rhs) and lhs is a real element) or rhs is not one,
// and takes the candidate (rhs) otherwise: the select computation's
// instructions, inlined, then a select per value. The positions, reshaped
// to [source..., 1] and concatenated, are the scatter's indices: one
// scalar update per source element, inserted at every dimension, combined
// by the scatter computation. A window of padding only gives position -1,
// which the scatter skips as out of bounds.
//
// `hlo-to-gpu` computes a select-and-scatter in one loop kernel without
// atomics, so the GPU pipelines do not run this pass (docs/passes.md).
// Left alone: dynamic shapes, control edges, fused computations.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSELECTANDSCATTEREXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The reducer of the window search over (value, position per dimension)
/// of `rank` dimensions, with `select` inlined.
static ComputationOp buildReducer(SymbolTable &symbols, ComputationOp parent,
                                  ComputationOp select, Type element,
                                  int64_t rank, Location loc) {
  MLIRContext *ctx = parent.getContext();
  auto scalar = RankedTensorType::get({}, element);
  auto index = RankedTensorType::get({}, IntegerType::get(ctx, 32));
  auto pred = RankedTensorType::get({}, IntegerType::get(ctx, 1));
  SmallVector<Type> half = {scalar};
  half.append(rank, index);
  SmallVector<Type> args(half);
  args.append(half);
  ComputationOp comp = createComputation(
      symbols, parent, (select.getSymName() + ".reduce_window").str(), args,
      loc);
  Block &body = comp.getBody().front();
  OpBuilder b = OpBuilder::atBlockEnd(&body);
  // XLA's parameter names.
  for (BlockArgument arg : body.getArguments()) {
    bool isLhs = arg.getArgNumber() <= rank;
    bool isValue = arg.getArgNumber() % (rank + 1) == 0;
    arg.setLoc(NameLoc::get(b.getStringAttr(
        Twine(isValue ? "operand" : "iota") + (isLhs ? "_lhs" : "_rhs"))));
  }
  InstBuilder ib(b, loc);
  ValueRange lhs = body.getArguments().take_front(rank + 1);
  ValueRange rhs = body.getArguments().drop_front(rank + 1);
  Value selected = inlineComputation(b, select, {lhs[0], rhs[0]});
  Value none = ib.scalar(index.getElementType(), -1);
  Value lhsReal = ib.compare(lhs[1], none, ComparisonDirection::NE);
  Value rhsReal = ib.compare(rhs[1], none, ComparisonDirection::NE);
  Value keep =
      ib.create<OrOp>(pred, {ib.create<AndOp>(pred, {selected, lhsReal}),
                             ib.create<NotOp>(pred, {rhsReal})});
  SmallVector<Value> results;
  for (int64_t i = 0; i <= rank; ++i)
    results.push_back(ib.create<SelectOp>(half[i], {keep, lhs[i], rhs[i]}));
  setComputationResult(comp, b, ib.tuple(results));
  return comp;
}

/// Replaces `op` by the reduce-window and scatter of the file comment.
static void expand(SelectAndScatterOp op, SymbolTable &symbols) {
  auto operandType = cast<RankedTensorType>(op.getOperand().getType());
  auto sourceType = cast<RankedTensorType>(op.getSource().getType());
  int64_t rank = operandType.getRank();
  MLIRContext *ctx = op.getContext();
  Type s32 = IntegerType::get(ctx, 32);
  auto parent = op->getParentOfType<ComputationOp>();
  OpBuilder b(op);
  InstBuilder ib(b, derivedLoc(op.getLoc()));

  ComputationOp reducer = buildReducer(
      symbols, parent, symbols.lookup<ComputationOp>(op.getSelect()),
      operandType.getElementType(), rank, ib.getLoc());

  SmallVector<Value> inputs = {op.getOperand()}, inits = {op.getInitValue()};
  SmallVector<Type> resultTypes = {RankedTensorType::get(
      sourceType.getShape(), operandType.getElementType())};
  auto iotaType = RankedTensorType::get(operandType.getShape(), s32);
  Value none = ib.scalar(s32, -1);
  for (int64_t d = 0; d < rank; ++d) {
    inputs.push_back(ib.create<IotaOp>(
        iotaType, {},
        {b.getNamedAttr("iota_dimension", b.getI64IntegerAttr(d))}));
    inits.push_back(none);
    resultTypes.push_back(RankedTensorType::get(sourceType.getShape(), s32));
  }
  llvm::append_range(inputs, inits);
  Value search = ib.create<ReduceWindowOp>(
      TupleType::get(ctx, resultTypes), inputs,
      {b.getNamedAttr("window", op.getWindowAttr()),
       b.getNamedAttr("to_apply", FlatSymbolRefAttr::get(reducer))});

  SmallVector<int64_t> column(sourceType.getShape());
  column.push_back(1);
  SmallVector<Value> positions;
  for (int64_t d = 0; d < rank; ++d)
    positions.push_back(ib.reshape(ib.getTupleElement(search, d + 1), column));
  SmallVector<int64_t> indicesShape(sourceType.getShape());
  indicesShape.push_back(rank);
  Value indices = ib.create<ConcatenateOp>(
      RankedTensorType::get(indicesShape, s32), positions,
      {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({rank}))});

  Value base = ib.create<BroadcastOp>(
      RankedTensorType::get(operandType.getShape(),
                            operandType.getElementType()),
      {op.getInitValue()},
      {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({}))});
  SmallVector<int64_t> all = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  Value scatter = ib.create<ScatterOp>(
      op.getType(), {base, indices, op.getSource()},
      {b.getNamedAttr("update_window_dims", b.getDenseI64ArrayAttr({})),
       b.getNamedAttr("inserted_window_dims", b.getDenseI64ArrayAttr(all)),
       b.getNamedAttr("scatter_dims_to_operand_dims",
                      b.getDenseI64ArrayAttr(all)),
       b.getNamedAttr("index_vector_dim", b.getI64IntegerAttr(rank)),
       b.getNamedAttr("to_apply", op.getScatterAttr())});
  replaceByNamed(op, scatter);
}

namespace {
struct SelectAndScatterExpanderPass
    : ChangeReportingPass<SelectAndScatterExpanderPass,
                          hlo::impl::HloSelectAndScatterExpanderBase> {
  void run() {
    SymbolTable symbols(getOperation());
    SmallVector<SelectAndScatterOp> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](SelectAndScatterOp op) {
        if (!hasControlEdges(op) && isStaticArray(op.getType()) &&
            isStaticArray(op.getSource().getType()))
          worklist.push_back(op);
      });
    for (SelectAndScatterOp op : worklist) {
      expand(op, symbols);
      ++numExpanded;
      changed = true;
    }
  }
};
} // namespace
