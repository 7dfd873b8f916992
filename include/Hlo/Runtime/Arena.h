//===- Arena.h - run a module over its buffer assignment --------*- C++ -*-===//
//
// Executes a module that carries a buffer assignment (`hlo.buffer_allocations`
// and `hlo.buffer_slices`, written by hlo-opt --hlo-buffer-assignment) over
// one flat byte buffer, the arena, where every allocation has its own
// aligned base offset: each value lives only in the bytes of its slices, so
// an assignment in which two values that are live at once share bytes, or
// a missing copy, corrupts the results. Instructions run in the order of
// their block (the schedule); each one reads its operands from the arena,
// is evaluated by the reference interpreter, and writes its result into
// its slices at once. While loops, conditionals and calls run their
// computations over the arena too; fused computations, reducers and the
// other computations called from inside one instruction run on the
// interpreter as usual. docs/runtime.md, "Running on the arena", has the
// details.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_RUNTIME_ARENA_H
#define HLO_RUNTIME_ARENA_H

#include "Hlo/Runtime/Interpreter.h"

namespace mlir::hlo::runtime {

struct ArenaStats {
  /// Bytes of the arena (every allocation, each at an aligned base).
  int64_t arenaBytes = 0;
  int64_t numAllocations = 0;
  /// Instructions evaluated (forwarding instructions whose slices equal
  /// their operand's are only read through, and not counted).
  int64_t evaluated = 0;
  /// Values moved between slices at a while, conditional or call boundary
  /// because the assignment did not give both sides the same slices (XLA
  /// requires them to be the same; the arena copies, and counts).
  int64_t boundaryCopies = 0;
};

struct ArenaOptions {
  /// The alignment of each allocation's base in the arena.
  int64_t alignment = 256;
  /// The bytes the arena starts with: a deterministic pseudo-random fill,
  /// so that reading bytes nothing wrote gives garbage, not zeros.
  uint64_t fillSeed = 0x5eed;
  /// Keep each value also as a literal (twice the memory) and check every
  /// read against it: the first read of bytes that another value has
  /// overwritten fails, naming the reader and the value it reads.
  bool checkReads = false;
};

/// Runs `module`'s entry computation on `arguments` over the arena, each
/// simulated device (options.numReplicas x options.numPartitions) on an
/// arena of its own in a thread of its own, and returns device 0's result.
/// Fails with `error` set (naming the instruction where
/// there is one) on a module without a buffer assignment, an instruction
/// or parameter without slices, a slice outside its allocation or too small
/// for its value, and on every error of the interpreter.
FailureOr<Literal> runOnArena(ModuleOp module, ArrayRef<Literal> arguments,
                              const InterpreterOptions &options,
                              std::string &error, ArenaStats *stats = nullptr,
                              const ArenaOptions &arenaOptions = {});

} // namespace mlir::hlo::runtime

#endif // HLO_RUNTIME_ARENA_H
