//===- InterpreterTest.cpp - reference interpreter
//--------------------------===//
//
// Literal printing, element types and rounding, elementwise ops, data
// movement and errors. Expected values come from HLO semantics worked out
// by hand (rounded values from the formats' definitions).
//
//===----------------------------------------------------------------------===//

#include "InterpreterTestUtil.h"

using namespace interpreter_test;

namespace {

//===----------------------------------------------------------------------===//
// Literals and printing.
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, PrintArrays) {
  EXPECT_EQ(runBody("ROOT c = f32[2,2] constant({{19, 22}, {43, 50}})"),
            "f32[2,2] {{19, 22}, {43, 50}}");
  EXPECT_EQ(runBody("ROOT c = pred[] constant(true)"), "pred[] true");
  EXPECT_EQ(runBody("ROOT c = pred[3] constant({1, 0, 1})"),
            "pred[3] {true, false, true}");
  EXPECT_EQ(runBody("ROOT c = s32[3] constant({1, 2, 3})"), "s32[3] {1, 2, 3}");
  EXPECT_EQ(runBody("ROOT c = f32[2,0] constant({{}, {}})"),
            "f32[2,0] {{}, {}}");
  EXPECT_EQ(runBody("ROOT c = u64[2] constant({18446744073709551615, 0})"),
            "u64[2] {18446744073709551615, 0}");
  EXPECT_EQ(runBody("ROOT c = s4[3] constant({-8, 7, 0})"), "s4[3] {-8, 7, 0}");
}

TEST_F(InterpreterTest, PrintTuplesAndComplex) {
  EXPECT_EQ(runBody("ROOT c = (f32[], s32[2]) constant((1, {2, 3}))"),
            "(f32[], s32[2]) (1, {2, 3})");
  EXPECT_EQ(runBody("ROOT c = c64[2] constant({(1, 2), (-0.5, inf)})"),
            "c64[2] {(1, 2), (-0.5, inf)}");
  EXPECT_EQ(runBody("a = f32[] constant(1)\nb = (f32[], (s8[], pred[])) "
                    "tuple(a, t)\nt = (s8[], pred[]) tuple(x, y)\n"
                    "x = s8[] constant(-3)\ny = pred[] constant(false)\n"
                    "ROOT r = ((f32[], (s8[], pred[])), token[]) tuple(b, k)\n"
                    "k = token[] after-all()"),
            "((f32[], (s8[], pred[])), token[]) ((1, (-3, false)), token)");
}

TEST_F(InterpreterTest, PrintFloatsLikeXla) {
  // f32/f64: %.{digits10}g when it reads back, else %.{max_digits10}g.
  EXPECT_EQ(runBody("ROOT c = f32[8] constant({1, 0.5, 0.1, 1e6, 123456789, "
                    "1e-5, -0, 0.33333334})"),
            "f32[8] {1, 0.5, 0.1, 1e+06, 123456792, 1e-05, -0, 0.333333343}");
  EXPECT_EQ(runBody("ROOT c = f32[4] constant({inf, -inf, nan, -nan})"),
            "f32[4] {inf, -inf, nan, -nan}");
  EXPECT_EQ(runBody("ROOT c = f64[3] constant({0.1, 0.3333333333333333, "
                    "1e100})"),
            "f64[3] {0.1, 0.33333333333333331, 1e+100}");
  // Narrow types: %.{max_digits10}g of the rounded value.
  EXPECT_EQ(runBody("ROOT c = bf16[4] constant({0.1, 100, 3.14159, 1e6})"),
            "bf16[4] {0.1001, 100, 3.141, 9.994e+05}");
  EXPECT_EQ(runBody("ROOT c = f16[3] constant({0.1, 100, 65504})"),
            "f16[3] {0.099976, 100, 65504}");
  EXPECT_EQ(runBody("ROOT c = f8e4m3fn[4] constant({256, 16, 0.1, 448})"),
            "f8e4m3fn[4] {256, 16, 0.102, 448}");
  EXPECT_EQ(runBody("ROOT c = f8e4m3fnuz[2] constant({nan, 1})"),
            "f8e4m3fnuz[2] {-nan, 1}");
}

