// RUN: hlo-opt %s -split-input-file --hlo-dot-merger | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-dot-merger="max-size-to-merge=200" | FileCheck %s --check-prefix=SMALL
// RUN: hlo-opt %s -split-input-file --hlo-dot-merger --hlo-check-semantics -o /dev/null

// Shared lhs: the rhs operands are concatenated along their free dimension,
// the merged dot's last dimension is sliced back.
// CHECK-LABEL: hlo.computation @shared_lhs
hlo.computation @shared_lhs(%a: tensor<4x3xf32>, %b0: tensor<3x2xf32>, %b1: tensor<3x5xf32>) -> tuple<tensor<4x2xf32>, tensor<4x5xf32>> attributes {entry} {
  // CHECK: %[[C:.*]] = concatenate %arg1, %arg2 {dimensions = array<i64: 1>} : (tensor<3x2xf32>, tensor<3x5xf32>) -> tensor<3x7xf32>
  // CHECK-NEXT: %[[D:.*]] = dot %arg0, %[[C]] {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<3x7xf32>) -> tensor<4x7xf32>
  // CHECK-NEXT: %[[S0:.*]] = slice %[[D]] {slice = #hlo.slice<"{[0:4], [0:2]}">} : (tensor<4x7xf32>) -> tensor<4x2xf32>
  // CHECK-NEXT: %[[S1:.*]] = slice %[[D]] {slice = #hlo.slice<"{[0:4], [2:7]}">} : (tensor<4x7xf32>) -> tensor<4x5xf32>
  // CHECK-NEXT: tuple %[[S0]], %[[S1]]
  %0 = hlo.dot %a, %b0 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %1 = hlo.dot %a, %b1 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %r = hlo.tuple %0, %1 : (tensor<4x2xf32>, tensor<4x5xf32>) -> tuple<tensor<4x2xf32>, tensor<4x5xf32>>
  hlo.return %r : tuple<tensor<4x2xf32>, tensor<4x5xf32>>
}

// -----

