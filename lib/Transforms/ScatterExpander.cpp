//===- ScatterExpander.cpp - scatter as a while loop ----------------------===//
//
// XLA's ScatterExpander: a scatter becomes a while loop over its index
// vectors. Before the loop, the indices become a [count, K] matrix (one
// index vector a row) and each update array a [count, window...] array
// (its scatter dimensions flattened in front). Iteration i:
//   - reads row i of the indices and makes the window start in the operand
//     (index components at scatter_dims_to_operand_dims, the coordinate of
//     i at input batching dimensions, 0 elsewhere);
//   - dynamic-slices update window i, reshaped to the operand's rank (1 at
//     inserted window and batching dimensions), and the operand window at
//     the start;
//   - combines them elementwise with a map of the update computation (for
//     a variadic scatter, one computation per output taken from it);
//   - keeps the old window if the start is out of bounds (some start < 0
//     or start + window > dimension: HLO skips such an update);
//   - dynamic-update-slices the window back.
// Modes (XLA's ScatterExpander::Mode): every scatter, only scatters of one
// index vector (a loop of one trip, left for the while-loop simplifier),
// or only scatters that may be nondeterministic.
//
//===----------------------------------------------------------------------===//

#include "ScatterExpander.h"

#include "GatherScatterUtils.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <limits>
#include <numeric>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSCATTEREXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

int64_t mlir::hlo::scatterIndexCount(ScatterOp op) {
  size_t n = op.getInputs().size() / 2;
  return indexVectorCount(tensorType(op.getInputs()[n]).getShape(),
                          op.getIndexVectorDim());
}

bool ScatterExpansion::isExpandable(ScatterOp op) {
  if (hasControlPredecessors(op) ||
      !llvm::all_of(op.getInputs().getTypes(), isStaticArray))
    return false;
  SmallVector<Type> results{op.getType()};
  if (auto tuple = dyn_cast<TupleType>(op.getType()))
    results.assign(tuple.getTypes().begin(), tuple.getTypes().end());
  return llvm::all_of(results, isStaticArray) &&
         symbols.lookup<ComputationOp>(op.getToApplyAttr().getAttr()) &&
         scatterIndexCount(op) <= std::numeric_limits<int32_t>::max();
}

FlatSymbolRefAttr ScatterExpansion::combinerOutput(ComputationOp combiner,
                                                   unsigned k,
                                                   ComputationOp parent) {
  FlatSymbolRefAttr &sym = outputs[{combiner, k}];
  if (sym)
    return sym;
  // A copy of the combiner whose root is element k of the original root.
  auto copy = cast<ComputationOp>(combiner->clone());
  copy.setSymName((combiner.getSymName() + "_" + Twine(k)).str());
  copy.setPrivate();
  copy.setEntry(false);
  symbols.insert(copy, Block::iterator(parent));
  auto ret = cast<ReturnOp>(copy.getBody().front().getTerminator());
  Value root = ret.getRoot();
  OpBuilder b(ret);
  Value element;
  auto tuple = root.getDefiningOp<TupleOp>();
  if (tuple && !hasControlPredecessors(tuple))
    element = tuple.getInputs()[k];
  else
    element = InstBuilder(b, ret.getLoc()).getTupleElement(root, k);
  ret.erase();
  b.setInsertionPointToEnd(&copy.getBody().front());
  setComputationResult(copy, b, element);
  // The other outputs' instructions are dead now.
  SmallVector<Operation *> insts;
  for (Operation &inst : copy.getBody().front().without_terminator())
    insts.push_back(&inst);
  for (Operation *inst : llvm::reverse(insts))
    if (inst->use_empty() && isMemoryEffectFree(inst) &&
        !hasControlPredecessors(inst))
      inst->erase();
  return sym = FlatSymbolRefAttr::get(copy);
}

