//===- Pipelines.cpp - XLA's pipelines and the pass registration ---------===//
//
// XLA-GPU's pipelines under their names, with the passes this project has,
// in XLA's order (seed 002, table 1). docs/passes.md lists the passes of
// each XLA pipeline that are not here yet.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Transforms/BufferAssignmentPasses.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "Hlo/Transforms/GpuFusionPasses.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "Hlo/Transforms/GpuOptimizePipelineOptions.h"
#include "Hlo/Transforms/HostOffloadPasses.h"
#include "Hlo/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::hlo;

/// XLA's expanders in their "simple" modes: a scatter or gather of one
/// index vector becomes a loop of one trip, which the while-loop simplifier
/// then removes.
static void addSimpleScatterGatherExpanders(OpPassManager &pm, bool gathers) {
  HloScatterExpanderOptions scatter;
  scatter.mode = ScatterExpanderMode::EliminateSimple;
  pm.addPass(createHloScatterExpander(scatter));
  if (!gathers)
    return;
  HloGatherExpanderOptions gather;
  gather.mode = GatherExpanderMode::EliminateSimple;
  pm.addPass(createHloGatherExpander(gather));
}

void mlir::hlo::buildHloSpmdSimplifyPipeline(OpPassManager &pm) {
  // XLA: ScatterExpander, GatherExpander (simple modes), HloDCE,
  // HloConstantFolding.
  addSimpleScatterGatherExpanders(pm, /*gathers=*/true);
  pm.addPass(createHloDce());
  pm.addPass(createHloConstantFolding());
}

void mlir::hlo::buildHloSpmdPartitioningPipeline(OpPassManager &pm) {
  // XLA: ShardyXLA (here its reading of JAX's Shardy shardings and
  // shard_maps), spmd-simplify, ShardingPropagation, SpmdPartitioner. XLA's
  // propagation and partitioner go into called computations; here the
  // calls are inlined first (XLA's optimization pipeline inlines them right
  // after), so that their instructions are partitioned too.
  pm.addPass(createHloShardyXla());
  buildHloSpmdSimplifyPipeline(pm);
  pm.addPass(createHloCallInliner());
  pm.addPass(createHloShardingPropagation());
  pm.addPass(createHloSpmdPartitioner());
}

/// XLA-GPU's algebraic simplifier: its dot strength reduction (and the
/// reduce-of-dot rewrite it gates) is off, the dot-strength-reduction pass
/// does that work with the GPU's size and Triton rules.
static std::unique_ptr<Pass> createGpuSimplifier(bool layoutSensitive = false) {
  HloAlgebraicSimplifierOptions options;
  options.enableDotStrengthReduction = false;
  options.layoutSensitive = layoutSensitive;
  return createHloAlgebraicSimplifier(options);
}

void mlir::hlo::buildHloSimplificationPipeline(OpPassManager &pm) {
  // XLA: HloPassFix over GatherSimplifier, GatherExpander, ScatterSimplifier,
  // ScatterExpander, ScatterSliceSimplifier,
  // DotStrengthReduction (XLA 0.10.2 runs these before the algebraic
  // simplifier), AlgebraicSimplifier, DotDecomposer, DotMerger (XLA 0.10.2
  // runs it once after the loop), SortSimplifier, WhileLoopConstantSinking,
  // WhileLoopSimplifier, SliceSinker, ReshapeMover, HloConstantFolding,
  // ConditionalSimplifier, TransposeFolding, HloCSE, HloDCE (the tuple
  // simplifier, which XLA runs in its simplification pipeline too, sits after
  // the loop simplifier whose tuples it folds).
  OpPassManager body(ModuleOp::getOperationName());
  // XLA 0.10.2 starts the loop with GatherSimplifier, GatherExpander
  // (simple gathers) and ScatterSimplifier before the scatter expander.
  body.addPass(createHloGatherSimplifier());
  HloGatherExpanderOptions gather;
  gather.mode = GatherExpanderMode::EliminateSimple;
  body.addPass(createHloGatherExpander(gather));
  body.addPass(createHloScatterSimplifier());
  addSimpleScatterGatherExpanders(body, /*gathers=*/false);
  body.addPass(createHloScatterSliceSimplifier());
  body.addPass(createHloDotStrengthReduction());
  body.addPass(createGpuSimplifier());
  body.addPass(createHloDotDecomposer());
  body.addPass(createHloDotMerger());
  body.addPass(createHloSortSimplifier());
  body.addPass(createHloWhileLoopConstantSinking());
  body.addPass(createHloWhileLoopSimplifier());
  body.addPass(createHloTupleSimplifier());
  body.addPass(createHloSliceSinker());
  body.addPass(createHloReshapeMover());
  body.addPass(createHloConstantFolding());
  body.addPass(createHloConditionalSimplifier());
  HloTransposeFoldingOptions transposeFolding;
  transposeFolding.foldConvolutionTransposes = false; // XLA-GPU's choice
  body.addPass(createHloTransposeFolding(transposeFolding));
  body.addPass(createHloCse());
  body.addPass(createHloDce());
  pm.addPass(createHloFixedPointPass(std::move(body)));
}

