// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// reduce, reduce_window, select_and_scatter, sort and topk.

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @reduce_odd_operands(%x: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.reduce' op needs N inputs followed by N init values, got 3 operands}}
  %0 = hlo.reduce %x, %x, %z {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4xf32>, tensor<4xf32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @reduce_dims_range(%x: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.reduce' op dimensions [1] has dimension 1 out of range for rank 1}}
  %0 = hlo.reduce %x, %z {dimensions = array<i64: 1>, to_apply = @add} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @reduce_dims_repeat(%x: tensor<4x5xf32>, %z: tensor<f32>) -> tensor<5xf32> {
  // expected-error @+1 {{'hlo.reduce' op dimensions [0, 0] repeats dimension 0}}
  %0 = hlo.reduce %x, %z {dimensions = array<i64: 0, 0>, to_apply = @add} : (tensor<4x5xf32>, tensor<f32>) -> tensor<5xf32>
  hlo.return %0 : tensor<5xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @reduce_init_not_scalar(%x: tensor<4x5xf32>, %z: tensor<5xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'hlo.reduce' op init value 0 must be a scalar, got 'tensor<5xf32>'}}
  %0 = hlo.reduce %x, %z {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<5xf32>
  hlo.return %0 : tensor<5xf32>
}

// -----

hlo.computation @pair(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>> {
  %0 = hlo.tuple %a, %b : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
  hlo.return %0 : tuple<tensor<f32>, tensor<f32>>
}

hlo.computation @reduce_input_shapes(%x: tensor<4x5xf32>, %y: tensor<5x4xf32>, %z: tensor<f32>) -> tuple<tensor<5xf32>, tensor<5xf32>> {
  // expected-error @+1 {{'hlo.reduce' op input 1 dimensions [5, 4] differ from input 0's [4, 5]}}
  %0 = hlo.reduce %x, %y, %z, %z {dimensions = array<i64: 0>, to_apply = @pair} : (tensor<4x5xf32>, tensor<5x4xf32>, tensor<f32>, tensor<f32>) -> tuple<tensor<5xf32>, tensor<5xf32>>
  hlo.return %0 : tuple<tensor<5xf32>, tensor<5xf32>>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @reduce_result_dims(%x: tensor<4x5xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.reduce' op result type 'tensor<4xf32>' does not match the inferred type 'tensor<5xf32>'}}
  %0 = hlo.reduce %x, %z {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @reduce_result_count(%x: tensor<4x5xf32>, %z: tensor<f32>) -> tuple<tensor<5xf32>, tensor<5xf32>> {
  // expected-error @+1 {{'hlo.reduce' op result type 'tuple<tensor<5xf32>, tensor<5xf32>>' does not match the inferred type 'tensor<5xf32>'}}
  %0 = hlo.reduce %x, %z {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4x5xf32>, tensor<f32>) -> tuple<tensor<5xf32>, tensor<5xf32>>
  hlo.return %0 : tuple<tensor<5xf32>, tensor<5xf32>>
}

// -----

hlo.computation @add3(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>) -> tensor<f32> {
  hlo.return %a : tensor<f32>
}

hlo.computation @reduce_reducer_arity(%x: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.reduce' op to_apply computation takes 3 parameters, expected 2 (1 accumulators and 1 inputs)}}
  %0 = hlo.reduce %x, %z {dimensions = array<i64: 0>, to_apply = @add3} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @add(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = hlo.add %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i32>
  hlo.return %0 : tensor<i32>
}

hlo.computation @reduce_reducer_type(%x: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.reduce' op to_apply computation parameter 0 has type 'tensor<i32>', expected the accumulator type 'tensor<f32>'}}
  %0 = hlo.reduce %x, %z {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @to_vec(%a: tensor<f32>, %b: tensor<f32>) -> tensor<1xf32> {
  %0 = hlo.reshape %a : (tensor<f32>) -> tensor<1xf32>
  hlo.return %0 : tensor<1xf32>
}

hlo.computation @reduce_reducer_result(%x: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.reduce' op to_apply computation returns 'tensor<1xf32>', expected 'tensor<f32>'}}
  %0 = hlo.reduce %x, %z {dimensions = array<i64: 0>, to_apply = @to_vec} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @reduce_unknown_reducer(%x: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.reduce' op to_apply refers to unknown computation @missing}}
  %0 = hlo.reduce %x, %z {dimensions = array<i64: 0>, to_apply = @missing} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @reduce_window_rank(%x: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'hlo.reduce_window' op window has 1 dimensions for an operand of rank 2}}
  %0 = hlo.reduce_window %x, %z {window = #hlo.window<"{size=2 stride=2}">, to_apply = @add} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  hlo.return %0 : tensor<2x3xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @reduce_window_missing(%x: tensor<4xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.reduce_window' op window has 0 dimensions for an operand of rank 1}}
  %0 = hlo.reduce_window %x, %z {to_apply = @add} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @reduce_window_stride(%x: tensor<4xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.reduce_window' op window dimension 0 has size 1, stride 0, lhs_dilate 1 and rhs_dilate 1; all must be positive}}
  %0 = hlo.reduce_window %x, %z {window = #hlo.window<"{size=1 stride=0}">, to_apply = @add} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @reduce_window_result(%x: tensor<4x6xf32>, %z: tensor<f32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'hlo.reduce_window' op result type 'tensor<2x2xf32>' does not match the inferred type 'tensor<2x3xf32>'}}
  %0 = hlo.reduce_window %x, %z {window = #hlo.window<"{size=2x2 stride=2x2}">, to_apply = @add} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x2xf32>
  hlo.return %0 : tensor<2x2xf32>
}

// -----

hlo.computation @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare %a, %b {direction = #hlo<comparison_direction GE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %0 : tensor<i1>
}

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @select_and_scatter_source(%x: tensor<4x6xf32>, %s: tensor<2x2xf32>, %z: tensor<f32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{'hlo.select_and_scatter' op source dimensions [2, 2] must be the window's output dimensions [2, 3]}}
  %0 = hlo.select_and_scatter %x, %s, %z {window = #hlo.window<"{size=2x2 stride=2x2}">, select = @ge, scatter = @add} : (tensor<4x6xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x6xf32>
  hlo.return %0 : tensor<4x6xf32>
}

// -----

hlo.computation @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare %a, %b {direction = #hlo<comparison_direction GE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %0 : tensor<i1>
}

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @select_and_scatter_init(%x: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<1xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.select_and_scatter' op init value must be a scalar, got 'tensor<1xf32>'}}
  %0 = hlo.select_and_scatter %x, %s, %z {window = #hlo.window<"{size=2 stride=2}">, select = @ge, scatter = @add} : (tensor<4xf32>, tensor<2xf32>, tensor<1xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare %a, %b {direction = #hlo<comparison_direction GE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %0 : tensor<i1>
}

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @select_and_scatter_result(%x: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'hlo.select_and_scatter' op result type 'tensor<2xf32>' does not match the inferred type 'tensor<4xf32>'}}
  %0 = hlo.select_and_scatter %x, %s, %z {window = #hlo.window<"{size=2 stride=2}">, select = @ge, scatter = @add} : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  hlo.return %0 : tensor<2xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @select_and_scatter_select(%x: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.select_and_scatter' op select computation returns 'tensor<f32>', expected 'tensor<i1>'}}
  %0 = hlo.select_and_scatter %x, %s, %z {window = #hlo.window<"{size=2 stride=2}">, select = @add, scatter = @add} : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare %a, %b {direction = #hlo<comparison_direction GE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %0 : tensor<i1>
}

hlo.computation @select_and_scatter_scatter(%x: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.select_and_scatter' op scatter computation returns 'tensor<i1>', expected 'tensor<f32>'}}
  %0 = hlo.select_and_scatter %x, %s, %z {window = #hlo.window<"{size=2 stride=2}">, select = @ge, scatter = @ge} : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare %a, %b {direction = #hlo<comparison_direction GE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %0 : tensor<i1>
}

hlo.computation @sort_dimension(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'hlo.sort' op dimension 2 is out of range for rank 2}}
  %0 = hlo.sort %x {dimensions = array<i64: 2>, to_apply = @ge} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  hlo.return %0 : tensor<4x5xf32>
}

// -----

hlo.computation @lt2(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare %a, %b {direction = #hlo<comparison_direction LT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %0 : tensor<i1>
}

hlo.computation @sort_operand_shapes(%x: tensor<4x5xf32>, %y: tensor<4x6xf32>) -> tuple<tensor<4x5xf32>, tensor<4x6xf32>> {
  // expected-error @+1 {{'hlo.sort' op operand 1 dimensions [4, 6] differ from operand 0's [4, 5]}}
  %0 = hlo.sort %x, %y {dimensions = array<i64: 1>, to_apply = @lt2} : (tensor<4x5xf32>, tensor<4x6xf32>) -> tuple<tensor<4x5xf32>, tensor<4x6xf32>>
  hlo.return %0 : tuple<tensor<4x5xf32>, tensor<4x6xf32>>
}

// -----

hlo.computation @lt2(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare %a, %b {direction = #hlo<comparison_direction LT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %0 : tensor<i1>
}

hlo.computation @sort_result(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.sort' op result type 'tensor<4xf32>' does not match the inferred type 'tuple<tensor<4xf32>, tensor<4xf32>>'}}
  %0 = hlo.sort %x, %x {dimensions = array<i64: 0>, to_apply = @lt2} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare %a, %b {direction = #hlo<comparison_direction GE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %0 : tensor<i1>
}

hlo.computation @sort_comparator(%x: tensor<4xf32>, %y: tensor<4xi32>) -> tuple<tensor<4xf32>, tensor<4xi32>> {
  // expected-error @+1 {{'hlo.sort' op to_apply computation takes 2 parameters, expected 4}}
  %0 = hlo.sort %x, %y {dimensions = array<i64: 0>, to_apply = @ge} : (tensor<4xf32>, tensor<4xi32>) -> tuple<tensor<4xf32>, tensor<4xi32>>
  hlo.return %0 : tuple<tensor<4xf32>, tensor<4xi32>>
}

// -----

hlo.computation @topk_k(%x: tensor<5x8xf32>) -> tuple<tensor<5x10xf32>, tensor<5x10xi32>> {
  // expected-error @+1 {{'hlo.topk' op the last operand dimension (8) must be at least k (10)}}
  %0 = hlo.topk %x {k = 10 : i64} : (tensor<5x8xf32>) -> tuple<tensor<5x10xf32>, tensor<5x10xi32>>
  hlo.return %0 : tuple<tensor<5x10xf32>, tensor<5x10xi32>>
}

// -----

hlo.computation @topk_negative_k(%x: tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<8xi32>> {
  // expected-error @+1 {{'hlo.topk' op k (-1) must be non-negative}}
  %0 = hlo.topk %x {k = -1 : i64} : (tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<8xi32>>
  hlo.return %0 : tuple<tensor<8xf32>, tensor<8xi32>>
}

// -----

hlo.computation @topk_scalar(%x: tensor<f32>) -> tuple<tensor<f32>, tensor<i32>> {
  // expected-error @+1 {{'hlo.topk' op operand must have at least one dimension}}
  %0 = hlo.topk %x {k = 1 : i64} : (tensor<f32>) -> tuple<tensor<f32>, tensor<i32>>
  hlo.return %0 : tuple<tensor<f32>, tensor<i32>>
}

// -----

hlo.computation @topk_result(%x: tensor<5x8xf32>) -> tuple<tensor<5x2xf32>, tensor<5x2xi64>> {
  // expected-error @+1 {{'hlo.topk' op result type 'tuple<tensor<5x2xf32>, tensor<5x2xi64>>' does not match the inferred type 'tuple<tensor<5x2xf32>, tensor<5x2xi32>>'}}
  %0 = hlo.topk %x {k = 2 : i64} : (tensor<5x8xf32>) -> tuple<tensor<5x2xf32>, tensor<5x2xi64>>
  hlo.return %0 : tuple<tensor<5x2xf32>, tensor<5x2xi64>>
}
