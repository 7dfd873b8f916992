//===- HloToThunkTransfers.cpp - hlo-to-thunk: infeed, outfeed, channels --===//
//
// XLA's host transfers and channels as thunks: `infeed` writes the arrays
// of its result's data element (`thunk.infeed`), `outfeed` reads those of
// its operand (`thunk.outfeed`), `send` reads its operand's arrays
// (`thunk.send`, the data element of its result a copy where the slices
// differ), `recv` writes its result's data element (`thunk.recv`) and
// `recv-done` forwards it; `send-done` holds no bytes.
//
//===----------------------------------------------------------------------===//

#include "HloToThunk.h"

using namespace mlir;
using namespace mlir::hlo;

LogicalResult ThunkLowering::lowerTransfer(Operation *op) {
  Location loc = op->getLoc();
  auto channel = [&]() -> std::pair<IntegerAttr, UnitAttr> {
    int64_t id = 0;
    if (auto a = op->getAttrOfType<IntegerAttr>("channel_id"))
      id = a.getInt();
    bool host = false;
    if (auto a = op->getAttrOfType<BoolAttr>("is_host_transfer"))
      host = a.getValue();
    return {b.getI64IntegerAttr(id), host ? b.getUnitAttr() : UnitAttr()};
  };
  if (isa<InfeedOp, RecvOp>(op)) {
    FailureOr<SmallVector<Value>> data = logicalSlices(op, op->getResult(0), 0);
    if (failed(data))
      return failure();
    if (isa<InfeedOp>(op)) {
      th::InfeedOp::create(b, loc, *data);
    } else {
      auto [id, host] = channel();
      th::RecvOp::create(b, loc, *data, id, host);
    }
    return success();
  }
  if (isa<OutfeedOp, SendOp>(op)) {
    Value operand = getDataOperands(op)[0];
    FailureOr<SmallVector<Value>> data = logicalSlices(op, operand);
    if (failed(data))
      return failure();
    if (isa<OutfeedOp>(op)) {
      th::OutfeedOp::create(b, loc, *data);
      return success();
    }
    auto [id, host] = channel();
    th::SendOp::create(b, loc, *data, id, host);
    // The result's data element holds the operand.
    FailureOr<SmallVector<Value>> forwarded =
        logicalSlices(op, op->getResult(0), 0);
    if (failed(forwarded))
      return failure();
    for (auto [from, to] : llvm::zip_equal(*data, *forwarded))
      copy(loc, from, to);
    return success();
  }
  if (isa<RecvDoneOp>(op)) {
    FailureOr<SmallVector<Value>> from =
        logicalSlices(op, getDataOperands(op)[0], 0);
    FailureOr<SmallVector<Value>> to = logicalSlices(op, op->getResult(0), 0);
    if (failed(from) || failed(to))
      return failure();
    for (auto [x, y] : llvm::zip_equal(*from, *to))
      copy(loc, x, y);
    return success();
  }
  // send-done: a token.
  return success();
}
