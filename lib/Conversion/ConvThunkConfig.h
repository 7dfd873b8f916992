//===- ConvThunkConfig.h - cuDNN custom calls as thunk.convolution -*- C++
//-*-===//
//
// The configuration of the `thunk.convolution` a cuDNN convolution custom
// call becomes (hlo-to-thunk).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_CONVERSION_CONVTHUNKCONFIG_H
#define HLO_LIB_CONVERSION_CONVTHUNKCONFIG_H

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Thunk/ThunkDialect.h"

namespace mlir::hlo {

/// True if `call` targets one of XLA's four cuDNN convolutions.
bool isCudnnConvolution(CustomCallOp call);

struct ConvThunkConfig {
  thunk::ConvKind kind = thunk::ConvKind::Forward;
  /// The layouts of the forward convolution's input, filter and output.
  thunk::ConvTensorAttr input, filter, output;
  SmallVector<int64_t> strides, padLow, padHigh, lhsDilation, rhsDilation;
  int64_t featureGroupCount = 1;
  /// The filter flipped in every spatial dimension (window reversal).
  bool reversed = false;
  thunk::ConvActivation activation = thunk::ConvActivation::None;
  double convResultScale = 1, sideInputScale = 0, leakyReluAlpha = 0;
  int64_t algorithm = -1;
  /// The call's operands in the roles of the forward convolution (null
  /// for the one the call computes), then the bias and side input (null
  /// when absent).
  Value inputOperand, filterOperand, outputOperand, bias, sideInput;
};

/// The `thunk.convolution` configuration of cuDNN convolution `call`
/// (`__cudnn$convForward` (x, w), `__cudnn$convBackwardInput` (dy, w),
/// `__cudnn$convBackwardFilter` (x, dy), `__cudnn$convBiasActivationForward`
/// (x, w, bias[, side]); result (computed, u8[scratch])), from its
/// dim_labels, window, feature_group_count, the operands' layouts and the
/// cudnn_conv_backend_config. Failure (with a diagnostic at the call) for
/// what the op cannot express.
FailureOr<ConvThunkConfig> getConvThunkConfig(CustomCallOp call);

} // namespace mlir::hlo

#endif // HLO_LIB_CONVERSION_CONVTHUNKCONFIG_H
