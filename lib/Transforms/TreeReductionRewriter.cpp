//===- TreeReductionRewriter.cpp - large reductions as two reduces --------===//
//
// XLA's GpuTreeReductionRewriter (gpu/tree_reduction_rewriter, seed 002
// section 3.8): a reduction the reduction emitter takes but cannot run
// without atomics (ReductionIsRaceFree fails) is rewritten into two reduces
// that each fit:
//
//   - a batched row reduction f32[A, B, C] -> f32[B] with A > 8 reduces C,
//     then A;
//   - otherwise the last reduced dimension, of size n, is split into
//     [Q, M] with M = ceil(sqrt(n)) (padded with the init value to M * M,
//     or to the next multiple of M, when M does not divide n); the inner
//     reduce takes M (and the batch dimension), the outer one Q:
//
//     row:    f32[A, B, C] -> f32[A, B, P] -> f32[A, B, Q, M]
//             -> reduce {0, 3} -> f32[B, Q] -> reduce {1} -> f32[B]
//     column: f32[A, B, C] -> f32[A, P, C] -> f32[A, Q, M, C]
//             -> reduce {2} -> f32[A, Q, C] -> reduce {1} -> f32[A, C]
//
// XLA runs the pass in HloPassFix; here the new reduces are rewritten again
// in the same run while they do not fit.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "ReductionUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOGPUTREEREDUCTIONREWRITER
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// ceil(sqrt(n)) for n >= 1, exactly.
int64_t ceilSqrt(int64_t n) {
  auto r = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
  while (r > 0 && r * r >= n)
    --r;
  while (r * r < n)
    ++r;
  return r;
}

struct TreeReductionRewriterPass
    : ChangeReportingPass<TreeReductionRewriterPass,
                          hlo::impl::HloGpuTreeReductionRewriterBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    SmallVector<ReduceOp> worklist = nonFusionReduces(getOperation());
    while (!worklist.empty()) {
      ReduceOp op = worklist.pop_back_val();
      SmallVector<ReduceOp, 2> created;
      rewrite(op, created);
      llvm::append_range(worklist, created);
    }
  }

  void rewrite(ReduceOp op, SmallVectorImpl<ReduceOp> &created) {
    // Variadic reduces are left alone, as in XLA.
    if (!isPlainReduce(op) || numReducedArrays(op) != 1)
      return;
    Value input = op.getInputs()[0], init = op.getInputs()[1];
    auto inputType = cast<RankedTensorType>(input.getType());
    ArrayRef<int64_t> shape = inputType.getShape();
    int64_t rank = shape.size();
    SmallVector<int64_t> dims(op.getDimensions());
    llvm::sort(dims);
    if (dims.empty() || dims.size() > 2 ||
        !isReductionFromOrToContiguousDimensions(shape, dims))
      return;
    ReductionDimensions rd = getReductionKind(shape, dims);
    bool reduceBatch = dims.size() == 2;
    int64_t reducedDim = dims.back();
    // The shapes XLA's rewrite assumes (degenerate dimensions removed,
    // adjacent reduced dimensions grouped): a row reduction reduces the
    // last dimension and perhaps the first, a column one a single
    // dimension before the last.
    if (rd.isRowReduction) {
      if (reducedDim != rank - 1 || (reduceBatch && dims.front() != 0))
        return;
    } else if (reduceBatch || reducedDim == rank - 1) {
      return;
    }

    OpBuilder b(op);
    Location loc = derivedLoc(op.getLoc());
    Type element = inputType.getElementType();
    auto arrayOf = [&](ArrayRef<int64_t> s) {
      return RankedTensorType::get(s, element);
    };

    if (reduceBatch && shape[0] > kBatchedReductionRaceFreeBound) {
      SmallVector<int64_t> innerShape(shape.drop_back());
      Value inner = createReduce(b, loc, op, arrayOf(innerShape), {input},
                                 {init}, {reducedDim});
      Value outer =
          createReduce(b, op.getLoc(), op, op.getType(), {inner}, {init}, {0});
      replaceReduce(op, outer);
      created.push_back(cast<ReduceOp>(inner.getDefiningOp()));
      created.push_back(cast<ReduceOp>(outer.getDefiningOp()));
      ++numBatchSplits;
      changed = true;
      return;
    }
    if (reductionIsRaceFree(rd, minThreadsXRowReduction))
      return;

    int64_t n = shape[reducedDim];
    if (n > (int64_t(1) << 60)) // M * M must not overflow.
      return;
    int64_t m = ceilSqrt(n);
    int64_t padded = n % m == 0      ? n
                     : padToMultiple ? (n + m - 1) / m * m
                                     : m * m;
    Value source = input;
    if (padded != n) {
      SmallVector<int64_t> low(rank, 0), high(rank, 0), interior(rank, 0);
      high[reducedDim] = padded - n;
      SmallVector<int64_t> paddedShape(shape);
      paddedShape[reducedDim] = padded;
      source =
          createInstruction(
              b, loc, PadOp::getOperationName(), arrayOf(paddedShape),
              {input, init},
              {b.getNamedAttr("padding", PaddingAttr::get(op.getContext(), low,
                                                          high, interior))})
              ->getResult(0);
    }
    SmallVector<int64_t> split(shape);
    split[reducedDim] = padded / m;
    split.insert(split.begin() + reducedDim + 1, m);
    Value reshaped = reshapeTo(b, loc, source, split);

    // The inner reduce takes the minor part (the last dimension of a row
    // reduction), and the batch dimension; the outer one the major part.
    int64_t innerDim = rd.isRowReduction ? rank : reducedDim + 1;
    SmallVector<int64_t> innerShape(split);
    innerShape.erase(innerShape.begin() + innerDim);
    SmallVector<int64_t> innerDims = {innerDim};
    if (reduceBatch) {
      innerShape.erase(innerShape.begin());
      innerDims.push_back(0);
    }
    int64_t outerDim =
        rd.isRowReduction ? int64_t(innerShape.size()) - 1 : reducedDim;
    Value inner = createReduce(b, loc, op, arrayOf(innerShape), {reshaped},
                               {init}, innerDims);
    Value outer = createReduce(b, op.getLoc(), op, op.getType(), {inner},
                               {init}, {outerDim});
    replaceReduce(op, outer);
    created.push_back(cast<ReduceOp>(inner.getDefiningOp()));
    created.push_back(cast<ReduceOp>(outer.getDefiningOp()));
    ++numSplits;
    changed = true;
  }
};
} // namespace
