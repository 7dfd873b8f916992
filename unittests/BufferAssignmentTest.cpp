//===- BufferAssignmentTest.cpp - random modules through buffer assignment ===//
//
// Hundreds of random modules (elementwise chains, in-place
// dynamic-update-slices, tuples, a while loop whose state may be swapped,
// outputs that repeat a value or return a parameter) are scheduled, given
// copies and assigned buffers; then the independent checker must find no
// overlap, and the module run on one flat arena (every value in its slice)
// must give exactly the results of the interpreter on the original. The
// same modules again with hlo-rematerialization after scheduling, under a
// random limit between half the peak and the peak.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/BufferAssignment.h"
#include "Hlo/Runtime/Arena.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Transforms/BufferAssignmentPasses.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <array>
#include <cctype>
#include <random>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// A random module over f32[8] values: parameters, unary and binary
/// elementwise ops, dynamic-update-slices, bitcasts, a while loop carrying two
/// of the values (swapped or not on every trip), and a ROOT tuple of some
/// values (a parameter or a repeated value among them). With `collectives`,
/// also asynchronous all-reduce and collective-permute pairs (start and
/// done written next to each other, for the latency-hiding scheduler to
/// pull apart).
std::string randomModule(std::mt19937 &rng, bool collectives = false) {
  auto pick = [&](int n) { return int(rng() % unsigned(n)); };
  std::string body, text;
  std::vector<std::string> values;
  int params = 1 + pick(3);
  for (int i = 0; i < params; ++i) {
    values.push_back("p" + std::to_string(i));
    body += "  p" + std::to_string(i) + " = f32[8] parameter(" +
            std::to_string(i) + ")\n";
  }
  body += "  i = s32[] parameter(" + std::to_string(params) + ")\n";
  bool loop = pick(2);
  int n = 4 + pick(12);
  for (int k = 0; k < n; ++k) {
    std::string name = "v" + std::to_string(k);
    std::string a = values[pick(values.size())];
    std::string b = values[pick(values.size())];
    switch (pick(collectives ? 8 : 6)) {
    case 0:
      body += "  " + name + " = f32[8] negate(" + a + ")\n";
      break;
    case 1:
      body += "  " + name + " = f32[8] add(" + a + ", " + b + ")\n";
      break;
    case 2:
      body += "  " + name + " = f32[8] multiply(" + a + ", " + b + ")\n";
      break;
    case 3:
      body += "  s" + std::to_string(k) + " = f32[2] slice(" + b +
              "), slice={[0:2]}\n";
      body += "  " + name + " = f32[8] dynamic-update-slice(" + a + ", s" +
              std::to_string(k) + ", i)\n";
      break;
    case 4:
      body += "  r" + std::to_string(k) + " = f32[2,4] bitcast(" + a + ")\n";
      body += "  " + name + " = f32[8] bitcast(r" + std::to_string(k) +
              ")\n";
      break;
    case 6:
      body += "  s" + std::to_string(k) + " = f32[8] all-reduce-start(" + a +
              "), replica_groups={}, to_apply=add\n";
      body += "  " + name + " = f32[8] all-reduce-done(s" + std::to_string(k) +
              ")\n";
      break;
    case 7:
      body += "  s" + std::to_string(k) +
              " = f32[8] collective-permute-start(" + a +
              "), source_target_pairs={{0,0}}\n";
      body += "  " + name + " = f32[8] collective-permute-done(s" +
              std::to_string(k) + ")\n";
      break;
    default:
      body += "  t" + std::to_string(k) + " = (f32[8], f32[8]) tuple(" + a +
              ", " + b + ")\n";
      body += "  " + name + " = f32[8] get-tuple-element(t" +
              std::to_string(k) + "), index=" + std::to_string(pick(2)) + "\n";
      break;
    }
    values.push_back(name);
  }
  if (loop) {
    bool swap = pick(2);
    text += "cond {\n  p = (s32[], f32[8], f32[8]) parameter(0)\n"
            "  c = s32[] get-tuple-element(p), index=0\n"
            "  three = s32[] constant(3)\n"
            "  ROOT lt = pred[] compare(c, three), direction=LT\n}\n\n";
    text += "body {\n  p = (s32[], f32[8], f32[8]) parameter(0)\n"
            "  c = s32[] get-tuple-element(p), index=0\n"
            "  one = s32[] constant(1)\n  n = s32[] add(c, one)\n"
            "  x = f32[8] get-tuple-element(p), index=1\n"
            "  y = f32[8] get-tuple-element(p), index=2\n"
            "  z = f32[8] add(x, y)\n";
    text += swap ? "  ROOT r = (s32[], f32[8], f32[8]) tuple(n, y, z)\n}\n\n"
                 : "  ROOT r = (s32[], f32[8], f32[8]) tuple(n, z, y)\n}\n\n";
    body += "  zero = s32[] constant(0)\n";
    body += "  init = (s32[], f32[8], f32[8]) tuple(zero, " +
            values[pick(values.size())] + ", " + values[pick(values.size())] +
            ")\n";
    body += "  w = (s32[], f32[8], f32[8]) while(init), condition=cond, "
            "body=body\n";
    body += "  w1 = f32[8] get-tuple-element(w), index=1\n";
    values.push_back("w1");
  }
  int outputs = 1 + pick(4);
  std::string root = "  ROOT o = (";
  std::string operands;
  for (int k = 0; k < outputs; ++k) {
    root += std::string(k ? ", " : "") + "f32[8]";
    operands += std::string(k ? ", " : "") + values[pick(values.size())];
  }
  root += ") tuple(" + operands + ")\n";
  if (collectives)
    text += "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
            "  ROOT s = f32[] add(x, y)\n}\n\n";
  return "HloModule random\n\n" + text + "ENTRY e {\n" + body + root + "}\n";
}

