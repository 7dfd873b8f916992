//===- GpuPerformanceModel.cpp - XLA's GPU cost model ---------------------===//
//
// FLOPs as XLA's GpuHloCostAnalysis counts them, bytes through the indexing
// maps, coalescing from the maps' minor dimension, and the run-time
// formulas of XLA's GpuPerformanceModel(Base). docs/gpu-cost-model.md
// states every formula and where it comes from.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/GpuPerformanceModel.h"
#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"

#include "Hlo/Analysis/IndexingAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "IndexingAnalysisImpl.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::hlo;

// XLA's GpuPerformanceModelBase constants.
static constexpr double kL2CacheSpeedup = 2.5;
static constexpr double kL1CacheSpeedup = 8;
// XLA's fallback launch dimensions: 128 threads per block, one thread per
// output element.
static constexpr int64_t kThreadsPerBlock = 128;
// A reduction kernel: one warp per output element (at most one thread per
// input element).
static constexpr int64_t kThreadsPerReducedElement = 32;
// XLA's tiled transpose emitter, roughly: both minor dimensions at least 16
// and the transposed plane at least 64 x 128 elements.
static constexpr int64_t kMinTransposeDim = 16;
static constexpr int64_t kMinTransposePlane = 64 * 128;
// GpuHloCostAnalysis: elementwise ops with no measured profile cost 3
// cycles per element; a concatenate 6 (compare and branch).
static constexpr int64_t kDefaultFlopsPerElement = 3;
static constexpr int64_t kConcatenateFlopsPerElement = 6;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static double numElements(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    double n = 0;
    for (Type t : tuple.getTypes())
      n += numElements(t);
    return n;
  }
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped)
    return 0;
  double n = 1;
  for (int64_t d : shaped.getShape())
    n *= ShapedType::isDynamic(d) ? 1 : double(d);
  return n;
}

static int64_t elementSizeInBytes(Type element) {
  if (auto complex = dyn_cast<ComplexType>(element))
    return 2 * elementSizeInBytes(complex.getElementType());
  if (element.isIntOrFloat())
    return std::max<int64_t>(1, (element.getIntOrFloatBitWidth() + 7) / 8);
  return 0;
}

int64_t mlir::hlo::getTypeSizeInBytes(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    int64_t n = 0;
    for (Type t : tuple.getTypes())
      n += getTypeSizeInBytes(t);
    return n;
  }
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped)
    return 0;
  return int64_t(numElements(type)) *
         elementSizeInBytes(shaped.getElementType());
}

/// The element type of the first array in `type`, or null.
static Type firstElementType(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    for (Type t : tuple.getTypes())
      if (Type e = firstElementType(t))
        return e;
    return {};
  }
  if (auto shaped = dyn_cast<RankedTensorType>(type))
    return shaped.getElementType();
  return {};
}

static double resultElements(Operation *op) {
  double n = 0;
  for (Type t : op->getResultTypes())
    n += numElements(t);
  return n;
}

static int64_t resultBytes(Operation *op) {
  // A cuBLAS/cuDNN/cuSOLVER call returns (result..., s8/u8 scratch): the
  // library uses what it needs of the scratch buffer, it does not write it.
  if (auto call = dyn_cast<CustomCallOp>(op)) {
    auto tuple = op->getNumResults() == 1
                     ? dyn_cast<TupleType>(op->getResult(0).getType())
                     : TupleType();
    StringRef target = call.getCustomCallTarget();
    if (tuple && tuple.size() > 1 &&
        (target.starts_with("__cublas") || target.starts_with("__cudnn") ||
         target.starts_with("__cusolver"))) {
      int64_t n = 0;
      for (Type t : tuple.getTypes().drop_back())
        n += getTypeSizeInBytes(t);
      return n;
    }
  }
  int64_t n = 0;
  for (Type t : op->getResultTypes())
    n += getTypeSizeInBytes(t);
  return n;
}

//===----------------------------------------------------------------------===//
// Op classes
//===----------------------------------------------------------------------===//

/// Instructions that launch no kernel.
static bool isNoKernel(Operation *op) {
  return isa<ConstantOp, TupleOp, GetTupleElementOp, BitcastOp, ReturnOp>(op) ||
         op->getNumResults() == 0;
}

/// Ops whose operands the reading kernel walks elementwise (XLA keeps their
/// "elementwise use roots" together).
static bool isElementwiseLike(Operation *op) {
  return indexing::isElementwise(op) || isa<TupleOp, GetTupleElementOp>(op);
}

/// A cuBLAS GEMM or cuDNN convolution call.
static bool isLibraryContraction(Operation *op) {
  auto call = dyn_cast<CustomCallOp>(op);
  if (!call)
    return false;
  StringRef target = call.getCustomCallTarget();
  return target.starts_with("__cublas$gemm") ||
         target.starts_with("__cublas$lt$matmul") ||
         target.starts_with("__cudnn$conv");
}

