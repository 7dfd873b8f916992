// RUN: hlo-opt %s -split-input-file --hlo-transpose-folding | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-transpose-folding=fold-convolution-transposes=false | FileCheck %s --check-prefix=NOCONV
// RUN: hlo-opt %s -split-input-file --hlo-transpose-folding --hlo-check-semantics -o /dev/null

// A matrix transposed before a dot: the dot reads the matrix and contracts
// its other dimension. The transpose is left for hlo-dce.
// CHECK-LABEL: hlo.computation @matrix
// CHECK: dot %arg0, %arg1 {lhs_contracting_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 0>} : (tensor<3x2xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
hlo.computation @matrix(%a: tensor<3x2xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> attributes {entry} {
  %t = hlo.transpose %a {dimensions = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %0 = hlo.dot %t, %b {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  hlo.return %0 : tensor<2x4xf32>
}

// -----

// Both operands of a batched dot, the batch dimension kept in place: both
// fold, the dot keeps its attributes and its control predecessor. The
// transpose with another user stays for it.
// CHECK-LABEL: hlo.computation @batched
// CHECK: %[[T:.*]] = transpose %arg1
// CHECK: dot %arg0, %arg1 after(%{{.*}} : tensor<f32>) {lhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 1>, operand_precision = {{.*}}, rhs_batch_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 2>} : (tensor<2x3x5xf32>, tensor<2x4x3xf32>) -> tensor<2x5x4xf32>
// CHECK: tuple %{{.*}}, %[[T]]
hlo.computation @batched(%x: tensor<2x3x5xf32>, %y: tensor<2x4x3xf32>, %p: tensor<f32>) -> tuple<tensor<2x5x4xf32>, tensor<2x3x4xf32>> attributes {entry} {
  %n = hlo.negate %p : (tensor<f32>) -> tensor<f32>
  %tx = hlo.transpose %x {dimensions = array<i64: 0, 2, 1>} : (tensor<2x3x5xf32>) -> tensor<2x5x3xf32>
  %ty = hlo.transpose %y {dimensions = array<i64: 0, 2, 1>} : (tensor<2x4x3xf32>) -> tensor<2x3x4xf32>
  %d = hlo.dot %tx, %ty after(%n : tensor<f32>) {lhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_batch_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 1>, operand_precision = [#hlo<precision highest>, #hlo<precision default>]} : (tensor<2x5x3xf32>, tensor<2x3x4xf32>) -> tensor<2x5x4xf32>
  %r = hlo.tuple %d, %ty : (tensor<2x5x4xf32>, tensor<2x3x4xf32>) -> tuple<tensor<2x5x4xf32>, tensor<2x3x4xf32>>
  hlo.return %r : tuple<tensor<2x5x4xf32>, tensor<2x3x4xf32>>
}

// -----

// Not folded (XLA's IsRowColumnTransposeDotOperand fails, or XLA skips the
// dot): a transpose that moves the batch dimension; two contracting
// dimensions; a matrix-vector dot (an operand of rank 1); an identity
// transpose; a transpose with a control predecessor.
// CHECK-LABEL: hlo.computation @not_folded
// CHECK: dot %{{.*}}, %arg1 {lhs_batch_dims
// CHECK-SAME: (tensor<2x5x3xf32>, tensor<2x3x4xf32>)
// CHECK: dot %{{.*}}, %arg3 {lhs_contracting_dims = array<i64: 1, 2>
// CHECK-SAME: (tensor<4x2x3xf32>, tensor<2x3xf32>)
// CHECK: dot %{{.*}}, %arg4 {{.*}} : (tensor<2x3xf32>, tensor<3xf32>)
// CHECK: dot %{{.*}}, %arg4 {{.*}} : (tensor<2x3xf32>, tensor<3xf32>)
// CHECK: dot %{{.*}}, %arg5 {{.*}} : (tensor<2x3xf32>, tensor<3x4xf32>)
// CHECK: dot %{{.*}}, %arg5 {{.*}} : (tensor<2x3xf32>, tensor<3x4xf32>)
hlo.computation @not_folded(%x: tensor<5x2x3xf32>, %y: tensor<2x3x4xf32>, %z: tensor<2x3x4xf32>, %w: tensor<2x3xf32>, %v: tensor<3xf32>, %m: tensor<3x4xf32>, %a: tensor<3x2xf32>, %i: tensor<2x3xf32>) -> tuple<tensor<2x5x4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x4xf32>, tensor<2x4xf32>> attributes {entry} {
  %tx = hlo.transpose %x {dimensions = array<i64: 1, 0, 2>} : (tensor<5x2x3xf32>) -> tensor<2x5x3xf32>
  %0 = hlo.dot %tx, %y {lhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_batch_dims = array<i64: 0>, rhs_contracting_dims = array<i64: 1>} : (tensor<2x5x3xf32>, tensor<2x3x4xf32>) -> tensor<2x5x4xf32>
  %tz = hlo.transpose %z {dimensions = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %1 = hlo.dot %tz, %w {lhs_contracting_dims = array<i64: 1, 2>, rhs_contracting_dims = array<i64: 0, 1>} : (tensor<4x2x3xf32>, tensor<2x3xf32>) -> tensor<4xf32>
  %ta = hlo.transpose %a {dimensions = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %2 = hlo.dot %ta, %v {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  %ti = hlo.transpose %i {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = hlo.dot %ti, %v {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  %4 = hlo.dot %ti, %m {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %tc = hlo.transpose %a after(%v : tensor<3xf32>) {dimensions = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %5 = hlo.dot %tc, %m {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %r = hlo.tuple %0, %1, %2, %3, %4, %5 : (tensor<2x5x4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> tuple<tensor<2x5x4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x4xf32>, tensor<2x4xf32>>
  hlo.return %r : tuple<tensor<2x5x4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x4xf32>, tensor<2x4xf32>>
}

// -----

// A convolution reads NCHW input and OIHW kernel through transposes to
// NHWC and HWIO: both fold into the dimension labels, the output's stay.
// With fold-convolution-transposes=false (XLA's NeverFoldTranspose) the
// convolution is left alone.
// CHECK-LABEL: hlo.computation @convolution
// CHECK: convolution %arg0, %arg1 {dim_labels = #hlo.conv<"bf01_oi01->b01f">, window = #hlo.window<"{size=3x3 pad=1_1x1_1}">} : (tensor<1x2x4x4xf32>, tensor<5x2x3x3xf32>) -> tensor<1x4x4x5xf32>
// NOCONV-LABEL: hlo.computation @convolution
// NOCONV: convolution %{{.*}}, %{{.*}} {dim_labels = #hlo.conv<"b01f_01io->b01f">
// NOCONV-SAME: (tensor<1x4x4x2xf32>, tensor<3x3x2x5xf32>)
hlo.computation @convolution(%x: tensor<1x2x4x4xf32>, %w: tensor<5x2x3x3xf32>) -> tensor<1x4x4x5xf32> attributes {entry} {
  %tx = hlo.transpose %x {dimensions = array<i64: 0, 2, 3, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x4x4x2xf32>
  %tw = hlo.transpose %w {dimensions = array<i64: 2, 3, 1, 0>} : (tensor<5x2x3x3xf32>) -> tensor<3x3x2x5xf32>
  %0 = hlo.convolution %tx, %tw {dim_labels = #hlo.conv<"b01f_01io->b01f">, window = #hlo.window<"{size=3x3 pad=1_1x1_1}">} : (tensor<1x4x4x2xf32>, tensor<3x3x2x5xf32>) -> tensor<1x4x4x5xf32>
  hlo.return %0 : tensor<1x4x4x5xf32>
}

// -----

// Fused computations are left alone.
// CHECK-LABEL: hlo.computation private @fused
// CHECK: dot %{{.*}}, %arg1 {lhs_contracting_dims = array<i64: 1>
// CHECK-SAME: (tensor<2x3xf32>, tensor<3x4xf32>)
hlo.computation private @fused(%a: tensor<3x2xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %t = hlo.transpose %a {dimensions = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %0 = hlo.dot %t, %b {lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 0>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  hlo.return %0 : tensor<2x4xf32>
}
hlo.computation @main(%a: tensor<3x2xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> attributes {entry} {
  %0 = hlo.fusion %a, %b {calls = @fused, kind = #hlo<fusion_kind kOutput>} : (tensor<3x2xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  hlo.return %0 : tensor<2x4xf32>
}
