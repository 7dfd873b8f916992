//===- Passes.td - passes over the hlo dialect -------------*- tablegen -*-===//
//
// XLA's target-independent HLO passes as MLIR passes, named after them
// (`hlo-` + XLA's pass name). They are module passes: HLO's call graph spans
// computations. The other areas have their own files (GpuLibraryPasses.td,
// GpuLayoutPasses.td, GpuFusionPasses.td, CollectivePasses.td); the
// pipelines that group them under XLA's pipeline names are registered in
// lib/Transforms/Pipelines.cpp; docs/passes.md documents every pass.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSFORMS_PASSES
#define HLO_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Pass infrastructure
//===----------------------------------------------------------------------===//

def HloFixedPoint : Pass<"hlo-fixed-point", "::mlir::ModuleOp"> {
  let summary = "Run a pipeline until the module stops changing (XLA's "
                "HloPassFix)";
  let description = [{
    Runs `pipeline` on the module again and again until one run leaves it
    unchanged (the operation fingerprint, attributes and locations included,
    is the same before and after), at most `max-iterations` times. Reaching
    the cap is not an error (XLA only logs it): a warning on the module says
    how many runs were made. `hlo-simplification` is this pass around the
    simplification passes, as XLA wraps its simplification pipeline in
    HloPassFix.

    ```
    hlo-opt --pass-pipeline='builtin.module(hlo-fixed-point{pipeline="hlo-algebraic-simplifier,hlo-dce" max-iterations=25})'
    ```
  }];
  let options = [
    Option<"pipeline", "pipeline", "std::string", /*default=*/"",
           "The pipeline to run, as the body of `builtin.module(...)`">,
    Option<"maxIterations", "max-iterations", "unsigned", /*default=*/"25",
           "The most runs (XLA's kIterationLimit is 25)">,
  ];
}

//===----------------------------------------------------------------------===//
// Simplification
//===----------------------------------------------------------------------===//

def HloDce : Pass<"hlo-dce", "::mlir::ModuleOp"> {
  let summary = "Remove dead instructions and computations (XLA's HloDCE)";
  let description = [{
    Removes every instruction whose result is unused and that has no side
    effect (ops declaring a write or an allocation stay: send, recv, infeed,
    outfeed, custom-calls with side effects, collectives, rng), from the root
    up so that chains of dead instructions go in one run. An instruction that
    is a control predecessor of another is used, so it stays. With
    `remove-dead-computations`, non-entry computations that nothing calls any
    more are removed as well.
  }];
  let options = [
    Option<"removeDeadComputations", "remove-dead-computations", "bool",
           /*default=*/"true",
           "Also remove computations that no instruction calls">,
  ];
  let statistics = [
    Statistic<"numDeadInstructions", "dead-instructions",
              "Instructions removed">,
    Statistic<"numDeadComputations", "dead-computations",
              "Computations removed">,
  ];
}

def HloTupleSimplifier : Pass<"hlo-tuple-simplifier", "::mlir::ModuleOp"> {
  let summary = "Fold tuple/get-tuple-element pairs (XLA's TupleSimplifier)";
  let description = [{
    Rewrites
    - `get-tuple-element(tuple(a0, ..., an), i)` to `ai`;
    - `tuple(get-tuple-element(t, 0), ..., get-tuple-element(t, n))`, taking
      every element of `t` in order and `t` of the same type, to `t`.

    With `exclude-entry-computation`, the entry computation is left alone
    (its root tuple is the program's interface).
  }];
  let options = [
    Option<"excludeEntryComputation", "exclude-entry-computation", "bool",
           /*default=*/"false", "Leave the entry computation alone">,
  ];
  let statistics = [
    Statistic<"numRewrites", "rewrites", "Tuples and elements forwarded">,
  ];
}

def HloZeroSizedHloElimination
    : Pass<"hlo-zero-sized-hlo-elimination", "::mlir::ModuleOp"> {
  let summary = "Replace instructions of zero-element arrays by constants "
                "(XLA's ZeroSizedHloElimination)";
  let description = [{
    An instruction whose result is an array with no element computes nothing
    that can be read: it is replaced by an empty constant of the same shape
    (layout included). Instructions with side effects, constants,
    parameters and instructions with control predecessors or successors are
    left alone; so are tuples and tokens (they are not arrays).
  }];
  let statistics = [
    Statistic<"numReplaced", "replaced", "Instructions replaced">,
  ];
}

def HloCallInliner : Pass<"hlo-call-inliner", "::mlir::ModuleOp"> {
  let summary = "Inline every `call` (XLA's CallInliner)";
  let description = [{
    Replaces each `call` by a copy of the instructions of the computation it
    calls, the call's operands in place of the parameters and the
    computation's root in place of the call's result. Calls inside inlined
    bodies are inlined too. Computations no instruction calls any more are
    removed. With `single-call-site`, only computations called from exactly
    one place are inlined. A call with control predecessors or successors
    is left alone (its ordering edges have no instruction to go to).
  }];
  let options = [
    Option<"singleCallSite", "single-call-site", "bool", /*default=*/"false",
           "Inline only computations that have one call site">,
  ];
  let statistics = [
    Statistic<"numInlined", "inlined-calls", "Calls inlined">,
  ];
}

def HloAsyncToCall : Pass<"hlo-async-to-call", "::mlir::ModuleOp"> {
  let summary = "Generic async-start/update/done chains as a call of their "
                "computation (ours: one stream runs them)";
  let description = [{
    An `async-start` whose computation is not one collective (XLA's generic
    async ops: a computation on another execution thread or stream), its
    `async-update`s and its `async-done` become one `call` of the
    computation at the done, with the start's operands; the call inliner
    then inlines it. The results are the same: asynchrony only lets the
    computation overlap what runs between start and done, and this
    compiler's runtimes run one stream. Asynchronous collectives (an
    async-start of one all-reduce, all-gather, ...) keep their start and
    done thunks. Left alone: chains with control edges, and a start or
    update read by anything but the next op of its chain.
  }];
  let statistics = [
    Statistic<"numConverted", "converted", "Async chains made calls">,
  ];
}

def HloCustomFusionInliner
    : Pass<"hlo-custom-fusion-inliner", "::mlir::ModuleOp"> {
  let summary = "Inline the custom fusions of XLA's dumps that no emitter "
                "takes (XLA CPU's XNNPACK and YNNPACK fusions, XLA GPU's "
                "Triton and cuDNN GEMM fusions)";
  let description = [{
    Ours (XLA has no such pass): a module XLA optimized holds kCustom
    fusions made for its own kernel generators, which no emitter here
    takes: XLA CPU's (their backend config is XLA CPU's `fusion_config`:
    XNNPACK or YNNPACK kernels around dots and elementwise ops) and XLA
    GPU's GEMM fusions (`fusion_backend_config.kind` `__triton_gemm`, the
    nested fusions of XLA's generic Triton emitter
    `__triton_nested_gemm_fusion`, and cuDNN's `__cudnn$fusion`: a dot or
    scaled dot with the operations around it, for a block-level kernel).
    Each becomes the instructions of its fused computation at its place
    (the fusion's operands for the parameters, the root for its result),
    nested ones in turn, and fused computations no fusion calls any more
    are removed, so that `hlo-gpu-optimize`, which runs this pass first,
    compiles such a module as it would the unfused one: the dots become
    cuBLAS GEMMs and the rest is fused again. XLA GPU's `__triton`
    normalization fusions stay (the normalization or reduction emitter
    takes them). Fusions with control edges are left alone (the emitter
    then reports them).
  }];
  let statistics = [
    Statistic<"numInlined", "inlined-fusions", "Custom fusions inlined">,
  ];
}

def HloFlattenCallGraph : Pass<"hlo-flatten-call-graph", "::mlir::ModuleOp"> {
  let summary = "Give every sequential call site a computation of its own "
                "(XLA's FlattenCallGraph)";
  let description = [{
    A computation called from several places in a sequential context (a
    call's `to_apply`, a while's `condition` and `body`, a conditional's
    branches) is cloned, so that each call site calls a computation of its
    own (a pass may then change one without the others). Callers are
    handled before their callees, so computations called from clones are
    flattened too. A fused computation belongs to its fusion (and an
    async-wrapped one to its async-start): one called by two (as after their
    computation was cloned) is cloned too. Computations applied elementwise
    (reduce, map, sort, scatter, ...) stay shared, as in XLA; recursive
    calls are left alone.
  }];
  let statistics = [
    Statistic<"numClones", "clones", "Computations cloned">,
  ];
}

def HloCse : Pass<"hlo-cse", "::mlir::ModuleOp"> {
  let summary = "Common subexpression elimination, computations compared by "
                "structure (XLA's HloCSE)";
  let description = [{
    Merges identical instructions (same opcode, operands, attributes and
    result type; MLIR's CSE over each computation, which keeps instructions
    with side effects apart and never merges two elided constants). With
    `merge-computations` (default on), identical computations are made one
    first (same signature and instructions, locations aside; callees before
    callers), so instructions calling computations compare them by
    structure, not by name. The entry computation, public computations and
    fused computations (one fusion each) are not merged.
  }];
  let options = [
    Option<"mergeComputations", "merge-computations", "bool",
           /*default=*/"true",
           "Make identical computations one before comparing instructions">,
  ];
  let statistics = [
    Statistic<"numMergedComputations", "merged-computations",
              "Computations merged into an identical one">,
  ];
}

