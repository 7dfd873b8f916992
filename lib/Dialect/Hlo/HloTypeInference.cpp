//===- HloTypeInference.cpp - HLO shape rules -----------------------------===//
//
// HLO's shape rules (XLA operation semantics) as functions over types and
// attribute values. Dynamic dimensions are compatible with every size and
// layouts (tensor encodings) are ignored.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::hlo;

//===----------------------------------------------------------------------===//
// Comparing shapes
//===----------------------------------------------------------------------===//

bool mlir::hlo::dimsCompatible(int64_t a, int64_t b) {
  return a == b || ShapedType::isDynamic(a) || ShapedType::isDynamic(b);
}

bool mlir::hlo::shapesCompatible(Type a, Type b) {
  auto ta = dyn_cast<RankedTensorType>(a);
  auto tb = dyn_cast<RankedTensorType>(b);
  if (!ta || !tb || ta.getRank() != tb.getRank())
    return false;
  for (auto [x, y] : llvm::zip(ta.getShape(), tb.getShape()))
    if (!dimsCompatible(x, y))
      return false;
  return true;
}

static bool typesCompatibleImpl(Type a, Type b, bool ignoreFpPrecision) {
  if (a == b)
    return true;
  auto ta = dyn_cast<RankedTensorType>(a);
  auto tb = dyn_cast<RankedTensorType>(b);
  if (ta && tb) {
    Type ea = ta.getElementType(), eb = tb.getElementType();
    bool sameElement = ea == eb || (ignoreFpPrecision && isa<FloatType>(ea) &&
                                    isa<FloatType>(eb));
    return sameElement && shapesCompatible(ta, tb);
  }
  auto ua = dyn_cast<TupleType>(a);
  auto ub = dyn_cast<TupleType>(b);
  if (!ua || !ub || ua.size() != ub.size())
    return false;
  for (auto [x, y] : llvm::zip(ua.getTypes(), ub.getTypes()))
    if (!typesCompatibleImpl(x, y, ignoreFpPrecision))
      return false;
  return true;
}

bool mlir::hlo::typesCompatible(Type a, Type b) {
  return typesCompatibleImpl(a, b, /*ignoreFpPrecision=*/false);
}

bool mlir::hlo::typesCompatibleIgnoringFpPrecision(Type a, Type b) {
  return typesCompatibleImpl(a, b, /*ignoreFpPrecision=*/true);
}

FailureOr<ArrayRef<int64_t>> mlir::hlo::getDims(Type t, EmitErrorFn emitError,
                                                StringRef what) {
  if (auto rt = dyn_cast<RankedTensorType>(t))
    return rt.getShape();
  emitError() << what << " must be an array, got " << t;
  return failure();
}

SmallVector<Type> mlir::hlo::unpackTuple(Type t) {
  if (auto tt = dyn_cast<TupleType>(t))
    return SmallVector<Type>(tt.getTypes());
  return {t};
}

Type mlir::hlo::packTuple(MLIRContext *ctx, TypeRange types) {
  if (types.size() == 1)
    return types.front();
  return TupleType::get(ctx, types);
}

std::optional<unsigned> mlir::hlo::getElementBitWidth(Type elementType) {
  if (auto c = dyn_cast<ComplexType>(elementType)) {
    if (auto w = getElementBitWidth(c.getElementType()))
      return 2 * *w;
    return std::nullopt;
  }
  if (elementType.isIntOrFloat())
    return elementType.getIntOrFloatBitWidth();
  return std::nullopt;
}

/// Prints dimension sizes as `[2, ?, 3]`.
static std::string str(ArrayRef<int64_t> v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i)
      s += ", ";
    s += ShapedType::isDynamic(v[i]) ? "?" : std::to_string(v[i]);
  }
  return s + "]";
}

/// Prints a dimension size, `?` when dynamic.
static std::string str(int64_t d) {
  return ShapedType::isDynamic(d) ? "?" : std::to_string(d);
}

/// Every entry is in [0, rank) and appears once.
static LogicalResult checkDimList(EmitErrorFn emitError, StringRef what,
                                  ArrayRef<int64_t> dims, int64_t rank) {
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t d : dims) {
    if (d < 0 || d >= rank)
      return emitError() << what << " " << str(dims) << " has dimension " << d
                         << " out of range for rank " << rank;
    if (!seen.insert(d).second)
      return emitError() << what << " " << str(dims) << " repeats dimension "
                         << d;
  }
  return success();
}

/// Like checkDimList, and the entries are ascending.
static LogicalResult checkSortedDimList(EmitErrorFn emitError, StringRef what,
                                        ArrayRef<int64_t> dims, int64_t rank) {
  if (failed(checkDimList(emitError, what, dims, rank)))
    return failure();
  if (!llvm::is_sorted(dims))
    return emitError() << what << " " << str(dims) << " must be sorted";
  return success();
}

/// No dimension of `a` is in `b`.
static LogicalResult checkDisjoint(EmitErrorFn emitError, StringRef whatA,
                                   ArrayRef<int64_t> a, StringRef whatB,
                                   ArrayRef<int64_t> b) {
  for (int64_t d : a)
    if (llvm::is_contained(b, d))
      return emitError() << whatA << " " << str(a) << " and " << whatB << " "
                         << str(b) << " both contain dimension " << d;
  return success();
}

static Type elementType(Type t) { return cast<ShapedType>(t).getElementType(); }

static Type scalarOf(Type t) {
  return RankedTensorType::get({}, elementType(t));
}

static bool isScalarArray(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  return rt && rt.getRank() == 0;
}

/// Saturating arithmetic for sizes computed from attribute values: an
/// overflow gives INT64_MAX (or MIN), which then fails the size checks
/// instead of wrapping around.
static int64_t satAdd(int64_t a, int64_t b) {
  int64_t r;
  if (llvm::AddOverflow(a, b, r))
    return (a > 0) == (b > 0) && a > 0 ? INT64_MAX : INT64_MIN;
  return r;
}
static int64_t satMul(int64_t a, int64_t b) {
  int64_t r;
  if (llvm::MulOverflow(a, b, r))
    return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
  return r;
}

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
// Element types
//===----------------------------------------------------------------------===//

unsigned mlir::hlo::getElementKind(Type t) {
  if (auto i = dyn_cast<IntegerType>(t)) {
    if (i.getWidth() == 1)
      return kPredKind;
    return i.isUnsigned() ? kUnsignedKind : kSignedKind;
  }
  if (isa<FloatType>(t))
    return kFloatKind;
  if (isa<ComplexType>(t))
    return kComplexKind;
  return 0;
}

static std::string describeKinds(unsigned kinds) {
  SmallVector<StringRef> names;
  if ((kinds & kIntegralKind) == kIntegralKind) {
    names.push_back("integral");
  } else {
    if (kinds & kSignedKind)
      names.push_back("signed integer");
    if (kinds & kUnsignedKind)
      names.push_back("unsigned integer");
  }
  if (kinds & kPredKind)
    names.insert(names.begin(), "pred");
  if (kinds & kFloatKind)
    names.push_back("floating-point");
  if (kinds & kComplexKind)
    names.push_back("complex");
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i)
      s += i + 1 == names.size() ? " or " : ", ";
    s += names[i].str();
  }
  return s;
}

LogicalResult mlir::hlo::verifyElementKind(EmitErrorFn emitError,
                                           StringRef what, Type t,
                                           unsigned kinds) {
  auto rt = dyn_cast<RankedTensorType>(t);
  if (!rt)
    return emitError() << what << " must be an array, got " << t;
  if (!(getElementKind(rt.getElementType()) & kinds))
    return emitError() << what << " must have " << describeKinds(kinds)
                       << " elements, got " << rt.getElementType();
  return success();
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

LogicalResult mlir::hlo::verifyTranspose(EmitErrorFn emitError, Type operand,
                                         Type result, ArrayRef<int64_t> perm) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  auto out = getDims(result, emitError, "result");
  if (failed(out))
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
  if (out->size() != in->size())
    return emitError() << "result rank " << out->size()
                       << " must equal the operand rank " << in->size();
  for (size_t i = 0; i < perm.size(); ++i)
    if (!dimsCompatible((*out)[i], (*in)[perm[i]]))
      return emitError() << "result dimension " << i << " (size "
                         << str((*out)[i]) << ") must be operand dimension "
                         << perm[i] << " (size " << str((*in)[perm[i]]) << ")";
  if (elementType(operand) != elementType(result))
    return emitError() << "transpose may not change the element type";
  return success();
}

