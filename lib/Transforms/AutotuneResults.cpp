//===- AutotuneResults.cpp - XLA's autotune results, written --------------===//
//
// What the CUDA runtime's autotuning chose, written as XLA's
// AutotuneResults text proto (`--xla_gpu_dump_autotune_results_to`'s
// format), which hlo-gemm-algorithm-picker and hlo-conv-algorithm-picker
// read. Fields in their proto's numbering order; fields at their default
// value left out, as protobuf's printer does.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "TextProto.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::hlo;

LogicalResult mlir::hlo::writeAutotuneResults(StringRef path, StringRef device,
                                              ArrayRef<AutotuneResult> results,
                                              std::string &error) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    error = "cannot write " + path.str() + ": " + ec.message();
    return failure();
  }
  os << "version: 3\n";
  for (const AutotuneResult &r : results) {
    os << "results {\n  device: ";
    printTextProtoString(os, device);
    os << "\n  hlo: ";
    printTextProtoString(os, r.hlo);
    os << "\n  result {\n";
    // AutotuneResult: gemm = 6, scratch_bytes = 8, run_time = 9,
    // algorithm = 16.
    if (r.kind == AutotuneResult::Kind::Gemm)
      os << "    gemm {\n      algorithm: " << r.algorithm << "\n    }\n";
    if (r.scratchBytes)
      os << "    scratch_bytes: " << r.scratchBytes << "\n";
    os << "    run_time {\n      nanos: " << int64_t(r.seconds * 1e9)
       << "\n    }\n";
    if (r.kind == AutotuneResult::Kind::Convolution) {
      os << "    algorithm {\n      algo_id: " << r.algorithm << "\n";
      if (r.tensorOps)
        os << "      math_type: TENSOR_OP_MATH\n";
      os << "    }\n";
    }
    os << "  }\n}\n";
  }
  os.close();
  if (os.has_error()) {
    error = "cannot write " + path.str() + ": " + os.error().message();
    os.clear_error();
    return failure();
  }
  return success();
}