void ScatterExpansion::expand(ScatterOp op) {
  auto orEmpty = [](std::optional<ArrayRef<int64_t>> dims) {
    return dims.value_or(ArrayRef<int64_t>());
  };
  OperandRange inputs = op.getInputs();
  size_t n = inputs.size() / 2;
  SmallVector<Value> operands(inputs.take_front(n));
  Value indices = inputs[n];
  SmallVector<Value> updates(inputs.drop_front(n + 1));
  RankedTensorType operandType = tensorType(operands[0]);
  RankedTensorType updateType = tensorType(updates[0]);
  ArrayRef<int64_t> updateWindowDims = op.getUpdateWindowDims();
  ArrayRef<int64_t> inputBatchingDims = orEmpty(op.getInputBatchingDims());
  auto parent = op->getParentOfType<ComputationOp>();

  OpBuilder b(op);
  InstBuilder ib(b, op.getLoc());
  SmallVector<Value> results;
  if (operandType.getNumElements() == 0 || updateType.getNumElements() == 0) {
    // Nothing to update (no update, or every window out of bounds).
    results = operands;
  } else {
    Type indexElement = tensorType(indices).getElementType();
    WindowIndexing w{tensorType(indices).getShape(),
                     int64_t(op.getIndexVectorDim()),
                     op.getScatterDimsToOperandDims(),
                     inputBatchingDims,
                     orEmpty(op.getScatterIndicesBatchingDims()),
                     operandType.getRank(),
                     startIndexType(indexElement)};
    int64_t count = scatterIndexCount(op);

    // The window in the operand's rank: 1 at inserted window and batching
    // dimensions, the update window's sizes elsewhere, in order.
    SmallVector<int64_t> windowSizes, windowShape;
    for (int64_t d : updateWindowDims)
      windowSizes.push_back(updateType.getDimSize(d));
    auto sizeIt = windowSizes.begin();
    for (int64_t d = 0; d < operandType.getRank(); ++d)
      windowShape.push_back(llvm::is_contained(op.getInsertedWindowDims(), d) ||
                                    llvm::is_contained(inputBatchingDims, d)
                                ? 1
                                : *sizeIt++);

    // Updates as [count, window...]: scatter dimensions first, flattened.
    SmallVector<int64_t> perm =
        dimsExcept(updateType.getRank(), updateWindowDims);
    llvm::append_range(perm, updateWindowDims);
    SmallVector<int64_t> rows{count};
    llvm::append_range(rows, windowSizes);
    SmallVector<Value> init(operands);
    init.push_back(canonicalizeIndices(ib, w, indices));
    for (Value u : updates)
      init.push_back(ib.reshape(ib.transpose(u, perm), rows));

    // The update computation of each output.
    auto combiner =
        symbols.lookup<ComputationOp>(op.getToApplyAttr().getAttr());
    SmallVector<FlatSymbolRefAttr> combiners;
    for (unsigned k = 0; k < n; ++k)
      combiners.push_back(n == 1 ? op.getToApplyAttr()
                                 : combinerOutput(combiner, k, parent));

    auto body = [&](InstBuilder &bb, Value iv,
                    ValueRange state) -> SmallVector<Value> {
      OpBuilder &ob = bb.getBuilder();
      SmallVector<Value> start = windowStart(bb, w, state[n], iv);
      SmallVector<Value> rowStart{iv};
      Value zero = bb.scalar(tensorType(iv).getElementType(), 0);
      rowStart.append(windowSizes.size(), zero);
      SmallVector<int64_t> rowSizes{1};
      llvm::append_range(rowSizes, windowSizes);
      SmallVector<Value> mapOperands;
      for (size_t k = 0; k < n; ++k)
        mapOperands.push_back(bb.dynamicSlice(state[k], start, windowShape));
      for (size_t k = 0; k < n; ++k)
        mapOperands.push_back(
            bb.reshape(bb.dynamicSlice(state[n + 1 + k], rowStart, rowSizes),
                       windowShape));

      // In bounds: 0 <= start <= dimension - window, where an index
      // component sets the start (elsewhere it is 0 or a batching
      // coordinate, in bounds).
      Value valid;
      bool isUnsigned = w.startType.isUnsignedInteger();
      for (int64_t d : op.getScatterDimsToOperandDims()) {
        Value s = start[d];
        int64_t max = operandType.getDimSize(d) - windowShape[d];
        Value ok =
            bb.compare(s, bb.scalar(w.startType, max), ComparisonDirection::LE);
        if (!isUnsigned)
          ok = bb.create<AndOp>(ok.getType(),
                                {bb.compare(s, bb.scalar(w.startType, 0),
                                            ComparisonDirection::GE),
                                 ok});
        valid = valid ? bb.create<AndOp>(ok.getType(), {valid, ok}) : ok;
      }
      if (valid && !windowShape.empty())
        valid = bb.create<BroadcastOp>(
            RankedTensorType::get(windowShape, ob.getI1Type()), valid,
            {ob.getNamedAttr("dimensions", ob.getDenseI64ArrayAttr({}))});

      SmallVector<int64_t> allDims(windowShape.size());
      std::iota(allDims.begin(), allDims.end(), 0);
      SmallVector<Value> next;
      for (size_t k = 0; k < n; ++k) {
        Value old = mapOperands[k];
        Value combined = bb.create<MapOp>(
            old.getType(), mapOperands,
            {ob.getNamedAttr("to_apply", combiners[k]),
             ob.getNamedAttr("dimensions", ob.getDenseI64ArrayAttr(allDims))});
        if (valid)
          combined = bb.create<SelectOp>(old.getType(), {valid, combined, old});
        next.push_back(bb.dynamicUpdateSlice(state[k], combined, start));
      }
      llvm::append_range(next, state.drop_front(n));
      return next;
    };
    results = buildCountedLoop(ib, symbols, parent, "scatter", count, init,
                               body, /*numResults=*/n);
  }

  // The results with the scatter's types (a layout may differ).
  SmallVector<Type> resultTypes{op.getType()};
  if (n > 1)
    resultTypes.assign(cast<TupleType>(op.getType()).getTypes().begin(),
                       cast<TupleType>(op.getType()).getTypes().end());
  for (auto [r, t] : llvm::zip(results, resultTypes))
    if (r.getType() != t)
      r = ib.create<CopyOp>(t, r);
  Value replacement =
      n == 1 ? results[0] : ib.create<TupleOp>(op.getType(), results);
  // A new instruction (not an operand forwarded) takes the scatter's
  // name, sharding and frontend attributes.
  if (!llvm::is_contained(operands, replacement))
    transferInstructionAttrs(op, replacement.getDefiningOp());
  op.getResult().replaceAllUsesWith(replacement);
  op.erase();
}

