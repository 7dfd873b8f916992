//===- TopKKernel.cu - thunk.top_k, compiled by nvcc ----------------------===//
//
// See TopKKernel.h and TopKRows.h. One block a row; the merge tree's lists
// in dynamic shared memory (T / 2 lists of kp entries, at most 32 KiB).
//
//===----------------------------------------------------------------------===//

#include "TopKKernel.h"

#include "Hlo/Runtime/Thunk/TopKRows.h"

#include <cuda_runtime.h>

namespace topk = hlo::topk;

namespace {

// At most 1024 threads a block, 512 for lists of 16 (topk::threadsFor).
template <int KP>
__global__ void __launch_bounds__(KP >= 16 ? 512 : 1024)
    topKRows(const void *input, void *values, int32_t *indices, int64_t n,
             int k, int kind, bool totalOrder) {
  extern __shared__ int64_t lists[];
  int64_t row = blockIdx.x;
  int t = int(threadIdx.x), threads = int(blockDim.x);
  int bytes = kind == topk::BF16 ? 2 : 4;
  const char *in = static_cast<const char *>(input) + row * n * bytes;
  int64_t list[KP];
  topk::threadList<KP>(in, n, kind, totalOrder, t, threads, list);
  for (int s = threads / 2; s >= 1; s /= 2) {
    if (t >= s && t < 2 * s)
      for (int j = 0; j < KP; ++j)
        lists[(t - s) * KP + j] = list[j];
    __syncthreads();
    if (t < s)
      topk::merge<KP>(list, lists + t * KP);
    __syncthreads();
  }
  if (t == 0)
    topk::writeRow<KP>(list, k, in, kind,
                       static_cast<char *>(values) + row * k * bytes,
                       indices + row * k);
}

template <int KP> const char *launch(const HloTopKArgs &a) {
  int threads = topk::threadsFor(a.n, KP);
  size_t shared = size_t(threads / 2) * KP * sizeof(int64_t);
  topKRows<KP><<<unsigned(a.rows), unsigned(threads), shared,
                 static_cast<cudaStream_t>(a.stream)>>>(
      a.input, a.values, a.indices, a.n, a.k, a.kind, a.totalOrder);
  cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? nullptr : cudaGetErrorString(e);
}

} // namespace

extern "C" const char *hloTopK(const HloTopKArgs *args) {
  const HloTopKArgs &a = *args;
  if (a.k < 1 || a.k > topk::kMaxK || a.k > a.n || a.n > INT32_MAX ||
      a.rows > INT32_MAX || (a.kind != topk::F32 && a.kind != topk::BF16))
    return "the top-k kernel takes f32 or bf16 rows of n < 2^31, fewer "
           "than 2^31 rows and 1 <= k <= min(16, n)";
  if (a.rows == 0)
    return nullptr;
  return topk::withListSize(
      a.k, [&](auto kp) { return launch<decltype(kp)::value>(a); });
}
