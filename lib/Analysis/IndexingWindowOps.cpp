//===- IndexingWindowOps.cpp - maps of ops that combine elements ----------===//
//
// Ops where one output element reads many operand elements: reduce,
// reduce-window, sort, dot, convolution, and gather (whose operand offsets
// are runtime values). The elements read together become range variables.
//
//===----------------------------------------------------------------------===//

#include "IndexingAnalysisImpl.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::indexing;

/// The maps of an op with `n` inputs followed by `n` scalar inits (reduce,
/// reduce-window): `inputMap` for each input, `initMap` for each init.
static InstructionIndexing inputsThenInits(unsigned n,
                                           const IndexingMap &inputMap,
                                           const IndexingMap &initMap) {
  InstructionIndexing result;
  result.indexing.assign(n, single(inputMap));
  result.indexing.append(n, single(initMap));
  return result;
}

static AffineExpr dim(unsigned i, MLIRContext *ctx) {
  return getAffineDimExpr(i, ctx);
}
static AffineExpr sym(unsigned i, MLIRContext *ctx) {
  return getAffineSymbolExpr(i, ctx);
}

/// `values[i]`, or `dflt` when the list is shorter (window fields at their
/// defaults are empty).
static int64_t at(ArrayRef<int64_t> values, unsigned i, int64_t dflt) {
  return i < values.size() ? values[i] : dflt;
}

//===----------------------------------------------------------------------===//
// Reduce
//===----------------------------------------------------------------------===//

// Operands are N inputs then N inits. Output j (every j) reads each input
// over the reduced dimensions (range variables, in dimension order) and each
// init whole.
InstructionIndexing indexing::reduceOutputToInput(ReduceOp op,
                                                  unsigned output) {
  MLIRContext *ctx = op.getContext();
  unsigned n = op.getInputs().size() / 2;
  ArrayRef<int64_t> reduced = op.getDimensions();
  SmallVector<int64_t> out = outputShape(op, output);
  SmallVector<int64_t> in = shapeOf(op.getOperand(0));
  SmallVector<AffineExpr> results;
  SmallVector<int64_t> ranges;
  unsigned kept = 0;
  for (unsigned i = 0; i < in.size(); ++i) {
    if (llvm::is_contained(reduced, int64_t(i))) {
      results.push_back(sym(ranges.size(), ctx));
      ranges.push_back(in[i]);
    } else {
      results.push_back(dim(kept++, ctx));
    }
  }
  IndexingMap inputMap = makeMap(ctx, out, ranges, results);
  return inputsThenInits(n, inputMap, toScalarMap(ctx, out));
}

InstructionIndexing indexing::reduceInputToOutput(ReduceOp op,
                                                  unsigned operand) {
  MLIRContext *ctx = op.getContext();
  unsigned n = op.getInputs().size() / 2;
  unsigned numOutputs = getNumIndexingOutputs(op);
  SmallVector<int64_t> out = outputShape(op, 0);
  InstructionIndexing result;
  if (operand >= n) {
    result.indexing.assign(numOutputs, single(scalarToAllMap(ctx, out)));
    return result;
  }
  SmallVector<int64_t> in = shapeOf(op.getOperand(operand));
  SmallVector<AffineExpr> results;
  for (unsigned i = 0; i < in.size(); ++i)
    if (!llvm::is_contained(op.getDimensions(), int64_t(i)))
      results.push_back(dim(i, ctx));
  result.indexing.assign(numOutputs, single(makeMap(ctx, in, {}, results)));
  return result;
}

//===----------------------------------------------------------------------===//
// Reduce-window
//===----------------------------------------------------------------------===//

namespace {
/// A window over the dimensions of an input: per dimension the window size,
/// stride, padding and dilations (base = lhs, window = rhs).
struct Window {
  SmallVector<int64_t> size, stride, low, high, baseDilation, windowDilation;

  Window(WindowAttr attr, unsigned rank) {
    for (unsigned i = 0; i < rank; ++i) {
      size.push_back(attr ? at(attr.getSize(), i, 1) : 1);
      stride.push_back(attr ? at(attr.getStride(), i, 1) : 1);
      low.push_back(attr ? at(attr.getPadLow(), i, 0) : 0);
      high.push_back(attr ? at(attr.getPadHigh(), i, 0) : 0);
      baseDilation.push_back(attr ? at(attr.getLhsDilate(), i, 1) : 1);
      windowDilation.push_back(attr ? at(attr.getRhsDilate(), i, 1) : 1);
    }
  }

