//===- LoopEmitter.cpp - loop fusions to gpu.func kernels -----------------===//
//
// XLA's loop emitter: one thread per element of the fusion's output, in the
// output's physical order (consecutive threads write consecutive bytes).
// Each element is generated from the root back to the parameters: an
// instruction's operand elements are found through the instruction's
// output-to-input indexing map (IndexingAnalysis.h), expanded into `arith`
// on `index` values; range variables (a reduce fused as a loop) become
// `scf.for` loops, runtime variables (dynamic-slice offsets) are loaded and
// clamped to their feasible values, and constraints (pad, concatenate)
// guard the loads with `scf.if`. Element values come from the scalar
// lowering. Every (value, index) pair is generated once per region.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Conversion/FusionEmitter.h"
#include "Hlo/Conversion/ScalarLowering.h"

#include "Hlo/Analysis/IndexingAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>

using namespace mlir;
using namespace mlir::hlo;

// The elementwise predicate of the indexing analysis.
namespace mlir::hlo::indexing {
bool isElementwise(Operation *op);
} // namespace mlir::hlo::indexing

MemRefType mlir::hlo::getKernelBufferType(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return MemRefType::get({tensor.getNumElements()},
                         getScalarType(tensor.getElementType()));
}

namespace {

/// Data movement: the result element is the operand element its indexing
/// map names (or the padding value / another operand where a constraint
/// fails).
bool isDataMovement(Operation *op) {
  return isa<CopyOp, BitcastOp, ReshapeOp, BroadcastOp, TransposeOp, SliceOp,
             ReverseOp, PadOp, ConcatenateOp, DynamicSliceOp>(op);
}

class ElementGenerator {
public:
  ElementGenerator(OpBuilder &b, Location loc, SymbolTable &symbols,
                   gpu::GPUModuleOp module, ValueRange params)
      : b(b), loc(loc), symbols(symbols), module(module), params(params) {
    scopes.emplace_back();
  }

  /// The elements of `v` (one, or one per element of a tuple-valued
  /// instruction such as a variadic reduce) at logical index `index`.
  FailureOr<SmallVector<Value>> emit(Value v, ValueRange index);

  /// The output element being generated: its logical index and its offset
  /// in `type`'s physical order. A parameter of `type` read at exactly that
  /// index (through elementwise instructions) is read at that offset, so
  /// that the unrolled elements' addresses are visibly consecutive.
  void setRoot(ValueRange index, Value linear, RankedTensorType type) {
    rootIndex.assign(index.begin(), index.end());
    rootLinear = linear;
    rootType = type;
  }

  FailureOr<Value> emitOne(Value v, ValueRange index) {
    FailureOr<SmallVector<Value>> r = emit(v, index);
    if (failed(r))
      return failure();
    return r->front();
  }

  /// Runs `fn` with a fresh cache scope (values made inside a region do
  /// not dominate the code after it).
  template <typename Fn> auto inScope(Fn fn) {
    scopes.emplace_back();
    auto result = fn();
    scopes.pop_back();
    return result;
  }

private:
  using Key = std::pair<void *, std::vector<void *>>;

  FailureOr<SmallVector<Value>> generate(Value v, ValueRange index);
  FailureOr<SmallVector<Value>> emitConstant(ConstantOp op, ValueRange index);
  FailureOr<Value> emitIota(IotaOp op, ValueRange index);
  FailureOr<SmallVector<Value>> emitDataMovement(Operation *op,
                                                 ValueRange index);
  FailureOr<SmallVector<Value>> emitReduce(ReduceOp op, ValueRange index);
  /// The operand index `map` gives for `index`, or failure (with an
  /// error) for runtime variables that cannot be generated.
  FailureOr<SmallVector<Value>> applyMap(const IndexingMap &map,
                                         ValueRange dims, ValueRange ranges);
  /// The conjunction of `map`'s domain (where narrower than `shape`) and
  /// constraints at `dims` (null: always true).
  Value constraintsHold(const IndexingMap &map, ValueRange dims,
                        ValueRange symbols, ArrayRef<int64_t> shape);
  Value indexConst(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }

