//===- IndexingOps.cpp - indexing maps of single hlo ops ------------------===//
//
// The maps of ops that move elements without combining them: elementwise
// ops, pass-through ops (tuples, copies, all-reduce), broadcast, transpose,
// reverse, slice, reshape, bitcast, concatenate, pad, dynamic-slice and
// dynamic-update-slice. Each function reads like the definition of the op:
// output index on the left, operand index on the right.
//
//===----------------------------------------------------------------------===//

#include "IndexingAnalysisImpl.h"

#include "llvm/Support/MathExtras.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::indexing;

static AffineExpr dim(unsigned i, MLIRContext *ctx) {
  return getAffineDimExpr(i, ctx);
}
static AffineExpr sym(unsigned i, MLIRContext *ctx) {
  return getAffineSymbolExpr(i, ctx);
}

//===----------------------------------------------------------------------===//
// Elementwise and pass-through
//===----------------------------------------------------------------------===//

bool indexing::isElementwise(Operation *op) {
  return isa<AbsOp, AcosOp, AcoshOp, AsinOp, AsinhOp, AtanhOp, CoshOp, SinhOp,
             CbrtOp, CeilOp, ClzOp, CosOp, ErfOp, ExpOp, Expm1Op, FloorOp,
             ImagOp, IsFiniteOp, LogOp, Log1pOp, LogisticOp, NegOp, NotOp,
             PopcntOp, RealOp, RoundAfzOp, RoundEvenOp, RsqrtOp, SignOp, SinOp,
             SqrtOp, TanOp, TanhOp, ConvertOp, ReducePrecisionOp,
             StochasticConvertOp>(op) ||
         isa<AddOp, Atan2Op, AndOp, ComplexOp, DivOp, MaxOp, MinOp, MulOp,
             MulhiOp, OrOp, PowOp, RemOp, ShiftLeftOp, ShiftRightArithmeticOp,
             ShiftRightLogicalOp, SubtractOp, XorOp, CompareOp, ClampOp,
             SelectOp, MapOp>(op);
}

// Output element d reads element d of every operand; a scalar operand of an
// array op (clamp bounds, select predicate) is read whole.
InstructionIndexing indexing::elementwiseOutputToInput(Operation *op,
                                                       unsigned output) {
  MLIRContext *ctx = op->getContext();
  SmallVector<int64_t> shape = outputShape(op, output);
  InstructionIndexing result;
  for (Value operand : getDataOperands(op)) {
    if (shapeOf(operand).empty() && !shape.empty())
      result.indexing.push_back(single(toScalarMap(ctx, shape)));
    else
      result.indexing.push_back(single(identityMap(ctx, shape)));
  }
  return result;
}

InstructionIndexing indexing::elementwiseInputToOutput(Operation *op,
                                                       unsigned operand) {
  MLIRContext *ctx = op->getContext();
  SmallVector<int64_t> shape = outputShape(op, 0);
  if (shapeOf(op->getOperand(operand)).empty() && !shape.empty())
    return {{single(scalarToAllMap(ctx, shape))}};
  return {{single(identityMap(ctx, shape))}};
}

bool indexing::isPassThrough(Operation *op) {
  return isa<CopyOp, OptimizationBarrierOp, DomainOp, TupleOp,
             GetTupleElementOp, AllReduceOp, AddDependencyOp, AsyncUpdateOp,
             AsyncDoneOp>(op);
}

/// Ops whose operand `i` is output `i` (tuple; all-reduce of several
/// operands, whose result is the tuple of the reduced operands).
static bool isPerOperandTuple(Operation *op) {
  return isa<TupleOp, AllReduceOp>(op);
}

/// The identity over output `output`, or unknown when it is not an array.
static OperandIndexing identityOfOutput(Operation *op, unsigned output) {
  std::optional<SmallVector<int64_t>> shape =
      getStaticShape(getOutputType(op, output));
  if (!shape)
    return OperandIndexing::unknown("output " + std::to_string(output) +
                                    " is not an array");
  return single(identityMap(op->getContext(), *shape));
}