// Shared rhs, contracting dimension first on the lhs: the lhs operands are
// concatenated along dimension 1, the result sliced along dimension 0.
// CHECK-LABEL: hlo.computation @shared_rhs
hlo.computation @shared_rhs(%a0: tensor<3x2xf32>, %a1: tensor<3x4xf32>, %b: tensor<3x5xf32>) -> tuple<tensor<2x5xf32>, tensor<4x5xf32>> attributes {entry} {
  // CHECK: %[[C:.*]] = concatenate %arg0, %arg1 {dimensions = array<i64: 1>} : (tensor<3x2xf32>, tensor<3x4xf32>) -> tensor<3x6xf32>
  // CHECK-NEXT: %[[D:.*]] = dot %[[C]], %arg2 {lhs_contracting_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 0>} : (tensor<3x6xf32>, tensor<3x5xf32>) -> tensor<6x5xf32>
  // CHECK-NEXT: %[[S0:.*]] = slice %[[D]] {slice = #hlo.slice<"{[0:2], [0:5]}">} : (tensor<6x5xf32>) -> tensor<2x5xf32>
  // CHECK-NEXT: %[[S1:.*]] = slice %[[D]] {slice = #hlo.slice<"{[2:6], [0:5]}">} : (tensor<6x5xf32>) -> tensor<4x5xf32>
  // CHECK-NEXT: tuple %[[S0]], %[[S1]]
  %0 = hlo.dot %a0, %b {lhs_contracting_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 0>} : (tensor<3x2xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  %1 = hlo.dot %a1, %b {lhs_contracting_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 0>} : (tensor<3x4xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %r = hlo.tuple %0, %1 : (tensor<2x5xf32>, tensor<4x5xf32>) -> tuple<tensor<2x5xf32>, tensor<4x5xf32>>
  hlo.return %r : tuple<tensor<2x5xf32>, tensor<4x5xf32>>
}

// -----

// Batch dimensions. Shared lhs [b, m, k]: the rhs [b, k, n] are joined
// along n. Shared rhs [b, k, n, p] with two free dimensions: the lhs
// [b, m, k] are joined along m and the result [b, m, n, p] sliced along m.
// Precision and the layout of the results are kept.
// CHECK-LABEL: hlo.computation @batch
hlo.computation @batch(%a: tensor<2x3x4xf32>, %b0: tensor<2x4x5xf32>, %b1: tensor<2x4x1xf32>, %l0: tensor<2x3x4xf32>, %l1: tensor<2x5x4xf32>, %r: tensor<2x4x6x7xf32>) -> tuple<tensor<2x3x5xf32, #hlo.layout<[1, 2, 0]>>, tensor<2x3x1xf32, #hlo.layout<[1, 2, 0]>>, tensor<2x3x6x7xf32>, tensor<2x5x6x7xf32>> attributes {entry} {
  // CHECK: %[[C0:.*]] = concatenate %arg1, %arg2 {dimensions = array<i64: 2>} : (tensor<2x4x5xf32>, tensor<2x4x1xf32>) -> tensor<2x4x6xf32>
  // CHECK-NEXT: %[[D0:.*]] = dot %arg0, %[[C0]] {lhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, operand_precision = [#hlo<precision highest>, #hlo<precision highest>], rhs_batch_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 1>} : (tensor<2x3x4xf32>, tensor<2x4x6xf32>) -> tensor<2x3x6xf32, #hlo.layout<[1, 2, 0]>>
  // CHECK-NEXT: %[[S0:.*]] = slice %[[D0]] {slice = #hlo.slice<"{[0:2], [0:3], [0:5]}">} : (tensor<2x3x6xf32, #hlo.layout<[1, 2, 0]>>) -> tensor<2x3x5xf32, #hlo.layout<[1, 2, 0]>>
  // CHECK-NEXT: %[[S1:.*]] = slice %[[D0]] {slice = #hlo.slice<"{[0:2], [0:3], [5:6]}">} : (tensor<2x3x6xf32, #hlo.layout<[1, 2, 0]>>) -> tensor<2x3x1xf32, #hlo.layout<[1, 2, 0]>>
  // CHECK: %[[C1:.*]] = concatenate %arg3, %arg4 {dimensions = array<i64: 1>} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
  // CHECK-NEXT: %[[D1:.*]] = dot %[[C1]], %arg5 {lhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_batch_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 1>} : (tensor<2x8x4xf32>, tensor<2x4x6x7xf32>) -> tensor<2x8x6x7xf32>
  // CHECK-NEXT: %[[S2:.*]] = slice %[[D1]] {slice = #hlo.slice<"{[0:2], [0:3], [0:6], [0:7]}">} : (tensor<2x8x6x7xf32>) -> tensor<2x3x6x7xf32>
  // CHECK-NEXT: %[[S3:.*]] = slice %[[D1]] {slice = #hlo.slice<"{[0:2], [3:8], [0:6], [0:7]}">} : (tensor<2x8x6x7xf32>) -> tensor<2x5x6x7xf32>
  // CHECK-NEXT: tuple %[[S0]], %[[S1]], %[[S2]], %[[S3]]
  %0 = hlo.dot %a, %b0 {lhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_batch_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 1>, operand_precision = [#hlo<precision highest>, #hlo<precision highest>]} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32, #hlo.layout<[1, 2, 0]>>
  %1 = hlo.dot %a, %b1 {lhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_batch_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 1>, operand_precision = [#hlo<precision highest>, #hlo<precision highest>]} : (tensor<2x3x4xf32>, tensor<2x4x1xf32>) -> tensor<2x3x1xf32, #hlo.layout<[1, 2, 0]>>
  %2 = hlo.dot %l0, %r {lhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_batch_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 1>} : (tensor<2x3x4xf32>, tensor<2x4x6x7xf32>) -> tensor<2x3x6x7xf32>
  %3 = hlo.dot %l1, %r {lhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_batch_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 1>} : (tensor<2x5x4xf32>, tensor<2x4x6x7xf32>) -> tensor<2x5x6x7xf32>
  %t = hlo.tuple %0, %1, %2, %3 : (tensor<2x3x5xf32, #hlo.layout<[1, 2, 0]>>, tensor<2x3x1xf32, #hlo.layout<[1, 2, 0]>>, tensor<2x3x6x7xf32>, tensor<2x5x6x7xf32>) -> tuple<tensor<2x3x5xf32, #hlo.layout<[1, 2, 0]>>, tensor<2x3x1xf32, #hlo.layout<[1, 2, 0]>>, tensor<2x3x6x7xf32>, tensor<2x5x6x7xf32>>
  hlo.return %t : tuple<tensor<2x3x5xf32, #hlo.layout<[1, 2, 0]>>, tensor<2x3x1xf32, #hlo.layout<[1, 2, 0]>>, tensor<2x3x6x7xf32>, tensor<2x5x6x7xf32>>
}

// -----

// Three dots into one. The negate that uses the first dot sits before the
// last one: it moves after the slices. Names and shardings go to the
// slices.
// CHECK-LABEL: hlo.computation @three
// SMALL-LABEL: hlo.computation @three
hlo.computation @three(%a: tensor<4x3xf32>, %b0: tensor<3x2xf32>, %b1: tensor<3x50xf32>, %b2: tensor<3x40xf32>) -> tuple<tensor<4x2xf32>, tensor<4x50xf32>, tensor<4x40xf32>> attributes {entry} {
  // CHECK: %[[C:.*]] = concatenate %arg1, %arg2, %arg3 {dimensions = array<i64: 1>} : (tensor<3x2xf32>, tensor<3x50xf32>, tensor<3x40xf32>) -> tensor<3x92xf32>
  // CHECK-NEXT: %[[D:.*]] = dot %arg0, %[[C]] {{.*}} -> tensor<4x92xf32>
  // CHECK-NEXT: %[[S0:.*]] = slice %[[D]] {slice = #hlo.slice<"{[0:4], [0:2]}">} : (tensor<4x92xf32>) -> tensor<4x2xf32>
  // CHECK-NEXT: %[[S1:.*]] = slice %[[D]] {sharding = #hlo.sharding<"{replicated}">, slice = #hlo.slice<"{[0:4], [2:52]}">} : (tensor<4x92xf32>) -> tensor<4x50xf32>
  // CHECK-NEXT: %[[S2:.*]] = slice %[[D]] {slice = #hlo.slice<"{[0:4], [52:92]}">} : (tensor<4x92xf32>) -> tensor<4x40xf32>
  // CHECK-NEXT: %[[N:.*]] = negate %[[S0]]
  // CHECK-NEXT: tuple %[[N]], %[[S1]], %[[S2]]
  // With max-size-to-merge=200 the small first dot (104 bytes) takes the
  // second; the third and the merged dot are both over the threshold.
  // SMALL: %[[C:.*]] = concatenate %arg1, %arg2 {dimensions = array<i64: 1>}
  // SMALL-NEXT: %[[D:.*]] = dot %arg0, %[[C]] {{.*}} -> tensor<4x52xf32>
  // SMALL-NEXT: slice %[[D]]
  // SMALL-NEXT: slice %[[D]]
  // SMALL-NEXT: negate
  // SMALL-NEXT: dot %arg0, %arg3
  %0 = hlo.dot %a, %b0 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32> loc("d0")
  %n = hlo.negate %0 : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %1 = hlo.dot %a, %b1 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>, sharding = #hlo.sharding<"{replicated}">} : (tensor<4x3xf32>, tensor<3x50xf32>) -> tensor<4x50xf32>
  %2 = hlo.dot %a, %b2 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<3x40xf32>) -> tensor<4x40xf32>
  %r = hlo.tuple %n, %1, %2 : (tensor<4x2xf32>, tensor<4x50xf32>, tensor<4x40xf32>) -> tuple<tensor<4x2xf32>, tensor<4x50xf32>, tensor<4x40xf32>>
  hlo.return %r : tuple<tensor<4x2xf32>, tensor<4x50xf32>, tensor<4x40xf32>>
}

// -----

// Two dots over the threshold are not merged (SMALL), even though they
// share their lhs.
// SMALL-LABEL: hlo.computation @too_large
// SMALL-NOT: concatenate
// SMALL: dot %arg0, %arg1
// SMALL: dot %arg0, %arg2
// CHECK-LABEL: hlo.computation @too_large
// CHECK: concatenate
hlo.computation @too_large(%a: tensor<4x3xf32>, %b0: tensor<3x30xf32>, %b1: tensor<3x40xf32>) -> tuple<tensor<4x30xf32>, tensor<4x40xf32>> attributes {entry} {
  %0 = hlo.dot %a, %b0 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<3x30xf32>) -> tensor<4x30xf32>
  %1 = hlo.dot %a, %b1 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<3x40xf32>) -> tensor<4x40xf32>
  %r = hlo.tuple %0, %1 : (tensor<4x30xf32>, tensor<4x40xf32>) -> tuple<tensor<4x30xf32>, tensor<4x40xf32>>
  hlo.return %r : tuple<tensor<4x30xf32>, tensor<4x40xf32>>
}

// -----

// The second dot depends on the first (through a tanh and a transpose):
// merging them would make a cycle. The third is independent of the first
// and is merged with it.
// CHECK-LABEL: hlo.computation @dependent
hlo.computation @dependent(%a: tensor<3x3xf32>, %b: tensor<3x3xf32>, %c: tensor<3x2xf32>) -> tuple<tensor<3x3xf32>, tensor<3x2xf32>> attributes {entry} {
  // CHECK: %[[C:.*]] = concatenate %arg1, %arg2 {dimensions = array<i64: 1>} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x5xf32>
  // CHECK-NEXT: %[[D:.*]] = dot %arg0, %[[C]]
  // CHECK-NEXT: %[[S0:.*]] = slice %[[D]] {slice = #hlo.slice<"{[0:3], [0:3]}">}
  // CHECK-NEXT: %[[S2:.*]] = slice %[[D]] {slice = #hlo.slice<"{[0:3], [3:5]}">}
  // CHECK-NEXT: %[[T:.*]] = tanh %[[S0]]
  // CHECK-NEXT: %[[U:.*]] = transpose %[[T]]
  // CHECK-NEXT: %[[D1:.*]] = dot %arg0, %[[U]]
  // CHECK-NEXT: tuple %[[D1]], %[[S2]]
  %0 = hlo.dot %a, %b {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %t = hlo.tanh %0 : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %u = hlo.transpose %t {dimensions = array<i64: 1, 0>} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %1 = hlo.dot %a, %u {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %2 = hlo.dot %a, %c {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %r = hlo.tuple %1, %2 : (tensor<3x3xf32>, tensor<3x2xf32>) -> tuple<tensor<3x3xf32>, tensor<3x2xf32>>
  hlo.return %r : tuple<tensor<3x3xf32>, tensor<3x2xf32>>
}

// -----

// Two merges that are fine alone but together would make a cycle:
// {%0, %3} share %p, {%1, %2} share %a, %0 feeds %1 and %2 feeds %3.
// Merging both would make the first merged dot wait for the second and the
// second for the first. Only {%0, %3} is merged; the other pair is left.
// CHECK-LABEL: hlo.computation @crossed
hlo.computation @crossed(%p: tensor<3x3xf32>, %q0: tensor<3x3xf32>, %q1: tensor<3x3xf32>, %a: tensor<3x3xf32>, %b: tensor<3x3xf32>) -> tuple<tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>> attributes {entry} {
  // CHECK: %[[D2:.*]] = dot %arg3, %arg4
  // CHECK: concatenate %arg1, %
  // CHECK-NEXT: %[[D:.*]] = dot %arg0, %
  // CHECK-NEXT: %[[S0:.*]] = slice %[[D]]
  // CHECK-NEXT: slice %[[D]]
  // CHECK-NEXT: dot %arg3, %[[S0]]
  // CHECK-NOT: concatenate
  %0 = hlo.dot %p, %q0 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %1 = hlo.dot %a, %0 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %2 = hlo.dot %a, %b {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %n = hlo.negate %2 : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %3 = hlo.dot %p, %n {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %r = hlo.tuple %0, %1, %2, %3 : (tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>) -> tuple<tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>>
  hlo.return %r : tuple<tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>>
}

// -----

// Left alone: different precision config, different result element types,
// different contracting dimensions, an unshared operand with two free
// dimensions, a dot with a control predecessor and one that is a control
// predecessor.
// CHECK-LABEL: hlo.computation @not_merged
// CHECK-NOT: concatenate
// CHECK-NOT: slice
hlo.computation @not_merged(%a: tensor<4x3xbf16>, %b0: tensor<3x2xbf16>, %b1: tensor<3x5xbf16>, %b2: tensor<3x6xbf16>, %b3: tensor<3x2x2xbf16>, %b4: tensor<2x3xbf16>) -> tuple<tensor<4x2xf32>, tensor<4x5xf32>, tensor<4x6xbf16>, tensor<4x2x2xf32>, tensor<4x2xf32>> attributes {entry} {
  %0 = hlo.dot %a, %b0 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x3xbf16>, tensor<3x2xbf16>) -> tensor<4x2xf32>
  %1 = hlo.dot %a, %b1 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>, operand_precision = [#hlo<precision highest>, #hlo<precision highest>]} : (tensor<4x3xbf16>, tensor<3x5xbf16>) -> tensor<4x5xf32>
  %2 = hlo.dot %a, %b2 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x3xbf16>, tensor<3x6xbf16>) -> tensor<4x6xbf16>
  %3 = hlo.dot %a, %b3 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x3xbf16>, tensor<3x2x2xbf16>) -> tensor<4x2x2xf32>
  %4 = hlo.dot %a, %b4 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 1>} : (tensor<4x3xbf16>, tensor<2x3xbf16>) -> tensor<4x2xf32>
  %r = hlo.tuple %0, %1, %2, %3, %4 : (tensor<4x2xf32>, tensor<4x5xf32>, tensor<4x6xbf16>, tensor<4x2x2xf32>, tensor<4x2xf32>) -> tuple<tensor<4x2xf32>, tensor<4x5xf32>, tensor<4x6xbf16>, tensor<4x2x2xf32>, tensor<4x2xf32>>
  hlo.return %r : tuple<tensor<4x2xf32>, tensor<4x5xf32>, tensor<4x6xbf16>, tensor<4x2x2xf32>, tensor<4x2xf32>>
}

// -----

// Control edges: a dot that is a control predecessor, one that has one,
// and a dot (%3) that depends on %2 only through a control edge (the
// negate runs after the tanh of %2): none is merged.
// CHECK-LABEL: hlo.computation @control
// CHECK-NOT: concatenate
// CHECK-NOT: slice
hlo.computation @control(%a: tensor<4x3xf32>, %b0: tensor<3x2xf32>, %b1: tensor<3x5xf32>, %b2: tensor<3x6xf32>, %b3: tensor<3x6xf32>) -> tuple<tensor<4x2xf32>, tensor<4x5xf32>, tensor<4x6xf32>, tensor<4x6xf32>> attributes {entry} {
  %0 = hlo.dot %a, %b0 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %1 = hlo.dot %a, %b1 after(%0 : tensor<4x2xf32>) {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %2 = hlo.dot %a, %b2 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<3x6xf32>) -> tensor<4x6xf32>
  %t = hlo.tanh %2 : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %n = hlo.negate %b3 after(%t : tensor<4x6xf32>) : (tensor<3x6xf32>) -> tensor<3x6xf32>
  %3 = hlo.dot %a, %n {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<3x6xf32>) -> tensor<4x6xf32>
  %s = hlo.add %3, %t : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %r = hlo.tuple %0, %1, %2, %s : (tensor<4x2xf32>, tensor<4x5xf32>, tensor<4x6xf32>, tensor<4x6xf32>) -> tuple<tensor<4x2xf32>, tensor<4x5xf32>, tensor<4x6xf32>, tensor<4x6xf32>>
  hlo.return %r : tuple<tensor<4x2xf32>, tensor<4x5xf32>, tensor<4x6xf32>, tensor<4x6xf32>>
}