LogicalResult mlir::hlo::verifyReverse(EmitErrorFn emitError, Type operand,
                                       Type result, ArrayRef<int64_t> dims) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in) ||
      failed(checkDimList(emitError, "dimensions", dims, in->size())))
    return failure();
  return verifySameShape(emitError, {operand}, result, true);
}

LogicalResult mlir::hlo::verifySlice(EmitErrorFn emitError, Type operand,
                                     Type result, ArrayRef<int64_t> starts,
                                     ArrayRef<int64_t> limits,
                                     ArrayRef<int64_t> strides) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  auto out = getDims(result, emitError, "result");
  if (failed(out))
    return failure();
  if (starts.size() != in->size() || limits.size() != in->size() ||
      strides.size() != in->size())
    return emitError() << "slice has " << starts.size()
                       << " ranges for an operand of rank " << in->size();
  if (out->size() != in->size())
    return emitError() << "result rank " << out->size()
                       << " must equal the operand rank " << in->size();
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t dim = (*in)[i];
    if (starts[i] < 0 || limits[i] < starts[i] ||
        (!ShapedType::isDynamic(dim) && limits[i] > dim) || strides[i] <= 0)
      return emitError() << "slice range [" << starts[i] << ":" << limits[i]
                         << ":" << strides[i] << "] is invalid for dimension "
                         << i << " of size " << str(dim);
    int64_t expected =
        satAdd(satAdd(limits[i], -starts[i]), strides[i] - 1) / strides[i];
    if (!dimsCompatible((*out)[i], expected))
      return emitError() << "result dimension " << i << " is " << str((*out)[i])
                         << " but the slice selects " << expected
                         << " elements";
  }
  if (elementType(operand) != elementType(result))
    return emitError() << "slice may not change the element type";
  return success();
}

LogicalResult mlir::hlo::verifyConcatenate(EmitErrorFn emitError,
                                           TypeRange operands, Type result,
                                           ArrayRef<int64_t> dims) {
  auto out = getDims(result, emitError, "result");
  if (failed(out))
    return failure();
  if (operands.empty())
    return emitError() << "needs at least one operand";
  if (dims.size() != 1)
    return emitError() << "needs exactly one concatenate dimension, got "
                       << str(dims);
  int64_t d = dims[0];
  if (d < 0 || d >= int64_t(out->size()))
    return emitError() << "dimension " << d << " is out of range for rank "
                       << out->size();
  int64_t sum = 0;
  bool dynamic = false;
  for (auto [i, t] : llvm::enumerate(operands)) {
    auto in = getDims(t, emitError, "operand");
    if (failed(in))
      return failure();
    if (in->size() != out->size())
      return emitError() << "operand " << i << " has rank " << in->size()
                         << " but the result has rank " << out->size();
    for (size_t k = 0; k < in->size(); ++k)
      if (int64_t(k) != d && !dimsCompatible((*in)[k], (*out)[k]))
        return emitError() << "operand " << i << " dimension " << k << " (size "
                           << str((*in)[k])
                           << ") does not match the result (size "
                           << str((*out)[k]) << ")";
    if (ShapedType::isDynamic((*in)[d]))
      dynamic = true;
    else
      sum = satAdd(sum, (*in)[d]);
    if (elementType(t) != elementType(result))
      return emitError() << "operand " << i << " element type "
                         << elementType(t) << " differs from the result's "
                         << elementType(result);
  }
  if (!dynamic && !dimsCompatible(sum, (*out)[d]))
    return emitError() << "result dimension " << d << " is " << str((*out)[d])
                       << " but the operands add up to " << sum;
  return success();
}

LogicalResult mlir::hlo::verifyPad(EmitErrorFn emitError, Type operand,
                                   Type padValue, Type result,
                                   ArrayRef<int64_t> low,
                                   ArrayRef<int64_t> high,
                                   ArrayRef<int64_t> interior) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  auto out = getDims(result, emitError, "result");
  if (failed(out))
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
  if (elementType(result) != elementType(operand))
    return emitError() << "pad may not change the element type";
  if (low.size() != in->size() || high.size() != in->size() ||
      interior.size() != in->size())
    return emitError() << "padding has " << low.size()
                       << " dimensions for an operand of rank " << in->size();
  if (out->size() != in->size())
    return emitError() << "result rank " << out->size()
                       << " must equal the operand rank " << in->size();
  for (size_t i = 0; i < low.size(); ++i) {
    if (interior[i] < 0)
      return emitError() << "interior padding " << interior[i]
                         << " of dimension " << i << " must be non-negative";
    int64_t d = (*in)[i];
    if (ShapedType::isDynamic(d))
      continue;
    int64_t expected =
        satAdd(satAdd(satAdd(low[i], high[i]), d),
               satMul(std::max<int64_t>(d - 1, 0), interior[i]));
    if (expected < 0)
      return emitError() << "padding " << low[i] << "_" << high[i] << "_"
                         << interior[i] << " of dimension " << i << " (size "
                         << d << ") gives negative size " << expected;
    if (!dimsCompatible((*out)[i], expected))
      return emitError() << "result dimension " << i << " is " << str((*out)[i])
                         << " but padding gives " << expected;
  }
  return success();
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

LogicalResult mlir::hlo::verifyDynamicSlice(EmitErrorFn emitError, Type operand,
                                            TypeRange indices, Type result,
                                            ArrayRef<int64_t> sizes) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  auto out = getDims(result, emitError, "result");
  if (failed(out) || failed(checkIndexScalars(emitError, "start indices",
                                              indices, in->size())))
    return failure();
  if (sizes.size() != in->size())
    return emitError() << "dynamic_slice_sizes " << str(sizes)
                       << " must have one entry per operand dimension ("
                       << in->size() << ")";
  if (out->size() != in->size())
    return emitError() << "result rank " << out->size()
                       << " must equal the operand rank " << in->size();
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0)
      return emitError() << "slice size " << sizes[i] << " of dimension " << i
                         << " is negative";
    if (!ShapedType::isDynamic((*in)[i]) && sizes[i] > (*in)[i])
      return emitError() << "slice size " << sizes[i] << " of dimension " << i
                         << " exceeds the operand size " << (*in)[i];
    if (!dimsCompatible((*out)[i], sizes[i]))
      return emitError() << "result dimension " << i << " is " << str((*out)[i])
                         << " but the slice size is " << sizes[i];
  }
  if (elementType(operand) != elementType(result))
    return emitError() << "dynamic-slice may not change the element type";
  return success();
}

LogicalResult mlir::hlo::verifyDynamicUpdateSlice(EmitErrorFn emitError,
                                                  Type operand, Type update,
                                                  TypeRange indices,
                                                  Type result) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  auto up = getDims(update, emitError, "update");
  if (failed(up) ||
      failed(
          checkIndexScalars(emitError, "start indices", indices, in->size())) ||
      failed(verifySameShape(emitError, {operand}, result, true)))
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
  return success();
}

/// `dims` names one dimension of an operand of rank `rank`.
static LogicalResult checkSingleDim(EmitErrorFn emitError,
                                    ArrayRef<int64_t> dims, size_t rank) {
  if (dims.size() != 1)
    return emitError() << "dimensions " << str(dims)
                       << " must name exactly one dimension";
  if (dims[0] < 0 || dims[0] >= int64_t(rank))
    return emitError() << "dimension " << dims[0]
                       << " is out of range for rank " << rank;
  return success();
}

