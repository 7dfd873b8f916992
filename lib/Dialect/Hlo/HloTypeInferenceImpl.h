//===- HloTypeInferenceImpl.h - helpers of the shape rules ------*- C++ -*-===//
//
// Private to lib/Dialect/Hlo: the helpers HloTypeInference.cpp defines for
// the shape-rule files.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_DIALECT_HLO_HLOTYPEINFERENCEIMPL_H
#define HLO_LIB_DIALECT_HLO_HLOTYPEINFERENCEIMPL_H

#include "Hlo/Dialect/Hlo/HloTypeInference.h"

#include <string>

namespace mlir::hlo::detail {

/// Prints dimension sizes as `[2, ?, 3]`; one size as `2` or `?`.
std::string str(ArrayRef<int64_t> v);
std::string str(int64_t d);
/// Every entry is in [0, rank) and appears once.
LogicalResult checkDimList(EmitErrorFn emitError, StringRef what,
                           ArrayRef<int64_t> dims, int64_t rank);
/// Like checkDimList, and the entries are ascending.
LogicalResult checkSortedDimList(EmitErrorFn emitError, StringRef what,
                                 ArrayRef<int64_t> dims, int64_t rank);
/// No dimension of `a` is in `b`.
LogicalResult checkDisjoint(EmitErrorFn emitError, StringRef whatA,
                            ArrayRef<int64_t> a, StringRef whatB,
                            ArrayRef<int64_t> b);
/// `dims` names one dimension of an operand of rank `rank`.
LogicalResult checkSingleDim(EmitErrorFn emitError, ArrayRef<int64_t> dims,
                             size_t rank);
Type elementType(Type t);
Type scalarOf(Type t);
bool isScalarArray(Type t);
/// Saturating size arithmetic: an overflow gives INT64_MAX (or MIN), which
/// then fails the size checks instead of wrapping around.
int64_t satAdd(int64_t a, int64_t b);
int64_t satMul(int64_t a, int64_t b);

} // namespace mlir::hlo::detail

#endif // HLO_LIB_DIALECT_HLO_HLOTYPEINFERENCEIMPL_H
