//===- TestPasses.h - test passes of the analyses ---------------*- C++ -*-===//
//
// Passes that expose the analyses to lit tests through hlo-opt:
//   --hlo-test-print-indexing         print every op's indexing maps
//   --hlo-test-simplify-indexing-maps simplify #hlo.indexing_map attributes
//
//===----------------------------------------------------------------------===//

#ifndef HLO_ANALYSIS_TESTPASSES_H
#define HLO_ANALYSIS_TESTPASSES_H

namespace mlir::hlo {

void registerTestPrintIndexingPass();
void registerTestSimplifyIndexingMapsPass();

inline void registerAnalysisTestPasses() {
  registerTestPrintIndexingPass();
  registerTestSimplifyIndexingMapsPass();
}

} // namespace mlir::hlo

#endif // HLO_ANALYSIS_TESTPASSES_H
