//===- Control.cpp - calls, control flow, tuples, async and side effects --===//
//
// constant, tuple, get-tuple-element, call, fusion, map, while,
// conditional (pred and index forms; an out-of-range index runs the last
// branch), custom-call (only the identity targets `Sharding` and
// `annotate_device_placement`; any other target is an error), the async
// chains run synchronously (async-start computes its output at once; its
// tuple is ((operands), output, context) with zero contexts), copy-start /
// copy-done, and the token ops. send/recv pass data through a per-device
// mailbox keyed by channel id: a recv without an earlier send on its
// channel is an error, as is infeed; outfeed drops its data.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;

//===----------------------------------------------------------------------===//
// Ops.
//===----------------------------------------------------------------------===//

static std::vector<Literal> copies(Operands operands) {
  std::vector<Literal> v;
  for (const Literal *l : operands)
    v.push_back(*l);
  return v;
}

static FailureOr<Literal> map(Interp &interp, MapOp op, Operands operands) {
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  auto f = ScalarFunction::get(interp, op, op.getToApply());
  if (failed(f))
    return failure();
  SmallVector<int64_t> idx(operands.size());
  Literal *outs[] = {&*result};
  for (int64_t i = 0, n = result->getNumElements(); i < n; ++i) {
    std::fill(idx.begin(), idx.end(), i);
    int64_t outIdx[] = {i};
    if (failed(f->apply(operands, idx, outs, outIdx)))
      return failure();
  }
  return std::move(*result);
}

static FailureOr<Literal> whileLoop(Interp &interp, WhileOp op,
                                    const Literal &init) {
  Literal state = init;
  int64_t limit = interp.shared.options.maxWhileIterations;
  while (true) {
    FailureOr<Literal> cond = interp.call(op, op.getCondition(), {state});
    if (failed(cond))
      return failure();
    if (!cond->isArray() || cond->getNumElements() != 1)
      return interp.error(op, "condition must return a pred scalar");
    if (cond->isZero(0))
      return std::move(state);
    if (limit > 0 && ++interp.shared.whileIterations > limit)
      return interp.error(op, "more than " + Twine(limit) +
                                  " while-loop iterations");
    FailureOr<Literal> next = interp.call(op, op.getBody(), {std::move(state)});
    if (failed(next))
      return failure();
    state = std::move(*next);
  }
}

static FailureOr<Literal> conditional(Interp &interp, ConditionalOp op,
                                      Operands operands) {
  const Literal &index = *operands[0];
  Operands args = operands.drop_front();
  int64_t branch;
  if (index.getElementKind() == ElementKind::Pred)
    branch = index.isZero(0) ? 1 : 0;
  else
    branch = index.getInt(0);
  SmallVector<StringRef> branches;
  if (auto list = op.getBranchComputations()) {
    for (Attribute a : *list)
      branches.push_back(cast<FlatSymbolRefAttr>(a).getValue());
  } else if (op.getTrueComputation() && op.getFalseComputation()) {
    branches = {*op.getTrueComputation(), *op.getFalseComputation()};
  }
  if (branches.empty() || branches.size() != args.size())
    return interp.error(op, "needs one operand per branch computation");
  if (branch < 0 || branch >= static_cast<int64_t>(branches.size()))
    branch = branches.size() - 1;
  return interp.call(op, branches[branch], {*args[branch]});
}

/// async-start's tuple: (operands, output, zero contexts), element 0 being
/// the lone operand or a tuple of all operands, whichever the type says.
static FailureOr<Literal> asyncStart(Interp &interp, AsyncStartOp op,
                                     Operands operands) {
  auto tt = dyn_cast<TupleType>(op.getType());
  if (!tt || tt.size() < 2)
    return interp.error(op, "result must be a tuple (operands, output, ...)");
  FailureOr<Literal> output = interp.call(op, op.getCalls(), copies(operands));
  if (failed(output))
    return failure();
  std::vector<Literal> elements;
  if (operands.size() == 1 && operands[0]->hasType(tt.getType(0)))
    elements.push_back(*operands[0]);
  else
    elements.push_back(Literal::tuple(copies(operands)));
  elements.push_back(std::move(*output));
  for (Type t : tt.getTypes().drop_front(2))
    elements.push_back(Literal::zeros(t));
  return Literal::tuple(std::move(elements));
}

static FailureOr<Literal> tupleElement(Interp &interp, Operation *op,
                                       const Literal &tuple, int64_t index) {
  if (!tuple.isTuple() ||
      index >= static_cast<int64_t>(tuple.getElements().size()))
    return interp.error(op, "operand has no tuple element " + Twine(index));
  return tuple.getElements()[index];
}

