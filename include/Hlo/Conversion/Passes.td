//===- Passes.td - hlo to kernels and thunks ---------------*- tablegen -*-===//
//
// Conversions out of the hlo dialect: fusions to `gpu.func` kernels (XLA's
// fusion emitters), kernels to PTX and to host functions. Registered by
// registerHloConversionPasses() (Passes.h); docs/kernels.md documents them.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_CONVERSION_PASSES
#define HLO_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def HloToGpu : Pass<"hlo-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Emit a gpu.func kernel for every fusion (XLA's fusion "
                "emitters)";
  let description = [{
    For every fusion instruction outside fused computations, emits a kernel
    into the module's `gpu.module @kernels` (created when missing; the
    module becomes a `gpu.container_module`) and names it on the fusion
    (`hlo.kernel = @kernels::@<name>`, the fusion's HLO name with `.` and
    `-` as `_`). The kernel takes one flat memref per operand and per
    output, over the buffer in its layout's physical order
    (`memref<N x T>`, T the element's scalar type: pred i1, sN and uN
    signless iN), and records its launch dimensions as `known_block_size`
    and `known_grid_size`.

    Emitters: the loop emitter (XLA's LoopFusion: kLoop fusions, `elements-per-thread`
    consecutive output elements per thread in physical order, so that
    elementwise reads and the writes are 16 bytes wide once LLVM merges
    them (kernel arguments are marked 16-byte aligned),
    `threads-per-block` threads per block; elements generated from the root back to the parameters through
    each instruction's output-to-input indexing map, reduces fused as loops
    by `scf.for` over their range variables, dynamic offsets clamped as HLO
    clamps them, pad and concatenate guarded by their map's constraints).
    A fusion no emitter takes is an error naming it, unless
    `allow-unsupported`, which leaves it without a kernel. A fusion that
    only copies contiguous bytes of an operand (`MemcpyFusionAnalysis`:
    XLA's memcpy fusion, a slice covering whole minor dimensions, and its
    dynamic-slice fusions of a copy, offsets affine in a counted loop's
    iteration) gets no kernel: `hlo-to-thunk` makes it a `thunk.copy` or
    `thunk.dynamic_copy`, as XLA makes it a device-to-device copy. A
    fusion whose kernel comes out identical to an earlier fusion's (the
    same code, argument types and attributes, launch dimensions; its name
    aside) names the earlier kernel instead, as XLA's KernelReuseCache
    makes fusions of the same computation and shapes share one kernel.
  }];
  let options = [
    Option<"threadsPerBlock", "threads-per-block", "int64_t",
           /*default=*/"128",
           "Threads per block of loop kernels (XLA's loop emitter: 128)">,
    Option<"elementsPerThread", "elements-per-thread", "int64_t", /*default=*/"0",
           "Elements per thread of loop kernels (0: XLA's choice: one, or "
           "in kernels with at least as many elements as the GPU has "
           "threads 16 bytes over the widest output element; halved until "
           "it divides the element count)">,
    Option<"allowUnsupported", "allow-unsupported", "bool",
           /*default=*/"false",
           "Leave fusions no emitter takes without a kernel instead of "
           "failing">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::complex::ComplexDialect",
    "::mlir::gpu::GPUDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "Kernels emitted">,
    Statistic<"numReused", "reused",
              "Fusions that launch an identical earlier kernel">,
    Statistic<"numMemcpy", "memcpy",
              "Fusions that copy contiguous bytes (no kernel)">,
    Statistic<"numUnsupported", "unsupported",
              "Fusions left without a kernel (allow-unsupported)">,
  ];
}

