//===- HloShapeRules.cpp - HLO shape rules ----------------------------===//
//
// Shape rules of elementwise ops and of the ops that move elements around
// (broadcast, reshape, transpose, reverse, slice, concatenate, pad, iota,
// dynamic slices, dimension sizes).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "HloTypeInferenceImpl.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::detail;

static std::optional<int64_t> numElements(ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (ShapedType::isDynamic(d))
      return std::nullopt;
    n = satMul(n, d);
  }
  return n;
}

//===----------------------------------------------------------------------===//
// Elementwise and shape manipulation
//===----------------------------------------------------------------------===//

LogicalResult mlir::hlo::verifySameShape(EmitErrorFn emitError,
                                         ArrayRef<Type> operands, Type result,
                                         bool sameElementType) {
  if (!isa<RankedTensorType>(result))
    return emitError() << "result must be an array, got " << result;
  for (Type t : operands) {
    if (!isa<RankedTensorType>(t))
      return emitError() << "operand must be an array, got " << t;
    if (!shapesCompatible(t, result))
      return emitError() << "operand dimensions "
                         << str(cast<RankedTensorType>(t).getShape())
                         << " do not match result dimensions "
                         << str(cast<RankedTensorType>(result).getShape());
    if (sameElementType && elementType(t) != elementType(result))
      return emitError() << "operand element type " << elementType(t)
                         << " does not match result element type "
                         << elementType(result);
  }
  return success();
}

LogicalResult mlir::hlo::verifyBroadcast(EmitErrorFn emitError, Type operand,
                                         Type result, ArrayRef<int64_t> dims) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  auto out = getDims(result, emitError, "result");
  if (failed(out))
    return failure();
  if (dims.size() != in->size())
    return emitError() << "dimensions " << str(dims) << " must have one entry "
                       << "per operand dimension (" << in->size() << ")";
  if (failed(checkDimList(emitError, "dimensions", dims, out->size())))
    return failure();
  for (size_t i = 0; i < dims.size(); ++i)
    if (!dimsCompatible((*in)[i], (*out)[dims[i]]))
      return emitError() << "operand dimension " << i << " (size "
                         << str((*in)[i]) << ") does not match result "
                         << "dimension " << dims[i] << " (size "
                         << str((*out)[dims[i]]) << ")";
  if (elementType(operand) != elementType(result))
    return emitError() << "broadcast may not change the element type ("
                       << elementType(operand) << " to " << elementType(result)
                       << ")";
  return success();
}

LogicalResult mlir::hlo::verifyReshape(EmitErrorFn emitError, Type operand,
                                       Type result) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  auto out = getDims(result, emitError, "result");
  if (failed(out))
    return failure();
  auto a = numElements(*in), b = numElements(*out);
  if (a && b && *a != *b)
    return emitError() << "reshape of " << str(*in) << " (" << *a
                       << " elements) to " << str(*out) << " (" << *b
                       << " elements) changes the element count";
  if (elementType(operand) != elementType(result))
    return emitError() << "reshape may not change the element type ("
                       << elementType(operand) << " to " << elementType(result)
                       << ")";
  return success();
}

/// Start indices and dimension sizes: integer scalars of one element type.
static LogicalResult checkIndexScalars(EmitErrorFn emitError, StringRef what,
                                       TypeRange indices, size_t count) {
  if (indices.size() != count)
    return emitError() << "needs " << count << " " << what << ", got "
                       << indices.size();
  for (Type t : indices) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || rt.getRank() != 0 ||
        !(getElementKind(rt.getElementType()) & kIntegralKind))
      return emitError() << what << " must be integer scalars, got " << t;
    if (elementType(t) != elementType(indices.front()))
      return emitError() << what << " must all have the same type, got "
                         << indices.front() << " and " << t;
  }
  return success();
}

LogicalResult mlir::hlo::verifyDynamicReshape(EmitErrorFn emitError,
                                              Type operand,
                                              TypeRange outputDims,
                                              Type result) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  auto out = getDims(result, emitError, "result");
  if (failed(out))
    return failure();
  if (failed(checkIndexScalars(emitError, "dimension sizes", outputDims,
                               out->size())))
    return failure();
  if (elementType(operand) != elementType(result))
    return emitError() << "dynamic-reshape may not change the element type";
  return success();
}

