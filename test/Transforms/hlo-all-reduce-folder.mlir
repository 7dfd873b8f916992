// RUN: hlo-opt %s -split-input-file --hlo-all-reduce-folder | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-all-reduce-folder --hlo-check-semantics -o /dev/null

// Each test makes its input differ per replica (x * (replica-id + 1)) and
// all-gathers the results, so that the semantics check (which compares the
// first device's result) sees every replica.

// Groups {{0,1},{2,3}} then {{0,2},{1,3}}: every replica gets the sum of
// all four, one all-reduce over {{0,1,2,3}} (the reducers are the same
// addition, whatever their names and operand order). Three in a row fold
// twice.
// CHECK-LABEL: hlo.computation @fold
module attributes {hlo.replica_count = 4 : i64} {
  hlo.computation private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %s = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    hlo.return %s : tensor<f32>
  }
  hlo.computation private @add2(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %s = hlo.add %b, %a : (tensor<f32>, tensor<f32>) -> tensor<f32>
    hlo.return %s : tensor<f32>
  }
  hlo.computation @fold(%p: tensor<3xf32>) -> tuple<tensor<12xf32>, tensor<12xf32>, tensor<12xf32>> attributes {entry} {
    %r = hlo.replica_id : () -> tensor<ui32>
    %one = hlo.constant {value = dense<1> : tensor<ui32>} : () -> tensor<ui32>
    %r1 = hlo.add %r, %one : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %rf = hlo.convert %r1 : (tensor<ui32>) -> tensor<f32>
    %rb = hlo.broadcast %rf {dimensions = array<i64>} : (tensor<f32>) -> tensor<3xf32>
    %x = hlo.multiply %p, %rb : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    // CHECK: %[[X:.*]] = multiply
    // CHECK-NEXT: %[[A:.*]] = all_reduce %[[X]] {replica_groups = #hlo.replica_groups<"{{[{][{]}}0,1,2,3}}">, to_apply = @add}
    %ar0 = hlo.all_reduce %x {replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">, to_apply = @add} : (tensor<3xf32>) -> tensor<3xf32>
    %ar1 = hlo.all_reduce %ar0 {replica_groups = #hlo.replica_groups<"[2,2]<=[2,2]T(1,0)">, to_apply = @add2} : (tensor<3xf32>) -> tensor<3xf32>
    // Single groups after pairs: the pairs.
    // CHECK-NEXT: %[[B:.*]] = all_reduce %[[X]] {replica_groups = #hlo.replica_groups<"{{[{][{]}}0,1},{2,3}}">, to_apply = @add}
    %ar2 = hlo.all_reduce %x {replica_groups = #hlo.replica_groups<"{{1,0},{3,2}}">, to_apply = @add} : (tensor<3xf32>) -> tensor<3xf32>
    %ar3 = hlo.all_reduce %ar2 {replica_groups = #hlo.replica_groups<"{{0},{1},{2},{3}}">, to_apply = @add} : (tensor<3xf32>) -> tensor<3xf32>
    // A chain of three: {{0},{1},{2},{3}}, {{0,1},{2,3}}, {{0,2},{1,3}}.
    // CHECK-NEXT: %[[C:.*]] = all_reduce %[[X]] {replica_groups = #hlo.replica_groups<"{{[{][{]}}0,1,2,3}}">, to_apply = @add}
    %ar4 = hlo.all_reduce %x {replica_groups = #hlo.replica_groups<"{{0},{1},{2},{3}}">, to_apply = @add} : (tensor<3xf32>) -> tensor<3xf32>
    %ar5 = hlo.all_reduce %ar4 {replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">, to_apply = @add} : (tensor<3xf32>) -> tensor<3xf32>
    %ar6 = hlo.all_reduce %ar5 {replica_groups = #hlo.replica_groups<"{{0,2},{1,3}}">, to_apply = @add} : (tensor<3xf32>) -> tensor<3xf32>
    // CHECK-NOT: all_reduce
    %g0 = hlo.all_gather %ar1 {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<12xf32>
    %g1 = hlo.all_gather %ar3 {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<12xf32>
    %g2 = hlo.all_gather %ar6 {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<12xf32>
    %t = hlo.tuple %g0, %g1, %g2 : (tensor<12xf32>, tensor<12xf32>, tensor<12xf32>) -> tuple<tensor<12xf32>, tensor<12xf32>, tensor<12xf32>>
    hlo.return %t : tuple<tensor<12xf32>, tensor<12xf32>, tensor<12xf32>>
  }
}

// -----

// Global device ids over 2 replicas x 2 partitions: the folded all-reduce
// gets a new channel id, one past the largest in the module.
// CHECK-LABEL: hlo.computation @global
module attributes {hlo.replica_count = 2 : i64, hlo.num_partitions = 2 : i64} {
  hlo.computation private @max(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
    %s = hlo.maximum %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i32>
    hlo.return %s : tensor<i32>
  }
  hlo.computation @global(%p: tensor<2xi32>) -> tensor<8xi32> attributes {entry} {
    %r = hlo.replica_id : () -> tensor<ui32>
    %q = hlo.partition_id : () -> tensor<ui32>
    %two = hlo.constant {value = dense<2> : tensor<ui32>} : () -> tensor<ui32>
    %r2 = hlo.multiply %r, %two : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %d = hlo.add %r2, %q : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %di = hlo.convert %d : (tensor<ui32>) -> tensor<i32>
    %db = hlo.broadcast %di {dimensions = array<i64>} : (tensor<i32>) -> tensor<2xi32>
    %x = hlo.multiply %p, %db : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    // CHECK: all_reduce %{{.*}} {channel_id = 8 : i64, replica_groups = #hlo.replica_groups<"{{[{][{]}}0,1,2,3}}">, to_apply = @max, use_global_device_ids = true}
    %ar0 = hlo.all_reduce %x {channel_id = 1 : i64, replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">, to_apply = @max, use_global_device_ids = true} : (tensor<2xi32>) -> tensor<2xi32>
    %ar1 = hlo.all_reduce %ar0 {channel_id = 7 : i64, replica_groups = #hlo.replica_groups<"{{0,2},{1,3}}">, to_apply = @max, use_global_device_ids = true} : (tensor<2xi32>) -> tensor<2xi32>
    // CHECK-NOT: all_reduce
    %g = hlo.all_gather %ar1 {channel_id = 2 : i64, dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1,2,3}}">, use_global_device_ids = true} : (tensor<2xi32>) -> tensor<8xi32>
    hlo.return %g : tensor<8xi32>
  }
}

// -----

// Not folded: groups that make a replica contribute twice ({{0,1},{2,3}}
// twice), groups whose combined participants see different sets, an inner
// all-reduce with another user, different reductions, empty groups, a
// channel id on one only, a control predecessor.
// CHECK-LABEL: hlo.computation @keep
module attributes {hlo.replica_count = 4 : i64} {
  hlo.computation private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %s = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    hlo.return %s : tensor<f32>
  }
  hlo.computation private @max(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %s = hlo.maximum %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    hlo.return %s : tensor<f32>
  }
  hlo.computation private @add_twice(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %s = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %t = hlo.add %s, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    hlo.return %t : tensor<f32>
  }
  hlo.computation @keep(%p: tensor<1xf32>) -> tensor<36xf32> attributes {entry} {
    %r = hlo.replica_id : () -> tensor<ui32>
    %one = hlo.constant {value = dense<1> : tensor<ui32>} : () -> tensor<ui32>
    %r1 = hlo.add %r, %one : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %rs = hlo.convert %r1 : (tensor<ui32>) -> tensor<f32>
    %rf = hlo.broadcast %rs {dimensions = array<i64>} : (tensor<f32>) -> tensor<1xf32>
    %x = hlo.multiply %p, %rf : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    // CHECK-COUNT-16: all_reduce
    %a0 = hlo.all_reduce %x {replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">, to_apply = @add} : (tensor<1xf32>) -> tensor<1xf32>
    %a1 = hlo.all_reduce %a0 {replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">, to_apply = @add} : (tensor<1xf32>) -> tensor<1xf32>
    %b0 = hlo.all_reduce %x {replica_groups = #hlo.replica_groups<"{{0,1},{2},{3}}">, to_apply = @add} : (tensor<1xf32>) -> tensor<1xf32>
    %b1 = hlo.all_reduce %b0 {replica_groups = #hlo.replica_groups<"{{0,2},{1},{3}}">, to_apply = @add} : (tensor<1xf32>) -> tensor<1xf32>
    %c0 = hlo.all_reduce %x {replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">, to_apply = @add} : (tensor<1xf32>) -> tensor<1xf32>
    %c1 = hlo.all_reduce %c0 {replica_groups = #hlo.replica_groups<"{{0,2},{1,3}}">, to_apply = @add} : (tensor<1xf32>) -> tensor<1xf32>
    %d0 = hlo.all_reduce %x {replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">, to_apply = @add} : (tensor<1xf32>) -> tensor<1xf32>
    %d1 = hlo.all_reduce %d0 {replica_groups = #hlo.replica_groups<"{{0,2},{1,3}}">, to_apply = @max} : (tensor<1xf32>) -> tensor<1xf32>
    %e0 = hlo.all_reduce %x {replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">, to_apply = @add_twice} : (tensor<1xf32>) -> tensor<1xf32>
    %e1 = hlo.all_reduce %e0 {replica_groups = #hlo.replica_groups<"{{0,2},{1,3}}">, to_apply = @add_twice} : (tensor<1xf32>) -> tensor<1xf32>
    %f0 = hlo.all_reduce %x {replica_groups = #hlo.replica_groups<"{}">, to_apply = @add} : (tensor<1xf32>) -> tensor<1xf32>
    %f1 = hlo.all_reduce %f0 {replica_groups = #hlo.replica_groups<"{{0,2},{1,3}}">, to_apply = @add} : (tensor<1xf32>) -> tensor<1xf32>
    %g0 = hlo.all_reduce %x {channel_id = 1 : i64, replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">, to_apply = @add} : (tensor<1xf32>) -> tensor<1xf32>
    %g1 = hlo.all_reduce %g0 {replica_groups = #hlo.replica_groups<"{{0,2},{1,3}}">, to_apply = @add} : (tensor<1xf32>) -> tensor<1xf32>
    %h0 = hlo.all_reduce %x {replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">, to_apply = @add} : (tensor<1xf32>) -> tensor<1xf32>
    %h1 = hlo.all_reduce %h0 after(%g1 : tensor<1xf32>) {replica_groups = #hlo.replica_groups<"{{0,2},{1,3}}">, to_apply = @add} : (tensor<1xf32>) -> tensor<1xf32>
    // CHECK-NOT: all_reduce
    %c = hlo.concatenate %a1, %b1, %c0, %c1, %d1, %e1, %f1, %g1, %h1 {dimensions = array<i64: 0>} : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<9xf32>
    %all = hlo.all_gather %c {dimensions = array<i64: 0>} : (tensor<9xf32>) -> tensor<36xf32>
    hlo.return %all : tensor<36xf32>
  }
}

// -----

// Not folded: a channel id without global device ids over 2 partitions
// (each group spans both partitions, so the outer sum counts the inner one
// twice), and a module with a layout-constrained all-reduce.
// CHECK-LABEL: hlo.computation @partitions
module attributes {hlo.replica_count = 2 : i64, hlo.num_partitions = 2 : i64} {
  hlo.computation private @add(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
    %s = hlo.add %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i32>
    hlo.return %s : tensor<i32>
  }
  hlo.computation @partitions(%p: tensor<2xi32>) -> tensor<8xi32> attributes {entry} {
    %r = hlo.replica_id : () -> tensor<ui32>
    %q = hlo.partition_id : () -> tensor<ui32>
    %two = hlo.constant {value = dense<2> : tensor<ui32>} : () -> tensor<ui32>
    %r2 = hlo.multiply %r, %two : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %d = hlo.add %r2, %q : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %di = hlo.convert %d : (tensor<ui32>) -> tensor<i32>
    %db = hlo.broadcast %di {dimensions = array<i64>} : (tensor<i32>) -> tensor<2xi32>
    %x = hlo.multiply %p, %db : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    // CHECK: all_reduce
    // CHECK: all_reduce
    %ar0 = hlo.all_reduce %x {channel_id = 1 : i64, replica_groups = #hlo.replica_groups<"{{0},{1}}">, to_apply = @add} : (tensor<2xi32>) -> tensor<2xi32>
    %ar1 = hlo.all_reduce %ar0 {channel_id = 2 : i64, replica_groups = #hlo.replica_groups<"{{0,1}}">, to_apply = @add} : (tensor<2xi32>) -> tensor<2xi32>
    %g = hlo.all_gather %ar1 {channel_id = 3 : i64, dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1,2,3}}">, use_global_device_ids = true} : (tensor<2xi32>) -> tensor<8xi32>
    hlo.return %g : tensor<8xi32>
  }
}

// -----

// CHECK-LABEL: hlo.computation @constrained
module attributes {hlo.replica_count = 4 : i64} {
  hlo.computation private @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %s = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    hlo.return %s : tensor<f32>
  }
  hlo.computation @constrained(%p: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>> attributes {entry} {
    // CHECK-COUNT-3: all_reduce
    %ar0 = hlo.all_reduce %p {replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">, to_apply = @add} : (tensor<f32>) -> tensor<f32>
    %ar1 = hlo.all_reduce %ar0 {replica_groups = #hlo.replica_groups<"{{0,2},{1,3}}">, to_apply = @add} : (tensor<f32>) -> tensor<f32>
    %c = hlo.all_reduce %p {constrain_layout = true, to_apply = @add} : (tensor<f32>) -> tensor<f32>
    %t = hlo.tuple %ar1, %c : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
    hlo.return %t : tuple<tensor<f32>, tensor<f32>>
  }
}