void mlir::hlo::buildHloOptimizationPipeline(
    OpPassManager &pm, const GpuOptimizeOptions &options) {
  // XLA (GPU): DotDimensionSorter, DotDecomposer, ResultCaster,
  // OperandUpcaster, DotOperandConverter, SubByteNormalization
  // ("sub-byte-size-setter"), RngExpander,
  // RngBitGeneratorExpander (philox), PermutationSortExpander,
  // SortRewriter (CUB radix sorts), ComparisonExpander,
  // ZeroSizedHloElimination, with deterministic ops ScatterExpander
  // (kEliminateIndeterministicScatters), GpuScatterExpander, CallInliner,
  // StochasticConvertDecomposer, Convolution4DExpander,
  // ConvolutionPredExpander, LogisticExpander, BatchNormExpander (all
  // three forms), ConditionalCanonicalizer, DynamicDimensionSimplifier,
  // ReduceWindowRewriter (base length 16), DynamicPadder, SortRewriter,
  // StableSortExpander,
  // then (no XLA pass: XLA's GPU compiler rejects the form) the in-place
  // collective-permute expanded, then simplification. First XLA 0.10.2's
  // "pre-spmd-partitioner" passes: CompositeRewriter (JAX's scaled-dot
  // composites, before a call inliner would inline them),
  // ConvertMemoryPlacementToInternalAnnotations, TopkDecomposer
  // and TopkRewriter (every top-k a `TopK` call); its "sharding-removal";
  // then its TopKSplitter, TopkSpecializer (XLA-GPU's top-k kernel) and
  // TopkDecomposer (the other calls sorts again).
  pm.addPass(createHloCompositeRewriter());
  pm.addPass(createHloConvertMemoryPlacementToInternalAnnotations());
  pm.addPass(createHloTopkDecomposer());
  pm.addPass(createHloTopkRewriter());
  // XLA's "spmd-partitioner" where use_spmd_partitioning is set, else its
  // "sharding-removal" (ShardyXLA, then ShardingRemover).
  if (options.spmd)
    buildHloSpmdPartitioningPipeline(pm);
  else
    pm.addPass(createHloShardyXla());
  pm.addPass(createHloShardingRemover());
  pm.addPass(createHloTopkSplitter());
  pm.addPass(createHloTopkSpecializer());
  pm.addPass(createHloTopkDecomposer());
  pm.addPass(createHloRaggedDotRewriter());
  // XLA 0.10.2 runs it right after RaggedDotRewriter, before any pass that
  // reads a gather or scatter.
  pm.addPass(createHloBatchedGatherScatterNormalizer());
  // XLA-GPU's ScaledDotRewriter runs before its GEMM rewriter; here before
  // the dot passes and layout assignment (hlo-scaled-dot-rewriter).
  pm.addPass(createHloScaledDotRewriter());
  // XLA 0.10.2's order after its TopK passes: DotDimensionSorter,
  // DotDecomposer, ResultCaster, OperandUpcaster (its GPU filter from Volta
  // on: cuBLAS matmuls are left alone), DotOperandConverter.
  pm.addPass(createHloDotDimensionSorter());
  pm.addPass(createHloDotDecomposer());
  pm.addPass(createHloResultCaster());
  HloOperandUpcasterOptions upcaster;
  upcaster.skipCublasMatmuls = true;
  pm.addPass(createHloOperandUpcaster(upcaster));
  pm.addPass(createHloDotOperandConverter());
  pm.addPass(createHloSubByteSizeSetter());
  pm.addPass(createHloRngExpander());
  pm.addPass(createHloRngBitGeneratorExpander());
  pm.addPass(createHloPermutationSortExpander());
  // XLA-GPU runs its SortRewriter here and again after DynamicPadder.
  if (options.cubSort)
    pm.addPass(createHloSortRewriter());
  pm.addPass(createHloComparisonExpander());
  pm.addPass(createHloZeroSizedHloElimination());
  if (options.deterministic) {
    // Scatters whose result may depend on the order of their updates
    // (atomics on the GPU) become loops.
    HloScatterExpanderOptions scatter;
    scatter.mode = ScatterExpanderMode::EliminateIndeterministic;
    pm.addPass(createHloScatterExpander(scatter));
  }
  // XLA 0.10.2: SelectAndScatterExpander (not here: hlo-to-gpu computes a
  // select-and-scatter in one kernel), CholeskyExpander (here on request:
  // cuSOLVER takes cholesky otherwise), GpuScatterExpander, QrExpander.
  if (options.expandCholesky)
    pm.addPass(createHloCholeskyExpander());
  pm.addPass(createHloGpuScatterExpander());
  pm.addPass(createHloQrExpander());
  // XLA 0.10.2's EighExpander (here on request: cuSOLVER's syevd takes the
  // call otherwise).
  if (options.expandEigh)
    pm.addPass(createHloEighExpander());
  // Ours: generic async computations as calls, inlined next; XLA's
  // ScanExpander, whose loop bodies call the scan's computation.
  pm.addPass(createHloAsyncToCall());
  pm.addPass(createHloScanExpander());
  pm.addPass(createHloCallInliner());
  pm.addPass(createHloStochasticConvertDecomposer());
  pm.addPass(createHloConvolution4DExpander());
  pm.addPass(createHloConvolutionPredExpander());
  pm.addPass(createHloLogisticExpander());
  HloBatchNormExpanderOptions batchNorm;
  batchNorm.rewriteTrainingOp = true;
  batchNorm.rewriteInferenceOp = true;
  batchNorm.rewriteGradOp = true;
  pm.addPass(createHloBatchNormExpander(batchNorm));
  pm.addPass(createHloConditionalCanonicalizer());
  pm.addPass(createHloDynamicDimensionSimplifier());
  pm.addPass(createHloReduceWindowRewriter());
  pm.addPass(createHloDynamicPadder());
  if (options.cubSort)
    pm.addPass(createHloSortRewriter());
  pm.addPass(createHloStableSortExpander());
  pm.addPass(createHloCollectivePermuteInPlaceExpander());
  buildHloSimplificationPipeline(pm);
  // XLA's "simplification-2": ConvertMover, AlgebraicSimplifier.
  pm.addPass(createHloConvertMover());
  pm.addPass(createGpuSimplifier());
}

