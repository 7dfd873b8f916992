//===- MultiOutputFusion.cpp - sibling and producer-consumer MOF ----------===//
//
// XLA's GPU MultiOutputFusion. Each computation's instructions are visited
// uses before definitions (then its parameters); for each one:
//  1. its users that may root a multi-output fusion are fused pairwise
//     (sibling fusion): one kernel reads the shared operand once;
//  2. the instruction itself is fused into one of its users, which then
//     also returns it (producer-consumer fusion): the other users read it
//     from the fusion's output instead of a kernel of its own.
//
// Cycles: two siblings are fused only if neither reaches the other, a
// producer only if no other operand of the consumer is reachable from it.
// XLA recomputes a reachability matrix after every fusion (quadratic); here
// each question is a depth-first search over users that never leaves the
// program-order window between the two instructions and gives up (answers
// "reachable", so nothing is fused) after `max-reachability-visits`
// instructions, which keeps the pass linear in the module size.
//
// The block stays in a valid order: the new fusion takes the place of the
// later of the two instructions, and the users of the earlier one that sat
// between them (none of which feeds the later one, or they would be
// connected) move after it.
//
//===----------------------------------------------------------------------===//

#include "FusionUtils.h"
#include "GpuFusible.h"
#include "TransformUtils.h"

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Analysis/GpuPerformanceModel.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuFusionPasses.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

#include <cmath>
#include <limits>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOMULTIOUTPUTFUSION
#include "Hlo/Transforms/GpuFusionPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// The pass's work on one module.
class MultiOutputFuser {
public:
  MultiOutputFuser(ModuleOp module, int64_t maxOperands,
                   int64_t maxFusedInstructions, int64_t maxVisits,
                   int64_t maxSiblings)
      : module(module), maxFusedInstructions(maxFusedInstructions),
        maxVisits(maxVisits), maxSiblings(maxSiblings),
        fusible(tables, getSelectedGpuDevice(), maxOperands),
        model(getSelectedGpuDevice()) {
    model.setSymbolTables(&tables);
  }

  bool run();

  int64_t numSiblingFusions = 0, numProducerConsumerFusions = 0, numGiveUps = 0;

private:
  ModuleOp module;
  int64_t maxFusedInstructions, maxVisits, maxSiblings;
  SymbolTableCollection tables;
  SymbolTable *symbols = nullptr;
  GpuFusible fusible;
  GpuPerformanceModel model;
  bool changed = false;
  /// The instructions of the computation being fused that still exist.
  DenseSet<Operation *> alive;
  /// The fusions this run made or changed, to be renamed.
  DenseSet<Operation *> touched;
  /// Program-order positions of the block being fused. MLIR's own order
  /// (isBeforeInBlock) is renumbered for the whole block after every move,
  /// which would make the pass quadratic; new instructions here get
  /// positions between their neighbours'.
  DenseMap<Operation *, double> pos;
  double posOf(Operation *op) {
    auto it = pos.find(op);
    return it == pos.end() ? std::numeric_limits<double>::infinity()
                           : it->second;
  }
  bool before(Operation *a, Operation *b) { return posOf(a) < posOf(b); }
  void renumber(Block *block) {
    double i = 0;
    for (Operation &op : block->without_terminator())
      pos[&op] = 1024.0 * i++;
  }
  SmallVector<Operation *> usersInOrder(Value v);

  void fuseComputation(ComputationOp comp);
  bool fuseSiblings(Value parent);
  bool fuseProducerConsumer(Operation *producer);

