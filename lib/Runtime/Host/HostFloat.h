//===- HostFloat.h - 16-bit floats of the host runtime ----------*- C++ -*-===//
//
// Private to lib/Runtime/Host: f16 and bf16 widened to f32 and rounded back
// to nearest even, and a reader/writer of f16, bf16 and f32 elements as
// floats (the library thunks compute 16-bit floats in f32).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_RUNTIME_HOST_HOSTFLOAT_H
#define HLO_LIB_RUNTIME_HOST_HOSTFLOAT_H

#include "mlir/IR/BuiltinTypes.h"

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

/// An f8e4m3fn (`e4m3`: 4 exponent bits, bias 7, no infinities, NaN
/// 0x7f) or f8e5m2 (5 exponent bits, bias 15, IEEE infinities) byte as a
/// float.
inline float fp8ToFloat(uint8_t b, bool e4m3) {
  int mantissaBits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  int exponent = (b & 0x7f) >> mantissaBits;
  int mantissa = b & ((1 << mantissaBits) - 1);
  float sign = (b & 0x80) ? -1.0f : 1.0f;
  if (e4m3 && (b & 0x7f) == 0x7f)
    return std::nanf("");
  if (!e4m3 && exponent == 31)
    return mantissa ? std::nanf("") : sign * INFINITY;
  if (exponent == 0)
    return sign * std::ldexp(float(mantissa), 1 - bias - mantissaBits);
  return sign * std::ldexp(float(mantissa + (1 << mantissaBits)),
                           exponent - bias - mantissaBits);
}

/// `f` rounded to nearest even as f8e4m3fn or f8e5m2, saturated to the
/// largest finite value (448, 57344) as cuBLASLt's fp8 outputs are.
inline uint8_t floatToFp8(float f, bool e4m3) {
  if (std::isnan(f))
    return e4m3 ? 0x7f : 0x7e;
  int mantissaBits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  float max = e4m3 ? 448.0f : 57344.0f;
  uint8_t sign = std::signbit(f) ? 0x80 : 0;
  float a = std::fmin(std::fabs(f), max);
  if (a == 0)
    return sign;
  int exponent;
  std::frexp(a, &exponent); // a = m 2^exponent, m in [0.5, 1)
  exponent -= 1;            // a = m' 2^exponent, m' in [1, 2)
  int minExponent = 1 - bias;
  if (exponent < minExponent) // subnormal: a multiple of the smallest one
    return sign |
           uint8_t(std::nearbyint(std::ldexp(a, mantissaBits - minExponent)));
  int q = int(std::nearbyint(std::ldexp(a, mantissaBits - exponent)));
  if (q == 2 << mantissaBits) {
    q >>= 1;
    ++exponent;
  }
  return sign | uint8_t((exponent + bias) << mantissaBits) |
         uint8_t(q - (1 << mantissaBits));
}

/// Loads and stores f32, f16, bf16, f8e4m3fn and f8e5m2 elements as float
/// (narrower types widened; fp8 stores saturate); the type is decided
/// once, at construction.
struct FloatCodec {
  enum Kind : uint8_t { F32, F16, BF16, F8E4M3FN, F8E5M2 };
  explicit FloatCodec(Type type)
      : kind(type.isF32()                  ? F32
             : type.isF16()                ? F16
             : isa<Float8E4M3FNType>(type) ? F8E4M3FN
             : isa<Float8E5M2Type>(type)   ? F8E5M2
                                           : BF16) {}
  Kind kind;

  float load(const uint8_t *base, int64_t i) const {
    if (kind == F32) {
      float f;
      std::memcpy(&f, base + 4 * i, 4);
      return f;
    }
    if (kind == F8E4M3FN || kind == F8E5M2)
      return fp8ToFloat(base[i], kind == F8E4M3FN);
    uint16_t h;
    std::memcpy(&h, base + 2 * i, 2);
    return kind == F16 ? halfToFloat(h) : bf16ToFloat(h);
  }
  void store(uint8_t *base, int64_t i, float f) const {
    if (kind == F32) {
      std::memcpy(base + 4 * i, &f, 4);
      return;
    }
    if (kind == F8E4M3FN || kind == F8E5M2) {
      base[i] = floatToFp8(f, kind == F8E4M3FN);
      return;
    }
    uint16_t h = kind == F16 ? floatToHalf(f) : floatToBf16(f);
    std::memcpy(base + 2 * i, &h, 2);
  }
};

} // namespace mlir::thunk

#endif // HLO_LIB_RUNTIME_HOST_HOSTFLOAT_H