// Output K is operand K (tuple, all-reduce) or element K of operand 0 (copy,
// opt-barrier, domain, async-update of a tuple); get-tuple-element reads its
// element of the tuple operand; async-done yields element 1 of its chain
// operand (the wrapped computation's result, mapped through it by
// async-start). Other operands (add-dependency's token) are not read.
InstructionIndexing indexing::passThroughOutputToInput(Operation *op,
                                                       unsigned output) {
  InstructionIndexing result;
  result.indexing.resize(getDataOperands(op).size());
  unsigned source = isPerOperandTuple(op) ? output : 0;
  if (source < getDataOperands(op).size())
    result.indexing[source] = identityOfOutput(op, output);
  return result;
}

InstructionIndexing indexing::passThroughInputToOutput(Operation *op,
                                                       unsigned operand) {
  InstructionIndexing result;
  unsigned numOutputs = getNumIndexingOutputs(op);
  result.indexing.resize(numOutputs);
  if (isPerOperandTuple(op)) {
    if (operand < numOutputs)
      result.indexing[operand] = identityOfOutput(op, operand);
    return result;
  }
  if (operand != 0)
    return result;
  for (unsigned k = 0; k < numOutputs; ++k)
    result.indexing[k] = identityOfOutput(op, k);
  return result;
}

// Same bit width: elementwise. A wider element is split into a new minor
// dimension of the narrower side; a narrower one is merged from it. `from`
// is the side the map starts from.
static InstructionIndexing bitcastConvertMap(MLIRContext *ctx,
                                             ArrayRef<int64_t> from,
                                             ArrayRef<int64_t> to) {
  SmallVector<AffineExpr> results;
  for (unsigned i = 0; i < to.size() && i < from.size(); ++i)
    results.push_back(dim(i, ctx));
  if (to.size() <= from.size())
    return {{single(makeMap(ctx, from, {}, results))}};
  results.push_back(sym(0, ctx));
  return {{single(makeMap(ctx, from, {to.back()}, results))}};
}

InstructionIndexing indexing::bitcastConvertOutputToInput(BitcastConvertOp op) {
  return bitcastConvertMap(op.getContext(), outputShape(op, 0),
                           shapeOf(op.getOperand()));
}

InstructionIndexing indexing::bitcastConvertInputToOutput(BitcastConvertOp op) {
  return bitcastConvertMap(op.getContext(), shapeOf(op.getOperand()),
                           outputShape(op, 0));
}

//===----------------------------------------------------------------------===//
// Broadcast, transpose, reverse, slice
//===----------------------------------------------------------------------===//

// Operand dimension i is output dimension dimensions[i].
InstructionIndexing indexing::broadcastOutputToInput(BroadcastOp op) {
  MLIRContext *ctx = op.getContext();
  ArrayRef<int64_t> dims = op.getDimensions().value_or(ArrayRef<int64_t>());
  SmallVector<AffineExpr> results;
  for (int64_t d : dims)
    results.push_back(dim(d, ctx));
  return {{single(makeMap(ctx, outputShape(op, 0), {}, results))}};
}

// The output dimensions the operand does not have become range variables.
InstructionIndexing indexing::broadcastInputToOutput(BroadcastOp op) {
  MLIRContext *ctx = op.getContext();
  ArrayRef<int64_t> dims = op.getDimensions().value_or(ArrayRef<int64_t>());
  SmallVector<int64_t> out = outputShape(op, 0);
  SmallVector<AffineExpr> results;
  SmallVector<int64_t> ranges;
  for (unsigned j = 0; j < out.size(); ++j) {
    const int64_t *pos = llvm::find(dims, int64_t(j));
    if (pos != dims.end()) {
      results.push_back(dim(pos - dims.begin(), ctx));
    } else {
      results.push_back(sym(ranges.size(), ctx));
      ranges.push_back(out[j]);
    }
  }
  return {{single(makeMap(ctx, shapeOf(op.getOperand()), ranges, results))}};
}