def HloConstantFolding : Pass<"hlo-constant-folding", "::mlir::ModuleOp"> {
  let summary = "Evaluate instructions of constants with the interpreter "
                "(XLA's HloConstantFolding)";
  let description = [{
    Replaces an instruction by a constant of its value when at least one
    data operand is a constant and the others are known (constants, or
    broadcasts and iotas of known values, evaluated on the way). The value
    is computed by the reference interpreter. As XLA, it leaves alone:
    broadcasts and iotas themselves (they would grow a scalar into a large
    literal), tuples, after-all, fft, while loops, custom-calls,
    instructions with side effects, replica-id, partition-id and calls of
    computations holding any of these; instructions whose result or
    operands hold more than `max-elements` elements; fused computations;
    instructions with control edges; dynamic shapes. What the interpreter
    cannot evaluate stays as it is.
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t",
           /*default=*/"45000000",
           "Largest result, or sum of operands, in elements (XLA's "
           "kMaximumConstantSizeElements)">,
  ];
  let statistics = [
    Statistic<"numFolded", "folded-instructions",
              "Instructions replaced by constants">,
  ];
}

def HloWhileLoopSimplifier
    : Pass<"hlo-while-loop-simplifier", "::mlir::ModuleOp"> {
  let summary = "Remove, inline and shrink while loops (XLA's "
                "WhileLoopSimplifier)";
  let description = [{
    The five rules of XLA's WhileLoopSimplifier (seed 002, section 3.7):
    a loop whose body runs no time is its init value; one whose body runs
    once is a copy of its body on the init; state elements that nothing
    reads are removed; elements with the same init that the body passes on
    unchanged become one; a state holding nested tuples is flattened. The
    trip count comes from the loop's `known_trip_count` backend config or
    from XLA's brute force: the condition and the update of an induction
    variable with a constant init are evaluated, up to one update.
    Removing a loop needs a condition without side effects, inlining it a
    body without side effects too; loops with control edges are left
    alone. Rewritten loops get
    new condition and body computations; the old ones are removed when
    nothing calls them any more.
  }];
  let statistics = [
    Statistic<"numLoopsRemoved", "loops-removed",
              "Loops replaced by their init or their body">,
    Statistic<"numElementsRemoved", "loops-shrunk",
              "Loops whose state lost unread or repeated elements">,
    Statistic<"numFlattened", "loops-flattened",
              "Loops whose nested tuple state was flattened">,
  ];
}

def HloWhileLoopTripCountAnnotator
    : Pass<"hlo-while-loop-trip-count-annotator", "::mlir::ModuleOp"> {
  let summary = "Record each while loop's trip count (XLA's "
                "WhileLoopTripCountAnnotator)";
  let description = [{
    Sets `known_trip_count` in the backend config of every while loop whose
    trip count XLA's analysis finds: a counted loop (an integer induction
    variable with a constant init, a constant step added by the body and a
    comparison with a constant in the condition, without wrapping around)
    by arithmetic, any other by evaluating the condition and the update up
    to `max-brute-force-iterations` times. Loops that already have a
    trip count and loops with control edges are left alone. hlo-to-thunk
    gives the count to `thunk.while`, so that a runtime need not read the
    predicate back after every iteration.
  }];
  let options = [
    Option<"maxBruteForceIterations", "max-brute-force-iterations",
           "int64_t", /*default=*/"128",
           "Updates the brute-force count evaluates at most (XLA's "
           "max_brute_force_iters)">,
  ];
  let statistics = [
    Statistic<"numAnnotated", "loops-annotated",
              "Loops given a known trip count">,
  ];
}

def HloWhileLoopConstantSinking
    : Pass<"hlo-while-loop-constant-sinking", "::mlir::ModuleOp"> {
  let summary = "Sink loop-invariant constants into while loops (XLA's "
                "WhileLoopConstantSinking)";
  let description = [{
    A while state element whose init is a constant and that the body passes
    on unchanged is read, in the body and the condition, as a copy of the
    constant (seed 002, section 3.6). The root still passes the element on;
    hlo-while-loop-simplifier removes it once nothing reads it. Callers are
    visited first, so constants reach nested loops in one run. Loops whose
    computations are called elsewhere too, and loops with control edges,
    are left alone.
  }];
  let options = [
    Option<"sinkBroadcastOfConstants", "sink-broadcast-of-constants", "bool",
           /*default=*/"false",
           "Also sink a broadcast of a constant">,
    Option<"sinkOnlyScalarConstants", "sink-only-scalar-constants", "bool",
           /*default=*/"false", "Sink rank-0 values only">,
  ];
  let statistics = [
    Statistic<"numSunk", "sunk", "State elements sunk into their loop">,
  ];
}

def HloAlgebraicSimplifier
    : Pass<"hlo-algebraic-simplifier", "::mlir::ModuleOp"> {
  let summary = "Algebraic identities of HLO (XLA's AlgebraicSimplifier)";
  let description = [{
    Applies, until none matches, the folders and canonicalization patterns
    of the hlo ops (A+0 and A-0 for integers, A*1, max(A, A), A&A, negate
    and not twice, identity reshape, broadcast, transpose, reverse, slice,
    pad, concatenate, convert and bitcast, select of a constant predicate,
    reshape, broadcast and transpose chains, get-tuple-element of a tuple,
    dynamic-slice at constant indices, arithmetic on constants; constants
    kept on the right of commutative ops) and the simplifier's own rewrites,
    as XLA's AlgebraicSimplifier makes them:
    - integers: A-A = 0, A*0 = 0, compare(A, A); (A+C1)+C2 = A+(C1+C2)
      and (A*C1)*C2 = A*(C1*C2) (floats too, as XLA);
    - power by a constant 0, 1, 2, 3 (and -1 for floats); select of equal
      branches; abs of a value known non-negative (abs, an iota, a
      non-negative constant, for floats exp and A*A);
    - A*C+B*C = (A+B)*C for integers (floats when C is a constant +-2^k,
      or with `enable-floats-are-real`), both multiplies with no other user;
    - divide: A/1 = A; unsigned or non-negative A/2^k = A>>k and A%2^k =
      A&(2^k-1), other signed ones the same on |A|, negated for negative
      A; (A%B)%B = A%B; for floats (A/B)/C = A/(B*C) and A/(B/C) =
      (A*C)/B (the inner divide with no other user),
      A/C = A*(1/C), A/sqrt(B) = A*rsqrt(B) and
      A/rsqrt(B) = A*sqrt(B) (sqrt/rsqrt with no other user),
      exp(A)/exp(B) = exp(A-B), A/exp(B) = A*exp(-B),
      A/pow(B, C) = A*pow(B, -C); rsqrt(1/A) = sqrt(A);
    - slice of a slice, slice of a concatenate within one operand,
      concatenate without empty operands and with adjacent unit-stride
      slices of one array merged; dynamic-update-slice of a full-size update
      (the update) or an empty one (the operand);
    - reduce adding nothing up (size-1 or no reduced dimensions: a reshape
      with the reducer's identity as init, else a map of the reducer over
      the init and the reshape; an empty operand: the init broadcast),
      reduce of a transpose keeping the kept dimensions' order, of a
      reshape that only merged or split reduced dimensions, of a reduce
      with the same reducer and identity inits, of a concatenate (a map of
      the operands' reduces), reduce-add of a dot over batch dimensions (a
      dot contracting them);
    - reduce-window of an empty array or a scalar, with one-element windows
      (an elementwise op, padded), with windows spanning whole dimensions (a
      reduce), of a pad by the init (folded into the window);
    - dot of an empty operand (zeros), dot with no contracting dimension
      above size 1 (a multiply of broadcasts), dot where an operand has only
      batch and contracting dimensions (a reduce of a multiply), dot of a
      concatenate and a constant (a sum of dots), dot of a dynamic-slice of
      a constant and a constant (a dynamic-slice of their dot);
    - convert pairs through an exact widening, bitcast-convert pairs;
      pad of a broadcast scalar by that scalar, broadcast of an iota;
    - a reshape, transpose, reverse, slice, dynamic-slice or one-array
      sort of a broadcast scalar (the scalar broadcast to its shape);
      broadcast of an operand with size-1 dimensions (a broadcast of the
      operand reshaped without them; not with `layout-sensitive`);
    - gather from one element (a broadcast of it), gather of single
      elements from a vector of at most `very-small-gather-size` elements
      (a chain of selects); scatter of no update elements (the operands),
      scatter of one update as large as its operand with no start indices
      (a map of the combiner); sort along a dimension of at most one
      element (the operands); a copy of its operand's type (the operand;
      not the entry's root copy with a sharding) and a copy of a copy
      (one copy);
    - slice and dynamic-slice of a broadcast (a broadcast of the slice),
      reverse of a reverse, pad with negative edges (a pad and a slice),
      slice of a pad within its operand or its padding, constants of one
      value (a broadcast scalar), reduce-add of a broadcast over the
      dimensions it made (init + A * N);
    - A+0, A*1, max(A, lowest), min(A, highest), A&~0, A|0, A^0 through
      broadcast constants (A), A&0 and A|~0 (the constant), (-A)*(-B) =
      A*B and A-C = A+(-C), floats too; a broadcast inserting only size-1
      dimensions as a reshape, an elementwise op of broadcasts of one
      array and of scalars as the op on the array, broadcast after it
      (both not with `layout-sensitive`); max(min(A, H), L) and min(max(A, L), H) as clamp(L, A, H);
      select(not(P), A, B) = select(P, B, A); convert(P)*B =
      select(P, B, 0); and XLA's identities of real numbers, which
      overflow and NaN can break: log(exp(A)) = A,
      exp(A)*exp(B) = exp(A+B), sqrt(A*A) = |A|,
      log(pow(A, B)) = B*log|A| (0 for B = 0), log(sqrt(A)) = log(A)/2;
    - clamp of a clamp whose bounds hold the outer ones; real and imag of
      a complex, complex of a real and an imag; select(P, true, false) =
      P and select(P, false, true) = not(P); a map of one instruction
      (that instruction); an iota along a size-1 dimension (zeros); a
      transpose moving only size-1 dimensions (a reshape; not with
      `layout-sensitive`); a concatenate with a broadcast scalar at an end
      (a pad); a dynamic-slice of a dynamic-slice (one, at the sum of the
      clamped starts);
    - convolution of a pad by +0 (the pad in the window), of a kernel
      spread by interior zeros (window dilation), of an empty operand
      (zeros), a depthwise convolution whose windows are one element or
      whole dimensions (a multiply by the kernel, summed over those
      dimensions; not with `layout-sensitive`), a kernel larger than the
      input (the operands swapped where hlo-gpu-conv-rewriter takes the
      result; not with `layout-sensitive`); a dot of two transposes
      permuting alike (a transpose of the dot); transpose of a broadcast
      keeping its operand's dimensions in order (a broadcast); reduce-window
      of a convert of a pad (folded through it), of a pad around size-1
      dimensions every window reaches (a broadcast); a pad folds only for
      the reducer's identity init or a max, min, and or or reducer;
    - and/or of two bounds of one integer value (the tighter or looser
      compare), max(max(A, C1), C2) = max(A, max(C1, C2)) and min alike;
      bitcast-convert of a concatenate of bitcast-converts back (the
      concatenate of their operands); reshape(transpose(reshape(A))) as a
      transpose of A (and a reshape) where the transpose moves the
      reshape's runs whole (not with `layout-sensitive`);
    - transpose of a dot swapping its free dimensions (the dot of the
      operands swapped), dot of a constant and a reshape of a transpose
      within the contracting dimension (the reshape of the operand and
      the constant permuted; both not with `layout-sensitive`);
      select between an array and an update of one slice of it (the
      select within the slice), select(compare(A, B), A, B) of preds (or,
      and, A or B), A + scatter(zeros, I, U) with an add combiner
      (scatter(A, I, U)).
    Float A*0, A-A and x==x (which XLA leaves too: NaN and infinity break
    them) are not applied.
    Instructions with control predecessors are left alone, and tuple or
    dynamic shapes are skipped by the shape rewrites.
    With `layout-sensitive` (XLA's is_layout_sensitive, which the GPU
    pipeline sets after layout assignment) the instructions the rewrites
    create, which the shape rules give no layout, take one from their
    operands as layout assignment would (a slice, an elementwise op or a
    concatenate its operand's, a transpose or reshape the layout that
    makes it a bitcast when there is one, a reduce its input's without the
    reduced dimensions, anything else the default), so that every array
    keeps an explicit layout.
  }];
  let options = [
    Option<"enablePowerRewrites", "enable-power-rewrites", "bool",
           /*default=*/"true",
           "Rewrite power by a constant 0, 1, 2, 3 or -1">,
    Option<"enableDotToMultiplyRewrite", "enable-dot-to-multiply-rewrite",
           "bool", /*default=*/"true",
           "Rewrite a dot with no contracting dimension of size above 1 as "
           "a multiply of broadcasts (XLA's enable_dot_to_multiply_rewrite)">,
    Option<"enableDotStrengthReduction", "enable-dot-strength-reduction",
           "bool", /*default=*/"true",
           "Rewrite a dot where an operand has only batch and contracting "
           "dimensions as a reduce of a multiply (XLA's "
           "enable_dot_strength_reduction)">,
    Option<"enableFloatsAreReal", "enable-floats-are-real", "bool",
           /*default=*/"false",
           "Treat floats as reals: A*C+B*C = (A+B)*C for every float C "
           "(XLA's enable_floats_are_real)">,
    Option<"enableWindowReduceToReduceReplacement",
           "enable-window-reduce-to-reduce-replacement", "bool",
           /*default=*/"true",
           "Rewrite a reduce-window whose windows span whole dimensions as a "
           "reduce (XLA's enable_window_reduce_to_reduce_replacement)">,
    Option<"enableUnconditionalReduceOfConcatReplacement",
           "enable-unconditional-reduce-of-concat-replacement", "bool",
           /*default=*/"true",
           "Rewrite a reduce of a concatenate of operands of different "
           "shapes too (XLA's "
           "enable_unconditional_reduce_of_concat_replacement)">,
    Option<"layoutSensitive", "layout-sensitive", "bool",
           /*default=*/"false",
           "Give the instructions the rewrites create layouts from their "
           "operands (XLA's is_layout_sensitive, set after layout "
           "assignment)">,
    Option<"verySmallGatherSize", "very-small-gather-size", "int64_t",
           /*default=*/"4",
           "Rewrite a gather of single elements from a vector of at most "
           "this many elements as selects (XLA's very_small_gather_size)">,
  ];
}

