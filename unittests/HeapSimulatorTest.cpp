//===- HeapSimulatorTest.cpp - heap simulator and overlap checker ---------===//
//
// Hand cases (the placements XLA's own heap simulator tests document for
// GlobalDecreasingSizeBestFitHeap, written as schedule intervals with one
// event per position), sharing, colocation, alignment and zero-size buffers;
// then random instances whose placements the independent overlap checker
// must accept, with peak live bytes <= heap size, and mutated placements it
// must reject. The checker itself is compared with an all-pairs check.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/HeapSimulator.h"
#include "Hlo/Analysis/BufferOverlapChecker.h"

#include "gtest/gtest.h"

#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <set>

using namespace mlir;
using namespace mlir::hlo;

namespace {

HeapBuffer buf(int64_t id, int64_t size,
               std::initializer_list<LiveInterval> intervals,
               std::initializer_list<int64_t> share = {},
               int64_t alignment = 1) {
  HeapBuffer b;
  b.id = id;
  b.size = size;
  b.alignment = alignment;
  b.intervals.assign(intervals.begin(), intervals.end());
  b.canShareWith.assign(share.begin(), share.end());
  return b;
}

HeapAssignment run(llvm::ArrayRef<HeapBuffer> buffers,
                   HeapSimulatorOptions options = {}) {
  llvm::Expected<HeapAssignment> result = runHeapSimulator(buffers, options);
  EXPECT_TRUE(bool(result));
  if (!result) {
    llvm::consumeError(result.takeError());
    return {};
  }
  return *result;
}

HeapSimulatorOptions spatial(int64_t alignment = 1) {
  HeapSimulatorOptions options;
  options.alignment = alignment;
  options.packing = HeapPacking::Spatial;
  return options;
}

/// Checks a result with the independent checker; the sharing the simulator
/// chose is the only overlap allowed.
BufferCheckResult check(llvm::ArrayRef<HeapBuffer> buffers,
                        const HeapAssignment &result) {
  std::vector<PlacedBuffer> placed;
  std::vector<std::pair<int64_t, int64_t>> mayShare;
  for (auto [i, b] : llvm::enumerate(buffers)) {
    PlacedBuffer p;
    p.id = b.id;
    p.offset = result.offsets[i];
    p.size = b.size;
    for (const LiveInterval &interval : b.intervals)
      p.intervals.push_back({interval.start, interval.end});
    placed.push_back(p);
    if (result.sharedWith[i] >= 0)
      mayShare.push_back({b.id, result.sharedWith[i]});
  }
  return checkBufferOverlaps(placed, {}, mayShare, result.heapSize);
}

// XLA heap_simulator_test: GlobalDecreasingSizeBestFitHeapTest.DecreasingSize.
TEST(HeapSimulatorTest, XlaDecreasingSize) {
  std::vector<HeapBuffer> buffers = {buf(0, 10, {{0, 4}}), buf(1, 30, {{1, 5}}),
                                     buf(2, 20, {{2, 6}}),
                                     buf(3, 40, {{3, 7}})};
  HeapAssignment r = run(buffers, spatial());
  EXPECT_EQ(r.heapSize, 100);
  EXPECT_EQ(r.offsets, (std::vector<int64_t>{90, 40, 70, 0}));
  EXPECT_EQ(r.peakLiveBytes, 100);
  EXPECT_TRUE(check(buffers, r).ok());
}

// XLA: DecreasingSizeWithAlignment (heap alignment 20).
TEST(HeapSimulatorTest, XlaDecreasingSizeWithAlignment) {
  std::vector<HeapBuffer> buffers = {buf(0, 10, {{0, 3}}), buf(1, 20, {{1, 5}}),
                                     buf(2, 50, {{2, 6}}),
                                     buf(3, 40, {{4, 7}})};
  HeapAssignment r = run(buffers, spatial(20));
  EXPECT_EQ(r.heapSize, 120);
  EXPECT_EQ(r.offsets, (std::vector<int64_t>{60, 100, 0, 60}));
  EXPECT_TRUE(check(buffers, r).ok());
}

// XLA: BestFit. d (30) takes the 30-byte gap above c rather than the top.
TEST(HeapSimulatorTest, XlaBestFit) {
  std::vector<HeapBuffer> buffers = {buf(0, 10, {{0, 3}}), buf(1, 20, {{1, 6}}),
                                     buf(2, 40, {{2, 7}}), buf(3, 30, {{4, 8}}),
                                     buf(4, 50, {{5, 9}})};
  HeapAssignment r = run(buffers, spatial());
  EXPECT_EQ(r.heapSize, 140);
  EXPECT_EQ(r.offsets, (std::vector<int64_t>{90, 120, 50, 90, 0}));
  EXPECT_TRUE(check(buffers, r).ok());
}

// XLA: Colocated, ColocatedII, ColocatedIII (a buffer with two intervals).
TEST(HeapSimulatorTest, XlaColocated) {
  std::vector<HeapBuffer> one = {buf(0, 40, {{0, 1}, {4, 5}}),
                                 buf(1, 20, {{2, 3}})};
  HeapAssignment r = run(one, spatial());
  EXPECT_EQ(r.heapSize, 40);
  EXPECT_EQ(r.offsets, (std::vector<int64_t>{0, 0}));

  std::vector<HeapBuffer> two = {buf(0, 40, {{0, 1}, {3, 4}}),
                                 buf(1, 20, {{2, 5}})};
  r = run(two, spatial());
  EXPECT_EQ(r.heapSize, 60);
  EXPECT_EQ(r.offsets, (std::vector<int64_t>{0, 40}));
  EXPECT_TRUE(check(two, r).ok());

  std::vector<HeapBuffer> three = {buf(0, 10, {{0, 1}, {3, 4}}),
                                   buf(1, 30, {{2, 5}})};
  r = run(three, spatial());
  EXPECT_EQ(r.heapSize, 40);
  EXPECT_EQ(r.offsets, (std::vector<int64_t>{30, 0}));
  EXPECT_TRUE(check(three, r).ok());
}

TEST(HeapSimulatorTest, SharesDyingOperand) {
  // 0 dies at 2 where 1 starts: 1 reuses it. 2 lives across both.
  std::vector<HeapBuffer> buffers = {
      buf(0, 64, {{0, 2}}), buf(1, 64, {{2, 4}}, {0}), buf(2, 16, {{1, 3}})};
  HeapAssignment r = run(buffers);
  EXPECT_EQ(r.sharedWith, (std::vector<int64_t>{-1, 0, -1}));
  EXPECT_EQ(r.offsets[0], r.offsets[1]);
  EXPECT_EQ(r.heapSize, 80);
  EXPECT_EQ(r.peakLiveBytes, 80);
  EXPECT_TRUE(check(buffers, r).ok());
  // Without the sharing the checker sees the overlap at position 2.
  std::vector<PlacedBuffer> placed = {{0, 0, 64, {{0, 2}}},
                                      {1, 0, 64, {{2, 4}}}};
  EXPECT_EQ(checkBufferOverlaps(placed).overlaps.size(), 1u);
  EXPECT_TRUE(checkBufferOverlaps(placed, {}, {{0, 1}}).ok());

  HeapSimulatorOptions noReuse;
  noReuse.mayReuseOperandBuffers = false;
  r = run(buffers, noReuse);
  EXPECT_NE(r.offsets[0], r.offsets[1]);
  EXPECT_EQ(r.heapSize, 144);
  EXPECT_TRUE(check(buffers, r).ok());
}

TEST(HeapSimulatorTest, SharingRules) {
  // Two users of one dying operand: the first in definition order takes it.
  // 3 lists a candidate that does not die where it starts, then a good one;
  // the bigger sharer 4 widens the group's chunk.
  std::vector<HeapBuffer> buffers = {
      buf(0, 32, {{0, 3}}),        buf(1, 32, {{3, 5}}, {0}),
      buf(2, 32, {{3, 6}}, {0}),   buf(5, 8, {{0, 2}}),
      buf(3, 8, {{2, 4}}, {1, 5}), buf(4, 48, {{5, 7}}, {1})};
  HeapAssignment r = run(buffers);
  EXPECT_EQ(r.sharedWith, (std::vector<int64_t>{-1, 0, -1, -1, 5, 1}));
  EXPECT_EQ(r.offsets[0], r.offsets[1]);
  EXPECT_EQ(r.offsets[1], r.offsets[5]);
  EXPECT_EQ(r.chunkSizes[0], 48);
  EXPECT_NE(r.offsets[2], r.offsets[0]);
  EXPECT_TRUE(check(buffers, r).ok()) << check(buffers, r).describe();

  // Buffers with several intervals neither share nor are shared.
  std::vector<HeapBuffer> multi = {buf(0, 16, {{0, 1}, {4, 5}}),
                                   buf(1, 16, {{1, 2}}, {0}),
                                   buf(2, 16, {{5, 6}, {8, 9}}, {0})};
  r = run(multi);
  EXPECT_EQ(r.sharedWith, (std::vector<int64_t>{-1, -1, -1}));
  EXPECT_TRUE(check(multi, r).ok());
}

TEST(HeapSimulatorTest, AlignmentAndZeroSize) {
  std::vector<HeapBuffer> buffers = {
      buf(0, 10, {{0, 5}}), buf(1, 8, {{0, 5}}, {}, 64), buf(2, 0, {{0, 5}}),
      buf(3, 0, {}), buf(4, 3, {{6, 7}}, {}, 4)};
  HeapAssignment r = run(buffers, spatial(2));
  EXPECT_EQ(r.offsets[0], 0);
  EXPECT_EQ(r.offsets[1], 64);
  EXPECT_EQ(r.offsets[2], 0);
  EXPECT_EQ(r.offsets[3], 0);
  EXPECT_EQ(r.chunkSizes[2], 0);
  EXPECT_EQ(r.offsets[4], 0);
  EXPECT_EQ(r.heapSize, 72);
  EXPECT_EQ(r.peakLiveBytes, 18);
  EXPECT_TRUE(check(buffers, r).ok());

  HeapAssignment empty = run({});
  EXPECT_EQ(empty.heapSize, 0);
  EXPECT_EQ(empty.peakLiveBytes, 0);
}

TEST(HeapSimulatorTest, TemporalWinsWhenSmaller) {
  // Spatial places the big short buffer first and fragments the long ones.
  std::vector<HeapBuffer> buffers = {
      buf(0, 100, {{0, 1}}), buf(1, 60, {{1, 9}}), buf(2, 40, {{0, 0}}),
      buf(3, 40, {{2, 9}}), buf(4, 90, {{3, 4}})};
  HeapSimulatorOptions best;
  HeapAssignment s = run(buffers, spatial());
  HeapSimulatorOptions temporalOnly;
  temporalOnly.packing = HeapPacking::Temporal;
  HeapAssignment t = run(buffers, temporalOnly);
  HeapAssignment b = run(buffers, best);
  EXPECT_EQ(s.heapSize, 200);
  EXPECT_EQ(t.heapSize, 190);
  EXPECT_EQ(t.peakLiveBytes, 190);
  EXPECT_EQ(b.heapSize, 190);
  EXPECT_EQ(b.packing, HeapPacking::Temporal);
  EXPECT_EQ(b.offsets, t.offsets);
  EXPECT_TRUE(check(buffers, s).ok());
  EXPECT_TRUE(check(buffers, t).ok());
}

TEST(HeapSimulatorTest, RejectsInvalidInput) {
  auto fails = [](std::vector<HeapBuffer> buffers) {
    llvm::Expected<HeapAssignment> r = runHeapSimulator(buffers);
    bool failed = !r;
    if (!r)
      llvm::consumeError(r.takeError());
    return failed;
  };
  EXPECT_TRUE(fails({buf(0, 4, {{0, 1}}), buf(0, 4, {{0, 1}})}));
  EXPECT_TRUE(fails({buf(0, -4, {{0, 1}})}));
  EXPECT_TRUE(fails({buf(0, 4, {{3, 1}})}));
  EXPECT_TRUE(fails({buf(0, 4, {})}));
  EXPECT_TRUE(fails({buf(0, 4, {{0, 1}}, {}, 0)}));
  EXPECT_FALSE(fails({buf(0, 4, {{0, 1}}, {7, 0})}));
}

//===----------------------------------------------------------------------===//
// Random instances
//===----------------------------------------------------------------------===//

std::vector<HeapBuffer> randomBuffers(std::mt19937_64 &rng, int n,
                                      int64_t horizon) {
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  std::vector<HeapBuffer> buffers;
  std::map<int64_t, std::vector<int64_t>> dyingAt; // single-interval ids
  for (int i = 0; i < n; ++i) {
    HeapBuffer b;
    b.id = 3 * i + uniform(0, 2); // unique, not dense
    int kind = uniform(0, 9);
    b.size = kind == 0 ? 0 : (kind < 4 ? uniform(1, 16) : uniform(1, 4096));
    if (uniform(0, 4) == 0)
      b.alignment = int64_t(1) << uniform(0, 7);
    int parts = uniform(0, 9) == 0 ? uniform(2, 3) : 1;
    for (int k = 0; k < parts; ++k) {
      int64_t start = uniform(0, horizon);
      int64_t end = std::min(horizon, start + uniform(0, horizon / 4));
      b.intervals.push_back({start, end});
    }
    if (parts == 1 && b.intervals[0].start > 0) {
      // Operands that die where this one starts and were defined before.
      auto it = dyingAt.find(b.intervals[0].start);
      if (it != dyingAt.end())
        for (int64_t id : it->second)
          if (uniform(0, 2) != 0)
            b.canShareWith.push_back(id);
    }
    if (parts == 1 && b.intervals[0].end > b.intervals[0].start)
      dyingAt[b.intervals[0].end].push_back(b.id);
    buffers.push_back(b);
  }
  return buffers;
}

TEST(HeapSimulatorTest, RandomInstancesAreValid) {
  std::mt19937_64 rng(12);
  int sharedSomewhere = 0;
  for (int trial = 0; trial < 400; ++trial) {
    int n = std::uniform_int_distribution<int>(1, 150)(rng);
    int64_t horizon = std::uniform_int_distribution<int64_t>(1, 80)(rng);
    std::vector<HeapBuffer> buffers = randomBuffers(rng, n, horizon);
    HeapSimulatorOptions options;
    options.alignment = int64_t(1) << (trial % 5);
    options.packing = HeapPacking(trial % 5);
    options.mayReuseOperandBuffers = trial % 7 != 0;
    HeapAssignment r = run(buffers, options);
    ASSERT_EQ(r.offsets.size(), buffers.size());
    BufferCheckResult verdict = check(buffers, r);
    ASSERT_TRUE(verdict.ok()) << "trial " << trial << "\n"
                              << verdict.describe();
    EXPECT_LE(r.peakLiveBytes, r.heapSize) << "trial " << trial;
    int64_t top = 0, largest = 0;
    for (auto [i, b] : llvm::enumerate(buffers)) {
      if (b.size == 0) {
        EXPECT_EQ(r.offsets[i], 0);
        continue;
      }
      EXPECT_EQ(r.offsets[i] % b.alignment, 0);
      EXPECT_EQ(r.offsets[i] % options.alignment, 0);
      EXPECT_GE(r.chunkSizes[i], b.size);
      top = std::max(top, r.offsets[i] + r.chunkSizes[i]);
      largest = std::max(largest, b.size);
      sharedSomewhere += r.sharedWith[i] >= 0;
    }
    EXPECT_EQ(top, r.heapSize);
    EXPECT_GE(r.peakLiveBytes, largest);
  }
  EXPECT_GT(sharedSomewhere, 100);
}

TEST(HeapSimulatorTest, BestKeepsTheSmallestOfThreePackings) {
  // `Best` tries spatial, temporal and area orders and keeps the smallest
  // heap (the earlier order on ties); `BestOfSpatialTemporal` is XLA's
  // choice between the first two. The area order must win somewhere, or it
  // would not earn its run.
  std::mt19937_64 rng(31);
  int areaWins = 0;
  for (int trial = 0; trial < 300; ++trial) {
    int n = std::uniform_int_distribution<int>(2, 120)(rng);
    int64_t horizon = std::uniform_int_distribution<int64_t>(2, 60)(rng);
    std::vector<HeapBuffer> buffers = randomBuffers(rng, n, horizon);
    auto with = [&](HeapPacking packing) {
      HeapSimulatorOptions options;
      options.packing = packing;
      return run(buffers, options);
    };
    HeapAssignment s = with(HeapPacking::Spatial);
    HeapAssignment t = with(HeapPacking::Temporal);
    HeapAssignment a = with(HeapPacking::Area);
    HeapAssignment x = with(HeapPacking::BestOfSpatialTemporal);
    HeapAssignment b = with(HeapPacking::Best);
    ASSERT_TRUE(check(buffers, a).ok()) << "trial " << trial;
    ASSERT_TRUE(check(buffers, b).ok()) << "trial " << trial;
    int64_t xla = std::min(s.heapSize, t.heapSize);
    EXPECT_EQ(x.heapSize, xla) << "trial " << trial;
    EXPECT_EQ(b.heapSize, std::min(xla, a.heapSize)) << "trial " << trial;
    HeapPacking first = s.heapSize == b.heapSize   ? HeapPacking::Spatial
                        : t.heapSize == b.heapSize ? HeapPacking::Temporal
                                                   : HeapPacking::Area;
    EXPECT_EQ(b.packing, first) << "trial " << trial;
    EXPECT_LE(b.peakLiveBytes, b.heapSize);
    areaWins += a.heapSize < xla;
  }
  EXPECT_GT(areaWins, 0);
}

TEST(HeapSimulatorTest, CheckerCatchesMutatedOffsets) {
  std::mt19937_64 rng(34);
  int caught = 0;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<HeapBuffer> buffers = randomBuffers(rng, 60, 40);
    HeapAssignment r = run(buffers);
    ASSERT_TRUE(check(buffers, r).ok());
    // Move a buffer onto another one that is live at the same time and that
    // it may not share with.
    for (size_t a = 0; a < buffers.size(); ++a) {
      bool moved = false;
      for (size_t b = 0; b < buffers.size() && !moved; ++b) {
        if (a == b || buffers[a].size == 0 || buffers[b].size == 0 ||
            r.sharedWith[a] == buffers[b].id ||
            r.sharedWith[b] == buffers[a].id)
          continue;
        bool overlap = false;
        for (const LiveInterval &x : buffers[a].intervals)
          for (const LiveInterval &y : buffers[b].intervals)
            overlap |= x.start <= y.end && y.start <= x.end;
        if (!overlap)
          continue;
        HeapAssignment mutated = r;
        mutated.offsets[a] = r.offsets[b];
        BufferCheckResult verdict = check(buffers, mutated);
        int64_t lo = std::min(buffers[a].id, buffers[b].id);
        int64_t hi = std::max(buffers[a].id, buffers[b].id);
        bool found = false;
        for (const BufferOverlap &o : verdict.overlaps)
          found |= o.first == lo && o.second == hi;
        EXPECT_TRUE(found) << "trial " << trial;
        caught += found;
        moved = true;
      }
      if (moved)
        break;
    }
  }
  EXPECT_GT(caught, 150);
}

