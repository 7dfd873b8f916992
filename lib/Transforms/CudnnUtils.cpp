//===- CudnnUtils.cpp - helpers of the cuDNN convolution passes -----------===//

#include "CudnnUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::hlo;

bool mlir::hlo::isCudnnConvCall(Operation *op) {
  auto call = dyn_cast<CustomCallOp>(op);
  if (!call)
    return false;
  StringRef t = call.getCustomCallTarget();
  return t == kCudnnConvForward || t == kCudnnConvBackwardInput ||
         t == kCudnnConvBackwardFilter || t == kCudnnConvBiasActivationForward;
}

bool mlir::hlo::isCudnnForwardConvCall(Operation *op) {
  auto call = dyn_cast<CustomCallOp>(op);
  if (!call)
    return false;
  StringRef t = call.getCustomCallTarget();
  return t == kCudnnConvForward || t == kCudnnConvBiasActivationForward;
}

RankedTensorType mlir::hlo::rowMajorType(ArrayRef<int64_t> shape,
                                         Type element) {
  SmallVector<int64_t> m2m;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d)
    m2m.push_back(d);
  return RankedTensorType::get(shape, element,
                               LayoutAttr::get(element.getContext(),
                                               /*hasMinorToMajor=*/true, m2m,
                                               {}, {}, 0, 0, {}, StringAttr()));
}

RankedTensorType mlir::hlo::rowMajorTypeLike(RankedTensorType like,
                                             ArrayRef<int64_t> shape,
                                             Type element) {
  return like.getEncoding() ? rowMajorType(shape, element)
                            : RankedTensorType::get(shape, element);
}

RankedTensorType mlir::hlo::scratchType(MLIRContext *ctx, int64_t bytes) {
  return RankedTensorType::get(
      {bytes}, IntegerType::get(ctx, 8, IntegerType::Unsigned),
      LayoutAttr::get(ctx, /*hasMinorToMajor=*/true, {0}, {}, {}, 0, 0, {},
                      StringAttr()));
}

BackendConfigAttr mlir::hlo::defaultConvBackendConfig(MLIRContext *ctx) {
  Builder b(ctx);
  auto conv = BackendConfigAttr::get(
      ctx, BackendConfigMessage::CudnnConvBackendConfig,
      {b.getNamedAttr("activation_mode", b.getStringAttr("kNone")),
       b.getNamedAttr("conv_result_scale", b.getF64FloatAttr(1)),
       b.getNamedAttr("side_input_scale", b.getF64FloatAttr(0)),
       b.getNamedAttr("leakyrelu_alpha", b.getF64FloatAttr(0))});
  return BackendConfigAttr::get(
      ctx, BackendConfigMessage::Root,
      {b.getNamedAttr("operation_queue_id", b.getI64IntegerAttr(0)),
       b.getNamedAttr("cudnn_conv_backend_config", conv),
       b.getNamedAttr("force_earliest_schedule", b.getBoolAttr(false)),
       b.getNamedAttr("reification_cost", TextAttr::get(ctx, "[]")),
       b.getNamedAttr("device_type",
                      TextAttr::get(ctx, "\"DEVICE_TYPE_INVALID\""))});
}

CustomCallOp mlir::hlo::createCudnnConv(OpBuilder &builder, Location loc,
                                        StringRef target, Type resultType,
                                        RankedTensorType scratch,
                                        ValueRange operands, WindowAttr window,
                                        ConvDimensionNumbersAttr dnums,
                                        int64_t featureGroupCount,
                                        ArrayAttr precision, Attribute config) {
  MLIRContext *ctx = builder.getContext();
  SmallVector<NamedAttribute> attrs = {
      builder.getNamedAttr("custom_call_target", builder.getStringAttr(target)),
      builder.getNamedAttr("window", window),
      builder.getNamedAttr("dim_labels", dnums)};
  if (featureGroupCount != 1)
    attrs.push_back(builder.getNamedAttr(
        "feature_group_count", builder.getI64IntegerAttr(featureGroupCount)));
  if (precision)
    attrs.push_back(builder.getNamedAttr("operand_precision", precision));
  attrs.push_back(builder.getNamedAttr("backend_config", config));
  Type tuple = TupleType::get(ctx, {resultType, scratch});
  return cast<CustomCallOp>(createInstruction(
      builder, loc, CustomCallOp::getOperationName(), tuple, operands, attrs));
}

