//===- LatencyHidingScheduler.cpp - hlo-latency-hiding-scheduler ----------===//
//
// XLA's LatencyHidingScheduler as its GPU compiler runs it: a list
// scheduler that walks each computation's dependence graph from the end
// (bottom up), keeping a clock. Scheduling a node at time t makes its
// predecessors ready at t + its cost (+ the transfer time for the edge from
// a start to its done). Among the ready nodes it takes, in this order of
// preference (XLA's rules, in XLA's order, those the GPU compiler enables):
//   1. under memory pressure (live bytes above the limit), the node that
//      frees the most;
//   2. a done whose resource has a free lane (XLA's kScheduleDone: dones as
//      late as possible); a done whose resource is full waits for a start;
//   3. a start that frees a lane such dones wait for, if it does not stall
//      (kFreeBackedupResource); in a second run ("tight windows", ours),
//      also if it would stall for less than half of what the next node of
//      rule 4 costs (compute beyond what covers this window may be missing
//      from the next one), and the faster of the two schedules is kept;
//   4. a node whose ready time has come (it does not stall the clock, so
//      compute fills the transfer windows): first one that reads a done
//      (kUnlockDone), then the one latest in the current order
//      (kOriginalOrder: without asynchronous pairs the memory scheduler's
//      order is kept exactly);
//   5. the node that stalls least (kLessStall);
//   6. any other start: starts are delayed as much as possible, i.e. placed
//      as early as the program allows (XLA's GPU async starts).
// When only dones of full resources are ready, the latest is taken anyway.
// Costs and resources come from GpuLatencyEstimator. A computation keeps
// its order when the new one is slower by the estimator's own simulation,
// or lifts the peak of live bytes above the memory limit.
//
//===----------------------------------------------------------------------===//

#include "SchedulingUtils.h"
#include "TransformUtils.h"

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Analysis/GpuLatencyEstimator.h"
#include "Hlo/Transforms/BufferAssignmentPasses.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOLATENCYHIDINGSCHEDULER
#include "Hlo/Transforms/BufferAssignmentPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

using Order = SmallVector<unsigned>;

/// 0, 1, ..., n - 1: a computation's current order.
Order identityOrder(unsigned n) {
  Order order(n);
  std::iota(order.begin(), order.end(), 0u);
  return order;
}

/// One bottom-up list scheduling of a computation's graph.
class BottomUpScheduler {
public:
  /// `tightWindows`: a start that frees a lane dones wait for may stall a
  /// little rather than let the next node overshoot its window a lot.
  BottomUpScheduler(const ScheduleGraph &g, GpuLatencyEstimator &estimator,
                    int64_t memoryLimit, bool tightWindows)
      : g(g), memoryLimit(memoryLimit), tightWindows(tightWindows) {
    unsigned n = g.nodes.size();
    cost.resize(n);
    readyTime.assign(n, 0);
    startOfDone.assign(n, -1);
    resource.assign(n, -1);
    remaining.resize(n);
    scheduled.assign(n, false);
    llvm::DenseMap<Operation *, unsigned> index;
    for (unsigned i = 0; i < n; ++i)
      index[g.nodes[i].op] = i;
    for (unsigned i = 0; i < n; ++i) {
      Operation *op = g.nodes[i].op;
      cost[i] = estimator.nodeCost(op);
      remaining[i] = g.nodes[i].users.size() + g.nodes[i].controlSuccs.size();
      if (Operation *start = getAsyncStartOfDone(op)) {
        auto it = index.find(start);
        if (it == index.end())
          continue; // its start is elsewhere: an ordinary node here
        startOfDone[i] = it->second;
        resource[i] = resource[it->second] = int(getAsyncResource(op));
        transfer[i] = estimator.transferTime(start);
      }
    }
    // Async depth: the longest chain of transfer times from the top of
    // the graph to the node (the current order is topological).
    asyncDepth.assign(n, 0);
    unlocksDone.assign(n, false);
    for (unsigned i = 0; i < n; ++i) {
      for (unsigned p : g.nodes[i].operands) {
        double edge = startOfDone[i] >= 0 ? transfer[i] : 0.0;
        asyncDepth[i] = std::max(asyncDepth[i], asyncDepth[p] + edge);
        unlocksDone[i] = unlocksDone[i] || startOfDone[p] >= 0;
      }
      for (unsigned p : g.nodes[i].controlPreds)
        asyncDepth[i] = std::max(asyncDepth[i], asyncDepth[p]);
    }
    for (unsigned r = 0; r < kNumAsyncResources; ++r)
      limit[r] = estimator.resourceLimit(AsyncResource(r));
    tracked.resize(g.buffers.size());
    live.assign(g.buffers.size(), false);
    for (unsigned b = 0; b < g.buffers.size(); ++b) {
      const ScheduleGraph::Buffer &buffer = g.buffers[b];
      tracked[b] = !buffer.ignored && !buffer.constant && !buffer.liveOut;
    }
  }

