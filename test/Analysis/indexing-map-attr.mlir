// RUN: hlo-opt %s | FileCheck %s
// RUN: hlo-opt %s | hlo-opt | FileCheck %s

// #hlo.indexing_map round-trips: the one-line text form of the spec's maps,
// with range variables, runtime variables (their hlo: text kept) and
// constraints. Spacing is canonicalized.

// CHECK: bc = #hlo.indexing_map<"(d0)[s0, s1] -> (s0, d0, s1), domain: d0 in [0, 19], s0 in [0, 9], s1 in [0, 29]">
// CHECK-SAME: ds = #hlo.indexing_map<"(d0, d1, d2)[s0, s1, s2] -> (d0 + s0, d1 + s1, d2 + s2), domain: d0 in [0, 0], d1 in [0, 1], d2 in [0, 31], s0 in [0, 1], hlo: of1 = s32[] parameter(1), (d0, d1, d2) -> (), s1 in [0, 0], hlo: of2 = s32[] parameter(2), (d0, d1, d2) -> (), s2 in [0, 226], hlo: of3 = s32[] parameter(3), (d0, d1, d2) -> ()">
// CHECK-SAME: empty_domain = #hlo.indexing_map<"() -> (), domain:">
// CHECK-SAME: gather = #hlo.indexing_map<"(d0, d1, d2, d3)[s0, s1] -> (d1 + s0, d2 + s1, d3), domain: d0 in [0, 1805], d1 in [0, 6], d2 in [0, 7], d3 in [0, 3], s0 in [0, 26], hlo: indices = s32[1806,2]{1,0} parameter(1), (d0, d1, d2, d3) -> (d0, 0), s1 in [0, 68], hlo: indices = s32[1806,2]{1,0} parameter(1), (d0, d1, d2, d3) -> (d0, 1)">
// CHECK-SAME: slice = #hlo.indexing_map<"(d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2), domain: d0 in [5, 9], d1 in [3, 17], d2 in [0, 48], (d1 - 3) mod 7 in [0, 0], d2 mod 2 in [0, 0]">
func.func private @maps() attributes {
  bc = #hlo.indexing_map<"(d0)[s0, s1] -> (s0, d0, s1), domain: d0 in [0, 19], s0 in [0, 9], s1 in [0, 29]">,
  ds = #hlo.indexing_map<"(d0, d1, d2)[s0, s1, s2] -> (d0 + s0, d1 + s1, d2 + s2), domain: d0 in [0, 0], d1 in [0, 1], d2 in [0, 31], s0 in [0, 1], hlo: of1 = s32[] parameter(1), (d0, d1, d2)  -> (), s1 in [0, 0], hlo: of2 = s32[] parameter(2), (d0, d1, d2)  -> (), s2 in [0, 226], hlo: of3 = s32[] parameter(3), (d0, d1, d2) -> ()">,
  gather = #hlo.indexing_map<"(d0, d1, d2, d3)[s0, s1] -> (d1 + s0, d2 + s1, d3), domain: d0 in [0, 1805], d1 in [0, 6], d2 in [0, 7], d3 in [0, 3], s0 in [0, 26], hlo: indices = s32[1806,2]{1,0} parameter(1), (d0, d1, d2, d3) -> (d0, 0), s1 in [0, 68], hlo: indices = s32[1806,2]{1,0} parameter(1), (d0, d1, d2, d3) -> (d0, 1)">,
  slice = #hlo.indexing_map<"(d0, d1, d2) -> (d0 - 5, (d1 - 3) floordiv 7, d2 floordiv 2), domain: d0 in [5, 9], d1 in [3, 17], d2 in [0, 48], (d1 - 3) mod 7 in [0, 0], d2 mod 2 in [0, 0]">,
  empty_domain = #hlo.indexing_map<"() -> (), domain:">
}
