//===- Shape.cpp - data movement ops --------------------------------------===//
//
// broadcast, reshape, transpose, reverse, slice, concatenate, pad (negative
// and interior padding), iota, dynamic-slice and dynamic-update-slice
// (start indices clamped so the slice fits, as HLO does), bitcast (through
// the operand and result layouts: the physical element order is kept,
// tiles included; a `*` tile dimension is an error), and the dynamic-shape
// ops.
//
// Dynamic dimensions: every array is held at its bounds; the runtime size
// of a dimension below its bound is tracked per value (Interp::
// runtimeSizes). set-dimension-size sets it (the elements past it are
// padding, kept as they were), get-dimension-size reads it (the bound when
// none was set), dynamic-reshape reshapes the elements within the
// operand's runtime sizes to the runtime sizes it is given (zero padding
// after them), and elementwise ops carry it over from an operand of the
// result's shape. Any other op reading such a value is an error (it would
// see the padding), as is a called computation returning one; the entry
// computation's root is returned at its bounds, padding included.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;

static int64_t clampTo(int64_t v, int64_t lo, int64_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/// Calls `fn(resultIndex, linear)` for every element of `out`.
template <typename Fn> static void forEachElement(const Literal &out, Fn fn) {
  int64_t n = out.getNumElements();
  if (n == 0)
    return;
  SmallVector<int64_t> index(out.getRank(), 0);
  int64_t linear = 0;
  do {
    fn(ArrayRef<int64_t>(index), linear++);
  } while (nextIndex(index, out.getShape()));
}

/// out[r] = in[map(r)] for every result index r.
template <typename Map>
static void gatherElements(Literal &out, const Literal &in, Map map) {
  SmallVector<int64_t> src(in.getRank());
  forEachElement(out, [&](ArrayRef<int64_t> r, int64_t linear) {
    map(r, src);
    out.copyElement(linear, in, in.linearize(src));
  });
}

/// The minor-to-major order of an array type's layout (row-major default).
static SmallVector<int64_t> minorToMajor(Type type, int64_t rank) {
  auto tt = cast<RankedTensorType>(type);
  if (auto layout = dyn_cast_or_null<LayoutAttr>(tt.getEncoding()))
    if (layout.getHasMinorToMajor() &&
        static_cast<int64_t>(layout.getMinorToMajor().size()) == rank)
      return SmallVector<int64_t>(layout.getMinorToMajor());
  SmallVector<int64_t> order;
  for (int64_t d = rank - 1; d >= 0; --d)
    order.push_back(d);
  return order;
}

/// The tiles of `type`'s layout (empty without a layout or tiles).
static SmallVector<ArrayRef<int64_t>> tilesOf(Type type) {
  auto layout =
      dyn_cast_or_null<LayoutAttr>(cast<RankedTensorType>(type).getEncoding());
  if (!layout)
    return {};
  return layout.getTiles();
}

namespace {
/// Where the elements of an array of `shape` lie in memory under a tiled
/// layout, as XLA defines tiling: the dimensions in major-to-minor order
/// are padded to multiples of the first tile's sizes (a tile of rank k
/// covers the k minor-most dimensions; missing leading dimensions count
/// as 1), each tiled dimension splits into (index / tile, index % tile)
/// with the tile parts becoming the minor-most dimensions, the next tile
/// applies to that shape in turn, and memory is the final shape in
/// row-major order.
struct TiledLayout {
  SmallVector<int64_t> order; // major to minor
  SmallVector<ArrayRef<int64_t>> tiles;
  /// The number of elements of memory, padding included.
  int64_t size = 1;

  TiledLayout(ArrayRef<int64_t> shape, ArrayRef<int64_t> minorToMajor,
              SmallVector<ArrayRef<int64_t>> tiles)
      : order(llvm::reverse(minorToMajor)), tiles(std::move(tiles)) {
    SmallVector<int64_t> sizes, index;
    for (int64_t d : order)
      sizes.push_back(shape[d]);
    index.assign(sizes.size(), 0);
    tile(sizes, index);
    for (int64_t s : sizes)
      size *= s;
  }

  /// The memory position of the element at logical `index`.
  int64_t offset(ArrayRef<int64_t> logical, ArrayRef<int64_t> shape) const {
    SmallVector<int64_t> sizes, index;
    for (int64_t d : order) {
      sizes.push_back(shape[d]);
      index.push_back(logical[d]);
    }
    tile(sizes, index);
    int64_t at = 0;
    for (auto [i, s] : llvm::zip(index, sizes))
      at = at * s + i;
    return at;
  }

  /// False if a tile has a `*` (combined) dimension, which is not modelled.
  bool isSupported() const {
    return llvm::all_of(tiles, [](ArrayRef<int64_t> t) {
      return llvm::all_of(t, [](int64_t v) { return v > 0; });
    });
  }

private:
  void tile(SmallVector<int64_t> &sizes, SmallVector<int64_t> &index) const {
    for (ArrayRef<int64_t> t : tiles) {
      size_t k = t.size();
      if (sizes.size() < k) {
        sizes.insert(sizes.begin(), k - sizes.size(), 1);
        index.insert(index.begin(), k - index.size(), 0);
      }
      size_t first = sizes.size() - k;
      for (size_t j = 0; j < k; ++j) {
        sizes.push_back(t[j]);
        index.push_back(index[first + j] % t[j]);
        sizes[first + j] = llvm::divideCeil(sizes[first + j], t[j]);
        index[first + j] /= t[j];
      }
    }
  }
};
} // namespace

/// bitcast between layouts with tiles: each result element reads the
/// operand element at the same memory position (padding reads as zero).
static FailureOr<Literal> tiledBitcast(Interp &interp, Operation *op,
                                       const Literal &in, Literal out) {
  TiledLayout inLayout(in.getShape(),
                       minorToMajor(op->getOperand(0).getType(), in.getRank()),
                       tilesOf(op->getOperand(0).getType()));
  TiledLayout outLayout(out.getShape(),
                        minorToMajor(op->getResult(0).getType(), out.getRank()),
                        tilesOf(op->getResult(0).getType()));
  if (!inLayout.isSupported() || !outLayout.isSupported())
    return interp.error(op, "tiles with a combined ('*') dimension are not "
                            "supported");
  if (inLayout.size != outLayout.size)
    return interp.error(op, "the operand and the result take different "
                            "amounts of memory under their tiled layouts");
  std::vector<int64_t> source(inLayout.size, -1);
  forEachElement(in, [&](ArrayRef<int64_t> index, int64_t linear) {
    source[inLayout.offset(index, in.getShape())] = linear;
  });
  bool sameType = in.getElementType() == out.getElementType();
  forEachElement(out, [&](ArrayRef<int64_t> index, int64_t linear) {
    int64_t from = source[outLayout.offset(index, out.getShape())];
    if (from < 0)
      return;
    if (sameType)
      out.copyElement(linear, in, from);
    else
      out.setBits(linear, in.getBits(from));
  });
  return std::move(out);
}

static FailureOr<Literal> bitcast(Interp &interp, Operation *op,
                                  const Literal &in) {
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  Literal &out = *result;
  if (in.getNumElements() != out.getNumElements() ||
      getElementBitWidth(in.getElementType()) !=
          getElementBitWidth(out.getElementType()) ||
      (in.getElementKind() == ElementKind::Complex) !=
          (out.getElementKind() == ElementKind::Complex))
    return interp.error(op, "bitcast must keep the element count and width");
  if (!tilesOf(op->getOperand(0).getType()).empty() ||
      !tilesOf(op->getResult(0).getType()).empty())
    return tiledBitcast(interp, op, in, std::move(out));
  bool sameType = in.getElementType() == out.getElementType();
  SmallVector<int64_t> inOrder =
      minorToMajor(op->getOperand(0).getType(), in.getRank());
  SmallVector<int64_t> outOrder =
      minorToMajor(op->getResult(0).getType(), out.getRank());
  // Physical strides of the result.
  SmallVector<int64_t> outStride(out.getRank());
  int64_t s = 1;
  for (int64_t d : outOrder) {
    outStride[d] = s;
    s *= out.getShape()[d];
  }
  SmallVector<int64_t> src(in.getRank());
  forEachElement(out, [&](ArrayRef<int64_t> r, int64_t linear) {
    int64_t physical = 0;
    for (int64_t d = 0; d < out.getRank(); ++d)
      physical += r[d] * outStride[d];
    for (int64_t d : inOrder) {
      int64_t size = in.getShape()[d];
      src[d] = physical % size;
      physical /= size;
    }
    int64_t from = in.linearize(src);
    if (sameType)
      out.copyElement(linear, in, from);
    else
      out.setBits(linear, in.getBits(from));
  });
  return std::move(out);
}

static FailureOr<Literal> pad(Interp &interp, PadOp op, const Literal &in,
                              const Literal &value) {
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  Literal &out = *result;
  for (int64_t i = 0, n = out.getNumElements(); i < n; ++i)
    out.copyElement(i, value, 0);
  ArrayRef<int64_t> low = op.getPadding().getLow();
  ArrayRef<int64_t> interior = op.getPadding().getInterior();
  SmallVector<int64_t> dst(out.getRank());
  forEachElement(in, [&](ArrayRef<int64_t> idx, int64_t linear) {
    for (int64_t d = 0; d < in.getRank(); ++d) {
      int64_t inner =
          d < static_cast<int64_t>(interior.size()) ? interior[d] : 0;
      dst[d] = low[d] + idx[d] * (inner + 1);
      if (dst[d] < 0 || dst[d] >= out.getShape()[d])
        return;
    }
    out.copyElement(out.linearize(dst), in, linear);
  });
  return std::move(out);
}

static FailureOr<Literal> concatenate(Interp &interp, ConcatenateOp op,
                                      Operands operands) {
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  Literal &out = *result;
  int64_t dim = op.getDimensions()[0];
  int64_t offset = 0;
  SmallVector<int64_t> dst(out.getRank());
  for (const Literal *in : operands) {
    forEachElement(*in, [&](ArrayRef<int64_t> idx, int64_t linear) {
      dst.assign(idx.begin(), idx.end());
      dst[dim] += offset;
      out.copyElement(out.linearize(dst), *in, linear);
    });
    offset += in->getShape()[dim];
  }
  return std::move(out);
}

static FailureOr<Literal> iota(Interp &interp, IotaOp op) {
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  Literal &out = *result;
  int64_t dim = op.getIotaDimension();
  forEachElement(out, [&](ArrayRef<int64_t> idx, int64_t linear) {
    if (out.getElementKind() == ElementKind::Float ||
        out.getElementKind() == ElementKind::Complex)
      out.setFloat(linear, static_cast<double>(idx[dim]));
    else
      out.setInt(linear, idx[dim]);
  });
  return std::move(out);
}

/// Start indices of dynamic-slice / dynamic-update-slice, clamped so that
/// a window of `sizes` fits in `shape`.
static SmallVector<int64_t> clampedStarts(Operands indices,
                                          ArrayRef<int64_t> shape,
                                          ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> starts;
  for (auto [d, index] : llvm::enumerate(indices))
    starts.push_back(clampTo(indexValue(*index), 0, shape[d] - sizes[d]));
  return starts;
}

static FailureOr<Literal> dynamicUpdateSlice(Interp &interp, Operation *op,
                                             Operands operands) {
  Literal out = *operands[0];
  const Literal &update = *operands[1];
  SmallVector<int64_t> starts =
      clampedStarts(operands.drop_front(2), out.getShape(), update.getShape());
  SmallVector<int64_t> dst(out.getRank());
  forEachElement(update, [&](ArrayRef<int64_t> idx, int64_t linear) {
    for (int64_t d = 0; d < out.getRank(); ++d)
      dst[d] = starts[d] + idx[d];
    out.copyElement(out.linearize(dst), update, linear);
  });
  return std::move(out);
}

/// A copy of `in` with the shape of `op`'s result (same elements in
/// row-major order).
static FailureOr<Literal> reshape(Interp &interp, Operation *op,
                                  const Literal &in) {
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  if (result->getNumElements() != in.getNumElements())
    return interp.error(op, "reshape changes the element count");
  for (int64_t i = 0, n = in.getNumElements(); i < n; ++i)
    result->copyElement(i, in, i);
  return std::move(*result);
}

//===----------------------------------------------------------------------===//
// Dynamic dimensions.
//===----------------------------------------------------------------------===//

SmallVector<int64_t> eval::runtimeShape(Interp &interp, Value value,
                                        const Literal &literal) {
  auto it = interp.runtimeSizes.find(value);
  if (it != interp.runtimeSizes.end())
    return SmallVector<int64_t>(it->second.begin(), it->second.end());
  return SmallVector<int64_t>(literal.getShape());
}

/// Records `sizes` as the runtime sizes of `op`'s result (nothing when they
/// are the bounds).
static void recordSizes(Interp &interp, Operation *op, ArrayRef<int64_t> sizes,
                        ArrayRef<int64_t> bounds) {
  if (sizes == bounds)
    interp.runtimeSizes.erase(op->getResult(0));
  else
    interp.runtimeSizes[op->getResult(0)].assign(sizes.begin(), sizes.end());
}

/// set-dimension-size: the operand's elements (those past the new size are
/// padding), with dimension d's runtime size set.
static FailureOr<Literal>
setDimensionSize(Interp &interp, SetDimensionSizeOp op, Operands operands) {
  const Literal &in = *operands[0];
  int64_t d = op.getDimensions()[0];
  if (!in.isArray() || d < 0 || d >= in.getRank())
    return interp.error(op, "operand has no dimension " + Twine(d));
  if (!operands[1]->isArray() || operands[1]->getNumElements() != 1)
    return interp.error(op, "the size must be a scalar");
  int64_t size = indexValue(*operands[1]);
  int64_t bound = in.getShape()[d];
  if (size < 0 || size > bound)
    return interp.error(op, "size " + Twine(size) + " of dimension " +
                                Twine(d) + " is outside [0, " + Twine(bound) +
                                "] (its bound)");
  FailureOr<Literal> out = reshape(interp, op, in);
  if (failed(out))
    return failure();
  SmallVector<int64_t> sizes = runtimeShape(interp, op->getOperand(0), in);
  sizes[d] = size;
  recordSizes(interp, op, sizes, out->getShape());
  return out;
}

/// dynamic-reshape: the operand's elements within its runtime sizes, in
/// row-major order, laid out in the runtime sizes given by the operands
/// (each at most its bound); the rest of the result is zero padding.
static FailureOr<Literal> dynamicReshape(Interp &interp, Operation *op,
                                         Operands operands) {
  const Literal &in = *operands[0];
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  Literal &out = *result;
  Operands dims = operands.drop_front();
  if (static_cast<int64_t>(dims.size()) != out.getRank())
    return interp.error(op, "needs one size operand per result dimension");
  if (out.getNumElements() != in.getNumElements())
    return interp.error(
        op, "the result's bounds hold " + Twine(out.getNumElements()) +
                " elements, the operand's " + Twine(in.getNumElements()) +
                " (HLO wants them equal)");
  SmallVector<int64_t> sizes;
  for (auto [d, dim] : llvm::enumerate(dims)) {
    if (!dim->isArray() || dim->getNumElements() != 1)
      return interp.error(op, "the sizes must be scalars");
    int64_t size = indexValue(*dim);
    if (size < 0 || size > out.getShape()[d])
      return interp.error(op, "size " + Twine(size) + " of result dimension " +
                                  Twine(d) + " is outside [0, " +
                                  Twine(out.getShape()[d]) + "] (its bound)");
    sizes.push_back(size);
  }
  SmallVector<int64_t> inSizes = runtimeShape(interp, op->getOperand(0), in);
  int64_t count = numElements(sizes);
  if (count != numElements(inSizes))
    return interp.error(op, "the runtime sizes hold " + Twine(count) +
                                " elements, the operand " +
                                Twine(numElements(inSizes)));
  SmallVector<int64_t> src(in.getRank(), 0), dst(out.getRank(), 0);
  for (int64_t i = 0; i < count; ++i) {
    out.copyElement(out.linearize(dst), in, in.linearize(src));
    nextIndex(src, inSizes);
    nextIndex(dst, sizes);
  }
  recordSizes(interp, op, sizes, out.getShape());
  return std::move(out);
}

LogicalResult eval::checkRuntimeSizes(Interp &interp, Operation *op) {
  bool elementwise = ElementwiseFn::get(op).has_value();
  const SmallVector<int64_t, 4> *seen = nullptr;
  for (auto [k, v] : llvm::enumerate(op->getOperands())) {
    auto it = interp.runtimeSizes.find(v);
    if (it == interp.runtimeSizes.end())
      continue;
    if (k == 0 &&
        isa<GetDimensionSizeOp, SetDimensionSizeOp, DynamicReshapeOp>(op))
      continue;
    if (elementwise && getStaticShape(v.getType()) ==
                           getStaticShape(op->getResult(0).getType())) {
      if (seen && *seen != it->second)
        return interp.fail(op, "its operands have different runtime "
                               "dimension sizes");
      seen = &it->second;
      continue;
    }
    std::string sizes;
    llvm::raw_string_ostream os(sizes);
    llvm::interleaveComma(it->second, os);
    return interp.fail(op, "operand " + Twine(k) +
                               " has dynamic dimensions below their bounds "
                               "(runtime sizes [" +
                               sizes +
                               "]); the interpreter tracks runtime sizes "
                               "only through set-dimension-size, "
                               "get-dimension-size, dynamic-reshape and "
                               "elementwise ops");
  }
  return success();
}

void eval::propagateRuntimeSizes(Interp &interp, Operation *op) {
  if (!ElementwiseFn::get(op))
    return;
  for (Value v : op->getOperands()) {
    auto it = interp.runtimeSizes.find(v);
    if (it != interp.runtimeSizes.end() &&
        getStaticShape(v.getType()) ==
            getStaticShape(op->getResult(0).getType())) {
      SmallVector<int64_t, 4> sizes = it->second;
      interp.runtimeSizes[op->getResult(0)] = std::move(sizes);
      return;
    }
  }
}

EvalResult eval::evalShapeOp(Interp &interp, Operation *op, Operands operands) {
  auto withResult = [&](auto fill) -> EvalResult {
    auto result = makeResult(interp, op);
    if (failed(result))
      return FailureOr<Literal>(failure());
    fill(*result);
    return std::move(*result);
  };
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case([&](BroadcastOp b) {
        ArrayRef<int64_t> dims = orEmpty(b.getDimensions());
        return withResult([&](Literal &out) {
          gatherElements(out, *operands[0],
                         [&](ArrayRef<int64_t> r, SmallVector<int64_t> &src) {
                           for (auto [i, d] : llvm::enumerate(dims))
                             src[i] = r[d];
                         });
        });
      })
      .Case([&](ReshapeOp) { return reshape(interp, op, *operands[0]); })
      .Case([&](TransposeOp t) {
        ArrayRef<int64_t> perm = t.getDimensions();
        return withResult([&](Literal &out) {
          gatherElements(out, *operands[0],
                         [&](ArrayRef<int64_t> r, SmallVector<int64_t> &src) {
                           for (auto [i, d] : llvm::enumerate(perm))
                             src[d] = r[i];
                         });
        });
      })
      .Case([&](ReverseOp rev) {
        ArrayRef<int64_t> dims = rev.getDimensions();
        const Literal &in = *operands[0];
        return withResult([&](Literal &out) {
          gatherElements(out, in,
                         [&](ArrayRef<int64_t> r, SmallVector<int64_t> &src) {
                           src.assign(r.begin(), r.end());
                           for (int64_t d : dims)
                             src[d] = in.getShape()[d] - 1 - r[d];
                         });
        });
      })
      .Case([&](SliceOp s) {
        ArrayRef<int64_t> starts = s.getSlice().getStarts();
        ArrayRef<int64_t> strides = s.getSlice().getStrides();
        return withResult([&](Literal &out) {
          gatherElements(out, *operands[0],
                         [&](ArrayRef<int64_t> r, SmallVector<int64_t> &src) {
                           for (size_t d = 0; d < r.size(); ++d)
                             src[d] =
                                 starts[d] +
                                 r[d] * (d < strides.size() ? strides[d] : 1);
                         });
        });
      })
      .Case([&](ConcatenateOp c) { return concatenate(interp, c, operands); })
      .Case([&](PadOp p) { return pad(interp, p, *operands[0], *operands[1]); })
      .Case([&](IotaOp i) { return iota(interp, i); })
      .Case([&](DynamicSliceOp ds) {
        const Literal &in = *operands[0];
        SmallVector<int64_t> starts = clampedStarts(
            operands.drop_front(), in.getShape(), ds.getDynamicSliceSizes());
        return withResult([&](Literal &out) {
          gatherElements(out, in,
                         [&](ArrayRef<int64_t> r, SmallVector<int64_t> &src) {
                           for (size_t d = 0; d < r.size(); ++d)
                             src[d] = starts[d] + r[d];
                         });
        });
      })
      .Case([&](DynamicUpdateSliceOp) {
        return dynamicUpdateSlice(interp, op, operands);
      })
      .Case([&](BitcastOp) { return bitcast(interp, op, *operands[0]); })
      .Case([&](GetDimensionSizeOp g) -> EvalResult {
        int64_t d = g.getDimensions()[0];
        SmallVector<int64_t> sizes =
            runtimeShape(interp, op->getOperand(0), *operands[0]);
        return withResult([&](Literal &out) { out.setInt(0, sizes[d]); });
      })
      .Case([&](SetDimensionSizeOp s) {
        return setDimensionSize(interp, s, operands);
      })
      .Case([&](DynamicReshapeOp) {
        return dynamicReshape(interp, op, operands);
      })
      .Default([](Operation *) -> EvalResult { return std::nullopt; });
}
