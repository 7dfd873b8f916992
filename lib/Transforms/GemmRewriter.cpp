//===- GemmRewriter.cpp - dots into cuBLAS GEMM custom calls --------------===//
//
// XLA's GemmRewriter (non-fp8 part). Each computation is visited once in
// program order, so a consumer is seen after the GEMM it reads:
//   - a `dot` XLA hands to cuBLAS becomes a custom call `__cublas$lt$matmul`
//     (or `__cublas$gemm`) with an array result for now, its backend_config
//     a GpuBackendConfig whose gemm_backend_config has alpha = 1, beta = 0,
//     the dot's dimension numbers and precision, epilogue DEFAULT, the
//     per-batch strides of both operands and grad_x / grad_y from the dot's
//     frontend attributes;
//   - `gemm * broadcast(constant c)` multiplies alpha by c (beta 0, default
//     epilogue, the GEMM and the broadcast read once);
//   - on cuBLASLt, `gemm + broadcast(v)` with v along the result's minor
//     (column) dimensions appends v as an operand, epilogue BIAS;
//   - `gemm + C` (C no broadcast) inserts C as operand 2 with beta = 1, the
//     result aliased to C when the GEMM is legacy cuBLAS or C may be
//     overwritten (no other reader and not an entry parameter without an
//     input/output alias); a legacy GEMM whose C may not be overwritten
//     keeps the add. With fold-beta-multiply, `C = X * broadcast(b)` read
//     once gives operand X and beta = b (seed 002's form);
//   - on cuBLASLt, `max(gemm, broadcast(0))` sets epilogue RELU (BIAS_RELU
//     after a bias), and XLA's approximate GELU `x * 0.5 * (1 + tanh(
//     sqrt(2/pi) * (x + 0.044715 * x * (x * x))))` of the GEMM's result x
//     sets GELU (BIAS_GELU);
//   - the adds and the GELU also fold through a bitcast of the GEMM's
//     result (the batch-shaped view of a rank-2 GEMM), as XLA's do: a
//     matrix addend is bitcast to the GEMM's shape, a vector bias must run
//     along the minor dimension both share; the result is bitcast back.
//     The bias and the GELU fold through a slice too (the rows
//     hlo-cublas-pad-for-gemms added; the bias along dimensions the slice
//     keeps whole), the slice moved after the fused GEMM, as XLA's do;
// A folded GEMM is re-created at the consumer's place (its new operand may
// be defined after the dot) and named `cublas-lt-matmul`, `cublas-gemm` or
// `cublas-batch-gemm`, as XLA names it. Last, every GEMM returns XLA's tuple
// (result, s8[workspace]) and its users read element 0. Everything is local
// to an instruction and its operands: one walk, linear in the module.
//
//===----------------------------------------------------------------------===//

#include "GemmRewriterF8.h"
#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "ReductionUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

#include <complex>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOGEMMREWRITER
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

static constexpr StringLiteral kGemmTarget = "__cublas$gemm";
static constexpr StringLiteral kLtTarget = "__cublas$lt$matmul";

/// True if the first `numBatch` dimensions of `type` are its most major
/// ones, in order (what the strides of the backend config assume).
static bool batchDimsMajor(RankedTensorType type, int64_t numBatch) {
  SmallVector<int64_t> order = getMinorToMajor(type);
  if (static_cast<int64_t>(order.size()) != type.getRank())
    return false;
  for (int64_t i = 0; i < numBatch; ++i)
    if (order[order.size() - 1 - i] != i)
      return false;
  return true;
}

/// The dot algorithms a cuBLAS GEMM computes (XLA's
/// IsSupportedByCublasOrCublasLt, but the multi-pass ones, which
/// hlo-dot-algorithm-rewriter splits first).
static bool isCublasAlgorithm(DotAlgorithm algorithm) {
  switch (algorithm) {
  case DotAlgorithm::Unset:
  case DotAlgorithm::DotAnyF8AnyF8F32:
  case DotAlgorithm::DotAnyF8AnyF8F32FastAccum:
  case DotAlgorithm::DotBF16BF16F32:
  case DotAlgorithm::DotF16F16F32:
  case DotAlgorithm::DotF32F32F32:
  case DotAlgorithm::DotF64F64F64:
  case DotAlgorithm::DotTF32TF32F32:
    return true;
  default:
    return false;
  }
}

/// XLA's two fp8 algorithms (the second with cuBLASLt's fast
/// accumulation), which only the fp8 GEMM computes.
static bool isFp8Algorithm(DotAlgorithm algorithm) {
  return algorithm == DotAlgorithm::DotAnyF8AnyF8F32 ||
         algorithm == DotAlgorithm::DotAnyF8AnyF8F32FastAccum;
}

static DotAlgorithm algorithmOf(DotOp dot) {
  return dot.getAlgorithm().value_or(DotAlgorithm::Unset);
}

/// The (lhs, rhs, result) element types of a GEMM cuBLAS runs (XLA's
/// IsMatrixMultiplication types, narrowed to the combinations of its
/// cuBLAS and cuBLASLt tables; fp8 has its own rewrite, not here).
static bool typesSupported(Type a, Type b, Type out) {
  if (a != b)
    return false;
  if (isSignedInt(a, 8))
    return isSignedInt(out, 32) || out.isF32();
  if (a.isF16() || a.isBF16())
    return out == a || out.isF32();
  if (a.isF32() || a.isF64())
    return out == a;
  if (auto c = dyn_cast<ComplexType>(a))
    return out == a &&
           (c.getElementType().isF32() || c.getElementType().isF64());
  return false;
}

/// XLA's SupportsEpilogueFusion: result types with cuBLASLt epilogues.
static bool supportsEpilogue(Type t) {
  return t.isF16() || t.isBF16() || t.isF32() || t.isF64() ||
         isa<Float8E4M3FNType, Float8E5M2Type>(t);
}

/// The value of `v` if it is `broadcast(constant scalar)`.
static std::optional<std::complex<double>> broadcastScalar(Value v) {
  auto bcast = v.getDefiningOp<BroadcastOp>();
  if (!bcast)
    return std::nullopt;
  auto cst = bcast.getOperand().getDefiningOp<ConstantOp>();
  auto dense = cst ? dyn_cast<DenseElementsAttr>(cst.getValue()) : nullptr;
  if (!dense || dense.getNumElements() != 1 ||
      cast<ShapedType>(dense.getType()).getRank() != 0)
    return std::nullopt;
  Type et = dense.getElementType();
  if (isa<FloatType>(et))
    return std::complex<double>(
        (*dense.value_begin<APFloat>()).convertToDouble(), 0.0);
  if (isa<ComplexType>(et)) {
    std::complex<APFloat> c = *dense.value_begin<std::complex<APFloat>>();
    return std::complex<double>(c.real().convertToDouble(),
                                c.imag().convertToDouble());
  }
  if (auto it = dyn_cast<IntegerType>(et)) {
    APInt i = *dense.value_begin<APInt>();
    return std::complex<double>(it.isUnsigned() ? double(i.getZExtValue())
                                                : double(i.getSExtValue()),
                                0.0);
  }
  return std::nullopt;
}

