// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// The collective thunks' groups, pairs and shapes are checked by the
// dialect.

thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  %a = thunk.slice @p[0] : memref<8xf32>
  %b = thunk.slice @p[32] : memref<8xf32>
  // expected-error @+1 {{device id 2 is not a device of the program (2 devices)}}
  thunk.all_reduce sum groups [array<i64: 0, 2>] ins(%a : memref<8xf32>) outs(%b : memref<8xf32>)
  thunk.return
}

// -----

thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 4 : i64} {
  %a = thunk.slice @p[0] : memref<8xf32>
  %b = thunk.slice @p[32] : memref<8xf32>
  // expected-error @+1 {{the groups cover 2 of the program's 4 devices}}
  thunk.all_reduce sum groups [array<i64: 0, 1>] ins(%a : memref<8xf32>) outs(%b : memref<8xf32>)
  thunk.return
}

// -----

thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  %a = thunk.slice @p[0] : memref<8xf32>
  %b = thunk.slice @p[32] : memref<8xf32>
  // expected-error @+1 {{device 1 is in two groups}}
  thunk.all_reduce sum groups [array<i64: 0, 1>, array<i64: 1>] ins(%a : memref<8xf32>) outs(%b : memref<8xf32>)
  thunk.return
}

// -----

thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  %a = thunk.slice @p[0] : memref<8xf32>
  %b = thunk.slice @p[32] : memref<8xi32>
  // expected-error @+1 {{input 0 and output 0 have different element types}}
  thunk.all_reduce sum groups [array<i64: 0, 1>] ins(%a : memref<8xf32>) outs(%b : memref<8xi32>)
  thunk.return
}

// -----

thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  %a = thunk.slice @p[0] : memref<8xf32>
  // expected-error @+1 {{needs as many outputs as inputs, at least one; has 1 inputs and 2 outputs}}
  thunk.all_reduce sum groups [array<i64: 0, 1>] ins(%a : memref<8xf32>) outs(%a, %a : memref<8xf32>, memref<8xf32>)
  thunk.return
}

// -----

thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  %a = thunk.slice @p[0] : memref<2x4xf32>
  %b = thunk.slice @p[32] : memref<2x4xf32>
  // expected-error @+1 {{output 0 must have shape [2, 8], not [2, 4]}}
  thunk.all_gather dimension 1 groups [array<i64: 0, 1>] ins(%a : memref<2x4xf32>) outs(%b : memref<2x4xf32>)
  thunk.return
}

// -----

thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  %a = thunk.slice @p[0] : memref<2x4xf32>
  %b = thunk.slice @p[32] : memref<2x4xf32>
  // expected-error @+1 {{dimension 2 is out of range for input 0 of rank 2}}
  thunk.all_gather dimension 2 groups [array<i64: 0, 1>] ins(%a : memref<2x4xf32>) outs(%b : memref<2x4xf32>)
  thunk.return
}

// -----

thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 3 : i64} {
  %a = thunk.slice @p[0] : memref<4xf32>
  %b = thunk.slice @p[32] : memref<1xf32>
  // expected-error @+1 {{needs groups of one size, not 2 and 1}}
  thunk.reduce_scatter sum dimension 0 groups [array<i64: 0, 1>, array<i64: 2>] ins(%a : memref<4xf32>) outs(%b : memref<1xf32>)
  thunk.return
}

// -----

thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 3 : i64} {
  %a = thunk.slice @p[0] : memref<4xf32>
  %b = thunk.slice @p[32] : memref<1xf32>
  // expected-error @+1 {{dimension 0 of input 0 (4) does not split into 3 equal chunks}}
  thunk.reduce_scatter sum dimension 0 groups [array<i64: 0, 1, 2>] ins(%a : memref<4xf32>) outs(%b : memref<1xf32>)
  thunk.return
}

// -----

thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  %a = thunk.slice @p[0] : memref<4xf32>
  %b = thunk.slice @p[32] : memref<4xf32>
  // expected-error @+1 {{without a dimension needs one input per group member (2), not 1}}
  thunk.all_to_all groups [array<i64: 0, 1>] ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  thunk.return
}

// -----

thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  %a = thunk.slice @p[0] : memref<4xf32>
  %b = thunk.slice @p[32] : memref<4xf32>
  // expected-error @+1 {{device 1 is the target of two pairs}}
  thunk.collective_permute pairs [array<i64: 0, 1>, array<i64: 1, 1>] ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  thunk.return
}

// -----

thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  %a = thunk.slice @p[0] : memref<4xf32>
  %b = thunk.slice @p[32] : memref<4xf32>
  // expected-error @+1 {{pairs must have two device ids each}}
  thunk.collective_permute pairs [array<i64: 0, 1, 1>] ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  thunk.return
}

// -----

thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main {
  %a = thunk.slice @p[0] : memref<2xi32>
  // expected-error @+1 {{needs a target of one 32-bit integer, not 'memref<2xi32>'}}
  thunk.device_id replica %a : memref<2xi32>
  thunk.return
}

// -----

thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main {
  %a = thunk.slice @p[0] : memref<4xi32>
  // expected-error @+1 {{needs a target of two 64-bit integers, not 'memref<4xi32>'}}
  thunk.rng_get_and_update_state %a delta 1 : memref<4xi32>
  thunk.return
}

