//===- Npy.cpp - NumPy .npy files <-> interpreter literals ----------------===//
//
// The format: "\x93NUMPY", a major and a minor version byte, the header
// length (2 bytes little-endian in version 1, 4 bytes in versions 2 and 3),
// the header (a Python dict literal, padded with spaces and ended by '\n'
// so that the data starts at a multiple of 64), then the elements in C
// order (or Fortran order when the header says so).
//
//===----------------------------------------------------------------------===//

#include "Npy.h"

#include "Hlo/Runtime/SemanticsCheck.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace mlir::hlo::runtime;
using llvm::StringRef;

namespace hlo_run {

//===----------------------------------------------------------------------===//
// Type names
//===----------------------------------------------------------------------===//

/// Floating-point types that NumPy itself has.
static bool isNativeFloat(Type type) {
  return type.isF16() || type.isF32() || type.isF64();
}

/// Bytes of a float type's storage as ml_dtypes keeps it (one or two), or 0.
static unsigned rawFloatBytes(Type type) {
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType || isNativeFloat(type))
    return 0;
  unsigned bits = llvm::APFloat::getSizeInBits(floatType.getFloatSemantics());
  if (bits <= 8)
    return 1;
  if (bits == 16)
    return 2;
  return 0; // tf32 (19 bits): no storage convention
}

std::string npyDescrFor(Type elementType) {
  switch (getElementKind(elementType)) {
  case ElementKind::Pred:
    return "|b1";
  case ElementKind::Signed:
  case ElementKind::Unsigned: {
    char kind = getElementKind(elementType) == ElementKind::Signed ? 'i' : 'u';
    unsigned width = getElementBitWidth(elementType);
    if (width <= 8)
      return std::string("|") + kind + "1";
    if (width == 16 || width == 32 || width == 64)
      return std::string("<") + kind + std::to_string(width / 8);
    return "";
  }
  case ElementKind::Float:
    if (elementType.isF16())
      return "<f2";
    if (elementType.isF32())
      return "<f4";
    if (elementType.isF64())
      return "<f8";
    if (unsigned bytes = rawFloatBytes(elementType))
      return "|V" + std::to_string(bytes);
    return "";
  case ElementKind::Complex: {
    Type part = cast<ComplexType>(elementType).getElementType();
    if (part.isF32())
      return "<c8";
    if (part.isF64())
      return "<c16";
    return "";
  }
  }
  return "";
}

/// The HLO element type a dtype stands for, for messages ("" if none).
static std::string hloNameOfDtype(char kind, unsigned size) {
  switch (kind) {
  case 'b':
    return size == 1 ? "pred" : "";
  case 'i':
    return "s" + std::to_string(size * 8);
  case 'u':
    return "u" + std::to_string(size * 8);
  case 'f':
    return size == 2 || size == 4 || size == 8 ? "f" + std::to_string(size * 8)
                                               : "";
  case 'c':
    return size == 8 || size == 16 ? "c" + std::to_string(size * 8) : "";
  default:
    return "";
  }
}

static std::string shapeTuple(ArrayRef<int64_t> shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      text += ", ";
    text += std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    text += ",";
  return text + ")";
}

static std::string describeFile(const NpyHeader &header) {
  std::string name = hloNameOfDtype(header.kind, header.itemSize);
  std::string text;
  if (!name.empty()) {
    text = name + "[";
    for (size_t i = 0; i < header.shape.size(); ++i)
      text += (i ? "," : "") + std::to_string(header.shape[i]);
    text += "] ";
  } else {
    text = "shape " + shapeTuple(header.shape) + " ";
  }
  return text + "(dtype '" + header.descr + "')";
}

//===----------------------------------------------------------------------===//
// Header
//===----------------------------------------------------------------------===//