//===----------------------------------------------------------------------===//
// Element types and rounding.
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, ConvertToF8RoundsToNearestEven) {
  // e4m3fn: max 448, no inf (overflow is NaN); 464 ties to 448 (even).
  EXPECT_EQ(runBody("a = f32[7] constant({0.1, 448, 464, 470, -0.3, 1e-3, "
                    "0.0005859375})\n"
                    "ROOT c = f8e4m3fn[7] convert(a)"),
            "f8e4m3fn[7] {0.102, 448, 448, nan, -0.312, 0.00195, 0}");
  // e5m2: IEEE-like, max 57344; 61440 ties up to inf.
  EXPECT_EQ(runBody("a = f32[5] constant({0.1, 57344, 61440, 1e5, 1.5e-5})\n"
                    "ROOT c = f8e5m2[5] convert(a)"),
            "f8e5m2[5] {0.094, 5.7e+04, inf, inf, 1.5e-05}");
  // e4m3fnuz: max 240, NaN is the only non-finite value.
  EXPECT_EQ(runBody("a = f32[3] constant({240, 1000, -0})\n"
                    "ROOT c = f8e4m3fnuz[3] convert(a)"),
            "f8e4m3fnuz[3] {240, -nan, 0}");
  // e4m3 (IEEE): max 240, overflow to inf.
  EXPECT_EQ(runBody("a = f32[2] constant({240, 1000})\n"
                    "ROOT c = f8e4m3[2] convert(a)"),
            "f8e4m3[2] {240, inf}");
}

TEST_F(InterpreterTest, ConvertBf16F16) {
  EXPECT_EQ(runBody("a = f32[4] constant({0.1, 464, 470, -0.3})\n"
                    "ROOT c = bf16[4] convert(a)"),
            "bf16[4] {0.1001, 464, 470, -0.3008}");
  EXPECT_EQ(runBody("a = f32[4] constant({0.1, -0.3, 65504, 65520})\n"
                    "ROOT c = f16[4] convert(a)"),
            "f16[4] {0.099976, -0.30005, 65504, inf}");
  // Arithmetic rounds to the type after each op: bf16 256 + 1 = 256.
  EXPECT_EQ(runBody("a = bf16[] constant(256)\nb = bf16[] constant(1)\n"
                    "ROOT c = bf16[] add(a, b)"),
            "bf16[] 256");
}

TEST_F(InterpreterTest, ConvertFloatToInt) {
  // Truncation toward zero, saturation, NaN to 0.
  EXPECT_EQ(runBody("a = f32[6] constant({1.9, -1.9, 300, -300, nan, inf})\n"
                    "ROOT c = s8[6] convert(a)"),
            "s8[6] {1, -1, 127, -128, 0, 127}");
  EXPECT_EQ(runBody("a = f32[3] constant({-5, 1e20, 3.5})\n"
                    "ROOT c = u32[3] convert(a)"),
            "u32[3] {0, 4294967295, 3}");
  EXPECT_EQ(runBody("a = s32[3] constant({-1, 256, 257})\n"
                    "ROOT c = u8[3] convert(a)"),
            "u8[3] {255, 0, 1}");
  EXPECT_EQ(runBody("a = f32[3] constant({0, -0.5, nan})\n"
                    "ROOT c = pred[3] convert(a)"),
            "pred[3] {false, true, true}");
  EXPECT_EQ(runBody("a = s32[3] constant({-5, 7, -2147483648})\n"
                    "ROOT c = f32[3] convert(a)"),
            "f32[3] {-5, 7, -2.14748365e+09}");
  EXPECT_EQ(runBody("a = s8[2] constant({-128, 127})\n"
                    "ROOT c = bf16[2] convert(a)"),
            "bf16[2] {-128, 127}");
  EXPECT_EQ(runBody("a = s64[2] constant({-9223372036854775807, "
                    "9007199254740993})\n"
                    "ROOT c = f64[2] convert(a)"),
            "f64[2] {-9.2233720368547758e+18, 9007199254740992}");
  // u64 max to f32 rounds once to 2^64.
  EXPECT_EQ(runBody("a = u64[] constant(18446744073709551615)\n"
                    "ROOT c = f32[] convert(a)"),
            "f32[] 1.84467441e+19");
}

