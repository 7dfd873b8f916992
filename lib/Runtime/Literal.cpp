//===- Literal.cpp - values of the reference interpreter ------------------===//
//
// Storage, element access and rounding of literals. Printing lives in
// LiteralPrint.cpp.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Runtime/Literal.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;

//===----------------------------------------------------------------------===//
// Element types.
//===----------------------------------------------------------------------===//

ElementKind runtime::getElementKind(Type elementType) {
  if (auto it = dyn_cast<IntegerType>(elementType)) {
    if (it.getWidth() == 1 && it.isSignless())
      return ElementKind::Pred;
    return it.isUnsigned() ? ElementKind::Unsigned : ElementKind::Signed;
  }
  if (isa<FloatType>(elementType))
    return ElementKind::Float;
  if (isa<ComplexType>(elementType))
    return ElementKind::Complex;
  // Not an element type; treat as signed so that accessors stay defined.
  return ElementKind::Signed;
}

unsigned runtime::getElementBitWidth(Type elementType) {
  if (auto ct = dyn_cast<ComplexType>(elementType))
    elementType = ct.getElementType();
  if (auto it = dyn_cast<IntegerType>(elementType))
    return it.getWidth();
  if (auto ft = dyn_cast<FloatType>(elementType))
    return ft.getWidth();
  return 64;
}

std::optional<SmallVector<int64_t>> runtime::getStaticShape(Type type) {
  auto tt = dyn_cast<RankedTensorType>(type);
  if (!tt)
    return std::nullopt;
  SmallVector<int64_t> dims(tt.getShape());
  auto layout = dyn_cast_or_null<LayoutAttr>(tt.getEncoding());
  for (unsigned d = 0; d < dims.size(); ++d) {
    if (!ShapedType::isDynamic(dims[d]))
      continue;
    if (!layout || !layout.isBounded(d))
      return std::nullopt;
    dims[d] = layout.getBounds()[d];
  }
  return dims;
}

/// a + b and a * b of non-negative sizes, saturating at INT64_MAX.
static int64_t addSaturating(int64_t a, int64_t b) {
  int64_t sum;
  return llvm::AddOverflow(a, b, sum) ? std::numeric_limits<int64_t>::max()
                                      : sum;
}
static int64_t mulSaturating(int64_t a, int64_t b) {
  int64_t product;
  return llvm::MulOverflow(a, b, product) ? std::numeric_limits<int64_t>::max()
                                          : product;
}

int64_t runtime::getStorageBytes(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    int64_t bytes = 0;
    for (Type element : tuple.getTypes())
      bytes = addSaturating(bytes, getStorageBytes(element));
    return bytes;
  }
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return 0;
  // As Literal::array stores them: integers and pred widened to 64 bits,
  // float components as float up to 32 bits, else as double.
  Type elementType = tensor.getElementType();
  ElementKind kind = getElementKind(elementType);
  int64_t bytes = 8;
  if (kind == ElementKind::Float || kind == ElementKind::Complex) {
    bytes = getElementBitWidth(elementType) <= 32 ? 4 : 8;
    if (kind == ElementKind::Complex)
      bytes *= 2;
  }
  SmallVector<int64_t> dims(tensor.getShape());
  if (std::optional<SmallVector<int64_t>> shape = getStaticShape(type))
    dims = *shape;
  for (int64_t d : dims)
    bytes = ShapedType::isDynamic(d) ? 0 : mulSaturating(bytes, d);
  return bytes;
}

//===----------------------------------------------------------------------===//
// Rounding and bit patterns.
//===----------------------------------------------------------------------===//

static const llvm::fltSemantics &semanticsOf(Type type) {
  return cast<FloatType>(type).getFloatSemantics();
}

