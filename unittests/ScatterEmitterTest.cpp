//===- ScatterEmitterTest.cpp - scatter kernels against the interpreter ---===//
//
// Random scatter fusions (s8, s32, u32, f16, bf16 and f32 elements; add,
// maximum, minimum, multiply, subtract and assign combiners; random operand
// ranks, window sizes, inserted, scattered and batching dims, index vector
// dims, index types and layouts; duplicate, negative and out-of-bounds indices;
// unique indices, variadic scatters with them; updates and indices computed
// in the fusion) become kernels (hlo-to-gpu), host functions
// (hlo-gpu-kernels-to-host) and JIT-compiled code (HostJit.h). The output
// buffer starts as the operand it aliases (hlo.output_aliases); the results
// must equal the interpreter's: integers bit-exact, floats within a
// tolerance (duplicate indices combine in another order).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Conversion/HostJit.h"
#include "Hlo/Conversion/Passes.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Runtime/Literal.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>
#include <set>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;

namespace {

std::string join(const std::vector<int64_t> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

std::string shapeText(const std::string &type,
                      const std::vector<int64_t> &shape) {
  return type + "[" + join(shape) + "]";
}

int64_t product(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// One random scatter fusion of a module: its text (computations and the
/// fusion) and the values its index parameter gets.
struct ScatterCase {
  std::string computations; // combiner and fused computation
  std::string entryParams;  // ENTRY parameter declarations
  std::string paramList;    // ENTRY signature part
  std::string fusion;       // the fusion instruction
  std::string resultType;
  int firstParam = 0, numParams = 0;
  int indicesParam = 0; // relative to firstParam
  std::vector<int64_t> indexValues;
  double tolerance = 1e-5; // floats: absolute and relative
  bool unique = false, variadic = false;
};

class ScatterGenerator {
public:
  explicit ScatterGenerator(std::mt19937 &rng) : rng(rng) {}

  ScatterCase generate(int id, int firstParam) {
    ScatterCase c;
    c.firstParam = firstParam;
    std::string sfx = std::to_string(id);
    const char *types[] = {"s32", "f32", "f16",  "s32",
                           "f32", "u32", "bf16", "s8"};
    std::string type = types[pick(8)];
    // Duplicates combine in another order than the interpreter's: a few
    // roundings of the type apart.
    c.tolerance = type == "f16" ? 1e-2 : type == "bf16" ? 5e-2 : 1e-5;
    const char *combiners[] = {"add",    "maximum",  "minimum",
                               "assign", "multiply", "subtract"};
    std::string combiner = combiners[pick(6)];
    bool unique = pick(3) == 0;

    // The operand and its dims: batching, scattered, window.
    int64_t rank = 1 + pick(3);
    std::vector<int64_t> operand(rank);
    for (int64_t &d : operand)
      d = 1 + pick(pick(5) == 0 ? 12 : 5);
    std::vector<int64_t> dims(rank);
    for (int64_t d = 0; d < rank; ++d)
      dims[d] = d;
    std::shuffle(dims.begin(), dims.end(), rng);
    std::vector<int64_t> inputBatching;
    if (rank >= 2 && pick(4) == 0) {
      inputBatching.push_back(dims.back());
      dims.pop_back();
    }
    int64_t numScattered = 1 + pick(std::min<int64_t>(2, dims.size()));
    std::vector<int64_t> scattered(dims.begin(), dims.begin() + numScattered);
    std::vector<int64_t> inserted, windowSize(rank, 1);
    for (int64_t d : scattered)
      if (unique || pick(2))
        inserted.push_back(d);
      else
        windowSize[d] = 1 + pick(operand[d]);
    for (int64_t d = 0; d < rank; ++d)
      if (!contains(scattered, d) && !contains(inputBatching, d))
        windowSize[d] = 1 + pick(operand[d]);
    std::sort(inserted.begin(), inserted.end());
    std::vector<int64_t> windowDims; // operand dims with a window, ascending
    for (int64_t d = 0; d < rank; ++d)
      if (!contains(inserted, d) && !contains(inputBatching, d))
        windowDims.push_back(d);

    // The scatter (batch) dims of the updates and indices.
    int64_t numScatter = pick(3);
    if (!inputBatching.empty())
      numScatter = std::max<int64_t>(1, numScatter);
    std::vector<int64_t> scatterShape(numScatter);
    for (int64_t &d : scatterShape)
      d = 1 + pick(pick(4) == 0 ? 12 : 4);
    std::vector<int64_t> indicesBatching;
    int64_t batchPos = -1;
    if (!inputBatching.empty()) {
      batchPos = pick(numScatter);
      scatterShape[batchPos] = operand[inputBatching.front()];
    }
    // Indices: the scatter dims with the index vector dim at `ivd`
    // (implicit at the end for a single scattered dim, sometimes).
    bool implicit = numScattered == 1 && pick(2);
    int64_t ivd = implicit ? numScatter : pick(numScatter + 1);
    std::vector<int64_t> indicesShape = scatterShape;
    if (!implicit)
      indicesShape.insert(indicesShape.begin() + ivd, numScattered);
    if (batchPos >= 0)
      indicesBatching.push_back(batchPos + (!implicit && batchPos >= ivd));
    // Updates: the scatter dims and the window dims, the latter at random
    // positions (in order).
    int64_t updateRank = numScatter + windowDims.size();
    std::vector<int64_t> positions(updateRank);
    for (int64_t i = 0; i < updateRank; ++i)
      positions[i] = i;
    std::shuffle(positions.begin(), positions.end(), rng);
    std::vector<int64_t> updateWindowDims(
        positions.begin(), positions.begin() + windowDims.size());
    std::sort(updateWindowDims.begin(), updateWindowDims.end());
    std::vector<int64_t> updates(updateRank);
    for (int64_t i = 0, s = 0, w = 0; i < updateRank; ++i)
      updates[i] = contains(updateWindowDims, i) ? windowSize[windowDims[w++]]
                                                 : scatterShape[s++];

    // Index values: out of bounds on either side sometimes; distinct for
    // unique indices (whose scattered windows are single elements).
    int64_t slices = product(scatterShape);
    int64_t box = 1;
    for (int64_t d : scattered)
      box *= operand[d] - windowSize[d] + 3;
    if (unique && slices > box)
      unique = false;
    std::set<std::vector<int64_t>> seen;
    std::vector<std::vector<int64_t>> vectors;
    while ((int64_t)vectors.size() < slices) {
      std::vector<int64_t> v;
      for (int64_t d : scattered)
        v.push_back(pick(operand[d] - windowSize[d] + 3) - 1);
      if (unique && !seen.insert(v).second)
        continue;
      vectors.push_back(v);
    }
    // Row-major over the indices shape.
    c.indexValues.assign(product(indicesShape), 0);
    std::vector<int64_t> at(indicesShape.size(), 0);
    for (int64_t linear = 0; linear < product(indicesShape); ++linear) {
      std::vector<int64_t> batch;
      for (size_t d = 0; d < at.size(); ++d)
        if (implicit || (int64_t)d != ivd)
          batch.push_back(at[d]);
      int64_t slice = 0;
      for (size_t d = 0; d < batch.size(); ++d)
        slice = slice * scatterShape[d] + batch[d];
      c.indexValues[linear] = vectors[slice][implicit ? 0 : at[ivd]];
      for (int64_t d = at.size() - 1; d >= 0; --d) {
        if (++at[d] < indicesShape[d])
          break;
        at[d] = 0;
      }
    }

    // Types, layouts (assign with duplicates keeps the updates row-major:
    // the last update in row-major order wins in the interpreter and in
    // thread order on the host).
    const char *indexTypes[] = {"s32", "s32", "s64", "u8"};
    std::string indexType = indexTypes[pick(4)];
    std::string operandType = shapeText(type, operand) + randomLayout(rank);
    std::string indicesType =
        shapeText(indexType, indicesShape) + randomLayout(indicesShape.size());
    std::string updatesType =
        shapeText(type, updates) + (combiner == "assign" && !unique
                                        ? rowMajor(updateRank)
                                        : randomLayout(updateRank));
    c.unique = unique;
    c.variadic = unique && pick(3) == 0;

    std::string comb = "%comb" + sfx;
    std::string body;
    if (c.variadic) {
      c.computations += comb + " (a: " + type + "[], b: s32[], c: " + type +
                        "[], d: s32[]) -> (" + type + "[], s32[]) {\n";
      c.computations += "  %a = " + type +
                        "[] parameter(0)\n  %b = s32[] "
                        "parameter(1)\n  %c = " +
                        type + "[] parameter(2)\n  %d = s32[] parameter(3)\n";
      c.computations += "  %x = " + type + "[] " +
                        combinerOp(combiner, "%a", "%c") +
                        "\n  %y = s32[] subtract(%b, %d)\n  ROOT %t = (" +
                        type + "[], s32[]) tuple(%x, %y)\n}\n\n";
    } else {
      c.computations += comb + " (a: " + type + "[], b: " + type + "[]) -> " +
                        type + "[] {\n  %a = " + type + "[] parameter(0)\n";
      if (combiner == "assign")
        c.computations += "  ROOT %b = " + type + "[] parameter(1)\n}\n\n";
      else
        c.computations += "  %b = " + type +
                          "[] parameter(1)\n  ROOT %r = " + type + "[] " +
                          combinerOp(combiner, "%a", "%b") + "\n}\n\n";
    }
    // Parameters: operand(s), indices, updates.
    std::vector<std::string> paramTypes = {operandType};
    if (c.variadic)
      paramTypes.push_back(shapeText("s32", operand) + randomLayout(rank));
    c.indicesParam = paramTypes.size();
    paramTypes.push_back(indicesType);
    paramTypes.push_back(updatesType);
    if (c.variadic)
      paramTypes.push_back(shapeText("s32", updates) +
                           randomLayout(updateRank));
    c.numParams = paramTypes.size();
    std::string fusedParams, args;
    for (size_t i = 0; i < paramTypes.size(); ++i) {
      std::string p = "p" + std::to_string(i);
      fusedParams += (i ? ", " : "") + p + ": " + paramTypes[i];
      body += "  %" + p + " = " + paramTypes[i] + " parameter(" +
              std::to_string(i) + ")\n";
      std::string x = "x" + std::to_string(firstParam + i);
      c.paramList += ", " + x + ": " + paramTypes[i];
      c.entryParams += "  %" + x + " = " + paramTypes[i] + " parameter(" +
                       std::to_string(firstParam + i) + ")\n";
      args += (i ? ", %" : "%") + x;
    }
    // Updates and indices computed in the fusion, sometimes.
    std::string idx = "%p" + std::to_string(c.indicesParam);
    if (indexType == "s32" && pick(3) == 0) {
      body += "  %idx = " + indicesType + " copy(" + idx + ")\n";
      idx = "%idx";
    }
    std::string upd = "%p" + std::to_string(c.indicesParam + 1);
    if (pick(3) == 0) {
      body += "  %upd = " + shapeText(type, updates) +
              (type == "u32" ? " multiply(" + upd + ", " + upd + ")\n"
                             : " negate(" + upd + ")\n");
      upd = "%upd";
    }
    std::string operands = "%p0";
    std::string updateList = upd;
    if (c.variadic) {
      operands += ", %p1";
      updateList += ", %p" + std::to_string(c.indicesParam + 2);
    }
    c.resultType = c.variadic ? "(" + operandType + ", " + paramTypes[1] + ")"
                              : operandType;
    body += "  ROOT %sc = " + c.resultType + " scatter(" + operands + ", " +
            idx + ", " + updateList + "), update_window_dims={" +
            join(updateWindowDims) + "}, inserted_window_dims={" +
            join(inserted) + "}, scatter_dims_to_operand_dims={" +
            join(scattered) + "}, index_vector_dim=" + std::to_string(ivd);
    if (!inputBatching.empty())
      body += ", input_batching_dims={" + join(inputBatching) +
              "}, scatter_indices_batching_dims={" + join(indicesBatching) +
              "}";
    if (unique)
      body += ", unique_indices=true";
    body += ", to_apply=" + comb + "\n";
    c.computations += "%fused" + sfx + " (" + fusedParams + ") -> " +
                      c.resultType + " {\n" + body + "}\n\n";
    c.fusion = "  %fusion" + sfx + " = " + c.resultType + " fusion(" + args +
               "), kind=kInput, calls=%fused" + sfx + "\n";
    return c;
  }

private:
  int64_t pick(int64_t n) {
    return std::uniform_int_distribution<int64_t>(0, n - 1)(rng);
  }
  static bool contains(const std::vector<int64_t> &v, int64_t x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  }
  /// The combiner of (current, update) as an instruction.
  static std::string combinerOp(const std::string &combiner,
                                const std::string &current,
                                const std::string &update) {
    if (combiner == "assign")
      return "copy(" + update + ")";
    return combiner + "(" + current + ", " + update + ")";
  }
  std::string rowMajor(size_t rank) {
    std::vector<int64_t> m2m(rank);
    for (size_t i = 0; i < rank; ++i)
      m2m[i] = rank - 1 - i;
    return "{" + join(m2m) + "}";
  }
  std::string randomLayout(size_t rank) {
    std::vector<int64_t> m2m(rank);
    for (size_t i = 0; i < rank; ++i)
      m2m[i] = rank - 1 - i;
    std::shuffle(m2m.begin(), m2m.end(), rng);
    return "{" + join(m2m) + "}";
  }

  std::mt19937 &rng;
};

bool close(double a, double b, double tol) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b))
    return a == b;
  return std::fabs(a - b) <= tol + tol * std::fabs(b);
}