void mlir::hlo::buildHloCollectiveOptimizationsPipeline(OpPassManager &pm) {
  // XLA: RaggedAllToAllCanonicalizer, AllReduceSimplifier, AllReduceFolder,
  // AllReduceSplitter,
  // AllGatherOptimizer, AllGatherDynamicSliceSimplifier,
  // AllGatherPadDsSimplifier,
  // AllGatherDynamicSlicePermutedOffsetSimplifier, AllReduceReassociate,
  // ReduceScatterReassociate, WhileLoopAllReduceCodeMotion,
  // CollectiveQuantizer, ReduceScatterCreator, AllGatherBroadcastReorder,
  // AllGatherRemoveDegenerateDims, CollectivePipeliner (forward, for
  // reduce-scatters: xla_gpu_enable_pipelined_reduce_scatter, XLA 0.10.2's
  // default; the analyzer before it only annotates), then
  // AlgebraicSimplifier,
  // AllReducePromotion, HloDCE (which removes the reducers promotion left
  // unused) and WhileLoopTripCountAnnotator.
  pm.addPass(createHloRaggedAllToAllCanonicalizer());
  pm.addPass(createHloAllReduceSimplifier());
  pm.addPass(createHloAllReduceFolder());
  pm.addPass(createHloAllReduceSplitter());
  pm.addPass(createHloAllGatherOptimizer());
  pm.addPass(createHloAllGatherDynamicSliceSimplifier());
  pm.addPass(createHloAllGatherPadDsSimplifier());
  pm.addPass(createHloAllGatherToCollectivePermuteSimplifier());
  pm.addPass(createHloAllReduceReassociate());
  pm.addPass(createHloReduceScatterReassociate());
  pm.addPass(createHloWhileLoopAllReduceCodeMotion());
  pm.addPass(createHloCollectiveQuantizer());
  pm.addPass(createHloReduceScatterCreator());
  pm.addPass(createHloAllGatherBroadcastReorder());
  pm.addPass(createHloAllGatherRemoveDegenerateDims());
  pm.addPass(createHloCollectivePipeliner());
  pm.addPass(createGpuSimplifier());
  pm.addPass(createHloAllReducePromotion());
  pm.addPass(createHloDce());
  pm.addPass(createHloWhileLoopTripCountAnnotator());
}

