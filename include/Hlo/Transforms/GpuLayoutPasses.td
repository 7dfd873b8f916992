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

def HloGpuLayoutAssignment
    : Pass<"hlo-gpu-layout-assignment", "::mlir::ModuleOp"> {
  let summary = "Give every array an explicit layout (XLA's "
                "GpuLayoutAssignment over LayoutAssignment)";
  let description = [{
    Seed 004 (layout assignment) and seed 002 (table 1, the
    layout-assignment pipeline). Every array value gets an explicit
    `#hlo.layout`; where an operand's layout differs from the one its user
    requires, a `copy` to the required layout is inserted (the only
    instruction that moves data between layouts afterwards).
    Constraints, as XLA 0.10.2 sets them for an H100:
    - the ENTRY computation's parameters and result keep the module's
      `entry_computation_layout` (else the ENTRY signature's layouts, the
      default where none is written);
    - dot: an operand with batch dimensions, or more than one contracting or
      non-contracting dimension, must have a layout cuBLAS takes (the batch,
      contracting and non-contracting dimensions each physically
      consecutive and in order, the batch dimensions not most minor): the
      default layout if it qualifies, else batch, contracting,
      non-contracting from major to minor; such a dot's result takes a
      layout a user asks for if cuBLAS takes it, else the default (XLA's
      SetDotOperandLayout / SetDotLayout). A transpose of a dot that has no
      other user asks for the dot layout that makes the transpose a
      bitcast with a default-layout result;
    - cuDNN convolution custom calls (`__cudnn$conv*`): input, filter and
      output in NHWC (OHWI filter) on Hopper, NCHW (OIHW) for f64 (XLA's
      HeuristicLayoutAssignment; `force-conv-nchw` / `force-conv-nhwc` are
      XLA's debug options); the side input of a fused convolution takes the
      output's layout;
    - sort of rank > 1, fft, custom calls without `operand_layout_constraints`:
      default layouts; custom calls with them: those; triangular-solve: the
      default with the two minor dimensions swapped; all-gather and
      reduce-scatter: the gathered / scattered dimension most major;
    - bitcast: its operand and result keep the layouts they have (a bitcast
      reinterprets memory); fusion: its operands and result keep the fused
      computation's layouts.
    Propagation, from users to operands (instructions in reverse order) then
    from operands to users (in order): elementwise ops and the ops XLA does
    not let change layouts (slice, pad, concatenate, reverse, dynamic-slice,
    dynamic-update-slice, select, clamp, map, reduce-window, convert, copy
    of a constrained value) want their same-rank operands in their own
    layout; a transpose wants the operand layout that makes it a bitcast; a
    reshape the one that makes it a bitcast when there is one (else the
    default); a broadcast prefers its operand in the layout of the
    broadcast dimensions, and a reduce over at least 32 elements prefers
    its operand with the reduced dimensions most minor (XLA's
    PropagateReductionLayoutToOperand); an instruction nobody constrains
    follows its operand (a reduce drops the reduced dimensions, a reshape
    keeps a bitcast) or takes the default layout. Tuples and
    get-tuple-element follow their elements.
    Computations other than ENTRY (while, conditional and call bodies,
    reducers, comparators) have default layouts for their parameters and
    result; their callers get copies where needed. Fused computations are
    left alone. Scalars need no layout and are left as they are.
    Differences from XLA: no priorities between conflicting constraints (the
    first user seen in reverse order wins), so a copy may sit on the other
    side of a transpose than XLA puts it; no AUTO entry layouts.
  }];
  let options = [
    Option<"forceConvNchw", "force-conv-nchw", "bool", /*default=*/"false",
           "cuDNN convolutions in NCHW (XLA's xla_gpu_force_conv_nchw)">,
    Option<"forceConvNhwc", "force-conv-nhwc", "bool", /*default=*/"false",
           "cuDNN convolutions in NHWC (XLA's xla_gpu_force_conv_nhwc)">,
  ];
  let statistics = [
    Statistic<"numCopies", "copies", "Copies inserted for layout conflicts">,
    Statistic<"numLayouts", "layouts", "Values given a layout">,
  ];
}

def HloOptimizeInputOutputBufferAlias
    : Pass<"hlo-optimize-input-output-buffer-alias", "::mlir::ModuleOp"> {
  let summary = "Donated parameter buffers become output buffers (XLA's "
                "OptimizeInputOutputBufferAlias)";
  let description = [{
    XLA's OptimizeInputOutputBufferAlias as XLA-GPU runs it after layout
    assignment, on registered buffer donors only. The array buffers the
    module's `buffer_donor` names and the arrays of the ENTRY result, those
    `input_output_alias` does not name yet, are sorted by size in bytes
    (largest first, stable; donors in parameter order before) and paired
    greedily wherever their sizes are equal: each pair becomes a may-alias
    `input_output_alias` entry and the donor leaves `buffer_donor`. Buffer
    assignment then writes the output into the donated parameter's buffer.
  }];
  let statistics = [
    Statistic<"numAliased", "aliased", "Outputs given a donated buffer">,
  ];
}

def HloSubByteSizeSetter
    : Pass<"hlo-sub-byte-size-setter", "::mlir::ModuleOp"> {
  let summary = "Sub-byte arrays' layouts name their packed element size "
                "(XLA's SubByteNormalization, sub-byte-size-setter)";
  let description = [{
    XLA's SubByteNormalization in its SET_ELEMENT_SIZE mode, which XLA-GPU
    runs three times: in its optimization pipeline after the dot passes, in
    its layout-assignment pipeline right after layout assignment, and at
    the end of its "hlo normalization" pipeline, after the tree reduction
    rewriter. Every array whose elements are stored packed (2- and 4-bit
    integers and floats: `u4`, `s4`, `s2`, `u2`, `f4e2m1fn`) gets that width
    as its layout's element size (`u4[64,32]{1,0:E(4)}` in HLO text; an
    array without a layout gets the default one), every other array an
    element size of 0: the results and block arguments of every
    computation, fused ones included, their signatures and the module's
    `hlo.entry_computation_layout`. Pred, s1, u1 and the 6-bit floats
    take a byte each and get none, as XLA 0.10.2's pass gives none to
    `f6e2m3fn`. With `remove`, XLA's REMOVE_ELEMENT_SIZE mode: every
    element size becomes 0. Only layouts change: the pass never changes
    what the module computes.
  }];
  let options = [
    Option<"remove", "remove", "bool", /*default=*/"false",
           "Remove every element size instead (XLA's REMOVE_ELEMENT_SIZE)">,
  ];
  let statistics = [
    Statistic<"numUpdated", "updated", "Values whose type changed">,
  ];
}

