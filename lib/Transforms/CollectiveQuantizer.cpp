//===- CollectiveQuantizer.cpp - collectives in the narrow type -----------===//
//
// XLA's CollectiveQuantizer: a collective that only moves data
// (all-gather, all-to-all, collective-broadcast, collective-permute of one
// array) moves it in the narrower of the two types a convert next to it
// gives:
//
//   quantization:   convert(narrow)(clamp(lo, coll(x) / scale, hi))
//                -> coll(convert(narrow)(clamp(lo, x / scale, hi)))
//   dequantization: coll(convert(wide)(y) * scale)
//                -> convert(wide)(coll(y)) * scale
//
// with bitcasts, copies, reshapes and slices allowed between the collective
// and the convert (they move to the other side, in the new type), and the
// scaled forms' multiply or divide by a broadcast scalar optional. All
// elementwise, so exact, when the scale is the same on every device of the
// collective: a scale makes the pass read HloReplicationAnalysis across
// partitions (XLA's rule: a module of several replicas keeps its scaled
// collectives).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/HloReplicationAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCOLLECTIVEQUANTIZER
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// Ops that move elements without computing: they commute with a convert.
static bool isMove(Operation *op) {
  return isa<BitcastOp, CopyOp, ReshapeOp, SliceOp>(op);
}

static int64_t byteWidth(Value v) {
  return (getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth() + 7) / 8;
}

/// A broadcast of a rank-0 value (of a constant with `constant`), or null.
static BroadcastOp scalarBroadcast(Value v, bool constant = false) {
  auto bcast = v.getDefiningOp<BroadcastOp>();
  auto scalar = bcast ? dyn_cast<RankedTensorType>(bcast.getOperand().getType())
                      : nullptr;
  if (!scalar || scalar.getRank() != 0 ||
      (constant && !bcast.getOperand().getDefiningOp<ConstantOp>()))
    return nullptr;
  return bcast;
}

