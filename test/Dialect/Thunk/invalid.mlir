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

thunk.allocation @t temp size = 64
thunk.program @main {
  // expected-error @+1 {{bytes [32, 96) are outside allocation 't' of 64 bytes}}
  %0 = thunk.slice @t[32] : memref<16xf32>
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
