//===- HloTypeInference.h - HLO shape rules ---------------------*- C++ -*-===//
//
// HLO's shape rules as plain functions over types and attribute values, shared
// by the op verifiers, result-type inference (`InferTypeOpInterface`), the
// importer and passes. Each `inferX` checks an instruction's operands and
// attributes and computes its result type (without a layout); the op
// verifiers compare the declared result with it (`verifyInferredType`), the
// ops' `inferReturnTypes` return it, and the importer uses it for an
// instruction written without a shape. `verifyX` checks the instructions
// whose result HLO does not determine from the operands (broadcast,
// reshape, iota, ...) against the declared result. Bounded and unbounded
// dynamic dimensions (`ShapedType::kDynamic`) are compatible with any size.
// Layouts (tensor encodings) never take part in a comparison: HLO's shape rules
// compare shapes ignoring layouts.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOTYPEINFERENCE_H
#define HLO_DIALECT_HLO_HLOTYPEINFERENCE_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir::hlo {
class WindowAttr;
class ConvDimensionNumbersAttr;
class ReplicaGroupsAttr;
enum class FftType : uint32_t;
enum class RngDistribution : uint32_t;
enum class Transpose : uint32_t;

using EmitErrorFn = function_ref<InFlightDiagnostic()>;

//===----------------------------------------------------------------------===//
// Comparing shapes.
//===----------------------------------------------------------------------===//

/// True if two dimension sizes may be equal (either is dynamic).
bool dimsCompatible(int64_t a, int64_t b);
/// True if both are ranked tensors of equal rank with compatible dimensions
/// (element types are not compared).
bool shapesCompatible(Type a, Type b);
/// True if `a` and `b` are the same HLO shape ignoring layouts: arrays with
/// the same element type and compatible dimensions, tuples whose elements are
/// compatible, or the same token/opaque type.
bool typesCompatible(Type a, Type b);
/// Like `typesCompatible`, but floating-point element types of different
/// precision are also compatible (XLA's "ignoring FP precision").
bool typesCompatibleIgnoringFpPrecision(Type a, Type b);
/// Dimensions of an array type; fails for tuples, tokens and opaque.
FailureOr<ArrayRef<int64_t>> getDims(Type t, EmitErrorFn emitError,
                                     StringRef what);
/// The elements of a tuple type, or `t` alone when it is not a tuple.
SmallVector<Type> unpackTuple(Type t);
/// The element of `type` at tuple index `index` (a shape index; empty: the
/// type itself), or null if there is none.
Type getSubshape(Type type, ArrayRef<int64_t> index);
/// `types[0]` when there is one type, otherwise a tuple of all of them (how
/// variadic HLO instructions shape their result).
Type packTuple(MLIRContext *ctx, TypeRange types);
/// Calls `fn(subshape, index)` for every node of `type`'s shape tree in
/// pre-order: the type itself (index {}), then each tuple element,
/// recursively. Returns the number of nodes.
unsigned forEachSubshape(Type type,
                         function_ref<void(Type, ArrayRef<int64_t>)> fn);