constexpr int kModules = 40, kFusionsPerModule = 10;

TEST(ScatterEmitterTest, RandomScattersMatchTheInterpreter) {
  DialectRegistry registry;
  registerHloTranslateDialects(registry);
  registerHostJitDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  std::mt19937 rng(2718);
  int ran = 0, atomic = 0, unique = 0;
  int64_t changed = 0; // output elements the scatters changed
  for (int m = 0; m < kModules; ++m) {
    // One module of several scatter fusions, compiled at once.
    std::vector<ScatterCase> cases;
    int numParams = 0;
    std::string computations, entry, paramList, results, resultTypes;
    for (int f = 0; f < kFusionsPerModule; ++f) {
      ScatterGenerator gen(rng);
      cases.push_back(gen.generate(f, numParams));
      const ScatterCase &c = cases.back();
      numParams += c.numParams;
      computations += c.computations;
      entry += c.entryParams;
      paramList += c.paramList;
      results += (f ? ", %fusion" : "%fusion") + std::to_string(f);
      resultTypes += (f ? ", " : "") + c.resultType;
    }
    std::string text = "HloModule scatters\n\n" + computations +
                       "ENTRY %main (" + paramList.substr(2) + ") -> (" +
                       resultTypes + ") {\n" + entry;
    for (const ScatterCase &c : cases)
      text += c.fusion;
    text += "  ROOT %t = (" + resultTypes + ") tuple(" + results + ")\n}\n";
    OwningOpRef<ModuleOp> module = importHloText(text, &ctx);
    ASSERT_TRUE(module) << text;
    std::string error;
    FailureOr<std::vector<Literal>> args = randomArguments(*module, m, error);
    ASSERT_TRUE(succeeded(args)) << error << "\n" << text;
    for (const ScatterCase &c : cases) {
      Literal &indices = (*args)[c.firstParam + c.indicesParam];
      for (auto [i, v] : llvm::enumerate(c.indexValues))
        indices.setInt(i, v);
    }
    FailureOr<Literal> expected =
        run(*module, *args, getModuleOptions(*module), error);
    ASSERT_TRUE(succeeded(expected)) << error << "\n" << text;

    OwningOpRef<ModuleOp> kernels = module->clone();
    PassManager pm(&ctx);
    pm.addPass(createHloToGpu());
    pm.addPass(createHloGpuKernelsToHost());
    ASSERT_TRUE(succeeded(pm.run(*kernels))) << text;
    OpBuilder b(&ctx);
    OwningOpRef<ModuleOp> jitModule = ModuleOp::create(b.getUnknownLoc());
    for (Operation &op :
         llvm::make_early_inc_range(kernels->getBody()->getOperations()))
      if (isa<func::FuncOp, memref::GlobalOp>(op)) {
        op.walk([&](Operation *inner) {
          atomic += isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(inner);
        });
        op.moveBefore(jitModule->getBody(), jitModule->getBody()->end());
      }
    std::unique_ptr<HostJit> jit = HostJit::compile(*jitModule, error);
    ASSERT_TRUE(jit) << error << "\n" << text;

    ComputationOp entryComputation;
    for (auto c : module->getOps<ComputationOp>())
      if (c->hasAttr("entry"))
        entryComputation = c;
    ASSERT_TRUE(entryComputation);
    auto entryArgs = entryComputation.getBody().getArguments();
    for (auto [f, c] : llvm::enumerate(cases)) {
      std::string name = "fusion" + std::to_string(f);
      auto func = jitModule->lookupSymbol<func::FuncOp>(name);
      ASSERT_TRUE(func) << name << "\n" << text;
      // Output k aliases operand k of the fusion.
      auto aliases =
          func->getAttrOfType<DenseI64ArrayAttr>("hlo.output_aliases");
      ASSERT_TRUE(aliases) << name << "\n" << text;
      std::vector<int64_t> want = {0};
      if (c.variadic)
        want.push_back(1);
      ASSERT_EQ(std::vector<int64_t>(aliases.asArrayRef()), want) << text;
      unique += c.unique;

      std::vector<std::vector<uint8_t>> buffers;
      for (int i = 0; i < c.numParams; ++i)
        buffers.push_back(encodeArrayBytes(
            (*args)[c.firstParam + i],
            cast<RankedTensorType>(entryArgs[c.firstParam + i].getType())));
      size_t numOutputs = want.size();
      for (size_t k = 0; k < numOutputs; ++k)
        buffers.push_back(buffers[want[k]]);
      ASSERT_TRUE(succeeded(jit->invokeOnBuffers(name, buffers, error)))
          << error << "\n"
          << text;
      const Literal &all = expected->getElements()[f];
      for (size_t k = 0; k < numOutputs; ++k) {
        const Literal &exp = c.variadic ? all.getElements()[k] : all;
        auto type =
            cast<RankedTensorType>(entryArgs[c.firstParam + k].getType());
        Literal got = decodeArrayBytes(buffers[c.numParams + k], type);
        const Literal &input = (*args)[c.firstParam + k];
        bool isFloat = isa<FloatType>(type.getElementType());
        for (int64_t i = 0, n = got.getNumElements(); i < n; ++i) {
          changed += isFloat ? exp.getFloat(i) != input.getFloat(i)
                             : exp.getInt(i) != input.getInt(i);
          if (isFloat) {
            ASSERT_TRUE(close(got.getFloat(i), exp.getFloat(i), c.tolerance))
                << name << " output " << k << " element " << i << ": kernel "
                << got.getFloat(i) << ", interpreter " << exp.getFloat(i)
                << "\n"
                << text;
          } else {
            ASSERT_EQ(got.getInt(i), exp.getInt(i))
                << name << " output " << k << " element " << i << "\n"
                << text;
          }
        }
      }
      ++ran;
    }
  }
  EXPECT_EQ(ran, kModules * kFusionsPerModule);
  // Both kinds of update were exercised.
  EXPECT_GT(atomic, 100);
  EXPECT_GT(unique, 50);
  EXPECT_GT(changed, 1000);
  llvm::errs() << ran << " scatters, " << atomic << " atomic updates, "
               << unique << " with unique indices, " << changed
               << " output elements changed\n";
}

} // namespace
