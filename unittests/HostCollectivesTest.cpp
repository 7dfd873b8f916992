//===- HostCollectivesTest.cpp - random collectives on the host runtime ---===//
//
// Random collectives (all-reduce, all-gather, reduce-scatter, all-to-all in
// both forms, collective-permute, collective-broadcast, ragged-all-to-all
// with offsets and sizes computed from the device id) over 1 to 4
// replicas x 1 or 2 partitions, in every group mode (no channel_id,
// channel_id with and without use_global_device_ids, partition groups),
// with random groups, member orders, element types (packed 2- and 4-bit
// ones too), shapes, layouts and dimensions, compiled by the whole GPU compiler
// into thunk programs and run by the host runtime (a thread per device),
// against the interpreter's simulated devices. Every device's result is
// gathered to device 0 (whose result both return) by a final all-gather over
// all devices.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "Hlo/Dialect/Thunk/ThunkDialect.h"
#include "Hlo/Pipelines/RunOnDevice.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Translate/HloText.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <random>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::test;
using runtime::Literal;

namespace {

struct CollectiveCase {
  std::string text;
  std::string type;
  std::string kind;
};

std::string join(const std::vector<int64_t> &v, const char *sep = ",") {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

std::string shapeText(const std::string &type, const std::vector<int64_t> &dims,
                      const std::vector<int64_t> &minorToMajor) {
  return type + "[" + join(dims) + "]{" + join(minorToMajor) + "}";
}

/// `ids` (0 .. n-1, shuffled) cut into groups of `size`, as HLO text.
std::string groupsText(std::mt19937 &rng, int64_t n, int64_t size) {
  std::vector<int64_t> ids(n);
  std::iota(ids.begin(), ids.end(), 0);
  std::shuffle(ids.begin(), ids.end(), rng);
  std::string s = "{";
  for (int64_t g = 0; g < n / size; ++g)
    s += std::string(g ? "," : "") + "{" +
         join(std::vector<int64_t>(ids.begin() + g * size,
                                   ids.begin() + (g + 1) * size)) +
         "}";
  return s + "}";
}

CollectiveCase generate(std::mt19937 &rng) {
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  auto divisor = [&](int64_t n) {
    std::vector<int64_t> ds;
    for (int64_t d = 1; d <= n; ++d)
      if (n % d == 0)
        ds.push_back(d);
    return ds[pick(0, ds.size() - 1)];
  };
  CollectiveCase c;
  int64_t replicas = pick(1, 4), partitions = pick(1, 2);
  const char *kinds[] = {"all-reduce",           "all-gather",
                         "reduce-scatter",       "all-to-all",
                         "all-to-all-tuple",     "collective-permute",
                         "collective-broadcast", "ragged-all-to-all"};
  c.kind = kinds[pick(0, 7)];
  bool reduces = c.kind == "all-reduce" || c.kind == "reduce-scatter";
  // Arrays of 2- and 4-bit elements are packed, reduced too.
  const char *types[] = {"f32",  "s32", "f16", "bf16", "u8",      "f64",
                         "pred", "s4",  "u4",  "u2",   "f4e2m1fn"};
  c.type = types[pick(0, 10)];
  // The group mode, its id space and the attributes that select it.
  bool globalFlagOp = reduces || c.kind == "all-gather";
  int mode = globalFlagOp ? pick(0, 2) : pick(0, 1);
  int64_t ids = replicas, perListed = 1;
  std::string modeAttrs;
  if (mode == 1 && globalFlagOp) { // device ids
    ids = replicas * partitions;
    modeAttrs = ", channel_id=1, use_global_device_ids=true";
  } else if (mode == 2) { // listed replicas on every partition
    perListed = partitions;
    modeAttrs = ", channel_id=1, use_global_device_ids=false";
  } else if (mode == 1) { // partitions within each replica
    ids = partitions;
    modeAttrs = ", channel_id=1";
  }
  int64_t listed = divisor(ids);
  int64_t groupSize = listed * perListed;
  std::string groups = ", replica_groups=" + groupsText(rng, ids, listed);

  // The array each device puts in: small integers that differ by device.
  int rank = pick(1, 3);
  std::vector<int64_t> dims(rank);
  for (int64_t &d : dims)
    d = pick(1, 3);
  int64_t dim = pick(0, rank - 1);
  std::vector<int64_t> inDims = dims, outDims = dims;
  if (c.kind == "all-gather")
    outDims[dim] *= groupSize;
  if (c.kind == "reduce-scatter")
    inDims[dim] *= groupSize;
  if (c.kind == "all-to-all")
    inDims[dim] = outDims[dim] = dims[dim] * groupSize;
  // ragged-all-to-all: k updates of at most `rows` rows to each peer; the
  // input holds groupSize * k * rows rows, the output a region of k * rows
  // rows for each device of the program, so no two senders overlap.
  int64_t perPeer = pick(1, 2), rows = pick(1, 2);
  if (c.kind == "ragged-all-to-all") {
    inDims[0] = groupSize * perPeer * rows;
    outDims[0] = replicas * partitions * perPeer * rows;
  }
  std::vector<int64_t> inLayout(rank), outLayout(rank);
  std::iota(inLayout.begin(), inLayout.end(), 0);
  std::iota(outLayout.begin(), outLayout.end(), 0);
  std::shuffle(inLayout.begin(), inLayout.end(), rng);
  std::shuffle(outLayout.begin(), outLayout.end(), rng);
  std::string in = shapeText(c.type, inDims, inLayout);
  std::string in32 = shapeText("s32", inDims, inLayout);
  std::string out = shapeText(c.type, outDims, outLayout);
  // Products stay exact in every type: factors 1 and 2.
  const char *reducer = "add";
  if (reduces) {
    const char *ops[] = {"add", "multiply", "minimum", "maximum"};
    reducer = c.type == "pred" ? (pick(0, 1) ? "and" : "or") : ops[pick(0, 3)];
  }
  int64_t modulus = std::string(reducer) == "multiply" ? 2 : 5;
  // Negative values too for s4, whose packed elements are sign-extended.
  int64_t offset = std::string(reducer) == "multiply" ? 1
                   : c.type == "s4"                   ? -2
                                                      : 0;

  std::string body;
  body += "  r = u32[] replica-id()\n  p = u32[] partition-id()\n";
  body += "  np = u32[] constant(" + std::to_string(partitions) + ")\n";
  body += "  rp = u32[] multiply(r, np)\n  id = u32[] add(rp, p)\n";
  body += "  ids = s32[] convert(id)\n";
  body += "  b = " + in32 + " broadcast(ids), dimensions={}\n";
  body += "  i = " + in32 + " iota(), iota_dimension=" +
          std::to_string(pick(0, rank - 1)) + "\n";
  body += "  s = " + in32 + " add(i, b)\n";
  body += "  m = s32[] constant(" + std::to_string(modulus) + ")\n";
  body += "  mb = " + in32 + " broadcast(m), dimensions={}\n";
  body += "  q = " + in32 + " remainder(s, mb)\n";
  body += "  o = s32[] constant(" + std::to_string(offset) + ")\n";
  body += "  ob = " + in32 + " broadcast(o), dimensions={}\n";
  body += "  v = " + in32 + " add(q, ob)\n";
  body += "  x = " + in + " convert(v)\n";
  std::vector<std::string> results; // arrays of the collective's result
  std::string dimAttr = ", dimensions={" + std::to_string(dim) + "}";
  if (c.kind == "all-reduce" || c.kind == "reduce-scatter") {
    body += "  y = " + out + " " + c.kind + "(x)" + groups + modeAttrs +
            (c.kind == "reduce-scatter" ? dimAttr : "") + ", to_apply=red\n";
    results.push_back("y");
  } else if (c.kind == "all-gather" || c.kind == "all-to-all") {
    body += "  y = " + out + " " + c.kind + "(x)" + groups + modeAttrs +
            dimAttr + "\n";
    results.push_back("y");
  } else if (c.kind == "all-to-all-tuple") {
    // Operand k is x + k: member j's output k is member k's operand j.
    std::string operands, tuple;
    for (int64_t k = 0; k < groupSize; ++k) {
      std::string n = std::to_string(k);
      body += "  c" + n + " = s32[] constant(" + n + ")\n  cb" + n + " = " +
              in32 + " broadcast(c" + n + "), dimensions={}\n  v" + n +
              " = " + in32 + " add(v, cb" + n + ")\n  x" + n + " = " + in +
              " convert(v" + n + ")\n";
      operands += (k ? ", x" : "x") + n;
      tuple += (k ? ", " : "") + in;
    }
    body += "  y = (" + tuple + ") all-to-all(" + operands + ")" + groups +
            modeAttrs + "\n";
    for (int64_t k = 0; k < groupSize; ++k) {
      body += "  y" + std::to_string(k) + " = " + in +
              " get-tuple-element(y), index=" + std::to_string(k) + "\n";
      results.push_back("y" + std::to_string(k));
    }
  } else if (c.kind == "collective-permute") {
    std::vector<int64_t> targets(ids);
    std::iota(targets.begin(), targets.end(), 0);
    std::shuffle(targets.begin(), targets.end(), rng);
    std::string pairs;
    for (int64_t src = 0; src < ids; ++src)
      if (pick(0, 3))
        pairs += (pairs.empty() ? "{" : ",{") + std::to_string(src) + "," +
                 std::to_string(targets[src]) + "}";
    body += "  y = " + out + " collective-permute(x), source_target_pairs={" +
            pairs + "}" + modeAttrs + "\n";
    results.push_back("y");
  } else if (c.kind == "ragged-all-to-all") {
    // Entry e = j * k + u: input rows from e * rows, (id + e) % (rows + 1)
    // of them, to row (id * k + u) * rows of member j.
    std::string it = pick(0, 1) ? "s32" : "s64";
    std::string e = it + "[" + std::to_string(groupSize * perPeer) + "]";
    auto constant = [&](const std::string &name, int64_t value) {
      body += "  " + name + "c = " + it + "[] constant(" +
              std::to_string(value) + ")\n  " + name + " = " + e +
              " broadcast(" + name + "c), dimensions={}\n";
    };
    constant("rw", rows);
    constant("kk", perPeer);
    constant("r1", rows + 1);
    body += "  ei = " + e + " iota(), iota_dimension=0\n";
    body += "  idc = " + it + "[] convert(id)\n";
    body += "  idb = " + e + " broadcast(idc), dimensions={}\n";
    body += "  ioff = " + e + " multiply(ei, rw)\n";
    body += "  ide = " + e + " add(idb, ei)\n";
    body += "  sz = " + e + " remainder(ide, r1)\n";
    body += "  u = " + e + " remainder(ei, kk)\n";
    body += "  idk = " + e + " multiply(idb, kk)\n";
    body += "  at = " + e + " add(idk, u)\n";
    body += "  ooff = " + e + " multiply(at, rw)\n";
    body += "  fill = s32[] constant(3)\n  fillt = " + c.type +
            "[] convert(fill)\n  z = " + out +
            " broadcast(fillt), dimensions={}\n";
    body += "  y = " + out + " ragged-all-to-all(x, z, ioff, sz, ooff, sz)" +
            groups + modeAttrs + "\n";
    results.push_back("y");
  } else {
    body += "  y = " + out + " collective-broadcast(x)" + groups + modeAttrs +
            "\n";
    results.push_back("y");
  }
  // Every array flattened, concatenated, and gathered from every device.
  std::vector<std::string> flats;
  int64_t total = 0;
  for (const std::string &name : results) {
    int64_t n = 1;
    for (int64_t d : (name == "y" ? outDims : inDims))
      n *= d;
    body += "  f" + name + " = " + c.type + "[" + std::to_string(n) +
            "] reshape(" + name + ")\n";
    flats.push_back("f" + name);
    total += n;
  }
  std::string flat = flats.front();
  if (flats.size() > 1) {
    std::string list;
    for (const std::string &f : flats)
      list += (list.empty() ? "" : ", ") + f;
    body += "  cat = " + c.type + "[" + std::to_string(total) +
            "] concatenate(" + list + "), dimensions={0}\n";
    flat = "cat";
  }
  body += "  ROOT all = " + c.type + "[" +
          std::to_string(total * replicas * partitions) + "] all-gather(" +
          flat + "), channel_id=99, replica_groups={}, dimensions={0}\n";
  std::string red = reduces ? "red {\n  a = " + c.type +
                                 "[] parameter(0)\n  b = " + c.type +
                                 "[] parameter(1)\n  ROOT c = " + c.type +
                                 "[] " + reducer + "(a, b)\n}\n\n"
                           : "";
  c.text = "HloModule collectives, replica_count=" + std::to_string(replicas) +
           ", num_partitions=" + std::to_string(partitions) + "\n\n" + red +
           "ENTRY e {\n" + body + "}\n";
  return c;
}

constexpr int kTrials = 150;

/// Calls `check(c, module)` for each of the kTrials random collectives (one
/// seed), imported into a context of the hlo dialects; stops at a fatal
/// failure or a skip.
void forEachRandomCollective(
    function_ref<void(const CollectiveCase &, ModuleOp)> check) {
  DialectRegistry registry;
  registerHloTranslateDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();
  std::mt19937 rng(2911);
  for (int trial = 0; trial < kTrials; ++trial) {
    CollectiveCase c = generate(rng);
    OwningOpRef<ModuleOp> module = importHloText(c.text, &ctx);
    ASSERT_TRUE(module) << c.text;
    check(c, *module);
    if (::testing::Test::HasFatalFailure() || ::testing::Test::IsSkipped())
      return;
  }
}

/// Runs `module` on the interpreter and on `kind`'s runtime and expects the
/// same results (small integers: every reduction is exact, 16-bit floats
/// included); false when the runtime failed with an error containing
/// `refusal` (never when it is empty).
bool matchesTheInterpreter(ModuleOp module, const CollectiveCase &c,
                           DeviceKind kind, StringRef refusal = "") {
  std::string error, note;
  FailureOr<Literal> want =
      runtime::run(module, {}, runtime::getModuleOptions(module), error);
  EXPECT_TRUE(succeeded(want)) << error << "\n" << c.text;
  FailureOr<Literal> got = runOnDevice(module, {}, kind, error, note);
  if (failed(got) && !refusal.empty() && StringRef(error).contains(refusal))
    return false;
  EXPECT_TRUE(succeeded(got)) << error << "\n" << c.text;
  std::string why;
  if (succeeded(want) && succeeded(got)) {
    EXPECT_TRUE(closeEnough(*got, *want, 0, 0, why)) << why << "\n"
                                                     << note << "\n"
                                                     << c.text;
  }
  return true;
}

TEST(HostRuntimeTest, RandomCollectivesMatchTheInterpreter) {
  std::map<std::string, int> kinds;
  forEachRandomCollective([&](const CollectiveCase &c, ModuleOp module) {
    matchesTheInterpreter(module, c, DeviceKind::Host);
    ++kinds[c.kind];
  });
  for (const char *kind :
       {"all-reduce", "all-gather", "reduce-scatter", "all-to-all",
        "all-to-all-tuple", "collective-permute", "collective-broadcast",
        "ragged-all-to-all"})
    EXPECT_GT(kinds[kind], kTrials / 14) << kind;
}

// What the GPU compiler makes of the random collectives (layouts assigned,
// then thunks) is what the CUDA runtime's NCCL path takes: dimensions split
// most major, element types NCCL reduces. Only arrays of 2- and 4-bit
// elements may be refused (NCCL reduces no such type; their chunks may not
// be whole bytes), with the runtime's "NCCL cannot" error. No GPU needed.
TEST(CudaRuntimeTest, RandomCollectivesCompileForNccl) {
  int accepted = 0, refused = 0;
  forEachRandomCollective([&](const CollectiveCase &c, ModuleOp module) {
    std::string error;
    FailureOr<OwningOpRef<ModuleOp>> program =
        compileToThunks(module, DeviceKind::Cuda, error);
    ASSERT_TRUE(succeeded(program)) << error << "\n" << c.text;
    if (succeeded(checkNcclCollectives(**program, error))) {
      ++accepted;
      return;
    }
    if (StringRef(error).contains("without nccl.h") ||
        StringRef(error).contains("no CUDA runtime"))
      GTEST_SKIP() << error;
    bool subByte = c.type == "s4" || c.type == "u4" || c.type == "u2" ||
                   c.type == "f4e2m1fn";
    ASSERT_TRUE(subByte && StringRef(error).contains("NCCL cannot"))
        << error << "\n"
        << c.text;
    ++refused;
  });
  EXPECT_GT(accepted, 100) << refused << " refused";
}

// The same random collectives through NCCL, one device per GPU, where the
// machine has at least 2 GPUs (cases of more devices than it has are left
// out); cases NCCL cannot reduce (sub-byte, 16-bit integer or complex
// product elements) must stop at the runtime's clear error.
TEST(CudaRuntimeTest, RandomCollectivesMatchTheInterpreter) {
  std::string error;
  FailureOr<int> gpus = countCudaDevices(error);
  if (failed(gpus) || *gpus < 2)
    GTEST_SKIP() << (failed(gpus) ? error : "fewer than 2 CUDA devices");
  int ran = 0, refused = 0;
  forEachRandomCollective([&](const CollectiveCase &c, ModuleOp module) {
    runtime::InterpreterOptions options = runtime::getModuleOptions(module);
    if (options.numReplicas * options.numPartitions > *gpus)
      return;
    if (matchesTheInterpreter(module, c, DeviceKind::Cuda, "NCCL cannot"))
      ++ran;
    else
      ++refused;
  });
  EXPECT_GT(ran, 0) << refused << " refused";
}

/// A module of 2 replicas whose all-reduces can overlap independent
/// elementwise chains: some of the chains' values are all-reduced, others
/// not, and the all-reduced values are read again.
std::string asyncModule(std::mt19937 &rng) {
  auto pick = [&](int n) { return int(rng() % unsigned(n)); };
  const char *ops[] = {"negate", "exponential", "tanh", "abs", "sine"};
  std::string body = "  p0 = f32[256] parameter(0)\n"
                     "  p1 = f32[256] parameter(1)\n";
  std::vector<std::string> values = {"p0", "p1"}, roots;
  int n = 4 + pick(10);
  for (int k = 0; k < n; ++k) {
    std::string name = "v" + std::to_string(k);
    std::string a = values[pick(values.size())];
    if (pick(3) == 0) {
      body +=
          "  " + name + " = f32[256] all-reduce(" + a +
          "), replica_groups={{0,1}}, to_apply=" + (pick(2) ? "add" : "mul") +
          "\n";
    } else if (pick(2)) {
      body += "  " + name + " = f32[256] " + ops[pick(5)] + "(" + a + ")\n";
    } else {
      body += "  " + name + " = f32[256] add(" + a + ", " +
              values[pick(values.size())] + ")\n";
    }
    values.push_back(name);
  }
  std::string root = "  ROOT r = (";
  std::string list;
  for (int k = 0; k < 3; ++k) {
    root += std::string(k ? ", " : "") + "f32[256]";
    list += std::string(k ? ", " : "") + values[2 + pick(n)];
  }
  return "HloModule async, replica_count=2\n\n"
         "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
         "  ROOT c = f32[] add(a, b)\n}\n\n"
         "mul {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
         "  ROOT c = f32[] multiply(a, b)\n}\n\n"
         "ENTRY e {\n" +
         body + root + ") tuple(" + list + ")\n}\n";
}

/// Random modules whose all-reduces the latency-hiding scheduler overlaps
/// with kernels, compiled to asynchronous collective thunks (async_id and
/// thunk.collective_done) and run by the host runtime, each device's
/// collectives on a collective stream of their own while its kernels go
/// on: the interpreter's results (up to the host kernels' math library).
TEST(HostRuntimeTest, AsynchronousCollectivesMatchTheInterpreter) {
  DialectRegistry registry;
  registerHloTranslateDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();
  std::mt19937 rng(2912);
  int async = 0;
  for (int trial = 0; trial < 100; ++trial) {
    std::string text = asyncModule(rng);
    OwningOpRef<ModuleOp> module = importHloText(text, &ctx);
    ASSERT_TRUE(module) << text;
    std::string error, note;
    FailureOr<OwningOpRef<ModuleOp>> program =
        compileToThunks(*module, DeviceKind::Host, error);
    ASSERT_TRUE(succeeded(program)) << error << "\n" << text;
    bool any = false;
    (**program)->walk([&](thunk::CollectiveDoneOp) { any = true; });
    async += any;
    FailureOr<std::vector<Literal>> args =
        runtime::randomArguments(*module, trial, error);
    ASSERT_TRUE(succeeded(args)) << error;
    FailureOr<Literal> want =
        runtime::run(*module, *args, runtime::getModuleOptions(*module), error);
    ASSERT_TRUE(succeeded(want)) << error << "\n" << text;
    FailureOr<Literal> got =
        runOnDevice(*module, *args, DeviceKind::Host, error, note);
    ASSERT_TRUE(succeeded(got)) << error << "\n" << text;
    ASSERT_TRUE(got->isTuple() && want->isTuple());
    ASSERT_EQ(got->getElements().size(), want->getElements().size());
    for (auto [g, w] : llvm::zip(got->getElements(), want->getElements())) {
      std::string why;
      EXPECT_TRUE(closeEnough(g, w, 1e-4, 1e-4, why)) << why << "\n" << text;
    }
  }
  // Most modules have an all-reduce with a kernel to overlap.
  EXPECT_GT(async, 30);
}

} // namespace
