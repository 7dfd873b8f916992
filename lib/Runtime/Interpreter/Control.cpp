//===- Control.cpp - calls, control flow, tuples, async and side effects --===//
//
// constant, tuple, get-tuple-element, call, fusion, map, while,
// conditional (pred and index forms; an out-of-range index runs the last
// branch), custom-call (the identity targets, the sharding and memory
// placement calls, and the library calls below; any other target is an
// error), the async chains run synchronously (async-start computes its
// output at once; its tuple is ((operands), output, context) with zero
// contexts), copy-start / copy-done, the token ops, and scan (sequential,
// whatever is_associative says). send/recv pass data through a per-device
// mailbox keyed by channel id, read at the recv-done: a recv-done without an
// earlier send on its channel is an error. A send with XLA's source-target
// pairs (`_xla_send_recv_source_target_pairs`) is a meeting of every device
// that puts the source's data in the target's mailbox (zeros in that of a
// device that is no target), as collective-permute moves it. Host transfers
// (is_host_transfer) talk to the host instead: a send appends (channel,
// value) to the device's list of RunOutputs::toHost, a recv-done reads the
// next of InterpreterOptions::fromHost's values for its channel (an error
// once they are exhausted). infeed reads the device's queue of
// InterpreterOptions (an error once it is exhausted); outfeed appends its
// operand to the device's outfeed list (RunOutputs).
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloMemoryAnnotations.h"
#include "Hlo/Dialect/Hlo/HloShardingCalls.h"

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

/// A host-transfer recv-done on `channel`: (the host's next value for the
/// channel, token).
static FailureOr<Literal> recvFromHost(Interp &interp, Operation *op,
                                       int64_t channel, Type type) {
  const std::map<int64_t, std::vector<Literal>> &given =
      interp.shared.options.fromHost;
  auto it = given.find(channel);
  size_t &next = interp.fromHostNext[channel];
  size_t count = it == given.end() ? 0 : it->second.size();
  if (next >= count)
    return interp.error(op, "the host has no value for channel " +
                                Twine(channel) + " (" + Twine(count) +
                                " given in InterpreterOptions::fromHost, "
                                "all read; hlo-run --host-recv)");
  const Literal &data = it->second[next];
  Type want = cast<TupleType>(type).getType(0);
  if (!data.hasType(want))
    return interp.error(op, "the host's value " + Twine(next) +
                                " for channel " + Twine(channel) +
                                " is not of the received type " +
                                typeToString(want));
  ++next;
  std::vector<Literal> e = {data, Literal::token()};
  return Literal::tuple(std::move(e));
}

/// infeed: (the next value of this device's infeed queue, token).
static FailureOr<Literal> infeed(Interp &interp, Operation *op) {
  const InterpreterOptions &options = interp.shared.options;
  const std::vector<Literal> &queue =
      options.deviceInfeed.empty()
          ? options.infeed
          : options.deviceInfeed[interp.replica * options.numPartitions +
                                 interp.partition];
  if (interp.infeedNext >= queue.size())
    return interp.error(op, "the infeed queue is empty (" +
                                Twine(queue.size()) +
                                " values given in InterpreterOptions::infeed, "
                                "all read)");
  auto tt = dyn_cast<TupleType>(op->getResult(0).getType());
  if (!tt || tt.size() != 2)
    return interp.error(op, "result must be a (data, token) tuple");
  const Literal &data = queue[interp.infeedNext];
  if (!data.hasType(tt.getType(0))) {
    std::string got;
    llvm::raw_string_ostream os(got);
    data.printShape(os);
    return interp.error(op, "infeed value " + Twine(interp.infeedNext) +
                                " is " + got + ", the infeed reads " +
                                typeToString(tt.getType(0)));
  }
  ++interp.infeedNext;
  std::vector<Literal> e = {data, Literal::token()};
  return Literal::tuple(std::move(e));
}

//===----------------------------------------------------------------------===//
// scan.
//===----------------------------------------------------------------------===//

