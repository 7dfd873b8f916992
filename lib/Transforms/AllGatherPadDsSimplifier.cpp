//===- AllGatherPadDsSimplifier.cpp - slices of padded all-gathers --------===//
//
// XLA's AllGatherPadDsSimplifier (all-gather-pad-ds-simplifier). When the
// partitions slice windows out of a padded all-gather and the gathered rows
// land in one partition's window per group, that partition needs the
// blocks of its group and nobody needs the rest: a collective-permute per
// block, a concatenate with the padding around them, and a select giving
// every other partition the padding alone:
//
//   %ag  = f64[1,8,40] all-gather(f64[1,2,40] %p), dimensions={1},
//          replica_groups=[2,4]<=[8], channel_id=4, use_global_device_ids
//   %pad = f64[1,96,40] pad(%ag, %zero), padding=0_0x0_88x0_0
//   %ds  = f64[1,24,40] dynamic-slice(%pad, 0, table[partition-id], 0)
//          (table {0,24,48,72,0,24,48,72})
// ->
//   select(table2[partition-id] (true on 0 and 4),
//          concatenate(%p, collective-permute(%p) {{1,0},{5,4}}, ...,
//                      broadcast(%zero) of 16 rows),
//          broadcast(%zero))
//
//===----------------------------------------------------------------------===//

#include "CollectiveOptUtils.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOALLGATHERPADDSSIMPLIFIER
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// Where the gathered rows land among the partitions' windows.
struct Placement {
  /// The partitions whose window holds all gathered rows.
  SmallVector<int64_t> targets;
  /// The rows of padding before the gathered ones in a target's window.
  int64_t lead = 0;
};

