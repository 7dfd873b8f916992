//===- RadixSort.h - thunk.radix_sort on the CPU ----------------*- C++ -*-===//
//
// thunk.radix_sort computed on the CPU, shared by the runtimes: the host
// runtime runs it on its arena, the CUDA runtime on copies of its slices
// where it was built without CUB.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_RUNTIME_THUNK_RADIXSORT_H
#define HLO_RUNTIME_THUNK_RADIXSORT_H

#include "Hlo/Dialect/Thunk/ThunkDialect.h"

#include <string>

namespace mlir::thunk {

/// The unsigned integer whose order is CUB's radix order of the key
/// `bits` of element type `type` (signless and signed integers with the
/// sign bit flipped; floats with every bit of negative values flipped and
/// the sign bit of the others).
uint64_t radixSortKey(Type type, uint64_t bits);

/// The bytes of one element of a thunk.radix_sort slice (i1 in a byte).
size_t radixSortElementBytes(Value slice);

/// Runs `op` on `buffers`, the bytes of its operands in order (keys,
/// values if any, sorted keys, sorted values if any, scratch): each row
/// stably sorted by its keys.
LogicalResult runRadixSort(RadixSortOp op, ArrayRef<uint8_t *> buffers,
                           std::string &error);

} // namespace mlir::thunk

#endif // HLO_RUNTIME_THUNK_RADIXSORT_H