static bool isS32Scalar(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  return rt && rt.getRank() == 0 && rt.getElementType().isSignlessInteger(32);
}

LogicalResult mlir::hlo::verifyGetDimensionSize(EmitErrorFn emitError,
                                                Type operand, Type result,
                                                ArrayRef<int64_t> dims) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in) || failed(checkSingleDim(emitError, dims, in->size())))
    return failure();
  if (!isS32Scalar(result))
    return emitError() << "result must be an s32 scalar, got " << result;
  return success();
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

//===----------------------------------------------------------------------===//
// Dot and convolution
//===----------------------------------------------------------------------===//

LogicalResult mlir::hlo::verifyDot(EmitErrorFn emitError, Type lhs, Type rhs,
                                   Type result, ArrayRef<int64_t> lhsBatch,
                                   ArrayRef<int64_t> lhsContract,
                                   ArrayRef<int64_t> rhsBatch,
                                   ArrayRef<int64_t> rhsContract) {
  auto l = getDims(lhs, emitError, "lhs");
  if (failed(l))
    return failure();
  auto r = getDims(rhs, emitError, "rhs");
  if (failed(r))
    return failure();
  auto out = getDims(result, emitError, "result");
  if (failed(out))
    return failure();
  if (lhsBatch.size() != rhsBatch.size())
    return emitError() << "lhs_batch_dims " << str(lhsBatch)
                       << " and rhs_batch_dims " << str(rhsBatch)
                       << " differ in size";
  if (lhsContract.size() != rhsContract.size())
    return emitError() << "lhs_contracting_dims " << str(lhsContract)
                       << " and rhs_contracting_dims " << str(rhsContract)
                       << " differ in size";
  SmallVector<int64_t> lAll(lhsBatch), rAll(rhsBatch);
  lAll.append(lhsContract.begin(), lhsContract.end());
  rAll.append(rhsContract.begin(), rhsContract.end());
  if (failed(checkDimList(emitError, "lhs batch+contracting dims", lAll,
                          l->size())) ||
      failed(checkDimList(emitError, "rhs batch+contracting dims", rAll,
                          r->size())))
    return failure();
  for (size_t i = 0; i < lAll.size(); ++i)
    if (!dimsCompatible((*l)[lAll[i]], (*r)[rAll[i]]))
      return emitError() << "lhs dimension " << lAll[i] << " (size "
                         << str((*l)[lAll[i]])
                         << ") does not match rhs dimension " << rAll[i]
                         << " (size " << str((*r)[rAll[i]]) << ")";
  // Result: batch dims, lhs free dims, rhs free dims.
  SmallVector<int64_t> expected;
  for (int64_t d : lhsBatch)
    expected.push_back((*l)[d]);
  for (size_t d = 0; d < l->size(); ++d)
    if (!llvm::is_contained(lAll, int64_t(d)))
      expected.push_back((*l)[d]);
  for (size_t d = 0; d < r->size(); ++d)
    if (!llvm::is_contained(rAll, int64_t(d)))
      expected.push_back((*r)[d]);
  if (!shapesCompatible(result,
                        RankedTensorType::get(expected, elementType(result))))
    return emitError() << "result dimensions " << str(*out)
                       << " do not match the dot's " << str(expected);
  return success();
}

