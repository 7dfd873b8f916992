//===- HloGatherScatterRules.cpp - HLO shape rules --------------------===//
//
// Shape rules of gather, scatter and sort.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "HloTypeInferenceImpl.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::detail;

//===----------------------------------------------------------------------===//
// Gather and scatter
//===----------------------------------------------------------------------===//

/// The batching dimensions shared by gather and scatter: one index
/// dimension per operand dimension, of the same size, never the index vector.
static LogicalResult
checkBatchingDims(EmitErrorFn emitError, ArrayRef<int64_t> op,
                  StringRef opListName, ArrayRef<int64_t> opBatching,
                  ArrayRef<int64_t> idx, StringRef idxName,
                  ArrayRef<int64_t> idxBatching, int64_t indexVectorDim) {
  std::string idxListName = (idxName + "_batching_dims").str();
  if (opBatching.size() != idxBatching.size())
    return emitError() << opListName << " " << str(opBatching) << " and "
                       << idxListName << " " << str(idxBatching)
                       << " differ in size";
  if (failed(checkDimList(emitError, idxListName, idxBatching, idx.size())))
    return failure();
  if (llvm::is_contained(idxBatching, indexVectorDim))
    return emitError() << idxListName << " " << str(idxBatching)
                       << " may not contain index_vector_dim "
                       << indexVectorDim;
  for (auto [o, i] : llvm::zip(opBatching, idxBatching))
    if (!dimsCompatible(op[o], idx[i]))
      return emitError() << "operand batching dimension " << o << " (size "
                         << str(op[o]) << ") differs from " << idxName
                         << " dimension " << i << " (size " << str(idx[i])
                         << ")";
  return success();
}

FailureOr<Type> mlir::hlo::inferGather(
    EmitErrorFn emitError, Type operand, Type indices,
    ArrayRef<int64_t> offsetDims, ArrayRef<int64_t> collapsedDims,
    ArrayRef<int64_t> startIndexMap, int64_t indexVectorDim,
    ArrayRef<int64_t> operandBatchingDims,
    ArrayRef<int64_t> indicesBatchingDims, ArrayRef<int64_t> sliceSizes) {
  auto op = getDims(operand, emitError, "operand");
  if (failed(op))
    return failure();
  auto idx = getDims(indices, emitError, "start_indices");
  if (failed(idx))
    return failure();
  if (failed(verifyElementKind(emitError, "start_indices", indices,
                               kIntegralKind)))
    return failure();
  int64_t rank = op->size();
  int64_t idxRank = idx->size();
  if (int64_t(sliceSizes.size()) != rank)
    return emitError() << "slice_sizes " << str(sliceSizes)
                       << " must have one entry per operand dimension (" << rank
                       << ")";
  for (int64_t i = 0; i < rank; ++i)
    if (sliceSizes[i] < 0 ||
        (!ShapedType::isDynamic((*op)[i]) && sliceSizes[i] > (*op)[i]))
      return emitError() << "slice size " << sliceSizes[i] << " of dimension "
                         << i << " is out of range for operand size "
                         << str((*op)[i]);
  if (failed(checkSortedDimList(emitError, "collapsed_slice_dims",
                                collapsedDims, rank)) ||
      failed(checkSortedDimList(emitError, "operand_batching_dims",
                                operandBatchingDims, rank)) ||
      failed(checkDisjoint(emitError, "collapsed_slice_dims", collapsedDims,
                           "operand_batching_dims", operandBatchingDims)) ||
      failed(checkDimList(emitError, "start_index_map", startIndexMap, rank)) ||
      failed(checkDisjoint(emitError, "start_index_map", startIndexMap,
                           "operand_batching_dims", operandBatchingDims)))
    return failure();
  for (int64_t d : collapsedDims)
    if (sliceSizes[d] > 1)
      return emitError() << "collapsed dimension " << d
                         << " must have slice size 0 or 1, got "
                         << sliceSizes[d];
  for (int64_t d : operandBatchingDims)
    if (sliceSizes[d] > 1)
      return emitError() << "operand batching dimension " << d
                         << " must have slice size 0 or 1, got "
                         << sliceSizes[d];
  if (indexVectorDim < 0 || indexVectorDim > idxRank)
    return emitError() << "index_vector_dim " << indexVectorDim
                       << " is out of range for start_indices of rank "
                       << idxRank;
  int64_t indexVectorSize =
      indexVectorDim == idxRank ? 1 : (*idx)[indexVectorDim];
  if (!dimsCompatible(indexVectorSize, startIndexMap.size()))
    return emitError() << "start_index_map has " << startIndexMap.size()
                       << " entries but the index vector (dimension "
                       << indexVectorDim << " of start_indices) has "
                       << indexVectorSize;
  if (failed(checkBatchingDims(emitError, *op, "operand_batching_dims",
                               operandBatchingDims, *idx, "start_indices",
                               indicesBatchingDims, indexVectorDim)))
    return failure();
  int64_t batchRank = idxRank - (indexVectorDim < idxRank ? 1 : 0);
  int64_t expectedRank = batchRank + offsetDims.size();
  int64_t kept = rank - collapsedDims.size() - operandBatchingDims.size();
  if (int64_t(offsetDims.size()) != kept)
    return emitError() << "offset_dims has " << offsetDims.size()
                       << " entries but " << kept
                       << " operand dimensions are neither collapsed nor "
                          "batching";
  if (failed(checkSortedDimList(emitError, "offset_dims", offsetDims,
                                expectedRank)))
    return failure();
  // Offset dims take the slice sizes of the kept operand dimensions in order;
  // the other result dims are the batch dims of start_indices in order.
  SmallVector<int64_t> keptSizes, batch;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(collapsedDims, d) &&
        !llvm::is_contained(operandBatchingDims, d))
      keptSizes.push_back(sliceSizes[d]);
  for (int64_t d = 0; d < idxRank; ++d)
    if (d != indexVectorDim)
      batch.push_back((*idx)[d]);
  SmallVector<int64_t> out;
  size_t nextOffset = 0, nextBatch = 0;
  for (int64_t d = 0; d < expectedRank; ++d)
    out.push_back(llvm::is_contained(offsetDims, d) ? keptSizes[nextOffset++]
                                                    : batch[nextBatch++]);
  return Type(RankedTensorType::get(out, elementType(operand)));
}

