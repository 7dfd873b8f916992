// Kernel arguments of 2- and 4-bit elements become packed bytes: loads shift
// the element out of its byte, stores and atomics update only its bits in an
// atomic read-modify-write of the byte (element i at bit i * w), except the
// stores of all of a byte's elements by one thread: one plain byte store.
// RUN: hlo-opt %s --split-input-file --hlo-lower-sub-byte-buffers --cse --verify-diagnostics | FileCheck %s
// The pass works on kernels, which the interpreter does not run; its
// semantics are checked on the HLO the kernels come from instead: every
// fusion of Inputs/sub-byte-kernels.hlo (packed s4, u2 and f4 parameters and
// results) runs by its kernel on the host, through this pass, against the
// interpreter on the same inputs, bit for bit.
// RUN: hlo-opt %S/Inputs/sub-byte-kernels.hlo --hlo-gpu-optimize --hlo-check-semantics --output-format=hlo -o %t.hlo
// RUN: hlo-run %t.hlo --random-inputs --seed=2 --device=host-kernels --compare %S/Inputs/sub-byte-kernels.hlo --atol=0 --rtol=0 2>&1 | FileCheck %s --check-prefix=INTERP
// INTERP: note: {{.*}}: 4 of 4 fusions run by their kernels on the host
// INTERP: match: max abs diff 0
// The loop emitter's threads write whole bytes of the outputs of an even
// number of elements (u2[16]: 4 a thread; s4[6,8], a transpose: 2), one
// plain store each; the odd ones (s4[5,7], f4[9]) update elements
// atomically.
// RUN: hlo-opt %S/Inputs/sub-byte-kernels.hlo --hlo-gpu-optimize --hlo-to-gpu | hlo-opt --pass-pipeline='builtin.module(gpu.module(canonicalize),hlo-lower-sub-byte-buffers)' | FileCheck %s --check-prefix=KERNELS
// KERNELS-LABEL: gpu.func @wrapped_convert
// KERNELS-NOT:   generic_atomic_rmw
// KERNELS:       memref.store %{{.*}} : memref<4xi8>
// KERNELS-LABEL: gpu.func @wrapped_convert_1(
// KERNELS:       generic_atomic_rmw
// KERNELS-LABEL: gpu.func @loop_convert_fusion(
// KERNELS:       generic_atomic_rmw
// KERNELS-LABEL: gpu.func @loop_transpose_fusion(
// KERNELS-NOT:   generic_atomic_rmw
// KERNELS:       memref.store %{{.*}} : memref<24xi8>
// KERNELS-NOT:   generic_atomic_rmw

