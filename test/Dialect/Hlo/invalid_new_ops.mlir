// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// bitcast, scan, scaled-dot, ragged-dot, ragged-all-to-all,
// collective-reduce and shuffle.

hlo.computation @f(%a: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'hlo.bitcast' op changes the size from 16 to 8 bytes; a bitcast keeps the number of bytes}}
  %0 = hlo.bitcast %a : (tensor<4xf32>) -> tensor<2xf32>
  hlo.return %0 : tensor<2xf32>
}

// -----

hlo.computation @f(%a: !hlo.token) -> tensor<f32> {
  // expected-error @+1 {{'hlo.bitcast' op operand and result must be arrays, got '!hlo.token' and 'tensor<f32>'}}
  %0 = hlo.bitcast %a : (!hlo.token) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @f(%a: tuple<tensor<f32>>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.bitcast' op operand and result must be arrays}}
  %0 = hlo.bitcast %a : (tuple<tensor<f32>>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @f(%a: tensor<2x4xf32>) -> tensor<8xi32> {
  // Same byte size, other element type and layout: fine.
  %0 = hlo.bitcast %a : (tensor<2x4xf32>) -> tensor<8xi32, #hlo.layout<[0]>>
  %1 = hlo.bitcast %0 : (tensor<8xi32, #hlo.layout<[0]>>) -> tensor<8xi32>
  hlo.return %1 : tensor<8xi32>
}

// -----

hlo.computation private @body(%x: tensor<f32>, %c: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>> {
  %t = hlo.tuple %x, %c : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  hlo.return %t : tuple<tensor<f32>, tensor<f32>>
}
hlo.computation @f(%v: tensor<4xf32>, %z: tensor<f32>) -> tuple<tensor<4xf32>, tensor<f32>> {
  // expected-error @+1 {{'hlo.scan' op needs exactly one scan dimension (dimensions={d})}}
  %0 = hlo.scan %v, %z {dimensions = array<i64: 0, 1>, to_apply = @body, num_carries = 1 : i64} : (tensor<4xf32>, tensor<f32>) -> tuple<tensor<4xf32>, tensor<f32>>
  hlo.return %0 : tuple<tensor<4xf32>, tensor<f32>>
}

// -----

hlo.computation private @body(%x: tensor<f32>, %c: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>> {
  %t = hlo.tuple %x, %c : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  hlo.return %t : tuple<tensor<f32>, tensor<f32>>
}
hlo.computation @f(%v: tensor<4xf32>, %z: tensor<f32>) -> tuple<tensor<4xf32>, tensor<f32>> {
  // expected-error @+1 {{'hlo.scan' op num_carries 3 is not in [0, 2]}}
  %0 = hlo.scan %v, %z {dimensions = array<i64: 0>, to_apply = @body, num_carries = 3 : i64} : (tensor<4xf32>, tensor<f32>) -> tuple<tensor<4xf32>, tensor<f32>>
  hlo.return %0 : tuple<tensor<4xf32>, tensor<f32>>
}

// -----

hlo.computation private @body(%x: tensor<f32>, %c: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>> {
  %t = hlo.tuple %x, %c : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  hlo.return %t : tuple<tensor<f32>, tensor<f32>>
}
hlo.computation @f(%v: tensor<4xf32>, %z: tensor<f32>) -> tuple<tensor<4xf32>, tensor<i32>> {
  // expected-error @+1 {{'hlo.scan' op carry 0 of type 'tensor<f32>' differs from its result type 'tensor<i32>'}}
  %0 = hlo.scan %v, %z {dimensions = array<i64: 0>, to_apply = @body, num_carries = 1 : i64} : (tensor<4xf32>, tensor<f32>) -> tuple<tensor<4xf32>, tensor<i32>>
  hlo.return %0 : tuple<tensor<4xf32>, tensor<i32>>
}

// -----

hlo.computation @f(%l: tensor<4x32xf32>, %ls: tensor<4x3xf32>, %r: tensor<32x8xf32>, %rs: tensor<1x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'hlo.scaled_dot' op scale dimension 1 of operand 2 does not divide operand 0's}}
  %0 = hlo.scaled_dot %l, %r, %ls, %rs {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x32xf32>, tensor<32x8xf32>, tensor<4x3xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  hlo.return %0 : tensor<4x8xf32>
}

// -----

hlo.computation @f(%l: tensor<4x32xf32>, %ls: tensor<4xf32>, %r: tensor<32x8xf32>, %rs: tensor<f32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'hlo.scaled_dot' op operand 2 must be a scale of operand 0's rank or a scalar, got 'tensor<4xf32>'}}
  %0 = hlo.scaled_dot %l, %r, %ls, %rs {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x32xf32>, tensor<32x8xf32>, tensor<4xf32>, tensor<f32>) -> tensor<4x8xf32>
  hlo.return %0 : tensor<4x8xf32>
}

// -----

hlo.computation @f(%l: tensor<4x32xf32>, %r: tensor<32x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'hlo.scaled_dot' op needs lhs, rhs, lhs_scale and rhs_scale, got 2 operands}}
  %0 = hlo.scaled_dot %l, %r {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
  hlo.return %0 : tensor<4x8xf32>
}

// -----

hlo.computation @f(%l: tensor<4x32xf32>, %r: tensor<2x32x8xf32>, %g: tensor<2xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'hlo.ragged_dot' op group_sizes must be an integer array, got 'tensor<2xf32>'}}
  %0 = hlo.ragged_dot %l, %r, %g {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 1>, lhs_ragged_dims = array<i64: 0>, rhs_group_dims = array<i64: 0>} : (tensor<4x32xf32>, tensor<2x32x8xf32>, tensor<2xf32>) -> tensor<4x8xf32>
  hlo.return %0 : tensor<4x8xf32>
}

// -----

hlo.computation @f(%l: tensor<4x32xf32>, %r: tensor<2x32x8xf32>, %g: tensor<2xi32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'hlo.ragged_dot' op a ragged non-contracting dimension needs one rhs group dimension}}
  %0 = hlo.ragged_dot %l, %r, %g {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 1>, lhs_ragged_dims = array<i64: 0>} : (tensor<4x32xf32>, tensor<2x32x8xf32>, tensor<2xi32>) -> tensor<4x8xf32>
  hlo.return %0 : tensor<4x8xf32>
}

// -----

hlo.computation @f(%in: tensor<8x4xf32>, %out: tensor<8x4xf32>, %o: tensor<2xi64>, %s: tensor<2xi64>, %oo: tensor<2xi64>, %rs: tensor<3xi64>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'hlo.ragged_all_to_all' op offsets and sizes must be integer arrays of one shape, got 'tensor<3xi64>'}}
  %0 = hlo.ragged_all_to_all %in, %out, %o, %s, %oo, %rs : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<3xi64>) -> tensor<8x4xf32>
  hlo.return %0 : tensor<8x4xf32>
}

// -----

hlo.computation @f(%in: tensor<8x4xf32>, %out: tensor<8x4xf32>, %o: tensor<2xi64>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'hlo.ragged_all_to_all' op needs input, output, input_offsets, send_sizes, output_offsets and recv_sizes, got 3 operands}}
  %0 = hlo.ragged_all_to_all %in, %out, %o : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<2xi64>) -> tensor<8x4xf32>
  hlo.return %0 : tensor<8x4xf32>
}

// -----

hlo.computation @f(%a: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{'hlo.collective_reduce' op result type 'tensor<4xi32>' should be 'tensor<4xf32>' (the operand types)}}
  %0 = hlo.collective_reduce %a : (tensor<4xf32>) -> tensor<4xi32>
  hlo.return %0 : tensor<4xi32>
}

// -----

hlo.computation @f(%a: !hlo.token) -> !hlo.token {
  // expected-error @+1 {{'hlo.shuffle' op operands must be arrays, got '!hlo.token'}}
  %0 = hlo.shuffle %a : (!hlo.token) -> !hlo.token
  hlo.return %0 : !hlo.token
}
