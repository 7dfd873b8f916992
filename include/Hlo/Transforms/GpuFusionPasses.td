//===- GpuFusionPasses.td - GPU fusion passes --------------*- tablegen -*-===//
//
// XLA-GPU's fusion passes: priority, multi-output, merger and
// horizontal fusion.
// Registered with the other passes by registerHloPasses() (Passes.h);
// docs/passes.md documents every pass.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSFORMS_GPU_FUSION_PASSES
#define HLO_TRANSFORMS_GPU_FUSION_PASSES

include "mlir/Pass/PassBase.td"

def HloPriorityFusion : Pass<"hlo-priority-fusion", "::mlir::ModuleOp"> {
  let summary = "Fuse producers into their consumers, most beneficial first "
                "(XLA's GPU PriorityFusion)";
  let description = [{
    In every computation that is not a fused computation or an embedded one
    (a reducer, comparator, mapped computation), each fusible producer gets
    a priority: the time XLA's GPU cost model (GpuPerformanceModel with the
    priority fusion options, on the device of `--hlo-gpu-device`) saves by
    fusing it into all its users. Producers are fused highest priority
    first, each into all its users (a copy per user) or into none; a
    negative saving is not fused. After a fusion only the priorities of the
    new fusion and its operands are recomputed. Fusibility follows XLA's
    gpu_fusible rules (no custom calls, dots, convolutions, collectives,
    control flow, side effects; a reduction only as a consumer or into a
    one-user unary epilogue; not reduce into reduce; scatter only as a
    root; at most `max-operands` operands and outputs per fusion;
    `max-fused-instructions` instructions), and an expensive producer is
    not duplicated. Scalar constants are fused last into every fusible
    user. The results are `fusion` instructions (kLoop, or kInput around a
    reduction) calling private fused computations, named and configured as
    in XLA's optimized HLO (`loop_add_fusion` calling `fused_add`).

    `__triton` fusions (kCustom, made by hlo-softmax-rewriter-triton) follow
    XLA's CanFuseTriton: a `__triton` producer goes into a consumer that is
    fusible and Triton-supported, a fusible Triton-supported producer into
    a `__triton` consumer, when the result is still a normalization fusion
    Triton can tile (the rule of hlo-softmax-rewriter-triton: every reduce a
    row reduction with a constant init, reshapes and bitcasts only adding
    or removing unit dimensions, default layouts). The result is a
    `__triton` fusion with a new block-level config; it keeps its name (XLA
    does not rename kCustom fusions). With `triton-softmax-fusion=false`
    nothing is fused into or out of a `__triton` fusion.
  }];
  let options = [
    Option<"maxOperands", "max-operands", "int64_t", /*default=*/"96",
           "The most operands plus outputs of a fusion "
           "(XLA's MaxOperandsAndOutputsPerFusion)">,
    Option<"maxFusedInstructions", "max-fused-instructions", "int64_t",
           /*default=*/"10000",
           "The most instructions a fusion may hold">,
    Option<"tritonSoftmaxFusion", "triton-softmax-fusion", "bool",
           /*default=*/"true",
           "Fuse producers and consumers into `__triton` normalization "
           "fusions (XLA's triton_softmax_priority_fusion_enabled)">,
  ];
  let statistics = [
    Statistic<"numFusions", "fusions", "Fusion instructions created">,
    Statistic<"numTritonFusions", "triton-fusions",
              "Fusions into or of `__triton` fusions">,
    Statistic<"numFusedProducers", "fused-producers",
              "Producer-into-consumer fusions (duplicates counted)">,
    Statistic<"numPriorityUpdates", "priority-updates",
              "Priorities computed">,
  ];
}

