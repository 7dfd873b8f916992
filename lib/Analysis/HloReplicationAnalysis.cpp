//===- HloReplicationAnalysis.cpp - values equal on every device ----------===//
//
// An optimistic fixed point over the module from its ENTRY computation:
// values start replicated and only ever lose it (a leaf's flag is the meet,
// AND, of everything that reaches it), so loops converge on the largest
// set of values that every iteration keeps equal.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/HloReplicationAnalysis.h"

#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloOpClasses.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"

#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace mlir::hlo;

/// The computations `op` runs as part of its own result (not reducers).
static SmallVector<FlatSymbolRefAttr, 2> structuralCallees(Operation *op) {
  if (auto w = dyn_cast<WhileOp>(op))
    return {w.getConditionAttr(), w.getBodyAttr()};
  if (auto c = dyn_cast<ConditionalOp>(op))
    return SmallVector<FlatSymbolRefAttr, 2>(c.getBranches());
  if (auto call = dyn_cast<CallOp>(op))
    return {call.getToApplyAttr()};
  if (auto fusion = dyn_cast<FusionOp>(op))
    return {fusion.getCallsAttr()};
  return {};
}

HloReplicationAnalysis::HloReplicationAnalysis(ModuleOp module,
                                               bool crossPartition)
    : crossPartition(crossPartition) {
  std::tie(numReplicas, numPartitions) = getDeviceCounts(module);
  symbols = std::make_unique<SymbolTable>(module);
  ComputationOp entry;
  DenseMap<Operation *, unsigned> callers;
  for (auto comp : module.getOps<ComputationOp>()) {
    if (comp.getEntry() && !comp.getBody().empty())
      entry = comp;
    comp.walk([&](Operation *op) {
      for (FlatSymbolRefAttr name : structuralCallees(op))
        if (Operation *callee = symbols->lookup(name.getValue()))
          if (++callers[callee] == 2)
            shared.insert(callee);
    });
  }
  if (!entry)
    return;
  // ENTRY parameters: across replicas, replicated where
  // parameter_replication says so; across partitions, where their sharding
  // is replicated (per tuple element) and parameter_replication does not
  // say otherwise (XLA's seeds).
  for (BlockArgument arg : entry.getArguments()) {
    unsigned i = arg.getArgNumber();
    auto flags = entry.getArgAttrOfType<DenseBoolArrayAttr>(
        i, "hlo.parameter_replication");
    auto sharding = entry.getArgAttrOfType<ShardingAttr>(i, "hlo.sharding");
    Leaves leaves(getNumLeaves(arg.getType()), false);
    for (auto [j, leaf] : llvm::enumerate(leaves)) {
      std::optional<bool> flag;
      if (flags && int64_t(j) < flags.size())
        flag = flags[j];
      if (!crossPartition) {
        leaf = flag.value_or(false);
        continue;
      }
      ShardingAttr element = sharding;
      if (sharding && sharding.isTuple())
        element = j < sharding.getTupleElements().size()
                      ? sharding.getTupleElements()[j]
                      : ShardingAttr();
      leaf = element && element.isReplicated() && flag.value_or(true);
    }
    state[arg] = leaves;
  }
  while (visit(entry, /*unique=*/false)) {
  }
}

bool HloReplicationAnalysis::isReplicated(Value v) const {
  auto it = state.find(v);
  return it != state.end() &&
         llvm::all_of(it->second, [](bool b) { return b; });
}

bool HloReplicationAnalysis::isReplicatedAt(Value v, unsigned leaf) const {
  auto it = state.find(v);
  return it != state.end() && leaf < it->second.size() && it->second[leaf];
}

/// The flags of `v` so far: all replicated where nothing reached it yet
/// (the optimistic start of the fixed point).
HloReplicationAnalysis::Leaves HloReplicationAnalysis::leavesOf(Value v) const {
  auto it = state.find(v);
  if (it != state.end())
    return it->second;
  return Leaves(getNumLeaves(v.getType()), true);
}

