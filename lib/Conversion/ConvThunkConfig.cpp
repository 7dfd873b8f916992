//===- ConvThunkConfig.cpp - cuDNN custom calls as thunk.convolution ------===//
//
// What `thunk.convolution` needs of a cuDNN convolution custom call: the
// kind, each tensor's roles and physical order (from dim_labels and the
// layouts), the window, the feature groups, the fused epilogue and the
// algorithm.
//
//===----------------------------------------------------------------------===//

#include "ConvThunkConfig.h"
#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::hlo;
namespace th = mlir::thunk;

static std::optional<th::ConvKind> getConvKind(StringRef target) {
  return llvm::StringSwitch<std::optional<th::ConvKind>>(target)
      .Case("__cudnn$convForward", th::ConvKind::Forward)
      .Case("__cudnn$convBackwardInput", th::ConvKind::BackwardInput)
      .Case("__cudnn$convBackwardFilter", th::ConvKind::BackwardFilter)
      .Case("__cudnn$convBiasActivationForward",
            th::ConvKind::ForwardBiasActivation)
      .Default(std::nullopt);
}

bool mlir::hlo::isCudnnConvolution(CustomCallOp call) {
  return getConvKind(call.getCustomCallTarget()).has_value();
}

/// The `algo_id` of the cudnn_conv_backend_config's `algorithm` member (a
/// JSON AlgorithmProto kept as text, or a typed message), -1 when absent.
static FailureOr<int64_t> getAlgorithm(BackendConfigAttr cfg) {
  Attribute member = cfg ? cfg.getMember("algorithm") : nullptr;
  if (!member)
    return -1;
  auto fromString = [](StringRef s) -> std::optional<int64_t> {
    int64_t v;
    if (s.getAsInteger(10, v))
      return std::nullopt;
    return v;
  };
  if (auto sub = dyn_cast<BackendConfigAttr>(member)) {
    if (std::optional<int64_t> id = sub.getInt("algo_id"))
      return *id;
    if (std::optional<StringRef> id = sub.getString("algo_id"))
      if (std::optional<int64_t> v = fromString(*id))
        return *v;
    return sub.getMember("algo_id") ? FailureOr<int64_t>(failure()) : -1;
  }
  auto text = dyn_cast<TextAttr>(member);
  if (!text)
    return failure();
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text.getValue());
  if (!json) {
    llvm::consumeError(json.takeError());
    return failure();
  }
  const llvm::json::Object *object = json->getAsObject();
  const llvm::json::Value *id = object ? object->get("algo_id") : nullptr;
  if (!id)
    return -1;
  if (std::optional<int64_t> v = id->getAsInteger())
    return *v;
  if (std::optional<StringRef> s = id->getAsString())
    if (std::optional<int64_t> v = fromString(*s))
      return *v;
  return failure();
}

