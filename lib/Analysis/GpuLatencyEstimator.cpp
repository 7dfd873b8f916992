//===- GpuLatencyEstimator.cpp - time of a GPU schedule -------------------===//

#include "Hlo/Analysis/GpuLatencyEstimator.h"

#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::hlo;

namespace {

// XLA's ApproximateLatencyEstimator constants.
constexpr double kLowCost = 1, kMediumCost = 1000, kHighCost = 5000;
constexpr double kHighLatency = 5000;
// XLA's GPU limit of send/recv pairs in flight per stream.
constexpr unsigned kP2PInFlight = 4;

/// The computation an async-start runs holds a collective.
bool wrapsCollective(AsyncStartOp start) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<ComputationOp>(
      start, start.getCallsAttr());
  if (!callee)
    return false;
  return llvm::any_of(callee.getBody().front(),
                      [](Operation &op) { return isArrayCollective(&op); });
}

/// XLA's IsNopInstruction: what runs no kernel.
bool isNop(Operation *op) {
  return isa<GetTupleElementOp, BitcastOp, ConstantOp, TupleOp, PartitionIdOp,
             ReplicaIdOp, OptimizationBarrierOp>(op);
}

} // namespace

/// An op that starts asynchronous work, synchronous or not.
static bool isAsyncStartKind(Operation *op) {
  return isa<AllReduceStartOp, AllGatherStartOp, CollectivePermuteStartOp,
             CopyStartOp, AsyncStartOp, SendOp, RecvOp>(op);
}

bool mlir::hlo::isSchedulableAsyncStart(Operation *op) {
  if (!isAsyncStartKind(op))
    return false;
  if (BackendConfigAttr config = readBackendConfig(op))
    if (BackendConfigAttr collective = config.getCollectiveBackendConfig())
      if (std::optional<bool> sync = collective.getBool("is_sync"))
        return !*sync;
  return true;
}

/// The start (schedulable or synchronous) `done` waits for, or null.
static Operation *startOfDone(Operation *done) {
  if (!isa<AllReduceDoneOp, AllGatherDoneOp, CollectivePermuteDoneOp,
           CopyDoneOp, AsyncDoneOp, SendDoneOp, RecvDoneOp>(done) ||
      done->getNumOperands() != 1)
    return nullptr;
  Operation *start = done->getOperand(0).getDefiningOp();
  while (start && isa<AsyncUpdateOp>(start))
    start = start->getOperand(0).getDefiningOp();
  if (!start || !isAsyncStartKind(start))
    return nullptr;
  // The start must be the done's kind (an all-reduce-done of a copy-start
  // does not verify, but the analysis must not rely on that).
  bool matches = (isa<AllReduceDoneOp>(done) && isa<AllReduceStartOp>(start)) ||
                 (isa<AllGatherDoneOp>(done) && isa<AllGatherStartOp>(start)) ||
                 (isa<CollectivePermuteDoneOp>(done) &&
                  isa<CollectivePermuteStartOp>(start)) ||
                 (isa<CopyDoneOp>(done) && isa<CopyStartOp>(start)) ||
                 (isa<AsyncDoneOp>(done) && isa<AsyncStartOp>(start)) ||
                 (isa<SendDoneOp>(done) && isa<SendOp>(start)) ||
                 (isa<RecvDoneOp>(done) && isa<RecvOp>(start));
  return matches ? start : nullptr;
}

Operation *mlir::hlo::getAsyncStartOfDone(Operation *done) {
  Operation *start = startOfDone(done);
  return start && isSchedulableAsyncStart(start) ? start : nullptr;
}

/// The done of a start, schedulable or synchronous.
static Operation *doneOfStart(Operation *start) {
  if (!isAsyncStartKind(start))
    return nullptr;
  SmallVector<Operation *> work = {start};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    for (Operation *user : op->getUsers()) {
      if (isa<AsyncUpdateOp>(user))
        work.push_back(user);
      else if (startOfDone(user) == start)
        return user;
    }
  }
  return nullptr;
}

Operation *mlir::hlo::getAsyncDoneOfStart(Operation *start) {
  return isSchedulableAsyncStart(start) ? doneOfStart(start) : nullptr;
}

