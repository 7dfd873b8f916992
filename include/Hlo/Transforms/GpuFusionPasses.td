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
    Statistic<"numFusions", "fusions", "Fusion instructions created">,
    Statistic<"numFusedProducers", "fused-producers",
              "Producer-into-consumer fusions (duplicates counted)">,
    Statistic<"numPriorityUpdates", "priority-updates",
              "Priorities computed">,
  ];
}

#endif // HLO_TRANSFORMS_GPU_FUSION_PASSES
