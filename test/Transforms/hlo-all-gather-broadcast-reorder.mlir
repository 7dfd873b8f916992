// RUN: hlo-opt %s -split-input-file --hlo-all-gather-broadcast-reorder | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-all-gather-broadcast-reorder --hlo-check-semantics -o /dev/null

// The inputs differ per replica (x * (replica-id + 1)) and the results are
// all-gathered once more, so that the semantics check (which compares the
// first device's result) sees every replica.

// Gathered along a dimension of x (result dimension 2 is x's dimension 0):
// gather x, then broadcast as before.
// CHECK-LABEL: hlo.computation @along_operand
// CHECK: %[[X:.*]] = multiply
// CHECK-NEXT: %[[G:.*]] = all_gather %[[X]] {dimensions = array<i64: 0>} : (tensor<3x2xf32>) -> tensor<6x2xf32>
// CHECK-NEXT: %[[B:.*]] = broadcast %[[G]] {dimensions = array<i64: 2, 0>} : (tensor<6x2xf32>) -> tensor<2x4x6xf32>
// CHECK-NOT: all_gather {{.*}}tensor<2x4x3xf32>
module attributes {hlo.replica_count = 2 : i64} {
  hlo.computation @along_operand(%p: tensor<3x2xf32>) -> tensor<4x4x6xf32> attributes {entry} {
    %r = hlo.replica_id : () -> tensor<ui32>
    %one = hlo.constant {value = dense<1> : tensor<ui32>} : () -> tensor<ui32>
    %r1 = hlo.add %r, %one : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %rf = hlo.convert %r1 : (tensor<ui32>) -> tensor<f32>
    %rb = hlo.broadcast %rf {dimensions = array<i64>} : (tensor<f32>) -> tensor<3x2xf32>
    %x = hlo.multiply %p, %rb : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
    %b = hlo.broadcast %x {dimensions = array<i64: 2, 0>} : (tensor<3x2xf32>) -> tensor<2x4x3xf32>
    %ag = hlo.all_gather %b {dimensions = array<i64: 2>} : (tensor<2x4x3xf32>) -> tensor<2x4x6xf32>
    %c = hlo.copy %ag : (tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
    %all = hlo.all_gather %c {dimensions = array<i64: 0>} : (tensor<2x4x6xf32>) -> tensor<4x4x6xf32>
    hlo.return %all : tensor<4x4x6xf32>
  }
}

// -----

// Gathered along a dimension the broadcast adds: x as [1, 3], gathered to
// [4, 3], broadcast to [3, 4, 2, 5] (the gathered 8 split in 4
// participants x 2) and reshaped. With a channel id, the new all-gather
// gets a new one, one past the largest in the module.
// CHECK-LABEL: hlo.computation @along_uniform
// CHECK: %[[X:.*]] = multiply {{.*}}tensor<3xf32>
// CHECK-NEXT: %[[R:.*]] = reshape %[[X]] : (tensor<3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: %[[G:.*]] = all_gather %[[R]] {channel_id = 6 : i64, dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{[{][{]}}0,1,2,3}}">, use_global_device_ids = true} : (tensor<1x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[B:.*]] = broadcast %[[G]] {dimensions = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4x2x5xf32>
// CHECK-NEXT: %[[S:.*]] = reshape %[[B]] : (tensor<3x4x2x5xf32>) -> tensor<3x8x5xf32>
// CHECK-NEXT: copy %[[S]]
module attributes {hlo.replica_count = 2 : i64, hlo.num_partitions = 2 : i64} {
  hlo.computation @along_uniform(%p: tensor<3xf32>) -> tensor<12x8x5xf32> attributes {entry} {
    %r = hlo.replica_id : () -> tensor<ui32>
    %q = hlo.partition_id : () -> tensor<ui32>
    %two = hlo.constant {value = dense<2> : tensor<ui32>} : () -> tensor<ui32>
    %r2 = hlo.multiply %r, %two : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %d = hlo.add %r2, %q : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %df = hlo.convert %d : (tensor<ui32>) -> tensor<f32>
    %db = hlo.broadcast %df {dimensions = array<i64>} : (tensor<f32>) -> tensor<3xf32>
    %x = hlo.add %p, %db : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %m = hlo.multiply %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %b = hlo.broadcast %m {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3x2x5xf32>
    %ag = hlo.all_gather %b {channel_id = 5 : i64, dimensions = array<i64: 1>, replica_groups = #hlo.replica_groups<"{{0,1,2,3}}">, use_global_device_ids = true} : (tensor<3x2x5xf32>) -> tensor<3x8x5xf32>
    %c = hlo.copy %ag : (tensor<3x8x5xf32>) -> tensor<3x8x5xf32>
    %all = hlo.all_gather %c {channel_id = 1 : i64, dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1,2,3}}">, use_global_device_ids = true} : (tensor<3x8x5xf32>) -> tensor<12x8x5xf32>
    hlo.return %all : tensor<12x8x5xf32>
  }
}

// -----

// Not reordered: nothing to save (the broadcast adds only the gathered
// dimension, or one of size 1), an operand that is not a broadcast, two
// operands, a control predecessor.
// CHECK-LABEL: hlo.computation @keep
// CHECK-COUNT-6: all_gather %{{.*}} {dimensions = array<i64: {{1|2}}>}
// CHECK-NOT: all_gather
module attributes {hlo.replica_count = 2 : i64} {
  hlo.computation @keep(%p: tensor<3xf32>, %q: tensor<3x2x5xf32>) -> tuple<tensor<3x2xf32>, tensor<3x1x4xf32>, tensor<3x2xf32>, tensor<3x4x5xf32>, tuple<tensor<3x4x5xf32>, tensor<3x4x5xf32>>, tensor<3x4x5xf32>> attributes {entry} {
    %b1 = hlo.broadcast %p {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3x1xf32>
    %a1 = hlo.all_gather %b1 {dimensions = array<i64: 1>} : (tensor<3x1xf32>) -> tensor<3x2xf32>
    %b2 = hlo.broadcast %p {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3x1x2xf32>
    %a2 = hlo.all_gather %b2 {dimensions = array<i64: 2>} : (tensor<3x1x2xf32>) -> tensor<3x1x4xf32>
    %s = hlo.reshape %p : (tensor<3xf32>) -> tensor<3x1xf32>
    %a3 = hlo.all_gather %s {dimensions = array<i64: 1>} : (tensor<3x1xf32>) -> tensor<3x2xf32>
    %b3 = hlo.broadcast %p {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3x2x5xf32>
    %a4 = hlo.all_gather %q {dimensions = array<i64: 1>} : (tensor<3x2x5xf32>) -> tensor<3x4x5xf32>
    %a5 = hlo.all_gather %b3, %q {dimensions = array<i64: 1>} : (tensor<3x2x5xf32>, tensor<3x2x5xf32>) -> tuple<tensor<3x4x5xf32>, tensor<3x4x5xf32>>
    %a6 = hlo.all_gather %b3 after(%a5 : tuple<tensor<3x4x5xf32>, tensor<3x4x5xf32>>) {dimensions = array<i64: 1>} : (tensor<3x2x5xf32>) -> tensor<3x4x5xf32>
    %t = hlo.tuple %a1, %a2, %a3, %a4, %a5, %a6 : (tensor<3x2xf32>, tensor<3x1x4xf32>, tensor<3x2xf32>, tensor<3x4x5xf32>, tuple<tensor<3x4x5xf32>, tensor<3x4x5xf32>>, tensor<3x4x5xf32>) -> tuple<tensor<3x2xf32>, tensor<3x1x4xf32>, tensor<3x2xf32>, tensor<3x4x5xf32>, tuple<tensor<3x4x5xf32>, tensor<3x4x5xf32>>, tensor<3x4x5xf32>>
    hlo.return %t : tuple<tensor<3x2xf32>, tensor<3x1x4xf32>, tensor<3x2xf32>, tensor<3x4x5xf32>, tuple<tensor<3x4x5xf32>, tensor<3x4x5xf32>>, tensor<3x4x5xf32>>
  }
}

// -----

// Not reordered: the module has a layout-constrained all-gather.
// CHECK-LABEL: hlo.computation @constrained
// CHECK: broadcast
// CHECK-NEXT: all_gather
module attributes {hlo.replica_count = 2 : i64} {
  hlo.computation @constrained(%p: tensor<3xf32>) -> tuple<tensor<3x4x5xf32>, tensor<6xf32>> attributes {entry} {
    %b = hlo.broadcast %p {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3x2x5xf32>
    %a = hlo.all_gather %b {dimensions = array<i64: 1>} : (tensor<3x2x5xf32>) -> tensor<3x4x5xf32>
    %c = hlo.all_gather %p {constrain_layout = true, dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<6xf32>
    %t = hlo.tuple %a, %c : (tensor<3x4x5xf32>, tensor<6xf32>) -> tuple<tensor<3x4x5xf32>, tensor<6xf32>>
    hlo.return %t : tuple<tensor<3x4x5xf32>, tensor<6xf32>>
  }
}
