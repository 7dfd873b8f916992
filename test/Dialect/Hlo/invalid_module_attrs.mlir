// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// The module's input_output_alias and buffer_donor are checked.

// expected-error @+1 {{"hlo.input_output_alias" entry 7 : i64 must be {output_index = array<i64>, parameter = N, parameter_index = array<i64>, kind = "may-alias" | "must-alias"}}}
module attributes {hlo.input_output_alias = [7]} {
  hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
    hlo.return %a : tensor<4xf32>
  }
}

// -----

// expected-error @+1 {{"hlo.buffer_donor" names parameter 2 but the ENTRY computation has 1}}
module attributes {hlo.buffer_donor = [{parameter = 2 : i64, parameter_index = array<i64>}]} {
  hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
    hlo.return %a : tensor<4xf32>
  }
}
