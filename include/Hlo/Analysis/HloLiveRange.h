//===- HloLiveRange.h - live ranges over a module's schedule ---*- C++ -*-===//
//
// XLA's HloLiveRange over a flattened schedule: the computations the
// dataflow analysis covers are laid end to end in one time line, each
// instruction at its own time and a computation called by a while,
// conditional or call placed just before its caller (at its first call site,
// once). A computation's parameters are defined at its begin time, its root
// is read by its end (the time of its terminator). An HLO value lives from
// its definition to its last use; values in the ENTRY result live to the end
// of the schedule. The schedule is the order of the instructions in each
// computation (a module marked `is_scheduled`, or any order the verifier
// accepts).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_ANALYSIS_HLOLIVERANGE_H
#define HLO_ANALYSIS_HLOLIVERANGE_H

#include "Hlo/Analysis/HloAliasAnalysis.h"

namespace mlir::hlo {

/// [start, end], schedule times, both inclusive.
struct TimeInterval {
  int64_t start = 0;
  int64_t end = 0;
};

class HloLiveRange {
public:
  HloLiveRange(Operation *module, AnalysisManager &am);
  explicit HloLiveRange(const HloAliasAnalysis &alias);

  const HloAliasAnalysis &getAliasAnalysis() const { return alias; }
  /// The time of an instruction (or a terminator) of an analyzed
  /// computation; -1 for others.
  int64_t getTime(Operation *op) const { return times.lookup(op) - 1; }
  /// The time a computation's parameters are defined.
  int64_t getBeginTime(Operation *computation) const {
    return beginTimes.lookup(computation) - 1;
  }
  /// The last time of the schedule (the ENTRY computation's end).
  int64_t getScheduleEnd() const { return scheduleEnd; }
  /// Live interval of HLO value `id`.
  TimeInterval getValueInterval(unsigned id) const { return intervals[id]; }
  /// The hull of the intervals of a buffer's values.
  TimeInterval getBufferInterval(const HloBuffer &buffer) const;
  /// The peak over time of the bytes of the buffers live at once, counting
  /// each buffer at its largest value's size (XLA's memory scheduler's
  /// measure); buffers for which `counted` is false are left out.
  int64_t getPeakLiveBytes(
      function_ref<bool(const HloBuffer &)> counted = nullptr) const;

private:
  void run();
  void flatten(Operation *computation);

  const HloAliasAnalysis &alias;
  llvm::DenseMap<Operation *, int64_t> times;      // time + 1
  llvm::DenseMap<Operation *, int64_t> beginTimes; // time + 1
  int64_t next = 0;
  int64_t scheduleEnd = 0;
  std::vector<TimeInterval> intervals;
};

} // namespace mlir::hlo

#endif // HLO_ANALYSIS_HLOLIVERANGE_H
