// RUN: hlo-opt %s -split-input-file --hlo-algebraic-simplifier | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-algebraic-simplifier="enable-power-rewrites=false" | FileCheck %s --check-prefix=NOPOW
// RUN: hlo-opt %s -split-input-file --hlo-algebraic-simplifier --hlo-check-semantics -o /dev/null

// Integer identities: A-A = 0, A*0 = 0 (zeros as a broadcast scalar),
// compare(A, A); the folders' A+0 and A*1.
// CHECK-LABEL: hlo.computation @integers
hlo.computation @integers(%a: tensor<2x3xi32>) -> tuple<tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi32>> attributes {entry} {
  // CHECK-DAG: %[[Z:.*]] = constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  // CHECK-DAG: %[[ZB:.*]] = broadcast %[[Z]] {dimensions = array<i64>} : (tensor<i32>) -> tensor<2x3xi32>
  // CHECK-DAG: %[[T:.*]] = constant {value = dense<true> : tensor<i1>}
  // CHECK-DAG: %[[TB:.*]] = broadcast %[[T]]
  // CHECK-DAG: %[[F:.*]] = constant {value = dense<false> : tensor<i1>}
  // CHECK-DAG: %[[FB:.*]] = broadcast %[[F]]
  // CHECK-NOT: subtract
  // CHECK-NOT: multiply
  // CHECK-NOT: compare
  // CHECK-NOT: add
  // CHECK: tuple %[[ZB]], %{{.*}}, %[[TB]], %[[FB]], %arg0
  %0 = hlo.subtract %a, %a : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %zero = hlo.constant {value = dense<0> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
  %one = hlo.constant {value = dense<1> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
  %1 = hlo.multiply %zero, %a : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %2 = hlo.compare %a, %a {direction = #hlo<comparison_direction GE>} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  %3 = hlo.compare %a, %a {direction = #hlo<comparison_direction NE>} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  %4 = hlo.multiply %a, %one : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %5 = hlo.add %4, %zero : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %r = hlo.tuple %0, %1, %2, %3, %5 : (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi32>) -> tuple<tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi32>>
  hlo.return %r : tuple<tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi32>>
}

// -----

// The same identities on floats are wrong for NaN and infinities: kept.
// CHECK-LABEL: hlo.computation @floats
hlo.computation @floats(%a: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xi1>> attributes {entry} {
  // CHECK: subtract %arg0, %arg0
  // CHECK: multiply %arg0, %{{.*}}
  // CHECK: compare %arg0, %arg0
  %0 = hlo.subtract %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %zero = hlo.constant {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %1 = hlo.multiply %a, %zero : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = hlo.compare %a, %a {direction = #hlo<comparison_direction EQ>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %r = hlo.tuple %0, %1, %2 : (tensor<4xf32>, tensor<4xf32>, tensor<4xi1>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xi1>>
  hlo.return %r : tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xi1>>
}

// -----

// power by 0, 1, 2 and -1; another exponent stays.
// CHECK-LABEL: hlo.computation @power
// NOPOW-LABEL: hlo.computation @power
// NOPOW-COUNT-5: power
hlo.computation @power(%a: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {entry} {
  %c0 = hlo.constant {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %c1 = hlo.constant {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %c2 = hlo.constant {value = dense<2.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %cm1 = hlo.constant {value = dense<-1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %c3 = hlo.constant {value = dense<3.0> : tensor<4xf32>} : () -> tensor<4xf32>
  // CHECK-DAG: %[[ONE:.*]] = constant {value = dense<1.000000e+00> : tensor<f32>}
  // CHECK-DAG: %[[ONES:.*]] = broadcast %[[ONE]]
  // CHECK-DAG: %[[SQ:.*]] = multiply %arg0, %arg0
  // CHECK-DAG: %[[INV:.*]] = divide %{{.*}}, %arg0
  // CHECK-DAG: %[[CUBE:.*]] = power %arg0, %{{.*}}
  // CHECK: tuple %[[ONES]], %arg0, %[[SQ]], %[[INV]], %[[CUBE]]
  %0 = hlo.power %a, %c0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = hlo.power %a, %c1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = hlo.power %a, %c2 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = hlo.power %a, %cm1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = hlo.power %a, %c3 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = hlo.tuple %0, %1, %2, %3, %4 : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
  hlo.return %r : tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
}

// -----

// select of equal branches; abs of an abs; negate twice (a folder).
// CHECK-LABEL: hlo.computation @misc
hlo.computation @misc(%p: tensor<4xi1>, %a: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {entry} {
  // CHECK: %[[ABS:.*]] = abs %arg1
  // CHECK-NOT: abs
  // CHECK-NOT: select
  // CHECK-NOT: negate
  // CHECK: tuple %arg1, %[[ABS]], %arg1
  %0 = hlo.select %p, %a, %a : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = hlo.abs %a : (tensor<4xf32>) -> tensor<4xf32>
  %2 = hlo.abs %1 : (tensor<4xf32>) -> tensor<4xf32>
  %4 = hlo.negate %a : (tensor<4xf32>) -> tensor<4xf32>
  %5 = hlo.negate %4 : (tensor<4xf32>) -> tensor<4xf32>
  %r = hlo.tuple %0, %2, %5 : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
  hlo.return %r : tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
}

// -----

// An instruction with control predecessors is not rewritten.
// CHECK-LABEL: hlo.computation @ordered
hlo.computation @ordered(%a: tensor<4xi32>) -> tensor<4xi32> attributes {entry} {
  %p = hlo.negate %a : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: subtract %arg0, %arg0 after
  %0 = hlo.subtract %a, %a after(%p : tensor<4xi32>) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  hlo.return %0 : tensor<4xi32>
}
