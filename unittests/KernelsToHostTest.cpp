//===- KernelsToHostTest.cpp - kernels that synchronize, on the host ------===//
//
// Hand-written gpu.func kernels with barriers, shuffles and workgroup or
// private memory go through hlo-gpu-kernels-to-host and the host JIT; their
// results must be exactly what the GPU computes: warp sums by shuffles
// (width 32 and 16), a tree reduction in shared memory over 256 threads,
// every shuffle mode against a model of PTX's shfl.sync with the operands
// convert-gpu-to-nvvm gives it, a 2D block, values of many types kept
// across a barrier, private memory per thread, and the errors.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Conversion/HostJit.h"
#include "Hlo/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <cstring>
#include <random>

using namespace mlir;
using namespace mlir::hlo;

namespace {

using Buffers = std::vector<std::vector<uint8_t>>;

template <typename T> std::vector<uint8_t> bytesOf(const std::vector<T> &v) {
  std::vector<uint8_t> bytes(v.size() * sizeof(T));
  std::memcpy(bytes.data(), v.data(), bytes.size());
  return bytes;
}

template <typename T> std::vector<T> valuesOf(const std::vector<uint8_t> &b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), b.size());
  return v;
}

/// Replaces every `{key}` of `text` by `value`.
std::string fill(std::string text,
                 const std::vector<std::pair<std::string, std::string>> &kv) {
  for (const auto &[key, value] : kv) {
    std::string k = "{" + key + "}";
    for (size_t at = text.find(k); at != std::string::npos;
         at = text.find(k, at + value.size()))
      text.replace(at, k.size(), value);
  }
  return text;
}

std::string wrap(const std::string &kernel) {
  return "module attributes {gpu.container_module} {\n  gpu.module @kernels "
         "{\n" +
         kernel + "\n  }\n}\n";
}

enum class Mode { Xor, Down, Up, Idx };

const char *modeName(Mode m) {
  switch (m) {
  case Mode::Xor:
    return "xor";
  case Mode::Down:
    return "down";
  case Mode::Up:
    return "up";
  case Mode::Idx:
    return "idx";
  }
  return "";
}

/// PTX's shfl.sync (PTX ISA, "shfl.sync" semantics) with the operands that
/// convert-gpu-to-nvvm passes for gpu.shuffle: c = width - 1, or 32 - width
/// for up (clamp in c[4:0], segment mask c[12:8]). Returns the source lane
/// and the predicate.
std::pair<int, bool> ptxShfl(Mode mode, int lane, int offset, int width) {
  int c = mode == Mode::Up ? 32 - width : width - 1;
  int bval = offset & 31, cval = c & 31, segmask = (c >> 8) & 31;
  int maxLane = (lane & segmask) | (cval & ~segmask);
  int minLane = lane & segmask;
  int j = 0;
  bool p = false;
  switch (mode) {
  case Mode::Up:
    j = lane - bval;
    p = j >= maxLane;
    break;
  case Mode::Down:
    j = lane + bval;
    p = j <= maxLane;
    break;
  case Mode::Xor:
    j = lane ^ bval;
    p = j <= maxLane;
    break;
  case Mode::Idx:
    j = minLane | (bval & ~segmask);
    p = j <= maxLane;
    break;
  }
  if (!p)
    j = lane;
  return {j, p};
}

/// One shuffle of `values` (one per thread of a block, linear ids), as the
/// GPU does it; a source beyond the block's threads is invalid.
template <typename T>
std::vector<T> shuffleModel(const std::vector<T> &values, Mode mode,
                            const std::vector<int> &offsets, int width,
                            std::vector<bool> *valid = nullptr) {
  int n = values.size();
  std::vector<T> result(n);
  if (valid)
    valid->assign(n, false);
  for (int t = 0; t < n; ++t) {
    auto [j, p] = ptxShfl(mode, t % 32, offsets[t], width);
    int source = t - t % 32 + j;
    if (source >= n) {
      source = t;
      p = false;
    }
    result[t] = values[source];
    if (valid)
      (*valid)[t] = p;
  }
  return result;
}

