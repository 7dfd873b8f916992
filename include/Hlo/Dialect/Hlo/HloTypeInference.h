//===- HloTypeInference.h - HLO shape rules ---------------------*- C++ -*-===//
//
// HLO's shape rules as plain functions over types and attribute values, shared
// by the op verifiers, the importer and passes. Each `verifyX` checks the
// result type an instruction declares against what HLO infers; each
// `inferX` computes that result shape. Bounded and unbounded dynamic
// dimensions (`ShapedType::kDynamic`) are compatible with any size.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOTYPEINFERENCE_H
#define HLO_DIALECT_HLO_HLOTYPEINFERENCE_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"

namespace mlir::hlo {
class WindowAttr;
class ConvDimensionNumbersAttr;

using EmitErrorFn = function_ref<InFlightDiagnostic()>;

/// True if two dimension sizes may be equal (either is dynamic).
bool dimsCompatible(int64_t a, int64_t b);
/// True if both are ranked tensors of equal rank with compatible dimensions.
bool shapesCompatible(Type a, Type b);
/// Dimensions of an array type; fails for tuples, tokens and opaque.
FailureOr<ArrayRef<int64_t>> getDims(Type t, EmitErrorFn emitError,
                                     StringRef what);

LogicalResult verifySameShape(EmitErrorFn emitError, ArrayRef<Type> operands,
                              Type result, bool sameElementType);
LogicalResult verifyBroadcast(EmitErrorFn emitError, Type operand, Type result,
                              ArrayRef<int64_t> dims);
LogicalResult verifyReshape(EmitErrorFn emitError, Type operand, Type result);
LogicalResult verifyTranspose(EmitErrorFn emitError, Type operand, Type result,
                              ArrayRef<int64_t> perm);
LogicalResult verifyReverse(EmitErrorFn emitError, Type operand, Type result,
                            ArrayRef<int64_t> dims);
LogicalResult verifySlice(EmitErrorFn emitError, Type operand, Type result,
                          ArrayRef<int64_t> starts, ArrayRef<int64_t> limits,
                          ArrayRef<int64_t> strides);
LogicalResult verifyConcatenate(EmitErrorFn emitError, TypeRange operands,
                                Type result, ArrayRef<int64_t> dims);
LogicalResult verifyPad(EmitErrorFn emitError, Type operand, Type padValue,
                        Type result, ArrayRef<int64_t> low,
                        ArrayRef<int64_t> high, ArrayRef<int64_t> interior);
LogicalResult verifyDynamicSlice(EmitErrorFn emitError, Type operand,
                                 TypeRange indices, Type result,
                                 ArrayRef<int64_t> sizes);
LogicalResult verifyDynamicUpdateSlice(EmitErrorFn emitError, Type operand,
                                       Type update, TypeRange indices,
                                       Type result);
LogicalResult verifyDot(EmitErrorFn emitError, Type lhs, Type rhs, Type result,
                        ArrayRef<int64_t> lhsBatch, ArrayRef<int64_t> lhsContract,
                        ArrayRef<int64_t> rhsBatch,
                        ArrayRef<int64_t> rhsContract);
LogicalResult verifyConvolution(EmitErrorFn emitError, Type lhs, Type rhs,
                                Type result, WindowAttr window,
                                ConvDimensionNumbersAttr dims,
                                int64_t featureGroups, int64_t batchGroups);
LogicalResult verifyReduceDims(EmitErrorFn emitError, TypeRange inputs,
                               TypeRange inits, Type result,
                               ArrayRef<int64_t> dims);
LogicalResult verifyReduceWindow(EmitErrorFn emitError, TypeRange inputs,
                                 TypeRange inits, Type result,
                                 WindowAttr window);
LogicalResult verifyGather(EmitErrorFn emitError, Type operand, Type indices,
                           Type result, ArrayRef<int64_t> offsetDims,
                           ArrayRef<int64_t> collapsedDims,
                           ArrayRef<int64_t> startIndexMap,
                           int64_t indexVectorDim,
                           ArrayRef<int64_t> operandBatchingDims,
                           ArrayRef<int64_t> indicesBatchingDims,
                           ArrayRef<int64_t> sliceSizes);
LogicalResult verifyScatter(EmitErrorFn emitError, TypeRange operands,
                            Type indices, TypeRange updates, Type result,
                            ArrayRef<int64_t> updateWindowDims,
                            ArrayRef<int64_t> insertedWindowDims,
                            ArrayRef<int64_t> scatterDimsToOperandDims,
                            int64_t indexVectorDim);

/// Checks that a called computation's parameters and result are the given
/// types (`what` names the role, e.g. "to_apply").
LogicalResult verifySignature(EmitErrorFn emitError, StringRef what,
                              FunctionType callee, TypeRange expectedArgs,
                              std::optional<Type> expectedResult);

} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLOTYPEINFERENCE_H
