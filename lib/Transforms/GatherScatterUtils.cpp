//===- GatherScatterUtils.cpp - index arithmetic of the expanders ---------===//

#include "GatherScatterUtils.h"

using namespace mlir;
using namespace mlir::hlo;

SmallVector<int64_t> mlir::hlo::dimsExcept(int64_t rank,
                                           ArrayRef<int64_t> skip1,
                                           ArrayRef<int64_t> skip2) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(skip1, d) && !llvm::is_contained(skip2, d))
      dims.push_back(d);
  return dims;
}

int64_t mlir::hlo::indexVectorCount(ArrayRef<int64_t> indicesShape,
                                    int64_t indexVectorDim) {
  int64_t count = 1;
  for (auto [d, size] : llvm::enumerate(indicesShape))
    if (int64_t(d) != indexVectorDim)
      count *= size;
  return count;
}

Type mlir::hlo::startIndexType(Type indicesElementType) {
  if (indicesElementType.getIntOrFloatBitWidth() >= 32)
    return indicesElementType;
  return IntegerType::get(indicesElementType.getContext(), 32);
}

Value mlir::hlo::canonicalizeIndices(InstBuilder &ib, const WindowIndexing &w,
                                     Value indices) {
  int64_t rank = w.indicesShape.size();
  int64_t ivd = w.indexVectorDim;
  SmallVector<int64_t> perm = dimsExcept(rank, {ivd});
  int64_t k = 1;
  if (ivd < rank) {
    perm.push_back(ivd);
    k = w.indicesShape[ivd];
  }
  Value moved = ib.transpose(indices, perm);
  Value matrix = ib.reshape(moved, {indexVectorCount(w.indicesShape, ivd), k});
  return ib.convert(matrix, w.startType);
}

SmallVector<Value> mlir::hlo::windowStart(InstBuilder &ib,
                                          const WindowIndexing &w,
                                          Value canonicalIndices, Value iv) {
  SmallVector<Value> start(w.operandRank);
  Type ivElement = tensorType(iv).getElementType();

  // The components of the index vector, from row `iv`.
  if (!w.indexToOperandDims.empty()) {
    int64_t k = tensorType(canonicalIndices).getDimSize(1);
    Value row = ib.dynamicSlice(canonicalIndices, {iv, ib.scalar(ivElement, 0)},
                                {1, k});
    for (auto [j, d] : llvm::enumerate(w.indexToOperandDims))
      start[d] = ib.element(row, {0, int64_t(j)});
  }

  // The coordinates of `iv` along the indices' batching dimensions: the
  // iterations run row-major over the dimensions other than the index
  // vector dimension.
  SmallVector<int64_t> loopDims =
      dimsExcept(w.indicesShape.size(), {w.indexVectorDim});
  for (auto [od, id] :
       llvm::zip(w.operandBatchingDims, w.indicesBatchingDims)) {
    auto pos = llvm::find(loopDims, id) - loopDims.begin();
    int64_t stride = 1;
    for (int64_t later : ArrayRef(loopDims).drop_front(pos + 1))
      stride *= w.indicesShape[later];
    Value coord = iv;
    if (stride != 1)
      coord =
          ib.create<DivOp>(iv.getType(), {coord, ib.scalar(ivElement, stride)});
    if (pos != 0)
      coord = ib.create<RemOp>(
          iv.getType(), {coord, ib.scalar(ivElement, w.indicesShape[id])});
    start[od] = ib.convert(coord, w.startType);
  }

  for (Value &s : start)
    if (!s)
      s = ib.scalar(w.startType, 0);
  return start;
}
