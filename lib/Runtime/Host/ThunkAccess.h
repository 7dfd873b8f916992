//===- ThunkAccess.h - the arena bytes a thunk reads and writes -*- C++ -*-===//
//
// What the host runtime's plan knows of each thunk's memory (from its
// memory effects on slices): the byte ranges of the arena it reads, writes,
// or may write (in a loop, a conditional or a command buffer). The plan
// uses it to leave out filter transposes (FilterTransposes.h) and to read
// parameters where the caller keeps them.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_RUNTIME_HOST_THUNKACCESS_H
#define HLO_LIB_RUNTIME_HOST_THUNKACCESS_H

#include "Hlo/Dialect/Thunk/ThunkDialect.h"

namespace mlir::thunk {

/// Bytes [first, second) of the arena.
using ByteRange = std::pair<int64_t, int64_t>;

inline bool overlap(ByteRange a, ByteRange b) {
  return a.first < b.second && b.first < a.second;
}
inline bool overlapAny(ArrayRef<ByteRange> ranges, ByteRange r) {
  return llvm::any_of(ranges, [&](ByteRange s) { return overlap(s, r); });
}

/// What a thunk reads, writes and may write (a write in a nested region:
/// a loop's body, a branch); `any` where that is not known (it may touch
/// any byte).
struct ThunkAccess {
  SmallVector<ByteRange, 4> reads, writes, mayWrites;
  bool any = false;

  bool touches(ByteRange r) const {
    return any || overlapAny(reads, r) || overlapAny(writes, r) ||
           overlapAny(mayWrites, r);
  }
  bool mayWrite(ByteRange r) const {
    return any || overlapAny(writes, r) || overlapAny(mayWrites, r);
  }
};

/// What the thunk `op` (with the thunks nested in it) touches; `range`
/// gives a slice's bytes.
ThunkAccess getThunkAccess(Operation *op, function_ref<ByteRange(Value)> range);

} // namespace mlir::thunk

#endif // HLO_LIB_RUNTIME_HOST_THUNKACCESS_H
