//===- SliceEmittersTest.cpp - slice emitters against the interpreter -----===//
//
// Random fusions for the input-slices, concatenate and in-place
// dynamic-update-slice emitters (ranks 1 to 4, sizes of 1 and odd sizes,
// random layouts, s32/f32/f16/pred, negative and out-of-range offsets,
// bitcast DUS parameters and outputs) and dynamic-update-slices left to the
// loop emitter's element generator
// become kernels (hlo-to-gpu), host functions (hlo-gpu-kernels-to-host) and
// JIT-compiled code (HostJit.h); their results on random inputs must equal
// the interpreter's: integers and pred bit-exact, floats within a few ulps.
// Outputs that alias an operand (hlo.output_aliases) start as its copy.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "Hlo/Conversion/FusionEmitter.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Translate/HloText.h"

#include "gtest/gtest.h"

#include <cmath>
#include <functional>
#include <random>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::test;

namespace {

using Shape = std::vector<int64_t>;

std::string dims(const Shape &s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? "," : "") + std::to_string(s[i]);
  return r;
}

struct Gen {
  std::mt19937 &rng;
  int64_t pick(int64_t n) {
    return std::uniform_int_distribution<int64_t>(0, n - 1)(rng);
  }
  Shape shape(int64_t rank) {
    Shape s(rank);
    for (int64_t &d : s)
      d = pick(4) == 0 ? 1 : 1 + pick(pick(3) == 0 ? 13 : 5);
    return s;
  }
  std::string layout(size_t rank) {
    std::vector<int64_t> m2m(rank);
    for (size_t i = 0; i < rank; ++i)
      m2m[i] = rank - 1 - i;
    std::shuffle(m2m.begin(), m2m.end(), rng);
    return "{" + dims(m2m) + "}";
  }
  std::string type() {
    static const char *types[] = {"f32", "s32", "f16", "pred"};
    return types[pick(4)];
  }
  std::string unary(const std::string &t) {
    if (t == "pred")
      return "not";
    if (t == "s32")
      return pick(2) ? "negate" : "abs";
    static const char *f[] = {"negate", "exponential", "abs"};
    return f[pick(3)];
  }
};

std::string ty(const std::string &t, const Shape &s,
               const std::string &l = "") {
  return t + "[" + dims(s) + "]" + l;
}

/// Runs the module's one fusion on the host kernels and the interpreter and
/// compares; checks the emitter chooseEmitter picks.
void runCase(MLIRContext &ctx, const std::string &text, EmitterKind want,
             uint64_t seed) {
  OwningOpRef<ModuleOp> module = importHloText(text, &ctx);
  ASSERT_TRUE(module) << text;
  SymbolTable symbols(*module);
  Operation *fusion = nullptr;
  module->walk([&](FusionOp f) { fusion = f; });
  ASSERT_TRUE(fusion) << text;
  std::string reason;
  FailureOr<EmitterKind> kind = chooseEmitter(fusion, symbols, reason);
  ASSERT_TRUE(succeeded(kind)) << reason << "\n" << text;
  ASSERT_EQ(*kind, want) << text;

  std::string error;
  FailureOr<std::vector<Literal>> args = randomArguments(*module, seed, error);
  ASSERT_TRUE(succeeded(args)) << error << "\n" << text;
  FailureOr<Literal> expected =
      run(*module, *args, getModuleOptions(*module), error);
  ASSERT_TRUE(succeeded(expected)) << error << "\n" << text;

  FailureOr<std::vector<Literal>> got =
      runFusionOnHost(*module, *args, "f", error);
  ASSERT_TRUE(succeeded(got)) << error << "\n" << text;
  std::vector<const Literal *> wanted = getOutputArrays(*expected);
  ASSERT_EQ(got->size(), wanted.size());
  for (size_t k = 0; k < wanted.size(); ++k) {
    double tol = wanted[k]->getElementType().isF16() ? 2e-3 : 1e-5;
    std::string why;
    ASSERT_TRUE(closeEnough((*got)[k], *wanted[k], tol, tol, why))
        << "output " << k << ": " << why << "\n"
        << text;
  }
}