TEST_F(InterpreterTest, IntegerWraparound) {
  EXPECT_EQ(runBody("a = s8[2] constant({127, -128})\n"
                    "b = s8[2] constant({1, -1})\nROOT c = s8[2] add(a, b)"),
            "s8[2] {-128, 127}");
  EXPECT_EQ(runBody("a = u8[2] constant({255, 0})\n"
                    "b = u8[2] constant({1, 1})\nROOT c = u8[2] add(a, b)"),
            "u8[2] {0, 1}");
  EXPECT_EQ(runBody("a = u8[] constant(0)\nb = u8[] constant(1)\n"
                    "ROOT c = u8[] subtract(a, b)"),
            "u8[] 255");
  EXPECT_EQ(runBody("a = u64[] constant(18446744073709551615)\n"
                    "b = u64[] constant(2)\nROOT c = u64[] multiply(a, b)"),
            "u64[] 18446744073709551614");
  EXPECT_EQ(runBody("a = s64[] constant(-9223372036854775808)\n"
                    "ROOT c = s64[] negate(a)"),
            "s64[] -9223372036854775808");
  EXPECT_EQ(runBody("a = s32[] constant(-2147483648)\nROOT c = s32[] abs(a)"),
            "s32[] -2147483648");
  EXPECT_EQ(runBody("a = s4[2] constant({7, -8})\nb = s4[2] constant({1, -1})\n"
                    "ROOT c = s4[2] add(a, b)"),
            "s4[2] {-8, 7}");
}

TEST_F(InterpreterTest, IntegerDivisionByZeroAndOverflow) {
  EXPECT_EQ(runBody("a = s32[4] constant({7, -7, -2147483648, -7})\n"
                    "b = s32[4] constant({0, 0, -1, 2})\n"
                    "ROOT c = s32[4] divide(a, b)"),
            "s32[4] {-1, -1, -2147483648, -3}");
  EXPECT_EQ(runBody("a = s32[4] constant({7, -7, -2147483648, -7})\n"
                    "b = s32[4] constant({0, 0, -1, 2})\n"
                    "ROOT c = s32[4] remainder(a, b)"),
            "s32[4] {7, -7, 0, -1}");
  EXPECT_EQ(runBody("a = u32[2] constant({7, 7})\nb = u32[2] constant({0, 2})\n"
                    "ROOT c = u32[2] divide(a, b)"),
            "u32[2] {4294967295, 3}");
  EXPECT_EQ(runBody("a = u32[2] constant({7, 7})\nb = u32[2] constant({0, 2})\n"
                    "ROOT c = u32[2] remainder(a, b)"),
            "u32[2] {7, 1}");
  EXPECT_EQ(runBody("a = u64[] constant(18446744073709551615)\n"
                    "b = u64[] constant(10)\nROOT c = u64[] divide(a, b)"),
            "u64[] 1844674407370955161");
}

TEST_F(InterpreterTest, Shifts) {
  EXPECT_EQ(runBody("a = s32[5] constant({1, 1, -8, 1, 3})\n"
                    "b = s32[5] constant({31, 32, 1, -1, 0})\n"
                    "ROOT c = s32[5] shift-left(a, b)"),
            "s32[5] {-2147483648, 0, -16, 0, 3}");
  EXPECT_EQ(runBody("a = s32[4] constant({-8, -8, 8, -8})\n"
                    "b = s32[4] constant({1, 40, 40, -3})\n"
                    "ROOT c = s32[4] shift-right-arithmetic(a, b)"),
            "s32[4] {-4, -1, 0, -1}");
  EXPECT_EQ(runBody("a = s32[3] constant({-8, -8, 8})\n"
                    "b = s32[3] constant({1, 40, 2})\n"
                    "ROOT c = s32[3] shift-right-logical(a, b)"),
            "s32[3] {2147483644, 0, 2}");
  EXPECT_EQ(runBody("a = u8[2] constant({128, 255})\n"
                    "b = u8[2] constant({1, 8})\n"
                    "ROOT c = u8[2] shift-right-arithmetic(a, b)"),
            "u8[2] {192, 255}");
}

TEST_F(InterpreterTest, IntegerBitOps) {
  EXPECT_EQ(runBody("a = s32[3] constant({0, 1, -1})\n"
                    "ROOT c = s32[3] count-leading-zeros(a)"),
            "s32[3] {32, 31, 0}");
  EXPECT_EQ(runBody("a = u8[3] constant({0, 255, 6})\n"
                    "ROOT c = u8[3] popcnt(a)"),
            "u8[3] {0, 8, 2}");
  EXPECT_EQ(runBody("a = s8[2] constant({5, -1})\nROOT c = s8[2] not(a)"),
            "s8[2] {-6, 0}");
  EXPECT_EQ(runBody("a = pred[2] constant({1, 0})\nROOT c = pred[2] not(a)"),
            "pred[2] {false, true}");
  EXPECT_EQ(runBody("a = s32[4] constant({2, -1, 2, 5})\n"
                    "b = s32[4] constant({10, 3, -1, 0})\n"
                    "ROOT c = s32[4] power(a, b)"),
            "s32[4] {1024, -1, 0, 1}");
  // Negative exponents: 1 for base 1, else 0 (base -1 too, as XLA).
  EXPECT_EQ(runBody("a = s32[3] constant({1, -1, -2})\n"
                    "b = s32[3] constant({-3, -1, -1})\n"
                    "ROOT c = s32[3] power(a, b)"),
            "s32[3] {1, 0, 0}");
  EXPECT_EQ(runBody("a = s32[2] constant({-2, 65536})\n"
                    "b = s32[2] constant({3, 65536})\n"
                    "ROOT c = s32[2] mulhi(a, b)"),
            "s32[2] {-1, 1}");
}