  /// True when the input is read as it is (no padding, no base dilation).
  bool readsInputAsIs() const {
    return llvm::all_of(low, [](int64_t v) { return v == 0; }) &&
           llvm::all_of(high, [](int64_t v) { return v == 0; }) &&
           llvm::all_of(baseDilation, [](int64_t v) { return v == 1; });
  }

  /// The shape of the padded, base-dilated input.
  SmallVector<int64_t> paddedShape(ArrayRef<int64_t> in) const {
    SmallVector<int64_t> result;
    for (unsigned i = 0; i < in.size(); ++i)
      result.push_back(low[i] + high[i] + (in[i] - 1) * baseDilation[i] + 1);
    return result;
  }

  SmallVector<int64_t> interior() const {
    SmallVector<int64_t> result;
    for (int64_t d : baseDilation)
      result.push_back(d - 1);
    return result;
  }
};
} // namespace

// Output index d reads, in the padded input, d * stride + s * dilation for
// each window position s (a range variable for each dimension whose window
// is wider than 1). Padding and base dilation are a pad in front of the
// input: the two maps are composed.
InstructionIndexing indexing::reduceWindowOutputToInput(ReduceWindowOp op,
                                                        unsigned output) {
  MLIRContext *ctx = op.getContext();
  unsigned n = op.getInputs().size() / 2;
  SmallVector<int64_t> out = outputShape(op, output);
  SmallVector<int64_t> in = shapeOf(op.getOperand(0));
  Window w(op.getWindowAttr(), in.size());
  SmallVector<AffineExpr> results;
  SmallVector<int64_t> ranges;
  for (unsigned i = 0; i < in.size(); ++i) {
    AffineExpr e = dim(i, ctx) * w.stride[i];
    if (w.size[i] > 1) {
      e = e + sym(ranges.size(), ctx) * w.windowDilation[i];
      ranges.push_back(w.size[i]);
    }
    results.push_back(e);
  }
  IndexingMap inputMap = makeMap(ctx, out, ranges, results);
  if (!w.readsInputAsIs()) {
    IndexingMap pad =
        paddedToOperandMap(ctx, w.paddedShape(in), in, w.low, w.interior());
    inputMap = composeSimplified(inputMap, pad);
  }
  return inputsThenInits(n, inputMap, toScalarMap(ctx, out));
}

// Input element e sits at P = e * baseDilation + low of the padded input;
// the window position s of output o covers it when
// o * stride + s * dilation = P.
InstructionIndexing indexing::reduceWindowInputToOutput(ReduceWindowOp op,
                                                        unsigned operand) {
  MLIRContext *ctx = op.getContext();
  unsigned n = op.getInputs().size() / 2;
  unsigned numOutputs = getNumIndexingOutputs(op);
  SmallVector<int64_t> out = outputShape(op, 0);
  InstructionIndexing result;
  if (operand >= n) {
    result.indexing.assign(numOutputs, single(scalarToAllMap(ctx, out)));
    return result;
  }
  SmallVector<int64_t> in = shapeOf(op.getOperand(operand));
  Window w(op.getWindowAttr(), in.size());
  SmallVector<AffineExpr> results;
  SmallVector<int64_t> ranges;
  SmallVector<std::pair<AffineExpr, Interval>> constraints;
  for (unsigned i = 0; i < in.size(); ++i) {
    AffineExpr q = dim(i, ctx) * w.baseDilation[i] + w.low[i];
    int64_t qMin = w.low[i], qMax = (in[i] - 1) * w.baseDilation[i] + w.low[i];
    if (w.size[i] > 1) {
      q = q - sym(ranges.size(), ctx) * w.windowDilation[i];
      qMin -= (w.size[i] - 1) * w.windowDilation[i];
      ranges.push_back(w.size[i]);
    }
    results.push_back(q.floorDiv(w.stride[i]));
    int64_t last = (out[i] - 1) * w.stride[i];
    if (qMin < 0 || qMax > last)
      constraints.push_back({q, Interval{0, last}});
    if (w.stride[i] != 1)
      constraints.push_back({q % w.stride[i], Interval{0, 0}});
  }
  IndexingMap map = makeMap(ctx, in, ranges, results);
  for (auto &[expr, interval] : constraints)
    map.addConstraint(expr, interval);
  result.indexing.assign(numOutputs, single(map));
  return result;
}

//===----------------------------------------------------------------------===//
// Sort
//===----------------------------------------------------------------------===//

