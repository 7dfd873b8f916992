//===- IndexingAnalysisImpl.h - shared parts of the maps -------*- C++ -*-===//
//
// Private to lib/Analysis: the helpers the per-op maps share, and the entry
// points of each op family. Every family function returns one
// OperandIndexing per operand (output-to-input) or per output
// (input-to-output); the dispatcher in IndexingAnalysis.cpp has already
// checked that all shapes involved are static.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_ANALYSIS_INDEXINGANALYSISIMPL_H
#define HLO_LIB_ANALYSIS_INDEXINGANALYSISIMPL_H

#include "Hlo/Analysis/IndexingAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::hlo::indexing {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The dimensions of a statically shaped ranked tensor; std::nullopt for any
/// other type.
std::optional<SmallVector<int64_t>> getStaticShape(Type type);

/// The dimensions of `value`'s type; empty for non-arrays (tokens, tuples).
/// Only for values whose type the dispatcher has checked.
SmallVector<int64_t> shapeOf(Value value);

/// The type of output `output` of `op` (a tuple element for multi-output
/// ops, the result type otherwise).
Type getOutputType(Operation *op, unsigned output);

/// The shape of output `output` of `op`.
SmallVector<int64_t> outputShape(Operation *op, unsigned output);

/// An IndexingMap over dimensions `0 <= d_i < dimSizes[i]` and range
/// variables `0 <= s_j < rangeSizes[j]`, with `results` as its expressions,
/// followed by the runtime variables `runtimeVars`.
IndexingMap makeMap(MLIRContext *context, ArrayRef<int64_t> dimSizes,
                    ArrayRef<int64_t> rangeSizes, ArrayRef<AffineExpr> results,
                    std::vector<RuntimeVar> runtimeVars = {});

/// The identity over `shape`.
IndexingMap identityMap(MLIRContext *context, ArrayRef<int64_t> shape);

/// `(d...) -> ()` over `shape`: every element reads the whole (scalar)
/// operand.
IndexingMap toScalarMap(MLIRContext *context, ArrayRef<int64_t> shape);

/// `()[s...] -> (s...)` with the ranges of `shape`: a scalar feeds every
/// element of an array of that shape.
IndexingMap scalarToAllMap(MLIRContext *context, ArrayRef<int64_t> shape);

/// An OperandIndexing holding one map.
OperandIndexing single(IndexingMap map);

/// `count` unknown entries with `reason`.
InstructionIndexing allUnknown(unsigned count, const std::string &reason);

/// For each dimension of `to`, its index as an expression of the index
/// `fromIndex` of a tensor of shape `from` holding the same elements in
/// row-major order. Groups of dimensions whose sizes multiply to the same
/// value are handled separately; `needsSimplify` is set when a group has
/// several dimensions on both sides (the expressions are then worth
/// simplifying).
SmallVector<AffineExpr>
reshapeExprs(MLIRContext *context, ArrayRef<int64_t> from, ArrayRef<int64_t> to,
             ArrayRef<AffineExpr> fromIndex, bool &needsSimplify);

/// From a padded view of a tensor of shape `operand` (`padded` its shape,
/// `low` and `interior` padding per dimension) to the operand: the padding
/// elements are outside the domain or excluded by `mod` constraints.
IndexingMap paddedToOperandMap(MLIRContext *context, ArrayRef<int64_t> padded,
                               ArrayRef<int64_t> operand, ArrayRef<int64_t> low,
                               ArrayRef<int64_t> interior);

/// composeIndexingMaps(consumer, producer), simplified, without unused
/// symbols. A plain identity `producer` gives `consumer` back.
IndexingMap composeSimplified(const IndexingMap &consumer,
                              const IndexingMap &producer);

//===----------------------------------------------------------------------===//
// Op families (output-to-input: one entry per operand; input-to-output: one
// entry per output)
//===----------------------------------------------------------------------===//

bool isElementwise(Operation *op);
InstructionIndexing elementwiseOutputToInput(Operation *op, unsigned output);
InstructionIndexing elementwiseInputToOutput(Operation *op, unsigned operand);

