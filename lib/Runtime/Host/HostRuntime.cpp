//===- HostRuntime.cpp - run a thunk program on the CPU -------------------===//
//
// Compiles a thunk program's kernels for the host once (the host lowering
// of hlo-gpu-kernels-to-host, then the JIT) and runs the program's thunks in
// order over one arena: every allocation at its own aligned offset, each
// slice a pointer into it.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Runtime/Host/HostRuntime.h"

#include "CollectiveStream.h"
#include "FilterTransposes.h"
#ifdef HLO_HAVE_DNNL
#include "HostDnnl.h"
#endif

#include "Hlo/Conversion/FusionEmitter.h"
#include "Hlo/Conversion/HostJit.h"
#include "Hlo/Conversion/Passes.h"
#include "Hlo/Dialect/Thunk/ThunkDialect.h"
#include "Hlo/Runtime/Thunk/Factorizations.h"
#include "Hlo/Runtime/Thunk/RadixSort.h"
#include "Hlo/Runtime/Thunk/TopK.h"
#include "Hlo/Support/DeviceRendezvous.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/TypeSwitch.h"

#include <omp.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <variant>

#include <unistd.h>

using namespace mlir;
using namespace mlir::thunk;

using Clock = std::chrono::steady_clock;
static double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

namespace {
/// `bytes` bytes from `source` to `target` (the two apart).
struct ByteCopy {
  uint8_t *target;
  const uint8_t *source;
  size_t bytes;
};
} // namespace

/// Makes `copies`, in pieces of 1 MiB on OpenMP's threads where there are
/// at least 4 MiB in all: one thread leaves memory bandwidth unused
/// (ResNet-50's 100 MB of parameters into the arena: 8-9 ms on one of two
/// cores, 4-5 ms on both).
static void copyAll(ArrayRef<ByteCopy> copies) {
  constexpr size_t kPiece = size_t(1) << 20;
  size_t total = 0;
  for (const ByteCopy &c : copies)
    total += c.bytes;
  if (total < 4 * kPiece) {
    for (const ByteCopy &c : copies)
      std::memcpy(c.target, c.source, c.bytes);
    return;
  }
  SmallVector<ByteCopy> pieces;
  for (const ByteCopy &c : copies)
    for (size_t at = 0; at < c.bytes; at += kPiece)
      pieces.push_back(
          {c.target + at, c.source + at, std::min(kPiece, c.bytes - at)});
  int64_t n = pieces.size();
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(pieces[i].target, pieces[i].source, pieces[i].bytes);
}

//===----------------------------------------------------------------------===//
// The plan: the program's thunks prepared once
//===----------------------------------------------------------------------===//

/// What the runner needs of each thunk, resolved when the program is
/// compiled so a run reads no IR on its common paths: slices are byte
/// offsets into a device's arena (the same in every arena), kernels their
/// JIT functions, loop and conditional bodies indices of sequences.
struct HostExecutable::Plan {
  struct Kernel {
    hlo::HostJit::PackedFunction function;
    /// The loop over a range of its blocks, where they are independent
    /// (KernelsToHost.cpp; null otherwise).
    hlo::HostJit::PackedFunction blocks = nullptr;
    int64_t numBlocks, threadsPerBlock;
    StringRef name;
    /// Each argument's offset and element count, inputs then outputs.
    SmallVector<std::pair<int64_t, int64_t>, 6> arguments;
    /// The kernel's `#thunk.transpose` (a library may make the copy) and
    /// its elements' bytes.
    TransposeAttr transpose;
    int64_t elementBytes = 0;
  };
  struct Copy {
    int64_t target, source, bytes;
  };
  struct DynamicCopy {
    int64_t target, source, bytes, targetStride, sourceStride;
    /// The index of its loop's iteration counter.
    unsigned loop;
  };
  struct Memset {
    int64_t target, bytes;
    uint32_t word;
  };
  struct While {
    unsigned condition, body, loop;
    int64_t predicate;
    std::optional<uint64_t> tripCount;
  };
  struct Conditional {
    int64_t selector;
    bool isPredicate;
    SmallVector<unsigned, 2> branches;
  };
  /// A convolution, whose filter is read at its slice or, where the plan
  /// left out the transpose that made it, at the transpose's input
  /// (FilterTransposes.h).
  struct Convolution {
    std::optional<int64_t> filterSource;
    SmallVector<int64_t, 5> filterStrides;
  };
  /// A command buffer's body (a CUDA graph on a GPU) runs as a sequence.
  struct Sequence {
    unsigned index;
  };
  /// Everything else runs from its operation (Runner::runThunk).
  struct Other {};
  struct Step {
    Operation *op;
    std::variant<Kernel, Copy, DynamicCopy, Memset, While, Conditional,
                 Convolution, Sequence, Other>
        kind;
  };

  /// Lays out the arena and prepares the program's body (sequence 0).
  LogicalResult build(ModuleOp module, hlo::HostJit *jit, std::string &error);
  int64_t offset(Value slice) const { return sliceOffsets.lookup(slice); }
  ByteRange bytes(Value slice) const {
    int64_t at = offset(slice);
    return {at, at + getStorageBytes(cast<MemRefType>(slice.getType()))};
  }

