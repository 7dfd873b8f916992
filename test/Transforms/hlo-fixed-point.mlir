// RUN: hlo-opt %s --pass-pipeline='builtin.module(hlo-fixed-point{pipeline="hlo-tuple-simplifier,hlo-dce"})' 2>&1 | FileCheck %s
// RUN: hlo-opt %s --pass-pipeline='builtin.module(hlo-fixed-point{pipeline="hlo-tuple-simplifier,hlo-dce" max-iterations=1})' 2>&1 | FileCheck %s --check-prefix=CAP
// RUN: not hlo-opt %s --pass-pipeline='builtin.module(hlo-fixed-point{pipeline="no-such-pass"})' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: hlo-opt %s --pass-pipeline='builtin.module(hlo-fixed-point{pipeline="hlo-tuple-simplifier,hlo-dce"})' --hlo-check-semantics -o /dev/null

// The pipeline runs until a run changes nothing: the tuples and the
// get-tuple-elements all go. With max-iterations=1 the one run changed the
// module, and a warning says so.
// CHECK-NOT: warning
// CHECK-LABEL: hlo.computation @main
// CHECK-NEXT: %[[N:.*]] = negate %arg0
// CHECK-NEXT: return %[[N]]
// CAP: warning: hlo-fixed-point: the pipeline still changed the module after 1 runs (max-iterations); stopping there
// BAD: hlo-fixed-point: invalid pipeline 'no-such-pass'
hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  %t = hlo.tuple %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %x = hlo.get_tuple_element %t {index = 1 : i64} : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %n = hlo.negate %x : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %n : tensor<4xf32>
}