class KernelsToHostTest : public ::testing::Test {
protected:
  KernelsToHostTest() {
    DialectRegistry registry;
    registerHostJitDialects(registry);
    registry.insert<gpu::GPUDialect>();
    ctx = std::make_unique<MLIRContext>(registry,
                                        MLIRContext::Threading::DISABLED);
    ctx->loadAllAvailableDialects();
  }

  /// Converts the kernels of `text` and runs kernel `name` on `buffers`.
  void run(const std::string &text, StringRef name, Buffers &buffers) {
    std::string diagnostics;
    ScopedDiagnosticHandler handler(ctx.get(), [&](Diagnostic &d) {
      diagnostics += d.str() + "\n";
      return success();
    });
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, ctx.get());
    ASSERT_TRUE(module) << diagnostics << text;
    PassManager pm(ctx.get());
    pm.addPass(createHloGpuKernelsToHost());
    ASSERT_TRUE(succeeded(pm.run(*module))) << diagnostics << text;
    std::string error;
    std::unique_ptr<HostJit> jit = HostJit::compile(*module, error);
    ASSERT_TRUE(jit) << error << "\n" << text;
    ASSERT_TRUE(succeeded(jit->invokeOnBuffers(name, buffers, error))) << error;
  }

  /// The pass's error on the kernels of `text`.
  std::string passError(const std::string &text) {
    std::string diagnostics;
    ScopedDiagnosticHandler handler(ctx.get(), [&](Diagnostic &d) {
      diagnostics += d.str() + "\n";
      return success();
    });
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, ctx.get());
    if (!module)
      return "parse error: " + diagnostics;
    PassManager pm(ctx.get());
    pm.addPass(createHloGpuKernelsToHost());
    if (succeeded(pm.run(*module)))
      return "";
    return diagnostics;
  }

  std::unique_ptr<MLIRContext> ctx;
};

