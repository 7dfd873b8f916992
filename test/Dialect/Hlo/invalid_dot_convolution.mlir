// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// dot dimension numbers and convolution shapes.

hlo.computation @dot_not_array(%a: tuple<>, %b: tensor<4x3x5xf32>) -> tensor<f32> {
  // expected-error @+1 {{'hlo.dot' op lhs must be an array, got 'tuple<>'}}
  %0 = hlo.dot %a, %b : (tuple<>, tensor<4x3x5xf32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

// -----

hlo.computation @dot_batch_arity(%a: tensor<4x2x3xf32>, %b: tensor<4x3x5xf32>) -> tensor<4x2x5xf32> {
  // expected-error @+1 {{'hlo.dot' op lhs_batch_dims [0] and rhs_batch_dims [] differ in size}}
  %0 = hlo.dot %a, %b {lhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_contracting_dims = array<i64: 1>} : (tensor<4x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x2x5xf32>
  hlo.return %0 : tensor<4x2x5xf32>
}

// -----

hlo.computation @dot_contracting_arity(%a: tensor<4x2x3xf32>, %b: tensor<4x3x5xf32>) -> tensor<4x2x3x5xf32> {
  // expected-error @+1 {{'hlo.dot' op lhs_contracting_dims [2] and rhs_contracting_dims [] differ in size}}
  %0 = hlo.dot %a, %b {lhs_batch_dims = array<i64: 0>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>} : (tensor<4x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x2x3x5xf32>
  hlo.return %0 : tensor<4x2x3x5xf32>
}

// -----

hlo.computation @dot_dim_range(%a: tensor<4x2x3xf32>, %b: tensor<4x3x5xf32>) -> tensor<4x2x5xf32> {
  // expected-error @+1 {{'hlo.dot' op lhs batch+contracting dims [0, 3] has dimension 3 out of range for rank 3}}
  %0 = hlo.dot %a, %b {lhs_batch_dims = array<i64: 0>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 3>, rhs_contracting_dims = array<i64: 1>} : (tensor<4x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x2x5xf32>
  hlo.return %0 : tensor<4x2x5xf32>
}

// -----

hlo.computation @dot_dim_repeat(%a: tensor<4x2x3xf32>, %b: tensor<4x3x5xf32>) -> tensor<4x2x5xf32> {
  // expected-error @+1 {{'hlo.dot' op rhs batch+contracting dims [0, 0] repeats dimension 0}}
  %0 = hlo.dot %a, %b {lhs_batch_dims = array<i64: 0>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_contracting_dims = array<i64: 0>} : (tensor<4x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x2x5xf32>
  hlo.return %0 : tensor<4x2x5xf32>
}

// -----

hlo.computation @dot_contracting_size(%a: tensor<4x2x3xf32>, %b: tensor<4x3x5xf32>) -> tensor<4x3x5xf32> {
  // expected-error @+1 {{'hlo.dot' op lhs dimension 1 (size 2) does not match rhs dimension 1 (size 3)}}
  %0 = hlo.dot %a, %b {lhs_batch_dims = array<i64: 0>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 1>, rhs_contracting_dims = array<i64: 1>} : (tensor<4x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x3x5xf32>
  hlo.return %0 : tensor<4x3x5xf32>
}

// -----

hlo.computation @dot_batch_size(%a: tensor<3x2x3xf32>, %b: tensor<4x3x5xf32>) -> tensor<3x2x5xf32> {
  // expected-error @+1 {{'hlo.dot' op lhs dimension 0 (size 3) does not match rhs dimension 0 (size 4)}}
  %0 = hlo.dot %a, %b {lhs_batch_dims = array<i64: 0>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_contracting_dims = array<i64: 1>} : (tensor<3x2x3xf32>, tensor<4x3x5xf32>) -> tensor<3x2x5xf32>
  hlo.return %0 : tensor<3x2x5xf32>
}

// -----

hlo.computation @dot_result(%a: tensor<4x2x3xf32>, %b: tensor<4x3x5xf32>) -> tensor<4x5x2xf32> {
  // expected-error @+1 {{'hlo.dot' op result type 'tensor<4x5x2xf32>' does not match the inferred dimensions [4, 2, 5]}}
  %0 = hlo.dot %a, %b {lhs_batch_dims = array<i64: 0>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_contracting_dims = array<i64: 1>} : (tensor<4x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x5x2xf32>
  hlo.return %0 : tensor<4x5x2xf32>
}

// -----

hlo.computation @dot_precision(%a: tensor<4x2x3xf32>, %b: tensor<4x3x5xf32>) -> tensor<4x2x5xf32> {
  // expected-error @+1 {{'hlo.dot' op operand_precision needs 2 entries (lhs, rhs), got 1}}
  %0 = hlo.dot %a, %b {lhs_batch_dims = array<i64: 0>, rhs_batch_dims = array<i64: 0>, lhs_contracting_dims = array<i64: 2>, rhs_contracting_dims = array<i64: 1>, operand_precision = [#hlo<precision high>]} : (tensor<4x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x2x5xf32>
  hlo.return %0 : tensor<4x2x5xf32>
}

// -----

hlo.computation @conv_rank(%x: tensor<8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  // expected-error @+1 {{'hlo.convolution' op dim_labels describe 4-d arrays but lhs and rhs have ranks 3 and 4}}
  %0 = hlo.convolution %x, %k {window = #hlo.window<"{size=3x3 pad=1_1x1_1}">, dim_labels = #hlo.conv<"b01f_01io->b01f">} : (tensor<8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  hlo.return %0 : tensor<1x8x8x16xf32>
}

// -----

hlo.computation @conv_window_rank(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  // expected-error @+1 {{'hlo.convolution' op window has 1 dimensions but the convolution has 2 spatial dimensions}}
  %0 = hlo.convolution %x, %k {window = #hlo.window<"{size=3}">, dim_labels = #hlo.conv<"b01f_01io->b01f">} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  hlo.return %0 : tensor<1x8x8x16xf32>
}

// -----

hlo.computation @conv_no_window(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  // expected-error @+1 {{'hlo.convolution' op needs a window for its 2 spatial dimensions}}
  %0 = hlo.convolution %x, %k {dim_labels = #hlo.conv<"b01f_01io->b01f">} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  hlo.return %0 : tensor<1x8x8x16xf32>
}

// -----

hlo.computation @conv_group_count(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  // expected-error @+1 {{'hlo.convolution' op feature_group_count (0) and batch_group_count (1) must be positive}}
  %0 = hlo.convolution %x, %k {window = #hlo.window<"{size=3x3 pad=1_1x1_1}">, dim_labels = #hlo.conv<"b01f_01io->b01f">, feature_group_count = 0 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  hlo.return %0 : tensor<1x8x8x16xf32>
}

// -----

hlo.computation @conv_both_groups(%x: tensor<2x8x8x4xf32>, %k: tensor<3x3x2x4xf32>) -> tensor<1x8x8x4xf32> {
  // expected-error @+1 {{'hlo.convolution' op feature_group_count (2) and batch_group_count (2) may not both exceed 1}}
  %0 = hlo.convolution %x, %k {window = #hlo.window<"{size=3x3 pad=1_1x1_1}">, dim_labels = #hlo.conv<"b01f_01io->b01f">, feature_group_count = 2 : i64, batch_group_count = 2 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x2x4xf32>) -> tensor<1x8x8x4xf32>
  hlo.return %0 : tensor<1x8x8x4xf32>
}

// -----

hlo.computation @conv_feature_multiple(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x1x16xf32>) -> tensor<1x8x8x16xf32> {
  // expected-error @+1 {{'hlo.convolution' op input feature dimension (3) must be a multiple of feature_group_count (2)}}
  %0 = hlo.convolution %x, %k {window = #hlo.window<"{size=3x3 pad=1_1x1_1}">, dim_labels = #hlo.conv<"b01f_01io->b01f">, feature_group_count = 2 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x1x16xf32>) -> tensor<1x8x8x16xf32>
  hlo.return %0 : tensor<1x8x8x16xf32>
}

// -----

hlo.computation @conv_input_features(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x2x16xf32>) -> tensor<1x8x8x16xf32> {
  // expected-error @+1 {{'hlo.convolution' op input feature dimension (3) must be kernel input features (2) times feature_group_count (1)}}
  %0 = hlo.convolution %x, %k {window = #hlo.window<"{size=3x3 pad=1_1x1_1}">, dim_labels = #hlo.conv<"b01f_01io->b01f">} : (tensor<1x8x8x3xf32>, tensor<3x3x2x16xf32>) -> tensor<1x8x8x16xf32>
  hlo.return %0 : tensor<1x8x8x16xf32>
}

// -----

hlo.computation @conv_kernel_out_feature_groups(%x: tensor<1x8x8x4xf32>, %k: tensor<3x3x2x3xf32>) -> tensor<1x8x8x3xf32> {
  // expected-error @+1 {{'hlo.convolution' op kernel output features (3) must be a multiple of feature_group_count (2)}}
  %0 = hlo.convolution %x, %k {window = #hlo.window<"{size=3x3 pad=1_1x1_1}">, dim_labels = #hlo.conv<"b01f_01io->b01f">, feature_group_count = 2 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x2x3xf32>) -> tensor<1x8x8x3xf32>
  hlo.return %0 : tensor<1x8x8x3xf32>
}

// -----

hlo.computation @conv_kernel_out_batch_groups(%x: tensor<4x8x8x3xf32>, %k: tensor<3x3x3x3xf32>) -> tensor<2x8x8x3xf32> {
  // expected-error @+1 {{'hlo.convolution' op kernel output features (3) must be a multiple of batch_group_count (2)}}
  %0 = hlo.convolution %x, %k {window = #hlo.window<"{size=3x3 pad=1_1x1_1}">, dim_labels = #hlo.conv<"b01f_01io->b01f">, batch_group_count = 2 : i64} : (tensor<4x8x8x3xf32>, tensor<3x3x3x3xf32>) -> tensor<2x8x8x3xf32>
  hlo.return %0 : tensor<2x8x8x3xf32>
}

// -----

hlo.computation @conv_batch_groups(%x: tensor<3x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32> {
  // expected-error @+1 {{'hlo.convolution' op input batch dimension (3) must be a multiple of batch_group_count (2)}}
  %0 = hlo.convolution %x, %k {window = #hlo.window<"{size=3x3 pad=1_1x1_1}">, dim_labels = #hlo.conv<"b01f_01io->b01f">, batch_group_count = 2 : i64} : (tensor<3x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
  hlo.return %0 : tensor<1x8x8x4xf32>
}

// -----

hlo.computation @conv_output_batch(%x: tensor<4x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<4x8x8x4xf32> {
  // expected-error @+1 {{'hlo.convolution' op result type 'tensor<4x8x8x4xf32>' does not match the inferred dimensions [2, 8, 8, 4]}}
  %0 = hlo.convolution %x, %k {window = #hlo.window<"{size=3x3 pad=1_1x1_1}">, dim_labels = #hlo.conv<"b01f_01io->b01f">, batch_group_count = 2 : i64} : (tensor<4x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<4x8x8x4xf32>
  hlo.return %0 : tensor<4x8x8x4xf32>
}

// -----

hlo.computation @conv_output_feature(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x8x8x8xf32> {
  // expected-error @+1 {{'hlo.convolution' op result type 'tensor<1x8x8x8xf32>' does not match the inferred dimensions [1, 8, 8, 16]}}
  %0 = hlo.convolution %x, %k {window = #hlo.window<"{size=3x3 pad=1_1x1_1}">, dim_labels = #hlo.conv<"b01f_01io->b01f">} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x8xf32>
  hlo.return %0 : tensor<1x8x8x8xf32>
}

// -----

hlo.computation @conv_stride(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error @+1 {{'hlo.convolution' op window stride (0), lhs_dilate (1) and rhs_dilate (1) of spatial dimension 1 must be positive}}
  %0 = hlo.convolution %x, %k {window = #hlo.window<"{size=3x3 stride=1x0}">, dim_labels = #hlo.conv<"b01f_01io->b01f">} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  hlo.return %0 : tensor<1x6x6x16xf32>
}

// -----

hlo.computation @conv_window_size(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x6x7x16xf32> {
  // expected-error @+1 {{'hlo.convolution' op window size 2 differs from kernel spatial dimension 1 (size 3)}}
  %0 = hlo.convolution %x, %k {window = #hlo.window<"{size=3x2}">, dim_labels = #hlo.conv<"b01f_01io->b01f">} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x7x16xf32>
  hlo.return %0 : tensor<1x6x7x16xf32>
}

// -----

hlo.computation @conv_output_spatial(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x8x6x16xf32> {
  // expected-error @+1 {{'hlo.convolution' op result type 'tensor<1x8x6x16xf32>' does not match the inferred dimensions [1, 8, 8, 16]}}
  %0 = hlo.convolution %x, %k {window = #hlo.window<"{size=3x3 pad=1_1x1_1}">, dim_labels = #hlo.conv<"b01f_01io->b01f">} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x6x16xf32>
  hlo.return %0 : tensor<1x8x6x16xf32>
}

// -----

hlo.computation @conv_precision(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  // expected-error @+1 {{'hlo.convolution' op operand_precision needs 2 entries (lhs, rhs), got 3}}
  %0 = hlo.convolution %x, %k {window = #hlo.window<"{size=3x3 pad=1_1x1_1}">, dim_labels = #hlo.conv<"b01f_01io->b01f">, operand_precision = [#hlo<precision high>, #hlo<precision high>, #hlo<precision high>]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  hlo.return %0 : tensor<1x8x8x16xf32>
}
