//===- HostDevice.h - compile a module and run it on the host ---*- C++ -*-===//
//
// What `hlo-run --device=host` does: compiles a module with the GPU compiler
// (hlo-gpu-optimize unless it is already buffer-assigned, then hlo-to-gpu
// and hlo-to-thunk) and runs the thunk program on the host runtime
// (Hlo/Runtime/Host/HostRuntime.h), arguments and results as literals.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_PIPELINES_HOSTDEVICE_H
#define HLO_PIPELINES_HOSTDEVICE_H

#include "Hlo/Runtime/Literal.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::hlo {

/// What `runOnHostDevice` measures when given one: the compile (the GPU
/// compiler's passes and the host JIT of the kernels) and the fastest of
/// `repeat` runs of the compiled program (each: the arena laid out and
/// filled, parameters copied in, the thunks, results copied out; encoding
/// the arguments and decoding the results excluded).
struct HostDeviceTiming {
  unsigned repeat = 1;
  double compileSeconds = 0;
  double runSeconds = 0;
};

/// Compiles a clone of `module` and runs it on `arguments` (`timing->repeat`
/// times when given); `note` gets a one-line summary (thunks run, arena
/// size).
FailureOr<runtime::Literal>
runOnHostDevice(ModuleOp module, ArrayRef<runtime::Literal> arguments,
                std::string &error, std::string &note,
                HostDeviceTiming *timing = nullptr);

} // namespace mlir::hlo

#endif // HLO_PIPELINES_HOSTDEVICE_H
