//===- ConditionalSimplifier.cpp - remove or narrow conditionals ----------===//
//
// XLA's ConditionalSimplifier. For each conditional, in XLA's order:
//  - result elements that every branch computes with the same instruction
//    are one: the get-tuple-elements of a later one read the first;
//  - a conditional whose tuple result is read only by get-tuple-elements
//    returns only the elements read: each branch gets a copy whose root is
//    a tuple of those elements, and the get-tuple-elements are renumbered;
//  - a conditional that nothing uses gets branch copies returning an
//    empty tuple;
//  - a conditional with one branch, or whose branch index is a constant,
//    is replaced by the instructions of the branch that runs (XLA makes it
//    a call and inlines the call): pred true is branch 0, false branch 1,
//    an s32 index out of range the last branch;
//  - a pred conditional whose two branches are cheap (only elementwise
//    instructions, constants and a few data movements) runs both branches
//    and selects between their results.
// Then a branch computation whose tuple parameter has elements that no
// get-tuple-element reads gets a copy taking only the read ones, and the
// conditionals that call it pass a tuple of those elements.
// Conditionals with side effects are not removed (XLA's
// IsSafelyRemovable/HasSideEffect); conditionals with sharding, with
// control predecessors or used as one are left alone, as are conditionals
// whose branches hold channel instructions (XLA: cloning them would
// duplicate channels).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloEffects.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <map>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCONDITIONALSIMPLIFIER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The branch a constant branch index selects, or -1.
static int64_t constantBranch(ConditionalOp cond, size_t numBranches) {
  auto constant = cond.getBranchIndex().getDefiningOp<ConstantOp>();
  auto literal =
      constant ? dyn_cast<DenseIntElementsAttr>(constant.getValue()) : nullptr;
  if (!literal || literal.getNumElements() != 1)
    return -1;
  APInt value = *literal.value_begin<APInt>();
  if (literal.getElementType().isInteger(1))
    return value.isZero() ? 1 : 0;
  int64_t index = value.getSExtValue();
  return index < 0 || index >= int64_t(numBranches) ? numBranches - 1 : index;
}

/// Copies the instructions of `branch` on `operand` at `builder`'s
/// insertion point; returns the copy of its root.
static Value cloneBranch(OpBuilder &builder, ComputationOp branch,
                         Value operand) {
  Block &body = branch.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArgument(0), operand);
  for (Operation &op : body.without_terminator())
    builder.clone(op, mapping);
  return mapping.lookupOrDefault(branch.getRootValue());
}

/// get-tuple-element `index` of `tuple`.
static Value element(OpBuilder &builder, Location loc, Value tuple,
                     int64_t index) {
  return createInferred<GetTupleElementOp>(
      builder, loc, {tuple},
      {builder.getNamedAttr("index", builder.getI64IntegerAttr(index))});
}

/// True if an instruction of `comp`, or of a computation it calls, has a
/// channel id (send, recv, collectives across partitions).
static bool callsChannelInstructions(ComputationOp comp, SymbolTable &symbols) {
  SmallVector<ComputationOp> work = {comp};
  llvm::DenseSet<Operation *> seen = {comp};
  while (!work.empty()) {
    ComputationOp c = work.pop_back_val();
    bool found = false;
    c.walk([&](Operation *op) { found |= op->hasAttr("channel_id"); });
    if (found)
      return true;
    forEachCallee(c, symbols, [&](ComputationOp callee) {
      if (seen.insert(callee).second)
        work.push_back(callee);
    });
  }
  return false;
}

/// Makes `branches` the branch computations of `cond`.
static void setBranches(ConditionalOp cond, ArrayRef<ComputationOp> branches) {
  SmallVector<Attribute> refs;
  for (ComputationOp branch : branches)
    refs.push_back(FlatSymbolRefAttr::get(branch.getSymNameAttr()));
  if (cond.getBranchComputationsAttr()) {
    cond.setBranchComputationsAttr(ArrayAttr::get(cond.getContext(), refs));
  } else {
    cond.setTrueComputationAttr(cast<FlatSymbolRefAttr>(refs[0]));
    cond.setFalseComputationAttr(cast<FlatSymbolRefAttr>(refs[1]));
  }
}

/// The branch computations of `cond`, in order (some may be missing).
static SmallVector<ComputationOp> lookupBranches(ConditionalOp cond,
                                                 SymbolTable &symbols) {
  SmallVector<ComputationOp> branches;
  for (FlatSymbolRefAttr ref : cond.getBranches())
    if (auto branch = symbols.lookup<ComputationOp>(ref.getAttr()))
      branches.push_back(branch);
  return branches;
}

