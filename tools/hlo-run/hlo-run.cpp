//===- hlo-run.cpp - run an HLO module on the reference interpreter -------===//
//
//   hlo-run MODULE(.hlo|.mlir) [--input a.npy ...] [--random-inputs --seed N]
//           [--output-dir D] [--compare OTHER --atol A --rtol R]
//           [--replicas N] [--partitions N] [--arena]
//           [--device=interpreter|host-kernels|host|cuda] [--profile]
//           [--check] [--bench N] [--deterministic]
//           [--allow-excess-precision=false] [--autotune-cache=FILE]
//
// Runs the entry computation of MODULE on the reference interpreter
// (lib/Runtime) and prints each result as an HLO literal, or writes
// result_0.npy, result_1.npy, ... (tuple results flattened depth first) to
// the output directory. `--compare OTHER` runs OTHER on the same inputs and
// reports the largest absolute and relative difference; it fails beyond the
// tolerance; `--check` compares a device's (or --arena's) run with the
// interpreter's so. `--bench N` times N runs (--repeat N --time, and on a
// device --profile). `--arena` runs MODULE over its buffer assignment, every
// value in its slices of one flat byte buffer
// (lib/Runtime/Interpreter/Arena.cpp); OTHER still runs on the
// interpreter. `--device=host-kernels` runs every fusion an emitter takes
// by its kernel compiled for the host (HostKernels.h), the rest on the
// interpreter. `--device=host` compiles
// MODULE with the GPU compiler into a thunk program and runs that on the
// host runtime, `--device=cuda` on the CUDA runtime of the first GPU
// (Hlo/Pipelines/RunOnDevice.h); a thunk program (hlo-opt
// --hlo-gpu-pipeline's output, text or bytecode) runs on either as it is.
// Every error is `hlo-run: error: ...` with exit status 1. Details:
// docs/runtime.md.
//
//===----------------------------------------------------------------------===//

#include "HostKernels.h"
#include "Npy.h"

#include "Hlo/Conversion/HostJit.h"
#include "Hlo/Conversion/Passes.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Thunk/ThunkDialect.h"
#include "Hlo/Pipelines/RunOnDevice.h"
#include "Hlo/Runtime/Arena.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Runtime/Literal.h"
#include "Hlo/Runtime/PartitionedRun.h"
#include "Hlo/Runtime/SemanticsCheck.h"
#include "Hlo/Transforms/Passes.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace mlir;
using namespace mlir::hlo::runtime;
using llvm::StringRef;
namespace cl = llvm::cl;

static cl::OptionCategory hloRunCategory("hlo-run options");

static cl::opt<std::string> modulePath(cl::Positional, cl::Optional,
                                       cl::cat(hloRunCategory),
                                       cl::desc("<module .hlo|.mlir>"));
static cl::list<std::string>
    inputPaths("input", cl::cat(hloRunCategory),
               cl::desc("A .npy file per entry parameter, in parameter order "
                        "(--input a.npy --input b.npy, --input a.npy,b.npy or "
                        "--input a.npy b.npy)"),
               cl::value_desc("file.npy"), cl::CommaSeparated);
static cl::list<std::string>
    infeedPaths("infeed", cl::cat(hloRunCategory),
                cl::desc("A .npy value for the infeed queue (repeatable, "
                         "read in order by the module's infeeds, which must "
                         "all read the same array type)"),
                cl::value_desc("file.npy"));
static cl::opt<bool>
    printOutfeed("print-outfeed", cl::cat(hloRunCategory),
                 cl::desc("Print the values device 0 wrote with outfeed, "
                          "after the results (`outfeed: LITERAL`)"));
static cl::list<std::string> hostRecvPaths(
    "host-recv", cl::cat(hloRunCategory),
    cl::desc("CHANNEL:FILE.npy: a value the host gives the module's "
             "host-transfer recvs (is_host_transfer) on that channel "
             "(repeatable, read in order)"),
    cl::value_desc("channel:file.npy"));
static cl::opt<bool> printHostSends(
    "print-host-sends", cl::cat(hloRunCategory),
    cl::desc("Print what device 0 sent to the host with host-transfer "
             "sends, after the results (`send channel N: LITERAL`)"));
static cl::opt<bool>
    randomInputs("random-inputs", cl::cat(hloRunCategory),
                 cl::desc("Random inputs (floats in [-1,1), f8e8m0fnu "
                          "powers of two in [1/16,16], signed ints in "
                          "[-8,8], unsigned in [0,16], pred 0/1): the entry's "
                          "parameters and, unless --infeed / --host-recv give "
                          "them, one value per infeed and per host-transfer "
                          "recv"));
static cl::opt<uint64_t>
    seed("seed", cl::cat(hloRunCategory),
         cl::desc("Seed of --random-inputs and of rng ops"), cl::init(0));
static cl::opt<std::string>
    outputDir("output-dir", cl::cat(hloRunCategory),
              cl::desc("Write result_0.npy, result_1.npy, ... here instead of "
                       "printing the results"),
              cl::value_desc("dir"));
static cl::opt<std::string>
    compareWith("compare", cl::cat(hloRunCategory),
                cl::desc("Run this module too, on the same inputs, and "
                         "compare the results"),
                cl::value_desc("module"));
namespace {
enum class Device { Interpreter, HostKernels, Host, Cuda };
} // namespace

static cl::opt<Device> device(
    "device", cl::cat(hloRunCategory),
    cl::desc("Where MODULE runs (OTHER of --compare always runs on the "
             "interpreter)"),
    cl::init(Device::Interpreter),
    cl::values(clEnumValN(Device::Interpreter, "interpreter",
                          "The reference interpreter (default)"),
               clEnumValN(Device::HostKernels, "host-kernels",
                          "The interpreter, with every fusion an emitter "
                          "takes run by its kernel compiled for the host "
                          "(hlo-to-gpu, hlo-gpu-kernels-to-host, LLVM's "
                          "JIT)"),
               clEnumValN(Device::Host, "host",
                          "Compiled by the GPU compiler into a thunk "
                          "program (hlo-gpu-optimize unless already "
                          "buffer-assigned, hlo-to-gpu, hlo-to-thunk) run "
                          "by the host runtime: kernels on the host JIT, "
                          "GEMMs by OpenBLAS"),
               clEnumValN(Device::Cuda, "cuda",
                          "Compiled as for host, with the kernels' PTX, "
                          "and run by the CUDA runtime on GPU 0: the "
                          "driver API, cuBLASLt, cuDNN, CUDA graphs")));

