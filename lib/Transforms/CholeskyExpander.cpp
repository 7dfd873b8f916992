//===- CholeskyExpander.cpp - cholesky as blocked HLO loops ---------------===//
//
// XLA's CholeskyExpander, which XLA-GPU 0.10.2 runs in "optimization" after
// its select-and-scatter expander: every `cholesky` becomes HLO. On the
// lower form (an upper cholesky factors the conjugate transpose of its
// operand and transposes the factor back), blocks of `block-size` columns
// from the left, block i of k columns:
//
//   panel  = a[i:, i:i+k] - l[i:, :i] l[i:i+k, :i]^H
//   l[i:i+k, i:i+k] = unblocked(panel[:k])
//   l[i+k:, i:i+k]  = panel[k:] l[i:i+k, i:i+k]^-H     (triangular-solve)
//
// `unblocked` is a counted while loop over the block's columns j:
//
//   t = x[:, j] - l l[j, :]^H        (l's columns from j on are still zero)
//   l[j, j] = sqrt(re t[j]);  l[j+1:, j] = t[j+1:] / l[j, j]
//
// on whole blocks under masks of the row and column iotas. A matrix whose
// pivot re t[j] is not positive (or NaN) is not positive definite: its
// whole factor is NaN, and the triangle the factor does not use is zero,
// as the interpreter, LAPACK's potrf and cuSOLVER say. XLA flags only a NaN
// square root there, and its loop step multiplies the whole block by
// itself (l l^H) where this one takes one row (a matrix-vector dot).
//
// The project's own GPU pipeline leaves cholesky to cuSOLVER
// (hlo-gpusolver-rewriter) unless `hlo-gpu-pipeline{expand-cholesky}`
// asks for XLA's expansion. Local to each cholesky: linear.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "MatrixBuilder.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "llvm/ADT/APFloat.h"

#include <complex>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCHOLESKYEXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The unblocked factor of the k x k blocks `x` (lower triangle read) and
/// whether each matrix failed ([batch] pred).
static std::pair<Value, Value> factorBlock(InstBuilder &ib,
                                           SymbolTable &symbols,
                                           ComputationOp parent,
                                           const MatrixBatch &s, Value x) {
  MatrixBatch blockBatch = s;
  blockBatch.m = blockBatch.n = tensorType(x).getShape().back();
  const MatrixBatch &bs = blockBatch;
  int64_t k = bs.n;
  Type pred = ib.getBuilder().getI1Type();
  SmallVector<Value> init = {x, ib.splat(s.element, 0, s.shape({k, k})),
                             ib.splat(pred, 0, s.batch)};
  auto body = [&](InstBuilder &bb, Value j,
                  ValueRange state) -> SmallVector<Value> {
    MatrixBuilder mb(bb, bs);
    Value blockIn = state[0], l = state[1], failed = state[2];
    Value t = mb.binary<SubtractOp>(mb.column(blockIn, j),
                                    mb.dotLast(l, mb.conj(mb.row(l, j))));
    Value pivot = mb.at(t, j);
    if (mb.isComplex())
      pivot = mb.re(pivot);
    Value zero = bb.splat(s.real, 0, s.batch);
    Value positive = bb.compare(pivot, zero, ComparisonDirection::GT);
    Value diagonal = mb.fromReal(mb.unary<SqrtOp>(pivot));
    Value rows = mb.iota({k}, 0), jk = mb.splatScalar(j, {k});
    Value column =
        mb.select(bb.compare(rows, jk, ComparisonDirection::GT),
                  mb.binary<DivOp>(t, mb.broadcast(diagonal, {k}, {})),
                  mb.select(bb.compare(rows, jk, ComparisonDirection::EQ),
                            mb.broadcast(diagonal, {k}, {}), mb.splat(0, {k})));
    Value columns = mb.iota({k, k}, 1);
    Value next = mb.select(
        bb.compare(columns, mb.splatScalar(j, {k, k}), ComparisonDirection::EQ),
        mb.broadcast(column, {k, k}, {0}), l);
    Value nowFailed = mb.binary<OrOp>(failed, mb.unary<NotOp>(positive));
    return {blockIn, next, nowFailed};
  };
  SmallVector<Value> after =
      buildCountedLoop(ib, symbols, parent, "cholesky", k, init, body, 3);
  return {after[1], after[2]};
}

