//===- TopKRows.h - thunk.top_k's algorithm, host and CUDA ------*- C++ -*-===//
//
// The top-k of a row as the runtimes compute it for thunk.top_k: the CUDA
// runtime's prebuilt kernel (TopKKernel.cu, compiled by nvcc, one block a
// row) and the CPU (TopK.cpp: the same steps, the block's threads one after
// the other), so that the kernel's algorithm is the one the host runtime
// and the unit tests run. Plain C++ that nvcc also compiles: no MLIR.
//
// Every element is one signed 64-bit entry, `key << 32 | ~index`: the key
// is the total-order integer of the float (its f32 bits, all but the sign
// flipped when negative; a bf16 as the f32 of its bits), so that one
// signed compare orders two elements by value and, between equal values,
// puts the smaller index first, as a stable sort does. Entries are
// distinct, so the k best are one set in whatever order they are met.
//
//  1. Thread t of T keeps the kp best (kp: k rounded up to a power of two)
//     of elements t, t + T, ... sorted, best first: an element that beats
//     the list's last is inserted (a network of maxima and minima).
//  2. The lists merge in a tree: at step s (T/2, T/4, ..., 1) thread t < s
//     takes the kp best of its list and thread t + s's, as the elementwise
//     best of one list and the other reversed (a bitonic sequence), sorted
//     by a bitonic merge network.
//  3. Thread 0's first k entries are the row's top k.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_RUNTIME_THUNK_TOPKROWS_H
#define HLO_RUNTIME_THUNK_TOPKROWS_H

#include <cstdint>
#include <type_traits>

#ifdef __CUDACC__
#define HLO_TOPK_FN __host__ __device__ __forceinline__
#define HLO_TOPK_UNROLL _Pragma("unroll")
#else
#define HLO_TOPK_FN inline
#define HLO_TOPK_UNROLL
#endif

