//===- InterpreterDevicesTest.cpp - collectives and rng
//---------------------===//
//
// Collectives over simulated replicas and partitions, random numbers, and
// two disabled development tests (run a file, run the corpus).
//
//===----------------------------------------------------------------------===//

#include "InterpreterTestUtil.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

using namespace interpreter_test;

namespace {

//===----------------------------------------------------------------------===//
// Collectives.
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, AllReduceAndAllGather) {
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT a = f32[4] all-reduce(x), "
                                 "replica_groups={}, to_apply=add"),
                {}, devices(4)),
            "f32[4] {60, 64, 68, 72}");
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT a = f32[4] all-reduce(x), "
                                 "replica_groups={{0,2},{1,3}}, "
                                 "to_apply=add"),
                {}, devices(4)),
            "f32[4] {20, 22, 24, 26}");
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "s = f32[2] slice(x), slice={[0:2]}\n"
                                 "ROOT g = f32[6] all-gather(s), "
                                 "dimensions={0}, replica_groups={{2,0,1}}"),
                {}, devices(3)),
            "f32[6] {20, 21, 0, 1, 10, 11}");
  // One replica: the collectives are identities.
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT a = f32[4] all-reduce(x), "
                                 "to_apply=add")),
            "f32[4] {0, 1, 2, 3}");
}

TEST_F(InterpreterTest, ReduceScatterAndAllToAll) {
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT a = f32[2] reduce-scatter(x), "
                                 "dimensions={0}, replica_groups={}, "
                                 "to_apply=add"),
                {}, devices(2)),
            "f32[2] {10, 12}");
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT a = f32[4] all-to-all(x), "
                                 "dimensions={0}, replica_groups={{0,1}}"),
                {}, devices(2)),
            "f32[4] {0, 1, 10, 11}");
  // Tuple form: operand j goes to member j.
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "a = f32[2] slice(x), slice={[0:2]}\n"
                                 "b = f32[2] slice(x), slice={[2:4]}\n"
                                 "ROOT tt = (f32[2], f32[2]) all-to-all(a, b), "
                                 "replica_groups={{0,1}}"),
                {}, devices(2)),
            "(f32[2], f32[2]) ({0, 1}, {10, 11})");
}

TEST_F(InterpreterTest, CollectivePermuteAndBroadcast) {
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT p = f32[4] collective-permute(x), "
                                 "source_target_pairs={{0,1},{1,2},{2,0}}"),
                {}, devices(3)),
            "f32[4] {20, 21, 22, 23}");
  // Replica 0 is no target: zeros.
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT p = f32[4] collective-permute(x), "
                                 "source_target_pairs={{0,1}}"),
                {}, devices(2)),
            "f32[4] {0, 0, 0, 0}");
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT b = f32[4] collective-broadcast(x), "
                                 "replica_groups={{1,0}}"),
                {}, devices(2)),
            "f32[4] {10, 11, 12, 13}");
}

TEST_F(InterpreterTest, RaggedAllToAll) {
  // x = {{10r, 10r}, {10r+1, ...}, {10r+2, ...}} on replica r. Replica 0
  // sends its row 0 to itself (at row 0) and row 1 to replica 1 (at row 0);
  // replica 1 sends its row 0 to replica 0 (at row 1) and rows 1-2 to
  // itself (at row 1).
  const char *body =
      "r = u32[] replica-id()\nrf = f32[] convert(r)\n"
      "ten = f32[] constant(10)\nt = f32[] multiply(rf, ten)\n"
      "tb = f32[3,2] broadcast(t), dimensions={}\n"
      "io = f32[3,2] iota(), iota_dimension=0\nx = f32[3,2] add(tb, io)\n"
      "out = f32[4,2] constant({{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}})\n"
      "zero = s32[] constant(0)\nri = s32[] convert(r)\n"
      "ioff = s32[2] constant({0, 1})\n"
      "ssz0 = s32[2] constant({1, 1})\nssz1 = s32[2] constant({1, 2})\n"
      "isr = pred[] compare(ri, zero), direction=EQ\n"
      "ssz = s32[2] select(isr, ssz0, ssz1)\n"
      "ooff0 = s32[2] constant({0, 0})\nooff1 = s32[2] constant({1, 1})\n"
      "ooff = s32[2] select(isr, ooff0, ooff1)\n"
      "rsz = s32[2] constant({1, 1})\n"
      "ROOT a = f32[4,2] ragged-all-to-all(x, out, ioff, ssz, ooff, rsz), "
      "replica_groups={{0,1}}";
  EXPECT_EQ(runBody(body, devices(2)),
            "f32[4,2] {{0, 0}, {10, 10}, {-1, -1}, {-1, -1}}");
}

