//===- FusionEmitter.cpp - the choice of fusion emitter -------------------===//
//
// Which emitter takes a fusion, as XLA's GPU backend decides it from the
// fusion's kind and its heroes, and the dispatch to that emitter.
//
//===----------------------------------------------------------------------===//

#include "EmitterUtils.h"
#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

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
  case EmitterKind::Normalization:
    return "normalization";
  case EmitterKind::Sort:
    return "sort";
  case EmitterKind::TopK:
    return "topk";
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
  // XLA-GPU's top-k kernel.
  if (fused
          .walk([](CustomCallOp call) {
            return call.getCustomCallTarget() == "__gpu$TopK"
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted()) {
    if (failed(canEmitTopkKernel(op, symbols, reason)))
      return failure();
    return EmitterKind::TopK;
  }
  // A sort is emitted by the sort emitter whatever the fusion's kind (XLA
  // emits sorts apart from the fusion emitters).
  if (fused
          .walk([](SortOp) { return WalkResult::interrupt(); })
          .wasInterrupted()) {
    if (failed(canEmitSortKernel(op, symbols, reason)))
      return failure();
    return EmitterKind::Sort;
  }
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
  // Reduces whose rows the outputs read back (a reduce fused into its
  // consumer, a Triton normalization fusion) would be recomputed for every
  // element of the row by the loop emitter.
  auto isNormalization = [&] {
    std::string notNormalization;
    return succeeded(canEmitNormalizationKernel(op, symbols, notNormalization));
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
    if (isNormalization())
      return EmitterKind::Normalization;
    return EmitterKind::Loop;
  }
  case FusionKind::kCustom:
    // Custom fusions (Triton normalization fusions of
    // hlo-softmax-rewriter-triton, Triton GEMMs and cuDNN fusions in the
    // input) have no block-level (Triton) or cuDNN emitter yet: they are
    // emitted as input fusions, by the reduction emitter where it takes
    // them, else as loops (a dot: a serial sum per output element). XLA
    // CPU's custom fusions (a `fusion_config` in XLA CPU's backend config:
    // XNNPACK, YNNPACK) are not GPU fusions.
    if (isXlaCpuCustomFusion(op)) {
      reason = "a kCustom fusion of XLA CPU (its backend config has a "
               "fusion_config), not a GPU fusion";
      return failure();
    }
    [[fallthrough]];
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
    // A reduce that is no hero of the reduction emitter (an output reads
    // it through a broadcast) would be recomputed for each element that
    // reads it: the normalization emitter, where it takes the fusion,
    // computes it once per row.
    std::string notReduction;
    FailureOr<ReductionInfo> reduction =
        analyzeReductionFusion(fusion, symbols, notReduction);
    if (succeeded(reduction) &&
        size_t(llvm::range_size(fused.getBody().front().getOps<ReduceOp>())) ==
            reduction->heroes.size())
      return EmitterKind::Reduction;
    if (isNormalization())
      return EmitterKind::Normalization;
    if (succeeded(reduction))
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
  case EmitterKind::Normalization:
    return emitNormalizationKernel(fusion, module, name, symbols, options);
  case EmitterKind::Sort:
    return emitSortKernel(fusion, module, name, symbols, options);
  case EmitterKind::TopK:
    return emitTopkKernel(fusion, module, name, symbols, options);
  }
  llvm_unreachable("unknown emitter kind");
}