  int64_t arenaBytes = 0;
  /// The bytes of the allocations in host memory (in the arena here).
  int64_t hostMemoryBytes = 0;
  SmallVector<std::pair<AllocationOp, int64_t>> allocations;
  llvm::StringMap<int64_t> allocationOffsets;
  DenseMap<Value, int64_t> sliceOffsets;
  std::vector<std::vector<Step>> sequences;
  /// The parameter allocations no thunk writes, in the arena's order: a
  /// run reads them where the caller keeps them (Runner::at).
  struct ReadOnlyParameter {
    ByteRange bytes;
    AllocationOp alloc;
  };
  SmallVector<ReadOnlyParameter> readOnlyParameters;
  /// The kernels foldFilterTransposes left out of the program's body.
  int64_t transposesLeftOut = 0;
  /// Each loop's iteration counter (for thunk.dynamic_copy).
  DenseMap<Operation *, unsigned> loopCounters;
  /// The threads that may share a kernel's blocks (OpenMP's, as many as
  /// OMP_NUM_THREADS or else the hardware threads this process may use).
  int64_t threads = 1;

private:
  FailureOr<unsigned> addSequence(Block &block);
  void foldFilterTransposes(ModuleOp module, std::vector<Step> &steps);
  void findReadOnlyParameters(Block &body);
  FailureOr<Step> makeStep(Operation &op);
  hlo::HostJit *jit = nullptr;
  std::string *error = nullptr;
};

LogicalResult HostExecutable::Plan::build(ModuleOp module, hlo::HostJit *jit,
                                          std::string &error) {
  this->jit = jit;
  this->error = &error;
  arenaBytes = layOutArena(module, allocations);
  SmallVector<std::pair<AllocationOp, int64_t>> hostAllocations;
  hostMemoryBytes = layOutArena(module, hostAllocations, kHostMemorySpace);
  for (auto [alloc, at] : allocations)
    allocationOffsets[alloc.getSymName()] = at;
  module.walk([&](SliceOp s) {
    sliceOffsets[s] =
        allocationOffsets.lookup(s.getAllocation()) + s.getOffset();
  });
  ProgramOp program = *module.getOps<ProgramOp>().begin();
  if (failed(addSequence(program.getBody().front())))
    return failure();
  foldFilterTransposes(module, sequences[0]);
  findReadOnlyParameters(program.getBody().front());
  threads = omp_get_max_threads();
  return success();
}

FailureOr<unsigned> HostExecutable::Plan::addSequence(Block &block) {
  unsigned index = sequences.size();
  sequences.emplace_back();
  std::vector<Step> steps;
  for (Operation &op : block) {
    if (isa<SliceOp, ReturnOp>(op))
      continue;
    for (Value operand : op.getOperands())
      if (!operand.getDefiningOp<SliceOp>()) {
        *error =
            (op.getName().getStringRef() + ": an operand is not a thunk.slice")
                .str();
        return failure();
      }
    FailureOr<Step> step = makeStep(op);
    if (failed(step))
      return failure();
    steps.push_back(std::move(*step));
  }
  sequences[index] = std::move(steps);
  return index;
}

FailureOr<HostExecutable::Plan::Step>
HostExecutable::Plan::makeStep(Operation &op) {
  auto bytesOf = [](Value v) {
    return getStorageBytes(cast<MemRefType>(v.getType()));
  };
  Step step{&op, Other{}};
  if (auto k = dyn_cast<KernelOp>(op)) {
    Kernel kernel;
    kernel.name = k.getKernel().getLeafReference().getValue();
    if (!jit) {
      *error = "kernel " + kernel.name.str() + ": the program has no kernels";
      return failure();
    }
    FailureOr<hlo::HostJit::PackedFunction> fn =
        jit->lookup(kernel.name, *error);
    if (failed(fn)) {
      *error = "kernel " + kernel.name.str() + ": " + *error;
      return failure();
    }
    kernel.function = *fn;
    std::string noBlocks;
    if (FailureOr<hlo::HostJit::PackedFunction> blocks =
            jit->lookup((kernel.name + hlo::kHostBlocksSuffix).str(), noBlocks);
        succeeded(blocks)) {
      kernel.blocks = *blocks;
    }
    kernel.numBlocks = kernel.threadsPerBlock = 1;
    for (int32_t extent : k.getGrid())
      kernel.numBlocks *= extent;
    for (int32_t extent : k.getBlock())
      kernel.threadsPerBlock *= extent;
    for (ValueRange values : {k.getInputs(), k.getOutputs()})
      for (Value v : values)
        kernel.arguments.emplace_back(
            offset(v), cast<MemRefType>(v.getType()).getNumElements());
    if ((kernel.transpose = k.getTransposeAttr()))
      kernel.elementBytes = getElementStorageBytes(
          cast<MemRefType>(k.getInputs()[0].getType()).getElementType());
    step.kind = std::move(kernel);
  } else if (auto c = dyn_cast<CopyOp>(op)) {
    step.kind = Copy{offset(c.getTarget()), offset(c.getSource()),
                     bytesOf(c.getSource())};
  } else if (auto c = dyn_cast<DynamicCopyOp>(op)) {
    // Its loop (prepared before its body) has its counter.
    step.kind =
        DynamicCopy{offset(c.getTarget()) + int64_t(c.getTargetOffset()),
                    offset(c.getSource()) + int64_t(c.getSourceOffset()),
                    int64_t(c.getBytes()),
                    int64_t(c.getTargetStride()),
                    int64_t(c.getSourceStride()),
                    loopCounters.lookup(c.getLoop())};
  } else if (auto m = dyn_cast<MemsetOp>(op)) {
    step.kind =
        Memset{offset(m.getTarget()), bytesOf(m.getTarget()), m.getValue()};
  } else if (auto w = dyn_cast<WhileOp>(op)) {
    While loop;
    loop.loop = loopCounters.size();
    loopCounters[w] = loop.loop;
    loop.predicate = offset(w.getPredicate());
    loop.tripCount = w.getTripCount();
    FailureOr<unsigned> condition = addSequence(w.getCondition().front());
    if (failed(condition))
      return failure();
    FailureOr<unsigned> body = addSequence(w.getBody().front());
    if (failed(body))
      return failure();
    loop.condition = *condition;
    loop.body = *body;
    step.kind = loop;
  } else if (auto c = dyn_cast<ConditionalOp>(op)) {
    Conditional conditional;
    conditional.selector = offset(c.getSelector());
    conditional.isPredicate =
        c.getSelector().getType().getElementType().isInteger(8);
    for (Region &branch : c.getBranches()) {
      FailureOr<unsigned> index = addSequence(branch.front());
      if (failed(index))
        return failure();
      conditional.branches.push_back(*index);
    }
    step.kind = std::move(conditional);
  } else if (isa<ConvolutionOp>(op)) {
    step.kind = Convolution{};
  } else if (auto c = dyn_cast<CommandBufferOp>(op)) {
    FailureOr<unsigned> index = addSequence(c.getBody().front());
    if (failed(index))
      return failure();
    step.kind = Sequence{*index};
  }
  return step;
}