/// True if `v` is a broadcast scalar constant equal to `value` rounded to
/// its floating-point type.
static bool isBroadcastOf(Value v, double value) {
  std::optional<std::complex<double>> c = broadcastScalar(v);
  auto ft = dyn_cast<FloatType>(getElementTypeOrSelf(v.getType()));
  if (!c || c->imag() != 0 || !ft)
    return false;
  APFloat expected(value);
  bool lost;
  expected.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
  return expected.convertToDouble() == c->real();
}

/// True if `v` is `Op(a, b)` or `Op(b, a)` with `match(a, b)`, `v` read once.
template <typename Op, typename Match>
static bool isBinaryOf(Value v, Match match) {
  auto op = v.getDefiningOp<Op>();
  return op && v.hasOneUse() && !hasControlPredecessors(op) &&
         (match(op.getLhs(), op.getRhs()) || match(op.getRhs(), op.getLhs()));
}

/// XLA's approximate GELU cdf of `x` (the tanh form; `x^3` as `x * (x * x)`),
/// every intermediate read once.
static bool isApproximateGeluCdf(Value cdf, Value x) {
  auto square = [&](Value a, Value b) { return a == x && b == x; };
  auto cube = [&](Value a, Value sq) {
    return a == x && isBinaryOf<MulOp>(sq, square);
  };
  auto scaledCube = [&](Value c, Value x3) {
    return isBroadcastOf(c, 0.044715) && isBinaryOf<MulOp>(x3, cube);
  };
  auto inner = [&](Value a, Value t) {
    return a == x && isBinaryOf<MulOp>(t, scaledCube);
  };
  auto scaled = [&](Value k, Value sum) {
    return isBroadcastOf(k, std::sqrt(M_2_PI)) && isBinaryOf<AddOp>(sum, inner);
  };
  auto onePlusTanh = [&](Value one, Value t) {
    auto tanh = t.getDefiningOp<TanhOp>();
    return isBroadcastOf(one, 1.0) && tanh && t.hasOneUse() &&
           !hasControlPredecessors(tanh) &&
           isBinaryOf<MulOp>(tanh.getOperand(), scaled);
  };
  return isBinaryOf<MulOp>(cdf, [&](Value half, Value sum) {
    return isBroadcastOf(half, 0.5) && isBinaryOf<AddOp>(sum, onePlusTanh);
  });
}

static int64_t byteSize(Type type) {
  auto rt = cast<RankedTensorType>(type);
  Type et = rt.getElementType();
  int64_t bits = 0;
  if (auto c = dyn_cast<ComplexType>(et))
    bits = 2 * c.getElementType().getIntOrFloatBitWidth();
  else
    bits = et.getIntOrFloatBitWidth();
  return rt.getNumElements() * std::max<int64_t>(1, (bits + 7) / 8);
}