//===----------------------------------------------------------------------===//
// Elementwise floats and complex.
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, FloatElementwise) {
  EXPECT_EQ(runBody("a = f32[4] constant({1, -2.5, 4, nan})\n"
                    "b = f32[4] constant({2, 0.5, -0, 1})\n"
                    "ROOT c = f32[4] maximum(a, b)"),
            "f32[4] {2, 0.5, 4, nan}");
  EXPECT_EQ(runBody("a = f32[5] constant({0.5, 1.5, 2.5, -0.5, -2.5})\n"
                    "ROOT c = f32[5] round-nearest-even(a)"),
            "f32[5] {0, 2, 2, -0, -2}");
  EXPECT_EQ(runBody("a = f32[5] constant({0.5, 1.5, 2.5, -0.5, -2.5})\n"
                    "ROOT c = f32[5] round-nearest-afz(a)"),
            "f32[5] {1, 2, 3, -1, -3}");
  EXPECT_EQ(runBody("a = f32[4] constant({-3, 0, -0, nan})\n"
                    "ROOT c = f32[4] sign(a)"),
            "f32[4] {-1, 0, -0, nan}");
  EXPECT_EQ(runBody("a = f32[3] constant({4, 0, 2})\nROOT c = f32[3] sqrt(a)"),
            "f32[3] {2, 0, 1.41421354}");
  EXPECT_EQ(runBody("a = f32[3] constant({27, -8, 0})\n"
                    "ROOT c = f32[3] cbrt(a)"),
            "f32[3] {3, -2, 0}");
  EXPECT_EQ(runBody("a = f32[2] constant({0, 1})\nROOT c = f32[2] logistic(a)"),
            "f32[2] {0.5, 0.731058598}");
  EXPECT_EQ(runBody("a = f32[2] constant({7.5, -7.5})\n"
                    "b = f32[2] constant({2, 2})\n"
                    "ROOT c = f32[2] remainder(a, b)"),
            "f32[2] {1.5, -1.5}");
  EXPECT_EQ(runBody("a = f32[3] constant({1, inf, nan})\n"
                    "ROOT c = pred[3] is-finite(a)"),
            "pred[3] {true, false, false}");
}

TEST_F(InterpreterTest, ComplexElementwise) {
  EXPECT_EQ(runBody("a = c64[2] constant({(1, 2), (3, -1)})\n"
                    "b = c64[2] constant({(3, 4), (0, 1)})\n"
                    "ROOT c = c64[2] multiply(a, b)"),
            "c64[2] {(-5, 10), (1, 3)}");
  EXPECT_EQ(runBody("a = c128[] constant((3, 4))\nROOT c = f64[] abs(a)"),
            "f64[] 5");
  EXPECT_EQ(runBody("a = f32[2] constant({1, 2})\nb = f32[2] constant({3, 4})\n"
                    "ROOT c = c64[2] complex(a, b)"),
            "c64[2] {(1, 3), (2, 4)}");
  EXPECT_EQ(runBody("a = c64[] constant((1, 2))\nROOT c = f32[] imag(a)"),
            "f32[] 2");
}

