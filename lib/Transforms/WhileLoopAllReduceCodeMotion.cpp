//===- WhileLoopAllReduceCodeMotion.cpp - sum first, reduce once ----------===//
//
// XLA's WhileLoopAllReduceCodeMotion (accumulation form, all-reduces): a
// loop that sums an all-reduce into a loop-carried buffer every iteration
// sums the unreduced values instead, from a zero buffer, and reduces once
// after the loop:
//
//   a = init; while (...) { a += all-reduce(b) }
// ->
//   d = 0;    while (...) { d += b };  a = init + all-reduce(d)
//
// Between the all-reduce and the add there may be converts, bitcasts,
// reshapes, transposes, slices and selects against zero (all commute with
// the sum); the buffer is a loop state element read through
// get-tuple-element (converts, bitcasts, reshapes, transposes, and a
// dynamic-slice the add's result goes back through with a dynamic-update-
// slice at the same indices) and written back at its own index. Checks
// (XLA's, plus the ones marked "here"): the reduction is a sum of a
// numeric type, the buffer has no other use in the body (nor, here, in the
// condition), the indices of the dynamic slices and the selects'
// predicates (here) are the same on every device of a group.
//
// And XLA's dynamic-update-slice form: an all-reduce whose result (through
// reshapes and bitcasts) a counted loop writes with a dynamic-update-slice
// into a state element, at the induction variable along one dimension and
// constants along the others, each trip the next rows:
//
//   while (...) { buf = dus(buf, all-reduce(b), i, c...) }
// ->
//   while (...) { buf = dus(buf, b, i, c...) }
//   buf = dus(buf, all-reduce(slice(buf, rows written)), first row, c...)
//
// Each element of those rows is written once, so reducing them once after
// the loop gives what the loop's reductions gave (any reduction). With
// constants along every dimension, each trip rewrites the same rows and the
// last trip's value stays (the loop runs at least once). The element must
// be read nowhere else in the body or the condition.
//
//===----------------------------------------------------------------------===//

#include "CollectiveCombinerUtils.h"
#include "CollectiveOptUtils.h"
#include "ExpanderUtils.h"
#include "Hlo/Analysis/HloReplicationAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopAnalysis.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOWHILELOOPALLREDUCECODEMOTION
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// A zero: a rank-0 constant 0, or broadcasts of one (XLA's test).
static bool isZero(Value v) {
  while (auto bcast = v.getDefiningOp<BroadcastOp>())
    v = bcast.getOperand();
  auto constant = v.getDefiningOp<ConstantOp>();
  auto literal =
      constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
  if (!literal || !literal.isSplat() ||
      cast<ShapedType>(literal.getType()).getRank() != 0)
    return false;
  if (auto f = dyn_cast<DenseFPElementsAttr>(literal))
    return f.getSplatValue<APFloat>().isZero();
  if (auto i = dyn_cast<DenseIntElementsAttr>(literal))
    return i.getSplatValue<APInt>().isZero();
  return false;
}

/// A select between `tracked` and zero: the predicate, else null.
static Value selectAgainstZero(SelectOp select, Value tracked) {
  if ((select.getOnTrue() == tracked && isZero(select.getOnFalse())) ||
      (select.getOnFalse() == tracked && isZero(select.getOnTrue())))
    return select.getPred();
  return nullptr;
}

static bool isSummable(Type element) {
  if (auto i = dyn_cast<IntegerType>(element))
    return i.getWidth() >= 8;
  return element.isBF16() || element.isF16() || element.isF32() ||
         element.isF64();
}