/// Leaves out the transposes of the program's body that only lay out a
/// convolution's filter: the convolution reads the transpose's input.
void HostExecutable::Plan::foldFilterTransposes(ModuleOp module,
                                                std::vector<Step> &steps) {
  SmallVector<Operation *> ops;
  for (const Step &step : steps)
    ops.push_back(step.op);
  SymbolTable symbols(module);
  SmallVector<FoldedFilterTranspose> folded = findFoldedFilterTransposes(
      ops, [&](Value slice) { return bytes(slice); },
      [&](Value slice) {
        auto alloc = symbols.lookup<AllocationOp>(
            slice.getDefiningOp<SliceOp>().getAllocation());
        return !alloc || alloc.getKind() != AllocationKind::Temp ||
               alloc.getMaybeLiveOut();
      });
  if (folded.empty())
    return;
  transposesLeftOut = folded.size();
  DenseSet<size_t> left;
  for (FoldedFilterTranspose &f : folded) {
    left.insert(f.transpose);
    auto kernel = cast<KernelOp>(ops[f.transpose]);
    steps[f.convolution].kind =
        Convolution{offset(kernel.getInputs()[0]), std::move(f.filterStrides)};
  }
  std::vector<Step> kept;
  for (auto [i, step] : llvm::enumerate(steps))
    if (!left.contains(i))
      kept.push_back(std::move(step));
  steps = std::move(kept);
}

void HostExecutable::Plan::findReadOnlyParameters(Block &body) {
  SmallVector<ByteRange> written;
  for (Operation &op : body) {
    // A collective's outputs are its start's writes; the done (a write of
    // unknown memory, for the order of thunks) adds none here.
    if (isa<CollectiveDoneOp>(op))
      continue;
    ThunkAccess access =
        getThunkAccess(&op, [&](Value slice) { return bytes(slice); });
    if (access.any)
      return;
    llvm::append_range(written, access.writes);
    llvm::append_range(written, access.mayWrites);
  }
  // Sorted by their starts, so a range overlaps a written one when the last
  // written range starting before its end (and the ones before that) ends
  // after its start: the running maximum of the ends answers at once.
  llvm::sort(written);
  SmallVector<int64_t> endsSoFar;
  for (ByteRange w : written)
    endsSoFar.push_back(
        std::max(w.second, endsSoFar.empty() ? w.second : endsSoFar.back()));
  for (auto [alloc, at] : allocations) {
    ByteRange range{at, at + int64_t(alloc.getSize())};
    size_t before =
        llvm::lower_bound(written, ByteRange{range.second, INT64_MIN}) -
        written.begin();
    if (alloc.getKind() == AllocationKind::Parameter &&
        (before == 0 || endsSoFar[before - 1] <= range.first))
      readOnlyParameters.push_back({range, alloc});
  }
  llvm::sort(readOnlyParameters, [](const auto &a, const auto &b) {
    return a.bytes.first < b.bytes.first;
  });
}

HostExecutable::HostExecutable() = default;
HostExecutable::~HostExecutable() = default;

