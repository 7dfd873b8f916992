//===- HostOffloadPasses.td - host memory offloading -------*- tablegen -*-===//
//
// XLA's host memory offloading: JAX's memory kinds (`pinned_host`) become
// arrays in XLA's host memory space `S(5)` and copies between it and the
// device's memory. Registered with the other passes by registerHloPasses()
// (Passes.h); docs/passes.md documents every pass.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSFORMS_HOST_OFFLOAD_PASSES
#define HLO_TRANSFORMS_HOST_OFFLOAD_PASSES

include "mlir/Pass/PassBase.td"

def HloConvertMemoryPlacementToInternalAnnotations
    : Pass<"hlo-convert-memory-placement-to-internal-annotations",
           "::mlir::ModuleOp"> {
  let summary = "JAX's device placement calls as XLA's MoveToHost and "
                "MoveToDevice (XLA's "
                "ConvertMemoryPlacementToInternalAnnotations)";
  let description = [{
    XLA's pass of its "pre-spmd-partitioner" pipeline: a custom call
    `annotate_device_placement` whose frontend attribute
    `_xla_buffer_placement` is `pinned_host` or `unpinned_host` becomes a
    `MoveToHost` call of its operand, `device` a `MoveToDevice` call,
    `pinned_device` a `PinToDevice` call and `vmem` a `PinToDeviceSram`
    call (each without side effects or frontend attributes, keeping the
    sharding). Calls without that attribute or with another memory kind
    are left alone. A call to move that has not exactly one operand of its
    result's type is an error.
  }];
  let statistics = [
    Statistic<"numConverted", "converted", "Placement calls converted">,
  ];
}

def HloHostOffloader : Pass<"hlo-host-offloader", "::mlir::ModuleOp"> {
  let summary = "Arrays moved to the host in XLA's host memory space (XLA's "
                "HostOffloader)";
  let description = [{
    XLA's pass of its "post-layout_assignment" pipeline. What `MoveToHost`
    calls produce, and the ENTRY parameters whose layout in
    `hlo.entry_computation_layout` is in memory space 5, live in host
    memory: the pass follows them through the instructions that only pass
    arrays on (tuple, get-tuple-element, bitcast, reshapes that are
    bitcasts, opt-barrier, add-dependency, domain, while loops' state,
    calls and conditionals) and through the in-place dynamic-update-slice,
    and gives every array it reaches memory space 5 (`{...:S(5)}`).
    A `MoveToHost` becomes a copy into memory space 5; one read only,
    through bitcasts and copies, as the update of dynamic-update-slices
    leaves the device array where it is and makes those updates write into
    host memory (JAX's offloaded scan outputs). A `MoveToDevice` of a host
    array becomes a copy back into device memory; `MoveToDevice` calls of
    arrays not in host memory go. Where a host array meets a device array
    (a loop state initialized on the device, a body root computed on the
    device, an ENTRY output the entry layout puts in host memory) the
    device array is copied into host memory; dynamic-slice and slice read
    host arrays in place (their results are device arrays), and any other
    instruction reading a host array reads a copy of it on the device. A
    host array returned from ENTRY where the entry layout does not place
    that output in host memory is an error, as in XLA.
  }];
  let statistics = [
    Statistic<"numHostArrays", "host-arrays",
              "Array positions placed in host memory">,
    Statistic<"numCopies", "copies",
              "Copies between device and host memory inserted">,
  ];
}

def HloHostMemoryTransferAsyncifier
    : Pass<"hlo-host-memory-transfer-asyncifier", "::mlir::ModuleOp"> {
  let summary = "Copies between device and host memory as copy-start / "
                "copy-done (XLA's HostMemoryTransferAsyncifier)";
  let description = [{
    XLA's pass at the end of its "post-layout_assignment" pipeline: a copy
    whose operand and result are in different memory spaces, one of them
    the host's (5), becomes a `copy-start` (destination, source, u32
    context) and its `copy-done`, which the scheduler may move apart so
    the transfer overlaps with kernels.
  }];
  let statistics = [
    Statistic<"numAsync", "asynchronous-copies",
              "Copies made copy-start / copy-done pairs">,
  ];
}

#endif // HLO_TRANSFORMS_HOST_OFFLOAD_PASSES
