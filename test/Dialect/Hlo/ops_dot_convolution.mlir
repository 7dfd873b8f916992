// RUN: hlo-opt %s | hlo-opt | FileCheck %s

// dot (with batch and contracting dimensions), scaled_dot, ragged_dot and
// convolution (strides, padding, dilation, feature and batch groups).

// CHECK-LABEL: hlo.computation @dot
hlo.computation @dot(%a: tensor<4x2x3xf32>, %b: tensor<4x3x5xf32>, %v: tensor<3xf32>, %w: tensor<4xf32>) -> tensor<4x2x5xf32> {
  // CHECK: %0 = dot %arg0, %arg1 {lhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_batch_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 1>} : (tensor<4x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x2x5xf32>
  %0 = hlo.dot %a, %b {lhs_batch_dims = array<i64: 0>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_contracting_dims = array<i64: 1>} : (tensor<4x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x2x5xf32>
  // No dimension numbers: an outer product.
  // CHECK: %1 = dot %arg2, %arg3 : (tensor<3xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %1 = hlo.dot %v, %w : (tensor<3xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  // The result element type may differ (preferred element type).
  // CHECK: %2 = dot %arg2, %arg2 {algorithm = #hlo<dot_algorithm dot_bf16_bf16_f32>, lhs_contracting_dims = array<i64: 0>, operand_precision = [#hlo<precision default>, #hlo<precision highest>], rhs_contracting_dims = array<i64: 0>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<f64>
  %2 = hlo.dot %v, %v {lhs_contracting_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 0>, operand_precision = [#hlo<precision default>, #hlo<precision highest>], algorithm = #hlo<dot_algorithm dot_bf16_bf16_f32>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<f64>
  hlo.return %0 : tensor<4x2x5xf32>
}

// CHECK-LABEL: hlo.computation @scaled_and_ragged_dot
hlo.computation @scaled_and_ragged_dot(%a: tensor<16x32xf8E4M3FN>, %b: tensor<32x8xf8E4M3FN>, %sa: tensor<16x1xf8E8M0FNU>, %sb: tensor<1x8xf8E8M0FNU>, %l: tensor<11x5xf32>, %r: tensor<3x5x7xf32>, %g: tensor<3xi64>) -> tensor<16x8xf32> {
  // Operands: lhs, lhs_scale, rhs, rhs_scale.
  // CHECK: %0 = scaled_dot %arg0, %arg1, %arg2, %arg3 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<16x32xf8E4M3FN>, tensor<32x8xf8E4M3FN>, tensor<16x1xf8E8M0FNU>, tensor<1x8xf8E8M0FNU>) -> tensor<16x8xf32>
  %0 = hlo.scaled_dot %a, %b, %sa, %sb {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<16x32xf8E4M3FN>, tensor<32x8xf8E4M3FN>, tensor<16x1xf8E8M0FNU>, tensor<1x8xf8E8M0FNU>) -> tensor<16x8xf32>
  // CHECK: %1 = ragged_dot %arg4, %arg5, %arg6 {lhs_contracting_dims = array<i64: 1>, lhs_ragged_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 1>, rhs_group_dims = array<i64: 0>} : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  %1 = hlo.ragged_dot %l, %r, %g {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 1>, lhs_ragged_dims = array<i64: 0>, rhs_group_dims = array<i64: 0>} : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  hlo.return %0 : tensor<16x8xf32>
}

// CHECK-LABEL: hlo.computation @convolution
hlo.computation @convolution(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>, %dw: tensor<3x3x1x3xf32>) -> tensor<1x8x8x16xf32> {
  // CHECK: %0 = convolution %arg0, %arg1 {dim_labels = #hlo.conv<"b01f_01io->b01f">, window = #hlo.window<"{size=3x3 pad=1_1x1_1}">} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  %0 = hlo.convolution %x, %k {window = #hlo.window<"{size=3x3 pad=1_1x1_1}">, dim_labels = #hlo.conv<"b01f_01io->b01f">} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  // Strided: (8 - 3) / 2 + 1 = 3.
  // CHECK: %1 = convolution %arg0, %arg1 {dim_labels = #hlo.conv<"b01f_01io->b01f">, window = #hlo.window<"{size=3x3 stride=2x2}">} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x3x3x16xf32>
  %1 = hlo.convolution %x, %k {window = #hlo.window<"{size=3x3 stride=2x2}">, dim_labels = #hlo.conv<"b01f_01io->b01f">} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x3x3x16xf32>
  // Depthwise: feature_group_count = input features.
  // CHECK: %2 = convolution %arg0, %arg2 {dim_labels = #hlo.conv<"b01f_01io->b01f">, feature_group_count = 3 : i64, operand_precision = [#hlo<precision high>, #hlo<precision high>], window = #hlo.window<"{size=3x3 pad=1_1x1_1}">} : (tensor<1x8x8x3xf32>, tensor<3x3x1x3xf32>) -> tensor<1x8x8x3xf32>
  %2 = hlo.convolution %x, %dw {window = #hlo.window<"{size=3x3 pad=1_1x1_1}">, dim_labels = #hlo.conv<"b01f_01io->b01f">, feature_group_count = 3 : i64, operand_precision = [#hlo<precision high>, #hlo<precision high>]} : (tensor<1x8x8x3xf32>, tensor<3x3x1x3xf32>) -> tensor<1x8x8x3xf32>
  hlo.return %0 : tensor<1x8x8x16xf32>
}

// CHECK-LABEL: hlo.computation @convolution_dilated_grouped
hlo.computation @convolution_dilated_grouped(%x: tensor<4x2x5x5xf32>, %k: tensor<4x2x3x3xf32>, %y: tensor<2x3x7xf32>, %w: tensor<4x3x2xf32>) -> tensor<2x4x3x3xf32> {
  // batch_group_count 2 halves the batch: bf01 input, oi01 kernel.
  // CHECK: %0 = convolution %arg0, %arg1 {batch_group_count = 2 : i64, dim_labels = #hlo.conv<"bf01_oi01->bf01">, window = #hlo.window<"{size=3x3}">} : (tensor<4x2x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<2x4x3x3xf32>
  %0 = hlo.convolution %x, %k {window = #hlo.window<"{size=3x3}">, dim_labels = #hlo.conv<"bf01_oi01->bf01">, batch_group_count = 2 : i64} : (tensor<4x2x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<2x4x3x3xf32>
  // 1-d, lhs dilation 2 (13 positions), rhs dilation 4 (window 5), pad 1_2:
  // (13 + 3 - 5) / 1 + 1 = 12.
  // CHECK: %1 = convolution %arg2, %arg3 {dim_labels = #hlo.conv<"bf0_oi0->bf0">, window = #hlo.window<"{size=2 pad=1_2 lhs_dilate=2 rhs_dilate=4 rhs_reversal=1}">} : (tensor<2x3x7xf32>, tensor<4x3x2xf32>) -> tensor<2x4x12xf32>
  %1 = hlo.convolution %y, %w {window = #hlo.window<"{size=2 pad=1_2 lhs_dilate=2 rhs_dilate=4 rhs_reversal=1}">, dim_labels = #hlo.conv<"bf0_oi0->bf0">} : (tensor<2x3x7xf32>, tensor<4x3x2xf32>) -> tensor<2x4x12xf32>
  hlo.return %0 : tensor<2x4x3x3xf32>
}