bool HloReplicationAnalysis::meet(Value v, ArrayRef<bool> leaves) {
  auto [it, inserted] = state.try_emplace(v, Leaves(leaves));
  if (inserted)
    return true;
  bool changed = false;
  for (auto [have, in] : llvm::zip(it->second, leaves))
    if (have && !in) {
      have = false;
      changed = true;
    }
  return changed;
}

bool HloReplicationAnalysis::visit(ComputationOp comp, bool unique) {
  // A computation that (indirectly) runs itself, which HLO forbids and the
  // IR can hold, is visited once per chain; its callers below see nothing
  // replicated (callResult, the while rule).
  if (!active.insert(comp).second)
    return false;
  auto leave = llvm::make_scope_exit([&] { active.erase(comp); });
  bool changed = false;
  if (unique)
    for (BlockArgument arg : comp.getArguments())
      changed |= meet(arg, Leaves(getNumLeaves(arg.getType()), false));
  for (Operation &op : comp.getOps()) {
    if (op.getNumResults() == 0)
      continue;
    Leaves leaves = compute(&op, changed);
    if (unique)
      leaves.assign(leaves.size(), false);
    size_t offset = 0;
    for (Value result : op.getResults()) {
      size_t n = getNumLeaves(result.getType());
      changed |= meet(
          result,
          ArrayRef<bool>(leaves).slice(
              std::min(offset, leaves.size()),
              std::min(n, leaves.size() - std::min(offset, leaves.size()))));
      offset += n;
    }
  }
  return changed;
}

HloReplicationAnalysis::Leaves
HloReplicationAnalysis::callResult(ComputationOp callee, ValueRange operands,
                                   bool unique, bool &changed) {
  if (active.contains(callee))
    return Leaves(getNumLeaves(callee.getRootValue().getType()), false);
  for (auto [arg, operand] : llvm::zip(callee.getArguments(), operands))
    changed |= meet(arg, leavesOf(operand));
  unique |= shared.contains(callee);
  changed |= visit(callee, unique);
  Leaves root = leavesOf(callee.getRootValue());
  if (unique)
    root.assign(root.size(), false);
  return root;
}

bool HloReplicationAnalysis::operandsReplicated(Operation *op) const {
  return llvm::all_of(getDataOperands(op), [&](Value v) {
    Leaves leaves = leavesOf(v);
    return llvm::all_of(leaves, [](bool b) { return b; });
  });
}

/// Whether an all-reduce or all-gather gives every device of the mode the
/// same result whatever its operands: its groups span them all.
bool HloReplicationAnalysis::collectiveReplicates(Operation *op) const {
  bool channel = op->hasAttr("channel_id");
  auto globalAttr = op->getAttrOfType<BoolAttr>("use_global_device_ids");
  bool global = globalAttr && globalAttr.getValue();
  SmallVector<SmallVector<int64_t>> groups;
  if (auto attr = op->getAttrOfType<ReplicaGroupsAttr>("replica_groups"))
    groups = attr.getGroups();
  if (!channel)
    return !crossPartition && groups.size() <= 1;
  if (!global)
    return crossPartition || groups.size() <= 1;
  // Global device ids: every partition's replicas (or every replica's
  // partitions) all in one group.
  int64_t sets = crossPartition ? numReplicas : numPartitions;
  int64_t members = crossPartition ? numPartitions : numReplicas;
  SmallVector<int64_t> groupOf(sets, -1), count(sets, 0);
  for (auto [g, group] : llvm::enumerate(groups))
    for (int64_t id : group) {
      if (id < 0 || id >= numReplicas * numPartitions)
        return false;
      int64_t set = crossPartition ? id / numPartitions : id % numPartitions;
      if (groupOf[set] != -1 && groupOf[set] != int64_t(g))
        return false;
      groupOf[set] = g;
      ++count[set];
    }
  return llvm::all_of(count, [&](int64_t c) { return c == members; });
}