/// Warp sums by xor shuffles (offsets width/2 .. 1) of f32 and i32, the f32
/// from f16 inputs extended by the kernel: with width 32 every lane has its
/// warp's sum; with width 16 the lanes below 16 have the sum of lanes 0-15
/// and the others (no lane of theirs is at most 15) keep their value.
TEST_F(KernelsToHostTest, WarpShuffleSum) {
  for (int width : {32, 16}) {
    const int threads = 96, blocks = 2, n = threads * blocks;
    std::string steps;
    std::string f = "%f0", i = "%i0";
    int k = 0;
    for (int offset = width / 2; offset >= 1; offset /= 2, ++k) {
      std::string nf = "%f" + std::to_string(k + 1),
                  ni = "%i" + std::to_string(k + 1);
      steps += fill(R"(
      %o{k} = arith.constant {offset} : i32
      %sf{k}, %vf{k} = gpu.shuffle xor {f}, %o{k}, %width : f32
      %si{k}, %vi{k} = gpu.shuffle xor {i}, %o{k}, %width : i32
      {nf} = arith.addf {f}, %sf{k} : f32
      {ni} = arith.addi {i}, %si{k} : i32)",
                    {{"k", std::to_string(k)},
                     {"offset", std::to_string(offset)},
                     {"f", f},
                     {"i", i},
                     {"nf", nf},
                     {"ni", ni}});
      f = nf;
      i = ni;
    }
    std::string kernel = fill(R"(
    gpu.func @sum(%x: memref<{n}xf16>, %y: memref<{n}xi32>,
                  %outf: memref<{n}xf32>, %outi: memref<{n}xi32>) kernel
        attributes {known_block_size = array<i32: {threads}, 1, 1>,
                    known_grid_size = array<i32: {blocks}, 1, 1>} {
      %width = arith.constant {width} : i32
      %nt = gpu.block_dim x
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %base = arith.muli %b, %nt : index
      %g = arith.addi %base, %t : index
      %h = memref.load %x[%g] : memref<{n}xf16>
      %f0 = arith.extf %h : f16 to f32
      %i0 = memref.load %y[%g] : memref<{n}xi32>{steps}
      memref.store {f}, %outf[%g] : memref<{n}xf32>
      memref.store {i}, %outi[%g] : memref<{n}xi32>
      gpu.return
    })",
                              {{"steps", steps},
                               {"f", f},
                               {"i", i},
                               {"n", std::to_string(n)},
                               {"threads", std::to_string(threads)},
                               {"blocks", std::to_string(blocks)},
                               {"width", std::to_string(width)}});
    std::mt19937 rng(width);
    std::vector<uint16_t> halves(n);
    std::vector<float> floats(n);
    std::vector<int32_t> ints(n);
    for (int t = 0; t < n; ++t) {
      int v = int(rng() % 2001) - 1000; // exact in f16 and in f32 sums
      floats[t] = v;
      _Float16 h = _Float16(v);
      std::memcpy(&halves[t], &h, 2);
      ints[t] = int32_t(rng());
    }
    Buffers buffers = {bytesOf(halves), bytesOf(ints),
                       std::vector<uint8_t>(n * 4),
                       std::vector<uint8_t>(n * 4)};
    run(wrap(kernel), "sum", buffers);
    if (HasFatalFailure())
      return;
    std::vector<float> gotF = valuesOf<float>(buffers[2]);
    std::vector<int32_t> gotI = valuesOf<int32_t>(buffers[3]);
    for (int blk = 0; blk < blocks; ++blk) {
      std::vector<float> f(floats.begin() + blk * threads,
                           floats.begin() + (blk + 1) * threads);
      std::vector<uint32_t> iv(ints.begin() + blk * threads,
                               ints.begin() + (blk + 1) * threads);
      for (int offset = width / 2; offset >= 1; offset /= 2) {
        std::vector<int> offsets(threads, offset);
        std::vector<float> sf = shuffleModel(f, Mode::Xor, offsets, width);
        std::vector<uint32_t> si = shuffleModel(iv, Mode::Xor, offsets, width);
        for (int t = 0; t < threads; ++t) {
          f[t] += sf[t];
          iv[t] += si[t];
        }
      }
      for (int t = 0; t < threads; ++t) {
        int g = blk * threads + t;
        // The sum over the lanes of the segment, by hand.
        int warp = t / 32 * 32;
        float segmentSum = 0;
        uint32_t segmentSumI = 0;
        for (int l = 0; l < width; ++l) {
          segmentSum += floats[blk * threads + warp + l];
          segmentSumI += uint32_t(ints[blk * threads + warp + l]);
        }
        if (t % 32 < width) {
          EXPECT_EQ(f[t], segmentSum) << "thread " << t;
          EXPECT_EQ(iv[t], segmentSumI) << "thread " << t;
        } else {
          // Each step adds the lane's own value (the invalid shuffle's).
          EXPECT_EQ(f[t], floats[g] * width) << "thread " << t;
        }
        EXPECT_EQ(gotF[g], f[t]) << "width " << width << " thread " << g;
        EXPECT_EQ(uint32_t(gotI[g]), iv[t])
            << "width " << width << " thread " << g;
      }
    }
  }
}

