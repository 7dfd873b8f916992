//===- NormalizationEmitterTest.cpp - row normalizations vs the interpreter ==//
//
// Random normalization fusions (softmax, layer norm with a scale, integer
// max-subtraction with a row sum, argmax masks through a variadic reduce;
// rows of rank 1 to 4 with random layouts, the reduced dimensions the
// physically minor ones, rows from 1 to 2500 elements so that one, a few
// or many warps share a row; f32, f64, s32 and f16 inputs; loop, input and
// Triton fusions; outputs of the rows' shape in other layouts and of the
// reductions' shape) become kernels of the normalization emitter, run on
// the host (shuffles, shared memory and barriers included) and must equal
// the interpreter: integers exactly, floats within the rounding of a
// different summation order. Fusions whose reductions are read off their
// rows are left to the loop emitter.
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

class NormalizationGenerator {
public:
  explicit NormalizationGenerator(std::mt19937 &rng) : rng(rng) {}

  /// A module whose ENTRY runs one normalization fusion; `rowLength` is
  /// the number of elements each row reduces.
  std::string generate(int64_t &rowLength) {
    int64_t rank = 1 + pick(4);
    std::vector<int64_t> shape(rank);
    for (int64_t &d : shape)
      d = 1 + pick(pick(3) == 0 ? 2 : 6);
    std::vector<int64_t> layout(rank);
    for (int64_t i = 0; i < rank; ++i)
      layout[i] = rank - 1 - i;
    if (pick(2))
      std::shuffle(layout.begin(), layout.end(), rng);
    // The reduced dimensions: the physically minor 1 to rank ones, one of
    // them sometimes long (several warps a row).
    int64_t numReduced = 1 + pick(rank);
    std::vector<int64_t> dims(layout.begin(), layout.begin() + numReduced);
    std::sort(dims.begin(), dims.end());
    if (pick(2))
      shape[layout[0]] = 20 + pick(pick(2) ? 2500 : 100);
    rowLength = 1;
    std::vector<int64_t> kept, keptLayout;
    for (int64_t d = 0; d < rank; ++d) {
      if (std::count(dims.begin(), dims.end(), d))
        rowLength *= shape[d];
      else
        kept.push_back(shape[d]);
    }
    // The kept dimensions' layout: their order in the rows' layout.
    for (int64_t d : layout)
      if (!std::count(dims.begin(), dims.end(), d)) {
        int64_t pos = 0;
        for (int64_t e = 0; e < d; ++e)
          pos += !std::count(dims.begin(), dims.end(), e);
        keptLayout.push_back(pos);
      }
    if (pick(3) == 0)
      std::shuffle(keptLayout.begin(), keptLayout.end(), rng);
    std::string dimsText, keptDimsText;
    for (size_t i = 0; i < dims.size(); ++i)
      dimsText += (i ? "," : "") + std::to_string(dims[i]);
    for (int64_t d = 0, n = 0; d < rank; ++d)
      if (!std::count(dims.begin(), dims.end(), d))
        keptDimsText += (n++ ? "," : "") + std::to_string(d);

    int pattern = pick(4); // softmax, layer norm, integer, argmax mask
    std::string type = pattern == 2 ? "s32" : pick(4) == 0 ? "f64" : "f32";
    bool f16 = type == "f32" && pattern < 2 && pick(4) == 0;
    auto rowsOf = [&](const std::string &t) {
      return shapeText(t, shape) + layoutText(layout);
    };
    auto keptOf = [&](const std::string &t) {
      return shapeText(t, kept) + layoutText(keptLayout);
    };
    std::string rows = rowsOf(type), keptT = keptOf(type);

    std::string text = "HloModule random_normalization\n\n";
    for (auto [name, op] : {std::pair{"add", "add"}, {"max", "maximum"}})
      text += std::string("%") + name + " (a: " + type + "[], b: " + type +
              "[]) -> " + type + "[] {\n  %a = " + type +
              "[] parameter(0)\n  %b = " + type + "[] parameter(1)\n  ROOT " +
              "%c = " + type + "[] " + op + "(%a, %b)\n}\n\n";
    if (pattern == 3)
      text += argmaxComputationText(type);

    FusionText f;
    auto reduce = [&](const std::string &name, const std::string &in,
                      const std::string &init, const char *reducer) {
      return f.add(name, keptT,
                   "reduce(" + in + ", " + init + "), dimensions={" + dimsText +
                       "}, to_apply=%" + reducer);
    };
    auto broadcast = [&](const std::string &name, const std::string &v) {
      return f.add(name, rows,
                   "broadcast(" + v + "), dimensions={" + keptDimsText + "}");
    };
    std::string x = f.addParam(rowsOf(f16 ? "f16" : type));
    if (f16)
      x = f.add("x", rows, "convert(" + x + ")");
    // Outputs of the rows' shape, sometimes in another layout.
    std::vector<int64_t> outLayout = layout;
    if (pick(3) == 0)
      std::shuffle(outLayout.begin(), outLayout.end(), rng);
    std::string outRows = shapeText(type, shape) + layoutText(outLayout);
    std::string zero = f.add("zero", type + "[]", "constant(0)");
    if (pattern == 0) { // softmax
      std::string ninf = f.add("ninf", type + "[]", "constant(-inf)");
      std::string m = reduce("m", x, ninf, "max");
      if (pick(2)) // softmax's guard against an all -inf row
        m = f.add(
            "mg", keptT,
            "maximum(" + m + ", " +
                f.add("nb", keptT, "broadcast(" + ninf + "), dimensions={}") +
                ")");
      std::string e =
          f.add("e", rows,
                "exponential(" +
                    f.add("d", rows,
                          "subtract(" + x + ", " + broadcast("mb", m) + ")") +
                    ")");
      std::string s = reduce("s", e, zero, "add");
      f.addOutput(f.add("out", outRows,
                        "divide(" + e + ", " + broadcast("sb", s) + ")"),
                  outRows);
      if (pick(3) == 0) { // the log-sum-exp too
        f.addOutput(f.add("lse", keptT,
                          "add(" + m + ", " +
                              f.add("ls", keptT, "log(" + s + ")") + ")"),
                    keptT);
      }
    } else if (pattern == 1) { // layer norm
      std::string inv =
          f.add("inv", type + "[]",
                "constant(" + std::to_string(1.0 / double(rowLength)) + ")");
      std::string invb =
          f.add("invb", keptT, "broadcast(" + inv + "), dimensions={}");
      std::string mean = f.add("mean", keptT,
                               "multiply(" + reduce("sum", x, zero, "add") +
                                   ", " + invb + ")");
      std::string c = f.add(
          "c", rows, "subtract(" + x + ", " + broadcast("meanb", mean) + ")");
      std::string var = f.add(
          "var", keptT,
          "multiply(" +
              reduce("sq", f.add("c2", rows, "multiply(" + c + ", " + c + ")"),
                     zero, "add") +
              ", " + invb + ")");
      std::string eps =
          f.add("eps", keptT,
                "broadcast(" + f.add("e0", type + "[]", "constant(1e-5)") +
                    "), dimensions={}");
      std::string r = f.add(
          "r", keptT,
          "rsqrt(" + f.add("ve", keptT, "add(" + var + ", " + eps + ")") + ")");
      std::string gamma = f.addParam(rows);
      f.addOutput(
          f.add("out", outRows,
                "multiply(" +
                    f.add("n", rows,
                          "multiply(" + c + ", " + broadcast("rb", r) + ")") +
                    ", " + gamma + ")"),
          outRows);
      if (pick(2)) {
        f.addOutput(mean, keptT);
      }
    } else if (pattern == 2) { // integers: x - max(x), and its row sum
      std::string lo = f.add("lo", "s32[]", "constant(-2147483648)");
      std::string d =
          f.add("d", rows,
                "subtract(" + x + ", " +
                    broadcast("mb", reduce("m", x, lo, "max")) + ")");
      f.addOutput(f.add("out", outRows, "negate(" + d + ")"), outRows);
      f.addOutput(reduce("s", d, zero, "add"), keptT);
    } else { // the row's argmax as a one-hot mask
      std::string s32Rows = rowsOf("s32"), s32Kept = keptOf("s32");
      std::string iota =
          f.add("iota", s32Rows,
                "iota(), iota_dimension=" + std::to_string(layout[0]));
      std::string ninf = f.add("ninf", type + "[]", "constant(-inf)");
      std::string z = f.add("zi", "s32[]", "constant(0)");
      std::string am =
          f.add("am", "(" + keptT + ", " + s32Kept + ")",
                "reduce(" + x + ", " + iota + ", " + ninf + ", " + z +
                    "), dimensions={" + dimsText + "}, to_apply=%argmax");
      std::string idx =
          f.add("idx", s32Kept, "get-tuple-element(" + am + "), index=1");
      std::string hit = f.add("hit", rowsOf("pred"),
                              "compare(" + iota + ", " +
                                  f.add("ib", s32Rows,
                                        "broadcast(" + idx + "), dimensions={" +
                                            keptDimsText + "}") +
                                  "), direction=EQ");
      std::string zeros =
          f.add("zb", rows, "broadcast(" + zero + "), dimensions={}");
      f.addOutput(f.add("out", outRows,
                        "select(" + hit + ", " + x + ", " + zeros + ")"),
                  outRows);
    }
    const char *kinds[] = {
        "kind=kLoop", "kind=kInput",
        "kind=kCustom, backend_config={\"fusion_backend_config\":{\"kind\":"
        "\"__triton\"}}"};
    text += f.finish("norm", kinds[pick(3)]);
    return text;
  }

private:
  int64_t pick(int64_t n) {
    return std::uniform_int_distribution<int64_t>(0, n - 1)(rng);
  }

