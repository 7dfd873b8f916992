//===- GatherScatter.cpp - gather and scatter -----------------------------===//
//
// gather and scatter with index_vector_dim (== rank of the indices for an
// implicit trailing vector of size 1), collapsed / inserted window dims and
// batching dims.
//
// gather clamps each start index so that the slice fits in the operand.
// scatter skips an update window whose start is out of bounds (start < 0
// or start + window size > dimension), as XLA's compiled scatter does; the
// combiner runs on the updates in row-major order of the update index.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;

/// 0..rank-1 without the dims in `skip1` and `skip2`, ascending.
static SmallVector<int64_t> dimsExcept(int64_t rank, ArrayRef<int64_t> skip1,
                                       ArrayRef<int64_t> skip2 = {}) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(skip1, d) && !llvm::is_contained(skip2, d))
      dims.push_back(d);
  return dims;
}

/// Reads the index vector at batch position `pos` (indices dims except the
/// index vector dim already set) into `out[map[i]]`.
static void readIndexVector(const Literal &indices, SmallVector<int64_t> &pos,
                            int64_t indexVectorDim, ArrayRef<int64_t> map,
                            SmallVector<int64_t> &out) {
  bool implicit = indexVectorDim >= indices.getRank();
  for (auto [i, d] : llvm::enumerate(map)) {
    if (!implicit)
      pos[indexVectorDim] = i;
    out[d] = indexValue(indices, indices.linearize(pos));
  }
}

static FailureOr<Literal> gather(Interp &interp, GatherOp op,
                                 const Literal &operand,
                                 const Literal &indices) {
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  Literal &out = *result;
  ArrayRef<int64_t> offsetDims = op.getOffsetDims();
  ArrayRef<int64_t> startIndexMap = op.getStartIndexMap();
  ArrayRef<int64_t> sliceSizes = op.getSliceSizes();
  ArrayRef<int64_t> operandBatching = orEmpty(op.getOperandBatchingDims());
  ArrayRef<int64_t> indicesBatching = orEmpty(op.getStartIndicesBatchingDims());
  int64_t ivd = op.getIndexVectorDim();
  SmallVector<int64_t> batchDims = dimsExcept(out.getRank(), offsetDims);
  SmallVector<int64_t> windowDims = dimsExcept(
      operand.getRank(), op.getCollapsedSliceDims(), operandBatching);
  SmallVector<int64_t> indexDims = dimsExcept(indices.getRank(), {ivd});
  if (indexDims.size() != batchDims.size() ||
      windowDims.size() != offsetDims.size())
    return interp.error(op, "dimension numbers do not fit the shapes");

  SmallVector<int64_t> o(out.getRank(), 0), pos(indices.getRank(), 0),
      start(operand.getRank(), 0), src(operand.getRank(), 0);
  for (int64_t linear = 0, n = out.getNumElements(); linear < n; ++linear) {
    for (auto [k, d] : llvm::enumerate(indexDims))
      pos[d] = o[batchDims[k]];
    std::fill(start.begin(), start.end(), 0);
    readIndexVector(indices, pos, ivd, startIndexMap, start);
    for (int64_t d : startIndexMap) {
      int64_t hi = operand.getShape()[d] - sliceSizes[d];
      start[d] = std::max<int64_t>(0, std::min(start[d], hi));
    }
    for (auto [ob, ib] : llvm::zip(operandBatching, indicesBatching))
      start[ob] = pos[ib];
    src = start;
    for (auto [k, d] : llvm::enumerate(windowDims))
      src[d] += o[offsetDims[k]];
    out.copyElement(linear, operand, operand.linearize(src));
    nextIndex(o, out.getShape());
  }
  return std::move(out);
}

static FailureOr<Literal> scatter(Interp &interp, ScatterOp op,
                                  Operands operands) {
  size_t n = operands.size() / 2;
  Operands inputs = operands.take_front(n);
  const Literal &indices = *operands[n];
  Operands updates = operands.drop_front(n + 1);
  std::vector<Literal> results;
  for (const Literal *in : inputs)
    results.push_back(*in);
  auto combiner = ScalarFunction::get(interp, op, op.getToApply());
  if (failed(combiner))
    return failure();

  const Literal &operand = *inputs[0];
  const Literal &update = *updates[0];
  ArrayRef<int64_t> windowDimsOfUpdate = op.getUpdateWindowDims();
  ArrayRef<int64_t> inputBatching = orEmpty(op.getInputBatchingDims());
  ArrayRef<int64_t> indicesBatching =
      orEmpty(op.getScatterIndicesBatchingDims());
  int64_t ivd = op.getIndexVectorDim();
  SmallVector<int64_t> scatterDims =
      dimsExcept(update.getRank(), windowDimsOfUpdate);
  SmallVector<int64_t> windowDims =
      dimsExcept(operand.getRank(), op.getInsertedWindowDims(), inputBatching);
  SmallVector<int64_t> indexDims = dimsExcept(indices.getRank(), {ivd});
  if (indexDims.size() != scatterDims.size() ||
      windowDims.size() != windowDimsOfUpdate.size())
    return interp.error(op, "dimension numbers do not fit the shapes");
  // The extent of the update window in each operand dimension.
  SmallVector<int64_t> windowSize(operand.getRank(), 1);
  for (auto [k, d] : llvm::enumerate(windowDims))
    windowSize[d] = update.getShape()[windowDimsOfUpdate[k]];

  Fold fold(*combiner, results, updates);

  SmallVector<int64_t> u(update.getRank(), 0), pos(indices.getRank(), 0),
      start(operand.getRank(), 0), dst(operand.getRank(), 0);
  for (int64_t linear = 0, e = update.getNumElements(); linear < e;
       ++linear, nextIndex(u, update.getShape())) {
    for (auto [k, d] : llvm::enumerate(indexDims))
      pos[d] = u[scatterDims[k]];
    std::fill(start.begin(), start.end(), 0);
    readIndexVector(indices, pos, ivd, op.getScatterDimsToOperandDims(), start);
    for (auto [ib, sb] : llvm::zip(inputBatching, indicesBatching))
      start[ib] = pos[sb];
    bool inBounds = true;
    for (int64_t d = 0; d < operand.getRank(); ++d)
      inBounds &=
          start[d] >= 0 && start[d] <= operand.getShape()[d] - windowSize[d];
    if (!inBounds)
      continue;
    dst = start;
    for (auto [k, d] : llvm::enumerate(windowDims))
      dst[d] += u[windowDimsOfUpdate[k]];
    if (failed(fold(operand.linearize(dst), linear)))
      return failure();
  }
  if (n == 1)
    return std::move(results[0]);
  return Literal::tuple(std::move(results));
}

EvalResult eval::evalIndexingOp(Interp &interp, Operation *op,
                                Operands operands) {
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case([&](GatherOp g) {
        return gather(interp, g, *operands[0], *operands[1]);
      })
      .Case([&](ScatterOp s) { return scatter(interp, s, operands); })
      .Default([](Operation *) -> EvalResult { return std::nullopt; });
}
