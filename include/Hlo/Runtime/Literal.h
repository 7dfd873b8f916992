//===- Literal.h - values of the reference interpreter ----------*- C++ -*-===//
//
// A Literal is an HLO value on the host: an array (element type + static
// shape, row-major elements), a tuple of literals, a token or an opaque
// value.
//
// Elements are stored in a uniform wide form so that one piece of code
// serves every element type:
// - pred, sN, uN: `ints`, as int64_t. Signed types are sign-extended from
//   their width, unsigned types zero-extended (u64 is its bit pattern).
// - floating-point types (f8 variants, f16, bf16, f32, f64, ...): read and
//   written as double, always exactly representable in the element type
//   (every write rounds to the type with its IEEE or finite-only semantics,
//   NaN/inf as the type allows); held as float for types of 32 bits or
//   less, where that is exact, and as double for f64.
// - c64, c128: two components per element (real, imaginary), held like
//   f32 and f64.
//
// Layouts (#hlo.layout) describe memory order only: literals are logical
// and row-major whatever the layout.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_RUNTIME_LITERAL_H
#define HLO_RUNTIME_LITERAL_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace mlir::hlo::runtime {

enum class ElementKind { Pred, Signed, Unsigned, Float, Complex };

/// The kind of an element type (i1 is pred; signless and signed integers
/// are signed, `uiN` unsigned; complex<f32|f64>).
ElementKind getElementKind(Type elementType);
/// The bit width of an integer type, or of one component of a float/complex.
unsigned getElementBitWidth(Type elementType);

class Literal {
public:
  Literal() = default;

  /// A zero-filled array of `type` (a RankedTensorType with static shape,
  /// layout encoding allowed), a tuple of zero-filled elements for a
  /// TupleType, a token for !hlo.token.
  static Literal zeros(Type type);
  static Literal tuple(std::vector<Literal> elements);
  static Literal token();
  /// A scalar of `elementType`.
  static Literal scalar(Type elementType, double value);
  static Literal scalarInt(Type elementType, int64_t value);
  /// A literal from a constant's `value` attribute (DenseElementsAttr for an
  /// array, ArrayAttr for a tuple) of result type `type`.
  static FailureOr<Literal> fromAttr(Attribute value, Type type);
  /// The inverse: the `value` attribute of a constant holding this literal
  /// (DenseElementsAttr of a tensor type without layout for an array,
  /// ArrayAttr for a tuple); null for a token or opaque value.
  Attribute toAttr(MLIRContext *context) const;
  /// A zero-filled array of `elementType` and `shape`.
  static Literal array(Type elementType, ArrayRef<int64_t> shape);
  /// An opaque[] value (carries nothing).
  static Literal opaque();

  bool isArray() const { return kind == Kind::Array; }
  bool isTuple() const { return kind == Kind::Tuple; }
  bool isToken() const { return kind == Kind::Token; }
  bool isOpaque() const { return kind == Kind::Opaque; }

  //===--- Arrays ---------------------------------------------------------===//

  Type getElementType() const { return elementType; }
  ElementKind getElementKind() const { return elementKind; }
  /// getElementBitWidth(getElementType()), cached.
  unsigned getElementBitWidth() const { return bitWidth; }
  ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getRank() const { return shape.size(); }
  int64_t getNumElements() const;
  /// Row-major linear index of a multi-index, and back.
  int64_t linearize(ArrayRef<int64_t> index) const;
  SmallVector<int64_t> delinearize(int64_t linear) const;

