// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// gather and scatter dimension numbers and shapes.

hlo.computation @gather_float_indices(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xf32>) -> tensor<2x3x2x2xf32> {
  // expected-error @+1 {{'hlo.gather' op start_indices must have integral elements, got 'f32'}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xf32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// -----

hlo.computation @gather_slice_sizes_arity(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32> {
  // expected-error @+1 {{'hlo.gather' op slice_sizes [1, 2] must have one entry per operand dimension (3)}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// -----

hlo.computation @gather_slice_size_too_big(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32> {
  // expected-error @+1 {{'hlo.gather' op slice size 5 of dimension 1 is out of range for operand size 4}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 5, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// -----

hlo.computation @gather_collapsed_unsorted(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32> {
  // expected-error @+1 {{'hlo.gather' op collapsed_slice_dims [1, 0] must be sorted}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2>, collapsed_slice_dims = array<i64: 1, 0>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 1, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// -----

hlo.computation @gather_collapsed_range(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32> {
  // expected-error @+1 {{'hlo.gather' op collapsed_slice_dims [3] has dimension 3 out of range for rank 3}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 3>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// -----

hlo.computation @gather_collapsed_batching_overlap(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32> {
  // expected-error @+1 {{'hlo.gather' op collapsed_slice_dims [0] and operand_batching_dims [0] both contain dimension 0}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 0>, operand_batching_dims = array<i64: 0>, start_indices_batching_dims = array<i64: 0>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// -----

hlo.computation @gather_start_index_map_repeat(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32> {
  // expected-error @+1 {{'hlo.gather' op start_index_map [1, 1] repeats dimension 1}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 1, 1>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// -----

hlo.computation @gather_start_index_map_batching(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32> {
  // expected-error @+1 {{'hlo.gather' op start_index_map [1, 0] and operand_batching_dims [1] both contain dimension 1}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 0>, operand_batching_dims = array<i64: 1>, start_indices_batching_dims = array<i64: 0>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 1, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// -----

hlo.computation @gather_collapsed_size(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32> {
  // expected-error @+1 {{'hlo.gather' op collapsed dimension 0 must have slice size 0 or 1, got 2}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 2, 2, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// -----

hlo.computation @gather_batching_size(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32> {
  // expected-error @+1 {{'hlo.gather' op operand batching dimension 2 must have slice size 0 or 1, got 2}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 0>, operand_batching_dims = array<i64: 2>, start_indices_batching_dims = array<i64: 0>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// -----

hlo.computation @gather_index_vector_dim(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32> {
  // expected-error @+1 {{'hlo.gather' op index_vector_dim 4 is out of range for start_indices of rank 3}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 1, 0>, index_vector_dim = 4 : i64, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// -----

hlo.computation @gather_index_vector_size(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32> {
  // expected-error @+1 {{'hlo.gather' op start_index_map has 1 entries but the index vector (dimension 2 of start_indices) has 2}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 1>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// -----

hlo.computation @gather_batching_arity(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32> {
  // expected-error @+1 {{'hlo.gather' op operand_batching_dims [2] and start_indices_batching_dims [] differ in size}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 0>, operand_batching_dims = array<i64: 2>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2, 1>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// -----

hlo.computation @gather_indices_batching_ivd(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32> {
  // expected-error @+1 {{'hlo.gather' op start_indices_batching_dims [2] may not contain index_vector_dim 2}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 0>, operand_batching_dims = array<i64: 2>, start_indices_batching_dims = array<i64: 2>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2, 1>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// -----

hlo.computation @gather_batching_dim_size(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32> {
  // expected-error @+1 {{'hlo.gather' op operand batching dimension 2 (size 2) differs from start_indices dimension 1 (size 3)}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2>, collapsed_slice_dims = array<i64: 0>, operand_batching_dims = array<i64: 2>, start_indices_batching_dims = array<i64: 1>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2, 1>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// -----

hlo.computation @gather_offset_dims_count(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2xf32> {
  // expected-error @+1 {{'hlo.gather' op offset_dims has 1 entries but 2 operand dimensions are neither collapsed nor batching}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2xf32>
  hlo.return %0 : tensor<2x3x2xf32>
}

// -----

hlo.computation @gather_result_rank(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'hlo.gather' op result type 'tensor<2x3x4xf32>' does not match the inferred type 'tensor<2x3x2x2xf32>'}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x4xf32>
  hlo.return %0 : tensor<2x3x4xf32>
}

// -----

hlo.computation @gather_offset_dims_unsorted(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32> {
  // expected-error @+1 {{'hlo.gather' op offset_dims [3, 2] must be sorted}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 3, 2>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// -----

hlo.computation @gather_result_dim(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x3xf32> {
  // expected-error @+1 {{'hlo.gather' op result type 'tensor<2x3x2x3xf32>' does not match the inferred type 'tensor<2x3x2x2xf32>'}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x3xf32>
  hlo.return %0 : tensor<2x3x2x3xf32>
}

// -----

hlo.computation @gather_result_batch_dim(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<4x3x2x2xf32> {
  // expected-error @+1 {{'hlo.gather' op result type 'tensor<4x3x2x2xf32>' does not match the inferred type 'tensor<2x3x2x2xf32>'}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<4x3x2x2xf32>
  hlo.return %0 : tensor<4x3x2x2xf32>
}

// -----

hlo.computation @gather_element_type(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) -> tensor<2x3x2x2xf16> {
  // expected-error @+1 {{'hlo.gather' op result type 'tensor<2x3x2x2xf16>' does not match the inferred type 'tensor<2x3x2x2xf32>'}}
  %0 = hlo.gather %x, %i {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf16>
  hlo.return %0 : tensor<2x3x2x2xf16>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_float_indices(%x: tensor<3x4xf32>, %i: tensor<2x1xf32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op scatter_indices must have integral elements, got 'f32'}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<3x4xf32>, tensor<2x1xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_update_type(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xi32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op update 0 element type 'i32' differs from operand 0's 'f32'}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xi32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_update_window_unsorted(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op update_window_dims [1, 0] must be sorted}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 1, 0>, inserted_window_dims = array<i64>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_update_window_range(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op update_window_dims [2] has dimension 2 out of range for rank 2}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 2>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_inserted_unsorted(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op inserted_window_dims [1, 0] must be sorted}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64>, inserted_window_dims = array<i64: 1, 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_inserted_batching_overlap(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op inserted_window_dims [0] and input_batching_dims [0] both contain dimension 0}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, input_batching_dims = array<i64: 0>, scatter_indices_batching_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_window_size(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op update_window_dims (1), inserted_window_dims (0) and input_batching_dims (0) must add up to the operand rank 2}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_index_vector_dim(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op index_vector_dim 3 is out of range for scatter_indices of rank 2}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 3 : i64, to_apply = @add} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_index_vector_size(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op scatter_dims_to_operand_dims has 2 entries but the index vector (dimension 1 of scatter_indices) has 1}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0, 1>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_dims_to_operand_range(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op scatter_dims_to_operand_dims [2] has dimension 2 out of range for rank 2}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 2>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_dims_to_operand_batching(%x: tensor<2x3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op scatter_dims_to_operand_dims [0] and input_batching_dims [0] both contain dimension 0}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 1>, input_batching_dims = array<i64: 0>, scatter_indices_batching_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<2x3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<2x3x4xf32>
  hlo.return %0 : tensor<2x3x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_batching_arity(%x: tensor<2x3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op input_batching_dims [0] and scatter_indices_batching_dims [] differ in size}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 1>, input_batching_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 1>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<2x3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<2x3x4xf32>
  hlo.return %0 : tensor<2x3x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_batching_ivd(%x: tensor<2x3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op scatter_indices_batching_dims [1] may not contain index_vector_dim 1}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 1>, input_batching_dims = array<i64: 0>, scatter_indices_batching_dims = array<i64: 1>, scatter_dims_to_operand_dims = array<i64: 1>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<2x3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<2x3x4xf32>
  hlo.return %0 : tensor<2x3x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_batching_size(%x: tensor<5x3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<5x3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op operand batching dimension 0 (size 5) differs from scatter_indices dimension 0 (size 2)}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 1>, input_batching_dims = array<i64: 0>, scatter_indices_batching_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 1>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<5x3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<5x3x4xf32>
  hlo.return %0 : tensor<5x3x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_update_rank(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4x1xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op updates have rank 3 but should have 2 (1 update_window_dims + 1 scatter dimensions)}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4x1xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_update_window_bound(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x5xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op update window dimension 1 (size 5) exceeds operand dimension 1 (size 4)}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x5xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_update_scatter_dim(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op update scatter dimension 0 (size 3) differs from scatter_indices dimension 0 (size 2)}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_result(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<3x5xf32> {
  // expected-error @+1 {{'hlo.scatter' op result type 'tensor<3x5xf32>' does not match the inferred type 'tensor<3x4xf32>'}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x5xf32>
  hlo.return %0 : tensor<3x5xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_reducer(%x: tensor<3x4xi32>, %i: tensor<2x1xi32>, %u: tensor<2x4xi32>) -> tensor<3x4xi32> {
  // expected-error @+1 {{'hlo.scatter' op to_apply computation parameter 0 has type 'tensor<f32>', expected the accumulator type 'tensor<i32>'}}
  %0 = hlo.scatter %x, %i, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<3x4xi32>, tensor<2x1xi32>, tensor<2x4xi32>) -> tensor<3x4xi32>
  hlo.return %0 : tensor<3x4xi32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @scatter_arity(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'hlo.scatter' op needs N operands, the indices and N updates, got 2 operands}}
  %0 = hlo.scatter %x, %i {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}