/// The number of nodes of `type`'s shape tree (1 for an array or a token).
unsigned getNumSubshapes(Type type);
/// The number of non-tuple leaves of `type`: 1 for an array or a token, the
/// sum over the elements for a tuple (XLA's ShapeUtil::GetLeafCount).
int64_t getNumLeaves(Type type);
/// The bytes a buffer of `type` occupies, as XLA's ShapeUtil::ByteSizeOf with
/// 8-byte pointers: an array's elements (pred one byte each, other sub-byte
/// types packed, rounded up to a byte; a bounded dynamic array at its bounds, plus one s32 size per
/// dimension), a tuple's table of element pointers, nothing for a token;
/// std::nullopt for an unbounded dynamic dimension or an element type
/// without a width.
std::optional<int64_t> getShapeByteSize(Type type);
/// The bit width of an array element type (complex types count both parts);
/// std::nullopt for types without a fixed width.
std::optional<unsigned> getElementBitWidth(Type elementType);
/// The bits an element of array `type` takes in memory as a bitcast reads
/// it (XLA's rule): its layout's element size where it names one (`E(4)`,
/// a packed array), else its width, at least a byte; std::nullopt for an
/// element type without a width.
std::optional<int64_t> getElementStorageBits(RankedTensorType type);
/// The bytes a bitcast reads or writes for array `type`
/// (getElementStorageBits of each element, rounded up to a byte);
/// std::nullopt for a dynamic shape or an element type without a width.
std::optional<int64_t> getBitcastBytes(RankedTensorType type);
/// True if a bitcast from `in` to `out` keeps the memory it reinterprets:
/// the same bytes (getBitcastBytes; sizes that cannot be computed pass), or
/// as many elements of one width, whatever element sizes the layouts name
/// (the runtimes store 2- and 4-bit arrays packed either way, and passes
/// between the sub-byte size setter's runs make packed arrays whose layouts
/// do not name the size yet, as XLA's do).
bool bitcastKeepsMemory(RankedTensorType in, RankedTensorType out);
/// The width of an element type stored packed, several to a byte (the 2-
/// and 4-bit integers and floats, as XLA stores them and writes `E(n)` in
/// their layouts); 0 for the others: pred, s1 and u1, the 6-bit floats and
/// types of a byte or more take whole bytes.
unsigned getPackedElementBits(Type elementType);

//===----------------------------------------------------------------------===//
// Element types.
//===----------------------------------------------------------------------===//

/// Classes of element types HLO instructions accept, combinable with `|`.
enum ElementKind : unsigned {
  kPredKind = 1,
  kSignedKind = 2,   // s2..s64 (signless integers of width > 1)
  kUnsignedKind = 4, // u2..u64
  kFloatKind = 8,
  kComplexKind = 16,
  kIntegralKind = kSignedKind | kUnsignedKind,
  kFloatOrComplexKind = kFloatKind | kComplexKind,
  kNumericKind = kIntegralKind | kFloatOrComplexKind,
  kAnyKind = kPredKind | kNumericKind,
};
/// The kind of an element type (0 for types HLO does not have).
unsigned getElementKind(Type elementType);
/// Checks that the element type of array `t` is of one of `kinds`.
LogicalResult verifyElementKind(EmitErrorFn emitError, StringRef what, Type t,
                                unsigned kinds);

//===----------------------------------------------------------------------===//
// Shape rules.
//===----------------------------------------------------------------------===//

/// Checks a declared result type against the inferred one: the same HLO
/// shape ignoring layouts, dynamic dimensions compatible with any size.
/// With `anyElementType`, array element types may differ (dot and
/// convolution's preferred element type).
LogicalResult verifyInferredType(EmitErrorFn emitError, Type inferred,
                                 Type result, bool anyElementType = false);
/// Whether `verifyInferredType` accepts `result` for `inferred`.
bool isCompatibleResult(Type inferred, Type result, bool anyElementType);

LogicalResult verifySameShape(EmitErrorFn emitError, ArrayRef<Type> operands,
                              Type result, bool sameElementType);
LogicalResult verifyBroadcast(EmitErrorFn emitError, Type operand, Type result,
                              ArrayRef<int64_t> dims);
LogicalResult verifyReshape(EmitErrorFn emitError, Type operand, Type result);
LogicalResult verifyDynamicReshape(EmitErrorFn emitError, Type operand,
                                   TypeRange outputDims, Type result);
FailureOr<Type> inferTranspose(EmitErrorFn emitError, Type operand,
                               ArrayRef<int64_t> perm);
FailureOr<Type> inferReverse(EmitErrorFn emitError, Type operand,
                             ArrayRef<int64_t> dims);
FailureOr<Type> inferSlice(EmitErrorFn emitError, Type operand,
                           ArrayRef<int64_t> starts, ArrayRef<int64_t> limits,
                           ArrayRef<int64_t> strides);
FailureOr<Type> inferConcatenate(EmitErrorFn emitError, TypeRange operands,
                                 ArrayRef<int64_t> dims);
FailureOr<Type> inferPad(EmitErrorFn emitError, Type operand, Type padValue,
                         ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                         ArrayRef<int64_t> interior);