CustomCallOp mlir::hlo::cloneCudnnConv(OpBuilder &builder, CustomCallOp call,
                                       ValueRange operands, Type type,
                                       WindowAttr window) {
  Operation *op =
      createInstruction(builder, call.getLoc(),
                        CustomCallOp::getOperationName(), type, operands, {});
  for (NamedAttribute a : call->getAttrs())
    if (a.getName() != "operandSegmentSizes")
      op->setAttr(a.getName(), a.getValue());
  if (window)
    op->setAttr("window", window);
  return cast<CustomCallOp>(op);
}

Value mlir::hlo::createGte(OpBuilder &builder, Location loc, Value tuple,
                           int64_t index) {
  auto tt = cast<TupleType>(tuple.getType());
  Location gteLoc =
      NameLoc::get(builder.getStringAttr("get-tuple-element"), derivedLoc(loc));
  return createInstruction(
             builder, gteLoc, GetTupleElementOp::getOperationName(),
             tt.getType(index), {tuple},
             {builder.getNamedAttr("index", builder.getI64IntegerAttr(index))})
      ->getResult(0);
}

std::optional<double> mlir::hlo::effectiveScalar(Value v) {
  auto cst = v.getDefiningOp<ConstantOp>();
  if (!cst)
    return std::nullopt;
  auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
  if (!dense || dense.getNumElements() < 1)
    return std::nullopt;
  Type et = dense.getElementType();
  auto at = [&](auto it) -> double {
    using T = std::decay_t<decltype(*it)>;
    if constexpr (std::is_same_v<T, APFloat>)
      return (*it).convertToDouble();
    else
      return cast<IntegerType>(et).isUnsigned()
                 ? static_cast<double>((*it).getZExtValue())
                 : static_cast<double>((*it).getSExtValue());
  };
  if (isa<FloatType>(et)) {
    if (!dense.isSplat()) {
      auto first = *dense.value_begin<APFloat>();
      for (APFloat x : dense.getValues<APFloat>())
        if (x.compare(first) != APFloat::cmpEqual)
          return std::nullopt;
    }
    return at(dense.value_begin<APFloat>());
  }
  if (isa<IntegerType>(et) && et.getIntOrFloatBitWidth() > 1) {
    if (!dense.isSplat()) {
      APInt first = *dense.value_begin<APInt>();
      for (APInt x : dense.getValues<APInt>())
        if (x != first)
          return std::nullopt;
    }
    return at(dense.value_begin<APInt>());
  }
  return std::nullopt;
}

/// A named instruction with the metadata of `loc`.
static Location named(OpBuilder &b, StringRef name, Location loc) {
  return NameLoc::get(b.getStringAttr(name), derivedLoc(loc));
}

/// pad(v, 0) with edge padding `low`/`high` and `interior` per dimension.
Value mlir::hlo::createPad(OpBuilder &b, Location loc, Value v,
                       ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                       ArrayRef<int64_t> interior) {
  auto vt = cast<RankedTensorType>(v.getType());
  Type et = vt.getElementType();
  auto scalar = RankedTensorType::get({}, et);
  Attribute zero = isa<FloatType>(et) ? Attribute(FloatAttr::get(et, 0.0))
                                      : Attribute(IntegerAttr::get(et, 0));
  Value cst =
      createInstruction(
          b, NameLoc::get(b.getStringAttr("constant")),
          ConstantOp::getOperationName(), scalar, {},
          {b.getNamedAttr("value", DenseElementsAttr::get(scalar, zero))})
          ->getResult(0);
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < vt.getRank(); ++d) {
    int64_t n = vt.getDimSize(d);
    dims.push_back(n + low[d] + high[d] +
                   std::max<int64_t>(n - 1, 0) * interior[d]);
  }
  return createInstruction(
             b, named(b, "pad", loc), PadOp::getOperationName(),
             vt.getEncoding()
                 ? RankedTensorType::get(dims, et, vt.getEncoding())
                 : rowMajorType(dims, et),
             {v, cst},
             {b.getNamedAttr("padding", PaddingAttr::get(b.getContext(), low,
                                                         high, interior))})
      ->getResult(0);
}

Value mlir::hlo::createSlice(OpBuilder &b, Value v, ArrayRef<int64_t> starts,
                         ArrayRef<int64_t> limits) {
  auto vt = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> dims, strides(vt.getRank(), 1);
  for (int64_t d = 0; d < vt.getRank(); ++d)
    dims.push_back(limits[d] - starts[d]);
  return createInstruction(
             b, NameLoc::get(b.getStringAttr("slice")),
             SliceOp::getOperationName(),
             vt.getEncoding() ? RankedTensorType::get(dims, vt.getElementType(),
                                                      vt.getEncoding())
                              : rowMajorType(dims, vt.getElementType()),
             {v},
             {b.getNamedAttr("slice", SliceAttr::get(b.getContext(), starts,
                                                     limits, strides))})
      ->getResult(0);
}