  OpBuilder &b;
  Location loc;
  SymbolTable &symbols;
  gpu::GPUModuleOp module;
  ValueRange params;
  std::vector<std::map<Key, SmallVector<Value>>> scopes;
  unsigned numGlobals = 0;
  SmallVector<Value> rootIndex;
  Value rootLinear;
  RankedTensorType rootType;
};

FailureOr<SmallVector<Value>> ElementGenerator::emit(Value v,
                                                     ValueRange index) {
  Key key{v.getAsOpaquePointer(), {}};
  for (Value i : index)
    key.second.push_back(i.getAsOpaquePointer());
  for (auto &scope : llvm::reverse(scopes))
    if (auto it = scope.find(key); it != scope.end())
      return it->second;
  FailureOr<SmallVector<Value>> result = generate(v, index);
  if (succeeded(result))
    scopes.back()[key] = *result;
  return result;
}

FailureOr<SmallVector<Value>> ElementGenerator::generate(Value v,
                                                         ValueRange index) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto type = cast<RankedTensorType>(v.getType());
    if (rootLinear && type.getShape() == rootType.getShape() &&
        getMinorToMajor(type) == getMinorToMajor(rootType) &&
        llvm::equal(index, rootIndex)) {
      Value load = memref::LoadOp::create(b, loc, params[arg.getArgNumber()],
                                          ValueRange{rootLinear});
      return SmallVector<Value>{load};
    }
    SmallVector<int64_t> strides = getPhysicalStrides(type);
    Value offset = indexConst(0);
    for (auto [i, stride] : llvm::zip(index, strides))
      offset = arith::AddIOp::create(
          b, loc, offset, arith::MulIOp::create(b, loc, i, indexConst(stride)));
    Value load = memref::LoadOp::create(b, loc, params[arg.getArgNumber()],
                                        ValueRange{offset});
    return SmallVector<Value>{load};
  }
  Operation *op = v.getDefiningOp();
  if (auto c = dyn_cast<ConstantOp>(op))
    return emitConstant(c, index);
  if (auto iota = dyn_cast<IotaOp>(op)) {
    FailureOr<Value> r = emitIota(iota, index);
    if (failed(r))
      return failure();
    return SmallVector<Value>{*r};
  }
  if (auto gte = dyn_cast<GetTupleElementOp>(op)) {
    FailureOr<SmallVector<Value>> tuple = emit(gte.getDataOperands()[0], index);
    if (failed(tuple))
      return failure();
    if (gte.getIndex() >= tuple->size())
      return op->emitError("loop emitter: get-tuple-element out of range");
    return SmallVector<Value>{(*tuple)[gte.getIndex()]};
  }
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return emitReduce(reduce, index);
  if (isDataMovement(op))
    return emitDataMovement(op, index);
  if (indexing::isElementwise(op) && !isa<TupleOp>(op)) {
    SmallVector<Value> operands;
    for (Value operand : getDataOperands(op)) {
      FailureOr<Value> e = emitOne(operand, index);
      if (failed(e))
        return failure();
      operands.push_back(*e);
    }
    return emitScalarOp(b, loc, op, operands);
  }
  return op->emitError("loop emitter: no element generator for `")
         << getOpcode(op) << "`";
}

