//===- ReductionEmitterTest.cpp - reduction kernels against the interpreter
//===//
//
// Random reduction fusions (row and column reductions of every rank up to
// 4 with random layouts and reduced dimensions, sizes of 1, odd sizes and
// long rows; add, maximum, minimum, multiply and bitwise reducers on f32,
// f64, s32 and s8, f16 inputs converted to f32, argmax as a variadic
// reduce; elementwise prologues and epilogues, side outputs of the input's
// shape, two reductions in one fusion) become kernels of the reduction
// emitter, run on the host (warp shuffles, shared memory and barriers
// included) and must equal the interpreter: integers bit-exact, floats
// within the rounding of a different summation order.
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

struct Reducer {
  const char *name; // computation name
  const char *op;   // the combining instruction
  const char *init; // its identity
};

class ReductionGenerator {
public:
  explicit ReductionGenerator(std::mt19937 &rng) : rng(rng) {}

  /// A module whose ENTRY runs one reduction fusion; `reduced` is the
  /// number of elements each output element reduces.
  std::string generate(int64_t &reduced) {
    // The input shape: rank 1 to 4, one dimension sometimes long.
    int64_t rank = 1 + pick(4);
    shape.assign(rank, 1);
    for (int64_t &d : shape)
      d = 1 + pick(pick(3) == 0 ? 2 : 7);
    if (pick(2))
      shape[pick(rank)] = 20 + pick(pick(2) ? 400 : 80);
    layout.resize(rank);
    for (int64_t i = 0; i < rank; ++i)
      layout[i] = rank - 1 - i;
    if (pick(2))
      std::shuffle(layout.begin(), layout.end(), rng);
    // The reduced dimensions: a non-empty random subset.
    std::vector<int64_t> dims;
    while (dims.empty())
      for (int64_t d = 0; d < rank; ++d)
        if (pick(2))
          dims.push_back(d);
    reduced = 1;
    std::vector<int64_t> kept;
    for (int64_t d = 0; d < rank; ++d) {
      if (std::count(dims.begin(), dims.end(), d))
        reduced *= shape[d];
      else
        kept.push_back(shape[d]);
    }
    std::vector<int64_t> keptLayout(kept.size());
    for (size_t i = 0; i < kept.size(); ++i)
      keptLayout[i] = kept.size() - 1 - i;
    if (pick(2))
      std::shuffle(keptLayout.begin(), keptLayout.end(), rng);
    std::string dimsText;
    for (size_t i = 0; i < dims.size(); ++i)
      dimsText += (i ? "," : "") + std::to_string(dims[i]);

    // The element type and reducer.
    static const Reducer floats[] = {{"add", "add", "0"},
                                     {"max", "maximum", "-inf"},
                                     {"min", "minimum", "inf"}};
    static const Reducer ints[] = {{"add", "add", "0"},
                                   {"max", "maximum", "-128"},
                                   {"min", "minimum", "127"},
                                   {"mul", "multiply", "1"},
                                   {"xor", "xor", "0"}};
    int kind = pick(5); // f32, f64, s32, s8, f16 input
    std::string type = kind == 1   ? "f64"
                       : kind == 2 ? "s32"
                       : kind == 3 ? "s8"
                                   : "f32";
    bool isFloat = type[0] == 'f';
    const Reducer &r = isFloat ? floats[pick(3)] : ints[pick(5)];
    bool argmax = isFloat && type == "f32" && pick(5) == 0;
    std::string paramType = kind == 4 ? "f16" : type;
    std::string inType = shapeText(type, shape) + layoutText(layout);
    std::string outType = shapeText(type, kept) + layoutText(keptLayout);

    std::string text = "HloModule random_reduction\n\n";
    text += std::string("%") + r.name + " (a: " + type + "[], b: " + type +
            "[]) -> " + type + "[] {\n  %a = " + type +
            "[] parameter(0)\n  %b = " + type +
            "[] parameter(1)\n  ROOT %c = " + type + "[] " + r.op +
            "(%a, %b)\n}\n\n";
    if (argmax)
      text += argmaxComputationText("f32");

    FusionText f;
    std::string p0 =
        f.addParam(shapeText(paramType, shape) + layoutText(layout));
    // The prologue: the reduced values.
    std::string input = p0;
    if (kind == 4) {
      f.body += "  %in = " + inType + " convert(" + p0 + ")\n";
      input = "%in";
    } else if (isFloat && pick(2)) {
      f.body += "  %in = " + inType + " exponential(" + p0 + ")\n";
      input = "%in";
    } else if (pick(3) == 0) {
      f.body += "  %in = " + inType + " multiply(" + p0 + ", " + p0 + ")\n";
      input = "%in";
    }
    f.body += "  %init = " + type + "[] constant(" + r.init + ")\n";
    if (argmax) {
      std::string iotaType = shapeText("s32", shape) + layoutText(layout);
      std::string keptS32 = shapeText("s32", kept) + layoutText(keptLayout);
      f.body += "  %iota = " + iotaType +
                " iota(), iota_dimension=" + std::to_string(dims.back()) + "\n";
      f.body += "  %zero = s32[] constant(0)\n  %ninf = f32[] constant(-inf)\n";
      f.body += "  %am = (" + outType + ", " + keptS32 + ") reduce(" + input +
                ", %iota, %ninf, %zero), dimensions={" + dimsText +
                "}, to_apply=%argmax\n";
      f.body += "  %am0 = " + outType + " get-tuple-element(%am), index=0\n";
      f.body += "  %am1 = " + keptS32 + " get-tuple-element(%am), index=1\n";
      f.addOutput("%am0", outType);
      f.addOutput("%am1", keptS32);
    } else {
      f.body += "  %r = " + outType + " reduce(" + input +
                ", %init), dimensions={" + dimsText + "}, to_apply=%" + r.name +
                "\n";
      std::string result = "%r";
      switch (pick(4)) {
      case 0: { // an epilogue reading another parameter
        std::string q = f.addParam(outType);
        f.body += "  %epi = " + outType + " " + (isFloat ? "multiply" : "add") +
                  "(%r, " + q + ")\n";
        result = "%epi";
        break;
      }
      case 1: // a convert
        if (isFloat) {
          std::string t = shapeText("f32", kept) + layoutText(keptLayout);
          f.body += "  %epi = " + t + " convert(%r)\n";
          result = "%epi";
          outType = t;
        }
        break;
      default:
        break;
      }
      f.addOutput(result, outType);
      if (pick(4) == 0) { // a second reduction of the same shape
        f.body +=
            "  %sq = " + inType + " multiply(" + input + ", " + input + ")\n";
        f.body += "  %r2 = " + shapeText(type, kept) + layoutText(keptLayout) +
                  " reduce(%sq, %init), dimensions={" + dimsText +
                  "}, to_apply=%" + r.name + "\n";
        f.addOutput("%r2", shapeText(type, kept) + layoutText(keptLayout));
      }
    }
    if (pick(3) == 0) { // a side output of the input's shape
      std::vector<int64_t> sideLayout = layout;
      if (pick(2))
        std::shuffle(sideLayout.begin(), sideLayout.end(), rng);
      std::string t = shapeText(paramType, shape) + layoutText(sideLayout);
      f.body += "  %side = " + t + " negate(" + p0 + ")\n";
      f.addOutput("%side", t);
    }
    text += f.finish("reduction", "kind=kInput");
    return text;
  }

private:
  int64_t pick(int64_t n) {
    return std::uniform_int_distribution<int64_t>(0, n - 1)(rng);
  }

