// RUN: hlo-opt %s -split-input-file --hlo-batchnorm-expander="rewrite-training-op=true rewrite-inference-op=true rewrite-grad-op=true" | FileCheck %s
// RUN: hlo-opt %s -split-input-file --hlo-batchnorm-expander | FileCheck %s --check-prefix=NONE
// RUN: hlo-opt %s -split-input-file --hlo-batchnorm-expander="rewrite-inference-op=true" | FileCheck %s --check-prefix=INF
// RUN: hlo-opt %s -split-input-file --hlo-batchnorm-expander="rewrite-training-op=true rewrite-inference-op=true rewrite-grad-op=true" --hlo-check-semantics -o /dev/null

// Training, feature dimension 1: sums of x and x*x over dimensions 0 and 2
// with a new add computation, mean = E[x], var = E[x^2] - E[x]^2, and
// (x - mean) * rsqrt(var + eps) * scale + offset. N = 8 elements per
// feature. The options are off by default (XLA's defaults).
// NONE-LABEL: hlo.computation @training
// NONE: batch_norm_training
// INF-LABEL: hlo.computation @training
// INF: batch_norm_training
// CHECK-LABEL: hlo.computation @training
hlo.computation @training(%x: tensor<2x3x4xf32>, %scale: tensor<3xf32>, %offset: tensor<3xf32>) -> tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>> attributes {entry} {
  // CHECK-DAG: %[[ZERO:.*]] = constant {value = dense<0.000000e+00> : tensor<f32>}
  // CHECK-DAG: %[[EPS:.*]] = constant {value = dense<1.000000e-03> : tensor<f32>}
  // CHECK-DAG: %[[EPSB:.*]] = broadcast %[[EPS]] {dimensions = array<i64>} : (tensor<f32>) -> tensor<2x3x4xf32>
  // CHECK-DAG: %[[N:.*]] = constant {value = dense<8.000000e+00> : tensor<f32>}
  // CHECK-DAG: %[[SCALE:.*]] = broadcast %arg1 {dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3x4xf32>
  // CHECK-DAG: %[[OFFSET:.*]] = broadcast %arg2 {dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3x4xf32>
  // CHECK: %[[SQ:.*]] = multiply %arg0, %arg0
  // CHECK: %[[SUM:.*]] = reduce %arg0, %[[ZERO]] {dimensions = array<i64: 0, 2>, to_apply = @scalar_add_computation} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<3xf32>
  // CHECK: %[[SQSUM:.*]] = reduce %[[SQ]], %[[ZERO]] {dimensions = array<i64: 0, 2>, to_apply = @scalar_add_computation}
  // CHECK: %[[N1:.*]] = broadcast %[[N]] {dimensions = array<i64>} : (tensor<f32>) -> tensor<3xf32>
  // CHECK: %[[MEAN:.*]] = divide %[[SUM]], %[[N1]]
  // CHECK: %[[MEANB:.*]] = broadcast %[[MEAN]] {dimensions = array<i64: 1>}
  // CHECK: %[[N2:.*]] = broadcast %[[N]]
  // CHECK: %[[SQMEAN:.*]] = divide %[[SQSUM]], %[[N2]]
  // CHECK: %[[MEANSQ:.*]] = multiply %[[MEAN]], %[[MEAN]]
  // CHECK: %[[VAR:.*]] = subtract %[[SQMEAN]], %[[MEANSQ]]
  // CHECK: %[[VARB:.*]] = broadcast %[[VAR]] {dimensions = array<i64: 1>}
  // CHECK: %[[VAREPS:.*]] = add %[[VARB]], %[[EPSB]]
  // CHECK: %[[RSQRT:.*]] = rsqrt %[[VAREPS]]
  // CHECK: %[[CENTERED:.*]] = subtract %arg0, %[[MEANB]]
  // CHECK: %[[NORM:.*]] = multiply %[[CENTERED]], %[[RSQRT]]
  // CHECK: %[[SCALED:.*]] = multiply %[[NORM]], %[[SCALE]]
  // CHECK: %[[OUT:.*]] = add %[[SCALED]], %[[OFFSET]]
  // CHECK: %[[T:.*]] = tuple %[[OUT]], %[[MEAN]], %[[VAR]]
  // CHECK-NOT: batch_norm
  // CHECK: return %[[T]]
  // CHECK: hlo.computation private @scalar_add_computation(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: %[[A:.*]] = add %arg0, %arg1
  // CHECK-NEXT: return %[[A]]
  %0 = hlo.batch_norm_training %x, %scale, %offset {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>
  hlo.return %0 : tuple<tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>>
}

// -----

// Inference, feature dimension 0: s = scale * rsqrt(var + eps), then
// x * s + (offset - mean * s), s and the shift broadcast along dimension 0.
// NONE-LABEL: hlo.computation @inference
// NONE: batch_norm_inference
// INF-LABEL: hlo.computation @inference
// INF-NOT: batch_norm_inference
// CHECK-LABEL: hlo.computation @inference
hlo.computation @inference(%x: tensor<3x5xf32>, %scale: tensor<3xf32>, %offset: tensor<3xf32>, %mean: tensor<3xf32>, %var: tensor<3xf32>) -> tensor<3x5xf32> attributes {entry} {
  // CHECK: %[[EPS:.*]] = constant {value = dense<0.00999999977> : tensor<f32>}
  // CHECK: %[[EPSB:.*]] = broadcast %[[EPS]] {dimensions = array<i64>} : (tensor<f32>) -> tensor<3xf32>
  // CHECK: %[[VE:.*]] = add %arg4, %[[EPSB]]
  // CHECK: %[[RS:.*]] = rsqrt %[[VE]]
  // CHECK: %[[S:.*]] = multiply %arg1, %[[RS]]
  // CHECK: %[[MS:.*]] = multiply %arg3, %[[S]]
  // CHECK: %[[SHIFT:.*]] = subtract %arg2, %[[MS]]
  // CHECK-DAG: %[[SHIFTB:.*]] = broadcast %[[SHIFT]] {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3x5xf32>
  // CHECK-DAG: %[[SB:.*]] = broadcast %[[S]] {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3x5xf32>
  // CHECK: %[[XS:.*]] = multiply %arg0, %[[SB]]
  // CHECK: %[[Y:.*]] = add %[[XS]], %[[SHIFTB]]
  // CHECK: return %[[Y]]
  // CHECK-NOT: hlo.computation
  %0 = hlo.batch_norm_inference %x, %scale, %offset, %mean, %var {epsilon = 1.000000e-02 : f32, feature_index = 0 : i64} : (tensor<3x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3x5xf32>
  hlo.return %0 : tensor<3x5xf32>
}

// -----

// Grad, feature dimension 2 (the last): d_offset = sum(dy), d_scale =
// sum(dy * (x - mean)) * rsqrt(var + eps), d_x = scale * rsqrt(var + eps)
// / N * (N * dy - sum(dy) - (x - mean) * sum(dy * (x - mean)) / (var + eps)).
// NONE-LABEL: hlo.computation @grad
// NONE: batch_norm_grad
// INF-LABEL: hlo.computation @grad
// INF: batch_norm_grad
// CHECK-LABEL: hlo.computation @grad
hlo.computation @grad(%x: tensor<2x3x4xf32>, %scale: tensor<4xf32>, %mean: tensor<4xf32>, %var: tensor<4xf32>, %dy: tensor<2x3x4xf32>) -> tuple<tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>> attributes {entry} {
  // CHECK-DAG: %[[N:.*]] = constant {value = dense<6.000000e+00> : tensor<f32>}
  // CHECK-DAG: %[[ZERO:.*]] = constant {value = dense<0.000000e+00> : tensor<f32>}
  // CHECK-DAG: %[[EPS:.*]] = constant {value = dense<1.000000e-03> : tensor<f32>}
  // CHECK: %[[EPSX:.*]] = broadcast %[[EPS]] {dimensions = array<i64>} : (tensor<f32>) -> tensor<2x3x4xf32>
  // CHECK: %[[EPSF:.*]] = broadcast %[[EPS]] {dimensions = array<i64>} : (tensor<f32>) -> tensor<4xf32>
  // CHECK: %[[SCALEB:.*]] = broadcast %arg1 {dimensions = array<i64: 2>}
  // CHECK: %[[VARB:.*]] = broadcast %arg3 {dimensions = array<i64: 2>}
  // CHECK: %[[MEANB:.*]] = broadcast %arg2 {dimensions = array<i64: 2>}
  // CHECK: %[[VEX:.*]] = add %[[VARB]], %[[EPSX]]
  // CHECK: %[[RSX:.*]] = rsqrt %[[VEX]]
  // CHECK: %[[VEF:.*]] = add %arg3, %[[EPSF]]
  // CHECK: %[[RSF:.*]] = rsqrt %[[VEF]]
  // CHECK: %[[XC:.*]] = subtract %arg0, %[[MEANB]]
  // CHECK: %[[DYXC:.*]] = multiply %arg4, %[[XC]]
  // CHECK: %[[SUMDYXC:.*]] = reduce %[[DYXC]], %[[ZERO]] {dimensions = array<i64: 0, 1>, to_apply = @scalar_add_computation}
  // CHECK: %[[SUMDY:.*]] = reduce %arg4, %[[ZERO]] {dimensions = array<i64: 0, 1>, to_apply = @scalar_add_computation}
  // CHECK: %[[DSCALE:.*]] = multiply %[[SUMDYXC]], %[[RSF]]
  // CHECK: %[[I2:.*]] = broadcast %[[SUMDY]] {dimensions = array<i64: 2>}
  // CHECK: %[[I3:.*]] = broadcast %[[SUMDYXC]] {dimensions = array<i64: 2>}
  // CHECK: %[[I4:.*]] = multiply %[[I3]], %[[XC]]
  // CHECK: %[[VEX2:.*]] = add %[[VARB]], %[[EPSX]]
  // CHECK: %[[I5:.*]] = divide %[[I4]], %[[VEX2]]
  // CHECK: %[[SR:.*]] = multiply %[[SCALEB]], %[[RSX]]
  // CHECK: %[[NB:.*]] = broadcast %[[N]] {dimensions = array<i64>} : (tensor<f32>) -> tensor<2x3x4xf32>
  // CHECK: %[[F:.*]] = divide %[[SR]], %[[NB]]
  // CHECK: %[[NB2:.*]] = broadcast %[[N]]
  // CHECK: %[[I1:.*]] = multiply %arg4, %[[NB2]]
  // CHECK: %[[I12:.*]] = subtract %[[I1]], %[[I2]]
  // CHECK: %[[I6:.*]] = subtract %[[I12]], %[[I5]]
  // CHECK: %[[DX:.*]] = multiply %[[F]], %[[I6]]
  // CHECK: tuple %[[DX]], %[[DSCALE]], %[[SUMDY]]
  %0 = hlo.batch_norm_grad %x, %scale, %mean, %var, %dy {epsilon = 1.000000e-03 : f32, feature_index = 2 : i64} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x3x4xf32>) -> tuple<tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>>
  hlo.return %0 : tuple<tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>>
}

// -----

// A sharded batch norm: added instructions of the operand's shape get the
// sharding of its first tuple element, the others replicated; the tuple
// gets the batch norm's sharding. One add computation serves both batch
// norms of the same element type; its name is made unique.
// CHECK-LABEL: hlo.computation private @scalar_add_computation(
// CHECK: hlo.computation @sharded
hlo.computation private @scalar_add_computation(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.maximum %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}
hlo.computation @sharded(%x: tensor<4x2xf32>, %scale: tensor<2xf32>, %offset: tensor<2xf32>) -> tuple<tuple<tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>>, tuple<tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>>> attributes {entry} {
  // CHECK: %[[SUM:.*]] = reduce %arg0, %{{.*}} {dimensions = array<i64: 0>, sharding = #hlo.sharding<"{replicated}">, to_apply = @[[ADD:scalar_add_computation_[0-9]+]]}
  // CHECK: subtract %arg0, %{{.*}} {sharding = #hlo.sharding<"{devices=[2,1]0,1}">}
  // CHECK: tuple {{.*}} {sharding = #hlo.sharding<"{{[{][{]}}devices=[2,1]0,1}, {replicated}, {replicated}}">}
  // CHECK: reduce %{{.*}} to_apply = @[[ADD]]
  // CHECK: hlo.computation private @[[ADD]](
  // CHECK-NEXT: add
  // CHECK-NOT: hlo.computation
  %0 = hlo.batch_norm_training %x, %scale, %offset {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64, sharding = #hlo.sharding<"{{devices=[2,1]0,1}, {replicated}, {replicated}}">} : (tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>>
  %1 = hlo.batch_norm_training %x, %scale, %offset {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>>
  %r = hlo.tuple %0, %1 : (tuple<tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>>, tuple<tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>>) -> tuple<tuple<tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>>, tuple<tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>>>
  hlo.return %r : tuple<tuple<tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>>, tuple<tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>>>
}

// -----

// Left alone: a batch norm with control predecessors and one in a fused
// computation.
// CHECK-LABEL: hlo.computation private @fused
// CHECK: batch_norm_inference
hlo.computation private @fused(%x: tensor<3x5xf32>, %s: tensor<3xf32>) -> tensor<3x5xf32> {
  %0 = hlo.batch_norm_inference %x, %s, %s, %s, %s {epsilon = 1.000000e-02 : f32, feature_index = 0 : i64} : (tensor<3x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3x5xf32>
  hlo.return %0 : tensor<3x5xf32>
}
// CHECK-LABEL: hlo.computation @left_alone
hlo.computation @left_alone(%x: tensor<3x5xf32>, %s: tensor<3xf32>, %p: tensor<2xf32>) -> tuple<tensor<3x5xf32>, tensor<3x5xf32>> attributes {entry} {
  // CHECK-NOT: rsqrt
  // CHECK: batch_norm_inference %arg0, %arg1, %arg1, %arg1, %arg1 after(%arg2 : tensor<2xf32>)
  // CHECK: fusion
  %0 = hlo.batch_norm_inference %x, %s, %s, %s, %s after(%p : tensor<2xf32>) {epsilon = 1.000000e-02 : f32, feature_index = 0 : i64} : (tensor<3x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3x5xf32>
  %1 = hlo.fusion %x, %s {calls = @fused, kind = #hlo<fusion_kind kLoop>} : (tensor<3x5xf32>, tensor<3xf32>) -> tensor<3x5xf32>
  %r = hlo.tuple %0, %1 : (tensor<3x5xf32>, tensor<3x5xf32>) -> tuple<tensor<3x5xf32>, tensor<3x5xf32>>
  hlo.return %r : tuple<tensor<3x5xf32>, tensor<3x5xf32>>
}

// -----

// A dynamic shape is left alone (the interpreter cannot run
// SliceToDynamic: no semantics check here).
// CHECK-LABEL: hlo.computation @dynamic
hlo.computation @dynamic(%x: tensor<3x5xf32>, %s: tensor<3xf32>) -> tensor<3x?xf32, #hlo.layout<[1, 0], bounds = [?, 5]>> attributes {entry} {
  // CHECK-NOT: rsqrt
  // CHECK: batch_norm_inference
  %d = hlo.custom_call %x {custom_call_target = "SliceToDynamic"} : (tensor<3x5xf32>) -> tensor<3x?xf32, #hlo.layout<[1, 0], bounds = [?, 5]>>
  %0 = hlo.batch_norm_inference %d, %s, %s, %s, %s {epsilon = 1.000000e-02 : f32, feature_index = 0 : i64} : (tensor<3x?xf32, #hlo.layout<[1, 0], bounds = [?, 5]>>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3x?xf32, #hlo.layout<[1, 0], bounds = [?, 5]>>
  hlo.return %0 : tensor<3x?xf32, #hlo.layout<[1, 0], bounds = [?, 5]>>
}