// -----

// expected-error @+1 {{needs at least one replica and one partition}}
thunk.program @main attributes {num_partitions = 0 : i64} {
  thunk.return
}

// -----

// Asynchronous collectives pair up with thunk.collective_done in a block.
thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  // expected-error @+1 {{waits for asynchronous collective 3, which is not in flight here}}
  thunk.collective_done 3
  thunk.return
}

// -----

thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  %a = thunk.slice @p[0] : memref<8xf32>
  %b = thunk.slice @p[32] : memref<8xf32>
  // expected-error @+1 {{starts asynchronous collective 0, which no thunk.collective_done waits for}}
  thunk.all_reduce sum groups [array<i64: 0, 1>] ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {async_id = 0 : i64}
  thunk.return
}

// -----

thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  %a = thunk.slice @p[0] : memref<8xf32>
  %b = thunk.slice @p[32] : memref<8xf32>
  thunk.all_reduce sum groups [array<i64: 0, 1>] ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {async_id = 1 : i64}
  // expected-error @+1 {{starts asynchronous collective 1 while it is in flight}}
  thunk.all_gather dimension 0 groups [array<i64: 0, 1>] ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {async_id = 1 : i64}
  thunk.collective_done 1
  thunk.return
}

// -----

// A done in a loop body does not wait for a collective started outside.
thunk.allocation @p parameter size = 64 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  %a = thunk.slice @p[0] : memref<8xf32>
  %b = thunk.slice @p[32] : memref<8xf32>
  %c = thunk.slice @p[60] : memref<1xi8>
  thunk.all_reduce sum groups [array<i64: 0, 1>] ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {async_id = 2 : i64}
  thunk.while %c : memref<1xi8> condition {
  } body {
    // expected-error @+1 {{waits for asynchronous collective 2, which is not in flight here}}
    thunk.collective_done 2
  }
  thunk.collective_done 2
  thunk.return
}

// -----

thunk.allocation @p parameter size = 256 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  %x = thunk.slice @p[0] : memref<4x2xf32>
  %y = thunk.slice @p[32] : memref<4x3xf32>
  %o = thunk.slice @p[128] : memref<2xi32>
  // expected-error @+1 {{needs an input and an output of one element type with rows of one shape (along dimension 0), not 'memref<4x2xf32>' and 'memref<4x3xf32>'}}
  thunk.ragged_all_to_all groups [array<i64: 0, 1>] ins(%x : memref<4x2xf32>) ranges(%o, %o, %o, %o : memref<2xi32>, memref<2xi32>, memref<2xi32>, memref<2xi32>) outs(%y : memref<4x3xf32>)
  thunk.return
}

// -----

thunk.allocation @p parameter size = 256 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  %x = thunk.slice @p[0] : memref<4x2xf32>
  %o = thunk.slice @p[128] : memref<2xi16>
  // expected-error @+1 {{needs offsets and sizes of 32- or 64-bit integers in one non-empty dimension, not 'memref<2xi16>'}}
  thunk.ragged_all_to_all groups [array<i64: 0, 1>] ins(%x : memref<4x2xf32>) ranges(%o, %o, %o, %o : memref<2xi16>, memref<2xi16>, memref<2xi16>, memref<2xi16>) outs(%x : memref<4x2xf32>)
  thunk.return
}

// -----

thunk.allocation @p parameter size = 256 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  %x = thunk.slice @p[0] : memref<4x2xf32>
  %o = thunk.slice @p[128] : memref<2xi32>
  %q = thunk.slice @p[192] : memref<2xi64>
  // expected-error @+1 {{needs offsets and sizes of one type, not 'memref<2xi32>' and 'memref<2xi64>'}}
  thunk.ragged_all_to_all groups [array<i64: 0, 1>] ins(%x : memref<4x2xf32>) ranges(%o, %o, %q, %o : memref<2xi32>, memref<2xi32>, memref<2xi64>, memref<2xi32>) outs(%x : memref<4x2xf32>)
  thunk.return
}

// -----

thunk.allocation @p parameter size = 256 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  %x = thunk.slice @p[0] : memref<4x2xf32>
  %o = thunk.slice @p[128] : memref<3xi32>
  // expected-error @+1 {{has 3 offsets, not a multiple of the 2 members of a group}}
  thunk.ragged_all_to_all groups [array<i64: 0, 1>] ins(%x : memref<4x2xf32>) ranges(%o, %o, %o, %o : memref<3xi32>, memref<3xi32>, memref<3xi32>, memref<3xi32>) outs(%x : memref<4x2xf32>)
  thunk.return
}

// -----

thunk.allocation @p parameter size = 256 {parameter = 0 : i64}
thunk.program @main attributes {num_replicas = 2 : i64} {
  %x = thunk.slice @p[0] : memref<4x2xf32>
  %o = thunk.slice @p[128] : memref<2xi32>
  // expected-error @+1 {{device 0 is in two groups}}
  thunk.ragged_all_to_all groups [array<i64: 0, 1>, array<i64: 0>] ins(%x : memref<4x2xf32>) ranges(%o, %o, %o, %o : memref<2xi32>, memref<2xi32>, memref<2xi32>, memref<2xi32>) outs(%x : memref<4x2xf32>)
  thunk.return
}
