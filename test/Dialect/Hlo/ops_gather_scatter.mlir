// RUN: hlo-opt %s | hlo-opt | FileCheck %s

// gather and scatter, with and without batching dimensions.

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @add_pair(%a: tensor<f32>, %i: tensor<i32>, %b: tensor<f32>, %j: tensor<i32>) -> tuple<tensor<f32>, tensor<i32>> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = hlo.add %i, %j : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %2 = hlo.tuple %0, %1 : (tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tensor<i32>>
  hlo.return %2 : tuple<tensor<f32>, tensor<i32>>
}

// CHECK-LABEL: hlo.computation @gather
hlo.computation @gather(%x: tensor<3x4x2xf32>, %idx: tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32> {
  // CHECK: %0 = gather %arg0, %arg1 {collapsed_slice_dims = array<i64: 0>, index_vector_dim = 2 : i64, indices_are_sorted = true, offset_dims = array<i64: 2, 3>, slice_sizes = array<i64: 1, 2, 2>, start_index_map = array<i64: 1, 0>} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  %0 = hlo.gather %x, %idx {offset_dims = array<i64: 2, 3>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 1, 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = true} : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// The index vector dimension may be implicit (index_vector_dim = rank).
// CHECK-LABEL: hlo.computation @gather_implicit_index_vector
hlo.computation @gather_implicit_index_vector(%x: tensor<10x5xf32>, %idx: tensor<7xi64>) -> tensor<7x5xf32> {
  // CHECK: %0 = gather %arg0, %arg1 {collapsed_slice_dims = array<i64: 0>, index_vector_dim = 1 : i64, offset_dims = array<i64: 1>, slice_sizes = array<i64: 1, 5>, start_index_map = array<i64: 0>} : (tensor<10x5xf32>, tensor<7xi64>) -> tensor<7x5xf32>
  %0 = hlo.gather %x, %idx {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 5>} : (tensor<10x5xf32>, tensor<7xi64>) -> tensor<7x5xf32>
  hlo.return %0 : tensor<7x5xf32>
}

// CHECK-LABEL: hlo.computation @gather_batching
hlo.computation @gather_batching(%x: tensor<5x3x4xf32>, %idx: tensor<5x2x1xi32>) -> tensor<5x2x4xf32> {
  // CHECK: %0 = gather %arg0, %arg1 {collapsed_slice_dims = array<i64: 1>, index_vector_dim = 2 : i64, offset_dims = array<i64: 2>, operand_batching_dims = array<i64: 0>, slice_sizes = array<i64: 1, 1, 4>, start_index_map = array<i64: 1>, start_indices_batching_dims = array<i64: 0>} : (tensor<5x3x4xf32>, tensor<5x2x1xi32>) -> tensor<5x2x4xf32>
  %0 = hlo.gather %x, %idx {offset_dims = array<i64: 2>, collapsed_slice_dims = array<i64: 1>, operand_batching_dims = array<i64: 0>, start_indices_batching_dims = array<i64: 0>, start_index_map = array<i64: 1>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 1, 4>} : (tensor<5x3x4xf32>, tensor<5x2x1xi32>) -> tensor<5x2x4xf32>
  hlo.return %0 : tensor<5x2x4xf32>
}

// CHECK-LABEL: hlo.computation @scatter
hlo.computation @scatter(%x: tensor<3x4xf32>, %idx: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  // CHECK: %0 = scatter %arg0, %arg1, %arg2 {index_vector_dim = 1 : i64, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, to_apply = @add, unique_indices = true, update_window_dims = array<i64: 1>} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  %0 = hlo.scatter %x, %idx, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, unique_indices = true, to_apply = @add} : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// Variadic scatter: N operands, the indices, N updates, a tuple result.
// CHECK-LABEL: hlo.computation @scatter_variadic
hlo.computation @scatter_variadic(%x: tensor<6xf32>, %y: tensor<6xi32>, %idx: tensor<3x1xi32>, %u: tensor<3xf32>, %v: tensor<3xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>> {
  // CHECK: %0 = scatter %arg0, %arg1, %arg2, %arg3, %arg4 {index_vector_dim = 1 : i64, indices_are_sorted = false, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, to_apply = @add_pair, update_window_dims = array<i64>} : (tensor<6xf32>, tensor<6xi32>, tensor<3x1xi32>, tensor<3xf32>, tensor<3xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>>
  %0 = hlo.scatter %x, %y, %idx, %u, %v {update_window_dims = array<i64>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, indices_are_sorted = false, to_apply = @add_pair} : (tensor<6xf32>, tensor<6xi32>, tensor<3x1xi32>, tensor<3xf32>, tensor<3xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>>
  hlo.return %0 : tuple<tensor<6xf32>, tensor<6xi32>>
}

// CHECK-LABEL: hlo.computation @scatter_batching
hlo.computation @scatter_batching(%x: tensor<5x3x4xf32>, %idx: tensor<5x2x1xi32>, %u: tensor<5x2x4xf32>) -> tensor<5x3x4xf32> {
  // CHECK: %0 = scatter %arg0, %arg1, %arg2 {index_vector_dim = 2 : i64, input_batching_dims = array<i64: 0>, inserted_window_dims = array<i64: 1>, scatter_dims_to_operand_dims = array<i64: 1>, scatter_indices_batching_dims = array<i64: 0>, to_apply = @add, update_window_dims = array<i64: 2>} : (tensor<5x3x4xf32>, tensor<5x2x1xi32>, tensor<5x2x4xf32>) -> tensor<5x3x4xf32>
  %0 = hlo.scatter %x, %idx, %u {update_window_dims = array<i64: 2>, inserted_window_dims = array<i64: 1>, input_batching_dims = array<i64: 0>, scatter_indices_batching_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 1>, index_vector_dim = 2 : i64, to_apply = @add} : (tensor<5x3x4xf32>, tensor<5x2x1xi32>, tensor<5x2x4xf32>) -> tensor<5x3x4xf32>
  hlo.return %0 : tensor<5x3x4xf32>
}
