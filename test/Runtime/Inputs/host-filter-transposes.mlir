// Filter transposes the host runtime leaves out or keeps
// (test/Runtime/hlo-run-host.test): @t is a transpose of the [1, 1, 256, 64]
// weights (HWIO) to [64, 1, 1, 256] (OHWI, the convolutions' filters).
// A: the convolution reads the weights (left out);
// B: the transpose's input is written before the convolution (kept);
// C: the transposed filter is read after the convolution (kept);
// D: it is written after the convolution, then read (left out).
module attributes {gpu.container_module} {
  thunk.allocation @x parameter size = 4096 {parameter = 0 : i64}
  thunk.allocation @w parameter size = 65536 {parameter = 1 : i64}
  thunk.allocation @out output size = 69632
  thunk.allocation @tmp temp size = 196608
  gpu.module @k {
    gpu.func @t(%in: memref<16384xf32>, %out: memref<16384xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 128, 1, 1>} {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %bt = arith.muli %b, %c128 : index
      %i = arith.addi %bt, %t : index
      %v = memref.load %in[%i] : memref<16384xf32>
      %row = arith.divui %i, %c64 : index
      %col = arith.remui %i, %c64 : index
      %cr = arith.muli %col, %c256 : index
      %j = arith.addi %cr, %row : index
      memref.store %v, %out[%j] : memref<16384xf32>
      gpu.return
    }
  }
  thunk.program @main attributes {argument_types = [memref<1x2x2x256xf32>, memref<1x1x256x64xf32>], result_types = [memref<1x2x2x64xf32>, memref<1x2x2x64xf32>, memref<1x2x2x64xf32>, memref<1x2x2x64xf32>, memref<64x1x1x256xf32>]} {
    %x = thunk.slice @x[0] : memref<1024xf32>
    %w = thunk.slice @w[0] : memref<16384xf32>
    %yA = thunk.slice @out[0] : memref<256xf32>
    %yB = thunk.slice @out[1024] : memref<256xf32>
    %yC = thunk.slice @out[2048] : memref<256xf32>
    %yD = thunk.slice @out[3072] : memref<256xf32>
    %fC = thunk.slice @out[4096] : memref<16384xf32>
    %f = thunk.slice @tmp[0] : memref<16384xf32>
    %s = thunk.slice @tmp[65536] : memref<16384xf32>
    %g = thunk.slice @tmp[131072] : memref<16384xf32>
    // A
    thunk.kernel @k::@t grid [128, 1, 1] block [128, 1, 1] ins(%w : memref<16384xf32>) outs(%f : memref<16384xf32>) {transpose = #thunk.transpose<[256, 64], permutation = [1, 0]>}
    thunk.convolution forward input(%x : memref<1024xf32>) filter(%f : memref<16384xf32>) output(%yA : memref<256xf32>) {filter_layout = #thunk.conv_tensor<[64, 1, 1, 256], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>, input_layout = #thunk.conv_tensor<[1, 2, 2, 256], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>, lhs_dilation = array<i64: 1, 1>, output_layout = #thunk.conv_tensor<[1, 2, 2, 64], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>}
    // B
    thunk.copy %w, %s : memref<16384xf32>, memref<16384xf32>
    thunk.kernel @k::@t grid [128, 1, 1] block [128, 1, 1] ins(%s : memref<16384xf32>) outs(%g : memref<16384xf32>) {transpose = #thunk.transpose<[256, 64], permutation = [1, 0]>}
    thunk.memset %s, 0 : memref<16384xf32>
    thunk.convolution forward input(%x : memref<1024xf32>) filter(%g : memref<16384xf32>) output(%yB : memref<256xf32>) {filter_layout = #thunk.conv_tensor<[64, 1, 1, 256], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>, input_layout = #thunk.conv_tensor<[1, 2, 2, 256], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>, lhs_dilation = array<i64: 1, 1>, output_layout = #thunk.conv_tensor<[1, 2, 2, 64], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>}
    // C
    thunk.kernel @k::@t grid [128, 1, 1] block [128, 1, 1] ins(%w : memref<16384xf32>) outs(%f : memref<16384xf32>) {transpose = #thunk.transpose<[256, 64], permutation = [1, 0]>}
    thunk.convolution forward input(%x : memref<1024xf32>) filter(%f : memref<16384xf32>) output(%yC : memref<256xf32>) {filter_layout = #thunk.conv_tensor<[64, 1, 1, 256], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>, input_layout = #thunk.conv_tensor<[1, 2, 2, 256], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>, lhs_dilation = array<i64: 1, 1>, output_layout = #thunk.conv_tensor<[1, 2, 2, 64], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>}
    thunk.copy %f, %fC : memref<16384xf32>, memref<16384xf32>
    // D
    thunk.kernel @k::@t grid [128, 1, 1] block [128, 1, 1] ins(%w : memref<16384xf32>) outs(%g : memref<16384xf32>) {transpose = #thunk.transpose<[256, 64], permutation = [1, 0]>}
    thunk.convolution forward input(%x : memref<1024xf32>) filter(%g : memref<16384xf32>) output(%yD : memref<256xf32>) {filter_layout = #thunk.conv_tensor<[64, 1, 1, 256], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>, input_layout = #thunk.conv_tensor<[1, 2, 2, 256], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>, lhs_dilation = array<i64: 1, 1>, output_layout = #thunk.conv_tensor<[1, 2, 2, 64], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, rhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>}
    thunk.memset %g, 0 : memref<16384xf32>
    thunk.copy %g, %s : memref<16384xf32>, memref<16384xf32>
    thunk.return %yA, %yB, %yC, %yD, %fC : memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<16384xf32>
  }
}
