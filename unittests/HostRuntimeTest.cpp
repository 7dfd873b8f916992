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

#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Dialect/Thunk/ThunkDialect.h"
#include "Hlo/Pipelines/RunOnDevice.h"
#include "Hlo/Runtime/Host/HostRuntime.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "Hlo/Transforms/Passes.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

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
  int epilogue = pick(0, 4);
  bool bias = epilogue == 1 || epilogue == 2 || (epilogue == 4 && pick(0, 1));
  if (bias) {
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
  if (epilogue == 4) {
    // XLA's approximate GELU of the GEMM's result (and bias), which the
    // GEMM rewriter folds into a (BIAS_)GELU epilogue.
    auto scalar = [&](const std::string &name, const std::string &value) {
      body += "  " + name + " = " + outShape + " broadcast(" + t +
              "[] constant(" + value + ")), dimensions={}\n";
    };
    auto binary = [&](const std::string &name, const std::string &op,
                      const std::string &a, const std::string &b) {
      body += "  " + name + " = " + outShape + " " + op + "(" + a + ", " + b +
              ")\n";
    };
    scalar("c", "0.044715");
    scalar("k", "0.7978845608028654");
    scalar("one", "1");
    scalar("half", "0.5");
    binary("x2", "multiply", root, root);
    binary("x3", "multiply", root, "x2");
    binary("cx3", "multiply", "c", "x3");
    binary("inner", "add", root, "cx3");
    binary("arg", "multiply", "k", "inner");
    body += "  th = " + outShape + " tanh(arg)\n";
    binary("onep", "add", "one", "th");
    binary("cdf", "multiply", "half", "onep");
    binary("g", "multiply", root, "cdf");
    root = "g";
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

/// One random convolution module (see checkRandomConvolutions).
struct ConvCase {
  std::string text;
  std::string type;
  /// The products each output element sums.
  int64_t terms = 1;
  /// int8: whether the input features of the cuDNN conv end up a multiple
  /// of 4 (already, or padded: XLA pads to 4 or 32 unless the input or
  /// the result would double).
  bool int8FeaturesAligned = false;
};

/// The roles of a tensor of a convolution: "b", "f" (or "i", "o" for a
/// kernel) and spatial dimensions "0", "1", ... with their sizes, in a
/// random logical order and a random layout.
struct ConvTensor {
  std::string labels;
  std::vector<int64_t> shape;
  std::string layout;
};

ConvTensor makeTensor(std::mt19937 &rng, char a, int64_t aSize, char b,
                      int64_t bSize, const std::vector<int64_t> &spatial) {
  std::vector<std::pair<char, int64_t>> dims = {{a, aSize}, {b, bSize}};
  for (size_t i = 0; i < spatial.size(); ++i)
    dims.push_back({char('0' + i), spatial[i]});
  std::shuffle(dims.begin(), dims.end(), rng);
  ConvTensor t;
  for (auto [label, size] : dims) {
    t.labels += label;
    t.shape.push_back(size);
  }
  std::vector<int64_t> perm(dims.size());
  for (size_t i = 0; i < perm.size(); ++i)
    perm[i] = perm.size() - 1 - i;
  if (std::uniform_int_distribution<int>(0, 1)(rng))
    std::shuffle(perm.begin(), perm.end(), rng);
  t.layout = layoutText(perm);
  return t;
}

std::string joinX(const std::vector<int64_t> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? "x" : "") + std::to_string(v[i]);
  return s;
}

/// A random forward convolution (with a fused bias, side input, scale and
/// relu epilogue at times), or the input or filter gradient of one as JAX
/// writes them (a base-dilated convolution with the reversed kernel; a
/// convolution of the input by the output gradient).
ConvCase generateConv(std::mt19937 &rng) {
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  const char *types[] = {"f32", "f32", "f16", "bf16"};
  ConvCase c;
  c.type = types[pick(0, 3)];
  std::string t = c.type;
  int64_t rank = pick(0, 3) == 0 ? 1 : pick(0, 4) == 0 ? 3 : 2;
  int kind = pick(0, 3); // forward, fused, backward input, backward filter
  int64_t groups = kind <= 1 && pick(0, 2) == 0 ? pick(2, 3) : 1;
  int64_t batch = pick(1, 3), cg = pick(1, 4), og = pick(1, 4);
  int64_t in = groups * cg, out = groups * og;
  // The forward convolution's window.
  std::vector<int64_t> size, k, stride, dil, lo, hi, ysize;
  for (int64_t d = 0; d < rank; ++d) {
    k.push_back(pick(1, rank == 3 ? 2 : 3));
    dil.push_back(pick(0, 3) == 0 ? 2 : 1);
    int64_t window = (k[d] - 1) * dil[d] + 1;
    size.push_back(pick(int(window), int(window) + (rank == 3 ? 2 : 5)));
    stride.push_back(pick(1, 3));
    lo.push_back(pick(0, int((k[d] - 1) * dil[d])));
    hi.push_back(pick(0, int((k[d] - 1) * dil[d])));
    ysize.push_back((size[d] + lo[d] + hi[d] - window) / stride[d] + 1);
  }
  std::vector<int64_t> ones(rank, 1);
  // A window reversed in every spatial dimension (cuDNN's convolution mode)
  // at times: in 2-D only, where XLA's CanImplementAsGpuForwardConv takes
  // one.
  bool reversed = rank == 2 && pick(0, 3) == 0;
  auto windowText =
      [&](const std::vector<int64_t> &wsize,
          const std::vector<int64_t> &wstride, const std::vector<int64_t> &wlo,
          const std::vector<int64_t> &whi, const std::vector<int64_t> &lhsDil,
          const std::vector<int64_t> &rhsDil) {
        std::string pad;
        for (int64_t d = 0; d < rank; ++d)
          pad += (d ? "x" : "") + std::to_string(wlo[d]) + "_" +
                 std::to_string(whi[d]);
        return "window={size=" + joinX(wsize) + " stride=" + joinX(wstride) +
               " pad=" + pad + " lhs_dilate=" + joinX(lhsDil) +
               " rhs_dilate=" + joinX(rhsDil) +
               (reversed ? " rhs_reversal=" + joinX(ones) : "") + "}";
      };
  auto param = [&](const std::string &name, const ConvTensor &x, int i) {
    return "  " + name + " = " + shapeText(t, x.shape) + x.layout +
           " parameter(" + std::to_string(i) + ")\n";
  };
  std::string body, root, rootShape;
  if (kind <= 1) {
    ConvTensor x = makeTensor(rng, 'b', batch, 'f', in, size);
    ConvTensor w = makeTensor(rng, 'o', out, 'i', cg, k);
    ConvTensor y = makeTensor(rng, 'b', batch, 'f', out, ysize);
    std::string yShape = shapeText(t, y.shape) + y.layout;
    rootShape = yShape;
    body += param("x", x, 0) + param("w", w, 1);
    body +=
        "  conv = " + yShape + " convolution(x, w), " +
        windowText(k, stride, lo, hi, ones, dil) + ", dim_labels=" + x.labels +
        "_" + w.labels + "->" + y.labels +
        (groups > 1 ? ", feature_group_count=" + std::to_string(groups) : "") +
        "\n";
    root = "conv";
    c.terms = cg;
    for (int64_t d : k)
      c.terms *= d;
    if (kind == 1) {
      int64_t fdim = y.labels.find('f');
      body += "  bias = " + shapeText(t, {out}) + " parameter(2)\n";
      if (pick(0, 1)) {
        body += "  scale = " + yShape + " broadcast(" + t +
                "[] constant(0.5)), dimensions={}\n";
        body += "  scaled = " + yShape + " multiply(" + root + ", scale)\n";
        root = "scaled";
      }
      body += "  bb = " + yShape + " broadcast(bias), dimensions={" +
              std::to_string(fdim) + "}\n";
      body += "  biased = " + yShape + " add(" + root + ", bb)\n";
      root = "biased";
      if (pick(0, 1)) {
        body += "  side = " + yShape + " parameter(3)\n";
        body += "  sided = " + yShape + " add(" + root + ", side)\n";
        root = "sided";
      }
      if (pick(0, 1)) {
        body += "  zero = " + yShape + " broadcast(" + t +
                "[] constant(0)), dimensions={}\n";
        body += "  relu = " + yShape + " maximum(" + root + ", zero)\n";
        root = "relu";
      }
    }
  } else if (kind == 2) {
    // dx = conv(dy base-dilated by the stride, reverse(w)), the kernel's
    // feature roles swapped.
    ConvTensor dy = makeTensor(rng, 'b', batch, 'f', out, ysize);
    ConvTensor w = makeTensor(rng, 'i', out, 'o', in, k);
    ConvTensor dx = makeTensor(rng, 'b', batch, 'f', in, size);
    std::vector<int64_t> plo, phi, spatialDims;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t window = (k[d] - 1) * dil[d] + 1;
      int64_t rest = (size[d] + lo[d] + hi[d] - window) % stride[d];
      plo.push_back((k[d] - 1) * dil[d] - lo[d]);
      phi.push_back((k[d] - 1) * dil[d] - hi[d] + rest);
      spatialDims.push_back(w.labels.find(char('0' + d)));
    }
    std::string dims;
    for (size_t i = 0; i < spatialDims.size(); ++i)
      dims += (i ? "," : "") + std::to_string(spatialDims[i]);
    body += param("dy", dy, 0) + param("w", w, 1);
    // The kernel reversed by a reverse op, or by the window (`reversed`,
    // as in XLA's own backward-input convolutions).
    if (!reversed)
      body += "  rw = " + shapeText(t, w.shape) + w.layout +
              " reverse(w), dimensions={" + dims + "}\n";
    rootShape = shapeText(t, dx.shape) + dx.layout;
    body += "  conv = " + rootShape + " convolution(dy, " +
            (reversed ? "w" : "rw") + "), " +
            windowText(k, ones, plo, phi, stride, dil) +
            ", dim_labels=" + dy.labels + "_" + w.labels + "->" + dx.labels +
            "\n";
    root = "conv";
    c.terms = out;
    for (int64_t d : k)
      c.terms *= d;
  } else {
    // dw = conv(x, dy): x's batch is the contracted feature, its features
    // the batch; dy is the kernel, dilated by the stride.
    ConvTensor x = makeTensor(rng, 'f', batch, 'b', in, size);
    ConvTensor dy = makeTensor(rng, 'i', batch, 'o', out, ysize);
    ConvTensor dw = makeTensor(rng, 'b', in, 'f', out, k);
    std::vector<int64_t> phi;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t window = (k[d] - 1) * dil[d] + 1;
      int64_t rest = (size[d] + lo[d] + hi[d] - window) % stride[d];
      phi.push_back(hi[d] - rest);
    }
    body += param("x", x, 0) + param("dy", dy, 1);
    rootShape = shapeText(t, dw.shape) + dw.layout;
    body += "  conv = " + rootShape + " convolution(x, dy), " +
            windowText(ysize, dil, lo, phi, ones, stride) +
            ", dim_labels=" + x.labels + "_" + dy.labels + "->" + dw.labels +
            "\n";
    root = "conv";
    c.terms = batch;
    for (int64_t d : ysize)
      c.terms *= d;
  }
  c.text = "HloModule conv\n\nENTRY e {\n" + body +
           "  ROOT out = " + rootShape + " negate(" + root + ")\n}\n";
  return c;
}