/// A NaN of `element` (a float or complex type), broadcast to `shape`.
static Value nanArray(InstBuilder &ib, Type element, ArrayRef<int64_t> shape) {
  OpBuilder &b = ib.getBuilder();
  auto scalar = RankedTensorType::get({}, element);
  DenseElementsAttr value;
  if (auto complex = dyn_cast<ComplexType>(element)) {
    auto part = cast<FloatType>(complex.getElementType());
    APFloat nan = APFloat::getNaN(part.getFloatSemantics());
    value = DenseElementsAttr::get(
        scalar, ArrayRef<std::complex<APFloat>>{std::complex<APFloat>(
                    nan, APFloat::getZero(part.getFloatSemantics()))});
  } else {
    auto ft = cast<FloatType>(element);
    value = DenseElementsAttr::get(
        scalar, FloatAttr::get(ft, APFloat::getNaN(ft.getFloatSemantics())));
  }
  Value nan =
      ib.create<ConstantOp>(scalar, {}, {b.getNamedAttr("value", value)});
  return ib.create<BroadcastOp>(
      RankedTensorType::get(shape, element), nan,
      {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({}))});
}

static Value expandCholesky(CholeskyOp op, const MatrixBatch &s,
                            int64_t blockSize, SymbolTable &symbols) {
  OpBuilder b(op);
  InstBuilder ib(b, derivedLoc(op.getLoc()));
  MatrixBuilder mb(ib, s);
  auto parent = op->getParentOfType<ComputationOp>();
  int64_t n = s.n;
  // The loops' matrices have no layout: a laid-out operand is copied in,
  // the result copied out.
  Value a = op.getOperand();
  auto plain = RankedTensorType::get(s.shape({n, n}), s.element);
  if (a.getType() != plain)
    a = ib.create<CopyOp>(plain, a);
  bool lower = op.getLower().value_or(false);
  if (!lower)
    a = mb.adjoint(a);
  Value l = mb.splat(0, {n, n});
  Value failed;
  for (int64_t i = 0; i < n; i += blockSize) {
    int64_t k = std::min(blockSize, n - i);
    Value panel = mb.block(a, i, n, i, i + k);
    if (i > 0) {
      Value left = mb.block(l, i, n, 0, i), top = mb.block(l, i, i + k, 0, i);
      panel = mb.binary<SubtractOp>(panel, mb.dotLast(left, mb.conj(top)));
    }
    auto [factor, blockFailed] =
        factorBlock(ib, symbols, parent, s, mb.block(panel, 0, k, 0, k));
    failed = failed ? mb.binary<OrOp>(failed, blockFailed) : blockFailed;
    l = mb.setBlock(l, factor, i, i);
    if (i + k == n)
      break;
    // x factor^H = panel[k:]: the columns of l below the block.
    Value below = ib.create<TriangularSolveOp>(
        mb.type({n - i - k, k}, s.element),
        {factor, mb.block(panel, k, n - i, 0, k)},
        {b.getNamedAttr("left_side", b.getBoolAttr(false)),
         b.getNamedAttr("lower", b.getBoolAttr(true)),
         b.getNamedAttr("unit_diagonal", b.getBoolAttr(false)),
         b.getNamedAttr(
             "transpose_a",
             TransposeAttr::get(b.getContext(), Transpose::ADJOINT))});
    l = mb.setBlock(l, below, i + k, i);
  }
  Value result = mb.select(mb.broadcast(failed, {n, n}, {}),
                           nanArray(ib, s.element, s.shape({n, n})), l);
  if (!lower)
    result = mb.adjoint(result);
  if (result.getType() != op.getType())
    result = ib.create<CopyOp>(op.getType(), result);
  return result;
}

namespace {
struct CholeskyExpanderPass
    : ChangeReportingPass<CholeskyExpanderPass,
                          hlo::impl::HloCholeskyExpanderBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    if (blockSize < 1) {
      getOperation().emitError("hlo-cholesky-expander: block-size must be "
                               "at least 1");
      return signalPassFailure();
    }
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<std::pair<CholeskyOp, MatrixBatch>> ops;
    for (ComputationOp comp : nonFusionComputations(module))
      comp.walk([&](CholeskyOp op) {
        std::optional<MatrixBatch> s = MatrixBatch::read(op.getType());
        if (s && s->m == s->n && s->n > 0 && s->n <= INT32_MAX &&
            !hasControlPredecessors(op) && !isControlPredecessor(op))
          ops.push_back({op, std::move(*s)});
      });
    for (auto &[op, s] : ops) {
      Value result = expandCholesky(op, s, blockSize, symbols);
      transferInstructionAttrs(op, result.getDefiningOp());
      op.getResult().replaceAllUsesWith(result);
      op.erase();
      ++numExpanded;
      changed = true;
    }
  }
};
} // namespace
