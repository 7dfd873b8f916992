//===- HloDataflowAnalysis.cpp - HLO values and their positions -----------===//
//
// Values are found in two steps: every position gets a slot (one per node
// of every SSA value's shape tree, numbered so that a subtree is a run of
// consecutive slots), the instructions that define data put a fresh value
// in their slots, and forwarding is propagated to a fixed point (value sets
// only grow; a while loop needs a second sweep to see its body root).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/HloDataflowAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::hlo;

/// Pre-order node counts of types and the first node of each tuple
/// element, computed once per type: a wide tuple (thousands of elements)
/// is read by as many get-tuple-elements.
struct HloDataflowAnalysis::ShapeNodes {
  unsigned count(Type type) {
    auto tuple = dyn_cast<TupleType>(type);
    if (!tuple)
      return 1;
    ArrayRef<unsigned> nodes = children(tuple);
    return nodes.empty() ? 1 : nodes.back() + count(tuple.getTypes().back());
  }
  /// The first node of each element of a tuple type (relative to the
  /// tuple's node 0); empty for other types.
  ArrayRef<unsigned> children(Type type) {
    auto tuple = dyn_cast<TupleType>(type);
    if (!tuple)
      return {};
    auto it = cache.find(tuple);
    if (it != cache.end())
      return it->second;
    SmallVector<unsigned> nodes;
    unsigned next = 1;
    for (Type element : tuple.getTypes()) {
      nodes.push_back(next);
      next += count(element); // may add to the cache
    }
    return cache[tuple] = std::move(nodes);
  }
  llvm::DenseMap<Type, SmallVector<unsigned>> cache;
};

HloDataflowAnalysis::~HloDataflowAnalysis() = default;

int64_t HloDataflowAnalysis::getNode(Type type, ArrayRef<int64_t> index) {
  int64_t node = 0;
  for (int64_t i : index) {
    auto tuple = dyn_cast<TupleType>(type);
    if (!tuple || i < 0 || i >= int64_t(tuple.size()))
      return -1;
    node += 1;
    for (int64_t j = 0; j < i; ++j)
      node += getNumSubshapes(tuple.getType(j));
    type = tuple.getType(i);
  }
  return node;
}

namespace {
/// A run of nodes of an instruction's result that holds what a source
/// position holds: nodes [dst, dst + size) get the values of `src`'s nodes
/// [srcNode, srcNode + size).
struct Forward {
  unsigned dst;
  Value src;
  unsigned srcNode;
  unsigned size;
};
} // namespace

