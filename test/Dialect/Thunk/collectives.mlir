// RUN: hlo-opt %s | FileCheck %s
// RUN: hlo-opt %s | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --emit-bytecode | hlo-opt | FileCheck %s

// The collective thunks of a program of 2 replicas x 2 partitions: groups
// and pairs name device ids (replica * 2 + partition); each device's random
// state, which starts at rng_seed.

// CHECK-LABEL: thunk.program @main attributes {num_partitions = 2 : i64, num_replicas = 2 : i64, rng_seed = 7 : i64} {
// CHECK: thunk.rng_get_and_update_state %{{.*}} delta 16 : memref<2xui64>
// CHECK: thunk.device_id replica %{{.*}} : memref<ui32>
// CHECK: thunk.device_id partition %{{.*}} : memref<ui32>
// CHECK: thunk.all_reduce sum groups [array<i64: 0, 2>, array<i64: 1, 3>] ins(%[[A:.*]], %{{.*}} : memref<8xf32>, memref<2x4xi32, strided<[1, 2]>>) outs(%{{.*}}, %{{.*}} : memref<8xf32>, memref<2x4xi32>)
// CHECK: thunk.all_gather dimension 1 groups [array<i64: 0, 1, 2, 3>] ins(%{{.*}} : memref<2x4xi32, strided<[1, 2]>>) outs(%{{.*}} : memref<2x16xi32>)
// CHECK: thunk.reduce_scatter max dimension 0 groups [array<i64: 0, 1>, array<i64: 2, 3>] ins(%[[A]] : memref<8xf32>) outs(%{{.*}} : memref<4xf32>)
// CHECK: thunk.all_to_all dimension 0 groups [array<i64: 0, 1, 2, 3>] ins(%[[A]] : memref<8xf32>) outs(%{{.*}} : memref<8xf32>)
// CHECK: thunk.all_to_all groups [array<i64: 0, 1>, array<i64: 2, 3>] ins(%[[A]], %[[A]] : memref<8xf32>, memref<8xf32>) outs(%{{.*}}, %{{.*}} : memref<8xf32>, memref<8xf32>)
// CHECK: thunk.collective_permute pairs [array<i64: 0, 1>, array<i64: 1, 0>] ins(%[[A]] : memref<8xf32>) outs(%{{.*}} : memref<8xf32>)
// CHECK: thunk.collective_broadcast groups [array<i64: 3, 0, 1, 2>] ins(%[[A]] : memref<8xf32>) outs(%{{.*}} : memref<8xf32>)
// CHECK: thunk.ragged_all_to_all groups [array<i64: 0, 1>, array<i64: 2, 3>] ins(%[[J:.*]] : memref<2x4xi32>) ranges(%[[O:.*]], %[[O]], %[[O]], %[[O]] : memref<4xi64>, memref<4xi64>, memref<4xi64>, memref<4xi64>) outs(%{{.*}} : memref<4x4xi32>)
// An asynchronous all-reduce and the thunk that waits for it:
// CHECK: thunk.all_reduce sum groups [array<i64: 0, 1, 2, 3>] ins(%[[A]] : memref<8xf32>) outs(%{{.*}} : memref<8xf32>) {async_id = 0 : i64}
// CHECK-NEXT: thunk.device_id replica
// CHECK-NEXT: thunk.collective_done 0

thunk.allocation @p0 parameter size = 64 {parameter = 0 : i64}
thunk.allocation @out output size = 256
thunk.program @main attributes {num_replicas = 2 : i64, num_partitions = 2 : i64, rng_seed = 7 : i64} {
  %a = thunk.slice @p0[0] : memref<8xf32>
  %rng = thunk.slice @out[240] : memref<2xui64>
  %i = thunk.slice @p0[32] : memref<2x4xi32, strided<[1, 2]>>
  %r = thunk.slice @out[0] : memref<ui32>
  %p = thunk.slice @out[4] : memref<ui32>
  %b = thunk.slice @out[32] : memref<8xf32>
  %j = thunk.slice @out[64] : memref<2x4xi32>
  %g = thunk.slice @out[96] : memref<2x16xi32>
  %s = thunk.slice @out[224] : memref<4xf32>
  %c = thunk.slice @out[0] : memref<8xf32>
  thunk.rng_get_and_update_state %rng delta 16 : memref<2xui64>
  thunk.device_id replica %r : memref<ui32>
  thunk.device_id partition %p : memref<ui32>
  thunk.all_reduce sum groups [array<i64: 0, 2>, array<i64: 1, 3>]
      ins(%a, %i : memref<8xf32>, memref<2x4xi32, strided<[1, 2]>>)
      outs(%b, %j : memref<8xf32>, memref<2x4xi32>)
  thunk.all_gather dimension 1 groups [array<i64: 0, 1, 2, 3>]
      ins(%i : memref<2x4xi32, strided<[1, 2]>>) outs(%g : memref<2x16xi32>)
  thunk.reduce_scatter max dimension 0 groups [array<i64: 0, 1>, array<i64: 2, 3>]
      ins(%a : memref<8xf32>) outs(%s : memref<4xf32>)
  thunk.all_to_all dimension 0 groups [array<i64: 0, 1, 2, 3>]
      ins(%a : memref<8xf32>) outs(%b : memref<8xf32>)
  thunk.all_to_all groups [array<i64: 0, 1>, array<i64: 2, 3>]
      ins(%a, %a : memref<8xf32>, memref<8xf32>) outs(%b, %c : memref<8xf32>, memref<8xf32>)
  thunk.collective_permute pairs [array<i64: 0, 1>, array<i64: 1, 0>]
      ins(%a : memref<8xf32>) outs(%b : memref<8xf32>)
  thunk.collective_broadcast groups [array<i64: 3, 0, 1, 2>]
      ins(%a : memref<8xf32>) outs(%b : memref<8xf32>)
  %o = thunk.slice @out[32] : memref<4xi64>
  %k = thunk.slice @out[96] : memref<4x4xi32>
  thunk.ragged_all_to_all groups [array<i64: 0, 1>, array<i64: 2, 3>]
      ins(%j : memref<2x4xi32>)
      ranges(%o, %o, %o, %o : memref<4xi64>, memref<4xi64>, memref<4xi64>,
                              memref<4xi64>)
      outs(%k : memref<4x4xi32>)
  thunk.all_reduce sum groups [array<i64: 0, 1, 2, 3>]
      ins(%a : memref<8xf32>) outs(%c : memref<8xf32>) {async_id = 0 : i64}
  thunk.device_id replica %r : memref<ui32>
  thunk.collective_done 0
  thunk.return %b : memref<8xf32>
}
