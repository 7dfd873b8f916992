//===- DotNormalizer.cpp - a contracting dimension for every dot ----------===//
//
// XLA-GPU's DotNormalizer (after layout assignment): a dot without
// contracting dimensions (an outer product, batched or not) gets one of
// size 1 on each side, a new most-minor dimension added by a bitcast, so
// that the GEMM rewriter and the emitters, which expect a contraction,
// take it. The product is the same: a sum over one term.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "LayoutUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLODOTNORMALIZER
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// `v` with a trailing dimension of size 1 that is its most minor one.
static Value withUnitMinorDim(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape.push_back(1);
  SmallVector<int64_t> m2m = {type.getRank()};
  llvm::append_range(m2m, getMinorToMajor(type));
  return createBitcast(b, loc, v,
                       withMinorToMajor(withShapeOf(type, shape), m2m));
}

static bool isNormalizable(DotOp dot) {
  return orEmpty(dot.getLhsContractingDims()).empty() &&
         orEmpty(dot.getRhsContractingDims()).empty() &&
         isDenseStaticDot(dot) && hasPlainLayout(dot.getLhs().getType()) &&
         hasPlainLayout(dot.getRhs().getType());
}

namespace {
struct DotNormalizerPass
    : ChangeReportingPass<DotNormalizerPass, hlo::impl::HloDotNormalizerBase> {
  void run() {
    SmallVector<DotOp> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](DotOp dot) {
        if (isNormalizable(dot))
          worklist.push_back(dot);
      });
    for (DotOp dot : worklist) {
      OpBuilder b(dot);
      Location loc = derivedLoc(dot.getLoc());
      Value lhs = withUnitMinorDim(b, loc, dot.getLhs());
      Value rhs = withUnitMinorDim(b, loc, dot.getRhs());
      dot.getLhsMutable().assign(lhs);
      dot.getRhsMutable().assign(rhs);
      dot.setLhsContractingDims(ArrayRef<int64_t>{
          cast<RankedTensorType>(lhs.getType()).getRank() - 1});
      dot.setRhsContractingDims(ArrayRef<int64_t>{
          cast<RankedTensorType>(rhs.getType()).getRank() - 1});
      ++numNormalized;
      changed = true;
    }
  }
};
} // namespace
