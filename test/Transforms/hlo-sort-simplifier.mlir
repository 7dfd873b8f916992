// RUN: hlo-opt %s -split-input-file --hlo-sort-simplifier | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-sort-simplifier --hlo-check-semantics -o /dev/null

// The comparator reads only the keys: the s32 values, whose output nothing
// reads, go; the sort gets a comparator without their parameters and the
// get-tuple-element of the third output becomes the second. The original
// comparator stays (hlo-dce removes it).
// CHECK-LABEL: hlo.computation private @cmp(
// CHECK-SAME: %arg5: tensor<f32>
// CHECK-LABEL: hlo.computation private @cmp_0(
// CHECK-SAME: %arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<f32>) -> tensor<i1>
// CHECK-NEXT: compare %arg0, %arg1
// CHECK-LABEL: hlo.computation @drop
// CHECK: %[[S:.*]] = sort %arg0, %arg2 {dimensions = array<i64: 1>, is_stable = true, to_apply = @cmp_0} : (tensor<4x5xf32>, tensor<4x5xf32>) -> tuple<tensor<4x5xf32>, tensor<4x5xf32>>
// CHECK: get_tuple_element %[[S]] {index = 0 : i64}
// CHECK: get_tuple_element %[[S]] {index = 1 : i64}
hlo.computation private @cmp(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>, %e: tensor<f32>, %f: tensor<f32>) -> tensor<i1> {
  %lt = hlo.compare %a, %b {direction = #hlo<comparison_direction LT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %lt : tensor<i1>
}
hlo.computation @drop(%k: tensor<4x5xf32>, %v: tensor<4x5xi32>, %w: tensor<4x5xf32>) -> tuple<tensor<4x5xf32>, tensor<4x5xf32>> attributes {entry} {
  %s = hlo.sort %k, %v, %w {dimensions = array<i64: 1>, is_stable = true, to_apply = @cmp} : (tensor<4x5xf32>, tensor<4x5xi32>, tensor<4x5xf32>) -> tuple<tensor<4x5xf32>, tensor<4x5xi32>, tensor<4x5xf32>>
  %g0 = hlo.get_tuple_element %s {index = 0 : i64} : (tuple<tensor<4x5xf32>, tensor<4x5xi32>, tensor<4x5xf32>>) -> tensor<4x5xf32>
  %g2 = hlo.get_tuple_element %s {index = 2 : i64} : (tuple<tensor<4x5xf32>, tensor<4x5xi32>, tensor<4x5xf32>>) -> tensor<4x5xf32>
  %t = hlo.tuple %g0, %g2 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tuple<tensor<4x5xf32>, tensor<4x5xf32>>
  hlo.return %t : tuple<tensor<4x5xf32>, tensor<4x5xf32>>
}

// -----

// Only the sorted values are read, and the comparator reads only their
// parameters: the keys go and the sort of one operand is its result. Two
// sorts sharing a comparator get one copy each.
// CHECK-LABEL: hlo.computation private @by_value_0(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i1>
// CHECK-LABEL: hlo.computation private @by_value_1(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i1>
// CHECK-LABEL: hlo.computation @single
// CHECK: %[[A:.*]] = sort %arg1 {dimensions = array<i64: 0>, to_apply = @by_value_0} : (tensor<6xi32>) -> tensor<6xi32>
// CHECK: %[[B:.*]] = sort %arg1 {dimensions = array<i64: 0>, to_apply = @by_value_1} : (tensor<6xi32>) -> tensor<6xi32>
// CHECK-NOT: get_tuple_element
// CHECK: tuple %[[A]], %[[B]]
hlo.computation private @by_value(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {
  %gt = hlo.compare %c, %d {direction = #hlo<comparison_direction GT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
  hlo.return %gt : tensor<i1>
}
hlo.computation @single(%k: tensor<6xf32>, %v: tensor<6xi32>) -> tuple<tensor<6xi32>, tensor<6xi32>> attributes {entry} {
  %s = hlo.sort %k, %v {dimensions = array<i64: 0>, to_apply = @by_value} : (tensor<6xf32>, tensor<6xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>>
  %g = hlo.get_tuple_element %s {index = 1 : i64} : (tuple<tensor<6xf32>, tensor<6xi32>>) -> tensor<6xi32>
  %s2 = hlo.sort %k, %v {dimensions = array<i64: 0>, to_apply = @by_value} : (tensor<6xf32>, tensor<6xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>>
  %g2 = hlo.get_tuple_element %s2 {index = 1 : i64} : (tuple<tensor<6xf32>, tensor<6xi32>>) -> tensor<6xi32>
  %t = hlo.tuple %g, %g2 : (tensor<6xi32>, tensor<6xi32>) -> tuple<tensor<6xi32>, tensor<6xi32>>
  hlo.return %t : tuple<tensor<6xi32>, tensor<6xi32>>
}

// -----

// Not simplified: an unused output whose parameters the comparator reads
// (a tie-break), a sort whose outputs are all read, a sort read by a tuple,
// a sort that is the ROOT, a get-tuple-element with a control predecessor,
// and a sort with one.
// CHECK-LABEL: hlo.computation @keep
// CHECK: sort %arg0, %arg1 {dimensions = array<i64: 0>, to_apply = @tie_break}
// CHECK-COUNT-4: sort %arg0, %arg1 {{.*}}to_apply = @key_only}
// CHECK-NOT: sort
hlo.computation private @tie_break(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {
  %lt = hlo.compare %a, %b {direction = #hlo<comparison_direction LT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %eq = hlo.compare %a, %b {direction = #hlo<comparison_direction EQ>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %lt2 = hlo.compare %c, %d {direction = #hlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %tie = hlo.and %eq, %lt2 : (tensor<i1>, tensor<i1>) -> tensor<i1>
  %r = hlo.or %lt, %tie : (tensor<i1>, tensor<i1>) -> tensor<i1>
  hlo.return %r : tensor<i1>
}
hlo.computation private @key_only(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {
  %lt = hlo.compare %a, %b {direction = #hlo<comparison_direction LT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %lt : tensor<i1>
}
hlo.computation @keep(%k: tensor<6xf32>, %v: tensor<6xi32>) -> tuple<tensor<6xf32>, tensor<6xf32>, tensor<6xi32>, tuple<tensor<6xf32>, tensor<6xi32>>, tensor<6xf32>, tensor<6xf32>> attributes {entry} {
  %s0 = hlo.sort %k, %v {dimensions = array<i64: 0>, to_apply = @tie_break} : (tensor<6xf32>, tensor<6xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>>
  %g0 = hlo.get_tuple_element %s0 {index = 0 : i64} : (tuple<tensor<6xf32>, tensor<6xi32>>) -> tensor<6xf32>
  %s1 = hlo.sort %k, %v {dimensions = array<i64: 0>, to_apply = @key_only} : (tensor<6xf32>, tensor<6xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>>
  %g10 = hlo.get_tuple_element %s1 {index = 0 : i64} : (tuple<tensor<6xf32>, tensor<6xi32>>) -> tensor<6xf32>
  %g11 = hlo.get_tuple_element %s1 {index = 1 : i64} : (tuple<tensor<6xf32>, tensor<6xi32>>) -> tensor<6xi32>
  %s2 = hlo.sort %k, %v {dimensions = array<i64: 0>, to_apply = @key_only} : (tensor<6xf32>, tensor<6xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>>
  %s3 = hlo.sort %k, %v {dimensions = array<i64: 0>, to_apply = @key_only} : (tensor<6xf32>, tensor<6xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>>
  %g3 = hlo.get_tuple_element %s3 after(%k : tensor<6xf32>) {index = 0 : i64} : (tuple<tensor<6xf32>, tensor<6xi32>>) -> tensor<6xf32>
  %s4 = hlo.sort %k, %v after(%v : tensor<6xi32>) {dimensions = array<i64: 0>, to_apply = @key_only} : (tensor<6xf32>, tensor<6xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>>
  %g4 = hlo.get_tuple_element %s4 {index = 0 : i64} : (tuple<tensor<6xf32>, tensor<6xi32>>) -> tensor<6xf32>
  %t = hlo.tuple %g0, %g10, %g11, %s2, %g3, %g4 : (tensor<6xf32>, tensor<6xf32>, tensor<6xi32>, tuple<tensor<6xf32>, tensor<6xi32>>, tensor<6xf32>, tensor<6xf32>) -> tuple<tensor<6xf32>, tensor<6xf32>, tensor<6xi32>, tuple<tensor<6xf32>, tensor<6xi32>>, tensor<6xf32>, tensor<6xf32>>
  hlo.return %t : tuple<tensor<6xf32>, tensor<6xf32>, tensor<6xi32>, tuple<tensor<6xf32>, tensor<6xi32>>, tensor<6xf32>, tensor<6xf32>>
}

// -----

// CHECK-LABEL: hlo.computation @root
// CHECK: sort %arg0, %arg1 {{.*}} -> tuple<tensor<6xf32>, tensor<6xi32>>
hlo.computation private @key_only(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {
  %lt = hlo.compare %a, %b {direction = #hlo<comparison_direction LT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %lt : tensor<i1>
}
hlo.computation @root(%k: tensor<6xf32>, %v: tensor<6xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>> attributes {entry} {
  %s = hlo.sort %k, %v {dimensions = array<i64: 0>, to_apply = @key_only} : (tensor<6xf32>, tensor<6xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>>
  hlo.return %s : tuple<tensor<6xf32>, tensor<6xi32>>
}
