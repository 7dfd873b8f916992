//===- HostFloat.h - 16-bit floats of the host runtime ----------*- C++ -*-===//
//
// Private to lib/Runtime/Host: f16 and bf16 widened to f32 and rounded back
// to nearest even, and a reader/writer of f16, bf16 and f32 elements as
// floats (the library thunks compute 16-bit floats in f32).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_RUNTIME_HOST_HOSTFLOAT_H
#define HLO_LIB_RUNTIME_HOST_HOSTFLOAT_H

#include "mlir/IR/Types.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace mlir::thunk {

inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  int32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000 | (mantissa << 13);
  } else if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {
      // A subnormal half is a normal float.
      float value = std::ldexp(float(mantissa), -24);
      std::memcpy(&bits, &value, 4);
      bits |= sign;
    }
  } else {
    bits = sign | uint32_t(exponent - 15 + 127) << 23 | mantissa << 13;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline uint16_t floatToHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint16_t sign = (bits >> 16) & 0x8000;
  if (std::isnan(f))
    return sign | 0x7e00;
  float a = std::fabs(f);
  if (a >= 65520.0f) // rounds to infinity
    return sign | 0x7c00;
  if (a < std::ldexp(1.0f, -14)) {
    // Subnormal or zero: a multiple of 2^-24, rounded to nearest even.
    return sign | uint16_t(std::nearbyint(std::ldexp(a, 24)));
  }
  uint32_t abits = bits & 0x7fffffff;
  // Round the 23-bit mantissa to 10 bits, to nearest even.
  uint32_t rounded = abits + 0xfff + ((abits >> 13) & 1);
  return sign | uint16_t(((rounded >> 13) - ((127 - 15) << 10)) & 0x7fff);
}

inline float bf16ToFloat(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline uint16_t floatToBf16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (std::isnan(f))
    return uint16_t((bits >> 16) | 0x40);
  return uint16_t((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}

/// Loads and stores f32, f16 and bf16 elements as float (16-bit types
/// widened); the type is decided once, at construction.
struct FloatCodec {
  enum Kind : uint8_t { F32, F16, BF16 };
  explicit FloatCodec(Type type)
      : kind(type.isF32()   ? F32
             : type.isF16() ? F16
                            : BF16) {}
  Kind kind;

  float load(const uint8_t *base, int64_t i) const {
    if (kind == F32) {
      float f;
      std::memcpy(&f, base + 4 * i, 4);
      return f;
    }
    uint16_t h;
    std::memcpy(&h, base + 2 * i, 2);
    return kind == F16 ? halfToFloat(h) : bf16ToFloat(h);
  }
  void store(uint8_t *base, int64_t i, float f) const {
    if (kind == F32) {
      std::memcpy(base + 4 * i, &f, 4);
      return;
    }
    uint16_t h = kind == F16 ? floatToHalf(f) : floatToBf16(f);
    std::memcpy(base + 2 * i, &h, 2);
  }
};

} // namespace mlir::thunk

#endif // HLO_LIB_RUNTIME_HOST_HOSTFLOAT_H