// XLA-GPU's pipelines after the collective optimizations, in the order XLA
// 0.10.2 runs its passes (its module metadata, `docs/passes.md`), with the
// passes this project has.

/// The algebraic simplifier as XLA runs it once layouts are assigned.
static std::unique_ptr<Pass> createLayoutSensitiveSimplifier() {
  return createGpuSimplifier(/*layoutSensitive=*/true);
}

void mlir::hlo::buildHloConvCanonicalizationPipeline(OpPassManager &pm) {
  // XLA: GpusolverRewriter (seed 002), ConvRewriter, CudnnFusedConvRewriter,
  // ConvPaddingLegalization, CudnnPadForConvolutions, CallInliner,
  // TupleSimplifier, AlgebraicSimplifier, CudnnSimplifyPadding, ReshapeMover
  // + AlgebraicSimplifier, ConvertMover + AlgebraicSimplifier (XLA's
  // "simplify_after_conv_canonicalization"), HloConstantFolding.
  pm.addPass(createHloGpusolverRewriter());
  pm.addPass(createHloGpuConvRewriter());
  pm.addPass(createHloCudnnFusedConvRewriter());
  pm.addPass(createHloGpuConvPaddingLegalization());
  pm.addPass(createHloCudnnPadForConvolutions());
  pm.addPass(createHloCallInliner());
  pm.addPass(createHloTupleSimplifier());
  pm.addPass(createGpuSimplifier());
  pm.addPass(createHloCudnnSimplifyPadding());
  pm.addPass(createHloReshapeMover());
  pm.addPass(createGpuSimplifier());
  pm.addPass(createHloConvertMover());
  pm.addPass(createGpuSimplifier());
  pm.addPass(createHloConstantFolding());
}

void mlir::hlo::buildHloLayoutAssignmentPipeline(OpPassManager &pm) {
  // XLA: FlattenCallGraph, GpuLayoutAssignment, SubByteNormalization,
  // OptimizeInputOutputBufferAlias (buffer donors only); then its "layout
  // normalization" pipeline: ReshapeDecomposer, MoveCopyToUsers,
  // LayoutNormalization, AlgebraicSimplifier (layout-sensitive),
  // BroadcastCanonicalizer.
  pm.addPass(createHloFlattenCallGraph());
  pm.addPass(createHloGpuLayoutAssignment());
  pm.addPass(createHloSubByteSizeSetter());
  pm.addPass(createHloOptimizeInputOutputBufferAlias());
  pm.addPass(createHloReshapeDecomposer());
  pm.addPass(createHloMoveCopyToUsers());
  pm.addPass(createHloLayoutNormalization());
  pm.addPass(createLayoutSensitiveSimplifier());
  pm.addPass(createHloBroadcastCanonicalizer());
}

static void buildPostLayoutAssignment(OpPassManager &pm,
                                      const GpuOptimizeOptions &options);
static void buildFusion(OpPassManager &pm, bool tritonSoftmax);

void mlir::hlo::buildHloPostLayoutAssignmentPipeline(OpPassManager &pm) {
  buildPostLayoutAssignment(pm, {});
}

