//===- HeapSimulator.h - XLA's heap simulator (global best fit) -*- C++ -*-===//
//
// Packs buffers with known live ranges into one heap, as XLA's HeapSimulator
// does with its GlobalDecreasingSizeBestFitHeap algorithm (the one XLA's
// BufferAssignment runs for the temporary allocation):
//
//  1. The buffers' live intervals are replayed in schedule order as XLA's
//     simulator replays the definitions and frees of HLO values. At each
//     schedule position the definitions come first (ordered by start, end,
//     id), then the frees. A definition may *share* the buffer of an operand
//     that dies at exactly that position (XLA's may_reuse_operand_buffers):
//     the first candidate of the buffer's `canShareWith` list that ends at
//     the buffer's start and has not been shared already is freed and the new
//     buffer is colocated with it. Buffers with several live intervals (an
//     HloBuffer of several values: a while loop's state) are one colocated
//     group; they neither share nor are shared with (as in XLA).
//  2. The groups are sorted (kSpatial: decreasing size, then longer live
//     range, then id; kTemporal: longer live range of the whole group, then
//     decreasing size, then id) and placed one by one at the best-fit offset:
//     the smallest free gap (offset, then lowest offset, on ties) that is
//     free over every interval of the group and holds the group's largest
//     size at an aligned offset. The top of the heap is a gap of unbounded
//     size. Overlaps in time are found with an interval tree over the already
//     placed chunks, so a typical input costs n log n.
//  3. XLA's BufferAssigner runs kSpatial and kTemporal and keeps the smaller
//     heap (ChooseBestHeapAlgorithm); so does the default packing here.
//
// Times are schedule positions; an interval [start, end] is inclusive, so a
// buffer that ends at position t and one that starts at t overlap unless the
// second one shares the first one's buffer. Zero-size buffers get offset 0
// and take no part in packing or sharing.
//
// The result also carries the lower bound: the peak, over time, of the bytes
// of the groups live at once (XLA's NoFragmentationStatsHeap), so callers can
// report heap size against it. See docs/buffer-assignment.md.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_ANALYSIS_HEAPSIMULATOR_H
#define HLO_ANALYSIS_HEAPSIMULATOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::hlo {

/// A live interval [start, end] in schedule positions, both inclusive.
struct LiveInterval {
  int64_t start = 0;
  int64_t end = 0;
};

/// One buffer to place. Several intervals make a colocated group: every
/// interval gets the same offset (the values of one HloBuffer).
struct HeapBuffer {
  int64_t id = 0; // unique; also the last sort key
  int64_t size = 0;
  int64_t alignment = 1; // of this buffer's offset, on top of the heap's
  llvm::SmallVector<LiveInterval, 1> intervals;
  /// Buffers (by id) whose offset this one may take when they die where this
  /// one starts (XLA: the operand buffers dataflow allows the defining
  /// instruction to reuse), in the order to try them.
  llvm::SmallVector<int64_t, 2> canShareWith;
};

enum class HeapPacking {
  Spatial,  // XLA's kSpatial: size, then duration, then id
  Temporal, // XLA's kTemporal: duration of the group, then size, then id
  Area,     // not XLA's: size times span of the group, then size, then id
  BestOfSpatialTemporal, // both, keep the smaller heap (XLA's BufferAssigner)
  Best, // all three, keep the smallest heap (spatial, temporal, area on ties)
};

/// The packing's name: "spatial", "temporal", "area", "xla" or "best".
llvm::StringRef stringifyHeapPacking(HeapPacking packing);

struct HeapSimulatorOptions {
  /// Alignment of every chunk's offset (XLA's per-color alignment).
  int64_t alignment = 1;
  HeapPacking packing = HeapPacking::Best;
  /// XLA's HeapSimulator::Options::may_reuse_operand_buffers: honour
  /// `canShareWith`.
  bool mayReuseOperandBuffers = true;
};

struct HeapAssignment {
  /// Per input buffer, in input order.
  std::vector<int64_t> offsets;
  /// Bytes reserved at the offset: the largest size of the buffer's group
  /// (a buffer that shares a bigger one's chunk gets that chunk's size).
  std::vector<int64_t> chunkSizes;
  /// The id of the buffer whose chunk this one took by sharing, or -1.
  std::vector<int64_t> sharedWith;
  /// The highest chunk end (the heap's size).
  int64_t heapSize = 0;
  /// The peak of live bytes over time: no placement of these groups fits in
  /// less.
  int64_t peakLiveBytes = 0;
  /// The packing the result comes from (Spatial, Temporal or Area).
  HeapPacking packing = HeapPacking::Spatial;
};

/// Runs the heap simulator. Errors on invalid input (duplicate ids, negative
/// sizes, an interval with end < start or negative start, a buffer of
/// nonzero size without intervals, alignments < 1); unknown ids in
/// `canShareWith` are ignored.
llvm::Expected<HeapAssignment>
runHeapSimulator(llvm::ArrayRef<HeapBuffer> buffers,
                 const HeapSimulatorOptions &options = {});

} // namespace mlir::hlo

#endif // HLO_ANALYSIS_HEAPSIMULATOR_H
