//===- ElementGenerator.cpp - elements of fused values in kernels --------===//
//
// The element generator: each element is generated from the root back to
// the parameters. An instruction's operand elements are found through the
// instruction's output-to-input indexing map (IndexingAnalysis.h), expanded
// into `arith` on `index` values; range variables (a reduce fused as a
// loop) become `scf.for` loops, runtime variables (dynamic-slice offsets)
// are loaded and clamped to their feasible values, and constraints (pad,
// concatenate) guard the loads with `scf.if`. Element values come from the
// scalar lowering. Every (value, index) pair is generated once per region.
//
//===----------------------------------------------------------------------===//

#include "EmitterUtils.h"

#include "Hlo/Conversion/ScalarLowering.h"
#include "Hlo/Dialect/Hlo/HloDotAlgorithm.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Complex/IR/Complex.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// Data movement: the result element is the operand element its indexing
/// map names (or the padding value / another operand where a constraint
/// fails).
bool isDataMovement(Operation *op) {
  return isa<CopyOp, BitcastOp, ReshapeOp, BroadcastOp, TransposeOp, SliceOp,
             ReverseOp, PadOp, ConcatenateOp, DynamicSliceOp>(op);
}

} // namespace

FailureOr<SmallVector<Value>> ElementGenerator::emit(Value v,
                                                     ValueRange index) {
  if (auto it = overrides.find(v); it != overrides.end())
    return it->second;
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
    if (rootLinear && sameShapeAndLayout(type, rootType) &&
        llvm::equal(index, rootIndex)) {
      Value load = memref::LoadOp::create(b, loc, params[arg.getArgNumber()],
                                          ValueRange{rootLinear});
      return SmallVector<Value>{load};
    }
    Value load = memref::LoadOp::create(
        b, loc, params[arg.getArgNumber()],
        ValueRange{emitPhysicalOffset(b, loc, index, type)});
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
    return emitReduce(op, reduce.getToApplyAttr(), index);
  if (auto window = dyn_cast<ReduceWindowOp>(op))
    return emitReduce(op, window.getToApplyAttr(), index);
  if (auto gather = dyn_cast<GatherOp>(op))
    return emitGather(gather, index);
  if (auto dot = dyn_cast<DotOp>(op))
    return emitDot(dot, index);
  if (auto conv = dyn_cast<ConvolutionOp>(op))
    return emitConvolution(conv, index);
  if (auto sas = dyn_cast<SelectAndScatterOp>(op))
    return emitSelectAndScatter(sas, index);
  if (auto convert = dyn_cast<BitcastConvertOp>(op))
    return emitBitcastConvert(convert, index);
  // The elements of every data operand at `index` (elementwise ops, map).
  auto operandsAt = [&]() -> FailureOr<SmallVector<Value>> {
    SmallVector<Value> operands;
    for (Value operand : getDataOperands(op)) {
      FailureOr<Value> e = emitOne(operand, index);
      if (failed(e))
        return failure();
      operands.push_back(*e);
    }
    return operands;
  };
  if (auto map = dyn_cast<MapOp>(op)) {
    // The mapped computation on the operands' elements at this index.
    auto computation = symbols.lookup<ComputationOp>(map.getToApply());
    if (!computation)
      return op->emitError("loop emitter: the mapped computation is missing");
    FailureOr<SmallVector<Value>> operands = operandsAt();
    if (failed(operands))
      return failure();
    return emitScalarComputation(b, loc, computation.getBody(), *operands);
  }
  if (auto dus = dyn_cast<DynamicUpdateSliceOp>(op))
    return emitDynamicUpdateSlice(dus, index);
  if (isDataMovement(op)) {
    FailureOr<SmallVector<Value>> moved = emitDataMovement(op, index);
    // A bitcast to another element type of the same width also
    // reinterprets the bits.
    if (succeeded(moved) && isa<BitcastOp>(op) && moved->size() == 1 &&
        getElementTypeOrSelf(op->getOperand(0).getType()) !=
            getElementTypeOrSelf(op->getResult(0).getType()))
      return emitScalarOp(b, loc, op, *moved);
    return moved;
  }
  if (indexing::isElementwise(op) && !isa<TupleOp>(op)) {
    FailureOr<SmallVector<Value>> operands = operandsAt();
    if (failed(operands))
      return failure();
    return emitScalarOp(b, loc, op, *operands);
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
    symbolValues.push_back(
        emitClampedStart(b, loc, *raw, getElementTypeOrSelf(rv.value.getType()),
                         rv.feasibleValues.lower, rv.feasibleValues.upper));
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

FailureOr<SmallVector<Value>>
ElementGenerator::emitDynamicUpdateSlice(DynamicUpdateSliceOp op,
                                         ValueRange index) {
  InstructionIndexing indexing = computeOutputToInputIndexing(op);
  const OperandIndexing &operandIndexing = indexing.indexing[0];
  const OperandIndexing &updateIndexing = indexing.indexing[1];
  if (operandIndexing.isUnknown() || operandIndexing.maps.size() != 1 ||
      updateIndexing.isUnknown() || updateIndexing.maps.size() != 1)
    return op->emitError("loop emitter: dynamic-update-slice without "
                         "indexing maps");
  // The update's index: the output index less the clamped offsets (the
  // update map's runtime variables).
  FailureOr<SmallVector<Value>> at =
      applyMap(updateIndexing.maps.front(), index, {});
  if (failed(at))
    return failure();
  auto updateType = cast<RankedTensorType>(op.getUpdate().getType());
  auto outType = cast<RankedTensorType>(op.getType());
  // Inside the window: 0 <= at[d] < update size, in every dimension the
  // update does not fill (where it does, the offset is clamped to 0).
  Value inside;
  for (auto [d, i] : llvm::enumerate(*at)) {
    if (updateType.getDimSize(d) == outType.getDimSize(d))
      continue;
    Value lo = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, i,
                                     indexConst(0));
    Value hi = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i,
                                     indexConst(updateType.getDimSize(d)));
    Value both = arith::AndIOp::create(b, loc, lo, hi);
    inside =
        inside ? arith::AndIOp::create(b, loc, inside, both).getResult() : both;
  }
  if (!inside)
    return emit(op.getUpdate(), *at);
  Type scalar = getScalarType(outType.getElementType());
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{scalar}, inside,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  FailureOr<Value> update =
      inScope([&] { return emitOne(op.getUpdate(), *at); });
  if (failed(update))
    return failure();
  scf::YieldOp::create(b, loc, *update);
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  FailureOr<Value> operand =
      inScope([&] { return emitOne(op.getOperand(), index); });
  if (failed(operand))
    return failure();
  scf::YieldOp::create(b, loc, *operand);
  return SmallVector<Value>{ifOp.getResult(0)};
}