LogicalResult verifyIota(EmitErrorFn emitError, Type result,
                         int64_t iotaDimension);
FailureOr<Type> inferDynamicSlice(EmitErrorFn emitError, Type operand,
                                  TypeRange indices, ArrayRef<int64_t> sizes);
FailureOr<Type> inferDynamicUpdateSlice(EmitErrorFn emitError, Type operand,
                                        Type update, TypeRange indices);
FailureOr<Type> inferGetDimensionSize(EmitErrorFn emitError, Type operand,
                                      ArrayRef<int64_t> dims);
LogicalResult verifySetDimensionSize(EmitErrorFn emitError, Type operand,
                                     Type size, Type result,
                                     ArrayRef<int64_t> dims);
/// dot and convolution: the result element type is the lhs's (an
/// instruction may declare another one, XLA's preferred element type).
FailureOr<Type> inferDot(EmitErrorFn emitError, Type lhs, Type rhs,
                         ArrayRef<int64_t> lhsBatch,
                         ArrayRef<int64_t> lhsContract,
                         ArrayRef<int64_t> rhsBatch,
                         ArrayRef<int64_t> rhsContract);
FailureOr<Type> inferConvolution(EmitErrorFn emitError, Type lhs, Type rhs,
                                 WindowAttr window,
                                 ConvDimensionNumbersAttr dims,
                                 int64_t featureGroups, int64_t batchGroups);
/// The dimensions a window (reduce-window, select-and-scatter) produces over
/// an operand of dimensions `in`; fails if the window does not fit the rank
/// or has non-positive sizes, strides or dilations.
FailureOr<SmallVector<int64_t>> inferWindowOutputDims(EmitErrorFn emitError,
                                                      ArrayRef<int64_t> in,
                                                      WindowAttr window);
FailureOr<Type> inferReduce(EmitErrorFn emitError, TypeRange inputs,
                            TypeRange inits, ArrayRef<int64_t> dims);
FailureOr<Type> inferReduceWindow(EmitErrorFn emitError, TypeRange inputs,
                                  TypeRange inits, WindowAttr window);
FailureOr<Type> inferSelectAndScatter(EmitErrorFn emitError, Type operand,
                                      Type source, Type initValue,
                                      WindowAttr window);
FailureOr<Type> inferGather(EmitErrorFn emitError, Type operand, Type indices,
                            ArrayRef<int64_t> offsetDims,
                            ArrayRef<int64_t> collapsedDims,
                            ArrayRef<int64_t> startIndexMap,
                            int64_t indexVectorDim,
                            ArrayRef<int64_t> operandBatchingDims,
                            ArrayRef<int64_t> indicesBatchingDims,
                            ArrayRef<int64_t> sliceSizes);
FailureOr<Type> inferScatter(
    EmitErrorFn emitError, TypeRange operands, Type indices, TypeRange updates,
    ArrayRef<int64_t> updateWindowDims, ArrayRef<int64_t> insertedWindowDims,
    ArrayRef<int64_t> scatterDimsToOperandDims, int64_t indexVectorDim,
    ArrayRef<int64_t> inputBatchingDims, ArrayRef<int64_t> indicesBatchingDims);
FailureOr<Type> inferSort(EmitErrorFn emitError, TypeRange operands,
                          ArrayRef<int64_t> dims);
FailureOr<Type> inferTopK(EmitErrorFn emitError, Type operand, int64_t k);
FailureOr<Type> inferFft(EmitErrorFn emitError, Type operand, FftType type,
                         ArrayRef<int64_t> fftLength);
FailureOr<Type> inferCholesky(EmitErrorFn emitError, Type operand);
FailureOr<Type> inferTriangularSolve(EmitErrorFn emitError, Type a, Type b,
                                     bool leftSide, Transpose transposeA);
LogicalResult verifyBatchNorm(EmitErrorFn emitError, Type operand,
                              TypeRange perFeature, int64_t featureIndex);
LogicalResult verifyRng(EmitErrorFn emitError, TypeRange params, Type result,
                        RngDistribution distribution);
LogicalResult verifyRngBitGenerator(EmitErrorFn emitError, Type state,
                                    Type result);

