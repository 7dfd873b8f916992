//===- RaggedDotRewriter.cpp - ragged-dot as a masked dense dot -----------===//
//
// XLA's RaggedDotRewriter (first in XLA-GPU's "optimization" pipeline):
// no emitter runs a ragged-dot, so it becomes a dot of operands given a
// group dimension whose entries outside each group are zero. Group g
// covers the indices [start_g, end_g) of the ragged dimension, end the
// inclusive prefix sum of the group sizes (a reduce-window) and start the
// exclusive one:
//
//   ragged non-contracting ([m, k] x [g, k, n] -> [m, n]): the lhs as
//     [g, m, k], row r kept in group g only; the group dimension is
//     contracted with the rhs group dimension, which picks each row's
//     matrix;
//   ragged contracting ([m, k] x [k, n] -> [g, m, n]): both operands as
//     [g, ...] with index k kept in group g only, the group dimension a
//     batch dimension of the dot;
//   ragged batch: an ordinary dot (the group sizes are not read).
//
// The group dimension goes at index rank(group_sizes) - 1, after the
// leading dimensions group sizes of rank > 1 carry (one group size list
// per batch element), as XLA.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "ReductionUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLORAGGEDDOTREWRITER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// `dims` with every index at or after `at` moved up by one (a dimension
/// inserted at `at`).
static SmallVector<int64_t> shifted(ArrayRef<int64_t> dims, int64_t at) {
  SmallVector<int64_t> out;
  for (int64_t d : dims)
    out.push_back(d >= at ? d + 1 : d);
  return out;
}