  std::mt19937 &rng;
};

TEST(NormalizationEmitterTest, RandomNormalizationsMatchTheInterpreter) {
  DialectRegistry registry;
  registerHloTranslateDialects(registry);
  registerHostJitDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  std::mt19937 rng(1618);
  int ran = 0, longRows = 0;
  const int trials = 200;
  for (int trial = 0; trial < trials; ++trial) {
    NormalizationGenerator gen(rng);
    int64_t rowLength = 1;
    std::string text = gen.generate(rowLength);
    OwningOpRef<ModuleOp> module = importHloText(text, &ctx);
    ASSERT_TRUE(module) << text;
    SymbolTable symbols(*module);
    Operation *fusion = getOnlyFusion(*module);
    std::string reason;
    FailureOr<EmitterKind> kind = chooseEmitter(fusion, symbols, reason);
    // Outputs that are the reductions alone go to the reduction emitter.
    ASSERT_TRUE(succeeded(kind) && (*kind == EmitterKind::Normalization ||
                                    *kind == EmitterKind::Reduction))
        << reason << "\n"
        << text;
    if (*kind != EmitterKind::Normalization)
      continue;
    longRows += rowLength > 32;

    std::string error;
    FailureOr<std::vector<Literal>> args =
        randomArguments(*module, trial, error);
    ASSERT_TRUE(succeeded(args)) << error << "\n" << text;
    FailureOr<Literal> expected =
        run(*module, *args, getModuleOptions(*module), error);
    ASSERT_TRUE(succeeded(expected)) << error << "\n" << text;
    FailureOr<std::vector<Literal>> got =
        runFusionOnHost(*module, *args, "norm", error);
    ASSERT_TRUE(succeeded(got)) << error << "\n" << text;
    std::vector<const Literal *> want = getOutputArrays(*expected);
    ASSERT_EQ(got->size(), want.size());
    for (size_t k = 0; k < want.size(); ++k) {
      std::string why;
      // A different summation order: a few ulps of f32 per term.
      EXPECT_TRUE(closeEnough((*got)[k], *want[k], 1e-4,
                              3e-6 * double(rowLength) + 1e-6, why))
          << "output " << k << ": " << why << "\n"
          << text;
    }
    ++ran;
  }
  EXPECT_GT(ran, trials * 9 / 10);
  EXPECT_GT(longRows, trials / 5);
}

