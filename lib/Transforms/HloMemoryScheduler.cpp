//===- HloMemoryScheduler.cpp - hlo-memory-scheduler ----------------------===//
//
// XLA's HloMemoryScheduler with its DefaultMemoryScheduler: every
// computation the dataflow analysis covers gets the order, of the list, DFS
// and post-order schedulers' three, with the lowest peak of live bytes
// (ties: list, DFS, post-order). The order is the order of the ops in the
// computation's block; the module is then marked `hlo.is_scheduled`.
//
//===----------------------------------------------------------------------===//

#include "SchedulingUtils.h"
#include "TransformUtils.h"

#include "Hlo/Analysis/HloLiveRange.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/BufferAssignmentPasses.h"

#include "mlir/IR/Builders.h"

#include <algorithm>
#include <limits>
#include <set>
#include <tuple>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOMEMORYSCHEDULER
#include "Hlo/Transforms/BufferAssignmentPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

using Order = SmallVector<unsigned>;

/// XLA's ShapeUtil::IsEffectiveScalar on the op's result: an array of one
/// element.
bool isEffectiveScalar(Operation *op) {
  if (op->getNumResults() != 1)
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return type && type.hasStaticShape() && type.getNumElements() == 1;
}

bool hasConfig(Operation *op, StringRef name) {
  auto config = op->getAttrOfType<StringAttr>(name);
  return config && !config.getValue().empty();
}

//===----------------------------------------------------------------------===//
// List scheduler.
//===----------------------------------------------------------------------===//

Order listSchedule(const ScheduleGraph &g) {
  using Priority = std::pair<int64_t, int64_t>;
  unsigned n = g.nodes.size();
  std::vector<int64_t> predCount(n), useCount(g.buffers.size(), 0),
      userSum(g.buffers.size(), 0);
  for (unsigned i = 0; i < n; ++i) {
    const ScheduleGraph::Node &node = g.nodes[i];
    predCount[i] = node.operands.size() + node.controlPreds.size();
    for (unsigned b : node.uses) {
      ++useCount[b];
      userSum[b] += i;
    }
  }
  for (unsigned b = 0, e = g.buffers.size(); b < e; ++b)
    if (g.buffers[b].liveOut)
      ++useCount[b];

  auto priority = [&](unsigned i) -> Priority {
    const ScheduleGraph::Node &node = g.nodes[i];
    if (isEffectiveScalar(node.op))
      return {std::numeric_limits<int64_t>::max(),
              std::numeric_limits<int64_t>::max()};
    int64_t users = node.users.size();
    // The outfeed first and the infeed last give the other side time.
    if (isa<OutfeedOp>(node.op) && hasConfig(node.op, "outfeed_config"))
      return {std::numeric_limits<int32_t>::max(), users};
    if (isa<InfeedOp>(node.op) && hasConfig(node.op, "infeed_config"))
      return {std::numeric_limits<int32_t>::min(), users};
    int64_t freed = 0, defined = 0;
    for (unsigned b : node.uses)
      if (!g.buffers[b].ignored && useCount[b] == 1)
        freed += g.buffers[b].size;
    for (unsigned b : node.defs)
      if (!g.buffers[b].ignored)
        defined += g.buffers[b].size;
    return {freed - defined, users};
  };

  // The ready instructions by (priority, when they entered): the last of
  // equal priorities goes first, as XLA's multimap.
  using Key = std::tuple<int64_t, int64_t, uint64_t, unsigned>;
  std::set<Key> ready;
  std::vector<Key> keyOf(n);
  std::vector<bool> isReady(n, false);
  uint64_t seq = 0;
  auto add = [&](unsigned i) {
    Priority p = priority(i);
    keyOf[i] = {p.first, p.second, seq++, i};
    ready.insert(keyOf[i]);
    isReady[i] = true;
  };
  for (unsigned i = 0; i < n; ++i)
    if (predCount[i] == 0)
      add(i);

  Order order;
  order.reserve(n);
  SmallVector<unsigned> adjust;
  while (!ready.empty()) {
    unsigned best = std::get<3>(*std::prev(ready.end()));
    ready.erase(std::prev(ready.end()));
    isReady[best] = false;
    order.push_back(best);
    const ScheduleGraph::Node &node = g.nodes[best];
    adjust.clear();
    for (unsigned b : node.uses) {
      userSum[b] -= best;
      // One use left: the read by the last user frees the buffer, which
      // raises that user's priority (none when the last use is the ROOT).
      if (--useCount[b] == 1 && !g.buffers[b].liveOut)
        adjust.push_back(userSum[b]);
    }
    for (unsigned u : node.users)
      if (--predCount[u] == 0)
        add(u);
    for (unsigned s : node.controlSuccs)
      if (--predCount[s] == 0)
        add(s);
    for (unsigned u : adjust) {
      if (!isReady[u])
        continue;
      Priority p = priority(u);
      if (p == Priority(std::get<0>(keyOf[u]), std::get<1>(keyOf[u])))
        continue;
      ready.erase(keyOf[u]);
      add(u);
    }
  }
  return order;
}

