//===- HeapSimulator.cpp - XLA's global decreasing-size best-fit heap -----===//
//
// See HeapSimulator.h. The implementation follows the facts of XLA's
// heap_simulator.cc (event replay, colocations, sort keys, free-gap best fit)
// with its own data structures: the chunks already placed are kept in a
// segment tree over all live intervals sorted by their (unique) start event,
// each node holding the latest end among the placed intervals below it, which
// answers "which placed chunks are live during [s, e]" in O((k + 1) log n).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/HeapSimulator.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <tuple>

using namespace mlir;
using namespace mlir::hlo;

namespace {

constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max();

int64_t alignUp(int64_t value, int64_t alignment) {
  if (alignment <= 1)
    return value;
  int64_t rem = value % alignment;
  return rem == 0 ? value : value + (alignment - rem);
}

/// One live interval of one buffer, with its times in XLA's event clock (every
/// alloc, share and free is one tick, so all event times are distinct).
struct Value {
  int64_t start, end; // schedule positions
  unsigned buffer;    // index into the input
  unsigned interval;  // index into the buffer's intervals
  int64_t evStart = -1, evEnd = -1;
};

/// A colocated group: the buffers (one primary and its sharers, or one
/// buffer with several intervals) that get one chunk.
struct Group {
  unsigned primary;                      // buffer index
  llvm::SmallVector<unsigned, 2> values; // indices into the value list
  int64_t maxSize = 0;
  int64_t alignment = 1;
  int64_t primaryDuration = 0; // evEnd - evStart of the primary's first value
  int64_t minStart = 0, maxEnd = 0;
};

/// Placed chunks indexed by time: leaves are the values in evStart order; a
/// node holds the largest evEnd of the placed values below it (-1: none).
class PlacedChunks {
public:
  PlacedChunks(llvm::ArrayRef<Value> values, llvm::ArrayRef<unsigned> byStart)
      : values(values), byStart(byStart) {
    leaves = 1;
    while (leaves < byStart.size())
      leaves *= 2;
    maxEnd.assign(2 * leaves, -1);
    chunkOffset.assign(byStart.size(), 0);
    chunkSize.assign(byStart.size(), 0);
    starts.reserve(byStart.size());
    for (unsigned v : byStart)
      starts.push_back(values[v].evStart);
  }

  /// Marks leaf `leaf` (position in evStart order) as placed at the chunk.
  void place(unsigned leaf, int64_t offset, int64_t size) {
    chunkOffset[leaf] = offset;
    chunkSize[leaf] = size;
    unsigned node = leaf + leaves;
    maxEnd[node] = values[byStart[leaf]].evEnd;
    for (node /= 2; node >= 1; node /= 2)
      maxEnd[node] = std::max(maxEnd[2 * node], maxEnd[2 * node + 1]);
  }

  /// Appends (offset, size) of every placed chunk live at some time in
  /// [start, end].
  void collect(int64_t start, int64_t end,
               std::vector<std::pair<int64_t, int64_t>> &out) const {
    // Leaves [0, limit) start at or before `end`.
    unsigned limit =
        std::upper_bound(starts.begin(), starts.end(), end) - starts.begin();
    if (limit == 0)
      return;
    collect(1, 0, leaves, limit, start, out);
  }

private:
  void collect(unsigned node, unsigned lo, unsigned hi, unsigned limit,
               int64_t start,
               std::vector<std::pair<int64_t, int64_t>> &out) const {
    if (lo >= limit || maxEnd[node] < start)
      return;
    if (hi - lo == 1) {
      out.emplace_back(chunkOffset[lo], chunkSize[lo]);
      return;
    }
    unsigned mid = (lo + hi) / 2;
    collect(2 * node, lo, mid, limit, start, out);
    collect(2 * node + 1, mid, hi, limit, start, out);
  }

  llvm::ArrayRef<Value> values;
  llvm::ArrayRef<unsigned> byStart;
  unsigned leaves;
  std::vector<int64_t> maxEnd;
  std::vector<int64_t> starts;
  std::vector<int64_t> chunkOffset, chunkSize;
};

struct Simulation {
  llvm::ArrayRef<HeapBuffer> buffers;
  const HeapSimulatorOptions &options;
  std::vector<Value> values;
  std::vector<Group> groups;
  std::vector<int> groupOf;        // per buffer, -1 for zero-size buffers
  std::vector<int64_t> sharedWith; // per buffer
  std::vector<unsigned> byStart;   // value indices in evStart order
  std::vector<unsigned> leafOf;    // per value, its position in byStart