/// Reductions read off their rows (a transposed broadcast, a reverse of
/// the reduction's result, a column reduction) stay with the loop emitter.
TEST(NormalizationEmitterTest, ReadsOffTheRowAreLoops) {
  DialectRegistry registry;
  registerHloTranslateDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  const char *head = R"(HloModule off_row

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %c = f32[] add(%a, %b)
}

%fused (p: f32[4,4]) -> f32[4,4] {
  %p = f32[4,4]{1,0} parameter(0)
  %z = f32[] constant(0)
)";
  const char *tail = R"(}

ENTRY %main (x: f32[4,4]) -> f32[4,4] {
  %x = f32[4,4]{1,0} parameter(0)
  ROOT %f = f32[4,4]{1,0} fusion(%x), kind=kLoop, calls=%fused
}
)";
  const char *bodies[] = {
      // The row sums broadcast along the other dimension.
      "  %s = f32[4]{0} reduce(%p, %z), dimensions={1}, to_apply=%add\n"
      "  %b = f32[4,4]{1,0} broadcast(%s), dimensions={1}\n"
      "  ROOT %r = f32[4,4]{1,0} add(%p, %b)\n",
      // The row sums reversed.
      "  %s = f32[4]{0} reduce(%p, %z), dimensions={1}, to_apply=%add\n"
      "  %v = f32[4]{0} reverse(%s), dimensions={0}\n"
      "  %b = f32[4,4]{1,0} broadcast(%v), dimensions={0}\n"
      "  ROOT %r = f32[4,4]{1,0} add(%p, %b)\n",
      // A column reduction (the physically major dimension reduced).
      "  %s = f32[4]{0} reduce(%p, %z), dimensions={0}, to_apply=%add\n"
      "  %b = f32[4,4]{1,0} broadcast(%s), dimensions={1}\n"
      "  ROOT %r = f32[4,4]{1,0} add(%p, %b)\n"};
  for (const char *body : bodies) {
    std::string text = std::string(head) + body + tail;
    OwningOpRef<ModuleOp> module = importHloText(text, &ctx);
    ASSERT_TRUE(module) << text;
    SymbolTable symbols(*module);
    Operation *fusion = getOnlyFusion(*module);
    std::string reason;
    EXPECT_TRUE(failed(canEmitNormalizationKernel(fusion, symbols, reason)))
        << text;
    EXPECT_FALSE(reason.empty());
    FailureOr<EmitterKind> kind = chooseEmitter(fusion, symbols, reason);
    ASSERT_TRUE(succeeded(kind));
    EXPECT_EQ(*kind, EmitterKind::Loop) << text;
  }
}

} // namespace
