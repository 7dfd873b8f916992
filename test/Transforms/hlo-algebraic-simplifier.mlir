// RUN: hlo-opt %s -split-input-file --hlo-algebraic-simplifier | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-algebraic-simplifier="enable-power-rewrites=false" | FileCheck %s --check-prefix=NOPOW
// RUN: hlo-opt %s -split-input-file --hlo-algebraic-simplifier="enable-dot-to-multiply-rewrite=false" | FileCheck %s --check-prefix=NODOT
// RUN: hlo-opt %s -split-input-file --hlo-algebraic-simplifier="enable-dot-strength-reduction=false" | FileCheck %s --check-prefix=NOSR
// RUN: hlo-opt %s -split-input-file --hlo-algebraic-simplifier="enable-floats-are-real=true" | FileCheck %s --check-prefix=REAL
// RUN: hlo-opt %s -split-input-file --hlo-algebraic-simplifier="enable-window-reduce-to-reduce-replacement=false" | FileCheck %s --check-prefix=NOWR
// RUN: hlo-opt %s -split-input-file --hlo-algebraic-simplifier="enable-unconditional-reduce-of-concat-replacement=false" | FileCheck %s --check-prefix=NOCAT
// RUN: hlo-opt %s -split-input-file --hlo-algebraic-simplifier --hlo-check-semantics -o /dev/null