  /// Element access by linear index. getInt on a float element truncates;
  /// getFloat on an integer converts. Setters round / wrap to the type.
  int64_t getInt(int64_t i) const;
  double getFloat(int64_t i) const;
  std::complex<double> getComplex(int64_t i) const;
  void setInt(int64_t i, int64_t v);
  void setFloat(int64_t i, double v);
  void setComplex(int64_t i, std::complex<double> v);
  /// Copies element `from` of `other` (same element type) to element `to`.
  void copyElement(int64_t to, const Literal &other, int64_t from);
  /// Sets every element to element `from` of `other` (same element type).
  void fillWith(const Literal &other, int64_t from);
  /// The element's bit pattern in its type (width getElementBitWidth, twice
  /// that for complex: imaginary part in the high half), and back.
  APInt getBits(int64_t i) const;
  void setBits(int64_t i, const APInt &bits);
  /// True if element `i` is zero (false for pred false, 0, +-0.0, (0, 0)).
  bool isZero(int64_t i) const;

  /// The elements as stored, for typed loops: an f32 array's floats
  /// (T = float), an f64 array's doubles (T = double), an integer or pred
  /// array's values (wrapped to the type as wrapInt does). Empty for other
  /// element types. What a loop writes through them must be what setFloat /
  /// setInt would store.
  template <typename T> MutableArrayRef<T> getFloatElements() {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
    constexpr bool f32 = std::is_same_v<T, float>;
    if (elementKind != ElementKind::Float || floatFormat != (f32 ? 1 : 0))
      return {};
    if constexpr (f32)
      return reals32;
    else
      return reals64;
  }
  template <typename T> ArrayRef<T> getFloatElements() const {
    return const_cast<Literal *>(this)->getFloatElements<T>();
  }
  ArrayRef<int64_t> getIntElements() const { return ints; }
  MutableArrayRef<int64_t> getIntElements() { return ints; }
  /// `v` as an integer or pred element of this array's type holds it:
  /// wrapped to the width, sign-extended for signed types, 0/1 for pred.
  int64_t wrapInt(int64_t v) const {
    if (elementKind == ElementKind::Pred)
      return v != 0;
    if (bitWidth >= 64)
      return v;
    uint64_t mask = (uint64_t(1) << bitWidth) - 1;
    uint64_t u = static_cast<uint64_t>(v) & mask;
    if (elementKind == ElementKind::Signed && (u >> (bitWidth - 1)) & 1)
      u |= ~mask;
    return static_cast<int64_t>(u);
  }

  /// The bytes this array's elements take in memory (8 per integer or pred
  /// element, 4 per float component of 32 bits or less, 8 per wider one).
  int64_t getStorageBytes() const {
    return ints.size() * sizeof(int64_t) + reals32.size() * sizeof(float) +
           reals64.size() * sizeof(double);
  }

  /// A new array of the same element type and another shape.
  Literal withShape(ArrayRef<int64_t> newShape) const;

  //===--- Tuples ---------------------------------------------------------===//

  ArrayRef<Literal> getElements() const { return elements; }
  std::vector<Literal> &getElements() { return elements; }

  /// The MLIR type this literal has (tensor without layout, tuple, token).
  Type getType(MLIRContext *context) const;
  /// True if this literal is a value of `type`: same element type and the
  /// shape of `type` (layouts ignored, dynamic dimensions at their bound),
  /// or a tuple/token/opaque of the same structure.
  bool hasType(Type type) const;

  /// HLO literal text, e.g. `f32[2,2] {{19, 22}, {43, 50}}`, `pred[] true`,
  /// `(f32[], s32[2]) (1, {2, 3})`, `c64[] (1, 2)`, `(token[], f32[])
  /// (token, 1)`: the shape without layout, a space, the value with one
  /// brace level per dimension; pred elements are true/false, floats are
  /// spelled by formatFloat (XLA's spelling).
  void print(llvm::raw_ostream &os) const;
  std::string toString() const;

  /// Exact equality (NaNs equal when both are NaN).
  bool operator==(const Literal &other) const;

  /// Prints the shape (`f32[2,3]`, `(f32[], s32[2])`, `token[]`).
  void printShape(llvm::raw_ostream &os) const;
  /// Prints the value without the shape (`{1, 2}`, `(1, {2, 3})`).
  void printValue(llvm::raw_ostream &os) const;

private:
  enum class Kind { Array, Tuple, Token, Opaque };
  void setElementType(Type type);

