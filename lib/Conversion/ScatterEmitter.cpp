//===- ScatterEmitter.cpp - scatter fusions to gpu.func kernels -----------===//
//
// XLA's scatter fusion emitter: an input fusion whose root is a scatter
// becomes one kernel with a thread per element of the updates. The outputs
// share the buffers of the scatter operands (fusion parameters), so the
// kernel writes only the scattered elements: each thread reads its scatter
// index from the indices, skips a window that does not fit in the operand,
// and combines its update element with the output element through the
// update computation, plainly for unique indices, atomically otherwise.
//
//===----------------------------------------------------------------------===//

#include "EmitterUtils.h"

#include "Hlo/Conversion/ScalarLowering.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// What an update computation does with (current, update), where a single
/// atomic instruction or a plain store can do it.
enum class Combiner { Keep, Assign, Add, Max, Min, Other };

Combiner classifyCombiner(ComputationOp reducer) {
  Block &body = reducer.getBody().front();
  if (body.getNumArguments() != 2)
    return Combiner::Other;
  Value current = body.getArgument(0), update = body.getArgument(1);
  Value root = reducer.getRootValue();
  if (root == current)
    return Combiner::Keep;
  if (root == update)
    return Combiner::Assign;
  Operation *op = root.getDefiningOp();
  if (!op || op->getNumOperands() != 2 ||
      !((op->getOperand(0) == current && op->getOperand(1) == update) ||
        (op->getOperand(0) == update && op->getOperand(1) == current)))
    return Combiner::Other;
  if (isa<AddOp>(op))
    return Combiner::Add;
  if (isa<MaxOp>(op))
    return Combiner::Max;
  if (isa<MinOp>(op))
    return Combiner::Min;
  return Combiner::Other;
}

/// The native atomic read-modify-write of `combiner` on elements of HLO
/// type `element` (scalar type `scalar`), if there is one: add on 32/64-bit
/// integers, f16, f32 and f64; max and min on 32/64-bit integers (float max
/// and min propagate NaN, which the hardware's do not).
std::optional<arith::AtomicRMWKind> getNativeAtomic(Combiner combiner,
                                                    Type element, Type scalar) {
  auto integer = dyn_cast<IntegerType>(scalar);
  bool wideInt =
      integer && (integer.getWidth() == 32 || integer.getWidth() == 64);
  bool isUnsigned = element.isUnsignedInteger();
  switch (combiner) {
  case Combiner::Add:
    if (wideInt)
      return arith::AtomicRMWKind::addi;
    if (scalar.isF16() || scalar.isF32() || scalar.isF64())
      return arith::AtomicRMWKind::addf;
    return std::nullopt;
  case Combiner::Max:
    if (wideInt)
      return isUnsigned ? arith::AtomicRMWKind::maxu
                        : arith::AtomicRMWKind::maxs;
    return std::nullopt;
  case Combiner::Min:
    if (wideInt)
      return isUnsigned ? arith::AtomicRMWKind::minu
                        : arith::AtomicRMWKind::mins;
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

/// Whether the non-unique scatter needs a compare-and-swap loop
/// (memref.generic_atomic_rmw) for its combiner.
bool needsCompareAndSwap(Combiner combiner, Type element) {
  if (combiner == Combiner::Keep || combiner == Combiner::Assign)
    return false;
  return !getNativeAtomic(combiner, element, getScalarType(element));
}

ScatterOp getScatterRoot(ComputationOp fused) {
  Value root = fused.getRootValue();
  if (auto scatter = root.getDefiningOp<ScatterOp>())
    return scatter;
  // A variadic scatter's results as the tuple of its elements, in order
  // (what hlo-fusion-wrapper makes of a wrapped tuple-valued instruction).
  auto tuple = root.getDefiningOp<TupleOp>();
  if (!tuple || tuple->getNumOperands() == 0)
    return nullptr;
  ScatterOp scatter;
  for (auto [i, element] : llvm::enumerate(getDataOperands(tuple))) {
    auto gte = element.getDefiningOp<GetTupleElementOp>();
    auto s = gte ? gte.getOperand().getDefiningOp<ScatterOp>() : ScatterOp();
    if (!s || gte.getIndex() != i || (scatter && s != scatter))
      return nullptr;
    scatter = s;
  }
  if (cast<TupleType>(scatter.getType()).size() != tuple->getNumOperands())
    return nullptr;
  return scatter;
}

/// 0..rank-1 without the dims in `skip1` and `skip2`, ascending.
SmallVector<int64_t> dimsExcept(int64_t rank, ArrayRef<int64_t> skip1,
                                ArrayRef<int64_t> skip2 = {}) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(skip1, d) && !llvm::is_contained(skip2, d))
      dims.push_back(d);
  return dims;
}

