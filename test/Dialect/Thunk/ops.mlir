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
// CHECK: thunk.program @main {
// CHECK:   %[[A:.*]] = thunk.slice @p0[0] : memref<256xf32>
// CHECK:   %[[OUT:.*]] = thunk.slice @out[0] : memref<64xf32>
// CHECK:   thunk.kernel @kernels::@add grid [2, 1, 1] block [128, 1, 1] ins(%[[A]] : memref<256xf32>) outs(%[[T:.*]] : memref<256xf32>)
// CHECK:   thunk.gemm %{{.*}} : memref<256xf32>, %{{.*}} : memref<2048xf32> bias %{{.*}} : memref<64xf32> -> %{{.*}} : memref<512xf32> workspace %{{.*}} : memref<4194304xi8> {epilogue = #thunk<epilogue bias_relu>, lhs_layout = #thunk.matrix<row_major, rows = 8, cols = 32, leading_dim = 32>, out_layout = #thunk.matrix<row_major, rows = 8, cols = 64, leading_dim = 64>, rhs_layout = #thunk.matrix<column_major, rows = 32, cols = 64, leading_dim = 32>}
// CHECK:   thunk.memset %{{.*}}, 0 : memref<1xi8>
// CHECK:   thunk.while %{{.*}} : memref<1xi8> {trip_count = 3 : i64} condition {
// CHECK:     thunk.copy
// CHECK:   } body {
// CHECK:     thunk.command_buffer {
// CHECK:       thunk.memset %{{.*}}, 1065353216 : memref<64xf32>
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
    thunk.gemm %a : memref<256xf32>, %b : memref<2048xf32> bias %bias : memref<64xf32>
        -> %c : memref<512xf32> workspace %w : memref<4194304xi8> {
      lhs_layout = #thunk.matrix<row_major, rows = 8, cols = 32, leading_dim = 32>,
      rhs_layout = #thunk.matrix<column_major, rows = 32, cols = 64, leading_dim = 32>,
      out_layout = #thunk.matrix<row_major, rows = 8, cols = 64, leading_dim = 64>,
      epilogue = #thunk<epilogue bias_relu>}
    thunk.memset %pred, 0 : memref<1xi8>
    thunk.while %pred : memref<1xi8> {trip_count = 3 : i64} condition {
      thunk.copy %half, %bias : memref<64xf32>, memref<64xf32>
    } body {
      thunk.command_buffer {
        thunk.memset %bias, 1065353216 : memref<64xf32>
      }
    }
    thunk.conditional %index : memref<1xi32> {
      thunk.memset %half, 0 : memref<64xf32>
    }, {
    }
    thunk.copy %half, %out : memref<64xf32>, memref<64xf32>
    thunk.return %out : memref<64xf32>
  }
}
