//===- Executable.h - a compiled thunk program, on some device --*- C++ -*-===//
//
// What the runtimes share: a thunk program (the thunk dialect,
// docs/thunk.md) compiled for one device and run any number of times on
// parameter bytes, giving the bytes of its results. The host runtime
// (Hlo/Runtime/Host/HostRuntime.h) and the CUDA runtime
// (Hlo/Runtime/Cuda/CudaRuntime.h) implement it; hlo-run and the device
// pipeline (Hlo/Pipelines/RunOnDevice.h) see only this interface.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_RUNTIME_THUNK_EXECUTABLE_H
#define HLO_RUNTIME_THUNK_EXECUTABLE_H

#include "Hlo/Dialect/Thunk/ThunkDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace mlir::thunk {

/// The bytes of one parameter allocation: ENTRY parameter `parameter` at
/// shape index `index`, in the array's physical order.
struct ParameterBytes {
  int64_t parameter = 0;
  SmallVector<int64_t> index;
  ArrayRef<uint8_t> bytes;
};

/// The time one kernel (by name) or one kind of library call took over a
/// run, when `RunStats::profile` asks for it.
struct ThunkTime {
  std::string name;
  int64_t count = 0;
  double seconds = 0;
};

/// What one run did.
struct RunStats {
  /// Set before the run: time every thunk (the device waits after each).
  bool profile = false;
  int64_t arenaBytes = 0;
  /// Of them (host runtime) or beside them (CUDA runtime), the bytes of the
  /// allocations in host memory (`memory_space = 5`).
  int64_t hostMemoryBytes = 0;
  int64_t kernels = 0, gemms = 0, convolutions = 0, ffts = 0, copies = 0,
          memsets = 0, collectives = 0;
  /// Triangular solves and Cholesky factorizations (cuBLAS / cuSOLVER).
  int64_t solvers = 0;
  /// Radix sorts (CUB).
  int64_t sorts = 0;
  /// Loop iterations, conditionals, and command buffers replayed as graphs.
  int64_t iterations = 0, branches = 0, graphs = 0;
  /// Parameters read where the caller keeps them, not copied in (the host
  /// runtime's: those no thunk writes).
  int64_t parametersInPlace = 0;
  /// Kernels of the program the host runtime did not launch: transposes
  /// that only lay out a convolution's filter (which then reads their
  /// input).
  int64_t transposesLeftOut = 0;
  /// The thunks' time on the device (CUDA events around the program; the
  /// wall clock on the host), parameters and results not counted.
  double deviceSeconds = 0;
  /// With `profile`: the time of each kernel and library call, slowest first.
  std::vector<ThunkTime> thunkTimes;

  /// One line: the thunks run and the arena's size.
  std::string summary() const;
  /// Adds one call of `name` that took `seconds` to `thunkTimes`.
  void record(StringRef name, double seconds);
  /// Sorts `thunkTimes`, slowest first.
  void sortTimes();

private:
  llvm::StringMap<size_t> timeIndex;
};

/// One value of an infeed, outfeed, send or recv: the bytes of each array.
using TransferValue = std::vector<std::vector<uint8_t>>;

/// The host's side of a run's infeeds, outfeeds and host transfers. Each
/// device's infeeds read `infeed` in order from its start (a value: the
/// bytes of each array the thunk writes), and its host-transfer recvs of
/// channel c `fromHost[c]` alike; after the run `outfeed[d]` holds what
/// device `d` wrote, in order (a value: the bytes of each array the thunk
/// reads), and `toHost[d]` the (channel, value) of its host-transfer sends.
struct HostTransfers {
  std::vector<TransferValue> infeed;
  std::vector<std::vector<TransferValue>> outfeed;
  std::map<int64_t, std::vector<TransferValue>> fromHost;
  std::vector<std::vector<std::pair<int64_t, TransferValue>>> toHost;

  /// Makes room for the outputs of `devices` devices (none yet).
  void clearOutputs(int64_t devices) {
    outfeed.assign(devices, {});
    toHost.assign(devices, {});
  }
};

/// One device's infeed, outfeed and channels over one run: what
/// `thunk.infeed`, `outfeed`, `send` and `recv` do apart from moving bytes,
/// the same for every runtime. A recv takes the oldest value sent on its
/// channel by the same device (the interpreter's model); host transfers
/// go to and come from the host (HostTransfers).
class DeviceTransfers {
public:
  DeviceTransfers(HostTransfers *transfers, int64_t device)
      : transfers(transfers), device(device) {}

