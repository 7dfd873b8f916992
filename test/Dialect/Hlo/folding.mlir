// RUN: hlo-opt %s --canonicalize | FileCheck %s
// RUN: hlo-opt %s --canonicalize --hlo-check-semantics

// Folders: identities and constant operands.

// Folded constants come first (the folder hoists them).
// CHECK-LABEL: hlo.computation @main
  // CHECK-DAG: constant {value = dense<-2147483648> : tensor<4xi32>}
  // CHECK-DAG: constant {value = dense<200> : tensor<4xui8>}
  // CHECK-DAG: constant {value = dense<1.000000e+00> : tensor<4xbf16>}
  // CHECK-DAG: constant {value = dense<0x7FC00000> : tensor<4xf32>}
  // CHECK-DAG: constant {value = dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>}
  // A broadcast constant stays a broadcast (no larger literal is made).
  // CHECK-DAG: %[[SEVEN:.*]] = constant {value = dense<7.000000e+00> : tensor<f32>}
// CHECK-DAG: %[[FZ:.*]] = constant {value = dense<0.000000e+00> : tensor<4xf32>}
hlo.computation @main(%x: tensor<4xf32>, %i: tensor<4xi32>, %p: tensor<4xi1>) -> tuple<tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<2x2xf32>, tensor<4xi32>, tensor<4xui8>, tensor<4xbf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>> attributes {entry} {
  // Identities: each of these is its operand.
  // CHECK-NOT: reshape %arg0
  // CHECK-NOT: convert %arg0
  // CHECK-NOT: transpose
  // CHECK-NOT: slice
  // CHECK-NOT: pad
  %r = hlo.reshape %x : (tensor<4xf32>) -> tensor<4xf32>
  %c = hlo.convert %r : (tensor<4xf32>) -> tensor<4xf32>
  %t = hlo.transpose %c {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  %s = hlo.slice %t {slice = #hlo.slice<"{[0:4]}">} : (tensor<4xf32>) -> tensor<4xf32>
  %zero = hlo.constant {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %pd = hlo.pad %s, %zero {padding = #hlo.padding<"0_0">} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %n1 = hlo.negate %pd : (tensor<4xf32>) -> tensor<4xf32>
  %n2 = hlo.negate %n1 : (tensor<4xf32>) -> tensor<4xf32>
  %one = hlo.constant {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %m = hlo.multiply %one, %n2 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // Integer identities: x + 0, x | 0, x ^ 0, x & -1.
  %z = hlo.constant {value = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %ones = hlo.constant {value = dense<-1> : tensor<4xi32>} : () -> tensor<4xi32>
  %a0 = hlo.add %i, %z : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %o0 = hlo.or %a0, %z : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %x0 = hlo.xor %o0, %z : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %n0 = hlo.and %x0, %ones : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // x + 0 is not folded for floats (-0 + 0 is +0).
  // CHECK: add %arg0, %[[FZ]]
  // CHECK: broadcast %[[SEVEN]] {dimensions = array<i64>} : (tensor<f32>) -> tensor<4xf32>
  %fz = hlo.constant {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %fa = hlo.add %x, %fz : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // Constant folding, integers wrap: 2147483647 + 1.
  %big = hlo.constant {value = dense<2147483647> : tensor<4xi32>} : () -> tensor<4xi32>
  %one_i = hlo.constant {value = dense<1> : tensor<4xi32>} : () -> tensor<4xi32>
  %wrap = hlo.add %big, %one_i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // Unsigned maximum: 200 > 100 as u8.
  %u1 = hlo.constant {value = dense<200> : tensor<4xui8>} : () -> tensor<4xui8>
  %u2 = hlo.constant {value = dense<100> : tensor<4xui8>} : () -> tensor<4xui8>
  %umax = hlo.maximum %u1, %u2 : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  // bf16 in f32, rounded once: 1 + 2^-8 is 1 in bf16.
  %b1 = hlo.constant {value = dense<1.0> : tensor<4xbf16>} : () -> tensor<4xbf16>
  %b2 = hlo.constant {value = dense<0.00390625> : tensor<4xbf16>} : () -> tensor<4xbf16>
  %bsum = hlo.add %b1, %b2 : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  // maximum propagates NaN.
  %nan = hlo.constant {value = dense<0x7FC00000> : tensor<4xf32>} : () -> tensor<4xf32>
  %fmax = hlo.maximum %nan, %one : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // A reshaped literal; a broadcast one.
  %k = hlo.constant {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %k2 = hlo.reshape %k : (tensor<4xf32>) -> tensor<2x2xf32>
  %seven = hlo.constant {value = dense<7.0> : tensor<f32>} : () -> tensor<f32>
  %bc = hlo.broadcast %seven {dimensions = array<i64>} : (tensor<f32>) -> tensor<4xf32>
  // get-tuple-element of a tuple; select of a constant predicate.
  %tup = hlo.tuple %i, %x : (tensor<4xi32>, tensor<4xf32>) -> tuple<tensor<4xi32>, tensor<4xf32>>
  %g = hlo.get_tuple_element %tup {index = 0 : i64} : (tuple<tensor<4xi32>, tensor<4xf32>>) -> tensor<4xi32>
  %true = hlo.constant {value = dense<true> : tensor<4xi1>} : () -> tensor<4xi1>
  %sel = hlo.select %true, %g, %n0 : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: %[[T:.*]] = tuple %arg0, %arg1, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %arg1
  %res = hlo.tuple %m, %n0, %fa, %k2, %wrap, %umax, %bsum, %fmax, %bc, %sel : (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<2x2xf32>, tensor<4xi32>, tensor<4xui8>, tensor<4xbf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) -> tuple<tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<2x2xf32>, tensor<4xi32>, tensor<4xui8>, tensor<4xbf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>>
  hlo.return %res : tuple<tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<2x2xf32>, tensor<4xi32>, tensor<4xui8>, tensor<4xbf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>>
}

// A layout change is not an identity.
// CHECK-LABEL: hlo.computation private @layout
// CHECK: reshape %arg0 : (tensor<4xf32>) -> tensor<4xf32, #hlo.layout<[0]>>
hlo.computation private @layout(%x: tensor<4xf32>) -> tensor<4xf32, #hlo.layout<[0]>> {
  %l = hlo.reshape %x : (tensor<4xf32>) -> tensor<4xf32, #hlo.layout<[0]>>
  hlo.return %l : tensor<4xf32, #hlo.layout<[0]>>
}