/// A private copy of `branch`, inserted before the computation of `cond`,
/// whose root is `makeRoot(builder, oldRoot)` (of type `type`).
static ComputationOp
copyWithRoot(ComputationOp branch, ConditionalOp cond, Type type,
             SymbolTable &symbols,
             function_ref<Value(OpBuilder &, Value)> makeRoot) {
  auto copy = cast<ComputationOp>(branch->clone());
  copy.setPrivate();
  copy.setEntry(false);
  Operation *ret = copy.getBody().front().getTerminator();
  OpBuilder builder(ret);
  ret->setOperand(0, makeRoot(builder, ret->getOperand(0)));
  copy.setFunctionTypeAttr(TypeAttr::get(
      FunctionType::get(cond.getContext(), copy.getArgumentTypes(), {type})));
  symbols.insert(copy, Block::iterator(cond->getParentOp()));
  return copy;
}

/// XLA's MergeDuplicateTupleElements: when every branch returns the same
/// instruction at elements i < j of its root tuple, the get-tuple-elements
/// of element j read element i (the narrowing then drops j). True if a
/// get-tuple-element changed.
static bool mergeDuplicateElements(ConditionalOp cond,
                                   ArrayRef<ComputationOp> branches) {
  auto type = dyn_cast<TupleType>(cond.getType());
  if (!type || cond->use_empty() || !onlyElementsRead(cond.getResult()))
    return false;
  SmallVector<TupleOp> roots;
  for (ComputationOp branch : branches) {
    auto root = branch.getRootValue().getDefiningOp<TupleOp>();
    if (!root)
      return false;
    roots.push_back(root);
  }
  // The first element with the same value in every branch as element i.
  std::map<std::vector<const void *>, int64_t> firstWith;
  SmallVector<int64_t> target(type.size());
  bool found = false;
  for (int64_t i = 0, e = type.size(); i < e; ++i) {
    std::vector<const void *> key;
    for (TupleOp root : roots)
      key.push_back(root.getInputs()[i].getAsOpaquePointer());
    auto [it, inserted] = firstWith.try_emplace(std::move(key), i);
    target[i] = it->second;
    found |= !inserted;
  }
  if (!found)
    return false;
  bool changed = false;
  for (Operation *user : cond->getUsers()) {
    auto gte = cast<GetTupleElementOp>(user);
    if (target[gte.getIndex()] != int64_t(gte.getIndex())) {
      gte.setIndex(target[gte.getIndex()]);
      changed = true;
    }
  }
  return changed;
}

/// XLA's ReplaceRootWithEmptyTupleIfNoUsers: a conditional that nothing
/// uses gets branch copies whose root is an empty tuple. True if it did.
static bool emptyUnusedResult(ConditionalOp cond,
                              MutableArrayRef<ComputationOp> branches,
                              SymbolTable &symbols) {
  auto tuple = dyn_cast<TupleType>(cond.getType());
  if (!cond->use_empty() || (tuple && tuple.size() == 0))
    return false;
  auto empty = TupleType::get(cond.getContext(), {});
  for (ComputationOp &branch : branches)
    branch = copyWithRoot(branch, cond, empty, symbols,
                          [&](OpBuilder &builder, Value root) -> Value {
                            return createInferred<TupleOp>(builder,
                                                           root.getLoc(), {});
                          });
  setBranches(cond, branches);
  cond.getResult().setType(empty);
  return true;
}

/// What XLA runs unconditionally in place of a branch: elementwise
/// instructions (constants included) and a few that move data.
static bool isCheap(Operation &op) {
  return isElementwise(&op) ||
         isa<ConstantOp, BroadcastOp, ConcatenateOp, DynamicSliceOp,
             GetTupleElementOp, ReduceOp, ReshapeOp, PadOp, SliceOp, TupleOp>(
             op);
}

/// True if `type` is or holds an array.
static bool holdsArray(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::any_of(tuple.getTypes(), holdsArray);
  return isa<RankedTensorType>(type);
}

/// True if every leaf of `type` is a static array or a token (the values
/// the select rule selects between).
static bool selectableType(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::all_of(tuple.getTypes(), selectableType);
  return isa<TokenType>(type) || isStaticArray(type);
}

/// XLA's ComputationIsEmptyWithArrayRoot: a branch that only takes apart
/// and builds tuples, and returns arrays (running it costs less than a
/// select).
static bool isEmptyWithArrayRoot(ComputationOp branch) {
  return llvm::all_of(branch.getBody().front().without_terminator(),
                      [](Operation &op) {
                        return isa<TupleOp, GetTupleElementOp>(op);
                      }) &&
         holdsArray(branch.getRootValue().getType());
}