/// Random sequences of single events (one alloc or one free per position,
/// as XLA's heap tests drive the algorithm), so schedule positions are the
/// event clock. Offsets must equal those of a naive all-pairs version of the
/// same best-fit rules written here.
TEST(HeapSimulatorTest, MatchesNaiveBestFit) {
  std::mt19937_64 rng(78);
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<HeapBuffer> buffers;
    std::vector<size_t> live;
    int64_t time = 0;
    int n = uniform(1, 60);
    while (int(buffers.size()) < n || !live.empty()) {
      bool alloc = int(buffers.size()) < n && (live.empty() || uniform(0, 1));
      if (alloc) {
        live.push_back(buffers.size());
        buffers.push_back(buf(uniform(0, 1000) * 64 + int64_t(buffers.size()),
                              uniform(1, 8) * uniform(1, 16), {{time, -1}}));
      } else {
        size_t pick = uniform(0, live.size() - 1);
        buffers[live[pick]].intervals[0].end = time;
        live.erase(live.begin() + pick);
      }
      ++time;
    }
    int64_t alignment = int64_t(1) << uniform(0, 3);
    for (HeapPacking packing : {HeapPacking::Spatial, HeapPacking::Temporal}) {
      HeapSimulatorOptions options;
      options.alignment = alignment;
      options.packing = packing;
      HeapAssignment r = run(buffers, options);
      // Naive: sort, then for each buffer scan every placed one.
      std::vector<size_t> order(buffers.size());
      std::iota(order.begin(), order.end(), 0);
      auto duration = [&](size_t i) {
        return buffers[i].intervals[0].end - buffers[i].intervals[0].start;
      };
      std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const HeapBuffer &x = buffers[a], &y = buffers[b];
        if (packing == HeapPacking::Spatial)
          return std::make_tuple(-x.size, -duration(a), x.id) <
                 std::make_tuple(-y.size, -duration(b), y.id);
        return std::make_tuple(-duration(a), -x.size, x.id) <
               std::make_tuple(-duration(b), -y.size, y.id);
      });
      std::vector<int64_t> offset(buffers.size(), -1);
      int64_t heap = 0;
      for (size_t i : order) {
        std::vector<std::pair<int64_t, int64_t>> used;
        for (size_t j = 0; j < buffers.size(); ++j)
          if (offset[j] >= 0 &&
              buffers[j].intervals[0].start <= buffers[i].intervals[0].end &&
              buffers[i].intervals[0].start <= buffers[j].intervals[0].end)
            used.push_back({offset[j], offset[j] + buffers[j].size});
        std::sort(used.begin(), used.end());
        auto up = [&](int64_t v) {
          return (v + alignment - 1) / alignment * alignment;
        };
        int64_t best = -1, bestSize = 0, free = 0;
        size_t k = 0;
        while (k < used.size()) {
          int64_t lo = used[k].first, hi = used[k].second;
          for (++k; k < used.size() && used[k].first < hi; ++k)
            hi = std::max(hi, used[k].second);
          if (lo - free >= buffers[i].size &&
              (best < 0 || lo - free < bestSize)) {
            best = free;
            bestSize = lo - free;
          }
          free = std::max(free, up(hi));
        }
        if (best < 0)
          best = free;
        offset[i] = best;
        heap = std::max(heap, best + buffers[i].size);
      }
      EXPECT_EQ(r.offsets, offset) << "trial " << trial;
      EXPECT_EQ(r.heapSize, heap) << "trial " << trial;
      EXPECT_TRUE(check(buffers, r).ok());
    }
  }
}