FailureOr<SmallVector<Value>>
ElementGenerator::emitBitcastConvert(BitcastConvertOp op, ValueRange index) {
  Value in = getDataOperands(op)[0];
  auto inType = cast<RankedTensorType>(in.getType());
  auto outType = cast<RankedTensorType>(op.getType());
  if (inType.getShape() == outType.getShape()) {
    FailureOr<Value> x = emitOne(in, index);
    if (failed(x))
      return failure();
    return emitScalarOp(b, loc, op, {*x});
  }
  // Between widths (HLO): the wider element's bits are the narrower
  // elements along the narrow side's extra minor dimension, element 0 in
  // the low bits.
  Type from = getScalarType(inType.getElementType());
  Type to = getScalarType(outType.getElementType());
  if (!from.isIntOrFloat() || !to.isIntOrFloat() || from.isInteger(1) ||
      to.isInteger(1))
    return op->emitError("loop emitter: bitcast-convert between widths of ")
           << from << " and " << to;
  unsigned w1 = from.getIntOrFloatBitWidth(), w2 = to.getIntOrFloatBitWidth();
  Type int1 = b.getIntegerType(w1), int2 = b.getIntegerType(w2);
  auto bits = [&](Value v, Type intType) -> Value {
    return isa<FloatType>(v.getType())
               ? arith::BitcastOp::create(b, loc, intType, v).getResult()
               : v;
  };
  Value result;
  if (w1 > w2) {
    FailureOr<Value> x = emitOne(in, index.drop_back());
    if (failed(x))
      return failure();
    Value shift = arith::MulIOp::create(
        b, loc, arith::IndexCastUIOp::create(b, loc, int1, index.back()),
        arith::ConstantIntOp::create(b, loc, int1, w2));
    result = arith::TruncIOp::create(
        b, loc, int2, arith::ShRUIOp::create(b, loc, bits(*x, int1), shift));
  } else {
    result = arith::ConstantIntOp::create(b, loc, int2, 0);
    SmallVector<Value> at(index.begin(), index.end());
    at.push_back(nullptr);
    for (unsigned j = 0; j < w2 / w1; ++j) {
      at.back() = indexConst(j);
      FailureOr<Value> x = emitOne(in, at);
      if (failed(x))
        return failure();
      Value part = arith::ExtUIOp::create(b, loc, int2, bits(*x, int1));
      if (j)
        part = arith::ShLIOp::create(
            b, loc, part, arith::ConstantIntOp::create(b, loc, int2, j * w1));
      result = arith::OrIOp::create(b, loc, result, part);
    }
  }
  if (isa<FloatType>(to))
    result = arith::BitcastOp::create(b, loc, to, result);
  return SmallVector<Value>{result};
}

