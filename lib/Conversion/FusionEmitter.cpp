//===- FusionEmitter.cpp - the choice of fusion emitter -------------------===//
//
// Which emitter takes a fusion, as XLA's GPU backend decides it from the
// fusion's kind and its heroes, and the dispatch to that emitter.
//
//===----------------------------------------------------------------------===//

#include "EmitterUtils.h"

using namespace mlir;
using namespace mlir::hlo;

StringRef mlir::hlo::stringifyEmitterKind(EmitterKind kind) {
  switch (kind) {
  case EmitterKind::Loop:
    return "loop";
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
  for (Type t : op->getOperandTypes())
    if (!isa<RankedTensorType>(t) ||
        !cast<RankedTensorType>(t).hasStaticShape()) {
      reason = "an operand is not a static array";
      return failure();
    }
  SmallVector<Value> roots = getFusionRoots(fused);
  auto sameShape = [&] {
    auto first = dyn_cast<RankedTensorType>(roots.front().getType());
    return first && first.hasStaticShape() && llvm::all_of(roots, [&](Value r) {
             auto t = dyn_cast<RankedTensorType>(r.getType());
             return t && t.getShape() == first.getShape();
           });
  };
  switch (fusion.getKind()) {
  case FusionKind::kLoop:
    return EmitterKind::Loop;
  case FusionKind::kInput: {
    WalkResult scatter =
        fused.walk([](ScatterOp) { return WalkResult::interrupt(); });
    if (scatter.wasInterrupted()) {
      if (failed(canEmitScatterKernel(op, symbols, reason)))
        return failure();
      return EmitterKind::Scatter;
    }
    // Reductions no other emitter takes run as loops: each output element
    // reduces its range serially.
    if (sameShape())
      return EmitterKind::Loop;
    reason = "an input fusion whose outputs differ in shape (no input-slices "
             "or multi-output reduction emitter for it yet)";
    return failure();
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
  case EmitterKind::Scatter:
    return emitScatterKernel(fusion, module, name, symbols, options);
  }
  llvm_unreachable("unknown emitter kind");
}