// Output dimension i is operand dimension dimensions[i].
InstructionIndexing indexing::transposeOutputToInput(TransposeOp op) {
  MLIRContext *ctx = op.getContext();
  ArrayRef<int64_t> perm = op.getDimensions();
  SmallVector<AffineExpr> results(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    results[p] = dim(i, ctx);
  return {{single(makeMap(ctx, outputShape(op, 0), {}, results))}};
}

InstructionIndexing indexing::transposeInputToOutput(TransposeOp op) {
  MLIRContext *ctx = op.getContext();
  SmallVector<AffineExpr> results;
  for (int64_t p : op.getDimensions())
    results.push_back(dim(p, ctx));
  return {{single(makeMap(ctx, shapeOf(op.getOperand()), {}, results))}};
}

/// Index d of a reversed dimension of size n is n - 1 - d: its own inverse.
static InstructionIndexing reverseMap(ReverseOp op) {
  MLIRContext *ctx = op.getContext();
  SmallVector<int64_t> shape = outputShape(op, 0);
  SmallVector<AffineExpr> results;
  for (unsigned i = 0; i < shape.size(); ++i) {
    if (llvm::is_contained(op.getDimensions(), int64_t(i)))
      results.push_back(shape[i] - 1 - dim(i, ctx));
    else
      results.push_back(dim(i, ctx));
  }
  return {{single(makeMap(ctx, shape, {}, results))}};
}

InstructionIndexing indexing::reverseOutputToInput(ReverseOp op) {
  return reverseMap(op);
}
InstructionIndexing indexing::reverseInputToOutput(ReverseOp op) {
  return reverseMap(op);
}

// Output index d reads start + d * stride.
InstructionIndexing indexing::sliceOutputToInput(SliceOp op) {
  MLIRContext *ctx = op.getContext();
  SliceAttr slice = op.getSlice();
  SmallVector<AffineExpr> results;
  for (unsigned i = 0; i < slice.getStarts().size(); ++i)
    results.push_back(dim(i, ctx) * slice.getStrides()[i] +
                      slice.getStarts()[i]);
  return {{single(makeMap(ctx, outputShape(op, 0), {}, results))}};
}

// Only the operand elements on the strided grid reach the output: the
// domain spans from the first to the last element taken, and the stride is
// a `mod` constraint.
InstructionIndexing indexing::sliceInputToOutput(SliceOp op) {
  MLIRContext *ctx = op.getContext();
  SliceAttr slice = op.getSlice();
  SmallVector<int64_t> out = outputShape(op, 0);
  SmallVector<int64_t> in = shapeOf(op.getOperand());
  SmallVector<AffineExpr> results;
  std::vector<Interval> dims;
  SmallVector<std::pair<AffineExpr, Interval>> constraints;
  for (unsigned i = 0; i < in.size(); ++i) {
    int64_t start = slice.getStarts()[i], stride = slice.getStrides()[i];
    AffineExpr offset = dim(i, ctx) - start;
    results.push_back(offset.floorDiv(stride));
    dims.push_back({start, start + (out[i] - 1) * stride});
    if (stride != 1)
      constraints.push_back({offset % stride, Interval{0, 0}});
  }
  AffineMap map = AffineMap::get(in.size(), 0, results, ctx);
  return {{single(IndexingMap(map, dims, {}, {}, constraints))}};
}

//===----------------------------------------------------------------------===//
// Reshape and bitcast
//===----------------------------------------------------------------------===//

static SmallVector<AffineExpr> dims(unsigned n, MLIRContext *ctx) {
  SmallVector<AffineExpr> result;
  for (unsigned i = 0; i < n; ++i)
    result.push_back(dim(i, ctx));
  return result;
}

/// A map from a tensor of shape `from` to the same elements viewed with
/// shape `to`, in row-major order.
static IndexingMap reshapeMap(MLIRContext *ctx, ArrayRef<int64_t> from,
                              ArrayRef<int64_t> to) {
  bool needsSimplify = false;
  SmallVector<AffineExpr> results =
      reshapeExprs(ctx, from, to, dims(from.size(), ctx), needsSimplify);
  IndexingMap map = makeMap(ctx, from, {}, results);
  if (needsSimplify)
    map.simplify();
  return map;
}

InstructionIndexing indexing::reshapeOutputToInput(Operation *op) {
  return {{single(reshapeMap(op->getContext(), outputShape(op, 0),
                             shapeOf(op->getOperand(0))))}};
}

InstructionIndexing indexing::reshapeInputToOutput(Operation *op) {
  return {{single(reshapeMap(op->getContext(), shapeOf(op->getOperand(0)),
                             outputShape(op, 0)))}};
}

/// The dimensions of `type` from major to minor: the reverse of its
/// layout's minor-to-major list, or row-major without a layout. Empty when
/// the layout is tiled (the element order is then not a permutation).
static std::optional<SmallVector<int64_t>> majorToMinor(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<int64_t> order;
  auto layout = dyn_cast_or_null<LayoutAttr>(tensor.getEncoding());
  if (layout && !layout.getTileSizes().empty())
    return std::nullopt;
  if (layout && layout.getHasMinorToMajor() &&
      layout.getMinorToMajor().size() == size_t(tensor.getRank())) {
    order.assign(layout.getMinorToMajor().rbegin(),
                 layout.getMinorToMajor().rend());
    return order;
  }
  for (int64_t i = 0; i < tensor.getRank(); ++i)
    order.push_back(i);
  return order;
}

/// A bitcast keeps the bytes: with the physical (major-to-minor) order of
/// each side, it is a reshape between the physical shapes, so the map goes
/// logical `from` -> physical `from` -> physical `to` -> logical `to`.
static std::optional<IndexingMap> bitcastMap(MLIRContext *ctx, Type fromType,
                                             Type toType) {
  auto fromOrder = majorToMinor(fromType), toOrder = majorToMinor(toType);
  if (!fromOrder || !toOrder)
    return std::nullopt;
  SmallVector<int64_t> from = *getStaticShape(fromType);
  SmallVector<int64_t> to = *getStaticShape(toType);
  SmallVector<int64_t> fromPhysical, toPhysical;
  SmallVector<AffineExpr> fromPhysicalIndex;
  for (int64_t d : *fromOrder) {
    fromPhysical.push_back(from[d]);
    fromPhysicalIndex.push_back(dim(d, ctx));
  }
  for (int64_t d : *toOrder)
    toPhysical.push_back(to[d]);
  bool needsSimplify = false;
  SmallVector<AffineExpr> toPhysicalIndex = reshapeExprs(
      ctx, fromPhysical, toPhysical, fromPhysicalIndex, needsSimplify);
  SmallVector<AffineExpr> results(to.size());
  for (auto [pos, d] : llvm::enumerate(*toOrder))
    results[d] = toPhysicalIndex[pos];
  IndexingMap map = makeMap(ctx, from, {}, results);
  map.simplify();
  return map;
}

/// Whether bitcast `op` maps element to element: arrays of one element type,
/// or of two of one bit width (XLA's simplifier makes a same-width
/// bitcast-convert a bitcast).
static bool elementsCorrespond(BitcastOp op) {
  auto in = dyn_cast<RankedTensorType>(op.getOperand().getType());
  auto out = dyn_cast<RankedTensorType>(op.getType());
  if (!in || !out)
    return false;
  Type a = in.getElementType(), b = out.getElementType();
  return a == b || (a.isIntOrFloat() && b.isIntOrFloat() &&
                    a.getIntOrFloatBitWidth() == b.getIntOrFloatBitWidth());
}

InstructionIndexing indexing::bitcastOutputToInput(BitcastOp op) {
  Type in = op.getOperand().getType(), out = op.getType();
  if (!elementsCorrespond(op))
    return allUnknown(1, "bitcast: only arrays of element types of one "
                         "width");
  std::optional<IndexingMap> map = bitcastMap(op.getContext(), out, in);
  if (!map)
    return allUnknown(1, "bitcast: tiled layout");
  return {{single(*map)}};
}

InstructionIndexing indexing::bitcastInputToOutput(BitcastOp op) {
  Type in = op.getOperand().getType(), out = op.getType();
  if (!elementsCorrespond(op))
    return allUnknown(1, "bitcast: only arrays of element types of one "
                         "width");
  std::optional<IndexingMap> map = bitcastMap(op.getContext(), in, out);
  if (!map)
    return allUnknown(1, "bitcast: tiled layout");
  return {{single(*map)}};
}

//===----------------------------------------------------------------------===//
// Concatenate and pad
//===----------------------------------------------------------------------===//

// Operand k covers [offset_k, offset_k + size_k) of the concatenated
// dimension: each map's domain is that stretch, so the domains are disjoint.
InstructionIndexing indexing::concatenateOutputToInput(ConcatenateOp op) {
  MLIRContext *ctx = op.getContext();
  int64_t cat = op.getDimensions()[0];
  SmallVector<int64_t> out = outputShape(op, 0);
  InstructionIndexing result;
  int64_t offset = 0;
  for (Value operand : op.getInputs()) {
    SmallVector<int64_t> in = shapeOf(operand);
    SmallVector<AffineExpr> results = dims(out.size(), ctx);
    results[cat] = results[cat] - offset;
    std::vector<Interval> domain;
    for (int64_t size : out)
      domain.push_back({0, size - 1});
    domain[cat] = {offset, offset + in[cat] - 1};
    AffineMap map = AffineMap::get(out.size(), 0, results, ctx);
    result.indexing.push_back(single(IndexingMap(map, domain, {})));
    offset += in[cat];
  }
  return result;
}

InstructionIndexing indexing::concatenateInputToOutput(ConcatenateOp op,
                                                       unsigned operand) {
  MLIRContext *ctx = op.getContext();
  int64_t cat = op.getDimensions()[0];
  int64_t offset = 0;
  for (unsigned k = 0; k < operand; ++k)
    offset += shapeOf(op.getOperand(k))[cat];
  SmallVector<int64_t> in = shapeOf(op.getOperand(operand));
  SmallVector<AffineExpr> results = dims(in.size(), ctx);
  results[cat] = results[cat] + offset;
  return {{single(makeMap(ctx, in, {}, results))}};
}

// all-gather of one array concatenates the operands of the replicas of a
// group along `dimensions[0]`: output index i there is index i mod s of
// the operand (extent s) of the replica of rank i floordiv s. The rank is
// not a value of the program, so the maps relate positions: an output
// element reads its position of an operand, and an operand element is
// written at its position in every rank's block (a range variable).
static std::string allGatherProblem(AllGatherOp op) {
  if (getDataOperands(op).size() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()) ||
      op.getDimensions().size() != 1)
    return "all-gather: only one array operand is modelled";
  return "";
}

