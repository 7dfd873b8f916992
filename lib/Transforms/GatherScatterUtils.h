//===- GatherScatterUtils.h - index arithmetic of the expanders -*- C++ -*-===//
//
// Private to lib/Transforms: what hlo-gather-expander and the scatter
// expanders share. Both loop over the index vectors of their indices (one
// iteration per vector, row-major over the indices' dimensions other than
// index_vector_dim) and need, in each iteration, the start of the window
// in the operand: index vector components at the dimensions the index map
// names, the iteration's coordinate at batching dimensions, 0 elsewhere.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_GATHERSCATTERUTILS_H
#define HLO_LIB_TRANSFORMS_GATHERSCATTERUTILS_H

#include "WhileLoopUtils.h"

namespace mlir::hlo {

/// The operands, indices and updates of a scatter (its inputs in order:
/// N operands, the indices, N updates).
struct ScatterParts {
  OperandRange operands, updates;
  Value indices;
  explicit ScatterParts(ScatterOp op)
      : operands(op.getInputs().take_front(op.getInputs().size() / 2)),
        updates(op.getInputs().take_back(op.getInputs().size() / 2)),
        indices(op.getInputs()[op.getInputs().size() / 2]) {}
};

/// 0..rank-1 without the dimensions in `skip1` and `skip2`, ascending.
SmallVector<int64_t> dimsExcept(int64_t rank, ArrayRef<int64_t> skip1,
                                ArrayRef<int64_t> skip2 = {});

/// The number of index vectors: the product of the indices' dimensions
/// other than `indexVectorDim` (== rank when the vector is implicit).
int64_t indexVectorCount(ArrayRef<int64_t> indicesShape,
                         int64_t indexVectorDim);

/// The element type of window starts: the indices' own, widened to s32
/// below 32 bits (exactly; the batching coordinates, counted in s32, must
/// fit). dynamic-slice and dynamic-update-slice then read every index as
/// gather and scatter read it.
Type startIndexType(Type indicesElementType);

/// How a gather or scatter locates its windows.
struct WindowIndexing {
  ArrayRef<int64_t> indicesShape;
  int64_t indexVectorDim;
  /// start_index_map / scatter_dims_to_operand_dims.
  ArrayRef<int64_t> indexToOperandDims;
  /// operand_batching_dims / input_batching_dims, and the matching
  /// start_indices_batching_dims / scatter_indices_batching_dims.
  ArrayRef<int64_t> operandBatchingDims;
  ArrayRef<int64_t> indicesBatchingDims;
  int64_t operandRank;
  Type startType;
};

/// The indices as a [count, K] matrix of `w.startType`, one index vector a
/// row (K = 1 for an implicit index vector dimension): the index vector
/// dimension moved last, the others flattened row-major.
Value canonicalizeIndices(InstBuilder &ib, const WindowIndexing &w,
                          Value indices);

/// In the loop body: the start in the operand of the window of iteration
/// `iv` (s32), one `w.startType` scalar per operand dimension, read from
/// row `iv` of `canonicalIndices`.
SmallVector<Value> windowStart(InstBuilder &ib, const WindowIndexing &w,
                               Value canonicalIndices, Value iv);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_GATHERSCATTERUTILS_H
