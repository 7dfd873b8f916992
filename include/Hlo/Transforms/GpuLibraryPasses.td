//===- GpuLibraryPasses.td - GPU library-call passes -------*- tablegen -*-===//
//
// XLA-GPU's library-call rewrites: dots, convolutions and
// solvers into cuBLAS, cuDNN and cuSOLVER custom calls, their padding and
// algorithm choice, and float normalization for them.
// Registered with the other passes by registerHloPasses() (Passes.h);
// docs/passes.md documents every pass.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSFORMS_GPU_LIBRARY_PASSES
#define HLO_TRANSFORMS_GPU_LIBRARY_PASSES

include "mlir/Pass/PassBase.td"

def HloGemmRewriter : Pass<"hlo-gemm-rewriter", "::mlir::ModuleOp"> {
  let summary = "Rewrite dots into cuBLAS GEMM custom calls, folding alpha, "
                "beta, bias and activations (XLA's GemmRewriter)";
  let description = [{
    A `dot` that is a matrix-matrix or matrix-vector product (one
    contracting dimension per operand, the batch dimensions leading and
    most major in each layout, element types cuBLAS multiplies) becomes a
    `__cublas$lt$matmul` custom call (`__cublas$gemm` with
    `enable-cublaslt=false`) whose `backend_config` carries XLA's
    GemmBackendConfig (alpha, beta, dot dimension numbers, precision,
    epilogue, strides, grad_x/grad_y). Then, consumers are folded in:
    `gemm * broadcast(c)` into alpha; `gemm + C` into beta = 1 with C as
    operand 2 (aliased to the result where XLA aliases it); on cuBLASLt
    `gemm + broadcast(v)` into the BIAS epilogue and `max(gemm,
    broadcast(0))` into RELU / BIAS_RELU. Each custom call finally returns
    XLA's tuple (result, s8[workspace]), read by a get-tuple-element.
    Left alone: vector-vector and tiny dots (XLA's classical emitters),
    dots with an algorithm, fp8 or sparse operands, a rank-2 transpose
    operand, other element types, dynamic shapes, control predecessors and
    fused computations.
  }];
  let options = [
    Option<"enableCublasLt", "enable-cublaslt", "bool", /*default=*/"true",
           "Emit __cublas$lt$matmul (what XLA 0.10.2 emits for Hopper); "
           "false: __cublas$gemm without epilogues">,
    Option<"workspaceBytes", "workspace-bytes", "int64_t",
           /*default=*/"33554432",
           "The s8 workspace of each GEMM (XLA: 32 MiB on Hopper, 4 MiB "
           "before); a __cublas$gemm takes at most its operands' bytes">,
    Option<"sizeThreshold", "size-threshold", "int64_t", /*default=*/"100",
           "Dots with (lhs free + rhs free) * contracting size below this "
           "stay dots (xla_gpu_gemm_rewrite_size_threshold)">,
    Option<"foldBetaMultiply", "fold-beta-multiply", "bool",
           /*default=*/"false",
           "Also fold `gemm + C * broadcast(b)` into beta = b with C as "
           "operand 2 (seed 002's form; XLA keeps the multiply)">,
  ];
  let statistics = [
    Statistic<"numGemms", "gemms", "Dots rewritten into GEMM custom calls">,
    Statistic<"numFolded", "folded", "Multiplies, adds and maximums folded "
              "into GEMMs">,
  ];
}

#endif // HLO_TRANSFORMS_GPU_LIBRARY_PASSES