std::unique_ptr<HostExecutable> HostExecutable::compile(ModuleOp program,
                                                        std::string &error) {
  MLIRContext *ctx = program.getContext();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return success();
  });
  if (failed(mlir::verify(program))) {
    error = "the thunk program does not verify: " + diagnostics;
    return nullptr;
  }
  auto programs = llvm::to_vector(program.getOps<ProgramOp>());
  if (programs.size() != 1) {
    error = "the module must hold one thunk.program";
    return nullptr;
  }
  std::unique_ptr<HostExecutable> exe(new HostExecutable());
  // The devices run in threads on a context that may not lock its
  // uniquers: what they look up must exist before (the collectives fold
  // packed unsigned integers as ui8).
  (void)IntegerType::get(ctx, 8, IntegerType::Unsigned);
  exe->module = program.clone();
  // The kernels, lowered for the host in a module of their own.
  if (!program.getOps<gpu::GPUModuleOp>().empty()) {
    DialectRegistry registry;
    hlo::registerHostJitDialects(registry);
    ctx->appendDialectRegistry(registry);
    OwningOpRef<ModuleOp> kernels = ModuleOp::create(program.getLoc());
    for (auto gpuModule : program.getOps<gpu::GPUModuleOp>())
      kernels->getBody()->push_back(gpuModule->clone());
    PassManager pm(ctx);
    pm.addPass(hlo::createHloGpuKernelsToHost());
    if (failed(pm.run(*kernels))) {
      error = "the kernels could not be lowered for the host: " + diagnostics;
      return nullptr;
    }
    exe->jit = hlo::HostJit::compile(*kernels, error);
    if (!exe->jit)
      return nullptr;
  }
  exe->plan = std::make_unique<Plan>();
  if (failed(exe->plan->build(*exe->module, exe->jit.get(), error)))
    return nullptr;
  return exe;
}

/// The devices of one run: where they meet, and each one's runner (whose
/// addresses the device completing a collective reads).
struct HostExecutable::Devices {
  explicit Devices(int64_t n) : rendezvous(n), runners(n) {}
  hlo::DeviceRendezvous rendezvous;
  std::vector<Runner *> runners;
};

/// One device's run over its arena.
class HostExecutable::Runner {
public:
  Runner(HostExecutable &exe, int64_t device, Devices *devices,
         std::string &error, RunStats &stats)
      : exe(exe), plan(*exe.plan), memory(exe.memory[device]), device(device),
        transfers(exe.transfers, device), devices(devices), error(error),
        stats(&stats), iterations(plan.loopCounters.size()) {}

  LogicalResult layOut(ArrayRef<ParameterBytes> parameters);
  LogicalResult runSequence(unsigned index);
  uint8_t *address(Value slice) { return at(plan.offset(slice)); }
  /// The byte at `offset` in the arena's layout: in the arena, or in the
  /// caller's parameter where the run reads it there.
  uint8_t *at(int64_t offset) const {
    if (!external.empty()) {
      auto it = llvm::upper_bound(
          plan.readOnlyParameters, offset,
          [](int64_t o, const auto &p) { return o < p.bytes.first; });
      if (it != plan.readOnlyParameters.begin()) {
        size_t i = std::prev(it) - plan.readOnlyParameters.begin();
        ByteRange bytes = plan.readOnlyParameters[i].bytes;
        if (external[i] && offset < bytes.second)
          return external[i] + (offset - bytes.first);
      }
    }
    return memory.base + offset;
  }

private:
  using Plan = HostExecutable::Plan;
  LogicalResult makeArena();
  LogicalResult run(const Plan::Kernel &kernel, Operation &op);
  void runKernel(const Plan::Kernel &kernel, MutableArrayRef<void *> arguments);
  LogicalResult run(const Plan::Copy &copy, Operation &op);
  LogicalResult run(const Plan::DynamicCopy &copy, Operation &op);
  LogicalResult run(const Plan::Memset &memset, Operation &op);
  LogicalResult run(const Plan::While &loop, Operation &op);
  LogicalResult run(const Plan::Conditional &conditional, Operation &op);
  LogicalResult run(const Plan::Convolution &conv, Operation &op);
  LogicalResult run(const Plan::Sequence &sequence, Operation &op) {
    return runSequence(sequence.index);
  }
  LogicalResult run(const Plan::Other &, Operation &op) { return runThunk(op); }
  LogicalResult runThunk(Operation &op);
  LogicalResult runCollective(Operation &op);
  LogicalResult waitCollective(CollectiveDoneOp done);
  /// Runs `call`, recording its time as `name` when profiling.
  template <typename Call> LogicalResult timed(StringRef name, Call &&call) {
    if (!stats->profile)
      return call();
    Clock::time_point start = Clock::now();
    if (failed(call()))
      return failure();
    stats->record(name, secondsSince(start));
    return success();
  }
  LogicalResult fail(Operation &op, const Twine &why) {
    error = (op.getName().getStringRef() + ": " + why).str();
    return failure();
  }

  HostExecutable &exe;
  const Plan &plan;
  Memory &memory;
  int64_t device;
  /// This device's infeed, outfeed and channels in this run.
  DeviceTransfers transfers;
  Devices *devices;
  std::string &error;
  /// Where thunks are counted: the run's statistics, or `uncounted` while a
  /// loop with a known trip count checks its condition.
  RunStats *stats;
  RunStats uncounted;
  /// Each loop's iteration while it runs (from 0), by its counter's index.
  std::vector<uint64_t> iterations;
  /// Where this run reads each of the plan's read-only parameters (null:
  /// copied into the arena).
  SmallVector<uint8_t *> external;
  /// The device's collective stream, made at its first asynchronous
  /// collective, and the tickets of the collectives in flight by async_id.
  /// Declared last: destroyed (its thread joined) first.
  DenseMap<int64_t, uint64_t> tickets;
  std::unique_ptr<hlo::CollectiveStream> stream;
};

