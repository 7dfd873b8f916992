//===- SpmdWindows.cpp - windowed instructions on tiles, with halos -------===//
//
// hlo-spmd-partitioner's rules for convolutions, reduce-windows, pads,
// slices and select-and-scatters (SpmdValues.h). A window tiled along a
// dimension it slides over reads elements of the neighbouring tiles: each
// partition receives them by collective-permutes (its halo, SpmdHalos.h),
// the instruction's padding there becomes values (zeros from no neighbour
// at the array's ends, or the padding value by a mask) and each partition
// slides the window over its tile and halo (XLA's halo exchange of a
// spatially partitioned convolution or pooling). Rotations (jnp.roll) take
// their source's tiles with a halo that wraps around its ends.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"
#include "SpmdHalos.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloOpClasses.h"

using namespace mlir;
using namespace mlir::hlo;

/// Whether window dimension `w` takes one element at a time, unpadded.
static bool isTrivial(const WindowFields &window, size_t w) {
  return window.size[w] == 1 && window.stride[w] == 1 &&
         window.padLow[w] == 0 && window.padHigh[w] == 0 &&
         window.lhsDilate[w] == 1;
}

/// A pad as a window of one element sliding over its operand, dilated by
/// the interior padding, padded by the edges'.
static WindowFields padWindow(PadOp op) {
  PaddingAttr padding = op.getPadding();
  WindowFields window({}, padding.getLow().size());
  window.padLow = llvm::to_vector(padding.getLow());
  window.padHigh = llvm::to_vector(padding.getHigh());
  for (auto [d, i] : llvm::enumerate(padding.getInterior()))
    window.lhsDilate[d] = i + 1;
  return window;
}

/// A slice as a window of one element striding over its operand from its
/// start.
static WindowFields sliceWindow(SliceOp op) {
  SliceAttr slice = op.getSlice();
  WindowFields window({}, slice.getStarts().size());
  window.stride = llvm::to_vector(slice.getStrides());
  for (auto [d, start] : llvm::enumerate(slice.getStarts()))
    window.padLow[d] = -start;
  return window;
}

/// Whether the windows of a select-and-scatter's tile of `n` along window
/// dimension `w` (of `size` elements, its source `sourceSize`) lie in its
/// tile of the operand: even tiles of whole windows that do not overlap.
/// (The partitioner serves others by halos where the scatter has an
/// identity.)
static bool windowsInTiles(const WindowFields &window, size_t w, int64_t size,
                           int64_t sourceSize, int64_t n) {
  return size % n == 0 && sourceSize % n == 0 && window.lhsDilate[w] == 1 &&
         window.rhsDilate[w] == 1 && window.padLow[w] == 0 &&
         window.size[w] <= window.stride[w] &&
         sourceSize / n * window.stride[w] == size / n;
}

TileSharding mlir::hlo::fitWindowTiles(Operation *op, TileSharding t,
                                       bool ofResult) {
  if (auto sas = dyn_cast<SelectAndScatterOp>(op)) {
    ArrayRef<int64_t> in = arrayType(sas.getOperand()).getShape();
    ArrayRef<int64_t> source = arrayType(sas.getSource()).getShape();
    WindowFields window(sas.getWindow(), in.size());
    // (Its alternative gathers operand and source.)
    for (size_t d = 0; d < in.size(); ++d) {
      int64_t n = t.getTiles(d);
      if (n > 1 && !windowsInTiles(window, d, in[d], source[d], n) &&
          !planCrossing(nullptr, window, d, n, in[d], source[d]))
        t = t.withoutDim(d);
    }
    return t;
  }
  // Each window dimension's operand and result dimensions.
  WindowFields window;
  SmallVector<int64_t> inDims, outDims;
  if (auto conv = dyn_cast<ConvolutionOp>(op)) {
    window = windowOf(op);
    inDims = llvm::to_vector(conv.getDimLabels().getInputSpatial());
    outDims = llvm::to_vector(conv.getDimLabels().getOutputSpatial());
  } else if (isa<PadOp, SliceOp>(op)) {
    auto pad = dyn_cast<PadOp>(op);
    window = pad ? padWindow(pad) : sliceWindow(cast<SliceOp>(op));
    inDims = outDims = llvm::to_vector(llvm::seq<int64_t>(0, window.rank()));
  } else if (auto rw = dyn_cast<ReduceWindowOp>(op);
             rw && arrayType(op->getResult(0))) {
    int64_t rank = arrayType(op->getOperand(0)).getRank();
    window = WindowFields(rw.getWindowAttr(), rank);
    inDims = outDims = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  } else {
    return t;
  }
  ArrayRef<int64_t> in = arrayType(op->getOperand(0)).getShape();
  ArrayRef<int64_t> out = arrayType(op->getResult(0)).getShape();
  for (size_t w = 0; w < window.rank(); ++w) {
    // Halos from the neighbouring tiles only; a window wider than a tile
    // (a kernel's gradient) is better partitioned along it than slid
    // across tiles.
    int64_t d = ofResult ? outDims[w] : inDims[w];
    int64_t n = t.getTiles(d);
    int64_t span = (window.size[w] - 1) * window.rhsDilate[w] + 1;
    int64_t tile = llvm::divideCeil(in[inDims[w]], n);
    if (n == 1 || (isTrivial(window, w) && in[inDims[w]] == out[outDims[w]]))
      continue;
    std::optional<Halo> h = slidingHalo(nullptr, inDims[w], n, in[inDims[w]],
                                        out[outDims[w]], window, w);
    if (span > tile || !h || h->left > tile || h->right > tile)
      t = t.withoutDim(d);
  }
  return t;
}

