//===- RunOnDevice.cpp - compile a module and run it on a device ----------===//

#include "Hlo/Pipelines/RunOnDevice.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"

#include "Hlo/Conversion/Passes.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Runtime/Host/HostRuntime.h"
#include "Hlo/Runtime/PartitionedRun.h"
#ifdef HLO_HAVE_CUDA_RUNTIME
#include "Hlo/Runtime/Cuda/CudaRuntime.h"
#endif
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "Hlo/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseSet.h"

#include <chrono>
#include <cstring>

using namespace mlir;
using namespace mlir::hlo;
using runtime::Literal;

/// Runs `pm` on `module`, collecting diagnostics into `error`.
static LogicalResult runPasses(PassManager &pm, ModuleOp module,
                               std::string &error) {
  std::string diagnostics;
  ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &d) {
    llvm::raw_string_ostream os(diagnostics);
    d.getLocation()->walk([&](Location l) {
      auto loc = dyn_cast<FileLineColLoc>(l);
      if (!loc)
        return WalkResult::advance();
      os << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
         << loc.getColumn() << ": ";
      return WalkResult::interrupt();
    });
    os << d.str() << "\n";
    return success();
  });
  if (succeeded(pm.run(module)))
    return success();
  error = "the GPU compiler failed: " + diagnostics;
  return failure();
}

/// `type` (a bounded dynamic array type) with the static shape `sizes` and
/// its layout's dimension order.
static RankedTensorType withSizes(RankedTensorType type,
                                  ArrayRef<int64_t> sizes) {
  auto layout =
      LayoutAttr::get(type.getContext(), /*hasMinorToMajor=*/true,
                      getMinorToMajor(type), {}, {}, 0, 0, {}, StringAttr());
  return RankedTensorType::get(sizes, type.getElementType(), layout);
}

/// The bytes of array `value` in a buffer of `type`; a bounded dynamic
/// array as XLA stores one: its elements dense over its runtime shape (the
/// literal's), up to the bounds' size, then one s32 size per dimension.
static std::vector<uint8_t> encodeArray(const Literal &value,
                                        RankedTensorType type) {
  if (type.hasStaticShape())
    return runtime::encodeArrayBytes(value, type);
  std::vector<uint8_t> bytes =
      runtime::encodeArrayBytes(value, withSizes(type, value.getShape()));
  int64_t rank = type.getRank();
  bytes.resize(getShapeByteSize(type).value_or(0) - 4 * rank);
  for (int64_t size : value.getShape()) {
    int32_t s = size;
    const uint8_t *p = reinterpret_cast<const uint8_t *>(&s);
    bytes.insert(bytes.end(), p, p + 4);
  }
  return bytes;
}

/// The inverse: a bounded dynamic array at the sizes its metadata holds.
static Literal decodeArray(ArrayRef<uint8_t> bytes, RankedTensorType type) {
  if (type.hasStaticShape())
    return runtime::decodeArrayBytes(bytes, type);
  int64_t rank = type.getRank();
  int64_t metadata = getShapeByteSize(type).value_or(0) - 4 * rank;
  SmallVector<int64_t> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    int32_t s = 0;
    if (metadata >= 0 && metadata + 4 * (d + 1) <= int64_t(bytes.size()))
      std::memcpy(&s, bytes.data() + metadata + 4 * d, 4);
    sizes.push_back(s);
  }
  return runtime::decodeArrayBytes(bytes, withSizes(type, sizes));
}

/// Appends the bytes of every array of `value` (of type `type`) to `out`.
static void encodeLeaves(const Literal &value, Type type, int64_t parameter,
                         SmallVector<int64_t> &index,
                         std::vector<thunk::ParameterBytes> &out,
                         std::vector<std::vector<uint8_t>> &storage) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    for (auto [i, t] : llvm::enumerate(tuple.getTypes())) {
      index.push_back(i);
      encodeLeaves(value.getElements()[i], t, parameter, index, out, storage);
      index.pop_back();
    }
    return;
  }
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return;
  storage.push_back(encodeArray(value, tensor));
  out.push_back({parameter, index, {}});
}