FailureOr<SmallVector<Value>> ElementGenerator::emitConstant(ConstantOp op,
                                                             ValueRange index) {
  auto type = cast<RankedTensorType>(op.getType());
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!dense)
    return op->emitError("loop emitter: constant without its elements");
  Type scalar = getScalarType(type.getElementType());
  auto scalarAttr = [&](Attribute a) -> Attribute {
    if (auto i = dyn_cast<IntegerAttr>(a))
      return IntegerAttr::get(scalar, i.getValue());
    return cast<TypedAttr>(a);
  };
  if (dense.isSplat() || type.getNumElements() == 1) {
    if (isa<ComplexType>(scalar)) {
      auto c = dense.getSplatValue<std::complex<APFloat>>();
      auto fp = cast<FloatType>(cast<ComplexType>(scalar).getElementType());
      Value re =
          arith::ConstantOp::create(b, loc, fp, FloatAttr::get(fp, c.real()));
      Value im =
          arith::ConstantOp::create(b, loc, fp, FloatAttr::get(fp, c.imag()));
      return SmallVector<Value>{
          complex::CreateOp::create(b, loc, scalar, re, im)};
    }
    auto attr = cast<TypedAttr>(scalarAttr(dense.getSplatValue<Attribute>()));
    return SmallVector<Value>{arith::ConstantOp::create(b, loc, attr)};
  }
  if (isa<ComplexType>(scalar))
    return op->emitError("loop emitter: complex array constants are not "
                         "supported yet");
  // An array constant: a global of the kernel module, in logical
  // (row-major) order, read at the element's row-major offset.
  auto memrefType = MemRefType::get({type.getNumElements()}, scalar);
  auto values = DenseElementsAttr::get(
      RankedTensorType::get({type.getNumElements()}, scalar),
      ArrayRef<Attribute>(
          llvm::map_to_vector(dense.getValues<Attribute>(), scalarAttr)));
  std::string name = "constant_" + std::to_string(numGlobals++);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    while (SymbolTable::lookupSymbolIn(module, name))
      name = "constant_" + std::to_string(numGlobals++);
    memref::GlobalOp::create(b, loc, name, b.getStringAttr("private"),
                             memrefType, values, /*constant=*/true,
                             /*alignment=*/nullptr);
  }
  Value global = memref::GetGlobalOp::create(b, loc, memrefType, name);
  Value offset = indexConst(0);
  int64_t stride = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    offset = arith::AddIOp::create(
        b, loc, offset,
        arith::MulIOp::create(b, loc, index[d], indexConst(stride)));
    stride *= type.getDimSize(d);
  }
  return SmallVector<Value>{
      memref::LoadOp::create(b, loc, global, ValueRange{offset})};
}

FailureOr<Value> ElementGenerator::emitIota(IotaOp op, ValueRange index) {
  auto type = cast<RankedTensorType>(op.getType());
  Type element = type.getElementType();
  Value i = index[op.getIotaDimension()];
  Type scalar = getScalarType(element);
  if (auto integer = dyn_cast<IntegerType>(scalar))
    return Value(arith::IndexCastUIOp::create(b, loc, integer, i));
  if (auto fp = dyn_cast<FloatType>(scalar)) {
    Value wide = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), i);
    Type f = fp.getWidth() < 32 ? Type(b.getF32Type()) : Type(fp);
    Value value = arith::UIToFPOp::create(b, loc, f, wide);
    if (f != fp)
      value = arith::TruncFOp::create(b, loc, fp, value);
    return value;
  }
  return op->emitError("loop emitter: iota of ") << element;
}

Value ElementGenerator::constraintsHold(const IndexingMap &map, ValueRange dims,
                                        ValueRange symbols,
                                        ArrayRef<int64_t> shape) {
  Value all;
  auto add = [&](Value cond) {
    all = all ? arith::AndIOp::create(b, loc, all, cond).getResult() : cond;
  };
  auto require = [&](Value v, const Interval &interval, bool lower = true,
                     bool upper = true) {
    if (lower)
      add(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, v,
                                indexConst(interval.lower)));
    if (upper)
      add(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, v,
                                indexConst(interval.upper)));
  };
  // A domain narrower than the output (a concatenate's operand, a pad's
  // interior) is a condition too.
  for (auto [d, bound] : llvm::enumerate(map.getDimBounds()))
    if (d < shape.size() && (bound.lower > 0 || bound.upper < shape[d] - 1))
      require(dims[d], bound, bound.lower > 0, bound.upper < shape[d] - 1);
  for (auto [expr, interval] : map.getConstraints())
    require(affine::expandAffineExpr(b, loc, expr, dims, symbols), interval);
  return all;
}

FailureOr<SmallVector<Value>> ElementGenerator::applyMap(const IndexingMap &map,
                                                         ValueRange dims,
                                                         ValueRange ranges) {
  SmallVector<Value> symbolValues(ranges.begin(), ranges.end());
  for (const RuntimeVar &rv : map.getRuntimeVars()) {
    if (!rv.value)
      return emitError(loc, "loop emitter: a runtime variable without value");
    std::optional<SmallVector<Value, 8>> at =
        affine::expandAffineMap(b, loc, rv.map, dims);
    if (!at)
      return emitError(loc, "loop emitter: cannot expand a runtime map");
    FailureOr<Value> raw = emitOne(rv.value, *at);
    if (failed(raw))
      return failure();
    // HLO clamps dynamic offsets into the operand: clamp into the feasible
    // values (signed or unsigned as the offset's type says).
    Type element = getElementTypeOrSelf(rv.value.getType());
    Value idx =
        element.isUnsignedInteger()
            ? Value(
                  arith::IndexCastUIOp::create(b, loc, b.getIndexType(), *raw))
            : Value(arith::IndexCastOp::create(b, loc, b.getIndexType(), *raw));
    idx = arith::MaxSIOp::create(b, loc, idx,
                                 indexConst(rv.feasibleValues.lower));
    idx = arith::MinSIOp::create(b, loc, idx,
                                 indexConst(rv.feasibleValues.upper));
    symbolValues.push_back(idx);
  }
  SmallVector<Value> operands(dims.begin(), dims.end());
  llvm::append_range(operands, symbolValues);
  std::optional<SmallVector<Value, 8>> result =
      affine::expandAffineMap(b, loc, map.getAffineMap(), operands);
  if (!result)
    return emitError(loc, "loop emitter: cannot expand an indexing map");
  return SmallVector<Value>(result->begin(), result->end());
}

