// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// Shape manipulation: broadcast, reshape, transpose, reverse, slice,
// concatenate, pad, iota and the dynamic-shape ops.

hlo.computation @broadcast_arity(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'hlo.broadcast' op dimensions [0, 1] must have one entry per operand dimension (1)}}
  %0 = hlo.broadcast %x {dimensions = array<i64: 0, 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
  hlo.return %0 : tensor<2x3xf32>
}

// -----

hlo.computation @broadcast_missing_dims(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'hlo.broadcast' op dimensions [] must have one entry per operand dimension (1)}}
  %0 = hlo.broadcast %x : (tensor<3xf32>) -> tensor<2x3xf32>
  hlo.return %0 : tensor<2x3xf32>
}

// -----

hlo.computation @broadcast_range(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'hlo.broadcast' op dimensions [2] has dimension 2 out of range for rank 2}}
  %0 = hlo.broadcast %x {dimensions = array<i64: 2>} : (tensor<3xf32>) -> tensor<2x3xf32>
  hlo.return %0 : tensor<2x3xf32>
}

// -----

hlo.computation @broadcast_repeat(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'hlo.broadcast' op dimensions [1, 1] repeats dimension 1}}
  %0 = hlo.broadcast %x {dimensions = array<i64: 1, 1>} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  hlo.return %0 : tensor<3x3xf32>
}

// -----

hlo.computation @broadcast_size(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'hlo.broadcast' op operand dimension 0 (size 3) does not match result dimension 0 (size 2)}}
  %0 = hlo.broadcast %x {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<2x3xf32>
  hlo.return %0 : tensor<2x3xf32>
}

// -----

// Unlike numpy broadcasting, a size-1 dimension does not stretch.
hlo.computation @broadcast_degenerate(%x: tensor<1xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'hlo.broadcast' op operand dimension 0 (size 1) does not match result dimension 1 (size 3)}}
  %0 = hlo.broadcast %x {dimensions = array<i64: 1>} : (tensor<1xf32>) -> tensor<2x3xf32>
  hlo.return %0 : tensor<2x3xf32>
}

// -----

hlo.computation @broadcast_element_type(%x: tensor<f32>) -> tensor<2xf64> {
  // expected-error @+1 {{'hlo.broadcast' op broadcast may not change the element type ('f32' to 'f64')}}
  %0 = hlo.broadcast %x : (tensor<f32>) -> tensor<2xf64>
  hlo.return %0 : tensor<2xf64>
}

// -----

hlo.computation @reshape_count(%x: tensor<2x3xf32>) -> tensor<7xf32> {
  // expected-error @+1 {{'hlo.reshape' op reshape of [2, 3] (6 elements) to [7] (7 elements) changes the element count}}
  %0 = hlo.reshape %x : (tensor<2x3xf32>) -> tensor<7xf32>
  hlo.return %0 : tensor<7xf32>
}

// -----

hlo.computation @reshape_element_type(%x: tensor<2x3xf32>) -> tensor<6xi32> {
  // expected-error @+1 {{'hlo.reshape' op reshape may not change the element type ('f32' to 'i32')}}
  %0 = hlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xi32>
  hlo.return %0 : tensor<6xi32>
}

// -----

hlo.computation @reshape_tuple(%x: tuple<tensor<f32>>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.reshape' op operand must be an array, got 'tuple<tensor<f32>>'}}
  %0 = hlo.reshape %x : (tuple<tensor<f32>>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @dynamic_reshape_dims(%x: tensor<6xf32>, %n: tensor<i32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'hlo.dynamic_reshape' op needs 2 dimension sizes, got 1}}
  %0 = hlo.dynamic_reshape %x, %n : (tensor<6xf32>, tensor<i32>) -> tensor<?x?xf32>
  hlo.return %0 : tensor<?x?xf32>
}

// -----

hlo.computation @dynamic_reshape_size_type(%x: tensor<6xf32>, %n: tensor<f32>) -> tensor<?xf32> {
  // expected-error @+1 {{'hlo.dynamic_reshape' op dimension sizes must be integer scalars, got 'tensor<f32>'}}
  %0 = hlo.dynamic_reshape %x, %n : (tensor<6xf32>, tensor<f32>) -> tensor<?xf32>
  hlo.return %0 : tensor<?xf32>
}

