// RUN: hlo-opt %s -split-input-file --hlo-comparison-expander | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-comparison-expander="expand-via-upcast=bf16:f32,f16:f64" | FileCheck %s --check-prefix=UPCAST
// RUN: hlo-opt %s -split-input-file --hlo-comparison-expander --hlo-check-semantics -o /dev/null
// RUN: hlo-opt %s -split-input-file --hlo-comparison-expander="expand-via-upcast=bf16:f32,f16:f64" --hlo-check-semantics -o /dev/null
// RUN: not hlo-opt %s --hlo-comparison-expander="expand-via-upcast=f32:bf16" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not hlo-opt %s --hlo-comparison-expander="expand-via-upcast=f32" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD2

// BAD: expand-via-upcast: 'bf16' does not hold every value of 'f32'
// BAD2: expand-via-upcast: 'f32' is not a pair of float types 'from:to'

// A total-order compare of floats becomes a signed compare of keys: the
// bits as a signed integer, negative ones xor INT_MAX. The constants are
// made once per compare and shared by both operands; the compare keeps its
// name and attributes. Special values (NaN of both signs, signed zeros,
// infinities) are compared to check the order.
// CHECK-LABEL: hlo.computation @f32
// UPCAST-LABEL: hlo.computation @f32
hlo.computation @f32(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tuple<tensor<8xi1>, tensor<8xi1>, tensor<8xi1>> attributes {entry} {
  %s = hlo.constant {value = dense<[0x7FC00000, 0xFFC00000, -0.0, 0.0, 0x7F800000, 0xFF800000, 1.0, -1.0]> : tensor<8xf32>} : () -> tensor<8xf32>
  %t = hlo.constant {value = dense<[0.0, -0.0, 0xFFC00000, 0x7FC00000, -1.0, 1.0, 0xFF800000, 0x7F800000]> : tensor<8xf32>} : () -> tensor<8xf32>
  // CHECK: %[[A:.*]] = bitcast_convert %arg0 : (tensor<8xf32>) -> tensor<8xi32>
  // CHECK: %[[Z:.*]] = constant {value = dense<0> : tensor<i32>}
  // CHECK: %[[ZB:.*]] = broadcast %[[Z]] {dimensions = array<i64>} : (tensor<i32>) -> tensor<8xi32>
  // CHECK: %[[AN:.*]] = compare %[[A]], %[[ZB]] {direction = #hlo<comparison_direction LT>}
  // CHECK: %[[M:.*]] = constant {value = dense<2147483647> : tensor<i32>}
  // CHECK: %[[MB:.*]] = broadcast %[[M]]
  // CHECK: %[[AX:.*]] = xor %[[A]], %[[MB]]
  // CHECK: %[[AK:.*]] = select %[[AN]], %[[AX]], %[[A]]
  // CHECK: %[[B:.*]] = bitcast_convert %arg1 : (tensor<8xf32>) -> tensor<8xi32>
  // CHECK: %[[BN:.*]] = compare %[[B]], %[[ZB]]
  // CHECK: %[[BX:.*]] = xor %[[B]], %[[MB]]
  // CHECK: %[[BK:.*]] = select %[[BN]], %[[BX]], %[[B]]
  // CHECK: compare %[[AK]], %[[BK]] {comparison_type = #hlo<comparison_type SIGNED>, direction = #hlo<comparison_direction LT>, frontend_attributes = {k = "v"}} : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  %0 = hlo.compare %a, %b {comparison_type = #hlo<comparison_type TOTALORDER>, direction = #hlo<comparison_direction LT>, frontend_attributes = {k = "v"}} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  // CHECK: compare {{.*}}comparison_type = #hlo<comparison_type SIGNED>, direction = #hlo<comparison_direction GE>
  %1 = hlo.compare %s, %t {comparison_type = #hlo<comparison_type TOTALORDER>, direction = #hlo<comparison_direction GE>} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  // CHECK: compare {{.*}}comparison_type = #hlo<comparison_type SIGNED>, direction = #hlo<comparison_direction NE>
  // CHECK-NOT: TOTALORDER
  // UPCAST-NOT: = convert
  %2 = hlo.compare %s, %a {comparison_type = #hlo<comparison_type TOTALORDER>, direction = #hlo<comparison_direction NE>} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  %r = hlo.tuple %0, %1, %2 : (tensor<8xi1>, tensor<8xi1>, tensor<8xi1>) -> tuple<tensor<8xi1>, tensor<8xi1>, tensor<8xi1>>
  hlo.return %r : tuple<tensor<8xi1>, tensor<8xi1>, tensor<8xi1>>
}

// -----

// Other widths use the integer of their width; with expand-via-upcast,
// bf16 is compared as f32 and f16 as f64 (converted first). The result
// keeps its layout.
// CHECK-LABEL: hlo.computation @widths
// UPCAST-LABEL: hlo.computation @widths
hlo.computation @widths(%a: tensor<2x3xbf16>, %b: tensor<2x3xbf16>, %c: tensor<4xf16>, %d: tensor<4xf64>) -> tuple<tensor<2x3xi1, #hlo.layout<[0, 1]>>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>> attributes {entry} {
  // CHECK: bitcast_convert %arg0 : (tensor<2x3xbf16>) -> tensor<2x3xi16>
  // CHECK: constant {value = dense<32767> : tensor<i16>}
  // CHECK: compare {{.*}}comparison_type = #hlo<comparison_type SIGNED>, direction = #hlo<comparison_direction LE>} : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi1, #hlo.layout<[0, 1]>>
  // UPCAST: %[[A:.*]] = convert %arg0 : (tensor<2x3xbf16>) -> tensor<2x3xf32>
  // UPCAST: bitcast_convert %[[A]] : (tensor<2x3xf32>) -> tensor<2x3xi32>
  // UPCAST: %[[B:.*]] = convert %arg1 : (tensor<2x3xbf16>) -> tensor<2x3xf32>
  // UPCAST: bitcast_convert %[[B]] : (tensor<2x3xf32>) -> tensor<2x3xi32>
  // UPCAST: compare {{.*}} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1, #hlo.layout<[0, 1]>>
  %0 = hlo.compare %a, %b {comparison_type = #hlo<comparison_type TOTALORDER>, direction = #hlo<comparison_direction LE>} : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xi1, #hlo.layout<[0, 1]>>
  %z = hlo.constant {value = dense<[0x7E00, -0.0, 0xFC00, 0xFE00]> : tensor<4xf16>} : () -> tensor<4xf16>
  // CHECK: bitcast_convert %arg2 : (tensor<4xf16>) -> tensor<4xi16>
  // CHECK: compare {{.*}} : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi1>
  // UPCAST: convert %arg2 : (tensor<4xf16>) -> tensor<4xf64>
  // UPCAST: compare {{.*}} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %1 = hlo.compare %c, %z {comparison_type = #hlo<comparison_type TOTALORDER>, direction = #hlo<comparison_direction GT>} : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xi1>
  // CHECK: bitcast_convert %arg3 : (tensor<4xf64>) -> tensor<4xi64>
  // CHECK: constant {value = dense<9223372036854775807> : tensor<i64>}
  // CHECK: compare {{.*}} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %2 = hlo.compare %d, %d {comparison_type = #hlo<comparison_type TOTALORDER>, direction = #hlo<comparison_direction EQ>} : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
  // A scalar compare has no broadcasts.
  // CHECK: %[[S:.*]] = bitcast_convert {{.*}} : (tensor<f64>) -> tensor<i64>
  // CHECK-NOT: broadcast
  // CHECK: compare {{.*}} : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %s = hlo.slice %d {slice = #hlo.slice<"{[0:1]}">} : (tensor<4xf64>) -> tensor<1xf64>
  %ss = hlo.reshape %s : (tensor<1xf64>) -> tensor<f64>
  %3 = hlo.compare %ss, %ss {comparison_type = #hlo<comparison_type TOTALORDER>, direction = #hlo<comparison_direction LT>} : (tensor<f64>, tensor<f64>) -> tensor<i1>
  %bc = hlo.broadcast %3 {dimensions = array<i64>} : (tensor<i1>) -> tensor<4xi1>
  %r = hlo.tuple %0, %1, %2, %bc : (tensor<2x3xi1, #hlo.layout<[0, 1]>>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) -> tuple<tensor<2x3xi1, #hlo.layout<[0, 1]>>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>>
  hlo.return %r : tuple<tensor<2x3xi1, #hlo.layout<[0, 1]>>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>>
}

// -----

// A type without negative zero (its sign-only pattern is its NaN): negative
// values map to INT_MIN - x, the NaN to INT_MIN.
// CHECK-LABEL: hlo.computation @fnuz
hlo.computation @fnuz(%a: tensor<4xf8E4M3FNUZ>) -> tensor<4xi1> attributes {entry} {
  %c = hlo.constant {value = dense<[0x80, 0x81, 0.0, 1.0]> : tensor<4xf8E4M3FNUZ>} : () -> tensor<4xf8E4M3FNUZ>
  // CHECK: %[[A:.*]] = bitcast_convert %arg0 : (tensor<4xf8E4M3FNUZ>) -> tensor<4xi8>
  // CHECK: %[[N:.*]] = compare %[[A]], %{{.*}} {direction = #hlo<comparison_direction LT>}
  // CHECK: %[[MIN:.*]] = constant {value = dense<-128> : tensor<i8>}
  // CHECK: %[[MINB:.*]] = broadcast %[[MIN]]
  // CHECK: %[[NAN:.*]] = compare %[[A]], %[[MINB]] {direction = #hlo<comparison_direction EQ>}
  // CHECK: %[[F:.*]] = subtract %[[MINB]], %[[A]]
  // CHECK: %[[G:.*]] = select %[[NAN]], %[[MINB]], %[[F]]
  // CHECK: select %[[N]], %[[G]], %[[A]]
  // CHECK-NOT: xor
  %0 = hlo.compare %a, %c {comparison_type = #hlo<comparison_type TOTALORDER>, direction = #hlo<comparison_direction LT>} : (tensor<4xf8E4M3FNUZ>, tensor<4xf8E4M3FNUZ>) -> tensor<4xi1>
  hlo.return %0 : tensor<4xi1>
}

// -----

// Left alone: float compares of other types (or none), integer compares,
// control predecessors and dynamic shapes.
// CHECK-LABEL: hlo.computation @keep
hlo.computation @keep(%a: tensor<4xf32>, %i: tensor<4xi32>, %d: tensor<?xf32, #hlo.layout<[0], bounds = [4]>>) -> tuple<tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<?xi1, #hlo.layout<[0], bounds = [4]>>> attributes {entry} {
  // CHECK-NOT: bitcast_convert
  // CHECK: compare %arg0, %arg0 {comparison_type = #hlo<comparison_type FLOAT>
  %0 = hlo.compare %a, %a {comparison_type = #hlo<comparison_type FLOAT>, direction = #hlo<comparison_direction LT>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: compare %arg0, %arg0 {direction
  %1 = hlo.compare %a, %a {direction = #hlo<comparison_direction EQ>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: compare %arg1, %arg1 {comparison_type = #hlo<comparison_type SIGNED>
  %2 = hlo.compare %i, %i {comparison_type = #hlo<comparison_type SIGNED>, direction = #hlo<comparison_direction LT>} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  // CHECK: compare %arg0, %arg0 after({{.*}}) {comparison_type = #hlo<comparison_type TOTALORDER>
  %3 = hlo.compare %a, %a after(%0 : tensor<4xi1>) {comparison_type = #hlo<comparison_type TOTALORDER>, direction = #hlo<comparison_direction LT>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: compare %arg2, %arg2 {comparison_type = #hlo<comparison_type TOTALORDER>
  %4 = hlo.compare %d, %d {comparison_type = #hlo<comparison_type TOTALORDER>, direction = #hlo<comparison_direction LT>} : (tensor<?xf32, #hlo.layout<[0], bounds = [4]>>, tensor<?xf32, #hlo.layout<[0], bounds = [4]>>) -> tensor<?xi1, #hlo.layout<[0], bounds = [4]>>
  %r = hlo.tuple %0, %1, %2, %3, %4 : (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<?xi1, #hlo.layout<[0], bounds = [4]>>) -> tuple<tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<?xi1, #hlo.layout<[0], bounds = [4]>>>
  hlo.return %r : tuple<tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<?xi1, #hlo.layout<[0], bounds = [4]>>>
}
