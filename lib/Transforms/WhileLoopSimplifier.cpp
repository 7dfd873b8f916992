//===- WhileLoopSimplifier.cpp - smaller and fewer while loops ------------===//
//
// XLA's WhileLoopSimplifier (seed 002, section 3.7), rule by rule:
// 1. a loop that runs its body no time is its init value;
// 2. a loop that runs its body once is a copy of the body on the init;
// 3. state elements that nothing reads (not the condition, not the body
//    except to pass them on, not the loop's users) are removed;
// 4. elements with the same init value that the body passes on unchanged
//    are one element, and so are induction variables with the same init
//    and the same constant step (JAX's fori loops count twice: XLA merges
//    their induction variables);
// 5. a state holding nested tuples is flattened (tuples rebuilt around the
//    new flat state are left to hlo-tuple-simplifier).
// The trip count is the loop's `known_trip_count` backend config or XLA's
// brute-force count: the condition and the body's update of an induction
// variable with a constant init are evaluated by the constant evaluator,
// up to one update (all rules 1 and 2 need, as in XLA). Rules 1 and 2
// need a condition without side effects, rule 2 a body without them too.
// Rules 3-5 give the loop new condition and body computations (copies:
// the old ones may serve other loops); old ones nothing calls any more are
// removed. Loops with control edges are left alone.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopAnalysis.h"

#include "Hlo/Runtime/Interpreter.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOWHILELOOPSIMPLIFIER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;
using runtime::Literal;

//===----------------------------------------------------------------------===//
// Rebuilding a loop
//===----------------------------------------------------------------------===//

static Value makeElement(OpBuilder &b, Location loc, Value tuple,
                         int64_t index) {
  if (auto t = tuple.getDefiningOp<TupleOp>())
    return t.getInputs()[index];
  return createInferred<GetTupleElementOp>(
             b, loc, {tuple},
             {b.getNamedAttr("index", b.getI64IntegerAttr(index))})
      ->getResult(0);
}

/// A private copy of `comp`, under a fresh name, whose parameter has type
/// `param` and result type `result` (their uses are the caller's to fix).
static ComputationOp copyComputation(ComputationOp comp, Type param,
                                     Type result, SymbolTable &symbols) {
  auto copy = cast<ComputationOp>(comp->clone());
  copy.getBody().getArgument(0).setType(param);
  copy.setFunctionType(FunctionType::get(comp.getContext(), {param}, {result}));
  // A tuple sharding of the old state does not fit the new one.
  copy.removeArgAttrsAttr();
  copy.setPrivate();
  symbols.insert(copy, std::next(Block::iterator(comp)));
  return copy;
}

/// A new loop over `init` with `cond` and `body`, replacing nothing yet.
static WhileOp makeLoop(Loop &old, Value init, ComputationOp cond,
                        ComputationOp body) {
  OpBuilder b(old.op);
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr("condition", FlatSymbolRefAttr::get(cond)),
      b.getNamedAttr("body", FlatSymbolRefAttr::get(body))};
  if (Attribute config = old.op->getAttr("backend_config"))
    attrs.push_back(b.getNamedAttr("backend_config", config));
  if (Attribute fe = old.op->getAttr("frontend_attributes"))
    attrs.push_back(b.getNamedAttr("frontend_attributes", fe));
  return cast<WhileOp>(createInstruction(b, old.op.getLoc(),
                                         WhileOp::getOperationName(),
                                         init.getType(), {init}, attrs));
}