/// A random int8 convolution as XLA's GPU pipeline takes them: s8 input
/// and filter, an s32 convolution read as f32, at times scaled, biased
/// (f32), with an s8 side input and relu, and either left f32 or clamped
/// to [-128, 127] and converted to s8; 2 spatial dimensions, random
/// dimension orders, layouts, window and feature counts (so that the
/// padding to 4 or 32 features and its slices come up).
ConvCase generateInt8Conv(std::mt19937 &rng) {
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  ConvCase c;
  int64_t batch = pick(1, 2), in = pick(1, 40), out = pick(1, 40);
  std::vector<int64_t> size, k, stride, lo, hi, ysize;
  for (int d = 0; d < 2; ++d) {
    k.push_back(pick(1, 3));
    size.push_back(pick(int(k[d]), int(k[d]) + 5));
    stride.push_back(pick(1, 2));
    lo.push_back(pick(0, int(k[d]) - 1));
    hi.push_back(pick(0, int(k[d]) - 1));
    ysize.push_back((size[d] + lo[d] + hi[d] - k[d]) / stride[d] + 1);
  }
  ConvTensor x = makeTensor(rng, 'b', batch, 'f', in, size);
  ConvTensor w = makeTensor(rng, 'o', out, 'i', in, k);
  ConvTensor y = makeTensor(rng, 'b', batch, 'f', out, ysize);
  auto shaped = [&](const std::string &t, const ConvTensor &v) {
    return shapeText(t, v.shape) + v.layout;
  };
  std::string f32 = shaped("f32", y), pad;
  for (int d = 0; d < 2; ++d)
    pad += (d ? "x" : "") + std::to_string(lo[d]) + "_" + std::to_string(hi[d]);
  std::string body = "  x = " + shaped("s8", x) + " parameter(0)\n" +
                     "  w = " + shaped("s8", w) + " parameter(1)\n";
  body += "  conv = " + shaped("s32", y) +
          " convolution(x, w), window={size=" + joinX(k) +
          " stride=" + joinX(stride) + " pad=" + pad +
          "}, dim_labels=" + x.labels + "_" + w.labels + "->" + y.labels + "\n";
  body += "  cf = " + f32 + " convert(conv)\n";
  std::string root = "cf";
  int params = 2;
  auto scalar = [&](const std::string &name, const std::string &value) {
    body += "  " + name + " = " + f32 + " broadcast(f32[] constant(" + value +
            ")), dimensions={}\n";
  };
  if (pick(0, 1)) {
    scalar("half", "0.5");
    body += "  scaled = " + f32 + " multiply(" + root + ", half)\n";
    root = "scaled";
  }
  if (pick(0, 1)) {
    body += "  bias = " + shapeText("f32", {out}) + " parameter(" +
            std::to_string(params++) + ")\n";
    body += "  bb = " + f32 + " broadcast(bias), dimensions={" +
            std::to_string(y.labels.find('f')) + "}\n";
    body += "  biased = " + f32 + " add(" + root + ", bb)\n";
    root = "biased";
  }
  bool s8Out = pick(0, 1);
  if (pick(0, 1)) {
    body += "  side = " + shaped(s8Out ? "s8" : "f32", y) + " parameter(" +
            std::to_string(params++) + ")\n";
    std::string sideValue = "side";
    if (s8Out) {
      body += "  sidef = " + f32 + " convert(side)\n";
      sideValue = "sidef";
    }
    body += "  sided = " + f32 + " add(" + root + ", " + sideValue + ")\n";
    root = "sided";
  }
  if (pick(0, 1)) {
    scalar("zero", "0");
    body += "  relu = " + f32 + " maximum(" + root + ", zero)\n";
    root = "relu";
  }
  std::string rootShape = f32;
  if (s8Out) {
    scalar("lo", "-128");
    scalar("hi", "127");
    body += "  clamped = " + f32 + " clamp(lo, " + root + ", hi)\n";
    rootShape = shaped("s8", y);
    body += "  narrow = " + rootShape + " convert(clamped)\n";
    root = "narrow";
  }
  c.type = s8Out ? "s8" : "f32";
  auto fits = [](int64_t n) { return (n + 3) / 4 * 4 < 2 * n; };
  c.int8FeaturesAligned = in % 4 == 0 || (fits(in) && fits(out));
  c.text = "HloModule conv\n\nENTRY e {\n" + body +
           "  ROOT out = " + rootShape + " negate(" + root + ")\n}\n";
  return c;
}

