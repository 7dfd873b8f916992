// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// The dictionary-valued attributes of instructions are checked entry by
// entry: every verified one has an HLO spelling (the MLIR-form fuzzer found
// exporter crashes on each kind of bad entry).

hlo.computation @f(%a: tensor<f32>) -> tensor<f32> attributes {entry} {
  // expected-error @+1 {{attribute 'frontend_attributes' failed to satisfy constraint: dictionary of strings}}
  %0 = hlo.negate %a {frontend_attributes = {_xla_host_transfer_handler_name}} : (tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @f(%a: tensor<f32>) -> tensor<f32> attributes {entry} {
  // expected-error @+1 {{attribute 'unknown_attrs' failed to satisfy constraint: dictionary of HLO attribute names to #hlo.text}}
  %0 = hlo.negate %a {unknown_attrs = {foo = "bar"}} : (tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @f(%a: tensor<f32>) -> tensor<f32> attributes {entry} {
  // expected-error @+1 {{attribute 'unknown_attrs' failed to satisfy constraint: dictionary of HLO attribute names to #hlo.text}}
  %0 = hlo.negate %a {unknown_attrs = {"not a name" = #hlo.text<"1">}} : (tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @f(%a: tensor<f32>) -> tensor<f32> attributes {entry} {
  // expected-error @+1 {{attribute 'statistics' failed to satisfy constraint: statistics (visualizing_index an integer, other HLO names floats)}}
  %0 = hlo.negate %a {statistics = {visualizing_index = 1 : i64, stat0 = "x"}} : (tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @f(%a: tensor<f32>) -> tensor<f32> attributes {entry} {
  // expected-error @+1 {{attribute 'statistics' failed to satisfy constraint}}
  %0 = hlo.negate %a {statistics = {visualizing_index = 1.0 : f64}} : (tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @f(%a: tensor<f32>) -> tensor<f32> attributes {entry} {
  // expected-error @+1 {{attribute 'result_accuracy' failed to satisfy constraint: result accuracy ({mode = name} or atol/rtol floats and ulps integer)}}
  %0 = hlo.exponential %a {result_accuracy = {mode = "highest", atol = 1.0e-5 : f64}} : (tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @f(%a: tensor<f32>) -> tensor<f32> attributes {entry} {
  // expected-error @+1 {{attribute 'result_accuracy' failed to satisfy constraint}}
  %0 = hlo.exponential %a {result_accuracy = {}} : (tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @f(%a: tensor<f32>) -> tensor<f32> attributes {entry} {
  // expected-error @+1 {{attribute 'result_accuracy' failed to satisfy constraint}}
  %0 = hlo.exponential %a {result_accuracy = {ulps = 1.0 : f64}} : (tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @f(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // expected-error @+1 {{attribute 'domain' failed to satisfy constraint: domain (kind a string, entry and exit shardings)}}
  %0 = hlo.domain %a {domain = {kind = "sharding", entry = "maximal"}} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @f(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // expected-error @+1 {{attribute 'literal' failed to satisfy constraint: typed literal (an HLO shape and a value)}}
  %0 = hlo.custom_call %a {custom_call_target = "t", literal = {value = dense<1> : tensor<2xi32>}} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @f(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // expected-error @+1 {{'hlo.custom_call' op literal of type 'tensor<2xi32>' does not match 'tensor<3xi32>'}}
  %0 = hlo.custom_call %a {custom_call_target = "t", literal = {shape = tensor<3xi32>, value = dense<1> : tensor<2xi32>}} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}