static void buildPostLayoutAssignment(OpPassManager &pm,
                                      const GpuOptimizeOptions &options) {
  // XLA's NVPTX "post-layout_assignment part 1" (BlockScalingRewriter,
  // DotDimensionMerger), its
  // "hlo normalization" and "post-layout_assignment" pipelines:
  // AlgebraicSimplifier, TransposeFolding, ReshapeDecomposer,
  // ReduceDecomposer, AlgorithmChecker, DotNormalizer, CublasPadForGemms,
  // HloConstantFolding, DotAlgorithmRewriter, GemmRewriter,
  // GemmBroadcastFoldingRewriter, ReshapeDecomposer, MoveCopyToUsers,
  // LayoutNormalization, AlgebraicSimplifier, BroadcastCanonicalizer,
  // ReductionDegenerateDimRemover, ReductionLayoutNormalizer,
  // AlgebraicSimplifier, HloCSE, HloConstantFolding, HloDCE,
  // SoftmaxRewriterTriton ("triton-softmax-rewriter"),
  // ReductionDimensionGrouper, ReductionSplitter, TreeReductionRewriter,
  // SubByteNormalization (the end of XLA's "hlo normalization"),
  // SubByteCollectiveNormalization (the first of its
  // "post-layout_assignment"), HostOffloader, FloatNormalization,
  // SimplifyFPConversions (its last pass in XLA's "float_normalization"),
  // TupleSimplifier, AlgebraicSimplifier, SimplifyFPConversions (both with
  // xla_allow_excess_precision), HloCSE, HostMemoryTransferAsyncifier;
  // TriangularSolveRewriter (XLA's NVPTX
  // part 2); then the convolution and GEMM algorithm pickers (seed 002 places
  // them here, XLA 0.10.2 after fusion).
  pm.addPass(createHloBlockScalingRewriter());
  pm.addPass(createHloDotDimensionMerger());
  pm.addPass(createLayoutSensitiveSimplifier());
  HloTransposeFoldingOptions transposeFolding;
  transposeFolding.foldConvolutionTransposes = false;
  pm.addPass(createHloTransposeFolding(transposeFolding));
  pm.addPass(createHloReshapeDecomposer());
  pm.addPass(createHloReduceDecomposer());
  pm.addPass(createHloAlgorithmChecker());
  pm.addPass(createHloDotNormalizer());
  pm.addPass(createHloCublasPadForGemms());
  pm.addPass(createHloConstantFolding());
  pm.addPass(createHloDotAlgorithmRewriter());
  pm.addPass(createHloGemmRewriter());
  pm.addPass(createHloGemmBroadcastFoldingRewriter());
  pm.addPass(createHloReshapeDecomposer());
  pm.addPass(createHloMoveCopyToUsers());
  pm.addPass(createHloLayoutNormalization());
  pm.addPass(createLayoutSensitiveSimplifier());
  pm.addPass(createHloBroadcastCanonicalizer());
  pm.addPass(createHloReductionDegenerateDimRemover());
  pm.addPass(createHloReductionLayoutNormalizer());
  pm.addPass(createLayoutSensitiveSimplifier());
  pm.addPass(createHloCse());
  pm.addPass(createHloConstantFolding());
  pm.addPass(createHloDce());
  if (options.tritonSoftmax)
    pm.addPass(createHloSoftmaxRewriterTriton());
  pm.addPass(createHloReductionDimensionGrouper());
  pm.addPass(createHloReductionSplitter());
  pm.addPass(createHloGpuTreeReductionRewriter());
  pm.addPass(createHloSubByteSizeSetter());
  // XLA's "hlo normalization" ends with DevicelessEstimateCubSortScratchSize.
  pm.addPass(createHloEstimateCubSortScratchSize());
  pm.addPass(createHloTransposeDimensionGrouper());
  pm.addPass(createHloSubByteCollectiveNormalization());
  pm.addPass(createHloHostOffloader());
  pm.addPass(createHloFloatNormalization());
  if (options.allowExcessPrecision)
    pm.addPass(createHloSimplifyFPConversions());
  pm.addPass(createHloTupleSimplifier());
  pm.addPass(createLayoutSensitiveSimplifier());
  if (options.allowExcessPrecision)
    pm.addPass(createHloSimplifyFPConversions());
  pm.addPass(createHloCse());
  pm.addPass(createHloHostMemoryTransferAsyncifier());
  // XLA's "nvptx post-layout_assignment part 2".
  pm.addPass(createHloTriangularSolveRewriter());
  HloConvAlgorithmPickerOptions conv;
  conv.autotuneCache = options.autotuneCache;
  pm.addPass(createHloConvAlgorithmPicker(conv));
  HloGemmAlgorithmPickerOptions gemm;
  gemm.autotuneCache = options.autotuneCache;
  pm.addPass(createHloGemmAlgorithmPicker(gemm));
}

