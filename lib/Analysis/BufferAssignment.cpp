//===- BufferAssignment.cpp - XLA's buffer assignment ---------------------===//

#include "Hlo/Analysis/BufferAssignment.h"
#include "Hlo/Analysis/BufferOverlapChecker.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloMemoryAnnotations.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "IndexingAnalysisImpl.h"

#include "mlir/IR/Builders.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::hlo;

static constexpr StringLiteral kAllocations = "hlo.buffer_allocations";
static constexpr StringLiteral kSlices = "hlo.buffer_slices";

static Location locationOf(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getLoc();
  return v.getDefiningOp()->getLoc();
}

/// Calls `fn(value)` for every parameter and instruction result of the
/// computations `dataflow` analyzed.
static void forEachPosition(const HloDataflowAnalysis &dataflow,
                            function_ref<void(Value)> fn) {
  for (Operation *c : dataflow.getComputations()) {
    auto comp = cast<ComputationOp>(c);
    for (BlockArgument arg : comp.getArguments())
      fn(arg);
    for (Operation &op : comp.getOps())
      if (op.getNumResults() == 1)
        fn(op.getResult(0));
  }
}

/// True if every instruction reading `param` of a fused computation, and
/// every instruction reading those, up to the root, is elementwise: the
/// fusion reads each element of that operand only where it writes the same
/// element of its result.
static bool isReadElementwise(BlockArgument param) {
  SmallVector<Value> work{param};
  DenseSet<Operation *> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<ReturnOp>(user))
        continue;
      if (!indexing::isElementwise(user) || user->getNumResults() != 1)
        return false;
      if (seen.insert(user).second)
        work.push_back(user->getResult(0));
    }
  }
  return true;
}

/// The operand buffers `op` may overwrite with its result (one value at
/// node 0), operands of exactly the result's type: those of an elementwise
/// instruction, which reads each element before writing the same bytes,
/// and those of a loop fusion that reads them only elementwise (XLA's
/// CanShareOperandBufferWithUser).
static SmallVector<Value> reusableOperands(Operation *op,
                                           SymbolTable &symbols) {
  SmallVector<Value> operands;
  if (op->getNumResults() != 1)
    return operands;
  Type type = op->getResult(0).getType();
  if (indexing::isElementwise(op)) {
    for (Value v : cast<InstructionOpInterface>(op).getDataOperands())
      if (v.getType() == type)
        operands.push_back(v);
  } else if (auto fusion = dyn_cast<FusionOp>(op)) {
    auto fused = symbols.lookup<ComputationOp>(fusion.getCalls());
    if (fusion.getKind() != FusionKind::kLoop || !fused ||
        fused.getBody().empty() || isa<TupleType>(type))
      return operands;
    for (auto [i, v] : llvm::enumerate(fusion.getDataOperands()))
      if (v.getType() == type && i < fused.getBody().getNumArguments() &&
          isReadElementwise(fused.getBody().getArgument(i)))
        operands.push_back(v);
  }
  return operands;
}

namespace {
enum BufferKind { Parameter, Constant, Output, Temp };
} // namespace

