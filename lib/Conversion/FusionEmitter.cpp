//===- FusionEmitter.cpp - the choice of fusion emitter -------------------===//
//
// Which emitter takes a fusion, as XLA's GPU backend decides it from the
// fusion's kind and its heroes, and the dispatch to that emitter.
//
//===----------------------------------------------------------------------===//

#include "EmitterUtils.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

bool isStaticArray(Type t) {
  auto ranked = dyn_cast<RankedTensorType>(t);
  return ranked && ranked.hasStaticShape();
}

/// XLA's input-slices fusion: several outputs, all slices with strides 1 of
/// values of one shape.
bool isInputSlicesFusion(ArrayRef<Value> roots) {
  if (roots.size() < 2)
    return false;
  std::optional<ArrayRef<int64_t>> input;
  for (Value r : roots) {
    auto slice = r.getDefiningOp<SliceOp>();
    if (!slice || !isStaticArray(slice.getType()) ||
        !isStaticArray(slice.getOperand().getType()) ||
        llvm::any_of(slice.getSlice().getStrides(),
                     [](int64_t s) { return s != 1; }))
      return false;
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(slice.getOperand().getType()).getShape();
    if (input && *input != shape)
      return false;
    input = shape;
  }
  return true;
}

} // namespace

ConcatenateOp mlir::hlo::getConcatenateHero(Value root) {
  Operation *op = root.getDefiningOp();
  // Elementwise unary ops between the concatenate and the root (XLA's
  // intermediate instructions; a copy only when it keeps the layout).
  while (op && !isa<ConcatenateOp>(op)) {
    if (!indexing::isElementwise(op) || isa<TupleOp>(op) ||
        getDataOperands(op).size() != 1 ||
        (isa<CopyOp>(op) &&
         op->getResult(0).getType() != getDataOperands(op)[0].getType()))
      return nullptr;
    op = getDataOperands(op)[0].getDefiningOp();
  }
  return dyn_cast_or_null<ConcatenateOp>(op);
}

/// Whether `bitcast` only renames its operand's bytes: one element type and
/// no tiled layout (an element keeps its physical offset).
static bool isPlainBitcast(BitcastOp bitcast) {
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

StringRef mlir::hlo::stringifyEmitterKind(EmitterKind kind) {
  switch (kind) {
  case EmitterKind::Loop:
    return "loop";
  case EmitterKind::Reduction:
    return "reduction";
  case EmitterKind::Transpose:
    return "transpose";
  case EmitterKind::InputSlices:
    return "input-slices";
  case EmitterKind::Concatenate:
    return "concatenate";
  case EmitterKind::InPlaceDynamicUpdateSlice:
    return "in-place-dynamic-update-slice";
  case EmitterKind::Scatter:
    return "scatter";
  }
  llvm_unreachable("unknown emitter kind");
}

FailureOr<EmitterKind> mlir::hlo::chooseEmitter(Operation *op,
                                                SymbolTable &symbols,
                                                std::string &reason) {
  auto fusion = dyn_cast<FusionOp>(op);
  if (!fusion) {
    reason = "not a fusion";
    return failure();
  }
  auto fused = symbols.lookup<ComputationOp>(fusion.getCalls());
  if (!fused || fused.getBody().empty()) {
    reason = "its fused computation is missing";
    return failure();
  }
  for (Type t : getDataOperands(op).getTypes())
    if (!isa<RankedTensorType>(t) ||
        !cast<RankedTensorType>(t).hasStaticShape()) {
      reason = "an operand is not a static array";
      return failure();
    }
  SmallVector<Value> roots = getFusionRoots(fused);
  // XLA's concatenate fusion (of kind kLoop or kInput): one output, at most
  // 4 operands (each operand's code is emitted separately, which costs
  // occupancy).
  auto isConcatenateFusion = [&] {
    if (roots.size() != 1 || !isStaticArray(roots.front().getType()))
      return false;
    ConcatenateOp concat = getConcatenateHero(roots.front());
    return concat && concat.getNumOperands() <= 4 &&
           llvm::all_of(concat->getOperandTypes(), isStaticArray);
  };
  switch (fusion.getKind()) {
  case FusionKind::kLoop: {
    std::string dusReason;
    SmallVector<DynamicUpdateSliceOp> updates;
    if (succeeded(getInPlaceDynamicUpdateSlices(roots, updates, dusReason)))
      return EmitterKind::InPlaceDynamicUpdateSlice;
    if (isConcatenateFusion())
      return EmitterKind::Concatenate;
    std::string notTiled;
    if (isTiledTransposeFusion(fusion, symbols, notTiled))
      return EmitterKind::Transpose;
    return EmitterKind::Loop;
  }
  case FusionKind::kInput: {
    WalkResult scatter =
        fused.walk([](ScatterOp) { return WalkResult::interrupt(); });
    if (scatter.wasInterrupted()) {
      if (failed(canEmitScatterKernel(op, symbols, reason)))
        return failure();
      return EmitterKind::Scatter;
    }
    if (isInputSlicesFusion(roots))
      return EmitterKind::InputSlices;
    if (isConcatenateFusion())
      return EmitterKind::Concatenate;
    std::string notTiled;
    if (isTiledTransposeFusion(fusion, symbols, notTiled))
      return EmitterKind::Transpose;
    std::string notReduction;
    if (succeeded(analyzeReductionFusion(fusion, symbols, notReduction)))
      return EmitterKind::Reduction;
    // Reductions no other emitter takes run as loops (each output element
    // reduces its range serially), as do outputs of different shapes.
    return EmitterKind::Loop;
  }
  default:
    reason = "a " + stringifyFusionKind(fusion.getKind()).str() +
             " fusion (no emitter takes this kind)";
    return failure();
  }
}

FailureOr<gpu::GPUFuncOp> mlir::hlo::emitKernel(Operation *fusion,
                                                gpu::GPUModuleOp module,
                                                StringRef name,
                                                SymbolTable &symbols,
                                                const KernelOptions &options) {
  std::string reason;
  FailureOr<EmitterKind> kind = chooseEmitter(fusion, symbols, reason);
  if (failed(kind))
    return fusion->emitError("no emitter takes this fusion: ") << reason;
  switch (*kind) {
  case EmitterKind::Loop:
    return emitLoopKernel(fusion, module, name, symbols, options);
  case EmitterKind::Reduction:
    return emitReductionKernel(fusion, module, name, symbols, options);
  case EmitterKind::Transpose:
    return emitTransposeKernel(fusion, module, name, symbols, options);
  case EmitterKind::InputSlices:
    return emitInputSlicesKernel(fusion, module, name, symbols, options);
  case EmitterKind::Concatenate:
    return emitConcatenateKernel(fusion, module, name, symbols, options);
  case EmitterKind::InPlaceDynamicUpdateSlice:
    return emitInPlaceDynamicUpdateSliceKernel(fusion, module, name, symbols,
                                               options);
  case EmitterKind::Scatter:
    return emitScatterKernel(fusion, module, name, symbols, options);
  }
  llvm_unreachable("unknown emitter kind");
}
