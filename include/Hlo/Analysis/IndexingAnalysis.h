//===- IndexingAnalysis.h - indexing maps of hlo ops ------------*- C++ -*-===//
//
// The indexing maps of every op of the hlo dialect, in both directions:
//
// - output-to-input: for one output of an op, a map per operand from the
//   output's index space to the operand elements read to compute it;
// - input-to-output: for one operand, a map per output from the operand's
//   index space to the output elements it contributes to.
//
// An "output" is the op's result, or, for ops with several outputs (variadic
// reduce, sort, reduce-window, multi-output fusions, tuple, ...), one element
// of the tuple result. Ops with no defined map (while, custom-call, ...) give
// an `unknown` OperandIndexing with a reason; nothing aborts.
//
// Fusions (and call) compose the maps of their called computation from the
// root, simplifying after each step and de-duplicating per parameter.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_ANALYSIS_INDEXINGANALYSIS_H
#define HLO_ANALYSIS_INDEXINGANALYSIS_H

#include "Hlo/Support/IndexingMap.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::hlo {

/// The maps between one output and one operand. `maps` holds distinct maps in
/// a deterministic order (sortIndexingMaps). When the indexing is not known,
/// `maps` is empty and `unknownReason` says why.
struct OperandIndexing {
  llvm::SmallVector<IndexingMap, 1> maps;
  std::string unknownReason;

  bool isUnknown() const { return !unknownReason.empty(); }
  static OperandIndexing unknown(std::string reason);
  /// Adds `map` unless an equal map is already there.
  void insert(const IndexingMap &map);
};

/// One OperandIndexing per operand (output-to-input) or per output
/// (input-to-output).
struct InstructionIndexing {
  llvm::SmallVector<OperandIndexing> indexing;
};

/// The number of outputs of `op` in the sense above (1 unless the op has
/// several outputs packed into a tuple result).
unsigned getNumIndexingOutputs(Operation *op);

/// Output `outputIndex` of `op` to each of its operands.
InstructionIndexing computeOutputToInputIndexing(Operation *op,
                                                 unsigned outputIndex = 0);

/// Operand `operandIndex` of `op` to each of its outputs.
InstructionIndexing computeInputToOutputIndexing(Operation *op,
                                                 unsigned operandIndex);

/// Orders maps deterministically: maps with more symbols first, then by their
/// text form.
void sortIndexingMaps(llvm::SmallVectorImpl<IndexingMap> &maps);

} // namespace mlir::hlo

#endif // HLO_ANALYSIS_INDEXINGANALYSIS_H