AsyncResource mlir::hlo::getAsyncResource(Operation *op) {
  if (Operation *start = getAsyncStartOfDone(op))
    op = start;
  if (isa<SendOp>(op))
    return AsyncResource::Send;
  if (isa<RecvOp>(op))
    return AsyncResource::Recv;
  if (isa<CopyStartOp>(op))
    return AsyncResource::AsyncCompute;
  if (auto start = dyn_cast<AsyncStartOp>(op))
    return wrapsCollective(start) ? AsyncResource::Collectives
                                  : AsyncResource::AsyncCompute;
  return AsyncResource::Collectives;
}

GpuLatencyEstimator::GpuLatencyEstimator(const GpuDeviceInfo &device,
                                         LatencyEstimatorOptions options)
    : model(device), options(options) {
  model.setSymbolTables(&tables);
}

double GpuLatencyEstimator::nodeCost(Operation *op) {
  // A synchronous pair blocks the stream for its transfer, at its start.
  if (isAsyncStartKind(op))
    return isSchedulableAsyncStart(op) ? 0 : transferTime(op);
  if (startOfDone(op) || isNop(op))
    return 0;
  if (!options.approximate) {
    const EstimateRunTimeData &data = model.estimateRunTime(op);
    return data.isKernel ? data.totalUs : 0;
  }
  if (isa<CustomCallOp>(op))
    return kMediumCost;
  if (auto fusion = dyn_cast<FusionOp>(op)) {
    if (fusion.getKind() == FusionKind::kLoop)
      return kMediumCost;
    if (fusion.getKind() == FusionKind::kOutput)
      return kHighCost;
  }
  if (isa<ConvolutionOp>(op))
    return kHighCost;
  return kLowCost;
}

double GpuLatencyEstimator::transferTime(Operation *start) {
  if (options.approximate)
    return kHighLatency;
  int64_t bytes = 0;
  if (isa<SendOp>(start)) {
    bytes = getTypeSizeInBytes(start->getOperand(0).getType());
  } else if (isa<AsyncStartOp>(start) &&
             getAsyncResource(start) == AsyncResource::AsyncCompute) {
    // Compute on another stream: the fixed latency alone.
    bytes = 0;
  } else if (Operation *done = doneOfStart(start)) {
    for (Type t : done->getResultTypes())
      bytes += getTypeSizeInBytes(t);
  }
  // GB/s = bytes per nanosecond = 1000 bytes per microsecond.
  return options.transferLatencyUs +
         double(bytes) / (options.interconnectBandwidth * 1e3);
}

unsigned GpuLatencyEstimator::resourceLimit(AsyncResource resource) const {
  switch (resource) {
  case AsyncResource::Collectives:
    return std::max(1u, options.collectiveOverlapLimit);
  case AsyncResource::Send:
  case AsyncResource::Recv:
    return kP2PInFlight;
  case AsyncResource::AsyncCompute:
    return 1;
  }
  return 1;
}

GpuLatencyEstimator::Timeline
GpuLatencyEstimator::simulate(ArrayRef<Operation *> order) {
  Timeline timeline;
  double now = 0;
  // When each lane of each resource is free again.
  SmallVector<double> lanes[kNumAsyncResources];
  for (unsigned r = 0; r < kNumAsyncResources; ++r)
    lanes[r].assign(resourceLimit(AsyncResource(r)), 0.0);
  llvm::DenseMap<Operation *, double> transferEnd;
  for (Operation *op : order) {
    if (isSchedulableAsyncStart(op)) {
      auto &free = lanes[unsigned(getAsyncResource(op))];
      double *lane = std::min_element(free.begin(), free.end());
      double begin = std::max(now, *lane);
      *lane = begin + transferTime(op);
      transferEnd[op] = *lane;
      continue;
    }
    if (Operation *start = getAsyncStartOfDone(op)) {
      auto it = transferEnd.find(start);
      if (it != transferEnd.end()) {
        ++timeline.pairs;
        if (it->second > now) {
          timeline.exposed += it->second - now;
          now = it->second;
        }
      }
      continue;
    }
    now += nodeCost(op);
  }
  timeline.makespan = now;
  return timeline;
}
