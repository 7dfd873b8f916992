//===- SemanticsCheck.h - interpreter-checked pass pipelines ----*- C++ -*-===//
//
// A pass instrumentation that runs the reference interpreter on the same
// random inputs before and after every pass of a pipeline and reports the
// first pass that changes the results (hlo-opt --hlo-check-semantics).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_RUNTIME_SEMANTICSCHECK_H
#define HLO_RUNTIME_SEMANTICSCHECK_H

#include "Hlo/Runtime/Literal.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
class PassManager;
} // namespace mlir

namespace mlir::hlo::runtime {

//===----------------------------------------------------------------------===//
// Comparing results (also used by hlo-run --compare)
//===----------------------------------------------------------------------===//

/// The differences between two arrays of the same type.
struct ArrayComparison {
  std::string type; // `f32[2,3]`
  double maxAbs = 0, maxRel = 0;
  int64_t mismatches = 0;
  /// `element [1,2]: 3 vs 4 (abs diff 1, rel diff 0.25)` for the first
  /// element beyond the tolerance.
  std::string firstMismatch;
};

/// The differences between two results (arrays, or tuples compared array
/// by array, depth first; tokens carry nothing).
struct LiteralComparison {
  /// Set when the results differ in structure, shape or element type.
  std::string structureError;
  std::vector<ArrayComparison> arrays;
  double maxAbs = 0, maxRel = 0;
  int64_t mismatches = 0;
  /// `result 0 element [1,2]: 3 vs 4 (abs diff 1, rel diff 0.25)`.
  std::string firstMismatch;

  bool matches() const { return structureError.empty() && mismatches == 0; }
  /// One line: the structure error, or the mismatch count, the first
  /// mismatch and the largest differences.
  std::string summary() const;
};

/// Compares `actual` with `expected`. Elements agree when
/// |a - b| <= atol + rtol * max(|a|, |b|); the relative difference reported
/// is |a - b| / max(|a|, |b|). NaN agrees with NaN, equal infinities agree,
/// integers and pred differ by at least 1 when unequal. A non-zero `rtol`
/// is raised to 4 ulps (4 * epsilon) of a floating-point element type.
LiteralComparison compareLiterals(const Literal &actual,
                                  const Literal &expected, double atol,
                                  double rtol);

/// The HLO spelling of an array type without layout: `f32[2,3]`, `pred[]`.
std::string hloShapeString(Type elementType, ArrayRef<int64_t> shape);

//===----------------------------------------------------------------------===//
// The pass instrumentation
//===----------------------------------------------------------------------===//

struct SemanticsCheckOptions {
  /// Seed of the random arguments (and of rng ops).
  uint64_t seed = 0;
  /// Elements a and b agree when |a - b| <= atol + rtol * max(|a|, |b|)
  /// (integers and pred: exactly; NaN agrees with NaN).
  double atol = 1e-5;
  double rtol = 1e-5;
  /// The check is left out (with a warning) for a module whose one run
  /// needs more multiply-adds than this (estimateMultiplyAdds): the
  /// interpreter would run it for minutes after every pass.
  double maxMultiplyAdds = 1e10;
};

/// About how many multiply-adds (or element operations) one run of `module`
/// takes: a dot's or convolution's result elements times the products each
/// sums, every other instruction's array result elements; each computation
/// once (a loop body as one iteration, so a lower bound for loops).
double estimateMultiplyAdds(ModuleOp module);

/// What the instrumentation found, readable after the pipeline has run.
struct SemanticsCheckResult {
  /// A pass changed the results (or made the interpreter fail where it ran
  /// before); an error naming it was emitted on the module.
  bool failed = false;
  /// The interpreter ran the module before the pipeline (false when it
  /// cannot run it, e.g. an unsupported op: then nothing is checked and a
  /// warning says why).
  bool checked = false;
  /// Interpreter runs after passes (passes that left the module unchanged
  /// are not re-run).
  unsigned runs = 0;
  /// The name (argument) of the pass that changed the results.
  std::string pass;
};

/// Adds the instrumentation to `pm` and disables multithreading on its
/// context (the interpreter reads the whole module after every pass, also
/// after passes nested on one computation). The first pass that changes the
/// results gets an error on the module:
///   semantics changed by pass 'X': result 0 element [1,2]: 3 vs 4 ...
/// Later passes are not checked any more. `pm.run` itself still succeeds:
/// the caller reads `failed` from the returned result.
std::shared_ptr<const SemanticsCheckResult>
addSemanticsCheck(PassManager &pm, const SemanticsCheckOptions &options = {});

} // namespace mlir::hlo::runtime

#endif // HLO_RUNTIME_SEMANTICSCHECK_H
