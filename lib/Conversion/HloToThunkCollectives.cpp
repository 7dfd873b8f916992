//===- HloToThunkCollectives.cpp - hlo-to-thunk of the collectives --------===//
//
// all-reduce, all-gather, reduce-scatter, all-to-all, ragged-all-to-all,
// collective-permute and collective-broadcast (synchronous, their
// -start/-done forms, and wrapped in async-start / async-done as XLA's GPU
// pipeline leaves reduce-scatter and the all-to-alls) become the collective
// thunks, their groups resolved to device ids for the module's replica_count x
// num_partitions devices (HloDeviceGroups.h); replica-id and partition-id
// become `thunk.device_id`. The thunk of an asynchronous collective is put at
// its start with an `async_id` (it runs on the device's collective stream), its
// done becomes `thunk.collective_done` of that id and copies the result where
// the done's slices differ; a start XLA made synchronous (is_sync) runs where
// it is.
//
//===----------------------------------------------------------------------===//

#include "HloToThunk.h"

#include "EmitterUtils.h"

#include "Hlo/Analysis/GpuLatencyEstimator.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"

#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::hlo;

FailureOr<SmallVector<Value>>
ThunkLowering::logicalSlices(Operation *at, Value value,
                             std::optional<unsigned> element) {
  Type type = value.getType();
  unsigned first = 0;
  if (element) {
    auto tuple = dyn_cast<TupleType>(type);
    if (!tuple || *element >= tuple.size())
      return at->emitError("hlo-to-thunk: no element ")
                 << *element << " in " << type,
             failure();
    first = 1;
    for (unsigned i = 0; i < *element; ++i)
      first += getNumSubshapes(tuple.getType(i));
    type = tuple.getType(*element);
  }
  SmallVector<Value> result;
  LogicalResult status = success();
  unsigned node = first;
  forEachSubshape(type, [&](Type sub, ArrayRef<int64_t>) {
    auto tensor = dyn_cast<RankedTensorType>(sub);
    unsigned mine = node++;
    if (!tensor || failed(status))
      return;
    if (!tensor.hasStaticShape()) {
      status = at->emitError("hlo-to-thunk: collectives of ")
               << tensor << " are not supported yet";
      return;
    }
    FailureOr<Value> s = slice(at, value, mine, getSignatureType(tensor));
    if (failed(s))
      status = failure();
    else
      result.push_back(*s);
  });
  if (failed(status))
    return failure();
  return result;
}

/// The reduction NCCL runs for `op`'s `to_apply`: a computation whose root
/// combines its two parameters with add, multiply, minimum or maximum (and
/// / or of pred: minimum / maximum).
static FailureOr<th::ReductionKind> getReduction(Operation *op,
                                                 SymbolTable &symbols) {
  auto ref = op->getAttrOfType<FlatSymbolRefAttr>("to_apply");
  auto comp = ref ? symbols.lookup<ComputationOp>(ref.getAttr())
                  : ComputationOp();
  Operation *root = comp ? comp.getRootValue().getDefiningOp() : nullptr;
  std::optional<th::ReductionKind> kind;
  if (root && root->getNumResults() == 1 &&
      comp.getBody().getNumArguments() == 2 &&
      llvm::equal(getDataOperands(root), comp.getBody().getArguments())) {
    bool pred = getElementTypeOrSelf(root->getResult(0).getType())
                    .isInteger(1);
    kind = llvm::TypeSwitch<Operation *, std::optional<th::ReductionKind>>(root)
               .Case([](AddOp) { return th::ReductionKind::Sum; })
               .Case([](MulOp) { return th::ReductionKind::Product; })
               .Case([](MinOp) { return th::ReductionKind::Min; })
               .Case([](MaxOp) { return th::ReductionKind::Max; })
               .Case([&](AndOp) {
                 return pred ? std::optional(th::ReductionKind::Min)
                             : std::nullopt;
               })
               .Case([&](OrOp) {
                 return pred ? std::optional(th::ReductionKind::Max)
                             : std::nullopt;
               })
               .Default([](Operation *) { return std::nullopt; });
  }
  if (!kind)
    return op->emitError("hlo-to-thunk: the reduction ")
               << ref
               << " is not one a collective thunk runs (the add, multiply, "
                  "minimum or maximum of its two parameters; and / or of "
                  "pred)",
           failure();
  return *kind;
}