//===----------------------------------------------------------------------===//
// Post-order and DFS schedulers.
//===----------------------------------------------------------------------===//

/// Appends to `order` the nodes reached from `start` that are not visited
/// yet, depth first, each after the nodes `pushChildren(node, stack)` pushes
/// for it (the last pushed is visited first).
template <typename PushChildren>
void visitPostOrder(unsigned start, std::vector<uint8_t> &state, Order &order,
                    PushChildren pushChildren) {
  if (state[start] == 2) // 0 new, 1 visiting, 2 visited
    return;
  std::vector<unsigned> stack{start};
  while (!stack.empty()) {
    unsigned cur = stack.back();
    if (state[cur] != 0) {
      stack.pop_back();
      if (state[cur] == 1) {
        state[cur] = 2;
        order.push_back(cur);
      }
      continue;
    }
    state[cur] = 1;
    pushChildren(cur, stack);
  }
}

/// XLA's MakeInstructionPostOrder: from each instruction without data users
/// in turn, operands first to last, control predecessors before them.
Order postOrder(const ScheduleGraph &g) {
  unsigned n = g.nodes.size();
  std::vector<uint8_t> state(n, 0);
  Order order;
  order.reserve(n);
  for (unsigned start = 0; start < n; ++start) {
    if (!g.nodes[start].users.empty())
      continue;
    visitPostOrder(start, state, order,
                   [&](unsigned cur, std::vector<unsigned> &stack) {
                     const ScheduleGraph::Node &node = g.nodes[cur];
                     for (unsigned p : llvm::reverse(node.operandList))
                       if (state[p] != 2)
                         stack.push_back(p);
                     for (unsigned p : node.controlPreds)
                       if (state[p] != 2)
                         stack.push_back(p);
                   });
  }
  return order;
}