  bool reachesWithin(ArrayRef<Operation *> starts, Operation *limit,
                     bool *gaveUp = nullptr);
  bool connected(Operation *a, Operation *b);
  bool operandReachableFromProducer(Operation *producer, Operation *consumer);
  bool canFuseSiblings(Operation *a, Operation *b, Value parent);
  bool producerCandidateIsFusible(Operation *producer, Operation *consumer);
  FusionOp fuse(Operation *src, FusionOp dst);
  /// Where a `connected` search from an instruction gave up: the searched
  /// window grows with its limit, so one from the same instruction to a
  /// later limit would give up too. Valid until the next fusion changes the
  /// graph (`fusions` counts them).
  DenseMap<Operation *, std::pair<int64_t, double>> gaveUpAt;
  int64_t fusions = 0;
  void forget(Operation *op) {
    gaveUpAt.erase(op);
    alive.erase(op);
    touched.erase(op);
    fusible.invalidate(op);
    model.invalidate(op);
  }
};

/// XLA's FusionPriority: multi-output fusions first, then fusions.
int fusionPriority(Operation *op, SymbolTableCollection &tables) {
  if (isMultiOutputFusion(op, tables))
    return 2;
  return isa<FusionOp>(op) ? 1 : 0;
}

} // namespace

/// The distinct users of `v` in its block (not the terminator), in program
/// order.
SmallVector<Operation *> MultiOutputFuser::usersInOrder(Value v) {
  llvm::SetVector<Operation *> users;
  Block *block = v.getParentBlock();
  for (Operation *user : v.getUsers())
    if (user->getBlock() == block && !user->hasTrait<OpTrait::IsTerminator>())
      users.insert(user);
  SmallVector<Operation *> sorted = users.takeVector();
  llvm::sort(sorted, [&](Operation *a, Operation *b) { return before(a, b); });
  return sorted;
}

/// Depth-first search over the users of `starts` (and theirs), visiting
/// only instructions before `limit`: true when it comes to `limit`, or when
/// it exceeds its budget (then `gaveUp` is set).
bool MultiOutputFuser::reachesWithin(ArrayRef<Operation *> starts,
                                     Operation *limit, bool *gaveUp) {
  SmallVector<Operation *> stack(starts.begin(), starts.end());
  DenseSet<Operation *> seen;
  int64_t visits = 0;
  while (!stack.empty()) {
    Operation *op = stack.pop_back_val();
    if (op == limit)
      return true;
    if (op->getBlock() != limit->getBlock() || !before(op, limit) ||
        !seen.insert(op).second)
      continue;
    if (++visits > maxVisits) {
      ++numGiveUps;
      if (gaveUp)
        *gaveUp = true;
      return true;
    }
    for (Operation *user : op->getUsers())
      stack.push_back(user);
  }
  return false;
}

/// XLA's reachability IsConnected: one of `a` and `b` reaches the other.
bool MultiOutputFuser::connected(Operation *a, Operation *b) {
  if (before(b, a))
    std::swap(a, b);
  auto cached = gaveUpAt.find(a);
  if (cached != gaveUpAt.end() && cached->second.first == fusions &&
      cached->second.second <= posOf(b)) {
    ++numGiveUps;
    return true;
  }
  SmallVector<Operation *> starts(a->getUsers());
  bool gaveUp = false;
  bool reached = reachesWithin(starts, b, &gaveUp);
  if (gaveUp)
    gaveUpAt[a] = {fusions, posOf(b)};
  return reached;
}

/// XLA's OperandReachableFromProducer: a path from `producer` to `consumer`
/// through another instruction (fusing would make a cycle).
bool MultiOutputFuser::operandReachableFromProducer(Operation *producer,
                                                    Operation *consumer) {
  SmallVector<Operation *> starts;
  for (Operation *user : producer->getUsers())
    if (user != consumer)
      starts.push_back(user);
  return reachesWithin(starts, consumer);
}

