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

def HloGpuConvRewriter : Pass<"hlo-gpu-conv-rewriter", "::mlir::ModuleOp"> {
  let summary = "Rewrite convolutions into cuDNN custom calls (XLA's "
                "ConvRewriter)";
  let description = [{
    Every `convolution` of a non-fused computation that cuDNN runs becomes a
    custom call returning XLA's tuple (result, u8[0] scratch), read by a
    get-tuple-element (XLA's ConvRewriter, run in the conv-canonicalization
    pipeline of seed 002's table 1):
      - `__cudnn$convBackwardInput` (named `cudnn-conv-bw-input`): a
        stride-1 convolution without window dilation whose kernel is a
        `reverse` of all its spatial dimensions (or, with base dilation, a
        1x1 or constant kernel). The custom call reads the unreversed kernel,
        its window has the base dilation as stride and the low padding
        K - 1 - pad_low, and its dim_labels swap input and output and the
        kernel's feature dimensions, as XLA's;
      - `__cudnn$convBackwardFilter` (`cudnn-conv-bw-filter`): a convolution
        that does not look like a forward one (batch or output features do
        not match, or a kernel larger than the output in more than one
        spatial dimension, or window dilation), stride 1, no base dilation:
        window size = output size, stride = window dilation, and the
        activations' batch and feature dimensions swapped in dim_labels; a
        batch_group_count becomes the feature_group_count;
      - `__cudnn$convForward` (`cudnn-conv`): any other convolution with at
        most 3 spatial dimensions, non-empty operands and no window reversal
        (or all of them for 2-D); a batch_group_count > 1 is first turned
        into a feature-grouped convolution (reshape, transpose, reshape of
        the input), as XLA does.
    The backend_config is XLA's GpuBackendConfig with a
    cudnn_conv_backend_config (activation kNone, conv_result_scale 1,
    side_input_scale 0, leakyrelu_alpha 0); window, dim_labels,
    feature_group_count, operand precision and metadata are kept. Left
    alone: element types other than floats and integers (XLA refuses
    them), fp8 other than f8e4m3fn/f8e5m2, dynamic shapes, convolutions with
    control predecessors or that are one, fused computations, grouped
    backward-input patterns (XLA keeps them forward) and patterns whose
    backward padding would be negative (XLA falls back to a forward conv).
  }];
  let statistics = [
    Statistic<"numForward", "forward", "Convolutions rewritten into "
              "__cudnn$convForward">,
    Statistic<"numBackwardInput", "backward-input", "Convolutions rewritten "
              "into __cudnn$convBackwardInput">,
    Statistic<"numBackwardFilter", "backward-filter", "Convolutions "
              "rewritten into __cudnn$convBackwardFilter">,
  ];
}

def HloCudnnFusedConvRewriter
    : Pass<"hlo-cudnn-fused-conv-rewriter", "::mlir::ModuleOp"> {
  let summary = "Fuse scale, bias, side input and relu into cuDNN forward "
                "convolutions (XLA's CudnnFusedConvRewriter)";
  let description = [{
    Folds the elementwise consumers of a `__cudnn$convForward` (or an
    already fused) custom call into `__cudnn$convBiasActivationForward`
    (named `cudnn-conv-bias-activation`), with operands (input, filter,
    bias[, side input]) and the result
      act(conv_result_scale * conv(input, filter)
          + side_input_scale * side_input + bias),
    in XLA's order of rewrites: `gte * broadcast(constant c)` sets
    conv_result_scale (the conv first becomes a bias-activation conv with a
    zero bias `broadcast(0)` over the output features); `gte + broadcast(v)`
    along the output feature dimension (or of a scalar) replaces a zero
    bias; any other addend becomes the side input with side_input_scale 1
    (twice, so both are taken); `side_input = x * broadcast(c)` (through
    reshapes and transposes) sets side_input_scale = c; `max(gte,
    broadcast(0))` sets activation_mode kRelu; `convert<f16>(gte)` of an f32
    conv whose operands all hold f16 values becomes an f16 conv on converts
    of its operands. The get-tuple-element and the
    conv must each have one user. Left alone: depthwise convolutions
    (feature_group_count = input features), convs that already have an
    activation (for bias and side input), scales that are not scalar
    constants, convs with control edges, fused computations; fp8 graph
    convolutions, int8 convert fusions and the
    runtime-fusion activations (elu, relu6, leaky relu: XLA's
    xla_gpu_use_runtime_fusion is off by default) are not done.
  }];
  let statistics = [
    Statistic<"numFused", "fused", "Consumers folded into cuDNN convolutions">,
  ];
}

def HloCudnnPadForConvolutions
    : Pass<"hlo-cudnn-pad-for-convolutions", "::mlir::ModuleOp"> {
  let summary = "Pad cuDNN convolutions' features for IMMA and tensor cores "
                "(XLA's CudnnPadForConvolutions)";
  let description = [{
    XLA's two padding rules, over the cuDNN convolution custom calls with
    static shapes, no feature or batch groups, an empty scratch buffer and
    no control edges, in XLA's order:

      * integer convolutions (XLA's
        TryResolvePaddedShapesForIntegerConvolution): a forward or
        bias-activation conv with integer input and filter, two spatial
        dimensions and no dilation has its input features (of the input and
        the filter), the filter's output features, the result's features,
        the bias and the side input's features padded up to multiples of 32
        (int8x32: the selected GPU (`--hlo-gpu-device`) at sm_75 or later,
        an integer result, each spatial input extent larger than the
        filter's reach), else of 4 (int8x4, sm_61 or later), unless the
        input or the result would double in size;
      * f16 convolutions for tensor cores (XLA's
        TryResolvePaddedShapesForTensorCore, sm_70 or later): forward and
        backward convs with an f16 result (not bias-activation ones): with 3
        input features and 32 or 64 output features, the input features (of
        the input and the filter) are padded to 4 (cuDNN has an algorithm
        for that case); otherwise the input features of the input and the
        filter and the output features of the filter and the output are
        padded up to multiples of 8, unless that makes the lhs, the rhs or
        the result more than 1.35 times larger. The tensors take the roles
        of the forward convolution (backward input: the result is the
        input, the lhs the output; backward filter: the result is the
        filter).

    Operands are padded with zeros at the high end (`pad`); a result that
    grew is read back through a `slice`, as `tuple(slice, u8[0] constant)`.
    Left alone: graph convolutions, grouped convolutions (XLA's integer
    rule does not look at groups; padding a grouped conv's features would
    change its groups), convolutions already vectorized (NCHW_VECT_C),
    dynamic shapes, fused computations.
  }];
  let statistics = [
    Statistic<"numPadded", "padded", "Convolutions padded">,
  ];
}

def HloCudnnSimplifyPadding
    : Pass<"hlo-cudnn-simplify-padding", "::mlir::ModuleOp"> {
  let summary = "Fold a slice of a padded conv's result into the next pad "
                "(XLA's CudnnSimplifyPadding)";
  let description = [{
    After `hlo-cudnn-pad-for-convolutions`, a conv whose output features
    were padded is read through a `slice` of its result; when the next conv
    pads its input features again, the module holds
    `pad(slice(get-tuple-element(conv, 0)), 0)`. When the features the
    slice cuts (the high end of the output feature dimension, nothing else)
    are known to be zero, the slice folds into the pad, whose high padding
    of that dimension shrinks by as much (a pad left doing nothing goes in
    the next algebraic simplifier). Known zero trailing output features, as
    in XLA: a filter that is a `pad` with zero (its high padding of the
    kernel output features) or a constant (its trailing all-zero output
    features). Beyond XLA, a bias-activation conv also needs its bias and
    side input zero there (a zero pad or broadcast) and an activation that
    keeps 0 (not kSigmoid), so that the fold is always exact. Left alone:
    vectorized (NCHW_VECT_C) convolutions, pads with interior padding of the
    feature dimension, instructions with control edges, fused computations.
  }];
  let statistics = [
    Statistic<"numSimplified", "simplified", "Slices folded into pads">,
  ];
}

def HloGpuConvPaddingLegalization
    : Pass<"hlo-gpu-conv-padding-legalization", "::mlir::ModuleOp"> {
  let summary = "Make cuDNN convolution padding symmetric and non-negative "
                "(XLA's ConvPaddingLegalization)";
  let description = [{
    cuDNN takes one padding per spatial dimension on both sides and no base
    dilation. For the cuDNN custom calls (XLA's ConvPaddingLegalization):
      - forward (and bias-activation) convs with base dilation or
        asymmetric padding: an explicit `pad` of the input (zero of its
        type) takes all positive padding and the base dilation (interior
        padding), leaving none in the window; negative padding becomes a
        `slice` of the input; window dilation stays (cuDNN dilates the
        kernel itself; XLA 0.10.2 keeps it), or, with
        `pad-dilated-kernels`, becomes interior padding of the kernel (a
        `pad`), the window size the padded kernel's (older XLA's form);
      - backward-filter convs with asymmetric, non-negative padding: the
        activations are padded by the difference, the window keeps the
        smaller padding on both sides;
      - backward-input convs with asymmetric, non-negative padding: the
        window keeps the smaller padding on both sides, so the custom call
        computes a larger result, which a `slice` cuts back; the call is
        then read through `tuple(slice, get-tuple-element(call, 1))`, as
        XLA writes it.
    Left alone: convs already legal, other custom calls, dynamic shapes,
    custom calls with control edges, fused computations.
  }];
  let options = [
    Option<"padDilatedKernels", "pad-dilated-kernels", "bool",
           /*default=*/"false",
           "Also turn window dilation of forward convs into an explicit pad "
           "of the kernel (older XLA; 0.10.2 leaves it to cuDNN)">,
  ];
  let statistics = [
    Statistic<"numLegalized", "legalized", "cuDNN convolutions whose "
              "padding was made legal">,
  ];
}

def HloConvAlgorithmPicker
    : Pass<"hlo-conv-algorithm-picker", "::mlir::ModuleOp"> {
  let summary = "Set the cuDNN algorithm and scratch size of each "
                "convolution custom call (XLA's GpuConvAlgorithmPicker, "
                "without a GPU)";
  let description = [{
    Seed 002's GpuConvAlgorithmPicker picks the fastest cuDNN algorithm for
    every `__cudnn$conv*` custom call by running them; here, without a GPU,
    the choice comes from XLA's autotune results: with `autotune-cache=FILE`
    (the textproto XLA writes with --xla_gpu_dump_autotune_results_to, an
    AutotuneResults message, `results { device hlo result { scratch_bytes
    algorithm { algo_id math_type tuning_knobs is_cudnn_frontend
    workspace_size } } }`), a custom call whose canonical HLO text equals an
    entry's `hlo` gets that algorithm in its cudnn_conv_backend_config and
    its scratch tuple element resized to `scratch_bytes`. Without a cache
    (or for a custom call the cache does not have) it records what XLA's
    deviceless compile records: algorithm {algo_id -1, DEFAULT_MATH, no
    knobs, not frontend} and the u8[0] scratch. An unreadable or malformed
    cache file is an error (the pass fails). Left alone: custom calls that
    already have an algorithm, non-cuDNN custom calls, custom calls whose
    backend_config is not a typed GpuBackendConfig.
  }];
  let options = [
    Option<"autotuneCache", "autotune-cache", "std::string", /*default=*/"",
           "XLA's autotune results textproto "
           "(--xla_gpu_dump_autotune_results_to); empty: no cache">,
    Option<"requireCacheHit", "require-cache-hit", "bool", /*default=*/"false",
           "Fail when a convolution is not in the cache "
           "(xla_gpu_require_complete_aot_autotune_results)">,
  ];
  let statistics = [
    Statistic<"numFromCache", "from-cache", "Algorithms read from the cache">,
    Statistic<"numDefault", "default", "Convolutions given the default "
              "algorithm">,
  ];
}

def HloGpusolverRewriter : Pass<"hlo-gpusolver-rewriter", "::mlir::ModuleOp"> {
  let summary = "Rewrite cholesky into cuSOLVER potrf custom calls (XLA's "
                "GpusolverRewriter)";
  let description = [{
    Every `cholesky` of a non-fused computation becomes XLA's
    `__cusolver$cholesky` custom call on the operand, its backend_config
    CholeskyOptions (`{"lower":...}`), its operand layout constrained to the
    Fortran (column-major minor) layout, and result the tuple (a with that
    layout, workspace of the element type, s32[batch...] info), followed by
    XLA's check: `select(broadcast(info == 0), gte(0), broadcast(NaN))`.
    The workspace size, which XLA asks cuSOLVER's potrf buffer size for,
    is the option `workspace-elements`. Left alone: dynamic shapes,
    cholesky with control edges, fused computations. XLA 0.10.2 on H100
    expands cholesky before this pass runs (CholeskyExpander), so its
    optimized HLO has no cuSOLVER call; this is the rewriter of seed 002's
    conv-canonicalization pipeline. Ours, too: XLA's client library's
    `Eigh` call (PyTorch/XLA's and TF's eigh; XLA's EighExpander expands it
    into Jacobi sweeps) becomes JAX's `cusolver_syevd_ffi` call (its
    operand in the Fortran layout, typed-FFI `{algorithm = 0 : ui8, lower
    = ...}`), whose (v, w) replace the call's: eigenvalues ascending, as
    `Eigh` gives them with sort_eigenvalues (also when it is 0, where
    XLA's order is its sweeps'); eigenvectors, unique up to sign, as
    cuSOLVER chooses them.
  }];
  let options = [
    Option<"workspaceElements", "workspace-elements", "int64_t",
           /*default=*/"0",
           "Elements of the potrf workspace (cuSOLVER's potrf buffer size, "
           "known only on a device)">,
  ];
  let statistics = [
    Statistic<"numCholesky", "cholesky", "Cholesky rewritten into cuSOLVER "
              "calls">,
    Statistic<"numEigh", "eigh", "Eigh calls rewritten into cuSOLVER "
              "syevd calls">,
  ];
}

def HloTopkSplitter : Pass<"hlo-topk-splitter", "::mlir::ModuleOp"> {
  let summary = "Long TopK rows as several rows and a sort of their "
                "candidates (XLA-GPU's TopKSplitter)";
  let description = [{
    A `TopK` call of one row of n elements (`[n]` or `[1, n]`), n at least
    `split-threshold` and a multiple of 1024, k at most sqrt(n), becomes a
    TopK call of B rows of n / B elements (B = min(2^floor(log2(n /
    split-threshold)), 1024)), its indices moved by each row's start, and a
    stable sort of the B x k candidates by the call's comparator (given two
    index parameters it ignores when it has none) whose first k are the
    result: hlo-topk-specializer's kernel then runs B blocks where it ran
    one. Left alone: calls with control edges, and rows that would stay
    one row (XLA splits a row of exactly the threshold into one).
  }];
  let options = [
    Option<"splitThreshold", "split-threshold", "int64_t",
           /*default=*/"1048576",
           "Rows of fewer elements are left whole (XLA's default: 1M)">,
  ];
  let statistics = [
    Statistic<"numSplit", "split", "TopK calls split into rows">,
  ];
}

