//===- DotDimensionSorter.cpp - contracting dimensions in order -----------===//
//
// XLA's DotDimensionSorter (XLA-GPU's "optimization" pipeline, before the
// dot decomposer): a dot whose contracting dimensions on one side are
// consecutive numbers out of order (lhs_contracting_dims={2,1}) lists its
// (lhs, rhs) contracting pairs sorted by that side, so that side reads as
// one run of its row-major layout and no transpose is needed to make the
// operand a matrix for cuBLAS. The pairs stay pairs: the result is the
// same sum, in another order of its terms.
//
// Taken when the side to sort is consecutive and unsorted and the other
// side is not consecutive, or both are consecutive and unsorted (sorted
// by the lhs then). Operands must have row-major layouts (or none).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "LayoutUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLODOTDIMENSIONSORTER
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// XLA's DistinctNumbersAreConsecutiveIfSorted.
static bool consecutiveIfSorted(ArrayRef<int64_t> dims) {
  if (dims.empty())
    return false;
  SmallVector<int64_t> sorted(dims);
  llvm::sort(sorted);
  for (size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i] != sorted[i - 1] + 1)
      return false;
  return true;
}

/// XLA's LayoutUtil::IsMonotonicWithDim0Major: minor_to_major descending.
static bool isRowMajor(Type type) {
  SmallVector<int64_t> m2m = getMinorToMajor(type);
  for (size_t i = 0; i < m2m.size(); ++i)
    if (m2m[i] != int64_t(m2m.size() - 1 - i))
      return false;
  return true;
}

/// True if XLA sorts the contracting dimensions of `dot`; `byLhs` says by
/// which side.
static bool shouldSort(DotOp dot, bool &byLhs) {
  if (!isRowMajor(dot.getLhs().getType()) ||
      !isRowMajor(dot.getRhs().getType()) || hasControlEdges(dot))
    return false;
  ArrayRef<int64_t> lhs = orEmpty(dot.getLhsContractingDims());
  ArrayRef<int64_t> rhs = orEmpty(dot.getRhsContractingDims());
  if (lhs.empty())
    return false;
  bool consLhs = consecutiveIfSorted(lhs), consRhs = consecutiveIfSorted(rhs);
  bool sortedLhs = llvm::is_sorted(lhs), sortedRhs = llvm::is_sorted(rhs);
  byLhs = consLhs;
  return (consLhs && !sortedLhs && !consRhs) ||
         (consRhs && !sortedRhs && !consLhs) ||
         (consLhs && !sortedLhs && consRhs && !sortedRhs);
}

/// Sorts the contracting pairs of `dot` by the `byLhs` side.
static void sortPairs(DotOp dot, bool byLhs) {
  SmallVector<int64_t> lhs(orEmpty(dot.getLhsContractingDims()));
  SmallVector<int64_t> rhs(orEmpty(dot.getRhsContractingDims()));
  ArrayRef<int64_t> key = byLhs ? lhs : rhs;
  SmallVector<size_t> order = llvm::to_vector(llvm::seq<size_t>(0, lhs.size()));
  llvm::sort(order, [&](size_t a, size_t b) { return key[a] < key[b]; });
  SmallVector<int64_t> newLhs, newRhs;
  for (size_t i : order) {
    newLhs.push_back(lhs[i]);
    newRhs.push_back(rhs[i]);
  }
  dot.setLhsContractingDims(ArrayRef<int64_t>(newLhs));
  dot.setRhsContractingDims(ArrayRef<int64_t>(newRhs));
}

namespace {
struct DotDimensionSorterPass
    : ChangeReportingPass<DotDimensionSorterPass,
                          hlo::impl::HloDotDimensionSorterBase> {
  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](DotOp dot) {
        bool byLhs = true;
        if (!shouldSort(dot, byLhs))
          return;
        sortPairs(dot, byLhs);
        ++numSorted;
        changed = true;
      });
  }
};
} // namespace
