// RUN: hlo-opt %s -split-input-file --hlo-scatter-expander | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-scatter-expander --hlo-check-semantics -o /dev/null
// RUN: hlo-opt %s -split-input-file --hlo-scatter-expander --hlo-check-semantics --hlo-check-semantics-seed=2 -o /dev/null
// RUN: hlo-opt %s -split-input-file --hlo-scatter-expander --hlo-check-semantics --hlo-check-semantics-seed=3 -o /dev/null
// RUN: hlo-opt %s -split-input-file --hlo-scatter-expander=mode=eliminate-simple-scatters | FileCheck %s --check-prefix=SIMPLE
// RUN: hlo-opt %s -split-input-file --hlo-scatter-expander=mode=eliminate-simple-scatters --hlo-check-semantics -o /dev/null
// RUN: hlo-opt %s -split-input-file --hlo-scatter-expander=mode=eliminate-indeterministic-scatters | FileCheck %s --check-prefix=INDET
// RUN: not hlo-opt %s -split-input-file --hlo-scatter-expander=mode=bad -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: for the --mode option: Cannot find option named 'bad'

// Rows of a matrix, updates added (f32: nondeterministic, several index
// vectors: not simple). The loop reads index vector i, slices the operand
// row and update row i, maps the combiner over them, keeps the old row when
// the index is out of bounds (0 <= index <= 3 - 1) and writes it back.
// CHECK-LABEL: hlo.computation private @scatter_condition
// CHECK-SAME: (%[[S:.*]]: tuple<tensor<i32>, tensor<3x4xf32>, tensor<8x1xi32>, tensor<8x4xf32>>) -> tensor<i1>
// CHECK: %[[I:.*]] = get_tuple_element %[[S]] {index = 0
// CHECK: %[[N:.*]] = constant {value = dense<8> : tensor<i32>}
// CHECK: compare %[[I]], %[[N]] {direction = #hlo<comparison_direction LT>}
// CHECK-LABEL: hlo.computation private @scatter_body
// CHECK: %[[I:.*]] = get_tuple_element %{{.*}} {index = 0
// CHECK: %[[X:.*]] = get_tuple_element %{{.*}} {index = 1
// CHECK: %[[IDX:.*]] = get_tuple_element %{{.*}} {index = 2
// CHECK: %[[U:.*]] = get_tuple_element %{{.*}} {index = 3
// CHECK: %[[Z:.*]] = constant {value = dense<0> : tensor<i32>}
// CHECK: %[[ROW:.*]] = dynamic_slice %[[IDX]], %[[I]], %[[Z]] {dynamic_slice_sizes = array<i64: 1, 1>}
// CHECK: %[[K:.*]] = reshape %[[ROW]] : (tensor<1x1xi32>) -> tensor<i32>
// CHECK: %[[OLD:.*]] = dynamic_slice %[[X]], %[[K]], %[[Z]] {dynamic_slice_sizes = array<i64: 1, 4>}
// CHECK: %[[UPD:.*]] = dynamic_slice %[[U]], %[[I]], %[[Z]] {dynamic_slice_sizes = array<i64: 1, 4>}
// CHECK: %[[MAX:.*]] = constant {value = dense<2> : tensor<i32>}
// CHECK: %[[LE:.*]] = compare %[[K]], %[[MAX]] {direction = #hlo<comparison_direction LE>}
// CHECK: %[[GE:.*]] = compare %[[K]], %[[Z]] {direction = #hlo<comparison_direction GE>}
// CHECK: %[[OK:.*]] = and %[[GE]], %[[LE]]
// CHECK: %[[MASK:.*]] = broadcast %[[OK]] {dimensions = array<i64>} : (tensor<i1>) -> tensor<1x4xi1>
// CHECK: %[[NEW:.*]] = map %[[OLD]], %[[UPD]] {dimensions = array<i64: 0, 1>, to_apply = @add}
// CHECK: %[[SEL:.*]] = select %[[MASK]], %[[NEW]], %[[OLD]]
// CHECK: %[[X2:.*]] = dynamic_update_slice %[[X]], %[[SEL]], %[[K]], %[[Z]]
// CHECK: %[[ONE:.*]] = constant {value = dense<1> : tensor<i32>}
// CHECK: %[[I2:.*]] = add %[[I]], %[[ONE]]
// CHECK: %[[T:.*]] = tuple %[[I2]], %[[X2]], %[[IDX]], %[[U]]
// CHECK: return %[[T]]
// CHECK-LABEL: hlo.computation @rows
// CHECK: %[[Z:.*]] = constant {value = dense<0> : tensor<i32>}
// CHECK: %[[INIT:.*]] = tuple %[[Z]], %arg0, %arg1, %arg2
// CHECK: %[[W:.*]] = while %[[INIT]] {body = @scatter_body, condition = @scatter_condition}
// CHECK: %[[R:.*]] = get_tuple_element %[[W]] {index = 1
// CHECK-NOT: = scatter
// CHECK: return %[[R]]
// SIMPLE-LABEL: hlo.computation @rows
// SIMPLE: = scatter
// INDET-LABEL: hlo.computation @rows
// INDET-NOT: = scatter
// INDET: while
hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}
hlo.computation @rows(%x: tensor<3x4xf32>, %idx: tensor<8x1xi32>, %u: tensor<8x4xf32>) -> tensor<3x4xf32> attributes {entry} {
  %0 = hlo.scatter %x, %idx, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<3x4xf32>, tensor<8x1xi32>, tensor<8x4xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// -----

// Index vectors along the middle dimension of the indices (transposed to
// the end, then flattened), every operand dimension inserted, many updates
// to the same element added (s32 add: deterministic, left alone by the
// indeterministic mode).
// CHECK-LABEL: hlo.computation @middle
// CHECK: %[[T:.*]] = transpose %arg1 {dimensions = array<i64: 0, 2, 1>} : (tensor<4x2x3xi32>) -> tensor<4x3x2xi32>
// CHECK: %[[IDX:.*]] = reshape %[[T]] : (tensor<4x3x2xi32>) -> tensor<12x2xi32>
// CHECK: %[[U:.*]] = reshape %arg2 : (tensor<4x3xi32>) -> tensor<12xi32>
// CHECK: tuple %{{.*}}, %arg0, %[[IDX]], %[[U]]
// CHECK: while
// CHECK-NOT: = scatter
// INDET-LABEL: hlo.computation @middle
// INDET: = scatter
hlo.computation @add(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = hlo.add %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i32>
  hlo.return %0 : tensor<i32>
}
hlo.computation @middle(%x: tensor<5x6xi32>, %idx: tensor<4x2x3xi32>, %u: tensor<4x3xi32>) -> tensor<5x6xi32> attributes {entry} {
  %0 = hlo.scatter %x, %idx, %u {update_window_dims = array<i64>, inserted_window_dims = array<i64: 0, 1>, scatter_dims_to_operand_dims = array<i64: 1, 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<5x6xi32>, tensor<4x2x3xi32>, tensor<4x3xi32>) -> tensor<5x6xi32>
  hlo.return %0 : tensor<5x6xi32>
}

// -----

// An implicit index vector dimension (index_vector_dim = rank), s64
// indices; windows in the updates' leading dimension (transposed behind
// the scatter dimension).
// CHECK-LABEL: hlo.computation private @scatter_body
// CHECK: dynamic_slice %{{.*}} : (tensor<4x1xi64>, tensor<i32>, tensor<i32>) -> tensor<1x1xi64>
// CHECK: compare {{.*}} : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-LABEL: hlo.computation @implicit
// CHECK: %[[IDX:.*]] = reshape %arg1 : (tensor<4xi64>) -> tensor<4x1xi64>
// CHECK: %[[T:.*]] = transpose %arg2 {dimensions = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
// CHECK: tuple %{{.*}}, %arg0, %[[IDX]], %[[T]]
// The result takes the scatter's frontend attributes.
// CHECK: get_tuple_element %{{.*}} {frontend_attributes = {k = "v"}, index = 1
hlo.computation @max(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.maximum %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}
hlo.computation @implicit(%x: tensor<3x5xf32>, %idx: tensor<4xi64>, %u: tensor<3x4xf32>) -> tensor<3x5xf32> attributes {entry} {
  %0 = hlo.scatter %x, %idx, %u {update_window_dims = array<i64: 0>, inserted_window_dims = array<i64: 1>, scatter_dims_to_operand_dims = array<i64: 1>, index_vector_dim = 1 : i64, to_apply = @max, frontend_attributes = {k = "v"}} : (tensor<3x5xf32>, tensor<4xi64>, tensor<3x4xf32>) -> tensor<3x5xf32>
  hlo.return %0 : tensor<3x5xf32>
}

// -----

// Windows of two dimensions, none inserted, a full index vector: windows
// that cross an edge are skipped. The last update wins (a combiner that
// returns the update; the loop runs in the scatter's order).
// CHECK-LABEL: hlo.computation @windows
// CHECK-NOT: = scatter
// CHECK: while
hlo.computation @set(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  hlo.return %b : tensor<i32>
}
hlo.computation @windows(%x: tensor<6x4xi32>, %idx: tensor<10x2xi32>, %u: tensor<10x2x3xi32>) -> tensor<6x4xi32> attributes {entry} {
  %0 = hlo.scatter %x, %idx, %u {update_window_dims = array<i64: 1, 2>, inserted_window_dims = array<i64>, scatter_dims_to_operand_dims = array<i64: 0, 1>, index_vector_dim = 1 : i64, to_apply = @set} : (tensor<6x4xi32>, tensor<10x2xi32>, tensor<10x2x3xi32>) -> tensor<6x4xi32>
  hlo.return %0 : tensor<6x4xi32>
}

// -----

// Scalar indices (rank 0, one index vector): a loop of one trip, which the
// simple mode expands too; an unsigned 8-bit index is widened to s32.
// CHECK-LABEL: hlo.computation @scalar_index
// CHECK: %[[C:.*]] = convert %{{.*}} : (tensor<1x1xui8>) -> tensor<1x1xi32>
// CHECK: while
// SIMPLE-LABEL: hlo.computation @scalar_index
// SIMPLE-NOT: = scatter
// SIMPLE: while
// INDET-LABEL: hlo.computation @scalar_index
// INDET: = scatter
hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}
hlo.computation @scalar_index(%x: tensor<7xf32>, %idx: tensor<ui8>, %u: tensor<3xf32>) -> tensor<7xf32> attributes {entry} {
  %0 = hlo.scatter %x, %idx, %u {update_window_dims = array<i64: 0>, inserted_window_dims = array<i64>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 0 : i64, to_apply = @add} : (tensor<7xf32>, tensor<ui8>, tensor<3xf32>) -> tensor<7xf32>
  hlo.return %0 : tensor<7xf32>
}

