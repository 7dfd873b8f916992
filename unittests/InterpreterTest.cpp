//===- InterpreterTest.cpp - reference interpreter ------------------------===//
//
// Small HLO modules run by the reference interpreter, with the expected
// results written as HLO literals. Expected values come from HLO semantics
// worked out by hand (rounded values from the formats' definitions).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Runtime/Literal.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;

namespace {

class InterpreterTest : public ::testing::Test {
protected:
  InterpreterTest()
      : ctx(makeRegistry(), MLIRContext::Threading::DISABLED),
        handler(&ctx, [this](Diagnostic &d) {
          diagnostics += d.str() + "\n";
          return success();
        }) {}

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerHloTranslateDialects(registry);
    return registry;
  }

  /// Runs HLO module text; the result literal's text or "error: ...".
  std::string run(StringRef hlo, ArrayRef<Literal> args = {},
                  InterpreterOptions options = {}) {
    OwningOpRef<ModuleOp> module = importHloText(hlo, &ctx);
    if (!module)
      return "import failed: " + diagnostics;
    std::string error;
    FailureOr<Literal> result = runtime::run(*module, args, options, error);
    if (failed(result))
      return "error: " + error;
    return result->toString();
  }

  /// Runs an entry computation whose body is `body` (instructions, ROOT
  /// last) with no parameters.
  std::string runBody(StringRef body, InterpreterOptions options = {}) {
    return run(("HloModule m\nENTRY e {\n" + body + "\n}\n").str(), {},
               options);
  }

  /// A literal from a constant of `shape` with `value` (HLO literal text).
  Literal lit(StringRef shape, StringRef value) {
    std::string text = ("HloModule m\nENTRY e {\n  ROOT c = " + shape +
                        " constant(" + value + ")\n}\n")
                           .str();
    OwningOpRef<ModuleOp> module = importHloText(text, &ctx);
    EXPECT_TRUE(module) << diagnostics;
    std::string error;
    FailureOr<Literal> result = runtime::run(*module, {}, {}, error);
    EXPECT_TRUE(succeeded(result)) << error;
    return succeeded(result) ? *result : Literal();
  }

  MLIRContext ctx;
  ScopedDiagnosticHandler handler;
  std::string diagnostics;
};

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
  EXPECT_EQ(runBody("a = s32[3] constant({0, 1, -1})\nROOT c = s32[3] count-leading-zeros(a)"),
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
  // u32 indices read as s32 (as XLA does): 4294967295 is -1.
  EXPECT_EQ(runBody("a = s32[5] constant({1, 2, 3, 4, 5})\n"
                    "i = u32[] constant(4294967295)\n"
                    "ROOT c = s32[2] dynamic-slice(a, i), "
                    "dynamic_slice_sizes={2}"),
            "s32[2] {1, 2}");
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
// Tuples, calls and control flow.
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, CallAndParameters) {
  const char *hlo = R"(
HloModule m
twice {
  x = f32[2] parameter(0)
  ROOT y = f32[2] add(x, x)
}
ENTRY e {
  p = f32[2] parameter(0)
  q = s32[] parameter(1)
  c = f32[2] call(p), to_apply=twice
  ROOT t = (f32[2], s32[]) tuple(c, q)
}
)";
  EXPECT_EQ(run(hlo, {lit("f32[2]", "{1.5, -2}"), lit("s32[]", "7")}),
            "(f32[2], s32[]) ({3, -4}, 7)");
}

TEST_F(InterpreterTest, WhileLoop) {
  // Sums 1..10.
  const char *hlo = R"(
HloModule m
cond {
  s = (s32[], s32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(10)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], s32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  acc = s32[] get-tuple-element(s), index=1
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  acc1 = s32[] add(acc, i1)
  ROOT r = (s32[], s32[]) tuple(i1, acc1)
}
ENTRY e {
  z = s32[] constant(0)
  init = (s32[], s32[]) tuple(z, z)
  w = (s32[], s32[]) while(init), condition=cond, body=body
  ROOT sum = s32[] get-tuple-element(w), index=1
}
)";
  EXPECT_EQ(run(hlo), "s32[] 55");
  InterpreterOptions options;
  options.maxWhileIterations = 5;
  EXPECT_NE(run(hlo, {}, options).find("more than 5 while-loop iterations"),
            std::string::npos);
}

TEST_F(InterpreterTest, Conditional) {
  const char *hlo = R"(
HloModule m
neg {
  x = f32[] parameter(0)
  ROOT y = f32[] negate(x)
}
dbl {
  x = f32[] parameter(0)
  ROOT y = f32[] add(x, x)
}
ident {
  x = f32[] parameter(0)
  ROOT y = f32[] copy(x)
}
ENTRY e {
  i = s32[] parameter(0)
  p = pred[] parameter(1)
  x = f32[] constant(3)
  a = f32[] conditional(i, x, x, x), branch_computations={neg, dbl, ident}
  b = f32[] conditional(p, x, x), true_computation=neg, false_computation=dbl
  ROOT t = (f32[], f32[]) tuple(a, b)
}
)";
  EXPECT_EQ(run(hlo, {lit("s32[]", "1"), lit("pred[]", "true")}),
            "(f32[], f32[]) (6, -3)");
  EXPECT_EQ(run(hlo, {lit("s32[]", "0"), lit("pred[]", "false")}),
            "(f32[], f32[]) (-3, 6)");
  // Out-of-range indices run the last branch.
  EXPECT_EQ(run(hlo, {lit("s32[]", "7"), lit("pred[]", "false")}),
            "(f32[], f32[]) (3, 6)");
  EXPECT_EQ(run(hlo, {lit("s32[]", "-1"), lit("pred[]", "false")}),
            "(f32[], f32[]) (3, 6)");
}

TEST_F(InterpreterTest, MapAndFusion) {
  const char *hlo = R"(
HloModule m
muladd {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  m = f32[] multiply(x, y)
  ROOT r = f32[] add(m, x)
}
fused {
  a = f32[3] parameter(0)
  b = f32[3] parameter(1)
  ROOT s = f32[3] subtract(a, b)
}
ENTRY e {
  a = f32[3] constant({1, 2, 3})
  b = f32[3] constant({4, 5, 6})
  m = f32[3] map(a, b), dimensions={0}, to_apply=muladd
  ROOT f = f32[3] fusion(m, a), kind=kLoop, calls=fused
}
)";
  // m = a*b + a = {5, 12, 21}; f = m - a = {4, 10, 18}.
  EXPECT_EQ(run(hlo), "f32[3] {4, 10, 18}");
}