/// XLA's DFSMemoryScheduler.
Order dfsSchedule(const ScheduleGraph &g) {
  unsigned n = g.nodes.size();
  struct Stats {
    int64_t extraUsers = 0;
    int64_t totalSizes = 0;
  };
  std::vector<Stats> stats(n);
  int64_t cumulative = 0;
  int64_t totalHlos = n + g.computation.getBody().front().getNumArguments();
  for (unsigned i : postOrder(g)) {
    const ScheduleGraph::Node &node = g.nodes[i];
    if (node.isConstant)
      continue;
    Stats &s = stats[i];
    s.extraUsers = node.users.empty() ? 0 : int64_t(node.users.size()) - 1;
    for (unsigned b : node.defs)
      s.totalSizes += g.buffers[b].size;
    cumulative += s.totalSizes;
    for (unsigned p : node.operands) {
      s.extraUsers += stats[p].extraUsers;
      s.totalSizes += stats[p].totalSizes;
    }
    // The sums count shared ancestors again: capped as XLA caps them.
    s.totalSizes = std::min(s.totalSizes, cumulative);
    s.extraUsers = std::min(s.extraUsers, totalHlos);
  }
  std::vector<std::string> names(n);
  for (unsigned i = 0; i < n; ++i)
    names[i] = g.name(i);
  auto before = [&](unsigned a, unsigned b) {
    if (stats[a].extraUsers != stats[b].extraUsers)
      return stats[a].extraUsers > stats[b].extraUsers;
    if (stats[a].totalSizes != stats[b].totalSizes)
      return stats[a].totalSizes > stats[b].totalSizes;
    if (names[a] != names[b])
      return names[a] < names[b];
    return a < b;
  };

  std::vector<uint8_t> state(n, 0);
  Order order;
  order.reserve(n);
  auto visit = [&](unsigned start) {
    visitPostOrder(start, state, order,
                   [&](unsigned cur, std::vector<unsigned> &stack) {
                     size_t old = stack.size();
                     const ScheduleGraph::Node &node = g.nodes[cur];
                     for (unsigned p : node.operandList)
                       if (state[p] != 2)
                         stack.push_back(p);
                     for (unsigned p : node.controlPreds)
                       if (state[p] != 2)
                         stack.push_back(p);
                     std::sort(stack.begin() + old, stack.end(), before);
                     std::reverse(stack.begin() + old, stack.end());
                   });
  };
  // The instructions nothing reaches the ROOT from, then the ROOT.
  for (unsigned i = 0; i < n; ++i)
    if (g.nodes[i].users.empty() && g.nodes[i].controlSuccs.empty() &&
        int64_t(i) != g.root)
      visit(i);
  if (g.root >= 0)
    visit(g.root);
  return order;
}

struct HloMemorySchedulerPass
    : ChangeReportingPass<HloMemorySchedulerPass,
                          hlo::impl::HloMemorySchedulerBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    if (algorithm != "default" && algorithm != "list" && algorithm != "dfs" &&
        algorithm != "post-order") {
      module.emitError("hlo-memory-scheduler: unknown algorithm '")
          << algorithm << "' (default, list, dfs or post-order)";
      return signalPassFailure();
    }
    HloDataflowAnalysis dataflow(module);
    if (!dataflow.isAnalyzed())
      return;
    HloAliasAnalysis alias(dataflow);
    peakBefore = HloLiveRange(alias).getPeakLiveBytes();

    SymbolTable symbols(module);
    for (Operation *computation : dataflow.getComputations()) {
      ScheduleGraph graph;
      if (!graph.build(cast<ComputationOp>(computation), alias, symbols))
        continue;
      unsigned n = graph.nodes.size();
      // XLA's order of preference on ties: list, DFS, post-order.
      SmallVector<std::pair<Order, llvm::Statistic *>, 3> candidates;
      if (algorithm == "default" || algorithm == "list")
        candidates.push_back({listSchedule(graph), &numList});
      if (algorithm == "default" || algorithm == "dfs")
        candidates.push_back({dfsSchedule(graph), &numDfs});
      if (algorithm == "default" || algorithm == "post-order")
        candidates.push_back({postOrder(graph), &numPostOrder});
      int64_t bestPeak = std::numeric_limits<int64_t>::max();
      unsigned best = 0;
      for (auto [i, candidate] : llvm::enumerate(candidates)) {
        // Every scheduler orders all instructions; an incomplete order
        // (not expected) is never chosen.
        if (candidate.first.size() != n)
          continue;
        int64_t peak = graph.peakBytes(candidate.first);
        if (peak < bestPeak) {
          bestPeak = peak;
          best = i;
        }
      }
      if (bestPeak == std::numeric_limits<int64_t>::max())
        continue;
      ++*candidates[best].second;
      if (applySchedule(graph, candidates[best].first)) {
        changed = true;
        ++numReordered;
      }
    }
    peakAfter = HloLiveRange(alias).getPeakLiveBytes();

    auto scheduled = module->getAttrOfType<BoolAttr>("hlo.is_scheduled");
    if (!scheduled || !scheduled.getValue()) {
      module->setAttr("hlo.is_scheduled",
                      BoolAttr::get(module.getContext(), true));
      changed = true;
    }
  }
};

} // namespace