/// What `op` forwards from its operands (empty: it defines every node).
static SmallVector<Forward>
getForwards(Operation *op, HloDataflowAnalysis::ShapeNodes &nodes) {
  SmallVector<Forward> fw;
  auto iface = dyn_cast<InstructionOpInterface>(op);
  if (!iface || op->getNumResults() != 1)
    return fw;
  OperandRange data = iface.getDataOperands();
  Type result = op->getResult(0).getType();
  auto whole = [&](Value src, unsigned srcNode = 0) {
    fw.push_back({0, src, srcNode, nodes.count(result)});
  };
  auto child = [&](Type of, unsigned i) { return nodes.children(of)[i]; };
  // Operand(s) forwarded into element {0} of the result: the operand itself
  // or, with several operands, element {0, i} for operand i.
  auto intoElementZero = [&](ValueRange operands) {
    Type zero = getSubshape(result, {0});
    if (!zero)
      return;
    unsigned base = child(result, 0);
    if (operands.size() == 1 && operands[0].getType() == zero) {
      fw.push_back({base, operands[0], 0, nodes.count(zero)});
      return;
    }
    auto tuple = dyn_cast<TupleType>(zero);
    if (!tuple || tuple.size() != operands.size())
      return;
    ArrayRef<unsigned> elements = nodes.children(zero);
    for (auto [i, v] : llvm::enumerate(operands))
      fw.push_back({base + elements[i], v, 0, nodes.count(v.getType())});
  };
  if (isa<TupleOp>(op)) {
    ArrayRef<unsigned> elements = nodes.children(result);
    for (auto [i, v] : llvm::enumerate(data))
      fw.push_back({elements[i], v, 0, nodes.count(v.getType())});
  } else if (auto gte = dyn_cast<GetTupleElementOp>(op)) {
    Value tuple = data[0];
    whole(tuple, child(tuple.getType(), gte.getIndex()));
  } else if (isa<BitcastOp, AddDependencyOp, OptimizationBarrierOp, DomainOp,
                 AllReduceDoneOp, AsyncUpdateOp>(op)) {
    whole(data[0]);
  } else if (isa<CopyStartOp>(op)) {
    if (Type src = getSubshape(result, {1}))
      fw.push_back({child(result, 1), data[0], 0, nodes.count(src)});
  } else if (isa<CopyDoneOp, RecvDoneOp>(op)) {
    // copy-done: the destination {0} of its copy-start; recv-done: the
    // data {0} of its recv, next to a token it defines.
    Type start = data[0].getType();
    if (isa<CopyDoneOp>(op))
      whole(data[0], child(start, 0));
    else if (Type d = getSubshape(start, {0}))
      fw.push_back(
          {child(result, 0), data[0], child(start, 0), nodes.count(d)});
  } else if (isa<AsyncDoneOp, AllGatherDoneOp, CollectivePermuteDoneOp>(op)) {
    if (getSubshape(data[0].getType(), {1}))
      whole(data[0], child(data[0].getType(), 1));
  } else if (isa<AsyncStartOp, AllGatherStartOp>(op) ||
             (isa<CollectivePermuteStartOp>(op) &&
              !isInPlacePermute(data.getTypes()))) {
    intoElementZero(data);
  } else if (isa<CollectivePermuteStartOp, SendOp>(op)) {
    intoElementZero(data.take_front(1));
  }
  return fw;
}

HloDataflowAnalysis::HloDataflowAnalysis(ModuleOp module)
    : shapeNodes(std::make_unique<ShapeNodes>()) {
  collectComputations(module);
  if (!entry)
    return;
  assignSlots();
  defineValues();
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation *comp : computations)
      changed |= propagate(comp);
  }
  computePositionsAndUses();
}

ComputationOp HloDataflowAnalysis::getEntry() const {
  return cast_or_null<ComputationOp>(entry);
}

/// The computations a while (body, then condition), conditional (branches
/// in order) or call runs; none for other ops.
static SmallVector<FlatSymbolRefAttr, 2> sequentialCallees(Operation *op) {
  if (auto w = dyn_cast<WhileOp>(op))
    return {w.getBodyAttr(), w.getConditionAttr()};
  if (auto c = dyn_cast<ConditionalOp>(op))
    return SmallVector<FlatSymbolRefAttr, 2>(c.getBranches());
  if (auto call = dyn_cast<CallOp>(op))
    return {call.getToApplyAttr()};
  return {};
}

void HloDataflowAnalysis::collectComputations(ModuleOp module) {
  for (auto comp : module.getOps<ComputationOp>())
    if (comp.getEntry() && !comp.getBody().empty())
      entry = comp;
  if (!entry)
    return;
  symbols = std::make_unique<SymbolTable>(module);
  auto reach = [&](Operation *caller, FlatSymbolRefAttr name) {
    auto callee = symbols->lookup<ComputationOp>(name.getValue());
    if (!callee || callee.getBody().empty() || callee == entry)
      return;
    callers[callee].push_back(caller);
    if (sequential.try_emplace(callee, computations.size()).second)
      computations.push_back(callee);
  };
  sequential[entry] = 0;
  computations.push_back(entry);
  for (size_t i = 0; i < computations.size(); ++i)
    for (Operation &op : cast<ComputationOp>(computations[i]).getOps())
      for (FlatSymbolRefAttr name : sequentialCallees(&op))
        reach(&op, name);
}

SmallVector<Operation *, 2>
HloDataflowAnalysis::getCallees(Operation *op) const {
  SmallVector<Operation *, 2> callees;
  for (FlatSymbolRefAttr name : sequentialCallees(op))
    if (Operation *callee =
            symbols ? symbols->lookup(name.getValue()) : nullptr;
        callee && sequential.contains(callee))
      callees.push_back(callee);
  return callees;
}

