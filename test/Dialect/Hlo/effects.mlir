// RUN: hlo-opt %s --cse | FileCheck %s --check-prefix=CSE
// RUN: hlo-opt %s --canonicalize | FileCheck %s --check-prefix=DCE

// Effects as XLA defines them: instructions that call pure computations are
// pure (CSE merges them, DCE removes them), side effects are kept, and two
// elided literals are never one constant.

hlo.computation private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation private @fused(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.negate %a : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation private @fused2(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.negate %a : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation private @noisy(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.custom_call %a {custom_call_target = "log", custom_call_has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// CSE-LABEL: hlo.computation @pure
// DCE-LABEL: hlo.computation @pure
hlo.computation @pure(%v: tensor<4xf32>, %z: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {entry} {
  // CSE-COUNT-1: reduce
  // CSE-NOT: reduce
  %r1 = hlo.reduce %v, %z {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %r2 = hlo.reduce %v, %z {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  // A dead reduce, map, sort and fusion go.
  // DCE-NOT: map
  // DCE-NOT: fusion
  %m = hlo.map %v, %v {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r3 = hlo.reduce %v, %z {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %f = hlo.fusion %v {calls = @fused2, kind = #hlo<fusion_kind kLoop>} : (tensor<4xf32>) -> tensor<4xf32>
  // Calls of pure computations merge; calls of side-effecting ones do not.
  // CSE-COUNT-1: call %arg0 {to_apply = @fused}
  // CSE-NOT: call %arg0 {to_apply = @fused}
  %c1 = hlo.call %v {to_apply = @fused} : (tensor<4xf32>) -> tensor<4xf32>
  %c2 = hlo.call %v {to_apply = @fused} : (tensor<4xf32>) -> tensor<4xf32>
  // CSE-COUNT-2: call %arg0 {to_apply = @noisy}
  // DCE-COUNT-2: call %arg0 {to_apply = @noisy}
  %n1 = hlo.call %v {to_apply = @noisy} : (tensor<4xf32>) -> tensor<4xf32>
  %n2 = hlo.call %v {to_apply = @noisy} : (tensor<4xf32>) -> tensor<4xf32>
  %t = hlo.tuple %r1, %r2, %c1, %c2, %n1 : (tensor<f32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<f32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
  hlo.return %t : tuple<tensor<f32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
}

// CSE-LABEL: hlo.computation private @custom_calls
// DCE-LABEL: hlo.computation private @custom_calls
hlo.computation private @custom_calls(%v: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>> {
  // Without custom_call_has_side_effect a custom call is pure.
  // CSE-COUNT-1: custom_call %arg0 {custom_call_target = "f"}
  // DCE-NOT: custom_call_target = "unused"
  %a = hlo.custom_call %v {custom_call_target = "f"} : (tensor<4xf32>) -> tensor<4xf32>
  %b = hlo.custom_call %v {custom_call_target = "f"} : (tensor<4xf32>) -> tensor<4xf32>
  %u = hlo.custom_call %v {custom_call_target = "unused"} : (tensor<4xf32>) -> tensor<4xf32>
  // With it, it is kept and never merged.
  // CSE-COUNT-2: custom_call_has_side_effect = true
  // DCE-COUNT-2: custom_call_has_side_effect = true
  %s1 = hlo.custom_call %v {custom_call_target = "g", custom_call_has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  %s2 = hlo.custom_call %v {custom_call_target = "g", custom_call_has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  %t = hlo.tuple %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  hlo.return %t : tuple<tensor<4xf32>, tensor<4xf32>>
}

// CSE-LABEL: hlo.computation private @constants
hlo.computation private @constants() -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> {
  // Two elided literals ({...}) are distinct; equal literals merge.
  // CSE: constant {value = distinct[0]<>}
  // CSE: constant {value = distinct[1]<>}
  // CSE-COUNT-1: constant {value = dense<1.000000e+00>
  // CSE-NOT: constant
  %e1 = hlo.constant {value = distinct[0]<unit>} : () -> tensor<4xf32>
  %e2 = hlo.constant {value = distinct[1]<unit>} : () -> tensor<4xf32>
  %k1 = hlo.constant {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %k2 = hlo.constant {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %t = hlo.tuple %e1, %e2, %k1, %k2 : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
  hlo.return %t : tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
}

// Side-effecting instructions stay even when unused.
// DCE-LABEL: hlo.computation private @io
hlo.computation private @io(%tok: !hlo.token) -> !hlo.token {
  // DCE: infeed
  // DCE: rng_get_and_update_state
  %i = hlo.infeed %tok : (!hlo.token) -> tuple<tensor<4xf32>, !hlo.token>
  %s = hlo.rng_get_and_update_state {delta = 1 : i64} : () -> tensor<2xui64>
  hlo.return %tok : !hlo.token
}
