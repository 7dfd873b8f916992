//===- ReduceScatterCreator.cpp - all-reduce + own slice = reduce-scatter -===//
//
// XLA's ReduceScatterCreator (GPU), with XLA's MatchReduceScatter: an
// all-reduce whose one user takes, on each participant, the participant's
// own block along one dimension
//   dynamic-slice(all-reduce(x), ..., offset(id), ...)   [or through a
//                                                          reshape]
// is a reduce-scatter of x along that dimension. The match (offsets that
// provably pick each device's block) is XLA's MatchWithDynamicSlice,
// CollectiveOptUtils.h.
//
//===----------------------------------------------------------------------===//

#include "CollectiveOptUtils.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "TransformUtils.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOREDUCESCATTERCREATOR
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct ReduceScatterCreatorPass
    : ChangeReportingPass<ReduceScatterCreatorPass,
                          hlo::impl::HloReduceScatterCreatorBase> {
  int64_t nextChannelId = 1;
  int64_t numReplicas = 1, numPartitions = 1;

  void run() {
    ModuleOp module = getOperation();
    std::tie(numReplicas, numPartitions) = getDeviceCounts(module);
    SymbolTable symbols(module);
    llvm::DenseSet<Operation *> fused;
    nextChannelId = hlo::nextChannelId(module);
    module.walk([&](Operation *op) {
      if (auto fusion = dyn_cast<FusionOp>(op))
        if (Operation *callee = symbols.lookup(fusion.getCalls()))
          fused.insert(callee);
    });
    for (auto comp : module.getOps<ComputationOp>())
      if (!fused.contains(comp))
        for (auto ar :
             llvm::make_early_inc_range(comp.getBody().getOps<AllReduceOp>()))
          create(ar);
  }

  void create(AllReduceOp ar) {
    std::optional<OwnBlockSlice> match =
        matchOwnBlockSlice(ar, numReplicas, numPartitions);
    if (!match)
      return;
    auto [ds, reshape, splitDim, groupSize] = *match;
    auto type = cast<RankedTensorType>(ar.getType());
    OpBuilder builder(ds);
    Location loc = ar.getLoc();
    Value input = ar.getInputs()[0];
    SmallVector<int64_t> shape(type.getShape());
    int64_t scattered = shape[splitDim] / groupSize;
    if (shape[splitDim] % groupSize != 0) {
      // Only the blocks the slices read.
      SmallVector<int64_t> starts(shape.size(), 0), strides(shape.size(), 1);
      shape[splitDim] = scattered * groupSize;
      input = createInferred<SliceOp>(
                  builder, loc, {input},
                  {builder.getNamedAttr(
                      "slice", SliceAttr::get(builder.getContext(), starts,
                                              shape, strides))})
                  .getResult();
    }
    shape[splitDim] = scattered;
    SmallVector<NamedAttribute> attrs = {
        builder.getNamedAttr("dimensions",
                             builder.getDenseI64ArrayAttr(splitDim)),
        builder.getNamedAttr("to_apply", ar.getToApplyAttr())};
    if (auto groups = ar.getReplicaGroupsAttr())
      attrs.push_back(builder.getNamedAttr("replica_groups", groups));
    if (ar.getChannelId())
      attrs.push_back(builder.getNamedAttr(
          "channel_id", builder.getI64IntegerAttr(nextChannelId++)));
    if (auto global = ar.getUseGlobalDeviceIdsAttr())
      attrs.push_back(builder.getNamedAttr("use_global_device_ids", global));
    Operation *rs = createInstruction(
        builder, loc, ReduceScatterOp::getOperationName(),
        RankedTensorType::get(shape, type.getElementType()), {input}, attrs);
    Operation *result = rs;
    if (reshape)
      result = createInstruction(builder, reshape.getLoc(),
                                 ReshapeOp::getOperationName(), ds.getType(),
                                 {rs->getResult(0)});
    transferInstructionAttrs(ds, result);
    ds.getResult().replaceAllUsesWith(result->getResult(0));
    ds.erase();
    if (reshape)
      reshape.erase();
    ar.erase();
    ++numCreated;
    changed = true;
  }
};
} // namespace