/// Places temporaries into the allocations of outputs (one buffer each so
/// far) where their live intervals meet no buffer already there, except
/// where one buffer's instruction overwrites the other at the other's last
/// read (`reuses[b]`: the buffers b's instruction may overwrite); sets
/// `allocation` (offset 0) and `placed`.
static void reuseOutputAllocations(
    ArrayRef<HloBuffer> buffers, const HloLiveRange &liveRange,
    ArrayRef<int64_t> size, ArrayRef<BufferKind> kind, ArrayRef<int64_t> space,
    ArrayRef<SmallVector<unsigned, 2>> reuses, std::vector<int64_t> &allocation,
    std::vector<bool> &placed) {
  constexpr unsigned kReuseTries = 8;
  // Per output allocation: its size and the live ranges (the hull of a
  // buffer's values' intervals, inclusive; disjoint but for shared end
  // points) of its buffers by start.
  struct Target {
    int64_t size;
    int64_t firstStart;
    int64_t index;
    int64_t space;
    std::map<int64_t, std::pair<int64_t, unsigned>> busy;
  };
  std::vector<Target> targets;
  for (const HloBuffer &b : buffers) {
    if (kind[b.id] != Output)
      continue;
    Target &t = targets.emplace_back();
    t.size = size[b.id];
    t.index = allocation[b.id];
    t.space = space[b.id];
    TimeInterval i = liveRange.getBufferInterval(b);
    t.firstStart = i.start;
    t.busy[i.start] = {i.end, b.id};
  }
  if (targets.empty())
    return;
  llvm::sort(targets, [](const Target &a, const Target &b) {
    return std::make_tuple(a.size, -a.firstStart, a.index) <
           std::make_tuple(b.size, -b.firstStart, b.index);
  });
  auto canReuse = [&](unsigned writer, unsigned overwritten) {
    return llvm::is_contained(reuses[writer], overwritten);
  };
  // Whether buffer `id` live over `i` may join `t`: every busy interval
  // meeting `i` either ends where `i` starts and `id` overwrites it, or
  // starts where `i` ends and overwrites `id`.
  auto fits = [&](const Target &t, TimeInterval i, unsigned id) {
    auto it = t.busy.upper_bound(i.end);
    while (it != t.busy.begin()) {
      --it;
      int64_t start = it->first;
      auto [end, other] = it->second;
      if (end < i.start)
        return true; // so do all earlier ones
      bool before = end == i.start && start < i.start && canReuse(id, other);
      bool after = start == i.end && i.start < i.end && canReuse(other, id);
      if (!before && !after)
        return false;
    }
    return true;
  };
  SmallVector<unsigned> temps;
  for (const HloBuffer &b : buffers)
    if (kind[b.id] == Temp && size[b.id] > 0)
      temps.push_back(b.id);
  llvm::stable_sort(temps,
                    [&](unsigned a, unsigned b) { return size[a] > size[b]; });
  for (unsigned id : temps) {
    TimeInterval i = liveRange.getBufferInterval(buffers[id]);
    auto first = llvm::partition_point(
        targets, [&](const Target &t) { return t.size < size[id]; });
    unsigned tries = 0;
    for (auto it = first; it != targets.end() && tries < kReuseTries;
         ++it, ++tries) {
      if (it->space != space[id] || !fits(*it, i, id))
        continue;
      it->busy[i.start] = {i.end, id};
      allocation[id] = it->index;
      placed[id] = true;
      break;
    }
  }
}

