//===- TritonFusionUtils.cpp - `__triton` normalization fusions -----------===//
//
// The facts are XLA's (backends/gpu/codegen/triton/support.cc on a CUDA
// Hopper device, softmax_rewriter_triton.cc); the code is this project's.
//
//===----------------------------------------------------------------------===//

#include "TritonFusionUtils.h"
#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "ReductionUtils.h"
#include "TransformUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::hlo;

static Type elementOf(Type type) { return getElementTypeOrSelf(type); }

bool mlir::hlo::isTritonSupportedType(Type type) {
  type = elementOf(type);
  if (auto it = dyn_cast<IntegerType>(type)) {
    if (it.isUnsigned())
      return false;
    unsigned w = it.getWidth();
    return w == 1 || w == 4 || w == 8 || w == 16 || w == 32 || w == 64;
  }
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
         isa<Float8E5M2Type, Float8E4M3FNType>(type);
}

static bool isPred(Type t) { return t.isInteger(1); }
static bool isF8(Type t) { return isa<Float8E5M2Type, Float8E4M3FNType>(t); }
static bool isS4(Type t) { return t.isSignlessInteger(4); }
static bool isFloat16To64(Type t) {
  return t.isF16() || t.isBF16() || t.isF32() || t.isF64();
}
static bool isSignedInt(Type t) {
  auto it = dyn_cast<IntegerType>(t);
  return it && !it.isUnsigned() && it.getWidth() > 1;
}

/// XLA's lists of the unary, binary and ternary elementwise ops Triton
/// supports for element type `t` (the type of the op's last operand).
static bool isSupportedElementwise(Operation *op, Type t) {
  unsigned n = getDataOperands(op).size();
  if (n == 1) {
    if (isPred(t))
      return isa<NotOp, CopyOp>(op);
    if (isS4(t))
      return false;
    if (isa<AbsOp, CopyOp>(op))
      return true;
    if (isa<NegOp>(op))
      return !isF8(t);
    if (isa<NotOp>(op))
      return isSignedInt(t);
    if (isa<ReducePrecisionOp>(op))
      return isa<FloatType>(t);
    if (isFloat16To64(t))
      return isa<CosOp, FloorOp, Log1pOp, SqrtOp, TanhOp, AcoshOp, ExpOp,
                 Expm1Op, CbrtOp, ErfOp, LogOp, TanOp, CeilOp, RsqrtOp, SinOp>(
          op);
    return false;
  }
  if (n == 2) {
    if (isS4(t) || isF8(t))
      return false;
    if (isa<AddOp, CompareOp, MaxOp, MinOp, MulOp>(op))
      return true;
    if (isPred(t))
      return isa<AndOp, OrOp, XorOp>(op);
    if (isa<SubtractOp>(op))
      return true;
    if (isSignedInt(t))
      return isa<DivOp, AndOp, OrOp, XorOp>(op);
    if (t.isF32() || t.isF64())
      return isa<Atan2Op, DivOp, RemOp, PowOp>(op);
    if (t.isBF16() || t.isF16())
      return isa<Atan2Op, PowOp, RemOp>(op);
    return false;
  }
  if (n == 3) {
    if (isS4(t))
      return false;
    if (isF8(t))
      return isa<SelectOp>(op);
    return isa<SelectOp, ClampOp>(op);
  }
  return false;
}

/// XLA's IsTritonSupportedConversion (Hopper).
static bool isSupportedConversion(Type out, Type in) {
  auto anyIs = [&](auto pred) { return pred(in) || pred(out); };
  bool f8 = anyIs(isF8);
  bool f8Both = anyIs([](Type t) { return isa<Float8E4M3FNType>(t); }) &&
                anyIs([](Type t) { return isa<Float8E5M2Type>(t); });
  bool f16OrF32 =
      anyIs([](Type t) { return t.isF16() || t.isBF16() || t.isF32(); });
  if (in != out && f8 && !f8Both && !f16OrF32)
    return false;
  if (isS4(in) && !(out.isSignlessInteger(8) || out.isF16() || out.isBF16() ||
                    out.isF32() || out.isF64()))
    return false;
  if (isS4(out))
    return false;
  return isTritonSupportedType(in) && isTritonSupportedType(out);
}