def HloBatchNormExpander
    : Pass<"hlo-batchnorm-expander", "::mlir::ModuleOp"> {
  let summary = "Expand batch-norm instructions into elementwise ops and "
                "reductions (XLA's BatchNormExpander)";
  let description = [{
    Rewrites, each when its option is set (all off by default, as in XLA):
    - `batch-norm-training` into the per-feature sums of x and x*x
      (`reduce` with a new scalar add computation over every dimension but
      `feature_index`), mean = E[x], variance = E[x^2] - E[x]^2, and
      (x - mean) * rsqrt(variance + epsilon) * scale + offset, tupled with
      mean and variance;
    - `batch-norm-inference` into x * s + (offset - mean * s) with
      s = scale * rsqrt(variance + epsilon), per feature then broadcast;
    - `batch-norm-grad` into sum(dy), sum(dy * (x - mean)), the scale
      gradient sum(dy * (x - mean)) * rsqrt(variance + epsilon) and the
      operand gradient scale * rsqrt(variance + epsilon) / N *
      (N * dy - sum(dy) - (x - mean) * sum(dy * (x - mean)) /
      (variance + epsilon)).
    Computed in the operand's element type; N is the number of elements per
    feature. Instructions added for a sharded batch norm get the operand's
    sharding when they have the operand's shape, otherwise replicated (or
    the unique device). Left alone: instructions with control predecessors,
    dynamic shapes, and fused computations.
  }];
  let options = [
    Option<"rewriteTrainingOp", "rewrite-training-op", "bool",
           /*default=*/"false", "Expand batch-norm-training">,
    Option<"rewriteInferenceOp", "rewrite-inference-op", "bool",
           /*default=*/"false", "Expand batch-norm-inference">,
    Option<"rewriteGradOp", "rewrite-grad-op", "bool", /*default=*/"false",
           "Expand batch-norm-grad">,
  ];
  let statistics = [
    Statistic<"numExpanded", "expanded", "Batch-norm instructions expanded">,
  ];
}