namespace {
/// `add(<all-reduce path>, buffer)` writing the loop state element
/// `index` back, with the dynamic-slice and dynamic-update-slice between.
struct Accumulation {
  Operation *add;
  int64_t index;
  DynamicSliceOp ds;
  DynamicUpdateSliceOp dus;
};

/// An all-reduce whose rows a counted loop writes into state element
/// `index`: the written region's start and sizes.
struct SliceWrite {
  AllReduceOp ar;
  int64_t index;
  SmallVector<int64_t> start, sizes;
};

struct WhileLoopAllReduceCodeMotionPass
    : ChangeReportingPass<WhileLoopAllReduceCodeMotionPass,
                          hlo::impl::HloWhileLoopAllReduceCodeMotionBase> {
  int64_t numReplicas = 1, numPartitions = 1;
  /// The analyses of this run (none where the mode has one device).
  const HloReplicationAnalysis *acrossReplicas = nullptr;
  const HloReplicationAnalysis *acrossPartitions = nullptr;

  void run() {
    ModuleOp module = getOperation();
    std::tie(numReplicas, numPartitions) = getDeviceCounts(module);
    SymbolTable symbols(module);
    // The loops of each body, and how often each computation is named.
    DenseMap<Operation *, SmallVector<WhileOp>> loops;
    DenseMap<StringAttr, int64_t> references;
    module.walk([&](Operation *op) {
      countSymbolReferences(op, references);
      if (auto w = dyn_cast<WhileOp>(op))
        if (auto body = symbols.lookup<ComputationOp>(w.getBody()))
          loops[body].push_back(w);
    });
    if (loops.empty() || hasConstrainedLayout<AllReduceOp>(module))
      return;
    std::optional<HloReplicationAnalysis> replicas, partitions;
    if (numReplicas > 1)
      acrossReplicas = &replicas.emplace(module, /*crossPartition=*/false);
    if (numPartitions > 1)
      acrossPartitions = &partitions.emplace(module, /*crossPartition=*/true);
    int64_t channel = nextChannelId(module);
    // Inner loops first: what moves out of an inner body may move on.
    for (ComputationOp body : calleesFirst(module, symbols)) {
      auto it = loops.find(body.getOperation());
      if (it == loops.end() ||
          references[body.getSymNameAttr()] != int64_t(it->second.size()))
        continue;
      moveOut(body, it->second, symbols, channel);
    }
    acrossReplicas = acrossPartitions = nullptr;
  }

  /// True if `v` is the same on every device of each group of `ar`
  /// (XLA's check by group mode; a count of one needs no analysis).
  bool sameInGroups(Value v, AllReduceOp ar) const {
    bool channel = ar.getChannelId().has_value();
    bool global = ar.getUseGlobalDeviceIds().value_or(false);
    auto replicated = [&](const HloReplicationAnalysis *a) {
      return !a || a->isReplicated(v);
    };
    if (!channel)
      return replicated(acrossReplicas);
    if (!global || (numReplicas > 1 && numPartitions > 1))
      return replicated(acrossReplicas) && replicated(acrossPartitions);
    return numReplicas == 1 ? replicated(acrossPartitions)
                            : replicated(acrossReplicas);
  }

  /// The accumulations `ar`'s result flows into, if that is all it does.
  std::optional<SmallVector<Accumulation>>
  accumulations(AllReduceOp ar, ComputationOp body, SymbolTable &symbols) {
    auto type = dyn_cast<RankedTensorType>(ar.getResult().getType());
    if (ar.getInputs().size() != 1 || !type || hasControlEdges(ar) ||
        !isSummable(type.getElementType()))
      return std::nullopt;
    std::optional<std::string> kind =
        reductionKind(symbols, ar.getToApplyAttr());
    if (!kind || !StringRef(*kind).starts_with(AddOp::getOperationName()))
      return std::nullopt;
    SmallVector<Accumulation> result;
    SmallVector<Value> work = {ar.getResult()};
    llvm::DenseSet<Value> seen;
    while (!work.empty()) {
      Value v = work.pop_back_val();
      for (Operation *user : v.getUsers()) {
        Value next;
        if (isa<ConvertOp, BitcastOp, ReshapeOp, TransposeOp, SliceOp>(user)) {
          next = user->getResult(0);
        } else if (auto select = dyn_cast<SelectOp>(user)) {
          Value pred = selectAgainstZero(select, v);
          if (!pred || !sameInGroups(pred, ar))
            return std::nullopt;
          next = select.getResult();
        } else if (isa<AddOp>(user) && !hasControlEdges(user)) {
          Value buffer = user->getOperand(0) == v ? user->getOperand(1)
                                                  : user->getOperand(0);
          std::optional<Accumulation> acc =
              accumulation(user, buffer, body, ar);
          if (!acc)
            return std::nullopt;
          result.push_back(*acc);
          continue;
        } else {
          return std::nullopt;
        }
        if (seen.insert(next).second)
          work.push_back(next);
      }
    }
    if (result.empty())
      return std::nullopt;
    for (const Accumulation &acc : result)
      if (bufferUsedElsewhere(acc, body, ar))
        return std::nullopt;
    return result;
  }

  /// `add` as an accumulation into `buffer`, a loop state element the
  /// add's result is written back to at the same index.
  std::optional<Accumulation> accumulation(Operation *add, Value buffer,
                                           ComputationOp body, AllReduceOp ar) {
    Accumulation acc{add, -1, nullptr, nullptr};
    // Back from the buffer to the body's parameter.
    while (!(isa<BlockArgument>(buffer) && buffer == body.getArgument(0))) {
      Operation *def = buffer.getDefiningOp();
      if (isa_and_nonnull<BitcastOp, ConvertOp, ReshapeOp, TransposeOp>(def)) {
        buffer = def->getOperand(0);
      } else if (auto gte = dyn_cast_or_null<GetTupleElementOp>(def)) {
        if (acc.index != -1)
          return std::nullopt;
        acc.index = gte.getIndex();
        buffer = gte.getOperand();
      } else if (auto ds = dyn_cast_or_null<DynamicSliceOp>(def)) {
        if (acc.ds)
          return std::nullopt;
        acc.ds = ds;
        buffer = ds.getOperand();
      } else {
        return std::nullopt;
      }
    }
    // Forward from the add to the body's root tuple.
    Operation *root = body.getRootValue().getDefiningOp();
    int64_t written = -1;
    SmallVector<Value> work = {add->getResult(0)};
    while (!work.empty()) {
      Value v = work.pop_back_val();
      for (OpOperand &use : v.getUses()) {
        Operation *user = use.getOwner();
        if (isa<BitcastOp, ConvertOp, ReshapeOp, GetTupleElementOp, TransposeOp,
                SliceOp>(user)) {
          work.push_back(user->getResult(0));
        } else if (auto dus = dyn_cast<DynamicUpdateSliceOp>(user)) {
          if (acc.dus || use.getOperandNumber() != 1)
            return std::nullopt;
          acc.dus = dus;
          work.push_back(dus.getResult());
        } else if (user == root && isa<TupleOp>(user) && written == -1) {
          written = use.getOperandNumber();
        } else {
          return std::nullopt;
        }
      }
    }
    if (acc.index == -1 || written != acc.index || !acc.ds != !acc.dus)
      return std::nullopt;
    if (acc.ds) {
      if (acc.dus.getOperand() != acc.ds.getOperand() ||
          !llvm::equal(acc.dus.getStartIndices(), acc.ds.getStartIndices()))
        return std::nullopt;
      for (Value index : acc.dus.getStartIndices())
        if (!sameInGroups(index, ar))
          return std::nullopt;
    }
    return acc;
  }

  /// True if the body reads state element `acc.index` other than through
  /// `acc`'s chain, or the body's parameter other than element by element.
  bool bufferUsedElsewhere(const Accumulation &acc, ComputationOp body,
                           AllReduceOp ar) {
    SmallVector<Value> work;
    for (Operation *user : body.getArgument(0).getUsers()) {
      auto gte = dyn_cast<GetTupleElementOp>(user);
      if (!gte)
        return true;
      if (int64_t(gte.getIndex()) == acc.index)
        work.push_back(gte.getResult());
    }
    while (!work.empty()) {
      Value v = work.pop_back_val();
      for (Operation *user : v.getUsers()) {
        if (isa<BitcastOp, ConvertOp, ReshapeOp, TransposeOp>(user) ||
            user == acc.ds) {
          work.push_back(user->getResult(0));
        } else if (auto select = dyn_cast<SelectOp>(user)) {
          Value pred = selectAgainstZero(select, v);
          if (!pred || !sameInGroups(pred, ar))
            return true;
          work.push_back(select.getResult());
        } else if (user != acc.add && user != acc.dus) {
          return true;
        }
      }
    }
    return false;
  }

  /// `ar` in XLA's dynamic-update-slice form, in `loop` counted by
  /// `counted`; `reads` counts the element reads of each state element in
  /// the body and the condition.
  std::optional<SliceWrite>
  sliceWrite(AllReduceOp ar, Loop &loop, const CountedLoop &counted,
             const DenseMap<int64_t, unsigned> &reads) {
    if (ar.getInputs().size() != 1 || hasControlEdges(ar) ||
        !isStaticArray(ar.getResult().getType()))
      return std::nullopt;
    Value v = ar.getResult();
    DynamicUpdateSliceOp dus;
    while (!dus) {
      OpOperand *use = soleUse(v);
      if (!use)
        return std::nullopt;
      Operation *user = use->getOwner();
      dus = dyn_cast<DynamicUpdateSliceOp>(user);
      if (dus && use->getOperandNumber() != 1)
        return std::nullopt;
      if (!dus && !isa<ReshapeOp, BitcastOp>(user))
        return std::nullopt;
      v = user->getResult(0);
    }
    // The buffer: a state element read only here, written back in place.
    Value param = loop.bodyParam();
    auto gte = dus.getOperand().getDefiningOp<GetTupleElementOp>();
    auto root = loop.body.getRootValue().getDefiningOp<TupleOp>();
    if (!gte || gte.getOperand() != param || !root ||
        !gte.getResult().hasOneUse() || !dus.getResult().hasOneUse() ||
        *dus.getResult().getUsers().begin() != root.getOperation() ||
        dus.getResult().use_begin()->getOperandNumber() != gte.getIndex() ||
        !isStaticArray(dus.getType()))
      return std::nullopt;
    SliceWrite w{ar, int64_t(gte.getIndex()), {}, {}};
    if (reads.lookup(w.index) != 1)
      return std::nullopt;
    // The induction variable along at most one dimension, whose trips
    // write consecutive rows inside the buffer; constants elsewhere.
    ArrayRef<int64_t> shape = cast<RankedTensorType>(dus.getType()).getShape();
    ArrayRef<int64_t> update =
        cast<RankedTensorType>(dus.getUpdate().getType()).getShape();
    int64_t along = -1;
    for (auto [d, index] : llvm::enumerate(dus.getStartIndices())) {
      if (elementIndex(index, param) == counted.index) {
        if (along != -1)
          return std::nullopt;
        along = d;
        w.start.push_back(counted.init);
        w.sizes.push_back(counted.trips * counted.step);
        continue;
      }
      bool isSigned = false;
      std::optional<APInt> c = integerConstant(index, isSigned);
      if (!c)
        return std::nullopt;
      int64_t value = isSigned ? c->getSExtValue() : int64_t(c->getZExtValue());
      if (value < 0 || value + update[d] > shape[d])
        return std::nullopt;
      w.start.push_back(value);
      w.sizes.push_back(update[d]);
    }
    // Without the induction variable every trip writes the same rows and
    // the last trip's value stays (XLA 0.10.2 moves that form too).
    if (counted.trips < 1 ||
        (along != -1 && (counted.step != update[along] || counted.init < 0 ||
                         w.start[along] + w.sizes[along] > shape[along])))
      return std::nullopt;
    return w;
  }

  /// The loop writes the unreduced rows; after it, they are reduced once
  /// and written back.
  void rewriteSliceWrite(WhileOp w, SliceWrite write, int64_t &channel) {
    for (Operation *user : w.getResult().getUsers())
      if (!isa<GetTupleElementOp>(user))
        return;
    OpBuilder b(w->getContext());
    b.setInsertionPointAfter(w);
    ExpansionBuilder eb(b, derivedLoc(w.getLoc()));
    auto type = cast<TupleType>(w.getResult().getType()).getType(write.index);
    Value buffer =
        eb.create(GetTupleElementOp::getOperationName(), type, {w.getResult()},
                  {b.getNamedAttr("index", b.getI64IntegerAttr(write.index))});
    SmallVector<int64_t> limit, strides(write.start.size(), 1);
    for (auto [s, n] : llvm::zip(write.start, write.sizes))
      limit.push_back(s + n);
    Type regionType =
        RankedTensorType::get(write.sizes, getElementTypeOrSelf(type));
    Value region = eb.create(
        SliceOp::getOperationName(), regionType, {buffer},
        {b.getNamedAttr("slice", SliceAttr::get(b.getContext(), write.start,
                                                limit, strides))});
    auto sum = cast<AllReduceOp>(b.clone(*write.ar));
    sum.getInputsMutable().assign(region);
    sum.getResult().setType(regionType);
    if (write.ar.getChannelId())
      sum.setChannelId(channel++);
    SmallVector<Value> starts;
    for (int64_t s : write.start)
      starts.push_back(eb.splat(RankedTensorType::get({}, b.getI64Type()),
                                b.getI64IntegerAttr(s)));
    SmallVector<Value> operands = {buffer, sum.getResult()};
    operands.append(starts);
    Value written =
        eb.create(DynamicUpdateSliceOp::getOperationName(), type, operands);
    for (Operation *user : llvm::to_vector(w.getResult().getUsers()))
      if (user != buffer.getDefiningOp() &&
          cast<GetTupleElementOp>(user).getIndex() == uint64_t(write.index))
        user->getResult(0).replaceAllUsesWith(written);
    write.ar.getResult().replaceAllUsesWith(write.ar.getInputs()[0]);
    write.ar.erase();
    ++numMoved;
    changed = true;
  }

  void moveOut(ComputationOp body, ArrayRef<WhileOp> whiles,
               SymbolTable &symbols, int64_t &channel) {
    moveAccumulations(body, whiles, symbols, channel);
    moveSliceWrites(body, whiles, symbols, channel);
  }

  void moveAccumulations(ComputationOp body, ArrayRef<WhileOp> whiles,
                         SymbolTable &symbols, int64_t &channel) {
    SmallVector<std::pair<AllReduceOp, SmallVector<Accumulation>>> moved;
    DenseMap<int64_t, AllReduceOp> byIndex;
    for (auto ar : body.getBody().getOps<AllReduceOp>())
      if (std::optional<SmallVector<Accumulation>> accs =
              accumulations(ar, body, symbols)) {
        bool clash = false;
        for (const Accumulation &acc : *accs)
          clash |= !byIndex.try_emplace(acc.index, ar).second;
        if (!clash)
          moved.push_back({ar, std::move(*accs)});
      }
    if (moved.empty())
      return;
    // Every loop must start from a tuple whose accumulated elements the
    // condition does not read.
    for (WhileOp w : whiles) {
      auto cond = symbols.lookup<ComputationOp>(w.getCondition());
      if (!w.getOperand().getDefiningOp<TupleOp>() || !cond ||
          cond.getNumArguments() != 1)
        return;
      for (Operation *user : cond.getArgument(0).getUsers()) {
        auto gte = dyn_cast<GetTupleElementOp>(user);
        if (!gte || byIndex.count(gte.getIndex()))
          return;
      }
    }
    for (WhileOp w : whiles)
      rewriteLoop(w, byIndex, channel);
    for (auto &[ar, accs] : moved) {
      ar.getResult().replaceAllUsesWith(ar.getInputs()[0]);
      ar.erase();
      ++numMoved;
    }
    changed = true;
  }

  /// The dynamic-update-slice form, in a body one loop runs.
  void moveSliceWrites(ComputationOp body, ArrayRef<WhileOp> whiles,
                       SymbolTable &symbols, int64_t &channel) {
    if (whiles.size() != 1)
      return;
    WhileOp w = whiles.front();
    if (hasControlEdges(w))
      return;
    Loop loop{w, symbols.lookup<ComputationOp>(w.getCondition()), body};
    if (!loop.cond || loop.cond.getNumArguments() != 1 ||
        body.getNumArguments() != 1 || !onlyElementsRead(loop.bodyParam()) ||
        !onlyElementsRead(loop.condParam()))
      return;
    std::optional<CountedLoop> counted = matchCountedLoop(loop);
    if (!counted)
      return;
    DenseMap<int64_t, unsigned> reads = countElementReads(loop);
    SmallVector<SliceWrite> writes;
    for (auto ar : body.getBody().getOps<AllReduceOp>())
      if (std::optional<SliceWrite> write =
              sliceWrite(ar, loop, *counted, reads))
        writes.push_back(std::move(*write));
    for (const SliceWrite &write : writes)
      rewriteSliceWrite(loop.op, write, channel);
  }

  /// The loop starts its accumulated elements from zero; after it, each
  /// is reduced once and added to what the loop started from.
  void rewriteLoop(WhileOp w, const DenseMap<int64_t, AllReduceOp> &byIndex,
                   int64_t &channel) {
    auto init = w.getOperand().getDefiningOp<TupleOp>();
    auto stateType = cast<TupleType>(w.getResult().getType());
    OpBuilder b(w);
    ExpansionBuilder eb(b, derivedLoc(w.getLoc()));
    SmallVector<Value> operands(init.getInputs());
    SmallVector<Value> started(operands);
    for (auto &[index, ar] : byIndex) {
      Type type = operands[index].getType();
      operands[index] =
          eb.splat(type, b.getZeroAttr(getElementTypeOrSelf(type)));
    }
    w->setOperand(
        0, eb.create(TupleOp::getOperationName(), init.getType(), operands));

    b.setInsertionPointAfter(w);
    llvm::SmallPtrSet<Operation *, 8> readers;
    SmallVector<Value> results;
    for (auto [index, type] : llvm::enumerate(stateType.getTypes())) {
      Value element = eb.create(
          GetTupleElementOp::getOperationName(), type, {w.getResult()},
          {b.getNamedAttr("index", b.getI64IntegerAttr(index))});
      readers.insert(element.getDefiningOp());
      auto it = byIndex.find(index);
      if (it == byIndex.end()) {
        results.push_back(element);
        continue;
      }
      AllReduceOp ar = it->second;
      Type reduced = getElementTypeOrSelf(ar.getResult().getType());
      Type own = getElementTypeOrSelf(type);
      if (reduced != own)
        element = eb.create(ConvertOp::getOperationName(),
                            eb.withElementType(type, reduced), {element});
      auto sum = cast<AllReduceOp>(b.clone(*ar));
      sum.getInputsMutable().assign(element);
      sum.getResult().setType(element.getType());
      if (ar.getChannelId())
        sum.setChannelId(channel++);
      Value delta = sum.getResult();
      if (reduced != own)
        delta = eb.create(ConvertOp::getOperationName(), type, {delta});
      results.push_back(eb.elementwise<AddOp>({started[index], delta}));
    }
    Value state = eb.create(TupleOp::getOperationName(), stateType, results);
    w.getResult().replaceAllUsesExcept(state, readers);
    if (init->use_empty())
      init.erase();
  }
};
} // namespace
