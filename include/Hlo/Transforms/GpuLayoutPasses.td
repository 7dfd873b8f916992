//===- GpuLayoutPasses.td - GPU layout passes --------------*- tablegen -*-===//
//
// XLA-GPU's layout assignment and the passes that normalize
// layouts, reshapes, transposes and reductions around it.
// Registered with the other passes by registerHloPasses() (Passes.h);
// docs/passes.md documents every pass.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSFORMS_GPU_LAYOUT_PASSES
#define HLO_TRANSFORMS_GPU_LAYOUT_PASSES

include "mlir/Pass/PassBase.td"

def HloReductionDegenerateDimRemover
    : Pass<"hlo-reduction-degenerate-dim-remover", "::mlir::ModuleOp"> {
  let summary = "Size-1 dimensions out of reduces (XLA's "
                "ReductionDegenerateDimRemover)";
  let description = [{
    A `reduce` whose inputs have dimensions of size 1 reduces reshapes of
    its inputs without them, over the remaining reduced dimensions, and a
    reshape gives the result its shape back when it had size-1 dimensions
    too (for a variadic reduce, one reshape per element of the tuple, which
    is rebuilt). A reduce over size-1 dimensions only becomes a reshape of
    its input, as in XLA (HLO's init value is an identity of the reducer).
    Left alone: inputs without size-1 dimensions, non-default layouts,
    dynamic shapes, reduces with control predecessors, fused computations.
  }];
  let statistics = [
    Statistic<"numRewritten", "rewritten", "Reduces rewritten">,
  ];
}

def HloReductionDimensionGrouper
    : Pass<"hlo-reduction-dimension-grouper", "::mlir::ModuleOp"> {
  let summary = "Merge adjacent reduced dimensions (XLA's "
                "ReductionDimensionGrouper)";
  let description = [{
    A `reduce` over two or more adjacent dimensions reduces a reshape of its
    inputs in which each run of adjacent reduced dimensions is one
    dimension (their product); the result is unchanged. Variadic reduces
    too (every input is reshaped). Left alone: reduces without adjacent
    reduced dimensions, non-default layouts (XLA requires the default
    layout), dynamic shapes, reduces with control predecessors, fused
    computations.
  }];
  let statistics = [
    Statistic<"numRewritten", "rewritten", "Reduces rewritten">,
  ];
}

def HloReductionSplitter
    : Pass<"hlo-reduction-splitter", "::mlir::ModuleOp"> {
  let summary = "Split reduces over non-contiguous dimensions in two "
                "(XLA's ReductionSplitter)";
  let description = [{
    A `reduce` over two or more dimensions that neither the reduced nor the
    kept dimensions form a run of (so that XLA-GPU's reduction emitter
    cannot take it) becomes a reduce over the largest reduced dimension
    (the first of equal ones) followed by a reduce over the others, again
    until the rest is contiguous (XLA runs the pass in HloPassFix).
    With `ignore-small-dims`, reduces whose largest reduced dimension has
    at most 8 elements stay. Left alone: contiguous reductions, one reduced
    dimension, variadic reduces, adjacent reduced dimensions (the dimension
    grouper's work first), non-default layouts, dynamic shapes, reduces with
    control predecessors, fused computations.
  }];
  let options = [
    Option<"ignoreSmallDims", "ignore-small-dims", "bool", /*default=*/"false",
           "Leave reduces whose largest reduced dimension is at most 8 "
           "(XLA's ignore_small_reduce_dims)">,
  ];
  let statistics = [
    Statistic<"numSplits", "splits", "Reduces split">,
  ];
}

def HloGpuTreeReductionRewriter
    : Pass<"hlo-gpu-tree-reduction-rewriter", "::mlir::ModuleOp"> {
  let summary = "Reductions too large for one race-free kernel as two "
                "reduces (XLA's GpuTreeReductionRewriter)";
  let description = [{
    Rewrites the reduces that XLA-GPU's reduction emitter takes (the reduced
    or kept dimensions contiguous) but cannot run without atomics (seed
    002, section 3.8). With the tile {min(depth, 8), 1, 16} of a row
    reduction and {1, 128, 1} of a column one, a row reduction fits when
    its width is at most `min-threads-x-row-reduction` * 16 and its depth
    at most 8, a column one when its height is at most 32 * 128.
    A batched row reduction [A, B, C] -> [B] with A > 8 becomes a reduce
    over C then one over A. Otherwise the last reduced dimension, of size
    n, is split in two: with M = ceil(sqrt(n)), into [n / M, M] when M
    divides n, else padded with the init value to M * M and split into
    [M, M] (or to the next multiple of M with `pad-to-multiple`); an inner
    reduce takes the minor part M (and the batch dimension), an outer one
    the rest. The new reduces are rewritten again while they do not fit (XLA
    runs the pass in HloPassFix).
    Left alone: reductions that fit, variadic reduces, more than two reduced
    dimensions or shapes other than [.., R], [R, .., R] and [.., R, ..]
    (run the degenerate-dimension remover and the dimension grouper first),
    non-default layouts, dynamic shapes, reduces with control predecessors,
    fused computations.
  }];
  let options = [
    Option<"minThreadsXRowReduction", "min-threads-x-row-reduction",
           "int64_t", /*default=*/"1024",
           "Threads per block along a reduced row (XLA's "
           "MinThreadsXRowReduction: 1024, 512 with ptxas before 12.2)">,
    Option<"padToMultiple", "pad-to-multiple", "bool", /*default=*/"false",
           "Pad the split dimension to the next multiple of ceil(sqrt(n)) "
           "rather than to its square">,
  ];
  let statistics = [
    Statistic<"numSplits", "splits", "Reduces split into padded tiles">,
    Statistic<"numBatchSplits", "batch-splits",
              "Batched row reductions split at the batch dimension">,
  ];
}

#endif // HLO_TRANSFORMS_GPU_LAYOUT_PASSES