/// A module whose ENTRY runs fusion `f` of `kind` over `params` (name, type).
std::string wrap(const std::vector<std::pair<std::string, std::string>> &params,
                 const std::string &body, const std::string &rootType,
                 const std::string &kind) {
  std::string list, operands, entry;
  for (size_t i = 0; i < params.size(); ++i) {
    list += (i ? ", " : "") + params[i].first + ": " + params[i].second;
    operands += (i ? ", %" : "%") + params[i].first;
    entry += "  %" + params[i].first + " = " + params[i].second +
             " parameter(" + std::to_string(i) + ")\n";
  }
  return "HloModule random\n\n%fused (" + list + ") -> " + rootType + " {\n" +
         entry + body + "}\n\nENTRY %main (" + list + ") -> " + rootType +
         " {\n" + entry + "  ROOT %f = " + rootType + " fusion(" + operands +
         "), kind=" + kind + ", calls=%fused\n}\n";
}

class SliceEmittersTest : public ::testing::Test {
protected:
  SliceEmittersTest() {
    registerHloTranslateDialects(registry);
    registerHostJitDialects(registry);
  }
  void runRandom(int cases, uint64_t seed,
                 const std::function<std::string(Gen &)> &make,
                 EmitterKind want) {
    MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
    std::mt19937 rng(seed);
    Gen g{rng};
    for (int i = 0; i < cases; ++i) {
      std::string text = make(g);
      runCase(ctx, text, want, seed * 1000 + i);
      if (HasFatalFailure())
        return;
    }
  }
  DialectRegistry registry;
};

TEST_F(SliceEmittersTest, InputSlices) {
  runRandom(
      100, 7,
      [](Gen &g) {
        int64_t rank = 1 + g.pick(4);
        Shape a = g.shape(rank), c = a;
        int64_t dim = g.pick(rank);
        Shape bshape = a;
        bshape[dim] = 1 + g.pick(4);
        c[dim] += bshape[dim];
        std::string t = g.type();
        std::string body = "  %n = " + ty(t, a) + " " + g.unary(t) + "(%p0)\n";
        body += "  %c = " + ty(t, c) + " concatenate(%n, %p1), dimensions={" +
                std::to_string(dim) + "}\n";
        int slices = 2 + g.pick(2);
        std::string roots, rootTypes;
        for (int k = 0; k < slices; ++k) {
          Shape s(rank);
          std::string spec;
          for (int64_t d = 0; d < rank; ++d) {
            int64_t start = g.pick(c[d]);
            int64_t limit = start + 1 + g.pick(c[d] - start);
            s[d] = limit - start;
            spec += std::string(d ? "," : "") + "[" + std::to_string(start) +
                    ":" + std::to_string(limit) + "]";
          }
          std::string st = ty(t, s, g.layout(rank));
          body += "  %s" + std::to_string(k) + " = " + st + " slice(%c), " +
                  "slice={" + spec + "}\n";
          roots += (k ? ", %s" : "%s") + std::to_string(k);
          rootTypes += (k ? ", " : "") + st;
        }
        std::string rootType = "(" + rootTypes + ")";
        body += "  ROOT %t = " + rootType + " tuple(" + roots + ")\n";
        return wrap({{"p0", ty(t, a, g.layout(rank))},
                     {"p1", ty(t, bshape, g.layout(rank))}},
                    body, rootType, "kInput");
      },
      EmitterKind::InputSlices);
}

