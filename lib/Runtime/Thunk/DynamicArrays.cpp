//===- DynamicArrays.cpp - thunk.pad_to_static and thunk.slice_to_dynamic -===//
//
// Bounded dynamic arrays, stored as XLA stores them: the elements dense
// over the runtime sizes (in the order of the bounded array's layout), then
// one i32 size per dimension at the byte where the array at its bounds
// ends. The two thunks on host bytes, for both runtimes (the CUDA runtime
// runs them on copies of the slices).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Thunk/ThunkDialect.h"
#include "Hlo/Runtime/Thunk/Executable.h"

#include <cstring>
#include <numeric>

using namespace mlir;
using namespace mlir::thunk;

/// Copies each element within `sizes` between the array at its bounds
/// (`bounded`, of type `type`) and its dense form (`dense`).
static void copyElements(MemRefType type, ArrayRef<int64_t> sizes,
                         uint8_t *bounded, uint8_t *dense, bool toDense) {
  SmallVector<int64_t> strides;
  int64_t offset;
  (void)type.getStridesAndOffset(strides, offset);
  int64_t rank = type.getRank();
  int64_t bytes = getElementStorageBytes(type.getElementType());
  // Minor to major: the dense strides follow the layout's order.
  SmallVector<int64_t> order(rank);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return strides[a] < strides[b];
  });
  SmallVector<int64_t> denseStrides(rank);
  int64_t total = 1;
  for (int64_t d : order) {
    denseStrides[d] = total;
    total *= sizes[d];
  }
  SmallVector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < total; ++n) {
    int64_t b = 0, d = 0;
    for (int64_t k = 0; k < rank; ++k) {
      b += index[k] * strides[k];
      d += index[k] * denseStrides[k];
    }
    uint8_t *from = toDense ? bounded + b * bytes : dense + d * bytes;
    uint8_t *to = toDense ? dense + d * bytes : bounded + b * bytes;
    std::memcpy(to, from, bytes);
    for (int64_t k = rank - 1; k >= 0; --k) {
      if (++index[k] < sizes[k])
        break;
      index[k] = 0;
    }
  }
}

/// Checks `sizes` against the bounds of `type`.
static LogicalResult checkSizes(Operation *op, MemRefType type,
                                ArrayRef<int64_t> sizes, std::string &error) {
  for (auto [d, size] : llvm::enumerate(sizes))
    if (size < 0 || size > type.getDimSize(d)) {
      error = op->getName().getStringRef().str() + ": size " +
              std::to_string(size) + " of dimension " + std::to_string(d) +
              " is outside [0, " + std::to_string(type.getDimSize(d)) + "]";
      return failure();
    }
  return success();
}

LogicalResult mlir::thunk::padToStatic(Operation *op, uint8_t *input,
                                       uint8_t *output,
                                       ArrayRef<uint8_t *> sizes,
                                       std::string &error) {
  MemRefType type = cast<PadToStaticOp>(op).getOutput().getType();
  int64_t dataBytes = getStorageBytes(type);
  SmallVector<int64_t> runtime;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int32_t size;
    std::memcpy(&size, input + dataBytes + 4 * d, 4);
    runtime.push_back(size);
  }
  if (failed(checkSizes(op, type, runtime, error)))
    return failure();
  std::memset(output, 0, dataBytes);
  copyElements(type, runtime, output, input, /*toDense=*/false);
  for (auto [p, size] : llvm::zip_equal(sizes, runtime)) {
    int32_t s = size;
    std::memcpy(p, &s, 4);
  }
  return success();
}

LogicalResult mlir::thunk::sliceToDynamic(Operation *op, uint8_t *input,
                                          ArrayRef<uint8_t *> sizes,
                                          uint8_t *output, std::string &error) {
  MemRefType type = cast<SliceToDynamicOp>(op).getInput().getType();
  int64_t dataBytes = getStorageBytes(type);
  SmallVector<int64_t> runtime;
  for (uint8_t *p : sizes) {
    int32_t size;
    std::memcpy(&size, p, 4);
    runtime.push_back(size);
  }
  if (failed(checkSizes(op, type, runtime, error)))
    return failure();
  copyElements(type, runtime, input, output, /*toDense=*/true);
  for (auto [d, size] : llvm::enumerate(runtime)) {
    int32_t s = size;
    std::memcpy(output + dataBytes + 4 * d, &s, 4);
  }
  return success();
}
