//===- SpmdWindows.cpp - windowed instructions on tiles, with halos -------===//
//
// hlo-spmd-partitioner's rules for convolutions and reduce-windows
// (SpmdValues.h). A window tiled along a dimension it slides over reads
// a few elements of the neighbouring tiles: each partition receives them
// from its neighbours by two collective-permutes (its halo), the
// instruction's padding there becomes values (zeros from no neighbour at
// the array's ends, or the padding value by a mask) and each partition
// slides the window over its tile and halo unpadded (XLA's halo exchange
// of a spatially partitioned convolution or pooling).
//
//===----------------------------------------------------------------------===//

#include "CudnnUtils.h"
#include "RewriteUtils.h"
#include "SpmdValues.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloOpClasses.h"

#include <map>

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// What the partitions need of their neighbours along one operand
/// dimension a window slides over.
struct Halo {
  int64_t dim = 0;
  /// Elements of the previous and next tile each partition receives.
  int64_t left = 0, right = 0;
  /// Where each partition's windows start in its tile with its halo.
  SmallVector<int32_t> offsets;
  /// How many elements its windows read from there.
  int64_t length = 0;
  /// Whether some partition's windows read past the array's ends (the
  /// padding), and whether its tiles are uneven (the last tile's elements
  /// past the end are not zeros).
  bool pads = false, uneven = false;
  /// The window's padding there after the halo (a dilated base's edges).
  int64_t padLow = 0, padHigh = 0;
};
} // namespace

/// The halo of operand dimension `dim` (of `size` elements in `n` tiles;
/// `in`, if given, says which partitions hold each) where the
/// partitions holding tile k read `length` elements from `first(k)` of the
/// whole operand (from as many tiles before and after as that takes);
/// nothing where that reaches past every other tile.
static std::optional<Halo> planHalo(const TileSharding *in, int64_t dim,
                                    int64_t n, int64_t size, int64_t length,
                                    function_ref<int64_t(int64_t)> first) {
  int64_t t = llvm::divideCeil(size, n);
  Halo h;
  h.dim = dim;
  h.length = length;
  h.uneven = size % n != 0;
  for (int64_t k = 0; k < n; ++k) {
    h.left = std::max(h.left, k * t - first(k));
    h.right = std::max(h.right, first(k) + length - (k + 1) * t);
    h.pads |= first(k) < 0 || first(k) + length > size;
  }
  if (h.left > (n - 1) * t || h.right > (n - 1) * t)
    return std::nullopt;
  for (int64_t p = 0; in && p < in->getNumPartitions(); ++p) {
    int64_t k = in->getCoords(p)[dim];
    h.offsets.push_back(first(k) - (k * t - h.left));
  }
  return h;
}

/// The halo of operand dimension `dim` (of `size` elements in `n` tiles,
/// `in` if given) under window dimension `w` of `window` where the
/// result's dimension (`outSize` long) is tiled alike: each partition's
/// windows slide over its tile's part of the result (tiles of the result
/// past its end compute what they may). Over a dilated base (a strided
/// convolution's input gradient) each partition reads the elements its
/// windows meet, from the same position in the dilated base on every
/// partition (else nothing), the window padded to the rest.
static std::optional<Halo> slidingHalo(const TileSharding *in, int64_t dim,
                                       int64_t n, int64_t size, int64_t outSize,
                                       const ConvWindow &window, size_t w) {
  int64_t o = llvm::divideCeil(outSize, n), stride = window.stride[w];
  int64_t dilate = window.lhsDilate[w];
  int64_t span = (window.size[w] - 1) * window.rhsDilate[w] + 1;
  int64_t reach = (o - 1) * stride + span;
  // Tile k's windows read the dilated base at [pos(k), pos(k) + reach):
  // its elements first(k) .. (the holes between them and the padding are
  // zeros).
  auto pos = [&](int64_t k) { return k * o * stride - window.padLow[w]; };
  auto first = [&](int64_t k) {
    return llvm::divideCeilSigned(pos(k), dilate);
  };
  int64_t length = 0;
  for (int64_t k = 0; k < n; ++k) {
    if (first(k) * dilate - pos(k) != first(0) * dilate - pos(0))
      return std::nullopt;
    length =
        std::max(length, llvm::divideFloorSigned(pos(k) + reach - 1, dilate) -
                             first(k) + 1);
  }
  if (length <= 0)
    return std::nullopt;
  std::optional<Halo> h = planHalo(in, dim, n, size, length, first);
  if (h) {
    h->padLow = first(0) * dilate - pos(0);
    h->padHigh = reach - h->padLow - (length - 1) * dilate - 1;
  }
  return h;
}