/// sum over 256 threads in shared memory: at stride s = 128 .. 1 threads
/// below s add the element s further, a barrier between strides.
TEST_F(KernelsToHostTest, SharedMemoryTreeReduction) {
  const int threads = 256, blocks = 3, n = threads * blocks;
  std::string strides;
  for (int s = threads / 2; s >= 1; s /= 2)
    strides += fill(R"(
      %c{s} = arith.constant {s} : index
      %p{s} = arith.cmpi ult, %t, %c{s} : index
      scf.if %p{s} {
        %tt = gpu.thread_id x
        %o = arith.addi %tt, %c{s} : index
        %a = memref.load %sh[%tt] : memref<256xi32, #gpu.address_space<workgroup>>
        %b = memref.load %sh[%o] : memref<256xi32, #gpu.address_space<workgroup>>
        %c = arith.addi %a, %b : i32
        memref.store %c, %sh[%tt] : memref<256xi32, #gpu.address_space<workgroup>>
        %fa = memref.load %shf[%tt] : memref<256xf32, #gpu.address_space<workgroup>>
        %fb = memref.load %shf[%o] : memref<256xf32, #gpu.address_space<workgroup>>
        %fc = arith.addf %fa, %fb : f32
        memref.store %fc, %shf[%tt] : memref<256xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier)",
                    {{"s", std::to_string(s)}});
  std::string kernel = fill(R"(
    gpu.func @tree(%x: memref<{n}xi32>, %out: memref<{blocks}xi32>,
                   %outf: memref<{blocks}xf32>)
        workgroup(%sh: memref<256xi32, #gpu.address_space<workgroup>>,
                  %shf: memref<256xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>,
                           known_grid_size = array<i32: {blocks}, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %bid = gpu.block_id x
      %t = gpu.thread_id x
      %base = arith.muli %bid, %c256 : index
      %g = arith.addi %base, %t : index
      %v = memref.load %x[%g] : memref<{n}xi32>
      memref.store %v, %sh[%t] : memref<256xi32, #gpu.address_space<workgroup>>
      %vf = arith.sitofp %v : i32 to f32
      memref.store %vf, %shf[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier{strides}
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %r = memref.load %sh[%c0] : memref<256xi32, #gpu.address_space<workgroup>>
        memref.store %r, %out[%bid] : memref<{blocks}xi32>
        %rf = memref.load %shf[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %rf, %outf[%bid] : memref<{blocks}xf32>
      }
      gpu.return
    })",
                            {{"strides", strides},
                             {"n", std::to_string(n)},
                             {"blocks", std::to_string(blocks)}});
  std::mt19937 rng(7);
  std::vector<int32_t> x(n);
  for (int32_t &v : x)
    v = int32_t(rng() % 100001) - 50000;
  Buffers buffers = {bytesOf(x), std::vector<uint8_t>(blocks * 4),
                     std::vector<uint8_t>(blocks * 4)};
  run(wrap(kernel), "tree", buffers);
  if (HasFatalFailure())
    return;
  std::vector<int32_t> got = valuesOf<int32_t>(buffers[1]);
  std::vector<float> gotF = valuesOf<float>(buffers[2]);
  for (int blk = 0; blk < blocks; ++blk) {
    // The same tree, sequentially (f32 sums are order-dependent).
    std::vector<float> f(x.begin() + blk * threads,
                         x.begin() + (blk + 1) * threads);
    int64_t sum = 0;
    for (int t = 0; t < threads; ++t)
      sum += x[blk * threads + t];
    for (int s = threads / 2; s >= 1; s /= 2)
      for (int t = 0; t < s; ++t)
        f[t] += f[t + s];
    EXPECT_EQ(got[blk], sum) << "block " << blk;
    EXPECT_EQ(gotF[blk], f[0]) << "block " << blk;
  }
}

