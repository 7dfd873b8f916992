//===- BufferAssignment.h - XLA's buffer assignment ------------*- C++ -*-===//
//
// XLA's BufferAssigner over the alias analysis's buffers and the live
// ranges of a scheduled module:
// - a buffer holding an ENTRY parameter gets that parameter's allocation
//   (owned by the caller; `maybe_live_out` when an output aliases it);
// - a buffer holding a constant gets an allocation of its own;
// - a buffer in the ENTRY result gets an output allocation of its own;
// - every other buffer is a temporary, and the heap simulator packs all of
//   them into one `temp` allocation (XLA's preallocated temp buffer),
//   letting an elementwise instruction write its result over an operand
//   that dies there; those of arrays in host memory (`S(5)`, XLA's color
//   5) into a second one, after it.
// The result lives in the IR: the module's `hlo.buffer_allocations` and a
// `hlo.buffer_slices` on every instruction and parameter of the computations
// analyzed (one #hlo.buffer_slice per node of its shape).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_ANALYSIS_BUFFERASSIGNMENT_H
#define HLO_ANALYSIS_BUFFERASSIGNMENT_H

#include "Hlo/Analysis/HeapSimulator.h"
#include "Hlo/Analysis/HloLiveRange.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::hlo {

struct BufferAssignmentOptions {
  /// Alignment of every temporary's offset (XLA GPU: 256 bytes).
  int64_t alignment = 256;
  HeapPacking packing = HeapPacking::Best;
};

struct BufferAssignmentStats {
  int64_t parameterBytes = 0, constantBytes = 0, outputBytes = 0;
  /// The temp allocation's size, and the peak of live temporary bytes
  /// over the schedule (the lower bound for it).
  int64_t tempBytes = 0, tempLowerBound = 0;
  /// The bytes of the temp allocations in host memory (XLA's `S(5)`).
  int64_t hostTempBytes = 0;
  unsigned numAllocations = 0;
};

/// Assigns buffers and writes the result into `module`'s attributes
/// (replacing an earlier assignment). Fails, with a diagnostic at the
/// instruction, on a shape without a static byte size.
FailureOr<BufferAssignmentStats>
assignBuffers(ModuleOp module, const HloLiveRange &liveRange,
              const BufferAssignmentOptions &options = {});

/// The slice of node `node` of `value` (an instruction result or a
/// computation parameter) as the IR holds it; null if it has none.
BufferSliceAttr getBufferSlice(Value value, unsigned node);

/// Removes a buffer assignment from `module`'s attributes.
void clearBufferAssignment(ModuleOp module);

/// Checks the assignment in `module`'s attributes with its own reading of
/// them, against a fresh dataflow analysis and live ranges: two positions
/// whose slices share a byte must not be live at once unless they hold the
/// same buffer (or one is an operand an elementwise instruction overwrites
/// where it dies). Returns a description of every violation, empty if
/// none.
std::string checkBufferAssignment(ModuleOp module);

} // namespace mlir::hlo

#endif // HLO_ANALYSIS_BUFFERASSIGNMENT_H