namespace {
/// True if `combiner` is one XLA takes for associative: a single
/// instruction on the two parameters, minimum or maximum, or add,
/// multiply, or, xor of integers.
bool isAssociativeCombiner(ComputationOp combiner) {
  Block &body = combiner.getBody().front();
  if (combiner.getNumArguments() + body.getOperations().size() - 1 != 3)
    return false;
  Operation &root = body.front();
  if (isa<MinOp, MaxOp>(root))
    return true;
  auto type = dyn_cast<RankedTensorType>(root.getResult(0).getType());
  return isa<AddOp, MulOp, OrOp, XorOp>(root) && type &&
         type.getElementType().isInteger() &&
         !type.getElementType().isInteger(1);
}

struct ScatterExpanderPass
    : ChangeReportingPass<ScatterExpanderPass,
                          hlo::impl::HloScatterExpanderBase> {
  using ChangeReportingPass::ChangeReportingPass;

  /// True if the mode picks `op` (isExpandable).
  bool matches(ScatterOp op, SymbolTable &symbols) {
    if (mode == ScatterExpanderMode::EliminateAll)
      return true;
    if (mode == ScatterExpanderMode::EliminateSimple)
      return scatterIndexCount(op) == 1;
    // Deterministic if the indices are unique, the combiner is associative
    // or there is one index vector (nothing to collide with).
    auto combiner = symbols.lookup<ComputationOp>(op.getToApply());
    return !op.getUniqueIndices().value_or(false) &&
           !isAssociativeCombiner(combiner) && scatterIndexCount(op) != 1;
  }

  void run() {
    ModuleOp module = getOperation();
    ScatterExpansion expansion(module);
    SmallVector<ScatterOp> scatters;
    module.walk([&](ScatterOp op) {
      if (expansion.isExpandable(op) && matches(op, expansion.getSymbols()))
        scatters.push_back(op);
    });
    for (ScatterOp op : scatters) {
      expansion.expand(op);
      ++numExpanded;
      changed = true;
    }
  }
};
} // namespace
