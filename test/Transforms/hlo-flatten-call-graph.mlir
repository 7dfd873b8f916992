// RUN: hlo-opt %s -split-input-file --hlo-flatten-call-graph | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-flatten-call-graph --hlo-check-semantics -o /dev/null

// A computation called twice gets a clone for the second call; its own
// callee, now called from both, is cloned too. The reduce's to_apply stays
// shared (a parallel context).
// CHECK-LABEL: module
// CHECK-DAG: hlo.computation private @add(
// CHECK-DAG: hlo.computation private @neg(
// CHECK-DAG: hlo.computation private @[[NEG2:neg_[0-9]+]](
// CHECK-DAG: hlo.computation private @twice(
// CHECK-DAG: hlo.computation private @[[TWICE2:twice_[0-9]+]](
// CHECK: hlo.computation @main
// CHECK: call %arg0 {to_apply = @twice}
// CHECK: call %{{.*}} {to_apply = @[[TWICE2]]}
// CHECK: reduce %{{.*}}, %{{.*}} {dimensions = array<i64: 0>, to_apply = @add}
// CHECK: reduce %{{.*}}, %{{.*}} {dimensions = array<i64: 0>, to_apply = @add}
module {
  hlo.computation private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  hlo.computation private @neg(%a: tensor<4xf32>) -> tensor<4xf32> {
    %0 = hlo.negate %a : (tensor<4xf32>) -> tensor<4xf32>
    hlo.return %0 : tensor<4xf32>
  }
  hlo.computation private @twice(%a: tensor<4xf32>) -> tensor<4xf32> {
    %0 = hlo.call %a {to_apply = @neg} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = hlo.add %0, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    hlo.return %1 : tensor<4xf32>
  }
  hlo.computation @main(%a: tensor<4xf32>, %z: tensor<f32>) -> tuple<tensor<4xf32>, tensor<f32>, tensor<f32>> attributes {entry} {
    %0 = hlo.call %a {to_apply = @twice} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = hlo.call %0 {to_apply = @twice} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = hlo.reduce %0, %z {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %3 = hlo.reduce %1, %z {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %r = hlo.tuple %1, %2, %3 : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tuple<tensor<4xf32>, tensor<f32>, tensor<f32>>
    hlo.return %r : tuple<tensor<4xf32>, tensor<f32>, tensor<f32>>
  }
}

// -----

// A while whose condition and body are one computation, and a conditional
// whose branches are one: each reference gets its own.
// CHECK-LABEL: module
// CHECK-COUNT-4: hlo.computation private @pass
// CHECK-COUNT-2: hlo.computation private @never
// CHECK: hlo.computation @main
module {
  hlo.computation private @pass(%a: tensor<i32>) -> tensor<i32> {
    hlo.return %a : tensor<i32>
  }
  hlo.computation private @never(%a: tensor<i32>) -> tensor<i1> {
    %c = hlo.constant {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    hlo.return %c : tensor<i1>
  }
  hlo.computation @main(%a: tensor<i32>) -> tuple<tensor<i32>, tensor<i32>, tensor<i32>> attributes {entry} {
    %w = hlo.while %a {condition = @never, body = @pass} : (tensor<i32>) -> tensor<i32>
    %w2 = hlo.while %a {condition = @never, body = @pass} : (tensor<i32>) -> tensor<i32>
    %c = hlo.conditional %a, %a, %a {branch_computations = [@pass, @pass]} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %r = hlo.tuple %w, %w2, %c : (tensor<i32>, tensor<i32>, tensor<i32>) -> tuple<tensor<i32>, tensor<i32>, tensor<i32>>
    hlo.return %r : tuple<tensor<i32>, tensor<i32>, tensor<i32>>
  }
}
