// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// Allocations, slices, kernels, GEMMs, copies, memsets and control flow are
// checked by the dialect.

// expected-error @+1 {{of kind parameter needs a `parameter` number}}
thunk.allocation @p parameter size = 16

// -----

// expected-error @+1 {{has a `value` but is not of kind constant}}
thunk.allocation @t temp size = 16 {value = dense<0> : tensor<4xi32>}

// -----

// expected-error @+1 {{`value` takes 16 bytes, more than the allocation's 8}}
thunk.allocation @c constant size = 8 {value = dense<0> : tensor<4xi32>}

// -----

// expected-error @+1 {{alignment must be a power of two}}
thunk.allocation @t temp size = 8 {alignment = 12 : i64}

// -----

// expected-error @+1 {{`maybe_live_out` is for parameter allocations}}
thunk.allocation @o output size = 8 {maybe_live_out}

// -----

// expected-error @+1 {{memory space must be 0 (the device's) or 5 (the host's, not for a constant)}}
thunk.allocation @t temp size = 8 {memory_space = 1 : i64}

// -----

// expected-error @+1 {{memory space must be 0 (the device's) or 5 (the host's, not for a constant)}}
thunk.allocation @c constant size = 4 {memory_space = 5 : i64, value = dense<0> : tensor<1xi32>}

// -----

thunk.allocation @t temp size = 64
thunk.program @main {
  // expected-error @+1 {{bytes [32, 96) are outside allocation 't' of 64 bytes}}
  %0 = thunk.slice @t[32] : memref<16xf32>
  thunk.return
}

// -----

// Elements of 2 and 4 bits are packed: ten i4 take 5 bytes.
thunk.allocation @t temp size = 64
thunk.program @main {
  %a = thunk.slice @t[59] : memref<10xi4>
  // expected-error @+1 {{bytes [60, 65) are outside allocation 't' of 64 bytes}}
  %b = thunk.slice @t[60] : memref<10xi4>
  thunk.return
}

// -----

thunk.allocation @t temp size = 64
thunk.program @main {
  %a = thunk.slice @t[0] : memref<10xi4>
  %b = thunk.slice @t[8] : memref<19xi2>
  %c = thunk.slice @t[16] : memref<8xi4>
  thunk.copy %a, %b : memref<10xi4>, memref<19xi2>
  // expected-error @+1 {{copies 5 bytes into a slice of 4 bytes}}
  thunk.copy %a, %c : memref<10xi4>, memref<8xi4>
  thunk.return
}

// -----