/// XLA's FindUniqueSlice: the slice through which `user` alone reads
/// `parent`, or null.
static SliceOp findUniqueSlice(Value parent, Operation *user,
                               GpuFusible &fusible) {
  if (auto slice = dyn_cast<SliceOp>(user))
    return slice;
  Block *body = fusible.body(user);
  if (!body)
    return nullptr;
  SliceOp result;
  for (auto [i, v] : llvm::enumerate(getDataOperands(user))) {
    if (v != parent)
      continue;
    if (result)
      return nullptr;
    BlockArgument arg = body->getArgument(i);
    if (!arg.hasOneUse())
      return nullptr;
    result = dyn_cast<SliceOp>(*arg.getUsers().begin());
    if (!result)
      return nullptr;
  }
  return result;
}

/// XLA's ParameterSlicesAreNonOverlapping: siblings that read disjoint
/// slices of a large operand gain nothing from one kernel.
static bool slicesOverlapOrSmall(Operation *a, Operation *b, Value parent,
                                 GpuFusible &fusible) {
  if (isa<TupleType>(parent.getType()) ||
      getTypeSizeInBytes(parent.getType()) < 1024)
    return true;
  SliceOp s1 = findUniqueSlice(parent, a, fusible);
  SliceOp s2 = findUniqueSlice(parent, b, fusible);
  if (!s1 || !s2)
    return true;
  SliceAttr x = s1.getSlice(), y = s2.getSlice();
  for (size_t d = 0; d < x.getStarts().size(); ++d)
    if (!(x.getStarts()[d] < y.getLimits()[d] &&
          y.getStarts()[d] < x.getLimits()[d]))
      return false;
  return true;
}

/// True if `op` is a fusion whose root is a dynamic-update-slice.
static bool hasDusRoot(Operation *op, SymbolTableCollection &tables) {
  auto fusion = dyn_cast<FusionOp>(op);
  if (!fusion)
    return false;
  return llvm::any_of(getFusionOutputs(fusion, tables), [](Value v) {
    return isa_and_nonnull<DynamicUpdateSliceOp>(v.getDefiningOp());
  });
}

/// XLA's CanFuseSiblings (with LegalToFuse).
bool MultiOutputFuser::canFuseSiblings(Operation *a, Operation *b,
                                       Value parent) {
  // XLA's checks, the reachability search last (the others are cheap).
  if (!fusible.shapesCompatibleForMultiOutputFusion(a, b))
    return false;
  if (!slicesOverlapOrSmall(a, b, parent, fusible))
    return false;
  if (hasDusRoot(a, tables) || hasDusRoot(b, tables))
    return false;
  if (fusible.instructionCount(a) + fusible.instructionCount(b) >
      maxFusedInstructions)
    return false;
  if (!fusible.fusionFitsInBudget(a, b, /*isConsumerProducerFusion=*/false))
    return false;
  return !connected(a, b);
}

/// XLA's IsSiblingFusionCandidate.
static bool isSiblingFusionCandidate(Operation *op, GpuFusible &fusible,
                                     SymbolTableCollection &tables) {
  if (op->use_empty() || !fusible.isFusibleAsMultiOutputFusionRoot(op))
    return false;
  return !isMultiOutputFusion(op, tables) || onlyElementsRead(op->getResult(0));
}

