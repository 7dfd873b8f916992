// expect: ok
// A module name with `&`, which HLO identifiers cannot hold: printed as is.
"builtin.module"() <{sym_name = "ParseC64L&teral"}> ({
  "hlo.computation"() <{entry, function_type = () -> tensor<2xcomplex<f32>, #hlo.layout<[0]>>, sym_name = "ParseC64Literal"}> ({
    %0 = "hlo.constant"() <{value = dense<[(1.000000e+00,2.000000e+00), (0xFF800000,0x7FC00000)]> : tensor<2xcomplex<f32>>}> : () -> tensor<2xcomplex<f32>, #hlo.layout<[0]>>
    "hlo.return"(%0) : (tensor<2xcomplex<f32>, #hlo.layout<[0]>>) -> ()
  }) : () -> ()
}) {hlo.entry_computation_layout = () -> tensor<2xcomplex<f32>, #hlo.layout<[0]>>} : () -> ()

