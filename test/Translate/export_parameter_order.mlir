// Parameters are printed before their first use, whatever the locations say:
// XLA rejects an operand that names an instruction defined further down.
// @no_positions: the ops carry only NameLocs (no file position) while the
// block argument has the position of this .mlir file.
// @late_position: the parameter's location is after its user's.
// RUN: hlo-translate --mlir-to-hlo %s | FileCheck %s

// CHECK-LABEL: {{^}}%no_positions (Arg_0: f32[]) -> f32[] {
// CHECK-NEXT: %Arg_0 = f32[] parameter(0)
// CHECK-NEXT: ROOT %n = f32[] negate(%Arg_0)
// CHECK-NEXT: }

// CHECK-LABEL: {{^}}ENTRY %late_position (a: f32[]) -> f32[] {
// CHECK-NEXT: %a = f32[] parameter(0)
// CHECK-NEXT: %m = f32[] call(%a), to_apply=%no_positions
// CHECK-NEXT: ROOT %e = f32[] exponential(%m)
// CHECK-NEXT: }

module {
  hlo.computation @no_positions(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = negate %arg0 : (tensor<f32>) -> tensor<f32> loc("n")
    return %0 : tensor<f32>
  }
  hlo.computation @late_position(%arg0: tensor<f32> loc("a"("in.hlo":9:3))) -> tensor<f32> attributes {entry} {
    %0 = call %arg0 {to_apply = @no_positions} : (tensor<f32>) -> tensor<f32> loc("m"("in.hlo":5:3))
    %1 = exponential %0 : (tensor<f32>) -> tensor<f32> loc("e"("in.hlo":10:3))
    return %1 : tensor<f32>
  }
}
