//===- LayoutUtils.h - layouts for the GPU layout passes --------*- C++ -*-===//
//
// Private to lib/Transforms: what layout assignment, layout normalization,
// the reshape decomposer, the reduction layout normalizer and the transpose
// dimension grouper share: building array types with a given
// minor-to-major order, physical (normalized) shapes, and when a transpose
// or a reshape is a bitcast (XLA's ShapeUtil::TransposeIsBitcast,
// ReshapeIsBitcast and AlignLayouts).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_LAYOUTUTILS_H
#define HLO_LIB_TRANSFORMS_LAYOUTUTILS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include <optional>

namespace mlir::hlo {

/// The default minor-to-major order of rank `rank`: (rank - 1, ..., 0).
SmallVector<int64_t> defaultMinorToMajor(int64_t rank);

/// True if `m2m` is the default order for its rank.
bool isDefaultMinorToMajor(ArrayRef<int64_t> m2m);

/// True if `layout` gives `element` no element size of its own: none, or
/// the width of a sub-byte element type (XLA's `E(4)` on `u4`: the packed
/// storage every runtime uses for them anyway).
bool hasNaturalElementSize(LayoutAttr layout, Type element);

/// An array of `shape` and `type`'s element type, with no layout but
/// `type`'s natural element size if it has one.
RankedTensorType withShapeOf(RankedTensorType type, ArrayRef<int64_t> shape);

/// True if `type` is an array whose layout, if any, has only a
/// minor-to-major order (and bounds, and a natural element size): no
/// tiles, memory space or unmodelled items. The layouts the passes rewrite.
bool hasPlainLayout(Type type);

/// `type` with element size `bits` in its layout (XLA's `E(n)`; 0 names
/// none), the layout's other fields kept. An array without a layout gets
/// the default one when `bits` is not 0, and a layout that names an element
/// size names its minor-to-major order too (the size prints after it).
/// Arrays with another encoding are returned as they are.
RankedTensorType withElementSize(RankedTensorType type, int64_t bits);

/// The array type `type` with an explicit layout `m2m` (its bounds, memory
/// space and natural element size kept, tiles dropped). Arrays of rank 0 and
/// other types are returned unchanged. Every type the layout passes build comes
/// from here, so equal layouts give equal types.
Type withMinorToMajor(Type type, ArrayRef<int64_t> m2m);

/// The array type `type` in memory space `space`, its layout's other fields
/// kept (an array without a layout gets the default one). Other types are
/// returned unchanged.
Type withMemorySpace(Type type, int64_t space);

/// `type` with the default layout made explicit on every array of rank > 0
/// (tuples element by element).
Type withDefaultLayouts(Type type);

/// True if `a` and `b` (arrays, tuples of them, anything else) have the
/// same minor-to-major orders everywhere.
bool sameLayouts(Type a, Type b);

/// The minor-to-major order `m2m` without the dimensions in `removed`, the
/// others renumbered (XLA's ShapeUtil::DeleteDimensions on a layout).
SmallVector<int64_t> deleteDimensions(ArrayRef<int64_t> m2m,
                                      ArrayRef<int64_t> removed);

/// The dimensions of the array `type` from major to minor in memory.
SmallVector<int64_t> physicalShape(RankedTensorType type);

/// The array of `type`'s physical shape in the default layout (XLA's
/// ShapeUtil::MakeShapeWithDescendingLayoutAndSamePhysicalLayout).
RankedTensorType normalizedType(RankedTensorType type);

/// The minor-to-major order of a transpose's result (result dimension i is
/// operand dimension perm[i]) that makes it a bitcast of an operand laid out
/// as `operandM2M`.
SmallVector<int64_t> transposeResultLayout(ArrayRef<int64_t> operandM2M,
                                           ArrayRef<int64_t> perm);

/// The operand layout that makes a transpose with result layout `resultM2M`
/// a bitcast.
SmallVector<int64_t> transposeOperandLayout(ArrayRef<int64_t> resultM2M,
                                            ArrayRef<int64_t> perm);

/// True if arrays of `shape` laid out as `a` and as `b` have their elements
/// in the same order in memory (they differ only in where size-1
/// dimensions sit).
bool samePhysicalOrder(ArrayRef<int64_t> shape, ArrayRef<int64_t> a,
                       ArrayRef<int64_t> b);

/// XLA's ShapeUtil::AlignLayouts: a layout for an array of shape `to` that
/// makes a reshape from `from` laid out as `fromM2M` a bitcast, if there is
/// one (size-1 dimensions of `to` are placed as close to the default order
/// as they can be). Static shapes only.
std::optional<SmallVector<int64_t>> alignLayout(ArrayRef<int64_t> from,
                                                ArrayRef<int64_t> fromM2M,
                                                ArrayRef<int64_t> to);

/// True if a reshape from `in` to `out` (static arrays with layouts) is a
/// bitcast (XLA's ShapeUtil::ReshapeIsBitcast).
bool reshapeIsBitcast(RankedTensorType in, RankedTensorType out);

/// True for the ops XLA does not let change layouts (elementwise ops but
/// copy, slice, pad, concatenate, reverse, dynamic-slice,
/// dynamic-update-slice, reduce-window, reduce-precision): their operands of
/// the result's rank have the result's layout.
bool keepsOperandLayout(Operation *op);

/// The minor-to-major order of `op`'s array result that follows its
/// operands when nothing else constrains it: the layout of the first
/// same-rank operand for the ops that keep layouts and copy, the bitcast
/// layout of a transpose, of a reshape when there is one, the input's
/// without the reduced dimensions for a reduce, the element's for
/// get-tuple-element; the default otherwise.
SmallVector<int64_t> layoutFromOperands(Operation *op);

/// Gives every array result of rank > 0 without a layout in the
/// computations of `module` that no fusion calls and whose parameters and
/// result are laid out a layout from its operands (layoutFromOperands), in
/// order; tuples take their elements'. True if a type changed.
bool assignMissingLayouts(ModuleOp module);

/// True if `a` and `b` are the same array shape in the same plain layout
/// (whether the layout is written or implied).
bool sameArrayType(Type a, Type b);

/// A `bitcast` of `v` to `type` (named "bitcast", with the metadata of
/// `loc`), or `v` when it has that type.
Value createBitcast(OpBuilder &b, Location loc, Value v, Type type);

/// A `copy` of `v` to `type` (named "copy", with the metadata of `loc`).
Value createCopy(OpBuilder &b, Location loc, Value v, Type type);

/// A `transpose` of `v` by `perm` to `type` (named "transpose").
Value createTranspose(OpBuilder &b, Location loc, Value v,
                      ArrayRef<int64_t> perm, Type type);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_LAYOUTUTILS_H