// CHECK-LABEL: gpu.func @load_store
// CHECK-SAME:    (%[[IN:[^:]*]]: memref<3xi8> {llvm.noalias}, %[[OUT:[^:]*]]: memref<2xi8>, %[[F:[^:]*]]: memref<4xi8>, %{{[^:]*}}: index)
// CHECK:         %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[BYTE:.*]] = arith.divui %[[I:.*]], %[[C2]] : index
// CHECK:         %[[WITHIN:.*]] = arith.remui %[[I]], %[[C2]] : index
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[BIT:.*]] = arith.muli %[[WITHIN]], %[[C4]] : index
// CHECK:         %[[SHIFT:.*]] = arith.index_castui %[[BIT]] : index to i8
// CHECK:         %[[B:.*]] = memref.load %[[IN]][%[[BYTE]]] : memref<3xi8>
// CHECK:         %[[S:.*]] = arith.shrui %[[B]], %[[SHIFT]] : i8
// CHECK:         %[[V:.*]] = arith.trunci %[[S]] : i8 to i4
// CHECK:         %[[KEEP:.*]] = arith.xori
// CHECK:         memref.generic_atomic_rmw %[[OUT]][%{{.*}}] : memref<2xi8> {
// CHECK:         ^bb0(%[[OLD:.*]]: i8):
// CHECK:           %[[EXT:.*]] = arith.extui %[[V]] : i4 to i8
// CHECK:           %[[PLACED:.*]] = arith.shli %[[EXT]], %{{.*}} : i8
// CHECK:           %[[KEPT:.*]] = arith.andi %[[OLD]], %{{.*}} : i8
// CHECK:           %[[NEW:.*]] = arith.ori %[[KEPT]], %[[PLACED]] : i8
// CHECK:           memref.atomic_yield %[[NEW]] : i8
// 2-bit elements: four to a byte.
// CHECK:         arith.divui %[[I]], %[[C4]] : index
// CHECK:         arith.remui %[[I]], %[[C4]] : index
// CHECK:         arith.muli %{{.*}}, %[[C2]] : index
// CHECK:         memref.load %[[F]]
// CHECK:         arith.trunci %{{.*}} : i8 to i2
// A 4-bit float: bit-cast from and to its bits.
// CHECK:         arith.bitcast %{{.*}} : i4 to f4E2M1FN
// CHECK:         arith.bitcast %{{.*}} : f4E2M1FN to i4
gpu.module @kernels {
  gpu.func @load_store(%in: memref<6xi4> {llvm.noalias}, %out: memref<3xi4>, %f: memref<13xi2>, %i: index) kernel {
    %v = memref.load %in[%i] : memref<6xi4>
    memref.store %v, %out[%i] : memref<3xi4>
    %t = memref.load %f[%i] : memref<13xi2>
    memref.store %t, %f[%i] : memref<13xi2>
    gpu.return
  }
  gpu.func @float(%in: memref<5xf4E2M1FN>, %i: index) kernel {
    %v = memref.load %in[%i] : memref<5xf4E2M1FN>
    memref.store %v, %in[%i] : memref<5xf4E2M1FN>
    gpu.return
  }
}

// -----

// Atomics: the combiner runs on the element inside the byte's update, whose
// old element is the result.
// CHECK-LABEL: gpu.func @atomics
// CHECK-SAME:    (%[[B:[^:]*]]: memref<4xi8>, %[[X:[^:]*]]: i4, %[[I:[^:]*]]: index, %[[OUT:[^:]*]]: memref<2xi32>)
// CHECK:         %[[R:.*]] = memref.generic_atomic_rmw %[[B]][%{{.*}}] : memref<4xi8> {
// CHECK:         ^bb0(%[[OLD:.*]]: i8):
// CHECK:           %[[E:.*]] = arith.trunci %{{.*}} : i8 to i4
// CHECK:           %[[SUM:.*]] = arith.addi %[[E]], %[[X]] : i4
// CHECK:           arith.extui %[[SUM]] : i4 to i8
// The old element, from the old byte the update returns.
// CHECK:         %[[RS:.*]] = arith.shrui %[[R]], %{{.*}} : i8
// CHECK:         %[[RV:.*]] = arith.trunci %[[RS]] : i8 to i4
// CHECK:         %[[R2:.*]] = memref.generic_atomic_rmw %[[B]][%{{.*}}] : memref<4xi8> {
// CHECK:         ^bb0(%{{.*}}: i8):
// CHECK:           %[[E2:.*]] = arith.trunci %{{.*}} : i8 to i4
// CHECK:           %[[M:.*]] = arith.maxsi %[[E2]], %[[X]] : i4
// CHECK:           arith.extui %[[M]] : i4 to i8
// CHECK:         %[[R2S:.*]] = arith.shrui %[[R2]], %{{.*}} : i8
// CHECK:         %[[R2V:.*]] = arith.trunci %[[R2S]] : i8 to i4
// CHECK:         arith.extsi %[[RV]] : i4 to i32
// CHECK:         arith.extsi %[[R2V]] : i4 to i32
// CHECK-NOT:     memref.atomic_rmw
gpu.module @kernels {
  gpu.func @atomics(%b: memref<8xi4>, %x: i4, %i: index, %out: memref<2xi32>) kernel {
    %old = memref.atomic_rmw addi %x, %b[%i] : (i4, memref<8xi4>) -> i4
    %r = memref.generic_atomic_rmw %b[%i] : memref<8xi4> {
    ^bb0(%cur: i4):
      %m = arith.maxsi %cur, %x : i4
      memref.atomic_yield %m : i4
    }
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %o = arith.extsi %old : i4 to i32
    %p = arith.extsi %r : i4 to i32
    memref.store %o, %out[%c0] : memref<2xi32>
    memref.store %p, %out[%c1] : memref<2xi32>
    gpu.return
  }
}

