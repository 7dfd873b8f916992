//===- CudaRuntime.cpp - run a thunk program on an NVIDIA GPU -------------===//
//
// Each device's primary context, one stream per executable and device (and
// one for NCCL's collectives), one device allocation for each device's
// arena. Every driver and library call is checked; a failure ends the run
// with the call, the CUDA error's name and text, and the thunk it ran for.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Runtime/Cuda/CudaRuntime.h"

#include "CudaCollectives.h"
#include "CudaConvolution.h"
#include "CudaFft.h"
#include "CudaInternal.h"
#include "CudaSolvers.h"

#include "Hlo/Runtime/Thunk/Factorizations.h"
#include "Hlo/Runtime/Thunk/RadixSort.h"
#include "Hlo/Runtime/Thunk/TopK.h"
#include "Hlo/Runtime/Thunk/TopKRows.h"

#ifdef HLO_HAVE_CUB
#include "CubSort.h"
#endif
#ifdef HLO_HAVE_TOPK_KERNEL
#include "TopKKernel.h"
#endif

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/TypeSwitch.h"

#include <chrono>
#include <cstring>
#include <limits>
#include <mutex>
#include <thread>
#include <type_traits>

using namespace mlir;
using namespace mlir::thunk;
using namespace mlir::thunk::cuda;

/// Why a device stopped when another one failed.
static constexpr const char kStopped[] = "stopped: another device failed";

namespace {
/// A device (by CUDA ordinal), opened once per process.
struct Device {
  const Driver *cu = nullptr;
  CUdevice device = 0;
  CUcontext context = nullptr;
  std::string description;
  /// The chip, as the compiler names it: sm_90 for compute capability 9.0.
  std::string chip;
};

/// Whether a cubin built for `built` (sm_XY, or sm_XYa with the
/// architecture-specific features of exactly that chip) runs on `chip`:
/// cubins run on later minor versions of their major version.
bool cubinRunsOn(StringRef built, StringRef chip) {
  if (built == chip)
    return true;
  if (built.ends_with("a") || chip.size() != built.size() ||
      !built.starts_with("sm_") || !chip.starts_with("sm_"))
    return false;
  StringRef b = built.drop_front(3), c = chip.drop_front(3);
  return b.drop_back() == c.drop_back() && b.back() <= c.back();
}
} // namespace

FailureOr<int> mlir::thunk::countCudaDevices(std::string &error) {
  const Driver *cu = loadDriver(error);
  if (!cu)
    return failure();
  int count = 0;
  if (CUresult r = cu->cuDeviceGetCount(&count)) {
    error = cu->describe("cuDeviceGetCount", r);
    return failure();
  }
  return count;
}

/// Whether rows (indices along dimension 0) of `a` and `b` are contiguous
/// of whole bytes laid out alike: dimension 0 most major in both, the
/// other dimensions of one extent and strides.
static bool rowsAlike(MemRefType a, MemRefType b) {
  SmallVector<int64_t> sa, sb;
  int64_t offset;
  if (failed(a.getStridesAndOffset(sa, offset)) ||
      failed(b.getStridesAndOffset(sb, offset)) ||
      a.getShape().drop_front() != b.getShape().drop_front())
    return false;
  int64_t row = a.getRank()
                    ? a.getNumElements() / std::max<int64_t>(a.getDimSize(0), 1)
                    : 1;
  return ArrayRef(sa).drop_front() == ArrayRef(sb).drop_front() &&
         getStorageBytes(a) % std::max<int64_t>(a.getDimSize(0), 1) == 0 &&
         (a.getDimSize(0) <= 1 || sa[0] == row) &&
         (b.getDimSize(0) <= 1 || sb[0] == row);
}

/// CUDA device `ordinal`, its primary context current in this thread.
static const Device *openDevice(int ordinal, std::string &error) {
  static Device devices[cuda::kMaxDevices];
  static std::string failures[cuda::kMaxDevices];
  static std::once_flag onces[cuda::kMaxDevices];
  if (ordinal < 0 || ordinal >= cuda::kMaxDevices) {
    error = "no CUDA device " + std::to_string(ordinal);
    return nullptr;
  }
  Device &dev = devices[ordinal];
  std::string &failure = failures[ordinal];
  std::call_once(onces[ordinal], [&] {
    FailureOr<int> count = countCudaDevices(failure);
    if (failed(count))
      return;
    if (*count <= ordinal) {
      failure = *count == 0
                    ? std::string("no CUDA device")
                    : "no CUDA device " + std::to_string(ordinal) +
                          " (the machine has " + std::to_string(*count) + ")";
      return;
    }
    const Driver *cu = loadDriver(failure);
    char name[256] = {};
    int major = 0, minor = 0;
    size_t bytes = 0;
    CUresult r = cu->cuDeviceGet(&dev.device, ordinal);
    if (!r)
      r = cu->cuDeviceGetName(name, sizeof(name), dev.device);
    if (!r)
      r = cu->cuDeviceGetAttribute(
          &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev.device);
    if (!r)
      r = cu->cuDeviceGetAttribute(
          &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev.device);
    if (!r)
      r = cu->cuDeviceTotalMem(&bytes, dev.device);
    if (!r)
      r = cu->cuDevicePrimaryCtxRetain(&dev.context, dev.device);
    if (r) {
      failure = cu->describe(
          ("opening CUDA device " + std::to_string(ordinal)).c_str(), r);
      return;
    }
    dev.cu = cu;
    dev.chip = "sm_" + std::to_string(major) + std::to_string(minor);
    dev.description = std::string(name) + ", " + dev.chip + ", " +
                      std::to_string(bytes >> 30) + " GiB, driver for CUDA " +
                      std::to_string(cu->version / 1000) + "." +
                      std::to_string(cu->version % 1000 / 10);
  });
  if (!failure.empty()) {
    error = failure;
    return nullptr;
  }
  // The context is current per thread.
  if (CUresult r = dev.cu->cuCtxSetCurrent(dev.context)) {
    error = dev.cu->describe("cuCtxSetCurrent", r);
    return nullptr;
  }
  return &dev;
}

LogicalResult mlir::thunk::openCudaDevice(std::string &description,
                                          std::string &error) {
  const Device *dev = openDevice(0, error);
  if (!dev)
    return failure();
  description = dev->description;
  FailureOr<int> count = countCudaDevices(error);
  if (failed(count))
    return failure();
  if (*count > 1)
    description += "; device 0 of " + std::to_string(*count);
  return success();
}

/// A command buffer captured as a CUDA graph, and what it holds.
namespace {
struct Graph {
  CUgraphExec exec = nullptr;
  CUdeviceptr arena = 0;
  RunStats counts;
};
} // namespace

class CudaExecutable::State {
public:
  ~State();

  OwningOpRef<ModuleOp> module;
  /// The device's id in the program (its CUDA ordinal) and its replica and
  /// partition.
  int ordinal = 0;
  int64_t replica = 0, partition = 0;
  const Device *dev = nullptr;
  const Driver *cu = nullptr;
  const CublasLt *lt = nullptr;
  const Cublas *blas = nullptr;
  const Cusolver *solver = nullptr;
  CUstream stream = nullptr;
  CUevent start = nullptr, stop = nullptr;
  SmallVector<CUmodule> modules;
  /// Each kernel, by its thunk.kernel op.
  DenseMap<Operation *, CUfunction> functions;
  DenseMap<Operation *, std::unique_ptr<GemmPlan>> gemms;
  DenseMap<Operation *, std::unique_ptr<ConvPlan>> convolutions;
  DenseMap<Operation *, std::unique_ptr<FftPlan>> ffts;
  /// The inverse FFTs' scaling kernels, single and double precision.
  CUfunction fftScale[2] = {};
  DenseMap<Operation *, Graph> graphs;
  CUdeviceptr arena = 0;
  int64_t arenaBytes = 0, hostBytes = 0;
  /// The allocations in host memory (`memory_space = 5`): one block of
  /// pinned host memory mapped into the device's address space.
  void *hostBlock = nullptr;
  /// The device's random state (from the program's `rng_seed`, kept from
  /// run to run).
  uint64_t rngState = 0;
  /// Scratch for the convolutions and Cholesky factorizations whose
  /// library needs more than their workspace slice, and for the copy of an
  /// irfft's input.
  CUdeviceptr scratch = 0;
  size_t scratchBytes = 0;
  llvm::StringMap<CUdeviceptr> bases;
  /// The run's host transfers (Executable::setHostTransfers).
  HostTransfers *transfers = nullptr;
  /// With several devices: NCCL's communicators, the stream the device's
  /// collectives run on (in program order), the events that order it with
  /// `stream` (`fork`: the collective waits for the thunks before it;
  /// `join`: a synchronous collective's end), and each asynchronous
  /// collective's end by `async_id`.
  cuda::NcclComms *nccl = nullptr;
  CUstream collectives = nullptr;
  CUevent fork = nullptr, join = nullptr;
  DenseMap<int64_t, CUevent> asyncDone;
  /// Autotuning asked for (CudaExecutable::setAutotune) and its results.
  bool autotune = false;
  SmallVector<CudaExecutable::Tuning> tunings;
};