TEST_F(InterpreterTest, AsyncChainRunsSynchronously) {
  const char *hlo = R"(
HloModule m
region {
  x = f32[2] parameter(0)
  ROOT y = f32[2] negate(x)
}
ENTRY e {
  a = f32[2] constant({1, -2})
  s = ((f32[2]), f32[2], s32[]) async-start(a), calls=region
  u = ((f32[2]), f32[2], s32[]) async-update(s)
  d = f32[2] async-done(u)
  cs = (f32[2], f32[2], u32[]) copy-start(d)
  cd = f32[2] copy-done(cs)
  ROOT t = (f32[2], f32[2]) tuple(d, cd)
}
)";
  EXPECT_EQ(run(hlo), "(f32[2], f32[2]) ({-1, 2}, {-1, 2})");
}

TEST_F(InterpreterTest, AsyncSugar) {
  const char *hlo = R"(
HloModule m
ENTRY e {
  a = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  s = ((f32[2,3]), f32[3,2], s32[]) transpose-start(a), dimensions={1,0}
  ROOT d = f32[3,2] transpose-done(s)
}
)";
  EXPECT_EQ(run(hlo), "f32[3,2] {{1, 4}, {2, 5}, {3, 6}}");
}

//===----------------------------------------------------------------------===//
// Reductions, windows, sorting.
//===----------------------------------------------------------------------===//

/// Scalar computations shared by the tests below.
static const char *kScalarComputations = R"(
HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
addi {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT s = s32[] add(x, y)
}
max {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] maximum(x, y)
}
ge {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = pred[] compare(x, y), direction=GE
}
lt {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = pred[] compare(x, y), direction=LT
}
)";

static std::string withComputations(StringRef entry) {
  return (kScalarComputations + ("ENTRY e {\n" + entry + "\n}\n")).str();
}

TEST_F(InterpreterTest, Reduce) {
  EXPECT_EQ(run(withComputations(
                "a = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
                "z = f32[] constant(0)\n"
                "ROOT r = f32[2] reduce(a, z), dimensions={1}, to_apply=add")),
            "f32[2] {6, 15}");
  EXPECT_EQ(run(withComputations(
                "a = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
                "z = f32[] constant(10)\n"
                "ROOT r = f32[] reduce(a, z), dimensions={0,1}, to_apply=add")),
            "f32[] 31");
  EXPECT_EQ(run(withComputations(
                "a = f32[2,3] constant({{1, 9, 3}, {4, 5, 6}})\n"
                "z = f32[] constant(-inf)\n"
                "ROOT r = f32[3] reduce(a, z), dimensions={0}, to_apply=max")),
            "f32[3] {4, 9, 6}");
}

TEST_F(InterpreterTest, VariadicReduceArgmax) {
  const char *hlo = R"(
HloModule m
argmax {
  a = f32[] parameter(0)
  b = s32[] parameter(1)
  c = f32[] parameter(2)
  d = s32[] parameter(3)
  ge = pred[] compare(a, c), direction=GE
  v = f32[] select(ge, a, c)
  i = s32[] select(ge, b, d)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
ENTRY e {
  x = f32[4] constant({3, 7, 7, 1})
  i = s32[4] iota(), iota_dimension=0
  ninf = f32[] constant(-inf)
  m1 = s32[] constant(-1)
  ROOT r = (f32[], s32[]) reduce(x, i, ninf, m1), dimensions={0},
      to_apply=argmax
}
)";
  EXPECT_EQ(run(hlo), "(f32[], s32[]) (7, 1)");
}

TEST_F(InterpreterTest, ReduceWindow) {
  EXPECT_EQ(run(withComputations(
                "a = f32[4] constant({1, 2, 3, 4})\nz = f32[] constant(0)\n"
                "ROOT r = f32[3] reduce-window(a, z), window={size=2}, "
                "to_apply=add")),
            "f32[3] {3, 5, 7}");
  EXPECT_EQ(run(withComputations(
                "a = f32[4] constant({1, 2, 3, 4})\nz = f32[] constant(0)\n"
                "ROOT r = f32[5] reduce-window(a, z), window={size=2 "
                "pad=1_1}, to_apply=add")),
            "f32[5] {1, 3, 5, 7, 4}");
  // Base dilation {1, _, 2, _, 3}; holes are skipped.
  EXPECT_EQ(run(withComputations(
                "a = f32[3] constant({1, 2, 3})\nz = f32[] constant(0)\n"
                "ROOT r = f32[4] reduce-window(a, z), window={size=2 "
                "lhs_dilate=2}, to_apply=add")),
            "f32[4] {1, 2, 2, 3}");
  // Window dilation: taps 0 and 2.
  EXPECT_EQ(run(withComputations(
                "a = f32[4] constant({1, 2, 3, 4})\nz = f32[] constant(0)\n"
                "ROOT r = f32[2] reduce-window(a, z), window={size=2 "
                "rhs_dilate=2}, to_apply=add")),
            "f32[2] {4, 6}");
  // 2x2 max pooling with stride 2.
  EXPECT_EQ(run(withComputations(
                "a = f32[4,4] constant({{1, 2, 3, 4}, {5, 6, 7, 8}, "
                "{9, 10, 11, 12}, {13, 14, 15, 16}})\n"
                "z = f32[] constant(-inf)\n"
                "ROOT r = f32[2,2] reduce-window(a, z), window={size=2x2 "
                "stride=2x2}, to_apply=max")),
            "f32[2,2] {{6, 8}, {14, 16}}");
}

TEST_F(InterpreterTest, SelectAndScatter) {
  EXPECT_EQ(run(withComputations(
                "a = f32[4] constant({1, 5, 2, 8})\n"
                "s = f32[2] constant({10, 20})\nz = f32[] constant(0)\n"
                "ROOT r = f32[4] select-and-scatter(a, s, z), "
                "window={size=2 stride=2}, select=ge, scatter=add")),
            "f32[4] {0, 10, 0, 20}");
  // Overlapping windows both select the 5.
  EXPECT_EQ(run(withComputations(
                "a = f32[3] constant({1, 5, 2})\n"
                "s = f32[2] constant({10, 20})\nz = f32[] constant(0)\n"
                "ROOT r = f32[3] select-and-scatter(a, s, z), "
                "window={size=2}, select=ge, scatter=add")),
            "f32[3] {0, 30, 0}");
}