def HloDynamicPadder : Pass<"hlo-dynamic-padder", "::mlir::ModuleOp"> {
  let summary = "Pad bounded dynamic dimensions to static shapes, masking "
                "the padding where it would be read (XLA's DynamicPadder)";
  let description = [{
    Finds the runtime size (an s32 scalar) of every bounded dynamic
    dimension of the entry computation: from `set-dimension-size`, from a
    `SliceToDynamic` custom call, and, for the entry's parameters, from a
    `PadToStatic` custom call the pass adds (XLA's custom calls: the array
    at its bounds and one s32 per dimension). Sizes flow through
    elementwise ops, broadcast, transpose, reshape (a dynamic dimension
    that is the most major of its group), reduce, dot, convolution, slice,
    concatenate, pad, reverse, reduce-window, sort and all-reduce. What
    would read the padding is rewritten: reduced dimensions are masked with
    the reduce's init value, contracted ones (dot, convolution) with zero,
    padded ones with the pad value (`select(iota < size, x, identity)`); a
    concatenate along a dynamic dimension becomes dynamic-update-slices at
    the running sum of the sizes; `get-dimension-size` becomes the size,
    `set-dimension-size` its operand. Then every type is static. With
    `slice-dynamic-output` (XLA's default) each dynamic result of the entry
    leaves through `SliceToDynamic`, so the signature is unchanged. Fails,
    with an error at the instruction, on what it cannot pad: dynamic
    dimensions in called computations, unbounded dimensions, tuples other
    than the entry's root, reshapes that would move a dynamic dimension's
    data, reversed, sorted or windowed dynamic dimensions, other opcodes.
  }];
  let options = [
    Option<"sliceDynamicOutput", "slice-dynamic-output", "bool",
           /*default=*/"true",
           "Return the entry's dynamic results through SliceToDynamic "
           "(otherwise they are returned padded, at their bounds)">,
  ];
  let statistics = [
    Statistic<"numPadded", "padded", "Modules whose dynamic dimensions were "
                                     "padded">,
  ];
}

def HloDotDecomposer : Pass<"hlo-dot-decomposer", "::mlir::ModuleOp"> {
  let summary = "Rewrite every dot into canonical form (XLA's "
                "DotDecomposer)";
  let description = [{
    A dot is canonical when each operand has its batch dimensions first and
    in order, one contracting dimension and at most one non-contracting
    dimension. Any other dot becomes a canonical one: each operand is
    transposed to [batch, non-contracting, contracting] (lhs) or [batch,
    contracting, non-contracting] (rhs) and reshaped to [batch,
    product of non-contracting, product of contracting] (rhs: contracting
    before non-contracting), a non-contracting product of 1 left out; the
    new dot's result is reshaped to the original one. Dots without
    contracting dimensions contract one dimension of size 1. Left alone:
    canonical dots, sparse dots, dots with dynamic shapes or control
    predecessors, and fused computations.
  }];
  let statistics = [
    Statistic<"numCanonicalized", "canonicalized", "Dots rewritten">,
  ];
}

def HloOperandUpcaster : Pass<"hlo-operand-upcaster", "::mlir::ModuleOp"> {
  let summary = "Convert dot and convolution operands to the result's "
                "element type (XLA's OperandUpcaster)";
  let description = [{
    For a `dot` or `convolution` whose result element type ranks at least
    as high as the type inferred from its operands (the higher-precision
    one of lhs and rhs, XLA's HigherPrecisionType: complex over real, then
    float range, float precision, bit width, signed over unsigned), converts
    each operand of another element type to the result's: `bf16 x bf16 ->
    f32` becomes `convert(lhs) x convert(rhs) -> f32`. Left alone:
    instructions whose operands and result already share one type, those
    whose result ranks below the inferred type (see `hlo-result-caster`),
    operand types XLA cannot rank, and fused computations. Packed-nibble
    precision is not expanded. With `skip-cublas-matmuls` (XLA-GPU's
    upcaster filter, which `hlo-optimization` sets; it applies when the
    selected GPU is a Volta or later) dots that are matrix multiplications
    cuBLAS runs (XLA's IsCublasSupportedMatMul without matrix-vector
    products), of no operand narrower than 16 bits (f8 GEMMs are not here),
    are left alone too: cuBLAS multiplies `bf16 x bf16 -> f32` and
    `s8 x s8 -> s32` itself, and `hlo-dot-operand-converter` gives mixed
    operands one type.
  }];
  let options = [
    Option<"skipCublasMatmuls", "skip-cublas-matmuls", "bool",
           /*default=*/"false",
           "Leave alone dots that cuBLAS runs as matrix multiplications">,
  ];
  let statistics = [
    Statistic<"numUpcast", "upcast", "Instructions whose operands were "
              "converted">,
  ];
}

def HloDotOperandConverter
    : Pass<"hlo-dot-operand-converter", "::mlir::ModuleOp"> {
  let summary = "Give a dot's two operands one element type (XLA-GPU's "
                "DotOperandConverter)";
  let description = [{
    For a `dot` whose lhs and rhs element types differ, converts the one
    that ranks lower (XLA's HigherPrecisionType: complex over real, then
    float range, float precision, bit width, signed over unsigned) to the
    other's type, its layout kept: `s8 x bf16 -> f32` becomes
    `convert(s8 -> bf16) x bf16 -> f32`. The dot keeps its result type,
    dimension numbers, precision, name and attributes. Left alone: two
    types of XLA's mixed f8 GEMMs (f8e4m3fn, f8e5m2 and their fnuz forms,
    which cuBLAS takes mixed), two types XLA ranks equally (where XLA's
    pass stops the compiler), ragged and scaled dots, fused computations.
    Runs in `hlo-optimization` after `hlo-operand-upcaster`, which leaves
    cuBLAS matmuls to it.
  }];
  let statistics = [
    Statistic<"numConverted", "converted", "Dots whose operand was "
              "converted">,
  ];
}

def HloResultCaster : Pass<"hlo-result-caster", "::mlir::ModuleOp"> {
  let summary = "Compute dot and convolution in the operands' type and "
                "convert the result (XLA's ResultCaster)";
  let description = [{
    For a `dot` or `convolution` whose declared result element type ranks
    below the type inferred from its operands (the higher-precision one of
    lhs and rhs, XLA's HigherPrecisionType), the instruction produces the
    inferred type and a `convert` to the declared type replaces its uses:
    `f32 x f32 -> bf16` becomes `convert(f32 x f32 -> f32)`. Never a
    downcast of the computation: a result that ranks higher is left to
    `hlo-operand-upcaster`. Left alone: types XLA cannot rank and fused
    computations.
  }];
  let statistics = [
    Statistic<"numCast", "cast", "Instructions whose result was converted">,
  ];
}

def HloScatterExpander : Pass<"hlo-scatter-expander", "::mlir::ModuleOp"> {
  let summary = "Rewrite scatters as while loops (XLA's ScatterExpander)";
  let description = [{
    Replaces a scatter by a while loop over its index vectors, whose
    condition and body are new private computations. Each iteration reads
    one index vector, makes the start of its window in the operand
    (`scatter_dims_to_operand_dims`, `index_vector_dim`, inserted window and
    batching dimensions), dynamic-slices the operand window and the update
    window, combines them elementwise with a `map` of the update computation
    and dynamic-update-slices the result back; a window that does not fit
    in the operand is left unchanged, as HLO skips it. Variadic scatters
    update all their operands in the same loop (one computation per output,
    taken from the update computation). A scatter with no update element
    becomes its operands.

    `mode` (XLA's ScatterExpander::Mode) picks the scatters:
    - `eliminate-all-scatters`: every scatter;
    - `eliminate-simple-scatters`: scatters of one index vector (the loop
      runs once; the while-loop simplifier removes it);
    - `eliminate-indeterministic-scatters`: scatters whose result may
      depend on the order of updates: indices not marked unique, more than
      one index vector, and an update computation that is not a single
      minimum or maximum, or add, multiply, or, xor of integers.

    Left alone: scatters with control predecessors, dynamic shapes, or
    2^31 index vectors or more.
  }];
  let options = [
    Option<"mode", "mode", "::mlir::hlo::ScatterExpanderMode",
           /*default=*/"::mlir::hlo::ScatterExpanderMode::EliminateAll",
           "Which scatters to expand (XLA's ScatterExpander::Mode)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::hlo::ScatterExpanderMode::EliminateAll,
                        "eliminate-all-scatters", "every scatter"),
             clEnumValN(::mlir::hlo::ScatterExpanderMode::EliminateSimple,
                        "eliminate-simple-scatters",
                        "scatters of one index vector"),
             clEnumValN(
                 ::mlir::hlo::ScatterExpanderMode::EliminateIndeterministic,
                 "eliminate-indeterministic-scatters",
                 "scatters whose result may depend on the update order"))}]>,
  ];
  let statistics = [
    Statistic<"numExpanded", "expanded", "Scatters expanded">,
  ];
}

def HloGpuScatterExpander
    : Pass<"hlo-gpu-scatter-expander", "::mlir::ModuleOp"> {
  let summary = "Rewrite the scatters XLA:GPU cannot run as while loops "
                "(XLA's GpuScatterExpander)";
  let description = [{
    hlo-scatter-expander's expansion, applied only to the scatters XLA:GPU
    has no kernel for: elements wider than 64 bits (c128), and variadic
    scatters unless their indices are marked unique. XLA runs it before
    hlo-scatter-expander.
  }];
  let statistics = [
    Statistic<"numExpanded", "expanded", "Scatters expanded">,
  ];
}

def HloGatherExpander : Pass<"hlo-gather-expander", "::mlir::ModuleOp"> {
  let summary = "Rewrite gathers as while loops (XLA's GatherExpander)";
  let description = [{
    Replaces a gather by a while loop over its index vectors, whose
    condition and body are new private computations. Each iteration reads
    one index vector, dynamic-slices its window (`slice_sizes`, start
    clamped as gather clamps it) and dynamic-update-slices it, without its
    collapsed and batching dimensions, into row i of an accumulator; after
    the loop the accumulator is reshaped to the batch dimensions and
    transposed into the gather's dimension order. A gather whose slice is
    the whole operand becomes a reshape and a broadcast.

    `mode` (XLA's GatherExpander::Mode) picks the gathers:
    - `eliminate-all-gathers`: every gather;
    - `eliminate-simple-gathers`: gathers of one index vector (a loop of one
      trip) and gathers of the whole operand.

    Left alone: gathers of no result element (hlo-zero-sized-hlo-elimination
    handles them), with control predecessors, dynamic shapes, or 2^31
    index vectors or more.
  }];
  let options = [
    Option<"mode", "mode", "::mlir::hlo::GatherExpanderMode",
           /*default=*/"::mlir::hlo::GatherExpanderMode::EliminateAll",
           "Which gathers to expand (XLA's GatherExpander::Mode)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::hlo::GatherExpanderMode::EliminateAll,
                        "eliminate-all-gathers", "every gather"),
             clEnumValN(::mlir::hlo::GatherExpanderMode::EliminateSimple,
                        "eliminate-simple-gathers",
                        "gathers of one index vector or of the whole "
                        "operand"))}]>,
  ];
  let statistics = [
    Statistic<"numExpanded", "expanded", "Gathers expanded">,
  ];
}

def HloBatchedGatherScatterNormalizer
    : Pass<"hlo-batched-gather-scatter-normalizer", "::mlir::ModuleOp"> {
  let summary = "Batching dimensions of gathers and scatters as index "
                "vector components (XLA's BatchedGatherScatterNormalizer)";
  let description = [{
    A gather or scatter with batching dimensions (`operand_batching_dims` /
    `input_batching_dims` and their partners among the indices'
    dimensions) becomes one without: an iota per batching dimension,
    counting along the indices' batching dimension, is concatenated before
    the index vectors (an implicit index vector dimension made explicit
    first), the operand batching dimensions are put first in
    `start_index_map` / `scatter_dims_to_operand_dims` and join
    `collapsed_slice_dims` / `inserted_window_dims` (sorted). XLA-GPU runs it
    first in its optimization pipeline, so the passes after it (gather
    simplifier, expanders, emitters) see no batching dimensions. Changed in
    place (name, result and metadata kept). The iotas have the indices'
    element type unless a batch coordinate would not fit (then the indices
    become s32, or s64); `indices_are_sorted` is kept only when the indices
    batching dimensions lead, in order. Left alone: dynamic index shapes
    and fused computations.
  }];
  let statistics = [
    Statistic<"numNormalized", "normalized", "Gathers and scatters rewritten">,
  ];
}

def HloGatherSimplifier : Pass<"hlo-gather-simplifier", "::mlir::ModuleOp"> {
  let summary = "Rewrite every gather into canonical form (XLA's "
                "GatherSimplifier)";
  let description = [{
    A gather is canonical when its indices are a [N, K] matrix (index vector
    dimension 1), no slice dimension is collapsed and its offset dimensions
    are 1..rank (XLA's GatherSimplifier, which XLA 0.10.2 runs first in its
    simplification pipeline; the indexing analysis and the cost model read
    such gathers: without it a gather counts as reading its whole operand).
    Any other gather becomes a canonical one, with the same start_index_map
    and slice sizes, of the indices with the index vector dimension moved
    last (added, of size 1, when implicit) and the others flattened to N;
    its [N, window] result is reshaped without the collapsed dimensions and
    with the indices' batch dimensions for N, then transposed to put the
    offset dimensions where the gather had them. Identity transposes and
    reshapes are not created. A gather with a slice size of 0 is a
    broadcast zero, a gather from a scalar a broadcast of it. Left alone:
    canonical gathers, gathers with batching dimensions (XLA's
    batched-gather normalizer removes those first), dynamic shapes,
    control predecessors or successors, and fused computations.
  }];
  let statistics = [
    Statistic<"numSimplified", "simplified", "Gathers rewritten">,
  ];
}

def HloSimplifyFPConversions
    : Pass<"hlo-simplify-fp-conversions", "::mlir::ModuleOp"> {
  let summary = "A chain of floating-point converts as one convert (XLA's "
                "SimplifyFPConversions)";
  let description = [{
    XLA's SimplifyFPConversions, run by XLA-GPU after float normalization
    and in its post-layout pipeline (xla_allow_excess_precision, on by
    default). A chain of converts to real floating-point types (at least
    two) becomes one convert from the chain's input to the chain's result
    type, or the input itself when it has that type:
    `convert_f32(convert_bf16(x_f32))` is `x_f32`. Unlike the algebraic
    simplifier's removal of lossless round trips, this removes rounding
    the program asked for: results may be more precise than the module's
    own. The chain's input may be of any type (`convert_bf16(convert_f32(
    y_s32))` is `convert_bf16(y_s32)`). Converts of the chain that others
    read stay for them; converts with control edges are left alone.
  }];
  let statistics = [
    Statistic<"numSimplified", "simplified", "Chains of converts replaced">,
  ];
}

def HloConvertMover : Pass<"hlo-convert-mover", "::mlir::ModuleOp"> {
  let summary = "Move data in the narrower type of a convert next to it "
                "(XLA's ConvertMover)";
  let description = [{
    XLA's ConvertMover, which XLA-GPU runs after its simplification loop
    ("simplification-2", with the algebraic simplifier). A concatenate,
    pad, reshape, slice or transpose whose operands are all widening
    converts from one type (read by it alone) or constants that type holds
    exactly runs on the narrow values, one convert after it; a narrowing
    convert of such an instruction read by it alone becomes the instruction
    on converts of its operands, which keep rising. Sub-byte types other
    than pred do not move; complex and pred constants are not taken. Left
    alone: dynamic shapes, control edges, fused computations.
  }];
  let statistics = [
    Statistic<"numSunk", "sunk", "Widening converts moved below an "
                                 "instruction">,
    Statistic<"numRaised", "raised", "Narrowing converts moved above an "
                                     "instruction">,
  ];
}

def HloConditionalCanonicalizer
    : Pass<"hlo-conditional-canonicalizer", "::mlir::ModuleOp"> {
  let summary = "Conditionals pass and return tuples (XLA's "
                "ConditionalCanonicalizer)";
  let description = [{
    XLA's ConditionalCanonicalizer, which XLA-GPU runs in its optimization
    pipeline after the logistic expander. A branch computation whose
    parameter is not a tuple takes a one-element tuple (a get-tuple-element
    reads it); one whose root is not a tuple returns a one-element tuple.
    Each conditional passes its non-tuple branch operands as one-element
    tuples, and one whose result is not a tuple returns a one-element tuple
    that a get-tuple-element reads for its users. A branch computation that
    another instruction than a conditional also calls is copied first.
  }];
  let statistics = [
    Statistic<"numCanonicalized", "canonicalized",
              "Conditionals whose operands or result became tuples">,
    Statistic<"numBranchesCopied", "branches-copied",
              "Branch computations copied because others call them too">,
  ];
}

def HloReduceWindowRewriter
    : Pass<"hlo-reduce-window-rewriter", "::mlir::ModuleOp"> {
  let summary = "Scans as trees of short reduce-windows; rank-1 "
                "reduce-windows on [N, 1] (XLA's ReduceWindowRewriter)";
  let description = [{
    XLA's ReduceWindowRewriter, which XLA-GPU runs in its optimization
    pipeline with a base length of 16. A reduce-window that is a prefix or
    suffix scan (one non-trivial window dimension of length N spanning it,
    padded by N - 1, or N for an exclusive scan, on one side) longer than
    the base length B becomes the scans of rows of B elements, the
    exclusive scan of the row totals (rewritten again while longer than B)
    and the reducer combining the two, so each element reduces about
    2B values instead of up to N. Taken only when the init value may be
    folded in more than once: a reducer of one binary op whose identity
    the init is, or minimum, maximum, and, or. A rank-1 reduce-window
    not rewritten so is computed on [N, 1] and reshaped back. Left alone:
    variadic scans, dynamic shapes, control edges, fused computations.
  }];
  let options = [
    Option<"baseLength", "base-length", "int64_t", /*default=*/"16",
           "Length of the rows a scan is split into (XLA-GPU: 16; 1 or "
           "less: no scan is rewritten)">,
  ];
  let statistics = [
    Statistic<"numScans", "scans", "Scans rewritten as trees">,
    Statistic<"numRank1", "rank1", "Rank-1 reduce-windows computed on "
                                   "[N, 1]">,
  ];
}

def HloSelectAndScatterExpander
    : Pass<"hlo-select-and-scatter-expander", "::mlir::ModuleOp"> {
  let summary = "select-and-scatter as a reduce-window and a scatter "
                "(XLA's SelectAndScatterExpander)";
  let description = [{
    XLA's SelectAndScatterExpander. A variadic reduce-window over the
    operand and one s32 iota per dimension (inits: the init value and -1)
    finds each window's selected element and its position, with the select
    computation inlined into its reducer; the positions, concatenated, are
    the indices of a scatter of the source into the init value broadcast,
    combined by the scatter computation. Registered for pipelines that want
    XLA's form; the GPU pipelines here do not run it (`hlo-to-gpu` computes
    a select-and-scatter in one loop kernel without atomics). Left alone:
    dynamic shapes, control edges, fused computations.
  }];
  let statistics = [
    Statistic<"numExpanded", "expanded", "select-and-scatters expanded">,
  ];
}

def HloSliceSinker : Pass<"hlo-slice-sinker", "::mlir::ModuleOp"> {
  let summary = "Elementwise ops on slices of the same sources as one op on "
                "the sources, sliced (XLA's SliceSinker)";
  let description = [{
    XLA's SliceSinker, in XLA-GPU's simplification loop. Elementwise
    instructions of one kind (same op, attributes and result element type)
    whose operand i is a slice of the same source i, all operands of one
    instruction sliced alike, become one instruction on the sources; each
    of them is replaced by a slice of it, which takes its name. Taken when
    the group's elements add up to at least a source's, so no element is
    computed that was not before (overlapping slices lose their repeated
    work, adjacent ones their separate kernels). Left alone: control
    edges, dynamic shapes, fused computations.
  }];
  let statistics = [
    Statistic<"numGroups", "groups", "Groups of instructions sunk below "
                                     "their slices">,
  ];
}

def HloDynamicDimensionSimplifier
    : Pass<"hlo-dynamic-dimension-simplifier", "::mlir::ModuleOp"> {
  let summary = "Forward values through concatenate, slice, reshape and "
                "convert chains (XLA's DynamicDimensionSimplifier)";
  let description = [{
    XLA's DynamicDimensionSimplifier, which XLA-GPU runs in its
    optimization pipeline before the dynamic padder. Six sweeps over the
    computations no fusion calls, in XLA's order: a concatenate of a
    concatenate along the same dimension takes the inner one's operands;
    a rank-1 unit-stride slice of a concatenate that is exactly one of its
    operands is that operand; a scalar reshape of a rank-1 broadcast of a
    scalar is the scalar; a reshape of a reshape back to the first one's
    operand type is that operand; a convert or reshape to its operand's
    type (layout included) is its operand. Instructions whose uses went
    elsewhere are erased. Left alone: instructions with control edges.
  }];
  let statistics = [
    Statistic<"numConcatenatesFlattened", "concatenates-flattened",
              "Concatenates that took the operands of an inner one">,
    Statistic<"numForwarded", "forwarded",
              "Instructions replaced by a value they computed again">,
  ];
}

def HloScatterSliceSimplifier
    : Pass<"hlo-scatter-slice-simplifier", "::mlir::ModuleOp"> {
  let summary = "A scatter whose result is only sliced to a prefix scatters "
                "into the prefix (XLA's ScatterSliceSimplifier)";
  let description = [{
    XLA's ScatterSliceSimplifier, in XLA-GPU's simplification loop after
    the scatter expander. When every use of a scatter's result ends, through
    elementwise ops and get-tuple-elements, in a slice keeping the same
    prefix (starts 0, strides 1), the scatter runs on its operands sliced to
    that prefix (updates past it are skipped as out of bounds, which the
    slices dropped anyway), the ops on the way compute on the prefix, and
    the slices are replaced by what they sliced. No window dimension of the
    operands is truncated (a window crossing the new end would be skipped
    whole). Taken only when something is truncated. Left alone: any other
    use (the computation's root included), slices that disagree, dynamic
    shapes, control edges, fused computations.
  }];
  let statistics = [
    Statistic<"numSimplified", "simplified", "Scatters truncated">,
  ];
}

def HloScatterSimplifier
    : Pass<"hlo-scatter-simplifier", "::mlir::ModuleOp"> {
  let summary = "Rewrite every scatter into canonical form (XLA's "
                "ScatterSimplifier)";
  let description = [{
    A scatter is canonical when its indices are a [N, K] matrix (index
    vector dimension 1), `scatter_dims_to_operand_dims` is 0..K-1, no
    window dimension is inserted and its updates are [N, window] with
    `update_window_dims` 1..rank. Any other scatter becomes one on operands
    transposed to put the indexed dimensions first, the indices as the
    rows of a [N, K] matrix, and updates with their scatter dimensions
    first and flattened, size-1 dimensions at the inserted window
    dimensions and the window transposed like the operands; its results
    are transposed back (no transpose for the identity). XLA-GPU runs it in
    its simplification loop between the gather expander and the scatter
    expander. Left alone: scatters with batching dimensions, dynamic
    shapes, control edges, fused computations.
  }];
  let statistics = [
    Statistic<"numSimplified", "simplified", "Scatters rewritten">,
  ];
}

def HloStableSortExpander
    : Pass<"hlo-stable-sort-expander", "::mlir::ModuleOp"> {
  let summary = "Stable sorts as unstable sorts with ties broken by position "
                "(XLA's StableSortExpander)";
  let description = [{
    A sort with `is_stable=true` becomes an unstable sort whose comparator
    breaks ties by the elements' positions: an operand that is a signed
    integer iota (32 bits or more) along the sort dimension gives them,
    otherwise an s32 iota of the keys' shape and layout is added as the last
    operand. The new comparator (`<name>.stable`) computes the original both
    ways, `less = cmp(l, r)` and `greater = cmp(r, l)`, and returns
    `select(less == greater, pos_l < pos_r, less)`. Users see the original
    results. Left alone: sorts in fused computations, sorts with control
    predecessors.
  }];
  let statistics = [
    Statistic<"numExpanded", "expanded-sorts", "Stable sorts expanded">,
  ];
}

def HloScanExpander : Pass<"hlo-scan-expander", "::mlir::ModuleOp"> {
  let summary = "Scans as while loops (XLA's ScanExpander)";
  let description = [{
    XLA's ScanExpander, in "optimization" before the call inliner: a
    `scan(inputs..., inits...)` (`num_carries` trailing operands are the
    initial carries) becomes a counted while loop over the scan dimension,
    from its end with `is_reverse`. Trip i dynamic-slices element i of each
    input along the dimension (the dimension removed), calls `to_apply` on
    those slices and the carries, and writes the outputs it returns (a
    tuple of outputs, then the new carries; the lone value when there is
    one) into row i of buffers of the scan's output types (zeros before
    the first trip); after the loop the scan's result is the outputs and
    the final carries (a tuple, or the lone value). `is_associative` is a
    hint the expansion does not need. Left alone: scans without
    `num_carries`, with control predecessors, with dynamic shapes, or with
    2^31 trips or more; in fused computations.
  }];
  let statistics = [
    Statistic<"numExpanded", "expanded", "Scans expanded into while loops">,
  ];
}

def HloQrExpander : Pass<"hlo-qr-expander", "::mlir::ModuleOp"> {
  let summary = "XLA's QR custom calls as Householder loops (XLA's "
                "QrExpander)";
  let description = [{
    XLA's QrExpander, in "optimization" after the GPU scatter expander:
    the custom calls of XLA's client library's QR (PyTorch/XLA's and TF's
    linalg.qr), `Qr` (a -> (a', taus), LAPACK's geqrf on each matrix of
    the batch: R on and above the diagonal of a', the Householder vectors
    below it, min(m, n) scales tau a matrix) and
    `ProductOfElementaryHouseholderReflectors` ((a, taus) -> q, orgqr: the
    first n columns of H_0 ... H_{r-1}, m >= n >= r), become counted while
    loops of one Householder reflection a step (dlarfg's beta and tau, the
    update of the trailing columns, q built from the last reflector),
    computed on whole matrices under masks of row and column iotas, v^T a
    as a multiply and a sum. XLA blocks the columns (128) and updates the
    rest through the block's WY form; here every reflector updates the
    matrix. Complex matrices as zgeqrf and zungqr (beta real, a reflected
    by H^H). Left alone: non-float types, calls of other shapes, with
    control predecessors, in fused computations.
  }];
  let statistics = [
    Statistic<"numExpanded", "expanded", "QR calls expanded">,
  ];
}

def HloCholeskyExpander : Pass<"hlo-cholesky-expander", "::mlir::ModuleOp"> {
  let summary = "cholesky as blocked HLO loops (XLA's CholeskyExpander)";
  let description = [{
    XLA's CholeskyExpander, which XLA-GPU 0.10.2 runs in "optimization"
    after its select-and-scatter expander: every `cholesky` (HLO semantics:
    a = L L^H from the lower triangle, or a = U^H U from the upper) becomes
    HLO. Blocks of `block-size` columns from the left: the block's panel
    less the product of the columns before it (a dot), the diagonal block
    factored by a counted while loop of one column a trip (a
    matrix-vector dot, a square root and a division under iota masks), the
    rows below it by a right-side adjoint `triangular-solve`. A matrix
    whose pivot is not positive (or NaN) gives a factor of NaNs; the other
    triangle is zero. An upper cholesky factors the conjugate transpose.
    Left alone: non-float types, dynamic shapes, instructions with control
    edges, fused computations. The GPU pipeline runs it only with
    `expand-cholesky` (it otherwise leaves cholesky to cuSOLVER,
    hlo-gpusolver-rewriter).
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"128",
           "Columns a block (XLA's block size, 128)">,
  ];
  let statistics = [
    Statistic<"numExpanded", "expanded", "cholesky instructions expanded">,
  ];
}

def HloEighExpander : Pass<"hlo-eigh-expander", "::mlir::ModuleOp"> {
  let summary = "XLA's Eigh call as Jacobi sweeps (XLA's EighExpander)";
  let description = [{
    XLA's EighExpander, in "optimization" after the QR expander: the `Eigh`
    custom call of XLA's client library (PyTorch/XLA's and TF's eigh:
    (v, w) of the symmetric matrices the operand's lower or upper triangle
    defines, backend_config "lower,sort_eigenvalues,max_iter,tol") becomes
    the cyclic Jacobi method in parallel order: sweeps (a while loop, at
    most max_iter, while some matrix's off-diagonal norm is above tol
    times its norm) of n - 1 rounds (n for odd n) of disjoint pairs from
    the round-robin schedule, each round rotating all its pairs at once on
    whole matrices (the partners' rows and columns gathered by the partner
    vector computed from the round; complex matrices rotated with each
    pair's phase). w is the final diagonal, sorted ascending with v's
    columns (always: the order LAPACK's syevd gives, which the interpreter
    and cuSOLVER follow). Left alone: malformed calls, calls with control
    edges, fused computations. The GPU pipeline runs it only with `expand-eigh`.
  }];
  let statistics = [
    Statistic<"numExpanded", "expanded", "Eigh calls expanded">,
  ];
}

def HloScaledDotRewriter
    : Pass<"hlo-scaled-dot-rewriter", "::mlir::ModuleOp"> {
  let summary = "Rewrite scaled-dot as a dot of its scaled operands "
                "(XLA-GPU's ScaledDotRewriter)";
  let description = [{
    `scaled-dot(lhs, rhs, lhs_scale, rhs_scale)` becomes `dot(lhs', rhs')`
    with the scaled-dot's dimension numbers, precision and result type,
    where `x' = convert(x) * reshape(broadcast(convert(scale)))`: each
    scale repeated over its block of the operand (a scale dimension
    smaller than the operand's gets a block dimension after it, merged
    back by the reshape). Operand and scale are converted to XLA's target
    type: bf16 when both are narrower than 16 bits, else their common
    type, f32 for two types of one width, else the wider. A scalar scale
    leaves its operand as it is. XLA-GPU runs it just before the GEMM
    rewriter (where Triton does not take the scaled-dot); here it runs in
    `hlo-optimization` after `hlo-ragged-dot-rewriter`, so that layout
    assignment lays out the dot as any other.
  }];
  let statistics = [
    Statistic<"numRewritten", "rewritten", "scaled-dots rewritten">,
  ];
}

def HloRaggedDotRewriter : Pass<"hlo-ragged-dot-rewriter", "::mlir::ModuleOp"> {
  let summary = "A ragged-dot as a dot of operands masked per group (XLA's "
                "RaggedDotRewriter)";
  let description = [{
    XLA's RaggedDotRewriter, first in XLA-GPU's "optimization" pipeline (no
    emitter or library call runs a ragged-dot). Group g of the lhs ragged
    dimension covers [start_g, end_g): end is the inclusive prefix sum of
    the group sizes (a reduce-window), start the exclusive one. The operand
    gets a group dimension (at rank(group_sizes) - 1) whose entry g keeps
    the group's indices and zeroes the others (iota, two compares, a
    select). Ragged non-contracting dimension: the lhs so expanded, the
    group dimension contracted with the rhs group dimension. Ragged
    contracting dimension: both operands expanded, the group dimension the
    dot's first batch dimension (the result's leading group dimension).
    Ragged batch dimension: the ordinary dot. The dot keeps the
    ragged-dot's precision and algorithm. Left alone: dynamic shapes,
    control edges, group sizes whose leading dimensions are not the
    operands' leading (batch) ones.
  }];
  let statistics = [
    Statistic<"numRewritten", "rewritten", "Ragged-dots made dots">,
  ];
}

