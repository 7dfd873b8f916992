// expect: error
// hlo.entry_computation_layout that is not a function type: the exporter
// cast it to FunctionType.
module attributes {hlo.entry_computation_layout = i32} {
  hlo.computation @main(%a: tensor<f32>) -> tensor<f32> attributes {entry} {
    hlo.return %a : tensor<f32>
  }
}