/// `trials` random convolutions compiled by the whole GPU compiler and run
/// on the runtime of `kind`, each against the interpreter.
/// Imports `text`, draws arguments (seed `trial`) and runs the module on
/// the interpreter (`want`) and, compiled, on the runtime of `kind`
/// (`got`, with the run's summary in `note`); a fatal failure if any step
/// fails.
void runBoth(MLIRContext &ctx, const std::string &text, int trial,
             DeviceKind kind, OwningOpRef<ModuleOp> &module,
             std::optional<Literal> &want, std::optional<Literal> &got,
             std::string &note) {
  module = importHloText(text, &ctx);
  ASSERT_TRUE(module) << text;
  std::string error;
  FailureOr<std::vector<Literal>> args =
      runtime::randomArguments(*module, trial, error);
  ASSERT_TRUE(succeeded(args)) << error << "\n" << text;
  FailureOr<Literal> expected =
      runtime::run(*module, *args, runtime::getModuleOptions(*module), error);
  ASSERT_TRUE(succeeded(expected)) << error << "\n" << text;
  FailureOr<Literal> actual = runOnDevice(*module, *args, kind, error, note);
  ASSERT_TRUE(succeeded(actual)) << error << "\n" << text;
  want = std::move(*expected);
  got = std::move(*actual);
}

