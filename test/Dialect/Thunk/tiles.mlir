// RUN: hlo-opt %s | FileCheck %s
// RUN: hlo-opt %s --emit-bytecode | hlo-opt | FileCheck %s

// A program partitioned over 4 partitions says what whole arrays its
// argument and result are tiles of: rows of a [16, 8] array tiled 4 ways,
// columns of a [6, 8] array in tiles of 2 (held in reverse order).

// CHECK: thunk.program @main attributes {argument_tiles = [#thunk.tiles<[16, 8], tiles = [4, 1], of = [0, 1, 2, 3]>], argument_types = [memref<4x8xf32>], num_partitions = 4 : i64, result_tiles = [#thunk.tiles<[6, 8], tiles = [1, 4], of = [3, 2, 1, 0]>], result_types = [memref<6x2xf32>]}
thunk.allocation @p0 parameter size = 128 {parameter = 0 : i64}
thunk.allocation @out output size = 48
thunk.program @main attributes {
    argument_tiles = [#thunk.tiles<[16, 8], tiles = [4, 1], of = [0, 1, 2, 3]>],
    argument_types = [memref<4x8xf32>], num_partitions = 4 : i64,
    result_tiles = [#thunk.tiles<[6, 8], tiles = [1, 4], of = [3, 2, 1, 0]>],
    result_types = [memref<6x2xf32>]} {
  %0 = thunk.slice @out[0] : memref<6x2xf32>
  thunk.return %0 : memref<6x2xf32>
}