LogicalResult mlir::hlo::verifyConvolution(
    EmitErrorFn emitError, Type lhs, Type rhs, Type result, WindowAttr window,
    ConvDimensionNumbersAttr dn, int64_t featureGroups, int64_t batchGroups) {
  auto l = getDims(lhs, emitError, "lhs");
  if (failed(l))
    return failure();
  auto r = getDims(rhs, emitError, "rhs");
  if (failed(r))
    return failure();
  auto out = getDims(result, emitError, "result");
  if (failed(out))
    return failure();
  size_t spatial = dn.getInputSpatial().size();
  if (l->size() != spatial + 2 || r->size() != spatial + 2 ||
      out->size() != spatial + 2)
    return emitError() << "dim_labels describe " << spatial + 2
                       << "-d arrays but lhs, rhs and result have ranks "
                       << l->size() << ", " << r->size() << ", " << out->size();
  if (window && window.getSize().size() != spatial)
    return emitError() << "window has " << window.getSize().size()
                       << " dimensions but the convolution has " << spatial
                       << " spatial dimensions";
  if (!window && spatial != 0)
    return emitError() << "needs a window for its " << spatial
                       << " spatial dimensions";
  if (featureGroups < 1 || batchGroups < 1)
    return emitError() << "feature_group_count (" << featureGroups
                       << ") and batch_group_count (" << batchGroups
                       << ") must be positive";
  if (featureGroups > 1 && batchGroups > 1)
    return emitError() << "feature_group_count (" << featureGroups
                       << ") and batch_group_count (" << batchGroups
                       << ") may not both exceed 1";
  int64_t inBatch = (*l)[dn.getInputBatch()];
  int64_t inFeatures = (*l)[dn.getInputFeature()];
  int64_t kIn = (*r)[dn.getKernelInput()];
  int64_t kOut = (*r)[dn.getKernelOutput()];
  if (!ShapedType::isDynamic(inFeatures) && inFeatures % featureGroups)
    return emitError() << "input feature dimension (" << inFeatures
                       << ") must be a multiple of feature_group_count ("
                       << featureGroups << ")";
  if (!ShapedType::isDynamic(inFeatures) && !ShapedType::isDynamic(kIn) &&
      inFeatures != satMul(kIn, featureGroups))
    return emitError() << "input feature dimension (" << inFeatures
                       << ") must be kernel input features (" << kIn
                       << ") times feature_group_count (" << featureGroups
                       << ")";
  if (!ShapedType::isDynamic(kOut) && kOut % featureGroups)
    return emitError() << "kernel output features (" << kOut
                       << ") must be a multiple of feature_group_count ("
                       << featureGroups << ")";
  if (!ShapedType::isDynamic(kOut) && kOut % batchGroups)
    return emitError() << "kernel output features (" << kOut
                       << ") must be a multiple of batch_group_count ("
                       << batchGroups << ")";
  if (!ShapedType::isDynamic(inBatch) && inBatch % batchGroups)
    return emitError() << "input batch dimension (" << inBatch
                       << ") must be a multiple of batch_group_count ("
                       << batchGroups << ")";
  int64_t outBatch =
      ShapedType::isDynamic(inBatch) ? inBatch : inBatch / batchGroups;
  if (!dimsCompatible((*out)[dn.getOutputBatch()], outBatch))
    return emitError() << "output batch dimension ("
                       << str((*out)[dn.getOutputBatch()])
                       << ") must be the input batch (" << str(inBatch)
                       << ") divided by batch_group_count (" << batchGroups
                       << ")";
  if (!dimsCompatible((*out)[dn.getOutputFeature()], kOut))
    return emitError() << "output feature dimension ("
                       << str((*out)[dn.getOutputFeature()])
                       << ") must equal kernel output features (" << str(kOut)
                       << ")";
  for (size_t i = 0; i < spatial; ++i) {
    int64_t in = (*l)[dn.getInputSpatial()[i]];
    int64_t k = (*r)[dn.getKernelSpatial()[i]];
    int64_t o = (*out)[dn.getOutputSpatial()[i]];
    auto get = [&](ArrayRef<int64_t> v, int64_t d) {
      return v.empty() ? d : v[i];
    };
    int64_t size = window.getSize()[i];
    int64_t stride = get(window.getStride(), 1);
    int64_t lo = get(window.getPadLow(), 0);
    int64_t hi = get(window.getPadHigh(), 0);
    int64_t ld = get(window.getLhsDilate(), 1);
    int64_t rd = get(window.getRhsDilate(), 1);
    if (stride < 1 || ld < 1 || rd < 1)
      return emitError() << "window stride (" << stride << "), lhs_dilate ("
                         << ld << ") and rhs_dilate (" << rd
                         << ") of spatial dimension " << i
                         << " must be positive";
    if (!dimsCompatible(size, k))
      return emitError() << "window size " << size
                         << " differs from kernel spatial dimension " << i
                         << " (size " << str(k) << ")";
    if (ShapedType::isDynamic(in))
      continue;
    int64_t dilatedIn = in == 0 ? 0 : satAdd(satMul(in - 1, ld), 1);
    int64_t dilatedK = size == 0 ? 0 : satAdd(satMul(size - 1, rd), 1);
    int64_t padded = satAdd(satAdd(dilatedIn, lo), hi);
    int64_t expected =
        padded < dilatedK ? 0 : satAdd(padded, -dilatedK) / stride + 1;
    if (!dimsCompatible(o, expected))
      return emitError() << "output spatial dimension " << i << " is " << str(o)
                         << " but the window gives " << expected;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and windows
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<int64_t>>
mlir::hlo::inferWindowOutputDims(EmitErrorFn emitError, ArrayRef<int64_t> in,
                                 WindowAttr window) {
  size_t rank = window ? window.getSize().size() : 0;
  if (rank != in.size()) {
    emitError() << "window has " << rank
                << " dimensions for an operand of rank " << in.size();
    return failure();
  }
  SmallVector<int64_t> outDims;
  for (size_t i = 0; i < rank; ++i) {
    auto get = [&](ArrayRef<int64_t> v, int64_t d) {
      return v.empty() ? d : v[i];
    };
    int64_t k = window.getSize()[i];
    int64_t stride = get(window.getStride(), 1);
    int64_t ld = get(window.getLhsDilate(), 1);
    int64_t rd = get(window.getRhsDilate(), 1);
    if (k < 1 || stride < 1 || ld < 1 || rd < 1) {
      emitError() << "window dimension " << i << " has size " << k
                  << ", stride " << stride << ", lhs_dilate " << ld
                  << " and rhs_dilate " << rd << "; all must be positive";
      return failure();
    }
    if (ShapedType::isDynamic(in[i])) {
      outDims.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t dilatedIn = in[i] == 0 ? 0 : satAdd(satMul(in[i] - 1, ld), 1);
    int64_t dilatedK = satAdd(satMul(k - 1, rd), 1);
    int64_t padded = satAdd(satAdd(dilatedIn, get(window.getPadLow(), 0)),
                            get(window.getPadHigh(), 0));
    outDims.push_back(padded < dilatedK ? 0
                                        : satAdd(padded, -dilatedK) / stride + 1);
  }
  return outDims;
}

/// Inputs share their dimensions and each init value is a scalar.
static LogicalResult checkInputsAndInits(EmitErrorFn emitError,
                                         TypeRange inputs, TypeRange inits) {
  if (inputs.empty() || inputs.size() != inits.size())
    return emitError() << "needs N inputs and N init values, got "
                       << inputs.size() << " and " << inits.size();
  for (auto [i, t] : llvm::enumerate(inputs)) {
    auto dims = getDims(t, emitError, "input");
    if (failed(dims))
      return failure();
    if (!shapesCompatible(t, inputs[0]))
      return emitError() << "input " << i << " dimensions " << str(*dims)
                         << " differ from input 0's "
                         << str(cast<RankedTensorType>(inputs[0]).getShape());
    if (!isScalarArray(inits[i]))
      return emitError() << "init value " << i << " must be a scalar, got "
                         << inits[i];
  }
  return success();
}

/// Each of the results (a tuple when there are several) has dimensions `dims`
/// and the element type of the matching init value.
static LogicalResult checkReduceResults(EmitErrorFn emitError, TypeRange inits,
                                        Type result, ArrayRef<int64_t> dims) {
  SmallVector<Type> got = unpackTuple(result);
  if (inits.size() == 1 && isa<TupleType>(result))
    got = {result};
  if (got.size() != inits.size())
    return emitError() << "result must have " << inits.size()
                       << " arrays, one per input, got " << result;
  for (size_t i = 0; i < got.size(); ++i) {
    Type expected = RankedTensorType::get(dims, elementType(inits[i]));
    if (!typesCompatible(got[i], expected))
      return emitError() << "result " << i << " of type " << got[i]
                         << " should have dimensions " << str(dims)
                         << " and element type " << elementType(inits[i]);
  }
  return success();
}

LogicalResult mlir::hlo::verifyReduceDims(EmitErrorFn emitError,
                                          TypeRange inputs, TypeRange inits,
                                          Type result, ArrayRef<int64_t> dims) {
  if (failed(checkInputsAndInits(emitError, inputs, inits)))
    return failure();
  ArrayRef<int64_t> first = cast<RankedTensorType>(inputs[0]).getShape();
  if (failed(checkDimList(emitError, "dimensions", dims, first.size())))
    return failure();
  SmallVector<int64_t> kept;
  for (size_t d = 0; d < first.size(); ++d)
    if (!llvm::is_contained(dims, int64_t(d)))
      kept.push_back(first[d]);
  return checkReduceResults(emitError, inits, result, kept);
}

LogicalResult mlir::hlo::verifyReduceWindow(EmitErrorFn emitError,
                                            TypeRange inputs, TypeRange inits,
                                            Type result, WindowAttr window) {
  if (failed(checkInputsAndInits(emitError, inputs, inits)))
    return failure();
  ArrayRef<int64_t> first = cast<RankedTensorType>(inputs[0]).getShape();
  auto outDims = inferWindowOutputDims(emitError, first, window);
  if (failed(outDims))
    return failure();
  return checkReduceResults(emitError, inits, result, *outDims);
}

LogicalResult mlir::hlo::verifySelectAndScatter(EmitErrorFn emitError,
                                                Type operand, Type source,
                                                Type initValue, Type result,
                                                WindowAttr window) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  auto src = getDims(source, emitError, "source");
  if (failed(src))
    return failure();
  if (!isScalarArray(initValue))
    return emitError() << "init value must be a scalar, got " << initValue;
  auto windowDims = inferWindowOutputDims(emitError, *in, window);
  if (failed(windowDims))
    return failure();
  if (!shapesCompatible(
          source, RankedTensorType::get(*windowDims, elementType(source))))
    return emitError() << "source dimensions " << str(*src)
                       << " must be the window's output dimensions "
                       << str(*windowDims);
  if (!typesCompatible(result, operand))
    return emitError() << "result type " << result
                       << " must match the operand type " << operand;
  return success();
}

//===----------------------------------------------------------------------===//
// Gather and scatter
//===----------------------------------------------------------------------===//

/// The batching dimensions shared by gather and scatter: one index
/// dimension per operand dimension, of the same size, never the index vector.
static LogicalResult
checkBatchingDims(EmitErrorFn emitError, ArrayRef<int64_t> op,
                  StringRef opListName, ArrayRef<int64_t> opBatching,
                  ArrayRef<int64_t> idx, StringRef idxName,
                  ArrayRef<int64_t> idxBatching, int64_t indexVectorDim) {
  std::string idxListName = (idxName + "_batching_dims").str();
  if (opBatching.size() != idxBatching.size())
    return emitError() << opListName << " " << str(opBatching) << " and "
                       << idxListName << " " << str(idxBatching)
                       << " differ in size";
  if (failed(checkDimList(emitError, idxListName, idxBatching, idx.size())))
    return failure();
  if (llvm::is_contained(idxBatching, indexVectorDim))
    return emitError() << idxListName << " " << str(idxBatching)
                       << " may not contain index_vector_dim "
                       << indexVectorDim;
  for (auto [o, i] : llvm::zip(opBatching, idxBatching))
    if (!dimsCompatible(op[o], idx[i]))
      return emitError() << "operand batching dimension " << o << " (size "
                         << str(op[o]) << ") differs from " << idxName
                         << " dimension " << i << " (size " << str(idx[i])
                         << ")";
  return success();
}

LogicalResult mlir::hlo::verifyGather(
    EmitErrorFn emitError, Type operand, Type indices, Type result,
    ArrayRef<int64_t> offsetDims, ArrayRef<int64_t> collapsedDims,
    ArrayRef<int64_t> startIndexMap, int64_t indexVectorDim,
    ArrayRef<int64_t> operandBatchingDims,
    ArrayRef<int64_t> indicesBatchingDims, ArrayRef<int64_t> sliceSizes) {
  auto op = getDims(operand, emitError, "operand");
  if (failed(op))
    return failure();
  auto idx = getDims(indices, emitError, "start_indices");
  if (failed(idx))
    return failure();
  auto out = getDims(result, emitError, "result");
  if (failed(out))
    return failure();
  if (failed(verifyElementKind(emitError, "start_indices", indices,
                               kIntegralKind)))
    return failure();
  int64_t rank = op->size();
  int64_t idxRank = idx->size();
  if (int64_t(sliceSizes.size()) != rank)
    return emitError() << "slice_sizes " << str(sliceSizes)
                       << " must have one entry per operand dimension (" << rank
                       << ")";
  for (int64_t i = 0; i < rank; ++i)
    if (sliceSizes[i] < 0 ||
        (!ShapedType::isDynamic((*op)[i]) && sliceSizes[i] > (*op)[i]))
      return emitError() << "slice size " << sliceSizes[i] << " of dimension "
                         << i << " is out of range for operand size "
                         << str((*op)[i]);
  if (failed(checkSortedDimList(emitError, "collapsed_slice_dims",
                                collapsedDims, rank)) ||
      failed(checkSortedDimList(emitError, "operand_batching_dims",
                                operandBatchingDims, rank)) ||
      failed(checkDisjoint(emitError, "collapsed_slice_dims", collapsedDims,
                           "operand_batching_dims", operandBatchingDims)) ||
      failed(checkDimList(emitError, "start_index_map", startIndexMap, rank)) ||
      failed(checkDisjoint(emitError, "start_index_map", startIndexMap,
                           "operand_batching_dims", operandBatchingDims)))
    return failure();
  for (int64_t d : collapsedDims)
    if (sliceSizes[d] > 1)
      return emitError() << "collapsed dimension " << d
                         << " must have slice size 0 or 1, got "
                         << sliceSizes[d];
  for (int64_t d : operandBatchingDims)
    if (sliceSizes[d] > 1)
      return emitError() << "operand batching dimension " << d
                         << " must have slice size 0 or 1, got "
                         << sliceSizes[d];
  if (indexVectorDim < 0 || indexVectorDim > idxRank)
    return emitError() << "index_vector_dim " << indexVectorDim
                       << " is out of range for start_indices of rank "
                       << idxRank;
  int64_t indexVectorSize =
      indexVectorDim == idxRank ? 1 : (*idx)[indexVectorDim];
  if (!dimsCompatible(indexVectorSize, startIndexMap.size()))
    return emitError() << "start_index_map has " << startIndexMap.size()
                       << " entries but the index vector (dimension "
                       << indexVectorDim << " of start_indices) has "
                       << indexVectorSize;
  if (failed(checkBatchingDims(emitError, *op, "operand_batching_dims",
                               operandBatchingDims, *idx, "start_indices",
                               indicesBatchingDims, indexVectorDim)))
    return failure();
  int64_t batchRank = idxRank - (indexVectorDim < idxRank ? 1 : 0);
  int64_t expectedRank = batchRank + offsetDims.size();
  int64_t kept = rank - collapsedDims.size() - operandBatchingDims.size();
  if (int64_t(offsetDims.size()) != kept)
    return emitError() << "offset_dims has " << offsetDims.size()
                       << " entries but " << kept
                       << " operand dimensions are neither collapsed nor "
                          "batching";
  if (int64_t(out->size()) != expectedRank)
    return emitError() << "result rank " << out->size() << " should be "
                       << expectedRank << " (" << batchRank
                       << " batch dimensions + " << offsetDims.size()
                       << " offset_dims)";
  if (failed(checkSortedDimList(emitError, "offset_dims", offsetDims,
                                out->size())))
    return failure();
  // Offset dims take the slice sizes of the kept operand dimensions in order;
  // the other result dims are the batch dims of start_indices in order.
  SmallVector<int64_t> keptSizes, batch;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(collapsedDims, d) &&
        !llvm::is_contained(operandBatchingDims, d))
      keptSizes.push_back(sliceSizes[d]);
  for (int64_t d = 0; d < idxRank; ++d)
    if (d != indexVectorDim)
      batch.push_back((*idx)[d]);
  size_t nextOffset = 0, nextBatch = 0;
  for (int64_t d = 0; d < int64_t(out->size()); ++d) {
    bool isOffset = llvm::is_contained(offsetDims, d);
    int64_t expected = isOffset ? keptSizes[nextOffset++] : batch[nextBatch++];
    if (!dimsCompatible((*out)[d], expected))
      return emitError() << "result dimension " << d << " is " << str((*out)[d])
                         << " but gather gives " << str(expected) << " ("
                         << (isOffset ? "slice size" : "batch dimension")
                         << ")";
  }
  if (elementType(result) != elementType(operand))
    return emitError() << "gather may not change the element type";
  return success();
}

LogicalResult mlir::hlo::verifyScatter(
    EmitErrorFn emitError, TypeRange operands, Type indices, TypeRange updates,
    Type result, ArrayRef<int64_t> updateWindowDims,
    ArrayRef<int64_t> insertedWindowDims,
    ArrayRef<int64_t> scatterDimsToOperandDims, int64_t indexVectorDim,
    ArrayRef<int64_t> inputBatchingDims,
    ArrayRef<int64_t> indicesBatchingDims) {
  if (operands.empty() || operands.size() != updates.size())
    return emitError() << "needs N operands and N updates, got "
                       << operands.size() << " and " << updates.size();
  auto op = getDims(operands[0], emitError, "operand");
  if (failed(op))
    return failure();
  auto idx = getDims(indices, emitError, "scatter_indices");
  if (failed(idx))
    return failure();
  if (failed(verifyElementKind(emitError, "scatter_indices", indices,
                               kIntegralKind)))
    return failure();
  auto up = getDims(updates[0], emitError, "update");
  if (failed(up))
    return failure();
  for (size_t i = 0; i < operands.size(); ++i) {
    if (failed(getDims(operands[i], emitError, "operand")) ||
        failed(getDims(updates[i], emitError, "update")))
      return failure();
    if (!shapesCompatible(operands[i], operands[0]))
      return emitError() << "operand " << i << " dimensions differ from "
                         << "operand 0's";
    if (!shapesCompatible(updates[i], updates[0]))
      return emitError() << "update " << i << " dimensions differ from "
                         << "update 0's";
    if (!typesCompatibleIgnoringFpPrecision(scalarOf(updates[i]),
                                            scalarOf(operands[i])))
      return emitError() << "update " << i << " element type "
                         << elementType(updates[i]) << " differs from operand "
                         << i << "'s " << elementType(operands[i]);
  }
  int64_t rank = op->size();
  int64_t idxRank = idx->size();
  int64_t upRank = up->size();
  if (indexVectorDim < 0 || indexVectorDim > idxRank)
    return emitError() << "index_vector_dim " << indexVectorDim
                       << " is out of range for scatter_indices of rank "
                       << idxRank;
  if (failed(checkSortedDimList(emitError, "update_window_dims",
                                updateWindowDims, upRank)) ||
      failed(checkSortedDimList(emitError, "inserted_window_dims",
                                insertedWindowDims, rank)) ||
      failed(checkSortedDimList(emitError, "input_batching_dims",
                                inputBatchingDims, rank)) ||
      failed(checkDisjoint(emitError, "inserted_window_dims",
                           insertedWindowDims, "input_batching_dims",
                           inputBatchingDims)))
    return failure();
  int64_t windowSize = updateWindowDims.size() + insertedWindowDims.size() +
                       inputBatchingDims.size();
  if (windowSize != rank)
    return emitError() << "update_window_dims (" << updateWindowDims.size()
                       << "), inserted_window_dims ("
                       << insertedWindowDims.size()
                       << ") and input_batching_dims ("
                       << inputBatchingDims.size()
                       << ") must add up to the operand rank " << rank;
  int64_t indexVectorSize =
      indexVectorDim == idxRank ? 1 : (*idx)[indexVectorDim];
  if (!dimsCompatible(indexVectorSize, scatterDimsToOperandDims.size()))
    return emitError() << "scatter_dims_to_operand_dims has "
                       << scatterDimsToOperandDims.size()
                       << " entries but the index vector (dimension "
                       << indexVectorDim << " of scatter_indices) has "
                       << indexVectorSize;
  if (failed(checkDimList(emitError, "scatter_dims_to_operand_dims",
                          scatterDimsToOperandDims, rank)) ||
      failed(checkDisjoint(emitError, "scatter_dims_to_operand_dims",
                           scatterDimsToOperandDims, "input_batching_dims",
                           inputBatchingDims)))
    return failure();
  if (failed(checkBatchingDims(emitError, *op, "input_batching_dims",
                               inputBatchingDims, *idx, "scatter_indices",
                               indicesBatchingDims, indexVectorDim)))
    return failure();
  int64_t scatterRank = idxRank - (indexVectorDim < idxRank ? 1 : 0);
  int64_t expectedUpRank = updateWindowDims.size() + scatterRank;
  if (upRank != expectedUpRank)
    return emitError() << "updates have rank " << upRank << " but should have "
                       << expectedUpRank << " (" << updateWindowDims.size()
                       << " update_window_dims + " << scatterRank
                       << " scatter dimensions)";
  // Window dims of the update are bounded by the operand dims that are
  // neither inserted nor batching, in order.
  SmallVector<int64_t> windowOperandDims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(insertedWindowDims, d) &&
        !llvm::is_contained(inputBatchingDims, d))
      windowOperandDims.push_back(d);
  for (auto [u, o] : llvm::zip(updateWindowDims, windowOperandDims)) {
    int64_t us = (*up)[u], os = (*op)[o];
    if (!ShapedType::isDynamic(us) && !ShapedType::isDynamic(os) && us > os)
      return emitError() << "update window dimension " << u << " (size " << us
                         << ") exceeds operand dimension " << o << " (size "
                         << os << ")";
  }
  // The other update dims are the scatter dims of the indices, in order.
  SmallVector<int64_t> scatterDims;
  for (int64_t d = 0; d < idxRank; ++d)
    if (d != indexVectorDim)
      scatterDims.push_back(d);
  size_t next = 0;
  for (int64_t u = 0; u < upRank; ++u) {
    if (llvm::is_contained(updateWindowDims, u))
      continue;
    int64_t i = scatterDims[next++];
    if (!dimsCompatible((*up)[u], (*idx)[i]))
      return emitError() << "update scatter dimension " << u << " (size "
                         << str((*up)[u])
                         << ") differs from scatter_indices dimension " << i
                         << " (size " << str((*idx)[i]) << ")";
  }
  Type expected = packTuple(result.getContext(), operands);
  if (!typesCompatible(result, expected))
    return emitError() << "result type " << result
                       << " must match the operand types " << expected;
  return success();
}