void hlo::encodeParameters(ArrayRef<Literal> arguments, ArrayRef<Type> types,
                           std::vector<thunk::ParameterBytes> &parameters,
                           std::vector<std::vector<uint8_t>> &storage) {
  for (auto [i, type] : llvm::enumerate(types)) {
    SmallVector<int64_t> index;
    encodeLeaves(arguments[i], type, i, index, parameters, storage);
  }
  for (auto [p, bytes] : llvm::zip(parameters, storage))
    p.bytes = bytes;
}

/// The bytes of every array of `value` (of type `type`), in pre-order.
static void encodeValue(const Literal &value, Type type,
                        std::vector<std::vector<uint8_t>> &out) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    for (auto [i, t] : llvm::enumerate(tuple.getTypes()))
      encodeValue(value.getElements()[i], t, out);
    return;
  }
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    out.push_back(encodeArray(value, tensor));
}

/// The one type the `OpTy` instructions of `module` transfer (`typeOf`
/// of each), or null (with `error`) when they differ; null without an
/// error when there are none.
template <typename OpTy>
static Type transferType(ModuleOp module, function_ref<Type(OpTy)> typeOf,
                         StringRef what, std::string &error) {
  Type type;
  module.walk([&](OpTy op) {
    Type t = typeOf(op);
    if (type && t != type && error.empty())
      error = "the module's " + what.str() +
              "s transfer different types: the device runtimes take one";
    type = t;
  });
  return error.empty() ? type : Type();
}

/// The literal of type `type` from the next result buffers.
static Literal decodeLeaves(Type type,
                            ArrayRef<std::vector<uint8_t>> &buffers) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    std::vector<Literal> elements;
    for (Type t : tuple.getTypes())
      elements.push_back(decodeLeaves(t, buffers));
    return Literal::tuple(std::move(elements));
  }
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return isa<TokenType>(type) ? Literal::token() : Literal::tuple({});
  Literal value = decodeArray(buffers.front(), tensor);
  buffers = buffers.drop_front();
  return value;
}

StringRef mlir::hlo::deviceName(DeviceKind kind) {
  return kind == DeviceKind::Cuda ? "cuda" : "host";
}

#ifdef HLO_HAVE_CUDA_RUNTIME
/// Writes what the CUDA runtime's autotuning chose to `path`: each tuned
/// thunk.gemm or thunk.convolution keyed by the text of the cuBLAS or
/// cuDNN custom call of `optimized` it was compiled from (the op's
/// location; a location two calls of different text share is left out).
static LogicalResult
writeTunings(ModuleOp optimized,
             ArrayRef<thunk::CudaExecutable::Tuning> tunings, StringRef path,
             std::string &error) {
  DenseMap<Location, std::string> keys;
  DenseSet<Location> ambiguous;
  optimized.walk([&](CustomCallOp call) {
    StringRef target = call.getCustomCallTarget();
    std::string text;
    if (target.starts_with("__cublas$"))
      text = getGemmAutotuneKey(call);
    else if (target.starts_with("__cudnn$conv"))
      text = getConvAutotuneKey(call);
    else
      return;
    auto [it, added] = keys.try_emplace(call.getLoc(), text);
    if (!added && it->second != text)
      ambiguous.insert(call.getLoc());
  });
  std::vector<AutotuneResult> results;
  for (const thunk::CudaExecutable::Tuning &t : tunings) {
    Location loc = t.op->getLoc();
    auto it = keys.find(loc);
    if (it == keys.end() || ambiguous.contains(loc))
      continue;
    results.push_back(
        {isa<thunk::GemmOp>(t.op) ? AutotuneResult::Kind::Gemm
                                  : AutotuneResult::Kind::Convolution,
         it->second, t.algorithm, t.seconds, t.scratchBytes, t.tensorOps});
  }
  std::string device;
  if (failed(thunk::openCudaDevice(device, error)))
    return failure();
  return writeAutotuneResults(path, device, results, error);
}
#endif

