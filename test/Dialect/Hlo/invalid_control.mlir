// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// Computations, tuples, calls, fusion, map, while, conditional and the
// ordering ops.

// expected-error @+1 {{'hlo.computation' op must have exactly one result (its ROOT)}}
hlo.computation @two_results(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  hlo.return %x : tensor<f32>
}

// -----

hlo.computation @root_type(%x: tensor<f32>) -> tensor<i32> {
  // expected-error @+1 {{'hlo.return' op ROOT type 'tensor<f32>' does not match the result type 'tensor<i32>'}}
  hlo.return %x : tensor<f32>
}

// -----

hlo.computation @tuple_result(%a: tensor<f32>, %b: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.tuple' op result type 'tuple<tensor<i32>, tensor<f32>>' does not match the inferred type 'tuple<tensor<f32>, tensor<i32>>'}}
  %0 = hlo.tuple %a, %b : (tensor<f32>, tensor<i32>) -> tuple<tensor<i32>, tensor<f32>>
  hlo.return %a : tensor<f32>
}

// -----

hlo.computation @tuple_not_tuple(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.tuple' op result type 'tensor<f32>' does not match the inferred type 'tuple<tensor<f32>>'}}
  %0 = hlo.tuple %a : (tensor<f32>) -> tensor<f32>
  hlo.return %a : tensor<f32>
}

// -----