/// Every output element depends on the whole row of every operand along the
/// sorted dimension: that dimension's index becomes a range variable.
static IndexingMap sortMap(SortOp op) {
  MLIRContext *ctx = op.getContext();
  SmallVector<int64_t> shape = shapeOf(op.getOperand(0));
  int64_t sorted = op.getDimensions().empty() ? 0 : op.getDimensions()[0];
  SmallVector<AffineExpr> results;
  for (unsigned i = 0; i < shape.size(); ++i)
    results.push_back(int64_t(i) == sorted ? sym(0, ctx) : dim(i, ctx));
  return makeMap(ctx, shape, {shape[sorted]}, results);
}

InstructionIndexing indexing::sortOutputToInput(SortOp op, unsigned) {
  InstructionIndexing result;
  result.indexing.assign(op.getInputs().size(), single(sortMap(op)));
  return result;
}

InstructionIndexing indexing::sortInputToOutput(SortOp op, unsigned) {
  InstructionIndexing result;
  result.indexing.assign(getNumIndexingOutputs(op), single(sortMap(op)));
  return result;
}

//===----------------------------------------------------------------------===//
// Dot
//===----------------------------------------------------------------------===//

namespace {
/// The dimensions of one dot operand: batch, contracting and the free rest.
struct DotSide {
  SmallVector<int64_t> shape, batch, contracting, free;

  DotSide(Value v, std::optional<ArrayRef<int64_t>> batchDims,
          std::optional<ArrayRef<int64_t>> contractingDims)
      : shape(shapeOf(v)) {
    batch.assign(batchDims.value_or(ArrayRef<int64_t>()).begin(),
                 batchDims.value_or(ArrayRef<int64_t>()).end());
    contracting.assign(contractingDims.value_or(ArrayRef<int64_t>()).begin(),
                       contractingDims.value_or(ArrayRef<int64_t>()).end());
    for (int64_t i = 0; i < int64_t(shape.size()); ++i)
      if (!llvm::is_contained(batch, i) && !llvm::is_contained(contracting, i))
        free.push_back(i);
  }
};
} // namespace

template <typename OpTy>
static std::pair<DotSide, DotSide> dotSides(OpTy op, Value lhs, Value rhs) {
  return {DotSide(lhs, op.getLhsBatchDims(), op.getLhsContractingDims()),
          DotSide(rhs, op.getRhsBatchDims(), op.getRhsContractingDims())};
}

// Output dimensions: batch, lhs free, rhs free. An operand reads the output's
// batch and own free indices, and its contracting dimensions whole.
static InstructionIndexing
dotMapsOutputToInput(Operation *op, const DotSide &lhs, const DotSide &rhs) {
  MLIRContext *ctx = op->getContext();
  SmallVector<int64_t> out = outputShape(op, 0);
  auto side = [&](const DotSide &s, unsigned freeOffset) {
    SmallVector<AffineExpr> results(s.shape.size());
    SmallVector<int64_t> ranges;
    for (auto [b, d] : llvm::enumerate(s.batch))
      results[d] = dim(b, ctx);
    for (auto [f, d] : llvm::enumerate(s.free))
      results[d] = dim(freeOffset + f, ctx);
    for (auto [c, d] : llvm::enumerate(s.contracting)) {
      results[d] = sym(c, ctx);
      ranges.push_back(s.shape[d]);
    }
    return single(makeMap(ctx, out, ranges, results));
  };
  unsigned nb = lhs.batch.size();
  return {{side(lhs, nb), side(rhs, nb + lhs.free.size())}};
}

// An operand element feeds the outputs with its batch and free indices, for
// every index of the other operand's free dimensions (range variables).
static InstructionIndexing dotMapsInputToOutput(Operation *op,
                                                const DotSide &lhs,
                                                const DotSide &rhs,
                                                unsigned operand) {
  MLIRContext *ctx = op->getContext();
  const DotSide &self = operand == 0 ? lhs : rhs;
  const DotSide &other = operand == 0 ? rhs : lhs;
  SmallVector<AffineExpr> results;
  SmallVector<int64_t> ranges;
  for (int64_t d : self.batch)
    results.push_back(dim(d, ctx));
  SmallVector<AffineExpr> own, others;
  for (int64_t d : self.free)
    own.push_back(dim(d, ctx));
  for (int64_t d : other.free) {
    others.push_back(sym(ranges.size(), ctx));
    ranges.push_back(other.shape[d]);
  }
  llvm::append_range(results, operand == 0 ? own : others);
  llvm::append_range(results, operand == 0 ? others : own);
  return {{single(makeMap(ctx, self.shape, ranges, results))}};
}

