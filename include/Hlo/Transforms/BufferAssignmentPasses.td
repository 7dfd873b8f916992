//===- BufferAssignmentPasses.td - scheduling and buffers --*- tablegen -*-===//
//
// XLA's passes after fusion that prepare the module for code generation:
// copy insertion, scheduling and buffer assignment (seed 004).
// Registered with the other passes by registerHloPasses() (Passes.h);
// docs/passes.md documents every pass.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSFORMS_BUFFER_ASSIGNMENT_PASSES
#define HLO_TRANSFORMS_BUFFER_ASSIGNMENT_PASSES

include "mlir/Pass/PassBase.td"

def HloGpuCopyInsertion
    : Pass<"hlo-gpu-copy-insertion", "::mlir::ModuleOp"> {
  let summary = "Add the copies that make sharing buffers safe (XLA's "
                "CopyInsertion and RemoveUnnecessaryCopies)";
  let description = [{
    The alias analysis gives one buffer to a while loop's state (operand,
    body parameter and root, result), to a conditional's result and its
    branch roots, to a call's result and its callee's root, to an in-place
    instruction's operand and result (dynamic-update-slice, scatter, fusions
    rooted in them, `output_to_operand_aliasing`) and to an ENTRY output
    and the parameter `input_output_alias` gives it. This pass adds a
    `copy` wherever that sharing would overwrite a value still needed or
    write read-only memory (a constant, an ENTRY parameter), and nowhere
    else: XLA adds copies everywhere and removes those whose live ranges do
    not interfere (RemoveUnnecessaryCopies); here only the necessary ones
    are added, by these rules, over the current order of each computation
    (the schedule):
    - before a while: a state element that is read-only (unless the body
      passes it through unchanged: XLA's read-only indices), read after the
      loop, or also another element of the state; loops are taken outer
      ones first, so an inner loop sees its outer loop's copies. A loop in
      a while body updating the parameter element that the body's root
      takes back from it at the same index keeps it uncopied, and its other
      readers get one copy made before the loop (instead of a copy into the
      loop and one at the root);
    - at a while body's root: an element that is read-only, repeated,
      another parameter element passed through, or computed before the last
      read of the parameter element it replaces (its own instruction's read
      counts unless it writes over it: elementwise, in place, a kLoop
      fusion whose fused parameter reaches the output through elementwise
      ops only (XLA's CanShareOperandBufferWithUser), or a nested while
      carrying it in the same element); an element passed through at its
      own index is never copied;
    - before an in-place instruction: the operand it overwrites, when that
      is read-only, read later, or also another operand of it;
    - at the ENTRY root: a constant or parameter output (unless aliased to
      that output), a repeated output, an aliased output computed before its
      parameter's last read; at a callee's root: a read-only, repeated or
      passed-through element; at a branch's root: the same, except that a
      branch returning its parameter at the same index is not copied when
      the conditional's operand is not read afterwards nor by another
      operand, and every other branch computes that element itself.
    A tuple operand is copied element by element (get-tuple-element, copy,
    tuple). Run it after fusion and scheduling (after
    `hlo-loop-schedule-linearizer` and the schedulers), before
    `hlo-buffer-assignment`. Computations run from several places are
    handled as the dataflow analysis sees them (run hlo-flatten-call-graph
    first).
  }];
  let statistics = [
    Statistic<"numCopies", "copies", "Copies added">,
  ];
}

def HloSanitizeConstantNames
    : Pass<"hlo-sanitize-constant-names", "::mlir::ModuleOp"> {
  let summary = "Give every constant a module-unique name without `.`, `-` "
                "or `;` (XLA's SanitizeConstantNames)";
  let description = [{
    A constant becomes a global of the generated code (a PTX `.global`
    named after the instruction), and `.` and `-` would need quoting there.
    As XLA's GPU pass does: the names of all other instructions (as the HLO
    exporter names them) are registered first and left unchanged; then
    every constant, in module order (fused computations too), gets its name
    with `.`, `-` and `;` replaced by `_`, made unique in the whole module
    the way XLA's NameUniquer with separator `_` does (a trailing `_N` is a
    numeric suffix; a taken name gets its root's next free suffix, counting
    from 0: `constant.5` -> `constant_5`, a second `constant_5` ->
    `constant_0`). The new name is the instruction's location name; metadata stays.
  }];
  let statistics = [
    Statistic<"numRenamed", "renamed", "Constants whose name changed">,
  ];
}

