// RUN: hlo-opt %s | hlo-opt | FileCheck %s

// Elementwise ops: unary, binary, compare, complex, clamp, select and the
// conversions. Each op prints in the uniform form and re-parses to itself.

// CHECK-LABEL: hlo.computation @unary_float
hlo.computation @unary_float(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %0 = abs %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = hlo.abs %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %1 = acos %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = hlo.acos %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %2 = acosh %1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = hlo.acosh %1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %3 = asin %2 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = hlo.asin %2 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %4 = asinh %3 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = hlo.asinh %3 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %5 = atanh %4 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = hlo.atanh %4 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %6 = cbrt %5 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = hlo.cbrt %5 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %7 = ceil %6 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = hlo.ceil %6 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %8 = cosine %7 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %8 = hlo.cosine %7 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %9 = cosh %8 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %9 = hlo.cosh %8 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %10 = erf %9 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %10 = hlo.erf %9 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %11 = exponential %10 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %11 = hlo.exponential %10 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %12 = exponential_minus_one %11 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %12 = hlo.exponential_minus_one %11 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %13 = floor %12 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %13 = hlo.floor %12 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %14 = log %13 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %14 = hlo.log %13 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %15 = log_plus_one %14 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %15 = hlo.log_plus_one %14 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %16 = logistic %15 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %16 = hlo.logistic %15 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %17 = negate %16 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %17 = hlo.negate %16 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %18 = round_nearest_afz %17 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %18 = hlo.round_nearest_afz %17 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %19 = round_nearest_even %18 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %19 = hlo.round_nearest_even %18 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %20 = rsqrt %19 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %20 = hlo.rsqrt %19 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %21 = sign %20 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %21 = hlo.sign %20 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %22 = sine %21 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %22 = hlo.sine %21 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %23 = sinh %22 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %23 = hlo.sinh %22 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %24 = sqrt %23 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %24 = hlo.sqrt %23 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %25 = tan %24 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %25 = hlo.tan %24 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %26 = tanh %25 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %26 = hlo.tanh %25 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %27 = copy %26 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %27 = hlo.copy %26 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  hlo.return %27 : tensor<2x3xf32>
}

// CHECK-LABEL: hlo.computation @unary_int
hlo.computation @unary_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: %0 = count_leading_zeros %arg0 : (tensor<4xi32>) -> tensor<4xi32>
  %0 = hlo.count_leading_zeros %x : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: %1 = popcnt %0 : (tensor<4xi32>) -> tensor<4xi32>
  %1 = hlo.popcnt %0 : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: %2 = not %1 : (tensor<4xi32>) -> tensor<4xi32>
  %2 = hlo.not %1 : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: %3 = abs %2 : (tensor<4xi32>) -> tensor<4xi32>
  %3 = hlo.abs %2 : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: %4 = negate %3 : (tensor<4xi32>) -> tensor<4xi32>
  %4 = hlo.negate %3 : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: %5 = sign %4 : (tensor<4xi32>) -> tensor<4xi32>
  %5 = hlo.sign %4 : (tensor<4xi32>) -> tensor<4xi32>
  hlo.return %5 : tensor<4xi32>
}

// Complex operands: abs, real and imag give the component type.
// CHECK-LABEL: hlo.computation @unary_complex
hlo.computation @unary_complex(%x: tensor<3xcomplex<f32>>) -> tensor<3xf32> {
  // CHECK: %0 = abs %arg0 : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %0 = hlo.abs %x : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  // CHECK: %1 = real %arg0 : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %1 = hlo.real %x : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  // CHECK: %2 = imag %arg0 : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %2 = hlo.imag %x : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  // CHECK: %3 = exponential %arg0 : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  %3 = hlo.exponential %x : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  // CHECK: %4 = complex %1, %2 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xcomplex<f32>>
  %4 = hlo.complex %1, %2 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xcomplex<f32>>
  %5 = hlo.add %0, %1 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  hlo.return %5 : tensor<3xf32>
}

// CHECK-LABEL: hlo.computation @is_finite
hlo.computation @is_finite(%x: tensor<2xbf16>) -> tensor<2xi1> {
  // CHECK: %0 = is_finite %arg0 : (tensor<2xbf16>) -> tensor<2xi1>
  %0 = hlo.is_finite %x : (tensor<2xbf16>) -> tensor<2xi1>
  hlo.return %0 : tensor<2xi1>
}