/// The checker against an all-pairs check on random placements.
TEST(HeapSimulatorTest, CheckerMatchesAllPairs) {
  std::mt19937_64 rng(56);
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 300; ++trial) {
    int n = uniform(1, 40);
    std::vector<PlacedBuffer> placed;
    for (int i = 0; i < n; ++i) {
      PlacedBuffer p;
      p.id = i;
      p.offset = uniform(0, 200);
      p.size = uniform(0, 60);
      int parts = uniform(1, 2);
      for (int k = 0; k < parts; ++k) {
        int64_t s = uniform(0, 30);
        p.intervals.push_back({s, s + uniform(0, 8)});
      }
      placed.push_back(p);
    }
    std::vector<std::pair<int64_t, int64_t>> same, share;
    for (int k = 0; k < n / 4; ++k) {
      same.push_back({uniform(0, n - 1), uniform(0, n - 1)});
      share.push_back({uniform(0, n - 1), uniform(0, n - 1)});
    }
    // Expected: union-find over `same`, then all pairs.
    std::vector<int> parent(n);
    for (int i = 0; i < n; ++i)
      parent[i] = i;
    std::function<int(int)> find = [&](int x) {
      return parent[x] == x ? x : parent[x] = find(parent[x]);
    };
    for (auto [a, b] : same)
      parent[find(a)] = find(b);
    std::set<std::pair<int64_t, int64_t>> sharePairs;
    for (auto [a, b] : share)
      sharePairs.insert({std::min(a, b), std::max(a, b)});
    std::set<std::pair<int64_t, int64_t>> expected;
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b) {
        const PlacedBuffer &x = placed[a], &y = placed[b];
        if (x.size == 0 || y.size == 0 || find(a) == find(b))
          continue;
        if (x.offset >= y.offset + y.size || y.offset >= x.offset + x.size)
          continue;
        for (auto [s0, e0] : x.intervals)
          for (auto [s1, e1] : y.intervals) {
            int64_t lo = std::max(s0, s1), hi = std::min(e0, e1);
            if (lo > hi)
              continue;
            bool touch =
                lo == hi && ((e0 == lo && s1 == lo) || (e1 == lo && s0 == lo));
            if (touch && sharePairs.count({a, b}))
              continue;
            expected.insert({a, b});
          }
      }
    BufferCheckResult verdict = checkBufferOverlaps(placed, same, share, 230);
    std::set<std::pair<int64_t, int64_t>> got;
    for (const BufferOverlap &o : verdict.overlaps)
      got.insert({o.first, o.second});
    EXPECT_EQ(got, expected) << "trial " << trial;
    std::set<int64_t> outside;
    for (const PlacedBuffer &p : placed)
      if (p.size > 0 && p.offset + p.size > 230)
        outside.insert(p.id);
    EXPECT_EQ(std::set<int64_t>(verdict.outOfBounds.begin(),
                                verdict.outOfBounds.end()),
              outside);
  }
}

} // namespace