namespace hlo::topk {

/// The largest list (k <= 16) and the element types.
constexpr int kMaxK = 16;
enum ElementKind : int { F32 = 0, BF16 = 1 };

/// The entry no element's beats (its low half, ~index, is never 0 for an
/// index below 2^31).
constexpr int64_t kSentinel = INT64_MIN;

HLO_TOPK_FN int listSize(int k) {
  int kp = 1;
  while (kp < k)
    kp *= 2;
  return kp;
}

/// Threads a row, XLA's launch of its top-k kernel: n / kp rounded down to
/// a power of two, at least a warp, at most 1024 (512 for lists of 16).
/// The merge tree's shared memory, T / 2 lists of kp entries, stays at
/// 32 KiB.
HLO_TOPK_FN int threadsFor(int64_t n, int kp) {
  int64_t perThread = n / kp, t = 32, most = kp >= 16 ? 512 : 1024;
  while (t * 2 <= perThread && t * 2 <= most)
    t *= 2;
  return int(t);
}

/// The f32 bits of element i of a row of `kind`.
HLO_TOPK_FN uint32_t elementBits(const void *row, int64_t i, int kind) {
  if (kind == BF16)
    return uint32_t(static_cast<const uint16_t *>(row)[i]) << 16;
  return static_cast<const uint32_t *>(row)[i];
}

/// The entry of the element of f32 bits `bits` at `index`; without
/// `totalOrder` -0 is +0 (a comparator comparing the floats ties them).
HLO_TOPK_FN int64_t entryOf(uint32_t bits, uint32_t index, bool totalOrder) {
  if (!totalOrder && bits == 0x80000000u)
    bits = 0;
  uint32_t key = (bits & 0x80000000u) ? (bits ^ 0x7fffffffu) : bits;
  return int64_t((uint64_t(key) << 32) | uint32_t(~index));
}

HLO_TOPK_FN uint32_t indexOf(int64_t entry) { return ~uint32_t(entry); }

HLO_TOPK_FN int64_t maxOf(int64_t a, int64_t b) { return a > b ? a : b; }
HLO_TOPK_FN int64_t minOf(int64_t a, int64_t b) { return a > b ? b : a; }

/// `e` inserted into the sorted `list` of kp (its last entry dropped).
template <int KP> HLO_TOPK_FN void insert(int64_t *list, int64_t e) {
  HLO_TOPK_UNROLL
  for (int j = 0; j < KP; ++j) {
    int64_t old = list[j];
    list[j] = maxOf(e, old);
    e = minOf(e, old);
  }
}

/// `list` becomes the kp best of it and `other` (both sorted), sorted.
template <int KP> HLO_TOPK_FN void merge(int64_t *list, const int64_t *other) {
  HLO_TOPK_UNROLL
  for (int j = 0; j < KP; ++j)
    list[j] = maxOf(list[j], other[KP - 1 - j]);
  HLO_TOPK_UNROLL
  for (int s = KP / 2; s >= 1; s /= 2) {
    HLO_TOPK_UNROLL
    for (int j = 0; j < KP; ++j) {
      if (j & s)
        continue;
      int64_t hi = maxOf(list[j], list[j + s]);
      list[j + s] = minOf(list[j], list[j + s]);
      list[j] = hi;
    }
  }
}

/// Step 1 for thread t of T: the kp best of elements t, t + T, ... of a
/// row of n.
template <int KP>
HLO_TOPK_FN void threadList(const void *row, int64_t n, int kind,
                            bool totalOrder, int64_t t, int64_t threads,
                            int64_t *list) {
  HLO_TOPK_UNROLL
  for (int j = 0; j < KP; ++j)
    list[j] = kSentinel;
  for (int64_t i = t; i < n; i += threads) {
    int64_t e = entryOf(elementBits(row, i, kind), uint32_t(i), totalOrder);
    if (e > list[KP - 1])
      insert<KP>(list, e);
  }
}

/// Step 3: the first k entries' values (their bits as read) and indices.
template <int KP>
HLO_TOPK_FN void writeRow(const int64_t *list, int k, const void *row, int kind,
                          void *values, int32_t *indices) {
  HLO_TOPK_UNROLL
  for (int j = 0; j < KP; ++j) {
    if (j >= k)
      break;
    uint32_t i = indexOf(list[j]);
    indices[j] = int32_t(i);
    if (kind == BF16)
      static_cast<uint16_t *>(values)[j] =
          static_cast<const uint16_t *>(row)[i];
    else
      static_cast<uint32_t *>(values)[j] =
          static_cast<const uint32_t *>(row)[i];
  }
}

/// `fn(std::integral_constant<int, kp>())` for k's list size kp (the
/// instantiations a caller of the templates above needs; host code).
template <typename Fn> inline auto withListSize(int k, Fn &&fn) {
  switch (listSize(k)) {
  case 1:
    return fn(std::integral_constant<int, 1>());
  case 2:
    return fn(std::integral_constant<int, 2>());
  case 4:
    return fn(std::integral_constant<int, 4>());
  case 8:
    return fn(std::integral_constant<int, 8>());
  default:
    return fn(std::integral_constant<int, kMaxK>());
  }
}

/// The whole row on one CPU thread, as the kernel's block computes it:
/// `lists` holds T lists of kp.
template <int KP>
inline void hostRow(const void *row, int64_t n, int k, int kind,
                    bool totalOrder, int64_t *lists, void *values,
                    int32_t *indices) {
  int64_t threads = threadsFor(n, KP);
  for (int64_t t = 0; t < threads; ++t)
    threadList<KP>(row, n, kind, totalOrder, t, threads, lists + t * KP);
  for (int64_t s = threads / 2; s >= 1; s /= 2)
    for (int64_t t = 0; t < s; ++t)
      merge<KP>(lists + t * KP, lists + (t + s) * KP);
  writeRow<KP>(lists, k, row, kind, values, indices);
}

} // namespace hlo::topk

#endif // HLO_RUNTIME_THUNK_TOPKROWS_H