FailureOr<SmallVector<Value>> ElementGenerator::emitGather(GatherOp op,
                                                           ValueRange index) {
  // HLO gather: the output's batch dimensions (those not in offset_dims)
  // pick a start index vector from the indices; its components, clamped so
  // that the slice stays inside the operand, start the slice in the
  // operand dimensions start_index_map names; operand batching dimensions
  // take the matching indices dimension; the offset dimensions walk the
  // slice's dimensions that are neither collapsed nor batching.
  Value operand = op.getOperand(), indices = op.getStartIndices();
  auto operandType = cast<RankedTensorType>(operand.getType());
  auto indicesType = cast<RankedTensorType>(indices.getType());
  int64_t rank = cast<RankedTensorType>(op.getType()).getRank();
  int64_t ivd = op.getIndexVectorDim();
  ArrayRef<int64_t> offsetDims = op.getOffsetDims();
  ArrayRef<int64_t> operandBatching, indicesBatching;
  if (auto dims = op.getOperandBatchingDims())
    operandBatching = *dims;
  if (auto dims = op.getStartIndicesBatchingDims())
    indicesBatching = *dims;
  // The position in the indices of this output element's index vector.
  SmallVector<Value> pos;
  {
    unsigned k = 0;
    SmallVector<int64_t> batchDims;
    for (int64_t d = 0; d < rank; ++d)
      if (!llvm::is_contained(offsetDims, d))
        batchDims.push_back(d);
    for (int64_t d = 0; d < indicesType.getRank(); ++d)
      pos.push_back(d == ivd ? indexConst(0) : index[batchDims[k++]]);
  }
  SmallVector<Value> start(operandType.getRank(), indexConst(0));
  Type indexElement = indicesType.getElementType();
  for (auto [k, d] : llvm::enumerate(op.getStartIndexMap())) {
    if (ivd < indicesType.getRank())
      pos[ivd] = indexConst(k);
    FailureOr<Value> raw = emitOne(indices, pos);
    if (failed(raw))
      return failure();
    start[d] =
        emitClampedStart(b, loc, *raw, indexElement, 0,
                         operandType.getDimSize(d) - op.getSliceSizes()[d]);
  }
  for (auto [ob, ib] : llvm::zip(operandBatching, indicesBatching))
    start[ob] = pos[ib];
  unsigned k = 0;
  for (int64_t d = 0; d < operandType.getRank(); ++d) {
    if (llvm::is_contained(op.getCollapsedSliceDims(), d) ||
        llvm::is_contained(operandBatching, d))
      continue;
    if (k >= offsetDims.size())
      return op->emitError("loop emitter: gather dimensions do not fit");
    start[d] = arith::AddIOp::create(b, loc, start[d], index[offsetDims[k++]]);
  }
  return emit(operand, start);
}

FailureOr<SmallVector<Value>>
ElementGenerator::emitReduce(Operation *op, FlatSymbolRefAttr toApply,
                             ValueRange index) {
  auto reducer = symbols.lookup<ComputationOp>(toApply.getAttr());
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
      auto fold = [&]() -> FailureOr<SmallVector<Value>> {
        SmallVector<Value> args(accs.begin(), accs.end());
        for (unsigned i = 0; i < n; ++i) {
          FailureOr<Value> x = emitOne(operands[i], *idx);
          if (failed(x))
            return failure();
          args.push_back(*x);
        }
        return emitScalarComputation(b, loc, reducer.getBody(), args);
      };
      // A reduce-window's padding (the map's constraints) is skipped, as
      // XLA's kernels skip it: with the init value an identity that is
      // HLO's padding with the init value.
      Type result = op->getResult(0).getType();
      if (auto tuple = dyn_cast<TupleType>(result))
        result = tuple.getType(0);
      Value holds = constraintsHold(map, index, ranges,
                                    cast<RankedTensorType>(result).getShape());
      if (!holds)
        return fold();
      auto ifOp = scf::IfOp::create(b, loc, accs.getTypes(), holds,
                                    /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      scf::YieldOp::create(b, loc, accs);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      FailureOr<SmallVector<Value>> folded = inScope(fold);
      if (failed(folded))
        return failure();
      scf::YieldOp::create(b, loc, *folded);
      return SmallVector<Value>(ifOp.getResults());
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

namespace {

/// `dims` of an optional dimension-number attribute (empty when absent).
ArrayRef<int64_t> dimsOrEmpty(std::optional<ArrayRef<int64_t>> dims) {
  return dims ? *dims : ArrayRef<int64_t>();
}

/// Dimensions of `rank` in neither `a` nor `b`, ascending.
SmallVector<int64_t> dotFreeDims(int64_t rank, ArrayRef<int64_t> a,
                                 ArrayRef<int64_t> b) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(a, d) && !llvm::is_contained(b, d))
      dims.push_back(d);
  return dims;
}

/// Field `d` of a window attribute's array (`fallback` where absent).
int64_t windowAt(ArrayRef<int64_t> values, int64_t d, int64_t fallback) {
  return d < static_cast<int64_t>(values.size()) ? values[d] : fallback;
}

} // namespace

