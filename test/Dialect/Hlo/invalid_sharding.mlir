// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// #hlo.sharding is verified when it is built (its own structure) and against
// the value it annotates (instructions and computation arguments).

// expected-error @+1 {{tile assignment [2, 2] has 4 tiles but 3 devices are listed}}
#s = #hlo.sharding<"{devices=[2,2]0,1,2}">

// -----

// expected-error @+1 {{device 1 appears twice in the tile assignment}}
#s = #hlo.sharding<"{devices=[2,2]0,1,1,3}">

// -----

// expected-error @+1 {{device id -1 is negative}}
#s = #hlo.sharding<"{devices=[2]0,-1}">

// -----

// expected-error @+1 {{tile assignment dimensions [2, 0] must be positive}}
#s = #hlo.sharding<"{devices=[2,0]<=[0]}">

// -----

// expected-error @+1 {{iota reshape dimensions [3] must be positive with the product 4 of the tile assignment}}
#s = #hlo.sharding<"{devices=[2,2]<=[3]}">

// -----

// expected-error @+1 {{iota transpose T(0, 0) is not a permutation of 2 dimensions}}
#s = #hlo.sharding<"{devices=[2,2]<=[2,2]T(0,0)}">

// -----

// expected-error @+1 {{iota transpose T(1, 0) is not a permutation of 1 dimensions}}
#s = #hlo.sharding<"{devices=[2,2]<=[4]T(1,0)}">

// -----

// expected-error @+1 {{last_tile_dim_replicate and last_tile_dims exclude each other}}
#s = #hlo.sharding<"{devices=[2,2]<=[4] last_tile_dim_replicate last_tile_dims={manual}}">

// -----

// expected-error @+1 {{the sharding has more subgroup dimensions than its tile assignment has dimensions}}
#s = #hlo.sharding<"{devices=[4]<=[4] last_tile_dims={manual, replicated}}">

// -----

// expected-error @+1 {{last_tile_dims names manual twice}}
#s = #hlo.sharding<"{devices=[2,2,1]<=[4] last_tile_dims={manual, manual}}">

// -----

// expected-error @+1 {{unknown last_tile_dims entry 'sideways'}}
#s = #hlo.sharding<"{devices=[2,2]<=[4] last_tile_dims={sideways}}">

// -----

// expected-error @+1 {{maximal sharding device -2 is negative}}
#s = #hlo.sharding<"{maximal device=-2}">

// -----

// expected-error @+1 {{sharding names more than one kind}}
#s = #hlo.sharding<"{replicated manual}">

// -----

// expected-error @+1 {{shard group id -1 is negative}}
#s = #hlo.sharding<"{replicated shard_as -1}">

// -----

// expected-error @+1 {{tile assignment dimensions [4096, 4096, 4096] must be positive with a product of at most 2^24}}
#s = #hlo.sharding<"{devices=[4096,4096,4096]<=[68719476736]}">

// -----

