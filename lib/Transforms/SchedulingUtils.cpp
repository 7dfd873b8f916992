//===- SchedulingUtils.cpp - what the schedulers share --------------------===//

#include "SchedulingUtils.h"

#include "Hlo/Dialect/Hlo/HloEffects.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// Appends `x` to `list` unless `seen[x]` already holds `stamp`.
void pushUnique(SmallVectorImpl<unsigned> &list, std::vector<unsigned> &seen,
                unsigned stamp, unsigned x) {
  if (x >= seen.size())
    seen.resize(x + 1, 0);
  if (seen[x] == stamp)
    return;
  seen[x] = stamp;
  list.push_back(x);
}

std::string locationName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations()) {
      std::string name = locationName(inner);
      if (!name.empty())
        return name;
    }
  return "";
}

} // namespace

bool ScheduleGraph::build(ComputationOp comp, const HloAliasAnalysis &alias,
                          SymbolTable &symbols) {
  const HloDataflowAnalysis &dataflow = alias.getDataflow();
  computation = comp;
  nodes.clear();
  buffers.clear();
  root = -1;
  Block &block = comp.getBody().front();
  llvm::DenseMap<Operation *, unsigned> index;
  for (Operation &op : block.without_terminator()) {
    if (!isa<InstructionOpInterface>(op) || op.getNumRegions() != 0)
      return false;
    index[&op] = nodes.size();
    nodes.emplace_back();
    nodes.back().op = &op;
  }

  llvm::DenseMap<unsigned, unsigned> local; // alias buffer id -> ours
  auto bufferAt = [&](Value v, unsigned node) -> int64_t {
    const HloBuffer *buffer = alias.getBufferAt(v, node);
    if (!buffer)
      return -1;
    auto [it, inserted] = local.try_emplace(buffer->id, buffers.size());
    if (inserted) {
      Buffer b;
      for (unsigned id : buffer->values)
        b.size = std::max(
            b.size, getShapeByteSize(dataflow.getValue(id).type).value_or(0));
      buffers.push_back(b);
    }
    return it->second;
  };

  for (BlockArgument arg : block.getArguments())
    for (unsigned n = 0, e = dataflow.getNumNodes(arg); n < e; ++n)
      if (int64_t b = bufferAt(arg, n); b >= 0)
        buffers[b].ignored = buffers[b].atParameter = true;

  std::vector<unsigned> seenNode, seenBuffer;
  unsigned stamp = 0;
  for (unsigned i = 0, e = nodes.size(); i < e; ++i) {
    Node &node = nodes[i];
    auto inst = cast<InstructionOpInterface>(node.op);
    ++stamp;
    for (Value v : inst.getDataOperands()) {
      if (Operation *def = v.getDefiningOp())
        if (auto it = index.find(def); it != index.end()) {
          node.operandList.push_back(it->second);
          pushUnique(node.operands, seenNode, stamp, it->second);
        }
      for (unsigned n = 0, e = dataflow.getNumNodes(v); n < e; ++n)
        if (int64_t b = bufferAt(v, n); b >= 0)
          pushUnique(node.uses, seenBuffer, stamp, b);
    }
    for (Value v : inst.getControlPredecessors())
      if (Operation *def = v.getDefiningOp())
        if (auto it = index.find(def); it != index.end())
          pushUnique(node.controlPreds, seenNode, stamp, it->second);
    node.isConstant = isa<ConstantOp>(node.op);
    // Buffers of the result; those no operand holds are defined here.
    unsigned resultStamp = ++stamp;
    for (unsigned b : node.uses) {
      if (b >= seenBuffer.size())
        seenBuffer.resize(b + 1, 0);
      seenBuffer[b] = resultStamp;
    }
    unsigned defStamp = ++stamp;
    for (Value r : node.op->getResults())
      for (unsigned n = 0, e = dataflow.getNumNodes(r); n < e; ++n) {
        int64_t b = bufferAt(r, n);
        if (b < 0)
          continue;
        if (node.isConstant)
          buffers[b].ignored = buffers[b].constant = true;
        if (b >= int64_t(seenBuffer.size()))
          seenBuffer.resize(b + 1, 0);
        if (seenBuffer[b] == resultStamp || seenBuffer[b] == defStamp)
          continue;
        bool defined = dataflow.getDefinedValue(r, n) != nullptr;
        seenBuffer[b] = defined ? defStamp : resultStamp;
        if (defined)
          node.defs.push_back(b);
      }
    // resultBuffers: every buffer of the result, once.
    ++stamp;
    for (Value r : node.op->getResults())
      for (unsigned n = 0, e = dataflow.getNumNodes(r); n < e; ++n)
        if (int64_t b = bufferAt(r, n); b >= 0)
          pushUnique(node.resultBuffers, seenBuffer, stamp, b);
  }
  // What takes from or adds to a queue of the device keeps its order
  // there: draws from the random state (rng, rng-get-and-update-state),
  // infeeds and outfeeds, and a loop, branch or call with effects, which
  // may run any of them. The order decides which numbers or values each
  // gets, and the interpreter and the runtimes run them in program order.
  enum Queue { RandomState, Infeed, Outfeed, NumQueues };
  std::optional<unsigned> last[NumQueues];
  for (unsigned i = 0, e = nodes.size(); i < e; ++i) {
    Operation *op = nodes[i].op;
    bool any =
        isa<WhileOp, ConditionalOp, CallOp>(op) && !isEffectFree(op, symbols);
    for (int q = 0; q < NumQueues; ++q) {
      bool uses =
          any || (q == RandomState && isa<RngOp, RngGetAndUpdateStateOp>(op)) ||
          (q == Infeed && isa<InfeedOp>(op)) ||
          (q == Outfeed && isa<OutfeedOp>(op));
      if (!uses)
        continue;
      if (last[q] && !llvm::is_contained(nodes[i].controlPreds, *last[q]))
        nodes[i].controlPreds.push_back(*last[q]);
      last[q] = i;
    }
  }
  // Users and control successors.
  for (unsigned i = 0, e = nodes.size(); i < e; ++i) {
    for (unsigned p : nodes[i].operands)
      nodes[p].users.push_back(i);
    for (unsigned p : nodes[i].controlPreds)
      nodes[p].controlSuccs.push_back(i);
  }
  Value rootValue = block.getTerminator()->getOperand(0);
  if (Operation *def = rootValue.getDefiningOp())
    if (auto it = index.find(def); it != index.end())
      root = it->second;
  for (unsigned n = 0, e = dataflow.getNumNodes(rootValue); n < e; ++n)
    if (int64_t b = bufferAt(rootValue, n); b >= 0)
      buffers[b].liveOut = true;
  return true;
}

