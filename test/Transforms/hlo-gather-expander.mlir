// RUN: hlo-opt %s -split-input-file --hlo-gather-expander | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-gather-expander --hlo-check-semantics -o /dev/null
// RUN: hlo-opt %s -split-input-file --hlo-gather-expander --hlo-check-semantics --hlo-check-semantics-seed=2 -o /dev/null
// RUN: hlo-opt %s -split-input-file --hlo-gather-expander=mode=eliminate-simple-gathers | FileCheck %s --check-prefix=SIMPLE
// RUN: hlo-opt %s -split-input-file --hlo-gather-expander=mode=eliminate-simple-gathers --hlo-check-semantics -o /dev/null
// RUN: not hlo-opt %s -split-input-file --hlo-gather-expander=mode=bad -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: for the --mode option: Cannot find option named 'bad'

// Rows of a matrix: the loop slices row idx[i] (dynamic-slice clamps it as
// gather does) into row i of the accumulator.
// CHECK-LABEL: hlo.computation private @gather_condition
// CHECK: constant {value = dense<6> : tensor<i32>}
// CHECK-LABEL: hlo.computation private @gather_body
// CHECK: %[[I:.*]] = get_tuple_element %{{.*}} {index = 0
// CHECK: %[[ACC:.*]] = get_tuple_element %{{.*}} {index = 1
// CHECK: %[[X:.*]] = get_tuple_element %{{.*}} {index = 2
// CHECK: %[[IDX:.*]] = get_tuple_element %{{.*}} {index = 3
// CHECK: %[[Z:.*]] = constant {value = dense<0> : tensor<i32>}
// CHECK: %[[ROW:.*]] = dynamic_slice %[[IDX]], %[[I]], %[[Z]] {dynamic_slice_sizes = array<i64: 1, 1>}
// CHECK: %[[K:.*]] = reshape %[[ROW]] : (tensor<1x1xi32>) -> tensor<i32>
// CHECK: %[[S:.*]] = dynamic_slice %[[X]], %[[K]], %[[Z]] {dynamic_slice_sizes = array<i64: 1, 3>}
// CHECK: %[[ACC2:.*]] = dynamic_update_slice %[[ACC]], %[[S]], %[[I]], %[[Z]] : (tensor<6x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<6x3xf32>
// CHECK: tuple %{{.*}}, %[[ACC2]], %[[X]], %[[IDX]]
// CHECK-LABEL: hlo.computation @rows
// CHECK: %[[ZERO:.*]] = constant {value = dense<0.000000e+00> : tensor<f32>}
// CHECK: %[[ACC:.*]] = broadcast %[[ZERO]] {dimensions = array<i64>} : (tensor<f32>) -> tensor<6x3xf32>
// CHECK: tuple %{{.*}}, %[[ACC]], %arg0, %arg1
// CHECK: %[[W:.*]] = while
// CHECK: %[[R:.*]] = get_tuple_element %[[W]] {index = 1
// CHECK-NOT: = gather
// CHECK: return %[[R]]
// SIMPLE-LABEL: hlo.computation @rows
// SIMPLE: = gather
hlo.computation @rows(%x: tensor<5x3xf32>, %idx: tensor<6x1xi32>) -> tensor<6x3xf32> attributes {entry} {
  %0 = hlo.gather %x, %idx {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<6x1xi32>) -> tensor<6x3xf32>
  hlo.return %0 : tensor<6x3xf32>
}

// -----

