//===- TestSimplifyIndexingMaps.cpp ---------------------------------------------------===//
//
// Placeholder until the pass lands.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/TestPasses.h"

void mlir::hlo::registerTestSimplifyIndexingMapsPass() {}