static constexpr const char *kNoCudaRuntime =
    "this build has no CUDA runtime (CUDA's headers were not found when it "
    "was configured)";

LogicalResult mlir::hlo::probeDevice(DeviceKind kind, std::string &description,
                                     std::string &error) {
  if (kind == DeviceKind::Host) {
    description = "the host CPU";
    return success();
  }
#ifdef HLO_HAVE_CUDA_RUNTIME
  return thunk::openCudaDevice(description, error);
#else
  error = kNoCudaRuntime;
  return failure();
#endif
}

FailureOr<int> mlir::hlo::countCudaDevices(std::string &error) {
#ifdef HLO_HAVE_CUDA_RUNTIME
  return thunk::countCudaDevices(error);
#else
  error = kNoCudaRuntime;
  return failure();
#endif
}

LogicalResult mlir::hlo::checkNcclCollectives(ModuleOp program,
                                              std::string &error) {
#ifdef HLO_HAVE_CUDA_RUNTIME
  return thunk::checkNcclCollectives(program, error);
#else
  error = kNoCudaRuntime;
  return failure();
#endif
}

/// hlo-run's context has no threads: one kernel module, assembled once.
static HloEmbedPtxOptions oneKernelModule() {
  HloEmbedPtxOptions options;
  options.kernelModules = 1;
  return options;
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::hlo::compileToThunks(ModuleOp module, DeviceKind kind, std::string &error,
                           uint64_t rngSeed,
                           const GpuOptimizeOptions &options) {
  MLIRContext *ctx = module.getContext();
  OwningOpRef<ModuleOp> compiled = module.clone();
  PassManager pm(ctx);
  if (!compiled.get()->hasAttr("hlo.buffer_allocations"))
    buildHloGpuOptimizePipeline(pm, options);
  pm.addPass(createHloToGpu());
  HloToThunkOptions thunkOptions;
  thunkOptions.rngSeed = rngSeed;
  thunkOptions.deterministic = options.deterministic;
  pm.addPass(createHloToThunk(thunkOptions));
  pm.addPass(createHloCommandBufferScheduling());
  if (kind == DeviceKind::Cuda)
    pm.addPass(createHloEmbedPtx(oneKernelModule()));
  if (failed(runPasses(pm, *compiled, error)))
    return failure();
  return compiled;
}

std::unique_ptr<thunk::Executable>
mlir::hlo::loadExecutable(ModuleOp program, DeviceKind kind,
                          std::string &error) {
  if (kind == DeviceKind::Host)
    return thunk::HostExecutable::compile(program, error);
#ifdef HLO_HAVE_CUDA_RUNTIME
  // A program written without its kernels' PTX gets it here.
  bool missingPtx =
      llvm::any_of(program.getOps<gpu::GPUModuleOp>(),
                   [](gpu::GPUModuleOp m) { return !m->hasAttr("thunk.ptx"); });
  if (!missingPtx)
    return thunk::CudaExecutable::compile(program, error);
  OwningOpRef<ModuleOp> withPtx = program.clone();
  PassManager pm(program.getContext());
  pm.addPass(createHloEmbedPtx(oneKernelModule()));
  if (failed(runPasses(pm, *withPtx, error)))
    return nullptr;
  return thunk::CudaExecutable::compile(*withPtx, error);
#else
  error = kNoCudaRuntime;
  return nullptr;
#endif
}

LogicalResult
mlir::hlo::runRepeatedly(thunk::Executable &exe,
                         ArrayRef<thunk::ParameterBytes> parameters,
                         std::vector<std::vector<uint8_t>> &results,
                         DeviceTiming &timing, std::string &error) {
  using Clock = std::chrono::steady_clock;
  for (unsigned i = 0; i < std::max(1u, timing.repeat); ++i) {
    thunk::RunStats run;
    run.profile = timing.profile;
    Clock::time_point start = Clock::now();
    if (failed(exe.run(parameters, results, error, &run)))
      return failure();
    double seconds =
        std::chrono::duration<double>(Clock::now() - start).count();
    if (i == 0 || seconds < timing.runSeconds) {
      timing.runSeconds = seconds;
      timing.stats = std::move(run);
    }
  }
  return success();
}

FailureOr<Literal> mlir::hlo::runOnDevice(
    ModuleOp module, ArrayRef<Literal> arguments, DeviceKind kind,
    std::string &error, std::string &note, DeviceTiming *timing,
    const runtime::InterpreterOptions &host, runtime::RunOutputs *outputs,
    const GpuOptimizeOptions &options, StringRef autotuneTo) {
  using Clock = std::chrono::steady_clock;
  auto secondsSince = [](Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  Clock::time_point compileStart = Clock::now();
  // The entry signature with the layouts the compiler chose: arguments are
  // encoded and results decoded in them.
  MLIRContext *ctx = module.getContext();
  OwningOpRef<ModuleOp> optimized = module.clone();
  // XLA's use_spmd_partitioning: the program partitioned first (a copy
  // kept for the result's layout), each device its tiles of the
  // arguments, the result put together from the devices' tiles.
  OwningOpRef<ModuleOp> partitioned;
  std::optional<std::vector<std::vector<Literal>>> perDevice;
  GpuOptimizeOptions rest = options;
  if (options.spmd && !optimized.get()->hasAttr("hlo.buffer_allocations") &&
      getDeviceCounts(*optimized).second > 1) {
    PassManager partition(ctx);
    buildHloSpmdPartitioningPipeline(partition);
    if (failed(runPasses(partition, *optimized, error)))
      return failure();
    perDevice = runtime::partitionArguments(*optimized, arguments);
    if (!perDevice) {
      error = "the partitioned program's parameters are not tiles of the "
              "arguments";
      return failure();
    }
    partitioned = optimized->clone();
    rest.spmd = false;
  }
  if (!optimized.get()->hasAttr("hlo.buffer_allocations")) {
    PassManager optimize(ctx);
    buildHloGpuOptimizePipeline(optimize, rest);
    if (failed(runPasses(optimize, *optimized, error)))
      return failure();
  }
  ComputationOp entry;
  for (auto comp : optimized->getOps<ComputationOp>())
    if (comp.getEntry())
      entry = comp;
  if (!entry) {
    error = "no ENTRY computation";
    return failure();
  }
  SmallVector<Type> params(entry.getArgumentTypes());
  Type resultType = entry.getResultTypes().front();
  if (params.size() != arguments.size()) {
    error = "expected " + std::to_string(params.size()) + " arguments";
    return failure();
  }
  FailureOr<OwningOpRef<ModuleOp>> compiled =
      compileToThunks(*optimized, kind, error, host.seed, rest);
  if (failed(compiled))
    return failure();
  std::unique_ptr<thunk::Executable> exe =
      loadExecutable(**compiled, kind, error);
  if (!exe)
    return failure();
  if (timing)
    timing->compileSeconds = secondsSince(compileStart);
  if (!autotuneTo.empty()) {
    if (kind != DeviceKind::Cuda) {
      error = "autotuning runs on a GPU (--device=cuda)";
      return failure();
    }
#ifdef HLO_HAVE_CUDA_RUNTIME
    static_cast<thunk::CudaExecutable *>(exe.get())->setAutotune(true);
#endif
  }

  // Infeed values in the layouts the compiler gave the infeeds' data; the
  // outfeed values decoded from those of the outfeeds' operands.
  thunk::HostTransfers transfers;
  Type infeedType = transferType<InfeedOp>(
      *optimized,
      [](InfeedOp op) { return cast<TupleType>(op.getType()).getType(0); },
      "infeed", error);
  Type outfeedType = transferType<OutfeedOp>(
      *optimized, [](OutfeedOp op) { return getDataOperands(op)[0].getType(); },
      "outfeed", error);
  if (!error.empty())
    return failure();
  for (const Literal &value : host.infeed) {
    if (!infeedType) {
      error = "infeed values given, but the module has no infeed";
      return failure();
    }
    encodeValue(value, infeedType, transfers.infeed.emplace_back());
  }
  // Host transfers: the host's values in the layouts the compiler gave
  // each channel's recv, what the devices sent decoded from those of each
  // channel's send.
  DenseMap<int64_t, Type> recvTypes, sendTypes;
  optimized->walk([&](Operation *op) {
    TransferChannel channel = getTransferChannel(op);
    if (!channel.host)
      return;
    int64_t id = channel.id.value_or(0);
    if (auto recv = dyn_cast<RecvOp>(op))
      recvTypes[id] = cast<TupleType>(recv.getType()).getType(0);
    if (isa<SendOp>(op))
      sendTypes[id] = getDataOperands(op)[0].getType();
  });
  for (const auto &[channel, values] : host.fromHost) {
    Type type = recvTypes.lookup(channel);
    if (!type) {
      error = "values given for channel " + std::to_string(channel) +
              ", but the module has no host-transfer recv on it";
      return failure();
    }
    for (const Literal &value : values)
      encodeValue(value, type, transfers.fromHost[channel].emplace_back());
  }
  exe->setHostTransfers(&transfers);

  std::vector<thunk::ParameterBytes> parameters;
  std::vector<std::vector<uint8_t>> storage;
  thunk::DeviceIO io;
  std::vector<std::vector<std::vector<uint8_t>>> deviceStorage;
  if (perDevice) {
    for (const std::vector<Literal> &args : *perDevice)
      encodeParameters(args, params, io.parameters.emplace_back(),
                       deviceStorage.emplace_back());
    exe->setDeviceIO(&io);
  } else {
    encodeParameters(arguments, params, parameters, storage);
  }
  std::vector<std::vector<uint8_t>> results;
  DeviceTiming once;
  DeviceTiming &runs = timing ? *timing : once;
  if (failed(runRepeatedly(*exe, parameters, results, runs, error)))
    return failure();
  if (outputs) {
    outputs->outfeed.clear();
    for (auto &device : transfers.outfeed) {
      std::vector<Literal> &values = outputs->outfeed.emplace_back();
      for (auto &value : device) {
        ArrayRef<std::vector<uint8_t>> arrays = value;
        values.push_back(decodeLeaves(outfeedType, arrays));
      }
    }
    outputs->toHost.clear();
    for (auto &device : transfers.toHost) {
      auto &values = outputs->toHost.emplace_back();
      for (auto &[channel, value] : device) {
        ArrayRef<std::vector<uint8_t>> arrays = value;
        values.push_back(
            {channel, decodeLeaves(sendTypes.lookup(channel), arrays)});
      }
    }
  }
#ifdef HLO_HAVE_CUDA_RUNTIME
  if (!autotuneTo.empty() &&
      failed(writeTunings(
          *optimized, static_cast<thunk::CudaExecutable &>(*exe).getTunings(),
          autotuneTo, error)))
    return failure();
#endif
  note = runs.stats.summary();
  if (perDevice) {
    // Each replica's result from its partitions' tiles.
    std::vector<Literal> local, like;
    Type wholeType;
    for (auto comp : module.getOps<ComputationOp>())
      if (comp.getEntry())
        wholeType = comp.getResultTypes().front();
    for (const auto &device : io.results) {
      ArrayRef<std::vector<uint8_t>> buffers = device;
      local.push_back(decodeLeaves(resultType, buffers));
      like.push_back(Literal::zeros(wholeType));
    }
    FailureOr<std::vector<Literal>> whole =
        runtime::assembleResults(*partitioned, local, like);
    if (failed(whole)) {
      error = "the devices' results are not the tiles of the result's "
              "sharding";
      return failure();
    }
    if (outputs)
      outputs->results = *whole;
    return std::move((*whole)[0]);
  }
  ArrayRef<std::vector<uint8_t>> buffers = results;
  return decodeLeaves(resultType, buffers);
}