// Index vectors along the middle dimension, two batch dimensions, offset
// dimensions between them: the accumulator [6, 2, 2] is reshaped to
// [2, 3, 2, 2] and transposed into the result's order (which takes the
// gather's frontend attributes).
// CHECK-LABEL: hlo.computation @middle
// CHECK: %[[T:.*]] = transpose %arg1 {dimensions = array<i64: 0, 2, 1>} : (tensor<2x2x3xi32>) -> tensor<2x3x2xi32>
// CHECK: %[[IDX:.*]] = reshape %[[T]] : (tensor<2x3x2xi32>) -> tensor<6x2xi32>
// CHECK: %[[W:.*]] = while
// CHECK: %[[ACC:.*]] = get_tuple_element %[[W]] {index = 1
// CHECK: %[[B:.*]] = reshape %[[ACC]] : (tensor<6x2x2xi32>) -> tensor<2x3x2x2xi32>
// CHECK: %[[R:.*]] = transpose %[[B]] {dimensions = array<i64: 0, 2, 1, 3>, frontend_attributes = {k = "v"}} : (tensor<2x3x2x2xi32>) -> tensor<2x2x3x2xi32>
// CHECK: return %[[R]]
hlo.computation @middle(%x: tensor<5x6x4xi32>, %idx: tensor<2x2x3xi32>) -> tensor<2x2x3x2xi32> attributes {entry} {
  %0 = hlo.gather %x, %idx {offset_dims = array<i64: 1, 3>, collapsed_slice_dims = array<i64: 1>, start_index_map = array<i64: 1, 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 2, 1, 2>, frontend_attributes = {k = "v"}} : (tensor<5x6x4xi32>, tensor<2x2x3xi32>) -> tensor<2x2x3x2xi32>
  hlo.return %0 : tensor<2x2x3x2xi32>
}

// -----

// An implicit index vector dimension, u8 indices (widened to s32).
// CHECK-LABEL: hlo.computation @implicit
// CHECK: %[[IDX:.*]] = reshape %arg1 : (tensor<2x3xui8>) -> tensor<6x1xui8>
// CHECK: convert %[[IDX]] : (tensor<6x1xui8>) -> tensor<6x1xi32>
// CHECK: while
hlo.computation @implicit(%x: tensor<10x4xf32>, %idx: tensor<2x3xui8>) -> tensor<2x3x4xf32> attributes {entry} {
  %0 = hlo.gather %x, %idx {offset_dims = array<i64: 2>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 4>} : (tensor<10x4xf32>, tensor<2x3xui8>) -> tensor<2x3x4xf32>
  hlo.return %0 : tensor<2x3x4xf32>
}

// -----

// Batching dimensions (take_along_axis): the start at the operand batching
// dimension is the loop's coordinate along the indices' batching
// dimension (the first of two here: i / 3), converted to the s64 of the
// indices.
// CHECK-LABEL: hlo.computation private @gather_body
// CHECK: %[[THREE:.*]] = constant {value = dense<3> : tensor<i32>}
// CHECK: %[[B:.*]] = divide %{{.*}}, %[[THREE]]
// CHECK-NOT: remainder
// CHECK: %[[C:.*]] = convert %[[B]] : (tensor<i32>) -> tensor<i64>
// CHECK: dynamic_slice %{{.*}}, %[[C]], %{{.*}} {dynamic_slice_sizes = array<i64: 1, 1>}
// CHECK-LABEL: hlo.computation @batching
// CHECK-NOT: = gather
hlo.computation @batching(%x: tensor<4x5xi32>, %idx: tensor<4x3x1xi64>) -> tensor<4x3xi32> attributes {entry} {
  %0 = hlo.gather %x, %idx {offset_dims = array<i64>, collapsed_slice_dims = array<i64: 1>, operand_batching_dims = array<i64: 0>, start_indices_batching_dims = array<i64: 0>, start_index_map = array<i64: 1>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 1>} : (tensor<4x5xi32>, tensor<4x3x1xi64>) -> tensor<4x3xi32>
  hlo.return %0 : tensor<4x3xi32>
}

// -----

