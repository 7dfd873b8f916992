//===- DotStrengthReduction.cpp - vector dots as reduces ------------------===//
//
// XLA-GPU's DotStrengthReduction, the op expander XLA 0.10.2 runs first in
// its simplification pipeline. A dot whose lhs or rhs is a vector (only
// batch and contracting dimensions), or an s32 dot whose rhs contracts its
// dimension 1, becomes
//   reduce-add(multiply(broadcast(transpose(lhs)), broadcast(transpose(rhs))))
// over the contracting dimensions, in the GEMM accumulator type, when cuBLAS
// or Triton would not do better: always for vector-vector dots, otherwise
// when the product is small ((m + n) * k below 10^7) or Triton's legacy
// GEMM emitter could not take the dot. Both operands are brought to
// (batch, lhs non-contracting, rhs non-contracting, contracting): each is
// converted to the result type, transposed to (batch, non-contracting,
// contracting) and broadcast with the other side's non-contracting
// dimensions (after its own for the lhs, before for the rhs).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLODOTSTRENGTHREDUCTION
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// The dimensions of one dot operand by kind, each in increasing order.
struct OperandDims {
  SmallVector<int64_t> batch, free, contracting;
  RankedTensorType type;

  OperandDims(Value operand, ArrayRef<int64_t> batchDims,
              ArrayRef<int64_t> contractingDims)
      : batch(batchDims), contracting(contractingDims),
        type(cast<RankedTensorType>(operand.getType())) {
    for (int64_t d = 0, e = type.getRank(); d < e; ++d)
      if (!llvm::is_contained(batchDims, d) &&
          !llvm::is_contained(contractingDims, d))
        free.push_back(d);
  }
  bool isVector() const { return free.empty(); }
  int64_t size(ArrayRef<int64_t> dims) const {
    int64_t n = 1;
    for (int64_t d : dims)
      n *= type.getDimSize(d);
    return n;
  }
  SmallVector<int64_t> sizes(ArrayRef<int64_t> dims) const {
    return llvm::map_to_vector(dims,
                               [&](int64_t d) { return type.getDimSize(d); });
  }
};
} // namespace

static bool isSigned(Type t, unsigned width) {
  auto i = dyn_cast<IntegerType>(t);
  return i && i.getWidth() == width && !i.isUnsigned();
}

/// legacy_triton's dot result types on an H100.
static bool isTritonDotOutputType(Type t) {
  return t.isF16() || t.isF32() || t.isBF16() ||
         isa<Float8E5M2Type, Float8E4M3FNType>(t) || isSigned(t, 32);
}

/// legacy_triton's data types on an H100.
static bool isTritonDataType(Type t) {
  return isTritonDotOutputType(t) || t.isInteger(1) || isSigned(t, 8) ||
         isSigned(t, 16) || isSigned(t, 32);
}

/// XLA's legacy_triton::CanTritonHandleGEMM for a dot without an algorithm
/// on an H100 (TensorFloat-32 on, as XLA's default).
static bool canTritonHandleGemm(DotOp dot) {
  if (ArrayAttr precision = dot.getOperandPrecisionAttr())
    for (Attribute p : precision)
      if (cast<PrecisionAttr>(p).getValue() != Precision::Default)
        return false;
  Type out = cast<RankedTensorType>(dot.getType()).getElementType();
  Type lhs = cast<RankedTensorType>(dot.getLhs().getType()).getElementType();
  Type rhs = cast<RankedTensorType>(dot.getRhs().getType()).getElementType();
  if (!isTritonDotOutputType(out) || !isTritonDataType(lhs) ||
      !isTritonDataType(rhs))
    return false;
  if (isSigned(out, 32) && !(lhs.isInteger(8) && rhs.isInteger(8)))
    return false;
  return orEmpty(dot.getLhsBatchDims()).size() <= 1;
}

/// XLA's GetGemmAccumulatorType for a dot without an algorithm.
static Type accumulatorType(Type result) {
  if (result.isF16() || result.isBF16())
    return Float32Type::get(result.getContext());
  return result;
}

static bool isIntOrFloat(Type t) {
  return isa<FloatType>(t) || (isa<IntegerType>(t) && !t.isInteger(1));
}

