//===- CudnnFusedConvRewriter.cpp - fuse epilogues into cuDNN convs -------===//
//
// XLA's CudnnFusedConvRewriter (without its fp8 graph convolutions and
// runtime-fusion activations). Per non-fused computation, XLA's sequence of
// rewrites, each one walk over the instructions in program order ("inside
// out", nearest the conv first): converts of the result folded into the
// conv (s32 -> f32, s8 -> f32, f32 -> s8), alpha, bias or side input
// (twice), side input alpha, relu, convert to f16, the s8 forms (s8 inputs
// with an s8 result through a clamp to [-128, 127] or a plain convert, or
// an f32 result), then bias or side input (twice), side input alpha and
// relu again; last, XLA's check that cuDNN can run every integer conv (s8
// input and filter, s8 or f32 result, an s8 side input for an s8 result),
// an error naming the convs it cannot. Every match looks at an instruction
// and its operands only: linear in the module.
//
//===----------------------------------------------------------------------===//

#include "CudnnUtils.h"
#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCUDNNFUSEDCONVREWRITER
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// A forward or bias-activation cuDNN convolution (XLA's IsConvCustomCall).
static CustomCallOp asForwardConv(Operation *op) {
  auto call = dyn_cast_or_null<CustomCallOp>(op);
  if (!call || hasControlEdges(call) || !isCudnnForwardConvCall(call))
    return nullptr;
  auto root = readBackendConfig(call.getBackendConfigAttr());
  if (!root || !root.getCudnnConvBackendConfig() ||
      !isa<TupleType>(call.getType()) || !call.getDimLabelsAttr())
    return nullptr;
  return call;
}

/// XLA's IsConvDepthwise: feature groups as many as input features.
static bool isDepthwise(CustomCallOp conv) {
  int64_t groups = conv.getFeatureGroupCount().value_or(1);
  if (groups == 1)
    return false;
  auto in = cast<RankedTensorType>(conv->getOperand(0).getType());
  return in.getDimSize(conv.getDimLabelsAttr().getInputFeature()) == groups;
}

static BackendConfigAttr convConfig(CustomCallOp conv) {
  return cast<BackendConfigAttr>(conv.getBackendConfigAttr())
      .getCudnnConvBackendConfig();
}

static void setConvConfig(CustomCallOp conv, BackendConfigAttr cfg) {
  conv.setBackendConfigAttr(cast<BackendConfigAttr>(conv.getBackendConfigAttr())
                                .withMember("cudnn_conv_backend_config", cfg));
}

/// The conv whose result element 0 `v` is (a get-tuple-element with one
/// use), when it is a non-depthwise forward conv.
static CustomCallOp gteOfConv(Value v, GetTupleElementOp &gte) {
  gte = v.getDefiningOp<GetTupleElementOp>();
  if (!gte || gte.getIndex() != 0 || !v.hasOneUse() || hasControlEdges(gte))
    return nullptr;
  CustomCallOp conv = asForwardConv(gte.getOperand().getDefiningOp());
  if (!conv || isDepthwise(conv))
    return nullptr;
  return conv;
}

/// `x` converted to `to` and back is `x` (a value of type `from`).
static bool roundTrips(double x, Type from, Type to) {
  auto cast = [](double v, Type t) -> std::optional<double> {
    if (auto ft = dyn_cast<FloatType>(t)) {
      APFloat f(v);
      bool lost = false;
      f.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      return f.convertToDouble();
    }
    if (auto it = dyn_cast<IntegerType>(t)) {
      double r = std::trunc(v);
      unsigned w = it.getWidth();
      double lo = it.isUnsigned() ? 0 : -std::ldexp(1.0, w - 1);
      double hi =
          it.isUnsigned() ? std::ldexp(1.0, w) - 1 : std::ldexp(1.0, w - 1) - 1;
      if (std::isnan(v) || r < lo || r > hi)
        return std::nullopt;
      return r;
    }
    return std::nullopt;
  };
  std::optional<double> there = cast(x, to);
  if (!there)
    return false;
  std::optional<double> back = cast(*there, from);
  return back && (*back == x || (std::isnan(*back) && std::isnan(x)));
}