//===----------------------------------------------------------------------===//
// Collectives.
//===----------------------------------------------------------------------===//

/// The number of participants of a collective, as far as the instruction
/// tells: `groupSize` participants per replica group when the groups list
/// them, times an unknown factor (the partition count of
/// cross-replica-and-partition collectives) unless `exact`.
struct ShardCount {
  std::optional<int64_t> groupSize;
  bool exact = true;
};
/// Checks replica groups: ids non-negative and listed once, groups non-empty
/// and, when `uniform`, all of one size. Returns the group size (std::nullopt
/// for an absent or empty list, meaning every replica or partition).
FailureOr<std::optional<int64_t>> verifyReplicaGroups(EmitErrorFn emitError,
                                                      ReplicaGroupsAttr groups,
                                                      bool uniform);
/// all-gather: each result is its operand with `dims[0]` multiplied by the
/// number of participants.
LogicalResult verifyAllGather(EmitErrorFn emitError, TypeRange operands,
                              Type result, ArrayRef<int64_t> dims,
                              ShardCount shards);
/// reduce-scatter: each result is its operand with `dims[0]` divided by the
/// number of participants.
LogicalResult verifyReduceScatter(EmitErrorFn emitError, TypeRange operands,
                                  Type result, ArrayRef<int64_t> dims,
                                  ShardCount shards);
/// all-to-all: one array split along `dims[0]` (which the number of
/// participants must divide) or N arrays, each exchanged whole; the result
/// has the operands' shapes.
LogicalResult verifyAllToAll(EmitErrorFn emitError, TypeRange operands,
                             Type result, ArrayRef<int64_t> dims,
                             ShardCount shards);
/// source_target_pairs: pairs of non-negative ids in `chunks` consecutive
/// chunks of equal size (the in-place collective-permute's start-index
/// entries), no source or target twice in a chunk.
LogicalResult verifySourceTargetPairs(EmitErrorFn emitError,
                                      ArrayRef<ArrayRef<int64_t>> pairs,
                                      int64_t chunks = 1);
/// Whether collective-permute operands of these types are its in-place form
/// (four operands among which tuples: the start indices are), not arrays
/// permuted together (one operand, or XLA's combined form of several).
bool isInPlacePermute(TypeRange operands);
/// The in-place collective-permute (input, output, input start indices,
/// output start indices) read from its operand types.
struct InPlacePermute {
  /// The arrays of each buffer (one, or the elements of the tuples).
  SmallVector<RankedTensorType> inputs, outputs;
  /// Whether the buffers are tuples.
  bool tuple = false;
  /// Start-index entries per buffer: 1 for a tuple of integer scalars, c
  /// for a tuple of c such tuples.
  int64_t entries = 1;
  /// The sizes of the slice that entry k of buffer b copies, at
  /// b * entries + k (`slice_sizes`, else the whole input buffer).
  SmallVector<SmallVector<int64_t>> sliceSizes;
};
/// Checks the in-place form's operands and `sliceSizes` (null when absent).
FailureOr<InPlacePermute> verifyInPlacePermute(EmitErrorFn emitError,
                                               TypeRange operands,
                                               ArrayAttr sliceSizes);

//===----------------------------------------------------------------------===//
// Called computations.
//===----------------------------------------------------------------------===//

/// Checks that a called computation's parameters (when `expectedArgs` is
/// given) and result (when `expectedResult` is given) are the given types,
/// ignoring layouts (`what` names the role, e.g. "to_apply").
LogicalResult verifySignature(EmitErrorFn emitError, StringRef what,
                              FunctionType callee,
                              std::optional<TypeRange> expectedArgs,
                              std::optional<Type> expectedResult);

/// Checks a reducer computation `(acc..., x...) -> acc...` of reduce,
/// reduce-window, scatter and all-reduce: accumulators have the (scalar)
/// types of `inits`, inputs the element types of `inputElementTypes`; both
/// ignoring floating-point precision, as XLA does.
LogicalResult verifyReducer(EmitErrorFn emitError, StringRef what,
                            FunctionType callee, TypeRange inits,
                            TypeRange inputElementTypes);

} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLOTYPEINFERENCE_H
