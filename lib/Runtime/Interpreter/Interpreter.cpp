//===- Interpreter.cpp - reference interpreter of the hlo dialect ---------===//
//
// The driver: the shared state of a run, one `Interp` per simulated device
// (replica x partition; several devices run in threads that meet in the
// collectives), the evaluation of a computation op by op with an
// environment of values, and the dispatch to the op families.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Support/DeviceRendezvous.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <thread>
#if __has_include(<unistd.h>)
#include <unistd.h>
#endif

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;

//===----------------------------------------------------------------------===//
// Shared state.
//===----------------------------------------------------------------------===//

/// The machine's physical memory in bytes (0 when unknown: no limit).
static uint64_t getPhysicalMemoryBytes() {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages > 0 && pageSize > 0)
    return static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize);
#endif
  return 0;
}

int64_t runtime::getLiveBytesLimit(const InterpreterOptions &options) {
  if (options.maxLiveBytes >= 0)
    return options.maxLiveBytes;
  int64_t devices;
  if (llvm::MulOverflow(std::max<int64_t>(1, options.numReplicas),
                        std::max<int64_t>(1, options.numPartitions), devices))
    devices = std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(getPhysicalMemoryBytes() / 4 * 3) / devices;
}

SharedState::SharedState(ModuleOp module, const InterpreterOptions &options,
                         bool liveness)
    : module(module), options(options),
      numDevices(options.numReplicas * options.numPartitions) {
  liveBytesLimit = getLiveBytesLimit(options);
  for (auto comp : module.getOps<ComputationOp>()) {
    ComputationInfo &info = computations[comp.getSymName()];
    info.op = comp;
    if (!liveness)
      continue;
    Block &body = comp.getBody().front();
    // The last instruction that reads each value; the terminator counts as
    // instruction N, so the root never dies.
    llvm::DenseMap<Value, unsigned> lastUse;
    unsigned i = 0;
    for (Operation &op : body) {
      for (Value v : getDataOperands(&op))
        lastUse[v] = i;
      ++i;
    }
    info.deaths.resize(i);
    i = 0;
    for (Operation &op : body) {
      for (Value v : op.getResults())
        if (!lastUse.count(v))
          info.deaths[i].push_back(v);
      ++i;
    }
    for (auto [v, last] : lastUse)
      if (last + 1 < i)
        info.deaths[last].push_back(v);
  }
  if (liveness)
    for (auto &entry : computations)
      infoByOp[entry.second.op] = &entry.second;
  if (numDevices > 1)
    rendezvous = makeRendezvous(numDevices);
}

SharedState::~SharedState() = default;

//===----------------------------------------------------------------------===//
// Errors and helpers.
//===----------------------------------------------------------------------===//

static std::optional<StringRef> nameOf(Location loc) {
  if (auto n = dyn_cast<NameLoc>(loc))
    return n.getName().getValue();
  if (auto f = dyn_cast<FusedLoc>(loc))
    for (Location l : f.getLocations())
      if (auto s = nameOf(l))
        return s;
  return std::nullopt;
}

std::string eval::describe(Operation *op) {
  std::string opcode = isa<ComputationOp>(op) ? "computation" : getOpcode(op);
  if (auto comp = dyn_cast<ComputationOp>(op))
    return "computation '" + comp.getSymName().str() + "'";
  if (auto name = nameOf(op->getLoc()))
    return opcode + " '" + name->str() + "'";
  return opcode;
}

std::string eval::typeToString(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto tt = dyn_cast<TupleType>(type)) {
    os << '(';
    llvm::interleave(
        tt.getTypes(), os, [&](Type t) { os << typeToString(t); }, ", ");
    os << ')';
  } else if (auto rt = dyn_cast<RankedTensorType>(type)) {
    os << getElementTypeName(rt.getElementType()) << '[';
    auto layout = dyn_cast_or_null<LayoutAttr>(rt.getEncoding());
    for (int64_t d = 0; d < rt.getRank(); ++d) {
      if (d)
        os << ',';
      if (!rt.isDynamicDim(d))
        os << rt.getDimSize(d);
      else if (layout && layout.isBounded(d))
        os << "<=" << layout.getBounds()[d];
      else
        os << '?';
    }
    os << ']';
  } else if (isa<TokenType>(type)) {
    os << "token[]";
  } else if (isa<hlo::OpaqueType>(type)) {
    os << "opaque[]";
  } else {
    type.print(os);
  }
  return s;
}