/// Every mode, offsets uniform and per thread, widths 32, 16, 8 and 4, in a
/// block of 80 threads (its third warp has 16): values and valid flags as
/// the model says, thread by thread.
TEST_F(KernelsToHostTest, ShuffleModes) {
  const int threads = 80;
  struct Case {
    Mode mode;
    int offset; // -1: (7 * t + 3) % 37 per thread
    int width;
  };
  std::vector<Case> cases;
  for (Mode mode : {Mode::Xor, Mode::Down, Mode::Up, Mode::Idx})
    for (int width : {32, 16, 8, 4})
      for (int offset : {0, 1, 3, 5, 17, 31, -1})
        cases.push_back({mode, offset, width});
  int numCases = cases.size();
  std::string body;
  for (int c = 0; c < numCases; ++c) {
    std::string offset =
        cases[c].offset >= 0
            ? "arith.constant " + std::to_string(cases[c].offset) + " : i32"
            : "arith.addi %perThread, %c0_i32 : i32";
    body += fill(R"(
      %o{c} = {offset}
      %w{c} = arith.constant {width} : i32
      %s{c}, %v{c} = gpu.shuffle {mode} %value, %o{c}, %w{c} : i32
      %k{c} = arith.constant {c} : index
      %row{c} = arith.muli %k{c}, %c{threads} : index
      %at{c} = arith.addi %row{c}, %t : index
      memref.store %s{c}, %out[%at{c}] : memref<{size}xi32>
      memref.store %v{c}, %valid[%at{c}] : memref<{size}xi1>)",
                 {{"c", std::to_string(c)},
                  {"offset", offset},
                  {"width", std::to_string(cases[c].width)},
                  {"mode", modeName(cases[c].mode)}});
  }
  std::string kernel = fill(R"(
    gpu.func @modes(%out: memref<{size}xi32>, %valid: memref<{size}xi1>) kernel
        attributes {known_block_size = array<i32: {threads}, 1, 1>,
                    known_grid_size = array<i32: 1, 1, 1>} {
      %c{threads} = arith.constant {threads} : index
      %c0_i32 = arith.constant 0 : i32
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %c10 = arith.constant 10 : i32
      %c1 = arith.constant 1 : i32
      %c7 = arith.constant 7 : i32
      %c3 = arith.constant 3 : i32
      %c37 = arith.constant 37 : i32
      %t10 = arith.muli %ti, %c10 : i32
      %value = arith.addi %t10, %c1 : i32
      %t7 = arith.muli %ti, %c7 : i32
      %t73 = arith.addi %t7, %c3 : i32
      %perThread = arith.remui %t73, %c37 : i32{body}
      gpu.return
    })",
                            {{"body", body},
                             {"size", std::to_string(numCases * threads)},
                             {"threads", std::to_string(threads)}});
  Buffers buffers = {std::vector<uint8_t>(numCases * threads * 4),
                     std::vector<uint8_t>(numCases * threads)};
  run(wrap(kernel), "modes", buffers);
  if (HasFatalFailure())
    return;
  std::vector<int32_t> got = valuesOf<int32_t>(buffers[0]);
  std::vector<uint8_t> gotValid = buffers[1];
  std::vector<int32_t> values(threads);
  std::vector<int> perThread(threads);
  for (int t = 0; t < threads; ++t) {
    values[t] = 10 * t + 1;
    perThread[t] = (7 * t + 3) % 37;
  }
  for (int c = 0; c < numCases; ++c) {
    std::vector<int> offsets(threads, cases[c].offset);
    if (cases[c].offset < 0)
      offsets = perThread;
    std::vector<bool> valid;
    std::vector<int32_t> expected =
        shuffleModel(values, cases[c].mode, offsets, cases[c].width, &valid);
    for (int t = 0; t < threads; ++t) {
      EXPECT_EQ(got[c * threads + t], expected[t])
          << modeName(cases[c].mode) << " offset " << offsets[t] << " width "
          << cases[c].width << " thread " << t;
      EXPECT_EQ(gotValid[c * threads + t] != 0, valid[t])
          << modeName(cases[c].mode) << " offset " << offsets[t] << " width "
          << cases[c].width << " thread " << t;
    }
  }
  // A few by hand: down 1 at lane 31 and at the block's last thread
  // (lane 15 of the partial warp) read their own value.
  auto at = [&](Mode mode, int offset, int width, int t) {
    for (int c = 0; c < numCases; ++c)
      if (cases[c].mode == mode && cases[c].offset == offset &&
          cases[c].width == width)
        return std::make_pair(got[c * threads + t],
                              gotValid[c * threads + t] != 0);
    return std::make_pair(-1, false);
  };
  EXPECT_EQ(at(Mode::Down, 1, 32, 30), std::make_pair(311, true));
  EXPECT_EQ(at(Mode::Down, 1, 32, 31), std::make_pair(311, false));
  EXPECT_EQ(at(Mode::Down, 1, 32, 79), std::make_pair(791, false));
  EXPECT_EQ(at(Mode::Up, 3, 32, 33), std::make_pair(331, false));
  EXPECT_EQ(at(Mode::Up, 3, 32, 35), std::make_pair(321, true));
  EXPECT_EQ(at(Mode::Idx, 5, 32, 40), std::make_pair(371, true));
  EXPECT_EQ(at(Mode::Idx, 17, 32, 70), std::make_pair(701, false));
  EXPECT_EQ(at(Mode::Xor, 1, 16, 14), std::make_pair(151, true));
  EXPECT_EQ(at(Mode::Xor, 1, 16, 20), std::make_pair(201, false));
  EXPECT_EQ(at(Mode::Down, 3, 8, 4), std::make_pair(71, true));
  EXPECT_EQ(at(Mode::Down, 3, 8, 5), std::make_pair(51, false));
}

