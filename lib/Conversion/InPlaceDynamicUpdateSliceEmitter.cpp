//===- InPlaceDynamicUpdateSliceEmitter.cpp - DUS fusions in place --------===//
//
// XLA's in-place dynamic-update-slice emitter: a loop fusion whose outputs
// are dynamic-update-slices of fusion parameters writes only the updated
// elements, into output buffers that alias the parameters (XLA's buffer
// assignment gives them one buffer; the kernel records the aliasing as
// `hlo.output_aliases` for runtimes that do not). One thread per element of
// the update: each update's element is generated at the thread's index and
// stored at that index plus the update's offsets, which are clamped as HLO
// clamps them, into [0, operand size - update size].
//
//===----------------------------------------------------------------------===//

#include "EmitterUtils.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// Whether `bitcast` only renames its operand's bytes: one element type and
/// no tiled layout (an element keeps its physical offset).
bool isPlainBitcast(BitcastOp bitcast) {
  auto in = dyn_cast<RankedTensorType>(bitcast.getOperand().getType());
  auto out = dyn_cast<RankedTensorType>(bitcast.getType());
  auto untiled = [](RankedTensorType t) {
    auto layout = dyn_cast_or_null<LayoutAttr>(t.getEncoding());
    return !layout || layout.getTiles().empty();
  };
  return in && out && in.hasStaticShape() && out.hasStaticShape() &&
         in.getElementType() == out.getElementType() && untiled(in) &&
         untiled(out);
}

} // namespace

LogicalResult mlir::hlo::getInPlaceDynamicUpdateSlices(
    ArrayRef<Value> roots, SmallVectorImpl<DynamicUpdateSliceOp> &updates,
    std::string &reason) {
  // Each output a dynamic-update-slice, or a bitcast of one (XLA's output
  // defining dynamic-update-slices), each on the only path to the root.
  for (Value r : roots) {
    Value v = r;
    while (auto bitcast = v.getDefiningOp<BitcastOp>()) {
      if (!isPlainBitcast(bitcast)) {
        reason = "an output is a bitcast that moves elements";
        return failure();
      }
      v = bitcast.getOperand();
      if (!v.hasOneUse()) {
        reason = "a dynamic-update-slice has users besides the root";
        return failure();
      }
    }
    auto dus = v.getDefiningOp<DynamicUpdateSliceOp>();
    if (!dus) {
      reason = "an output is not a dynamic-update-slice";
      return failure();
    }
    // Its only user is the root (a tuple's element).
    if (!r.hasOneUse() ||
        !(isa<ReturnOp>(*r.user_begin()) ||
          (isa<TupleOp>(*r.user_begin()) &&
           llvm::all_of(r.user_begin()->getUsers(),
                        [](Operation *u) { return isa<ReturnOp>(u); })))) {
      reason = "a dynamic-update-slice has users besides the root";
      return failure();
    }
    updates.push_back(dus);
  }
  auto updateType =
      cast<RankedTensorType>(updates.front().getUpdate().getType());
  for (DynamicUpdateSliceOp dus : updates) {
    // The updated operand: a parameter, or a bitcast of one.
    Value operand = dus.getOperand();
    if (auto bitcast = operand.getDefiningOp<BitcastOp>())
      if (isPlainBitcast(bitcast))
        operand = bitcast.getOperand();
    auto param = dyn_cast<BlockArgument>(operand);
    if (!param) {
      reason = "a dynamic-update-slice's operand is not a parameter";
      return failure();
    }
    // The output aliases the parameter: same type and layout (or a bitcast
    // of it, same elements in the same physical order).
    if (dus.getType() != dus.getOperand().getType() ||
        !isStaticArray(dus.getType())) {
      reason = "a dynamic-update-slice's output differs from its operand in "
               "type or layout";
      return failure();
    }
    if (!isStaticArray(dus.getUpdate().getType()) ||
        cast<RankedTensorType>(dus.getUpdate().getType()).getShape() !=
            updateType.getShape()) {
      reason = "the updates differ in shape";
      return failure();
    }
    // The parameter is read only at the updated elements' own indices
    // (elementwise, or a dynamic-slice at the same offsets), so that writing
    // in place races with no read (XLA's condition).
    SmallVector<Value> queue{param};
    llvm::SmallPtrSet<Operation *, 8> visited{dus};
    while (!queue.empty()) {
      Value v = queue.pop_back_val();
      for (Operation *user : v.getUsers()) {
        if (user->hasTrait<OpTrait::IsTerminator>())
          continue;
        if (auto ds = dyn_cast<DynamicSliceOp>(user)) {
          if (ds.getOperand() != dus.getOperand() ||
              cast<RankedTensorType>(ds.getType()).getShape() !=
                  updateType.getShape() ||
              (updateType.getNumElements() != 1 &&
               !llvm::equal(ds.getStartIndices(), dus.getStartIndices()))) {
            reason = "the updated parameter is also read at other offsets";
            return failure();
          }
        } else if (user != dus.getOperation() &&
                   (isa<DynamicUpdateSliceOp>(user) ||
                    (!indexing::isElementwise(user) &&
                     !isa<BitcastOp, TupleOp>(user)))) {
          reason = "the updated parameter is also read at other indices";
          return failure();
        }
        if (visited.insert(user).second)
          llvm::append_range(queue, user->getResults());
      }
    }
  }
  return success();
}

