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
    else: XLA adds copies everywhere and removes the unnecessary ones; here
    only the necessary ones are added, by these rules, over the current
    order of each computation (the schedule):
    - before a while: a state element that is read-only, read after the
      loop, or also another element of the state;
    - at a while body's root: an element that is read-only, repeated,
      another parameter element passed through, or computed before the last
      read of the parameter element it replaces (its own instruction's read
      counts unless that writes elementwise or in place over it);
    - before an in-place instruction: the operand it overwrites, when that
      is read-only, read later, or also another operand of it;
    - at the ENTRY root: a constant or parameter output (unless aliased to
      that output), a repeated output, an aliased output computed before its
      parameter's last read; at a branch's or callee's root: a read-only,
      repeated or passed-through element.
    A tuple operand is copied element by element (get-tuple-element, copy,
    tuple). Run it after fusion and scheduling, before
    `hlo-buffer-assignment`.
  }];
  let statistics = [
    Statistic<"numCopies", "copies", "Copies added">,
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
    smaller kept) packs every other buffer. An elementwise instruction may
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
           "Heap simulator order: spatial, temporal or best (both, the "
           "smaller heap kept, as XLA)">,
    Option<"check", "check", "bool", /*default=*/"true",
           "Check the assignment with the independent overlap checker">,
  ];
  let statistics = [
    Statistic<"numAllocations", "allocations", "Allocations made">,
    Statistic<"tempBytes", "temp-bytes", "Size of the temp allocation">,
    Statistic<"tempLowerBound", "temp-lower-bound",
              "Peak of live temporary bytes over the schedule">,
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

#endif // HLO_TRANSFORMS_BUFFER_ASSIGNMENT_PASSES
