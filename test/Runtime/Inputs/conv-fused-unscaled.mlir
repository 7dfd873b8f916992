module {
  thunk.allocation @x parameter size = 800 {parameter = 0 : i64}
  thunk.allocation @w parameter size = 864 {parameter = 1 : i64}
  thunk.allocation @b parameter size = 24 {parameter = 2 : i64}
  thunk.allocation @s parameter size = 432 {parameter = 3 : i64}
  thunk.allocation @y output size = 432
  thunk.program @main attributes {argument_types = [memref<2x4x5x5xf32, strided<[100, 1, 20, 4]>>, memref<6x4x3x3xf32, strided<[4, 1, 72, 24]>>, memref<6xf32>, memref<2x6x3x3xf32, strided<[54, 3, 1, 18]>>], result_types = [memref<2x6x3x3xf32, strided<[54, 3, 1, 18]>>]} {
    %x = thunk.slice @x[0] : memref<200xf32>
    %w = thunk.slice @w[0] : memref<216xf32>
    %b = thunk.slice @b[0] : memref<6xf32>
    %s = thunk.slice @s[0] : memref<108xf32>
    %y = thunk.slice @y[0] : memref<108xf32>
    thunk.convolution forward_bias_activation input(%x : memref<200xf32>) filter(%w : memref<216xf32>) output(%y : memref<108xf32>) bias(%b : memref<6xf32>) side_input(%s : memref<108xf32>) {
      input_layout = #thunk.conv_tensor<[2, 4, 5, 5], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [1, 3, 2, 0]>,
      filter_layout = #thunk.conv_tensor<[6, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [1, 0, 3, 2]>,
      output_layout = #thunk.conv_tensor<[2, 6, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [2, 1, 3, 0]>,
      window_strides = array<i64: 2, 2>, padding_low = array<i64: 1, 1>, padding_high = array<i64: 1, 1>,
      lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>,
      conv_result_scale = 1.0 : f64, side_input_scale = 2.0 : f64, activation = #thunk<conv_activation relu6>}
    thunk.return %y : memref<108xf32>
  }
}
