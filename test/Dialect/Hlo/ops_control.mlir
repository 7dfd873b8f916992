// RUN: hlo-opt %s | hlo-opt | FileCheck %s

// Tuples, calls, fusion, map, while, conditional, custom_call and the
// ordering ops. Called computations are symbol references.

// CHECK-LABEL: hlo.computation @add
hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// CHECK-LABEL: hlo.computation @tuples
hlo.computation @tuples(%a: tensor<2xf32>, %b: tensor<i32>) -> tensor<i32> {
  // CHECK: %0 = tuple %arg0, %arg1 : (tensor<2xf32>, tensor<i32>) -> tuple<tensor<2xf32>, tensor<i32>>
  %0 = hlo.tuple %a, %b : (tensor<2xf32>, tensor<i32>) -> tuple<tensor<2xf32>, tensor<i32>>
  // CHECK: %1 = tuple %0, %arg1 : (tuple<tensor<2xf32>, tensor<i32>>, tensor<i32>) -> tuple<tuple<tensor<2xf32>, tensor<i32>>, tensor<i32>>
  %1 = hlo.tuple %0, %b : (tuple<tensor<2xf32>, tensor<i32>>, tensor<i32>) -> tuple<tuple<tensor<2xf32>, tensor<i32>>, tensor<i32>>
  // CHECK: %2 = get_tuple_element %1 {index = 0 : i64} : (tuple<tuple<tensor<2xf32>, tensor<i32>>, tensor<i32>>) -> tuple<tensor<2xf32>, tensor<i32>>
  %2 = hlo.get_tuple_element %1 {index = 0 : i64} : (tuple<tuple<tensor<2xf32>, tensor<i32>>, tensor<i32>>) -> tuple<tensor<2xf32>, tensor<i32>>
  // CHECK: %3 = get_tuple_element %2 {index = 1 : i64} : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
  %3 = hlo.get_tuple_element %2 {index = 1 : i64} : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
  // The empty tuple.
  // CHECK: %4 = tuple : () -> tuple<>
  %4 = hlo.tuple : () -> tuple<>
  hlo.return %3 : tensor<i32>
}

// CHECK-LABEL: hlo.computation @calls
hlo.computation @calls(%a: tensor<f32>, %v: tensor<4xf32>) -> tensor<f32> {
  // CHECK: %0 = call %arg0, %arg0 {to_apply = @add} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %0 = hlo.call %a, %a {to_apply = @add} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK: %1 = call %0, %arg0 {is_composite = true, to_apply = @add} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = hlo.call %0, %a {to_apply = @add, is_composite = true} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK: %2 = fusion %1, %arg0 {calls = @add, kind = #hlo<fusion_kind kLoop>} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %2 = hlo.fusion %1, %a {kind = #hlo<fusion_kind kLoop>, calls = @add} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK: %3 = map %arg1, %arg1 {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = hlo.map %v, %v {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  hlo.return %2 : tensor<f32>
}

// A parameterless computation called with no operands.
hlo.computation @seven() -> tensor<i32> {
  %0 = hlo.constant {value = dense<7> : tensor<i32>} : () -> tensor<i32>
  hlo.return %0 : tensor<i32>
}

// CHECK-LABEL: hlo.computation @call_no_operands
hlo.computation @call_no_operands() -> tensor<i32> {
  // CHECK: %0 = call  {to_apply = @seven} : () -> tensor<i32>
  %0 = hlo.call {to_apply = @seven} : () -> tensor<i32>
  hlo.return %0 : tensor<i32>
}

