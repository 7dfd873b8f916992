//===- HostMemoryTransferAsyncifier.cpp - host copies as async pairs ------===//
//
// XLA's HostMemoryTransferAsyncifier (the end of its "post-layout_assignment"
// pipeline): a copy between device and host memory, which
// hlo-host-offloader inserts,
//
//   h = f32[64,128]{1,0:S(5)} copy(x)
//
// becomes a copy-start / copy-done pair,
//
//   s = (f32[64,128]{1,0:S(5)}, f32[64,128]{1,0}, u32[]) copy-start(x)
//   h = f32[64,128]{1,0:S(5)} copy-done(s)
//
// so that the schedulers may start the transfer early and wait for it
// late, and the runtimes run it beside the kernels. Copies within one
// memory space stay copies.
//
//===----------------------------------------------------------------------===//

#include "LayoutUtils.h"
#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloMemoryAnnotations.h"
#include "Hlo/Transforms/HostOffloadPasses.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOHOSTMEMORYTRANSFERASYNCIFIER
#include "Hlo/Transforms/HostOffloadPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

struct HostMemoryTransferAsyncifierPass
    : ChangeReportingPass<HostMemoryTransferAsyncifierPass,
                          hlo::impl::HloHostMemoryTransferAsyncifierBase> {
  void run() {
    SmallVector<CopyOp> copies;
    getOperation().walk([&](CopyOp copy) {
      int64_t from = getMemorySpace(copy.getOperand().getType());
      int64_t to = getMemorySpace(copy.getType());
      if (from != to && (from == kHostMemorySpace || to == kHostMemorySpace) &&
          !hasControlEdges(copy))
        copies.push_back(copy);
    });
    for (CopyOp copy : copies) {
      OpBuilder b(copy);
      MLIRContext *ctx = &getContext();
      Type context = RankedTensorType::get(
          {}, IntegerType::get(ctx, 32, IntegerType::Unsigned));
      Type tuple = TupleType::get(
          ctx, {copy.getType(), copy.getOperand().getType(), context});
      // XLA's names: `copy-start` and `copy-done`.
      Operation *start = createInstruction(
          b, NameLoc::get(b.getStringAttr("copy-start"), copy.getLoc()),
          CopyStartOp::getOperationName(), tuple, {copy.getOperand()});
      Operation *done = createInstruction(
          b, NameLoc::get(b.getStringAttr("copy-done"), copy.getLoc()),
          CopyDoneOp::getOperationName(), copy.getType(),
          {start->getResult(0)});
      copy.getResult().replaceAllUsesWith(done->getResult(0));
      copy.erase();
      ++numAsync;
      changed = true;
    }
  }
};

} // namespace
