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

def HloGemmBroadcastFoldingRewriter
    : Pass<"hlo-gemm-broadcast-folding-rewriter", "::mlir::ModuleOp"> {
  let summary = "Fold a broadcast that only adds the batch dimensions of a "
                "cuBLAS GEMM operand into the GEMM (XLA's "
                "GemmBroadcastFoldingRewriter)";
  let description = [{
    A `__cublas$gemm` or `__cublas$lt$matmul` custom call whose operand 0 or
    1 is a broadcast that adds exactly the GEMM's batch dimensions, in front
    (every kept dimension at or after the added ones and none of them a
    batch dimension), reads the broadcast's operand instead: that operand's
    batch dimensions are dropped from the GemmBackendConfig's dot dimension
    numbers and its contracting dimension moves down by the number of batch
    dimensions (cuBLAS then uses a batch stride of 0). The interpreter's
    GEMM evaluation reads such an unbatched operand once for every batch.
    Left alone: other custom calls, broadcasts that keep a batch dimension
    or add dimensions elsewhere, GEMMs without batch dimensions, fused
    computations.
  }];
  let statistics = [
    Statistic<"numFolded", "folded", "Broadcasts folded into GEMMs">,
  ];
}

def HloCublasPadForGemms : Pass<"hlo-cublas-pad-for-gemms", "::mlir::ModuleOp"> {
  let summary = "Pad the matrices of s8/f16/bf16 dots to the multiples "
                "cuBLAS needs and slice the result (XLA's CublasPadForGemms "
                "as the GPU compiler runs it for H100)";
  let description = [{
    A canonical dot (batch dimensions the leading ones, one row and one
    contracting dimension per operand, the two last dimensions) that cuBLAS
    would run, whose operands are both s8, both f16 or both bf16, has the two
    last dimensions of each operand padded with zeros (high edge) to a
    multiple of 4 (s8) or 8 (f16, bf16); the dot then computes the padded
    product and a slice takes the original result (XLA runs one
    CublasPadForGemms per type, s8 / f16 from Volta and bf16 from Ampere,
    before GemmRewriter; the zero constant, the pads and the slice carry the
    dot's metadata). As in XLA with `xla_gpu_enable_triton_gemm=false`,
    every such dot is padded (XLA leaves a dot Triton would run to Triton).
    Left alone: dots already aligned, matrix-vector and other non-canonical
    dots, other element types (XLA 0.10.2 pads no f8 dot), dots with dynamic
    shapes, an algorithm or sparsity, fused computations.
  }];
  let options = [
    Option<"padS8", "s8-multiple", "int64_t", /*default=*/"4",
           "Multiple s8 dots are padded to (0: none)">,
    Option<"padF16", "f16-multiple", "int64_t", /*default=*/"8",
           "Multiple f16 dots are padded to (0: none)">,
    Option<"padBF16", "bf16-multiple", "int64_t", /*default=*/"8",
           "Multiple bf16 dots are padded to (0: none; XLA pads bf16 from "
           "Ampere on)">,
  ];
  let statistics = [
    Statistic<"numPadded", "padded", "Dots padded">,
  ];
}

def HloFloatNormalization
    : Pass<"hlo-float-normalization", "::mlir::ModuleOp"> {
  let summary = "Compute bf16 instructions the GPU does not support in f32 "
                "(XLA's FloatNormalization with GpuFloatSupport for bf16 on "
                "H100)";
  let description = [{
    An instruction with a bf16 operand or result that XLA's GpuFloatSupport
    does not support in bf16 on Hopper gets each bf16 operand converted to
    f32 (one convert per operand use, as XLA), computes in f32 and its
    result is converted back to bf16. Supported in bf16 (left alone): data
    movement (broadcast, concatenate, copy, dynamic-slice,
    dynamic-update-slice, gather, scatter, pad, reshape, reverse, slice,
    transpose, select, bitcast, bitcast-convert, convert, compare,
    reduce-precision, xor, constant), all-gather, all-to-all,
    collective-permute, all-reduce, reduce-scatter, dot, exponential, log,
    abs, maximum, minimum, negate, add, multiply, subtract, and reduce or
    sort whose computations hold only such instructions; also the
    instructions XLA's FloatSupport treats as neutral (tuple,
    get-tuple-element, parameter, call, while, conditional, custom-call,
    fusion, ...). Left alone as well: instructions that apply a
    computation (reduce, sort, map, scatter, ...) and the computations they
    apply (XLA clones those in f32 where needed), mixed-precision
    instructions of supported opcodes, instructions with a tuple operand or
    result or with control edges, fused computations. Only bf16 (XLA also
    normalizes the f8 types, s4 and u4 the same way).
  }];
  let statistics = [
    Statistic<"numNormalized", "normalized",
              "Instructions moved from bf16 to f32">,
  ];
}

def HloGemmAlgorithmPicker
    : Pass<"hlo-gemm-algorithm-picker", "::mlir::ModuleOp"> {
  let summary = "Set the cuBLAS algorithm of every GEMM custom call from an "
                "autotune results file, or XLA's deviceless default (XLA's "
                "GemmAlgorithmPicker without a GPU)";
  let description = [{
    Every `__cublas$lt$matmul` / `__cublas$gemm` custom call gets
    `selected_algorithm` (first member of its GemmBackendConfig) and
    `autotune_workspace_size`, and its s8 workspace the size XLA gives it.
    With `autotune-cache=FILE`, FILE is XLA's autotune results text proto
    (what `--xla_gpu_dump_autotune_results_to` writes: `version`, then
    `results { device hlo result { ... gemm { algorithm } } }`); a GEMM
    takes the algorithm of the entry whose `hlo` is the same custom call
    (same target, operand shapes, result, and backend_config JSON apart
    from the tuning members; with `device` set, only entries of that
    device). A GEMM with no entry, and every GEMM without a file, gets what
    XLA 0.10.2's deviceless compile writes: algorithm 0 and a 4 MiB
    workspace (`workspace-bytes`). An unreadable or malformed file is an
    error and the pass fails.
  }];
  let options = [
    Option<"autotuneCache", "autotune-cache", "std::string",
           /*default=*/"\"\"",
           "XLA autotune results (text proto) to read algorithms from">,
    Option<"device", "device", "std::string", /*default=*/"\"\"",
           "Only use cache entries of this device string (empty: any)">,
    Option<"workspaceBytes", "workspace-bytes", "int64_t",
           /*default=*/"4194304",
           "Workspace of a tuned GEMM (XLA 0.10.2 deviceless: 4 MiB); a "
           "GEMM's workspace never grows">,
  ];
  let statistics = [
    Statistic<"numFromCache", "from-cache", "GEMMs tuned from the cache">,
    Statistic<"numDefault", "default", "GEMMs given the default algorithm">,
  ];
}

#endif // HLO_TRANSFORMS_GPU_LIBRARY_PASSES
