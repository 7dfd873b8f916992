//===- SortEmitterTest.cpp - random sorts on the host runtime -------------===//
//
// Random sorts (1 to 4 operands of several element types, ranks 1 to 3 in
// random layouts, sorted dimensions of 1 to 9000 elements, powers of two or
// not: one tiled kernel, or global stages between tiled ones; LT or GT
// comparators, floats with NaNs, signed zeros and ties in their total order,
// stable or not) compiled by the whole GPU compiler (the stable sort
// expander, the fusion wrapper, the sort emitter, hlo-to-thunk) and run by
// the host runtime; the results must be the interpreter's bit for bit (an
// unstable sort's keys only: its values may come in any order among equal
// keys).
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "Hlo/Pipelines/RunOnDevice.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Translate/HloText.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::test;
using runtime::Literal;

namespace {

struct SortCase {
  std::string text;
  std::string keyType;
  bool stable = true;
  bool nans = false;
  int64_t dim = 0, size = 1;
};

SortCase generate(std::mt19937 &rng) {
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  SortCase c;
  const char *keyTypes[] = {"f32", "s32", "f16", "u32", "f64"};
  const char *valueTypes[] = {"f32", "s32", "s8", "f64", "pred", "f16"};
  c.keyType = keyTypes[pick(0, 4)];
  bool isFloat = c.keyType[0] == 'f';
  int rank = pick(1, 3);
  const int64_t sizes[] = {1,   2,   3,    5,    16,   37,  100,
                           128, 513, 1000, 4096, 5000, 9000};
  c.dim = pick(0, rank - 1);
  c.size = sizes[pick(0, 12)];
  std::vector<int64_t> shape(rank);
  for (int d = 0; d < rank; ++d)
    shape[d] = d == c.dim ? c.size : pick(1, c.size > 1000 ? 2 : 4);
  std::vector<int64_t> perm(rank);
  for (int i = 0; i < rank; ++i)
    perm[i] = rank - 1 - i;
  if (pick(0, 1))
    std::shuffle(perm.begin(), perm.end(), rng);
  std::string layout = layoutText(perm);
  int n = pick(1, 4);
  std::vector<std::string> types = {c.keyType};
  for (int i = 1; i < n; ++i)
    types.push_back(valueTypes[pick(0, 5)]);
  c.stable = pick(0, 3) != 0;
  c.nans = isFloat && pick(0, 1);
  bool greater = pick(0, 1);

  std::string cmp = "cmp {\n";
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 2; ++j)
      cmp += "  a" + std::to_string(2 * i + j) + " = " + types[i] +
             "[] parameter(" + std::to_string(2 * i + j) + ")\n";
  // NaNs need the total order (a partial order sorts differently in every
  // algorithm).
  cmp += std::string("  ROOT c = pred[] compare(a0, a1), direction=") +
         (greater ? "GT" : "LT") + (c.nans ? ", type=TOTALORDER" : "") +
         "\n}\n\n";
  std::string entry = "ENTRY e {\n", operands, resultType;
  for (int i = 0; i < n; ++i) {
    std::string t = shapeText(types[i], shape) + layout;
    entry += "  p" + std::to_string(i) + " = " + t + " parameter(" +
             std::to_string(i) + ")\n";
    operands += (i ? ", p" : "p") + std::to_string(i);
    resultType += (i ? ", " : "") + t;
  }
  if (n > 1)
    resultType = "(" + resultType + ")";
  entry += "  ROOT s = " + resultType + " sort(" + operands +
           "), dimensions={" + std::to_string(c.dim) + "}" +
           (c.stable ? ", is_stable=true" : "") + ", to_apply=cmp\n}\n";
  c.text = "HloModule sorts\n\n" + cmp + entry;
  return c;
}

/// Ties, NaNs of both signs, signed zeros and infinities among the keys.
void perturbKeys(Literal &keys, const SortCase &c, std::mt19937 &rng) {
  int64_t count = keys.getNumElements();
  auto pick = [&](int64_t hi) {
    return std::uniform_int_distribution<int64_t>(0, hi)(rng);
  };
  bool isFloat = c.keyType[0] == 'f';
  for (int64_t i = 0; i < count; ++i) {
    int64_t r = pick(19);
    if (r < 3 && count > 1) {
      int64_t j = pick(count - 1);
      if (isFloat)
        keys.setFloat(i, keys.getFloat(j));
      else
        keys.setInt(i, keys.getInt(j));
    } else if (isFloat && c.nans && r == 3) {
      keys.setFloat(i, pick(1) ? std::nan("") : -std::nan(""));
    } else if (isFloat && r == 4) {
      keys.setFloat(i, pick(1) ? 0.0 : -0.0);
    } else if (isFloat && r == 5) {
      keys.setFloat(i, pick(1) ? std::numeric_limits<double>::infinity()
                               : -std::numeric_limits<double>::infinity());
    }
  }
}

void checkRandomSorts(int trials) {
  DialectRegistry registry;
  registerHloTranslateDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();
  std::mt19937 rng(2027);
  int multiKernel = 0;
  for (int trial = 0; trial < trials; ++trial) {
    SortCase c = generate(rng);
    OwningOpRef<ModuleOp> module = importHloText(c.text, &ctx);
    ASSERT_TRUE(module) << c.text;
    std::string error, note;
    FailureOr<std::vector<Literal>> args =
        runtime::randomArguments(*module, trial, error);
    ASSERT_TRUE(succeeded(args)) << error << "\n" << c.text;
    perturbKeys((*args)[0], c, rng);
    FailureOr<Literal> want =
        runtime::run(*module, *args, runtime::getModuleOptions(*module), error);
    ASSERT_TRUE(succeeded(want)) << error << "\n" << c.text;
    FailureOr<Literal> got =
        runOnDevice(*module, *args, DeviceKind::Host, error, note);
    ASSERT_TRUE(succeeded(got)) << error << "\n" << c.text;
    if (c.size > 4096)
      ++multiKernel;
    std::vector<const Literal *> gotArrays = getOutputArrays(*got),
                                 wantArrays = getOutputArrays(*want);
    ASSERT_EQ(gotArrays.size(), wantArrays.size()) << c.text;
    // An unstable sort's keys are determined (but for the sign of zeros,
    // which only the total order tells apart); its values among equal keys
    // are not.
    size_t checked = c.stable ? gotArrays.size() : 1;
    for (size_t i = 0; i < checked; ++i) {
      std::string why;
      // Bit for bit where it matters: zeros by their sign unless the sort
      // cannot tell them apart.
      bool signedZeros = c.stable || c.nans;
      EXPECT_TRUE(closeEnough(*gotArrays[i], *wantArrays[i], /*rtol=*/0,
                              /*atol=*/0, why, signedZeros))
          << "output " << i << ": " << why << "\n"
          << note << "\n"
          << c.text;
    }
  }
  // Dimensions beyond one tile (several kernels) are among the cases.
  EXPECT_GT(multiKernel, trials / 20);
}

TEST(SortEmitter, RandomSortsOnHostRuntime) { checkRandomSorts(120); }

} // namespace