FailureOr<Type> mlir::hlo::inferScatter(
    EmitErrorFn emitError, TypeRange operands, Type indices, TypeRange updates,
    ArrayRef<int64_t> updateWindowDims, ArrayRef<int64_t> insertedWindowDims,
    ArrayRef<int64_t> scatterDimsToOperandDims, int64_t indexVectorDim,
    ArrayRef<int64_t> inputBatchingDims,
    ArrayRef<int64_t> indicesBatchingDims) {
  if (operands.empty() || operands.size() != updates.size())
    return emitError() << "needs N operands and N updates, got "
                       << operands.size() << " and " << updates.size();
  auto op = getDims(operands[0], emitError, "operand");
  if (failed(op))
    return failure();
  auto idx = getDims(indices, emitError, "scatter_indices");
  if (failed(idx))
    return failure();
  if (failed(verifyElementKind(emitError, "scatter_indices", indices,
                               kIntegralKind)))
    return failure();
  auto up = getDims(updates[0], emitError, "update");
  if (failed(up))
    return failure();
  for (size_t i = 0; i < operands.size(); ++i) {
    if (failed(getDims(operands[i], emitError, "operand")) ||
        failed(getDims(updates[i], emitError, "update")))
      return failure();
    if (!shapesCompatible(operands[i], operands[0]))
      return emitError() << "operand " << i << " dimensions differ from "
                         << "operand 0's";
    if (!shapesCompatible(updates[i], updates[0]))
      return emitError() << "update " << i << " dimensions differ from "
                         << "update 0's";
    if (!typesCompatibleIgnoringFpPrecision(scalarOf(updates[i]),
                                            scalarOf(operands[i])))
      return emitError() << "update " << i << " element type "
                         << elementType(updates[i]) << " differs from operand "
                         << i << "'s " << elementType(operands[i]);
  }
  int64_t rank = op->size();
  int64_t idxRank = idx->size();
  int64_t upRank = up->size();
  if (indexVectorDim < 0 || indexVectorDim > idxRank)
    return emitError() << "index_vector_dim " << indexVectorDim
                       << " is out of range for scatter_indices of rank "
                       << idxRank;
  if (failed(checkSortedDimList(emitError, "update_window_dims",
                                updateWindowDims, upRank)) ||
      failed(checkSortedDimList(emitError, "inserted_window_dims",
                                insertedWindowDims, rank)) ||
      failed(checkSortedDimList(emitError, "input_batching_dims",
                                inputBatchingDims, rank)) ||
      failed(checkDisjoint(emitError, "inserted_window_dims",
                           insertedWindowDims, "input_batching_dims",
                           inputBatchingDims)))
    return failure();
  int64_t windowSize = updateWindowDims.size() + insertedWindowDims.size() +
                       inputBatchingDims.size();
  if (windowSize != rank)
    return emitError() << "update_window_dims (" << updateWindowDims.size()
                       << "), inserted_window_dims ("
                       << insertedWindowDims.size()
                       << ") and input_batching_dims ("
                       << inputBatchingDims.size()
                       << ") must add up to the operand rank " << rank;
  int64_t indexVectorSize =
      indexVectorDim == idxRank ? 1 : (*idx)[indexVectorDim];
  if (!dimsCompatible(indexVectorSize, scatterDimsToOperandDims.size()))
    return emitError() << "scatter_dims_to_operand_dims has "
                       << scatterDimsToOperandDims.size()
                       << " entries but the index vector (dimension "
                       << indexVectorDim << " of scatter_indices) has "
                       << indexVectorSize;
  if (failed(checkDimList(emitError, "scatter_dims_to_operand_dims",
                          scatterDimsToOperandDims, rank)) ||
      failed(checkDisjoint(emitError, "scatter_dims_to_operand_dims",
                           scatterDimsToOperandDims, "input_batching_dims",
                           inputBatchingDims)))
    return failure();
  if (failed(checkBatchingDims(emitError, *op, "input_batching_dims",
                               inputBatchingDims, *idx, "scatter_indices",
                               indicesBatchingDims, indexVectorDim)))
    return failure();
  int64_t scatterRank = idxRank - (indexVectorDim < idxRank ? 1 : 0);
  int64_t expectedUpRank = updateWindowDims.size() + scatterRank;
  if (upRank != expectedUpRank)
    return emitError() << "updates have rank " << upRank << " but should have "
                       << expectedUpRank << " (" << updateWindowDims.size()
                       << " update_window_dims + " << scatterRank
                       << " scatter dimensions)";
  // Window dims of the update are bounded by the operand dims that are
  // neither inserted nor batching, in order.
  SmallVector<int64_t> windowOperandDims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(insertedWindowDims, d) &&
        !llvm::is_contained(inputBatchingDims, d))
      windowOperandDims.push_back(d);
  for (auto [u, o] : llvm::zip(updateWindowDims, windowOperandDims)) {
    int64_t us = (*up)[u], os = (*op)[o];
    if (!ShapedType::isDynamic(us) && !ShapedType::isDynamic(os) && us > os)
      return emitError() << "update window dimension " << u << " (size " << us
                         << ") exceeds operand dimension " << o << " (size "
                         << os << ")";
  }
  // The other update dims are the scatter dims of the indices, in order.
  SmallVector<int64_t> scatterDims;
  for (int64_t d = 0; d < idxRank; ++d)
    if (d != indexVectorDim)
      scatterDims.push_back(d);
  size_t next = 0;
  for (int64_t u = 0; u < upRank; ++u) {
    if (llvm::is_contained(updateWindowDims, u))
      continue;
    int64_t i = scatterDims[next++];
    if (!dimsCompatible((*up)[u], (*idx)[i]))
      return emitError() << "update scatter dimension " << u << " (size "
                         << str((*up)[u])
                         << ") differs from scatter_indices dimension " << i
                         << " (size " << str((*idx)[i]) << ")";
  }
  return packTuple(indices.getContext(), operands);
}

FailureOr<Type> mlir::hlo::inferSort(EmitErrorFn emitError, TypeRange operands,
                                     ArrayRef<int64_t> dims) {
  if (operands.empty())
    return emitError() << "needs at least one operand";
  auto first = getDims(operands[0], emitError, "operand");
  if (failed(first))
    return failure();
  for (auto [i, t] : llvm::enumerate(operands)) {
    auto d = getDims(t, emitError, "operand");
    if (failed(d))
      return failure();
    if (!shapesCompatible(t, operands[0]))
      return emitError() << "operand " << i << " dimensions " << str(*d)
                         << " differ from operand 0's " << str(*first);
  }
  if (failed(checkSingleDim(emitError, dims, first->size())))
    return failure();
  return packTuple(operands[0].getContext(), operands);
}
