//===- RematerializationTracker.h - XLA's MemoryUsageTracker ---*- C++ -*-===//
//
// Private to lib/Transforms: the bytes live at each point of one scheduled
// computation as XLA's HloRematerialization tracks them while it walks the
// computation (its MemoryUsageTracker), and which instructions may be
// rematerialized. Used by hlo-rematerialization (HloRematerialization.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_REMATERIALIZATIONTRACKER_H
#define HLO_LIB_TRANSFORMS_REMATERIALIZATIONTRACKER_H

#include "Hlo/Analysis/HloAliasAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace mlir::hlo {

/// XLA's IsRematerializable plus what the pass does not handle (see the
/// pass description). `cheapOnly`: the `recompute=cheap` subset.
bool isRematerializable(Operation *op, const HloDataflowAnalysis &dataflow,
                        bool cheapOnly);

/// Calls `fn` on every reader of `v`, directly or through bitcasts (XLA's
/// supported indirect users), the bitcasts included.
void forEachReader(Value v, function_ref<void(Operation *)> fn);

/// XLA's MemoryUsageTracker over one computation while the pass walks it.
struct MemoryUsageTracker {
  struct Buffer {
    int64_t size = 0;       // counted bytes (0: parameter, result)
    int64_t unfinished = 0; // users not yet placed
    int64_t item = -1;      // defining item, -1 for a parameter's
  };
  struct Item {
    Operation *op = nullptr;
    SmallVector<unsigned, 2> uses; // buffers read
    SmallVector<unsigned, 1> defs; // buffers defined
    bool placed = false;
    bool candidate = false;  // rematerializable
    bool denylisted = false; // a move of a move (XLA's denylist)
    bool moveClone = false;  // a clone that left its original dead
    int64_t calleePeak = 0;  // peak of the computations it runs
  };

  std::vector<Buffer> buffers;
  std::vector<Item> items;
  llvm::DenseMap<Operation *, unsigned> itemOf;
  int64_t memory = 0;
  int64_t inProgress = -1;

  bool isLive(unsigned b) const {
    const Buffer &buf = buffers[b];
    return (buf.item < 0 || items[buf.item].placed) && buf.unfinished > 0;
  }
  bool inUse(unsigned b) const {
    return inProgress >= 0 && llvm::is_contained(items[inProgress].uses, b);
  }
  void begin(unsigned i) {
    inProgress = i;
    items[i].placed = true;
    for (unsigned b : items[i].defs)
      memory += buffers[b].size;
  }
  void end() {
    Item &item = items[inProgress];
    for (unsigned b : item.uses)
      if (--buffers[b].unfinished == 0)
        memory -= buffers[b].size;
    for (unsigned b : item.defs)
      if (buffers[b].unfinished == 0)
        memory -= buffers[b].size;
    inProgress = -1;
  }
  /// XLA's MemoryReducedIfRematerialized for one item: the bytes freed at
  /// this point, less the operand buffers whose lives would be extended.
  int64_t memoryReduced(unsigned i) const {
    const Item &item = items[i];
    unsigned b = item.defs[0];
    if (!isLive(b) || inUse(b))
      return 0;
    int64_t reduced = buffers[b].size;
    // An operand buffer the current instruction reads for the last time
    // would live on to the clone too (XLA counts it as live and misses
    // this; it can raise the peak where the operand is the larger).
    for (unsigned u : item.uses)
      if (!isLive(u) || (inUse(u) && buffers[u].unfinished == 1))
        reduced -= buffers[u].size;
    return reduced;
  }
  /// True when none of the item's users has been placed (a move).
  bool noUserPlaced(unsigned i) const {
    bool placed = false;
    forEachReader(items[i].op->getResult(0), [&](Operation *user) {
      if (auto it = itemOf.find(user); it != itemOf.end())
        placed |= items[it->second].placed;
    });
    return !placed;
  }

  /// Builds the tracker of `comp` from its schedule graph: every buffer
  /// (parameters' and the result's counted as 0 bytes), every instruction
  /// with the buffers it reads and defines and the peak of the computations
  /// it runs (`peaks`), and the candidates (false: a computation it cannot
  /// model). `cheapOnly` and `minRematSize` narrow the candidates.
  bool build(ComputationOp comp, const HloAliasAnalysis &alias,
             const HloDataflowAnalysis &dataflow,
             const llvm::DenseMap<Operation *, int64_t> &peaks, bool cheapOnly,
             int64_t minRematSize, SymbolTable &symbols);
};

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_REMATERIALIZATIONTRACKER_H
