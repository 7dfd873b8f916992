//===- InterpreterFastPathTest.cpp - fast paths against the general ones --===//
//
// The interpreter has fast paths that must agree with its general code:
// - float convolutions run on transposed copies with tabulated windows,
//   integer ones element by element from the definition. Random
//   convolutions (dim_labels in any order, strides, padding including
//   negative, base and window dilation, reversal, feature and batch
//   groups) on small integer values, where both paths are exact, must give
//   the same elements in f32 and s32;
// - a float reduce whose reducer is one add/multiply/maximum/minimum runs
//   without calling the reducer; with the same reducer written so that the
//   fast path does not recognize it (times a constant 1), random
//   reductions must give bit-identical results (same fold order, same
//   rounding);
// - elementwise ops on f32, f64, integer and pred arrays run as typed loops
//   over the stored elements; the same op in a map's body runs the element
//   functions once per element. Random ops on random elements (NaNs with
//   payloads, infinities, signed zeros, denormals, integers of every width)
//   must give the same bits.
//
//===----------------------------------------------------------------------===//

#include "InterpreterTestUtil.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <random>

using namespace interpreter_test;

namespace {

struct RandomConv {
  std::string text; // the module, with element type `T`
  SmallVector<int64_t> lhsShape, rhsShape;
};

/// Labels `b`, `f` (or `o`, `i`) and the spatial digits in a random order;
/// positions[k] is the dimension of label k (batch/feature first).
std::string shuffledLabels(std::mt19937 &rng, char first, char second,
                           int spatial, SmallVector<int64_t> &positions) {
  std::string labels{first, second};
  for (int d = 0; d < spatial; ++d)
    labels.push_back('0' + d);
  std::string order = labels;
  std::shuffle(order.begin(), order.end(), rng);
  positions.clear();
  for (char c : labels)
    positions.push_back(order.find(c));
  return order;
}

std::optional<RandomConv> makeConv(std::mt19937 &rng) {
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  int spatial = pick(1, 3);
  int64_t batch = pick(1, 2), groupInputs = pick(1, 3);
  int64_t fgc = 1, bgc = 1;
  if (pick(0, 2) == 0)
    fgc = pick(2, 3);
  else if (pick(0, 2) == 0)
    bgc = pick(2, 3);
  int64_t outFeatures = fgc * bgc * pick(1, 2);
  std::string size, stride, pad, lhsDil, rhsDil, reversal;
  SmallVector<int64_t> inSize, kSize, outSize;
  for (int d = 0; d < spatial; ++d) {
    int64_t in = pick(1, spatial == 3 ? 3 : 6), k = pick(1, 3);
    int64_t s = pick(1, 3), lo = pick(-1, 2), hi = pick(-1, 2);
    int64_t ld = pick(1, 2), rd = pick(1, 2);
    int64_t extent = (in - 1) * ld + 1 + lo + hi, window = (k - 1) * rd + 1;
    if (extent < window)
      return std::nullopt;
    inSize.push_back(in);
    kSize.push_back(k);
    outSize.push_back((extent - window) / s + 1);
    auto sep = [&](std::string &str) { str += d ? "x" : ""; };
    sep(size), sep(stride), sep(pad), sep(lhsDil), sep(rhsDil), sep(reversal);
    size += std::to_string(k);
    stride += std::to_string(s);
    pad += std::to_string(lo) + "_" + std::to_string(hi);
    lhsDil += std::to_string(ld);
    rhsDil += std::to_string(rd);
    reversal += std::to_string(pick(0, 1));
  }
  SmallVector<int64_t> lp, rp, op;
  std::string labels = shuffledLabels(rng, 'b', 'f', spatial, lp) + "_" +
                       shuffledLabels(rng, 'o', 'i', spatial, rp) + "->" +
                       shuffledLabels(rng, 'b', 'f', spatial, op);
  auto shapeOf = [](ArrayRef<int64_t> positions, int64_t first, int64_t second,
                    ArrayRef<int64_t> sizes) {
    SmallVector<int64_t> shape(positions.size());
    shape[positions[0]] = first;
    shape[positions[1]] = second;
    for (size_t d = 0; d < sizes.size(); ++d)
      shape[positions[d + 2]] = sizes[d];
    return shape;
  };
  RandomConv conv;
  conv.lhsShape = shapeOf(lp, batch * bgc, groupInputs * fgc, inSize);
  conv.rhsShape = shapeOf(rp, outFeatures, groupInputs, kSize);
  SmallVector<int64_t> out = shapeOf(op, batch, outFeatures, outSize);
  auto spell = [](ArrayRef<int64_t> shape) {
    std::string s = "T[";
    llvm::interleave(
        shape, [&](int64_t v) { s += std::to_string(v); }, [&] { s += ","; });
    return s + "]";
  };
  conv.text = "HloModule m\nENTRY e {\n  a = " + spell(conv.lhsShape) +
              " parameter(0)\n  b = " + spell(conv.rhsShape) +
              " parameter(1)\n  ROOT c = " + spell(out) +
              " convolution(a, b), window={size=" + size + " stride=" + stride +
              " pad=" + pad + " lhs_dilate=" + lhsDil +
              " rhs_dilate=" + rhsDil + " rhs_reversal=" + reversal +
              "}, dim_labels=" + labels +
              ", feature_group_count=" + std::to_string(fgc) +
              ", batch_group_count=" + std::to_string(bgc) + "\n}\n";
  return conv;
}

/// `text` with every `T` (the element type placeholder) replaced.
std::string withType(std::string text, StringRef type) {
  for (size_t at; (at = text.find("T[")) != std::string::npos;)
    text.replace(at, 1, type.str());
  return text;
}

/// The value part of a literal's text (after the shape).
std::string valueOf(const std::string &literal) {
  size_t space = literal.find(' ');
  return space == std::string::npos ? literal : literal.substr(space + 1);
}

} // namespace