def HloLayoutNormalization
    : Pass<"hlo-layout-normalization", "::mlir::ModuleOp"> {
  let summary = "Rewrite arrays to the default layout with bitcasts at the "
                "boundaries (XLA's LayoutNormalization)";
  let description = [{
    Seed 004 (layout normalization). An instruction whose array result has
    a non-default layout is rewritten on the physical shape of its operands
    (their dimensions from major to minor, in the default layout), reached
    through `bitcast`s; a bitcast back to the original shape and layout
    takes its place for its users. A `copy` between two layouts becomes a
    `transpose` of the physical shapes, a transpose that is a bitcast
    becomes a bitcast (any other one a transpose of the physical shapes);
    elementwise ops, broadcast, reduce, iota, reverse, slice and
    concatenate are rewritten on the physical shapes (with a transpose
    where one is needed: a broadcast whose mapped dimensions are out of
    order, a reduce whose kept dimensions are not in the result's order).
    Then bitcast chains fold: bitcast of a
    bitcast is one bitcast, and a bitcast to its operand's type is
    removed.
    Left alone (as in XLA, they keep their layouts and meet the normalized
    ones through bitcasts): dot, convolution and other custom calls, gather,
    scatter, sort, while, conditional, call, collectives, parameters and the
    ENTRY result; also pad, dynamic-slice, dynamic-update-slice and
    constants (they meet bitcasts); values with tiles, element sizes or
    memory spaces;
    dynamic shapes; instructions with control predecessors; fused
    computations.
    cuDNN convolution custom calls are normalized as XLA does
    (NormalizeLayoutForGpuCustomCalls): their operands and result on the
    physical shapes and their dimension labels renumbered (`b01f_01io` on
    an OHWI filter becomes `b01f_o01i`).
  }];
  let statistics = [
    Statistic<"numNormalized", "normalized",
              "Instructions rewritten on physical shapes">,
    Statistic<"numTransposes", "transposes",
              "Layout-changing copies made explicit transposes">,
  ];
}

def HloMoveCopyToUsers : Pass<"hlo-move-copy-to-users", "::mlir::ModuleOp"> {
  let summary = "Layout-changing copies moved below the ops that read them "
                "(XLA's MoveCopyToUsers)";
  let description = [{
    After layout assignment, a `copy` that changes a layout is moved below
    its user when that user could as well work in the copied value's
    layout: a pad (of the copied operand), slice, dynamic-slice,
    reduce-window of one input, reverse, convert and unary elementwise op
    (not reduce-precision or bitcast-convert) run on the copied value, in
    its layout, and a copy to the user's layout follows; a binary
    elementwise op (compare included) when both operands are copies of
    values of one type, and a concatenate when all operands are copies of
    values of one layout, likewise; a single-output reduce reads the copied
    value directly (reductions take any layout). Users are visited in
    order, so a copy sinks through a chain of them in one run; copies left
    without users are removed. Left alone: ops with control edges, fused
    computations. Not in `hlo-layout-assignment` yet (docs/passes.md).
  }];
  let statistics = [
    Statistic<"numMoved", "moved", "Copies moved below a user">,
  ];
}

def HloReshapeDecomposer
    : Pass<"hlo-reshape-decomposer", "::mlir::ModuleOp"> {
  let summary = "Reshapes that are not bitcasts as copies and bitcasts "
                "(XLA's ReshapeDecomposer)";
  let description = [{
    Seed 004 (layout normalization). A `reshape` whose result is laid out
    in memory as its operand (a bitcast, XLA's ReshapeIsBitcast) becomes a
    `bitcast`. Any other reshape becomes, as in XLA: a `copy` of the
    operand to the layout aligned with the result's (XLA's AlignLayouts)
    followed by a bitcast when there is one; else a bitcast to the result
    layout aligned with the operand's followed by a copy to the result's
    layout; else a copy of the operand to the default layout, a bitcast to
    the result shape in the default layout and a copy to the result's
    layout. The last instruction keeps the reshape's name. Left alone: dynamic
    shapes, layouts with tiles, element sizes or memory spaces,
    reshapes with control predecessors, fused computations.
  }];
  let statistics = [
    Statistic<"numBitcasts", "bitcasts", "Reshapes that were bitcasts">,
    Statistic<"numDecomposed", "decomposed",
              "Reshapes decomposed into copies and bitcasts">,
  ];
}

def HloBroadcastCanonicalizer
    : Pass<"hlo-broadcast-canonicalizer", "::mlir::ModuleOp"> {
  let summary = "Broadcasts with increasing dimensions, a transpose after "
                "(XLA's BroadcastCanonicalizer)";
  let description = [{
    A `broadcast` whose `dimensions` are not increasing (layout
    normalization makes them from operands laid out unlike their results)
    becomes a broadcast with the dimensions sorted, operand dimension i at
    the i-th smallest, in the default layout, and a `transpose` that puts
    each operand dimension where the original did and takes its result
    type and name. XLA-GPU runs it after layout normalization, in its
    "layout normalization" and "hlo normalization" pipelines. Left alone:
    dynamic shapes, layouts with tiles or memory spaces, broadcasts with
    control edges, fused computations.
  }];
  let statistics = [
    Statistic<"numCanonicalized", "canonicalized", "Broadcasts sorted">,
  ];
}

def HloReduceDecomposer : Pass<"hlo-reduce-decomposer", "::mlir::ModuleOp"> {
  let summary = "Reduces laid out as their inputs, copies after (XLA's "
                "ReduceDecomposer)";
  let description = [{
    XLA's ReduceDecomposer with XLA-GPU's predicate (after layout
    assignment, in its "hlo normalization" pipeline). First, the inputs of
    a variadic reduce get the first input's layout (copies of the others).
    Then a reduce that the reduction emitter does not take (XLA's
    IsReductionFromOrToContiguousDimensions over the input's physical
    shape) and whose results are not laid out as its input without the
    reduced dimensions computes into that layout; copies give each result
    its layout back. The last new instruction takes the reduce's name.
    Left alone: dynamic shapes, layouts with tiles or memory spaces,
    reduces with control edges, fused computations.
  }];
  let statistics = [
    Statistic<"numEqualized", "equalized",
              "Variadic reduces given one input layout">,
    Statistic<"numDecomposed", "decomposed",
              "Reduces computed in their input's layout, copies after">,
  ];
}

def HloDotDimensionMerger
    : Pass<"hlo-dot-dimension-merger", "::mlir::ModuleOp"> {
  let summary = "Merge a dot's batch dimensions into one (XLA's "
                "DotDimensionMerger)";
  let description = [{
    XLA's DotDimensionMerger (XLA-GPU runs it first after layout
    assignment): a `dot` with two or more batch dimensions, consecutive
    numbers in increasing order on both sides and next to each other in
    each operand's layout, reads `reshape`s of its operands with the batch
    dimensions merged into the first (the others deleted from shape and
    layout), has one batch dimension and its contracting dimensions
    renumbered, and a reshape of its result gives back the original shape
    and keeps the dot's name. Left alone: dots of one batch dimension,
    sparse dots, dynamic shapes, tiled layouts, control edges, fused
    computations.
  }];
  let statistics = [
    Statistic<"numMerged", "merged", "Dots whose batch dimensions merged">,
  ];
}