namespace {
/// The sum of products of a dot or convolution, as XLA's classical
/// emitters accumulate it: floats below 32 bits in f32, other floats and
/// integers in the result type (the interpreter sums in double, or int64,
/// and rounds once, which the f32 sum matches within a few ulps and the
/// integer sum, wrapping, exactly). A float result takes float, integer
/// and pred operands (each element converted exactly, as the interpreter
/// reads them as doubles), an integer result integer and pred operands,
/// pred only pred operands (or of ands).
struct ProductSum {
  OpBuilder &b;
  Location loc;
  Type lhsHlo, rhsHlo, out, acc;
  bool pred;
  /// Low bits of f32 operands dropped before multiplying (the bf16 and
  /// TF32 dot algorithms).
  unsigned dropped;

  static FailureOr<ProductSum> get(OpBuilder &b, Location loc, Operation *op,
                                   Type lhsHlo, Type rhsHlo, Type outHlo,
                                   unsigned dropped) {
    Type out = getScalarType(outHlo);
    auto isFloat = [](Type t) { return isa<FloatType>(t); };
    auto isInt = [](Type t) { return isa<IntegerType>(t); };
    Type lhsScalar = getScalarType(lhsHlo), rhsScalar = getScalarType(rhsHlo);
    if (!(isFloat(out) &&
          llvm::all_of(TypeRange{lhsScalar, rhsScalar},
                       [&](Type t) { return isFloat(t) || isInt(t); })) &&
        !(isInt(out) && isInt(lhsScalar) && isInt(rhsScalar)))
      return op->emitError("loop emitter: ")
             << getOpcode(op) << " of " << lhsHlo << " and " << rhsHlo << " to "
             << outHlo
             << " (float results of float or integer operands, integer "
                "results of integer operands)";
    bool pred = out.isInteger(1);
    if (pred && !(lhsScalar.isInteger(1) && rhsScalar.isInteger(1)))
      return op->emitError("loop emitter: a pred ")
             << getOpcode(op) << " of non-pred operands";
    Type acc = out;
    if (auto fp = dyn_cast<FloatType>(out); fp && fp.getWidth() < 32)
      acc = b.getF32Type();
    return ProductSum{b, loc, lhsHlo, rhsHlo, out, acc, pred, dropped};
  }

  Value zero() {
    if (isa<FloatType>(acc))
      return arith::ConstantOp::create(b, loc, acc, b.getFloatAttr(acc, 0.0));
    return arith::ConstantIntOp::create(b, loc, acc, 0);
  }

  /// sum + l * r, the operand elements l and r widened and rounded.
  Value add(Value sum, Value l, Value r) {
    l = round(widen(l, lhsHlo));
    r = round(widen(r, rhsHlo));
    if (pred)
      return arith::OrIOp::create(b, loc, sum,
                                  arith::AndIOp::create(b, loc, l, r));
    if (isa<FloatType>(acc))
      return arith::AddFOp::create(b, loc, sum,
                                   arith::MulFOp::create(b, loc, l, r));
    return arith::AddIOp::create(b, loc, sum,
                                 arith::MulIOp::create(b, loc, l, r));
  }

  /// sum + lhs[lhsIndex] * rhs[rhsIndex], the elements from `generator`.
  FailureOr<Value> addAt(ElementGenerator &generator, Value sum, Value lhs,
                         ValueRange lhsIndex, Value rhs, ValueRange rhsIndex) {
    FailureOr<Value> x = generator.emitOne(lhs, lhsIndex);
    if (failed(x))
      return failure();
    FailureOr<Value> y = generator.emitOne(rhs, rhsIndex);
    if (failed(y))
      return failure();
    return add(sum, *x, *y);
  }

  /// The sum in the result type.
  Value result(Value sum) {
    return acc == out ? sum : arith::TruncFOp::create(b, loc, out, sum);
  }

private:
  /// An operand element in the accumulation type; pred and unsigned
  /// integers are read as unsigned.
  Value widen(Value v, Type hloType) {
    if (v.getType() == acc)
      return v;
    bool isUnsigned = hloType.isUnsignedInteger() || hloType.isInteger(1);
    if (isa<FloatType>(acc)) {
      if (isa<IntegerType>(v.getType()))
        return isUnsigned ? Value(arith::UIToFPOp::create(b, loc, acc, v))
                          : Value(arith::SIToFPOp::create(b, loc, acc, v));
      auto from = cast<FloatType>(v.getType());
      if (from.getWidth() < cast<FloatType>(acc).getWidth())
        return arith::ExtFOp::create(b, loc, acc, v);
      return arith::TruncFOp::create(b, loc, acc, v);
    }
    unsigned from = v.getType().getIntOrFloatBitWidth(),
             to = acc.getIntOrFloatBitWidth();
    if (from > to)
      return arith::TruncIOp::create(b, loc, acc, v);
    if (isUnsigned)
      return arith::ExtUIOp::create(b, loc, acc, v);
    return arith::ExtSIOp::create(b, loc, acc, v);
  }