bool mlir::hlo::isTritonSupportedInstruction(Operation *op,
                                             SymbolTableCollection &tables) {
  if (auto fusion = dyn_cast<FusionOp>(op)) {
    auto comp = tables.lookupNearestSymbolFrom<ComputationOp>(
        fusion, fusion.getCallsAttr().getAttr());
    if (!comp || comp.getBody().empty())
      return false;
    return llvm::all_of(comp.getBody().front().without_terminator(),
                        [&](Operation &inner) {
                          return isTritonSupportedInstruction(&inner, tables);
                        });
  }
  if (op->getNumResults() != 1)
    return false;
  Type out = elementOf(op->getResult(0).getType());
  OperandRange operands = getDataOperands(op);
  if (auto convert = dyn_cast<ConvertOp>(op))
    return isSupportedConversion(out, elementOf(operands[0].getType()));
  if (!isTritonSupportedType(out) || !llvm::all_of(operands, [](Value v) {
        return isTritonSupportedType(v.getType());
      }))
    return false;
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    auto type = dyn_cast<RankedTensorType>(constant.getType());
    return !isS4(out) && type && type.hasStaticShape() &&
           type.getNumElements() == 1;
  }
  if (isa<IotaOp>(op))
    return !isF8(out) && !isS4(out);
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    if (isF8(out) || numReducedArrays(reduce) != 1 ||
        reduce.getDimensions().size() != 1)
      return false;
    auto reducer = tables.lookupNearestSymbolFrom<ComputationOp>(
        reduce, reduce.getToApplyAttr().getAttr());
    if (!reducer || reducer.getBody().empty())
      return false;
    return llvm::all_of(reducer.getBody().front().without_terminator(),
                        [&](Operation &inner) {
                          return isTritonSupportedInstruction(&inner, tables);
                        });
  }
  if (auto pad = dyn_cast<PadOp>(op)) {
    // Only high padding, and not a no-op.
    PaddingAttr padding = pad.getPadding();
    bool noOp = true;
    for (int64_t d = 0, e = padding.getLow().size(); d < e; ++d) {
      if (padding.getLow()[d] != 0 || padding.getInterior()[d] != 0)
        return false;
      noOp = noOp && padding.getHigh()[d] == 0;
    }
    return !noOp && !isS4(out);
  }
  if (auto bitcast = dyn_cast<BitcastOp>(op)) {
    auto in = dyn_cast<RankedTensorType>(operands[0].getType());
    auto res = dyn_cast<RankedTensorType>(bitcast.getType());
    return in && res && in.hasStaticShape() && res.hasStaticShape() &&
           in.getNumElements() == res.getNumElements() && !isS4(out);
  }
  if (isa<BroadcastOp, ReshapeOp, SliceOp, TransposeOp>(op))
    return !isS4(out);
  if (isElementwise(op) && !isa<MapOp>(op) && !operands.empty())
    return isSupportedElementwise(op, elementOf(operands.back().getType()));
  return false;
}

bool mlir::hlo::isTritonFusion(Operation *op) {
  auto fusion = dyn_cast<FusionOp>(op);
  if (!fusion || fusion.getKind() != FusionKind::kCustom)
    return false;
  auto config = readBackendConfig(fusion);
  if (!config)
    return false;
  std::optional<StringRef> kind = config.getFusionKind();
  return kind && *kind == kTritonFusionKind;
}

bool mlir::hlo::isTritonRowReduction(ReduceOp reduce,
                                     SymbolTableCollection &tables,
                                     FusedValueResolver resolve) {
  if (numReducedArrays(reduce) != 1 || reduce.getDimensions().size() != 1 ||
      !isTritonSupportedInstruction(reduce, tables))
    return false;
  auto in = dyn_cast<RankedTensorType>(reduce.getInputs()[0].getType());
  if (!in || in.getRank() == 0 || reduce.getDimensions()[0] != in.getRank() - 1)
    return false;
  // The init: a constant or a supported convert of one.
  auto outside = [&](Value v) { return resolve ? resolve(v) : v; };
  Operation *init = outside(reduce.getInputs()[1]).getDefiningOp();
  if (auto convert = dyn_cast_or_null<ConvertOp>(init))
    return isa_and_nonnull<ConstantOp>(
               outside(getDataOperands(convert)[0]).getDefiningOp()) &&
           isTritonSupportedInstruction(convert, tables);
  return isa_and_nonnull<ConstantOp>(init);
}

