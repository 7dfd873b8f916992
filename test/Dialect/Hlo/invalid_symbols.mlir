// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// Called computations are checked through the symbol table
// (SymbolUserOpInterface::verifySymbolUses).

hlo.computation private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}
hlo.computation @main(%v: tensor<4xf32>, %z: tensor<f32>) -> tuple<tensor<4xf32>, tensor<4xf32>> attributes {entry} {
  // expected-error @+1 {{'hlo.scan' op to_apply refers to unknown computation @nope}}
  %0 = hlo.scan %v, %z {dimensions = array<i64: 0>, to_apply = @nope, num_carries = 1 : i64} : (tensor<4xf32>, tensor<f32>) -> tuple<tensor<4xf32>, tensor<f32>>
  %t = hlo.tuple %v, %v : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  hlo.return %t : tuple<tensor<4xf32>, tensor<4xf32>>
}

// -----

hlo.computation @main(%v: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // expected-error @+1 {{'hlo.custom_call' op called_computations refers to unknown computation @nope}}
  %0 = hlo.custom_call %v {custom_call_target = "x", called_computations = [@nope]} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @main(%v: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // expected-error @+1 {{'hlo.fusion' op calls refers to the ENTRY computation @main, which no instruction may call}}
  %0 = hlo.fusion %v {calls = @main, kind = #hlo<fusion_kind kLoop>} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation private @fc(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.negate %a : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}
hlo.computation @main(%v: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // expected-note @+1 {{the other fusion}}
  %0 = hlo.fusion %v {calls = @fc, kind = #hlo<fusion_kind kLoop>} : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'hlo.fusion' op calls fused computation @fc, which another fusion calls too; a fused computation has exactly one caller}}
  %1 = hlo.fusion %0 {calls = @fc, kind = #hlo<fusion_kind kLoop>} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %1 : tensor<4xf32>
}

// -----

hlo.computation private @fc(%a: tensor<4xf32>) -> tensor<4xf32> {
  hlo.return %a : tensor<4xf32>
}
hlo.computation @main(%v: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // expected-error @+1 {{'hlo.fusion' op output_to_operand_aliasing names operand 3 but the instruction has 1}}
  %0 = hlo.fusion %v {calls = @fc, kind = #hlo<fusion_kind kLoop>, output_to_operand_aliasing = [#hlo.output_operand_alias<output_index = [], operand = 3, operand_index = []>]} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @main(%v: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // expected-error @+1 {{'hlo.custom_call' op output_to_operand_aliasing output index {1} is not in the result 'tensor<4xf32>'}}
  %0 = hlo.custom_call %v {custom_call_target = "x", output_to_operand_aliasing = [#hlo.output_operand_alias<output_index = [1], operand = 0, operand_index = []>]} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @main(%v: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // An entry must be an #hlo.output_operand_alias (the old dictionary form is
  // refused).
  // expected-error @+1 {{'hlo.custom_call' op attribute 'output_to_operand_aliasing' failed to satisfy constraint: output_to_operand_aliasing entries}}
  %0 = hlo.custom_call %v {custom_call_target = "x", output_to_operand_aliasing = [{operand = 0 : i64}]} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @main(%v: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // expected-error @+1 {{aliased operand -1 is negative}}
  %0 = hlo.custom_call %v {custom_call_target = "x", output_to_operand_aliasing = [#hlo.output_operand_alias<output_index = [], operand = -1, operand_index = []>]} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @main(%v: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // expected-error @+1 {{operand index {-2} has a negative tuple index}}
  %0 = hlo.custom_call %v {custom_call_target = "x", output_to_operand_aliasing = [#hlo.output_operand_alias<output_index = [], operand = 0, operand_index = [-2]>]} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @main(%v: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // expected-error @+1 {{'hlo.custom_call' op operand_layout_constraints has 2 shapes for 1 operands}}
  %0 = hlo.custom_call %v {custom_call_target = "x", operand_layout_constraints = [tensor<4xf32>, tensor<4xf32>]} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}
hlo.computation @main(%t: !hlo.token) -> !hlo.token attributes {entry} {
  // expected-error @+1 {{'hlo.all_reduce' op operands must be arrays, got '!hlo.token'}}
  %0 = hlo.all_reduce %t {to_apply = @add} : (!hlo.token) -> !hlo.token
  hlo.return %0 : !hlo.token
}