struct AllGatherPadDsSimplifierPass
    : ChangeReportingPass<AllGatherPadDsSimplifierPass,
                          hlo::impl::HloAllGatherPadDsSimplifierBase> {
  void run() {
    ModuleOp module = getOperation();
    auto [numReplicas, numPartitions] = getDeviceCounts(module);
    if (numReplicas > 1 || numPartitions <= 1)
      return;
    nextChannel = nextChannelId(module);
    for (DynamicSliceOp ds :
         nonFusionOpsWithoutControlEdges<DynamicSliceOp>(module))
      if (simplify(ds, numPartitions)) {
        ++numSimplified;
        changed = true;
      }
  }

  /// The all-gather under `pad` if XLA's FLATTENED_ID mode groups it (a
  /// channel, global device ids, explicit groups) and it gathers one
  /// static array along one dimension.
  static AllGatherOp gatheredByPartitions(PadOp pad) {
    auto ag = pad.getOperand().getDefiningOp<AllGatherOp>();
    if (!ag || !ag->hasAttr("channel_id") ||
        !isFlagSet(ag, "use_global_device_ids") ||
        isFlagSet(ag, "constrain_layout") || ag.getInputs().size() != 1 ||
        ag->getNumResults() != 1 || ag.getDimensions().size() != 1 ||
        hasControlEdges(ag))
      return nullptr;
    if (!ag->getAttrOfType<ReplicaGroupsAttr>("replica_groups") ||
        !isStaticArray(ag.getInputs()[0].getType()))
      return nullptr;
    return ag;
  }

  /// Which partitions' windows [offset, offset + size) of the padded
  /// dimension hold the gathered rows [low, low + gathered); nothing if a
  /// window holds part of them, or the targets' windows hold them at
  /// different places (one concatenate serves all targets).
  static std::optional<Placement> placeRows(ArrayRef<int64_t> offsets,
                                            int64_t padded, int64_t size,
                                            int64_t low, int64_t gathered) {
    Placement placement;
    for (auto [p, offset] : llvm::enumerate(offsets)) {
      // dynamic-slice clamps its start into the operand.
      int64_t start = std::clamp<int64_t>(offset, 0, padded - size);
      if (start + size <= low || start >= low + gathered)
        continue;
      if (start > low || start + size < low + gathered)
        return std::nullopt;
      if (!placement.targets.empty() && placement.lead != low - start)
        return std::nullopt;
      placement.targets.push_back(p);
      placement.lead = low - start;
    }
    return placement;
  }

  bool simplify(DynamicSliceOp ds, int64_t numPartitions) {
    auto pad = ds.getOperand().getDefiningOp<PadOp>();
    if (!pad || hasControlEdges(pad))
      return false;
    AllGatherOp ag = gatheredByPartitions(pad);
    if (!ag)
      return false;
    Value operand = ag.getInputs()[0];
    auto piece = cast<RankedTensorType>(operand.getType());
    auto outType = dyn_cast<RankedTensorType>(ds.getType());
    auto padType = dyn_cast<RankedTensorType>(pad.getType());
    if (!outType || !padType || !outType.hasStaticShape() ||
        !padType.hasStaticShape())
      return false;
    int64_t dim = ag.getDimensions()[0];
    int64_t rank = padType.getRank();

    // Edge padding of the gathered dimension only, none inside; the slice
    // cuts that dimension only.
    PaddingAttr padding = pad.getPadding();
    for (int64_t d = 0; d < rank; ++d) {
      bool edges = padding.getLow()[d] != 0 || padding.getHigh()[d] != 0;
      if (padding.getInterior()[d] != 0 || padding.getLow()[d] < 0 ||
          padding.getHigh()[d] < 0 || (edges && d != dim) ||
          (d != dim && outType.getDimSize(d) != padType.getDimSize(d)))
        return false;
    }
    std::optional<SmallVector<int64_t>> offsets =
        partitionOffsets(ds.getStartIndices()[dim], numPartitions);
    if (!offsets)
      return false;

    // Each partition's group and its position there: block k of a group's
    // gathered rows is its k-th member's operand.
    SmallVector<SmallVector<int64_t>> groups =
        ag->getAttrOfType<ReplicaGroupsAttr>("replica_groups").getGroups();
    if (groups.empty())
      return false;
    int64_t groupSize = groups.front().size();
    SmallVector<int64_t> groupOf(numPartitions, -1);
    for (auto [g, group] : llvm::enumerate(groups)) {
      if (int64_t(group.size()) != groupSize)
        return false;
      for (int64_t p : group) {
        if (p < 0 || p >= numPartitions || groupOf[p] != -1)
          return false;
        groupOf[p] = g;
      }
    }
    int64_t shard = piece.getDimSize(dim);
    int64_t gathered = shard * groupSize;
    if (llvm::is_contained(groupOf, -1) || shard == 0 ||
        gathered != padType.getDimSize(dim) - padding.getLow()[dim] -
                        padding.getHigh()[dim])
      return false;

    std::optional<Placement> placement =
        placeRows(*offsets, padType.getDimSize(dim), outType.getDimSize(dim),
                  padding.getLow()[dim], gathered);
    if (!placement)
      return false;
    // A member sends its block to one target of its group at most.
    SmallVector<bool> groupHasTarget(groups.size(), false);
    for (int64_t t : placement->targets) {
      if (groupHasTarget[groupOf[t]])
        return false;
      groupHasTarget[groupOf[t]] = true;
    }

    OpBuilder builder(ds);
    InstBuilder ib(builder, derivedLoc(ds.getLoc()));
    Value padValue = pad.getPaddingValue();
    auto padRows = [&](int64_t rows) {
      SmallVector<int64_t> shape(outType.getShape());
      shape[dim] = rows;
      return ib.create<BroadcastOp>(
          RankedTensorType::get(shape, outType.getElementType(),
                                outType.getEncoding()),
          padValue,
          {builder.getNamedAttr("dimensions",
                                builder.getDenseI64ArrayAttr({}))});
    };
    Value result;
    if (placement->targets.empty()) {
      // No window holds a gathered row: every partition gets padding.
      result = padRows(outType.getDimSize(dim));
    } else {
      result =
          assemble(ib, ag, groups, groupOf, *placement, padRows, outType, dim);
      if (int64_t(placement->targets.size()) != numPartitions)
        result = selectOnTargets(ib, placement->targets, numPartitions, result,
                                 padRows(outType.getDimSize(dim)));
    }
    // The new instruction takes the slice's name (not the operand, when
    // the operand alone is every partition's window).
    if (result != operand) {
      result.getDefiningOp()->setLoc(ds.getLoc());
      transferInstructionAttrs(ds, result.getDefiningOp());
    }
    ds.getResult().replaceAllUsesWith(result);
    eraseWithDeadOperands(ds);
    if (ag->use_empty())
      ag.erase();
    return true;
  }

  /// A target's window: the padding before the gathered rows, each block
  /// (the operand itself where every target owns that block, else a
  /// collective-permute from each target group's member owning it), the
  /// padding after them.
  Value assemble(InstBuilder &ib, AllGatherOp ag,
                 ArrayRef<SmallVector<int64_t>> groups,
                 ArrayRef<int64_t> groupOf, const Placement &placement,
                 function_ref<Value(int64_t)> padRows, RankedTensorType outType,
                 int64_t dim) {
    OpBuilder &builder = ib.getBuilder();
    Value operand = ag.getInputs()[0];
    int64_t gathered = 0;
    SmallVector<Value> pieces;
    if (placement.lead > 0)
      pieces.push_back(padRows(placement.lead));
    for (size_t k = 0; k < groups.front().size(); ++k) {
      SmallVector<Attribute> pairs;
      bool own = true;
      for (int64_t t : placement.targets) {
        int64_t owner = groups[groupOf[t]][k];
        own &= owner == t;
        pairs.push_back(builder.getDenseI64ArrayAttr({owner, t}));
      }
      if (own) {
        pieces.push_back(operand);
      } else {
        pieces.push_back(ib.create<CollectivePermuteOp>(
            operand.getType(), operand,
            {builder.getNamedAttr("source_target_pairs",
                                  builder.getArrayAttr(pairs)),
             builder.getNamedAttr("channel_id",
                                  builder.getI64IntegerAttr(nextChannel++))}));
      }
      gathered += cast<RankedTensorType>(operand.getType()).getDimSize(dim);
    }
    int64_t tail = outType.getDimSize(dim) - placement.lead - gathered;
    if (tail > 0)
      pieces.push_back(padRows(tail));
    if (pieces.size() == 1)
      return pieces.front();
    return ib.create<ConcatenateOp>(
        outType, pieces,
        {builder.getNamedAttr("dimensions",
                              builder.getDenseI64ArrayAttr({dim}))});
  }

  /// `onTargets` on the partitions among `targets`, `elsewhere` on the
  /// others: a select on a table of them read at the partition id.
  static Value selectOnTargets(InstBuilder &ib, ArrayRef<int64_t> targets,
                               int64_t numPartitions, Value onTargets,
                               Value elsewhere) {
    OpBuilder &builder = ib.getBuilder();
    SmallVector<bool> isTarget(numPartitions, false);
    for (int64_t t : targets)
      isTarget[t] = true;
    auto tableType =
        RankedTensorType::get({numPartitions}, builder.getI1Type());
    Value table = ib.create<ConstantOp>(
        tableType, {},
        {builder.getNamedAttr(
            "value", DenseElementsAttr::get(tableType, ArrayRef(isTarget)))});
    auto u32 = RankedTensorType::get(
        {}, IntegerType::get(builder.getContext(), 32, IntegerType::Unsigned));
    Value partition = ib.create<PartitionIdOp>(u32, {});
    Value pred = ib.reshape(ib.dynamicSlice(table, {partition}, {1}), {});
    auto type = cast<RankedTensorType>(onTargets.getType());
    Value mask = ib.create<BroadcastOp>(
        RankedTensorType::get(type.getShape(), builder.getI1Type()), pred,
        {builder.getNamedAttr("dimensions", builder.getDenseI64ArrayAttr({}))});
    return ib.create<SelectOp>(type, {mask, onTargets, elsewhere});
  }

  int64_t nextChannel = 1;
};
} // namespace
