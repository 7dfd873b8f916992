// RUN: hlo-opt %s -split-input-file --hlo-dce | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-dce="remove-dead-computations=false" | FileCheck %s --check-prefix=KEEP
// RUN: hlo-opt %s -split-input-file --hlo-dce --hlo-check-semantics -o /dev/null

// A chain of dead instructions goes in one run; what the root uses stays.
// CHECK-LABEL: hlo.computation @chain
hlo.computation @chain(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // CHECK-NOT: cosine
  // CHECK-NOT: sine
  // CHECK: %[[N:.*]] = negate %arg0
  // CHECK-NEXT: return %[[N]]
  %c = hlo.cosine %a : (tensor<4xf32>) -> tensor<4xf32>
  %s = hlo.sine %c : (tensor<4xf32>) -> tensor<4xf32>
  %n = hlo.negate %a : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %n : tensor<4xf32>
}

// -----

// A side effect stays though its result is unused; so does an unused
// instruction that is a control predecessor.
// CHECK-LABEL: hlo.computation @effects
hlo.computation @effects(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // CHECK: custom_call %arg0 {custom_call_has_side_effect = true, custom_call_target = "log"}
  %l = hlo.custom_call %a {custom_call_target = "log", custom_call_has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: %[[S:.*]] = sqrt %arg0
  %s = hlo.sqrt %a : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: exponential %arg0 after(%[[S]] : tensor<4xf32>)
  %e = hlo.exponential %a after(%s : tensor<4xf32>) : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %e : tensor<4xf32>
}

// -----

// Computations nothing live calls go (with their own callees); with
// remove-dead-computations=false they stay.
// CHECK-LABEL: module
// CHECK-NOT: @unused
// CHECK-NOT: @only_from_unused
// CHECK: hlo.computation private @add
// CHECK-NOT: @unused
// KEEP-LABEL: module
// KEEP: @only_from_unused
// KEEP: @unused
module {
  hlo.computation private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  hlo.computation private @only_from_unused(%a: tensor<f32>) -> tensor<f32> {
    hlo.return %a : tensor<f32>
  }
  hlo.computation private @unused(%a: tensor<f32>) -> tensor<f32> {
    %0 = hlo.call %a {to_apply = @only_from_unused} : (tensor<f32>) -> tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  hlo.computation @main(%v: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> attributes {entry} {
    // The reduce is dead: once it is gone, @add is dead too.
    %dead = hlo.reduce %v, %z {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %r = hlo.reduce %v, %z {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    hlo.return %r : tensor<f32>
  }
}

// -----

// Without an entry computation every computation may be called from
// outside: none is removed.
// CHECK-LABEL: module
// CHECK: hlo.computation private @lonely
module {
  hlo.computation private @lonely(%a: tensor<f32>) -> tensor<f32> {
    hlo.return %a : tensor<f32>
  }
}
