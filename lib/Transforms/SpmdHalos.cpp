//===- SpmdHalos.cpp - halo exchanges of hlo-spmd-partitioner -------------===//
//
// What each partition of a window tiled along a dimension it slides over
// reads of the other tiles, and the collective-permutes, concatenates,
// masks and slices that give it to it (SpmdHalos.h).
//
//===----------------------------------------------------------------------===//

#include "SpmdHalos.h"
#include "RewriteUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloOpClasses.h"

#include <map>

using namespace mlir;
using namespace mlir::hlo;

/// The halo of operand dimension `dim` (of `size` elements in `n` tiles;
/// `in`, if given, says which partitions hold each) where the
/// partitions holding tile k read `length` elements from `first(k)` of the
/// whole operand (from as many tiles before and after as that takes);
/// nothing where that reaches past every other tile.
std::optional<Halo> mlir::hlo::planHalo(const TileSharding *in, int64_t dim,
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
    h.sentLeft = std::max(h.sentLeft, k * t - std::max<int64_t>(first(k), 0));
    h.sentRight =
        std::max(h.sentRight, std::min(first(k) + length, size) - (k + 1) * t);
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
std::optional<Halo> mlir::hlo::slidingHalo(const TileSharding *in, int64_t dim,
                                           int64_t n, int64_t size,
                                           int64_t outSize,
                                           const WindowFields &window,
                                           size_t w) {
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

std::optional<Halo> mlir::hlo::rotationHalo(const TileSharding *in, int64_t dim,
                                            int64_t n, int64_t size,
                                            int64_t outSize, int64_t start) {
  int64_t o = llvm::divideCeil(outSize, n);
  // One that does not wrap around: a slice's halo (uneven tiles too).
  if (start + outSize <= size)
    return planHalo(in, dim, n, size, o,
                    [&](int64_t k) { return start + k * o; });
  if (size % n != 0)
    return std::nullopt;
  int64_t t = size / n;
  // Result tile k starts at source element start + k * o, taken here at
  // the position of that element nearest tile k of the source (positions
  // past the ends wrap around).
  auto first = [&](int64_t k) {
    int64_t shift = llvm::mod(start + k * o - k * t, size);
    return k * t + (2 * shift > size ? shift - size : shift);
  };
  std::optional<Halo> h = planHalo(in, dim, n, size, o, first);
  if (h) {
    h->cyclic = true;
    h->pads = h->uneven = false;
    h->sentLeft = h->left;
    h->sentRight = h->right;
  }
  return h;
}

/// How the partitions of a select-and-scatter (operand dimension `d` of
/// `size` elements, its source `sourceSize`, in `n` tiles, `tiles` if
/// given) whose windows cross tiles take the windows that meet their tile
/// (their sources and operand rows from their neighbours), scatter them
/// over those rows and keep their tile: what their rows get is whole
/// (windows past the array's ends scatter the scatter's identity: nothing).
/// Nothing for padded or dilated windows.
std::optional<Crossing>
mlir::hlo::planCrossing(const TileSharding *tiles, const WindowFields &window,
                        size_t d, int64_t n, int64_t size, int64_t sourceSize) {
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

/// `v` sliced to [start, limit) along `dim`.
Value mlir::hlo::sliceAt(SpmdValues &values, InstBuilder &ib, Value v,
                         int64_t dim, ArrayRef<int32_t> offsets,
                         int64_t length) {
  RankedTensorType type = arrayType(v);
  if (llvm::all_equal(offsets)) {
    if (offsets.front() == 0 && length == type.getDimSize(dim))
      return v;
    return sliceDim(ib, v, dim, offsets.front(), offsets.front() + length);
  }
  SmallVector<Value> starts(type.getRank(),
                            ib.scalar(ib.getBuilder().getI32Type(), 0));
  starts[dim] = values.atPartition(ib, offsets);
  SmallVector<int64_t> sizes(type.getShape());
  sizes[dim] = length;
  Value sliced = ib.dynamicSlice(v, starts, sizes);
  sliced.setType(withShape(type, sizes));
  return sliced;
}

Value mlir::hlo::sliceDim(InstBuilder &ib, Value v, int64_t dim, int64_t start,
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
/// the partitions holding each tile); those at the end send nothing, or
/// where `cyclic` to the tiles at the other end.
static SmallVector<std::pair<int64_t, int64_t>>
neighbourPairs(const TileSharding &in, int64_t dim, int64_t step, bool cyclic) {
  std::map<SmallVector<int64_t>, SmallVector<int64_t>> holders;
  for (int64_t p = 0; p < in.getNumPartitions(); ++p)
    holders[SmallVector<int64_t>(in.getCoords(p))].push_back(p);
  SmallVector<std::pair<int64_t, int64_t>> pairs;
  for (auto &[coords, from] : holders) {
    SmallVector<int64_t> next(coords);
    next[dim] += step;
    if (cyclic)
      next[dim] = llvm::mod(next[dim], in.getTiles(dim));
    auto it = holders.find(next);
    if (it == holders.end())
      continue;
    for (auto [p, q] : llvm::zip(from, it->second))
      pairs.push_back({p, q});
  }
  return pairs;
}

/// What was made from `v` (tiles `in`) before in the builder's block by
/// what `key` says, the tiling appended to `key` (for `recordMade`); null
/// if nothing.
static Value madeBefore(SpmdValues &values, InstBuilder &ib, Value v,
                        const TileSharding &in, SmallVector<int64_t> &key) {
  llvm::append_range(key, in.getTiles());
  for (int64_t p = 0; p < in.getNumPartitions(); ++p)
    llvm::append_range(key, in.getCoords(p));
  return values.madeFrom(v, ib.getBuilder().getInsertionBlock(), key);
}

/// Tile `v` (tiles `in`) extended along `dim` to the positions [lo, hi)
/// from its tile's start, from the tiles before and after it (one
/// collective-permute from each tile reached; `cyclic`: the ends are
/// neighbours); null where the range is empty. Made once per value,
/// block and range, whatever padding its users put around it (a
/// convolution's zeros and a max-pool's -inf over the same input).
static Value sentExtension(SpmdValues &values, InstBuilder &ib, Value v,
                           const TileSharding &in, int64_t dim, bool cyclic,
                           int64_t lo, int64_t hi) {
  if (lo >= hi)
    return {};
  RankedTensorType type = arrayType(v);
  int64_t t = type.getDimSize(dim);
  if (lo == 0 && hi == t)
    return v;
  // (-1: not a withHalo key, which starts with a dimension.)
  SmallVector<int64_t> key = {-1, dim, lo, hi, cyclic};
  if (Value made = madeBefore(values, ib, v, in, key))
    return made;
  // The pieces of the tile `step` tiles before (after, where negative),
  // first the farthest before: positions [-step * t, (1 - step) * t).
  SmallVector<Value> pieces;
  int64_t before = llvm::divideCeil(std::max<int64_t>(-lo, 0), t);
  int64_t after = llvm::divideCeil(std::max<int64_t>(hi - t, 0), t);
  for (int64_t step = before; step >= -after; --step) {
    int64_t from = std::max(lo, -step * t) + step * t;
    int64_t to = std::min(hi, (1 - step) * t) + step * t;
    if (from >= to)
      continue;
    Value piece = from == 0 && to == t ? v : sliceDim(ib, v, dim, from, to);
    pieces.push_back(
        step == 0
            ? piece
            : values.permute(ib, piece, neighbourPairs(in, dim, step, cyclic)));
  }
  Value made = pieces.front();
  if (pieces.size() > 1) {
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] = hi - lo;
    OpBuilder &b = ib.getBuilder();
    made = ib.create<ConcatenateOp>(
        withShape(type, shape), pieces,
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({dim}))});
  }
  values.recordMade(v, key, made);
  return made;
}

/// Tile `v` (tiles `in`) with its halo `h`, positions past the array's
/// ends `padValue` (a scalar; null: zeros, what partitions at the ends
/// receive from no neighbour where the tiles are even), sliced to what
/// its windows read (`withHalo` without the reuse of one made before).
static Value exchangeHalo(SpmdValues &values, InstBuilder &ib, Value v,
                          const TileSharding &in, const Halo &h, int64_t size,
                          Value padValue) {
  OpBuilder &b = ib.getBuilder();
  RankedTensorType type = arrayType(v);
  int64_t t = type.getDimSize(h.dim);
  bool masked = h.pads && !h.cyclic && (padValue || h.uneven);
  // The positions (from the tile's start) each partition reads: its
  // windows' where they start at the same place on every partition and no
  // mask needs the others, else its tile and halo.
  int64_t lo = -h.left, hi = t + h.right;
  bool exact = !masked && !h.offsets.empty() && llvm::all_equal(h.offsets);
  if (exact) {
    lo = h.offsets.front() - h.left;
    hi = lo + h.length;
  }
  // Of those, the ones some partition reads inside the array, from the
  // neighbours; the others, past the array's ends, are padding (the mask
  // below gives it its value where zeros will not do).
  int64_t sentLo = std::max(lo, -h.sentLeft);
  int64_t sentHi = std::max(sentLo, std::min(hi, t + h.sentRight));
  Value ext = sentExtension(values, ib, v, in, h.dim, h.cyclic, sentLo, sentHi);
  SmallVector<int64_t> shape(type.getShape());
  shape[h.dim] = hi - lo;
  RankedTensorType extType = withShape(type, shape);
  Value fill;
  if (!ext || sentLo > lo || sentHi < hi)
    fill = padValue ? padValue : ib.scalar(type.getElementType(), 0);
  if (!ext) {
    ext = ib.broadcast(fill, extType);
  } else if (fill) {
    SmallVector<int64_t> low(type.getRank(), 0), high(type.getRank(), 0),
        interior(type.getRank(), 0);
    low[h.dim] = sentLo - lo;
    high[h.dim] = hi - sentHi;
    ext = ib.create<PadOp>(
        extType, {ext, fill},
        {b.getNamedAttr(
            "padding", PaddingAttr::get(b.getContext(), low, high, interior))});
  }
  if (exact)
    return ext;
  if (masked) {
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
               ib.broadcast(values.atPartition(ib, starts), line)});
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
  return sliceAt(values, ib, ext, h.dim, h.offsets, h.length);
}

Value mlir::hlo::withHalo(SpmdValues &values, InstBuilder &ib, Value v,
                          const TileSharding &in, const Halo &h, int64_t size,
                          Value padValue) {
  // The same halo of the same value serves every later user in the block
  // (a convolution's input and its kernel gradient's).
  SmallVector<int64_t> key = {h.dim, h.left, h.right, h.length, size};
  key.push_back(h.pads);
  key.push_back(h.uneven);
  key.push_back(h.cyclic);
  key.push_back(reinterpret_cast<intptr_t>(padValue.getAsOpaquePointer()));
  llvm::append_range(key, h.offsets);
  if (Value made = madeBefore(values, ib, v, in, key))
    return made;
  Value made = exchangeHalo(values, ib, v, in, h, size, padValue);
  if (made != v)
    values.recordMade(v, key, made);
  return made;
}