void mlir::hlo::buildHloFusionPipeline(OpPassManager &pm) {
  buildFusion(pm, /*tritonSoftmax=*/true);
}

static void buildFusion(OpPassManager &pm, bool tritonSoftmax) {
  // XLA: VariadicOpSplitter, PriorityFusion, HloCSE, HloDCE,
  // GpuMultiOutputFusion, HloCSE, HloDCE.
  pm.addPass(createHloVariadicOpSplitter());
  HloPriorityFusionOptions priorityFusion;
  priorityFusion.tritonSoftmaxFusion = tritonSoftmax;
  pm.addPass(createHloPriorityFusion(priorityFusion));
  pm.addPass(createHloCse());
  pm.addPass(createHloDce());
  pm.addPass(createHloMultiOutputFusion());
  pm.addPass(createHloCse());
  pm.addPass(createHloDce());
}

void mlir::hlo::buildHloHorizontalFusionPipeline(OpPassManager &pm) {
  // XLA (seed 002): GpuHorizontalLoopFusion, GpuHorizontalInputFusion,
  // HloCSE, HloDCE.
  pm.addPass(createHloHorizontalLoopFusion());
  pm.addPass(createHloHorizontalInputFusion());
  pm.addPass(createHloCse());
  pm.addPass(createHloDce());
}

void mlir::hlo::buildHloPostFusionOptimizationPipeline(
    OpPassManager &pm, const GpuOptimizeOptions &options) {
  // XLA: HloDCE, TupleSimplifier, AllGatherCombiner, AllReduceCombiner,
  // ReduceScatterCombiner, CollectivePermuteCombiner; AsyncCollectiveCreator
  // ("async-collective-conversion"); AlgebraicSimplifier
  // ("post-fusion-simplification").
  pm.addPass(createHloDce());
  pm.addPass(createHloTupleSimplifier());
  pm.addPass(createHloAllGatherCombiner());
  pm.addPass(createHloAllReduceCombiner());
  pm.addPass(createHloReduceScatterCombiner());
  pm.addPass(createHloCollectivePermuteCombiner());
  pm.addPass(createHloGpuAsyncCollectiveConversion());
  pm.addPass(createLayoutSensitiveSimplifier());
  // XLA runs its FusionWrapper next (in its autotuning pipeline): every
  // kernel is a fusion's from here on (but XLA's top-k custom kernels).
  HloFusionWrapperOptions wrapper;
  wrapper.topkKernel = options.topkKernel;
  pm.addPass(createHloFusionWrapper(wrapper));
}

void mlir::hlo::buildHloGpuOptimizePipeline(OpPassManager &pm,
                                            const GpuOptimizeOptions &options) {
  // JAX's cuDNN fusion calls as XLA's first pass makes them (kCustom
  // fusions); then, as in modules XLA optimized, the custom fusions its
  // kernel generators take (XNNPACK, YNNPACK, Triton and cuDNN GEMMs)
  // unfused.
  pm.addPass(createHloCudnnCustomCallConverter());
  pm.addPass(createHloCustomFusionInliner());
  // Transformer Engine's softmax calls as the HLO they compute.
  pm.addPass(createHloTransformerEngineSoftmaxExpander());
  buildHloOptimizationPipeline(pm, options);
  buildHloCollectiveOptimizationsPipeline(pm);
  buildHloConvCanonicalizationPipeline(pm);
  buildHloLayoutAssignmentPipeline(pm);
  buildPostLayoutAssignment(pm, options);
  buildFusion(pm, options.tritonSoftmax);
  buildHloHorizontalFusionPipeline(pm);
  buildHloPostFusionOptimizationPipeline(pm, options);
  // XLA's pre-scheduling copy insertion, scheduling and buffer assignment.
  // Copy insertion decides over the order of the instructions (here it adds
  // only the copies it finds necessary instead of removing the rest
  // afterwards), so it runs after scheduling, on the final order; XLA's
  // LoopScheduleLinearizer first tells the schedulers to read a loop's old
  // state before writing the new one.
  pm.addPass(createHloFlattenCallGraph());
  pm.addPass(createHloLoopScheduleLinearizer());
  pm.addPass(createHloP2PSchedulePreparation());
  pm.addPass(createHloMemoryScheduler());
  if (options.latencyHiding)
    pm.addPass(createHloLatencyHidingScheduler());
  // XLA's post-scheduling passes: pairs nothing overlaps become synchronous.
  pm.addPass(createHloGpuConvertAsyncCollectivesToSync());
  // XLA rematerializes after scheduling (its GPU compiler after copy
  // insertion; here before it, so that the copies see the final order).
  pm.addPass(createHloRematerialization());
  pm.addPass(createHloGpuCopyInsertion());
  pm.addPass(createHloCopyFusion());
  pm.addPass(createHloSanitizeConstantNames());
  pm.addPass(createHloBufferAssignment());
}