TEST_F(InterpreterTest, CollectivesOverPartitions) {
  // partition-id + 10 * replica-id, all-reduced over flattened ids.
  const char *ids = "r = u32[] replica-id()\np = u32[] partition-id()\n"
                    "ten = u32[] constant(10)\nrt = u32[] multiply(r, ten)\n"
                    "v = u32[] add(rt, p)\nx = s32[] convert(v)\n";
  const char *addi = R"(
HloModule m
add {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
)";
  auto entry = [&](StringRef root) {
    return (addi + ("ENTRY e {\n" + (ids + root) + "\n}\n")).str();
  };
  // Flattened ids {0,1,2,3} = (r0,p0) (r0,p1) (r1,p0) (r1,p1).
  EXPECT_EQ(run(entry("ROOT a = s32[] all-reduce(x), channel_id=1, "
                      "use_global_device_ids=true, "
                      "replica_groups={{0,1,2,3}}, to_apply=add"),
                {}, devices(2, 2)),
            "s32[] 22");
  // Cross-partition (channel, no global ids): partitions of replica 0.
  EXPECT_EQ(run(entry("ROOT a = s32[4] all-gather(x2), channel_id=1, "
                      "use_global_device_ids=false, dimensions={0}, "
                      "replica_groups={{0,1}}\n"
                      "x2 = s32[1] reshape(x)"),
                {}, devices(2, 2)),
            "s32[4] {0, 1, 10, 11}");
  // Cross-replica within partition 0.
  EXPECT_EQ(run(entry("ROOT a = s32[] all-reduce(x), replica_groups={{0,1}}, "
                      "to_apply=add"),
                {}, devices(2, 2)),
            "s32[] 10");
  // collective-permute with a channel: partition ids.
  EXPECT_EQ(run(entry("ROOT c = s32[] collective-permute(x), channel_id=2, "
                      "source_target_pairs={{1,0}}"),
                {}, devices(2, 2)),
            "s32[] 1");
}

TEST_F(InterpreterTest, AsyncCollectives) {
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "s = f32[4] all-reduce-start(x), "
                                 "replica_groups={}, to_apply=add\n"
                                 "ROOT d = f32[4] all-reduce-done(s)"),
                {}, devices(2)),
            "f32[4] {10, 12, 14, 16}");
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "s = (f32[4], f32[8]) all-gather-start(x), "
                                 "dimensions={0}, replica_groups={}\n"
                                 "ROOT d = f32[8] all-gather-done(s)"),
                {}, devices(2)),
            "f32[8] {0, 1, 2, 3, 10, 11, 12, 13}");
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "s = (f32[4], f32[4], u32[], u32[]) "
                                 "collective-permute-start(x), "
                                 "source_target_pairs={{1,0}}\n"
                                 "ROOT d = f32[4] collective-permute-done(s)"),
                {}, devices(2)),
            "f32[4] {10, 11, 12, 13}");
}

