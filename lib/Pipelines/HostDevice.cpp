//===- HostDevice.cpp - compile a module and run it on the host -----------===//

#include "Hlo/Pipelines/HostDevice.h"

#include "Hlo/Conversion/Passes.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Runtime/Host/HostRuntime.h"
#include "Hlo/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

#include <chrono>

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
  storage.push_back(runtime::encodeArrayBytes(value, tensor));
  out.push_back({parameter, index, {}});
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
    return Literal::tuple({});
  Literal value = runtime::decodeArrayBytes(buffers.front(), tensor);
  buffers = buffers.drop_front();
  return value;
}

FailureOr<Literal> mlir::hlo::runOnHostDevice(ModuleOp module,
                                              ArrayRef<Literal> arguments,
                                              std::string &error,
                                              std::string &note,
                                              HostDeviceTiming *timing) {
  using Clock = std::chrono::steady_clock;
  auto secondsSince = [](Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  Clock::time_point compileStart = Clock::now();
  MLIRContext *ctx = module.getContext();
  OwningOpRef<ModuleOp> compiled = module.clone();
  if (!compiled.get()->hasAttr("hlo.buffer_allocations")) {
    PassManager optimize(ctx);
    buildHloGpuOptimizePipeline(optimize);
    if (failed(runPasses(optimize, *compiled, error)))
      return failure();
  }
  // The entry signature with the layouts the compiler chose: arguments are
  // encoded and results decoded in them.
  ComputationOp entry;
  for (auto comp : compiled->getOps<ComputationOp>())
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
  PassManager lower(ctx);
  lower.addPass(createHloToGpu());
  lower.addPass(createHloToThunk());
  if (failed(runPasses(lower, *compiled, error)))
    return failure();
  std::unique_ptr<thunk::HostExecutable> exe =
      thunk::HostExecutable::compile(*compiled, error);
  if (!exe)
    return failure();
  if (timing)
    timing->compileSeconds = secondsSince(compileStart);

  std::vector<thunk::ParameterBytes> parameters;
  std::vector<std::vector<uint8_t>> storage;
  for (auto [i, type] : llvm::enumerate(params)) {
    SmallVector<int64_t> index;
    encodeLeaves(arguments[i], type, i, index, parameters, storage);
  }
  for (auto [p, bytes] : llvm::zip(parameters, storage))
    p.bytes = bytes;
  std::vector<std::vector<uint8_t>> results;
  thunk::HostRunStats stats;
  unsigned runs = timing ? std::max(1u, timing->repeat) : 1;
  for (unsigned i = 0; i < runs; ++i) {
    results.clear();
    stats = {};
    Clock::time_point runStart = Clock::now();
    if (failed(exe->run(parameters, results, error, &stats)))
      return failure();
    double seconds = secondsSince(runStart);
    if (timing && (i == 0 || seconds < timing->runSeconds))
      timing->runSeconds = seconds;
  }
  ArrayRef<std::vector<uint8_t>> buffers = results;
  note = std::to_string(stats.kernels) + " kernel launches, " +
         std::to_string(stats.gemms) + " GEMMs, " +
         std::to_string(stats.copies) + " copies, " +
         std::to_string(stats.iterations) + " loop iterations on a " +
         std::to_string(stats.arenaBytes) + "-byte arena; " +
         std::to_string(stats.memsets) + " memsets, " +
         std::to_string(stats.branches) + " conditionals";
  return decodeLeaves(resultType, buffers);
}
