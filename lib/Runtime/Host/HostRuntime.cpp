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

#include "Hlo/Conversion/HostJit.h"
#include "Hlo/Conversion/Passes.h"
#include "Hlo/Dialect/Thunk/ThunkDialect.h"
#include "Hlo/Runtime/Thunk/Factorizations.h"
#include "Hlo/Support/DeviceRendezvous.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/TypeSwitch.h"

#include <chrono>
#include <cstring>
#include <thread>

using namespace mlir;
using namespace mlir::thunk;

using Clock = std::chrono::steady_clock;
static double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

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
  exe->module = program.clone();
  // The kernels, lowered for the host in a module of their own.
  if (program.getOps<gpu::GPUModuleOp>().empty())
    return exe;
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
  WalkResult found = exe->module->walk([&](KernelOp k) {
    StringRef name = k.getKernel().getLeafReference().getValue();
    FailureOr<hlo::HostJit::PackedFunction> fn = exe->jit->lookup(name, error);
    if (failed(fn)) {
      error = "kernel " + name.str() + ": " + error;
      return WalkResult::interrupt();
    }
    exe->kernelFunctions[k] = *fn;
    return WalkResult::advance();
  });
  if (found.wasInterrupted())
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

/// One device's run: the slices' addresses in its arena.
class HostExecutable::Runner {
public:
  Runner(HostExecutable &exe, int64_t device, Devices *devices,
         std::string &error, RunStats &stats)
      : exe(exe), memory(exe.memory[device]), device(device),
        transfers(exe.transfers, device), devices(devices), error(error),
        stats(stats) {}

  LogicalResult layOut(ArrayRef<ParameterBytes> parameters);
  LogicalResult runBlock(Block &block);
  uint8_t *address(Value slice) { return addresses.lookup(slice); }

private:
  LogicalResult makeArena();
  LogicalResult runThunk(Operation &op);
  LogicalResult runCollective(Operation &op);
  LogicalResult waitCollective(CollectiveDoneOp done);
  LogicalResult fail(Operation &op, const Twine &why) {
    error = (op.getName().getStringRef() + ": " + why).str();
    return failure();
  }

  HostExecutable &exe;
  Memory &memory;
  int64_t device;
  /// This device's infeed, outfeed and channels in this run.
  DeviceTransfers transfers;
  Devices *devices;
  std::string &error;
  RunStats &stats;
  DenseMap<Value, uint8_t *> addresses;
  /// Each running loop's iteration (from 0), for thunk.dynamic_copy.
  DenseMap<Operation *, uint64_t> iterations;
  /// The device's collective stream, made at its first asynchronous
  /// collective, and the tickets of the collectives in flight by async_id.
  /// Declared last: destroyed (its thread joined) first.
  DenseMap<int64_t, uint64_t> tickets;
  std::unique_ptr<hlo::CollectiveStream> stream;
};