namespace {
/// What the partitions of a select-and-scatter whose windows cross tiles
/// along one dimension take of their neighbours.
struct Crossing {
  Halo operand, source;
  /// Where each partition's tile starts in the rows it scatters over.
  SmallVector<int32_t> offsets;
};
} // namespace

/// How the partitions of a select-and-scatter (operand dimension `d` of
/// `size` elements, its source `sourceSize`, in `n` tiles, `tiles` if
/// given) whose windows cross tiles take the windows that meet their tile
/// (their sources and operand rows from their neighbours), scatter them
/// over those rows and keep their tile: the sums their rows get are whole
/// where the scatter adds (windows past the ends take zeros: an add of
/// nothing). Nothing for padded or dilated windows.
static std::optional<Crossing> planCrossing(const TileSharding *tiles,
                                            const ConvWindow &window, size_t d,
                                            int64_t n, int64_t size,
                                            int64_t sourceSize) {
  if (window.padLow[d] != 0 || window.padHigh[d] != 0 ||
      window.lhsDilate[d] != 1 || window.rhsDilate[d] != 1)
    return std::nullopt;
  int64_t t = llvm::divideCeil(size, n), stride = window.stride[d];
  int64_t width = window.size[d];
  // Tile k meets windows first(k) .. last(k).
  auto first = [&](int64_t k) {
    return llvm::divideCeilSigned(k * t - width + 1, stride);
  };
  auto last = [&](int64_t k) {
    return llvm::divideFloorSigned((k + 1) * t - 1, stride);
  };
  int64_t count = 0;
  for (int64_t k = 0; k < n; ++k)
    count = std::max(count, last(k) - first(k) + 1);
  int64_t rows = (count - 1) * stride + width;
  if (count <= 0)
    return std::nullopt;
  std::optional<Halo> src = planHalo(tiles, d, n, sourceSize, count, first);
  std::optional<Halo> opd = planHalo(
      tiles, d, n, size, rows, [&](int64_t k) { return first(k) * stride; });
  if (!src || !opd)
    return std::nullopt;
  Crossing c{*opd, *src, {}};
  for (int64_t k = 0; k < n; ++k)
    if (k * t - first(k) * stride < 0 || k * t - first(k) * stride + t > rows)
      return std::nullopt;
  for (int64_t p = 0; tiles && p < tiles->getNumPartitions(); ++p) {
    int64_t k = tiles->getCoords(p)[d];
    c.offsets.push_back(k * t - first(k) * stride);
  }
  return c;
}

/// Whether window dimension `w` takes one element at a time, unpadded.
static bool isTrivial(const ConvWindow &window, size_t w) {
  return window.size[w] == 1 && window.stride[w] == 1 &&
         window.padLow[w] == 0 && window.padHigh[w] == 0 &&
         window.lhsDilate[w] == 1;
}

/// A pad as a window of one element sliding over its operand, dilated by
/// the interior padding, padded by the edges'.
static ConvWindow padWindow(PadOp op) {
  PaddingAttr padding = op.getPadding();
  ConvWindow window = ConvWindow::get({}, padding.getLow().size());
  window.padLow = llvm::to_vector(padding.getLow());
  window.padHigh = llvm::to_vector(padding.getHigh());
  for (auto [d, i] : llvm::enumerate(padding.getInterior()))
    window.lhsDilate[d] = i + 1;
  return window;
}

/// A slice as a window of one element striding over its operand from its
/// start.
static ConvWindow sliceWindow(SliceOp op) {
  SliceAttr slice = op.getSlice();
  ConvWindow window = ConvWindow::get({}, slice.getStarts().size());
  window.stride = llvm::to_vector(slice.getStrides());
  for (auto [d, start] : llvm::enumerate(slice.getStarts()))
    window.padLow[d] = -start;
  return window;
}