/// Random 3D blocks (partial warps included) and grids, each thread
/// running a chain of random shuffles (mode, offset, width) on values that
/// name their thread and block, adding each valid flag: all as the model
/// says, thread by thread.
TEST_F(KernelsToHostTest, RandomShuffleChains) {
  std::mt19937 rng(2024);
  auto pick = [&](int n) { return int(rng() % n); };
  for (int trial = 0; trial < 40; ++trial) {
    int bx = 1 + pick(48), by = 1 + pick(4), bz = 1 + pick(3);
    int gx = 1 + pick(3), gy = 1 + pick(2), gz = 1 + pick(2);
    int threads = bx * by * bz, blocks = gx * gy * gz, n = threads * blocks;
    struct Step {
      Mode mode;
      int offset, width;
    };
    std::vector<Step> steps(1 + pick(4));
    std::string chain;
    for (size_t k = 0; k < steps.size(); ++k) {
      steps[k] = {Mode(pick(4)), pick(40), 1 << pick(6)};
      chain += fill(R"(
      %o{k} = arith.constant {offset} : i32
      %w{k} = arith.constant {width} : i32
      %s{k}, %ok{k} = gpu.shuffle {mode} %v{k}, %o{k}, %w{k} : i32
      %e{k} = arith.extui %ok{k} : i1 to i32
      %v{k1} = arith.addi %s{k}, %e{k} : i32)",
                    {{"k", std::to_string(k)},
                     {"k1", std::to_string(k + 1)},
                     {"offset", std::to_string(steps[k].offset)},
                     {"width", std::to_string(steps[k].width)},
                     {"mode", modeName(steps[k].mode)}});
    }
    std::string kernel = fill(R"(
    gpu.func @chain(%out: memref<{n}xi32>) kernel
        attributes {known_block_size = array<i32: {bx}, {by}, {bz}>,
                    known_grid_size = array<i32: {gx}, {gy}, {gz}>} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %zy = arith.muli %tz, %by : index
      %zy2 = arith.addi %zy, %ty : index
      %zyx = arith.muli %zy2, %bx : index
      %l = arith.addi %zyx, %tx : index
      %ix = gpu.block_id x
      %iy = gpu.block_id y
      %iz = gpu.block_id z
      %gx = gpu.grid_dim x
      %gy = gpu.grid_dim y
      %jz = arith.muli %iz, %gy : index
      %jzy = arith.addi %jz, %iy : index
      %jzyx = arith.muli %jzy, %gx : index
      %blk = arith.addi %jzyx, %ix : index
      %nt = arith.constant {threads} : index
      %base = arith.muli %blk, %nt : index
      %g = arith.addi %base, %l : index
      %gi = arith.index_cast %g : index to i32
      %c100 = arith.constant 100 : i32
      %v0 = arith.muli %gi, %c100 : i32{chain}
      memref.store %v{last}, %out[%g] : memref<{n}xi32>
      gpu.return
    })",
                              {{"chain", chain},
                               {"last", std::to_string(steps.size())},
                               {"n", std::to_string(n)},
                               {"threads", std::to_string(threads)},
                               {"bx", std::to_string(bx)},
                               {"by", std::to_string(by)},
                               {"bz", std::to_string(bz)},
                               {"gx", std::to_string(gx)},
                               {"gy", std::to_string(gy)},
                               {"gz", std::to_string(gz)}});
    Buffers buffers = {std::vector<uint8_t>(n * 4)};
    run(wrap(kernel), "chain", buffers);
    if (HasFatalFailure())
      return;
    std::vector<int32_t> got = valuesOf<int32_t>(buffers[0]);
    for (int blk = 0; blk < blocks; ++blk) {
      std::vector<int32_t> v(threads);
      for (int t = 0; t < threads; ++t)
        v[t] = (blk * threads + t) * 100;
      for (const Step &step : steps) {
        std::vector<bool> valid;
        v = shuffleModel(v, step.mode, std::vector<int>(threads, step.offset),
                         step.width, &valid);
        for (int t = 0; t < threads; ++t)
          v[t] += valid[t];
      }
      for (int t = 0; t < threads; ++t)
        ASSERT_EQ(got[blk * threads + t], v[t])
            << "block " << blk << " thread " << t << "\n"
            << kernel;
    }
  }
}