  Simulation(llvm::ArrayRef<HeapBuffer> buffers,
             const HeapSimulatorOptions &options)
      : buffers(buffers), options(options) {}

  void replay(const llvm::DenseMap<int64_t, unsigned> &indexOf);
  void buildGroups();
  int64_t pack(HeapPacking packing, std::vector<int64_t> &groupOffsets) const;
  int64_t peakLiveBytes() const;
};

/// Replays definitions and frees in schedule order (XLA's
/// HeapSimulator::RunComputation), assigning event times, deciding sharing
/// and forming the groups.
void Simulation::replay(const llvm::DenseMap<int64_t, unsigned> &indexOf) {
  for (auto [b, buffer] : llvm::enumerate(buffers)) {
    if (buffer.size == 0)
      continue;
    for (auto [k, interval] : llvm::enumerate(buffer.intervals))
      values.push_back(
          {interval.start, interval.end, unsigned(b), unsigned(k)});
  }
  auto key = [&](const Value &v) {
    return std::make_tuple(v.start, v.end, buffers[v.buffer].id, v.interval);
  };
  llvm::sort(values,
             [&](const Value &a, const Value &b) { return key(a) < key(b); });
  // Frees at one position come in the order of the definitions list.
  std::vector<unsigned> freeOrder(values.size());
  std::iota(freeOrder.begin(), freeOrder.end(), 0);
  llvm::stable_sort(freeOrder, [&](unsigned a, unsigned b) {
    return values[a].end < values[b].end;
  });
  // The value of each single-interval buffer (for sharing), and the first
  // allocated value of each buffer.
  std::vector<int> valueOf(buffers.size(), -1), firstValue(buffers.size(), -1);
  for (auto [i, v] : llvm::enumerate(values))
    if (buffers[v.buffer].intervals.size() == 1)
      valueOf[v.buffer] = i;
  groupOf.assign(buffers.size(), -1);
  sharedWith.assign(buffers.size(), -1);

  int64_t now = 0;
  size_t nextDef = 0, nextFree = 0;
  while (nextDef < values.size() || nextFree < freeOrder.size()) {
    int64_t t = nextDef < values.size() ? values[nextDef].start : kUnbounded;
    if (nextFree < freeOrder.size())
      t = std::min(t, values[freeOrder[nextFree]].end);
    for (; nextDef < values.size() && values[nextDef].start == t; ++nextDef) {
      Value &v = values[nextDef];
      const HeapBuffer &buffer = buffers[v.buffer];
      if (firstValue[v.buffer] >= 0) {
        // Another value of an already allocated buffer: colocated.
        v.evStart = now++;
        continue;
      }
      firstValue[v.buffer] = nextDef;
      bool shared = false;
      if (options.mayReuseOperandBuffers && buffer.intervals.size() == 1) {
        for (int64_t candidateId : buffer.canShareWith) {
          auto it = indexOf.find(candidateId);
          if (it == indexOf.end() || it->second == v.buffer)
            continue;
          int candidate = valueOf[it->second];
          if (candidate < 0)
            continue; // zero size or several intervals
          Value &c = values[candidate];
          // Only a buffer that dies here, is allocated and not yet freed.
          if (c.end != t || c.evStart < 0 || c.evEnd >= 0)
            continue;
          c.evEnd = now++;
          v.evStart = now++;
          groupOf[v.buffer] = groupOf[c.buffer];
          sharedWith[v.buffer] = buffers[c.buffer].id;
          shared = true;
          break;
        }
      }
      if (!shared) {
        v.evStart = now++;
        groupOf[v.buffer] = groups.size();
        groups.push_back({v.buffer, {}, 0, 1, 0, 0, 0});
      }
    }
    for (; nextFree < freeOrder.size() && values[freeOrder[nextFree]].end == t;
         ++nextFree) {
      Value &v = values[freeOrder[nextFree]];
      if (v.evEnd < 0)
        v.evEnd = now++;
    }
  }
}

void Simulation::buildGroups() {
  for (auto [i, v] : llvm::enumerate(values)) {
    Group &g = groups[groupOf[v.buffer]];
    g.values.push_back(i);
  }
  for (Group &g : groups) {
    g.minStart = kUnbounded;
    g.maxEnd = -1;
    bool seenPrimary = false;
    for (unsigned vi : g.values) {
      const Value &v = values[vi];
      const HeapBuffer &buffer = buffers[v.buffer];
      g.maxSize = std::max(g.maxSize, buffer.size);
      g.alignment = std::lcm(g.alignment, buffer.alignment);
      g.minStart = std::min(g.minStart, v.evStart);
      g.maxEnd = std::max(g.maxEnd, v.evEnd);
      // values are in definition order: the primary's first one comes first.
      if (v.buffer == g.primary && !seenPrimary) {
        g.primaryDuration = v.evEnd - v.evStart;
        seenPrimary = true;
      }
    }
    g.alignment = std::lcm(g.alignment, options.alignment);
  }
  byStart.resize(values.size());
  std::iota(byStart.begin(), byStart.end(), 0);
  llvm::sort(byStart, [&](unsigned a, unsigned b) {
    return values[a].evStart < values[b].evStart;
  });
  leafOf.resize(values.size());
  for (auto [leaf, v] : llvm::enumerate(byStart))
    leafOf[v] = leaf;
}

/// Places the groups in the packing's order at their best-fit offsets
/// (XLA's GlobalDecreasingSizeBestFitHeap::Finish). Returns the heap size.
int64_t Simulation::pack(HeapPacking packing,
                         std::vector<int64_t> &groupOffsets) const {
  std::vector<unsigned> order(groups.size());
  std::iota(order.begin(), order.end(), 0);
  auto spatialKey = [&](unsigned g) {
    const Group &group = groups[g];
    return std::make_tuple(-buffers[group.primary].size, -group.primaryDuration,
                           buffers[group.primary].id);
  };
  auto temporalKey = [&](unsigned g) {
    const Group &group = groups[g];
    return std::make_tuple(group.minStart - group.maxEnd,
                           -buffers[group.primary].size,
                           buffers[group.primary].id);
  };
  auto areaKey = [&](unsigned g) {
    const Group &group = groups[g];
    return std::make_tuple(-(group.maxEnd - group.minStart + 1) * group.maxSize,
                           -buffers[group.primary].size,
                           buffers[group.primary].id);
  };
  if (packing == HeapPacking::Temporal)
    llvm::sort(order, [&](unsigned a, unsigned b) {
      return temporalKey(a) < temporalKey(b);
    });
  else if (packing == HeapPacking::Area)
    llvm::sort(order,
               [&](unsigned a, unsigned b) { return areaKey(a) < areaKey(b); });
  else
    llvm::sort(order, [&](unsigned a, unsigned b) {
      return spatialKey(a) < spatialKey(b);
    });

  PlacedChunks placed(values, byStart);
  groupOffsets.assign(groups.size(), 0);
  int64_t heapSize = 0;
  std::vector<std::pair<int64_t, int64_t>> used;
  for (unsigned g : order) {
    const Group &group = groups[g];
    used.clear();
    for (unsigned vi : group.values)
      placed.collect(values[vi].evStart, values[vi].evEnd, used);
    llvm::sort(used);
    // Walk the gaps between the merged used chunks; a gap starts at the
    // heap-aligned end of the chunks below it.
    int64_t bestOffset = -1, bestGap = kUnbounded;
    int64_t gapStart = 0;
    auto consider = [&](int64_t gapEnd) {
      int64_t offset = alignUp(gapStart, group.alignment);
      if (gapEnd != kUnbounded && offset + group.maxSize > gapEnd)
        return;
      int64_t gap = gapEnd == kUnbounded ? kUnbounded : gapEnd - gapStart;
      if (bestOffset < 0 || gap < bestGap) {
        bestOffset = offset;
        bestGap = gap;
      }
    };
    size_t i = 0;
    while (i < used.size()) {
      int64_t runStart = used[i].first;
      int64_t runEnd = used[i].first + used[i].second;
      for (++i; i < used.size() && used[i].first < runEnd; ++i)
        runEnd = std::max(runEnd, used[i].first + used[i].second);
      if (runStart > gapStart)
        consider(runStart);
      gapStart = std::max(gapStart, alignUp(runEnd, options.alignment));
    }
    consider(kUnbounded);
    groupOffsets[g] = bestOffset;
    heapSize = std::max(heapSize, bestOffset + group.maxSize);
    for (unsigned vi : group.values)
      placed.place(leafOf[vi], bestOffset, group.maxSize);
  }
  return heapSize;
}

/// The peak over event time of the bytes of the groups live at once.
int64_t Simulation::peakLiveBytes() const {
  std::vector<std::pair<int64_t, int64_t>> events; // (time, delta)
  std::vector<std::pair<int64_t, int64_t>> spans;
  for (const Group &group : groups) {
    spans.clear();
    for (unsigned vi : group.values)
      spans.emplace_back(values[vi].evStart, values[vi].evEnd);
    llvm::sort(spans);
    for (size_t i = 0; i < spans.size();) {
      int64_t start = spans[i].first, end = spans[i].second;
      for (++i; i < spans.size() && spans[i].first <= end; ++i)
        end = std::max(end, spans[i].second);
      events.emplace_back(start, group.maxSize);
      events.emplace_back(end + 1, -group.maxSize);
    }
  }
  llvm::sort(events); // at one time, frees (negative) before allocations
  int64_t live = 0, peak = 0;
  for (auto [time, delta] : events) {
    live += delta;
    peak = std::max(peak, live);
  }
  return peak;
}

} // namespace

