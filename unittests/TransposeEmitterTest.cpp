//===- TransposeEmitterTest.cpp - transpose kernels against the interpreter
//===//
//
// Random transpose fusions (rank 2 to 4, every permutation class, random
// layouts of operand and result so that physical and logical transposes
// differ, sizes that leave partial tiles, f32/f64/f16/s8 and, in a second
// test, 16-bit types with mostly even sizes (two elements per access), an
// elementwise prologue reading a broadcast and an epilogue reading another
// parameter) become kernels (the transpose emitter where it takes them, else
// the loop emitter), run on the host and must equal the interpreter exactly.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "Hlo/Conversion/FusionEmitter.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Translate/HloText.h"

#include "gtest/gtest.h"

#include <random>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::test;

namespace {

class TransposeGenerator {
public:
  /// `sixteenBits`: 16-bit types, mostly even sizes (the emitter's two
  /// elements per access), sometimes odd ones (one at a time).
  explicit TransposeGenerator(std::mt19937 &rng, bool sixteenBits = false)
      : rng(rng), sixteenBits(sixteenBits) {}

  std::string generate() {
    int64_t rank = 2 + pick(3);
    std::vector<int64_t> shape(rank);
    bool even = sixteenBits && pick(4) != 0;
    for (int64_t &d : shape)
      d = even ? (pick(2) ? 1 : 2 * (1 + pick(2))) : 1 + pick(4);
    // Two dimensions large enough for tiles (usually).
    int64_t a = pick(rank), b = (a + 1 + pick(rank - 1)) % rank;
    shape[a] = even ? 2 * (40 + pick(60)) : 48 + pick(120);
    shape[b] = even ? 2 * (40 + pick(60)) : 48 + pick(120);
    std::vector<int64_t> perm(rank);
    for (int64_t i = 0; i < rank; ++i)
      perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<int64_t> outShape(rank);
    for (int64_t i = 0; i < rank; ++i)
      outShape[i] = shape[perm[i]];
    static const char *types[] = {"f32", "f64", "f16", "s8"};
    static const char *types16[] = {"f16", "bf16", "s16", "u16"};
    std::string type = sixteenBits ? types16[pick(4)] : types[pick(4)];
    std::string inType =
        shapeText(type, shape) + layoutText(randomLayout(rank));
    std::string outType =
        shapeText(type, outShape) + layoutText(randomLayout(rank));
    std::string permText, bcastDims;
    for (int64_t i = 0; i < rank; ++i)
      permText += (i ? "," : "") + std::to_string(perm[i]);
    // The prologue: the operand plus a broadcast of its last dimension.
    std::string small = shapeText(type, {shape[rank - 1]}) + "{0}";
    std::string body = "  %p0 = " + inType + " parameter(0)\n";
    body += "  %p1 = " + small + " parameter(1)\n";
    body += "  %p2 = " + outType + " parameter(2)\n";
    body += "  %b = " + inType + " broadcast(%p1), dimensions={" +
            std::to_string(rank - 1) + "}\n";
    body += "  %in = " + inType + " add(%p0, %b)\n";
    body += "  %t = " + outType + " transpose(%in), dimensions={" + permText +
            "}\n";
    body += "  ROOT %out = " + outType + " multiply(%t, %p2)\n";
    std::string params =
        "p0: " + inType + ", p1: " + small + ", p2: " + outType;
    std::string text = "HloModule random_transpose\n\n";
    text += "%fused (" + params + ") -> " + outType + " {\n" + body + "}\n\n";
    text += "ENTRY %main (" + params + ") -> " + outType +
            " {\n  %x0 = " + inType + " parameter(0)\n  %x1 = " + small +
            " parameter(1)\n  %x2 = " + outType +
            " parameter(2)\n  ROOT %transpose = " + outType +
            " fusion(%x0, %x1, %x2), kind=kLoop, calls=%fused\n}\n";
    return text;
  }

private:
  int64_t pick(int64_t n) {
    return std::uniform_int_distribution<int64_t>(0, n - 1)(rng);
  }
  std::vector<int64_t> randomLayout(int64_t rank) {
    std::vector<int64_t> m2m(rank);
    for (int64_t i = 0; i < rank; ++i)
      m2m[i] = rank - 1 - i;
    if (pick(2))
      std::shuffle(m2m.begin(), m2m.end(), rng);
    return m2m;
  }

  std::mt19937 &rng;
  bool sixteenBits;
};

void runRandomTransposes(bool sixteenBits, unsigned seed, int trials) {
  DialectRegistry registry;
  registerHloTranslateDialects(registry);
  registerHostJitDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  std::mt19937 rng(seed);
  int ran = 0, tiled = 0;
  for (int trial = 0; trial < trials; ++trial) {
    TransposeGenerator gen(rng, sixteenBits);
    std::string text = gen.generate();
    OwningOpRef<ModuleOp> module = importHloText(text, &ctx);
    ASSERT_TRUE(module) << text;
    SymbolTable symbols(*module);
    Operation *fusion = nullptr;
    module->walk([&](FusionOp f) { fusion = f; });
    std::string reason;
    FailureOr<EmitterKind> kind = chooseEmitter(fusion, symbols, reason);
    ASSERT_TRUE(succeeded(kind)) << reason << "\n" << text;
    if (*kind == EmitterKind::Transpose)
      ++tiled;
    std::string error;
    FailureOr<std::vector<Literal>> args =
        randomArguments(*module, trial, error);
    ASSERT_TRUE(succeeded(args)) << error;
    FailureOr<Literal> expected =
        run(*module, *args, getModuleOptions(*module), error);
    ASSERT_TRUE(succeeded(expected)) << error << "\n" << text;
    FailureOr<std::vector<Literal>> got =
        runFusionOnHost(*module, *args, "transpose", error);
    ASSERT_TRUE(succeeded(got)) << error << "\n" << text;
    std::string why;
    EXPECT_TRUE(closeEnough(got->front(), *expected, 0, 0, why)) << why << "\n"
                                                                 << text;
    ++ran;
  }
  EXPECT_EQ(ran, trials);
  // Most fusions are tiled transposes; the rest keep the minor dimension or
  // are small, and run on the loop emitter.
  EXPECT_GT(tiled, trials / 3);
}

TEST(TransposeEmitterTest, RandomTransposesMatchTheInterpreter) {
  runRandomTransposes(/*sixteenBits=*/false, 4242, 150);
}

/// f16, bf16, s16, u16: mostly even sizes, read and written two elements
/// at a time through 64 x 64 tiles (partial ones included).
TEST(TransposeEmitterTest, Random16BitTransposesMatchTheInterpreter) {
  runRandomTransposes(/*sixteenBits=*/true, 1616, 150);
}

} // namespace
