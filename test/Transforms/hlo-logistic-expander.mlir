// RUN: hlo-opt %s -split-input-file --hlo-logistic-expander | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-logistic-expander --hlo-check-semantics -o /dev/null

// logistic(x) becomes 1 / (1 + exp(-x)), one broadcast 1 shared by the add
// and the divide; the divide takes the logistic's attributes and type
// (layout included).
// CHECK-LABEL: hlo.computation @expand
hlo.computation @expand(%a: tensor<2x3xf32>, %b: tensor<4xf64>, %c: tensor<f32>) -> tuple<tensor<2x3xf32, #hlo.layout<[0, 1]>>, tensor<4xf64>, tensor<f32>> attributes {entry} {
  // CHECK: %[[C:.*]] = constant {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
  // CHECK: %[[ONE:.*]] = broadcast %[[C]] {dimensions = array<i64>} : (tensor<f32>) -> tensor<2x3xf32>
  // CHECK: %[[N:.*]] = negate %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[E:.*]] = exponential %[[N]] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[D:.*]] = add %[[ONE]], %[[E]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[R0:.*]] = divide %[[ONE]], %[[D]] {frontend_attributes = {k = "v"}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32, #hlo.layout<[0, 1]>>
  // CHECK-NOT: logistic
  %0 = hlo.logistic %a {frontend_attributes = {k = "v"}} : (tensor<2x3xf32>) -> tensor<2x3xf32, #hlo.layout<[0, 1]>>
  // CHECK: constant {value = dense<1.000000e+00> : tensor<f64>}
  // CHECK: %[[R1:.*]] = divide {{.*}} : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %1 = hlo.logistic %b : (tensor<4xf64>) -> tensor<4xf64>
  // A scalar needs no broadcast.
  // CHECK: %[[S:.*]] = constant {value = dense<1.000000e+00> : tensor<f32>}
  // CHECK-NEXT: %[[SN:.*]] = negate %arg2
  // CHECK-NEXT: %[[SE:.*]] = exponential %[[SN]]
  // CHECK-NEXT: %[[SD:.*]] = add %[[S]], %[[SE]]
  // CHECK-NEXT: %[[R2:.*]] = divide %[[S]], %[[SD]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %2 = hlo.logistic %c : (tensor<f32>) -> tensor<f32>
  // CHECK: tuple %[[R0]], %[[R1]], %[[R2]]
  %r = hlo.tuple %0, %1, %2 : (tensor<2x3xf32, #hlo.layout<[0, 1]>>, tensor<4xf64>, tensor<f32>) -> tuple<tensor<2x3xf32, #hlo.layout<[0, 1]>>, tensor<4xf64>, tensor<f32>>
  hlo.return %r : tuple<tensor<2x3xf32, #hlo.layout<[0, 1]>>, tensor<4xf64>, tensor<f32>>
}

// -----

// Complex elements: the 1 is (1, 0). Large and special values as well.
// CHECK-LABEL: hlo.computation @complex
hlo.computation @complex(%a: tensor<3xcomplex<f32>>) -> tuple<tensor<3xcomplex<f32>>, tensor<6xf32>> attributes {entry} {
  // CHECK: constant {value = dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>}
  // CHECK: divide {{.*}} : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  %0 = hlo.logistic %a : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  %c = hlo.constant {value = dense<[0.0, -0.0, 100.0, -100.0, 0x7F800000, 0xFF800000]> : tensor<6xf32>} : () -> tensor<6xf32>
  // CHECK: divide {{.*}} : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %1 = hlo.logistic %c : (tensor<6xf32>) -> tensor<6xf32>
  %r = hlo.tuple %0, %1 : (tensor<3xcomplex<f32>>, tensor<6xf32>) -> tuple<tensor<3xcomplex<f32>>, tensor<6xf32>>
  hlo.return %r : tuple<tensor<3xcomplex<f32>>, tensor<6xf32>>
}

// -----

// Left alone: control predecessors and dynamic shapes.
// CHECK-LABEL: hlo.computation @keep
hlo.computation @keep(%a: tensor<4xf32>, %d: tensor<?xf32, #hlo.layout<[0], bounds = [4]>>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>> attributes {entry} {
  // CHECK-NOT: exponential
  // CHECK: %[[P:.*]] = negate %arg0
  %p = hlo.negate %a : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: logistic %arg0 after(%[[P]]
  %0 = hlo.logistic %a after(%p : tensor<4xf32>) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: logistic %arg1
  %1 = hlo.logistic %d : (tensor<?xf32, #hlo.layout<[0], bounds = [4]>>) -> tensor<?xf32, #hlo.layout<[0], bounds = [4]>>
  %r = hlo.tuple %p, %0, %1 : (tensor<4xf32>, tensor<4xf32>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>>
  hlo.return %r : tuple<tensor<4xf32>, tensor<4xf32>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>>
}