def HloCopyFusion : Pass<"hlo-copy-fusion", "::mlir::ModuleOp"> {
  let summary = "Fuse the copies of a fusion's outputs into the fusion "
                "(XLA's GPU CopyFusion)";
  let description = [{
    XLA runs CopyFusion right after copy insertion (its
    pre-scheduling-copy-insertion pipeline); here it runs after
    `hlo-gpu-copy-insertion`, on the scheduled module, whose order it keeps.
    In the ENTRY computation only (elsewhere a copy may share its buffer
    with a loop's state, XLA's reason), for each fusion whose fused
    computation reaches from its parameters only elementwise ops (no copy),
    bitcasts and tuples, and whose root is no unnested reduction, no
    scatter and no tuple of slices only: its users that are copies keeping
    the shape and layout (possibly through one get-tuple-element and one
    bitcast, each with a single user; not an output computed around an
    unnested reduction), without control edges and within the fusion's
    budget, become outputs of the fusion. The copy (after the bitcast, if
    any) is cloned into the fused computation on the output it copies and
    appended to a root tuple; the copy's readers read a get-tuple-element of
    the new fusion, put where the copy was; a single-output fusion's other
    readers read its element 0. Fusions with in-place dynamic-update-slice
    outputs are left alone unless some output is not one (XLA's rule). One
    kernel then writes both buffers instead of a kernel and a copy.
  }];
  let statistics = [
    Statistic<"numFused", "copies-fused", "Copies fused into fusions">,
  ];
}

def HloLoopScheduleLinearizer
    : Pass<"hlo-loop-schedule-linearizer", "::mlir::ModuleOp"> {
  let summary = "Order the reads of a while loop's state before its update "
                "(XLA's LoopScheduleLinearizer)";
  let description = [{
    In a while body the new value of a state element shares its buffer
    with the parameter element it replaces, so it may only be written once
    every read of the old value has run; otherwise `hlo-gpu-copy-insertion`
    must copy it. Like XLA's LoopScheduleLinearizer (run in XLA's GPU
    pre-scheduling copy insertion), this pass adds control edges, before
    scheduling, from each instruction reading a parameter element to the
    instruction defining that element's new value (found through tuple,
    get-tuple-element and bitcast), unless the reader already depends on it
    (the edge would make a cycle) or is it. The schedulers keep control
    edges, so copy insertion then finds no conflict. Left alone: elements
    passed through or taken from another element, bodies with control
    flow reaching outside their block, and definitions whose forward walk
    (to prove no cycle) passes `max-walk` instructions.
  }];
  let options = [
    Option<"maxWalk", "max-walk", "int64_t", /*default=*/"10000",
           "Instructions visited when proving that an edge makes no cycle "
           "(per edge; above it the edge is not added)">,
  ];
  let statistics = [
    Statistic<"numEdges", "edges", "Control edges added">,
    Statistic<"numCycles", "cycles", "Edges left out (would make a cycle)">,
  ];
}

