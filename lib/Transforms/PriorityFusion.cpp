//===- PriorityFusion.cpp - cost-model driven producer fusion -------------===//
//
// XLA's GPU PriorityFusion. In each computation that runs as a sequence of
// kernels (not a fused computation, nor a reducer or comparator), every
// fusible producer is given a priority: the time the GPU cost model says
// fusing it into all its users saves (XLA's
// EstimateRunTimesForPriorityFusion). The producer with the highest priority
// is fused into each of its users (duplicated when it has several) and
// erased; then only the new fusions and their operands get new priorities,
// so the pass does O(n log n) queue work (XLA's incremental updates,
// xla#7971). A producer that cannot be fused into all its users, or whose
// fusion does not pay, is not fused. Scalar constants are fused last into
// every fusible user, as XLA does. The fusions are named and configured as
// in XLA's optimized HLO.
//
// The fusibility rules are XLA's (gpu_fusible.cc, priority_fusion.cc); see
// canFuse below. A cycle cannot arise: the producer goes into every user
// (or stays whole for bitcast users), never into one user while another
// still reads it through the fusion (XLA checks reachability only for its
// multi-output fusions, which this pass does not build).
//
//===----------------------------------------------------------------------===//

#include "FusionUtils.h"
#include "GpuFusible.h"
#include "ReductionUtils.h"
#include "TransformUtils.h"
#include "TritonFusionUtils.h"

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Analysis/GpuPerformanceModel.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuFusionPasses.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>
#include <limits>
#include <map>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOPRIORITYFUSION
#include "Hlo/Transforms/GpuFusionPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

using Priority = int64_t;
static constexpr Priority kNoPriority = std::numeric_limits<Priority>::min();

/// Small reductions are emitted as loops; larger ones as reduction kernels.
static constexpr int64_t kSignificantReductionSize = 16;

static int64_t numElements(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return ranked && ranked.hasStaticShape() ? ranked.getNumElements() : -1;
}

/// XLA's IsFusible for priority fusion: ops the loop and reduction emitters
/// compute element by element. Also excluded here: ops with control edges,
/// side effects, tuple or dynamic results.
static bool isFusible(Operation *op, bool asConsumer = false) {
  if (op->getNumResults() != 1 || isRepackingBitcast(op))
    return false;
  // A tuple result (a variadic reduce, a multi-output fusion) takes
  // producers but is not fused into its users (those are its
  // get-tuple-elements).
  Type result = op->getResult(0).getType();
  auto tuple = dyn_cast<TupleType>(result);
  bool tupleConsumer = asConsumer && tuple && isa<ReduceOp, FusionOp>(op) &&
                       llvm::all_of(tuple.getTypes(), isStaticArray);
  if (!tupleConsumer && !isStaticArray(result))
    return false;
  // Loops, branches and calls are never fused (and their effects take a
  // walk of the module to look up their computations).
  if (isa<WhileOp, ConditionalOp, CallOp>(op) || hasControlPredecessors(op) ||
      isControlPredecessor(op) || !isMemoryEffectFree(op))
    return false;
  for (Value v : getDataOperands(op))
    if (!isStaticArray(v.getType()))
      return false;
  if (auto fusion = dyn_cast<FusionOp>(op))
    return fusion.getKind() == FusionKind::kLoop ||
           fusion.getKind() == FusionKind::kInput;
  if (isElementwise(op))
    return true;
  return isa<CopyOp, IotaOp, ConstantOp, ReduceOp, BitcastOp, BroadcastOp,
             ConcatenateOp, DynamicSliceOp, DynamicUpdateSliceOp, GatherOp,
             PadOp, ReduceWindowOp, ReshapeOp, ReverseOp, ScatterOp, SliceOp,
             TransposeOp>(op);
}