TEST_F(InterpreterTest, FailingDeviceStopsTheOthers) {
  std::string result =
      run(withComputations("r = u32[] replica-id()\nz = u32[] constant(0)\n"
                           "p = pred[] compare(r, z), direction=EQ\n"
                           "x = f32[] constant(1)\n"
                           "c = f32[] conditional(p, x, x), "
                           "true_computation=bad, false_computation=good\n"
                           "ROOT a = f32[] all-reduce(c), to_apply=add",
                           "bad {\n  x = f32[] parameter(0)\n  ROOT c = f32[] "
                           "custom-call(x), custom_call_target=\"nope\"\n}\n"
                           "good {\n  x = f32[] parameter(0)\n  ROOT c = f32[] "
                           "copy(x)\n}\n"),
          {}, devices(3));
  EXPECT_EQ(result, "error: replica 0, partition 0: custom-call 'c': "
                    "unsupported custom call target 'nope'");
}

TEST_F(InterpreterTest, DivergingDevicesDoNotHang) {
  // Only replica 1 reaches the all-reduce: replica 0 runs to the end, so
  // replica 1 must not wait forever.
  std::string result =
      run(withComputations("r = u32[] replica-id()\nz = u32[] constant(0)\n"
                           "p = pred[] compare(r, z), direction=EQ\n"
                           "x = f32[] constant(1)\n"
                           "ROOT c = f32[] conditional(p, x, x), "
                           "true_computation=quiet, false_computation=loud",
                           "quiet {\n  x = f32[] parameter(0)\n  ROOT c = "
                           "f32[] copy(x)\n}\n"
                           "loud {\n  x = f32[] parameter(0)\n"
                           "  ROOT a = f32[] all-reduce(x), to_apply=add\n}\n"),
          {}, devices(2));
  EXPECT_EQ(result, "error: replica 1, partition 0: all-reduce 'a': the other "
                    "devices did not reach this collective (they ran to the "
                    "end without it)");
}

//===----------------------------------------------------------------------===//
// Random numbers.
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, RngIsDeterministicInTheSeed) {
  const char *body = "lo = f32[] constant(-2)\nhi = f32[] constant(3)\n"
                     "a = f32[64] rng(lo, hi), distribution=rng_uniform\n"
                     "b = f32[64] rng(lo, hi), distribution=rng_uniform\n"
                     "ROOT t = (f32[64], f32[64]) tuple(a, b)";
  InterpreterOptions seed1, seed2;
  seed1.seed = 1;
  seed2.seed = 2;
  std::string r1 = runBody(body, seed1);
  EXPECT_EQ(r1, runBody(body, seed1));
  EXPECT_NE(r1, runBody(body, seed2));
  OwningOpRef<ModuleOp> module = importHloText(
      ("HloModule m\nENTRY e {\n" + std::string(body) + "\n}\n"), &ctx);
  std::string error;
  auto result = runtime::run(*module, {}, seed1, error);
  ASSERT_TRUE(succeeded(result)) << error;
  const Literal &a = result->getElements()[0], &b = result->getElements()[1];
  EXPECT_FALSE(a == b); // two rng ops give different numbers
  for (int64_t i = 0; i < 64; ++i)
    EXPECT_TRUE(a.getFloat(i) >= -2 && a.getFloat(i) < 3) << a.getFloat(i);
}

TEST_F(InterpreterTest, RngIntegersAndNormal) {
  std::string r = runBody("lo = s32[] constant(5)\nhi = s32[] constant(8)\n"
                          "ROOT a = s32[100] rng(lo, hi), "
                          "distribution=rng_uniform");
  for (const char *v : {" 5", " 6", " 7"})
    EXPECT_NE(r.find(v), std::string::npos) << r;
  for (const char *v : {" 4,", " 8,", " 9,"})
    EXPECT_EQ(r.find(v), std::string::npos) << r;
  EXPECT_EQ(runBody("m = f32[] constant(3)\ns = f32[] constant(0)\n"
                    "ROOT a = f32[3] rng(m, s), distribution=rng_normal"),
            "f32[3] {3, 3, 3}");
}

