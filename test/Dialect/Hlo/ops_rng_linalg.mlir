// RUN: hlo-opt %s | hlo-opt | FileCheck %s

// Random numbers, batch norm, fft, cholesky and triangular_solve.

// CHECK-LABEL: hlo.computation @rng
hlo.computation @rng(%lo: tensor<f32>, %hi: tensor<f32>, %s: tensor<2xui64>) -> tensor<8xf32> {
  // CHECK: %0 = rng %arg0, %arg1 {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<f32>, tensor<f32>) -> tensor<8xf32>
  %0 = hlo.rng %lo, %hi {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<f32>, tensor<f32>) -> tensor<8xf32>
  // CHECK: %1 = rng %arg0, %arg1 {distribution = #hlo<rng_distribution rng_normal>} : (tensor<f32>, tensor<f32>) -> tensor<2x2xf32>
  %1 = hlo.rng %lo, %hi {distribution = #hlo<rng_distribution rng_normal>} : (tensor<f32>, tensor<f32>) -> tensor<2x2xf32>
  // CHECK: %2 = rng_bit_generator %arg2 {algorithm = #hlo<rng_algorithm rng_three_fry>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<11x17xui32>>
  %2 = hlo.rng_bit_generator %s {algorithm = #hlo<rng_algorithm rng_three_fry>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<11x17xui32>>
  // CHECK: %3 = rng_get_and_update_state  {delta = 131072 : i64} : () -> tensor<2xui64>
  %3 = hlo.rng_get_and_update_state {delta = 131072 : i64} : () -> tensor<2xui64>
  hlo.return %0 : tensor<8xf32>
}

// CHECK-LABEL: hlo.computation @batch_norm
hlo.computation @batch_norm(%x: tensor<2x3x4x5xf32>, %f: tensor<3xf32>) -> tensor<2x3x4x5xf32> {
  // CHECK: %0 = batch_norm_training %arg0, %arg1, %arg1 {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>>
  %0 = hlo.batch_norm_training %x, %f, %f {epsilon = 0.001 : f32, feature_index = 1 : i64} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>>
  // CHECK: %1 = batch_norm_inference %arg0, %arg1, %arg1, %arg1, %arg1 {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  %1 = hlo.batch_norm_inference %x, %f, %f, %f, %f {epsilon = 0.001 : f32, feature_index = 1 : i64} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  // CHECK: %2 = batch_norm_grad %arg0, %arg1, %arg1, %arg1, %1 {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3x4x5xf32>) -> tuple<tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>>
  %2 = hlo.batch_norm_grad %x, %f, %f, %f, %1 {epsilon = 0.001 : f32, feature_index = 1 : i64} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3x4x5xf32>) -> tuple<tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>>
  hlo.return %1 : tensor<2x3x4x5xf32>
}

// CHECK-LABEL: hlo.computation @fft
hlo.computation @fft(%c: tensor<3x8xcomplex<f32>>, %r: tensor<3x4x8xf64>, %h: tensor<3x4x5xcomplex<f64>>) -> tensor<3x8xcomplex<f32>> {
  // CHECK: %0 = fft %arg0 {fft_length = array<i64: 8>, fft_type = #hlo<fft_type FFT>} : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
  %0 = hlo.fft %c {fft_type = #hlo<fft_type FFT>, fft_length = array<i64: 8>} : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
  // CHECK: %1 = fft %0 {fft_length = array<i64: 3, 8>, fft_type = #hlo<fft_type IFFT>} : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
  %1 = hlo.fft %0 {fft_type = #hlo<fft_type IFFT>, fft_length = array<i64: 3, 8>} : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
  // RFFT keeps fft_length.back() / 2 + 1 complex values.
  // CHECK: %2 = fft %arg1 {fft_length = array<i64: 4, 8>, fft_type = #hlo<fft_type RFFT>} : (tensor<3x4x8xf64>) -> tensor<3x4x5xcomplex<f64>>
  %2 = hlo.fft %r {fft_type = #hlo<fft_type RFFT>, fft_length = array<i64: 4, 8>} : (tensor<3x4x8xf64>) -> tensor<3x4x5xcomplex<f64>>
  // CHECK: %3 = fft %arg2 {fft_length = array<i64: 4, 8>, fft_type = #hlo<fft_type IRFFT>} : (tensor<3x4x5xcomplex<f64>>) -> tensor<3x4x8xf64>
  %3 = hlo.fft %h {fft_type = #hlo<fft_type IRFFT>, fft_length = array<i64: 4, 8>} : (tensor<3x4x5xcomplex<f64>>) -> tensor<3x4x8xf64>
  hlo.return %1 : tensor<3x8xcomplex<f32>>
}

// CHECK-LABEL: hlo.computation @linalg
hlo.computation @linalg(%a: tensor<2x4x4xf32>, %b: tensor<2x4x3xf32>, %c: tensor<2x3x4xf32>) -> tensor<2x4x3xf32> {
  // CHECK: %0 = cholesky %arg0 {lower = true} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %0 = hlo.cholesky %a {lower = true} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // CHECK: %1 = triangular_solve %0, %arg1 {left_side = true, lower = true, transpose_a = #hlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %1 = hlo.triangular_solve %0, %b {left_side = true, lower = true, unit_diagonal = false, transpose_a = #hlo<transpose NO_TRANSPOSE>} : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  // Right side: x a = b, so b's minor dimension matches a.
  // CHECK: %2 = triangular_solve %0, %arg2 {transpose_a = #hlo<transpose ADJOINT>} : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %2 = hlo.triangular_solve %0, %c {transpose_a = #hlo<transpose ADJOINT>} : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  hlo.return %1 : tensor<2x4x3xf32>
}