// -----

// Stores of all the elements of a byte by one thread, at x = 2t (a multiple
// of the elements per byte) and x + 1, together in one block (a store to
// another argument between them, as the stores of several outputs
// interleave): one plain store of the byte (low element in the low bits),
// no atomic update.
// CHECK-LABEL: gpu.func @whole_bytes
// CHECK-SAME:    (%[[OUT:[^:]*]]: memref<4xi8>, %[[A:[^:]*]]: i4, %[[B:[^:]*]]: i4, %[[T:[^:]*]]: index, %{{[^:]*}}: memref<2xi32>)
// CHECK-NOT:     generic_atomic_rmw
// CHECK:         %[[X:.*]] = arith.muli %[[T]], %{{.*}} : index
// CHECK:         %[[LO:.*]] = arith.extui %[[A]] : i4 to i8
// CHECK:         %[[HI:.*]] = arith.extui %[[B]] : i4 to i8
// CHECK:         %[[HISH:.*]] = arith.shli %[[HI]], %{{.*}} : i8
// CHECK:         %[[BYTE:.*]] = arith.ori %[[LO]], %[[HISH]] : i8
// CHECK:         %[[AT:.*]] = arith.divui %[[X]], %{{.*}} : index
// CHECK:         memref.store %[[BYTE]], %[[OUT]][%[[AT]]] : memref<4xi8>
// CHECK-NOT:     generic_atomic_rmw
// CHECK:         gpu.return
// Four 2-bit elements (the last stored first): one byte too.
// CHECK-LABEL: gpu.func @whole_bytes_u2
// CHECK-NOT:     generic_atomic_rmw
// CHECK:         memref.store %{{.*}} : memref<2xi8>
// CHECK-NOT:     generic_atomic_rmw
// CHECK:         gpu.return
// Not whole bytes: x = 3t (not a multiple of 2), a load of the buffer or of
// another argument between the two stores, a byte's other element missing,
// the two in different blocks.
// CHECK-LABEL: gpu.func @not_whole_bytes
// CHECK-COUNT-9: memref.generic_atomic_rmw
// CHECK-NOT:     memref.generic_atomic_rmw
gpu.module @kernels {
  gpu.func @whole_bytes(%out: memref<8xi4>, %a: i4, %b: i4, %t: index, %other: memref<2xi32>) kernel {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %x = arith.muli %t, %c2 : index
    %y = arith.addi %x, %c1 : index
    %c7 = arith.constant 7 : i32
    memref.store %a, %out[%x] : memref<8xi4>
    memref.store %c7, %other[%c1] : memref<2xi32>
    memref.store %b, %out[%y] : memref<8xi4>
    gpu.return
  }
  gpu.func @whole_bytes_u2(%out: memref<8xi2>, %a: i2, %t: index) kernel {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %x = arith.muli %c4, %t : index
    %x1 = arith.addi %c1, %x : index
    %x2 = arith.addi %x, %c2 : index
    %x3 = arith.addi %x, %c3 : index
    memref.store %a, %out[%x3] : memref<8xi2>
    memref.store %a, %out[%x] : memref<8xi2>
    memref.store %a, %out[%x2] : memref<8xi2>
    memref.store %a, %out[%x1] : memref<8xi2>
    gpu.return
  }
  gpu.func @not_whole_bytes(%out: memref<12xi4>, %a: i4, %t: index, %p: i1, %in: memref<2xi4>) kernel {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %x = arith.muli %t, %c3 : index
    %y = arith.addi %x, %c1 : index
    memref.store %a, %out[%x] : memref<12xi4>
    memref.store %a, %out[%y] : memref<12xi4>
    %u = arith.muli %t, %c2 : index
    %v = arith.addi %u, %c1 : index
    memref.store %a, %out[%u] : memref<12xi4>
    %r = memref.load %out[%c4] : memref<12xi4>
    memref.store %r, %out[%v] : memref<12xi4>
    %w = arith.muli %t, %c4 : index
    memref.store %a, %out[%w] : memref<12xi4>
    %z = arith.addi %w, %c2 : index
    %z1 = arith.addi %z, %c1 : index
    memref.store %a, %out[%z] : memref<12xi4>
    scf.if %p {
      memref.store %a, %out[%z1] : memref<12xi4>
    }
    %q = arith.muli %c2, %t : index
    %q1 = arith.addi %q, %c1 : index
    memref.store %a, %out[%q] : memref<12xi4>
    %e = memref.load %in[%c1] : memref<2xi4>
    memref.store %e, %out[%q1] : memref<12xi4>
    gpu.return
  }
}