  Kind kind = Kind::Token;
  Type elementType;
  /// Cached facts about elementType (for speed in element loops).
  ElementKind elementKind = ElementKind::Signed;
  Type componentType; // the float type of a complex, else elementType
  /// How floats of componentType round: 0 = f64 (no rounding), 1 = f32,
  /// 2 = any other type (through APFloat).
  uint8_t floatFormat = 2;
  /// getElementBitWidth(elementType).
  unsigned bitWidth = 64;
  double roundComponent(double v) const;
  SmallVector<int64_t> shape;
  std::vector<int64_t> ints;
  /// Float components: in `reals32` when they are 32 bits wide or less
  /// (every such value is exact in f32), else in `reals64`.
  bool narrowReals = false;
  std::vector<float> reals32;
  std::vector<double> reals64;
  void allocReals(size_t n) {
    if (narrowReals)
      reals32.assign(n, 0.0f);
    else
      reals64.assign(n, 0.0);
  }
  size_t numReals() const {
    return narrowReals ? reals32.size() : reals64.size();
  }
  double real(size_t i) const { return narrowReals ? reals32[i] : reals64[i]; }
  void setReal(size_t i, double v) {
    if (narrowReals)
      reals32[i] = static_cast<float>(v);
    else
      reals64[i] = v;
  }
  std::vector<Literal> elements;
};

/// Rounds `v` to the float type `type` (f8/f16/bf16/f32/f64 ...) and back.
double roundToFloatType(double v, Type type);
/// Wraps `v` to the integer type `type` (sign- or zero-extended; pred is
/// v != 0).
int64_t wrapToIntType(int64_t v, Type type);
/// The bits of `v` (exactly representable, see roundToFloatType) in float
/// type `type`, and back.
APInt floatToBits(double v, Type type);
double bitsToFloat(const APInt &bits, Type type);
/// XLA's spelling of a float of type `type`: the shortest of `%.{digits10}g`
/// and `%.{max_digits10}g` that reads back for f32/f64, `%.{max_digits10}g`
/// for narrower types; `inf`, `-inf`, `nan`, `-nan`.
std::string formatFloat(double v, Type type);
/// The dimensions of array type `type` with bounded dynamic dimensions at
/// their bound; std::nullopt for an unbounded dynamic dimension or a
/// non-array type.
std::optional<SmallVector<int64_t>> getStaticShape(Type type);
/// The bytes a value of `type` takes as a Literal (what getStorageBytes
/// returns for Literal::zeros(type): tuples summed, bounded dynamic
/// dimensions at their bound, unbounded ones as 0), computed without
/// allocating; saturates at INT64_MAX.
int64_t getStorageBytes(Type type);
/// The elements of array `value` as the bytes of a buffer of array type
/// `type` (the same shape and element type, any layout): in the layout's
/// physical order, each element in the whole bytes its bit pattern takes
/// (one per pred, real then imaginary part for complex), little-endian;
/// types narrower than a byte packed as XLA stores them (element i at bit
/// i * width from the low bits of byte 0); what a kernel's flat memref over
/// the buffer reads. Tiled layouts are not supported (their tiles are
/// ignored).
std::vector<uint8_t> encodeArrayBytes(const Literal &value,
                                      RankedTensorType type);
/// The inverse: the array of `type` whose buffer holds `bytes`.
Literal decodeArrayBytes(ArrayRef<uint8_t> bytes, RankedTensorType type);
/// The bytes one element of `elementType` takes in such a buffer (one for
/// a packed type: use getArrayBufferBytes for a whole array).
int64_t getElementBufferBytes(Type elementType);
/// The bytes of such a buffer of `type`.
int64_t getArrayBufferBytes(RankedTensorType type);

/// HLO's element type spelling (`f32`, `s8`, `u4`, `pred`, `bf16`,
/// `f8e4m3fn`, `c64`, ...).
std::string getElementTypeName(Type elementType);

} // namespace mlir::hlo::runtime

#endif // HLO_RUNTIME_LITERAL_H
