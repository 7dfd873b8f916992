//===- HostRuntimeTest.cpp - compiled GEMMs on the host runtime -----------===//
//
// Random dots (batched or not, contracting dimension first or last, every
// parameter in a random layout, with bias, relu and scaling epilogues, in
// f32, f64, f16 and bf16) compiled by the whole GPU compiler into thunk
// programs and run by the host runtime, against the interpreter on the
// original module. Most become cuBLAS GEMMs, so this checks the cuBLASLt
// matrix layouts hlo-to-thunk derives and the OpenBLAS path of the runtime.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "Hlo/Pipelines/RunOnDevice.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Translate/HloText.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>
#include <regex>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::test;
using runtime::Literal;

namespace {

struct GemmCase {
  std::string text;
  std::string type;
  int64_t k = 1;
};

GemmCase generate(std::mt19937 &rng) {
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  const char *types[] = {"f32", "f64", "f16", "bf16"};
  GemmCase c;
  c.type = types[pick(0, 3)];
  // Large enough for cuBLAS: XLA leaves dots with (m + n) * k < 100 to
  // its classical emitter (no dot element generator here yet).
  int64_t m = pick(7, 24), n = pick(7, 24), k = pick(8, 24);
  c.k = k;
  bool batched = pick(0, 1);
  int64_t batch = pick(1, 3);
  // Logical dims: [batch?, m, k] or [batch?, k, m]; [batch?, k, n] or
  // [batch?, n, k].
  bool lhsKFirst = pick(0, 1), rhsKLast = pick(0, 1);
  std::vector<int64_t> lhs, rhs, out;
  if (batched) {
    lhs.push_back(batch);
    rhs.push_back(batch);
    out.push_back(batch);
  }
  int64_t b = batched ? 1 : 0;
  if (lhsKFirst) {
    lhs.push_back(k);
    lhs.push_back(m);
  } else {
    lhs.push_back(m);
    lhs.push_back(k);
  }
  if (rhsKLast) {
    rhs.push_back(n);
    rhs.push_back(k);
  } else {
    rhs.push_back(k);
    rhs.push_back(n);
  }
  out.push_back(m);
  out.push_back(n);
  auto layout = [&](size_t rank) {
    std::vector<int64_t> perm(rank);
    for (size_t i = 0; i < rank; ++i)
      perm[i] = rank - 1 - i;
    if (pick(0, 2) == 0)
      std::shuffle(perm.begin(), perm.end(), rng);
    return layoutText(perm);
  };
  std::string t = c.type;
  std::string outShape = shapeText(t, out);
  std::string body;
  body += "  a = " + shapeText(t, lhs) + layout(lhs.size()) + " parameter(0)\n";
  body += "  b = " + shapeText(t, rhs) + layout(rhs.size()) + " parameter(1)\n";
  body += "  v = " + shapeText(t, {n}) + " parameter(2)\n";
  std::string batchDims =
      batched ? "lhs_batch_dims={0}, rhs_batch_dims={0}, " : "";
  body += "  d = " + outShape + " dot(a, b), " + batchDims +
          "lhs_contracting_dims={" + std::to_string(b + (lhsKFirst ? 0 : 1)) +
          "}, rhs_contracting_dims={" + std::to_string(b + (rhsKLast ? 1 : 0)) +
          "}\n";
  std::string root = "d";
  int epilogue = pick(0, 3);
  if (epilogue == 1 || epilogue == 2) {
    body += "  vb = " + outShape + " broadcast(v), dimensions={" +
            std::to_string(out.size() - 1) + "}\n";
    body += "  s = " + outShape + " add(d, vb)\n";
    root = "s";
  }
  if (epilogue == 2) {
    body += "  z = " + outShape + " broadcast(" + t +
            "[] constant(0)), dimensions={}\n";
    body += "  r = " + outShape + " maximum(s, z)\n";
    root = "r";
  }
  if (epilogue == 3) {
    body += "  two = " + outShape + " broadcast(" + t +
            "[] constant(2)), dimensions={}\n";
    body += "  x = " + outShape + " multiply(d, two)\n";
    root = "x";
  }
  body += "  ROOT out = " + outShape + " negate(" + root + ")\n";
  c.text = "HloModule gemm\n\nENTRY e {\n" + body + "}\n";
  return c;
}

/// `trials` random dots compiled by the whole GPU compiler and run on the
/// runtime of `kind`, each against the interpreter.
void checkRandomGemms(DeviceKind kind, int trials) {
  DialectRegistry registry;
  registerHloTranslateDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();
  std::mt19937 rng(2026);
  int gemms = 0;
  std::regex gemmCount("([0-9]+) GEMMs");
  for (int trial = 0; trial < trials; ++trial) {
    GemmCase c = generate(rng);
    OwningOpRef<ModuleOp> module = importHloText(c.text, &ctx);
    ASSERT_TRUE(module) << c.text;
    std::string error, note;
    FailureOr<std::vector<Literal>> args =
        runtime::randomArguments(*module, trial, error);
    ASSERT_TRUE(succeeded(args)) << error << "\n" << c.text;
    FailureOr<Literal> want =
        runtime::run(*module, *args, runtime::getModuleOptions(*module), error);
    ASSERT_TRUE(succeeded(want)) << error << "\n" << c.text;
    FailureOr<Literal> got = runOnDevice(*module, *args, kind, error, note);
    ASSERT_TRUE(succeeded(got)) << error << "\n" << c.text;
    std::smatch match;
    if (std::regex_search(note, match, gemmCount))
      gemms += std::stoi(match[1]);
    // 16-bit results: the interpreter rounds the dot, the GEMM rounds once
    // after its epilogue.
    bool narrow = c.type == "f16" || c.type == "bf16";
    double rtol = narrow ? 2e-2 : c.type == "f32" ? 1e-4 : 1e-10;
    // TF32 is off in cuBLASLt's default f32 compute type, but its kernels
    // may split k: the sums differ in order.
    double atol = rtol * double(c.k);
    std::string why;
    EXPECT_TRUE(closeEnough(*got, *want, rtol, atol, why)) << why << "\n"
                                                           << note << "\n"
                                                           << c.text;
  }
  // Most dots become cuBLAS GEMMs (the rest reductions or loops).
  EXPECT_GT(gemms, trials / 2);
}

TEST(HostRuntimeTest, RandomGemmsMatchTheInterpreter) {
  checkRandomGemms(DeviceKind::Host, 120);
}

// The same on GPU 0 through the CUDA runtime (kernels from PTX, GEMMs by
// cuBLASLt); skipped where there is no GPU.
TEST(CudaRuntimeTest, RandomGemmsMatchTheInterpreter) {
  std::string device, error;
  if (failed(probeDevice(DeviceKind::Cuda, device, error)))
    GTEST_SKIP() << error;
  checkRandomGemms(DeviceKind::Cuda, 120);
}

} // namespace
