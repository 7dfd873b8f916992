// RUN: hlo-opt %s -split-input-file --hlo-constant-folding | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-constant-folding="max-elements=4" | FileCheck %s --check-prefix=SMALL
// RUN: hlo-opt %s -split-input-file --hlo-constant-folding --hlo-check-semantics -o /dev/null

// A chain of arithmetic on constants is one constant; an operand that is not known stops folding.
// CHECK-LABEL: hlo.computation @chain
// SMALL-LABEL: hlo.computation @chain
hlo.computation @chain(%p: tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>> attributes {entry} {
  %a = hlo.constant {value = dense<[1.5, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = hlo.constant {value = dense<[0.5, -4.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %s = hlo.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %m = hlo.multiply %s, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  // CHECK: %[[M:.*]] = constant {value = dense<[1.000000e+00, 8.000000e+00]> : tensor<2xf32>} : () -> tensor<2xf32>
  // CHECK-NOT: multiply
  // CHECK: %[[Q:.*]] = add %arg0, %[[M]]
  // CHECK: tuple %[[M]], %[[Q]]
  // SMALL-NOT: multiply
  %q = hlo.add %p, %m : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %r = hlo.tuple %m, %q : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
  hlo.return %r : tuple<tensor<2xf32>, tensor<2xf32>>
}

// -----

// Broadcasts and iotas are evaluated for their users but not folded
// themselves; an instruction with no constant operand is not folded (XLA).
// The size limit counts the result and the operands.
// CHECK-LABEL: hlo.computation @broadcast_iota
// SMALL-LABEL: hlo.computation @broadcast_iota
hlo.computation @broadcast_iota() -> tuple<tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>> attributes {entry} {
  %c = hlo.constant {value = dense<10> : tensor<i32>} : () -> tensor<i32>
  %one = hlo.constant {value = dense<1> : tensor<4xi32>} : () -> tensor<4xi32>
  %b = hlo.broadcast %c {dimensions = array<i64>} : (tensor<i32>) -> tensor<4xi32>
  %i = hlo.iota {iota_dimension = 0 : i64} : () -> tensor<4xi32>
  // CHECK-DAG: %[[B:.*]] = broadcast
  // CHECK-DAG: %[[I:.*]] = iota
  // CHECK-DAG: %[[X:.*]] = add %[[B]], %[[I]]
  // CHECK-DAG: %[[Y:.*]] = constant {value = dense<[11, 12, 13, 14]> : tensor<4xi32>}
  // CHECK: tuple %[[B]], %[[I]], %[[X]], %[[Y]]
  // SMALL: add %{{.*}}, %{{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // SMALL: add %{{.*}}, %{{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %x = hlo.add %b, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %t = hlo.add %b, %one : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %y = hlo.add %t, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %r = hlo.tuple %b, %i, %x, %y : (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tuple<tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>>
  hlo.return %r : tuple<tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>>
}

// -----

// Reductions and calls run their computations; get-tuple-element of a
// tuple literal folds, the tuple instruction does not; results of other
// element types (pred, unsigned, bf16, complex) are written exactly.
// CHECK-LABEL: hlo.computation @computations
hlo.computation private @sum(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %s = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %s : tensor<f32>
}
hlo.computation private @twice(%a: tensor<ui8>) -> tensor<ui8> {
  %s = hlo.add %a, %a : (tensor<ui8>, tensor<ui8>) -> tensor<ui8>
  hlo.return %s : tensor<ui8>
}
hlo.computation @computations() -> tuple<tensor<f32>, tensor<ui8>, tensor<2xi32>, tensor<2xi1>, tensor<2xbf16>, tensor<complex<f32>>, tuple<tensor<2xi32>>> attributes {entry} {
  // CHECK-DAG: constant {value = dense<1.000000e+01> : tensor<f32>}
  // CHECK-DAG: constant {value = dense<144> : tensor<ui8>}
  // CHECK-DAG: constant {value = dense<[2, 3]> : tensor<2xi32>}
  // CHECK-DAG: constant {value = dense<[false, true]> : tensor<2xi1>}
  // CHECK-DAG: constant {value = dense<[1.000000e+00, 3.007810e-01]> : tensor<2xbf16>}
  // CHECK-DAG: constant {value = dense<(-5.000000e+00,1.000000e+01)> : tensor<complex<f32>>}
  // CHECK-NOT: reduce
  // CHECK-NOT: call
  // CHECK-NOT: get_tuple_element
  // CHECK-NOT: compare
  // CHECK-NOT: convert
  // CHECK: %[[T:.*]] = tuple %{{.*}} : (tensor<2xi32>) -> tuple<tensor<2xi32>>
  %v = hlo.constant {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %z = hlo.constant {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %rd = hlo.reduce %v, %z {dimensions = array<i64: 0>, to_apply = @sum} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %c = hlo.constant {value = dense<200> : tensor<ui8>} : () -> tensor<ui8>
  %k = hlo.call %c {to_apply = @twice} : (tensor<ui8>) -> tensor<ui8>
  %tl = hlo.constant {value = [dense<1.0> : tensor<f32>, dense<[2, 3]> : tensor<2xi32>]} : () -> tuple<tensor<f32>, tensor<2xi32>>
  %g = hlo.get_tuple_element %tl {index = 1 : i64} : (tuple<tensor<f32>, tensor<2xi32>>) -> tensor<2xi32>
  %three = hlo.constant {value = dense<[3, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %lt = hlo.compare %three, %g {direction = #hlo<comparison_direction LT>} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  %f = hlo.constant {value = dense<[1.0, 0.3]> : tensor<2xf32>} : () -> tensor<2xf32>
  %h = hlo.convert %f : (tensor<2xf32>) -> tensor<2xbf16>
  %x = hlo.constant {value = dense<(1.0, 2.0)> : tensor<complex<f32>>} : () -> tensor<complex<f32>>
  %y = hlo.constant {value = dense<(3.0, 4.0)> : tensor<complex<f32>>} : () -> tensor<complex<f32>>
  %xy = hlo.multiply %x, %y : (tensor<complex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
  %t = hlo.tuple %g : (tensor<2xi32>) -> tuple<tensor<2xi32>>
  %r = hlo.tuple %rd, %k, %g, %lt, %h, %xy, %t : (tensor<f32>, tensor<ui8>, tensor<2xi32>, tensor<2xi1>, tensor<2xbf16>, tensor<complex<f32>>, tuple<tensor<2xi32>>) -> tuple<tensor<f32>, tensor<ui8>, tensor<2xi32>, tensor<2xi1>, tensor<2xbf16>, tensor<complex<f32>>, tuple<tensor<2xi32>>>
  hlo.return %r : tuple<tensor<f32>, tensor<ui8>, tensor<2xi32>, tensor<2xi1>, tensor<2xbf16>, tensor<complex<f32>>, tuple<tensor<2xi32>>>
}

// -----

// What depends on the device or the run stays: replica-id, a call of a
// computation reading it, rng (a side effect), a custom-call; so do an
// elided literal's users, instructions with control edges, and fused
// computations.
// CHECK-LABEL: hlo.computation @kept
hlo.computation private @plus_replica(%a: tensor<ui32>) -> tensor<ui32> {
  %r = hlo.replica_id : () -> tensor<ui32>
  %s = hlo.add %a, %r : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
  hlo.return %s : tensor<ui32>
}
hlo.computation @kept(%p: tensor<ui32>) -> tuple<tensor<ui32>, tensor<ui32>, tensor<2xf32>, tensor<4xf32>, tensor<ui32>, tensor<ui32>, tensor<ui32>> attributes {entry} {
  // CHECK: replica_id
  // CHECK: call
  // CHECK: rng
  // CHECK: negate
  // CHECK: custom_call
  // CHECK: add %{{.*}}, %{{.*}} after
  // CHECK: fusion
  // CHECK: hlo.computation private @fused
  // CHECK: add %{{.*}}, %{{.*}} :
  %c = hlo.constant {value = dense<3> : tensor<ui32>} : () -> tensor<ui32>
  %id = hlo.replica_id : () -> tensor<ui32>
  %k = hlo.call %c {to_apply = @plus_replica} : (tensor<ui32>) -> tensor<ui32>
  %lo = hlo.constant {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %hi = hlo.constant {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %rn = hlo.rng %lo, %hi {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  %e = hlo.constant {value = distinct[0]<>} : () -> tensor<4xf32>
  %n = hlo.negate %e : (tensor<4xf32>) -> tensor<4xf32>
  %cc = hlo.custom_call %c {custom_call_target = "Sharding"} : (tensor<ui32>) -> tensor<ui32>
  %ordered = hlo.add %c, %c after(%p : tensor<ui32>) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
  %f = hlo.fusion %p {calls = @fused, kind = #hlo<fusion_kind kLoop>} : (tensor<ui32>) -> tensor<ui32>
  %r = hlo.tuple %id, %k, %rn, %n, %cc, %ordered, %f : (tensor<ui32>, tensor<ui32>, tensor<2xf32>, tensor<4xf32>, tensor<ui32>, tensor<ui32>, tensor<ui32>) -> tuple<tensor<ui32>, tensor<ui32>, tensor<2xf32>, tensor<4xf32>, tensor<ui32>, tensor<ui32>, tensor<ui32>>
  hlo.return %r : tuple<tensor<ui32>, tensor<ui32>, tensor<2xf32>, tensor<4xf32>, tensor<ui32>, tensor<ui32>, tensor<ui32>>
}
hlo.computation private @fused(%a: tensor<ui32>) -> tensor<ui32> {
  %c = hlo.constant {value = dense<1> : tensor<ui32>} : () -> tensor<ui32>
  %s = hlo.add %c, %c : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
  %t = hlo.add %a, %s : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
  hlo.return %t : tensor<ui32>
}