LogicalResult Interp::fail(Operation *op, const Twine &message) {
  if (errorMessage.empty())
    errorMessage = (describe(op) + ": " + message).str();
  return failure();
}

FailureOr<SmallVector<int64_t>> eval::resultShape(Interp &interp,
                                                  Operation *op) {
  Type t = op->getResult(0).getType();
  auto shape = getStaticShape(t);
  if (!shape)
    return FailureOr<SmallVector<int64_t>>(interp.fail(
        op, "result type " + typeToString(t) +
                " is not an array with static or bounded dimensions"));
  return *shape;
}

FailureOr<Literal> eval::makeResult(Interp &interp, Operation *op) {
  auto shape = resultShape(interp, op);
  if (failed(shape))
    return failure();
  return Literal::array(resultElementType(op), *shape);
}

Type eval::resultElementType(Operation *op) {
  return cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
}

SmallVector<int64_t> eval::stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

std::vector<double> eval::transposedReals(const Literal &l,
                                          ArrayRef<int64_t> order) {
  std::vector<double> data(l.getNumElements());
  forEachTransposed(l.getShape(), order,
                    [&](int64_t i, int64_t j) { data[i] = l.getFloat(j); });
  return data;
}

void eval::parallelRows(Interp &interp, int64_t rows, double cost,
                        llvm::function_ref<void(int64_t, int64_t)> work) {
  const InterpreterOptions &options = interp.shared.options;
  int64_t threads = 1;
  if (cost > 4e6 && options.numReplicas * options.numPartitions == 1)
    threads = std::min<int64_t>(
        rows, std::max(1u, std::thread::hardware_concurrency()));
  if (threads <= 1)
    return work(0, rows);
  std::vector<std::thread> pool;
  for (int64_t t = 0; t < threads; ++t)
    pool.emplace_back(work, rows * t / threads, rows * (t + 1) / threads);
  for (std::thread &t : pool)
    t.join();
}

bool eval::nextIndex(MutableArrayRef<int64_t> index, ArrayRef<int64_t> shape) {
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    if (++index[d] < shape[d])
      return true;
    index[d] = 0;
  }
  return false;
}

int64_t eval::numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

int64_t eval::indexValue(const Literal &l, int64_t i) {
  int64_t v = l.getInt(i);
  // A u64 of 2^63 or more is past every bound, not negative.
  if (l.getElementKind() == ElementKind::Unsigned && v < 0)
    return std::numeric_limits<int64_t>::max();
  return v;
}

Literal eval::scalarAt(const Literal &l, int64_t i) {
  Literal s = Literal::array(l.getElementType(), {});
  s.copyElement(0, l, i);
  return s;
}

int64_t eval::footprint(const Literal &l) {
  if (l.isTuple()) {
    int64_t n = 0;
    for (const Literal &e : l.getElements())
      n += footprint(e);
    return n;
  }
  if (!l.isArray())
    return 0;
  return l.getStorageBytes();
}

int64_t eval::totalOrderKey(double v) {
  int64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits < 0 ? bits ^ std::numeric_limits<int64_t>::max() : bits;
}

//===----------------------------------------------------------------------===//
// Evaluation.
//===----------------------------------------------------------------------===//

FailureOr<ComputationOp> Interp::lookup(Operation *caller, StringRef callee) {
  auto it = shared.computations.find(callee);
  if (it == shared.computations.end())
    return FailureOr<ComputationOp>(
        fail(caller, "calls unknown computation '" + callee + "'"));
  return it->second.op;
}

FailureOr<Literal> Interp::call(Operation *caller, StringRef callee,
                                std::vector<Literal> args) {
  auto comp = lookup(caller, callee);
  if (failed(comp))
    return failure();
  ArrayRef<Type> params = comp->getArgumentTypes();
  if (params.size() != args.size())
    return error(caller, "passes " + Twine(args.size()) + " arguments to '" +
                             callee + "', which takes " + Twine(params.size()));
  for (auto [i, t] : llvm::enumerate(params))
    if (!args[i].hasType(t)) {
      std::string got;
      llvm::raw_string_ostream os(got);
      args[i].printShape(os);
      return error(caller, "argument " + Twine(i) + " of '" + callee + "' is " +
                               got + ", expected " + typeToString(t));
    }
  return runComputation(*comp, std::move(args));
}

