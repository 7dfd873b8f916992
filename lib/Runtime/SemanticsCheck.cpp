//===- SemanticsCheck.cpp - interpreter-checked pass pipelines ------------===//
//
// The instrumentation keeps the interpreter's results of the module before
// the pipeline (on random arguments of a fixed seed; every device's, for a
// module of several replicas or partitions) and, after every pass
// that changed the module (operation fingerprint), runs the interpreter
// again on the same arguments and compares. Nested passes run on one
// computation, but the whole module (its entry computation) is what gets
// run, so the pipeline runs single-threaded.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Runtime/SemanticsCheck.h"

#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTileSharding.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Runtime/PartitionedRun.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <optional>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;

//===----------------------------------------------------------------------===//
// Comparing results
//===----------------------------------------------------------------------===//

static std::string elementTypeName(Type type) {
  if (type.isInteger(1))
    return "pred";
  if (auto integer = dyn_cast<IntegerType>(type))
    return (integer.isUnsigned() ? "u" : "s") +
           std::to_string(integer.getWidth());
  if (auto complex = dyn_cast<ComplexType>(type))
    return "c" + std::to_string(
                     2 * complex.getElementType().getIntOrFloatBitWidth());
  // f16, bf16, f32, f64, tf32, f8E4M3FN -> f8e4m3fn, ...
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return StringRef(text).lower();
}

std::string mlir::hlo::runtime::hloShapeString(Type elementType,
                                               ArrayRef<int64_t> shape) {
  std::string text = elementTypeName(elementType) + "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

static std::string number(double v) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%.9g", v);
  return text;
}

static std::string elementString(const Literal &literal, int64_t i) {
  switch (literal.getElementKind()) {
  case ElementKind::Pred:
    return literal.getInt(i) ? "true" : "false";
  case ElementKind::Signed:
    return std::to_string(literal.getInt(i));
  case ElementKind::Unsigned:
    return std::to_string(static_cast<uint64_t>(literal.getInt(i)));
  case ElementKind::Float:
    return number(literal.getFloat(i));
  case ElementKind::Complex: {
    std::complex<double> c = literal.getComplex(i);
    return "(" + number(c.real()) + ", " + number(c.imag()) + ")";
  }
  }
  return "?";
}

static std::string indexString(const Literal &literal, int64_t linear) {
  SmallVector<int64_t> index = literal.delinearize(linear);
  std::string text = "[";
  for (size_t i = 0; i < index.size(); ++i)
    text += (i ? "," : "") + std::to_string(index[i]);
  return text + "]";
}

/// The relative difference: |a - b| / max(|a|, |b|).
static double relative(double abs, double scale) {
  if (abs == 0)
    return 0;
  return scale == 0 || std::isinf(scale) ? INFINITY : abs / scale;
}