def HloTopkDecomposer : Pass<"hlo-topk-decomposer", "::mlir::ModuleOp"> {
  let summary = "topk as a sort and slices (XLA's TopkDecomposer)";
  let description = [{
    `topk(x), k=K` becomes a stable sort of `x` and an s32 iota along the
    last dimension, by `x` largest first (`largest=false`: smallest first;
    floats in their total order), and slices of the first K elements of
    both results along the last dimension: the values and their indices.
    A `TopK` custom call (of hlo-topk-rewriter) becomes the same stable
    sort by its comparator (given two s32 index parameters it ignores when
    it has none and the indices are read), of the values alone where only
    they are read and the comparator takes no indices (XLA's
    DecomposeTopKFallback). Left alone: topks with control predecessors.
  }];
  let statistics = [
    Statistic<"numDecomposed", "decomposed", "TopKs decomposed">,
  ];
}

def HloTopkRewriter : Pass<"hlo-topk-rewriter", "::mlir::ModuleOp"> {
  let summary = "Sorts read only by slices of their first k elements as TopK "
                "custom calls (XLA's TopkRewriter)";
  let description = [{
    A sort of f32 or bf16 values (alone, or with an s32 iota along the sort
    dimension) by one of XLA's NaN-safe "greater than" comparators (the
    values compared directly, or their total-order integer keys), along its
    first or last dimension, whose every result is read only by slices of
    the first k elements along that dimension (starts 0, strides 1, the
    other dimensions whole) becomes `custom-call(x'),
    custom_call_target="TopK", called_computations={comparator}` of result
    `(T[batch, k], s32[batch, k])` (`[k]` for one dimension), x' being x
    reshaped to [batch, n] and transposed when the sort dimension is the
    first; the slices read its elements back in their shapes. XLA's GPU
    compiler runs it on every such sort before SPMD partitioning. Left
    alone: sorts in fused computations and sorts with control edges.
  }];
  let statistics = [
    Statistic<"numRewritten", "rewritten", "Sorts rewritten as TopK calls">,
  ];
}