FailureOr<Literal> Interp::runComputation(ComputationOp comp,
                                          std::vector<Literal> args) {
  if (depth >= 200)
    return error(comp, "call depth exceeds 200 (recursive computations?)");
  struct DepthGuard {
    unsigned &depth;
    explicit DepthGuard(unsigned &depth) : depth(depth) { ++depth; }
    ~DepthGuard() { --depth; }
  } guard(depth);
  ComputationInfo *info = shared.infoByOp.lookup(comp);
  Block &body = comp.getBody().front();
  llvm::DenseMap<Value, Literal> env;
  // Keeps liveBytes in step with what `env` holds.
  struct LiveCount {
    int64_t &live;
    int64_t mine = 0;
    void add(int64_t n) {
      live += n;
      mine += n;
    }
    ~LiveCount() { live -= mine; }
  } count{liveBytes};
  for (auto [arg, value] : llvm::zip(body.getArguments(), args)) {
    count.add(footprint(value));
    env[arg] = std::move(value);
  }
  int64_t limit = shared.liveBytesLimit;
  SmallVector<const Literal *, 4> operands;
  unsigned i = 0;
  for (Operation &op : body.without_terminator()) {
    operands.clear();
    for (Value v : getDataOperands(&op)) {
      auto it = env.find(v);
      if (it == env.end())
        return error(&op, "internal error: an operand has no value");
      operands.push_back(&it->second);
    }
    if (!runtimeSizes.empty()) {
      runtimeSizes.erase(op.getResult(0));
      if (failed(checkRuntimeSizes(*this, &op)))
        return failure();
    }
    FailureOr<Literal> result = evalOp(&op, operands);
    if (failed(result))
      return failure();
    if (!runtimeSizes.empty())
      propagateRuntimeSizes(*this, &op);
    Type type = op.getResult(0).getType();
    if (!result->hasType(type)) {
      std::string got;
      llvm::raw_string_ostream os(got);
      result->printShape(os);
      return error(&op, "internal error: computed a " + got +
                            " value for result type " + typeToString(type));
    }
    count.add(footprint(*result));
    if (limit > 0 && liveBytes > limit)
      return error(&op, "the live values exceed " + Twine(limit) +
                            " bytes (InterpreterOptions::maxLiveBytes)");
    env[op.getResult(0)] = std::move(*result);
    if (info)
      for (Value v : info->deaths[i]) {
        auto dead = env.find(v);
        if (dead == env.end())
          continue;
        count.add(-footprint(dead->second));
        env.erase(dead);
      }
    ++i;
  }
  Value root = body.getTerminator()->getOperand(0);
  auto it = env.find(root);
  if (it == env.end())
    return error(comp, "internal error: the root has no value");
  // A called computation's result would lose its runtime sizes; the
  // entry's root (each element of a root tuple) is returned at its runtime
  // shape, as XLA returns it.
  if (depth > 1) {
    if (runtimeSizes.count(root))
      return error(comp, "its root has dynamic dimensions below their bounds "
                         "(runtime sizes are only tracked within a "
                         "computation)");
    return std::move(it->second);
  }
  auto atRuntimeShape = [&](Value v, Literal &l) {
    auto sizes = runtimeSizes.find(v);
    if (sizes != runtimeSizes.end())
      l = sliceToRuntimeShape(l, sizes->second);
  };
  if (!runtimeSizes.empty()) {
    if (auto tuple = root.getDefiningOp<TupleOp>()) {
      for (auto [v, l] :
           llvm::zip(getDataOperands(tuple), it->second.getElements()))
        atRuntimeShape(v, l);
    } else {
      atRuntimeShape(root, it->second);
    }
  }
  return std::move(it->second);
}

FailureOr<Literal> Interp::evalOp(Operation *op, Operands operands) {
  using Family = EvalResult (*)(Interp &, Operation *, Operands);
  static const Family families[] = {
      evalElementwiseOp, evalConvertOp,    evalShapeOp,
      evalControlOp,     evalIndexingOp,   evalReduceOp,
      evalLinalgOp,      evalCollectiveOp, evalRngOp};
  for (Family family : families)
    if (EvalResult r = family(*this, op, operands))
      return std::move(*r);
  return error(op, "is not supported by the interpreter");
}

