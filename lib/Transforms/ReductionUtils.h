//===- ReductionUtils.h - how XLA-GPU classifies reductions -----*- C++ -*-===//
//
// Private to lib/Transforms: what the reduction rewrites that run before
// fusion (tree reduction rewriter, splitter, degenerate dimension remover,
// dimension grouper) share, after XLA's gpu/reduction_utils: the reduces
// they look at, the row/column classification of a reduce over an operand
// of the default layout, and the sizes one reduction kernel handles without
// atomics. Also what the algebraic simplifier and the reduce-window
// rewriter share about reducers (the binary op one computes, its identity);
// windows' fields are WindowUtils.h's.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_REDUCTIONUTILS_H
#define HLO_LIB_TRANSFORMS_REDUCTIONUTILS_H

#include "WindowUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/BuiltinOps.h"

#include <array>

namespace mlir::hlo {

/// XLA's WarpSize() on NVIDIA GPUs.
constexpr int64_t kWarpSize = 32;
/// XLA's MinThreadsXRowReduction(): threads per block along a reduced row
/// (1024; XLA takes 512 with a ptxas older than 12.2).
constexpr int64_t kMinThreadsXRowReduction = 1024;
/// XLA's BatchedReductionRaceFreeBound(): the largest reduced major
/// dimension of a batched row reduction one kernel handles.
constexpr int64_t kBatchedReductionRaceFreeBound = 8;

/// True if `type` is a static array without a layout or with the default
/// one (minor_to_major descending, no tiles, element size or memory space):
/// XLA's `shape == LayoutUtil::GetWithDefaultLayout(shape)`.
bool hasDefaultLayout(Type type);

/// The reduces the passes rewrite: no control predecessors, every input and
/// result a static array with the default layout.
bool isPlainReduce(ReduceOp op);

/// The reduces of the computations of `module` that no fusion calls, in
/// order (the worklist of the reduction passes).
SmallVector<ReduceOp> nonFusionReduces(ModuleOp module);

/// The number of arrays a reduce reduces (its inputs are these arrays, then
/// as many init values).
inline unsigned numReducedArrays(ReduceOp op) {
  return op.getInputs().size() / 2;
}

/// XLA's ReductionDimensions: a reduction seen as [depth, height, width]
/// (major to minor). A row reduction reduces depth and width and keeps
/// height; a column reduction reduces height and keeps depth and width.
struct ReductionDimensions {
  bool isRowReduction = true;
  std::array<int64_t, 3> dims = {1, 1, 1};
};

/// XLA's GetReductionKindAndContiguousComponents for an operand of shape
/// `shape` in the default layout reduced over `reduced` (the kept or the
/// reduced dimensions must be consecutive).
ReductionDimensions getReductionKind(ArrayRef<int64_t> shape,
                                     ArrayRef<int64_t> reduced);

/// XLA's IsReductionFromOrToContiguousDimensions for such an operand: the
/// kept or the reduced dimensions are consecutive and the reduction
/// emitter beats the elemental one (IsUnnestedReductionFasterThanElemental).
/// False for empty operands.
bool isReductionFromOrToContiguousDimensions(ArrayRef<int64_t> shape,
                                             ArrayRef<int64_t> reduced);

/// XLA's ReductionIsRaceFree with the tiling of GetReductionTiling (row:
/// {min(depth, 8), 1, 16}, column: {1, 128, 1}): a row reduction fits when
/// width <= minThreadsX * 16 and depth <= 8, a column one when height <=
/// warp size * 128.
bool reductionIsRaceFree(const ReductionDimensions &rd,
                         int64_t minThreadsX = kMinThreadsXRowReduction);

/// A reshape of `v` to `shape` (same element type, default layout), or
/// `v` when it has that shape.
Value reshapeTo(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape);

/// `reduce(inputs, inits)` over `dims` with `like`'s reducer, of result type
/// `resultType`.
Value createReduce(OpBuilder &b, Location loc, ReduceOp like, Type resultType,
                   ValueRange inputs, ValueRange inits, ArrayRef<int64_t> dims);

/// Replaces the reduce `op` by `value` (defined by an instruction made for
/// it, which takes op's name, metadata and attributes) and erases `op`.
void replaceReduce(ReduceOp op, Value value);

/// The op of a reducer computation that returns one binary op of its two
/// parameters (`add(p0, p1)`, ...), or null.
Operation *reducerOp(ComputationOp comp);

/// The scalar of element type `type` that `reducer` leaves every value
/// alone with: 0 for add, or and xor, 1 for multiply, the lowest value
/// (-inf) for maximum, the highest for minimum, all ones for and; null for
/// other reducers and types.
DenseElementsAttr identityOf(Operation *reducer, Type type);

/// True if `init` is a constant (or a broadcast one) that `reducer` leaves
/// every value alone with (`identityOf`; a float add takes -0 too, as XLA does:
/// it differs from +0 only in the sign of a zero).
bool isIdentityOf(Operation *reducer, Value init);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_REDUCTIONUTILS_H