LogicalResult HostExecutable::Runner::makeArena() {
  int64_t size = plan.arenaBytes;
  // Past the machine's memory the allocation might succeed (overcommit) and
  // the first writes get the process killed.
  int64_t physical = static_cast<int64_t>(sysconf(_SC_PHYS_PAGES)) *
                     static_cast<int64_t>(sysconf(_SC_PAGE_SIZE));
  if (physical > 0 && size > physical) {
    error = "out of memory: the arena needs " + std::to_string(size) +
            " bytes, the machine has " + std::to_string(physical);
    return failure();
  }
  memory.arena.reset(
      static_cast<uint8_t *>(std::malloc(size + kArenaAlignment)));
  if (!memory.arena) {
    error = "out of memory: the arena needs " + std::to_string(size) + " bytes";
    return failure();
  }
  memory.rngState = static_cast<uint64_t>(
      (*exe.module->getOps<ProgramOp>().begin()).getRngSeed());
  uint8_t *base = reinterpret_cast<uint8_t *>(llvm::alignTo(
      reinterpret_cast<uintptr_t>(memory.arena.get()), kArenaAlignment));
  memory.base = base;
  // Bytes no thunk wrote read as garbage, not zeros (xorshift64, 8 bytes a
  // step).
  uint64_t state = 0x5eed5eed5eedULL;
  for (int64_t i = 0; i < size; i += 8) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    std::memcpy(base + i, &state, std::min<int64_t>(8, size - i));
  }
  std::vector<uint8_t> bytes;
  for (auto [alloc, offset] : plan.allocations) {
    if (!alloc.getValue())
      continue;
    if (failed(constantBytes(alloc, bytes, error)))
      return failure();
    std::memcpy(base + offset, bytes.data(), bytes.size());
  }
  return success();
}

LogicalResult
HostExecutable::Runner::layOut(ArrayRef<ParameterBytes> parameters) {
  if (!memory.arena && failed(makeArena()))
    return failure();
  stats->arenaBytes = plan.arenaBytes;
  stats->hostMemoryBytes = plan.hostMemoryBytes;
  stats->transposesLeftOut = plan.transposesLeftOut;
  SmallVector<std::pair<AllocationOp, ArrayRef<uint8_t>>> given;
  if (failed(matchParameters(*exe.module, parameters, given, error)))
    return failure();
  // A parameter no thunk writes is read where the caller keeps it, when the
  // caller's bytes are all of it and aligned as kernels take them (XLA's
  // runtimes read parameters in place); the others are copied in.
  external.assign(plan.readOnlyParameters.size(), nullptr);
  SmallVector<ByteCopy> copies;
  for (auto [alloc, bytes] : given) {
    int64_t offset = plan.allocationOffsets.lookup(alloc.getSymName());
    auto it = llvm::lower_bound(
        plan.readOnlyParameters, offset,
        [](const auto &p, int64_t o) { return p.bytes.first < o; });
    if (it != plan.readOnlyParameters.end() && it->alloc == alloc &&
        int64_t(bytes.size()) == int64_t(alloc.getSize()) &&
        reinterpret_cast<uintptr_t>(bytes.data()) %
                hlo::kKernelArgumentAlignment ==
            0) {
      external[it - plan.readOnlyParameters.begin()] =
          const_cast<uint8_t *>(bytes.data());
      ++stats->parametersInPlace;
      continue;
    }
    copies.push_back({memory.base + offset, bytes.data(), bytes.size()});
  }
  copyAll(copies);
  return success();
}

LogicalResult HostExecutable::Runner::runSequence(unsigned index) {
  for (const Plan::Step &step : plan.sequences[index])
    if (failed(std::visit([&](const auto &kind) { return run(kind, *step.op); },
                          step.kind)))
      return failure();
  return success();
}

LogicalResult HostExecutable::Runner::run(const Plan::Kernel &kernel,
                                          Operation &) {
  ++stats->kernels;
#ifdef HLO_HAVE_DNNL
  // A transpose by oneDNN's reorder where it takes it (not in place).
  if (kernel.transpose) {
    const uint8_t *from = at(kernel.arguments[0].first);
    uint8_t *to = at(kernel.arguments[1].first);
    int64_t bytes = kernel.arguments[0].second * kernel.elementBytes;
    if (to + bytes <= from || from + bytes <= to) {
      Clock::time_point start = Clock::now();
      FailureOr<bool> ran = runDnnlTranspose(
          kernel.transpose, kernel.elementBytes, from, to, error);
      if (failed(ran))
        return failure();
      if (*ran) {
        if (stats->profile)
          stats->record("transpose (oneDNN)", secondsSince(start));
        return success();
      }
    }
  }
#endif
  // A 1-D memref descriptor per argument, over the slice's bytes.
  size_t count = kernel.arguments.size();
  SmallVector<StridedMemRefType<uint8_t, 1>, 8> descriptors(count);
  SmallVector<void *, 8> pointers(count), packed(count);
  for (auto [i, argument] : llvm::enumerate(kernel.arguments)) {
    uint8_t *p = at(argument.first);
    descriptors[i] = {p, p, 0, {argument.second}, {1}};
    pointers[i] = &descriptors[i];
    packed[i] = &pointers[i];
  }
  return timed(kernel.name, [&] {
    runKernel(kernel, packed);
    return success();
  });
}

