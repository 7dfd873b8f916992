//===- BroadcastCanonicalizer.cpp - broadcast dimensions in order ---------===//
//
// XLA's BroadcastCanonicalizer (XLA-GPU runs it after layout normalization,
// in its "layout normalization" and "hlo normalization" pipelines): a
// broadcast whose `dimensions` are not increasing (layout normalization
// makes such broadcasts of operands laid out differently from their
// results) becomes a broadcast with the same dimensions sorted, operand
// dimension i at the i-th smallest of them, followed by a transpose that
// moves each operand dimension to where the original put it:
//
//   broadcast(x), dimensions=D  ->  transpose(broadcast(x), dimensions=S),
//     S = sort(D), perm[D[j]] = S[j] for each operand dimension j and
//     perm[k] = k elsewhere.
//
// The new broadcast is in the default layout; the transpose takes the
// original's result type and name.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "LayoutUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOBROADCASTCANONICALIZER
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

static bool isCanonicalizable(BroadcastOp op) {
  ArrayRef<int64_t> dims = orEmpty(op.getDimensions());
  return !llvm::is_sorted(dims) && isStaticArray(op.getType()) &&
         isStaticArray(op.getOperand().getType()) &&
         hasPlainLayout(op.getType()) && !hasControlPredecessors(op) &&
         !isControlPredecessor(op);
}

static void canonicalize(BroadcastOp op) {
  auto resultType = cast<RankedTensorType>(op.getType());
  auto operandType = cast<RankedTensorType>(op.getOperand().getType());
  ArrayRef<int64_t> dims = orEmpty(op.getDimensions());
  SmallVector<int64_t> sorted(dims);
  llvm::sort(sorted);

  SmallVector<int64_t> shape(resultType.getShape());
  SmallVector<int64_t> perm =
      llvm::to_vector(llvm::seq<int64_t>(0, resultType.getRank()));
  for (auto [j, d] : llvm::enumerate(dims)) {
    shape[sorted[j]] = operandType.getDimSize(j);
    perm[d] = sorted[j];
  }

  OpBuilder b(op);
  Location loc = derivedLoc(op.getLoc());
  Type sortedType = withMinorToMajor(withShapeOf(resultType, shape),
                                     defaultMinorToMajor(resultType.getRank()));
  Value broadcast =
      createInstruction(
          b, loc, BroadcastOp::getOperationName(), sortedType,
          {op.getOperand()},
          {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(sorted))})
          ->getResult(0);
  replaceByNamed(op, createTranspose(b, loc, broadcast, perm, resultType));
}

namespace {
struct BroadcastCanonicalizerPass
    : ChangeReportingPass<BroadcastCanonicalizerPass,
                          hlo::impl::HloBroadcastCanonicalizerBase> {
  void run() {
    SmallVector<BroadcastOp> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](BroadcastOp op) {
        if (isCanonicalizable(op))
          worklist.push_back(op);
      });
    for (BroadcastOp op : worklist) {
      canonicalize(op);
      ++numCanonicalized;
      changed = true;
    }
  }
};
} // namespace
