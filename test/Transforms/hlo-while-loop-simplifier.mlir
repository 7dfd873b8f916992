// RUN: hlo-opt %s -split-input-file --hlo-while-loop-simplifier | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-while-loop-simplifier --hlo-check-semantics -o /dev/null

// Rule 1: the condition fails on the init (i = 0, i < 0): the loop is its
// init; the computations nothing calls any more go.
// CHECK-LABEL: module @zero
// CHECK-NOT: hlo.computation private
// CHECK-NOT: while
// CHECK: %[[INIT:.*]] = tuple
// CHECK-NEXT: return %[[INIT]]
module @zero {
  hlo.computation private @cond(%arg0: tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i1> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %1 = constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %2 = compare %0, %1 {direction = #hlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %2 : tensor<i1>
  }
  hlo.computation private @body(%arg0: tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %1 = get_tuple_element %arg0 {index = 1 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<4xf32>
    %2 = constant {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %3 = add %0, %2 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %4 = negate %1 : (tensor<4xf32>) -> tensor<4xf32>
    %5 = tuple %3, %4 : (tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>>
    return %5 : tuple<tensor<i32>, tensor<4xf32>>
  }
  hlo.computation @e(%arg0: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>> attributes {entry} {
    %0 = constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %1 = tuple %0, %arg0 : (tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>>
    %2 = while %1 {body = @body, condition = @cond} : (tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>>
    return %2 : tuple<tensor<i32>, tensor<4xf32>>
  }
}

// -----

// Rule 2: one trip (i = 0, i < 1, step 1): a copy of the body on the init.
// CHECK-LABEL: module @once
// CHECK-NOT: while
// CHECK: %[[INIT:.*]] = tuple
// CHECK: negate
// CHECK: %[[R:.*]] = tuple
// CHECK-NEXT: return %[[R]]
module @once {
  hlo.computation private @cond(%arg0: tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i1> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %1 = constant {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %2 = compare %0, %1 {direction = #hlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %2 : tensor<i1>
  }
  hlo.computation private @body(%arg0: tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %1 = get_tuple_element %arg0 {index = 1 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<4xf32>
    %2 = constant {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %3 = add %0, %2 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %4 = negate %1 : (tensor<4xf32>) -> tensor<4xf32>
    %5 = tuple %3, %4 : (tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>>
    return %5 : tuple<tensor<i32>, tensor<4xf32>>
  }
  hlo.computation @e(%arg0: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>> attributes {entry} {
    %0 = constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %1 = tuple %0, %arg0 : (tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>>
    %2 = while %1 {body = @body, condition = @cond} : (tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>>
    return %2 : tuple<tensor<i32>, tensor<4xf32>>
  }
}

// -----

// Rule 2 from the known_trip_count backend config (the condition is not an
// induction variable compare).
// CHECK-LABEL: module @known
// CHECK-NOT: while
// CHECK: negate
module @known {
  hlo.computation private @cond(%arg0: tuple<tensor<4xf32>>) -> tensor<i1> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<4xf32>>) -> tensor<4xf32>
    %1 = constant {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
    %2 = reduce %0, %1 {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %3 = compare %2, %1 {direction = #hlo<comparison_direction GT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    return %3 : tensor<i1>
  }
  hlo.computation private @add(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = add %arg0, %arg1 : (tensor<f32>, tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  hlo.computation private @body(%arg0: tuple<tensor<4xf32>>) -> tuple<tensor<4xf32>> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<4xf32>>) -> tensor<4xf32>
    %1 = negate %0 : (tensor<4xf32>) -> tensor<4xf32>
    %2 = tuple %1 : (tensor<4xf32>) -> tuple<tensor<4xf32>>
    return %2 : tuple<tensor<4xf32>>
  }
  hlo.computation @e(%arg0: tensor<4xf32>) -> tuple<tensor<4xf32>> attributes {entry} {
    %0 = tuple %arg0 : (tensor<4xf32>) -> tuple<tensor<4xf32>>
    %1 = while %0 {backend_config = #hlo.backend_config<{known_trip_count = {n = 1 : i64}}>, body = @body, condition = @cond} : (tuple<tensor<4xf32>>) -> tuple<tensor<4xf32>>
    return %1 : tuple<tensor<4xf32>>
  }
}

// -----

// Rules 3 and 4: element 2 is only used to compute itself, elements 3 and 4
// have the same init and are passed on unchanged: one element remains of
// the three. The induction variable (read by the condition) and element 1
// (read after the loop) stay.
// CHECK-LABEL: module @shrink
// CHECK: hlo.computation private @[[COND:.*]](%arg0: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>)
// CHECK: hlo.computation private @[[BODY:.*]](%arg0: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>>)
// CHECK-NOT: sine
// CHECK-NOT: index = 3
// CHECK-COUNT-2: get_tuple_element %arg0 {index = 2 : i64}
// CHECK-NOT: index = 3
// CHECK: hlo.computation @e
// CHECK: %[[INIT:.*]] = tuple %{{.*}}, %arg0, %{{.*}} : (tensor<i32>, tensor<4xf32>, tensor<4xf32>)
// CHECK: %[[W:.*]] = while %[[INIT]] {body = @[[BODY]], condition = @[[COND]]}
// CHECK: get_tuple_element %[[W]] {index = 1 : i64}
module @shrink {
  hlo.computation private @cond(%arg0: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<i1> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<i32>
    %1 = constant {value = dense<5> : tensor<i32>} : () -> tensor<i32>
    %2 = compare %0, %1 {direction = #hlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %2 : tensor<i1>
  }
  hlo.computation private @body(%arg0: tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<i32>
    %1 = get_tuple_element %arg0 {index = 1 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
    %2 = get_tuple_element %arg0 {index = 2 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
    %3 = get_tuple_element %arg0 {index = 3 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
    %4 = get_tuple_element %arg0 {index = 4 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
    %5 = constant {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %6 = add %0, %5 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %7 = multiply %1, %4 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %8 = add %7, %3 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %9 = sine %2 : (tensor<4xf32>) -> tensor<4xf32>
    %10 = tuple %6, %8, %9, %3, %4 : (tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    return %10 : tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
  }
  hlo.computation @e(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
    %0 = constant {value = dense<[5.000000e-01, 2.500000e-01, 5.000000e-01, 2.500000e-01]> : tensor<4xf32>} : () -> tensor<4xf32>
    %1 = constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %2 = tuple %1, %arg0, %arg1, %0, %0 : (tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    %3 = while %2 {body = @body, condition = @cond} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    %4 = get_tuple_element %3 {index = 1 : i64} : (tuple<tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
    return %4 : tensor<4xf32>
  }
}

// -----

// Rule 4 for induction variables: a JAX fori loop counts twice (element 0
// for the loop, element 1 inside the body's call), both from 0 by 1: one
// counter remains, read by the condition, the body and after the loop
// (XLA merges them). Element 2 counts from 0 by 2 and element 3 from 1 by
// 1: neither is the counter.
// CHECK-LABEL: module @counters
// CHECK: hlo.computation private @[[COND:.*]](%arg0: tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>)
// CHECK: hlo.computation private @[[BODY:.*]](%arg0: tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>)
// CHECK: hlo.computation @e
// CHECK: %[[W:.*]] = while %{{.*}} {body = @[[BODY]], condition = @[[COND]]}
// CHECK-DAG: get_tuple_element %[[W]] {index = 0 : i64}
// CHECK-DAG: get_tuple_element %[[W]] {index = 2 : i64}
// CHECK-DAG: get_tuple_element %[[W]] {index = 3 : i64}
module @counters {
  hlo.computation private @cond(%arg0: tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>) -> tensor<i1> {
    %0 = get_tuple_element %arg0 {index = 1 : i64} : (tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %1 = constant {value = dense<5> : tensor<i32>} : () -> tensor<i32>
    %2 = compare %0, %1 {direction = #hlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %2 : tensor<i1>
  }
  hlo.computation private @body(%arg0: tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %1 = get_tuple_element %arg0 {index = 1 : i64} : (tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %2 = get_tuple_element %arg0 {index = 2 : i64} : (tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %3 = get_tuple_element %arg0 {index = 3 : i64} : (tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %4 = get_tuple_element %arg0 {index = 4 : i64} : (tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>) -> tensor<4xf32>
    %one = constant {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %one2 = constant {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %two = constant {value = dense<2> : tensor<i32>} : () -> tensor<i32>
    %5 = add %0, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %6 = add %one2, %1 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %7 = add %2, %two : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %8 = add %3, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %9 = convert %0 : (tensor<i32>) -> tensor<f32>
    %10 = convert %2 : (tensor<i32>) -> tensor<f32>
    %11 = add %9, %10 : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %12 = broadcast %11 {dimensions = array<i64>} : (tensor<f32>) -> tensor<4xf32>
    %13 = add %4, %12 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %r = tuple %5, %6, %7, %8, %13 : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>
    return %r : tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>
  }
  hlo.computation @e(%arg0: tensor<4xf32>) -> tuple<tensor<i32>, tensor<i32>, tensor<4xf32>> attributes {entry} {
    %0 = constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %z = constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %o = constant {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %1 = tuple %0, %z, %0, %o, %arg0 : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>
    %2 = while %1 {body = @body, condition = @cond} : (tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>
    %3 = get_tuple_element %2 {index = 1 : i64} : (tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %4 = get_tuple_element %2 {index = 4 : i64} : (tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>) -> tensor<4xf32>
    %5 = get_tuple_element %2 {index = 3 : i64} : (tuple<tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %r = tuple %3, %5, %4 : (tensor<i32>, tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<i32>, tensor<4xf32>>
    return %r : tuple<tensor<i32>, tensor<i32>, tensor<4xf32>>
  }
}

// -----

// Rule 5: the nested tuple state is flattened; the old structure is rebuilt
// around the loop and in its computations.
// CHECK-LABEL: module @nested
// CHECK: hlo.computation private @{{.*}}(%arg0: tuple<tensor<i32>, tensor<4xf32>, tensor<i32>>) -> tensor<i1>
// CHECK: hlo.computation private @{{.*}}(%arg0: tuple<tensor<i32>, tensor<4xf32>, tensor<i32>>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<i32>>
// CHECK: %[[W:.*]] = while %{{.*}} : (tuple<tensor<i32>, tensor<4xf32>, tensor<i32>>) -> tuple<tensor<i32>, tensor<4xf32>, tensor<i32>>
// CHECK: tuple %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<i32>) -> tuple<tensor<4xf32>, tensor<i32>>
module @nested {
  hlo.computation private @cond(%arg0: tuple<tensor<i32>, tuple<tensor<4xf32>, tensor<i32>>>) -> tensor<i1> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tuple<tensor<4xf32>, tensor<i32>>>) -> tensor<i32>
    %1 = constant {value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %2 = compare %0, %1 {direction = #hlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %2 : tensor<i1>
  }
  hlo.computation private @body(%arg0: tuple<tensor<i32>, tuple<tensor<4xf32>, tensor<i32>>>) -> tuple<tensor<i32>, tuple<tensor<4xf32>, tensor<i32>>> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tuple<tensor<4xf32>, tensor<i32>>>) -> tensor<i32>
    %1 = get_tuple_element %arg0 {index = 1 : i64} : (tuple<tensor<i32>, tuple<tensor<4xf32>, tensor<i32>>>) -> tuple<tensor<4xf32>, tensor<i32>>
    %2 = get_tuple_element %1 {index = 0 : i64} : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
    %3 = get_tuple_element %1 {index = 1 : i64} : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<i32>
    %4 = constant {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %5 = add %0, %4 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %6 = cosine %2 : (tensor<4xf32>) -> tensor<4xf32>
    %7 = add %3, %5 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %8 = tuple %6, %7 : (tensor<4xf32>, tensor<i32>) -> tuple<tensor<4xf32>, tensor<i32>>
    %9 = tuple %5, %8 : (tensor<i32>, tuple<tensor<4xf32>, tensor<i32>>) -> tuple<tensor<i32>, tuple<tensor<4xf32>, tensor<i32>>>
    return %9 : tuple<tensor<i32>, tuple<tensor<4xf32>, tensor<i32>>>
  }
  hlo.computation @e(%arg0: tensor<4xf32>, %arg1: tensor<i32>) -> tuple<tensor<i32>, tuple<tensor<4xf32>, tensor<i32>>> attributes {entry} {
    %0 = constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %1 = tuple %arg0, %arg1 : (tensor<4xf32>, tensor<i32>) -> tuple<tensor<4xf32>, tensor<i32>>
    %2 = tuple %0, %1 : (tensor<i32>, tuple<tensor<4xf32>, tensor<i32>>) -> tuple<tensor<i32>, tuple<tensor<4xf32>, tensor<i32>>>
    %3 = while %2 {body = @body, condition = @cond} : (tuple<tensor<i32>, tuple<tensor<4xf32>, tensor<i32>>>) -> tuple<tensor<i32>, tuple<tensor<4xf32>, tensor<i32>>>
    return %3 : tuple<tensor<i32>, tuple<tensor<4xf32>, tensor<i32>>>
  }
}

// -----

// Not removed: the condition has a side effect (outfeed), although the
// body never runs.
// CHECK-LABEL: module @kept
// CHECK: outfeed
// CHECK: while %{{.*}} {body = @body, condition = @cond}
module @kept {
  hlo.computation private @cond(%arg0: tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i1> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %1 = constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %2 = after_all : () -> !hlo.token
    %3 = outfeed %0, %2 {outfeed_shape = tensor<i32>} : (tensor<i32>, !hlo.token) -> !hlo.token
    %4 = compare %0, %1 {direction = #hlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %4 : tensor<i1>
  }
  hlo.computation private @body(%arg0: tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %1 = get_tuple_element %arg0 {index = 1 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<4xf32>
    %2 = constant {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %3 = add %0, %2 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %4 = negate %1 : (tensor<4xf32>) -> tensor<4xf32>
    %5 = tuple %3, %4 : (tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>>
    return %5 : tuple<tensor<i32>, tensor<4xf32>>
  }
  hlo.computation @e(%arg0: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>> attributes {entry} {
    %0 = constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %1 = tuple %0, %arg0 : (tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>>
    %2 = while %1 {body = @body, condition = @cond} : (tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>>
    return %2 : tuple<tensor<i32>, tensor<4xf32>>
  }
}

// -----

// Brute-force trip count (XLA's ComputeWhileLoopTripCount): the condition
// and the update are evaluated on the induction variable. i = 3, i != 6,
// i = i * 2 (no add of a constant), read through a copy: one trip, the
// body is inlined.
// CHECK-LABEL: module @brute_once
// CHECK-NOT: while
// CHECK: multiply
// CHECK: negate
module @brute_once {
  hlo.computation private @cond(%arg0: tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i1> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %1 = copy %0 : (tensor<i32>) -> tensor<i32>
    %2 = constant {value = dense<6> : tensor<i32>} : () -> tensor<i32>
    %3 = compare %1, %2 {direction = #hlo<comparison_direction NE>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %3 : tensor<i1>
  }
  hlo.computation private @body(%arg0: tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %1 = get_tuple_element %arg0 {index = 1 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<4xf32>
    %2 = constant {value = dense<2> : tensor<i32>} : () -> tensor<i32>
    %3 = multiply %0, %2 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %4 = negate %1 : (tensor<4xf32>) -> tensor<4xf32>
    %5 = tuple %3, %4 : (tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>>
    return %5 : tuple<tensor<i32>, tensor<4xf32>>
  }
  hlo.computation @e(%arg0: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>> attributes {entry} {
    %0 = constant {value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %1 = tuple %0, %arg0 : (tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>>
    %2 = while %1 {body = @body, condition = @cond} : (tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>>
    return %2 : tuple<tensor<i32>, tensor<4xf32>>
  }
}

// -----

// Brute force, zero trips: the init of the induction variable is an
// instruction of constants (2 + 5 = 7), the condition a compare with the
// constant on the left (10 < i).
// CHECK-LABEL: module @brute_zero
// CHECK-NOT: while
// CHECK: %[[INIT:.*]] = tuple
// CHECK-NEXT: return %[[INIT]]
module @brute_zero {
  hlo.computation private @cond(%arg0: tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i1> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %1 = constant {value = dense<10> : tensor<i32>} : () -> tensor<i32>
    %2 = compare %1, %0 {direction = #hlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %2 : tensor<i1>
  }
  hlo.computation private @body(%arg0: tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %1 = get_tuple_element %arg0 {index = 1 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<4xf32>
    %2 = constant {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %3 = subtract %0, %2 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %4 = negate %1 : (tensor<4xf32>) -> tensor<4xf32>
    %5 = tuple %3, %4 : (tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>>
    return %5 : tuple<tensor<i32>, tensor<4xf32>>
  }
  hlo.computation @e(%arg0: tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>> attributes {entry} {
    %0 = constant {value = dense<2> : tensor<i32>} : () -> tensor<i32>
    %1 = constant {value = dense<5> : tensor<i32>} : () -> tensor<i32>
    %2 = add %0, %1 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = tuple %2, %arg0 : (tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>>
    %4 = while %3 {body = @body, condition = @cond} : (tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>>
    return %4 : tuple<tensor<i32>, tensor<4xf32>>
  }
}

// -----

// Kept, whatever the brute force: two trips (i = 3, 6, 12 against
// i != 12: the pass only removes loops of 0 or 1 trips); an init that is
// a parameter (i < -100 fails on every value the check draws); a condition that reads two elements; one trip but a body
// with a side effect (XLA keeps it); one trip but the frontend attribute
// skip-simplify-while-loops_trip-count-one.
// CHECK-LABEL: module @brute_kept
// CHECK-COUNT-5: = while %
module @brute_kept {
  hlo.computation private @cond(%arg0: tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i1> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %1 = constant {value = dense<12> : tensor<i32>} : () -> tensor<i32>
    %2 = compare %0, %1 {direction = #hlo<comparison_direction NE>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %2 : tensor<i1>
  }
  hlo.computation private @cond1(%arg0: tuple<tensor<i32>, tensor<i32>>) -> tensor<i1> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
    %1 = constant {value = dense<-100> : tensor<i32>} : () -> tensor<i32>
    %2 = compare %0, %1 {direction = #hlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %2 : tensor<i1>
  }
  hlo.computation private @cond2(%arg0: tuple<tensor<i32>, tensor<i32>>) -> tensor<i1> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
    %1 = get_tuple_element %arg0 {index = 1 : i64} : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
    %2 = compare %0, %1 {direction = #hlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %2 : tensor<i1>
  }
  hlo.computation private @body(%arg0: tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %1 = get_tuple_element %arg0 {index = 1 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<4xf32>
    %2 = constant {value = dense<2> : tensor<i32>} : () -> tensor<i32>
    %3 = multiply %0, %2 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %4 = negate %1 : (tensor<4xf32>) -> tensor<4xf32>
    %5 = tuple %3, %4 : (tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>>
    return %5 : tuple<tensor<i32>, tensor<4xf32>>
  }
  hlo.computation private @body2(%arg0: tuple<tensor<i32>, tensor<i32>>) -> tuple<tensor<i32>, tensor<i32>> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
    %1 = get_tuple_element %arg0 {index = 1 : i64} : (tuple<tensor<i32>, tensor<i32>>) -> tensor<i32>
    %2 = constant {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %3 = add %0, %2 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %4 = tuple %3, %1 : (tensor<i32>, tensor<i32>) -> tuple<tensor<i32>, tensor<i32>>
    return %4 : tuple<tensor<i32>, tensor<i32>>
  }
  hlo.computation private @noisy(%arg0: tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>> {
    %0 = get_tuple_element %arg0 {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
    %1 = get_tuple_element %arg0 {index = 1 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<4xf32>
    %2 = constant {value = dense<2> : tensor<i32>} : () -> tensor<i32>
    %3 = multiply %0, %2 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %4 = after_all : () -> !hlo.token
    %5 = outfeed %1, %4 {outfeed_shape = tensor<4xf32>} : (tensor<4xf32>, !hlo.token) -> !hlo.token
    %6 = tuple %3, %1 : (tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>>
    return %6 : tuple<tensor<i32>, tensor<4xf32>>
  }
  hlo.computation @e(%arg0: tensor<4xf32>, %arg1: tensor<i32>) -> tuple<tuple<tensor<i32>, tensor<4xf32>>, tuple<tensor<i32>, tensor<i32>>, tuple<tensor<i32>, tensor<i32>>, tuple<tensor<i32>, tensor<4xf32>>, tuple<tensor<i32>, tensor<4xf32>>> attributes {entry} {
    %three = constant {value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %six = constant {value = dense<6> : tensor<i32>} : () -> tensor<i32>
    %ten = constant {value = dense<10> : tensor<i32>} : () -> tensor<i32>
    %0 = tuple %three, %arg0 : (tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>>
    %w0 = while %0 {body = @body, condition = @cond} : (tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>>
    %1 = tuple %arg1, %ten : (tensor<i32>, tensor<i32>) -> tuple<tensor<i32>, tensor<i32>>
    %w1 = while %1 {body = @body2, condition = @cond1} : (tuple<tensor<i32>, tensor<i32>>) -> tuple<tensor<i32>, tensor<i32>>
    %6 = tuple %ten, %ten : (tensor<i32>, tensor<i32>) -> tuple<tensor<i32>, tensor<i32>>
    %w2 = while %6 {body = @body2, condition = @cond2} : (tuple<tensor<i32>, tensor<i32>>) -> tuple<tensor<i32>, tensor<i32>>
    %7 = tuple %six, %arg0 : (tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>>
    %w3 = while %7 {body = @noisy, condition = @cond} : (tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>>
    %w4 = while %7 {body = @body, condition = @cond, frontend_attributes = {"skip-simplify-while-loops_trip-count-one" = "true"}} : (tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>>
    %t = tuple %w0, %w1, %w2, %w3, %w4 : (tuple<tensor<i32>, tensor<4xf32>>, tuple<tensor<i32>, tensor<i32>>, tuple<tensor<i32>, tensor<i32>>, tuple<tensor<i32>, tensor<4xf32>>, tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tuple<tensor<i32>, tensor<4xf32>>, tuple<tensor<i32>, tensor<i32>>, tuple<tensor<i32>, tensor<i32>>, tuple<tensor<i32>, tensor<4xf32>>, tuple<tensor<i32>, tensor<4xf32>>>
    return %t : tuple<tuple<tensor<i32>, tensor<4xf32>>, tuple<tensor<i32>, tensor<i32>>, tuple<tensor<i32>, tensor<i32>>, tuple<tensor<i32>, tensor<4xf32>>, tuple<tensor<i32>, tensor<4xf32>>>
  }
}