/// The runtime a thunk program runs on for --device, if any.
static std::optional<hlo::DeviceKind> runtimeKind() {
  if (device == Device::Host)
    return hlo::DeviceKind::Host;
  if (device == Device::Cuda)
    return hlo::DeviceKind::Cuda;
  return std::nullopt;
}

static cl::opt<bool> arenaMode(
    "arena", cl::cat(hloRunCategory),
    cl::desc("Run MODULE over its buffer assignment (hlo-opt "
             "--hlo-buffer-assignment): every value in its slices of one flat "
             "byte buffer, instructions in schedule order; --compare OTHER "
             "still runs on the interpreter"));
static cl::opt<bool> arenaCheck(
    "arena-check", cl::cat(hloRunCategory),
    cl::desc("With --arena: keep each value also aside and fail at the "
             "first read of bytes another value has overwritten, naming "
             "the reader and the value"));
static cl::opt<double> absTolerance("atol", cl::cat(hloRunCategory),
                                    cl::desc("Absolute tolerance of --compare"),
                                    cl::init(1e-5));
static cl::opt<double> relTolerance("rtol", cl::cat(hloRunCategory),
                                    cl::desc("Relative tolerance of --compare"),
                                    cl::init(1e-5));
static cl::opt<int64_t>
    replicas("replicas", cl::cat(hloRunCategory),
             cl::desc("Simulated replicas (default: the module's "
                      "replica_count, else 1)"),
             cl::init(1));
static cl::opt<int64_t>
    partitions("partitions", cl::cat(hloRunCategory),
               cl::desc("Simulated partitions (default: the module's "
                        "num_partitions, else 1)"),
               cl::init(1));
static cl::opt<int64_t> maxLiveBytes(
    "max-live-bytes", cl::cat(hloRunCategory),
    cl::desc("Fail when the values alive on one simulated device take more "
             "than this many bytes (0: no limit; default: three quarters of "
             "the physical memory, shared by the devices)"),
    cl::init(-1));
static cl::opt<bool> printTime("time", cl::cat(hloRunCategory),
                               cl::desc("Print the run time (the fastest "
                                        "of --repeat runs; parsing "
                                        "excluded; --device=host|cuda: "
                                        "the compile time and the device "
                                        "time apart, compiled once) to "
                                        "stderr"));
static cl::opt<bool>
    listDevices("list-devices", cl::cat(hloRunCategory),
                cl::desc("Print the devices --device=host|cuda would run on "
                         "(or why one is missing) and exit"));
static cl::opt<bool>
    profile("profile", cl::cat(hloRunCategory),
            cl::desc("--device=host|cuda: time every kernel and library "
                     "call (CUDA events on the GPU) and print the table, "
                     "slowest first, to stderr"));
static cl::opt<bool> deterministic(
    "deterministic", cl::cat(hloRunCategory),
    cl::desc("--device=host|cuda: compile and run as XLA's "
             "--xla_gpu_deterministic_ops (scatters that may depend on the "
             "order of their updates as loops; deterministic cuDNN "
             "algorithms)"));
static cl::opt<bool> cubSort(
    "cub-sort", cl::cat(hloRunCategory), cl::init(true),
    cl::desc("--device=host|cuda: compile as XLA's "
             "--xla_gpu_enable_cub_radix_sort (on by default, as XLA's): "
             "large sorts as CUB radix sorts (thunk.radix_sort)"));
static cl::opt<bool> expandCholesky(
    "expand-cholesky", cl::cat(hloRunCategory),
    cl::desc("--device=host|cuda: compile as XLA 0.10.2 does, every "
             "cholesky expanded into blocked HLO loops "
             "(hlo-cholesky-expander), not a cuSOLVER potrf"));
static cl::opt<bool> expandEigh(
    "expand-eigh", cl::cat(hloRunCategory),
    cl::desc("--device=host|cuda: compile as XLA 0.10.2 does, XLA's "
             "Eigh calls expanded into Jacobi sweeps (hlo-eigh-expander), "
             "not a cuSOLVER syevd"));
static cl::opt<bool> spmd(
    "spmd", cl::cat(hloRunCategory),
    cl::desc("Partition a module of several partitions by its shardings "
             "before it runs, as XLA's use_spmd_partitioning (JAX's "
             "default for sharded programs): hlo-spmd-partitioning, then "
             "each partition runs on its tiles of the whole arguments and "
             "the result is put together from the partitions' tiles (on "
             "the interpreter or --device=host|cuda; the module of "
             "--compare and --check's interpreter run are not partitioned)"));
static cl::opt<bool> topkKernel(
    "topk-kernel", cl::cat(hloRunCategory),
    cl::desc("--device=host|cuda: compile XLA-GPU's top-k kernel calls "
             "into kernels of the program (hlo-to-gpu's top-k emitter), "
             "not thunk.top_k (the runtimes' prebuilt kernel)"));
static cl::opt<bool> allowExcessPrecision(
    "allow-excess-precision", cl::cat(hloRunCategory), cl::init(true),
    cl::desc("--device=host|cuda: compile as XLA's "
             "--xla_allow_excess_precision (on by default, as XLA's): "
             "chains of float converts such as f32 -> bf16 -> f32 become "
             "one convert or none (hlo-simplify-fp-conversions); =false "
             "keeps every rounding the module asks for"));
static cl::opt<std::string> autotuneCache(
    "autotune-cache", cl::cat(hloRunCategory),
    cl::desc("--device=cuda: XLA's autotune results. Where the file "
             "exists, the GEMM and convolution algorithm pickers take "
             "their choices from it (as hlo-gpu-optimize{autotune-cache="
             "FILE}); where it does not, the first run times every "
             "candidate algorithm of each GEMM (cuBLASLt) and convolution "
             "(cuDNN), keeps the fastest and writes the choices there"),
    cl::value_desc("file"));
static cl::opt<unsigned>
    repeat("repeat", cl::cat(hloRunCategory),
           cl::desc("Run the module this many times (benchmarks)"),
           cl::init(1));
