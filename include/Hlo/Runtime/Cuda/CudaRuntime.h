//===- CudaRuntime.h - run a thunk program on an NVIDIA GPU -----*- C++ -*-===//
//
// The CUDA runtime: runs a thunk program (docs/thunk.md) on the first CUDA
// device through the driver API, in one device allocation laid out as the
// program's allocations say. Kernels are loaded from the PTX that
// hlo-embed-ptx attached to each `gpu.module` (`thunk.ptx`) and launched
// with their slices' addresses; GEMMs go to cuBLASLt (epilogues included);
// copies and memsets are asynchronous driver calls on one stream; loops
// and conditionals read their predicate back to the host (not when the
// loop's trip count is known); each `thunk.command_buffer` is captured
// once into a CUDA graph and replayed. A program of several devices
// (`num_replicas` x `num_partitions`) runs device id d on CUDA device d,
// each in a thread of its own, and its collectives through NCCL on a
// second stream per device (lib/Runtime/Cuda/CudaCollectives.h).
//
// libcuda and libcublasLt are opened at run time (dlopen), so tools built
// with this runtime start on a machine without a GPU or a driver, where
// `CudaExecutable::compile` fails with a clear error. Nothing here needs a
// GPU to build: only the CUDA toolkit's headers.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_RUNTIME_CUDA_CUDARUNTIME_H
#define HLO_RUNTIME_CUDA_CUDARUNTIME_H

#include "Hlo/Runtime/Thunk/Executable.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::thunk {
namespace cuda {
class NcclComms;
} // namespace cuda

/// Loads the CUDA driver and opens device 0 (once per process); on failure
/// `error` says why (no driver, no device, a driver too old). On success
/// `description` names the device ("NVIDIA H100 80GB HBM3, sm_90, 79 GiB,
/// driver 13.0").
/// Opens CUDA device 0; `description` names it (and says how many devices
/// there are when there are several).
LogicalResult openCudaDevice(std::string &description, std::string &error);

/// The number of CUDA devices, or failure with `error` (no driver).
FailureOr<int> countCudaDevices(std::string &error);

/// Whether NCCL (the version of the nccl.h this was built with) can run
/// every collective thunk of `program` as the runtime issues it for several
/// devices: element types it reduces, dimensions split most major, chunks
/// of whole bytes; else the first it cannot in `error`. Needs neither a GPU
/// nor NCCL's library.
LogicalResult checkNcclCollectives(ModuleOp program, std::string &error);

class CudaExecutable : public Executable {
public:
  ~CudaExecutable() override;

  /// Checks `program` (a module holding one `thunk.program` whose kernel
  /// modules carry their PTX), opens the devices (one per device of the
  /// program), loads the kernels on each and, for several devices, makes
  /// NCCL's communicators.
  static std::unique_ptr<CudaExecutable> compile(ModuleOp program,
                                                 std::string &error);

  /// Executable::run: every device takes `parameters`; `results` are
  /// device 0's. Each device's arena is allocated (filled with 0xff bytes,
  /// constants copied in) on the first run and reused by the next. When a
  /// device fails the others stop (NCCL's communicators are aborted, so
  /// later runs fail).
  LogicalResult run(ArrayRef<ParameterBytes> parameters,
                    std::vector<std::vector<uint8_t>> &results,
                    std::string &error, RunStats *stats = nullptr) override;

  /// With `on`, the next run first times every candidate algorithm of
  /// each GEMM (cuBLASLt's) and convolution (cuDNN's) on the device (before
  /// the thunks run, on their own slices) and keeps the fastest (XLA's
  /// GemmAlgorithmPicker and GpuConvAlgorithmPicker on a GPU); calls that
  /// write a parameter's allocation keep theirs.
  void setAutotune(bool on);

  /// One library call's autotuning: its thunk.gemm or thunk.convolution
  /// (of device 0's program copy, whose locations are the compiled
  /// module's), the algorithm chosen (a GEMM's: its index among cuBLASLt's
  /// heuristic's candidates; a convolution's: cuDNN's algorithm number),
  /// how many candidates there were, the chosen one's time and scratch
  /// (convolutions), and whether it may use tensor cores.
  struct Tuning {
    Operation *op = nullptr;
    int64_t algorithm = 0;
    int64_t candidates = 0;
    double seconds = 0;
    int64_t scratchBytes = 0;
    bool tensorOps = false;
  };
  /// What the last autotuning chose (device 0's).
  ArrayRef<Tuning> getTunings() const;

  class State;

private:
  CudaExecutable();
  /// One per device, by device id.
  std::vector<std::unique_ptr<State>> states;
  /// Several devices' communicators (destroyed before the devices' states).
  std::unique_ptr<cuda::NcclComms> nccl;
};

} // namespace mlir::thunk

#endif // HLO_RUNTIME_CUDA_CUDARUNTIME_H