/// A 16x8 block (x, y) of a 2x3 grid: a tile through shared memory read
/// transposed after a barrier, and a shuffle down by 1 across the linear
/// thread ids x + 16 * y (lane = that mod 32).
TEST_F(KernelsToHostTest, TwoDimensionalBlock) {
  std::string kernel = R"(
    gpu.func @tile(%x: memref<768xi32>, %out: memref<768xi32>,
                   %down: memref<768xi32>)
        workgroup(%sh: memref<8x16xi32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 16, 8, 1>,
                           known_grid_size = array<i32: 2, 3, 1>} {
      %c16 = arith.constant 16 : index
      %c128 = arith.constant 128 : index
      %c2 = arith.constant 2 : index
      %one = arith.constant 1 : i32
      %w = arith.constant 32 : i32
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %gx = gpu.grid_dim x
      %blk0 = arith.muli %by, %gx : index
      %blk = arith.addi %blk0, %bx : index
      %base = arith.muli %blk, %c128 : index
      %l0 = arith.muli %ty, %c16 : index
      %l = arith.addi %l0, %tx : index
      %g = arith.addi %base, %l : index
      %v = memref.load %x[%g] : memref<768xi32>
      memref.store %v, %sh[%ty, %tx] : memref<8x16xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      // Thread l reads element (l % 8, l / 8) of the tile.
      %c8 = arith.constant 8 : index
      %r = arith.remui %l, %c8 : index
      %c = arith.divui %l, %c8 : index
      %e = memref.load %sh[%r, %c] : memref<8x16xi32, #gpu.address_space<workgroup>>
      memref.store %e, %out[%g] : memref<768xi32>
      %s, %ok = gpu.shuffle down %v, %one, %w : i32
      memref.store %s, %down[%g] : memref<768xi32>
      gpu.return
    })";
  std::vector<int32_t> x(768);
  for (int i = 0; i < 768; ++i)
    x[i] = i * 3 + 1;
  Buffers buffers = {bytesOf(x), std::vector<uint8_t>(768 * 4),
                     std::vector<uint8_t>(768 * 4)};
  run(wrap(kernel), "tile", buffers);
  if (HasFatalFailure())
    return;
  std::vector<int32_t> out = valuesOf<int32_t>(buffers[1]);
  std::vector<int32_t> down = valuesOf<int32_t>(buffers[2]);
  for (int blk = 0; blk < 6; ++blk) {
    for (int l = 0; l < 128; ++l) {
      int g = blk * 128 + l;
      int r = l % 8, c = l / 8;
      EXPECT_EQ(out[g], x[blk * 128 + r * 16 + c]) << "thread " << g;
      int source = l % 32 == 31 ? l : l + 1;
      EXPECT_EQ(down[g], x[blk * 128 + source]) << "thread " << g;
    }
  }
}