TEST_F(InterpreterTest, RngBitGeneratorGivesXlasBits) {
  // Values from XLA's CPU backend (jaxlib 0.10.2) on the same modules.
  EXPECT_EQ(runBody("s = u64[2] constant({123, 456})\n"
                    "ROOT r = (u64[2], u32[5]) rng-bit-generator(s), "
                    "algorithm=rng_three_fry"),
            "(u64[2], u32[5]) ({123, 459}, {2365294944, 4194936891, "
            "105764723, 2050896720, 4007583465})");
  EXPECT_EQ(runBody("s = u64[2] constant({123, 456})\n"
                    "ROOT r = (u64[2], u32[2,3]) rng-bit-generator(s), "
                    "algorithm=rng_three_fry"),
            "(u64[2], u32[2,3]) ({123, 459}, {{2365294944, 105764723, "
            "4007583465}, {4194936891, 2050896720, 2764690829}})");
  // No even dimension: pairs along the largest one (5).
  EXPECT_EQ(runBody("s = u64[2] constant({12, 15})\n"
                    "ROOT r = (u64[2], u32[3,5]) rng-bit-generator(s), "
                    "algorithm=rng_three_fry"),
            "(u64[2], u32[3,5]) ({12, 24}, {{4120385688, 3078816837, "
            "2948178284, 2039097155, 843223075}, {2637164440, 4209263853, "
            "4085146493, 1379864309, 3591538733}, {1764590063, 2797328236, "
            "3266181016, 225099634, 2136573560}})");
  EXPECT_EQ(runBody("s = u64[2] constant({123, 456})\n"
                    "ROOT r = (u64[2], u8[5]) rng-bit-generator(s), "
                    "algorithm=rng_three_fry"),
            "(u64[2], u8[5]) ({123, 459}, {96, 59, 115, 80, 233})");
  EXPECT_EQ(runBody("s = u64[2] constant({123, 456})\n"
                    "ROOT r = (u64[2], u64[3]) rng-bit-generator(s), "
                    "algorithm=rng_three_fry"),
            "(u64[2], u64[3]) ({123, 459}, {18017116757994211680, "
            "8808534339979433843, 11874256698113711849})");
  EXPECT_EQ(runBody("s = u64[2] constant({123, 456})\n"
                    "ROOT r = (u64[2], u32[5]) rng-bit-generator(s), "
                    "algorithm=rng_default"),
            "(u64[2], u32[5]) ({123, 458}, {2380981782, 1153079949, "
            "2020398190, 555028375, 3819958479})");
  EXPECT_EQ(runBody("s = u64[2] constant({123, 456})\n"
                    "ROOT r = (u64[2], u64[3]) rng-bit-generator(s), "
                    "algorithm=rng_philox"),
            "(u64[2], u64[3]) ({123, 458}, {4952440673009329686, "
            "2383828720997422190, 2156272533592076495})");
  // A u64[3] state: 128-bit counter (state[1], state[2]) with carry.
  EXPECT_EQ(runBody("s = u64[3] constant({123, 18446744073709551615, 7})\n"
                    "ROOT r = (u64[3], u32[6]) rng-bit-generator(s), "
                    "algorithm=rng_philox"),
            "(u64[3], u32[6]) ({123, 1, 8}, {2639335248, 360000244, "
            "3618161357, 4008280302, 2140127323, 1274440409})");
}

TEST_F(InterpreterTest, RngBitGeneratorIsAFunctionOfItsState) {
  const char *body =
      "s = u64[2] constant({1, 2})\n"
      "a = (u64[2], u32[8]) rng-bit-generator(s), algorithm=rng_philox\n"
      "b = (u64[2], u32[8]) rng-bit-generator(s), algorithm=rng_philox\n"
      "s2 = u64[2] get-tuple-element(a), index=0\n"
      "c = (u64[2], u32[8]) rng-bit-generator(s2), algorithm=rng_philox\n"
      "ab = u32[8] get-tuple-element(a), index=1\n"
      "bb = u32[8] get-tuple-element(b), index=1\n"
      "cb = u32[8] get-tuple-element(c), index=1\n"
      "same = pred[8] compare(ab, bb), direction=EQ\n"
      "diff = pred[8] compare(ab, cb), direction=NE\n"
      "ROOT t = (pred[8], pred[8], u64[2]) tuple(same, diff, s2)";
  EXPECT_EQ(runBody(body), "(pred[8], pred[8], u64[2]) ({true, true, true, "
                           "true, true, true, true, true}, {true, true, true, "
                           "true, true, true, true, true}, {1, 4})");
}

