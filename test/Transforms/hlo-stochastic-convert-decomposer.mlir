// RUN: hlo-opt %s -split-input-file --hlo-stochastic-convert-decomposer | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-stochastic-convert-decomposer --hlo-check-semantics -o /dev/null

// f32 to s32 with u32 random bits: |x| = floor + fraction, F = fraction *
// 2^32; round up when random < floor(F) (the fraction as a 32-bit fixed-point
// number, as XLA's evaluator), put the sign back, convert. The constants
// check the rounding at and around the threshold (2.5 with random 2^31 and
// 2^31 - 1, 1 + 2^-23 with 511 and 512, 2^-35 whose F = 1/8 never rounds
// up), saturation, NaN and infinities.
// CHECK-LABEL: hlo.computation @f32
hlo.computation @f32(%a: tensor<2x3xf32>, %r: tensor<2x3xui32>) -> tuple<tensor<2x3xi32>, tensor<14xi32>, tensor<14xui32>> attributes {entry} {
  // CHECK: %[[ABS:.*]] = abs %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[FL:.*]] = floor %[[ABS]]
  // CHECK: %[[FR:.*]] = subtract %[[ABS]], %[[FL]]
  // CHECK: %[[TWO32:.*]] = constant {value = dense<4.2949673E+9> : tensor<f32>}
  // CHECK: %[[TWO32B:.*]] = broadcast %[[TWO32]]
  // CHECK: %[[F:.*]] = multiply %[[FR]], %[[TWO32B]]
  // CHECK: %[[FF:.*]] = floor %[[F]]
  // CHECK: %[[FU:.*]] = convert %[[FF]] : (tensor<2x3xf32>) -> tensor<2x3xui32>
  // CHECK: %[[UP:.*]] = compare %arg1, %[[FU]] {direction = #hlo<comparison_direction LT>}
  // CHECK: %[[ONE:.*]] = constant {value = dense<1.000000e+00> : tensor<f32>}
  // CHECK: %[[ONEB:.*]] = broadcast %[[ONE]]
  // CHECK: %[[INC:.*]] = add %[[FL]], %[[ONEB]]
  // CHECK: %[[MAG:.*]] = select %[[UP]], %[[INC]], %[[FL]]
  // CHECK: %[[ZERO:.*]] = constant {value = dense<0.000000e+00> : tensor<f32>}
  // CHECK: %[[ZEROB:.*]] = broadcast %[[ZERO]]
  // CHECK: %[[NEG:.*]] = compare %arg0, %[[ZEROB]] {direction = #hlo<comparison_direction LT>}
  // CHECK: %[[M:.*]] = negate %[[MAG]]
  // CHECK: %[[S:.*]] = select %[[NEG]], %[[M]], %[[MAG]]
  // CHECK: convert %[[S]] {frontend_attributes = {k = "v"}} : (tensor<2x3xf32>) -> tensor<2x3xi32>
  // CHECK-NOT: stochastic_convert
  %0 = hlo.stochastic_convert %a, %r {frontend_attributes = {k = "v"}} : (tensor<2x3xf32>, tensor<2x3xui32>) -> tensor<2x3xi32>
  %x = hlo.constant {value = dense<[2.5, 2.5, -2.5, -2.5, 1.00000012, 1.00000012, 2.91038305E-11, 2.91038305E-11, 3.0e9, -3.0e9, 0x7FC00000, 0x7F800000, 0xFF800000, 0.75]> : tensor<14xf32>} : () -> tensor<14xf32>
  %b = hlo.constant {value = dense<[2147483648, 2147483647, 2147483648, 2147483647, 511, 512, 0, 1, 0, 0, 0, 0, 0, 3221225471]> : tensor<14xui32>} : () -> tensor<14xui32>
  %1 = hlo.stochastic_convert %x, %b : (tensor<14xf32>, tensor<14xui32>) -> tensor<14xi32>
  // Unsigned results: negative values saturate to 0.
  // CHECK: convert {{.*}} : (tensor<14xf32>) -> tensor<14xui32>
  %2 = hlo.stochastic_convert %x, %b : (tensor<14xf32>, tensor<14xui32>) -> tensor<14xui32>
  %t = hlo.tuple %0, %1, %2 : (tensor<2x3xi32>, tensor<14xi32>, tensor<14xui32>) -> tuple<tensor<2x3xi32>, tensor<14xi32>, tensor<14xui32>>
  hlo.return %t : tuple<tensor<2x3xi32>, tensor<14xi32>, tensor<14xui32>>
}

// -----

