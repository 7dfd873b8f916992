// RUN: hlo-opt %s | hlo-opt | FileCheck %s

// Collectives and their -start/-done forms, replica_id and partition_id.

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// CHECK-LABEL: hlo.computation @all_reduce
hlo.computation @all_reduce(%x: tensor<10xf32>, %y: tensor<2x2xf32>) -> tensor<10xf32> {
  // CHECK: %0 = all_reduce %arg0 {replica_groups = #hlo.replica_groups<"{{[{][{]}}0,1},{2,3}}">, to_apply = @add} : (tensor<10xf32>) -> tensor<10xf32>
  %0 = hlo.all_reduce %x {replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">, to_apply = @add} : (tensor<10xf32>) -> tensor<10xf32>
  // Groups of unequal size are allowed for all-reduce.
  // CHECK: %1 = all_reduce %arg0, %arg1 {channel_id = 5 : i64, constrain_layout = false, replica_groups = #hlo.replica_groups<"{{[{][{]}}0},{1,2,3}}">, to_apply = @add, use_global_device_ids = true} : (tensor<10xf32>, tensor<2x2xf32>) -> tuple<tensor<10xf32>, tensor<2x2xf32>>
  %1 = hlo.all_reduce %x, %y {channel_id = 5 : i64, replica_groups = #hlo.replica_groups<"{{0},{1,2,3}}">, use_global_device_ids = true, constrain_layout = false, to_apply = @add} : (tensor<10xf32>, tensor<2x2xf32>) -> tuple<tensor<10xf32>, tensor<2x2xf32>>
  // CHECK: %2 = all_reduce_start %arg0 {replica_groups = #hlo.replica_groups<"[2,4]<=[4,2]T(1,0)">, to_apply = @add} : (tensor<10xf32>) -> tensor<10xf32>
  %2 = hlo.all_reduce_start %x {replica_groups = #hlo.replica_groups<"[2,4]<=[4,2]T(1,0)">, to_apply = @add} : (tensor<10xf32>) -> tensor<10xf32>
  // CHECK: %3 = all_reduce_done %2 : (tensor<10xf32>) -> tensor<10xf32>
  %3 = hlo.all_reduce_done %2 : (tensor<10xf32>) -> tensor<10xf32>
  hlo.return %3 : tensor<10xf32>
}

// CHECK-LABEL: hlo.computation @all_gather
hlo.computation @all_gather(%x: tensor<4x8xf32>, %y: tensor<4xi32>) -> tensor<8x8xf32> {
  // Two participants per group: dimension 0 doubles.
  // CHECK: %0 = all_gather %arg0 {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{[{][{]}}0,1},{2,3}}">} : (tensor<4x8xf32>) -> tensor<8x8xf32>
  %0 = hlo.all_gather %x {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">} : (tensor<4x8xf32>) -> tensor<8x8xf32>
  // Cross-replica-and-partition (channel id, replica ids): each group also
  // spans the partitions, so any multiple of the group size is accepted.
  // CHECK: %1 = all_gather %arg0 {channel_id = 1 : i64, dimensions = array<i64: 1>, replica_groups = #hlo.replica_groups<"{{[{][{]}}0,1}}">} : (tensor<4x8xf32>) -> tensor<4x64xf32>
  %1 = hlo.all_gather %x {channel_id = 1 : i64, dimensions = array<i64: 1>, replica_groups = #hlo.replica_groups<"{{0,1}}">} : (tensor<4x8xf32>) -> tensor<4x64xf32>
  // Variadic, no groups listed (all replicas).
  // CHECK: %2 = all_gather %arg0, %arg1 {dimensions = array<i64: 0>} : (tensor<4x8xf32>, tensor<4xi32>) -> tuple<tensor<16x8xf32>, tensor<16xi32>>
  %2 = hlo.all_gather %x, %y {dimensions = array<i64: 0>} : (tensor<4x8xf32>, tensor<4xi32>) -> tuple<tensor<16x8xf32>, tensor<16xi32>>
  // CHECK: %3 = all_gather_start %arg0 {channel_id = 1 : i64, dimensions = array<i64: 1>, replica_groups = #hlo.replica_groups<"[1,8]<=[8]">, use_global_device_ids = true} : (tensor<4x8xf32>) -> tensor<4x64xf32>
  %3 = hlo.all_gather_start %x {channel_id = 1 : i64, dimensions = array<i64: 1>, replica_groups = #hlo.replica_groups<"[1,8]<=[8]">, use_global_device_ids = true} : (tensor<4x8xf32>) -> tensor<4x64xf32>
  // CHECK: %4 = all_gather_done %3 : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %4 = hlo.all_gather_done %3 : (tensor<4x64xf32>) -> tensor<4x64xf32>
  // Legacy form: the start returns (operand, result).
  // CHECK: %5 = all_gather_start %arg0 {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{[{][{]}}0,1}}">} : (tensor<4x8xf32>) -> tuple<tensor<4x8xf32>, tensor<8x8xf32>>
  %5 = hlo.all_gather_start %x {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1}}">} : (tensor<4x8xf32>) -> tuple<tensor<4x8xf32>, tensor<8x8xf32>>
  // CHECK: %6 = all_gather_done %5 : (tuple<tensor<4x8xf32>, tensor<8x8xf32>>) -> tensor<8x8xf32>
  %6 = hlo.all_gather_done %5 : (tuple<tensor<4x8xf32>, tensor<8x8xf32>>) -> tensor<8x8xf32>
  hlo.return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: hlo.computation @reduce_scatter_all_to_all
hlo.computation @reduce_scatter_all_to_all(%x: tensor<8x4xf32>, %y: tensor<6xf32>, %off: tensor<3xi32>) -> tensor<2x4xf32> {
  // CHECK: %0 = reduce_scatter %arg0 {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{[{][{]}}0,1,2,3}}">, to_apply = @add} : (tensor<8x4xf32>) -> tensor<2x4xf32>
  %0 = hlo.reduce_scatter %x {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1,2,3}}">, to_apply = @add} : (tensor<8x4xf32>) -> tensor<2x4xf32>
  // CHECK: %1 = all_to_all %arg0 {channel_id = 2 : i64, dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{[{][{]}}0,1},{2,3}}">} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = hlo.all_to_all %x {channel_id = 2 : i64, dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  // Tuple form: one array per participant, no split dimension.
  // CHECK: %2 = all_to_all %arg0, %arg0 {replica_groups = #hlo.replica_groups<"{{[{][{]}}0,1}}">} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tuple<tensor<8x4xf32>, tensor<8x4xf32>>
  %2 = hlo.all_to_all %x, %x {replica_groups = #hlo.replica_groups<"{{0,1}}">} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tuple<tensor<8x4xf32>, tensor<8x4xf32>>
  // CHECK: %3 = ragged_all_to_all %arg1, %arg1, %arg2, %arg2, %arg2, %arg2 {channel_id = 1 : i64, replica_groups = #hlo.replica_groups<"{{[{][{]}}0,1,2}}">} : (tensor<6xf32>, tensor<6xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<6xf32>
  %3 = hlo.ragged_all_to_all %y, %y, %off, %off, %off, %off {channel_id = 1 : i64, replica_groups = #hlo.replica_groups<"{{0,1,2}}">} : (tensor<6xf32>, tensor<6xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<6xf32>
  hlo.return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: hlo.computation @permute_broadcast
hlo.computation @permute_broadcast(%x: tensor<128x32xf32>) -> tensor<128x32xf32> {
  // CHECK: %0 = collective_permute %arg0 {channel_id = 1 : i64, source_target_pairs = [array<i64: 0, 1>, array<i64: 1, 2>, array<i64: 2, 0>]} : (tensor<128x32xf32>) -> tensor<128x32xf32>
  %0 = hlo.collective_permute %x {channel_id = 1 : i64, source_target_pairs = [array<i64: 0, 1>, array<i64: 1, 2>, array<i64: 2, 0>]} : (tensor<128x32xf32>) -> tensor<128x32xf32>
  // CHECK: %1 = collective_permute_start %0 {source_target_pairs = [array<i64: 0, 1>]} : (tensor<128x32xf32>) -> tensor<128x32xf32>
  %1 = hlo.collective_permute_start %0 {source_target_pairs = [array<i64: 0, 1>]} : (tensor<128x32xf32>) -> tensor<128x32xf32>
  // CHECK: %2 = collective_permute_done %1 : (tensor<128x32xf32>) -> tensor<128x32xf32>
  %2 = hlo.collective_permute_done %1 : (tensor<128x32xf32>) -> tensor<128x32xf32>
  // Legacy form: (operand, result, u32 contexts).
  // CHECK: %3 = collective_permute_start %2 {source_target_pairs = [array<i64: 1, 0>]} : (tensor<128x32xf32>) -> tuple<tensor<128x32xf32>, tensor<128x32xf32>, tensor<ui32>, tensor<ui32>>
  %3 = hlo.collective_permute_start %2 {source_target_pairs = [array<i64: 1, 0>]} : (tensor<128x32xf32>) -> tuple<tensor<128x32xf32>, tensor<128x32xf32>, tensor<ui32>, tensor<ui32>>
  // CHECK: %4 = collective_permute_done %3 : (tuple<tensor<128x32xf32>, tensor<128x32xf32>, tensor<ui32>, tensor<ui32>>) -> tensor<128x32xf32>
  %4 = hlo.collective_permute_done %3 : (tuple<tensor<128x32xf32>, tensor<128x32xf32>, tensor<ui32>, tensor<ui32>>) -> tensor<128x32xf32>
  // CHECK: %5 = collective_broadcast %4 {replica_groups = #hlo.replica_groups<"{{[{][{]}}0,1},{2,3}}">} : (tensor<128x32xf32>) -> tensor<128x32xf32>
  %5 = hlo.collective_broadcast %4 {replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">} : (tensor<128x32xf32>) -> tensor<128x32xf32>
  // CHECK: %6 = collective_reduce %5 {replica_groups = #hlo.replica_groups<"{{[{][{]}}0,1}}">, to_apply = @add} : (tensor<128x32xf32>) -> tensor<128x32xf32>
  %6 = hlo.collective_reduce %5 {replica_groups = #hlo.replica_groups<"{{0,1}}">, to_apply = @add} : (tensor<128x32xf32>) -> tensor<128x32xf32>
  // CHECK: %7 = shuffle %6 {channel_id = 3 : i64} : (tensor<128x32xf32>) -> tensor<128x32xf32>
  %7 = hlo.shuffle %6 {channel_id = 3 : i64} : (tensor<128x32xf32>) -> tensor<128x32xf32>
  hlo.return %7 : tensor<128x32xf32>
}

// XLA's combined form: arrays permuted together, a tuple result; its start
// holds (operands, results).
// CHECK-LABEL: hlo.computation @permute_combined
hlo.computation @permute_combined(%x: tensor<4xf32>, %y: tensor<2x3xi8>) -> tuple<tensor<4xf32>, tensor<2x3xi8>> {
  // CHECK: %0 = collective_permute %arg0, %arg1 {source_target_pairs = [array<i64: 0, 1>, array<i64: 1, 0>]} : (tensor<4xf32>, tensor<2x3xi8>) -> tuple<tensor<4xf32>, tensor<2x3xi8>>
  %0 = hlo.collective_permute %x, %y {source_target_pairs = [array<i64: 0, 1>, array<i64: 1, 0>]} : (tensor<4xf32>, tensor<2x3xi8>) -> tuple<tensor<4xf32>, tensor<2x3xi8>>
  // CHECK: %1 = collective_permute_start %arg0, %arg1 {source_target_pairs = [array<i64: 0, 1>]} : (tensor<4xf32>, tensor<2x3xi8>) -> tuple<tuple<tensor<4xf32>, tensor<2x3xi8>>, tuple<tensor<4xf32>, tensor<2x3xi8>>>
  %1 = hlo.collective_permute_start %x, %y {source_target_pairs = [array<i64: 0, 1>]} : (tensor<4xf32>, tensor<2x3xi8>) -> tuple<tuple<tensor<4xf32>, tensor<2x3xi8>>, tuple<tensor<4xf32>, tensor<2x3xi8>>>
  // CHECK: %2 = collective_permute_done %1 : (tuple<tuple<tensor<4xf32>, tensor<2x3xi8>>, tuple<tensor<4xf32>, tensor<2x3xi8>>>) -> tuple<tensor<4xf32>, tensor<2x3xi8>>
  %2 = hlo.collective_permute_done %1 : (tuple<tuple<tensor<4xf32>, tensor<2x3xi8>>, tuple<tensor<4xf32>, tensor<2x3xi8>>>) -> tuple<tensor<4xf32>, tensor<2x3xi8>>
  hlo.return %2 : tuple<tensor<4xf32>, tensor<2x3xi8>>
}

// CHECK-LABEL: hlo.computation @ids
hlo.computation @ids() -> tuple<tensor<ui32>, tensor<ui32>> {
  // CHECK: %0 = replica_id  : () -> tensor<ui32>
  %0 = hlo.replica_id : () -> tensor<ui32>
  // CHECK: %1 = partition_id  : () -> tensor<ui32>
  %1 = hlo.partition_id : () -> tensor<ui32>
  %2 = hlo.tuple %0, %1 : (tensor<ui32>, tensor<ui32>) -> tuple<tensor<ui32>, tensor<ui32>>
  hlo.return %2 : tuple<tensor<ui32>, tensor<ui32>>
}