void HloDataflowAnalysis::assignSlots() {
  auto add = [&](Value v) {
    firstSlot[v] = slots.size();
    slots.resize(slots.size() + getNumNodes(v));
  };
  for (Operation *comp : computations) {
    Block &body = cast<ComputationOp>(comp).getBody().front();
    for (BlockArgument arg : body.getArguments())
      add(arg);
    for (Operation &op : body.without_terminator())
      for (Value r : op.getResults())
        add(r);
  }
}

void HloDataflowAnalysis::defineValues() {
  auto define = [&](Value v, unsigned node) {
    unsigned id = values.size();
    HloValue &value = values.emplace_back();
    value.id = id;
    value.defined = {v, node};
    Type type = v.getType();
    forEachSubshape(type,
                    [&, n = 0u](Type sub, ArrayRef<int64_t> index) mutable {
                      if (n++ == node) {
                        value.type = sub;
                        value.index.assign(index.begin(), index.end());
                      }
                    });
    slots[firstSlot[v] + node] = {id};
    defined[{v, node}] = id;
  };
  for (BlockArgument arg : cast<ComputationOp>(entry).getArguments())
    for (unsigned n = 0, e = getNumNodes(arg); n < e; ++n)
      define(arg, n);
  for (Operation *comp : computations) {
    for (Operation &op : cast<ComputationOp>(comp).getOps()) {
      if (op.getNumResults() != 1 || isa<WhileOp, ConditionalOp, CallOp>(op))
        continue;
      Value r = op.getResult(0);
      SmallVector<bool> forwarded(getNumNodes(r), false);
      for (const Forward &f : getForwards(&op, *shapeNodes))
        std::fill_n(forwarded.begin() + f.dst, f.size, true);
      for (auto [n, isForwarded] : llvm::enumerate(forwarded))
        if (!isForwarded)
          define(r, n);
    }
  }
}

ArrayRef<HloDataflowAnalysis::ValueSet>
HloDataflowAnalysis::sets(Value v, unsigned node) const {
  auto it = firstSlot.find(v);
  if (it == firstSlot.end())
    return {};
  unsigned n = getNumNodes(v);
  return ArrayRef<ValueSet>(slots).slice(it->second + node, n - node);
}

/// Unions `src[i]` into the sets of (dst, dstNode + i).
bool HloDataflowAnalysis::assign(Value dst, unsigned dstNode,
                                 ArrayRef<ValueSet> src) {
  auto it = firstSlot.find(dst);
  if (it == firstSlot.end())
    return false;
  bool changed = false;
  unsigned limit = getNumNodes(dst);
  for (auto [i, from] : llvm::enumerate(src)) {
    if (dstNode + i >= limit)
      break;
    ValueSet &to = slots[it->second + dstNode + i];
    if (llvm::all_of(from, [&](unsigned id) {
          return std::binary_search(to.begin(), to.end(), id);
        }))
      continue;
    ValueSet merged;
    std::set_union(to.begin(), to.end(), from.begin(), from.end(),
                   std::back_inserter(merged));
    to = std::move(merged);
    changed = true;
  }
  return changed;
}