InstructionIndexing indexing::allGatherOutputToInput(AllGatherOp op) {
  std::string why = allGatherProblem(op);
  if (!why.empty())
    return allUnknown(getDataOperands(op).size(), why);
  MLIRContext *ctx = op.getContext();
  int64_t d = op.getDimensions()[0];
  SmallVector<int64_t> out = outputShape(op, 0);
  int64_t s = shapeOf(getDataOperands(op)[0])[d];
  SmallVector<AffineExpr> results = dims(out.size(), ctx);
  results[d] = results[d] % s;
  return {{single(makeMap(ctx, out, {}, results))}};
}

InstructionIndexing indexing::allGatherInputToOutput(AllGatherOp op) {
  std::string why = allGatherProblem(op);
  if (!why.empty())
    return allUnknown(getNumIndexingOutputs(op), why);
  MLIRContext *ctx = op.getContext();
  int64_t d = op.getDimensions()[0];
  SmallVector<int64_t> in = shapeOf(getDataOperands(op)[0]);
  int64_t ranks = outputShape(op, 0)[d] / std::max<int64_t>(in[d], 1);
  SmallVector<AffineExpr> results = dims(in.size(), ctx);
  results[d] = results[d] + sym(0, ctx) * in[d];
  return {{single(makeMap(ctx, in, {ranks}, results))}};
}