/// Ops whose output K is operand element K unchanged (copy or
/// opt-barrier of a tuple, tuple, get-tuple-element, all-reduce, ...).
bool isPassThrough(Operation *op);
InstructionIndexing passThroughOutputToInput(Operation *op, unsigned output);
InstructionIndexing passThroughInputToOutput(Operation *op, unsigned operand);

InstructionIndexing bitcastConvertOutputToInput(BitcastConvertOp op);
InstructionIndexing bitcastConvertInputToOutput(BitcastConvertOp op);

InstructionIndexing broadcastOutputToInput(BroadcastOp op);
InstructionIndexing broadcastInputToOutput(BroadcastOp op);
InstructionIndexing transposeOutputToInput(TransposeOp op);
InstructionIndexing transposeInputToOutput(TransposeOp op);
InstructionIndexing reverseOutputToInput(ReverseOp op);
InstructionIndexing reverseInputToOutput(ReverseOp op);
InstructionIndexing sliceOutputToInput(SliceOp op);
InstructionIndexing sliceInputToOutput(SliceOp op);
InstructionIndexing reshapeOutputToInput(Operation *op);
InstructionIndexing reshapeInputToOutput(Operation *op);
InstructionIndexing bitcastOutputToInput(BitcastOp op);
InstructionIndexing bitcastInputToOutput(BitcastOp op);
InstructionIndexing concatenateOutputToInput(ConcatenateOp op);
InstructionIndexing concatenateInputToOutput(ConcatenateOp op,
                                             unsigned operand);
InstructionIndexing padOutputToInput(PadOp op);
InstructionIndexing padInputToOutput(PadOp op, unsigned operand);

InstructionIndexing dynamicSliceOutputToInput(DynamicSliceOp op);
InstructionIndexing dynamicSliceInputToOutput(DynamicSliceOp op,
                                              unsigned operand);
InstructionIndexing dynamicUpdateSliceOutputToInput(DynamicUpdateSliceOp op);
InstructionIndexing dynamicUpdateSliceInputToOutput(DynamicUpdateSliceOp op,
                                                    unsigned operand);
InstructionIndexing gatherOutputToInput(GatherOp op);
InstructionIndexing gatherInputToOutput(GatherOp op, unsigned operand);

InstructionIndexing reduceOutputToInput(ReduceOp op, unsigned output);
InstructionIndexing reduceInputToOutput(ReduceOp op, unsigned operand);
InstructionIndexing reduceWindowOutputToInput(ReduceWindowOp op,
                                              unsigned output);
InstructionIndexing reduceWindowInputToOutput(ReduceWindowOp op,
                                              unsigned operand);
InstructionIndexing sortOutputToInput(SortOp op, unsigned output);
InstructionIndexing sortInputToOutput(SortOp op, unsigned operand);
InstructionIndexing dotOutputToInput(DotOp op);
InstructionIndexing dotInputToOutput(DotOp op, unsigned operand);
InstructionIndexing scaledDotOutputToInput(ScaledDotOp op);
InstructionIndexing scaledDotInputToOutput(ScaledDotOp op, unsigned operand);
InstructionIndexing allGatherOutputToInput(AllGatherOp op);
InstructionIndexing allGatherInputToOutput(AllGatherOp op);
InstructionIndexing convolutionOutputToInput(ConvolutionOp op);
InstructionIndexing convolutionInputToOutput(ConvolutionOp op,
                                             unsigned operand);

/// Ops that call a computation and whose maps go through it: fusion, call,
/// async-start.
InstructionIndexing calledOutputToInput(Operation *op, unsigned output);
InstructionIndexing calledInputToOutput(Operation *op, unsigned operand);

/// The symbol tables the analyses look called computations up in on this
/// thread (set by a GpuPerformanceModel with setSymbolTables for the time
/// of one query), or null: look them up by a walk of the module.
SymbolTableCollection *&activeSymbolTables();

/// The computation `ref` names, as seen from `op`.
ComputationOp lookupCallee(Operation *op, FlatSymbolRefAttr ref);

} // namespace mlir::hlo::indexing

#endif // HLO_LIB_ANALYSIS_INDEXINGANALYSISIMPL_H