LogicalResult HostExecutable::Runner::makeArena() {
  SmallVector<std::pair<AllocationOp, int64_t>> layout;
  int64_t size = layOutArena(*exe.module, layout);
  memory.arena.reset(new (std::nothrow) uint8_t[size + kArenaAlignment]);
  if (!memory.arena) {
    error = "out of memory: the arena needs " + std::to_string(size) + " bytes";
    return failure();
  }
  memory.bytes = size;
  memory.rngState = static_cast<uint64_t>(
      (*exe.module->getOps<ProgramOp>().begin()).getRngSeed());
  uint8_t *base = reinterpret_cast<uint8_t *>(llvm::alignTo(
      reinterpret_cast<uintptr_t>(memory.arena.get()), kArenaAlignment));
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
  for (auto [alloc, offset] : layout) {
    memory.bases[alloc.getSymName()] = base + offset;
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
  stats.arenaBytes = memory.bytes;
  SmallVector<std::pair<AllocationOp, ArrayRef<uint8_t>>> given;
  if (failed(matchParameters(*exe.module, parameters, given, error)))
    return failure();
  for (auto [alloc, bytes] : given)
    std::memcpy(memory.bases.lookup(alloc.getSymName()), bytes.data(),
                bytes.size());
  return success();
}

LogicalResult HostExecutable::Runner::runBlock(Block &block) {
  for (Operation &op : block)
    if (failed(runThunk(op)))
      return failure();
  return success();
}

LogicalResult HostExecutable::Runner::runThunk(Operation &op) {
  auto bytesOf = [](Value v) {
    return getStorageBytes(cast<MemRefType>(v.getType()));
  };
  // Runs `call`, recording its time as `name` when profiling.
  auto timed = [&](StringRef name, function_ref<LogicalResult()> call) {
    Clock::time_point start = Clock::now();
    if (failed(call()))
      return failure();
    if (stats.profile)
      stats.record(name, secondsSince(start));
    return success();
  };
  if (isCollectiveThunk(&op)) {
    ++stats.collectives;
    return timed("collective", [&] { return runCollective(op); });
  }
  if (isFactorization(&op)) {
    ++stats.solvers;
    SmallVector<uint8_t *> buffers;
    for (Value operand : op.getOperands())
      buffers.push_back(address(operand));
    std::string name = op.getName().stripDialect().str() + " (LAPACK)";
    return timed(name, [&] { return runFactorization(&op, buffers, error); });
  }
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case([&](SliceOp s) {
        addresses[s] = memory.bases.lookup(s.getAllocation()) + s.getOffset();
        return success();
      })
      .Case([&](KernelOp k) {
        ++stats.kernels;
        // A 1-D memref descriptor per argument, over the slice's bytes
        // (sized once: the pointers into them stay valid).
        size_t count = k.getInputs().size() + k.getOutputs().size();
        SmallVector<StridedMemRefType<uint8_t, 1>, 8> descriptors(count);
        SmallVector<void *, 8> pointers(count), packed(count);
        size_t i = 0;
        for (ValueRange values : {k.getInputs(), k.getOutputs()})
          for (Value v : values) {
            uint8_t *p = address(v);
            int64_t n = cast<MemRefType>(v.getType()).getNumElements();
            descriptors[i] = {p, p, 0, {n}, {1}};
            pointers[i] = &descriptors[i];
            packed[i] = &pointers[i];
            ++i;
          }
        auto fn = exe.kernelFunctions.lookup(k);
        if (!fn)
          return fail(op, "the program has no kernels compiled");
        StringRef name = k.getKernel().getLeafReference().getValue();
        return timed(name, [&] {
          fn(packed.data());
          return success();
        });
      })
      .Case([&](GemmOp g) {
        ++stats.gemms;
        SmallVector<uint8_t *> buffers = {
            address(g.getLhs()), address(g.getRhs()),
            g.getBias() ? address(g.getBias()) : nullptr, address(g.getOut()),
            g.getWorkspace() ? address(g.getWorkspace()) : nullptr};
        return timed("gemm (OpenBLAS)",
                     [&] { return runHostGemm(g, buffers, error); });
      })
      .Case([&](ConvolutionOp c) {
        ++stats.convolutions;
        auto at = [&](Value v) { return v ? address(v) : nullptr; };
        SmallVector<uint8_t *> buffers = {
            at(c.getInput()), at(c.getFilter()),    at(c.getOutput()),
            at(c.getBias()),  at(c.getSideInput()), at(c.getWorkspace())};
        return timed("convolution (OpenBLAS)",
                     [&] { return runHostConvolution(c, buffers, error); });
      })
      .Case([&](FftOp f) {
        ++stats.ffts;
        return timed("fft (FFTW)", [&] {
          return runHostFft(f, address(f.getInput()), address(f.getOutput()),
                            error);
        });
      })
      .Case([&](TriangularSolveOp t) {
        ++stats.solvers;
        return timed("triangular solve (OpenBLAS)", [&] {
          return runHostTriangularSolve(t, address(t.getA()), address(t.getB()),
                                        error);
        });
      })
      .Case([&](CholeskyOp c) {
        ++stats.solvers;
        return timed("cholesky (LAPACK)", [&] {
          return runHostCholesky(c, address(c.getA()), address(c.getInfo()),
                                 error);
        });
      })
      .Case([&](CopyOp c) {
        ++stats.copies;
        std::memmove(address(c.getTarget()), address(c.getSource()),
                     bytesOf(c.getSource()));
        return success();
      })
      .Case([&](DynamicCopyOp c) {
        ++stats.copies;
        int64_t i = iterations.lookup(c.getLoop());
        std::memmove(address(c.getTarget()) + c.getTargetOffset() +
                         i * c.getTargetStride(),
                     address(c.getSource()) + c.getSourceOffset() +
                         i * c.getSourceStride(),
                     c.getBytes());
        return success();
      })
      .Case([&](MemsetOp m) {
        ++stats.memsets;
        uint8_t *p = address(m.getTarget());
        uint32_t word = m.getValue();
        int64_t n = bytesOf(m.getTarget());
        for (int64_t i = 0; i < n; ++i)
          p[i] = uint8_t(word >> (8 * (i % 4)));
        return success();
      })
      .Case([&](WhileOp w) {
        // The condition runs every iteration, also with a known trip count
        // (which the CUDA runtime trusts): the predicate must then agree.
        uint8_t *predicate = address(w.getPredicate());
        std::optional<uint64_t> trips = w.getTripCount();
        for (uint64_t i = 0;; ++i) {
          // With a trip count the condition is a check: its thunks are not
          // counted (a GPU runs none of them).
          std::optional<RunStats> counted;
          if (trips)
            counted = stats;
          if (failed(runBlock(w.getCondition().front())))
            return failure();
          if (trips)
            stats = std::move(*counted);

          if (trips && bool(*predicate) != (i < *trips))
            return fail(op, "the predicate is " +
                                Twine(*predicate ? "true" : "false") +
                                " after " + Twine(i) +
                                " iterations, but trip_count is " +
                                Twine(*trips));
          if (!*predicate)
            return success();
          ++stats.iterations;
          iterations[w] = i;
          if (failed(runBlock(w.getBody().front())))
            return failure();
        }
      })
      .Case([&](ConditionalOp c) {
        ++stats.branches;
        uint8_t *p = address(c.getSelector());
        int64_t n = c.getBranches().size();
        int64_t index;
        if (c.getSelector().getType().getElementType().isInteger(8)) {
          index = *p ? 0 : 1;
        } else {
          int32_t i;
          std::memcpy(&i, p, 4);
          index = i < 0 || i >= n ? n - 1 : i;
        }
        return runBlock(c.getBranches()[index].front());
      })
      .Case([&](CommandBufferOp c) { return runBlock(c.getBody().front()); })
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
      .Case([&](ReturnOp) { return success(); })
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
  auto runDevice = [&](int64_t d) {
    Runner &runner = *runners[d];
    bool ok = succeeded(runner.layOut(parameters)) &&
              succeeded(runner.runBlock(body));
    if (several) {
      if (ok)
        several->rendezvous.finish();
      else
        several->rendezvous.stop();
    }
    return ok;
  };
  Clock::time_point start = Clock::now();
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
  results.clear();
  auto ret = cast<ReturnOp>(body.getTerminator());
  for (Value v : ret.getResults()) {
    uint8_t *p = runners[0]->address(v);
    results.emplace_back(p, p + getStorageBytes(cast<MemRefType>(v.getType())));
  }
  return success();
}