def HloP2PSchedulePreparation
    : Pass<"hlo-p2p-schedule-preparation", "::mlir::ModuleOp"> {
  let summary = "Order each send/recv chain recv, send, recv-done, send-done "
                "(XLA's P2PSchedulePreparation)";
  let description = [{
    A send and a recv between devices (not host transfers) on one channel,
    with their -done ops in the same computation (XLA's unpipelined P2P
    chain), move data only when every device's send has run before the
    recv-done that waits for it; nothing in their data says so. Like XLA's
    P2PSchedulePreparation, run before scheduling, this pass adds control
    edges recv -> send -> recv-done -> send-done, each unless its target
    already reaches its source (the edge would close a cycle: the data
    orders them the other way), and puts the computation in an order the
    edges allow; the schedulers keep control edges.

    Pipelined chains (XLA's collective pipeliner: a while body completes the
    transfer the previous iteration started, from the loop-carried results
    of its recv and send, and starts the next one, whose recv and send leave
    through the body's result): in the body each recv-done and send-done of
    the carried transfer gets an edge to each new recv and send of its
    channel, so that no device starts the next transfer on the channel
    before the one in flight has completed (the runtimes stage a channel's
    data in one buffer). Not done: XLA's rule that keeps the chains of other
    channels out of the loop's span in its parent computation.
  }];
  let statistics = [
    Statistic<"numEdges", "edges", "Control edges added">,
  ];
}

def HloBufferAssignment
    : Pass<"hlo-buffer-assignment", "::mlir::ModuleOp"> {
  let summary = "Assign every HLO value a slice of an allocation (XLA's "
                "BufferAssigner)";
  let description = [{
    Over the module's schedule (the order of the instructions in each
    computation), groups HLO values into buffers (HloDataflowAnalysis and
    HloAliasAnalysis), computes their live ranges over the flattened
    schedule (HloLiveRange) and assigns allocations as XLA's BufferAssigner:
    one per ENTRY parameter buffer (`parameter`, `maybe_live_out` when an
    output aliases it), one per constant, one per buffer of the ENTRY result
    (`output`), and one `temp` allocation into which the heap simulator
    (global decreasing size best fit, spatial and temporal orders, the
    smaller kept) packs every other buffer; buffers of arrays in host
    memory (`S(5)`, XLA's color 5, hlo-host-offloader's) are packed into a
    second `temp` allocation after it and reuse only host output
    allocations, so that `hlo-to-thunk` places that allocation in host
    memory. An elementwise instruction may
    write its result over an operand of the same type that dies there. The
    result is the module attribute `hlo.buffer_allocations` and a
    `hlo.buffer_slices` on every instruction and parameter of ENTRY and the
    computations it runs through while, conditional and call; fused
    computations and reducers get none (XLA's thread-local allocations).
    With `check` set, an independent checker then reads the slices back and
    fails the pass if two values share a byte while both are live and they
    are not one buffer. The pass does not insert copies: run
    `hlo-gpu-copy-insertion` first where in-place instructions, loops or
    aliased outputs need them.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"256",
           "Alignment in bytes of every temporary's offset (XLA GPU: 256)">,
    Option<"packing", "packing", "std::string", /*default=*/"\"best\"",
           "Heap simulator order: spatial, temporal, area (bytes times "
           "live span), xla (spatial and temporal, the smaller heap kept, "
           "as XLA) or best (all three, the smallest heap kept)">,
    Option<"check", "check", "bool", /*default=*/"true",
           "Check the assignment with the independent overlap checker">,
  ];
  let statistics = [
    Statistic<"numAllocations", "allocations", "Allocations made">,
    Statistic<"tempBytes", "temp-bytes", "Size of the temp allocation">,
    Statistic<"tempLowerBound", "temp-lower-bound",
              "Peak of live temporary bytes over the schedule">,
    Statistic<"hostTempBytes", "host-temp-bytes",
              "Size of the temp allocation in host memory (S(5))">,
  ];
}

def HloDumpBufferAssignment
    : Pass<"hlo-dump-buffer-assignment", "::mlir::ModuleOp"> {
  let summary = "Print the buffer assignment as XLA's "
                "*-buffer-assignment.txt";
  let description = [{
    Prints the assignment that `hlo-buffer-assignment` left in the module:
    `BufferAssignment:` and every allocation with its kind and the values in
    it, in XLA's format (`allocation 2: size 528, parameter 0, shape
    |f32[4,33]| at ShapeIndex {}:` then ` value: <36 x.1 @0>
    (size=528,offset=0): f32[4,33]{1,0}`), then `BufferLiveRange:` with the
    live range of every value over the flattened schedule, then the totals
    and the lower bound of the temporaries (the peak of live bytes). Fails
    when the module has no assignment. The module is left unchanged.
  }];
  let options = [
    Option<"file", "file", "std::string", /*default=*/"\"-\"",
           "Where to print it (- for stdout)">,
  ];
}

def HloMemoryScheduler : Pass<"hlo-memory-scheduler", "::mlir::ModuleOp"> {
  let summary = "Order each computation to lower its peak of live bytes "
                "(XLA's HloMemoryScheduler with DefaultMemoryScheduler)";
  let description = [{
    For every computation the dataflow analysis covers (ENTRY and what it
    runs through while, conditional and call), computes a schedule with
    XLA's three memory schedulers and keeps the one whose peak of live bytes
    is the smallest (ties: list, then DFS, then post-order, XLA's order):
    - list (ListScheduler): greedy; of the ready instructions (all operands
      and control predecessors scheduled) it takes the one of highest
      priority: an effectively scalar result first, else the bytes its
      scheduling frees (the buffers it reads for the last time) minus the
      bytes it defines, then its number of users; buffers of parameters and
      constants are not counted; of equal priorities the latest to become
      ready (or to change priority) goes first; an infeed or outfeed with a
      config goes last or first;
    - dfs (DFSMemoryScheduler): a post-order depth-first walk from the
      instructions nothing uses and then the ROOT, visiting operands (and
      control predecessors) in decreasing order of their cumulative extra
      users (users - 1, summed over everything that leads to them), then of
      their cumulative defined bytes, then by name;
    - post-order (PostOrderMemoryScheduler): XLA's instruction post-order
      (each instruction without users in turn, operands first to last,
      control predecessors before them).
    The measure is the peak over the computation's order of the bytes of the
    buffers (HloAliasAnalysis, each at its largest value) live at once,
    parameters and live-out buffers included. The ops of each block are then
    moved to the chosen order (operands and control predecessors always
    come first) and the module is marked `hlo.is_scheduled = true`, which
    the exporter writes as `is_scheduled=true`.

    Left alone: computations the dataflow analysis does not cover (fused
    computations, reducers, comparators, async-wrapped computations keep
    their order: XLA schedules the non-fused ones too, any topological order
    of them is as good here), a computation holding an op that is not an
    HLO instruction. Not done: XLA's accounting of the memory a called
    computation needs (dropped in recent XLA), the channel dependencies of
    the post-order and the GPU postprocessing that moves asynchronous starts
    early and dones late (`hlo-latency-hiding-scheduler` does that).
  }];
  let options = [
    Option<"algorithm", "algorithm", "std::string", /*default=*/"\"default\"",
           "default (the best of list, dfs and post-order, as XLA), list, "
           "dfs or post-order">,
  ];
  let statistics = [
    Statistic<"peakBefore", "peak-bytes-before",
              "Peak of live bytes of the module before scheduling">,
    Statistic<"peakAfter", "peak-bytes-after",
              "Peak of live bytes of the module after scheduling">,
    Statistic<"numList", "list-chosen", "Computations given the list order">,
    Statistic<"numDfs", "dfs-chosen", "Computations given the DFS order">,
    Statistic<"numPostOrder", "post-order-chosen",
              "Computations given the post-order">,
    Statistic<"numReordered", "reordered", "Computations whose order changed">,
  ];
}

def HloLatencyHidingScheduler
    : Pass<"hlo-latency-hiding-scheduler", "::mlir::ModuleOp"> {
  let summary = "Overlap asynchronous collectives and copies with compute "
                "(XLA's LatencyHidingScheduler with the GPU async tracker "
                "and latency estimator)";
  let description = [{
    Reschedules every computation the dataflow analysis covers with XLA's
    latency-hiding list scheduler: bottom up over the dependence graph
    (data operands and control edges) with a clock. Asynchronous pairs
    (all-reduce, all-gather and collective-permute start/done, async-start
    /done of a wrapped collective or computation, copy-start/done,
    send/send-done, recv/recv-done; not those whose
    `collective_backend_config` says `is_sync`) occupy a resource from
    start to done: one collectives stream (`collective-overlap-limit` pairs
    in flight, XLA's parallel_collective_overlap_limit, 1), send and recv
    streams (4 each, as XLA), an async compute stream for copies and
    wrapped computations (1). A start must be scheduled at least its
    transfer time before its done. Among ready nodes: under memory
    pressure (live bytes above `memory-limit`) the one freeing the most;
    then a done whose resource has room (dones as late as possible); then
    a node that does not stall the clock (so compute fills a transfer's
    window and the start lands where the window is covered); then the one
    latest in the current order, so a computation without asynchronous
    pairs keeps the memory scheduler's order exactly. When only dones of
    full resources are ready, one is taken anyway (`forced-over-limit`).

    Time (GpuLatencyEstimator, `estimator`): `analytical` (default):
    microseconds from the GPU performance model on the selected device
    (`--hlo-gpu-device`) for kernels, `collective-latency-us` plus the
    transferred bytes over `interconnect-bandwidth` for a transfer;
    `approximate`: XLA's ApproximateLatencyEstimator and
    GpuLatencyEstimator units (5000 per pair, 1000 per loop fusion and
    custom call, 5000 per output fusion or convolution, 1 otherwise, 0 for
    bitcasts, tuples, constants). The new order of a computation is kept
    only if the estimator's forward simulation of it is not slower than of
    the old order (`kept-slower`) and its peak of live bytes (as
    `hlo-memory-scheduler` measures it) is not above both `memory-limit`
    and the old peak (`memory-limited`). The module is marked scheduled.
    With `report`, a remark on the module gives the asynchronous pairs, the
    estimated time of the computations and the time waited at dones, before
    and after (the estimator's units).
  }];
  let options = [
    Option<"memoryLimit", "memory-limit", "int64_t", /*default=*/"-1",
           "Bytes the peak of live bytes may reach (-1: 95% of the device's "
           "memory, XLA's xla_gpu_memory_limit_slop_factor)">,
    Option<"estimator", "estimator", "std::string", /*default=*/"\"analytical\"",
           "analytical (performance model, microseconds) or approximate "
           "(XLA's ApproximateLatencyEstimator units)">,
    Option<"collectiveLatencyUs", "collective-latency-us", "double",
           /*default=*/"5.0",
           "Fixed latency of a transfer in microseconds (analytical)">,
    Option<"interconnectBandwidth", "interconnect-bandwidth", "double",
           /*default=*/"300.0",
           "Bytes per nanosecond a transfer moves (NVLink, GB/s; analytical)">,
    Option<"collectiveOverlapLimit", "collective-overlap-limit", "unsigned",
           /*default=*/"1",
           "Collectives in flight at once (XLA's "
           "parallel_collective_overlap_limit)">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Report on the module (a remark) the estimated time and the time "
           "waited at dones, before and after">,
  ];
  let statistics = [
    Statistic<"numReordered", "reordered", "Computations given a new order">,
    Statistic<"numSlower", "kept-slower",
              "Computations kept as they were: the new order was slower">,
    Statistic<"numLimited", "memory-limited",
              "Computations kept as they were: the memory limit">,
    Statistic<"numForced", "forced-over-limit",
              "Dones scheduled while their resource was full">,
    Statistic<"exposedBefore", "exposed-before",
              "Time waited at dones before (ns, or approximate units)">,
    Statistic<"exposedAfter", "exposed-after",
              "Time waited at dones after (ns, or approximate units)">,
  ];
}

def HloRematerialization
    : Pass<"hlo-rematerialization", "::mlir::ModuleOp"> {
  let summary = "Recompute values later to keep the peak of live bytes under "
                "a memory limit (XLA's HloRematerialization, recompute mode)";
  let description = [{
    XLA's GPU compiler runs HloRematerialization after scheduling with
    recompute and compress enabled (compress never applies there: the
    compact shape function is the identity) and blocks of one instruction.
    This pass does the same on a scheduled module (`hlo.is_scheduled`; an
    unscheduled module is an error: run `hlo-memory-scheduler` first). In
    `hlo-gpu-optimize` it runs after the schedulers and before
    `hlo-gpu-copy-insertion` (XLA runs it after copy insertion; here the
    copies are decided over the final order).

    Memory is measured as XLA's MemoryUsageTracker does, per computation
    over its order (the order of its ops): an instruction's new buffers
    (HloAliasAnalysis) are allocated when it starts, a buffer is freed after
    its last reader; buffers at a parameter or in the computation's result
    count nothing (the caller holds them), constants count; a while,
    conditional or call adds the peak of the computations it runs. The ENTRY
    result's bytes are taken off the limit (the module's peak is the ENTRY
    peak plus them). Computations are processed callees first.

    Walking each computation (ENTRY and what it runs through while,
    conditional and call), wherever the live bytes exceed the limit the pass
    picks among the instructions already run whose buffer is still live and
    not read by the current instruction the one of lowest XLA cost:
    0 when none of its users has run yet (a move), else
    limit / bytes freed, where the bytes freed are its buffer's minus those
    of its operands' buffers that are dead here or read for the last time
    by the current instruction (their lives would be extended; XLA misses
    the latter). It clones the instruction (`<name>.remat`; a fusion with a
    copy of its fused computation) before the earliest of its users and of
    its operands' users not yet run (operands that count nothing are not
    looked at), points the users not yet run at the clone and, when the
    original has no users left, removes it. The clone can be
    rematerialized again further on (a move of a move is not, XLA's rule
    against endless moves). Repeats until under the limit or no candidate
    is left, or after twice as many clones as the computation has
    instructions (clones can leapfrog each other). If the module's peak has risen in the end (a clone runs with
    its operands and result live at once) every step is undone; XLA keeps
    them. A result that leaves the peak as it was is kept, as in XLA.

    Candidates (XLA's IsRematerializable): instructions without side
    effects (no collectives, rng, infeed/outfeed, send/recv), except
    parameter, constant, while, conditional, call, custom-call and copies
    that keep the layout (copy insertion's); with `recompute=cheap` only
    elementwise ops, broadcast, iota, reshape, transpose, slice, concatenate,
    pad, reverse and loop fusions. Left alone (not handled): in-place
    instructions (dynamic-update-slice, scatter, fusions rooted in them),
    tuple-shaped or dynamically shaped results, results read through a
    tuple or get-tuple-element or in the computation's result (readers
    through bitcasts are followed, as XLA's indirect users: a bitcast that
    already ran gets a copy over the clone), instructions with control predecessors or
    successors, buffers under `min-remat-size`.

    Reports an MLIR remark on the module with the peak before and after and
    the number of instructions rematerialized when the peak was over the
    limit, and a warning when the limit cannot be met (XLA logs the same
    warning and goes on; the pass does not fail). Under the limit nothing
    changes. Cost: the candidates are kept in a heap by size; each pick
    examines at most `max-candidates` of them (XLA scans all placed
    instructions at every step).
  }];
  let options = [
    Option<"memoryLimit", "memory-limit", "int64_t", /*default=*/"-1",
           "Bytes the module's peak may reach (-1: --hlo-memory-limit if "
           "given, else XLA's GetSchedulerMemoryLimit: (80% of the device's "
           "memory - parameter and result bytes) * 95%, "
           "xla_gpu_memory_limit_slop_factor)">,
    Option<"minRematSize", "min-remat-size", "int64_t", /*default=*/"0",
           "Buffers smaller than this are not rematerialized (XLA's "
           "min_remat_size; GPU: 0)">,
    Option<"recompute", "recompute", "std::string", /*default=*/"\"any\"",
           "Which instructions may be recomputed: any (XLA's "
           "IsRematerializable) or cheap (elementwise, broadcast, iota, "
           "data movement, loop fusions)">,
    Option<"maxCandidates", "max-candidates", "int64_t", /*default=*/"256",
           "Candidates examined per pick, largest buffers first (0: all)">,
  ];
  let statistics = [
    Statistic<"peakBefore", "peak-bytes-before",
              "Peak memory of the module before rematerialization">,
    Statistic<"peakAfter", "peak-bytes-after",
              "Peak memory of the module after rematerialization">,
    Statistic<"numRemats", "rematerialized", "Instructions rematerialized">,
    Statistic<"numMoves", "moved",
              "Rematerializations that left the original without users "
              "(moves)">,
  ];
}

#endif // HLO_TRANSFORMS_BUFFER_ASSIGNMENT_PASSES
