// RUN: hlo-opt %s -split-input-file --hlo-zero-sized-hlo-elimination | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-zero-sized-hlo-elimination --hlo-check-semantics -o /dev/null

// An instruction of a zero-element array becomes an empty constant of its
// type (layout included); its name and attributes move to the constant.
// CHECK-LABEL: hlo.computation @empty
hlo.computation @empty(%a: tensor<0x3xf32>, %b: tensor<4xf32>) -> tuple<tensor<3x0xf32, #hlo.layout<[0, 1]>>, tensor<4xf32>, tensor<0xi32>> attributes {entry} {
  // CHECK: %[[C:.*]] = constant {frontend_attributes = {k = "v"}, value = dense<> : tensor<3x0xf32>} : () -> tensor<3x0xf32, #hlo.layout<[0, 1]>>
  // CHECK-NOT: transpose
  %t = hlo.transpose %a {dimensions = array<i64: 1, 0>, frontend_attributes = {k = "v"}} : (tensor<0x3xf32>) -> tensor<3x0xf32, #hlo.layout<[0, 1]>>
  // Arrays with elements stay.
  // CHECK: %[[N:.*]] = negate %arg1
  %n = hlo.negate %b : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: %[[I:.*]] = constant {value = dense<> : tensor<0xi32>}
  // CHECK-NOT: iota
  %i = hlo.iota {iota_dimension = 0 : i64} : () -> tensor<0xi32>
  // CHECK: tuple %[[C]], %[[N]], %[[I]]
  %r = hlo.tuple %t, %n, %i : (tensor<3x0xf32, #hlo.layout<[0, 1]>>, tensor<4xf32>, tensor<0xi32>) -> tuple<tensor<3x0xf32, #hlo.layout<[0, 1]>>, tensor<4xf32>, tensor<0xi32>>
  hlo.return %r : tuple<tensor<3x0xf32, #hlo.layout<[0, 1]>>, tensor<4xf32>, tensor<0xi32>>
}

// -----

// Left alone: side effects, control edges either way, and constants.
// CHECK-LABEL: hlo.computation @keep
hlo.computation @keep(%a: tensor<0xf32>) -> tuple<tensor<0xf32>, tensor<0xf32>, tensor<0xf32>> attributes {entry} {
  // CHECK: custom_call
  %c = hlo.custom_call %a {custom_call_target = "t", custom_call_has_side_effect = true} : (tensor<0xf32>) -> tensor<0xf32>
  // CHECK: %[[P:.*]] = negate %arg0
  %p = hlo.negate %a : (tensor<0xf32>) -> tensor<0xf32>
  // CHECK: abs %arg0 after(%[[P]]
  %s = hlo.abs %a after(%p : tensor<0xf32>) : (tensor<0xf32>) -> tensor<0xf32>
  %r = hlo.tuple %c, %s, %a : (tensor<0xf32>, tensor<0xf32>, tensor<0xf32>) -> tuple<tensor<0xf32>, tensor<0xf32>, tensor<0xf32>>
  hlo.return %r : tuple<tensor<0xf32>, tensor<0xf32>, tensor<0xf32>>
}

// -----

// A bounded dynamic dimension may hold elements: left alone (the corpus's
// SliceToDynamic of s32[2,<=2,2] became an empty literal XLA rejects).
// CHECK-LABEL: hlo.computation @dynamic
hlo.computation @dynamic(%a: tensor<2x2xf32>) -> tensor<2x?xf32, #hlo.layout<[1, 0], bounds = [?, 2]>> attributes {entry} {
  // CHECK: custom_call
  %0 = hlo.custom_call %a {custom_call_target = "SliceToDynamic"} : (tensor<2x2xf32>) -> tensor<2x?xf32, #hlo.layout<[1, 0], bounds = [?, 2]>>
  hlo.return %0 : tensor<2x?xf32, #hlo.layout<[1, 0], bounds = [?, 2]>>
}
