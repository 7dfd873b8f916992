// RUN: hlo-opt %s -split-input-file --hlo-tuple-simplifier | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-tuple-simplifier="exclude-entry-computation=true" | FileCheck %s --check-prefix=EXCL
// RUN: hlo-opt %s -split-input-file --hlo-tuple-simplifier --hlo-check-semantics -o /dev/null

// get-tuple-element of a tuple is the element. (The tuple rebuilt from
// the forwarded elements is then a tuple of the elements, as in XLA: the
// get-tuple-elements go first, in program order.)
// CHECK-LABEL: hlo.computation @forward
// EXCL-LABEL: hlo.computation @forward
hlo.computation @forward(%a: tensor<2xf32>, %b: tensor<3xi32>) -> tuple<tensor<2xf32>, tuple<tensor<2xf32>, tensor<3xi32>>> attributes {entry} {
  %t = hlo.tuple %a, %b : (tensor<2xf32>, tensor<3xi32>) -> tuple<tensor<2xf32>, tensor<3xi32>>
  %x = hlo.get_tuple_element %t {index = 0 : i64} : (tuple<tensor<2xf32>, tensor<3xi32>>) -> tensor<2xf32>
  %y = hlo.get_tuple_element %t {index = 1 : i64} : (tuple<tensor<2xf32>, tensor<3xi32>>) -> tensor<3xi32>
  %n = hlo.negate %x : (tensor<2xf32>) -> tensor<2xf32>
  %u = hlo.tuple %x, %y : (tensor<2xf32>, tensor<3xi32>) -> tuple<tensor<2xf32>, tensor<3xi32>>
  // CHECK-NOT: get_tuple_element
  // CHECK: %[[N:.*]] = negate %arg0
  // CHECK: %[[U:.*]] = tuple %arg0, %arg1
  // CHECK: %[[R:.*]] = tuple %[[N]], %[[U]]
  // CHECK: return %[[R]]
  // EXCL: get_tuple_element
  %r = hlo.tuple %n, %u : (tensor<2xf32>, tuple<tensor<2xf32>, tensor<3xi32>>) -> tuple<tensor<2xf32>, tuple<tensor<2xf32>, tensor<3xi32>>>
  hlo.return %r : tuple<tensor<2xf32>, tuple<tensor<2xf32>, tensor<3xi32>>>
}

// -----

// A tuple of every element of another tuple, in order, is that tuple.
// CHECK-LABEL: hlo.computation @rebuild
hlo.computation @rebuild(%p: tuple<tensor<2xf32>, tensor<3xi32>>) -> tuple<tuple<tensor<2xf32>, tensor<3xi32>>, tensor<2xf32>> attributes {entry} {
  %x = hlo.get_tuple_element %p {index = 0 : i64} : (tuple<tensor<2xf32>, tensor<3xi32>>) -> tensor<2xf32>
  %y = hlo.get_tuple_element %p {index = 1 : i64} : (tuple<tensor<2xf32>, tensor<3xi32>>) -> tensor<3xi32>
  %u = hlo.tuple %x, %y : (tensor<2xf32>, tensor<3xi32>) -> tuple<tensor<2xf32>, tensor<3xi32>>
  // CHECK: %[[X:.*]] = get_tuple_element %arg0 {index = 0 : i64}
  // CHECK: tuple %arg0, %[[X]]
  %r = hlo.tuple %u, %x : (tuple<tensor<2xf32>, tensor<3xi32>>, tensor<2xf32>) -> tuple<tuple<tensor<2xf32>, tensor<3xi32>>, tensor<2xf32>>
  hlo.return %r : tuple<tuple<tensor<2xf32>, tensor<3xi32>>, tensor<2xf32>>
}

// -----

// Not rewritten: elements out of order, a partial rebuild, elements of two
// tuples, and instructions with control predecessors.
// CHECK-LABEL: hlo.computation @keep
hlo.computation @keep(%p: tuple<tensor<2xf32>, tensor<2xf32>>, %q: tuple<tensor<2xf32>, tensor<2xf32>>) -> tuple<tuple<tensor<2xf32>, tensor<2xf32>>, tuple<tensor<2xf32>, tensor<2xf32>>, tensor<2xf32>> attributes {entry} {
  %p0 = hlo.get_tuple_element %p {index = 0 : i64} : (tuple<tensor<2xf32>, tensor<2xf32>>) -> tensor<2xf32>
  %p1 = hlo.get_tuple_element %p {index = 1 : i64} : (tuple<tensor<2xf32>, tensor<2xf32>>) -> tensor<2xf32>
  %q1 = hlo.get_tuple_element %q {index = 1 : i64} : (tuple<tensor<2xf32>, tensor<2xf32>>) -> tensor<2xf32>
  // CHECK: tuple %{{.*}}, %{{.*}} {frontend_attributes = {note = "swapped"}}
  %swapped = hlo.tuple %p1, %p0 {frontend_attributes = {note = "swapped"}} : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
  // CHECK: tuple %{{.*}}, %{{.*}} {frontend_attributes = {note = "mixed"}}
  %mixed = hlo.tuple %p0, %q1 {frontend_attributes = {note = "mixed"}} : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
  %t = hlo.tuple %p0, %p1 : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
  // CHECK: get_tuple_element %{{.*}} after
  %g = hlo.get_tuple_element %t after(%mixed : tuple<tensor<2xf32>, tensor<2xf32>>) {index = 0 : i64} : (tuple<tensor<2xf32>, tensor<2xf32>>) -> tensor<2xf32>
  %r = hlo.tuple %swapped, %mixed, %g : (tuple<tensor<2xf32>, tensor<2xf32>>, tuple<tensor<2xf32>, tensor<2xf32>>, tensor<2xf32>) -> tuple<tuple<tensor<2xf32>, tensor<2xf32>>, tuple<tensor<2xf32>, tensor<2xf32>>, tensor<2xf32>>
  hlo.return %r : tuple<tuple<tensor<2xf32>, tensor<2xf32>>, tuple<tensor<2xf32>, tensor<2xf32>>, tensor<2xf32>>
}
