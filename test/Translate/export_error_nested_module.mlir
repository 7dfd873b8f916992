// Only hlo.computation may appear at the module level.
// RUN: not hlo-translate --mlir-to-hlo %s 2>&1 | FileCheck %s

module {
// CHECK: {{.*}}export_error_nested_module.mlir:[[# @LINE + 1]]:3: error: HLO export supports only hlo.computation at the module level, found builtin.module
  module @inner {
  }
  hlo.computation @main(%arg0: tensor<f32>) -> tensor<f32> attributes {entry} {
    return %arg0 : tensor<f32>
  }
}
