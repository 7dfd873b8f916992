// Instruction names come from NameLocs; values without one are named after
// their opcode (`Arg_N` for parameters). A name repeated within a
// computation gets a suffix; computations may reuse each other's names.
// Names that are not valid HLO identifiers must be made valid (XLA names are
// [A-Za-z_][A-Za-z0-9_.-]*), e.g. JAX-style "jit(f)/add".
// RUN: hlo-translate --mlir-to-hlo %s | FileCheck %s
// RUN: hlo-translate --mlir-to-hlo %s | hlo-translate --hlo-to-mlir --mlir-print-debuginfo=false | FileCheck %s --check-prefix=MLIR

// CHECK: HloModule module_main,
// CHECK-LABEL: {{^}}%helper (Arg_0: f32[]) -> f32[] {
// CHECK-NEXT: %Arg_0 = f32[] parameter(0)
// CHECK-NEXT: ROOT %n = f32[] negate(%Arg_0)
// CHECK: {{^}}ENTRY %main ([[A0:Arg_0[.0-9]*]]: f32[], b: f32[]) -> (f32[], f32[], f32[], f32[]) {
// CHECK-NEXT: %[[A0]] = f32[] parameter(0)
// CHECK-NEXT: %b = f32[] parameter(1)
// CHECK-NEXT: %n = f32[] negate(%[[A0]])
// CHECK-NEXT: %[[N1:n[.0-9_]+]] = f32[] negate(%n)
// CHECK-NEXT: %call = f32[] call(%[[N1]]), to_apply=%helper
// CHECK-NEXT: %[[ADD:[A-Za-z_][A-Za-z0-9_.-]*]] = f32[] add(%call, %b)
// CHECK-NEXT: ROOT %tuple = (f32[], f32[], f32[], f32[]) tuple(%n, %[[N1]], %call, %[[ADD]])

// MLIR: hlo.computation @main
// MLIR: tuple

#unknown = loc(unknown)
module {
  hlo.computation @helper(%arg0: tensor<f32> loc(#unknown)) -> tensor<f32> {
    %0 = negate %arg0 : (tensor<f32>) -> tensor<f32> loc("n")
    return %0 : tensor<f32> loc(#unknown)
  } loc(#unknown)
  hlo.computation @main(%arg0: tensor<f32> loc(#unknown), %arg1: tensor<f32> loc("b")) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>> attributes {entry} {
    %0 = negate %arg0 : (tensor<f32>) -> tensor<f32> loc("n")
    %1 = negate %0 : (tensor<f32>) -> tensor<f32> loc("n")
    %2 = call %1 {to_apply = @helper} : (tensor<f32>) -> tensor<f32> loc(#unknown)
    %3 = add %2, %arg1 : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("jit(f)/add 1")
    %4 = tuple %0, %1, %2, %3 : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>> loc(#unknown)
    return %4 : tuple<tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>> loc(#unknown)
  } loc(#unknown)
} loc(#unknown)
