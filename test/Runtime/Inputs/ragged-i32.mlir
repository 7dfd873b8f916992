// A ragged-all-to-all whose offsets and sizes are s32, as a thunk program
// carries them (the GPU pipeline gives them s64 since
// hlo-ragged-all-to-all-canonicalizer): each of two replicas sends rows
// [0,1) and [1,3) to replica 0 at rows 0 and 1, rows [3,4) and [4,6) to
// replica 1 at rows 0 and 1 (ragged-i32.hlo, the same in HLO;
// test/Runtime/hlo-run-host-ragged-i32.test).
module {
  thunk.allocation @p0 parameter size = 48 {parameter = 0 : i64}
  thunk.allocation @ioff constant size = 16 {value = dense<[0, 1, 3, 4]> : tensor<4xi32>}
  thunk.allocation @sizes constant size = 16 {value = dense<[1, 2, 1, 2]> : tensor<4xi32>}
  thunk.allocation @ooff constant size = 16 {value = dense<[0, 1, 0, 1]> : tensor<4xi32>}
  thunk.allocation @out output size = 48
  thunk.program @main attributes {argument_types = [memref<6x2xf32>], num_replicas = 2 : i64, result_types = [memref<6x2xf32>]} {
    %p = thunk.slice @p0[0] : memref<6x2xf32>
    %io = thunk.slice @ioff[0] : memref<4xi32>
    %sz = thunk.slice @sizes[0] : memref<4xi32>
    %oo = thunk.slice @ooff[0] : memref<4xi32>
    %out = thunk.slice @out[0] : memref<6x2xf32>
    thunk.memset %out, 0 : memref<6x2xf32>
    thunk.ragged_all_to_all groups [array<i64: 0, 1>] ins(%p : memref<6x2xf32>) ranges(%io, %sz, %oo, %sz : memref<4xi32>, memref<4xi32>, memref<4xi32>, memref<4xi32>) outs(%out : memref<6x2xf32>)
    thunk.return %out : memref<6x2xf32>
  }
}