def HloDotDimensionSorter
    : Pass<"hlo-dot-dimension-sorter", "::mlir::ModuleOp"> {
  let summary = "Sort a dot's contracting dimension pairs (XLA's "
                "DotDimensionSorter)";
  let description = [{
    XLA's DotDimensionSorter, which XLA-GPU runs in its optimization
    pipeline before the dot decomposer. A `dot` whose contracting
    dimensions on one side are consecutive numbers out of order lists its
    (lhs, rhs) contracting pairs sorted by that side (by the lhs when both
    sides qualify), so that side is one run of its row-major layout; taken
    when the side to sort is consecutive and unsorted and the other side is
    not consecutive, or both are consecutive and unsorted. Operands must
    have row-major layouts. Left alone: control edges, fused computations.
  }];
  let statistics = [
    Statistic<"numSorted", "sorted", "Dots whose contracting dimensions "
                                     "were sorted">,
  ];
}

def HloDotNormalizer : Pass<"hlo-dot-normalizer", "::mlir::ModuleOp"> {
  let summary = "A unit contracting dimension for dots without one (XLA's "
                "DotNormalizer)";
  let description = [{
    XLA-GPU's DotNormalizer, after layout assignment (XLA's "hlo
    normalization" pipeline, before the GEMM rewriter): a `dot` with no
    contracting dimensions (an outer product, batched or not) reads
    `bitcast`s of its operands with one more dimension of size 1, their
    most minor, and contracts them; the result is the same (a sum of one
    term), and the GEMM rewriter then takes the dot as a GEMM with K = 1,
    as XLA's does. Left alone: dots with contracting dimensions, sparse
    dots, dynamic shapes, operands with tiled layouts, fused computations.
  }];
  let statistics = [
    Statistic<"numNormalized", "normalized", "Dots given a contracting "
                                             "dimension">,
  ];
}