/// XLA's GpuPriorityFusion::IsExpensive: transcendental and division-like
/// float math (but f32/f16 divide, sqrt, rsqrt and exp are cheap on the
/// GPU), reductions and windows; a fusion is cheap.
static bool isExpensive(Operation *op) {
  if (isa<FusionOp>(op))
    return false;
  if (isa<ReduceOp, ReduceWindowOp, ScatterOp, GatherOp>(op))
    return true;
  Type element = getElementTypeOrSelf(op->getResult(0).getType());
  bool isFloat = isa<FloatType, ComplexType>(element);
  if (isa<DivOp, SqrtOp, RsqrtOp, ExpOp>(op))
    return isFloat && !(element.isF32() || element.isF16());
  if (isa<Atan2Op, CbrtOp, CosOp, SinOp, TanOp, TanhOp, Expm1Op, LogOp, Log1pOp,
          LogisticOp, PowOp, RemOp, ErfOp>(op))
    return isFloat;
  return false;
}

/// True if `op` is an epilogue op XLA lets follow a reduction in the same
/// kernel (its IsIntermediate with one operand).
static bool isIntermediate(Operation *op) {
  if (isa<BitcastOp, ReshapeOp>(op))
    return true;
  return isElementwise(op) && getDataOperands(op).size() <= 1;
}

namespace {

/// The pass's work on one module.
class PriorityFuser {
public:
  PriorityFuser(ModuleOp module, int64_t maxOperands,
                int64_t maxFusedInstructions, bool tritonFusion)
      : module(module), maxOperands(maxOperands),
        maxFusedInstructions(maxFusedInstructions), tritonFusion(tritonFusion) {
  }

  /// Fuses the module; true if it changed.
  bool run();

  int64_t numFusions = 0, numFusedProducers = 0, numPriorityUpdates = 0,
          numTritonFusions = 0;

private:
  ModuleOp module;
  int64_t maxOperands, maxFusedInstructions;
  bool tritonFusion;
  bool changed = false;

  // Per-module state.
  SymbolTableCollection tables;
  SymbolTable *symbols = nullptr;
  std::unique_ptr<GpuPerformanceModel> model;
  DenseSet<Operation *> created;
  DenseMap<Operation *, int64_t> fusedSizes;

  // Per-computation state: the queue, ordered by (priority, id).
  using Queue = std::map<std::pair<Priority, int64_t>, Operation *>;
  Queue queue;
  DenseMap<Operation *, Queue::iterator> queued;
  DenseMap<Operation *, int64_t> ids;
  int64_t nextId = 0;

  void fuseComputation(ComputationOp comp);
  Block *bodyOf(Operation *op) {
    auto fusion = dyn_cast<FusionOp>(op);
    return fusion ? getFusedBody(fusion, tables) : nullptr;
  }
  int64_t fusedSize(Operation *op);
  bool containsSignificantReduce(Operation *op);
  /// XLA's IsInputFusibleReduction: the hero is a reduce that the
  /// reduction emitter runs. A small column or row reduction that XLA's
  /// elemental emitter beats (IsUnnestedReductionFasterThanElemental) is
  /// loop code and fuses into its consumers like any producer.
  bool isReductionKernel(Operation *op) {
    auto reduce = dyn_cast<ReduceOp>(getFusionHero(op, tables));
    if (!reduce)
      return false;
    OperandRange inputs = getDataOperands(reduce);
    auto input = dyn_cast<RankedTensorType>(inputs.front().getType());
    if (inputs.size() != 2 || !input || !input.hasStaticShape() ||
        !hasDefaultLayout(input))
      return true;
    return isReductionFromOrToContiguousDimensions(input.getShape(),
                                                   reduce.getDimensions());
  }
  bool canFuse(Operation *producer, Operation *consumer);
  bool canFuseTriton(Operation *producer, Operation *consumer);
  bool isTriton(Operation *op) {
    return isTritonFusion(op) && op->getNumResults() == 1 &&
           isStaticArray(op->getResult(0).getType()) &&
           !hasControlPredecessors(op) && !isControlPredecessor(op) &&
           bodyOf(op);
  }
  bool fitsBudget(Operation *producer, Operation *consumer);
  SmallVector<Operation *> uniqueUsers(Operation *op);
  Priority computePriority(Operation *producer);
  void setPriority(Operation *op);
  void forget(Operation *op);
  void eraseProducer(Operation *op);
  FusionOp fuse(Operation *producer, Operation *consumer);
};

} // namespace

int64_t PriorityFuser::fusedSize(Operation *op) {
  Block *body = bodyOf(op);
  if (!body)
    return 1;
  auto [it, inserted] = fusedSizes.try_emplace(op, 0);
  if (inserted)
    it->second = static_cast<int64_t>(body->getOperations().size()) - 1;
  return it->second;
}

