// RUN: hlo-opt %s | hlo-opt | FileCheck %s

// Shape manipulation: broadcast, reshape, transpose, reverse, slice,
// concatenate, pad, iota, bitcast and the dynamic-shape ops.

// CHECK-LABEL: hlo.computation @broadcast
hlo.computation @broadcast(%s: tensor<f32>, %v: tensor<3xf32>) -> tensor<2x3x4xf32> {
  // CHECK: %0 = broadcast %arg0 : (tensor<f32>) -> tensor<2x3x4xf32>
  %0 = hlo.broadcast %s : (tensor<f32>) -> tensor<2x3x4xf32>
  // CHECK: %1 = broadcast %arg1 {dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3x4xf32>
  %1 = hlo.broadcast %v {dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3x4xf32>
  // Dimensions need not be sorted.
  // CHECK: %3 = broadcast %2 {dimensions = array<i64: 2, 0>} : (tensor<4x2xf32>) -> tensor<2x3x4xf32>
  %t = hlo.broadcast %s : (tensor<f32>) -> tensor<4x2xf32>
  %2 = hlo.broadcast %t {dimensions = array<i64: 2, 0>} : (tensor<4x2xf32>) -> tensor<2x3x4xf32>
  %3 = hlo.add %0, %1 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  hlo.return %3 : tensor<2x3x4xf32>
}

// CHECK-LABEL: hlo.computation @reshape_transpose_reverse
hlo.computation @reshape_transpose_reverse(%x: tensor<2x3x4xf32, #hlo.layout<[2, 1, 0]>>) -> tensor<4x2x3xf32> {
  // CHECK: %0 = reshape %arg0 : (tensor<2x3x4xf32, #hlo.layout<[2, 1, 0]>>) -> tensor<6x4xf32>
  %0 = hlo.reshape %x : (tensor<2x3x4xf32, #hlo.layout<[2, 1, 0]>>) -> tensor<6x4xf32>
  // CHECK: %1 = reshape %0 {inferred_dimension = 0 : i64} : (tensor<6x4xf32>) -> tensor<24xf32>
  %1 = hlo.reshape %0 {inferred_dimension = 0 : i64} : (tensor<6x4xf32>) -> tensor<24xf32>
  // CHECK: %2 = transpose %arg0 {dimensions = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32, #hlo.layout<[2, 1, 0]>>) -> tensor<4x2x3xf32>
  %2 = hlo.transpose %x {dimensions = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32, #hlo.layout<[2, 1, 0]>>) -> tensor<4x2x3xf32>
  // CHECK: %3 = reverse %2 {dimensions = array<i64: 0, 2>} : (tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %3 = hlo.reverse %2 {dimensions = array<i64: 0, 2>} : (tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  // CHECK: %4 = bitcast %3 : (tensor<4x2x3xf32>) -> tensor<24xf32>
  %4 = hlo.bitcast %3 : (tensor<4x2x3xf32>) -> tensor<24xf32>
  hlo.return %3 : tensor<4x2x3xf32>
}

// CHECK-LABEL: hlo.computation @slice
hlo.computation @slice(%x: tensor<4x10xf32>) -> tensor<2x4xf32> {
  // CHECK: %0 = slice %arg0 {slice = #hlo.slice<"{[0:2], [1:9:2]}">} : (tensor<4x10xf32>) -> tensor<2x4xf32>
  %0 = hlo.slice %x {slice = #hlo.slice<"{[0:2], [1:9:2]}">} : (tensor<4x10xf32>) -> tensor<2x4xf32>
  // An empty range is allowed.
  // CHECK: %1 = slice %arg0 {slice = #hlo.slice<"{[4:4], [0:10:3]}">} : (tensor<4x10xf32>) -> tensor<0x4xf32>
  %1 = hlo.slice %x {slice = #hlo.slice<"{[4:4], [0:10:3]}">} : (tensor<4x10xf32>) -> tensor<0x4xf32>
  hlo.return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: hlo.computation @concatenate
hlo.computation @concatenate(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %c: tensor<2x?xf32, #hlo.layout<[1, 0], bounds = [?, 4]>>) -> tensor<2x8xf32> {
  // CHECK: %0 = concatenate %arg0, %arg1 {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %0 = hlo.concatenate %a, %b {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  // CHECK: %1 = concatenate %arg0, %arg2 {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2x?xf32, #hlo.layout<[1, 0], bounds = [?, 4]>>) -> tensor<2x?xf32, #hlo.layout<[1, 0], bounds = [?, 7]>>
  %1 = hlo.concatenate %a, %c {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2x?xf32, #hlo.layout<[1, 0], bounds = [?, 4]>>) -> tensor<2x?xf32, #hlo.layout<[1, 0], bounds = [?, 7]>>
  hlo.return %0 : tensor<2x8xf32>
}

// CHECK-LABEL: hlo.computation @pad
hlo.computation @pad(%x: tensor<2x3xf32>, %v: tensor<f32>) -> tensor<2x7xf32> {
  // low 0 high 0 on dim 0; low 1, high 1, interior 1 on dim 1: 1 + 3 + 2 + 1.
  // CHECK: %0 = pad %arg0, %arg1 {padding = #hlo.padding<"0_0x1_1_1">} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x7xf32>
  %0 = hlo.pad %x, %v {padding = #hlo.padding<"0_0x1_1_1">} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x7xf32>
  // Negative edge padding removes elements.
  // CHECK: %1 = pad %arg0, %arg1 {padding = #hlo.padding<"-1_0x0_-2">} : (tensor<2x3xf32>, tensor<f32>) -> tensor<1x1xf32>
  %1 = hlo.pad %x, %v {padding = #hlo.padding<"-1_0x0_-2">} : (tensor<2x3xf32>, tensor<f32>) -> tensor<1x1xf32>
  hlo.return %0 : tensor<2x7xf32>
}

// CHECK-LABEL: hlo.computation @iota
hlo.computation @iota() -> tensor<4x5xi32> {
  // CHECK: %0 = iota  {iota_dimension = 1 : i64} : () -> tensor<4x5xi32>
  %0 = hlo.iota {iota_dimension = 1 : i64} : () -> tensor<4x5xi32>
  // CHECK: %1 = iota  {iota_dimension = 0 : i64} : () -> tensor<8xf32, #hlo.layout<[0]>>
  %1 = hlo.iota {iota_dimension = 0 : i64} : () -> tensor<8xf32, #hlo.layout<[0]>>
  hlo.return %0 : tensor<4x5xi32>
}

// CHECK-LABEL: hlo.computation @dynamic_slices
hlo.computation @dynamic_slices(%x: tensor<8x6xf32>, %u: tensor<2x6xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<8x6xf32> {
  // CHECK: %0 = dynamic_slice %arg0, %arg2, %arg3 {dynamic_slice_sizes = array<i64: 2, 6>} : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x6xf32>
  %0 = hlo.dynamic_slice %x, %i, %j {dynamic_slice_sizes = array<i64: 2, 6>} : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x6xf32>
  // CHECK: %1 = dynamic_update_slice %arg0, %0, %arg2, %arg3 : (tensor<8x6xf32>, tensor<2x6xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
  %1 = hlo.dynamic_update_slice %x, %0, %i, %j : (tensor<8x6xf32>, tensor<2x6xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
  hlo.return %1 : tensor<8x6xf32>
}

// Bounded dynamic dimensions: `?` in the shape and the bound in the layout.
// CHECK-LABEL: hlo.computation @dynamic_dims
hlo.computation @dynamic_dims(%x: tensor<3x?xf32, #hlo.layout<none, bounds = [?, 5]>>, %n: tensor<i32>) -> tensor<i32> {
  // CHECK: %0 = get_dimension_size %arg0 {dimensions = array<i64: 1>} : (tensor<3x?xf32, #hlo.layout<none, bounds = [?, 5]>>) -> tensor<i32>
  %0 = hlo.get_dimension_size %x {dimensions = array<i64: 1>} : (tensor<3x?xf32, #hlo.layout<none, bounds = [?, 5]>>) -> tensor<i32>
  // CHECK: %1 = set_dimension_size %arg0, %arg1 {dimensions = array<i64: 0>} : (tensor<3x?xf32, #hlo.layout<none, bounds = [?, 5]>>, tensor<i32>) -> tensor<?x?xf32, #hlo.layout<none, bounds = [3, 5]>>
  %1 = hlo.set_dimension_size %x, %n {dimensions = array<i64: 0>} : (tensor<3x?xf32, #hlo.layout<none, bounds = [?, 5]>>, tensor<i32>) -> tensor<?x?xf32, #hlo.layout<none, bounds = [3, 5]>>
  // CHECK: %2 = dynamic_reshape %arg0, %arg1 : (tensor<3x?xf32, #hlo.layout<none, bounds = [?, 5]>>, tensor<i32>) -> tensor<?xf32, #hlo.layout<none, bounds = [15]>>
  %2 = hlo.dynamic_reshape %x, %n : (tensor<3x?xf32, #hlo.layout<none, bounds = [?, 5]>>, tensor<i32>) -> tensor<?xf32, #hlo.layout<none, bounds = [15]>>
  // CHECK: %3 = reshape %arg0 : (tensor<3x?xf32, #hlo.layout<none, bounds = [?, 5]>>) -> tensor<?xf32, #hlo.layout<[0], bounds = [15]>>
  %3 = hlo.reshape %x : (tensor<3x?xf32, #hlo.layout<none, bounds = [?, 5]>>) -> tensor<?xf32, #hlo.layout<[0], bounds = [15]>>
  // CHECK: %4 = broadcast %arg0 {dimensions = array<i64: 0, 2>} : (tensor<3x?xf32, #hlo.layout<none, bounds = [?, 5]>>) -> tensor<3x2x?xf32, #hlo.layout<none, bounds = [?, ?, 5]>>
  %4 = hlo.broadcast %x {dimensions = array<i64: 0, 2>} : (tensor<3x?xf32, #hlo.layout<none, bounds = [?, 5]>>) -> tensor<3x2x?xf32, #hlo.layout<none, bounds = [?, ?, 5]>>
  hlo.return %0 : tensor<i32>
}
