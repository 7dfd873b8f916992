// RUN: hlo-opt %s | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --cse | FileCheck %s --check-prefix=CSE
// RUN: hlo-opt %s --canonicalize | FileCheck %s --check-prefix=DCE

// Control predecessors are the last operands of an instruction, written
// `after(...)`: SSA uses, so they survive CSE and keep their predecessor
// alive.

// CHECK-LABEL: hlo.computation @edges
// CSE-LABEL: hlo.computation @edges
// DCE-LABEL: hlo.computation @edges
hlo.computation @edges(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // CHECK: %[[B:.*]] = negate %arg0 : (tensor<4xf32>) -> tensor<4xf32>
  %b = hlo.negate %a : (tensor<4xf32>) -> tensor<4xf32>
  // CSE merges %c into %b; the control edge then names %b.
  // CSE: %[[B:.*]] = negate %arg0
  // CSE-NOT: negate
  %c = hlo.negate %a : (tensor<4xf32>) -> tensor<4xf32>
  // An unused pure instruction that is only a control predecessor stays.
  // CHECK: %[[S:.*]] = sqrt %arg0
  // DCE: %[[S:.*]] = sqrt %arg0
  %s = hlo.sqrt %a : (tensor<4xf32>) -> tensor<4xf32>
  // A dead pure instruction goes.
  // DCE-NOT: cosine
  %dead = hlo.cosine %a : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: exponential %{{.*}} after(%[[B]], %[[S]] : tensor<4xf32>, tensor<4xf32>) {sharding = #hlo.sharding<"{replicated}">} : (tensor<4xf32>) -> tensor<4xf32>
  // CSE: exponential %[[B]] after(%[[B]], %{{.*}} : tensor<4xf32>, tensor<4xf32>)
  // DCE: exponential %{{.*}} after(%{{.*}}, %[[S]] : tensor<4xf32>, tensor<4xf32>)
  %d = hlo.exponential %c after(%b, %s : tensor<4xf32>, tensor<4xf32>) {sharding = #hlo.sharding<"{replicated}">} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %d : tensor<4xf32>
}

// Two identical instructions with different control predecessors differ.
// CSE-LABEL: hlo.computation @distinct
hlo.computation @distinct(%a: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
  %p = hlo.sqrt %a : (tensor<4xf32>) -> tensor<4xf32>
  // CSE: negate %arg0 :
  // CSE: negate %arg0 after
  %x = hlo.negate %a : (tensor<4xf32>) -> tensor<4xf32>
  %y = hlo.negate %a after(%p : tensor<4xf32>) : (tensor<4xf32>) -> tensor<4xf32>
  %t = hlo.tuple %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  hlo.return %t : tuple<tensor<4xf32>, tensor<4xf32>>
}

// Ops with a variadic operand list take control predecessors too.
// CHECK-LABEL: hlo.computation @variadic
hlo.computation @variadic(%a: tensor<4xf32>, %i: tensor<i32>) -> tuple<tensor<2xf32>, tensor<4xf32>> {
  %p = hlo.sqrt %a : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: dynamic_slice %arg0, %arg1 after(%{{.*}} : tensor<4xf32>) {dynamic_slice_sizes = array<i64: 2>} : (tensor<4xf32>, tensor<i32>) -> tensor<2xf32>
  %s = hlo.dynamic_slice %a, %i after(%p : tensor<4xf32>) {dynamic_slice_sizes = array<i64: 2>} : (tensor<4xf32>, tensor<i32>) -> tensor<2xf32>
  // CHECK: tuple %{{.*}}, %arg0 after(%{{.*}} : tensor<4xf32>) : (tensor<2xf32>, tensor<4xf32>) -> tuple<tensor<2xf32>, tensor<4xf32>>
  %t = hlo.tuple %s, %a after(%p : tensor<4xf32>) : (tensor<2xf32>, tensor<4xf32>) -> tuple<tensor<2xf32>, tensor<4xf32>>
  hlo.return %t : tuple<tensor<2xf32>, tensor<4xf32>>
}