FailureOr<SmallVector<Value>>
ElementGenerator::emitDataMovement(Operation *op, ValueRange index) {
  InstructionIndexing indexing = computeOutputToInputIndexing(op);
  auto operands = getDataOperands(op);
  // The operand (with its map) each element comes from, tried in order;
  // the last one without constraints is the fallback.
  struct Source {
    Value operand;
    const IndexingMap *map;
  };
  SmallVector<Source> sources;
  for (auto [i, operand] : llvm::enumerate(operands)) {
    const OperandIndexing &oi = indexing.indexing[i];
    if (oi.isUnknown() || oi.maps.size() != 1)
      return op->emitError("loop emitter: no single indexing map for "
                           "operand ")
             << i << " of `" << getOpcode(op) << "`";
    if (oi.maps.front().getNumRangeVars() != 0)
      return op->emitError("loop emitter: `")
             << getOpcode(op) << "` reads a range of its operand";
    // Offsets of a dynamic-slice are read through runtime variables.
    if (isa<DynamicSliceOp>(op) && i > 0)
      continue;
    sources.push_back({operand, &oi.maps.front()});
  }
  Type scalar = getScalarType(getElementTypeOrSelf(op->getResult(0)));
  // Emits source k onwards: source k where its constraints hold, else the
  // next one.
  std::function<FailureOr<Value>(unsigned)> emitFrom =
      [&](unsigned k) -> FailureOr<Value> {
    const Source &s = sources[k];
    auto at = [&]() -> FailureOr<Value> {
      FailureOr<SmallVector<Value>> idx = applyMap(*s.map, index, {});
      if (failed(idx))
        return failure();
      return emitOne(s.operand, *idx);
    };
    // The last source needs no test: the others' constraints failed (a
    // concatenate's last operand, a pad's padding value).
    if (k + 1 == sources.size())
      return at();
    Value holds = constraintsHold(
        *s.map, index, {},
        cast<RankedTensorType>(op->getResult(0).getType()).getShape());
    if (!holds)
      return at();
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{scalar}, holds,
                                  /*withElseRegion=*/true);
    bool ok = true;
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      FailureOr<Value> v = inScope(at);
      if (failed(v))
        ok = false;
      else
        scf::YieldOp::create(b, loc, *v);
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      FailureOr<Value> e = inScope([&] { return emitFrom(k + 1); });
      if (failed(e))
        ok = false;
      else
        scf::YieldOp::create(b, loc, *e);
    }
    if (!ok)
      return failure();
    return ifOp.getResult(0);
  };
  FailureOr<Value> r = emitFrom(0);
  if (failed(r))
    return failure();
  return SmallVector<Value>{*r};
}