// Output index d of a dimension padded with (low, high, interior) holds
// operand element (d - low) / (interior + 1) when that division is exact and
// the element exists; elsewhere it holds the padding value.
IndexingMap indexing::paddedToOperandMap(MLIRContext *ctx,
                                         ArrayRef<int64_t> padded,
                                         ArrayRef<int64_t> operand,
                                         ArrayRef<int64_t> low,
                                         ArrayRef<int64_t> interior) {
  SmallVector<AffineExpr> results;
  std::vector<Interval> domain;
  SmallVector<std::pair<AffineExpr, Interval>> constraints;
  for (unsigned i = 0; i < operand.size(); ++i) {
    int64_t step = interior[i] + 1;
    AffineExpr offset = dim(i, ctx) - low[i];
    results.push_back(offset.floorDiv(step));
    domain.push_back(
        {std::max<int64_t>(low[i], 0),
         std::min(low[i] + (operand[i] - 1) * step, padded[i] - 1)});
    if (step != 1)
      constraints.push_back({offset % step, Interval{0, 0}});
  }
  AffineMap map = AffineMap::get(padded.size(), 0, results, ctx);
  return IndexingMap(map, domain, {}, {}, constraints);
}

InstructionIndexing indexing::padOutputToInput(PadOp op) {
  MLIRContext *ctx = op.getContext();
  PaddingAttr padding = op.getPadding();
  SmallVector<int64_t> out = outputShape(op, 0);
  InstructionIndexing result;
  result.indexing.push_back(
      single(paddedToOperandMap(ctx, out, shapeOf(op.getOperand()),
                                padding.getLow(), padding.getInterior())));
  result.indexing.push_back(single(toScalarMap(ctx, out)));
  return result;
}

