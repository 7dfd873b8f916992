// RUN: hlo-opt %s -split-input-file --hlo-dot-decomposer | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-dot-decomposer --hlo-check-semantics -o /dev/null

// Two contracting dimensions, batch dimensions not first (the rhs pairs its
// contracting dimensions in another order): each operand is transposed to
// [batch, free, contracting] (rhs [batch, contracting, free]), merged to
// one free and one contracting dimension, and the result reshaped back.
// CHECK-LABEL: hlo.computation @contracting_pairs
hlo.computation @contracting_pairs(%a: tensor<2x3x4x5xf32>, %b: tensor<4x2x6x3xf32>) -> tensor<2x5x6xf32> attributes {entry} {
  // CHECK: %[[LT:.*]] = transpose %arg0 {dimensions = array<i64: 0, 3, 1, 2>} : (tensor<2x3x4x5xf32>) -> tensor<2x5x3x4xf32>
  // CHECK: %[[L:.*]] = reshape %[[LT]] : (tensor<2x5x3x4xf32>) -> tensor<2x5x12xf32>
  // CHECK: %[[RT:.*]] = transpose %arg1 {dimensions = array<i64: 1, 3, 0, 2>} : (tensor<4x2x6x3xf32>) -> tensor<2x3x4x6xf32>
  // CHECK: %[[R:.*]] = reshape %[[RT]] : (tensor<2x3x4x6xf32>) -> tensor<2x12x6xf32>
  // CHECK: %[[D:.*]] = dot %[[L]], %[[R]] {lhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_batch_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 1>} : (tensor<2x5x12xf32>, tensor<2x12x6xf32>) -> tensor<2x5x6xf32>
  // CHECK: %[[O:.*]] = reshape %[[D]] : (tensor<2x5x6xf32>) -> tensor<2x5x6xf32>
  // CHECK: return %[[O]]
  %0 = hlo.dot %a, %b {lhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 1, 2>, rhs_batch_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 3, 0>} : (tensor<2x3x4x5xf32>, tensor<4x2x6x3xf32>) -> tensor<2x5x6xf32>
  hlo.return %0 : tensor<2x5x6xf32>
}

// -----

