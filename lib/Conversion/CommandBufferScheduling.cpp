//===- CommandBufferScheduling.cpp - hlo-command-buffer-scheduling --------===//
//
// XLA's CommandBufferScheduling on thunk programs: maximal runs of
// recordable thunks (kernels, GEMMs, copies, memsets) become
// `thunk.command_buffer`s. One walk over each block: linear in the number
// of thunks.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Conversion/Passes.h"
#include "Hlo/Dialect/Thunk/ThunkDialect.h"

#include "mlir/IR/Builders.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCOMMANDBUFFERSCHEDULING
#include "Hlo/Conversion/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::thunk;

static bool isRecordable(Operation &op) {
  return isa<KernelOp, GemmOp, CopyOp, MemsetOp>(op);
}

namespace {
struct CommandBufferSchedulingPass
    : hlo::impl::HloCommandBufferSchedulingBase<CommandBufferSchedulingPass> {
  using HloCommandBufferSchedulingBase::HloCommandBufferSchedulingBase;

  void runOnOperation() override {
    if (minGraphSize < 1) {
      getOperation().emitError("hlo-command-buffer-scheduling: "
                               "min-graph-size must be at least 1");
      return signalPassFailure();
    }
    SmallVector<Block *> blocks;
    for (auto program : getOperation().getOps<ProgramOp>())
      program.walk([&](Block *block) {
        // Blocks of sequences only: a command buffer is recorded already.
        if (!isa<CommandBufferOp>(block->getParentOp()))
          blocks.push_back(block);
      });
    for (Block *block : blocks)
      schedule(*block);
  }

  /// Wraps each long enough run of recordable thunks of `block`.
  void schedule(Block &block) {
    SmallVector<Operation *> run; // recordable thunks and slices
    int64_t thunks = 0;
    auto flush = [&] {
      if (thunks >= minGraphSize)
        wrap(run);
      run.clear();
      thunks = 0;
    };
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (isRecordable(op)) {
        run.push_back(&op);
        ++thunks;
      } else if (isa<SliceOp>(op) && thunks) {
        run.push_back(&op);
      } else if (!isa<SliceOp>(op)) {
        flush();
      }
    }
    flush();
  }

  /// Moves the thunks of `run` into a new command buffer placed at the
  /// first of them; its slices stay in front of it.
  void wrap(ArrayRef<Operation *> run) {
    Operation *first =
        *llvm::find_if(run, [](Operation *op) { return isRecordable(*op); });
    for (Operation *op : run)
      if (isa<SliceOp>(op))
        op->moveBefore(first);
    OpBuilder builder(first);
    auto buffer = CommandBufferOp::create(builder, first->getLoc());
    Block *body = builder.createBlock(&buffer.getBody());
    for (Operation *op : run)
      if (isRecordable(*op))
        op->moveBefore(body, body->end());
  }
};
} // namespace
