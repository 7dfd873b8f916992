// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// Collectives: result shapes, replica groups, reducers and the
// -start/-done pairs.

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @all_reduce_result(%x: tensor<10xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'hlo.all_reduce' op result type 'tensor<5xf32>' should be 'tensor<10xf32>' (the operand types)}}
  %0 = hlo.all_reduce %x {to_apply = @add} : (tensor<10xf32>) -> tensor<5xf32>
  hlo.return %0 : tensor<5xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @all_reduce_reducer(%x: tensor<10xi32>) -> tensor<10xi32> {
  // expected-error @+1 {{'hlo.all_reduce' op to_apply computation parameter 0 has type 'tensor<f32>', expected the accumulator type 'tensor<i32>'}}
  %0 = hlo.all_reduce %x {to_apply = @add} : (tensor<10xi32>) -> tensor<10xi32>
  hlo.return %0 : tensor<10xi32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @all_reduce_repeated_id(%x: tensor<10xf32>) -> tensor<10xf32> {
  // expected-error @+1 {{'hlo.all_reduce' op replica id 1 appears more than once in replica_groups}}
  %0 = hlo.all_reduce %x {replica_groups = #hlo.replica_groups<"{{0,1},{1,2}}">, to_apply = @add} : (tensor<10xf32>) -> tensor<10xf32>
  hlo.return %0 : tensor<10xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @all_reduce_empty_group(%x: tensor<10xf32>) -> tensor<10xf32> {
  // expected-error @+1 {{'hlo.all_reduce' op replica groups may not be empty}}
  %0 = hlo.all_reduce %x {replica_groups = #hlo.replica_groups<"{{0,1},{}}">, to_apply = @add} : (tensor<10xf32>) -> tensor<10xf32>
  hlo.return %0 : tensor<10xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @all_reduce_global_ids(%x: tensor<10xf32>) -> tensor<10xf32> {
  // expected-error @+1 {{'hlo.all_reduce' op use_global_device_ids needs a channel_id}}
  %0 = hlo.all_reduce %x {use_global_device_ids = true, to_apply = @add} : (tensor<10xf32>) -> tensor<10xf32>
  hlo.return %0 : tensor<10xf32>
}

// -----

hlo.computation @all_gather_global_ids_no_groups(%x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'hlo.all_gather' op use_global_device_ids needs replica_groups listing the devices}}
  %0 = hlo.all_gather %x {dimensions = array<i64: 0>, channel_id = 1 : i64, use_global_device_ids = true} : (tensor<4xf32>) -> tensor<8xf32>
  hlo.return %0 : tensor<8xf32>
}

// -----

hlo.computation @all_gather_dims(%x: tensor<4x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'hlo.all_gather' op dimension 2 is out of range for rank 2}}
  %0 = hlo.all_gather %x {dimensions = array<i64: 2>} : (tensor<4x8xf32>) -> tensor<8x8xf32>
  hlo.return %0 : tensor<8x8xf32>
}

// -----

hlo.computation @all_gather_group_size(%x: tensor<4x8xf32>) -> tensor<12x8xf32> {
  // expected-error @+1 {{'hlo.all_gather' op result 0 dimension 0 is 12 but all-gather over 2 participants gives 8}}
  %0 = hlo.all_gather %x {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">} : (tensor<4x8xf32>) -> tensor<12x8xf32>
  hlo.return %0 : tensor<12x8xf32>
}

// -----

hlo.computation @all_gather_iota_groups(%x: tensor<4xi32>) -> tensor<16xi32> {
  // expected-error @+1 {{'hlo.all_gather' op result 0 dimension 0 is 16 but all-gather over 8 participants gives 32}}
  %0 = hlo.all_gather %x {channel_id = 1 : i64, use_global_device_ids = true, dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"[1,8]<=[8]">} : (tensor<4xi32>) -> tensor<16xi32>
  hlo.return %0 : tensor<16xi32>
}

// -----

// Cross-replica-and-partition: a multiple of the group size is needed.
hlo.computation @all_gather_partition_multiple(%x: tensor<4x8xf32>) -> tensor<4x24xf32> {
  // expected-error @+1 {{'hlo.all_gather' op result 0 dimension 1 (24) and operand dimension 1 (8) are not related by a whole multiple of 2 participants}}
  %0 = hlo.all_gather %x {channel_id = 1 : i64, dimensions = array<i64: 1>, replica_groups = #hlo.replica_groups<"{{0,1}}">} : (tensor<4x8xf32>) -> tensor<4x24xf32>
  hlo.return %0 : tensor<4x24xf32>
}

// -----

hlo.computation @all_gather_no_groups(%x: tensor<4x8xf32>) -> tensor<6x8xf32> {
  // expected-error @+1 {{'hlo.all_gather' op result 0 dimension 0 (6) and operand dimension 0 (4) are not related by a whole multiple of 1 participants}}
  %0 = hlo.all_gather %x {dimensions = array<i64: 0>} : (tensor<4x8xf32>) -> tensor<6x8xf32>
  hlo.return %0 : tensor<6x8xf32>
}

// -----

hlo.computation @all_gather_other_dim(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'hlo.all_gather' op result 0 dimension 1 (size 4) must equal operand dimension 1 (size 8)}}
  %0 = hlo.all_gather %x {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1}}">} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  hlo.return %0 : tensor<8x4xf32>
}