def HloReductionLayoutNormalizer
    : Pass<"hlo-reduction-layout-normalizer", "::mlir::ModuleOp"> {
  let summary = "Reduces on operands in the default layout (XLA's "
                "ReductionLayoutNormalizer)";
  let description = [{
    A `reduce` whose inputs have a non-default layout reduces `bitcast`s of
    them to their physical shapes (dimensions major to minor, default
    layout), over the same dimensions renumbered, size-1 dimensions
    dropped, as XLA does; the result, in the physical order of the kept
    dimensions, is bitcast to the reduce's result type when the result's
    layout keeps that order, else given its layout by a `copy` (XLA: a
    bitcast to the reduce's result shape in the inputs' order, then a
    copy). The new reduce keeps the name.
    Left alone: inputs in the default layout, variadic reduces, dynamic
    shapes, layouts with tiles, reduces with control edges, fused
    computations.
  }];
  let statistics = [
    Statistic<"numRewritten", "rewritten", "Reduces normalized">,
  ];
}

def HloTransposeDimensionGrouper
    : Pass<"hlo-transpose-dimension-grouper", "::mlir::ModuleOp"> {
  let summary = "Merge dimensions that a transpose keeps adjacent (XLA's "
                "TransposeDimensionGrouper)";
  let description = [{
    A `transpose` that keeps two or more adjacent operand dimensions
    adjacent and in order transposes a `bitcast` of its operand in which
    each such run is one dimension (size-1 dimensions are dropped first,
    as in XLA), and a bitcast gives the result its shape back. Operand and
    result must have the default layout (XLA runs the pass after layout
    normalization). Left alone: transposes without such runs, non-default
    layouts, dynamic shapes, transposes with control predecessors, fused
    computations.
  }];
  let statistics = [
    Statistic<"numRewritten", "rewritten", "Transposes grouped">,
  ];
}

#endif // HLO_TRANSFORMS_GPU_LAYOUT_PASSES