  /// The new order (node ids, first to last); `forced` counts dones taken
  /// while their resource was full (nothing else was ready).
  Order run(unsigned &forced) {
    unsigned n = g.nodes.size();
    for (unsigned i = 0; i < n; ++i)
      if (remaining[i] == 0)
        makeReady(i);
    Order reversed;
    reversed.reserve(n);
    while (reversed.size() < n) {
      int64_t next = liveBytes > memoryLimit ? pickUnderPressure() : -1;
      if (next < 0)
        next = pick(forced);
      if (next < 0)
        break; // unreachable: the graph is acyclic
      schedule(next);
      reversed.push_back(next);
    }
    if (reversed.size() < n) // never: keep the current order then
      return identityOrder(n);
    return Order(reversed.rbegin(), reversed.rend());
  }

private:
  // Heaps of node ids (lazy deletion: scheduled nodes are skipped).
  using Heap = std::vector<unsigned>;
  template <typename Less = std::less<unsigned>>
  static void push(Heap &h, unsigned x, Less less = {}) {
    h.push_back(x);
    std::push_heap(h.begin(), h.end(), less);
  }
  template <typename Less = std::less<unsigned>>
  unsigned popTop(Heap &h, Less less = {}) {
    std::pop_heap(h.begin(), h.end(), less);
    unsigned x = h.back();
    h.pop_back();
    return x;
  }
  /// Among nodes that do not stall: the one of greatest async depth
  /// (XLA's kAsyncDepth: paths that lead to dones first), then one that
  /// reads a done (kUnlockDone), then the latest (kOriginalOrder).
  struct Preferred {
    const BottomUpScheduler *s;
    bool operator()(unsigned a, unsigned b) const {
      if (s->asyncDepth[a] != s->asyncDepth[b])
        return s->asyncDepth[a] < s->asyncDepth[b];
      if (s->unlocksDone[a] != s->unlocksDone[b])
        return s->unlocksDone[b];
      return a < b;
    }
  };
  /// Nodes whose ready time is ahead of the clock, soonest first (then the
  /// latest in the current order).
  struct Sooner {
    const std::vector<double> *time;
    bool operator()(unsigned a, unsigned b) const {
      if ((*time)[a] != (*time)[b])
        return (*time)[a] > (*time)[b];
      return a < b;
    }
  };

  bool isDone(unsigned x) const { return startOfDone[x] >= 0; }
  bool isBlocked(unsigned x) const {
    return isDone(x) && inFlight[resource[x]] >= limit[resource[x]];
  }

  void makeReady(unsigned x) {
    if (isDone(x)) {
      push(dones[resource[x]], x);
    } else if (resource[x] >= 0) {
      push(starts[resource[x]], x, Sooner{&readyTime});
    } else if (readyTime[x] <= clock) {
      push(available, x, Preferred{this});
    } else {
      push(waiting, x, Sooner{&readyTime});
    }
  }

  /// Moves waiting nodes whose time has come to `available`.
  void advanceWaiting() {
    Sooner sooner{&readyTime};
    while (!waiting.empty() && readyTime[waiting.front()] <= clock)
      push(available, popTop(waiting, sooner), Preferred{this});
  }

  /// Drops scheduled nodes from the top of `h`; returns its top or -1.
  template <typename Less> int64_t top(Heap &h, Less less) {
    while (!h.empty() && scheduled[h.front()])
      popTop(h, less);
    return h.empty() ? -1 : int64_t(h.front());
  }

  /// The ready start that stalls least among resources `r` for which
  /// `wanted(r)`, or -1.
  template <typename Pred> int64_t soonestStart(Pred wanted) {
    int64_t best = -1;
    for (unsigned r = 0; r < kNumAsyncResources; ++r) {
      int64_t s = wanted(r) ? top(starts[r], Sooner{&readyTime}) : -1;
      if (s >= 0 && (best < 0 || readyTime[s] < readyTime[best]))
        best = s;
    }
    return best;
  }