// -----

// Batching dimensions: the window start at an input batching dimension is
// the loop's coordinate along the matching indices dimension (here the
// second of three: (i / 2) % 3).
// CHECK-LABEL: hlo.computation private @scatter_body
// CHECK: %[[TWO:.*]] = constant {value = dense<2> : tensor<i32>}
// CHECK: %[[D:.*]] = divide %{{.*}}, %[[TWO]]
// CHECK: %[[THREE:.*]] = constant {value = dense<3> : tensor<i32>}
// CHECK: %[[B:.*]] = remainder %[[D]], %[[THREE]]
// CHECK: dynamic_slice %{{.*}}, %[[B]], %{{.*}}, %{{.*}} {dynamic_slice_sizes = array<i64: 1, 1, 4>}
// CHECK-LABEL: hlo.computation @batching
// CHECK-NOT: = scatter
hlo.computation @add(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = hlo.add %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i32>
  hlo.return %0 : tensor<i32>
}
hlo.computation @batching(%x: tensor<3x5x4xi32>, %idx: tensor<2x3x2x1xi32>, %u: tensor<2x3x2x4xi32>) -> tensor<3x5x4xi32> attributes {entry} {
  %0 = hlo.scatter %x, %idx, %u {update_window_dims = array<i64: 3>, inserted_window_dims = array<i64: 1>, input_batching_dims = array<i64: 0>, scatter_indices_batching_dims = array<i64: 1>, scatter_dims_to_operand_dims = array<i64: 1>, index_vector_dim = 3 : i64, to_apply = @add} : (tensor<3x5x4xi32>, tensor<2x3x2x1xi32>, tensor<2x3x2x4xi32>) -> tensor<3x5x4xi32>
  hlo.return %0 : tensor<3x5x4xi32>
}

