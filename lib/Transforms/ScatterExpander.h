//===- ScatterExpander.h - scatter as a while loop --------------*- C++ -*-===//
//
// Private to lib/Transforms: the expansion of a scatter into a while loop
// (ScatterExpander.cpp), shared by hlo-scatter-expander and
// hlo-gpu-scatter-expander, which differ only in which scatters they pick.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_SCATTEREXPANDER_H
#define HLO_LIB_TRANSFORMS_SCATTEREXPANDER_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::hlo {

/// The number of index vectors of `op` (the loop's trip count).
int64_t scatterIndexCount(ScatterOp op);

/// Replaces scatters of one module by while loops.
class ScatterExpansion {
public:
  explicit ScatterExpansion(ModuleOp module) : symbols(module) {}

  /// The module's symbol table, kept up to date with new computations.
  SymbolTable &getSymbols() { return symbols; }

  /// True if `op` can be expanded: no control predecessors, static array
  /// shapes, a combiner in the module, fewer than 2^31 index vectors.
  bool isExpandable(ScatterOp op);

  /// Replaces `op` (isExpandable) by a loop over its index vectors; the
  /// loop's condition and body are new private computations.
  void expand(ScatterOp op);

private:
  /// The computation giving output `k` of the combiner `combiner` of a
  /// variadic scatter (one per combiner and output, made before `parent`
  /// the first time).
  FlatSymbolRefAttr combinerOutput(ComputationOp combiner, unsigned k,
                                   ComputationOp parent);

  SymbolTable symbols;
  DenseMap<std::pair<Operation *, unsigned>, FlatSymbolRefAttr> outputs;
};

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_SCATTEREXPANDER_H