/// `pred ? onTrue : onFalse` for two values of one type: arrays by select
/// (pred broadcast to their shape, once per shape), tokens by after-all,
/// tuples element by element.
static Value selectValues(OpBuilder &builder, Location loc, Value pred,
                          Value onTrue, Value onFalse,
                          DenseMap<Type, Value> &masks) {
  Type type = onTrue.getType();
  if (isa<TokenType>(type))
    return createInferred<AfterAllOp>(builder, loc, {onTrue, onFalse});
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Value> elements;
    for (int64_t i = 0, e = tuple.size(); i < e; ++i) {
      Value t = element(builder, loc, onTrue, i);
      Value f = element(builder, loc, onFalse, i);
      elements.push_back(selectValues(builder, loc, pred, t, f, masks));
    }
    return createInferred<TupleOp>(builder, loc, elements);
  }
  auto maskType = withElementType(type, builder.getI1Type());
  Value &mask = masks[maskType];
  if (!mask)
    mask = maskType.getRank() == 0
               ? pred
               : createInstruction(
                     builder, loc, BroadcastOp::getOperationName(), maskType,
                     {pred},
                     {builder.getNamedAttr("dimensions",
                                           builder.getDenseI64ArrayAttr({}))})
                     ->getResult(0);
  return createInferred<SelectOp>(builder, loc, {mask, onTrue, onFalse});
}

/// XLA's conditional-to-select rewrite: a conditional with a pred index
/// whose two branches are cheap and neither empty runs both branches and
/// selects their results. True if `cond` is gone.
static bool selectBranches(ConditionalOp cond,
                           ArrayRef<ComputationOp> branches) {
  auto index = cast<RankedTensorType>(cond.getBranchIndex().getType());
  if (branches.size() != 2 || !index.getElementType().isInteger(1) ||
      !selectableType(cond.getType()))
    return false;
  for (ComputationOp branch : branches)
    if (!llvm::all_of(branch.getBody().front().without_terminator(), isCheap) ||
        isEmptyWithArrayRoot(branch))
      return false;
  OpBuilder builder(cond);
  Value onTrue = cloneBranch(builder, branches[0], cond.getBranchOperands()[0]);
  Value onFalse =
      cloneBranch(builder, branches[1], cond.getBranchOperands()[1]);
  DenseMap<Type, Value> masks;
  Value result = selectValues(builder, derivedLoc(cond.getLoc()),
                              cond.getBranchIndex(), onTrue, onFalse, masks);
  cond.getResult().replaceAllUsesWith(result);
  cond.erase();
  return true;
}

/// The elements of the tuple `v` that its users read, when they are all
/// get-tuple-elements and some element is never read: `used`, `position`
/// (each read element's index in the narrowed tuple, -1 for the others)
/// and the narrowed tuple type.
namespace {
struct ReadElements {
  llvm::BitVector used;
  SmallVector<int64_t> position;
  TupleType type;
};
} // namespace

static std::optional<ReadElements> readElements(Value v) {
  auto type = dyn_cast<TupleType>(v.getType());
  if (!type || !onlyElementsRead(v))
    return std::nullopt;
  ReadElements read{llvm::BitVector(type.size()),
                    SmallVector<int64_t>(type.size(), -1), nullptr};
  for (Operation *user : v.getUsers())
    read.used.set(cast<GetTupleElementOp>(user).getIndex());
  if (read.used.all())
    return std::nullopt;
  SmallVector<Type> kept;
  for (unsigned i : read.used.set_bits()) {
    read.position[i] = kept.size();
    kept.push_back(type.getType(i));
  }
  read.type = TupleType::get(v.getContext(), kept);
  return read;
}

/// Renumbers the get-tuple-elements reading `v` after readElements.
static void renumberReads(Value v, ArrayRef<int64_t> position) {
  for (Operation *user : v.getUsers()) {
    auto gte = cast<GetTupleElementOp>(user);
    gte.setIndex(position[gte.getIndex()]);
  }
}

