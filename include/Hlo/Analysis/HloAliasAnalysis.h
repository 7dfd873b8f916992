//===- HloAliasAnalysis.h - HLO values grouped into buffers ----*- C++ -*-===//
//
// XLA's HloAliasAnalysis: HLO values (HloDataflowAnalysis) that must live in
// the same memory form one buffer. Values are merged when
// - they may be at the same position (a while loop's state: operand, body
//   parameter, body root and result; a conditional's branch roots and its
//   result; a call's callee root and its result);
// - an in-place instruction writes its result into its operand's buffer
//   (dynamic-update-slice, scatter, fusions rooted in them,
//   `output_to_operand_aliasing`);
// - the module's `input_output_alias` gives an ENTRY output its parameter's
//   buffer.
// Copy insertion then makes these merges safe (hlo-gpu-copy-insertion).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_ANALYSIS_HLOALIASANALYSIS_H
#define HLO_ANALYSIS_HLOALIASANALYSIS_H

#include "Hlo/Analysis/HloDataflowAnalysis.h"

#include "mlir/Pass/AnalysisManager.h"

namespace mlir::hlo {

/// Values sharing one piece of memory; `values` sorted by id.
struct HloBuffer {
  unsigned id = 0;
  SmallVector<unsigned, 1> values;
};

class HloAliasAnalysis {
public:
  HloAliasAnalysis(Operation *module, AnalysisManager &am);
  explicit HloAliasAnalysis(const HloDataflowAnalysis &dataflow);

  const HloDataflowAnalysis &getDataflow() const { return dataflow; }
  ArrayRef<HloBuffer> getBuffers() const { return buffers; }
  const HloBuffer &getBuffer(unsigned id) const { return buffers[id]; }
  /// The buffer holding HLO value `valueId`.
  const HloBuffer &getBufferOfValue(unsigned valueId) const {
    return buffers[bufferOfValue[valueId]];
  }
  /// The buffer at node `node` of `value`, or null outside the computations
  /// the dataflow analysis covers.
  const HloBuffer *getBufferAt(Value value, unsigned node = 0) const;

private:
  void run();

  const HloDataflowAnalysis &dataflow;
  std::vector<HloBuffer> buffers;
  std::vector<unsigned> bufferOfValue;
};

} // namespace mlir::hlo

#endif // HLO_ANALYSIS_HLOALIASANALYSIS_H
