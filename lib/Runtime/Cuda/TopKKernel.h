//===- TopKKernel.h - thunk.top_k by a prebuilt kernel ----------*- C++ -*-===//
//
// thunk.top_k as XLA-GPU runs its `__gpu$TopK` calls: a top-k kernel
// compiled ahead of time by nvcc (TopKKernel.cu, HLO_HAVE_TOPK_KERNEL),
// instantiated for lists of 1, 2, 4, 8 and 16 entries, one block a row.
// Its algorithm is TopKRows.h's, which the CPU runs too.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_RUNTIME_CUDA_TOPKKERNEL_H
#define HLO_LIB_RUNTIME_CUDA_TOPKKERNEL_H

#include <cstdint>

extern "C" {

struct HloTopKArgs {
  const void *input;
  void *values;
  int32_t *indices;
  /// Rows, their length, and the elements kept of each (1 to 16).
  int64_t rows, n;
  int k;
  /// hlo::topk::ElementKind: f32 or bf16.
  int kind;
  /// Whether -0 orders below +0 (thunk.top_k's `total_order`).
  bool totalOrder;
  /// A CUstream / cudaStream_t.
  void *stream;
};

/// Enqueues the top-k of every row on the stream. Null on success, else
/// what failed (arguments out of range or a CUDA error's text).
const char *hloTopK(const HloTopKArgs *args);
}

#endif // HLO_LIB_RUNTIME_CUDA_TOPKKERNEL_H
