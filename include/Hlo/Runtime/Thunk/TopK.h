//===- TopK.h - thunk.top_k on the CPU --------------------------*- C++ -*-===//
//
// thunk.top_k computed on the CPU (TopKRows.h's algorithm), shared by the
// runtimes: the host runtime runs it on its arena, the CUDA runtime on
// copies of its slices where it was built without nvcc.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_RUNTIME_THUNK_TOPK_H
#define HLO_RUNTIME_THUNK_TOPK_H

#include "Hlo/Dialect/Thunk/ThunkDialect.h"

#include <string>

namespace mlir::thunk {

/// Runs `op` on `buffers`, the bytes of its operands in order (input,
/// values, indices).
LogicalResult runTopK(TopKOp op, ArrayRef<uint8_t *> buffers,
                      std::string &error);

} // namespace mlir::thunk

#endif // HLO_RUNTIME_THUNK_TOPK_H
