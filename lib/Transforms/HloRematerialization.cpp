//===- HloRematerialization.cpp - hlo-rematerialization -------------------===//
//
// XLA's HloRematerialization in its GPU configuration (recompute, blocks of
// one instruction): over each scheduled computation, tracks the bytes of the
// buffers live at every point as XLA's MemoryUsageTracker does and, where
// they exceed the limit, clones an instruction whose buffer is live but not
// needed now just before its next users, so the original's buffer dies
// earlier. See the pass description (BufferAssignmentPasses.td).
//
//===----------------------------------------------------------------------===//

#include "RematerializationTracker.h"
#include "SchedulingUtils.h"
#include "TransformUtils.h"

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Analysis/HloAliasAnalysis.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Transforms/BufferAssignmentPasses.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>
#include <queue>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOREMATERIALIZATION
#include "Hlo/Transforms/BufferAssignmentPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

struct HloRematerializationPass
    : ChangeReportingPass<HloRematerializationPass,
                          hlo::impl::HloRematerializationBase> {
  using ChangeReportingPass::ChangeReportingPass;

  /// Counters of this run (the statistics are no-ops in builds without
  /// LLVM statistics; the remark reports these).
  int64_t remats = 0, moves = 0;

  /// What a rematerialization did, to undo it when the module's peak does
  /// not drop: a clone added (and its fused computation's copy), or an
  /// original without users taken out of its block (kept detached, its
  /// operands saved, until the result is accepted).
  struct Step {
    Operation *clone = nullptr;
    Operation *orig = nullptr;
    Operation *fusedCopy = nullptr;
    Operation *removed = nullptr;
    Operation *next = nullptr; // where `removed` was: before this op
    SmallVector<Value, 2> operands;
  };
  SmallVector<Step> steps;


  /// Walks `comp` in its order: the peak of the tracked bytes; with
  /// `limit` >= 0, rematerializes where the bytes exceed it.
  int64_t walk(ComputationOp comp, const HloAliasAnalysis &alias,
               const HloDataflowAnalysis &dataflow,
               const llvm::DenseMap<Operation *, int64_t> &peaks, int64_t limit,
               SymbolTable &symbols, bool cheapOnly) {
    MemoryUsageTracker t;
    if (!t.build(comp, alias, dataflow, peaks, cheapOnly, minRematSize,
                 symbols))
      return 0;
    // Placed candidates by buffer size (largest first), then by placement.
    using Entry = std::tuple<int64_t, int64_t, unsigned>;
    std::priority_queue<Entry> heap;
    int64_t stamp = 0;
    auto push = [&](unsigned i) {
      const MemoryUsageTracker::Item &item = t.items[i];
      if (item.candidate && !item.denylisted && t.isLive(item.defs[0]))
        heap.emplace(t.buffers[item.defs[0]].size, -(stamp++), i);
    };

    int64_t peak = 0;
    // A bound on the clones of one walk (each step frees bytes where it is
    // made, but clones can leapfrog each other): twice the instructions.
    int64_t budget = 2 * int64_t(t.items.size()) + 16;
    Block &block = comp.getBody().front();
    Operation *terminator = block.getTerminator();
    for (Operation *op = &block.front(); op != terminator;
         op = op->getNextNode()) {
      unsigned cur = t.itemOf.lookup(op);
      t.begin(cur);
      while (limit >= 0 && t.memory + t.items[cur].calleePeak > limit &&
             budget-- > 0) {
        int64_t best = pick(t, heap);
        if (best < 0)
          break;
        if (!rematerialize(t, unsigned(best), symbols))
          t.items[best].denylisted = true;
      }
      peak = std::max(peak, t.memory + t.items[cur].calleePeak);
      t.end();
      push(cur);
    }
    return peak;
  }

  /// XLA's PickRematerializationCandidates with blocks of one: the lowest
  /// cost (0 for a move, else limit / bytes freed, i.e. the most bytes
  /// freed). Examines the largest live buffers first (the bytes freed are
  /// at most the buffer's); entries no longer live are dropped, those that
  /// may serve later are kept.
  template <typename Heap> int64_t pick(MemoryUsageTracker &t, Heap &heap) {
    SmallVector<typename Heap::value_type> keep;
    int64_t best = -1, bestReduced = 0;
    bool bestIsMove = false;
    int64_t examined = 0;
    while (!heap.empty()) {
      auto entry = heap.top();
      auto [size, order, i] = entry;
      // Nothing below can free more than the best (a move wins anyway).
      if (best >= 0 && (bestIsMove || size <= bestReduced))
        break;
      if (maxCandidates > 0 && examined >= maxCandidates)
        break;
      heap.pop();
      const MemoryUsageTracker::Item &item = t.items[i];
      if (!item.op || item.denylisted || !t.isLive(item.defs[0]))
        continue; // dead for good
      keep.push_back(entry);
      ++examined;
      int64_t reduced = t.memoryReduced(i);
      if (reduced <= 0)
        continue;
      bool isMove = t.noUserPlaced(i);
      if (best < 0 || (isMove && !bestIsMove) ||
          (isMove == bestIsMove && reduced > bestReduced)) {
        best = i;
        bestReduced = reduced;
        bestIsMove = isMove;
      }
    }
    for (auto &entry : keep)
      heap.push(entry);
    return best;
  }

  /// Clones item `i` before its first unplaced user (or its operands'),
  /// redirects the unplaced uses to the clone and updates the tracker.
  bool rematerialize(MemoryUsageTracker &t, unsigned i, SymbolTable &symbols) {
    Operation *orig = t.items[i].op;
    Value result = orig->getResult(0);
    auto unplaced = [&](Operation *user) {
      auto it = t.itemOf.find(user);
      return it == t.itemOf.end() ? !user->hasTrait<OpTrait::IsTerminator>()
                                  : !t.items[it->second].placed;
    };
    // Where the clone goes: before the earliest unplaced user of the value
    // and of the instruction's operands (their lives are not extended).
    Operation *before = nullptr;
    auto consider = [&](Operation *user) {
      if (user == orig || !unplaced(user))
        return;
      if (!before || user->isBeforeInBlock(before))
        before = user;
    };
    forEachReader(result, consider);
    // Operands whose lives cost nothing (parameters, results, as the
    // tracker counts them) are skipped: their users may be many.
    for (Value operand : orig->getOperands()) {
      if (isa<BlockArgument>(operand))
        continue;
      if (auto it = t.itemOf.find(operand.getDefiningOp());
          it != t.itemOf.end()) {
        const SmallVector<unsigned, 1> &defs = t.items[it->second].defs;
        if (!defs.empty() && llvm::all_of(defs, [&](unsigned d) {
              return t.buffers[d].size == 0;
            }))
          continue;
      }
      for (Operation *user : operand.getUsers())
        consider(user);
    }
    if (!before)
      return false;

    OpBuilder b(before);
    Operation *clone = b.clone(*orig);
    clone->setLoc(renamed(orig->getLoc(), ".remat"));
    Step step;
    step.clone = clone;
    step.orig = orig;
    if (auto fusion = dyn_cast<FusionOp>(clone)) {
      auto callee = symbols.lookup<ComputationOp>(fusion.getCalls());
      auto copy = cast<ComputationOp>(callee->clone());
      copy.setSymName((callee.getSymName() + ".remat").str());
      StringAttr name =
          symbols.insert(copy, std::next(Block::iterator(callee)));
      fusion.setCallsAttr(FlatSymbolRefAttr::get(name));
      step.fusedCopy = copy;
    }
    steps.push_back(std::move(step));
    ++remats;

    // Redirect the unplaced uses; a bitcast already run gets a copy over
    // the clone (`bitcast.remat`, XLA's) for its readers not yet run.
    unsigned origBuffer = t.items[i].defs[0];
    SmallVector<Operation *> newBitcasts;
    std::function<void(Value, Value)> redirect = [&](Value from, Value to) {
      for (OpOperand &use : llvm::make_early_inc_range(from.getUses())) {
        Operation *owner = use.getOwner();
        if (unplaced(owner)) {
          use.set(to);
          continue;
        }
        if (!isa<BitcastOp>(owner))
          continue;
        bool needed = false;
        forEachReader(owner->getResult(0),
                      [&](Operation *u) { needed |= unplaced(u); });
        if (!needed)
          continue;
        OpBuilder bb(before);
        Operation *copy = bb.clone(*owner);
        copy->setOperand(0, to);
        copy->setLoc(renamed(owner->getLoc(), ".remat"));
        Step bitcastStep;
        bitcastStep.clone = copy;
        bitcastStep.orig = owner;
        steps.push_back(std::move(bitcastStep));
        newBitcasts.push_back(copy);
        redirect(owner->getResult(0), copy->getResult(0));
      }
    };
    redirect(result, clone->getResult(0));
    llvm::SmallPtrSet<Operation *, 4> counted;
    forEachReader(clone->getResult(0),
                  [&](Operation *user) { counted.insert(user); });
    int64_t users = counted.size();

    // The tracker: the original's buffer dies now, the clone reads the
    // original's operands (reviving the dead ones) and defines a new one.
    MemoryUsageTracker::Buffer &ob = t.buffers[origBuffer];
    ob.unfinished = 0;
    t.memory -= ob.size;
    unsigned cloneItem = t.items.size();
    unsigned cloneBuffer = t.buffers.size();
    MemoryUsageTracker::Buffer nb;
    nb.size = ob.size;
    nb.unfinished = users;
    nb.item = cloneItem;
    t.buffers.push_back(nb);
    MemoryUsageTracker::Item item;
    item.op = clone;
    item.uses = t.items[i].uses;
    item.defs = {cloneBuffer};
    item.candidate = true;
    for (unsigned u : item.uses) {
      if (t.buffers[u].unfinished == 0)
        t.memory += t.buffers[u].size;
      ++t.buffers[u].unfinished;
    }
    // Users of the original that now read the clone read its buffer.
    for (Operation *user : counted)
      if (auto it = t.itemOf.find(user); it != t.itemOf.end()) {
        for (unsigned &u : t.items[it->second].uses)
          if (u == origBuffer)
            u = cloneBuffer;
      }
    // A move: nothing but bitcasts already run reads the original any more
    // (XLA looks through them too); they and the original are removed. A
    // move of a move is not moved again.
    SmallVector<Operation *> deadReaders;
    bool isMove = true;
    forEachReader(result, [&](Operation *user) {
      isMove &= isa<BitcastOp>(user);
      deadReaders.push_back(user);
    });
    if (isMove) {
      ++moves;
      if (t.items[i].moveClone)
        item.denylisted = true;
      item.moveClone = true;
      auto remove = [&](Operation *op) {
        if (auto it = t.itemOf.find(op); it != t.itemOf.end()) {
          t.items[it->second].op = nullptr;
          t.itemOf.erase(it);
        }
        Step removal;
        removal.removed = op;
        removal.next = op->getNextNode();
        removal.operands.assign(op->operand_begin(), op->operand_end());
        op->dropAllReferences();
        op->remove();
        steps.push_back(std::move(removal));
      };
      // Readers after what they read: remove from the last.
      for (Operation *reader : llvm::reverse(deadReaders))
        remove(reader);
      remove(orig);
    }
    t.items.push_back(std::move(item));
    t.itemOf[clone] = cloneItem;
    for (Operation *copy : newBitcasts) {
      MemoryUsageTracker::Item bitcast;
      bitcast.op = copy;
      bitcast.uses = {cloneBuffer};
      t.itemOf[copy] = t.items.size();
      t.items.push_back(std::move(bitcast));
    }
    return true;
  }

  /// Undoes `steps`, last first.
  void undo() {
    for (Step &step : llvm::reverse(steps)) {
      if (step.removed) {
        step.next->getBlock()->getOperations().insert(
            Block::iterator(step.next), step.removed);
        step.removed->setOperands(step.operands);
        continue;
      }
      step.clone->getResult(0).replaceAllUsesWith(step.orig->getResult(0));
      step.clone->erase();
      if (step.fusedCopy)
        step.fusedCopy->erase();
    }
  }

  /// `loc` with its name (an instruction name) suffixed.
  static Location renamed(Location loc, StringRef suffix) {
    if (auto name = dyn_cast<NameLoc>(loc))
      return NameLoc::get(StringAttr::get(loc.getContext(),
                                          name.getName().str() + suffix.str()),
                          name.getChildLoc());
    return NameLoc::get(StringAttr::get(loc.getContext(), "remat"), loc);
  }

  /// Bytes of every node of `type` (tuple index tables: 8 bytes a pointer),
  /// as XLA's ForEachSubshape sums them.
  static int64_t subshapeBytes(Type type) {
    if (auto tuple = dyn_cast<TupleType>(type)) {
      int64_t bytes = 8 * int64_t(tuple.size());
      for (Type t : tuple.getTypes())
        bytes += subshapeBytes(t);
      return bytes;
    }
    return getShapeByteSize(type).value_or(0);
  }

  /// The peak of every computation (callees first) and of the module: the
  /// ENTRY's plus its result's bytes. With `limit` >= 0, rematerializes.
  int64_t process(ModuleOp module, int64_t limit, int64_t outputBytes,
                  bool cheapOnly) {
    HloDataflowAnalysis dataflow(module);
    HloAliasAnalysis alias(dataflow);
    SymbolTable symbols(module);
    llvm::DenseMap<Operation *, int64_t> peaks;
    ArrayRef<Operation *> comps = dataflow.getComputations();
    for (Operation *comp : llvm::reverse(comps))
      peaks[comp] = walk(cast<ComputationOp>(comp), alias, dataflow, peaks,
                         limit, symbols, cheapOnly);
    return peaks.lookup(comps.front()) + outputBytes;
  }

  void run() {
    ModuleOp module = getOperation();
    auto scheduled = module->getAttrOfType<BoolAttr>("hlo.is_scheduled");
    if (!scheduled || !scheduled.getValue()) {
      module.emitError("hlo-rematerialization needs a scheduled module "
                       "(hlo.is_scheduled); run hlo-memory-scheduler first");
      return signalPassFailure();
    }
    if (recompute != "any" && recompute != "cheap") {
      module.emitError() << "hlo-rematerialization: unknown recompute '"
                         << recompute << "' (any or cheap)";
      return signalPassFailure();
    }
    bool cheapOnly = recompute == "cheap";
    {
      HloDataflowAnalysis dataflow(module);
      if (!dataflow.isAnalyzed())
        return;
    }
    ComputationOp entry = entryComputation(module);
    Block &entryBlock = entry.getBody().front();
    int64_t outputBytes =
        subshapeBytes(entryBlock.getTerminator()->getOperand(0).getType());

    int64_t limit = memoryLimit;
    if (limit < 0)
      limit = getSelectedMemoryLimit();
    if (limit < 0) {
      // XLA's GetSchedulerMemoryLimit.
      int64_t io = outputBytes;
      for (BlockArgument arg : entryBlock.getArguments())
        io += subshapeBytes(arg.getType());
      int64_t base = getSelectedGpuDevice().deviceMemorySize * 80 / 100;
      limit = std::max<int64_t>(0, base - io) * 95 / 100;
    }

    int64_t before = process(module, -1, outputBytes, cheapOnly);
    peakBefore = before;
    if (before <= limit) {
      peakAfter = before;
      return;
    }
    // Undone if the module's peak rises. Each step frees bytes where it is
    // made, but the clone runs with its operands live next to its result,
    // which can lift another point above the old peak (XLA keeps the result
    // regardless). A result that frees bytes elsewhere but not at the peak
    // is kept, as XLA keeps it.
    remats = moves = 0;
    int64_t adjusted = std::max<int64_t>(0, limit - outputBytes);
    steps.clear();
    process(module, adjusted, outputBytes, cheapOnly);
    int64_t tried = process(module, -1, outputBytes, cheapOnly);
    bool keep = tried <= before && remats > 0;
    if (keep) {
      for (Step &step : steps)
        if (step.removed)
          step.removed->destroy();
    } else {
      undo();
    }
    steps.clear();
    changed = keep;
    int64_t after = keep ? tried : before;
    peakAfter = after;
    if (keep) {
      numRemats += remats;
      numMoves += moves;
      module.emitRemark() << "rematerialization: peak memory " << before
                          << " -> " << after << " bytes (limit " << limit
                          << "), " << remats << " instructions rematerialized ("
                          << moves << " moved)";
    } else {
      module.emitRemark() << "rematerialization: peak memory " << before
                          << " bytes (limit " << limit << "): "
                          << (remats ? std::to_string(remats) +
                                           " rematerializations raised it, "
                                           "module left unchanged"
                                     : std::string("no instruction to "
                                                   "rematerialize"));
    }
    if (after > limit)
      module.emitWarning() << "can't reduce memory use below " << limit
                           << " bytes by rematerialization; only reduced to "
                           << after << " bytes, down from " << before
                           << " bytes originally";
  }
};

} // namespace