static cl::opt<unsigned>
    bench("bench", cl::cat(hloRunCategory),
          cl::desc("Time N runs: --repeat N --time, and with "
                   "--device=host|cuda --profile (every kernel and library "
                   "call, and the total)"),
          cl::value_desc("N"), cl::init(0));
static cl::opt<bool>
    check("check", cl::cat(hloRunCategory),
          cl::desc("Run the module on the interpreter too, on the same "
                   "inputs, and compare (--device=host-kernels|host|cuda or "
                   "--arena; --atol, --rtol)"));

static int reportError(const std::string &message) {
  // What was printed to stdout comes first.
  llvm::outs().flush();
  llvm::errs() << "hlo-run: error: " << message << "\n";
  return 1;
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

static OwningOpRef<ModuleOp> loadModule(StringRef path, MLIRContext *context,
                                        std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (!buffer) {
    error = path.str() + ": cannot read: " + buffer.getError().message();
    return nullptr;
  }
  bool isHlo =
      path.ends_with(".hlo") || (!path.ends_with(".mlir") &&
                                 hlo::looksLikeHloText((*buffer)->getBuffer()));
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  // Parser and verifier diagnostics print as file:line:col: error: ...
  SourceMgrDiagnosticHandler handler(sourceMgr, context);
  OwningOpRef<ModuleOp> module =
      isHlo ? hlo::importHloText(sourceMgr, context)
            : parseSourceFile<ModuleOp>(sourceMgr, context);
  if (!module)
    error = path.str() + ": cannot load the module";
  return module;
}

static hlo::ComputationOp findEntry(ModuleOp module, StringRef path,
                                    std::string &error) {
  hlo::ComputationOp entry;
  for (auto computation : module.getOps<hlo::ComputationOp>()) {
    if (!computation.getEntry())
      continue;
    if (entry) {
      error = path.str() + ": more than one entry computation";
      return nullptr;
    }
    entry = computation;
  }
  if (!entry)
    error = path.str() + ": no entry computation (hlo.computation with "
                         "'entry')";
  return entry;
}

static std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  hlo::printHloShape(os, type);
  return text;
}

/// Equal shapes and element types (layouts aside), tuples element-wise.
static bool sameValueType(Type a, Type b) {
  if (auto ta = dyn_cast<RankedTensorType>(a)) {
    auto tb = dyn_cast<RankedTensorType>(b);
    return tb && ta.getShape() == tb.getShape() &&
           ta.getElementType() == tb.getElementType();
  }
  if (auto ta = dyn_cast<TupleType>(a)) {
    auto tb = dyn_cast<TupleType>(b);
    if (!tb || ta.size() != tb.size())
      return false;
    for (auto [x, y] : llvm::zip(ta.getTypes(), tb.getTypes()))
      if (!sameValueType(x, y))
        return false;
    return true;
  }
  return a == b;
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

static FailureOr<std::vector<Literal>> readInputs(hlo::ComputationOp entry,
                                                  std::string &error) {
  ArrayRef<Type> parameters = entry.getArgumentTypes();
  if (inputPaths.size() != parameters.size()) {
    error = modulePath + ": the entry computation has " +
            std::to_string(parameters.size()) + " parameter" +
            (parameters.size() == 1 ? "" : "s") + ", got " +
            std::to_string(inputPaths.size()) + " input" +
            (inputPaths.size() == 1 ? "" : "s");
    return failure();
  }
  std::vector<Literal> arguments;
  for (auto [i, type] : llvm::enumerate(parameters)) {
    const std::string &path = inputPaths[i];
    std::string where = path + " (parameter " + std::to_string(i) + ")";
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor) {
      error = where + ": the parameter is " + typeString(type) +
              "; .npy inputs hold arrays only (use --random-inputs)";
      return failure();
    }
    // A bounded dynamic dimension takes its bound, as in the interpreter.
    std::optional<SmallVector<int64_t>> shape = getStaticShape(tensor);
    if (!shape) {
      error = where + ": the parameter has an unbounded dynamic shape " +
              typeString(type) + ", which hlo-run does not support";
      return failure();
    }
    std::string message;
    FailureOr<Literal> literal = hlo_run::readNpy(
        path, RankedTensorType::get(*shape, tensor.getElementType()), message);
    if (failed(literal)) {
      error = where + ": " + message;
      return failure();
    }
    arguments.push_back(std::move(*literal));
  }
  return arguments;
}

/// `--input a.npy b.npy`: the .npy files after --input are inputs too.
static SmallVector<char *> expandInputLists(int argc, char **argv,
                                            std::vector<std::string> &storage) {
  SmallVector<char *> args;
  storage.reserve(argc);
  bool afterInput = false;
  for (int i = 0; i < argc; ++i) {
    StringRef arg(argv[i]);
    if (afterInput && !arg.starts_with("-") && arg.ends_with(".npy")) {
      storage.push_back("--input=" + arg.str());
      args.push_back(storage.back().data());
      continue;
    }
    afterInput = arg == "--input" || arg == "-input" ||
                 arg.starts_with("--input=") || arg.starts_with("-input=");
    // The value of a separate `--input VALUE` follows as is.
    if ((arg == "--input" || arg == "-input") && i + 1 < argc) {
      args.push_back(argv[i]);
      args.push_back(argv[++i]);
      continue;
    }
    args.push_back(argv[i]);
  }
  return args;
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

/// The arrays of a result, depth first (tokens have no values).
static void flatten(const Literal &literal, std::vector<const Literal *> &out) {
  if (literal.isTuple()) {
    for (const Literal &element : literal.getElements())
      flatten(element, out);
    return;
  }
  if (literal.isArray())
    out.push_back(&literal);
}

static std::string number(double v) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%.9g", v);
  return text;
}