/// Values of many types kept across a barrier, per thread; and private
/// memory, one buffer per thread, kept across it too.
TEST_F(KernelsToHostTest, ValuesAcrossBarrier) {
  std::string kernel = R"(
    gpu.func @carry(%out: memref<64xi64>)
        private(%p: memref<2xi32, #gpu.address_space<private>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>,
                           known_grid_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %i8 = arith.trunci %ti : i32 to i8
      %odd = arith.trunci %ti : i32 to i1
      %f = arith.sitofp %ti : i32 to f64
      %h = arith.sitofp %ti : i32 to f16
      %cx = complex.create %h, %h : complex<f16>
      %idx = arith.muli %t, %c3 : index
      memref.store %ti, %p[%c1] : memref<2xi32, #gpu.address_space<private>>
      gpu.barrier
      %a = arith.extui %i8 : i8 to i64
      %b = arith.extui %odd : i1 to i64
      %c = arith.fptosi %f : f64 to i64
      %re = complex.re %cx : complex<f16>
      %d = arith.fptosi %re : f16 to i64
      %e = arith.index_cast %idx : index to i64
      %pv = memref.load %p[%c1] : memref<2xi32, #gpu.address_space<private>>
      %q = arith.extui %pv : i32 to i64
      %s1 = arith.addi %a, %b : i64
      %s2 = arith.addi %s1, %c : i64
      %s3 = arith.addi %s2, %d : i64
      %s4 = arith.addi %s3, %e : i64
      %s5 = arith.addi %s4, %q : i64
      memref.store %s5, %out[%t] : memref<64xi64>
      gpu.return
    })";
  Buffers buffers = {std::vector<uint8_t>(64 * 8)};
  run(wrap(kernel), "carry", buffers);
  if (HasFatalFailure())
    return;
  std::vector<int64_t> out = valuesOf<int64_t>(buffers[0]);
  for (int t = 0; t < 64; ++t)
    EXPECT_EQ(out[t], t + (t & 1) + t + t + 3 * t + t) << "thread " << t;
}

TEST_F(KernelsToHostTest, Errors) {
  // A barrier in a nested region.
  std::string nested = wrap(R"(
    gpu.func @k(%m: memref<4xf32>) kernel
        attributes {known_block_size = array<i32: 4, 1, 1>,
                    known_grid_size = array<i32: 1, 1, 1>} {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %p = arith.cmpi eq, %t, %c0 : index
      scf.if %p {
        gpu.barrier
      }
      gpu.return
    })");
  EXPECT_NE(passError(nested).find("'gpu.barrier' inside 'scf.if'"),
            std::string::npos)
      << passError(nested);
  // A memref made before a barrier and used after it.
  std::string alloca = wrap(R"(
    gpu.func @k(%m: memref<4xf32>) kernel
        attributes {known_block_size = array<i32: 4, 1, 1>,
                    known_grid_size = array<i32: 1, 1, 1>} {
      %a = memref.alloca() : memref<4xf32>
      gpu.barrier
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<4xf32>
      memref.store %v, %m[%c0] : memref<4xf32>
      gpu.return
    })");
  EXPECT_NE(passError(alloca).find("used across a barrier or shuffle"),
            std::string::npos)
      << passError(alloca);
  // GPU ops the host does not take.
  std::string rotate = wrap(R"(
    gpu.func @k(%m: memref<4xf32>) kernel
        attributes {known_block_size = array<i32: 4, 1, 1>,
                    known_grid_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %v = memref.load %m[%c0] : memref<4xf32>
      %r, %ok = gpu.rotate %v, 1, 4 : f32
      memref.store %r, %m[%c0] : memref<4xf32>
      gpu.return
    })");
  EXPECT_NE(passError(rotate).find("'gpu.rotate' is not supported"),
            std::string::npos)
      << passError(rotate);
}

} // namespace