CudaExecutable::State::~State() {
  if (!cu)
    return;
  cu->cuCtxSetCurrent(dev->context);
  if (stream)
    cu->cuStreamSynchronize(stream);
  for (auto &entry : graphs)
    if (entry.second.exec)
      cu->cuGraphExecDestroy(entry.second.exec);
  gemms.clear();
  convolutions.clear();
  ffts.clear();
  if (arena)
    cu->cuMemFree(arena);
  if (hostBlock)
    cu->cuMemFreeHost(hostBlock);
  if (scratch)
    cu->cuMemFree(scratch);
  for (CUmodule m : modules)
    cu->cuModuleUnload(m);
  for (CUevent e : {start, stop, fork, join})
    if (e)
      cu->cuEventDestroy(e);
  for (auto &entry : asyncDone)
    cu->cuEventDestroy(entry.second);
  if (collectives) {
    cu->cuStreamSynchronize(collectives);
    cu->cuStreamDestroy(collectives);
  }
  if (stream)
    cu->cuStreamDestroy(stream);
}

CudaExecutable::CudaExecutable() = default;
CudaExecutable::~CudaExecutable() = default;

/// Opens CUDA device `ordinal` for `s`, loads `program`'s kernels on it and
/// plans its library calls.
static LogicalResult prepareDevice(CudaExecutable::State &s, ModuleOp program,
                                   int ordinal, std::string &error) {
  s.module = program.clone();
  s.ordinal = ordinal;
  s.dev = openDevice(ordinal, error);
  if (!s.dev)
    return failure();
  s.cu = s.dev->cu;
  const Driver &cu = *s.cu;
  auto check = [&](const char *call, CUresult r) {
    if (r == CUDA_SUCCESS)
      return false;
    error = cu.describe(call, r);
    return true;
  };
  if (check("cuStreamCreate",
            cu.cuStreamCreate(&s.stream, CU_STREAM_NON_BLOCKING)) ||
      check("cuEventCreate", cu.cuEventCreate(&s.start, CU_EVENT_DEFAULT)) ||
      check("cuEventCreate", cu.cuEventCreate(&s.stop, CU_EVENT_DEFAULT)))
    return failure();

  // Load each kernel module's cubin where it was assembled for this chip,
  // else its PTX; the JIT's log goes into the error.
  llvm::StringMap<CUmodule> loaded;
  for (auto gpuModule : s.module->getOps<gpu::GPUModuleOp>()) {
    auto ptx = gpuModule->getAttrOfType<StringAttr>("thunk.ptx");
    auto cubin = gpuModule->getAttrOfType<StringAttr>("thunk.cubin");
    auto cubinChip = gpuModule->getAttrOfType<StringAttr>("thunk.cubin_chip");
    bool useCubin =
        cubin && cubinChip && cubinRunsOn(cubinChip.getValue(), s.dev->chip);
    if (!ptx && !useCubin) {
      error = "kernel module @" + gpuModule.getName().str() +
              " has no PTX (thunk.ptx; run hlo-embed-ptx)";
      return failure();
    }
    std::string text = (useCubin ? cubin : ptx).getValue().str();
    char log[8192] = {};
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log, reinterpret_cast<void *>(sizeof(log) - 1)};
    CUmodule m;
    if (CUresult r =
            cu.cuModuleLoadDataEx(&m, text.c_str(), 2, options, values)) {
      error = "kernel module @" + gpuModule.getName().str() + ": " +
              cu.describe("cuModuleLoadDataEx", r) +
              (log[0] ? std::string("\n") + log : std::string());
      return failure();
    }
    s.modules.push_back(m);
    loaded[gpuModule.getName()] = m;
  }
  WalkResult walk = s.module->walk([&](KernelOp k) {
    SymbolRefAttr ref = k.getKernel();
    CUmodule m = loaded.lookup(ref.getRootReference().getValue());
    std::string name = ref.getLeafReference().getValue().str();
    CUfunction f;
    if (!m || check(("cuModuleGetFunction(" + name + ")").c_str(),
                    cu.cuModuleGetFunction(&f, m, name.c_str()))) {
      if (!m)
        error = "no loaded kernel module holds " + name;
      return WalkResult::interrupt();
    }
    int64_t shared = k.getSharedMemory();
    if (shared > 48 * 1024 &&
        check("cuFuncSetAttribute",
              cu.cuFuncSetAttribute(
                  f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                  int(shared))))
      return WalkResult::interrupt();
    s.functions[k] = f;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  // GEMMs: cuBLASLt, planned once each, for the alignment of their slices
  // in the arena (whose base cuMemAlloc aligns to at least 256 bytes).
  SmallVector<std::pair<AllocationOp, int64_t>> layout;
  layOutArena(*s.module, layout, 0);
  layOutArena(*s.module, layout, kHostMemorySpace);
  llvm::StringMap<int64_t> offsets;
  for (auto [alloc, offset] : layout)
    offsets[alloc.getSymName()] = offset;
  auto alignment = [&](Value v) -> uint32_t {
    auto slice = v.getDefiningOp<SliceOp>();
    if (!slice)
      return 16;
    uint64_t at = offsets.lookup(slice.getAllocation()) + slice.getOffset();
    return at % 256 == 0 ? 256 : uint32_t(at & -at);
  };
  walk = s.module->walk([&](GemmOp g) {
    if (!s.lt && !(s.lt = loadCublasLt(s.ordinal, error)))
      return WalkResult::interrupt();
    int64_t workspace =
        g.getWorkspace() ? getStorageBytes(g.getWorkspace().getType()) : 0;
    FailureOr<std::unique_ptr<GemmPlan>> plan =
        planGemm(*s.lt, g, workspace, alignment, error);
    if (failed(plan))
      return WalkResult::interrupt();
    s.gemms[g] = std::move(*plan);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  // Convolutions: cuDNN, planned once each (with deterministic algorithms
  // in a deterministic program).
  const Cudnn *dnn = nullptr;
  bool deterministic =
      (*s.module->getOps<ProgramOp>().begin()).getDeterministic();
  walk = s.module->walk([&](ConvolutionOp c) {
    if (!dnn && !(dnn = loadCudnn(s.ordinal, error)))
      return WalkResult::interrupt();
    int64_t workspace =
        c.getWorkspace() ? getStorageBytes(c.getWorkspace().getType()) : 0;
    FailureOr<std::unique_ptr<ConvPlan>> plan =
        planConvolution(*dnn, c, workspace, deterministic, error);
    if (failed(plan))
      return WalkResult::interrupt();
    if ((*plan)->neededBytes > (*plan)->sliceBytes)
      s.scratchBytes = std::max(s.scratchBytes, (*plan)->neededBytes);
    s.convolutions[c] = std::move(*plan);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  // Triangular solves (cuBLAS) and Cholesky factorizations (cuSOLVER,
  // whose workspace the runtime's scratch holds when the slice is smaller).
  walk = s.module->walk([&](Operation *op) {
    if (isa<TriangularSolveOp>(op) && !s.blas &&
        !(s.blas = loadCublas(s.ordinal, error)))
      return WalkResult::interrupt();
    auto c = dyn_cast<CholeskyOp>(op);
    if (!c)
      return WalkResult::advance();
    if (!s.solver && !(s.solver = loadCusolver(s.ordinal, error)))
      return WalkResult::interrupt();
    FailureOr<size_t> needed = choleskyWorkspaceBytes(*s.solver, c, error);
    if (failed(needed))
      return WalkResult::interrupt();
    size_t slice =
        c.getWorkspace() ? getStorageBytes(c.getWorkspace().getType()) : 0;
    if (*needed > slice)
      s.scratchBytes = std::max(s.scratchBytes, *needed);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  // FFTs: cuFFT, planned once each; the inverse ones scaled by the
  // runtime's kernels.
  const Cufft *fft = nullptr;
  walk = s.module->walk([&](FftOp f) {
    if (!fft && !(fft = loadCufft(s.ordinal, error)))
      return WalkResult::interrupt();
    FailureOr<std::unique_ptr<FftPlan>> plan = planFft(*fft, f, error);
    if (failed(plan))
      return WalkResult::interrupt();
    s.scratchBytes = std::max<size_t>(s.scratchBytes, (*plan)->inputBytes);
    if ((*plan)->outputReals && !s.fftScale[0]) {
      CUmodule m;
      if (check("cuModuleLoadDataEx (FFT scaling)",
                cu.cuModuleLoadDataEx(&m, fftScalePtx(), 0, nullptr,
                                      nullptr)))
        return WalkResult::interrupt();
      s.modules.push_back(m);
      if (check("cuModuleGetFunction",
                cu.cuModuleGetFunction(&s.fftScale[0], m,
                                       "hlo_fft_scale_f32")) ||
          check("cuModuleGetFunction",
                cu.cuModuleGetFunction(&s.fftScale[1], m,
                                       "hlo_fft_scale_f64")))
        return WalkResult::interrupt();
    }
    s.ffts[f] = std::move(*plan);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (s.scratchBytes && check("cuMemAlloc (convolution and FFT scratch)",
                              cu.cuMemAlloc(&s.scratch, s.scratchBytes)))
    return failure();
  return success();
}

std::unique_ptr<CudaExecutable> CudaExecutable::compile(ModuleOp program,
                                                        std::string &error) {
  std::string diagnostics;
  ScopedDiagnosticHandler handler(program.getContext(), [&](Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return success();
  });
  if (failed(mlir::verify(program))) {
    error = "the thunk program does not verify: " + diagnostics;
    return nullptr;
  }
  if (!llvm::hasSingleElement(program.getOps<ProgramOp>())) {
    error = "the module must hold one thunk.program";
    return nullptr;
  }
  // Several devices run their collectives through NCCL. On one device
  // every collective copies its inputs (or, a collective-permute without
  // the pair (0, 0), zeros them), which moves bytes only between slices of
  // one layout.
  ProgramOp main = *program.getOps<ProgramOp>().begin();
  int64_t partitions = main.getNumPartitions();
  int64_t devices = main.getNumReplicas() * partitions;
  if (devices > 1) {
    FailureOr<int> count = countCudaDevices(error);
    if (failed(count))
      return nullptr;
    if (*count < devices) {
      error = "the program runs on " + std::to_string(devices) +
              " devices; this machine has " + std::to_string(*count) +
              " CUDA device" + (*count == 1 ? "" : "s") +
              " (run it with --device=host)";
      return nullptr;
    }
  }
  WalkResult layouts = main.walk([&](Operation *op) {
    if (devices > 1 || !isCollectiveThunk(op))
      return WalkResult::advance();
    // A ragged-all-to-all copies rows: input and output laid out alike
    // but for the extent of dimension 0, which is the most major.
    if (auto ragged = dyn_cast<RaggedAllToAllOp>(op))
      return rowsAlike(ragged.getInput().getType(),
                       ragged.getOutput().getType())
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    // The verifiers make inputs and outputs pair up: the first half of the
    // operands are the inputs.
    unsigned half = op->getNumOperands() / 2;
    for (unsigned i = 0; i < half; ++i)
      if (op->getOperand(i).getType() != op->getOperand(half + i).getType())
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (layouts.wasInterrupted()) {
    error = "the CUDA runtime runs a collective on one device as copies "
            "between slices of one layout; run this one with --device=host";
    return nullptr;
  }
  std::unique_ptr<CudaExecutable> exe(new CudaExecutable());
  for (int64_t d = 0; d < devices; ++d) {
    State &s = *exe->states.emplace_back(std::make_unique<State>());
    s.replica = d / partitions;
    s.partition = d % partitions;
    if (failed(prepareDevice(s, program, int(d), error)))
      return nullptr;
  }
  if (devices == 1)
    return exe;
  exe->nccl = NcclComms::create(*exe->states[0]->module, devices, error);
  if (!exe->nccl)
    return nullptr;
  for (std::unique_ptr<State> &s : exe->states) {
    const Driver &cu = *s->cu;
    s->nccl = exe->nccl.get();
    CUresult r = cu.cuCtxSetCurrent(s->dev->context);
    if (!r)
      r = cu.cuStreamCreate(&s->collectives, CU_STREAM_NON_BLOCKING);
    for (CUevent *e : {&s->fork, &s->join})
      if (!r)
        r = cu.cuEventCreate(e, CU_EVENT_DISABLE_TIMING);
    if (r) {
      error = cu.describe("creating the collective stream", r);
      return nullptr;
    }
  }
  return exe;
}

namespace {
/// One run: the slices' device addresses.
class Runner {
public:
  Runner(CudaExecutable::State &s, std::string &error, RunStats &stats)
      : s(s), cu(*s.cu), error(error), stats(stats) {}

  LogicalResult makeArena();
  LogicalResult runBlock(Block &block);
  CUdeviceptr address(Value v) { return addresses.lookup(v); }
  /// Fails with `call`'s error for `op` unless `r` is success.
  LogicalResult check(Operation *op, const Twine &call, CUresult r) {
    if (r == CUDA_SUCCESS)
      return success();
    error = (op ? op->getName().getStringRef() + ": " : Twine()).str() +
            cu.describe(call.str().c_str(), r);
    return failure();
  }
  /// Seconds between the start and stop events (after the stop).
  FailureOr<double> elapsed();
  /// Waits for the device's stream to finish what it was given. With
  /// several devices, by polling: a device that another device's failure
  /// left waiting in a collective stops, and NCCL's errors end the wait.
  LogicalResult sync(Operation *op);

private:
  LogicalResult runThunk(Operation &op);
  /// A collective through NCCL on the device's collective stream, after
  /// the thunks before it; a synchronous one is waited for by the
  /// program's stream, an asynchronous one by its thunk.collective_done.
  LogicalResult runCollective(Operation *op);
  LogicalResult raggedOnOneDevice(RaggedAllToAllOp op);
  LogicalResult replay(CommandBufferOp op);
  /// Runs `launch` between the two events and records its time as `name`.
  LogicalResult timed(Operation *op, StringRef name,
                      llvm::function_ref<LogicalResult()> launch);
  FailureOr<bool> readFlag(Operation *op, Value slice, int32_t &value);
  /// The bytes of `slices`, copied to the host (the stream waited for).
  LogicalResult download(Operation *op, ValueRange slices,
                         TransferValue &value);
  /// Copies `value` (one byte array per slice, of its size) to `slices`.
  LogicalResult upload(Operation *op, ValueRange slices,
                       const TransferValue &value);
#ifdef HLO_HAVE_CUB
  /// thunk.radix_sort by CUB (CubSort.h).
  LogicalResult runCubSort(RadixSortOp sort);
#endif
#ifdef HLO_HAVE_TOPK_KERNEL
  /// thunk.top_k by the prebuilt kernel (TopKKernel.h).
  LogicalResult runTopKKernel(TopKOp topK);
#endif
  /// The thunks that run on the host between copies: host transfers,
  /// channels, the dynamic-array conversions and the factorizations other
  /// than Cholesky.
  LogicalResult runOnHost(Operation &op);

  CudaExecutable::State &s;
  const Driver &cu;
  std::string &error;
  RunStats &stats;
  DenseMap<Value, CUdeviceptr> addresses;
  /// Each running loop's iteration (from 0), for thunk.dynamic_copy.
  DenseMap<Operation *, uint64_t> iterations;
  /// Inside a stream capture: no host reads, no events.
  bool capturing = false;
  DeviceTransfers transfers{s.transfers, s.ordinal};
};
} // namespace

LogicalResult Runner::makeArena() {
  SmallVector<std::pair<AllocationOp, int64_t>> layout, hostLayout;
  int64_t size = layOutArena(*s.module, layout, 0);
  // Host memory allocations: pinned, mapped, read and written by copies
  // and kernels through their device address.
  if (int64_t hostSize = layOutArena(*s.module, hostLayout, kHostMemorySpace)) {
    CUdeviceptr hostBase = 0;
    if (CUresult r = cu.cuMemHostAlloc(&s.hostBlock, hostSize,
                                       CU_MEMHOSTALLOC_PORTABLE |
                                           CU_MEMHOSTALLOC_DEVICEMAP)) {
      s.hostBlock = nullptr;
      error = "out of pinned host memory: the program's host memory space "
              "needs " +
              std::to_string(hostSize) + " bytes (" +
              cu.describe("cuMemHostAlloc", r) + ")";
      return failure();
    }
    if (failed(check(nullptr, "cuMemHostGetDevicePointer",
                     cu.cuMemHostGetDevicePointer(&hostBase, s.hostBlock, 0))))
      return failure();
    // Unwritten bytes read as 0xff, as in the device arena.
    std::memset(s.hostBlock, 0xff, hostSize);
    s.hostBytes = hostSize;
    for (auto [alloc, offset] : hostLayout)
      s.bases[alloc.getSymName()] = hostBase + offset;
  }
  size_t freeBytes = 0, totalBytes = 0;
  cu.cuMemGetInfo(&freeBytes, &totalBytes);
  if (CUresult r = cu.cuMemAlloc(&s.arena, std::max<int64_t>(size, 1))) {
    s.arena = 0;
    error = "out of device memory: the arena needs " + std::to_string(size) +
            " bytes, the device has " + std::to_string(freeBytes) +
            " free of " + std::to_string(totalBytes) + " (" +
            cu.describe("cuMemAlloc", r) + ")";
    return failure();
  }
  s.arenaBytes = size;
  s.rngState = static_cast<uint64_t>(
      (*s.module->getOps<ProgramOp>().begin()).getRngSeed());
  // Bytes no thunk wrote read as 0xff (NaN for floats), not zeros.
  if (failed(check(nullptr, "cuMemsetD8Async",
                   cu.cuMemsetD8Async(s.arena, 0xff, size, s.stream))))
    return failure();
  std::vector<std::vector<uint8_t>> constants;
  for (auto [alloc, offset] : layout) {
    s.bases[alloc.getSymName()] = s.arena + offset;
    if (!alloc.getValue())
      continue;
    constants.emplace_back();
    if (failed(constantBytes(alloc, constants.back(), error)) ||
        failed(check(alloc, "cuMemcpyHtoDAsync",
                     cu.cuMemcpyHtoDAsync(s.arena + offset,
                                          constants.back().data(),
                                          constants.back().size(), s.stream))))
      return failure();
  }
  return check(nullptr, "cuStreamSynchronize",
               cu.cuStreamSynchronize(s.stream));
}

LogicalResult Runner::sync(Operation *op) {
  if (!s.nccl)
    return check(op, "cuStreamSynchronize", cu.cuStreamSynchronize(s.stream));
  for (;;) {
    CUresult r = cu.cuStreamQuery(s.stream);
    if (r == CUDA_SUCCESS)
      return success();
    if (r != CUDA_ERROR_NOT_READY)
      return check(op, "cuStreamQuery", r);
    if (s.nccl->aborted()) {
      error = kStopped;
      return failure();
    }
    if (failed(s.nccl->checkAsyncErrors(s.ordinal, error)))
      return failure();
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

FailureOr<double> Runner::elapsed() {
  float ms = 0;
  if (failed(sync(nullptr)) ||
      failed(check(nullptr, "cuEventElapsedTime",
                   cu.cuEventElapsedTime(&ms, s.start, s.stop))))
    return failure();
  return ms / 1e3;
}

LogicalResult Runner::timed(Operation *op, StringRef name,
                            llvm::function_ref<LogicalResult()> launch) {
  if (!stats.profile || capturing)
    return launch();
  if (failed(check(op, "cuEventRecord", cu.cuEventRecord(s.start, s.stream))) ||
      failed(launch()) ||
      failed(check(op, "cuEventRecord", cu.cuEventRecord(s.stop, s.stream))))
    return failure();
  FailureOr<double> seconds = elapsed();
  if (failed(seconds))
    return failure();
  stats.record(name, *seconds);
  return success();
}

FailureOr<bool> Runner::readFlag(Operation *op, Value slice, int32_t &value) {
  value = 0;
  int64_t bytes = getStorageBytes(cast<MemRefType>(slice.getType()));
  if (failed(
          check(op, "cuMemcpyDtoHAsync",
                cu.cuMemcpyDtoHAsync(&value, address(slice),
                                     std::min<int64_t>(bytes, 4), s.stream))) ||
      failed(sync(op)))
    return failure();
  return value != 0;
}

LogicalResult Runner::download(Operation *op, ValueRange slices,
                               TransferValue &value) {
  value.clear();
  for (Value v : slices) {
    std::vector<uint8_t> &bytes =
        value.emplace_back(getStorageBytes(cast<MemRefType>(v.getType())));
    if (failed(check(op, "cuMemcpyDtoHAsync",
                     cu.cuMemcpyDtoHAsync(bytes.data(), address(v),
                                          bytes.size(), s.stream))))
      return failure();
  }
  return sync(op);
}

LogicalResult Runner::upload(Operation *op, ValueRange slices,
                             const TransferValue &value) {
  for (auto [v, bytes] : llvm::zip_equal(slices, value)) {
    if (failed(check(op, "cuMemcpyHtoDAsync",
                     cu.cuMemcpyHtoDAsync(address(v), bytes.data(),
                                          bytes.size(), s.stream))))
      return failure();
  }
  // The host bytes may go away on return.
  return sync(op);
}

#ifdef HLO_HAVE_CUB
LogicalResult Runner::runCubSort(RadixSortOp sort) {
  Type keyType = sort.getKeys().getType().getElementType();
  HloCubSortArgs args = {};
  auto pointer = [&](Value v) {
    return v ? reinterpret_cast<void *>(address(v)) : nullptr;
  };
  args.keys = pointer(sort.getKeys());
  args.values = pointer(sort.getValues());
  args.sortedKeys = pointer(sort.getSortedKeys());
  args.sortedValues = pointer(sort.getSortedValues());
  args.scratch = pointer(sort.getScratch());
  args.scratchBytes = sort.getScratch().getType().getNumElements();
  args.keyBytes = int(radixSortElementBytes(sort.getKeys()));
  args.valueBytes =
      sort.getValues() ? int(radixSortElementBytes(sort.getValues())) : 0;
  args.keyKind = isa<FloatType>(keyType)       ? HloCubFloat
                 : keyType.isUnsignedInteger() ? HloCubUnsigned
                                               : HloCubSigned;
  args.descending = sort.getDescending();
  args.rows = sort.getRows();
  args.rowLength = sort.getRowLength();
  args.stream = s.stream;
  if (const char *failure = hloCubRadixSort(&args)) {
    error = std::string("thunk.radix_sort: ") + failure;
    return mlir::failure();
  }
  return success();
}
#endif

#ifdef HLO_HAVE_TOPK_KERNEL
LogicalResult Runner::runTopKKernel(TopKOp topK) {
  HloTopKArgs args = {};
  args.input = reinterpret_cast<const void *>(address(topK.getInput()));
  args.values = reinterpret_cast<void *>(address(topK.getValues()));
  args.indices = reinterpret_cast<int32_t *>(address(topK.getIndices()));
  args.rows = topK.getRows();
  args.n = topK.getRowLength();
  args.k = int(topK.getK());
  args.kind = topK.getInput().getType().getElementType().isBF16()
                  ? hlo::topk::BF16
                  : hlo::topk::F32;
  args.totalOrder = topK.getTotalOrder();
  args.stream = s.stream;
  if (const char *failure = hloTopK(&args)) {
    error = std::string("thunk.top_k: ") + failure;
    return mlir::failure();
  }
  return success();
}
#endif

LogicalResult Runner::runOnHost(Operation &op) {
  TransferValue in, out;
  auto pointers = [](TransferValue &arrays) {
    SmallVector<uint8_t *> p;
    for (auto &a : arrays)
      p.push_back(a.data());
    return p;
  };
  if (auto sort = dyn_cast<RadixSortOp>(&op)) {
    // On copies of the slices: built without nvcc, no CUB.
    if (failed(download(&op, op.getOperands(), in)) ||
        failed(runRadixSort(sort, pointers(in), error)))
      return failure();
    unsigned first = sort.getValues() ? 2 : 1;
    in.erase(in.begin(), in.begin() + first);
    return upload(&op, op.getOperands().drop_front(first), in);
  }
  if (auto topK = dyn_cast<TopKOp>(&op)) {
    // On copies of the slices: built without nvcc.
    if (failed(download(&op, op.getOperands(), in)) ||
        failed(runTopK(topK, pointers(in), error)))
      return failure();
    in.erase(in.begin());
    return upload(&op, op.getOperands().drop_front(), in);
  }
  if (isFactorization(&op)) {
    // LAPACK on copies of the slices (no cuSOLVER calls for these yet).
    if (failed(download(&op, op.getOperands(), in)) ||
        failed(runFactorization(&op, pointers(in), error)))
      return failure();
    return upload(&op, op.getOperands(), in);
  }
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case<InfeedOp, OutfeedOp, SendOp, RecvOp>([&](Operation *) {
        // A failed copy ends the run: the value it leaves is not used.
        LogicalResult copies = success();
        auto read = [&](ValueRange slices) {
          TransferValue value;
          if (succeeded(copies))
            copies = download(&op, slices, value);
          return value;
        };
        auto write = [&](ValueRange slices, const TransferValue &value) {
          if (succeeded(copies))
            copies = upload(&op, slices, value);
        };
        if (failed(transfers.run(&op, read, write, error)))
          return failure();
        return copies;
      })
      .Case([&](PadToStaticOp p) {
        SmallVector<Value> outputs = {p.getOutput()};
        llvm::append_range(outputs, p.getSizes());
        if (failed(download(p, p.getInput(), in)) ||
            failed(download(p, outputs, out)))
          return failure();
        SmallVector<uint8_t *> sizes = pointers(out);
        uint8_t *array = sizes.front();
        sizes.erase(sizes.begin());
        if (failed(padToStatic(p, in[0].data(), array, sizes, error)))
          return failure();
        return upload(p, outputs, out);
      })
      .Case([&](SliceToDynamicOp p) {
        SmallVector<Value> inputs = {p.getInput()};
        llvm::append_range(inputs, p.getSizes());
        if (failed(download(p, inputs, in)) ||
            failed(download(p, p.getOutput(), out)))
          return failure();
        SmallVector<uint8_t *> sizes = pointers(in);
        uint8_t *array = sizes.front();
        sizes.erase(sizes.begin());
        if (failed(sliceToDynamic(p, array, sizes, out[0].data(), error)))
          return failure();
        return upload(p, p.getOutput(), out);
      })
      .Default([&](Operation *) {
        error = "not a host-side thunk";
        return failure();
      });
}

LogicalResult Runner::runCollective(Operation *op) {
  if (failed(check(op, "cuEventRecord", cu.cuEventRecord(s.fork, s.stream))) ||
      failed(check(op, "cuStreamWaitEvent",
                   cu.cuStreamWaitEvent(s.collectives, s.fork, 0))) ||
      failed(s.nccl->run(
          op, s.ordinal, [&](Value v) { return address(v); }, s.collectives,
          error)))
    return failure();
  auto id = op->getAttrOfType<IntegerAttr>("async_id");
  if (!id)
    return failure(failed(check(op, "cuEventRecord",
                                cu.cuEventRecord(s.join, s.collectives))) ||
                   failed(check(op, "cuStreamWaitEvent",
                                cu.cuStreamWaitEvent(s.stream, s.join, 0))));
  CUevent &end = s.asyncDone[id.getInt()];
  if (!end && failed(check(op, "cuEventCreate",
                           cu.cuEventCreate(&end, CU_EVENT_DISABLE_TIMING))))
    return failure();
  return check(op, "cuEventRecord", cu.cuEventRecord(end, s.collectives));
}

/// A ragged-all-to-all of a group of one: the device's updates to itself,
/// row copies on the program's stream.
LogicalResult Runner::raggedOnOneDevice(RaggedAllToAllOp op) {
  std::array<SmallVector<int64_t>, 3> ranges;
  auto at = [&](Value v) { return address(v); };
  if (failed(readRaggedRanges(cu, op, at, s.stream, ranges, error)))
    return failure();
  MemRefType in = op.getInput().getType(), out = op.getOutput().getType();
  int64_t inRows = in.getDimSize(0), outRows = out.getDimSize(0);
  int64_t rowBytes = inRows ? getStorageBytes(in) / inRows : 0;
  auto &[first, size, row] = ranges;
  for (auto [u, n] : llvm::enumerate(size)) {
    if (n < 0 || first[u] < 0 || row[u] < 0 || first[u] > inRows - n ||
        row[u] > outRows - n) {
      error = op->getName().getStringRef().str() + ": update " +
              std::to_string(u) + " has rows out of bounds";
      return failure();
    }
    if (n > 0 && failed(check(op, "cuMemcpyDtoDAsync",
                              cu.cuMemcpyDtoDAsync(
                                  address(op.getOutput()) + row[u] * rowBytes,
                                  address(op.getInput()) + first[u] * rowBytes,
                                  n * rowBytes, s.stream))))
      return failure();
  }
  return success();
}

LogicalResult Runner::runBlock(Block &block) {
  for (Operation &op : block)
    if (failed(runThunk(op)))
      return failure();
  return success();
}

LogicalResult Runner::replay(CommandBufferOp op) {
  Graph &graph = s.graphs[op];
  if (!graph.exec || graph.arena != s.arena) {
    // Record: capture the body's launches on the stream into a graph.
    if (graph.exec)
      cu.cuGraphExecDestroy(graph.exec);
    graph = Graph();
    RunStats before = stats;
    if (failed(check(op, "cuStreamBeginCapture",
                     cu.cuStreamBeginCapture(
                         s.stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL))))
      return failure();
    capturing = true;
    LogicalResult recorded = runBlock(op.getBody().front());
    capturing = false;
    CUgraph captured = nullptr;
    CUresult ended = cu.cuStreamEndCapture(s.stream, &captured);
    if (failed(recorded) || failed(check(op, "cuStreamEndCapture", ended)))
      return failure();
    CUresult made = cu.cuGraphInstantiateWithFlags(&graph.exec, captured, 0);
    cu.cuGraphDestroy(captured);
    if (failed(check(op, "cuGraphInstantiate", made)))
      return failure();
    graph.arena = s.arena;
    graph.counts.kernels = stats.kernels - before.kernels;
    graph.counts.gemms = stats.gemms - before.gemms;
    graph.counts.convolutions = stats.convolutions - before.convolutions;
    graph.counts.ffts = stats.ffts - before.ffts;
    graph.counts.copies = stats.copies - before.copies;
    graph.counts.memsets = stats.memsets - before.memsets;
    stats = before;
  }
  ++stats.graphs;
  stats.kernels += graph.counts.kernels;
  stats.gemms += graph.counts.gemms;
  stats.convolutions += graph.counts.convolutions;
  stats.ffts += graph.counts.ffts;
  stats.copies += graph.counts.copies;
  stats.memsets += graph.counts.memsets;
  return timed(op, "command buffer", [&] {
    return check(op, "cuGraphLaunch", cu.cuGraphLaunch(graph.exec, s.stream));
  });
}

LogicalResult Runner::runThunk(Operation &op) {
  if (auto sort = dyn_cast<RadixSortOp>(&op)) {
    ++stats.sorts;
    if (capturing) {
      error = "thunk.radix_sort cannot run inside a command buffer";
      return failure();
    }
#ifdef HLO_HAVE_CUB
    return timed(&op, "radix sort (CUB)", [&] { return runCubSort(sort); });
#else
    return timed(&op, "radix sort (host)", [&] { return runOnHost(op); });
#endif
  }
  if (auto topK = dyn_cast<TopKOp>(&op)) {
    // A kernel launch (XLA's custom kernel thunk).
    ++stats.kernels;
#ifdef HLO_HAVE_TOPK_KERNEL
    return timed(&op, "top-k", [&] { return runTopKKernel(topK); });
#else
    if (capturing) {
      error = "thunk.top_k cannot run inside a command buffer without the "
              "top-k kernel (built without nvcc)";
      return failure();
    }
    return timed(&op, "top-k (host)", [&] { return runOnHost(op); });
#endif
  }
  if (isFactorization(&op)) {
    ++stats.solvers;
    if (capturing) {
      error = op.getName().getStringRef().str() +
              " cannot run inside a command buffer";
      return failure();
    }
    return runOnHost(op);
  }
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case([&](SliceOp slice) {
        addresses[slice] =
            s.bases.lookup(slice.getAllocation()) + slice.getOffset();
        return success();
      })
      .Case([&](KernelOp k) {
        ++stats.kernels;
        SmallVector<CUdeviceptr> pointers;
        for (Value v : k.getInputs())
          pointers.push_back(address(v));
        for (Value v : k.getOutputs())
          pointers.push_back(address(v));
        SmallVector<void *> args;
        for (CUdeviceptr &p : pointers)
          args.push_back(&p);
        ArrayRef<int32_t> grid = k.getGrid(), block = k.getBlock();
        StringRef name = k.getKernel().getLeafReference().getValue();
        return timed(k, name, [&] {
          return check(k, "cuLaunchKernel(" + name + ")",
                       cu.cuLaunchKernel(s.functions.lookup(k), grid[0],
                                         grid[1], grid[2], block[0], block[1],
                                         block[2], k.getSharedMemory(),
                                         s.stream, args.data(), nullptr));
        });
      })
      .Case([&](GemmOp g) {
        ++stats.gemms;
        auto optional = [&](Value v) { return v ? address(v) : 0; };
        return timed(g, "gemm (cuBLASLt)", [&] {
          GemmExtras extras{optional(g.getAScale()), optional(g.getBScale()),
                            optional(g.getDScale()), optional(g.getDAmax()),
                            optional(g.getC())};
          return runGemm(*s.gemms[g], address(g.getLhs()), address(g.getRhs()),
                         optional(g.getBias()), address(g.getOut()),
                         optional(g.getWorkspace()), extras, s.stream, error);
        });
      })
      .Case([&](ConvolutionOp c) {
        ++stats.convolutions;
        auto optional = [&](Value v) { return v ? address(v) : 0; };
        ConvPlan &plan = *s.convolutions[c];
        bool own = plan.neededBytes > plan.sliceBytes;
        CUdeviceptr workspace = own ? s.scratch : optional(c.getWorkspace());
        size_t bytes = own ? plan.neededBytes : plan.sliceBytes;
        return timed(c, "convolution (cuDNN)", [&] {
          return runConvolution(
              plan, address(c.getInput()), address(c.getFilter()),
              address(c.getOutput()), optional(c.getBias()),
              optional(c.getSideInput()), workspace, bytes, s.stream, error);
        });
      })
      .Case([&](FftOp f) {
        ++stats.ffts;
        FftPlan &plan = *s.ffts[f];
        return timed(f, "fft (cuFFT)", [&] {
          return runFft(cu, plan, address(f.getInput()), address(f.getOutput()),
                        s.scratch, s.fftScale[plan.isDouble], s.stream, error);
        });
      })
      .Case<InfeedOp, OutfeedOp, SendOp, RecvOp, PadToStaticOp,
            SliceToDynamicOp>([&](Operation *o) {
        if (capturing) {
          error = o->getName().getStringRef().str() +
                  " cannot run inside a command buffer";
          return failure();
        }
        return runOnHost(*o);
      })
      .Case([&](TriangularSolveOp t) {
        ++stats.solvers;
        return timed(t, "triangular solve (cuBLAS)", [&] {
          return runTriangularSolve(*s.blas, t, address(t.getA()),
                                    address(t.getB()), s.stream, error);
        });
      })
      .Case([&](CholeskyOp c) {
        ++stats.solvers;
        size_t slice =
            c.getWorkspace() ? getStorageBytes(c.getWorkspace().getType()) : 0;
        // The larger of the slice and the scratch (which holds what
        // cuSOLVER asked for when that is more than the slice).
        bool own = slice < s.scratchBytes;
        CUdeviceptr workspace = own                ? s.scratch
                                : c.getWorkspace() ? address(c.getWorkspace())
                                                   : 0;
        return timed(c, "cholesky (cuSOLVER)", [&] {
          return runCholesky(*s.solver, c, address(c.getA()),
                             address(c.getInfo()), workspace,
                             own ? s.scratchBytes : slice, s.stream, error);
        });
      })
      .Case([&](CopyOp c) {
        ++stats.copies;
        int64_t bytes = getStorageBytes(c.getSource().getType());
        return timed(c, "copy", [&] {
          return check(c, "cuMemcpyDtoDAsync",
                       cu.cuMemcpyDtoDAsync(address(c.getTarget()),
                                            address(c.getSource()), bytes,
                                            s.stream));
        });
      })
      .Case([&](DynamicCopyOp c) {
        ++stats.copies;
        int64_t i = iterations.lookup(c.getLoop());
        CUdeviceptr to = address(c.getTarget()) + c.getTargetOffset() +
                         i * c.getTargetStride();
        CUdeviceptr from = address(c.getSource()) + c.getSourceOffset() +
                           i * c.getSourceStride();
        return timed(c, "copy", [&] {
          return check(c, "cuMemcpyDtoDAsync",
                       cu.cuMemcpyDtoDAsync(to, from, c.getBytes(), s.stream));
        });
      })
      .Case([&](MemsetOp m) {
        ++stats.memsets;
        int64_t bytes = getStorageBytes(m.getTarget().getType());
        CUdeviceptr p = address(m.getTarget());
        return timed(m, "memset", [&] {
          // The verifier makes a nonzero pattern's size a multiple of 4.
          return m.getValue() == 0
                     ? check(m, "cuMemsetD8Async",
                             cu.cuMemsetD8Async(p, 0, bytes, s.stream))
                     : check(m, "cuMemsetD32Async",
                             cu.cuMemsetD32Async(p, m.getValue(), bytes / 4,
                                                 s.stream));
        });
      })
      .Case([&](RaggedAllToAllOp r) {
        ++stats.collectives;
        return s.nccl ? runCollective(r) : raggedOnOneDevice(r);
      })
      .Case<AllReduceOp, AllGatherOp, ReduceScatterOp, AllToAllOp,
            CollectivePermuteOp, CollectiveBroadcastOp>([&](auto c) {
        ++stats.collectives;
        if (s.nccl)
          return runCollective(c);
        bool zeros = false;
        if constexpr (std::is_same_v<decltype(c), CollectivePermuteOp>)
          zeros = !llvm::is_contained(c.getSourceTargetPairs(),
                                      std::pair<int64_t, int64_t>{0, 0});
        for (auto [in, out] : llvm::zip_equal(c.getInputs(), c.getOutputs())) {
          int64_t bytes = getStorageBytes(cast<MemRefType>(out.getType()));
          if (!zeros && address(in) == address(out))
            continue; // in place (an asynchronous all-reduce's)
          LogicalResult done =
              zeros ? check(c, "cuMemsetD8Async",
                            cu.cuMemsetD8Async(address(out), 0, bytes,
                                               s.stream))
                    : check(c, "cuMemcpyDtoDAsync",
                            cu.cuMemcpyDtoDAsync(address(out), address(in),
                                                 bytes, s.stream));
          if (failed(done))
            return failure();
        }
        return success();
      })
      .Case([&](CollectiveDoneOp d) {
        // One device: its collective ran, in order, on the program's
        // stream. Several: the program's stream waits for its end.
        if (!s.nccl)
          return success();
        CUevent end = s.asyncDone.lookup(int64_t(d.getAsyncId()));
        if (!end) {
          error = "thunk.collective_done: no collective started with "
                  "async_id " +
                  std::to_string(d.getAsyncId());
          return failure();
        }
        return check(d, "cuStreamWaitEvent",
                     cu.cuStreamWaitEvent(s.stream, end, 0));
      })
      .Case([&](RngGetAndUpdateStateOp r) {
        // The state's low and high words, then two zero words, as memsets:
        // they take their value when enqueued, so a loop may run this
        // thunk again before the stream has run the last one.
        uint64_t state = s.rngState;
        s.rngState += static_cast<uint64_t>(r.getDelta());
        CUdeviceptr p = address(r.getTarget());
        for (auto [at, word, count] :
             {std::tuple<int64_t, uint32_t, size_t>{0, uint32_t(state), 1},
              {4, uint32_t(state >> 32), 1},
              {8, 0u, 2}})
          if (failed(check(r, "cuMemsetD32Async",
                           cu.cuMemsetD32Async(p + at, word, count,
                                               s.stream))))
            return failure();
        return success();
      })
      .Case([&](DeviceIdOp d) {
        int64_t id =
            d.getKind() == DeviceIdKind::Replica ? s.replica : s.partition;
        return check(d, "cuMemsetD32Async",
                     cu.cuMemsetD32Async(address(d.getTarget()), uint32_t(id),
                                         1, s.stream));
      })
      .Case([&](WhileOp w) -> LogicalResult {
        Block &condition = w.getCondition().front();
        Block &body = w.getBody().front();
        if (std::optional<uint64_t> trips = w.getTripCount()) {
          // A known trip count: the body that many times, the condition
          // (which only computes the predicate) never, as XLA's WhileThunk.
          for (uint64_t i = 0; i < *trips; ++i) {
            ++stats.iterations;
            iterations[w] = i;
            if (failed(runBlock(body)))
              return failure();
          }
          return success();
        }
        for (;;) {
          int32_t flag;
          if (failed(runBlock(condition)))
            return failure();
          FailureOr<bool> more = readFlag(w, w.getPredicate(), flag);
          if (failed(more))
            return failure();
          if (!*more)
            return success();
          ++stats.iterations;
          if (failed(runBlock(body)))
            return failure();
        }
      })
      .Case([&](ConditionalOp c) -> LogicalResult {
        ++stats.branches;
        int32_t value;
        if (failed(readFlag(c, c.getSelector(), value)))
          return failure();
        int64_t n = c.getBranches().size();
        int64_t index;
        if (c.getSelector().getType().getElementType().isInteger(8))
          index = (value & 0xff) ? 0 : 1;
        else
          index = value < 0 || value >= n ? n - 1 : value;
        return runBlock(c.getBranches()[index].front());
      })
      .Case([&](CommandBufferOp c) {
        // Profiling times each thunk: the body runs unrecorded.
        if (stats.profile)
          return runBlock(c.getBody().front());
        return replay(c);
      })
      .Case([&](ReturnOp) { return success(); })
      .Default([&](Operation *) {
        error = op.getName().getStringRef().str() + ": not a thunk";
        return failure();
      });
}

/// Times each candidate algorithm of every GEMM and convolution of `s` on
/// its own slices and keeps the fastest. Before the program runs its
/// outputs and temporaries hold nothing yet, so the calls may write them; a
/// call that writes a parameter's allocation keeps its algorithm.
static LogicalResult autotune(CudaExecutable::State &s, std::string &error) {
  const Driver &cu = *s.cu;
  s.tunings.clear();
  SymbolTable symbols(*s.module);
  auto addressOf = [&](Value v) -> CUdeviceptr {
    auto slice = v ? v.getDefiningOp<SliceOp>() : SliceOp();
    return slice ? s.bases.lookup(slice.getAllocation()) + slice.getOffset()
                 : 0;
  };
  auto writesParameter = [&](Value written) {
    auto slice = written.getDefiningOp<SliceOp>();
    auto alloc =
        slice ? symbols.lookup<AllocationOp>(slice.getAllocation()) : nullptr;
    return !alloc || alloc.getKind() == AllocationKind::Parameter;
  };
  auto check = [&](const char *call, CUresult r) {
    if (r == CUDA_SUCCESS)
      return false;
    error = "autotuning: " + cu.describe(call, r);
    return true;
  };
  // The fastest of `count` candidates (`run(i)` enqueues candidate i once):
  // a warm-up (a candidate that does not run is left out), then kRepeats
  // runs between the events. Fails on a CUDA error only.
  constexpr int kRepeats = 5;
  auto fastest = [&](size_t count, function_ref<LogicalResult(size_t)> run,
                     size_t &best, double &bestSeconds) -> LogicalResult {
    bestSeconds = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < count; ++i) {
      if (failed(run(i)))
        continue;
      if (check("cuEventRecord", cu.cuEventRecord(s.start, s.stream)))
        return failure();
      bool ran = true;
      for (int r = 0; r < kRepeats && ran; ++r)
        ran = succeeded(run(i));
      float ms = 0;
      if (check("cuEventRecord", cu.cuEventRecord(s.stop, s.stream)) ||
          check("cuEventSynchronize", cu.cuEventSynchronize(s.stop)) ||
          check("cuEventElapsedTime",
                cu.cuEventElapsedTime(&ms, s.start, s.stop)))
        return failure();
      double seconds = ms / 1e3 / kRepeats;
      if (ran && seconds < bestSeconds) {
        bestSeconds = seconds;
        best = i;
      }
    }
    if (bestSeconds == std::numeric_limits<double>::infinity())
      bestSeconds = 0;
    return success();
  };

  WalkResult walk = s.module->walk([&](GemmOp g) {
    GemmPlan &plan = *s.gemms[g];
    if (writesParameter(g.getOut()) || plan.candidates.size() < 2)
      return WalkResult::advance();
    size_t best = plan.chosen;
    double seconds = 0;
    std::string why;
    auto run = [&](size_t i) {
      plan.algo = plan.candidates[i];
      GemmExtras extras{addressOf(g.getAScale()), addressOf(g.getBScale()),
                        addressOf(g.getDScale()), addressOf(g.getDAmax()),
                        addressOf(g.getC())};
      return runGemm(plan, addressOf(g.getLhs()), addressOf(g.getRhs()),
                     addressOf(g.getBias()), addressOf(g.getOut()),
                     addressOf(g.getWorkspace()), extras, s.stream, why);
    };
    if (failed(fastest(plan.candidates.size(), run, best, seconds)))
      return WalkResult::interrupt();
    plan.chosen = best;
    plan.algo = plan.candidates[best];
    s.tunings.push_back(
        {g, int64_t(best), int64_t(plan.candidates.size()), seconds, 0, false});
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  // Convolutions: each candidate with scratch of its size (allocated for
  // the largest one; candidates needing more than the device can give are
  // left out). The runtime's scratch grows to the chosen algorithms'.
  walk = s.module->walk([&](ConvolutionOp c) {
    ConvPlan &plan = *s.convolutions[c];
    Value written = plan.kind == ConvKind::BackwardInput    ? c.getInput()
                    : plan.kind == ConvKind::BackwardFilter ? c.getFilter()
                                                            : c.getOutput();
    if (writesParameter(written) || plan.candidates.size() < 2)
      return WalkResult::advance();
    size_t most = 0;
    for (const ConvPlan::Candidate &k : plan.candidates)
      most = std::max(most, k.bytes);
    CUdeviceptr scratch = 0;
    if (most && cu.cuMemAlloc(&scratch, most) != CUDA_SUCCESS) {
      scratch = 0;
      most = 0;
    }
    llvm::scope_exit release([&] {
      if (scratch)
        cu.cuMemFree(scratch);
    });
    size_t best = plan.chosen;
    double seconds = 0;
    std::string why;
    auto run = [&](size_t i) -> LogicalResult {
      size_t bytes = plan.candidates[i].bytes;
      if (bytes > most)
        return failure();
      selectConvAlgorithm(plan, i);
      return runConvolution(plan, addressOf(c.getInput()),
                            addressOf(c.getFilter()), addressOf(c.getOutput()),
                            addressOf(c.getBias()), addressOf(c.getSideInput()),
                            scratch, bytes, s.stream, why);
    };
    if (failed(fastest(plan.candidates.size(), run, best, seconds)) ||
        check("cuStreamSynchronize", cu.cuStreamSynchronize(s.stream)))
      return WalkResult::interrupt();
    selectConvAlgorithm(plan, best);
    if (plan.neededBytes > plan.sliceBytes &&
        plan.neededBytes > s.scratchBytes) {
      if (s.scratch && check("cuMemFree", cu.cuMemFree(s.scratch)))
        return WalkResult::interrupt();
      s.scratch = 0;
      s.scratchBytes = 0;
      if (check("cuMemAlloc (convolution scratch)",
                cu.cuMemAlloc(&s.scratch, plan.neededBytes)))
        return WalkResult::interrupt();
      s.scratchBytes = plan.neededBytes;
    }
    s.tunings.push_back({c, plan.candidates[best].algo,
                         int64_t(plan.candidates.size()), seconds,
                         int64_t(plan.neededBytes), plan.tensorOps});
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  s.autotune = false;
  return success();
}

/// Runs the program once on the device of `s`, in this thread; its results
/// into `results` unless that is null.
static LogicalResult runOnDevice(CudaExecutable::State &s,
                                 ArrayRef<ParameterBytes> parameters,
                                 std::vector<std::vector<uint8_t>> *results,
                                 std::string &error, RunStats &st) {
  const Driver &cu = *s.cu;
  if (CUresult r = cu.cuCtxSetCurrent(s.dev->context)) {
    error = cu.describe("cuCtxSetCurrent", r);
    return failure();
  }
  Runner runner(s, error, st);
  if (!s.arena && failed(runner.makeArena()))
    return failure();
  st.arenaBytes = s.arenaBytes;
  st.hostMemoryBytes = s.hostBytes;
  SmallVector<std::pair<AllocationOp, ArrayRef<uint8_t>>> given;
  if (failed(matchParameters(*s.module, parameters, given, error)))
    return failure();
  for (auto [alloc, bytes] : given)
    if (failed(runner.check(
            alloc, "cuMemcpyHtoDAsync",
            cu.cuMemcpyHtoDAsync(s.bases.lookup(alloc.getSymName()),
                                 bytes.data(), bytes.size(), s.stream))))
      return failure();

  if (s.autotune && failed(autotune(s, error)))
    return failure();
  ProgramOp program = *s.module->getOps<ProgramOp>().begin();
  Block &body = program.getBody().front();
  // The program's time: events around it (not around each thunk when
  // profiling, which reuses them).
  CUevent begin = nullptr, end = nullptr;
  if (failed(runner.check(program, "cuEventCreate",
                          cu.cuEventCreate(&begin, CU_EVENT_DEFAULT))) ||
      failed(runner.check(program, "cuEventCreate",
                          cu.cuEventCreate(&end, CU_EVENT_DEFAULT))))
    return failure();
  llvm::scope_exit destroyEvents([&] {
    cu.cuEventDestroy(begin);
    cu.cuEventDestroy(end);
  });
  float ms = 0;
  if (failed(runner.check(program, "cuEventRecord",
                          cu.cuEventRecord(begin, s.stream))) ||
      failed(runner.runBlock(body)) ||
      failed(runner.check(program, "cuEventRecord",
                          cu.cuEventRecord(end, s.stream))) ||
      failed(runner.sync(program)) ||
      failed(runner.check(program, "cuEventElapsedTime",
                          cu.cuEventElapsedTime(&ms, begin, end))))
    return failure();
  st.deviceSeconds = ms / 1e3;
  st.sortTimes();

  if (!results)
    return success();
  results->clear();
  auto ret = cast<ReturnOp>(body.getTerminator());
  for (Value v : ret.getResults()) {
    results->emplace_back(getStorageBytes(cast<MemRefType>(v.getType())));
    if (failed(runner.check(
            ret, "cuMemcpyDtoHAsync",
            cu.cuMemcpyDtoHAsync(results->back().data(), runner.address(v),
                                 results->back().size(), s.stream))))
      return failure();
  }
  return runner.sync(ret);
}

void CudaExecutable::setAutotune(bool on) {
  for (std::unique_ptr<State> &s : states)
    s->autotune = on;
}

ArrayRef<CudaExecutable::Tuning> CudaExecutable::getTunings() const {
  return states.front()->tunings;
}

LogicalResult CudaExecutable::run(ArrayRef<ParameterBytes> parameters,
                                  std::vector<std::vector<uint8_t>> &results,
                                  std::string &error, RunStats *stats) {
  RunStats local;
  RunStats &st = stats ? *stats : local;
  int64_t devices = states.size();
  if (nccl && nccl->aborted()) {
    error = "a device failed in an earlier run, which aborted NCCL's "
            "communicators: compile the program again";
    return failure();
  }
  if (transfers)
    transfers->clearOutputs(devices);
  for (std::unique_ptr<State> &s : states)
    s->transfers = transfers;
  if (deviceIO)
    deviceIO->results.assign(devices, {});
  // Device d's parameters and where its results go.
  auto paramsOf = [&](int64_t d, std::string &why) {
    return parametersOf(d, devices, parameters, why);
  };
  auto resultsOf = [&](int64_t d) {
    return d == 0 ? &results : deviceIO ? &deviceIO->results[d] : nullptr;
  };
  if (devices == 1) {
    FailureOr<ArrayRef<ParameterBytes>> mine = paramsOf(0, error);
    if (failed(mine) ||
        failed(runOnDevice(*states[0], *mine, &results, error, st)))
      return failure();
    if (deviceIO)
      deviceIO->results[0] = results;
    return success();
  }
  // Device 0 in this thread, the others in threads of their own; the first
  // that fails aborts the communicators, so that the others stop waiting.
  std::vector<std::string> errors(devices);
  std::vector<RunStats> others(devices);
  auto runDevice = [&](int64_t d) {
    RunStats &mine = d == 0 ? st : others[d];
    mine.profile = st.profile;
    FailureOr<ArrayRef<ParameterBytes>> params = paramsOf(d, errors[d]);
    if (failed(params) ||
        failed(runOnDevice(*states[d], *params, resultsOf(d), errors[d], mine)))
      nccl->abort();
  };
  std::vector<std::thread> threads;
  for (int64_t d = 1; d < devices; ++d)
    threads.emplace_back(runDevice, d);
  runDevice(0);
  for (std::thread &t : threads)
    t.join();
  // The first device that failed for its own reason says why.
  for (int pass = 0; pass < 2; ++pass)
    for (int64_t d = 0; d < devices; ++d)
      if (!errors[d].empty() &&
          (pass == 1 || errors[d].find(kStopped) == std::string::npos)) {
        error = "device " + std::to_string(d) + ": " + errors[d];
        return failure();
      }
  if (deviceIO)
    deviceIO->results[0] = results;
  return success();
}
