// RUN: hlo-opt %s | FileCheck %s
// RUN: hlo-opt %s | hlo-opt | FileCheck %s
// RUN: hlo-opt %s --emit-bytecode | hlo-opt | FileCheck %s

// cuBLASLt's fp8 GEMM: e4m3fn x e5m2 operands, their f32 scales, and an
// fp8 output with its d_scale, its amax and a bf16 bias; an f32 output
// with cuBLASLt's fast accumulation; an fp8 output adding an f16 C of its
// own.
// CHECK-LABEL: thunk.program @main
// CHECK: thunk.gemm %{{.*}} : memref<512xf8E4M3FN>, %{{.*}} : memref<512xf8E5M2> bias %{{.*}} : memref<16xbf16> a_scale %{{.*}} : memref<1xf32> b_scale %{{.*}} : memref<1xf32> d_scale %{{.*}} : memref<1xf32> -> %{{.*}} : memref<256xf8E4M3FN> d_amax %{{.*}} : memref<1xf32> {epilogue = #thunk<epilogue bias>
// CHECK: thunk.gemm %{{.*}} : memref<512xf8E4M3FN>, %{{.*}} : memref<512xf8E4M3FN> a_scale %{{.*}} : memref<1xf32> b_scale %{{.*}} : memref<1xf32> -> %{{.*}} : memref<256xf32> {
// CHECK-SAME: fast_accum
// CHECK: thunk.gemm %{{.*}} : memref<512xf8E4M3FN>, %{{.*}} : memref<512xf8E4M3FN> c %{{.*}} : memref<256xf16> a_scale %{{.*}} : memref<1xf32> b_scale %{{.*}} : memref<1xf32> d_scale %{{.*}} : memref<1xf32> -> %{{.*}} : memref<256xf8E4M3FN> {
thunk.allocation @t temp size = 4096
thunk.program @main {
  %a = thunk.slice @t[0] : memref<512xf8E4M3FN>
  %b = thunk.slice @t[512] : memref<512xf8E5M2>
  %a8 = thunk.slice @t[512] : memref<512xf8E4M3FN>
  %s = thunk.slice @t[1024] : memref<1xf32>
  %m = thunk.slice @t[1032] : memref<1xf32>
  %bias = thunk.slice @t[1088] : memref<16xbf16>
  %c = thunk.slice @t[2048] : memref<256xf8E4M3FN>
  %d = thunk.slice @t[3072] : memref<256xf32>
  %c16 = thunk.slice @t[3584] : memref<256xf16>
  thunk.gemm %a : memref<512xf8E4M3FN>, %b : memref<512xf8E5M2>
      bias %bias : memref<16xbf16> a_scale %s : memref<1xf32>
      b_scale %s : memref<1xf32> d_scale %s : memref<1xf32>
      -> %c : memref<256xf8E4M3FN> d_amax %m : memref<1xf32> {
    lhs_layout = #thunk.matrix<row_major, rows = 16, cols = 32, leading_dim = 32>,
    rhs_layout = #thunk.matrix<column_major, rows = 32, cols = 16, leading_dim = 32>,
    out_layout = #thunk.matrix<row_major, rows = 16, cols = 16, leading_dim = 16>,
    epilogue = #thunk<epilogue bias>}
  thunk.gemm %a : memref<512xf8E4M3FN>, %a8 : memref<512xf8E4M3FN>
      a_scale %s : memref<1xf32> b_scale %s : memref<1xf32>
      -> %d : memref<256xf32> {
    fast_accum,
    lhs_layout = #thunk.matrix<row_major, rows = 16, cols = 32, leading_dim = 32>,
    rhs_layout = #thunk.matrix<column_major, rows = 32, cols = 16, leading_dim = 32>,
    out_layout = #thunk.matrix<row_major, rows = 16, cols = 16, leading_dim = 16>}
  thunk.gemm %a : memref<512xf8E4M3FN>, %a8 : memref<512xf8E4M3FN>
      c %c16 : memref<256xf16> a_scale %s : memref<1xf32>
      b_scale %s : memref<1xf32> d_scale %s : memref<1xf32>
      -> %c : memref<256xf8E4M3FN> {
    lhs_layout = #thunk.matrix<row_major, rows = 16, cols = 32, leading_dim = 32>,
    rhs_layout = #thunk.matrix<column_major, rows = 32, cols = 16, leading_dim = 32>,
    out_layout = #thunk.matrix<row_major, rows = 16, cols = 16, leading_dim = 16>,
    beta = 1.0}
  thunk.return
}
