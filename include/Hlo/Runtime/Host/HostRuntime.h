//===- HostRuntime.h - run a thunk program on the CPU ----------*- C++ -*-===//
//
// The host runtime: runs a thunk program (the thunk dialect, docs/thunk.md)
// on the CPU, in one flat arena laid out as its allocations say. Kernels
// run through the host lowering of their `gpu.func`s (grid and block as
// loops, barriers as phases), compiled once by LLVM's JIT (HostJit.h);
// GEMMs through OpenBLAS (16-bit floats widened to f32, as cuBLAS computes
// them; integers by a plain loop); f32 convolutions through oneDNN
// (HostDnnl.cpp), the others as im2col and OpenBLAS GEMMs
// (HostConvolution.cpp); copies, memsets, loops, conditionals and
// command buffers as their ops say; a program of several devices runs
// each in a thread with an arena of its own, the devices meeting in the
// collective thunks (HostCollectives.cpp). It exists so that the whole compiled
// program, not only its passes, is checked on a machine without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_RUNTIME_HOST_HOSTRUNTIME_H
#define HLO_RUNTIME_HOST_HOSTRUNTIME_H

#include "Hlo/Runtime/Thunk/Executable.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace mlir::hlo {
class HostJit;
} // namespace mlir::hlo

namespace mlir::thunk {

class HostExecutable : public Executable {
public:
  ~HostExecutable() override;

  /// Checks `program` (a module holding one `thunk.program`) and compiles
  /// its kernels for the host; on failure `error` says why.
  static std::unique_ptr<HostExecutable> compile(ModuleOp program,
                                                 std::string &error);

  /// Executable::run. Every device of the program (`thunk.program`'s
  /// `num_replicas` x `num_partitions`) runs it in a thread of its own, on
  /// the same parameters, in an arena of its own; the devices meet in the
  /// collective thunks; `results` and `stats` are device 0's. The arenas
  /// are made (filled with pseudo-random bytes, constants copied in) on the
  /// first run and reused by the next ones, as a device's memory would be.
  LogicalResult run(ArrayRef<ParameterBytes> parameters,
                    std::vector<std::vector<uint8_t>> &results,
                    std::string &error, RunStats *stats = nullptr) override;

private:
  HostExecutable();
  class Runner;
  struct Devices;
  struct Plan;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<hlo::HostJit> jit;
  /// The program prepared to run: the arena's layout, and every block of
  /// thunks as steps with their slices' arena offsets and their kernels'
  /// functions resolved (HostRuntime.cpp).
  std::unique_ptr<Plan> plan;
  /// One device's arena (made by the first run) and its random state (from
  /// the program's `rng_seed`, kept from run to run).
  struct Memory {
    /// From malloc: a failed allocation is a null pointer, not LLVM's
    /// out-of-memory handler (which `new` calls even with std::nothrow).
    struct Free {
      void operator()(uint8_t *p) const { std::free(p); }
    };
    std::unique_ptr<uint8_t, Free> arena;
    /// The arena's first byte, aligned to kArenaAlignment.
    uint8_t *base = nullptr;
    uint64_t rngState = 0;
  };
  std::vector<Memory> memory;
};

/// out[b] = epilogue(alpha * lhs[b] x rhs[b] + beta * out[b] + bias) on
/// the bytes of its slices (the semantics of `thunk.gemm`; `buffers`: lhs,
/// rhs, bias, out, workspace, a_scale, b_scale, d_scale, d_amax, c, null
/// where absent); fails with `error` for element types it does not take.
LogicalResult runHostGemm(Operation *gemm, ArrayRef<uint8_t *> buffers,
                          std::string &error);

/// The convolution (or its gradient) `conv` computes on the bytes of its
/// slices (the semantics of `thunk.convolution`): `buffers` are the input,
/// filter, output, bias, side input and workspace (null when absent); fails
/// with `error` for element types it does not take. `library` (if given)
/// is set to the library that ran it: "oneDNN" or "OpenBLAS" (im2col).
/// `filterStrides` (if not empty) are the filter's strides in elements in
/// the order of its layout's descriptor, replacing the layout's (a filter
/// read where a transpose would have read it).
LogicalResult runHostConvolution(Operation *conv, ArrayRef<uint8_t *> buffers,
                                 std::string &error,
                                 StringRef *library = nullptr,
                                 ArrayRef<int64_t> filterStrides = {});

/// The collective thunk `op` (ThunkCollectiveOps.td) for every device of
/// its program at once: `address(device, slice)` is where `slice` is in
/// the memory of `device`. Fails with `error` for element types it does
/// not reduce.
LogicalResult runHostCollective(Operation *op,
                                function_ref<uint8_t *(int64_t, Value)> address,
                                std::string &error);

/// The transforms `fft` computes (the semantics of `thunk.fft`) from the
/// bytes at `input` into those at `output` (the two may be the same).
LogicalResult runHostFft(Operation *fft, uint8_t *input, uint8_t *output,
                         std::string &error);

/// `thunk.triangular_solve` by OpenBLAS's trsm: the matrices at `b` are
/// overwritten with the solutions against those at `a`.
LogicalResult runHostTriangularSolve(Operation *trsm, uint8_t *a, uint8_t *b,
                                     std::string &error);

/// `thunk.cholesky` by LAPACK's potrf (OpenBLAS's): the matrices at `a`
/// factored in place, the other triangle zeroed, `info` one i32 each.
LogicalResult runHostCholesky(Operation *potrf, uint8_t *a, uint8_t *info,
                              std::string &error);

} // namespace mlir::thunk

#endif // HLO_RUNTIME_HOST_HOSTRUNTIME_H
