// Symbols may hold any string; HLO text needs identifiers. The exporter
// replaces what an HLO name cannot hold with `_` in module and computation
// names, keeps computation names unique, and every reference follows.
// RUN: hlo-translate --mlir-to-hlo %s | FileCheck %s
// RUN: hlo-translate --mlir-to-hlo %s | hlo-translate --hlo-to-hlo | FileCheck %s

// CHECK: HloModule my_module_1,
// CHECK-LABEL: {{^}}%add_f32 (
// CHECK-LABEL: {{^}}%add_f32.1 (
// CHECK-LABEL: {{^}}ENTRY %main_ (
// CHECK: %call = f32[] call(%a), to_apply=%add_f32
// CHECK: %call.1 = f32[] call(%call), to_apply=%add_f32.1

module @"my module#1" {
  hlo.computation private @"add f32"(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = negate %arg0 : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  hlo.computation private @"add/f32"(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = abs %arg0 : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  hlo.computation @"main!"(%arg0: tensor<f32> loc("a")) -> tensor<f32> attributes {entry} {
    %0 = call %arg0 {to_apply = @"add f32"} : (tensor<f32>) -> tensor<f32> loc("call")
    %1 = call %0 {to_apply = @"add/f32"} : (tensor<f32>) -> tensor<f32> loc("call")
    return %1 : tensor<f32>
  }
}