TEST_F(InterpreterTest, SortWithComparator) {
  EXPECT_EQ(run(withComputations(
                "a = f32[5] constant({3, 1, 2, -inf, 0.5})\n"
                "ROOT r = f32[5] sort(a), dimensions={0}, to_apply=lt")),
            "f32[5] {-inf, 0.5, 1, 2, 3}");
  EXPECT_EQ(run(withComputations(
                "a = f32[2,3] constant({{3, 1, 2}, {0, 5, 4}})\n"
                "ROOT r = f32[2,3] sort(a), dimensions={1}, to_apply=ge")),
            "f32[2,3] {{3, 2, 1}, {5, 4, 0}}");
  EXPECT_EQ(run(withComputations(
                "a = f32[2,3] constant({{3, 1, 2}, {0, 5, 4}})\n"
                "ROOT r = f32[2,3] sort(a), dimensions={0}, to_apply=lt")),
            "f32[2,3] {{0, 1, 2}, {3, 5, 4}}");
  // Keys and values; a stable sort keeps equal keys in order.
  const char *hlo = R"(
HloModule m
cmp {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT
}
ENTRY e {
  k = f32[4] constant({3, 1, 2, 1})
  v = s32[4] constant({0, 1, 2, 3})
  ROOT r = (f32[4], s32[4]) sort(k, v), dimensions={0}, is_stable=true,
      to_apply=cmp
}
)";
  EXPECT_EQ(run(hlo), "(f32[4], s32[4]) ({1, 1, 2, 3}, {1, 3, 2, 0})");
}

TEST_F(InterpreterTest, TopK) {
  EXPECT_EQ(runBody("a = f32[2,5] constant({{1, 5, 3, 5, 2}, {0, -1, 9, 8, "
                    "7}})\n"
                    "ROOT t = (f32[2,3], s32[2,3]) topk(a), k=3, largest=true"),
            "(f32[2,3], s32[2,3]) ({{5, 5, 3}, {9, 8, 7}}, {{1, 3, 2}, "
            "{2, 3, 4}})");
}

//===----------------------------------------------------------------------===//
// Gather and scatter.
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, Gather) {
  const char *rows = "a = s32[3,3] constant({{1, 2, 3}, {4, 5, 6}, {7, 8, "
                     "9}})\n";
  EXPECT_EQ(runBody(std::string(rows) +
                    "i = s32[2] constant({0, 2})\n"
                    "ROOT g = s32[2,3] gather(a, i), offset_dims={1}, "
                    "collapsed_slice_dims={0}, start_index_map={0}, "
                    "index_vector_dim=1, slice_sizes={1,3}"),
            "s32[2,3] {{1, 2, 3}, {7, 8, 9}}");
  // Start indices are clamped so that the slice fits.
  EXPECT_EQ(runBody(std::string(rows) +
                    "i = s32[2] constant({5, -1})\n"
                    "ROOT g = s32[2,3] gather(a, i), offset_dims={1}, "
                    "collapsed_slice_dims={0}, start_index_map={0}, "
                    "index_vector_dim=1, slice_sizes={1,3}"),
            "s32[2,3] {{7, 8, 9}, {1, 2, 3}}");
  // 2x2 patches at index vectors (0, 0) and (1, 1).
  EXPECT_EQ(runBody(std::string(rows) +
                    "i = s32[2,2] constant({{0, 0}, {1, 1}})\n"
                    "ROOT g = s32[2,2,2] gather(a, i), offset_dims={1,2}, "
                    "collapsed_slice_dims={}, start_index_map={0,1}, "
                    "index_vector_dim=1, slice_sizes={2,2}"),
            "s32[2,2,2] {{{1, 2}, {4, 5}}, {{5, 6}, {8, 9}}}");
  // Batching dims: row b of the operand indexed by indices[b].
  EXPECT_EQ(runBody(std::string(rows) +
                    "i = s32[3,1] constant({{2}, {0}, {1}})\n"
                    "ROOT g = s32[3] gather(a, i), offset_dims={}, "
                    "collapsed_slice_dims={1}, start_index_map={1}, "
                    "operand_batching_dims={0}, "
                    "start_indices_batching_dims={0}, "
                    "index_vector_dim=1, slice_sizes={1,1}"),
            "s32[3] {3, 4, 8}");
}

TEST_F(InterpreterTest, Scatter) {
  const char *add = R"(
HloModule m
add {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT s = s32[] add(x, y)
}
)";
  // Repeated indices accumulate; out-of-bounds updates are skipped.
  EXPECT_EQ(run(std::string(add) + R"(
ENTRY e {
  a = s32[5] constant({1, 2, 3, 4, 5})
  i = s32[4,1] constant({{0}, {2}, {0}, {5}})
  u = s32[4] constant({10, 20, 30, 40})
  ROOT s = s32[5] scatter(a, i, u), update_window_dims={},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=add
})"),
            "s32[5] {41, 2, 23, 4, 5}");
  // A row window; the window at row 2 would not fit... at row 1 it does.
  EXPECT_EQ(run(std::string(add) + R"(
ENTRY e {
  a = s32[3,3] constant({{0, 0, 0}, {0, 0, 0}, {0, 0, 0}})
  i = s32[2] constant({1, 3})
  u = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  ROOT s = s32[3,3] scatter(a, i, u), update_window_dims={1},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=add
})"),
            "s32[3,3] {{0, 0, 0}, {1, 2, 3}, {0, 0, 0}}");
}

TEST_F(InterpreterTest, VariadicScatter) {
  const char *hlo = R"(
HloModule m
both {
  a = s32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = f32[] parameter(3)
  s = s32[] add(a, c)
  m = f32[] multiply(b, d)
  ROOT t = (s32[], f32[]) tuple(s, m)
}
ENTRY e {
  x = s32[3] constant({1, 1, 1})
  y = f32[3] constant({1, 1, 1})
  i = s32[2,1] constant({{2}, {2}})
  u = s32[2] constant({5, 6})
  v = f32[2] constant({2, 3})
  ROOT s = (s32[3], f32[3]) scatter(x, y, i, u, v), update_window_dims={},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=both
}
)";
  EXPECT_EQ(run(hlo), "(s32[3], f32[3]) ({1, 1, 12}, {1, 1, 6})");
}

