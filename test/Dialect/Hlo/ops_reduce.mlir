// RUN: hlo-opt %s | hlo-opt | FileCheck %s

// reduce, reduce_window, select_and_scatter, sort, topk and scan.

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @ge(%a: tensor<f32>, %b: tensor<f32>) -> tensor<i1> {
  %0 = hlo.compare %a, %b {direction = #hlo<comparison_direction GE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %0 : tensor<i1>
}

// (max value, its index) over pairs.
hlo.computation @argmax(%a: tensor<f32>, %i: tensor<i32>, %b: tensor<f32>, %j: tensor<i32>) -> tuple<tensor<f32>, tensor<i32>> {
  %p = hlo.compare %a, %b {direction = #hlo<comparison_direction GE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %v = hlo.select %p, %a, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %k = hlo.select %p, %i, %j : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
  %0 = hlo.tuple %v, %k : (tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tensor<i32>>
  hlo.return %0 : tuple<tensor<f32>, tensor<i32>>
}

hlo.computation @lt_pair(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<i1> {
  %0 = hlo.compare %a, %b {direction = #hlo<comparison_direction LT>, comparison_type = #hlo<comparison_type TOTALORDER>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  hlo.return %0 : tensor<i1>
}

// CHECK-LABEL: hlo.computation @reduce
hlo.computation @reduce(%x: tensor<2x3x4xf32>, %z: tensor<f32>, %idx: tensor<2x3x4xi32>, %iz: tensor<i32>) -> tensor<3xf32> {
  // CHECK: %0 = reduce %arg0, %arg1 {dimensions = array<i64: 0, 2>, to_apply = @add} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<3xf32>
  %0 = hlo.reduce %x, %z {dimensions = array<i64: 0, 2>, to_apply = @add} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<3xf32>
  // Reducing every dimension gives a scalar; no dimension, a copy.
  // CHECK: %1 = reduce %arg0, %arg1 {dimensions = array<i64: 2, 1, 0>, to_apply = @add} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<f32>
  %1 = hlo.reduce %x, %z {dimensions = array<i64: 2, 1, 0>, to_apply = @add} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<f32>
  // CHECK: %2 = reduce %arg0, %arg1 {dimensions = array<i64>, to_apply = @add} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32, #hlo.layout<[0, 1, 2]>>
  %2 = hlo.reduce %x, %z {dimensions = array<i64>, to_apply = @add} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32, #hlo.layout<[0, 1, 2]>>
  // Variadic: N inputs, N inits, a tuple of N results.
  // CHECK: %3 = reduce %arg0, %arg2, %arg1, %arg3 {dimensions = array<i64: 1>, to_apply = @argmax} : (tensor<2x3x4xf32>, tensor<2x3x4xi32>, tensor<f32>, tensor<i32>) -> tuple<tensor<2x4xf32>, tensor<2x4xi32>>
  %3 = hlo.reduce %x, %idx, %z, %iz {dimensions = array<i64: 1>, to_apply = @argmax} : (tensor<2x3x4xf32>, tensor<2x3x4xi32>, tensor<f32>, tensor<i32>) -> tuple<tensor<2x4xf32>, tensor<2x4xi32>>
  hlo.return %0 : tensor<3xf32>
}

// CHECK-LABEL: hlo.computation @reduce_window
hlo.computation @reduce_window(%x: tensor<4x6xf32>, %z: tensor<f32>, %i: tensor<4x6xi32>, %iz: tensor<i32>, %s: tensor<f32>) -> tensor<2x3xf32> {
  // CHECK: %0 = reduce_window %arg0, %arg1 {to_apply = @add, window = #hlo.window<"{size=2x2 stride=2x2}">} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  %0 = hlo.reduce_window %x, %z {window = #hlo.window<"{size=2x2 stride=2x2}">, to_apply = @add} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  // Prefix sum: pad 3 low on a size-4 window.
  // CHECK: %1 = reduce_window %arg0, %arg1 {to_apply = @add, window = #hlo.window<"{size=1x4 pad=0_0x3_0}">} : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
  %1 = hlo.reduce_window %x, %z {window = #hlo.window<"{size=1x4 pad=0_0x3_0}">, to_apply = @add} : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
  // Dilated: base dilation 2 gives 7 x 11 positions, window 3x3 dilated by 2 spans 5x5.
  // CHECK: %2 = reduce_window %arg0, %arg1 {to_apply = @add, window = #hlo.window<"{size=3x3 lhs_dilate=2x2 rhs_dilate=2x2}">} : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x7xf32>
  %2 = hlo.reduce_window %x, %z {window = #hlo.window<"{size=3x3 lhs_dilate=2x2 rhs_dilate=2x2}">, to_apply = @add} : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x7xf32>
  // CHECK: %3 = reduce_window %arg0, %arg2, %arg1, %arg3 {to_apply = @argmax, window = #hlo.window<"{size=4x1}">} : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> tuple<tensor<1x6xf32>, tensor<1x6xi32>>
  %3 = hlo.reduce_window %x, %i, %z, %iz {window = #hlo.window<"{size=4x1}">, to_apply = @argmax} : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> tuple<tensor<1x6xf32>, tensor<1x6xi32>>
  // A scalar input needs no window.
  // CHECK: %4 = reduce_window %arg4, %arg1 {to_apply = @add} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %4 = hlo.reduce_window %s, %z {to_apply = @add} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: hlo.computation @select_and_scatter
hlo.computation @select_and_scatter(%x: tensor<4x6xf32>, %src: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<4x6xf32> {
  // CHECK: %0 = select_and_scatter %arg0, %arg1, %arg2 {scatter = @add, select = @ge, window = #hlo.window<"{size=2x2 stride=2x2}">} : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  %0 = hlo.select_and_scatter %x, %src, %z {window = #hlo.window<"{size=2x2 stride=2x2}">, select = @ge, scatter = @add} : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  hlo.return %0 : tensor<4x6xf32>
}

// CHECK-LABEL: hlo.computation @sort
hlo.computation @sort(%k: tensor<3x8xf32>, %v: tensor<3x8xi32>) -> tuple<tensor<3x8xf32>, tensor<3x8xi32>> {
  // CHECK: %0 = sort %arg0 {dimensions = array<i64: 1>, to_apply = @ge} : (tensor<3x8xf32>) -> tensor<3x8xf32>
  %0 = hlo.sort %k {dimensions = array<i64: 1>, to_apply = @ge} : (tensor<3x8xf32>) -> tensor<3x8xf32>
  // CHECK: %1 = sort %arg0, %arg1 {dimensions = array<i64: 0>, is_stable = true, to_apply = @lt_pair} : (tensor<3x8xf32>, tensor<3x8xi32>) -> tuple<tensor<3x8xf32>, tensor<3x8xi32>>
  %1 = hlo.sort %k, %v {dimensions = array<i64: 0>, is_stable = true, to_apply = @lt_pair} : (tensor<3x8xf32>, tensor<3x8xi32>) -> tuple<tensor<3x8xf32>, tensor<3x8xi32>>
  hlo.return %1 : tuple<tensor<3x8xf32>, tensor<3x8xi32>>
}

// CHECK-LABEL: hlo.computation @topk
hlo.computation @topk(%x: tensor<5x100xbf16>) -> tuple<tensor<5x10xbf16>, tensor<5x10xi32>> {
  // CHECK: %0 = topk %arg0 {k = 10 : i64, largest = true} : (tensor<5x100xbf16>) -> tuple<tensor<5x10xbf16>, tensor<5x10xi32>>
  %0 = hlo.topk %x {k = 10 : i64, largest = true} : (tensor<5x100xbf16>) -> tuple<tensor<5x10xbf16>, tensor<5x10xi32>>
  hlo.return %0 : tuple<tensor<5x10xbf16>, tensor<5x10xi32>>
}

// CHECK-LABEL: hlo.computation @scan
hlo.computation @scan(%x: tensor<4x8xf32>, %z: tensor<8xf32>) -> tuple<tensor<4x8xf32>, tensor<8xf32>> {
  // CHECK: %0 = scan %arg0, %arg1 {dimensions = array<i64: 0>, is_associative = true, is_reverse = false, to_apply = @add} : (tensor<4x8xf32>, tensor<8xf32>) -> tuple<tensor<4x8xf32>, tensor<8xf32>>
  %0 = hlo.scan %x, %z {dimensions = array<i64: 0>, to_apply = @add, is_reverse = false, is_associative = true} : (tensor<4x8xf32>, tensor<8xf32>) -> tuple<tensor<4x8xf32>, tensor<8xf32>>
  hlo.return %0 : tuple<tensor<4x8xf32>, tensor<8xf32>>
}
