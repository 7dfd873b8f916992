// expect: ok
// A computation symbol that is not an HLO identifier (a non-ASCII byte): the
// exporter printed it as is. Computation names are now sanitized (`_` for
// such characters) and kept unique.
"builtin.module"() <{sym_name = "OperandVmem"}> ({
  "hlo.computation"() <{entry, function_type = (tensor<2x2xf32, #hlo.layout<[0, 1]>>) -> tensor<2x2xf32, #hlo.layout<[0, 1]>>, sym_name = "ma”in"}> ({
  ^bb0(%arg0: tensor<2x2xf32, #hlo.layout<[0, 1]>>):
    %0 = "hlo.copy"(%arg0) : (tensor<2x2xf32, #hlo.layout<[0, 1]>>) -> tensor<2x2xf32, #hlo.layout<[0, 1], memory_space = 1>>
    %1 = "hlo.custom_call"(%0) <{custom_call_target = "some_target", operandSegmentSizes = array<i32: 1, 0>, operand_layout_constraints = [tensor<2x2xf32, #hlo.layout<[0, 1], memory_space = 1>>]}> : (tensor<2x2xf32, #hlo.layout<[0, 1], memory_space = 1>>) -> tensor<2x2xf32, #hlo.layout<[0, 1]>>
    "hlo.return"(%1) : (tensor<2x2xf32, #hlo.layout<[0, 1]>>) -> ()
  }) : () -> ()
}) : () -> ()