static std::optional<int64_t> channelOf(Operation *op) {
  if (auto a = op->getAttrOfType<IntegerAttr>("channel_id"))
    return a.getInt();
  return std::nullopt;
}

EvalResult eval::evalControlOp(Interp &interp, Operation *op,
                               Operands operands) {
  Type type = op->getNumResults() ? op->getResult(0).getType() : Type();
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case([&](ConstantOp c) -> EvalResult {
        FailureOr<Literal> l = Literal::fromAttr(c.getValueAttr(), type);
        if (failed(l))
          return interp.error(op, c.getValueAttr()
                                      ? "has a literal that does not fit its "
                                        "type"
                                      : "has an elided literal ({...})");
        return std::move(*l);
      })
      .Case([&](TupleOp) { return Literal::tuple(copies(operands)); })
      .Case([&](GetTupleElementOp g) {
        return tupleElement(interp, op, *operands[0], g.getIndex());
      })
      .Case([&](CallOp c) {
        return interp.call(op, c.getToApply(), copies(operands));
      })
      .Case([&](FusionOp f) {
        return interp.call(op, f.getCalls(), copies(operands));
      })
      .Case([&](MapOp m) { return map(interp, m, operands); })
      .Case([&](WhileOp w) { return whileLoop(interp, w, *operands[0]); })
      .Case([&](ConditionalOp c) { return conditional(interp, c, operands); })
      .Case([&](CustomCallOp c) -> EvalResult {
        StringRef target = c.getCustomCallTarget();
        if ((target == "Sharding" || target == "annotate_device_placement") &&
            operands.size() == 1 && operands[0]->hasType(type))
          return *operands[0];
        return interp.error(op,
                            "unsupported custom call target '" + target + "'");
      })
      .Case<OptimizationBarrierOp, AddDependencyOp, DomainOp>(
          [&](Operation *) { return *operands[0]; })
      .Case([&](AfterAllOp) { return Literal::token(); })
      .Case([&](AsyncStartOp s) { return asyncStart(interp, s, operands); })
      .Case([&](AsyncUpdateOp) { return *operands[0]; })
      .Case([&](AsyncDoneOp) {
        return tupleElement(interp, op, *operands[0], 1);
      })
      .Case([&](CopyStartOp) -> EvalResult {
        std::vector<Literal> e = {
            *operands[0], *operands[0],
            Literal::zeros(cast<TupleType>(type).getType(2))};
        return Literal::tuple(std::move(e));
      })
      .Case(
          [&](CopyDoneOp) { return tupleElement(interp, op, *operands[0], 0); })
      .Case([&](SendOp) -> EvalResult {
        interp.mailbox[channelOf(op).value_or(-1)].push_back(*operands[0]);
        std::vector<Literal> e = {
            *operands[0], Literal::zeros(cast<TupleType>(type).getType(1)),
            Literal::token()};
        return Literal::tuple(std::move(e));
      })
      .Case([&](SendDoneOp) { return Literal::token(); })
      .Case([&](RecvOp) -> EvalResult {
        int64_t channel = channelOf(op).value_or(-1);
        auto &queue = interp.mailbox[channel];
        if (queue.empty())
          return interp.error(op, "nothing was sent on channel " +
                                      Twine(channel) +
                                      " (the interpreter has no host or "
                                      "peer to receive from)");
        Literal data = std::move(queue.front());
        queue.pop_front();
        auto tt = cast<TupleType>(type);
        if (!data.hasType(tt.getType(0)))
          return interp.error(op, "the data sent on channel " + Twine(channel) +
                                      " does not have the received type");
        std::vector<Literal> e = {
            std::move(data), Literal::zeros(tt.getType(1)), Literal::token()};
        return Literal::tuple(std::move(e));
      })
      .Case([&](RecvDoneOp) -> EvalResult {
        auto data = tupleElement(interp, op, *operands[0], 0);
        if (failed(data))
          return FailureOr<Literal>(failure());
        std::vector<Literal> e = {std::move(*data), Literal::token()};
        return Literal::tuple(std::move(e));
      })
      .Case([&](InfeedOp) -> EvalResult {
        return interp.error(op, "the interpreter has no infeed data");
      })
      .Case([&](OutfeedOp) { return Literal::token(); })
      .Default([](Operation *) -> EvalResult { return std::nullopt; });
}