  /// f32 rounded to nearest even with its `dropped` low bits zero, as the
  /// interpreter does (NaNs kept).
  Value round(Value v) {
    if (dropped == 0 || !v.getType().isF32())
      return v;
    Type i32 = b.getI32Type();
    auto c = [&](uint32_t x) {
      return arith::ConstantIntOp::create(b, loc, i32, int64_t(x));
    };
    Value bits = arith::BitcastOp::create(b, loc, i32, v);
    Value lsb = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, bits, c(dropped)), c(1));
    Value up = arith::AddIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, bits, c((1u << (dropped - 1)) - 1)), lsb);
    Value kept = arith::AndIOp::create(b, loc, up, c(~((1u << dropped) - 1)));
    Value rounded = arith::BitcastOp::create(b, loc, v.getType(), kept);
    Value nan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
    return arith::SelectOp::create(b, loc, nan, v, rounded);
  }
};
} // namespace

FailureOr<Value>
ElementGenerator::sumLoop(int64_t trips, Value init,
                          function_ref<FailureOr<Value>(Value, Value)> body) {
  auto forOp = scf::ForOp::create(b, loc, indexConst(0), indexConst(trips),
                                  indexConst(1), ValueRange{init});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forOp.getBody());
  FailureOr<Value> next = inScope([&] {
    return body(forOp.getInductionVar(), forOp.getRegionIterArgs().front());
  });
  if (failed(next))
    return failure();
  scf::YieldOp::create(b, loc, *next);
  return forOp.getResult(0);
}

FailureOr<SmallVector<Value>> ElementGenerator::emitDot(DotOp op,
                                                        ValueRange index) {
  Value lhs = op.getLhs(), rhs = op.getRhs();
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  auto outType = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> lb = dimsOrEmpty(op.getLhsBatchDims());
  ArrayRef<int64_t> lc = dimsOrEmpty(op.getLhsContractingDims());
  ArrayRef<int64_t> rb = dimsOrEmpty(op.getRhsBatchDims());
  ArrayRef<int64_t> rc = dimsOrEmpty(op.getRhsContractingDims());
  SmallVector<int64_t> lf = dotFreeDims(lhsType.getRank(), lb, lc);
  SmallVector<int64_t> rf = dotFreeDims(rhsType.getRank(), rb, rc);
  if (lb.size() != rb.size() || lc.size() != rc.size() ||
      outType.getRank() !=
          static_cast<int64_t>(lb.size() + lf.size() + rf.size()))
    return op->emitError("loop emitter: dot dimension numbers do not fit "
                         "the shapes");
  FailureOr<ProductSum> products = ProductSum::get(
      b, loc, op, lhsType.getElementType(), rhsType.getElementType(),
      outType.getElementType(),
      getDroppedOperandBits(op.getAlgorithm().value_or(DotAlgorithm::Unset)));
  if (failed(products))
    return failure();
  // The output index: batch, lhs free, rhs free.
  SmallVector<Value> lhsIndex(lhsType.getRank()), rhsIndex(rhsType.getRank());
  unsigned k = 0;
  for (auto [l, r] : llvm::zip(lb, rb)) {
    lhsIndex[l] = index[k];
    rhsIndex[r] = index[k++];
  }
  for (int64_t d : lf)
    lhsIndex[d] = index[k++];
  for (int64_t d : rf)
    rhsIndex[d] = index[k++];
  // One loop per contracting dimension, in dimension-number order (the
  // interpreter's order of the sum), innermost last.
  std::function<FailureOr<Value>(unsigned, Value)> loop =
      [&](unsigned c, Value sum) -> FailureOr<Value> {
    if (c == lc.size()) {
      return products->addAt(*this, sum, lhs, lhsIndex, rhs, rhsIndex);
    }
    return sumLoop(lhsType.getDimSize(lc[c]), sum, [&](Value i, Value acc) {
      lhsIndex[lc[c]] = rhsIndex[rc[c]] = i;
      return loop(c + 1, acc);
    });
  };
  FailureOr<Value> sum = loop(0, products->zero());
  if (failed(sum))
    return failure();
  return SmallVector<Value>{products->result(*sum)};
}