/// Compares the results of MODULE (`a`) and OTHER (`b`): a line per array,
/// then `match: ...`; false with `error` set beyond the tolerance.
static bool compareResults(const Literal &a, const Literal &b,
                           std::string &error) {
  LiteralComparison comparison =
      compareLiterals(a, b, absTolerance, relTolerance);
  if (!comparison.structureError.empty()) {
    error = "the results of " + modulePath + " and " +
            (check ? std::string("the interpreter") : compareWith) +
            " differ in type: " + comparison.structureError;
    return false;
  }
  for (auto [r, diff] : llvm::enumerate(comparison.arrays)) {
    llvm::outs() << "result " << r << ": " << diff.type << " max abs diff "
                 << number(diff.maxAbs) << ", max rel diff "
                 << number(diff.maxRel);
    if (diff.mismatches)
      llvm::outs() << ", " << diff.mismatches << " element"
                   << (diff.mismatches == 1 ? "" : "s") << " beyond tolerance";
    llvm::outs() << "\n";
  }
  std::string tolerance =
      " (atol " + number(absTolerance) + ", rtol " + number(relTolerance) + ")";
  if (!comparison.matches()) {
    error = "results differ: " + comparison.summary() + tolerance;
    return false;
  }
  llvm::outs() << "match: " << comparison.summary() << tolerance << "\n";
  return true;
}

static LogicalResult writeResults(const Literal &result, std::string &error) {
  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
    error = outputDir + ": cannot create the directory: " + ec.message();
    return failure();
  }
  std::vector<const Literal *> arrays;
  flatten(result, arrays);
  for (auto [i, array] : llvm::enumerate(arrays)) {
    SmallString<256> path(outputDir);
    llvm::sys::path::append(path, "result_" + std::to_string(i) + ".npy");
    std::string message;
    if (failed(hlo_run::writeNpy(path, *array, message))) {
      error = path.str().str() + ": " + message;
      return failure();
    }
  }
  return success();
}

static void printResult(const Literal &result) {
  if (result.isTuple()) {
    for (const Literal &element : result.getElements()) {
      element.print(llvm::outs());
      llvm::outs() << "\n";
    }
    return;
  }
  result.print(llvm::outs());
  llvm::outs() << "\n";
}

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

