//===- SemanticsCheck.cpp - interpreter-checked pass pipelines ------------===//
//
// Placeholder until the implementation lands.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Runtime/SemanticsCheck.h"

void mlir::hlo::runtime::addSemanticsCheck(PassManager &) {}