// Integer identities: A-A = 0, A*0 = 0 (zeros as a broadcast scalar),
// compare(A, A); the folders' A+0 and A*1.
// CHECK-LABEL: hlo.computation @integers
hlo.computation @integers(%a: tensor<2x3xi32>) -> tuple<tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi32>> attributes {entry} {
  // CHECK-DAG: %[[Z:.*]] = constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  // CHECK-DAG: %[[ZB:.*]] = broadcast %[[Z]] {dimensions = array<i64>} : (tensor<i32>) -> tensor<2x3xi32>
  // CHECK-DAG: %[[T:.*]] = constant {value = dense<true> : tensor<i1>}
  // CHECK-DAG: %[[TB:.*]] = broadcast %[[T]]
  // CHECK-DAG: %[[F:.*]] = constant {value = dense<false> : tensor<i1>}
  // CHECK-DAG: %[[FB:.*]] = broadcast %[[F]]
  // CHECK-NOT: subtract
  // CHECK-NOT: multiply
  // CHECK-NOT: compare
  // CHECK-NOT: add
  // CHECK: tuple %{{[0-9]+}}, %{{[0-9]+}}, %[[TB]], %[[FB]], %arg0
  %0 = hlo.subtract %a, %a : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %zero = hlo.constant {value = dense<0> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
  %one = hlo.constant {value = dense<1> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
  %1 = hlo.multiply %zero, %a : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %2 = hlo.compare %a, %a {direction = #hlo<comparison_direction GE>} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  %3 = hlo.compare %a, %a {direction = #hlo<comparison_direction NE>} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  %4 = hlo.multiply %a, %one : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %5 = hlo.add %4, %zero : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %r = hlo.tuple %0, %1, %2, %3, %5 : (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi32>) -> tuple<tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi32>>
  hlo.return %r : tuple<tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi32>>
}

// -----

// The same identities on floats are wrong for NaN and infinities: kept.
// CHECK-LABEL: hlo.computation @floats
hlo.computation @floats(%a: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xi1>> attributes {entry} {
  // CHECK: subtract %arg0, %arg0
  // CHECK: multiply %arg0, %{{.*}}
  // CHECK: compare %arg0, %arg0
  %0 = hlo.subtract %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %zero = hlo.constant {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %1 = hlo.multiply %a, %zero : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = hlo.compare %a, %a {direction = #hlo<comparison_direction EQ>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %r = hlo.tuple %0, %1, %2 : (tensor<4xf32>, tensor<4xf32>, tensor<4xi1>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xi1>>
  hlo.return %r : tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xi1>>
}

// -----

// power by 0, 1, 2 and -1 (3: hlo-algebraic-simplifier-arithmetic.hlo);
// another exponent stays.
// CHECK-LABEL: hlo.computation @power
// NOPOW-LABEL: hlo.computation @power
// NOPOW-COUNT-5: power
hlo.computation @power(%a: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {entry} {
  %c0 = hlo.constant {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %c1 = hlo.constant {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %c2 = hlo.constant {value = dense<2.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %cm1 = hlo.constant {value = dense<-1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %c5 = hlo.constant {value = dense<5.0> : tensor<4xf32>} : () -> tensor<4xf32>
  // CHECK-DAG: %[[ONE:.*]] = constant {value = dense<1.000000e+00> : tensor<f32>}
  // CHECK-DAG: %[[ONES:.*]] = broadcast %[[ONE]]
  // CHECK-DAG: %[[SQ:.*]] = multiply %arg0, %arg0
  // CHECK-DAG: %[[INV:.*]] = divide %{{.*}}, %arg0
  // CHECK-DAG: %[[FIFTH:.*]] = power %arg0, %{{.*}}
  // CHECK: tuple %[[ONES]], %arg0, %[[SQ]], %[[INV]], %[[FIFTH]]
  %0 = hlo.power %a, %c0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = hlo.power %a, %c1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = hlo.power %a, %c2 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = hlo.power %a, %cm1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = hlo.power %a, %c5 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = hlo.tuple %0, %1, %2, %3, %4 : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
  hlo.return %r : tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
}

// -----

// A two-branch conditional on convert(pred) is the pred conditional with
// the branches and their operands swapped (branch 1 runs where the pred is
// true; XLA's HandleConditional); an s32 index that is not a convert of a
// pred stays.
// CHECK-LABEL: hlo.computation private @neg_branch
// CHECK-LABEL: hlo.computation @conditional_of_converted_pred
// CHECK: %[[C:.*]] = conditional %arg0, %arg3, %arg2 {false_computation = @neg_branch, true_computation = @exp_branch}
// CHECK: conditional %arg1, %arg2, %arg3 {branch_computations = [@neg_branch, @exp_branch]}
hlo.computation private @neg_branch(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = hlo.negate %x : (tensor<3xf32>) -> tensor<3xf32>
  hlo.return %0 : tensor<3xf32>
}
hlo.computation private @exp_branch(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = hlo.exponential %x : (tensor<3xf32>) -> tensor<3xf32>
  hlo.return %0 : tensor<3xf32>
}
hlo.computation @conditional_of_converted_pred(%p: tensor<i1>, %i: tensor<i32>, %a: tensor<3xf32>, %b: tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>> attributes {entry} {
  %j = hlo.convert %p : (tensor<i1>) -> tensor<i32>
  %0 = hlo.conditional %j, %a, %b {branch_computations = [@neg_branch, @exp_branch]} : (tensor<i32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = hlo.conditional %i, %a, %b {branch_computations = [@neg_branch, @exp_branch]} : (tensor<i32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %r = hlo.tuple %0, %1 : (tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>>
  hlo.return %r : tuple<tensor<3xf32>, tensor<3xf32>>
}

// -----

// select on a broadcast constant predicate takes its branch (XLA's
// HandleSelect with IsAll): true picks %a, false picks %b; a predicate
// that is not one value stays.
// CHECK-LABEL: hlo.computation @select_constant_predicate
hlo.computation @select_constant_predicate(%q: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {entry} {
  // CHECK: %[[KEEP:.*]] = select %arg0, %arg1, %arg2
  // CHECK: tuple %arg1, %arg2, %[[KEEP]]
  %t = hlo.constant {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %f = hlo.constant {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  %tb = hlo.broadcast %t {dimensions = array<i64>} : (tensor<i1>) -> tensor<4xi1>
  %fb = hlo.broadcast %f {dimensions = array<i64>} : (tensor<i1>) -> tensor<4xi1>
  %0 = hlo.select %tb, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = hlo.select %fb, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = hlo.select %q, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = hlo.tuple %0, %1, %2 : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
  hlo.return %r : tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
}

// -----

// select of equal branches; abs of an abs; negate twice (a folder).
// CHECK-LABEL: hlo.computation @misc
hlo.computation @misc(%p: tensor<4xi1>, %a: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {entry} {
  // CHECK: %[[ABS:.*]] = abs %arg1
  // CHECK-NOT: abs
  // CHECK-NOT: select
  // CHECK-NOT: negate
  // CHECK: tuple %arg1, %[[ABS]], %arg1
  %0 = hlo.select %p, %a, %a : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = hlo.abs %a : (tensor<4xf32>) -> tensor<4xf32>
  %2 = hlo.abs %1 : (tensor<4xf32>) -> tensor<4xf32>
  %4 = hlo.negate %a : (tensor<4xf32>) -> tensor<4xf32>
  %5 = hlo.negate %4 : (tensor<4xf32>) -> tensor<4xf32>
  %r = hlo.tuple %0, %2, %5 : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
  hlo.return %r : tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
}

// -----

// An instruction with control predecessors is not rewritten.
// CHECK-LABEL: hlo.computation @ordered
hlo.computation @ordered(%a: tensor<4xi32>) -> tensor<4xi32> attributes {entry} {
  %p = hlo.negate %a : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: subtract %arg0, %arg0 after
  %0 = hlo.subtract %a, %a after(%p : tensor<4xi32>) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  hlo.return %0 : tensor<4xi32>
}

// -----

// slice of a slice is one slice (strides multiply); a slice within one
// operand of a concatenate slices that operand; one that spans two stays.
// CHECK-LABEL: hlo.computation @slices
hlo.computation @slices(%a: tensor<20x4xf32>, %b: tensor<3x4xf32>, %c: tensor<5x4xf32>) -> tuple<tensor<3x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>> attributes {entry} {
  // CHECK-DAG: %[[S0:.*]] = slice %arg0 {slice = #hlo.slice<"{[5:18:6], [1:4:2]}">} : (tensor<20x4xf32>) -> tensor<3x2xf32>
  // CHECK-DAG: %[[S1:.*]] = slice %arg2 {slice = #hlo.slice<"{[1:4:2], [0:4]}">} : (tensor<5x4xf32>) -> tensor<2x4xf32>
  // CHECK-DAG: %[[S2:.*]] = slice %arg1 {slice = #hlo.slice<"{[1:3], [0:4]}">}
  // CHECK-DAG: %[[CAT:.*]] = concatenate %arg1, %arg2
  // CHECK-DAG: %[[S3:.*]] = slice %[[CAT]] {slice = #hlo.slice<"{[2:4], [0:4]}">}
  // CHECK: tuple %[[S0]], %[[S1]], %[[S2]], %[[S3]]
  %0 = hlo.slice %a {slice = #hlo.slice<"{[2:20:3], [0:4]}">} : (tensor<20x4xf32>) -> tensor<6x4xf32>
  %1 = hlo.slice %0 {slice = #hlo.slice<"{[1:6:2], [1:4:2]}">} : (tensor<6x4xf32>) -> tensor<3x2xf32>
  %cat = hlo.concatenate %b, %c {dimensions = array<i64: 0>} : (tensor<3x4xf32>, tensor<5x4xf32>) -> tensor<8x4xf32>
  %2 = hlo.slice %cat {slice = #hlo.slice<"{[4:8:2], [0:4]}">} : (tensor<8x4xf32>) -> tensor<2x4xf32>
  %3 = hlo.slice %cat {slice = #hlo.slice<"{[1:3], [0:4]}">} : (tensor<8x4xf32>) -> tensor<2x4xf32>
  %4 = hlo.slice %cat {slice = #hlo.slice<"{[2:4], [0:4]}">} : (tensor<8x4xf32>) -> tensor<2x4xf32>
  %r = hlo.tuple %1, %2, %3, %4 : (tensor<3x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> tuple<tensor<3x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>>
  hlo.return %r : tuple<tensor<3x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>>
}

// -----

// concatenate: empty operands go; adjacent unit-stride slices of one array
// merge (all of %a: the concatenate is %a); slices with a gap, a stride or
// another operand stay.
// CHECK-LABEL: hlo.computation @concatenates
hlo.computation @concatenates(%a: tensor<6x2xi32>, %b: tensor<6x2xi32>, %e: tensor<0x2xi32>) -> tuple<tensor<6x2xi32>, tensor<4x2xi32>, tensor<5x2xi32>> attributes {entry} {
  // CHECK-DAG: %[[M:.*]] = slice %arg0 {slice = #hlo.slice<"{[0:3], [0:2]}">}
  // CHECK-DAG: %[[G:.*]] = slice %arg0 {slice = #hlo.slice<"{[4:6], [0:2]}">}
  // CHECK-DAG: %[[C1:.*]] = concatenate %[[M]], %[[G]] {dimensions = array<i64: 0>} : (tensor<3x2xi32>, tensor<2x2xi32>) -> tensor<5x2xi32>
  // CHECK-DAG: %[[B:.*]] = slice %arg1 {slice = #hlo.slice<"{[2:4], [0:2]}">}
  // CHECK-DAG: %[[C0:.*]] = concatenate %{{.*}}, %[[B]] {dimensions = array<i64: 0>} : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<4x2xi32>
  // CHECK: tuple %arg0, %[[C0]], %[[C1]]
  %s0 = hlo.slice %a {slice = #hlo.slice<"{[0:2], [0:2]}">} : (tensor<6x2xi32>) -> tensor<2x2xi32>
  %s1 = hlo.slice %a {slice = #hlo.slice<"{[2:3], [0:2]}">} : (tensor<6x2xi32>) -> tensor<1x2xi32>
  %s2 = hlo.slice %a {slice = #hlo.slice<"{[3:6], [0:2]}">} : (tensor<6x2xi32>) -> tensor<3x2xi32>
  %s3 = hlo.slice %a {slice = #hlo.slice<"{[4:6], [0:2]}">} : (tensor<6x2xi32>) -> tensor<2x2xi32>
  %t0 = hlo.slice %a {slice = #hlo.slice<"{[0:4:2], [0:2]}">} : (tensor<6x2xi32>) -> tensor<2x2xi32>
  %t1 = hlo.slice %b {slice = #hlo.slice<"{[2:4], [0:2]}">} : (tensor<6x2xi32>) -> tensor<2x2xi32>
  %0 = hlo.concatenate %s0, %e, %s1, %s2 {dimensions = array<i64: 0>} : (tensor<2x2xi32>, tensor<0x2xi32>, tensor<1x2xi32>, tensor<3x2xi32>) -> tensor<6x2xi32>
  %1 = hlo.concatenate %t0, %t1 {dimensions = array<i64: 0>} : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<4x2xi32>
  %2 = hlo.concatenate %s0, %s1, %s3 {dimensions = array<i64: 0>} : (tensor<2x2xi32>, tensor<1x2xi32>, tensor<2x2xi32>) -> tensor<5x2xi32>
  %r = hlo.tuple %0, %1, %2 : (tensor<6x2xi32>, tensor<4x2xi32>, tensor<5x2xi32>) -> tuple<tensor<6x2xi32>, tensor<4x2xi32>, tensor<5x2xi32>>
  hlo.return %r : tuple<tensor<6x2xi32>, tensor<4x2xi32>, tensor<5x2xi32>>
}

// -----

// dynamic-update-slice of a full-size update is the update, of an empty
// one the operand; a smaller update stays.
// CHECK-LABEL: hlo.computation @dynamic_update_slice
hlo.computation @dynamic_update_slice(%a: tensor<4x3xf32>, %u: tensor<4x3xf32>, %e: tensor<0x3xf32>, %s: tensor<2x3xf32>, %i: tensor<i32>) -> tuple<tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>> attributes {entry} {
  // CHECK: %[[D:.*]] = dynamic_update_slice %arg0, %arg3
  // CHECK-NOT: dynamic_update_slice
  // CHECK: tuple %arg1, %arg0, %[[D]]
  %0 = hlo.dynamic_update_slice %a, %u, %i, %i : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
  %1 = hlo.dynamic_update_slice %a, %e, %i, %i : (tensor<4x3xf32>, tensor<0x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
  %2 = hlo.dynamic_update_slice %a, %s, %i, %i : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
  %r = hlo.tuple %0, %1, %2 : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) -> tuple<tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>>
  hlo.return %r : tuple<tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>>
}

// -----

// A reduce that adds nothing up: over size-1 dimensions (or none) with the
// identity init, a reshape; with another init, a map of the reducer (its
// one add, as the map is simplified too); of an empty array, the init
// broadcast. A real reduction stays.
hlo.computation @add(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}
// CHECK-LABEL: hlo.computation @reduce_nothing
hlo.computation @reduce_nothing(%a: tensor<3x1x4xf32>, %e: tensor<0x4xf32>, %i: tensor<f32>) -> tuple<tensor<3x4xf32>, tensor<3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3x1x4xf32>> attributes {entry} {
  // CHECK-DAG: %[[R:.*]] = reshape %arg0 : (tensor<3x1x4xf32>) -> tensor<3x4xf32>
  // CHECK-DAG: %[[R1:.*]] = reshape %arg0 : (tensor<3x1x4xf32>) -> tensor<3x4xf32>
  // CHECK-DAG: %[[B:.*]] = broadcast %arg2 {dimensions = array<i64>} : (tensor<f32>) -> tensor<3x4xf32>
  // CHECK-DAG: %[[M:.*]] = add %[[B]], %[[R1]]
  // CHECK-DAG: %[[E:.*]] = broadcast %arg2 {dimensions = array<i64>} : (tensor<f32>) -> tensor<4xf32>
  // CHECK-DAG: %[[S:.*]] = reduce %arg0, %{{.*}} {dimensions = array<i64: 0, 1>, to_apply = @add}
  // CHECK: tuple %[[R]], %[[M]], %[[E]], %[[S]], %arg0 :
  %z = hlo.constant {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %0 = hlo.reduce %a, %z {dimensions = array<i64: 1>, to_apply = @add} : (tensor<3x1x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %1 = hlo.reduce %a, %i {dimensions = array<i64: 1>, to_apply = @add} : (tensor<3x1x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %2 = hlo.reduce %e, %i {dimensions = array<i64: 0>, to_apply = @add} : (tensor<0x4xf32>, tensor<f32>) -> tensor<4xf32>
  %3 = hlo.reduce %a, %z {dimensions = array<i64: 0, 1>, to_apply = @add} : (tensor<3x1x4xf32>, tensor<f32>) -> tensor<4xf32>
  %4 = hlo.reduce %a, %z {dimensions = array<i64>, to_apply = @add} : (tensor<3x1x4xf32>, tensor<f32>) -> tensor<3x1x4xf32>
  %r = hlo.tuple %0, %1, %2, %3, %4 : (tensor<3x4xf32>, tensor<3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3x1x4xf32>) -> tuple<tensor<3x4xf32>, tensor<3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3x1x4xf32>>
  hlo.return %r : tuple<tensor<3x4xf32>, tensor<3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3x1x4xf32>>
}

// -----

// reduce of a transpose reduces the transpose's operand when the kept
// dimensions keep their order; reduce of a reduce (same reducer, identity
// inits) is one reduce; reduce of a reshape that only merged or split
// reduced dimensions reduces the reshape's operand.
hlo.computation @max(%x: tensor<i32>, %y: tensor<i32>) -> tensor<i32> {
  %0 = hlo.maximum %y, %x : (tensor<i32>, tensor<i32>) -> tensor<i32>
  hlo.return %0 : tensor<i32>
}
// CHECK-LABEL: hlo.computation @reduce_operands
hlo.computation @reduce_operands(%a: tensor<2x3x4xi32>, %i: tensor<i32>) -> tuple<tensor<3xi32>, tensor<4x3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<2xi32>, tensor<6xi32>> attributes {entry} {
  // CHECK-DAG: %[[T0:.*]] = reduce %arg0, %[[MIN:.*]] {dimensions = array<i64: 0, 2>, to_apply = @max} : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<3xi32>
  // CHECK-DAG: %[[T:.*]] = transpose %arg0
  // CHECK-DAG: %[[T1:.*]] = reduce %[[T]], %[[MIN]] {dimensions = array<i64: 2>, to_apply = @max}
  // CHECK-DAG: %[[RR:.*]] = reduce %arg0, %[[MIN]] {dimensions = array<i64: 0, 2>, to_apply = @max} : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<3xi32>
  // CHECK-DAG: %[[IN:.*]] = reduce %arg0, %arg1 {dimensions = array<i64: 2>
  // CHECK-DAG: %[[RI:.*]] = reduce %[[IN]], %arg1 {dimensions = array<i64: 0>
  // CHECK-DAG: %[[RS:.*]] = reduce %arg0, %[[MIN]] {dimensions = array<i64: 1, 2>, to_apply = @max} : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<2xi32>
  // CHECK-DAG: %[[RSH:.*]] = reshape %arg0 : (tensor<2x3x4xi32>) -> tensor<6x4xi32>
  // CHECK-DAG: %[[RS2:.*]] = reduce %[[RSH]], %[[MIN]] {dimensions = array<i64: 1>
  // CHECK: tuple %[[T0]], %[[T1]], %[[RR]], %[[RI]], %[[RS]], %[[RS2]]
  %min = hlo.constant {value = dense<-2147483648> : tensor<i32>} : () -> tensor<i32>
  %t = hlo.transpose %a {dimensions = array<i64: 2, 1, 0>} : (tensor<2x3x4xi32>) -> tensor<4x3x2xi32>
  %0 = hlo.reduce %t, %min {dimensions = array<i64: 0, 2>, to_apply = @max} : (tensor<4x3x2xi32>, tensor<i32>) -> tensor<3xi32>
  %1 = hlo.reduce %t, %min {dimensions = array<i64: 2>, to_apply = @max} : (tensor<4x3x2xi32>, tensor<i32>) -> tensor<4x3xi32>
  %in = hlo.reduce %a, %min {dimensions = array<i64: 2>, to_apply = @max} : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<2x3xi32>
  %2 = hlo.reduce %in, %min {dimensions = array<i64: 0>, to_apply = @max} : (tensor<2x3xi32>, tensor<i32>) -> tensor<3xi32>
  %in2 = hlo.reduce %a, %i {dimensions = array<i64: 2>, to_apply = @max} : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<2x3xi32>
  %3 = hlo.reduce %in2, %i {dimensions = array<i64: 0>, to_apply = @max} : (tensor<2x3xi32>, tensor<i32>) -> tensor<3xi32>
  %rs = hlo.reshape %a : (tensor<2x3x4xi32>) -> tensor<2x12xi32>
  %4 = hlo.reduce %rs, %min {dimensions = array<i64: 1>, to_apply = @max} : (tensor<2x12xi32>, tensor<i32>) -> tensor<2xi32>
  %rs2 = hlo.reshape %a : (tensor<2x3x4xi32>) -> tensor<6x4xi32>
  %5 = hlo.reduce %rs2, %min {dimensions = array<i64: 1>, to_apply = @max} : (tensor<6x4xi32>, tensor<i32>) -> tensor<6xi32>
  %r = hlo.tuple %0, %1, %2, %3, %4, %5 : (tensor<3xi32>, tensor<4x3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<2xi32>, tensor<6xi32>) -> tuple<tensor<3xi32>, tensor<4x3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<2xi32>, tensor<6xi32>>
  hlo.return %r : tuple<tensor<3xi32>, tensor<4x3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<2xi32>, tensor<6xi32>>
}

// -----

// Divides: by one; by a float constant (a multiply by its inverse); by a
// sqrt, rsqrt, exp or power; exp by exp. An integer divide by a constant
// and a divide by a sqrt with another user stay.
// CHECK-LABEL: hlo.computation @divides
hlo.computation @divides(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>, %i: tensor<4xi32>) -> tuple<tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>> attributes {entry} {
  // CHECK-DAG: %[[Q:.*]] = constant {value = dense<2.500000e-01> : tensor<f32>}
  // CHECK-DAG: %[[QB:.*]] = broadcast %[[Q]]
  // CHECK-DAG: %[[M0:.*]] = multiply %arg0, %[[QB]]
  // CHECK-DAG: %[[RS:.*]] = rsqrt %arg1
  // CHECK-DAG: %[[M1:.*]] = multiply %arg0, %[[RS]]
  // CHECK-DAG: %[[SQ:.*]] = sqrt %arg1
  // CHECK-DAG: %[[M2:.*]] = multiply %arg0, %[[SQ]]
  // CHECK-DAG: %[[D:.*]] = subtract %arg0, %arg1
  // CHECK-DAG: %[[E:.*]] = exponential %[[D]]
  // CHECK-DAG: %[[N:.*]] = negate %arg1
  // CHECK-DAG: %[[EN:.*]] = exponential %[[N]]
  // CHECK-DAG: %[[M3:.*]] = multiply %arg0, %[[EN]]
  // CHECK-DAG: %[[NC:.*]] = negate %arg2
  // CHECK-DAG: %[[P:.*]] = power %arg1, %[[NC]]
  // CHECK-DAG: %[[M4:.*]] = multiply %arg0, %[[P]]
  // CHECK-DAG: %[[ID:.*]] = divide %arg3, %{{.*}} : (tensor<4xi32>
  // CHECK-DAG: %[[S2:.*]] = sqrt %arg2
  // CHECK-DAG: %[[KEEP:.*]] = divide %arg0, %[[S2]]
  // CHECK: tuple %arg0, %arg3, %[[M0]], %[[M1]], %[[M2]], %[[E]], %[[M3]], %[[M4]], %[[ID]], %[[KEEP]], %[[S2]]
  %one = hlo.constant {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %ione = hlo.constant {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %ioneb = hlo.broadcast %ione {dimensions = array<i64>} : (tensor<i32>) -> tensor<4xi32>
  %four = hlo.constant {value = dense<4.0> : tensor<f32>} : () -> tensor<f32>
  %fourb = hlo.broadcast %four {dimensions = array<i64>} : (tensor<f32>) -> tensor<4xf32>
  %three = hlo.constant {value = dense<3> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = hlo.divide %a, %one : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = hlo.divide %i, %ioneb : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = hlo.divide %a, %fourb : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %sb = hlo.sqrt %b : (tensor<4xf32>) -> tensor<4xf32>
  %3 = hlo.divide %a, %sb : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %rb = hlo.rsqrt %b : (tensor<4xf32>) -> tensor<4xf32>
  %4 = hlo.divide %a, %rb : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %ea = hlo.exponential %a : (tensor<4xf32>) -> tensor<4xf32>
  %eb = hlo.exponential %b : (tensor<4xf32>) -> tensor<4xf32>
  %5 = hlo.divide %ea, %eb : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %6 = hlo.divide %a, %eb : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %pw = hlo.power %b, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %7 = hlo.divide %a, %pw : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %8 = hlo.divide %i, %three : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %sc = hlo.sqrt %c : (tensor<4xf32>) -> tensor<4xf32>
  %9 = hlo.divide %a, %sc : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = hlo.tuple %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %sc : (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>>
  hlo.return %r : tuple<tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>>
}

// -----

// Adds of constants reassociate (constants or broadcast constants, either
// side), float adds too, as XLA: (f + 1) + 1 = f + 2; adds of two
// variables do not. rsqrt(1 / A) is sqrt(A).
// CHECK-LABEL: hlo.computation @reassociate
hlo.computation @reassociate(%a: tensor<4xi32>, %b: tensor<4xi32>, %f: tensor<4xf32>) -> tuple<tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>> attributes {entry} {
  // CHECK-DAG: %[[C5:.*]] = constant {value = dense<5> : tensor<i32>}
  // CHECK-DAG: %[[B5:.*]] = broadcast %[[C5]]
  // CHECK-DAG: %[[A0:.*]] = add %arg0, %[[B5]]
  // CHECK-DAG: %[[C7:.*]] = constant {value = dense<7> : tensor<i32>}
  // CHECK-DAG: %[[B7:.*]] = broadcast %[[C7]]
  // CHECK-DAG: %[[A1:.*]] = add %arg0, %[[B7]]
  // CHECK-DAG: %[[AB:.*]] = add %arg0, %arg1
  // CHECK-DAG: %[[A2:.*]] = add %[[AB]], %{{.*}}
  // CHECK-DAG: %[[C2F:.*]] = constant {value = dense<2.000000e+00> : tensor<f32>}
  // CHECK-DAG: %[[B2F:.*]] = broadcast %[[C2F]]
  // CHECK-DAG: %[[F1:.*]] = add %arg2, %[[B2F]]
  // CHECK-DAG: %[[SQ:.*]] = sqrt %arg2
  // CHECK: tuple %[[A0]], %[[A1]], %[[A2]], %[[F1]], %[[SQ]]
  %c2 = hlo.constant {value = dense<2> : tensor<4xi32>} : () -> tensor<4xi32>
  %c3 = hlo.constant {value = dense<3> : tensor<4xi32>} : () -> tensor<4xi32>
  %s4 = hlo.constant {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %b4 = hlo.broadcast %s4 {dimensions = array<i64>} : (tensor<i32>) -> tensor<4xi32>
  %x0 = hlo.add %a, %c2 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %0 = hlo.add %x0, %c3 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %x1 = hlo.add %b4, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = hlo.add %c3, %x1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %x2 = hlo.add %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = hlo.add %x2, %c3 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %f1 = hlo.constant {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %y = hlo.add %f, %f1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = hlo.add %y, %f1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %inv = hlo.divide %f1, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = hlo.rsqrt %inv : (tensor<4xf32>) -> tensor<4xf32>
  %r = hlo.tuple %0, %1, %2, %3, %4 : (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>>
  hlo.return %r : tuple<tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>>
}

// -----

// convert pairs through a wider type are the operand; through a narrower
// one they stay. bitcast-convert pairs: back to the operand's type, the
// operand; one width throughout, one bitcast-convert.
// CHECK-LABEL: hlo.computation @conversions
hlo.computation @conversions(%a: tensor<4xf32>, %i: tensor<4xi16>, %u: tensor<4xui8>) -> tuple<tensor<4xf32>, tensor<4xi16>, tensor<4xui8>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>> attributes {entry} {
  // CHECK-DAG: %[[H:.*]] = convert %arg0 : (tensor<4xf32>) -> tensor<4xf16>
  // CHECK-DAG: %[[HB:.*]] = convert %[[H]] : (tensor<4xf16>) -> tensor<4xf32>
  // CHECK-DAG: %[[BC:.*]] = bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<4xi32>
  // CHECK-NOT: bitcast_convert
  // CHECK: tuple %arg0, %arg1, %arg2, %[[HB]], %arg0, %[[BC]]
  %d = hlo.convert %a : (tensor<4xf32>) -> tensor<4xf64>
  %0 = hlo.convert %d : (tensor<4xf64>) -> tensor<4xf32>
  %w = hlo.convert %i : (tensor<4xi16>) -> tensor<4xf32>
  %1 = hlo.convert %w : (tensor<4xf32>) -> tensor<4xi16>
  %s = hlo.convert %u : (tensor<4xui8>) -> tensor<4xi16>
  %2 = hlo.convert %s : (tensor<4xi16>) -> tensor<4xui8>
  %h = hlo.convert %a : (tensor<4xf32>) -> tensor<4xf16>
  %3 = hlo.convert %h : (tensor<4xf16>) -> tensor<4xf32>
  %bi = hlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<4xi32>
  %4 = hlo.bitcast_convert %bi : (tensor<4xi32>) -> tensor<4xf32>
  %bu = hlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<4xui32>
  %5 = hlo.bitcast_convert %bu : (tensor<4xui32>) -> tensor<4xi32>
  %r = hlo.tuple %0, %1, %2, %3, %4, %5 : (tensor<4xf32>, tensor<4xi16>, tensor<4xui8>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) -> tuple<tensor<4xf32>, tensor<4xi16>, tensor<4xui8>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>>
  hlo.return %r : tuple<tensor<4xf32>, tensor<4xi16>, tensor<4xui8>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>>
}

// -----

// A dot with no contracting dimension above size 1 is a multiply of
// broadcasts (the operands transposed to batch, free order, the size-1
// contracting dimensions reshaped away, converted to the result type); a
// dot of an empty operand is zeros; a real contraction stays.
// CHECK-LABEL: hlo.computation @dots
// NODOT-LABEL: hlo.computation @dots
// NODOT-COUNT-3: = dot
hlo.computation @dots(%a: tensor<3x1x2xf32>, %b: tensor<2x1x4xf32>, %c: tensor<3xf32>, %d: tensor<5xbf16>, %e: tensor<2x0xf32>, %f: tensor<0x4xf32>, %g: tensor<4x2xf32>, %h: tensor<2x3xf32>) -> tuple<tensor<2x3x4xf32>, tensor<3x5xf32>, tensor<2x4xf32>, tensor<4x3xf32>> attributes {entry} {
  // CHECK-DAG: %[[RA0:.*]] = reshape %arg0 : (tensor<3x1x2xf32>) -> tensor<3x2xf32>
  // CHECK-DAG: %[[RA:.*]] = transpose %[[RA0]] {dimensions = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  // CHECK-DAG: %[[BA:.*]] = broadcast %[[RA]] {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3x4xf32>
  // CHECK-DAG: %[[RB:.*]] = reshape %arg1 : (tensor<2x1x4xf32>) -> tensor<2x4xf32>
  // CHECK-DAG: %[[BB:.*]] = broadcast %[[RB]] {dimensions = array<i64: 0, 2>} : (tensor<2x4xf32>) -> tensor<2x3x4xf32>
  // CHECK-DAG: %[[M0:.*]] = multiply %[[BA]], %[[BB]] : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK-DAG: %[[BC:.*]] = broadcast %arg2 {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3x5xf32>
  // CHECK-DAG: %[[CD:.*]] = convert %arg3 : (tensor<5xbf16>) -> tensor<5xf32>
  // CHECK-DAG: %[[BD:.*]] = broadcast %[[CD]] {dimensions = array<i64: 1>} : (tensor<5xf32>) -> tensor<3x5xf32>
  // CHECK-DAG: %[[M1:.*]] = multiply %[[BC]], %[[BD]]
  // CHECK-DAG: %[[Z:.*]] = constant {value = dense<0.000000e+00> : tensor<f32>}
  // CHECK-DAG: %[[ZB:.*]] = broadcast %[[Z]] {dimensions = array<i64>} : (tensor<f32>) -> tensor<2x4xf32>
  // CHECK-DAG: %[[KEEP:.*]] = dot %arg6, %arg7
  // CHECK: tuple %[[M0]], %[[M1]], %[[ZB]], %[[KEEP]]
  %0 = hlo.dot %a, %b {lhs_batch_dims = array<i64: 2>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 1>} : (tensor<3x1x2xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
  %1 = hlo.dot %c, %d : (tensor<3xf32>, tensor<5xbf16>) -> tensor<3x5xf32>
  %2 = hlo.dot %e, %f {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x0xf32>, tensor<0x4xf32>) -> tensor<2x4xf32>
  %3 = hlo.dot %g, %h {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %r = hlo.tuple %0, %1, %2, %3 : (tensor<2x3x4xf32>, tensor<3x5xf32>, tensor<2x4xf32>, tensor<4x3xf32>) -> tuple<tensor<2x3x4xf32>, tensor<3x5xf32>, tensor<2x4xf32>, tensor<4x3xf32>>
  hlo.return %r : tuple<tensor<2x3x4xf32>, tensor<3x5xf32>, tensor<2x4xf32>, tensor<4x3xf32>>
}

// -----

// (A * C1) * C2 is A * (C1 * C2), for floats too (as XLA: f * 0.25); pad
// of a broadcast scalar by that scalar is the broadcast; a broadcast of an
// iota is an iota. A pad by another value stays.
// CHECK-LABEL: hlo.computation @shapes_of_scalars
hlo.computation @shapes_of_scalars(%a: tensor<4xi32>, %s: tensor<f32>, %t: tensor<f32>, %f: tensor<4xf32>) -> tuple<tensor<4xi32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<3x4xi32>, tensor<4xf32>> attributes {entry} {
  // CHECK-DAG: %[[C6:.*]] = constant {value = dense<6> : tensor<i32>}
  // CHECK-DAG: %[[B6:.*]] = broadcast %[[C6]]
  // CHECK-DAG: %[[M:.*]] = multiply %arg0, %[[B6]]
  // CHECK-DAG: %[[PB:.*]] = broadcast %arg1 {dimensions = array<i64>} : (tensor<f32>) -> tensor<5x4xf32>
  // CHECK-DAG: %[[SB:.*]] = broadcast %arg1 {dimensions = array<i64>} : (tensor<f32>) -> tensor<2x3xf32>
  // CHECK-DAG: %[[KEEP:.*]] = pad %[[SB]], %arg2
  // CHECK-DAG: %[[IOTA:.*]] = iota {iota_dimension = 1 : i64} : () -> tensor<3x4xi32>
  // CHECK-DAG: %[[Q:.*]] = constant {value = dense<2.500000e-01> : tensor<f32>}
  // CHECK-DAG: %[[BQ:.*]] = broadcast %[[Q]]
  // CHECK-DAG: %[[F2:.*]] = multiply %arg3, %[[BQ]]
  // CHECK: tuple %[[M]], %[[PB]], %[[KEEP]], %[[IOTA]], %[[F2]]
  %c2 = hlo.constant {value = dense<2> : tensor<4xi32>} : () -> tensor<4xi32>
  %c3 = hlo.constant {value = dense<3> : tensor<4xi32>} : () -> tensor<4xi32>
  %x = hlo.multiply %a, %c2 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %0 = hlo.multiply %x, %c3 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %b = hlo.broadcast %s {dimensions = array<i64>} : (tensor<f32>) -> tensor<2x3xf32>
  %1 = hlo.pad %b, %s {padding = #hlo.padding<"1_1_1x0_1">} : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x4xf32>
  %2 = hlo.pad %b, %t {padding = #hlo.padding<"1_1_1x0_1">} : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x4xf32>
  %i = hlo.iota {iota_dimension = 0 : i64} : () -> tensor<4xi32>
  %3 = hlo.broadcast %i {dimensions = array<i64: 1>} : (tensor<4xi32>) -> tensor<3x4xi32>
  %h = hlo.constant {value = dense<0.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %y = hlo.multiply %f, %h : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = hlo.multiply %y, %h : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = hlo.tuple %0, %1, %2, %3, %4 : (tensor<4xi32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<3x4xi32>, tensor<4xf32>) -> tuple<tensor<4xi32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<3x4xi32>, tensor<4xf32>>
  hlo.return %r : tuple<tensor<4xi32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<3x4xi32>, tensor<4xf32>>
}

// -----

// Left alone: a slice of a slice with control predecessors on the inner
// one, a dynamic-update-slice of a dynamic (bounded) shape, a reduce of a
// bounded shape; a reducer that is not one binary op gets the map form
// even with a zero init.
hlo.computation @add_twice(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = hlo.add %0, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %1 : tensor<f32>
}
// CHECK-LABEL: hlo.computation @kept
hlo.computation @kept(%a: tensor<8xf32>, %d: tensor<?xf32, #hlo.layout<[0], bounds = [4]>>, %e: tensor<2x1xf32>) -> tuple<tensor<2xf32>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>, tensor<f32>, tensor<2xf32>> attributes {entry} {
  // CHECK: %[[P:.*]] = negate %arg0
  // CHECK: %[[S0:.*]] = slice %arg0 after(%[[P]] : tensor<8xf32>)
  // CHECK: %[[S1:.*]] = slice %[[S0]]
  // CHECK: %[[U:.*]] = dynamic_update_slice %arg1, %arg1
  // CHECK: %[[R:.*]] = reduce %arg1
  // CHECK: %[[M:.*]] = map %{{.*}}, %{{.*}} {dimensions = array<i64: 0>, to_apply = @add_twice}
  // CHECK: tuple %[[S1]], %[[U]], %[[R]], %[[M]]
  %p = hlo.negate %a : (tensor<8xf32>) -> tensor<8xf32>
  %s0 = hlo.slice %a after(%p : tensor<8xf32>) {slice = #hlo.slice<"{[2:6]}">} : (tensor<8xf32>) -> tensor<4xf32>
  %0 = hlo.slice %s0 {slice = #hlo.slice<"{[1:3]}">} : (tensor<4xf32>) -> tensor<2xf32>
  %i = hlo.constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %1 = hlo.dynamic_update_slice %d, %d, %i : (tensor<?xf32, #hlo.layout<[0], bounds = [4]>>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>, tensor<i32>) -> tensor<?xf32, #hlo.layout<[0], bounds = [4]>>
  %z = hlo.constant {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %2 = hlo.reduce %d, %z {dimensions = array<i64: 0>, to_apply = @add_twice} : (tensor<?xf32, #hlo.layout<[0], bounds = [4]>>, tensor<f32>) -> tensor<f32>
  %3 = hlo.reduce %e, %z {dimensions = array<i64: 1>, to_apply = @add_twice} : (tensor<2x1xf32>, tensor<f32>) -> tensor<2xf32>
  %r = hlo.tuple %0, %1, %2, %3 : (tensor<2xf32>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>, tensor<f32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>, tensor<f32>, tensor<2xf32>>
  hlo.return %r : tuple<tensor<2xf32>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>, tensor<f32>, tensor<2xf32>>
}

// -----

// Unsigned divide and remainder by a power of two: a logical shift and a
// mask. Other divisors stay (signed ones: @signed_powers_of_two).
// CHECK-LABEL: hlo.computation @unsigned_powers_of_two
hlo.computation @unsigned_powers_of_two(%u: tensor<4xui32>, %s: tensor<4xi32>) -> tuple<tensor<4xui32>, tensor<4xui32>, tensor<4xi32>, tensor<4xui32>> attributes {entry} {
  // CHECK-DAG: %[[K:.*]] = constant {value = dense<3> : tensor<ui32>}
  // CHECK-DAG: %[[KB:.*]] = broadcast %[[K]]
  // CHECK-DAG: %[[SH:.*]] = shift_right_logical %arg0, %[[KB]]
  // CHECK-DAG: %[[M:.*]] = constant {value = dense<7> : tensor<ui32>}
  // CHECK-DAG: %[[MB:.*]] = broadcast %[[M]]
  // CHECK-DAG: %[[AND:.*]] = and %arg0, %[[MB]]
  // CHECK-DAG: %[[SD:.*]] = divide %arg1,
  // CHECK-DAG: %[[UD:.*]] = remainder %arg0,
  // CHECK: tuple %[[SH]], %[[AND]], %[[SD]], %[[UD]]
  %c8 = hlo.constant {value = dense<8> : tensor<4xui32>} : () -> tensor<4xui32>
  %c6 = hlo.constant {value = dense<6> : tensor<4xui32>} : () -> tensor<4xui32>
  %s8 = hlo.constant {value = dense<12> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = hlo.divide %u, %c8 : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  %1 = hlo.remainder %u, %c8 : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  %2 = hlo.divide %s, %s8 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %3 = hlo.remainder %u, %c6 : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  %r = hlo.tuple %0, %1, %2, %3 : (tensor<4xui32>, tensor<4xui32>, tensor<4xi32>, tensor<4xui32>) -> tuple<tensor<4xui32>, tensor<4xui32>, tensor<4xi32>, tensor<4xui32>>
  hlo.return %r : tuple<tensor<4xui32>, tensor<4xui32>, tensor<4xi32>, tensor<4xui32>>
}

// -----

// Dot strength reduction: a dot where an operand has only batch and
// contracting dimensions is a reduce-add (a new scalar add computation) of
// a multiply, the vector broadcast to the other operand transposed to
// (batch, free, contracting); floats below f64 add up in f32. A
// matrix-matrix dot and a dot with a dot algorithm stay.
// The add computations come first in the module (XLA's parser reads a
// computation before its callers).
// CHECK-DAG: hlo.computation private @scalar_add_computation{{(_[0-9]+)?}}(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32>
// CHECK-DAG: hlo.computation private @scalar_add_computation{{(_[0-9]+)?}}(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i32>
// CHECK-LABEL: hlo.computation @dot_strength_reduction
// NOSR-LABEL: hlo.computation @dot_strength_reduction
// NOSR-COUNT-5: = dot
hlo.computation @dot_strength_reduction(%m: tensor<4x3xf32>, %v: tensor<3xf32>, %bv: tensor<2x5xi32>, %bm: tensor<2x5x6xi32>, %x: tensor<5xbf16>, %y: tensor<5xbf16>, %p: tensor<4x3xf32>, %q: tensor<3x2xf32>) -> tuple<tensor<4xf32>, tensor<2x6xi32>, tensor<bf16>, tensor<4x2xf32>, tensor<4xf32>> attributes {entry} {
  // CHECK-DAG: %[[Z:.*]] = constant {value = dense<0.000000e+00> : tensor<f32>}
  // CHECK-DAG: %[[ZI:.*]] = constant {value = dense<0> : tensor<i32>}
  // CHECK-DAG: %[[BV:.*]] = broadcast %arg1 {dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<4x3xf32>
  // CHECK-DAG: %[[M0:.*]] = multiply %arg0, %[[BV]] : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  // CHECK-DAG: %[[R0:.*]] = reduce %[[M0]], %[[Z]] {dimensions = array<i64: 1>, to_apply = @[[ADDF:scalar_add_computation(_[0-9]+)?]]} : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK-DAG: %[[T:.*]] = transpose %arg3 {dimensions = array<i64: 0, 2, 1>} : (tensor<2x5x6xi32>) -> tensor<2x6x5xi32>
  // CHECK-DAG: %[[BB:.*]] = broadcast %arg2 {dimensions = array<i64: 0, 2>} : (tensor<2x5xi32>) -> tensor<2x6x5xi32>
  // CHECK-DAG: %[[M1:.*]] = multiply %[[BB]], %[[T]]
  // CHECK-DAG: %[[R1:.*]] = reduce %[[M1]], %[[ZI]] {dimensions = array<i64: 2>, to_apply = @scalar_add_computation{{(_[0-9]+)?}}} : (tensor<2x6x5xi32>, tensor<i32>) -> tensor<2x6xi32>
  // CHECK-DAG: %[[M2:.*]] = multiply %arg4, %arg5 : (tensor<5xbf16>, tensor<5xbf16>) -> tensor<5xbf16>
  // CHECK-DAG: %[[C2:.*]] = convert %[[M2]] : (tensor<5xbf16>) -> tensor<5xf32>
  // CHECK-DAG: %[[R2:.*]] = reduce %[[C2]], %[[Z]] {dimensions = array<i64: 0>, to_apply = @[[ADDF]]} : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
  // CHECK-DAG: %[[B2:.*]] = convert %[[R2]] : (tensor<f32>) -> tensor<bf16>
  // CHECK-DAG: %[[KEEP:.*]] = dot %arg6, %arg7
  // CHECK-DAG: %[[ALG:.*]] = dot %arg0, %arg1 {algorithm
  // CHECK: tuple %[[R0]], %[[R1]], %[[B2]], %[[KEEP]], %[[ALG]] :
  %0 = hlo.dot %m, %v {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4xf32>
  %1 = hlo.dot %bv, %bm {lhs_batch_dims = array<i64: 0>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 1>} : (tensor<2x5xi32>, tensor<2x5x6xi32>) -> tensor<2x6xi32>
  %2 = hlo.dot %x, %y {lhs_contracting_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 0>} : (tensor<5xbf16>, tensor<5xbf16>) -> tensor<bf16>
  %3 = hlo.dot %p, %q {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %4 = hlo.dot %m, %v {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>, algorithm = #hlo<dot_algorithm dot_bf16_bf16_f32>} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4xf32>
  %r = hlo.tuple %0, %1, %2, %3, %4 : (tensor<4xf32>, tensor<2x6xi32>, tensor<bf16>, tensor<4x2xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<2x6xi32>, tensor<bf16>, tensor<4x2xf32>, tensor<4xf32>>
  hlo.return %r : tuple<tensor<4xf32>, tensor<2x6xi32>, tensor<bf16>, tensor<4x2xf32>, tensor<4xf32>>
}

// -----

// Signed divide and remainder by a positive power of two: the shift or
// mask on |A|, negated where A is negative. Divisors that are not a
// positive power of two (6, -8, INT_MIN) stay.
// CHECK-LABEL: hlo.computation @signed_powers_of_two
hlo.computation @signed_powers_of_two(%s: tensor<4xi32>) -> tuple<tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>> attributes {entry} {
  // CHECK-DAG: %[[Z:.*]] = constant {value = dense<0> : tensor<i32>}
  // CHECK-DAG: %[[K:.*]] = constant {value = dense<3> : tensor<i32>}
  // CHECK-DAG: %[[M:.*]] = constant {value = dense<7> : tensor<i32>}
  // CHECK: %[[ZB:.*]] = broadcast %[[Z]]
  // CHECK: %[[NEG:.*]] = compare %arg0, %[[ZB]] {direction = #hlo<comparison_direction LT>}
  // CHECK: %[[NA:.*]] = negate %arg0
  // CHECK: %[[ABS:.*]] = select %[[NEG]], %[[NA]], %arg0
  // CHECK: %[[KB:.*]] = broadcast %[[K]]
  // CHECK: %[[Q:.*]] = shift_right_logical %[[ABS]], %[[KB]]
  // CHECK: %[[NQ:.*]] = negate %[[Q]]
  // CHECK: %[[DIV:.*]] = select %[[NEG]], %[[NQ]], %[[Q]]
  // CHECK: %[[ZB2:.*]] = broadcast %[[Z]]
  // CHECK: %[[NEG2:.*]] = compare %arg0, %[[ZB2]] {direction = #hlo<comparison_direction LT>}
  // CHECK: %[[NA2:.*]] = negate %arg0
  // CHECK: %[[ABS2:.*]] = select %[[NEG2]], %[[NA2]], %arg0
  // CHECK: %[[MB:.*]] = broadcast %[[M]]
  // CHECK: %[[R:.*]] = and %[[ABS2]], %[[MB]]
  // CHECK: %[[NR:.*]] = negate %[[R]]
  // CHECK: %[[REM:.*]] = select %[[NEG2]], %[[NR]], %[[R]]
  // CHECK: %[[D6:.*]] = divide %arg0,
  // CHECK: %[[RM8:.*]] = remainder %arg0,
  // CHECK: %[[DMIN:.*]] = divide %arg0,
  // CHECK: tuple %[[DIV]], %[[REM]], %[[D6]], %[[RM8]], %[[DMIN]] :
  %c8 = hlo.constant {value = dense<8> : tensor<4xi32>} : () -> tensor<4xi32>
  %c6 = hlo.constant {value = dense<6> : tensor<4xi32>} : () -> tensor<4xi32>
  %cm8 = hlo.constant {value = dense<-8> : tensor<4xi32>} : () -> tensor<4xi32>
  %cmin = hlo.constant {value = dense<-2147483648> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = hlo.divide %s, %c8 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = hlo.remainder %s, %c8 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = hlo.divide %s, %c6 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %3 = hlo.remainder %s, %cm8 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %4 = hlo.divide %s, %cmin : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %r = hlo.tuple %0, %1, %2, %3, %4 : (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tuple<tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>>
  hlo.return %r : tuple<tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>>
}

// -----

// Reduce-windows: a one-element window with the identity init is the
// operand; with padding, the reducer on the operand and the init, padded
// with the init (a padded add with another init stays); windows spanning
// whole dimensions are a reduce; a pad by the init folds into the window;
// a pad by another value stays; of a scalar, the operand (identity init)
// or a map; of an empty array, the init broadcast.
hlo.computation @addw(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}
hlo.computation @maxw(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.maximum %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}
// CHECK-LABEL: hlo.computation @reduce_windows
// NOWR-LABEL: hlo.computation @reduce_windows
hlo.computation @reduce_windows(%x: tensor<4x6xf32>, %i: tensor<f32>, %s: tensor<f32>, %e: tensor<0x3xf32>) -> tuple<tensor<4x6xf32>, tensor<5x8xf32>, tensor<5x6xf32>, tensor<1x6xf32>, tensor<2x6xf32>, tensor<2x6xf32>, tensor<f32>, tensor<f32>, tensor<0x3xf32>> attributes {entry} {
  // CHECK-DAG: %[[Z:.*]] = constant {value = dense<0.000000e+00> : tensor<f32>}
  // CHECK-DAG: %[[IB:.*]] = broadcast %arg1 {dimensions = array<i64>} : (tensor<f32>) -> tensor<4x6xf32>
  // CHECK-DAG: %[[MAX:.*]] = maximum %arg0, %[[IB]]
  // CHECK-DAG: %[[P:.*]] = pad %[[MAX]], %arg1 {padding = #hlo.padding<"1_0x0_2">} : (tensor<4x6xf32>, tensor<f32>) -> tensor<5x8xf32>
  // CHECK-DAG: %[[KEEP:.*]] = reduce_window %arg0, %arg1 {to_apply = @addw, window = #hlo.window<"{size=1x1 pad=1_0x0_0}">}
  // CHECK-DAG: %[[RED:.*]] = reduce %arg0, %arg1 {dimensions = array<i64: 0>, to_apply = @addw} : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
  // CHECK-DAG: %[[RS:.*]] = reshape %[[RED]] : (tensor<6xf32>) -> tensor<1x6xf32>
  // CHECK-DAG: %[[FOLD:.*]] = reduce_window %arg0, %[[Z]] {to_apply = @addw, window = #hlo.window<"{size=3x1 stride=2x1 pad=1_1x0_0}">} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x6xf32>
  // CHECK-DAG: %[[PO:.*]] = pad %arg0,
  // CHECK-DAG: %[[KEEP2:.*]] = reduce_window %[[PO]], %[[Z]]
  // CHECK-DAG: %[[MAP:.*]] = add %arg1, %arg2 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK-DAG: %[[E:.*]] = broadcast %arg1 {dimensions = array<i64>} : (tensor<f32>) -> tensor<0x3xf32>
  // CHECK: tuple %arg0, %[[P]], %[[KEEP]], %[[RS]], %[[FOLD]], %[[KEEP2]], %arg2, %[[MAP]], %[[E]] :
  // NOWR: reduce_window %arg0, %arg1 {to_apply = @addw, window = #hlo.window<"{size=4x1}">}
  %z = hlo.constant {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %one = hlo.constant {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %0 = hlo.reduce_window %x, %z {window = #hlo.window<"{size=1x1}">, to_apply = @addw} : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
  %1 = hlo.reduce_window %x, %i {window = #hlo.window<"{size=1x1 pad=1_0x0_2}">, to_apply = @maxw} : (tensor<4x6xf32>, tensor<f32>) -> tensor<5x8xf32>
  %2 = hlo.reduce_window %x, %i {window = #hlo.window<"{size=1x1 pad=1_0x0_0}">, to_apply = @addw} : (tensor<4x6xf32>, tensor<f32>) -> tensor<5x6xf32>
  %3 = hlo.reduce_window %x, %i {window = #hlo.window<"{size=4x1}">, to_apply = @addw} : (tensor<4x6xf32>, tensor<f32>) -> tensor<1x6xf32>
  %pz = hlo.pad %x, %z {padding = #hlo.padding<"1_1x0_0">} : (tensor<4x6xf32>, tensor<f32>) -> tensor<6x6xf32>
  %4 = hlo.reduce_window %pz, %z {window = #hlo.window<"{size=3x1 stride=2x1}">, to_apply = @addw} : (tensor<6x6xf32>, tensor<f32>) -> tensor<2x6xf32>
  %po = hlo.pad %x, %one {padding = #hlo.padding<"1_1x0_0">} : (tensor<4x6xf32>, tensor<f32>) -> tensor<6x6xf32>
  %5 = hlo.reduce_window %po, %z {window = #hlo.window<"{size=3x1 stride=2x1}">, to_apply = @addw} : (tensor<6x6xf32>, tensor<f32>) -> tensor<2x6xf32>
  %6 = hlo.reduce_window %s, %z {to_apply = @addw} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %7 = hlo.reduce_window %s, %i {to_apply = @addw} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %8 = hlo.reduce_window %e, %i {window = #hlo.window<"{size=1x1}">, to_apply = @addw} : (tensor<0x3xf32>, tensor<f32>) -> tensor<0x3xf32>
  %r = hlo.tuple %0, %1, %2, %3, %4, %5, %6, %7, %8 : (tensor<4x6xf32>, tensor<5x8xf32>, tensor<5x6xf32>, tensor<1x6xf32>, tensor<2x6xf32>, tensor<2x6xf32>, tensor<f32>, tensor<f32>, tensor<0x3xf32>) -> tuple<tensor<4x6xf32>, tensor<5x8xf32>, tensor<5x6xf32>, tensor<1x6xf32>, tensor<2x6xf32>, tensor<2x6xf32>, tensor<f32>, tensor<f32>, tensor<0x3xf32>>
  hlo.return %r : tuple<tensor<4x6xf32>, tensor<5x8xf32>, tensor<5x6xf32>, tensor<1x6xf32>, tensor<2x6xf32>, tensor<2x6xf32>, tensor<f32>, tensor<f32>, tensor<0x3xf32>>
}

// -----

// reduce(concatenate(A, B)) over the concatenated dimension is a map of
// the reducer (its add) over reduce(A) and reduce(B) (operands of different shapes
// only with enable-unconditional-reduce-of-concat-replacement, unless the
// result is a scalar). Another init, or a reduce that keeps the
// concatenated dimension, stays.
hlo.computation @addc(%x: tensor<i32>, %y: tensor<i32>) -> tensor<i32> {
  %0 = hlo.add %x, %y : (tensor<i32>, tensor<i32>) -> tensor<i32>
  hlo.return %0 : tensor<i32>
}
// CHECK-LABEL: hlo.computation @reduce_of_concatenate
// NOCAT-LABEL: hlo.computation @reduce_of_concatenate
hlo.computation @reduce_of_concatenate(%a: tensor<2x3xi32>, %b: tensor<4x3xi32>, %i: tensor<i32>) -> tuple<tensor<3xi32>, tensor<i32>, tensor<3xi32>, tensor<6xi32>> attributes {entry} {
  // CHECK-DAG: %[[Z:.*]] = constant {value = dense<0> : tensor<i32>}
  // CHECK-DAG: %[[CAT:.*]] = concatenate %arg0, %arg1
  // CHECK-DAG: %[[RA:.*]] = reduce %arg0, %[[Z]] {dimensions = array<i64: 0>, to_apply = @addc} : (tensor<2x3xi32>, tensor<i32>) -> tensor<3xi32>
  // CHECK-DAG: %[[RB:.*]] = reduce %arg1, %[[Z]] {dimensions = array<i64: 0>, to_apply = @addc} : (tensor<4x3xi32>, tensor<i32>) -> tensor<3xi32>
  // CHECK-DAG: %[[M:.*]] = add %[[RA]], %[[RB]]
  // CHECK-DAG: %[[SA:.*]] = reduce %arg0, %[[Z]] {dimensions = array<i64: 0, 1>, to_apply = @addc} : (tensor<2x3xi32>, tensor<i32>) -> tensor<i32>
  // CHECK-DAG: %[[SB:.*]] = reduce %arg1, %[[Z]] {dimensions = array<i64: 0, 1>, to_apply = @addc} : (tensor<4x3xi32>, tensor<i32>) -> tensor<i32>
  // CHECK-DAG: %[[S:.*]] = add %[[SA]], %[[SB]]
  // CHECK-DAG: %[[K0:.*]] = reduce %[[CAT]], %arg2 {dimensions = array<i64: 0>
  // CHECK-DAG: %[[K1:.*]] = reduce %[[CAT]], %[[Z]] {dimensions = array<i64: 1>
  // CHECK: tuple %[[M]], %[[S]], %[[K0]], %[[K1]] :
  // NOCAT-DAG: %[[CAT:.*]] = concatenate %arg0, %arg1
  // NOCAT-DAG: %[[K:.*]] = reduce %[[CAT]], %{{.*}} {dimensions = array<i64: 0>, to_apply = @addc} : (tensor<6x3xi32>, tensor<i32>) -> tensor<3xi32>
  // NOCAT-DAG: %[[S:.*]] = add %{{.*}}, %{{.*}} : (tensor<i32>, tensor<i32>) -> tensor<i32>
  // NOCAT: tuple %[[K]], %[[S]],
  %z = hlo.constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %cat = hlo.concatenate %a, %b {dimensions = array<i64: 0>} : (tensor<2x3xi32>, tensor<4x3xi32>) -> tensor<6x3xi32>
  %0 = hlo.reduce %cat, %z {dimensions = array<i64: 0>, to_apply = @addc} : (tensor<6x3xi32>, tensor<i32>) -> tensor<3xi32>
  %1 = hlo.reduce %cat, %z {dimensions = array<i64: 0, 1>, to_apply = @addc} : (tensor<6x3xi32>, tensor<i32>) -> tensor<i32>
  %2 = hlo.reduce %cat, %i {dimensions = array<i64: 0>, to_apply = @addc} : (tensor<6x3xi32>, tensor<i32>) -> tensor<3xi32>
  %3 = hlo.reduce %cat, %z {dimensions = array<i64: 1>, to_apply = @addc} : (tensor<6x3xi32>, tensor<i32>) -> tensor<6xi32>
  %r = hlo.tuple %0, %1, %2, %3 : (tensor<3xi32>, tensor<i32>, tensor<3xi32>, tensor<6xi32>) -> tuple<tensor<3xi32>, tensor<i32>, tensor<3xi32>, tensor<6xi32>>
  hlo.return %r : tuple<tensor<3xi32>, tensor<i32>, tensor<3xi32>, tensor<6xi32>>
}

// -----

// A*C + B*C = (A+B)*C when both multiplies have no other user: integers
// (either operand order); floats when C is a constant +-2^k, other floats
// only with enable-floats-are-real.
// CHECK-LABEL: hlo.computation @distributive
// REAL-LABEL: hlo.computation @distributive
hlo.computation @distributive(%a: tensor<4xi32>, %b: tensor<4xi32>, %c: tensor<4xi32>, %f: tensor<4xf32>, %g: tensor<4xf32>, %h: tensor<4xf32>) -> tuple<tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>> attributes {entry} {
  // CHECK-DAG: %[[S0:.*]] = add %arg0, %arg1
  // CHECK-DAG: %[[P0:.*]] = multiply %[[S0]], %arg2
  // CHECK-DAG: %[[Q:.*]] = broadcast %{{.*}} : (tensor<f32>) -> tensor<4xf32>
  // CHECK-DAG: %[[S1:.*]] = add %arg3, %arg4
  // CHECK-DAG: %[[P1:.*]] = multiply %[[S1]], %[[Q]]
  // CHECK-DAG: %[[F0:.*]] = multiply %arg3, %arg5
  // CHECK-DAG: %[[F1:.*]] = multiply %arg4, %arg5
  // CHECK-DAG: %[[KEEP:.*]] = add %[[F0]], %[[F1]]
  // CHECK-DAG: %[[SH:.*]] = multiply %arg0, %arg2
  // CHECK-DAG: %[[OT:.*]] = multiply %arg1, %arg2
  // CHECK-DAG: %[[KEEP2:.*]] = add %[[SH]], %[[OT]]
  // CHECK: tuple %[[P0]], %[[P1]], %[[KEEP]], %[[KEEP2]], %[[SH]] :
  // REAL-NOT: multiply %arg3, %arg5
  // REAL: %[[P:.*]] = multiply %{{.*}}, %arg5
  // REAL: tuple %{{.*}}, %{{.*}}, %[[P]], %{{.*}}, %{{.*}} :
  %m0 = hlo.multiply %c, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %m1 = hlo.multiply %b, %c : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %0 = hlo.add %m0, %m1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %two = hlo.constant {value = dense<-0.25> : tensor<f32>} : () -> tensor<f32>
  %twos = hlo.broadcast %two {dimensions = array<i64>} : (tensor<f32>) -> tensor<4xf32>
  %m2 = hlo.multiply %f, %twos : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %m3 = hlo.multiply %g, %twos : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = hlo.add %m2, %m3 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %m4 = hlo.multiply %f, %h : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %m5 = hlo.multiply %g, %h : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = hlo.add %m4, %m5 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %m6 = hlo.multiply %a, %c : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %m7 = hlo.multiply %b, %c : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %3 = hlo.add %m6, %m7 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %r = hlo.tuple %0, %1, %2, %3, %m6 : (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>) -> tuple<tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>>
  hlo.return %r : tuple<tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>>
}

// -----

// A reduce-add of a dot over batch dimensions: they become contracting
// dimensions of the dot; other reduced dimensions stay with a reduce. A
// reduce over no batch dimension, of a dot with another user, or over
// batch dimensions only with another init stays.
hlo.computation @addd(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}
// CHECK-LABEL: hlo.computation @reduce_of_dot
// NOSR-LABEL: hlo.computation @reduce_of_dot
// NOSR-COUNT-6: = dot
hlo.computation @reduce_of_dot(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %c: tensor<2x3x4xf32>, %i: tensor<f32>) -> tuple<tensor<3x5xf32>, tensor<5xf32>, tensor<3x5xf32>, tensor<3xf32>, tensor<2x3xf32>, tensor<3x3xf32>, tensor<2x3x5xf32>> attributes {entry} {
  // CHECK-DAG: %[[Z:.*]] = constant {value = dense<0.000000e+00> : tensor<f32>}
  // CHECK-DAG: %[[D0:.*]] = dot %arg0, %arg1 {lhs_contracting_dims = array<i64: 2, 0>, rhs_contracting_dims = array<i64: 1, 0>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<3x5xf32>
  // CHECK-DAG: %[[D1:.*]] = dot %arg2, %arg1 {algorithm = #hlo<dot_algorithm dot_f32_f32_f32>, lhs_contracting_dims = array<i64: 2, 0>, rhs_contracting_dims = array<i64: 1, 0>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<3x5xf32>
  // CHECK-DAG: %[[R1:.*]] = reduce %[[D1]], %arg3 {dimensions = array<i64: 0>, to_apply = @addd} : (tensor<3x5xf32>, tensor<f32>) -> tensor<5xf32>
  // CHECK-DAG: %[[F:.*]] = dot %arg2, %arg1 {lhs_batch_dims = array<i64: 0>
  // CHECK-DAG: %[[R2:.*]] = reduce %[[F]], %[[Z]] {dimensions = array<i64: 0>
  // CHECK-DAG: %[[D3:.*]] = dot %arg0, %arg0 {lhs_contracting_dims = array<i64: 2, 0>, rhs_contracting_dims = array<i64: 2, 0>} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<3x3xf32>
  // CHECK-DAG: %[[R3:.*]] = reduce %[[D3]], %arg3 {dimensions = array<i64: 1>, to_apply = @addd} : (tensor<3x3xf32>, tensor<f32>) -> tensor<3xf32>
  // CHECK-DAG: %[[H:.*]] = dot %arg2, %arg2 {lhs_batch_dims = array<i64: 0>
  // CHECK-DAG: %[[R4:.*]] = reduce %[[H]], %[[Z]] {dimensions = array<i64: 1>
  // CHECK-DAG: %[[K:.*]] = dot %arg0, %arg2 {lhs_batch_dims = array<i64: 0>
  // CHECK-DAG: %[[R5:.*]] = reduce %[[K]], %arg3 {dimensions = array<i64: 0>
  // CHECK: tuple %[[D0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[R5]], %[[F]] :
  %z = hlo.constant {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %d = hlo.dot %a, %b {lhs_batch_dims = array<i64: 0>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_contracting_dims = array<i64: 1>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %0 = hlo.reduce %d, %z {dimensions = array<i64: 0>, to_apply = @addd} : (tensor<2x3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
  %e = hlo.dot %c, %b {lhs_batch_dims = array<i64: 0>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_contracting_dims = array<i64: 1>, algorithm = #hlo<dot_algorithm dot_f32_f32_f32>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %1 = hlo.reduce %e, %i {dimensions = array<i64: 0, 1>, to_apply = @addd} : (tensor<2x3x5xf32>, tensor<f32>) -> tensor<5xf32>
  %f = hlo.dot %c, %b {lhs_batch_dims = array<i64: 0>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_contracting_dims = array<i64: 1>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %2 = hlo.reduce %f, %z {dimensions = array<i64: 0>, to_apply = @addd} : (tensor<2x3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
  %g = hlo.dot %a, %a {lhs_batch_dims = array<i64: 0>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_contracting_dims = array<i64: 2>} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x3xf32>
  %3 = hlo.reduce %g, %i {dimensions = array<i64: 0, 2>, to_apply = @addd} : (tensor<2x3x3xf32>, tensor<f32>) -> tensor<3xf32>
  %h = hlo.dot %c, %c {lhs_batch_dims = array<i64: 0>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_contracting_dims = array<i64: 2>} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x3xf32>
  %4 = hlo.reduce %h, %z {dimensions = array<i64: 1>, to_apply = @addd} : (tensor<2x3x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %k = hlo.dot %a, %c {lhs_batch_dims = array<i64: 0>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_contracting_dims = array<i64: 2>} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x3xf32>
  %5 = hlo.reduce %k, %i {dimensions = array<i64: 0>, to_apply = @addd} : (tensor<2x3x3xf32>, tensor<f32>) -> tensor<3x3xf32>
  %r = hlo.tuple %0, %1, %2, %3, %4, %5, %f : (tensor<3x5xf32>, tensor<5xf32>, tensor<3x5xf32>, tensor<3xf32>, tensor<2x3xf32>, tensor<3x3xf32>, tensor<2x3x5xf32>) -> tuple<tensor<3x5xf32>, tensor<5xf32>, tensor<3x5xf32>, tensor<3xf32>, tensor<2x3xf32>, tensor<3x3xf32>, tensor<2x3x5xf32>>
  hlo.return %r : tuple<tensor<3x5xf32>, tensor<5xf32>, tensor<3x5xf32>, tensor<3xf32>, tensor<2x3xf32>, tensor<3x3xf32>, tensor<2x3x5xf32>>
}

// -----

// A dot of a concatenate along the contracting dimension and a rank-2
// constant is a sum of dots with slices of the constant (either operand
// order); a dot of a dynamic-slice of a constant (one row, whole along the
// contracting dimension) and a constant is a dynamic-slice of the dot of
// the constants. A dot with a parameter in place of the constant, or of a
// concatenate along a free dimension, stays.
// CHECK-LABEL: hlo.computation @dot_of_concatenate
hlo.computation @dot_of_concatenate(%a: tensor<4x2xf32>, %b: tensor<4x2xf32>, %w: tensor<4x2xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tuple<tensor<4x2xf32>, tensor<2x4xf32>, tensor<4x2xf32>, tensor<8x2xf32>, tensor<1x2xf32>> attributes {entry} {
  // CHECK-DAG: %[[C:.*]] = constant {value = dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00], [7.000000e+00, 8.000000e+00]]> : tensor<4x2xf32>}
  // CHECK-DAG: %[[S0:.*]] = slice %[[C]] {slice = #hlo.slice<"{[0:2], [0:2]}">} : (tensor<4x2xf32>) -> tensor<2x2xf32>
  // CHECK-DAG: %[[D0:.*]] = dot %arg0, %[[S0]] {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  // CHECK-DAG: %[[S1:.*]] = slice %[[C]] {slice = #hlo.slice<"{[2:4], [0:2]}">} : (tensor<4x2xf32>) -> tensor<2x2xf32>
  // CHECK-DAG: %[[D1:.*]] = dot %arg1, %[[S1]] {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  // CHECK-DAG: %[[SUM:.*]] = add %[[D0]], %[[D1]]
  // CHECK-DAG: %[[CT:.*]] = constant {value = dense<{{.*}}> : tensor<2x4xf32>}
  // CHECK-DAG: %[[T0:.*]] = slice %[[CT]] {slice = #hlo.slice<"{[0:2], [0:2]}">} : (tensor<2x4xf32>) -> tensor<2x2xf32>
  // CHECK-DAG: %[[E0:.*]] = dot %[[T0]], %arg0 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 1>} : (tensor<2x2xf32>, tensor<4x2xf32>) -> tensor<2x4xf32>
  // CHECK-DAG: %[[T1:.*]] = slice %[[CT]] {slice = #hlo.slice<"{[0:2], [2:4]}">} : (tensor<2x4xf32>) -> tensor<2x2xf32>
  // CHECK-DAG: %[[E1:.*]] = dot %[[T1]], %arg1 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 1>} : (tensor<2x2xf32>, tensor<4x2xf32>) -> tensor<2x4xf32>
  // CHECK-DAG: %[[SUM2:.*]] = add %[[E0]], %[[E1]]
  // CHECK-DAG: %[[KEEP:.*]] = dot %{{.*}}, %arg2
  // CHECK-DAG: %[[KEEP2:.*]] = dot %{{.*}}, %[[C]] {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  // CHECK-DAG: %[[TABLE:.*]] = constant {value = dense<{{.*}}> : tensor<3x4xf32>}
  // CHECK-DAG: %[[FULL:.*]] = dot %[[TABLE]], %[[C]] {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  // CHECK-DAG: %[[ROW:.*]] = dynamic_slice %[[FULL]], %arg3, %arg4 {dynamic_slice_sizes = array<i64: 1, 2>} : (tensor<3x2xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
  // CHECK: tuple %[[SUM]], %[[SUM2]], %[[KEEP]], %[[KEEP2]], %[[ROW]] :
  %c = hlo.constant {value = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>} : () -> tensor<4x2xf32>
  %ct = hlo.constant {value = dense<[[1.0, -1.0, 2.0, 0.25], [0.5, 3.0, -2.0, 4.0]]> : tensor<2x4xf32>} : () -> tensor<2x4xf32>
  %cat = hlo.concatenate %a, %b {dimensions = array<i64: 1>} : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x4xf32>
  %0 = hlo.dot %cat, %c {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %1 = hlo.dot %ct, %cat {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 1>} : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %2 = hlo.dot %cat, %w {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %cat0 = hlo.concatenate %cat, %cat {dimensions = array<i64: 0>} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %3 = hlo.dot %cat0, %c {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  %table = hlo.constant {value = dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [1.5, 2.5, 3.5, 4.5]]> : tensor<3x4xf32>} : () -> tensor<3x4xf32>
  %row = hlo.dynamic_slice %table, %i, %j {dynamic_slice_sizes = array<i64: 1, 4>} : (tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
  %4 = hlo.dot %row, %c {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  %r = hlo.tuple %0, %1, %2, %3, %4 : (tensor<4x2xf32>, tensor<2x4xf32>, tensor<4x2xf32>, tensor<8x2xf32>, tensor<1x2xf32>) -> tuple<tensor<4x2xf32>, tensor<2x4xf32>, tensor<4x2xf32>, tensor<8x2xf32>, tensor<1x2xf32>>
  hlo.return %r : tuple<tensor<4x2xf32>, tensor<2x4xf32>, tensor<4x2xf32>, tensor<8x2xf32>, tensor<1x2xf32>>
}

// -----

// Size-1 dimensions of dot operands are reshaped away (XLA's
// RemoveDegenerateDimensionFromDot): a row vector times a matrix becomes a
// vector-matrix dot, a size-1 batch dimension leaves the dimension numbers;
// the result is reshaped back. A dot without size-1 dimensions stays. (The
// vector-matrix dot is then strength-reduced unless that is off.)
// CHECK-LABEL: hlo.computation @dot_degenerate_dims
// CHECK: reshape %arg0 : (tensor<1x4xf32>) -> tensor<4xf32>
// NOSR-LABEL: hlo.computation @dot_degenerate_dims
hlo.computation @dot_degenerate_dims(%r: tensor<1x4xf32>, %m: tensor<4x3xf32>, %a: tensor<1x2x4xf32>, %b: tensor<1x4x3xf32>) -> tuple<tensor<1x3xf32>, tensor<1x2x3xf32>, tensor<4x4xf32>> attributes {entry} {
  // NOSR-DAG: %[[R:.*]] = reshape %arg0 : (tensor<1x4xf32>) -> tensor<4xf32>
  // NOSR-DAG: %[[D0:.*]] = dot %[[R]], %arg1 {lhs_contracting_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 0>} : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<3xf32>
  // NOSR-DAG: %[[O0:.*]] = reshape %[[D0]] : (tensor<3xf32>) -> tensor<1x3xf32>
  // NOSR-DAG: %[[A:.*]] = reshape %arg2 : (tensor<1x2x4xf32>) -> tensor<2x4xf32>
  // NOSR-DAG: %[[B:.*]] = reshape %arg3 : (tensor<1x4x3xf32>) -> tensor<4x3xf32>
  // NOSR-DAG: %[[D1:.*]] = dot %[[A]], %[[B]] {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  // NOSR-DAG: %[[O1:.*]] = reshape %[[D1]] : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
  // NOSR-DAG: %[[KEEP:.*]] = dot %arg1, %arg1 {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 1>} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x4xf32>
  // NOSR: tuple %[[O0]], %[[O1]], %[[KEEP]]
  %0 = hlo.dot %r, %m {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32>
  %1 = hlo.dot %a, %b {lhs_batch_dims = array<i64: 0>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_contracting_dims = array<i64: 1>} : (tensor<1x2x4xf32>, tensor<1x4x3xf32>) -> tensor<1x2x3xf32>
  %2 = hlo.dot %m, %m {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 1>} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x4xf32>
  %t = hlo.tuple %0, %1, %2 : (tensor<1x3xf32>, tensor<1x2x3xf32>, tensor<4x4xf32>) -> tuple<tensor<1x3xf32>, tensor<1x2x3xf32>, tensor<4x4xf32>>
  hlo.return %t : tuple<tensor<1x3xf32>, tensor<1x2x3xf32>, tensor<4x4xf32>>
}