int64_t ScheduleGraph::peakBytes(ArrayRef<unsigned> order) const {
  // Times: 0 the parameters, 1..n the instructions, n + 1 the end.
  int64_t n = order.size();
  std::vector<int64_t> time(nodes.size(), 0);
  for (int64_t t = 0; t < n; ++t)
    time[order[t]] = t + 1;
  std::vector<int64_t> start(buffers.size(), n + 1), end(buffers.size(), 0);
  // A live-out buffer gets an allocation of its own (it is not packed with
  // the temporaries), so it costs its bytes over the whole computation
  // whatever the order: counting it from its definition only would favour
  // orders that compute the outputs last and keep every temporary alive
  // until then. So does a parameter's (the caller's buffer): counting it
  // freed at its last read would favour orders that read parameters early
  // into temporaries (two convolutions' transposed filters made before the
  // first convolution).
  for (unsigned b = 0, e = buffers.size(); b < e; ++b)
    if (buffers[b].atParameter || buffers[b].liveOut) {
      start[b] = 0;
      end[b] = n + 1;
    }
  for (unsigned i = 0, e = nodes.size(); i < e; ++i) {
    for (unsigned b : nodes[i].resultBuffers)
      start[b] = std::min(start[b], time[i]);
    for (unsigned b : nodes[i].uses)
      end[b] = std::max(end[b], time[i]);
  }
  std::vector<int64_t> delta(n + 3, 0);
  for (unsigned b = 0, e = buffers.size(); b < e; ++b) {
    if (start[b] > n + 1 || buffers[b].constant)
      continue;
    int64_t last = std::max(start[b], end[b]);
    delta[start[b]] += buffers[b].size;
    delta[last + 1] -= buffers[b].size;
  }
  int64_t live = 0, peak = 0;
  for (int64_t d : delta)
    peak = std::max(peak, live += d);
  return peak;
}

std::string ScheduleGraph::name(unsigned node) const {
  return locationName(nodes[node].op->getLoc());
}

bool mlir::hlo::applySchedule(const ScheduleGraph &graph,
                              ArrayRef<unsigned> order) {
  bool same = true;
  for (unsigned t = 0, e = order.size(); t < e && same; ++t)
    same = order[t] == t;
  if (same)
    return false;
  Operation *terminator = graph.computation.getBody().front().getTerminator();
  for (unsigned i : order)
    graph.nodes[i].op->moveBefore(terminator);
  return true;
}
