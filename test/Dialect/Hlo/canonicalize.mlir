// RUN: hlo-opt %s -split-input-file --canonicalize | FileCheck %s
// RUN: hlo-opt %s -split-input-file --canonicalize --hlo-check-semantics

// Canonicalization patterns.

// CHECK-LABEL: hlo.computation @main
hlo.computation @main(%x: tensor<2x3x4xf32>, %v: tensor<6xf32>, %s: tensor<f32>) -> tuple<tensor<4x2x3xf32>, tensor<24xf32>, tensor<5x2x3xf32>, tensor<3xf32>, tensor<2xf32>> attributes {entry} {
  // transpose(transpose(x)): one transpose with the composed permutation.
  // CHECK: %[[T:.*]] = transpose %arg0 {dimensions = array<i64: 2, 0, 1>}
  %t1 = hlo.transpose %x {dimensions = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %t2 = hlo.transpose %t1 {dimensions = array<i64: 1, 2, 0>} : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  // reshape(reshape(x)): one reshape.
  // CHECK: %[[R:.*]] = reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %r1 = hlo.reshape %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %r2 = hlo.reshape %r1 : (tensor<6x4xf32>) -> tensor<24xf32>
  // broadcast(broadcast(s)): one broadcast with composed dimensions.
  // CHECK: %[[B:.*]] = broadcast %arg2 {dimensions = array<i64>} : (tensor<f32>) -> tensor<5x2x3xf32>
  %b1 = hlo.broadcast %s {dimensions = array<i64>} : (tensor<f32>) -> tensor<2x3xf32>
  %b2 = hlo.broadcast %b1 {dimensions = array<i64: 1, 2>} : (tensor<2x3xf32>) -> tensor<5x2x3xf32>
  // dynamic-slice at constant indices: a slice, the start clamped (5 -> 3).
  // CHECK: %[[S:.*]] = slice %arg1 {slice = #hlo.slice<"{[3:6]}">}
  %five = hlo.constant {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %ds = hlo.dynamic_slice %v, %five {dynamic_slice_sizes = array<i64: 3>} : (tensor<6xf32>, tensor<i32>) -> tensor<3xf32>
  // Not with control predecessors: the edge would be lost.
  // CHECK: dynamic_slice %arg1, %{{.*}} after(
  %ds2 = hlo.dynamic_slice %v, %five after(%ds : tensor<3xf32>) {dynamic_slice_sizes = array<i64: 2>} : (tensor<6xf32>, tensor<i32>) -> tensor<2xf32>
  // CHECK: tuple %[[T]], %[[R]], %[[B]], %[[S]]
  %res = hlo.tuple %t2, %r2, %b2, %ds, %ds2 : (tensor<4x2x3xf32>, tensor<24xf32>, tensor<5x2x3xf32>, tensor<3xf32>, tensor<2xf32>) -> tuple<tensor<4x2x3xf32>, tensor<24xf32>, tensor<5x2x3xf32>, tensor<3xf32>, tensor<2xf32>>
  hlo.return %res : tuple<tensor<4x2x3xf32>, tensor<24xf32>, tensor<5x2x3xf32>, tensor<3xf32>, tensor<2xf32>>
}

// -----

// Unsigned constant start indices clamp as unsigned values: past int64 too
// (2^63 + 5), to the last place, as XLA's compiled code clamps them.
// CHECK-LABEL: hlo.computation @unsigned_starts
// CHECK: %[[A:.*]] = slice %arg0 {slice = #hlo.slice<"{[3:6]}">}
// CHECK: %[[B:.*]] = slice %arg0 {slice = #hlo.slice<"{[4:6]}">}
// CHECK: tuple %[[A]], %[[B]]
hlo.computation @unsigned_starts(%v: tensor<6xf32>) -> tuple<tensor<3xf32>, tensor<2xf32>> attributes {entry} {
  %big = hlo.constant {value = dense<9223372036854775813> : tensor<ui64>} : () -> tensor<ui64>
  %u32 = hlo.constant {value = dense<3000000000> : tensor<ui32>} : () -> tensor<ui32>
  %a = hlo.dynamic_slice %v, %big {dynamic_slice_sizes = array<i64: 3>} : (tensor<6xf32>, tensor<ui64>) -> tensor<3xf32>
  %b = hlo.dynamic_slice %v, %u32 {dynamic_slice_sizes = array<i64: 2>} : (tensor<6xf32>, tensor<ui32>) -> tensor<2xf32>
  %res = hlo.tuple %a, %b : (tensor<3xf32>, tensor<2xf32>) -> tuple<tensor<3xf32>, tensor<2xf32>>
  hlo.return %res : tuple<tensor<3xf32>, tensor<2xf32>>
}

// -----

// broadcast(reshape(v)) where the reshape only inserts dimensions of size 1
// (XLA's algebraic simplifier elides it): broadcast(v) without the inserted
// dimensions' entries (ResNet-50's conv biases, which the cuDNN rewriter
// then takes as biases). A reshape that regroups dimensions stays.
// CHECK-LABEL: hlo.computation @unit_reshape
// CHECK: %[[U:.*]] = broadcast %arg0 {dimensions = array<i64: 3>} : (tensor<64xf32>) -> tensor<1x5x5x64xf32>
// CHECK: %[[G:.*]] = reshape %arg1 : (tensor<6xf32>) -> tensor<2x3xf32>
// CHECK: %[[H:.*]] = broadcast %[[G]] {dimensions = array<i64: 1, 2>}
// CHECK: tuple %[[U]], %[[H]]
hlo.computation @unit_reshape(%v: tensor<64xf32>, %w: tensor<6xf32>) -> tuple<tensor<1x5x5x64xf32>, tensor<4x2x3xf32>> attributes {entry} {
  %r = hlo.reshape %v : (tensor<64xf32>) -> tensor<1x64xf32>
  %b = hlo.broadcast %r {dimensions = array<i64: 0, 3>} : (tensor<1x64xf32>) -> tensor<1x5x5x64xf32>
  %g = hlo.reshape %w : (tensor<6xf32>) -> tensor<2x3xf32>
  %h = hlo.broadcast %g {dimensions = array<i64: 1, 2>} : (tensor<2x3xf32>) -> tensor<4x2x3xf32>
  %res = hlo.tuple %b, %h : (tensor<1x5x5x64xf32>, tensor<4x2x3xf32>) -> tuple<tensor<1x5x5x64xf32>, tensor<4x2x3xf32>>
  hlo.return %res : tuple<tensor<1x5x5x64xf32>, tensor<4x2x3xf32>>
}
