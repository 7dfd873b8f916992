//===- CollectivePasses.td - collective passes -------------*- tablegen -*-===//
//
// XLA's passes over collectives: folding, combining, and the
// asynchronous start/done forms.
// Registered with the other passes by registerHloPasses() (Passes.h);
// docs/passes.md documents every pass.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSFORMS_COLLECTIVE_PASSES
#define HLO_TRANSFORMS_COLLECTIVE_PASSES

include "mlir/Pass/PassBase.td"

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

#endif // HLO_TRANSFORMS_COLLECTIVE_PASSES