/// Runs `assigned` on the arena (reads of overwritten bytes checked) and
/// `original` on the interpreter, on the same random arguments; the results
/// must be equal.
void expectSameOnArena(ModuleOp original, ModuleOp assigned, int trial,
                       const std::string &text) {
  std::string error;
  auto args = runtime::randomArguments(original, trial, error);
  ASSERT_TRUE(succeeded(args)) << error;
  FailureOr<runtime::Literal> expected =
      runtime::run(original, *args, {}, error);
  ASSERT_TRUE(succeeded(expected)) << error << "\n" << text;
  runtime::ArenaOptions arena;
  arena.checkReads = true;
  FailureOr<runtime::Literal> actual = runtime::runOnArena(
      assigned, *args, {}, error, /*stats=*/nullptr, arena);
  ASSERT_TRUE(succeeded(actual)) << error << "\n" << text;
  EXPECT_TRUE(*actual == *expected)
      << text << "\narena: " << actual->toString()
      << "\ninterpreter: " << expected->toString();
}

TEST(BufferAssignmentTest, RandomModulesRunOnTheArena) {
  DialectRegistry registry;
  registerHloTranslateDialects(registry);
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  std::mt19937 rng(2026);
  for (int trial = 0; trial < 300; ++trial) {
    std::string text = randomModule(rng);
    OwningOpRef<ModuleOp> original = importHloText(text, &ctx);
    ASSERT_TRUE(original) << text;
    OwningOpRef<ModuleOp> assigned = importHloText(text, &ctx);
    PassManager pm(&ctx);
    pm.addPass(createHloMemoryScheduler());
    pm.addPass(createHloGpuCopyInsertion());
    pm.addPass(createHloBufferAssignment());
    ASSERT_TRUE(succeeded(pm.run(*assigned))) << text;
    EXPECT_EQ(checkBufferAssignment(*assigned), "") << text;

    expectSameOnArena(*original, *assigned, trial, text);
  }
}

/// An MLIR context with the HLO dialects that keeps the last remark a pass
/// reports.
struct RemarkContext {
  static DialectRegistry registry() {
    DialectRegistry r;
    registerHloTranslateDialects(r);
    return r;
  }
  MLIRContext ctx{registry(), MLIRContext::Threading::DISABLED};
  std::string remark;
  ScopedDiagnosticHandler handler{&ctx, [this](Diagnostic &diag) {
                                    if (diag.getSeverity() ==
                                        DiagnosticSeverity::Remark)
                                      remark = diag.str();
                                    return success();
                                  }};
};

/// The times in hlo-latency-hiding-scheduler's report ("time B -> A ...,
/// waited at dones WB -> WA"): {B, A, WB, WA}.
std::array<double, 4> reportTimes(const std::string &remark) {
  std::array<double, 4> times = {-1, -1, -1, -1};
  size_t at = remark.find("; time ");
  if (at == std::string::npos)
    return times;
  const char *p = remark.c_str() + at + 7;
  for (double &t : times) {
    char *end = nullptr;
    t = std::strtod(p, &end);
    // Skip the unit and " -> " or ", waited at dones ".
    while (*end && !(std::isdigit(*end) && end[-1] == ' '))
      ++end;
    p = end;
  }
  return times;
}

