// expect: error
// A vector-typed value between two instructions: the exporter crashed.
hlo.computation @main(%a: tensor<f32>) -> tensor<f32> attributes {entry} {
  %0 = hlo.custom_call %a {custom_call_target = "x"} : (tensor<f32>) -> vector<2xf32>
  %1 = hlo.custom_call %0 {custom_call_target = "x"} : (vector<2xf32>) -> tensor<f32>
  hlo.return %1 : tensor<f32>
}
