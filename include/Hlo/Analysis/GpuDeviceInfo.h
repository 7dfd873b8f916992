//===- GpuDeviceInfo.h - the description of a target GPU --------*- C++ -*-===//
//
// The facts about a GPU that XLA's se::DeviceDescription holds and that its
// GPU cost model and passes read: compute capability, SM count, clock,
// memory bandwidth, cache and shared-memory sizes, register and thread
// limits, and the FLOP rates of the scalar and matrix (tensor core) units
// per element type.
//
// A description comes from a built-in name (`h100`, the default; `h200`;
// `a100`) or from a file in the text format of XLA's GpuTargetConfigProto
// (the `.txtpb` files of xla/backends/gpu/target_config/specs); see
// docs/gpu-cost-model.md. hlo-opt selects it with `--hlo-gpu-device`.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_ANALYSIS_GPUDEVICEINFO_H
#define HLO_ANALYSIS_GPUDEVICEINFO_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::hlo {

/// The throughput of one kind of execution unit for one element type (XLA's
/// ExecutionUnitDescription::RateInfo): `unitsPerCore` units per SM, each
/// retiring `opsPerClock` operations (an FMA counts once) per clock.
struct ExecutionUnitRate {
  double clockRateGhz = 0;
  int64_t unitsPerCore = 0;
  int64_t opsPerClock = 0;

  /// FLOP per nanosecond of the whole device (an FMA is 2 FLOP).
  double peakFlopsPerNs(int64_t coreCount) const {
    return clockRateGhz * double(opsPerClock) * 2 * double(coreCount) *
           double(unitsPerCore);
  }
};

struct GpuDeviceInfo {
  std::string name;
  int computeCapabilityMajor = 0;
  int computeCapabilityMinor = 0;

  int64_t coreCount = 0;   // SMs
  int64_t fpusPerCore = 0; // FP32 units per SM
  double clockRateGhz = 0;
  int64_t memoryBandwidth = 0; // DRAM bytes per second
  int64_t deviceMemorySize = 0;
  int64_t l2CacheSize = 0;

  int64_t sharedMemoryPerBlock = 0;
  int64_t sharedMemoryPerBlockOptin = 0;
  int64_t sharedMemoryPerCore = 0;
  int64_t registersPerCoreLimit = 0;
  int64_t registersPerBlockLimit = 0;
  int64_t threadsPerBlockLimit = 0;
  int64_t threadsPerWarp = 0;
  int64_t threadsPerCoreLimit = 0;
  int64_t blockDimLimit[3] = {0, 0, 0};
  int64_t threadDimLimit[3] = {0, 0, 0};

  /// Rates keyed by XLA's PrimitiveType number (F32 = 11, BF16 = 16, ...;
  /// getXlaPrimitiveType), as in GpuDeviceInfoProto's rate_infos maps.
  llvm::SmallVector<std::pair<int, ExecutionUnitRate>> scalarUnitRates;
  llvm::SmallVector<std::pair<int, ExecutionUnitRate>> matrixUnitRates;

  /// XLA's GpuPerformanceModelBase::kKernelLaunchOverhead (not part of
  /// XLA's proto; the project's files may set `kernel_launch_overhead_us`).
  double kernelLaunchOverheadUs = 1.0;

  /// Facts se::DeviceDescription derives rather than reads (their NVIDIA
  /// values there): L1 per SM the model trusts to hold a buffer, the DRAM to
  /// L2 transaction size, and the 32-byte memory transactions one SM issues
  /// per clock.
  int64_t l1CacheSizePerCore() const { return 2 * 1024; }
  int64_t dramToL2TransactionSizeBytes() const { return 64; }
  int64_t memoryTransactionsPerClock() const { return 32; }

  /// The rate of the scalar (CUDA core) or matrix (tensor core) units for
  /// `elementType`, if the description has one.
  std::optional<ExecutionUnitRate> getScalarRate(Type elementType) const;
  std::optional<ExecutionUnitRate> getMatrixRate(Type elementType) const;

  /// A built-in description: `h100` (H100 SXM 80 GB), `h200`, `a100` (A100
  /// SXM 80 GB). Unknown names: an error listing the known ones.
  static llvm::Expected<GpuDeviceInfo> getBuiltin(llvm::StringRef name);
  static llvm::ArrayRef<llvm::StringLiteral> getBuiltinNames();

  /// A built-in name, else the path of a GpuTargetConfigProto text file.
  static llvm::Expected<GpuDeviceInfo> get(llvm::StringRef nameOrFile);

  /// Reads GpuTargetConfigProto text (a `gpu_device_info { ... }` message
  /// with the other top-level fields ignored) or bare GpuDeviceInfoProto
  /// fields. Errors name `bufferName`, the line and the field.
  static llvm::Expected<GpuDeviceInfo> parse(llvm::StringRef text,
                                             llvm::StringRef bufferName);

  /// The description as GpuDeviceInfoProto text (what parse reads back).
  std::string toText() const;
};

/// XLA's PrimitiveType number of an element type (PRED 1, S8 2, ..., F32 11,
/// F64 12, BF16 16, F8E5M2 19, F8E4M3FN 20, ...), or -1.
int getXlaPrimitiveType(Type elementType);

/// `--hlo-gpu-device=h100|h200|a100|FILE` and `--hlo-gpu-chip=sm_NN[a]`:
/// registers the options (call before parsing the command line, like MLIR's
/// register*CLOptions).
void registerGpuDeviceCLOptions();

/// Loads the device the option names (h100 when the option is not given or
/// not registered) and makes it the one getSelectedGpuDevice returns. Call
/// once, after parsing the command line and before any pass runs.
llvm::Error loadGpuDeviceFromCLOptions();

/// The device GPU passes and the cost model use: the one loaded from the
/// command line, else the built-in h100.
const GpuDeviceInfo &getSelectedGpuDevice();

/// The GPU architecture kernels are compiled for (`sm_90`): the one
/// `--hlo-gpu-chip` names, else the selected device's compute capability.
std::string getSelectedGpuChip();

/// The memory limit in bytes hlo-opt's `--hlo-memory-limit` sets for the
/// passes bounded by device memory (hlo-rematerialization), or -1 when not
/// given (each pass then derives its limit from the selected device).
void setSelectedMemoryLimit(int64_t bytes);
int64_t getSelectedMemoryLimit();

} // namespace mlir::hlo

#endif // HLO_ANALYSIS_GPUDEVICEINFO_H
