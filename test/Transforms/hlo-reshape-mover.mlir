// RUN: hlo-opt %s -split-input-file --hlo-reshape-mover | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-reshape-mover=reshape-of-1d-broadcast-is-cheap | FileCheck %s --check-prefix=CHEAP
// RUN: hlo-opt %s -split-input-file --hlo-reshape-mover --hlo-check-semantics -o /dev/null
// RUN: hlo-opt %s -split-input-file --hlo-reshape-mover=reshape-of-1d-broadcast-is-cheap --hlo-check-semantics -o /dev/null

// Two equivalent reshapes: the add runs on their operands and one reshape
// follows. A convert keeps its element type on the new shape; a compare
// gets a pred result of the operands' shape.
// CHECK-LABEL: hlo.computation @reshapes
// CHECK: %[[A:.*]] = add %arg0, %arg1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[R:.*]] = reshape %[[A]] : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK: %[[C:.*]] = convert %arg0 : (tensor<2x3xf32>) -> tensor<2x3xi32>
// CHECK-NEXT: %[[RC:.*]] = reshape %[[C]] : (tensor<2x3xi32>) -> tensor<6xi32>
// CHECK: %[[P:.*]] = compare %arg0, %arg1 {{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: %[[RP:.*]] = reshape %[[P]] : (tensor<2x3xi1>) -> tensor<6xi1>
// CHECK: tuple %[[R]], %[[RC]], %[[RP]]
hlo.computation @reshapes(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tuple<tensor<6xf32>, tensor<6xi32>, tensor<6xi1>> attributes {entry} {
  %ra = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>
  %rb = hlo.reshape %b : (tensor<2x3xf32>) -> tensor<6xf32>
  %0 = hlo.add %ra, %rb : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %1 = hlo.convert %ra : (tensor<6xf32>) -> tensor<6xi32>
  %2 = hlo.compare %ra, %rb {direction = #hlo<comparison_direction LT>} : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %r = hlo.tuple %0, %1, %2 : (tensor<6xf32>, tensor<6xi32>, tensor<6xi1>) -> tuple<tensor<6xf32>, tensor<6xi32>, tensor<6xi1>>
  hlo.return %r : tuple<tensor<6xf32>, tensor<6xi32>, tensor<6xi1>>
}

// -----

// A transpose with a constant and a broadcast whose dimension stays in
// order: those two get the inverse transpose, the transpose is moved after
// the select.
// CHECK-LABEL: hlo.computation @transpose_free_operands
// CHECK-DAG: %[[K:.*]] = constant
// CHECK-DAG: %[[B:.*]] = broadcast %arg1
// CHECK: %[[TK:.*]] = transpose %[[K]] {dimensions = array<i64: 1, 0>} : (tensor<3x2xi1>) -> tensor<2x3xi1>
// CHECK-NEXT: %[[TB:.*]] = transpose %[[B]] {dimensions = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[S:.*]] = select %[[TK]], %arg0, %[[TB]] : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[T:.*]] = transpose %[[S]] {dimensions = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: return %[[T]]
hlo.computation @transpose_free_operands(%a: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<3x2xf32> attributes {entry} {
  %k = hlo.constant {value = dense<[[true, false], [false, true], [true, true]]> : tensor<3x2xi1>} : () -> tensor<3x2xi1>
  %ta = hlo.transpose %a {dimensions = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %bv = hlo.broadcast %v {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3x2xf32>
  %0 = hlo.select %k, %ta, %bv : (tensor<3x2xi1>, tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  hlo.return %0 : tensor<3x2xf32>
}

// -----

// Under a reshape, a scalar broadcast is free; a broadcast of a rank-1
// operand, or of dimensions the reshape leaves alone (4 and 5 of
// [2,3,4,5] <- [6,4,5]), only with reshape-of-1d-broadcast-is-cheap.
// CHECK-LABEL: hlo.computation @broadcasts
// CHECK: %[[BS:.*]] = broadcast %arg1
// CHECK: %[[RS:.*]] = reshape %[[BS]] : (tensor<6xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[M:.*]] = multiply %arg0, %[[RS]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: reshape %[[M]] : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK: subtract %{{.*}}, %{{.*}} : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK: add %{{.*}}, %{{.*}} : (tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
// CHEAP-LABEL: hlo.computation @broadcasts
// CHEAP: subtract %arg0, %{{.*}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHEAP: %[[BM:.*]] = broadcast %arg3
// CHEAP-NEXT: %[[RM:.*]] = reshape %[[BM]] : (tensor<2x3x4x5xf32>) -> tensor<6x4x5xf32>
// CHEAP-NEXT: add %arg4, %[[RM]] : (tensor<6x4x5xf32>, tensor<6x4x5xf32>) -> tensor<6x4x5xf32>
hlo.computation @broadcasts(%a: tensor<2x3xf32>, %s: tensor<f32>, %v: tensor<6xf32>, %m: tensor<4x5xf32>, %x: tensor<6x4x5xf32>) -> tuple<tensor<6xf32>, tensor<6xf32>, tensor<2x3x4x5xf32>> attributes {entry} {
  %ra = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>
  %bs = hlo.broadcast %s {dimensions = array<i64>} : (tensor<f32>) -> tensor<6xf32>
  %0 = hlo.multiply %ra, %bs : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %ra2 = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>
  %bv = hlo.broadcast %v {dimensions = array<i64: 0>} : (tensor<6xf32>) -> tensor<6xf32>
  %1 = hlo.subtract %ra2, %bv : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %rx = hlo.reshape %x : (tensor<6x4x5xf32>) -> tensor<2x3x4x5xf32>
  %bm = hlo.broadcast %m {dimensions = array<i64: 2, 3>} : (tensor<4x5xf32>) -> tensor<2x3x4x5xf32>
  %2 = hlo.add %rx, %bm : (tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %r = hlo.tuple %0, %1, %2 : (tensor<6xf32>, tensor<6xf32>, tensor<2x3x4x5xf32>) -> tuple<tensor<6xf32>, tensor<6xf32>, tensor<2x3x4x5xf32>>
  hlo.return %r : tuple<tensor<6xf32>, tensor<6xf32>, tensor<2x3x4x5xf32>>
}

// -----

// Not moved: reshapes of different operand shapes; a parameter operand; a
// broadcast whose dimensions the transpose puts out of order; an add with
// a control predecessor; a reshape with one.
// CHECK-LABEL: hlo.computation @not_moved
// CHECK: add %{{.*}}, %{{.*}} : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK: add %{{.*}}, %arg2 : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK: add %{{.*}}, %{{.*}} : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
// CHECK: add %{{.*}}, %{{.*}} after(%arg2 : tensor<6xf32>) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK: negate %{{.*}} : (tensor<6xf32>) -> tensor<6xf32>
// CHECK-NOT: reshape
hlo.computation @not_moved(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %p: tensor<6xf32>, %c: tensor<2x3x4xf32>, %m: tensor<4x3xf32>) -> tuple<tensor<6xf32>, tensor<6xf32>, tensor<4x2x3xf32>, tensor<6xf32>, tensor<6xf32>> attributes {entry} {
  %ra = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>
  %rb = hlo.reshape %b : (tensor<3x2xf32>) -> tensor<6xf32>
  %0 = hlo.add %ra, %rb : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %ra1 = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>
  %1 = hlo.add %ra1, %p : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %tc = hlo.transpose %c {dimensions = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %bm = hlo.broadcast %m {dimensions = array<i64: 0, 2>} : (tensor<4x3xf32>) -> tensor<4x2x3xf32>
  %2 = hlo.add %tc, %bm : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %ra2 = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>
  %3 = hlo.add %ra2, %ra2 after(%p : tensor<6xf32>) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %ra3 = hlo.reshape %a after(%p : tensor<6xf32>) : (tensor<2x3xf32>) -> tensor<6xf32>
  %4 = hlo.negate %ra3 : (tensor<6xf32>) -> tensor<6xf32>
  %r = hlo.tuple %0, %1, %2, %3, %4 : (tensor<6xf32>, tensor<6xf32>, tensor<4x2x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tuple<tensor<6xf32>, tensor<6xf32>, tensor<4x2x3xf32>, tensor<6xf32>, tensor<6xf32>>
  hlo.return %r : tuple<tensor<6xf32>, tensor<6xf32>, tensor<4x2x3xf32>, tensor<6xf32>, tensor<6xf32>>
}

// -----

// Pruning: %r1 is also read by the tuple, so the add reading it keeps it;
// then %r2 has a reader that keeps it (the add), so the multiply keeps it
// too, and so does the negate of %r3. %r4 is read by two instructions
// that both move it.
// CHECK-LABEL: hlo.computation @pruned
// CHECK: add %{{.*}}, %{{.*}} : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK: multiply %{{.*}}, %{{.*}} : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK: negate %{{.*}} : (tensor<6xf32>) -> tensor<6xf32>
// CHECK: %[[ABS:.*]] = abs %arg3 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: reshape %[[ABS]] : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK: %[[EXP:.*]] = exponential %arg3 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: reshape %[[EXP]] : (tensor<2x3xf32>) -> tensor<6xf32>
hlo.computation @pruned(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %c: tensor<2x3xf32>, %d: tensor<2x3xf32>) -> tuple<tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>> attributes {entry} {
  %r1 = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>
  %r2 = hlo.reshape %b : (tensor<2x3xf32>) -> tensor<6xf32>
  %r3 = hlo.reshape %c : (tensor<2x3xf32>) -> tensor<6xf32>
  %r4 = hlo.reshape %d : (tensor<2x3xf32>) -> tensor<6xf32>
  %0 = hlo.add %r1, %r2 : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %1 = hlo.multiply %r2, %r3 : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %2 = hlo.negate %r3 : (tensor<6xf32>) -> tensor<6xf32>
  %3 = hlo.abs %r4 : (tensor<6xf32>) -> tensor<6xf32>
  %4 = hlo.exponential %r4 : (tensor<6xf32>) -> tensor<6xf32>
  %r = hlo.tuple %0, %1, %2, %r1, %3, %4 : (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tuple<tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>>
  hlo.return %r : tuple<tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>>
}

// -----

// A map (its dimensions renumbered for the new rank), and an rng with one
// user, which takes the inverse reshape.
// CHECK-LABEL: hlo.computation @map_and_rng
// CHECK: %[[M:.*]] = map %arg0, %arg1 {dimensions = array<i64: 0, 1>, to_apply = @addf} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[RM:.*]] = reshape %[[M]] : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK: %[[N:.*]] = rng %arg2, %arg3
// CHECK-NEXT: %[[RN:.*]] = reshape %[[N]] : (tensor<6xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[Z:.*]] = multiply %arg1, %[[RN]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[RZ:.*]] = reshape %[[Z]] : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK: tuple %[[RM]], %[[RZ]]
hlo.computation private @addf(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %s = hlo.add %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %s : tensor<f32>
}
hlo.computation @map_and_rng(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %lo: tensor<f32>, %hi: tensor<f32>) -> tuple<tensor<6xf32>, tensor<6xf32>> attributes {entry} {
  %ra = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>
  %rb = hlo.reshape %b : (tensor<2x3xf32>) -> tensor<6xf32>
  %m = hlo.map %ra, %rb {to_apply = @addf, dimensions = array<i64: 0>} : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %rc = hlo.reshape %b : (tensor<2x3xf32>) -> tensor<6xf32>
  %n = hlo.rng %lo, %hi {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<f32>, tensor<f32>) -> tensor<6xf32>
  %z = hlo.multiply %rc, %n : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %t = hlo.tuple %m, %z : (tensor<6xf32>, tensor<6xf32>) -> tuple<tensor<6xf32>, tensor<6xf32>>
  hlo.return %t : tuple<tensor<6xf32>, tensor<6xf32>>
}

// -----

// Fused computations are left alone.
// CHECK-LABEL: hlo.computation private @fused
// CHECK: add %{{.*}}, %{{.*}} : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
hlo.computation private @fused(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<6xf32> {
  %ra = hlo.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>
  %rb = hlo.reshape %b : (tensor<2x3xf32>) -> tensor<6xf32>
  %0 = hlo.add %ra, %rb : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  hlo.return %0 : tensor<6xf32>
}
hlo.computation @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<6xf32> attributes {entry} {
  %0 = hlo.fusion %a, %b {calls = @fused, kind = #hlo<fusion_kind kLoop>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<6xf32>
  hlo.return %0 : tensor<6xf32>
}
