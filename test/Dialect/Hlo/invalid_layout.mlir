// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// #hlo.layout is verified against the tensor it encodes.

// expected-error @+1 {{layout [7, 9] is not a permutation of the dimensions}}
hlo.computation @f(%a: tensor<3x6xf32, #hlo.layout<[7, 9]>>) -> tensor<3x6xf32> {
  %0 = hlo.copy %a : (tensor<3x6xf32>) -> tensor<3x6xf32>
  hlo.return %0 : tensor<3x6xf32>
}

// -----

// expected-error @+1 {{layout lists 1 dimensions for a tensor of rank 2}}
hlo.computation @f(%a: tensor<3x6xf32, #hlo.layout<[0]>>) -> tensor<3x6xf32> {
  hlo.return %a : tensor<3x6xf32>
}

// -----

// expected-error @+1 {{layout has 2 bounds for a tensor of rank 1}}
hlo.computation @f(%a: tensor<?xf32, #hlo.layout<[0], bounds = [4, 4]>>) -> tensor<?xf32> {
  hlo.return %a : tensor<?xf32>
}