//===----------------------------------------------------------------------===//
// Dot, convolution and linear algebra.
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, Dot) {
  EXPECT_EQ(runBody("a = f32[2,2] constant({{1, 2}, {3, 4}})\n"
                    "b = f32[2,2] constant({{5, 6}, {7, 8}})\n"
                    "ROOT d = f32[2,2] dot(a, b), lhs_contracting_dims={1}, "
                    "rhs_contracting_dims={0}"),
            "f32[2,2] {{19, 22}, {43, 50}}");
  EXPECT_EQ(runBody("a = f32[2,1,2] constant({{{1, 2}}, {{5, 6}}})\n"
                    "b = f32[2,2,1] constant({{{3}, {4}}, {{7}, {8}}})\n"
                    "ROOT d = f32[2,1,1] dot(a, b), lhs_batch_dims={0}, "
                    "rhs_batch_dims={0}, lhs_contracting_dims={2}, "
                    "rhs_contracting_dims={1}"),
            "f32[2,1,1] {{{11}}, {{83}}}");
  EXPECT_EQ(runBody("a = s8[3] constant({100, 100, -128})\n"
                    "b = s8[3] constant({100, 2, 1})\n"
                    "ROOT d = s32[] dot(a, b), lhs_contracting_dims={0}, "
                    "rhs_contracting_dims={0}"),
            "s32[] 10072");
  // Outer product: no contracting dims; bf16 operands, f32 result.
  EXPECT_EQ(runBody("a = bf16[2] constant({1, 2})\n"
                    "b = bf16[3] constant({1, 0.5, 3})\n"
                    "ROOT d = f32[2,3] dot(a, b)"),
            "f32[2,3] {{1, 0.5, 3}, {2, 1, 6}}");
}

TEST_F(InterpreterTest, RaggedAndScaledDot) {
  // Rows {0}, {1, 2} use rhs[0], rhs[1]; row 3 is past the groups.
  EXPECT_EQ(runBody("a = f32[4,3] constant({{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, "
                    "{9, 10, 11}})\n"
                    "b = f32[2,3,2] constant({{{0, 1}, {2, 3}, {4, 5}}, "
                    "{{6, 7}, {8, 9}, {10, 11}}})\n"
                    "g = s32[2] constant({1, 2})\n"
                    "ROOT d = f32[4,2] ragged-dot(a, b, g), "
                    "lhs_contracting_dims={1}, rhs_contracting_dims={1}, "
                    "lhs_ragged_dims={0}, rhs_group_dims={0}"),
            "f32[4,2] {{10, 13}, {100, 112}, {172, 193}, {0, 0}}");
  // Ragged contracting dimension: a leading group dimension.
  EXPECT_EQ(runBody("a = f32[2,4] constant({{1, 1, 1, 1}, {1, 2, 3, 4}})\n"
                    "b = f32[4,3] constant({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, "
                    "{1, 1, 1}})\n"
                    "g = s32[2] constant({1, 3})\n"
                    "ROOT d = f32[2,2,3] ragged-dot(a, b, g), "
                    "lhs_contracting_dims={1}, rhs_contracting_dims={0}, "
                    "lhs_ragged_dims={1}"),
            "f32[2,2,3] {{{1, 0, 0}, {1, 0, 0}}, {{1, 2, 2}, {4, 6, 7}}}");
  // Scales cover blocks of 2 along the contracting dimension.
  EXPECT_EQ(runBody("a = f32[2,4] constant({{1, 1, 1, 1}, {1, 1, 1, 1}})\n"
                    "as = f32[2,2] constant({{1, 2}, {3, 4}})\n"
                    "b = f32[4,1] constant({{1}, {1}, {1}, {1}})\n"
                    "bs = f32[2,1] constant({{1}, {10}})\n"
                    "ROOT d = f32[2,1] scaled-dot(a, as, b, bs), "
                    "lhs_contracting_dims={1}, rhs_contracting_dims={0}"),
            "f32[2,1] {{42}, {86}}");
}

TEST_F(InterpreterTest, Convolution) {
  const char *x = "x = f32[1,1,5] constant({{{1, 2, 3, 4, 5}}})\n"
                  "k = f32[1,1,3] constant({{{1, 0, -1}}})\n";
  auto conv = [&](StringRef resultShape, StringRef window) {
    return runBody((x + ("ROOT c = " + resultShape +
                         " convolution(x, k), window={" + window +
                         "}, dim_labels=bf0_oi0->bf0"))
                       .str());
  };
  EXPECT_EQ(conv("f32[1,1,3]", "size=3"), "f32[1,1,3] {{{-2, -2, -2}}}");
  EXPECT_EQ(conv("f32[1,1,5]", "size=3 pad=1_1"),
            "f32[1,1,5] {{{-2, -2, -2, -2, 4}}}");
  EXPECT_EQ(conv("f32[1,1,2]", "size=3 stride=2"), "f32[1,1,2] {{{-2, -2}}}");
  EXPECT_EQ(conv("f32[1,1,1]", "size=3 rhs_dilate=2"), "f32[1,1,1] {{{-4}}}");
  EXPECT_EQ(conv("f32[1,1,3]", "size=3 rhs_reversal=1"),
            "f32[1,1,3] {{{2, 2, 2}}}");
  // Base dilation {1, 0, 2, 0, 3} with kernel {1, 1}.
  EXPECT_EQ(runBody("x = f32[1,1,3] constant({{{1, 2, 3}}})\n"
                    "k = f32[1,1,2] constant({{{1, 1}}})\n"
                    "ROOT c = f32[1,1,4] convolution(x, k), "
                    "window={size=2 lhs_dilate=2}, dim_labels=bf0_oi0->bf0"),
            "f32[1,1,4] {{{1, 2, 2, 3}}}");
}