// -----

// Host functions (after hlo-gpu-kernels-to-host) too; other buffers, private
// functions and an i1 buffer (a byte each) are left alone.
// CHECK-LABEL: func.func @host
// CHECK-SAME:    (%{{[^:]*}}: memref<1xi8>, %{{[^:]*}}: memref<4xi1>, %{{[^:]*}}: memref<4xf6E2M3FN>, %{{[^:]*}}: index)
// CHECK-LABEL: func.func private @helper
// CHECK-SAME:    memref<2xi4>
func.func @host(%a: memref<2xui4>, %p: memref<4xi1>, %s: memref<4xf6E2M3FN>, %i: index) {
  %v = memref.load %a[%i] : memref<2xui4>
  memref.store %v, %a[%i] : memref<2xui4>
  return
}
func.func private @helper(%a: memref<2xi4>) {
  return
}

// -----

gpu.module @kernels {
  gpu.func @view(%a: memref<8xi4>) kernel {
    // expected-error @+1 {{hlo-lower-sub-byte-buffers: a buffer of 4-bit elements can only be loaded and stored}}
    %v = memref.subview %a[0] [4] [1] : memref<8xi4> to memref<4xi4, strided<[1]>>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{hlo-lower-sub-byte-buffers: argument 0 ('memref<2x4xi4>'): only static one-dimensional buffers are packed}}
  gpu.func @two_dims(%a: memref<2x4xi4>) kernel {
    gpu.return
  }
}

// -----

// A function that passes its buffer on (a host kernel's function to its
// blocks function): the callee packs it too.
// CHECK-LABEL: func.func @caller
// CHECK-SAME:    (%[[A:.*]]: memref<1xi8>)
// CHECK:         call @called(%[[A]]) : (memref<1xi8>) -> ()
// CHECK-LABEL: func.func private @called
// CHECK-SAME:    (%{{[^:]*}}: memref<1xi8>)
// CHECK:         memref.generic_atomic_rmw
func.func @caller(%a: memref<2xi4>) {
  call @called(%a) : (memref<2xi4>) -> ()
  return
}
func.func private @called(%a: memref<2xi4>) {
  %c0 = arith.constant 0 : index
  %v = arith.constant 3 : i4
  memref.store %v, %a[%c0] : memref<2xi4>
  return
}

// -----

// expected-error @+1 {{hlo-lower-sub-byte-buffers: argument 0 ('memref<2xi4>'): the function is called with a buffer that is not its caller's argument: it would not be packed}}
func.func @called(%a: memref<2xi4>) {
  return
}
func.func @caller() {
  %a = memref.alloca() : memref<2xi4>
  call @called(%a) : (memref<2xi4>) -> ()
  return
}

// -----

func.func private @external(%a: memref<2xi4>)
// expected-error @+1 {{hlo-lower-sub-byte-buffers: argument 0 ('memref<2xi4>'): passed to a function that does not take it as the same buffer}}
func.func @caller(%a: memref<2xi4>) {
  call @external(%a) : (memref<2xi4>) -> ()
  return
}