/// Operand 0 of `op` (tiles `in`, of shape `inShape`) given its halos,
/// its window's (a pad's) padding along them what the halo leaves.
static void applyHalos(SpmdValues &values, Operation *op,
                       const TileSharding &in, ArrayRef<int64_t> inShape,
                       WindowFields window,
                       ArrayRef<std::pair<size_t, Halo>> halos,
                       Value padValue) {
  if (halos.empty())
    return;
  OpBuilder b(op);
  InstBuilder ib(b, derivedLoc(op->getLoc()));
  Value v = op->getOperand(0);
  for (auto &[w, h] : halos) {
    v = withHalo(values, ib, v, in, h, inShape[h.dim], padValue);
    window.padLow[w] = h.padLow;
    window.padHigh[w] = h.padHigh;
  }
  op->setOperand(0, v);
  if (auto pad = dyn_cast<PadOp>(op))
    pad.setPaddingAttr(PaddingAttr::get(op->getContext(), window.padLow,
                                        window.padHigh,
                                        pad.getPadding().getInterior()));
  else
    op->setAttr("window", window.toAttr(op->getContext()));
}

/// The halos of the dimensions `out` tiles of an instruction whose window
/// slides along each operand dimension (of `inShape`) to the same result
/// dimension (of `shape`): a reduce-window, pad or slice; nothing where
/// one cannot be had.
static std::optional<SmallVector<std::pair<size_t, Halo>>>
sameDimHalos(const TileSharding &out, ArrayRef<int64_t> inShape,
             ArrayRef<int64_t> shape, const WindowFields &window) {
  SmallVector<std::pair<size_t, Halo>> halos;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (out.getTiles(d) == 1 ||
        (isTrivial(window, d) && inShape[d] == shape[d]))
      continue;
    std::optional<Halo> h =
        slidingHalo(&out, d, out.getTiles(d), inShape[d], shape[d], window, d);
    if (!h)
      return std::nullopt;
    halos.push_back({d, std::move(*h)});
  }
  return halos;
}

SmallVector<int64_t> mlir::hlo::convResultDims(ConvolutionOp op,
                                               unsigned operand) {
  ConvDimensionNumbersAttr dims = op.getDimLabels();
  if (operand == 1) {
    SmallVector<int64_t> r(arrayType(op.getRhs()).getRank(), -1);
    r[dims.getKernelOutput()] = dims.getOutputFeature();
    return r;
  }
  SmallVector<int64_t> r(arrayType(op.getLhs()).getRank(), -1);
  r[dims.getInputBatch()] = dims.getOutputBatch();
  for (auto [i, o] : llvm::zip(dims.getInputSpatial(), dims.getOutputSpatial()))
    r[i] = o;
  return r;
}