// A batching dimension after the first: coordinate (i / 2) % 3.
// CHECK-LABEL: hlo.computation private @gather_body
// CHECK: divide
// CHECK: remainder
// CHECK-LABEL: hlo.computation @batching_inner
hlo.computation @batching_inner(%x: tensor<3x6x2xf32>, %idx: tensor<2x3x2x1xi32>) -> tensor<2x3x2x2xf32> attributes {entry} {
  %0 = hlo.gather %x, %idx {offset_dims = array<i64: 3>, collapsed_slice_dims = array<i64: 1>, operand_batching_dims = array<i64: 0>, start_indices_batching_dims = array<i64: 1>, start_index_map = array<i64: 1>, index_vector_dim = 3 : i64, slice_sizes = array<i64: 1, 1, 2>} : (tensor<3x6x2xf32>, tensor<2x3x2x1xi32>) -> tensor<2x3x2x2xf32>
  hlo.return %0 : tensor<2x3x2x2xf32>
}

// -----

// Scalar indices: one index vector, a dynamic slice as a loop of one trip
// (simple), also without collapsed dimensions.
// CHECK-LABEL: hlo.computation @scalar_index
// CHECK: while
// SIMPLE-LABEL: hlo.computation @scalar_index
// SIMPLE-NOT: = gather
// SIMPLE: while
hlo.computation @scalar_index(%x: tensor<8x3xf32>, %idx: tensor<i32>) -> tensor<3x3xf32> attributes {entry} {
  %0 = hlo.gather %x, %idx {offset_dims = array<i64: 0, 1>, collapsed_slice_dims = array<i64>, start_index_map = array<i64: 0>, index_vector_dim = 0 : i64, slice_sizes = array<i64: 3, 3>} : (tensor<8x3xf32>, tensor<i32>) -> tensor<3x3xf32>
  hlo.return %0 : tensor<3x3xf32>
}

// -----

// A slice of the whole operand does not depend on the indices: a reshape
// (dropping the collapsed dimension) and a broadcast, in both modes.
// CHECK-LABEL: hlo.computation @whole
// CHECK: %[[R:.*]] = reshape %arg0 : (tensor<1x4xf32>) -> tensor<4xf32>
// CHECK: %[[B:.*]] = broadcast %[[R]] {dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<5x4xf32>
// CHECK-NOT: while
// CHECK: return %[[B]]
// SIMPLE-LABEL: hlo.computation @whole
// SIMPLE: broadcast
// SIMPLE-NOT: = gather
hlo.computation @whole(%x: tensor<1x4xf32>, %idx: tensor<5x1xi32>) -> tensor<5x4xf32> attributes {entry} {
  %0 = hlo.gather %x, %idx {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 4>} : (tensor<1x4xf32>, tensor<5x1xi32>) -> tensor<5x4xf32>
  hlo.return %0 : tensor<5x4xf32>
}

// -----

// Left alone: an empty result, control predecessors, dynamic shapes.
// CHECK-LABEL: hlo.computation @keep
// SIMPLE-LABEL: hlo.computation @keep
// CHECK: = gather %arg0, %arg1
// CHECK: = gather %arg0, %arg2 after
// CHECK: = gather %arg3, %arg2
// CHECK-NOT: while
hlo.computation @keep(%x: tensor<5x3xf32>, %e: tensor<0x1xi32>, %idx: tensor<2x1xi32>, %d: tensor<?x3xf32, #hlo.layout<[1, 0], bounds = [5, ?]>>) -> tuple<tensor<0x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>> attributes {entry} {
  %0 = hlo.gather %x, %e {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<0x1xi32>) -> tensor<0x3xf32>
  %1 = hlo.gather %x, %idx after(%0 : tensor<0x3xf32>) {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  %2 = hlo.gather %d, %idx {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 3>} : (tensor<?x3xf32, #hlo.layout<[1, 0], bounds = [5, ?]>>, tensor<2x1xi32>) -> tensor<2x3xf32>
  %3 = hlo.tuple %0, %1, %2 : (tensor<0x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tuple<tensor<0x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>>
  hlo.return %3 : tuple<tensor<0x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>>
}
