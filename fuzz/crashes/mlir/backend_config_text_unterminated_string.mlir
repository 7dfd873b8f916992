// expect: error
// A #hlo.text backend_config whose text is not one HLO value (a string not
// terminated): the exporter printed it verbatim and the HLO text did not
// parse. #hlo.text now verifies that its text is one attribute value.
"builtin.module"() <{sym_name = "issue_50004"}> ({
  "hlo.computation"() <{function_type = (tensor<2xf64, #hlo.layout<[0]>>, tensor<2xf64, #hlo.layout<[0]>>) -> tensor<5xf64, #hlo.layout<[0]>>, sym_name = "fused_computation", sv_iimsbyility = "private"}> ({
  ^bb0(%arg2: tensor<2xf64, #hlo.layout<[0]>>, %arg3: tensor<2xf64, #hlo.layout<[0]>>):
    %1 = "hlo.divide"(%arg2, %arg3) : (tensor<2xf64, #hlo.layout<[0]>>, tensor<2xf64, #hlo.layout<[0]>>) -> tensor<2xf64, #hlo.layout<[0]>>
    %2 = "hlo.constant"() <{value = dense<-0.18219733238220215> : tensor<1xf64>}> : () -> tensor<1xf64, #hlo.layout<[0]>>
    %3 = "hlo.concatenate"(%arg2, %1, %2) <{dimensions = array<i64: 0>, operandSegmentSizes = array<i32: 3, 0>}> : (tensor<2xf64, #hlo.layout<[0]>>, tensor<2xf64, #hlo.layout<[0]>>, tensor<1xf64, #hlo.layout<[0]>>) -> tensor<5xf64, #hlo.layout<[0]>>
    "hlo.return"(%3) : (tensor<5xf64, #hlo.layout<[0]>>) -> ()
  }) : () -> ()
  "hlo.computation"() <{entry, function_type = (tensor<2xf64, #hlo.layout<[0]>>, tensor<2xf64, #hlo.layout<[0]>>) -> tensor<5xf64, #hlo.layout<[0]>>, sym_name = "entry_computation"}> ({
  ^bb0(%arg0: tensor<2xf64, #hlo.layout<[0]>>, %arg1: tensor<2xf64, #hlo.layout<[0]>>):
    %0 = "hlo.fusion"(%arg0, %arg1) <{backend_config = #hlo.text<"{\0A      \22operation_queue_id\22:\220\22,\0A      \22fusion_backend_config\22:{\0A        \22kind\22:\22__triton\22,\0A        \22block_level_fusion_config\22:{\0A          \22num_warps\22:\224\22,\0A          \22output_tiles\22:[{\22sizes\22:[\222\22]}],\0A          \22num_ctas\22:1,\0A          \22num_stages\22:1,\0A          \22is_tma_allowed\22:true,\0A          \22is_warp_specialization_allowed\22:false,\0A          \44waves_per_eu\22:0\0A        }\0A      },\0A      \22force_earliest_schedule\22:false,\0A      \22reification_cost\22:[],\0A      \22device_type\22:\22DEVICE_TYPE_INVALID\22\0A    }">, calls = @fused_computation, kind = #hlo<fusion_kind kCustom>, operandSegmentSizes = array<i32: 2, 0>}> : (tensor<2xf64, #hlo.layout<[0]>>, tensor<2xf64, #hlo.layout<[0]>>) -> tensor<5xf64, #hlo.layout<[0]>>
    "hlo.return"(%0) : (tensor<5xf64, #hlo.layout<[0]>>) -> ()
  }) : () -> ()
}) {hlo.entry_computation_layout = (tensor<2xf64, #hlo.layout<[0]>>, tensor<2xf64, #hlo.layout<[0]>>) -> tensor<5xf64, #hlo.layout<[0]>>, hlo.is_scheduled = true} : () -> ()