def HloGpuKernelsToHost
    : Pass<"hlo-gpu-kernels-to-host", "::mlir::ModuleOp"> {
  let summary = "Turn gpu.func kernels into host functions (grid and block "
                "as loops)";
  let description = [{
    Every `gpu.func` kernel of the module's `gpu.module`s with known launch
    dimensions becomes a public `func.func` of the same name and arguments
    in the top module, which runs the kernel's body once per block and
    thread by calling `<kernel>.blocks(arguments..., first, end)` for the
    whole grid: an `scf.for` loop over the linear block ids [first, end) (x
    fastest) around loops over the block's threads (z, y, x), with
    `gpu.block_id`, `gpu.thread_id`,
    `gpu.block_dim`, `gpu.grid_dim`, `gpu.global_id`, `gpu.lane_id`,
    `gpu.subgroup_id`, `gpu.subgroup_size` (32) and `gpu.num_subgroups`
    replaced, wherever they are, by the loop variables and the launch
    dimensions (linear thread id x + bx * (y + by * z), lane = linear id mod
    32). The kernel module's globals move along; emptied `gpu.module`s are
    erased. The result runs on the CPU through the host JIT (HostJit.h),
    which is how kernels are checked without a GPU. The blocks function is
    public and `noinline` where the blocks are independent (more than one,
    no `memref.atomic_rmw` or `memref.generic_atomic_rmw`): the host runtime
    then runs ranges of blocks on several threads at once. Otherwise it is
    private.

    Threads that synchronize. Contract: `gpu.barrier` and `gpu.shuffle`
    appear only at the top level of the kernel body (every thread of a
    block executes each of them; guarded work is an `scf.if` between them);
    one nested in a region is an error naming it, as is any other GPU op
    (`gpu.rotate`, `gpu.subgroup_reduce`, ...). The body is split into
    phases at each barrier and at each shuffle whose operand is computed in
    the current phase; per block each phase is its own loop nest over the
    block's threads, so all threads finish a phase before any starts the
    next. A value of a scalar type (integer, index, float, complex, vector
    of those) defined in one phase and used in a later one is kept in a
    per-thread array (`memref.alloca` of [threads] x T): stored at the end
    of its phase, loaded where used; constants and GPU index ops are
    recomputed instead, as are side-effect-free ops on them (views,
    `memref.get_global`); any other value used across phases is an error.
    A shuffle reads its partner's slot of its operand's array, as the NVVM
    lowering of `gpu.shuffle` computes (`shfl.sync` with member mask
    2^width - 1, clamp width - 1, or 32 - width for `up`, and no segments):
    for lane l and offset o (mod 32) the source is l ^ o (xor), l + o
    (down), l - o (up), o (idx), valid when at most the clamp (up: at least
    it); an invalid source, or one beyond the block's threads, gives the
    thread's own value with `valid` false. Workgroup attributions are one
    buffer (`memref.alloca`, no address space) that the blocks, run in turn,
    share; private attributions one per thread (with several phases a row
    of a [threads] x shape array, which loads and stores index). A kernel
    without barriers or shuffles is one loop nest per block.
  }];
  let dependentDialects = [
    "::mlir::func::FuncDialect", "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
  ];
}

