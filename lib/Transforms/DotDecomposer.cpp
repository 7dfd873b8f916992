//===- DotDecomposer.cpp - dots in canonical form -------------------------===//
//
// XLA's DotDecomposer (seed 002, section 3.1). A dot is canonical when each
// operand has its batch dimensions first, in order, exactly one contracting
// dimension and at most one non-contracting dimension. Any other dot is
// rewritten:
//   lhs -> transpose to [batch, non-contracting, contracting]
//       -> reshape to   [batch, prod(non-contracting), prod(contracting)]
//   rhs -> transpose to [batch, contracting, non-contracting]
//       -> reshape to   [batch, prod(contracting), prod(non-contracting)]
//   dot of those (one contracting dimension each), reshaped to the
//   original result.
// A non-contracting product of 1 is left out (a dot with no free dimension
// on a side keeps none), and an empty contracting product is a dimension of
// size 1 (an outer product becomes a dot contracting one dimension of size
// 1). Identity transposes and reshapes are not created. Left alone: dots
// with control predecessors, sparse dots (XLA skips them too), and dots
// with dynamic or non-array shapes.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLODOTDECOMPOSER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// True if an operand with these dimension numbers is in canonical form.
static bool isCanonicalOperand(int64_t rank, ArrayRef<int64_t> batch,
                               ArrayRef<int64_t> contracting) {
  if (contracting.size() != 1 || static_cast<int64_t>(batch.size()) + 2 < rank)
    return false;
  for (auto [i, d] : llvm::enumerate(batch))
    if (d != static_cast<int64_t>(i))
      return false;
  return true;
}

/// True if both operands of `dot` are in canonical form.
static bool isCanonical(DotOp dot) {
  int64_t lhsRank = cast<RankedTensorType>(dot.getLhs().getType()).getRank();
  int64_t rhsRank = cast<RankedTensorType>(dot.getRhs().getType()).getRank();
  return isCanonicalOperand(lhsRank, orEmpty(dot.getLhsBatchDims()),
                            orEmpty(dot.getLhsContractingDims())) &&
         isCanonicalOperand(rhsRank, orEmpty(dot.getRhsBatchDims()),
                            orEmpty(dot.getRhsContractingDims()));
}

/// True if `dot` is one this pass may rewrite (whether or not canonical).
static bool isRewritable(DotOp dot) {
  return !hasControlPredecessors(dot) && isDenseStaticDot(dot);
}

namespace {
/// One operand brought to canonical form.
struct CanonicalOperand {
  Value value;
  int64_t contractingDim;
  /// The product of its non-contracting dimensions (the dot's free
  /// dimension for this side; omitted when 1).
  int64_t freeSize;
};
} // namespace

/// Transposes and reshapes `operand` to [batch, free, contracting]
/// (`contractingLast`) or [batch, contracting, free]; a free product of 1
/// is left out.
static CanonicalOperand canonicalizeOperand(OpBuilder &b, Location loc,
                                            Value operand,
                                            ArrayRef<int64_t> batch,
                                            ArrayRef<int64_t> contracting,
                                            bool contractingLast) {
  auto type = cast<RankedTensorType>(operand.getType());
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> free;
  int64_t freeSize = 1, contractingSize = 1;
  for (int64_t d = 0, e = type.getRank(); d < e; ++d) {
    if (llvm::is_contained(contracting, d))
      contractingSize *= shape[d];
    else if (!llvm::is_contained(batch, d)) {
      free.push_back(d);
      freeSize *= shape[d];
    }
  }
  SmallVector<int64_t> perm(batch);
  if (contractingLast) {
    llvm::append_range(perm, free);
    llvm::append_range(perm, contracting);
  } else {
    llvm::append_range(perm, contracting);
    llvm::append_range(perm, free);
  }
  Value value = operand;
  // Without a layout, as XLA's PermuteDimensionsIgnoringLayout.
  if (!llvm::equal(perm, llvm::seq<int64_t>(0, type.getRank()))) {
    SmallVector<int64_t> permuted;
    for (int64_t d : perm)
      permuted.push_back(shape[d]);
    value = createInstruction(
                b, loc, TransposeOp::getOperationName(),
                RankedTensorType::get(permuted, type.getElementType()), {value},
                {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(perm))})
                ->getResult(0);
  }

  SmallVector<int64_t> dims;
  for (int64_t d : batch)
    dims.push_back(shape[d]);
  int64_t contractingDim;
  if (contractingLast) {
    if (freeSize != 1)
      dims.push_back(freeSize);
    contractingDim = dims.size();
    dims.push_back(contractingSize);
  } else {
    contractingDim = dims.size();
    dims.push_back(contractingSize);
    if (freeSize != 1)
      dims.push_back(freeSize);
  }
  auto reshaped = RankedTensorType::get(dims, type.getElementType());
  if (cast<RankedTensorType>(value.getType()).getShape() != ArrayRef(dims))
    value = createInstruction(b, loc, ReshapeOp::getOperationName(), reshaped,
                              {value})
                ->getResult(0);
  return {value, contractingDim, freeSize};
}

