//===- BufferOverlapChecker.h - checks a buffer placement -------*- C++ -*-===//
//
// An independent check of a buffer assignment (its own code: it shares
// nothing with the heap simulator). Given buffers with an offset, a size and
// live intervals in schedule positions (inclusive), it reports every pair of
// buffers that share a byte while both are live, unless the caller allows it:
//
//  - `sameBuffer` pairs (and what they imply transitively) are one buffer:
//    they may overlap in any way (the values of one HloBuffer, colocations);
//  - `mayShare` pairs may overlap only at one schedule position where one of
//    them ends and the other starts (an instruction writing its output over
//    an operand that dies there, XLA's operand buffer reuse).
//
// It also reports buffers that do not fit in [0, heapSize) when a heap size
// is given. A sweep over time with a segment tree over the byte offsets costs
// O((n + k) log n) for n intervals and k overlapping pairs.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_ANALYSIS_BUFFEROVERLAPCHECKER_H
#define HLO_ANALYSIS_BUFFEROVERLAPCHECKER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::hlo {

struct PlacedBuffer {
  int64_t id = 0;
  int64_t offset = 0;
  int64_t size = 0;
  /// [start, end] pairs, inclusive, in schedule positions.
  llvm::SmallVector<std::pair<int64_t, int64_t>, 1> intervals;
};

struct BufferOverlap {
  int64_t first = 0, second = 0; // buffer ids, first < second
  int64_t time = 0;              // the first schedule position both are live
  int64_t byteBegin = 0, byteEnd = 0; // the bytes they share
};

struct BufferCheckResult {
  /// Each forbidden pair once, sorted by (first, second).
  std::vector<BufferOverlap> overlaps;
  /// Ids of buffers outside [0, heapSize) (negative offsets always).
  std::vector<int64_t> outOfBounds;
  bool ok() const { return overlaps.empty() && outOfBounds.empty(); }
  std::string describe() const;
};

BufferCheckResult
checkBufferOverlaps(llvm::ArrayRef<PlacedBuffer> buffers,
                    llvm::ArrayRef<std::pair<int64_t, int64_t>> sameBuffer = {},
                    llvm::ArrayRef<std::pair<int64_t, int64_t>> mayShare = {},
                    std::optional<int64_t> heapSize = std::nullopt);

} // namespace mlir::hlo

#endif // HLO_ANALYSIS_BUFFEROVERLAPCHECKER_H