// Layouts are part of the type and survive the round trip; copy may change
// them, and copies tuples too.
// CHECK-LABEL: hlo.computation @copy_layout
hlo.computation @copy_layout(%x: tensor<2x3xf32, #hlo.layout<[1, 0]>>, %t: tuple<tensor<f32>, tensor<2xi32>>) -> tensor<2x3xf32, #hlo.layout<[0, 1]>> {
  // CHECK: %0 = copy %arg0 : (tensor<2x3xf32, #hlo.layout<[1, 0]>>) -> tensor<2x3xf32, #hlo.layout<[0, 1]>>
  %0 = hlo.copy %x : (tensor<2x3xf32, #hlo.layout<[1, 0]>>) -> tensor<2x3xf32, #hlo.layout<[0, 1]>>
  // CHECK: %1 = copy %arg1 : (tuple<tensor<f32>, tensor<2xi32>>) -> tuple<tensor<f32>, tensor<2xi32>>
  %1 = hlo.copy %t : (tuple<tensor<f32>, tensor<2xi32>>) -> tuple<tensor<f32>, tensor<2xi32>>
  hlo.return %0 : tensor<2x3xf32, #hlo.layout<[0, 1]>>
}

// CHECK-LABEL: hlo.computation @conversions
hlo.computation @conversions(%x: tensor<4xf32>, %r: tensor<4xui32>) -> tensor<4xi32> {
  // CHECK: %0 = convert %arg0 : (tensor<4xf32>) -> tensor<4xi32>
  %0 = hlo.convert %x : (tensor<4xf32>) -> tensor<4xi32>
  // CHECK: %1 = bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<4xi32>
  %1 = hlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xi32>
  // Narrowing adds a minor dimension, widening removes one.
  // CHECK: %2 = bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<4x2xbf16>
  %2 = hlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4x2xbf16>
  // CHECK: %3 = bitcast_convert %2 : (tensor<4x2xbf16>) -> tensor<4xui32>
  %3 = hlo.bitcast_convert %2 : (tensor<4x2xbf16>) -> tensor<4xui32>
  // CHECK: %4 = reduce_precision %arg0 {exponent_bits = 5 : i64, mantissa_bits = 10 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %4 = hlo.reduce_precision %x {exponent_bits = 5 : i64, mantissa_bits = 10 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: %5 = stochastic_convert %4, %arg1 : (tensor<4xf32>, tensor<4xui32>) -> tensor<4xi8>
  %5 = hlo.stochastic_convert %4, %r : (tensor<4xf32>, tensor<4xui32>) -> tensor<4xi8>
  hlo.return %0 : tensor<4xi32>
}

// CHECK-LABEL: hlo.computation @binary_float
hlo.computation @binary_float(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // CHECK: %0 = add %arg0, %arg1 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %0 = hlo.add %a, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: %1 = subtract %0, %arg1
  %1 = hlo.subtract %0, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: %2 = multiply %1, %arg1
  %2 = hlo.multiply %1, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: %3 = divide %2, %arg1
  %3 = hlo.divide %2, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: %4 = maximum %3, %arg1
  %4 = hlo.maximum %3, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: %5 = minimum %4, %arg1
  %5 = hlo.minimum %4, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: %6 = power %5, %arg1
  %6 = hlo.power %5, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: %7 = remainder %6, %arg1
  %7 = hlo.remainder %6, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK: %8 = atan2 %7, %arg1 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %8 = hlo.atan2 %7, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  hlo.return %8 : tensor<2x2xf32>
}

// CHECK-LABEL: hlo.computation @binary_int
hlo.computation @binary_int(%a: tensor<8xui32>, %b: tensor<8xui32>) -> tensor<8xui32> {
  // CHECK: %0 = and %arg0, %arg1 : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
  %0 = hlo.and %a, %b : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
  // CHECK: %1 = or %0, %arg1
  %1 = hlo.or %0, %b : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
  // CHECK: %2 = xor %1, %arg1
  %2 = hlo.xor %1, %b : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
  // CHECK: %3 = shift_left %2, %arg1
  %3 = hlo.shift_left %2, %b : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
  // CHECK: %4 = shift_right_arithmetic %3, %arg1
  %4 = hlo.shift_right_arithmetic %3, %b : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
  // CHECK: %5 = shift_right_logical %4, %arg1
  %5 = hlo.shift_right_logical %4, %b : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
  // CHECK: %6 = mulhi %5, %arg1 : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
  %6 = hlo.mulhi %5, %b : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
  hlo.return %6 : tensor<8xui32>
}

// Bounded dynamic dimensions are compatible with static ones of any size.
// CHECK-LABEL: hlo.computation @binary_bounded
hlo.computation @binary_bounded(%a: tensor<?x4xf32, #hlo.layout<[1, 0], bounds = [8, ?]>>, %b: tensor<8x4xf32>) -> tensor<?x4xf32, #hlo.layout<[1, 0], bounds = [8, ?]>> {
  // CHECK: %0 = add %arg0, %arg1 : (tensor<?x4xf32, #hlo.layout<[1, 0], bounds = [8, ?]>>, tensor<8x4xf32>) -> tensor<?x4xf32, #hlo.layout<[1, 0], bounds = [8, ?]>>
  %0 = hlo.add %a, %b : (tensor<?x4xf32, #hlo.layout<[1, 0], bounds = [8, ?]>>, tensor<8x4xf32>) -> tensor<?x4xf32, #hlo.layout<[1, 0], bounds = [8, ?]>>
  hlo.return %0 : tensor<?x4xf32, #hlo.layout<[1, 0], bounds = [8, ?]>>
}

// CHECK-LABEL: hlo.computation @compare
hlo.computation @compare(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xui8>) -> tensor<4xi1> {
  // CHECK: %0 = compare %arg0, %arg1 {direction = #hlo<comparison_direction LT>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %0 = hlo.compare %a, %b {direction = #hlo<comparison_direction LT>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: %1 = compare %arg0, %arg1 {comparison_type = #hlo<comparison_type TOTALORDER>, direction = #hlo<comparison_direction GE>}
  %1 = hlo.compare %a, %b {direction = #hlo<comparison_direction GE>, comparison_type = #hlo<comparison_type TOTALORDER>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: %2 = compare %arg2, %arg2 {comparison_type = #hlo<comparison_type UNSIGNED>, direction = #hlo<comparison_direction NE>} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  %2 = hlo.compare %i, %i {direction = #hlo<comparison_direction NE>, comparison_type = #hlo<comparison_type UNSIGNED>} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  // CHECK: %3 = and %0, %1 : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %3 = hlo.and %0, %1 : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  // CHECK: %4 = not %3 : (tensor<4xi1>) -> tensor<4xi1>
  %4 = hlo.not %3 : (tensor<4xi1>) -> tensor<4xi1>
  hlo.return %4 : tensor<4xi1>
}

// clamp takes scalar or full-shape bounds; select a scalar or full-shape
// predicate.
// CHECK-LABEL: hlo.computation @clamp_select
hlo.computation @clamp_select(%lo: tensor<f32>, %x: tensor<2x3xf32>, %hi: tensor<2x3xf32>, %p: tensor<2x3xi1>, %q: tensor<i1>) -> tensor<2x3xf32> {
  // CHECK: %0 = clamp %arg0, %arg1, %arg2 : (tensor<f32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = hlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %1 = select %arg3, %0, %arg1 : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = hlo.select %p, %0, %x : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %2 = select %arg4, %1, %0 : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = hlo.select %q, %1, %0 : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  hlo.return %2 : tensor<2x3xf32>
}

// Common instruction attributes print back unchanged.
// CHECK-LABEL: hlo.computation @common_attrs
hlo.computation @common_attrs(%a: tensor<f32>) -> tensor<f32> {
  // CHECK: %0 = negate %arg0 {backend_config = #hlo.text<"{\22x\22:1}">, frontend_attributes = {k = "v"}, sharding = #hlo.sharding<"{replicated}">} : (tensor<f32>) -> tensor<f32>
  %0 = hlo.negate %a {sharding = #hlo.sharding<"{replicated}">, frontend_attributes = {k = "v"}, backend_config = #hlo.text<"{\"x\":1}">} : (tensor<f32>) -> tensor<f32>
  // CHECK: %1 = negate %0 after(%arg0 : tensor<f32>) {sharding = #hlo.sharding<"{maximal device=1}">} : (tensor<f32>) -> tensor<f32>
  %1 = hlo.negate %0 after(%a : tensor<f32>) {sharding = #hlo.sharding<"{maximal device=1}">} : (tensor<f32>) -> tensor<f32>
  hlo.return %1 : tensor<f32>
}
