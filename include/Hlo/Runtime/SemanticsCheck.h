//===- SemanticsCheck.h - interpreter-checked pass pipelines ----*- C++ -*-===//
//
// A pass instrumentation that runs the reference interpreter on the same
// random inputs before and after every pass of a pipeline and reports the
// first pass that changes the results (hlo-opt --hlo-check-semantics).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_RUNTIME_SEMANTICSCHECK_H
#define HLO_RUNTIME_SEMANTICSCHECK_H

namespace mlir {
class PassManager;
} // namespace mlir

namespace mlir::hlo::runtime {

/// Adds the instrumentation to `pm`.
void addSemanticsCheck(PassManager &pm);

} // namespace mlir::hlo::runtime

#endif // HLO_RUNTIME_SEMANTICSCHECK_H