//===----------------------------------------------------------------------===//
// Entry points.
//===----------------------------------------------------------------------===//

static ComputationOp findEntry(ModuleOp module) {
  ComputationOp last;
  for (auto comp : module.getOps<ComputationOp>()) {
    if (comp.getEntry())
      return comp;
    last = comp;
  }
  return last;
}

InterpreterOptions runtime::getModuleOptions(ModuleOp module) {
  InterpreterOptions options;
  std::tie(options.numReplicas, options.numPartitions) =
      getDeviceCounts(module);
  return options;
}

FailureOr<Literal> runtime::run(ModuleOp module, ArrayRef<Literal> arguments,
                                const InterpreterOptions &options,
                                std::string &error) {
  return run(module, arguments, options, error, nullptr);
}

FailureOr<Literal> runtime::run(ModuleOp module, ArrayRef<Literal> arguments,
                                const InterpreterOptions &options,
                                std::string &error, RunOutputs *outputs) {
  if (outputs) {
    outputs->outfeed.clear();
    outputs->toHost.clear();
  }
  ComputationOp entry = findEntry(module);
  if (!entry) {
    error = "the module has no computation";
    return failure();
  }
  if (options.numReplicas < 1 || options.numPartitions < 1) {
    error = "the replica and partition counts must be at least 1";
    return failure();
  }
  if (!options.deviceInfeed.empty() &&
      static_cast<int64_t>(options.deviceInfeed.size()) !=
          options.numReplicas * options.numPartitions) {
    error = "deviceInfeed has " + std::to_string(options.deviceInfeed.size()) +
            " queues for " +
            std::to_string(options.numReplicas * options.numPartitions) +
            " devices";
    return failure();
  }
  ArrayRef<Type> params = entry.getArgumentTypes();
  auto checkArguments = [&](ArrayRef<Literal> args) {
    if (params.size() != args.size()) {
      error = "the entry computation '" + entry.getSymName().str() +
              "' takes " + std::to_string(params.size()) + " arguments, got " +
              std::to_string(args.size());
      return false;
    }
    for (auto [i, t] : llvm::enumerate(params))
      if (!args[i].hasType(t)) {
        std::string got;
        llvm::raw_string_ostream os(got);
        args[i].printShape(os);
        error = "argument " + std::to_string(i) + " is " + got +
                ", the entry parameter is " + typeToString(t);
        return false;
      }
    return true;
  };
  const auto &perDevice = options.deviceArguments;
  if (!perDevice.empty()) {
    if (!arguments.empty() || int64_t(perDevice.size()) !=
                                  options.numReplicas * options.numPartitions) {
      error = "deviceArguments has " + std::to_string(perDevice.size()) +
              " lists for " +
              std::to_string(options.numReplicas * options.numPartitions) +
              " devices";
      return failure();
    }
    for (const std::vector<Literal> &args : perDevice)
      if (!checkArguments(args))
        return failure();
  } else if (!checkArguments(arguments)) {
    return failure();
  }

  SharedState shared(module, options);
  std::vector<Literal> args(arguments.begin(), arguments.end());
  auto argumentsOf = [&](int64_t d) -> const std::vector<Literal> & {
    return perDevice.empty() ? args : perDevice[d];
  };
  if (shared.numDevices == 1) {
    if (!perDevice.empty())
      args = perDevice[0];
    Interp device(shared, 0, 0);
    FailureOr<Literal> result = device.runComputation(entry, std::move(args));
    if (failed(result))
      error = device.errorMessage;
    if (outputs) {
      outputs->outfeed.push_back(std::move(device.outfeed));
      outputs->toHost.push_back(std::move(device.toHost));
      if (succeeded(result))
        outputs->results.push_back(*result);
    }
    return result;
  }

  // Several devices: one thread each; they meet in the rendezvous of each
  // collective. Evaluating some instructions makes types (a factorization
  // call reads its result types), so the context's uniquers must take
  // locks while the devices run, even where the caller switched threading
  // off (hlo-opt --hlo-check-semantics, hlo-run).
  MLIRContext *ctx = module.getContext();
  bool threaded = ctx->isMultithreadingEnabled();
  if (!threaded)
    ctx->enableMultithreading(true);
  auto restore = llvm::make_scope_exit([&] {
    if (!threaded)
      ctx->enableMultithreading(false);
  });
  std::vector<std::unique_ptr<Interp>> devices;
  std::vector<FailureOr<Literal>> results(shared.numDevices, failure());
  for (int64_t r = 0; r < options.numReplicas; ++r)
    for (int64_t p = 0; p < options.numPartitions; ++p)
      devices.push_back(std::make_unique<Interp>(shared, r, p));
  LogicalResult status = runDevicesInThreads(
      shared,
      [&](int64_t d) {
        results[d] = devices[d]->runComputation(entry, argumentsOf(d));
        return LogicalResult(results[d]);
      },
      [&](int64_t d) { return StringRef(devices[d]->errorMessage); }, error);
  if (outputs)
    for (auto &device : devices) {
      outputs->outfeed.push_back(std::move(device->outfeed));
      outputs->toHost.push_back(std::move(device->toHost));
    }
  if (failed(status))
    return failure();
  if (outputs)
    for (FailureOr<Literal> &result : results)
      outputs->results.push_back(*result);
  return std::move(results[0]);
}