namespace {
/// A convert next to a collective, the scaling around it, and the moves
/// between.
struct Quantization {
  ConvertOp convert;
  Operation *binary = nullptr; // multiply or divide by `scale`
  BroadcastOp scale;
  ClampOp clamp; // quantization only
  SmallVector<Operation *> moves;
};

struct CollectiveQuantizerPass
    : ChangeReportingPass<CollectiveQuantizerPass,
                          hlo::impl::HloCollectiveQuantizerBase> {
  int64_t numReplicas = 1, numPartitions = 1;
  const HloReplicationAnalysis *acrossPartitions = nullptr;

  void run() {
    ModuleOp module = getOperation();
    std::tie(numReplicas, numPartitions) = getDeviceCounts(module);
    SmallVector<Operation *> collectives;
    for (ComputationOp comp : nonFusionComputations(module))
      comp.walk([&](Operation *op) {
        if (isa<AllGatherOp, AllToAllOp, CollectiveBroadcastOp,
                CollectivePermuteOp>(op) &&
            getDataOperands(op).size() == 1 && op->getNumResults() == 1 &&
            isa<RankedTensorType>(op->getResult(0).getType()) &&
            !hasControlEdges(op))
          collectives.push_back(op);
      });
    if (collectives.empty())
      return;
    HloReplicationAnalysis replication(module, /*crossPartition=*/true);
    acrossPartitions = &replication;
    for (Operation *op : collectives) {
      bool done = false;
      if (std::optional<Quantization> q = matchDequantization(op))
        done = dequantize(op, *q);
      else if (std::optional<Quantization> q = matchQuantization(op))
        done = quantize(op, *q);
      if (done) {
        ++numQuantized;
        changed = true;
      }
    }
    acrossPartitions = nullptr;
  }

  /// Whether the scale is the same on every device `op` exchanges with.
  bool scaleAgrees(Quantization &q) const {
    return !q.scale || (numReplicas == 1 &&
                        acrossPartitions->isReplicated(q.scale.getResult()));
  }

  /// convert(wide)(y) [* or / scale] [moves] feeding `op`.
  std::optional<Quantization> matchDequantization(Operation *op) {
    Quantization q;
    Value v = getDataOperands(op)[0];
    while (Operation *def = v.getDefiningOp()) {
      if (auto convert = dyn_cast<ConvertOp>(def)) {
        if (byteWidth(convert.getResult()) > byteWidth(convert.getOperand()))
          q.convert = convert;
        break;
      }
      if (isMove(def)) {
        q.moves.push_back(def);
        v = def->getOperand(0);
        continue;
      }
      // The scaling reads the convert directly (the last step up).
      if (isa<MulOp, DivOp>(def)) {
        BroadcastOp scale = scalarBroadcast(def->getOperand(1));
        Value data = def->getOperand(0);
        if (!scale && isa<MulOp>(def)) {
          scale = scalarBroadcast(def->getOperand(0));
          data = def->getOperand(1);
        }
        auto convert = data.getDefiningOp<ConvertOp>();
        if (!scale || !convert)
          return std::nullopt;
        q.binary = def;
        q.scale = scale;
        v = data;
        continue;
      }
      return std::nullopt;
    }
    if (!q.convert || !scaleAgrees(q))
      return std::nullopt;
    std::reverse(q.moves.begin(), q.moves.end());
    return q;
  }

  /// `op` [moves] [clamp(lo, * or / scale, hi)] convert(narrow), each the
  /// only user of the one before.
  std::optional<Quantization> matchQuantization(Operation *op) {
    Quantization q;
    Value v = op->getResult(0);
    while (true) {
      OpOperand *found = soleUse(v);
      if (!found)
        return std::nullopt;
      OpOperand &use = *found;
      Operation *user = use.getOwner();
      if (isMove(user) && !q.binary && use.getOperandNumber() == 0) {
        q.moves.push_back(user);
      } else if (isa<MulOp, DivOp>(user) && !q.binary) {
        Value other = user->getOperand(1 - use.getOperandNumber());
        if ((isa<DivOp>(user) && use.getOperandNumber() != 0) ||
            !(q.scale = scalarBroadcast(other)))
          return std::nullopt;
        q.binary = user;
      } else if (auto clamp = dyn_cast<ClampOp>(user)) {
        if (!q.binary || q.clamp || use.getOperandNumber() != 1 ||
            !scalarBroadcast(clamp.getMin(), /*constant=*/true) ||
            !scalarBroadcast(clamp.getMax(), /*constant=*/true))
          return std::nullopt;
        q.clamp = clamp;
      } else if (auto convert = dyn_cast<ConvertOp>(user)) {
        if (byteWidth(convert.getResult()) >= byteWidth(convert.getOperand()) ||
            (q.binary && !q.clamp))
          return std::nullopt;
        q.convert = convert;
        break;
      } else {
        return std::nullopt;
      }
      v = user->getResult(0);
    }
    if (!scaleAgrees(q))
      return std::nullopt;
    return q;
  }

  /// `move` again on `v`, in `v`'s element type.
  static Value remove(OpBuilder &b, Operation *move, Value v) {
    Operation *copy = b.clone(*move);
    copy->setOperand(0, v);
    copy->getResult(0).setType(withElementType(
        move->getResult(0).getType(), getElementTypeOrSelf(v.getType())));
    return copy->getResult(0);
  }

  /// The collective `op` again on `v`, in `v`'s element type.
  static Value recollect(OpBuilder &b, Operation *op, Value v) {
    Operation *copy = b.clone(*op);
    copy->setOperand(0, v);
    copy->getResult(0).setType(withElementType(
        op->getResult(0).getType(), getElementTypeOrSelf(v.getType())));
    return copy->getResult(0);
  }

  /// A clone of `bcast` (a broadcast of a scalar) to the shape of `like`.
  static Value rebroadcast(OpBuilder &b, BroadcastOp bcast, Value like) {
    Operation *copy = b.clone(*bcast);
    copy->getResult(0).setType(
        withElementType(like.getType(), getElementTypeOrSelf(bcast.getType())));
    return copy->getResult(0);
  }

  bool dequantize(Operation *op, Quantization &q) {
    OpBuilder b(op);
    Value v = q.convert.getOperand();
    for (Operation *move : q.moves)
      v = remove(b, move, v);
    v = recollect(b, op, v);
    Operation *convert = b.clone(*q.convert);
    convert->setOperand(0, v);
    convert->getResult(0).setType(op->getResult(0).getType());
    Value result = convert->getResult(0);
    if (q.binary) {
      Value scale = rebroadcast(b, q.scale, result);
      Operation *binary = b.clone(*q.binary);
      binary->setOperands({result, scale});
      binary->getResult(0).setType(result.getType());
      result = binary->getResult(0);
    }
    op->getResult(0).replaceAllUsesWith(result);
    eraseWithDeadOperands(op);
    return true;
  }

  bool quantize(Operation *op, Quantization &q) {
    // At the convert: the scale and the clamp bounds are defined there.
    OpBuilder b(q.convert);
    Value v = getDataOperands(op)[0];
    if (q.binary) {
      Value scale = rebroadcast(b, q.scale, v);
      Operation *binary = b.clone(*q.binary);
      binary->setOperands({v, scale});
      binary->getResult(0).setType(v.getType());
      Value lo =
          rebroadcast(b, q.clamp.getMin().getDefiningOp<BroadcastOp>(), v);
      Value hi =
          rebroadcast(b, q.clamp.getMax().getDefiningOp<BroadcastOp>(), v);
      Operation *clamp = b.clone(*q.clamp);
      clamp->setOperands({lo, binary->getResult(0), hi});
      clamp->getResult(0).setType(v.getType());
      v = clamp->getResult(0);
    }
    Operation *convert = b.clone(*q.convert);
    convert->setOperand(0, v);
    convert->getResult(0).setType(withElementType(
        v.getType(), getElementTypeOrSelf(q.convert.getType())));
    v = recollect(b, op, convert->getResult(0));
    for (Operation *move : q.moves)
      v = remove(b, move, v);
    q.convert.getResult().replaceAllUsesWith(v);
    eraseWithDeadOperands(q.convert);
    if (op->use_empty())
      op->erase();
    return true;
  }
};
} // namespace