TEST_F(InterpreterTest, CompareSelectClamp) {
  EXPECT_EQ(runBody("a = f32[4] constant({1, nan, -0, 2})\n"
                    "b = f32[4] constant({1, nan, 0, 1})\n"
                    "ROOT c = pred[4] compare(a, b), direction=EQ"),
            "pred[4] {true, false, true, false}");
  EXPECT_EQ(runBody("a = f32[4] constant({1, nan, -0, -nan})\n"
                    "b = f32[4] constant({1, nan, 0, -inf})\n"
                    "ROOT c = pred[4] compare(a, b), direction=LT, "
                    "type=TOTALORDER"),
            "pred[4] {false, false, true, true}");
  EXPECT_EQ(runBody("a = u32[2] constant({1, 4294967295})\n"
                    "b = u32[2] constant({2, 0})\n"
                    "ROOT c = pred[2] compare(a, b), direction=GT"),
            "pred[2] {false, true}");
  EXPECT_EQ(runBody("p = pred[3] constant({1, 0, 1})\n"
                    "a = s32[3] constant({1, 2, 3})\n"
                    "b = s32[3] constant({4, 5, 6})\n"
                    "ROOT c = s32[3] select(p, a, b)"),
            "s32[3] {1, 5, 3}");
  EXPECT_EQ(runBody("p = pred[] constant(false)\n"
                    "a = s32[2] constant({1, 2})\nb = s32[2] constant({4, 5})\n"
                    "ROOT c = s32[2] select(p, a, b)"),
            "s32[2] {4, 5}");
  EXPECT_EQ(runBody("lo = f32[] constant(0)\nhi = f32[] constant(1)\n"
                    "x = f32[4] constant({-1, 0.5, 2, nan})\n"
                    "ROOT c = f32[4] clamp(lo, x, hi)"),
            "f32[4] {0, 0.5, 1, nan}");
}

TEST_F(InterpreterTest, BitcastConvertAndReducePrecision) {
  EXPECT_EQ(runBody("a = f32[2] constant({1, -2})\n"
                    "ROOT c = u32[2] bitcast-convert(a)"),
            "u32[2] {1065353216, 3221225472}");
  // Smaller type: a new minor dimension, little-endian.
  EXPECT_EQ(runBody("a = u32[] constant(67305985)\n"
                    "ROOT c = u8[4] bitcast-convert(a)"),
            "u8[4] {1, 2, 3, 4}");
  EXPECT_EQ(runBody("a = u8[2,2] constant({{0, 60}, {0, 192}})\n"
                    "ROOT c = f16[2] bitcast-convert(a)"),
            "f16[2] {1, -2}");
  // To bf16 precision (8 exponent, 7 mantissa bits) inside f32.
  EXPECT_EQ(runBody("a = f32[3] constant({0.1, 1e-39, 3.4e38})\n"
                    "ROOT c = f32[3] reduce-precision(a), exponent_bits=5, "
                    "mantissa_bits=10"),
            "f32[3] {0.0999755859, 0, inf}");
}

//===----------------------------------------------------------------------===//
// Shapes.
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, BroadcastReshapeTranspose) {
  EXPECT_EQ(runBody("a = s32[2] constant({1, 2})\n"
                    "ROOT c = s32[2,3] broadcast(a), dimensions={0}"),
            "s32[2,3] {{1, 1, 1}, {2, 2, 2}}");
  EXPECT_EQ(runBody("a = s32[3] constant({1, 2, 3})\n"
                    "ROOT c = s32[2,3] broadcast(a), dimensions={1}"),
            "s32[2,3] {{1, 2, 3}, {1, 2, 3}}");
  EXPECT_EQ(runBody("a = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
                    "ROOT c = s32[3,2] reshape(a)"),
            "s32[3,2] {{1, 2}, {3, 4}, {5, 6}}");
  EXPECT_EQ(runBody("a = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
                    "ROOT c = s32[3,2] transpose(a), dimensions={1,0}"),
            "s32[3,2] {{1, 4}, {2, 5}, {3, 6}}");
  EXPECT_EQ(runBody("a = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
                    "ROOT c = s32[2,3] reverse(a), dimensions={1}"),
            "s32[2,3] {{3, 2, 1}, {6, 5, 4}}");
}

TEST_F(InterpreterTest, SliceConcatenateIota) {
  EXPECT_EQ(runBody("a = s32[2,4] constant({{1, 2, 3, 4}, {5, 6, 7, 8}})\n"
                    "ROOT c = s32[2,2] slice(a), slice={[0:2], [1:4:2]}"),
            "s32[2,2] {{2, 4}, {6, 8}}");
  EXPECT_EQ(runBody("a = s32[1,2] constant({{1, 2}})\n"
                    "b = s32[1,1] constant({{3}})\n"
                    "ROOT c = s32[1,3] concatenate(a, b), dimensions={1}"),
            "s32[1,3] {{1, 2, 3}}");
  EXPECT_EQ(runBody("ROOT c = f32[2,3] iota(), iota_dimension=1"),
            "f32[2,3] {{0, 1, 2}, {0, 1, 2}}");
}