/// Header text for messages: non-printable bytes as \xNN, at most 200
/// characters.
static std::string printable(StringRef text) {
  std::string out;
  for (char c : text.take_front(200)) {
    if (llvm::isPrint(c)) {
      out.push_back(c);
      continue;
    }
    out += "\\x";
    out.push_back(
        llvm::hexdigit((static_cast<unsigned char>(c) >> 4) & 15, true));
    out.push_back(llvm::hexdigit(static_cast<unsigned char>(c) & 15, true));
  }
  if (text.size() > 200)
    out += "...";
  return out;
}

namespace {
/// A cursor over the header's Python dict literal.
class DictCursor {
public:
  explicit DictCursor(StringRef text) : rest(text) {}

  void skipSpace() { rest = rest.ltrim(" \t\r\n"); }
  bool consume(StringRef token) {
    skipSpace();
    return rest.consume_front(token);
  }
  bool atEnd() {
    skipSpace();
    return rest.empty();
  }
  /// A '...' or "..." string without escapes.
  bool parseString(std::string &out) {
    skipSpace();
    if (rest.empty() || (rest[0] != '\'' && rest[0] != '"'))
      return false;
    char quote = rest[0];
    size_t end = rest.find(quote, 1);
    if (end == StringRef::npos)
      return false;
    out = rest.substr(1, end - 1).str();
    rest = rest.drop_front(end + 1);
    return true;
  }
  bool parseInt(int64_t &out) {
    skipSpace();
    size_t digits = 0;
    while (digits < rest.size() && llvm::isDigit(rest[digits]))
      ++digits;
    // 'L' is what Python 2 wrote after long integers.
    if (digits == 0 || rest.substr(0, digits).getAsInteger(10, out) || out < 0)
      return false;
    rest = rest.drop_front(digits);
    rest.consume_front("L");
    return true;
  }
  bool parseBool(bool &out) {
    if (consume("True"))
      return out = true, true;
    if (consume("False"))
      return out = false, true;
    return false;
  }
  bool parseShape(SmallVector<int64_t> &shape) {
    if (!consume("("))
      return false;
    while (!consume(")")) {
      int64_t size;
      if (!parseInt(size))
        return false;
      shape.push_back(size);
      if (!consume(",")) {
        if (!consume(")"))
          return false;
        break;
      }
    }
    return true;
  }
  StringRef remaining() const { return rest; }

private:
  StringRef rest;
};
} // namespace

FailureOr<NpyHeader> parseNpyHeader(StringRef bytes, std::string &error) {
  static const char magic[] = "\x93NUMPY";
  if (!bytes.starts_with(StringRef(magic, 6))) {
    error = "not a .npy file (no \\x93NUMPY magic)";
    return failure();
  }
  if (bytes.size() < 10) {
    error = "malformed .npy file: truncated header";
    return failure();
  }
  unsigned major = static_cast<unsigned char>(bytes[6]);
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = static_cast<unsigned char>(bytes[8]) |
                   (static_cast<unsigned char>(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) {
      error = "malformed .npy file: truncated header";
      return failure();
    }
    headerLength = 0;
    for (int i = 3; i >= 0; --i)
      headerLength =
          (headerLength << 8) | static_cast<unsigned char>(bytes[8 + i]);
    headerStart = 12;
  } else {
    error = "unsupported .npy format version " + std::to_string(major) + "." +
            std::to_string(static_cast<unsigned char>(bytes[7]));
    return failure();
  }
  if (headerStart + headerLength > bytes.size()) {
    error = "malformed .npy file: the header is longer than the file";
    return failure();
  }

  NpyHeader header;
  header.dataOffset = headerStart + headerLength;
  DictCursor cursor(bytes.substr(headerStart, headerLength));
  bool haveDescr = false, haveOrder = false, haveShape = false;
  auto malformed = [&](const std::string &what) {
    error = "malformed .npy header (" + printable(what) + "): '" +
            printable(bytes.substr(headerStart, headerLength).rtrim(" \n")) +
            "'";
    return failure();
  };
  if (!cursor.consume("{"))
    return malformed("expected '{'");
  while (!cursor.consume("}")) {
    std::string key;
    if (!cursor.parseString(key) || !cursor.consume(":"))
      return malformed("expected a key");
    if (key == "descr") {
      if (!cursor.parseString(header.descr))
        return malformed("'descr' is not a simple dtype string; structured "
                         "dtypes are not supported");
      haveDescr = true;
    } else if (key == "fortran_order") {
      if (!cursor.parseBool(header.fortranOrder))
        return malformed("'fortran_order' is not True or False");
      haveOrder = true;
    } else if (key == "shape") {
      if (!cursor.parseShape(header.shape))
        return malformed("'shape' is not a tuple of sizes");
      haveShape = true;
    } else {
      return malformed("unknown key '" + key + "'");
    }
    if (!cursor.consume(",")) {
      if (!cursor.consume("}"))
        return malformed("expected ',' or '}'");
      break;
    }
  }
  if (!haveDescr || !haveOrder || !haveShape)
    return malformed("needs 'descr', 'fortran_order' and 'shape'");

  // descr: byte order, kind, item size ("<f4", "|b1", "<V2", "<c16").
  StringRef descr = header.descr;
  if (!descr.empty() && StringRef("<>|=").contains(descr[0])) {
    header.byteOrder = descr[0] == '=' ? '<' : descr[0];
    descr = descr.drop_front();
  }
  unsigned size = 0;
  if (descr.size() < 2 || !StringRef("biufcV").contains(descr[0]) ||
      descr.drop_front().getAsInteger(10, size) || size == 0 || size > 16) {
    error = "unsupported .npy dtype '" + printable(header.descr) + "'";
    return failure();
  }
  header.kind = descr[0];
  header.itemSize = size;
  return header;
}