FailureOr<gpu::GPUFuncOp> mlir::hlo::emitInPlaceDynamicUpdateSliceKernel(
    Operation *op, gpu::GPUModuleOp module, StringRef name,
    SymbolTable &symbols, const KernelOptions &options) {
  auto fusion = cast<FusionOp>(op);
  auto fused = symbols.lookup<ComputationOp>(fusion.getCalls());
  SmallVector<Value> roots = getFusionRoots(fused);
  SmallVector<DynamicUpdateSliceOp> updates;
  std::string reason;
  if (failed(getInPlaceDynamicUpdateSlices(roots, updates, reason)))
    return op->emitError("in-place dynamic-update-slice emitter: ") << reason;

  // An output may be a bitcast of its dynamic-update-slice, and the updated
  // operand a bitcast of the parameter: a bitcast keeps every element's
  // physical offset, so the stores use the dynamic-update-slice's layout.
  SmallVector<Type> outputs;
  SmallVector<int64_t> aliases;
  for (auto [root, dus] : llvm::zip(roots, updates)) {
    outputs.push_back(root.getType());
    Value param = dus.getOperand();
    if (auto bitcast = param.getDefiningOp<BitcastOp>())
      param = bitcast.getOperand();
    aliases.push_back(cast<BlockArgument>(param).getArgNumber());
  }
  // The iteration space: the update's shape in the first output's physical
  // order (consecutive threads write consecutive addresses of a row).
  auto firstOut = cast<RankedTensorType>(updates.front().getType());
  auto updateType =
      cast<RankedTensorType>(updates.front().getUpdate().getType());
  auto space = RankedTensorType::get(
      updateType.getShape(), firstOut.getElementType(), firstOut.getEncoding());
  // XLA's launch: one element per thread.
  int64_t work = space.getNumElements();
  auto [threads, blocks] = getLaunchDims(work, options.threadsPerBlock);

  OpBuilder b(op->getContext());
  gpu::GPUFuncOp func =
      createKernel(b, op, module, name, outputs, {int32_t(threads), 1, 1},
                   {int32_t(blocks), 1, 1});
  setOutputAliases(func, aliases);
  Location loc = func.getLoc();
  ValueRange args = func.getBody().front().getArguments();
  size_t numOperands = fusion.getDataOperands().size();
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value linear = emitGuardedThreadIndex(b, loc, threads, work);
  ElementGenerator gen(b, loc, symbols, module, args.take_front(numOperands));
  SmallVector<Value> index = emitLogicalIndex(b, loc, linear, space);
  // Every element is computed before any is stored: with the buffers shared,
  // a store must not precede a read of the parameter (the reads are at the
  // thread's own elements, which getInPlaceDynamicUpdateSlices ensures).
  SmallVector<std::tuple<Value, Value, unsigned>> stores; // value, at, out
  for (auto [k, dus] : llvm::enumerate(updates)) {
    auto outType = cast<RankedTensorType>(dus.getType());
    FailureOr<Value> v = gen.emitOne(dus.getUpdate(), index);
    if (failed(v)) {
      func.erase();
      return failure();
    }
    SmallVector<Value> outIndex;
    for (auto [d, start] : llvm::enumerate(dus.getStartIndices())) {
      FailureOr<Value> raw = gen.emitOne(start, {});
      if (failed(raw)) {
        func.erase();
        return failure();
      }
      Value s =
          emitClampedStart(b, loc, *raw, getElementTypeOrSelf(start.getType()),
                           0, outType.getDimSize(d) - updateType.getDimSize(d));
      outIndex.push_back(arith::AddIOp::create(b, loc, index[d], s));
    }
    stores.push_back(
        {*v, emitPhysicalOffset(b, loc, outIndex, outType), unsigned(k)});
  }
  for (auto [value, offset, k] : stores)
    memref::StoreOp::create(b, loc, value, args[numOperands + k],
                            ValueRange{offset});
  return func;
}