LogicalResult ThunkLowering::lowerCollective(Operation *op, ValueRange operands,
                                             ArrayRef<Value> outputs,
                                             std::optional<int64_t> asyncId) {
  SmallVector<Value> inputs;
  for (Value v : operands) {
    FailureOr<SmallVector<Value>> s = logicalSlices(op, v);
    if (failed(s))
      return failure();
    llvm::append_range(inputs, *s);
  }
  Location loc = op->getLoc();
  MLIRContext *ctx = b.getContext();
  std::string error;
  auto groups = [&](bool hasGlobalFlag) -> FailureOr<ArrayAttr> {
    FailureOr<DeviceGroups> g = getDeviceGroups(op, numReplicas, numPartitions,
                                                hasGlobalFlag, error);
    if (failed(g))
      return op->emitError("hlo-to-thunk: ") << error, failure();
    SmallVector<Attribute> attrs;
    for (ArrayRef<int64_t> group : *g)
      attrs.push_back(b.getDenseI64ArrayAttr(group));
    return b.getArrayAttr(attrs);
  };
  auto reduction = [&]() -> FailureOr<th::ReductionKindAttr> {
    FailureOr<th::ReductionKind> kind = getReduction(op, symbols);
    if (failed(kind))
      return failure();
    return th::ReductionKindAttr::get(ctx, *kind);
  };
  IntegerAttr async = asyncId ? b.getI64IntegerAttr(*asyncId) : IntegerAttr();
  auto dimension = [&]() {
    auto dims = op->getAttrOfType<DenseI64ArrayAttr>("dimensions");
    return b.getI64IntegerAttr(dims && dims.size() == 1 ? dims[0] : -1);
  };
  FailureOr<Operation *> thunk =
      llvm::TypeSwitch<Operation *, FailureOr<Operation *>>(op)
          .Case<AllReduceOp, AllReduceStartOp>(
              [&](auto) -> FailureOr<Operation *> {
                FailureOr<th::ReductionKindAttr> kind = reduction();
                FailureOr<ArrayAttr> g = groups(true);
                if (failed(kind) || failed(g))
                  return failure();
                return th::AllReduceOp::create(b, loc, *kind, *g, inputs,
                                               outputs, async)
                    .getOperation();
              })
          .Case<AllGatherOp, AllGatherStartOp>(
              [&](auto) -> FailureOr<Operation *> {
                FailureOr<ArrayAttr> g = groups(true);
                if (failed(g))
                  return failure();
                return th::AllGatherOp::create(b, loc, dimension(), *g, inputs,
                                               outputs, async)
                    .getOperation();
              })
          .Case([&](ReduceScatterOp) -> FailureOr<Operation *> {
            FailureOr<th::ReductionKindAttr> kind = reduction();
            FailureOr<ArrayAttr> g = groups(true);
            if (failed(kind) || failed(g))
              return failure();
            return th::ReduceScatterOp::create(b, loc, *kind, dimension(), *g,
                                               inputs, outputs, async)
                .getOperation();
          })
          .Case([&](AllToAllOp a2a) -> FailureOr<Operation *> {
            FailureOr<ArrayAttr> g = groups(false);
            if (failed(g))
              return failure();
            std::optional<ArrayRef<int64_t>> dims = a2a.getDimensions();
            IntegerAttr dim = dims && !dims->empty()
                                  ? b.getI64IntegerAttr(dims->front())
                                  : IntegerAttr();
            return th::AllToAllOp::create(b, loc, dim, *g, inputs, outputs,
                                          async)
                .getOperation();
          })
          .Case([&](RaggedAllToAllOp) -> FailureOr<Operation *> {
            FailureOr<ArrayAttr> g = groups(false);
            if (failed(g))
              return failure();
            if (inputs.size() != 6 || outputs.size() != 1)
              return op->emitError("hlo-to-thunk: ragged-all-to-all needs "
                                   "six arrays and an array result"),
                     failure();
            // The updates are written over the output operand: in the
            // result's slice, where the buffer assignment put them both.
            copy(loc, inputs[1], outputs[0]);
            return th::RaggedAllToAllOp::create(b, loc, *g, inputs[0],
                                                inputs[2], inputs[3], inputs[4],
                                                inputs[5], outputs[0], async)
                .getOperation();
          })
          .Case([&](CollectiveBroadcastOp) -> FailureOr<Operation *> {
            FailureOr<ArrayAttr> g = groups(false);
            if (failed(g))
              return failure();
            return th::CollectiveBroadcastOp::create(b, loc, *g, inputs,
                                                     outputs, async)
                .getOperation();
          })
          .Case<CollectivePermuteOp, CollectivePermuteStartOp>(
              [&](auto permute) -> FailureOr<Operation *> {
                std::optional<ArrayAttr> attr = permute.getSourceTargetPairs();
                FailureOr<SmallVector<std::pair<int64_t, int64_t>>> pairs =
                    getDevicePairs(op, attr ? *attr : ArrayAttr(),
                                   numReplicas, numPartitions, error);
                if (failed(pairs))
                  return op->emitError("hlo-to-thunk: ") << error, failure();
                if (getDataOperands(op).size() != inputs.size())
                  return op->emitError(
                             "hlo-to-thunk: the in-place collective-permute "
                             "has no thunk; "
                             "hlo-collective-permute-in-place-expander "
                             "(in hlo-gpu-pipeline) rewrites it"),
                         failure();
                SmallVector<Attribute> attrs;
                for (auto [source, target] : *pairs)
                  attrs.push_back(b.getDenseI64ArrayAttr({source, target}));
                return th::CollectivePermuteOp::create(b, loc,
                                                       b.getArrayAttr(attrs),
                                                       inputs, outputs, async)
                    .getOperation();
              })
          .Default([&](Operation *) -> FailureOr<Operation *> {
            return op->emitError("hlo-to-thunk: `")
                       << getOpcode(op) << "` has no thunk yet",
                   failure();
          });
  if (failed(thunk))
    return failure();
  // The thunk's verifier checks the arrays against the group size, which
  // the device count decides: say so in the instruction's terms.
  std::string why;
  {
    ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &d) {
      why = d.str();
      return success();
    });
    if (succeeded(mlir::verify(*thunk)))
      return success();
  }
  return op->emitError("hlo-to-thunk: `")
         << getOpcode(op) << "` does not fit a program of " << numReplicas
         << " replicas and " << numPartitions << " partitions: " << why;
}