//===----------------------------------------------------------------------===//
// Elements
//===----------------------------------------------------------------------===//

/// The first `size` bytes at `p` as an unsigned integer of that byte order.
static uint64_t loadRaw(const char *p, unsigned size, bool bigEndian) {
  uint64_t value = 0;
  for (unsigned i = 0; i < size; ++i) {
    unsigned byte = bigEndian ? i : size - 1 - i;
    value = (value << 8) | static_cast<unsigned char>(p[byte]);
  }
  return value;
}

static void storeRaw(std::string &out, uint64_t value, unsigned size) {
  for (unsigned i = 0; i < size; ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

static double bitsToDouble(uint64_t bits, const llvm::fltSemantics &sem) {
  unsigned width = llvm::APFloat::getSizeInBits(sem);
  llvm::APFloat value(
      sem, llvm::APInt(width, bits & llvm::maskTrailingOnes<uint64_t>(width)));
  bool losesInfo;
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToDouble();
}

static uint64_t doubleToBits(double v, const llvm::fltSemantics &sem) {
  llvm::APFloat value(v);
  bool losesInfo;
  value.convert(sem, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return value.bitcastToAPInt().getZExtValue();
}

/// A native IEEE value of `size` bytes (2, 4, 8) from its bits.
static double nativeToDouble(uint64_t bits, unsigned size) {
  if (size == 4) {
    uint32_t word = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &word, 4);
    return f;
  }
  if (size == 8) {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  return bitsToDouble(bits, llvm::APFloat::IEEEhalf());
}

static uint64_t doubleToNative(double v, unsigned size) {
  if (size == 4) {
    float f = static_cast<float>(v);
    uint32_t word;
    std::memcpy(&word, &f, 4);
    return word;
  }
  if (size == 8) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    return bits;
  }
  return doubleToBits(v, llvm::APFloat::IEEEhalf());
}

namespace {
/// How the elements of a file are read into an element type.
enum class Decode {
  Bool,
  SignedInt,
  UnsignedInt,
  RawInt,
  NativeFloat,
  RawFloat,
  Complex
};
} // namespace

/// Whether the file's dtype carries `elementType`, and how.
static std::optional<Decode> decodingFor(const NpyHeader &header,
                                         Type elementType) {
  char kind = header.kind;
  unsigned size = header.itemSize;
  switch (getElementKind(elementType)) {
  case ElementKind::Pred:
    if (kind == 'b' && size == 1)
      return Decode::Bool;
    return std::nullopt;
  case ElementKind::Signed:
  case ElementKind::Unsigned: {
    bool isSigned = getElementKind(elementType) == ElementKind::Signed;
    unsigned width = getElementBitWidth(elementType);
    unsigned bytes = width < 8 ? 1 : width / 8;
    if (kind == (isSigned ? 'i' : 'u') && size == bytes)
      return isSigned ? Decode::SignedInt : Decode::UnsignedInt;
    if (width < 8 && kind == 'V' && size == 1)
      return Decode::RawInt;
    return std::nullopt;
  }
  case ElementKind::Float: {
    if (isNativeFloat(elementType)) {
      unsigned bytes = getElementBitWidth(elementType) / 8;
      if (kind == 'f' && size == bytes)
        return Decode::NativeFloat;
      return std::nullopt;
    }
    unsigned bytes = rawFloatBytes(elementType);
    if (bytes && size == bytes && (kind == 'V' || (kind == 'f' && size == 1)))
      return Decode::RawFloat;
    return std::nullopt;
  }
  case ElementKind::Complex: {
    Type part = cast<ComplexType>(elementType).getElementType();
    if (kind == 'c' && (part.isF32() || part.isF64()) &&
        size == 2 * part.getIntOrFloatBitWidth() / 8)
      return Decode::Complex;
    return std::nullopt;
  }
  }
  return std::nullopt;
}

FailureOr<Literal> decodeNpy(StringRef bytes, RankedTensorType expected,
                             std::string &error) {
  FailureOr<NpyHeader> parsed = parseNpyHeader(bytes, error);
  if (failed(parsed))
    return failure();
  const NpyHeader &header = *parsed;
  Type elementType = expected.getElementType();
  std::optional<Decode> decode = decodingFor(header, elementType);
  if (!decode || header.shape != SmallVector<int64_t>(expected.getShape())) {
    std::string wanted = npyDescrFor(elementType);
    error = "expected " + hloShapeString(elementType, expected.getShape()) +
            (wanted.empty() ? "" : " (dtype '" + wanted + "')") + ", got " +
            describeFile(header);
    return failure();
  }

  Literal literal =
      Literal::zeros(RankedTensorType::get(expected.getShape(), elementType));
  int64_t count = literal.getNumElements();
  uint64_t needed = static_cast<uint64_t>(count) * header.itemSize;
  uint64_t available = bytes.size() - header.dataOffset;
  if (available != needed) {
    error = "malformed .npy file: shape " + shapeTuple(header.shape) +
            " of dtype '" + header.descr + "' needs " + std::to_string(needed) +
            " bytes of data, the file has " + std::to_string(available);
    return failure();
  }

  const char *data = bytes.data() + header.dataOffset;
  bool bigEndian = header.byteOrder == '>';
  unsigned size = header.itemSize;
  const llvm::fltSemantics *semantics = nullptr;
  if (*decode == Decode::RawFloat)
    semantics = &cast<FloatType>(elementType).getFloatSemantics();
  ArrayRef<int64_t> shape = expected.getShape();
  SmallVector<int64_t> index(shape.size(), 0);

  for (int64_t i = 0; i < count; ++i) {
    const char *p = data + i * size;
    // Fortran order: the file's i-th element is at the column-major index.
    int64_t to = i;
    if (header.fortranOrder && shape.size() > 1) {
      int64_t rest = i;
      for (size_t d = 0; d < shape.size(); ++d) {
        index[d] = rest % shape[d];
        rest /= shape[d];
      }
      to = literal.linearize(index);
    }
    switch (*decode) {
    case Decode::Bool:
      literal.setInt(to, p[0] != 0);
      break;
    case Decode::SignedInt: {
      uint64_t raw = loadRaw(p, size, bigEndian);
      literal.setInt(to, llvm::SignExtend64(raw, size * 8));
      break;
    }
    case Decode::UnsignedInt:
    case Decode::RawInt:
      literal.setInt(to, static_cast<int64_t>(loadRaw(p, size, bigEndian)));
      break;
    case Decode::NativeFloat:
      literal.setFloat(to, nativeToDouble(loadRaw(p, size, bigEndian), size));
      break;
    case Decode::RawFloat:
      literal.setFloat(to,
                       bitsToDouble(loadRaw(p, size, bigEndian), *semantics));
      break;
    case Decode::Complex: {
      unsigned half = size / 2;
      double re = nativeToDouble(loadRaw(p, half, bigEndian), half);
      double im = nativeToDouble(loadRaw(p + half, half, bigEndian), half);
      literal.setComplex(to, {re, im});
      break;
    }
    }
  }
  return literal;
}

FailureOr<Literal> readNpy(StringRef path, RankedTensorType expected,
                           std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error = "cannot read: " + buffer.getError().message();
    return failure();
  }
  return decodeNpy((*buffer)->getBuffer(), expected, error);
}

FailureOr<std::string> encodeNpy(const Literal &literal, std::string &error) {
  if (!literal.isArray()) {
    error = literal.isTuple() ? "a tuple has no .npy form"
                              : "a token has no .npy form";
    return failure();
  }
  Type elementType = literal.getElementType();
  std::string descr = npyDescrFor(elementType);
  if (descr.empty()) {
    std::string name = hloShapeString(elementType, {});
    error = "no .npy dtype for element type " + name.substr(0, name.find('['));
    return failure();
  }

  std::string dict =
      "{'descr': '" + descr +
      "', 'fortran_order': False, 'shape': " + shapeTuple(literal.getShape()) +
      ", }";
  // Pad with spaces so that the data starts at a multiple of 64 bytes; the
  // header ends with '\n'.
  bool version2 = dict.size() + 1 + 10 > 65535;
  size_t prefix = version2 ? 12 : 10;
  size_t total = prefix + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict.push_back('\n');

  std::string out("\x93NUMPY", 6);
  out.push_back(version2 ? 2 : 1);
  out.push_back(0);
  storeRaw(out, dict.size(), version2 ? 4 : 2);
  out += dict;

  int64_t count = literal.getNumElements();
  ElementKind kind = getElementKind(elementType);
  // descr is "<kN" or "|kN": N bytes per element.
  unsigned size = static_cast<unsigned>(std::stoi(descr.substr(2)));
  out.reserve(out.size() + count * size);
  const llvm::fltSemantics *semantics = nullptr;
  if (kind == ElementKind::Float && !isNativeFloat(elementType))
    semantics = &cast<FloatType>(elementType).getFloatSemantics();
  for (int64_t i = 0; i < count; ++i) {
    switch (kind) {
    case ElementKind::Pred:
      out.push_back(literal.getInt(i) != 0 ? 1 : 0);
      break;
    case ElementKind::Signed:
    case ElementKind::Unsigned:
      storeRaw(out, static_cast<uint64_t>(literal.getInt(i)), size);
      break;
    case ElementKind::Float:
      if (semantics)
        storeRaw(out, doubleToBits(literal.getFloat(i), *semantics), size);
      else
        storeRaw(out, doubleToNative(literal.getFloat(i), size), size);
      break;
    case ElementKind::Complex: {
      std::complex<double> value = literal.getComplex(i);
      storeRaw(out, doubleToNative(value.real(), size / 2), size / 2);
      storeRaw(out, doubleToNative(value.imag(), size / 2), size / 2);
      break;
    }
    }
  }
  return out;
}

LogicalResult writeNpy(StringRef path, const Literal &literal,
                       std::string &error) {
  FailureOr<std::string> bytes = encodeNpy(literal, error);
  if (failed(bytes))
    return failure();
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    error = "cannot write: " + ec.message();
    return failure();
  }
  os << *bytes;
  os.close();
  if (os.has_error()) {
    error = "cannot write: " + os.error().message();
    os.clear_error();
    return failure();
  }
  return success();
}

} // namespace hlo_run
