// The exporter names instructions after the NameLoc in their location and
// prints `metadata={...}` from the dictionary of a fused location: known
// fields first in XLA's order, then the others. A fused location without a
// dictionary prints no metadata.
// RUN: hlo-translate --mlir-to-hlo %s | FileCheck %s
// RUN: hlo-translate --mlir-to-hlo %s | hlo-translate --hlo-to-mlir | FileCheck %s --check-prefix=MLIR

// CHECK: ENTRY %main (a: f32[4]) -> f32[4] {
// CHECK-NEXT: %a = f32[4] parameter(0), metadata={op_name="arg"}{{$}}
// CHECK-NEXT: %n = f32[4] negate(%a), metadata={op_type="neg" op_name="jit(f)/neg" source_file="f.py" source_line=7 custom_key="v"}{{$}}
// CHECK-NEXT: %e = f32[4] exponential(%n), metadata={op_name="e" source_line=3 stack_frame_id=2}{{$}}
// CHECK-NEXT: %s = f32[4] sqrt(%e){{$}}
// CHECK-NEXT: ROOT %abs = f32[4] abs(%s){{$}}

// Reimported, the metadata is a fused location again.
// MLIR-DAG: loc(fused<{custom_key = "v", op_name = "jit(f)/neg", op_type = "neg", source_file = "f.py", source_line = 7 : i64}>[#{{loc[0-9]+}}])
// MLIR-DAG: loc(fused<{op_name = "e", source_line = 3 : i64, stack_frame_id = 2 : i64}>[#{{loc[0-9]+}}])

module @export_metadata {
  hlo.computation @main(%arg0: tensor<4xf32> loc(fused<{op_name = "arg"}>["a"])) -> tensor<4xf32> attributes {entry} {
    %0 = negate %arg0 : (tensor<4xf32>) -> tensor<4xf32> loc(fused<{source_line = 7 : i64, custom_key = "v", source_file = "f.py", op_name = "jit(f)/neg", op_type = "neg"}>["n"])
    %1 = exponential %0 : (tensor<4xf32>) -> tensor<4xf32> loc(fused<{stack_frame_id = 2 : i64, source_line = 3 : i64, op_name = "e"}>["e"])
    %2 = sqrt %1 : (tensor<4xf32>) -> tensor<4xf32> loc(fused["s", "t"])
    %3 = abs %2 : (tensor<4xf32>) -> tensor<4xf32>
    return %3 : tensor<4xf32>
  }
}