void mlir::hlo::registerHloPasses() {
  registerHloTransformsPasses();
  registerHloGpuLibraryPasses();
  registerHloGpuLayoutPasses();
  registerHloGpuFusionPasses();
  registerHloCollectivePasses();
  registerHloBufferAssignmentPasses();
  registerHloHostOffloadPasses();
  PassPipelineRegistration<>(
      "hlo-spmd-simplify",
      "XLA's spmd-simplify pipeline (the passes this project has)",
      buildHloSpmdSimplifyPipeline);
  PassPipelineRegistration<>(
      "hlo-spmd-partitioning",
      "XLA's spmd-partitioner pipeline: spmd-simplify, sharding "
      "propagation, the SPMD partitioner",
      buildHloSpmdPartitioningPipeline);
  PassPipelineRegistration<>(
      "hlo-simplification",
      "XLA's simplification pipeline, run to a fixed point (the passes this "
      "project has)",
      buildHloSimplificationPipeline);
  PassPipelineRegistration<GpuOptimizePipelineOptions>(
      "hlo-optimization",
      "XLA's optimization pipeline, ending with simplification (the passes "
      "this project has)",
      [](OpPassManager &pm, const GpuOptimizePipelineOptions &options) {
        buildHloOptimizationPipeline(pm, options.get());
      });
  PassPipelineRegistration<>(
      "hlo-collective-optimizations",
      "XLA's collective-optimizations pipeline (the passes this project has)",
      buildHloCollectiveOptimizationsPipeline);
  PassPipelineRegistration<>(
      "hlo-conv-canonicalization",
      "XLA-GPU's conv-canonicalization pipeline: convolutions and solvers "
      "into cuDNN and cuSOLVER calls (the passes this project has)",
      buildHloConvCanonicalizationPipeline);
  PassPipelineRegistration<>(
      "hlo-layout-assignment",
      "XLA-GPU's layout-assignment and layout-normalization pipelines (the "
      "passes this project has)",
      buildHloLayoutAssignmentPipeline);
  PassPipelineRegistration<GpuOptimizePipelineOptions>(
      "hlo-post-layout-assignment",
      "XLA-GPU's post-layout-assignment pipelines: GEMM rewrites, reduction "
      "rewrites, algorithm choice (the passes this project has)",
      [](OpPassManager &pm, const GpuOptimizePipelineOptions &options) {
        buildPostLayoutAssignment(pm, options.get());
      });
  PassPipelineRegistration<GpuOptimizePipelineOptions>(
      "hlo-fusion", "XLA-GPU's fusion pipeline (the passes this project has)",
      [](OpPassManager &pm, const GpuOptimizePipelineOptions &options) {
        buildFusion(pm, options.tritonSoftmax);
      });
  PassPipelineRegistration<>(
      "hlo-horizontal-fusion",
      "XLA-GPU's horizontal-fusion pipeline (the passes this project has)",
      buildHloHorizontalFusionPipeline);
  PassPipelineRegistration<GpuOptimizePipelineOptions>(
      "hlo-post-fusion-optimization",
      "XLA-GPU's post-fusion-optimization pipeline: collective combiners, "
      "asynchronous collectives (the passes this project has)",
      [](OpPassManager &pm, const GpuOptimizePipelineOptions &options) {
        buildHloPostFusionOptimizationPipeline(pm, options.get());
      });
  PassPipelineRegistration<GpuOptimizePipelineOptions>(
      "hlo-gpu-optimize",
      "XLA-GPU's HLO optimization from the optimization pipeline through "
      "post-fusion optimization, in XLA's order: pre-optimization HLO in, "
      "fused GPU HLO out (the passes this project has)",
      [](OpPassManager &pm, const GpuOptimizePipelineOptions &options) {
        buildHloGpuOptimizePipeline(pm, options.get());
      });
}