/// Dot and convolution are tiled: each operand element is fetched once.
static bool isTiledContraction(Operation *op) {
  return isa<DotOp, ConvolutionOp>(op) || isLibraryContraction(op);
}

/// The FLOPs of a cuBLAS GEMM (its dot, from gemm_backend_config) or a
/// cuDNN convolution (2 * output activation elements * filter elements
/// per output feature; the output activation is the result of a forward
/// call, operand 0 of a backward-input and operand 1 of a backward-filter
/// call, whose result is the filter), as XLA's GpuHloCostAnalysis counts
/// the dot or convolution the call stands for.
static double libraryFlops(CustomCallOp call) {
  auto array = [](Type t) -> RankedTensorType {
    if (auto tuple = dyn_cast<TupleType>(t))
      t = tuple.size() ? tuple.getType(0) : Type();
    auto ranked = dyn_cast_or_null<RankedTensorType>(t);
    return ranked && ranked.hasStaticShape() ? ranked : RankedTensorType();
  };
  RankedTensorType result = array(call->getResult(0).getType());
  if (!result || call->getNumOperands() < 2)
    return 0;
  StringRef target = call.getCustomCallTarget();
  if (target.starts_with("__cublas")) {
    BackendConfigAttr gemm;
    if (BackendConfigAttr config = readBackendConfig(call))
      gemm = config.getGemmBackendConfig();
    BackendConfigAttr dims =
        gemm ? gemm.getSubConfig("dot_dimension_numbers") : nullptr;
    RankedTensorType lhs = array(call->getOperand(0).getType());
    if (!lhs || !dims)
      return 0;
    double contracted = 1;
    for (int64_t d : dims.getInts("lhs_contracting_dimensions")
                         .value_or(ArrayRef<int64_t>()))
      if (d >= 0 && d < lhs.getRank())
        contracted *= double(lhs.getDimSize(d));
    return 2 * numElements(result) * contracted;
  }
  std::optional<ConvDimensionNumbersAttr> labels = call.getDimLabels();
  if (!labels)
    return 0;
  bool backwardFilter = target == "__cudnn$convBackwardFilter";
  RankedTensorType output = target == "__cudnn$convBackwardInput"
                                ? array(call->getOperand(0).getType())
                            : backwardFilter
                                ? array(call->getOperand(1).getType())
                                : result;
  RankedTensorType filter =
      backwardFilter ? result : array(call->getOperand(1).getType());
  int64_t o = labels->getKernelOutput();
  if (!output || !filter || o < 0 || o >= filter.getRank() ||
      filter.getDimSize(o) == 0)
    return 0;
  return 2 * numElements(output) *
         (numElements(filter) / double(filter.getDimSize(o)));
}

namespace {
/// Makes a model's symbol tables the active ones (for this model's lookups
/// and the indexing analysis's) for one public call.
struct SymbolTablesScope {
  explicit SymbolTablesScope(SymbolTableCollection *tables)
      : saved(indexing::activeSymbolTables()) {
    if (tables)
      indexing::activeSymbolTables() = tables;
  }
  ~SymbolTablesScope() { indexing::activeSymbolTables() = saved; }
  SymbolTableCollection *saved;
};
} // namespace

static Operation *lookupComputation(Operation *op, StringRef attrName) {
  auto ref = op->getAttrOfType<FlatSymbolRefAttr>(attrName);
  if (!ref)
    return nullptr;
  Operation *callee = indexing::lookupCallee(op, ref);
  return isa_and_nonnull<ComputationOp>(callee) ? callee : nullptr;
}

/// The fused computation's body, or null.
static Block *fusedBody(Operation *op) {
  auto fusion = dyn_cast<FusionOp>(op);
  if (!fusion)
    return nullptr;
  auto comp = dyn_cast_or_null<ComputationOp>(lookupComputation(op, "calls"));
  if (!comp || comp.getBody().empty())
    return nullptr;
  Block &body = comp.getBody().front();
  if (body.getNumArguments() != getDataOperands(op).size())
    return nullptr;
  return &body;
}

/// The root instruction of a fusion (through a root tuple's first element),
/// or the op itself.
static Operation *heroOf(Operation *op) {
  Block *body = fusedBody(op);
  if (!body)
    return op;
  Operation *terminator = body->getTerminator();
  if (!terminator || terminator->getNumOperands() == 0)
    return op;
  Operation *root = terminator->getOperand(0).getDefiningOp();
  if (auto tuple = dyn_cast_or_null<TupleOp>(root))
    root = tuple->getNumOperands() ? tuple->getOperand(0).getDefiningOp()
                                   : nullptr;
  return root ? root : op;
}