bool HloDataflowAnalysis::propagate(Operation *computation) {
  bool changed = false;
  auto lookup = [&](FlatSymbolRefAttr name) -> ComputationOp {
    auto callee = symbols->lookup<ComputationOp>(name.getValue());
    return callee && sequential.contains(callee) ? callee : ComputationOp();
  };
  for (Operation &op : cast<ComputationOp>(computation).getOps()) {
    if (op.getNumResults() != 1)
      continue;
    Value r = op.getResult(0);
    if (auto w = dyn_cast<WhileOp>(op)) {
      ComputationOp body = lookup(w.getBodyAttr());
      ComputationOp cond = lookup(w.getConditionAttr());
      changed |= assign(r, 0, sets(w.getDataOperands()[0]));
      if (body)
        changed |= assign(r, 0, sets(body.getRootValue()));
      // The loop state: the same values in the result and both parameters.
      for (ComputationOp c : {body, cond})
        if (c && c.getNumArguments() == 1)
          changed |= assign(c.getArgument(0), 0, sets(r));
      continue;
    }
    if (auto c = dyn_cast<ConditionalOp>(op)) {
      OperandRange operands = c.getDataOperands().drop_front();
      for (auto [i, name] : llvm::enumerate(c.getBranches())) {
        ComputationOp branch = lookup(name);
        if (!branch)
          continue;
        if (i < operands.size() && branch.getNumArguments() == 1)
          changed |= assign(branch.getArgument(0), 0, sets(operands[i]));
        changed |= assign(r, 0, sets(branch.getRootValue()));
      }
      continue;
    }
    if (auto call = dyn_cast<CallOp>(op)) {
      ComputationOp callee = lookup(call.getToApplyAttr());
      if (!callee)
        continue;
      for (auto [arg, v] :
           llvm::zip(callee.getArguments(), call.getDataOperands()))
        changed |= assign(arg, 0, sets(v));
      changed |= assign(r, 0, sets(callee.getRootValue()));
      continue;
    }
    for (const Forward &f : getForwards(&op, *shapeNodes))
      changed |= assign(r, f.dst, sets(f.src, f.srcNode).take_front(f.size));
  }
  return changed;
}

void HloDataflowAnalysis::computePositionsAndUses() {
  for (auto [v, first] : firstSlot)
    for (unsigned n = 0, e = getNumNodes(v); n < e; ++n)
      for (unsigned id : slots[first + n])
        values[id].positions.push_back({v, n});
  // Deterministic order: positions by slot.
  for (HloValue &value : values)
    llvm::sort(
        value.positions, [&](const HloPosition &a, const HloPosition &b) {
          return firstSlot[a.value] + a.node < firstSlot[b.value] + b.node;
        });
  for (Operation *comp : computations) {
    for (Operation &op : cast<ComputationOp>(comp).getOps()) {
      OperandRange data = op.getOperands();
      if (auto iface = dyn_cast<InstructionOpInterface>(op))
        data = iface.getDataOperands();
      for (auto [i, v] : llvm::enumerate(data)) {
        ArrayRef<ValueSet> operandSets = sets(v);
        for (auto [n, set] : llvm::enumerate(operandSets))
          for (unsigned id : set)
            values[id].uses.push_back({&op, unsigned(i), unsigned(n)});
      }
    }
  }
  Value root = cast<ComputationOp>(entry).getRootValue();
  for (const ValueSet &set : sets(root))
    for (unsigned id : set)
      values[id].liveOut = true;
}

ArrayRef<unsigned> HloDataflowAnalysis::getValueSet(Value value,
                                                    unsigned node) const {
  auto it = firstSlot.find(value);
  if (it == firstSlot.end() || node >= getNumNodes(value))
    return {};
  return slots[it->second + node];
}

const HloValue *HloDataflowAnalysis::getDefinedValue(Value value,
                                                     unsigned node) const {
  auto it = defined.find({value, node});
  return it == defined.end() ? nullptr : &values[it->second];
}

ArrayRef<unsigned> HloDataflowAnalysis::getElementNodes(Type type) const {
  return shapeNodes->children(type);
}

unsigned HloDataflowAnalysis::getNumNodes(Value value) const {
  return shapeNodes->count(value.getType());
}

/// The fused computation parameter that `v` is, looking through bitcasts.
static std::optional<unsigned> fusionParameter(Value v) {
  while (auto bitcast = v.getDefiningOp<BitcastOp>())
    v = bitcast.getDataOperands()[0];
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getArgNumber();
  return std::nullopt;
}