LogicalResult mlir::hlo::verifySort(EmitErrorFn emitError, TypeRange operands,
                                    Type result, ArrayRef<int64_t> dims) {
  if (operands.empty())
    return emitError() << "needs at least one operand";
  auto first = getDims(operands[0], emitError, "operand");
  if (failed(first))
    return failure();
  for (auto [i, t] : llvm::enumerate(operands)) {
    auto d = getDims(t, emitError, "operand");
    if (failed(d))
      return failure();
    if (!shapesCompatible(t, operands[0]))
      return emitError() << "operand " << i << " dimensions " << str(*d)
                         << " differ from operand 0's " << str(*first);
  }
  if (failed(checkSingleDim(emitError, dims, first->size())))
    return failure();
  Type expected = packTuple(result.getContext(), operands);
  if (!typesCompatible(result, expected))
    return emitError() << "result type " << result << " should be " << expected;
  return success();
}

//===----------------------------------------------------------------------===//
// TopK, FFT, linear algebra, batch norm, RNG
//===----------------------------------------------------------------------===//

LogicalResult mlir::hlo::verifyTopK(EmitErrorFn emitError, Type operand,
                                    Type result, int64_t k) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  if (in->empty())
    return emitError() << "operand must have at least one dimension";
  if (k < 0)
    return emitError() << "k (" << k << ") must be non-negative";
  int64_t last = in->back();
  if (!ShapedType::isDynamic(last) && last < k)
    return emitError() << "the last operand dimension (" << last
                       << ") must be at least k (" << k << ")";
  SmallVector<int64_t> dims(*in);
  dims.back() = k;
  MLIRContext *ctx = operand.getContext();
  Type expected = TupleType::get(
      ctx, {RankedTensorType::get(dims, elementType(operand)),
            RankedTensorType::get(dims, IntegerType::get(ctx, 32))});
  if (!typesCompatible(result, expected))
    return emitError() << "result type " << result << " should be " << expected
                       << " (values and s32 indices of the top " << k << ")";
  return success();
}

