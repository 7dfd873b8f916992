//===- AsyncCollectiveCreator.cpp - collectives as start/done pairs -------===//
//
// XLA's AsyncCollectiveCreator as the GPU compiler configures it, with the
// GpuBackendConfig its AsyncCollectiveAnnotator then writes: every
// collective of an enabled kind becomes a start and a done at its place.
// all-reduce, all-gather and collective-permute have their own -start and
// -done opcodes; reduce-scatter, all-to-all, ragged-all-to-all and
// collective-broadcast are wrapped in a new computation run by
// async-start / async-done (seed 001).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOGPUASYNCCOLLECTIVECONVERSION
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The start's GpuBackendConfig: the collective's own (or XLA's default)
/// with the annotator's collective_backend_config after operation_queue_id.
static BackendConfigAttr startConfig(Operation *op) {
  MLIRContext *ctx = op->getContext();
  Builder b(ctx);
  auto text = [&](StringRef s) { return TextAttr::get(ctx, s); };
  auto own = readBackendConfig(op);
  // `is_pipelined` as hlo-collective-pipeliner set it.
  BackendConfigAttr ownCollective =
      own ? own.getCollectiveBackendConfig() : nullptr;
  bool pipelined =
      ownCollective && ownCollective.getBool("is_pipelined").value_or(false);
  auto collective = BackendConfigAttr::get(
      ctx, BackendConfigMessage::CollectiveBackendConfig,
      {b.getNamedAttr("is_sync", b.getBoolAttr(false)),
       b.getNamedAttr("is_pipelined", b.getBoolAttr(pipelined)),
       b.getNamedAttr("backend", text("\"DEFAULT\"")),
       b.getNamedAttr("collectives_mode", text("\"COLLECTIVES_MODE_INVALID\"")),
       b.getNamedAttr("kernel_strategy", text("\"KERNEL_STRATEGY_DEFAULT\""))});
  if (!own || own.getMessage() != BackendConfigMessage::Root)
    own = BackendConfigAttr::get(
        ctx, BackendConfigMessage::Root,
        {b.getNamedAttr("operation_queue_id", b.getI64IntegerAttr(0)),
         b.getNamedAttr("force_earliest_schedule", b.getBoolAttr(false)),
         b.getNamedAttr("reification_cost", text("[]")),
         b.getNamedAttr("device_type", text("\"DEVICE_TYPE_INVALID\""))});
  SmallVector<NamedAttribute> members;
  bool placed = false;
  for (auto [key, value] : llvm::zip(own.getKeys(), own.getValues())) {
    if (key.getValue() == "collective_backend_config")
      continue;
    members.push_back(NamedAttribute(key, value));
    if (key.getValue() == "operation_queue_id") {
      members.push_back(
          b.getNamedAttr("collective_backend_config", collective));
      placed = true;
    }
  }
  if (!placed)
    members.insert(members.begin(),
                   b.getNamedAttr("collective_backend_config", collective));
  return BackendConfigAttr::get(ctx, BackendConfigMessage::Root, members);
}

/// `op`'s attributes but its backend_config (and its location).
static SmallVector<NamedAttribute> ownAttrs(Operation *op) {
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute a : op->getAttrs())
    if (a.getName() != "backend_config" && a.getName() != "operandSegmentSizes")
      attrs.push_back(a);
  return attrs;
}