/// A generic Triton fusion (XLA's IsGenericTritonFusion): kCustom with
/// fusion_backend_config.kind `__triton`, made by the softmax rewriter and
/// priority fusion. Its kernel computes one row tile per block.
static bool isTritonFusion(Operation *op) {
  auto fusion = dyn_cast<FusionOp>(op);
  if (!fusion || fusion.getKind() != FusionKind::kCustom)
    return false;
  auto config = readBackendConfig(fusion);
  std::optional<StringRef> kind =
      config ? config.getFusionKind() : std::nullopt;
  return kind && *kind == "__triton";
}

/// A kernel doing matrix work: a dot or convolution, or a fusion with one.
static Operation *findContraction(Operation *op) {
  if (isTiledContraction(op))
    return op;
  if (Block *body = fusedBody(op))
    for (Operation &inner : body->without_terminator())
      if (isTiledContraction(&inner))
        return &inner;
  return nullptr;
}

/// XLA's tiled transpose emitter reads through shared memory: coalesced.
static bool isTiledTransposeKernel(Operation *op) {
  auto transpose = dyn_cast<TransposeOp>(heroOf(op));
  if (!transpose)
    return false;
  ArrayRef<int64_t> perm = transpose.getDimensions();
  auto outType = dyn_cast<RankedTensorType>(transpose->getResult(0).getType());
  auto inType =
      dyn_cast<RankedTensorType>(getDataOperands(transpose)[0].getType());
  if (!outType || !inType || perm.empty() || !outType.hasStaticShape() ||
      !inType.hasStaticShape())
    return false;
  int64_t rank = perm.size();
  if (perm[rank - 1] == rank - 1)
    return false; // The minor dimension stays: a plain copy.
  int64_t outMinor = outType.getShape()[rank - 1];
  int64_t inMinor = inType.getShape()[rank - 1];
  return outMinor >= kMinTransposeDim && inMinor >= kMinTransposeDim &&
         outMinor * inMinor >= kMinTransposePlane;
}

//===----------------------------------------------------------------------===//
// FLOPs
//===----------------------------------------------------------------------===//

/// Clock cycles per element of an elementwise op: XLA's measured profile for
/// sm_90 (hlo_op_profiles_data.h), by opcode and element type class; ops
/// not measured cost kDefaultFlopsPerElement.
static int64_t flopsPerElement(StringRef opcode, Type element) {
  bool isFloat = isa<FloatType>(element) || isa<ComplexType>(element);
  unsigned width =
      element && element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 32;
  if (isFloat && width == 64)
    return llvm::StringSwitch<int64_t>(opcode)
        .Cases({"add", "subtract", "multiply"}, 15)
        .Case("divide", 526)
        .Case("power", 2205)
        .Case("atan2", 930)
        .Case("exponential", 376)
        .Case("exponential-minus-one", 712)
        .Case("log", 815)
        .Case("log-plus-one", 1259)
        .Case("rsqrt", 277)
        .Case("sqrt", 332)
        .Case("sine", 554)
        .Case("cosine", 558)
        .Case("tanh", 431)
        .Case("cbrt", 586)
        .Default(kDefaultFlopsPerElement);
  if (isFloat)
    return llvm::StringSwitch<int64_t>(opcode)
        .Cases({"add", "subtract"}, 7)
        .Case("multiply", 3)
        .Case("divide", 19)
        .Case("power", 510)
        .Case("atan2", 431)
        .Case("exponential", 79)
        .Case("exponential-minus-one", 190)
        .Case("log", 166)
        .Case("log-plus-one", 229)
        .Case("rsqrt", 75)
        .Case("sqrt", 75)
        .Case("sine", 958)
        .Case("cosine", 978)
        .Case("tanh", 467)
        .Case("cbrt", 178)
        .Default(kDefaultFlopsPerElement);
  if (width == 64)
    return llvm::StringSwitch<int64_t>(opcode)
        .Case("multiply", 11)
        .Case("divide", 685)
        .Case("power", 253)
        .Default(kDefaultFlopsPerElement);
  return llvm::StringSwitch<int64_t>(opcode)
      .Case("multiply", 3)
      .Case("divide", 297)
      .Case("power", 71)
      .Default(kDefaultFlopsPerElement);
}

/// The number of (output point, operand element) pairs `map` relates: its
/// dimension and range variable domain (constraints not counted).
static double mapPoints(const IndexingMap &map) {
  double n = 1;
  for (const Interval &i : map.getDimBounds())
    n *= std::max<int64_t>(0, i.upper - i.lower + 1);
  for (const Interval &i : map.getRangeVarBounds())
    n *= std::max<int64_t>(0, i.upper - i.lower + 1);
  return n;
}

/// The output-to-input indexing of every output of `op`.
static SmallVector<InstructionIndexing> outputIndexings(Operation *op) {
  SmallVector<InstructionIndexing> result;
  unsigned numOutputs = getNumIndexingOutputs(op);
  for (unsigned k = 0; k < numOutputs; ++k)
    result.push_back(computeOutputToInputIndexing(op, k));
  return result;
}