/// XLA's IsLosslesslyConvertibleTo: `v` holds values of type `to` (already
/// of that type, a widening convert from it, a constant that round-trips,
/// or a broadcast, reshape or transpose of one).
static bool losslesslyConvertible(Value v, Type to) {
  auto rt = dyn_cast<RankedTensorType>(v.getType());
  if (!rt)
    return false;
  Type et = rt.getElementType();
  if (et == to)
    return true;
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (auto cvt = dyn_cast<ConvertOp>(def)) {
    auto in = cast<RankedTensorType>(cvt.getOperand().getType());
    if (in.getElementType() != to)
      return false;
    // The convert from `to` to v's type keeps every value.
    Type from = to;
    if (isa<FloatType>(from) && isa<FloatType>(et)) {
      const llvm::fltSemantics &f = cast<FloatType>(from).getFloatSemantics();
      const llvm::fltSemantics &t = cast<FloatType>(et).getFloatSemantics();
      return APFloat::semanticsPrecision(f) <= APFloat::semanticsPrecision(t) &&
             APFloat::semanticsMaxExponent(f) <=
                 APFloat::semanticsMaxExponent(t) &&
             APFloat::semanticsMinExponent(f) >=
                 APFloat::semanticsMinExponent(t);
    }
    if (isa<IntegerType>(from) && isa<IntegerType>(et))
      return from.getIntOrFloatBitWidth() < et.getIntOrFloatBitWidth() ||
             from == et;
    if (isa<IntegerType>(from) && isa<FloatType>(et))
      return from.getIntOrFloatBitWidth() <
             APFloat::semanticsPrecision(
                 cast<FloatType>(et).getFloatSemantics());
    return false;
  }
  if (auto cst = dyn_cast<ConstantOp>(def)) {
    auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
    if (!dense || !(isa<FloatType>(et) || isa<IntegerType>(et)))
      return false;
    if (isa<FloatType>(et)) {
      for (APFloat x : dense.getValues<APFloat>())
        if (!roundTrips(x.convertToDouble(), et, to))
          return false;
    } else {
      bool isUnsigned = cast<IntegerType>(et).isUnsigned();
      for (APInt x : dense.getValues<APInt>())
        if (!roundTrips(isUnsigned ? double(x.getZExtValue())
                                   : double(x.getSExtValue()),
                        et, to))
          return false;
    }
    return true;
  }
  if (isa<BroadcastOp, ReshapeOp, TransposeOp>(def))
    return losslesslyConvertible(def->getOperand(0), to);
  return false;
}

/// The scalar of `broadcast(constant)` (XLA's
/// m::Broadcast(m::ConstantEffectiveScalar())), with the constant.
static std::optional<double> broadcastScalar(Value v,
                                             Value *constant = nullptr) {
  auto bcast = v.getDefiningOp<BroadcastOp>();
  if (!bcast)
    return std::nullopt;
  if (constant)
    *constant = bcast.getOperand();
  return effectiveScalar(bcast.getOperand());
}

