// Metadata is found through nested fused locations: fusing two locations
// that carry metadata (`FusedLoc::get`, as a pass that merges ops may do)
// nests them in a fused location without metadata. The first
// dictionary depth first is printed (also under a name location), as the
// name is the first name location depth first.
// RUN: hlo-translate --mlir-to-hlo %s | FileCheck %s

// CHECK: ENTRY %main (a: f32[4]) -> f32[4] {
// CHECK-NEXT: %a = f32[4] parameter(0)
// CHECK-NEXT: %n = f32[4] negate(%a), metadata={op_type="neg" op_name="first"}{{$}}
// CHECK-NEXT: %e = f32[4] exponential(%n), metadata={op_name="deep"}{{$}}
// CHECK-NEXT: %s = f32[4] sqrt(%e), metadata={op_name="named"}{{$}}
// CHECK-NEXT: ROOT %abs = f32[4] abs(%s){{$}}

module @nested_fused {
  hlo.computation @main(%arg0: tensor<4xf32> loc("a")) -> tensor<4xf32> attributes {entry} {
    %0 = negate %arg0 : (tensor<4xf32>) -> tensor<4xf32> loc(fused[fused<{op_name = "first", op_type = "neg"}>["n"], fused<{op_name = "second"}>["m"]])
    %1 = exponential %0 : (tensor<4xf32>) -> tensor<4xf32> loc(fused["e", fused[fused<{op_name = "deep"}>["x"], "y"]])
    %2 = sqrt %1 : (tensor<4xf32>) -> tensor<4xf32> loc("s"(fused<{op_name = "named"}>["t"]))
    %3 = abs %2 : (tensor<4xf32>) -> tensor<4xf32> loc(fused["abs", "u"])
    return %3 : tensor<4xf32>
  }
}