bool PriorityFuser::containsSignificantReduce(Operation *op) {
  auto significant = [](Operation *inner) {
    auto reduce = dyn_cast<ReduceOp>(inner);
    if (!reduce || reduce->getNumResults() != 1 ||
        getDataOperands(reduce).empty())
      return false;
    int64_t in = numElements(getDataOperands(reduce)[0].getType());
    int64_t out = numElements(reduce.getType());
    return in > 0 && out > 0 && in / out >= kSignificantReductionSize;
  };
  if (Block *body = bodyOf(op))
    return llvm::any_of(body->without_terminator(),
                        [&](Operation &inner) { return significant(&inner); });
  return significant(op);
}

/// The values `op` (an instruction or a fusion) updates in place: a
/// scatter's operands, a dynamic-update-slice's operand 0; for a fusion,
/// the fusion operands its parameters of those roles stand for (`body` its
/// fused computation's body, null for an instruction).
static SmallVector<Value> inPlaceBuffers(Operation *op, Block *body) {
  SmallVector<Value> buffers;
  auto collect = [&](Operation *inner, auto &&map) {
    if (auto dus = dyn_cast<DynamicUpdateSliceOp>(inner))
      map(getDataOperands(dus)[0]);
    else if (auto scatter = dyn_cast<ScatterOp>(inner))
      for (Value v :
           scatter.getInputs().take_front(scatter.getInputs().size() / 2))
        map(v);
  };
  if (body) {
    ValueRange operands = getDataOperands(op);
    for (Operation &inner : body->without_terminator())
      collect(&inner, [&](Value v) {
        auto arg = dyn_cast<BlockArgument>(v);
        if (arg && arg.getOwner() == body &&
            arg.getArgNumber() < operands.size())
          buffers.push_back(operands[arg.getArgNumber()]);
      });
    return buffers;
  }
  collect(op, [&](Value v) { buffers.push_back(v); });
  return buffers;
}

/// XLA's CanFuse (priority fusion) with IsProducerConsumerFusible and
/// FusionFitsInBudget: whether `producer` may be fused into `consumer`.
bool PriorityFuser::canFuse(Operation *producer, Operation *consumer) {
  if (isTritonFusion(producer) || isTritonFusion(consumer))
    return canFuseTriton(producer, consumer);
  if (!isFusible(producer) || !isFusible(consumer, /*asConsumer=*/true))
    return false;
  // Bitcast consumers would be a fusion of nothing; constants are fused at
  // the end.
  if (isa<BitcastOp>(consumer) || isa<ConstantOp>(producer))
    return false;
  if (isa<FusionOp>(producer) && !bodyOf(producer))
    return false;
  if (isa<FusionOp>(consumer) && !bodyOf(consumer))
    return false;
  // Scatter is emitted in place as a root: nothing is fused after it.
  if (isa<ScatterOp>(getFusionHero(producer, tables)))
    return false;
  // In place: a scatter writes its operand buffers and a dynamic-update-
  // slice its operand 0; a producer of such a buffer, or one that reads it,
  // must stay out (XLA's CanEmitInputFusedScatter and its rule for
  // in-place dynamic-update-slice fusions). Indices, updates and offsets
  // may fuse in.
  SmallVector<Value> buffers = inPlaceBuffers(consumer, bodyOf(consumer));
  for (Value buffer : buffers)
    if (buffer == producer->getResult(0) ||
        llvm::is_contained(getDataOperands(producer), buffer))
      return false;
  // Not reduce into reduce: the cost model does not understand it.
  if (containsSignificantReduce(producer) &&
      containsSignificantReduce(consumer))
    return false;
  // A reduction producer takes only a one-user epilogue of unary ops
  // (so the result stays a reduction kernel).
  if (isReductionKernel(producer)) {
    if (!producer->hasOneUse())
      return false;
    if (Block *body = bodyOf(consumer)) {
      if (!llvm::all_of(body->without_terminator(),
                        [](Operation &op) { return isIntermediate(&op); }))
        return false;
    } else if (!isIntermediate(consumer)) {
      return false;
    }
  }
  return fitsBudget(producer, consumer);
}