TEST_F(InterpreterTest, Pad) {
  EXPECT_EQ(runBody("a = s32[3] constant({1, 2, 3})\nz = s32[] constant(0)\n"
                    "ROOT c = s32[8] pad(a, z), padding=1_2_1"),
            "s32[8] {0, 1, 0, 2, 0, 3, 0, 0}");
  // Negative padding removes elements.
  EXPECT_EQ(runBody("a = s32[4] constant({1, 2, 3, 4})\nz = s32[] constant(9)\n"
                    "ROOT c = s32[3] pad(a, z), padding=-2_1"),
            "s32[3] {3, 4, 9}");
  EXPECT_EQ(runBody("a = s32[2,2] constant({{1, 2}, {3, 4}})\n"
                    "z = s32[] constant(0)\n"
                    "ROOT c = s32[3,3] pad(a, z), padding=0_0_1x1_0"),
            "s32[3,3] {{0, 1, 2}, {0, 0, 0}, {0, 3, 4}}");
}

TEST_F(InterpreterTest, DynamicSliceClampsIndices) {
  EXPECT_EQ(runBody("a = s32[5] constant({1, 2, 3, 4, 5})\n"
                    "i = s32[] constant(4)\n"
                    "ROOT c = s32[2] dynamic-slice(a, i), "
                    "dynamic_slice_sizes={2}"),
            "s32[2] {4, 5}");
  EXPECT_EQ(runBody("a = s32[5] constant({1, 2, 3, 4, 5})\n"
                    "i = s32[] constant(-3)\n"
                    "ROOT c = s32[2] dynamic-slice(a, i), "
                    "dynamic_slice_sizes={2}"),
            "s32[2] {1, 2}");
  // Unsigned indices are clamped as unsigned values, as XLA's compiled
  // code clamps them (only XLA's constant folding reads u32 as s32):
  // 4294967295 and u64 values past 2^63 start at the last place.
  EXPECT_EQ(runBody("a = s32[5] constant({1, 2, 3, 4, 5})\n"
                    "i = u32[] constant(4294967295)\n"
                    "ROOT c = s32[2] dynamic-slice(a, i), "
                    "dynamic_slice_sizes={2}"),
            "s32[2] {4, 5}");
  EXPECT_EQ(runBody("a = s32[5] constant({1, 2, 3, 4, 5})\n"
                    "i = u64[] constant(9223372036854775809)\n"
                    "ROOT c = s32[2] dynamic-slice(a, i), "
                    "dynamic_slice_sizes={2}"),
            "s32[2] {4, 5}");
  EXPECT_EQ(runBody("a = s32[5] constant({1, 2, 3, 4, 5})\n"
                    "i = u8[] constant(255)\n"
                    "ROOT c = s32[2] dynamic-slice(a, i), "
                    "dynamic_slice_sizes={2}"),
            "s32[2] {4, 5}");
  EXPECT_EQ(runBody("a = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
                    "u = s32[1,2] constant({{8, 9}})\n"
                    "i = s32[] constant(1)\nj = s32[] constant(5)\n"
                    "ROOT c = s32[2,3] dynamic-update-slice(a, u, i, j)"),
            "s32[2,3] {{1, 2, 3}, {4, 8, 9}}");
}

TEST_F(InterpreterTest, BitcastFollowsLayouts) {
  // Same layout: a reshape.
  EXPECT_EQ(runBody("a = s32[2,3]{1,0} constant({{1, 2, 3}, {4, 5, 6}})\n"
                    "ROOT c = s32[3,2]{1,0} bitcast(a)"),
            "s32[3,2] {{1, 2}, {3, 4}, {5, 6}}");
  // Column-major operand, row-major result of the transposed shape: a
  // transpose.
  EXPECT_EQ(runBody("a = s32[2,3]{0,1} constant({{1, 2, 3}, {4, 5, 6}})\n"
                    "ROOT c = s32[3,2]{1,0} bitcast(a)"),
            "s32[3,2] {{1, 4}, {2, 5}, {3, 6}}");
}

//===----------------------------------------------------------------------===//
// Errors.
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, CustomCallIsAnError) {
  EXPECT_EQ(runBody("a = f32[2] constant({1, 2})\n"
                    "ROOT c = f32[2] custom-call(a), "
                    "custom_call_target=\"my_kernel\""),
            "error: custom-call 'c': unsupported custom call target "
            "'my_kernel'");
}

