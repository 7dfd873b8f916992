//===- Passes.td - passes over the hlo dialect -------------*- tablegen -*-===//
//
// XLA's HLO passes as MLIR passes, named after them (`hlo-` + XLA's pass
// name). They are module passes: HLO's call graph spans computations. The
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

def HloFlattenCallGraph : Pass<"hlo-flatten-call-graph", "::mlir::ModuleOp"> {
  let summary = "Give every sequential call site a computation of its own "
                "(XLA's FlattenCallGraph)";
  let description = [{
    A computation called from several places in a sequential context (a
    call's `to_apply`, a while's `condition` and `body`, a conditional's
    branches) is cloned, so that each call site calls a computation of its
    own (a pass may then change one without the others). Callers are
    handled before their callees, so computations called from clones are
    flattened too. Computations applied elementwise or fused (reduce, map,
    sort, scatter, fusion, ...) stay shared, as in XLA; recursive calls are
    left alone.
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
    kept on the right of commutative ops) and the simplifier's own rewrites:
    A-A = 0 and A*0 = 0 for integers, compare(A, A) of integers, power by a
    constant 0, 1, 2 (and -1 for floats), select of equal branches, and abs
    of an abs. Floating-point identities that NaN,
    infinity or signed zero break (float A*0, A-A, A+0, x==x) are not
    applied. Instructions with control predecessors are left alone.
  }];
  let options = [
    Option<"enablePowerRewrites", "enable-power-rewrites", "bool",
           /*default=*/"true",
           "Rewrite power by a constant 0, 1, 2 or -1">,
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

#endif // HLO_TRANSFORMS_PASSES
