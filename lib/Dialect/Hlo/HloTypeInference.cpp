//===- HloTypeInference.cpp - HLO shape rules -----------------------------===//
//
// HLO's shape rules (XLA operation semantics) as functions over types and
// attribute values. Dynamic dimensions are compatible with every size and
// layouts (tensor encodings) are ignored.
//
// This file: comparing shapes, element types, called computations and the
// helpers the rule files share (HloTypeInferenceImpl.h). The rules of each
// op family are in HloShapeRules.cpp, HloContractionRules.cpp,
// HloGatherScatterRules.cpp, HloLinalgRules.cpp and HloCollectiveRules.cpp.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "HloTypeInferenceImpl.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::detail;

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

bool mlir::hlo::isCompatibleResult(Type inferred, Type result,
                                   bool anyElementType) {
  if (anyElementType && isa<RankedTensorType>(inferred))
    return shapesCompatible(inferred, result);
  return typesCompatible(inferred, result);
}

/// `t` without layouts (tensor encodings), for messages.
static Type withoutLayouts(Type t) {
  if (auto rt = dyn_cast<RankedTensorType>(t))
    return RankedTensorType::get(rt.getShape(), rt.getElementType());
  if (auto tt = dyn_cast<TupleType>(t)) {
    SmallVector<Type> elts;
    for (Type e : tt.getTypes())
      elts.push_back(withoutLayouts(e));
    return TupleType::get(t.getContext(), elts);
  }
  return t;
}

LogicalResult mlir::hlo::verifyInferredType(EmitErrorFn emitError,
                                            Type inferred, Type result,
                                            bool anyElementType) {
  if (isCompatibleResult(inferred, result, anyElementType))
    return success();
  auto diag = emitError() << "result type " << result
                          << " does not match the inferred ";
  if (anyElementType)
    diag << "dimensions " << str(cast<RankedTensorType>(inferred).getShape());
  else
    diag << "type " << withoutLayouts(inferred);
  return diag;
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

Type mlir::hlo::getSubshape(Type type, ArrayRef<int64_t> index) {
  for (int64_t i : index) {
    auto tt = dyn_cast<TupleType>(type);
    if (!tt || i < 0 || i >= int64_t(tt.size()))
      return {};
    type = tt.getType(i);
  }
  return type;
}

static void forEachSubshapeImpl(
    Type type, SmallVectorImpl<int64_t> &index, unsigned &count,
    function_ref<void(Type, ArrayRef<int64_t>)> fn) {
  ++count;
  fn(type, index);
  auto tuple = dyn_cast<TupleType>(type);
  if (!tuple)
    return;
  for (auto [i, element] : llvm::enumerate(tuple.getTypes())) {
    index.push_back(i);
    forEachSubshapeImpl(element, index, count, fn);
    index.pop_back();
  }
}

unsigned
mlir::hlo::forEachSubshape(Type type,
                           function_ref<void(Type, ArrayRef<int64_t>)> fn) {
  SmallVector<int64_t> index;
  unsigned count = 0;
  forEachSubshapeImpl(type, index, count, fn);
  return count;
}

unsigned mlir::hlo::getNumSubshapes(Type type) {
  auto tuple = dyn_cast<TupleType>(type);
  if (!tuple)
    return 1;
  unsigned count = 1;
  for (Type element : tuple.getTypes())
    count += getNumSubshapes(element);
  return count;
}

int64_t mlir::hlo::getNumLeaves(Type type) {
  auto tuple = dyn_cast<TupleType>(type);
  if (!tuple)
    return 1;
  int64_t n = 0;
  for (Type element : tuple.getTypes())
    n += getNumLeaves(element);
  return n;
}

std::optional<int64_t> mlir::hlo::getShapeByteSize(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return int64_t(8) * tuple.size();
  if (isa<OpaqueType>(type))
    return 8; // a pointer, as XLA sizes OPAQUE_TYPE
  auto array = dyn_cast<RankedTensorType>(type);
  if (!array)
    return 0; // token
  // A bounded dynamic array holds its elements at the bounds, then one s32
  // size per dimension (XLA's dynamic shape metadata).
  auto layout = dyn_cast_or_null<LayoutAttr>(array.getEncoding());
  int64_t elements = 1;
  for (unsigned dim = 0, rank = array.getRank(); dim < rank; ++dim) {
    int64_t size = array.getDimSize(dim);
    if (ShapedType::isDynamic(size)) {
      if (!layout || !layout.isBounded(dim))
        return std::nullopt;
      size = layout.getBounds()[dim];
    }
    elements *= size;
  }
  std::optional<unsigned> bits = getElementBitWidth(array.getElementType());
  if (!bits)
    return std::nullopt;
  if (*bits < 8 && !getPackedElementBits(array.getElementType()))
    bits = 8;
  int64_t metadata = array.hasStaticShape() ? 0 : 4 * array.getRank();
  return (elements * int64_t(*bits) + 7) / 8 + metadata;
}

std::optional<int64_t> mlir::hlo::getElementStorageBits(RankedTensorType type) {
  std::optional<unsigned> bits = getElementBitWidth(type.getElementType());
  if (!bits)
    return std::nullopt;
  auto layout = dyn_cast_or_null<LayoutAttr>(type.getEncoding());
  if (layout && layout.getElementSizeInBits())
    return layout.getElementSizeInBits();
  return std::max<int64_t>(*bits, 8);
}

std::optional<int64_t> mlir::hlo::getBitcastBytes(RankedTensorType type) {
  std::optional<int64_t> bits = getElementStorageBits(type);
  if (!type.hasStaticShape() || !bits)
    return std::nullopt;
  return llvm::divideCeil(type.getNumElements() * *bits, 8);
}

bool mlir::hlo::bitcastKeepsMemory(RankedTensorType in, RankedTensorType out) {
  if (in.hasStaticShape() && out.hasStaticShape() &&
      in.getNumElements() == out.getNumElements() &&
      getElementBitWidth(in.getElementType()) ==
          getElementBitWidth(out.getElementType()))
    return true;
  std::optional<int64_t> a = getBitcastBytes(in), b = getBitcastBytes(out);
  return !a || !b || *a == *b;
}

unsigned mlir::hlo::getPackedElementBits(Type elementType) {
  // XLA packs 2- and 4-bit types; a pred takes a byte, and so do the 6-bit
  // floats (which XLA's GPU compiler refuses) and s1/u1 here.
  if (!elementType.isIntOrFloat() || elementType.isInteger(1))
    return 0;
  unsigned bits = elementType.getIntOrFloatBitWidth();
  return bits == 2 || bits == 4 ? bits : 0;
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
std::string mlir::hlo::detail::str(ArrayRef<int64_t> v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i)
      s += ", ";
    s += ShapedType::isDynamic(v[i]) ? "?" : std::to_string(v[i]);
  }
  return s + "]";
}