TEST_F(InterpreterTest, ConvolutionFloatPathMatchesDefinition) {
  std::mt19937 rng(20261122);
  Type s32 = IntegerType::get(&ctx, 32), f32 = Float32Type::get(&ctx);
  int checked = 0;
  while (checked < 300) {
    std::optional<RandomConv> conv = makeConv(rng);
    if (!conv)
      continue;
    std::uniform_int_distribution<int> value(-3, 3);
    Literal li = Literal::array(s32, conv->lhsShape),
            lf = Literal::array(f32, conv->lhsShape),
            ri = Literal::array(s32, conv->rhsShape),
            rf = Literal::array(f32, conv->rhsShape);
    for (auto [i, f] : {std::pair(&li, &lf), std::pair(&ri, &rf)})
      for (int64_t k = 0; k < i->getNumElements(); ++k) {
        int v = value(rng);
        i->setInt(k, v);
        f->setFloat(k, v);
      }
    std::string ints = run(withType(conv->text, "s32"), {li, ri});
    std::string floats = run(withType(conv->text, "f32"), {lf, rf});
    ASSERT_EQ(ints.rfind("s32[", 0), 0u) << ints << "\n" << conv->text;
    ASSERT_EQ(valueOf(ints), valueOf(floats)) << conv->text;
    ++checked;
  }
}

TEST_F(InterpreterTest, ReduceFastPathMatchesReducerCalls) {
  std::mt19937 rng(1122);
  for (int trial = 0; trial < 60; ++trial) {
    auto pick = [&](int lo, int hi) {
      return std::uniform_int_distribution<int>(lo, hi)(rng);
    };
    std::string type = pick(0, 1) ? "f32" : "f64";
    const char *ops[] = {"add", "multiply", "maximum", "minimum"};
    std::string op = ops[pick(0, 3)];
    SmallVector<int64_t> shape;
    for (int d = 0, rank = pick(1, 3); d < rank; ++d)
      shape.push_back(pick(1, rank == 1 ? 300 : 40));
    SmallVector<int64_t> dims, kept;
    for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
      (pick(0, 1) ? dims : kept).push_back(d);
    auto spell = [&](ArrayRef<int64_t> dimsOf) {
      std::string s = type + "[";
      llvm::interleave(
          dimsOf, [&](int64_t d) { s += std::to_string(shape[d]); },
          [&] { s += ","; });
      return s + "]";
    };
    SmallVector<int64_t> all;
    for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
      all.push_back(d);
    std::string dimList;
    llvm::interleave(
        dims, [&](int64_t d) { dimList += std::to_string(d); },
        [&] { dimList += ","; });
    auto module = [&](bool disguised) {
      std::string body =
          disguised ? "  s = " + type + "[] " + op + "(a, b)\n  one = " + type +
                          "[] constant(1)\n  ROOT r = " + type +
                          "[] multiply(s, one)\n"
                    : "  ROOT r = " + type + "[] " + op + "(a, b)\n";
      return "HloModule m\nf {\n  a = " + type +
             "[] parameter(0)\n  b = " + type + "[] parameter(1)\n" + body +
             "}\nENTRY e {\n  x = " + spell(all) +
             " parameter(0)\n  i = " + type +
             "[] constant(0.5)\n  ROOT y = " + spell(kept) +
             " reduce(x, i), dimensions={" + dimList + "}, to_apply=f\n}\n";
    };
    Type elt = type == "f32" ? Type(Float32Type::get(&ctx))
                             : Type(Float64Type::get(&ctx));
    Literal x = Literal::array(elt, shape);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    for (int64_t k = 0; k < x.getNumElements(); ++k)
      x.setFloat(k, op == "multiply" ? 1.0 + value(rng) / 64 : value(rng));
    std::string fast = run(module(false), {x});
    std::string general = run(module(true), {x});
    ASSERT_EQ(fast.rfind(type + "[", 0), 0u) << fast;
    ASSERT_EQ(fast, general) << module(false);
  }
}

