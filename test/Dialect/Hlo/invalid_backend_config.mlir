// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// #hlo.backend_config checks its members against what the dialect knows of
// each message.

// expected-error @+1 {{backend_config member 'operation_queue_id' of root has value 1 : i32 of the wrong kind}}
#c = #hlo.backend_config<{operation_queue_id = 1 : i32}>

// -----

// expected-error @+1 {{backend_config member 'kind' of fusion_backend_config has value 1 : i64 of the wrong kind}}
#c = #hlo.backend_config<{fusion_backend_config = {kind = 1 : i64}}>

// -----

// expected-error @+1 {{backend_config member 'reification_cost' is not typed in root and must be an #hlo.text of its JSON}}
#c = #hlo.backend_config<{reification_cost = []}>

// -----

// expected-error @+1 {{backend_config member 'force_earliest_schedule' appears twice}}
#c = #hlo.backend_config<{force_earliest_schedule = true, force_earliest_schedule = false}>

// -----

// expected-error @+1 {{backend_config member 'alpha_real' of gemm_backend_config has value 1.000000e+00 : f32 of the wrong kind}}
#c = #hlo.backend_config<{gemm_backend_config = {alpha_real = 1.0 : f32}}>

// -----

// expected-error @+1 {{backend_config member 'operand_precision' of precision_config has value [1] of the wrong kind}}
#c = #hlo.backend_config<{gemm_backend_config = {precision_config = {operand_precision = [1]}}}>

// -----

// A backend_config is a string, an #hlo.text or an #hlo.backend_config.
hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // expected-error @+1 {{'hlo.negate' op attribute 'backend_config' failed to satisfy constraint}}
  %0 = hlo.negate %a {backend_config = 3 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}