InstructionIndexing indexing::dotOutputToInput(DotOp op) {
  auto [lhs, rhs] = dotSides(op, op.getLhs(), op.getRhs());
  return dotMapsOutputToInput(op, lhs, rhs);
}

InstructionIndexing indexing::dotInputToOutput(DotOp op, unsigned operand) {
  auto [lhs, rhs] = dotSides(op, op.getLhs(), op.getRhs());
  return dotMapsInputToOutput(op, lhs, rhs, operand);
}

//===----------------------------------------------------------------------===//
// Scaled dot
//===----------------------------------------------------------------------===//

// scaled-dot(lhs, rhs, lhs_scale, rhs_scale): a dot of lhs and rhs, each
// element times the element of its scale that covers its block (dimension
// d of the scale covers operand_d / scale_d elements).

/// Why `op`'s scales do not block its operands, or an empty string.
static std::string scaledDotProblem(ScaledDotOp op) {
  auto operands = getDataOperands(op);
  if (operands.size() != 4)
    return "scaled-dot: needs lhs, rhs, lhs_scale and rhs_scale";
  for (unsigned i : {0u, 1u}) {
    SmallVector<int64_t> x = shapeOf(operands[i]),
                         scale = shapeOf(operands[i + 2]);
    if (x.size() != scale.size())
      return "scaled-dot: a scale must have its operand's rank";
    for (auto [n, m] : llvm::zip_equal(x, scale))
      if (m < 1 || n % m != 0)
        return "scaled-dot: a scale dimension must divide its operand's";
  }
  return "";
}

/// From an operand's index to its scale's (each dimension divided by the
/// block size).
static IndexingMap operandToScale(MLIRContext *ctx, ArrayRef<int64_t> x,
                                  ArrayRef<int64_t> scale) {
  SmallVector<AffineExpr> results;
  for (size_t d = 0; d < x.size(); ++d) {
    int64_t block = x[d] / scale[d];
    results.push_back(block == 1 ? dim(d, ctx) : dim(d, ctx).floorDiv(block));
  }
  return makeMap(ctx, x, {}, results);
}

/// From a scale's index to the operand elements of its block (a range
/// variable per blocked dimension).
static IndexingMap scaleToOperand(MLIRContext *ctx, ArrayRef<int64_t> x,
                                  ArrayRef<int64_t> scale) {
  SmallVector<AffineExpr> results;
  SmallVector<int64_t> ranges;
  for (size_t d = 0; d < x.size(); ++d) {
    int64_t block = x[d] / scale[d];
    if (block == 1) {
      results.push_back(dim(d, ctx));
      continue;
    }
    results.push_back(dim(d, ctx) * block + sym(ranges.size(), ctx));
    ranges.push_back(block);
  }
  return makeMap(ctx, scale, ranges, results);
}

InstructionIndexing indexing::scaledDotOutputToInput(ScaledDotOp op) {
  std::string why = scaledDotProblem(op);
  if (!why.empty())
    return allUnknown(getDataOperands(op).size(), why);
  MLIRContext *ctx = op.getContext();
  auto operands = getDataOperands(op);
  auto [lhs, rhs] = dotSides(op, operands[0], operands[1]);
  InstructionIndexing dot = dotMapsOutputToInput(op, lhs, rhs);
  InstructionIndexing result;
  for (unsigned i : {0u, 1u})
    result.indexing.push_back(single(dot.indexing[i].maps.front()));
  for (unsigned i : {0u, 1u})
    result.indexing.push_back(single(composeSimplified(
        dot.indexing[i].maps.front(),
        operandToScale(ctx, shapeOf(operands[i]), shapeOf(operands[i + 2])))));
  return result;
}

InstructionIndexing indexing::scaledDotInputToOutput(ScaledDotOp op,
                                                     unsigned operand) {
  std::string why = scaledDotProblem(op);
  if (!why.empty())
    return allUnknown(1, why);
  MLIRContext *ctx = op.getContext();
  auto operands = getDataOperands(op);
  auto [lhs, rhs] = dotSides(op, operands[0], operands[1]);
  unsigned side = operand % 2;
  InstructionIndexing dot = dotMapsInputToOutput(op, lhs, rhs, side);
  if (operand < 2)
    return dot;
  return {{single(composeSimplified(
      scaleToOperand(ctx, shapeOf(operands[side]), shapeOf(operands[operand])),
      dot.indexing[0].maps.front()))}};
}

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

