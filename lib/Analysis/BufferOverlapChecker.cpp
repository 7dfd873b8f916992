//===- BufferOverlapChecker.cpp - checks a buffer placement ---------------===//
//
// Sweep over schedule positions. Every live interval with a nonzero size is a
// rectangle [start, end] x [offset, offset + size). The intervals live at the
// sweep position are the leaves of a segment tree ordered by byte offset;
// each node keeps the largest byte end of its live leaves. An interval
// entering the sweep meets every live leaf whose offset is below its byte
// end and whose byte end is above its offset: a prefix of the leaves, pruned
// by the node maxima.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/BufferOverlapChecker.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::hlo;

namespace {

struct Rect {
  int64_t t0, t1; // inclusive
  int64_t b0, b1; // [b0, b1)
  unsigned owner; // buffer index
};

/// Live rectangles keyed by their rank in byte-offset order.
class LiveByOffset {
public:
  explicit LiveByOffset(llvm::ArrayRef<Rect> rects) : rects(rects) {
    order.resize(rects.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::sort(order, [&](unsigned a, unsigned b) {
      return std::make_pair(rects[a].b0, a) < std::make_pair(rects[b].b0, b);
    });
    rank.resize(rects.size());
    offsets.reserve(rects.size());
    for (auto [r, rect] : llvm::enumerate(order)) {
      rank[rect] = r;
      offsets.push_back(rects[rect].b0);
    }
    width = 1;
    while (width < rects.size())
      width *= 2;
    top.assign(2 * width, INT64_MIN);
  }

  void set(unsigned rect, bool live) {
    unsigned node = rank[rect] + width;
    top[node] = live ? rects[rect].b1 : INT64_MIN;
    for (node /= 2; node >= 1; node /= 2)
      top[node] = std::max(top[2 * node], top[2 * node + 1]);
  }

  /// Calls fn(rect) for every live rectangle meeting bytes [b0, b1).
  template <typename Fn> void meet(int64_t b0, int64_t b1, Fn fn) const {
    unsigned count =
        std::lower_bound(offsets.begin(), offsets.end(), b1) - offsets.begin();
    walk(1, 0, width, count, b0, fn);
  }

private:
  template <typename Fn>
  void walk(unsigned node, unsigned lo, unsigned hi, unsigned count, int64_t b0,
            Fn &fn) const {
    if (lo >= count || top[node] <= b0)
      return;
    if (hi - lo == 1) {
      fn(order[lo]);
      return;
    }
    unsigned mid = lo + (hi - lo) / 2;
    walk(2 * node, lo, mid, count, b0, fn);
    walk(2 * node + 1, mid, hi, count, b0, fn);
  }

  llvm::ArrayRef<Rect> rects;
  std::vector<unsigned> order, rank;
  std::vector<int64_t> offsets, top;
  unsigned width;
};

} // namespace

std::string BufferCheckResult::describe() const {
  std::string text;
  for (const BufferOverlap &o : overlaps)
    text += llvm::formatv("buffers {0} and {1} share bytes [{2}, {3}) at "
                          "position {4}\n",
                          o.first, o.second, o.byteBegin, o.byteEnd, o.time);
  for (int64_t id : outOfBounds)
    text += llvm::formatv("buffer {0} lies outside the heap\n", id);
  return text;
}

BufferCheckResult mlir::hlo::checkBufferOverlaps(
    llvm::ArrayRef<PlacedBuffer> buffers,
    llvm::ArrayRef<std::pair<int64_t, int64_t>> sameBuffer,
    llvm::ArrayRef<std::pair<int64_t, int64_t>> mayShare,
    std::optional<int64_t> heapSize) {
  BufferCheckResult result;
  llvm::EquivalenceClasses<int64_t> same;
  for (const PlacedBuffer &b : buffers)
    same.insert(b.id);
  for (auto [a, b] : sameBuffer)
    same.unionSets(a, b);
  llvm::DenseSet<std::pair<int64_t, int64_t>> sharing;
  for (auto [a, b] : mayShare)
    sharing.insert({std::min(a, b), std::max(a, b)});

  std::vector<Rect> rects;
  for (auto [i, b] : llvm::enumerate(buffers)) {
    if (b.offset < 0 ||
        (heapSize && b.size > 0 && b.offset + b.size > *heapSize))
      result.outOfBounds.push_back(b.id);
    if (b.size <= 0)
      continue;
    for (auto [t0, t1] : b.intervals)
      rects.push_back({t0, t1, b.offset, b.offset + b.size, unsigned(i)});
  }

  // Entries at position t come before exits after t; an exit at t1 happens
  // at t1 + 1, before the entries there.
  struct Event {
    int64_t time;
    bool enter;
    unsigned rect;
  };
  std::vector<Event> events;
  events.reserve(2 * rects.size());
  for (auto [i, r] : llvm::enumerate(rects)) {
    events.push_back({r.t0, true, unsigned(i)});
    events.push_back({r.t1 + 1, false, unsigned(i)});
  }
  llvm::sort(events, [](const Event &a, const Event &b) {
    return std::make_tuple(a.time, a.enter, a.rect) <
           std::make_tuple(b.time, b.enter, b.rect);
  });

  llvm::DenseMap<std::pair<int64_t, int64_t>, unsigned> reported;
  LiveByOffset live(rects);
  for (const Event &event : events) {
    if (!event.enter) {
      live.set(event.rect, false);
      continue;
    }
    const Rect &r = rects[event.rect];
    live.meet(r.b0, r.b1, [&](unsigned other) {
      const Rect &o = rects[other];
      int64_t idA = buffers[r.owner].id, idB = buffers[o.owner].id;
      if (r.owner == o.owner || same.isEquivalent(idA, idB))
        return;
      std::pair<int64_t, int64_t> key{std::min(idA, idB), std::max(idA, idB)};
      // `o` is live since o.t0 <= r.t0; they meet on [r.t0, min(ends)].
      if (sharing.contains(key)) {
        bool touchOnly = (o.t1 == r.t0) || (r.t1 == r.t0 && o.t0 == r.t0);
        if (touchOnly)
          return;
      }
      if (reported.contains(key))
        return;
      reported[key] = result.overlaps.size();
      result.overlaps.push_back({key.first, key.second, r.t0,
                                 std::max(r.b0, o.b0), std::min(r.b1, o.b1)});
    });
    live.set(event.rect, true);
  }
  llvm::sort(result.overlaps,
             [](const BufferOverlap &a, const BufferOverlap &b) {
               return std::make_pair(a.first, a.second) <
                      std::make_pair(b.first, b.second);
             });
  return result;
}