/// Fuses `src` into `dst` as extra outputs, keeping the block in order.
FusionOp MultiOutputFuser::fuse(Operation *src, FusionOp dst) {
  Operation *earlier = src, *later = dst;
  if (before(later, earlier))
    std::swap(earlier, later);
  // The users of the earlier one before the later one move after the new
  // fusion (none of them feeds the later one).
  SmallVector<Operation *> stack(earlier->getUsers()), toMove;
  DenseSet<Operation *> seen;
  while (!stack.empty()) {
    Operation *user = stack.pop_back_val();
    if (user == later || user->getBlock() != later->getBlock() ||
        !before(user, later) || !seen.insert(user).second)
      continue;
    toMove.push_back(user);
    llvm::append_range(stack, user->getUsers());
  }
  llvm::sort(toMove, [&](Operation *a, Operation *b) { return before(a, b); });
  Block *block = later->getBlock();
  double lo = posOf(later);
  // Moves by remove and insert, which do not renumber MLIR's block order.
  auto &ops = block->getOperations();
  if (later != dst) {
    ops.remove(dst.getOperation());
    ops.insert(Block::iterator(later), dst.getOperation());
  }
  forget(src);
  forget(dst);
  pos.erase(src);
  pos.erase(dst);
  FusionOp fusion = fuseIntoMultiOutput(src, dst, *symbols, tables);
  Operation *last = fusion;
  SmallVector<Operation *> placed;
  while (last->getNextNode() && isa<GetTupleElementOp>(last->getNextNode()) &&
         last->getNextNode()->getOperand(0) == fusion.getResult()) {
    last = last->getNextNode();
    placed.push_back(last);
  }
  for (Operation *op : toMove) {
    ops.remove(op);
    ops.insertAfter(Block::iterator(last), op);
    last = op;
    placed.push_back(op);
  }
  // The new fusion, its get-tuple-elements and the moved users share the
  // gap up to the next instruction that keeps its place: all of the gap,
  // so that fusing again at the same place (siblings one after another)
  // does not shrink it each time, which would renumber the block every few
  // fusions (quadratic).
  Operation *next = last->getNextNode();
  double hi = next && pos.count(next) ? posOf(next) : lo + 1024.0;
  double step = (hi - lo) / double(placed.size() + 1);
  pos[fusion] = lo;
  if (!(step > 1e-12 * std::max(1.0, std::abs(lo)))) {
    renumber(block);
  } else {
    for (auto [i, op] : llvm::enumerate(placed))
      pos[op] = lo + step * double(i + 1);
  }
  // kInput when the kernel is built around a reduction.
  setFusionConfig(fusion, fusible.isInputFusibleReduction(fusion)
                              ? FusionKind::kInput
                              : FusionKind::kLoop);
  alive.insert(fusion);
  touched.insert(fusion);
  changed = true;
  ++fusions;
  return fusion;
}

/// XLA's FuseSiblings: pairwise fusion of the users of `parent`.
bool MultiOutputFuser::fuseSiblings(Value parent) {
  // Effective scalars are not worth sharing.
  if (isa<RankedTensorType>(parent.getType()) &&
      staticElementCount(parent.getType()) <= 1)
    return false;
  SmallVector<Operation *> siblings;
  for (Operation *user : usersInOrder(parent))
    if (isSiblingFusionCandidate(user, fusible, tables))
      siblings.push_back(user);
  llvm::stable_sort(siblings, [&](Operation *a, Operation *b) {
    return fusionPriority(a, tables) > fusionPriority(b, tables);
  });
  // A bounded number of candidates keeps the pairs (each one a
  // reachability search) linear in the module size.
  if (static_cast<int64_t>(siblings.size()) > maxSiblings)
    siblings.resize(maxSiblings);
  bool fused = false;
  for (size_t i = 0; i < siblings.size(); ++i) {
    if (!isa<FusionOp>(siblings[i]))
      continue;
    for (size_t j = i + 1; j < siblings.size();) {
      if (!canFuseSiblings(siblings[i], siblings[j], parent)) {
        ++j;
        continue;
      }
      siblings[i] = fuse(siblings[j], cast<FusionOp>(siblings[i]));
      siblings.erase(siblings.begin() + j);
      ++numSiblingFusions;
      fused = true;
    }
  }
  return fused;
}

