//===- CollectivePipeliner.cpp - a loop's collectives one trip later ------===//
//
// XLA's CollectivePipeliner, forward direction: a collective whose result a
// loop writes into a slice of a loop state element runs one iteration
// later, so that it overlaps the next iteration's work:
//
//   while (i < n) { buf = dus(buf, g(rs(f(i))), idx(i)); i += 1 }
// ->
//   x = f(0); i = 1;                                   // the first trip
//   while (i < n) { buf = dus(buf, g(rs(x)), idx(i - 1)); x = f(i); i += 1 }
//   buf = dus(buf, g(rs(x)), idx(i - 1))               // the last collective
//
// `g` is the chain of instructions from the collective to the update (one
// user each), `idx` the start indices, from the induction variable and
// constants. The state grows by the collective's operand and the chain's
// other operands that vary from trip to trip (as XLA); the indices and the
// chain's operands computed from the induction variable alone are computed
// again from its previous value (XLA carries them as state).
//
//===----------------------------------------------------------------------===//

#include "CollectiveOptUtils.h"
#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopAnalysis.h"
#include "WhileLoopUtils.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCOLLECTIVEPIPELINER
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// How a value of the body varies from one iteration to the next.
enum class Variance { Invariant, InductionOnly, Variant };

/// A collective to pipeline, with its chain and update.
struct Candidate {
  Operation *collective;
  SmallVector<Operation *> chain;
  DynamicUpdateSliceOp dus;
  /// The state element the update writes.
  int64_t buffer;
  /// The update's start index operands (positions among its operands)
  /// computed from the induction variable: computed again from its previous
  /// value in the next trip.
  SmallVector<unsigned> inductionIndices;
  /// The chain's other operands computed from the induction variable (the
  /// user, the operand's position): computed again from its previous value
  /// too.
  SmallVector<std::pair<Operation *, unsigned>, 1> inductionOperands;
  /// The chain's other operands that vary otherwise: carried to the next
  /// trip in the state, as the collective's operand.
  SmallVector<std::pair<Operation *, unsigned>, 1> variantOperands;
};

/// The body of a loop and what is known of its values.
class BodyInfo {
public:
  BodyInfo(Loop &loop, int64_t induction)
      : elementReads(countElementReads(loop)) {
    Value param = loop.bodyParam();
    auto root = cast<TupleOp>(loop.body.getRootValue().getDefiningOp());
    for (Operation &op : loop.body.getBody().front()) {
      Variance v = Variance::Variant;
      if (auto gte = dyn_cast<GetTupleElementOp>(op);
          gte && gte.getOperand() == param) {
        int64_t index = gte.getIndex();
        if (index == induction)
          v = Variance::InductionOnly;
        else if (root.getInputs()[index] == gte.getResult())
          v = Variance::Invariant;
      } else if (op.getNumResults() == 1 && isMemoryEffectFree(&op) &&
                 !hasControlPredecessors(&op) &&
                 !op.hasAttr("replica_groups")) {
        v = Variance::Invariant;
        for (Value operand : op.getOperands())
          v = std::max(v, of(operand));
      }
      if (op.getNumResults() == 1)
        variance[op.getResult(0)] = v;
    }
  }

  Variance of(Value v) const {
    auto it = variance.find(v);
    return it == variance.end() ? Variance::Variant : it->second;
  }
  /// How many element reads of state element `index` the body and the
  /// condition have.
  unsigned reads(int64_t index) const { return elementReads.lookup(index); }

private:
  DenseMap<int64_t, unsigned> elementReads;
  DenseMap<Value, Variance> variance;
};