def HloSortSimplifier : Pass<"hlo-sort-simplifier", "::mlir::ModuleOp"> {
  let summary = "Remove the unused operands of a variadic sort (XLA's "
                "SortSimplifier)";
  let description = [{
    A sort of several operands whose results are read only through
    get-tuple-element drops every operand whose output no get-tuple-element
    reads and whose two comparator parameters are unused: the sort gets a
    copy of its comparator without those parameters, and the
    get-tuple-elements are renumbered (or replaced by the sort when one
    operand remains). Left alone: sorts that are a computation's ROOT or
    have another kind of user, sorts in fused computations and sorts with
    control predecessors. The original comparator stays for its other
    callers (hlo-dce removes it when there are none).
  }];
  let statistics = [
    Statistic<"numSimplified", "simplified-sorts", "Sorts simplified">,
    Statistic<"numRemovedOperands", "removed-operands",
              "Sort operands removed">,
  ];
}

def HloConditionalSimplifier
    : Pass<"hlo-conditional-simplifier", "::mlir::ModuleOp"> {
  let summary = "Inline, select, narrow and merge conditionals (XLA's "
                "ConditionalSimplifier)";
  let description = [{
    A conditional with one branch, or with a constant branch index (pred
    true: branch 0, false: branch 1; an s32 out of range: the last branch),
    is replaced by the instructions of the branch that runs, on that
    branch's operand. A pred conditional whose two branches hold only
    elementwise instructions, constants, broadcasts, concatenates,
    dynamic-slices, pads, reduces, reshapes, slices and tuple instructions
    (and neither only moves tuple elements) runs both branches and selects
    their results. Result elements that every branch computes with the same
    instruction are merged; a conditional whose tuple result only
    get-tuple-elements read returns just the elements read; one that
    nothing uses returns an empty tuple; a branch whose tuple parameter has
    elements it never reads takes the read ones only. Left alone:
    conditionals with side effects (not inlined nor selected), with
    sharding, with control predecessors or used as one, and conditionals
    whose branches hold channel instructions.
  }];
  let statistics = [
    Statistic<"numRemoved", "inlined", "Conditionals replaced by a branch">,
    Statistic<"numSelected", "selected",
              "Conditionals replaced by both branches and a select">,
    Statistic<"numMerged", "merged",
              "Conditionals whose duplicate result elements were merged">,
    Statistic<"numNarrowed", "narrowed",
              "Conditionals whose unused result elements were removed">,
    Statistic<"numEmptied", "emptied",
              "Unused conditionals given an empty tuple result">,
    Statistic<"numOperandsNarrowed", "operands-narrowed",
              "Branch computations whose unused parameter elements were "
              "removed">,
  ];
}