/// XLA's ProducerCandidateIsFusible.
bool MultiOutputFuser::producerCandidateIsFusible(Operation *producer,
                                                  Operation *consumer) {
  if (!fusible.isFusibleAsMultiOutputFusionRoot(consumer))
    return false;
  if (isMultiOutputFusion(consumer, tables) &&
      !onlyElementsRead(consumer->getResult(0)))
    return false;
  if (!fusible.shapesCompatibleForMultiOutputFusion(consumer, producer))
    return false;
  if (operandReachableFromProducer(producer, consumer))
    return false;
  if (!fusible.fusionFitsInBudget(producer, consumer,
                                  /*isConsumerProducerFusion=*/false))
    return false;
  if (fusible.instructionCount(producer) + fusible.instructionCount(consumer) >
      maxFusedInstructions)
    return false;
  // Not slower on the cost model (XLA's
  // EstimateRunTimesForMultiOutputFusion).
  FusionRunTimes times =
      model.estimateFusionBenefit(producer, {consumer}, /*multiOutput=*/true);
  return std::isfinite(times.fusedUs) && std::isfinite(times.unfusedUs) &&
         times.fusedUs <= times.unfusedUs;
}

/// XLA's producer-consumer multi-output fusion of `producer`.
bool MultiOutputFuser::fuseProducerConsumer(Operation *producer) {
  if (!fusible.isProducerMultiOutputFusible(producer))
    return false;
  // XLA's users: the return of the computation's root is not one.
  SmallVector<Operation *> users = usersInOrder(producer->getResult(0));
  // One user (not a multi-output fusion): priority fusion already decided.
  if (users.empty() ||
      (users.size() == 1 && !isMultiOutputFusion(users.front(), tables)))
    return false;
  Operation *best = nullptr;
  for (Operation *consumer : users)
    if (producerCandidateIsFusible(producer, consumer) &&
        (!best ||
         fusionPriority(consumer, tables) > fusionPriority(best, tables)))
      best = consumer;
  if (!best)
    return false;
  auto fusion = dyn_cast<FusionOp>(best);
  if (!fusion) {
    double at = posOf(best);
    forget(best);
    pos.erase(best);
    Operation *where = best->getParentOfType<ComputationOp>();
    fusion = wrapInFusion(best, *symbols, tables, where);
    pos[fusion] = at;
  }
  fuse(producer, fusion);
  ++numProducerConsumerFusions;
  return true;
}

void MultiOutputFuser::fuseComputation(ComputationOp comp) {
  Block &block = comp.getBody().front();
  SmallVector<Operation *> order;
  alive.clear();
  pos.clear();
  renumber(&block);
  for (Operation &op : block.without_terminator()) {
    order.push_back(&op);
    alive.insert(&op);
  }
  for (Operation *op : llvm::reverse(order)) {
    if (!alive.contains(op) || isa<ConstantOp>(op))
      continue;
    fuseSiblings(op->getResult(0));
    if (alive.contains(op))
      fuseProducerConsumer(op);
  }
  for (BlockArgument arg : llvm::reverse(block.getArguments()))
    fuseSiblings(arg);
}

bool MultiOutputFuser::run() {
  symbols = &tables.getSymbolTable(module);
  // Fusing only adds and removes fusion computations, which are not in the
  // list: one walk of the module's symbol uses serves both loops.
  SmallVector<ComputationOp> comps = getFusibleComputations(module, *symbols);
  for (ComputationOp comp : comps)
    fuseComputation(comp);
  // XLA's RenameFusions names the fusions after fusion, in program order.
  llvm::StringMap<unsigned> suffixes;
  for (ComputationOp comp : comps)
    for (auto fusion : comp.getBody().front().getOps<FusionOp>())
      if (touched.contains(fusion))
        nameFusion(fusion, *symbols, tables, suffixes);
  return changed;
}

namespace {
struct MultiOutputFusionPass
    : ChangeReportingPass<MultiOutputFusionPass,
                          hlo::impl::HloMultiOutputFusionBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    MultiOutputFuser fuser(getOperation(), maxOperands, maxFusedInstructions,
                           maxReachabilityVisits, maxSiblings);
    changed = fuser.run();
    numSiblingFusions += fuser.numSiblingFusions;
    numProducerConsumerFusions += fuser.numProducerConsumerFusions;
    numReachabilityGiveUps += fuser.numGiveUps;
  }
};
} // namespace
