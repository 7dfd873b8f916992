//===- HloTestPasses.h - the test passes of hlo-opt -------------*- C++ -*-===//
//
// Passes that expose the libraries to lit tests through hlo-opt. They live
// in test/lib (library MLIRHloTestPasses), are not installed, and only
// hlo-opt links them:
//   --hlo-test-print-indexing         print every op's indexing maps
//   --hlo-test-print-cost             print XLA's GPU cost of every op
//   --hlo-test-print-aliasing         print HLO values and buffers
//   --hlo-test-print-fusion-benefit   print fused vs unfused times
//   --hlo-test-print-replication      print which values every replica
//                                     (or partition) holds alike
//   --hlo-test-print-schedule-time    print the estimated time of a schedule
//   --hlo-test-simplify-indexing-maps simplify #hlo.indexing_map attributes
//   --hlo-test-lower-scalar           scalar computations as functions of
//                                     arith/math ops (ScalarLowering.h)
//   --hlo-test-break-semantics        replace every hlo.add by hlo.subtract
//                                     (a pass that changes the results, for
//                                     the tests of --hlo-check-semantics)
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TEST_LIB_HLOTESTPASSES_H
#define HLO_TEST_LIB_HLOTESTPASSES_H

namespace mlir::hlo {

void registerTestPrintAliasingPass();
void registerTestPrintCostPass();
void registerTestPrintIndexingPass();
void registerTestPrintReplicationPass();
void registerTestPrintScheduleTimePass();
void registerTestSimplifyIndexingMapsPass();

/// The test passes of the analyses (indexing, cost model, dataflow,
/// replication).
inline void registerAnalysisTestPasses() {
  registerTestPrintAliasingPass();
  registerTestPrintCostPass();
  registerTestPrintIndexingPass();
  registerTestPrintReplicationPass();
  registerTestPrintScheduleTimePass();
  registerTestSimplifyIndexingMapsPass();
}

void registerTestLowerScalarPass();

/// The test passes of the conversions (scalar lowering).
inline void registerConversionTestPasses() { registerTestLowerScalarPass(); }

namespace runtime {

/// The test passes of the semantics check (--hlo-test-break-semantics).
void registerSemanticsCheckTestPasses();

} // namespace runtime
} // namespace mlir::hlo

#endif // HLO_TEST_LIB_HLOTESTPASSES_H
