//===- RadixSort.cpp - thunk.radix_sort on the CPU ------------------------===//
//
// Each row's keys as their radix-order integers, sorted stably with their
// positions (std::stable_sort: the order CUB's LSD radix sort gives, which
// keeps equal keys in input order both ways), then the keys and values
// gathered by position.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Runtime/Thunk/RadixSort.h"

#include <algorithm>
#include <cstring>
#include <vector>

using namespace mlir;
using namespace mlir::thunk;

uint64_t mlir::thunk::radixSortKey(Type type, uint64_t bits) {
  unsigned width = type.getIntOrFloatBitWidth();
  uint64_t sign = uint64_t(1) << (width - 1);
  uint64_t all = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  bits &= all;
  if (isa<FloatType>(type))
    return (bits & sign) ? (~bits & all) : (bits | sign);
  return type.isUnsignedInteger() ? bits : (bits ^ sign);
}

size_t mlir::thunk::radixSortElementBytes(Value slice) {
  unsigned bits = cast<MemRefType>(slice.getType()).getElementTypeBitWidth();
  return bits < 8 ? 1 : bits / 8;
}

LogicalResult mlir::thunk::runRadixSort(RadixSortOp op,
                                        ArrayRef<uint8_t *> buffers,
                                        std::string &error) {
  bool pairs = static_cast<bool>(op.getValues());
  if (buffers.size() != (pairs ? 5u : 3u)) {
    error = "thunk.radix_sort: wrong number of buffers";
    return failure();
  }
  uint8_t *keys = buffers[0], *values = pairs ? buffers[1] : nullptr;
  uint8_t *sortedKeys = buffers[pairs ? 2 : 1];
  uint8_t *sortedValues = pairs ? buffers[3] : nullptr;
  Type keyType = op.getKeys().getType().getElementType();
  size_t keyBytes = radixSortElementBytes(op.getKeys());
  size_t valueBytes = pairs ? radixSortElementBytes(op.getValues()) : 0;
  int64_t n = op.getRowLength();
  bool descending = op.getDescending();
  std::vector<std::pair<uint64_t, int64_t>> row(n);
  for (int64_t r = 0, rows = op.getRows(); r < rows; ++r) {
    int64_t base = r * n;
    for (int64_t i = 0; i < n; ++i) {
      uint64_t bits = 0;
      std::memcpy(&bits, keys + (base + i) * keyBytes, keyBytes);
      row[i] = {radixSortKey(keyType, bits), i};
    }
    std::stable_sort(row.begin(), row.end(), [&](auto &a, auto &b) {
      return descending ? a.first > b.first : a.first < b.first;
    });
    for (int64_t i = 0; i < n; ++i) {
      int64_t from = base + row[i].second, to = base + i;
      std::memcpy(sortedKeys + to * keyBytes, keys + from * keyBytes, keyBytes);
      if (pairs)
        std::memcpy(sortedValues + to * valueBytes, values + from * valueBytes,
                    valueBytes);
    }
  }
  return success();
}