/// Rules 3 and 4: `newIndex[i]` is the new position of element i, or -1 if
/// it is removed (nothing reads it). Elements mapped to the same position
/// are one.
static void renumberElements(Loop &loop, ArrayRef<int64_t> newIndex,
                             ArrayRef<int64_t> kept, SymbolTable &symbols) {
  auto oldType = cast<TupleType>(loop.op.getType());
  SmallVector<Type> types;
  for (int64_t i : kept)
    types.push_back(oldType.getType(i));
  auto type = TupleType::get(loop.op.getContext(), types);
  // What reads a removed element only computes the same element of the
  // body's root: it goes with the root's old tuple.
  auto renumber = [&](Value tuple) {
    for (Operation *user : tuple.getUsers()) {
      auto gte = cast<GetTupleElementOp>(user);
      if (newIndex[gte.getIndex()] >= 0)
        gte.setIndex(newIndex[gte.getIndex()]);
    }
  };
  ComputationOp cond =
      copyComputation(loop.cond, type, loop.cond.getResultTypes()[0], symbols);
  renumber(cond.getBody().getArgument(0));
  ComputationOp body = copyComputation(loop.body, type, type, symbols);
  renumber(body.getBody().getArgument(0));
  auto root = cast<TupleOp>(body.getRootValue().getDefiningOp());
  OpBuilder b(root);
  SmallVector<Value> results, inits;
  for (int64_t i : kept)
    results.push_back(root.getInputs()[i]);
  Value newRoot = createInferred<TupleOp>(b, root.getLoc(), results);
  body.getBody().front().getTerminator()->setOperand(0, newRoot);
  root.erase();
  SmallVector<Operation *> ops = llvm::to_vector(
      llvm::make_pointer_range(body.getBody().front().without_terminator()));
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty() && isMemoryEffectFree(op))
      op->erase();

  b.setInsertionPoint(loop.op);
  for (int64_t i : kept)
    inits.push_back(makeElement(b, loop.op.getLoc(), loop.init(), i));
  Value init = createInferred<TupleOp>(b, loop.op.getLoc(), inits);
  WhileOp loopOp = makeLoop(loop, init, cond, body);
  for (OpOperand &use : llvm::make_early_inc_range(loop.op->getUses())) {
    auto gte = cast<GetTupleElementOp>(use.getOwner());
    gte.setIndex(newIndex[gte.getIndex()]);
    use.set(loopOp.getResult());
  }
  loop.op.erase();
  loop.op = loopOp;
  loop.cond = cond;
  loop.body = body;
}

/// True if element `gte` of the body's parameter reaches anything but the
/// same element of the body's root `root`: another element, an instruction
/// with side effects, or the root other than through the tuple.
static bool flowsElsewhere(GetTupleElementOp gte, TupleOp root) {
  SmallVector<Operation *> work = {gte};
  DenseSet<Operation *> seen = {gte};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    for (OpOperand &use : op->getUses()) {
      Operation *user = use.getOwner();
      if (user == root) {
        if (use.getOperandNumber() != gte.getIndex())
          return true;
        continue;
      }
      if (isa<ReturnOp>(user) || !isMemoryEffectFree(user))
        return true;
      if (seen.insert(user).second)
        work.push_back(user);
    }
  }
  return false;
}

/// Rules 3 and 4 on `loop`; false if they change nothing.
static bool removeElements(Loop &loop, SymbolTable &symbols) {
  auto type = cast<TupleType>(loop.op.getType());
  auto root = loop.body.getRootValue().getDefiningOp<TupleOp>();
  if (!root || !root->hasOneUse() || !onlyElementsRead(loop.condParam()) ||
      !onlyElementsRead(loop.bodyParam()) || !onlyElementsRead(loop.op))
    return false;
  int64_t n = type.size();
  // Which elements are read: by the condition, by the loop's users, and in
  // the body other than to be passed on to the same position.
  SmallVector<bool> read(n, false);
  for (Value tuple : {loop.condParam(), Value(loop.op.getResult())})
    for (Operation *user : tuple.getUsers())
      read[cast<GetTupleElementOp>(user).getIndex()] = true;
  for (Operation *user : loop.bodyParam().getUsers()) {
    auto gte = cast<GetTupleElementOp>(user);
    if (!read[gte.getIndex()])
      read[gte.getIndex()] = flowsElsewhere(gte, root);
  }
  // Rule 4: an element with the init of an earlier element, that the body
  // updates as it updates that one (passes it on unchanged, or adds the
  // same constant to it), is always that element.
  auto init = loop.init().getDefiningOp<TupleOp>();
  // How the body updates element i: null when it passes it on unchanged,
  // the added constant for an induction variable; failure otherwise.
  auto update = [&](int64_t i) -> FailureOr<Value> {
    Value next = root.getInputs()[i];
    if (elementIndex(next, loop.bodyParam()) == i)
      return Value();
    auto add = next.getDefiningOp<AddOp>();
    if (!add || add->getNumOperands() != 2)
      return failure();
    for (auto [self, step] : {std::pair(add.getLhs(), add.getRhs()),
                              std::pair(add.getRhs(), add.getLhs())})
      if (elementIndex(self, loop.bodyParam()) == i &&
          matchPattern(step, m_Constant()))
        return step;
    return failure();
  };
  // One value, or equal constants (null: both null).
  auto sameValue = [](Value a, Value b) {
    Attribute x, y;
    return a == b || (a && b && a.getType() == b.getType() &&
                      matchPattern(a, m_Constant(&x)) &&
                      matchPattern(b, m_Constant(&y)) && x == y);
  };
  SmallVector<int64_t> same(n);
  SmallVector<FailureOr<Value>> updates;
  for (int64_t i = 0; i < n; ++i)
    updates.push_back(update(i));
  for (int64_t j = 0; j < n; ++j) {
    same[j] = j;
    if (!init || failed(updates[j]))
      continue;
    for (int64_t i = 0; i < j; ++i)
      if (same[i] == i && succeeded(updates[i]) &&
          sameValue(*updates[i], *updates[j]) &&
          sameValue(init.getInputs()[i], init.getInputs()[j])) {
        same[j] = i;
        read[i] = read[i] || read[j];
        break;
      }
  }
  SmallVector<int64_t> newIndex(n, -1), kept;
  for (int64_t i = 0; i < n; ++i) {
    if (same[i] != i) {
      newIndex[i] = newIndex[same[i]];
      continue;
    }
    if (!read[i])
      continue;
    newIndex[i] = kept.size();
    kept.push_back(i);
  }
  if (int64_t(kept.size()) == n)
    return false;
  renumberElements(loop, newIndex, kept, symbols);
  return true;
}