FailureOr<SmallVector<Value>>
ElementGenerator::emitConvolution(ConvolutionOp op, ValueRange index) {
  Value lhs = op.getLhs(), rhs = op.getRhs();
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  auto outType = cast<RankedTensorType>(op.getType());
  ConvDimensionNumbersAttr dn = op.getDimLabels();
  if (!dn || !lhsType.hasStaticShape() || !rhsType.hasStaticShape() ||
      !outType.hasStaticShape())
    return op->emitError("loop emitter: a convolution without dimension "
                         "labels or of dynamic shapes");
  FailureOr<ProductSum> products =
      ProductSum::get(b, loc, op, lhsType.getElementType(),
                      rhsType.getElementType(), outType.getElementType(),
                      /*dropped=*/0);
  if (failed(products))
    return failure();
  WindowAttr w = op.getWindowAttr();
  size_t rank = dn.getInputSpatial().size();
  int64_t outFeatures = outType.getDimSize(dn.getOutputFeature());
  int64_t outBatch = outType.getDimSize(dn.getOutputBatch());
  int64_t groupInputs = rhsType.getDimSize(dn.getKernelInput());
  int64_t fgc = op.getFeatureGroupCount().value_or(1);
  int64_t bgc = op.getBatchGroupCount().value_or(1);
  // Output (b, f, o...) reads input batch (f / (F / bgc)) * B + b and
  // input features (f / (F / fgc)) * I + i for kernel input feature i.
  Value f = index[dn.getOutputFeature()];
  auto div = [&](Value v, int64_t d) -> Value {
    return arith::DivUIOp::create(b, loc, v, indexConst(d));
  };
  auto mul = [&](Value v, int64_t m) -> Value {
    return arith::MulIOp::create(b, loc, v, indexConst(m));
  };
  SmallVector<Value> lhsIndex(lhsType.getRank()), rhsIndex(rhsType.getRank());
  lhsIndex[dn.getInputBatch()] =
      arith::AddIOp::create(b, loc, mul(div(f, outFeatures / bgc), outBatch),
                            index[dn.getOutputBatch()]);
  Value firstInput = mul(div(f, outFeatures / fgc), groupInputs);
  rhsIndex[dn.getKernelOutput()] = f;
  // Loops over the window (row-major; stages 0 .. rank - 1), a guard that
  // the window position reads the input (stage rank) and, innermost, the
  // group's input features (stage rank + 1): the interpreter's order of
  // the sum. Per spatial dimension d,
  // window position k reads q = o * stride + k * rhs_dilate - pad_low,
  // which must be a multiple of lhs_dilate inside the input (any other q
  // reads a padding or dilation zero), at kernel position K - 1 - k where
  // the window is reversed.
  SmallVector<Value> inside;
  std::function<FailureOr<Value>(size_t, Value)> loop =
      [&](size_t d, Value sum) -> FailureOr<Value> {
    if (d == rank + 2) {
      return products->addAt(*this, sum, lhs, lhsIndex, rhs, rhsIndex);
    }
    if (d == rank) {
      if (inside.empty())
        return loop(d + 1, sum);
      // Only window positions that read the input add to the sum.
      Value all = inside.front();
      for (Value v : ArrayRef(inside).drop_front())
        all = arith::AndIOp::create(b, loc, all, v);
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{sum.getType()}, all,
                                    /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      FailureOr<Value> then = inScope([&] { return loop(d + 1, sum); });
      if (failed(then))
        return failure();
      scf::YieldOp::create(b, loc, *then);
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      scf::YieldOp::create(b, loc, sum);
      return ifOp.getResult(0);
    }
    if (d > rank)
      return sumLoop(groupInputs, sum, [&](Value i, Value acc) {
        lhsIndex[dn.getInputFeature()] =
            arith::AddIOp::create(b, loc, firstInput, i);
        rhsIndex[dn.getKernelInput()] = i;
        return loop(d + 1, acc);
      });
    int64_t stride = w ? windowAt(w.getStride(), d, 1) : 1;
    int64_t padLow = w ? windowAt(w.getPadLow(), d, 0) : 0;
    int64_t lhsDilate = w ? windowAt(w.getLhsDilate(), d, 1) : 1;
    int64_t rhsDilate = w ? windowAt(w.getRhsDilate(), d, 1) : 1;
    bool reversed = w && windowAt(w.getReversal(), d, 0);
    int64_t inSize = lhsType.getDimSize(dn.getInputSpatial()[d]);
    int64_t kernelSize = rhsType.getDimSize(dn.getKernelSpatial()[d]);
    return sumLoop(kernelSize, sum, [&](Value k, Value acc) {
      // q in index arithmetic (may be negative).
      Value q = arith::SubIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc,
                                mul(index[dn.getOutputSpatial()[d]], stride),
                                mul(k, rhsDilate)),
          indexConst(padLow));
      Value p = q;
      Value ok = arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, q,
                                indexConst(0)),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, q,
                                indexConst((inSize - 1) * lhsDilate + 1)));
      if (lhsDilate != 1) {
        Value rem = arith::RemSIOp::create(b, loc, q, indexConst(lhsDilate));
        ok = arith::AndIOp::create(
            b, loc, ok,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem,
                                  indexConst(0)));
        p = arith::DivSIOp::create(b, loc, q, indexConst(lhsDilate));
      }
      // Out-of-range positions are never read: clamp them so that even
      // speculated index arithmetic stays in bounds.
      p = arith::MaxSIOp::create(
          b, loc, arith::MinSIOp::create(b, loc, p, indexConst(inSize - 1)),
          indexConst(0));
      lhsIndex[dn.getInputSpatial()[d]] = p;
      rhsIndex[dn.getKernelSpatial()[d]] =
          reversed ? Value(arith::SubIOp::create(b, loc,
                                                 indexConst(kernelSize - 1), k))
                   : k;
      inside.push_back(ok);
      FailureOr<Value> next = loop(d + 1, acc);
      inside.pop_back();
      return next;
    });
  };
  FailureOr<Value> sum = loop(0, products->zero());
  if (failed(sum))
    return failure();
  return SmallVector<Value>{products->result(*sum)};
}