namespace {
struct GemmRewriterPass
    : ChangeReportingPass<GemmRewriterPass, hlo::impl::HloGemmRewriterBase> {
  using ChangeReportingPass::ChangeReportingPass;

  /// The GEMMs created so far, with their array results.
  llvm::SetVector<Operation *> gemms;
  ModuleOp module;
  /// fp8 GEMMs that write the amax of their result: the reduce computing
  /// it from the GEMM they replaced (both erased with the workspace).
  llvm::DenseMap<Operation *, std::pair<ReduceOp, Operation *>> amaxOf;
  /// cuBLASLt's fp8 GEMMs (Ada on), and their operands as they are
  /// (Blackwell; before it, both contracting dimensions most minor).
  bool fp8Gemms = false, blackwell = false;

  void run() {
    module = getOperation();
    const GpuDeviceInfo &gpu = getSelectedGpuDevice();
    fp8Gemms =
        gpu.computeCapabilityMajor * 10 + gpu.computeCapabilityMinor >= 89;
    blackwell = gpu.computeCapabilityMajor >= 10;
    for (ComputationOp comp : nonFusionComputations(module)) {
      gemms.clear();
      amaxOf.clear();
      for (Block &block : comp.getBody())
        for (Operation &op : llvm::make_early_inc_range(block))
          visit(&op, comp);
      for (Operation *gemm : gemms)
        addWorkspace(cast<CustomCallOp>(gemm));
    }
  }

  void visit(Operation *op, ComputationOp comp) {
    if (hasControlPredecessors(op) || isControlPredecessor(op))
      return;
    if (auto dot = dyn_cast<DotOp>(op))
      rewriteDot(dot);
    else if (auto mul = dyn_cast<MulOp>(op)) {
      if (!foldGelu(mul) && !foldAlpha(mul))
        foldScaleD(mul);
    } else if (isa<DivOp>(op))
      foldScaleD(op);
    else if (auto convert = dyn_cast<ConvertOp>(op))
      foldConvertD(convert);
    else if (auto add = dyn_cast<AddOp>(op))
      foldAdd(add, comp);
    else if (auto max = dyn_cast<MaxOp>(op))
      foldRelu(max);
  }

  //===--- The dot --------------------------------------------------------===//

  /// True if cuBLAS runs `dot` (of a shape XLA hands to it, element types
  /// cuBLAS multiplies).
  bool isGemm(DotOp dot) {
    if (!isGemmShape(dot))
      return false;
    Type a = getElementTypeOrSelf(dot.getLhs().getType());
    Type b = getElementTypeOrSelf(dot.getRhs().getType());
    return !isF8(a) && !isF8(b) && !isFp8Algorithm(algorithmOf(dot)) &&
           typesSupported(a, b, getElementTypeOrSelf(dot.getType()));
  }

  /// True if `dot` has a shape XLA hands to cuBLAS (not to another
  /// emitter), whatever its element types.
  bool isGemmShape(DotOp dot) {
    if (!isDenseStaticDot(dot))
      return false;
    DotAlgorithm algorithm = dot.getAlgorithm().value_or(DotAlgorithm::Unset);
    if (!isCublasAlgorithm(algorithm))
      return false;
    auto lt = cast<RankedTensorType>(dot.getLhs().getType());
    auto rt = cast<RankedTensorType>(dot.getRhs().getType());
    auto ot = dyn_cast<RankedTensorType>(dot.getType());
    if (!ot)
      return false;
    ArrayRef<int64_t> lb = orEmpty(dot.getLhsBatchDims());
    ArrayRef<int64_t> rb = orEmpty(dot.getRhsBatchDims());
    ArrayRef<int64_t> lc = orEmpty(dot.getLhsContractingDims());
    ArrayRef<int64_t> rc = orEmpty(dot.getRhsContractingDims());
    int64_t nb = lb.size();
    if (lc.size() != 1 || rc.size() != 1 ||
        static_cast<int64_t>(rb.size()) != nb)
      return false;
    // IsMatrixMultiplication / IsMatrixVectorMultiplication.
    int64_t lr = lt.getRank() - nb, rr = rt.getRank() - nb,
            orr = ot.getRank() - nb;
    bool matmul = lr == 2 && rr == 2 && orr == 2;
    bool matvec = ((lr == 2 && rr == 1) || (lr == 1 && rr == 2)) && orr == 1;
    if (!matmul && !matvec)
      return false;
    if (lt.getNumElements() == 0 || rt.getNumElements() == 0)
      return false;
    // The batch dimensions lead and are most major (as XLA's dot
    // canonicalization and layout assignment make them).
    for (int64_t i = 0; i < nb; ++i)
      if (lb[i] != i || rb[i] != i)
        return false;
    if (!batchDimsMajor(lt, nb) || !batchDimsMajor(rt, nb) ||
        !batchDimsMajor(ot, nb))
      return false;
    // Tiny dots stay with the classical emitters (float results), but for
    // an algorithm those do not implement (XLA's
    // IsSupportedByElementalIrEmitter: none or dot_f32_f32_f32).
    int64_t k = lt.getDimSize(lc[0]);
    int64_t lFree = 1, rFree = 1;
    for (int64_t d = nb; d < lt.getRank(); ++d)
      if (d != lc[0])
        lFree *= lt.getDimSize(d);
    for (int64_t d = nb; d < rt.getRank(); ++d)
      if (d != rc[0])
        rFree *= rt.getDimSize(d);
    Type oe = ot.getElementType();
    bool elemental = algorithm == DotAlgorithm::Unset ||
                     algorithm == DotAlgorithm::DotF32F32F32;
    if (elemental && (lFree + rFree) * k < sizeThreshold &&
        (oe.isF16() || oe.isF32() || oe.isBF16()))
      return false;
    // A rank-2 transpose operand waits for transpose folding.
    for (Value v : {dot.getLhs(), dot.getRhs()})
      if (auto tr = v.getDefiningOp<TransposeOp>())
        if (tr.getDimensions() == ArrayRef<int64_t>{1, 0})
          return false;
    return true;
  }

  /// XLA's GpuBackendConfig of the GEMM of `dot` (alpha 1, beta 0, the
  /// default epilogue), its contracting dimensions `lc` and `rc` and
  /// batch strides those of matrices `lt` and `rt`, keeping the dot's
  /// queue and scheduling members.
  BackendConfigAttr gemmConfig(DotOp dot, RankedTensorType lt,
                               RankedTensorType rt, ArrayRef<int64_t> lc,
                               ArrayRef<int64_t> rc, bool fp8) {
    MLIRContext *ctx = dot.getContext();
    Builder b(ctx);
    int64_t nb = orEmpty(dot.getLhsBatchDims()).size();
    auto stride = [&](RankedTensorType t) {
      int64_t s = t.getDimSize(nb);
      if (t.getRank() == nb + 2)
        s *= t.getDimSize(nb + 1);
      return s;
    };
    auto flag = [&](StringRef key) {
      if (DictionaryAttr fa = dot.getFrontendAttributesAttr())
        if (auto s = dyn_cast_or_null<StringAttr>(fa.get(key)))
          return s.getValue() == "true";
      return false;
    };
    SmallVector<Attribute> precision;
    if (ArrayAttr p = dot.getOperandPrecisionAttr())
      for (Attribute a : p)
        precision.push_back(b.getStringAttr(
            stringifyPrecision(cast<PrecisionAttr>(a).getValue()).upper()));
    while (precision.size() < 2)
      precision.push_back(b.getStringAttr("DEFAULT"));
    auto i64 = [&](int64_t v) { return b.getI64IntegerAttr(v); };
    auto dnums = BackendConfigAttr::get(
        ctx, BackendConfigMessage::DotDimensionNumbers,
        {b.getNamedAttr("lhs_contracting_dimensions",
                        b.getDenseI64ArrayAttr(lc)),
         b.getNamedAttr("rhs_contracting_dimensions",
                        b.getDenseI64ArrayAttr(rc)),
         b.getNamedAttr("lhs_batch_dimensions",
                        b.getDenseI64ArrayAttr(orEmpty(dot.getLhsBatchDims()))),
         b.getNamedAttr("rhs_batch_dimensions", b.getDenseI64ArrayAttr(orEmpty(
                                                    dot.getRhsBatchDims())))});
    // A bf16 algorithm is in the operands' type (converted to bf16 by
    // rewriteDot); the others stay for the runtime (TF32, strict f32).
    DotAlgorithm algorithm = dot.getAlgorithm().value_or(DotAlgorithm::Unset);
    std::string algorithmName =
        algorithm == DotAlgorithm::DotBF16BF16F32
            ? "ALG_UNSET"
            : "ALG_" + stringifyDotAlgorithm(algorithm).upper();
    auto prec = BackendConfigAttr::get(
        ctx, BackendConfigMessage::PrecisionConfig,
        {b.getNamedAttr("operand_precision", b.getArrayAttr(precision)),
         b.getNamedAttr("algorithm", b.getStringAttr(algorithmName))});
    // XLA 0.10.2 writes scale_mode 1 (per-tensor scales) on fp8 GEMMs.
    auto gemmConfig = BackendConfigAttr::get(
        ctx, BackendConfigMessage::GemmBackendConfig,
        {b.getNamedAttr("alpha_real", b.getF64FloatAttr(1)),
         b.getNamedAttr("beta", b.getF64FloatAttr(0)),
         b.getNamedAttr("dot_dimension_numbers", dnums),
         b.getNamedAttr("alpha_imag", b.getF64FloatAttr(0)),
         b.getNamedAttr("precision_config", prec),
         b.getNamedAttr("epilogue", b.getStringAttr("DEFAULT")),
         b.getNamedAttr("lhs_stride", i64(stride(lt))),
         b.getNamedAttr("rhs_stride", i64(stride(rt))),
         b.getNamedAttr("grad_x", b.getBoolAttr(flag("grad_x"))),
         b.getNamedAttr("grad_y", b.getBoolAttr(flag("grad_y"))),
         b.getNamedAttr("damax_output", b.getBoolAttr(false)),
         b.getNamedAttr("autotune_workspace_size", TextAttr::get(ctx, "\"0\"")),
         b.getNamedAttr("scale_mode", TextAttr::get(ctx, fp8 ? "1" : "0"))});
    // GpuBackendConfig, keeping the dot's queue and scheduling members.
    auto old = readBackendConfig(dot.getBackendConfigAttr());
    if (old && old.getMessage() != BackendConfigMessage::Root)
      old = nullptr;
    Attribute queue = old ? old.getMember("operation_queue_id") : nullptr;
    Attribute early = old ? old.getMember("force_earliest_schedule") : nullptr;
    SmallVector<NamedAttribute> root = {
        b.getNamedAttr("operation_queue_id", queue ? queue : i64(0))};
    if (Attribute wait =
            old ? old.getMember("wait_on_operation_queues") : nullptr)
      root.push_back(b.getNamedAttr("wait_on_operation_queues", wait));
    root.push_back(b.getNamedAttr("gemm_backend_config", gemmConfig));
    root.push_back(b.getNamedAttr("force_earliest_schedule",
                                  early ? early : b.getBoolAttr(false)));
    root.push_back(
        b.getNamedAttr("reification_cost", TextAttr::get(ctx, "[]")));
    root.push_back(b.getNamedAttr(
        "device_type", TextAttr::get(ctx, "\"DEVICE_TYPE_INVALID\"")));
    return BackendConfigAttr::get(ctx, BackendConfigMessage::Root, root);
  }

  /// The new GEMM `call` in place of `dot` (its frontend attributes and
  /// sharding carried over), read through `result`.
  void replaceDot(DotOp dot, Operation *call, Value result) {
    if (DictionaryAttr fa = dot.getFrontendAttributesAttr())
      call->setAttr("frontend_attributes", fa);
    if (Attribute sharding = dot->getAttr("sharding"))
      call->setAttr("sharding", sharding);
    dot.getResult().replaceAllUsesWith(result);
    dot.erase();
    ++numGemms;
    changed = true;
  }

  void rewriteDot(DotOp dot) {
    if (rewriteFp8Dot(dot) || computeFp8DotInF16(dot) || !isGemm(dot))
      return;
    MLIRContext *ctx = dot.getContext();
    Builder b(ctx);
    // dot_bf16_bf16_f32 of f32 operands multiplies them rounded to bf16
    // (XLA's converts before the GEMM).
    if (dot.getAlgorithm() == DotAlgorithm::DotBF16BF16F32 &&
        getElementTypeOrSelf(dot.getLhs().getType()).isF32()) {
      OpBuilder before(dot);
      for (OpOperand *operand : {&dot.getLhsMutable(), &dot.getRhsMutable()})
        operand->set(createInstruction(before, derivedLoc(dot.getLoc()),
                                       ConvertOp::getOperationName(),
                                       withElementType(operand->get().getType(),
                                                       b.getBF16Type()),
                                       {operand->get()})
                         ->getResult(0));
    }
    BackendConfigAttr config =
        gemmConfig(dot, cast<RankedTensorType>(dot.getLhs().getType()),
                   cast<RankedTensorType>(dot.getRhs().getType()),
                   orEmpty(dot.getLhsContractingDims()),
                   orEmpty(dot.getRhsContractingDims()), /*fp8=*/false);
    OpBuilder builder(dot);
    bool useLt = enableCublasLt && batchCount(dot) <= 65535;
    Operation *call = createGemm(
        builder,
        NameLoc::get(b.getStringAttr("custom-call"), derivedLoc(dot.getLoc())),
        useLt ? kLtTarget : kGemmTarget, dot.getType(),
        {dot.getLhs(), dot.getRhs()}, config, /*alias=*/false);
    replaceDot(dot, call, call->getResult(0));
  }

  //===--- fp8 ------------------------------------------------------------===//

  /// A dot of fp8 operands (or of their dequantized values) as cuBLASLt's
  /// fp8 GEMM `__cublas$lt$matmul$f8` (A, B, a_scale, b_scale): XLA's
  /// CreateF8CustomCall, from Ada on.
  bool rewriteFp8Dot(DotOp dot) {
    if (!fp8Gemms || !isGemmShape(dot) ||
        (algorithmOf(dot) != DotAlgorithm::Unset &&
         !isFp8Algorithm(algorithmOf(dot))))
      return false;
    auto lt = cast<RankedTensorType>(dot.getLhs().getType());
    auto rt = cast<RankedTensorType>(dot.getRhs().getType());
    auto ot = cast<RankedTensorType>(dot.getType());
    int64_t nb = orEmpty(dot.getLhsBatchDims()).size();
    if (lt.getRank() != nb + 2 || rt.getRank() != nb + 2 ||
        batchCount(dot) > 65535)
      return false;
    // The dot as written is one cuBLASLt multiplies: of fp8 operands, or
    // of their dequantized values.
    Type a = lt.getElementType(), b = rt.getElementType(),
         out = ot.getElementType();
    if (!(isF8(a) && isF8(b)) && !typesSupported(a, b, out))
      return false;
    bool spmd = getDeviceCounts(dot->getParentOfType<ModuleOp>()).second > 1;
    std::optional<Fp8Operand> x = matchFp8Operand(dot.getLhs(), spmd);
    std::optional<Fp8Operand> y = matchFp8Operand(dot.getRhs(), spmd);
    if (!x || !y ||
        !fp8TypesSupported(getElementTypeOrSelf(x->fp8.getType()),
                           getElementTypeOrSelf(y->fp8.getType()), out))
      return false;
    OpBuilder builder(dot);
    Location loc = dot.getLoc();
    int64_t lc = orEmpty(dot.getLhsContractingDims())[0];
    int64_t rc = orEmpty(dot.getRhsContractingDims())[0];
    Value one;
    Value av = buildFp8Operand(builder, loc, *x, nb, lc, !blackwell);
    Value bv = buildFp8Operand(builder, loc, *y, nb, rc, !blackwell);
    Value as = buildFp8Scale(builder, loc, x->scale, x->divide, one);
    Value bs = buildFp8Scale(builder, loc, y->scale, y->divide, one);
    auto at = cast<RankedTensorType>(av.getType());
    auto bt = cast<RankedTensorType>(bv.getType());
    // The result as the padded operands give it, sliced back.
    SmallVector<int64_t> shape(ot.getShape());
    shape[nb] = at.getDimSize(lc == nb ? nb + 1 : nb);
    shape[nb + 1] = bt.getDimSize(rc == nb ? nb + 1 : nb);
    auto padded = RankedTensorType::get(shape, out, ot.getEncoding());
    Operation *call = createGemm(
        builder,
        NameLoc::get(builder.getStringAttr("cublas-gemm"), derivedLoc(loc)),
        kLtF8Target, padded, {av, bv, as, bs},
        gemmConfig(dot, at, bt, {lc}, {rc}, /*fp8=*/true), /*alias=*/false);
    Value result = call->getResult(0);
    if (padded != ot) {
      SmallVector<int64_t> starts(ot.getRank(), 0), strides(ot.getRank(), 1);
      result =
          createInstruction(
              builder,
              NameLoc::get(builder.getStringAttr("slice"), derivedLoc(loc)),
              SliceOp::getOperationName(), ot, {result},
              {builder.getNamedAttr("slice",
                                    SliceAttr::get(dot.getContext(), starts,
                                                   ot.getShape(), strides))})
              ->getResult(0);
    }
    replaceDot(dot, call, result);
    // The wide ops the fp8 operands replace, where nothing else reads them:
    // erased here, since a collective among them is no dead code to DCE.
    for (const Fp8Operand *operand : {&*x, &*y})
      for (auto [op, index] : llvm::reverse(operand->ops))
        if (op->use_empty() && !hasControlPredecessors(op) &&
            !isControlPredecessor(op))
          op->erase();
    return true;
  }

  /// XLA's TurnF8DotIntoF16Dot: a dot of an fp8 lhs that is no fp8 GEMM
  /// computes in f16 (bf16 for a bf16 result), its fp8 result converted
  /// from it; the new dot is then rewritten as any other.
  bool computeFp8DotInF16(DotOp dot) {
    Type out = getElementTypeOrSelf(dot.getType());
    if (!isF8(getElementTypeOrSelf(dot.getLhs().getType())) ||
        !isGemmShape(dot) || algorithmOf(dot) != DotAlgorithm::Unset)
      return false;
    OpBuilder builder(dot);
    Type wide =
        out.isBF16() ? Type(builder.getBF16Type()) : Type(builder.getF16Type());
    SmallVector<Value> operands;
    for (Value v : {dot.getLhs(), dot.getRhs()})
      operands.push_back(
          getElementTypeOrSelf(v.getType()) == wide
              ? v
              : createInstruction(builder, derivedLoc(dot.getLoc()),
                                  ConvertOp::getOperationName(),
                                  withElementType(v.getType(), wide), {v})
                    ->getResult(0));
    NamedAttrList attrs(dot->getAttrDictionary());
    attrs.erase("operandSegmentSizes");
    Type type =
        isF8(out) ? withElementType(dot.getType(), wide) : dot.getType();
    auto wider = cast<DotOp>(createInstruction(builder, dot.getLoc(),
                                               DotOp::getOperationName(), type,
                                               operands, attrs.getAttrs()));
    Value result = wider.getResult();
    if (isF8(out))
      result = createInstruction(builder, derivedLoc(dot.getLoc()),
                                 ConvertOp::getOperationName(), dot.getType(),
                                 {result})
                   ->getResult(0);
    dot.getResult().replaceAllUsesWith(result);
    dot.erase();
    changed = true;
    rewriteDot(wider);
    return true;
  }

  bool isFp8(CustomCallOp gemm) const {
    return gemm.getCustomCallTarget() == kLtF8Target;
  }

  /// fp8 GEMM * broadcast(s) or / broadcast(s), the GEMM's a_scale 1, no
  /// bias, epilogue DEFAULT or RELU: s (or 1 / s) becomes a_scale (XLA's
  /// F8ScaleD for results that stay wide).
  bool foldScaleD(Operation *op) {
    bool divide = isa<DivOp>(op);
    for (unsigned i : {0u, 1u}) {
      if (divide && i == 1)
        break;
      Value g = op->getOperand(i), s = op->getOperand(1 - i);
      CustomCallOp gemm = gemmOf(g);
      Value scale = broadcastScalarOperand(s);
      if (!gemm || !isFp8(gemm) || !scale || !s.hasOneUse())
        continue;
      BackendConfigAttr cfg = gemmConfigOf(gemm);
      StringRef epilogue = cfg.getString("epilogue").value_or("");
      if (cfg.getDouble("beta").value_or(0) != 0 ||
          (epilogue != "DEFAULT" && epilogue != "RELU") ||
          !isConstantOne(gemm->getOperand(2)))
        continue;
      OpBuilder builder(op);
      Value one;
      SmallVector<Value> operands(gemm->getOperands());
      operands[2] = buildFp8Scale(builder, op->getLoc(), scale, divide, one);
      refuse(op, gemm, operands, cfg, /*alias=*/false);
      return true;
    }
    return false;
  }

  /// convert(clamp(-max, fp8 GEMM [* or / broadcast(s)], max)) to an fp8
  /// type whose largest finite value is max: the GEMM writes the fp8
  /// result, d_scale (s, 1 / s or 1) appended (XLA's F8ConvertD; cuBLASLt
  /// saturates as the clamp does). The GEMM's one other reader may be
  /// XLA's amax of its result (F8AddDAmax), which the GEMM then also
  /// writes.
  void foldConvertD(ConvertOp convert) {
    Type to = getElementTypeOrSelf(convert.getType());
    double max = isa<Float8E4M3FNType>(to) ? 448 : 57344;
    auto clamp = convert.getOperand().getDefiningOp<ClampOp>();
    if (!isa<Float8E4M3FNType, Float8E5M2Type>(to) || !clamp ||
        !clamp->hasOneUse() || hasControlPredecessors(clamp) ||
        !isBroadcastOf(clamp.getMin(), -max) ||
        !isBroadcastOf(clamp.getMax(), max))
      return;
    Value x = clamp.getOperand(), scale;
    bool divide = false;
    Operation *chain = clamp; // the GEMM's reader on the way to the convert
    CustomCallOp gemm = createdGemm(x);
    if (!gemm && x.hasOneUse() &&
        isa_and_nonnull<MulOp, DivOp>(x.getDefiningOp()) &&
        !hasControlPredecessors(x.getDefiningOp())) {
      chain = x.getDefiningOp();
      divide = isa<DivOp>(chain);
      for (unsigned i : {0u, 1u}) {
        if (divide && i == 1)
          break;
        gemm = createdGemm(chain->getOperand(i));
        scale = broadcastScalarOperand(chain->getOperand(1 - i));
        if (gemm && scale && chain->getOperand(1 - i).hasOneUse())
          break;
        gemm = nullptr;
      }
    }
    if (!gemm || !isFp8(gemm))
      return;
    ReduceOp amax;
    for (Operation *user : gemm->getUsers())
      if (user != chain && (amax || !(amax = matchAmax(gemm, user, convert))))
        return;
    // After a matrix bias the fp8 result adds a bf16 or f16 C of its own
    // type (cuBLASLt's C apart from D), as XLA's.
    Type out = getElementTypeOrSelf(gemm.getType());
    BackendConfigAttr cfg = gemmConfigOf(gemm);
    Type c = cfg.getDouble("beta").value_or(0) != 0
                 ? getElementTypeOrSelf(gemm->getOperand(2).getType())
                 : Type();
    if (isF8(out) || (c && !c.isBF16() && !c.isF16()) ||
        !fp8TypesSupported(getElementTypeOrSelf(gemm->getOperand(0).getType()),
                           getElementTypeOrSelf(gemm->getOperand(1).getType()),
                           to))
      return;
    OpBuilder builder(convert);
    Value one;
    SmallVector<Value> operands(gemm->getOperands());
    operands.push_back(
        buildFp8Scale(builder, convert.getLoc(), scale, divide, one));
    if (amax)
      cfg = cfg.withMember("damax_output", builder.getBoolAttr(true));
    CustomCallOp fused = refuse(convert, gemm, operands, cfg, /*alias=*/false);
    if (amax)
      amaxOf[fused] = {amax, gemm};
  }

  /// A GEMM this pass created, whatever reads it.
  CustomCallOp createdGemm(Value v) {
    auto call = v.getDefiningOp<CustomCallOp>();
    return call && gemms.contains(call) ? call : nullptr;
  }

  /// XLA's amax of fp8 `gemm`'s result read by `user`: reduce(abs(gemm),
  /// c) over every dimension by maximum with a constant c <= 0 (or
  /// reduce(gemm, c) after a RELU epilogue), its readers after `after`
  /// (where the fused GEMM is created).
  ReduceOp matchAmax(CustomCallOp gemm, Operation *user, Operation *after) {
    StringRef epilogue = gemmConfigOf(gemm).getString("epilogue").value_or("");
    auto reduce = dyn_cast<ReduceOp>(user);
    if (auto abs = dyn_cast<AbsOp>(user)) {
      if (!abs->hasOneUse() || hasControlPredecessors(abs))
        return nullptr;
      reduce = dyn_cast<ReduceOp>(*abs->user_begin());
    } else if (epilogue != "RELU" && epilogue != "BIAS_RELU") {
      return nullptr;
    }
    if (!reduce || hasControlPredecessors(reduce) ||
        reduce.getInputs().size() != 2 ||
        int64_t(reduce.getDimensions().size()) !=
            cast<RankedTensorType>(gemm.getType()).getRank())
      return nullptr;
    auto init = reduce.getInputs()[1].getDefiningOp<ConstantOp>();
    auto dense = init ? dyn_cast<DenseElementsAttr>(init.getValue()) : nullptr;
    auto comp = module.lookupSymbol<ComputationOp>(reduce.getToApply());
    if (!dense || !isa<FloatType>(dense.getElementType()) ||
        dense.getNumElements() != 1 ||
        (*dense.value_begin<APFloat>()).convertToDouble() > 0 || !comp ||
        !isa_and_nonnull<MaxOp>(reducerOp(comp)))
      return nullptr;
    for (Operation *reader : reduce->getUsers())
      if (reader->getBlock() != after->getBlock() ||
          reader->isBeforeInBlock(after))
        return nullptr;
    return reduce;
  }

  static int64_t batchCount(DotOp dot) {
    ArrayRef<int64_t> lb = orEmpty(dot.getLhsBatchDims());
    if (lb.empty())
      return 0;
    auto lt = cast<RankedTensorType>(dot.getLhs().getType());
    int64_t n = 1;
    for (int64_t d : lb)
      n *= lt.getDimSize(d);
    return n;
  }

  Operation *createGemm(OpBuilder &builder, Location loc, StringRef target,
                        Type type, ValueRange operands,
                        BackendConfigAttr config, bool alias) {
    Builder b(builder.getContext());
    SmallVector<NamedAttribute> attrs = {
        b.getNamedAttr("custom_call_target", b.getStringAttr(target)),
        b.getNamedAttr("backend_config", config)};
    if (alias)
      attrs.push_back(b.getNamedAttr(
          "output_to_operand_aliasing",
          b.getArrayAttr(
              {OutputOperandAliasAttr::get(b.getContext(), {}, 2, {})})));
    Operation *call = createInstruction(
        builder, loc, CustomCallOp::getOperationName(), type, operands, attrs);
    gemms.insert(call);
    return call;
  }

  //===--- Folding consumers ----------------------------------------------===//

  /// The GEMM `v` is, if this pass created it and `v` is its only use.
  CustomCallOp gemmOf(Value v) {
    return v.hasOneUse() ? createdGemm(v) : nullptr;
  }

  static BackendConfigAttr configOf(CustomCallOp call) {
    return cast<BackendConfigAttr>(call.getBackendConfigAttr());
  }
  static BackendConfigAttr gemmConfigOf(CustomCallOp call) {
    return configOf(call).getGemmBackendConfig();
  }
  static CustomCallOp withGemmConfig(CustomCallOp call,
                                     BackendConfigAttr gemmConfig) {
    call.setBackendConfigAttr(
        configOf(call).withMember("gemm_backend_config", gemmConfig));
    return call;
  }
  bool isLt(CustomCallOp call) const {
    return call.getCustomCallTarget() == kLtTarget || isFp8(call);
  }
  static bool isIntegerResult(CustomCallOp call) {
    return isa<IntegerType>(
        cast<RankedTensorType>(call.getType()).getElementType());
  }

  /// Replaces `consumer` by a copy of `gemm` created at its place with
  /// `operands`, `gemmConfig` and XLA's name for a fused GEMM (bitcast or
  /// sliced to the consumer's shape when `consumer` reads `gemm` through
  /// `through`, a bitcast or a slice).
  CustomCallOp refuse(Operation *consumer, CustomCallOp gemm,
                      ValueRange operands, BackendConfigAttr gemmConfig,
                      bool alias, Operation *through = nullptr) {
    OpBuilder builder(consumer);
    MLIRContext *ctx = consumer->getContext();
    StringRef name = "cublas-lt-matmul";
    if (!isLt(gemm))
      name = gemmConfig.getSubConfig("dot_dimension_numbers")
                     .getInts("lhs_batch_dimensions")
                     .value_or(ArrayRef<int64_t>())
                     .empty()
                 ? "cublas-gemm"
                 : "cublas-batch-gemm";
    Location loc =
        NameLoc::get(StringAttr::get(ctx, name), derivedLoc(gemm.getLoc()));
    // Through a bitcast or slice (see foldAdd) the GEMM keeps its own
    // shape.
    Type type = consumer->getResult(0).getType();
    Type gemmType = through ? gemm.getType() : type;
    Operation *fused = createGemm(
        builder, loc, gemm.getCustomCallTarget(), gemmType, operands,
        configOf(gemm).withMember("gemm_backend_config", gemmConfig), alias);
    for (StringRef attr : {"frontend_attributes", "sharding"})
      if (Attribute a = gemm->getAttr(attr))
        fused->setAttr(attr, a);
    Value result = fused->getResult(0);
    if (through) {
      // The bitcast or slice again, now of the fused GEMM (the consumer's
      // type: the fold is elementwise).
      Operation *moved = builder.clone(*through);
      moved->setOperand(0, result);
      result = moved->getResult(0);
    }
    consumer->getResult(0).replaceAllUsesWith(result);
    gemms.remove(gemm);
    eraseWithDeadOperands(consumer);
    ++numFolded;
    changed = true;
    return cast<CustomCallOp>(fused);
  }

  /// gemm * broadcast(c) -> alpha *= c.
  bool foldAlpha(MulOp mul) {
    for (auto [g, s] : {std::pair(mul.getLhs(), mul.getRhs()),
                        std::pair(mul.getRhs(), mul.getLhs())}) {
      CustomCallOp gemm = gemmOf(g);
      std::optional<std::complex<double>> c = broadcastScalar(s);
      if (!gemm || !c || !s.hasOneUse() || isIntegerResult(gemm) ||
          hasControlPredecessors(s.getDefiningOp()))
        continue;
      BackendConfigAttr cfg = gemmConfigOf(gemm);
      // cuBLAS scales before the epilogue: only a plain GEMM takes alpha.
      if (cfg.getDouble("beta").value_or(0) != 0 ||
          cfg.getString("epilogue").value_or("DEFAULT") != "DEFAULT")
        continue;
      std::complex<double> alpha(cfg.getDouble("alpha_real").value_or(1),
                                 cfg.getDouble("alpha_imag").value_or(0));
      alpha *= *c;
      Builder b(mul.getContext());
      cfg = cfg.withMember("alpha_real", b.getF64FloatAttr(alpha.real()))
                .withMember("alpha_imag", b.getF64FloatAttr(alpha.imag()));
      withGemmConfig(gemm, cfg);
      mul.getResult().replaceAllUsesWith(gemm.getResult());
      eraseWithDeadOperands(mul);
      ++numFolded;
      changed = true;
      return true;
    }
    return false;
  }

  /// True if the GEMM may write its result over `c` (XLA's
  /// can_overwrite_bias): `c` has no other reader and is not a parameter,
  /// unless an entry parameter with an input/output alias.
  bool canOverwrite(Value c, ComputationOp comp) {
    if (!c.hasOneUse())
      return false;
    auto arg = dyn_cast<BlockArgument>(c);
    if (!arg)
      return true;
    if (!comp.getEntry())
      return false;
    auto aliases = module->getAttrOfType<ArrayAttr>("hlo.input_output_alias");
    if (!aliases)
      return false;
    return llvm::any_of(aliases, [&](Attribute a) {
      auto e = dyn_cast<InputOutputAliasAttr>(a);
      return e && e.getParameter() == arg.getArgNumber() &&
             e.getParameterIndex().empty();
    });
  }

  /// gemm + x, or bitcast(gemm) + x and slice(gemm) + x as XLA also takes
  /// them: the bitcast between a batch-shaped result and the GEMM's rank-2
  /// one (a vector bias along the minor dimension both share; a matrix
  /// bias bitcast to the GEMM's shape), the slice of the rows
  /// hlo-cublas-pad-for-gemms added (a vector bias along dimensions it
  /// keeps whole), the GEMM's result bitcast or sliced after it.
  void foldAdd(AddOp add, ComputationOp comp) {
    for (auto [g, c] : {std::pair(add.getLhs(), add.getRhs()),
                        std::pair(add.getRhs(), add.getLhs())}) {
      CustomCallOp gemm = gemmOf(g);
      Operation *through = nullptr;
      if (!gemm) {
        through = g.getDefiningOp();
        if (!isa_and_nonnull<BitcastOp, SliceOp>(through) || !g.hasOneUse() ||
            hasControlPredecessors(through))
          continue;
        gemm = gemmOf(through->getOperand(0));
        if (!gemm)
          continue;
      }
      auto slice = dyn_cast_or_null<SliceOp>(through);
      if (auto bcast = c.getDefiningOp<BroadcastOp>()) {
        SmallVector<int64_t> dims(orEmpty(bcast.getDimensions()));
        if (slice ? !keepsWhole(slice, dims)
                  : through && !biasDimsThroughBitcast(cast<BitcastOp>(through),
                                                       gemm, dims))
          continue;
        if (foldVectorBias(add, gemm, bcast, dims, through))
          return;
        continue;
      }
      if (slice)
        continue;
      if (!through) {
        if (foldMatrixBias(add, gemm, c, comp))
          return;
        continue;
      }
      if (c.getType() != g.getType())
        continue;
      OpBuilder builder(add);
      Operation *cast =
          createInstruction(builder, c.getLoc(), BitcastOp::getOperationName(),
                            gemm.getType(), {c});
      if (foldMatrixBias(add, gemm, cast->getResult(0), comp, through))
        return;
      cast->erase();
    }
  }

  /// True if `slice` has unit strides and keeps dimensions `dims` whole.
  static bool keepsWhole(SliceOp slice, ArrayRef<int64_t> dims) {
    auto from = cast<RankedTensorType>(slice.getOperand().getType());
    SliceAttr s = slice.getSlice();
    return llvm::all_of(s.getStrides(), [](int64_t t) { return t == 1; }) &&
           llvm::all_of(dims, [&](int64_t d) {
             return s.getStarts()[d] == 0 &&
                    s.getLimits()[d] == from.getDimSize(d);
           });
  }

  /// The dimensions a bias broadcast into `through`'s shape along `dims`
  /// has in the GEMM's result, when the bitcast only regroups the major
  /// dimensions (both row-major, the same minor dimension) and the bias is
  /// along the minor one.
  static bool biasDimsThroughBitcast(BitcastOp through, CustomCallOp gemm,
                                     SmallVectorImpl<int64_t> &dims) {
    auto bt = cast<RankedTensorType>(through.getType());
    auto gt = cast<RankedTensorType>(gemm.getType());
    if (!hasDefaultLayout(bt) || !hasDefaultLayout(gt) || bt.getRank() == 0 ||
        gt.getRank() == 0 || bt.getShape().back() != gt.getShape().back() ||
        dims.size() != 1 || dims[0] != bt.getRank() - 1)
      return false;
    dims.assign({gt.getRank() - 1});
    return true;
  }

  /// gemm + broadcast(v), v along the result's minor non-batch dimensions:
  /// the BIAS epilogue (cuBLASLt).
  bool foldVectorBias(AddOp add, CustomCallOp gemm, BroadcastOp bcast,
                      ArrayRef<int64_t> bdims, Operation *through) {
    if (!isLt(gemm) || hasControlPredecessors(bcast))
      return false;
    auto ot = cast<RankedTensorType>(gemm.getType());
    if (!supportsEpilogue(ot.getElementType()))
      return false;
    BackendConfigAttr cfg = gemmConfigOf(gemm);
    Value bias = bcast.getOperand();
    // An fp8 GEMM takes a bf16 or f16 bias, and none after a matrix bias:
    // of its bf16 or f16 result's type, or, for an f32 result, the bf16 or
    // f16 value the bias is converted from (exactly; as XLA's).
    if (isFp8(gemm)) {
      Type out = ot.getElementType();
      auto convert = bias.getDefiningOp<ConvertOp>();
      Type from = convert ? getElementTypeOrSelf(convert.getOperand().getType())
                          : Type();
      if (cfg.getDouble("beta").value_or(0) != 0 ||
          !(out.isBF16() || out.isF16() ||
            (out.isF32() && from && (from.isBF16() || from.isF16()) &&
             !hasControlPredecessors(convert))))
        return false;
      if (out.isF32())
        bias = convert.getOperand();
    }
    BackendConfigAttr dn = cfg.getSubConfig("dot_dimension_numbers");
    auto rt = cast<RankedTensorType>(gemm->getOperand(1).getType());
    int64_t numCols = rt.getRank() -
                      dn.getInts("rhs_batch_dimensions")->size() -
                      dn.getInts("rhs_contracting_dimensions")->size();
    auto bt = dyn_cast<RankedTensorType>(bias.getType());
    if (!bt || numCols < 1 || bt.getRank() != numCols ||
        cfg.getString("epilogue").value_or("") != "DEFAULT")
      return false;
    SmallVector<int64_t> outOrder = getMinorToMajor(ot);
    SmallVector<int64_t> biasOrder = getMinorToMajor(bt);
    for (int64_t i = 0; i < numCols; ++i) {
      const auto *it = llvm::find(bdims, outOrder[i]);
      if (it == bdims.end() || biasOrder[i] != it - bdims.begin())
        return false;
    }
    SmallVector<Value> operands(gemm->getOperands());
    operands.push_back(bias);
    Builder b(add.getContext());
    refuse(add, gemm, operands,
           cfg.withMember("epilogue", b.getStringAttr("BIAS")),
           static_cast<bool>(gemm.getOutputToOperandAliasingAttr()), through);
    return true;
  }

  /// gemm + C: beta = 1 (or b with fold-beta-multiply), C as operand 2.
  /// Through a bitcast, C is a new bitcast of the addend that only this GEMM
  /// reads: XLA lets the GEMM overwrite it.
  bool foldMatrixBias(AddOp add, CustomCallOp gemm, Value c, ComputationOp comp,
                      Operation *through = nullptr) {
    // (cuBLASLt's fp8 GEMM adds no fp8 C.)
    if (isIntegerResult(gemm) || c.getType() != gemm.getType() ||
        (isFp8(gemm) && isF8(getElementTypeOrSelf(c.getType()))))
      return false;
    BackendConfigAttr cfg = gemmConfigOf(gemm);
    StringRef epilogue = cfg.getString("epilogue").value_or("");
    if (cfg.getDouble("beta").value_or(0) != 0 ||
        (epilogue != "DEFAULT" && epilogue != "BIAS"))
      return false;
    double beta = 1;
    if (foldBetaMultiply)
      if (auto mul = c.getDefiningOp<MulOp>();
          mul && c.hasOneUse() && !hasControlPredecessors(mul))
        for (auto [x, s] : {std::pair(mul.getLhs(), mul.getRhs()),
                            std::pair(mul.getRhs(), mul.getLhs())}) {
          std::optional<std::complex<double>> v = broadcastScalar(s);
          if (!v || v->imag() != 0 || x.getType() != c.getType() ||
              !(isLt(gemm) || canOverwrite(x, comp)))
            continue;
          beta = v->real();
          c = x;
          break;
        }
    bool overwrite = through || canOverwrite(c, comp);
    if (!isLt(gemm) && !overwrite)
      return false;
    SmallVector<Value> operands(gemm->getOperands());
    operands.insert(operands.begin() + 2, c);
    Builder b(add.getContext());
    refuse(add, gemm, operands, cfg.withMember("beta", b.getF64FloatAttr(beta)),
           !isLt(gemm) || overwrite, through);
    return true;
  }

  /// max(gemm, broadcast(0)): the RELU epilogue (cuBLASLt).
  void foldRelu(MaxOp max) {
    for (auto [g, z] : {std::pair(max.getLhs(), max.getRhs()),
                        std::pair(max.getRhs(), max.getLhs())}) {
      CustomCallOp gemm = gemmOf(g);
      std::optional<std::complex<double>> zero = broadcastScalar(z);
      if (!gemm || !isLt(gemm) || !zero || *zero != 0.0 ||
          !supportsEpilogue(
              cast<RankedTensorType>(gemm.getType()).getElementType()))
        continue;
      if (foldActivation(max, gemm, "RELU"))
        return;
    }
  }

  /// The activation `act` (RELU, GELU) on `gemm`, replacing `consumer`:
  /// epilogue ACT after DEFAULT, BIAS_ACT after BIAS; false after others.
  bool foldActivation(Operation *consumer, CustomCallOp gemm, StringRef act,
                      Operation *through = nullptr) {
    BackendConfigAttr cfg = gemmConfigOf(gemm);
    StringRef epilogue = cfg.getString("epilogue").value_or("");
    if (epilogue != "DEFAULT" && epilogue != "BIAS")
      return false;
    std::string next = epilogue == "BIAS" ? ("BIAS_" + act).str() : act.str();
    Builder b(consumer->getContext());
    refuse(consumer, gemm, SmallVector<Value>(gemm->getOperands()),
           cfg.withMember("epilogue", b.getStringAttr(next)),
           static_cast<bool>(gemm.getOutputToOperandAliasingAttr()), through);
    return true;
  }

  /// x * cdf(x), x the GEMM's result (or its bitcast), with XLA's
  /// approximate GELU cdf(x) = 0.5 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 *
  /// x * (x * x)))), every intermediate read once: the GELU epilogue
  /// (BIAS_GELU after a bias; cuBLASLt).
  bool foldGelu(MulOp mul) {
    for (auto [x, cdf] : {std::pair(mul.getLhs(), mul.getRhs()),
                          std::pair(mul.getRhs(), mul.getLhs())}) {
      // Through a bitcast, or a slice (elementwise, the epilogue commutes
      // with it).
      Operation *through = x.getDefiningOp();
      if (!isa_and_nonnull<BitcastOp, SliceOp>(through))
        through = nullptr;
      auto gemm = through ? through->getOperand(0).getDefiningOp<CustomCallOp>()
                          : x.getDefiningOp<CustomCallOp>();
      if (!gemm || !gemms.contains(gemm) || !gemm->hasOneUse() || !isLt(gemm) ||
          (through && hasControlPredecessors(through)) ||
          !supportsEpilogue(
              cast<RankedTensorType>(gemm.getType()).getElementType()))
        continue;
      // The GELU's own four readers of x, and no other.
      SmallPtrSet<Operation *, 4> readers;
      for (Operation *user : x.getUsers())
        readers.insert(user);
      if (readers.size() != 4 || !cdf.hasOneUse() ||
          !isApproximateGeluCdf(cdf, x))
        continue;
      if (gemmConfigOf(gemm).getDouble("beta").value_or(0) == 0 &&
          foldActivation(mul, gemm, "GELU", through))
        return true;
    }
    return false;
  }

  //===--- The workspace --------------------------------------------------===//

  /// gemm -> get-tuple-element(gemm' : (result, s8[workspace]), 0).
  void addWorkspace(CustomCallOp gemm) {
    MLIRContext *ctx = gemm.getContext();
    int64_t workspace = workspaceBytes;
    if (!isLt(gemm)) {
      int64_t operandBytes = 0;
      for (Value v : gemm->getOperands())
        operandBytes += byteSize(v.getType());
      workspace = std::min(workspace, operandBytes);
    }
    Type resultType = gemm.getType();
    auto amax = amaxOf.find(gemm);
    SmallVector<Type> elements = {resultType};
    if (amax != amaxOf.end())
      elements.push_back(RankedTensorType::get({}, Float32Type::get(ctx)));
    elements.push_back(RankedTensorType::get(
        {workspace}, IntegerType::get(ctx, 8),
        LayoutAttr::get(ctx, /*hasMinorToMajor=*/true, {0}, {}, {}, 0, 0, {},
                        StringAttr())));
    auto tupleType = TupleType::get(ctx, elements);
    OpBuilder builder(gemm);
    Operation *call = createInstruction(builder, gemm.getLoc(),
                                        CustomCallOp::getOperationName(),
                                        tupleType, gemm->getOperands(), {});
    call->setAttrs(gemm->getAttrDictionary());
    // The array sharding describes the result, not the tuple: it moves to
    // the get-tuple-element (as XLA's ReplaceInstruction moves it).
    Attribute sharding = call->removeAttr("sharding");
    if (gemm.getOutputToOperandAliasingAttr())
      call->setAttr(
          "output_to_operand_aliasing",
          builder.getArrayAttr({OutputOperandAliasAttr::get(ctx, {0}, 2, {})}));
    Location gteLoc = NameLoc::get(StringAttr::get(ctx, "get-tuple-element"),
                                   derivedLoc(gemm.getLoc()));
    Operation *gte = createInstruction(
        builder, gteLoc, GetTupleElementOp::getOperationName(), resultType,
        {call->getResult(0)},
        {builder.getNamedAttr("index", builder.getI64IntegerAttr(0))});
    if (Attribute fa = gemm->getAttr("frontend_attributes"))
      gte->setAttr("frontend_attributes", fa);
    if (sharding)
      gte->setAttr("sharding", sharding);
    gemm.getResult().replaceAllUsesWith(gte->getResult(0));
    if (amax != amaxOf.end())
      replaceAmax(builder, call, amax->second.first, amax->second.second);
    gemm.erase();
  }

  /// The amax `reduce` computed from `old` (a GEMM replaced by `call`) as
  /// element 1 of `call`, converted to the reduce's type.
  void replaceAmax(OpBuilder &builder, Operation *call, ReduceOp reduce,
                   Operation *old) {
    Type f32 = RankedTensorType::get({}, builder.getF32Type());
    Value v =
        createInstruction(
            builder,
            NameLoc::get(builder.getStringAttr("get-tuple-element"),
                         derivedLoc(call->getLoc())),
            GetTupleElementOp::getOperationName(), f32, {call->getResult(0)},
            {builder.getNamedAttr("index", builder.getI64IntegerAttr(1))})
            ->getResult(0);
    if (reduce.getResult().getType() != f32)
      v = createInstruction(builder, derivedLoc(reduce.getLoc()),
                            ConvertOp::getOperationName(),
                            reduce.getResult().getType(), {v})
              ->getResult(0);
    reduce.getResult().replaceAllUsesWith(v);
    Operation *abs = reduce.getInputs()[0].getDefiningOp();
    reduce.erase();
    if (abs != old && abs->use_empty())
      abs->erase();
    if (old->use_empty())
      old->erase();
  }
};
} // namespace
