//===- WhileLoopAnalysis.h - the trip count of a while loop -----*- C++ -*-===//
//
// Private to lib/Transforms: XLA's while-loop analysis (ComputeWhileLoop
// TripCount), used by hlo-while-loop-simplifier and
// hlo-while-loop-trip-count-annotator.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_WHILELOOPANALYSIS_H
#define HLO_LIB_TRANSFORMS_WHILELOOPANALYSIS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Runtime/Interpreter.h"

#include <optional>

namespace mlir::hlo {

/// A while loop and its computations.
struct Loop {
  WhileOp op;
  ComputationOp cond, body;
  Value init() { return op->getOperand(0); }
  Value condParam() { return cond.getBody().getArgument(0); }
  Value bodyParam() { return body.getBody().getArgument(0); }
};

/// The index of `v` if it is get-tuple-element(`tuple`, index).
std::optional<int64_t> elementIndex(Value v, Value tuple);

/// How many get-tuple-elements of each state element the loop's body and
/// condition have together (both parameters must be read element by
/// element only).
DenseMap<int64_t, unsigned> countElementReads(Loop &loop);

/// The integer scalar constant `v` (2 to 64 bits), with its type's
/// signedness.
std::optional<APInt> integerConstant(Value v, bool &isSigned);

/// A counted loop: element `index` of the state starts at `init` and grows
/// by `step` each trip; the body runs `trips` times.
struct CountedLoop {
  int64_t index, init, step, trips;
};

/// XLA's ComputeWhileLoopTripCount, by pattern: the condition's root is
/// `compare(element N, constant)` (either side; lt, le, gt, ge, ne), the
/// body's root is a tuple whose element N is `add(element N, constant)`
/// (either side) and the init is a tuple whose element N is an integer
/// constant, and the variable never wraps around before the loop ends.
std::optional<CountedLoop> matchCountedLoop(Loop &loop);

/// XLA's ComputeWhileLoopTripCount, brute force: the induction variable is
/// element N of the state, where the condition's root applies one
/// instruction to element N (and constants), the body's root is a tuple
/// whose element N applies one instruction to element N (and constants),
/// and the init is a tuple whose element N is a constant or an
/// instruction of constants. The condition is evaluated on the variable,
/// then the update, until the condition fails: the trip count, if that
/// happens within `maxTrips` updates (XLA's max_brute_force_iters).
std::optional<int64_t> bruteForceTripCount(Loop &loop,
                                           runtime::Evaluator &evaluator,
                                           int64_t maxTrips);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_WHILELOOPANALYSIS_H
