//===- LatencyHidingScheduler.cpp - hlo-latency-hiding-scheduler ----------===//
//
// A simplified XLA LatencyHidingScheduler: in each computation the dataflow
// analysis covers, every asynchronous start runs as soon as its operands
// and control predecessors allow, and its done is deferred past the
// following independent instructions until their estimated run time covers
// the transfer's (or a user needs the done). The order of everything else
// is kept. A computation whose new order would lift its peak of live bytes
// above the memory limit keeps its order.
//
//===----------------------------------------------------------------------===//

#include "SchedulingUtils.h"
#include "TransformUtils.h"

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Analysis/GpuPerformanceModel.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Transforms/BufferAssignmentPasses.h"

#include "mlir/IR/Builders.h"

#include <functional>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOLATENCYHIDINGSCHEDULER
#include "Hlo/Transforms/BufferAssignmentPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

using Order = SmallVector<unsigned>;

bool isAsyncStart(Operation *op) {
  return isa<AllReduceStartOp, AllGatherStartOp, CollectivePermuteStartOp,
             CopyStartOp, AsyncStartOp>(op);
}

bool isAsyncDone(Operation *op) {
  return isa<AllReduceDoneOp, AllGatherDoneOp, CollectivePermuteDoneOp,
             CopyDoneOp, AsyncDoneOp>(op);
}

struct LatencyHidingSchedulerPass
    : ChangeReportingPass<LatencyHidingSchedulerPass,
                          hlo::impl::HloLatencyHidingSchedulerBase> {
  using ChangeReportingPass::ChangeReportingPass;

  /// Microseconds the transfer of a start/done pair takes: a fixed latency
  /// and the done's bytes over the interconnect (a generic async-start:
  /// the latency alone, its work is its computation's).
  double transferUs(Operation *start, Operation *done) const {
    if (isa<AsyncStartOp>(start))
      return collectiveLatencyUs;
    int64_t bytes = 0;
    for (Type t : done->getResultTypes())
      bytes += getShapeByteSize(t).value_or(0);
    // GB/s = bytes per nanosecond = 1000 bytes per microsecond.
    return collectiveLatencyUs + double(bytes) / (interconnectBandwidth * 1e3);
  }

  /// Reorders `graph`'s computation; false when nothing moved.
  Order schedule(const ScheduleGraph &g, GpuPerformanceModel &model,
                 int64_t limit, bool &moved) {
    unsigned n = g.nodes.size();
    // The done of each start (its only data user that is a done).
    std::vector<int64_t> doneOf(n, -1), startOf(n, -1);
    for (unsigned i = 0; i < n; ++i)
      if (isAsyncDone(g.nodes[i].op) && g.nodes[i].operands.size() == 1) {
        unsigned s = g.nodes[i].operands[0];
        if (isAsyncStart(g.nodes[s].op)) {
          doneOf[s] = i;
          startOf[i] = s;
        }
      }

    // 1. Starts as early as possible: emitted as soon as their last
    // operand or control predecessor is.
    Order early;
    early.reserve(n);
    std::vector<int64_t> waiting(n);
    std::vector<bool> placed(n, false);
    for (unsigned i = 0; i < n; ++i)
      waiting[i] = g.nodes[i].operands.size() + g.nodes[i].controlPreds.size();
    std::function<void(unsigned)> place = [&](unsigned i) {
      SmallVector<unsigned> work = {i};
      while (!work.empty()) {
        unsigned x = work.pop_back_val();
        if (placed[x])
          continue;
        placed[x] = true;
        early.push_back(x);
        auto release = [&](unsigned u) {
          if (--waiting[u] == 0 && doneOf[u] >= 0 && !placed[u])
            work.push_back(u);
        };
        for (unsigned u : g.nodes[x].users)
          release(u);
        for (unsigned u : g.nodes[x].controlSuccs)
          release(u);
      }
    };
    for (unsigned i = 0; i < n; ++i)
      if (doneOf[i] >= 0 && waiting[i] == 0)
        place(i);
    for (unsigned i = 0; i < n; ++i)
      if (!placed[i])
        place(i);

    // 2. Dones as late as the time between start and done needs, and no
    // later than their first dependent.
    std::vector<double> needUs(n, 0);
    std::vector<bool> pending(n, false);
    SmallVector<unsigned> pendingList;
    Order order;
    order.reserve(n);
    auto flush = [&](unsigned d) {
      if (!pending[d])
        return;
      pending[d] = false;
      order.push_back(d);
    };
    for (unsigned i : early) {
      if (startOf[i] >= 0) {
        needUs[i] = transferUs(g.nodes[startOf[i]].op, g.nodes[i].op);
        pending[i] = true;
        pendingList.push_back(i);
        continue;
      }
      // A pending done this instruction needs goes first.
      for (unsigned p : g.nodes[i].operands)
        flush(p);
      for (unsigned p : g.nodes[i].controlPreds)
        flush(p);
      order.push_back(i);
      double us = 0;
      if (!isAsyncStart(g.nodes[i].op)) {
        const EstimateRunTimeData &data = model.estimateRunTime(g.nodes[i].op);
        us = data.isKernel ? data.totalUs : 0;
      }
      // Pending dones whose transfer is now hidden follow this
      // instruction.
      SmallVector<unsigned> still;
      for (unsigned d : pendingList) {
        if (!pending[d])
          continue;
        needUs[d] -= us;
        if (needUs[d] <= 0)
          flush(d);
        else
          still.push_back(d);
      }
      pendingList = std::move(still);
    }
    for (unsigned d : pendingList)
      flush(d);

    // Did anything move?
    moved = false;
    for (unsigned t = 0; t < n && !moved; ++t)
      moved = order[t] != t;
    if (!moved)
      return order;
    // The memory limit: keep the old order where the new one exceeds it.
    Order identity(n);
    for (unsigned t = 0; t < n; ++t)
      identity[t] = t;
    int64_t before = g.peakBytes(identity), after = g.peakBytes(order);
    if (after > limit && after > before) {
      ++numLimited;
      moved = false;
      return identity;
    }
    for (unsigned t = 0; t < n; ++t) {
      unsigned x = order[t];
      if (startOf[x] < 0 && doneOf[x] < 0)
        continue;
      // Count the pairs that moved relative to the original order.
      if (doneOf[x] >= 0 && t < x)
        ++numStartsMoved;
      if (startOf[x] >= 0 && t > x)
        ++numDonesMoved;
    }
    return order;
  }

  void run() {
    ModuleOp module = getOperation();
    HloDataflowAnalysis dataflow(module);
    if (!dataflow.isAnalyzed())
      return;
    HloAliasAnalysis alias(dataflow);
    const GpuDeviceInfo &device = getSelectedGpuDevice();
    int64_t limit = memoryLimit >= 0
                        ? int64_t(memoryLimit)
                        : int64_t(double(device.deviceMemorySize) * 0.95);
    SymbolTableCollection tables;
    GpuPerformanceModel model(device);
    model.setSymbolTables(&tables);
    for (Operation *computation : dataflow.getComputations()) {
      ScheduleGraph graph;
      if (!graph.build(cast<ComputationOp>(computation), alias))
        continue;
      bool moved = false;
      Order order = schedule(graph, model, limit, moved);
      if (moved && applySchedule(graph, order))
        changed = true;
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