/// A convolution whose result is tiled along its batch, output feature
/// and spatial dimensions: the input's batch and spatial tiles (the latter
/// with halos) times the kernel's output feature tiles. Where both
/// operands of an ungrouped one are tiled alike along the input features
/// (a gradient's batch) or along spatial dimensions the result takes whole
/// (a kernel's gradient: the kernel is the window), each partition
/// convolves its part, the latter over its tile of the window with the
/// input's halo, and an all-reduce sums the parts. One with feature groups
/// whose output features are tiled along whole groups takes the input
/// features of its groups: each partition convolves its groups (a
/// depthwise convolution by channels). One with batch groups (a grouped
/// convolution's kernel gradient) whose result keeps its batch and
/// features whole sums the parts of its input features (the batch of the
/// data-parallel step).
bool mlir::hlo::partitionConvolution(SpmdValues &values, ConvolutionOp op,
                                     const TileSharding &out,
                                     function_ref<StringRef(Type)> adder) {
  int64_t featureGroups = op.getFeatureGroupCount().value_or(1);
  int64_t batchGroups = op.getBatchGroupCount().value_or(1);
  ConvDimensionNumbersAttr dims = op.getDimLabels();
  int64_t featureTiles = out.getTiles(dims.getOutputFeature());
  if (featureGroups > 1 && featureGroups % featureTiles != 0)
    return false;
  if (batchGroups > 1 && (featureTiles > 1 || featureGroups > 1 ||
                          out.getTiles(dims.getOutputBatch()) > 1))
    return false;
  WindowFields window = windowOf(op);
  ArrayRef<int64_t> outShape = arrayType(op.getResult()).getShape();
  SmallVector<int64_t> inShape(values.wholeShape(op.getLhs()));
  ArrayRef<int64_t> kShape = values.wholeShape(op.getRhs());
  TileSharding in = out.project(convResultDims(op, 0));
  TileSharding kernel = out.project(convResultDims(op, 1));
  if (featureGroups > 1 && featureTiles > 1) {
    // The input features of each partition's groups.
    SmallVector<int64_t> inDims = convResultDims(op, 0);
    inDims[dims.getInputFeature()] = dims.getOutputFeature();
    in = out.project(inDims);
  }
  // The dimensions both operands are tiled alike (evenly) along whose
  // partial results are summed: the input features, and the window where
  // the result takes it whole.
  TileSharding l = values.currentOf(op.getLhs()),
               r = values.currentOf(op.getRhs());
  SmallVector<int64_t> lhsPartial, rhsPartial, partialTiles;
  SmallVector<SmallVector<int64_t>> coords(values.getNumPartitions());
  SmallVector<size_t> windowTiled;
  auto alike = [&](int64_t a, int64_t c) {
    int64_t n = l.getTiles(a);
    if (n == 1 || r.getTiles(c) != n || inShape[a] % n || kShape[c] % n)
      return false;
    for (int64_t p = 0; p < values.getNumPartitions(); ++p)
      if (l.getCoords(p)[a] != r.getCoords(p)[c])
        return false;
    lhsPartial.push_back(a);
    rhsPartial.push_back(c);
    partialTiles.push_back(n);
    for (int64_t p = 0; p < values.getNumPartitions(); ++p)
      coords[p].push_back(l.getCoords(p)[a]);
    return true;
  };
  if (featureGroups == 1)
    alike(dims.getInputFeature(), dims.getKernelInput());
  for (size_t w = 0; w < window.rank(); ++w)
    if (featureGroups == 1 && batchGroups == 1 &&
        out.getTiles(dims.getOutputSpatial()[w]) == 1 &&
        window.lhsDilate[w] == 1 &&
        alike(dims.getInputSpatial()[w], dims.getKernelSpatial()[w]))
      windowTiled.push_back(w);
  std::optional<SmallVector<SmallVector<int64_t>>> groups;
  if (!partialTiles.empty()) {
    groups = values.partialSums(out, partialTiles, coords,
                                {{&in, lhsPartial}, {&kernel, rhsPartial}});
    if (!groups)
      windowTiled.clear();
  }
  // Halos of the spatial dimensions the result or the window tiles.
  SmallVector<std::pair<size_t, Halo>> halos;
  for (size_t w = 0; w < window.rank(); ++w) {
    int64_t d = dims.getInputSpatial()[w];
    std::optional<Halo> h;
    if (llvm::is_contained(windowTiled, w)) {
      // Tile k of the window: positions [k * tw, (k + 1) * tw).
      int64_t n = in.getTiles(d), tw = window.size[w] / n;
      int64_t dilate = window.rhsDilate[w];
      h = planHalo(
          &in, d, n, inShape[d],
          (outShape[dims.getOutputSpatial()[w]] - 1) * window.stride[w] +
              (tw - 1) * dilate + 1,
          [&](int64_t k) { return k * tw * dilate - window.padLow[w]; });
      window.size[w] = tw;
    } else if (in.getTiles(d) > 1 && !isTrivial(window, w)) {
      h = slidingHalo(&in, d, in.getTiles(d), inShape[d],
                      outShape[dims.getOutputSpatial()[w]], window, w);
    } else {
      continue;
    }
    if (!h)
      return false;
    halos.push_back({w, std::move(*h)});
  }
  values.setOperandTiles(op, 0, in);
  values.setOperandTiles(op, 1, kernel);
  values.setResultTiles(op, out);
  if (featureGroups > 1 && featureTiles > 1)
    op.setFeatureGroupCount(featureGroups / featureTiles);
  applyHalos(values, op, in, inShape, window, halos, {});
  if (groups)
    values.sumPartials(op, adder(arrayType(op.getResult()).getElementType()),
                       *groups);
  return true;
}