struct CollectivePipelinerPass
    : ChangeReportingPass<CollectivePipelinerPass,
                          hlo::impl::HloCollectivePipelinerBase> {
  using ChangeReportingPass::ChangeReportingPass;

  int64_t nextChannel = 0;
  /// How often each computation is named (a body or condition named more
  /// than once is left alone: the rewrite changes its type).
  DenseMap<StringAttr, int64_t> references;

  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    references.clear();
    SmallVector<WhileOp> loops;
    module.walk([&](Operation *op) {
      countSymbolReferences(op, references);
      if (auto w = dyn_cast<WhileOp>(op))
        loops.push_back(w);
    });
    nextChannel = nextChannelId(module);
    for (WhileOp w : loops) {
      Loop loop{w, symbols.lookup<ComputationOp>(w.getCondition()),
                symbols.lookup<ComputationOp>(w.getBody())};
      if (!loop.cond || !loop.body || loop.cond == loop.body ||
          references[loop.cond.getSymNameAttr()] != 1 ||
          references[loop.body.getSymNameAttr()] != 1 || hasControlEdges(w))
        continue;
      pipeline(loop);
    }
  }

  bool selected(Operation *op) const {
    return (reduceScatter && isa<ReduceScatterOp>(op)) ||
           (allReduce && isa<AllReduceOp>(op));
  }

  /// True if `op` was pipelined before (XLA's collective_backend_config).
  static bool isPipelined(Operation *op) {
    BackendConfigAttr config = readBackendConfig(op);
    BackendConfigAttr collective =
        config ? config.getCollectiveBackendConfig() : nullptr;
    return collective && collective.getBool("is_pipelined").value_or(false);
  }

  /// The chain from `op` (a selected collective) to a dynamic-update-slice
  /// of a state element written back at its index, if `op` qualifies.
  std::optional<Candidate> match(Operation *op, Loop &loop,
                                 const BodyInfo &info, TupleOp root) {
    if (op->getNumResults() != 1 || getDataOperands(op).size() != 1 ||
        !isa<RankedTensorType>(op->getResult(0).getType()) ||
        hasControlEdges(op) || isPipelined(op))
      return std::nullopt;
    Candidate c{op, {}, nullptr, -1, {}};
    Value v = op->getResult(0);
    while (!c.dus) {
      OpOperand *use = soleUse(v);
      if (!use)
        return std::nullopt;
      Operation *user = use->getOwner();
      if (auto dus = dyn_cast<DynamicUpdateSliceOp>(user)) {
        if (use->getOperandNumber() != 1)
          return std::nullopt;
        c.dus = dus;
        break;
      }
      if (user->getNumResults() != 1 || !isMemoryEffectFree(user) ||
          isa<TupleOp>(user))
        return std::nullopt;
      for (OpOperand &operand : user->getOpOperands()) {
        if (operand.get() == v)
          continue;
        Variance kind = info.of(operand.get());
        if (kind == Variance::Variant)
          c.variantOperands.push_back({user, operand.getOperandNumber()});
        if (kind == Variance::InductionOnly)
          c.inductionOperands.push_back({user, operand.getOperandNumber()});
      }
      c.chain.push_back(user);
      v = user->getResult(0);
    }
    // The update's buffer: a state element read only here and written
    // back at its own index.
    auto gte = c.dus.getOperand().getDefiningOp<GetTupleElementOp>();
    if (!gte || gte.getOperand() != loop.bodyParam() ||
        !gte.getResult().hasOneUse() || !c.dus.getResult().hasOneUse())
      return std::nullopt;
    c.buffer = gte.getIndex();
    OpOperand &written = *c.dus.getResult().use_begin();
    if (written.getOwner() != root.getOperation() ||
        int64_t(written.getOperandNumber()) != c.buffer)
      return std::nullopt;
    // The update's is its only read (none in the condition either).
    if (info.reads(c.buffer) != 1)
      return std::nullopt;
    // Start indices from the induction variable and constants only.
    unsigned first = c.dus.getStartIndices().getBeginOperandIndex();
    for (auto [i, index] : llvm::enumerate(c.dus.getStartIndices())) {
      Variance kind = info.of(index);
      if (kind == Variance::Variant)
        return std::nullopt;
      if (kind == Variance::InductionOnly)
        c.inductionIndices.push_back(first + i);
    }
    if (c.inductionIndices.empty())
      return std::nullopt;
    return c;
  }

  /// The clone of `op` with a new channel id if it has one (the same new
  /// id for the same old one within `channels`).
  Operation *cloneWithChannel(OpBuilder &b, Operation &op, IRMapping &map,
                              DenseMap<int64_t, int64_t> &channels) {
    Operation *copy = b.clone(op, map);
    countSymbolReferences(copy, references);
    if (auto id = copy->getAttrOfType<IntegerAttr>("channel_id")) {
      auto [it, fresh] = channels.try_emplace(id.getInt(), nextChannel);
      if (fresh)
        ++nextChannel;
      copy->setAttr("channel_id", IntegerAttr::get(id.getType(), it->second));
    }
    return copy;
  }

  void pipeline(Loop &loop) {
    std::optional<CountedLoop> counted = matchCountedLoop(loop);
    auto root =
        dyn_cast_or_null<TupleOp>(loop.body.getRootValue().getDefiningOp());
    if (!counted || counted->trips < 2 || !root ||
        !onlyElementsRead(loop.bodyParam()) ||
        !onlyElementsRead(loop.condParam()))
      return;
    BodyInfo info(loop, counted->index);
    SmallVector<Candidate> candidates;
    llvm::DenseSet<int64_t> buffers;
    for (Operation &op : loop.body.getBody().front())
      if (selected(&op))
        if (std::optional<Candidate> c = match(&op, loop, info, root))
          if (buffers.insert(c->buffer).second)
            candidates.push_back(std::move(*c));
    if (candidates.empty())
      return;
    rewrite(loop, *counted, root, candidates);
    numPipelined += candidates.size();
    changed = true;
  }

  /// Clones, at `b`, what `v` is computed from that `map` does not map
  /// yet, operands before users (an iterative post-order: no block order
  /// is asked of a block being edited); returns `v`'s clone.
  Value cloneSlice(OpBuilder &b, Value v, IRMapping &map,
                   DenseMap<int64_t, int64_t> &channels) {
    llvm::DenseSet<Operation *> seen;
    SmallVector<std::pair<Operation *, unsigned>> stack;
    auto visit = [&](Value x) {
      Operation *def = x.getDefiningOp();
      if (!map.contains(x) && def && seen.insert(def).second)
        stack.push_back({def, 0});
    };
    visit(v);
    while (!stack.empty()) {
      auto &[op, next] = stack.back();
      if (next < op->getNumOperands()) {
        visit(op->getOperand(next++));
        continue;
      }
      cloneWithChannel(b, *op, map, channels);
      stack.pop_back();
    }
    return map.lookup(v);
  }

  void rewrite(Loop &loop, const CountedLoop &counted, TupleOp root,
               ArrayRef<Candidate> candidates) {
    MLIRContext *ctx = &getContext();
    WhileOp w = loop.op;
    auto init = cast<TupleOp>(loop.init().getDefiningOp());
    Value param = loop.bodyParam();
    llvm::DenseSet<Operation *> moved;
    for (const Candidate &c : candidates) {
      moved.insert(c.collective);
      moved.insert(c.chain.begin(), c.chain.end());
      moved.insert(c.dus);
    }
    // The state grows by each collective's operand and its chain's
    // varying operands, carried to the next trip.
    SmallVector<Value> carried;
    for (const Candidate &c : candidates)
      carried.push_back(getDataOperands(c.collective)[0]);
    for (const Candidate &c : candidates)
      for (auto [user, operand] : c.variantOperands)
        carried.push_back(user->getOperand(operand));
    int64_t oldSize = root.getInputs().size();
    SmallVector<Type> types(root.getInputs().getTypes());
    for (Value v : carried)
      types.push_back(v.getType());
    auto stateType = TupleType::get(ctx, types);
    Location loc = derivedLoc(w.getLoc());

    // The first trip, before the loop, without the pipelined instructions:
    // the body's element reads become the init tuple's operands.
    OpBuilder b(w);
    IRMapping peel;
    DenseMap<int64_t, int64_t> channels;
    for (Operation &op : loop.body.getBody().front()) {
      if (auto gte = dyn_cast<GetTupleElementOp>(op);
          gte && gte.getOperand() == param) {
        peel.map(gte.getResult(), init.getInputs()[gte.getIndex()]);
        continue;
      }
      if (moved.contains(&op) || &op == root.getOperation() ||
          op.hasTrait<OpTrait::IsTerminator>())
        continue;
      cloneWithChannel(b, op, peel, channels);
    }
    SmallVector<Value> initValues;
    for (auto [i, v] : llvm::enumerate(root.getInputs()))
      initValues.push_back(llvm::any_of(candidates,
                                        [&](const Candidate &c) {
                                          return c.buffer == int64_t(i);
                                        })
                               ? init.getInputs()[i]
                               : peel.lookup(v));
    for (Value v : carried)
      initValues.push_back(peel.lookup(v));
    Value newInit = InstBuilder(b, loc).create<TupleOp>(stateType, initValues);

    // The body: the pipelined collectives reduce the previous trip's
    // operands, and the updates' start indices are computed from the
    // induction variable's previous value (i - step), as the thunks'
    // dynamic copies can follow.
    param.setType(stateType);
    loop.condParam().setType(stateType);
    loop.body.setFunctionType(FunctionType::get(ctx, {stateType}, {stateType}));
    loop.body.removeArgAttrsAttr();
    loop.cond.setFunctionType(FunctionType::get(
        ctx, {stateType}, loop.cond.getFunctionType().getResults()));
    loop.cond.removeArgAttrsAttr();
    OpBuilder inBody = OpBuilder::atBlockBegin(&loop.body.getBody().front());
    InstBuilder ib(inBody, loc);
    Value induction = ib.getTupleElement(param, counted.index);
    Value previous = ib.create<SubtractOp>(
        induction.getType(),
        {induction,
         ib.scalar(getElementTypeOrSelf(induction.getType()), counted.step)});
    IRMapping back;
    for (Operation *user : param.getUsers())
      if (cast<GetTupleElementOp>(user).getIndex() == uint64_t(counted.index))
        back.map(user->getResult(0), previous);
    int64_t nextCarried = oldSize + candidates.size();
    for (auto [i, c] : llvm::enumerate(candidates)) {
      c.collective->setOperand(0, ib.getTupleElement(param, oldSize + i));
      for (auto [user, operand] : c.variantOperands)
        user->setOperand(operand, ib.getTupleElement(param, nextCarried++));
      OpBuilder atUpdate(c.dus);
      for (unsigned operand : c.inductionIndices)
        c.dus->setOperand(
            operand,
            cloneSlice(atUpdate, c.dus->getOperand(operand), back, channels));
      for (auto [user, operand] : c.inductionOperands) {
        OpBuilder atUser(user);
        user->setOperand(operand, cloneSlice(atUser, user->getOperand(operand),
                                             back, channels));
      }
      markPipelined(c.collective);
    }
    SmallVector<Value> results(root.getInputs());
    results.append(carried);
    OpBuilder atRoot(root);
    Value newRoot =
        InstBuilder(atRoot, root.getLoc()).create<TupleOp>(stateType, results);
    root.getResult().replaceAllUsesWith(newRoot);
    root.erase();

    // The loop, one trip shorter; its trip count is recomputed later, and
    // a tuple sharding of the old state does not fit the new one.
    SmallVector<NamedAttribute> attrs;
    for (NamedAttribute attr : w->getAttrs())
      if (attr.getName() != "backend_config" && attr.getName() != "sharding")
        attrs.push_back(attr);
    auto newLoop = cast<WhileOp>(
        createInstruction(b, w.getLoc(), WhileOp::getOperationName(), stateType,
                          {newInit}, attrs));

    // After the loop, the last trip's collectives, chains and updates, with
    // what they read made again outside the body.
    b.setInsertionPointAfter(newLoop);
    InstBuilder afterLoop(b, loc);
    SmallVector<Value> finals;
    for (int64_t i = 0; i < int64_t(stateType.size()); ++i)
      finals.push_back(afterLoop.getTupleElement(newLoop.getResult(), i));
    IRMapping after;
    for (Operation *user : param.getUsers())
      after.map(user->getResult(0),
                finals[cast<GetTupleElementOp>(user).getIndex()]);
    DenseMap<int64_t, int64_t> lastChannels;
    for (const Candidate &c : candidates)
      finals[c.buffer] =
          cloneSlice(b, c.dus->getResult(0), after, lastChannels);
    finals.resize(oldSize);
    Value state = afterLoop.create<TupleOp>(w.getType(), finals);
    w.getResult().replaceAllUsesWith(state);
    w.erase();
    if (init->use_empty())
      init.erase();
  }

  /// Marks `op` pipelined in its collective_backend_config.
  static void markPipelined(Operation *op) {
    MLIRContext *ctx = op->getContext();
    Builder b(ctx);
    BackendConfigAttr config = readBackendConfig(op);
    if (op->hasAttr("backend_config") &&
        (!config || config.getMessage() != BackendConfigMessage::Root))
      return; // a config of another kind stays as it is
    if (!config)
      config = BackendConfigAttr::get(
          ctx, BackendConfigMessage::Root,
          {b.getNamedAttr("operation_queue_id", b.getI64IntegerAttr(0))});
    BackendConfigAttr collective = config.getCollectiveBackendConfig();
    if (!collective)
      collective = BackendConfigAttr::get(
          ctx, BackendConfigMessage::CollectiveBackendConfig, {});
    op->setAttr("backend_config",
                config.withMember("collective_backend_config",
                                  collective.withMember("is_pipelined",
                                                        b.getBoolAttr(true))));
  }
};

} // namespace
