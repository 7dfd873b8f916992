//===- HostKernels.h - fusions run by their kernels on the host -*- C++ -*-===//
//
// hlo-run --device=host-kernels: the module's fusions compiled to kernels
// (hlo-to-gpu), turned into host functions (hlo-gpu-kernels-to-host) and
// JIT-compiled (HostJit.h); the interpreter runs everything else and calls
// these for the fusions that have a kernel.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_RUN_HOSTKERNELS_H
#define HLO_RUN_HOSTKERNELS_H

#include "Hlo/Runtime/Literal.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir::hlo {

class HostJit;

class HostKernels {
public:
  ~HostKernels();

  /// Compiles the kernels of every fusion of `module` an emitter takes.
  static std::unique_ptr<HostKernels> compile(ModuleOp module,
                                              std::string &error);

  /// Runs `fusion` (an instruction of the compiled module) by its kernel;
  /// std::nullopt when it has none.
  std::optional<FailureOr<runtime::Literal>>
  run(Operation *fusion, ArrayRef<const runtime::Literal *> operands,
      std::string &error);

  unsigned getNumKernels() const { return kernelOf.size(); }

private:
  HostKernels() = default;
  std::unique_ptr<HostJit> jit;
  llvm::DenseMap<Operation *, std::string> kernelOf;
  /// Per kernel, the operand each output aliases (-1: none): the kernel's
  /// `hlo.output_aliases`; the operand is copied into the output first.
  llvm::StringMap<SmallVector<int64_t>> aliasesOf;
  /// The kernels launched after a kernel for the same fusion (a sort's).
  llvm::StringMap<SmallVector<std::string>> thenOf;
};

} // namespace mlir::hlo

#endif // HLO_RUN_HOSTKERNELS_H