thunk.program @main {
  // expected-error @+1 {{'nope' does not name a thunk.allocation}}
  %0 = thunk.slice @nope[0] : memref<16xf32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 64
thunk.program @main {
  // expected-error @+1 {{must be statically shaped memref}}
  %0 = thunk.slice @t[0] : memref<?xf32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
gpu.module @kernels {
  gpu.func @k(%a: memref<16xf32>, %b: memref<16xf32>) kernel {
    gpu.return
  }
}
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<16xf32>
  %1 = thunk.slice @t[64] : memref<16xi32>
  // expected-error @+1 {{argument 1 is 'memref<16xi32>' but the kernel takes 'memref<16xf32>'}}
  thunk.kernel @kernels::@k grid [1, 1, 1] block [16, 1, 1] ins(%0 : memref<16xf32>) outs(%1 : memref<16xi32>)
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
gpu.module @kernels {
  gpu.func @k(%a: memref<16xf32>) kernel {
    gpu.return
  }
}
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<16xf32>
  // expected-error @+1 {{passes 2 arguments to a kernel of 1}}
  thunk.kernel @kernels::@k grid [1, 1, 1] block [16, 1, 1] ins(%0 : memref<16xf32>) outs(%0 : memref<16xf32>)
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
gpu.module @kernels {
  gpu.func @k(%a: memref<16xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    gpu.return
  }
}
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<16xf32>
  // expected-error @+1 {{block differs from the kernel's known size}}
  thunk.kernel @kernels::@k grid [1, 1, 1] block [16, 1, 1] outs(%0 : memref<16xf32>)
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<16xf32>
  // expected-error @+1 {{'@kernels::@k' does not name a gpu.func}}
  thunk.kernel @kernels::@k grid [1, 1, 1] block [16, 1, 1] outs(%0 : memref<16xf32>)
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
gpu.module @kernels {
  gpu.func @k(%a: memref<16xf32>) kernel {
    gpu.return
  }
}
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<16xf32>
  // expected-error @+1 {{a block has at most 1024 threads}}
  thunk.kernel @kernels::@k grid [1, 1, 1] block [1024, 2, 1] outs(%0 : memref<16xf32>)
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
gpu.module @kernels {
  gpu.func @k(%a: memref<16xf32>) kernel {
    gpu.return
  }
}
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<16xf32>
  // expected-error @+1 {{grid must have three dimensions}}
  thunk.kernel @kernels::@k grid [1, 1] block [16, 1, 1] outs(%0 : memref<16xf32>)
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<256xf32>
  %c = thunk.slice @t[1024] : memref<64xf32>
  // expected-error @+1 {{contracting sizes differ: lhs has 32 columns, rhs 16 rows}}
  thunk.gemm %a : memref<256xf32>, %a : memref<256xf32> -> %c : memref<64xf32> {
    lhs_layout = #thunk.matrix<row_major, rows = 8, cols = 32, leading_dim = 32>,
    rhs_layout = #thunk.matrix<row_major, rows = 16, cols = 8, leading_dim = 8>,
    out_layout = #thunk.matrix<row_major, rows = 8, cols = 8, leading_dim = 8>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<256xf32>
  %c = thunk.slice @t[1024] : memref<32xf32>
  // expected-error @+1 {{out has 32 elements; its layout needs 64}}
  thunk.gemm %a : memref<256xf32>, %a : memref<256xf32> -> %c : memref<32xf32> {
    lhs_layout = #thunk.matrix<row_major, rows = 8, cols = 32, leading_dim = 32>,
    rhs_layout = #thunk.matrix<row_major, rows = 32, cols = 8, leading_dim = 8>,
    out_layout = #thunk.matrix<row_major, rows = 8, cols = 8, leading_dim = 8>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<256xf32>
  %c = thunk.slice @t[1024] : memref<64xf32>
  // expected-error @+1 {{epilogue needs a bias}}
  thunk.gemm %a : memref<256xf32>, %a : memref<256xf32> -> %c : memref<64xf32> {
    lhs_layout = #thunk.matrix<row_major, rows = 8, cols = 32, leading_dim = 32>,
    rhs_layout = #thunk.matrix<row_major, rows = 32, cols = 8, leading_dim = 8>,
    out_layout = #thunk.matrix<row_major, rows = 8, cols = 8, leading_dim = 8>,
    epilogue = #thunk<epilogue bias>}
  thunk.return
}

// -----

// expected-error @+1 {{leading_dim 16 is less than the minor extent 32}}
#bad = #thunk.matrix<row_major, rows = 8, cols = 32, leading_dim = 16>

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<16xf32>
  %b = thunk.slice @t[64] : memref<8xf32>
  // expected-error @+1 {{copies 64 bytes into a slice of 32 bytes}}
  thunk.copy %a, %b : memref<16xf32>, memref<8xf32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<3xi8>
  // expected-error @+1 {{a nonzero 32-bit pattern needs a target whose size is a multiple of 4 bytes}}
  thunk.memset %a, 7 : memref<3xi8>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %p = thunk.slice @t[0] : memref<1xi32>
  // expected-error @+1 {{predicate must be one byte (memref<1xi8>), not 'memref<1xi32>'}}
  thunk.while %p : memref<1xi32> condition {
  } body {
  }
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %p = thunk.slice @t[0] : memref<1xi8>
  // expected-error @+1 {{with a predicate needs two branches, not 3}}
  thunk.conditional %p : memref<1xi8> {
  }, {
  }, {
  }
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %p = thunk.slice @t[0] : memref<1xi8>
  thunk.command_buffer {
    // expected-error @+1 {{cannot be recorded in a command buffer}}
    thunk.while %p : memref<1xi8> condition {
    } body {
    }
  }
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %p = thunk.slice @t[0] : memref<1xi8>
  thunk.conditional %p : memref<1xi8> {
    // expected-error @+1 {{'thunk.return' op expects parent op 'thunk.program'}}
    thunk.return
  }, {
  }
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
// expected-error @+1 {{result type 'memref<4xf32>' does not take the bytes of its slice ('memref<8xf32>')}}
thunk.program @main attributes {argument_types = [], result_types = [memref<4xf32>]} {
  %0 = thunk.slice @t[0] : memref<8xf32>
  thunk.return %0 : memref<8xf32>
}

// -----

thunk.allocation @t temp size = 4096
// expected-error @+1 {{has 2 result types for 1 returned slices}}
thunk.program @main attributes {result_types = [memref<8xf32>, memref<8xf32>]} {
  %0 = thunk.slice @t[0] : memref<8xf32>
  thunk.return %0 : memref<8xf32>
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xf32>
  %w = thunk.slice @t[4096] : memref<144xf32>
  %y = thunk.slice @t[8192] : memref<16xf32>
  %b = thunk.slice @t[12288] : memref<4xf32>
  // expected-error @+1 {{input, filter and output must have the same number of spatial dimensions}}
  thunk.convolution forward input(%x : memref<144xf32>) filter(%w : memref<144xf32>) output(%y : memref<16xf32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4], batch = 0, feature = 1, spatial = [2], minor_to_major = [2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xf32>
  %w = thunk.slice @t[4096] : memref<144xf32>
  %y = thunk.slice @t[8192] : memref<64xf32>
  %b = thunk.slice @t[12288] : memref<4xf32>
  // expected-error @+1 {{padding_low must have one entry per spatial dimension (2)}}
  thunk.convolution forward input(%x : memref<144xf32>) filter(%w : memref<144xf32>) output(%y : memref<64xf32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xf32>
  %w = thunk.slice @t[4096] : memref<144xf32>
  %y = thunk.slice @t[8192] : memref<64xf32>
  %b = thunk.slice @t[12288] : memref<4xf32>
  // expected-error @+1 {{window_strides must be positive}}
  thunk.convolution forward input(%x : memref<144xf32>) filter(%w : memref<144xf32>) output(%y : memref<64xf32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 0, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xf32>
  %w = thunk.slice @t[4096] : memref<144xf32>
  %y = thunk.slice @t[8192] : memref<64xf32>
  %b = thunk.slice @t[12288] : memref<4xf32>
  // expected-error @+1 {{feature_group_count must be positive}}
  thunk.convolution forward input(%x : memref<144xf32>) filter(%w : memref<144xf32>) output(%y : memref<64xf32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, feature_group_count = 0 : i64}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xf32>
  %w = thunk.slice @t[4096] : memref<144xf32>
  %y = thunk.slice @t[8192] : memref<128xf32>
  %b = thunk.slice @t[12288] : memref<4xf32>
  // expected-error @+1 {{input and output batch sizes differ (1 vs 2)}}
  thunk.convolution forward input(%x : memref<144xf32>) filter(%w : memref<144xf32>) output(%y : memref<128xf32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[2, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xf32>
  %w = thunk.slice @t[4096] : memref<144xf32>
  %y = thunk.slice @t[8192] : memref<64xf32>
  %b = thunk.slice @t[12288] : memref<4xf32>
  // expected-error @+1 {{input features (4) must be the filter's input features (4) times feature_group_count (2)}}
  thunk.convolution forward input(%x : memref<144xf32>) filter(%w : memref<144xf32>) output(%y : memref<64xf32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, feature_group_count = 2 : i64}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xf32>
  %w = thunk.slice @t[4096] : memref<288xf32>
  %y = thunk.slice @t[8192] : memref<64xf32>
  %b = thunk.slice @t[12288] : memref<4xf32>
  // expected-error @+1 {{output features (4) differ from the filter's (8)}}
  thunk.convolution forward input(%x : memref<144xf32>) filter(%w : memref<288xf32>) output(%y : memref<64xf32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[8, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xf32>
  %w = thunk.slice @t[4096] : memref<54xf32>
  %y = thunk.slice @t[8192] : memref<48xf32>
  %b = thunk.slice @t[12288] : memref<4xf32>
  // expected-error @+1 {{output features (3) are not a multiple of feature_group_count (2)}}
  thunk.convolution forward input(%x : memref<144xf32>) filter(%w : memref<54xf32>) output(%y : memref<48xf32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[3, 2, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 3, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, feature_group_count = 2 : i64}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xf32>
  %w = thunk.slice @t[4096] : memref<144xf32>
  %y = thunk.slice @t[8192] : memref<64xf32>
  %b = thunk.slice @t[12288] : memref<4xf32>
  // expected-error @+1 {{output spatial dimension 1 has 4 elements; the window gives 2}}
  thunk.convolution forward input(%x : memref<144xf32>) filter(%w : memref<144xf32>) output(%y : memref<64xf32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 2>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xi32>
  %w = thunk.slice @t[4096] : memref<144xi32>
  %y = thunk.slice @t[8192] : memref<64xi32>
  %b = thunk.slice @t[12288] : memref<4xi32>
  // expected-error @+1 {{element type must be f16, bf16, f32, f64 or i8, not 'i32'}}
  thunk.convolution forward input(%x : memref<144xi32>) filter(%w : memref<144xi32>) output(%y : memref<64xi32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xf32>
  %w = thunk.slice @t[4096] : memref<144xf16>
  %y = thunk.slice @t[8192] : memref<64xf32>
  %b = thunk.slice @t[12288] : memref<4xf32>
  // expected-error @+1 {{filter must have element type 'f32'}}
  thunk.convolution forward input(%x : memref<144xf32>) filter(%w : memref<144xf16>) output(%y : memref<64xf32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>}
  thunk.return
}

// -----

// i8 convolutions (cuDNN's types): forward ones only, an i8 or f32 output,
// an f32 bias.
thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xi8>
  %w = thunk.slice @t[4096] : memref<144xi8>
  %y = thunk.slice @t[8192] : memref<64xi8>
  // expected-error @+1 {{i8 convolutions are forward ones}}
  thunk.convolution backward_input input(%x : memref<144xi8>) filter(%w : memref<144xi8>) output(%y : memref<64xi8>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xi8>
  %w = thunk.slice @t[4096] : memref<144xi8>
  %y = thunk.slice @t[8192] : memref<64xf16>
  // expected-error @+1 {{an i8 convolution's output must be i8 or f32, not 'f16'}}
  thunk.convolution forward input(%x : memref<144xi8>) filter(%w : memref<144xi8>) output(%y : memref<64xf16>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xi8>
  %w = thunk.slice @t[4096] : memref<144xi8>
  %y = thunk.slice @t[8192] : memref<64xi8>
  %b = thunk.slice @t[12288] : memref<4xi8>
  // expected-error @+1 {{bias must have element type 'f32'}}
  thunk.convolution forward_bias_activation input(%x : memref<144xi8>) filter(%w : memref<144xi8>) output(%y : memref<64xi8>) bias(%b : memref<4xi8>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<100xf32>
  %w = thunk.slice @t[4096] : memref<144xf32>
  %y = thunk.slice @t[8192] : memref<64xf32>
  %b = thunk.slice @t[12288] : memref<4xf32>
  // expected-error @+1 {{input has 100 elements; its layout needs 144}}
  thunk.convolution forward input(%x : memref<100xf32>) filter(%w : memref<144xf32>) output(%y : memref<64xf32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xf32>
  %w = thunk.slice @t[4096] : memref<144xf32>
  %y = thunk.slice @t[8192] : memref<64xf32>
  %b = thunk.slice @t[12288] : memref<4xf32>
  // expected-error @+1 {{forward_bias_activation needs a bias}}
  thunk.convolution forward_bias_activation input(%x : memref<144xf32>) filter(%w : memref<144xf32>) output(%y : memref<64xf32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xf32>
  %w = thunk.slice @t[4096] : memref<144xf32>
  %y = thunk.slice @t[8192] : memref<64xf32>
  %b = thunk.slice @t[12288] : memref<4xf32>
  // expected-error @+1 {{only forward_bias_activation takes a bias}}
  thunk.convolution forward input(%x : memref<144xf32>) filter(%w : memref<144xf32>) output(%y : memref<64xf32>) bias(%b : memref<4xf32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xf32>
  %w = thunk.slice @t[4096] : memref<144xf32>
  %y = thunk.slice @t[8192] : memref<64xf32>
  %b = thunk.slice @t[12288] : memref<4xf32>
  // expected-error @+1 {{only forward_bias_activation takes a side input}}
  thunk.convolution forward input(%x : memref<144xf32>) filter(%w : memref<144xf32>) output(%y : memref<64xf32>) side_input(%y : memref<64xf32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xf32>
  %w = thunk.slice @t[4096] : memref<144xf32>
  %y = thunk.slice @t[8192] : memref<64xf32>
  %b = thunk.slice @t[12288] : memref<4xf32>
  // expected-error @+1 {{activation and scales are for forward_bias_activation}}
  thunk.convolution forward input(%x : memref<144xf32>) filter(%w : memref<144xf32>) output(%y : memref<64xf32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, activation = #thunk<conv_activation relu>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xf32>
  %w = thunk.slice @t[4096] : memref<288xf32>
  %y = thunk.slice @t[8192] : memref<128xf32>
  %b = thunk.slice @t[12288] : memref<4xf32>
  // expected-error @+1 {{bias must have one element per output feature (8)}}
  thunk.convolution forward_bias_activation input(%x : memref<144xf32>) filter(%w : memref<288xf32>) output(%y : memref<128xf32>) bias(%b : memref<4xf32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[8, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 8, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 65536
thunk.program @main {
  %x = thunk.slice @t[0] : memref<144xf32>
  %w = thunk.slice @t[4096] : memref<144xf32>
  %y = thunk.slice @t[8192] : memref<64xf32>
  %b = thunk.slice @t[12288] : memref<4xf32>
  // expected-error @+1 {{algorithm must be -1 (heuristic) or an algorithm id}}
  thunk.convolution forward input(%x : memref<144xf32>) filter(%w : memref<144xf32>) output(%y : memref<64xf32>) {
    input_layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, filter_layout = #thunk.conv_tensor<[4, 4, 3, 3], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>, output_layout = #thunk.conv_tensor<[1, 4, 4, 4], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>,
    window_strides = array<i64: 1, 1>, padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, algorithm = -2 : i64}
  thunk.return
}

// -----

// expected-error @+1 {{batch, feature and spatial must name each of the 4 dimensions once}}
thunk.allocation @t temp size = 16 {layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 0, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>}

// -----

// expected-error @+1 {{minor_to_major must be a permutation of the 4 dimensions}}
thunk.allocation @t temp size = 16 {layout = #thunk.conv_tensor<[1, 4, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1]>}

// -----

// expected-error @+1 {{extents must be positive}}
thunk.allocation @t temp size = 16 {layout = #thunk.conv_tensor<[1, 0, 6, 6], batch = 0, feature = 1, spatial = [2, 3], minor_to_major = [3, 2, 1, 0]>}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<4x6xf32>
  %1 = thunk.slice @t[256] : memref<4x5xcomplex<f32>>
  // expected-error @+1 {{with length [8] a irfft needs innermost input dimensions [5] and output dimensions [8], not 'memref<4x5xcomplex<f32>>' and 'memref<4x6xf32>'}}
  thunk.fft irfft %1 : memref<4x5xcomplex<f32>> -> %0 : memref<4x6xf32> length [8]
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<4x8xf32>
  %1 = thunk.slice @t[256] : memref<4x5xcomplex<f64>>
  // expected-error @+1 {{a rfft reads 'f64' and writes 'complex<f64>'}}
  thunk.fft rfft %0 : memref<4x8xf32> -> %1 : memref<4x5xcomplex<f64>> length [8]
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<4x8xcomplex<f32>>
  %1 = thunk.slice @t[256] : memref<2x8xcomplex<f32>>
  // expected-error @+1 {{the input and the output must have the same batch dimensions}}
  thunk.fft fft %0 : memref<4x8xcomplex<f32>> -> %1 : memref<2x8xcomplex<f32>> length [8]
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<2x2x2x2xcomplex<f32>>
  // expected-error @+1 {{transforms one to three dimensions, not 4}}
  thunk.fft fft %0 : memref<2x2x2x2xcomplex<f32>> -> %0 : memref<2x2x2x2xcomplex<f32>> length [2, 2, 2, 2]
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<8xf16>
  // expected-error @+1 {{transforms complex<f32> or complex<f64>}}
  thunk.fft rfft %0 : memref<8xf16> -> %0 : memref<8xf16> length [8]
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<8xcomplex<f32>, strided<[2]>>
  // expected-error @+1 {{takes row-major slices, not 'memref<8xcomplex<f32>, strided<[2]>>'}}
  thunk.fft fft %0 : memref<8xcomplex<f32>, strided<[2]>> -> %0 : memref<8xcomplex<f32>, strided<[2]>> length [8]
  thunk.return
}

// -----

// expected-error @+1 {{size must not be negative}}
thunk.allocation @t temp size = -8

// -----

thunk.allocation @t temp size = 8
thunk.program @main {
  // expected-error @+1 {{offset must not be negative}}
  %a = thunk.slice @t[-4] : memref<1xf32>
  thunk.return
}

// -----

// Triangular solves and Cholesky factorizations read column-major matrices.
thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<4x4xf32>
  %b = thunk.slice @t[256] : memref<4x3xf32, strided<[1, 4]>>
  // expected-error @+1 {{takes batches of column-major matrices (strides of the Fortran layout), not 'memref<4x4xf32>'}}
  thunk.triangular_solve left_side notrans %a, %b : memref<4x4xf32>, memref<4x3xf32, strided<[1, 4]>>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<4x4xf32, strided<[1, 4]>>
  %b = thunk.slice @t[256] : memref<4x3xf32, strided<[1, 4]>>
  // expected-error @+1 {{a must be 3 x 3 (b's columns)}}
  thunk.triangular_solve notrans %a, %b : memref<4x4xf32, strided<[1, 4]>>, memref<4x3xf32, strided<[1, 4]>>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<2x3x3xf32, strided<[9, 1, 3]>>
  %b = thunk.slice @t[256] : memref<3x3x2xf32, strided<[6, 1, 3]>>
  // expected-error @+1 {{a and b must have the same batch dimensions}}
  thunk.triangular_solve left_side trans %a, %b : memref<2x3x3xf32, strided<[9, 1, 3]>>, memref<3x3x2xf32, strided<[6, 1, 3]>>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<3x3xf16, strided<[1, 3]>>
  // expected-error @+1 {{a and b must have one element type of f32, f64, complex<f32>, complex<f64>}}
  thunk.triangular_solve left_side notrans %a, %a : memref<3x3xf16, strided<[1, 3]>>, memref<3x3xf16, strided<[1, 3]>>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<2x3x3xf64, strided<[9, 1, 3]>>
  %info = thunk.slice @t[512] : memref<3xi32>
  // expected-error @+1 {{info must hold one i32 per matrix (2)}}
  thunk.cholesky lower %a, %info : memref<2x3x3xf64, strided<[9, 1, 3]>>, memref<3xi32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<2x3x3xf64, strided<[9, 3, 1]>>
  %info = thunk.slice @t[512] : memref<2xi32>
  // expected-error @+1 {{takes a batch of column-major matrices (strides of the Fortran layout), not 'memref<2x3x3xf64, strided<[9, 3, 1]>>'}}
  thunk.cholesky %a, %info : memref<2x3x3xf64, strided<[9, 3, 1]>>, memref<2xi32>
  thunk.return
}

// -----

// A bounded dynamic array's slice: the bytes at its bounds, then an i32 per
// dimension.
thunk.allocation @t temp size = 4096
thunk.program @main {
  %d = thunk.slice @t[0] : memref<24xi8>
  %s = thunk.slice @t[64] : memref<1xi32>
  %a = thunk.slice @t[128] : memref<2x3xf32>
  // expected-error @+1 {{the dynamic array takes the bytes of its bounds and one i32 size per dimension: memref<32xi8>, not 'memref<24xi8>'}}
  thunk.pad_to_static %d : memref<24xi8> -> %a : memref<2x3xf32> sizes(%s, %s : memref<1xi32>, memref<1xi32>)
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %d = thunk.slice @t[0] : memref<32xi8>
  %s = thunk.slice @t[64] : memref<1xi32>
  %a = thunk.slice @t[128] : memref<2x3xf32>
  // expected-error @+1 {{takes one size per dimension (2), not 1}}
  thunk.slice_to_dynamic %a : memref<2x3xf32> sizes(%s : memref<1xi32>) -> %d : memref<32xi8>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %d = thunk.slice @t[0] : memref<12xi8>
  %s = thunk.slice @t[64] : memref<1xi32>
  %a = thunk.slice @t[128] : memref<2x8xi4>
  // expected-error @+1 {{does not take packed 'i4' elements yet}}
  thunk.slice_to_dynamic %a : memref<2x8xi4> sizes(%s, %s : memref<1xi32>, memref<1xi32>) -> %d : memref<12xi8>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<3x2xf64>
  %tau = thunk.slice @t[512] : memref<2xf64>
  // expected-error @+1 {{takes a batch of column-major matrices (strides of the Fortran layout), not 'memref<3x2xf64>'}}
  thunk.qr %a, %tau : memref<3x2xf64>, memref<2xf64>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<3x2xf64, strided<[1, 3]>>
  %tau = thunk.slice @t[512] : memref<1xf64>
  // expected-error @+1 {{tau must hold min(m, n) scales per matrix, not 'memref<1xf64>'}}
  thunk.qr %a, %tau : memref<3x2xf64, strided<[1, 3]>>, memref<1xf64>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<3x2xf64, strided<[1, 3]>>
  %tau = thunk.slice @t[512] : memref<2xf32>
  // expected-error @+1 {{takes f32, f64, complex<f32> or complex<f64> matrices and scales of their type}}
  thunk.householder_product %a, %tau : memref<3x2xf64, strided<[1, 3]>>, memref<2xf32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<4x3xf32, strided<[1, 4]>>
  %piv = thunk.slice @t[512] : memref<4xi32>
  %info = thunk.slice @t[600] : memref<i32>
  // expected-error @+1 {{pivots must hold 3 'i32' per matrix (1 matrices) in a dense array, not 'memref<4xi32>'}}
  thunk.lu %a, %piv, %info : memref<4x3xf32, strided<[1, 4]>>, memref<4xi32>, memref<i32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<2x4x3xf32, strided<[12, 1, 4]>>
  %piv = thunk.slice @t[512] : memref<2x3xi32, strided<[1, 2]>>
  %info = thunk.slice @t[600] : memref<2xi32>
  // expected-error @+1 {{pivots must hold 3 'i32' per matrix (2 matrices) in a dense array, not 'memref<2x3xi32, strided<[1, 2]>>'}}
  thunk.lu %a, %piv, %info : memref<2x4x3xf32, strided<[12, 1, 4]>>, memref<2x3xi32, strided<[1, 2]>>, memref<2xi32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<4x3xi32, strided<[1, 4]>>
  %piv = thunk.slice @t[512] : memref<3xi32>
  %info = thunk.slice @t[600] : memref<i32>
  // expected-error @+1 {{factors f32, f64, complex<f32> or complex<f64>}}
  thunk.lu %a, %piv, %info : memref<4x3xi32, strided<[1, 4]>>, memref<3xi32>, memref<i32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %piv = thunk.slice @t[0] : memref<2x5xi32>
  %perm = thunk.slice @t[512] : memref<2x4xi32>
  // expected-error @+1 {{a matrix of 4 rows has at most as many pivots, not 5}}
  thunk.lu_pivots_to_permutation %piv, %perm : memref<2x5xi32>, memref<2x4xi32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %piv = thunk.slice @t[0] : memref<3x2xi32>
  %perm = thunk.slice @t[512] : memref<2x4xi32>
  // expected-error @+1 {{pivots and permutation must have the same batch dimensions}}
  thunk.lu_pivots_to_permutation %piv, %perm : memref<3x2xi32>, memref<2x4xi32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<2x2xcomplex<f32>, strided<[1, 2]>>
  %w = thunk.slice @t[512] : memref<2xcomplex<f32>>
  %info = thunk.slice @t[600] : memref<i32>
  // expected-error @+1 {{w must hold 2 'f32' per matrix (1 matrices) in a dense array, not 'memref<2xcomplex<f32>>'}}
  thunk.eigh vectors %a, %w, %info : memref<2x2xcomplex<f32>, strided<[1, 2]>>, memref<2xcomplex<f32>>, memref<i32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<3x2xf32, strided<[1, 3]>>
  %w = thunk.slice @t[512] : memref<2xf32>
  %info = thunk.slice @t[600] : memref<i32>
  // expected-error @+1 {{the matrices must be square}}
  thunk.eigh vectors %a, %w, %info : memref<3x2xf32, strided<[1, 3]>>, memref<2xf32>, memref<i32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<2x2xf32, strided<[1, 2]>>
  %w = thunk.slice @t[512] : memref<2xf32>
  %v = thunk.slice @t[600] : memref<2x2xcomplex<f32>, strided<[1, 2]>>
  %info = thunk.slice @t[800] : memref<i32>
  // expected-error @+1 {{needs the imaginary parts (wi) of the eigenvalues of real matrices}}
  thunk.eig right %a, %w, %v, %v, %info : memref<2x2xf32, strided<[1, 2]>>, memref<2xf32>, memref<2x2xcomplex<f32>, strided<[1, 2]>>, memref<2x2xcomplex<f32>, strided<[1, 2]>>, memref<i32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<2x2xf32, strided<[1, 2]>>
  %w = thunk.slice @t[512] : memref<2xf32>
  %v = thunk.slice @t[600] : memref<2x2xf32, strided<[1, 2]>>
  %info = thunk.slice @t[800] : memref<i32>
  // expected-error @+1 {{vl must be a column-major 'complex<f32>' batch of the shape of a, not 'memref<2x2xf32, strided<[1, 2]>>'}}
  thunk.eig left %a, %w imag %w, %v, %v, %info : memref<2x2xf32, strided<[1, 2]>>, memref<2xf32> imag memref<2xf32>, memref<2x2xf32, strided<[1, 2]>>, memref<2x2xf32, strided<[1, 2]>>, memref<i32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<3x2xf32, strided<[1, 3]>>
  %s = thunk.slice @t[512] : memref<2xf32>
  %u = thunk.slice @t[600] : memref<3x2xf32, strided<[1, 3]>>
  %v = thunk.slice @t[700] : memref<2x2xf32, strided<[1, 2]>>
  %info = thunk.slice @t[800] : memref<i32>
  // expected-error @+1 {{u must be a column-major 'f32' batch of shape 'tensor<3x3xf32>', not 'memref<3x2xf32, strided<[1, 3]>>'}}
  thunk.svd all %a, %s, %u, %v, %info : memref<3x2xf32, strided<[1, 3]>>, memref<2xf32>, memref<3x2xf32, strided<[1, 3]>>, memref<2x2xf32, strided<[1, 2]>>, memref<i32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<2x3xf32, strided<[1, 2]>>
  %s = thunk.slice @t[512] : memref<2xf32>
  %u = thunk.slice @t[600] : memref<2x2xf32, strided<[1, 2]>>
  %v = thunk.slice @t[700] : memref<2x3xf32, strided<[1, 2]>>
  %info = thunk.slice @t[800] : memref<i32>
  // expected-error @+1 {{v must be a column-major 'f32' batch of shape 'tensor<3x2xf32>', not 'memref<2x3xf32, strided<[1, 2]>>'}}
  thunk.svd reduced adjoint_v %a, %s, %u, %v, %info : memref<2x3xf32, strided<[1, 2]>>, memref<2xf32>, memref<2x2xf32, strided<[1, 2]>>, memref<2x3xf32, strided<[1, 2]>>, memref<i32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<2x2xcomplex<f32>, strided<[1, 2]>>
  %w = thunk.slice @t[512] : memref<2xcomplex<f32>>
  %info = thunk.slice @t[800] : memref<i32>
  // expected-error @+1 {{takes the eigenvalues of complex matrices as complex values, no imaginary parts (wi)}}
  thunk.schur vectors %a, %a, %w imag %w, %info : memref<2x2xcomplex<f32>, strided<[1, 2]>>, memref<2x2xcomplex<f32>, strided<[1, 2]>>, memref<2xcomplex<f32>> imag memref<2xcomplex<f32>>, memref<i32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<2x2xf32, strided<[1, 2]>>
  %vs = thunk.slice @t[256] : memref<2x2xf32>
  %w = thunk.slice @t[512] : memref<2xf32>
  %info = thunk.slice @t[800] : memref<i32>
  // expected-error @+1 {{vs must be a column-major batch of a's type, not 'memref<2x2xf32>'}}
  thunk.schur vectors %a, %vs, %w imag %w, %info : memref<2x2xf32, strided<[1, 2]>>, memref<2x2xf32>, memref<2xf32> imag memref<2xf32>, memref<i32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<4x4xf64, strided<[1, 4]>>
  %tau = thunk.slice @t[512] : memref<3xf64>
  %info = thunk.slice @t[800] : memref<i32>
  // expected-error @+1 {{low and high must satisfy 1 <= low <= high <= n (4), or low = 1 and high = 0 for n = 0}}
  thunk.hessenberg %a, %tau, %info low 0 high 4 : memref<4x4xf64, strided<[1, 4]>>, memref<3xf64>, memref<i32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<4x4xf64, strided<[1, 4]>>
  %tau = thunk.slice @t[512] : memref<4xf64>
  %info = thunk.slice @t[800] : memref<i32>
  // expected-error @+1 {{tau must hold 3 'f64' per matrix (1 matrices) in a dense array, not 'memref<4xf64>'}}
  thunk.hessenberg %a, %tau, %info low 1 high 4 : memref<4x4xf64, strided<[1, 4]>>, memref<4xf64>, memref<i32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<2x2xcomplex<f32>, strided<[1, 2]>>
  %d = thunk.slice @t[512] : memref<2xcomplex<f32>>
  %e = thunk.slice @t[600] : memref<1xf32>
  %tau = thunk.slice @t[700] : memref<1xcomplex<f32>>
  %info = thunk.slice @t[800] : memref<i32>
  // expected-error @+1 {{d must hold 2 'f32' per matrix (1 matrices) in a dense array, not 'memref<2xcomplex<f32>>'}}
  thunk.tridiagonal %a, %d, %e, %tau, %info : memref<2x2xcomplex<f32>, strided<[1, 2]>>, memref<2xcomplex<f32>>, memref<1xf32>, memref<1xcomplex<f32>>, memref<i32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %dl = thunk.slice @t[0] : memref<3xf32>
  %d = thunk.slice @t[64] : memref<4xf32>
  %b = thunk.slice @t[512] : memref<4x2xf32, strided<[1, 4]>>
  // expected-error @+1 {{dl must hold 4 'f32' per matrix (1 matrices) in a dense array, not 'memref<3xf32>'}}
  thunk.tridiagonal_solve %dl, %d, %d, %b : memref<3xf32>, memref<4xf32>, memref<4xf32>, memref<4x2xf32, strided<[1, 4]>>
  thunk.return
}

// -----

// A dynamic copy moves with the iteration of a loop of known trip count,
// within its slices at every iteration, and is never recorded.

thunk.allocation @t temp size = 4096
thunk.program @main {
  %p = thunk.slice @t[0] : memref<1xi8>
  %a = thunk.slice @t[64] : memref<16xf32>
  %b = thunk.slice @t[128] : memref<4xf32>
  // expected-error @+1 {{must be in the body of a thunk.while with a trip_count}}
  thunk.dynamic_copy %a[0 + 16 * iteration], %b[0 + 0 * iteration], 16 bytes : memref<16xf32>, memref<4xf32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %p = thunk.slice @t[0] : memref<1xi8>
  %a = thunk.slice @t[64] : memref<16xf32>
  %b = thunk.slice @t[128] : memref<4xf32>
  thunk.while %p : memref<1xi8> condition {
  } body {
    // expected-error @+1 {{must be in the body of a thunk.while with a trip_count}}
    thunk.dynamic_copy %a[0 + 16 * iteration], %b[0 + 0 * iteration], 16 bytes : memref<16xf32>, memref<4xf32>
  }
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %p = thunk.slice @t[0] : memref<1xi8>
  %a = thunk.slice @t[64] : memref<16xf32>
  %b = thunk.slice @t[128] : memref<4xf32>
  thunk.while %p : memref<1xi8> {trip_count = 4 : i64} condition {
    // expected-error @+1 {{must be in the body of a thunk.while with a trip_count}}
    thunk.dynamic_copy %a[0 + 16 * iteration], %b[0 + 0 * iteration], 16 bytes : memref<16xf32>, memref<4xf32>
  } body {
  }
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %p = thunk.slice @t[0] : memref<1xi8>
  %a = thunk.slice @t[64] : memref<16xf32>
  %b = thunk.slice @t[128] : memref<4xf32>
  thunk.while %p : memref<1xi8> {trip_count = 5 : i64} condition {
  } body {
    // expected-error @+1 {{copies 16 bytes at byte 64 of the source, a slice of 64 bytes}}
    thunk.dynamic_copy %a[0 + 16 * iteration], %b[0 + 0 * iteration], 16 bytes : memref<16xf32>, memref<4xf32>
  }
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %p = thunk.slice @t[0] : memref<1xi8>
  %a = thunk.slice @t[64] : memref<16xf32>
  %b = thunk.slice @t[128] : memref<4xf32>
  thunk.while %p : memref<1xi8> {trip_count = 4 : i64} condition {
  } body {
    // expected-error @+1 {{copies 16 bytes at byte -4 of the target, a slice of 16 bytes}}
    thunk.dynamic_copy %a[0 + 16 * iteration], %b[-4 + 0 * iteration], 16 bytes : memref<16xf32>, memref<4xf32>
  }
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %p = thunk.slice @t[0] : memref<1xi8>
  %a = thunk.slice @t[64] : memref<16xf32>
  %b = thunk.slice @t[128] : memref<4xf32>
  thunk.while %p : memref<1xi8> {trip_count = 4 : i64} condition {
  } body {
    // expected-error @+1 {{the source offset overflows}}
    thunk.dynamic_copy %a[0 + 4611686018427387904 * iteration], %b[0 + 0 * iteration], 16 bytes : memref<16xf32>, memref<4xf32>
  }
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %p = thunk.slice @t[0] : memref<1xi8>
  %a = thunk.slice @t[64] : memref<16xf32>
  %b = thunk.slice @t[128] : memref<4xf32>
  thunk.while %p : memref<1xi8> {trip_count = 4 : i64} condition {
  } body {
    thunk.command_buffer {
      // expected-error @+1 {{cannot be recorded in a command buffer}}
      thunk.dynamic_copy %a[0 + 16 * iteration], %b[0 + 0 * iteration], 16 bytes : memref<16xf32>, memref<4xf32>
    }
  }
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
gpu.module @kernels {
  gpu.func @k(%a: memref<16xf32>, %b: memref<16xf32>) kernel {
    gpu.return
  }
}
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<16xf32>
  %1 = thunk.slice @t[64] : memref<16xf32>
  // expected-error @+1 {{a transpose of 12 elements has a slice of 16}}
  thunk.kernel @kernels::@k grid [1, 1, 1] block [16, 1, 1] ins(%0 : memref<16xf32>) outs(%1 : memref<16xf32>) {transpose = #thunk.transpose<[3, 4], permutation = [1, 0]>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
gpu.module @kernels {
  gpu.func @k(%a: memref<16xf32>) kernel {
    gpu.return
  }
}
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<16xf32>
  // expected-error @+1 {{a transpose has one input and one output}}
  thunk.kernel @kernels::@k grid [1, 1, 1] block [16, 1, 1] outs(%0 : memref<16xf32>) {transpose = #thunk.transpose<[4, 4], permutation = [1, 0]>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
gpu.module @kernels {
  gpu.func @k(%a: memref<16xf32>, %b: memref<16xi32>) kernel {
    gpu.return
  }
}
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<16xf32>
  %1 = thunk.slice @t[64] : memref<16xi32>
  // expected-error @+1 {{a transpose's input and output must have one element type of whole bytes}}
  thunk.kernel @kernels::@k grid [1, 1, 1] block [16, 1, 1] ins(%0 : memref<16xf32>) outs(%1 : memref<16xi32>) {transpose = #thunk.transpose<[4, 4], permutation = [1, 0]>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
gpu.module @kernels {
  gpu.func @k(%a: memref<16xf32>, %b: memref<16xf32>) kernel {
    gpu.return
  }
}
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<16xf32>
  %1 = thunk.slice @t[64] : memref<16xf32>
  // expected-error @+1 {{permutation must list each of the 2 dimensions once}}
  thunk.kernel @kernels::@k grid [1, 1, 1] block [16, 1, 1] ins(%0 : memref<16xf32>) outs(%1 : memref<16xf32>) {transpose = #thunk.transpose<[4, 4], permutation = [1, 1]>}
  thunk.return
}

// -----

// cuBLASLt's fp8 GEMM multiplies no two e5m2 operands.
thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<512xf8E5M2>
  %s = thunk.slice @t[1024] : memref<1xf32>
  %d = thunk.slice @t[2048] : memref<256xf32>
  // expected-error @+1 {{fp8 operands must be e4m3fn and e5m2, not both e5m2}}
  thunk.gemm %a : memref<512xf8E5M2>, %a : memref<512xf8E5M2>
      a_scale %s : memref<1xf32> b_scale %s : memref<1xf32> -> %d : memref<256xf32> {
    lhs_layout = #thunk.matrix<row_major, rows = 16, cols = 32, leading_dim = 32>,
    rhs_layout = #thunk.matrix<column_major, rows = 32, cols = 16, leading_dim = 32>,
    out_layout = #thunk.matrix<row_major, rows = 16, cols = 16, leading_dim = 16>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<512xf8E4M3FN>
  %s = thunk.slice @t[1024] : memref<1xf32>
  %d = thunk.slice @t[2048] : memref<256xf32>
  // expected-error @+1 {{an fp8 GEMM needs a_scale and b_scale}}
  thunk.gemm %a : memref<512xf8E4M3FN>, %a : memref<512xf8E4M3FN>
      a_scale %s : memref<1xf32> -> %d : memref<256xf32> {
    lhs_layout = #thunk.matrix<row_major, rows = 16, cols = 32, leading_dim = 32>,
    rhs_layout = #thunk.matrix<column_major, rows = 32, cols = 16, leading_dim = 32>,
    out_layout = #thunk.matrix<row_major, rows = 16, cols = 16, leading_dim = 16>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<512xf8E4M3FN>
  %s = thunk.slice @t[1024] : memref<2xf32>
  %d = thunk.slice @t[2048] : memref<256xf32>
  // expected-error @+1 {{scales and the amax must be one f32 element each}}
  thunk.gemm %a : memref<512xf8E4M3FN>, %a : memref<512xf8E4M3FN>
      a_scale %s : memref<2xf32> b_scale %s : memref<2xf32> -> %d : memref<256xf32> {
    lhs_layout = #thunk.matrix<row_major, rows = 16, cols = 32, leading_dim = 32>,
    rhs_layout = #thunk.matrix<column_major, rows = 32, cols = 16, leading_dim = 32>,
    out_layout = #thunk.matrix<row_major, rows = 16, cols = 16, leading_dim = 16>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<512xf32>
  %s = thunk.slice @t[1024] : memref<1xf32>
  %d = thunk.slice @t[2048] : memref<256xf32>
  // expected-error @+1 {{only fp8 GEMMs take scales}}
  thunk.gemm %a : memref<512xf32>, %a : memref<512xf32>
      a_scale %s : memref<1xf32> b_scale %s : memref<1xf32> -> %d : memref<256xf32> {
    lhs_layout = #thunk.matrix<row_major, rows = 16, cols = 32, leading_dim = 32>,
    rhs_layout = #thunk.matrix<column_major, rows = 32, cols = 16, leading_dim = 32>,
    out_layout = #thunk.matrix<row_major, rows = 16, cols = 16, leading_dim = 16>}
  thunk.return
}

// -----

// cuBLASLt's fast accumulation is an fp8 mode.
thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<512xf32>
  %d = thunk.slice @t[2048] : memref<256xf32>
  // expected-error @+1 {{fast_accum is for fp8 operands}}
  thunk.gemm %a : memref<512xf32>, %a : memref<512xf32> -> %d : memref<256xf32> {
    fast_accum,
    lhs_layout = #thunk.matrix<row_major, rows = 16, cols = 32, leading_dim = 32>,
    rhs_layout = #thunk.matrix<column_major, rows = 32, cols = 16, leading_dim = 32>,
    out_layout = #thunk.matrix<row_major, rows = 16, cols = 16, leading_dim = 16>}
  thunk.return
}

// -----

// TF32 rounds f32 operands.
thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<512xf16>
  %d = thunk.slice @t[2048] : memref<256xf32>
  // expected-error @+1 {{tf32 multiplies f32 operands into an f32 output}}
  thunk.gemm %a : memref<512xf16>, %a : memref<512xf16> -> %d : memref<256xf32> {
    tf32,
    lhs_layout = #thunk.matrix<row_major, rows = 16, cols = 32, leading_dim = 32>,
    rhs_layout = #thunk.matrix<column_major, rows = 32, cols = 16, leading_dim = 32>,
    out_layout = #thunk.matrix<row_major, rows = 16, cols = 16, leading_dim = 16>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<512xf8E4M3FN>
  %s = thunk.slice @t[1024] : memref<1xf32>
  %d = thunk.slice @t[2048] : memref<256xf8E4M3FN>
  // expected-error @+1 {{an fp8 output adds C only from a bf16 or f16 c of its own}}
  thunk.gemm %a : memref<512xf8E4M3FN>, %a : memref<512xf8E4M3FN>
      a_scale %s : memref<1xf32> b_scale %s : memref<1xf32> -> %d : memref<256xf8E4M3FN> {
    lhs_layout = #thunk.matrix<row_major, rows = 16, cols = 32, leading_dim = 32>,
    rhs_layout = #thunk.matrix<column_major, rows = 32, cols = 16, leading_dim = 32>,
    out_layout = #thunk.matrix<row_major, rows = 16, cols = 16, leading_dim = 16>,
    beta = 1.0}
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<512xf8E4M3FN>
  %s = thunk.slice @t[1024] : memref<1xf32>
  %c = thunk.slice @t[1536] : memref<256xf32>
  %d = thunk.slice @t[2560] : memref<256xf8E4M3FN>
  // expected-error @+1 {{c must have the output's element type (bf16 or f16 for an fp8 output) and layout}}
  thunk.gemm %a : memref<512xf8E4M3FN>, %a : memref<512xf8E4M3FN> c %c : memref<256xf32>
      a_scale %s : memref<1xf32> b_scale %s : memref<1xf32> -> %d : memref<256xf8E4M3FN> {
    lhs_layout = #thunk.matrix<row_major, rows = 16, cols = 32, leading_dim = 32>,
    rhs_layout = #thunk.matrix<column_major, rows = 32, cols = 16, leading_dim = 32>,
    out_layout = #thunk.matrix<row_major, rows = 16, cols = 16, leading_dim = 16>,
    beta = 1.0}
  thunk.return
}

// -----

thunk.allocation @t temp size = 8192
thunk.program @main {
  %a = thunk.slice @t[0] : memref<512xf32>
  %c = thunk.slice @t[4096] : memref<256xf32>
  %d = thunk.slice @t[6144] : memref<256xf32>
  // expected-error @+1 {{c is added with beta, which is 0}}
  thunk.gemm %a : memref<512xf32>, %a : memref<512xf32> c %c : memref<256xf32> -> %d : memref<256xf32> {
    lhs_layout = #thunk.matrix<row_major, rows = 16, cols = 32, leading_dim = 32>,
    rhs_layout = #thunk.matrix<column_major, rows = 32, cols = 16, leading_dim = 32>,
    out_layout = #thunk.matrix<row_major, rows = 16, cols = 16, leading_dim = 16>}
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<4x8xcomplex<f32>>
  %1 = thunk.slice @t[512] : memref<64xui8>
  // expected-error @+1 {{keys must be 8- to 64-bit integers, f16, bf16, f32 or f64, not 'complex<f32>'}}
  thunk.radix_sort %0 : memref<4x8xcomplex<f32>> -> %0 : memref<4x8xcomplex<f32>> scratch %1 : memref<64xui8>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<4x8xf32>
  %1 = thunk.slice @t[128] : memref<8x4xf32>
  %2 = thunk.slice @t[512] : memref<64xui8>
  // expected-error @+1 {{sorts arrays of the keys' shape into arrays of their own type, not 'memref<4x8xf32>' into 'memref<8x4xf32>'}}
  thunk.radix_sort %0 : memref<4x8xf32> -> %1 : memref<8x4xf32> scratch %2 : memref<64xui8>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<4x8xf32, strided<[1, 4]>>
  %1 = thunk.slice @t[128] : memref<4x8xf32>
  %2 = thunk.slice @t[512] : memref<64xui8>
  // expected-error @+1 {{takes row-major slices, not 'memref<4x8xf32, strided<[1, 4]>>', 'memref<4x8xf32>'}}
  thunk.radix_sort %0 : memref<4x8xf32, strided<[1, 4]>> -> %1 : memref<4x8xf32> scratch %2 : memref<64xui8>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<4x8xi32>
  %1 = thunk.slice @t[128] : memref<4x8xi32>
  %2 = thunk.slice @t[256] : memref<4x8xf16>
  %3 = thunk.slice @t[512] : memref<64xui8>
  // expected-error @+1 {{sorts arrays of the keys' shape into arrays of their own type, not 'memref<4x8xi32>' into 'memref<4x8xf16>'}}
  thunk.radix_sort %0 : memref<4x8xi32> values %1 : memref<4x8xi32> -> %0 : memref<4x8xi32> values %2 : memref<4x8xf16> scratch %3 : memref<64xui8>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<4x8xi32>
  %1 = thunk.slice @t[512] : memref<16xf32>
  // expected-error @+1 {{scratch must be a byte array, not 'memref<16xf32>'}}
  thunk.radix_sort %0 : memref<4x8xi32> -> %0 : memref<4x8xi32> scratch %1 : memref<16xf32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<4x8xf16>
  %1 = thunk.slice @t[512] : memref<4x2xf16>
  %2 = thunk.slice @t[1024] : memref<4x2xi32>
  // expected-error @+1 {{takes f32 or bf16 elements, not 'f16'}}
  thunk.top_k %0 : memref<4x8xf16> -> %1 : memref<4x2xf16>, %2 : memref<4x2xi32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<4x8xf32>
  %1 = thunk.slice @t[512] : memref<4x2xf32>
  %2 = thunk.slice @t[1024] : memref<4x2xi64>
  // expected-error @+1 {{writes values of the input's type and i32 indices, not 'memref<4x2xf32>', 'memref<4x2xi64>'}}
  thunk.top_k %0 : memref<4x8xf32> -> %1 : memref<4x2xf32>, %2 : memref<4x2xi64>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<4x8xf32>
  %1 = thunk.slice @t[512] : memref<2xf32>
  %2 = thunk.slice @t[1024] : memref<2xi32>
  // expected-error @+1 {{writes values and indices of the input's shape but for the last dimension, not 'memref<2xf32>', 'memref<2xi32>' of 'memref<4x8xf32>'}}
  thunk.top_k %0 : memref<4x8xf32> -> %1 : memref<2xf32>, %2 : memref<2xi32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<4x8xf32>
  %1 = thunk.slice @t[512] : memref<3x2xf32>
  %2 = thunk.slice @t[1024] : memref<3x2xi32>
  // expected-error @+1 {{writes values and indices of the input's shape but for the last dimension}}
  thunk.top_k %0 : memref<4x8xf32> -> %1 : memref<3x2xf32>, %2 : memref<3x2xi32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<4x8xf32>
  %1 = thunk.slice @t[512] : memref<4x9xf32>
  %2 = thunk.slice @t[1024] : memref<4x9xi32>
  // expected-error @+1 {{keeps 1 to 16 elements a row, at most the row's 8, not 9}}
  thunk.top_k %0 : memref<4x8xf32> -> %1 : memref<4x9xf32>, %2 : memref<4x9xi32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<40xf32>
  %1 = thunk.slice @t[512] : memref<17xf32>
  %2 = thunk.slice @t[1024] : memref<17xi32>
  // expected-error @+1 {{keeps 1 to 16 elements a row, at most the row's 40, not 17}}
  thunk.top_k %0 : memref<40xf32> -> %1 : memref<17xf32>, %2 : memref<17xi32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<4x8xf32, strided<[1, 4]>>
  %1 = thunk.slice @t[512] : memref<4x2xf32>
  %2 = thunk.slice @t[1024] : memref<4x2xi32>
  // expected-error @+1 {{takes row-major slices, not 'memref<4x8xf32, strided<[1, 4]>>'}}
  thunk.top_k %0 : memref<4x8xf32, strided<[1, 4]>> -> %1 : memref<4x2xf32>, %2 : memref<4x2xi32>
  thunk.return
}

// -----

thunk.allocation @t temp size = 4096
thunk.program @main {
  %0 = thunk.slice @t[0] : memref<f32>
  %1 = thunk.slice @t[512] : memref<f32>
  %2 = thunk.slice @t[1024] : memref<i32>
  // expected-error @+1 {{takes rows: the input needs a dimension}}
  thunk.top_k %0 : memref<f32> -> %1 : memref<f32>, %2 : memref<i32>
  thunk.return
}

// -----

thunk.allocation @p0 parameter size = 128 {parameter = 0 : i64}
// expected-error @+1 {{argument 0: a tile of #thunk.tiles<[16, 8], tiles = [2, 1], of = [0, 0, 1, 1]> is not the 'memref<4x8xf32>'}}
thunk.program @main attributes {argument_types = [memref<4x8xf32>], argument_tiles = [#thunk.tiles<[16, 8], tiles = [2, 1], of = [0, 0, 1, 1]>], num_partitions = 4 : i64} {
  thunk.return
}

// -----

thunk.allocation @p0 parameter size = 128 {parameter = 0 : i64}
// expected-error @+1 {{argument 0: #thunk.tiles<[16, 8], tiles = [4, 1], of = [0, 1]> names 2 partitions, not 4}}
thunk.program @main attributes {argument_types = [memref<4x8xf32>], argument_tiles = [#thunk.tiles<[16, 8], tiles = [4, 1], of = [0, 1]>], num_partitions = 4 : i64} {
  thunk.return
}

// -----

thunk.allocation @p0 parameter size = 128 {parameter = 0 : i64}
// expected-error @+1 {{needs one result type for each of its 1 result tiles}}
thunk.program @main attributes {result_tiles = [#thunk.tiles<[4], tiles = [2], of = [0, 1]>], num_partitions = 2 : i64} {
  thunk.return
}

// -----

// expected-error @+1 {{tile 4 is not one of the 4 tiles}}
thunk.program @main attributes {argument_tiles = [#thunk.tiles<[16, 8], tiles = [4, 1], of = [0, 1, 2, 4]>]} {
  thunk.return
}

// -----

// expected-error @+1 {{needs one tile count per dimension of the 2-dimensional array}}
thunk.program @main attributes {argument_tiles = [#thunk.tiles<[16, 8], tiles = [4], of = [0, 1, 2, 3]>]} {
  thunk.return
}
