// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// hlo.kernel (set by hlo-to-gpu) names a fusion's kernel: only on a fusion,
// only a symbol reference.

hlo.computation private @fused(%a: tensor<4xf32>) -> tensor<4xf32> {
  hlo.return %a : tensor<4xf32>
}
hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // expected-error @+1 {{hlo.kernel is only valid on a fusion}}
  %0 = hlo.negate %a {hlo.kernel = @kernels::@k} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation private @fused(%a: tensor<4xf32>) -> tensor<4xf32> {
  hlo.return %a : tensor<4xf32>
}
hlo.computation @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {entry} {
  // expected-error @+1 {{hlo.kernel must be a symbol reference}}
  %0 = hlo.fusion %a {calls = @fused, kind = #hlo<fusion_kind kLoop>, hlo.kernel = "k"} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}