def HloMultiOutputFusion : Pass<"hlo-multi-output-fusion", "::mlir::ModuleOp"> {
  let summary = "Fuse siblings and producer-consumer pairs into multi-output "
                "fusions (XLA's GPU MultiOutputFusion)";
  let description = [{
    In the computations priority fusion works on, instructions are visited
    uses before definitions (reverse program order). For each one (not a
    constant, not an effective scalar), its users that may be the root of a
    multi-output fusion (reductions from or to contiguous dimensions and
    fusions around them, loop fusions, elementwise ops) are fused pairwise
    into one fusion with a root tuple (sibling fusion: multi-output fusions
    first, then fusions; the first of a pair is a fusion and takes the
    second). Then the instruction itself, if it is a loop-fusible producer
    (not a multi-output fusion, nothing in place, not physically
    transposing) with several users, is fused into one of its users as an
    extra output (producer-consumer fusion; a multi-output fusion user is
    preferred, then a fusion). The other users read get-tuple-elements of
    the fusion; the outputs are appended to the root tuple.
    Legality follows XLA: the heroes' loop shapes agree (a reduction's is its
    input's; equal shapes or a row-major reshape of each other), reductions
    agree in shapes and dimensions, no sibling is reachable from the other
    and no other operand of the consumer is reachable from the producer (a
    depth-first search over users bounded by program order and by
    `max-reachability-visits`; a search that hits the bound counts as
    reachable), at most `max-operands` operands plus outputs, at most 8
    reductions and the device's shared memory per block, no
    dynamic-update-slice roots, slices of a shared operand that do not
    overlap are not sibling-fused (cheap checks first; at most
    `max-siblings` users of one instruction are tried, which bounds the
    pairs), and a producer-consumer fusion must not
    be slower on the cost model (XLA's
    EstimateRunTimesForMultiOutputFusion on `--hlo-gpu-device`).
    Left alone: transposes as heroes (XLA's tiled transposes are not
    modelled), reduces whose input has a non-default layout, ops with
    control edges, dynamic shapes. Changed fusions get XLA's kind (kInput
    around a reduction) and names (`input_exponential_reduce_fusion`).
  }];
  let options = [
    Option<"maxOperands", "max-operands", "int64_t", /*default=*/"96",
           "The most operands plus outputs of a fusion "
           "(XLA's MaxOperandsAndOutputsPerFusion)">,
    Option<"maxFusedInstructions", "max-fused-instructions", "int64_t",
           /*default=*/"10000",
           "The most instructions a fusion may hold">,
    Option<"maxReachabilityVisits", "max-reachability-visits", "int64_t",
           /*default=*/"4096",
           "The most instructions one reachability search visits before it "
           "answers 'reachable' (keeps the pass linear)">,
    Option<"maxSiblings", "max-siblings", "int64_t", /*default=*/"32",
           "The most users of one instruction tried as siblings (the first "
           "after sorting; XLA tries all pairs)">,
  ];
  let statistics = [
    Statistic<"numSiblingFusions", "sibling-fusions",
              "Siblings fused into a multi-output fusion">,
    Statistic<"numProducerConsumerFusions", "producer-consumer-fusions",
              "Producers fused into a consumer as an extra output">,
    Statistic<"numReachabilityGiveUps", "reachability-give-ups",
              "Reachability searches that hit max-reachability-visits">,
  ];
}

def HloFusionMerger : Pass<"hlo-fusion-merger", "::mlir::ModuleOp"> {
  let summary = "Merge loop fusions into all their users "
                "(XLA's GPU FusionMerger)";
  let description = [{
    In program order, a kLoop fusion (not multi-output) is merged into every
    one of its users (a copy per user; a user that is not a fusion is
    wrapped in one first) and erased when: every user can take it (XLA's
    IsProducerConsumerFusible: a loop-fusible consumer or a reduction
    kernel, not a bitcast, not multi-output, nothing in place), each merge
    fits XLA's FusionFitsInBudget (producer-consumer form) and
    `max-fused-instructions`, it does not transpose most of its data while
    a user is a reduction kernel (XLA's TransposesMostData), and the cost
    model says the merged kernels are not slower (XLA's
    GpuPerformanceModel::EstimateRunTimes on `--hlo-gpu-device`). This is
    the last FusionMerger XLA had; XLA 0.10.2 no longer has the pass
    (priority fusion took its place), so this follows seed 002 (2.4).
    Left alone: fusions returned by the computation or read by its return,
    fusions with control edges, dynamic shapes.
  }];
  let options = [
    Option<"maxOperands", "max-operands", "int64_t", /*default=*/"96",
           "The most operands plus outputs of a fusion "
           "(XLA's MaxOperandsAndOutputsPerFusion)">,
    Option<"maxFusedInstructions", "max-fused-instructions", "int64_t",
           /*default=*/"10000",
           "The most instructions a fusion may hold">,
  ];
  let statistics = [
    Statistic<"numMerged", "merged-fusions",
              "Fusions merged into all their users">,
  ];
}

def HloHorizontalLoopFusion
    : Pass<"hlo-horizontal-loop-fusion", "::mlir::ModuleOp"> {
  let summary = "Fuse independent small loop fusions that feed one consumer "
                "into one kernel (XLA's GPU HorizontalLoopFusion)";
  let description = [{
    For each instruction (last first, new fusions revisited), the kLoop
    fusions and elementwise ops among its operands that only it or the
    computation's root reads, small enough to be bound by launch latency
    (at most 8192*8192 output elements and 128 fused instructions; 128*2048
    and 30 for the sliced form), with one output element type, are sorted
    (element type, number of outputs, instruction count, output size) and
    cut into spans of equal output type and count (at most 32 outputs per
    span, 64 for plain ops, 4000 bytes of kernel parameters at 8 bytes an
    operand or output). Spans of equal output shapes become one kLoop
    fusion whose root tuple holds every output; the rest (no parameter
    shared between candidates) one kInput fusion that flattens the outputs
    to rank 1, concatenates them and returns slices (XLA's sliced input
    fusion). Users read get-tuple-elements, bitcast back to the output shape
    when it is not of rank 1. Follows XLA's last HorizontalLoopFusion: XLA
    0.10.2's GPU compiler no longer has the pass (seed 002, 3.9, shows the
    input form). Left alone: ops with control edges, variadic reductions,
    fusions of other kinds, dynamic shapes.
  }];
  let statistics = [
    Statistic<"numHorizontalFusions", "horizontal-fusions",
              "Horizontal fusions created">,
  ];
}