/// Runs `trials` random modules from `generate` (seeded with `seed`) on the
/// interpreter and, compiled by the whole GPU compiler, on the runtime of
/// `kind`; `check` looks at each case's values and thunk program.
template <typename Case, typename Generate, typename Check>
void forEachRandomCase(DeviceKind kind, int trials, unsigned seed,
                       Generate generate, Check check) {
  DialectRegistry registry;
  registerHloTranslateDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();
  std::mt19937 rng(seed);
  for (int trial = 0; trial < trials; ++trial) {
    Case c = generate(rng);
    OwningOpRef<ModuleOp> module;
    std::optional<Literal> want, got;
    std::string note;
    runBoth(ctx, c.text, trial, kind, module, want, got, note);
    if (::testing::Test::HasFatalFailure())
      return;
    std::string error;
    FailureOr<OwningOpRef<ModuleOp>> program =
        compileToThunks(*module, kind, error);
    ASSERT_TRUE(succeeded(program)) << error << "\n" << c.text;
    check(c, *want, *got, note, **program);
  }
}

void checkRandomConvolutions(DeviceKind kind, int trials) {
  // thunk.convolution ops of each kind (forward, backward_input,
  // backward_filter, forward_bias_activation).
  int kinds[4] = {0, 0, 0, 0};
  forEachRandomCase<ConvCase>(
      kind, trials, 1414, generateConv,
      [&](const ConvCase &c, const Literal &want, const Literal &got,
          const std::string &note, ModuleOp program) {
        program.walk([&](thunk::ConvolutionOp op) {
          ++kinds[static_cast<int>(op.getKind())];
        });
        // 16-bit results: the interpreter rounds each HLO instruction, the
        // fused convolution rounds after each step of its epilogue too but
        // sums in f32, not f64.
        bool narrow = c.type == "f16" || c.type == "bf16";
        double rtol = narrow ? 2e-2 : 1e-4;
        double atol = rtol * double(c.terms);
        std::string why;
        EXPECT_TRUE(closeEnough(got, want, rtol, atol, why)) << why << "\n"
                                                             << note << "\n"
                                                             << c.text;
      });
  // The generator makes each kind about a quarter of the time; the conv
  // rewriter turns most of them into their cuDNN call.
  for (int k = 0; k < 4; ++k)
    EXPECT_GT(kinds[k], trials / 20) << "kind " << k;
}