  /// Rules 2-6 (see the file comment).
  int64_t pick(unsigned &forced) {
    advanceWaiting();
    // The latest ready done of a resource with a free lane.
    int64_t done = -1;
    for (unsigned r = 0; r < kNumAsyncResources; ++r)
      if (inFlight[r] < limit[r])
        done = std::max(done, top(dones[r], std::less<unsigned>()));
    if (done >= 0)
      return popTop(dones[resource[done]]);
    // A start that frees a lane dones wait for, unless it stalls.
    int64_t freeing = soonestStart(
        [&](unsigned r) { return top(dones[r], std::less<unsigned>()) >= 0; });
    if (freeing >= 0 && readyTime[freeing] <= clock)
      return freeing;
    if (int64_t x = top(available, Preferred{this}); x >= 0) {
      // The resource is the bottleneck: compute put into this window beyond
      // what covers it is missing from the next one. Stall a little rather
      // than overshoot a lot.
      if (tightWindows && freeing >= 0 &&
          2 * (readyTime[freeing] - clock) < cost[x])
        return freeing;
      return popTop(available, Preferred{this});
    }
    Sooner sooner{&readyTime};
    int64_t stalling = top(waiting, sooner);
    if (freeing >= 0 &&
        (stalling < 0 || readyTime[freeing] <= readyTime[stalling]))
      return freeing;
    if (stalling >= 0)
      return popTop(waiting, sooner);
    // Only starts (as early as possible: when nothing else is ready) and
    // dones of full resources are left.
    if (int64_t start = soonestStart([](unsigned) { return true; }); start >= 0)
      return start;
    int64_t best = -1;
    for (Heap &h : dones)
      best = std::max(best, top(h, std::less<unsigned>()));
    if (best >= 0)
      ++forced;
    return best;
  }

  /// Bytes that become live minus bytes freed if `x` is scheduled now.
  int64_t memoryDelta(unsigned x) const {
    int64_t delta = 0;
    for (unsigned b : g.nodes[x].uses)
      if (tracked[b] && !live[b])
        delta += g.buffers[b].size;
    for (unsigned b : g.nodes[x].defs)
      if (tracked[b] && live[b])
        delta -= g.buffers[b].size;
    return delta;
  }

  /// Rule 1: the ready node (stalling or not, but not a done of a full
  /// resource) that frees the most; -1 when none frees anything.
  int64_t pickUnderPressure() {
    advanceWaiting();
    int64_t best = -1, bestDelta = 0;
    for (const Heap *h :
         {&available, &waiting, &dones[0], &dones[1], &dones[2], &dones[3],
          &starts[0], &starts[1], &starts[2], &starts[3]})
      for (unsigned x : *h) {
        if (scheduled[x] || isBlocked(x))
          continue;
        int64_t delta = memoryDelta(x);
        if (delta < bestDelta ||
            (delta == bestDelta && best >= 0 && int64_t(x) > best)) {
          best = x;
          bestDelta = delta;
        }
      }
    return best;
  }

  void schedule(unsigned x) {
    scheduled[x] = true;
    double at = std::max(clock, readyTime[x]);
    clock = at + cost[x];
    if (isDone(x)) {
      ++inFlight[resource[x]];
    } else if (resource[x] >= 0) {
      // A start closes its pair's window: a lane is free again.
      --inFlight[resource[x]];
    }
    for (unsigned b : g.nodes[x].defs)
      if (tracked[b] && live[b]) {
        live[b] = false;
        liveBytes -= g.buffers[b].size;
      }
    for (unsigned b : g.nodes[x].uses)
      if (tracked[b] && !live[b]) {
        live[b] = true;
        liveBytes += g.buffers[b].size;
      }
    auto release = [&](unsigned p, double latency) {
      readyTime[p] = std::max(readyTime[p], clock + latency);
      if (--remaining[p] == 0)
        makeReady(p);
    };
    for (unsigned p : g.nodes[x].operands)
      release(p,
              isDone(x) && g.nodes[x].operands.size() == 1 ? transfer[x] : 0.0);
    for (unsigned p : g.nodes[x].controlPreds)
      release(p, 0.0);
  }

  const ScheduleGraph &g;
  int64_t memoryLimit;
  bool tightWindows;
  std::vector<double> cost, readyTime;
  llvm::DenseMap<unsigned, double> transfer; // done -> its transfer time
  std::vector<int64_t> startOfDone;
  std::vector<int> resource;
  std::vector<unsigned> remaining;
  std::vector<bool> scheduled, tracked, live;
  unsigned limit[kNumAsyncResources] = {};
  unsigned inFlight[kNumAsyncResources] = {};
  /// Ready dones (latest first), ready non-starts whose time has come
  /// (latest first) or not yet (soonest first), ready starts per resource
  /// (soonest first).
  Heap available, waiting, dones[kNumAsyncResources],
      starts[kNumAsyncResources];
  std::vector<double> asyncDepth;
  /// The node reads a done.
  std::vector<bool> unlocksDone;
  double clock = 0;
  int64_t liveBytes = 0;
};

