// expect: error
// A header attribute of a kind the exporter does not print: `replica_count=`
// with no value, which does not import.
module attributes {hlo.replica_count = "two"} {
  hlo.computation @main(%a: tensor<f32>) -> tensor<f32> attributes {entry} {
    hlo.return %a : tensor<f32>
  }
}