TEST_F(InterpreterTest, GroupedConvolution) {
  // Two feature groups: output feature g reads input feature g.
  EXPECT_EQ(runBody("x = f32[1,2,3] constant({{{1, 2, 3}, {4, 5, 6}}})\n"
                    "k = f32[2,1,1] constant({{{2}}, {{3}}})\n"
                    "ROOT c = f32[1,2,3] convolution(x, k), window={size=1}, "
                    "dim_labels=bf0_oi0->bf0, feature_group_count=2"),
            "f32[1,2,3] {{{2, 4, 6}, {12, 15, 18}}}");
  // Two batch groups: output feature g reads input batches g*2 .. g*2+1.
  EXPECT_EQ(runBody("x = f32[4,1,1] constant({{{1}}, {{2}}, {{3}}, {{4}}})\n"
                    "k = f32[2,1,1] constant({{{1}}, {{1}}})\n"
                    "ROOT c = f32[2,2,1] convolution(x, k), window={size=1}, "
                    "dim_labels=bf0_oi0->bf0, batch_group_count=2"),
            "f32[2,2,1] {{{1}, {3}}, {{2}, {4}}}");
  // NHWC / HWIO 2-D convolution summing 2x2 windows over 2 input features.
  EXPECT_EQ(runBody("x = f32[1,2,2,2] constant({{{{1, 10}, {2, 20}}, "
                    "{{3, 30}, {4, 40}}}})\n"
                    "k = f32[2,2,2,1] constant({{{{1}, {1}}, {{1}, {1}}}, "
                    "{{{1}, {1}}, {{1}, {1}}}})\n"
                    "ROOT c = f32[1,1,1,1] convolution(x, k), "
                    "window={size=2x2}, dim_labels=b01f_01io->b01f"),
            "f32[1,1,1,1] {{{{110}}}}");
}

TEST_F(InterpreterTest, TriangularSolveAndCholesky) {
  const char *a = "a = f32[2,2] constant({{2, 7}, {1, 1}})\n";
  EXPECT_EQ(runBody(std::string(a) +
                    "b = f32[2,1] constant({{2}, {3}})\n"
                    "ROOT x = f32[2,1] triangular-solve(a, b), "
                    "left_side=true, lower=true, "
                    "transpose_a=NO_TRANSPOSE"),
            "f32[2,1] {{1}, {2}}");
  EXPECT_EQ(runBody(std::string(a) +
                    "b = f32[2,1] constant({{2}, {3}})\n"
                    "ROOT x = f32[2,1] triangular-solve(a, b), "
                    "left_side=true, lower=true, transpose_a=TRANSPOSE"),
            "f32[2,1] {{-0.5}, {3}}");
  EXPECT_EQ(runBody(std::string(a) +
                    "b = f32[1,2] constant({{4, 1}})\n"
                    "ROOT x = f32[1,2] triangular-solve(a, b), "
                    "left_side=false, lower=true, "
                    "transpose_a=NO_TRANSPOSE"),
            "f32[1,2] {{1.5, 1}}");
  EXPECT_EQ(runBody(std::string(a) +
                    "b = f32[2,1] constant({{2}, {3}})\n"
                    "ROOT x = f32[2,1] triangular-solve(a, b), "
                    "left_side=true, lower=true, unit_diagonal=true, "
                    "transpose_a=NO_TRANSPOSE"),
            "f32[2,1] {{2}, {1}}");
  EXPECT_EQ(runBody("a = f32[2,2] constant({{4, 9}, {2, 5}})\n"
                    "ROOT l = f32[2,2] cholesky(a), lower=true"),
            "f32[2,2] {{2, 0}, {1, 2}}");
  EXPECT_EQ(runBody("a = f32[2,2] constant({{4, 2}, {9, 5}})\n"
                    "ROOT u = f32[2,2] cholesky(a), lower=false"),
            "f32[2,2] {{2, 1}, {0, 2}}");
  // Not positive definite (read from the lower triangle): all NaN.
  EXPECT_EQ(runBody("a = f32[2,2] constant({{4, 2}, {9, 5}})\n"
                    "ROOT u = f32[2,2] cholesky(a), lower=true"),
            "f32[2,2] {{nan, nan}, {nan, nan}}");
}

TEST_F(InterpreterTest, Fft) {
  EXPECT_EQ(runBody("a = c64[4] constant({(0, 0), (1, 0), (0, 0), (0, 0)})\n"
                    "ROOT f = c64[4] fft(a), fft_type=FFT, fft_length={4}"),
            "c64[4] {(1, 0), (0, -1), (-1, 0), (0, 1)}");
  EXPECT_EQ(runBody("a = c64[4] constant({(4, 0), (0, 0), (0, 0), (0, 0)})\n"
                    "ROOT f = c64[4] fft(a), fft_type=IFFT, fft_length={4}"),
            "c64[4] {(1, 0), (1, 0), (1, 0), (1, 0)}");
  EXPECT_EQ(runBody("a = f32[4] constant({1, 2, 3, 4})\n"
                    "ROOT f = c64[3] fft(a), fft_type=RFFT, fft_length={4}"),
            "c64[3] {(10, 0), (-2, 2), (-2, 0)}");
  EXPECT_EQ(runBody("a = c64[3] constant({(10, 0), (-2, 2), (-2, 0)})\n"
                    "ROOT f = f32[4] fft(a), fft_type=IRFFT, fft_length={4}"),
            "f32[4] {1, 2, 3, 4}");
  // 2-D: a single 1 at the origin transforms to all ones.
  EXPECT_EQ(runBody("a = c64[2,2] constant({{(1, 0), (0, 0)}, {(0, 0), (0, "
                    "0)}})\n"
                    "ROOT f = c64[2,2] fft(a), fft_type=FFT, "
                    "fft_length={2,2}"),
            "c64[2,2] {{(1, 0), (1, 0)}, {(1, 0), (1, 0)}}");
}

