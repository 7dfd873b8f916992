// RUN: hlo-opt %s -split-input-file --hlo-operand-upcaster | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-operand-upcaster --hlo-check-semantics -o /dev/null
// RUN: hlo-opt %s -split-input-file --hlo-operand-upcaster=skip-cublas-matmuls=true | FileCheck %s --check-prefix=GPU
// RUN: hlo-opt %s -split-input-file --hlo-operand-upcaster=skip-cublas-matmuls=true --hlo-check-semantics -o /dev/null
// Before Volta the filter does not apply (XLA's rule): all are upcast.
// RUN: hlo-opt %s -split-input-file --hlo-gpu-device=%S/Inputs/pascal-gpu.txtpb --hlo-operand-upcaster=skip-cublas-matmuls=true | FileCheck %s --check-prefix=PASCAL
// RUN: hlo-opt %s -split-input-file --hlo-gpu-device=%S/Inputs/pascal-gpu.txtpb --hlo-operand-upcaster=skip-cublas-matmuls=true --hlo-check-semantics -o /dev/null
// Ampere (an A100) leaves matrix multiplications, but not of fp8 operands.
// RUN: hlo-opt %s -split-input-file --hlo-gpu-device=a100 --hlo-operand-upcaster=skip-cublas-matmuls=true | FileCheck %s --check-prefix=A100

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

// -----

// XLA-GPU's upcaster filter (skip-cublas-matmuls): matrix multiplications
// cuBLAS runs in mixed precision stay (bf16 x bf16 -> f32, s8 x s8 -> s32,
// batched s8 x s8 -> f32); a vector operand (a free dimension of size 1),
// two free dimensions on a side, u8 operands and a convolution are upcast
// as without the filter.
// CHECK-LABEL: hlo.computation @gpu_filter
// PASCAL-LABEL: hlo.computation @gpu_filter
// PASCAL-NEXT: convert %arg0 : (tensor<2x3xbf16>) -> tensor<2x3xf32>
// PASCAL-NEXT: convert %arg1 : (tensor<3x4xbf16>) -> tensor<3x4xf32>
// PASCAL-NEXT: dot
// PASCAL-NEXT: convert %arg2 : (tensor<2x3xi8>) -> tensor<2x3xi32>
// GPU-LABEL: hlo.computation @gpu_filter
// GPU-NEXT: dot %arg0, %arg1 {{.*}} : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>
// GPU-NEXT: dot %arg2, %arg3 {{.*}} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
// GPU-NEXT: dot %arg4, %arg5 {{.*}} : (tensor<5x2x3xi8>, tensor<5x3x4xi8>) -> tensor<5x2x4xf32>
// GPU-NEXT: %[[V:.*]] = convert %arg6 : (tensor<1x3xbf16>) -> tensor<1x3xf32>
// GPU-NEXT: %[[V1:.*]] = convert %arg1 : (tensor<3x4xbf16>) -> tensor<3x4xf32>
// GPU-NEXT: dot %[[V]], %[[V1]] {{.*}} -> tensor<1x4xf32>
// GPU-NEXT: %[[W:.*]] = convert %arg7 : (tensor<2x6x3xbf16>) -> tensor<2x6x3xf32>
// GPU-NEXT: %[[W1:.*]] = convert %arg1 : (tensor<3x4xbf16>) -> tensor<3x4xf32>
// GPU-NEXT: dot %[[W]], %[[W1]] {{.*}} -> tensor<2x6x4xf32>
// GPU-NEXT: %[[U:.*]] = convert %arg8 : (tensor<2x3xui8>) -> tensor<2x3xi32>
// GPU-NEXT: %[[U1:.*]] = convert %arg9 : (tensor<3x4xui8>) -> tensor<3x4xi32>
// GPU-NEXT: dot %[[U]], %[[U1]] {{.*}} -> tensor<2x4xi32>
hlo.computation @gpu_filter(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>, %i: tensor<2x3xi8>, %j: tensor<3x4xi8>, %bi: tensor<5x2x3xi8>, %bj: tensor<5x3x4xi8>, %v: tensor<1x3xbf16>, %w: tensor<2x6x3xbf16>, %u: tensor<2x3xui8>, %u2: tensor<3x4xui8>) -> tuple<tensor<2x4xf32>, tensor<2x4xi32>, tensor<5x2x4xf32>, tensor<1x4xf32>, tensor<2x6x4xf32>, tensor<2x4xi32>> attributes {entry} {
  %0 = hlo.dot %a, %b {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>
  %1 = hlo.dot %i, %j {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  %2 = hlo.dot %bi, %bj {lhs_batch_dims = array<i64: 0>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_contracting_dims = array<i64: 1>} : (tensor<5x2x3xi8>, tensor<5x3x4xi8>) -> tensor<5x2x4xf32>
  %3 = hlo.dot %v, %b {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<1x3xbf16>, tensor<3x4xbf16>) -> tensor<1x4xf32>
  %4 = hlo.dot %w, %b {lhs_contracting_dims = array<i64: 2>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x6x3xbf16>, tensor<3x4xbf16>) -> tensor<2x6x4xf32>
  %5 = hlo.dot %u, %u2 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xui8>, tensor<3x4xui8>) -> tensor<2x4xi32>
  %r = hlo.tuple %0, %1, %2, %3, %4, %5 : (tensor<2x4xf32>, tensor<2x4xi32>, tensor<5x2x4xf32>, tensor<1x4xf32>, tensor<2x6x4xf32>, tensor<2x4xi32>) -> tuple<tensor<2x4xf32>, tensor<2x4xi32>, tensor<5x2x4xf32>, tensor<1x4xf32>, tensor<2x6x4xf32>, tensor<2x4xi32>>
  hlo.return %r : tuple<tensor<2x4xf32>, tensor<2x4xi32>, tensor<5x2x4xf32>, tensor<1x4xf32>, tensor<2x6x4xf32>, tensor<2x4xi32>>
}

// -----

// fp8 operands are left from Ada on (the default H100), for
// hlo-gemm-rewriter's cuBLASLt fp8 GEMM; before it they are upcast, to the
// GEMM XLA falls back to.
// CHECK-LABEL: hlo.computation @gpu_filter_f8
// GPU-LABEL: hlo.computation @gpu_filter_f8
// GPU-NEXT: dot %arg0, %arg1 {{.*}} : (tensor<2x3xf8E5M2>, tensor<4x3xf8E4M3FN>) -> tensor<2x4xbf16>
// A100-LABEL: hlo.computation @gpu_filter_f8
// A100-NEXT: %[[X:.*]] = convert %arg0 : (tensor<2x3xf8E5M2>) -> tensor<2x3xbf16>
// A100-NEXT: %[[Y:.*]] = convert %arg1 : (tensor<4x3xf8E4M3FN>) -> tensor<4x3xbf16>
// A100-NEXT: dot %[[X]], %[[Y]] {{.*}} -> tensor<2x4xbf16>
hlo.computation @gpu_filter_f8(%x: tensor<2x3xf8E5M2>, %y: tensor<4x3xf8E4M3FN>) -> tensor<2x4xbf16> attributes {entry} {
  %0 = hlo.dot %x, %y {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 1>} : (tensor<2x3xf8E5M2>, tensor<4x3xf8E4M3FN>) -> tensor<2x4xbf16>
  hlo.return %0 : tensor<2x4xbf16>
}
