//===- Pipelines.cpp - XLA's pipelines and the pass registration ---------===//
//
// XLA-GPU's pipelines under their names, with the passes this project has,
// in XLA's order (seed 002, table 1). docs/passes.md lists the passes of
// each XLA pipeline that are not here yet.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::hlo;

void mlir::hlo::buildHloSpmdSimplifyPipeline(OpPassManager &pm) {
  // XLA: ScatterExpander, GatherExpander, HloDCE, HloConstantFolding.
  pm.addPass(createHloDce());
  pm.addPass(createHloConstantFolding());
}

void mlir::hlo::buildHloSimplificationPipeline(OpPassManager &pm) {
  // XLA: HloPassFix over ScatterExpander, AlgebraicSimplifier, DotDecomposer,
  // DotMerger, WhileLoopSimplifier, ReshapeMover, HloConstantFolding,
  // TransposeFolding, HloCSE, HloDCE (the tuple simplifier, which XLA runs
  // in its simplification pipeline too, sits before CSE).
  OpPassManager body(ModuleOp::getOperationName());
  body.addPass(createHloAlgebraicSimplifier());
  body.addPass(createHloDotDecomposer());
  body.addPass(createHloWhileLoopSimplifier());
  body.addPass(createHloTupleSimplifier());
  body.addPass(createHloConstantFolding());
  body.addPass(createHloCse());
  body.addPass(createHloDce());
  pm.addPass(createHloFixedPointPass(std::move(body)));
}

void mlir::hlo::buildHloOptimizationPipeline(OpPassManager &pm) {
  // XLA (GPU): OperandUpcaster, ResultCaster, ZeroSizedHloElimination,
  // CallInliner, DotDecomposer, BatchNormExpander (all three forms),
  // DynamicPadder, then simplification.
  pm.addPass(createHloOperandUpcaster());
  pm.addPass(createHloResultCaster());
  pm.addPass(createHloZeroSizedHloElimination());
  pm.addPass(createHloCallInliner());
  pm.addPass(createHloDotDecomposer());
  HloBatchNormExpanderOptions batchNorm;
  batchNorm.rewriteTrainingOp = true;
  batchNorm.rewriteInferenceOp = true;
  batchNorm.rewriteGradOp = true;
  pm.addPass(createHloBatchNormExpander(batchNorm));
  buildHloSimplificationPipeline(pm);
}

void mlir::hlo::buildHloCollectiveOptimizationsPipeline(OpPassManager &pm) {
  // XLA: AllReduceFolder, ReduceScatterCreator, AllGatherBroadcastReorder,
  // then AlgebraicSimplifier.
  pm.addPass(createHloAlgebraicSimplifier());
}

void mlir::hlo::registerHloPasses() {
  registerHloTransformsPasses();
  PassPipelineRegistration<>(
      "hlo-spmd-simplify",
      "XLA's spmd-simplify pipeline (the passes this project has)",
      buildHloSpmdSimplifyPipeline);
  PassPipelineRegistration<>(
      "hlo-simplification",
      "XLA's simplification pipeline, run to a fixed point (the passes this "
      "project has)",
      buildHloSimplificationPipeline);
  PassPipelineRegistration<>(
      "hlo-optimization",
      "XLA's optimization pipeline, ending with simplification (the passes "
      "this project has)",
      buildHloOptimizationPipeline);
  PassPipelineRegistration<>(
      "hlo-collective-optimizations",
      "XLA's collective-optimizations pipeline (the passes this project has)",
      buildHloCollectiveOptimizationsPipeline);
}