/// The --infeed values, read as the array type every infeed of `module`
/// reads.
static FailureOr<std::vector<Literal>> readInfeed(ModuleOp module,
                                                  std::string &error) {
  Type dataType;
  WalkResult walk = module.walk([&](hlo::InfeedOp op) {
    auto result = dyn_cast<TupleType>(op->getResult(0).getType());
    Type data = result && result.size() == 2 ? result.getType(0) : Type();
    if (!isa_and_nonnull<RankedTensorType>(data) ||
        (dataType && data != dataType)) {
      error = modulePath + ": --infeed needs every infeed to read the same "
                           "array type";
      return WalkResult::interrupt();
    }
    dataType = data;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (!dataType) {
    error = modulePath + ": --infeed given, but the module has no infeed";
    return failure();
  }
  auto tensor = cast<RankedTensorType>(dataType);
  std::optional<SmallVector<int64_t>> shape = getStaticShape(tensor);
  if (!shape) {
    error = modulePath + ": the infeed reads an unbounded dynamic shape";
    return failure();
  }
  std::vector<Literal> values;
  for (const std::string &path : infeedPaths) {
    std::string message;
    FailureOr<Literal> value = hlo_run::readNpy(
        path, RankedTensorType::get(*shape, tensor.getElementType()), message);
    if (failed(value)) {
      error = path + " (infeed): " + message;
      return failure();
    }
    values.push_back(std::move(*value));
  }
  return values;
}

/// The --host-recv values, each read as the array its channel's
/// host-transfer recv receives, over `values` (the random ones of
/// --random-inputs, or none).
static LogicalResult
readHostRecv(ModuleOp module, std::map<int64_t, std::vector<Literal>> &values,
             std::string &error) {
  std::map<int64_t, Type> types;
  module.walk([&](hlo::RecvOp recv) {
    hlo::TransferChannel channel = hlo::getTransferChannel(recv);
    if (channel.host)
      types[channel.id.value_or(0)] =
          cast<TupleType>(recv.getType()).getType(0);
  });
  std::set<int64_t> given;
  for (StringRef arg : hostRecvPaths) {
    auto [channelText, path] = arg.split(':');
    int64_t channel;
    if (channelText.getAsInteger(10, channel) || path.empty()) {
      error = "--host-recv " + arg.str() + ": expected CHANNEL:FILE.npy";
      return failure();
    }
    auto type = dyn_cast_or_null<RankedTensorType>(types[channel]);
    std::optional<SmallVector<int64_t>> shape =
        type ? getStaticShape(type) : std::nullopt;
    if (!shape) {
      error = modulePath + ": --host-recv " + arg.str() +
              ": the module has no host-transfer recv of an array on "
              "channel " +
              std::to_string(channel);
      return failure();
    }
    if (given.insert(channel).second)
      values[channel].clear();
    std::string message;
    FailureOr<Literal> value = hlo_run::readNpy(
        path, RankedTensorType::get(*shape, type.getElementType()), message);
    if (failed(value)) {
      error = path.str() + " (host recv): " + message;
      return failure();
    }
    values[channel].push_back(std::move(*value));
  }
  return success();
}

/// The interpreter's options for `module` from the command line.
static InterpreterOptions getOptions(ModuleOp module) {
  InterpreterOptions options = getModuleOptions(module);
  if (replicas.getNumOccurrences())
    options.numReplicas = replicas;
  if (partitions.getNumOccurrences())
    options.numPartitions = partitions;
  if (maxLiveBytes >= 0)
    options.maxLiveBytes = maxLiveBytes;
  options.seed = seed;
  return options;
}

/// The notes of a run on a device: what ran, --time, --profile.
static void reportDeviceRun(StringRef path, const hlo::DeviceTiming &timing) {
  const thunk::RunStats &stats = timing.stats;
  llvm::errs() << "hlo-run: note: " << path << ": " << stats.summary()
               << "\n";
  if (printTime)
    llvm::errs() << "hlo-run: " << path << ": compile time "
                 << number(timing.compileSeconds) << " s, run time "
                 << number(timing.runSeconds) << " s, device time "
                 << number(stats.deviceSeconds) << " s\n";
  if (!profile)
    return;
  llvm::errs() << "hlo-run: profile of " << path
               << " (seconds, calls, thunk):\n";
  for (const thunk::ThunkTime &t : stats.thunkTimes)
    llvm::errs() << "  " << llvm::format("%12.6f %6lld  ", t.seconds,
                                         (long long)t.count)
                 << t.name << "\n";
}

/// --spmd on the interpreter: `module` partitioned (a copy), each device
/// on its tiles of `arguments`, replica 0's result put together.
static FailureOr<Literal> runPartitioned(ModuleOp module, StringRef path,
                                         ArrayRef<Literal> arguments,
                                         InterpreterOptions options,
                                         std::string &error,
                                         RunOutputs *outputs) {
  OwningOpRef<ModuleOp> partitioned = module.clone();
  Builder b(module.getContext());
  partitioned.get()->setAttr("hlo.replica_count",
                             b.getI64IntegerAttr(options.numReplicas));
  partitioned.get()->setAttr("hlo.num_partitions",
                             b.getI64IntegerAttr(options.numPartitions));
  PassManager pm(module.getContext());
  hlo::buildHloSpmdPartitioningPipeline(pm);
  if (failed(pm.run(*partitioned))) {
    error = path.str() + ": the SPMD partitioner failed";
    return failure();
  }
  std::optional<std::vector<std::vector<Literal>>> perDevice =
      partitionArguments(*partitioned, arguments);
  if (!perDevice) {
    error = path.str() + ": the partitioned program's parameters are not "
                         "tiles of the arguments";
    return failure();
  }
  options.deviceArguments = std::move(*perDevice);
  RunOutputs local;
  std::string message;
  if (failed(run(*partitioned, {}, options, message, &local))) {
    error = path.str() + ": " + message;
    return failure();
  }
  Type wholeType;
  for (auto comp : module.getOps<hlo::ComputationOp>())
    if (comp.getEntry())
      wholeType = comp.getResultTypes().front();
  std::vector<Literal> like(local.results.size(), Literal::zeros(wholeType));
  FailureOr<std::vector<Literal>> whole =
      assembleResults(*partitioned, local.results, like);
  if (failed(whole)) {
    error = path.str() + ": the partitions' results are not the tiles of "
                         "the result's sharding";
    return failure();
  }
  if (outputs) {
    outputs->outfeed = std::move(local.outfeed);
    outputs->toHost = std::move(local.toHost);
    outputs->results = *whole;
  }
  return std::move((*whole)[0]);
}

static FailureOr<Literal>
runModule(ModuleOp module, StringRef path, ArrayRef<Literal> arguments,
          ArrayRef<Literal> infeed,
          const std::map<int64_t, std::vector<Literal>> &fromHost,
          std::string &error, RunOutputs *outputs = nullptr,
          bool onArena = false, bool onHostKernels = false,
          std::optional<hlo::DeviceKind> onDevice = std::nullopt,
          bool partition = false) {
  InterpreterOptions options = getOptions(module);
  options.infeed.assign(infeed.begin(), infeed.end());
  options.fromHost = fromHost;
  if (partition && (onArena || onHostKernels)) {
    error = "--spmd runs on the interpreter or --device=host|cuda";
    return failure();
  }
  if (partition && !onDevice && options.numPartitions > 1)
    return runPartitioned(module, path, arguments, options, error, outputs);
  std::unique_ptr<hlo::HostKernels> kernels;
  if (onHostKernels) {
    kernels = hlo::HostKernels::compile(module, error);
    if (!kernels) {
      error = path.str() + ": " + error;
      return failure();
    }
    unsigned fusions = 0;
    module.walk([&](hlo::FusionOp) { ++fusions; });
    llvm::errs() << "hlo-run: note: " << path << ": "
                 << kernels->getNumKernels() << " of " << fusions
                 << " fusions run by their kernels on the host\n";
    options.fusionExecutor = [&](Operation *fusion,
                                 ArrayRef<const Literal *> operands,
                                 std::string &message) {
      return kernels->run(fusion, operands, message);
    };
  }
  FailureOr<Literal> result = failure();
  if (onDevice) {
    // Compiled once, run --repeat times: --time reports both.
    std::string message, note;
    hlo::DeviceTiming timing;
    timing.repeat = repeat;
    timing.profile = profile;
    // The compiled program runs on the devices the module names, or
    // --replicas x --partitions.
    Builder builder(module.getContext());
    module->setAttr("hlo.replica_count",
                    builder.getI64IntegerAttr(options.numReplicas));
    module->setAttr("hlo.num_partitions",
                    builder.getI64IntegerAttr(options.numPartitions));
    // --autotune-cache: read where it exists, else tuned and written.
    hlo::GpuOptimizeOptions compile;
    compile.deterministic = deterministic;
    compile.allowExcessPrecision = allowExcessPrecision;
    compile.cubSort = cubSort;
    compile.expandCholesky = expandCholesky;
    compile.expandEigh = expandEigh;
    compile.topkKernel = topkKernel;
    compile.spmd = partition;
    std::string tuneTo;
    if (!autotuneCache.empty()) {
      if (llvm::sys::fs::exists(autotuneCache))
        compile.autotuneCache = autotuneCache;
      else
        tuneTo = autotuneCache;
    }
    result = hlo::runOnDevice(module, arguments, *onDevice, message, note,
                              &timing, options, outputs, compile, tuneTo);
    if (failed(result)) {
      error = path.str() + ": " + message;
      return failure();
    }
    reportDeviceRun(path, timing);
    return result;
  }
  double best = INFINITY;
  for (unsigned i = 0; i < std::max(1u, unsigned(repeat)); ++i) {
    std::string message;
    auto start = std::chrono::steady_clock::now();
    ArenaStats stats;
    ArenaOptions arenaOptions;
    arenaOptions.checkReads = arenaCheck;
    result = onArena ? runOnArena(module, arguments, options, message, &stats,
                                  arenaOptions)
                     : run(module, arguments, options, message, outputs);
    if (onArena && succeeded(result) && stats.boundaryCopies && i == 0)
      llvm::errs() << "hlo-run: note: " << path << ": the arena moved "
                   << stats.boundaryCopies
                   << " values between slices at while/conditional/call "
                      "boundaries the assignment did not colocate\n";
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    best = std::min(best, seconds);
    if (failed(result)) {
      error = path.str() + ": " + message;
      return failure();
    }
  }
  if (printTime)
    llvm::errs() << "hlo-run: " << path << ": run time " << number(best)
                 << " s\n";
  return result;
}

//===----------------------------------------------------------------------===//
// Thunk programs (hlo-opt --hlo-gpu-pipeline output)
//===----------------------------------------------------------------------===//

/// The HLO shape of a thunk program's memref: its layout from the strides;
/// the extents `whole` where given (the whole array a tile of it is part
/// of).
static std::string hloShapeOf(MemRefType type, ArrayRef<int64_t> whole = {}) {
  std::string text = typeString(RankedTensorType::get(
      whole.empty() ? type.getShape() : whole, type.getElementType()));
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return text;
  SmallVector<int64_t> minorToMajor(type.getRank());
  std::iota(minorToMajor.begin(), minorToMajor.end(), 0);
  // Minor first: smaller strides, and among equal ones the later dimension.
  llvm::stable_sort(minorToMajor, [&](int64_t a, int64_t b) {
    return strides[a] != strides[b] ? strides[a] < strides[b] : a > b;
  });
  text += "{";
  for (auto [i, d] : llvm::enumerate(minorToMajor))
    text += (i ? "," : "") + std::to_string(d);
  return text + "}";
}

/// An HLO module whose ENTRY takes parameters of the given HLO shapes.
static OwningOpRef<ModuleOp> shapesModule(ArrayRef<std::string> shapes,
                                          MLIRContext *context) {
  std::string text = "HloModule signature\n\nENTRY e {\n";
  for (auto [i, shape] : llvm::enumerate(shapes))
    text += "  p" + std::to_string(i) + " = " + shape + " parameter(" +
            std::to_string(i) + ")\n";
  text += "  ROOT r = () tuple()\n}\n";
  return hlo::importHloText(text, context);
}

/// The HLO shape of the part of a parameter holding `leaves` (index paths
/// in the parameter from depth `depth`, each with its array's shape): an
/// array, or a tuple of the parts under each next index. None when an
/// element holds no array (a token, an empty tuple: no allocation tells it).
static std::optional<std::string>
parameterShape(ArrayRef<std::pair<ArrayRef<int64_t>, std::string>> leaves,
               size_t depth) {
  if (leaves.size() == 1 && leaves.front().first.size() == depth)
    return leaves.front().second;
  std::string text = "(";
  int64_t element = 0;
  for (size_t i = 0; i < leaves.size(); ++element) {
    if (leaves[i].first.size() <= depth || leaves[i].first[depth] != element)
      return std::nullopt;
    size_t j = i + 1;
    while (j < leaves.size() && leaves[j].first.size() > depth &&
           leaves[j].first[depth] == element)
      ++j;
    std::optional<std::string> part =
        parameterShape(leaves.slice(i, j - i), depth + 1);
    if (!part)
      return std::nullopt;
    text += (i ? ", " : "") + *part;
    i = j;
  }
  return text + ")";
}

/// The whole arrays of a partitioned thunk program's arguments and results
/// (`argument_tiles`, `result_tiles`), where it has them and every
/// parameter is an array; null otherwise.
static std::pair<ArrayAttr, ArrayAttr> programTiles(thunk::ProgramOp program) {
  std::optional<ArrayAttr> args = program.getArgumentTiles();
  std::optional<ArrayAttr> results = program.getResultTiles();
  if (!args || !results)
    return {};
  for (thunk::AllocationOp a :
       thunk::getParameterAllocations(program->getParentOfType<ModuleOp>()))
    if (a.getParameterIndex() && !a.getParameterIndex()->empty())
      return {};
  return {*args, *results};
}

/// An HLO module whose ENTRY takes what `program` takes: its argument_types,
/// regrouped into the tuple parameters their allocations' indices describe,
/// so that the arguments are read or drawn (and compared) as for HLO; the
/// whole arrays of a partitioned program's tiles where `whole`.
static OwningOpRef<ModuleOp> signatureModule(thunk::ProgramOp program,
                                             MLIRContext *context,
                                             std::string &error,
                                             bool whole = false) {
  std::optional<ArrayAttr> types = program.getArgumentTypes();
  if (!types || !program.getResultTypes()) {
    error = "the thunk program has no argument_types / result_types";
    return nullptr;
  }
  SmallVector<thunk::AllocationOp> allocations =
      thunk::getParameterAllocations(program->getParentOfType<ModuleOp>());
  if (allocations.size() != types->size()) {
    error = "the thunk program has " + std::to_string(allocations.size()) +
            " parameter allocations for " + std::to_string(types->size()) +
            " argument types";
    return nullptr;
  }
  // Parameter number -> its arrays (index path, shape), in index order.
  std::map<int64_t, SmallVector<std::pair<ArrayRef<int64_t>, std::string>>>
      byParameter;
  ArrayAttr tiles = whole ? programTiles(program).first : ArrayAttr();
  for (auto [i, alloc, type] : llvm::enumerate(allocations, *types))
    byParameter[*alloc.getParameter()].push_back(
        {alloc.getParameterIndex().value_or(ArrayRef<int64_t>()),
         hloShapeOf(cast<MemRefType>(cast<TypeAttr>(type).getValue()),
                    tiles ? cast<thunk::TilesAttr>(tiles[i]).getShape()
                          : ArrayRef<int64_t>())});
  SmallVector<std::string> shapes;
  for (auto &[number, leaves] : byParameter) {
    if (number != int64_t(shapes.size())) {
      error = "the thunk program takes no parameter " +
              std::to_string(shapes.size());
      return nullptr;
    }
    std::optional<std::string> shape = parameterShape(leaves, 0);
    if (!shape) {
      error = "parameter " + std::to_string(number) +
              " has tuple elements that are not arrays (tokens, empty "
              "tuples): a thunk program cannot take it yet";
      return nullptr;
    }
    shapes.push_back(*shape);
  }
  OwningOpRef<ModuleOp> module = shapesModule(shapes, context);
  if (!module)
    error = "the thunk program's argument types have no HLO shape";
  return module;
}

/// Runs a thunk program on the runtime of `kind`: `arguments` for every
/// device, or for a partitioned program with `argument_tiles`, the whole
/// arrays, each device taking its tiles (its result put together from the
/// first replica's).
static FailureOr<Literal> runProgram(ModuleOp program, ModuleOp signature,
                                     ArrayRef<Literal> arguments,
                                     hlo::DeviceKind kind, std::string &error) {
  auto compileStart = std::chrono::steady_clock::now();
  std::unique_ptr<thunk::Executable> exe =
      hlo::loadExecutable(program, kind, error);
  if (!exe)
    return failure();
  hlo::DeviceTiming timing;
  timing.compileSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - compileStart)
                              .count();
  auto progOp = *program.getOps<thunk::ProgramOp>().begin();
  auto [argTiles, resultTiles] = programTiles(progOp);
  // The parameters as the program takes them: each device's tiles.
  OwningOpRef<ModuleOp> tileSignature;
  if (argTiles) {
    tileSignature = signatureModule(progOp, program.getContext(), error);
    if (!tileSignature)
      return failure();
  }
  hlo::ComputationOp entry = *(argTiles ? *tileSignature : signature)
                                  .getOps<hlo::ComputationOp>()
                                  .begin();
  std::vector<std::vector<uint8_t>> storage;
  std::vector<thunk::ParameterBytes> parameters;
  thunk::DeviceIO io;
  std::vector<std::vector<std::vector<uint8_t>>> deviceStorage;
  int64_t partitions = progOp.getNumPartitions();
  if (argTiles) {
    for (int64_t d = 0, e = progOp.getNumReplicas() * partitions; d < e; ++d) {
      std::vector<Literal> tiles;
      for (auto [arg, attr] : llvm::zip(arguments, argTiles)) {
        auto t = cast<thunk::TilesAttr>(attr);
        tiles.push_back(hlo::runtime::tileOf(arg, t.getOffsets(d % partitions),
                                             t.getTileShape()));
      }
      hlo::encodeParameters(tiles, entry.getArgumentTypes(),
                            io.parameters.emplace_back(),
                            deviceStorage.emplace_back());
    }
    exe->setDeviceIO(&io);
  } else {
    hlo::encodeParameters(arguments, entry.getArgumentTypes(), parameters,
                          storage);
  }
  std::vector<std::vector<uint8_t>> results;
  timing.repeat = repeat;
  timing.profile = profile;
  if (failed(hlo::runRepeatedly(*exe, parameters, results, timing, error)))
    return failure();
  reportDeviceRun(modulePath, timing);
  OwningOpRef<ModuleOp> resultModule =
      shapesModule(llvm::map_to_vector(*progOp.getResultTypes(),
                                       [](Attribute attr) {
                                         return hloShapeOf(cast<MemRefType>(
                                             cast<TypeAttr>(attr).getValue()));
                                       }),
                   program.getContext());
  if (!resultModule) {
    error = "the thunk program's result types have no HLO shape";
    return failure();
  }
  hlo::ComputationOp resultEntry =
      *resultModule->getOps<hlo::ComputationOp>().begin();
  auto decode = [&](ArrayRef<std::vector<uint8_t>> device) {
    std::vector<Literal> values;
    for (auto [bytes, type] : llvm::zip(device, resultEntry.getArgumentTypes()))
      values.push_back(
          hlo::runtime::decodeArrayBytes(bytes, cast<RankedTensorType>(type)));
    return values;
  };
  std::vector<Literal> values = decode(argTiles ? io.results[0] : results);
  if (argTiles) {
    // Each whole result from its tiles on the first replica's partitions.
    std::vector<std::vector<Literal>> tiles;
    for (int64_t p = 0; p < partitions; ++p)
      tiles.push_back(decode(io.results[p]));
    for (auto [i, attr] : llvm::enumerate(resultTiles)) {
      auto t = cast<thunk::TilesAttr>(attr);
      Literal whole = Literal::array(values[i].getElementType(), t.getShape());
      for (int64_t p = 0; p < partitions; ++p)
        hlo::runtime::putTile(whole, tiles[p][i], t.getOffsets(p));
      values[i] = std::move(whole);
    }
  }
  if (values.size() == 1)
    return std::move(values.front());
  return Literal::tuple(std::move(values));
}

/// --list-devices: one line per runtime, `KIND: DESCRIPTION` or `KIND:
/// unavailable: WHY`.
static int printDevices() {
  for (hlo::DeviceKind kind : {hlo::DeviceKind::Host, hlo::DeviceKind::Cuda}) {
    std::string description, why;
    llvm::outs() << hlo::deviceName(kind) << ": ";
    if (succeeded(hlo::probeDevice(kind, description, why)))
      llvm::outs() << description << "\n";
    else
      llvm::outs() << "unavailable: "
                   << StringRef(why).split('\n').first << "\n";
  }
  return 0;
}

static int runMain() {
  if (listDevices)
    return printDevices();
  if (modulePath.empty())
    return reportError("no module given (hlo-run MODULE ...; --help)");
  if (replicas < 1 || partitions < 1)
    return reportError("--replicas and --partitions must be at least 1");
  if (arenaCheck && !arenaMode)
    return reportError("--arena-check needs --arena");
  if (arenaMode && device != Device::Interpreter)
    return reportError("--arena runs on the interpreter; --device=host|cuda "
                       "run on an arena of their own");
  if (bench) {
    repeat = bench;
    printTime = true;
    profile = runtimeKind().has_value();
  }
  if (profile && !runtimeKind())
    return reportError("--profile needs --device=host or --device=cuda");
  if (check && !compareWith.empty())
    return reportError("--check compares with the interpreter, --compare "
                       "with another module: give one");
  if (check && device == Device::Interpreter && !arenaMode)
    return reportError("--check compares a run on a device "
                       "(--device=host-kernels|host|cuda) or --arena with "
                       "the interpreter");
  if (!inputPaths.empty() && randomInputs)
    return reportError("--input and --random-inputs exclude each other");

  DialectRegistry registry;
  hlo::registerHloTranslateDialects(registry);
  // Thunk programs: the thunk dialect and the kernels' dialects.
  hlo::registerHostJitDialects(registry);
  registry.insert<thunk::ThunkDialect, gpu::GPUDialect>();
  // Single-threaded. Made multi-threaded and switched: a context made with
  // Threading::DISABLED keeps uniquers that lock on every lookup (see
  // hlo-translate.cpp).
  MLIRContext context(registry);
  context.disableMultithreading();
  context.loadAllAvailableDialects();

  std::string error;
  OwningOpRef<ModuleOp> module = loadModule(modulePath, &context, error);
  if (!module)
    return reportError(error);
  // A thunk program runs on the host runtime; its arguments are read or
  // drawn for an HLO ENTRY of its argument types.
  OwningOpRef<ModuleOp> program;
  if (!module->getOps<thunk::ProgramOp>().empty()) {
    if (!runtimeKind())
      return reportError(modulePath + ": a thunk program runs with "
                                      "--device=host or --device=cuda");
    if (check)
      return reportError(modulePath + ": --check needs the HLO module; a "
                                      "thunk program has none to interpret");
    program = std::move(module);
    // (A partitioned program's whole arrays where it records them.)
    module = signatureModule(*program->getOps<thunk::ProgramOp>().begin(),
                             &context, error, /*whole=*/true);
    if (!module)
      return reportError(modulePath + ": " + error);
  }
  hlo::ComputationOp entry = findEntry(*module, modulePath, error);
  if (!entry)
    return reportError(error);

  OwningOpRef<ModuleOp> other;
  hlo::ComputationOp otherEntry;
  if (check) {
    // The interpreter runs its own copy (the device run compiles MODULE).
    other = loadModule(modulePath, &context, error);
    if (!other)
      return reportError(error);
    otherEntry = findEntry(*other, modulePath, error);
    if (!otherEntry)
      return reportError(error);
  } else if (!compareWith.empty()) {
    other = loadModule(compareWith, &context, error);
    if (!other)
      return reportError(error);
    otherEntry = findEntry(*other, compareWith, error);
    if (!otherEntry)
      return reportError(error);
    ArrayRef<Type> mine = entry.getArgumentTypes();
    ArrayRef<Type> theirs = otherEntry.getArgumentTypes();
    if (mine.size() != theirs.size())
      return reportError(compareWith + ": the entry computation has " +
                         std::to_string(theirs.size()) + " parameters, " +
                         modulePath + "'s has " + std::to_string(mine.size()));
    for (auto [i, types] : llvm::enumerate(llvm::zip(mine, theirs)))
      if (!sameValueType(std::get<0>(types), std::get<1>(types)))
        return reportError(compareWith + ": parameter " + std::to_string(i) +
                           " is " + typeString(std::get<1>(types)) + ", " +
                           modulePath + "'s is " +
                           typeString(std::get<0>(types)));
  }

  // The memory guard, before the inputs are allocated: parameters larger
  // than memory would otherwise abort the process ("out of memory").
  if (randomInputs || !inputPaths.empty()) {
    if (failed(checkArgumentBytes(*module, getOptions(*module), error)))
      return reportError(modulePath + ": " + error);
    if (other && failed(checkArgumentBytes(*other, getOptions(*other), error)))
      return reportError(compareWith + ": " + error);
  }

  std::vector<Literal> arguments;
  if (randomInputs) {
    FailureOr<std::vector<Literal>> random =
        randomArguments(*module, seed, error);
    if (failed(random))
      return reportError(modulePath + ": " + error);
    arguments = std::move(*random);
  } else if (!inputPaths.empty()) {
    FailureOr<std::vector<Literal>> read = readInputs(entry, error);
    if (failed(read))
      return reportError(error);
    arguments = std::move(*read);
  } else if (!entry.getArgumentTypes().empty()) {
    size_t count = entry.getArgumentTypes().size();
    return reportError(modulePath + ": the entry computation has " +
                       std::to_string(count) + " parameter" +
                       (count == 1 ? "" : "s") +
                       "; give --input FILE.npy for each, or --random-inputs");
  }

  // What the host gives besides the arguments: random with
  // --random-inputs, the files given in their place.
  HostValues host;
  if (randomInputs) {
    FailureOr<HostValues> random = randomHostValues(*module, seed, error);
    if (failed(random))
      return reportError(modulePath + ": " + error);
    host = std::move(*random);
  }
  if (!infeedPaths.empty()) {
    FailureOr<std::vector<Literal>> read = readInfeed(*module, error);
    if (failed(read))
      return reportError(error);
    host.infeed = std::move(*read);
  }
  if (failed(readHostRecv(*module, host.fromHost, error)))
    return reportError(error);

  RunOutputs outputs;
  FailureOr<Literal> result =
      program ? runProgram(*program, *module, arguments, *runtimeKind(), error)
              : runModule(*module, modulePath, arguments, host.infeed,
                          host.fromHost, error, &outputs, arenaMode,
                          device == Device::HostKernels, runtimeKind(), spmd);
  if (program && failed(result))
    error = modulePath + ": " + error;
  if (failed(result))
    return reportError(error);

  if (other) {
    FailureOr<Literal> otherResult =
        runModule(*other, check ? modulePath : compareWith, arguments,
                  host.infeed, host.fromHost, error);
    if (failed(otherResult))
      return reportError(error);
    if (!compareResults(*result, *otherResult, error))
      return reportError(error);
    return 0;
  }
  if (!outputDir.empty()) {
    if (failed(writeResults(*result, error)))
      return reportError(error);
    return 0;
  }
  printResult(*result);
  if (printOutfeed && !outputs.outfeed.empty())
    for (const Literal &value : outputs.outfeed[0]) {
      llvm::outs() << "outfeed: ";
      value.print(llvm::outs());
      llvm::outs() << "\n";
    }
  if (printHostSends && !outputs.toHost.empty())
    for (const auto &[channel, value] : outputs.toHost[0]) {
      llvm::outs() << "send channel " << channel << ": ";
      value.print(llvm::outs());
      llvm::outs() << "\n";
    }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
#if defined(__GLIBC__)
  // The interpreter allocates and frees arrays of up to gigabytes, one per
  // instruction. glibc would map each one afresh (and the kernel zero every
  // page again); keeping freed memory in the heap for reuse makes large
  // modules about a fifth faster.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
#endif
  std::vector<std::string> storage;
  SmallVector<char *> args = expandInputLists(argc, argv, storage);
  cl::HideUnrelatedOptions(hloRunCategory);
  cl::ParseCommandLineOptions(
      args.size(), args.data(),
      "hlo-run: runs an HLO module on the reference interpreter\n");
  return runMain();
}
