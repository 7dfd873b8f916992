//===- ShardingRemover.cpp - sharding annotations of one device removed ---===//
//
// XLA's ShardingRemover (XLA-GPU's "sharding-removal" pipeline, run instead
// of the SPMD partitioner): the custom calls that only annotate how a value
// is sharded, `Sharding`, `SPMDFullToShardShape`, `SPMDShardToFullShape`
// and Shardy's `xla.sdy.FuncResultSharding`, pass their one operand on
// unchanged when the program is not partitioned, so their users read the
// operand instead and the call goes; Shardy's `xla.sdy.ShardingGroup`,
// which nothing reads, goes too. Without it every such call became a copy
// in the compiled program (a corpus module's `Sharding`: a copy thunk and
// a kernel, where XLA launches the kernel alone).
//
// Left alone here (XLA does not check): calls whose result type differs
// from their operand's (a shard shape that is not the full shape: the
// program is partitioned), with control edges, or with another number of
// operands.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloShardingCalls.h"
#include "Hlo/Transforms/CollectivePasses.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSHARDINGREMOVER
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

struct ShardingRemoverPass
    : ChangeReportingPass<ShardingRemoverPass,
                          hlo::impl::HloShardingRemoverBase> {
  void run() {
    SmallVector<CustomCallOp> calls;
    getOperation().walk([&](CustomCallOp call) {
      StringRef target = call.getCustomCallTarget();
      if ((isShardingPassThroughTarget(target) ||
           target == kShardingGroupTarget) &&
          !hasControlEdges(call))
        calls.push_back(call);
    });
    for (CustomCallOp call : calls) {
      OperandRange in = getDataOperands(call);
      Value result = call->getResult(0);
      // A group must be unread; the others must pass their operand on.
      bool group = call.getCustomCallTarget() == kShardingGroupTarget;
      if (in.size() != 1 ||
          (group ? !result.use_empty() : in[0].getType() != result.getType()))
        continue;
      result.replaceAllUsesWith(in[0]);
      call.erase();
      ++numRemoved;
      changed = true;
    }
  }
};

} // namespace
