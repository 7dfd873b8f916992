//===- CudaCollectives.h - collective thunks through NCCL -------*- C++ -*-===//
//
// A program of several devices (`num_replicas` x `num_partitions` > 1) runs
// device id d on CUDA device ordinal d, and its collective thunks through
// NCCL: one clique of communicators per group of each distinct `groups`
// list (ncclCommInitAll over the group's devices, so a member's rank is
// its position in the group), one over every device for the
// collective-permutes. Collectives whose data NCCL moves as bytes
// (all-gather, all-to-all, permute, broadcast) take any element type;
// reductions take NCCL's types (and pred, complex sums). Without nccl.h at
// build time the runtime says so instead.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_RUNTIME_CUDA_CUDACOLLECTIVES_H
#define HLO_LIB_RUNTIME_CUDA_CUDACOLLECTIVES_H

#include "CudaApi.h"

#include "Hlo/Dialect/Thunk/ThunkDialect.h"

#include <array>
#include <memory>
#include <string>

namespace mlir::thunk::cuda {

/// A ragged-all-to-all's input_offsets, send_sizes and output_offsets on
/// this device, read to the host as 64-bit integers (`stream`, which
/// orders them after the thunks that wrote them, is synchronized).
LogicalResult readRaggedRanges(const Driver &cu, RaggedAllToAllOp op,
                               function_ref<CUdeviceptr(Value)> address,
                               CUstream stream,
                               std::array<SmallVector<int64_t>, 3> &ranges,
                               std::string &error);

class NcclComms {
public:
  ~NcclComms();

  /// The communicators `module`'s collectives need on `devices` devices
  /// (ordinals 0 .. devices-1, whose primary contexts are retained), or
  /// null with `error` (no NCCL, a collective NCCL cannot run, a failed
  /// initialization).
  static std::unique_ptr<NcclComms> create(ModuleOp module, int64_t devices,
                                           std::string &error);

  /// Enqueues collective thunk `op` of device `device` on `stream`;
  /// `address` gives a slice's device address.
  LogicalResult run(Operation *op, int64_t device,
                    function_ref<CUdeviceptr(Value)> address, CUstream stream,
                    std::string &error);

  /// Aborts every communicator, so that devices waiting in a collective
  /// for a device that failed stop waiting. Later runs fail.
  void abort();
  bool aborted() const;

  /// The first asynchronous NCCL error of device `device`'s communicators.
  LogicalResult checkAsyncErrors(int64_t device, std::string &error);

  struct State;

private:
  NcclComms();
  std::unique_ptr<State> state;
};

} // namespace mlir::thunk::cuda

#endif // HLO_LIB_RUNTIME_CUDA_CUDACOLLECTIVES_H