TEST_F(SliceEmittersTest, Concatenate) {
  runRandom(
      100, 11,
      [](Gen &g) {
        int64_t rank = 1 + g.pick(4);
        Shape base = g.shape(rank);
        int64_t dim = g.pick(rank);
        int n = 2 + g.pick(3);
        std::string t = g.type();
        std::vector<std::pair<std::string, std::string>> params;
        std::string body, cat;
        Shape out = base;
        out[dim] = 0;
        for (int k = 0; k < n; ++k) {
          Shape s = base;
          s[dim] = 1 + g.pick(g.pick(3) ? 6 : 12);
          out[dim] += s[dim];
          std::string name = "p" + std::to_string(k);
          params.push_back({name, ty(t, s, g.layout(rank))});
          std::string v = "%" + name;
          if (g.pick(2)) {
            body += "  %u" + std::to_string(k) + " = " + ty(t, s) + " " +
                    g.unary(t) + "(" + v + ")\n";
            v = "%u" + std::to_string(k);
          }
          cat += (k ? ", " : "") + v;
        }
        std::string outType = ty(t, out, g.layout(rank));
        switch (g.pick(3)) {
        case 0:
          body += "  ROOT %c = " + outType + " concatenate(" + cat +
                  "), dimensions={" + std::to_string(dim) + "}\n";
          break;
        case 1:
          body += "  %c = " + ty(t, out) + " concatenate(" + cat +
                  "), dimensions={" + std::to_string(dim) + "}\n";
          body += "  ROOT %r = " + outType + " " + g.unary(t) + "(%c)\n";
          break;
        default: {
          body += "  %c = " + ty(t, out) + " concatenate(" + cat +
                  "), dimensions={" + std::to_string(dim) + "}\n";
          std::string to = t == "f32" ? "s32" : "f32";
          outType = ty(to, out, g.layout(rank));
          body += "  ROOT %r = " + outType + " convert(%c)\n";
        }
        }
        return wrap(params, body, outType, g.pick(2) ? "kLoop" : "kInput");
      },
      EmitterKind::Concatenate);
}

/// A random fusion of dynamic-update-slices of parameters, one per output,
/// all with one update shape (the in-place emitter's). With `bitcasts`, an
/// updated parameter may be a flat array bitcast to the operand's shape and
/// an output a flat bitcast of its dynamic-update-slice (as XLA takes them).
std::string makeInPlaceDus(Gen &g, bool bitcasts) {
  int64_t rank = 1 + g.pick(4);
  Shape s = g.shape(rank), u(rank);
  for (int64_t d = 0; d < rank; ++d)
    u[d] = 1 + g.pick(s[d]);
  std::string layout = g.layout(rank);
  int outputs = 1 + g.pick(2);
  std::vector<std::pair<std::string, std::string>> params;
  std::string body, roots, rootTypes;
  // The offsets: parameters (random in [-8, 8]) or constants.
  std::string starts;
  for (int64_t d = 0; d < rank; ++d) {
    std::string name = "i" + std::to_string(d);
    if (g.pick(2)) {
      params.push_back({name, "s32[]"});
    } else {
      body += "  %" + name + " = s32[] constant(" +
              std::to_string(g.pick(15) - 4) + ")\n";
    }
    starts += ", %" + name;
  }
  int64_t elements = 1;
  for (int64_t d : s)
    elements *= d;
  for (int k = 0; k < outputs; ++k) {
    std::string t = g.type(), ks = std::to_string(k);
    std::string pt = ty(t, s, layout), flat = ty(t, {elements});
    std::string operand = "%p" + ks;
    if (bitcasts && g.pick(2)) {
      params.push_back({"p" + ks, flat});
      body += "  %b" + ks + " = " + pt + " bitcast(%p" + ks + ")\n";
      operand = "%b" + ks;
    } else {
      params.push_back({"p" + ks, pt});
    }
    params.push_back({"v" + ks, ty(t, u, g.layout(rank))});
    std::string upd = "%v" + ks;
    if (g.pick(2)) {
      body +=
          "  %w" + ks + " = " + ty(t, u) + " " + g.unary(t) + "(" + upd + ")\n";
      upd = "%w" + ks;
    }
    body += "  %d" + ks + " = " + pt + " dynamic-update-slice(" + operand +
            ", " + upd + starts + ")\n";
    std::string root = "%d" + ks, rt = pt;
    if (bitcasts && g.pick(2)) {
      body += "  %r" + ks + " = " + flat + " bitcast(%d" + ks + ")\n";
      root = "%r" + ks;
      rt = flat;
    }
    roots += (k ? ", " : "") + root;
    rootTypes += (k ? ", " : "") + rt;
  }
  std::string rootType = rootTypes;
  if (outputs > 1) {
    rootType = "(" + rootTypes + ")";
    body += "  ROOT %t = " + rootType + " tuple(" + roots + ")\n";
  } else {
    size_t at = body.rfind("  " + roots + " = ");
    body.replace(at, 2 + roots.size(), "  ROOT " + roots);
  }
  // Parameters in a shuffled order, so aliases are not the identity.
  std::shuffle(params.begin(), params.end(), g.rng);
  return wrap(params, body, rootType, "kLoop");
}