static bool isMapCoalesced(const IndexingMap &map,
                           ArrayRef<int64_t> operandShape);

/// How many operand elements `op` reads from operand `i`, all outputs
/// together, from its output-to-input maps; unknown maps: the operand once.
static double operandReads(Operation *op, unsigned i,
                           ArrayRef<InstructionIndexing> indexings) {
  Value operand = getDataOperands(op)[i];
  double size = numElements(operand.getType());
  if (isTiledContraction(op))
    return size;
  double reads = 0;
  for (const InstructionIndexing &indexing : indexings) {
    if (i >= indexing.indexing.size())
      return size;
    const OperandIndexing &maps = indexing.indexing[i];
    if (maps.isUnknown())
      return size;
    for (const IndexingMap &map : maps.maps)
      reads += mapPoints(map);
  }
  return reads;
}

/// Whether every read of operand `i` coalesces (isMapCoalesced below).
static bool isReadCoalesced(Operation *op, unsigned i,
                            ArrayRef<InstructionIndexing> indexings) {
  if (isTiledTransposeKernel(op) || isTiledContraction(op))
    return true;
  auto type = dyn_cast<RankedTensorType>(getDataOperands(op)[i].getType());
  if (!type || !type.hasStaticShape())
    return true;
  for (const InstructionIndexing &indexing : indexings) {
    if (i >= indexing.indexing.size())
      return true;
    const OperandIndexing &maps = indexing.indexing[i];
    if (maps.isUnknown())
      continue;
    for (const IndexingMap &map : maps.maps)
      if (!isMapCoalesced(map, type.getShape()))
        return false;
  }
  return true;
}

/// The reads and coalescing of every operand of `op`, its indexing computed
/// once.
static GpuPerformanceModel::OperandAccess computeAccess(Operation *op) {
  SmallVector<InstructionIndexing> indexings = outputIndexings(op);
  GpuPerformanceModel::OperandAccess access;
  for (unsigned i = 0, e = getDataOperands(op).size(); i < e; ++i) {
    access.reads.push_back(operandReads(op, i, indexings));
    access.coalesced.push_back(isReadCoalesced(op, i, indexings));
  }
  return access;
}

const GpuPerformanceModel::OperandAccess &
GpuPerformanceModel::getOperandAccess(Operation *op) {
  // An instruction's maps depend on its opcode, attributes (properties) and
  // types only, so the cache is keyed by them: instructions of the same
  // shape share an entry and erased ones leave nothing stale. Instructions
  // that call a computation are indexed through it and not cached.
  if (isa<FusionOp, CallOp, AsyncStartOp>(op)) {
    uncachedAccess = computeAccess(op);
    return uncachedAccess;
  }
  SmallVector<const void *, 8> key;
  key.push_back(op->getName().getAsOpaquePointer());
  key.push_back(op->getRawDictionaryAttrs().getAsOpaquePointer());
  key.push_back(op->getPropertiesAsAttribute().getAsOpaquePointer());
  for (Type t : op->getResultTypes())
    key.push_back(t.getAsOpaquePointer());
  key.push_back(nullptr);
  for (Value v : getDataOperands(op))
    key.push_back(v.getType().getAsOpaquePointer());
  if (auto it = accessCache.find(key); it != accessCache.end())
    return it->second;
  auto *stored = keyStorage.Allocate<const void *>(key.size());
  llvm::copy(key, stored);
  return accessCache[ArrayRef<const void *>(stored, key.size())] =
             computeAccess(op);
}

double GpuPerformanceModel::getOperandUtilization(Operation *op,
                                                  unsigned operandIndex) {
  SymbolTablesScope scope(symbolTables);
  Value operand = getDataOperands(op)[operandIndex];
  double size = numElements(operand.getType());
  if (size == 0)
    return 0;
  return getOperandAccess(op).reads[operandIndex] / size;
}