def HloTopkSpecializer : Pass<"hlo-topk-specializer", "::mlir::ModuleOp"> {
  let summary = "TopK custom calls as XLA-GPU's top-k kernel (XLA's "
                "TopkSpecializer)";
  let description = [{
    A `TopK` custom call (hlo-topk-rewriter's) of f32 or bf16 values of
    shape [n] or [batch, n] with k <= 16 and n >= 1024 (XLA's limits of its
    kernel) gets target `__gpu$TopK` and the typed FFI API version: one
    kernel per call (hlo-to-gpu's top-k emitter: a block per row, each
    thread keeping the best k of its elements, merged across the warp by
    shuffles and across the block through shared memory). Other TopK calls
    are left to hlo-topk-decomposer.
  }];
  let statistics = [
    Statistic<"numSpecialized", "specialized", "TopK calls made top-k "
              "kernels">,
  ];
}

def HloSortRewriter : Pass<"hlo-sort-rewriter", "::mlir::ModuleOp"> {
  let summary = "Sorts as CUB radix sort custom calls (XLA-GPU's "
                "SortRewriter)";
  let description = [{
    A sort of one array (keys) or two (keys and values) along its last
    dimension whose comparator compares the two parameters of one operand
    (`lt`/`le` ascending, `gt`/`ge` descending, as they come or swapped)
    becomes XLA 0.10.2's custom call
    `xla.gpu.ext.cub_sort_unassigned_scratch_size` returning (keys,
    [values,] u8[1] scratch), backend_config XLA's SortOptions
    (`{"descending":...}`), read back by get-tuple-elements (a tuple for
    pairs); hlo-estimate-cub-sort-scratch-size sizes the scratch later.
    Comparators of JAX's NumPy order (each parameter with -0 made +0 and
    NaNs one NaN before `compare ... type=TOTALORDER`) of an f16, bf16, f32
    or f64 array sort synthetic unsigned keys (XLA's: the canonicalized
    float's bits, all flipped for negative values, else the sign bit) with
    the array as values; JAX's argsort (the same keys with an s32 iota
    along the sort dimension, keys of at most 32 bits) sorts them with
    u64 values packing the float's bits over the index, unpacked after the
    call, as XLA 0.10.2 does. Which sorts: with `mode=auto` XLA's
    measured thresholds for Hopper and Blackwell (the H100 table) and
    Ampere, by the element width of the first operand, the rows and their
    length (`--hlo-gpu-device`'s compute capability and SM count), else
    more than 16384 elements; `mode=always` every sort that fits (XLA's
    kAlways). Sorts with control edges, and stable sorts of floats by a
    compare that is not TOTALORDER (it ties -0 and +0, CUB puts -0 first),
    are left alone. Linear.
  }];
  let options = [
    Option<"mode", "mode", "std::string", /*default=*/"\"auto\"",
           "Which sorts that fit become CUB calls: auto (XLA's measured "
           "thresholds for the selected GPU) or always">,
  ];
  let statistics = [
    Statistic<"numRewritten", "rewritten", "sorts made CUB sort calls">,
  ];
}

def HloEstimateCubSortScratchSize
    : Pass<"hlo-estimate-cub-sort-scratch-size", "::mlir::ModuleOp"> {
  let summary = "Size the scratch of CUB sort calls without a device "
                "(XLA-GPU's DevicelessEstimateCubSortScratchSize)";
  let description = [{
    Every `xla.gpu.ext.cub_sort_unassigned_scratch_size` call (of
    hlo-sort-rewriter) gets a scratch of the bytes CUB's radix sort asks
    for at most, without a device (XLA reads a table measured on its
    GPUs; here a bound: a second buffer for the keys and one for the
    values, CUB's onesweep histograms and lookback state of 1 KiB per 1024
    elements, for batches CUB's segmented sort with the rows' offsets), and
    becomes XLA 0.10.2's typed-FFI handler `xla.gpu.ext.cub_sort_keys` or
    `xla.gpu.ext.cub_sort_pairs` with backend_config
    `{descending = ..., batch_size = rows : i64}`. The CUDA runtime checks
    the bound against CUB's own query and fails clearly where it is short.
    Linear.
  }];
  let statistics = [
    Statistic<"numSized", "sized", "CUB sort calls sized">,
  ];
}

def HloTriangularSolveRewriter
    : Pass<"hlo-triangular-solve-rewriter", "::mlir::ModuleOp"> {
  let summary = "Rewrite triangular-solve into cuBLAS trsm custom calls "
                "(XLA's TriangularSolveRewriter)";
  let description = [{
    Every `triangular-solve` of a non-fused computation becomes XLA's
    `__cublas$triangularSolve` custom call on the same operands, its
    backend_config XLA's TriangularSolveOptions (`left_side`, `lower`,
    `unit_diagonal`, `transpose_a`), its result the tuple (the solution,
    `s8[temp]` scratch), followed by a get-tuple-element of the solution.
    The scratch holds the two arrays of matrix pointers cuBLAS's batched
    trsm reads: 16 bytes per matrix when there is more than one, else
    none. XLA runs it after the post-layout-assignment passes ("nvptx
    post-layout_assignment part 2"), when layout assignment has given the
    operands and the result the Fortran layout cuBLAS reads. Left alone:
    dynamic shapes, instructions with control edges (hlo-to-thunk takes
    those as they are), fused computations.

    ```
    x = f32[3,4]{0,1} triangular-solve(a, b), lower=true,
        transpose_a=NO_TRANSPOSE
    ```
    becomes
    ```
    ts = (f32[3,4]{0,1}, s8[0]{0}) custom-call(a, b),
         custom_call_target="__cublas$triangularSolve",
         backend_config={"left_side":false,"lower":true,
                         "unit_diagonal":false,"transpose_a":"NO_TRANSPOSE"}
    x = f32[3,4]{0,1} get-tuple-element(ts), index=0
    ```
  }];
  let statistics = [
    Statistic<"numRewritten", "rewritten", "Triangular solves rewritten into "
              "cuBLAS calls">,
  ];
}

def HloDotStrengthReduction
    : Pass<"hlo-dot-strength-reduction", "::mlir::ModuleOp"> {
  let summary = "Rewrite vector dots as a reduce of a multiply (XLA-GPU's "
                "DotStrengthReduction)";
  let description = [{
    XLA-GPU's DotStrengthReduction (an op expander that XLA 0.10.2 runs first
    in its `simplification` pipeline, before the algebraic simplifier). A
    dot of a non-fused computation is rewritten when
      - both operands are vectors (only batch and contracting dimensions):
        always;
      - one operand is a vector, or the dot is an s32 x s32 -> s32 dot whose
        rhs contracts exactly its dimension 1: when the matrix product is
        small, (lhs non-contracting size + rhs non-contracting size) *
        contracting size < `size-threshold` (XLA's
        IsMatrixMultiplicationTooSmallForRewriting with 10^7), or when
        Triton's legacy GEMM emitter could not take it on an H100
        (legacy_triton::CanTritonHandleGEMM: non-default operand precision,
        a result type other than f16/bf16/f32/f8e5m2/f8e4m3fn/s32, an
        operand type outside those and pred/s8/s16/s32, an s32 result of
        operands that are not 8-bit integers, or more than one batch
        dimension).
    The rewrite: each operand is converted to the result's element type and
    transposed to (batch, non-contracting, contracting) order; the lhs is
    broadcast with the rhs's non-contracting dimensions after its own, the
    rhs with the lhs's before its own, so both are (batch, lhs
    non-contracting, rhs non-contracting, contracting); they are multiplied,
    converted to the accumulator type (f32 for f16 and bf16 results, the
    result type otherwise: XLA's GetGemmAccumulatorType), added up over the
    contracting dimensions by a reduce with a new scalar add computation,
    and converted back to the result type. Instructions that would change
    nothing (identity transposes, converts to the same type, broadcasts
    adding no dimension, a reduce of no dimension) are not created.
    Left alone: dots with a dot algorithm (XLA multiplies those the
    algorithm's way), sparse dots, dots with dynamic shapes, control
    predecessors or successors, complex or pred elements, and fused
    computations.
  }];
  let options = [
    Option<"sizeThreshold", "size-threshold", "int64_t", /*default=*/"10000000",
           "Vector-matrix dots with (lhs free + rhs free) * contracting size "
           "below this are rewritten (XLA's threshold 10000000)">,
  ];
  let statistics = [
    Statistic<"numReduced", "reduced", "Dots rewritten as reduces">,
  ];
}

def HloBlockScalingRewriter
    : Pass<"hlo-block-scaling-rewriter", "::mlir::ModuleOp"> {
  let summary = "Expand the block-scaled quantization custom calls into HLO "
                "(XLA-GPU's BlockScalingRewriter)";
  let description = [{
    JAX's block-scaled formats (`jax.nn.scaled_matmul`: MXFP8, f8e4m3fn or
    f8e5m2 values with one f8e8m0fnu scale per 32 along the last
    dimension; NVFP4, f4e2m1fn values with f8e4m3fn scales per 16) come as
    custom calls, which become the instructions computing them:
    `__op$dequantize(x, s)` is `convert(x) * reshape(broadcast(convert(s)))`,
    the scale repeated over its block; `__op$quantize(x)` the tuple of
    `convert(x / s)` and the scales `s = convert(amax / 2^emax)` (amax the
    largest magnitude of each block, a reduce; 2^emax the largest power of
    two of the quantized format); `__op$block_scaled_dot(lhs, rhs,
    lhs_scale[, rhs_scale[, global_scale]])` the dot of the dequantized
    operands contracting their last dimensions (the first a batch
    dimension at rank 3), times the global scale. The block size is the
    ratio of an operand's last dimension to its scale's, or
    `block_scaled_dot_backend_config.block_size`, with which padded scales
    are sliced first. Where XLA calls a computation holding the expansion,
    the instructions take the custom call's place. A call whose shapes do
    not fit fails the pass, as it fails XLA's; after layout assignment its
    operands must have the default layout. XLA's cuDNN block-scaled dot
    (Blackwell) is not made. Runs first in `hlo-post-layout-assignment`, as
    in XLA 0.10.2.
  }];
  let statistics = [
    Statistic<"numExpanded", "expanded", "Custom calls expanded">,
  ];
}

