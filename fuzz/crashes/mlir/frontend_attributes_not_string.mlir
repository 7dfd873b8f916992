// expect: error
// A frontend_attributes entry without a value (a unit attribute; the fuzzer
// cut `_xla_host_transfer_handler_name = "..."` short): the exporter cast it
// to a string (assertion). The dictionary-valued instruction attributes are
// now typed constraints checked entry by entry (HloOps.td, Hlo_DictAttr).
hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  %0 = hlo.negate %a {frontend_attributes = {_xla_host_transfer_handler_n, _xla_host_transfer_rendezvous = "_foo_dtoh_0"}} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}