TEST_F(InterpreterTest, MalformedArguments) {
  const char *hlo = R"(
HloModule m
ENTRY e {
  p = f32[2] parameter(0)
  ROOT n = f32[2] negate(p)
}
)";
  EXPECT_EQ(run(hlo, {}), "error: the entry computation 'e' takes 1 "
                          "arguments, got 0");
  EXPECT_EQ(run(hlo, {lit("f32[3]", "{1, 2, 3}")}),
            "error: argument 0 is f32[3], the entry parameter is f32[2]");
  EXPECT_EQ(run(hlo, {lit("s32[2]", "{1, 2}")}),
            "error: argument 0 is s32[2], the entry parameter is f32[2]");
  EXPECT_EQ(run(hlo, {lit("f32[2]", "{1, 2}")}), "f32[2] {-1, -2}");
}

TEST_F(InterpreterTest, ElidedConstantIsAnError) {
  EXPECT_EQ(runBody("ROOT c = f32[100] constant({...})"),
            "error: constant 'c': has an elided literal ({...})");
}

TEST_F(InterpreterTest, RandomArguments) {
  const char *hlo = R"(
HloModule m
ENTRY e {
  a = f32[64] parameter(0)
  b = s8[64] parameter(1)
  c = u16[64] parameter(2)
  d = pred[64] parameter(3)
  ROOT t = (f32[64], s8[64], u16[64], pred[64]) tuple(a, b, c, d)
}
)";
  OwningOpRef<ModuleOp> module = importHloText(hlo, &ctx);
  ASSERT_TRUE(module);
  std::string error;
  auto args = randomArguments(*module, 42, error);
  ASSERT_TRUE(succeeded(args)) << error;
  ASSERT_EQ(args->size(), 4u);
  auto again = randomArguments(*module, 42, error);
  auto other = randomArguments(*module, 43, error);
  EXPECT_TRUE((*args)[0] == (*again)[0]);
  EXPECT_FALSE((*args)[0] == (*other)[0]);
  for (int64_t i = 0; i < 64; ++i) {
    double f = (*args)[0].getFloat(i);
    EXPECT_TRUE(f >= -1.0 && f < 1.0) << f;
    int64_t s = (*args)[1].getInt(i);
    EXPECT_TRUE(s >= -8 && s <= 8) << s;
    int64_t u = (*args)[2].getInt(i);
    EXPECT_TRUE(u >= 0 && u <= 16) << u;
    int64_t p = (*args)[3].getInt(i);
    EXPECT_TRUE(p == 0 || p == 1) << p;
  }
  auto result = runtime::run(*module, *args, {}, error);
  ASSERT_TRUE(succeeded(result)) << error;
}

TEST_F(InterpreterTest, LiteralAttrRoundTrip) {
  // toAttr is the inverse of fromAttr: random values of every kind of
  // element type, and the special float values, come back bit for bit.
  const char *hlo = R"(
HloModule m
ENTRY e {
  a = (pred[5], s4[3], s8[2,3], u16[4], s32[2], u64[3]) parameter(0)
  b = (f8e4m3fn[4], f8e5m2[3], bf16[6], f16[2], f32[3,2], f64[2]) parameter(1)
  c = (c64[3], c128[2], (f32[], s32[0])) parameter(2)
  ROOT t = pred[] constant(true)
}
)";
  OwningOpRef<ModuleOp> module = importHloText(hlo, &ctx);
  ASSERT_TRUE(module) << diagnostics;
  std::string error;
  for (uint64_t seed : {1, 2, 3}) {
    auto args = randomArguments(*module, seed, error);
    ASSERT_TRUE(succeeded(args)) << error;
    for (const Literal &arg : *args) {
      Attribute attr = arg.toAttr(&ctx);
      ASSERT_TRUE(attr);
      FailureOr<Literal> back = Literal::fromAttr(attr, arg.getType(&ctx));
      ASSERT_TRUE(succeeded(back));
      EXPECT_TRUE(*back == arg) << back->toString() << " vs " << arg.toString();
    }
  }
  for (auto [shape, value] :
       {std::pair<StringRef, StringRef>{"f32[4]", "{nan, -0, inf, -inf}"},
        {"bf16[3]", "{-nan, 1e-40, 3.5}"},
        {"c64[1]", "{(-0, nan)}"},
        {"s64[2]", "{-9223372036854775808, 9223372036854775807}"}}) {
    Literal l = lit(shape, value);
    FailureOr<Literal> back =
        Literal::fromAttr(l.toAttr(&ctx), l.getType(&ctx));
    ASSERT_TRUE(succeeded(back));
    EXPECT_EQ(back->toString(), l.toString());
    for (int64_t i = 0; i < l.getNumElements(); ++i)
      EXPECT_EQ(back->getBits(i), l.getBits(i)) << shape.str() << " " << i;
  }
  EXPECT_FALSE(Literal::token().toAttr(&ctx));
}