namespace {
struct DotStrengthReductionPass
    : ChangeReportingPass<DotStrengthReductionPass,
                          hlo::impl::HloDotStrengthReductionBase> {
  using ChangeReportingPass::ChangeReportingPass;

  /// XLA's DotStrengthReduction::InstructionMatchesPattern.
  bool matches(DotOp dot) {
    if (!isDenseStaticDot(dot) || hasControlPredecessors(dot) ||
        isControlPredecessor(dot))
      return false;
    if (std::optional<DotAlgorithm> alg = dot.getAlgorithm();
        alg && *alg != DotAlgorithm::Unset)
      return false;
    Type out = cast<RankedTensorType>(dot.getType()).getElementType();
    Type lhsElt =
        cast<RankedTensorType>(dot.getLhs().getType()).getElementType();
    Type rhsElt =
        cast<RankedTensorType>(dot.getRhs().getType()).getElementType();
    if (!isIntOrFloat(out) || !isIntOrFloat(lhsElt) || !isIntOrFloat(rhsElt))
      return false;
    OperandDims lhs(dot.getLhs(), orEmpty(dot.getLhsBatchDims()),
                    orEmpty(dot.getLhsContractingDims()));
    OperandDims rhs(dot.getRhs(), orEmpty(dot.getRhsBatchDims()),
                    orEmpty(dot.getRhsContractingDims()));
    ArrayRef<int64_t> rc = orEmpty(dot.getRhsContractingDims());
    bool favourableS32 = isSigned(out, 32) && isSigned(lhsElt, 32) &&
                         isSigned(rhsElt, 32) && rc.size() == 1 && rc[0] == 1;
    if (!lhs.isVector() && !rhs.isVector() && !favourableS32)
      return false;
    if (lhs.isVector() && rhs.isVector())
      return true;
    int64_t k = lhs.size(lhs.contracting);
    if ((lhs.size(lhs.free) + rhs.size(rhs.free)) * k < sizeThreshold)
      return true;
    return !canTritonHandleGemm(dot);
  }

  void run() {
    ModuleOp module = getOperation();
    SmallVector<DotOp> worklist;
    for (ComputationOp comp : nonFusionComputations(module))
      comp.walk([&](DotOp dot) {
        if (matches(dot))
          worklist.push_back(dot);
      });
    if (worklist.empty())
      return;
    SymbolTable symbols(module);
    for (DotOp dot : worklist) {
      expand(dot, symbols);
      ++numReduced;
      changed = true;
    }
  }

  /// XLA's DotStrengthReduction::ExpandInstruction.
  void expand(DotOp dot, SymbolTable &symbols) {
    OpBuilder b(dot);
    Location loc = derivedLoc(dot.getLoc());
    auto resultType = cast<RankedTensorType>(dot.getType());
    Type elt = resultType.getElementType();
    std::array<OperandDims, 2> dims = {
        OperandDims(dot.getLhs(), orEmpty(dot.getLhsBatchDims()),
                    orEmpty(dot.getLhsContractingDims())),
        OperandDims(dot.getRhs(), orEmpty(dot.getRhsBatchDims()),
                    orEmpty(dot.getRhsContractingDims()))};
    std::array<Value, 2> operands = {dot.getLhs(), dot.getRhs()};
    for (int i = 0; i < 2; ++i) {
      OperandDims &ours = dims[i], &other = dims[1 - i];
      Value x = operands[i];
      // Converted to the result type.
      auto type = cast<RankedTensorType>(x.getType());
      if (type.getElementType() != elt)
        x = createInstruction(b, loc, ConvertOp::getOperationName(),
                              RankedTensorType::get(type.getShape(), elt), {x})
                ->getResult(0);
      // Transposed to (batch, non-contracting, contracting).
      SmallVector<int64_t> perm(ours.batch);
      llvm::append_range(perm, ours.free);
      llvm::append_range(perm, ours.contracting);
      SmallVector<int64_t> shape = ours.sizes(perm);
      if (!llvm::is_sorted(perm))
        x = createInstruction(
                b, loc, TransposeOp::getOperationName(),
                RankedTensorType::get(shape, elt), {x},
                {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(perm))})
                ->getResult(0);
      // The other side's non-contracting dimensions inserted: after our
      // non-contracting ones for the lhs, before them for the rhs.
      int64_t insertAt = ours.batch.size() + (i == 0 ? ours.free.size() : 0);
      SmallVector<int64_t> inserted = other.sizes(other.free);
      if (!inserted.empty()) {
        SmallVector<int64_t> newShape(shape.begin(), shape.begin() + insertAt);
        llvm::append_range(newShape, inserted);
        newShape.append(shape.begin() + insertAt, shape.end());
        SmallVector<int64_t> bdims;
        for (int64_t d = 0, e = shape.size(); d < e; ++d)
          bdims.push_back(d < insertAt ? d : d + inserted.size());
        x = createInstruction(
                b, loc, BroadcastOp::getOperationName(),
                RankedTensorType::get(newShape, elt), {x},
                {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(bdims))})
                ->getResult(0);
      }
      operands[i] = x;
    }

    Value flow = createInstruction(b, loc, MulOp::getOperationName(),
                                   operands[0].getType(), operands)
                     ->getResult(0);
    auto productType = cast<RankedTensorType>(flow.getType());
    int64_t numContracting = dims[0].contracting.size();
    if (numContracting > 0) {
      Type acc = accumulatorType(elt);
      if (acc != elt)
        flow = createInstruction(
                   b, loc, ConvertOp::getOperationName(),
                   RankedTensorType::get(productType.getShape(), acc), {flow})
                   ->getResult(0);
      int64_t rank = productType.getRank();
      auto reduced =
          llvm::to_vector(llvm::seq<int64_t>(rank - numContracting, rank));
      // The zero carries no metadata, as XLA's.
      auto scalar = RankedTensorType::get({}, acc);
      Value zero =
          createInstruction(b, UnknownLoc::get(b.getContext()),
                            ConstantOp::getOperationName(), scalar, {},
                            {b.getNamedAttr("value", b.getZeroAttr(scalar))})
              ->getResult(0);
      // Before the dot's computation: HLO text defines a computation before
      // its users.
      FlatSymbolRefAttr add = createScalarAddComputation(
          symbols, acc, dot->getParentOfType<ComputationOp>()->getIterator());
      flow = createInstruction(
                 b, loc, ReduceOp::getOperationName(),
                 RankedTensorType::get(
                     productType.getShape().drop_back(numContracting), acc),
                 {flow, zero},
                 {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(reduced)),
                  b.getNamedAttr("to_apply", add)})
                 ->getResult(0);
    }
    Operation *last = flow.getDefiningOp();
    if (cast<RankedTensorType>(flow.getType()).getElementType() != elt) {
      last = createInstruction(b, loc, ConvertOp::getOperationName(),
                               resultType, {flow});
    } else {
      // Same element type: the result takes the dot's layout.
      last->getResult(0).setType(resultType);
    }
    transferInstructionAttrs(dot, last);
    dot.getResult().replaceAllUsesWith(last->getResult(0));
    dot.erase();
  }
};
} // namespace
