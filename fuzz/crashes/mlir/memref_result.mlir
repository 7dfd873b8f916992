// expect: error
// A memref result: the exporter printed the computation without its
// instructions.
hlo.computation @main(%a: tensor<f32>) -> memref<2xf32> attributes {entry} {
  %0 = hlo.custom_call %a {custom_call_target = "x"} : (tensor<f32>) -> memref<2xf32>
  hlo.return %0 : memref<2xf32>
}
