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
// once into a CUDA graph and replayed.
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

namespace mlir::thunk {

/// Loads the CUDA driver and opens device 0 (once per process); on failure
/// `error` says why (no driver, no device, a driver too old). On success
/// `description` names the device ("NVIDIA H100 80GB HBM3, sm_90, 79 GiB,
/// driver 13.0").
LogicalResult openCudaDevice(std::string &description, std::string &error);

class CudaExecutable : public Executable {
public:
  ~CudaExecutable() override;

  /// Checks `program` (a module holding one `thunk.program` whose kernel
  /// modules carry their PTX), opens the device and loads the kernels.
  static std::unique_ptr<CudaExecutable> compile(ModuleOp program,
                                                 std::string &error);

  /// Executable::run. The device arena is allocated (filled with 0xff
  /// bytes, constants copied in) on the first run and reused by the next.
  LogicalResult run(ArrayRef<ParameterBytes> parameters,
                    std::vector<std::vector<uint8_t>> &results,
                    std::string &error, RunStats *stats = nullptr) override;

  class State;

private:
  CudaExecutable();
  std::unique_ptr<State> state;
};

} // namespace mlir::thunk

#endif // HLO_RUNTIME_CUDA_CUDARUNTIME_H