namespace {
struct RaggedDotRewriterPass
    : ChangeReportingPass<RaggedDotRewriterPass,
                          hlo::impl::HloRaggedDotRewriterBase> {
  void run() {
    adders.clear();
    SymbolTable symbols(getOperation());
    SmallVector<RaggedDotOp> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](RaggedDotOp op) { worklist.push_back(op); });
    for (RaggedDotOp op : worklist)
      if (rewrite(op, symbols)) {
        ++numRewritten;
        changed = true;
      }
  }

  bool rewrite(RaggedDotOp op, SymbolTable &symbols) {
    OperandRange inputs = op.getInputs();
    if (inputs.size() != 3 || hasControlEdges(op))
      return false;
    Value lhs = inputs[0], rhs = inputs[1], sizes = inputs[2];
    for (Value v : {lhs, rhs, sizes, op.getResult()})
      if (!isStaticArray(v.getType()))
        return false;
    ArrayRef<int64_t> ragged = orEmpty(op.getLhsRaggedDims());
    ArrayRef<int64_t> groupDims = orEmpty(op.getRhsGroupDims());
    ArrayRef<int64_t> lb = orEmpty(op.getLhsBatchDims());
    ArrayRef<int64_t> lc = orEmpty(op.getLhsContractingDims());
    ArrayRef<int64_t> rb = orEmpty(op.getRhsBatchDims());
    ArrayRef<int64_t> rc = orEmpty(op.getRhsContractingDims());
    if (ragged.size() != 1)
      return false;
    int64_t rd = ragged[0];
    int64_t at = tensorType(sizes).getRank() - 1;
    const auto *contracting = llvm::find(lc, rd);

    OpBuilder b(op);
    InstBuilder ib(b, derivedLoc(op.getLoc()));
    auto dot = [&](Value l, Value r, ArrayRef<int64_t> newLb,
                   ArrayRef<int64_t> newLc, ArrayRef<int64_t> newRb,
                   ArrayRef<int64_t> newRc) {
      SmallVector<NamedAttribute> attrs;
      auto dims = [&](StringRef name, ArrayRef<int64_t> v) {
        if (!v.empty())
          attrs.push_back(b.getNamedAttr(name, b.getDenseI64ArrayAttr(v)));
      };
      dims("lhs_batch_dims", newLb);
      dims("lhs_contracting_dims", newLc);
      dims("rhs_batch_dims", newRb);
      dims("rhs_contracting_dims", newRc);
      if (auto precision = op.getOperandPrecisionAttr())
        attrs.push_back(b.getNamedAttr("operand_precision", precision));
      if (auto algorithm = op.getAlgorithmAttr())
        attrs.push_back(b.getNamedAttr("algorithm", algorithm));
      return createInstruction(b, op.getLoc(), DotOp::getOperationName(),
                               op.getResult().getType(), {l, r}, attrs);
    };

    Operation *result = nullptr;
    if (llvm::is_contained(lb, rd)) {
      // Ragged batch: the dot itself.
      if (!groupDims.empty())
        return false;
      result = dot(lhs, rhs, lb, lc, rb, rc);
    } else if (contracting != lc.end()) {
      // Ragged contracting: the group dimension is a batch dimension.
      int64_t rhsRagged = rc[contracting - lc.begin()];
      if (!groupDims.empty() || !insertable(lhs, sizes, at, rd) ||
          !insertable(rhs, sizes, at, rhsRagged) ||
          llvm::any_of(lb, [&](int64_t d) { return d >= at; }) ||
          llvm::any_of(rb, [&](int64_t d) { return d >= at; }))
        return false;
      auto [starts, ends] = groupBounds(ib, sizes, op, symbols);
      Value l = raggedToDense(ib, lhs, starts, ends, at, rd);
      Value r = raggedToDense(ib, rhs, starts, ends, at, rhsRagged);
      // The group dimension first among the batch dimensions: the result
      // is [g, batch..., lhs free..., rhs free...] (the batch dimensions
      // come before `at`, so they keep their indices).
      SmallVector<int64_t> newLb = {at}, newRb = {at};
      llvm::append_range(newLb, lb);
      llvm::append_range(newRb, rb);
      result = dot(l, r, newLb, shifted(lc, at), newRb, shifted(rc, at));
    } else {
      // Ragged non-contracting: the group dimension is contracted with the
      // rhs group dimension.
      if (groupDims.size() != 1 || !insertable(lhs, sizes, at, rd) ||
          llvm::any_of(lb, [&](int64_t d) { return d >= at; }))
        return false;
      auto [starts, ends] = groupBounds(ib, sizes, op, symbols);
      Value l = raggedToDense(ib, lhs, starts, ends, at, rd);
      SmallVector<int64_t> newLc = {at}, newRc = {groupDims[0]};
      llvm::append_range(newLc, shifted(lc, at));
      llvm::append_range(newRc, rc);
      result = dot(l, rhs, lb, newLc, rb, newRc);
    }
    if (!result)
      return false;
    transferInstructionAttrs(op, result);
    op.getResult().replaceAllUsesWith(result->getResult(0));
    op.erase();
    return true;
  }

  /// Whether `operand` can take a group dimension at `at` for its ragged
  /// dimension `raggedDim`: group sizes of shape [d0..d(at-1), g] whose
  /// leading dimensions are the operand's first ones, and the ragged
  /// dimension after them.
  static bool insertable(Value operand, Value sizes, int64_t at,
                         int64_t raggedDim) {
    ArrayRef<int64_t> shape = tensorType(operand).getShape();
    ArrayRef<int64_t> sizesShape = tensorType(sizes).getShape();
    return raggedDim >= at && raggedDim < int64_t(shape.size()) &&
           shape.take_front(at) == sizesShape.drop_back() &&
           getElementTypeOrSelf(sizes.getType()).isInteger();
  }

  /// The first index of each group and the one after its last (the
  /// exclusive and inclusive prefix sums of the group sizes along their
  /// last dimension).
  std::pair<Value, Value> groupBounds(InstBuilder &ib, Value sizes,
                                      RaggedDotOp op, SymbolTable &symbols) {
    OpBuilder &b = ib.getBuilder();
    // The group sizes' shape without its layout.
    auto sizesType = RankedTensorType::get(tensorType(sizes).getShape(),
                                           tensorType(sizes).getElementType());
    Type index = sizesType.getElementType();
    int64_t groups = sizesType.getShape().back();
    int64_t last = sizesType.getRank() - 1;
    WindowFields window(WindowAttr(), sizesType.getRank());
    window.size[last] = groups;
    window.padLow[last] = groups - 1;
    Value ends = ib.create<ReduceWindowOp>(
        sizesType, {sizes, ib.scalar(index, 0)},
        {b.getNamedAttr("window", window.toAttr(b.getContext())),
         b.getNamedAttr("to_apply", adder(index, op, symbols))});
    SmallVector<int64_t> limits(sizesType.getShape()), zeroShape(limits);
    limits[last] = groups - 1;
    zeroShape[last] = 1;
    SmallVector<int64_t> origin(limits.size(), 0), strides(limits.size(), 1);
    Value head = ib.create<SliceOp>(
        RankedTensorType::get(limits, index), {ends},
        {b.getNamedAttr(
            "slice", SliceAttr::get(b.getContext(), origin, limits, strides))});
    Value starts = ib.create<ConcatenateOp>(
        sizesType, {ib.splat(index, 0, zeroShape), head},
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(last))});
    return {starts, ends};
  }

  /// `operand` with a group dimension at `at` whose entry g keeps the
  /// indices of `raggedDim` in [starts_g, ends_g) and zeroes the others.
  static Value raggedToDense(InstBuilder &ib, Value operand, Value starts,
                             Value ends, int64_t at, int64_t raggedDim) {
    OpBuilder &b = ib.getBuilder();
    RankedTensorType sizesType = tensorType(ends);
    Type index = sizesType.getElementType();
    int64_t groups = sizesType.getShape().back();
    int64_t last = sizesType.getRank() - 1;
    RankedTensorType type = tensorType(operand);
    SmallVector<int64_t> shape(type.getShape());
    shape.insert(shape.begin() + at, groups);
    auto indexType = RankedTensorType::get(shape, index);
    SmallVector<int64_t> sizesDims;
    for (int64_t i = 0; i <= last; ++i)
      sizesDims.push_back(i);
    auto broadcast = [&](Value v, RankedTensorType to, ArrayRef<int64_t> dims) {
      return ib.create<BroadcastOp>(
          to, v, {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(dims))});
    };
    Value iota = ib.create<IotaOp>(
        RankedTensorType::get({type.getDimSize(raggedDim)}, index), {},
        {b.getNamedAttr("iota_dimension", b.getI64IntegerAttr(0))});
    Value position = broadcast(iota, indexType, {raggedDim + 1});
    Value inGroup = ib.create<AndOp>(
        withElementType(indexType, b.getI1Type()),
        {ib.compare(broadcast(starts, indexType, sizesDims), position,
                    ComparisonDirection::LE),
         ib.compare(position, broadcast(ends, indexType, sizesDims),
                    ComparisonDirection::LT)});
    SmallVector<int64_t> operandDims;
    for (int64_t i = 0; i < type.getRank(); ++i)
      operandDims.push_back(i < at ? i : i + 1);
    auto denseType = RankedTensorType::get(shape, type.getElementType());
    Value spread = broadcast(operand, denseType, operandDims);
    Value zeros = ib.splat(type.getElementType(), 0, shape);
    return ib.create<SelectOp>(denseType, {inGroup, spread, zeros});
  }

  /// A computation adding two scalars of `type` (one per type and run),
  /// before the computation of `op`.
  FlatSymbolRefAttr adder(Type type, RaggedDotOp op, SymbolTable &symbols) {
    FlatSymbolRefAttr &made = adders[type];
    if (!made)
      made = createScalarAddComputation(
          symbols, type,
          Block::iterator(op->getParentOfType<ComputationOp>()));
    return made;
  }

  DenseMap<Type, FlatSymbolRefAttr> adders;
};
} // namespace