def HloComparisonExpander
    : Pass<"hlo-comparison-expander", "::mlir::ModuleOp"> {
  let summary = "Total-order float compares as integer compares (XLA's "
                "ComparisonExpander)";
  let description = [{
    Rewrites every `compare` of floats with `comparison_type` TOTALORDER
    into a signed integer `compare` of the same direction on keys made from
    the operands' bits: bitcast-convert to the signed integer of the same
    width, and for negative values flip the magnitude bits (xor with the
    largest integer), so that the integer order is the total order
    -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN. For element types
    without a negative zero (`f8E4M3FNUZ`, ...), whose sign-only pattern is
    NaN, a negative x maps to INT_MIN - x and NaN to INT_MIN.

    `expand-via-upcast` lists pairs `from:to` of float types (XLA's
    `expand_via_upcast`, e.g. `bf16:f32`): operands of type `from` are
    converted to `to`, which must hold every value of `from`, before the
    keys are made.

    Left alone: other comparison types, integer and complex compares,
    types without a sign bit, dynamic shapes, and compares with control
    predecessors.
  }];
  let options = [
    ListOption<"expandViaUpcast", "expand-via-upcast", "std::string",
               "Pairs `from:to` of float types compared in the wider `to`">,
  ];
  let statistics = [
    Statistic<"numExpanded", "expanded", "Compares rewritten">,
  ];
}