def HloLowerSubByteBuffers : Pass<"hlo-lower-sub-byte-buffers"> {
  let summary = "Kernel buffers of 2- and 4-bit elements as packed bytes";
  let description = [{
    XLA stores an array of a type narrower than a byte packed (the layout's
    `E(4)`, `E(2)`): element i of the buffer at bit i * w, in byte
    i * w / 8 from its low bits up (the order of XLA's GPU emitters:
    element 0 in the low nibble), which is also how the buffer assignment
    sizes it (`hlo::getShapeByteSize`) and how the thunk runtimes and the
    arena store it. The kernels the emitters write index such buffers
    element by element (`memref<N x i4>`); this pass, run on the kernels
    before they are lowered to LLVM (the PTX and the host pipelines), turns
    every such argument of a kernel (`gpu.func`, or a public `func.func`
    after `hlo-gpu-kernels-to-host`) into `memref<ceil(N * w / 8) x i8>`
    and rewrites its accesses: a load reads the byte and shifts the element
    out; a store, `memref.atomic_rmw` and `memref.generic_atomic_rmw`
    become a `memref.generic_atomic_rmw` of the byte that replaces only the
    element's bits, since two threads may write the two halves of one byte.
    Floats of 4 bits are bit-cast to and from integers of their width.
    Anything else done with such a buffer, a buffer of more than one
    dimension or with a layout, and a called function with such an
    argument are errors. Other element types, 6-bit floats included (a
    byte each), are left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def HloLlvmNarrowFloatsAsIntegers
    : Pass<"hlo-llvm-narrow-floats-as-integers", "::mlir::ModuleOp"> {
  let summary = "f16 and bf16 values that only move as 16-bit integers "
                "(the host JIT's LLVM dialect)";
  let description = [{
    The last step of the host JIT's lowering (HostJit.cpp), on the LLVM
    dialect: after `hlo::createExpandNarrowFloatsPass` and the float
    emulation, nothing computes on f16 or bf16 any more, but their values
    still move: loads, stores, selects, block arguments (phis), constants,
    bit casts, vector element moves. x86-64 has no registers of these
    types; LLVM's code generator keeps them promoted, and LLVM 22
    miscompiles some such code: the sign of a bf16 value that a `select`
    chose and `llvm.fabs.bf16` (InstCombine's form of `and 0x7fff` through
    bit casts) read was lost, so a concatenate's bf16 results came out
    without their signs (found by `fuzz/graph_fuzz.py`;
    `test/Runtime/hlo-run-host-bf16-select.hlo`). Here every such value
    becomes an i16 (vectors of them, vectors of i16) and every constant its
    bits, so no float type of 16 bits reaches LLVM. The few ops that take
    a narrow float for what it is (a call, an `llvm.fpext`, a return) get a
    bit cast back before them; bit casts between equal types go.
    Function signatures are left as they are.
  }];
}

def HloToThunk : Pass<"hlo-to-thunk", "::mlir::ModuleOp"> {
  let summary = "Turn a compiled module into a thunk program";
  let description = [{
    The last step of the GPU compiler (XLA's thunk emission): a scheduled
    module with a buffer assignment (`hlo.buffer_allocations`,
    `hlo.buffer_slices`) whose fusions have kernels (`hlo-to-gpu`) becomes
    a thunk program (docs/thunk.md): a `thunk.allocation @alloc<i>` per
    allocation (constants hold their value in physical order), and a
    `thunk.program @main` with the ENTRY computation's instructions in
    schedule order:
    fusion -> `thunk.kernel` (launch dimensions from the kernel; an output
    aliasing an operand is first copied from it when their slices differ);
    `__cublas$gemm` / `__cublas$lt$matmul` -> `thunk.gemm` (cuBLASLt matrix
    layouts from the dot dimensions and the operands' layouts, alpha, beta
    with C copied into the output, bias and relu/gelu epilogues, the
    selected algorithm, the workspace); while -> `thunk.while` (condition
    and body lowered in place, the predicate the condition's root, the
    known trip count kept); conditional -> `thunk.conditional`; call ->
    its computation in place; tuple, get-tuple-element, bitcast, copy and
    opt-barrier -> nothing where the assignment gives both sides the same
    slices, `thunk.copy`s where it does not. `thunk.return` names the
    slices of the ENTRY result's arrays. The HLO computations and the
    module's `hlo.*` attributes are removed. Anything else (a fusion
    without a kernel, other custom calls, collectives, sort, rng) is an
    error at the instruction.
  }];
  let options = [
    Option<"rngSeed", "rng-seed", "uint64_t", /*default=*/"0",
           "The state each device's rng-get-and-update-state starts from "
           "(the program's rng_seed; XLA's module seed)">,
    Option<"deterministic", "deterministic", "bool", /*default=*/"false",
           "Mark the program deterministic (XLA's "
           "xla_gpu_deterministic_ops): the CUDA runtime takes "
           "deterministic cuDNN algorithms only">,
  ];
  let dependentDialects = ["::mlir::thunk::ThunkDialect",
                           "::mlir::gpu::GPUDialect"];
}

def HloEmbedPtx : Pass<"hlo-embed-ptx", "::mlir::ModuleOp"> {
  let summary = "Attach the PTX of each kernel module to it (`thunk.ptx`)";
  let description = [{
    For every `gpu.module` of kernels in the module (a thunk program's),
    compiles a copy through the NVVM path of `hlo-to-ptx` (libdevice from
    the CUDA toolkit) and stores the PTX text on the original as the string
    attribute `thunk.ptx`: the program then carries the kernel IR the host
    runtime runs and the PTX a CUDA runtime loads. Where `cubin` is set and
    one of NVIDIA's PTX assemblers is found, the PTX is also assembled for
    the chip, as XLA does, and stored as the bytes of `thunk.cubin`, with
    `thunk.cubin_chip` naming the chip: a CUDA runtime on that chip loads
    the cubin instead of compiling the PTX. `assembler` picks it: the
    nvJitLink library in the process (the CUDA toolkit's `lib64`, else the
    library path; it saves ptxas's start-up, some 10 ms a kernel module),
    the `ptxas` program (the toolkit's `bin`, else PATH), or `auto`, the
    first of the two found (no cubin where neither is). Fails, at the
    kernel module, when the kernels cannot be compiled or the assembler
    rejects them, and at the module when the assembler asked for by name
    is not found.

    LLVM's NVPTX back end and the assembler run once per kernel module, one
    after the other, and are most of the GPU compiler's time: a kernel module is
    first split into `kernel-modules` modules of about equal size (counted
    in operations; a fusion's kernels, as `hlo.then_kernels` names them,
    stay together; the references of `thunk.kernel` and any other op follow
    the kernels that move), which are compiled concurrently on the
    context's threads (one after the other where it has none).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "The GPU architecture (default: --hlo-gpu-chip, else the compute "
           "capability of --hlo-gpu-device)">,
    Option<"cubin", "cubin", "bool", /*default=*/"true",
           "Also assemble the PTX into a cubin where an assembler is found">,
    Option<"assembler", "assembler", "std::string", /*default=*/"\"auto\"",
           "The PTX assembler: nvjitlink (in process), ptxas, or auto (the "
           "first found)">,
    Option<"kernelModules", "kernel-modules", "unsigned", /*default=*/"2",
           "Split each kernel module into at most this many, compiled "
           "concurrently (1: keep one)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def HloCommandBufferScheduling
    : Pass<"hlo-command-buffer-scheduling", "::mlir::ModuleOp"> {
  let summary = "Group runs of thunks into command buffers (CUDA graphs)";
  let description = [{
    XLA's CommandBufferScheduling, on the thunk program: every maximal run
    of consecutive kernel launches, GEMMs, copies and memsets (in the
    program, a loop's condition or body, or a conditional's branch) that
    holds at least `min-graph-size` of them becomes one
    `thunk.command_buffer`, which the CUDA runtime records once as a CUDA
    graph and replays with one launch. The slices the run uses are hoisted
    in front of it (they are pure), so values stay defined where they are
    used. Loops and conditionals end a run: their predicate is read on the
    host. The thunks and their order do not change, only how they are
    submitted.
  }];
  let options = [
    Option<"minGraphSize", "min-graph-size", "int64_t", /*default=*/"5",
           "The fewest thunks a command buffer holds (XLA's "
           "xla_gpu_graph_min_graph_size)">,
  ];
  let dependentDialects = ["::mlir::thunk::ThunkDialect"];
}

#endif // HLO_CONVERSION_PASSES