FailureOr<Type> mlir::hlo::inferTranspose(EmitErrorFn emitError, Type operand,
                                          ArrayRef<int64_t> perm) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  SmallVector<int64_t> sorted(perm);
  llvm::sort(sorted);
  bool isPerm = perm.size() == in->size();
  for (size_t i = 0; isPerm && i < sorted.size(); ++i)
    isPerm = sorted[i] == int64_t(i);
  if (!isPerm)
    return emitError() << "dimensions " << str(perm)
                       << " must be a permutation of the operand's "
                       << in->size() << " dimensions";
  SmallVector<int64_t> dims;
  for (int64_t p : perm)
    dims.push_back((*in)[p]);
  // As in XLA, the result keeps the operand's physical layout (the
  // transpose is then a bitcast): its minor-to-major order is the operand's
  // mapped through the permutation. A default (descending) order, and the
  // layout of an operand with tiles, bounds or a memory space, are dropped.
  auto layout = dyn_cast_or_null<LayoutAttr>(
      cast<RankedTensorType>(operand).getEncoding());
  if (layout &&
      (!layout.getTileSizes().empty() || !layout.getBounds().empty() ||
       layout.getMemorySpace() || layout.getElementSizeInBits() ||
       (layout.getExtra() && !layout.getExtra().empty())))
    layout = {};
  SmallVector<int64_t> m2m;
  if (layout && layout.getHasMinorToMajor())
    m2m.assign(layout.getMinorToMajor().begin(),
               layout.getMinorToMajor().end());
  else
    for (int64_t d = in->size() - 1; d >= 0; --d)
      m2m.push_back(d);
  SmallVector<int64_t> resultOf(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    resultOf[p] = i;
  bool isDefault = true;
  for (size_t i = 0; i < m2m.size(); ++i) {
    m2m[i] = resultOf[m2m[i]];
    isDefault &= m2m[i] == int64_t(m2m.size() - 1 - i);
  }
  Attribute encoding;
  if (!isDefault)
    encoding = LayoutAttr::get(operand.getContext(), true, m2m, {}, {}, 0, 0,
                               {}, StringAttr::get(operand.getContext(), ""));
  return Type(RankedTensorType::get(dims, elementType(operand), encoding));
}

FailureOr<Type> mlir::hlo::inferReverse(EmitErrorFn emitError, Type operand,
                                        ArrayRef<int64_t> dims) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in) ||
      failed(checkDimList(emitError, "dimensions", dims, in->size())))
    return failure();
  return operand;
}

FailureOr<Type> mlir::hlo::inferSlice(EmitErrorFn emitError, Type operand,
                                      ArrayRef<int64_t> starts,
                                      ArrayRef<int64_t> limits,
                                      ArrayRef<int64_t> strides) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  if (starts.size() != in->size() || limits.size() != in->size() ||
      strides.size() != in->size())
    return emitError() << "slice has " << starts.size()
                       << " ranges for an operand of rank " << in->size();
  SmallVector<int64_t> dims;
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t dim = (*in)[i];
    if (starts[i] < 0 || limits[i] < starts[i] ||
        (!ShapedType::isDynamic(dim) && limits[i] > dim) || strides[i] <= 0)
      return emitError() << "slice range [" << starts[i] << ":" << limits[i]
                         << ":" << strides[i] << "] is invalid for dimension "
                         << i << " of size " << str(dim);
    dims.push_back(satAdd(satAdd(limits[i], -starts[i]), strides[i] - 1) /
                   strides[i]);
  }
  return Type(RankedTensorType::get(dims, elementType(operand)));
}

FailureOr<Type> mlir::hlo::inferConcatenate(EmitErrorFn emitError,
                                            TypeRange operands,
                                            ArrayRef<int64_t> dims) {
  if (operands.empty())
    return emitError() << "needs at least one operand";
  auto out = getDims(operands[0], emitError, "operand");
  if (failed(out))
    return failure();
  if (dims.size() != 1)
    return emitError() << "needs exactly one concatenate dimension, got "
                       << str(dims);
  int64_t d = dims[0];
  if (d < 0 || d >= int64_t(out->size()))
    return emitError() << "dimension " << d << " is out of range for rank "
                       << out->size();
  Type elt = elementType(operands[0]);
  int64_t sum = 0;
  bool dynamic = false;
  for (auto [i, t] : llvm::enumerate(operands)) {
    auto in = getDims(t, emitError, "operand");
    if (failed(in))
      return failure();
    if (in->size() != out->size())
      return emitError() << "operand " << i << " has rank " << in->size()
                         << " but operand 0 has rank " << out->size();
    for (size_t k = 0; k < in->size(); ++k)
      if (int64_t(k) != d && !dimsCompatible((*in)[k], (*out)[k]))
        return emitError() << "operand " << i << " dimension " << k << " (size "
                           << str((*in)[k])
                           << ") does not match operand 0 (size "
                           << str((*out)[k]) << ")";
    if (ShapedType::isDynamic((*in)[d]))
      dynamic = true;
    else
      sum = satAdd(sum, (*in)[d]);
    if (elementType(t) != elt)
      return emitError() << "operand " << i << " element type "
                         << elementType(t) << " differs from operand 0's "
                         << elt;
  }
  SmallVector<int64_t> shape(*out);
  shape[d] = dynamic ? ShapedType::kDynamic : sum;
  return Type(RankedTensorType::get(shape, elt));
}

