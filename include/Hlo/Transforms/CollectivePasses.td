//===- CollectivePasses.td - collective passes -------------*- tablegen -*-===//
//
// XLA's passes over collectives: folding, combining, and the
// asynchronous start/done forms; and over the partitioning annotations.
// Registered with the other passes by registerHloPasses() (Passes.h);
// docs/passes.md documents every pass.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSFORMS_COLLECTIVE_PASSES
#define HLO_TRANSFORMS_COLLECTIVE_PASSES

include "mlir/Pass/PassBase.td"

def HloShardingRemover : Pass<"hlo-sharding-remover", "::mlir::ModuleOp"> {
  let summary = "Remove the sharding annotations of an unpartitioned program "
                "(XLA's ShardingRemover)";
  let description = [{
    The custom calls `Sharding`, `SPMDFullToShardShape`,
    `SPMDShardToFullShape` and `xla.sdy.FuncResultSharding` of one operand
    of the call's own type (the program is not partitioned) are replaced
    by that operand, and `xla.sdy.ShardingGroup` calls nothing reads are
    erased: XLA's "sharding-removal" pipeline, run where it does not
    partition, after its "pre-spmd-partitioner" passes. Left alone: calls
    whose result type is not their operand's, with control edges or with
    another number of operands.
  }];
  let statistics = [
    Statistic<"numRemoved", "removed", "Sharding custom calls removed">,
  ];
}

def HloShardyXla : Pass<"hlo-shardy-xla", "::mlir::ModuleOp"> {
  let summary = "Shardy's shardings as JAX writes them, read into HLO "
                "shardings and manual regions (XLA's ShardyXLA, without "
                "Shardy's propagation)";
  let description = [{
    JAX lowers with Shardy and hands XLA the module in Shardy's round-trip
    form: the meshes in the module's `xla.sdy.meshes` frontend attribute,
    each value's sharding in its `xla.sdy.sharding` one (Shardy's syntax),
    and each shard_map as an `xla.sdy.GlobalToLocalShape` call (operand
    shardings `xla.sdy.in_shardings`, manual axes `xla.sdy.manual_axes`),
    a call of its body (`xla.sdy.manual_computation_body*`, marked
    `inlineable="false"`) and an `xla.sdy.LocalToGlobalShape` call
    (`xla.sdy.out_shardings`). As XLA's ShardyXLA exports them (its
    propagation is hlo-sharding-propagation's work here):

    - every `xla.sdy.sharding` becomes the instruction's `sharding` (the
      parameter's `hlo.sharding`), a tuple sharding for a tuple;
    - each operand of a GlobalToLocalShape becomes a `copy` in its operand
      sharding, then an `SPMDFullToShardShape` call in the manual sharding
      of the local shape (`{manual}` when every mesh axis is manual, else
      `last_tile_dims={manual, ...}`); each operand of a
      LocalToGlobalShape a `copy` in the manual sharding, then an
      `SPMDShardToFullShape` call in its result sharding;
    - the body call takes the manual shardings of its results and can be
      inlined; the body's instructions without a sharding take `{manual}`
      when every axis is manual;
    - a shard_map nested in a region manual over other axes (JAX's
      `axis_index` there) is manual over both; the computations called in
      a region are in it;
    - a sharding constraint (`Sharding` call) leaving every dimension
      open names no axis and goes; one with some open dimensions names
      them in GSPMD's `backend_config="unspecified_dims=[...]"`;
    - a sharding group's member (`xla.sdy.ShardingGroup`, JAX's
      shard_alike) goes on through a `Sharding` call
      `{unknown shard_as N}`, GSPMD's form;
    - the `xla.sdy.*` frontend attributes read go.

    Shardings Shardy's syntax writes that HLO cannot (unreduced axes) and
    malformed attributes are errors at the instruction.
  }];
  let statistics = [
    Statistic<"numShardings", "shardings", "Shardy shardings converted">,
    Statistic<"numManual", "manual-regions", "shard_map regions converted">,
  ];
}