/// XLA's CanFuseTriton: a `__triton` producer into a fusible (or
/// `__triton`) consumer that Triton supports, or a fusible producer Triton
/// supports into a `__triton` consumer, when the result is still a
/// normalization fusion Triton tiles.
bool PriorityFuser::canFuseTriton(Operation *producer, Operation *consumer) {
  if (!tritonFusion)
    return false;
  if (isTritonFusion(producer)) {
    if (!isTriton(producer) || (!isFusible(consumer) && !isTriton(consumer)) ||
        !isTritonSupportedInstruction(consumer, tables))
      return false;
  } else {
    if (!isTriton(consumer) || !isFusible(producer) ||
        !isTritonSupportedInstruction(producer, tables))
      return false;
  }
  if (isa<BitcastOp>(consumer))
    return false;
  if (isa<FusionOp>(producer) && !bodyOf(producer))
    return false;
  if (isa<FusionOp>(consumer) && !bodyOf(consumer))
    return false;
  // The instructions of the fused result.
  SmallVector<Operation *> ops;
  for (Operation *op : {producer, consumer}) {
    if (Block *body = bodyOf(op))
      for (Operation &inner : body->without_terminator())
        ops.push_back(&inner);
    else
      ops.push_back(op);
  }
  // A fused computation's parameter stands for its fusion's operand.
  auto resolve = [&](Value v) -> Value {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg)
      return v;
    for (Operation *op : {producer, consumer})
      if (bodyOf(op) == arg.getOwner() &&
          arg.getArgNumber() < getDataOperands(op).size())
        return getDataOperands(op)[arg.getArgNumber()];
    return v;
  };
  if (!canTileTritonNormalization(ops, tables, kMaxTritonTileElements, resolve))
    return false;
  return fitsBudget(producer, consumer);
}

/// The budget: operands plus the output, and the code size.
bool PriorityFuser::fitsBudget(Operation *producer, Operation *consumer) {
  llvm::SmallPtrSet<void *, 16> operands;
  for (Value v : getDataOperands(producer))
    operands.insert(v.getAsOpaquePointer());
  for (Value v : getDataOperands(consumer))
    if (v != producer->getResult(0))
      operands.insert(v.getAsOpaquePointer());
  if (static_cast<int64_t>(operands.size()) + 1 > maxOperands)
    return false;
  if (fusedSize(producer) + fusedSize(consumer) > maxFusedInstructions)
    return false;
  return true;
}

SmallVector<Operation *> PriorityFuser::uniqueUsers(Operation *op) {
  llvm::SetVector<Operation *> users;
  for (Operation *user : op->getUsers())
    users.insert(user);
  return users.takeVector();
}

/// XLA's CalculateProducerPriority: bitcasts first, then the time saved by
/// fusing into all users, in nanoseconds.
Priority PriorityFuser::computePriority(Operation *producer) {
  ++numPriorityUpdates;
  if ((!isFusible(producer) && !(tritonFusion && isTriton(producer))) ||
      isa<ConstantOp>(producer))
    return kNoPriority;
  SmallVector<Operation *> users = uniqueUsers(producer);
  if (users.empty())
    return kNoPriority;
  if (isa<BitcastOp>(producer))
    return std::numeric_limits<Priority>::max();
  unsigned fusedInto = 0;
  for (Operation *user : users) {
    if (isa<BitcastOp>(user))
      continue;
    if (!canFuse(producer, user))
      return kNoPriority;
    ++fusedInto;
  }
  if (fusedInto == 0 || (fusedInto > 1 && isExpensive(producer)))
    return kNoPriority;
  FusionRunTimes times = model->estimateFusionBenefit(producer, users);
  double ns = times.benefitUs() * 1000.0;
  if (!std::isfinite(ns) || ns < 0)
    return kNoPriority;
  return static_cast<Priority>(std::llround(
      std::min(ns, double(std::numeric_limits<Priority>::max() / 2))));
}