namespace {
struct CudnnFusedConvRewriterPass
    : ChangeReportingPass<CudnnFusedConvRewriterPass,
                          hlo::impl::HloCudnnFusedConvRewriterBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation())) {
      using Step = void (CudnnFusedConvRewriterPass::*)(Operation *);
      const Step steps[] = {&CudnnFusedConvRewriterPass::fuseS32ToF32,
                            &CudnnFusedConvRewriterPass::fuseS8ToF32,
                            &CudnnFusedConvRewriterPass::fuseF32ToS8,
                            &CudnnFusedConvRewriterPass::fuseAlpha,
                            &CudnnFusedConvRewriterPass::fuseBiasOrSideInput,
                            &CudnnFusedConvRewriterPass::fuseBiasOrSideInput,
                            &CudnnFusedConvRewriterPass::fuseSideInputAlpha,
                            &CudnnFusedConvRewriterPass::fuseRelu,
                            &CudnnFusedConvRewriterPass::fuseConvertToF16,
                            &CudnnFusedConvRewriterPass::fuseConvertToS8,
                            &CudnnFusedConvRewriterPass::fuseBiasOrSideInput,
                            &CudnnFusedConvRewriterPass::fuseBiasOrSideInput,
                            &CudnnFusedConvRewriterPass::fuseSideInputAlpha,
                            &CudnnFusedConvRewriterPass::fuseRelu};
      for (Step step : steps)
        for (Block &block : comp.getBody())
          for (Operation &op : llvm::make_early_inc_range(block))
            if (!hasControlEdges(&op))
              (this->*step)(&op);
      if (failed(checkIntegerConvs(comp)))
        return signalPassFailure();
    }
  }

  void done() {
    ++numFused;
    changed = true;
  }

  /// XLA's EnsureIsConvBiasActivation: a forward conv becomes a
  /// bias-activation conv with a zero bias over the output features.
  CustomCallOp ensureBiasActivation(CustomCallOp conv) {
    if (conv.getCustomCallTarget() == kCudnnConvBiasActivationForward)
      return conv;
    OpBuilder builder(conv);
    MLIRContext *ctx = conv.getContext();
    auto out =
        cast<RankedTensorType>(cast<TupleType>(conv.getType()).getType(0));
    Type biasType = isa<IntegerType>(out.getElementType())
                        ? Type(Float32Type::get(ctx))
                        : out.getElementType();
    int64_t features =
        out.getDimSize(conv.getDimLabelsAttr().getOutputFeature());
    Location loc = derivedLoc(conv.getLoc());
    auto scalar = RankedTensorType::get({}, biasType);
    Attribute zero = isa<FloatType>(biasType)
                         ? Attribute(FloatAttr::get(biasType, 0.0))
                         : Attribute(IntegerAttr::get(biasType, 0));
    Value cst =
        createInstruction(builder,
                          NameLoc::get(builder.getStringAttr("constant"), loc),
                          ConstantOp::getOperationName(), scalar, {},
                          {builder.getNamedAttr(
                              "value", DenseElementsAttr::get(scalar, zero))})
            ->getResult(0);
    Value bias =
        createInstruction(builder,
                          NameLoc::get(builder.getStringAttr("broadcast"), loc),
                          BroadcastOp::getOperationName(),
                          rowMajorType({features}, biasType), {cst},
                          {builder.getNamedAttr(
                              "dimensions", builder.getDenseI64ArrayAttr({}))})
            ->getResult(0);
    SmallVector<Value> operands(conv->getOperands());
    operands.push_back(bias);
    CustomCallOp fused =
        cloneCudnnConv(builder, conv, operands, conv.getType());
    fused.setCustomCallTarget(kCudnnConvBiasActivationForward);
    fused->setLoc(
        NameLoc::get(builder.getStringAttr("cudnn-conv-bias-activation"), loc));
    conv.getResult().replaceAllUsesWith(fused.getResult());
    conv.erase();
    return fused;
  }

  /// `conv` with result element 0 of element type `et`, operands
  /// `operands`; the get-tuple-element of it replaces `old` (which takes
  /// `old`'s metadata, as XLA's ReplaceInstruction gives it).
  void replaceWithRetyped(CustomCallOp conv, ValueRange operands, Type et,
                          Operation *old) {
    OpBuilder builder(old);
    auto tt = cast<TupleType>(conv.getType());
    auto out = cast<RankedTensorType>(tt.getType(0));
    Type tuple = TupleType::get(
        conv.getContext(),
        {RankedTensorType::get(out.getShape(), et, out.getEncoding()),
         tt.getType(1)});
    CustomCallOp fused = cloneCudnnConv(builder, conv, operands, tuple);
    Value newGte = createGte(builder, old->getLoc(), fused.getResult(), 0);
    old->getResult(0).replaceAllUsesWith(newGte);
    eraseWithDeadOperands(old);
    done();
  }

  /// XLA's FuseConvertTypeIntoConv: convert<to>(gte(conv<from>)), the
  /// get-tuple-element used once -> gte(conv<to>).
  void fuseConvertType(Operation *op, Type from, Type to) {
    auto cvt = dyn_cast<ConvertOp>(op);
    if (!cvt || getElementTypeOrSelf(cvt.getType()) != to)
      return;
    auto gte = cvt.getOperand().getDefiningOp<GetTupleElementOp>();
    if (!gte || gte.getIndex() != 0 || !gte.getResult().hasOneUse() ||
        hasControlEdges(gte) || getElementTypeOrSelf(gte.getType()) != from)
      return;
    CustomCallOp conv = asForwardConv(gte.getOperand().getDefiningOp());
    if (!conv)
      return;
    replaceWithRetyped(conv, conv->getOperands(), to, cvt);
  }
  Type s8() { return IntegerType::get(&getContext(), 8); }
  Type f32() { return Float32Type::get(&getContext()); }
  void fuseS32ToF32(Operation *op) {
    fuseConvertType(op, IntegerType::get(&getContext(), 32), f32());
  }
  void fuseS8ToF32(Operation *op) { fuseConvertType(op, s8(), f32()); }
  void fuseF32ToS8(Operation *op) { fuseConvertType(op, f32(), s8()); }

  /// XLA's FuseConvertToS8: a conv whose input and filter hold s8 values
  /// takes them as s8 (bias stays f32), with an s8 result for
  ///   convert<s8>(clamp(broadcast(-128), gte, broadcast(127))) or
  ///   convert<s8>(gte<f32>) (gte used once, a side input holding s8
  ///   values), and an f32 result for gte<f32> (an f32 side input).
  void fuseConvertToS8(Operation *op) {
    Value gteValue;
    bool s8Result = true;
    auto cvt = dyn_cast<ConvertOp>(op);
    if (cvt && getElementTypeOrSelf(cvt.getType()) == s8()) {
      gteValue = cvt.getOperand();
      if (auto clamp = gteValue.getDefiningOp<ClampOp>()) {
        if (hasControlEdges(clamp) ||
            broadcastScalar(clamp.getMin()) != std::optional<double>(-128) ||
            broadcastScalar(clamp.getMax()) != std::optional<double>(127))
          return;
        gteValue = clamp.getOperand();
      } else if (getElementTypeOrSelf(gteValue.getType()) != f32()) {
        return;
      }
      if (!gteValue.hasOneUse())
        return;
    } else if (auto g = dyn_cast<GetTupleElementOp>(op)) {
      if (getElementTypeOrSelf(g.getType()) != f32())
        return;
      gteValue = g.getResult();
      s8Result = false;
    } else {
      return;
    }
    auto gte = gteValue.getDefiningOp<GetTupleElementOp>();
    if (!gte || gte.getIndex() != 0 || hasControlEdges(gte))
      return;
    CustomCallOp conv = asForwardConv(gte.getOperand().getDefiningOp());
    if (!conv || !losslesslyConvertible(conv->getOperand(0), s8()) ||
        !losslesslyConvertible(conv->getOperand(1), s8()))
      return;
    Type outType = s8Result ? s8() : f32();
    bool side = conv->getNumOperands() > 3;
    if (side &&
        !(s8Result ? losslesslyConvertible(conv->getOperand(3), s8())
                   : getElementTypeOrSelf(conv->getOperand(3)) == outType))
      return;
    SmallVector<Value> operands(conv->getOperands());
    OpBuilder builder(conv);
    auto convertTo = [&](Value v, Type et) -> Value {
      auto vt = cast<RankedTensorType>(v.getType());
      if (vt.getElementType() == et)
        return v;
      return createInstruction(
                 builder,
                 NameLoc::get(builder.getStringAttr("convert"),
                              derivedLoc(v.getLoc())),
                 ConvertOp::getOperationName(),
                 RankedTensorType::get(vt.getShape(), et, vt.getEncoding()),
                 {v})
          ->getResult(0);
    };
    operands[0] = convertTo(operands[0], s8());
    operands[1] = convertTo(operands[1], s8());
    if (side)
      operands[3] = convertTo(operands[3], outType);
    // An f32 conv that already reads s8 stays as it is.
    if (!s8Result && ValueRange(operands) == conv->getOperands())
      return;
    replaceWithRetyped(conv, operands, outType, op);
  }

  /// XLA's CheckNoIllegalIntegerConvs: an error naming every conv of
  /// `comp` whose input, filter, side input or result is an integer type
  /// other than s8 (cuDNN runs none of them).
  LogicalResult checkIntegerConvs(ComputationOp comp) {
    auto bad = [](Type t) {
      Type et = getElementTypeOrSelf(t);
      return isa<IntegerType>(et) && !et.isInteger(8);
    };
    bool ok = true;
    comp.walk([&](CustomCallOp call) {
      if (!isCudnnForwardConvCall(call))
        return;
      auto tuple = dyn_cast<TupleType>(call.getType());
      if (call->getNumOperands() < 2 || !tuple || tuple.size() == 0)
        return;
      if (bad(tuple.getType(0)) || bad(call->getOperand(0).getType()) ||
          bad(call->getOperand(1).getType()) ||
          (call->getNumOperands() > 3 && bad(call->getOperand(3).getType()))) {
        call.emitError("can't lower this integer convolution to what cuDNN "
                       "runs: cuDNN integer convolutions take an s8 input "
                       "and filter, an f32 bias, an s8 side input for an s8 "
                       "result, and give an s8 or f32 result (write the "
                       "convolution as conv<s32>(convert<s32>(s8), "
                       "convert<s32>(s8)) followed by a convert to f32, or "
                       "a clamp to [-128, 127] and a convert to s8)");
        ok = false;
      }
    });
    return success(ok);
  }

  /// gte * broadcast(alpha) -> conv_result_scale = alpha.
  void fuseAlpha(Operation *op) {
    auto mul = dyn_cast<MulOp>(op);
    if (!mul)
      return;
    for (auto [g, s] : {std::pair(mul.getLhs(), mul.getRhs()),
                        std::pair(mul.getRhs(), mul.getLhs())}) {
      GetTupleElementOp gte;
      CustomCallOp conv = gteOfConv(g, gte);
      Value alphaCst;
      std::optional<double> alpha = broadcastScalar(s, &alphaCst);
      if (!conv || !alpha)
        continue;
      Type et = cast<RankedTensorType>(g.getType()).getElementType();
      Type alphaType = et.isF64() ? Type(Float64Type::get(op->getContext()))
                                  : Type(Float32Type::get(op->getContext()));
      if (!losslesslyConvertible(alphaCst, alphaType) ||
          convConfig(conv).getDouble("conv_result_scale").value_or(1) != 1)
        continue;
      conv = ensureBiasActivation(conv);
      Builder b(op->getContext());
      setConvConfig(conv, convConfig(conv).withMember(
                              "conv_result_scale", b.getF64FloatAttr(*alpha)));
      mul.getResult().replaceAllUsesWith(gte.getResult());
      eraseWithDeadOperands(mul);
      done();
      return;
    }
  }

  /// gte + addend: a bias (broadcast along the output features, or of a
  /// scalar) in place of a zero bias, else the side input.
  void fuseBiasOrSideInput(Operation *op) {
    auto add = dyn_cast<AddOp>(op);
    if (!add)
      return;
    for (auto [g, addend] : {std::pair(add.getLhs(), add.getRhs()),
                             std::pair(add.getRhs(), add.getLhs())}) {
      GetTupleElementOp gte;
      CustomCallOp conv = gteOfConv(g, gte);
      if (!conv || !conv.getResult().hasOneUse())
        continue;
      conv = ensureBiasActivation(conv);
      BackendConfigAttr cfg = convConfig(conv);
      if (cfg.getString("activation_mode").value_or("kNone") != "kNone")
        return;
      bool canTakeBias =
          broadcastScalar(conv->getOperand(2)) == std::optional<double>(0.0);
      bool canTakeSide = conv->getNumOperands() < 4;
      auto gt = cast<RankedTensorType>(g.getType());
      Type convType = gt.getElementType();
      Type biasType = isa<FloatType>(convType)
                          ? convType
                          : Type(Float32Type::get(op->getContext()));
      auto bcast = addend.getDefiningOp<BroadcastOp>();
      ArrayRef<int64_t> bdims =
          bcast ? orEmpty(bcast.getDimensions()) : ArrayRef<int64_t>();
      int64_t featureDim = conv.getDimLabelsAttr().getOutputFeature();
      bool lossless = bcast && !hasControlEdges(bcast) &&
                      losslesslyConvertible(addend, biasType);
      bool rank1 = lossless && bdims.size() == 1 && bdims[0] == featureDim;
      bool rank0 = lossless && bdims.empty();
      SmallVector<Value> operands(conv->getOperands());
      OpBuilder builder(add);
      // A convert of the bias takes its metadata.
      Location loc =
          derivedLoc(bcast ? bcast.getOperand().getLoc() : add.getLoc());
      Builder b(op->getContext());
      if (canTakeBias && (rank1 || rank0)) {
        Value v = bcast.getOperand();
        auto vt = cast<RankedTensorType>(v.getType());
        if (vt.getElementType() != biasType)
          v = createInstruction(builder,
                                NameLoc::get(b.getStringAttr("convert"), loc),
                                ConvertOp::getOperationName(),
                                rowMajorType(vt.getShape(), biasType), {v})
                  ->getResult(0);
        if (rank0)
          v = createInstruction(
                  builder, NameLoc::get(b.getStringAttr("broadcast")),
                  BroadcastOp::getOperationName(),
                  rowMajorType({gt.getDimSize(featureDim)}, biasType), {v},
                  {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({}))})
                  ->getResult(0);
        operands[2] = v;
      } else if (canTakeSide) {
        operands.push_back(addend);
        cfg = cfg.withMember("side_input_scale", b.getF64FloatAttr(1));
      } else {
        return;
      }
      CustomCallOp fused =
          cloneCudnnConv(builder, conv, operands, conv.getType());
      setConvConfig(fused, cfg);
      // The new get-tuple-element takes the add's metadata, as in XLA.
      Value newGte = createGte(builder, add.getLoc(), fused.getResult(), 0);
      add.getResult().replaceAllUsesWith(newGte);
      eraseWithDeadOperands(add);
      done();
      return;
    }
  }

  /// A side input `x * broadcast(alpha)` (through reshapes and transposes)
  /// -> side input x, side_input_scale = alpha.
  void fuseSideInputAlpha(Operation *op) {
    CustomCallOp conv = asForwardConv(op);
    if (!conv || conv->getNumOperands() != 4 ||
        convConfig(conv).getDouble("side_input_scale").value_or(0) != 1)
      return;
    Value side = conv->getOperand(3);
    SmallVector<Operation *> chain; // side input first
    Value before = side;
    while (Operation *d = before.getDefiningOp()) {
      if (!isa<ReshapeOp, TransposeOp>(d) || hasControlEdges(d))
        break;
      chain.push_back(d);
      before = d->getOperand(0);
    }
    auto mul = before.getDefiningOp<MulOp>();
    if (!mul || hasControlEdges(mul))
      return;
    Type et = cast<RankedTensorType>(cast<TupleType>(conv.getType()).getType(0))
                  .getElementType();
    Type alphaType = et.isF64() ? Type(Float64Type::get(op->getContext()))
                                : Type(Float32Type::get(op->getContext()));
    for (auto [base, s] : {std::pair(mul.getLhs(), mul.getRhs()),
                           std::pair(mul.getRhs(), mul.getLhs())}) {
      Value alphaCst;
      std::optional<double> alpha = broadcastScalar(s, &alphaCst);
      if (!alpha || !losslesslyConvertible(alphaCst, alphaType))
        continue;
      OpBuilder builder(conv);
      // Clone the reshapes and transposes on `base`.
      Value v = base;
      for (Operation *d : llvm::reverse(chain)) {
        Operation *c = builder.clone(*d);
        c->setOperand(0, v);
        v = c->getResult(0);
      }
      SmallVector<Value> operands(conv->getOperands());
      operands[3] = v;
      CustomCallOp fused =
          cloneCudnnConv(builder, conv, operands, conv.getType());
      Builder b(op->getContext());
      setConvConfig(fused, convConfig(conv).withMember(
                               "side_input_scale", b.getF64FloatAttr(*alpha)));
      conv.getResult().replaceAllUsesWith(fused.getResult());
      eraseWithDeadOperands(conv);
      done();
      return;
    }
  }

  /// convert<f16>(gte(conv<f32>(x, w, ...))) with every operand an f32
  /// that holds f16 values -> gte(conv<f16>(convert<f16>(x), ...)).
  void fuseConvertToF16(Operation *op) {
    auto cvt = dyn_cast<ConvertOp>(op);
    auto rt = cvt ? dyn_cast<RankedTensorType>(cvt.getType()) : nullptr;
    if (!rt || !rt.getElementType().isF16())
      return;
    auto gte = cvt.getOperand().getDefiningOp<GetTupleElementOp>();
    if (!gte || gte.getIndex() != 0 || !gte.getResult().hasOneUse() ||
        hasControlEdges(gte))
      return;
    CustomCallOp conv = asForwardConv(gte.getOperand().getDefiningOp());
    if (!conv)
      return;
    Type f16 = rt.getElementType();
    for (Value v : conv->getOperands()) {
      auto vt = cast<RankedTensorType>(v.getType());
      if (!vt.getElementType().isF32() || !losslesslyConvertible(v, f16))
        return;
    }
    OpBuilder builder(cvt);
    MLIRContext *ctx = op->getContext();
    SmallVector<Value> operands;
    for (Value v : conv->getOperands()) {
      auto vt = cast<RankedTensorType>(v.getType());
      operands.push_back(
          createInstruction(
              builder,
              NameLoc::get(StringAttr::get(ctx, "convert"),
                           derivedLoc(v.getLoc())),
              ConvertOp::getOperationName(),
              RankedTensorType::get(vt.getShape(), f16, vt.getEncoding()), {v})
              ->getResult(0));
    }
    auto tt = cast<TupleType>(conv.getType());
    auto out = cast<RankedTensorType>(tt.getType(0));
    Type tuple = TupleType::get(
        ctx, {RankedTensorType::get(out.getShape(), f16, out.getEncoding()),
              tt.getType(1)});
    CustomCallOp fused = cloneCudnnConv(builder, conv, operands, tuple);
    // The new get-tuple-element takes the convert's metadata, as in XLA.
    Value newGte = createGte(builder, cvt.getLoc(), fused.getResult(), 0);
    cvt.getResult().replaceAllUsesWith(newGte);
    eraseWithDeadOperands(cvt);
    done();
  }

  /// max(gte, broadcast(0)) -> activation_mode kRelu.
  void fuseRelu(Operation *op) {
    auto max = dyn_cast<MaxOp>(op);
    if (!max)
      return;
    for (auto [z, g] : {std::pair(max.getLhs(), max.getRhs()),
                        std::pair(max.getRhs(), max.getLhs())}) {
      GetTupleElementOp gte;
      CustomCallOp conv = gteOfConv(g, gte);
      if (!conv || !conv.getResult().hasOneUse() ||
          broadcastScalar(z) != std::optional<double>(0.0))
        continue;
      if (convConfig(conv).getString("activation_mode").value_or("kNone") !=
          "kNone")
        return;
      conv = ensureBiasActivation(conv);
      Builder b(op->getContext());
      setConvConfig(conv, convConfig(conv).withMember(
                              "activation_mode", b.getStringAttr("kRelu")));
      max.getResult().replaceAllUsesWith(gte.getResult());
      eraseWithDeadOperands(max);
      done();
      return;
    }
  }
};
} // namespace
