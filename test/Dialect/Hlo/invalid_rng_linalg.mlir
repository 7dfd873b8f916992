// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// Random numbers, batch norm, fft, cholesky and triangular_solve.

hlo.computation @rng_arity(%lo: tensor<f32>) -> tensor<8xf32> {
  // expected-error @+1 {{'hlo.rng' op needs 2 distribution parameters, got 1}}
  %0 = hlo.rng %lo {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<f32>) -> tensor<8xf32>
  hlo.return %0 : tensor<8xf32>
}

// -----

hlo.computation @rng_not_scalar(%lo: tensor<f32>, %hi: tensor<2xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'hlo.rng' op distribution parameters must be scalars, got 'tensor<2xf32>'}}
  %0 = hlo.rng %lo, %hi {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<f32>, tensor<2xf32>) -> tensor<8xf32>
  hlo.return %0 : tensor<8xf32>
}

// -----

hlo.computation @rng_element_type(%lo: tensor<f32>, %hi: tensor<f32>) -> tensor<8xf16> {
  // expected-error @+1 {{'hlo.rng' op distribution parameter element type 'f32' differs from the result's 'f16'}}
  %0 = hlo.rng %lo, %hi {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<f32>, tensor<f32>) -> tensor<8xf16>
  hlo.return %0 : tensor<8xf16>
}

// -----

