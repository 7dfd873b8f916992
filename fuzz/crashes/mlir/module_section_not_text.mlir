// expect: error
// A section whose entries are not #hlo.text: the exporter cast them.
module attributes {hlo.section.StackFrames = [1, 2]} {
  hlo.computation @main(%a: tensor<f32>) -> tensor<f32> attributes {entry} {
    hlo.return %a : tensor<f32>
  }
}
