//===- ThunkOps.td - thunk dialect operations ---------------*- tablegen -*-===//
//
// Allocations, slices and the thunks of a compiled HLO program
// (ThunkBase.td, docs/thunk.md).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_THUNK_THUNKOPS_TD
#define HLO_DIALECT_THUNK_THUNKOPS_TD

include "Hlo/Dialect/Thunk/ThunkBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

// A slice: a static-shaped memref over bytes of an allocation.
def Thunk_Slice : StaticShapeMemRefOf<[AnyInteger, AnyFloat, AnyComplex]>;

// The thunks a region of a program, a loop or a branch may hold.
def Thunk_Sequence : Region<CPred<"::llvm::hasSingleElement($_self)">,
                            "a sequence of thunks">;

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Thunk_AllocationOp : Thunk_Op<"allocation", [Symbol]> {
  let summary = "one allocation of the buffer assignment";
  let description = [{
    `size` bytes of device memory aligned to `alignment` (XLA's
    BufferAllocation). Kinds: `parameter` (the buffer of ENTRY parameter
    `parameter`, at shape index `parameter_index` of it, owned by the
    caller), `constant` (holds `value`, laid out as the runtime stores an
    array: elements in the order given, each in its storage bytes),
    `output` (holds the program's result, or part of it) and `temp`
    (scratch, contents undefined on entry). `maybe_live_out` marks a
    parameter allocation that an output aliases (the program writes it).
    `memory_space` 5 places the allocation in host memory (XLA's `S(5)`,
    pinned and mapped into the device's address space, so that copies and
    kernels reach it; hlo-host-offloader's arrays), not in the device's.

    ```mlir
    thunk.allocation @p0 parameter size = 1024 {parameter = 0 : i64}
    thunk.allocation @c0 constant size = 16 {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>}
    thunk.allocation @tmp temp size = 4196672
    thunk.allocation @host temp size = 32768 {memory_space = 5 : i64}
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
    Thunk_AllocationKindAttr:$kind, I64Attr:$size,
    DefaultValuedAttr<I64Attr, "256">:$alignment,
    OptionalAttr<I64Attr>:$parameter,
    OptionalAttr<DenseI64ArrayAttr>:$parameter_index,
    UnitAttr:$maybe_live_out,
    OptionalAttr<ElementsAttr>:$value,
    OptionalAttr<I64Attr>:$memory_space);
  let assemblyFormat = "$sym_name `` $kind `size` `=` $size attr-dict";
  let hasVerifier = 1;
}

def Thunk_SliceOp : Thunk_Op<"slice", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a typed view of bytes of an allocation";
  let description = [{
    The bytes `[offset, offset + size)` of allocation `allocation` seen as
    the result's memref, where `size` is the memref's element count times
    its element's storage bytes (a whole number of bytes per element:
    `i1` takes one). XLA's BufferAllocation::Slice with a type.

    ```mlir
    %0 = thunk.slice @tmp[4194304] : memref<512xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$allocation, I64Attr:$offset);
  let results = (outs Thunk_Slice:$result);
  let assemblyFormat =
      "$allocation `[` $offset `]` attr-dict `:` type($result)";
  let extraClassDeclaration = [{
    /// The bytes the slice covers.
    int64_t getByteSize();
  }];
}

//===----------------------------------------------------------------------===//
// The program and its control flow
//===----------------------------------------------------------------------===//

def Thunk_ProgramOp : Thunk_Op<"program", [Symbol, SingleBlock,
    IsolatedFromAbove, RegionKindInterface]> {
  let summary = "the thunks of a compiled HLO program, run in order";
  let description = [{
    The body of a compiled program: `thunk.slice`s and thunks, run in the
    order of the block by one stream unless a thunk says otherwise, ended by
    `thunk.return` of the slices holding the program's results. Every
    allocation it uses is a symbol of the enclosing module.

    `argument_types` and `result_types`, when present, describe what the
    caller passes and gets back as memref types (shape, element type and
    the layout as strides; a program compiled from HLO keeps its ENTRY
    signature there): one per parameter allocation in the order of
    (`parameter`, `parameter_index`), and one per `thunk.return` operand.

    A program partitioned by shardings (XLA's SPMD partitioner) may say in
    `argument_tiles` and `result_tiles` (one `#thunk.tiles` per argument
    and result type, `num_partitions` partitions each) what whole arrays
    its arguments and results are tiles of, so that a caller can pass and
    take the whole arrays.

    The program runs on `num_replicas` x `num_partitions` devices (HLO's
    `replica_count` and `num_partitions`), each with its own allocations
    and the same parameters; device `replica * num_partitions + partition`
    is the id the collectives' groups name. `rng_seed` is the state each
    device's random number generator starts from
    (`thunk.rng_get_and_update_state`; XLA's module seed). `deterministic`
    (XLA's xla_gpu_deterministic_ops) asks the runtime for the same bits on
    every run: the CUDA runtime then takes only the cuDNN algorithms cuDNN
    says are deterministic (the compiler has already made loops of the
    scatters whose result could depend on the order of their updates).

    ```mlir
    thunk.program @main {
      %a = thunk.slice @p0[0] : memref<256xf32>
      %b = thunk.slice @out[0] : memref<256xf32>
      thunk.copy %a, %b : memref<256xf32>, memref<256xf32>
      thunk.return %b : memref<256xf32>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
    OptionalAttr<TypeArrayAttr>:$argument_types,
    OptionalAttr<TypeArrayAttr>:$result_types,
    OptionalAttr<TypedArrayAttrBase<Thunk_TilesAttr, "tiles">>:$argument_tiles,
    OptionalAttr<TypedArrayAttrBase<Thunk_TilesAttr, "tiles">>:$result_tiles,
    DefaultValuedAttr<I64Attr, "1">:$num_replicas,
    DefaultValuedAttr<I64Attr, "1">:$num_partitions,
    DefaultValuedAttr<I64Attr, "0">:$rng_seed,
    UnitAttr:$deterministic);
  let regions = (region SizedRegion<1>:$body);
  let hasVerifier = 1;
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let extraClassDeclaration = [{
    static ::mlir::RegionKind getRegionKind(unsigned) {
      return ::mlir::RegionKind::SSACFG;
    }
  }];
}

def Thunk_ReturnOp : Thunk_Op<"return", [Terminator, Pure,
    HasParent<"ProgramOp">]> {
  let summary = "the slices holding a program's results";
  let description = [{
    Ends a `thunk.program`: its operands are the slices of the program's
    results, one per array of the result (a tuple's elements in order).
  }];
  let arguments = (ins Variadic<Thunk_Slice>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

def Thunk_WhileOp : Thunk_Op<"while", [SingleBlock, NoTerminator,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "a loop: condition thunks, a predicate, body thunks";
  let description = [{
    XLA's WhileThunk: runs the `condition` thunks, reads the predicate (one
    byte, nonzero is true) from `predicate`, and while it is true runs the
    `body` thunks and the condition again. `trip_count`, when known at
    compile time, is the number of iterations: a runtime may then run the
    body that many times and neither the condition nor its predicate
    (XLA's WhileThunk does; the CUDA runtime does; the host runtime runs
    both and fails if the predicate disagrees).

    ```mlir
    thunk.while %pred : memref<1xi8> condition {
      ...
    } body {
      ...
    }
    ```
  }];
  let arguments = (ins Thunk_Slice:$predicate,
    OptionalAttr<I64Attr>:$trip_count);
  let regions = (region Thunk_Sequence:$condition, Thunk_Sequence:$body);
  let assemblyFormat = "$predicate `:` type($predicate) attr-dict "
                       "`condition` $condition `body` $body";
  let hasVerifier = 1;
}

def Thunk_ConditionalOp : Thunk_Op<"conditional", [SingleBlock,
    NoTerminator, DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "runs one of its branches, chosen by a slice";
  let description = [{
    XLA's ConditionalThunk. With a one-byte predicate (`memref<1xi8>`) and
    two branches, runs the first when it is true (nonzero) and the second
    otherwise; with an `i32` index, runs branch `index`, or the last branch
    when the index is out of range (HLO's conditional).

    ```mlir
    thunk.conditional %index : memref<1xi32> {
      ...
    }, {
      ...
    }
    ```
  }];
  let arguments = (ins Thunk_Slice:$selector);
  let regions = (region VariadicRegion<Thunk_Sequence>:$branches);
  let assemblyFormat =
      "$selector `:` type($selector) attr-dict-with-keyword $branches";
  let hasVerifier = 1;
}

def Thunk_CommandBufferOp : Thunk_Op<"command_buffer", [SingleBlock,
    NoTerminator, RecursiveMemoryEffects]> {
  let summary = "thunks recorded once and replayed (a CUDA graph)";
  let description = [{
    XLA's command buffers: the kernel launches, GEMMs, copies and memsets
    of the body are recorded as one CUDA graph and replayed as one launch
    (re-recorded when a slice's address changes). The host runtime runs the
    body in order.
  }];
  let regions = (region Thunk_Sequence:$body);
  let assemblyFormat = "attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Thunks
//===----------------------------------------------------------------------===//

def Thunk_KernelOp : Thunk_Op<"kernel", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "launches a kernel of the program's gpu.module";
  let description = [{
    XLA's KernelThunk: launches `gpu.func` `kernel` (a nested reference
    `@module::@func` to a `gpu.func` with the `gpu.kernel` attribute) on a
    `grid` of blocks of `block` threads (x, y, z) with `shared_memory`
    bytes of dynamic shared memory. The kernel's arguments are `inputs`
    then `outputs`, in order, and must have its argument types; `inputs`
    are only read, `outputs` are written (and may also be read, for
    in-place kernels). `transpose`, where present, says that the kernel
    only permutes the dimensions of its one input into its one output (of
    the same element type, a whole number of bytes each): a runtime may
    copy the elements so instead of launching the kernel.

    ```mlir
    thunk.kernel @kernels::@fusion grid [4, 1, 1] block [128, 1, 1]
        ins(%a, %b : memref<512xf32>, memref<512xf32>)
        outs(%c : memref<512xf32>)
    thunk.kernel @kernels::@loop_transpose_fusion grid [72, 1, 1]
        block [128, 1, 1] ins(%p : memref<73728xf32>)
        outs(%t : memref<73728xf32>)
        {transpose = #thunk.transpose<[576, 128], permutation = [1, 0]>}
    ```
  }];
  let arguments = (ins SymbolRefAttr:$kernel,
    DenseI32ArrayAttr:$grid, DenseI32ArrayAttr:$block,
    DefaultValuedAttr<I64Attr, "0">:$shared_memory,
    OptionalAttr<Thunk_TransposeAttr>:$transpose,
    Arg<Variadic<Thunk_Slice>, "", [MemRead]>:$inputs,
    Arg<Variadic<Thunk_Slice>, "", [MemRead, MemWrite]>:$outputs);
  let assemblyFormat = [{
    $kernel `grid` $grid `block` $block
    (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    (`outs` `(` $outputs^ `:` type($outputs) `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def Thunk_GemmOp : Thunk_Op<"gemm", [AttrSizedOperandSegments]> {
  let summary = "a (batched) matrix multiplication by cuBLASLt";
  let description = [{
    XLA's GemmThunk / CublasLtMatmulThunk: for every batch b,
    `out[b] = epilogue(alpha * lhs[b] x rhs[b] + beta * out[b] + bias)`,
    where `lhs` is m x k, `rhs` k x n and `out` m x n as their layouts
    describe them (`#thunk.matrix`: order, leading dimension, batch
    stride), `alpha` is `alpha_real + i alpha_imag`, `bias` (a vector of n,
    added to every row) is present with the `bias` epilogues, and the
    epilogue applies relu or gelu (tanh approximation) elementwise.
    Products accumulate in f32 for 16-bit and 32-bit floats (f64 for f64),
    as cuBLAS's default compute types. `algorithm` is the cuBLASLt
    algorithm the autotuner chose (-1: the library's heuristic);
    `workspace` is scratch for the library. `tf32` (XLA's
    ALG_DOT_TF32_TF32_F32) lets f32 products take the operands rounded to
    TF32 (10 mantissa bits; cuBLAS's CUBLAS_COMPUTE_32F_FAST_TF32). With
    `c` (laid out as `out`),
    `beta * c` is added in place of `beta * out` (cuBLASLt's C apart from
    D).

    With fp8 operands (XLA's `__cublas$lt$matmul$f8`: e4m3fn and e5m2, not
    both e5m2) `a_scale` and `b_scale` (f32 scalars) multiply `lhs` and
    `rhs`, and an fp8 `out` may take `d_scale` (else 1; beta is then 0):
    `out = d_scale * epilogue(alpha * (a_scale lhs) x (b_scale rhs) +
    beta * out + bias)`, computed in f32 and converted to an fp8 `out`
    with saturation to its finite range; the bias is then bf16 or f16.
    `d_amax` (f32) receives the largest magnitude of `out` before
    `d_scale` (XLA's damax_output). `fast_accum` (fp8 operands only) lets
    cuBLASLt accumulate the fp8 products without promoting partial sums to
    full f32 (CUBLASLT_MATMUL_DESC_FAST_ACCUM: XLA's
    ALG_DOT_ANY_F8_ANY_F8_F32_FAST_ACCUM, or DEFAULT operand precision);
    a runtime may accumulate more precisely.

    ```mlir
    thunk.gemm %a : memref<256xf32>, %b : memref<2048xf32>
        -> %c : memref<512xf32> workspace %w : memref<4194304xi8> {
        lhs_layout = #thunk.matrix<row_major, rows = 8, cols = 32, leading_dim = 32>,
        rhs_layout = #thunk.matrix<row_major, rows = 32, cols = 64, leading_dim = 64>,
        out_layout = #thunk.matrix<row_major, rows = 8, cols = 64, leading_dim = 64>}
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead]>:$lhs,
    Arg<Thunk_Slice, "", [MemRead]>:$rhs,
    Arg<Optional<Thunk_Slice>, "", [MemRead]>:$c,
    Arg<Optional<Thunk_Slice>, "", [MemRead]>:$bias,
    Arg<Optional<Thunk_Slice>, "", [MemRead]>:$a_scale,
    Arg<Optional<Thunk_Slice>, "", [MemRead]>:$b_scale,
    Arg<Optional<Thunk_Slice>, "", [MemRead]>:$d_scale,
    Arg<Thunk_Slice, "", [MemRead, MemWrite]>:$out,
    Arg<Optional<Thunk_Slice>, "", [MemWrite]>:$d_amax,
    Arg<Optional<Thunk_Slice>, "", [MemRead, MemWrite]>:$workspace,
    Thunk_MatrixLayoutAttr:$lhs_layout, Thunk_MatrixLayoutAttr:$rhs_layout,
    Thunk_MatrixLayoutAttr:$out_layout,
    DefaultValuedAttr<F64Attr, "1.0">:$alpha_real,
    DefaultValuedAttr<F64Attr, "0.0">:$alpha_imag,
    DefaultValuedAttr<F64Attr, "0.0">:$beta,
    DefaultValuedAttr<Thunk_GemmEpilogueAttr,
                      "::mlir::thunk::GemmEpilogue::Default">:$epilogue,
    DefaultValuedAttr<I64Attr, "-1">:$algorithm, UnitAttr:$tf32,
    UnitAttr:$fast_accum);
  let assemblyFormat = [{
    $lhs `:` type($lhs) `,` $rhs `:` type($rhs)
    (`c` $c^ `:` type($c))?
    (`bias` $bias^ `:` type($bias))?
    (`a_scale` $a_scale^ `:` type($a_scale))?
    (`b_scale` $b_scale^ `:` type($b_scale))?
    (`d_scale` $d_scale^ `:` type($d_scale))?
    `->` $out `:` type($out)
    (`d_amax` $d_amax^ `:` type($d_amax))?
    (`workspace` $workspace^ `:` type($workspace))? attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::LogicalResult verifyFp8();
  }];
}

def Thunk_ConvolutionOp : Thunk_Op<"convolution", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "a convolution, its gradients or a fused one, by cuDNN";
  let description = [{
    XLA's ConvolutionThunk. The three tensors are named by their roles in
    the forward convolution `output = conv(input, filter)`, whatever the
    kind computes, each with its `#thunk.conv_tensor` layout (logical
    shape, dimension roles, physical order):

      * `forward`: writes `output` from `input` and `filter`;
      * `backward_input`: writes `input` (dx) from `output` (dy) and
        `filter`: the transposed convolution;
      * `backward_filter`: writes `filter` (dw) from `input` (x) and
        `output` (dy);
      * `forward_bias_activation`: writes
        `output = activation(conv_result_scale * conv(input, filter) + bias
        + side_input_scale * side_input)`, `bias` a vector over the output
        features, `side_input` (optional) laid out as the output.

    The forward convolution is a cross-correlation: with `out` an output
    position, `k` a filter position and per spatial dimension
    `p = out * stride + k * rhs_dilation - padding_low`, input position
    `p / lhs_dilation` contributes where `p` is a multiple of
    `lhs_dilation` inside the (dilated) input, zero padding elsewhere. The
    input features are `feature_group_count` groups; output feature `o`
    reads group `o / (output features / feature_group_count)`. The output's
    spatial extents are those of a window of the filter's dilated extents
    sliding by `window_strides` over the padded, dilated input. The window
    attributes have one entry per spatial dimension (the order of
    `spatial` in the layouts); the window's size is the filter's spatial
    extents. With `reversed` the filter is read flipped in every spatial
    dimension (filter position `k` is `size - 1 - k`; HLO's window reversal,
    cuDNN's CUDNN_CONVOLUTION mode). Sums accumulate in f32 for 16-bit and
    32-bit floats (f64 for f64). Element types are cuDNN's: one float type
    (f16, bf16, f32, f64) throughout, or, for forward convolutions, an i8
    input and filter summed exactly (in i32), an f32 bias and an i8 or f32
    output (the side input of the output's type); the epilogue of an i8
    convolution runs in f32 and an i8 output is the f32 result saturated
    to [-128, 127] and rounded toward zero, as the HLO convert that XLA's
    rewriter folds in (cuDNN's own rounding on a GPU may differ by one). `algorithm` is the cuDNN algorithm the autotuner chose (-1: the
    library's heuristic); `workspace` is scratch for the library.

    ```mlir
    thunk.convolution forward input(%x : memref<6144xf32>)
        filter(%w : memref<432xf32>) output(%y : memref<32768xf32>)
        workspace(%ws : memref<1024xi8>) {
      input_layout = #thunk.conv_tensor<[2, 3, 32, 32], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
      filter_layout = #thunk.conv_tensor<[16, 3, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
      output_layout = #thunk.conv_tensor<[2, 16, 32, 32], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
      window_strides = array<i64: 1, 1>, padding_low = array<i64: 1, 1>,
      padding_high = array<i64: 1, 1>, lhs_dilation = array<i64: 1, 1>,
      rhs_dilation = array<i64: 1, 1>}
    ```
  }];
  let arguments = (ins Thunk_ConvKindAttr:$kind,
    Thunk_Slice:$input, Thunk_Slice:$filter, Thunk_Slice:$output,
    Optional<Thunk_Slice>:$bias, Optional<Thunk_Slice>:$side_input,
    Optional<Thunk_Slice>:$workspace,
    Thunk_ConvTensorAttr:$input_layout, Thunk_ConvTensorAttr:$filter_layout,
    Thunk_ConvTensorAttr:$output_layout,
    DenseI64ArrayAttr:$window_strides, DenseI64ArrayAttr:$padding_low,
    DenseI64ArrayAttr:$padding_high, DenseI64ArrayAttr:$lhs_dilation,
    DenseI64ArrayAttr:$rhs_dilation,
    DefaultValuedAttr<I64Attr, "1">:$feature_group_count,
    UnitAttr:$reversed,
    DefaultValuedAttr<Thunk_ConvActivationAttr,
                      "::mlir::thunk::ConvActivation::None">:$activation,
    DefaultValuedAttr<F64Attr, "1.0">:$conv_result_scale,
    DefaultValuedAttr<F64Attr, "0.0">:$side_input_scale,
    DefaultValuedAttr<F64Attr, "0.0">:$leaky_relu_alpha,
    DefaultValuedAttr<I64Attr, "-1">:$algorithm);
  let assemblyFormat = [{
    `` $kind `input` `(` $input `:` type($input) `)`
    `filter` `(` $filter `:` type($filter) `)`
    `output` `(` $output `:` type($output) `)`
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    (`side_input` `(` $side_input^ `:` type($side_input) `)`)?
    (`workspace` `(` $workspace^ `:` type($workspace) `)`)? attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The slice the kind writes: `output`, `input` (backward_input) or
    /// `filter` (backward_filter).
    ::mlir::TypedValue<::mlir::MemRefType> getTarget();
    /// The number of spatial dimensions.
    int64_t getNumSpatialDims() { return getInputLayout().getNumSpatialDims(); }
  }];
}

def Thunk_FftOp : Thunk_Op<"fft"> {
  let summary = "a batch of fast Fourier transforms, by cuFFT";
  let description = [{
    XLA's FftThunk, HLO's `fft`: the transform over the innermost
    `length` dimensions (one to three) of row-major slices, the outer
    dimensions a batch:

      * `fft`: complex to complex, forward (`exp(-2 pi i jk / n)`);
      * `ifft`: complex to complex, inverse, scaled by 1/N (N the product of
        `length`);
      * `rfft`: real to complex, forward; the output's innermost dimension
        holds the `length[-1] / 2 + 1` non-redundant frequencies;
      * `irfft`: complex (those frequencies) to real, inverse, scaled by
        1/N; the imaginary parts a real signal cannot have (frequency 0
        and, for an even length, `length[-1] / 2` of the innermost
        dimension) are ignored.

    Single precision pairs f32 with complex<f32>, double f64 with
    complex<f64>.

    ```mlir
    thunk.fft rfft %x : memref<4x8xf32> -> %y : memref<4x5xcomplex<f32>>
        length [8]
    ```
  }];
  let arguments = (ins Thunk_FftTypeAttr:$fft_type,
    Arg<Thunk_Slice, "", [MemRead]>:$input,
    Arg<Thunk_Slice, "", [MemWrite]>:$output, DenseI64ArrayAttr:$length);
  let assemblyFormat = [{
    `` $fft_type $input `:` type($input) `->` $output `:` type($output)
    `length` $length attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of transforms: the product of the outer dimensions.
    int64_t getBatch();
    /// Elements of one transform's full side: the product of `length`.
    int64_t getTransformElements();
    /// Complex elements of one transform's half spectrum (rfft's output,
    /// irfft's input): `length[-1]` becomes `length[-1] / 2 + 1`.
    int64_t getHalfSpectrumElements();
    /// f32 or f64: the real type of the transform's elements.
    ::mlir::Type getRealType();
  }];
}

def Thunk_RadixSortOp : Thunk_Op<"radix_sort", [AttrSizedOperandSegments]> {
  let summary = "stable radix sorts of rows, keys with values, by CUB";
  let description = [{
    XLA-GPU's CubSortThunk (its `xla.gpu.ext.cub_sort_keys` and
    `xla.gpu.ext.cub_sort_pairs` calls, of SortRewriter): every row (the
    last dimension; the outer dimensions a batch, CUB's segmented sort) of
    `keys` is sorted stably into `sorted_keys` in CUB's order of the key
    type, ascending or `descending`: integers by value (signless ones
    signed), floats by their total order (-NaN < -inf < ... < -0 < +0 < ...
    < inf < NaN); `values`, when present, move with their keys into
    `sorted_values`. `scratch` is the library's temporary storage (the
    CUDA runtime checks that CUB's query fits in it). Row-major slices;
    keys of 8- to 64-bit integers, f16, bf16, f32 or f64, values of any 8-
    to 64-bit type or i1.

    ```mlir
    thunk.radix_sort %k : memref<4x100xf32> values %v : memref<4x100xi32>
        -> %sk : memref<4x100xf32> values %sv : memref<4x100xi32>
        scratch %s : memref<4096xui8> descending
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead]>:$keys,
    Arg<Optional<Thunk_Slice>, "", [MemRead]>:$values,
    Arg<Thunk_Slice, "", [MemWrite]>:$sorted_keys,
    Arg<Optional<Thunk_Slice>, "", [MemWrite]>:$sorted_values,
    Arg<Thunk_Slice, "", [MemWrite]>:$scratch, UnitAttr:$descending);
  let assemblyFormat = [{
    $keys `:` type($keys) (`values` $values^ `:` type($values))? `->`
    $sorted_keys `:` type($sorted_keys)
    (`values` $sorted_values^ `:` type($sorted_values))?
    `scratch` $scratch `:` type($scratch) (`descending` $descending^)?
    attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The rows (the product of the outer dimensions) and their length.
    int64_t getRows();
    int64_t getRowLength();
  }];
}

def Thunk_TopKOp : Thunk_Op<"top_k"> {
  let summary = "the k largest elements of every row, with their indices";
  let description = [{
    XLA-GPU's top-k custom kernel (the `__gpu$TopK` call of its
    TopkSpecializer, which XLA runs as a CustomKernelThunk of a kernel its
    build compiled): for every row of `input` (the last dimension; the
    outer dimensions a batch), its k largest elements, largest first, into
    `values` and their positions in the row (s32) into `indices`, k being
    their last dimension. Elements order as a stable descending sort by
    their total order orders them (-NaN < -inf < ... < -0 < +0 < ... < inf
    < NaN; equal ones by position); without `total_order`, -0 and +0 are
    equal (a comparator of the floats themselves, `x > y`; NaNs still go
    by their total order). The values keep their bits. f32 or bf16,
    1 <= k <= 16, k at most the row's length, which is below 2^31, and
    row-major slices. The runtimes run the same algorithm (TopKRows.h):
    the CUDA runtime a kernel compiled with the project by nvcc, the host
    runtime on the CPU.

    ```mlir
    thunk.top_k %x : memref<8x32768xf32>
        -> %v : memref<8x8xf32>, %i : memref<8x8xi32> total_order
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead]>:$input,
    Arg<Thunk_Slice, "", [MemWrite]>:$values,
    Arg<Thunk_Slice, "", [MemWrite]>:$indices, UnitAttr:$total_order);
  let assemblyFormat = [{
    $input `:` type($input) `->` $values `:` type($values) `,`
    $indices `:` type($indices) (`total_order` $total_order^)? attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The rows (the product of the outer dimensions), their length, and
    /// the elements kept of each.
    int64_t getRows();
    int64_t getRowLength();
    int64_t getK();
  }];
}

def Thunk_TriangularSolveOp : Thunk_Op<"triangular_solve"> {
  let summary = "a batch of triangular solves in place, by cuBLAS trsm";
  let description = [{
    XLA's TriangularSolveThunk (HLO `triangular-solve`, after XLA's
    TriangularSolveRewriter `__cublas$triangularSolve`): every matrix of
    `b` is overwritten with the solution x of `op(a) x = b` (`left_side`)
    or `x op(a) = b`, where op(a) is a, its transpose or its adjoint
    (`notrans`, `trans`, `adjoint`) and only the triangle of a that
    `lower` names is read (its diagonal taken as ones with
    `unit_diagonal`). Both slices hold column-major (Fortran) matrices, the
    outer dimensions a batch: the memref types say so with their strides,
    which the verifier checks. Element types: f32, f64, complex<f32>,
    complex<f64>.

    ```mlir
    thunk.triangular_solve lower notrans %a, %b
        : memref<4x4xf32, strided<[1, 4]>>, memref<3x4xf32, strided<[1, 3]>>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead]>:$a,
    Arg<Thunk_Slice, "", [MemRead, MemWrite]>:$b, UnitAttr:$left_side,
    UnitAttr:$lower, UnitAttr:$unit_diagonal,
    Thunk_TrsmTransposeAttr:$transpose_a);
  let assemblyFormat = [{
    (`left_side` $left_side^)? (`lower` $lower^)?
    (`unit_diagonal` $unit_diagonal^)? $transpose_a $a `,` $b attr-dict `:`
    type($a) `,` type($b)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of systems: the product of the outer dimensions.
    int64_t getBatch();
    /// The rows (m) and columns (n) of each matrix of b.
    int64_t getRows();
    int64_t getColumns();
  }];
}

def Thunk_CholeskyOp : Thunk_Op<"cholesky"> {
  let summary = "a batch of Cholesky factorizations in place, by cuSOLVER "
                "potrf";
  let description = [{
    XLA's CholeskyThunk (its `__cusolver$cholesky` custom call) and JAX's
    Cholesky calls (`lapack_?potrf_ffi`, `cusolver_potrf_ffi`): every
    matrix of `a` (column-major, the outer dimensions a batch, as the
    strides of its type say) is overwritten in the triangle `lower` names
    with its Cholesky factor: L with L L^H = a (`lower`) or U with
    U^H U = a, read from that triangle only. `info` receives per matrix 0,
    or a positive value where the matrix is not positive definite (the
    factor is then incomplete). The other triangle is unspecified, as
    HLO's `cholesky` says: cuSOLVER leaves the input there, the host
    runtime zeros. `workspace`, when present, is scratch for the library.
    Element types: f32, f64, complex<f32>, complex<f64>.

    ```mlir
    thunk.cholesky lower %a, %info
        : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2xi32>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead, MemWrite]>:$a,
    Arg<Thunk_Slice, "", [MemWrite]>:$info,
    Arg<Optional<Thunk_Slice>, "", [MemWrite]>:$workspace,
    UnitAttr:$lower);
  let assemblyFormat = [{
    (`lower` $lower^)? $a `,` $info (`workspace` $workspace^)? attr-dict `:`
    type($a) `,` type($info) (`,` type($workspace)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of matrices: the product of the outer dimensions.
    int64_t getBatch();
    /// The order n of each n x n matrix.
    int64_t getOrder();
  }];
}

def Thunk_QrOp : Thunk_Op<"qr"> {
  let summary = "a batch of Householder QR factorizations in place (LAPACK "
                "and cuSOLVER geqrf)";
  let description = [{
    JAX's QR call on XLA CPU (`lapack_?geqrf_ffi`) and XLA GPU
    (`cusolver_geqrf_ffi`), behind jax.numpy.linalg.qr: every
    m x n matrix of `a` (column-major, the outer dimensions a batch, as the
    strides of its type say) is overwritten with its QR factorization as
    LAPACK's geqrf writes it: R on and above the diagonal, the Householder
    vectors below it (each with an implicit 1 on the diagonal), and their
    min(m, n) scales per matrix in `tau`. Element types: f32, f64,
    complex<f32>, complex<f64>.

    ```mlir
    thunk.qr %a, %tau : memref<3x2xf64, strided<[1, 3]>>, memref<2xf64>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead, MemWrite]>:$a,
    Arg<Thunk_Slice, "", [MemWrite]>:$tau);
  let assemblyFormat = "$a `,` $tau attr-dict `:` type($a) `,` type($tau)";
  let hasVerifier = 1;
}

def Thunk_HouseholderProductOp : Thunk_Op<"householder_product"> {
  let summary = "the products of a batch of Householder reflectors in place "
                "(LAPACK orgqr / ungqr)";
  let description = [{
    JAX's calls `lapack_?orgqr_ffi` / `lapack_?ungqr_ffi` (XLA CPU) and
    `cusolver_orgqr_ffi` (XLA GPU): every
    m x n matrix of `a` (column-major, batched as `thunk.qr`'s), holding
    Householder vectors below its diagonal as `thunk.qr` leaves them, is
    overwritten with the first n columns of Q = H_1 ... H_k, H_i = I -
    tau_i v_i v_i^H, with the k scales per matrix of `tau`.

    ```mlir
    thunk.householder_product %a, %tau
        : memref<3x2xf64, strided<[1, 3]>>, memref<2xf64>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead, MemWrite]>:$a,
    Arg<Thunk_Slice, "", [MemRead]>:$tau);
  let assemblyFormat = "$a `,` $tau attr-dict `:` type($a) `,` type($tau)";
  let hasVerifier = 1;
}

def Thunk_LuOp : Thunk_Op<"lu"> {
  let summary = "a batch of LU factorizations with partial pivoting in place "
                "(LAPACK / cuSOLVER getrf)";
  let description = [{
    JAX's LU call on XLA CPU (`lapack_?getrf_ffi`) and XLA GPU
    (`cusolver_getrf_ffi`), behind jax.numpy.linalg.solve, inv, det and
    jax.scipy.linalg.lu: every m x n matrix of `a` (column-major, the outer
    dimensions a batch, as the strides of its type say) is overwritten
    with its factors P A = L U as getrf writes them: L below the diagonal
    (its unit diagonal implicit), U on and above it. `pivots` receives
    min(m, n) 1-based row interchanges per matrix (row i was swapped with
    row pivots[i], in order) and `info` per matrix 0, or i > 0 where U(i, i)
    is exactly zero (the factorization is complete, U singular).

    ```mlir
    thunk.lu %a, %pivots, %info
        : memref<2x4x3xf32, strided<[12, 1, 4]>>, memref<2x3xi32>, memref<2xi32>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead, MemWrite]>:$a,
    Arg<Thunk_Slice, "", [MemWrite]>:$pivots,
    Arg<Thunk_Slice, "", [MemWrite]>:$info);
  let assemblyFormat = [{
    $a `,` $pivots `,` $info attr-dict `:` type($a) `,` type($pivots) `,`
    type($info)
  }];
  let hasVerifier = 1;
}

def Thunk_LuPivotsToPermutationOp : Thunk_Op<"lu_pivots_to_permutation"> {
  let summary = "the row permutations of a batch of LU pivots";
  let description = [{
    JAX's `cu_lu_pivots_to_permutation` (XLA GPU): for each matrix, the
    permutation of its m rows that the 0-based row interchanges of `pivots`
    (k per matrix, applied in order: swap rows i and pivots[i]) make of
    0, 1, ..., m - 1, into `permutation` (m per matrix). An interchange with
    a row outside [0, m) is skipped.

    ```mlir
    thunk.lu_pivots_to_permutation %pivots, %permutation
        : memref<2x3xi32>, memref<2x4xi32>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead]>:$pivots,
    Arg<Thunk_Slice, "", [MemWrite]>:$permutation);
  let assemblyFormat = [{
    $pivots `,` $permutation attr-dict `:` type($pivots) `,` type($permutation)
  }];
  let hasVerifier = 1;
}

def Thunk_EighOp : Thunk_Op<"eigh"> {
  let summary = "a batch of Hermitian eigendecompositions in place (LAPACK "
                "syevd / heevd, cuSOLVER syevd)";
  let description = [{
    JAX's eigh call on XLA CPU (`lapack_?syevd_ffi`, `lapack_?heevd_ffi`)
    and XLA GPU (`cusolver_syevd_ffi`): the eigenvalues of every n x n
    Hermitian matrix of `a` (column-major, batched as `thunk.lu`'s), read
    from its `lower` or upper triangle, ascending into `w` (n real values
    per matrix), and with `vectors` its orthonormal eigenvectors as the
    columns of `a` (without, `a` is left unspecified). Each eigenvector is
    unique up to a unit factor (its sign, for real matrices), which the
    library chooses. `info` receives per matrix 0, or i > 0 where the
    algorithm did not converge.

    ```mlir
    thunk.eigh lower vectors %a, %w, %info
        : memref<3x3xf32, strided<[1, 3]>>, memref<3xf32>, memref<i32>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead, MemWrite]>:$a,
    Arg<Thunk_Slice, "", [MemWrite]>:$w,
    Arg<Thunk_Slice, "", [MemWrite]>:$info,
    UnitAttr:$lower, UnitAttr:$vectors);
  let assemblyFormat = [{
    (`lower` $lower^)? (`vectors` $vectors^)? $a `,` $w `,` $info attr-dict
    `:` type($a) `,` type($w) `,` type($info)
  }];
  let hasVerifier = 1;
}

def Thunk_EigOp : Thunk_Op<"eig"> {
  let summary = "a batch of general eigendecompositions (LAPACK geev)";
  let description = [{
    JAX's eig call on XLA CPU (`lapack_?geev_ffi`) and XLA GPU
    (`cuhybrid_eig_real`, `cuhybrid_eig_comp`, which run LAPACK or MAGMA on
    the host): the eigenvalues of every n x n matrix of `a` (column-major,
    batched as `thunk.lu`'s; read only: the runtimes factor a copy, as the
    call has no result aliasing it), complex in general, and with
    `left` / `right` its left (u^H A = w u^H) and right (A v = w v)
    eigenvectors as the columns of `vl` / `vr` (complex, column-major, of
    unit norm with the largest component real, as LAPACK normalizes them;
    zeros where not computed). For complex matrices `w` receives the
    eigenvalues; for real ones `w` their real and `wi` their imaginary
    parts. With `packed` (cuSOLVER's `cusolver_geev_ffi` on real matrices)
    `vl` and `vr` are real, in LAPACK's packed form: a conjugate pair's
    vector as two columns, its real and its imaginary part. `info` receives
    per matrix 0, or i > 0 where the QR algorithm did not converge.

    ```mlir
    thunk.eig right %a, %wr imag %wi, %vl, %vr, %info
        : memref<3x3xf32, strided<[1, 3]>>, memref<3xf32> imag memref<3xf32>,
          memref<3x3xcomplex<f32>, strided<[1, 3]>>,
          memref<3x3xcomplex<f32>, strided<[1, 3]>>, memref<i32>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead]>:$a,
    Arg<Thunk_Slice, "", [MemWrite]>:$w,
    Arg<Optional<Thunk_Slice>, "", [MemWrite]>:$wi,
    Arg<Thunk_Slice, "", [MemWrite]>:$vl,
    Arg<Thunk_Slice, "", [MemWrite]>:$vr,
    Arg<Thunk_Slice, "", [MemWrite]>:$info,
    UnitAttr:$left, UnitAttr:$right, UnitAttr:$packed);
  let assemblyFormat = [{
    (`left` $left^)? (`right` $right^)? (`packed` $packed^)? $a `,` $w
    (`imag` $wi^)? `,` $vl `,`
    $vr `,` $info attr-dict `:` type($a) `,` type($w) (`imag` type($wi)^)?
    `,` type($vl) `,` type($vr) `,` type($info)
  }];
  let hasVerifier = 1;
}

def Thunk_SvdOp : Thunk_Op<"svd"> {
  let summary = "a batch of singular value decompositions (LAPACK gesdd, "
                "cuSOLVER gesvd / gesvdj)";
  let description = [{
    JAX's SVD call on XLA CPU (`lapack_?gesdd_ffi`, `lapack_?gesvd_ffi`)
    and XLA GPU (`cusolver_gesvd_ffi`, `cusolver_gesvdj_ffi`): every m x n
    matrix of
    `a` (column-major, batched as `thunk.lu`'s; destroyed) is factored as
    A = U S V^H: its min(m, n) singular values descending into `s` (real),
    and `vectors` says which singular vectors: `all` (U m x m and V^H n x
    n), `reduced` (the first min(m, n) columns of U and rows of V^H) or
    `none` (`u` and `v` untouched). `v` receives V^H, or with `adjoint_v`
    its conjugate transpose V (n x n or n x min(m, n); cuSOLVER's gesvdj
    returns V). The vectors are unique up to unit factors, which the
    library chooses: `qr` asks for QR iteration (LAPACK's and cuSOLVER's
    gesvd), whose choices may differ from the default's (LAPACK's gesdd,
    cuSOLVER's gesvdj). `info` receives per matrix 0, or i > 0 where the
    algorithm did not converge.

    ```mlir
    thunk.svd all %a, %s, %u, %v, %info
        : memref<4x3xf32, strided<[1, 4]>>, memref<3xf32>,
          memref<4x4xf32, strided<[1, 4]>>, memref<3x3xf32, strided<[1, 3]>>,
          memref<i32>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead, MemWrite]>:$a,
    Arg<Thunk_Slice, "", [MemWrite]>:$s,
    Arg<Thunk_Slice, "", [MemWrite]>:$u,
    Arg<Thunk_Slice, "", [MemWrite]>:$v,
    Arg<Thunk_Slice, "", [MemWrite]>:$info,
    Thunk_SvdVectorsAttr:$vectors, UnitAttr:$qr, UnitAttr:$adjoint_v);
  let assemblyFormat = [{
    `` $vectors (`qr` $qr^)? (`adjoint_v` $adjoint_v^)? $a `,` $s `,` $u `,` $v `,` $info
    attr-dict `:` type($a) `,` type($s) `,` type($u) `,` type($v) `,`
    type($info)
  }];
  let hasVerifier = 1;
}

def Thunk_SchurOp : Thunk_Op<"schur"> {
  let summary = "a batch of Schur decompositions in place (LAPACK gees)";
  let description = [{
    JAX's Schur call on XLA CPU (`lapack_?gees_ffi`, jax.scipy.linalg.schur
    and sqrtm): every n x n matrix A of `a` (column-major, batched as
    `thunk.lu`'s) is overwritten with its Schur form T, A = Z T Z^H with Z
    unitary: T upper triangular for complex matrices, for real ones quasi
    upper triangular (2 x 2 blocks on the diagonal for conjugate pairs of
    eigenvalues). With `vectors` the Schur vectors Z go to `vs` (else `vs`
    is left unspecified), and the eigenvalues in T's diagonal order to `w`
    (complex matrices) or their real and imaginary parts to `w` and `wi`
    (real ones). The eigenvalues are not sorted. `info` receives per matrix
    0, or i > 0 where the QR algorithm did not converge.

    ```mlir
    thunk.schur vectors %a, %vs, %wr imag %wi, %info
        : memref<3x3xf32, strided<[1, 3]>>, memref<3x3xf32, strided<[1, 3]>>,
          memref<3xf32> imag memref<3xf32>, memref<i32>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead, MemWrite]>:$a,
    Arg<Thunk_Slice, "", [MemWrite]>:$vs,
    Arg<Thunk_Slice, "", [MemWrite]>:$w,
    Arg<Optional<Thunk_Slice>, "", [MemWrite]>:$wi,
    Arg<Thunk_Slice, "", [MemWrite]>:$info,
    UnitAttr:$vectors);
  let assemblyFormat = [{
    (`vectors` $vectors^)? $a `,` $vs `,` $w (`imag` $wi^)? `,` $info
    attr-dict `:` type($a) `,` type($vs) `,` type($w) (`imag` type($wi)^)?
    `,` type($info)
  }];
  let hasVerifier = 1;
}

def Thunk_HessenbergOp : Thunk_Op<"hessenberg"> {
  let summary = "a batch of Hessenberg reductions in place (LAPACK gehrd)";
  let description = [{
    JAX's Hessenberg call on XLA CPU (`lapack_?gehrd_ffi`,
    jax.scipy.linalg.hessenberg): every n x n matrix A of `a` (column-major,
    batched as `thunk.lu`'s) is reduced to upper Hessenberg form H = Q^H A Q
    as LAPACK's gehrd writes it: H on and above the first subdiagonal, the
    Householder vectors of Q = H_low ... H_(high-1) below it (each with an
    implicit 1), their n - 1 scales per matrix in `tau` (zero outside
    [low, high)). `low` and `high` are gehrd's 1-based ilo and ihi: rows and
    columns outside them are taken as already reduced (1 and n reduce the
    whole matrix). `info` receives 0 per matrix (gehrd does not fail).

    ```mlir
    thunk.hessenberg %a, %tau, %info low 1 high 4
        : memref<4x4xf64, strided<[1, 4]>>, memref<3xf64>, memref<i32>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead, MemWrite]>:$a,
    Arg<Thunk_Slice, "", [MemWrite]>:$tau,
    Arg<Thunk_Slice, "", [MemWrite]>:$info,
    I64Attr:$low, I64Attr:$high);
  let assemblyFormat = [{
    $a `,` $tau `,` $info `low` $low `high` $high attr-dict `:` type($a) `,`
    type($tau) `,` type($info)
  }];
  let hasVerifier = 1;
}

def Thunk_TridiagonalOp : Thunk_Op<"tridiagonal"> {
  let summary = "a batch of tridiagonal reductions of Hermitian matrices in "
                "place (LAPACK sytrd / hetrd, cuSOLVER sytrd)";
  let description = [{
    JAX's tridiagonal reduction on XLA CPU (`lapack_?sytrd_ffi`,
    `lapack_?hetrd_ffi`) and XLA GPU (`cusolver_sytrd_ffi`),
    jax.lax.linalg.tridiagonal: every n x n Hermitian matrix A of `a`
    (column-major, batched as `thunk.lu`'s), read from its `lower` or upper
    triangle, is reduced to a real symmetric tridiagonal T = Q^H A Q: its
    diagonal to `d` (n real values per matrix), its off-diagonal to `e`
    (n - 1 real values), and the Householder vectors of Q replace the
    triangle read below (`lower`) or above the off-diagonal, their n - 1
    scales per matrix in `tau`, as LAPACK's sytrd writes them. `info`
    receives 0 per matrix.

    ```mlir
    thunk.tridiagonal lower %a, %d, %e, %tau, %info
        : memref<4x4xf32, strided<[1, 4]>>, memref<4xf32>, memref<3xf32>,
          memref<3xf32>, memref<i32>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead, MemWrite]>:$a,
    Arg<Thunk_Slice, "", [MemWrite]>:$d,
    Arg<Thunk_Slice, "", [MemWrite]>:$e,
    Arg<Thunk_Slice, "", [MemWrite]>:$tau,
    Arg<Thunk_Slice, "", [MemWrite]>:$info,
    UnitAttr:$lower);
  let assemblyFormat = [{
    (`lower` $lower^)? $a `,` $d `,` $e `,` $tau `,` $info attr-dict `:`
    type($a) `,` type($d) `,` type($e) `,` type($tau) `,` type($info)
  }];
  let hasVerifier = 1;
}

def Thunk_TridiagonalSolveOp : Thunk_Op<"tridiagonal_solve"> {
  let summary = "a batch of tridiagonal systems solved in place (LAPACK "
                "gtsv, cuSPARSE gtsv2)";
  let description = [{
    JAX's tridiagonal solve on XLA CPU (`lapack_?gtsv_ffi`) and XLA GPU
    (`cusparse_gtsv2_ffi`), jax.lax.linalg.tridiagonal_solve: for every
    m x m tridiagonal matrix, given by its sub-diagonal `dl`, diagonal `d`
    and super-diagonal `du` (m values per matrix each, dense; dl[0] and
    du[m - 1] are not read), the m x k right-hand sides of `b` (column-major,
    batched as `thunk.lu`'s) are overwritten with the solutions, by Gaussian
    elimination with partial pivoting. `dl`, `d` and `du` are read only (the
    runtimes eliminate on copies). `info`, when present, receives per matrix
    0, or i > 0 where U(i, i) is exactly zero (no solution computed).

    ```mlir
    thunk.tridiagonal_solve %dl, %d, %du, %b info %info
        : memref<4xf32>, memref<4xf32>, memref<4xf32>,
          memref<4x2xf32, strided<[1, 4]>>, memref<i32>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead]>:$dl,
    Arg<Thunk_Slice, "", [MemRead]>:$d,
    Arg<Thunk_Slice, "", [MemRead]>:$du,
    Arg<Thunk_Slice, "", [MemRead, MemWrite]>:$b,
    Arg<Optional<Thunk_Slice>, "", [MemWrite]>:$info);
  let assemblyFormat = [{
    $dl `,` $d `,` $du `,` $b (`info` $info^)? attr-dict `:` type($dl) `,`
    type($d) `,` type($du) `,` type($b) (`,` type($info)^)?
  }];
  let hasVerifier = 1;
}

def Thunk_PadToStaticOp : Thunk_Op<"pad_to_static"> {
  let summary = "a bounded dynamic array at its bounds, and its sizes";
  let description = [{
    XLA's PadToStatic kernel: `input` holds a bounded dynamic array as XLA
    stores one, its elements dense in the order of `output`'s layout over
    the runtime sizes, then at byte `bytes(output)` one i32 size per
    dimension (XLA's dynamic shape metadata; `input` is those bytes). Writes
    each element to its place in `output` (the array at its bounds; the
    other places are zeros) and each size to its `sizes` slice.

    ```mlir
    thunk.pad_to_static %in : memref<36xi8> -> %out : memref<2x3xf32>
        sizes(%s0, %s1 : memref<1xi32>, memref<1xi32>)
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead]>:$input,
    Arg<Thunk_Slice, "", [MemWrite]>:$output,
    Arg<Variadic<Thunk_Slice>, "", [MemWrite]>:$sizes);
  let assemblyFormat = [{
    $input `:` type($input) `->` $output `:` type($output)
    `sizes` `(` $sizes `:` type($sizes) `)` attr-dict
  }];
  let hasVerifier = 1;
}

def Thunk_SliceToDynamicOp : Thunk_Op<"slice_to_dynamic"> {
  let summary = "a bounded dynamic array from an array at its bounds";
  let description = [{
    XLA's SliceToDynamic kernel, the inverse of `thunk.pad_to_static`:
    the elements of `input` (the array at its bounds) within the runtime
    sizes read from the `sizes` slices, written dense in the order of
    `input`'s layout, then the sizes as one i32 each at byte
    `bytes(input)` of `output`.

    ```mlir
    thunk.slice_to_dynamic %in : memref<2x3xf32>
        sizes(%s0, %s1 : memref<1xi32>, memref<1xi32>) -> %out : memref<32xi8>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead]>:$input,
    Arg<Variadic<Thunk_Slice>, "", [MemRead]>:$sizes,
    Arg<Thunk_Slice, "", [MemWrite]>:$output);
  let assemblyFormat = [{
    $input `:` type($input) `sizes` `(` $sizes `:` type($sizes) `)` `->`
    $output `:` type($output) attr-dict
  }];
  let hasVerifier = 1;
}

def Thunk_InfeedOp : Thunk_Op<"infeed"> {
  let summary = "writes the next value of the host's infeed queue";
  let description = [{
    XLA's InfeedThunk (HLO `infeed`): the next value the host put in the
    device's infeed queue, one array per output slice (a tuple's arrays in
    pre-order), each of the slice's size. A run whose queue is empty stops
    with an error.

    ```mlir
    thunk.infeed outs(%a, %b : memref<3xui32>, memref<1xi8>)
    ```
  }];
  let arguments = (ins Arg<Variadic<Thunk_Slice>, "", [MemWrite]>:$outputs);
  let assemblyFormat = "`outs` `(` $outputs `:` type($outputs) `)` attr-dict";
}

def Thunk_OutfeedOp : Thunk_Op<"outfeed"> {
  let summary = "hands the bytes of slices to the host's outfeed queue";
  let description = [{
    XLA's OutfeedThunk (HLO `outfeed`): one value, the arrays of the input
    slices, appended to what the device gives the host.

    ```mlir
    thunk.outfeed ins(%a : memref<3xui32>)
    ```
  }];
  let arguments = (ins Arg<Variadic<Thunk_Slice>, "", [MemRead]>:$inputs);
  let assemblyFormat = "`ins` `(` $inputs `:` type($inputs) `)` attr-dict";
}

def Thunk_SendOp : Thunk_Op<"send"> {
  let summary = "sends the bytes of slices on a channel";
  let description = [{
    XLA's SendThunk (HLO `send`): one value, the arrays of the input
    slices, sent on channel `channel_id`. The runtimes deliver it to a
    `thunk.recv` of the same channel on the same device (the interpreter's
    model: a device's channels are queues); with `is_host_transfer` the
    host receives it (HostSendThunk). A send between devices is a
    `thunk.collective_permute` instead.

    ```mlir
    thunk.send ins(%a : memref<4xf32>) channel 3
    ```
  }];
  let arguments = (ins Arg<Variadic<Thunk_Slice>, "", [MemRead]>:$inputs,
    I64Attr:$channel_id, UnitAttr:$is_host_transfer);
  let assemblyFormat = [{
    `ins` `(` $inputs `:` type($inputs) `)` `channel` $channel_id
    (`host_transfer` $is_host_transfer^)? attr-dict
  }];
}

def Thunk_RecvOp : Thunk_Op<"recv"> {
  let summary = "receives a value on a channel into slices";
  let description = [{
    XLA's RecvThunk (HLO `recv-done`, where the data arrives): the oldest
    value sent on channel `channel_id` not yet received, one array per
    output slice, each of the slice's size; a run where none was sent stops
    with an error. With `is_host_transfer` the host gives the value
    (HostRecvThunk): the next of the run's values for the channel.

    ```mlir
    thunk.recv outs(%a : memref<4xf32>) channel 3
    ```
  }];
  let arguments = (ins Arg<Variadic<Thunk_Slice>, "", [MemWrite]>:$outputs,
    I64Attr:$channel_id, UnitAttr:$is_host_transfer);
  let assemblyFormat = [{
    `outs` `(` $outputs `:` type($outputs) `)` `channel` $channel_id
    (`host_transfer` $is_host_transfer^)? attr-dict
  }];
}

def Thunk_CopyOp : Thunk_Op<"copy"> {
  let summary = "copies the bytes of one slice to another";
  let description = [{
    XLA's DeviceToDeviceCopyThunk: the two slices have the same size in
    bytes; their types may differ (the bytes are copied as they are).

    ```mlir
    thunk.copy %a, %b : memref<64xf32>, memref<256xi8>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead]>:$source,
    Arg<Thunk_Slice, "", [MemWrite]>:$target);
  let assemblyFormat =
      "$source `,` $target attr-dict `:` type($source) `,` type($target)";
  let hasVerifier = 1;
}

def Thunk_DynamicCopyOp : Thunk_Op<"dynamic_copy"> {
  let summary = "copies bytes at offsets that move with a loop's iteration";
  let description = [{
    XLA's dynamic-slice fusions of a copy (DynamicSliceThunk over a
    DeviceToDeviceCopyThunk, its `dynamic_slice_config`: loop_index,
    byte_offset, byte_stride) and its DynamicMemcpyThunk: in the body of the
    innermost enclosing `thunk.while`, which must have a `trip_count`,
    iteration `i` (counted from 0) copies `bytes` bytes from byte
    `source_offset + i * source_stride` of `source` to byte
    `target_offset + i * target_stride` of `target`. What `hlo-to-thunk`
    makes of a `dynamic-slice` (or in-place `dynamic-update-slice`) fusion
    whose offsets are functions of the loop's induction variable, evaluated
    for every iteration at compile time and found affine in it.

    ```mlir
    thunk.dynamic_copy %a[0 + 128 * iteration], %b[0 + 0 * iteration],
        128 bytes : memref<10x4x8xf32>, memref<1x4x8xf32>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemRead]>:$source,
    I64Attr:$source_offset, I64Attr:$source_stride,
    Arg<Thunk_Slice, "", [MemWrite]>:$target,
    I64Attr:$target_offset, I64Attr:$target_stride, I64Attr:$bytes);
  let assemblyFormat = [{
    $source `[` $source_offset `+` $source_stride `*` `iteration` `]` `,`
    $target `[` $target_offset `+` $target_stride `*` `iteration` `]` `,`
    $bytes `bytes` attr-dict `:` type($source) `,` type($target)
  }];
  let extraClassDeclaration = [{
    /// The loop whose iteration moves the offsets: the innermost enclosing
    /// `thunk.while` (null when there is none).
    WhileOp getLoop();
  }];
  let hasVerifier = 1;
}

def Thunk_MemsetOp : Thunk_Op<"memset"> {
  let summary = "fills a slice with a repeated 32-bit pattern";
  let description = [{
    XLA's MemzeroThunk (`value` 0) and Memset32BitValueThunk: every 32-bit
    word of the target holds `value` (little endian). A nonzero value needs
    a target whose size is a multiple of 4 bytes.

    ```mlir
    thunk.memset %a, 0 : memref<64xf32>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemWrite]>:$target,
    I32Attr:$value);
  let assemblyFormat = "$target `,` $value attr-dict `:` type($target)";
  let hasVerifier = 1;
}

include "Hlo/Dialect/Thunk/ThunkCollectiveOps.td"

#endif // HLO_DIALECT_THUNK_THUNKOPS_TD