/// Whether the windows of a select-and-scatter's tile of `n` along window
/// dimension `w` (of `size` elements, its source `sourceSize`) lie in its
/// tile of the operand: even tiles of whole windows that do not overlap.
/// (The partitioner serves others by halos where the scatter adds.)
static bool windowsInTiles(const ConvWindow &window, size_t w, int64_t size,
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
    ConvWindow window = ConvWindow::get(sas.getWindow(), in.size());
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
  ConvWindow window;
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
    window = ConvWindow::get(rw.getWindowAttr(), rank);
    inDims = outDims = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  } else {
    return t;
  }
  ArrayRef<int64_t> in = arrayType(op->getOperand(0)).getShape();
  ArrayRef<int64_t> out = arrayType(op->getResult(0)).getShape();
  for (size_t w = 0; w < window.rank(); ++w) {
    int64_t d = ofResult ? outDims[w] : inDims[w];
    // A window wider than a tile (a kernel's gradient) is better
    // partitioned along it than slid across tiles.
    // Halos from the neighbouring tiles only.
    int64_t n = t.getTiles(d);
    int64_t span = (window.size[w] - 1) * window.rhsDilate[w] + 1;
    int64_t tile = llvm::divideCeil(in[inDims[w]], n);
    if (n == 1 || isTrivial(window, w))
      continue;
    std::optional<Halo> h = slidingHalo(nullptr, inDims[w], n, in[inDims[w]],
                                        out[outDims[w]], window, w);
    if (span > tile || !h || h->left > tile || h->right > tile)
      t = t.withoutDim(d);
  }
  return t;
}

/// `v` sliced to [start, limit) along `dim`.
static Value sliceDim(InstBuilder &ib, Value v, int64_t dim, int64_t start,
                      int64_t limit) {
  RankedTensorType type = arrayType(v);
  SmallVector<int64_t> starts(type.getRank(), 0), strides(type.getRank(), 1);
  SmallVector<int64_t> limits(type.getShape()), shape(type.getShape());
  starts[dim] = start;
  limits[dim] = limit;
  shape[dim] = limit - start;
  OpBuilder &b = ib.getBuilder();
  return ib.create<SliceOp>(
      withShape(type, shape), v,
      {b.getNamedAttr(
          "slice", SliceAttr::get(b.getContext(), starts, limits, strides))});
}

/// The pairs of a collective-permute sending each partition's piece to the
/// partition holding the tile `step` further along `dim` (one to one among
/// the partitions holding each tile); those at the end send nothing.
static SmallVector<std::pair<int64_t, int64_t>>
neighbourPairs(const TileSharding &in, int64_t dim, int64_t step) {
  std::map<SmallVector<int64_t>, SmallVector<int64_t>> holders;
  for (int64_t p = 0; p < in.getNumPartitions(); ++p)
    holders[SmallVector<int64_t>(in.getCoords(p))].push_back(p);
  SmallVector<std::pair<int64_t, int64_t>> pairs;
  for (auto &[coords, from] : holders) {
    SmallVector<int64_t> next(coords);
    next[dim] += step;
    auto it = holders.find(next);
    if (it == holders.end())
      continue;
    for (auto [p, q] : llvm::zip(from, it->second))
      pairs.push_back({p, q});
  }
  return pairs;
}

/// Tile `v` (tiles `in`) with its halo `h`, positions past the array's
/// ends `padValue` (a scalar; null: zeros, what partitions at the ends
/// receive from no neighbour where the tiles are even), sliced to what
/// its windows read.
static Value withHalo(SpmdValues &values, InstBuilder &ib, Value v,
                      const TileSharding &in, const Halo &h, int64_t size,
                      Value padValue) {
  OpBuilder &b = ib.getBuilder();
  RankedTensorType type = arrayType(v);
  int64_t t = type.getDimSize(h.dim);
  // The last elements of the d-th tile before, first the farthest; the
  // first ones of the d-th tile after.
  SmallVector<Value> pieces;
  for (int64_t d = llvm::divideCeil(h.left, t); d >= 1; --d) {
    int64_t c = std::min(t, h.left - (d - 1) * t);
    pieces.push_back(
        values.permute(ib, c == t ? v : sliceDim(ib, v, h.dim, t - c, t),
                       neighbourPairs(in, h.dim, d)));
  }
  pieces.push_back(v);
  for (int64_t d = 1; (d - 1) * t < h.right; ++d) {
    int64_t c = std::min(t, h.right - (d - 1) * t);
    pieces.push_back(values.permute(ib,
                                    c == t ? v : sliceDim(ib, v, h.dim, 0, c),
                                    neighbourPairs(in, h.dim, -d)));
  }
  Value ext = v;
  SmallVector<int64_t> shape(type.getShape());
  shape[h.dim] = t + h.left + h.right;
  RankedTensorType extType = withShape(type, shape);
  if (pieces.size() > 1)
    ext = ib.create<ConcatenateOp>(
        extType, pieces,
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({h.dim}))});
  if (h.pads && (padValue || h.uneven)) {
    // Position i of the extended tile is element start + i of the whole
    // array: the padding value where that is outside it.
    Type s32 = b.getI32Type();
    SmallVector<int32_t> starts;
    for (int64_t p = 0; p < in.getNumPartitions(); ++p)
      starts.push_back(in.getCoords(p)[h.dim] * t - h.left);
    auto line = RankedTensorType::get({shape[h.dim]}, s32);
    Value pos = ib.create<AddOp>(
        line, {ib.create<IotaOp>(
                   line, {},
                   {b.getNamedAttr("iota_dimension", b.getI64IntegerAttr(0))}),
               ib.broadcast(atPartition(ib, starts), line)});
    auto preds = RankedTensorType::get({shape[h.dim]}, b.getI1Type());
    Value inside = ib.create<AndOp>(
        preds, {ib.compare(pos, ib.splat(s32, 0, {shape[h.dim]}),
                           ComparisonDirection::GE),
                ib.compare(pos, ib.splat(s32, size, {shape[h.dim]}),
                           ComparisonDirection::LT)});
    Value mask = ib.create<BroadcastOp>(
        RankedTensorType::get(shape, b.getI1Type()), inside,
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({h.dim}))});
    if (!padValue)
      padValue = ib.scalar(type.getElementType(), 0);
    ext = ib.create<SelectOp>(extType,
                              {mask, ext, ib.broadcast(padValue, extType)});
  }
  if (llvm::all_equal(h.offsets)) {
    if (h.offsets.front() == 0 && h.length == shape[h.dim])
      return ext;
    return sliceDim(ib, ext, h.dim, h.offsets.front(),
                    h.offsets.front() + h.length);
  }
  SmallVector<Value> starts(shape.size(), ib.scalar(b.getI32Type(), 0));
  starts[h.dim] = atPartition(ib, h.offsets);
  SmallVector<int64_t> sizes(shape);
  sizes[h.dim] = h.length;
  Value sliced = ib.dynamicSlice(ext, starts, sizes);
  sliced.setType(withShape(type, sizes));
  return sliced;
}