def HloHorizontalInputFusion
    : Pass<"hlo-horizontal-input-fusion", "::mlir::ModuleOp"> {
  let summary = "Fuse independent reduction kernels that feed one consumer "
                "into one multi-output fusion (XLA's GPU "
                "HorizontalInputFusion)";
  let description = [{
    For each instruction, the reduction kernels (reduces from or to
    contiguous dimensions, fusions around them) among its operands that only
    it or the computation's root reads (so none reaches another) are sorted
    by their heroes' input shapes (rank, dimensions, instruction count),
    plain reduces are wrapped in kInput fusions, and each is merged into
    the current anchor as a multi-output fusion when their shapes are
    compatible and the fusion fits the budget (the rules of
    hlo-multi-output-fusion), else it becomes the anchor. Follows XLA's last
    HorizontalInputFusion: XLA 0.10.2's GPU compiler no longer has the pass
    (seed 002, 3.9). Left alone: ops with control edges, dynamic shapes,
    transposes and variadic reductions as heroes.
  }];
  let options = [
    Option<"maxOperands", "max-operands", "int64_t", /*default=*/"96",
           "The most operands plus outputs of a fusion "
           "(XLA's MaxOperandsAndOutputsPerFusion)">,
  ];
  let statistics = [
    Statistic<"numHorizontalFusions", "horizontal-fusions",
              "Reduction fusions fused horizontally">,
  ];
}