// -----

// Variadic scatter: both operands updated in one loop, each by a map of
// its own output of the combiner.
// CHECK-LABEL: hlo.computation private @add_pair_0
// CHECK-SAME: -> tensor<f32>
// CHECK: %[[A:.*]] = add %arg0, %arg2
// CHECK: return %[[A]] : tensor<f32>
// CHECK-LABEL: hlo.computation private @add_pair_1
// CHECK-SAME: -> tensor<i32>
// CHECK: %[[B:.*]] = add %arg1, %arg3
// CHECK: return %[[B]] : tensor<i32>
// CHECK-LABEL: hlo.computation private @scatter_body
// CHECK: map %[[O0:.*]], %[[O1:.*]], %[[U0:.*]], %[[U1:.*]] {dimensions = array<i64: 0>, to_apply = @add_pair_0}
// CHECK: map %[[O0]], %[[O1]], %[[U0]], %[[U1]] {dimensions = array<i64: 0>, to_apply = @add_pair_1}
// CHECK-LABEL: hlo.computation @variadic
// CHECK: %[[W:.*]] = while
// CHECK: %[[R0:.*]] = get_tuple_element %[[W]] {index = 1
// CHECK: %[[R1:.*]] = get_tuple_element %[[W]] {index = 2
// CHECK: tuple %[[R0]], %[[R1]] : (tensor<6xf32>, tensor<6xi32>)
hlo.computation @add_pair(%a: tensor<f32>, %i: tensor<i32>, %b: tensor<f32>, %j: tensor<i32>) -> tuple<tensor<f32>, tensor<i32>> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = hlo.add %i, %j : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %2 = hlo.tuple %0, %1 : (tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tensor<i32>>
  hlo.return %2 : tuple<tensor<f32>, tensor<i32>>
}
hlo.computation @variadic(%x: tensor<6xf32>, %y: tensor<6xi32>, %idx: tensor<8x1xi32>, %u: tensor<8x2xf32>, %v: tensor<8x2xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>> attributes {entry} {
  %0 = hlo.scatter %x, %y, %idx, %u, %v {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add_pair} : (tensor<6xf32>, tensor<6xi32>, tensor<8x1xi32>, tensor<8x2xf32>, tensor<8x2xi32>) -> tuple<tensor<6xf32>, tensor<6xi32>>
  hlo.return %0 : tuple<tensor<6xf32>, tensor<6xi32>>
}

// -----

// A scalar operand: empty index vectors, every update combined into it.
// CHECK-LABEL: hlo.computation private @scatter_body
// CHECK-NOT: compare
// CHECK: map %{{.*}}, %{{.*}} {dimensions = array<i64>, to_apply = @mul}
// CHECK-NOT: select
// CHECK-LABEL: hlo.computation @scalar_operand
hlo.computation @mul(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = hlo.multiply %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i32>
  hlo.return %0 : tensor<i32>
}
hlo.computation @scalar_operand(%x: tensor<i32>, %idx: tensor<3x0xi32>, %u: tensor<3xi32>) -> tensor<i32> attributes {entry} {
  %0 = hlo.scatter %x, %idx, %u {update_window_dims = array<i64>, inserted_window_dims = array<i64>, scatter_dims_to_operand_dims = array<i64>, index_vector_dim = 1 : i64, to_apply = @mul} : (tensor<i32>, tensor<3x0xi32>, tensor<3xi32>) -> tensor<i32>
  hlo.return %0 : tensor<i32>
}

// -----

// No update element: the operand is the result.
// CHECK-LABEL: hlo.computation @no_updates
// CHECK-NOT: = scatter
// CHECK-NOT: while
// CHECK: return %arg0
hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}
hlo.computation @no_updates(%x: tensor<3x4xf32>, %idx: tensor<0x1xi32>, %u: tensor<0x4xf32>) -> tensor<3x4xf32> attributes {entry} {
  %0 = hlo.scatter %x, %idx, %u {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<3x4xf32>, tensor<0x1xi32>, tensor<0x4xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}

// -----

// The indeterministic mode leaves alone scatters with unique indices and
// those whose combiner is associative (integer add, float maximum) but
// expands a float add or a combiner of more than one instruction.
// INDET-LABEL: hlo.computation @modes
// INDET: scatter %arg0, %arg1, %arg2 {{.*}}to_apply = @add{{.*}}unique_indices = true
// INDET: scatter %arg3, %arg1, %arg2 {{.*}}to_apply = @max
// INDET: while
// INDET-NOT: = scatter
// INDET: return
hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}
hlo.computation @max(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.maximum %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}
hlo.computation @add_twice(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = hlo.add %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %1 = hlo.add %0, %b : (tensor<i32>, tensor<i32>) -> tensor<i32>
  hlo.return %1 : tensor<i32>
}
hlo.computation @modes(%x: tensor<4xf32>, %idx: tensor<2x1xi32>, %u: tensor<2xf32>, %y: tensor<4xf32>, %z: tensor<4xi32>, %v: tensor<2xi32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xi32>> attributes {entry} {
  %0 = hlo.scatter %x, %idx, %u {update_window_dims = array<i64>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, unique_indices = true, to_apply = @add} : (tensor<4xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<4xf32>
  %1 = hlo.scatter %y, %idx, %u {update_window_dims = array<i64>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @max} : (tensor<4xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<4xf32>
  %2 = hlo.scatter %z, %idx, %v {update_window_dims = array<i64>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add_twice} : (tensor<4xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<4xi32>
  %3 = hlo.tuple %0, %1, %2 : (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xi32>>
  hlo.return %3 : tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xi32>>
}

// -----

// Left alone: control predecessors, bounded dynamic shapes.
// CHECK-LABEL: hlo.computation @keep
// CHECK: scatter %arg0, %arg1, %arg2 after
// CHECK: scatter %arg3
// CHECK-NOT: while
hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}
hlo.computation @keep(%x: tensor<4xf32>, %idx: tensor<2x1xi32>, %u: tensor<2xf32>, %d: tensor<?xf32, #hlo.layout<[0], bounds = [4]>>) -> tuple<tensor<4xf32>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>> attributes {entry} {
  %n = hlo.negate %x : (tensor<4xf32>) -> tensor<4xf32>
  %0 = hlo.scatter %x, %idx, %u after(%n : tensor<4xf32>) {update_window_dims = array<i64>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<4xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<4xf32>
  %1 = hlo.scatter %d, %idx, %u {update_window_dims = array<i64>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, to_apply = @add} : (tensor<?xf32, #hlo.layout<[0], bounds = [4]>>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<?xf32, #hlo.layout<[0], bounds = [4]>>
  %2 = hlo.tuple %0, %1 : (tensor<4xf32>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>) -> tuple<tensor<4xf32>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>>
  hlo.return %2 : tuple<tensor<4xf32>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>>
}
