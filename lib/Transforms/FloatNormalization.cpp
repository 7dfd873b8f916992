//===- FloatNormalization.cpp - bf16 the GPU lacks computed in f32 --------===//
//
// XLA's FloatNormalization with GpuFloatSupport(bf16) for Hopper: an
// instruction that reads or produces bf16 but has no bf16 implementation
// on the GPU computes in f32 instead:
//   op(bf16 a, bf16 b) -> convert<bf16>(op(convert<f32>(a), convert<f32>(b)))
// one convert per operand use, as XLA adds them. Which opcodes the GPU
// supports in bf16 is GpuFloatSupport::IsSupported for CUDA, Hopper.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOFLOATNORMALIZATION
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// GpuFloatSupport::IsSupported for bf16 on a Hopper GPU (the opcodes
/// without called computations; reduce and sort are never rewritten here).
static bool supportedInBF16(Operation *op) {
  return isa<
      // Collectives.
      AllReduceOp, AllReduceStartOp, AllReduceDoneOp, ReduceScatterOp,
      AllGatherOp, AllToAllOp, CollectivePermuteOp, RaggedAllToAllOp,
      // Dots (cuBLAS / Triton).
      DotOp, ScaledDotOp, RaggedDotOp,
      // Data movement and other special instructions.
      BroadcastOp, ConcatenateOp, CopyOp, ConstantOp, DynamicSliceOp,
      DynamicUpdateSliceOp, GatherOp, PadOp, ReshapeOp, ReverseOp, ScatterOp,
      SelectOp, SelectAndScatterOp, SliceOp, TransposeOp, BitcastOp,
      BitcastConvertOp, ConvertOp, CompareOp, ReducePrecisionOp, XorOp,
      // Elementwise: exp and log on CUDA, the rest from Ampere / Hopper.
      ExpOp, LogOp, AbsOp, MaxOp, MinOp, NegOp, AddOp, MulOp, SubtractOp>(op);
}

/// Instructions FloatNormalization leaves alone whatever their types: they
/// compute nothing, or a library or called computation does.
static bool neutral(Operation *op) {
  if (isa<ReturnOp, TupleOp, GetTupleElementOp, CallOp, FusionOp, WhileOp,
          ConditionalOp, CustomCallOp, OptimizationBarrierOp, AddDependencyOp,
          AfterAllOp, DomainOp, AsyncStartOp, AsyncUpdateOp, AsyncDoneOp,
          CopyStartOp, CopyDoneOp, SendOp, SendDoneOp, RecvOp, RecvDoneOp,
          InfeedOp, OutfeedOp, GetDimensionSizeOp, SetDimensionSizeOp>(op))
    return true;
  // Instructions that call computations (XLA clones those in f32).
  return llvm::any_of(op->getAttrs(), [](NamedAttribute a) {
    return isa<FlatSymbolRefAttr>(a.getValue());
  });
}

static bool isBF16Array(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  return rt && rt.getElementType().isBF16();
}

namespace {
struct FloatNormalizationPass
    : ChangeReportingPass<FloatNormalizationPass,
                          hlo::impl::HloFloatNormalizationBase> {
  void run() {
    ModuleOp module = getOperation();
    // The computations instructions apply (reducers, comparators, ...) are
    // left alone with their callers; called, while and conditional
    // computations are normalized.
    llvm::DenseSet<StringAttr> applied;
    module.walk([&](Operation *op) {
      if (isa<CallOp, WhileOp, ConditionalOp, AsyncStartOp, AsyncUpdateOp,
              AsyncDoneOp, FusionOp>(op))
        return;
      for (NamedAttribute a : op->getAttrs())
        if (auto ref = dyn_cast<FlatSymbolRefAttr>(a.getValue()))
          applied.insert(ref.getAttr());
    });
    for (ComputationOp comp : nonFusionComputations(module))
      if (!applied.contains(comp.getSymNameAttr()))
        for (Operation &op :
             llvm::make_early_inc_range(comp.getBody().front().getOperations()))
          normalize(&op);
  }

  void normalize(Operation *op) {
    if (op->getNumResults() != 1 || neutral(op) || supportedInBF16(op) ||
        hasControlPredecessors(op) || isControlPredecessor(op))
      return;
    OperandRange operands = getDataOperands(op);
    Type resultType = op->getResult(0).getType();
    auto isArray = [](Type t) { return isa<RankedTensorType>(t); };
    if (!isArray(resultType) || !llvm::all_of(operands.getTypes(), isArray))
      return;
    bool anyBF16 = isBF16Array(resultType) ||
                   llvm::any_of(operands.getTypes(), isBF16Array);
    if (!anyBF16)
      return;
    MLIRContext *ctx = op->getContext();
    Type f32 = Float32Type::get(ctx);
    OpBuilder b(op);
    auto convert = [&](Value v, Type to) {
      return createInstruction(b, NameLoc::get(StringAttr::get(ctx, "convert")),
                               ConvertOp::getOperationName(), to, {v})
          ->getResult(0);
    };
    for (unsigned i = 0, e = operands.size(); i < e; ++i) {
      Value v = op->getOperand(i);
      if (isBF16Array(v.getType()))
        op->setOperand(i, convert(v, withElementType(v.getType(), f32)));
    }
    if (isBF16Array(resultType)) {
      Value result = op->getResult(0);
      result.setType(withElementType(resultType, f32));
      b.setInsertionPointAfter(op);
      Value back = convert(result, resultType);
      result.replaceAllUsesExcept(back, back.getDefiningOp());
    }
    ++numNormalized;
    changed = true;
  }
};
} // namespace