/// `trials` random int8 convolutions compiled by the whole GPU compiler
/// and run on the runtime of `kind`: the interpreter's values within
/// `atol` (0 on the host: the sums are exact, the epilogue in f32 on both
/// sides).
void checkRandomInt8Convolutions(DeviceKind kind, int trials, double atol) {
  int int8Thunks = 0;
  forEachRandomCase<ConvCase>(
      kind, trials, 88, generateInt8Conv,
      [&](const ConvCase &c, const Literal &want, const Literal &got,
          const std::string &note, ModuleOp program) {
        program.walk([&](thunk::ConvolutionOp op) {
          if (op.getInput().getType().getElementType().isInteger(8)) {
            ++int8Thunks;
            EXPECT_EQ(op.getInputLayout().getFeatureSize() % 4 == 0,
                      c.int8FeaturesAligned)
                << c.text;
          }
        });
        std::string why;
        EXPECT_TRUE(closeEnough(got, want, 0, atol, why)) << why << "\n"
                                                          << note << "\n"
                                                          << c.text;
      });
  // Every one became an i8 cuDNN convolution.
  EXPECT_EQ(int8Thunks, trials);
}

/// `trials` random dots compiled by the whole GPU compiler and run on the
/// runtime of `kind`, each against the interpreter.
void checkRandomGemms(DeviceKind kind, int trials) {
  int gemms = 0, gelus = 0;
  forEachRandomCase<GemmCase>(
      kind, trials, 2026, generate,
      [&](const GemmCase &c, const Literal &want, const Literal &got,
          const std::string &note, ModuleOp program) {
        program.walk([&](thunk::GemmOp op) {
          ++gemms;
          thunk::GemmEpilogue e = op.getEpilogue();
          gelus += e == thunk::GemmEpilogue::Gelu ||
                   e == thunk::GemmEpilogue::BiasGelu;
        });
        // 16-bit results: the interpreter rounds the dot, the GEMM rounds
        // once after its epilogue.
        bool narrow = c.type == "f16" || c.type == "bf16";
        double rtol = narrow ? 2e-2 : c.type == "f32" ? 1e-4 : 1e-10;
        // TF32 is off in cuBLASLt's default f32 compute type, but its
        // kernels may split k: the sums differ in order.
        double atol = rtol * double(c.k);
        std::string why;
        EXPECT_TRUE(closeEnough(got, want, rtol, atol, why)) << why << "\n"
                                                             << note << "\n"
                                                             << c.text;
      });
  // Most dots become cuBLAS GEMMs (the rest reductions or loops), some
  // with the GELU epilogue.
  EXPECT_GT(gemms, trials / 2);
  EXPECT_GT(gelus, trials / 20);
}

