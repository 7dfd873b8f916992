// RUN: hlo-opt %s | hlo-opt | FileCheck %s

// Types: tokens, opaque values, tuples, layouts (tiles, element size, memory
// space, unmodeled items) and bounded dynamic dimensions; computation
// signatures and their attributes.

// CHECK-LABEL: hlo.computation @tokens_opaque
// CHECK-SAME: (%arg0: !hlo.token, %arg1: !hlo.opaque) -> tuple<!hlo.token, !hlo.opaque>
hlo.computation @tokens_opaque(%t: !hlo.token, %o: !hlo.opaque) -> tuple<!hlo.token, !hlo.opaque> {
  // CHECK: %0 = tuple %arg0, %arg1 : (!hlo.token, !hlo.opaque) -> tuple<!hlo.token, !hlo.opaque>
  %0 = hlo.tuple %t, %o : (!hlo.token, !hlo.opaque) -> tuple<!hlo.token, !hlo.opaque>
  hlo.return %0 : tuple<!hlo.token, !hlo.opaque>
}

// CHECK-LABEL: hlo.computation @layouts
// CHECK-SAME: %arg0: tensor<8x128xf32, #hlo.layout<[1, 0], tiles = {{\[\[}}8, 128]]>>
// CHECK-SAME: %arg1: tensor<16xui4, #hlo.layout<[0], tiles = {{\[\[}}1024], [2, 1]], element_size = 4>>
// CHECK-SAME: %arg2: tensor<2x3xbf16, #hlo.layout<[0, 1], memory_space = 5>>
// CHECK-SAME: %arg3: tensor<4xf32, #hlo.layout<[0], extra = "D(D)">>
// CHECK-SAME: %arg4: tensor<f32, #hlo.layout<[]>>
hlo.computation @layouts(%a: tensor<8x128xf32, #hlo.layout<[1, 0], tiles = [[8, 128]]>>, %b: tensor<16xui4, #hlo.layout<[0], tiles = [[1024], [2, 1]], element_size = 4>>, %c: tensor<2x3xbf16, #hlo.layout<[0, 1], memory_space = 5>>, %d: tensor<4xf32, #hlo.layout<[0], extra = "D(D)">>, %e: tensor<f32, #hlo.layout<[]>>) -> tensor<8x128xf32, #hlo.layout<[1, 0], tiles = [[8, 128]]>> {
  // CHECK: %0 = negate %arg0 : (tensor<8x128xf32, #hlo.layout<[1, 0], tiles = {{\[\[}}8, 128]]>>) -> tensor<8x128xf32, #hlo.layout<[1, 0], tiles = {{\[\[}}8, 128]]>>
  %0 = hlo.negate %a : (tensor<8x128xf32, #hlo.layout<[1, 0], tiles = [[8, 128]]>>) -> tensor<8x128xf32, #hlo.layout<[1, 0], tiles = [[8, 128]]>>
  hlo.return %0 : tensor<8x128xf32, #hlo.layout<[1, 0], tiles = [[8, 128]]>>
}

// Bounded dimensions: `?` in the shape, `<=N` bounds in the layout (`?` for
// static dimensions); `none` when the shape printed no layout.
// CHECK-LABEL: hlo.computation @bounded
// CHECK-SAME: (%arg0: tensor<?x5xf32, #hlo.layout<none, bounds = [1801, ?]>>, %arg1: tensor<3x?xi1, #hlo.layout<[1, 0], bounds = [?, 5]>>)
hlo.computation @bounded(%x: tensor<?x5xf32, #hlo.layout<none, bounds = [1801, ?]>>, %p: tensor<3x?xi1, #hlo.layout<[1, 0], bounds = [?, 5]>>) -> tensor<3x?xi1, #hlo.layout<[1, 0], bounds = [?, 5]>> {
  // CHECK: %0 = not %arg1 : (tensor<3x?xi1, #hlo.layout<[1, 0], bounds = [?, 5]>>) -> tensor<3x?xi1, #hlo.layout<[1, 0], bounds = [?, 5]>>
  %0 = hlo.not %p : (tensor<3x?xi1, #hlo.layout<[1, 0], bounds = [?, 5]>>) -> tensor<3x?xi1, #hlo.layout<[1, 0], bounds = [?, 5]>>
  hlo.return %0 : tensor<3x?xi1, #hlo.layout<[1, 0], bounds = [?, 5]>>
}

// Element types HLO has: pred, s/u 2..64, f8/bf16/f16/f32/f64, complex.
// CHECK-LABEL: hlo.computation @element_types
// CHECK-SAME: tensor<2xi2>, %arg1: tensor<2xui2>, %arg2: tensor<2xi4>, %arg3: tensor<2xf8E5M2>, %arg4: tensor<2xf8E4M3FN>, %arg5: tensor<2xf4E2M1FN>, %arg6: tensor<2xf16>, %arg7: tensor<2xcomplex<f64>>, %arg8: tensor<2xui64>
hlo.computation @element_types(%a: tensor<2xi2>, %b: tensor<2xui2>, %c: tensor<2xi4>, %d: tensor<2xf8E5M2>, %e: tensor<2xf8E4M3FN>, %f: tensor<2xf4E2M1FN>, %g: tensor<2xf16>, %h: tensor<2xcomplex<f64>>, %i: tensor<2xui64>) -> tensor<2xi2> {
  hlo.return %a : tensor<2xi2>
}

// Parameter attributes and the execution thread print back.
// CHECK-LABEL: hlo.computation @entry
// CHECK-SAME: (%arg0: tensor<f32> {hlo.sharding = #hlo.sharding<"{devices=[2]0,1 last_tile_dim_replicate}">}) -> tensor<f32> attributes {entry, execution_thread = "main"}
hlo.computation @entry(%x: tensor<f32> {hlo.sharding = #hlo.sharding<"{devices=[2]0,1 last_tile_dim_replicate}">}) -> tensor<f32> attributes {entry, execution_thread = "main"} {
  // CHECK: return %arg0 : tensor<f32>
  hlo.return %x : tensor<f32>
}
