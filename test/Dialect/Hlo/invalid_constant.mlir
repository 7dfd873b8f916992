// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// Literals must have the shape of the constant's result.

hlo.computation @shape(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.constant' op literal of type 'tensor<3xf32>' does not match 'tensor<2xf32>'}}
  %0 = hlo.constant {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<2xf32>
  hlo.return %x : tensor<f32>
}

// -----

hlo.computation @element_type(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.constant' op literal of type 'tensor<2xi32>' does not match 'tensor<2xf32>'}}
  %0 = hlo.constant {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xf32>
  hlo.return %x : tensor<f32>
}

// -----

hlo.computation @array_for_tuple(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.constant' op array literal for non-array type 'tuple<tensor<f32>>'}}
  %0 = hlo.constant {value = dense<1.0> : tensor<f32>} : () -> tuple<tensor<f32>>
  hlo.return %x : tensor<f32>
}

// -----

hlo.computation @tuple_arity(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.constant' op tuple literal of 1 elements does not match type 'tuple<tensor<f32>, tensor<i32>>'}}
  %0 = hlo.constant {value = [dense<1.0> : tensor<f32>]} : () -> tuple<tensor<f32>, tensor<i32>>
  hlo.return %x : tensor<f32>
}

// -----

hlo.computation @tuple_for_array(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.constant' op tuple literal of 1 elements does not match type 'tensor<f32>'}}
  %0 = hlo.constant {value = [dense<1.0> : tensor<f32>]} : () -> tensor<f32>
  hlo.return %x : tensor<f32>
}

// -----

hlo.computation @tuple_element(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.constant' op literal of type 'tensor<i32>' does not match 'tensor<f32>'}}
  %0 = hlo.constant {value = [dense<1> : tensor<i32>, unit]} : () -> tuple<tensor<f32>, tensor<i32>>
  hlo.return %x : tensor<f32>
}

// -----

hlo.computation @unsupported(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.constant' op unsupported literal attribute 1.000000e+00 : f32}}
  %0 = hlo.constant {value = 1.0 : f32} : () -> tensor<f32>
  hlo.return %x : tensor<f32>
}