TEST(HostRuntimeTest, RandomGemmsMatchTheInterpreter) {
  checkRandomGemms(DeviceKind::Host, 120);
}

// Random convolutions of every kind (forward, fused with bias, side
// input, scale and relu, input and filter gradients) in 1 to 3 spatial
// dimensions, random dimension orders and layouts, strides, padding,
// dilations and feature groups, in f32, f16 and bf16: cuDNN custom calls
// become thunk.convolution, computed by oneDNN (f32 without a reversed
// window or a result scale; here whatever their size) or im2col and
// OpenBLAS (the others).
TEST(HostRuntimeTest, RandomConvolutionsMatchTheInterpreter) {
  setenv("HLO_HOST_ONEDNN_MIN_MACS", "0", /*overwrite=*/1);
  checkRandomConvolutions(DeviceKind::Host, 300);
  unsetenv("HLO_HOST_ONEDNN_MIN_MACS");
}

// Random int8 convolutions (s8 input and filter; f32 or s8 results with
// scale, f32 bias, side input and relu; random layouts and windows):
// XLA's int8 rewrites and padding, then i8 thunk.convolutions on the host,
// bit for bit with the interpreter on the original module.
TEST(HostRuntimeTest, RandomInt8ConvolutionsMatchTheInterpreter) {
  checkRandomInt8Convolutions(DeviceKind::Host, 120, 0);
}

// A parameter no thunk writes is read where the caller keeps it (p0),
// unless the caller's bytes are not aligned as kernels take them; one a
// thunk writes (p1, cleared by a memset) is copied into the arena first,
// and the caller's bytes stay as they were. Either way the results are the
// same.
TEST(HostRuntimeTest, OnlyParametersNoThunkWritesAreReadInPlace) {
  DialectRegistry registry;
  registry.insert<thunk::ThunkDialect>();
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  const char *text = R"mlir(
    thunk.allocation @p0 parameter size = 64 {parameter = 0 : i64}
    thunk.allocation @p1 parameter size = 64 {parameter = 1 : i64}
    thunk.allocation @out output size = 128
    thunk.program @main attributes {argument_types = [memref<16xf32>, memref<16xf32>], result_types = [memref<16xf32>, memref<16xf32>]} {
      %p0 = thunk.slice @p0[0] : memref<16xf32>
      %p1 = thunk.slice @p1[0] : memref<16xf32>
      %a = thunk.slice @out[0] : memref<16xf32>
      %b = thunk.slice @out[64] : memref<16xf32>
      thunk.copy %p0, %a : memref<16xf32>, memref<16xf32>
      thunk.memset %p1, 0 : memref<16xf32>
      thunk.copy %p1, %b : memref<16xf32>, memref<16xf32>
      thunk.return %a, %b : memref<16xf32>, memref<16xf32>
    })mlir";
  OwningOpRef<ModuleOp> program = parseSourceString<ModuleOp>(text, &ctx);
  ASSERT_TRUE(program);
  std::string error;
  std::unique_ptr<thunk::HostExecutable> exe =
      thunk::HostExecutable::compile(*program, error);
  ASSERT_TRUE(exe) << error;
  // 64 bytes each, at an offset of 16 (aligned) or 4 (not) in buffers
  // aligned to 64.
  struct alignas(64) Buffer {
    uint8_t bytes[128];
  } buffers[2];
  uint8_t *buffer[2] = {buffers[0].bytes, buffers[1].bytes};
  for (int64_t shift : {16, 4}) {
    for (int p = 0; p < 2; ++p)
      for (int i = 0; i < 64; ++i)
        buffer[p][shift + i] = uint8_t(i + 64 * p + 1);
    SmallVector<thunk::ParameterBytes> parameters(2);
    for (int p = 0; p < 2; ++p) {
      parameters[p].parameter = p;
      parameters[p].bytes = ArrayRef<uint8_t>(buffer[p] + shift, 64);
    }
    std::vector<std::vector<uint8_t>> results;
    thunk::RunStats stats;
    ASSERT_TRUE(succeeded(exe->run(parameters, results, error, &stats)))
        << error;
    EXPECT_EQ(stats.parametersInPlace, shift == 16 ? 1 : 0);
    ASSERT_EQ(results.size(), 2u);
    EXPECT_EQ(results[0],
              std::vector<uint8_t>(buffer[0] + shift, buffer[0] + shift + 64));
    EXPECT_EQ(results[1], std::vector<uint8_t>(64, 0));
    for (int i = 0; i < 64; ++i)
      EXPECT_EQ(buffer[1][shift + i], uint8_t(i + 65));
  }
}