FailureOr<SmallVector<Value>> ElementGenerator::emitReduce(ReduceOp op,
                                                           ValueRange index) {
  auto reducer = symbols.lookup<ComputationOp>(op.getToApply());
  if (!reducer)
    return op->emitError("loop emitter: reducer not found");
  auto operands = getDataOperands(op);
  unsigned n = operands.size() / 2;
  InstructionIndexing indexing = computeOutputToInputIndexing(op);
  const OperandIndexing &first = indexing.indexing[0];
  if (first.isUnknown() || first.maps.size() != 1)
    return op->emitError("loop emitter: reduce without an indexing map");
  const IndexingMap &map = first.maps.front();
  SmallVector<Value> inits;
  for (unsigned i = 0; i < n; ++i) {
    FailureOr<Value> init = emitOne(operands[n + i], {});
    if (failed(init))
      return failure();
    inits.push_back(*init);
  }
  // One loop per range variable (reduced dimension), innermost last.
  std::function<FailureOr<SmallVector<Value>>(unsigned, SmallVector<Value> &,
                                              ValueRange)>
      loop = [&](unsigned r, SmallVector<Value> &ranges,
                 ValueRange accs) -> FailureOr<SmallVector<Value>> {
    if (r == map.getNumRangeVars()) {
      FailureOr<SmallVector<Value>> idx = applyMap(map, index, ranges);
      if (failed(idx))
        return failure();
      SmallVector<Value> args(accs.begin(), accs.end());
      for (unsigned i = 0; i < n; ++i) {
        FailureOr<Value> x = emitOne(operands[i], *idx);
        if (failed(x))
          return failure();
        args.push_back(*x);
      }
      return emitScalarComputation(b, loc, reducer.getBody(), args);
    }
    const Interval &bound = map.getRangeVarBound(r);
    auto forOp =
        scf::ForOp::create(b, loc, indexConst(bound.lower),
                           indexConst(bound.upper + 1), indexConst(1), accs);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forOp.getBody());
    ranges.push_back(forOp.getInductionVar());
    FailureOr<SmallVector<Value>> next =
        inScope([&] { return loop(r + 1, ranges, forOp.getRegionIterArgs()); });
    ranges.pop_back();
    if (failed(next))
      return failure();
    scf::YieldOp::create(b, loc, *next);
    return SmallVector<Value>(forOp.getResults());
  };
  SmallVector<Value> ranges;
  return loop(0, ranges, inits);
}

