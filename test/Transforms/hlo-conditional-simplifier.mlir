// RUN: hlo-opt %s -split-input-file --hlo-conditional-simplifier | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-conditional-simplifier --hlo-check-semantics -o /dev/null

// Only element 1 of the result is read: each branch is copied with a root
// tuple of that element, the get-tuple-element reads element 0.
// CHECK-LABEL: hlo.computation private @b0_0(
// CHECK-SAME: -> tuple<tensor<3xf32>>
// CHECK: %[[T:.*]] = tuple %{{.*}}, %{{.*}} :
// CHECK-NEXT: %[[E:.*]] = get_tuple_element %[[T]] {index = 1 : i64}
// CHECK-NEXT: %[[R:.*]] = tuple %[[E]]
// CHECK-NEXT: return %[[R]]
// CHECK-LABEL: hlo.computation private @b1_1(
// CHECK-SAME: -> tuple<tensor<3xf32>>
// CHECK-LABEL: hlo.computation @narrow
// CHECK: %[[C:.*]] = conditional %{{.*}}, %{{.*}}, %{{.*}} {branch_computations = [@b0_0, @b1_1]} : {{.*}} -> tuple<tensor<3xf32>>
// CHECK-NEXT: get_tuple_element %[[C]] {index = 0 : i64}
hlo.computation private @b0(%p: tuple<tensor<3xf32>, tensor<3xf32>>) -> tuple<tensor<3xf32>, tensor<3xf32>> {
  %x = hlo.get_tuple_element %p {index = 0 : i64} : (tuple<tensor<3xf32>, tensor<3xf32>>) -> tensor<3xf32>
  %y = hlo.get_tuple_element %p {index = 1 : i64} : (tuple<tensor<3xf32>, tensor<3xf32>>) -> tensor<3xf32>
  %a = hlo.add %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %t = hlo.tuple %a, %x : (tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>>
  hlo.return %t : tuple<tensor<3xf32>, tensor<3xf32>>
}
hlo.computation private @b1(%p: tuple<tensor<3xf32>, tensor<3xf32>>) -> tuple<tensor<3xf32>, tensor<3xf32>> {
  %x = hlo.get_tuple_element %p {index = 0 : i64} : (tuple<tensor<3xf32>, tensor<3xf32>>) -> tensor<3xf32>
  %y = hlo.get_tuple_element %p {index = 1 : i64} : (tuple<tensor<3xf32>, tensor<3xf32>>) -> tensor<3xf32>
  %m = hlo.multiply %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %t = hlo.tuple %y, %m : (tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>>
  hlo.return %t : tuple<tensor<3xf32>, tensor<3xf32>>
}
hlo.computation @narrow(%i: tensor<i32>, %a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> attributes {entry} {
  %one = hlo.constant {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %j = hlo.and %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %ab = hlo.tuple %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>>
  %c = hlo.conditional %j, %ab, %ab {branch_computations = [@b0, @b1]} : (tensor<i32>, tuple<tensor<3xf32>, tensor<3xf32>>, tuple<tensor<3xf32>, tensor<3xf32>>) -> tuple<tensor<3xf32>, tensor<3xf32>>
  %g = hlo.get_tuple_element %c {index = 1 : i64} : (tuple<tensor<3xf32>, tensor<3xf32>>) -> tensor<3xf32>
  hlo.return %g : tensor<3xf32>
}

// -----

// A constant index picks the branch: pred true is branch 0, an s32 out of
// range the last branch; a conditional with one branch always runs it.
// The branch's instructions replace the conditional.
// CHECK-LABEL: hlo.computation @known
// CHECK-NOT: conditional
// CHECK: %[[N:.*]] = negate %arg1
// CHECK: %[[E:.*]] = exponential %arg2
// CHECK: %[[F:.*]] = exponential %arg1
// CHECK: tuple %[[N]], %[[E]], %[[F]]
hlo.computation private @neg(%p: tensor<3xf32>) -> tensor<3xf32> {
  %n = hlo.negate %p : (tensor<3xf32>) -> tensor<3xf32>
  hlo.return %n : tensor<3xf32>
}
hlo.computation private @exp(%p: tensor<3xf32>) -> tensor<3xf32> {
  %e = hlo.exponential %p : (tensor<3xf32>) -> tensor<3xf32>
  hlo.return %e : tensor<3xf32>
}
hlo.computation @known(%i: tensor<i32>, %a: tensor<3xf32>, %b: tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>> attributes {entry} {
  %true = hlo.constant {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %c0 = hlo.conditional %true, %a, %b {true_computation = @neg, false_computation = @exp} : (tensor<i1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %five = hlo.constant {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %c1 = hlo.conditional %five, %a, %b {branch_computations = [@neg, @exp]} : (tensor<i32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %c2 = hlo.conditional %i, %a {branch_computations = [@exp]} : (tensor<i32>, tensor<3xf32>) -> tensor<3xf32>
  %t = hlo.tuple %c0, %c1, %c2 : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>>
  hlo.return %t : tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>>
}

// -----

// Not inlined: a branch index that is not a constant, a branch with a side
// effect, a conditional with a control predecessor. Not narrowed: a result
// read by another instruction than get-tuple-element, a result that is the
// ROOT.
// CHECK-LABEL: hlo.computation @keep
// CHECK-COUNT-4: conditional
// CHECK-NOT: conditional
hlo.computation private @neg(%p: tensor<3xf32>) -> tensor<3xf32> {
  %n = hlo.negate %p : (tensor<3xf32>) -> tensor<3xf32>
  hlo.return %n : tensor<3xf32>
}
hlo.computation private @effect(%p: tensor<3xf32>) -> tensor<3xf32> {
  %lo = hlo.constant {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %hi = hlo.constant {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %n = hlo.rng %lo, %hi {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<f32>, tensor<f32>) -> tensor<3xf32>
  %s = hlo.add %p, %n : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  hlo.return %s : tensor<3xf32>
}
hlo.computation private @pair(%p: tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>> {
  %n = hlo.negate %p : (tensor<3xf32>) -> tensor<3xf32>
  %t = hlo.tuple %n, %p : (tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>>
  hlo.return %t : tuple<tensor<3xf32>, tensor<3xf32>>
}
hlo.computation @keep(%i: tensor<i32>, %a: tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tuple<tensor<3xf32>, tensor<3xf32>>> attributes {entry} {
  %zero = hlo.constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %c0 = hlo.conditional %i, %a, %a {branch_computations = [@neg, @neg]} : (tensor<i32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %c1 = hlo.conditional %zero, %a, %a {branch_computations = [@effect, @neg]} : (tensor<i32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %c2 = hlo.conditional %zero, %a, %a after(%c1 : tensor<3xf32>) {branch_computations = [@neg, @neg]} : (tensor<i32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %c3 = hlo.conditional %i, %a, %a {branch_computations = [@pair, @pair]} : (tensor<i32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>>
  %t = hlo.tuple %c0, %c1, %c2, %c3 : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tuple<tensor<3xf32>, tensor<3xf32>>) -> tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tuple<tensor<3xf32>, tensor<3xf32>>>
  hlo.return %t : tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tuple<tensor<3xf32>, tensor<3xf32>>>
}

// -----

// CHECK-LABEL: hlo.computation @root
// CHECK: conditional {{.*}} -> tuple<tensor<3xf32>, tensor<3xf32>>
hlo.computation private @pair(%p: tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>> {
  %n = hlo.negate %p : (tensor<3xf32>) -> tensor<3xf32>
  %t = hlo.tuple %n, %p : (tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>>
  hlo.return %t : tuple<tensor<3xf32>, tensor<3xf32>>
}
hlo.computation @root(%i: tensor<i32>, %a: tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>> attributes {entry} {
  %c = hlo.conditional %i, %a, %a {branch_computations = [@pair, @pair]} : (tensor<i32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>>
  hlo.return %c : tuple<tensor<3xf32>, tensor<3xf32>>
}