static StringRef fftName(FftType t) { return stringifyFftType(t); }

LogicalResult mlir::hlo::verifyFft(EmitErrorFn emitError, Type operand,
                                   Type result, FftType type,
                                   ArrayRef<int64_t> fftLength) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  auto out = getDims(result, emitError, "result");
  if (failed(out))
    return failure();
  size_t fftRank = fftLength.size();
  if (fftRank < 1 || fftRank > 3)
    return emitError() << "fft_length " << str(fftLength)
                       << " must have 1 to 3 entries";
  if (in->size() < fftRank)
    return emitError() << "operand rank " << in->size()
                       << " is less than the fft rank " << fftRank;
  size_t base = in->size() - fftRank;
  Type inElt = elementType(operand);
  Type expectedElt = inElt;
  SmallVector<int64_t> expectedDims(*in);
  auto checkInnerDims = [&](size_t count) -> LogicalResult {
    for (size_t i = 0; i < count; ++i)
      if (!dimsCompatible((*in)[base + i], fftLength[i]))
        return emitError() << fftName(type) << " needs operand dimension "
                           << base + i << " (size " << str((*in)[base + i])
                           << ") to equal fft_length[" << i
                           << "] = " << fftLength[i];
    return success();
  };
  switch (type) {
  case FftType::FFT:
  case FftType::IFFT:
    if (!isa<ComplexType>(inElt))
      return emitError() << fftName(type) << " needs a complex operand, got "
                         << inElt;
    if (failed(checkInnerDims(fftRank)))
      return failure();
    break;
  case FftType::RFFT: {
    if (!inElt.isF32() && !inElt.isF64())
      return emitError() << "RFFT needs an f32 or f64 operand, got " << inElt;
    if (failed(checkInnerDims(fftRank)))
      return failure();
    expectedElt = ComplexType::get(inElt);
    expectedDims.back() = fftLength.back() / 2 + 1;
    break;
  }
  case FftType::IRFFT: {
    auto c = dyn_cast<ComplexType>(inElt);
    if (!c)
      return emitError() << "IRFFT needs a complex operand, got " << inElt;
    if (failed(checkInnerDims(fftRank - 1)))
      return failure();
    int64_t lastIn = in->back();
    if (!dimsCompatible(lastIn, fftLength.back() / 2 + 1))
      return emitError() << "IRFFT needs the last operand dimension (size "
                         << str(lastIn)
                         << ") to be fft_length.back() / 2 + 1 = "
                         << fftLength.back() / 2 + 1;
    expectedElt = c.getElementType();
    expectedDims.back() = fftLength.back();
    break;
  }
  }
  Type expected = RankedTensorType::get(expectedDims, expectedElt);
  if (!typesCompatible(result, expected))
    return emitError() << "result type " << result << " should be " << expected;
  return success();
}