LogicalResult eval::runDevicesInThreads(
    SharedState &shared, llvm::function_ref<LogicalResult(int64_t)> device,
    llvm::function_ref<StringRef(int64_t)> errorOf, std::string &error) {
  std::vector<char> ok(shared.numDevices, 0);
  std::vector<std::thread> threads;
  for (int64_t d = 0; d < shared.numDevices; ++d)
    threads.emplace_back([&, d] {
      ok[d] = succeeded(device(d));
      if (ok[d])
        finishRendezvous(*shared.rendezvous);
      else
        abortRendezvous(*shared.rendezvous);
    });
  for (std::thread &t : threads)
    t.join();
  std::optional<int64_t> report;
  for (int64_t d = 0; d < shared.numDevices && !report; ++d)
    if (!ok[d] && !errorOf(d).ends_with(DeviceRendezvous::kStopped))
      report = d;
  for (int64_t d = 0; d < shared.numDevices && !report; ++d)
    if (!ok[d])
      report = d;
  if (!report)
    return success();
  int64_t partitions = shared.options.numPartitions;
  error = "replica " + std::to_string(*report / partitions) + ", partition " +
          std::to_string(*report % partitions) + ": " +
          errorOf(*report).str();
  return failure();
}

//===----------------------------------------------------------------------===//
// Random arguments.
//===----------------------------------------------------------------------===//

namespace {
/// splitmix64: a small, well-distributed 64-bit generator.
struct SplitMix {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [-1, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1p-52 - 1.0; }
};
} // namespace

static FailureOr<Literal> randomLiteral(Type type, SplitMix &gen,
                                        std::string &error) {
  if (auto tt = dyn_cast<TupleType>(type)) {
    std::vector<Literal> elements;
    for (Type t : tt.getTypes()) {
      auto e = randomLiteral(t, gen, error);
      if (failed(e))
        return failure();
      elements.push_back(std::move(*e));
    }
    return Literal::tuple(std::move(elements));
  }
  if (isa<TokenType>(type))
    return Literal::token();
  if (isa<hlo::OpaqueType>(type))
    return Literal::opaque();
  auto shape = getStaticShape(type);
  if (!shape) {
    error = "cannot make a random value of type " + typeToString(type);
    return failure();
  }
  Literal l =
      Literal::array(cast<RankedTensorType>(type).getElementType(), *shape);
  // A float format without a sign (f8E8M0FNU: exponents only, the scales
  // of block-scaled formats) takes powers of two from 1/16 to 16.
  bool unsignedFloat = isa<Float8E8M0FNUType>(l.getElementType());
  for (int64_t i = 0, e = l.getNumElements(); i < e; ++i) {
    if (unsignedFloat) {
      l.setFloat(i, std::ldexp(1.0, static_cast<int>(gen.next() % 9) - 4));
      continue;
    }
    switch (l.getElementKind()) {
    case ElementKind::Pred:
      l.setInt(i, gen.next() & 1);
      break;
    case ElementKind::Signed:
      l.setInt(i, static_cast<int64_t>(gen.next() % 17) - 8);
      break;
    case ElementKind::Unsigned:
      l.setInt(i, static_cast<int64_t>(gen.next() % 17));
      break;
    case ElementKind::Float:
      l.setFloat(i, gen.uniform());
      break;
    case ElementKind::Complex: {
      double re = gen.uniform();
      l.setComplex(i, {re, gen.uniform()});
      break;
    }
    }
  }
  return l;
}

