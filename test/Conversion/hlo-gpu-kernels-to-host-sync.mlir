// RUN: hlo-opt %s -split-input-file --hlo-gpu-kernels-to-host --canonicalize | FileCheck %s

// A block reduction: a warp sum by shuffles (xor on f32, the f16 input
// extended by the kernel; down on i32), lane 0 of each warp writes its sum to
// shared memory, a barrier, thread 0 adds the warps' sums. The body splits
// into four phases per block, each a loop over the block's 128 threads: up
// to the first shuffles, the first shuffles (the two share a phase), the
// second ones (their operands come from the phase before), after the
// barrier. Values that cross phases live in per-thread arrays; the shared
// memory is one buffer per call of the blocks function, whose blocks run
// in turn. The kernel's function calls it for the whole grid.
// CHECK-LABEL: func.func @reduce(
// CHECK-SAME:      %[[IN0:.*]]: memref<256xf32>, %[[INI0:.*]]: memref<256xi32>, %[[INH0:.*]]: memref<256xf16>, %[[OUT0:.*]]: memref<2xf32>, %[[OUTI0:.*]]: memref<2xi32>)
// CHECK:         call @reduce.blocks(%[[IN0]], %[[INI0]], %[[INH0]], %[[OUT0]], %[[OUTI0]], %c0, %c2)
// CHECK-LABEL: func.func @reduce.blocks(
// CHECK-SAME:      %[[IN:.*]]: memref<256xf32>, %[[INI:.*]]: memref<256xi32>, %[[INH:.*]]: memref<256xf16>, %[[OUT:.*]]: memref<2xf32>, %[[OUTI:.*]]: memref<2xi32>, %[[FIRST:.*]]: index, %[[END:.*]]: index) attributes {passthrough = ["noinline"]}
// CHECK-DAG:     %[[SH:.*]] = memref.alloca() : memref<4xf32>
// CHECK-DAG:     %[[SHI:.*]] = memref.alloca() : memref<4xi32>
// CHECK-DAG:     %[[X:.*]] = memref.alloca() : memref<128xf32>
// CHECK-DAG:     %[[XI:.*]] = memref.alloca() : memref<128xi32>
// CHECK-DAG:     %[[A:.*]] = memref.alloca() : memref<128xf32>
// CHECK-DAG:     %[[AI:.*]] = memref.alloca() : memref<128xi32>
// CHECK:         scf.for %[[B:.*]] = %[[FIRST]] to %[[END]] step %c1 {
// Phase 0: the inputs, kept per thread.
// CHECK-NEXT:      scf.for %[[T:.*]] = %c0 to %c128 step %c1 {
// CHECK:             %[[H:.*]] = memref.load %[[INH]]
// CHECK:             %[[E:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK:             %[[S:.*]] = arith.addf %{{.*}}, %[[E]] : f32
// CHECK-DAG:         memref.store %{{.*}}, %[[XI]][%[[T]]] : memref<128xi32>
// CHECK-DAG:         memref.store %[[S]], %[[X]][%[[T]]] : memref<128xf32>
// CHECK:           }
// Phase 1: xor 16 reads the slot of lane ^ 16 of the thread's warp; down 16
// that of lane + 16 when it is at most 31, else its own.
// CHECK-NEXT:      scf.for %[[T:.*]] = %c0 to %c128 step %c1 {
// CHECK:             %[[OWN:.*]] = memref.load %[[X]][%[[T]]] : memref<128xf32>
// CHECK:             %[[LANE:.*]] = arith.remui %[[T]], %c32 : index
// CHECK:             %[[WARP:.*]] = arith.subi %[[T]], %[[LANE]] : index
// CHECK:             %[[L32:.*]] = arith.index_cast %[[LANE]] : index to i32
// CHECK:             %[[J:.*]] = arith.xori %[[L32]], %c16_i32 : i32
// CHECK:             %[[OK:.*]] = arith.cmpi sle, %[[J]], %c31_i32 : i32
// CHECK:             %[[JI:.*]] = arith.index_cast %[[J]] : i32 to index
// CHECK:             %[[P:.*]] = arith.addi %[[WARP]], %[[JI]] : index
// CHECK:             %[[IN_BLOCK:.*]] = arith.cmpi ult, %[[P]], %c128 : index
// CHECK:             %[[VALID:.*]] = arith.andi %[[OK]], %[[IN_BLOCK]] : i1
// CHECK:             %[[SRC:.*]] = arith.select %[[VALID]], %[[P]], %[[T]] : index
// CHECK:             %[[THEIRS:.*]] = memref.load %[[X]][%[[SRC]]] : memref<128xf32>
// CHECK:             arith.addi %{{.*}}, %c16_i32 : i32
// CHECK:             arith.cmpi sle, %{{.*}}, %c31_i32 : i32
// CHECK:             memref.load %[[XI]][%{{.*}}] : memref<128xi32>
// CHECK:             %[[SUM:.*]] = arith.addf %[[OWN]], %[[THEIRS]] : f32
// CHECK:             memref.store %[[SUM]], %[[A]][%[[T]]] : memref<128xf32>
// CHECK:             memref.store %{{.*}}, %[[AI]][%[[T]]] : memref<128xi32>
// CHECK:           }
// Phase 2: the second shuffles, then lane 0 (gpu.lane_id, in the kernel
// outside the scf.if) writes shared memory.
// CHECK-NEXT:      scf.for %[[T:.*]] = %c0 to %c128 step %c1 {
// CHECK:             arith.xori %{{.*}}, %c8_i32 : i32
// CHECK:             arith.addi %{{.*}}, %c8_i32 : i32
// CHECK:             %[[LANE:.*]] = arith.remui %[[T]], %c32 : index
// CHECK:             %[[W:.*]] = arith.divui %[[T]], %c32 : index
// CHECK:             %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %c0 : index
// CHECK:             scf.if %[[FIRST]] {
// CHECK:               memref.store %{{.*}}, %[[SH]][%[[W]]] : memref<4xf32>
// CHECK:               memref.store %{{.*}}, %[[SHI]][%[[W]]] : memref<4xi32>
// CHECK:             }
// CHECK:           }
// Phase 3, after the barrier: thread 0 reads shared memory; the block id
// inside the scf.if is the grid loop's variable.
// CHECK-NEXT:      scf.for %[[T:.*]] = %c0 to %c128 step %c1 {
// CHECK:             scf.if
// CHECK:               scf.for
// CHECK:                 memref.load %[[SH]]
// CHECK:                 memref.load %[[SHI]]
// CHECK:               memref.store %{{.*}}, %[[OUT]][%[[B]]] : memref<2xf32>
// CHECK:               memref.store %{{.*}}, %[[OUTI]][%[[B]]] : memref<2xi32>
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce(%in: memref<256xf32>, %ini: memref<256xi32>, %inh: memref<256xf16>, %out: memref<2xf32>, %outi: memref<2xi32>)
        workgroup(%sh: memref<4xf32, #gpu.address_space<workgroup>>, %shi: memref<4xi32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %w = arith.constant 32 : i32
      %o16 = arith.constant 16 : i32
      %o8 = arith.constant 8 : i32
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %c128 : index
      %i = arith.addi %base, %tid : index
      %x = memref.load %in[%i] : memref<256xf32>
      %xi = memref.load %ini[%i] : memref<256xi32>
      %xh = memref.load %inh[%i] : memref<256xf16>
      %xe = arith.extf %xh : f16 to f32
      %xs = arith.addf %x, %xe : f32
      %s1, %v1 = gpu.shuffle xor %xs, %o16, %w : f32
      %t1, %u1 = gpu.shuffle down %xi, %o16, %w : i32
      %a1 = arith.addf %xs, %s1 : f32
      %b1 = arith.addi %xi, %t1 : i32
      %s2, %v2 = gpu.shuffle xor %a1, %o8, %w : f32
      %t2, %u2 = gpu.shuffle down %b1, %o8, %w : i32
      %a2 = arith.addf %a1, %s2 : f32
      %b2 = arith.addi %b1, %t2 : i32
      %lane = gpu.lane_id
      %warp = arith.divui %tid, %c32 : index
      %first = arith.cmpi eq, %lane, %c0 : index
      scf.if %first {
        memref.store %a2, %sh[%warp] : memref<4xf32, #gpu.address_space<workgroup>>
        memref.store %b2, %shi[%warp] : memref<4xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %t0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %t0 {
        %zf = arith.constant 0.0 : f32
        %zi = arith.constant 0 : i32
        %r:2 = scf.for %k = %c0 to %c4 step %c1 iter_args(%f = %zf, %n = %zi) -> (f32, i32) {
          %e = memref.load %sh[%k] : memref<4xf32, #gpu.address_space<workgroup>>
          %ei = memref.load %shi[%k] : memref<4xi32, #gpu.address_space<workgroup>>
          %f2 = arith.addf %f, %e : f32
          %n2 = arith.addi %n, %ei : i32
          scf.yield %f2, %n2 : f32, i32
        }
        %b = gpu.block_id x
        memref.store %r#0, %out[%b] : memref<2xf32>
        memref.store %r#1, %outi[%b] : memref<2xi32>
      }
      gpu.return
    }
  }
}