FailureOr<BufferAssignmentStats>
mlir::hlo::assignBuffers(ModuleOp module, const HloLiveRange &liveRange,
                         const BufferAssignmentOptions &options) {
  const HloAliasAnalysis &alias = liveRange.getAliasAnalysis();
  const HloDataflowAnalysis &dataflow = alias.getDataflow();
  if (!dataflow.isAnalyzed())
    return module.emitError("buffer assignment needs an ENTRY computation");
  // One set of slices per computation: a computation run from two places
  // would have both runs' values in one place.
  for (Operation *comp : dataflow.getComputations())
    if (dataflow.getCallers(comp).size() > 1)
      return comp->emitError("buffer assignment needs every computation run "
                             "from one place (run hlo-flatten-call-graph "
                             "first); this one has ")
             << dataflow.getCallers(comp).size() << " callers";
  ArrayRef<HloBuffer> buffers = alias.getBuffers();
  SymbolTable symbols(module);

  // Sizes and kinds.
  std::vector<int64_t> size(buffers.size(), 0);
  std::vector<BufferKind> kind(buffers.size(), Temp);
  std::vector<const HloValue *> param(buffers.size(), nullptr);
  std::vector<bool> liveOut(buffers.size(), false);
  // The memory space of each buffer's arrays (XLA's color: the host's `S(5)`
  // arrays get allocations of their own).
  std::vector<int64_t> space(buffers.size(), 0);
  ComputationOp entry = dataflow.getEntry();
  for (const HloBuffer &b : buffers) {
    for (unsigned id : b.values) {
      const HloValue &v = dataflow.getValue(id);
      space[b.id] = std::max(space[b.id], getMemorySpace(v.type));
      std::optional<int64_t> bytes = getShapeByteSize(v.type);
      if (!bytes)
        return emitError(locationOf(v.defined.value))
               << "cannot assign a buffer to " << v.type
               << ": its size is not static";
      size[b.id] = std::max(size[b.id], *bytes);
      liveOut[b.id] = liveOut[b.id] || v.liveOut;
      auto arg = dyn_cast<BlockArgument>(v.defined.value);
      if (arg && arg.getOwner()->getParentOp() == entry.getOperation()) {
        if (!param[b.id])
          param[b.id] = &v;
        kind[b.id] = Parameter;
      } else if (kind[b.id] != Parameter &&
                 v.defined.value.getDefiningOp<ConstantOp>()) {
        kind[b.id] = Constant;
      }
    }
    if (kind[b.id] == Temp && liveOut[b.id])
      kind[b.id] = Output;
  }

  // Allocations: parameters (by number and index), constants, outputs, then
  // the one temp allocation.
  MLIRContext *ctx = module.getContext();
  SmallVector<Attribute> allocations;
  std::vector<int64_t> allocation(buffers.size(), -1),
      offset(buffers.size(), 0);
  SmallVector<unsigned> order;
  for (const HloBuffer &b : buffers)
    if (kind[b.id] == Parameter)
      order.push_back(b.id);
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    auto key = [&](unsigned id) {
      auto arg = cast<BlockArgument>(param[id]->defined.value);
      return std::make_pair(arg.getArgNumber(), param[id]->defined.node);
    };
    return key(a) < key(b);
  });
  for (BufferKind k : {Constant, Output})
    for (const HloBuffer &b : buffers)
      if (kind[b.id] == k)
        order.push_back(b.id);
  BufferAssignmentStats stats;
  for (unsigned id : order) {
    allocation[id] = allocations.size();
    std::optional<int64_t> number;
    ArrayRef<int64_t> index;
    BufferAllocationKind allocKind = BufferAllocationKind::Output;
    if (kind[id] == Parameter) {
      number = cast<BlockArgument>(param[id]->defined.value).getArgNumber();
      index = param[id]->index;
      allocKind = BufferAllocationKind::Parameter;
      stats.parameterBytes += size[id];
    } else if (kind[id] == Constant) {
      allocKind = BufferAllocationKind::Constant;
      stats.constantBytes += size[id];
    } else {
      stats.outputBytes += size[id];
    }
    allocations.push_back(BufferAllocationAttr::get(
        ctx, allocations.size(), size[id], allocKind, number, index,
        liveOut[id] && kind[id] != Output));
  }

  // Temporaries go first into an output allocation they fit in, when none
  // of its buffers is live at the same time (XLA's BufferAssigner reuses
  // allocations so before it packs the rest into the heap): larger
  // temporaries first, into the smallest such allocation (among equal
  // sizes, the one whose output is defined latest), trying at most
  // kReuseTries allocations per temporary so that the cost stays n log n.
  std::vector<SmallVector<unsigned, 2>> reuses(buffers.size());
  for (const HloBuffer &b : buffers) {
    if (b.values.size() != 1)
      continue;
    const HloValue &v = dataflow.getValue(b.values.front());
    if (Operation *def = v.defined.value.getDefiningOp())
      for (Value operand : reusableOperands(def, symbols))
        if (const HloBuffer *ob = alias.getBufferAt(operand))
          if (ob->id != b.id)
            reuses[b.id].push_back(ob->id);
  }
  std::vector<bool> inOutput(buffers.size(), false);
  reuseOutputAllocations(buffers, liveRange, size, kind, space, reuses,
                         allocation, inOutput);

  // The other temporaries: one heap per memory space, the device's first
  // (the host's only when it holds some).
  std::set<int64_t> spaces = {0};
  for (const HloBuffer &b : buffers)
    if (kind[b.id] == Temp && !inOutput[b.id])
      spaces.insert(space[b.id]);
  int64_t temp = allocations.size();
  for (int64_t heapSpace : spaces) {
    SmallVector<HeapBuffer> heap;
    DenseMap<unsigned, unsigned> heapIndex;
    for (const HloBuffer &b : buffers) {
      if (kind[b.id] != Temp || inOutput[b.id] || space[b.id] != heapSpace)
        continue;
      HeapBuffer &hb = heap.emplace_back();
      hb.id = b.id;
      hb.size = size[b.id];
      for (unsigned id : b.values) {
        TimeInterval t = liveRange.getValueInterval(id);
        hb.intervals.push_back({t.start, t.end});
      }
      for (unsigned ob : reuses[b.id])
        if (kind[ob] == Temp && !inOutput[ob] && space[ob] == heapSpace)
          hb.canShareWith.push_back(ob);
      heapIndex[b.id] = heap.size() - 1;
    }
    HeapSimulatorOptions heapOptions;
    heapOptions.alignment = options.alignment;
    heapOptions.packing = options.packing;
    llvm::Expected<HeapAssignment> packed = runHeapSimulator(heap, heapOptions);
    if (!packed)
      return module.emitError("heap simulator: ")
             << llvm::toString(packed.takeError());
    int64_t index = allocations.size();
    for (auto [b, i] : heapIndex) {
      allocation[b] = index;
      offset[b] = packed->offsets[i];
    }
    if (heapSpace == 0) {
      stats.tempBytes = packed->heapSize;
      stats.tempLowerBound = packed->peakLiveBytes;
    } else {
      stats.hostTempBytes += packed->heapSize;
    }
    allocations.push_back(BufferAllocationAttr::get(
        ctx, index, packed->heapSize, BufferAllocationKind::Temp, std::nullopt,
        {}, false));
  }
  stats.numAllocations = allocations.size();

  // Slices of every position.
  clearBufferAssignment(module);
  module->setAttr(kAllocations, ArrayAttr::get(ctx, allocations));
  forEachPosition(dataflow, [&](Value v) {
    SmallVector<Attribute> slices;
    forEachSubshape(
        v.getType(), [&, node = 0u](Type sub, ArrayRef<int64_t>) mutable {
          const HloBuffer *b = alias.getBufferAt(v, node++);
          int64_t bytes = getShapeByteSize(sub).value_or(0);
          slices.push_back(b ? BufferSliceAttr::get(ctx, allocation[b->id],
                                                    offset[b->id], bytes)
                             : BufferSliceAttr::get(ctx, temp, 0, 0));
        });
    ArrayAttr attr = ArrayAttr::get(ctx, slices);
    if (auto arg = dyn_cast<BlockArgument>(v))
      cast<ComputationOp>(arg.getOwner()->getParentOp())
          .setArgAttr(arg.getArgNumber(), kSlices, attr);
    else
      v.getDefiningOp()->setAttr(kSlices, attr);
  });
  return stats;
}