/// Whether `type` is what a tuple-shaped start op holds of `operands`: the
/// operand's type, or the tuple of the operands' types.
static bool holdsOperands(Type type, ValueRange operands) {
  if (operands.size() == 1 && type == operands[0].getType())
    return true;
  auto tuple = dyn_cast<TupleType>(type);
  return tuple && llvm::equal(tuple.getTypes(), operands.getTypes());
}

LogicalResult ThunkLowering::lowerCollectiveStart(Operation *op) {
  Value result = op->getResult(0);
  auto tuple = dyn_cast<TupleType>(result.getType());
  // The element of the start's result that the collective writes: 1 in
  // the tuple forms ((operands), results, context...), else all of it.
  std::optional<unsigned> element;
  Operation *collective = op;
  SmallVector<Value> operands(getDataOperands(op));
  if (auto start = dyn_cast<AsyncStartOp>(op)) {
    auto callee = symbols.lookup<ComputationOp>(start.getCalls());
    collective = callee ? callee.getRootValue().getDefiningOp() : nullptr;
    if (!isArrayCollective(collective) || !tuple || tuple.size() < 2)
      return op->emitError("hlo-to-thunk: only asynchronous collectives have "
                           "a thunk yet");
    // The collective reads the callee's parameters: the start's operands.
    operands.clear();
    for (Value v : getDataOperands(collective)) {
      auto arg = dyn_cast<BlockArgument>(v);
      if (!arg || arg.getOwner() != &callee.getBody().front())
        return op->emitError("hlo-to-thunk: the asynchronous collective must "
                             "read its computation's parameters");
      operands.push_back(getDataOperands(op)[arg.getArgNumber()]);
    }
    element = 1;
  } else if (tuple && tuple.size() >= 2 &&
             holdsOperands(tuple.getType(0), getDataOperands(op))) {
    element = 1;
  }
  FailureOr<SmallVector<Value>> outputs = logicalSlices(op, result, element);
  if (failed(outputs))
    return failure();
  startOutputs[op] = element;
  // Asynchronous unless hlo-gpu-convert-async-collectives-to-sync found
  // nothing to overlap (is_sync): then it runs where it starts.
  std::optional<int64_t> asyncId;
  if (isSchedulableAsyncStart(op))
    asyncIds[op] = *(asyncId = nextAsyncId++);
  return lowerCollective(collective, operands, *outputs, asyncId);
}

LogicalResult ThunkLowering::lowerCollectiveDone(Operation *op) {
  Value start = getDataOperands(op)[0];
  auto it = startOutputs.find(start.getDefiningOp());
  if (it == startOutputs.end())
    return op->emitError("hlo-to-thunk: the done of a start with no thunk");
  FailureOr<SmallVector<Value>> from = logicalSlices(op, start, it->second);
  FailureOr<SmallVector<Value>> to = logicalSlices(op, op->getResult(0));
  if (failed(from) || failed(to))
    return failure();
  if (from->size() != to->size())
    return op->emitError("hlo-to-thunk: the done's result does not match its "
                         "start's");
  if (auto id = asyncIds.find(start.getDefiningOp()); id != asyncIds.end())
    th::CollectiveDoneOp::create(b, op->getLoc(), id->second);
  for (auto [x, y] : llvm::zip(*from, *to))
    copy(op->getLoc(), x, y);
  return success();
}

LogicalResult
ThunkLowering::lowerRngGetAndUpdateState(RngGetAndUpdateStateOp op) {
  FailureOr<SmallVector<Value>> target = logicalSlices(op, op.getResult());
  if (failed(target))
    return failure();
  auto thunk = th::RngGetAndUpdateStateOp::create(
      b, op->getLoc(), target->front(), op.getDeltaAttr());
  return mlir::verify(thunk);
}

LogicalResult ThunkLowering::lowerDeviceId(Operation *op) {
  FailureOr<SmallVector<Value>> target = logicalSlices(op, op->getResult(0));
  if (failed(target))
    return failure();
  auto kind = isa<ReplicaIdOp>(op) ? th::DeviceIdKind::Replica
                                   : th::DeviceIdKind::Partition;
  auto thunk = th::DeviceIdOp::create(
      b, op->getLoc(), th::DeviceIdKindAttr::get(b.getContext(), kind),
      target->front());
  return mlir::verify(thunk);
}