bool mlir::hlo::partitionReduceWindow(SpmdValues &values, ReduceWindowOp op,
                                      const TileSharding &out) {
  OperandRange in = getDataOperands(op);
  if (in.size() != 2)
    return false;
  ArrayRef<int64_t> shape = arrayType(op->getResult(0)).getShape();
  SmallVector<int64_t> inShape(values.wholeShape(in[0]));
  WindowFields window(op.getWindowAttr(), shape.size());
  std::optional<SmallVector<std::pair<size_t, Halo>>> halos =
      sameDimHalos(out, inShape, shape, window);
  if (!halos)
    return false;
  values.setOperandTiles(op, 0, out);
  values.setResultTiles(op, out);
  // Zeros need no mask: the partitions at the ends receive zeros.
  Value init = op->getOperand(1);
  applyHalos(values, op, out, inShape, window, *halos,
             isZeros(init) ? Value() : init);
  return true;
}

bool mlir::hlo::partitionSelectAndScatter(SpmdValues &values,
                                          SelectAndScatterOp op,
                                          const TileSharding &out,
                                          DenseElementsAttr identity) {
  ArrayRef<int64_t> in = values.wholeShape(op.getOperand());
  ArrayRef<int64_t> source = values.wholeShape(op.getSource());
  WindowFields window(op.getWindow(), in.size());
  SmallVector<Crossing, 1> crossing;
  for (size_t d = 0; d < in.size(); ++d) {
    int64_t n = out.getTiles(d);
    if (n == 1 || windowsInTiles(window, d, in[d], source[d], n))
      continue;
    std::optional<Crossing> c =
        identity ? planCrossing(&out, window, d, n, in[d], source[d])
                 : std::nullopt;
    if (!c)
      return false;
    crossing.push_back(std::move(*c));
  }
  values.setOperandTiles(op, 0, out);
  values.setOperandTiles(op, 1, out);
  values.setResultTiles(op, out);
  if (crossing.empty())
    return true;
  OpBuilder b(op);
  InstBuilder ib(b, derivedLoc(op->getLoc()));
  Value operand = op.getOperand(), src = op.getSource();
  // The windows past the array's ends scatter the identity (zeros from no
  // neighbour where it is zero).
  Value none;
  if (!(isa<FloatType>(identity.getElementType())
            ? identity.getSplatValue<APFloat>().isZero()
            : identity.getSplatValue<APInt>().isZero()))
    none = ib.create<ConstantOp>(identity.getType(), {},
                                 {b.getNamedAttr("value", identity)});
  for (const Crossing &c : crossing) {
    operand =
        withHalo(values, ib, operand, out, c.operand, in[c.operand.dim], {});
    src = withHalo(values, ib, src, out, c.source, source[c.source.dim], none);
  }
  op->setOperand(0, operand);
  op->setOperand(1, src);
  // The result over the windows' rows, its tile cut out of it.
  Value r = op.getResult();
  RankedTensorType tile = arrayType(r);
  r.setType(arrayType(operand));
  b.setInsertionPointAfter(op);
  SmallPtrSet<Operation *, 4> users(llvm::from_range, r.getUsers());
  Value mine = r;
  for (const Crossing &c : crossing)
    mine = sliceAt(values, ib, mine, c.operand.dim, c.offsets,
                   tile.getDimSize(c.operand.dim));
  r.replaceUsesWithIf(
      mine, [&](OpOperand &use) { return users.contains(use.getOwner()); });
  values.setTiles(mine, out, in);
  return true;
}