/// The slice of `in` at `index` along `dim` (rank one less), or (insert)
/// `slice` written back there.
static Literal sliceAlong(const Literal &in, int64_t dim, int64_t index) {
  SmallVector<int64_t> shape(in.getShape());
  int64_t size = shape[dim];
  shape.erase(shape.begin() + dim);
  Literal out = in.withShape(shape);
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < in.getRank(); ++d)
    inner *= in.getShape()[d];
  for (int64_t i = 0, n = out.getNumElements(); i < n; ++i) {
    int64_t outer = i / inner, k = i % inner;
    out.copyElement(i, in, (outer * size + index) * inner + k);
  }
  return out;
}

static void insertAlong(Literal &out, int64_t dim, int64_t index,
                        const Literal &slice) {
  int64_t size = out.getShape()[dim];
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < out.getRank(); ++d)
    inner *= out.getShape()[d];
  for (int64_t i = 0, n = slice.getNumElements(); i < n; ++i) {
    int64_t outer = i / inner, k = i % inner;
    out.copyElement((outer * size + index) * inner + k, slice, i);
  }
}

/// scan(inputs..., inits...), num_carries = number of inits: for i along
/// dimensions[0] (from the end when is_reverse), to_apply(input slices at
/// i..., carries...) returns (output slices..., new carries...); the
/// result is (outputs stacked along the dimension..., final carries...),
/// or the lone element when there is one. is_associative is a hint only:
/// the scan runs in order.
static FailureOr<Literal> scan(Interp &interp, ScanOp op, Operands operands) {
  std::optional<ArrayRef<int64_t>> dims = op.getDimensions();
  if (!dims || dims->size() != 1)
    return interp.error(op, "needs one scan dimension (dimensions={d})");
  if (!op.getToApply())
    return interp.error(op, "needs a to_apply computation");
  if (!op.getNumCarries())
    return interp.error(op, "needs num_carries (the number of trailing "
                            "operands that are initial carries)");
  int64_t dim = (*dims)[0];
  int64_t numOperands = operands.size();
  int64_t numCarries = static_cast<int64_t>(*op.getNumCarries());
  if (numCarries < 0 || numCarries > numOperands)
    return interp.error(op, "num_carries " + Twine(numCarries) +
                                " is not in [0, " + Twine(numOperands) +
                                "] (the operand count)");
  int64_t numInputs = numOperands - numCarries;
  Type type = op.getType();
  SmallVector<Type> resultTypes;
  if (auto tt = dyn_cast<TupleType>(type))
    resultTypes.assign(tt.getTypes().begin(), tt.getTypes().end());
  else
    resultTypes.push_back(type);
  int64_t numOutputs = static_cast<int64_t>(resultTypes.size()) - numCarries;
  if (numOutputs < 0)
    return interp.error(op, "the result has fewer elements than num_carries");
  // The scan length: from the inputs, else from the outputs' types.
  std::optional<int64_t> length;
  for (int64_t k = 0; k < numInputs; ++k) {
    const Literal &in = *operands[k];
    if (!in.isArray() || dim < 0 || dim >= in.getRank())
      return interp.error(op, "input " + Twine(k) + " has no dimension " +
                                  Twine(dim));
    if (length && *length != in.getShape()[dim])
      return interp.error(op, "the inputs differ in the size of the scan "
                              "dimension");
    length = in.getShape()[dim];
  }
  std::vector<Literal> outputs;
  for (int64_t k = 0; k < numOutputs; ++k) {
    auto shape = getStaticShape(resultTypes[k]);
    if (!shape || dim < 0 || dim >= static_cast<int64_t>(shape->size()))
      return interp.error(
          op, "output " + Twine(k) + " (" + typeToString(resultTypes[k]) +
                  ") is not an array with dimension " + Twine(dim));
    if (length && *length != (*shape)[dim])
      return interp.error(op, "output " + Twine(k) +
                                  " does not have the inputs' scan length " +
                                  Twine(*length));
    length = (*shape)[dim];
    outputs.push_back(Literal::zeros(resultTypes[k]));
  }
  if (!length)
    return interp.error(op, "has no inputs and no outputs: the scan length "
                            "is unknown");
  std::vector<Literal> carries;
  for (int64_t k = 0; k < numCarries; ++k)
    carries.push_back(*operands[numInputs + k]);
  bool reverse = op.getIsReverse().value_or(false);
  for (int64_t step = 0; step < *length; ++step) {
    int64_t i = reverse ? *length - 1 - step : step;
    std::vector<Literal> args;
    for (int64_t k = 0; k < numInputs; ++k)
      args.push_back(sliceAlong(*operands[k], dim, i));
    for (Literal &c : carries)
      args.push_back(std::move(c));
    FailureOr<Literal> r = interp.call(op, *op.getToApply(), std::move(args));
    if (failed(r))
      return failure();
    std::vector<Literal> parts;
    if (numOutputs + numCarries == 1 && !r->isTuple())
      parts.push_back(std::move(*r));
    else if (r->isTuple())
      parts = std::move(r->getElements());
    if (static_cast<int64_t>(parts.size()) != numOutputs + numCarries)
      return interp.error(op, "to_apply must return " +
                                  Twine(numOutputs + numCarries) +
                                  " values (outputs, then carries)");
    for (int64_t k = 0; k < numOutputs; ++k) {
      SmallVector<int64_t> sliceShape(outputs[k].getShape());
      sliceShape.erase(sliceShape.begin() + dim);
      const Literal &part = parts[k];
      if (!part.isArray() || part.getShape() != ArrayRef(sliceShape) ||
          part.getElementType() != outputs[k].getElementType())
        return interp.error(op, "to_apply's output " + Twine(k) +
                                    " does not fit a slice of the result");
      insertAlong(outputs[k], dim, i, part);
    }
    carries.clear();
    for (int64_t k = 0; k < numCarries; ++k) {
      Literal &c = parts[numOutputs + k];
      if (!c.hasType(resultTypes[numOutputs + k]))
        return interp.error(op, "to_apply's carry " + Twine(k) +
                                    " does not have the type " +
                                    typeToString(resultTypes[numOutputs + k]));
      carries.push_back(std::move(c));
    }
  }
  // With no steps the carries are the initial values, which must fit.
  for (int64_t k = 0; k < numCarries; ++k)
    if (!carries[k].hasType(resultTypes[numOutputs + k]))
      return interp.error(op, "init " + Twine(k) +
                                  " does not have the "
                                  "result's carry type " +
                                  typeToString(resultTypes[numOutputs + k]));
  for (Literal &c : carries)
    outputs.push_back(std::move(c));
  if (!isa<TupleType>(type))
    return std::move(outputs[0]);
  return Literal::tuple(std::move(outputs));
}