// Several free dimensions on the lhs: merged into one (no transpose needed),
// the result reshaped back to [2, 3, 5].
// CHECK-LABEL: hlo.computation @free_dims
hlo.computation @free_dims(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) -> tensor<2x3x5xf32> attributes {entry} {
  // CHECK-NOT: transpose
  // CHECK: %[[L:.*]] = reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  // CHECK-NEXT: %[[D:.*]] = dot %[[L]], %arg1 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<6x4xf32>, tensor<4x5xf32>) -> tensor<6x5xf32>
  // CHECK-NEXT: %[[O:.*]] = reshape %[[D]] : (tensor<6x5xf32>) -> tensor<2x3x5xf32>
  %0 = hlo.dot %a, %b {lhs_contracting_dims = array<i64: 2>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  hlo.return %0 : tensor<2x3x5xf32>
}

// -----

// An outer product (no contracting dimension) contracts a dimension of
// size 1; no free dimension on the lhs (all contracted) leaves none.
// CHECK-LABEL: hlo.computation @outer_and_vector
hlo.computation @outer_and_vector(%x: tensor<3xf32>, %y: tensor<4xf32>, %m: tensor<2x3xf32>, %n: tensor<2x3x5xf32>) -> tuple<tensor<3x4xf32>, tensor<5xf32>> attributes {entry} {
  // CHECK: %[[X:.*]] = reshape %arg0 : (tensor<3xf32>) -> tensor<3x1xf32>
  // CHECK-NEXT: %[[Y:.*]] = reshape %arg1 : (tensor<4xf32>) -> tensor<1x4xf32>
  // CHECK-NEXT: %[[D:.*]] = dot %[[X]], %[[Y]] {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<3x1xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
  // CHECK-NEXT: %[[O:.*]] = reshape %[[D]] : (tensor<3x4xf32>) -> tensor<3x4xf32>
  // CHECK: %[[M:.*]] = reshape %arg2 : (tensor<2x3xf32>) -> tensor<6xf32>
  // CHECK-NEXT: %[[N:.*]] = reshape %arg3 : (tensor<2x3x5xf32>) -> tensor<6x5xf32>
  // CHECK-NEXT: %[[V:.*]] = dot %[[M]], %[[N]] {lhs_contracting_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 0>} : (tensor<6xf32>, tensor<6x5xf32>) -> tensor<5xf32>
  // CHECK-NEXT: %[[W:.*]] = reshape %[[V]] : (tensor<5xf32>) -> tensor<5xf32>
  // CHECK: tuple %[[O]], %[[W]]
  %0 = hlo.dot %x, %y : (tensor<3xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %1 = hlo.dot %m, %n {lhs_contracting_dims = array<i64: 0, 1>, rhs_contracting_dims = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<2x3x5xf32>) -> tensor<5xf32>
  %r = hlo.tuple %0, %1 : (tensor<3x4xf32>, tensor<5xf32>) -> tuple<tensor<3x4xf32>, tensor<5xf32>>
  hlo.return %r : tuple<tensor<3x4xf32>, tensor<5xf32>>
}

// -----

// Batch dimensions last: moved first. The new dot keeps the precision
// config and the declared result element type; the reshape that replaces
// the dot gets its sharding and layout.
// CHECK-LABEL: hlo.computation @batch_last
hlo.computation @batch_last(%a: tensor<3x4x2xbf16>, %b: tensor<4x5x2xbf16>) -> tensor<2x3x5xf32, #hlo.layout<[0, 1, 2]>> attributes {entry} {
  // CHECK: %[[L:.*]] = transpose %arg0 {dimensions = array<i64: 2, 0, 1>} : (tensor<3x4x2xbf16>) -> tensor<2x3x4xbf16>
  // CHECK: %[[R:.*]] = transpose %arg1 {dimensions = array<i64: 2, 0, 1>} : (tensor<4x5x2xbf16>) -> tensor<2x4x5xbf16>
  // CHECK: %[[D:.*]] = dot %[[L]], %[[R]] {lhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, operand_precision = [#hlo<precision highest>, #hlo<precision highest>], rhs_batch_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 1>} : (tensor<2x3x4xbf16>, tensor<2x4x5xbf16>) -> tensor<2x3x5xf32>
  // CHECK: reshape %[[D]] {sharding = #hlo.sharding<"{replicated}">} : (tensor<2x3x5xf32>) -> tensor<2x3x5xf32, #hlo.layout<[0, 1, 2]>>
  %0 = hlo.dot %a, %b {lhs_batch_dims = array<i64: 2>, lhs_contracting_dims = array<i64: 1>, rhs_batch_dims = array<i64: 2>, rhs_contracting_dims = array<i64: 0>, operand_precision = [#hlo<precision highest>, #hlo<precision highest>], sharding = #hlo.sharding<"{replicated}">} : (tensor<3x4x2xbf16>, tensor<4x5x2xbf16>) -> tensor<2x3x5xf32, #hlo.layout<[0, 1, 2]>>
  hlo.return %0 : tensor<2x3x5xf32, #hlo.layout<[0, 1, 2]>>
}

// -----

// Canonical dots stay: [m, k] x [k, n], batched [b, m, k] x [b, k, n],
// contracting dimension first on the lhs ([k, m]), matrix-vector.
// CHECK-LABEL: hlo.computation @canonical
hlo.computation @canonical(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<5x2x3xf32>, %d: tensor<5x3x4xf32>, %v: tensor<3xf32>) -> tuple<tensor<2x4xf32>, tensor<5x2x4xf32>, tensor<4xf32>, tensor<2xf32>> attributes {entry} {
  // CHECK-NOT: reshape
  // CHECK-NOT: transpose
  // CHECK-COUNT-4: dot
  // CHECK-NOT: reshape
  %0 = hlo.dot %a, %b {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = hlo.dot %c, %d {lhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_batch_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 1>} : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  %2 = hlo.dot %v, %b {lhs_contracting_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 0>} : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  %3 = hlo.dot %a, %v {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  %r = hlo.tuple %0, %1, %2, %3 : (tensor<2x4xf32>, tensor<5x2x4xf32>, tensor<4xf32>, tensor<2xf32>) -> tuple<tensor<2x4xf32>, tensor<5x2x4xf32>, tensor<4xf32>, tensor<2xf32>>
  hlo.return %r : tuple<tensor<2x4xf32>, tensor<5x2x4xf32>, tensor<4xf32>, tensor<2xf32>>
}

// -----

// Left alone although not canonical: a dot with control predecessors and
// a dot in a fused computation.
// CHECK-LABEL: hlo.computation private @fused
// CHECK-NOT: reshape
// CHECK: dot
hlo.computation private @fused(%x: tensor<3xf32>, %y: tensor<4xf32>) -> tensor<3x4xf32> {
  %0 = hlo.dot %x, %y : (tensor<3xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  hlo.return %0 : tensor<3x4xf32>
}
// CHECK-LABEL: hlo.computation @left_alone
hlo.computation @left_alone(%x: tensor<3xf32>, %y: tensor<4xf32>, %p: tensor<2xf32>) -> tuple<tensor<3x4xf32>, tensor<3x4xf32>> attributes {entry} {
  // CHECK-NOT: reshape
  // CHECK: dot %arg0, %arg1 after(%arg2 : tensor<2xf32>)
  // CHECK-NOT: reshape
  %0 = hlo.dot %x, %y after(%p : tensor<2xf32>) : (tensor<3xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %1 = hlo.fusion %x, %y {calls = @fused, kind = #hlo<fusion_kind kOutput>} : (tensor<3xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %r = hlo.tuple %0, %1 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tuple<tensor<3x4xf32>, tensor<3x4xf32>>
  hlo.return %r : tuple<tensor<3x4xf32>, tensor<3x4xf32>>
}

// -----

// A dot of a dynamic shape is left alone (the interpreter cannot run
// SliceToDynamic: no semantics check here).
// CHECK-LABEL: hlo.computation @dynamic
hlo.computation @dynamic(%x: tensor<3xf32>, %y: tensor<4xf32>) -> tensor<3x?xf32, #hlo.layout<[1, 0], bounds = [?, 4]>> attributes {entry} {
  // CHECK-NOT: reshape
  // CHECK: dot %arg0, %{{.*}} :
  // CHECK-NOT: reshape
  %dy = hlo.custom_call %y {custom_call_target = "SliceToDynamic"} : (tensor<4xf32>) -> tensor<?xf32, #hlo.layout<[0], bounds = [4]>>
  %0 = hlo.dot %x, %dy : (tensor<3xf32>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>) -> tensor<3x?xf32, #hlo.layout<[1, 0], bounds = [?, 4]>>
  hlo.return %0 : tensor<3x?xf32, #hlo.layout<[1, 0], bounds = [?, 4]>>
}
