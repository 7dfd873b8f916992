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

/// Compiles a clone of `module` and runs it on `arguments`; `note` gets a
/// one-line summary (thunks run, arena size).
FailureOr<runtime::Literal> runOnHostDevice(ModuleOp module,
                                            ArrayRef<runtime::Literal> arguments,
                                            std::string &error,
                                            std::string &note);

} // namespace mlir::hlo

#endif // HLO_PIPELINES_HOSTDEVICE_H
