//===- TransposeDimensionGrouper.cpp - merge dims a transpose keeps -------===//
//
// XLA's TransposeDimensionGrouper (gpu/transforms/transpose_dimension_grouper):
// after layout normalization, a transpose is rewritten on its smallest
// logical shape: size-1 dimensions dropped and each run of operand
// dimensions that stays adjacent and in order in the result merged into
// one, so that the transpose emitter sees (usually) a rank-2 or rank-3
// transpose. Bitcasts (reshapes in the default layout) connect the shapes.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "LayoutUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/Builders.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOTRANSPOSEDIMENSIONGROUPER
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

bool defaultStatic(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  return rt && rt.hasStaticShape() && hasPlainLayout(t) &&
         isDefaultMinorToMajor(getMinorToMajor(rt));
}

struct TransposeDimensionGrouperPass
    : ChangeReportingPass<TransposeDimensionGrouperPass,
                          hlo::impl::HloTransposeDimensionGrouperBase> {
  void run() {
    SmallVector<TransposeOp> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](TransposeOp op) { worklist.push_back(op); });
    for (TransposeOp op : worklist)
      rewrite(op);
  }

  void rewrite(TransposeOp op) {
    Value operand = op.getOperand();
    if (!defaultStatic(operand.getType()) || !defaultStatic(op.getType()) ||
        hasControlPredecessors(op) || isControlPredecessor(op))
      return;
    auto in = cast<RankedTensorType>(operand.getType());
    ArrayRef<int64_t> shape = in.getShape();
    ArrayRef<int64_t> perm = op.getDimensions();
    int64_t rank = shape.size();

    // Result order of the operand dimensions that are not of size 1.
    SmallVector<int64_t> order;
    for (int64_t d : perm)
      if (shape[d] != 1)
        order.push_back(d);
    // Runs of consecutive operand dimensions, in result order.
    SmallVector<std::pair<int64_t, int64_t>> runs; // first, last
    for (int64_t d : order) {
      if (!runs.empty() && nextKept(shape, runs.back().second) == d)
        runs.back().second = d;
      else
        runs.push_back({d, d});
    }
    if (int64_t(runs.size()) == rank)
      return;

    SmallVector<size_t> byOperand(runs.size());
    for (size_t i = 0; i < runs.size(); ++i)
      byOperand[i] = i;
    llvm::sort(byOperand, [&](size_t a, size_t b) {
      return runs[a].first < runs[b].first;
    });
    auto size = [&](std::pair<int64_t, int64_t> run) {
      int64_t n = 1;
      for (int64_t d = run.first; d <= run.second; ++d)
        n *= shape[d];
      return n;
    };
    SmallVector<int64_t> inShape, outShape, newPerm(runs.size());
    for (auto [pos, i] : llvm::enumerate(byOperand)) {
      inShape.push_back(size(runs[i]));
      newPerm[i] = pos;
    }
    for (auto run : runs)
      outShape.push_back(size(run));

    OpBuilder b(op);
    Location loc = op.getLoc();
    Type element = in.getElementType();
    auto typed = [&](ArrayRef<int64_t> dims) {
      return withMinorToMajor(RankedTensorType::get(dims, element),
                              defaultMinorToMajor(dims.size()));
    };
    Value result;
    bool identity = llvm::all_of(llvm::enumerate(newPerm), [](auto p) {
      return int64_t(p.index()) == p.value();
    });
    if (identity) {
      result = createBitcast(b, loc, operand, op.getType());
      if (result != operand) {
        transferInstructionAttrs(op, result.getDefiningOp());
        result.getDefiningOp()->setLoc(op.getLoc());
      }
    } else {
      Value x = createBitcast(b, loc, operand, typed(inShape));
      Value t = createTranspose(b, loc, x, newPerm, typed(outShape));
      transferInstructionAttrs(op, t.getDefiningOp());
      t.getDefiningOp()->setLoc(op.getLoc());
      result = createBitcast(b, loc, t, op.getType());
    }
    op.getResult().replaceAllUsesWith(result);
    op.erase();
    ++numRewritten;
    changed = true;
  }

  /// The next operand dimension after `d` that is not of size 1.
  static int64_t nextKept(ArrayRef<int64_t> shape, int64_t d) {
    for (int64_t e = d + 1; e < int64_t(shape.size()); ++e)
      if (shape[e] != 1)
        return e;
    return -1;
  }
};
} // namespace