// -----

hlo.computation @transpose_not_permutation(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'hlo.transpose' op dimensions [1, 1] must be a permutation of the operand's 2 dimensions}}
  %0 = hlo.transpose %x {dimensions = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  hlo.return %0 : tensor<3x2xf32>
}

// -----

hlo.computation @transpose_arity(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'hlo.transpose' op dimensions [1, 0, 2] must be a permutation of the operand's 2 dimensions}}
  %0 = hlo.transpose %x {dimensions = array<i64: 1, 0, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  hlo.return %0 : tensor<3x2xf32>
}

// -----

hlo.computation @transpose_size(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'hlo.transpose' op result type 'tensor<2x3xf32>' does not match the inferred type 'tensor<3x2xf32>'}}
  %0 = hlo.transpose %x {dimensions = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  hlo.return %0 : tensor<2x3xf32>
}

// -----

hlo.computation @transpose_rank(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{'hlo.transpose' op result type 'tensor<6xf32>' does not match the inferred type 'tensor<3x2xf32>'}}
  %0 = hlo.transpose %x {dimensions = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<6xf32>
  hlo.return %0 : tensor<6xf32>
}

// -----

hlo.computation @transpose_element_type(%x: tensor<2x3xf32>) -> tensor<3x2xf16> {
  // expected-error @+1 {{'hlo.transpose' op result type 'tensor<3x2xf16>' does not match the inferred type 'tensor<3x2xf32>'}}
  %0 = hlo.transpose %x {dimensions = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf16>
  hlo.return %0 : tensor<3x2xf16>
}

// -----

hlo.computation @reverse_range(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'hlo.reverse' op dimensions [0, 2] has dimension 2 out of range for rank 2}}
  %0 = hlo.reverse %x {dimensions = array<i64: 0, 2>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  hlo.return %0 : tensor<2x3xf32>
}

// -----

hlo.computation @reverse_repeat(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'hlo.reverse' op dimensions [1, 1] repeats dimension 1}}
  %0 = hlo.reverse %x {dimensions = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  hlo.return %0 : tensor<2x3xf32>
}

// -----

hlo.computation @reverse_result(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'hlo.reverse' op result type 'tensor<3x2xf32>' does not match the inferred type 'tensor<2x3xf32>'}}
  %0 = hlo.reverse %x {dimensions = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  hlo.return %0 : tensor<3x2xf32>
}

// -----

