// RUN: hlo-opt %s -split-input-file --hlo-operand-upcaster | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-operand-upcaster --hlo-check-semantics -o /dev/null

// The result type ranks above the operands': each operand of another type
// is converted to it (bf16 x bf16 -> f32, s8 x s8 -> s32), only the lhs
// when the rhs already has it, and u8 x s8 (inferred s8) -> s32.
// CHECK-LABEL: hlo.computation @dots
hlo.computation @dots(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>, %c: tensor<3x4xf32>, %i: tensor<2x3xi8>, %j: tensor<3x4xi8>, %u: tensor<2x3xui8>) -> tuple<tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xi32>> attributes {entry} {
  // CHECK: %[[A:.*]] = convert %arg0 : (tensor<2x3xbf16>) -> tensor<2x3xf32>
  // CHECK-NEXT: %[[B:.*]] = convert %arg1 : (tensor<3x4xbf16>) -> tensor<3x4xf32>
  // CHECK-NEXT: dot %[[A]], %[[B]] {lhs_contracting_dims = array<i64: 1>, operand_precision = [#hlo<precision high>, #hlo<precision high>], rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK-NEXT: %[[A2:.*]] = convert %arg0 : (tensor<2x3xbf16>) -> tensor<2x3xf32>
  // CHECK-NEXT: dot %[[A2]], %arg2 {{.*}} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK-NEXT: %[[I:.*]] = convert %arg3 : (tensor<2x3xi8>) -> tensor<2x3xi32>
  // CHECK-NEXT: %[[J:.*]] = convert %arg4 : (tensor<3x4xi8>) -> tensor<3x4xi32>
  // CHECK-NEXT: dot %[[I]], %[[J]] {{.*}} : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
  // CHECK-NEXT: %[[U:.*]] = convert %arg5 : (tensor<2x3xui8>) -> tensor<2x3xi32>
  // CHECK-NEXT: %[[J2:.*]] = convert %arg4 : (tensor<3x4xi8>) -> tensor<3x4xi32>
  // CHECK-NEXT: dot %[[U]], %[[J2]] {{.*}} : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
  %0 = hlo.dot %a, %b {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>, operand_precision = [#hlo<precision high>, #hlo<precision high>]} : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>
  %1 = hlo.dot %a, %c {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xbf16>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %2 = hlo.dot %i, %j {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  %3 = hlo.dot %u, %j {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xui8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  %r = hlo.tuple %0, %1, %2, %3 : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xi32>) -> tuple<tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xi32>>
  hlo.return %r : tuple<tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xi32>>
}

// -----

// A convolution: the bf16 kernel is converted to the f32 result type.
// CHECK-LABEL: hlo.computation @convolution
hlo.computation @convolution(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x5xbf16>) -> tensor<1x4x4x5xf32> attributes {entry} {
  // CHECK: %[[W:.*]] = convert %arg1 : (tensor<3x3x2x5xbf16>) -> tensor<3x3x2x5xf32>
  // CHECK-NEXT: convolution %arg0, %[[W]] {{.*}} : (tensor<1x4x4x2xf32>, tensor<3x3x2x5xf32>) -> tensor<1x4x4x5xf32>
  %0 = hlo.convolution %x, %w {dim_labels = #hlo.conv<"b01f_01io->b01f">, window = #hlo.window<"{size=3x3 pad=1_1x1_1}">} : (tensor<1x4x4x2xf32>, tensor<3x3x2x5xbf16>) -> tensor<1x4x4x5xf32>
  hlo.return %0 : tensor<1x4x4x5xf32>
}

// -----

// Left alone: operands and result of one type, a result below the inferred
// type (hlo-result-caster's case), packed-nibble precision, and a fused
// computation.
// CHECK-LABEL: hlo.computation private @fused
// CHECK-NOT: convert
hlo.computation private @fused(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>) -> tensor<2x4xf32> {
  %0 = hlo.dot %a, %b {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>
  hlo.return %0 : tensor<2x4xf32>
}
// CHECK-LABEL: hlo.computation @left_alone
hlo.computation @left_alone(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>, %c: tensor<2x3xf32>, %d: tensor<3x4xf32>, %i: tensor<2x3xi8>, %j: tensor<3x4xi8>) -> tuple<tensor<2x4xf32>, tensor<2x4xbf16>, tensor<2x4xi32>, tensor<2x4xf32>> attributes {entry} {
  // CHECK-NOT: convert
  %0 = hlo.dot %c, %d {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = hlo.dot %c, %d {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xbf16>
  %2 = hlo.dot %i, %j {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>, operand_precision = [#hlo<precision packed_nibble>, #hlo<precision packed_nibble>]} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  %3 = hlo.fusion %a, %b {calls = @fused, kind = #hlo<fusion_kind kOutput>} : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>
  %r = hlo.tuple %0, %1, %2, %3 : (tensor<2x4xf32>, tensor<2x4xbf16>, tensor<2x4xi32>, tensor<2x4xf32>) -> tuple<tensor<2x4xf32>, tensor<2x4xbf16>, tensor<2x4xi32>, tensor<2x4xf32>>
  hlo.return %r : tuple<tensor<2x4xf32>, tensor<2x4xbf16>, tensor<2x4xi32>, tensor<2x4xf32>>
}
