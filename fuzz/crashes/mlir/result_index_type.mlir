// expect: error
// An instruction result of type index: the exporter crashed (SIGSEGV).
hlo.computation @main(%a: tensor<f32>) -> index attributes {entry} {
  %0 = hlo.custom_call %a {custom_call_target = "x"} : (tensor<f32>) -> index
  hlo.return %0 : index
}
