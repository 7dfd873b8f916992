// A loop whose trip_count (2) its condition contradicts (the predicate is
// false at once): the host runtime says so (test/Runtime/hlo-run-host.test).
module {
  thunk.allocation @p0 parameter size = 256 {parameter = 0 : i64}
  thunk.allocation @out output size = 256
  thunk.allocation @tmp temp size = 64
  thunk.program @main attributes {argument_types = [memref<64xf32>], result_types = [memref<64xf32>]} {
    %p = thunk.slice @p0[0] : memref<64xf32>
    %out = thunk.slice @out[0] : memref<64xf32>
    %pred = thunk.slice @tmp[0] : memref<1xi8>
    thunk.copy %p, %out : memref<64xf32>, memref<64xf32>
    thunk.while %pred : memref<1xi8> {trip_count = 2 : i64} condition {
      thunk.memset %pred, 0 : memref<1xi8>
    } body {
      thunk.copy %p, %out : memref<64xf32>, memref<64xf32>
    }
    thunk.return %out : memref<64xf32>
  }
}
