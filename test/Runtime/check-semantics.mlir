// hlo-opt --hlo-check-semantics runs the interpreter on random inputs before
// the pipeline and after every pass that changes the module, and fails
// naming the first pass that changes the results.

// Semantics-preserving passes (cse merges the two multiplies) pass.
// RUN: hlo-opt %s --hlo-check-semantics --canonicalize --cse | FileCheck %s --check-prefix=OK
// RUN: hlo-opt %s --hlo-check-semantics --pass-pipeline='builtin.module(hlo.computation(cse), canonicalize)' | FileCheck %s --check-prefix=OK
// OK: hlo.computation @main
// OK-COUNT-1: multiply
// OK-NOT: multiply

// The test pass turns add into subtract: the check names it, hlo-opt fails.
// RUN: not hlo-opt %s --hlo-check-semantics --cse --hlo-test-break-semantics --canonicalize 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: not hlo-opt %s --hlo-check-semantics --cse --hlo-test-break-semantics --output-format=hlo 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: error: semantics changed by pass 'hlo-test-break-semantics': {{[0-9]+}} elements beyond tolerance, first result 0 element [0,0]: {{.*}} vs {{.*}} (abs diff {{.*}}, rel diff {{.*}}); max abs diff {{.*}}, max rel diff {{.*}}

// Nested on one computation at a time: the reducer @add_f32 comes first.
// RUN: not hlo-opt %s --hlo-check-semantics --pass-pipeline='builtin.module(hlo.computation(hlo-test-break-semantics))' 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: error: semantics changed by pass 'hlo-test-break-semantics': {{[0-9]+}} elements beyond tolerance, first result 1 element [0]

// A real module as HLO input: XLA's CPU-optimized mlp (fusions, layouts).
// RUN: hlo-opt %srcroot/examples/mlp_optimized_cpu.hlo --hlo-check-semantics --canonicalize --cse -o /dev/null
// RUN: not hlo-opt %srcroot/examples/mlp_optimized_cpu.hlo --hlo-check-semantics --canonicalize --hlo-test-break-semantics --cse -o /dev/null 2>&1 | FileCheck %s --check-prefix=MLP
// MLP: error: semantics changed by pass 'hlo-test-break-semantics': {{[0-9]+}} elements beyond tolerance
// MLP-NOT: semantics changed

// A module whose run would take the interpreter too long is not checked
// (check-semantics-work.hlo: the estimate).
// RUN: hlo-opt %s --hlo-check-semantics --hlo-check-semantics-max-work=100 --hlo-test-break-semantics -o /dev/null 2>&1 | FileCheck %s --check-prefix=WORK
// WORK: warning: semantics check disabled: the module needs about {{.*}} multiply-adds a run, over the limit of 1.00e+02

// Without the check the test pass just rewrites.
// RUN: hlo-opt %s --hlo-test-break-semantics | FileCheck %s --check-prefix=REWRITE
// REWRITE-NOT: = add
// REWRITE: = subtract %arg0, %arg1
// REWRITE: = subtract %0, %1
// REWRITE-NOT: = add

module @check {
  hlo.computation @add_f32(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = add %arg0, %arg1 : (tensor<f32>, tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  hlo.computation @main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> tuple<tensor<4x8xf32>, tensor<4xf32>> attributes {entry} {
    %0 = multiply %arg0, %arg1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %1 = multiply %arg0, %arg1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = add %0, %1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %3 = constant  {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
    %4 = reduce %2, %3 {dimensions = array<i64: 1>, to_apply = @add_f32} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    %5 = tuple %2, %4 : (tensor<4x8xf32>, tensor<4xf32>) -> tuple<tensor<4x8xf32>, tensor<4xf32>>
    return %5 : tuple<tensor<4x8xf32>, tensor<4xf32>>
  }
}