  std::mt19937 &rng;
  std::vector<int64_t> shape, layout;
};

TEST(ReductionEmitterTest, RandomReductionsMatchTheInterpreter) {
  DialectRegistry registry;
  registerHloTranslateDialects(registry);
  registerHostJitDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  std::mt19937 rng(2718);
  int ran = 0, rows = 0, columns = 0;
  const int trials = 300;
  for (int trial = 0; trial < trials; ++trial) {
    ReductionGenerator gen(rng);
    int64_t reduced = 1;
    std::string text = gen.generate(reduced);
    OwningOpRef<ModuleOp> module = importHloText(text, &ctx);
    ASSERT_TRUE(module) << text;
    // Every generated fusion is one the reduction emitter takes.
    SymbolTable symbols(*module);
    Operation *fusion = getOnlyFusion(*module);
    std::string reason;
    FailureOr<EmitterKind> kind = chooseEmitter(fusion, symbols, reason);
    ASSERT_TRUE(succeeded(kind) && *kind == EmitterKind::Reduction)
        << reason << "\n"
        << text;
    FailureOr<ReductionInfo> info =
        analyzeReductionFusion(fusion, symbols, reason);
    ASSERT_TRUE(succeeded(info)) << reason;
    (info->numKeptMinor == 1 ? rows : columns)++;

    std::string error;
    FailureOr<std::vector<Literal>> args =
        randomArguments(*module, trial, error);
    ASSERT_TRUE(succeeded(args)) << error << "\n" << text;
    FailureOr<Literal> expected =
        run(*module, *args, getModuleOptions(*module), error);
    ASSERT_TRUE(succeeded(expected)) << error << "\n" << text;
    FailureOr<std::vector<Literal>> got =
        runFusionOnHost(*module, *args, "reduction", error);
    ASSERT_TRUE(succeeded(got)) << error << "\n" << text;
    ArrayRef<Literal> want = expected->getElements();
    ASSERT_EQ(got->size(), want.size());
    for (size_t k = 0; k < want.size(); ++k) {
      std::string why;
      // A different summation order: a few ulps of f32 per term.
      EXPECT_TRUE(closeEnough((*got)[k], want[k], 1e-5,
                              3e-6 * double(reduced) + 1e-6, why))
          << "output " << k << ": " << why << "\n"
          << text;
    }
    ++ran;
  }
  EXPECT_EQ(ran, trials);
  // Both kinds of reduction are exercised.
  EXPECT_GT(rows, trials / 5);
  EXPECT_GT(columns, trials / 10);
}

} // namespace
