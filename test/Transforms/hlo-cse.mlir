// RUN: hlo-opt %s -split-input-file --hlo-cse | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-cse="merge-computations=false" | FileCheck %s --check-prefix=NAMES
// RUN: hlo-opt %s -split-input-file --hlo-cse --hlo-check-semantics -o /dev/null

// Identical computations become one (callees first: @sum_a and @sum_b call
// identical adders), so the reduces and calls using them merge. Side
// effects and elided constants stay apart; fused computations stay apart.
// CHECK-LABEL: module
// CHECK: hlo.computation private @add_a
// CHECK-NOT: @add_b
// CHECK: hlo.computation private @sum_a
// CHECK-NOT: @sum_b
// CHECK: hlo.computation private @fused_a
// CHECK: hlo.computation private @fused_b
// CHECK: hlo.computation @main
// CHECK-COUNT-1: reduce
// CHECK-NOT: reduce
// CHECK-COUNT-1: call %arg0 {to_apply = @sum_a}
// CHECK-COUNT-2: fusion
// CHECK-COUNT-2: custom_call
// CHECK-COUNT-2: constant
// NAMES-LABEL: module
// NAMES: hlo.computation private @add_b
// NAMES: hlo.computation @main
// NAMES-COUNT-2: reduce
module {
  hlo.computation private @add_a(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  hlo.computation private @add_b(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
    %0 = hlo.add %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  hlo.computation private @sum_a(%v: tensor<4xf32>) -> tensor<f32> {
    %z = hlo.constant {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    %0 = hlo.reduce %v, %z {dimensions = array<i64: 0>, to_apply = @add_a} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  hlo.computation private @sum_b(%v: tensor<4xf32>) -> tensor<f32> {
    %z = hlo.constant {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    %0 = hlo.reduce %v, %z {dimensions = array<i64: 0>, to_apply = @add_b} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  hlo.computation private @fused_a(%v: tensor<4xf32>) -> tensor<4xf32> {
    %0 = hlo.negate %v : (tensor<4xf32>) -> tensor<4xf32>
    hlo.return %0 : tensor<4xf32>
  }
  hlo.computation private @fused_b(%v: tensor<4xf32>) -> tensor<4xf32> {
    %0 = hlo.negate %v : (tensor<4xf32>) -> tensor<4xf32>
    hlo.return %0 : tensor<4xf32>
  }
  hlo.computation @main(%v: tensor<4xf32>, %z: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {entry} {
    %r1 = hlo.reduce %v, %z {dimensions = array<i64: 0>, to_apply = @add_a} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %r2 = hlo.reduce %v, %z {dimensions = array<i64: 0>, to_apply = @add_b} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %c1 = hlo.call %v {to_apply = @sum_a} : (tensor<4xf32>) -> tensor<f32>
    %c2 = hlo.call %v {to_apply = @sum_b} : (tensor<4xf32>) -> tensor<f32>
    %f1 = hlo.fusion %v {calls = @fused_a, kind = #hlo<fusion_kind kLoop>} : (tensor<4xf32>) -> tensor<4xf32>
    %f2 = hlo.fusion %v {calls = @fused_b, kind = #hlo<fusion_kind kLoop>} : (tensor<4xf32>) -> tensor<4xf32>
    %s1 = hlo.custom_call %v {custom_call_target = "log", custom_call_has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
    %s2 = hlo.custom_call %v {custom_call_target = "log", custom_call_has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
    %e1 = hlo.constant {value = distinct[0]<unit>} : () -> tensor<4xf32>
    %e2 = hlo.constant {value = distinct[1]<unit>} : () -> tensor<4xf32>
    %t = hlo.tuple %r1, %r2, %c1, %c2, %f1, %f2, %s1, %s2, %e1, %e2 : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
    hlo.return %t : tuple<tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
  }
}

// -----

// Computations that differ in one attribute stay apart.
// CHECK-LABEL: module
// CHECK: @max_or_min
// CHECK: @min_or_max
// CHECK: hlo.computation @main
// CHECK-COUNT-2: reduce
module {
  hlo.computation private @max_or_min(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %0 = hlo.maximum %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  hlo.computation private @min_or_max(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %0 = hlo.minimum %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  hlo.computation @main(%v: tensor<4xf32>, %z: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>> attributes {entry} {
    %r1 = hlo.reduce %v, %z {dimensions = array<i64: 0>, to_apply = @max_or_min} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %r2 = hlo.reduce %v, %z {dimensions = array<i64: 0>, to_apply = @min_or_max} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %t = hlo.tuple %r1, %r2 : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
    hlo.return %t : tuple<tensor<f32>, tensor<f32>>
  }
}
