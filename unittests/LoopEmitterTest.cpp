//===- LoopEmitterTest.cpp - loop kernels against the interpreter ---------===//
//
// Random loop fusions (elementwise ops, broadcasts, transposes, reversals,
// slices, reshapes, pads, concatenates, iotas, converts, compares and
// selects, reduces, reduce-windows (padding, strides, dilations), gathers
// at clamped start indices, bitcast-converts (also to s8 and back), maps, over
// f32 and s32 with random layouts; parameters and outputs sometimes of 2- and
// 4-bit types, packed in their buffers) become kernels (hlo-to-gpu), host
// functions (hlo-gpu-kernels-to-host) and JIT-compiled code (HostJit.h); their
// results on random inputs must equal the interpreter's on the same fusion:
// integers bit-exact, floats within a few ulps.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Runtime/Literal.h"
#include "Hlo/Translate/HloText.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::test;

namespace {

struct Val {
  std::string name;
  std::string type; // f32 or s32
  std::vector<int64_t> shape;
};

int64_t product(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// A random module whose ENTRY runs one loop fusion.
class FusionGenerator {
public:
  explicit FusionGenerator(std::mt19937 &rng) : rng(rng) {}

  std::string generate() {
    std::vector<int64_t> shape = randomShape();
    int numParams = 1 + pick(3);
    for (int i = 0; i < numParams; ++i) {
      std::vector<int64_t> s = shape;
      if (i > 0 && pick(3) == 0 && s.size() >= 2)
        s.erase(s.begin() + pick(s.size())); // broadcast later
      std::string type = pick(4) == 0 ? "s32" : "f32";
      // Sometimes an array of 2- or 4-bit integers (packed in its buffer),
      // converted to s32 where the fusion reads it.
      const char *packed[] = {"s4", "u4", "s2", "u2"};
      bool isPacked = pick(5) == 0;
      if (isPacked)
        type = packed[pick(4)];
      std::vector<int64_t> m2m = randomLayout(s.size());
      std::string name = "p" + std::to_string(i);
      params.push_back({name, type, s});
      paramLayouts.push_back(m2m);
      body += "  %" + name + " = " + shapeText(type, s) + layoutText(m2m) +
              " parameter(" + std::to_string(i) + ")\n";
      if (isPacked) {
        body += "  %" + name + "w = " + shapeText("s32", s) + " convert(%" +
                name + ")\n";
        values.push_back({name + "w", "s32", s});
      } else {
        values.push_back(params.back());
      }
    }
    inputs = values;
    int steps = 2 + pick(6);
    for (int i = 0; i < steps; ++i)
      step();
    // The root: the last value in a random layout; sometimes a second
    // output, another value of another shape (a horizontal fusion's).
    Val root = values.back();
    std::vector<int64_t> m2m = randomLayout(root.shape.size());
    std::string rootType = shapeText(root.type, root.shape) + layoutText(m2m);
    const Val *other = nullptr;
    for (const Val &v : values)
      if (v.shape != root.shape && pick(2))
        other = &v;
    if (other) {
      std::string otherType = shapeText(other->type, other->shape) +
                              layoutText(randomLayout(other->shape.size()));
      body += "  %out0 = " + rootType + " copy(%" + root.name + ")\n";
      body += "  %out1 = " + otherType + " copy(%" + other->name + ")\n";
      rootType = "(" + rootType + ", " + otherType + ")";
      body += "  ROOT %root = " + rootType + " tuple(%out0, %out1)\n";
    } else if (pick(4) == 0) {
      // A packed output: converted to 2- or 4-bit elements.
      const char *fromF32[] = {"f4e2m1fn", "s4"};
      const char *fromS32[] = {"s4", "u4", "s2"};
      std::string type =
          root.type == "f32" ? fromF32[pick(2)] : fromS32[pick(3)];
      rootType = shapeText(type, root.shape) + layoutText(m2m);
      body += "  ROOT %root = " + rootType + " convert(%" + root.name + ")\n";
    } else {
      body += "  ROOT %root = " + rootType + " copy(%" + root.name + ")\n";
    }

    std::string text = "HloModule random\n\n";
    text += "%add_f32 (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] "
            "parameter(0)\n  %b = f32[] parameter(1)\n  ROOT %s = f32[] "
            "add(%a, %b)\n}\n\n";
    text += "%max_s32 (a: s32[], b: s32[]) -> s32[] {\n  %a = s32[] "
            "parameter(0)\n  %b = s32[] parameter(1)\n  ROOT %s = s32[] "
            "maximum(%a, %b)\n}\n\n";
    std::string paramList, operands, entryParams;
    for (size_t i = 0; i < params.size(); ++i) {
      std::string t = shapeText(params[i].type, params[i].shape) +
                      layoutText(paramLayouts[i]);
      paramList += (i ? ", " : "") + params[i].name + ": " + t;
      operands += (i ? ", " : "") + ("%x" + std::to_string(i));
      entryParams += "  %x" + std::to_string(i) + " = " + t + " parameter(" +
                     std::to_string(i) + ")\n";
    }
    text +=
        "%fused (" + paramList + ") -> " + rootType + " {\n" + body + "}\n\n";
    text += "ENTRY %main (" + paramList + ") -> " + rootType + " {\n" +
            entryParams + "  ROOT %fusion = " + rootType + " fusion(" +
            operands + "), kind=kLoop, calls=%fused\n}\n";
    return text;
  }

private:
  int64_t pick(int64_t n) {
    return std::uniform_int_distribution<int64_t>(0, n - 1)(rng);
  }

  std::vector<int64_t> randomShape() {
    std::vector<int64_t> s(1 + pick(3));
    for (int64_t &d : s)
      d = 1 + pick(pick(4) == 0 ? 40 : 6);
    return s;
  }

  std::vector<int64_t> randomLayout(size_t rank) {
    std::vector<int64_t> m2m(rank);
    for (size_t i = 0; i < rank; ++i)
      m2m[i] = rank - 1 - i;
    std::shuffle(m2m.begin(), m2m.end(), rng);
    return m2m;
  }

  Val add(const std::string &type, std::vector<int64_t> shape,
          const std::string &rhs) {
    Val v{"v" + std::to_string(counter++), type, std::move(shape)};
    body +=
        "  %" + v.name + " = " + shapeText(v.type, v.shape) + " " + rhs + "\n";
    values.push_back(v);
    return v;
  }

  /// A value of `shape` and `type` (broadcast or converted when needed).
  std::string operandLike(const Val &like) {
    std::vector<const Val *> same;
    for (const Val &v : values)
      if (v.shape == like.shape)
        same.push_back(&v);
    const Val &v = *same[pick(same.size())];
    if (v.type == like.type)
      return "%" + v.name;
    return "%" + add(like.type, v.shape, "convert(%" + v.name + ")").name;
  }

  void step() {
    const Val a = values[pick(values.size())];
    int64_t rank = a.shape.size();
    switch (pick(17)) {
    case 0: { // unary
      static const char *f[] = {"negate", "exponential", "tanh", "abs", "sine"};
      static const char *i[] = {"negate", "abs", "not"};
      std::string opc = a.type == "f32" ? f[pick(5)] : i[pick(3)];
      add(a.type, a.shape, opc + "(%" + a.name + ")");
      break;
    }
    case 1:
    case 2: { // binary
      static const char *f[] = {"add",     "multiply", "subtract",
                                "maximum", "minimum",  "divide"};
      static const char *i[] = {"add",       "multiply",  "subtract", "maximum",
                                "minimum",   "and",       "xor",      "divide",
                                "remainder", "shift-left"};
      std::string opc = a.type == "f32" ? f[pick(6)] : i[pick(10)];
      add(a.type, a.shape, opc + "(%" + a.name + ", " + operandLike(a) + ")");
      break;
    }
    case 3: { // broadcast: add a dimension
      if (rank >= 3)
        return;
      std::vector<int64_t> shape = a.shape;
      int64_t at = pick(rank + 1);
      shape.insert(shape.begin() + at, 1 + pick(5));
      std::string dims;
      for (int64_t d = 0, k = 0; d <= rank; ++d)
        if (d != at)
          dims += (k++ ? "," : "") + std::to_string(d);
      add(a.type, shape,
          "broadcast(%" + a.name + "), dimensions={" + dims + "}");
      break;
    }
    case 4: { // transpose
      std::vector<int64_t> perm(rank);
      for (int64_t i = 0; i < rank; ++i)
        perm[i] = i;
      std::shuffle(perm.begin(), perm.end(), rng);
      std::vector<int64_t> shape(rank);
      std::string dims;
      for (int64_t i = 0; i < rank; ++i) {
        shape[i] = a.shape[perm[i]];
        dims += (i ? "," : "") + std::to_string(perm[i]);
      }
      add(a.type, shape,
          "transpose(%" + a.name + "), dimensions={" + dims + "}");
      break;
    }
    case 5: { // reverse
      add(a.type, a.shape,
          "reverse(%" + a.name + "), dimensions={" +
              std::to_string(pick(rank)) + "}");
      break;
    }
    case 6: { // slice
      std::vector<int64_t> shape;
      std::string spec;
      for (int64_t d = 0; d < rank; ++d) {
        int64_t start = pick(a.shape[d]);
        int64_t stride = 1 + pick(2);
        int64_t limit = start + 1 + pick(a.shape[d] - start);
        shape.push_back((limit - start + stride - 1) / stride);
        spec += (d ? "," : "") +
                ("[" + std::to_string(start) + ":" + std::to_string(limit) +
                 ":" + std::to_string(stride) + "]");
      }
      add(a.type, shape, "slice(%" + a.name + "), slice={" + spec + "}");
      break;
    }
    case 7: { // reshape to the flat shape or a split of it
      int64_t n = product(a.shape);
      std::vector<int64_t> shape{n};
      for (int64_t f = 2; f <= 4; ++f)
        if (n % f == 0 && n > f && pick(2)) {
          shape = {f, n / f};
          break;
        }
      add(a.type, shape, "reshape(%" + a.name + ")");
      break;
    }
    case 8: { // pad
      Val zero =
          add(a.type, {},
              "constant(" + std::string(a.type == "f32" ? "0.5" : "7") + ")");
      std::vector<int64_t> shape;
      std::string spec;
      for (int64_t d = 0; d < rank; ++d) {
        int64_t lo = pick(3) - 1, hi = pick(3), interior = pick(2);
        int64_t size = a.shape[d] + lo + hi + (a.shape[d] - 1) * interior;
        if (size < 1) {
          lo = 0;
          size = a.shape[d] + hi + (a.shape[d] - 1) * interior;
        }
        shape.push_back(size);
        spec += (d ? "x" : "") + std::to_string(lo) + "_" + std::to_string(hi) +
                "_" + std::to_string(interior);
      }
      add(a.type, shape,
          "pad(%" + a.name + ", %" + zero.name + "), padding=" + spec);
      break;
    }
    case 9: { // concatenate with itself or an iota
      int64_t dim = pick(rank);
      std::vector<int64_t> other = a.shape;
      other[dim] = 1 + pick(4);
      Val iota = add("s32", other,
                     "iota(), iota_dimension=" + std::to_string(pick(rank)));
      std::string rhs = "%" + iota.name;
      if (a.type != "s32")
        rhs = "%" + add(a.type, other, "convert(" + rhs + ")").name;
      std::vector<int64_t> shape = a.shape;
      shape[dim] += other[dim];
      add(a.type, shape,
          "concatenate(%" + a.name + ", " + rhs + "), dimensions={" +
              std::to_string(dim) + "}");
      break;
    }
    case 10: { // compare and select
      Val cmp = add("pred", a.shape,
                    "compare(%" + a.name + ", " + operandLike(a) +
                        "), direction=" + (pick(2) ? "LT" : "GE"));
      add(a.type, a.shape,
          "select(%" + cmp.name + ", %" + a.name + ", " + operandLike(a) + ")");
      values.erase(
          std::find_if(values.begin(), values.end(),
                       [&](const Val &v) { return v.name == cmp.name; }));
      break;
    }
    case 11: { // reduce one dimension
      if (rank < 2)
        return;
      int64_t dim = pick(rank);
      std::vector<int64_t> shape = a.shape;
      shape.erase(shape.begin() + dim);
      bool f = a.type == "f32";
      Val init = add(a.type, {}, f ? "constant(0)" : "constant(-100)");
      add(a.type, shape,
          "reduce(%" + a.name + ", %" + init.name + "), dimensions={" +
              std::to_string(dim) +
              "}, to_apply=" + (f ? "%add_f32" : "%max_s32"));
      break;
    }
    case 12: { // gather rows (or row windows) at clamped start indices
      int64_t k = 1 + pick(5);
      Val iota = add("s32", {k, 2},
                     "iota(), iota_dimension=" + std::to_string(pick(2)));
      Val three = add("s32", {}, "constant(3)");
      Val minus = add("s32", {}, "constant(-2)");
      Val scaled = add("s32", {k, 2},
                       "multiply(%" + iota.name + ", %" +
                           add("s32", {k, 2},
                               "broadcast(%" + three.name + "), dimensions={}")
                               .name +
                           ")");
      Val starts = add("s32", {k, 2},
                       "add(%" + scaled.name + ", %" +
                           add("s32", {k, 2},
                               "broadcast(%" + minus.name + "), dimensions={}")
                               .name +
                           ")");
      bool two = rank >= 2 && pick(2);
      std::vector<int64_t> sizes = a.shape, shape{k};
      sizes[0] = 1;
      if (two)
        sizes[1] = 1 + pick(a.shape[1]);
      std::string offsets, sizeText;
      for (int64_t d = 0; d < rank; ++d) {
        sizeText += (d ? "," : "") + std::to_string(sizes[d]);
        if (d > 0) {
          offsets += (d > 1 ? "," : "") + std::to_string(d);
          shape.push_back(sizes[d]);
        }
      }
      std::string idx = "%" + starts.name;
      if (!two)
        idx = "%" + add("s32", {k, 1},
                        "slice(%" + starts.name +
                            "), slice={[0:" + std::to_string(k) + "], [0:1]}")
                        .name;
      add(a.type, shape,
          "gather(%" + a.name + ", " + idx + "), offset_dims={" + offsets +
              "}, collapsed_slice_dims={0}, start_index_map={" +
              (two ? "0,1" : "0") + "}, index_vector_dim=1, slice_sizes={" +
              sizeText + "}");
      break;
    }
    case 13: { // reduce-window with padding, strides and dilations
      std::vector<int64_t> shape;
      std::string size, stride, pad, lhs, rhs;
      for (int64_t d = 0; d < rank; ++d) {
        int64_t w = 1 + pick(3), st = 1 + pick(2), lo = pick(2), hi = pick(2),
                bd = 1 + pick(2), wd = 1 + pick(2);
        int64_t padded = lo + hi + (a.shape[d] - 1) * bd + 1;
        int64_t window = (w - 1) * wd + 1;
        if (padded < window)
          return;
        shape.push_back((padded - window) / st + 1);
        std::string x = d ? "x" : "";
        size += x + std::to_string(w);
        stride += x + std::to_string(st);
        pad += x + std::to_string(lo) + "_" + std::to_string(hi);
        lhs += x + std::to_string(bd);
        rhs += x + std::to_string(wd);
      }
      bool f = a.type == "f32";
      Val init = add(a.type, {}, f ? "constant(0)" : "constant(-100)");
      add(a.type, shape,
          "reduce-window(%" + a.name + ", %" + init.name +
              "), window={size=" + size + " stride=" + stride + " pad=" + pad +
              " lhs_dilate=" + lhs + " rhs_dilate=" + rhs +
              "}, to_apply=" + (f ? "%add_f32" : "%max_s32"));
      break;
    }
    case 14: { // bitcast-convert between f32 and s32
      std::string to = a.type == "f32" ? "s32" : "f32";
      add(to, a.shape, "bitcast-convert(%" + a.name + ")");
      break;
    }
    case 15: { // bitcast-convert to s8 (an extra minor dimension) and back
      if (a.type != "s32" || rank >= 3)
        return;
      std::vector<int64_t> bytes = a.shape;
      bytes.push_back(4);
      Val narrow = add("s8", bytes, "bitcast-convert(%" + a.name + ")");
      Val flipped = add("s8", bytes,
                        "reverse(%" + narrow.name + "), dimensions={" +
                            std::to_string(rank) + "}");
      add("s32", a.shape, "bitcast-convert(%" + flipped.name + ")");
      values.erase(std::remove_if(values.begin(), values.end(),
                                  [](const Val &v) { return v.type == "s8"; }),
                   values.end());
      break;
    }
    case 16: { // map of a binary computation
      bool f = a.type == "f32";
      add(
          a.type, a.shape,
          "map(%" + a.name + ", " + operandLike(a) + "), dimensions={" +
              [&] {
                std::string d;
                for (int64_t i = 0; i < rank; ++i)
                  d += (i ? "," : "") + std::to_string(i);
                return d;
              }() +
              "}, to_apply=" + (f ? "%add_f32" : "%max_s32"));
      break;
    }
    }
    // Scalars (constants) are not roots or operands of arrays.
    values.erase(std::remove_if(values.begin(), values.end(),
                                [](const Val &v) { return v.shape.empty(); }),
                 values.end());
    if (values.empty())
      values = inputs;
  }

  std::mt19937 &rng;
  std::vector<Val> params, values;
  /// What the fusion reads its parameters as (packed ones converted).
  std::vector<Val> inputs;
  std::vector<std::vector<int64_t>> paramLayouts;
  std::string body;
  int counter = 0;
};

TEST(LoopEmitterTest, RandomFusionsMatchTheInterpreter) {
  DialectRegistry registry;
  registerHloTranslateDialects(registry);
  registerHostJitDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  std::mt19937 rng(1312);
  int ran = 0;
  for (int trial = 0; trial < 150; ++trial) {
    FusionGenerator gen(rng);
    std::string text = gen.generate();
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
    std::vector<const Literal *> want = getOutputArrays(*expected);
    ASSERT_EQ(got->size(), want.size());
    for (size_t k = 0; k < want.size(); ++k) {
      std::string why;
      ASSERT_TRUE(closeEnough((*got)[k], *want[k], 1e-5, 1e-5, why))
          << "output " << k << ": " << why << "\n"
          << text;
    }
    ++ran;
  }
  EXPECT_EQ(ran, 150);
}

} // namespace