/// The FLOPs of one instruction, not a fusion.
static double
instructionFlops(Operation *op,
                 llvm::function_ref<double(Operation *)> compFlops) {
  Type element = firstElementType(
      op->getNumResults() ? op->getResult(0).getType() : Type());
  double elements = resultElements(op);
  if (auto map = dyn_cast<MapOp>(op)) {
    Operation *comp = lookupComputation(op, "to_apply");
    return comp ? elements * compFlops(comp) : 0;
  }
  if (indexing::isElementwise(op))
    return elements * double(flopsPerElement(getOpcode(op), element));
  if (isa<ConcatenateOp>(op))
    return elements * kConcatenateFlopsPerElement;
  if (auto dot = dyn_cast<DotOp>(op)) {
    // 2 * (output elements) * (product of the contracting dimensions).
    auto lhs = dyn_cast<RankedTensorType>(dot.getLhs().getType());
    double contracted = 1;
    std::optional<ArrayRef<int64_t>> contracting = dot.getLhsContractingDims();
    if (lhs && contracting)
      for (int64_t d : *contracting)
        if (d >= 0 && d < lhs.getRank() && !lhs.isDynamicDim(d))
          contracted *= double(lhs.getDimSize(d));
    return 2 * elements * contracted;
  }
  if (isLibraryContraction(op))
    return libraryFlops(cast<CustomCallOp>(op));
  if (auto conv = dyn_cast<ConvolutionOp>(op)) {
    // 2 * (output elements) * (kernel elements per output feature): every
    // window position counted, padding included.
    auto rhs = dyn_cast<RankedTensorType>(conv.getRhs().getType());
    if (!rhs || !rhs.hasStaticShape())
      return 0;
    int64_t kernelOutput = conv.getDimLabels().getKernelOutput();
    if (kernelOutput < 0 || kernelOutput >= rhs.getRank() ||
        rhs.getDimSize(kernelOutput) == 0)
      return 0;
    double perOutput = numElements(rhs) / double(rhs.getDimSize(kernelOutput));
    return 2 * elements * perOutput;
  }
  if (isa<ReduceOp, ReduceWindowOp>(op)) {
    // The reducer runs once per input element beyond the first of each
    // output element (XLA: reduction count times the reducer's FLOPs).
    Operation *comp = lookupComputation(op, "to_apply");
    if (!comp || getDataOperands(op).empty())
      return 0;
    unsigned numOutputs = getNumIndexingOutputs(op);
    double outputElements = elements / std::max(1u, numOutputs);
    double applications =
        std::max(0.0, operandReads(op, 0, outputIndexings(op)) / numOutputs -
                         outputElements);
    return applications * compFlops(comp);
  }
  return 0;
}

double GpuPerformanceModel::computationFlops(Operation *computation) {
  auto [it, inserted] = computationFlopsCache.try_emplace(computation, 0.0);
  if (!inserted)
    return it->second;
  auto comp = cast<ComputationOp>(computation);
  double flops = 0;
  if (!comp.getBody().empty())
    for (Operation &op : comp.getBody().front().without_terminator())
      flops += instructionFlops(
          &op, [&](Operation *c) { return computationFlops(c); });
  computationFlopsCache[computation] = flops;
  return flops;
}

/// XLA's FusionCalculateUtilizations: from the root backwards, how many
/// times each fused value is computed (or each parameter element read):
/// through elementwise users the largest use counts (the kernel computes a
/// value once per output element), other users add up.
void GpuPerformanceModel::fusionUtilizations(
    Operation *fusion, llvm::DenseMap<Value, double> &utilization,
    double &flops, bool computeOnce) {
  flops = 0;
  Block *body = fusedBody(fusion);
  if (!body)
    return;
  llvm::DenseMap<Value, double> elementwise, other;
  auto finish = [&](Value v) {
    utilization[v] = elementwise.lookup(v) + other.lookup(v);
  };
  Operation *terminator = body->getTerminator();
  for (Value root : terminator->getOperands())
    elementwise[root] = std::max(elementwise.lookup(root), 1.0);
  for (Operation &op : llvm::reverse(body->without_terminator())) {
    if (op.getNumResults() == 0)
      continue;
    for (Value result : op.getResults())
      finish(result);
    double u = utilization.lookup(op.getResult(0));
    if (u == 0)
      continue;
    if (fusedBody(&op)) {
      double inner = 0;
      llvm::DenseMap<Value, double> innerUtil;
      fusionUtilizations(&op, innerUtil, inner);
      flops += u * inner;
    } else {
      flops += u * instructionFlops(
                       &op, [&](Operation *c) { return computationFlops(c); });
    }
    bool ew = computeOnce || isElementwiseLike(&op);
    for (auto [i, operand] : llvm::enumerate(getDataOperands(&op))) {
      double c = u * getOperandUtilization(&op, i);
      // A Triton tile computes each of its values once, whatever reads it:
      // a reduce or a broadcast reads its operand's elements once per
      // output tile (a row), which the block keeps.
      if (computeOnce)
        c = std::min(c, std::max(1.0, u));
      if (ew)
        elementwise[operand] = std::max(elementwise.lookup(operand), c);
      else
        other[operand] += c;
    }
  }
  for (Value arg : body->getArguments())
    finish(arg);
}

int64_t GpuPerformanceModel::getFlops(Operation *op) {
  SymbolTablesScope scope(symbolTables);
  if (fusedBody(op)) {
    llvm::DenseMap<Value, double> utilization;
    double flops = 0;
    fusionUtilizations(op, utilization, flops);
    return std::llround(flops);
  }
  return std::llround(
      instructionFlops(op, [&](Operation *c) { return computationFlops(c); }));
}

