//===- TopK.cpp - thunk.top_k on the CPU ----------------------------------===//
//
// Each row as the top-k kernel's block computes it (TopKRows.h), its
// threads one after the other.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Runtime/Thunk/TopK.h"
#include "Hlo/Runtime/Thunk/TopKRows.h"

#include <vector>

using namespace mlir;
using namespace mlir::thunk;
namespace topk = hlo::topk;

namespace {

template <int KP>
void runRows(TopKOp op, ArrayRef<uint8_t *> buffers, int kind) {
  int64_t n = op.getRowLength(), k = op.getK();
  size_t bytes = kind == topk::BF16 ? 2 : 4;
  std::vector<int64_t> lists(size_t(topk::threadsFor(n, KP)) * KP);
  for (int64_t r = 0, rows = op.getRows(); r < rows; ++r)
    topk::hostRow<KP>(buffers[0] + r * n * bytes, n, int(k), kind,
                      op.getTotalOrder(), lists.data(),
                      buffers[1] + r * k * bytes,
                      reinterpret_cast<int32_t *>(buffers[2]) + r * k);
}

} // namespace

LogicalResult mlir::thunk::runTopK(TopKOp op, ArrayRef<uint8_t *> buffers,
                                   std::string &error) {
  if (buffers.size() != 3) {
    error = "thunk.top_k: wrong number of buffers";
    return failure();
  }
  int kind = op.getInput().getType().getElementType().isBF16() ? topk::BF16
                                                               : topk::F32;
  topk::withListSize(int(op.getK()), [&](auto kp) {
    runRows<decltype(kp)::value>(op, buffers, kind);
  });
  return success();
}
