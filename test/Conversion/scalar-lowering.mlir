// RUN: hlo-opt %s --hlo-test-lower-scalar 2>&1 | FileCheck %s
// The scalar lowering (include/Hlo/Conversion/ScalarLowering.h) of whole
// scalar computations: each becomes a func.func of arith/math ops with the
// interpreter's semantics (unittests/ScalarLoweringTest.cpp checks every op
// and type against the interpreter on the host JIT).

module @m {
  hlo.computation private @sdiv(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i32> {
    %0 = divide %arg0, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i32>
    return %0 : tensor<i32>
  }
  hlo.computation private @shl(%arg0: tensor<ui8>, %arg1: tensor<ui8>) -> tensor<ui8> {
    %0 = shift_left %arg0, %arg1 : (tensor<ui8>, tensor<ui8>) -> tensor<ui8>
    return %0 : tensor<ui8>
  }
  hlo.computation private @fmax(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = maximum %arg0, %arg1 : (tensor<f32>, tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  hlo.computation private @bf16add(%arg0: tensor<bf16>, %arg1: tensor<bf16>) -> tensor<bf16> {
    %0 = add %arg0, %arg1 : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
    return %0 : tensor<bf16>
  }
  hlo.computation private @tofix(%arg0: tensor<f32>) -> tensor<i8> {
    %0 = convert %arg0 : (tensor<f32>) -> tensor<i8>
    return %0 : tensor<i8>
  }
  hlo.computation private @argmax(%arg0: tensor<f32>, %arg1: tensor<i32>, %arg2: tensor<f32>, %arg3: tensor<i32>) -> tuple<tensor<f32>, tensor<i32>> {
    %0 = compare %arg0, %arg2 {comparison_type = #hlo<comparison_type TOTALORDER>, direction = #hlo<comparison_direction GT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %1 = select %0, %arg0, %arg2 : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %2 = select %0, %arg1, %arg3 : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = tuple %1, %2 : (tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tensor<i32>>
    return %3 : tuple<tensor<f32>, tensor<i32>>
  }
  // Not scalar: stays.
  hlo.computation private @vector(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = negate %arg0 : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  // An op the lowering does not take: stays, with the error as a remark.
  hlo.computation private @opaque(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = custom_call %arg0 {custom_call_target = "foo"} : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  // One without operands (its remark named a null type and crashed).
  hlo.computation private @zero() -> tensor<f32> {
    %0 = constant {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
    return %0 : tensor<f32>
  }
  hlo.computation private @no_operands() -> tensor<f32> {
    %0 = call {to_apply = @zero} : () -> tensor<f32>
    return %0 : tensor<f32>
  }
  hlo.computation @e(%arg0: tensor<4xf32>) -> tensor<f32> attributes {entry} {
    %0 = constant {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
    %1 = reduce %arg0, %0 {dimensions = array<i64: 0>, to_apply = @fmax} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
}


// CHECK: remark: not lowered: cannot be lowered to scalar ops: hlo.custom_call on 'f32' is not handled
// CHECK: remark: not lowered: cannot be lowered to scalar ops: hlo.call is not handled

// x / 0 = -1 and INT_MIN / -1 = INT_MIN: the divisor is made safe first.
// CHECK-LABEL: func.func @sdiv(%arg0: i32, %arg1: i32) -> i32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[M1:.*]] = arith.constant -1 : i32
// CHECK: %[[BYZERO:.*]] = arith.cmpi eq, %arg1, %[[ZERO]]
// CHECK: %[[BYM1:.*]] = arith.cmpi eq, %arg1, %[[M1]]
// CHECK: %[[BAD:.*]] = arith.ori %[[BYZERO]], %[[BYM1]]
// CHECK: %[[SAFE:.*]] = arith.select %[[BAD]], %[[ONE]], %arg1
// CHECK: %[[Q:.*]] = arith.divsi %arg0, %[[SAFE]]
// CHECK: %[[NEG:.*]] = arith.subi %[[ZERO]], %arg0
// CHECK: %[[Q2:.*]] = arith.select %[[BYM1]], %[[NEG]], %[[Q]]
// CHECK: %[[Q3:.*]] = arith.select %[[BYZERO]], %[[M1]], %[[Q2]]
// CHECK: return %[[Q3]]

// u8 shift: the amount is unsigned, >= 8 gives 0.
// CHECK-LABEL: func.func @shl(%arg0: i8, %arg1: i8) -> i8
// CHECK: %[[OUT:.*]] = arith.cmpi uge, %arg1, %c8_i8
// CHECK: %[[AMT:.*]] = arith.select %[[OUT]], %c0_i8, %arg1
// CHECK: %[[S:.*]] = arith.shli %arg0, %[[AMT]]
// CHECK: arith.select %[[OUT]], %c0_i8, %[[S]]

// A reducer still called: the function is added beside it.
// CHECK: hlo.computation private @fmax
// CHECK-LABEL: func.func @fmax.scalar(%arg0: f32, %arg1: f32) -> f32
// CHECK-NEXT: arith.maximumf %arg0, %arg1 : f32

// bf16 is computed in f32 and rounded back.
// CHECK-LABEL: func.func @bf16add
// CHECK: arith.extf %arg0 : bf16 to f32
// CHECK: arith.extf %arg1 : bf16 to f32
// CHECK: arith.addf
// CHECK: arith.truncf {{.*}} : f32 to bf16

// f32 -> s8 saturates and maps NaN to 0.
// CHECK-LABEL: func.func @tofix(%arg0: f32) -> i8
// CHECK: arith.constant 1.280000e+02 : f32
// CHECK: %[[BIG:.*]] = arith.cmpf oge
// CHECK: %[[LOW:.*]] = arith.cmpf olt
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %arg0, %arg0
// CHECK: arith.fptosi {{.*}} : f32 to i8
// CHECK: arith.select %[[BIG]], %c127_i8
// CHECK: arith.select %[[LOW]], %c-128_i8
// CHECK: arith.select %[[NAN]], %c0_i8

// TOTALORDER compares flip the magnitude bits of negative floats; a tuple
// root gives two results.
// CHECK-LABEL: func.func @argmax(%arg0: f32, %arg1: i32, %arg2: f32, %arg3: i32) -> (f32, i32)
// CHECK: arith.bitcast %arg0 : f32 to i32
// CHECK: arith.xori {{.*}}, %c2147483647_i32
// CHECK: %[[GT:.*]] = arith.cmpi sgt
// CHECK: %[[V:.*]] = arith.select %[[GT]], %arg0, %arg2 : f32
// CHECK: %[[I:.*]] = arith.select %[[GT]], %arg1, %arg3 : i32
// CHECK: return %[[V]], %[[I]] : f32, i32

// CHECK: hlo.computation private @vector
// CHECK: hlo.computation private @opaque
// CHECK: hlo.computation @e