/// Prints a dimension size, `?` when dynamic.
std::string mlir::hlo::detail::str(int64_t d) {
  return ShapedType::isDynamic(d) ? "?" : std::to_string(d);
}

/// Every entry is in [0, rank) and appears once.
LogicalResult mlir::hlo::detail::checkDimList(EmitErrorFn emitError,
                                              StringRef what,
                                              ArrayRef<int64_t> dims,
                                              int64_t rank) {
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
LogicalResult mlir::hlo::detail::checkSortedDimList(EmitErrorFn emitError,
                                                    StringRef what,
                                                    ArrayRef<int64_t> dims,
                                                    int64_t rank) {
  if (failed(checkDimList(emitError, what, dims, rank)))
    return failure();
  if (!llvm::is_sorted(dims))
    return emitError() << what << " " << str(dims) << " must be sorted";
  return success();
}

/// No dimension of `a` is in `b`.
LogicalResult mlir::hlo::detail::checkDisjoint(EmitErrorFn emitError,
                                               StringRef whatA,
                                               ArrayRef<int64_t> a,
                                               StringRef whatB,
                                               ArrayRef<int64_t> b) {
  for (int64_t d : a)
    if (llvm::is_contained(b, d))
      return emitError() << whatA << " " << str(a) << " and " << whatB << " "
                         << str(b) << " both contain dimension " << d;
  return success();
}

Type mlir::hlo::detail::elementType(Type t) {
  return cast<ShapedType>(t).getElementType();
}

Type mlir::hlo::detail::scalarOf(Type t) {
  return RankedTensorType::get({}, elementType(t));
}

bool mlir::hlo::detail::isScalarArray(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  return rt && rt.getRank() == 0;
}

/// Saturating arithmetic for sizes computed from attribute values: an
/// overflow gives INT64_MAX (or MIN), which then fails the size checks
/// instead of wrapping around.
int64_t mlir::hlo::detail::satAdd(int64_t a, int64_t b) {
  int64_t r;
  if (llvm::AddOverflow(a, b, r))
    return (a > 0) == (b > 0) && a > 0 ? INT64_MAX : INT64_MIN;
  return r;
}
int64_t mlir::hlo::detail::satMul(int64_t a, int64_t b) {
  int64_t r;
  if (llvm::MulOverflow(a, b, r))
    return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
  return r;
}

/// `dims` names one dimension of an operand of rank `rank`.
LogicalResult mlir::hlo::detail::checkSingleDim(EmitErrorFn emitError,
                                                ArrayRef<int64_t> dims,
                                                size_t rank) {
  if (dims.size() != 1)
    return emitError() << "dimensions " << str(dims)
                       << " must name exactly one dimension";
  if (dims[0] < 0 || dims[0] >= int64_t(rank))
    return emitError() << "dimension " << dims[0]
                       << " is out of range for rank " << rank;
  return success();
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