/// Writes `results` as XLA's autotune results (for an H200) to a new
/// temporary file, whose path it returns.
static std::string writeTemporaryResults(ArrayRef<AutotuneResult> results) {
  llvm::SmallString<64> path;
  if (llvm::sys::fs::createTemporaryFile("autotune", "pbtxt", path)) {
    ADD_FAILURE() << "no temporary file";
    return "";
  }
  std::string error;
  if (failed(writeAutotuneResults(path, "NVIDIA H200, sm_90", results, error)))
    ADD_FAILURE() << error;
  return path.str().str();
}

// What the CUDA runtime's autotuning writes (writeAutotuneResults,
// keyed by the cuBLAS custom calls' text) is what hlo-gemm-algorithm-picker
// reads back: a GEMM of the compiled module takes the algorithm written for
// it. No GPU needed (the times are the file's, not measured).
TEST(GemmAutotuneTest, WrittenResultsAreReadByThePicker) {
  DialectRegistry registry;
  registerHloTranslateDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module = importHloText(R"(HloModule gemms
ENTRY e {
  a = f32[64,32] parameter(0)
  b = f32[32,16] parameter(1)
  c = f32[16,8] parameter(2)
  d = f32[64,16] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT e = f32[64,8] dot(d, c), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})",
                                               &ctx);
  ASSERT_TRUE(module);
  PassManager optimize(&ctx);
  buildHloGpuOptimizePipeline(optimize);
  ASSERT_TRUE(succeeded(optimize.run(*module)));
  std::vector<AutotuneResult> results;
  module->walk([&](CustomCallOp call) {
    if (call.getCustomCallTarget().starts_with("__cublas$"))
      results.push_back({AutotuneResult::Kind::Gemm, getGemmAutotuneKey(call),
                         int64_t(3 + results.size()), 1e-5});
  });
  ASSERT_EQ(results.size(), 2u);
  std::string path = writeTemporaryResults(results);
  llvm::FileRemover remove(path);
  PassManager pick(&ctx);
  HloGemmAlgorithmPickerOptions options;
  options.autotuneCache = path;
  pick.addPass(createHloGemmAlgorithmPicker(options));
  ASSERT_TRUE(succeeded(pick.run(*module)));
  std::string text;
  llvm::raw_string_ostream os(text);
  ASSERT_TRUE(succeeded(exportHloText(*module, os)));
  EXPECT_NE(text.find("\"selected_algorithm\":\"3\""), std::string::npos)
      << text;
  EXPECT_NE(text.find("\"selected_algorithm\":\"4\""), std::string::npos)
      << text;
}

