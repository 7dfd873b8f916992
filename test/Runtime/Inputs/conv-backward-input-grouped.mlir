module {
  thunk.allocation @dy parameter size = 432 {parameter = 0 : i64}
  thunk.allocation @w parameter size = 432 {parameter = 1 : i64}
  thunk.allocation @dx output size = 800
  thunk.program @main attributes {argument_types = [memref<2x6x3x3xf32, strided<[54, 3, 1, 18]>>, memref<6x2x3x3xf32, strided<[2, 1, 36, 12]>>], result_types = [memref<2x4x5x5xf32, strided<[100, 1, 20, 4]>>]} {
    %dy = thunk.slice @dy[0] : memref<108xf32>
    %w = thunk.slice @w[0] : memref<108xf32>
    %dx = thunk.slice @dx[0] : memref<200xf32>
    thunk.convolution backward_input input(%dx : memref<200xf32>) filter(%w : memref<108xf32>) output(%dy : memref<108xf32>) {
      input_layout = #thunk.conv_tensor<[2, 4, 5, 5], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [1, 3, 2, 0]>,
      filter_layout = #thunk.conv_tensor<[6, 2, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [1, 0, 3, 2]>,
      output_layout = #thunk.conv_tensor<[2, 6, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [2, 1, 3, 0]>,
      window_strides = array<i64: 2, 2>, padding_low = array<i64: 1, 1>, padding_high = array<i64: 1, 1>,
      lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, feature_group_count = 2 : i64}
    thunk.return %dx : memref<200xf32>
  }
}