// Output (batch b, feature f, spatial o) reads lhs (b of f's batch group,
// input feature of f's feature group, o * stride + s * rhs_dilation in the
// padded, lhs-dilated input) and rhs (input feature, f, window position s).
// Range variables: the window positions of spatial dimensions wider than 1,
// then the input feature.
InstructionIndexing indexing::convolutionOutputToInput(ConvolutionOp op) {
  MLIRContext *ctx = op.getContext();
  ConvDimensionNumbersAttr labels = op.getDimLabels();
  SmallVector<int64_t> out = outputShape(op, 0);
  SmallVector<int64_t> lhsShape = shapeOf(op.getLhs());
  SmallVector<int64_t> rhsShape = shapeOf(op.getRhs());
  unsigned numSpatial = labels.getInputSpatial().size();
  Window w(op.getWindowAttr(), numSpatial);
  int64_t groups = op.getFeatureGroupCount().value_or(1);
  int64_t batchGroups = op.getBatchGroupCount().value_or(1);
  int64_t inFeaturesPerGroup = rhsShape[labels.getKernelInput()];
  int64_t outFeaturesPerGroup = out[labels.getOutputFeature()] / groups;
  int64_t outFeaturesPerBatchGroup =
      out[labels.getOutputFeature()] / batchGroups;

  SmallVector<int64_t> ranges;
  SmallVector<AffineExpr> windowPos(numSpatial);
  for (unsigned i = 0; i < numSpatial; ++i) {
    if (w.size[i] > 1) {
      windowPos[i] = sym(ranges.size(), ctx);
      ranges.push_back(w.size[i]);
    } else {
      windowPos[i] = getAffineConstantExpr(0, ctx);
    }
  }
  AffineExpr feature = sym(ranges.size(), ctx);
  ranges.push_back(inFeaturesPerGroup);

  // lhs, in the coordinates of its padded, dilated view.
  SmallVector<AffineExpr> lhsResults(lhsShape.size());
  SmallVector<int64_t> padded(lhsShape), low(lhsShape.size(), 0),
      interior(lhsShape.size(), 0);
  // Batch group g (output features g * F / batch_group_count ...) reads
  // the g-th block of the input's batch.
  AffineExpr batch = dim(labels.getOutputBatch(), ctx);
  if (batchGroups != 1)
    batch = batch +
            dim(labels.getOutputFeature(), ctx)
                    .floorDiv(std::max<int64_t>(outFeaturesPerBatchGroup, 1)) *
                out[labels.getOutputBatch()];
  lhsResults[labels.getInputBatch()] = batch;
  AffineExpr group = dim(labels.getOutputFeature(), ctx)
                         .floorDiv(std::max<int64_t>(outFeaturesPerGroup, 1));
  lhsResults[labels.getInputFeature()] =
      groups == 1 ? feature : group * inFeaturesPerGroup + feature;
  for (unsigned i = 0; i < numSpatial; ++i) {
    int64_t d = labels.getInputSpatial()[i];
    lhsResults[d] = dim(labels.getOutputSpatial()[i], ctx) * w.stride[i] +
                    windowPos[i] * w.windowDilation[i];
    padded[d] =
        w.low[i] + w.high[i] + (lhsShape[d] - 1) * w.baseDilation[i] + 1;
    low[d] = w.low[i];
    interior[d] = w.baseDilation[i] - 1;
  }
  IndexingMap lhsMap = makeMap(ctx, out, ranges, lhsResults);
  if (!w.readsInputAsIs())
    lhsMap = composeSimplified(
        lhsMap, paddedToOperandMap(ctx, padded, lhsShape, low, interior));

  // rhs: reversed window dimensions read the kernel back to front.
  SmallVector<AffineExpr> rhsResults(rhsShape.size());
  rhsResults[labels.getKernelInput()] = feature;
  rhsResults[labels.getKernelOutput()] = dim(labels.getOutputFeature(), ctx);
  WindowAttr attr = op.getWindowAttr();
  for (unsigned i = 0; i < numSpatial; ++i) {
    bool reversed = attr && at(attr.getReversal(), i, 0);
    rhsResults[labels.getKernelSpatial()[i]] =
        reversed ? (w.size[i] - 1) - windowPos[i] : windowPos[i];
  }
  IndexingMap rhsMap = makeMap(ctx, out, ranges, rhsResults);
  return {{single(lhsMap), single(rhsMap)}};
}