static ArrayComparison compareArrays(const Literal &a, const Literal &b,
                                     double atol, double rtol) {
  ArrayComparison diff;
  diff.type = hloShapeString(a.getElementType(), a.getShape());
  // A type is not compared finer than its resolution: a relative tolerance
  // is at least 4 ulps (4 * epsilon) of the floating-point type, so that
  // f16 and bf16 results computed in another order (a reduction on the
  // GPU) compare as they can. Exact comparisons (rtol 0) stay exact.
  Type floatType = getElementTypeOrSelf(a.getElementType());
  if (auto complex = dyn_cast<ComplexType>(floatType))
    floatType = complex.getElementType();
  if (auto fp = dyn_cast<FloatType>(floatType); fp && rtol > 0)
    rtol = std::max(rtol,
                    4 * std::ldexp(1.0, 1 - int(fp.getFPMantissaWidth())));
  int64_t count = a.getNumElements();
  ElementKind kind = a.getElementKind();
  for (int64_t i = 0; i < count; ++i) {
    double abs = 0, scale = 0;
    switch (kind) {
    case ElementKind::Pred:
    case ElementKind::Signed:
    case ElementKind::Unsigned: {
      int64_t x = a.getInt(i), y = b.getInt(i);
      if (x == y)
        continue;
      // Unsigned 64-bit values are bit patterns: compare them as such.
      bool isUnsigned = kind == ElementKind::Unsigned;
      double dx = isUnsigned ? double(uint64_t(x)) : double(x);
      double dy = isUnsigned ? double(uint64_t(y)) : double(y);
      scale = std::max(std::fabs(dx), std::fabs(dy));
      abs = std::max(std::fabs(dx - dy), 1.0);
      break;
    }
    case ElementKind::Float: {
      double x = a.getFloat(i), y = b.getFloat(i);
      if (x == y || (std::isnan(x) && std::isnan(y)))
        continue;
      scale = std::max(std::fabs(x), std::fabs(y));
      // One NaN (or opposite infinities) is an infinite difference.
      abs = std::fabs(x - y);
      if (std::isnan(abs))
        abs = INFINITY;
      break;
    }
    case ElementKind::Complex: {
      std::complex<double> x = a.getComplex(i), y = b.getComplex(i);
      bool nanX = std::isnan(x.real()) || std::isnan(x.imag());
      bool nanY = std::isnan(y.real()) || std::isnan(y.imag());
      if (x == y || (nanX && nanY))
        continue;
      scale = std::max(std::abs(x), std::abs(y));
      abs = std::abs(x - y);
      if (std::isnan(abs))
        abs = INFINITY;
      break;
    }
    }
    double rel = relative(abs, scale);
    diff.maxAbs = std::max(diff.maxAbs, abs);
    diff.maxRel = std::max(diff.maxRel, rel);
    bool within = std::isfinite(abs) && abs <= atol + rtol * scale;
    if (!within && diff.mismatches++ == 0)
      diff.firstMismatch = "element " + indexString(a, i) + ": " +
                           elementString(a, i) + " vs " +
                           elementString(b, i) + " (abs diff " + number(abs) +
                           ", rel diff " + number(rel) + ")";
  }
  return diff;
}

/// The arrays of a result, depth first (tokens have no values).
static void flattenArrays(const Literal &literal,
                          std::vector<const Literal *> &out) {
  if (literal.isTuple()) {
    for (const Literal &element : literal.getElements())
      flattenArrays(element, out);
    return;
  }
  if (literal.isArray())
    out.push_back(&literal);
}

/// Whether two literals have the same tuple structure.
static bool sameStructure(const Literal &a, const Literal &b) {
  if (a.isTuple() != b.isTuple() || a.isArray() != b.isArray())
    return false;
  if (!a.isTuple())
    return true;
  if (a.getElements().size() != b.getElements().size())
    return false;
  for (size_t i = 0; i < a.getElements().size(); ++i)
    if (!sameStructure(a.getElements()[i], b.getElements()[i]))
      return false;
  return true;
}

LiteralComparison mlir::hlo::runtime::compareLiterals(const Literal &actual,
                                                      const Literal &expected,
                                                      double atol,
                                                      double rtol) {
  LiteralComparison comparison;
  if (!sameStructure(actual, expected)) {
    comparison.structureError = "the results differ in tuple structure";
    return comparison;
  }
  std::vector<const Literal *> left, right;
  flattenArrays(actual, left);
  flattenArrays(expected, right);
  for (size_t r = 0; r < left.size(); ++r) {
    const Literal &x = *left[r], &y = *right[r];
    std::string typeX = hloShapeString(x.getElementType(), x.getShape());
    std::string typeY = hloShapeString(y.getElementType(), y.getShape());
    if (typeX != typeY) {
      comparison.structureError = "result " + std::to_string(r) + " is " +
                                  typeX + " instead of " + typeY;
      return comparison;
    }
    ArrayComparison diff = compareArrays(x, y, atol, rtol);
    comparison.maxAbs = std::max(comparison.maxAbs, diff.maxAbs);
    comparison.maxRel = std::max(comparison.maxRel, diff.maxRel);
    if (diff.mismatches && comparison.mismatches == 0)
      comparison.firstMismatch =
          "result " + std::to_string(r) + " " + diff.firstMismatch;
    comparison.mismatches += diff.mismatches;
    comparison.arrays.push_back(std::move(diff));
  }
  return comparison;
}