hlo.computation @slice_ranges(%x: tensor<4x10xf32>) -> tensor<2x10xf32> {
  // expected-error @+1 {{'hlo.slice' op slice has 1 ranges for an operand of rank 2}}
  %0 = hlo.slice %x {slice = #hlo.slice<"{[0:2]}">} : (tensor<4x10xf32>) -> tensor<2x10xf32>
  hlo.return %0 : tensor<2x10xf32>
}

// -----

hlo.computation @slice_rank(%x: tensor<4x10xf32>) -> tensor<20xf32> {
  // expected-error @+1 {{'hlo.slice' op result type 'tensor<20xf32>' does not match the inferred type 'tensor<2x10xf32>'}}
  %0 = hlo.slice %x {slice = #hlo.slice<"{[0:2], [0:10]}">} : (tensor<4x10xf32>) -> tensor<20xf32>
  hlo.return %0 : tensor<20xf32>
}

// -----

hlo.computation @slice_limit(%x: tensor<4x10xf32>) -> tensor<2x11xf32> {
  // expected-error @+1 {{'hlo.slice' op slice range [0:11:1] is invalid for dimension 1 of size 10}}
  %0 = hlo.slice %x {slice = #hlo.slice<"{[0:2], [0:11]}">} : (tensor<4x10xf32>) -> tensor<2x11xf32>
  hlo.return %0 : tensor<2x11xf32>
}

// -----

hlo.computation @slice_start_after_limit(%x: tensor<4x10xf32>) -> tensor<0x10xf32> {
  // expected-error @+1 {{'hlo.slice' op slice range [3:2:1] is invalid for dimension 0 of size 4}}
  %0 = hlo.slice %x {slice = #hlo.slice<"{[3:2], [0:10]}">} : (tensor<4x10xf32>) -> tensor<0x10xf32>
  hlo.return %0 : tensor<0x10xf32>
}

// -----

hlo.computation @slice_negative_start(%x: tensor<4x10xf32>) -> tensor<3x10xf32> {
  // expected-error @+1 {{'hlo.slice' op slice range [-1:2:1] is invalid for dimension 0 of size 4}}
  %0 = hlo.slice %x {slice = #hlo.slice<"{[-1:2], [0:10]}">} : (tensor<4x10xf32>) -> tensor<3x10xf32>
  hlo.return %0 : tensor<3x10xf32>
}

// -----

hlo.computation @slice_stride(%x: tensor<4x10xf32>) -> tensor<2x10xf32> {
  // expected-error @+1 {{'hlo.slice' op slice range [0:2:0] is invalid for dimension 0 of size 4}}
  %0 = hlo.slice %x {slice = #hlo.slice<"{[0:2:0], [0:10]}">} : (tensor<4x10xf32>) -> tensor<2x10xf32>
  hlo.return %0 : tensor<2x10xf32>
}

// -----

hlo.computation @slice_result(%x: tensor<4x10xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'hlo.slice' op result type 'tensor<2x5xf32>' does not match the inferred type 'tensor<2x4xf32>'}}
  %0 = hlo.slice %x {slice = #hlo.slice<"{[0:2], [1:9:2]}">} : (tensor<4x10xf32>) -> tensor<2x5xf32>
  hlo.return %0 : tensor<2x5xf32>
}

// -----

hlo.computation @slice_element_type(%x: tensor<4xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{'hlo.slice' op result type 'tensor<2xi32>' does not match the inferred type 'tensor<2xf32>'}}
  %0 = hlo.slice %x {slice = #hlo.slice<"{[0:2]}">} : (tensor<4xf32>) -> tensor<2xi32>
  hlo.return %0 : tensor<2xi32>
}

// -----

hlo.computation @concatenate_no_operands() -> tensor<0xf32> {
  // expected-error @+1 {{'hlo.concatenate' op needs at least one operand}}
  %0 = hlo.concatenate {dimensions = array<i64: 0>} : () -> tensor<0xf32>
  hlo.return %0 : tensor<0xf32>
}

// -----

hlo.computation @concatenate_dims(%a: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.concatenate' op needs exactly one concatenate dimension, got [0, 0]}}
  %0 = hlo.concatenate %a, %a {dimensions = array<i64: 0, 0>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @concatenate_dim_range(%a: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.concatenate' op dimension 1 is out of range for rank 1}}
  %0 = hlo.concatenate %a, %a {dimensions = array<i64: 1>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @concatenate_rank(%a: tensor<2x3xf32>, %b: tensor<6xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'hlo.concatenate' op operand 1 has rank 1 but operand 0 has rank 2}}
  %0 = hlo.concatenate %a, %b {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<6xf32>) -> tensor<2x6xf32>
  hlo.return %0 : tensor<2x6xf32>
}

// -----

hlo.computation @concatenate_other_dim(%a: tensor<2x3xf32>, %b: tensor<3x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'hlo.concatenate' op operand 1 dimension 0 (size 3) does not match operand 0 (size 2)}}
  %0 = hlo.concatenate %a, %b {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x6xf32>
  hlo.return %0 : tensor<2x6xf32>
}

// -----

hlo.computation @concatenate_sum(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'hlo.concatenate' op result type 'tensor<2x6xf32>' does not match the inferred type 'tensor<2x7xf32>'}}
  %0 = hlo.concatenate %a, %b {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x6xf32>
  hlo.return %0 : tensor<2x6xf32>
}

// -----

hlo.computation @concatenate_element_type(%a: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.concatenate' op operand 1 element type 'i32' differs from operand 0's 'f32'}}
  %0 = hlo.concatenate %a, %b {dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<2xi32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @pad_value_not_scalar(%x: tensor<2xf32>, %v: tensor<1xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.pad' op padding value must be a scalar, got 'tensor<1xf32>'}}
  %0 = hlo.pad %x, %v {padding = #hlo.padding<"1_1">} : (tensor<2xf32>, tensor<1xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @pad_value_type(%x: tensor<2xf32>, %v: tensor<i32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.pad' op padding value element type 'i32' differs from the operand's 'f32'}}
  %0 = hlo.pad %x, %v {padding = #hlo.padding<"1_1">} : (tensor<2xf32>, tensor<i32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @pad_rank(%x: tensor<2x3xf32>, %v: tensor<f32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'hlo.pad' op padding has 1 dimensions for an operand of rank 2}}
  %0 = hlo.pad %x, %v {padding = #hlo.padding<"1_1">} : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  hlo.return %0 : tensor<4x3xf32>
}

// -----

hlo.computation @pad_interior(%x: tensor<2xf32>, %v: tensor<f32>) -> tensor<1xf32> {
  // expected-error @+1 {{'hlo.pad' op interior padding -1 of dimension 0 must be non-negative}}
  %0 = hlo.pad %x, %v {padding = #hlo.padding<"0_0_-1">} : (tensor<2xf32>, tensor<f32>) -> tensor<1xf32>
  hlo.return %0 : tensor<1xf32>
}

// -----

hlo.computation @pad_negative_size(%x: tensor<2xf32>, %v: tensor<f32>) -> tensor<0xf32> {
  // expected-error @+1 {{'hlo.pad' op padding -2_-1_0 of dimension 0 (size 2) gives negative size -1}}
  %0 = hlo.pad %x, %v {padding = #hlo.padding<"-2_-1">} : (tensor<2xf32>, tensor<f32>) -> tensor<0xf32>
  hlo.return %0 : tensor<0xf32>
}

// -----

hlo.computation @pad_result(%x: tensor<3xf32>, %v: tensor<f32>) -> tensor<6xf32> {
  // expected-error @+1 {{'hlo.pad' op result type 'tensor<6xf32>' does not match the inferred type 'tensor<7xf32>'}}
  %0 = hlo.pad %x, %v {padding = #hlo.padding<"1_1_1">} : (tensor<3xf32>, tensor<f32>) -> tensor<6xf32>
  hlo.return %0 : tensor<6xf32>
}

// -----

hlo.computation @iota_dimension() -> tensor<4xi32> {
  // expected-error @+1 {{'hlo.iota' op iota_dimension 1 is out of range for rank 1}}
  %0 = hlo.iota {iota_dimension = 1 : i64} : () -> tensor<4xi32>
  hlo.return %0 : tensor<4xi32>
}

// -----

hlo.computation @iota_scalar() -> tensor<i32> {
  // expected-error @+1 {{'hlo.iota' op iota_dimension 0 is out of range for rank 0}}
  %0 = hlo.iota {iota_dimension = 0 : i64} : () -> tensor<i32>
  hlo.return %0 : tensor<i32>
}

// -----

hlo.computation @iota_pred() -> tensor<4xi1> {
  // expected-error @+1 {{'hlo.iota' op result must have integral, floating-point or complex elements, got 'i1'}}
  %0 = hlo.iota {iota_dimension = 0 : i64} : () -> tensor<4xi1>
  hlo.return %0 : tensor<4xi1>
}

// -----

hlo.computation @dynamic_slice_index_count(%x: tensor<8x6xf32>, %i: tensor<i32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'hlo.dynamic_slice' op needs 2 start indices, got 1}}
  %0 = hlo.dynamic_slice %x, %i {dynamic_slice_sizes = array<i64: 2, 6>} : (tensor<8x6xf32>, tensor<i32>) -> tensor<2x6xf32>
  hlo.return %0 : tensor<2x6xf32>
}

// -----

hlo.computation @dynamic_slice_index_type(%x: tensor<8xf32>, %i: tensor<1xi32>) -> tensor<2xf32> {
  // expected-error @+1 {{'hlo.dynamic_slice' op start indices must be integer scalars, got 'tensor<1xi32>'}}
  %0 = hlo.dynamic_slice %x, %i {dynamic_slice_sizes = array<i64: 2>} : (tensor<8xf32>, tensor<1xi32>) -> tensor<2xf32>
  hlo.return %0 : tensor<2xf32>
}

// -----

hlo.computation @dynamic_slice_mixed_indices(%x: tensor<8x6xf32>, %i: tensor<i32>, %j: tensor<i64>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'hlo.dynamic_slice' op start indices must all have the same type, got 'tensor<i32>' and 'tensor<i64>'}}
  %0 = hlo.dynamic_slice %x, %i, %j {dynamic_slice_sizes = array<i64: 2, 6>} : (tensor<8x6xf32>, tensor<i32>, tensor<i64>) -> tensor<2x6xf32>
  hlo.return %0 : tensor<2x6xf32>
}

// -----

hlo.computation @dynamic_slice_sizes(%x: tensor<8x6xf32>, %i: tensor<i32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'hlo.dynamic_slice' op dynamic_slice_sizes [2] must have one entry per operand dimension (2)}}
  %0 = hlo.dynamic_slice %x, %i, %i {dynamic_slice_sizes = array<i64: 2>} : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x6xf32>
  hlo.return %0 : tensor<2x6xf32>
}

// -----

hlo.computation @dynamic_slice_too_big(%x: tensor<8x6xf32>, %i: tensor<i32>) -> tensor<2x7xf32> {
  // expected-error @+1 {{'hlo.dynamic_slice' op slice size 7 of dimension 1 exceeds the operand size 6}}
  %0 = hlo.dynamic_slice %x, %i, %i {dynamic_slice_sizes = array<i64: 2, 7>} : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x7xf32>
  hlo.return %0 : tensor<2x7xf32>
}

// -----

hlo.computation @dynamic_slice_negative(%x: tensor<8xf32>, %i: tensor<i32>) -> tensor<2xf32> {
  // expected-error @+1 {{'hlo.dynamic_slice' op slice size -1 of dimension 0 is negative}}
  %0 = hlo.dynamic_slice %x, %i {dynamic_slice_sizes = array<i64: -1>} : (tensor<8xf32>, tensor<i32>) -> tensor<2xf32>
  hlo.return %0 : tensor<2xf32>
}

// -----

hlo.computation @dynamic_slice_result(%x: tensor<8x6xf32>, %i: tensor<i32>) -> tensor<3x6xf32> {
  // expected-error @+1 {{'hlo.dynamic_slice' op result type 'tensor<3x6xf32>' does not match the inferred type 'tensor<2x6xf32>'}}
  %0 = hlo.dynamic_slice %x, %i, %i {dynamic_slice_sizes = array<i64: 2, 6>} : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<3x6xf32>
  hlo.return %0 : tensor<3x6xf32>
}

// -----

hlo.computation @dynamic_update_slice_rank(%x: tensor<8x6xf32>, %u: tensor<6xf32>, %i: tensor<i32>) -> tensor<8x6xf32> {
  // expected-error @+1 {{'hlo.dynamic_update_slice' op update rank 1 must equal the operand rank 2}}
  %0 = hlo.dynamic_update_slice %x, %u, %i, %i : (tensor<8x6xf32>, tensor<6xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
  hlo.return %0 : tensor<8x6xf32>
}

// -----

hlo.computation @dynamic_update_slice_too_big(%x: tensor<8x6xf32>, %u: tensor<2x7xf32>, %i: tensor<i32>) -> tensor<8x6xf32> {
  // expected-error @+1 {{'hlo.dynamic_update_slice' op update dimension 1 (size 7) exceeds the operand (size 6)}}
  %0 = hlo.dynamic_update_slice %x, %u, %i, %i : (tensor<8x6xf32>, tensor<2x7xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
  hlo.return %0 : tensor<8x6xf32>
}

// -----

hlo.computation @dynamic_update_slice_type(%x: tensor<8xf32>, %u: tensor<2xf16>, %i: tensor<i32>) -> tensor<8xf32> {
  // expected-error @+1 {{'hlo.dynamic_update_slice' op update element type 'f16' differs from the operand's 'f32'}}
  %0 = hlo.dynamic_update_slice %x, %u, %i : (tensor<8xf32>, tensor<2xf16>, tensor<i32>) -> tensor<8xf32>
  hlo.return %0 : tensor<8xf32>
}

// -----

hlo.computation @dynamic_update_slice_result(%x: tensor<8xf32>, %u: tensor<2xf32>, %i: tensor<i32>) -> tensor<2xf32> {
  // expected-error @+1 {{'hlo.dynamic_update_slice' op result type 'tensor<2xf32>' does not match the inferred type 'tensor<8xf32>'}}
  %0 = hlo.dynamic_update_slice %x, %u, %i : (tensor<8xf32>, tensor<2xf32>, tensor<i32>) -> tensor<2xf32>
  hlo.return %0 : tensor<2xf32>
}

// -----

hlo.computation @get_dimension_size_dims(%x: tensor<3x?xf32, #hlo.layout<none, bounds = [?, 5]>>) -> tensor<i32> {
  // expected-error @+1 {{'hlo.get_dimension_size' op dimension 2 is out of range for rank 2}}
  %0 = hlo.get_dimension_size %x {dimensions = array<i64: 2>} : (tensor<3x?xf32, #hlo.layout<none, bounds = [?, 5]>>) -> tensor<i32>
  hlo.return %0 : tensor<i32>
}

// -----

hlo.computation @get_dimension_size_two(%x: tensor<3x4xf32>) -> tensor<i32> {
  // expected-error @+1 {{'hlo.get_dimension_size' op dimensions [0, 1] must name exactly one dimension}}
  %0 = hlo.get_dimension_size %x {dimensions = array<i64: 0, 1>} : (tensor<3x4xf32>) -> tensor<i32>
  hlo.return %0 : tensor<i32>
}

// -----

hlo.computation @get_dimension_size_result(%x: tensor<3x4xf32>) -> tensor<i64> {
  // expected-error @+1 {{'hlo.get_dimension_size' op result type 'tensor<i64>' does not match the inferred type 'tensor<i32>'}}
  %0 = hlo.get_dimension_size %x {dimensions = array<i64: 0>} : (tensor<3x4xf32>) -> tensor<i64>
  hlo.return %0 : tensor<i64>
}

// -----

hlo.computation @set_dimension_size_size(%x: tensor<3x4xf32>, %n: tensor<ui32>) -> tensor<3x?xf32> {
  // expected-error @+1 {{'hlo.set_dimension_size' op size must be an s32 scalar, got 'tensor<ui32>'}}
  %0 = hlo.set_dimension_size %x, %n {dimensions = array<i64: 1>} : (tensor<3x4xf32>, tensor<ui32>) -> tensor<3x?xf32>
  hlo.return %0 : tensor<3x?xf32>
}

// -----

hlo.computation @set_dimension_size_result(%x: tensor<3x4xf32>, %n: tensor<i32>) -> tensor<4x?xf32> {
  // expected-error @+1 {{'hlo.set_dimension_size' op operand dimensions [3, 4] do not match result dimensions [4, ?]}}
  %0 = hlo.set_dimension_size %x, %n {dimensions = array<i64: 1>} : (tensor<3x4xf32>, tensor<i32>) -> tensor<4x?xf32>
  hlo.return %0 : tensor<4x?xf32>
}

// -----

// Tuple types of 16 elements or more are checked once per context and
// remembered (each get-tuple-element checks its operand's type); one with
// a bad element, seen after a good one of the same size, is still refused.
hlo.computation @big_tuple(%p: tuple<tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>>) -> tensor<f32> {
  %0 = hlo.get_tuple_element %p {index = 3 : i64} : (tuple<tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>>) -> tensor<f32>
  %1 = hlo.get_tuple_element %p {index = 4 : i64} : (tuple<tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>>) -> tensor<f32>
  hlo.return %1 : tensor<f32>
}

// -----

// expected-error @+1 {{is not an HLO shape}}
hlo.computation @big_tuple_bad(%p: tuple<tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<i3>>) -> tensor<f32> {
  %0 = hlo.get_tuple_element %p {index = 3 : i64} : (tuple<tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<i3>>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}
