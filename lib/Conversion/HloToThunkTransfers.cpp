//===- HloToThunkTransfers.cpp - hlo-to-thunk: infeed, outfeed, channels --===//
//
// XLA's host transfers and channels as thunks: `infeed` writes the arrays
// of its result's data element (`thunk.infeed`), `outfeed` reads those of
// its operand (`thunk.outfeed`), `send` reads its operand's arrays
// (`thunk.send`, the data element of its result a copy where the slices
// differ), `recv-done` writes its operand's data element (`thunk.recv`:
// the data arrives at the done) and forwards it; `recv` and `send-done`
// move no bytes. A send between devices (XLA's source-target pairs) is a
// `thunk.collective_permute` of the send's arrays into staging slices of
// the channel (an allocation of their own, typed as the recv's data), which
// its recv-done copies out: a device that is no target reads zeros.
//
//===----------------------------------------------------------------------===//

#include "HloToThunk.h"

#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"

using namespace mlir;
using namespace mlir::hlo;

using DevicePairs = SmallVector<std::pair<int64_t, int64_t>>;

RecvOp ThunkLowering::recvOfChannel(int64_t channel) {
  if (!recvs) {
    recvs.emplace();
    // Without a channel_id: channel 0, as the thunks name it.
    module.walk([&](RecvOp recv) {
      recvs->try_emplace(getTransferChannel(recv).id.value_or(0), recv);
    });
  }
  return recvs->lookup(channel);
}

SmallVector<Value> ThunkLowering::channelStaging(Location loc, int64_t channel,
                                                 TypeRange types) {
  SmallVector<Value> &slices = staging[channel];
  if (!slices.empty())
    return slices;
  int64_t bytes = 0;
  SmallVector<int64_t> offsets;
  for (Type t : types) {
    offsets.push_back(bytes);
    bytes += llvm::alignTo(th::getStorageBytes(cast<MemRefType>(t)), 256);
  }
  int64_t allocation = addTemporaryAllocation(loc, bytes);
  for (auto [t, offset] : llvm::zip_equal(types, offsets))
    slices.push_back(sliceOf(loc, allocation, offset, cast<MemRefType>(t)));
  return slices;
}

LogicalResult ThunkLowering::lowerTransfer(Operation *op) {
  Location loc = op->getLoc();
  TransferChannel channel = getTransferChannel(op);
  int64_t id = channel.id.value_or(0);
  UnitAttr host = channel.host ? b.getUnitAttr() : UnitAttr();
  // The device pairs of a send or recv between devices.
  auto pairsOf =
      [&](Operation *transfer) -> FailureOr<std::optional<DevicePairs>> {
    std::string error;
    auto pairs = getSendRecvPairs(transfer, numReplicas, numPartitions, error);
    if (failed(pairs))
      return transfer->emitError("hlo-to-thunk: ") << error;
    return pairs;
  };
  if (isa<InfeedOp>(op)) {
    FailureOr<SmallVector<Value>> data = logicalSlices(op, op->getResult(0), 0);
    if (failed(data))
      return failure();
    th::InfeedOp::create(b, loc, *data);
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
    auto pairs = pairsOf(op);
    if (failed(pairs))
      return failure();
    if (*pairs) {
      // Into the channel's staging, typed as what the recv receives.
      SmallVector<Type> types = llvm::to_vector(ValueRange(*data).getTypes());
      if (RecvOp recv = recvOfChannel(id)) {
        FailureOr<SmallVector<Value>> received =
            logicalSlices(op, recv->getResult(0), 0);
        if (failed(received))
          return failure();
        types = llvm::to_vector(ValueRange(*received).getTypes());
      }
      SmallVector<Attribute> pairAttrs;
      for (auto [source, target] : **pairs)
        pairAttrs.push_back(b.getDenseI64ArrayAttr({source, target}));
      th::CollectivePermuteOp::create(b, loc, b.getArrayAttr(pairAttrs), *data,
                                      channelStaging(loc, id, types),
                                      IntegerAttr());
    } else {
      th::SendOp::create(b, loc, *data, b.getI64IntegerAttr(id), host);
    }
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
    std::optional<DevicePairs> pairs;
    if (RecvOp recv = recvOfChannel(id)) {
      auto recvPairs = pairsOf(recv);
      if (failed(recvPairs))
        return failure();
      pairs = std::move(*recvPairs);
    }
    if (pairs) {
      SmallVector<Value> staged =
          channelStaging(loc, id, ValueRange(*from).getTypes());
      for (auto [x, y] : llvm::zip_equal(staged, *from))
        copy(loc, x, y);
    } else {
      th::RecvOp::create(b, loc, *from, b.getI64IntegerAttr(id), host);
    }
    for (auto [x, y] : llvm::zip_equal(*from, *to))
      copy(loc, x, y);
    return success();
  }
  // recv and send-done: no bytes move.
  return success();
}