std::string LiteralComparison::summary() const {
  if (!structureError.empty())
    return structureError;
  std::string largest = "max abs diff " + number(maxAbs) + ", max rel diff " +
                        number(maxRel);
  if (!mismatches)
    return largest;
  return std::to_string(mismatches) + " element" +
         (mismatches == 1 ? "" : "s") + " beyond tolerance, first " +
         firstMismatch + "; " + largest;
}

//===----------------------------------------------------------------------===//
// Work estimate
//===----------------------------------------------------------------------===//

/// Elements of `type` if it is an array of static shape, else 0 (a tuple
/// costs the interpreter nothing per element).
static double elementsOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return 0;
  return static_cast<double>(tensor.getNumElements());
}

/// Dimension sizes of `value`'s array type at `dims`, multiplied.
static double sizeProduct(Value value, ArrayRef<int64_t> dims) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  double product = 1;
  for (int64_t d : dims)
    if (tensor && d >= 0 && d < tensor.getRank() && !tensor.isDynamicDim(d))
      product *= static_cast<double>(tensor.getDimSize(d));
  return product;
}

double mlir::hlo::runtime::estimateMultiplyAdds(ModuleOp module) {
  double work = 0;
  module.walk([&](Operation *op) {
    if (op->getNumResults() != 1 || isa<ComputationOp>(op))
      return;
    double elements = elementsOf(op->getResult(0).getType());
    double perElement = 1;
    if (auto dot = dyn_cast<DotOp>(op)) {
      perElement = sizeProduct(
          dot.getLhs(),
          dot.getLhsContractingDims().value_or(ArrayRef<int64_t>()));
    } else if (auto conv = dyn_cast<ConvolutionOp>(op)) {
      // Each output element sums the kernel's elements of one output
      // feature.
      auto kernel = dyn_cast<RankedTensorType>(conv.getRhs().getType());
      if (kernel && kernel.hasStaticShape() && conv.getDimLabels()) {
        int64_t out = conv.getDimLabels().getKernelOutput();
        if (out >= 0 && out < kernel.getRank() && kernel.getDimSize(out) > 0)
          perElement = static_cast<double>(kernel.getNumElements()) /
                       static_cast<double>(kernel.getDimSize(out));
      }
    }
    work += elements * perElement;
  });
  return work;
}

//===----------------------------------------------------------------------===//
// The instrumentation
//===----------------------------------------------------------------------===//

namespace {

/// The outermost module around `op` (the pipeline's root).
ModuleOp topModule(Operation *op) {
  ModuleOp module;
  for (Operation *current = op; current; current = current->getParentOp())
    if (auto candidate = dyn_cast<ModuleOp>(current))
      module = candidate;
  return module;
}

std::string passName(Pass *pass) {
  StringRef argument = pass->getArgument();
  return (argument.empty() ? pass->getName() : argument).str();
}

/// `type` without layouts (the elements of tuples too): a layout is not
/// part of a parameter's value.
static Type withoutLayouts(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), tensor.getElementType());
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Type> elements;
    for (Type t : tuple.getTypes())
      elements.push_back(withoutLayouts(t));
    return TupleType::get(type.getContext(), elements);
  }
  return type;
}

