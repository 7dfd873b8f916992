// RUN: hlo-opt %s -split-input-file --hlo-call-inliner | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-call-inliner="single-call-site=true" | FileCheck %s --check-prefix=SINGLE
// RUN: hlo-opt %s -split-input-file --hlo-call-inliner --hlo-check-semantics -o /dev/null

// Calls are replaced by the callee's instructions, nested calls first; the
// callees, no longer called, go. single-call-site inlines only computations
// called from one place.
// CHECK-LABEL: module
// CHECK-NOT: hlo.computation private
// CHECK: hlo.computation @main
// CHECK-NEXT: %[[S:.*]] = sine %arg0
// CHECK-NEXT: %[[M:.*]] = multiply %[[S]], %[[S]]
// CHECK-NEXT: %[[S2:.*]] = sine %arg0
// CHECK-NEXT: %[[M2:.*]] = multiply %[[S2]], %[[S2]]
// CHECK-NEXT: %[[A:.*]] = add %[[M]], %[[M2]]
// CHECK-NEXT: return %[[A]]
// SINGLE-LABEL: module
// SINGLE-NOT: @sin_of
// SINGLE: hlo.computation private @square_of_sin
// SINGLE-NEXT: sine
// SINGLE: hlo.computation @main
// SINGLE: call %arg0 {to_apply = @square_of_sin}
// SINGLE: call %arg0 {to_apply = @square_of_sin}
module {
  hlo.computation private @sin_of(%a: tensor<4xf32>) -> tensor<4xf32> {
    %0 = hlo.sine %a : (tensor<4xf32>) -> tensor<4xf32> loc("s")
    hlo.return %0 : tensor<4xf32>
  }
  hlo.computation private @square_of_sin(%a: tensor<4xf32>) -> tensor<4xf32> {
    %0 = hlo.call %a {to_apply = @sin_of} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = hlo.multiply %0, %0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    hlo.return %1 : tensor<4xf32>
  }
  hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
    %0 = hlo.call %a {to_apply = @square_of_sin} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = hlo.call %a {to_apply = @square_of_sin} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = hlo.add %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    hlo.return %2 : tensor<4xf32>
  }
}

// -----

// A call with control edges stays, and so does its callee. A callee that
// returns its parameter is inlined to that operand.
// CHECK-LABEL: module
// CHECK: hlo.computation private @id
// CHECK: hlo.computation @main
// CHECK-NEXT: %[[P:.*]] = negate %arg0
// CHECK-NEXT: %[[C:.*]] = call %arg0 after(%[[P]] : tensor<4xf32>) {to_apply = @id}
// CHECK-NEXT: %[[A:.*]] = add %[[C]], %arg0
module {
  hlo.computation private @id(%a: tensor<4xf32>) -> tensor<4xf32> {
    hlo.return %a : tensor<4xf32>
  }
  hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
    %p = hlo.negate %a : (tensor<4xf32>) -> tensor<4xf32>
    %0 = hlo.call %a after(%p : tensor<4xf32>) {to_apply = @id} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = hlo.call %a {to_apply = @id} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = hlo.add %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    hlo.return %2 : tensor<4xf32>
  }
}
