//===- DotAndSelectAndScatterTest.cpp - loop kernels with inner loops -----===//
//
// Random loop fusions whose root the element generator computes with loops
// of its own: dots (random batch, contracting and free dimensions in any
// position and order, layouts, a producer fused into the lhs; f32, f16,
// bf16, bf16 -> f32, f64, s32, s8 -> s32, u8 -> u32, pred) and
// select-and-scatters (random windows, strides and padding; f32 and s32,
// selections by >=, > and <=, scatters by add and max). Each becomes a
// kernel (hlo-to-gpu), a host function and JIT-compiled code; its results
// on random inputs must equal the interpreter's on the same fusion:
// integers exactly, select-and-scatter floats exactly (the fold order is
// the interpreter's), dot floats within the error of the accumulation type
// (a few of its ulps times the sum of the products' magnitudes, which the
// interpreter computes from the absolute values in f64) plus one rounding
// to the result type.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Runtime/Literal.h"
#include "Hlo/Translate/HloText.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::test;

namespace {

std::string listText(const std::vector<int64_t> &v) {
  std::string s = "{";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? "," : "") + std::to_string(v[i]);
  return s + "}";
}

std::string typeText(const std::string &type, const std::vector<int64_t> &shape,
                     const std::vector<int64_t> &m2m) {
  return shapeText(type, shape) + layoutText(m2m);
}

struct Case {
  std::string text;    // the fusion module
  std::string absText; // dot(|lhs|, |rhs|) in f64 (float dots only)
  std::string outType;
  int64_t k = 1; // the contraction's length
};

class Generator {
public:
  explicit Generator(std::mt19937 &rng) : rng(rng) {}

  int64_t pick(int64_t n) {
    return std::uniform_int_distribution<int64_t>(0, n - 1)(rng);
  }

  std::vector<int64_t> randomLayout(size_t rank) {
    std::vector<int64_t> m2m(rank);
    for (size_t i = 0; i < rank; ++i)
      m2m[i] = rank - 1 - i;
    if (pick(2))
      std::shuffle(m2m.begin(), m2m.end(), rng);
    return m2m;
  }