TEST_F(InterpreterTest, EvaluatorRunsOneInstruction) {
  const char *hlo = R"(
HloModule m
sum {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
ENTRY e {
  p = s32[4] parameter(0)
  z = s32[] constant(0)
  r = s32[] reduce(p, z), dimensions={0}, to_apply=sum
  ROOT id = u32[] replica-id()
}
)";
  OwningOpRef<ModuleOp> module = importHloText(hlo, &ctx);
  ASSERT_TRUE(module) << diagnostics;
  Evaluator evaluator(*module);
  auto entry = *module->getOps<ComputationOp>().begin();
  for (auto c : module->getOps<ComputationOp>())
    if (c.getEntry())
      entry = c;
  Operation *reduce = nullptr;
  for (Operation &op : entry.getBody().getOps())
    if (isa<ReduceOp>(op))
      reduce = &op;
  ASSERT_TRUE(reduce);
  Literal v = lit("s32[4]", "{1, 2, 3, 4}"), z = lit("s32[]", "5");
  std::string error;
  FailureOr<Literal> r = evaluator.evaluate(reduce, {&v, &z}, error);
  ASSERT_TRUE(succeeded(r)) << error;
  EXPECT_EQ(r->toString(), "s32[] 15");
  // An operand of the wrong type is an error, not a crash.
  FailureOr<Literal> bad = evaluator.evaluate(reduce, {&z, &z}, error);
  EXPECT_TRUE(failed(bad));
  EXPECT_FALSE(error.empty());
}

TEST_F(InterpreterTest, ArgumentBytesBeforeAllocation) {
  const char *hlo = R"(
HloModule m
ENTRY e {
  a = f32[64] parameter(0)
  b = s8[3,5] parameter(1)
  c = (c64[2], f64[3], bf16[4], token[]) parameter(2)
  d = f32[<=7] parameter(3)
  ROOT t = pred[] constant(true)
}
)";
  OwningOpRef<ModuleOp> module = importHloText(hlo, &ctx);
  ASSERT_TRUE(module) << diagnostics;
  // getStorageBytes(type) is what the zero literal of the type holds.
  std::string error;
  auto args = randomArguments(*module, 1, error);
  ASSERT_TRUE(succeeded(args)) << error;
  int64_t total = 0;
  for (const Literal &arg : *args) {
    int64_t held = 0;
    if (arg.isTuple())
      for (const Literal &element : arg.getElements())
        held += element.getStorageBytes();
    else
      held = arg.getStorageBytes();
    EXPECT_EQ(getStorageBytes(arg.getType(&ctx)), held);
    total += held;
  }
  // f32: 4 per element; s8 widened to 8; c64: two floats; f64: 8; bf16: 4;
  // the bounded dimension at its bound.
  EXPECT_EQ(total, 64 * 4 + 15 * 8 + (2 * 8 + 3 * 8 + 4 * 4) + 7 * 4);

  InterpreterOptions options;
  options.maxLiveBytes = total;
  EXPECT_TRUE(succeeded(checkArgumentBytes(*module, options, error)));
  options.maxLiveBytes = total - 1;
  ASSERT_TRUE(failed(checkArgumentBytes(*module, options, error)));
  EXPECT_EQ(error, "the entry parameters take " + std::to_string(total) +
                       " bytes: the live values exceed " +
                       std::to_string(total - 1) +
                       " bytes (InterpreterOptions::maxLiveBytes)");
  options.maxLiveBytes = 0; // no limit
  EXPECT_TRUE(succeeded(checkArgumentBytes(*module, options, error)));

  // Sizes that overflow int64_t saturate instead of wrapping.
  Type huge = RankedTensorType::get({int64_t(1) << 40, int64_t(1) << 40},
                                    Float32Type::get(&ctx));
  EXPECT_EQ(getStorageBytes(huge), std::numeric_limits<int64_t>::max());
}

} // namespace
