//===- TopKRowsTest.cpp - the top-k kernel's algorithm --------------------===//
//
// A random oracle for TopKRows.h, the algorithm of thunk.top_k's CUDA
// kernel and of its CPU version: for rows of f32 and bf16 (random values,
// many repeated, both zeros, infinities and NaNs) of lengths around the
// thread counts' edges and every k from 1 to 16, the values and indices
// must be a stable descending sort's first k, the sort ordering floats by
// their total order or, without it, -0 and +0 as equal.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Runtime/Thunk/TopKRows.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

namespace topk = hlo::topk;

namespace {

/// The total-order rank of f32 bits (sign-magnitude, negatives reversed),
/// with -0 as +0 unless `totalOrder`.
int64_t rank(uint32_t bits, bool totalOrder) {
  if (!totalOrder && bits == 0x80000000u)
    bits = 0;
  int64_t magnitude = bits & 0x7fffffffu;
  return (bits & 0x80000000u) ? -magnitude - 1 : magnitude;
}

template <int KP>
void runRow(const void *row, int64_t n, int k, int kind, bool totalOrder,
            void *values, int32_t *indices) {
  std::vector<int64_t> lists(size_t(topk::threadsFor(n, KP)) * KP);
  topk::hostRow<KP>(row, n, k, kind, totalOrder, lists.data(), values, indices);
}

void runAnyRow(const void *row, int64_t n, int k, int kind, bool totalOrder,
               void *values, int32_t *indices) {
  topk::withListSize(k, [&](auto kp) {
    runRow<decltype(kp)::value>(row, n, k, kind, totalOrder, values, indices);
  });
}

TEST(TopKRowsTest, StableDescendingSortsFirstK) {
  std::mt19937 rng(7);
  const uint32_t specials[] = {0u,          0x80000000u, 0x7f800000u,
                               0xff800000u, 0x7fc00000u, 0xffc00000u,
                               0x7f800001u, 0x3f800000u, 0xbf800000u};
  int checked = 0;
  for (int64_t n : {1, 2, 15, 16, 17, 63, 64, 65, 255, 511, 1024, 2047, 4096,
                    5000, 40000}) {
    for (int kind : {int(topk::F32), int(topk::BF16)}) {
      // Few distinct values, so that ties are common.
      std::vector<uint32_t> bits(n);
      for (auto &b : bits) {
        uint32_t r = rng();
        if (r % 8 == 0)
          b = specials[rng() % std::size(specials)];
        else if (r % 8 < 4)
          b = 0x3f800000u + (rng() % 16) * 0x10000u;
        else
          b = rng() & 0xffff0000u;
        if (kind == topk::F32 && r % 8 > 5)
          b |= rng() & 0xffffu;
        if (kind == topk::BF16)
          b &= 0xffff0000u; // the f32 of the bf16
      }
      std::vector<uint32_t> f32(bits);
      std::vector<uint16_t> bf16(n);
      for (int64_t i = 0; i < n; ++i)
        bf16[i] = uint16_t(bits[i] >> 16);
      const void *row = kind == topk::BF16 ? static_cast<void *>(bf16.data())
                                           : static_cast<void *>(f32.data());
      for (bool totalOrder : {true, false}) {
        std::vector<int64_t> order(n);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
          return rank(bits[a], totalOrder) > rank(bits[b], totalOrder);
        });
        for (int k = 1; k <= std::min<int64_t>(16, n); ++k) {
          std::vector<uint32_t> values(k, 0xdeadbeef);
          std::vector<int32_t> indices(k, -1);
          auto *bf16Values = reinterpret_cast<uint16_t *>(values.data());
          runAnyRow(row, n, k, kind, totalOrder, values.data(), indices.data());
          for (int j = 0; j < k; ++j) {
            ASSERT_EQ(indices[j], order[j])
                << "n " << n << " k " << k << " kind " << kind << " totalOrder "
                << totalOrder << " entry " << j;
            uint32_t expected =
                kind == topk::BF16 ? uint32_t(bf16[order[j]]) : f32[order[j]];
            uint32_t got =
                kind == topk::BF16 ? uint32_t(bf16Values[j]) : values[j];
            ASSERT_EQ(got, expected);
          }
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 400);
}

TEST(TopKRowsTest, ThreadsAsTheKernelLaunches) {
  // XLA's launch: n / kp rounded down to a power of two, in [32, 1024],
  // at most 512 for kp = 16.
  EXPECT_EQ(topk::threadsFor(10, 1), 32);
  EXPECT_EQ(topk::threadsFor(32768, 8), 1024);
  EXPECT_EQ(topk::threadsFor(50000, 16), 512);
  EXPECT_EQ(topk::threadsFor(3000, 2), 1024);
  EXPECT_EQ(topk::threadsFor(3000, 4), 512);
  EXPECT_EQ(topk::threadsFor(5000, 16), 256);
  EXPECT_EQ(topk::listSize(10), 16);
  EXPECT_EQ(topk::listSize(1), 1);
}

} // namespace