void mlir::hlo::clearBufferAssignment(ModuleOp module) {
  module->removeAttr(kAllocations);
  for (auto comp : module.getOps<ComputationOp>()) {
    for (unsigned i = 0, e = comp.getNumArguments(); i < e; ++i)
      comp.removeArgAttr(i, StringAttr::get(module.getContext(), kSlices));
    comp.walk([](Operation *op) { op->removeAttr(kSlices); });
  }
}

//===----------------------------------------------------------------------===//
// The independent check
//===----------------------------------------------------------------------===//

BufferSliceAttr mlir::hlo::getBufferSlice(Value v, unsigned node) {
  ArrayAttr slices;
  if (auto arg = dyn_cast<BlockArgument>(v))
    slices = cast<ComputationOp>(arg.getOwner()->getParentOp())
                 .getArgAttrOfType<ArrayAttr>(arg.getArgNumber(), kSlices);
  else
    slices = v.getDefiningOp()->getAttrOfType<ArrayAttr>(kSlices);
  if (!slices || node >= slices.size())
    return {};
  return dyn_cast<BufferSliceAttr>(slices[node]);
}

std::string mlir::hlo::checkBufferAssignment(ModuleOp module) {
  std::string report;
  llvm::raw_string_ostream os(report);
  HloDataflowAnalysis dataflow(module);
  HloAliasAnalysis alias(dataflow);
  HloLiveRange liveRange(alias);
  SymbolTable symbols(module);
  auto allocations = module->getAttrOfType<ArrayAttr>(kAllocations);
  if (!allocations) {
    os << "the module has no buffer assignment\n";
    return report;
  }
  // Every position has a slice, and all positions of a value the same one.
  std::vector<BufferSliceAttr> sliceOf(dataflow.getValues().size());
  for (const HloValue &v : dataflow.getValues()) {
    for (const HloPosition &p : v.positions) {
      BufferSliceAttr s = getBufferSlice(p.value, p.node);
      if (!s) {
        os << "a position of value " << v.id << " has no slice\n";
        continue;
      }
      if (!sliceOf[v.id])
        sliceOf[v.id] = s;
      else if (s.getAllocation() != sliceOf[v.id].getAllocation() ||
               s.getOffset() != sliceOf[v.id].getOffset())
        os << "value " << v.id << " is at two places: " << s << " and "
           << sliceOf[v.id] << "\n";
    }
    if (sliceOf[v.id] &&
        sliceOf[v.id].getSize() < getShapeByteSize(v.type).value_or(0))
      os << "value " << v.id << " of " << v.type << " has a slice of "
         << sliceOf[v.id].getSize() << " bytes\n";
  }
  // Overlaps, allocation by allocation.
  std::vector<SmallVector<PlacedBuffer>> placed(allocations.size());
  for (const HloValue &v : dataflow.getValues()) {
    BufferSliceAttr s = sliceOf[v.id];
    if (!s || s.getAllocation() >= int64_t(placed.size()))
      continue;
    TimeInterval t = liveRange.getValueInterval(v.id);
    placed[s.getAllocation()].push_back(
        {v.id, s.getOffset(), s.getSize(), {{t.start, t.end}}});
  }
  // The relations, per allocation: a pair matters only where both values
  // are (passing every pair to every allocation's check would cost
  // allocations x values).
  using Pairs = SmallVector<std::pair<int64_t, int64_t>>;
  std::vector<Pairs> same(placed.size()), mayShare(placed.size());
  auto addPair = [&](std::vector<Pairs> &to, unsigned a, unsigned b) {
    if (sliceOf[a] && sliceOf[b] &&
        sliceOf[a].getAllocation() == sliceOf[b].getAllocation() &&
        sliceOf[a].getAllocation() < int64_t(placed.size()))
      to[sliceOf[a].getAllocation()].push_back({a, b});
  };
  for (const HloBuffer &b : alias.getBuffers())
    for (size_t i = 1; i < b.values.size(); ++i)
      addPair(same, b.values[i - 1], b.values[i]);
  for (const HloValue &v : dataflow.getValues())
    if (Operation *def = v.defined.value.getDefiningOp())
      for (Value operand : reusableOperands(def, symbols))
        for (unsigned id : dataflow.getValueSet(operand))
          addPair(mayShare, id, v.id);
  for (auto [i, group] : llvm::enumerate(placed)) {
    auto allocation = cast<BufferAllocationAttr>(allocations[i]);
    BufferCheckResult result =
        checkBufferOverlaps(group, same[i], mayShare[i], allocation.getSize());
    if (!result.ok())
      os << "allocation " << i << ": " << result.describe() << "\n";
  }
  return report;
}