/// Runs the module in file HLO_FILE (random arguments, seed 1, replica and
/// partition counts from the module) and prints its result; for
/// development: HloUnitTests --gtest_also_run_disabled_tests
/// --gtest_filter='*RunFile*'.
TEST_F(InterpreterTest, DISABLED_RunFile) {
  const char *file = std::getenv("HLO_FILE");
  ASSERT_TRUE(file);
  auto buffer = llvm::MemoryBuffer::getFile(file);
  ASSERT_TRUE(bool(buffer));
  OwningOpRef<ModuleOp> module =
      importHloText((*buffer)->getBuffer(), &ctx, file);
  ASSERT_TRUE(module) << diagnostics;
  std::string error;
  auto args = randomArguments(*module, 1, error);
  ASSERT_TRUE(succeeded(args)) << error;
  auto result = runtime::run(*module, *args, getModuleOptions(*module), error);
  llvm::outs() << (succeeded(result) ? result->toString() : "error: " + error)
               << "\n";
}

/// Runs every module of the corpus (HLO_CORPUS_DIR, default
/// ../shared/corpus/hlo beside the source tree) on random arguments and
/// prints one line per module: ok, or the error. Never fails on an error; a
/// crash or a hang is the bug it looks for. Disabled by default (slow):
/// HloUnitTests --gtest_also_run_disabled_tests --gtest_filter='*Corpus*'.
TEST_F(InterpreterTest, DISABLED_CorpusSmoke) {
  const char *env = std::getenv("HLO_CORPUS_DIR");
  std::string dir = env ? env : HLO_SOURCE_DIR "/../shared/corpus/hlo";
  const char *filter = std::getenv("HLO_CORPUS_FILTER");
  std::error_code ec;
  std::vector<std::string> files;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(".hlo") &&
        (!filter || llvm::StringRef(it->path()).contains(filter)))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file);
    ASSERT_TRUE(bool(buffer));
    diagnostics.clear();
    OwningOpRef<ModuleOp> module =
        importHloText((*buffer)->getBuffer(), &ctx, file);
    std::string name = llvm::sys::path::filename(file).str();
    if (!module) {
      llvm::outs() << name << ": import failed\n";
      continue;
    }
    InterpreterOptions options = getModuleOptions(*module);
    std::string error;
    auto start = std::chrono::steady_clock::now();
    auto args = randomArguments(*module, 1, error);
    FailureOr<Literal> result = failure();
    if (succeeded(args))
      result = runtime::run(*module, *args, options, error);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    llvm::outs() << name << " (" << llvm::format("%.2f", seconds)
                 << " s): " << (succeeded(result) ? std::string("ok") : error)
                 << "\n";
    llvm::outs().flush();
  }
}

TEST_F(InterpreterTest, CollectiveReduceAndShuffle) {
  // x = {10r, 10r+1, 10r+2, 10r+3} on replica r.
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT a = f32[4] collective-reduce(x), "
                                 "replica_groups={{0,1},{2,3}}, "
                                 "to_apply=add"),
                {}, devices(4)),
            "f32[4] {10, 12, 14, 16}");
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT a = f32[4] collective-reduce(x)"),
                {}, devices(2)),
            "error: replica 0, partition 0: collective-reduce 'a': needs a "
            "to_apply computation");
  // Replica 0 is member 1 of {3, 0, 1, 2}: it gets element 1 of every
  // member, in group order.
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT a = f32[4] shuffle(x), "
                                 "replica_groups={{3,0,1,2}}"),
                {}, devices(4)),
            "f32[4] {31, 1, 11, 21}");
  EXPECT_EQ(run(withComputations(std::string(kPerReplica) +
                                 "ROOT a = f32[4] shuffle(x)"),
                {}, devices(3)),
            "error: replica 0, partition 0: shuffle 'a': dimension 0 of "
            "operand 0 is not divisible by the group size 3");
}