/// The leaves of `v` (a tree of tuples), made with get-tuple-elements.
static void flatten(OpBuilder &b, Location loc, Value v,
                    SmallVectorImpl<Value> &leaves) {
  auto tuple = dyn_cast<TupleType>(v.getType());
  if (!tuple) {
    leaves.push_back(v);
    return;
  }
  for (int64_t i = 0, e = tuple.size(); i < e; ++i)
    flatten(b, loc, makeElement(b, loc, v, i), leaves);
}

/// A value of `type` (a tree of tuples) made of the next leaves of `flat`.
static Value unflatten(OpBuilder &b, Location loc, Type type, Value flat,
                       int64_t &next) {
  auto tuple = dyn_cast<TupleType>(type);
  if (!tuple)
    return makeElement(b, loc, flat, next++);
  SmallVector<Value> elements;
  for (Type t : tuple.getTypes())
    elements.push_back(unflatten(b, loc, t, flat, next));
  return createInferred<TupleOp>(b, loc, elements);
}

/// Replaces the uses of the parameter of `comp` (whose type becomes
/// `flatType`) by the old state rebuilt from the flat one.
static void rebuildParam(ComputationOp comp, Type oldType) {
  Value param = comp.getBody().getArgument(0);
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : param.getUses())
    uses.push_back(&use);
  OpBuilder b = OpBuilder::atBlockBegin(&comp.getBody().front());
  int64_t next = 0;
  Value rebuilt = unflatten(b, param.getLoc(), oldType, param, next);
  for (OpOperand *use : uses)
    use->set(rebuilt);
}

/// Rule 5; false if the state holds no nested tuple.
static bool flattenState(Loop &loop, SymbolTable &symbols) {
  auto type = cast<TupleType>(loop.op.getType());
  if (llvm::none_of(type.getTypes(), [](Type t) { return isa<TupleType>(t); }))
    return false;
  SmallVector<Type> leafTypes;
  type.getFlattenedTypes(leafTypes);
  auto flatType = TupleType::get(loop.op.getContext(), leafTypes);
  ComputationOp cond = copyComputation(loop.cond, flatType,
                                       loop.cond.getResultTypes()[0], symbols);
  rebuildParam(cond, type);
  ComputationOp body = copyComputation(loop.body, flatType, flatType, symbols);
  rebuildParam(body, type);
  Operation *ret = body.getBody().front().getTerminator();
  OpBuilder b(ret);
  SmallVector<Value> leaves;
  flatten(b, ret->getLoc(), ret->getOperand(0), leaves);
  ret->setOperand(0, createInferred<TupleOp>(b, ret->getLoc(), leaves));

  b.setInsertionPoint(loop.op);
  leaves.clear();
  flatten(b, loop.op.getLoc(), loop.init(), leaves);
  Value init = createInferred<TupleOp>(b, loop.op.getLoc(), leaves);
  WhileOp loopOp = makeLoop(loop, init, cond, body);
  b.setInsertionPointAfter(loopOp);
  int64_t next = 0;
  Value result = unflatten(b, loop.op.getLoc(), type, loopOp, next);
  loop.op.getResult().replaceAllUsesWith(result);
  loop.op.erase();
  loop.op = loopOp;
  loop.cond = cond;
  loop.body = body;
  return true;
}