hlo.computation @cond(%s: tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i1> {
  %i = hlo.get_tuple_element %s {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
  %n = hlo.constant {value = dense<10> : tensor<i32>} : () -> tensor<i32>
  %0 = hlo.compare %i, %n {direction = #hlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
  hlo.return %0 : tensor<i1>
}

hlo.computation @body(%s: tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>> {
  %i = hlo.get_tuple_element %s {index = 0 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<i32>
  %x = hlo.get_tuple_element %s {index = 1 : i64} : (tuple<tensor<i32>, tensor<4xf32>>) -> tensor<4xf32>
  %one = hlo.constant {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %j = hlo.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %0 = hlo.tuple %j, %x : (tensor<i32>, tensor<4xf32>) -> tuple<tensor<i32>, tensor<4xf32>>
  hlo.return %0 : tuple<tensor<i32>, tensor<4xf32>>
}

// CHECK-LABEL: hlo.computation @while
hlo.computation @while(%s: tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>> {
  // CHECK: %0 = while %arg0 {backend_config = #hlo.text<"{\22known_trip_count\22:{\22n\22:\2210\22}}">, body = @body, condition = @cond} : (tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>>
  %0 = hlo.while %s {condition = @cond, body = @body, backend_config = #hlo.text<"{\"known_trip_count\":{\"n\":\"10\"}}">} : (tuple<tensor<i32>, tensor<4xf32>>) -> tuple<tensor<i32>, tensor<4xf32>>
  hlo.return %0 : tuple<tensor<i32>, tensor<4xf32>>
}

hlo.computation @negate(%x: tensor<f32>) -> tensor<f32> {
  %0 = hlo.negate %x : (tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @sum2(%t: tuple<tensor<f32>, tensor<f32>>) -> tensor<f32> {
  %a = hlo.get_tuple_element %t {index = 0 : i64} : (tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>
  %b = hlo.get_tuple_element %t {index = 1 : i64} : (tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// CHECK-LABEL: hlo.computation @conditional
hlo.computation @conditional(%p: tensor<i1>, %i: tensor<i32>, %x: tensor<f32>, %t: tuple<tensor<f32>, tensor<f32>>) -> tensor<f32> {
  // CHECK: %0 = conditional %arg0, %arg2, %arg2 {false_computation = @negate, true_computation = @negate} : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %0 = hlo.conditional %p, %x, %x {true_computation = @negate, false_computation = @negate} : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK: %1 = conditional %arg1, %arg2, %arg3, %0 {branch_computations = [@negate, @sum2, @negate]} : (tensor<i32>, tensor<f32>, tuple<tensor<f32>, tensor<f32>>, tensor<f32>) -> tensor<f32>
  %1 = hlo.conditional %i, %x, %t, %0 {branch_computations = [@negate, @sum2, @negate]} : (tensor<i32>, tensor<f32>, tuple<tensor<f32>, tensor<f32>>, tensor<f32>) -> tensor<f32>
  hlo.return %1 : tensor<f32>
}

// CHECK-LABEL: hlo.computation @custom_call
hlo.computation @custom_call(%a: tensor<2x3xf32>, %b: tensor<f32>) -> tuple<tensor<2x3xf32>, tensor<i8>> {
  // CHECK: %0 = custom_call %arg0, %arg1 {api_version = #hlo<api_version API_VERSION_TYPED_FFI>, backend_config = "{alpha=1}", called_computations = [@add], custom_call_has_side_effect = true, custom_call_target = "my_target", operand_layout_constraints = [tensor<2x3xf32, #hlo.layout<[0, 1]>>, tensor<f32>],
  // CHECK-SAME: output_to_operand_aliasing = [#hlo.output_operand_alias<output_index = [0], operand = 0, operand_index = []>], schedule = #hlo<schedule SCHEDULE_LATEST>} : (tensor<2x3xf32>, tensor<f32>) -> tuple<tensor<2x3xf32>, tensor<i8>>
  %0 = hlo.custom_call %a, %b {custom_call_target = "my_target", api_version = #hlo<api_version API_VERSION_TYPED_FFI>, custom_call_has_side_effect = true, backend_config = "{alpha=1}", called_computations = [@add], operand_layout_constraints = [tensor<2x3xf32, #hlo.layout<[0, 1]>>, tensor<f32>], output_to_operand_aliasing = [#hlo.output_operand_alias<output_index = [0], operand = 0, operand_index = []>], schedule = #hlo<schedule SCHEDULE_LATEST>} : (tensor<2x3xf32>, tensor<f32>) -> tuple<tensor<2x3xf32>, tensor<i8>>
  // A custom call may produce anything, a token included.
  // CHECK: %1 = custom_call  {custom_call_target = "Sharding"} : () -> !hlo.token
  %1 = hlo.custom_call {custom_call_target = "Sharding"} : () -> !hlo.token
  hlo.return %0 : tuple<tensor<2x3xf32>, tensor<i8>>
}

// CHECK-LABEL: hlo.computation @ordering
hlo.computation @ordering(%x: tensor<4xf32>, %t0: !hlo.token, %t1: !hlo.token) -> tensor<4xf32> {
  // CHECK: %0 = after_all %arg1, %arg2 : (!hlo.token, !hlo.token) -> !hlo.token
  %0 = hlo.after_all %t0, %t1 : (!hlo.token, !hlo.token) -> !hlo.token
  // CHECK: %1 = after_all  : () -> !hlo.token
  %1 = hlo.after_all : () -> !hlo.token
  // CHECK: %2 = add_dependency %arg0, %0 : (tensor<4xf32>, !hlo.token) -> tensor<4xf32>
  %2 = hlo.add_dependency %x, %0 : (tensor<4xf32>, !hlo.token) -> tensor<4xf32>
  // CHECK: %3 = opt_barrier %2 : (tensor<4xf32>) -> tensor<4xf32>
  %3 = hlo.opt_barrier %2 : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: %4 = domain %3 {domain = {entry = #hlo.sharding<"{maximal device=0}">, exit = #hlo.sharding<"{maximal device=1}">, kind = "sharding"}} : (tensor<4xf32>) -> tensor<4xf32>
  %4 = hlo.domain %3 {domain = {kind = "sharding", entry = #hlo.sharding<"{maximal device=0}">, exit = #hlo.sharding<"{maximal device=1}">}} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %4 : tensor<4xf32>
}

// -----
// Side-effecting ops are not Pure: CSE keeps both infeeds.
// RUN: hlo-opt %s --split-input-file --cse | FileCheck %s --check-prefix=CSE
// CSE-LABEL: hlo.computation @two_infeeds
// CSE-COUNT-2: infeed
hlo.computation @two_infeeds(%t: !hlo.token) -> tuple<tuple<tensor<4xf32>, !hlo.token>, tuple<tensor<4xf32>, !hlo.token>> attributes {entry} {
  %0 = hlo.infeed %t : (!hlo.token) -> tuple<tensor<4xf32>, !hlo.token>
  %1 = hlo.infeed %t : (!hlo.token) -> tuple<tensor<4xf32>, !hlo.token>
  %2 = hlo.tuple %0, %1 : (tuple<tensor<4xf32>, !hlo.token>, tuple<tensor<4xf32>, !hlo.token>) -> tuple<tuple<tensor<4xf32>, !hlo.token>, tuple<tensor<4xf32>, !hlo.token>>
  hlo.return %2 : tuple<tuple<tensor<4xf32>, !hlo.token>, tuple<tensor<4xf32>, !hlo.token>>
}
