// RUN: hlo-opt %s -split-input-file --hlo-result-caster | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-result-caster --hlo-check-semantics -o /dev/null

// The declared result ranks below the type inferred from the operands: the
// instruction computes in the inferred type (keeping its attributes and
// control predecessors) and a convert to the declared type takes its uses.
// s32 x s32 -> s8, f32 x bf16 -> f16 (inferred f32), s16 x s32 -> s8
// (inferred s32).
// CHECK-LABEL: hlo.computation @dots
hlo.computation @dots(%i: tensor<2x3xi32>, %j: tensor<3x4xi32>, %a: tensor<2x3xf32>, %b: tensor<3x4xbf16>, %h: tensor<2x3xi16>, %p: tensor<2xf32>) -> tuple<tensor<2x4xi8>, tensor<2x4xf16>, tensor<2x4xi8>> attributes {entry} {
  // CHECK: %[[D0:.*]] = dot %arg0, %arg1 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
  // CHECK-NEXT: %[[C0:.*]] = convert %[[D0]] : (tensor<2x4xi32>) -> tensor<2x4xi8>
  // CHECK-NEXT: %[[D1:.*]] = dot %arg2, %arg3 after(%arg5 : tensor<2xf32>) {{.*}} : (tensor<2x3xf32>, tensor<3x4xbf16>) -> tensor<2x4xf32>
  // CHECK-NEXT: %[[C1:.*]] = convert %[[D1]] : (tensor<2x4xf32>) -> tensor<2x4xf16>
  // CHECK-NEXT: %[[D2:.*]] = dot %arg4, %arg1 {{.*}} : (tensor<2x3xi16>, tensor<3x4xi32>) -> tensor<2x4xi32>
  // CHECK-NEXT: %[[C2:.*]] = convert %[[D2]] : (tensor<2x4xi32>) -> tensor<2x4xi8>
  // CHECK-NEXT: tuple %[[C0]], %[[C1]], %[[C2]]
  %0 = hlo.dot %i, %j {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi8>
  %1 = hlo.dot %a, %b after(%p : tensor<2xf32>) {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xf32>, tensor<3x4xbf16>) -> tensor<2x4xf16>
  %2 = hlo.dot %h, %j {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xi16>, tensor<3x4xi32>) -> tensor<2x4xi8>
  %r = hlo.tuple %0, %1, %2 : (tensor<2x4xi8>, tensor<2x4xf16>, tensor<2x4xi8>) -> tuple<tensor<2x4xi8>, tensor<2x4xf16>, tensor<2x4xi8>>
  hlo.return %r : tuple<tensor<2x4xi8>, tensor<2x4xf16>, tensor<2x4xi8>>
}

// -----

// A convolution f32 x f32 -> bf16 computes in f32; the result layout and
// sharding stay on the convolution, the convert gets the declared type.
// CHECK-LABEL: hlo.computation @convolution
hlo.computation @convolution(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x5xf32>) -> tensor<1x4x4x5xbf16, #hlo.layout<[0, 1, 2, 3]>> attributes {entry} {
  // CHECK: %[[V:.*]] = convolution %arg0, %arg1 {{.*}}sharding = #hlo.sharding<"{replicated}">{{.*}} : (tensor<1x4x4x2xf32>, tensor<3x3x2x5xf32>) -> tensor<1x4x4x5xf32, #hlo.layout<[0, 1, 2, 3]>>
  // CHECK-NEXT: %[[C:.*]] = convert %[[V]] : (tensor<1x4x4x5xf32, #hlo.layout<[0, 1, 2, 3]>>) -> tensor<1x4x4x5xbf16, #hlo.layout<[0, 1, 2, 3]>>
  // CHECK-NEXT: return %[[C]]
  %0 = hlo.convolution %x, %w {dim_labels = #hlo.conv<"b01f_01io->b01f">, window = #hlo.window<"{size=3x3 pad=1_1x1_1}">, sharding = #hlo.sharding<"{replicated}">} : (tensor<1x4x4x2xf32>, tensor<3x3x2x5xf32>) -> tensor<1x4x4x5xbf16, #hlo.layout<[0, 1, 2, 3]>>
  hlo.return %0 : tensor<1x4x4x5xbf16, #hlo.layout<[0, 1, 2, 3]>>
}

// -----

// Left alone: a result of the inferred type, results that rank above it
// (bf16 x bf16 -> f32, s8 x s8 -> s32, and s32 x s32 -> f32: a float
// ranks above any integer; hlo-operand-upcaster's case), and a fused
// computation.
// CHECK-LABEL: hlo.computation private @fused
// CHECK-NOT: convert
hlo.computation private @fused(%i: tensor<2x3xi32>, %j: tensor<3x4xi32>) -> tensor<2x4xi8> {
  %0 = hlo.dot %i, %j {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi8>
  hlo.return %0 : tensor<2x4xi8>
}
// CHECK-LABEL: hlo.computation @left_alone
hlo.computation @left_alone(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>, %i: tensor<2x3xi8>, %j: tensor<3x4xi8>, %k: tensor<2x3xi32>, %l: tensor<3x4xi32>) -> tuple<tensor<2x4xbf16>, tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xi8>, tensor<2x4xf32>> attributes {entry} {
  // CHECK-NOT: convert
  %0 = hlo.dot %a, %b {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xbf16>
  %1 = hlo.dot %a, %b {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>
  %2 = hlo.dot %i, %j {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  %3 = hlo.fusion %k, %l {calls = @fused, kind = #hlo<fusion_kind kOutput>} : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi8>
  %4 = hlo.dot %k, %l {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xf32>
  %r = hlo.tuple %0, %1, %2, %3, %4 : (tensor<2x4xbf16>, tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xi8>, tensor<2x4xf32>) -> tuple<tensor<2x4xbf16>, tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xi8>, tensor<2x4xf32>>
  hlo.return %r : tuple<tensor<2x4xbf16>, tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xi8>, tensor<2x4xf32>>
}
