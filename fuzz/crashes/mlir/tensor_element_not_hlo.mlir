// expect: error
// Tensors HLO has no shape for (unranked, index and i7 elements): the
// exporter printed shapes with no element type, which do not import.
hlo.computation @main(%a: tensor<f32>) -> tensor<f32> attributes {entry} {
  %0 = hlo.custom_call %a {custom_call_target = "x"} : (tensor<f32>) -> tensor<2xi7>
  %1 = hlo.custom_call %0 {custom_call_target = "x"} : (tensor<2xi7>) -> tensor<f32>
  hlo.return %1 : tensor<f32>
}
