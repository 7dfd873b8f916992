//===- Shape.cpp - data movement ops --------------------------------------===//
//
// broadcast, reshape, transpose, reverse, slice, concatenate, pad (negative
// and interior padding), iota, dynamic-slice and dynamic-update-slice
// (start indices clamped so the slice fits, as HLO does), bitcast (in
// Bitcast.cpp), and the dynamic-shape ops.
//
// Dynamic dimensions: every array is held at its bounds; the runtime size
// of a dimension below its bound is tracked per value (Interp::
// runtimeSizes). set-dimension-size sets it (the elements past it are
// padding, kept as they were), get-dimension-size reads it (the bound when
// none was set), dynamic-reshape reshapes the elements within the
// operand's runtime sizes to the runtime sizes it is given (zero padding
// after them), and elementwise ops carry it over from an operand of the
// result's shape. XLA's custom calls `SliceToDynamic` (an array at its
// bounds and one s32 size per dimension -> the array with those runtime
// sizes) and `PadToStatic` (the inverse: the array at its bounds and its
// sizes, as a tuple) cross between the two forms. Any other op reading such
// a value is an error (it would see the padding), as is a called
// computation returning one; the entry computation's root (or each element
// of a root tuple) is returned at its runtime shape, as XLA returns it.
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

/// out[r] = in[map(r)] for every result index r.
template <typename Map>
static void gatherElements(Literal &out, const Literal &in, Map map) {
  SmallVector<int64_t> src(in.getRank());
  forEachElement(out, [&](ArrayRef<int64_t> r, int64_t linear) {
    map(r, src);
    out.copyElement(linear, in, in.linearize(src));
  });
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

/// The custom call `SliceToDynamic`: operand 0 with the runtime sizes given
/// by the other operands (one s32 scalar per dimension).
static FailureOr<Literal> sliceToDynamic(Interp &interp, CustomCallOp op,
                                         Operands operands) {
  const Literal &in = *operands[0];
  if (!in.isArray() ||
      static_cast<int64_t>(operands.size()) != in.getRank() + 1)
    return interp.error(op, "SliceToDynamic takes an array and one size per "
                            "dimension");
  SmallVector<int64_t> sizes;
  for (auto [d, dim] : llvm::enumerate(operands.drop_front())) {
    if (!dim->isArray() || dim->getNumElements() != 1)
      return interp.error(op, "the sizes must be scalars");
    int64_t size = indexValue(*dim), bound = in.getShape()[d];
    if (size < 0 || size > bound)
      return interp.error(op, "size " + Twine(size) + " of dimension " +
                                  Twine(d) + " is outside [0, " + Twine(bound) +
                                  "] (its bound)");
    sizes.push_back(size);
  }
  FailureOr<Literal> out = reshape(interp, op, in);
  if (failed(out))
    return failure();
  recordSizes(interp, op, sizes, out->getShape());
  return out;
}

/// The custom call `PadToStatic`: (operand at its bounds, its runtime size
/// per dimension as s32 scalars).
static FailureOr<Literal> padToStatic(Interp &interp, CustomCallOp op,
                                      Operands operands) {
  const Literal &in = *operands[0];
  auto tuple = dyn_cast<TupleType>(op.getType());
  if (operands.size() != 1 || !in.isArray() || !tuple ||
      static_cast<int64_t>(tuple.size()) != in.getRank() + 1)
    return interp.error(op, "PadToStatic takes one array and returns it with "
                            "one size per dimension");
  std::vector<Literal> elements;
  elements.push_back(in);
  for (int64_t size : runtimeShape(interp, op->getOperand(0), in))
    elements.push_back(Literal::scalarInt(
        getElementTypeOrSelf(tuple.getType(elements.size())), size));
  return Literal::tuple(std::move(elements));
}

EvalResult eval::evalDynamicShapeCustomCall(Interp &interp, CustomCallOp op,
                                            Operands operands) {
  StringRef target = op.getCustomCallTarget();
  if (target == "SliceToDynamic")
    return sliceToDynamic(interp, op, operands);
  if (target == "PadToStatic")
    return padToStatic(interp, op, operands);
  return std::nullopt;
}

/// True if `op` is the root tuple of the entry computation (its elements
/// are returned at their runtime shapes).
static bool isEntryRootTuple(Operation *op) {
  auto comp = dyn_cast<ComputationOp>(op->getParentOp());
  return isa<TupleOp>(op) && comp && comp.getEntry() && op->hasOneUse() &&
         op->use_begin()->getOwner()->hasTrait<OpTrait::IsTerminator>();
}

Literal eval::sliceToRuntimeShape(const Literal &in, ArrayRef<int64_t> sizes) {
  Literal out = in.withShape(sizes);
  if (out.getNumElements() == 0)
    return out;
  SmallVector<int64_t> index(sizes.size(), 0);
  do
    out.copyElement(out.linearize(index), in, in.linearize(index));
  while (nextIndex(index, sizes));
  return out;
}

LogicalResult eval::checkRuntimeSizes(Interp &interp, Operation *op) {
  bool elementwise = ElementwiseFn::get(op).has_value();
  const SmallVector<int64_t, 4> *seen = nullptr;
  for (auto [k, v] : llvm::enumerate(getDataOperands(op))) {
    auto it = interp.runtimeSizes.find(v);
    if (it == interp.runtimeSizes.end())
      continue;
    if (k == 0 &&
        isa<GetDimensionSizeOp, SetDimensionSizeOp, DynamicReshapeOp>(op))
      continue;
    if (isEntryRootTuple(op))
      continue;
    if (auto call = dyn_cast<CustomCallOp>(op))
      if (k == 0 && call.getCustomCallTarget() == "PadToStatic")
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
                               "get-dimension-size, dynamic-reshape, "
                               "elementwise ops, PadToStatic and the "
                               "entry's root");
  }
  return success();
}

void eval::propagateRuntimeSizes(Interp &interp, Operation *op) {
  if (!ElementwiseFn::get(op))
    return;
  for (Value v : getDataOperands(op)) {
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
          if (operands[0]->getNumElements() == 1)
            return out.fillWith(*operands[0], 0);
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
      .Case([&](BitcastOp) { return eval::bitcast(interp, op, *operands[0]); })
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
