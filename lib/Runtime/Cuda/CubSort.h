//===- CubSort.h - thunk.radix_sort by CUB ----------------------*- C++ -*-===//
//
// CUB's radix sorts (DeviceRadixSort, DeviceSegmentedRadixSort for
// batches), compiled by nvcc into the CUDA runtime where the toolkit has it
// (HLO_HAVE_CUB). Keys of any type are sorted as unsigned integers in their
// radix order (the sign bit flipped for signed integers; for floats all
// bits of negative values, the sign bit of the others; all bits once more
// for a descending sort), which a kernel writes into the sorted-keys
// buffer before the sort and turns back after it: CUB is instantiated for
// u8, u16, u32 and u64 keys and values moved as bytes of 1, 2, 4 or 8.
// The scratch holds the sort's second key and value buffers, the batch's
// row offsets and CUB's temporary storage.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_RUNTIME_CUDA_CUBSORT_H
#define HLO_LIB_RUNTIME_CUDA_CUBSORT_H

#include <cstddef>
#include <cstdint>

extern "C" {

/// How the key bits order: as unsigned integers, signed, or floats.
enum HloCubKeyKind { HloCubUnsigned = 0, HloCubSigned = 1, HloCubFloat = 2 };

struct HloCubSortArgs {
  const void *keys, *values;
  void *sortedKeys, *sortedValues, *scratch;
  size_t scratchBytes;
  /// Key bytes (1, 2, 4, 8), value bytes (0 without values, 1, 2, 4, 8).
  int keyBytes, valueBytes;
  HloCubKeyKind keyKind;
  bool descending;
  int64_t rows, rowLength;
  /// A CUstream / cudaStream_t.
  void *stream;
};

/// Sorts as thunk.radix_sort says, enqueued on the stream. Null on
/// success, else what failed (a CUDA error's text, or the scratch CUB
/// needs beyond the one given).
const char *hloCubRadixSort(const HloCubSortArgs *args);
}

#endif // HLO_LIB_RUNTIME_CUDA_CUBSORT_H
