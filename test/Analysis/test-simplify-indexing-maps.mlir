// RUN: hlo-opt %s --hlo-test-simplify-indexing-maps | FileCheck %s

// The indexing-analysis spec's simplifier examples, each with the spec's
// result. Every other line of the maps is checked too, so a change to the
// domain fails.

// Example 1: d in [0, 6] x [0, 14].
// CHECK-LABEL: func.func private @spec_example_1
// CHECK-SAME: #hlo.indexing_map<"(d0, d1) -> (d0, d1), domain: d0 in [0, 6], d1 in [0, 14]">
func.func private @spec_example_1() attributes {map = #hlo.indexing_map<"(d0, d1) -> (d0 + d1 floordiv 16, d1 mod 16), domain: d0 in [0, 6], d1 in [0, 14]">}

// Example 2: d_i in [0, 9].
// CHECK-LABEL: func.func private @spec_example_2
// CHECK-SAME: #hlo.indexing_map<"(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]">
func.func private @spec_example_2() attributes {map = #hlo.indexing_map<"(d0, d1, d2) -> ((d0 * 100 + d1 * 10 + d2) floordiv 100, ((d0 * 100 + d1 * 10 + d2) mod 100) floordiv 10, d2 mod 10), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]">}

// Example 3: d_i in [0, 9]; the spec's 2d0 + (4d1 + d2) floordiv 8 in MLIR's
// spelling.
// CHECK-LABEL: func.func private @spec_example_3
// CHECK-SAME: #hlo.indexing_map<"(d0, d1, d2) -> (d0 * 2 + (d1 * 4 + d2) floordiv 8, (d1 * 4 + d2) mod 8), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]">
func.func private @spec_example_3() attributes {map = #hlo.indexing_map<"(d0, d1, d2) -> ((d0 * 16 + d1 * 4 + d2) floordiv 8, (d0 * 16 + d1 * 4 + d2) mod 8), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]">}

// Example 4: d in [0, 9] x [0, 10]. The spec's -(-11d0 - d1 + 109) floordiv
// 11 + 9 negates the quotient (MLIR's parser would bind the minus to the
// dividend, so the parentheses are explicit here).
// CHECK-LABEL: func.func private @spec_example_4
// CHECK-SAME: #hlo.indexing_map<"(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 10]">
func.func private @spec_example_4() attributes {map = #hlo.indexing_map<"(d0, d1) -> (-((d0 * -11 - d1 + 109) floordiv 11) + 9), domain: d0 in [0, 9], d1 in [0, 10]">}

// reshape f32[10,10,10] -> f32[50,20] -> f32[10,10,10]: the composed
// output-to-input map cancels to the identity.
// CHECK-LABEL: func.func private @reshape_of_reshape
// CHECK-SAME: #hlo.indexing_map<"(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]">
func.func private @reshape_of_reshape() attributes {map = #hlo.indexing_map<"(d0, d1, d2) -> ((((d0 * 100 + d1 * 10 + d2) floordiv 20) * 20 + (d0 * 100 + d1 * 10 + d2) mod 20) floordiv 100, ((((d0 * 100 + d1 * 10 + d2) floordiv 20) * 20 + (d0 * 100 + d1 * 10 + d2) mod 20) mod 100) floordiv 10, (((d0 * 100 + d1 * 10 + d2) floordiv 20) * 20 + (d0 * 100 + d1 * 10 + d2) mod 20) mod 10), domain: d0 in [0, 9], d1 in [0, 9], d2 in [0, 9]">}

// Constraint rule 1: `expr (floordiv, +, -, *) constant in [lo, hi]` becomes
// a bound on expr (here on the variables themselves).
// CHECK-LABEL: func.func private @constraint_tightening
// CHECK-SAME: #hlo.indexing_map<"(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [3, 8], d1 in [8, 15], d2 in [0, 99], d0 + d2 in [6, 17]">
func.func private @constraint_tightening() attributes {map = #hlo.indexing_map<"(d0, d1, d2) -> (d0, d1, d2), domain: d0 in [0, 99], d1 in [0, 99], d2 in [0, 99], d0 * 2 + 4 in [10, 21], d1 floordiv 4 in [2, 3], ((d0 + d2) floordiv 3) * 2 - 1 in [3, 10]">}

// Constraint rule 2: d0 + s0 in [0, 20] always holds for d0 in [0, 5] and
// s0 in [1, 3]: it is dropped.
// CHECK-LABEL: func.func private @constraint_always_true
// CHECK-SAME: #hlo.indexing_map<"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 5], s0 in [1, 3]">
func.func private @constraint_always_true() attributes {map = #hlo.indexing_map<"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 5], s0 in [1, 3], d0 + s0 in [0, 20]">}

// Constraint rule 3: constraint expressions are simplified like the results.
// CHECK-LABEL: func.func private @constraint_simplified
// CHECK-SAME: #hlo.indexing_map<"(d0, d1) -> (d0, d1), domain: d0 in [0, 99], d1 in [0, 7], d0 mod 4 in [1, 1]">
func.func private @constraint_simplified() attributes {map = #hlo.indexing_map<"(d0, d1) -> (d0, d1), domain: d0 in [0, 99], d1 in [0, 7], (d0 + d1 floordiv 8 + 16) mod 4 in [1, 1]">}

// Slice and pad constraints are already in simplest form: kept as they are.
// CHECK-LABEL: func.func private @slice_input_to_output
// CHECK-SAME: #hlo.indexing_map<"(d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2), domain: d0 in [5, 9], d1 in [3, 17], d2 in [0, 48], (d1 - 3) mod 7 in [0, 0], d2 mod 2 in [0, 0]">
func.func private @slice_input_to_output() attributes {map = #hlo.indexing_map<"(d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2), domain: d0 in [5, 9], d1 in [3, 17], d2 in [0, 48], (d1 - 3) mod 7 in [0, 0], d2 mod 2 in [0, 0]">}

// Mod constraints on the same expression merge; contradicting ones make the
// domain empty (an empty interval).
// CHECK-LABEL: func.func private @merge_mod_constraints
// CHECK-SAME: #hlo.indexing_map<"(d0) -> (d0), domain: d0 in [0, 99], d0 mod 6 in [0, 0]">
func.func private @merge_mod_constraints() attributes {map = #hlo.indexing_map<"(d0) -> (d0), domain: d0 in [0, 99], d0 mod 2 in [0, 0], d0 mod 3 in [0, 0]">}
// CHECK-LABEL: func.func private @contradiction
// CHECK-SAME: #hlo.indexing_map<"(d0) -> (d0), domain: d0 in [0, 99], d0 mod 4 in [1, 0]">
func.func private @contradiction() attributes {map = #hlo.indexing_map<"(d0) -> (d0), domain: d0 in [0, 99], d0 mod 2 in [1, 1], d0 mod 4 in [2, 2]">}

// Runtime variables keep their hlo: text; nested attributes are reached.
// CHECK-LABEL: func.func private @runtime_and_nested
// CHECK-SAME: maps = [#hlo.indexing_map<"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 0], s0 in [0, 1], hlo: of1 = s32[] parameter(1), (d0) -> ()">, {inner = #hlo.indexing_map<"(d0) -> (d0), domain: d0 in [0, 15]">}]
func.func private @runtime_and_nested() attributes {maps = [#hlo.indexing_map<"(d0)[s0] -> (d0 + s0 * 8 floordiv 8), domain: d0 in [0, 0], s0 in [0, 1], hlo: of1 = s32[] parameter(1), (d0) -> ()">, {inner = #hlo.indexing_map<"(d0) -> (d0 mod 16), domain: d0 in [0, 15]">}]}

// A quotient and its divided remainder recombine:
// (x floordiv 256) * 2 + (x mod 256) floordiv 128 = x floordiv 128
// (reshape f32[64,128] -> f32[32,256] -> f32[8192], output to input).
// CHECK-LABEL: func.func private @quotient_and_divided_remainder
// CHECK-SAME: #hlo.indexing_map<"(d0) -> (d0 floordiv 128, d0 mod 128), domain: d0 in [0, 8191]">
func.func private @quotient_and_divided_remainder() attributes {map = #hlo.indexing_map<"(d0) -> ((d0 floordiv 256) * 2 + (d0 mod 256) floordiv 128, d0 mod 128), domain: d0 in [0, 8191]">}
