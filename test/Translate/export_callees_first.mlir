// RUN: hlo-translate --mlir-to-hlo %s | FileCheck %s
// RUN: hlo-translate --mlir-to-hlo %s | hlo-translate --hlo-to-hlo | FileCheck %s
// RUN: %if jaxlib %{ hlo-translate --mlir-to-hlo %s -o %t.hlo && %python %S/../xla/xla_parse.py %t.hlo | FileCheck %s %}

// XLA's parser wants a computation defined before its callers. A module
// that holds them in another order (a pass appended a computation, as
// hlo-rng-expander does) is exported callees first; computations already
// in that order keep it.

// CHECK:      {{^}}%add (
// CHECK:      {{^}}%inner (
// CHECK:      {{^}}%outer (
// CHECK:      {{^}}ENTRY %main (
// CHECK:      {{^}}%unused (
module @callees_first {
  hlo.computation @main(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
    %0 = call %arg0 {to_apply = @outer} : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  hlo.computation private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %0 = add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  hlo.computation private @outer(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call %x {to_apply = @inner} : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  hlo.computation private @inner(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = map %x, %x {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  hlo.computation private @unused(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