// Narrower floats are computed in f32 (2^16 is not an f16), the random bits
// compared at their own width; the result may be narrower still.
// CHECK-LABEL: hlo.computation @narrow
hlo.computation @narrow(%a: tensor<4xf16>, %r: tensor<4xui16>, %c: tensor<4xbf16>) -> tuple<tensor<4xi16>, tensor<6xi8>, tensor<4xi32>> attributes {entry} {
  // CHECK: %[[X:.*]] = convert %arg0 : (tensor<4xf16>) -> tensor<4xf32>
  // CHECK: abs %[[X]]
  // CHECK: constant {value = dense<6.553600e+04> : tensor<f32>}
  // CHECK: convert {{.*}} : (tensor<4xf32>) -> tensor<4xui16>
  // CHECK: compare %arg1
  // CHECK: convert {{.*}} : (tensor<4xf32>) -> tensor<4xi16>
  %0 = hlo.stochastic_convert %a, %r : (tensor<4xf16>, tensor<4xui16>) -> tensor<4xi16>
  %x = hlo.constant {value = dense<[1.5, 1.5, -9.765625E-4, 65504.0, -65504.0, 5.96046448E-8]> : tensor<6xf16>} : () -> tensor<6xf16>
  %b = hlo.constant {value = dense<[32768, 32767, 63, 0, 0, 0]> : tensor<6xui16>} : () -> tensor<6xui16>
  // CHECK: convert {{.*}} : (tensor<6xf32>) -> tensor<6xi8>
  %1 = hlo.stochastic_convert %x, %b : (tensor<6xf16>, tensor<6xui16>) -> tensor<6xi8>
  // CHECK: convert %arg2 : (tensor<4xbf16>) -> tensor<4xf32>
  %2 = hlo.stochastic_convert %c, %r : (tensor<4xbf16>, tensor<4xui16>) -> tensor<4xi32>
  %t = hlo.tuple %0, %1, %2 : (tensor<4xi16>, tensor<6xi8>, tensor<4xi32>) -> tuple<tensor<4xi16>, tensor<6xi8>, tensor<4xi32>>
  hlo.return %t : tuple<tensor<4xi16>, tensor<6xi8>, tensor<4xi32>>
}

// -----

// f64 with u64 random bits: the fixed-point fraction is a u64, compared
// exactly (2^63 - 1 is below F = 2^63 for 0.5, 2^63 is not).
// CHECK-LABEL: hlo.computation @f64
hlo.computation @f64(%a: tensor<3xf64>, %r: tensor<3xui64>) -> tuple<tensor<3xi64>, tensor<5xi64>> attributes {entry} {
  // CHECK-NOT: convert %arg0
  // CHECK: %[[F:.*]] = multiply
  // CHECK: %[[FF:.*]] = floor %[[F]]
  // CHECK: %[[FU:.*]] = convert %[[FF]] : (tensor<3xf64>) -> tensor<3xui64>
  // CHECK: compare %arg1, %[[FU]] {direction = #hlo<comparison_direction LT>}
  // CHECK: convert {{.*}} : (tensor<3xf64>) -> tensor<3xi64>
  %0 = hlo.stochastic_convert %a, %r : (tensor<3xf64>, tensor<3xui64>) -> tensor<3xi64>
  %x = hlo.constant {value = dense<[0.5, 0.5, 0.5, -1.25, 8.470329472543003E-22]> : tensor<5xf64>} : () -> tensor<5xf64>
  %b = hlo.constant {value = dense<[9223372036854775807, 9223372036854775808, 9223372036854774783, 4611686018427387903, 0]> : tensor<5xui64>} : () -> tensor<5xui64>
  %1 = hlo.stochastic_convert %x, %b : (tensor<5xf64>, tensor<5xui64>) -> tensor<5xi64>
  %t = hlo.tuple %0, %1 : (tensor<3xi64>, tensor<5xi64>) -> tuple<tensor<3xi64>, tensor<5xi64>>
  hlo.return %t : tuple<tensor<3xi64>, tensor<5xi64>>
}

// -----

// Left alone: control predecessors and dynamic shapes.
// CHECK-LABEL: hlo.computation @keep
hlo.computation @keep(%a: tensor<4xf32>, %r: tensor<4xui32>, %d: tensor<?xf32, #hlo.layout<[0], bounds = [4]>>, %e: tensor<?xui32, #hlo.layout<[0], bounds = [4]>>) -> tuple<tensor<4xf32>, tensor<4xi32>, tensor<?xi32, #hlo.layout<[0], bounds = [4]>>> attributes {entry} {
  // CHECK-NOT: floor
  // CHECK: %[[P:.*]] = negate %arg0
  %p = hlo.negate %a : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: stochastic_convert %arg0, %arg1 after(%[[P]]
  %0 = hlo.stochastic_convert %a, %r after(%p : tensor<4xf32>) : (tensor<4xf32>, tensor<4xui32>) -> tensor<4xi32>
  // CHECK: stochastic_convert %arg2, %arg3
  %1 = hlo.stochastic_convert %d, %e : (tensor<?xf32, #hlo.layout<[0], bounds = [4]>>, tensor<?xui32, #hlo.layout<[0], bounds = [4]>>) -> tensor<?xi32, #hlo.layout<[0], bounds = [4]>>
  %t = hlo.tuple %p, %0, %1 : (tensor<4xf32>, tensor<4xi32>, tensor<?xi32, #hlo.layout<[0], bounds = [4]>>) -> tuple<tensor<4xf32>, tensor<4xi32>, tensor<?xi32, #hlo.layout<[0], bounds = [4]>>>
  hlo.return %t : tuple<tensor<4xf32>, tensor<4xi32>, tensor<?xi32, #hlo.layout<[0], bounds = [4]>>>
}
