// expect: export-error
// An op of another dialect inside a computation: the exporter printed it as
// an instruction whose opcode HLO does not have.
hlo.computation @main(%a: tensor<f32>) -> tensor<f32> attributes {entry} {
  %0 = builtin.unrealized_conversion_cast %a : tensor<f32> to tensor<f32>
  hlo.return %0 : tensor<f32>
}