void PriorityFuser::setPriority(Operation *op) {
  Priority priority = computePriority(op);
  auto [idIt, inserted] = ids.try_emplace(op, nextId);
  if (inserted)
    ++nextId;
  std::pair<Priority, int64_t> key{priority, idIt->second};
  if (auto it = queued.find(op); it != queued.end()) {
    if (it->second->first == key)
      return;
    queue.erase(it->second);
    queued.erase(it);
  }
  if (priority == kNoPriority)
    return;
  queued[op] = queue.emplace(key, op).first;
}

/// Drops `op` from the queue and the cost model's cache, before it is
/// erased or its fused computation changes.
void PriorityFuser::forget(Operation *op) {
  if (auto it = queued.find(op); it != queued.end()) {
    queue.erase(it->second);
    queued.erase(it);
  }
  model->invalidate(op);
  fusedSizes.erase(op);
}

/// Erases `op`, which nothing uses any more (and its fused computation).
void PriorityFuser::eraseProducer(Operation *op) {
  forget(op);
  ids.erase(op);
  created.erase(op);
  Operation *comp = nullptr;
  if (Block *body = bodyOf(op))
    comp = body->getParentOp();
  op->erase();
  if (comp)
    symbols->erase(comp);
}

/// Fuses `producer` into `consumer` (wrapped in a fusion first if it is not
/// one); returns the fusion, which takes the consumer's place.
FusionOp PriorityFuser::fuse(Operation *producer, Operation *consumer) {
  int64_t producerSize = fusedSize(producer);
  int64_t consumerSize = fusedSize(consumer);
  bool triton = isTritonFusion(producer) || isTritonFusion(consumer);
  forget(consumer);
  auto fusion = dyn_cast<FusionOp>(consumer);
  if (!fusion) {
    Operation *parent = consumer->getParentOfType<ComputationOp>();
    ids.erase(consumer);
    fusion = wrapInFusion(consumer, *symbols, tables, parent);
    ++numFusions;
    // Users of the fusion read a new value: their cached costs are stale.
    for (Operation *user : fusion->getUsers())
      model->invalidate(user);
  }
  // A fusion of the input is extended in place too (its computation has
  // this one caller) and renamed with the new ones.
  created.insert(fusion);
  fuseProducerInto(producer, fusion, tables);
  if (triton) {
    // Still a `__triton` fusion, with the block-level config of its root.
    fusion.setKindAttr(
        FusionKindAttr::get(fusion.getContext(), FusionKind::kCustom));
    // A root with the shape of a row reduction's result is tiled by
    // output elements (one input row each), as XLA tiles it.
    Type rootType = fusion.getResult().getType();
    bool reducedRoot = false;
    if (Block *body = bodyOf(fusion))
      for (Operation &op : body->without_terminator())
        if (auto reduce = dyn_cast<ReduceOp>(op))
          reducedRoot |=
              cast<ShapedType>(reduce->getResult(0).getType()).getShape() ==
              cast<ShapedType>(rootType).getShape();
    fusion->setAttr(
        "backend_config",
        getTritonFusionConfig(fusion.getContext(), rootType, reducedRoot));
    ++numTritonFusions;
  } else {
    setFusionKindAndConfig(fusion, tables);
  }
  fusedSizes[fusion] = producerSize + consumerSize;
  ++numFusedProducers;
  return fusion;
}

