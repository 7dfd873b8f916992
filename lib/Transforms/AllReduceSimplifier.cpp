//===- AllReduceSimplifier.cpp - collectives that change nothing ----------===//
//
// XLA's AllReduceSimplifier, first in "collective-optimizations":
//
// - an all-gather or reduce-scatter whose result has its operand's shape
//   (a group of one) is its operand;
// - an all-reduce of one array over groups of one device is its operand;
// - an all-reduce without a channel id of a value every replica holds
//   alike (HloReplicationAnalysis, across replicas) is, for a sum,
//   `x * group size`, and for minimum, maximum, and, or, `x`:
//
//   %ar = f32[8,16] all-reduce(%p0), replica_groups={}, to_apply=%sum
//   (p0 replicated over 8 replicas)
// ->
//   %ar = f32[8,16] multiply(%p0, broadcast(convert(s32[] constant(8))))
//
// An all-reduce with a channel id only goes with groups of one device in a
// module of several partitions (XLA's SPMD condition). The analysis runs
// once, before any rewrite, as in XLA.
//
//===----------------------------------------------------------------------===//

#include "CollectiveCombinerUtils.h"
#include "CollectiveOptUtils.h"
#include "ExpanderUtils.h"
#include "Hlo/Analysis/HloReplicationAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOALLREDUCESIMPLIFIER
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct AllReduceSimplifierPass
    : ChangeReportingPass<AllReduceSimplifierPass,
                          hlo::impl::HloAllReduceSimplifierBase> {
  void run() {
    ModuleOp module = getOperation();
    auto [numReplicas, numPartitions] = getDeviceCounts(module);
    HloReplicationAnalysis replication(module, /*crossPartition=*/false);
    SymbolTable symbols(module);
    SmallVector<Operation *> sameShape;
    SmallVector<std::pair<AllReduceOp, int64_t>> allReduces;
    module.walk([&](Operation *op) {
      if (isa<AllGatherOp, ReduceScatterOp>(op)) {
        OperandRange inputs = getDataOperands(op);
        if (inputs.size() == 1 && op->getNumResults() == 1 &&
            inputs[0].getType() == op->getResult(0).getType() &&
            !hasControlEdges(op))
          sameShape.push_back(op);
        return;
      }
      auto ar = dyn_cast<AllReduceOp>(op);
      if (!ar || ar.getInputs().size() != 1 || hasControlEdges(ar) ||
          !isa<RankedTensorType>(ar.getResult().getType()))
        return;
      std::optional<int64_t> size =
          commonGroupSize(ar, numReplicas, numPartitions,
                          /*hasGlobalFlag=*/true);
      bool channel = ar.getChannelId().has_value();
      if (!size || (channel && (*size != 1 || numPartitions <= 1)))
        return;
      if (*size == 1 || replication.isReplicated(ar.getInputs()[0]))
        allReduces.push_back({ar, *size});
    });

    for (Operation *op : sameShape)
      replace(op, getDataOperands(op)[0]);
    for (auto [ar, size] : allReduces) {
      Value x = ar.getInputs()[0];
      if (size == 1) {
        replace(ar, x);
        continue;
      }
      ComputationOp reducer = symbols.lookup<ComputationOp>(ar.getToApply());
      if (!reducer || !reductionKind(symbols, ar.getToApplyAttr()))
        continue;
      Operation *root = reducer.getRootValue().getDefiningOp();
      if (isa<MinOp, MaxOp, AndOp, OrOp>(root)) {
        replace(ar, x);
      } else if (isa<AddOp>(root)) {
        OpBuilder b(ar);
        replace(ar, timesGroupSize(b, derivedLoc(ar.getLoc()), x, size));
      }
    }
  }

  /// `x * size`: the group size as an s32 constant, converted to x's
  /// element type and broadcast to its shape where needed (as XLA).
  Value timesGroupSize(OpBuilder &b, Location loc, Value x, int64_t size) {
    ExpansionBuilder eb(b, loc);
    auto type = cast<RankedTensorType>(x.getType());
    auto s32 = RankedTensorType::get({}, b.getIntegerType(32));
    Value factor = eb.create(
        ConstantOp::getOperationName(), s32, {},
        {b.getNamedAttr(
            "value", DenseElementsAttr::get(s32, b.getI32IntegerAttr(size)))});
    auto scalar = RankedTensorType::get({}, type.getElementType());
    if (scalar != s32)
      factor = eb.create(ConvertOp::getOperationName(), scalar, {factor});
    if (type.getRank() > 0)
      factor =
          eb.create(BroadcastOp::getOperationName(),
                    eb.withElementType(type, type.getElementType()), {factor},
                    {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({}))});
    return eb.create(MulOp::getOperationName(), type, {x, factor});
  }

  void replace(Operation *op, Value with) {
    op->getResult(0).replaceAllUsesWith(with);
    op->erase();
    ++numSimplified;
    changed = true;
  }
};
} // namespace
