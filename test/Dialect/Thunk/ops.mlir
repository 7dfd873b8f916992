// RUN: hlo-opt %s | FileCheck %s
// RUN: hlo-opt %s | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --emit-bytecode | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --cse --canonicalize | FileCheck %s --check-prefix=CSE

// A thunk program: allocations, a kernel module, and the thunks in order.
// It prints as it reads, through text and bytecode.

// CHECK-LABEL: module
// CHECK: thunk.allocation @p0 parameter size = 1024 {parameter = 0 : i64}
// CHECK: thunk.allocation @p1 parameter size = 8192 {maybe_live_out, parameter = 1 : i64, parameter_index = array<i64: 0>}
// CHECK: thunk.allocation @c0 constant size = 16 {alignment = 64 : i64, value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>}
// CHECK: thunk.allocation @out output size = 256
// CHECK: thunk.allocation @tmp temp size = 4202496
// CHECK: thunk.allocation @host temp size = 512 {memory_space = 5 : i64}
// CHECK: thunk.program @main {
// CHECK:   %[[A:.*]] = thunk.slice @p0[0] : memref<256xf32>
// CHECK:   %[[OUT:.*]] = thunk.slice @out[0] : memref<64xf32>
// CHECK:   thunk.kernel @kernels::@add grid [2, 1, 1] block [128, 1, 1] ins(%[[A]] : memref<256xf32>) outs(%[[T:.*]] : memref<256xf32>)
// CHECK:   thunk.kernel @kernels::@add grid [2, 1, 1] block [128, 1, 1] ins(%{{.*}} : memref<256xf32>) outs(%[[T]] : memref<256xf32>) {transpose = #thunk.transpose<[16, 16], permutation = [1, 0]>}
// CHECK:   thunk.gemm %{{.*}} : memref<256xf32>, %{{.*}} : memref<2048xf32> bias %{{.*}} : memref<64xf32> -> %{{.*}} : memref<512xf32> workspace %{{.*}} : memref<4194304xi8> {epilogue = #thunk<epilogue bias_relu>, lhs_layout = #thunk.matrix<row_major, rows = 8, cols = 32, leading_dim = 32>, out_layout = #thunk.matrix<row_major, rows = 8, cols = 64, leading_dim = 64>, rhs_layout = #thunk.matrix<column_major, rows = 32, cols = 64, leading_dim = 32>}
// CHECK:   thunk.convolution forward input(%{{.*}} : memref<384xf32>) filter(%{{.*}} : memref<108xf32>) output(%{{.*}} : memref<512xf32>) workspace(%{{.*}} : memref<1024xi8>) {algorithm = 3 : i64, filter_layout = #thunk.conv_tensor<[4, 3, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, input_layout = #thunk.conv_tensor<[2, 3, 8, 8], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, lhs_dilation = array<i64: 1, 1>, output_layout = #thunk.conv_tensor<[2, 4, 8, 8], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>}
// CHECK:   thunk.convolution backward_input input({{.*}}) filter({{.*}}) output({{.*}}) {filter_layout = #thunk.conv_tensor<[3, 3, 3, 4], batch = 3, feature = 2, spatial = [0, 1], minor_to_major = [3, 2, 1, 0]>, input_layout = #thunk.conv_tensor<[2, 8, 8, 3], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>, {{.*}}window_strides = array<i64: 2, 2>}
// CHECK:   thunk.convolution forward_bias_activation input(%{{.*}} : memref<512xf16>) filter(%{{.*}} : memref<72xf16>) output(%{{.*}} : memref<512xf16>) bias(%{{.*}} : memref<4xf16>) side_input(%{{.*}} : memref<512xf16>) {activation = #thunk<conv_activation leaky_relu>, conv_result_scale = 5.000000e-01 : f64, feature_group_count = 2 : i64, filter_layout = #thunk.conv_tensor<[4, 2, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, input_layout = #thunk.conv_tensor<[2, 4, 8, 8], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [1, 3, 2, 0]>, leaky_relu_alpha = 1.000000e-01 : f64, {{.*}}side_input_scale = 2.000000e+00 : f64
// CHECK:   thunk.convolution backward_filter {{.*}}feature_group_count = 2 : i64{{.*}}rhs_dilation = array<i64: 2, 2>
// CHECK:   thunk.convolution forward_bias_activation input(%{{.*}} : memref<512xi8>) filter(%{{.*}} : memref<144xi8>) output(%{{.*}} : memref<512xi8>) bias(%{{.*}} : memref<4xf32>) {activation = #thunk<conv_activation relu>
// CHECK:   thunk.fft rfft %[[SIG:.*]] : memref<4x8xf32> -> %[[SPEC:.*]] : memref<4x5xcomplex<f32>> length [8]
// CHECK:   thunk.fft irfft %[[SPEC]] : memref<4x5xcomplex<f32>> -> %[[SIG]] : memref<4x8xf32> length [8]
// CHECK:   thunk.radix_sort %[[SIG]] : memref<4x8xf32> -> %[[SK:.*]] : memref<4x8xf32> scratch %[[SCR:.*]] : memref<512xui8>
// CHECK:   thunk.radix_sort %[[SIG]] : memref<4x8xf32> values %[[SK]] : memref<4x8xf32> -> %[[SK]] : memref<4x8xf32> values %[[SIG]] : memref<4x8xf32> scratch %[[SCR]] : memref<512xui8> descending
// CHECK:   thunk.top_k %[[SIG]] : memref<4x8xf32> -> %{{.*}} : memref<4x3xf32>, %{{.*}} : memref<4x3xi32> total_order
// CHECK:   thunk.top_k %{{.*}} : memref<16xbf16> -> %{{.*}} : memref<16xbf16>, %{{.*}} : memref<16xi32>{{$}}
// CHECK:   thunk.triangular_solve left_side lower adjoint %[[TA:.*]], %[[TB:.*]] : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4x3xf32, strided<[12, 1, 4]>>
// CHECK:   thunk.triangular_solve unit_diagonal notrans %[[TA]], %[[TA]] :
// CHECK:   thunk.cholesky lower %[[TA]], %[[INFO:.*]] : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2xi32>
// CHECK:   thunk.cholesky %[[TA]], %[[INFO]] workspace %{{.*}} : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2xi32>, memref<64xf32>
// CHECK:   thunk.qr %[[TB:.*]], %[[TAU:.*]] : memref<2x4x3xf32, strided<[12, 1, 4]>>, memref<2x3xf32>
// CHECK:   thunk.householder_product %[[TB]], %[[TAU]] : memref<2x4x3xf32, strided<[12, 1, 4]>>, memref<2x3xf32>
// CHECK:   thunk.lu %[[TB]], %[[PIV:.*]], %[[INFO]] : memref<2x4x3xf32, strided<[12, 1, 4]>>, memref<2x3xi32>, memref<2xi32>
// CHECK:   thunk.lu_pivots_to_permutation %[[PIV]], %{{.*}} : memref<2x3xi32>, memref<2x4xi32>
// CHECK:   thunk.eigh lower vectors %[[TA]], %{{.*}}, %[[INFO]] : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4xf32>, memref<2xi32>
// CHECK:   thunk.eigh %[[TA]], %{{.*}}, %[[INFO]] : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4xf32>, memref<2xi32>
// CHECK:   thunk.eig right %[[TA]], %{{.*}} imag %{{.*}}, %{{.*}}, %{{.*}}, %[[INFO]] : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4xf32> imag memref<2x4xf32>, memref<2x4x4xcomplex<f32>, strided<[16, 1, 4]>>, memref<2x4x4xcomplex<f32>, strided<[16, 1, 4]>>, memref<2xi32>
// CHECK:   thunk.eig right packed %[[TA]], %{{.*}}, %{{.*}}, %{{.*}}, %[[INFO]] : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4xcomplex<f32>>, memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2xi32>
// CHECK:   thunk.svd reduced qr %[[TB]], %{{.*}}, %{{.*}}, %{{.*}}, %[[INFO]] : memref<2x4x3xf32, strided<[12, 1, 4]>>, memref<2x3xf32>, memref<2x4x3xf32, strided<[12, 1, 4]>>, memref<2x3x3xf32, strided<[9, 1, 3]>>, memref<2xi32>
// CHECK:   thunk.svd all adjoint_v %[[TB]], %{{.*}}, %{{.*}}, %{{.*}}, %[[INFO]] : memref<2x4x3xf32, strided<[12, 1, 4]>>, memref<2x3xf32>, memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x3x3xf32, strided<[9, 1, 3]>>, memref<2xi32>
// CHECK:   thunk.schur vectors %[[TA]], %{{.*}}, %[[EW:.*]] imag %[[EWI:.*]], %[[INFO]] : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4xf32> imag memref<2x4xf32>, memref<2xi32>
// CHECK:   thunk.hessenberg %[[TA]], %[[T3:.*]], %[[INFO]] low 1 high 4 : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x3xf32>, memref<2xi32>
// CHECK:   thunk.tridiagonal lower %[[TA]], %[[EW]], %{{.*}}, %[[T3]], %[[INFO]] : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4xf32>, memref<2x3xf32>, memref<2x3xf32>, memref<2xi32>
// CHECK:   thunk.tridiagonal_solve %[[EW]], %[[EW]], %[[EWI]], %{{.*}} info %[[INFO]] : memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>, memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2xi32>
// CHECK:   thunk.pad_to_static %[[DYN:.*]] : memref<32xi8> -> %[[STAT:.*]] : memref<2x3xf32, strided<[1, 2]>> sizes(%[[S0:.*]], %[[S1:.*]] : memref<1xi32>, memref<1xi32>)
// CHECK:   thunk.slice_to_dynamic %[[STAT]] : memref<2x3xf32, strided<[1, 2]>> sizes(%[[S0]], %[[S1]] : memref<1xi32>, memref<1xi32>) -> %[[DYN]] : memref<32xi8>
// CHECK:   thunk.infeed outs(%[[HALF:.*]], %[[INFO]] : memref<64xf32>, memref<2xi32>)
// CHECK:   thunk.outfeed ins(%[[INFO]] : memref<2xi32>)
// CHECK:   thunk.send ins(%[[HALF]] : memref<64xf32>) channel 3{{$}}
// CHECK:   thunk.recv outs(%[[HALF]] : memref<64xf32>) channel 3 host_transfer
// CHECK:   thunk.memset %{{.*}}, 0 : memref<1xi8>
// CHECK:   thunk.while %{{.*}} : memref<1xi8> {trip_count = 3 : i64} condition {
// CHECK:     thunk.copy
// CHECK:   } body {
// CHECK:     thunk.command_buffer {
// CHECK:       thunk.memset %{{.*}}, 1065353216 : memref<64xf32>
// CHECK:     thunk.dynamic_copy %{{.*}}[192 + -64 * iteration], %{{.*}}[0 + 0 * iteration], 64 bytes : memref<64xf32>, memref<64xf32>
// CHECK:   thunk.conditional %{{.*}} : memref<1xi32> {
// CHECK:   }, {
// CHECK:   thunk.copy %{{.*}}, %[[OUT]] : memref<64xf32>, memref<64xf32>
// CHECK:   thunk.return %[[OUT]] : memref<64xf32>