def HloVariadicOpSplitter
    : Pass<"hlo-variadic-op-splitter", "::mlir::ModuleOp"> {
  let summary = "Split concatenates with too many operands into a tree "
                "(XLA's GPU VariadicOpSplitter)";
  let description = [{
    In computations that no fusion calls, a concatenate with more than
    `max-operands` (XLA's kMaxParameters, 128) operands is replaced by a
    tree: its operands are concatenated in consecutive groups of
    `max-operands` (a last group smaller than that joins the next round
    unless it is the first group), round after round, until one
    concatenate remains, which takes the original's place (name, metadata,
    sharding); the new ones carry its name too (XLA's clones). XLA 0.10.2
    runs the pass first in its fusion pipeline. Left alone: concatenates in
    fused computations or with control predecessors, dynamic shapes.
  }];
  let options = [
    Option<"maxOperands", "max-operands", "int64_t", /*default=*/"128",
           "The most operands a concatenate keeps (XLA's kMaxParameters)">,
  ];
  let statistics = [
    Statistic<"numSplit", "split-concatenates",
              "Concatenates split into a tree">,
  ];
}

def HloFusionWrapper : Pass<"hlo-fusion-wrapper", "::mlir::ModuleOp"> {
  let summary = "Wrap every instruction that needs a kernel but is not "
                "fused into a fusion of its own (XLA's GPU FusionWrapper)";
  let description = [{
    After fusion, an instruction that runs as a kernel but that no fusion
    took (an elementwise op, broadcast, iota, transpose, slice, pad,
    concatenate, reduce, reduce-window, gather, scatter, dynamic-slice,
    dynamic-update-slice, reverse, map, select, clamp, convert, ...) becomes
    a fusion calling a fused computation that holds it alone: XLA's names
    (`wrapped_<opcode>` calling `wrapped_<opcode>_computation`), kind kLoop,
    kInput around a reduce (so that the reduction emitter takes it), and the
    backend_config of XLA's fusions. Runs over the computations whose
    instructions are kernels (not fused computations, reducers and other
    applied computations). Left alone: what runs without a kernel or as a
    library call (parameters, constants, tuples, get-tuple-element,
    bitcasts, copies, custom calls, control flow, collectives,
    infeed/outfeed/send/recv, sort, rng), instructions with dynamic shapes
    or control predecessors. XLA 0.10.2 runs it after fusion, before its
    autotuners.

    XLA-GPU's top-k kernel calls (`__gpu$TopK`, of hlo-topk-specializer)
    stay unfused, as in XLA, where a custom kernel thunk runs a top-k
    kernel its build compiled: `hlo-to-thunk` makes them `thunk.top_k`,
    whose kernel the CUDA runtime has prebuilt. With `topk-kernel`, and for
    a call `thunk.top_k` cannot take (not row-major, say), the call is
    wrapped into a fusion `topk` for `hlo-to-gpu`'s top-k emitter instead.
  }];
  let options = [
    Option<"topkKernel", "topk-kernel", "bool", /*default=*/"false",
           "Wrap __gpu$TopK calls into fusions for hlo-to-gpu's top-k "
           "emitter instead of leaving them to thunk.top_k">,
  ];
  let statistics = [
    Statistic<"numWrapped", "wrapped", "Instructions wrapped in fusions">,
  ];
}

def HloSoftmaxRewriterTriton
    : Pass<"hlo-softmax-rewriter-triton", "::mlir::ModuleOp"> {
  let summary = "Wrap normalization diamonds into `__triton` fusions "
                "(XLA's GPU SoftmaxRewriterTriton)";
  let description = [{
    In the computations no fusion or custom call calls, finds XLA's
    normalization "diamonds" and wraps each into a `fusion` of kind kCustom
    whose backend_config is `{"fusion_backend_config":{"kind":"__triton",
    "block_level_fusion_config":{...}}}`, named `triton_softmax` and calling
    `triton_softmax_computation`. A diamond (XLA 0.10.2's
    MatchesTritonCompatibleClosedReductionDiamond) is rooted at a
    Triton-supported elementwise binary op whose operand 1 leads, through
    trivially fusible ops, to a broadcast along the minor-most dimension of
    a reduce of one array over its minor-most dimension only (a
    Triton-supported reducer, an init that is a constant or a convert of
    one, the broadcast and the reduce used once, default layouts); the
    reduce's operand leads back through trivially fusible ops to the
    producer P, which must reach the root's operand 0 the same way (a
    root operand 0 other than P used once). Trivially fusible: one user, the
    default layout, and a bitcast, a Triton-supported unary elementwise op,
    or a Triton-supported binary one whose two operands are the same or
    exactly one of which is a broadcast of a scalar constant or of a
    parameter. The fusion reads P (parameter 0) and the parameters the
    diamond's broadcasts read; the diamond, its splat broadcasts and
    constants are copied into it. As in XLA 0.10.2 each diamond is its own
    fusion (diamonds are fused in reverse program order, so one whose root
    is the producer of the next reads that fusion); hlo-priority-fusion
    then merges adjacent ones (softmax: two diamonds, one kernel).

    Triton support is XLA's IsTritonSupportedInstruction on Hopper: element
    types pred, s4-s64, f16, bf16, f32, f64, f8e5m2, f8e4m3fn (no unsigned
    or complex), its per-type opcode lists, scalar constants only. Tiling
    (XLA's SymbolicTileAnalysis with the Triton emitter constraints) is
    approximated: reshapes and bitcasts may only add or remove unit
    dimensions, no transposes, pads or concatenates, and the row (the
    minor dimension padded to a power of two) holds at most
    `max-row-elements` elements. The block-level config is deterministic,
    not XLA's cost-model search: one row per block (output tile
    `[1,...,1,next_power_of_2(row)]`, which is XLA's choice for rows of up
    to 32 elements), `num_warps` by the tile size (1 up to 512 elements, 2
    up to 1024, 4 up to 16384, 8, 16, 32), `num_ctas` 1, `num_stages` 1.
    Left alone: dynamic shapes, ops with control edges, non-default
    layouts, reductions over other or several dimensions, variadic
    reductions, unsupported types.
  }];
  let options = [
    Option<"maxRowElements", "max-row-elements", "int64_t",
           /*default=*/"1048576",
           "The largest tile (a row padded to a power of two) a Triton "
           "fusion may hold (XLA's TritonEmitterConstraints "
           "kMaxTensorNumElements)">,
  ];
  let statistics = [
    Statistic<"numDiamonds", "diamonds", "Normalization diamonds fused">,
  ];
}

#endif // HLO_TRANSFORMS_GPU_FUSION_PASSES
