// RUN: hlo-opt %s -split-input-file --hlo-gpu-kernels-to-host -verify-diagnostics -o /dev/null

// Barriers and shuffles only at the top level of the body.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %p = arith.cmpi eq, %t, %c0 : index
      scf.if %p {
        // expected-error @+1 {{hlo-gpu-kernels-to-host: 'gpu.barrier' inside 'scf.if': barriers and shuffles must be at the top level of the kernel body}}
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %one = arith.constant 1 : i32
      %w = arith.constant 32 : i32
      // A loop with shuffles unrolls on the host: its trip count must be a
      // constant.
      %t = gpu.thread_id x
      %n = arith.addi %t, %c4 : index
      // expected-error @+1 {{hlo-gpu-kernels-to-host: a loop holding barriers or shuffles needs a constant trip count on the host}}
      scf.for %i = %c0 to %n step %c1 {
        %v = memref.load %m[%c0] : memref<4xf32>
        %s, %ok = gpu.shuffle xor %v, %one, %w : f32
        memref.store %s, %m[%c0] : memref<4xf32>
      }
      gpu.return
    }
  }
}

// -----

// GPU ops the host form does not compute.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %v = memref.load %m[%c0] : memref<4xf32>
      // expected-error @+1 {{hlo-gpu-kernels-to-host: 'gpu.rotate' is not supported on the host}}
      %r, %ok = gpu.rotate %v, 1, 4 : f32
      memref.store %r, %m[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// A memref made in one phase cannot be kept for the next.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
      %a = memref.alloca() : memref<4xf32>
      gpu.barrier
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{hlo-gpu-kernels-to-host: a value of type 'memref<4xf32>' from 'memref.alloca' is used across a barrier or shuffle}}
      %v = memref.load %a[%c0] : memref<4xf32>
      memref.store %v, %m[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// Private memory of a kernel with phases: loads and stores only.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<4xf32>) private(%p: memref<4xf32, #gpu.address_space<private>>) kernel attributes {known_block_size = array<i32: 4, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %x = memref.load %m[%c0] : memref<4xf32>
      memref.store %x, %p[%c0] : memref<4xf32, #gpu.address_space<private>>
      gpu.barrier
      // expected-error @+1 {{hlo-gpu-kernels-to-host: a private attribution of a kernel with barriers or shuffles may only be loaded and stored}}
      %s = memref.subview %p[1] [2] [1] : memref<4xf32, #gpu.address_space<private>> to memref<2xf32, strided<[1], offset: 1>, #gpu.address_space<private>>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{hlo-gpu-kernels-to-host: the kernel has no known_block_size and known_grid_size}}
    gpu.func @k(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// Each trip of such a loop becomes phases of its own: at most 1024 trips.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.constant 1000000 : index
      // expected-error @+1 {{hlo-gpu-kernels-to-host: a loop holding barriers or shuffles runs 1000000 times, more than the 1024 the host form unrolls}}
      scf.for %i = %c0 to %n step %c1 {
        gpu.barrier
      }
      gpu.return
    }
  }
}
