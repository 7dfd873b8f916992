//===- DotDimensionMerger.cpp - one batch dimension per dot ---------------===//
//
// XLA's DotDimensionMerger, which XLA-GPU runs first after layout
// assignment (its NVPTX "post-layout_assignment part 1" pipeline): a dot
// with two or more batch dimensions that are consecutive numbers, in
// increasing order, on both sides, and consecutive in each operand's
// layout, gets them merged into the first one by reshapes of its operands
// (the others deleted from the shape and the layout); the dot of the
// merged operands has one batch dimension, its contracting dimensions
// renumbered, and a reshape gives back the original result, which keeps
// the dot's name. The GEMM rewriter and the emitters then see one batch
// dimension (XLA: `f32[2,4,16,8]` batch {0,1} becomes `f32[8,16,8]` batch
// {0}); the reshapes are bitcasts once the reshape decomposer has run.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "LayoutUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLODOTDIMENSIONMERGER
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// True if `dims` is d, d + 1, d + 2, ...
static bool isIncreasingRun(ArrayRef<int64_t> dims) {
  for (size_t i = 1; i < dims.size(); ++i)
    if (dims[i] != dims[i - 1] + 1)
      return false;
  return true;
}

/// XLA's LayoutUtil::AreDimensionsConsecutive: `dims` sit next to each
/// other (in any order) in the minor-to-major order of `type`.
static bool consecutiveInLayout(Type type, ArrayRef<int64_t> dims) {
  SmallVector<int64_t> m2m = getMinorToMajor(type), positions;
  for (int64_t d : dims)
    positions.push_back(llvm::find(m2m, d) - m2m.begin());
  llvm::sort(positions);
  return isIncreasingRun(positions);
}

static bool isMergeable(DotOp dot) {
  ArrayRef<int64_t> lhsBatch = orEmpty(dot.getLhsBatchDims());
  ArrayRef<int64_t> rhsBatch = orEmpty(dot.getRhsBatchDims());
  return lhsBatch.size() >= 2 && isIncreasingRun(lhsBatch) &&
         isIncreasingRun(rhsBatch) && isDenseStaticDot(dot) &&
         hasPlainLayout(dot.getLhs().getType()) &&
         hasPlainLayout(dot.getRhs().getType()) &&
         hasPlainLayout(dot.getType()) &&
         consecutiveInLayout(dot.getLhs().getType(), lhsBatch) &&
         consecutiveInLayout(dot.getRhs().getType(), rhsBatch) &&
         !hasControlPredecessors(dot) && !isControlPredecessor(dot);
}

/// `type` with dimensions first + 1 .. first + count - 1 merged into
/// dimension `first` (deleted from the shape and the layout).
static Type mergedType(Type type, int64_t first, int64_t count) {
  auto array = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(array.getShape()), deleted;
  for (int64_t i = 1; i < count; ++i) {
    shape[first] *= shape[first + 1];
    shape.erase(shape.begin() + first + 1);
    deleted.push_back(first + i);
  }
  return withMinorToMajor(withShapeOf(array, shape),
                          deleteDimensions(getMinorToMajor(array), deleted));
}

/// `dims` with those past `first` moved down by `shift`.
static SmallVector<int64_t> shifted(ArrayRef<int64_t> dims, int64_t first,
                                    int64_t shift) {
  SmallVector<int64_t> out;
  for (int64_t d : dims)
    out.push_back(d > first ? d - shift : d);
  return out;
}

static void merge(DotOp dot) {
  ArrayRef<int64_t> lhsBatch = *dot.getLhsBatchDims();
  ArrayRef<int64_t> rhsBatch = *dot.getRhsBatchDims();
  int64_t count = lhsBatch.size();
  int64_t lhsFirst = lhsBatch.front(), rhsFirst = rhsBatch.front();

  OpBuilder b(dot);
  Location loc = derivedLoc(dot.getLoc());
  auto reshape = [&](Value v, Type type) {
    return createInstruction(b, loc, ReshapeOp::getOperationName(), type, {v})
        ->getResult(0);
  };
  Value lhs = reshape(dot.getLhs(),
                      mergedType(dot.getLhs().getType(), lhsFirst, count));
  Value rhs = reshape(dot.getRhs(),
                      mergedType(dot.getRhs().getType(), rhsFirst, count));

  auto merged = cast<DotOp>(b.clone(*dot));
  merged->setLoc(loc);
  merged.getLhsMutable().assign(lhs);
  merged.getRhsMutable().assign(rhs);
  merged.getResult().setType(mergedType(dot.getType(), 0, count));
  merged.setLhsBatchDims(ArrayRef<int64_t>{lhsFirst});
  merged.setRhsBatchDims(ArrayRef<int64_t>{rhsFirst});
  merged.setLhsContractingDims(
      shifted(orEmpty(dot.getLhsContractingDims()), lhsFirst, count - 1));
  merged.setRhsContractingDims(
      shifted(orEmpty(dot.getRhsContractingDims()), rhsFirst, count - 1));

  replaceByNamed(dot, reshape(merged.getResult(), dot.getType()));
}

namespace {
struct DotDimensionMergerPass
    : ChangeReportingPass<DotDimensionMergerPass,
                          hlo::impl::HloDotDimensionMergerBase> {
  void run() {
    SmallVector<DotOp> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](DotOp dot) {
        if (isMergeable(dot))
          worklist.push_back(dot);
      });
    for (DotOp dot : worklist) {
      merge(dot);
      ++numMerged;
      changed = true;
    }
  }
};
} // namespace
