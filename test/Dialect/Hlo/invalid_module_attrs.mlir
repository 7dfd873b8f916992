// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// The module's input_output_alias and buffer_donor are lists of typed entries
// checked against the ENTRY computation.

// expected-error @+1 {{"hlo.input_output_alias" entry 7 : i64 must be a #hlo.input_output_alias}}
module attributes {hlo.input_output_alias = [7]} {
  hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
    hlo.return %a : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{"hlo.buffer_donor" names parameter 2 but the ENTRY computation has 1}}
module attributes {hlo.buffer_donor = [#hlo.buffer_donor<parameter = 2, parameter_index = []>]} {
  hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
    hlo.return %a : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{"hlo.buffer_donor" entry #hlo.input_output_alias<output_index = [], parameter = 0, parameter_index = []> must be a #hlo.buffer_donor}}
module attributes {hlo.buffer_donor = [#hlo.input_output_alias<output_index = [], parameter = 0, parameter_index = []>]} {
  hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
    hlo.return %a : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{"hlo.input_output_alias" aliases output {0} twice}}
module attributes {hlo.input_output_alias = [#hlo.input_output_alias<output_index = [0], parameter = 0, parameter_index = []>, #hlo.input_output_alias<output_index = [0], parameter = 1, parameter_index = []>]} {
  hlo.computation @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tuple<tensor<4xf32>> attributes {entry} {
    %t = hlo.tuple %a : (tensor<4xf32>) -> tuple<tensor<4xf32>>
    hlo.return %t : tuple<tensor<4xf32>>
  }
}

// -----

// expected-error @+1 {{"hlo.buffer_donor" donates parameter 0 {} twice}}
module attributes {hlo.buffer_donor = [#hlo.buffer_donor<parameter = 0, parameter_index = []>, #hlo.buffer_donor<parameter = 0, parameter_index = []>]} {
  hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
    hlo.return %a : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{"hlo.input_output_alias" output index {1} is not in the ENTRY result 'tuple<tensor<4xf32>>'}}
module attributes {hlo.input_output_alias = [#hlo.input_output_alias<output_index = [1], parameter = 0, parameter_index = [], kind = "must-alias">]} {
  hlo.computation @main(%a: tensor<4xf32>) -> tuple<tensor<4xf32>> attributes {entry} {
    %t = hlo.tuple %a : (tensor<4xf32>) -> tuple<tensor<4xf32>>
    hlo.return %t : tuple<tensor<4xf32>>
  }
}

// -----

// expected-error @+1 {{"hlo.input_output_alias" parameter index {0} is not in parameter 0 of type 'tensor<4xf32>'}}
module attributes {hlo.input_output_alias = [#hlo.input_output_alias<output_index = [0], parameter = 0, parameter_index = [0]>]} {
  hlo.computation @main(%a: tensor<4xf32>) -> tuple<tensor<4xf32>> attributes {entry} {
    %t = hlo.tuple %a : (tensor<4xf32>) -> tuple<tensor<4xf32>>
    hlo.return %t : tuple<tensor<4xf32>>
  }
}

// -----

// expected-error @+1 {{aliased parameter -1 is negative}}
module attributes {hlo.input_output_alias = [#hlo.input_output_alias<output_index = [], parameter = -1, parameter_index = []>]} {
}

// -----

// expected-error @+1 {{donated parameter -3 is negative}}
module attributes {hlo.buffer_donor = [#hlo.buffer_donor<parameter = -3, parameter_index = []>]} {
}

// -----

// expected-error @+1 {{expected may-alias or must-alias}}
module attributes {hlo.input_output_alias = [#hlo.input_output_alias<output_index = [], parameter = 0, parameter_index = [], kind = "maybe">]} {
}
