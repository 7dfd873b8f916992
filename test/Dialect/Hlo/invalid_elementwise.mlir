// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// Elementwise ops: shapes, element types and conversions.

hlo.computation @unary_shape(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'hlo.sqrt' op result type 'tensor<3x2xf32>' does not match the inferred type 'tensor<2x3xf32>'}}
  %0 = hlo.sqrt %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  hlo.return %0 : tensor<3x2xf32>
}

// -----

hlo.computation @unary_not_array(%t: !hlo.token) -> !hlo.token {
  // expected-error @+1 {{'hlo.negate' op operand must be an array, got '!hlo.token'}}
  %0 = hlo.negate %t : (!hlo.token) -> !hlo.token
  hlo.return %0 : !hlo.token
}

// -----

hlo.computation @unary_element_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'hlo.tanh' op result type 'tensor<4xf16>' does not match the inferred type 'tensor<4xf32>'}}
  %0 = hlo.tanh %x : (tensor<4xf32>) -> tensor<4xf16>
  hlo.return %0 : tensor<4xf16>
}

// -----

hlo.computation @float_op_on_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'hlo.sqrt' op operand must have floating-point or complex elements, got 'i32'}}
  %0 = hlo.sqrt %x : (tensor<4xi32>) -> tensor<4xi32>
  hlo.return %0 : tensor<4xi32>
}

// -----

hlo.computation @floor_on_complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'hlo.floor' op operand must have floating-point elements, got 'complex<f32>'}}
  %0 = hlo.floor %x : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  hlo.return %0 : tensor<4xcomplex<f32>>
}

// -----

hlo.computation @clz_on_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.count_leading_zeros' op operand must have integral elements, got 'f32'}}
  %0 = hlo.count_leading_zeros %x : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @not_on_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.not' op operand must have pred or integral elements, got 'f32'}}
  %0 = hlo.not %x : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @sign_on_unsigned(%x: tensor<4xui32>) -> tensor<4xui32> {
  // expected-error @+1 {{'hlo.sign' op operand must have signed integer, floating-point or complex elements, got 'ui32'}}
  %0 = hlo.sign %x : (tensor<4xui32>) -> tensor<4xui32>
  hlo.return %0 : tensor<4xui32>
}

// -----

hlo.computation @negate_pred(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.negate' op operand must have integral, floating-point or complex elements, got 'i1'}}
  %0 = hlo.negate %x : (tensor<4xi1>) -> tensor<4xi1>
  hlo.return %0 : tensor<4xi1>
}

// -----

hlo.computation @abs_complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'hlo.abs' op result type 'tensor<4xcomplex<f32>>' does not match the inferred type 'tensor<4xf32>'}}
  %0 = hlo.abs %x : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  hlo.return %0 : tensor<4xcomplex<f32>>
}

// -----

hlo.computation @real_wrong_type(%x: tensor<4xcomplex<f64>>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.real' op result type 'tensor<4xf32>' does not match the inferred type 'tensor<4xf64>'}}
  %0 = hlo.real %x : (tensor<4xcomplex<f64>>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @imag_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'hlo.imag' op operand must have floating-point or complex elements, got 'i32'}}
  %0 = hlo.imag %x : (tensor<4xi32>) -> tensor<4xi32>
  hlo.return %0 : tensor<4xi32>
}

// -----

hlo.computation @is_finite_result(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.is_finite' op result type 'tensor<4xf32>' does not match the inferred type 'tensor<4xi1>'}}
  %0 = hlo.is_finite %x : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @is_finite_int(%x: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.is_finite' op operand must have floating-point elements, got 'i32'}}
  %0 = hlo.is_finite %x : (tensor<4xi32>) -> tensor<4xi1>
  hlo.return %0 : tensor<4xi1>
}

// -----

hlo.computation @copy_mismatch(%x: tuple<tensor<f32>, tensor<2xi32>>) -> tuple<tensor<f32>, tensor<3xi32>> {
  // expected-error @+1 {{'hlo.copy' op result type 'tuple<tensor<f32>, tensor<3xi32>>' does not match the inferred type 'tuple<tensor<f32>, tensor<2xi32>>'}}
  %0 = hlo.copy %x : (tuple<tensor<f32>, tensor<2xi32>>) -> tuple<tensor<f32>, tensor<3xi32>>
  hlo.return %0 : tuple<tensor<f32>, tensor<3xi32>>
}

// -----

hlo.computation @convert_shape(%x: tensor<4xf32>) -> tensor<5xi32> {
  // expected-error @+1 {{'hlo.convert' op operand dimensions [4] do not match result dimensions [5]}}
  %0 = hlo.convert %x : (tensor<4xf32>) -> tensor<5xi32>
  hlo.return %0 : tensor<5xi32>
}

// -----

hlo.computation @bitcast_convert_narrow(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'hlo.bitcast_convert' op converting 32-bit to 16-bit elements needs the operand dimensions plus a minor result dimension of 2}}
  %0 = hlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xf16>
  hlo.return %0 : tensor<4xf16>
}

