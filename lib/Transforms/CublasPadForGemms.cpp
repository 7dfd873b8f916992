//===- CublasPadForGemms.cpp - pad dots to cuBLAS-friendly sizes ----------===//
//
// XLA's CublasPadForGemms as the NVPTX compiler runs it for H100 (one run
// per element type: s8 to multiples of 4, f16 and bf16 to multiples of 8):
// a canonical matrix-matrix dot of two operands of that type whose two
// matrix dimensions are not multiples gets its operands zero-padded at the
// high edge and its result sliced back:
//   dot(a, b) -> slice(dot(pad(a, 0), pad(b, 0)))
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCUBLASPADFORGEMMS
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// True if `dot` is canonical (batch dimensions 0..n-1 on both sides, the
/// two last dimensions the matrix) and a matrix-matrix product cuBLAS runs.
static bool isCanonicalMatmul(DotOp dot) {
  if (!isDenseStaticDot(dot) || hasControlPredecessors(dot) ||
      isControlPredecessor(dot))
    return false;
  if (auto alg = dot.getAlgorithm(); alg && *alg != DotAlgorithm::Unset)
    return false;
  auto lt = cast<RankedTensorType>(dot.getLhs().getType());
  auto rt = cast<RankedTensorType>(dot.getRhs().getType());
  auto ot = cast<RankedTensorType>(dot.getType());
  ArrayRef<int64_t> lb = orEmpty(dot.getLhsBatchDims());
  ArrayRef<int64_t> rb = orEmpty(dot.getRhsBatchDims());
  int64_t nb = lb.size();
  if (orEmpty(dot.getLhsContractingDims()).size() != 1 ||
      orEmpty(dot.getRhsContractingDims()).size() != 1 ||
      int64_t(rb.size()) != nb || lt.getRank() != nb + 2 ||
      rt.getRank() != nb + 2 || ot.getRank() != nb + 2 ||
      lt.getNumElements() == 0 || rt.getNumElements() == 0)
    return false;
  for (int64_t i = 0; i < nb; ++i)
    if (lb[i] != i || rb[i] != i)
      return false;
  return true;
}

/// `type` with its two last dimensions rounded up to `multiple`.
static RankedTensorType padMatrix(RankedTensorType type, int64_t multiple) {
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t d = shape.size() - 2; d < int64_t(shape.size()); ++d)
    shape[d] = llvm::divideCeil(shape[d], multiple) * multiple;
  return RankedTensorType::get(shape, type.getElementType(),
                               type.getEncoding());
}

namespace {
struct CublasPadForGemmsPass
    : ChangeReportingPass<CublasPadForGemmsPass,
                          hlo::impl::HloCublasPadForGemmsBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    MLIRContext *ctx = &getContext();
    // XLA's order: s8, then f16, then bf16 (each a pass of its own).
    std::pair<Type, int64_t> requirements[] = {
        {IntegerType::get(ctx, 8), padS8},
        {Float16Type::get(ctx), padF16},
        {BFloat16Type::get(ctx), padBF16}};
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      for (auto [element, multiple] : requirements) {
        if (multiple <= 0)
          continue;
        SmallVector<DotOp> dots;
        for (auto dot : comp.getBody().getOps<DotOp>())
          if (isCanonicalMatmul(dot) &&
              getElementTypeOrSelf(dot.getLhs().getType()) == element &&
              getElementTypeOrSelf(dot.getRhs().getType()) == element)
            dots.push_back(dot);
        for (DotOp dot : dots)
          pad(dot, element, multiple);
      }
  }

  void pad(DotOp dot, Type element, int64_t multiple) {
    auto lt = cast<RankedTensorType>(dot.getLhs().getType());
    auto rt = cast<RankedTensorType>(dot.getRhs().getType());
    auto ot = cast<RankedTensorType>(dot.getType());
    RankedTensorType nl = padMatrix(lt, multiple), nr = padMatrix(rt, multiple);
    if (nl == lt && nr == rt)
      return;
    RankedTensorType no = padMatrix(ot, multiple);
    MLIRContext *ctx = dot.getContext();
    OpBuilder b(dot);
    Location md = derivedLoc(dot.getLoc());
    auto named = [&](StringRef name) {
      return NameLoc::get(StringAttr::get(ctx, name), md);
    };
    auto scalar = RankedTensorType::get({}, element);
    Value zero =
        createInstruction(
            b, named("constant"), ConstantOp::getOperationName(), scalar, {},
            {b.getNamedAttr(
                "value", DenseElementsAttr::get(
                             scalar, cast<TypedAttr>(b.getZeroAttr(element))))})
            ->getResult(0);
    auto padTo = [&](Value v, RankedTensorType from, RankedTensorType to) {
      SmallVector<int64_t> low(from.getRank(), 0), high,
          interior(from.getRank(), 0);
      for (int64_t d = 0; d < from.getRank(); ++d)
        high.push_back(to.getDimSize(d) - from.getDimSize(d));
      return createInstruction(
                 b, named("pad"), PadOp::getOperationName(), to, {v, zero},
                 {b.getNamedAttr("padding",
                                 PaddingAttr::get(ctx, low, high, interior))})
          ->getResult(0);
    };
    Value lhs = padTo(dot.getLhs(), lt, nl);
    Value rhs = padTo(dot.getRhs(), rt, nr);
    NamedAttrList attrs(dot->getAttrDictionary());
    attrs.erase("operandSegmentSizes");
    Operation *padded =
        createInstruction(b, dot.getLoc(), DotOp::getOperationName(), no,
                          {lhs, rhs}, attrs.getAttrs());
    SmallVector<int64_t> starts(ot.getRank(), 0), strides(ot.getRank(), 1);
    Value slice =
        createInstruction(
            b, named("slice"), SliceOp::getOperationName(), ot,
            {padded->getResult(0)},
            {b.getNamedAttr(
                "slice", SliceAttr::get(ctx, starts, ot.getShape(), strides))})
            ->getResult(0);
    dot.getResult().replaceAllUsesWith(slice);
    dot.erase();
    ++numPadded;
    changed = true;
  }
};
} // namespace