void PriorityFuser::fuseComputation(ComputationOp comp) {
  queue.clear();
  queued.clear();
  ids.clear();
  nextId = 0;
  Block &block = comp.getBody().front();
  for (Operation &op : block.without_terminator())
    ids[&op] = nextId++;
  for (Operation &op : block.without_terminator())
    if (!isa<TupleOp, GetTupleElementOp>(op))
      setPriority(&op);

  while (!queue.empty()) {
    auto top = std::prev(queue.end());
    Operation *producer = top->second;
    queue.erase(top);
    queued.erase(producer);

    SmallVector<Operation *> consumers;
    for (Operation *user : uniqueUsers(producer)) {
      if (isa<BitcastOp>(user))
        continue;
      // Bitcast producers are queued without checking their users.
      if (isa<BitcastOp>(producer) && !canFuse(producer, user))
        continue;
      consumers.push_back(user);
    }
    if (consumers.empty())
      continue;

    llvm::SetVector<Operation *> toUpdate;
    for (Operation *consumer : consumers) {
      toUpdate.remove(consumer);
      FusionOp fusion = fuse(producer, consumer);
      for (Value v : fusion.getInputs()) {
        Operation *def = v.getDefiningOp();
        if (def && def != producer && !isa<ConstantOp, GetTupleElementOp>(def))
          toUpdate.insert(def);
      }
      toUpdate.insert(fusion);
      changed = true;
    }
    if (producer->use_empty()) {
      toUpdate.remove(producer);
      eraseProducer(producer);
    }
    for (Operation *op : toUpdate)
      setPriority(op);
  }

  // Scalar constants go into every fusible user (XLA fuses them last: the
  // cost model does not price them well).
  SmallVector<Operation *> constants;
  for (Operation &op : block.without_terminator())
    if (isa<ConstantOp>(op) && isFusible(&op) &&
        numElements(op.getResult(0).getType()) <= 1)
      constants.push_back(&op);
  for (Operation *constant : constants) {
    for (Operation *user : uniqueUsers(constant)) {
      if (isTritonFusion(user)) {
        if (canFuseTriton(constant, user)) {
          fuse(constant, user);
          changed = true;
        }
        continue;
      }
      if (!isFusible(user, /*asConsumer=*/true) ||
          isa<BitcastOp, ConstantOp>(user) ||
          (isa<FusionOp>(user) && !bodyOf(user)) ||
          llvm::is_contained(inPlaceBuffers(user, bodyOf(user)),
                             constant->getResult(0)))
        continue;
      fuse(constant, user);
      changed = true;
    }
    if (constant->use_empty())
      eraseProducer(constant);
  }
}

bool PriorityFuser::run() {
  symbols = &tables.getSymbolTable(module);
  model = std::make_unique<GpuPerformanceModel>(
      getSelectedGpuDevice(), GpuPerformanceModelOptions::priorityFusion());
  model->setSymbolTables(&tables);

  // The computations that run as kernels: not fused computations, nor
  // computations that other instructions apply element by element
  // (reducers, comparators, mapped and scattered computations).
  DenseSet<Operation *> embedded;
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(&module.getBodyRegion()))
    for (const SymbolTable::SymbolUse &use : *uses)
      if (!isa<WhileOp, ConditionalOp, CallOp>(use.getUser()))
        if (Operation *callee =
                symbols->lookup(use.getSymbolRef().getRootReference()))
          embedded.insert(callee);
  SmallVector<ComputationOp> comps;
  for (auto comp : module.getOps<ComputationOp>())
    if (!embedded.contains(comp) && !comp.getBody().empty())
      comps.push_back(comp);

  for (ComputationOp comp : comps)
    fuseComputation(comp);

  // Names in program order (XLA's RenameFusions), after all fusion.
  llvm::StringMap<unsigned> suffixes;
  for (ComputationOp comp : comps)
    for (auto fusion : comp.getBody().front().getOps<FusionOp>())
      if (created.contains(fusion) && !isTritonFusion(fusion)) {
        setFusionKindAndConfig(fusion, tables);
        nameFusion(fusion, *symbols, tables, suffixes);
      } else if (created.contains(fusion)) {
        // A `__triton` fusion keeps its name; a computation made for it
        // here (`fused_computation`) gets XLA's `.N` suffix.
        auto fused = cast<ComputationOp>(bodyOf(fusion)->getParentOp());
        if (fused.getSymName().starts_with("fused_computation_")) {
          std::string name =
              uniqueSymbolName("fused_computation", *symbols, suffixes);
          symbols->remove(fused);
          fused.setSymName(name);
          symbols->insert(fused);
          fusion.setCallsAttr(FlatSymbolRefAttr::get(fused.getSymNameAttr()));
        }
      }
  return changed;
}

namespace {
struct PriorityFusionPass
    : ChangeReportingPass<PriorityFusionPass,
                          hlo::impl::HloPriorityFusionBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    PriorityFuser fuser(getOperation(), maxOperands, maxFusedInstructions,
                        tritonSoftmaxFusion);
    changed = fuser.run();
    numFusions += fuser.numFusions;
    numFusedProducers += fuser.numFusedProducers;
    numPriorityUpdates += fuser.numPriorityUpdates;
    numTritonFusions += fuser.numTritonFusions;
  }
};
} // namespace
