// Values without a name (or whose name repeats within a computation) are
// named `<base>`, `<base>.1`, `<base>.2`, ...: the first of these that no
// other value of the module holds, in the order of the module. Names from
// locations are taken first and kept as they are (two computations may
// share one).
// RUN: hlo-translate --mlir-to-hlo %s | FileCheck %s

// CHECK-LABEL: %helper (Arg_0.1: f32[]) -> f32[] {
// CHECK-NEXT: %Arg_0.1 = f32[] parameter(0)
// CHECK-NEXT: %add.1 = f32[] add(%Arg_0.1, %Arg_0.1)
// CHECK-NEXT: ROOT %add = f32[] add(%add.1, %add.1)

// CHECK-LABEL: ENTRY %main (add.2: f32[], Arg_1: f32[]) -> f32[] {
// CHECK-NEXT: %add.2 = f32[] parameter(0)
// CHECK-NEXT: %Arg_1 = f32[] parameter(1)
// CHECK-NEXT: %add.3 = f32[] add(%add.2, %Arg_1)
// CHECK-NEXT: %add = f32[] add(%add.3, %add.3)
// CHECK-NEXT: %add.4 = f32[] add(%add, %add)
// CHECK-NEXT: %add.5 = f32[] add(%add.4, %add.4)
// CHECK-NEXT: %Arg_0 = f32[] negate(%add.5)
// CHECK-NEXT: %call = f32[] call(%Arg_0), to_apply=%helper
// CHECK-NEXT: %call.1 = f32[] call(%call), to_apply=%helper
// CHECK-NEXT: ROOT %add.6 = f32[] add(%call.1, %call.1)

#unknown = loc(unknown)
module @names {
  hlo.computation @helper(%arg0: tensor<f32> loc(#unknown)) -> tensor<f32> {
    %0 = add %arg0, %arg0 : (tensor<f32>, tensor<f32>) -> tensor<f32> loc(#unknown)
    %1 = add %0, %0 : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("add")
    return %1 : tensor<f32> loc(#unknown)
  } loc(#unknown)
  hlo.computation @main(%arg0: tensor<f32> loc("add.2"), %arg1: tensor<f32> loc(#unknown)) -> tensor<f32> attributes {entry} {
    %0 = add %arg0, %arg1 : (tensor<f32>, tensor<f32>) -> tensor<f32> loc(#unknown)
    %1 = add %0, %0 : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("add")
    %2 = add %1, %1 : (tensor<f32>, tensor<f32>) -> tensor<f32> loc(#unknown)
    %3 = add %2, %2 : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("add")
    %4 = negate %3 : (tensor<f32>) -> tensor<f32> loc("Arg_0")
    %5 = call %4 {to_apply = @helper} : (tensor<f32>) -> tensor<f32> loc(#unknown)
    %6 = call %5 {to_apply = @helper} : (tensor<f32>) -> tensor<f32> loc(#unknown)
    %7 = add %6, %6 : (tensor<f32>, tensor<f32>) -> tensor<f32> loc(#unknown)
    return %7 : tensor<f32> loc(#unknown)
  } loc(#unknown)
} loc(#unknown)