def HloCudnnCustomCallConverter
    : Pass<"hlo-cudnn-custom-call-converter", "::mlir::ModuleOp"> {
  let summary = "JAX's __cudnn$fusion custom calls as kCustom fusions "
                "(XLA-GPU's CuDnnCustomCallConverter)";
  let description = [{
    A `custom-call(...), custom_call_target="__cudnn$fusion",
    called_computations={comp}` (JAX's `cudnn_fusion`) becomes
    `fusion(...), kind=kCustom` of a copy of `comp` with the backend config
    `fusion_backend_config.kind = "__cudnn$fusion"`, as XLA's first GPU
    pass makes it; `comp` is erased when nothing else names it. No cuDNN
    fusion emitter is here: `hlo-gpu-optimize` runs this pass first and
    `hlo-custom-fusion-inliner` next, which inlines such fusions. Left
    alone: calls that do not name one computation, or with control edges.
  }];
  let statistics = [
    Statistic<"numConverted", "converted", "Custom calls made fusions">,
  ];
}

def HloTransformerEngineSoftmaxExpander
    : Pass<"hlo-transformer-engine-softmax-expander", "::mlir::ModuleOp"> {
  let summary = "Transformer Engine's scaled softmax FFI calls as HLO (ours)";
  let description = [{
    NVIDIA Transformer Engine's JAX extension lowers its fused softmax to
    `custom-call(x), custom_call_target="te_scaled_softmax_forward_ffi"`
    with `backend_config={scale_factor = s : f64}`, which XLA runs through
    the FFI handler TE's library registers. No such library is here: the
    call becomes the HLO of what it computes, softmax(s * x) over the last
    dimension in f32 (convert, multiply, the row maximum, exp of the
    difference, the row sum, divide, convert back), which the GPU pipeline
    fuses as any softmax. `hlo-gpu-optimize` runs it first. Calls that do
    not verify never reach it; TE's masked and backward softmax calls are
    left alone (not yet here).
  }];
  let statistics = [
    Statistic<"numExpanded", "expanded", "TE softmax calls expanded">,
  ];
}

def HloCompositeRewriter : Pass<"hlo-composite-rewriter", "::mlir::ModuleOp"> {
  let summary = "JAX's xla.scaled_dot composite calls as scaled-dot "
                "(XLA-GPU's CompositeRewriter)";
  let description = [{
    A `call(lhs, rhs, lhs_scale, rhs_scale), is_composite=true` whose
    frontend attributes name `composite.name="xla.scaled_dot"` (JAX's
    `lax.scaled_dot`) becomes `scaled-dot(lhs, rhs, lhs_scale, rhs_scale)`
    with the dimension numbers of its `composite.attributes` (an MLIR
    dictionary: `dimension_numbers = [[[lhs_contracting], [rhs_contracting]],
    [[lhs_batch], [rhs_batch]]]`) and the call's result type; the
    decomposition it called is erased. Taken where XLA 0.10.2 takes it: one
    contracting and at most one batch dimension a side, each side
    f8e4m3fn, f8e5m2 or f4e2m1fn values with f8e8m0fnu scales whose block
    along the contracting dimension is a multiple of 32, or bf16 values
    with a bf16 constant scale of ones of all-1 dimensions; also scales of
    their operand's rank whose dimensions divide the operand's, and no
    control edges. A composite without `composite.attributes`, with
    dimension numbers of another form, or whose dimension numbers do not
    give its result's shape fails the pass (XLA's compile fails on them).
    First in `hlo-optimization`, as in XLA 0.10.2's "pre-spmd-partitioner".
  }];
  let statistics = [
    Statistic<"numRewritten", "rewritten", "Composite calls made scaled-dots">,
  ];
}

