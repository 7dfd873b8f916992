//===- LoopScheduleLinearizer.cpp - hlo-loop-schedule-linearizer ----------===//
//
// XLA's LoopScheduleLinearizer. A while body's parameter element and the
// root element at the same index share one buffer (the loop's state): the
// new value may only be written once every read of the old one has run.
// Copy insertion (run after scheduling) copies the new value at the root
// when the schedule writes it first. This pass, run before scheduling,
// makes the schedulers avoid that order where the data allows it: for each
// state element whose new value an instruction D of the body defines (found
// through tuple, get-tuple-element and bitcast from the root), every other
// instruction U of the body reading the old element gets a control edge
// U -> D, unless D already reaches U (the edge would close a cycle; the
// forward walk from D is bounded by `max-walk` instructions, and an edge
// whose walk is cut off is left out). Edges added for earlier elements are
// part of later walks, so the edges never form a cycle together. The body's
// instructions are then put in an order the edges allow (a stable
// topological sort; the schedulers choose the final order).
//
// Left alone: elements the root passes through (the parameter element at
// its own or another index), elements whose new value is defined outside
// the body, and readers that are the root.
//
//===----------------------------------------------------------------------===//

#include "CopyInsertionUtils.h"
#include "TransformUtils.h"

#include "Hlo/Analysis/HloDataflowAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/BufferAssignmentPasses.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOLOOPSCHEDULELINEARIZER
#include "Hlo/Transforms/BufferAssignmentPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

struct LoopScheduleLinearizerPass
    : ChangeReportingPass<LoopScheduleLinearizerPass,
                          hlo::impl::HloLoopScheduleLinearizerBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run();

private:
  /// True if `to` is reachable from `from` through data and control uses
  /// in their block, or if the walk visits more than `maxWalk` instructions.
  bool reaches(Operation *from, Operation *to) const;
  /// Adds the edges of one while body; true if it added one.
  bool linearize(const HloDataflowAnalysis &dataflow, ComputationOp body);
};

bool LoopScheduleLinearizerPass::reaches(Operation *from, Operation *to) const {
  Block *block = from->getBlock();
  SmallVector<Operation *> stack{from};
  llvm::SmallPtrSet<Operation *, 32> seen{from};
  int64_t visited = 0;
  while (!stack.empty()) {
    Operation *op = stack.pop_back_val();
    if (op == to || ++visited > maxWalk)
      return true;
    for (Operation *user : op->getUsers())
      if (user->getBlock() == block && seen.insert(user).second)
        stack.push_back(user);
  }
  return false;
}

bool LoopScheduleLinearizerPass::linearize(const HloDataflowAnalysis &dataflow,
                                           ComputationOp body) {
  if (body.getNumArguments() != 1 || body.getBody().empty())
    return false;
  Block &block = body.getBody().front();
  BlockArgument param = body.getArgument(0);
  Value root = body.getRootValue();
  bool added = false;
  unsigned node = 0;
  forEachSubshape(root.getType(), [&](Type t, ArrayRef<int64_t>) {
    unsigned leaf = node++;
    if (isa<TupleType>(t))
      return;
    auto [src, srcNode] = dataOrigin(dataflow, root, leaf);
    Operation *def = src.getDefiningOp();
    auto defInst = dyn_cast_or_null<InstructionOpInterface>(def);
    if (!defInst || def->getBlock() != &block)
      return;
    SmallVector<DataReader> readers;
    collectDataReaders(dataflow, param, leaf, readers);
    for (const DataReader &r : readers) {
      Operation *user = r.user;
      if (user == def || user->getBlock() != &block ||
          user->hasTrait<OpTrait::IsTerminator>() || user->getNumResults() != 1)
        continue;
      Value edge = user->getResult(0);
      if (llvm::is_contained(def->getOperands(), edge))
        continue; // already before it
      if (reaches(def, user)) {
        ++numCycles;
        continue;
      }
      defInst.getControlPredecessorsMutable().append(edge);
      ++numEdges;
      added = true;
    }
  });
  if (added)
    (void)sortTopologically(&block);
  return added;
}

void LoopScheduleLinearizerPass::run() {
  // Most modules have no loop: no analysis then.
  bool anyLoop = false;
  getOperation().walk([&](WhileOp) {
    anyLoop = true;
    return WalkResult::interrupt();
  });
  if (!anyLoop)
    return;
  HloDataflowAnalysis dataflow(getOperation());
  if (!dataflow.isAnalyzed())
    return;
  for (Operation *c : dataflow.getComputations())
    for (WhileOp loop : cast<ComputationOp>(c).getOps<WhileOp>())
      for (Operation *callee : dataflow.getCallees(loop)) {
        auto body = cast<ComputationOp>(callee);
        if (body.getSymName() == loop.getBody())
          changed |= linearize(dataflow, body);
      }
}

} // namespace