FailureOr<Type> mlir::hlo::inferPad(EmitErrorFn emitError, Type operand,
                                    Type padValue, ArrayRef<int64_t> low,
                                    ArrayRef<int64_t> high,
                                    ArrayRef<int64_t> interior) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  auto pv = getDims(padValue, emitError, "padding value");
  if (failed(pv))
    return failure();
  if (!pv->empty())
    return emitError() << "padding value must be a scalar, got " << padValue;
  if (elementType(padValue) != elementType(operand))
    return emitError() << "padding value element type " << elementType(padValue)
                       << " differs from the operand's "
                       << elementType(operand);
  if (low.size() != in->size() || high.size() != in->size() ||
      interior.size() != in->size())
    return emitError() << "padding has " << low.size()
                       << " dimensions for an operand of rank " << in->size();
  SmallVector<int64_t> dims(*in);
  for (size_t i = 0; i < low.size(); ++i) {
    if (interior[i] < 0)
      return emitError() << "interior padding " << interior[i]
                         << " of dimension " << i << " must be non-negative";
    int64_t d = (*in)[i];
    if (ShapedType::isDynamic(d))
      continue;
    int64_t expected = satAdd(satAdd(satAdd(low[i], high[i]), d),
                              satMul(std::max<int64_t>(d - 1, 0), interior[i]));
    if (expected < 0)
      return emitError() << "padding " << low[i] << "_" << high[i] << "_"
                         << interior[i] << " of dimension " << i << " (size "
                         << d << ") gives negative size " << expected;
    dims[i] = expected;
  }
  return Type(RankedTensorType::get(dims, elementType(operand)));
}

LogicalResult mlir::hlo::verifyIota(EmitErrorFn emitError, Type result,
                                    int64_t iotaDimension) {
  auto out = getDims(result, emitError, "result");
  if (failed(out))
    return failure();
  if (iotaDimension < 0 || iotaDimension >= int64_t(out->size()))
    return emitError() << "iota_dimension " << iotaDimension
                       << " is out of range for rank " << out->size();
  return verifyElementKind(emitError, "result", result, kNumericKind);
}

FailureOr<Type> mlir::hlo::inferDynamicSlice(EmitErrorFn emitError,
                                             Type operand, TypeRange indices,
                                             ArrayRef<int64_t> sizes) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in) || failed(checkIndexScalars(emitError, "start indices",
                                             indices, in->size())))
    return failure();
  if (sizes.size() != in->size())
    return emitError() << "dynamic_slice_sizes " << str(sizes)
                       << " must have one entry per operand dimension ("
                       << in->size() << ")";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0)
      return emitError() << "slice size " << sizes[i] << " of dimension " << i
                         << " is negative";
    if (!ShapedType::isDynamic((*in)[i]) && sizes[i] > (*in)[i])
      return emitError() << "slice size " << sizes[i] << " of dimension " << i
                         << " exceeds the operand size " << (*in)[i];
  }
  return Type(RankedTensorType::get(sizes, elementType(operand)));
}

FailureOr<Type> mlir::hlo::inferDynamicUpdateSlice(EmitErrorFn emitError,
                                                   Type operand, Type update,
                                                   TypeRange indices) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  auto up = getDims(update, emitError, "update");
  if (failed(up) || failed(checkIndexScalars(emitError, "start indices",
                                             indices, in->size())))
    return failure();
  if (up->size() != in->size())
    return emitError() << "update rank " << up->size()
                       << " must equal the operand rank " << in->size();
  for (size_t i = 0; i < up->size(); ++i)
    if (!ShapedType::isDynamic((*in)[i]) && !ShapedType::isDynamic((*up)[i]) &&
        (*up)[i] > (*in)[i])
      return emitError() << "update dimension " << i << " (size " << (*up)[i]
                         << ") exceeds the operand (size " << (*in)[i] << ")";
  if (elementType(update) != elementType(operand))
    return emitError() << "update element type " << elementType(update)
                       << " differs from the operand's "
                       << elementType(operand);
  return operand;
}

static bool isS32Scalar(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  return rt && rt.getRank() == 0 && rt.getElementType().isSignlessInteger(32);
}

FailureOr<Type> mlir::hlo::inferGetDimensionSize(EmitErrorFn emitError,
                                                 Type operand,
                                                 ArrayRef<int64_t> dims) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in) || failed(checkSingleDim(emitError, dims, in->size())))
    return failure();
  return Type(
      RankedTensorType::get({}, IntegerType::get(operand.getContext(), 32)));
}

LogicalResult mlir::hlo::verifySetDimensionSize(EmitErrorFn emitError,
                                                Type operand, Type size,
                                                Type result,
                                                ArrayRef<int64_t> dims) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in) || failed(checkSingleDim(emitError, dims, in->size())))
    return failure();
  if (!isS32Scalar(size))
    return emitError() << "size must be an s32 scalar, got " << size;
  return verifySameShape(emitError, {operand}, result, true);
}
