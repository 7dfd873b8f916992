//===- P2PSchedulePreparation.cpp - hlo-p2p-schedule-preparation ----------===//
//
// XLA's P2PSchedulePreparation: in each computation, the send, recv,
// send-done and recv-done of one channel (not host transfers) get control
// edges recv -> send -> recv-done -> send-done, so that every schedule runs
// the send before the recv-done that waits for it (an unpipelined chain).
// In a pipelined chain (XLA's collective pipeliner), a while body completes
// the transfer the previous iteration (or the code before the loop) started,
// its recv-done and send-done taking the loop-carried results of a recv and
// a send, and starts the next one, its recv and send leaving through the
// body's result: each -done op of the carried transfer gets an edge to each
// new start of its channel, so that the transfer in flight completes before
// the next one starts. An edge is left out where data and control uses
// already order the two (either way: the edge would add nothing, or close a
// cycle); the walks that decide it visit only what lies between the two in
// the block's order, and the block is sorted again (a stable topological
// sort) only after an edge that goes against that order.
//
//===----------------------------------------------------------------------===//

#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/BufferAssignmentPasses.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOP2PSCHEDULEPREPARATION
#include "Hlo/Transforms/BufferAssignmentPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// The instructions of one channel in one block: an unpipelined chain's
/// four, and a pipelined chain's -done ops whose start is not in the block
/// (`carried`) and starts whose -done op is not (`open`).
struct Chain {
  Operation *recv = nullptr, *send = nullptr, *recvDone = nullptr,
            *sendDone = nullptr;
  SmallVector<Operation *> carried, open;
};

/// Whether the start `op` (a send or recv) is completed in its own block.
bool completedHere(Operation *op) {
  return llvm::any_of(op->getUsers(), [&](Operation *user) {
    return isa<SendDoneOp, RecvDoneOp>(user) &&
           user->getBlock() == op->getBlock();
  });
}

/// Whether the -done op `op` completes a start of its own block.
bool startedHere(Operation *op) {
  Operation *start = op->getOperand(0).getDefiningOp();
  return start && isa<SendOp, RecvOp>(start) &&
         start->getBlock() == op->getBlock();
}

/// True if `to` is reachable from `from` through uses in their block (in
/// an order where every instruction follows its operands: only what lies
/// between the two is walked).
bool reaches(Operation *from, Operation *to) {
  if (to->isBeforeInBlock(from))
    return false;
  Block *block = from->getBlock();
  SmallVector<Operation *> stack{from};
  llvm::SmallPtrSet<Operation *, 32> seen{from};
  while (!stack.empty()) {
    Operation *op = stack.pop_back_val();
    if (op == to)
      return true;
    for (Operation *user : op->getUsers())
      if (user->getBlock() == block && !to->isBeforeInBlock(user) &&
          seen.insert(user).second)
        stack.push_back(user);
  }
  return false;
}

struct P2PSchedulePreparationPass
    : ChangeReportingPass<P2PSchedulePreparationPass,
                          hlo::impl::HloP2PSchedulePreparationBase> {
  using ChangeReportingPass::ChangeReportingPass;

  /// Makes `before` a control predecessor of `after` unless `before`
  /// already reaches `after` (the edge would add nothing), or `after`
  /// reaches `before`; true if it added the edge. The block is sorted again
  /// when the edge goes against its order.
  bool order(Operation *before, Operation *after) {
    Value edge = before->getResult(0);
    if (reaches(before, after) || reaches(after, before))
      return false;
    cast<InstructionOpInterface>(after).getControlPredecessorsMutable().append(
        edge);
    if (after->isBeforeInBlock(before))
      (void)sortTopologically(after->getBlock());
    ++numEdges;
    return true;
  }

  void run() {
    getOperation().walk([&](ComputationOp comp) {
      if (comp.getBody().empty())
        return;
      Block &block = comp.getBody().front();
      llvm::MapVector<int64_t, Chain> chains;
      for (Operation &op : block) {
        if (!isa<SendOp, RecvOp, SendDoneOp, RecvDoneOp>(op))
          continue;
        TransferChannel channel = getTransferChannel(&op);
        if (!channel.id || channel.host)
          continue;
        Chain &c = chains[*channel.id];
        bool start = isa<SendOp, RecvOp>(op);
        if (start ? !completedHere(&op) : !startedHere(&op)) {
          (start ? c.open : c.carried).push_back(&op);
          continue;
        }
        Operation *&slot = isa<RecvOp>(op)       ? c.recv
                           : isa<SendOp>(op)     ? c.send
                           : isa<RecvDoneOp>(op) ? c.recvDone
                                                 : c.sendDone;
        slot = slot ? slot : &op;
      }
      for (auto &[channel, c] : chains) {
        for (Operation *done : c.carried)
          for (Operation *start : c.open)
            changed |= order(done, start);
        if (!c.recv || !c.send || !c.recvDone || !c.sendDone)
          continue;
        changed |= order(c.recv, c.send);
        changed |= order(c.send, c.recvDone);
        changed |= order(c.recvDone, c.sendDone);
      }
    });
  }
};

} // namespace