struct LatencyHidingSchedulerPass
    : ChangeReportingPass<LatencyHidingSchedulerPass,
                          hlo::impl::HloLatencyHidingSchedulerBase> {
  using ChangeReportingPass::ChangeReportingPass;

  /// The statistics' unit: nanoseconds, or the approximate units.
  uint64_t statUnits(double t) const {
    return uint64_t(std::llround(estimator == "approximate" ? t : t * 1e3));
  }

  void run() {
    ModuleOp module = getOperation();
    if (estimator != "analytical" && estimator != "approximate") {
      module.emitError("hlo-latency-hiding-scheduler: unknown estimator '")
          << estimator << "' (analytical or approximate)";
      return signalPassFailure();
    }
    HloDataflowAnalysis dataflow(module);
    if (!dataflow.isAnalyzed())
      return;
    HloAliasAnalysis alias(dataflow);
    const GpuDeviceInfo &device = getSelectedGpuDevice();
    int64_t limit = memoryLimit >= 0
                        ? int64_t(memoryLimit)
                        : int64_t(double(device.deviceMemorySize) * 0.95);
    LatencyEstimatorOptions options;
    options.approximate = estimator == "approximate";
    options.transferLatencyUs = collectiveLatencyUs;
    options.interconnectBandwidth = interconnectBandwidth;
    options.collectiveOverlapLimit = collectiveOverlapLimit;
    GpuLatencyEstimator latency(device, options);
    GpuLatencyEstimator::Timeline before, after;
    auto add = [](GpuLatencyEstimator::Timeline &sum,
                  const GpuLatencyEstimator::Timeline &t) {
      sum.makespan += t.makespan;
      sum.exposed += t.exposed;
      sum.pairs += t.pairs;
    };
    SymbolTable symbols(module);
    for (Operation *computation : dataflow.getComputations()) {
      ScheduleGraph graph;
      if (!graph.build(cast<ComputationOp>(computation), alias, symbols))
        continue;
      Order identity = identityOrder(graph.nodes.size());
      auto ops = [&](ArrayRef<unsigned> ids) {
        SmallVector<Operation *> list;
        for (unsigned i : ids)
          list.push_back(graph.nodes[i].op);
        return list;
      };
      GpuLatencyEstimator::Timeline old = latency.simulate(ops(identity));
      add(before, old);
      // Both window policies; the faster schedule is kept.
      unsigned forced = 0, forcedTight = 0;
      Order order = BottomUpScheduler(graph, latency, limit, false).run(forced);
      GpuLatencyEstimator::Timeline now = latency.simulate(ops(order));
      Order tight =
          BottomUpScheduler(graph, latency, limit, true).run(forcedTight);
      if (tight != order) {
        GpuLatencyEstimator::Timeline other = latency.simulate(ops(tight));
        if (other.makespan < now.makespan) {
          order = std::move(tight);
          now = other;
          forced = forcedTight;
        }
      }
      numForced += forced;
      if (order == identity) {
        add(after, old);
        continue;
      }
      int64_t peakBefore = graph.peakBytes(identity);
      int64_t peakAfter = graph.peakBytes(order);
      bool slower = now.makespan > old.makespan * (1 + 1e-9);
      bool tooBig = peakAfter > limit && peakAfter > peakBefore;
      numSlower += slower;
      numLimited += tooBig;
      if (slower || tooBig) {
        add(after, old);
        continue;
      }
      add(after, now);
      if (applySchedule(graph, order)) {
        ++numReordered;
        changed = true;
      }
    }
    exposedBefore += statUnits(before.exposed);
    exposedAfter += statUnits(after.exposed);
    if (report) {
      auto fmt = [&](double t) {
        return llvm::formatv("{0}{1}", llvm::format("%.6g", t),
                             options.approximate ? " units" : " us")
            .str();
      };
      module.emitRemark() << "latency hiding: " << before.pairs
                          << " asynchronous pairs; time "
                          << fmt(before.makespan) << " -> "
                          << fmt(after.makespan) << ", waited at dones "
                          << fmt(before.exposed) << " -> "
                          << fmt(after.exposed);
    }
    auto scheduled = module->getAttrOfType<BoolAttr>("hlo.is_scheduled");
    if (!scheduled || !scheduled.getValue()) {
      module->setAttr("hlo.is_scheduled",
                      BoolAttr::get(module.getContext(), true));
      changed = true;
    }
  }
};

} // namespace
