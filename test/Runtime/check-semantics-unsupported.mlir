// A module the interpreter cannot run is not checked: a warning says why and
// the pipeline goes on.
// RUN: hlo-opt %s --hlo-check-semantics --hlo-test-break-semantics 2>&1 | FileCheck %s
// CHECK: warning: semantics check disabled: the interpreter cannot run the module before the pipeline: {{.*}}custom-call
// CHECK: subtract

module @unsupported {
  hlo.computation @main(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
    %0 = custom_call %arg0 {custom_call_target = "no_such_target"} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = add %0, %arg0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
