// RUN: hlo-opt %s -split-input-file --hlo-reduce-scatter-creator | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-reduce-scatter-creator --hlo-check-semantics -o /dev/null

// Each test makes its input differ per device (p + id) and all-gathers the
// results, so that the semantics check (which compares the first device's
// result) sees every device.

// Cross-replica, 4 replicas: each replica slices block `replica-id` (the
// id times the block size, through a convert), or looks its offset up in
// a table for groups {{0,1},{2,3}}, or slices a reshape of the all-reduce
// along a dimension the reshape keeps, or slices a dimension that does not
// divide evenly (9 = 4 blocks of 2 and one element nobody reads).
// CHECK-LABEL: hlo.computation @replicas
// CHECK: %[[X:.*]] = add %arg0
// CHECK: %[[A:.*]] = reduce_scatter %[[X]] {dimensions = array<i64: 0>, to_apply = @add} : (tensor<8x6xf32>) -> tensor<2x6xf32>
// CHECK: %[[B:.*]] = reduce_scatter %{{.*}} {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{[{][{]}}0,1},{2,3}}">, to_apply = @add} : (tensor<6xf32>) -> tensor<3xf32>
// CHECK: %[[C:.*]] = reduce_scatter %{{.*}} {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4x3x2xf32>) -> tensor<1x3x2xf32>
// CHECK-NEXT: reshape %[[C]] : (tensor<1x3x2xf32>) -> tensor<1x6xf32>
// CHECK: %[[S:.*]] = slice %{{.*}} {slice = #hlo.slice<"{[0:8]}">} : (tensor<9xf32>) -> tensor<8xf32>
// CHECK-NEXT: reduce_scatter %[[S]] {dimensions = array<i64: 0>, to_apply = @add} : (tensor<8xf32>) -> tensor<2xf32>
// CHECK-NOT: all_reduce
// CHECK-NOT: dynamic_slice %{{.*}} : (tensor<{{.*}}xf32>
module attributes {hlo.replica_count = 4 : i64} {
  hlo.computation private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %s = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    hlo.return %s : tensor<f32>
  }
  hlo.computation @replicas(%p: tensor<8x6xf32>, %p2: tensor<6xf32>, %p3: tensor<4x3x2xf32>, %p4: tensor<9xf32>) -> tuple<tensor<8x6xf32>, tensor<12xf32>, tensor<4x6xf32>, tensor<8xf32>> attributes {entry} {
    %r = hlo.replica_id : () -> tensor<ui32>
    %rf = hlo.convert %r : (tensor<ui32>) -> tensor<f32>
    %ri = hlo.convert %r : (tensor<ui32>) -> tensor<i32>
    %zero = hlo.constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %two = hlo.constant {value = dense<2> : tensor<i32>} : () -> tensor<i32>
    %rb = hlo.broadcast %rf {dimensions = array<i64>} : (tensor<f32>) -> tensor<8x6xf32>
    %x = hlo.add %p, %rb : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
    %ar = hlo.all_reduce %x {to_apply = @add} : (tensor<8x6xf32>) -> tensor<8x6xf32>
    %off = hlo.multiply %ri, %two : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %ds = hlo.dynamic_slice %ar, %off, %zero {dynamic_slice_sizes = array<i64: 2, 6>} : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x6xf32>
    %g = hlo.all_gather %ds {dimensions = array<i64: 0>} : (tensor<2x6xf32>) -> tensor<8x6xf32>

    %rb2 = hlo.broadcast %rf {dimensions = array<i64>} : (tensor<f32>) -> tensor<6xf32>
    %x2 = hlo.add %p2, %rb2 : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    %ar2 = hlo.all_reduce %x2 {replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">, to_apply = @add} : (tensor<6xf32>) -> tensor<6xf32>
    %table = hlo.constant {value = dense<[0, 3, 0, 3]> : tensor<4xi32>} : () -> tensor<4xi32>
    %entry = hlo.dynamic_slice %table, %r {dynamic_slice_sizes = array<i64: 1>} : (tensor<4xi32>, tensor<ui32>) -> tensor<1xi32>
    %off2 = hlo.reshape %entry : (tensor<1xi32>) -> tensor<i32>
    %ds2 = hlo.dynamic_slice %ar2, %off2 {dynamic_slice_sizes = array<i64: 3>} : (tensor<6xf32>, tensor<i32>) -> tensor<3xf32>
    %g2 = hlo.all_gather %ds2 {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<12xf32>

    %rb3 = hlo.broadcast %rf {dimensions = array<i64>} : (tensor<f32>) -> tensor<4x3x2xf32>
    %x3 = hlo.add %p3, %rb3 : (tensor<4x3x2xf32>, tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
    %ar3 = hlo.all_reduce %x3 {to_apply = @add} : (tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
    %re3 = hlo.reshape %ar3 : (tensor<4x3x2xf32>) -> tensor<4x6xf32>
    %ds3 = hlo.dynamic_slice %re3, %ri, %zero {dynamic_slice_sizes = array<i64: 1, 6>} : (tensor<4x6xf32>, tensor<i32>, tensor<i32>) -> tensor<1x6xf32>
    %g3 = hlo.all_gather %ds3 {dimensions = array<i64: 0>} : (tensor<1x6xf32>) -> tensor<4x6xf32>

    %rb4 = hlo.broadcast %rf {dimensions = array<i64>} : (tensor<f32>) -> tensor<9xf32>
    %x4 = hlo.add %p4, %rb4 : (tensor<9xf32>, tensor<9xf32>) -> tensor<9xf32>
    %ar4 = hlo.all_reduce %x4 {to_apply = @add} : (tensor<9xf32>) -> tensor<9xf32>
    %off4 = hlo.multiply %two, %ri : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %ds4 = hlo.dynamic_slice %ar4, %off4 {dynamic_slice_sizes = array<i64: 2>} : (tensor<9xf32>, tensor<i32>) -> tensor<2xf32>
    %g4 = hlo.all_gather %ds4 {dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<8xf32>

    %t = hlo.tuple %g, %g2, %g3, %g4 : (tensor<8x6xf32>, tensor<12xf32>, tensor<4x6xf32>, tensor<8xf32>) -> tuple<tensor<8x6xf32>, tensor<12xf32>, tensor<4x6xf32>, tensor<8xf32>>
    hlo.return %t : tuple<tensor<8x6xf32>, tensor<12xf32>, tensor<4x6xf32>, tensor<8xf32>>
  }
}

// -----

// 2 replicas x 2 partitions. Across partitions (a channel id, one replica
// per group): the offset is partition-id times the block. With global
// device ids over all four devices: the flattened id
// partition-id + replica-id * 2. New channel ids, one past the largest.
// CHECK-LABEL: hlo.computation @partitions
// CHECK: reduce_scatter %{{.*}} {channel_id = 4 : i64, dimensions = array<i64: 1>, replica_groups = #hlo.replica_groups<"{{[{][{]}}0},{1}}">, to_apply = @add} : (tensor<2x6xf32>) -> tensor<2x3xf32>
// CHECK: reduce_scatter %{{.*}} {channel_id = 5 : i64, dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{[{][{]}}0,1,2,3}}">, to_apply = @add, use_global_device_ids = true} : (tensor<8xf32>) -> tensor<2xf32>
// CHECK-NOT: all_reduce
module attributes {hlo.replica_count = 2 : i64, hlo.num_partitions = 2 : i64} {
  hlo.computation private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %s = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    hlo.return %s : tensor<f32>
  }
  hlo.computation @partitions(%p: tensor<2x6xf32>, %p2: tensor<8xf32>) -> tuple<tensor<8x3xf32>, tensor<8xf32>> attributes {entry} {
    %r = hlo.replica_id : () -> tensor<ui32>
    %q = hlo.partition_id : () -> tensor<ui32>
    %two = hlo.constant {value = dense<2> : tensor<ui32>} : () -> tensor<ui32>
    %three = hlo.constant {value = dense<3> : tensor<ui32>} : () -> tensor<ui32>
    %zero = hlo.constant {value = dense<0> : tensor<ui32>} : () -> tensor<ui32>
    %r2 = hlo.multiply %r, %two : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %d = hlo.add %q, %r2 : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %df = hlo.convert %d : (tensor<ui32>) -> tensor<f32>

    %db = hlo.broadcast %df {dimensions = array<i64>} : (tensor<f32>) -> tensor<2x6xf32>
    %x = hlo.add %p, %db : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
    %ar = hlo.all_reduce %x {channel_id = 1 : i64, replica_groups = #hlo.replica_groups<"{{0},{1}}">, to_apply = @add} : (tensor<2x6xf32>) -> tensor<2x6xf32>
    %off = hlo.multiply %q, %three : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %ds = hlo.dynamic_slice %ar, %zero, %off {dynamic_slice_sizes = array<i64: 2, 3>} : (tensor<2x6xf32>, tensor<ui32>, tensor<ui32>) -> tensor<2x3xf32>
    %g = hlo.all_gather %ds {channel_id = 2 : i64, dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1,2,3}}">, use_global_device_ids = true} : (tensor<2x3xf32>) -> tensor<8x3xf32>

    %db2 = hlo.broadcast %df {dimensions = array<i64>} : (tensor<f32>) -> tensor<8xf32>
    %x2 = hlo.add %p2, %db2 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %ar2 = hlo.all_reduce %x2 {channel_id = 3 : i64, replica_groups = #hlo.replica_groups<"{{0,1,2,3}}">, to_apply = @add, use_global_device_ids = true} : (tensor<8xf32>) -> tensor<8xf32>
    %off2 = hlo.multiply %d, %two : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %ds2 = hlo.dynamic_slice %ar2, %off2 {dynamic_slice_sizes = array<i64: 2>} : (tensor<8xf32>, tensor<ui32>) -> tensor<2xf32>
    %g2 = hlo.all_gather %ds2 {channel_id = 2 : i64, dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1,2,3}}">, use_global_device_ids = true} : (tensor<2xf32>) -> tensor<8xf32>

    %t = hlo.tuple %g, %g2 : (tensor<8x3xf32>, tensor<8xf32>) -> tuple<tensor<8x3xf32>, tensor<8xf32>>
    hlo.return %t : tuple<tensor<8x3xf32>, tensor<8xf32>>
  }
}

// -----

// Not rewritten: an offset that is not the position in the group (replica
// ids 2 and 3 are the first and second of their group), a table with a
// wrong entry, a clamp that may bind, an all-reduce with a second user,
// a slice of two dimensions, blocks that do not match the group size.
// CHECK-LABEL: hlo.computation @keep
// CHECK-COUNT-6: all_reduce
// CHECK-NOT: reduce_scatter
// CHECK: return
module attributes {hlo.replica_count = 4 : i64} {
  hlo.computation private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %s = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    hlo.return %s : tensor<f32>
  }
  hlo.computation @keep(%p: tensor<8xf32>, %p2: tensor<4x4xf32>) -> tuple<tensor<8xf32>, tensor<16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<32xf32>, tensor<8x2xf32>, tensor<16xf32>> attributes {entry} {
    %r = hlo.replica_id : () -> tensor<ui32>
    %rf = hlo.convert %r : (tensor<ui32>) -> tensor<f32>
    %ri = hlo.convert %r : (tensor<ui32>) -> tensor<i32>
    %zero = hlo.constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %two = hlo.constant {value = dense<2> : tensor<i32>} : () -> tensor<i32>
    %four = hlo.constant {value = dense<4> : tensor<i32>} : () -> tensor<i32>
    %rb = hlo.broadcast %rf {dimensions = array<i64>} : (tensor<f32>) -> tensor<8xf32>
    %x = hlo.add %p, %rb : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %off = hlo.multiply %ri, %four : (tensor<i32>, tensor<i32>) -> tensor<i32>

    %a1 = hlo.all_reduce %x {replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">, to_apply = @add} : (tensor<8xf32>) -> tensor<8xf32>
    %d1 = hlo.dynamic_slice %a1, %off {dynamic_slice_sizes = array<i64: 4>} : (tensor<8xf32>, tensor<i32>) -> tensor<4xf32>

    %a2 = hlo.all_reduce %x {to_apply = @add} : (tensor<8xf32>) -> tensor<8xf32>
    %table = hlo.constant {value = dense<[0, 2, 4, 4]> : tensor<4xi32>} : () -> tensor<4xi32>
    %entry = hlo.dynamic_slice %table, %r {dynamic_slice_sizes = array<i64: 1>} : (tensor<4xi32>, tensor<ui32>) -> tensor<1xi32>
    %off2 = hlo.reshape %entry : (tensor<1xi32>) -> tensor<i32>
    %d2 = hlo.dynamic_slice %a2, %off2 {dynamic_slice_sizes = array<i64: 2>} : (tensor<8xf32>, tensor<i32>) -> tensor<2xf32>

    %a3 = hlo.all_reduce %x {to_apply = @add} : (tensor<8xf32>) -> tensor<8xf32>
    %off3 = hlo.multiply %ri, %two : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %c3 = hlo.clamp %zero, %off3, %four : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %d3 = hlo.dynamic_slice %a3, %c3 {dynamic_slice_sizes = array<i64: 2>} : (tensor<8xf32>, tensor<i32>) -> tensor<2xf32>

    %a4 = hlo.all_reduce %x {to_apply = @add} : (tensor<8xf32>) -> tensor<8xf32>
    %d4 = hlo.dynamic_slice %a4, %off3 {dynamic_slice_sizes = array<i64: 2>} : (tensor<8xf32>, tensor<i32>) -> tensor<2xf32>

    %rb5 = hlo.broadcast %rf {dimensions = array<i64>} : (tensor<f32>) -> tensor<4x4xf32>
    %x5 = hlo.add %p2, %rb5 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %a5 = hlo.all_reduce %x5 {to_apply = @add} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %d5 = hlo.dynamic_slice %a5, %off3, %off3 {dynamic_slice_sizes = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>

    %a6 = hlo.all_reduce %x {to_apply = @add} : (tensor<8xf32>) -> tensor<8xf32>
    %d6 = hlo.dynamic_slice %a6, %off {dynamic_slice_sizes = array<i64: 4>} : (tensor<8xf32>, tensor<i32>) -> tensor<4xf32>

    %g_d2 = hlo.all_gather %d2 {dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<8xf32>
    %g_d1 = hlo.all_gather %d1 {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<16xf32>
    %g_d3 = hlo.all_gather %d3 {dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<8xf32>
    %g_d4 = hlo.all_gather %d4 {dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<8xf32>
    %g_a4 = hlo.all_gather %a4 {dimensions = array<i64: 0>} : (tensor<8xf32>) -> tensor<32xf32>
    %g_d5 = hlo.all_gather %d5 {dimensions = array<i64: 0>} : (tensor<2x2xf32>) -> tensor<8x2xf32>
    %g_d6 = hlo.all_gather %d6 {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<16xf32>
    %t = hlo.tuple %g_d2, %g_d1, %g_d3, %g_d4, %g_a4, %g_d5, %g_d6 : (tensor<8xf32>, tensor<16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<32xf32>, tensor<8x2xf32>, tensor<16xf32>) -> tuple<tensor<8xf32>, tensor<16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<32xf32>, tensor<8x2xf32>, tensor<16xf32>>
    hlo.return %t : tuple<tensor<8xf32>, tensor<16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<32xf32>, tensor<8x2xf32>, tensor<16xf32>>
  }
}