HloReplicationAnalysis::Leaves HloReplicationAnalysis::compute(Operation *op,
                                                               bool &changed) {
  size_t n = 0;
  for (Value r : op->getResults())
    n += getNumLeaves(r.getType());
  auto all = [&](bool replicated) { return Leaves(n, replicated); };
  auto lookup = [&](FlatSymbolRefAttr name) {
    auto comp = symbols->lookup<ComputationOp>(name.getValue());
    return comp && !comp.getBody().empty() ? comp : ComputationOp();
  };

  if (auto w = dyn_cast<WhileOp>(op)) {
    ComputationOp cond = lookup(w.getConditionAttr());
    ComputationOp body = lookup(w.getBodyAttr());
    if (!cond || !body || active.contains(cond) || active.contains(body))
      return all(false);
    // The state: the operand met with what the body gives back.
    Leaves loop = leavesOf(w.getOperand());
    Leaves back = leavesOf(body.getRootValue());
    for (auto [l, b] : llvm::zip(loop, back))
      l = l && b;
    for (ComputationOp comp : {cond, body})
      if (comp.getNumArguments() == 1)
        changed |= meet(comp.getArgument(0), loop);
    bool condShared = shared.contains(cond);
    changed |= visit(cond, condShared);
    bool condReplicated = !condShared && isReplicated(cond.getRootValue());
    bool bodyUnique = shared.contains(body) || !condReplicated;
    changed |= visit(body, bodyUnique);
    if (bodyUnique)
      return all(false);
    Leaves result = leavesOf(body.getRootValue());
    for (auto [r, l] : llvm::zip(result, loop))
      r = r && l;
    return result;
  }
  if (auto c = dyn_cast<ConditionalOp>(op)) {
    bool indexReplicated = isReplicated(c.getBranchIndex());
    Leaves result = all(indexReplicated);
    for (auto [i, name] : llvm::enumerate(c.getBranches())) {
      ComputationOp branch = lookup(name);
      if (!branch || i >= c.getBranchOperands().size())
        return all(false);
      Leaves root = callResult(branch, c.getBranchOperands()[i],
                               !indexReplicated, changed);
      for (auto [r, b] : llvm::zip(result, root))
        r = r && b;
    }
    return result;
  }
  if (isa<CallOp, FusionOp>(op)) {
    ComputationOp callee = lookup(structuralCallees(op)[0]);
    if (!callee)
      return all(false);
    return callResult(callee, getDataOperands(op), false, changed);
  }
  if (isa<TupleOp>(op)) {
    Leaves result;
    for (Value v : getDataOperands(op))
      llvm::append_range(result, leavesOf(v));
    return result;
  }
  if (auto gte = dyn_cast<GetTupleElementOp>(op)) {
    auto tuple = dyn_cast<TupleType>(gte.getOperand().getType());
    int64_t index = gte.getIndex();
    if (!tuple || index < 0 || index >= int64_t(tuple.size()))
      return all(false);
    size_t offset = 0;
    for (int64_t i = 0; i < index; ++i)
      offset += getNumLeaves(tuple.getType(i));
    Leaves leaves = leavesOf(gte.getOperand());
    if (offset + n > leaves.size())
      return all(false);
    return Leaves(ArrayRef<bool>(leaves).slice(offset, n));
  }
  if (isa<OptimizationBarrierOp>(op))
    return leavesOf(op->getOperand(0));

  // One flag for every leaf of the result.
  if (isa<AllReduceOp, AllGatherOp>(op))
    return all(operandsReplicated(op) || collectiveReplicates(op));
  if (isa<ReplicaIdOp>(op))
    return all(crossPartition);
  if (isa<PartitionIdOp>(op))
    return all(!crossPartition);
  if (isa<ConstantOp, IotaOp>(op))
    return all(true);
  if (auto cc = dyn_cast<CustomCallOp>(op)) {
    StringRef target = cc.getCustomCallTarget();
    return all((target == "X64SplitLow" || target == "X64SplitHigh" ||
                target == "X64Combine") &&
               operandsReplicated(op));
  }
  if (isElementwise(op) ||
      isa<ConcatenateOp, ConvolutionOp, DotOp, ReduceOp, BroadcastOp,
          TransposeOp, ReshapeOp, BitcastOp, ReverseOp, GatherOp, ScatterOp,
          PadOp, SliceOp, DynamicSliceOp, DynamicUpdateSliceOp, ReduceWindowOp>(
          op))
    return all(operandsReplicated(op));
  return all(false);
}
