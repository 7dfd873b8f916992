// A custom-call literal's array shape without a layout is printed with the
// default one: XLA's parser reads a `{` after the shape as its layout, so
// `s32[2,2] {{7, 8}, ...}` would not be read back.
// RUN: hlo-translate --mlir-to-hlo %s | FileCheck %s
// RUN: %if jaxlib %{ hlo-translate --mlir-to-hlo %s -o %t.hlo && %python %S/../xla/xla_parse.py %t.hlo > /dev/null %}

// CHECK: literal=( s32[2,2]{1,0} { {{[{]}}7, 8}, {9, 10} }, s32[] 3 )
module {
  hlo.computation @e() -> tensor<1xf32> attributes {entry} {
    %0 = constant {value = dense<1.000000e+00> : tensor<1xf32>} : () -> tensor<1xf32>
    %1 = custom_call %0 {custom_call_target = "f", literal = {shape = tuple<tensor<2x2xi32>, tensor<i32>>, value = [dense<[[7, 8], [9, 10]]> : tensor<2x2xi32>, dense<3> : tensor<i32>]}} : (tensor<1xf32>) -> tensor<1xf32>
    return %1 : tensor<1xf32>
  }
}
