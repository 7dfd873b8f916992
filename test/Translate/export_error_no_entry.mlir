// A module without an entry computation cannot be printed as HLO.
// RUN: not hlo-translate --mlir-to-hlo %s 2>&1 | FileCheck %s

// CHECK: {{.*}}export_error_no_entry.mlir:[[# @LINE + 1]]:1: error: HLO export needs an ENTRY computation (hlo.computation with the 'entry' attribute)
module {
  hlo.computation @main(%arg0: tensor<f32>) -> tensor<f32> {
    return %arg0 : tensor<f32>
  }
}
