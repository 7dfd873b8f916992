// RUN: hlo-opt %s | FileCheck %s
// RUN: hlo-opt %s | hlo-opt | FileCheck %s

// #hlo.backend_config parses and prints back: members in their order,
// typed values for the members the dialect knows, #hlo.text for the others,
// nested messages as `{...}`.

// CHECK-LABEL: hlo.computation @main
hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // CHECK: backend_config = #hlo.backend_config<{operation_queue_id = 3 : i64, fusion_backend_config = {kind = "kLoop", block_level_fusion_config = {output_tiles = [{sizes = array<i64: 4>}, {sizes = array<i64>}], num_warps = 4 : i64, num_ctas = 1 : i32}}, device_type = #hlo.text<"\22DEVICE_TYPE_INVALID\22">}>
  %0 = hlo.negate %a {backend_config = #hlo.backend_config<{operation_queue_id = 3 : i64, fusion_backend_config = {kind = "kLoop", block_level_fusion_config = {output_tiles = [{sizes = array<i64: 4>}, {sizes = array<i64>}], num_warps = 4 : i64, num_ctas = 1 : i32}}, device_type = #hlo.text<"\22DEVICE_TYPE_INVALID\22">}>} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: backend_config = #hlo.backend_config<quoted {known_trip_count = {n = 7 : i64}}>
  %1 = hlo.negate %0 {backend_config = #hlo.backend_config<quoted {known_trip_count = {n = 7 : i64}}>} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: backend_config = #hlo.backend_config<{}>
  %2 = hlo.negate %1 {backend_config = #hlo.backend_config<{}>} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: backend_config = #hlo.backend_config<{gemm_backend_config = {alpha_real = 1.000000e+00 : f64, precision_config = {operand_precision = ["DEFAULT", "HIGHEST"]}}, "odd key" = #hlo.text<"1">}>
  %3 = hlo.negate %2 {backend_config = #hlo.backend_config<{gemm_backend_config = {alpha_real = 1.0 : f64, precision_config = {operand_precision = ["DEFAULT", "HIGHEST"]}}, "odd key" = #hlo.text<"1">}>} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %3 : tensor<4xf32>
}