FailureOr<SmallVector<Value>>
ElementGenerator::emitSelectAndScatter(SelectAndScatterOp op,
                                       ValueRange index) {
  // In output space, race-free and deterministic: the element at operand
  // index `o` starts as init and folds, with the scatter computation, the
  // source elements s whose window holds o and selected o. Such s are
  // found by walking the window offsets w (s = (o + pad_low - w) / stride
  // where that divides and lies in the source); walking each w backwards
  // visits s in row-major order, the interpreter's order. The selection of
  // s's window repeats the interpreter's: the first position inside the
  // operand, then each later one replacing it where `select(current,
  // candidate)` is false.
  auto select = symbols.lookup<ComputationOp>(op.getSelect());
  auto scatter = symbols.lookup<ComputationOp>(op.getScatter());
  if (!select || !scatter)
    return op->emitError("loop emitter: select-and-scatter computation "
                         "missing");
  Value operand = op.getOperand(), source = op.getSource();
  auto operandType = cast<RankedTensorType>(operand.getType());
  auto sourceType = cast<RankedTensorType>(source.getType());
  int64_t rank = operandType.getRank();
  SmallVector<int64_t> size, stride, padLow;
  WindowAttr window = op.getWindow();
  for (int64_t d = 0; d < rank; ++d) {
    size.push_back(window ? windowAt(window.getSize(), d, 1) : 1);
    stride.push_back(window ? windowAt(window.getStride(), d, 1) : 1);
    padLow.push_back(window ? windowAt(window.getPadLow(), d, 0) : 0);
    if (window && (windowAt(window.getLhsDilate(), d, 1) != 1 ||
                   windowAt(window.getRhsDilate(), d, 1) != 1))
      return op->emitError("loop emitter: select-and-scatter with dilation");
  }
  FailureOr<Value> init = emitOne(op.getInitValue(), {});
  if (failed(init))
    return failure();
  auto andAll = [&](Value all, Value c) -> Value {
    return all ? arith::AndIOp::create(b, loc, all, c).getResult() : c;
  };
  Value zeroIdx = indexConst(0);
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, p, x, y);
  };
  // The window position (linear, row-major over `size`) of the element
  // source index `s` selects, and whether any position lies inside.
  auto selectIn = [&](ValueRange s) -> FailureOr<std::pair<Value, Value>> {
    Type scalar = getScalarType(operandType.getElementType());
    Value none = indexConst(-1);
    Value dummy;
    if (isa<FloatType>(scalar))
      dummy = arith::ConstantOp::create(b, loc, scalar,
                                        b.getFloatAttr(scalar, 0.0));
    else if (isa<IntegerType>(scalar))
      dummy = arith::ConstantIntOp::create(b, loc, scalar, 0);
    else
      return op->emitError("loop emitter: select-and-scatter of ")
             << operandType.getElementType();
    SmallVector<Value> w, at(rank);
    std::function<FailureOr<SmallVector<Value>>(int64_t, ValueRange)> walk =
        [&](int64_t d, ValueRange state) -> FailureOr<SmallVector<Value>> {
      // state: selected position, selected value, window linear offset.
      if (d == rank) {
        Value inside;
        for (int64_t e = 0; e < rank; ++e) {
          at[e] = arith::AddIOp::create(
              b, loc,
              arith::MulIOp::create(b, loc, s[e], indexConst(stride[e])),
              arith::SubIOp::create(b, loc, w[e], indexConst(padLow[e])));
          inside =
              andAll(inside, cmp(arith::CmpIPredicate::sge, at[e], zeroIdx));
          inside = andAll(inside, cmp(arith::CmpIPredicate::slt, at[e],
                                      indexConst(operandType.getDimSize(e))));
        }
        Value pos = state[2];
        Value nextPos = arith::AddIOp::create(b, loc, pos, indexConst(1));
        auto ifOp = scf::IfOp::create(
            b, loc, TypeRange{b.getIndexType(), scalar}, inside,
            /*withElseRegion=*/true);
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(&ifOp.getElseRegion().front());
          scf::YieldOp::create(b, loc, ValueRange{state[0], state[1]});
          b.setInsertionPointToStart(&ifOp.getThenRegion().front());
          FailureOr<Value> candidate =
              inScope([&] { return emitOne(operand, at); });
          if (failed(candidate))
            return failure();
          Value first = cmp(arith::CmpIPredicate::slt, state[0], zeroIdx);
          auto firstIf = scf::IfOp::create(
              b, loc, TypeRange{b.getIndexType(), scalar}, first,
              /*withElseRegion=*/true);
          b.setInsertionPointToStart(&firstIf.getThenRegion().front());
          scf::YieldOp::create(b, loc, ValueRange{pos, *candidate});
          b.setInsertionPointToStart(&firstIf.getElseRegion().front());
          FailureOr<SmallVector<Value>> keep = emitScalarComputation(
              b, loc, select.getBody(), {state[1], *candidate});
          if (failed(keep))
            return failure();
          Value selPos =
              arith::SelectOp::create(b, loc, keep->front(), state[0], pos);
          Value selVal = arith::SelectOp::create(b, loc, keep->front(),
                                                 state[1], *candidate);
          scf::YieldOp::create(b, loc, ValueRange{selPos, selVal});
          b.setInsertionPointAfter(firstIf);
          scf::YieldOp::create(b, loc, firstIf.getResults());
        }
        return SmallVector<Value>{ifOp.getResult(0), ifOp.getResult(1),
                                  nextPos};
      }
      auto forOp = scf::ForOp::create(b, loc, zeroIdx, indexConst(size[d]),
                                      indexConst(1), state);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(forOp.getBody());
      w.push_back(forOp.getInductionVar());
      FailureOr<SmallVector<Value>> next =
          inScope([&] { return walk(d + 1, forOp.getRegionIterArgs()); });
      w.pop_back();
      if (failed(next))
        return failure();
      scf::YieldOp::create(b, loc, *next);
      return SmallVector<Value>(forOp.getResults());
    };
    FailureOr<SmallVector<Value>> r = walk(0, ValueRange{none, dummy, zeroIdx});
    if (failed(r))
      return failure();
    return std::make_pair((*r)[0],
                          cmp(arith::CmpIPredicate::sge, (*r)[0], zeroIdx));
  };
  // The fold over the window offsets of `o`, each walked backwards.
  SmallVector<Value> w(rank), s(rank);
  std::function<FailureOr<Value>(int64_t, Value)> fold =
      [&](int64_t d, Value accum) -> FailureOr<Value> {
    if (d == rank) {
      // s = (o + pad_low - w) / stride, in range and divisible.
      Value valid;
      Value wLinear = zeroIdx;
      for (int64_t e = 0; e < rank; ++e) {
        Value t = arith::SubIOp::create(
            b, loc,
            arith::AddIOp::create(b, loc, index[e], indexConst(padLow[e])),
            w[e]);
        valid = andAll(valid, cmp(arith::CmpIPredicate::sge, t, zeroIdx));
        if (stride[e] != 1) {
          Value rem = arith::RemSIOp::create(b, loc, t, indexConst(stride[e]));
          valid = andAll(valid, cmp(arith::CmpIPredicate::eq, rem, zeroIdx));
          s[e] = arith::DivSIOp::create(b, loc, t, indexConst(stride[e]));
        } else {
          s[e] = t;
        }
        valid = andAll(valid, cmp(arith::CmpIPredicate::slt, s[e],
                                  indexConst(sourceType.getDimSize(e))));
        wLinear = arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, wLinear, indexConst(size[e])),
            w[e]);
      }
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{accum.getType()}, valid,
                                    /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      scf::YieldOp::create(b, loc, accum);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      FailureOr<Value> folded = inScope([&]() -> FailureOr<Value> {
        FailureOr<std::pair<Value, Value>> sel = selectIn(s);
        if (failed(sel))
          return failure();
        Value hit = arith::AndIOp::create(
            b, loc, sel->second,
            cmp(arith::CmpIPredicate::eq, sel->first, wLinear));
        auto hitIf = scf::IfOp::create(b, loc, TypeRange{accum.getType()}, hit,
                                       /*withElseRegion=*/true);
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(&hitIf.getElseRegion().front());
        scf::YieldOp::create(b, loc, accum);
        b.setInsertionPointToStart(&hitIf.getThenRegion().front());
        FailureOr<Value> x = inScope([&] { return emitOne(source, s); });
        if (failed(x))
          return failure();
        FailureOr<SmallVector<Value>> r =
            emitScalarComputation(b, loc, scatter.getBody(), {accum, *x});
        if (failed(r))
          return failure();
        scf::YieldOp::create(b, loc, r->front());
        return Value(hitIf.getResult(0));
      });
      if (failed(folded))
        return failure();
      scf::YieldOp::create(b, loc, *folded);
      return Value(ifOp.getResult(0));
    }
    auto forOp = scf::ForOp::create(b, loc, zeroIdx, indexConst(size[d]),
                                    indexConst(1), ValueRange{accum});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forOp.getBody());
    w[d] = arith::SubIOp::create(b, loc, indexConst(size[d] - 1),
                                 forOp.getInductionVar());
    FailureOr<Value> next =
        inScope([&] { return fold(d + 1, forOp.getRegionIterArgs().front()); });
    if (failed(next))
      return failure();
    scf::YieldOp::create(b, loc, *next);
    return forOp.getResult(0);
  };
  FailureOr<Value> result = fold(0, *init);
  if (failed(result))
    return failure();
  return SmallVector<Value>{*result};
}
