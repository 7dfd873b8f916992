// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// A buffer assignment (hlo.buffer_allocations, hlo.buffer_slices) is checked
// by the dialect: allocations numbered in order, one slice per shape node,
// every slice inside its allocation.

// expected-error @+1 {{hlo.buffer_allocations entry 0 must be an #hlo.buffer_allocation of index 0}}
module attributes {hlo.buffer_allocations = [#hlo.buffer_allocation<index = 1, size = 16, kind = temp>]} {
  hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
    hlo.return %a : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{a buffer allocation names a parameter exactly when its kind is parameter}}
module attributes {hlo.buffer_allocations = [#hlo.buffer_allocation<index = 0, size = 16, kind = temp, parameter = 0>]} {
}

// -----

// expected-error @+1 {{buffer slice allocation, offset and size must not be negative}}
module attributes {test.slice = #hlo.buffer_slice<allocation = 0, offset = -4, size = 4>} {
}

// -----

module attributes {hlo.buffer_allocations = [#hlo.buffer_allocation<index = 0, size = 16, kind = parameter, parameter = 0>, #hlo.buffer_allocation<index = 1, size = 16, kind = temp>]} {
  hlo.computation @main(%a: tensor<4xf32> {hlo.buffer_slices = [#hlo.buffer_slice<allocation = 0, offset = 0, size = 16>]}) -> tensor<4xf32> attributes {entry} {
    // expected-error @+1 {{buffer slice #hlo.buffer_slice<allocation = 1, offset = 8, size = 16> ends past its allocation of 16 bytes}}
    %0 = hlo.negate %a {hlo.buffer_slices = [#hlo.buffer_slice<allocation = 1, offset = 8, size = 16>]} : (tensor<4xf32>) -> tensor<4xf32>
    hlo.return %0 : tensor<4xf32>
  }
}

// -----

module attributes {hlo.buffer_allocations = [#hlo.buffer_allocation<index = 0, size = 16, kind = temp>]} {
  hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
    // expected-error @+1 {{buffer slice #hlo.buffer_slice<allocation = 3, offset = 0, size = 16> names a missing allocation}}
    %0 = hlo.negate %a {hlo.buffer_slices = [#hlo.buffer_slice<allocation = 3, offset = 0, size = 16>]} : (tensor<4xf32>) -> tensor<4xf32>
    hlo.return %0 : tensor<4xf32>
  }
}

// -----

hlo.computation @main(%a: tensor<4xf32>) -> tuple<tensor<4xf32>> attributes {entry} {
  // expected-error @+1 {{hlo.buffer_slices has 1 slices for a shape of 2 nodes}}
  %0 = hlo.tuple %a {hlo.buffer_slices = [#hlo.buffer_slice<allocation = 0, offset = 0, size = 8>]} : (tensor<4xf32>) -> tuple<tensor<4xf32>>
  hlo.return %0 : tuple<tensor<4xf32>>
}

// -----

// expected-error @+1 {{argument 0: hlo.buffer_slices must be an array of #hlo.buffer_slice}}
hlo.computation @main(%a: tensor<4xf32> {hlo.buffer_slices = [1]}) -> tensor<4xf32> attributes {entry} {
  hlo.return %a : tensor<4xf32>
}