def HloAlgorithmChecker : Pass<"hlo-algorithm-checker", "::mlir::ModuleOp"> {
  let summary = "Reject dots whose algorithm the selected GPU cannot run "
                "(XLA-GPU's AlgorithmChecker)";
  let description = [{
    A `dot` with an `algorithm` (XLA's PrecisionConfig.Algorithm) must
    have two operands of one element type, and the algorithm must be one
    the selected GPU (`--hlo-gpu-device`) runs on those storage types, as
    XLA's IsSupportedDotAlgorithmOnGpu says: `dot_any_f8_any_f8_f32[_fast_
    accum]` from Ada on for f8e4m3fn/f8e5m2 operands and an f8, f16, bf16
    or f32 result; `dot_f16_f16_f32` for f16 operands and an f16 or f32
    result; `dot_bf16_bf16_f32` from Ampere on for bf16 (bf16 or f32
    result) or f32 (f32 result) operands; the `_x3`, `_x6`, `_x9` and
    TF32 algorithms from Ampere on for f32 operands and results;
    `dot_f32_f32_f32` for f32, `dot_f64_f64_f64` for f64. Any other dot
    with an algorithm fails the pass with XLA's message ("Unsupported
    algorithm on the current device(s): ALG_DOT_...") at the dot. Changes
    nothing. Fused computations are not looked at. Runs in
    `hlo-post-layout-assignment` after `hlo-reduce-decomposer`, as in
    XLA 0.10.2.
  }];
}

def HloDotAlgorithmRewriter
    : Pass<"hlo-dot-algorithm-rewriter", "::mlir::ModuleOp"> {
  let summary = "Split the multi-pass dot algorithms into bf16 or TF32 "
                "dots (XLA-GPU's DotAlgorithmRewriter)";
  let description = [{
    An f32 `dot` whose algorithm asks for several passes of a narrower
    multiplication becomes those passes, as XLA's DotAlgorithmRewriter
    writes them: each operand x is split into a high part `hi =
    bitcast(bitcast(x) & mask)` (the leading bits kept: 0xFFFF0000 for
    bf16, 0xFFFFE000 for TF32) and the remainders below it;
    `dot_bf16_bf16_f32_x3` sums the dots lo*hi, hi*lo and then hi*hi of
    the parts converted to bf16 (two parts), `_x6` mid*mid, hi*lo, lo*hi,
    hi*mid, mid*hi, hi*hi and `_x9` all nine products (three parts, the
    smallest first), each a `dot_bf16_bf16_f32` dot; `dot_tf32_tf32_f32_x3`
    sums lo*hi, hi*lo, hi*hi as `dot_tf32_tf32_f32` dots of f32 parts.
    Before the last term, the sum of the small terms is replaced by 0
    where it is not finite (an infinite operand's low part is NaN), so
    that hi*hi alone decides an infinite or NaN result. The new dots keep
    the original's dimension numbers and operand precision; the GEMM
    rewriter makes cuBLAS calls of them. Dots of other element types and
    fused computations are left alone. Runs in `hlo-post-layout-assignment`
    just before `hlo-gemm-rewriter`, as in XLA 0.10.2.
  }];
  let statistics = [
    Statistic<"numRewritten", "rewritten", "Dots split into narrower dots">,
  ];
}

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
    From Ada on (the selected GPU), a dot of fp8 operands, or of their
    dequantized values (`convert(fp8)`, times or divided by a broadcast
    scalar scale, then bitcasts, copies, reshapes, transposes, slices or
    broadcasts), becomes cuBLASLt's `__cublas$lt$matmul$f8` (A, B,
    a_scale, b_scale): the operands transposed to contracting-minor
    before Blackwell and padded to multiples of 16; a wide result's scale
    folds into a_scale, `convert(clamp(-max, x, max))` to e4m3fn or e5m2
    into the fp8 result with d_scale, an amax reduction of the result into
    its second result (damax_output). Other dots of an fp8 lhs compute in
    f16 (XLA's TurnF8DotIntoF16Dot).
    A dot's algorithm carries over to the call's precision_config, but
    `dot_bf16_bf16_f32`, whose f32 operands are converted to bf16 first
    (XLA's converts); a dot with an algorithm the classical emitters do
    not implement (all but `dot_f32_f32_f32`) becomes a GEMM however small.
    Left alone: vector-vector and tiny dots (XLA's classical emitters),
    dots with an fp8 or a multi-pass algorithm (`hlo-dot-algorithm-
    rewriter` splits the latter first) or sparse operands, a rank-2 transpose operand,
    other element types, dynamic shapes, control predecessors and fused
    computations.
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
  let summary = "Compute instructions of narrow types the GPU does not "
                "support in a wider type (XLA's FloatNormalization passes "
                "with GpuFloatSupport on H100)";
  let description = [{
    XLA-GPU's "float_normalization" pipeline: for each narrow type in XLA
    0.10.2's order (bf16 -> f32; f8e5m2, f8e4m3, f8e4m3fn, f8e4m3b11fnuz,
    f8e5m2fnuz, f8e4m3fnuz, f8e3m4 -> f16; s4 -> s8; u4 -> u8; f4e2m1fn ->
    f16; f8e8m0fnu -> f32), an instruction with an operand or result of
    that type that XLA's GpuFloatSupport does not support in it on Hopper
    gets each such operand converted to the wide type (one convert per
    operand use, as XLA), computes in it and its result is converted back.
    Supported in every narrow type (left alone): data movement (broadcast,
    concatenate, copy, dynamic-slice, dynamic-update-slice, gather,
    scatter, pad, reshape, reverse, slice, transpose, select), bitcast,
    bitcast-convert, convert, compare, reduce-precision, xor, constant and
    the collectives; dots in bf16, f8e4m3fn and f8e5m2; exponential, log,
    abs, maximum, minimum, negate, add, multiply, subtract in bf16 only.
    Also left alone: the instructions XLA's FloatSupport treats as neutral
    (tuple, get-tuple-element, parameter, call, while, conditional,
    custom-call, fusion, ...), instructions that apply a computation
    (reduce, sort, map, scatter, ...) and the computations they apply (XLA
    clones those in the wide type where needed), mixed-precision
    instructions of supported opcodes, instructions with a tuple operand
    or result or with control edges, fused computations.
  }];
  let statistics = [
    Statistic<"numNormalized", "normalized",
              "Instructions moved to a wider type">,
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