// -----

// A 2D block (16 x 4 threads): the linear thread id x + 16 * y indexes the
// per-thread arrays and gives the lane; a private attribution is a row per
// thread of a 64-row array, kept across the barrier; up reads lane - 1 when
// that is at least 32 - width = 0; idx reads lane `offset` (here a value of
// each thread) when it is at most 31. Index ops and constants used after the
// barrier are recomputed, not kept. One block: the blocks function is
// private (the runtime has nothing to share out).
// CHECK-LABEL: func.func @tile2d(
// CHECK:         call @tile2d.blocks(
// CHECK-LABEL: func.func private @tile2d.blocks(
// CHECK-SAME:      %[[M:.*]]: memref<64xi32>, %[[N:.*]]: memref<64xi32>, %{{.*}}: index, %{{.*}}: index) {
// CHECK-DAG:     %[[PRIV:.*]] = memref.alloca() : memref<64x2xi32>
// CHECK-DAG:     %[[V:.*]] = memref.alloca() : memref<64xi32>
// CHECK-DAG:     %[[O:.*]] = memref.alloca() : memref<64xi32>
// CHECK:         scf.for %[[TY:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:      scf.for %[[TX:.*]] = %c0 to %c16 step %c1 {
// CHECK-NEXT:        %[[Y16:.*]] = arith.muli %[[TY]], %c16 : index
// CHECK-NEXT:        %[[LIN:.*]] = arith.addi %[[TX]], %[[Y16]] : index
// CHECK:             memref.store %{{.*}}, %[[PRIV]][%[[LIN]], %c1] : memref<64x2xi32>
// CHECK:             memref.store %{{.*}}, %[[V]][%[[LIN]]] : memref<64xi32>
// CHECK:             memref.store %{{.*}}, %[[O]][%[[LIN]]] : memref<64xi32>
// CHECK:         scf.for %[[TY:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:      scf.for %[[TX:.*]] = %c0 to %c16 step %c1 {
// CHECK-NEXT:        %[[Y16:.*]] = arith.muli %[[TY]], %c16 : index
// CHECK-NEXT:        %[[LIN:.*]] = arith.addi %[[TX]], %[[Y16]] : index
// CHECK:             %[[OFF:.*]] = memref.load %[[O]][%[[LIN]]] : memref<64xi32>
// CHECK:             arith.subi %{{.*}}, %c1_i32 : i32
// CHECK:             arith.cmpi sge, %{{.*}}, %c0_i32 : i32
// CHECK:             memref.load %[[V]]
// CHECK:             %[[B:.*]] = arith.andi %[[OFF]], %c31_i32 : i32
// CHECK:             arith.cmpi sle, %[[B]], %c31_i32 : i32
// CHECK:             memref.load %[[V]]
// CHECK:             memref.load %[[PRIV]][%[[LIN]], %c1] : memref<64x2xi32>
// CHECK:             memref.store %{{.*}}, %[[N]][%[[TX]]] : memref<64xi32>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tile2d(%m: memref<64xi32>, %n: memref<64xi32>)
        private(%p: memref<2xi32, #gpu.address_space<private>>)
        kernel attributes {known_block_size = array<i32: 16, 4, 1>, known_grid_size = array<i32: 1, 1, 1>} {
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %one = arith.constant 1 : i32
      %w = arith.constant 32 : i32
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %y16 = arith.muli %ty, %c16 : index
      %l = arith.addi %y16, %tx : index
      %v = memref.load %m[%l] : memref<64xi32>
      memref.store %v, %p[%c1] : memref<2xi32, #gpu.address_space<private>>
      %o = arith.subi %v, %one : i32
      gpu.barrier
      %u, %uv = gpu.shuffle up %v, %one, %w : i32
      %x, %xv = gpu.shuffle idx %v, %o, %w : i32
      %s = arith.addi %u, %x : i32
      %q = memref.load %p[%c1] : memref<2xi32, #gpu.address_space<private>>
      %r = arith.addi %s, %q : i32
      %tx2 = gpu.thread_id x
      memref.store %r, %n[%tx2] : memref<64xi32>
      gpu.return
    }
  }
}

