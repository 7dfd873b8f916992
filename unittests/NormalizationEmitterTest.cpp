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
      text += "%argmax (a: " + type + "[], ai: s32[], b: " + type +
              "[], bi: s32[]) -> (" + type + "[], s32[]) {\n  %a = " + type +
              "[] parameter(0)\n  %ai = s32[] parameter(1)\n  %b = " + type +
              "[] parameter(2)\n  %bi = s32[] parameter(3)\n  %gt = pred[] "
              "compare(%a, %b), direction=GT\n  %eq = pred[] compare(%a, "
              "%b), direction=EQ\n  %lt = pred[] compare(%ai, %bi), "
              "direction=LT\n  %tie = pred[] and(%eq, %lt)\n  %pick = pred[] "
              "or(%gt, %tie)\n  %m = " +
              type + "[] select(%pick, %a, %b)\n  %i = s32[] select(%pick, " +
              "%ai, %bi)\n  ROOT %t = (" + type + "[], s32[]) tuple(%m, " +
              "%i)\n}\n\n";

    std::string body, params, entry, operands;
    int numParams = 0;
    auto addParam = [&](const std::string &t) {
      std::string name = "p" + std::to_string(numParams);
      body += "  %" + name + " = " + t + " parameter(" +
              std::to_string(numParams) + ")\n";
      params += std::string(numParams ? ", " : "") + name + ": " + t;
      entry += "  %x" + std::to_string(numParams) + " = " + t +
               " parameter(" + std::to_string(numParams) + ")\n";
      operands += std::string(numParams ? ", " : "") + "%x" +
                  std::to_string(numParams);
      ++numParams;
      return "%" + name;
    };
    auto line = [&](const std::string &name, const std::string &t,
                    const std::string &rhs) {
      body += "  %" + name + " = " + t + " " + rhs + "\n";
      return "%" + name;
    };
    auto reduce = [&](const std::string &name, const std::string &in,
                      const std::string &init, const char *reducer) {
      return line(name, keptT,
                  "reduce(" + in + ", " + init + "), dimensions={" + dimsText +
                      "}, to_apply=%" + reducer);
    };
    auto broadcast = [&](const std::string &name, const std::string &v) {
      return line(name, rows,
                  "broadcast(" + v + "), dimensions={" + keptDimsText + "}");
    };
    std::string x = addParam(rowsOf(f16 ? "f16" : type));
    if (f16)
      x = line("x", rows, "convert(" + x + ")");
    std::vector<std::string> roots, rootTypes;
    // Outputs of the rows' shape, sometimes in another layout.
    std::vector<int64_t> outLayout = layout;
    if (pick(3) == 0)
      std::shuffle(outLayout.begin(), outLayout.end(), rng);
    std::string outRows = shapeText(type, shape) + layoutText(outLayout);
    std::string zero = line("zero", type + "[]", "constant(0)");
    if (pattern == 0) { // softmax
      std::string ninf = line("ninf", type + "[]", "constant(-inf)");
      std::string m = reduce("m", x, ninf, "max");
      if (pick(2)) // softmax's guard against an all -inf row
        m = line("mg", keptT,
                 "maximum(" + m + ", " + line("nb", keptT, "broadcast(" +
                                                               ninf +
                                                               "), dimensions={}") +
                     ")");
      std::string e = line("e", rows,
                           "exponential(" +
                               line("d", rows,
                                    "subtract(" + x + ", " +
                                        broadcast("mb", m) + ")") +
                               ")");
      std::string s = reduce("s", e, zero, "add");
      roots.push_back(line("out", outRows,
                           "divide(" + e + ", " + broadcast("sb", s) + ")"));
      rootTypes.push_back(outRows);
      if (pick(3) == 0) { // the log-sum-exp too
        roots.push_back(
            line("lse", keptT, "add(" + m + ", " +
                                   line("ls", keptT, "log(" + s + ")") + ")"));
        rootTypes.push_back(keptT);
      }
    } else if (pattern == 1) { // layer norm
      std::string inv = line("inv", type + "[]",
                             "constant(" +
                                 std::to_string(1.0 / double(rowLength)) +
                                 ")");
      std::string invb = line("invb", keptT, "broadcast(" + inv +
                                                 "), dimensions={}");
      std::string mean = line("mean", keptT,
                              "multiply(" + reduce("sum", x, zero, "add") +
                                  ", " + invb + ")");
      std::string c = line("c", rows, "subtract(" + x + ", " +
                                          broadcast("meanb", mean) + ")");
      std::string var = line(
          "var", keptT,
          "multiply(" +
              reduce("sq", line("c2", rows, "multiply(" + c + ", " + c + ")"),
                     zero, "add") +
              ", " + invb + ")");
      std::string eps = line("eps", keptT,
                             "broadcast(" +
                                 line("e0", type + "[]", "constant(1e-5)") +
                                 "), dimensions={}");
      std::string r = line("r", keptT,
                           "rsqrt(" + line("ve", keptT, "add(" + var + ", " +
                                                            eps + ")") +
                               ")");
      std::string gamma = addParam(rows);
      roots.push_back(
          line("out", outRows,
               "multiply(" +
                   line("n", rows,
                        "multiply(" + c + ", " + broadcast("rb", r) + ")") +
                   ", " + gamma + ")"));
      rootTypes.push_back(outRows);
      if (pick(2)) {
        roots.push_back(mean);
        rootTypes.push_back(keptT);
      }
    } else if (pattern == 2) { // integers: x - max(x), and its row sum
      std::string lo = line("lo", "s32[]", "constant(-2147483648)");
      std::string d =
          line("d", rows,
               "subtract(" + x + ", " +
                   broadcast("mb", reduce("m", x, lo, "max")) + ")");
      roots.push_back(line("out", outRows, "negate(" + d + ")"));
      rootTypes.push_back(outRows);
      roots.push_back(reduce("s", d, zero, "add"));
      rootTypes.push_back(keptT);
    } else { // the row's argmax as a one-hot mask
      std::string s32Rows = rowsOf("s32"), s32Kept = keptOf("s32");
      std::string iota = line("iota", s32Rows,
                              "iota(), iota_dimension=" +
                                  std::to_string(layout[0]));
      std::string ninf = line("ninf", type + "[]", "constant(-inf)");
      std::string z = line("zi", "s32[]", "constant(0)");
      std::string am = line("am", "(" + keptT + ", " + s32Kept + ")",
                            "reduce(" + x + ", " + iota + ", " + ninf + ", " +
                                z + "), dimensions={" + dimsText +
                                "}, to_apply=%argmax");
      std::string idx = line("idx", s32Kept, "get-tuple-element(" + am +
                                                 "), index=1");
      std::string hit = line(
          "hit", rowsOf("pred"),
          "compare(" + iota + ", " +
              line("ib", s32Rows,
                   "broadcast(" + idx + "), dimensions={" + keptDimsText +
                       "}") +
              "), direction=EQ");
      std::string zeros = line("zb", rows, "broadcast(" + zero +
                                               "), dimensions={}");
      roots.push_back(
          line("out", outRows, "select(" + hit + ", " + x + ", " + zeros +
                                   ")"));
      rootTypes.push_back(outRows);
    }
    std::string resultType = "(", tuple = "(";
    for (size_t i = 0; i < roots.size(); ++i) {
      resultType += (i ? ", " : "") + rootTypes[i];
      tuple += (i ? ", " : "") + roots[i];
    }
    resultType += ")";
    tuple += ")";
    body += "  ROOT %t = " + resultType + " tuple" + tuple + "\n";
    text += "%fused (" + params + ") -> " + resultType + " {\n" + body +
            "}\n\n";
    const char *kinds[] = {
        "kind=kLoop", "kind=kInput",
        "kind=kCustom, backend_config={\"fusion_backend_config\":{\"kind\":"
        "\"__triton\"}}"};
    text += "ENTRY %main (" + params + ") -> " + resultType + " {\n" + entry +
            "  ROOT %norm = " + resultType + " fusion(" + operands + "), " +
            kinds[pick(3)] + ", calls=%fused\n}\n";
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
    Operation *fusion = nullptr;
    module->walk([&](FusionOp f) { fusion = f; });
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
    Operation *fusion = nullptr;
    module->walk([&](FusionOp f) { fusion = f; });
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