/// True if running `comp` has no side effect.
static bool isEffectFree(ComputationOp comp) {
  return llvm::all_of(comp.getBody().getOps(),
                      [](Operation &op) { return isMemoryEffectFree(&op); });
}

/// The loop's trip count: its `known_trip_count` backend config, or the
/// brute-force count up to one trip (what XLA's WhileLoopSimplifier asks
/// of ComputeWhileLoopTripCount: rules 1 and 2 need no more). `evaluator`
/// is made on the first loop that needs one; it evaluates no instruction
/// that calls a computation, so the computations the pass adds and removes
/// do not concern it.
static std::optional<int64_t>
tripCount(Loop &loop, std::optional<runtime::Evaluator> &evaluator) {
  if (auto config = readBackendConfig(loop.op->getAttr("backend_config")))
    if (std::optional<int64_t> n = config.getKnownTripCount())
      return n;
  if (!evaluator)
    evaluator.emplace(loop.op->getParentOfType<ModuleOp>());
  return bruteForceTripCount(loop, *evaluator, /*maxTrips=*/1);
}

/// True if the loop's frontend attributes ask to keep it when it runs
/// once (XLA's `skip-simplify-while-loops_trip-count-one`).
static bool keepsOneTrip(Loop &loop) {
  auto attrs = loop.op->getAttrOfType<DictionaryAttr>("frontend_attributes");
  auto skip =
      attrs
          ? attrs.getAs<StringAttr>("skip-simplify-while-loops_trip-count-one")
          : nullptr;
  return skip && skip.getValue() == "true";
}

/// Rules 1 and 2 for a loop of `trips` trips; true if the loop is gone.
static bool removeLoop(Loop &loop, std::optional<int64_t> trips) {
  if (!trips || *trips > 1)
    return false;
  Value result = loop.init();
  if (*trips == 1) {
    // XLA keeps a loop whose body has side effects: they would lose their
    // order after what computes the init.
    if (!isEffectFree(loop.body) || keepsOneTrip(loop))
      return false;
    IRMapping mapping;
    mapping.map(loop.bodyParam(), loop.init());
    OpBuilder b(loop.op);
    for (Operation &op : loop.body.getBody().front().without_terminator())
      b.clone(op, mapping);
    result = mapping.lookupOrDefault(loop.body.getRootValue());
  }
  loop.op.getResult().replaceAllUsesWith(result);
  loop.op.erase();
  return true;
}

namespace {
struct WhileLoopSimplifierPass
    : ChangeReportingPass<WhileLoopSimplifierPass,
                          hlo::impl::HloWhileLoopSimplifierBase> {
  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<WhileOp> loops;
    module.walk([&](WhileOp op) { loops.push_back(op); });
    DenseSet<Operation *> replaced;
    std::optional<runtime::Evaluator> evaluator;
    for (WhileOp op : loops) {
      Loop loop{op, symbols.lookup<ComputationOp>(op.getCondition()),
                symbols.lookup<ComputationOp>(op.getBody())};
      if (!loop.cond || !loop.body || loop.cond == loop.body ||
          hasControlPredecessors(op) || isControlPredecessor(op))
        continue;
      replaced.insert(loop.cond);
      replaced.insert(loop.body);
      if (isEffectFree(loop.cond) &&
          removeLoop(loop, tripCount(loop, evaluator))) {
        ++numLoopsRemoved;
        changed = true;
        continue;
      }
      if (!isa<TupleType>(op.getType()))
        continue;
      if (flattenState(loop, symbols)) {
        ++numFlattened;
        changed = true;
      }
      if (removeElements(loop, symbols)) {
        ++numElementsRemoved;
        changed = true;
      }
    }
    if (!changed)
      return;
    // The old computations that nothing calls any more.
    eraseUnreferencedComputations(module, replaced, symbols);
  }
};
} // namespace