TEST_F(InterpreterTest, CollectivePermuteInPlace) {
  // Replica r's input {10r, ..., 10r+3}; output buffers {-1, -1, -1, -1}.
  // Pair k = 0 (0 -> 1) moves 2 elements from input offset 1 of replica 0
  // to output offset 2 of replica 1; pair 1 (1 -> 0) moves replica 1's
  // elements at offset 2 (clamped from 3) to offset 0 of replica 0.
  std::string body = std::string(kPerReplica) +
                     "m = f32[] constant(-1)\n"
                     "o = f32[4] broadcast(m), dimensions={}\n"
                     "c0 = s32[] constant(0)\nc1 = s32[] constant(1)\n"
                     "c2 = s32[] constant(2)\nc3 = s32[] constant(3)\n"
                     "i0 = (s32[]) tuple(c1)\ni1 = (s32[]) tuple(c3)\n"
                     "o0 = (s32[]) tuple(c2)\no1 = (s32[]) tuple(c0)\n"
                     "ii = ((s32[]), (s32[])) tuple(i0, i1)\n"
                     "oo = ((s32[]), (s32[])) tuple(o0, o1)\n";
  EXPECT_EQ(runBody(body + "ROOT p = f32[4] collective-permute(x, o, ii, oo), "
                           "source_target_pairs={{0,1},{1,0}}, "
                           "slice_sizes={{2},{2}}",
                    devices(2)),
            "f32[4] {12, 13, -1, -1}");
  // Replica 1's result, brought back to replica 0: {-1, -1, 1, 2}.
  EXPECT_EQ(runBody(body + "p = f32[4] collective-permute(x, o, ii, oo), "
                           "source_target_pairs={{0,1},{1,0}}, "
                           "slice_sizes={{2},{2}}\n"
                           "ROOT q = f32[4] collective-permute(p), "
                           "source_target_pairs={{1,0}}",
                    devices(2)),
            "f32[4] {-1, -1, 1, 2}");
  // Start indices as one-element arrays (XLA's verifier takes any array
  // per dimension).
  EXPECT_EQ(runBody(std::string(kPerReplica) +
                        "m = f32[] constant(-1)\n"
                        "o = f32[4] broadcast(m), dimensions={}\n"
                        "a = s32[1] constant({0})\nb = s32[1] constant({1})\n"
                        "ii = (s32[1]) tuple(a)\noo = (s32[1]) tuple(b)\n"
                        "ROOT p = f32[4] collective-permute(x, o, ii, oo), "
                        "source_target_pairs={{1,0}}, slice_sizes={{3}}",
                    devices(2)),
            "f32[4] {-1, 10, 11, 12}");
  // Malformed start indices and slice sizes: the verifier's errors. Four
  // arrays are XLA's combined form (as XLA's parser reads them), whose
  // result is the tuple of the operands' types.
  EXPECT_EQ(runBody(body + "ROOT p = f32[4] collective-permute(x, o, c0, c0), "
                           "source_target_pairs={{0,1},{1,0}}",
                    devices(2)),
            "import failed: 'hlo.collective_permute' op result type "
            "'tensor<4xf32>' should be 'tuple<tensor<4xf32>, tensor<4xf32>, "
            "tensor<i32>, tensor<i32>>' (the operands' types)\n");
  EXPECT_EQ(runBody(body + "ROOT p = f32[4] collective-permute(x, o, ii, oo), "
                           "source_target_pairs={{0,1},{1,0}}, "
                           "slice_sizes={{5},{5}}",
                    devices(2)),
            "import failed: 'hlo.collective_permute' op slice of sizes [5] "
            "does not fit input buffer 'tensor<4xf32>' and output buffer "
            "'tensor<4xf32>'\n");
  EXPECT_EQ(runBody(body + "ROOT p = f32[4] collective-permute(x, o, ii, oo), "
                           "source_target_pairs={{0,1},{1,0}}, "
                           "slice_sizes={{2},{2},{2}}",
                    devices(2)),
            "import failed: 'hlo.collective_permute' op slice_sizes has 3 "
            "lists, expected one per buffer and start-index entry (2)\n");
}

