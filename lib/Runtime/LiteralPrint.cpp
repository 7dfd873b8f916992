//===- LiteralPrint.cpp - HLO literal text of a Literal -------------------===//
//
// `f32[2,2] {{19, 22}, {43, 50}}`, `pred[] true`, `(f32[], s32[2]) (1, {2,
// 3})`: the shape without layout, a space, then the value with one brace
// level per dimension. Floats are spelled as XLA spells them.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Runtime/Literal.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace mlir::hlo::runtime;

std::string mlir::hlo::runtime::getElementTypeName(Type t) {
  if (auto it = dyn_cast<IntegerType>(t)) {
    if (it.getWidth() == 1 && it.isSignless())
      return "pred";
    return (it.isUnsigned() ? "u" : "s") + std::to_string(it.getWidth());
  }
  if (auto ct = dyn_cast<ComplexType>(t))
    return ct.getElementType().isF64() ? "c128" : "c64";
  if (t.isF16())
    return "f16";
  if (t.isBF16())
    return "bf16";
  if (t.isF32())
    return "f32";
  if (t.isF64())
    return "f64";
  if (t.isTF32())
    return "tf32";
  if (isa<FloatType>(t)) {
    // MLIR spells the narrow floats `f8E4M3FN`, HLO `f8e4m3fn`.
    std::string name;
    llvm::raw_string_ostream os(name);
    t.print(os);
    for (char &c : name)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return name;
  }
  std::string name;
  llvm::raw_string_ostream os(name);
  t.print(os);
  return name;
}

/// std::numeric_limits<T>::digits10 and max_digits10 for the semantics.
static std::pair<int, int> decimalDigits(const llvm::fltSemantics &sem) {
  int p = static_cast<int>(llvm::APFloat::semanticsPrecision(sem));
  double log2 = std::log10(2.0);
  int digits10 = static_cast<int>(std::floor((p - 1) * log2));
  int maxDigits10 = static_cast<int>(std::ceil(p * log2 + 1));
  return {digits10, maxDigits10};
}

static std::string printG(int precision, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", precision, v);
  return buf;
}

std::string mlir::hlo::runtime::formatFloat(double v, Type type) {
  if (std::isnan(v))
    return std::signbit(v) ? "-nan" : "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  auto [digits10, maxDigits10] =
      decimalDigits(cast<FloatType>(type).getFloatSemantics());
  if (type.isF32() || type.isF64()) {
    std::string s = printG(digits10, v);
    if (roundToFloatType(std::strtod(s.c_str(), nullptr), type) == v)
      return s;
  }
  return printG(maxDigits10, v);
}

void Literal::printShape(llvm::raw_ostream &os) const {
  switch (kind) {
  case Kind::Array:
    os << getElementTypeName(elementType) << '[';
    llvm::interleave(shape, os, ",");
    os << ']';
    return;
  case Kind::Tuple:
    os << '(';
    llvm::interleave(
        elements, os, [&](const Literal &e) { e.printShape(os); }, ", ");
    os << ')';
    return;
  case Kind::Token:
    os << "token[]";
    return;
  case Kind::Opaque:
    os << "opaque[]";
    return;
  }
}

void Literal::printValue(llvm::raw_ostream &os) const {
  switch (kind) {
  case Kind::Tuple:
    os << '(';
    llvm::interleave(
        elements, os, [&](const Literal &e) { e.printValue(os); }, ", ");
    os << ')';
    return;
  case Kind::Token:
    os << "token";
    return;
  case Kind::Opaque:
    os << "opaque";
    return;
  case Kind::Array:
    break;
  }
  auto printElement = [&](int64_t i) {
    switch (elementKind) {
    case ElementKind::Pred:
      os << (ints[i] ? "true" : "false");
      break;
    case ElementKind::Signed:
      os << ints[i];
      break;
    case ElementKind::Unsigned:
      os << static_cast<uint64_t>(ints[i]);
      break;
    case ElementKind::Float:
      os << formatFloat(real(i), elementType);
      break;
    case ElementKind::Complex:
      os << '(' << formatFloat(real(2 * i), componentType) << ", "
         << formatFloat(real(2 * i + 1), componentType) << ')';
      break;
    }
  };
  // Walk dimension by dimension; `linear` advances over the elements.
  int64_t linear = 0;
  std::function<void(unsigned)> level = [&](unsigned dim) {
    if (dim == shape.size()) {
      printElement(linear++);
      return;
    }
    os << '{';
    for (int64_t i = 0; i < shape[dim]; ++i) {
      if (i)
        os << ", ";
      level(dim + 1);
    }
    os << '}';
  };
  level(0);
}

void Literal::print(llvm::raw_ostream &os) const {
  printShape(os);
  os << ' ';
  printValue(os);
}

std::string Literal::toString() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}
