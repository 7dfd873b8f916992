//===- HloLiveRange.cpp - live ranges over a module's schedule ------------===//

#include "Hlo/Analysis/HloLiveRange.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"

#include <map>

using namespace mlir;
using namespace mlir::hlo;

HloLiveRange::HloLiveRange(Operation *, AnalysisManager &am)
    : alias(am.getAnalysis<HloAliasAnalysis>()) {
  run();
}

HloLiveRange::HloLiveRange(const HloAliasAnalysis &alias) : alias(alias) {
  run();
}

void HloLiveRange::flatten(Operation *computation) {
  const HloDataflowAnalysis &dataflow = alias.getDataflow();
  if (beginTimes.contains(computation))
    return;
  beginTimes[computation] = ++next;
  for (Operation &op : cast<ComputationOp>(computation).getOps()) {
    // Callees run before their caller's time (at their first call site).
    for (Operation *callee : dataflow.getCallees(&op))
      flatten(callee);
    times[&op] = ++next;
  }
}

void HloLiveRange::run() {
  const HloDataflowAnalysis &dataflow = alias.getDataflow();
  if (!dataflow.isAnalyzed())
    return;
  flatten(dataflow.getEntry());
  scheduleEnd = next - 1;
  intervals.resize(dataflow.getValues().size());
  for (const HloValue &v : dataflow.getValues()) {
    int64_t start;
    if (auto arg = dyn_cast<BlockArgument>(v.defined.value))
      start = getBeginTime(arg.getOwner()->getParentOp());
    else
      start = getTime(v.defined.value.getDefiningOp());
    int64_t end = start;
    for (const HloUse &use : v.uses)
      end = std::max(end, getTime(use.user));
    if (v.liveOut)
      end = scheduleEnd;
    intervals[v.id] = {start, end};
  }
}

TimeInterval HloLiveRange::getBufferInterval(const HloBuffer &buffer) const {
  TimeInterval hull = intervals[buffer.values.front()];
  for (unsigned id : buffer.values) {
    hull.start = std::min(hull.start, intervals[id].start);
    hull.end = std::max(hull.end, intervals[id].end);
  }
  return hull;
}

int64_t HloLiveRange::getPeakLiveBytes(
    function_ref<bool(const HloBuffer &)> counted) const {
  const HloDataflowAnalysis &dataflow = alias.getDataflow();
  // Bytes allocated at each start and freed after each end.
  std::map<int64_t, int64_t> delta;
  for (const HloBuffer &buffer : alias.getBuffers()) {
    if (counted && !counted(buffer))
      continue;
    int64_t size = 0;
    for (unsigned id : buffer.values)
      size = std::max(size,
                      getShapeByteSize(dataflow.getValue(id).type).value_or(0));
    TimeInterval live = getBufferInterval(buffer);
    delta[live.start] += size;
    delta[live.end + 1] -= size;
  }
  int64_t live = 0, peak = 0;
  for (auto [time, change] : delta)
    peak = std::max(peak, live += change);
  return peak;
}