// -----

// Blocks that update memory atomically may meet in an element: their
// blocks function is private, so they run one after another.
// CHECK-LABEL: func.func @histogram(
// CHECK:         call @histogram.blocks(%{{.*}}, %{{.*}}, %c0, %c4)
// CHECK-LABEL: func.func private @histogram.blocks(
// CHECK:           memref.atomic_rmw addi
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @histogram(%in: memref<256xi32>, %bins: memref<8xi32>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 4, 1, 1>} {
      %one = arith.constant 1 : i32
      %id = gpu.global_id x
      %v = memref.load %in[%id] : memref<256xi32>
      %bin = arith.index_cast %v : i32 to index
      %old = memref.atomic_rmw addi %one, %bins[%bin] : (i32, memref<8xi32>) -> i32
      gpu.return
    }
  }
}

// -----

// A warp sum as a loop of xor shuffles (lane offsets 2 and 1, `2 >> step`):
// every thread runs it the same number of times, so the host form unrolls
// it first (its trip count is a constant), and each trip's shuffle starts a
// phase of its own that reads its partner's slot of the sum so far.
// CHECK-LABEL: func.func private @loop_sum.blocks(
// CHECK-DAG:     %[[X:.*]] = memref.alloca() : memref<4xf32>
// CHECK-DAG:     %[[S:.*]] = memref.alloca() : memref<4xf32>
// CHECK:         scf.for %[[T:.*]] = %c0 to %c4 step %c1 {
// CHECK:           memref.store %{{.*}}, %[[X]][%[[T]]] : memref<4xf32>
// CHECK:         }
// CHECK-NEXT:    scf.for %[[T:.*]] = %c0 to %c4 step %c1 {
// CHECK:           arith.xori %{{.*}}, %c2_i32 : i32
// CHECK:           memref.load %[[X]]
// CHECK:           memref.store %{{.*}}, %[[S]][%[[T]]] : memref<4xf32>
// CHECK:         }
// CHECK-NEXT:    scf.for %[[T:.*]] = %c0 to %c4 step %c1 {
// CHECK:           arith.xori %{{.*}}, %c1_i32 : i32
// CHECK:           memref.load %[[S]]
// CHECK:           memref.store %{{.*}}, %{{.*}}[%[[T]]] : memref<4xf32>
// CHECK:         }
// CHECK-NOT:     gpu.shuffle
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @loop_sum(%m: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %two = arith.constant 2 : i32
      %w = arith.constant 32 : i32
      %t = gpu.thread_id x
      %x = memref.load %m[%t] : memref<4xf32>
      %sum = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %x) -> (f32) {
        %i32 = arith.index_cast %i : index to i32
        %o = arith.shrui %two, %i32 : i32
        %s, %ok = gpu.shuffle xor %acc, %o, %w : f32
        %a = arith.addf %acc, %s : f32
        scf.yield %a : f32
      }
      memref.store %sum, %m[%t] : memref<4xf32>
      gpu.return
    }
  }
}