//===----------------------------------------------------------------------===//
// Coalescing
//===----------------------------------------------------------------------===//

/// Whether the reads `map` describes coalesce: consecutive threads (the
/// innermost non-trivial output dimension, or a range variable walking the
/// operand's minor dimension, as reductions and dots do) touch consecutive
/// elements of the operand's minor dimension, or all the same element.
static bool isMapCoalesced(const IndexingMap &map,
                           ArrayRef<int64_t> operandShape) {
  AffineMap affine = map.getAffineMap();
  if (affine.getNumResults() != operandShape.size())
    return true;
  int minorResult = -1;
  for (int r = int(operandShape.size()) - 1; r >= 0; --r)
    if (operandShape[r] != 1) {
      minorResult = r;
      break;
    }
  if (minorResult < 0)
    return true;
  AffineExpr minor = affine.getResult(minorResult);
  for (unsigned s = 0; s < map.getNumRangeVars(); ++s)
    if (minor.isFunctionOfSymbol(s))
      return true;
  int threadDim = -1;
  ArrayRef<Interval> dims = map.getDimBounds();
  for (int d = int(dims.size()) - 1; d >= 0; --d)
    if (dims[d].upper > dims[d].lower) {
      threadDim = d;
      break;
    }
  if (threadDim < 0)
    return true;
  MLIRContext *ctx = affine.getContext();
  auto evaluate = [&](int64_t value) -> std::optional<int64_t> {
    SmallVector<AffineExpr> dimValues, symValues;
    for (unsigned d = 0; d < affine.getNumDims(); ++d)
      dimValues.push_back(getAffineConstantExpr(
          int(d) == threadDim ? dims[d].lower + value : dims[d].lower, ctx));
    for (unsigned s = 0; s < affine.getNumSymbols(); ++s)
      symValues.push_back(getAffineConstantExpr(0, ctx));
    AffineExpr e = minor.replaceDimsAndSymbols(dimValues, symValues);
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return c.getValue();
    return std::nullopt;
  };
  std::optional<int64_t> at0 = evaluate(0), at1 = evaluate(1);
  if (!at0 || !at1)
    return true;
  int64_t stride = *at1 - *at0;
  if (stride == 1 || stride == -1)
    return true;
  if (stride != 0)
    return false;
  // The minor index does not move with the thread: coalesced (a broadcast
  // read) unless another index does (a transposed read).
  for (unsigned r = 0; r < affine.getNumResults(); ++r)
    if (int(r) != minorResult && operandShape[r] != 1 &&
        affine.getResult(r).isFunctionOfDim(threadDim))
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// Times
//===----------------------------------------------------------------------===//

double GpuPerformanceModel::combineUs(double computeUs, double memoryUs) const {
  return computeUs + memoryUs -
         std::min(computeUs, memoryUs) * options.memoryComputeParallelism;
}

double GpuPerformanceModel::readTimeUs(int64_t numBlocks, int64_t bytesNet,
                                       int64_t bytesTotal, Type elementType,
                                       bool coalesced) const {
  // An uncoalesced read uses one element of each DRAM->L2 transaction.
  double utilization = 1.0;
  if (!coalesced) {
    int64_t elementBytes = elementType ? elementSizeInBytes(elementType) : 4;
    if (elementBytes == 0)
      elementBytes = 4;
    utilization =
        std::min(1.0, double(elementBytes) /
                          double(device.dramToL2TransactionSizeBytes()));
  }
  double bandwidth = double(device.memoryBandwidth);
  double dramBandwidth = bandwidth * utilization;
  // Re-reads hit L2 (and L1) when the buffer fits there.
  double restBandwidth = bandwidth;
  if (bytesNet < device.l2CacheSize) {
    restBandwidth *= kL2CacheSpeedup;
    if (bytesNet < device.l1CacheSizePerCore() * device.coreCount)
      restBandwidth *= kL1CacheSpeedup;
  } else {
    restBandwidth *= utilization;
  }
  // An SM issues at most memoryTransactionsPerClock bytes per clock.
  double perBlock =
      device.clockRateGhz * 1e9 * double(device.memoryTransactionsPerClock());
  double cap = double(std::max<int64_t>(1, numBlocks)) * perBlock;
  dramBandwidth = std::min(dramBandwidth, cap);
  restBandwidth = std::min(restBandwidth, cap);
  int64_t fromDram = std::min(bytesNet, bytesTotal);
  int64_t fromCache = bytesTotal - fromDram;
  return (double(fromDram) / dramBandwidth +
          double(fromCache) / restBandwidth) *
         1e6;
}

double GpuPerformanceModel::computeTimeUs(Operation *op, int64_t flops,
                                          int64_t numBlocks,
                                          int64_t threadsPerBlock) {
  if (flops <= 0)
    return 0;
  double flopsPerNs = 0;
  if (Operation *contraction = findContraction(op)) {
    // Tensor cores at their peak for the operands' element type.
    Type element = firstElementType(getDataOperands(contraction)[0].getType());
    if (std::optional<ExecutionUnitRate> rate =
            element ? device.getMatrixRate(element) : std::nullopt)
      flopsPerNs = rate->peakFlopsPerNs(device.coreCount);
    else if (std::optional<ExecutionUnitRate> rate =
                 element ? device.getScalarRate(element) : std::nullopt)
      flopsPerNs = rate->peakFlopsPerNs(device.coreCount);
    else
      flopsPerNs = device.clockRateGhz * 2 *
                   double(device.fpusPerCore * device.coreCount);
  } else {
    // XLA's CalculateEffectiveFlopsPerNs: the active units of the active
    // SMs, with the unit count and issue rate of the output's element type.
    Type element = op->getNumResults()
                       ? firstElementType(op->getResult(0).getType())
                       : Type();
    double clock = device.clockRateGhz;
    int64_t units = device.fpusPerCore;
    int64_t opsPerClock = 1;
    if (std::optional<ExecutionUnitRate> rate =
            element ? device.getScalarRate(element) : std::nullopt) {
      clock = rate->clockRateGhz;
      units = rate->unitsPerCore;
      opsPerClock = rate->opsPerClock;
    }
    int64_t activeUnits = std::min(threadsPerBlock, units);
    int64_t activeCores = std::min(numBlocks, device.coreCount);
    flopsPerNs = clock * 2 * double(opsPerClock) *
                 double(std::max<int64_t>(1, activeUnits)) *
                 double(std::max<int64_t>(1, activeCores));
  }
  if (flopsPerNs <= 0)
    return 0;
  return double(flops) / flopsPerNs * 1e-3;
}

/// The distinct data operands of `op`, in order of first use.
static SmallVector<Value> distinctOperands(Operation *op) {
  llvm::SetVector<Value> set;
  for (Value v : getDataOperands(op))
    set.insert(v);
  return SmallVector<Value>(set.begin(), set.end());
}

const EstimateRunTimeData &GpuPerformanceModel::estimateRunTime(Operation *op) {
  SymbolTablesScope scope(symbolTables);
  if (auto it = cache.find(op); it != cache.end())
    return it->second;
  EstimateRunTimeData data;
  if (isNoKernel(op)) {
    data.isKernel = false;
    return cache[op] = data;
  }
  data.bytesWritten = resultBytes(op);

  // Launch dimensions.
  double threads = resultElements(op);
  Operation *hero = heroOf(op);
  if (isa<ReduceOp>(hero) && !getDataOperands(hero).empty())
    threads = std::min(threads * kThreadsPerReducedElement,
                       numElements(getDataOperands(hero)[0].getType()));
  data.numThreadsPerBlock = kThreadsPerBlock;
  data.numBlocks = std::max<int64_t>(
      1, int64_t(std::ceil(threads / double(kThreadsPerBlock))));
  bool triton = isTritonFusion(op);
  if (triton) {
    // One block per output tile, num_warps warps (its block-level config).
    auto config = readBackendConfig(op);
    int64_t warps = 1, tileElements = 1;
    if (BackendConfigAttr level = config.getBlockLevelFusionConfig()) {
      warps = std::max<int64_t>(1, level.getInt("num_warps").value_or(1));
      SmallVector<SmallVector<int64_t>> tiles = level.getOutputTiles();
      if (!tiles.empty())
        for (int64_t s : tiles.front())
          tileElements *= std::max<int64_t>(1, s);
    }
    data.numThreadsPerBlock = warps * 32;
    data.numBlocks = std::max<int64_t>(
        1, int64_t(std::ceil(resultElements(op) / double(tileElements))));
  }

  // Reads: utilization of every distinct operand.
  llvm::DenseMap<Value, double> fusedUtil;
  Block *body = fusedBody(op);
  if (body) {
    double flops = 0;
    fusionUtilizations(op, fusedUtil, flops, triton);
    data.flops = std::llround(flops);
  } else {
    data.flops = getFlops(op);
  }
  // Copied: the cached entry may move when the model computes more.
  OperandAccess access = getOperandAccess(op);
  OperandRange operands = getDataOperands(op);
  for (Value operand : distinctOperands(op)) {
    double util = 0;
    bool coalesced = true;
    bool ew = isElementwiseLike(op);
    for (auto [i, v] : llvm::enumerate(operands)) {
      if (v != operand)
        continue;
      double size = numElements(v.getType());
      double u = body ? fusedUtil.lookup(body->getArgument(i))
                 : size == 0 ? 0
                             : access.reads[i] / size;
      util = ew ? std::max(util, u) : util + u;
      coalesced = coalesced && access.coalesced[i];
    }
    int64_t size = getTypeSizeInBytes(operand.getType());
    OperandRead read;
    read.operand = operand;
    read.bytesTotal = std::llround(util * double(size));
    read.bytesNet = std::min(size, read.bytesTotal);
    read.coalesced = coalesced;
    data.bytesRead += read.bytesTotal;
    data.readUs += readTimeUs(data.numBlocks, read.bytesNet, read.bytesTotal,
                              firstElementType(operand.getType()), coalesced);
    data.reads.push_back(read);
  }
  data.writeUs =
      double(data.bytesWritten) / double(device.memoryBandwidth) * 1e6;
  data.computeUs =
      computeTimeUs(op, data.flops, data.numBlocks, data.numThreadsPerBlock);
  data.execUs = combineUs(data.computeUs, data.memoryUs());
  data.totalUs = data.execUs + device.kernelLaunchOverheadUs;
  return cache[op] = std::move(data);
}

//===----------------------------------------------------------------------===//
// Fusion decisions
//===----------------------------------------------------------------------===//

static const OperandRead *findRead(const EstimateRunTimeData &data, Value v) {
  for (const OperandRead &read : data.reads)
    if (read.operand == v)
      return &read;
  return nullptr;
}

double GpuPerformanceModel::estimateFusedRunTimeUs(Operation *producer,
                                                   Operation *consumer) {
  SymbolTablesScope scope(symbolTables);
  const EstimateRunTimeData producerData = estimateRunTime(producer);
  const EstimateRunTimeData consumerData = estimateRunTime(consumer);
  Value produced = producer->getNumResults() ? producer->getResult(0) : Value();
  const OperandRead *producedRead = findRead(consumerData, produced);
  int64_t producedSize = produced ? getTypeSizeInBytes(produced.getType()) : 0;
  // How many times the fused kernel computes each producer element.
  double utilization =
      producedRead && producedSize
          ? double(producedRead->bytesTotal) / double(producedSize)
          : 0;
  // A Triton fusion computes each value of its tile once and keeps it (as
  // the time of a Triton fusion itself counts it): fused into or with one,
  // the producer is computed once per element however often it is read.
  if (isTritonFusion(producer) || isTritonFusion(consumer))
    utilization = std::min(utilization, 1.0);
  int64_t flops = std::llround(double(producerData.flops) * utilization) +
                  consumerData.flops;
  double computeUs = computeTimeUs(consumer, flops, consumerData.numBlocks,
                                   consumerData.numThreadsPerBlock);

  llvm::SetVector<Value> operands;
  for (Value v : distinctOperands(producer))
    operands.insert(v);
  for (Value v : distinctOperands(consumer))
    if (v != produced)
      operands.insert(v);
  bool bothElementwise =
      indexing::isElementwise(producer) && indexing::isElementwise(consumer);
  double readUs = 0;
  for (Value operand : operands) {
    const OperandRead *byProducer = findRead(producerData, operand);
    const OperandRead *byConsumer = findRead(consumerData, operand);
    int64_t size = getTypeSizeInBytes(operand.getType());
    int64_t total = 0;
    if (byProducer)
      total += std::llround(double(byProducer->bytesTotal) * utilization);
    if (byConsumer)
      total += byConsumer->bytesTotal;
    // XLA's common utilization: both elementwise read it at the same index.
    if (byProducer && byConsumer && bothElementwise)
      total -= size;
    total = std::max<int64_t>(0, total);
    int64_t net = std::min(size, total);
    bool coalesced =
        (!byProducer || (byProducer->coalesced &&
                         (!producedRead || producedRead->coalesced))) &&
        (!byConsumer || byConsumer->coalesced);
    readUs += readTimeUs(consumerData.numBlocks, net, total,
                         firstElementType(operand.getType()), coalesced);
  }
  return combineUs(computeUs, readUs + consumerData.writeUs);
}

FusionRunTimes GpuPerformanceModel::estimateFusionBenefit(
    Operation *producer, ArrayRef<Operation *> consumers, bool multiOutput) {
  SymbolTablesScope scope(symbolTables);
  double launch = device.kernelLaunchOverheadUs;
  const EstimateRunTimeData producerData = estimateRunTime(producer);
  FusionRunTimes times;
  times.unfusedUs = launch * double(consumers.size() + 1) + producerData.execUs;
  times.fusedUs = launch * double(consumers.size());
  for (Operation *consumer : consumers) {
    times.unfusedUs += estimateRunTime(consumer).execUs;
    times.fusedUs += estimateFusedRunTimeUs(producer, consumer);
  }
  if (multiOutput)
    times.fusedUs += producerData.writeUs;
  return times;
}

void GpuPerformanceModel::invalidate(Operation *op) {
  SymbolTablesScope scope(symbolTables);
  cache.erase(op);
  if (isa<FusionOp>(op))
    if (Operation *comp = lookupComputation(op, "calls"))
      computationFlopsCache.erase(comp);
}