TEST_F(InterpreterTest, BatchNorm) {
  EXPECT_EQ(runBody("x = f32[2,2] constant({{1, 2}, {3, 4}})\n"
                    "s = f32[2] constant({1, 2})\no = f32[2] constant({0, 1})\n"
                    "m = f32[2] constant({2, 3})\nv = f32[2] constant({1, 1})\n"
                    "ROOT y = f32[2,2] batch-norm-inference(x, s, o, m, v), "
                    "epsilon=0, feature_index=1"),
            "f32[2,2] {{-1, -1}, {1, 3}}");
  EXPECT_EQ(runBody("x = f32[2,2] constant({{1, 2}, {3, 6}})\n"
                    "s = f32[2] constant({1, 1})\no = f32[2] constant({0, 0})\n"
                    "ROOT y = (f32[2,2], f32[2], f32[2]) "
                    "batch-norm-training(x, s, o), epsilon=0, "
                    "feature_index=1"),
            "(f32[2,2], f32[2], f32[2]) ({{-1, -1}, {1, 1}}, {2, 4}, {1, 4})");
  // mean 1, variance 3, epsilon 1: 1/sqrt(var + eps) = 0.5.
  EXPECT_EQ(runBody("x = f32[4,1] constant({{0}, {0}, {0}, {4}})\n"
                    "s = f32[1] constant({1})\nm = f32[1] constant({1})\n"
                    "v = f32[1] constant({3})\n"
                    "dy = f32[4,1] constant({{1}, {0}, {0}, {0}})\n"
                    "ROOT g = (f32[4,1], f32[1], f32[1]) "
                    "batch-norm-grad(x, s, m, v, dy), epsilon=1, "
                    "feature_index=1"),
            "(f32[4,1], f32[1], f32[1]) ({{0.34375}, {-0.15625}, "
            "{-0.15625}, {-0.03125}}, {-0.5}, {1})");
}

//===----------------------------------------------------------------------===//
// Collectives.
//===----------------------------------------------------------------------===//

/// Runs `entry` with `replicas` replicas and `partitions` partitions; the
/// result is replica 0, partition 0's.
static InterpreterOptions devices(int64_t replicas, int64_t partitions = 1) {
  InterpreterOptions options;
  options.numReplicas = replicas;
  options.numPartitions = partitions;
  return options;
}

/// f32[4] {10r, 10r + 1, 10r + 2, 10r + 3} on replica r.
static const char *kPerReplica =
    "r = u32[] replica-id()\nrf = f32[] convert(r)\nten = f32[] constant(10)\n"
    "t = f32[] multiply(rf, ten)\ntb = f32[4] broadcast(t), dimensions={}\n"
    "io = f32[4] iota(), iota_dimension=0\nx = f32[4] add(tb, io)\n";

TEST_F(InterpreterTest, AllReduceAndAllGather) {
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT a = f32[4] all-reduce(x), "
                                 "replica_groups={}, to_apply=add"),
                {}, devices(4)),
            "f32[4] {60, 64, 68, 72}");
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT a = f32[4] all-reduce(x), "
                                 "replica_groups={{0,2},{1,3}}, "
                                 "to_apply=add"),
                {}, devices(4)),
            "f32[4] {20, 22, 24, 26}");
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "s = f32[2] slice(x), slice={[0:2]}\n"
                                 "ROOT g = f32[6] all-gather(s), "
                                 "dimensions={0}, replica_groups={{2,0,1}}"),
                {}, devices(3)),
            "f32[6] {20, 21, 0, 1, 10, 11}");
  // One replica: the collectives are identities.
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT a = f32[4] all-reduce(x), "
                                 "to_apply=add")),
            "f32[4] {0, 1, 2, 3}");
}

TEST_F(InterpreterTest, ReduceScatterAndAllToAll) {
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT a = f32[2] reduce-scatter(x), "
                                 "dimensions={0}, replica_groups={}, "
                                 "to_apply=add"),
                {}, devices(2)),
            "f32[2] {10, 12}");
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT a = f32[4] all-to-all(x), "
                                 "dimensions={0}, replica_groups={{0,1}}"),
                {}, devices(2)),
            "f32[4] {0, 1, 10, 11}");
  // Tuple form: operand j goes to member j.
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "a = f32[2] slice(x), slice={[0:2]}\n"
                                 "b = f32[2] slice(x), slice={[2:4]}\n"
                                 "ROOT tt = (f32[2], f32[2]) all-to-all(a, b), "
                                 "replica_groups={{0,1}}"),
                {}, devices(2)),
            "(f32[2], f32[2]) ({0, 1}, {10, 11})");
}

TEST_F(InterpreterTest, CollectivePermuteAndBroadcast) {
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT p = f32[4] collective-permute(x), "
                                 "source_target_pairs={{0,1},{1,2},{2,0}}"),
                {}, devices(3)),
            "f32[4] {20, 21, 22, 23}");
  // Replica 0 is no target: zeros.
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT p = f32[4] collective-permute(x), "
                                 "source_target_pairs={{0,1}}"),
                {}, devices(2)),
            "f32[4] {0, 0, 0, 0}");
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT b = f32[4] collective-broadcast(x), "
                                 "replica_groups={{1,0}}"),
                {}, devices(2)),
            "f32[4] {10, 11, 12, 13}");
}

TEST_F(InterpreterTest, RaggedAllToAll) {
  // x = {{10r, 10r}, {10r+1, ...}, {10r+2, ...}} on replica r. Replica 0
  // sends its row 0 to itself (at row 0) and row 1 to replica 1 (at row 0);
  // replica 1 sends its row 0 to replica 0 (at row 1) and rows 1-2 to
  // itself (at row 1).
  const char *body =
      "r = u32[] replica-id()\nrf = f32[] convert(r)\n"
      "ten = f32[] constant(10)\nt = f32[] multiply(rf, ten)\n"
      "tb = f32[3,2] broadcast(t), dimensions={}\n"
      "io = f32[3,2] iota(), iota_dimension=0\nx = f32[3,2] add(tb, io)\n"
      "out = f32[4,2] constant({{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}})\n"
      "zero = s32[] constant(0)\nri = s32[] convert(r)\n"
      "ioff = s32[2] constant({0, 1})\n"
      "ssz0 = s32[2] constant({1, 1})\nssz1 = s32[2] constant({1, 2})\n"
      "isr = pred[] compare(ri, zero), direction=EQ\n"
      "ssz = s32[2] select(isr, ssz0, ssz1)\n"
      "ooff0 = s32[2] constant({0, 0})\nooff1 = s32[2] constant({1, 1})\n"
      "ooff = s32[2] select(isr, ooff0, ooff1)\n"
      "rsz = s32[2] constant({1, 1})\n"
      "ROOT a = f32[4,2] ragged-all-to-all(x, out, ioff, ssz, ooff, rsz), "
      "replica_groups={{0,1}}";
  EXPECT_EQ(runBody(body, devices(2)),
            "f32[4,2] {{0, 0}, {10, 10}, {-1, -1}, {-1, -1}}");
}