// -----

hlo.computation @bitcast_convert_widen(%x: tensor<4x2xi8>) -> tensor<4xi32> {
  // expected-error @+1 {{'hlo.bitcast_convert' op converting 8-bit to 32-bit elements needs the result dimensions plus a minor operand dimension of 4}}
  %0 = hlo.bitcast_convert %x : (tensor<4x2xi8>) -> tensor<4xi32>
  hlo.return %0 : tensor<4xi32>
}

// -----

hlo.computation @bitcast_convert_same_width(%x: tensor<4xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{'hlo.bitcast_convert' op operand dimensions [4] do not match result dimensions [2]}}
  %0 = hlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<2xi32>
  hlo.return %0 : tensor<2xi32>
}

// -----

hlo.computation @bitcast_convert_tuple(%x: tuple<>) -> tensor<i32> {
  // expected-error @+1 {{'hlo.bitcast_convert' op operand and result must be arrays}}
  %0 = hlo.bitcast_convert %x : (tuple<>) -> tensor<i32>
  hlo.return %0 : tensor<i32>
}

// -----

hlo.computation @reduce_precision_exponent(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.reduce_precision' op exponent_bits (0) must be at least 1}}
  %0 = hlo.reduce_precision %x {exponent_bits = 0 : i64, mantissa_bits = 10 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @reduce_precision_mantissa(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.reduce_precision' op mantissa_bits (-1) must be non-negative}}
  %0 = hlo.reduce_precision %x {exponent_bits = 5 : i64, mantissa_bits = -1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @reduce_precision_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'hlo.reduce_precision' op operand must have floating-point elements, got 'i32'}}
  %0 = hlo.reduce_precision %x {exponent_bits = 5 : i64, mantissa_bits = 2 : i64} : (tensor<4xi32>) -> tensor<4xi32>
  hlo.return %0 : tensor<4xi32>
}

// -----

hlo.computation @stochastic_convert_width(%x: tensor<4xf32>, %r: tensor<4xui16>) -> tensor<4xi8> {
  // expected-error @+1 {{'hlo.stochastic_convert' op random bits (16-bit) must be as wide as the operand elements (32-bit)}}
  %0 = hlo.stochastic_convert %x, %r : (tensor<4xf32>, tensor<4xui16>) -> tensor<4xi8>
  hlo.return %0 : tensor<4xi8>
}

// -----

hlo.computation @stochastic_convert_signed(%x: tensor<4xf32>, %r: tensor<4xi32>) -> tensor<4xi8> {
  // expected-error @+1 {{'hlo.stochastic_convert' op random must have unsigned integer elements, got 'i32'}}
  %0 = hlo.stochastic_convert %x, %r : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi8>
  hlo.return %0 : tensor<4xi8>
}

// -----

hlo.computation @binary_shape(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'hlo.add' op operand dimensions [2, 3] and [3, 2] do not match}}
  %0 = hlo.add %a, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x3xf32>
  hlo.return %0 : tensor<2x3xf32>
}

// -----

hlo.computation @binary_element_type(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.multiply' op operands must have the same element type, got 'f32' and 'f16'}}
  %0 = hlo.multiply %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @shift_float(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.shift_left' op operands must have integral elements, got 'f32'}}
  %0 = hlo.shift_left %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @and_float(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.and' op operands must have pred or integral elements, got 'f32'}}
  %0 = hlo.and %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @atan2_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'hlo.atan2' op operands must have floating-point or complex elements, got 'i32'}}
  %0 = hlo.atan2 %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  hlo.return %0 : tensor<4xi32>
}

// -----

