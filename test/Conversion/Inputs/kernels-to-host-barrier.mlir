module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
      gpu.barrier
      gpu.return
    }
  }
}
