//===- Passes.h - passes over the hlo dialect -------------------*- C++ -*-===//
//
// XLA's target-independent HLO passes (Passes.td), the pipelines that group
// all passes under XLA's pipeline names, and the registration of every pass.
// The other areas' passes are declared in their own headers
// (GpuLibraryPasses.h, GpuLayoutPasses.h, GpuFusionPasses.h,
// CollectivePasses.h, HostOffloadPasses.h, BufferAssignmentPasses.h); a pass
// includes only its area's header.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSFORMS_PASSES_H
#define HLO_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::hlo {

/// XLA's ScatterExpander::Mode and GatherExpander::Mode: which scatters and
/// gathers hlo-scatter-expander and hlo-gather-expander expand.
enum class ScatterExpanderMode {
  EliminateAll,
  EliminateSimple,
  EliminateIndeterministic
};
enum class GatherExpanderMode { EliminateAll, EliminateSimple };

#define GEN_PASS_DECL
#include "Hlo/Transforms/Passes.h.inc"

/// hlo-fixed-point around `pipeline` (XLA's HloPassFix): runs it until the
/// module stops changing, at most `maxIterations` times.
std::unique_ptr<Pass> createHloFixedPointPass(OpPassManager pipeline,
                                              unsigned maxIterations = 25);

/// The choices of XLA's GPU compile that `hlo-gpu-optimize` (and
/// `hlo-gpu-pipeline`) take as options.
struct GpuOptimizeOptions {
  /// XLA's xla_gpu_deterministic_ops: scatters whose result may depend on
  /// the order of their updates become loops.
  bool deterministic = false;
  /// XLA's xla_gpu_load_autotune_results_from: the autotune results the
  /// GEMM and convolution algorithm pickers read (empty: XLA's deviceless
  /// defaults).
  std::string autotuneCache;
  /// Triton normalization fusions (XLA turns them off with Triton or on
  /// pre-Ampere devices).
  bool tritonSoftmax = true;
  /// XLA's xla_gpu_enable_latency_hiding_scheduler.
  bool latencyHiding = true;
  /// XLA's xla_allow_excess_precision: chains of float converts become one
  /// (hlo-simplify-fp-conversions), keeping more precision than asked for.
  bool allowExcessPrecision = true;
  /// XLA's xla_gpu_enable_cub_radix_sort: large sorts become CUB radix sort
  /// calls (hlo-sort-rewriter).
  bool cubSort = true;
  /// XLA 0.10.2's CholeskyExpander (hlo-cholesky-expander) rather than
  /// cuSOLVER's potrf (hlo-gpusolver-rewriter) for cholesky.
  bool expandCholesky = false;
  /// XLA 0.10.2's EighExpander (hlo-eigh-expander) rather than cuSOLVER's
  /// syevd (hlo-gpusolver-rewriter) for XLA's Eigh call.
  bool expandEigh = false;
  /// XLA-GPU's top-k kernel calls as fusions for hlo-to-gpu's top-k
  /// emitter, not thunk.top_k (the runtimes' prebuilt kernel).
  bool topkKernel = false;
  /// XLA's use_spmd_partitioning (JAX sets it for every program of
  /// several partitions): the optimization pipeline partitions the program
  /// (hlo-spmd-partitioning) instead of removing its shardings.
  bool spmd = false;
};
/// Adds XLA's pipelines, with the passes this project has, in XLA's order:
/// spmd-simplify, simplification (a fixed point), optimization (which ends
/// with simplification) and collective-optimizations.
void buildHloSpmdSimplifyPipeline(OpPassManager &pm);
void buildHloSimplificationPipeline(OpPassManager &pm);
/// XLA's "spmd-partitioner": spmd-simplify, hlo-sharding-propagation,
/// hlo-spmd-partitioner.
void buildHloSpmdPartitioningPipeline(OpPassManager &pm);
/// Optimization takes `deterministic`, `cubSort`, `expandCholesky` and
/// `expandEigh` of `options`.
void buildHloOptimizationPipeline(OpPassManager &pm,
                                  const GpuOptimizeOptions &options = {});
void buildHloCollectiveOptimizationsPipeline(OpPassManager &pm);

/// XLA-GPU's pipelines after them, in XLA's order, and `hlo-gpu-optimize`,
/// which runs all of them from optimization to post-fusion optimization.
void buildHloConvCanonicalizationPipeline(OpPassManager &pm);
void buildHloLayoutAssignmentPipeline(OpPassManager &pm);
void buildHloPostLayoutAssignmentPipeline(OpPassManager &pm);
void buildHloFusionPipeline(OpPassManager &pm);
void buildHloHorizontalFusionPipeline(OpPassManager &pm);
/// Post-fusion optimization takes `topkKernel` of `options`.
void buildHloPostFusionOptimizationPipeline(
    OpPassManager &pm, const GpuOptimizeOptions &options = {});
void buildHloGpuOptimizePipeline(OpPassManager &pm,
                                 const GpuOptimizeOptions &options = {});

/// Registers every pass and pipeline (`hlo-opt --list-passes`).
void registerHloPasses();

#define GEN_PASS_REGISTRATION
#include "Hlo/Transforms/Passes.h.inc"

} // namespace mlir::hlo

#endif // HLO_TRANSFORMS_PASSES_H