/// `t` has rank >= 2, square minor matrices and float or complex elements.
static LogicalResult checkSquareMatrices(EmitErrorFn emitError, StringRef what,
                                         Type t) {
  auto dims = getDims(t, emitError, what);
  if (failed(dims))
    return failure();
  if (failed(verifyElementKind(emitError, what, t, kFloatOrComplexKind)))
    return failure();
  if (dims->size() < 2)
    return emitError() << what << " must have rank >= 2, got rank "
                       << dims->size();
  int64_t r = (*dims)[dims->size() - 2], c = dims->back();
  if (!dimsCompatible(r, c))
    return emitError() << what << " must be square in its two minor "
                       << "dimensions, got " << str(r) << "x" << str(c);
  return success();
}

LogicalResult mlir::hlo::verifyCholesky(EmitErrorFn emitError, Type operand,
                                        Type result) {
  if (failed(checkSquareMatrices(emitError, "operand", operand)))
    return failure();
  if (!typesCompatible(result, operand))
    return emitError() << "result type " << result
                       << " must match the operand type " << operand;
  return success();
}

LogicalResult mlir::hlo::verifyTriangularSolve(EmitErrorFn emitError, Type a,
                                               Type b, Type result,
                                               bool leftSide,
                                               Transpose transposeA) {
  if (failed(checkSquareMatrices(emitError, "a", a)))
    return failure();
  auto bd = getDims(b, emitError, "b");
  if (failed(bd) ||
      failed(verifyElementKind(emitError, "b", b, kFloatOrComplexKind)))
    return failure();
  if (elementType(a) != elementType(b))
    return emitError() << "a and b must have the same element type, got "
                       << elementType(a) << " and " << elementType(b);
  ArrayRef<int64_t> ad = cast<RankedTensorType>(a).getShape();
  if (ad.size() != bd->size())
    return emitError() << "a (rank " << ad.size() << ") and b (rank "
                       << bd->size() << ") must have the same rank";
  size_t rank = ad.size();
  for (size_t i = 0; i + 2 < rank; ++i)
    if (!dimsCompatible(ad[i], (*bd)[i]))
      return emitError() << "batch dimension " << i << " of a (size "
                         << str(ad[i]) << ") and b (size " << str((*bd)[i])
                         << ") differ";
  size_t bDim = leftSide ? rank - 2 : rank - 1;
  if (!dimsCompatible(ad.back(), (*bd)[bDim]))
    return emitError() << "a's dimension " << rank - 1 << " (size "
                       << str(ad.back()) << ") must equal b's dimension "
                       << bDim << " (size " << str((*bd)[bDim]) << ") when "
                       << (leftSide ? "left_side" : "not left_side");
  if (transposeA == Transpose::TRANSPOSE_INVALID)
    return emitError() << "transpose_a may not be TRANSPOSE_INVALID";
  if (!typesCompatible(result, b))
    return emitError() << "result type " << result << " must match b's type "
                       << b;
  return success();
}

LogicalResult mlir::hlo::verifyBatchNorm(EmitErrorFn emitError, Type operand,
                                         TypeRange perFeature,
                                         int64_t featureIndex) {
  auto dims = getDims(operand, emitError, "operand");
  if (failed(dims) ||
      failed(verifyElementKind(emitError, "operand", operand, kFloatKind)))
    return failure();
  if (featureIndex < 0 || featureIndex >= int64_t(dims->size()))
    return emitError() << "feature_index " << featureIndex
                       << " is out of range for rank " << dims->size();
  int64_t features = (*dims)[featureIndex];
  for (Type t : perFeature) {
    auto vt = dyn_cast<RankedTensorType>(t);
    if (!vt || vt.getRank() != 1 || !dimsCompatible(vt.getDimSize(0), features))
      return emitError() << "per-feature operand of type " << t
                         << " must be rank 1 with " << str(features)
                         << " elements";
    if (failed(
            verifyElementKind(emitError, "per-feature operand", t, kFloatKind)))
      return failure();
  }
  return success();
}

LogicalResult mlir::hlo::verifyRng(EmitErrorFn emitError, TypeRange params,
                                   Type result, RngDistribution distribution) {
  if (params.size() != 2)
    return emitError() << "needs 2 distribution parameters, got "
                       << params.size();
  if (failed(getDims(result, emitError, "result")))
    return failure();
  for (Type t : params) {
    if (!isScalarArray(t))
      return emitError() << "distribution parameters must be scalars, got "
                         << t;
    if (elementType(t) != elementType(result))
      return emitError() << "distribution parameter element type "
                         << elementType(t) << " differs from the result's "
                         << elementType(result);
  }
  unsigned kinds = distribution == RngDistribution::rng_normal
                       ? unsigned(kFloatKind)
                       : unsigned(kPredKind | kIntegralKind | kFloatKind);
  return verifyElementKind(emitError, "result", result, kinds);
}

