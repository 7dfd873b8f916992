// Prints the GPU's description in the text format --hlo-gpu-device reads
// (the gpu_device_info part of XLA's GpuTargetConfig text proto), from the
// CUDA runtime's device attributes: run it on a machine with a GPU and
// compare with the built-in description (bench/device/README.md).
//
//   nvcc -O2 -cudart static -o gpu_device_query gpu_device_query.cu
//   ./gpu_device_query [device] > measured.txtpb

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

static int attribute(cudaDeviceAttr attr, int device) {
  int value = 0;
  cudaError_t err = cudaDeviceGetAttribute(&value, attr, device);
  if (err != cudaSuccess) {
    std::fprintf(stderr, "gpu_device_query: attribute %d: %s\n",
                 static_cast<int>(attr), cudaGetErrorString(err));
    std::exit(1);
  }
  return value;
}

int main(int argc, char **argv) {
  int device = argc > 1 ? std::atoi(argv[1]) : 0;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || device < 0 || device >= count) {
    std::fprintf(stderr, "gpu_device_query: no CUDA device %d (%s)\n", device,
                 err == cudaSuccess ? "out of range" : cudaGetErrorString(err));
    return 1;
  }
  cudaDeviceProp prop;
  if ((err = cudaGetDeviceProperties(&prop, device)) != cudaSuccess) {
    std::fprintf(stderr, "gpu_device_query: %s\n", cudaGetErrorString(err));
    return 1;
  }
  // kHz, and the memory bus in bits: bytes per second at double data rate.
  double clockGhz = attribute(cudaDevAttrClockRate, device) / 1e6;
  double memoryKhz = attribute(cudaDevAttrMemoryClockRate, device);
  double busBits = attribute(cudaDevAttrGlobalMemoryBusWidth, device);
  long long bandwidth =
      static_cast<long long>(memoryKhz * 1e3 * 2 * busBits / 8);
  std::printf("# %s, measured by gpu_device_query\n", prop.name);
  std::printf("gpu_device_info {\n");
  std::printf("  threads_per_block_limit: %d\n", prop.maxThreadsPerBlock);
  std::printf("  threads_per_warp: %d\n", prop.warpSize);
  std::printf("  shared_memory_per_block: %zu\n", prop.sharedMemPerBlock);
  std::printf("  shared_memory_per_core: %zu\n",
              prop.sharedMemPerMultiprocessor);
  std::printf("  threads_per_core_limit: %d\n",
              prop.maxThreadsPerMultiProcessor);
  std::printf("  core_count: %d\n", prop.multiProcessorCount);
  // CUDA does not report FP32 units per SM; 128 on every SM since Ampere's
  // GA10x and on Hopper (XLA's table).
  std::printf("  fpus_per_core: %d\n", prop.major >= 9 ? 128 : 64);
  std::printf("  block_dim_limit_x: %d\n", prop.maxGridSize[0]);
  std::printf("  block_dim_limit_y: %d\n", prop.maxGridSize[1]);
  std::printf("  block_dim_limit_z: %d\n", prop.maxGridSize[2]);
  std::printf("  memory_bandwidth: %lld\n", bandwidth);
  std::printf("  l2_cache_size: %d\n", prop.l2CacheSize);
  std::printf("  clock_rate_ghz: %.3f\n", clockGhz);
  std::printf("  device_memory_size: %zu\n", prop.totalGlobalMem);
  std::printf("  shared_memory_per_block_optin: %zu\n",
              prop.sharedMemPerBlockOptin);
  std::printf("  cuda_compute_capability {\n    major: %d\n    minor: %d\n  }\n",
              prop.major, prop.minor);
  std::printf("  registers_per_core_limit: %d\n", prop.regsPerMultiprocessor);
  std::printf("  registers_per_block_limit: %d\n", prop.regsPerBlock);
  std::printf("}\n");
  return 0;
}