TEST_F(InterpreterTest, ElementwiseLoopsMatchElementFunctions) {
  std::mt19937_64 rng(2026);
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  const char *types[] = {"f32", "f64", "s8",  "s16", "s32", "s64",
                         "u8",  "u16", "u32", "u64", "pred"};
  const char *floatUnary[] = {
      "abs",   "negate", "exponential", "exponential-minus-one",
      "log",   "log-plus-one", "sqrt",  "rsqrt", "cbrt", "tanh",
      "sine",  "cosine", "tan", "floor", "ceil", "sign", "logistic",
      "round-nearest-afz", "round-nearest-even", "erf"};
  const char *floatBinary[] = {"add",     "subtract", "multiply", "divide",
                               "maximum", "minimum",  "power",    "remainder",
                               "atan2",   "compare"};
  const char *intBinary[] = {"add", "subtract", "multiply", "and",    "or",
                             "xor", "maximum",  "minimum",  "compare"};
  const char *predBinary[] = {"and", "or", "xor", "compare"};
  const char *directions[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  std::uniform_real_distribution<double> wide(-40.0, 40.0);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string type = types[pick(0, 10)];
    bool isFloat = type[0] == 'f';
    bool unary = isFloat && pick(0, 2) == 0;
    std::string op =
        unary     ? floatUnary[pick(0, std::size(floatUnary) - 1)]
        : isFloat ? floatBinary[pick(0, std::size(floatBinary) - 1)]
        : type == "pred" ? predBinary[pick(0, std::size(predBinary) - 1)]
                         : intBinary[pick(0, std::size(intBinary) - 1)];
    std::string attrs, resultType = type;
    if (op == "compare") {
      attrs = std::string(", direction=") + directions[pick(0, 5)];
      resultType = "pred";
    }
    int64_t n = pick(1, 40);
    std::string args = unary ? "a" : "a, b";
    std::string params = "  a = " + type + "[] parameter(0)\n" +
                         (unary ? "" : "  b = " + type + "[] parameter(1)\n");
    auto arrays = [&](std::string elt) {
      return elt + "[" + std::to_string(n) + "]";
    };
    std::string entryParams =
        "  a = " + arrays(type) + " parameter(0)\n" +
        (unary ? "" : "  b = " + arrays(type) + " parameter(1)\n");
    std::string loops = "HloModule m\nENTRY e {\n" + entryParams +
                        "  ROOT r = " + arrays(resultType) + " " + op + "(" +
                        args + ")" + attrs + "\n}\n";
    std::string elements = "HloModule m\nf {\n" + params + "  ROOT r = " +
                           resultType + "[] " + op + "(" + args + ")" +
                           attrs + "\n}\nENTRY e {\n" + entryParams +
                           "  ROOT r = " + arrays(resultType) + " map(" +
                           args + "), dimensions={0}, to_apply=f\n}\n";

    Type elt;
    if (type == "f32")
      elt = Float32Type::get(&ctx);
    else if (type == "f64")
      elt = Float64Type::get(&ctx);
    else if (type == "pred")
      elt = IntegerType::get(&ctx, 1);
    else
      elt = IntegerType::get(&ctx, std::stoi(type.substr(1)),
                             type[0] == 's' ? IntegerType::Signless
                                            : IntegerType::Unsigned);
    unsigned width = isFloat ? (type == "f32" ? 32 : 64) : 64;
    std::vector<Literal> inputs;
    for (int operand = 0; operand < (unary ? 1 : 2); ++operand) {
      Literal x = Literal::array(elt, {n});
      for (int64_t k = 0; k < n; ++k) {
        if (!isFloat) {
          x.setInt(k, static_cast<int64_t>(rng()));
          continue;
        }
        // Special values as bits: NaNs with payloads and either sign,
        // infinities, zeros, the smallest denormal, the largest finite.
        uint64_t sign = uint64_t(pick(0, 1)) << (width - 1);
        uint64_t expMask = width == 32 ? 0x7f800000ull : 0x7ff0000000000000ull;
        uint64_t fracMask = width == 32 ? 0x7fffffull : 0xfffffffffffffull;
        switch (pick(0, 9)) {
        case 0:
          x.setBits(k, APInt(width, sign | expMask | (rng() & fracMask | 1)));
          break;
        case 1:
          x.setBits(k, APInt(width, sign | expMask));
          break;
        case 2:
          x.setBits(k, APInt(width, sign));
          break;
        case 3:
          x.setBits(k, APInt(width, sign | 1));
          break;
        case 4:
          x.setBits(k, APInt(width, sign | (expMask - 1)));
          break;
        default:
          x.setFloat(k, pick(0, 1) ? wide(rng) : std::ldexp(wide(rng), -140));
        }
      }
      inputs.push_back(std::move(x));
    }
    std::string error;
    auto evaluate = [&](const std::string &text) -> FailureOr<Literal> {
      OwningOpRef<ModuleOp> module = importHloText(text, &ctx);
      if (!module)
        return failure();
      return runtime::run(*module, inputs, {}, error);
    };
    FailureOr<Literal> fast = evaluate(loops);
    FailureOr<Literal> general = evaluate(elements);
    ASSERT_TRUE(succeeded(fast) && succeeded(general))
        << loops << diagnostics << error;
    ASSERT_EQ(fast->getElementType(), general->getElementType());
    for (int64_t k = 0; k < n; ++k)
      ASSERT_EQ(fast->getBits(k), general->getBits(k))
          << loops << "element " << k << ": " << fast->toString() << " vs "
          << general->toString();
  }
}
