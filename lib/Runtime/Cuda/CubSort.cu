//===- CubSort.cu - thunk.radix_sort by CUB -------------------------------===//
//
// See CubSort.h. Compiled by nvcc (CUDA's runtime API, which shares the
// CUDA runtime's primary context, and CUB's headers of the toolkit).
//
//===----------------------------------------------------------------------===//

#include "CubSort.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>

#include <cstdio>
#include <type_traits>

namespace {

template <typename U> __device__ U signBit() {
  return U(U(1) << (sizeof(U) * 8 - 1));
}

/// Keys to their unsigned radix order (`back`: from it).
template <typename U>
__global__ void radixOrder(const U *in, U *out, int64_t n, int kind,
                           bool descending, bool back) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  U bits = in[i], sign = signBit<U>();
  if (back && descending)
    bits = U(~bits);
  if (kind == HloCubSigned)
    bits = U(bits ^ sign);
  else if (kind == HloCubFloat && !back)
    bits = (bits & sign) ? U(~bits) : U(bits | sign);
  else if (kind == HloCubFloat)
    bits = (bits & sign) ? U(bits & U(~sign)) : U(~bits);
  if (!back && descending)
    bits = U(~bits);
  out[i] = bits;
}

__global__ void rowOffsets(int *offsets, int64_t rows, int64_t length) {
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i <= rows)
    offsets[i] = int(i * length);
}

size_t align(size_t bytes) { return (bytes + 255) / 256 * 256; }

const char *check(cudaError_t e) {
  return e == cudaSuccess ? nullptr : cudaGetErrorString(e);
}

unsigned blocks(int64_t n) { return unsigned((n + 255) / 256); }

/// K: the unsigned key type; V: the value type (void without values).
template <typename K, typename V> const char *sortAs(const HloCubSortArgs &a) {
  constexpr bool pairs = !std::is_void_v<V>;
  using Value = std::conditional_t<pairs, V, K>;
  cudaStream_t stream = static_cast<cudaStream_t>(a.stream);
  int64_t n = a.rows * a.rowLength;
  if (n == 0)
    return nullptr;
  if (n > INT32_MAX)
    return "CUB sorts at most 2^31 - 1 elements";
  // The scratch: second key and value buffers, row offsets, CUB's storage.
  char *base = static_cast<char *>(a.scratch);
  size_t keysAt = 0, valuesAt = align(n * sizeof(K));
  size_t offsetsAt = valuesAt + (pairs ? align(n * sizeof(Value)) : 0);
  size_t tempAt =
      offsetsAt + (a.rows > 1 ? align((a.rows + 1) * sizeof(int)) : 0);
  K *sorted = static_cast<K *>(a.sortedKeys);
  cub::DoubleBuffer<K> keys(sorted, reinterpret_cast<K *>(base + keysAt));
  Value *sortedValues = static_cast<Value *>(a.sortedValues);
  cub::DoubleBuffer<Value> values(sortedValues,
                                  reinterpret_cast<Value *>(base + valuesAt));
  int *offsets = reinterpret_cast<int *>(base + offsetsAt);
  int items = int(n), segments = int(a.rows);
  auto run = [&](void *temp, size_t &bytes) {
    if (a.rows > 1) {
      if constexpr (pairs)
        return cub::DeviceSegmentedRadixSort::SortPairs(
            temp, bytes, keys, values, items, segments, offsets, offsets + 1, 0,
            int(sizeof(K) * 8), stream);
      else
        return cub::DeviceSegmentedRadixSort::SortKeys(
            temp, bytes, keys, items, segments, offsets, offsets + 1, 0,
            int(sizeof(K) * 8), stream);
    }
    if constexpr (pairs)
      return cub::DeviceRadixSort::SortPairs(temp, bytes, keys, values, items,
                                             0, int(sizeof(K) * 8), stream);
    else
      return cub::DeviceRadixSort::SortKeys(temp, bytes, keys, items, 0,
                                            int(sizeof(K) * 8), stream);
  };
  size_t tempBytes = 0;
  if (const char *e = check(run(nullptr, tempBytes)))
    return e;
  if (tempAt + tempBytes > a.scratchBytes) {
    static thread_local char message[128];
    std::snprintf(message, sizeof(message),
                  "CUB needs %zu bytes of scratch, the program gives %zu",
                  tempAt + tempBytes, a.scratchBytes);
    return message;
  }
  radixOrder<K><<<blocks(n), 256, 0, stream>>>(static_cast<const K *>(a.keys),
                                               sorted, n, a.keyKind,
                                               a.descending, false);
  if (a.rows > 1)
    rowOffsets<<<blocks(a.rows + 1), 256, 0, stream>>>(offsets, a.rows,
                                                       a.rowLength);
  if (pairs)
    if (const char *e =
            check(cudaMemcpyAsync(sortedValues, a.values, n * sizeof(Value),
                                  cudaMemcpyDeviceToDevice, stream)))
      return e;
  if (const char *e = check(run(base + tempAt, tempBytes)))
    return e;
  // The sort ends in either buffer of each pair.
  if (keys.Current() != sorted)
    if (const char *e =
            check(cudaMemcpyAsync(sorted, keys.Current(), n * sizeof(K),
                                  cudaMemcpyDeviceToDevice, stream)))
      return e;
  if (pairs && values.Current() != sortedValues)
    if (const char *e = check(
            cudaMemcpyAsync(sortedValues, values.Current(), n * sizeof(Value),
                            cudaMemcpyDeviceToDevice, stream)))
      return e;
  radixOrder<K><<<blocks(n), 256, 0, stream>>>(sorted, sorted, n, a.keyKind,
                                               a.descending, true);
  return check(cudaGetLastError());
}

template <typename K> const char *sortKeysOf(const HloCubSortArgs &a) {
  switch (a.valueBytes) {
  case 0:
    return sortAs<K, void>(a);
  case 1:
    return sortAs<K, uint8_t>(a);
  case 2:
    return sortAs<K, uint16_t>(a);
  case 4:
    return sortAs<K, uint32_t>(a);
  case 8:
    return sortAs<K, uint64_t>(a);
  default:
    return "CUB sort: values of 0, 1, 2, 4 or 8 bytes";
  }
}

} // namespace

extern "C" const char *hloCubRadixSort(const HloCubSortArgs *args) {
  switch (args->keyBytes) {
  case 1:
    return sortKeysOf<uint8_t>(*args);
  case 2:
    return sortKeysOf<uint16_t>(*args);
  case 4:
    return sortKeysOf<uint32_t>(*args);
  case 8:
    return sortKeysOf<uint64_t>(*args);
  default:
    return "CUB sort: keys of 1, 2, 4 or 8 bytes";
  }
}