// A tuple sharding has one element per leaf of the tuple type.
hlo.computation @main(%a: tensor<4xf32>) -> tuple<tensor<4xf32>, tuple<tensor<4xf32>>> attributes {entry} {
  // expected-error @+1 {{'hlo.tuple' op tuple sharding has 1 elements but 'tuple<tensor<4xf32>, tuple<tensor<4xf32>>>' has 2 leaves}}
  %t = hlo.tuple %a, %b {sharding = #hlo.sharding<"{{replicated}}">} : (tensor<4xf32>, tuple<tensor<4xf32>>) -> tuple<tensor<4xf32>, tuple<tensor<4xf32>>>
  %b = hlo.tuple %a : (tensor<4xf32>) -> tuple<tensor<4xf32>>
  hlo.return %t : tuple<tensor<4xf32>, tuple<tensor<4xf32>>>
}

// -----

hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // expected-error @+1 {{'hlo.negate' op tuple sharding on 'tensor<4xf32>', which is not a tuple}}
  %n = hlo.negate %a {sharding = #hlo.sharding<"{{replicated}}">} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %n : tensor<4xf32>
}

// -----

// A tiled sharding tiles as many data dimensions as the array has.
hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // expected-error @+1 {{'hlo.negate' op sharding tiles 2 data dimensions but 'tensor<4xf32>' has rank 1}}
  %n = hlo.negate %a {sharding = #hlo.sharding<"{devices=[2,2]<=[4]}">} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %n : tensor<4xf32>
}

// -----

// Tuple elements are checked against their leaves.
hlo.computation @main(%a: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<2x2xf32>> attributes {entry} {
  %r = hlo.reshape %a : (tensor<4xf32>) -> tensor<2x2xf32>
  // expected-error @+1 {{'hlo.tuple' op sharding tiles 1 data dimensions but 'tensor<2x2xf32>' has rank 2}}
  %t = hlo.tuple %a, %r {sharding = #hlo.sharding<"{{replicated}, {devices=[2,2]<=[4] last_tile_dim_replicate}}">} : (tensor<4xf32>, tensor<2x2xf32>) -> tuple<tensor<4xf32>, tensor<2x2xf32>>
  hlo.return %t : tuple<tensor<4xf32>, tensor<2x2xf32>>
}

// -----

// Parameters are checked as instructions are.
// expected-error @+1 {{hlo.sharding of argument 0: sharding tiles 1 data dimensions but 'tensor<2x2xf32>' has rank 2}}
hlo.computation @main(%a: tensor<2x2xf32> {hlo.sharding = #hlo.sharding<"{devices=[2]0,1}">}) -> tensor<2x2xf32> attributes {entry} {
  hlo.return %a : tensor<2x2xf32>
}

// -----

// expected-error @+1 {{hlo.sharding of argument 0 must be an #hlo.sharding}}
hlo.computation @main(%a: tensor<2x2xf32> {hlo.sharding = "{replicated}"}) -> tensor<2x2xf32> attributes {entry} {
  hlo.return %a : tensor<2x2xf32>
}

// -----

// A result's sharding is checked as a parameter's.
// expected-error @+1 {{hlo.sharding of result 0: sharding tiles 1 data dimensions but 'tensor<2x2xf32>' has rank 2}}
hlo.computation @main(%a: tensor<2x2xf32>) -> (tensor<2x2xf32> {hlo.sharding = #hlo.sharding<"{devices=[2]0,1}">}) attributes {entry} {
  hlo.return %a : tensor<2x2xf32>
}

// -----

// hlo-spmd-partitioner's record of the whole array a partitioned
// parameter or result is a tile of: of its element type and rank.
// expected-error @+1 {{argument 0: hlo.global_type 'tensor<4x4xi32>' is not a whole array of 'tensor<2x2xf32>'}}
hlo.computation @main(%a: tensor<2x2xf32> {hlo.global_type = tensor<4x4xi32>}) -> tensor<2x2xf32> attributes {entry} {
  hlo.return %a : tensor<2x2xf32>
}

// -----

// expected-error @+1 {{result 0: hlo.global_type 'tuple<tensor<4xf32>>' is not a whole array of 'tensor<2x2xf32>'}}
hlo.computation @main(%a: tensor<2x2xf32>) -> (tensor<2x2xf32> {hlo.global_type = tuple<tensor<4xf32>>}) attributes {entry} {
  hlo.return %a : tensor<2x2xf32>
}

// -----

// expected-error @+1 {{argument 0: hlo.global_type must be a type}}
hlo.computation @main(%a: tensor<2x2xf32> {hlo.global_type = 4 : i64}) -> tensor<2x2xf32> attributes {entry} {
  hlo.return %a : tensor<2x2xf32>
}

// -----

// A `Sharding` call's unspecified_dims (GSPMD's dimensions left to
// propagation): a list of the array's dimensions, each once.
hlo.computation @main(%a: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {entry} {
  // expected-error @+1 {{'hlo.custom_call' op Sharding: unspecified_dims names dimension 2 of an array of rank 2}}
  %0 = hlo.custom_call %a {custom_call_target = "Sharding", backend_config = "unspecified_dims=[0,2]"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  hlo.return %0 : tensor<2x4xf32>
}

// -----

hlo.computation @main(%a: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {entry} {
  // expected-error @+1 {{'hlo.custom_call' op Sharding: unspecified_dims names dimension 1 twice}}
  %0 = hlo.custom_call %a {custom_call_target = "Sharding", backend_config = "unspecified_dims=[1,1]"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  hlo.return %0 : tensor<2x4xf32>
}

// -----

hlo.computation @main(%a: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {entry} {
  // expected-error @+1 {{'hlo.custom_call' op Sharding: unspecified_dims has 'x', not a dimension}}
  %0 = hlo.custom_call %a {custom_call_target = "Sharding", backend_config = "unspecified_dims=[x]"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  hlo.return %0 : tensor<2x4xf32>
}

// -----

hlo.computation @main(%a: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {entry} {
  // expected-error @+1 {{'hlo.custom_call' op Sharding: unspecified_dims must be a list [d, ...]}}
  %0 = hlo.custom_call %a {custom_call_target = "Sharding", backend_config = "unspecified_dims=1"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  hlo.return %0 : tensor<2x4xf32>
}