/// Rewrites a non-canonical `dot` as a canonical dot between reshapes.
static void canonicalizeDot(DotOp dot) {
  OpBuilder b(dot);
  Location loc = derivedLoc(dot.getLoc());
  ArrayRef<int64_t> lhsBatch = orEmpty(dot.getLhsBatchDims());
  ArrayRef<int64_t> rhsBatch = orEmpty(dot.getRhsBatchDims());
  CanonicalOperand lhs = canonicalizeOperand(
      b, loc, dot.getLhs(), lhsBatch, orEmpty(dot.getLhsContractingDims()),
      /*contractingLast=*/true);
  CanonicalOperand rhs = canonicalizeOperand(
      b, loc, dot.getRhs(), rhsBatch, orEmpty(dot.getRhsContractingDims()),
      /*contractingLast=*/false);

  // Result: [batch, lhs free, rhs free], the free ones when not 1.
  auto resultType = cast<RankedTensorType>(dot.getType());
  ArrayRef<int64_t> lhsShape =
      cast<RankedTensorType>(dot.getLhs().getType()).getShape();
  SmallVector<int64_t> dims;
  for (int64_t d : lhsBatch)
    dims.push_back(lhsShape[d]);
  for (int64_t size : {lhs.freeSize, rhs.freeSize})
    if (size != 1)
      dims.push_back(size);
  auto canonicalType = RankedTensorType::get(dims, resultType.getElementType());

  SmallVector<NamedAttribute> attrs;
  auto batchDims = llvm::to_vector(llvm::seq<int64_t>(0, lhsBatch.size()));
  if (!batchDims.empty()) {
    attrs.push_back(
        b.getNamedAttr("lhs_batch_dims", b.getDenseI64ArrayAttr(batchDims)));
    attrs.push_back(
        b.getNamedAttr("rhs_batch_dims", b.getDenseI64ArrayAttr(batchDims)));
  }
  attrs.push_back(b.getNamedAttr("lhs_contracting_dims",
                                 b.getDenseI64ArrayAttr({lhs.contractingDim})));
  attrs.push_back(b.getNamedAttr("rhs_contracting_dims",
                                 b.getDenseI64ArrayAttr({rhs.contractingDim})));
  // What XLA's derived instruction keeps: precision, algorithm, frontend
  // attributes; the sharding goes to the reshape that replaces the dot.
  for (StringRef name :
       {"operand_precision", "algorithm", "frontend_attributes"})
    if (Attribute a = dot->getAttr(name))
      attrs.push_back(b.getNamedAttr(name, a));
  Operation *canonical =
      createInstruction(b, loc, DotOp::getOperationName(), canonicalType,
                        {lhs.value, rhs.value}, attrs);

  Operation *replacement = createInstruction(
      b, UnknownLoc::get(b.getContext()), ReshapeOp::getOperationName(),
      resultType, {canonical->getResult(0)});
  transferInstructionAttrs(dot, replacement);
  dot.getResult().replaceAllUsesWith(replacement->getResult(0));
  dot.erase();
}

namespace {
struct DotDecomposerPass
    : ChangeReportingPass<DotDecomposerPass, hlo::impl::HloDotDecomposerBase> {
  void run() {
    SmallVector<DotOp> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      for (auto dot : comp.getBody().getOps<DotOp>())
        if (isRewritable(dot) && !isCanonical(dot))
          worklist.push_back(dot);
    for (DotOp dot : worklist) {
      canonicalizeDot(dot);
      ++numCanonicalized;
      changed = true;
    }
  }
};
} // namespace