namespace {
struct AsyncCollectiveCreatorPass
    : ChangeReportingPass<AsyncCollectiveCreatorPass,
                          hlo::impl::HloGpuAsyncCollectiveConversionBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // Computations run asynchronously already are left alone.
    llvm::DenseSet<Operation *> wrapped;
    module.walk([&](AsyncStartOp start) {
      if (Operation *callee = symbols.lookup(start.getCalls()))
        wrapped.insert(callee);
    });
    for (ComputationOp comp : nonFusionComputations(module)) {
      if (wrapped.contains(comp))
        continue;
      for (Operation &op :
           llvm::make_early_inc_range(comp.getBody().front().getOperations()))
        convert(&op, comp, symbols);
    }
  }

  bool enabled(Operation *op) const {
    return (isa<AllReduceOp>(op) && convertAllReduce) ||
           (isa<AllGatherOp>(op) && convertAllGather) ||
           (isa<CollectivePermuteOp>(op) && convertCollectivePermute &&
            !isInPlacePermute(getDataOperands(op).getTypes())) ||
           (isa<ReduceScatterOp>(op) && convertReduceScatter) ||
           (isa<AllToAllOp>(op) && convertAllToAll) ||
           (isa<RaggedAllToAllOp>(op) && convertRaggedAllToAll) ||
           (isa<CollectiveBroadcastOp>(op) && convertCollectiveBroadcast);
  }

  void convert(Operation *op, ComputationOp comp, SymbolTable &symbols) {
    if (!enabled(op) || hasControlPredecessors(op) || isControlPredecessor(op))
      return;
    MLIRContext *ctx = op->getContext();
    OpBuilder builder(op);
    Type type = op->getResult(0).getType();
    SmallVector<Value> operands(getDataOperands(op));
    SmallVector<Type> operandTypes;
    for (Value v : operands)
      operandTypes.push_back(v.getType());
    Location md = derivedLoc(op->getLoc());
    auto named = [&](StringRef name) {
      return NameLoc::get(StringAttr::get(ctx, name), md);
    };
    SmallVector<NamedAttribute> attrs = ownAttrs(op);
    attrs.push_back(builder.getNamedAttr("backend_config", startConfig(op)));
    Attribute doneConfig = op->getAttr("backend_config");

    Operation *start = nullptr;
    StringRef doneName;
    std::string base;
    if (isa<AllReduceOp>(op)) {
      base = "all-reduce";
      start = createInstruction(builder, named("all-reduce-start"),
                                AllReduceStartOp::getOperationName(), type,
                                operands, attrs);
      doneName = AllReduceDoneOp::getOperationName();
    } else if (isa<AllGatherOp, CollectivePermuteOp>(op)) {
      bool gather = isa<AllGatherOp>(op);
      base = gather ? "all-gather" : "collective-permute";
      Type in = operands.size() == 1 ? operandTypes[0]
                                     : TupleType::get(ctx, operandTypes);
      start = createInstruction(
          builder, named(base + "-start"),
          gather ? AllGatherStartOp::getOperationName()
                 : CollectivePermuteStartOp::getOperationName(),
          TupleType::get(ctx, {in, type}), operands, attrs);
      doneName = gather ? AllGatherDoneOp::getOperationName()
                        : CollectivePermuteDoneOp::getOperationName();
    } else {
      // reduce-scatter, the all-to-alls, collective-broadcast: wrapped in
      // a computation.
      base = getOpcode(op);
      FlatSymbolRefAttr callee = wrap(op, comp, symbols);
      SmallVector<NamedAttribute> startAttrs = {
          builder.getNamedAttr("calls", callee),
          builder.getNamedAttr("backend_config", startConfig(op))};
      for (StringRef name : {"frontend_attributes", "sharding"})
        if (Attribute a = op->getAttr(name))
          startAttrs.push_back(builder.getNamedAttr(name, a));
      start = createInstruction(
          builder, named(base + "-start"), AsyncStartOp::getOperationName(),
          TupleType::get(ctx, {TupleType::get(ctx, operandTypes), type}),
          operands, startAttrs);
      doneName = AsyncDoneOp::getOperationName();
    }
    SmallVector<NamedAttribute> doneAttrs;
    if (doneConfig)
      doneAttrs.push_back(builder.getNamedAttr("backend_config", doneConfig));
    Operation *done =
        createInstruction(builder, named(base + "-done"), doneName, type,
                          {start->getResult(0)}, doneAttrs);
    op->getResult(0).replaceAllUsesWith(done->getResult(0));
    op->erase();
    ++numConverted;
    changed = true;
  }

  /// A new computation `async_computation` whose root is a copy of `op`
  /// applied to its parameters.
  FlatSymbolRefAttr wrap(Operation *op, ComputationOp comp,
                         SymbolTable &symbols) {
    MLIRContext *ctx = op->getContext();
    OpBuilder b(ctx);
    SmallVector<Type> inputs;
    for (Value v : getDataOperands(op))
      inputs.push_back(v.getType());
    Type type = op->getResult(0).getType();
    auto callee = ComputationOp::create(
        b, UnknownLoc::get(ctx), "async_computation",
        b.getStringAttr("private"), b.getFunctionType(inputs, {type}),
        /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr, /*entry=*/false,
        StringAttr());
    Block *body = new Block();
    callee.getBody().push_back(body);
    SmallVector<Value> params;
    for (auto [i, t] : llvm::enumerate(inputs))
      params.push_back(body->addArgument(
          t, NameLoc::get(b.getStringAttr("param_" + std::to_string(i)))));
    b.setInsertionPointToEnd(body);
    Operation *inner =
        createInstruction(b, op->getLoc(), op->getName().getStringRef(), type,
                          params, ownAttrs(op));
    if (Attribute config = op->getAttr("backend_config"))
      inner->setAttr("backend_config", config);
    ReturnOp::create(b, UnknownLoc::get(ctx), inner->getResult(0));
    symbols.insert(callee, Block::iterator(comp));
    return FlatSymbolRefAttr::get(callee.getSymNameAttr());
  }
};
} // namespace
