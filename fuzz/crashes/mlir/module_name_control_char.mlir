// expect: ok
// A module name with a control character: printed as is after `HloModule`.
// Module names are now sanitized like computation names.
"builtin.module"() <{sym_name = "outfeedmodule"}> ({
  "hlo.computation"() <{entry, function_type = () -> tuple<tuple<tensor<3xui32, #hlo.layout<[0]>>, tensor<i1>>, !hlo.token>, sym_name = "InfeedToOutfeed"}> ({
    %0 = "hlo.after_all"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> !hlo.token
    %1 = "hlo.infeed"(%0) : (!hlo.token) -> tuple<tuple<tensor<3xui32, #hlo.layout<[0]>>, tensor<i1>>, !hlo.token>
    %2 = "hlo.get_tuple_element"(%1) <{index = 0 : i64}> : (tuple<tuple<tensor<3xui32, #hlo.layout<[0]>>, tensor<i1>>, !hlo.token>) -> tuple<tensor<3xui32, #hlo.layout<[0]>>, tensor<i1>>
    %3 = "hlo.outfeed"(%2, %0) <{outfeed_shape = tuple<tensor<3xui32, #hlo.layout<[0]>>, tensor<i1>>}> : (tuple<tensor<3xui32, #hlo.layout<[0]>>, tensor<i1>>, !hlo.token) -> !hlo.token
    %4 = "hlo.infeed"(%0) : (!hlo.token) -> tuple<tuple<tensor<3xui32, #hlo.layout<[0]>>, tensor<i1>>, !hlo.token>
    %5 = "hlo.get_tuple_element"(%4) <{index = 0 : i64}> : (tuple<tuple<tensor<3xui32, #hlo.layout<[0]>>, tensor<i1>>, !hlo.token>) -> tuple<tensor<3xui32, #hlo.layout<[0]>>, tensor<i1>>
    %6 = "hlo.get_tuple_element"(%4) <{index = 1 : i64}> : (tuple<tuple<tensor<3xui32, #hlo.layout<[0]>>, tensor<i1>>, !hlo.token>) -> !hlo.token
    %7 = "hlo.outfeed"(%5, %6) <{outfeed_shape = tuple<tensor<3xui32, #hlo.layout<[0]>>, tensor<i1>>}> : (tuple<tensor<3xui32, #hlo.layout<[0]>>, tensor<i1>>, !hlo.token) -> !hlo.token
    "hlo.return"(%4) : (tuple<tuple<tensor<3xui32, #hlo.layout<[0]>>, tensor<i1>>, !hlo.token>) -> ()
  }) : () -> ()
}) {hlo.entry_computation_layout = () -> tuple<tuple<tensor<3xui32, #hlo.layout<[0]>>, tensor<i1>>, !hlo.token>} : () -> ()