// -----

hlo.computation @all_gather_uniform(%x: tensor<4x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'hlo.all_gather' op replica groups must all have the same size, got 2 and 1}}
  %0 = hlo.all_gather %x {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1},{2}}">} : (tensor<4x8xf32>) -> tensor<8x8xf32>
  hlo.return %0 : tensor<8x8xf32>
}

// -----

hlo.computation @all_gather_result_count(%x: tensor<4xf32>) -> tuple<tensor<8xf32>> {
  // expected-error @+1 {{'hlo.all_gather' op result must have one array per operand, got 'tuple<tensor<8xf32>>'}}
  %0 = hlo.all_gather %x, %x {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1}}">} : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<8xf32>>
  hlo.return %0 : tuple<tensor<8xf32>>
}

// -----

hlo.computation @all_gather_element_type(%x: tensor<4xf32>) -> tensor<8xf16> {
  // expected-error @+1 {{'hlo.all_gather' op result 0 of type 'tensor<8xf16>' must have operand 0's rank and element type ('tensor<4xf32>')}}
  %0 = hlo.all_gather %x {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1}}">} : (tensor<4xf32>) -> tensor<8xf16>
  hlo.return %0 : tensor<8xf16>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @reduce_scatter_divisible(%x: tensor<6x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'hlo.reduce_scatter' op reduce-scatter dimension 0 (size 6) must be a multiple of the group size 4}}
  %0 = hlo.reduce_scatter %x {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1,2,3}}">, to_apply = @add} : (tensor<6x4xf32>) -> tensor<1x4xf32>
  hlo.return %0 : tensor<1x4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @reduce_scatter_result(%x: tensor<8x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'hlo.reduce_scatter' op result 0 dimension 0 is 4 but reduce-scatter over 4 participants gives 2}}
  %0 = hlo.reduce_scatter %x {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1,2,3}}">, to_apply = @add} : (tensor<8x4xf32>) -> tensor<4x4xf32>
  hlo.return %0 : tensor<4x4xf32>
}

// -----

hlo.computation @mul(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = hlo.multiply %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i32>
  hlo.return %0 : tensor<i32>
}

hlo.computation @reduce_scatter_reducer(%x: tensor<8x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'hlo.reduce_scatter' op to_apply computation parameter 0 has type 'tensor<i32>', expected the accumulator type 'tensor<f32>'}}
  %0 = hlo.reduce_scatter %x {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1,2,3}}">, to_apply = @mul} : (tensor<8x4xf32>) -> tensor<2x4xf32>
  hlo.return %0 : tensor<2x4xf32>
}

// -----

hlo.computation @all_to_all_split(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {
  // expected-error @+1 {{'hlo.all_to_all' op split dimension 0 (size 6) must be a multiple of the group size 4}}
  %0 = hlo.all_to_all %x {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1,2,3}}">} : (tensor<6x4xf32>) -> tensor<6x4xf32>
  hlo.return %0 : tensor<6x4xf32>
}

// -----

hlo.computation @all_to_all_split_operands(%x: tensor<8x4xf32>) -> tuple<tensor<8x4xf32>, tensor<8x4xf32>> {
  // expected-error @+1 {{'hlo.all_to_all' op with a split dimension takes one operand, got 2}}
  %0 = hlo.all_to_all %x, %x {dimensions = array<i64: 0>} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tuple<tensor<8x4xf32>, tensor<8x4xf32>>
  hlo.return %0 : tuple<tensor<8x4xf32>, tensor<8x4xf32>>
}

// -----

