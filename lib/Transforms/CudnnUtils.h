//===- CudnnUtils.h - helpers of the cuDNN convolution passes ---*- C++ -*-===//
//
// Private to lib/Transforms: what the convolution passes (conv rewriter,
// fused conv rewriter, conv padding legalization, conv algorithm picker)
// share: XLA's cuDNN custom-call targets, a convolution's window, and
// building a cuDNN convolution custom call with its (result, u8[scratch])
// tuple and the get-tuple-element that reads it.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_CUDNNUTILS_H
#define HLO_LIB_TRANSFORMS_CUDNNUTILS_H

#include "WindowUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"

namespace mlir::hlo {

inline constexpr StringLiteral kCudnnConvForward = "__cudnn$convForward";
inline constexpr StringLiteral kCudnnConvBackwardInput =
    "__cudnn$convBackwardInput";
inline constexpr StringLiteral kCudnnConvBackwardFilter =
    "__cudnn$convBackwardFilter";
inline constexpr StringLiteral kCudnnConvBiasActivationForward =
    "__cudnn$convBiasActivationForward";

/// True if `op` is a custom call to one of the four cuDNN convolutions.
bool isCudnnConvCall(Operation *op);

/// True if `op` is a custom call to a forward cuDNN convolution, plain or
/// bias-activation (XLA's IsConvCustomCall).
bool isCudnnForwardConvCall(Operation *op);

class ConvolutionOp;

/// True if hlo-gpu-conv-rewriter can make `conv` a cuDNN call: a forward,
/// backward-input or backward-filter convolution (XLA's
/// ConvRewriter::ConvIsLowerable). Creates nothing.
bool isConvLowerableToCudnn(ConvolutionOp conv);

/// The window and dimension numbers of a convolution or cuDNN custom call.
inline WindowFields windowOf(Operation *op) {
  auto w = op->getAttrOfType<WindowAttr>("window");
  auto dn = op->getAttrOfType<ConvDimensionNumbersAttr>("dim_labels");
  return WindowFields(w, dn ? dn.getInputSpatial().size()
                            : (w ? w.getSize().size() : 0));
}

/// An array type with the row-major layout written out (`f32[2,3]{1,0}`),
/// as XLA prints the instructions the conv passes add.
RankedTensorType rowMajorType(ArrayRef<int64_t> shape, Type element);

/// An array type for an instruction made next to `like`'s: row-major layout
/// written out where `like` names a layout, none otherwise.
RankedTensorType rowMajorTypeLike(RankedTensorType like,
                                  ArrayRef<int64_t> shape, Type element);

/// `u8[bytes]{0}`: the scratch element of a cuDNN call's result.
RankedTensorType scratchType(MLIRContext *ctx, int64_t bytes);

/// XLA's default GpuBackendConfig of a cuDNN convolution: queue 0 and a
/// cudnn_conv_backend_config with activation kNone, conv_result_scale 1,
/// side_input_scale 0 and leakyrelu_alpha 0.
BackendConfigAttr defaultConvBackendConfig(MLIRContext *ctx);

/// A cuDNN convolution custom call `target` of `operands` at the builder's
/// place, named `name`, with result tuple (`resultType`, `scratch`) and the
/// convolution attributes `window`, `dnums`, `featureGroupCount` (written
/// when not 1), `precision` (may be null) and `config`.
CustomCallOp createCudnnConv(OpBuilder &builder, Location loc, StringRef target,
                             Type resultType, RankedTensorType scratch,
                             ValueRange operands, WindowAttr window,
                             ConvDimensionNumbersAttr dnums,
                             int64_t featureGroupCount, ArrayAttr precision,
                             Attribute config);

/// A copy of the cuDNN custom call `call` at the builder's place with new
/// `operands`, result tuple `type` and `window` (the same when null), its
/// other attributes and location kept.
CustomCallOp cloneCudnnConv(OpBuilder &builder, CustomCallOp call,
                            ValueRange operands, Type type,
                            WindowAttr window = {});

/// get-tuple-element(`tuple`, `index`) named `get-tuple-element` with the
/// metadata of `loc`.
Value createGte(OpBuilder &builder, Location loc, Value tuple, int64_t index);

/// pad(`v`, 0 of its type) with edge padding `low` / `high` and `interior`
/// padding per dimension, named `pad` with the metadata of `loc`.
Value createPad(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> low,
                ArrayRef<int64_t> high, ArrayRef<int64_t> interior);

/// slice(`v`) from `starts` to `limits` (strides 1), named `slice`.
Value createSlice(OpBuilder &b, Value v, ArrayRef<int64_t> starts,
                  ArrayRef<int64_t> limits);

/// The value of `v` if it is a constant scalar or a constant whose elements
/// are all equal (XLA's ConstantEffectiveScalar), as a double.
std::optional<double> effectiveScalar(Value v);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_CUDNNUTILS_H
