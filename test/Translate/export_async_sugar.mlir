// The exporter prints `op-start`/`op-update`/`op-done` for an async chain
// whose computation is a single instruction applied to the parameters in
// order and called by nothing else; that computation is then not printed.
// Other chains keep the explicit async-start(..., calls=...) form.
// RUN: hlo-translate --mlir-to-hlo %s | FileCheck %s
// RUN: hlo-translate --mlir-to-hlo %s --async-sugar=false | FileCheck %s --check-prefix=EXPLICIT
// RUN: hlo-translate --mlir-to-hlo %s | hlo-translate --hlo-to-mlir --mlir-print-debuginfo=false | FileCheck %s --check-prefix=MLIR

// CHECK-NOT: %single
// CHECK-LABEL: {{^}}%multi ({{Arg_0[.0-9]*}}: f32[4]) -> f32[4] {
// CHECK-LABEL: {{^}}%shared ({{Arg_0[.0-9]*}}: f32[4]) -> f32[4] {
// CHECK-LABEL: {{^}}%swapped ({{Arg_0[.0-9]*}}: f32[4], {{Arg_1[.0-9]*}}: f32[4]) -> f32[4] {
// CHECK-LABEL: ENTRY %main (a: f32[4], b: f32[4]) -> (f32[4], f32[4], f32[4], f32[4], f32[4]) {
// CHECK-NEXT: %a = f32[4] parameter(0)
// CHECK-NEXT: %b = f32[4] parameter(1)
// CHECK-NEXT: %s1 = ((f32[4]), f32[4], s32[]) negate-start(%a){{$}}
// CHECK-NEXT: %u1 = ((f32[4]), f32[4], s32[]) negate-update(%s1){{$}}
// CHECK-NEXT: %d1 = f32[4] negate-done(%u1){{$}}
// CHECK-NEXT: %s2 = ((f32[4]), f32[4], s32[]) async-start(%a), calls=%multi{{$}}
// CHECK-NEXT: %d2 = f32[4] async-done(%s2){{$}}
// CHECK-NEXT: %s3 = ((f32[4]), f32[4], s32[]) async-start(%a), calls=%shared{{$}}
// CHECK-NEXT: %d3 = f32[4] async-done(%s3){{$}}
// CHECK-NEXT: %s4 = ((f32[4]), f32[4], s32[]) async-start(%b), calls=%shared{{$}}
// CHECK-NEXT: %d4 = f32[4] async-done(%s4){{$}}
// CHECK-NEXT: %s5 = ((f32[4], f32[4]), f32[4], s32[]) async-start(%a, %b), calls=%swapped{{$}}
// CHECK-NEXT: %d5 = f32[4] async-done(%s5){{$}}
// CHECK-NOT: %single

// EXPLICIT: {{^}}%single ({{Arg_0[.0-9]*}}: f32[4]) -> f32[4] {
// EXPLICIT: %s1 = ((f32[4]), f32[4], s32[]) async-start(%a), calls=%single{{$}}
// EXPLICIT-NEXT: %u1 = ((f32[4]), f32[4], s32[]) async-update(%s1){{$}}
// EXPLICIT-NEXT: %d1 = f32[4] async-done(%u1){{$}}

// Reading the sugar back gives an equivalent chain around a new wrapper.
// MLIR: hlo.computation private @s1.wrapped(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// MLIR-NEXT: negate %arg0
// MLIR: async_start %arg0 {calls = @s1.wrapped}

#a = loc("a")
#b = loc("b")
module @export_async {
  hlo.computation @single(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = negate %arg0 : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  hlo.computation @multi(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = negate %arg0 : (tensor<4xf32>) -> tensor<4xf32>
    %1 = exponential %0 : (tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  hlo.computation @shared(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = abs %arg0 : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  hlo.computation @swapped(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
    %0 = subtract %arg1, %arg0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  hlo.computation @main(%a: tensor<4xf32> loc(#a), %b: tensor<4xf32> loc(#b)) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {entry} {
    %s1 = async_start %a {calls = @single} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>> loc("s1")
    %u1 = async_update %s1 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>> loc("u1")
    %d1 = async_done %u1 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>) -> tensor<4xf32> loc("d1")
    %s2 = async_start %a {calls = @multi} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>> loc("s2")
    %d2 = async_done %s2 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>) -> tensor<4xf32> loc("d2")
    %s3 = async_start %a {calls = @shared} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>> loc("s3")
    %d3 = async_done %s3 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>) -> tensor<4xf32> loc("d3")
    %s4 = async_start %b {calls = @shared} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>> loc("s4")
    %d4 = async_done %s4 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>) -> tensor<4xf32> loc("d4")
    %s5 = async_start %a, %b {calls = @swapped} : (tensor<4xf32>, tensor<4xf32>) -> tuple<tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>, tensor<i32>> loc("s5")
    %d5 = async_done %s5 : (tuple<tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>, tensor<i32>>) -> tensor<4xf32> loc("d5")
    %t = tuple %d1, %d2, %d3, %d4, %d5 : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> loc("t")
    return %t : tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
  }
}