/// The dimensions of `type` other than unit ones.
static SmallVector<int64_t> nonUnitDims(Type type) {
  SmallVector<int64_t> dims;
  for (int64_t d : cast<RankedTensorType>(type).getShape())
    if (d != 1)
      dims.push_back(d);
  return dims;
}

/// The elements of one row tile of `type`: its minor dimension padded to a
/// power of two.
static int64_t paddedRow(Type type) {
  auto ranked = cast<RankedTensorType>(type);
  if (ranked.getRank() == 0)
    return 1;
  return static_cast<int64_t>(
      llvm::PowerOf2Ceil(std::max<int64_t>(1, ranked.getShape().back())));
}

bool mlir::hlo::canTileTritonNormalization(ArrayRef<Operation *> ops,
                                           SymbolTableCollection &tables,
                                           int64_t maxTileElements,
                                           FusedValueResolver resolve) {
  for (Operation *op : ops) {
    if (hasControlPredecessors(op) || op->getNumResults() != 1)
      return false;
    auto arrayOk = [&](Value v) {
      return hasDefaultLayout(v.getType()) &&
             paddedRow(v.getType()) <= maxTileElements;
    };
    if (!arrayOk(op->getResult(0)) ||
        !llvm::all_of(getDataOperands(op), arrayOk))
      return false;
    if (!isTritonSupportedInstruction(op, tables))
      return false;
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      if (!isTritonRowReduction(reduce, tables, resolve))
        return false;
      continue;
    }
    if (isa<ReshapeOp, BitcastOp>(op)) {
      // Tiles are whole rows: rows must map to rows, as when only unit
      // dimensions come or go, or the minor dimension stays (the others
      // regrouped, as the dot dimension merger's batch reshapes do).
      auto in = cast<RankedTensorType>(getDataOperands(op)[0].getType());
      auto res = cast<RankedTensorType>(op->getResult(0).getType());
      bool sameRows = in.getRank() && res.getRank() &&
                      in.getShape().back() == res.getShape().back();
      if (!sameRows && nonUnitDims(res) != nonUnitDims(in))
        return false;
      continue;
    }
    if (auto slice = dyn_cast<SliceOp>(op)) {
      // The row must stay whole.
      auto in = cast<RankedTensorType>(getDataOperands(op)[0].getType());
      auto res = cast<RankedTensorType>(slice.getType());
      if (in.getRank() && in.getShape().back() != res.getShape().back())
        return false;
      continue;
    }
    if (isa<TransposeOp, PadOp>(op))
      return false;
  }
  return true;
}

/// XLA's GetNumWarps for a tile of `elements` elements.
static int64_t numWarpsForTile(int64_t elements) {
  if (elements <= 512)
    return 1;
  if (elements <= 1024)
    return 2;
  if (elements <= 16384)
    return 4;
  if (elements <= 32768)
    return 8;
  if (elements <= 65536)
    return 16;
  return 32;
}

Attribute mlir::hlo::getTritonFusionConfig(MLIRContext *ctx, Type rootType,
                                           bool reducedRoot) {
  auto ranked = cast<RankedTensorType>(rootType);
  std::string sizes;
  int64_t rank = ranked.getRank();
  int64_t row = reducedRoot ? 1 : paddedRow(rootType);
  for (int64_t d = 0; d < rank; ++d) {
    if (d)
      sizes += ",";
    sizes += "\"" + std::to_string(d + 1 == rank ? row : 1) + "\"";
  }
  std::string json =
      (Twine("{\"operation_queue_id\":\"0\",\"wait_on_operation_queues\":[],") +
       "\"fusion_backend_config\":{\"kind\":\"" + kTritonFusionKind +
       "\",\"block_level_fusion_config\":{\"num_warps\":\"" +
       Twine(numWarpsForTile(row)) + "\",\"output_tiles\":[{\"sizes\":[" +
       sizes +
       "]}],\"num_ctas\":1,\"num_stages\":1,\"is_tma_allowed\":false,"
       "\"is_warp_specialization_allowed\":false,\"waves_per_eu\":0}},"
       "\"force_earliest_schedule\":false}")
          .str();
  Attribute config = BackendConfigAttr::parseJson(ctx, json);
  return config ? config : StringAttr::get(ctx, json);
}