InstructionIndexing indexing::padInputToOutput(PadOp op, unsigned operand) {
  MLIRContext *ctx = op.getContext();
  SmallVector<int64_t> out = outputShape(op, 0);
  if (operand == 1)
    return {{single(scalarToAllMap(ctx, out))}};
  PaddingAttr padding = op.getPadding();
  SmallVector<int64_t> in = shapeOf(op.getOperand());
  SmallVector<AffineExpr> results;
  std::vector<Interval> domain;
  for (unsigned i = 0; i < in.size(); ++i) {
    int64_t low = padding.getLow()[i], step = padding.getInterior()[i] + 1;
    results.push_back(dim(i, ctx) * step + low);
    // The operand elements that negative padding does not cut off.
    domain.push_back(
        {std::max<int64_t>(0, -llvm::divideFloorSigned(low, step)),
         std::min(in[i] - 1, llvm::divideFloorSigned(out[i] - 1 - low, step))});
  }
  AffineMap map = AffineMap::get(in.size(), 0, results, ctx);
  return {{single(IndexingMap(map, domain, {}))}};
}

//===----------------------------------------------------------------------===//
// Dynamic slice and dynamic update slice
//===----------------------------------------------------------------------===//

/// A runtime variable for the scalar start index `index`, read whole by
/// every element of a `rank`-dimensional index space; it is assumed to keep
/// the slice in bounds: [0, max].
static RuntimeVar startIndexVar(Value index, int64_t max, unsigned rank) {
  MLIRContext *ctx = index.getContext();
  return RuntimeVar{Interval{0, max}, index, AffineMap::get(rank, 0, ctx)};
}