def HloLogisticExpander : Pass<"hlo-logistic-expander", "::mlir::ModuleOp"> {
  let summary = "logistic(x) as 1 / (1 + exp(-x)) (XLA's LogisticExpander)";
  let description = [{
    Rewrites every `logistic(x)` of float or complex elements into
    `divide(1, add(1, exponential(negate(x))))`, the 1 a scalar constant
    broadcast to the shape (XLA's only remaining expansion, kExp). Left
    alone: dynamic shapes and instructions with control predecessors.
  }];
  let statistics = [
    Statistic<"numExpanded", "expanded", "Logistic instructions expanded">,
  ];
}

def HloCollectivePermuteInPlaceExpander
    : Pass<"hlo-collective-permute-in-place-expander", "::mlir::ModuleOp"> {
  let summary = "the in-place collective-permute as slices, plain "
                "collective-permutes and updates";
  let description = [{
    Rewrites every in-place `collective-permute` (input, output, input and
    output start indices, `slice_sizes`; XLA's TPU form, which XLA's GPU
    compiler does not take and no thunk runs), and every in-place
    `collective-permute-start` whose only user is its done, into ordinary
    HLO: per buffer and start-index entry k, a `dynamic-slice` of the input
    at the k-th input start indices, a plain `collective-permute` with the
    pairs of chunk k (fresh channel ids where the op had one), and a
    `dynamic-update-slice` into the output at the k-th output start
    indices. Devices that are no target of chunk k keep their output: a
    `select` on a constant table of the chunk's targets, indexed by
    `replica-id` (`partition-id` with a channel id), left out when every
    device is a target. Left alone: instructions with control predecessors
    and starts with other users.
  }];
  let statistics = [
    Statistic<"numExpanded", "expanded",
              "in-place collective-permutes expanded">,
  ];
}

def HloStochasticConvertDecomposer
    : Pass<"hlo-stochastic-convert-decomposer", "::mlir::ModuleOp"> {
  let summary = "stochastic-convert as ordinary HLO ops (XLA's "
                "StochasticConvertDecomposer)";
  let description = [{
    Rewrites every `stochastic-convert(x, random)` of floats to integers:
    |x| is rounded up when the random bits, an unsigned integer of the
    operand's width w, are below frac(|x|) * 2^w, else truncated; the sign
    is put back and a saturating `convert` (NaN to 0) gives the integers.
    The arithmetic is done in f32 (f64 for f64 operands), the comparison
    with abs, floor, compares and selects, exactly as the reference
    interpreter defines the op. XLA rejects unsigned results; here they are
    decomposed too (negative values saturate to 0). Left alone: dynamic
    shapes, other element types and instructions with control predecessors.
  }];
  let statistics = [
    Statistic<"numDecomposed", "decomposed",
              "Stochastic converts decomposed">,
  ];
}

def HloPermutationSortExpander
    : Pass<"hlo-permutation-sort-expander", "::mlir::ModuleOp"> {
  let summary = "The inverse of a sort's permutation as a scatter (XLA's "
                "PermutationSortExpander, permutation_sort_simplifier)";
  let description = [{
    XLA's PermutationSortExpander (pass name permutation_sort_simplifier),
    in XLA-GPU's optimization pipeline before the comparison expander. A
    sort of (keys, values) by `compare(p0, p1), direction=LT` whose keys
    are, along the sort dimension, a permutation of 0..N-1 (an element of
    another sort along that dimension, of an operand that is an integer
    iota along it, whose type holds N-1) becomes a tuple of an iota (the
    sorted keys) and a scatter of the values into zeros at their keys
    (positions along the other dimensions kept; `unique_indices`, a
    computation returning the update). Left alone: other comparators, sorts
    of one or of more than two operands, dynamic shapes, control edges,
    fused computations.
  }];
  let statistics = [
    Statistic<"numExpanded", "expanded", "Sorts replaced by scatters">,
  ];
}

def HloConvolution4DExpander
    : Pass<"hlo-convolution-4d-expander", "::mlir::ModuleOp"> {
  let summary = "Convolutions over four spatial dimensions without those of "
                "size 1 (XLA's Convolution4DExpander)";
  let description = [{
    XLA's Convolution4DExpander, in XLA-GPU's optimization pipeline (cuDNN
    takes at most three spatial dimensions). A convolution with exactly four
    spatial dimensions drops each one of input size 1 and no padding (its
    window and output are 1 there too): the input and kernel are reshaped
    without them, the convolution runs on the others (its window and
    dimension numbers renumbered, every other attribute kept), and a
    reshape back to the old result takes its name. All four may go (a
    convolution with no spatial dimension). Left alone: other spatial ranks,
    dynamic shapes, fused computations.
  }];
  let statistics = [
    Statistic<"numExpanded", "expanded", "Convolutions with fewer spatial "
                                         "dimensions">,
  ];
}

def HloConvolutionPredExpander
    : Pass<"hlo-convolution-pred-expander", "::mlir::ModuleOp"> {
  let summary = "Pred convolutions computed in f16 (XLA's "
                "ConvolutionPredExpander)";
  let description = [{
    XLA's ConvolutionPredExpander, in XLA-GPU's optimization pipeline (cuDNN
    has no pred convolutions). A convolution whose operands and result are
    pred computes in f16 on converts of its operands (true 1, false 0),
    and a convert of the count back to pred (true where it is not 0) takes
    its name. Left alone: convolutions with any other operand or result
    type, fused computations.
  }];
  let statistics = [
    Statistic<"numExpanded", "expanded", "Pred convolutions computed in f16">,
  ];
}

def HloRngBitGeneratorExpander
    : Pass<"hlo-rng-bit-generator-expander", "::mlir::ModuleOp"> {
  let summary = "rng-bit-generator as a call of a generated computation "
                "(XLA's RngBitGeneratorExpander)";
  let description = [{
    Replaces every `rng-bit-generator(state)` (a u64[N] state, N >= 2, and
    integer bits of 8 to 64 bits) by a `call` of a generated private
    computation `rng_three_fry` or `rng_philox` `(state) -> (new state,
    bits)` made of ordinary integer ops (iota, add, multiply, xor, shifts,
    converts, reshapes, slices, concatenates), one per (algorithm, state
    type, result type). The computation gives the bits and new state that
    rng-bit-generator defines: Threefry-2x32 (20 rounds; key state[0],
    counter state[1]) or Philox-4x32 (10 rounds; key state[0], 128-bit
    counter (state[1], state[2]), or (state[1], state[0]) for a u64[2]
    state), laid out as XLA's expansion and the reference interpreter lay
    them out. `rng_default` uses `default-algorithm` (XLA's GPU compiler
    passes philox). Left alone: other state and bit types (pred, complex,
    sub-byte), dynamic shapes and instructions with control predecessors.
  }];
  let options = [
    Option<"defaultAlgorithm", "default-algorithm", "std::string",
           /*default=*/"\"rng_philox\"",
           "The algorithm of rng_default: rng_philox or rng_three_fry">,
  ];
  let statistics = [
    Statistic<"numExpanded", "expanded", "rng-bit-generators replaced">,
    Statistic<"numComputations", "computations",
              "Generator computations made">,
  ];
}

def HloRngExpander : Pass<"hlo-rng-expander", "::mlir::ModuleOp"> {
  let summary = "rng as Philox bits and a distribution (XLA's RngExpander)";
  let description = [{
    Replaces every `rng(a, b)` (uniform or normal, scalar operands) by a
    `call` of a generated private computation `rng_uniform` or `rng_normal`
    `(key, state, a, b)`, one per (distribution, result type, operand
    types). The key is a u64 constant, `seed ^ ((i * 0x9E3779B97F4A7C15)
    >> 32)` for the i-th rng of the module, xor'ed with the replica id and
    the partition id shifted left by 32 when the module has several; the
    state comes from `rng-get-and-update-state` advanced by the 32-bit words
    used. The computation takes Philox bits from `rng-bit-generator` on
    (key, state) and maps them: uniform floats from the top mantissa bits
    scaled to [a, b), uniform integers as `a + d/2 + (d - d/2)` with d =
    bits rem (b - a), normal values by Box-Muller over two halves of the
    shape, then `a + b * z`. f16 and bf16 rngs run in f32 and are converted
    back. Left alone: other element types (XLA supports 32- and 64-bit
    ones), dynamic shapes and instructions with control predecessors.
  }];
  let options = [
    Option<"seed", "seed", "uint64_t", /*default=*/"0",
           "The seed the keys are made from (XLA's module seed)">,
  ];
  let statistics = [
    Statistic<"numExpanded", "expanded", "rng instructions replaced">,
  ];
}

def HloDotMerger : Pass<"hlo-dot-merger", "::mlir::ModuleOp"> {
  let summary = "Merge dots that share an operand (XLA's DotMerger)";
  let description = [{
    Dots that share their lhs (or their rhs) and agree on dimension numbers,
    operand precision, algorithm, element types and layouts become one dot
    over the concatenation of their other operands, each original dot a
    slice of its result (seed 002, section 3.2). The concatenated operand
    must have exactly one dimension that is neither batch nor contracting.
    A dot joins a merge when its input plus output bytes, or those of the
    merged dot so far, are at most `max-size-to-merge` (XLA's GPU pipeline
    uses 16 MiB; later versions 32 MiB). Dots that depend on each other are
    never merged (that would make a cycle); the dependency search is
    bounded, and merges do not overlap in the block order, so a merge that
    would is left for a later run. Left alone: dots with control edges,
    sparse dots, dynamic shapes, fused computations.
  }];
  let options = [
    Option<"maxSizeToMerge", "max-size-to-merge", "int64_t",
           /*default=*/"int64_t{16} << 20",
           "Merge a dot only if its input and output bytes, or those of "
           "the merged dot, are at most this">,
  ];
  let statistics = [
    Statistic<"numMerges", "merges", "Merged dots created">,
    Statistic<"numMergedDots", "merged-dots",
              "Dots replaced by slices of a merged dot">,
  ];
}

def HloTransposeFolding : Pass<"hlo-transpose-folding", "::mlir::ModuleOp"> {
  let summary = "Fold transposes into dot and convolution dimension numbers "
                "(XLA's TransposeFolding)";
  let description = [{
    A `dot` or `convolution` operand that is a `transpose` is replaced by the
    transpose's operand, the dimension numbers of that side renumbered
    through the permutation (dimension d of the transpose is dimension
    perm[d] of its operand); the result does not change.
    - Dots (both operands of rank 2 or more), XLA's default rule
      IsRowColumnTransposeDotOperand: the transpose is not the identity,
      the operand has one contracting dimension and rank - 2 batch
      dimensions, and the permutation leaves every batch dimension in
      place. Its batch and contracting dimensions are renumbered.
    - Convolutions, any transpose operand (XLA's AlwaysFoldTranspose):
      lhs into the input batch, feature and spatial dimensions, rhs into
      the kernel input, output and spatial dimensions.
      `fold-convolution-transposes=false` leaves convolutions alone (XLA's
      NeverFoldTranspose, which XLA's GPU compiler passes).
    The dot or convolution is updated in place; the transpose stays for its
    other users. Left alone: transposes with control predecessors and fused
    computations.
  }];
  let options = [
    Option<"foldConvolutionTransposes", "fold-convolution-transposes", "bool",
           /*default=*/"true",
           "Fold transposes into convolutions (XLA's AlwaysFoldTranspose; "
           "false: NeverFoldTranspose)">,
  ];
  let statistics = [
    Statistic<"numDotsFolded", "dots", "Dots that absorbed a transpose">,
    Statistic<"numConvolutionsFolded", "convolutions",
              "Convolutions that absorbed a transpose">,
    Statistic<"numTransposesFolded", "transposes",
              "Transpose operands folded">,
  ];
}

def HloReshapeMover : Pass<"hlo-reshape-mover", "::mlir::ModuleOp"> {
  let summary = "Sink reshapes and transposes below elementwise ops (XLA's "
                "ReshapeMover)";
  let description = [{
    An elementwise instruction whose operands are all the same reshape or
    transpose (same result and operand dimensions, same permutation) or
    operands that take the inverse rearrangement for free is computed on
    the unrearranged values and rearranged once after:
    `add(reshape(a), reshape(b))` becomes `reshape(add(a, b))`. Free (XLA's
    CanTriviallyRearrange): constants, an rng with one user, and broadcasts
    with sorted dimensions: under a transpose that keeps them in order;
    under a reshape, a broadcast of a scalar or, with
    `reshape-of-1d-broadcast-is-cheap`, of an operand with at most one
    dimension above 1 or whose broadcast dimensions the reshape leaves
    unmodified. A reshape or transpose that changes nothing is free too.
    Those operands get the inverse reshape or transpose. A reshape or
    transpose is moved only if all the instructions reading it move it (the
    candidates are pruned until that holds). Left alone: instructions with
    control predecessors, moved operands with control edges, dynamic
    shapes, elementwise instructions with operands of another shape, and
    fused computations.
  }];
  let options = [
    Option<"reshapeOf1dBroadcastIsCheap", "reshape-of-1d-broadcast-is-cheap",
           "bool", /*default=*/"false",
           "Also treat reshapes of broadcasts of rank-1 operands, and "
           "reshapes that leave the broadcast dimensions alone, as free">,
  ];
  let statistics = [
    Statistic<"numMoved", "moved", "Elementwise instructions rearranged">,
  ];
}

#endif // HLO_TRANSFORMS_PASSES