EvalResult eval::evalControlOp(Interp &interp, Operation *op,
                               Operands operands) {
  Type type = op->getNumResults() ? op->getResult(0).getType() : Type();
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case([&](ConstantOp c) -> EvalResult {
        FailureOr<Literal> l = Literal::fromAttr(c.getValueAttr(), type);
        if (failed(l))
          return interp.error(op, c.isElided()
                                      ? "has an elided literal ({...})"
                                      : "has a literal that does not fit its "
                                        "type");
        return std::move(*l);
      })
      .Case([&](TupleOp) { return Literal::tuple(copies(operands)); })
      .Case([&](GetTupleElementOp g) {
        return tupleElement(interp, op, *operands[0], g.getIndex());
      })
      .Case([&](CallOp c) {
        return interp.call(op, c.getToApply(), copies(operands));
      })
      .Case([&](FusionOp f) -> EvalResult {
        if (auto &executor = interp.shared.options.fusionExecutor) {
          std::string message;
          if (std::optional<FailureOr<Literal>> r =
                  executor(op, operands, message)) {
            if (failed(*r))
              return interp.error(op, message);
            return std::move(**r);
          }
        }
        return interp.call(op, f.getCalls(), copies(operands));
      })
      .Case([&](MapOp m) { return map(interp, m, operands); })
      .Case([&](WhileOp w) { return whileLoop(interp, w, *operands[0]); })
      .Case([&](ConditionalOp c) { return conditional(interp, c, operands); })
      .Case([&](CustomCallOp c) -> EvalResult {
        if (EvalResult r = evalDynamicShapeCustomCall(interp, c, operands))
          return r;
        if (EvalResult r = evalGemmCustomCall(interp, c, operands))
          return r;
        if (EvalResult r = evalBlockScalingCustomCall(interp, c, operands))
          return r;
        if (EvalResult r = evalLibraryCustomCall(interp, c, operands))
          return r;
        if (EvalResult r = evalTopKCustomCall(interp, c, operands))
          return r;
        if (EvalResult r = evalTransformerEngineCustomCall(interp, c, operands))
          return r;
        if (EvalResult r = evalCubSortCustomCall(interp, c, operands))
          return r;
        if (EvalResult r = evalShardMapBoundary(interp, c, operands))
          return r;
        StringRef target = c.getCustomCallTarget();
        // Annotations of one device's program: their operand as it is.
        if ((isShardingPassThroughTarget(target) ||
             isMemoryPlacementTarget(target)) &&
            operands.size() == 1 && operands[0]->hasType(type))
          return *operands[0];
        // JAX's cuDNN fusions: the computation they name, on the operands.
        if (ArrayAttr callees = c.getCalledComputationsAttr();
            target == "__cudnn$fusion" && callees && callees.size() == 1)
          return interp.call(
              op, cast<SymbolRefAttr>(callees[0]).getLeafReference().getValue(),
              copies(operands));
        if (target == kShardingGroupTarget && isa<TupleType>(type) &&
            cast<TupleType>(type).size() == 0)
          return Literal::tuple({});
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
        // Between devices (XLA's source-target pairs): delivered to each
        // target's queue of the channel; else to this device's.
        TransferChannel channel = getTransferChannel(op);
        if (channel.host)
          interp.toHost.push_back({channel.id.value_or(0), *operands[0]});
        std::string why;
        auto pairs = getSendRecvPairs(op, interp.shared.options.numReplicas,
                                      interp.shared.options.numPartitions, why);
        if (failed(pairs))
          return interp.error(op, why);
        Literal sent = *operands[0];
        if (*pairs) {
          FailureOr<Literal> got = sendToPeers(interp, op, sent, **pairs);
          if (failed(got))
            return FailureOr<Literal>(failure());
          sent = std::move(*got);
        }
        if (!channel.host)
          interp.mailbox[channel.id.value_or(-1)].push_back(std::move(sent));
        std::vector<Literal> e = {
            *operands[0], Literal::zeros(cast<TupleType>(type).getType(1)),
            Literal::token()};
        return Literal::tuple(std::move(e));
      })
      .Case([&](SendDoneOp) { return Literal::token(); })
      .Case([&](RecvOp) -> EvalResult {
        // The data arrives at the recv-done.
        auto tt = cast<TupleType>(type);
        std::vector<Literal> e = {Literal::zeros(tt.getType(0)),
                                  Literal::zeros(tt.getType(1)),
                                  Literal::token()};
        return Literal::tuple(std::move(e));
      })
      .Case([&](RecvDoneOp) -> EvalResult {
        TransferChannel transfer = getTransferChannel(op);
        if (transfer.host)
          return recvFromHost(interp, op, transfer.id.value_or(0), type);
        int64_t channel = transfer.id.value_or(-1);
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
        std::vector<Literal> e = {std::move(data), Literal::token()};
        return Literal::tuple(std::move(e));
      })
      .Case([&](InfeedOp) { return infeed(interp, op); })
      .Case([&](OutfeedOp) {
        interp.outfeed.push_back(*operands[0]);
        return Literal::token();
      })
      .Case([&](ScanOp s) { return scan(interp, s, operands); })
      .Default([](Operation *) -> EvalResult { return std::nullopt; });
}