/// Runs `kernel` on `arguments` (packed): its blocks in ranges on OpenMP's
/// threads (this one among them) where they are independent and there is
/// enough work to share, else all on this thread. OpenMP's threads are
/// those oneDNN runs its convolutions on: one set of threads for the two,
/// which would otherwise take the cores from each other (OpenMP's threads
/// wait spinning a while after their work).
void HostExecutable::Runner::runKernel(const Plan::Kernel &kernel,
                                       MutableArrayRef<void *> arguments) {
  // Threads a share must have at least (a share costs a few microseconds
  // to hand over).
  constexpr int64_t kMinThreadsPerShare = 1 << 12;
  int64_t shares = 1;
  if (kernel.blocks)
    shares = std::min<int64_t>(
        {plan.threads, kernel.numBlocks,
         kernel.numBlocks * kernel.threadsPerBlock / kMinThreadsPerShare});
  if (shares < 2) {
    kernel.function(arguments.data());
    return;
  }
  // Share i runs the blocks [bounds[i], bounds[i + 1]).
  SmallVector<int64_t, 8> bounds;
  for (int64_t i = 0; i <= shares; ++i)
    bounds.push_back(kernel.numBlocks * i / shares);
  SmallVector<SmallVector<void *, 8>, 8> packed(shares);
  for (int64_t i = 0; i < shares; ++i) {
    packed[i].assign(arguments.begin(), arguments.end());
    packed[i].push_back(&bounds[i]);
    packed[i].push_back(&bounds[i + 1]);
  }
#pragma omp parallel for num_threads(shares) schedule(static, 1)
  for (int64_t i = 0; i < shares; ++i)
    kernel.blocks(packed[i].data());
}

LogicalResult HostExecutable::Runner::run(const Plan::Copy &copy, Operation &) {
  ++stats->copies;
  std::memmove(at(copy.target), at(copy.source), copy.bytes);
  return success();
}

LogicalResult HostExecutable::Runner::run(const Plan::DynamicCopy &copy,
                                          Operation &) {
  ++stats->copies;
  uint64_t i = iterations[copy.loop];
  std::memmove(at(copy.target + i * copy.targetStride),
               at(copy.source + i * copy.sourceStride), copy.bytes);
  return success();
}

LogicalResult HostExecutable::Runner::run(const Plan::Memset &memset,
                                          Operation &) {
  ++stats->memsets;
  uint8_t *p = at(memset.target);
  for (int64_t i = 0; i < memset.bytes; ++i)
    p[i] = uint8_t(memset.word >> (8 * (i % 4)));
  return success();
}

LogicalResult HostExecutable::Runner::run(const Plan::While &loop,
                                          Operation &op) {
  // The condition runs every iteration, also with a known trip count (which
  // the CUDA runtime trusts): the predicate must then agree.
  const uint8_t *predicate = at(loop.predicate);
  for (uint64_t i = 0;; ++i) {
    // With a trip count the condition is a check: its thunks are not
    // counted (a GPU runs none of them).
    RunStats *counting = stats;
    if (loop.tripCount)
      stats = &uncounted;
    LogicalResult ran = runSequence(loop.condition);
    stats = counting;
    if (failed(ran))
      return failure();
    if (loop.tripCount && bool(*predicate) != (i < *loop.tripCount))
      return fail(op, "the predicate is " +
                          Twine(*predicate ? "true" : "false") + " after " +
                          Twine(i) + " iterations, but trip_count is " +
                          Twine(*loop.tripCount));
    if (!*predicate)
      return success();
    ++stats->iterations;
    iterations[loop.loop] = i;
    if (failed(runSequence(loop.body)))
      return failure();
  }
}

LogicalResult HostExecutable::Runner::run(const Plan::Conditional &conditional,
                                          Operation &) {
  ++stats->branches;
  const uint8_t *p = at(conditional.selector);
  int64_t n = conditional.branches.size();
  int64_t index;
  if (conditional.isPredicate) {
    index = *p ? 0 : 1;
  } else {
    int32_t i;
    std::memcpy(&i, p, 4);
    index = i < 0 || i >= n ? n - 1 : i;
  }
  return runSequence(conditional.branches[index]);
}

LogicalResult HostExecutable::Runner::run(const Plan::Convolution &conv,
                                          Operation &op) {
  ++stats->convolutions;
  auto c = cast<ConvolutionOp>(op);
  auto of = [&](Value v) { return v ? address(v) : nullptr; };
  SmallVector<uint8_t *> buffers = {of(c.getInput()),     of(c.getFilter()),
                                    of(c.getOutput()),    of(c.getBias()),
                                    of(c.getSideInput()), of(c.getWorkspace())};
  if (conv.filterSource)
    buffers[1] = at(*conv.filterSource);
  // Timed by hand: the library that ran it names the row.
  Clock::time_point start = Clock::now();
  StringRef library;
  if (failed(
          runHostConvolution(c, buffers, error, &library, conv.filterStrides)))
    return failure();
  if (stats->profile)
    stats->record(("convolution (" + library + ")").str(), secondsSince(start));
  return success();
}

