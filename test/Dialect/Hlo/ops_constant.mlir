// RUN: hlo-opt %s | hlo-opt | FileCheck %s

// Literals: dense arrays, splats, scalars, tuple literals (one attribute per
// element, `unit` for an elided element) and elided literals (no `value`).

// CHECK-LABEL: hlo.computation @arrays
hlo.computation @arrays() -> tensor<2x3xf32> {
  // CHECK: %0 = constant {value = dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %0 = hlo.constant {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  // CHECK: %1 = constant {value = dense<0.000000e+00> : tensor<2x3xf32>} : () -> tensor<2x3xf32, #hlo.layout<[0, 1]>>
  %1 = hlo.constant {value = dense<0.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32, #hlo.layout<[0, 1]>>
  // CHECK: %2 = constant {value = dense<-7> : tensor<i32>} : () -> tensor<i32>
  %2 = hlo.constant {value = dense<-7> : tensor<i32>} : () -> tensor<i32>
  // CHECK: %3 = constant {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
  %3 = hlo.constant {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
  // CHECK: %4 = constant {value = dense<(1.000000e+00,-2.000000e+00)> : tensor<complex<f32>>} : () -> tensor<complex<f32>>
  %4 = hlo.constant {value = dense<(1.0, -2.0)> : tensor<complex<f32>>} : () -> tensor<complex<f32>>
  // CHECK: %5 = constant {value = dense<255> : tensor<3xui8>} : () -> tensor<3xui8>
  %5 = hlo.constant {value = dense<255> : tensor<3xui8>} : () -> tensor<3xui8>
  // CHECK: %6 = constant {value = dense<> : tensor<0x4xf32>} : () -> tensor<0x4xf32>
  %6 = hlo.constant {value = dense<> : tensor<0x4xf32>} : () -> tensor<0x4xf32>
  hlo.return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: hlo.computation @tuple_literal
hlo.computation @tuple_literal() -> tuple<tensor<2x1xf32>, tensor<2xf32, #hlo.layout<[0]>>> {
  // CHECK: %0 = constant {value = [dense<{{\[\[}}1.000000e+00], [2.000000e+00]]> : tensor<2x1xf32>, dense<[2.000000e+00, 4.200000e+01]> : tensor<2xf32>]} : () -> tuple<tensor<2x1xf32>, tensor<2xf32, #hlo.layout<[0]>>>
  %0 = hlo.constant {value = [dense<[[1.0], [2.0]]> : tensor<2x1xf32>, dense<[2.0, 42.0]> : tensor<2xf32>]} : () -> tuple<tensor<2x1xf32>, tensor<2xf32, #hlo.layout<[0]>>>
  // Nested tuples and an elided element.
  // CHECK: %1 = constant {value = {{\[\[}}dense<1> : tensor<i32>, distinct[{{[0-9]+}}]<>], dense<true> : tensor<i1>]} : () -> tuple<tuple<tensor<i32>, tensor<4xf32>>, tensor<i1>>
  %1 = hlo.constant {value = [[dense<1> : tensor<i32>, distinct[5]<unit>], dense<true> : tensor<i1>]} : () -> tuple<tuple<tensor<i32>, tensor<4xf32>>, tensor<i1>>
  // CHECK: %2 = constant {value = []} : () -> tuple<>
  %2 = hlo.constant {value = []} : () -> tuple<>
  hlo.return %0 : tuple<tensor<2x1xf32>, tensor<2xf32, #hlo.layout<[0]>>>
}

// An elided literal (`constant({...})` in HLO text) is a distinct attribute.
// CHECK-LABEL: hlo.computation @elided
hlo.computation @elided() -> tensor<1024x1024xbf16> {
  // CHECK: %0 = constant {value = distinct[{{[0-9]+}}]<>} : () -> tensor<1024x1024xbf16>
  %0 = hlo.constant {value = distinct[0]<unit>} : () -> tensor<1024x1024xbf16>
  // CHECK: %1 = constant {statistics = {stat0 = 5.000000e-01 : f64, visualizing_index = 1 : i64}, value = distinct[{{[0-9]+}}]<>} : () -> tensor<4xi32>
  %1 = hlo.constant {statistics = {visualizing_index = 1 : i64, stat0 = 0.5 : f64}, value = distinct[1]<unit>} : () -> tensor<4xi32>
  hlo.return %0 : tensor<1024x1024xbf16>
}