/// XLA's TryRemoveUnusedConditionalOperands: when the parameter of
/// `branch` is a tuple that only get-tuple-elements read and some element
/// is never read, `branch` gets a copy taking the read elements only, and
/// each conditional in `calls` (with the branch it runs `branch` as) passes
/// a tuple of those elements instead. True if it did.
static bool
removeUnusedOperands(ComputationOp branch,
                     ArrayRef<std::pair<ConditionalOp, unsigned>> calls,
                     SymbolTable &symbols) {
  Value param = branch.getBody().getArgument(0);
  std::optional<ReadElements> read = readElements(param);
  if (!read)
    return false;
  TupleType newType = read->type;

  auto copy = cast<ComputationOp>(branch->clone());
  copy.setPrivate();
  copy.setEntry(false);
  // A tuple sharding of the old parameter does not fit the new one.
  copy.removeArgAttrsAttr();
  Value newParam = copy.getBody().getArgument(0);
  newParam.setType(newType);
  renumberReads(newParam, read->position);
  copy.setFunctionTypeAttr(TypeAttr::get(FunctionType::get(
      branch.getContext(), {newType}, branch.getResultTypes())));
  symbols.insert(copy, std::next(Block::iterator(branch)));

  for (const auto &call : calls) {
    ConditionalOp cond = call.first;
    unsigned k = call.second;
    OpBuilder builder(cond);
    Location loc = derivedLoc(cond.getLoc());
    Value operand = cond.getBranchOperands()[k];
    SmallVector<Value> elements;
    for (unsigned i : read->used.set_bits())
      elements.push_back(element(builder, loc, operand, i));
    Value tuple = createInferred<TupleOp>(builder, loc, elements);
    cond->setOperand(cond.getBranchOperands().getBeginOperandIndex() + k,
                     tuple);
    SmallVector<ComputationOp> branches = lookupBranches(cond, symbols);
    branches[k] = copy;
    setBranches(cond, branches);
  }
  return true;
}

namespace {
struct ConditionalSimplifierPass
    : ChangeReportingPass<ConditionalSimplifierPass,
                          hlo::impl::HloConditionalSimplifierBase> {
  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<ConditionalOp> conds;
    module.walk([&](ConditionalOp cond) { conds.push_back(cond); });
    // The conditionals that stay, for the removal of unused operands.
    SmallVector<ConditionalOp> kept;
    for (ConditionalOp cond : conds) {
      if (cond->hasAttr("sharding") || hasControlPredecessors(cond) ||
          isControlPredecessor(cond))
        continue;
      SmallVector<ComputationOp> branches = lookupBranches(cond, symbols);
      if (branches.empty() ||
          branches.size() != cond.getBranchOperands().size() ||
          llvm::any_of(branches, [&](ComputationOp b) {
            return b.getBody().front().getNumArguments() != 1 ||
                   callsChannelInstructions(b, symbols);
          }))
        continue;
      if (mergeDuplicateElements(cond, branches)) {
        ++numMerged;
        changed = true;
      }
      if (removeUnusedElements(cond, branches, symbols)) {
        ++numNarrowed;
        changed = true;
      }
      if (emptyUnusedResult(cond, branches, symbols)) {
        ++numEmptied;
        changed = true;
      }
      if (isEffectFree(cond, symbols)) {
        int64_t taken =
            branches.size() == 1 ? 0 : constantBranch(cond, branches.size());
        if (taken >= 0) {
          OpBuilder builder(cond);
          cond.getResult().replaceAllUsesWith(cloneBranch(
              builder, branches[taken], cond.getBranchOperands()[taken]));
          cond.erase();
          ++numRemoved;
          changed = true;
          continue;
        }
        if (selectBranches(cond, branches)) {
          ++numSelected;
          changed = true;
          continue;
        }
      }
      kept.push_back(cond);
    }

    // Each branch computation with the conditionals that call it.
    llvm::MapVector<Operation *,
                    SmallVector<std::pair<ConditionalOp, unsigned>>>
        calls;
    for (ConditionalOp cond : kept)
      for (auto [k, branch] : llvm::enumerate(lookupBranches(cond, symbols)))
        calls[branch].push_back({cond, unsigned(k)});
    for (auto &[branch, callers] : calls)
      if (removeUnusedOperands(cast<ComputationOp>(branch), callers, symbols)) {
        ++numOperandsNarrowed;
        changed = true;
      }
  }

  /// Narrows the tuple `cond` returns to the elements its
  /// get-tuple-elements read; true if it did.
  bool removeUnusedElements(ConditionalOp cond,
                            MutableArrayRef<ComputationOp> branches,
                            SymbolTable &symbols) {
    if (cond->use_empty())
      return false;
    std::optional<ReadElements> read = readElements(cond.getResult());
    if (!read)
      return false;
    TupleType newType = read->type;

    // A copy of each branch returning the kept elements.
    for (ComputationOp &branch : branches)
      branch = copyWithRoot(
          branch, cond, newType, symbols,
          [&](OpBuilder &builder, Value root) -> Value {
            SmallVector<Value> elements;
            for (unsigned i : read->used.set_bits())
              elements.push_back(element(builder, root.getLoc(), root, i));
            return createInferred<TupleOp>(builder, root.getLoc(), elements);
          });
    setBranches(cond, branches);
    cond.getResult().setType(newType);
    renumberReads(cond.getResult(), read->position);
    return true;
  }
};
} // namespace