/// Operand 0 of `op` (tiles `in`, of shape `inShape`) given its halos,
/// the window (a pad's edges) unpadded along them.
static void applyHalos(SpmdValues &values, Operation *op,
                       const TileSharding &in, ArrayRef<int64_t> inShape,
                       ConvWindow window,
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

/// An ungrouped convolution whose result is tiled along its batch, output
/// feature and spatial dimensions: the input's batch and spatial tiles
/// (the latter with halos) times the kernel's output feature tiles. Where
/// both operands are tiled alike along the input features (a gradient's
/// batch) or along spatial dimensions the result takes whole (a kernel's
/// gradient: the kernel is the window), each partition convolves its
/// part, the latter over its tile of the window with the input's halo, and
/// an all-reduce sums the parts.
bool mlir::hlo::partitionConvolution(SpmdValues &values, ConvolutionOp op,
                                     const TileSharding &out,
                                     function_ref<StringRef(Type)> adder) {
  if (op.getFeatureGroupCount().value_or(1) != 1 ||
      op.getBatchGroupCount().value_or(1) != 1)
    return false;
  ConvDimensionNumbersAttr dims = op.getDimLabels();
  ConvWindow window = windowOf(op);
  ArrayRef<int64_t> outShape = arrayType(op.getResult()).getShape();
  SmallVector<int64_t> inShape(values.wholeShape(op.getLhs()));
  ArrayRef<int64_t> kShape = values.wholeShape(op.getRhs());
  TileSharding in = out.project(convResultDims(op, 0));
  TileSharding kernel = out.project(convResultDims(op, 1));
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
  alike(dims.getInputFeature(), dims.getKernelInput());
  for (size_t w = 0; w < window.rank(); ++w)
    if (out.getTiles(dims.getOutputSpatial()[w]) == 1 &&
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
  ConvWindow window = ConvWindow::get(op.getWindowAttr(), shape.size());
  SmallVector<std::pair<size_t, Halo>> halos;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (out.getTiles(d) == 1 || isTrivial(window, d))
      continue;
    std::optional<Halo> h =
        slidingHalo(&out, d, out.getTiles(d), inShape[d], shape[d], window, d);
    if (!h)
      return false;
    halos.push_back({d, std::move(*h)});
  }
  values.setOperandTiles(op, 0, out);
  values.setOperandTiles(
      op, 1, TileSharding::replicated(0, values.getNumPartitions()));
  values.setResultTiles(op, out);
  // Zeros need no mask: the partitions at the ends receive zeros.
  Value init = op->getOperand(1);
  applyHalos(values, op, out, inShape, window, halos,
             isZeros(init) ? Value() : init);
  return true;
}

bool mlir::hlo::partitionSelectAndScatter(SpmdValues &values,
                                          SelectAndScatterOp op,
                                          const TileSharding &out, bool adds) {
  ArrayRef<int64_t> in = values.wholeShape(op.getOperand());
  ArrayRef<int64_t> source = values.wholeShape(op.getSource());
  ConvWindow window = ConvWindow::get(op.getWindow(), in.size());
  SmallVector<Crossing, 1> crossing;
  for (size_t d = 0; d < in.size(); ++d) {
    int64_t n = out.getTiles(d);
    if (n == 1 || windowsInTiles(window, d, in[d], source[d], n))
      continue;
    std::optional<Crossing> c =
        adds ? planCrossing(&out, window, d, n, in[d], source[d])
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
  for (const Crossing &c : crossing) {
    operand =
        withHalo(values, ib, operand, out, c.operand, in[c.operand.dim], {});
    src = withHalo(values, ib, src, out, c.source, source[c.source.dim], {});
  }
  op->setOperand(0, operand);
  op->setOperand(1, src);
  // The result over the windows' rows, its tile cut out of it.
  Value r = op.getResult();
  RankedTensorType tile = arrayType(r);
  r.setType(arrayType(operand));
  b.setInsertionPointAfter(op);
  Value mine = r;
  for (const Crossing &c : crossing) {
    int64_t d = c.operand.dim, t = tile.getDimSize(d);
    if (llvm::all_equal(c.offsets)) {
      mine = sliceDim(ib, mine, d, c.offsets.front(), c.offsets.front() + t);
      continue;
    }
    SmallVector<Value> starts(tile.getRank(), ib.scalar(b.getI32Type(), 0));
    starts[d] = atPartition(ib, c.offsets);
    SmallVector<int64_t> sizes(arrayType(mine).getShape());
    sizes[d] = t;
    mine = ib.dynamicSlice(mine, starts, sizes);
    mine.setType(withShape(tile, sizes));
  }
  r.replaceAllUsesExcept(mine, mine.getDefiningOp());
  values.setTiles(mine, out, in);
  return true;
}

bool mlir::hlo::partitionPad(SpmdValues &values, PadOp op,
                             const TileSharding &out) {
  ArrayRef<int64_t> shape = arrayType(op.getResult()).getShape();
  SmallVector<int64_t> inShape(values.wholeShape(op.getOperand()));
  ConvWindow window = padWindow(op);
  SmallVector<std::pair<size_t, Halo>> halos;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (out.getTiles(d) == 1 || isTrivial(window, d))
      continue;
    std::optional<Halo> h =
        slidingHalo(&out, d, out.getTiles(d), inShape[d], shape[d], window, d);
    if (!h)
      return false;
    halos.push_back({d, std::move(*h)});
  }
  values.setOperandTiles(op, 0, out);
  values.setResultTiles(op, out);
  Value value = op.getPaddingValue();
  applyHalos(values, op, out, inShape, window, halos,
             isZeros(value) ? Value() : value);
  return true;
}

bool mlir::hlo::partitionSlice(SpmdValues &values, SliceOp op,
                               const TileSharding &out) {
  SliceAttr slice = op.getSlice();
  ArrayRef<int64_t> shape = arrayType(op.getResult()).getShape();
  SmallVector<int64_t> inShape(values.wholeShape(op.getOperand()));
  ConvWindow window = sliceWindow(op);
  SmallVector<int64_t> tile = out.shardShape(inShape);
  SmallVector<int64_t> starts(slice.getStarts()), limits(slice.getLimits());
  SmallVector<std::pair<size_t, Halo>> halos;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (out.getTiles(d) == 1)
      continue;
    starts[d] = 0;
    limits[d] = tile[d];
    if (isTrivial(window, d) && inShape[d] == shape[d])
      continue;
    std::optional<Halo> h =
        slidingHalo(&out, d, out.getTiles(d), inShape[d], shape[d], window, d);
    if (!h)
      return false;
    limits[d] = h->length;
    halos.push_back({d, std::move(*h)});
  }
  values.setOperandTiles(op, 0, out);
  values.setResultTiles(op, out);
  OpBuilder b(op);
  InstBuilder ib(b, derivedLoc(op->getLoc()));
  Value v = op.getOperand();
  for (auto &[d, h] : halos)
    v = withHalo(values, ib, v, out, h, inShape[d], {});
  op->setOperand(0, v);
  op.setSliceAttr(
      SliceAttr::get(op.getContext(), starts, limits, slice.getStrides()));
  return true;
}
