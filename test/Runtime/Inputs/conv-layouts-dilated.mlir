module {
  thunk.allocation @x parameter size = 800 {parameter = 0 : i64}
  thunk.allocation @w parameter size = 432 {parameter = 1 : i64}
  thunk.allocation @y output size = 288
  thunk.program @main attributes {argument_types = [memref<2x4x5x5xf32, strided<[100, 1, 20, 4]>>, memref<6x2x3x3xf32, strided<[2, 1, 36, 12]>>], result_types = [memref<2x6x2x3xf32, strided<[36, 2, 1, 12]>>]} {
    %x = thunk.slice @x[0] : memref<200xf32>
    %w = thunk.slice @w[0] : memref<108xf32>
    %y = thunk.slice @y[0] : memref<72xf32>
    thunk.convolution forward input(%x : memref<200xf32>) filter(%w : memref<108xf32>) output(%y : memref<72xf32>) {
      input_layout = #thunk.conv_tensor<[2, 4, 5, 5], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [1, 3, 2, 0]>,
      filter_layout = #thunk.conv_tensor<[6, 2, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [1, 0, 3, 2]>,
      output_layout = #thunk.conv_tensor<[2, 6, 2, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [2, 1, 3, 0]>,
      window_strides = array<i64: 2, 2>, padding_low = array<i64: 1, 1>, padding_high = array<i64: 1, 1>,
      lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 2, 1>, feature_group_count = 2 : i64}
    thunk.return %y : memref<72xf32>
  }
}