hlo.computation @all_to_all_result(%x: tensor<8x4xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'hlo.all_to_all' op result type 'tensor<4x8xf32>' must match the operand types 'tensor<8x4xf32>'}}
  %0 = hlo.all_to_all %x {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1}}">} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  hlo.return %0 : tensor<4x8xf32>
}

// -----

hlo.computation @collective_permute_source(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.collective_permute' op source 0 appears more than once in source_target_pairs}}
  %0 = hlo.collective_permute %x {source_target_pairs = [array<i64: 0, 1>, array<i64: 0, 2>]} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @collective_permute_target(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.collective_permute' op target 1 appears more than once in source_target_pairs}}
  %0 = hlo.collective_permute %x {source_target_pairs = [array<i64: 0, 1>, array<i64: 2, 1>]} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @collective_permute_negative(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.collective_permute' op source_target_pairs entry [-1, 1] has a negative id}}
  %0 = hlo.collective_permute %x {source_target_pairs = [array<i64: -1, 1>]} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @collective_permute_pair(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.collective_permute' op source_target_pairs entry [0, 1, 2] must be a (source, target) pair}}
  %0 = hlo.collective_permute %x {source_target_pairs = [array<i64: 0, 1, 2>]} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @collective_permute_result(%x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'hlo.collective_permute' op result type 'tensor<8xf32>' should be 'tensor<4xf32>' (the operand type)}}
  %0 = hlo.collective_permute %x {source_target_pairs = [array<i64: 0, 1>]} : (tensor<4xf32>) -> tensor<8xf32>
  hlo.return %0 : tensor<8xf32>
}

// -----

hlo.computation @collective_broadcast_result(%x: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{'hlo.collective_broadcast' op result type 'tensor<4xi32>' should be 'tensor<4xf32>' (the operand types)}}
  %0 = hlo.collective_broadcast %x {replica_groups = #hlo.replica_groups<"{{0,1}}">} : (tensor<4xf32>) -> tensor<4xi32>
  hlo.return %0 : tensor<4xi32>
}

// -----

hlo.computation @replica_id() -> tensor<i32> {
  // expected-error @+1 {{'hlo.replica_id' op result type 'tensor<i32>' does not match the inferred type 'tensor<ui32>'}}
  %0 = hlo.replica_id : () -> tensor<i32>
  hlo.return %0 : tensor<i32>
}

// -----

hlo.computation @partition_id() -> tensor<2xui32> {
  // expected-error @+1 {{'hlo.partition_id' op result type 'tensor<2xui32>' does not match the inferred type 'tensor<ui32>'}}
  %0 = hlo.partition_id : () -> tensor<2xui32>
  hlo.return %0 : tensor<2xui32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @all_reduce_start_no_done(%x: tensor<10xf32>) -> tensor<10xf32> {
  // expected-error @+1 {{'hlo.all_reduce_start' op must have exactly one user (its all_reduce_done), has 0}}
  %0 = hlo.all_reduce_start %x {to_apply = @add} : (tensor<10xf32>) -> tensor<10xf32>
  hlo.return %x : tensor<10xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @all_reduce_start_wrong_user(%x: tensor<10xf32>) -> tensor<10xf32> {
  // expected-error @+1 {{'hlo.all_reduce_start' op is used by 'hlo.negate'; only all_reduce_done may}}
  %0 = hlo.all_reduce_start %x {to_apply = @add} : (tensor<10xf32>) -> tensor<10xf32>
  %1 = hlo.negate %0 : (tensor<10xf32>) -> tensor<10xf32>
  hlo.return %1 : tensor<10xf32>
}

// -----

hlo.computation @all_reduce_done_operand(%x: tensor<10xf32>) -> tensor<10xf32> {
  // expected-error @+1 {{'hlo.all_reduce_done' op operand must be produced by all_reduce_start}}
  %0 = hlo.all_reduce_done %x : (tensor<10xf32>) -> tensor<10xf32>
  hlo.return %0 : tensor<10xf32>
}

// -----

hlo.computation @all_gather_start_two_dones(%x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'hlo.all_gather_start' op must have exactly one user (its all_gather_done), has 2}}
  %0 = hlo.all_gather_start %x {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1}}">} : (tensor<4xf32>) -> tensor<8xf32>
  %1 = hlo.all_gather_done %0 : (tensor<8xf32>) -> tensor<8xf32>
  %2 = hlo.all_gather_done %0 : (tensor<8xf32>) -> tensor<8xf32>
  hlo.return %1 : tensor<8xf32>
}

// -----

hlo.computation @all_gather_start_shape(%x: tensor<4xf32>) -> tensor<12xf32> {
  // expected-error @+1 {{'hlo.all_gather_start' op result 0 dimension 0 is 12 but all-gather over 2 participants gives 8}}
  %0 = hlo.all_gather_start %x {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1}}">} : (tensor<4xf32>) -> tensor<12xf32>
  %1 = hlo.all_gather_done %0 : (tensor<12xf32>) -> tensor<12xf32>
  hlo.return %1 : tensor<12xf32>
}