LogicalResult runtime::checkArgumentBytes(ModuleOp module,
                                          const InterpreterOptions &options,
                                          std::string &error) {
  ComputationOp entry = findEntry(module);
  int64_t limit = getLiveBytesLimit(options);
  if (!entry || limit <= 0)
    return success();
  int64_t bytes = 0;
  for (Type t : entry.getArgumentTypes())
    if (llvm::AddOverflow(bytes, getStorageBytes(t), bytes))
      bytes = std::numeric_limits<int64_t>::max();
  if (bytes <= limit)
    return success();
  error = "the entry parameters take " + std::to_string(bytes) +
          " bytes: the live values exceed " + std::to_string(limit) +
          " bytes (InterpreterOptions::maxLiveBytes)";
  return failure();
}

FailureOr<std::vector<Literal>>
runtime::randomArguments(ModuleOp module, uint64_t seed, std::string &error) {
  ComputationOp entry = findEntry(module);
  if (!entry) {
    error = "the module has no computation";
    return failure();
  }
  SplitMix gen{seed};
  std::vector<Literal> args;
  for (Type t : entry.getArgumentTypes()) {
    auto l = randomLiteral(t, gen, error);
    if (failed(l))
      return failure();
    args.push_back(std::move(*l));
  }
  return args;
}

FailureOr<HostValues> runtime::randomHostValues(ModuleOp module, uint64_t seed,
                                                std::string &error) {
  SplitMix gen{seed ^ 0x686f7374ULL};
  HostValues values;
  WalkResult walk = module.walk([&](Operation *op) {
    std::vector<Literal> *into = nullptr;
    if (isa<InfeedOp>(op)) {
      into = &values.infeed;
    } else if (isa<RecvOp>(op)) {
      TransferChannel channel = getTransferChannel(op);
      if (channel.host)
        into = &values.fromHost[channel.id.value_or(0)];
    }
    if (!into)
      return WalkResult::advance();
    auto l = randomLiteral(
        cast<TupleType>(op->getResult(0).getType()).getType(0), gen, error);
    if (failed(l))
      return WalkResult::interrupt();
    into->push_back(std::move(*l));
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return values;
}

//===----------------------------------------------------------------------===//
// Evaluator.
//===----------------------------------------------------------------------===//

struct Evaluator::State {
  State(ModuleOp module, const InterpreterOptions &options)
      : shared(module, options, /*liveness=*/false), device(shared, 0, 0) {}
  SharedState shared;
  Interp device;
};

Evaluator::Evaluator(ModuleOp module, const InterpreterOptions &options) {
  InterpreterOptions one = options;
  one.numReplicas = one.numPartitions = 1;
  state = std::make_unique<State>(module, one);
}

Evaluator::~Evaluator() = default;

FailureOr<Literal> Evaluator::evaluate(Operation *op,
                                       ArrayRef<const Literal *> operands,
                                       std::string &error) {
  OperandRange data = getDataOperands(op);
  if (data.size() != operands.size()) {
    error = "got " + std::to_string(operands.size()) + " operand values for " +
            std::to_string(data.size()) + " operands";
    return failure();
  }
  for (auto [i, v] : llvm::enumerate(data))
    if (!operands[i]->hasType(v.getType())) {
      error = "operand " + std::to_string(i) + " is not a value of " +
              typeToString(v.getType());
      return failure();
    }
  Interp &device = state->device;
  device.errorMessage.clear();
  device.runtimeSizes.clear();
  FailureOr<Literal> result = device.evalOp(op, operands);
  if (failed(result)) {
    error = device.errorMessage;
    return failure();
  }
  if (!result->hasType(op->getResult(0).getType())) {
    error = "computed a value of another type";
    return failure();
  }
  return result;
}
