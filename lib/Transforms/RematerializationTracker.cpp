//===- RematerializationTracker.cpp - XLA's MemoryUsageTracker ------------===//
//
// See RematerializationTracker.h.
//
//===----------------------------------------------------------------------===//

#include "RematerializationTracker.h"
#include "SchedulingUtils.h"
#include "TransformUtils.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::hlo;

bool mlir::hlo::isRematerializable(Operation *op,
                                   const HloDataflowAnalysis &dataflow,
                                   bool cheapOnly) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return false;
  if (isa<ConstantOp, WhileOp, ConditionalOp, CallOp, CustomCallOp>(op))
    return false;
  if (!isMemoryEffectFree(op))
    return false;
  // Copies that keep the layout are copy insertion's.
  if (auto copy = dyn_cast<CopyOp>(op))
    if (copy.getOperand().getType() == copy.getType())
      return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape())
    return false;
  if (!dataflow.getInPlacePairs(op).empty())
    return false;
  if (hasControlPredecessors(op) || isControlPredecessor(op))
    return false;
  if (cheapOnly) {
    if (auto fusion = dyn_cast<FusionOp>(op))
      return fusion.getKind() == FusionKind::kLoop;
    return isElementwise(op) ||
           isa<BroadcastOp, IotaOp, ReshapeOp, TransposeOp, SliceOp,
               ConcatenateOp, PadOp, ReverseOp>(op);
  }
  return true;
}

void mlir::hlo::forEachReader(Value v, function_ref<void(Operation *)> fn) {
  for (Operation *user : v.getUsers()) {
    fn(user);
    if (isa<BitcastOp>(user))
      forEachReader(user->getResult(0), fn);
  }
}

bool MemoryUsageTracker::build(
    ComputationOp comp, const HloAliasAnalysis &alias,
    const HloDataflowAnalysis &dataflow,
    const llvm::DenseMap<Operation *, int64_t> &peaks, bool cheapOnly,
    int64_t minRematSize, SymbolTable &symbols) {
  ScheduleGraph graph;
  if (!graph.build(comp, alias, symbols))
    return false;
  buffers.resize(graph.buffers.size());
  for (unsigned b = 0, e = graph.buffers.size(); b < e; ++b) {
    const ScheduleGraph::Buffer &gb = graph.buffers[b];
    buffers[b].size = gb.atParameter || gb.liveOut ? 0 : gb.size;
  }
  items.resize(graph.nodes.size());
  for (unsigned i = 0, e = graph.nodes.size(); i < e; ++i) {
    const ScheduleGraph::Node &node = graph.nodes[i];
    MemoryUsageTracker::Item &item = items[i];
    item.op = node.op;
    item.uses.assign(node.uses.begin(), node.uses.end());
    item.defs.assign(node.defs.begin(), node.defs.end());
    itemOf[node.op] = i;
    for (unsigned b : node.defs)
      buffers[b].item = i;
    for (unsigned b : node.uses)
      ++buffers[b].unfinished;
    for (Operation *callee : dataflow.getCallees(node.op))
      item.calleePeak = std::max(item.calleePeak, peaks.lookup(callee));
  }
  // A candidate defines one buffer, all its own: one value, at the op's
  // result only (no bitcast, tuple or get-tuple-element forwards it), out
  // of the computation's result and of any parameter.
  for (unsigned i = 0, e = graph.nodes.size(); i < e; ++i) {
    MemoryUsageTracker::Item &item = items[i];
    if (item.defs.size() != 1 ||
        !isRematerializable(item.op, dataflow, cheapOnly))
      continue;
    const ScheduleGraph::Buffer &gb = graph.buffers[item.defs[0]];
    if (gb.atParameter || gb.liveOut || gb.size < minRematSize)
      continue;
    const HloValue *value = dataflow.getDefinedValue(item.op->getResult(0));
    const HloBuffer *buffer = alias.getBufferAt(item.op->getResult(0));
    // Its positions: the result and bitcasts of it.
    Value result = item.op->getResult(0);
    if (!value || !buffer || buffer->values.size() != 1 ||
        !llvm::all_of(value->positions, [&](const HloPosition &pos) {
          return pos.value == result ||
                 isa_and_nonnull<BitcastOp>(pos.value.getDefiningOp());
        }))
      continue;
    item.candidate = true;
  }
  return true;
}