// The same for cuDNN convolutions (getConvAutotuneKey), through the whole
// pipeline (GpuOptimizeOptions::autotuneCache, as hlo-run --autotune-cache
// compiles with an existing file): each call takes the algorithm written
// for it, with its math type and its scratch resized to the written size,
// and its thunk.convolution names that algorithm.
TEST(ConvAutotuneTest, WrittenResultsAreReadByThePipeline) {
  DialectRegistry registry;
  registerHloTranslateDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();
  const char *text = R"(HloModule convs
ENTRY e {
  x = f16[8,16,16,32] parameter(0)
  w = f16[3,3,32,64] parameter(1)
  v = f16[3,3,64,64] parameter(2)
  c = f16[8,16,16,64] convolution(x, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  ROOT d = f16[8,16,16,64] convolution(c, v), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
})";
  OwningOpRef<ModuleOp> module = importHloText(text, &ctx);
  ASSERT_TRUE(module);
  PassManager optimize(&ctx);
  buildHloGpuOptimizePipeline(optimize);
  ASSERT_TRUE(succeeded(optimize.run(*module)));
  std::vector<AutotuneResult> results;
  module->walk([&](CustomCallOp call) {
    if (call.getCustomCallTarget().starts_with("__cudnn$conv"))
      results.push_back({AutotuneResult::Kind::Convolution,
                         getConvAutotuneKey(call), int64_t(1 + results.size()),
                         2e-5, int64_t(4096 * (1 + results.size())),
                         results.empty()});
  });
  ASSERT_EQ(results.size(), 2u);
  std::string path = writeTemporaryResults(results);
  llvm::FileRemover remove(path);

  OwningOpRef<ModuleOp> tuned = importHloText(text, &ctx);
  ASSERT_TRUE(tuned);
  GpuOptimizeOptions options;
  options.autotuneCache = path;
  PassManager optimizeTuned(&ctx);
  buildHloGpuOptimizePipeline(optimizeTuned, options);
  ASSERT_TRUE(succeeded(optimizeTuned.run(*tuned)));
  std::string hlo;
  llvm::raw_string_ostream os(hlo);
  ASSERT_TRUE(succeeded(exportHloText(*tuned, os)));
  EXPECT_NE(hlo.find("\"algo_id\":\"1\",\"math_type\":\"TENSOR_OP_MATH\""),
            std::string::npos)
      << hlo;
  EXPECT_NE(hlo.find("\"algo_id\":\"2\",\"math_type\":\"DEFAULT_MATH\""),
            std::string::npos)
      << hlo;
  EXPECT_NE(hlo.find("u8[4096]{0}"), std::string::npos) << hlo;
  EXPECT_NE(hlo.find("u8[8192]{0}"), std::string::npos) << hlo;
  std::string error;
  FailureOr<OwningOpRef<ModuleOp>> program =
      compileToThunks(*tuned, DeviceKind::Host, error);
  ASSERT_TRUE(succeeded(program)) << error;
  std::vector<int64_t> algorithms;
  (*program)->walk([&](thunk::ConvolutionOp c) {
    algorithms.push_back(int64_t(c.getAlgorithm()));
  });
  llvm::sort(algorithms);
  EXPECT_EQ(algorithms, (std::vector<int64_t>{1, 2}));
}

// The same on GPU 0 through the CUDA runtime (kernels from PTX, GEMMs by
// cuBLASLt); skipped where there is no GPU.
TEST(CudaRuntimeTest, RandomGemmsMatchTheInterpreter) {
  std::string device, error;
  if (failed(probeDevice(DeviceKind::Cuda, device, error)))
    GTEST_SKIP() << error;
  checkRandomGemms(DeviceKind::Cuda, 120);
}

// The random int8 convolutions on GPU 0, through cuDNN's INT8 calls,
// which may round an s8 result to nearest where XLA's convert truncates.
TEST(CudaRuntimeTest, RandomInt8ConvolutionsMatchTheInterpreter) {
  std::string device, error;
  if (failed(probeDevice(DeviceKind::Cuda, device, error)))
    GTEST_SKIP() << error;
  checkRandomInt8Convolutions(DeviceKind::Cuda, 120, 1);
}

// The random convolutions on GPU 0, through cuDNN.
TEST(CudaRuntimeTest, RandomConvolutionsMatchTheInterpreter) {
  std::string device, error;
  if (failed(probeDevice(DeviceKind::Cuda, device, error)))
    GTEST_SKIP() << error;
  checkRandomConvolutions(DeviceKind::Cuda, 300);
}

} // namespace