  /// A random dot fusion.
  Case dot() {
    static const char *const configs[][3] = {
        {"f32", "f32", "f32"},    {"f16", "f16", "f16"},
        {"bf16", "bf16", "bf16"}, {"bf16", "bf16", "f32"},
        {"f64", "f64", "f64"},    {"s32", "s32", "s32"},
        {"s8", "s8", "s32"},      {"u8", "u8", "u32"},
        {"pred", "pred", "pred"}, {"f16", "f32", "f32"}};
    const auto &config = configs[pick(10)];
    std::string lt = config[0], rt = config[1], ot = config[2];
    bool isFloat = ot[0] == 'f' || ot[0] == 'b';
    int64_t nb = pick(3), nc = pick(4) == 0 ? 0 : 1 + pick(2);
    int64_t nlf = pick(3), nrf = pick(3);
    while (nb + nc + std::max(nlf, nrf) > 4) {
      if (nlf > 0)
        --nlf;
      if (nrf > 0)
        --nrf;
      if (nb + nc + std::max(nlf, nrf) > 4 && nb > 0)
        --nb;
    }
    auto sizes = [&](int64_t n, int64_t max) {
      std::vector<int64_t> s;
      for (int64_t i = 0; i < n; ++i)
        s.push_back(1 + pick(max));
      return s;
    };
    std::vector<int64_t> batch = sizes(nb, 4), contract = sizes(nc, 6),
                         lfree = sizes(nlf, 5), rfree = sizes(nrf, 5);
    // Each operand's dimensions: its roles in a random order.
    struct Role {
      int kind; // 0 batch, 1 contracting, 2 free
      int64_t i;
    };
    auto operand = [&](const std::vector<int64_t> &free,
                       std::vector<int64_t> &shape, std::vector<int64_t> &bd,
                       std::vector<int64_t> &cd) {
      std::vector<Role> roles;
      for (int64_t i = 0; i < nb; ++i)
        roles.push_back({0, i});
      for (int64_t i = 0; i < nc; ++i)
        roles.push_back({1, i});
      for (size_t i = 0; i < free.size(); ++i)
        roles.push_back({2, int64_t(i)});
      std::shuffle(roles.begin(), roles.end(), rng);
      // Free dimensions keep their order (the result's order is theirs).
      int64_t f = 0;
      for (Role &r : roles)
        if (r.kind == 2)
          r.i = f++;
      bd.assign(nb, 0);
      cd.assign(nc, 0);
      for (auto [d, r] : llvm::enumerate(roles)) {
        if (r.kind == 0) {
          shape.push_back(batch[r.i]);
          bd[r.i] = d;
        } else if (r.kind == 1) {
          shape.push_back(contract[r.i]);
          cd[r.i] = d;
        } else {
          shape.push_back(free[r.i]);
        }
      }
    };
    std::vector<int64_t> ls, rs, lb, lc, rb, rc;
    operand(lfree, ls, lb, lc);
    operand(rfree, rs, rb, rc);
    std::vector<int64_t> os = batch;
    os.insert(os.end(), lfree.begin(), lfree.end());
    os.insert(os.end(), rfree.begin(), rfree.end());
    std::vector<int64_t> lm = randomLayout(ls.size()),
                         rm = randomLayout(rs.size()),
                         om = randomLayout(os.size());
    std::string lT = typeText(lt, ls, lm), rT = typeText(rt, rs, rm),
                oT = typeText(ot, os, om);
    std::string dims;
    if (nb)
      dims += ", lhs_batch_dims=" + listText(lb) +
              ", rhs_batch_dims=" + listText(rb);
    if (nc)
      dims += ", lhs_contracting_dims=" + listText(lc) +
              ", rhs_contracting_dims=" + listText(rc);
    Case c;
    c.outType = ot;
    for (int64_t s : contract)
      c.k *= s;
    std::string producer;
    std::string lhsName = "%p0";
    if (pick(3) == 0) {
      producer =
          "  %n = " + lT + (lt == "pred" ? " not(%p0)\n" : " negate(%p0)\n");
      if (lt[0] == 'u')
        producer = "  %n = " + lT + " not(%p0)\n";
      lhsName = "%n";
    }
    c.text = "HloModule dot\n\n%fused (p0: " + lT + ", p1: " + rT + ") -> " +
             oT + " {\n  %p0 = " + lT + " parameter(0)\n  %p1 = " + rT +
             " parameter(1)\n" + producer + "  ROOT %d = " + oT + " dot(" +
             lhsName + ", %p1)" + dims + "\n}\n\nENTRY %main (a: " + lT +
             ", b: " + rT + ") -> " + oT + " {\n  %a = " + lT +
             " parameter(0)\n  %b = " + rT +
             " parameter(1)\n  ROOT %fusion = " + oT +
             " fusion(%a, %b), kind=kLoop, calls=%fused\n}\n";
    if (isFloat) {
      std::string la = typeText(lt, ls, lm), ra = typeText(rt, rs, rm);
      std::string l64 = typeText("f64", ls, lm), r64 = typeText("f64", rs, rm);
      c.absText = "HloModule absdot\n\nENTRY %main (a: " + la + ", b: " + ra +
                  ") -> " + typeText("f64", os, om) + " {\n  %a = " + la +
                  " parameter(0)\n  %b = " + ra +
                  " parameter(1)\n  %x = " + la + " abs(%a)\n  %y = " + ra +
                  " abs(%b)\n  %cx = " + l64 + " convert(%x)\n  %cy = " + r64 +
                  " convert(%y)\n  ROOT %d = " + typeText("f64", os, om) +
                  " dot(%cx, %cy)" + dims + "\n}\n";
    }
    return c;
  }

  /// A random select-and-scatter fusion (empty when the window does not
  /// fit).
  std::string selectAndScatter() {
    int64_t rank = 1 + pick(3);
    std::vector<int64_t> shape, source;
    std::string size, stride, pad;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t n = 1 + pick(7), w = 1 + pick(3), s = 1 + pick(3), lo = pick(3),
              hi = pick(3);
      if (lo + hi + n < w)
        return "";
      shape.push_back(n);
      source.push_back((lo + hi + n - w) / s + 1);
      std::string x = d ? "x" : "";
      size += x + std::to_string(w);
      stride += x + std::to_string(s);
      pad += x + std::to_string(lo) + "_" + std::to_string(hi);
    }
    bool f = pick(2);
    std::string t = f ? "f32" : "s32";
    static const char *const directions[] = {"GE", "GT", "LE"};
    std::string dir = directions[pick(3)];
    std::string scatterOp = pick(3) == 0 ? "maximum" : "add";
    std::string oT = typeText(t, shape, randomLayout(rank));
    std::string sT = typeText(t, source, randomLayout(rank));
    std::string init = f ? (scatterOp == "add" ? "0" : "-0.5") : "3";
    return "HloModule sas\n\n%select (a: " + t + "[], b: " + t +
           "[]) -> pred[] {\n  %a = " + t + "[] parameter(0)\n  %b = " + t +
           "[] parameter(1)\n  ROOT %r = pred[] compare(%a, %b), direction=" +
           dir + "\n}\n\n%scatter (a: " + t + "[], b: " + t + "[]) -> " + t +
           "[] {\n  %a = " + t + "[] parameter(0)\n  %b = " + t +
           "[] parameter(1)\n  ROOT %r = " + t + "[] " + scatterOp +
           "(%a, %b)\n}\n\n%fused (p0: " + oT + ", p1: " + sT + ") -> " + oT +
           " {\n  %p0 = " + oT + " parameter(0)\n  %p1 = " + sT +
           " parameter(1)\n  %i = " + t + "[] constant(" + init +
           ")\n  ROOT %s = " + oT + " select-and-scatter(%p0, %p1, %i), " +
           "window={size=" + size + " stride=" + stride + " pad=" + pad +
           "}, select=%select, scatter=%scatter\n}\n\nENTRY %main (a: " + oT +
           ", b: " + sT + ") -> " + oT + " {\n  %a = " + oT +
           " parameter(0)\n  %b = " + sT +
           " parameter(1)\n  ROOT %fusion = " + oT +
           " fusion(%a, %b), kind=kLoop, calls=%fused\n}\n";
  }

  std::mt19937 &rng;
};