hlo.computation @rng_normal_int(%lo: tensor<i32>, %hi: tensor<i32>) -> tensor<8xi32> {
  // expected-error @+1 {{'hlo.rng' op result must have floating-point elements, got 'i32'}}
  %0 = hlo.rng %lo, %hi {distribution = #hlo<rng_distribution rng_normal>} : (tensor<i32>, tensor<i32>) -> tensor<8xi32>
  hlo.return %0 : tensor<8xi32>
}

// -----

hlo.computation @rng_result(%lo: tensor<f32>, %hi: tensor<f32>) -> tuple<tensor<8xf32>> {
  // expected-error @+1 {{'hlo.rng' op result must be an array, got 'tuple<tensor<8xf32>>'}}
  %0 = hlo.rng %lo, %hi {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<f32>, tensor<f32>) -> tuple<tensor<8xf32>>
  hlo.return %0 : tuple<tensor<8xf32>>
}

// -----

hlo.computation @rng_bit_generator_result(%s: tensor<2xui64>) -> tensor<8xui32> {
  // expected-error @+1 {{'hlo.rng_bit_generator' op result must be a tuple (new state, bits), got 'tensor<8xui32>'}}
  %0 = hlo.rng_bit_generator %s {algorithm = #hlo<rng_algorithm rng_philox>} : (tensor<2xui64>) -> tensor<8xui32>
  hlo.return %0 : tensor<8xui32>
}

// -----

hlo.computation @rng_bit_generator_state(%s: tensor<2xui64>) -> tuple<tensor<3xui64>, tensor<8xui32>> {
  // expected-error @+1 {{'hlo.rng_bit_generator' op new state type 'tensor<3xui64>' must match the state type 'tensor<2xui64>'}}
  %0 = hlo.rng_bit_generator %s {algorithm = #hlo<rng_algorithm rng_philox>} : (tensor<2xui64>) -> tuple<tensor<3xui64>, tensor<8xui32>>
  hlo.return %0 : tuple<tensor<3xui64>, tensor<8xui32>>
}

// -----

hlo.computation @rng_bit_generator_bits(%s: tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<8xf32>> {
  // expected-error @+1 {{'hlo.rng_bit_generator' op generated bits must have integral elements, got 'f32'}}
  %0 = hlo.rng_bit_generator %s {algorithm = #hlo<rng_algorithm rng_philox>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<8xf32>>
  hlo.return %0 : tuple<tensor<2xui64>, tensor<8xf32>>
}

// -----

hlo.computation @rng_get_and_update_state() -> tensor<2xi64> {
  // expected-error @+1 {{'hlo.rng_get_and_update_state' op result type 'tensor<2xi64>' does not match the inferred type 'tensor<2xui64>'}}
  %0 = hlo.rng_get_and_update_state  {delta = 1 : i64} : () -> tensor<2xi64>
  hlo.return %0 : tensor<2xi64>
}

// -----

hlo.computation @batch_norm_feature_index(%x: tensor<2x3x4xf32>, %f: tensor<3xf32>, %g: tensor<3xf32>) -> tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>> {
  // expected-error @+1 {{'hlo.batch_norm_training' op feature_index 3 is out of range for rank 3}}
  %0 = hlo.batch_norm_training %x, %f, %g {epsilon = 1.0e-3 : f32, feature_index = 3 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>
  hlo.return %0 : tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>
}

// -----

hlo.computation @batch_norm_scale_size(%x: tensor<2x3x4xf32>, %f: tensor<4xf32>, %g: tensor<3xf32>) -> tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>> {
  // expected-error @+1 {{'hlo.batch_norm_training' op per-feature operand of type 'tensor<4xf32>' must be rank 1 with 3 elements}}
  %0 = hlo.batch_norm_training %x, %f, %g {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<3xf32>) -> tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>
  hlo.return %0 : tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>
}

// -----

hlo.computation @batch_norm_int(%x: tensor<2x3x4xi32>, %f: tensor<3xf32>, %g: tensor<3xf32>) -> tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>> {
  // expected-error @+1 {{'hlo.batch_norm_training' op operand must have floating-point elements, got 'i32'}}
  %0 = hlo.batch_norm_training %x, %f, %g {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3x4xi32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>
  hlo.return %0 : tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>
}

// -----

hlo.computation @batch_norm_training_result(%x: tensor<2x3x4xf32>, %f: tensor<3xf32>, %g: tensor<3xf32>) -> tuple<tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>> {
  // expected-error @+1 {{'hlo.batch_norm_training' op result type 'tuple<tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>>' does not match the inferred type 'tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>'}}
  %0 = hlo.batch_norm_training %x, %f, %g {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>>
  hlo.return %0 : tuple<tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>>
}

// -----

hlo.computation @batch_norm_inference_result(%x: tensor<2x3x4xf32>, %f: tensor<3xf32>, %o: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'hlo.batch_norm_inference' op result type 'tensor<2x3xf32>' does not match the inferred type 'tensor<2x3x4xf32>'}}
  %0 = hlo.batch_norm_inference %x, %f, %o, %m, %v {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  hlo.return %0 : tensor<2x3xf32>
}

// -----

hlo.computation @batch_norm_inference_variance(%x: tensor<2x3x4xf32>, %f: tensor<3xf32>, %o: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'hlo.batch_norm_inference' op per-feature operand of type 'tensor<3x1xf32>' must be rank 1 with 3 elements}}
  %0 = hlo.batch_norm_inference %x, %f, %o, %m, %v {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  hlo.return %0 : tensor<2x3x4xf32>
}

// -----

hlo.computation @batch_norm_grad_output(%x: tensor<2x3x4xf32>, %f: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>, %g: tensor<2x3x5xf32>) -> tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>> {
  // expected-error @+1 {{'hlo.batch_norm_grad' op grad_output type 'tensor<2x3x5xf32>' must match the operand type 'tensor<2x3x4xf32>'}}
  %0 = hlo.batch_norm_grad %x, %f, %m, %v, %g {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3x5xf32>) -> tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>
  hlo.return %0 : tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>
}

// -----

hlo.computation @batch_norm_grad_result(%x: tensor<2x3x4xf32>, %f: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>, %g: tensor<2x3x4xf32>) -> tuple<tensor<2x3x4xf32>, tensor<3xf32>> {
  // expected-error @+1 {{'hlo.batch_norm_grad' op result type 'tuple<tensor<2x3x4xf32>, tensor<3xf32>>' does not match the inferred type 'tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>'}}
  %0 = hlo.batch_norm_grad %x, %f, %m, %v, %g {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3x4xf32>) -> tuple<tensor<2x3x4xf32>, tensor<3xf32>>
  hlo.return %0 : tuple<tensor<2x3x4xf32>, tensor<3xf32>>
}

// -----

hlo.computation @fft_length_rank(%c: tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>> {
  // expected-error @+1 {{'hlo.fft' op fft_length [2, 2, 2, 2] must have 1 to 3 entries}}
  %0 = hlo.fft %c {fft_type = #hlo<fft_type FFT>, fft_length = array<i64: 2, 2, 2, 2>} : (tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>>
  hlo.return %0 : tensor<2x2x2x2xcomplex<f32>>
}

// -----

hlo.computation @fft_operand_rank(%c: tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>> {
  // expected-error @+1 {{'hlo.fft' op operand rank 2 is less than the fft rank 3}}
  %0 = hlo.fft %c {fft_type = #hlo<fft_type FFT>, fft_length = array<i64: 2, 3, 8>} : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
  hlo.return %0 : tensor<3x8xcomplex<f32>>
}

// -----

hlo.computation @fft_real_input(%r: tensor<3x8xf32>) -> tensor<3x8xf32> {
  // expected-error @+1 {{'hlo.fft' op FFT needs a complex operand, got 'f32'}}
  %0 = hlo.fft %r {fft_type = #hlo<fft_type FFT>, fft_length = array<i64: 8>} : (tensor<3x8xf32>) -> tensor<3x8xf32>
  hlo.return %0 : tensor<3x8xf32>
}

// -----

hlo.computation @fft_length(%c: tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>> {
  // expected-error @+1 {{'hlo.fft' op IFFT needs operand dimension 1 (size 8) to equal fft_length[0] = 16}}
  %0 = hlo.fft %c {fft_type = #hlo<fft_type IFFT>, fft_length = array<i64: 16>} : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
  hlo.return %0 : tensor<3x8xcomplex<f32>>
}

// -----

hlo.computation @fft_result(%c: tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f64>> {
  // expected-error @+1 {{'hlo.fft' op result type 'tensor<3x8xcomplex<f64>>' does not match the inferred type 'tensor<3x8xcomplex<f32>>'}}
  %0 = hlo.fft %c {fft_type = #hlo<fft_type FFT>, fft_length = array<i64: 8>} : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f64>>
  hlo.return %0 : tensor<3x8xcomplex<f64>>
}

// -----

hlo.computation @rfft_input(%c: tensor<3x8xcomplex<f32>>) -> tensor<3x5xcomplex<f32>> {
  // expected-error @+1 {{'hlo.fft' op RFFT needs an f32 or f64 operand, got 'complex<f32>'}}
  %0 = hlo.fft %c {fft_type = #hlo<fft_type RFFT>, fft_length = array<i64: 8>} : (tensor<3x8xcomplex<f32>>) -> tensor<3x5xcomplex<f32>>
  hlo.return %0 : tensor<3x5xcomplex<f32>>
}

// -----

hlo.computation @rfft_result(%r: tensor<3x8xf32>) -> tensor<3x8xcomplex<f32>> {
  // expected-error @+1 {{'hlo.fft' op result type 'tensor<3x8xcomplex<f32>>' does not match the inferred type 'tensor<3x5xcomplex<f32>>'}}
  %0 = hlo.fft %r {fft_type = #hlo<fft_type RFFT>, fft_length = array<i64: 8>} : (tensor<3x8xf32>) -> tensor<3x8xcomplex<f32>>
  hlo.return %0 : tensor<3x8xcomplex<f32>>
}

// -----

hlo.computation @irfft_input(%r: tensor<3x5xf32>) -> tensor<3x8xf32> {
  // expected-error @+1 {{'hlo.fft' op IRFFT needs a complex operand, got 'f32'}}
  %0 = hlo.fft %r {fft_type = #hlo<fft_type IRFFT>, fft_length = array<i64: 8>} : (tensor<3x5xf32>) -> tensor<3x8xf32>
  hlo.return %0 : tensor<3x8xf32>
}

// -----

hlo.computation @irfft_last_dim(%c: tensor<3x8xcomplex<f32>>) -> tensor<3x8xf32> {
  // expected-error @+1 {{'hlo.fft' op IRFFT needs the last operand dimension (size 8) to be fft_length.back() / 2 + 1 = 5}}
  %0 = hlo.fft %c {fft_type = #hlo<fft_type IRFFT>, fft_length = array<i64: 8>} : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xf32>
  hlo.return %0 : tensor<3x8xf32>
}

// -----

hlo.computation @irfft_result(%c: tensor<3x5xcomplex<f64>>) -> tensor<3x8xf32> {
  // expected-error @+1 {{'hlo.fft' op result type 'tensor<3x8xf32>' does not match the inferred type 'tensor<3x8xf64>'}}
  %0 = hlo.fft %c {fft_type = #hlo<fft_type IRFFT>, fft_length = array<i64: 8>} : (tensor<3x5xcomplex<f64>>) -> tensor<3x8xf32>
  hlo.return %0 : tensor<3x8xf32>
}

// -----

hlo.computation @cholesky_rank(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.cholesky' op operand must have rank >= 2, got rank 1}}
  %0 = hlo.cholesky %a : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @cholesky_square(%a: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{'hlo.cholesky' op operand must be square in its two minor dimensions, got 4x3}}
  %0 = hlo.cholesky %a : (tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  hlo.return %0 : tensor<2x4x3xf32>
}

// -----

hlo.computation @cholesky_int(%a: tensor<4x4xi32>) -> tensor<4x4xi32> {
  // expected-error @+1 {{'hlo.cholesky' op operand must have floating-point or complex elements, got 'i32'}}
  %0 = hlo.cholesky %a : (tensor<4x4xi32>) -> tensor<4x4xi32>
  hlo.return %0 : tensor<4x4xi32>
}

// -----

hlo.computation @cholesky_result(%a: tensor<4x4xf32>) -> tensor<4x4xf64> {
  // expected-error @+1 {{'hlo.cholesky' op result type 'tensor<4x4xf64>' does not match the inferred type 'tensor<4x4xf32>'}}
  %0 = hlo.cholesky %a {lower = true} : (tensor<4x4xf32>) -> tensor<4x4xf64>
  hlo.return %0 : tensor<4x4xf64>
}

// -----

hlo.computation @triangular_solve_square(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'hlo.triangular_solve' op a must be square in its two minor dimensions, got 4x3}}
  %0 = hlo.triangular_solve %a, %b {transpose_a = #hlo<transpose NO_TRANSPOSE>} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  hlo.return %0 : tensor<4x3xf32>
}

// -----

hlo.computation @triangular_solve_rank(%a: tensor<2x4x4xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'hlo.triangular_solve' op a (rank 3) and b (rank 2) must have the same rank}}
  %0 = hlo.triangular_solve %a, %b {transpose_a = #hlo<transpose NO_TRANSPOSE>} : (tensor<2x4x4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  hlo.return %0 : tensor<4x3xf32>
}

// -----

hlo.computation @triangular_solve_element_type(%a: tensor<4x4xf32>, %b: tensor<4x3xf64>) -> tensor<4x3xf64> {
  // expected-error @+1 {{'hlo.triangular_solve' op a and b must have the same element type, got 'f32' and 'f64'}}
  %0 = hlo.triangular_solve %a, %b {transpose_a = #hlo<transpose NO_TRANSPOSE>} : (tensor<4x4xf32>, tensor<4x3xf64>) -> tensor<4x3xf64>
  hlo.return %0 : tensor<4x3xf64>
}

// -----

hlo.computation @triangular_solve_batch(%a: tensor<2x4x4xf32>, %b: tensor<3x4x3xf32>) -> tensor<3x4x3xf32> {
  // expected-error @+1 {{'hlo.triangular_solve' op batch dimension 0 of a (size 2) and b (size 3) differ}}
  %0 = hlo.triangular_solve %a, %b {left_side = true, transpose_a = #hlo<transpose NO_TRANSPOSE>} : (tensor<2x4x4xf32>, tensor<3x4x3xf32>) -> tensor<3x4x3xf32>
  hlo.return %0 : tensor<3x4x3xf32>
}

// -----

hlo.computation @triangular_solve_left(%a: tensor<4x4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'hlo.triangular_solve' op a's dimension 1 (size 4) must equal b's dimension 0 (size 3) when left_side}}
  %0 = hlo.triangular_solve %a, %b {left_side = true, transpose_a = #hlo<transpose NO_TRANSPOSE>} : (tensor<4x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// -----

hlo.computation @triangular_solve_right(%a: tensor<4x4xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'hlo.triangular_solve' op a's dimension 1 (size 4) must equal b's dimension 1 (size 3) when not left_side}}
  %0 = hlo.triangular_solve %a, %b {transpose_a = #hlo<transpose NO_TRANSPOSE>} : (tensor<4x4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  hlo.return %0 : tensor<4x3xf32>
}

// -----

hlo.computation @triangular_solve_invalid_transpose(%a: tensor<4x4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'hlo.triangular_solve' op transpose_a may not be TRANSPOSE_INVALID}}
  %0 = hlo.triangular_solve %a, %b {transpose_a = #hlo<transpose TRANSPOSE_INVALID>} : (tensor<4x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// -----

hlo.computation @triangular_solve_result(%a: tensor<4x4xf32>, %b: tensor<3x4xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'hlo.triangular_solve' op result type 'tensor<4x3xf32>' does not match the inferred type 'tensor<3x4xf32>'}}
  %0 = hlo.triangular_solve %a, %b {transpose_a = #hlo<transpose NO_TRANSPOSE>} : (tensor<4x4xf32>, tensor<3x4xf32>) -> tensor<4x3xf32>
  hlo.return %0 : tensor<4x3xf32>
}