InstructionIndexing indexing::convolutionInputToOutput(ConvolutionOp,
                                                       unsigned) {
  return allUnknown(1, "convolution: input-to-output is not modelled");
}

//===----------------------------------------------------------------------===//
// Gather
//===----------------------------------------------------------------------===//

/// Why `op` is not the simplified gather this analysis handles (indices of
/// rank 2 with the index vector last, start_index_map 0..k-1, nothing
/// collapsed, offset dimensions 1..rank), or an empty string.
static std::string notSimplifiedGather(GatherOp op) {
  SmallVector<int64_t> operand = shapeOf(op.getOperand());
  SmallVector<int64_t> indices = shapeOf(op.getStartIndices());
  if (indices.size() != 2 || op.getIndexVectorDim() != 1)
    return "gather: indices must be rank 2 with index_vector_dim=1";
  if (!op.getCollapsedSliceDims().empty() ||
      !op.getOperandBatchingDims().value_or(ArrayRef<int64_t>()).empty() ||
      !op.getStartIndicesBatchingDims().value_or(ArrayRef<int64_t>()).empty())
    return "gather: collapsed or batching dimensions are not simplified";
  ArrayRef<int64_t> offsetDims = op.getOffsetDims();
  if (offsetDims.size() != operand.size())
    return "gather: offset_dims must cover the operand";
  for (auto [i, d] : llvm::enumerate(offsetDims))
    if (d != int64_t(i) + 1)
      return "gather: offset_dims must be 1..rank";
  ArrayRef<int64_t> startIndexMap = op.getStartIndexMap();
  if (int64_t(startIndexMap.size()) != indices[1])
    return "gather: start_index_map must match the index vector";
  for (auto [i, d] : llvm::enumerate(startIndexMap))
    if (d != int64_t(i))
      return "gather: start_index_map must be 0..k-1";
  return "";
}

// Output (n, o...) reads operand o + start where start_i is indices (n, i):
// a runtime variable per indexed dimension, assumed to keep the slice in
// bounds. It reads the whole row n of the indices.
InstructionIndexing indexing::gatherOutputToInput(GatherOp op) {
  std::string why = notSimplifiedGather(op);
  if (!why.empty())
    return allUnknown(2, why);
  MLIRContext *ctx = op.getContext();
  SmallVector<int64_t> out = outputShape(op, 0);
  SmallVector<int64_t> operand = shapeOf(op.getOperand());
  SmallVector<int64_t> indices = shapeOf(op.getStartIndices());
  ArrayRef<int64_t> sliceSizes = op.getSliceSizes();
  SmallVector<AffineExpr> results;
  std::vector<RuntimeVar> vars;
  for (unsigned i = 0; i < operand.size(); ++i) {
    AffineExpr e = dim(i + 1, ctx);
    if (int64_t(i) < indices[1]) {
      e = e + sym(vars.size(), ctx);
      AffineMap read = AffineMap::get(
          out.size(), 0, {dim(0, ctx), getAffineConstantExpr(int64_t(i), ctx)},
          ctx);
      vars.push_back(RuntimeVar{Interval{0, operand[i] - sliceSizes[i]},
                                op.getStartIndices(), read});
    }
    results.push_back(e);
  }
  IndexingMap operandMap = makeMap(ctx, out, {}, results, std::move(vars));
  IndexingMap indicesMap =
      makeMap(ctx, out, {indices[1]}, {dim(0, ctx), sym(0, ctx)});
  return {{single(operandMap), single(indicesMap)}};
}

// A row of the indices feeds the slice of output row n; where an operand
// element lands depends on the indices' values, which no map can say.
InstructionIndexing indexing::gatherInputToOutput(GatherOp op,
                                                  unsigned operand) {
  std::string why = notSimplifiedGather(op);
  if (!why.empty())
    return allUnknown(1, why);
  if (operand == 0)
    return allUnknown(1, "gather: the operand's place in the output depends "
                         "on the indices");
  MLIRContext *ctx = op.getContext();
  SmallVector<int64_t> out = outputShape(op, 0);
  SmallVector<AffineExpr> results = {dim(0, ctx)};
  SmallVector<int64_t> ranges;
  for (unsigned i = 1; i < out.size(); ++i) {
    results.push_back(sym(i - 1, ctx));
    ranges.push_back(out[i]);
  }
  return {
      {single(makeMap(ctx, shapeOf(op.getStartIndices()), ranges, results))}};
}