llvm::Expected<HeapAssignment>
mlir::hlo::runHeapSimulator(llvm::ArrayRef<HeapBuffer> buffers,
                            const HeapSimulatorOptions &options) {
  auto error = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  if (options.alignment < 1)
    return error("heap simulator: alignment must be positive");
  llvm::DenseMap<int64_t, unsigned> indexOf;
  for (auto [i, buffer] : llvm::enumerate(buffers)) {
    if (!indexOf.try_emplace(buffer.id, i).second)
      return error(
          llvm::formatv("heap simulator: duplicate buffer id {0}", buffer.id));
    if (buffer.size < 0 || buffer.alignment < 1)
      return error(llvm::formatv(
          "heap simulator: buffer {0} has a negative size or alignment",
          buffer.id));
    if (buffer.size > 0 && buffer.intervals.empty())
      return error(llvm::formatv(
          "heap simulator: buffer {0} has no live interval", buffer.id));
    for (const LiveInterval &interval : buffer.intervals)
      if (interval.start < 0 || interval.end < interval.start)
        return error(llvm::formatv(
            "heap simulator: buffer {0} has an invalid interval [{1}, {2}]",
            buffer.id, interval.start, interval.end));
  }

  Simulation sim(buffers, options);
  sim.replay(indexOf);
  sim.buildGroups();

  // The packings to try, in the order that wins ties.
  llvm::SmallVector<HeapPacking, 3> tries;
  switch (options.packing) {
  case HeapPacking::BestOfSpatialTemporal:
    tries = {HeapPacking::Spatial, HeapPacking::Temporal};
    break;
  case HeapPacking::Best:
    tries = {HeapPacking::Spatial, HeapPacking::Temporal, HeapPacking::Area};
    break;
  default:
    tries = {options.packing};
  }
  HeapAssignment result;
  std::vector<int64_t> groupOffsets, offsets;
  for (auto [i, packing] : llvm::enumerate(tries)) {
    int64_t size = sim.pack(packing, offsets);
    if (i == 0 || size < result.heapSize) {
      result.heapSize = size;
      result.packing = packing;
      std::swap(groupOffsets, offsets);
    }
  }

  result.offsets.assign(buffers.size(), 0);
  result.chunkSizes.assign(buffers.size(), 0);
  result.sharedWith = sim.sharedWith;
  for (size_t b = 0; b < buffers.size(); ++b) {
    int g = sim.groupOf[b];
    if (g < 0)
      continue;
    result.offsets[b] = groupOffsets[g];
    result.chunkSizes[b] = sim.groups[g].maxSize;
  }
  result.peakLiveBytes = sim.peakLiveBytes();
  return result;
}

llvm::StringRef mlir::hlo::stringifyHeapPacking(HeapPacking packing) {
  switch (packing) {
  case HeapPacking::Spatial:
    return "spatial";
  case HeapPacking::Temporal:
    return "temporal";
  case HeapPacking::Area:
    return "area";
  case HeapPacking::BestOfSpatialTemporal:
    return "xla";
  case HeapPacking::Best:
    return "best";
  }
  llvm_unreachable("unknown heap packing");
}
