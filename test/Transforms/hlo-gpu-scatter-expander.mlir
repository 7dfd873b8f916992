// RUN: hlo-opt %s -split-input-file --hlo-gpu-scatter-expander | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-gpu-scatter-expander --hlo-check-semantics -o /dev/null
// RUN: hlo-opt %s -split-input-file --hlo-gpu-scatter-expander --hlo-check-semantics --hlo-check-semantics-seed=2 -o /dev/null

// c128 elements (128 bits) have no XLA:GPU scatter kernel: expanded. c64,
// f64 and s64 (64 bits) stay scatters.
// CHECK-LABEL: hlo.computation private @scatter_body
// CHECK: map %{{.*}}, %{{.*}} {dimensions = array<i64: 0, 1>, to_apply = @add_c128}
// CHECK-SAME: (tensor<1x2xcomplex<f64>>, tensor<1x2xcomplex<f64>>) -> tensor<1x2xcomplex<f64>>
// CHECK-LABEL: hlo.computation @wide
// CHECK: %[[W:.*]] = while
// CHECK: %[[R:.*]] = get_tuple_element %[[W]] {index = 1
// CHECK: %[[C64:.*]] = scatter %arg3, %arg1, %arg4 {{.*}}to_apply = @add_c64
// CHECK: %[[F64:.*]] = scatter %arg5, %arg1, %arg6 {{.*}}to_apply = @add_f64
// CHECK: tuple %[[R]], %[[C64]], %[[F64]]
hlo.computation @add_c128(%a: tensor<complex<f64>>, %b: tensor<complex<f64>>) -> tensor<complex<f64>> {
  %0 = hlo.add %a, %b : (tensor<complex<f64>>, tensor<complex<f64>>) -> tensor<complex<f64>>
  hlo.return %0 : tensor<complex<f64>>
}
hlo.computation @add_c64(%a: tensor<complex<f32>>, %b: tensor<complex<f32>>) -> tensor<complex<f32>> {
  %0 = hlo.add %a, %b : (tensor<complex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
  hlo.return %0 : tensor<complex<f32>>
}
hlo.computation @add_f64(%a: tensor<f64>, %b: tensor<f64>) -> tensor<f64> {
  %0 = hlo.add %a, %b : (tensor<f64>, tensor<f64>) -> tensor<f64>
  hlo.return %0 : tensor<f64>
}
hlo.computation @wide(%x: tensor<4x2xcomplex<f64>>, %idx: tensor<6x1xi32>, %u: tensor<6x2xcomplex<f64>>, %y: tensor<4x2xcomplex<f32>>, %v: tensor<6x2xcomplex<f32>>, %z: tensor<4x2xf64>, %w: tensor<6x2xf64>) -> tuple<tensor<4x2xcomplex<f64>>, tensor<4x2xcomplex<f32>>, tensor<4x2xf64>> attributes {entry} {
  %0 = hlo.scatter %x, %idx, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add_c128} : (tensor<4x2xcomplex<f64>>, tensor<6x1xi32>, tensor<6x2xcomplex<f64>>) -> tensor<4x2xcomplex<f64>>
  %1 = hlo.scatter %y, %idx, %v {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add_c64} : (tensor<4x2xcomplex<f32>>, tensor<6x1xi32>, tensor<6x2xcomplex<f32>>) -> tensor<4x2xcomplex<f32>>
  %2 = hlo.scatter %z, %idx, %w {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add_f64} : (tensor<4x2xf64>, tensor<6x1xi32>, tensor<6x2xf64>) -> tensor<4x2xf64>
  %3 = hlo.tuple %0, %1, %2 : (tensor<4x2xcomplex<f64>>, tensor<4x2xcomplex<f32>>, tensor<4x2xf64>) -> tuple<tensor<4x2xcomplex<f64>>, tensor<4x2xcomplex<f32>>, tensor<4x2xf64>>
  hlo.return %3 : tuple<tensor<4x2xcomplex<f64>>, tensor<4x2xcomplex<f32>>, tensor<4x2xf64>>
}

// -----

// Variadic scatters: expanded unless the indices are unique and no element
// is wider than 64 bits.
// CHECK-LABEL: hlo.computation @variadic
// CHECK: %[[W:.*]] = while
// CHECK: %[[U:.*]] = scatter %arg0, %arg1, %arg2, %arg3, %arg4 {{.*}}unique_indices = true
// CHECK: %[[W2:.*]] = while
// CHECK-NOT: = scatter
// CHECK: return
hlo.computation @add_pair(%a: tensor<f32>, %i: tensor<i32>, %b: tensor<f32>, %j: tensor<i32>) -> tuple<tensor<f32>, tensor<i32>> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = hlo.add %i, %j : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %2 = hlo.tuple %0, %1 : (tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tensor<i32>>
  hlo.return %2 : tuple<tensor<f32>, tensor<i32>>
}
hlo.computation @add_wide(%a: tensor<f32>, %i: tensor<complex<f64>>, %b: tensor<f32>, %j: tensor<complex<f64>>) -> tuple<tensor<f32>, tensor<complex<f64>>> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = hlo.add %i, %j : (tensor<complex<f64>>, tensor<complex<f64>>) -> tensor<complex<f64>>
  %2 = hlo.tuple %0, %1 : (tensor<f32>, tensor<complex<f64>>) -> tuple<tensor<f32>, tensor<complex<f64>>>
  hlo.return %2 : tuple<tensor<f32>, tensor<complex<f64>>>
}
hlo.computation @variadic(%x: tensor<6xf32>, %y: tensor<6xi32>, %idx: tensor<4x1xi32>, %u: tensor<4xf32>, %v: tensor<4xi32>, %c: tensor<6xcomplex<f64>>, %cu: tensor<4xcomplex<f64>>) -> tuple<tuple<tensor<6xf32>, tensor<6xi32>>, tuple<tensor<6xf32>, tensor<6xi32>>, tuple<tensor<6xf32>, tensor<6xcomplex<f64>>>> attributes {entry} {
  %0 = hlo.scatter %x, %y, %idx, %u, %v {update_window_dims = array<i64>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add_pair} : (tensor<6xf32>, tensor<6xi32>, tensor<4x1xi32>, tensor<4xf32>, tensor<4xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>>
  %1 = hlo.scatter %x, %y, %idx, %u, %v {update_window_dims = array<i64>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, unique_indices = true, to_apply = @add_pair} : (tensor<6xf32>, tensor<6xi32>, tensor<4x1xi32>, tensor<4xf32>, tensor<4xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>>
  %2 = hlo.scatter %x, %c, %idx, %u, %cu {update_window_dims = array<i64>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, unique_indices = true, to_apply = @add_wide} : (tensor<6xf32>, tensor<6xcomplex<f64>>, tensor<4x1xi32>, tensor<4xf32>, tensor<4xcomplex<f64>>) -> tuple<tensor<6xf32>, tensor<6xcomplex<f64>>>
  %3 = hlo.tuple %0, %1, %2 : (tuple<tensor<6xf32>, tensor<6xi32>>, tuple<tensor<6xf32>, tensor<6xi32>>, tuple<tensor<6xf32>, tensor<6xcomplex<f64>>>) -> tuple<tuple<tensor<6xf32>, tensor<6xi32>>, tuple<tensor<6xf32>, tensor<6xi32>>, tuple<tensor<6xf32>, tensor<6xcomplex<f64>>>>
  hlo.return %3 : tuple<tuple<tensor<6xf32>, tensor<6xi32>>, tuple<tensor<6xf32>, tensor<6xi32>>, tuple<tensor<6xf32>, tensor<6xcomplex<f64>>>>
}