/// The location of a kernel's ops: its name and the fusion's place in the
/// HLO text (the fusion's other location parts, HLO metadata, mean nothing
/// to LLVM's debug info).
Location kernelLocation(Operation *fusion, StringRef name) {
  Location file = UnknownLoc::get(fusion->getContext());
  fusion->getLoc()->walk([&](Location l) {
    if (isa<FileLineColLoc>(l)) {
      file = l;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return NameLoc::get(StringAttr::get(fusion->getContext(), name), file);
}

} // namespace

bool mlir::hlo::canEmitLoopKernel(Operation *op, SymbolTable &symbols,
                                  std::string &reason) {
  auto fusion = dyn_cast<FusionOp>(op);
  if (!fusion) {
    reason = "not a fusion";
    return false;
  }
  if (fusion.getKind() != FusionKind::kLoop) {
    reason = "a " + stringifyFusionKind(fusion.getKind()).str() +
             " fusion (the loop emitter takes kLoop)";
    return false;
  }
  auto fused = symbols.lookup<ComputationOp>(fusion.getCalls());
  if (!fused || fused.getBody().empty()) {
    reason = "its fused computation is missing";
    return false;
  }
  for (Type t : op->getOperandTypes())
    if (!isa<RankedTensorType>(t) ||
        !cast<RankedTensorType>(t).hasStaticShape()) {
      reason = "an operand is not a static array";
      return false;
    }
  return true;
}

FailureOr<gpu::GPUFuncOp>
mlir::hlo::emitLoopKernel(Operation *op, gpu::GPUModuleOp module,
                          StringRef name, SymbolTable &symbols,
                          const KernelOptions &options) {
  std::string reason;
  if (!canEmitLoopKernel(op, symbols, reason))
    return op->emitError("loop emitter: ") << reason;
  auto fusion = cast<FusionOp>(op);
  auto fused = symbols.lookup<ComputationOp>(fusion.getCalls());
  Value root = fused.getRootValue();
  SmallVector<Value> roots{root};
  if (auto tuple = root.getDefiningOp<TupleOp>())
    roots.assign(tuple.getDataOperands().begin(),
                 tuple.getDataOperands().end());
  SmallVector<RankedTensorType> outputTypes;
  for (Value r : roots) {
    auto t = dyn_cast<RankedTensorType>(r.getType());
    if (!t || !t.hasStaticShape() ||
        (!outputTypes.empty() &&
         t.getShape() != outputTypes.front().getShape()))
      return op->emitError("loop emitter: the outputs are not static arrays "
                           "of one shape");
    outputTypes.push_back(t);
  }

  OpBuilder b(op->getContext());
  Location loc = kernelLocation(op, name);
  SmallVector<Type> argTypes;
  for (Type t : fusion.getDataOperands().getTypes())
    argTypes.push_back(getKernelBufferType(t));
  for (RankedTensorType t : outputTypes)
    argTypes.push_back(getKernelBufferType(t));
  b.setInsertionPointToEnd(module.getBody());
  auto func =
      gpu::GPUFuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  RankedTensorType shape = outputTypes.front();
  int64_t elements = shape.getNumElements();
  // Each thread computes `unroll` consecutive elements (in physical order)
  // so that its loads and stores of elementwise-read buffers are 16 bytes
  // wide (XLA's loop unrolling and vectorization): 16 bytes over the widest
  // output element, when the element count allows.
  int64_t widest = 1;
  for (RankedTensorType t : outputTypes) {
    Type scalar = getScalarType(t.getElementType());
    int64_t bits = 0;
    if (auto complex = dyn_cast<ComplexType>(scalar))
      bits = 2 * complex.getElementType().getIntOrFloatBitWidth();
    else
      bits = scalar.getIntOrFloatBitWidth();
    widest = std::max<int64_t>(widest, llvm::divideCeil(bits, 8));
  }
  int64_t unroll = std::max<int64_t>(1, 16 / widest);
  if (options.unroll > 0)
    unroll = options.unroll;
  while (unroll > 1 && elements % unroll != 0)
    unroll /= 2;
  int64_t work = elements / unroll;
  int64_t threads =
      std::max<int64_t>(1, std::min(options.threadsPerBlock, work));
  int64_t blocks = std::max<int64_t>(1, (work + threads - 1) / threads);
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
  func.setKnownGridSizeAttr(b.getDenseI32ArrayAttr({int32_t(blocks), 1, 1}));
  // Buffers are slices at least 16-byte aligned (XLA's allocations are
  // 256-byte aligned): LLVM may then merge the consecutive accesses.
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    func.setArgAttr(i, "llvm.align", b.getI64IntegerAttr(16));

  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value thread = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, blockId, constant(threads)),
      threadId);
  Value inBounds = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         thread, constant(work));
  auto ifOp = scf::IfOp::create(b, loc, inBounds, /*withElseRegion=*/false);
  gpu::ReturnOp::create(b, loc);

  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  ValueRange args = entry.getArguments();
  ElementGenerator gen(b, loc, symbols, module,
                       args.take_front(fusion.getDataOperands().size()));
  Value first = arith::MulIOp::create(b, loc, thread, constant(unroll));
  // All the thread's elements are computed before any is stored: a store
  // may write the buffer of an operand (in place), so LLVM would not move
  // the next element's loads above it and merge them.
  SmallVector<std::tuple<Value, Value, unsigned>> stores; // value, at, out
  for (int64_t u = 0; u < unroll; ++u) {
    Value linear =
        u ? arith::AddIOp::create(b, loc, first, constant(u)).getResult()
          : first;
    // The element's logical index: the linear index split in the first
    // output's physical order.
    SmallVector<Value> index(shape.getRank());
    int64_t stride = 1;
    for (int64_t dim : getMinorToMajor(shape)) {
      Value q = arith::DivUIOp::create(b, loc, linear, constant(stride));
      index[dim] =
          arith::RemUIOp::create(b, loc, q, constant(shape.getDimSize(dim)));
      stride *= shape.getDimSize(dim);
    }
    gen.setRoot(index, linear, shape);
    for (auto [k, r] : llvm::enumerate(roots)) {
      FailureOr<Value> v = gen.emitOne(r, index);
      if (failed(v)) {
        func.erase();
        return failure();
      }
      Value offset = linear;
      if (getMinorToMajor(outputTypes[k]) != getMinorToMajor(shape)) {
        offset = constant(0);
        for (auto [i, s] : llvm::zip(index, getPhysicalStrides(outputTypes[k])))
          offset = arith::AddIOp::create(
              b, loc, offset, arith::MulIOp::create(b, loc, i, constant(s)));
      }
      stores.push_back({*v, offset, unsigned(k)});
    }
  }
  for (auto [value, offset, k] : stores)
    memref::StoreOp::create(b, loc, value,
                            args[fusion.getDataOperands().size() + k],
                            ValueRange{offset});
  return func;
}