// -----

hlo.computation @all_gather_done_result(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.all_gather_start %x {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1}}">} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<8xf32>>
  // expected-error @+1 {{'hlo.all_gather_done' op result type 'tensor<4xf32>' must be the start's result 'tuple<tensor<4xf32>, tensor<8xf32>>' or its element 1}}
  %1 = hlo.all_gather_done %0 : (tuple<tensor<4xf32>, tensor<8xf32>>) -> tensor<4xf32>
  hlo.return %1 : tensor<4xf32>
}

// -----

hlo.computation @collective_permute_start_legacy(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.collective_permute_start' op result type 'tuple<tensor<4xf32>, tensor<2xf32>, tensor<ui32>>' should start with (operand, result) of types ('tensor<4xf32>', 'tensor<4xf32>')}}
  %0 = hlo.collective_permute_start %x {source_target_pairs = [array<i64: 0, 1>]} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<2xf32>, tensor<ui32>>
  %1 = hlo.collective_permute_done %0 : (tuple<tensor<4xf32>, tensor<2xf32>, tensor<ui32>>) -> tensor<2xf32>
  hlo.return %x : tensor<4xf32>
}

// -----

hlo.computation @collective_permute_done_operand(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.collective_permute %x {source_target_pairs = [array<i64: 0, 1>]} : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'hlo.collective_permute_done' op operand must be produced by collective_permute_start}}
  %1 = hlo.collective_permute_done %0 : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %1 : tensor<4xf32>
}

// -----

