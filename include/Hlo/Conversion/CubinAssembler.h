//===- CubinAssembler.h - PTX to cubin --------------------------*- C++ -*-===//
//
// PTX assembled into a cubin for one chip, by one of NVIDIA's two
// assemblers: the nvJitLink library, in the process, or the `ptxas`
// program. Both come with the CUDA toolkit and give the same machine code;
// nvJitLink saves ptxas's start-up (some 10 ms a module, most of a small
// module's compile), which is why XLA can use it too
// (xla_gpu_enable_libnvjitlink).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_CONVERSION_CUBINASSEMBLER_H
#define HLO_CONVERSION_CUBINASSEMBLER_H

#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::hlo {

struct NvJitLinkLibrary;

class CubinAssembler {
public:
  enum class Kind { NvJitLink, Ptxas };

  /// The assembler `which` names: "nvjitlink" (libnvJitLink from the
  /// toolkit's lib64, else the library path; loaded once per process, on
  /// first use), "ptxas" (the toolkit's bin, else PATH), or "auto" (the
  /// first of the two found). `cudaPath` as getCudaToolkitPath reads it.
  /// nullopt, with the reason in `error`, where it is not found or `which`
  /// names none.
  static std::optional<CubinAssembler> find(StringRef which, StringRef cudaPath,
                                            std::string &error);

  Kind getKind() const { return kind; }

  /// `ptx` assembled for `chip` (sm_90, sm_90a, ...) at optimization level
  /// 3: the cubin's bytes, or failure with the assembler's own messages in
  /// `error`. Safe to call from several threads at once.
  FailureOr<std::string> assemble(StringRef ptx, StringRef chip,
                                  std::string &error) const;

private:
  CubinAssembler(Kind kind, std::string ptxas, const NvJitLinkLibrary *library)
      : kind(kind), ptxas(std::move(ptxas)), library(library) {}

  Kind kind;
  std::string ptxas;
  const NvJitLinkLibrary *library;
};

} // namespace mlir::hlo

#endif // HLO_CONVERSION_CUBINASSEMBLER_H
