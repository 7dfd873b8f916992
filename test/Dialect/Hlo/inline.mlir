// RUN: hlo-opt %s --inline | FileCheck %s
// RUN: hlo-opt %s --symbol-dce | FileCheck %s --check-prefix=DCE

// MLIR's inliner inlines hlo.call (XLA's CallInliner) and then drops the
// private callee nothing else calls; fusions are not inlined.

// CHECK-NOT: hlo.computation private @twice
// DCE: hlo.computation private @twice
hlo.computation private @twice(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// CHECK: hlo.computation private @fused
// DCE: hlo.computation private @fused
hlo.computation private @fused(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.negate %a : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// symbol-dce removes private computations nothing calls.
// CHECK-NOT: @unused
// DCE-NOT: @unused
hlo.computation private @unused(%a: tensor<4xf32>) -> tensor<4xf32> {
  hlo.return %a : tensor<4xf32>
}

// CHECK-LABEL: hlo.computation @main
// CHECK-NEXT: %[[S:.*]] = sqrt %arg0
// CHECK-NEXT: %[[A:.*]] = add %[[S]], %[[S]]
// CHECK-NEXT: %[[F:.*]] = fusion %[[A]] {calls = @fused
// CHECK-NEXT: return %[[F]]
// DCE-LABEL: hlo.computation @main
hlo.computation @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  %s = hlo.sqrt %x : (tensor<4xf32>) -> tensor<4xf32>
  %c = hlo.call %s {to_apply = @twice} : (tensor<4xf32>) -> tensor<4xf32>
  %f = hlo.fusion %c {calls = @fused, kind = #hlo<fusion_kind kLoop>} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %f : tensor<4xf32>
}
