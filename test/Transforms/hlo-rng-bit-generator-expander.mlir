// RUN: hlo-opt %s -split-input-file --hlo-rng-bit-generator-expander | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-rng-bit-generator-expander="default-algorithm=rng_three_fry" | FileCheck %s --check-prefix=THREEFRY
// RUN: hlo-opt %s -split-input-file --hlo-rng-bit-generator-expander --hlo-check-semantics -o /dev/null
// RUN: not hlo-opt %s --hlo-rng-bit-generator-expander="default-algorithm=rng_default" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: default-algorithm: 'rng_default' is not rng_philox or rng_three_fry

// Each rng-bit-generator becomes a call of a private generator computation,
// one per (algorithm, state type, result type): the two philox u32[8] ones
// share one. The call keeps the instruction's attributes.
// CHECK-LABEL: hlo.computation @shapes
hlo.computation @shapes(%s2: tensor<2xui64>, %s3: tensor<3xui64>) -> tuple<tuple<tensor<2xui64>, tensor<8xui32>>, tuple<tensor<2xui64>, tensor<3x5xui64>>, tuple<tensor<3xui64>, tensor<16xui32>>, tuple<tensor<2xui64>, tensor<8xui32>>, tuple<tensor<2xui64>, tensor<3x5xui64>>, tuple<tensor<3xui64>, tensor<16xui32>>, tuple<tensor<2xui64>, tensor<8xui32>>> attributes {entry} {
  // CHECK: %[[C0:.*]] = call %arg0 {frontend_attributes = {k = "v"}, to_apply = @[[P8:rng_philox.*]]} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<8xui32>>
  // CHECK-NOT: rng_bit_generator
  %0 = hlo.rng_bit_generator %s2 {algorithm = #hlo<rng_algorithm rng_philox>, frontend_attributes = {k = "v"}} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<8xui32>>
  // CHECK: call %arg0 {to_apply = @[[P35:rng_philox.*]]} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<3x5xui64>>
  %1 = hlo.rng_bit_generator %s2 {algorithm = #hlo<rng_algorithm rng_philox>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<3x5xui64>>
  // CHECK: call %arg1 {to_apply = @[[P16:rng_philox.*]]} : (tensor<3xui64>) -> tuple<tensor<3xui64>, tensor<16xui32>>
  %2 = hlo.rng_bit_generator %s3 {algorithm = #hlo<rng_algorithm rng_philox>} : (tensor<3xui64>) -> tuple<tensor<3xui64>, tensor<16xui32>>
  // CHECK: call %arg0 {to_apply = @[[T8:rng_three_fry.*]]} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<8xui32>>
  %3 = hlo.rng_bit_generator %s2 {algorithm = #hlo<rng_algorithm rng_three_fry>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<8xui32>>
  // CHECK: call %arg0 {to_apply = @[[T35:rng_three_fry.*]]} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<3x5xui64>>
  %4 = hlo.rng_bit_generator %s2 {algorithm = #hlo<rng_algorithm rng_three_fry>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<3x5xui64>>
  // CHECK: call %arg1 {to_apply = @[[T16:rng_three_fry.*]]} : (tensor<3xui64>) -> tuple<tensor<3xui64>, tensor<16xui32>>
  %5 = hlo.rng_bit_generator %s3 {algorithm = #hlo<rng_algorithm rng_three_fry>} : (tensor<3xui64>) -> tuple<tensor<3xui64>, tensor<16xui32>>
  // CHECK: call %[[G:.*]] {to_apply = @[[P8]]} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<8xui32>>
  %g = hlo.get_tuple_element %0 {index = 0 : i64} : (tuple<tensor<2xui64>, tensor<8xui32>>) -> tensor<2xui64>
  %6 = hlo.rng_bit_generator %g {algorithm = #hlo<rng_algorithm rng_philox>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<8xui32>>
  %r = hlo.tuple %0, %1, %2, %3, %4, %5, %6 : (tuple<tensor<2xui64>, tensor<8xui32>>, tuple<tensor<2xui64>, tensor<3x5xui64>>, tuple<tensor<3xui64>, tensor<16xui32>>, tuple<tensor<2xui64>, tensor<8xui32>>, tuple<tensor<2xui64>, tensor<3x5xui64>>, tuple<tensor<3xui64>, tensor<16xui32>>, tuple<tensor<2xui64>, tensor<8xui32>>) -> tuple<tuple<tensor<2xui64>, tensor<8xui32>>, tuple<tensor<2xui64>, tensor<3x5xui64>>, tuple<tensor<3xui64>, tensor<16xui32>>, tuple<tensor<2xui64>, tensor<8xui32>>, tuple<tensor<2xui64>, tensor<3x5xui64>>, tuple<tensor<3xui64>, tensor<16xui32>>, tuple<tensor<2xui64>, tensor<8xui32>>>
  hlo.return %r : tuple<tuple<tensor<2xui64>, tensor<8xui32>>, tuple<tensor<2xui64>, tensor<3x5xui64>>, tuple<tensor<3xui64>, tensor<16xui32>>, tuple<tensor<2xui64>, tensor<8xui32>>, tuple<tensor<2xui64>, tensor<3x5xui64>>, tuple<tensor<3xui64>, tensor<16xui32>>, tuple<tensor<2xui64>, tensor<8xui32>>>
}
// Philox u64[2] -> u32[8]: key state[0], counters (state[1] + j, state[0] +
// carry) for two blocks of four words, ten rounds of multiplies, the key
// bumped each round; the new state is (key, state[1] + 2).
// CHECK: hlo.computation private @[[P8]](%arg0: tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<8xui32>> {
// CHECK: %[[KS:.*]] = slice %arg0 {slice = #hlo.slice<"{[0:1]}">}
// CHECK: %[[K:.*]] = reshape %[[KS]] : (tensor<1xui64>) -> tensor<ui64>
// CHECK: %[[LS:.*]] = slice %arg0 {slice = #hlo.slice<"{[1:2]}">}
// CHECK: %[[L:.*]] = reshape %[[LS]] : (tensor<1xui64>) -> tensor<ui64>
// CHECK: %[[IOTA:.*]] = iota {iota_dimension = 0 : i64} : () -> tensor<2xui64>
// CHECK: %[[LO:.*]] = add %{{.*}}, %[[IOTA]]
// CHECK: %[[CARRY:.*]] = compare %[[LO]], %{{.*}} {direction = #hlo<comparison_direction LT>} : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xi1>
// CHECK: convert %[[CARRY]] : (tensor<2xi1>) -> tensor<2xui64>
// CHECK: constant {value = dense<3528531795> : tensor<ui64>}
// CHECK-COUNT-20: multiply {{.*}} : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xui64>
// CHECK: concatenate {{.*}} {dimensions = array<i64: 1>} : (tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>) -> tensor<2x4xui32>
// CHECK: reshape {{.*}} : (tensor<2x4xui32>) -> tensor<8xui32>
// CHECK: constant {value = dense<2> : tensor<ui64>}
// CHECK: %[[NS:.*]] = concatenate {{.*}} {dimensions = array<i64: 0>} : (tensor<1xui64>, tensor<1xui64>) -> tensor<2xui64>
// CHECK: %[[T:.*]] = tuple %[[NS]], %{{.*}} : (tensor<2xui64>, tensor<8xui32>) -> tuple<tensor<2xui64>, tensor<8xui32>>
// CHECK: return %[[T]]
// Philox u64[2] -> u64[3,5]: two 64-bit values a block, 8 blocks, 16
// values sliced to 15.
// CHECK: hlo.computation private @[[P35]](
// CHECK: iota {iota_dimension = 0 : i64} : () -> tensor<8xui64>
// CHECK: reshape {{.*}} : (tensor<8x2xui64>) -> tensor<16xui64>
// CHECK: slice {{.*}} {slice = #hlo.slice<"{[0:15]}">} : (tensor<16xui64>) -> tensor<15xui64>
// CHECK: reshape {{.*}} : (tensor<15xui64>) -> tensor<3x5xui64>
// Philox u64[3]: the carry goes into state[2].
// CHECK: hlo.computation private @[[P16]](
// CHECK: slice %arg0 {slice = #hlo.slice<"{[2:3]}">}
// CHECK: concatenate {{.*}} : (tensor<1xui64>, tensor<1xui64>, tensor<1xui64>) -> tensor<3xui64>
// Threefry u32[8]: four counters, the two words of each neighbours along
// dimension 0; 20 rounds of add, rotate, xor.
// CHECK: hlo.computation private @[[T8]](
// CHECK: iota {iota_dimension = 0 : i64} : () -> tensor<4xui64>
// CHECK: constant {value = dense<466688986> : tensor<ui32>}
// CHECK-COUNT-20: xor {{.*}} : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
// CHECK: concatenate {{.*}} {dimensions = array<i64: 1>} : (tensor<4x1xui32>, tensor<4x1xui32>) -> tensor<4x2xui32>
// CHECK: reshape {{.*}} : (tensor<4x2xui32>) -> tensor<8xui32>
// Threefry u64[3,5]: one counter per value, low word first.
// CHECK: hlo.computation private @[[T35]](
// CHECK: iota {iota_dimension = 0 : i64} : () -> tensor<15xui64>
// CHECK: shift_left {{.*}} : (tensor<15xui64>, tensor<15xui64>) -> tensor<15xui64>
// CHECK: reshape {{.*}} : (tensor<15xui64>) -> tensor<3x5xui64>
// Threefry u64[3]: state[2] is kept.
// CHECK: hlo.computation private @[[T16]](
// CHECK: slice %arg0 {slice = #hlo.slice<"{[2:3]}">}
// CHECK: concatenate {{.*}} : (tensor<1xui64>, tensor<1xui64>, tensor<1xui64>) -> tensor<3xui64>

// -----

// Counters that wrap (the 64-bit low counter of philox into its high half,
// which wraps too; threefry's counter across 2^32 and 2^64), narrow and
// signed element types, odd shapes (threefry pairs along the first even
// dimension, else the first largest, sliced back), a scalar, and a u64[4]
// state whose last elements are kept.
// CHECK-LABEL: hlo.computation @edges
hlo.computation @edges() -> tuple<tuple<tensor<3xui64>, tensor<9xui32>>, tuple<tensor<2xui64>, tensor<3xi64>>, tuple<tensor<2xui64>, tensor<3x5xui32>>, tuple<tensor<2xui64>, tensor<7xui8>>, tuple<tensor<2xui64>, tensor<2x3xi16>>, tuple<tensor<2xui64>, tensor<ui32>>, tuple<tensor<4xui64>, tensor<5xi8>>, tuple<tensor<4xui64>, tensor<3x2xi32>>, tuple<tensor<2xui64>, tensor<5x3xui16>>> attributes {entry} {
  %a = hlo.constant {value = dense<[12345678901234567, 18446744073709551614, 18446744073709551615]> : tensor<3xui64>} : () -> tensor<3xui64>
  %b = hlo.constant {value = dense<[18446744073709551615, 18446744073709551615]> : tensor<2xui64>} : () -> tensor<2xui64>
  %c = hlo.constant {value = dense<[7, 4294967294]> : tensor<2xui64>} : () -> tensor<2xui64>
  %d = hlo.constant {value = dense<[99, 42, 5, 6]> : tensor<4xui64>} : () -> tensor<4xui64>
  // CHECK-COUNT-9: call
  %0 = hlo.rng_bit_generator %a {algorithm = #hlo<rng_algorithm rng_philox>} : (tensor<3xui64>) -> tuple<tensor<3xui64>, tensor<9xui32>>
  %1 = hlo.rng_bit_generator %b {algorithm = #hlo<rng_algorithm rng_philox>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<3xi64>>
  %2 = hlo.rng_bit_generator %c {algorithm = #hlo<rng_algorithm rng_three_fry>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<3x5xui32>>
  %3 = hlo.rng_bit_generator %b {algorithm = #hlo<rng_algorithm rng_three_fry>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<7xui8>>
  %4 = hlo.rng_bit_generator %c {algorithm = #hlo<rng_algorithm rng_three_fry>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<2x3xi16>>
  %5 = hlo.rng_bit_generator %c {algorithm = #hlo<rng_algorithm rng_three_fry>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<ui32>>
  %6 = hlo.rng_bit_generator %d {algorithm = #hlo<rng_algorithm rng_philox>} : (tensor<4xui64>) -> tuple<tensor<4xui64>, tensor<5xi8>>
  %7 = hlo.rng_bit_generator %d {algorithm = #hlo<rng_algorithm rng_three_fry>} : (tensor<4xui64>) -> tuple<tensor<4xui64>, tensor<3x2xi32>>
  %8 = hlo.rng_bit_generator %c {algorithm = #hlo<rng_algorithm rng_three_fry>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<5x3xui16>>
  %r = hlo.tuple %0, %1, %2, %3, %4, %5, %6, %7, %8 : (tuple<tensor<3xui64>, tensor<9xui32>>, tuple<tensor<2xui64>, tensor<3xi64>>, tuple<tensor<2xui64>, tensor<3x5xui32>>, tuple<tensor<2xui64>, tensor<7xui8>>, tuple<tensor<2xui64>, tensor<2x3xi16>>, tuple<tensor<2xui64>, tensor<ui32>>, tuple<tensor<4xui64>, tensor<5xi8>>, tuple<tensor<4xui64>, tensor<3x2xi32>>, tuple<tensor<2xui64>, tensor<5x3xui16>>) -> tuple<tuple<tensor<3xui64>, tensor<9xui32>>, tuple<tensor<2xui64>, tensor<3xi64>>, tuple<tensor<2xui64>, tensor<3x5xui32>>, tuple<tensor<2xui64>, tensor<7xui8>>, tuple<tensor<2xui64>, tensor<2x3xi16>>, tuple<tensor<2xui64>, tensor<ui32>>, tuple<tensor<4xui64>, tensor<5xi8>>, tuple<tensor<4xui64>, tensor<3x2xi32>>, tuple<tensor<2xui64>, tensor<5x3xui16>>>
  hlo.return %r : tuple<tuple<tensor<3xui64>, tensor<9xui32>>, tuple<tensor<2xui64>, tensor<3xi64>>, tuple<tensor<2xui64>, tensor<3x5xui32>>, tuple<tensor<2xui64>, tensor<7xui8>>, tuple<tensor<2xui64>, tensor<2x3xi16>>, tuple<tensor<2xui64>, tensor<ui32>>, tuple<tensor<4xui64>, tensor<5xi8>>, tuple<tensor<4xui64>, tensor<3x2xi32>>, tuple<tensor<2xui64>, tensor<5x3xui16>>>
}
// Philox u32[9] from u64[3]: 3 blocks, the high counter gets the carry.
// CHECK: hlo.computation private @rng_philox(
// CHECK: slice {{.*}} {slice = #hlo.slice<"{[0:9]}">} : (tensor<12xui32>) -> tensor<9xui32>
// Signed 64-bit values are the u64 bits reinterpreted.
// CHECK: hlo.computation private @rng_philox_0(
// CHECK: bitcast_convert {{.*}} : (tensor<3xui64>) -> tensor<3xi64>
// u32[3,5]: no even dimension; pairs along dimension 1 (5 -> 3 counters).
// CHECK: hlo.computation private @rng_three_fry(
// CHECK: iota {iota_dimension = 0 : i64} : () -> tensor<9xui64>
// CHECK: concatenate {{.*}} {dimensions = array<i64: 2>} : (tensor<3x3x1xui32>, tensor<3x3x1xui32>) -> tensor<3x3x2xui32>
// CHECK: reshape {{.*}} : (tensor<3x3x2xui32>) -> tensor<3x6xui32>
// CHECK: slice {{.*}} {slice = #hlo.slice<"{[0:3], [0:5]}">} : (tensor<3x6xui32>) -> tensor<3x5xui32>
// u8: the low bits of each word.
// CHECK: hlo.computation private @rng_three_fry_1(
// CHECK: convert {{.*}} : (tensor<7xui32>) -> tensor<7xui8>
// CHECK: hlo.computation private @rng_three_fry_2(
// CHECK: convert {{.*}} : (tensor<6xui32>) -> tensor<6xui16>
// CHECK: bitcast_convert {{.*}} : (tensor<2x3xui16>) -> tensor<2x3xi16>
// CHECK: hlo.computation private @rng_three_fry_3(
// CHECK: iota {iota_dimension = 0 : i64} : () -> tensor<1xui64>
// CHECK: reshape {{.*}} : (tensor<1xui32>) -> tensor<ui32>
// A u64[4] state keeps state[2:4] (philox) and state[3:4] (three_fry).
// CHECK: hlo.computation private @rng_philox_4(
// CHECK: slice %arg0 {slice = #hlo.slice<"{[3:4]}">}
// CHECK: concatenate {{.*}} : (tensor<1xui64>, tensor<1xui64>, tensor<1xui64>, tensor<1xui64>) -> tensor<4xui64>
// CHECK: hlo.computation private @rng_three_fry_5(
// CHECK: slice %arg0 {slice = #hlo.slice<"{[2:4]}">}
// CHECK: concatenate {{.*}} : (tensor<1xui64>, tensor<1xui64>, tensor<2xui64>) -> tensor<4xui64>

// -----

// Empty results: no counter is used, the state is unchanged.
// CHECK-LABEL: hlo.computation @empty
// CHECK-COUNT-3: call
hlo.computation @empty(%s: tensor<2xui64>) -> tuple<tuple<tensor<2xui64>, tensor<0x3xui32>>, tuple<tensor<2xui64>, tensor<0xui64>>, tuple<tensor<2xui64>, tensor<3x0xui32>>> attributes {entry} {
  %0 = hlo.rng_bit_generator %s {algorithm = #hlo<rng_algorithm rng_three_fry>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<0x3xui32>>
  %1 = hlo.rng_bit_generator %s {algorithm = #hlo<rng_algorithm rng_philox>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<0xui64>>
  %2 = hlo.rng_bit_generator %s {algorithm = #hlo<rng_algorithm rng_three_fry>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<3x0xui32>>
  %r = hlo.tuple %0, %1, %2 : (tuple<tensor<2xui64>, tensor<0x3xui32>>, tuple<tensor<2xui64>, tensor<0xui64>>, tuple<tensor<2xui64>, tensor<3x0xui32>>) -> tuple<tuple<tensor<2xui64>, tensor<0x3xui32>>, tuple<tensor<2xui64>, tensor<0xui64>>, tuple<tensor<2xui64>, tensor<3x0xui32>>>
  hlo.return %r : tuple<tuple<tensor<2xui64>, tensor<0x3xui32>>, tuple<tensor<2xui64>, tensor<0xui64>>, tuple<tensor<2xui64>, tensor<3x0xui32>>>
}

// -----

// rng_default is philox, or the algorithm of default-algorithm (the
// interpreter's rng_default is philox, as XLA's GPU compiler makes it, so
// only the default is checked against it).
// CHECK-LABEL: hlo.computation @default
// THREEFRY-LABEL: hlo.computation @default
hlo.computation @default(%s: tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<4x4xui32>> attributes {entry} {
  // CHECK: call %arg0 {to_apply = @rng_philox}
  // THREEFRY: call %arg0 {to_apply = @rng_three_fry}
  %0 = hlo.rng_bit_generator %s {algorithm = #hlo<rng_algorithm rng_default>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<4x4xui32>>
  hlo.return %0 : tuple<tensor<2xui64>, tensor<4x4xui32>>
}

// -----

// Left alone: control predecessors and dynamic shapes.
// CHECK-LABEL: hlo.computation @keep
hlo.computation @keep(%s: tensor<2xui64>) -> tuple<tuple<tensor<2xui64>, tensor<4xui32>>, tuple<tensor<2xui64>, tensor<?xui32, #hlo.layout<[0], bounds = [4]>>>> attributes {entry} {
  // CHECK-NOT: call
  // CHECK: %[[P:.*]] = negate %arg0
  %p = hlo.negate %s : (tensor<2xui64>) -> tensor<2xui64>
  // CHECK: rng_bit_generator %arg0 after(%[[P]]
  %0 = hlo.rng_bit_generator %s after(%p : tensor<2xui64>) {algorithm = #hlo<rng_algorithm rng_philox>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<4xui32>>
  // CHECK: rng_bit_generator %arg0 {algorithm
  %1 = hlo.rng_bit_generator %s {algorithm = #hlo<rng_algorithm rng_philox>} : (tensor<2xui64>) -> tuple<tensor<2xui64>, tensor<?xui32, #hlo.layout<[0], bounds = [4]>>>
  %r = hlo.tuple %0, %1 : (tuple<tensor<2xui64>, tensor<4xui32>>, tuple<tensor<2xui64>, tensor<?xui32, #hlo.layout<[0], bounds = [4]>>>) -> tuple<tuple<tensor<2xui64>, tensor<4xui32>>, tuple<tensor<2xui64>, tensor<?xui32, #hlo.layout<[0], bounds = [4]>>>>
  hlo.return %r : tuple<tuple<tensor<2xui64>, tensor<4xui32>>, tuple<tensor<2xui64>, tensor<?xui32, #hlo.layout<[0], bounds = [4]>>>>
}
