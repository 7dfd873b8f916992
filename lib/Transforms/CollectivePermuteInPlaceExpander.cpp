//===- CollectivePermuteInPlaceExpander.cpp - in-place permute as HLO -----===//
//
// The in-place collective-permute (input, output, input and output start
// indices, slice_sizes; XLA's TPU form, which XLA's GPU compiler does not
// take) as ordinary HLO that every backend runs. For each buffer b and
// start-index entry k: the source dynamic-slices its input at its k-th
// input start indices, a plain collective-permute with the pairs of chunk k
// moves the slices, and the target dynamic-update-slices what it received
// into its output at its k-th output start indices. A device that is no
// target of chunk k keeps its output: a select on a constant table of the
// chunk's targets, indexed by replica-id (partition-id with a channel_id),
// left out when every device is a target. A collective-permute-start whose
// only user is its done is expanded at the done. The new permutes keep the
// op's channel_id mode with fresh channel ids.
//
//===----------------------------------------------------------------------===//

#include "CollectiveOptUtils.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCOLLECTIVEPERMUTEINPLACEEXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct CollectivePermuteInPlaceExpanderPass
    : ChangeReportingPass<CollectivePermuteInPlaceExpanderPass,
                          hlo::impl::HloCollectivePermuteInPlaceExpanderBase> {
  int64_t nextChannelId = 1;
  int64_t numReplicas = 1, numPartitions = 1;

  void run() {
    ModuleOp module = getOperation();
    std::tie(numReplicas, numPartitions) = getDeviceCounts(module);
    // (the in-place op, the op whose result it gives: itself or its done)
    SmallVector<std::pair<Operation *, Operation *>> worklist;
    nextChannelId = hlo::nextChannelId(module);
    module.walk([&](Operation *op) {
      if (!isa<CollectivePermuteOp, CollectivePermuteStartOp>(op) ||
          !isInPlacePermute(getDataOperands(op).getTypes()) ||
          hasControlPredecessors(op))
        return;
      Operation *result = op;
      if (isa<CollectivePermuteStartOp>(op)) {
        if (!op->hasOneUse() ||
            !isa<CollectivePermuteDoneOp>(*op->user_begin()) ||
            hasControlPredecessors(*op->user_begin()))
          return;
        result = *op->user_begin();
      }
      worklist.push_back({op, result});
    });
    for (auto [op, result] : worklist) {
      if (failed(expand(op, result)))
        return signalPassFailure();
      ++numExpanded;
      changed = true;
    }
  }

  /// The start indices of entry `k` in one buffer's start indices
  /// `offsets` for a buffer of `rank` dimensions.
  static SmallVector<Value> startsOf(InstBuilder &ib, Value offsets, int64_t k,
                                     int64_t rank) {
    auto tuple = cast<TupleType>(offsets.getType());
    if (tuple.size() > 0 && isa<TupleType>(tuple.getType(0)))
      offsets = ib.getTupleElement(offsets, k);
    SmallVector<Value> starts;
    for (int64_t d = 0; d < rank; ++d) {
      // A one-element array (XLA takes those too) as the scalar it holds.
      Value start = ib.getTupleElement(offsets, d);
      if (tensorType(start).getRank() != 0)
        start = ib.reshape(start, {});
      starts.push_back(start);
    }
    return starts;
  }

  LogicalResult expand(Operation *op, Operation *result) {
    ValueRange operands = getDataOperands(op);
    auto pairsAttr = op->getAttrOfType<ArrayAttr>("source_target_pairs");
    FailureOr<InPlacePermute> form = verifyInPlacePermute(
        [&]() { return op->emitOpError(); }, operands.getTypes(),
        op->getAttrOfType<ArrayAttr>("slice_sizes"));
    if (failed(form))
      return failure();
    bool byPartition = op->hasAttr("channel_id");
    int64_t numIds = byPartition ? numPartitions : numReplicas;
    ArrayRef<Attribute> pairs =
        pairsAttr ? pairsAttr.getValue() : ArrayRef<Attribute>();
    size_t chunk = pairs.size() / form->entries;

    OpBuilder builder(result);
    InstBuilder ib(builder, op->getLoc());
    MLIRContext *ctx = op->getContext();
    auto bufferOf = [&](Value v, size_t b) {
      return form->tuple ? ib.getTupleElement(v, b) : v;
    };
    // Per chunk, whether this device is one of its targets (null when all
    // are).
    Value deviceId;
    SmallVector<Value> isTarget;
    for (int64_t k = 0; k < form->entries; ++k) {
      SmallVector<bool> targets(numIds, false);
      for (Attribute a : pairs.slice(k * chunk, chunk)) {
        int64_t target = cast<DenseI64ArrayAttr>(a)[1];
        if (target >= numIds)
          return op->emitOpError("target ")
                 << target << " is out of range [0, " << numIds << ") ("
                 << (byPartition ? "partition" : "replica") << " ids)";
        targets[target] = true;
      }
      if (llvm::all_of(targets, [](bool t) { return t; })) {
        isTarget.push_back(Value());
        continue;
      }
      auto u32 = RankedTensorType::get(
          {}, IntegerType::get(ctx, 32, IntegerType::Unsigned));
      if (!deviceId)
        deviceId = byPartition ? ib.create<PartitionIdOp>(u32, {})
                               : ib.create<ReplicaIdOp>(u32, {});
      auto tableType = RankedTensorType::get({numIds}, builder.getI1Type());
      Value table = ib.create<ConstantOp>(
          tableType, {},
          {builder.getNamedAttr(
              "value", DenseElementsAttr::get(tableType, ArrayRef(targets)))});
      isTarget.push_back(
          ib.reshape(ib.dynamicSlice(table, {deviceId}, {1}), {}));
    }

    SmallVector<Value> outputs;
    for (size_t b = 0; b < form->inputs.size(); ++b) {
      Value input = bufferOf(operands[0], b);
      Value acc = bufferOf(operands[1], b);
      Value inStarts = bufferOf(operands[2], b);
      Value outStarts = bufferOf(operands[3], b);
      int64_t rank = form->inputs[b].getRank();
      for (int64_t k = 0; k < form->entries; ++k) {
        ArrayRef<int64_t> sizes = form->sliceSizes[b * form->entries + k];
        Value slice =
            ib.dynamicSlice(input, startsOf(ib, inStarts, k, rank), sizes);
        SmallVector<NamedAttribute> attrs = {builder.getNamedAttr(
            "source_target_pairs",
            builder.getArrayAttr(pairs.slice(k * chunk, chunk)))};
        if (byPartition)
          attrs.push_back(builder.getNamedAttr(
              "channel_id", builder.getI64IntegerAttr(nextChannelId++)));
        Value received =
            ib.create<CollectivePermuteOp>(slice.getType(), {slice}, attrs);
        SmallVector<Value> starts = startsOf(ib, outStarts, k, rank);
        if (Value target = isTarget[k]) {
          Value mask = ib.create<BroadcastOp>(
              RankedTensorType::get(sizes, builder.getI1Type()), {target},
              {builder.getNamedAttr("dimensions",
                                    builder.getDenseI64ArrayAttr({}))});
          Value current = ib.dynamicSlice(acc, starts, sizes);
          received = ib.create<SelectOp>(received.getType(),
                                         {mask, received, current});
        }
        acc = ib.dynamicUpdateSlice(acc, received, starts);
      }
      outputs.push_back(acc);
    }
    Value value = form->tuple ? ib.tuple(outputs) : outputs[0];
    if (value.getType() != result->getResult(0).getType())
      value = ib.create<CopyOp>(result->getResult(0).getType(), {value});
    transferInstructionAttrs(result, value.getDefiningOp());
    result->getResult(0).replaceAllUsesWith(value);
    result->erase();
    if (op != result)
      op->erase();
    return success();
  }
};
} // namespace