hlo.computation @gte_index(%t: tuple<tensor<f32>, tensor<i32>>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.get_tuple_element' op index 2 is out of range for a tuple of 2 elements}}
  %0 = hlo.get_tuple_element %t {index = 2 : i64} : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @gte_negative_index(%t: tuple<tensor<f32>, tensor<i32>>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.get_tuple_element' op index -1 is out of range for a tuple of 2 elements}}
  %0 = hlo.get_tuple_element %t {index = -1 : i64} : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @gte_not_tuple(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.get_tuple_element' op operand must be a tuple, got 'tensor<f32>'}}
  %0 = hlo.get_tuple_element %x {index = 0 : i64} : (tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @gte_type(%t: tuple<tensor<f32>, tensor<i32>>) -> tensor<i32> {
  // expected-error @+1 {{'hlo.get_tuple_element' op result type 'tensor<i32>' does not match the inferred type 'tensor<f32>'}}
  %0 = hlo.get_tuple_element %t {index = 0 : i64} : (tuple<tensor<f32>, tensor<i32>>) -> tensor<i32>
  hlo.return %0 : tensor<i32>
}

// -----

hlo.computation @call_unknown(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.call' op to_apply refers to unknown computation @nowhere}}
  %0 = hlo.call %x {to_apply = @nowhere} : (tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @callee(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  hlo.return %a : tensor<f32>
}

hlo.computation @call_arity(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.call' op to_apply computation takes 2 parameters, expected 1}}
  %0 = hlo.call %x {to_apply = @callee} : (tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @callee(%a: tensor<f32>) -> tensor<f32> {
  hlo.return %a : tensor<f32>
}

// A call with no operands to a computation that takes parameters.
hlo.computation @call_no_operands() -> tensor<f32> {
  // expected-error @+1 {{'hlo.call' op to_apply computation takes 1 parameters, expected 0}}
  %0 = hlo.call {to_apply = @callee} : () -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @callee(%a: tensor<f32>) -> tensor<f32> {
  hlo.return %a : tensor<f32>
}

hlo.computation @call_parameter_type(%x: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.call' op to_apply computation parameter 0 has type 'tensor<f32>', expected 'tensor<i32>'}}
  %0 = hlo.call %x {to_apply = @callee} : (tensor<i32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @callee(%a: tensor<f32>) -> tensor<f32> {
  hlo.return %a : tensor<f32>
}

hlo.computation @call_result_type(%x: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'hlo.call' op to_apply computation returns 'tensor<f32>', expected 'tensor<2xf32>'}}
  %0 = hlo.call %x {to_apply = @callee} : (tensor<f32>) -> tensor<2xf32>
  hlo.return %0 : tensor<2xf32>
}

// -----

hlo.computation @fused(%a: tensor<4xf32>) -> tensor<4xf32> {
  hlo.return %a : tensor<4xf32>
}

hlo.computation @fusion_signature(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.fusion' op calls computation takes 1 parameters, expected 2}}
  %0 = hlo.fusion %x, %x {calls = @fused, kind = #hlo<fusion_kind kLoop>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @map_shapes(%x: tensor<4xf32>, %y: tensor<5xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.map' op operand 1 of type 'tensor<5xf32>' must have operand 0's dimensions}}
  %0 = hlo.map %x, %y {to_apply = @add} : (tensor<4xf32>, tensor<5xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @map_dimensions(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'hlo.map' op dimensions must list all operand dimensions in order, got [1, 0]}}
  %0 = hlo.map %x, %x {dimensions = array<i64: 1, 0>, to_apply = @add} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  hlo.return %0 : tensor<2x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @map_result(%x: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'hlo.map' op result type 'tensor<5xf32>' must have the operands' dimensions}}
  %0 = hlo.map %x, %x {to_apply = @add} : (tensor<4xf32>, tensor<4xf32>) -> tensor<5xf32>
  hlo.return %0 : tensor<5xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @map_signature(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'hlo.map' op to_apply computation parameter 0 has type 'tensor<f32>', expected 'tensor<i32>'}}
  %0 = hlo.map %x, %x {to_apply = @add} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  hlo.return %0 : tensor<4xi32>
}

// -----

hlo.computation @cond(%s: tensor<i32>) -> tensor<i1> {
  %0 = hlo.constant {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  hlo.return %0 : tensor<i1>
}

hlo.computation @body(%s: tensor<i32>) -> tensor<i32> {
  hlo.return %s : tensor<i32>
}

hlo.computation @while_result(%x: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.while' op result type 'tensor<f32>' does not match the inferred type 'tensor<i32>'}}
  %0 = hlo.while %x {condition = @cond, body = @body} : (tensor<i32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @cond(%s: tensor<i32>) -> tensor<i32> {
  hlo.return %s : tensor<i32>
}

hlo.computation @body(%s: tensor<i32>) -> tensor<i32> {
  hlo.return %s : tensor<i32>
}

hlo.computation @while_condition_result(%x: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'hlo.while' op condition computation returns 'tensor<i32>', expected 'tensor<i1>'}}
  %0 = hlo.while %x {condition = @cond, body = @body} : (tensor<i32>) -> tensor<i32>
  hlo.return %0 : tensor<i32>
}

// -----

hlo.computation @cond(%s: tensor<f32>) -> tensor<i1> {
  %0 = hlo.constant {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  hlo.return %0 : tensor<i1>
}

hlo.computation @body(%s: tensor<i32>) -> tensor<i32> {
  hlo.return %s : tensor<i32>
}

hlo.computation @while_condition_parameter(%x: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'hlo.while' op condition computation parameter 0 has type 'tensor<f32>', expected 'tensor<i32>'}}
  %0 = hlo.while %x {condition = @cond, body = @body} : (tensor<i32>) -> tensor<i32>
  hlo.return %0 : tensor<i32>
}

// -----

hlo.computation @cond(%s: tensor<i32>) -> tensor<i1> {
  %0 = hlo.constant {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  hlo.return %0 : tensor<i1>
}

hlo.computation @body(%s: tensor<i32>) -> tensor<i64> {
  %0 = hlo.convert %s : (tensor<i32>) -> tensor<i64>
  hlo.return %0 : tensor<i64>
}

hlo.computation @while_body_result(%x: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'hlo.while' op body computation returns 'tensor<i64>', expected 'tensor<i32>'}}
  %0 = hlo.while %x {condition = @cond, body = @body} : (tensor<i32>) -> tensor<i32>
  hlo.return %0 : tensor<i32>
}

// -----

hlo.computation @f(%x: tensor<f32>) -> tensor<f32> {
  hlo.return %x : tensor<f32>
}

hlo.computation @conditional_index(%i: tensor<i64>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.conditional' op branch index must be a pred[] or s32[] scalar, got 'tensor<i64>'}}
  %0 = hlo.conditional %i, %x, %x {branch_computations = [@f, @f]} : (tensor<i64>, tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @f(%x: tensor<f32>) -> tensor<f32> {
  hlo.return %x : tensor<f32>
}

hlo.computation @conditional_pred_branches(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.conditional' op with a pred branch index needs exactly 2 branches, got 3}}
  %0 = hlo.conditional %p, %x, %x, %x {branch_computations = [@f, @f, @f]} : (tensor<i1>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @f(%x: tensor<f32>) -> tensor<f32> {
  hlo.return %x : tensor<f32>
}

hlo.computation @conditional_operands(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.conditional' op has 3 branches but 2 branch operands}}
  %0 = hlo.conditional %i, %x, %x {branch_computations = [@f, @f, @f]} : (tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @f(%x: tensor<f32>) -> tensor<f32> {
  hlo.return %x : tensor<f32>
}

hlo.computation @g(%x: tensor<f32>) -> tensor<i32> {
  %0 = hlo.convert %x : (tensor<f32>) -> tensor<i32>
  hlo.return %0 : tensor<i32>
}

hlo.computation @conditional_branch_result(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.conditional' op branch 1 computation returns 'tensor<i32>', expected 'tensor<f32>'}}
  %0 = hlo.conditional %i, %x, %x {branch_computations = [@f, @g]} : (tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @f(%x: tensor<f32>) -> tensor<f32> {
  hlo.return %x : tensor<f32>
}

hlo.computation @conditional_branch_parameter(%p: tensor<i1>, %x: tensor<f32>, %y: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.conditional' op branch 1 computation parameter 0 has type 'tensor<f32>', expected 'tensor<i32>'}}
  %0 = hlo.conditional %p, %x, %y {true_computation = @f, false_computation = @f} : (tensor<i1>, tensor<f32>, tensor<i32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @f(%x: tensor<f32>) -> tensor<f32> {
  hlo.return %x : tensor<f32>
}

hlo.computation @conditional_no_branches(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.conditional' op needs branch_computations or true_/false_computation}}
  %0 = hlo.conditional %p, %x, %x {true_computation = @f} : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @f(%x: tensor<f32>) -> tensor<f32> {
  hlo.return %x : tensor<f32>
}

hlo.computation @conditional_both_forms(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.conditional' op takes either branch_computations or true_/false_computation, not both}}
  %0 = hlo.conditional %p, %x, %x {branch_computations = [@f, @f], true_computation = @f, false_computation = @f} : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @f(%x: tensor<f32>) -> tensor<f32> {
  hlo.return %x : tensor<f32>
}

hlo.computation @conditional_true_false_s32(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.conditional' op true_/false_computation need a pred branch index}}
  %0 = hlo.conditional %i, %x, %x {true_computation = @f, false_computation = @f} : (tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @opt_barrier(%x: tuple<tensor<f32>, tensor<i32>>) -> tuple<tensor<f32>, tensor<f32>> {
  // expected-error @+1 {{'hlo.opt_barrier' op result type 'tuple<tensor<f32>, tensor<f32>>' does not match the inferred type 'tuple<tensor<f32>, tensor<i32>>'}}
  %0 = hlo.opt_barrier %x : (tuple<tensor<f32>, tensor<i32>>) -> tuple<tensor<f32>, tensor<f32>>
  hlo.return %0 : tuple<tensor<f32>, tensor<f32>>
}

// -----

hlo.computation @add_dependency_token(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.add_dependency' op token operand must be a token, got 'tensor<f32>'}}
  %0 = hlo.add_dependency %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @add_dependency_result(%x: tensor<f32>, %t: !hlo.token) -> tensor<i32> {
  // expected-error @+1 {{'hlo.add_dependency' op result type 'tensor<i32>' does not match the inferred type 'tensor<f32>'}}
  %0 = hlo.add_dependency %x, %t : (tensor<f32>, !hlo.token) -> tensor<i32>
  hlo.return %0 : tensor<i32>
}

// -----

hlo.computation @after_all_operand(%x: tensor<f32>) -> !hlo.token {
  // expected-error @+1 {{'hlo.after_all' op operand must be a token, got 'tensor<f32>'}}
  %0 = hlo.after_all %x : (tensor<f32>) -> !hlo.token
  hlo.return %0 : !hlo.token
}

// -----

hlo.computation @after_all_result(%t: !hlo.token) -> tensor<f32> {
  // expected-error @+1 {{'hlo.after_all' op result type 'tensor<f32>' does not match the inferred type '!hlo.token'}}
  %0 = hlo.after_all %t : (!hlo.token) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @domain(%x: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'hlo.domain' op result type 'tensor<2xf32>' does not match the inferred type 'tensor<f32>'}}
  %0 = hlo.domain %x : (tensor<f32>) -> tensor<2xf32>
  hlo.return %0 : tensor<2xf32>
}
