//===- RunOnDevice.h - compile a module and run it on a device --*- C++ -*-===//
//
// What `hlo-run --device=host|cuda` does: compiles a module with the GPU
// compiler (hlo-gpu-optimize unless it is already buffer-assigned, then
// hlo-to-gpu and hlo-to-thunk, and hlo-embed-ptx for CUDA) and runs the
// thunk program on the host runtime (Hlo/Runtime/Host/HostRuntime.h) or
// the CUDA runtime (Hlo/Runtime/Cuda/CudaRuntime.h), arguments and results
// as literals.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_PIPELINES_RUNONDEVICE_H
#define HLO_PIPELINES_RUNONDEVICE_H

#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Runtime/Literal.h"
#include "Hlo/Runtime/Thunk/Executable.h"
#include "Hlo/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <string>

namespace mlir::hlo {

enum class DeviceKind { Host, Cuda };

/// "host" or "cuda".
StringRef deviceName(DeviceKind kind);

/// Whether a device of `kind` can run programs here: the host always; CUDA
/// when this build has the CUDA runtime, a driver and a GPU. On success
/// `description` names the device, else `error` says what is missing.
LogicalResult probeDevice(DeviceKind kind, std::string &description,
                          std::string &error);

/// The number of CUDA devices (programs of several devices run one device
/// on each), or failure with `error` (no CUDA runtime, no driver).
FailureOr<int> countCudaDevices(std::string &error);

/// Whether the CUDA runtime's NCCL can run the collectives of thunk program
/// `program` on several devices (thunk::checkNcclCollectives); no GPU
/// needed.
LogicalResult checkNcclCollectives(ModuleOp program, std::string &error);

/// What `runOnDevice` measures when given one: the compile (the GPU
/// compiler's passes and the runtime's compile: the host JIT of the
/// kernels, or loading their PTX) and the fastest of `repeat` runs of the
/// compiled program (each: parameters copied in, the thunks, results copied
/// out; encoding the arguments and decoding the results excluded), with
/// the device time of that run (CUDA events on the GPU). With `profile`,
/// the runs time every thunk (`stats.thunkTimes`).
struct DeviceTiming {
  unsigned repeat = 1;
  bool profile = false;
  double compileSeconds = 0;
  double runSeconds = 0;
  /// The fastest run's statistics.
  thunk::RunStats stats;
};

/// Lowers a clone of the HLO `module` to a thunk program for `kind`, whose
/// devices' random states start at `rngSeed`, compiled with `options` (a
/// module not yet buffer-assigned goes through hlo-gpu-optimize). With
/// `options.deterministic` (XLA's xla_gpu_deterministic_ops), scatters
/// whose result may depend on the order of their updates become loops and
/// the program is marked `deterministic` (the CUDA runtime then takes
/// deterministic cuDNN algorithms only).
FailureOr<OwningOpRef<ModuleOp>>
compileToThunks(ModuleOp module, DeviceKind kind, std::string &error,
                uint64_t rngSeed = 0, const GpuOptimizeOptions &options = {});

/// Compiles the thunk program `program` for the runtime of `kind`.
std::unique_ptr<thunk::Executable>
loadExecutable(ModuleOp program, DeviceKind kind, std::string &error);

/// Runs `exe` `timing.repeat` times (at least once) on `parameters`,
/// keeping the fastest run's time and statistics in `timing` (profiled
/// when `timing.profile`) and the last run's results.
LogicalResult runRepeatedly(thunk::Executable &exe,
                            ArrayRef<thunk::ParameterBytes> parameters,
                            std::vector<std::vector<uint8_t>> &results,
                            DeviceTiming &timing, std::string &error);

/// The bytes of every array of `arguments` (of the parameter types
/// `types`), one `ParameterBytes` per array with its index in its
/// parameter's tuple; `storage` holds the bytes.
void encodeParameters(ArrayRef<runtime::Literal> arguments,
                      ArrayRef<Type> types,
                      std::vector<thunk::ParameterBytes> &parameters,
                      std::vector<std::vector<uint8_t>> &storage);

/// Compiles a clone of `module` (random states starting at `rngSeed`, as the
/// interpreter's with InterpreterOptions::seed) and runs it on `arguments`
/// (`timing->repeat` times when given; each run advances the random
/// states); `note` gets a one-line summary (thunks run, arena size). The
/// host's side as the interpreter's: the random states start at
/// `host.seed`, each device's infeeds read `host.infeed` in order and its
/// host-transfer recvs `host.fromHost`; `outputs`, when given, gets what
/// each device wrote with outfeed and sent to the host in the last run
/// (RunOutputs). Compiled with `options`
/// (compileToThunks). With an `autotuneTo` path (CUDA only), the first run
/// times every candidate algorithm of each GEMM (cuBLASLt) and convolution
/// (cuDNN) and keeps the fastest, and the choices are written there as
/// XLA's autotune results (writeAutotuneResults, GpuLibraryPasses.h), which
/// `GpuOptimizeOptions::autotuneCache` reads back.
FailureOr<runtime::Literal>
runOnDevice(ModuleOp module, ArrayRef<runtime::Literal> arguments,
            DeviceKind kind, std::string &error, std::string &note,
            DeviceTiming *timing = nullptr,
            const runtime::InterpreterOptions &host = {},
            runtime::RunOutputs *outputs = nullptr,
            const GpuOptimizeOptions &options = {}, StringRef autotuneTo = "");

} // namespace mlir::hlo

#endif // HLO_PIPELINES_RUNONDEVICE_H