/// The unit roundoff of a float type's name.
double unitRoundoff(const std::string &type) {
  if (type == "f16")
    return std::ldexp(1.0, -11);
  if (type == "bf16")
    return std::ldexp(1.0, -8);
  if (type == "f64")
    return std::ldexp(1.0, -53);
  return std::ldexp(1.0, -24);
}

class DotAndSelectAndScatterTest : public ::testing::Test {
protected:
  DotAndSelectAndScatterTest() {
    registerHloTranslateDialects(registry);
    registerHostJitDialects(registry);
  }
  DialectRegistry registry;
};

TEST_F(DotAndSelectAndScatterTest, RandomDotsMatchTheInterpreter) {
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  std::mt19937 rng(2024);
  int ran = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Generator gen(rng);
    Case c = gen.dot();
    OwningOpRef<ModuleOp> module = importHloText(c.text, &ctx);
    ASSERT_TRUE(module) << c.text;
    std::string error;
    FailureOr<std::vector<Literal>> args =
        randomArguments(*module, trial, error);
    ASSERT_TRUE(succeeded(args)) << error << "\n" << c.text;
    FailureOr<Literal> expected =
        run(*module, *args, getModuleOptions(*module), error);
    ASSERT_TRUE(succeeded(expected)) << error << "\n" << c.text;
    FailureOr<std::vector<Literal>> got =
        runFusionOnHost(*module, *args, "fusion", error);
    ASSERT_TRUE(succeeded(got)) << error << "\n" << c.text;
    ASSERT_EQ(got->size(), 1u);
    const Literal &g = (*got)[0];
    if (c.absText.empty()) {
      std::string why;
      ASSERT_TRUE(closeEnough(g, *expected, 0, 0, why)) << why << "\n"
                                                        << c.text;
    } else {
      OwningOpRef<ModuleOp> absModule = importHloText(c.absText, &ctx);
      ASSERT_TRUE(absModule) << c.absText;
      FailureOr<Literal> bound =
          run(*absModule, *args, getModuleOptions(*absModule), error);
      ASSERT_TRUE(succeeded(bound)) << error << "\n" << c.absText;
      // f32 accumulation (f64 for f64): k + 1 roundings of at most the
      // sum of magnitudes, then one rounding to the result type.
      double acc = unitRoundoff(c.outType == "f64" ? "f64" : "f32");
      double out = unitRoundoff(c.outType);
      for (int64_t i = 0, n = g.getNumElements(); i < n; ++i) {
        double a = g.getFloat(i), b = expected->getFloat(i);
        double tol = 2 * out * std::fabs(b) +
                     (c.k + 1) * acc * bound->getFloat(i) * (1 + 2 * out);
        ASSERT_LE(std::fabs(a - b), tol) << "element " << i << ": kernel " << a
                                         << ", interpreter " << b << "\n"
                                         << c.text;
      }
    }
    ++ran;
  }
  EXPECT_EQ(ran, 200);
}

TEST_F(DotAndSelectAndScatterTest, RandomSelectAndScattersMatchTheInterpreter) {
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  std::mt19937 rng(77);
  int ran = 0;
  for (int trial = 0; ran < 120 && trial < 1000; ++trial) {
    Generator gen(rng);
    std::string text = gen.selectAndScatter();
    if (text.empty())
      continue;
    OwningOpRef<ModuleOp> module = importHloText(text, &ctx);
    ASSERT_TRUE(module) << text;
    std::string error;
    FailureOr<std::vector<Literal>> args =
        randomArguments(*module, trial, error);
    ASSERT_TRUE(succeeded(args)) << error << "\n" << text;
    FailureOr<Literal> expected =
        run(*module, *args, getModuleOptions(*module), error);
    ASSERT_TRUE(succeeded(expected)) << error << "\n" << text;
    FailureOr<std::vector<Literal>> got =
        runFusionOnHost(*module, *args, "fusion", error);
    ASSERT_TRUE(succeeded(got)) << error << "\n" << text;
    ASSERT_EQ(got->size(), 1u);
    std::string why;
    ASSERT_TRUE(closeEnough((*got)[0], *expected, 0, 0, why)) << why << "\n"
                                                              << text;
    ++ran;
  }
  EXPECT_EQ(ran, 120);
}

} // namespace