/// The thunks the plan leaves to their operations: library calls,
/// collectives, transfers and the other rare ones.
LogicalResult HostExecutable::Runner::runThunk(Operation &op) {
  auto bytesOf = [](Value v) {
    return getStorageBytes(cast<MemRefType>(v.getType()));
  };
  if (isCollectiveThunk(&op)) {
    ++stats->collectives;
    return timed("collective", [&] { return runCollective(op); });
  }
  if (isFactorization(&op)) {
    ++stats->solvers;
    SmallVector<uint8_t *> buffers;
    for (Value operand : op.getOperands())
      buffers.push_back(address(operand));
    std::string name = op.getName().stripDialect().str() + " (LAPACK)";
    return timed(name, [&] { return runFactorization(&op, buffers, error); });
  }
  if (auto sort = dyn_cast<RadixSortOp>(op)) {
    ++stats->sorts;
    SmallVector<uint8_t *> buffers;
    for (Value operand : op.getOperands())
      buffers.push_back(address(operand));
    return timed("radix sort",
                 [&] { return runRadixSort(sort, buffers, error); });
  }
  if (auto topK = dyn_cast<TopKOp>(op)) {
    // A kernel launch on the GPU (XLA's custom kernel).
    ++stats->kernels;
    SmallVector<uint8_t *> buffers;
    for (Value operand : op.getOperands())
      buffers.push_back(address(operand));
    return timed("top-k", [&] { return runTopK(topK, buffers, error); });
  }
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case([&](GemmOp g) {
        ++stats->gemms;
        SmallVector<uint8_t *> buffers = {
            address(g.getLhs()),
            address(g.getRhs()),
            g.getBias() ? address(g.getBias()) : nullptr,
            address(g.getOut()),
            g.getWorkspace() ? address(g.getWorkspace()) : nullptr,
            g.getAScale() ? address(g.getAScale()) : nullptr,
            g.getBScale() ? address(g.getBScale()) : nullptr,
            g.getDScale() ? address(g.getDScale()) : nullptr,
            g.getDAmax() ? address(g.getDAmax()) : nullptr,
            g.getC() ? address(g.getC()) : nullptr};
        return timed("gemm (OpenBLAS)",
                     [&] { return runHostGemm(g, buffers, error); });
      })
      .Case([&](FftOp f) {
        ++stats->ffts;
        return timed("fft (FFTW)", [&] {
          return runHostFft(f, address(f.getInput()), address(f.getOutput()),
                            error);
        });
      })
      .Case([&](TriangularSolveOp t) {
        ++stats->solvers;
        return timed("triangular solve (OpenBLAS)", [&] {
          return runHostTriangularSolve(t, address(t.getA()), address(t.getB()),
                                        error);
        });
      })
      .Case([&](CholeskyOp c) {
        ++stats->solvers;
        return timed("cholesky (LAPACK)", [&] {
          return runHostCholesky(c, address(c.getA()), address(c.getInfo()),
                                 error);
        });
      })
      .Case([&](CollectiveDoneOp done) {
        return timed("collective", [&] { return waitCollective(done); });
      })
      .Case([&](DeviceIdOp d) {
        auto program = d->getParentOfType<ProgramOp>();
        int64_t partitions = program.getNumPartitions();
        uint32_t id = d.getKind() == DeviceIdKind::Replica
                          ? uint32_t(device / partitions)
                          : uint32_t(device % partitions);
        std::memcpy(address(d.getTarget()), &id, 4);
        return success();
      })
      .Case([&](RngGetAndUpdateStateOp r) {
        uint64_t words[2] = {memory.rngState, 0};
        std::memcpy(address(r.getTarget()), words, sizeof(words));
        memory.rngState += static_cast<uint64_t>(r.getDelta());
        return success();
      })
      .Case([&](PadToStaticOp p) {
        SmallVector<uint8_t *> sizes;
        for (Value v : p.getSizes())
          sizes.push_back(address(v));
        return padToStatic(p, address(p.getInput()), address(p.getOutput()),
                           sizes, error);
      })
      .Case([&](SliceToDynamicOp p) {
        SmallVector<uint8_t *> sizes;
        for (Value v : p.getSizes())
          sizes.push_back(address(v));
        return sliceToDynamic(p, address(p.getInput()), sizes,
                              address(p.getOutput()), error);
      })
      .Case<InfeedOp, OutfeedOp, SendOp, RecvOp>([&](Operation *) {
        auto read = [&](ValueRange slices) {
          TransferValue value;
          for (Value v : slices)
            value.emplace_back(address(v), address(v) + bytesOf(v));
          return value;
        };
        auto write = [&](ValueRange slices, const TransferValue &value) {
          for (auto [v, bytes] : llvm::zip_equal(slices, value))
            std::memcpy(address(v), bytes.data(), bytes.size());
        };
        return transfers.run(&op, read, write, error);
      })
      .Default([&](Operation *) { return fail(op, "not a thunk"); });
}