  /// Runs transfer thunk `op`: `read` gives the bytes of slices (its
  /// inputs), `write` stores a value into slices (its outputs; the value
  /// checked against their sizes first). Fails with `error`.
  LogicalResult run(Operation *op, function_ref<TransferValue(ValueRange)> read,
                    function_ref<void(ValueRange, const TransferValue &)> write,
                    std::string &error);

private:
  HostTransfers *transfers;
  int64_t device;
  size_t infeedNext = 0;
  std::map<int64_t, size_t> fromHostNext;
  std::map<int64_t, std::deque<TransferValue>> mailbox;
};

/// Each device's own parameters and results: a partitioned program's
/// devices hold different tiles of its arrays.
struct DeviceIO {
  /// One set per device (replica-major); empty: every device takes the
  /// run's parameters.
  std::vector<std::vector<ParameterBytes>> parameters;
  /// Written by each run: every device's result bytes (as `results` of
  /// `run` for device 0).
  std::vector<std::vector<std::vector<uint8_t>>> results;
};

class Executable {
public:
  virtual ~Executable();

  /// The infeed and outfeed of the following runs (none: a thunk.infeed
  /// finds the queue empty and outfeed values are dropped).
  void setHostTransfers(HostTransfers *t) { transfers = t; }
  /// Each device's parameters and results of the following runs (none:
  /// every device takes the run's parameters, device 0 gives the results).
  void setDeviceIO(DeviceIO *io) { deviceIO = io; }

  /// Runs the program once: parameter allocations take `parameters` (each
  /// must be given, with at most the allocation's size), constants their
  /// values, temporaries and outputs undefined bytes. `results` gets the
  /// bytes of each slice of `thunk.return`.
  virtual LogicalResult run(ArrayRef<ParameterBytes> parameters,
                            std::vector<std::vector<uint8_t>> &results,
                            std::string &error, RunStats *stats = nullptr) = 0;

protected:
  /// The parameters of device `d` of `devices` for a run given
  /// `parameters`; fails when the per-device sets do not fit.
  FailureOr<ArrayRef<ParameterBytes>>
  parametersOf(int64_t d, int64_t devices, ArrayRef<ParameterBytes> parameters,
               std::string &error) const;

  HostTransfers *transfers = nullptr;
  DeviceIO *deviceIO = nullptr;
};

//===----------------------------------------------------------------------===//
// What every runtime does the same way
//===----------------------------------------------------------------------===//

/// Where each allocation of `module` starts in one arena: at a multiple of
/// its alignment (at least `kArenaAlignment`), in the order of the
/// allocations. Returns the arena's size in bytes. With `memorySpace`, only
/// the allocations in that memory space (0, the device's, for those that
/// name none): the CUDA runtime's device arena and its pinned host block.
constexpr int64_t kArenaAlignment = 64;
int64_t layOutArena(ModuleOp module,
                    SmallVectorImpl<std::pair<AllocationOp, int64_t>> &offsets,
                    std::optional<int64_t> memorySpace = std::nullopt);

/// The bytes of constant allocation `alloc` (its `value` in storage order,
/// a splat repeated); fails for a value that is not a dense array.
LogicalResult constantBytes(AllocationOp alloc, std::vector<uint8_t> &bytes,
                            std::string &error);

/// The bytes `parameters` give each parameter allocation of `module`, in
/// the order of the allocations; fails when one is missing or too large.
LogicalResult matchParameters(
    ModuleOp module, ArrayRef<ParameterBytes> parameters,
    SmallVectorImpl<std::pair<AllocationOp, ArrayRef<uint8_t>>> &out,
    std::string &error);

/// `thunk.pad_to_static` on host bytes: the dynamic array at `input`
/// (XLA's storage) at its bounds into `output`, its sizes into `sizes`
/// (DynamicArrays.cpp).
LogicalResult padToStatic(Operation *op, uint8_t *input, uint8_t *output,
                          ArrayRef<uint8_t *> sizes, std::string &error);

/// `thunk.slice_to_dynamic` on host bytes: the inverse.
LogicalResult sliceToDynamic(Operation *op, uint8_t *input,
                             ArrayRef<uint8_t *> sizes, uint8_t *output,
                             std::string &error);

} // namespace mlir::thunk

#endif // HLO_RUNTIME_THUNK_EXECUTABLE_H