bool mlir::hlo::partitionPad(SpmdValues &values, PadOp op,
                             const TileSharding &out) {
  ArrayRef<int64_t> shape = arrayType(op.getResult()).getShape();
  SmallVector<int64_t> inShape(values.wholeShape(op.getOperand()));
  WindowFields window = padWindow(op);
  std::optional<SmallVector<std::pair<size_t, Halo>>> halos =
      sameDimHalos(out, inShape, shape, window);
  if (!halos)
    return false;
  values.setOperandTiles(op, 0, out);
  values.setResultTiles(op, out);
  Value value = op.getPaddingValue();
  applyHalos(values, op, out, inShape, window, *halos,
             isZeros(value) ? Value() : value);
  return true;
}

bool mlir::hlo::partitionSlice(SpmdValues &values, SliceOp op,
                               const TileSharding &out) {
  SliceAttr slice = op.getSlice();
  ArrayRef<int64_t> shape = arrayType(op.getResult()).getShape();
  SmallVector<int64_t> inShape(values.wholeShape(op.getOperand()));
  WindowFields window = sliceWindow(op);
  SmallVector<int64_t> tile = out.shardShape(inShape);
  SmallVector<int64_t> starts(slice.getStarts()), limits(slice.getLimits());
  std::optional<SmallVector<std::pair<size_t, Halo>>> halos =
      sameDimHalos(out, inShape, shape, window);
  if (!halos)
    return false;
  for (size_t d = 0; d < shape.size(); ++d)
    if (out.getTiles(d) > 1) {
      starts[d] = 0;
      limits[d] = tile[d];
    }
  for (auto &[d, h] : *halos)
    limits[d] = h.length;
  values.setOperandTiles(op, 0, out);
  values.setResultTiles(op, out);
  OpBuilder b(op);
  InstBuilder ib(b, derivedLoc(op->getLoc()));
  Value v = op.getOperand();
  for (auto &[d, h] : *halos)
    v = withHalo(values, ib, v, out, h, inShape[d], {});
  op->setOperand(0, v);
  op.setSliceAttr(
      SliceAttr::get(op.getContext(), starts, limits, slice.getStrides()));
  return true;
}

std::optional<Rotation>
mlir::hlo::matchRotation(ConcatenateOp op,
                         function_ref<SmallVector<int64_t>(Value)> shapeOf) {
  OperandRange in = getDataOperands(op);
  if (in.size() < 2 || op.getDimensions().size() != 1)
    return std::nullopt;
  int64_t dim = op.getDimensions()[0];
  // The piece [begin, end) of `source` along `dim` that `v` is.
  auto piece = [&](Value v, Value source, ArrayRef<int64_t> shape)
      -> std::optional<std::pair<int64_t, int64_t>> {
    if (v == source)
      return std::make_pair(int64_t(0), shape[dim]);
    auto slice = v.getDefiningOp<SliceOp>();
    if (!slice || slice.getOperand() != source)
      return std::nullopt;
    SliceAttr s = slice.getSlice();
    for (size_t d = 0; d < shape.size(); ++d)
      if (s.getStrides()[d] != 1 ||
          (int64_t(d) != dim &&
           (s.getStarts()[d] != 0 || s.getLimits()[d] != shape[d])))
        return std::nullopt;
    return std::make_pair(s.getStarts()[dim], s.getLimits()[dim]);
  };
  // The source: the first piece's, or the first piece itself.
  SmallVector<Value, 2> candidates;
  if (auto slice = in[0].getDefiningOp<SliceOp>())
    candidates.push_back(slice.getOperand());
  candidates.push_back(in[0]);
  for (Value source : candidates) {
    SmallVector<int64_t> shape = shapeOf(source);
    if (shape.size() != arrayType(op.getResult()).getShape().size() ||
        shape[dim] == 0)
      continue;
    std::optional<int64_t> start, end;
    for (Value v : in) {
      std::optional<std::pair<int64_t, int64_t>> p = piece(v, source, shape);
      if (!p || (end && p->first != *end % shape[dim])) {
        start.reset();
        break;
      }
      if (!start)
        start = p->first;
      end = p->second;
    }
    if (start)
      return Rotation{source, dim, *start};
  }
  return std::nullopt;
}