TEST_F(SliceEmittersTest, InPlaceDynamicUpdateSlice) {
  runRandom(
      100, 13, [](Gen &g) { return makeInPlaceDus(g, /*bitcasts=*/false); },
      EmitterKind::InPlaceDynamicUpdateSlice);
}

TEST_F(SliceEmittersTest, InPlaceDynamicUpdateSliceBitcasts) {
  runRandom(
      100, 17, [](Gen &g) { return makeInPlaceDus(g, /*bitcasts=*/true); },
      EmitterKind::InPlaceDynamicUpdateSlice);
}

// Dynamic-update-slices the in-place emitter leaves to the loop emitter's
// element generator: of a computed value, with a user besides the root, or
// of a parameter also read at other indices (a reverse).
TEST_F(SliceEmittersTest, LoopDynamicUpdateSlice) {
  runRandom(
      150, 19,
      [](Gen &g) {
        int64_t rank = 1 + g.pick(4);
        Shape s = g.shape(rank), u(rank);
        for (int64_t d = 0; d < rank; ++d)
          u[d] = 1 + g.pick(s[d]);
        std::string t = g.type();
        std::vector<std::pair<std::string, std::string>> params;
        params.push_back({"p0", ty(t, s, g.layout(rank))});
        std::string body, starts;
        for (int64_t d = 0; d < rank; ++d) {
          std::string name = "i" + std::to_string(d);
          if (g.pick(2))
            params.push_back({name, "s32[]"});
          else
            body += "  %" + name + " = s32[] constant(" +
                    std::to_string(g.pick(15) - 4) + ")\n";
          starts += ", %" + name;
        }
        params.push_back({"v", ty(t, u, g.layout(rank))});
        std::string upd = "%v";
        if (g.pick(2)) {
          body += "  %w = " + ty(t, u) + " " + g.unary(t) + "(%v)\n";
          upd = "%w";
        }
        std::string rootType = ty(t, s, g.layout(rank));
        switch (g.pick(3)) {
        case 0: // of a computed value
          body += "  %n = " + ty(t, s) + " " + g.unary(t) + "(%p0)\n";
          body += "  ROOT %d = " + rootType + " dynamic-update-slice(%n, " +
                  upd + starts + ")\n";
          break;
        case 1: // an op after it
          body += "  %d = " + ty(t, s, g.layout(rank)) +
                  " dynamic-update-slice(%p0, " + upd + starts + ")\n";
          body += "  ROOT %r = " + rootType + " " + g.unary(t) + "(%d)\n";
          break;
        default: { // the parameter also reversed into a second output
          std::string dt = ty(t, s, g.layout(rank));
          body += "  %d = " + dt + " dynamic-update-slice(%p0, " + upd +
                  starts + ")\n";
          body += "  %r = " + rootType + " reverse(%p0), dimensions={" +
                  std::to_string(g.pick(rank)) + "}\n";
          rootType = "(" + dt + ", " + rootType + ")";
          body += "  ROOT %t = " + rootType + " tuple(%d, %r)\n";
        }
        }
        std::shuffle(params.begin(), params.end(), g.rng);
        return wrap(params, body, rootType, "kLoop");
      },
      EmitterKind::Loop);
}

} // namespace
