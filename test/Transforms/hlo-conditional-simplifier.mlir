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

// -----

// A pred conditional whose branches are cheap (elementwise, broadcast,
// constant, tuple instructions) runs both branches and selects: the pred
// is broadcast for the array element, used as it is for the scalar.
// CHECK-LABEL: hlo.computation @sel
// CHECK-NOT: conditional
// CHECK: %[[A:.*]] = add
// CHECK-NEXT: %[[TT:.*]] = tuple %[[A]]
// CHECK-NEXT: %[[N:.*]] = negate %arg1
// CHECK-NEXT: %[[C:.*]] = constant
// CHECK-NEXT: %[[FT:.*]] = tuple %[[N]], %[[C]]
// CHECK-DAG: %[[T0:.*]] = get_tuple_element %[[TT]] {index = 0 : i64}
// CHECK-DAG: %[[F0:.*]] = get_tuple_element %[[FT]] {index = 0 : i64}
// CHECK: %[[M:.*]] = broadcast %arg0 {{.*}}(tensor<i1>) -> tensor<3xi1>
// CHECK-NEXT: %[[S0:.*]] = select %[[M]], %[[T0]], %[[F0]] : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>)
// CHECK-DAG: %[[T1:.*]] = get_tuple_element %[[TT]] {index = 1 : i64}
// CHECK-DAG: %[[F1:.*]] = get_tuple_element %[[FT]] {index = 1 : i64}
// CHECK: %[[S1:.*]] = select %arg0, %[[T1]], %[[F1]] : (tensor<i1>, tensor<f32>, tensor<f32>)
// CHECK-NEXT: %[[R:.*]] = tuple %[[S0]], %[[S1]]
// CHECK-NEXT: return %[[R]]
hlo.computation private @t(%p: tuple<tensor<3xf32>, tensor<f32>>) -> tuple<tensor<3xf32>, tensor<f32>> {
  %x = hlo.get_tuple_element %p {index = 0 : i64} : (tuple<tensor<3xf32>, tensor<f32>>) -> tensor<3xf32>
  %y = hlo.get_tuple_element %p {index = 1 : i64} : (tuple<tensor<3xf32>, tensor<f32>>) -> tensor<f32>
  %b = hlo.broadcast %y {dimensions = array<i64>} : (tensor<f32>) -> tensor<3xf32>
  %a = hlo.add %x, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %t = hlo.tuple %a, %y : (tensor<3xf32>, tensor<f32>) -> tuple<tensor<3xf32>, tensor<f32>>
  hlo.return %t : tuple<tensor<3xf32>, tensor<f32>>
}
hlo.computation private @f(%p: tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<f32>> {
  %n = hlo.negate %p : (tensor<3xf32>) -> tensor<3xf32>
  %c = hlo.constant {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %t = hlo.tuple %n, %c : (tensor<3xf32>, tensor<f32>) -> tuple<tensor<3xf32>, tensor<f32>>
  hlo.return %t : tuple<tensor<3xf32>, tensor<f32>>
}
hlo.computation @sel(%c: tensor<i1>, %a: tensor<3xf32>, %s: tensor<f32>) -> tuple<tensor<3xf32>, tensor<f32>> attributes {entry} {
  %as = hlo.tuple %a, %s : (tensor<3xf32>, tensor<f32>) -> tuple<tensor<3xf32>, tensor<f32>>
  %r = hlo.conditional %c, %as, %a {true_computation = @t, false_computation = @f} : (tensor<i1>, tuple<tensor<3xf32>, tensor<f32>>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<f32>>
  hlo.return %r : tuple<tensor<3xf32>, tensor<f32>>
}

// -----

// No select: a branch with an expensive instruction (transpose), a branch
// that returns its operand (cheaper than a select), a branch with a side
// effect (rng).
// CHECK-LABEL: hlo.computation @no_select
// CHECK-COUNT-3: conditional
// CHECK-NOT: select
hlo.computation private @neg(%p: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %n = hlo.negate %p : (tensor<3x3xf32>) -> tensor<3x3xf32>
  hlo.return %n : tensor<3x3xf32>
}
hlo.computation private @transpose(%p: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %n = hlo.transpose %p {dimensions = array<i64: 1, 0>} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  hlo.return %n : tensor<3x3xf32>
}
hlo.computation private @id(%p: tensor<3x3xf32>) -> tensor<3x3xf32> {
  hlo.return %p : tensor<3x3xf32>
}
hlo.computation private @effect(%p: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %lo = hlo.constant {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %hi = hlo.constant {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %n = hlo.rng %lo, %hi {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<f32>, tensor<f32>) -> tensor<3x3xf32>
  %s = hlo.add %p, %n : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  hlo.return %s : tensor<3x3xf32>
}
hlo.computation @no_select(%c: tensor<i1>, %a: tensor<3x3xf32>) -> tuple<tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>> attributes {entry} {
  %c0 = hlo.conditional %c, %a, %a {true_computation = @neg, false_computation = @transpose} : (tensor<i1>, tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %c1 = hlo.conditional %c, %a, %a {true_computation = @id, false_computation = @neg} : (tensor<i1>, tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %c2 = hlo.conditional %c, %a, %a {true_computation = @neg, false_computation = @effect} : (tensor<i1>, tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %t = hlo.tuple %c0, %c1, %c2 : (tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>) -> tuple<tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>>
  hlo.return %t : tuple<tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>>
}

// -----

// Elements 0 and 1 of the result are the same instruction in every branch:
// the get-tuple-element of element 1 reads element 0, and element 1 goes
// with the unread element 2.
// CHECK-LABEL: hlo.computation @merge
// CHECK: %[[C:.*]] = conditional {{.*}} -> tuple<tensor<3xf32>>
// CHECK-NEXT: get_tuple_element %[[C]] {index = 0 : i64}
// CHECK-NEXT: get_tuple_element %[[C]] {index = 0 : i64}
hlo.computation private @m0(%p: tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>> {
  %n = hlo.negate %p : (tensor<3xf32>) -> tensor<3xf32>
  %t = hlo.tuple %n, %n, %p : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>>
  hlo.return %t : tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>>
}
hlo.computation private @m1(%p: tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>> {
  %e = hlo.exponential %p : (tensor<3xf32>) -> tensor<3xf32>
  %t = hlo.tuple %e, %e, %e : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>>
  hlo.return %t : tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>>
}
hlo.computation @merge(%i: tensor<i32>, %a: tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>> attributes {entry} {
  %c = hlo.conditional %i, %a, %a {branch_computations = [@m0, @m1]} : (tensor<i32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>>
  %x = hlo.get_tuple_element %c {index = 0 : i64} : (tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<3xf32>
  %y = hlo.get_tuple_element %c {index = 1 : i64} : (tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<3xf32>
  %t = hlo.tuple %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>>
  hlo.return %t : tuple<tensor<3xf32>, tensor<3xf32>>
}

// -----

// A conditional that nothing uses (it stays: its index is not known) gets
// branch copies returning an empty tuple.
// CHECK-LABEL: hlo.computation private @neg_0(
// CHECK-SAME: -> tuple<>
// CHECK: %[[E:.*]] = tuple : () -> tuple<>
// CHECK-NEXT: return %[[E]]
// CHECK-LABEL: hlo.computation @unused
// CHECK: conditional %arg0, %arg1, %arg1 {branch_computations = [@neg_0, @neg_1]} : {{.*}} -> tuple<>
hlo.computation private @neg(%p: tensor<3xf32>) -> tensor<3xf32> {
  %n = hlo.negate %p : (tensor<3xf32>) -> tensor<3xf32>
  hlo.return %n : tensor<3xf32>
}
hlo.computation @unused(%i: tensor<i32>, %a: tensor<3xf32>) -> tensor<3xf32> attributes {entry} {
  %c = hlo.conditional %i, %a, %a {branch_computations = [@neg, @neg]} : (tensor<i32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  hlo.return %a : tensor<3xf32>
}

// -----

// Each branch reads one element of its tuple operand: it gets a copy
// taking that element only, and the conditional passes a tuple of it.
// CHECK: hlo.computation private @[[U0:u0_[0-9]+]](%arg0: tuple<tensor<3xf32>>)
// CHECK-NEXT: get_tuple_element %arg0 {index = 0 : i64}
// CHECK: hlo.computation private @[[U1:u1_[0-9]+]](%arg0: tuple<tensor<3xf32>>)
// CHECK-NEXT: get_tuple_element %arg0 {index = 0 : i64}
// CHECK-LABEL: hlo.computation @operands
// CHECK: %[[AB:.*]] = tuple %arg1, %arg2
// CHECK: %[[E0:.*]] = get_tuple_element %[[AB]] {index = 0 : i64}
// CHECK-NEXT: %[[T0:.*]] = tuple %[[E0]]
// CHECK-NEXT: %[[E1:.*]] = get_tuple_element %[[AB]] {index = 1 : i64}
// CHECK-NEXT: %[[T1:.*]] = tuple %[[E1]]
// CHECK-NEXT: conditional %arg0, %[[T0]], %[[T1]] {branch_computations = [@[[U0]], @[[U1]]]}
hlo.computation private @u0(%p: tuple<tensor<3xf32>, tensor<3xf32>>) -> tensor<3xf32> {
  %x = hlo.get_tuple_element %p {index = 0 : i64} : (tuple<tensor<3xf32>, tensor<3xf32>>) -> tensor<3xf32>
  %n = hlo.negate %x : (tensor<3xf32>) -> tensor<3xf32>
  hlo.return %n : tensor<3xf32>
}
hlo.computation private @u1(%p: tuple<tensor<3xf32>, tensor<3xf32>>) -> tensor<3xf32> {
  %y = hlo.get_tuple_element %p {index = 1 : i64} : (tuple<tensor<3xf32>, tensor<3xf32>>) -> tensor<3xf32>
  %e = hlo.exponential %y : (tensor<3xf32>) -> tensor<3xf32>
  hlo.return %e : tensor<3xf32>
}
hlo.computation @operands(%i: tensor<i32>, %a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> attributes {entry} {
  %ab = hlo.tuple %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>>
  %c = hlo.conditional %i, %ab, %ab {branch_computations = [@u0, @u1]} : (tensor<i32>, tuple<tensor<3xf32>, tensor<3xf32>>, tuple<tensor<3xf32>, tensor<3xf32>>) -> tensor<3xf32>
  hlo.return %c : tensor<3xf32>
}

// -----

// A known branch is inlined only when no branch has a side effect: here
// the taken branch calls a computation that draws from the random state
// (its effect is found through the call), so the conditional stays; the
// second one, of pure branches, is inlined.
// CHECK-LABEL: hlo.computation @effect_through_call
// CHECK:         = conditional {{.*}}[@calls_draw, @neg]
// CHECK-NOT:     conditional
// CHECK:         = negate
hlo.computation private @draw(%p: tensor<3xf32>) -> tensor<3xf32> {
  %lo = hlo.constant {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %hi = hlo.constant {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %n = hlo.rng %lo, %hi {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<f32>, tensor<f32>) -> tensor<3xf32>
  %s = hlo.add %p, %n : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  hlo.return %s : tensor<3xf32>
}
hlo.computation private @calls_draw(%p: tensor<3xf32>) -> tensor<3xf32> {
  %c = hlo.call %p {to_apply = @draw} : (tensor<3xf32>) -> tensor<3xf32>
  hlo.return %c : tensor<3xf32>
}
hlo.computation private @neg(%p: tensor<3xf32>) -> tensor<3xf32> {
  %n = hlo.negate %p : (tensor<3xf32>) -> tensor<3xf32>
  hlo.return %n : tensor<3xf32>
}
hlo.computation @effect_through_call(%a: tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>> attributes {entry} {
  %zero = hlo.constant {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %c0 = hlo.conditional %zero, %a, %a {branch_computations = [@calls_draw, @neg]} : (tensor<i32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %c1 = hlo.conditional %zero, %a, %a {branch_computations = [@neg, @neg]} : (tensor<i32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %t = hlo.tuple %c0, %c1 : (tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>>
  hlo.return %t : tuple<tensor<3xf32>, tensor<3xf32>>
}
