//===- HostJit.h - run arith/math/scf/memref functions on the host -*- C++
//-*-===//
//
// The host JIT harness: a module of `func.func`s on scalars and memrefs whose
// bodies use arith, math, complex, scf, cf and memref is lowered to the LLVM
// dialect with upstream conversions (complex to standard, arith expansion,
// the narrow float conversions of ScalarLowering.h as integer ops, math to
// libm calls and LLVM intrinsics, memref/func/cf/arith to LLVM) and compiled
// by MLIR's ExecutionEngine (LLVM's ORC JIT) for the host CPU.
//
// Every public function gets a C interface: a memref argument is passed as
// a pointer to its descriptor (StridedMemRefType of
// mlir/ExecutionEngine/CRunnerUtils.h), a scalar by value. invoke() calls
// one with a pointer to each argument, as ExecutionEngine::invokePacked.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_CONVERSION_HOSTJIT_H
#define HLO_CONVERSION_HOSTJIT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
class ExecutionEngine;
} // namespace mlir

namespace mlir::hlo {

/// The suffix of the function hlo-gpu-kernels-to-host makes of a kernel's
/// loop over its blocks: `<kernel>.blocks(arguments..., first, end)` runs
/// the blocks [first, end) (numbered x fastest); public where they may run
/// on several threads at once.
constexpr StringLiteral kHostBlocksSuffix = ".blocks";

/// The dialects a module given to the harness may use (and that
/// lowerToLLVMDialect produces), with their LLVM IR translations.
void registerHostJitDialects(DialectRegistry &registry);

/// Lowers `module` in place to the LLVM dialect. Public functions get
/// `llvm.emit_c_interface`. Fails (with diagnostics) when an op is left.
LogicalResult lowerToLLVMDialect(ModuleOp module);

struct HostJitOptions {
  /// LLVM optimization level of the JIT (0-3).
  unsigned optLevel = 2;
};

class HostJit {
public:
  ~HostJit();

  /// Lowers a clone of `module` and compiles it; on failure, `error` says
  /// why. The module's context must have the dialects of
  /// registerHostJitDialects.
  static std::unique_ptr<HostJit> compile(ModuleOp module, std::string &error,
                                          const HostJitOptions &options = {});

  /// Calls public function `name` through its C interface with `args`: a
  /// pointer to each argument (to the scalar, or to the pointer to a memref
  /// descriptor), then, for a function with one result, a pointer to where
  /// it goes. A function with several results takes first a pointer to the
  /// pointer to a struct of them.
  LogicalResult invoke(StringRef name, MutableArrayRef<void *> args,
                       std::string &error);

  /// Public function `name`'s C interface, called as invoke() calls it
  /// (for callers that call it often: the lookup is not free).
  using PackedFunction = void (*)(void **);
  FailureOr<PackedFunction> lookup(StringRef name, std::string &error);

  /// Calls public function `name` whose arguments are all one-dimensional
  /// memrefs (a kernel turned into a host function), one per buffer of
  /// `buffers`, each over that buffer's bytes.
  LogicalResult invokeOnBuffers(StringRef name,
                                MutableArrayRef<std::vector<uint8_t>> buffers,
                                std::string &error);

private:
  HostJit() = default;
  std::unique_ptr<ExecutionEngine> engine;
};

} // namespace mlir::hlo

#endif // HLO_CONVERSION_HOSTJIT_H