FailureOr<ConvThunkConfig> mlir::hlo::getConvThunkConfig(CustomCallOp call) {
  auto fail = [&](const Twine &why) -> FailureOr<ConvThunkConfig> {
    return call.emitError("hlo-to-thunk: ")
           << call.getCustomCallTarget() << ": " << why;
  };
  std::optional<th::ConvKind> kind = getConvKind(call.getCustomCallTarget());
  if (!kind)
    return fail("not a cuDNN convolution");
  ConvThunkConfig config;
  config.kind = *kind;
  std::optional<ConvDimensionNumbersAttr> dn = call.getDimLabels();
  if (!dn)
    return fail("no dim_labels");
  auto tuple = dyn_cast<TupleType>(call.getType());
  OperandRange operands = getDataOperands(call);
  bool fused = *kind == th::ConvKind::ForwardBiasActivation;
  if (!tuple || tuple.size() != 2 ||
      (fused ? operands.size() != 3 && operands.size() != 4
             : operands.size() != 2))
    return fail(fused ? "expected operands (input, filter, bias[, side "
                        "input]) and the result (output, scratch)"
                      : "expected two operands and the result (result, "
                        "scratch)");
  // The forward roles of the operands and the result.
  Type inputType, filterType, outputType;
  switch (*kind) {
  case th::ConvKind::BackwardInput:
    config.outputOperand = operands[0];
    config.filterOperand = operands[1];
    inputType = tuple.getType(0);
    filterType = operands[1].getType();
    outputType = operands[0].getType();
    break;
  case th::ConvKind::BackwardFilter:
    config.inputOperand = operands[0];
    config.outputOperand = operands[1];
    inputType = operands[0].getType();
    filterType = tuple.getType(0);
    outputType = operands[1].getType();
    break;
  default:
    config.inputOperand = operands[0];
    config.filterOperand = operands[1];
    inputType = operands[0].getType();
    filterType = operands[1].getType();
    outputType = tuple.getType(0);
    break;
  }
  if (fused) {
    config.bias = operands[2];
    if (operands.size() == 4)
      config.sideInput = operands[3];
  }
  // Each tensor's layout; null after a diagnostic.
  auto layoutOf = [&](StringRef name, Type type, int64_t batch, int64_t feature,
                      ArrayRef<int64_t> spatial) -> th::ConvTensorAttr {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape()) {
      (void)fail("the " + name + " must be a static array");
      return nullptr;
    }
    SmallVector<int64_t> minorToMajor = getMinorToMajor(tensor);
    auto emit = [&]() {
      return call.emitError("hlo-to-thunk: ")
             << call.getCustomCallTarget() << ": the " << name << ": ";
    };
    if (failed(th::ConvTensorAttr::verify(emit, tensor.getShape(), batch,
                                          feature, spatial, minorToMajor)))
      return nullptr;
    return th::ConvTensorAttr::get(call.getContext(), tensor.getShape(), batch,
                                   feature, spatial, minorToMajor);
  };
  config.input = layoutOf("input", inputType, dn->getInputBatch(),
                          dn->getInputFeature(), dn->getInputSpatial());
  if (!config.input)
    return failure();
  config.filter = layoutOf("filter", filterType, dn->getKernelOutput(),
                           dn->getKernelInput(), dn->getKernelSpatial());
  if (!config.filter)
    return failure();
  config.output = layoutOf("output", outputType, dn->getOutputBatch(),
                           dn->getOutputFeature(), dn->getOutputSpatial());
  if (!config.output)
    return failure();
  if (call.getBatchGroupCount().value_or(1) != 1)
    return fail("batch_group_count is not supported");
  config.featureGroupCount = call.getFeatureGroupCount().value_or(1);

  size_t rank = dn->getInputSpatial().size();
  std::optional<WindowAttr> window = call.getWindow();
  auto field = [&](ArrayRef<int64_t> values, int64_t dflt) {
    SmallVector<int64_t> result;
    for (size_t d = 0; d < rank; ++d)
      result.push_back(d < values.size() ? values[d] : dflt);
    return result;
  };
  WindowAttr w = window ? *window : WindowAttr();
  SmallVector<int64_t> size = field(w ? w.getSize() : ArrayRef<int64_t>(), 1);
  SmallVector<int64_t> reversal =
      field(w ? w.getReversal() : ArrayRef<int64_t>(), 0);
  config.strides = field(w ? w.getStride() : ArrayRef<int64_t>(), 1);
  config.padLow = field(w ? w.getPadLow() : ArrayRef<int64_t>(), 0);
  config.padHigh = field(w ? w.getPadHigh() : ArrayRef<int64_t>(), 0);
  config.lhsDilation = field(w ? w.getLhsDilate() : ArrayRef<int64_t>(), 1);
  config.rhsDilation = field(w ? w.getRhsDilate() : ArrayRef<int64_t>(), 1);
  // cuDNN flips the filter in all spatial dimensions or in none.
  config.reversed = llvm::any_of(reversal, [](int64_t r) { return r != 0; });
  if (config.reversed && llvm::is_contained(reversal, 0))
    return fail("window reversal of some spatial dimensions only is not "
                "supported (cuDNN reverses all or none)");
  for (size_t d = 0; d < rank; ++d)
    if (size[d] != config.filter.getSpatialSize(d))
      return fail("the window's size differs from the filter's spatial "
                  "extents");

  // The element types are checked by thunk.convolution's verifier (cuDNN's
  // combinations), at the call's location.

  auto root = readBackendConfig(call.getBackendConfigAttr());
  BackendConfigAttr cfg = root ? root.getCudnnConvBackendConfig() : nullptr;
  if (fused) {
    if (!cfg)
      return fail("no typed cudnn_conv_backend_config in the backend_config");
    StringRef mode = cfg.getString("activation_mode").value_or("kNone");
    std::optional<th::ConvActivation> activation =
        llvm::StringSwitch<std::optional<th::ConvActivation>>(mode)
            .Case("kNone", th::ConvActivation::None)
            .Case("kRelu", th::ConvActivation::Relu)
            .Case("kRelu6", th::ConvActivation::Relu6)
            .Case("kElu", th::ConvActivation::Elu)
            .Case("kLeakyRelu", th::ConvActivation::LeakyRelu)
            .Case("kTanh", th::ConvActivation::Tanh)
            .Case("kSigmoid", th::ConvActivation::Sigmoid)
            .Default(std::nullopt);
    if (!activation)
      return fail("activation " + mode + " is not supported");
    config.activation = *activation;
    config.convResultScale = cfg.getDouble("conv_result_scale").value_or(1);
    config.sideInputScale = cfg.getDouble("side_input_scale").value_or(0);
    config.leakyReluAlpha = cfg.getDouble("leakyrelu_alpha").value_or(0);
    if (config.sideInput) {
      auto side = cast<RankedTensorType>(config.sideInput.getType());
      if (side.getShape() != config.output.getShape() ||
          getMinorToMajor(side) !=
              SmallVector<int64_t>(config.output.getMinorToMajor()))
        return fail("the side input must have the output's shape and "
                    "layout");
    }
  }
  FailureOr<int64_t> algorithm = getAlgorithm(cfg);
  if (failed(algorithm))
    return fail("the backend config's algorithm has no integer algo_id");
  config.algorithm = *algorithm;
  return config;
}
