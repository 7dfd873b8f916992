// RUN: hlo-opt %s -split-input-file --hlo-rng-expander | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-rng-expander="seed=5" | FileCheck %s --check-prefix=SEED
// The interpreter's rng values are its own (not XLA's), so the semantics
// check runs only on the chunk the pass leaves unchanged (up to the marker).
// RUN: sed '/^\/\/ SEMANTICS-END/q' %s | hlo-opt - -split-input-file --hlo-rng-expander --hlo-check-semantics -o /dev/null
// The values of the expanded rngs, run by the interpreter, lie in range and
// have the right mean (and variance for normal): the last chunk.
// RUN: sed -n '/^\/\/ RANGE-BEGIN/,$p' %s > %t.mlir
// RUN: hlo-opt %t.mlir --hlo-rng-expander -o %t.expanded.mlir
// RUN: hlo-run %t.expanded.mlir | FileCheck %s --check-prefix=RANGE

// Left alone: element types XLA's distributions do not take (s8, u16),
// control predecessors and dynamic shapes.
// CHECK-LABEL: hlo.computation @keep
hlo.computation @keep(%a: tensor<i8>, %b: tensor<i8>, %c: tensor<f32>, %d: tensor<ui16>) -> tuple<tensor<4xi8>, tensor<4xf32>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>, tensor<3xui16>> attributes {entry} {
  // CHECK-NOT: call
  // CHECK: rng %arg0, %arg1
  %0 = hlo.rng %a, %b {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<i8>, tensor<i8>) -> tensor<4xi8>
  // CHECK: rng %arg2, %arg2 after
  %1 = hlo.rng %c, %c after(%0 : tensor<4xi8>) {distribution = #hlo<rng_distribution rng_normal>} : (tensor<f32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: rng %arg2, %arg2 {
  %2 = hlo.rng %c, %c {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<f32>, tensor<f32>) -> tensor<?xf32, #hlo.layout<[0], bounds = [4]>>
  // CHECK: rng %arg3, %arg3
  %3 = hlo.rng %d, %d {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<ui16>, tensor<ui16>) -> tensor<3xui16>
  %r = hlo.tuple %0, %1, %2, %3 : (tensor<4xi8>, tensor<4xf32>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>, tensor<3xui16>) -> tuple<tensor<4xi8>, tensor<4xf32>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>, tensor<3xui16>>
  hlo.return %r : tuple<tensor<4xi8>, tensor<4xf32>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>, tensor<3xui16>>
}
// SEMANTICS-END

// -----

// Uniform floats: the key (seed ^ mixed index), the state advanced by the
// 32-bit words used, a call of rng_uniform(key, state, a, b); the second
// rng of the same types shares the computation but has its own key. Inside:
// Philox bits from rng-bit-generator on (key, state), the top 23 bits as a
// float times 2^-23, scaled to [a, b).
// CHECK-LABEL: hlo.computation @uniform
// SEED-LABEL: hlo.computation @uniform
hlo.computation @uniform(%a: tensor<f32>, %b: tensor<f32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>> attributes {entry} {
  // CHECK: %[[K:.*]] = constant {value = dense<0> : tensor<ui64>} : () -> tensor<ui64>
  // CHECK: %[[S:.*]] = rng_get_and_update_state {delta = 6 : i64} : () -> tensor<2xui64>
  // CHECK: call %[[K]], %[[S]], %arg0, %arg1 {frontend_attributes = {k = "v"}, to_apply = @[[U:rng_uniform.*]]} : (tensor<ui64>, tensor<2xui64>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  // CHECK-NOT: rng %
  // SEED: constant {value = dense<5> : tensor<ui64>}
  // SEED: constant {value = dense<2654435772> : tensor<ui64>}
  %0 = hlo.rng %a, %b {distribution = #hlo<rng_distribution rng_uniform>, frontend_attributes = {k = "v"}} : (tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  // CHECK: %[[K2:.*]] = constant {value = dense<2654435769> : tensor<ui64>}
  // CHECK: call %[[K2]], %{{.*}}, %arg1, %arg0 {to_apply = @[[U]]}
  %1 = hlo.rng %b, %a {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  %r = hlo.tuple %0, %1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>>
  hlo.return %r : tuple<tensor<2x3xf32>, tensor<2x3xf32>>
}
// CHECK: hlo.computation private @[[U]](%arg0: tensor<ui64>, %arg1: tensor<2xui64>, %arg2: tensor<f32>, %arg3: tensor<f32>) -> tensor<2x3xf32> {
// CHECK: %[[K1:.*]] = reshape %arg0 : (tensor<ui64>) -> tensor<1xui64>
// CHECK: %[[ST:.*]] = concatenate %[[K1]], %arg1 {dimensions = array<i64: 0>} : (tensor<1xui64>, tensor<2xui64>) -> tensor<3xui64>
// CHECK: %[[G:.*]] = rng_bit_generator %[[ST]] {algorithm = #hlo<rng_algorithm rng_philox>} : (tensor<3xui64>) -> tuple<tensor<3xui64>, tensor<2x3xui32>>
// CHECK: %[[BITS:.*]] = get_tuple_element %[[G]] {index = 1 : i64}
// CHECK: constant {value = dense<9> : tensor<ui32>}
// CHECK: %[[TOP:.*]] = shift_right_logical %[[BITS]]
// CHECK: %[[F:.*]] = convert %[[TOP]] : (tensor<2x3xui32>) -> tensor<2x3xf32>
// CHECK: constant {value = dense<1.1920929E-7> : tensor<f32>}
// CHECK: %[[X:.*]] = multiply %[[F]]
// CHECK: %[[SPAN:.*]] = subtract %arg3, %arg2 : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: %[[RB:.*]] = broadcast %[[SPAN]]
// CHECK: %[[XS:.*]] = multiply %[[X]], %[[RB]]
// CHECK: %[[LO:.*]] = broadcast %arg2
// CHECK: %[[R:.*]] = add %[[XS]], %[[LO]]
// CHECK: return %[[R]] : tensor<2x3xf32>

// -----

// Normal: uniform [0, 1) bits over the shape with its split dimension (the
// first largest, 7, as none is even) halved and a new dimension of 2 after
// it; Box-Muller on the halves, joined back, sliced to 7; then a + b * z.
// The f64 scalar uses u64 bits (2 words) over a [2].
// CHECK-LABEL: hlo.computation @normal
hlo.computation @normal(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f64>) -> tuple<tensor<7x3xf32>, tensor<f64>> attributes {entry} {
  // CHECK: rng_get_and_update_state {delta = 21 : i64}
  // CHECK: call {{.*}} {to_apply = @[[N:rng_normal.*]]}
  %0 = hlo.rng %a, %b {distribution = #hlo<rng_distribution rng_normal>} : (tensor<f32>, tensor<f32>) -> tensor<7x3xf32>
  // CHECK: rng_get_and_update_state {delta = 2 : i64}
  // CHECK: call {{.*}} {to_apply = @[[N64:rng_normal.*]]} : (tensor<ui64>, tensor<2xui64>, tensor<f64>, tensor<f64>) -> tensor<f64>
  %1 = hlo.rng %c, %c {distribution = #hlo<rng_distribution rng_normal>} : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %r = hlo.tuple %0, %1 : (tensor<7x3xf32>, tensor<f64>) -> tuple<tensor<7x3xf32>, tensor<f64>>
  hlo.return %r : tuple<tensor<7x3xf32>, tensor<f64>>
}
// CHECK: hlo.computation private @[[N]](
// CHECK: rng_bit_generator {{.*}} -> tuple<tensor<3xui64>, tensor<4x2x3xui32>>
// CHECK: %[[U0:.*]] = slice %[[U:.*]] {slice = #hlo.slice<"{[0:4], [0:1], [0:3]}">} : (tensor<4x2x3xf32>) -> tensor<4x1x3xf32>
// CHECK: %[[U1:.*]] = slice %[[U]] {slice = #hlo.slice<"{[0:4], [1:2], [0:3]}">}
// CHECK: constant {value = dense<1.000000e-07> : tensor<f32>}
// CHECK: %[[SM:.*]] = maximum %[[U0]]
// CHECK: constant {value = dense<6.28318548> : tensor<f32>}
// CHECK: %[[ANG:.*]] = multiply %{{.*}}, %[[U1]]
// CHECK: %[[LOG:.*]] = log %[[SM]]
// CHECK: %[[RAD:.*]] = sqrt
// CHECK: %[[SIN:.*]] = sine %[[ANG]]
// CHECK: %[[Z0:.*]] = multiply %[[SIN]], %[[RAD]]
// CHECK: %[[COS:.*]] = cosine %[[ANG]]
// CHECK: %[[Z1:.*]] = multiply %[[COS]], %[[RAD]]
// CHECK: %[[J:.*]] = concatenate %[[Z0]], %[[Z1]] {dimensions = array<i64: 1>} : (tensor<4x1x3xf32>, tensor<4x1x3xf32>) -> tensor<4x2x3xf32>
// CHECK: %[[RS:.*]] = reshape %[[J]] : (tensor<4x2x3xf32>) -> tensor<8x3xf32>
// CHECK: %[[Z:.*]] = slice %[[RS]] {slice = #hlo.slice<"{[0:7], [0:3]}">} : (tensor<8x3xf32>) -> tensor<7x3xf32>
// CHECK: %[[MEAN:.*]] = broadcast %arg2
// CHECK: %[[SIG:.*]] = broadcast %arg3
// CHECK: %[[SZ:.*]] = multiply %[[SIG]], %[[Z]]
// CHECK: add %[[MEAN]], %[[SZ]]
// CHECK: hlo.computation private @[[N64]](
// CHECK: rng_bit_generator {{.*}} -> tuple<tensor<3xui64>, tensor<2xui64>>
// CHECK: constant {value = dense<12> : tensor<ui64>}
// CHECK: convert {{.*}} : (tensor<2xui64>) -> tensor<2xf64>
// CHECK: constant {value = dense<1.0000000116860974E-7> : tensor<f64>}
// CHECK: reshape {{.*}} : (tensor<1xf64>) -> tensor<f64>

// -----

// Integers: d = bits rem (b - a) (unsigned), a + d/2 + (d - d/2). bf16 and
// f16 rngs run in f32 (operands converted before, the result after, which
// takes the rng's attributes and layout).
// CHECK-LABEL: hlo.computation @types
hlo.computation @types(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<bf16>, %d: tensor<f16>) -> tuple<tensor<5xi32>, tensor<4xbf16, #hlo.layout<[0]>>, tensor<3xf16>> attributes {entry} {
  // CHECK: call {{.*}} {to_apply = @[[I:rng_uniform.*]]} : (tensor<ui64>, tensor<2xui64>, tensor<i32>, tensor<i32>) -> tensor<5xi32>
  %0 = hlo.rng %a, %b {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<i32>, tensor<i32>) -> tensor<5xi32>
  // CHECK: rng_get_and_update_state {delta = 4 : i64}
  // CHECK: %[[CA:.*]] = convert %arg2 : (tensor<bf16>) -> tensor<f32>
  // CHECK: %[[CB:.*]] = convert %arg2 : (tensor<bf16>) -> tensor<f32>
  // CHECK: %[[R:.*]] = call {{.*}}, %[[CA]], %[[CB]] {{.*}} -> tensor<4xf32, #hlo.layout<[0]>>
  // CHECK: convert %[[R]] {frontend_attributes = {k = "v"}} : (tensor<4xf32, #hlo.layout<[0]>>) -> tensor<4xbf16, #hlo.layout<[0]>>
  %1 = hlo.rng %c, %c {distribution = #hlo<rng_distribution rng_uniform>, frontend_attributes = {k = "v"}} : (tensor<bf16>, tensor<bf16>) -> tensor<4xbf16, #hlo.layout<[0]>>
  // CHECK: convert %arg3 : (tensor<f16>) -> tensor<f32>
  // CHECK: call {{.*}} {to_apply = @rng_normal{{.*}}} : (tensor<ui64>, tensor<2xui64>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
  // CHECK: convert {{.*}} : (tensor<3xf32>) -> tensor<3xf16>
  %2 = hlo.rng %d, %d {distribution = #hlo<rng_distribution rng_normal>} : (tensor<f16>, tensor<f16>) -> tensor<3xf16>
  %r = hlo.tuple %0, %1, %2 : (tensor<5xi32>, tensor<4xbf16, #hlo.layout<[0]>>, tensor<3xf16>) -> tuple<tensor<5xi32>, tensor<4xbf16, #hlo.layout<[0]>>, tensor<3xf16>>
  hlo.return %r : tuple<tensor<5xi32>, tensor<4xbf16, #hlo.layout<[0]>>, tensor<3xf16>>
}
// CHECK: hlo.computation private @[[I]](
// CHECK: %[[BITS:.*]] = get_tuple_element {{.*}} -> tensor<5xui32>
// CHECK: %[[HI:.*]] = bitcast_convert %arg3 : (tensor<i32>) -> tensor<ui32>
// CHECK: %[[LO:.*]] = bitcast_convert %arg2 : (tensor<i32>) -> tensor<ui32>
// CHECK: %[[SPAN:.*]] = subtract %[[HI]], %[[LO]]
// CHECK: %[[RB:.*]] = broadcast %[[SPAN]]
// CHECK: %[[D:.*]] = remainder %[[BITS]], %[[RB]] : (tensor<5xui32>, tensor<5xui32>) -> tensor<5xui32>
// CHECK: %[[H:.*]] = shift_right_logical %[[D]]
// CHECK: %[[REST:.*]] = subtract %[[D]], %[[H]]
// CHECK: %[[A:.*]] = broadcast %arg2
// CHECK: %[[HS:.*]] = bitcast_convert %[[H]] : (tensor<5xui32>) -> tensor<5xi32>
// CHECK: %[[SUM:.*]] = add %[[A]], %[[HS]]
// CHECK: %[[RS:.*]] = bitcast_convert %[[REST]]
// CHECK: add %[[SUM]], %[[RS]]
// CHECK: hlo.computation private @rng_normal

// -----

// With several replicas and partitions, the key is xor'ed with the replica
// id and the partition id shifted left by 32.
// CHECK-LABEL: hlo.computation @devices
module attributes {hlo.replica_count = 2 : i64, hlo.num_partitions = 2 : i64} {
hlo.computation @devices(%a: tensor<f32>) -> tensor<2xf32> attributes {entry} {
  // CHECK: %[[K:.*]] = constant {value = dense<0> : tensor<ui64>}
  // CHECK: %[[R:.*]] = replica_id : () -> tensor<ui32>
  // CHECK: %[[R64:.*]] = convert %[[R]] : (tensor<ui32>) -> tensor<ui64>
  // CHECK: %[[K1:.*]] = xor %[[K]], %[[R64]]
  // CHECK: %[[P:.*]] = partition_id : () -> tensor<ui32>
  // CHECK: %[[P64:.*]] = convert %[[P]]
  // CHECK: %[[P32:.*]] = shift_left %[[P64]]
  // CHECK: %[[K2:.*]] = xor %[[K1]], %[[P32]]
  // CHECK: call %[[K2]]
  %0 = hlo.rng %a, %a {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  hlo.return %0 : tensor<2xf32>
}
}

// -----

// RANGE-BEGIN: min, max and mean of 4095 values of uniform f32 [-2, 3),
// normal (1, 2), (normal - 1)^2 (mean: the variance, 4), uniform s32
// [-5, 5), bf16 [1, 2) (rounding to bf16 may give 2, as in XLA) and u64
// [10, 20).
// RANGE: (-1.99{{[0-9]*}}, 2.99{{[0-9]*}}, 0.{{4[6-9]|5[0-4]}}{{[0-9]*}})
// RANGE-NEXT: (-{{[0-9.]+}}, {{[0-9.]+}}, {{0.9[5-9]|1.0[0-5]}}{{[0-9]*}})
// RANGE-NEXT: ({{[0-9.e-]+}}, {{[0-9.]+}}, {{3.[6-9]|4.[0-4]}}{{[0-9]*}})
// RANGE-NEXT: (-5, 4, -0.{{4[6-9]|5[0-4]}}{{[0-9]*}})
// RANGE-NEXT: (1, {{1.9[0-9]*|2}}, 1.{{4[6-9]|5[0-4]}}{{[0-9]*}})
// RANGE-NEXT: (10, 19, 14.{{[3-6]}}{{[0-9]*}})
// CHECK-LABEL: hlo.computation @range
// CHECK-NOT: rng %
hlo.computation private @add(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %s = hlo.add %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %s : tensor<f32>
}
hlo.computation private @min(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %s = hlo.minimum %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %s : tensor<f32>
}
hlo.computation private @max(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %s = hlo.maximum %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %s : tensor<f32>
}
// (min, max, mean) of a f32[N].
hlo.computation private @stats(%v: tensor<4095xf32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>> {
  %zero = hlo.constant {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %inf = hlo.constant {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
  %ninf = hlo.constant {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %n = hlo.constant {value = dense<4095.0> : tensor<f32>} : () -> tensor<f32>
  %lo = hlo.reduce %v, %inf {dimensions = array<i64: 0>, to_apply = @min} : (tensor<4095xf32>, tensor<f32>) -> tensor<f32>
  %hi = hlo.reduce %v, %ninf {dimensions = array<i64: 0>, to_apply = @max} : (tensor<4095xf32>, tensor<f32>) -> tensor<f32>
  %sum = hlo.reduce %v, %zero {dimensions = array<i64: 0>, to_apply = @add} : (tensor<4095xf32>, tensor<f32>) -> tensor<f32>
  %mean = hlo.divide %sum, %n : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %t = hlo.tuple %lo, %hi, %mean : (tensor<f32>, tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>>
  hlo.return %t : tuple<tensor<f32>, tensor<f32>, tensor<f32>>
}
hlo.computation @range() -> tuple<tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>> attributes {entry} {
  %a = hlo.constant {value = dense<-2.0> : tensor<f32>} : () -> tensor<f32>
  %b = hlo.constant {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %u = hlo.rng %a, %b {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<f32>, tensor<f32>) -> tensor<4095xf32>
  %su = hlo.call %u {to_apply = @stats} : (tensor<4095xf32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>>
  %mu = hlo.constant {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %sigma = hlo.constant {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %g = hlo.rng %mu, %sigma {distribution = #hlo<rng_distribution rng_normal>} : (tensor<f32>, tensor<f32>) -> tensor<4095xf32>
  %sg = hlo.call %g {to_apply = @stats} : (tensor<4095xf32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>>
  // E[(g - 1)^2] = 4.
  %mub = hlo.broadcast %mu {dimensions = array<i64>} : (tensor<f32>) -> tensor<4095xf32>
  %d = hlo.subtract %g, %mub : (tensor<4095xf32>, tensor<4095xf32>) -> tensor<4095xf32>
  %d2 = hlo.multiply %d, %d : (tensor<4095xf32>, tensor<4095xf32>) -> tensor<4095xf32>
  %sd = hlo.call %d2 {to_apply = @stats} : (tensor<4095xf32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>>
  %ia = hlo.constant {value = dense<-5> : tensor<i32>} : () -> tensor<i32>
  %ib = hlo.constant {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %i = hlo.rng %ia, %ib {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<i32>, tensor<i32>) -> tensor<4095xi32>
  %if = hlo.convert %i : (tensor<4095xi32>) -> tensor<4095xf32>
  %si = hlo.call %if {to_apply = @stats} : (tensor<4095xf32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>>
  %ba = hlo.constant {value = dense<1.0> : tensor<bf16>} : () -> tensor<bf16>
  %bb = hlo.constant {value = dense<2.0> : tensor<bf16>} : () -> tensor<bf16>
  %h = hlo.rng %ba, %bb {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<bf16>, tensor<bf16>) -> tensor<4095xbf16>
  %hf = hlo.convert %h : (tensor<4095xbf16>) -> tensor<4095xf32>
  %sh = hlo.call %hf {to_apply = @stats} : (tensor<4095xf32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>>
  %ua = hlo.constant {value = dense<10> : tensor<ui64>} : () -> tensor<ui64>
  %ub = hlo.constant {value = dense<20> : tensor<ui64>} : () -> tensor<ui64>
  %w = hlo.rng %ua, %ub {distribution = #hlo<rng_distribution rng_uniform>} : (tensor<ui64>, tensor<ui64>) -> tensor<4095xui64>
  %wf = hlo.convert %w : (tensor<4095xui64>) -> tensor<4095xf32>
  %sw = hlo.call %wf {to_apply = @stats} : (tensor<4095xf32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>>
  %t = hlo.tuple %su, %sg, %sd, %si, %sh, %sw : (tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>) -> tuple<tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>>
  hlo.return %t : tuple<tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>, tuple<tensor<f32>, tensor<f32>, tensor<f32>>>
}