hlo.computation @collective_permute_start_user(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.collective_permute_start' op is used by 'hlo.return'; only collective_permute_done may}}
  %0 = hlo.collective_permute_start %x {source_target_pairs = [array<i64: 0, 1>]} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @iota_groups_transpose(%x: tensor<8xf32>) -> tensor<8xf32> {
  // The attribute parser already rejects a transpose that is no permutation.
  // expected-error @+1 {{malformed iota replica groups '[2,2]<=[4]T(5)'}}
  %0 = hlo.all_reduce %x {replica_groups = #hlo.replica_groups<"[2,2]<=[4]T(5)">, to_apply = @add} : (tensor<8xf32>) -> tensor<8xf32>
  hlo.return %0 : tensor<8xf32>
}

// -----

// The in-place collective-permute (input, output, input and output start
// indices, slice_sizes).
hlo.computation @permute_slice_sizes_not_in_place(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.collective_permute' op slice_sizes is only for the in-place form (four operands)}}
  %0 = hlo.collective_permute %x {source_target_pairs = [array<i64: 0, 1>], slice_sizes = [array<i64: 2>]} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

// Three operands are XLA's combined form (arrays permuted together), which
// takes no tuple.
hlo.computation @permute_in_place_operands(%x: tensor<4xf32>, %y: tensor<8xf32>, %i: tuple<tensor<i32>>) -> tensor<8xf32> {
  // expected-error @+1 {{'hlo.collective_permute' op operand 'tuple<tensor<i32>>' must be an array (the in-place form takes four operands: input, output, input and output start indices)}}
  %0 = hlo.collective_permute %x, %y, %i {source_target_pairs = [array<i64: 0, 1>]} : (tensor<4xf32>, tensor<8xf32>, tuple<tensor<i32>>) -> tensor<8xf32>
  hlo.return %0 : tensor<8xf32>
}

// -----

hlo.computation @permute_combined_result(%x: tensor<4xf32>, %y: tensor<8xi32>) -> tuple<tensor<4xf32>, tensor<8xf32>> {
  // expected-error @+1 {{'hlo.collective_permute' op result type 'tuple<tensor<4xf32>, tensor<8xf32>>' should be 'tuple<tensor<4xf32>, tensor<8xi32>>' (the operands' types)}}
  %0 = hlo.collective_permute %x, %y {source_target_pairs = [array<i64: 0, 1>]} : (tensor<4xf32>, tensor<8xi32>) -> tuple<tensor<4xf32>, tensor<8xf32>>
  hlo.return %0 : tuple<tensor<4xf32>, tensor<8xf32>>
}

// -----

hlo.computation @permute_combined_slice_sizes(%x: tensor<4xf32>, %y: tensor<8xf32>) -> tuple<tensor<4xf32>, tensor<8xf32>> {
  // expected-error @+1 {{'hlo.collective_permute' op slice_sizes is only for the in-place form (four operands)}}
  %0 = hlo.collective_permute %x, %y {source_target_pairs = [array<i64: 0, 1>], slice_sizes = [array<i64: 2>]} : (tensor<4xf32>, tensor<8xf32>) -> tuple<tensor<4xf32>, tensor<8xf32>>
  hlo.return %0 : tuple<tensor<4xf32>, tensor<8xf32>>
}

// -----

hlo.computation @permute_combined_start(%x: tensor<4xf32>, %y: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.collective_permute_start' op result type 'tuple<tensor<4xf32>, tensor<4xf32>>' should start with (operand, result) of types ('tuple<tensor<4xf32>, tensor<8xf32>>', 'tuple<tensor<4xf32>, tensor<8xf32>>')}}
  %0 = hlo.collective_permute_start %x, %y {source_target_pairs = [array<i64: 0, 1>]} : (tensor<4xf32>, tensor<8xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %1 = hlo.collective_permute_done %0 : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  hlo.return %1 : tensor<4xf32>
}

// -----

hlo.computation @permute_in_place_buffers(%x: tensor<4xf32>, %y: tensor<8xi32>, %i: tuple<tensor<i32>>) -> tensor<8xi32> {
  // expected-error @+1 {{'hlo.collective_permute' op input buffer 'tensor<4xf32>' and output buffer 'tensor<8xi32>' must be static arrays of one element type and rank}}
  %0 = hlo.collective_permute %x, %y, %i, %i {source_target_pairs = [array<i64: 0, 1>]} : (tensor<4xf32>, tensor<8xi32>, tuple<tensor<i32>>, tuple<tensor<i32>>) -> tensor<8xi32>
  hlo.return %0 : tensor<8xi32>
}

// -----

hlo.computation @permute_in_place_starts(%x: tensor<4x2xf32>, %y: tensor<8x2xf32>, %i: tuple<tensor<i32>>) -> tensor<8x2xf32> {
  // expected-error @+1 {{'hlo.collective_permute' op input start indices 'tuple<tensor<i32>>' must be a tuple of 2 integer scalars or a tuple of such tuples}}
  %0 = hlo.collective_permute %x, %y, %i, %i {source_target_pairs = [array<i64: 0, 1>]} : (tensor<4x2xf32>, tensor<8x2xf32>, tuple<tensor<i32>>, tuple<tensor<i32>>) -> tensor<8x2xf32>
  hlo.return %0 : tensor<8x2xf32>
}

// -----

hlo.computation @permute_in_place_entries(%x: tensor<4xf32>, %y: tensor<8xf32>, %i: tuple<tensor<i32>>, %o: tuple<tuple<tensor<i32>>, tuple<tensor<i32>>>) -> tensor<8xf32> {
  // expected-error @+1 {{'hlo.collective_permute' op every buffer's input and output start indices must have 1 entries}}
  %0 = hlo.collective_permute %x, %y, %i, %o {source_target_pairs = [array<i64: 0, 1>]} : (tensor<4xf32>, tensor<8xf32>, tuple<tensor<i32>>, tuple<tuple<tensor<i32>>, tuple<tensor<i32>>>) -> tensor<8xf32>
  hlo.return %0 : tensor<8xf32>
}

// -----

hlo.computation @permute_in_place_slice_count(%x: tensor<4xf32>, %y: tensor<8xf32>, %i: tuple<tensor<i32>>) -> tensor<8xf32> {
  // expected-error @+1 {{'hlo.collective_permute' op slice_sizes has 2 lists, expected one per buffer and start-index entry (1)}}
  %0 = hlo.collective_permute %x, %y, %i, %i {source_target_pairs = [array<i64: 0, 1>], slice_sizes = [array<i64: 2>, array<i64: 2>]} : (tensor<4xf32>, tensor<8xf32>, tuple<tensor<i32>>, tuple<tensor<i32>>) -> tensor<8xf32>
  hlo.return %0 : tensor<8xf32>
}

// -----

hlo.computation @permute_in_place_slice_fit(%x: tensor<4xf32>, %y: tensor<8xf32>, %i: tuple<tensor<i32>>) -> tensor<8xf32> {
  // expected-error @+1 {{'hlo.collective_permute' op slice of sizes [5] does not fit input buffer 'tensor<4xf32>' and output buffer 'tensor<8xf32>'}}
  %0 = hlo.collective_permute %x, %y, %i, %i {source_target_pairs = [array<i64: 0, 1>], slice_sizes = [array<i64: 5>]} : (tensor<4xf32>, tensor<8xf32>, tuple<tensor<i32>>, tuple<tensor<i32>>) -> tensor<8xf32>
  hlo.return %0 : tensor<8xf32>
}

// -----

hlo.computation @permute_in_place_whole_input(%x: tensor<8xf32>, %y: tensor<4xf32>, %i: tuple<tensor<i32>>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.collective_permute' op slice of sizes [8] does not fit input buffer 'tensor<8xf32>' and output buffer 'tensor<4xf32>'}}
  %0 = hlo.collective_permute %x, %y, %i, %i {source_target_pairs = [array<i64: 0, 1>]} : (tensor<8xf32>, tensor<4xf32>, tuple<tensor<i32>>, tuple<tensor<i32>>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @permute_in_place_chunks(%x: tensor<4xf32>, %y: tensor<8xf32>, %i: tuple<tuple<tensor<i32>>, tuple<tensor<i32>>>) -> tensor<8xf32> {
  // expected-error @+1 {{'hlo.collective_permute' op source_target_pairs (3) must split into 2 equal chunks, one per start-index entry}}
  %0 = hlo.collective_permute %x, %y, %i, %i {source_target_pairs = [array<i64: 0, 1>, array<i64: 1, 0>, array<i64: 0, 1>]} : (tensor<4xf32>, tensor<8xf32>, tuple<tuple<tensor<i32>>, tuple<tensor<i32>>>, tuple<tuple<tensor<i32>>, tuple<tensor<i32>>>) -> tensor<8xf32>
  hlo.return %0 : tensor<8xf32>
}

// -----

hlo.computation @permute_in_place_chunk_target(%x: tensor<4xf32>, %y: tensor<8xf32>, %i: tuple<tuple<tensor<i32>>, tuple<tensor<i32>>>) -> tensor<8xf32> {
  // expected-error @+1 {{'hlo.collective_permute' op target 1 appears more than once in a chunk of source_target_pairs}}
  %0 = hlo.collective_permute %x, %y, %i, %i {source_target_pairs = [array<i64: 0, 1>, array<i64: 1, 0>, array<i64: 0, 1>, array<i64: 2, 1>]} : (tensor<4xf32>, tensor<8xf32>, tuple<tuple<tensor<i32>>, tuple<tensor<i32>>>, tuple<tuple<tensor<i32>>, tuple<tensor<i32>>>) -> tensor<8xf32>
  hlo.return %0 : tensor<8xf32>
}

// -----

hlo.computation @permute_in_place_result(%x: tensor<4xf32>, %y: tensor<8xf32>, %i: tuple<tensor<i32>>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.collective_permute' op result type 'tensor<4xf32>' should be 'tensor<8xf32>' (the output buffer type)}}
  %0 = hlo.collective_permute %x, %y, %i, %i {source_target_pairs = [array<i64: 0, 1>]} : (tensor<4xf32>, tensor<8xf32>, tuple<tensor<i32>>, tuple<tensor<i32>>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @permute_in_place_tuples(%x: tuple<tensor<4xf32>>, %y: tuple<tensor<8xf32>, tensor<8xf32>>, %i: tuple<tuple<tensor<i32>>>) -> tuple<tensor<8xf32>, tensor<8xf32>> {
  // expected-error @+1 {{'hlo.collective_permute_start' op input buffer 'tuple<tensor<4xf32>>' and output buffer 'tuple<tensor<8xf32>, tensor<8xf32>>' must both be arrays or tuples of as many arrays}}
  %0 = hlo.collective_permute_start %x, %y, %i, %i {source_target_pairs = [array<i64: 0, 1>]} : (tuple<tensor<4xf32>>, tuple<tensor<8xf32>, tensor<8xf32>>, tuple<tuple<tensor<i32>>>, tuple<tuple<tensor<i32>>>) -> tuple<tensor<8xf32>, tensor<8xf32>>
  %1 = hlo.collective_permute_done %0 : (tuple<tensor<8xf32>, tensor<8xf32>>) -> tuple<tensor<8xf32>, tensor<8xf32>>
  hlo.return %1 : tuple<tensor<8xf32>, tensor<8xf32>>
}