// CSE: thunk.program @main {
// CSE-COUNT-1: thunk.slice @p0[0]
// CSE-NOT: thunk.slice @p0[0]
// CSE: thunk.kernel

module {
  thunk.allocation @p0 parameter size = 1024 {parameter = 0 : i64}
  thunk.allocation @p1 parameter size = 8192 {parameter = 1 : i64, parameter_index = array<i64: 0>, maybe_live_out}
  thunk.allocation @c0 constant size = 16 {alignment = 64 : i64, value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>}
  thunk.allocation @out output size = 256
  thunk.allocation @tmp temp size = 4202496
  thunk.allocation @host temp size = 512 {memory_space = 5 : i64}
  gpu.module @kernels {
    gpu.func @add(%a: memref<256xf32>, %b: memref<256xf32>) kernel {
      gpu.return
    }
  }
  thunk.program @main {
    %a = thunk.slice @p0[0] : memref<256xf32>
    %a2 = thunk.slice @p0[0] : memref<256xf32>
    %b = thunk.slice @p1[0] : memref<2048xf32>
    %bias = thunk.slice @tmp[0] : memref<64xf32>
    %t = thunk.slice @tmp[1024] : memref<256xf32>
    %c = thunk.slice @tmp[2048] : memref<512xf32>
    %w = thunk.slice @tmp[8192] : memref<4194304xi8>
    %pred = thunk.slice @tmp[4202240] : memref<1xi8>
    %index = thunk.slice @tmp[4202244] : memref<1xi32>
    %out = thunk.slice @out[0] : memref<64xf32>
    %half = thunk.slice @tmp[0] : memref<64xf32>
    thunk.kernel @kernels::@add grid [2, 1, 1] block [128, 1, 1]
        ins(%a : memref<256xf32>) outs(%t : memref<256xf32>)
    thunk.kernel @kernels::@add grid [2, 1, 1] block [128, 1, 1]
        ins(%a2 : memref<256xf32>) outs(%t : memref<256xf32>)
        {transpose = #thunk.transpose<[16, 16], permutation = [1, 0]>}
    thunk.gemm %a : memref<256xf32>, %b : memref<2048xf32> bias %bias : memref<64xf32>
        -> %c : memref<512xf32> workspace %w : memref<4194304xi8> {
      lhs_layout = #thunk.matrix<row_major, rows = 8, cols = 32, leading_dim = 32>,
      rhs_layout = #thunk.matrix<column_major, rows = 32, cols = 64, leading_dim = 32>,
      out_layout = #thunk.matrix<row_major, rows = 8, cols = 64, leading_dim = 64>,
      epilogue = #thunk<epilogue bias_relu>}
    %cx = thunk.slice @tmp[0] : memref<384xf32>
    %cw = thunk.slice @tmp[2048] : memref<108xf32>
    %cy = thunk.slice @tmp[4096] : memref<512xf32>
    %cws = thunk.slice @tmp[8192] : memref<1024xi8>
    %hx = thunk.slice @tmp[0] : memref<512xf16>
    %hw = thunk.slice @tmp[2048] : memref<72xf16>
    %hy = thunk.slice @tmp[4096] : memref<512xf16>
    %hb = thunk.slice @tmp[6144] : memref<4xf16>
    %hs = thunk.slice @tmp[7168] : memref<512xf16>
    %gx = thunk.slice @tmp[0] : memref<512xf32>
    %gw = thunk.slice @tmp[2048] : memref<72xf32>
    %gy = thunk.slice @tmp[4096] : memref<512xf32>
    thunk.convolution forward input(%cx : memref<384xf32>) filter(%cw : memref<108xf32>)
        output(%cy : memref<512xf32>) workspace(%cws : memref<1024xi8>) {
      input_layout = #thunk.conv_tensor<[2, 3, 8, 8], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
      filter_layout = #thunk.conv_tensor<[4, 3, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
      output_layout = #thunk.conv_tensor<[2, 4, 8, 8], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
      window_strides = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, padding_high = array<i64: 1, 1>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, algorithm = 3 : i64}
    thunk.convolution backward_input input(%cx : memref<384xf32>) filter(%cw : memref<108xf32>)
        output(%cy : memref<512xf32>) {
      input_layout = #thunk.conv_tensor<[2, 8, 8, 3], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>,
      filter_layout = #thunk.conv_tensor<[3, 3, 3, 4], batch = 3, feature = 2, spatial = [0, 1], minor_to_major = [3, 2, 1, 0]>,
      output_layout = #thunk.conv_tensor<[2, 4, 4, 4], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>,
      window_strides = array<i64: 2, 2>, padding_low = array<i64: 1, 1>, padding_high = array<i64: 1, 1>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>}
    thunk.convolution forward_bias_activation input(%hx : memref<512xf16>) filter(%hw : memref<72xf16>)
        output(%hy : memref<512xf16>) bias(%hb : memref<4xf16>) side_input(%hs : memref<512xf16>) {
      input_layout = #thunk.conv_tensor<[2, 4, 8, 8], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [1, 3, 2, 0]>,
      filter_layout = #thunk.conv_tensor<[4, 2, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
      output_layout = #thunk.conv_tensor<[2, 4, 8, 8], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [1, 3, 2, 0]>,
      window_strides = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, padding_high = array<i64: 1, 1>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, feature_group_count = 2 : i64,
      activation = #thunk<conv_activation leaky_relu>, leaky_relu_alpha = 1.000000e-01 : f64,
      conv_result_scale = 5.000000e-01 : f64, side_input_scale = 2.000000e+00 : f64}
    thunk.convolution backward_filter input(%gx : memref<512xf32>) filter(%gw : memref<72xf32>)
        output(%gy : memref<512xf32>) {
      input_layout = #thunk.conv_tensor<[2, 4, 8, 8], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [1, 3, 2, 0]>,
      filter_layout = #thunk.conv_tensor<[4, 2, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
      output_layout = #thunk.conv_tensor<[2, 4, 8, 8], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [1, 3, 2, 0]>,
      window_strides = array<i64: 1, 1>, padding_low = array<i64: 2, 2>, padding_high = array<i64: 2, 2>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 2, 2>, feature_group_count = 2 : i64}
    // An int8 convolution (cuDNN's types: i8 input and filter, f32 bias).
    %ix = thunk.slice @tmp[0] : memref<512xi8>
    %iw = thunk.slice @tmp[1024] : memref<144xi8>
    %iy = thunk.slice @tmp[2048] : memref<512xi8>
    %ib = thunk.slice @tmp[3072] : memref<4xf32>
    thunk.convolution forward_bias_activation input(%ix : memref<512xi8>) filter(%iw : memref<144xi8>)
        output(%iy : memref<512xi8>) bias(%ib : memref<4xf32>) {
      input_layout = #thunk.conv_tensor<[2, 8, 8, 4], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>,
      filter_layout = #thunk.conv_tensor<[4, 3, 3, 4], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>,
      output_layout = #thunk.conv_tensor<[2, 8, 8, 4], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>,
      window_strides = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, padding_high = array<i64: 1, 1>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>,
      activation = #thunk<conv_activation relu>}
    %sig = thunk.slice @tmp[0] : memref<4x8xf32>
    %spec = thunk.slice @tmp[2048] : memref<4x5xcomplex<f32>>
    thunk.fft rfft %sig : memref<4x8xf32> -> %spec : memref<4x5xcomplex<f32>> length [8]
    thunk.fft irfft %spec : memref<4x5xcomplex<f32>> -> %sig : memref<4x8xf32> length [8]
    %sorted = thunk.slice @tmp[2048] : memref<4x8xf32>
    %scratch = thunk.slice @tmp[3072] : memref<512xui8>
    thunk.radix_sort %sig : memref<4x8xf32> -> %sorted : memref<4x8xf32> scratch %scratch : memref<512xui8>
    thunk.radix_sort %sig : memref<4x8xf32> values %sorted : memref<4x8xf32> -> %sorted : memref<4x8xf32> values %sig : memref<4x8xf32> scratch %scratch : memref<512xui8> descending
    %topv = thunk.slice @tmp[3584] : memref<4x3xf32>
    %topi = thunk.slice @tmp[3648] : memref<4x3xi32>
    thunk.top_k %sig : memref<4x8xf32> -> %topv : memref<4x3xf32>, %topi : memref<4x3xi32> total_order
    %row = thunk.slice @tmp[3712] : memref<16xbf16>
    %topb = thunk.slice @tmp[3744] : memref<16xbf16>
    %topr = thunk.slice @tmp[3776] : memref<16xi32>
    thunk.top_k %row : memref<16xbf16> -> %topb : memref<16xbf16>, %topr : memref<16xi32>
    %ta = thunk.slice @tmp[4096] : memref<2x4x4xf32, strided<[16, 1, 4]>>
    %tb = thunk.slice @tmp[4224] : memref<2x4x3xf32, strided<[12, 1, 4]>>
    %info = thunk.slice @tmp[4320] : memref<2xi32>
    thunk.triangular_solve left_side lower adjoint %ta, %tb : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4x3xf32, strided<[12, 1, 4]>>
    thunk.triangular_solve unit_diagonal notrans %ta, %ta : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4x4xf32, strided<[16, 1, 4]>>
    thunk.cholesky lower %ta, %info : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2xi32>
    thunk.cholesky %ta, %info workspace %half : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2xi32>, memref<64xf32>
    %tau = thunk.slice @tmp[4400] : memref<2x3xf32>
    thunk.qr %tb, %tau : memref<2x4x3xf32, strided<[12, 1, 4]>>, memref<2x3xf32>
    thunk.householder_product %tb, %tau : memref<2x4x3xf32, strided<[12, 1, 4]>>, memref<2x3xf32>
    %piv = thunk.slice @tmp[4440] : memref<2x3xi32>
    %perm = thunk.slice @tmp[4480] : memref<2x4xi32>
    thunk.lu %tb, %piv, %info : memref<2x4x3xf32, strided<[12, 1, 4]>>, memref<2x3xi32>, memref<2xi32>
    thunk.lu_pivots_to_permutation %piv, %perm : memref<2x3xi32>, memref<2x4xi32>
    %ew = thunk.slice @tmp[4520] : memref<2x4xf32>
    thunk.eigh lower vectors %ta, %ew, %info : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4xf32>, memref<2xi32>
    thunk.eigh %ta, %ew, %info : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4xf32>, memref<2xi32>
    %su = thunk.slice @tmp[4608] : memref<2x4x3xf32, strided<[12, 1, 4]>>
    %sv = thunk.slice @tmp[4736] : memref<2x3x3xf32, strided<[9, 1, 3]>>
    %su4 = thunk.slice @tmp[4864] : memref<2x4x4xf32, strided<[16, 1, 4]>>
    %vcl = thunk.slice @tmp[5120] : memref<2x4x4xcomplex<f32>, strided<[16, 1, 4]>>
    %vcr = thunk.slice @tmp[5376] : memref<2x4x4xcomplex<f32>, strided<[16, 1, 4]>>
    %ewi = thunk.slice @tmp[5632] : memref<2x4xf32>
    thunk.eig right %ta, %ew imag %ewi, %vcl, %vcr, %info : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4xf32> imag memref<2x4xf32>, memref<2x4x4xcomplex<f32>, strided<[16, 1, 4]>>, memref<2x4x4xcomplex<f32>, strided<[16, 1, 4]>>, memref<2xi32>
    %ewc = thunk.slice @tmp[5760] : memref<2x4xcomplex<f32>>
    thunk.eig right packed %ta, %ewc, %ta, %ta, %info : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4xcomplex<f32>>, memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2xi32>
    thunk.svd reduced qr %tb, %tau, %su, %sv, %info : memref<2x4x3xf32, strided<[12, 1, 4]>>, memref<2x3xf32>, memref<2x4x3xf32, strided<[12, 1, 4]>>, memref<2x3x3xf32, strided<[9, 1, 3]>>, memref<2xi32>
    thunk.svd all adjoint_v %tb, %tau, %su4, %sv, %info : memref<2x4x3xf32, strided<[12, 1, 4]>>, memref<2x3xf32>, memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x3x3xf32, strided<[9, 1, 3]>>, memref<2xi32>
    %ta2 = thunk.slice @tmp[5888] : memref<2x4x4xf32, strided<[16, 1, 4]>>
    thunk.schur vectors %ta, %ta2, %ew imag %ewi, %info : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4xf32> imag memref<2x4xf32>, memref<2xi32>
    %e3 = thunk.slice @tmp[6144] : memref<2x3xf32>
    %t3 = thunk.slice @tmp[6176] : memref<2x3xf32>
    thunk.hessenberg %ta, %t3, %info low 1 high 4 : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x3xf32>, memref<2xi32>
    thunk.tridiagonal lower %ta, %ew, %e3, %t3, %info : memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2x4xf32>, memref<2x3xf32>, memref<2x3xf32>, memref<2xi32>
    thunk.tridiagonal_solve %ew, %ew, %ewi, %su4 info %info : memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>, memref<2x4x4xf32, strided<[16, 1, 4]>>, memref<2xi32>
    %dyn = thunk.slice @tmp[8192] : memref<32xi8>
    %s0 = thunk.slice @tmp[8256] : memref<1xi32>
    %s1 = thunk.slice @tmp[8260] : memref<1xi32>
    %stat = thunk.slice @tmp[8320] : memref<2x3xf32, strided<[1, 2]>>
    thunk.pad_to_static %dyn : memref<32xi8> -> %stat : memref<2x3xf32, strided<[1, 2]>> sizes(%s0, %s1 : memref<1xi32>, memref<1xi32>)
    thunk.slice_to_dynamic %stat : memref<2x3xf32, strided<[1, 2]>> sizes(%s0, %s1 : memref<1xi32>, memref<1xi32>) -> %dyn : memref<32xi8>
    thunk.infeed outs(%half, %info : memref<64xf32>, memref<2xi32>)
    thunk.outfeed ins(%info : memref<2xi32>)
    thunk.send ins(%half : memref<64xf32>) channel 3
    thunk.recv outs(%half : memref<64xf32>) channel 3 host_transfer
    thunk.memset %pred, 0 : memref<1xi8>
    thunk.while %pred : memref<1xi8> {trip_count = 3 : i64} condition {
      thunk.copy %half, %bias : memref<64xf32>, memref<64xf32>
    } body {
      thunk.command_buffer {
        thunk.memset %bias, 1065353216 : memref<64xf32>
      }
      thunk.dynamic_copy %bias[192 + -64 * iteration], %half[0 + 0 * iteration], 64 bytes : memref<64xf32>, memref<64xf32>
    }
    thunk.conditional %index : memref<1xi32> {
      thunk.memset %half, 0 : memref<64xf32>
    }, {
    }
    thunk.copy %half, %out : memref<64xf32>, memref<64xf32>
    thunk.return %out : memref<64xf32>
  }
}
