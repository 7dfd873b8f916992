//===- AllGatherBroadcastReorder.cpp - gather before broadcasting ---------===//
//
// XLA's AllGatherBroadcastReorder: an all-gather of a broadcast moves the
// data the broadcast replicates through the collective; gathering the
// broadcast's operand and broadcasting afterwards moves less.
//   all-gather(broadcast(x)) -> broadcast(all-gather(x))
// when the gather dimension is one of x's dimensions (in broadcast
// dimensions), and otherwise
//   reshape(broadcast(all-gather(reshape(x to [1, x...]), dim 0)))
// where the broadcast splits the gather dimension in [participants,
// original size]. Applied only if some dimension besides the gather
// dimension and x's is larger than 1 (the broadcast then saves data). The
// module is skipped if an all-gather has a constrained layout, as in XLA.
//
//===----------------------------------------------------------------------===//

#include "CollectiveOptUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOALLGATHERBROADCASTREORDER
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct AllGatherBroadcastReorderPass
    : ChangeReportingPass<AllGatherBroadcastReorderPass,
                          hlo::impl::HloAllGatherBroadcastReorderBase> {
  int64_t nextChannelId = 1;

  void run() {
    ModuleOp module = getOperation();
    if (hasConstrainedLayout<AllGatherOp>(module))
      return;
    nextChannelId = hlo::nextChannelId(module);
    for (auto comp : module.getOps<ComputationOp>())
      for (auto ag :
           llvm::make_early_inc_range(comp.getBody().getOps<AllGatherOp>()))
        reorder(ag);
  }

  /// The attributes of a new all-gather like `ag` along `dim`.
  SmallVector<NamedAttribute> gatherAttrs(AllGatherOp ag, int64_t dim,
                                          OpBuilder &builder) {
    SmallVector<NamedAttribute> attrs = {
        builder.getNamedAttr("dimensions", builder.getDenseI64ArrayAttr(dim))};
    if (auto groups = ag.getReplicaGroupsAttr())
      attrs.push_back(builder.getNamedAttr("replica_groups", groups));
    if (auto global = ag.getUseGlobalDeviceIdsAttr())
      attrs.push_back(builder.getNamedAttr("use_global_device_ids", global));
    if (ag.getChannelId())
      attrs.push_back(builder.getNamedAttr(
          "channel_id", builder.getI64IntegerAttr(nextChannelId++)));
    return attrs;
  }

  void reorder(AllGatherOp ag) {
    if (ag.getInputs().size() != 1 || hasControlPredecessors(ag))
      return;
    auto bcast = ag.getInputs()[0].getDefiningOp<BroadcastOp>();
    auto type = dyn_cast<RankedTensorType>(ag.getType());
    if (!bcast || !type || !type.hasStaticShape() ||
        ag.getDimensions().size() != 1)
      return;
    int64_t agDim = ag.getDimensions()[0];
    Value x = bcast.getOperand();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    auto bcastType = dyn_cast<RankedTensorType>(bcast.getType());
    if (!xType || !xType.hasStaticShape() || !bcastType ||
        !bcastType.hasStaticShape() || agDim < 0 ||
        agDim >= bcastType.getRank() || bcastType.getShape()[agDim] == 0)
      return;
    ArrayRef<int64_t> bcastDims;
    if (auto dims = bcast.getDimensionsAttr())
      bcastDims = dims.asArrayRef();
    ArrayRef<int64_t> shape = type.getShape();

    // The size of the dimensions along which the data is the same.
    const auto *position = llvm::find(bcastDims, agDim);
    bool alongUniform = position == bcastDims.end();
    int64_t uniformSize = 1;
    for (auto [i, size] : llvm::enumerate(shape))
      if (int64_t(i) != agDim && !llvm::is_contained(bcastDims, int64_t(i)))
        uniformSize *= size;
    if (uniformSize == 1)
      return;

    OpBuilder builder(ag);
    Location loc = ag.getLoc();
    Type element = type.getElementType();
    Operation *replacement;
    if (!alongUniform) {
      // Gather x along its own dimension, then broadcast as before.
      int64_t xDim = position - bcastDims.begin();
      SmallVector<int64_t> gathered(xType.getShape());
      gathered[xDim] = shape[agDim];
      Operation *newAg =
          createInstruction(builder, loc, AllGatherOp::getOperationName(),
                            RankedTensorType::get(gathered, element), {x},
                            gatherAttrs(ag, xDim, builder));
      replacement = createInstruction(
          builder, loc, BroadcastOp::getOperationName(), type,
          {newAg->getResult(0)},
          {builder.getNamedAttr("dimensions", bcast.getDimensionsAttr())});
    } else {
      // x as [1, x...], gathered to [participants, x...], broadcast with
      // the gather dimension split in [participants, size] and reshaped.
      int64_t factor = shape[agDim] / bcastType.getShape()[agDim];
      SmallVector<int64_t> withOne = {1};
      llvm::append_range(withOne, xType.getShape());
      Operation *reshaped =
          createInstruction(builder, loc, ReshapeOp::getOperationName(),
                            RankedTensorType::get(withOne, element), {x});
      withOne[0] = factor;
      Operation *newAg = createInstruction(
          builder, loc, AllGatherOp::getOperationName(),
          RankedTensorType::get(withOne, element), {reshaped->getResult(0)},
          gatherAttrs(ag, 0, builder));
      SmallVector<int64_t> split(shape);
      split[agDim] = factor;
      split.insert(split.begin() + agDim + 1, shape[agDim] / factor);
      SmallVector<int64_t> dims = {agDim};
      for (int64_t d : bcastDims)
        dims.push_back(d > agDim ? d + 1 : d);
      Operation *broadcast = createInstruction(
          builder, loc, BroadcastOp::getOperationName(),
          RankedTensorType::get(split, element), {newAg->getResult(0)},
          {builder.getNamedAttr("dimensions",
                                builder.getDenseI64ArrayAttr(dims))});
      replacement =
          createInstruction(builder, loc, ReshapeOp::getOperationName(), type,
                            {broadcast->getResult(0)});
    }
    transferInstructionAttrs(ag, replacement);
    ag.getResult().replaceAllUsesWith(replacement->getResult(0));
    ag.erase();
    if (bcast->use_empty() && !hasControlPredecessors(bcast))
      bcast.erase();
    ++numReordered;
    changed = true;
  }
};
} // namespace
