//===- GpuLatencyEstimator.h - time of a GPU schedule -----------*- C++ -*-===//
//
// What XLA's latency-hiding scheduler knows about time on a GPU: which
// instructions are asynchronous start/done pairs and on which stream
// (resource) they run, how long each instruction keeps the compute stream
// busy, how long a pair's transfer takes, and how many pairs of a resource
// may be in flight at once (XLA's GpuAsyncTracker and GpuLatencyEstimator).
// Two estimators: `Analytical` (microseconds: the GPU performance model for
// kernels, a fixed latency plus bytes over the interconnect for transfers)
// and `Approximate` (XLA's ApproximateLatencyEstimator units: 5000 per
// asynchronous pair, 1000 per loop fusion and library call, 5000 per output
// fusion or convolution, 1 for anything else, 0 for what runs nothing).
//
// `simulate` plays an order forward: the compute stream runs one
// instruction after the other, a start launches its transfer on the first
// free lane of its resource, a done waits for its transfer. It measures a
// schedule (the makespan and the time spent waiting at dones), for the
// scheduler's own check and for comparing schedules (ours, XLA's) by one
// measure.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_ANALYSIS_GPULATENCYESTIMATOR_H
#define HLO_ANALYSIS_GPULATENCYESTIMATOR_H

#include "Hlo/Analysis/GpuPerformanceModel.h"

namespace mlir::hlo {

/// The streams asynchronous work runs on (XLA's GpuResourceType).
enum class AsyncResource : unsigned {
  /// all-reduce, all-gather, collective-permute, and async-start of a
  /// collective (reduce-scatter, all-to-all, ...): one collectives stream.
  Collectives,
  /// send / send-done.
  Send,
  /// recv / recv-done.
  Recv,
  /// copy-start / copy-done and async-start of a computation that is no
  /// collective.
  AsyncCompute,
};
constexpr unsigned kNumAsyncResources = 4;

/// True for an op that starts asynchronous work the scheduler overlaps
/// (all-reduce-start, all-gather-start, collective-permute-start, copy-start,
/// async-start, send, recv), unless its collective_backend_config marks it
/// synchronous (`is_sync`, XLA's small collectives).
bool isSchedulableAsyncStart(Operation *op);

/// The start a done (all-reduce-done, ..., async-done through its
/// async-updates, send-done, recv-done) waits for, if that start is
/// schedulable; null otherwise.
Operation *getAsyncStartOfDone(Operation *done);

/// The done of a schedulable start (through async-updates), or null.
Operation *getAsyncDoneOfStart(Operation *start);

/// The resource of a schedulable start or of its done.
AsyncResource getAsyncResource(Operation *startOrDone);

struct LatencyEstimatorOptions {
  /// XLA's ApproximateLatencyEstimator units instead of microseconds.
  bool approximate = false;
  /// Analytical: the fixed latency of a transfer, in microseconds.
  double transferLatencyUs = 5.0;
  /// Analytical: bytes per nanosecond a transfer moves (GB/s).
  double interconnectBandwidth = 300.0;
  /// Pairs of the collectives stream in flight at once (XLA's
  /// parallel_collective_overlap_limit).
  unsigned collectiveOverlapLimit = 1;
};

class GpuLatencyEstimator {
public:
  GpuLatencyEstimator(const GpuDeviceInfo &device,
                      LatencyEstimatorOptions options);

  /// Time `op` keeps the compute stream busy (0 for starts and dones).
  double nodeCost(Operation *op);
  /// Time from a start to the end of its transfer.
  double transferTime(Operation *start);
  /// Pairs of `resource` that may be in flight at once.
  unsigned resourceLimit(AsyncResource resource) const;

  struct Timeline {
    /// When the last instruction ends.
    double makespan = 0;
    /// Time the compute stream waited at dones.
    double exposed = 0;
    /// Start/done pairs met.
    unsigned pairs = 0;
  };
  /// Plays `order` (the ops of one computation) forward.
  Timeline simulate(ArrayRef<Operation *> order);

  const LatencyEstimatorOptions &getOptions() const { return options; }

private:
  GpuPerformanceModel model;
  SymbolTableCollection tables;
  LatencyEstimatorOptions options;
};

} // namespace mlir::hlo

#endif // HLO_ANALYSIS_GPULATENCYESTIMATOR_H
