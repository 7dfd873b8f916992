//===- FloatNormalization.cpp - types the GPU lacks computed wider --------===//
//
// XLA-GPU's "float_normalization" pipeline: XLA's FloatNormalization once per
// narrow type, each with GpuFloatSupport's rules for Hopper: an instruction
// that reads or produces the narrow type but has no implementation for it on
// the GPU computes in a wider type instead:
//   op(bf16 a, bf16 b) -> convert<bf16>(op(convert<f32>(a), convert<f32>(b)))
// one convert per operand use, as XLA adds them. XLA 0.10.2's types, in its
// order, and the types they compute in: bf16 (f32); f8e5m2, f8e4m3,
// f8e4m3fn, f8e4m3b11fnuz, f8e5m2fnuz, f8e4m3fnuz, f8e3m4 (f16); s4 (s8),
// u4 (u8); f4e2m1fn (f16); f8e8m0fnu (f32).
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

/// GpuFloatSupport::IsSupported on a Hopper GPU for narrow type `low` (the
/// opcodes without called computations; reduce and sort are never
/// rewritten here).
static bool isSupported(Operation *op, Type low) {
  // Collectives, data movement and the other special instructions, in
  // every narrow type.
  if (isa<AllReduceOp, AllReduceStartOp, AllReduceDoneOp, ReduceScatterOp,
          AllGatherOp, AllToAllOp, CollectivePermuteOp, RaggedAllToAllOp,
          BroadcastOp, ConcatenateOp, CopyOp, ConstantOp, DynamicSliceOp,
          DynamicUpdateSliceOp, GatherOp, PadOp, ReshapeOp, ReverseOp,
          ScatterOp, SelectOp, SelectAndScatterOp, SliceOp, TransposeOp,
          BitcastOp, BitcastConvertOp, ConvertOp, CompareOp, ReducePrecisionOp,
          XorOp>(op))
    return true;
  // Dots: cuBLAS and Triton take bf16, and the fp8 types from Ampere
  // (e4m3fn) and Hopper (e5m2).
  if (isa<DotOp, ScaledDotOp, RaggedDotOp>(op))
    return low.isBF16() || isa<Float8E4M3FNType, Float8E5M2Type>(low);
  // Elementwise, in bf16 only: exp and log on CUDA, the rest from Ampere /
  // Hopper.
  return low.isBF16() && isa<ExpOp, LogOp, AbsOp, MaxOp, MinOp, NegOp, AddOp,
                             MulOp, SubtractOp>(op);
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

static bool isArrayOf(Type t, Type element) {
  auto rt = dyn_cast<RankedTensorType>(t);
  return rt && rt.getElementType() == element;
}

/// XLA 0.10.2's FloatNormalization passes, in its order: each narrow type
/// and the wide type it is computed in where the GPU has no implementation.
static SmallVector<std::pair<Type, Type>> normalizations(MLIRContext *ctx) {
  Type f16 = Float16Type::get(ctx), f32 = Float32Type::get(ctx);
  return {{BFloat16Type::get(ctx), f32},
          {Float8E5M2Type::get(ctx), f16},
          {Float8E4M3Type::get(ctx), f16},
          {Float8E4M3FNType::get(ctx), f16},
          {Float8E4M3B11FNUZType::get(ctx), f16},
          {Float8E5M2FNUZType::get(ctx), f16},
          {Float8E4M3FNUZType::get(ctx), f16},
          {Float8E3M4Type::get(ctx), f16},
          {IntegerType::get(ctx, 4), IntegerType::get(ctx, 8)},
          {IntegerType::get(ctx, 4, IntegerType::Unsigned),
           IntegerType::get(ctx, 8, IntegerType::Unsigned)},
          {Float4E2M1FNType::get(ctx), f16},
          {Float8E8M0FNUType::get(ctx), f32}};
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
    SmallVector<std::pair<Type, Type>> pairs = normalizations(&getContext());
    for (ComputationOp comp : nonFusionComputations(module))
      if (!applied.contains(comp.getSymNameAttr()))
        for (Operation &op :
             llvm::make_early_inc_range(comp.getBody().front().getOperations()))
          normalize(&op, pairs);
  }

  void normalize(Operation *op, ArrayRef<std::pair<Type, Type>> pairs) {
    if (op->getNumResults() != 1 || neutral(op) || hasControlPredecessors(op) ||
        isControlPredecessor(op))
      return;
    auto isArray = [](Type t) { return isa<RankedTensorType>(t); };
    if (!isArray(op->getResult(0).getType()) ||
        !llvm::all_of(getDataOperands(op).getTypes(), isArray))
      return;
    for (auto [low, wide] : pairs)
      normalize(op, low, wide);
  }

  /// Computes `op` in `wide` where it reads or produces `low`, which the GPU
  /// does not support for it.
  void normalize(Operation *op, Type low, Type wide) {
    OperandRange operands = getDataOperands(op);
    Type resultType = op->getResult(0).getType();
    auto isLow = [&](Type t) { return isArrayOf(t, low); };
    if (isSupported(op, low) ||
        (!isLow(resultType) && llvm::none_of(operands.getTypes(), isLow)))
      return;
    MLIRContext *ctx = op->getContext();
    OpBuilder b(op);
    auto convert = [&](Value v, Type to) {
      return createInstruction(b, NameLoc::get(StringAttr::get(ctx, "convert")),
                               ConvertOp::getOperationName(), to, {v})
          ->getResult(0);
    };
    for (unsigned i = 0, e = operands.size(); i < e; ++i) {
      Value v = op->getOperand(i);
      if (isLow(v.getType()))
        op->setOperand(i, convert(v, withElementType(v.getType(), wide)));
    }
    if (isLow(resultType)) {
      Value result = op->getResult(0);
      result.setType(withElementType(resultType, wide));
      b.setInsertionPointAfter(op);
      Value back = convert(result, resultType);
      result.replaceAllUsesExcept(back, back.getDefiningOp());
    }
    ++numNormalized;
    changed = true;
  }
};
} // namespace