TEST_F(InterpreterTest, CollectivesOverPartitions) {
  // partition-id + 10 * replica-id, all-reduced over flattened ids.
  const char *ids = "r = u32[] replica-id()\np = u32[] partition-id()\n"
                    "ten = u32[] constant(10)\nrt = u32[] multiply(r, ten)\n"
                    "v = u32[] add(rt, p)\nx = s32[] convert(v)\n";
  const char *addi = R"(
HloModule m
add {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
)";
  auto entry = [&](StringRef root) {
    return (addi + ("ENTRY e {\n" + (ids + root) + "\n}\n")).str();
  };
  // Flattened ids {0,1,2,3} = (r0,p0) (r0,p1) (r1,p0) (r1,p1).
  EXPECT_EQ(run(entry("ROOT a = s32[] all-reduce(x), channel_id=1, "
                      "use_global_device_ids=true, "
                      "replica_groups={{0,1,2,3}}, to_apply=add"),
                {}, devices(2, 2)),
            "s32[] 22");
  // Cross-partition (channel, no global ids): partitions of replica 0.
  EXPECT_EQ(run(entry("ROOT a = s32[4] all-gather(x2), channel_id=1, "
                      "use_global_device_ids=false, dimensions={0}, "
                      "replica_groups={{0,1}}\n"
                      "x2 = s32[1] reshape(x)"),
                {}, devices(2, 2)),
            "s32[4] {0, 1, 10, 11}");
  // Cross-replica within partition 0.
  EXPECT_EQ(run(entry("ROOT a = s32[] all-reduce(x), replica_groups={{0,1}}, "
                      "to_apply=add"),
                {}, devices(2, 2)),
            "s32[] 10");
  // collective-permute with a channel: partition ids.
  EXPECT_EQ(run(entry("ROOT c = s32[] collective-permute(x), channel_id=2, "
                      "source_target_pairs={{1,0}}"),
                {}, devices(2, 2)),
            "s32[] 1");
}

TEST_F(InterpreterTest, AsyncCollectives) {
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "s = f32[4] all-reduce-start(x), "
                                 "replica_groups={}, to_apply=add\n"
                                 "ROOT d = f32[4] all-reduce-done(s)"),
                {}, devices(2)),
            "f32[4] {10, 12, 14, 16}");
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "s = (f32[4], f32[8]) all-gather-start(x), "
                                 "dimensions={0}, replica_groups={}\n"
                                 "ROOT d = f32[8] all-gather-done(s)"),
                {}, devices(2)),
            "f32[8] {0, 1, 2, 3, 10, 11, 12, 13}");
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "s = (f32[4], f32[4], u32[], u32[]) "
                                 "collective-permute-start(x), "
                                 "source_target_pairs={{1,0}}\n"
                                 "ROOT d = f32[4] collective-permute-done(s)"),
                {}, devices(2)),
            "f32[4] {10, 11, 12, 13}");
}

TEST_F(InterpreterTest, FailingDeviceStopsTheOthers) {
  std::string result = run(
      withComputations("r = u32[] replica-id()\nz = u32[] constant(0)\n"
                       "p = pred[] compare(r, z), direction=EQ\n"
                       "x = f32[] constant(1)\n"
                       "c = f32[] conditional(p, x, x), "
                       "true_computation=bad, false_computation=good\n"
                       "ROOT a = f32[] all-reduce(c), to_apply=add") +
          "bad {\n  x = f32[] parameter(0)\n  ROOT c = f32[] custom-call(x), "
          "custom_call_target=\"nope\"\n}\n"
          "good {\n  x = f32[] parameter(0)\n  ROOT c = f32[] copy(x)\n}\n",
      {}, devices(3));
  EXPECT_EQ(result, "error: replica 0, partition 0: custom-call 'c': "
                    "unsupported custom call target 'nope'");
}

//===----------------------------------------------------------------------===//
// Random numbers.
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, RngIsDeterministicInTheSeed) {
  const char *body = "lo = f32[] constant(-2)\nhi = f32[] constant(3)\n"
                     "a = f32[64] rng(lo, hi), distribution=rng_uniform\n"
                     "b = f32[64] rng(lo, hi), distribution=rng_uniform\n"
                     "ROOT t = (f32[64], f32[64]) tuple(a, b)";
  InterpreterOptions seed1, seed2;
  seed1.seed = 1;
  seed2.seed = 2;
  std::string r1 = runBody(body, seed1);
  EXPECT_EQ(r1, runBody(body, seed1));
  EXPECT_NE(r1, runBody(body, seed2));
  OwningOpRef<ModuleOp> module =
      importHloText(("HloModule m\nENTRY e {\n" + std::string(body) + "\n}\n"),
                    &ctx);
  std::string error;
  auto result = runtime::run(*module, {}, seed1, error);
  ASSERT_TRUE(succeeded(result)) << error;
  const Literal &a = result->getElements()[0], &b = result->getElements()[1];
  EXPECT_FALSE(a == b); // two rng ops give different numbers
  for (int64_t i = 0; i < 64; ++i)
    EXPECT_TRUE(a.getFloat(i) >= -2 && a.getFloat(i) < 3) << a.getFloat(i);
}

TEST_F(InterpreterTest, RngIntegersAndNormal) {
  std::string r = runBody("lo = s32[] constant(5)\nhi = s32[] constant(8)\n"
                          "ROOT a = s32[100] rng(lo, hi), "
                          "distribution=rng_uniform");
  for (const char *v : {" 5", " 6", " 7"})
    EXPECT_NE(r.find(v), std::string::npos) << r;
  for (const char *v : {" 4,", " 8,", " 9,"})
    EXPECT_EQ(r.find(v), std::string::npos) << r;
  EXPECT_EQ(runBody("m = f32[] constant(3)\ns = f32[] constant(0)\n"
                    "ROOT a = f32[3] rng(m, s), distribution=rng_normal"),
            "f32[3] {3, 3, 3}");
}