TEST_F(InterpreterTest, RaggedAllToAllSeveralUpdates) {
  // Three replicas, 2 updates per peer (entries peer-major: j * 2 + u).
  // Replica r's input {10r, ..., 10r+5}; it sends element 2j (update 0)
  // and element 2j+1 (update 1) to replica j, which stores them at rows
  // 2r + 1 and 2r of its output (swapped).
  std::string body =
      "r = u32[] replica-id()\nrf = f32[] convert(r)\n"
      "ten = f32[] constant(10)\nt = f32[] multiply(rf, ten)\n"
      "tb = f32[6] broadcast(t), dimensions={}\n"
      "io = f32[6] iota(), iota_dimension=0\nx = f32[6] add(tb, io)\n"
      "m = f32[] constant(-1)\nout = f32[6] broadcast(m), dimensions={}\n"
      "ioff = s32[3,2] constant({{0, 1}, {2, 3}, {4, 5}})\n"
      "sz = s32[3,2] constant({{1, 1}, {1, 1}, {1, 1}})\n"
      "ri = s32[] convert(r)\ntwo = s32[] constant(2)\n"
      "r2 = s32[] multiply(ri, two)\n"
      "r2b = s32[3,2] broadcast(r2), dimensions={}\n"
      "rel = s32[3,2] constant({{1, 0}, {1, 0}, {1, 0}})\n"
      "ooff = s32[3,2] add(r2b, rel)\n";
  // Replica 0 receives elements 0, 1 of every replica: rows 2r + 1 = 10r,
  // 2r = 10r + 1.
  EXPECT_EQ(runBody(body + "ROOT a = f32[6] ragged-all-to-all(x, out, ioff, "
                           "sz, ooff, sz), replica_groups={{0,1,2}}",
                    devices(3)),
            "f32[6] {1, 0, 11, 10, 21, 20}");
  // Replica 2 receives elements 4, 5.
  EXPECT_EQ(runBody(body + "a = f32[6] ragged-all-to-all(x, out, ioff, sz, "
                           "ooff, sz), replica_groups={{0,1,2}}\n"
                           "ROOT b = f32[6] collective-permute(a), "
                           "source_target_pairs={{2,0}}",
                    devices(3)),
            "f32[6] {5, 4, 15, 14, 25, 24}");
  // 4 entries for a group of 3.
  EXPECT_EQ(runBody("x = f32[6] constant({0, 1, 2, 3, 4, 5})\n"
                    "o = s32[4] constant({0, 0, 0, 0})\n"
                    "ROOT a = f32[6] ragged-all-to-all(x, x, o, o, o, o), "
                    "replica_groups={{0,1,2}}",
                    devices(3)),
            "error: replica 0, partition 0: ragged-all-to-all 'a': offsets "
            "and sizes must have the same number of entries, k per group "
            "member (k >= 1; the group has 3 members)");
  // A range past the end of the output.
  EXPECT_EQ(runBody("x = f32[6] constant({0, 1, 2, 3, 4, 5})\n"
                    "o = s32[2] constant({0, 5})\ns = s32[2] constant({2, 2})\n"
                    "ROOT a = f32[6] ragged-all-to-all(x, x, o, s, o, s), "
                    "replica_groups={{0}}",
                    devices(1)),
            "error: ragged-all-to-all 'a': update 1 from group member 0 to "
            "member 0: rows [5, +2) of 6 to row 5 of 6 are out of bounds");
}

} // namespace