LogicalResult HostExecutable::Runner::runCollective(Operation &op) {
  Operation *at = &op;
  auto collective = [this, at](std::string &why) {
    return devices ? devices->rendezvous.meet(
                         device, at,
                         [&](std::string &failure) {
                           return runHostCollective(
                               at,
                               [&](int64_t d, Value v) {
                                 return devices->runners[d]->address(v);
                               },
                               failure);
                         },
                         why)
                   : runHostCollective(
                         at, [&](int64_t, Value v) { return address(v); }, why);
  };
  std::string why;
  // An asynchronous collective is queued on the collective stream; once
  // there is one, the synchronous ones follow it there (program order).
  if (auto id = op.getAttrOfType<IntegerAttr>("async_id")) {
    if (!stream)
      stream = std::make_unique<hlo::CollectiveStream>();
    tickets[id.getInt()] = stream->enqueue(collective);
    return success();
  }
  LogicalResult status =
      stream ? stream->wait(stream->enqueue(collective), why) : collective(why);
  return failed(status) ? fail(op, why) : success();
}

LogicalResult HostExecutable::Runner::waitCollective(CollectiveDoneOp done) {
  auto it = tickets.find(int64_t(done.getAsyncId()));
  if (!stream || it == tickets.end())
    return fail(*done, "no collective is in flight with async_id " +
                           Twine(done.getAsyncId()));
  std::string why;
  LogicalResult status = stream->wait(it->second, why);
  tickets.erase(it);
  return failed(status) ? fail(*done, why) : success();
}

LogicalResult HostExecutable::run(ArrayRef<ParameterBytes> parameters,
                                  std::vector<std::vector<uint8_t>> &results,
                                  std::string &error, RunStats *stats) {
  ProgramOp program = *module->getOps<ProgramOp>().begin();
  int64_t devices = program.getNumReplicas() * program.getNumPartitions();
  if (int64_t(memory.size()) != devices)
    memory.resize(devices);
  Block &body = program.getBody().front();
  RunStats local;
  RunStats &s = stats ? *stats : local;
  // Device 0 in this thread, the others in threads of their own.
  std::unique_ptr<Devices> several;
  if (devices > 1)
    several = std::make_unique<Devices>(devices);
  std::vector<std::string> errors(devices);
  std::vector<RunStats> otherStats(devices);
  if (transfers)
    transfers->clearOutputs(devices);
  std::vector<std::unique_ptr<Runner>> runners;
  for (int64_t d = 0; d < devices; ++d) {
    runners.push_back(std::make_unique<Runner>(
        *this, d, several.get(), errors[d], d == 0 ? s : otherStats[d]));
    if (several)
      several->runners[d] = runners.back().get();
  }
  // The device time (RunStats): from device 0's first thunk, its
  // parameters in place.
  Clock::time_point start;
  auto runDevice = [&](int64_t d) {
    Runner &runner = *runners[d];
    FailureOr<ArrayRef<ParameterBytes>> mine =
        parametersOf(d, devices, parameters, errors[d]);
    bool ok = succeeded(mine) && succeeded(runner.layOut(*mine));
    if (d == 0)
      start = Clock::now();
    ok = ok && succeeded(runner.runSequence(0));
    if (several) {
      if (ok)
        several->rendezvous.finish();
      else
        several->rendezvous.stop();
    }
    return ok;
  };
  std::vector<std::thread> threads;
  for (int64_t d = 1; d < devices; ++d)
    threads.emplace_back([&, d] { runDevice(d); });
  runDevice(0);
  for (std::thread &t : threads)
    t.join();
  s.deviceSeconds = secondsSince(start);
  // The first device that failed for its own reason (not stopped by
  // another) says why.
  std::string why;
  for (int pass = 0; pass < 2; ++pass)
    for (int64_t d = 0; d < devices && why.empty(); ++d)
      if (!errors[d].empty() &&
          (pass == 1 ||
           errors[d].find(hlo::DeviceRendezvous::kStopped) ==
               std::string::npos))
        why = devices > 1 ? "device " + std::to_string(d) + ": " + errors[d]
                          : errors[d];
  if (!why.empty()) {
    error = why;
    return failure();
  }
  s.sortTimes();
  // Into the vectors of the last run where there are (a repeated run then
  // writes memory it has touched before).
  auto ret = cast<ReturnOp>(body.getTerminator());
  results.resize(ret.getNumOperands());
  SmallVector<ByteCopy> copies;
  for (auto [v, bytes] : llvm::zip(ret.getResults(), results)) {
    bytes.resize(getStorageBytes(cast<MemRefType>(v.getType())));
    copies.push_back({bytes.data(), runners[0]->address(v), bytes.size()});
  }
  if (deviceIO) {
    deviceIO->results.assign(devices, {});
    for (int64_t d = 0; d < devices; ++d) {
      auto &mine = deviceIO->results[d];
      mine.resize(ret.getNumOperands());
      for (auto [v, bytes] : llvm::zip(ret.getResults(), mine)) {
        bytes.resize(getStorageBytes(cast<MemRefType>(v.getType())));
        copies.push_back({bytes.data(), runners[d]->address(v), bytes.size()});
      }
    }
  }
  copyAll(copies);
  return success();
}