/// The entry computation's parameter and result types (layouts dropped), to
/// notice a pass that changes the signature.
SmallVector<Type> entrySignature(ModuleOp module) {
  SmallVector<Type> types;
  for (auto computation : module.getOps<hlo::ComputationOp>()) {
    if (!computation.getEntry())
      continue;
    for (Type type : computation.getArgumentTypes())
      types.push_back(withoutLayouts(type));
    for (Type type : computation.getResultTypes())
      types.push_back(withoutLayouts(type));
  }
  return types;
}

class SemanticsCheckInstrumentation : public PassInstrumentation {
public:
  SemanticsCheckInstrumentation(const SemanticsCheckOptions &options,
                                std::shared_ptr<SemanticsCheckResult> result)
      : options(options), result(std::move(result)) {}

  void runBeforePipeline(std::optional<OperationName>,
                         const PipelineParentInfo &parentInfo) override {
    // A new top-level run (e.g. the next chunk of --split-input-file).
    if (!parentInfo.parentPass) {
      started = false;
      active = false;
      arguments.clear();
      baseline.clear();
      partitioned = false;
    }
  }

  void runBeforePass(Pass *pass, Operation *op) override {
    running.push_back({pass, op});
    if (started)
      return;
    started = true;
    ModuleOp module = topModule(op);
    if (!module)
      return;
    std::string error;
    double work = runtime::estimateMultiplyAdds(module);
    if (work > options.maxMultiplyAdds) {
      mlir::emitWarning(module.getLoc())
          << llvm::formatv("semantics check disabled: the module needs about "
                           "{0:e2} multiply-adds a run, over the limit of "
                           "{1:e2}",
                           work, options.maxMultiplyAdds)
                 .str();
      return;
    }
    // Parameters beyond the memory guard are not allocated at all.
    FailureOr<std::vector<Literal>> random = failure();
    if (succeeded(
            checkArgumentBytes(module, interpreterOptions(module), error)))
      random = randomArguments(module, options.seed, error);
    RunOutputs before;
    bool ran = succeeded(random) &&
               succeeded(run(module, *random, interpreterOptions(module), error,
                             &before));
    if (!ran) {
      // At the module's location (emitting on the op would print it whole).
      mlir::emitWarning(module.getLoc()) << "semantics check disabled: the interpreter "
                              "cannot run the module before the pipeline: "
                           << error;
      return;
    }
    arguments = std::move(*random);
    baseline = std::move(before.results);
    signature = entrySignature(module);
    fingerprint.emplace(module);
    active = true;
    result->checked = true;
  }

  void runAfterPassFailed(Pass *pass, Operation *) override { pop(pass); }

