// RUN: hlo-opt %s -split-input-file --hlo-while-loop-constant-sinking | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-while-loop-constant-sinking=sink-broadcast-of-constants | FileCheck %s --check-prefix=BCAST
// RUN: hlo-opt %s -split-input-file --hlo-while-loop-constant-sinking=sink-only-scalar-constants | FileCheck %s --check-prefix=SCALAR
// RUN: hlo-opt %s -split-input-file --hlo-while-loop-constant-sinking=sink-broadcast-of-constants --hlo-check-semantics -o /dev/null

// A constant passed on unchanged is read as a copy of itself in the body
// and the condition (the loop bound n = 3); the root still passes it on.
// The outer body is visited before the inner loop's, so the constant
// reaches the nested loop too (seed 002, section 3.6).
// CHECK-LABEL: module @sink
// CHECK-LABEL: hlo.computation private @inner_body
// CHECK: %[[KI:.*]] = constant {value = dense<[5.000000e-01, 2.000000e+00, -1.000000e+00, 1.000000e+00]> : tensor<4xf32>}
// CHECK: %[[K:.*]] = get_tuple_element %arg0 {index = 2 : i64}
// CHECK: add %{{.*}}, %[[KI]]
// CHECK: tuple %{{.*}}, %{{.*}}, %[[K]]
// CHECK-LABEL: hlo.computation private @cond
// CHECK: %[[N:.*]] = constant {value = dense<3> : tensor<i32>}
// CHECK: compare %{{.*}}, %[[N]]
// CHECK-LABEL: hlo.computation private @body
// CHECK: %[[KB:.*]] = constant {value = dense<[5.000000e-01
// CHECK: %[[KP:.*]] = get_tuple_element %arg0 {index = 2 : i64}
// CHECK: tuple %{{.*}}, %{{.*}}, %[[KB]] :
// CHECK: tuple %{{.*}}, %{{.*}}, %[[KP]], %{{.*}} :
// SCALAR-LABEL: module @sink
// SCALAR-LABEL: hlo.computation private @cond
// SCALAR: constant {value = dense<3> : tensor<i32>}
// SCALAR-LABEL: hlo.computation private @body
// SCALAR-NOT: constant {value = dense<[5.0
// SCALAR: hlo.computation @e
module @sink {
  hlo.computation private @inner_cond(%arg0: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<i1> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<i32>
    %1 = constant {value = dense<2> : tensor<i32>} : () -> tensor<i32>
    %2 = compare %0, %1 {direction = #hlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %2 : tensor<i1>
  }
  hlo.computation private @inner_body(%arg0: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<i32>
    %1 = get_tuple_element %arg0 {index = 1 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
    %2 = get_tuple_element %arg0 {index = 2 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
    %3 = constant {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %4 = add %0, %3 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %5 = add %1, %2 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %6 = tuple %4, %5, %2 : (tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    return %6 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
  }
  hlo.computation private @cond(%arg0: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>) -> tensor<i1> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>) -> tensor<i32>
    %1 = get_tuple_element %arg0 {index = 3 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>) -> tensor<i32>
    %2 = compare %0, %1 {direction = #hlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %2 : tensor<i1>
  }
  hlo.computation private @body(%arg0: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>) -> tensor<i32>
    %1 = get_tuple_element %arg0 {index = 1 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
    %2 = get_tuple_element %arg0 {index = 2 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
    %3 = get_tuple_element %arg0 {index = 3 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>) -> tensor<i32>
    %4 = constant {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %5 = add %0, %4 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %6 = constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %7 = tuple %6, %1, %2 : (tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %8 = while %7 {body = @inner_body, condition = @inner_cond} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %9 = get_tuple_element %8 {index = 1 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
    %10 = multiply %1, %9 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %11 = tuple %5, %10, %2, %3 : (tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    return %11 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
  }
  hlo.computation @e(%arg0: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>> attributes {entry} {
    %0 = constant {value = dense<[5.000000e-01, 2.000000e+00, -1.000000e+00, 1.000000e+00]> : tensor<4xf32>} : () -> tensor<4xf32>
    %1 = constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %2 = constant {value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %3 = tuple %1, %arg0, %0, %2 : (tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    %4 = while %3 {body = @body, condition = @cond} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
    return %4 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>>
  }
}

// -----

// A broadcast of a constant is sunk only with sink-broadcast-of-constants.
// CHECK-LABEL: module @sinkbcast
// CHECK-LABEL: hlo.computation private @body
// CHECK-NOT: broadcast
// CHECK: hlo.computation @e
// BCAST-LABEL: module @sinkbcast
// BCAST-LABEL: hlo.computation private @body
// BCAST: %[[C:.*]] = constant {value = dense<1.500000e+00> : tensor<f32>}
// BCAST: %[[B:.*]] = broadcast %[[C]]
// BCAST: add %{{.*}}, %[[B]]
module @sinkbcast {
  hlo.computation private @cond(%arg0: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<i1> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<i32>
    %1 = constant {value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %2 = compare %0, %1 {direction = #hlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %2 : tensor<i1>
  }
  hlo.computation private @body(%arg0: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<i32>
    %1 = get_tuple_element %arg0 {index = 1 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
    %2 = get_tuple_element %arg0 {index = 2 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
    %3 = constant {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %4 = add %0, %3 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %5 = add %1, %2 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %6 = tuple %4, %5, %2 : (tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    return %6 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
  }
  hlo.computation @e(%arg0: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>> attributes {entry} {
    %0 = constant {value = dense<1.500000e+00> : tensor<f32>} : () -> tensor<f32>
    %1 = broadcast %0 {dimensions = array<i64>} : (tensor<f32>) -> tensor<4xf32>
    %2 = constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %3 = tuple %2, %arg0, %1 : (tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    %4 = while %3 {body = @body, condition = @cond} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
    return %4 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>
  }
}