def HloShardingPropagation
    : Pass<"hlo-sharding-propagation", "::mlir::ModuleOp"> {
  let summary = "Give every instruction of the entry a sharding from its "
                "operands' or users' (XLA's ShardingPropagation)";
  let description = [{
    XLA's ShardingPropagation, first of XLA's "spmd-partitioner" pipeline
    after its simplification: instructions of the entry computation without
    a `sharding` take one from their operands', in program order.
    Elementwise instructions take their most finely tiled operand's;
    broadcast, transpose and reshape (dimensions it keeps) carry their
    operand's tiles to the result dimensions; dot takes the batch and
    free dimensions' tiles of both operands where one tile assignment
    holds them (else the left operand's); reduce keeps its operand's tiles
    on the kept dimensions; tuple and get-tuple-element pass them through.
    Then backward, in reverse order: an instruction still without one
    takes the tiles a user asks of it (elementwise users, `Sharding` calls,
    tuples, broadcast, transpose, reshape), and forward again.
    Instructions nothing gives a sharding stay without one (replicated to
    `hlo-spmd-partitioner`). Regions manual over some mesh axes (shard_maps
    with `axis_names`) are propagated into along the others (their loops
    and conditionals too), their shardings keeping the `manual` subgroup;
    as Shardy leaves those axes free at a shard_map's boundary, the
    boundary's copies and calls gain the tiles of the values going in and
    out. A `Sharding` call's `unspecified_dims` (JAX's P.UNCONSTRAINED)
    gain their operand's and users' tiles; its other dimensions keep the
    given ones. One whose sharding is `{unknown}` (JAX's shard_alike)
    passes its operand's tiles on, the members of a shard group taking one
    sharding. The rules for each
    instruction (loops, conditionals, windows, gathers, ...) are in
    docs/passes.md. Not yet: XLA's priorities between conflicting
    shardings.
  }];
  let statistics = [
    Statistic<"numAssigned", "assigned", "Instructions given a sharding">,
  ];
}

def HloSpmdPartitioner : Pass<"hlo-spmd-partitioner", "::mlir::ModuleOp"> {
  let summary = "Partition the entry computation into the program each "
                "partition runs (XLA's SpmdPartitioner)";
  let description = [{
    XLA's SpmdPartitioner (GpuSpmdPartitioner): a module of
    `num_partitions` > 1 whose entry computation's values carry shardings
    becomes the program each partition runs on its tiles. Parameters take
    the tile shape of their sharding; elementwise instructions, broadcast,
    transpose, dot and reduce compute their own tile from their operands'
    tiles, which are resharded first where they are not laid out as the
    instruction needs: all-gathers across the dimensions tiled otherwise,
    then dynamic-slices of each partition's tile at offsets read from a
    table at the partition id. A dot whose operands are both tiled along
    the contracting dimensions, and a reduce whose operand is tiled along
    reduced dimensions, compute partial results that an all-reduce sums
    (XLA's partial-sum strategy). Every other instruction runs on whole
    arrays (its operands gathered). The ROOT is resharded to its sharding,
    which it keeps (the runtime and `--hlo-check-semantics` read the
    result's layout from it, and the parameters' from theirs); the other
    instructions lose theirs. Collectives get new channel ids and list
    global device ids. Manual regions (shard_maps, GSPMD's form): over
    every mesh axis, the body runs as written on each partition's local
    values; over some axes, it is partitioned along the others (its
    loops and conditionals too), each collective it needs run in every
    manual group. A manual sharding outside a region is an error. The rules for each instruction (halo
    exchanges, all-to-alls, loops, ...) are in docs/passes.md.
  }];
  let statistics = [
    Statistic<"numCollectives", "collectives",
              "Collectives created to reshard values">,
    Statistic<"numWhole", "whole", "Instructions run on whole arrays">,
  ];
}

def HloRaggedAllToAllCanonicalizer
    : Pass<"hlo-ragged-all-to-all-canonicalizer", "::mlir::ModuleOp"> {
  let summary = "Ragged all-to-alls with 64-bit offsets and sizes (XLA's "
                "RaggedAllToAllCanonicalizer)";
  let description = [{
    XLA's RaggedAllToAllCanonicalizer, first in "collective-optimizations":
    the canonical ragged-all-to-all reads its input offsets, send sizes,
    output offsets and receive sizes (operands 2 to 5) as s64, which is
    what NCCL's and the runtimes' exchange take. Each of those operands of
    another integer type is converted to s64 (same shape); the instruction
    keeps its name, attributes and control edges. Left alone: operands
    already s64, fused computations.
  }];
  let statistics = [
    Statistic<"numRewritten", "rewritten",
              "Ragged all-to-alls given 64-bit offsets and sizes">,
  ];
}

def HloAllReduceSimplifier
    : Pass<"hlo-all-reduce-simplifier", "::mlir::ModuleOp"> {
  let summary = "Collectives of one device, and all-reduces of values every "
                "replica holds, without the collective (XLA's "
                "AllReduceSimplifier)";
  let description = [{
    XLA's AllReduceSimplifier, first in "collective-optimizations": an
    all-gather or reduce-scatter whose result has its operand's shape is
    its operand; an all-reduce of one array whose groups hold one device
    each is its operand; an all-reduce without a channel id of a value that
    is the same on every replica (HloReplicationAnalysis, across replicas:
    `parameter_replication`, constants, partition-id, the results of
    all-reduces over all replicas and what is computed from them) is, for a
    sum, the value times the group size, and for minimum, maximum, and, or,
    the value. An all-reduce with a channel id is taken only with groups of
    one device in a module of several partitions (SPMD), as in XLA. Left
    alone: several operands, groups of unequal sizes, reducers that are not
    one of those ops of their two parameters, control edges.
  }];
  let statistics = [
    Statistic<"numSimplified", "simplified", "Collectives removed">,
  ];
}

def HloAllReduceFolder : Pass<"hlo-all-reduce-folder", "::mlir::ModuleOp"> {
  let summary = "Fold an all-reduce of an all-reduce into one (XLA's "
                "AllReduceFolder)";
  let description = [{
    `all-reduce(all-reduce(x))`, where the inner all-reduce has no other
    user, becomes one all-reduce of `x` whose replica groups are the sets of
    participants that contribute to each result: inner groups
    `{{0,1},{2,3}}` followed by outer groups `{{0,2},{1,3}}` give
    `{{0,1,2,3}}`. Both must have one operand, non-empty replica groups, the
    same kind of reduction computation (two parameters and one binary
    instruction of the same opcode and type applied to them), both or
    neither a channel id and the same `use_global_device_ids`. The groups
    fold when every participant of the combined reduction contributes once
    and all participants of a combined group have the same contributors;
    the new groups are sorted by their first id. A new channel id (one past
    the module's largest) replaces the inner one. Not folded: modules with
    a layout-constrained all-reduce (XLA skips them), instructions with
    control predecessors, and all-reduces with a channel id but no global
    device ids in a module with several partitions (each group then spans
    all partitions, so the outer all-reduce counts every partition's copy
    of the inner result: XLA folds these, which changes a sum).
  }];
  let statistics = [
    Statistic<"numFolded", "folded", "All-reduce pairs folded into one">,
  ];
}

def HloAllGatherBroadcastReorder
    : Pass<"hlo-all-gather-broadcast-reorder", "::mlir::ModuleOp"> {
  let summary = "Gather a broadcast's operand and broadcast afterwards "
                "(XLA's AllGatherBroadcastReorder)";
  let description = [{
    `all-gather(broadcast(x))` becomes `broadcast(all-gather(x))` when the
    gathered dimension comes from `x` (it is in the broadcast's
    dimensions); otherwise `x` is reshaped to `[1, x...]`, gathered along
    that new dimension, broadcast with the gathered dimension split in
    `[participants, size]` and reshaped back. Applied only when the
    dimensions the broadcast adds, other than the gathered one, hold more
    than one element (the collective then moves less data). A gather with a
    channel id gets a new one. Left alone: modules with a layout-constrained
    all-gather, all-gathers of several operands, with dynamic shapes or
    with control predecessors.
  }];
  let statistics = [
    Statistic<"numReordered", "reordered", "All-gathers moved before "
              "their broadcast">,
  ];
}

def HloAllGatherRemoveDegenerateDims
    : Pass<"hlo-all-gather-remove-degenerate-dims", "::mlir::ModuleOp"> {
  let summary = "Gather arrays without their size-1 dimensions (XLA's "
                "AllGatherRemoveDegenerateDims)";
  let description = [{
    XLA's AllGatherRemoveDegenerateDims, in "collective-optimizations"
    after the all-gather broadcast reorder: the GPU gathers along the
    major dimension, so the size-1 dimensions around the gathered one go
    before layout assignment. Each operand is reshaped without them, the
    all-gather gathers the reshaped operands along the gathered dimension's
    new position, and its result is reshaped back (each element of a tuple
    result through its get-tuple-element, then a tuple). A size-1 dimension
    before the gathered one goes only when it has size 1 in every operand
    (the operands share the gathered dimension); one after it goes from
    each operand that has it. The gathered dimension stays, even of size 1.
    The all-gather keeps its name and attributes (channel id included).
    Left alone: layout-constrained all-gathers, async forms, control edges,
    fused computations, operands with nothing to remove.
  }];
  let statistics = [
    Statistic<"numRewritten", "rewritten",
              "All-gathers whose degenerate dimensions were removed">,
  ];
}

def HloWhileLoopAllReduceCodeMotion
    : Pass<"hlo-while-loop-all-reduce-code-motion", "::mlir::ModuleOp"> {
  let summary = "Sum in the loop, all-reduce once after it (XLA's "
                "WhileLoopAllReduceCodeMotion)";
  let description = [{
    XLA's WhileLoopAllReduceCodeMotion (its accumulation form, for
    all-reduces, as XLA-GPU runs it by default), in
    "collective-optimizations" after the reassociate passes: a loop that
    adds an all-reduced sum into a loop state element every iteration adds
    the unreduced values instead, starting that element from zero, and
    after the loop all-reduces it once and adds what the loop started from.
    The all-reduce's result may reach the add through converts, bitcasts,
    reshapes, transposes, slices and selects against zero; the element is
    read through get-tuple-element (converts, bitcasts, reshapes,
    transposes, and a dynamic-slice with the dynamic-update-slice back at
    the same indices) and written back at its own index. Taken only for a
    sum of an integer or bf16/f16/f32/f64 type, an element the body reads
    nowhere else and the condition not at all, dynamic-slice indices and
    select predicates the same on every device of a group
    (HloReplicationAnalysis, without partial replication), loops started
    from a tuple. The all-reduce after the loop has the original's
    attributes and, if it had one, a new channel id. Inner loops first.
    And XLA's dynamic-update-slice form (XLA 0.10.2's GPU compiler applies
    it): an all-reduce whose result, through reshapes and bitcasts, a
    counted loop writes into a state element at the induction variable
    along one dimension (the step the update's size there) and constants
    along the others (or constants along every dimension: each trip
    rewrites the same rows, the last trip's stay, and the loop runs at
    least once) runs once after the loop, on the rows the loop wrote
    (sliced, reduced, written back); the element must be read nowhere else
    in the body nor in the condition, and one loop must run the body.
    Not here: XLA's reduce-scatter form (off in XLA-GPU by default).
  }];
  let statistics = [
    Statistic<"numMoved", "moved", "All-reduces moved out of loops">,
  ];
}

def HloCollectivePipeliner
    : Pass<"hlo-collective-pipeliner", "::mlir::ModuleOp"> {
  let summary = "A loop's collective runs one iteration later, next to the "
                "following iteration's work (XLA's CollectivePipeliner, "
                "forward)";
  let description = [{
    XLA's CollectivePipeliner in its forward direction, as XLA-GPU runs it
    in "collective-optimizations" before the algebraic simplifier: for
    reduce-scatters by default (xla_gpu_enable_pipelined_reduce_scatter,
    on in XLA 0.10.2), for all-reduces with `all-reduce`
    (xla_gpu_enable_pipelined_all_reduce, off by default). A collective of
    one array in a counted loop's body (a known trip count of at least 2)
    whose result reaches, through instructions of one user each (their
    other operands computed from the induction variable are computed again
    from its previous value, others that vary are carried in the state),
    the update of a
    dynamic-update-slice of a loop state element that the body writes back
    at its own index and reads nowhere else (nor does the condition), at
    start indices computed from the induction variable and constants (at
    least one of them from the induction variable), moves one iteration
    later: the body's first iteration is peeled before the loop without
    it, the loop carries the collective's operand to the next iteration,
    whose body reduces it and writes it at the indices computed from the
    induction variable's previous value while it computes its own, and
    after the loop the last iteration's collective, its chain and update
    run. One collective per state element. The loop runs once less; its
    known trip count is dropped for `hlo-while-loop-trip-count-annotator`
    to recompute. Collectives cloned outside the body get new channel ids
    (a send and its recv keep a common one); pipelined collectives are
    marked `is_pipelined` in their `collective_backend_config`, which the
    asynchronous starts keep. Not here: XLA's backward direction (for
    all-gathers, off in XLA-GPU by default), formatting after the
    dynamic-update-slice.
  }];
  let options = [
    Option<"reduceScatter", "reduce-scatter", "bool", /*default=*/"true",
           "Pipeline reduce-scatters (xla_gpu_enable_pipelined_reduce_scatter)">,
    Option<"allReduce", "all-reduce", "bool", /*default=*/"false",
           "Pipeline all-reduces (xla_gpu_enable_pipelined_all_reduce)">,
  ];
  let statistics = [
    Statistic<"numPipelined", "pipelined", "Collectives pipelined forward">,
  ];
}

def HloCollectiveQuantizer
    : Pass<"hlo-collective-quantizer", "::mlir::ModuleOp"> {
  let summary = "Collectives that move data do so in the narrower type of "
                "a convert next to them (XLA's CollectiveQuantizer)";
  let description = [{
    XLA's CollectiveQuantizer, in "collective-optimizations" after the
    while-loop all-reduce code motion: an all-gather, all-to-all,
    collective-broadcast or collective-permute of one array whose result is
    narrowed (`convert`, or `convert(clamp(lo, x * scale, hi))` /
    `x / scale` with scalar broadcasts, after any bitcasts, copies,
    reshapes and slices, each the only user of the one before) narrows its
    operand instead and moves the narrow type; one whose operand was
    widened (`convert(y)`, times or divided by a broadcast scalar, then any
    moves) moves `y` and widens after. Exact (all elementwise) when the
    scale is the same on every device (HloReplicationAnalysis across
    partitions; a module of several replicas keeps its scaled forms, as
    XLA). Narrow and wide are by element byte size. The collective keeps
    its attributes and channel id. Left alone: all-reduces and
    reduce-scatters, several operands, control edges, fused computations.
  }];
  let statistics = [
    Statistic<"numQuantized", "quantized",
              "Collectives moved to the narrow type">,
  ];
}

def HloReduceScatterCreator
    : Pass<"hlo-reduce-scatter-creator", "::mlir::ModuleOp"> {
  let summary = "Turn an all-reduce whose result each device slices at its "
                "own block into a reduce-scatter (XLA's ReduceScatterCreator)";
  let description = [{
    An all-reduce whose only user is a dynamic-slice (possibly through a
    reshape that leaves the sliced dimension alone) that cuts one dimension
    into as many blocks as its replica groups have members, each device
    taking the block of its position in its group, becomes a reduce-scatter
    along that dimension (sliced first when the dimension does not divide
    evenly; reshaped when the slice was of a reshape). The offset must be
    provably `block size * position`: the device's id (replica-id without a
    channel id, partition-id with a channel id and one replica per group,
    and with global device ids replica-id, partition-id or
    `partition-id + replica-id * num_partitions` as they identify the
    device), a lookup in a constant or iota table indexed by such an id,
    and products by constants, non-binding clamps, widening converts,
    copies, reshapes and bitcasts of these; the pass evaluates it for every
    participant, from the module's `hlo.replica_count` and
    `hlo.num_partitions`. A channel id is replaced by a new one. Left alone:
    layout-constrained all-reduces, groups of different sizes or of fewer
    than two, slices of several dimensions, dynamic shapes, fused
    computations, instructions with control predecessors.
  }];
  let statistics = [
    Statistic<"numCreated", "created", "Reduce-scatters created">,
  ];
}

def HloAllReduceCombiner : Pass<"hlo-all-reduce-combiner", "::mlir::ModuleOp"> {
  let summary = "Combine independent all-reduces into one variadic "
                "all-reduce (XLA's AllReduceCombiner, GPU settings)";
  let description = [{
    All-reduces of one array operand with the same kind of reduction (the
    reducer's root opcode, add/multiply/minimum/maximum/and/or/xor, and
    element type), the same replica groups, channel or not and global
    device ids or not become one all-reduce of all their operands with a
    tuple result, each old result a get-tuple-element of it (XLA's
    CombineInstructionsByKey): in instruction order, the first candidate
    opens a group and the following ones with its key join until the bytes
    of the results would pass `threshold-bytes`, the group holds
    `threshold-count` members, or a candidate depends on a member (then
    the group closes and the rest waits for the next round). A candidate
    larger than the byte threshold alone is never combined. The combined
    all-reduce takes the first member's reducer, groups and channel id,
    XLA's merged metadata (`prefix/(a:b)` op names) and frontend attributes
    and the default GpuBackendConfig XLA's GPU combiner gives it;
    instructions between the members that used an earlier member move
    after it. One walk of the computation per combined group. Left alone:
    modules with a layout-constrained all-reduce (as XLA), variadic
    all-reduces, dynamic shapes, instructions with control edges, fused
    computations. Not modelled: XLA's domains and its larger threshold for
    collectives pipelined out of while loops.
  }];
  let options = [
    Option<"thresholdBytes", "threshold-bytes", "int64_t",
           /*default=*/"31457287",
           "Most result bytes of a combined all-reduce "
           "(xla_gpu_all_reduce_combine_threshold_bytes: 30 MiB + 7)">,
    Option<"thresholdCount", "threshold-count", "int64_t", /*default=*/"256",
           "Most all-reduces combined into one (XLA's GPU pipeline: 256)">,
  ];
  let statistics = [
    Statistic<"numCombined", "combined", "All-reduces combined">,
    Statistic<"numGroups", "groups", "Combined all-reduces created">,
  ];
}

def HloAllGatherCombiner : Pass<"hlo-all-gather-combiner", "::mlir::ModuleOp"> {
  let summary = "Combine independent all-gathers into one variadic "
                "all-gather (XLA's AllGatherCombiner, GPU settings)";
  let description = [{
    All-gathers of one array operand with the same replica groups, channel
    or not and global device ids or not (and the same gather dimension with
    `combine-by-dim`) become one all-gather with a tuple result, each old
    result a get-tuple-element of it, grouped as `hlo-all-reduce-combiner`
    groups (byte and count thresholds, no member depending on another).
    Element types may differ (XLA's GPU combiner combines different
    dtypes). Without `combine-by-dim` the combined all-gather gathers along
    the dimension most members use (0 if some member has no such
    dimension); a member gathering along another dimension has its operand
    bitcast to the shape with the two dimensions swapped (layout permuted
    alike, so no byte moves) and its element bitcast back, as XLA does.
    Left alone: modules with a layout-constrained all-gather (as XLA),
    variadic all-gathers, dynamic shapes, instructions with control edges,
    fused computations.
  }];
  let options = [
    Option<"thresholdBytes", "threshold-bytes", "int64_t",
           /*default=*/"31457287",
           "Most result bytes of a combined all-gather "
           "(xla_gpu_all_gather_combine_threshold_bytes: 30 MiB + 7)">,
    Option<"thresholdCount", "threshold-count", "int64_t", /*default=*/"256",
           "Most all-gathers combined into one (XLA's GPU pipeline: 256)">,
    Option<"combineByDim", "combine-by-dim", "bool", /*default=*/"false",
           "Only combine all-gathers of the same dimension "
           "(xla_gpu_enable_all_gather_combine_by_dim, false)">,
  ];
  let statistics = [
    Statistic<"numCombined", "combined", "All-gathers combined">,
    Statistic<"numGroups", "groups", "Combined all-gathers created">,
  ];
}

def HloReduceScatterCombiner
    : Pass<"hlo-reduce-scatter-combiner", "::mlir::ModuleOp"> {
  let summary = "Combine independent reduce-scatters into one variadic "
                "reduce-scatter (XLA's ReduceScatterCombiner, GPU settings)";
  let description = [{
    Reduce-scatters of one array operand with the same kind of reduction
    and element type, replica groups, channel or not and global device ids
    or not (and the same scatter dimension with `combine-by-dim`) become one
    reduce-scatter with a tuple result, grouped as `hlo-all-reduce-combiner`
    groups. Without `combine-by-dim` members scattering along another
    dimension than the most common one are bitcast to it and back, as
    `hlo-all-gather-combiner` does. Left alone: layout-constrained or
    variadic reduce-scatters, dynamic shapes, instructions with control
    edges, fused computations.
  }];
  let options = [
    Option<"thresholdBytes", "threshold-bytes", "int64_t",
           /*default=*/"31457287",
           "Most result bytes of a combined reduce-scatter "
           "(xla_gpu_reduce_scatter_combine_threshold_bytes: 30 MiB + 7)">,
    Option<"thresholdCount", "threshold-count", "int64_t", /*default=*/"256",
           "Most reduce-scatters combined into one (XLA's GPU pipeline: 256)">,
    Option<"combineByDim", "combine-by-dim", "bool", /*default=*/"false",
           "Only combine reduce-scatters of the same dimension "
           "(xla_gpu_enable_reduce_scatter_combine_by_dim, false)">,
  ];
  let statistics = [
    Statistic<"numCombined", "combined", "Reduce-scatters combined">,
    Statistic<"numGroups", "groups", "Combined reduce-scatters created">,
  ];
}

def HloCollectivePermuteCombiner
    : Pass<"hlo-collective-permute-combiner", "::mlir::ModuleOp"> {
  let summary = "Combine independent collective-permutes with the same "
                "pairs into one (XLA's CollectivePermuteCombiner)";
  let description = [{
    Collective-permutes of one array operand with the same
    `source_target_pairs` (in the same order) and channel or not become
    one collective-permute of all their
    operands (XLA's combined form) with a tuple result, each old result a
    get-tuple-element of it, grouped as `hlo-all-reduce-combiner` groups
    (byte and count thresholds, no member depending on another). Element
    types and shapes may differ. Left alone: the in-place form, combined
    permutes, dynamic shapes, instructions with control edges, fused
    computations.
  }];
  let options = [
    Option<"thresholdBytes", "threshold-bytes", "int64_t",
           /*default=*/"31457287",
           "Most result bytes of a combined collective-permute "
           "(xla_gpu_collective_permute_combine_threshold_bytes: 30 MiB + 7)">,
    Option<"thresholdCount", "threshold-count", "int64_t",
           /*default=*/"9223372036854775807",
           "Most collective-permutes combined into one (XLA 0.10.2's GPU "
           "pipeline sets no limit: 1100 become one)">,
  ];
  let statistics = [
    Statistic<"numCombined", "combined", "Collective-permutes combined">,
    Statistic<"numGroups", "groups", "Combined collective-permutes created">,
  ];
}

def HloGpuAsyncCollectiveConversion
    : Pass<"hlo-gpu-async-collective-conversion", "::mlir::ModuleOp"> {
  let summary = "Split collectives into asynchronous start/done pairs "
                "(XLA's AsyncCollectiveCreator and AsyncCollectiveAnnotator "
                "as the GPU compiler runs them)";
  let description = [{
    Each collective of an enabled kind becomes a start and a done right
    after it (XLA's AsyncCollectiveCreator): all-reduce ->
    `all-reduce-start` (the all-reduce's result) / `all-reduce-done`;
    all-gather -> `all-gather-start` ((operand(s)), (result(s))) /
    `all-gather-done`; collective-permute -> `collective-permute-start`
    (operand, result) / `collective-permute-done`; reduce-scatter,
    all-to-all, ragged-all-to-all and collective-broadcast, which have no
    opcodes of their own, -> `async-start` / `async-done` of a new
    computation `async_computation` holding the collective (seed 001:
    element 0 the tuple of the operands, element 1 the result), named
    `reduce-scatter-start`/`-done`, `all-to-all-start`/`-done`, ... as XLA
    names them. The start carries XLA's
    annotated GpuBackendConfig: the collective's own (or the default one)
    with `collective_backend_config` {is_sync false, is_pipelined false,
    backend DEFAULT, ...} after `operation_queue_id`; the done keeps the
    collective's backend_config. Names and metadata follow XLA
    (`all-reduce-start`, `all-reduce-done`, ...). Left alone: collectives
    in fused or async computations, collectives with control edges, the
    in-place (four-operand) collective-permute.
  }];
  let options = [
    Option<"convertAllReduce", "all-reduce", "bool", /*default=*/"true",
           "Convert all-reduces (XLA: async unless "
           "xla_gpu_disable_async_collectives names them)">,
    Option<"convertAllGather", "all-gather", "bool", /*default=*/"true",
           "Convert all-gathers">,
    Option<"convertCollectivePermute", "collective-permute", "bool",
           /*default=*/"true", "Convert collective-permutes">,
    Option<"convertReduceScatter", "reduce-scatter", "bool",
           /*default=*/"true", "Convert reduce-scatters">,
    Option<"convertAllToAll", "all-to-all", "bool", /*default=*/"true",
           "Convert all-to-alls">,
    Option<"convertRaggedAllToAll", "ragged-all-to-all", "bool",
           /*default=*/"true", "Convert ragged-all-to-alls">,
    Option<"convertCollectiveBroadcast", "collective-broadcast", "bool",
           /*default=*/"true", "Convert collective-broadcasts">,
  ];
  let statistics = [
    Statistic<"numConverted", "converted", "Collectives made asynchronous">,
  ];
}

def HloGpuConvertAsyncCollectivesToSync
    : Pass<"hlo-gpu-convert-async-collectives-to-sync", "::mlir::ModuleOp"> {
  let summary = "Make collectives nothing overlaps synchronous (XLA's "
                "GpuConvertAsyncCollectivesToSync)";
  let description = [{
    After scheduling (XLA's post-scheduling pipeline, right after the
    latency-hiding scheduler): in each computation of a scheduled module
    (`hlo.is_scheduled`; otherwise the pass does nothing), walking the ops
    in order, a collective start (all-reduce-start, all-gather-start,
    collective-permute-start, async-start of a collective) is in flight
    until an op that is neither a start, a done, a constant, a bitcast nor
    a get-tuple-element comes (XLA's GPU nops); a done whose start is still
    in flight then overlaps nothing. Its start gets
    `collective_backend_config.is_sync = true` (the backend config is
    created if the start has none) and moves right before the done, as XLA
    updates its schedule; the runtime runs such a pair on the compute
    stream, without events. Left alone: send/recv and copy pairs, pairs
    whose start is in another computation.
  }];
  let statistics = [
    Statistic<"numConverted", "converted", "Pairs made synchronous">,
  ];
}

def HloAllReduceSplitter
    : Pass<"hlo-all-reduce-splitter", "::mlir::ModuleOp"> {
  let summary = "An all-reduce sliced to a block some devices share as a "
                "reduction in subgroups, the slice, and one across them "
                "(XLA's AllReduceSplitter)";
  let description = [{
    XLA's AllReduceSplitter (the form with one group of all partitions),
    in "collective-optimizations" after the all-reduce folder: in an SPMD
    module of one replica, an all-reduce with global device ids over all N
    partitions whose one user is a dynamic-slice cutting one dimension into
    G < N blocks (N a multiple of G) becomes an all-reduce over groups of G
    consecutive partitions, the slice, and an all-reduce over the
    partitions at the same position in those groups; the first pair is a
    reduce-scatter the reduce-scatter creator then forms. Taken only when
    the slice takes block j on the j-th partition of each first group (the
    reduce-scatter creator's offset match) and, unless
    `ignore-profitability-check`, when an all-reduce of the computation
    already uses the first or the second groups. New channel ids; the
    first all-reduce keeps the name and `collective_group_key`.
  }];
  let options = [
    Option<"ignoreProfitabilityCheck", "ignore-profitability-check", "bool",
           /*default=*/"false",
           "Split without an all-reduce over the new groups already there">,
  ];
  let statistics = [
    Statistic<"numSplit", "split", "All-reduces split in two">,
  ];
}

def HloAllGatherOptimizer
    : Pass<"hlo-all-gather-optimizer", "::mlir::ModuleOp"> {
  let summary = "An elementwise op of two all-gathers as one all-gather of "
                "the op (XLA's AllGatherOptimizer)";
  let description = [{
    XLA-GPU's AllGatherOptimizer, in "collective-optimizations" after the
    all-reduce folder: `op(all-gather(a), all-gather(b))` becomes
    `all-gather(op(a, b))` for the commutative binary ops (add, and,
    multiply, maximum, minimum, or, xor) when the all-gathers gather
    operands of one type along one dimension over the same devices (the
    groups each one's mode gives on the module's replicas and partitions;
    XLA compares replica groups and global ids only, which differ from the
    devices for a channel id and none on several partitions), with the
    same layout constraint and `collective_group_key`, and the op is each
    one's only user. The new all-gather is the left one (its channel id,
    without a constrained layout), at the op's place and name. Chains
    collapse in one run. Left alone: fused computations, control edges,
    several operands.
  }];
  let statistics = [
    Statistic<"numOptimized", "optimized", "Pairs of all-gathers made one">,
  ];
}

def HloAllGatherDynamicSliceSimplifier
    : Pass<"hlo-all-gather-dynamic-slice-simplifier", "::mlir::ModuleOp"> {
  let summary = "A device's own block of an all-gather is its operand "
                "(XLA's AllGatherDynamicSliceSimplifier)";
  let description = [{
    XLA's AllGatherDynamicSliceSimplifier with XLA-GPU's configuration, in
    "collective-optimizations" after the all-reduce folder: a
    dynamic-slice that takes, on each participant, the participant's own
    block of an all-gather along the gathered dimension (directly, or
    through a reshape that leaves that dimension alone) is the all-gather's
    operand (reshaped to the slice's shape through the reshape). The match
    is the reduce-scatter creator's (XLA's MatchWithDynamicSlice): the
    offset provably `block * (position in the group)` on every device, from
    replica-id, partition-id or the flattened id as the all-gather's mode
    reads its groups, through table lookups, multiplications by constants,
    clamps that cannot bind, widening converts, copies, reshapes and
    bitcasts. The all-gather and the slice must be each other's only
    users. Left alone: slices of another dimension, layout-constrained
    all-gathers, several operands, groups of unequal sizes or of one
    device, channel ids in a module of one partition, fused computations.
  }];
  let statistics = [
    Statistic<"numSimplified", "simplified",
              "Slices of all-gathers replaced by the operand">,
  ];
}

def HloAllGatherPadDsSimplifier
    : Pass<"hlo-all-gather-pad-ds-simplifier", "::mlir::ModuleOp"> {
  let summary = "A window of a padded all-gather that holds all its rows is "
                "collective-permutes and a concatenate (XLA's "
                "AllGatherPadDsSimplifier)";
  let description = [{
    XLA's all-gather-pad-ds-simplifier, in "collective-optimizations" after
    `hlo-all-gather-dynamic-slice-simplifier`: in a module of one replica
    and several partitions, a dynamic-slice of a pad of an all-gather (one
    array, across partitions by global device ids: a channel,
    `use_global_device_ids`, explicit groups of one size covering every
    partition), where the pad adds edge padding (not negative) to the
    gathered dimension only and the slice cuts that dimension only, at an
    offset read from a table at the partition id or the partition id
    times a constant (as `hlo-all-gather-to-collective-permute-simplifier`
    reads it, clamped as dynamic-slice clamps), and where each partition's window holds either
    all gathered rows (one such partition per group at most, all at the
    same place in their windows) or none: the targets' window is the
    padding before the rows, one block per group member (the operand where
    every target owns that block, else a collective-permute of the operand
    from each target group's owner of the block to the target, with a new
    channel id), the padding after them; a select on a table at the
    partition id gives the other partitions the padding alone (no select
    where every partition is a target). When no window holds a gathered
    row, the slice is the padding. Beyond XLA (whose match needs a zero
    constant padding value, padding on one side, a table ascending with
    the partition id and a window holding the rows): any padding value,
    both sides padded, any table order, the partition id times a
    constant, no target. Left alone: windows
    holding part of the rows, two targets in one group, targets holding
    the rows at different places, interior or negative padding, slices of
    another dimension, layout-constrained all-gathers, several operands,
    a replica count above one, fused computations.
  }];
  let statistics = [
    Statistic<"numSimplified", "simplified",
              "Slices of padded all-gathers rewritten">,
  ];
}

def HloAllGatherToCollectivePermuteSimplifier
    : Pass<"hlo-all-gather-to-collective-permute-simplifier",
           "::mlir::ModuleOp"> {
  let summary = "A block of an all-gather each partition slices by a "
                "permuted table is a collective-permute (XLA's "
                "AllGatherDynamicSlicePermutedOffsetSimplifier)";
  let description = [{
    XLA's all-gather-to-collective-permute-simplifier, in
    "collective-optimizations" after `hlo-all-gather-dynamic-slice-simplifier`:
    in a module of one replica and several partitions, an all-gather of one
    array across partitions by global device ids (a channel,
    `use_global_device_ids`, explicit groups) whose one user (directly, or
    through one reshape and then one bitcast, each with one user) is a
    dynamic-slice of one block of the gathered dimension, of the operand's
    shape, at an offset read from a table at the partition id (a
    dynamic-slice of a constant s32/u32 array or an iota at partition-id,
    or at another such lookup, or the partition id converted to 32 bits or
    more, through copies, reshapes and bitcasts, times at most one
    constant), where the offsets of each group's partitions are
    its blocks in some order, becomes `collective-permute(operand)` with a
    (block owner, reader) pair for every partition of every group, pairs of
    a partition with itself kept (a collective-permute zeroes a partition
    that is no target), the all-gather's channel id and its
    `collective_group_key` frontend attribute. Left alone: a replica count
    above one, groups by replica or flattened without global ids, empty
    groups, offsets that are not such a table lookup or read a block twice,
    slices of another dimension or size, layout-constrained all-gathers,
    several operands, fused computations.
  }];
  let statistics = [
    Statistic<"numSimplified", "simplified",
              "Slices of all-gathers replaced by a collective-permute">,
  ];
}

def HloAllReduceReassociate
    : Pass<"hlo-all-reduce-reassociate", "::mlir::ModuleOp"> {
  let summary = "A reduction of two all-reduces as one all-reduce of the "
                "reduction (XLA's AllReduceReassociate)";
  let description = [{
    XLA's AllReduceReassociate, after the all-reduce folder:
    `add(all-reduce(x), all-reduce(y))` becomes `all-reduce(add(x, y))`
    when the instruction (add, multiply, minimum, maximum; and, or of pred)
    is the all-reduces' own reduction (op and type) and they agree on
    channel or not, global device ids, replica groups and the
    `collective_group_key` frontend attribute. Each all-reduce has that one
    user; single-user reshapes, slices and pads by the reduction's identity
    may stand between it and the instruction (they then apply to x and y),
    if the all-reduces move at least as many elements as the new one. The
    new all-reduce takes the first one's name and attributes and a new
    channel id (as XLA 0.10.2). Chains and trees collapse in one run.
    XLA's form through dynamic-slices: `op(ds(all-reduce(x), s), ds(all-
    reduce(y), s))` at the same start indices and sizes, each slice and
    all-reduce of one user, becomes `ds(all-reduce(op(x, y)), s)`. With
    `reassociate-converted` (XLA-GPU's xla_gpu_enable_reassociation_for_
    converted_ar, on by default) a value-preserving convert right on each
    all-reduce (one side may have none) may stand between it and the
    instruction: the new all-reduce reduces in the wide type with a
    promoted reducer `<reducer>_reassoc_promoted`. The module is left
    alone if an all-reduce has a constrained layout.
  }];
  let options = [
    Option<"reassociateConverted", "reassociate-converted", "bool",
           /*default=*/"true",
           "Also through value-preserving converts on the all-reduces, "
           "reducing in the wide type">,
  ];
  let statistics = [
    Statistic<"numReassociated", "reassociated",
              "Pairs of all-reduces made one">,
  ];
}

def HloReduceScatterReassociate
    : Pass<"hlo-reduce-scatter-reassociate", "::mlir::ModuleOp"> {
  let summary = "A reduction of two reduce-scatters as one reduce-scatter "
                "of the reduction (XLA's ReduceScatterReassociate)";
  let description = [{
    XLA's ReduceScatterReassociate, right after the all-reduce
    reassociation: `add(reduce-scatter(x), reduce-scatter(y))` becomes
    `reduce-scatter(add(x, y))` when both operands are reduce-scatters of
    one user each, reducing with the instruction's op and type (add,
    multiply, minimum, maximum; and, or of pred), and agreeing on the
    scatter dimension, channel or not, global device ids, replica groups,
    the `collective_group_key` frontend attribute and `_scheduling_group_id`
    where both have one (kept only when both do). The new reduce-scatter
    takes the first one's name and attributes and a new channel id (one past
    the module's largest) where it has one. Chains and trees collapse in one
    run. Left alone: modules with a layout-constrained reduce-scatter,
    control edges.
  }];
  let statistics = [
    Statistic<"numReassociated", "reassociated",
              "Pairs of reduce-scatters made one">,
  ];
}

def HloAllReducePromotion
    : Pass<"hlo-all-reduce-promotion", "::mlir::ModuleOp"> {
  let summary = "16-bit integer all-reduces and reduce-scatters in 32 bits "
                "(XLA's AllReducePromotion as XLA-GPU builds it)";
  let description = [{
    XLA's AllReducePromotion with XLA-GPU's pairs (u16 -> u32, s16 -> s32),
    near the end of XLA's "collective-optimizations": NCCL reduces no
    16-bit integers. An all-reduce or reduce-scatter of one u16 or s16
    array reduces a convert of it to 32 bits with `<reducer>_promoted` (the
    reducer's op on two 32-bit scalars, one per reducer), and its users
    read a convert back; the collective keeps its name and attributes.
    Exact for the reductions it takes: add, multiply, minimum, maximum,
    and, or, xor of the reducer's two parameters (XLA does not check the
    reducer). Left alone: several operands, other types, async forms,
    control edges, fused computations.
  }];
  let statistics = [
    Statistic<"numPromoted", "promoted", "Collectives promoted to 32 bits">,
  ];
}

def HloSubByteCollectiveNormalization
    : Pass<"hlo-sub-byte-collective-normalization", "::mlir::ModuleOp"> {
  let summary = "Collectives of packed sub-byte arrays move s8 bytes "
                "(XLA's SubByteCollectiveNormalization)";
  let description = [{
    XLA's SubByteCollectiveNormalization, first in XLA-GPU's
    "post-layout_assignment" pipeline: an all-gather, all-to-all,
    collective-broadcast or collective-permute of one packed array (2- or
    4-bit elements whose layout names that element size,
    `s4[4,8]{1,0:E(4)}`) whose minor-most dimension is a multiple of r =
    8 / width moves bytes: the operand is bitcast to its shape with that
    dimension divided by r and a trailing dimension of r elements, the most
    minor in the layout, bitcast-converted to s8, the collective runs on
    the s8 array (keeping its attributes), and a bitcast-convert and a
    bitcast give back the result's type and name. An all-to-all with a
    split dimension also needs that dimension to be a multiple of the group
    size times r, as XLA asks. Left alone, as in XLA: tuple results,
    several operands (variadic all-to-alls, combined or in-place permutes),
    async forms; also control edges, fused computations.
  }];
  let statistics = [
    Statistic<"numRewritten", "rewritten", "Collectives moved as bytes">,
  ];
}

#endif // HLO_TRANSFORMS_COLLECTIVE_PASSES