/// Random modules with asynchronous collectives through the memory
/// scheduler, the latency-hiding scheduler (either estimator, one or two
/// collectives in flight), copy insertion and buffer assignment: the
/// checker finds no overlap, the arena gives the interpreter's results, the
/// estimated time never grows, and the time waited at dones often shrinks.
TEST(BufferAssignmentTest, LatencyHidingSchedulesRunOnTheArena) {
  RemarkContext rc;
  MLIRContext &ctx = rc.ctx;
  std::string &remark = rc.remark;
  std::mt19937 rng(2028);
  int hidden = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::string text = randomModule(rng, /*collectives=*/true);
    OwningOpRef<ModuleOp> original = importHloText(text, &ctx);
    ASSERT_TRUE(original) << text;
    OwningOpRef<ModuleOp> assigned = importHloText(text, &ctx);
    HloLatencyHidingSchedulerOptions options;
    options.estimator = trial % 2 ? "approximate" : "analytical";
    options.collectiveOverlapLimit = 1 + rng() % 2;
    options.report = true;
    PassManager pm(&ctx);
    pm.addPass(createHloMemoryScheduler());
    pm.addPass(createHloLatencyHidingScheduler(options));
    pm.addPass(createHloGpuCopyInsertion());
    pm.addPass(createHloBufferAssignment());
    remark.clear();
    ASSERT_TRUE(succeeded(pm.run(*assigned))) << text;
    auto [before, after, waitedBefore, waitedAfter] = reportTimes(remark);
    ASSERT_GE(after, 0) << remark;
    EXPECT_LE(after, before * (1 + 1e-9)) << remark << "\n" << text;
    hidden += waitedAfter < waitedBefore;
    EXPECT_EQ(checkBufferAssignment(*assigned), "") << text;

    expectSameOnArena(*original, *assigned, trial, text);
  }
  // Most modules have a pair with something to overlap.
  EXPECT_GT(hidden, 100);
}

/// The peaks in hlo-rematerialization's remark ("peak memory B -> A" or
/// "peak memory B bytes"): {B, A}, A = B when nothing was kept.
std::pair<int64_t, int64_t> remarkPeaks(const std::string &remark) {
  size_t at = remark.find("peak memory ");
  if (at == std::string::npos)
    return {-1, -1};
  const char *p = remark.c_str() + at + 12;
  char *end = nullptr;
  int64_t before = std::strtoll(p, &end, 10);
  int64_t after = before;
  if (std::string(end).rfind(" -> ", 0) == 0)
    after = std::strtoll(end + 4, nullptr, 10);
  return {before, after};
}

TEST(BufferAssignmentTest, RematerializedModulesRunOnTheArena) {
  RemarkContext rc;
  MLIRContext &ctx = rc.ctx;
  std::string &remark = rc.remark;
  std::mt19937 rng(2027);
  int kept = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::string text = randomModule(rng);
    OwningOpRef<ModuleOp> original = importHloText(text, &ctx);
    ASSERT_TRUE(original) << text;
    OwningOpRef<ModuleOp> assigned = importHloText(text, &ctx);
    {
      PassManager pm(&ctx);
      pm.addPass(createHloMemoryScheduler());
      ASSERT_TRUE(succeeded(pm.run(*assigned))) << text;
    }
    // The peak: the remark of a run at a 1-byte limit on a copy.
    OwningOpRef<ModuleOp> probe(assigned->clone());
    HloRematerializationOptions options;
    options.memoryLimit = 1;
    {
      PassManager pm(&ctx);
      pm.addPass(createHloRematerialization(options));
      remark.clear();
      ASSERT_TRUE(succeeded(pm.run(*probe))) << text;
    }
    int64_t peak = remarkPeaks(remark).first;
    ASSERT_GT(peak, 0) << remark << "\n" << text;
    options.memoryLimit = peak / 2 + int64_t(rng() % uint64_t(peak / 2 + 1));
    PassManager pm(&ctx);
    pm.addPass(createHloRematerialization(options));
    pm.addPass(createHloGpuCopyInsertion());
    pm.addPass(createHloBufferAssignment());
    remark.clear();
    ASSERT_TRUE(succeeded(pm.run(*assigned))) << text;
    if (!remark.empty()) {
      auto [before, after] = remarkPeaks(remark);
      EXPECT_EQ(before, peak) << remark;
      EXPECT_LE(after, before) << remark;
      kept += after < before;
    }
    EXPECT_EQ(checkBufferAssignment(*assigned), "") << text;

    expectSameOnArena(*original, *assigned, trial, text);
  }
  // Rematerialization lowered the peak of some of them (15 of 300 with
  // this seed).
  EXPECT_GT(kept, 10);
}

} // namespace