hlo.computation @subtract_pred(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.subtract' op operands must have integral, floating-point or complex elements, got 'i1'}}
  %0 = hlo.subtract %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  hlo.return %0 : tensor<4xi1>
}

// -----

hlo.computation @complex_f16(%a: tensor<4xf16>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'hlo.complex' op operands must have f32 or f64 elements, got 'f16'}}
  %0 = hlo.complex %a, %a : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xcomplex<f32>>
  hlo.return %0 : tensor<4xcomplex<f32>>
}

// -----

// complex<f16> is no HLO element type (c64 and c128 are).
// expected-error @+1 {{'hlo.computation' op result type 'tensor<4xcomplex<f16>>' is not an HLO shape}}
hlo.computation @complex_f16_result(%a: tensor<4xf32>) -> tensor<4xcomplex<f16>> {
  %0 = hlo.complex %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f16>>
  hlo.return %0 : tensor<4xcomplex<f16>>
}

// -----

// Values HLO has no shape for.
hlo.computation @not_hlo_shapes(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.custom_call' op result #0 must be HLO shape (tensor of an HLO element type, tuple, token or opaque), but got 'tensor<2xi7>'}}
  %0 = hlo.custom_call %a {custom_call_target = "x"} : (tensor<f32>) -> tensor<2xi7>
  hlo.return %a : tensor<f32>
}

// -----

hlo.computation @complex_mixed(%a: tensor<4xf32>, %b: tensor<4xf64>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'hlo.complex' op operands must have the same element type, got 'f32' and 'f64'}}
  %0 = hlo.complex %a, %b : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xcomplex<f32>>
  hlo.return %0 : tensor<4xcomplex<f32>>
}

// -----

hlo.computation @complex_result(%a: tensor<4xf32>) -> tensor<4xcomplex<f64>> {
  // expected-error @+1 {{'hlo.complex' op result type 'tensor<4xcomplex<f64>>' does not match the inferred type 'tensor<4xcomplex<f32>>'}}
  %0 = hlo.complex %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f64>>
  hlo.return %0 : tensor<4xcomplex<f64>>
}

// -----

hlo.computation @compare_mixed(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.compare' op operands must have the same element type, got 'f32' and 'i32'}}
  %0 = hlo.compare %a, %b {direction = #hlo<comparison_direction EQ>} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi1>
  hlo.return %0 : tensor<4xi1>
}

// -----

hlo.computation @compare_result(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.compare' op result type 'tensor<4xf32>' does not match the inferred type 'tensor<4xi1>'}}
  %0 = hlo.compare %a, %a {direction = #hlo<comparison_direction EQ>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @compare_shape(%a: tensor<4xf32>, %b: tensor<5xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.compare' op operand dimensions [4] and [5] do not match}}
  %0 = hlo.compare %a, %b {direction = #hlo<comparison_direction EQ>} : (tensor<4xf32>, tensor<5xf32>) -> tensor<4xi1>
  hlo.return %0 : tensor<4xi1>
}

// -----

hlo.computation @clamp_bound_shape(%lo: tensor<3xf32>, %x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'hlo.clamp' op min of type 'tensor<3xf32>' must be a scalar or have the dimensions of 'tensor<2x3xf32>'}}
  %0 = hlo.clamp %lo, %x, %x : (tensor<3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  hlo.return %0 : tensor<2x3xf32>
}

// -----

hlo.computation @clamp_bound_type(%lo: tensor<f32>, %hi: tensor<i32>, %x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'hlo.clamp' op max element type 'i32' differs from 'f32'}}
  %0 = hlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
  hlo.return %0 : tensor<2x3xf32>
}

// -----

hlo.computation @select_pred_type(%p: tensor<4xi32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.select' op predicate must be a pred array, got 'tensor<4xi32>'}}
  %0 = hlo.select %p, %x, %x : (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @select_pred_shape(%p: tensor<2xi1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.select' op predicate of type 'tensor<2xi1>' must be a scalar or have the dimensions of 'tensor<4xf32>'}}
  %0 = hlo.select %p, %x, %x : (tensor<2xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @select_branches(%p: tensor<i1>, %x: tensor<4xf32>, %y: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.select' op operands must have the same element type, got 'f32' and 'i32'}}
  %0 = hlo.select %p, %x, %y : (tensor<i1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}