TileSharding mlir::hlo::fitRotationTiles(TileSharding t, const Rotation &r,
                                         int64_t size, int64_t outSize) {
  int64_t n = t.getTiles(r.dim);
  if (n == 1)
    return t;
  // Halos from tiles further away too, while each partition receives
  // fewer elements than an all-gather would give it.
  std::optional<Halo> h =
      rotationHalo(nullptr, r.dim, n, size, outSize, r.start);
  int64_t others = size - llvm::divideCeil(size, n);
  if (!h || h->left + h->right >= others)
    return t.withoutDim(r.dim);
  return t;
}

bool mlir::hlo::partitionRotation(SpmdValues &values, ConcatenateOp op,
                                  const Rotation &r, ArrayRef<int64_t> shape,
                                  const TileSharding &out) {
  int64_t n = out.getTiles(r.dim);
  SmallVector<int64_t> whole(arrayType(op.getResult()).getShape());
  std::optional<Halo> h =
      n > 1 ? rotationHalo(&out, r.dim, n, shape[r.dim], whole[r.dim], r.start)
            : std::nullopt;
  if (!h)
    return false;
  OpBuilder b(op);
  InstBuilder ib(b, derivedLoc(op->getLoc()));
  Value v =
      values.reshard(ib, r.source, values.currentOf(r.source), out, shape);
  Value tile = withHalo(values, ib, v, out, *h, shape[r.dim], {});
  // A value whose whole shape is the result's (not the source's, nor
  // another rotation's of the same tiles).
  bool taken = tile == v || (!values.currentOf(tile).isReplicated() &&
                             values.wholeShape(tile) != ArrayRef(whole));
  v = taken ? sliceDim(ib, tile, r.dim, 0, h->length) : tile;
  op.getResult().replaceAllUsesWith(v);
  values.setTiles(v, out, whole);
  return true;
}

bool mlir::hlo::partitionReverse(SpmdValues &values, ReverseOp op,
                                 const TileSharding &out) {
  // Tile k of a reversed dimension is tile n-1-k of the operand, reversed.
  // Over uneven tiles (t elements each, n * t - size past the end of the
  // last) that is tile k of the reversed array padded to n tiles at its
  // start: each partition's tile takes the first n * t - size elements of
  // the next one's.
  ArrayRef<int64_t> shape = arrayType(op.getResult()).getShape();
  SmallVector<Halo, 1> halos;
  for (int64_t d : op.getDimensions()) {
    int64_t n = out.getTiles(d), t = llvm::divideCeil(shape[d], n);
    int64_t shift = n * t - shape[d];
    if (shift == 0)
      continue;
    std::optional<Halo> h = planHalo(&out, d, n, n * t, t,
                                     [&](int64_t k) { return k * t + shift; });
    if (!h)
      return false;
    halos.push_back(*h);
  }
  values.setOperandTiles(op, 0, mirrorTiles(out, op.getDimensions()));
  values.setResultTiles(op, out);
  if (halos.empty())
    return true;
  Value r = op.getResult();
  SmallPtrSet<Operation *, 4> users(llvm::from_range, r.getUsers());
  OpBuilder b(op);
  b.setInsertionPointAfter(op);
  InstBuilder ib(b, derivedLoc(op->getLoc()));
  Value mine = r;
  for (const Halo &h : halos)
    mine =
        withHalo(values, ib, mine, out, h, h.length * out.getTiles(h.dim), {});
  r.replaceUsesWithIf(
      mine, [&](OpOperand &use) { return users.contains(use.getOwner()); });
  values.setTiles(mine, out, shape);
  return true;
}