  void runAfterPass(Pass *pass, Operation *op) override {
    pop(pass);
    if (!active || result->failed)
      return;
    // A pass another pass runs on ops inside its own (the inliner's
    // simplification of each callable while it inlines): the module is the
    // outer pass's work in progress, checked when that pass is done. Passes
    // nested under pass-manager adaptors, and those hlo-fixed-point runs on
    // the whole module between its iterations, are checked one by one.
    if (llvm::any_of(running, [&](const std::pair<Pass *, Operation *> &outer) {
          auto [outerPass, scope] = outer;
          return !isAdaptor(outerPass) && scope != op && scope->isAncestor(op);
        }))
      return;
    ModuleOp module = topModule(op);
    if (!module)
      return;
    OperationFingerPrint now(module);
    if (fingerprint && now == *fingerprint)
      return;
    fingerprint.emplace(now);

    std::string name = passName(pass);
    SmallVector<Type> newSignature = entrySignature(module);
    InterpreterOptions devices = interpreterOptions(module);
    if (newSignature != signature || partitioned) {
      // A partitioned program: each device gets its tiles of the arguments.
      std::optional<std::vector<std::vector<Literal>>> perDevice =
          partitionArguments(module, arguments);
      if (!perDevice) {
        fail(module, name, "it changed the entry computation's signature");
        return;
      }
      devices.deviceArguments = std::move(*perDevice);
      signature = newSignature;
      partitioned = true;
    }
    ++result->runs;
    std::string error;
    RunOutputs after;
    if (failed(run(module,
                   partitioned ? ArrayRef<Literal>()
                               : ArrayRef<Literal>(arguments),
                   devices, error, &after))) {
      fail(module, name, "the interpreter cannot run the module after it: " +
                             error);
      return;
    }
    if (partitioned) {
      FailureOr<std::vector<Literal>> whole =
          assembleResults(module, after.results, baseline);
      if (failed(whole)) {
        fail(module, name,
             "its results are not tiles of the results before partitioning "
             "as the ROOT's sharding lays them out");
        return;
      }
      // One whole result per replica, against partition 0's before.
      std::vector<Literal> expected;
      for (size_t r = 0; r < whole->size(); ++r)
        expected.push_back(baseline[r * devices.numPartitions]);
      for (auto [r, now, then] : llvm::enumerate(*whole, expected)) {
        LiteralComparison comparison =
            compareLiterals(now, then, options.atol, options.rtol);
        if (!comparison.matches()) {
          fail(module, name,
               (whole->size() == 1 ? ""
                                   : llvm::formatv("replica {0}: ", r).str()) +
                   comparison.summary());
          return;
        }
      }
      return;
    }
    // Every device's result (the devices get the same arguments, their
    // results may still differ: collectives, replica and partition ids).
    if (after.results.size() != baseline.size()) {
      fail(module, name, "it changed the number of devices");
      return;
    }
    for (auto [d, now, then] : llvm::enumerate(after.results, baseline)) {
      LiteralComparison comparison =
          compareLiterals(now, then, options.atol, options.rtol);
      if (comparison.matches())
        continue;
      fail(module, name,
           (baseline.size() == 1 ? ""
                                 : llvm::formatv("replica {0}, partition {1}: ",
                                                 d / devices.numPartitions,
                                                 d % devices.numPartitions)
                                       .str()) +
               comparison.summary());
      return;
    }
  }

private:
  /// MLIR's pass-manager adaptor, which runs a nested pass manager's passes
  /// on the ops it nests on.
  static bool isAdaptor(Pass *pass) {
    return pass->getArgument().empty() &&
           pass->getName().contains("OpToOpPassAdaptor");
  }

  void pop(Pass *pass) {
    if (!running.empty() && running.back().first == pass)
      running.pop_back();
  }

  /// The module's replica and partition counts, the check's seed.
  InterpreterOptions interpreterOptions(ModuleOp module) const {
    InterpreterOptions interpreter = getModuleOptions(module);
    interpreter.seed = options.seed;
    return interpreter;
  }

  void fail(ModuleOp module, const std::string &name,
            const std::string &why) {
    result->failed = true;
    result->pass = name;
    mlir::emitError(module.getLoc()) << "semantics changed by pass '" << name
                       << "': " << why;
  }

  SemanticsCheckOptions options;
  std::shared_ptr<SemanticsCheckResult> result;
  bool started = false;
  bool active = false;
  std::vector<Literal> arguments;
  /// Every device's result before the pipeline.
  std::vector<Literal> baseline;
  SmallVector<Type> signature;
  /// A pass partitioned the program (its parameters became tiles of the
  /// arguments): each device runs on its tiles, and the results are
  /// assembled from the devices' tiles.
  bool partitioned = false;
  std::optional<OperationFingerPrint> fingerprint;
  /// The passes running now and the ops they run on, outermost first.
  SmallVector<std::pair<Pass *, Operation *>> running;
};

} // namespace

std::shared_ptr<const SemanticsCheckResult>
mlir::hlo::runtime::addSemanticsCheck(PassManager &pm,
                                      const SemanticsCheckOptions &options) {
  auto result = std::make_shared<SemanticsCheckResult>();
  pm.getContext()->disableMultithreading();
  pm.addInstrumentation(
      std::make_unique<SemanticsCheckInstrumentation>(options, result));
  return result;
}