/// A NaN double carrying `payload` in the top bits of its mantissa.
static double makeNaN(bool negative, uint64_t payload, unsigned payloadBits) {
  uint64_t bits = (uint64_t(negative) << 63) | (uint64_t(0x7ff) << 52);
  if (payloadBits > 0)
    bits |= (payload << (52 - payloadBits)) & ((uint64_t(1) << 52) - 1);
  if ((bits & ((uint64_t(1) << 52) - 1)) == 0)
    bits |= uint64_t(1) << 51;
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

static uint64_t doubleBits(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

/// Explicit mantissa bits of an IEEE-like semantics.
static unsigned mantissaBits(const llvm::fltSemantics &sem) {
  return llvm::APFloat::semanticsPrecision(sem) - 1;
}

APInt runtime::floatToBits(double v, Type type) {
  const llvm::fltSemantics &sem = semanticsOf(type);
  using llvm::APFloat;
  unsigned width = APFloat::getSizeInBits(sem);
  bool hasNaN = APFloat::semanticsHasNaN(sem);
  bool hasInf = APFloat::semanticsHasInf(sem);
  if (!APFloat::semanticsHasSignedRepr(sem) &&
      (std::isnan(v) || std::isinf(v) || v <= 0))
    return APFloat::getNaN(sem).bitcastToAPInt(); // e8m0: no sign, no zero
  if (std::isnan(v)) {
    if (!hasNaN) // finite-only types (f4, f6): -0 as ml_dtypes does
      return APFloat::getZero(sem, true).bitcastToAPInt();
    if (hasInf) {
      // IEEE-like: keep the sign and the top bits of the payload.
      unsigned m = mantissaBits(sem);
      uint64_t payload =
          (doubleBits(v) & ((uint64_t(1) << 52) - 1)) >> (52 - m);
      if (payload == 0)
        payload = uint64_t(1) << (m - 1);
      APInt bits = APFloat::getInf(sem, std::signbit(v)).bitcastToAPInt();
      return bits | APInt(width, payload);
    }
    return APFloat::getNaN(sem, std::signbit(v)).bitcastToAPInt();
  }
  if (std::isinf(v) && !hasInf) {
    if (hasNaN)
      return APFloat::getNaN(sem, std::signbit(v)).bitcastToAPInt();
    return APFloat::getLargest(sem, std::signbit(v)).bitcastToAPInt();
  }
  APFloat f(v);
  bool lost;
  f.convert(sem, APFloat::rmNearestTiesToEven, &lost);
  return f.bitcastToAPInt();
}

double runtime::bitsToFloat(const APInt &bits, Type type) {
  const llvm::fltSemantics &sem = semanticsOf(type);
  using llvm::APFloat;
  APFloat f(sem, bits);
  if (f.isNaN() ||
      (!APFloat::semanticsHasSignedRepr(sem) && bits.isAllOnes())) {
    bool negative = f.isNegative();
    if (APFloat::semanticsHasInf(sem)) {
      unsigned m = mantissaBits(sem);
      return makeNaN(negative, bits.getZExtValue() & ((uint64_t(1) << m) - 1),
                     m);
    }
    // A type whose NaN is "negative zero" (FNUZ) prints as -nan, like XLA.
    if (APFloat::semanticsHasSignedRepr(sem) &&
        !APFloat::semanticsHasInf(sem) && bits.isSignMask())
      negative = true;
    return makeNaN(negative, 0, 0);
  }
  bool lost;
  f.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return f.convertToDouble();
}

double runtime::roundToFloatType(double v, Type type) {
  if (type.isF64())
    return v;
  if (type.isF32() && !std::isnan(v))
    return static_cast<double>(static_cast<float>(v));
  return bitsToFloat(floatToBits(v, type), type);
}

int64_t runtime::wrapToIntType(int64_t v, Type type) {
  auto it = cast<IntegerType>(type);
  unsigned width = it.getWidth();
  if (width == 1 && it.isSignless())
    return v != 0;
  if (width >= 64)
    return v;
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (!it.isUnsigned() && (u >> (width - 1)) & 1)
    u |= ~mask;
  return static_cast<int64_t>(u);
}

//===----------------------------------------------------------------------===//
// Construction.
//===----------------------------------------------------------------------===//

void Literal::setElementType(Type type) {
  elementType = type;
  elementKind = runtime::getElementKind(type);
  componentType = type;
  if (auto ct = dyn_cast<ComplexType>(type))
    componentType = ct.getElementType();
  floatFormat = componentType.isF64() ? 0 : componentType.isF32() ? 1 : 2;
  bitWidth = runtime::getElementBitWidth(type);
  narrowReals = (elementKind == ElementKind::Float ||
                 elementKind == ElementKind::Complex) &&
                bitWidth <= 32;
}

double Literal::roundComponent(double v) const {
  if (floatFormat == 0)
    return v;
  if (floatFormat == 1 && !std::isnan(v))
    return static_cast<double>(static_cast<float>(v));
  return roundToFloatType(v, componentType);
}

Literal Literal::array(Type elementType, ArrayRef<int64_t> shape) {
  Literal l;
  l.kind = Kind::Array;
  l.setElementType(elementType);
  l.shape.assign(shape.begin(), shape.end());
  int64_t n = l.getNumElements();
  switch (l.elementKind) {
  case ElementKind::Float:
    l.allocReals(n);
    break;
  case ElementKind::Complex:
    l.allocReals(2 * n);
    break;
  default:
    l.ints.assign(n, 0);
    break;
  }
  // e8m0 has no zero: its "zero fill" is the smallest value.
  if (l.elementKind == ElementKind::Float &&
      !llvm::APFloat::semanticsHasZero(semanticsOf(elementType)))
    for (int64_t i = 0; i < n; ++i)
      l.setReal(i, roundToFloatType(0x1p-127, elementType));
  return l;
}

Literal Literal::zeros(Type type) {
  if (auto tt = dyn_cast<TupleType>(type)) {
    std::vector<Literal> elements;
    for (Type t : tt.getTypes())
      elements.push_back(zeros(t));
    return tuple(std::move(elements));
  }
  if (isa<hlo::OpaqueType>(type))
    return opaque();
  if (auto rt = dyn_cast<RankedTensorType>(type)) {
    SmallVector<int64_t> dims(rt.getShape());
    if (auto s = getStaticShape(type))
      dims = *s;
    for (int64_t &d : dims)
      if (ShapedType::isDynamic(d))
        d = 0;
    return array(rt.getElementType(), dims);
  }
  return token();
}

Literal Literal::tuple(std::vector<Literal> elements) {
  Literal l;
  l.kind = Kind::Tuple;
  l.elements = std::move(elements);
  return l;
}

Literal Literal::token() { return Literal(); }

Literal Literal::opaque() {
  Literal l;
  l.kind = Kind::Opaque;
  return l;
}

Literal Literal::scalar(Type elementType, double value) {
  Literal l = array(elementType, {});
  l.setFloat(0, value);
  return l;
}

Literal Literal::scalarInt(Type elementType, int64_t value) {
  Literal l = array(elementType, {});
  l.setInt(0, value);
  return l;
}

/// Double value of an APFloat of any semantics (NaN payloads kept as
/// bitsToFloat keeps them).
static double toDouble(const llvm::APFloat &f, Type type) {
  return bitsToFloat(f.bitcastToAPInt(), type);
}

FailureOr<Literal> Literal::fromAttr(Attribute value, Type type) {
  if (auto tt = dyn_cast<TupleType>(type)) {
    auto arr = dyn_cast_or_null<ArrayAttr>(value);
    if (!arr || arr.size() != tt.size())
      return failure();
    std::vector<Literal> elements;
    for (auto [a, t] : llvm::zip(arr, tt.getTypes())) {
      auto e = fromAttr(a, t);
      if (failed(e))
        return failure();
      elements.push_back(std::move(*e));
    }
    return tuple(std::move(elements));
  }
  auto dense = dyn_cast_or_null<DenseElementsAttr>(value);
  auto shape = getStaticShape(type);
  if (!dense || !shape)
    return failure();
  Type elt = cast<RankedTensorType>(type).getElementType();
  if (dense.getElementType() != elt ||
      dense.getType().getShape() != ArrayRef<int64_t>(*shape))
    return failure();
  Literal l = array(elt, *shape);
  int64_t i = 0;
  switch (l.elementKind) {
  case ElementKind::Pred:
    for (bool b : dense.getValues<bool>())
      l.ints[i++] = b;
    break;
  case ElementKind::Signed:
    for (const APInt &v : dense.getValues<APInt>())
      l.ints[i++] = v.getSExtValue();
    break;
  case ElementKind::Unsigned:
    for (const APInt &v : dense.getValues<APInt>())
      l.ints[i++] = static_cast<int64_t>(v.getZExtValue());
    break;
  case ElementKind::Float:
    for (const llvm::APFloat &v : dense.getValues<llvm::APFloat>())
      l.setReal(i++, toDouble(v, elt));
    break;
  case ElementKind::Complex:
    for (const std::complex<llvm::APFloat> &v :
         dense.getValues<std::complex<llvm::APFloat>>()) {
      l.setReal(i++, toDouble(v.real(), l.componentType));
      l.setReal(i++, toDouble(v.imag(), l.componentType));
    }
    break;
  }
  return l;
}

Attribute Literal::toAttr(MLIRContext *context) const {
  if (isTuple()) {
    SmallVector<Attribute> attrs;
    for (const Literal &e : elements) {
      Attribute a = e.toAttr(context);
      if (!a)
        return {};
      attrs.push_back(a);
    }
    return ArrayAttr::get(context, attrs);
  }
  if (!isArray())
    return {};
  auto type = RankedTensorType::get(shape, elementType);
  int64_t n = getNumElements();
  switch (elementKind) {
  case ElementKind::Pred: {
    SmallVector<bool> values(n);
    for (int64_t i = 0; i < n; ++i)
      values[i] = ints[i] != 0;
    return DenseElementsAttr::get(type, values);
  }
  case ElementKind::Signed:
  case ElementKind::Unsigned: {
    SmallVector<APInt> values;
    values.reserve(n);
    for (int64_t i = 0; i < n; ++i)
      values.push_back(getBits(i));
    return DenseElementsAttr::get(type, values);
  }
  case ElementKind::Float: {
    const llvm::fltSemantics &sem =
        cast<FloatType>(elementType).getFloatSemantics();
    SmallVector<llvm::APFloat> values;
    values.reserve(n);
    for (int64_t i = 0; i < n; ++i)
      values.emplace_back(sem, getBits(i));
    return DenseElementsAttr::get(type, values);
  }
  case ElementKind::Complex: {
    const llvm::fltSemantics &sem =
        cast<FloatType>(componentType).getFloatSemantics();
    unsigned width = runtime::getElementBitWidth(componentType);
    SmallVector<std::complex<llvm::APFloat>> values;
    values.reserve(n);
    for (int64_t i = 0; i < n; ++i) {
      APInt bits = getBits(i);
      values.emplace_back(llvm::APFloat(sem, bits.trunc(width)),
                          llvm::APFloat(sem, bits.lshr(width).trunc(width)));
    }
    return DenseElementsAttr::get(type, values);
  }
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Arrays.
//===----------------------------------------------------------------------===//

int64_t Literal::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

int64_t Literal::linearize(ArrayRef<int64_t> index) const {
  int64_t linear = 0;
  for (unsigned d = 0; d < shape.size(); ++d)
    linear = linear * shape[d] + index[d];
  return linear;
}

SmallVector<int64_t> Literal::delinearize(int64_t linear) const {
  SmallVector<int64_t> index(shape.size());
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    index[d] = shape[d] == 0 ? 0 : linear % shape[d];
    linear = shape[d] == 0 ? 0 : linear / shape[d];
  }
  return index;
}

/// Float to integer as XLA converts: truncation toward zero, NaN to 0, out
/// of range values saturate.
static int64_t saturatingFloatToInt(double v, unsigned width, bool isUnsigned,
                                    bool isPred) {
  if (isPred)
    return v != 0.0 || std::isnan(v);
  if (std::isnan(v))
    return 0;
  v = std::trunc(v);
  if (isUnsigned) {
    if (v <= 0)
      return 0;
    double max = std::ldexp(1.0, width); // exclusive
    if (v >= max)
      return width >= 64 ? -1
                         : static_cast<int64_t>((uint64_t(1) << width) - 1);
    return static_cast<int64_t>(static_cast<uint64_t>(v));
  }
  double lim = std::ldexp(1.0, width - 1);
  if (v >= lim)
    return width >= 64 ? std::numeric_limits<int64_t>::max()
                       : static_cast<int64_t>((uint64_t(1) << (width - 1)) - 1);
  if (v < -lim)
    return width >= 64 ? std::numeric_limits<int64_t>::min()
                       : -static_cast<int64_t>(uint64_t(1) << (width - 1));
  return static_cast<int64_t>(v);
}

int64_t Literal::getInt(int64_t i) const {
  switch (elementKind) {
  case ElementKind::Float:
    return saturatingFloatToInt(real(i), 64, false, false);
  case ElementKind::Complex:
    return saturatingFloatToInt(real(2 * i), 64, false, false);
  default:
    return ints[i];
  }
}

double Literal::getFloat(int64_t i) const {
  switch (elementKind) {
  case ElementKind::Float:
    return real(i);
  case ElementKind::Complex:
    return real(2 * i);
  case ElementKind::Unsigned:
    return static_cast<double>(static_cast<uint64_t>(ints[i]));
  default:
    return static_cast<double>(ints[i]);
  }
}

std::complex<double> Literal::getComplex(int64_t i) const {
  if (elementKind == ElementKind::Complex)
    return {real(2 * i), real(2 * i + 1)};
  return {getFloat(i), 0.0};
}

void Literal::setInt(int64_t i, int64_t v) {
  switch (elementKind) {
  case ElementKind::Float:
    setReal(i, roundComponent(static_cast<double>(v)));
    break;
  case ElementKind::Complex:
    setReal(2 * i, roundComponent(static_cast<double>(v)));
    setReal(2 * i + 1, 0.0);
    break;
  default:
    ints[i] = wrapInt(v);
    break;
  }
}

void Literal::setFloat(int64_t i, double v) {
  switch (elementKind) {
  case ElementKind::Float:
    setReal(i, roundComponent(v));
    break;
  case ElementKind::Complex:
    setReal(2 * i, roundComponent(v));
    setReal(2 * i + 1, 0.0);
    break;
  default:
    ints[i] =
        saturatingFloatToInt(v, bitWidth, elementKind == ElementKind::Unsigned,
                             elementKind == ElementKind::Pred);
    break;
  }
}

void Literal::setComplex(int64_t i, std::complex<double> v) {
  if (elementKind != ElementKind::Complex)
    return setFloat(i, v.real());
  setReal(2 * i, roundComponent(v.real()));
  setReal(2 * i + 1, roundComponent(v.imag()));
}

void Literal::copyElement(int64_t to, const Literal &other, int64_t from) {
  switch (elementKind) {
  case ElementKind::Float:
    setReal(to, other.real(from));
    break;
  case ElementKind::Complex:
    setReal(2 * to, other.real(2 * from));
    setReal(2 * to + 1, other.real(2 * from + 1));
    break;
  default:
    ints[to] = other.ints[from];
    break;
  }
}

void Literal::fillWith(const Literal &other, int64_t from) {
  switch (elementKind) {
  case ElementKind::Float:
    if (narrowReals)
      std::fill(reals32.begin(), reals32.end(), other.reals32[from]);
    else
      std::fill(reals64.begin(), reals64.end(), other.reals64[from]);
    break;
  case ElementKind::Complex:
    for (int64_t i = 0, n = getNumElements(); i < n; ++i)
      copyElement(i, other, from);
    break;
  default:
    std::fill(ints.begin(), ints.end(), other.ints[from]);
    break;
  }
}

APInt Literal::getBits(int64_t i) const {
  unsigned width = runtime::getElementBitWidth(elementType);
  switch (elementKind) {
  case ElementKind::Float:
    return floatToBits(real(i), elementType);
  case ElementKind::Complex: {
    APInt re = floatToBits(real(2 * i), componentType);
    APInt im = floatToBits(real(2 * i + 1), componentType);
    return im.zext(2 * width).shl(width) | re.zext(2 * width);
  }
  default:
    return APInt(width, static_cast<uint64_t>(ints[i]), /*isSigned=*/false,
                 /*implicitTrunc=*/true);
  }
}

void Literal::setBits(int64_t i, const APInt &bits) {
  unsigned width = runtime::getElementBitWidth(elementType);
  switch (elementKind) {
  case ElementKind::Float:
    setReal(i, bitsToFloat(bits.zextOrTrunc(width), elementType));
    break;
  case ElementKind::Complex:
    setReal(2 * i, bitsToFloat(bits.trunc(width), componentType));
    setReal(2 * i + 1,
            bitsToFloat(bits.lshr(width).trunc(width), componentType));
    break;
  default:
    ints[i] = wrapToIntType(
        static_cast<int64_t>(bits.zextOrTrunc(64).getZExtValue()), elementType);
    if (elementKind == ElementKind::Pred)
      ints[i] = bits[0];
    break;
  }
}

bool Literal::isZero(int64_t i) const {
  switch (elementKind) {
  case ElementKind::Float:
    return real(i) == 0.0;
  case ElementKind::Complex:
    return real(2 * i) == 0.0 && real(2 * i + 1) == 0.0;
  default:
    return ints[i] == 0;
  }
}

Literal Literal::withShape(ArrayRef<int64_t> newShape) const {
  return array(elementType, newShape);
}

//===----------------------------------------------------------------------===//
// Types and equality.
//===----------------------------------------------------------------------===//

Type Literal::getType(MLIRContext *context) const {
  switch (kind) {
  case Kind::Array:
    return RankedTensorType::get(shape, elementType);
  case Kind::Tuple: {
    SmallVector<Type> types;
    for (const Literal &e : elements)
      types.push_back(e.getType(context));
    return TupleType::get(context, types);
  }
  case Kind::Token:
    return TokenType::get(context);
  case Kind::Opaque:
    return hlo::OpaqueType::get(context);
  }
  return {};
}

bool Literal::hasType(Type type) const {
  switch (kind) {
  case Kind::Array: {
    auto tt = dyn_cast<RankedTensorType>(type);
    if (!tt || tt.getElementType() != elementType)
      return false;
    auto dims = getStaticShape(type);
    return dims && ArrayRef<int64_t>(*dims) == ArrayRef<int64_t>(shape);
  }
  case Kind::Tuple: {
    auto tt = dyn_cast<TupleType>(type);
    if (!tt || tt.size() != elements.size())
      return false;
    for (auto [e, t] : llvm::zip(elements, tt.getTypes()))
      if (!e.hasType(t))
        return false;
    return true;
  }
  case Kind::Token:
    return isa<TokenType>(type);
  case Kind::Opaque:
    return isa<hlo::OpaqueType>(type);
  }
  return false;
}

bool Literal::operator==(const Literal &other) const {
  if (kind != other.kind)
    return false;
  if (kind == Kind::Tuple)
    return elements == other.elements;
  if (kind != Kind::Array)
    return true;
  if (elementType != other.elementType || shape != other.shape ||
      ints != other.ints || numReals() != other.numReals())
    return false;
  for (size_t i = 0; i < numReals(); ++i) {
    double a = real(i), b = other.real(i);
    if (std::isnan(a) && std::isnan(b))
      continue;
    if (a != b || std::signbit(a) != std::signbit(b))
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

int64_t mlir::hlo::runtime::getElementBufferBytes(Type elementType) {
  unsigned bits = 0;
  if (auto complex = dyn_cast<ComplexType>(elementType))
    bits = 2 * complex.getElementType().getIntOrFloatBitWidth();
  else
    bits = elementType.getIntOrFloatBitWidth();
  // Narrower than a byte: one byte each; complex: two whole parts.
  if (isa<ComplexType>(elementType))
    return 2 * llvm::divideCeil(bits / 2, 8);
  return std::max<int64_t>(1, llvm::divideCeil(bits, 8));
}

/// The bits an element of `type` takes when packed (2 and 4), else 0
/// (thunk::isPackedElementType's rule).
static unsigned getPackedBits(Type type) {
  if (!type.isIntOrFloat() || type.isInteger(1))
    return 0;
  unsigned bits = type.getIntOrFloatBitWidth();
  return bits < 8 && 8 % bits == 0 ? bits : 0;
}

int64_t mlir::hlo::runtime::getArrayBufferBytes(RankedTensorType type) {
  if (unsigned bits = getPackedBits(type.getElementType()))
    return llvm::divideCeil(type.getNumElements() * int64_t(bits), 8);
  return type.getNumElements() * getElementBufferBytes(type.getElementType());
}

/// The physical position of each element (in row-major order) of `type`.
static std::vector<int64_t> physicalPositions(RankedTensorType type) {
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> stride = getPhysicalStrides(type);
  std::vector<int64_t> positions(type.getNumElements());
  for (int64_t i = 0, n = positions.size(); i < n; ++i) {
    int64_t at = 0, rest = i;
    for (int64_t d = shape.size() - 1; d >= 0; --d) {
      at += (rest % shape[d]) * stride[d];
      rest /= shape[d];
    }
    positions[i] = at;
  }
  return positions;
}

std::vector<uint8_t>
mlir::hlo::runtime::encodeArrayBytes(const Literal &value,
                                     RankedTensorType type) {
  std::vector<int64_t> positions = physicalPositions(type);
  std::vector<uint8_t> bytes(getArrayBufferBytes(type));
  if (unsigned packed = getPackedBits(type.getElementType())) {
    for (size_t i = 0; i < positions.size(); ++i) {
      int64_t bit = positions[i] * packed;
      uint64_t bits = value.getBits(i).getZExtValue() & ((1u << packed) - 1);
      bytes[bit / 8] |= uint8_t(bits << (bit % 8));
    }
    return bytes;
  }
  int64_t size = getElementBufferBytes(type.getElementType());
  bool complex = isa<ComplexType>(type.getElementType());
  for (size_t i = 0; i < positions.size(); ++i) {
    APInt bits = value.getBits(i);
    if (complex) { // two parts, each in half of the element's bytes
      unsigned part = bits.getBitWidth() / 2;
      APInt lo = bits.trunc(part).zextOrTrunc(size * 8);
      APInt hi = bits.lshr(part).trunc(part).zextOrTrunc(size * 8);
      bits = lo | hi.shl(size * 4);
    } else {
      bits = bits.zextOrTrunc(size * 8);
    }
    uint8_t *at = bytes.data() + positions[i] * size;
    for (int64_t b = 0; b < size; ++b)
      at[b] = uint8_t(bits.extractBitsAsZExtValue(8, 8 * b));
  }
  return bytes;
}

Literal mlir::hlo::runtime::decodeArrayBytes(ArrayRef<uint8_t> bytes,
                                             RankedTensorType type) {
  Literal value = Literal::array(type.getElementType(), type.getShape());
  std::vector<int64_t> positions = physicalPositions(type);
  if (unsigned packed = getPackedBits(type.getElementType())) {
    for (size_t i = 0; i < positions.size(); ++i) {
      int64_t bit = positions[i] * packed;
      uint64_t bits = (bytes[bit / 8] >> (bit % 8)) & ((1u << packed) - 1);
      value.setBits(i, APInt(value.getBits(i).getBitWidth(), bits));
    }
    return value;
  }
  int64_t size = getElementBufferBytes(type.getElementType());
  bool complex = isa<ComplexType>(type.getElementType());
  for (size_t i = 0; i < positions.size(); ++i) {
    unsigned width = value.getBits(i).getBitWidth();
    APInt bits(size * 8, 0);
    const uint8_t *at = bytes.data() + positions[i] * size;
    for (int64_t b = 0; b < size; ++b)
      bits.insertBits(uint64_t(at[b]), 8 * b, 8);
    if (complex) {
      unsigned part = width / 2;
      APInt lo = bits.trunc(size * 4).zextOrTrunc(part);
      APInt hi = bits.lshr(size * 4).trunc(size * 4).zextOrTrunc(part);
      bits = lo.zext(width) | hi.zext(width).shl(part);
    } else {
      bits = bits.zextOrTrunc(width);
    }
    value.setBits(i, bits);
  }
  return value;
}