SmallVector<std::tuple<unsigned, unsigned, unsigned>>
HloDataflowAnalysis::getInPlacePairs(Operation *op) const {
  SmallVector<std::tuple<unsigned, unsigned, unsigned>> pairs;
  auto fromAttr = [&](std::optional<ArrayAttr> aliasing) {
    if (!aliasing)
      return false;
    Type result = op->getResult(0).getType();
    for (auto alias : aliasing->getAsRange<OutputOperandAliasAttr>()) {
      if (alias.getOperand() >= int64_t(op->getNumOperands()))
        continue;
      int64_t in = getNode(op->getOperand(alias.getOperand()).getType(),
                           alias.getOperandIndex());
      int64_t out = getNode(result, alias.getOutputIndex());
      if (in >= 0 && out >= 0)
        pairs.push_back({unsigned(alias.getOperand()), in, out});
    }
    return true;
  };
  if (isa<DynamicUpdateSliceOp>(op)) {
    pairs.push_back({0, 0, 0});
  } else if (isa<RaggedAllToAllOp>(op)) {
    // XLA's: the updates are written over the output operand.
    pairs.push_back({1, 0, 0});
  } else if (auto start = dyn_cast<AsyncStartOp>(op)) {
    // An asynchronous ragged-all-to-all writes over the start's operand
    // that is its output operand, into element 1 of the start's result.
    auto callee = symbols ? symbols->lookup<ComputationOp>(start.getCalls())
                          : ComputationOp();
    Type result = op->getResult(0).getType();
    auto tuple = dyn_cast<TupleType>(result);
    if (!callee || callee.getBody().empty() || !tuple || tuple.size() < 2 ||
        isa<TupleType>(tuple.getType(1)))
      return pairs;
    auto ragged = callee.getRootValue().getDefiningOp<RaggedAllToAllOp>();
    auto arg = ragged && ragged.getInputs().size() == 6
                   ? dyn_cast<BlockArgument>(ragged.getInputs()[1])
                   : BlockArgument();
    if (arg && arg.getOwner() == &callee.getBody().front() &&
        arg.getArgNumber() < op->getNumOperands())
      pairs.push_back({arg.getArgNumber(), 0, shapeNodes->children(result)[1]});
  } else if (isa<AllReduceStartOp>(op)) {
    // XLA's: the asynchronous all-reduce reduces its operands in place,
    // so they stay live (in the result's buffers) until the done.
    Type result = op->getResult(0).getType();
    unsigned n = getDataOperands(op).size();
    if (n == 1 && !isa<TupleType>(result))
      pairs.push_back({0, 0, 0});
    else if (auto tuple = dyn_cast<TupleType>(result);
             tuple && tuple.size() == n)
      for (unsigned i = 0; i < n; ++i)
        pairs.push_back({i, 0, shapeNodes->children(result)[i]});
  } else if (auto scatter = dyn_cast<ScatterOp>(op)) {
    unsigned n = (scatter.getDataOperands().size() - 1) / 2;
    ArrayRef<unsigned> nodes = shapeNodes->children(op->getResult(0).getType());
    for (unsigned i = 0; i < n; ++i)
      pairs.push_back({i, 0, n == 1 ? 0 : nodes[i]});
  } else if (auto custom = dyn_cast<CustomCallOp>(op)) {
    fromAttr(custom.getOutputToOperandAliasing());
  } else if (auto fusion = dyn_cast<FusionOp>(op)) {
    if (fromAttr(fusion.getOutputToOperandAliasing()) || !symbols)
      return pairs;
    auto fused = symbols->lookup<ComputationOp>(fusion.getCalls());
    if (!fused || fused.getBody().empty())
      return pairs;
    Value root = fused.getRootValue();
    SmallVector<Value> outputs{root};
    SmallVector<unsigned> nodes{0};
    if (auto tuple = root.getDefiningOp<TupleOp>()) {
      outputs.assign(tuple.getDataOperands().begin(),
                     tuple.getDataOperands().end());
      nodes.assign(shapeNodes->children(root.getType()).begin(),
                   shapeNodes->children(root.getType()).end());
    }
    for (auto [out, node] : llvm::zip(outputs, nodes)) {
      Operation *def = out.getDefiningOp();
      if (!def || !isa<DynamicUpdateSliceOp, ScatterOp>(def) ||
          isa<TupleType>(out.getType()))
        continue;
      if (std::optional<unsigned> param = fusionParameter(def->getOperand(0)))
        pairs.push_back({*param, 0, node});
    }
  }
  return pairs;
}
