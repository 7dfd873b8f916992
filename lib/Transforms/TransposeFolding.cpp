//===- TransposeFolding.cpp - transposes into dot and conv dimensions -----===//
//
// XLA's TransposeFolding with its default rules. A dot or convolution that
// reads a transpose reads the transpose's operand instead, its dimension
// numbers renumbered through the permutation (dimension d of the transpose
// is dimension perm[d] of its operand):
//   - a dot operand (both operands of rank 2 or more) that is a transpose
//     other than the identity, when XLA's IsRowColumnTransposeDotOperand
//     holds: one contracting dimension, rank - 2 batch dimensions, each
//     left in place by the permutation. The transpose then only swaps the
//     contracting dimension and the single free one, so the dot's result
//     keeps its dimensions;
//   - a convolution operand that is a transpose (XLA's AlwaysFoldTranspose;
//     `fold-convolution-transposes=false` is NeverFoldTranspose, what XLA's
//     GPU compiler passes): lhs into the input batch, feature and spatial
//     dimensions, rhs into the kernel ones; the output dimensions stay.
// The dot or convolution is updated in place (its result, attributes and
// control edges do not change); the transpose stays for its other users
// (hlo-dce removes it when none is left). Left alone: transposes with
// control predecessors (the dot would no longer wait for them) and fused
// computations.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOTRANSPOSEFOLDING
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The transpose `value` is, if it may be folded away: no control
/// predecessors, an array result.
static TransposeOp foldableTranspose(Value value) {
  auto transpose = value.getDefiningOp<TransposeOp>();
  if (!transpose || hasControlPredecessors(transpose) ||
      !isa<RankedTensorType>(transpose.getOperand().getType()))
    return nullptr;
  return transpose;
}

/// `dims` renumbered through `perm`: dims[i] becomes perm[dims[i]].
static SmallVector<int64_t> permuted(ArrayRef<int64_t> dims,
                                     ArrayRef<int64_t> perm) {
  return llvm::map_to_vector(dims, [&](int64_t d) { return perm[d]; });
}

/// XLA's IsRowColumnTransposeDotOperand for the operand read through
/// `transpose` with these dimension numbers.
static bool isRowColumnTranspose(TransposeOp transpose, ArrayRef<int64_t> batch,
                                 ArrayRef<int64_t> contracting) {
  ArrayRef<int64_t> perm = transpose.getDimensions();
  if (contracting.size() != 1 || batch.size() + 2 != perm.size())
    return false;
  return llvm::all_of(batch, [&](int64_t d) { return perm[d] == d; });
}

namespace {
struct TransposeFoldingPass
    : ChangeReportingPass<TransposeFoldingPass,
                          hlo::impl::HloTransposeFoldingBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.getBody().walk([&](Operation *op) {
        if (auto dot = dyn_cast<DotOp>(op))
          foldIntoDot(dot);
        else if (auto conv = dyn_cast<ConvolutionOp>(op);
                 conv && foldConvolutionTransposes)
          foldIntoConvolution(conv);
      });
  }

  void foldIntoDot(DotOp dot) {
    auto lhsType = dyn_cast<RankedTensorType>(dot.getLhs().getType());
    auto rhsType = dyn_cast<RankedTensorType>(dot.getRhs().getType());
    // XLA does not fold into dots with an operand of rank below 2.
    if (!lhsType || !rhsType || lhsType.getRank() < 2 || rhsType.getRank() < 2)
      return;
    Builder b(dot.getContext());
    bool folded = false;
    auto fold = [&](OpOperand &operand, StringRef batchName,
                    StringRef contractingName,
                    std::optional<ArrayRef<int64_t>> batchDims,
                    std::optional<ArrayRef<int64_t>> contractingDims) {
      TransposeOp transpose = foldableTranspose(operand.get());
      if (!transpose)
        return;
      ArrayRef<int64_t> perm = transpose.getDimensions();
      ArrayRef<int64_t> batch = orEmpty(batchDims);
      ArrayRef<int64_t> contracting = orEmpty(contractingDims);
      if (isIdentityPermutation(perm) ||
          !isRowColumnTranspose(transpose, batch, contracting))
        return;
      if (batchDims)
        dot->setAttr(batchName, b.getDenseI64ArrayAttr(permuted(batch, perm)));
      dot->setAttr(contractingName,
                   b.getDenseI64ArrayAttr(permuted(contracting, perm)));
      operand.set(transpose.getOperand());
      ++numTransposesFolded;
      folded = changed = true;
    };
    fold(dot.getLhsMutable(), dot.getLhsBatchDimsAttrName(),
         dot.getLhsContractingDimsAttrName(), dot.getLhsBatchDims(),
         dot.getLhsContractingDims());
    fold(dot.getRhsMutable(), dot.getRhsBatchDimsAttrName(),
         dot.getRhsContractingDimsAttrName(), dot.getRhsBatchDims(),
         dot.getRhsContractingDims());
    if (folded)
      ++numDotsFolded;
  }

  void foldIntoConvolution(ConvolutionOp conv) {
    ConvDimensionNumbersAttr dn = conv.getDimLabels();
    int64_t inBatch = dn.getInputBatch(), inFeature = dn.getInputFeature();
    SmallVector<int64_t> inSpatial(dn.getInputSpatial());
    int64_t kernelIn = dn.getKernelInput(), kernelOut = dn.getKernelOutput();
    SmallVector<int64_t> kernelSpatial(dn.getKernelSpatial());
    bool folded = false;
    if (TransposeOp transpose = foldableTranspose(conv.getLhs())) {
      ArrayRef<int64_t> perm = transpose.getDimensions();
      inBatch = perm[inBatch];
      inFeature = perm[inFeature];
      inSpatial = permuted(inSpatial, perm);
      conv.getLhsMutable().assign(transpose.getOperand());
      ++numTransposesFolded;
      folded = changed = true;
    }
    if (TransposeOp transpose = foldableTranspose(conv.getRhs())) {
      ArrayRef<int64_t> perm = transpose.getDimensions();
      kernelIn = perm[kernelIn];
      kernelOut = perm[kernelOut];
      kernelSpatial = permuted(kernelSpatial, perm);
      conv.getRhsMutable().assign(transpose.getOperand());
      ++numTransposesFolded;
      folded = changed = true;
    }
    if (!folded)
      return;
    conv.setDimLabelsAttr(ConvDimensionNumbersAttr::get(
        conv.getContext(), inBatch, inFeature, inSpatial, kernelIn, kernelOut,
        kernelSpatial, dn.getOutputBatch(), dn.getOutputFeature(),
        dn.getOutputSpatial()));
    ++numConvolutionsFolded;
  }
};
} // namespace