ArrayRef<int64_t> orEmpty(std::optional<ArrayRef<int64_t>> a) {
  return a ? *a : ArrayRef<int64_t>();
}

} // namespace

LogicalResult mlir::hlo::canEmitScatterKernel(Operation *op,
                                              SymbolTable &symbols,
                                              std::string &reason) {
  auto fusion = cast<FusionOp>(op);
  auto fused = symbols.lookup<ComputationOp>(fusion.getCalls());
  ScatterOp scatter = getScatterRoot(fused);
  if (!scatter) {
    reason = "a scatter that is not the fusion's root (the scatter emitter "
             "takes scatter roots only)";
    return failure();
  }
  auto isStatic = [](Type t) {
    auto r = dyn_cast<RankedTensorType>(t);
    return r && r.hasStaticShape();
  };
  if (!llvm::all_of(scatter.getInputs().getTypes(), isStatic) ||
      !llvm::all_of(TypeRange(op->getResultTypes()), [&](Type t) {
        auto tuple = dyn_cast<TupleType>(t);
        return tuple ? llvm::all_of(tuple.getTypes(), isStatic) : isStatic(t);
      })) {
    reason = "a scatter whose operands or results are not static arrays";
    return failure();
  }
  size_t n = scatter.getInputs().size() / 2;
  for (size_t k = 0; k < n; ++k) {
    auto arg = dyn_cast<BlockArgument>(scatter.getInputs()[k]);
    if (!arg || arg.getOwner() != &fused.getBody().front() ||
        !arg.hasOneUse()) {
      reason = "scatter operand " + std::to_string(k) +
               " is not a fusion parameter read by the scatter only (the "
               "output updates its buffer in place)";
      return failure();
    }
  }
  auto reducer = symbols.lookup<ComputationOp>(scatter.getToApply());
  if (!reducer || reducer.getBody().empty()) {
    reason = "the scatter's update computation is missing";
    return failure();
  }
  if (scatter.getUniqueIndices().value_or(false))
    return success();
  // Non-unique indices: updates of one element race, so they are atomic.
  if (n != 1) {
    reason = "a variadic scatter whose indices are not unique (no atomic "
             "update of several outputs; hlo-gpu-scatter-expander expands "
             "it)";
    return failure();
  }
  Type element = getElementTypeOrSelf(scatter.getInputs()[0].getType());
  Combiner combiner = classifyCombiner(reducer);
  if (!needsCompareAndSwap(combiner, element))
    return success();
  Type scalar = getScalarType(element);
  unsigned width = scalar.isIntOrFloat() ? scalar.getIntOrFloatBitWidth() : 0;
  if (width != 8 && width != 16 && width != 32 && width != 64) {
    std::string type;
    llvm::raw_string_ostream os(type);
    os << element;
    reason = "a scatter of " + type +
             " whose indices are not unique (no atomic compare-and-swap of "
             "that element)";
    return failure();
  }
  // The compare-and-swap loop holds the combiner in one block: the scalar
  // lowering's loops (integer power) do not fit.
  WalkResult loops = reducer.walk([](PowOp pow) {
    return isa<IntegerType>(getScalarType(getElementTypeOrSelf(pow.getType())))
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  if (loops.wasInterrupted()) {
    reason = "a scatter whose indices are not unique and whose update "
             "computation has a loop (integer power) that an atomic "
             "compare-and-swap cannot hold";
    return failure();
  }
  return success();
}

FailureOr<gpu::GPUFuncOp>
mlir::hlo::emitScatterKernel(Operation *op, gpu::GPUModuleOp module,
                             StringRef name, SymbolTable &symbols,
                             const KernelOptions &options) {
  std::string reason;
  if (failed(canEmitScatterKernel(op, symbols, reason)))
    return op->emitError("scatter emitter: ") << reason;
  auto fusion = cast<FusionOp>(op);
  auto fused = symbols.lookup<ComputationOp>(fusion.getCalls());
  ScatterOp scatter = getScatterRoot(fused);
  auto reducer = symbols.lookup<ComputationOp>(scatter.getToApply());
  size_t n = scatter.getInputs().size() / 2;
  ValueRange operands = scatter.getInputs().take_front(n);
  Value indices = scatter.getInputs()[n];
  ValueRange updates = scatter.getInputs().drop_front(n + 1);
  bool unique = scatter.getUniqueIndices().value_or(false);
  Combiner combiner = unique ? Combiner::Other : classifyCombiner(reducer);

  SmallVector<RankedTensorType> outputTypes;
  for (Value v : operands)
    outputTypes.push_back(cast<RankedTensorType>(v.getType()));
  auto operandType = outputTypes.front();
  auto updateType = cast<RankedTensorType>(updates[0].getType());
  auto indicesType = cast<RankedTensorType>(indices.getType());
  Type element = operandType.getElementType();
  Type scalar = getScalarType(element);
  // A compare-and-swap works on integers: a float output is passed as
  // integers of its width (the same bytes; a kernel parameter is the
  // buffer's address either way) and bitcast around the combiner.
  bool cas = !unique && needsCompareAndSwap(combiner, element);
  Type casType = scalar;
  SmallVector<Type> kernelOutputs(outputTypes.begin(), outputTypes.end());
  if (cas && isa<FloatType>(scalar)) {
    casType =
        IntegerType::get(op->getContext(), scalar.getIntOrFloatBitWidth());
    kernelOutputs[0] = RankedTensorType::get(operandType.getShape(), casType,
                                             operandType.getEncoding());
  }

  // One thread per update element, in the updates' physical order (XLA:
  // one element per thread, 128 threads per block).
  int64_t work = updateType.getNumElements();
  auto [threads, blocks] = getLaunchDims(work, options.threadsPerBlock);
  OpBuilder b(op->getContext());
  gpu::GPUFuncOp func =
      createKernel(b, op, module, name, kernelOutputs, {int32_t(threads), 1, 1},
                   {int32_t(blocks), 1, 1});
  SmallVector<int64_t> aliases;
  for (Value v : operands)
    aliases.push_back(cast<BlockArgument>(v).getArgNumber());
  setOutputAliases(func, aliases);

  Location loc = func.getLoc();
  Block &entry = func.getBody().front();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value thread = emitGuardedThreadIndex(b, loc, threads, work);

  size_t numParams = fusion.getDataOperands().size();
  ValueRange args = entry.getArguments();
  ValueRange outputs = args.drop_front(numParams);
  ElementGenerator gen(b, loc, symbols, module, args.take_front(numParams));
  SmallVector<Value> update = emitLogicalIndex(b, loc, thread, updateType);
  gen.setRoot(update, thread, updateType);

  // The update's position in the indices: its scatter dims, in order, are
  // the indices' dims other than index_vector_dim.
  ArrayRef<int64_t> updateWindowDims = scatter.getUpdateWindowDims();
  ArrayRef<int64_t> inputBatching = orEmpty(scatter.getInputBatchingDims());
  ArrayRef<int64_t> indicesBatching =
      orEmpty(scatter.getScatterIndicesBatchingDims());
  int64_t ivd = scatter.getIndexVectorDim();
  int64_t rank = operandType.getRank();
  SmallVector<int64_t> scatterDims =
      dimsExcept(updateType.getRank(), updateWindowDims);
  SmallVector<int64_t> windowDims =
      dimsExcept(rank, scatter.getInsertedWindowDims(), inputBatching);
  SmallVector<int64_t> indexDims = dimsExcept(indicesType.getRank(), {ivd});
  if (scatterDims.size() != indexDims.size() ||
      windowDims.size() != updateWindowDims.size()) {
    func.erase();
    return op->emitError("scatter emitter: dimension numbers do not fit the "
                         "shapes");
  }
  SmallVector<int64_t> windowSize(rank, 1);
  for (auto [k, d] : llvm::enumerate(windowDims))
    windowSize[d] = updateType.getDimSize(updateWindowDims[k]);
  SmallVector<Value> position(indicesType.getRank());
  for (auto [k, d] : llvm::enumerate(indexDims))
    position[d] = update[scatterDims[k]];

  // The window's start in the operand: the index vector's components in
  // their operand dims, the batch position in the batching dims, 0
  // elsewhere. Only the index vector's components can be out of bounds: a
  // window that does not fit is skipped (one unsigned compare per
  // component takes negative starts too).
  SmallVector<Value> start(rank);
  Value inBounds;
  bool unsignedIndices = indicesType.getElementType().isUnsignedInteger();
  for (auto [i, d] : llvm::enumerate(scatter.getScatterDimsToOperandDims())) {
    if (ivd < indicesType.getRank())
      position[ivd] = constant(i);
    FailureOr<Value> raw = gen.emitOne(indices, position);
    if (failed(raw)) {
      func.erase();
      return failure();
    }
    Value s =
        unsignedIndices
            ? Value(
                  arith::IndexCastUIOp::create(b, loc, b.getIndexType(), *raw))
            : Value(arith::IndexCastOp::create(b, loc, b.getIndexType(), *raw));
    start[d] = s;
    Value fits = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ule, s,
        constant(operandType.getDimSize(d) - windowSize[d]));
    inBounds = inBounds
                   ? arith::AndIOp::create(b, loc, inBounds, fits).getResult()
                   : fits;
  }
  for (auto [ib, sb] : llvm::zip(inputBatching, indicesBatching))
    start[ib] = position[sb];
  if (inBounds) {
    auto ifFits = scf::IfOp::create(b, loc, inBounds, /*withElseRegion=*/false);
    b.setInsertionPointToStart(&ifFits.getThenRegion().front());
  }

  // The output element: the window's start plus the update's window index.
  SmallVector<Value> target(rank);
  for (int64_t d = 0; d < rank; ++d)
    target[d] = start[d] ? start[d] : constant(0);
  for (auto [k, d] : llvm::enumerate(windowDims))
    target[d] = start[d] ? arith::AddIOp::create(b, loc, start[d],
                                                 update[updateWindowDims[k]])
                               .getResult()
                         : update[updateWindowDims[k]];
  LogicalResult ok = gen.inScope([&]() -> LogicalResult {
    SmallVector<Value> values;
    for (Value u : updates) {
      FailureOr<Value> v = gen.emitOne(u, update);
      if (failed(v))
        return failure();
      values.push_back(*v);
    }
    SmallVector<Value> offsets;
    for (RankedTensorType t : outputTypes)
      offsets.push_back(emitPhysicalOffset(b, loc, target, t));

    if (unique) {
      // No other thread writes these elements: read, combine, write.
      SmallVector<Value> combinerArgs;
      for (auto [out, offset] : llvm::zip(outputs, offsets))
        combinerArgs.push_back(
            memref::LoadOp::create(b, loc, out, ValueRange{offset}));
      llvm::append_range(combinerArgs, values);
      FailureOr<SmallVector<Value>> combined =
          emitScalarComputation(b, loc, reducer.getBody(), combinerArgs);
      if (failed(combined))
        return failure();
      for (auto [v, out, offset] : llvm::zip(*combined, outputs, offsets))
        memref::StoreOp::create(b, loc, v, out, ValueRange{offset});
      return success();
    }
    Value out = outputs.front(), offset = offsets.front();
    switch (combiner) {
    case Combiner::Keep:
      return success();
    case Combiner::Assign:
      // A store of one naturally aligned element is atomic by itself.
      memref::StoreOp::create(b, loc, values.front(), out, ValueRange{offset});
      return success();
    default:
      break;
    }
    if (std::optional<arith::AtomicRMWKind> kind =
            getNativeAtomic(combiner, element, scalar)) {
      memref::AtomicRMWOp::create(b, loc, *kind, values.front(), out,
                                  ValueRange{offset});
      return success();
    }
    // Any other combiner: a compare-and-swap loop around the combiner.
    auto rmw =
        memref::GenericAtomicRMWOp::create(b, loc, out, ValueRange{offset});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(rmw.getBody());
    Value current = rmw.getCurrentValue();
    if (casType != scalar)
      current = arith::BitcastOp::create(b, loc, scalar, current);
    FailureOr<SmallVector<Value>> combined = emitScalarComputation(
        b, loc, reducer.getBody(), {current, values.front()});
    if (failed(combined))
      return failure();
    Value result = combined->front();
    if (casType != scalar)
      result = arith::BitcastOp::create(b, loc, casType, result);
    memref::AtomicYieldOp::create(b, loc, result);
    return success();
  });
  if (failed(ok)) {
    func.erase();
    return failure();
  }
  return func;
}
