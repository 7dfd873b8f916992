// expect: error
// hlo.buffer_donor on a module whose entry computation has no function_type
// (the fuzzer misspelled it `fuNction_type`): the module's attributes are
// verified before its computations, and the aliasing check read the missing
// type (SIGSEGV). It now leaves that computation to its own verifier.
"builtin.module"() ({
  "hlo.computation"() <{entry, fuNction_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<4xf32>):
    "hlo.return"(%arg0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) {hlo.buffer_donor = [#hlo.buffer_donor<parameter = 2, parameter_index = []>]} : () -> ()