TEST_F(InterpreterTest, RngBitGeneratorGivesXlasBits) {
  // Values from XLA's CPU backend (jaxlib 0.10.2) on the same modules.
  EXPECT_EQ(runBody("s = u64[2] constant({123, 456})\n"
                    "ROOT r = (u64[2], u32[5]) rng-bit-generator(s), "
                    "algorithm=rng_three_fry"),
            "(u64[2], u32[5]) ({123, 459}, {2365294944, 4194936891, "
            "105764723, 2050896720, 4007583465})");
  EXPECT_EQ(runBody("s = u64[2] constant({123, 456})\n"
                    "ROOT r = (u64[2], u32[2,3]) rng-bit-generator(s), "
                    "algorithm=rng_three_fry"),
            "(u64[2], u32[2,3]) ({123, 459}, {{2365294944, 105764723, "
            "4007583465}, {4194936891, 2050896720, 2764690829}})");
  EXPECT_EQ(runBody("s = u64[2] constant({123, 456})\n"
                    "ROOT r = (u64[2], u8[5]) rng-bit-generator(s), "
                    "algorithm=rng_three_fry"),
            "(u64[2], u8[5]) ({123, 459}, {96, 59, 115, 80, 233})");
  EXPECT_EQ(runBody("s = u64[2] constant({123, 456})\n"
                    "ROOT r = (u64[2], u64[3]) rng-bit-generator(s), "
                    "algorithm=rng_three_fry"),
            "(u64[2], u64[3]) ({123, 459}, {18017116757994211680, "
            "8808534339979433843, 11874256698113711849})");
  EXPECT_EQ(runBody("s = u64[2] constant({123, 456})\n"
                    "ROOT r = (u64[2], u32[5]) rng-bit-generator(s), "
                    "algorithm=rng_default"),
            "(u64[2], u32[5]) ({123, 458}, {2380981782, 1153079949, "
            "2020398190, 555028375, 3819958479})");
  EXPECT_EQ(runBody("s = u64[2] constant({123, 456})\n"
                    "ROOT r = (u64[2], u64[3]) rng-bit-generator(s), "
                    "algorithm=rng_philox"),
            "(u64[2], u64[3]) ({123, 458}, {4952440673009329686, "
            "2383828720997422190, 2156272533592076495})");
  // A u64[3] state: 128-bit counter (state[1], state[2]) with carry.
  EXPECT_EQ(runBody("s = u64[3] constant({123, 18446744073709551615, 7})\n"
                    "ROOT r = (u64[3], u32[6]) rng-bit-generator(s), "
                    "algorithm=rng_philox"),
            "(u64[3], u32[6]) ({123, 1, 8}, {2639335248, 360000244, "
            "3618161357, 4008280302, 2140127323, 1274440409})");
}

TEST_F(InterpreterTest, RngBitGeneratorIsAFunctionOfItsState) {
  const char *body =
      "s = u64[2] constant({1, 2})\n"
      "a = (u64[2], u32[8]) rng-bit-generator(s), algorithm=rng_philox\n"
      "b = (u64[2], u32[8]) rng-bit-generator(s), algorithm=rng_philox\n"
      "s2 = u64[2] get-tuple-element(a), index=0\n"
      "c = (u64[2], u32[8]) rng-bit-generator(s2), algorithm=rng_philox\n"
      "ab = u32[8] get-tuple-element(a), index=1\n"
      "bb = u32[8] get-tuple-element(b), index=1\n"
      "cb = u32[8] get-tuple-element(c), index=1\n"
      "same = pred[8] compare(ab, bb), direction=EQ\n"
      "diff = pred[8] compare(ab, cb), direction=NE\n"
      "ROOT t = (pred[8], pred[8], u64[2]) tuple(same, diff, s2)";
  EXPECT_EQ(runBody(body), "(pred[8], pred[8], u64[2]) ({true, true, true, "
                           "true, true, true, true, true}, {true, true, true, "
                           "true, true, true, true, true}, {1, 4})");
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

/// Runs the module in file HLO_FILE (random arguments, seed 1, replica and
/// partition counts from the module) and prints its result; for
/// development: HloUnitTests --gtest_also_run_disabled_tests
/// --gtest_filter='*RunFile*'.
TEST_F(InterpreterTest, DISABLED_RunFile) {
  const char *file = std::getenv("HLO_FILE");
  ASSERT_TRUE(file);
  auto buffer = llvm::MemoryBuffer::getFile(file);
  ASSERT_TRUE(bool(buffer));
  OwningOpRef<ModuleOp> module =
      importHloText((*buffer)->getBuffer(), &ctx, file);
  ASSERT_TRUE(module) << diagnostics;
  std::string error;
  auto args = randomArguments(*module, 1, error);
  ASSERT_TRUE(succeeded(args)) << error;
  auto result = runtime::run(*module, *args, getModuleOptions(*module), error);
  llvm::outs() << (succeeded(result) ? result->toString() : "error: " + error)
               << "\n";
}

/// Runs every module of the corpus (HLO_CORPUS_DIR, default
/// /work/shared/corpus/hlo) on random arguments and prints one line per
/// module: ok, or the error. Never fails on an error; a crash or a hang is
/// the bug it looks for. Disabled by default (slow):
/// HloUnitTests --gtest_also_run_disabled_tests --gtest_filter='*Corpus*'.
TEST_F(InterpreterTest, DISABLED_CorpusSmoke) {
  const char *env = std::getenv("HLO_CORPUS_DIR");
  std::string dir = env ? env : "/work/shared/corpus/hlo";
  const char *filter = std::getenv("HLO_CORPUS_FILTER");
  std::error_code ec;
  std::vector<std::string> files;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(".hlo") &&
        (!filter || llvm::StringRef(it->path()).contains(filter)))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file);
    ASSERT_TRUE(bool(buffer));
    diagnostics.clear();
    OwningOpRef<ModuleOp> module =
        importHloText((*buffer)->getBuffer(), &ctx, file);
    std::string name = llvm::sys::path::filename(file).str();
    if (!module) {
      llvm::outs() << name << ": import failed\n";
      continue;
    }
    InterpreterOptions options = getModuleOptions(*module);
    std::string error;
    auto start = std::chrono::steady_clock::now();
    auto args = randomArguments(*module, 1, error);
    FailureOr<Literal> result = failure();
    if (succeeded(args))
      result = runtime::run(*module, *args, options, error);
    double seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    llvm::outs() << name << " (" << llvm::format("%.2f", seconds) << " s): "
                 << (succeeded(result) ? std::string("ok") : error) << "\n";
    llvm::outs().flush();
  }
}

} // namespace