LogicalResult mlir::hlo::verifyRngBitGenerator(EmitErrorFn emitError,
                                               Type state, Type result) {
  if (failed(getDims(state, emitError, "state")))
    return failure();
  auto tt = dyn_cast<TupleType>(result);
  if (!tt || tt.size() != 2)
    return emitError() << "result must be a tuple (new state, bits), got "
                       << result;
  if (!typesCompatible(tt.getType(0), state))
    return emitError() << "new state type " << tt.getType(0)
                       << " must match the state type " << state;
  return verifyElementKind(emitError, "generated bits", tt.getType(1),
                           kIntegralKind);
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

FailureOr<std::optional<int64_t>>
mlir::hlo::verifyReplicaGroups(EmitErrorFn emitError, ReplicaGroupsAttr groups,
                               bool uniform) {
  if (!groups)
    return std::optional<int64_t>();
  if (groups.getIsIota()) {
    ArrayRef<int64_t> shape = groups.getIotaShape();
    if (shape.size() != 2 || shape[0] < 1 || shape[1] < 1) {
      emitError() << "iota replica groups need a positive "
                  << "[num_groups, group_size] shape, got " << str(shape);
      return failure();
    }
    ArrayRef<int64_t> perm = groups.getIotaPerm();
    SmallVector<int64_t> sorted(perm);
    llvm::sort(sorted);
    bool isPerm = perm.empty() || perm.size() == groups.getIotaReshape().size();
    for (size_t i = 0; isPerm && i < sorted.size(); ++i)
      isPerm = sorted[i] == int64_t(i);
    if (!isPerm) {
      emitError() << "iota replica groups transpose " << str(perm)
                  << " must be a permutation of the "
                  << groups.getIotaReshape().size() << " reshape dimensions";
      return failure();
    }
    return std::optional<int64_t>(shape[1]);
  }
  ArrayRef<int64_t> sizes = groups.getGroupSizes();
  if (sizes.empty())
    return std::optional<int64_t>();
  llvm::SmallSet<int64_t, 16> seen;
  for (int64_t id : groups.getIds()) {
    if (id < 0) {
      emitError() << "replica group id " << id << " is negative";
      return failure();
    }
    if (!seen.insert(id).second) {
      emitError() << "replica id " << id
                  << " appears more than once in replica_groups";
      return failure();
    }
  }
  for (int64_t s : sizes) {
    if (s < 1) {
      emitError() << "replica groups may not be empty";
      return failure();
    }
    if (uniform && s != sizes[0]) {
      emitError() << "replica groups must all have the same size, got "
                  << sizes[0] << " and " << s;
      return failure();
    }
  }
  return std::optional<int64_t>(sizes[0]);
}

/// Shared by all-gather (`gather`: the result dimension is the operand's
/// times the participants) and reduce-scatter (divided by them).
static LogicalResult verifyScaledCollective(EmitErrorFn emitError,
                                            StringRef opcode,
                                            TypeRange operands, Type result,
                                            ArrayRef<int64_t> dims,
                                            ShardCount shards, bool gather) {
  if (operands.empty())
    return emitError() << "needs at least one operand";
  SmallVector<Type> results = unpackTuple(result);
  if (operands.size() == 1)
    results = {result};
  if (results.size() != operands.size())
    return emitError() << "result must have one array per operand, got "
                       << result;
  for (auto [i, pair] : llvm::enumerate(llvm::zip(operands, results))) {
    auto [o, r] = pair;
    auto in = getDims(o, emitError, "operand");
    if (failed(in))
      return failure();
    auto out = getDims(r, emitError, "result");
    if (failed(out) || failed(checkSingleDim(emitError, dims, in->size())))
      return failure();
    int64_t d = dims[0];
    if (out->size() != in->size() || elementType(o) != elementType(r))
      return emitError() << "result " << i << " of type " << r
                         << " must have operand " << i
                         << "'s rank and element type (" << o << ")";
    for (size_t k = 0; k < in->size(); ++k) {
      int64_t a = (*in)[k], b = (*out)[k];
      if (int64_t(k) != d) {
        if (!dimsCompatible(a, b))
          return emitError() << "result " << i << " dimension " << k
                             << " (size " << str(b) << ") must equal operand "
                             << "dimension " << k << " (size " << str(a) << ")";
        continue;
      }
      if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b))
        continue;
      int64_t big = gather ? b : a, small = gather ? a : b;
      if (shards.groupSize && shards.exact) {
        int64_t n = *shards.groupSize;
        if (!gather && big % n)
          return emitError() << opcode << " dimension " << d << " (size " << big
                             << ") must be a multiple of the group "
                             << "size " << n;
        if (satMul(small, n) != big)
          return emitError()
                 << "result " << i << " dimension " << d << " is " << b
                 << " but " << opcode << " over " << n << " participants gives "
                 << (gather ? satMul(a, n) : a / n);
        continue;
      }
      // Only a multiple of the group size (or of 1) is known.
      int64_t unit = satMul(small, shards.groupSize.value_or(1));
      if (unit == 0 ? big != 0 : (big == 0 || big % unit))
        return emitError() << "result " << i << " dimension " << d << " (" << b
                           << ") and operand dimension " << d << " (" << a
                           << ") are not related by a whole multiple of "
                           << shards.groupSize.value_or(1) << " participants";
    }
  }
  return success();
}

LogicalResult mlir::hlo::verifyAllGather(EmitErrorFn emitError,
                                         TypeRange operands, Type result,
                                         ArrayRef<int64_t> dims,
                                         ShardCount shards) {
  return verifyScaledCollective(emitError, "all-gather", operands, result, dims,
                                shards, /*gather=*/true);
}

LogicalResult mlir::hlo::verifyReduceScatter(EmitErrorFn emitError,
                                             TypeRange operands, Type result,
                                             ArrayRef<int64_t> dims,
                                             ShardCount shards) {
  return verifyScaledCollective(emitError, "reduce-scatter", operands, result,
                                dims, shards, /*gather=*/false);
}

LogicalResult mlir::hlo::verifyAllToAll(EmitErrorFn emitError,
                                        TypeRange operands, Type result,
                                        ArrayRef<int64_t> dims,
                                        ShardCount shards) {
  if (operands.empty())
    return emitError() << "needs at least one operand";
  for (Type t : operands)
    if (failed(getDims(t, emitError, "operand")))
      return failure();
  if (!dims.empty()) {
    if (operands.size() != 1)
      return emitError() << "with a split dimension takes one operand, got "
                         << operands.size();
    ArrayRef<int64_t> in = cast<RankedTensorType>(operands[0]).getShape();
    if (failed(checkSingleDim(emitError, dims, in.size())))
      return failure();
    int64_t size = in[dims[0]];
    if (shards.groupSize && !ShapedType::isDynamic(size) &&
        size % *shards.groupSize)
      return emitError() << "split dimension " << dims[0] << " (size " << size
                         << ") must be a multiple of the group size "
                         << *shards.groupSize;
  }
  Type expected = packTuple(result.getContext(), operands);
  if (!typesCompatible(result, expected))
    return emitError() << "result type " << result
                       << " must match the operand types " << expected;
  return success();
}

LogicalResult
mlir::hlo::verifySourceTargetPairs(EmitErrorFn emitError,
                                   ArrayRef<ArrayRef<int64_t>> pairs) {
  llvm::SmallSet<int64_t, 16> sources, targets;
  for (ArrayRef<int64_t> p : pairs) {
    if (p.size() != 2)
      return emitError() << "source_target_pairs entry " << str(p)
                         << " must be a (source, target) pair";
    if (p[0] < 0 || p[1] < 0)
      return emitError() << "source_target_pairs entry " << str(p)
                         << " has a negative id";
    if (!sources.insert(p[0]).second)
      return emitError() << "source " << p[0]
                         << " appears more than once in source_target_pairs";
    if (!targets.insert(p[1]).second)
      return emitError() << "target " << p[1]
                         << " appears more than once in source_target_pairs";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Called computations
//===----------------------------------------------------------------------===//

LogicalResult mlir::hlo::verifySignature(EmitErrorFn emitError, StringRef what,
                                         FunctionType callee,
                                         std::optional<TypeRange> expectedArgs,
                                         std::optional<Type> expectedResult) {
  if (expectedArgs) {
    if (callee.getNumInputs() != expectedArgs->size())
      return emitError() << what << " computation takes "
                         << callee.getNumInputs() << " parameters, expected "
                         << expectedArgs->size();
    for (size_t i = 0; i < expectedArgs->size(); ++i)
      if (!typesCompatible(callee.getInput(i), (*expectedArgs)[i]))
        return emitError() << what << " computation parameter " << i
                           << " has type " << callee.getInput(i)
                           << ", expected " << (*expectedArgs)[i];
  }
  if (expectedResult && callee.getNumResults() == 1 &&
      !typesCompatible(callee.getResult(0), *expectedResult))
    return emitError() << what << " computation returns " << callee.getResult(0)
                       << ", expected " << *expectedResult;
  return success();
}

LogicalResult mlir::hlo::verifyReducer(EmitErrorFn emitError, StringRef what,
                                       FunctionType callee, TypeRange inits,
                                       TypeRange inputElementTypes) {
  size_t n = inits.size();
  if (callee.getNumInputs() != 2 * n)
    return emitError() << what << " computation takes " << callee.getNumInputs()
                       << " parameters, expected " << 2 * n << " (" << n
                       << " accumulators and " << n << " inputs)";
  SmallVector<Type> accs;
  for (size_t i = 0; i < n; ++i) {
    Type acc = inits[i];
    accs.push_back(acc);
    if (!typesCompatibleIgnoringFpPrecision(callee.getInput(i), acc))
      return emitError() << what << " computation parameter " << i
                         << " has type " << callee.getInput(i)
                         << ", expected the accumulator type " << acc;
    Type x = RankedTensorType::get({}, inputElementTypes[i]);
    if (!typesCompatibleIgnoringFpPrecision(callee.getInput(n + i), x))
      return emitError() << what << " computation parameter " << n + i
                         << " has type " << callee.getInput(n + i)
                         << ", expected the input element type " << x;
  }
  if (callee.getNumResults() != 1)
    return success();
  Type expected = n == 1 ? accs[0] : TupleType::get(callee.getContext(), accs);
  if (!typesCompatibleIgnoringFpPrecision(callee.getResult(0), expected))
    return emitError() << what << " computation returns " << callee.getResult(0)
                       << ", expected " << expected;
  return success();
}