// Output index d reads operand element d + start, one runtime variable per
// start index.
InstructionIndexing indexing::dynamicSliceOutputToInput(DynamicSliceOp op) {
  MLIRContext *ctx = op.getContext();
  SmallVector<int64_t> out = outputShape(op, 0);
  SmallVector<int64_t> in = shapeOf(op.getOperand());
  SmallVector<AffineExpr> results;
  std::vector<RuntimeVar> vars;
  for (unsigned i = 0; i < in.size(); ++i) {
    results.push_back(dim(i, ctx) + sym(i, ctx));
    vars.push_back(
        startIndexVar(op.getStartIndices()[i], in[i] - out[i], out.size()));
  }
  InstructionIndexing result;
  result.indexing.push_back(single(makeMap(ctx, out, {}, results, vars)));
  for (unsigned i = 0; i < op.getStartIndices().size(); ++i)
    result.indexing.push_back(single(toScalarMap(ctx, out)));
  return result;
}

// Operand element d lands at output d - start when that is inside the
// slice; every output element reads the start indices.
InstructionIndexing indexing::dynamicSliceInputToOutput(DynamicSliceOp op,
                                                        unsigned operand) {
  MLIRContext *ctx = op.getContext();
  SmallVector<int64_t> out = outputShape(op, 0);
  if (operand != 0)
    return {{single(scalarToAllMap(ctx, out))}};
  SmallVector<int64_t> in = shapeOf(op.getOperand());
  SmallVector<AffineExpr> results;
  std::vector<RuntimeVar> vars;
  for (unsigned i = 0; i < in.size(); ++i) {
    results.push_back(dim(i, ctx) - sym(i, ctx));
    vars.push_back(
        startIndexVar(op.getStartIndices()[i], in[i] - out[i], in.size()));
  }
  IndexingMap map = makeMap(ctx, in, {}, results, vars);
  for (unsigned i = 0; i < in.size(); ++i)
    map.addConstraint(results[i], {0, out[i] - 1});
  return {{single(map)}};
}

// The output reads the operand at the same index, and the update at
// d - start. (Where the update lands, the operand is not read, but the
// domain cannot say so without inequalities on runtime variables.)
InstructionIndexing
indexing::dynamicUpdateSliceOutputToInput(DynamicUpdateSliceOp op) {
  MLIRContext *ctx = op.getContext();
  SmallVector<int64_t> out = outputShape(op, 0);
  SmallVector<int64_t> upd = shapeOf(op.getUpdate());
  SmallVector<AffineExpr> results;
  std::vector<RuntimeVar> vars;
  for (unsigned i = 0; i < out.size(); ++i) {
    results.push_back(dim(i, ctx) - sym(i, ctx));
    vars.push_back(
        startIndexVar(op.getStartIndices()[i], out[i] - upd[i], out.size()));
  }
  InstructionIndexing result;
  result.indexing.push_back(single(identityMap(ctx, out)));
  result.indexing.push_back(single(makeMap(ctx, out, {}, results, vars)));
  for (unsigned i = 0; i < op.getStartIndices().size(); ++i)
    result.indexing.push_back(single(toScalarMap(ctx, out)));
  return result;
}

InstructionIndexing
indexing::dynamicUpdateSliceInputToOutput(DynamicUpdateSliceOp op,
                                          unsigned operand) {
  MLIRContext *ctx = op.getContext();
  SmallVector<int64_t> out = outputShape(op, 0);
  if (operand == 0)
    return {{single(identityMap(ctx, out))}};
  if (operand >= 2)
    return {{single(scalarToAllMap(ctx, out))}};
  SmallVector<int64_t> upd = shapeOf(op.getUpdate());
  SmallVector<AffineExpr> results;
  std::vector<RuntimeVar> vars;
  for (unsigned i = 0; i < upd.size(); ++i) {
    results.push_back(dim(i, ctx) + sym(i, ctx));
    vars.push_back(
        startIndexVar(op.getStartIndices()[i], out[i] - upd[i], upd.size()));
  }
  return {{single(makeMap(ctx, upd, {}, results, vars))}};
}
