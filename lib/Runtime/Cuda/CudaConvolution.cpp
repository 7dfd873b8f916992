//===- CudaConvolution.cpp - thunk.convolution through cuDNN --------------===//
//
// A `thunk.convolution` becomes one call of cuDNN's convolution API
// (forward, backward data, backward filter, or the fused
// bias-activation forward), planned once: tensor descriptors from each
// operand's `#thunk.conv_tensor` (extents and strides in the order batch,
// feature, spatial), a filter descriptor (KCRS or KRSC: cuDNN's filters
// take no strides), the convolution descriptor (symmetric padding,
// strides, dilation, groups; cross-correlation, HLO's convolution) and
// the algorithm: the one `algorithm` names when cuDNN offers it, else the
// heuristic's first (with scratch of the runtime's own when it needs more
// than the op's workspace slice); the others are kept for autotuning. A
// convolution with one spatial dimension gets a second of extent 1 (cuDNN's
// descriptors have at least four dimensions).
//
//===----------------------------------------------------------------------===//

#include "CudaConvolution.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::thunk;
using namespace mlir::thunk::cuda;

ConvPlan::~ConvPlan() {
  if (!dnn)
    return;
  for (cudnnTensorDescriptor_t t : {x, y, z, bias})
    if (t)
      dnn->cudnnDestroyTensorDescriptor(t);
  if (w)
    dnn->cudnnDestroyFilterDescriptor(w);
  if (conv)
    dnn->cudnnDestroyConvolutionDescriptor(conv);
  if (activation)
    dnn->cudnnDestroyActivationDescriptor(activation);
}

static std::optional<cudnnDataType_t> cudnnType(Type t) {
  if (t.isInteger(8))
    return CUDNN_DATA_INT8;
  if (t.isF32())
    return CUDNN_DATA_FLOAT;
  if (t.isF16())
    return CUDNN_DATA_HALF;
  if (t.isBF16())
    return CUDNN_DATA_BFLOAT16;
  if (t.isF64())
    return CUDNN_DATA_DOUBLE;
  return std::nullopt;
}

namespace {
/// Extents and strides (batch, feature, spatial...) as cuDNN's ints, with
/// a unit spatial dimension added to a 1-D convolution's operands.
struct Dims {
  SmallVector<int> extents, strides;
};
} // namespace

/// The strides of a dense array of `extents` (batch, feature, spatial...)
/// stored batch outermost, then the features (NCHW) or the spatial
/// dimensions (NHWC, `channelsLast`); none beyond cuDNN's int.
static std::optional<SmallVector<int>> packedStrides(ArrayRef<int> extents,
                                                     bool channelsLast) {
  int n = extents.size();
  SmallVector<int> order = {0}; // outermost first
  if (!channelsLast)
    order.push_back(1);
  for (int i = 2; i < n; ++i)
    order.push_back(i);
  if (channelsLast)
    order.push_back(1);
  SmallVector<int> strides(n);
  int64_t next = 1;
  for (int i = n - 1; i >= 0; --i) {
    if (next > INT32_MAX)
      return std::nullopt;
    strides[order[i]] = int(next);
    next *= extents[order[i]];
  }
  return strides;
}

/// Whether `d` is stored NCHW (false) or NHWC (true), if either. A
/// dimension of extent 1 addresses nothing: its stride does not count.
static std::optional<bool> packedOrder(const Dims &d) {
  for (bool channelsLast : {false, true}) {
    std::optional<SmallVector<int>> packed =
        packedStrides(d.extents, channelsLast);
    if (packed && llvm::all_of(llvm::seq<size_t>(0, packed->size()),
                               [&](size_t i) {
                                 return d.extents[i] == 1 ||
                                        d.strides[i] == (*packed)[i];
                               }))
      return channelsLast;
  }
  return std::nullopt;
}

static FailureOr<Dims> descriptorDims(ConvTensorAttr layout,
                                      std::string &error) {
  Dims d;
  for (auto [e, s] :
       llvm::zip(layout.getDescriptorDims(), layout.getDescriptorStrides())) {
    if (e > INT32_MAX || s > INT32_MAX) {
      error = "thunk.convolution: a dimension or stride beyond cuDNN's int";
      return failure();
    }
    d.extents.push_back(int(e));
    d.strides.push_back(int(s));
  }
  if (d.extents.size() == 3) {
    d.extents.push_back(1);
    d.strides.push_back(1);
  }
  // A packed array gets the strides cuDNN expects of its order also for
  // its dimensions of extent 1 (the layout may place those anywhere), so
  // that cuDNN recognizes NCHW or NHWC.
  if (std::optional<bool> channelsLast = packedOrder(d))
    d.strides = *packedStrides(d.extents, *channelsLast);
  return d;
}

FailureOr<std::unique_ptr<ConvPlan>>
mlir::thunk::cuda::planConvolution(const Cudnn &dnn, ConvolutionOp op,
                                   int64_t workspace, bool deterministic,
                                   std::string &error) {
  auto plan = std::make_unique<ConvPlan>();
  plan->dnn = &dnn;
  plan->kind = op.getKind();
  auto fail = [&](const std::string &why) {
    error = "thunk.convolution: " + why;
    return failure();
  };
  auto check = [&](const char *call, cudnnStatus_t s) {
    if (s == CUDNN_STATUS_SUCCESS)
      return success();
    return fail(dnn.describe(call, s));
  };
  if (plan->kind == ConvKind::ForwardBiasActivation &&
      op.getActivation() != ConvActivation::None &&
      op.getActivation() != ConvActivation::Relu)
    return fail("cuDNN's fused convolution applies relu or nothing");
  Type element = cast<MemRefType>(op.getInput().getType()).getElementType();
  Type outElement = cast<MemRefType>(op.getOutput().getType()).getElementType();
  // i8 convolutions: i8 input and filter, i32 sums, an f32 bias, an i8 or
  // f32 output (the verifier checked the combination).
  bool int8 = element.isInteger(8);
  std::optional<cudnnDataType_t> type = cudnnType(element);
  std::optional<cudnnDataType_t> outType = cudnnType(outElement);
  if (!type || !outType)
    return fail("cuDNN takes no convolution of this element type");
  plan->isDouble = *type == CUDNN_DATA_DOUBLE;
  cudnnDataType_t compute = int8             ? CUDNN_DATA_INT32
                            : plan->isDouble ? CUDNN_DATA_DOUBLE
                                             : CUDNN_DATA_FLOAT;
  int64_t spatial = op.getNumSpatialDims();
  if (spatial < 1 || spatial > 3)
    return fail("cuDNN takes one to three spatial dimensions");

  // The window: cuDNN pads both sides alike and dilates only the filter.
  SmallVector<int> pad, stride, dilation;
  for (int64_t i = 0; i < spatial; ++i) {
    if (op.getPaddingLow()[i] != op.getPaddingHigh()[i])
      return fail("cuDNN needs symmetric padding (hlo-gpu-conv-padding-"
                  "legalization makes it so)");
    if (op.getLhsDilation()[i] != 1)
      return fail("cuDNN takes no input dilation (a backward-input "
                  "convolution expresses it)");
    pad.push_back(int(op.getPaddingLow()[i]));
    stride.push_back(int(op.getWindowStrides()[i]));
    dilation.push_back(int(op.getRhsDilation()[i]));
  }
  if (spatial == 1) {
    pad.push_back(0);
    stride.push_back(1);
    dilation.push_back(1);
  }

  auto tensor = [&](cudnnTensorDescriptor_t &desc, ConvTensorAttr layout,
                    cudnnDataType_t dataType) {
    FailureOr<Dims> d = descriptorDims(layout, error);
    if (failed(d) || failed(check("cudnnCreateTensorDescriptor",
                                  dnn.cudnnCreateTensorDescriptor(&desc))))
      return failure();
    return check(
        "cudnnSetTensorNdDescriptor",
        dnn.cudnnSetTensorNdDescriptor(desc, dataType, int(d->extents.size()),
                                       d->extents.data(), d->strides.data()));
  };
  if (failed(tensor(plan->x, op.getInputLayout(), *type)) ||
      failed(tensor(plan->y, op.getOutputLayout(), *outType)))
    return failure();

  // The filter: KCRS (NCHW) or KRSC (NHWC) in memory.
  ConvTensorAttr filter = op.getFilterLayout();
  FailureOr<Dims> fd = descriptorDims(filter, error);
  if (failed(fd))
    return failure();
  std::optional<bool> filterOrder = packedOrder(*fd);
  if (!filterOrder)
    return fail("cuDNN takes filters stored KCRS or KRSC only");
  if (int8 && !*filterOrder)
    return fail("cuDNN takes i8 filters stored KRSC only (the layout "
                "assignment gives i8 convolutions NHWC layouts)");
  cudnnTensorFormat_t format =
      *filterOrder ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
  if (failed(check("cudnnCreateFilterDescriptor",
                   dnn.cudnnCreateFilterDescriptor(&plan->w))) ||
      failed(check("cudnnSetFilterNdDescriptor",
                   dnn.cudnnSetFilterNdDescriptor(plan->w, *type, format,
                                                  int(fd->extents.size()),
                                                  fd->extents.data()))))
    return failure();

  plan->tensorOps = !int8 && !element.isF32() && !plan->isDouble;
  if (failed(check("cudnnCreateConvolutionDescriptor",
                   dnn.cudnnCreateConvolutionDescriptor(&plan->conv))) ||
      failed(check(
          "cudnnSetConvolutionNdDescriptor",
          dnn.cudnnSetConvolutionNdDescriptor(
              plan->conv, int(pad.size()), pad.data(), stride.data(),
              dilation.data(),
              op.getReversed() ? CUDNN_CONVOLUTION : CUDNN_CROSS_CORRELATION,
              compute))) ||
      failed(check("cudnnSetConvolutionGroupCount",
                   dnn.cudnnSetConvolutionGroupCount(
                       plan->conv, int(op.getFeatureGroupCount())))) ||
      failed(check("cudnnSetConvolutionMathType",
                   dnn.cudnnSetConvolutionMathType(
                       plan->conv, int8              ? CUDNN_DEFAULT_MATH
                                   : plan->tensorOps ? CUDNN_TENSOR_OP_MATH
                                                     : CUDNN_FMA_MATH))))
    return failure();

  // An i8 fused convolution without activation: cuDNN runs it only with
  // the implicit-precomputed-GEMM algorithm.
  bool implicitPrecompGemm = false;
  plan->alpha = op.getConvResultScale().convertToDouble();
  plan->alpha2 = op.getSideInputScale().convertToDouble();
  if (plan->kind == ConvKind::ForwardBiasActivation) {
    cudnnActivationMode_t mode;
    switch (op.getActivation()) {
    case ConvActivation::None:
      mode = CUDNN_ACTIVATION_IDENTITY;
      break;
    case ConvActivation::Relu:
      mode = CUDNN_ACTIVATION_RELU;
      break;
    default:
      llvm_unreachable("checked above");
    }
    if (!op.getBias())
      return fail("the fused convolution needs a bias");
    // The bias: one value per output feature.
    // The bias: 1 x K x 1 x ..., packed.
    SmallVector<int> biasDims(fd->extents.size(), 1),
        biasStrides(fd->extents.size(), 1);
    biasDims[1] = int(op.getOutputLayout().getFeatureSize());
    biasStrides[0] = biasDims[1];
    if (failed(check("cudnnCreateTensorDescriptor",
                     dnn.cudnnCreateTensorDescriptor(&plan->bias))) ||
        failed(check("cudnnSetTensorNdDescriptor",
                     dnn.cudnnSetTensorNdDescriptor(
                         plan->bias, int8 ? CUDNN_DATA_FLOAT : *type,
                         int(biasDims.size()), biasDims.data(),
                         biasStrides.data()))) ||
        failed(check("cudnnCreateActivationDescriptor",
                     dnn.cudnnCreateActivationDescriptor(&plan->activation))) ||
        failed(check("cudnnSetActivationDescriptor",
                     dnn.cudnnSetActivationDescriptor(plan->activation, mode,
                                                      CUDNN_NOT_PROPAGATE_NAN,
                                                      0.0))))
      return failure();
    // The identity epilogue runs as a convolution and two additions, but
    // an i8 output must be rounded after the bias: cuDNN's fused call with
    // identity (which takes only the implicit-precomputed-GEMM algorithm).
    plan->identity = mode == CUDNN_ACTIVATION_IDENTITY && !int8;
    implicitPrecompGemm = mode == CUDNN_ACTIVATION_IDENTITY && int8;
  }

  // The candidates: what cuDNN's heuristic offers and can run
  // (deterministic ones only in a deterministic program); the one
  // `algorithm` names runs if cuDNN offers it, else the heuristic's first.
  // The workspace may exceed the op's slice.
  plan->sliceBytes = workspace;
  constexpr int kCandidates = 16;
  int found = 0;
  auto collect = [&](auto &results) {
    for (int i = 0; i < found; ++i)
      if (results[i].status == CUDNN_STATUS_SUCCESS &&
          (!deterministic || results[i].determinism == CUDNN_DETERMINISTIC))
        plan->candidates.push_back({int(results[i].algo), results[i].memory});
  };
  switch (plan->kind) {
  case ConvKind::Forward:
  case ConvKind::ForwardBiasActivation: {
    if (implicitPrecompGemm) {
      size_t bytes = 0;
      if (failed(check("cudnnGetConvolutionForwardWorkspaceSize",
                       dnn.cudnnGetConvolutionForwardWorkspaceSize(
                           dnn.handle, plan->x, plan->w, plan->conv, plan->y,
                           CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM,
                           &bytes))))
        return failure();
      plan->candidates.push_back(
          {CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, bytes});
      break;
    }
    cudnnConvolutionFwdAlgoPerf_t results[kCandidates];
    if (failed(check("cudnnGetConvolutionForwardAlgorithm_v7",
                     dnn.cudnnGetConvolutionForwardAlgorithm_v7(
                         dnn.handle, plan->x, plan->w, plan->conv, plan->y,
                         kCandidates, &found, results))))
      return failure();
    collect(results);
    break;
  }
  case ConvKind::BackwardInput: {
    cudnnConvolutionBwdDataAlgoPerf_t results[kCandidates];
    if (failed(check("cudnnGetConvolutionBackwardDataAlgorithm_v7",
                     dnn.cudnnGetConvolutionBackwardDataAlgorithm_v7(
                         dnn.handle, plan->w, plan->y, plan->conv, plan->x,
                         kCandidates, &found, results))))
      return failure();
    collect(results);
    break;
  }
  case ConvKind::BackwardFilter: {
    cudnnConvolutionBwdFilterAlgoPerf_t results[kCandidates];
    if (failed(check("cudnnGetConvolutionBackwardFilterAlgorithm_v7",
                     dnn.cudnnGetConvolutionBackwardFilterAlgorithm_v7(
                         dnn.handle, plan->x, plan->y, plan->conv, plan->w,
                         kCandidates, &found, results))))
      return failure();
    collect(results);
    break;
  }
  }
  if (plan->candidates.empty())
    return fail(deterministic ? "cuDNN has no deterministic algorithm for "
                                "this convolution"
                              : "cuDNN has no algorithm for this convolution");
  auto named = llvm::find_if(plan->candidates, [&](const auto &c) {
    return int64_t(c.algo) == int64_t(op.getAlgorithm());
  });
  selectConvAlgorithm(*plan, named == plan->candidates.end()
                                 ? 0
                                 : named - plan->candidates.begin());
  return plan;
}

void mlir::thunk::cuda::selectConvAlgorithm(ConvPlan &plan, size_t index) {
  const ConvPlan::Candidate &c = plan.candidates[index];
  plan.chosen = index;
  plan.neededBytes = c.bytes;
  plan.forward = cudnnConvolutionFwdAlgo_t(c.algo);
  plan.backwardData = cudnnConvolutionBwdDataAlgo_t(c.algo);
  plan.backwardFilter = cudnnConvolutionBwdFilterAlgo_t(c.algo);
}

LogicalResult mlir::thunk::cuda::runConvolution(
    ConvPlan &plan, CUdeviceptr input, CUdeviceptr filter, CUdeviceptr output,
    CUdeviceptr bias, CUdeviceptr sideInput, CUdeviceptr workspace,
    size_t workspaceBytes, CUstream stream, std::string &error) {
  const Cudnn &dnn = *plan.dnn;
  auto ptr = [](CUdeviceptr p) { return reinterpret_cast<void *>(p); };
  // Scaling factors: double for double data, float otherwise.
  double alphaD = plan.alpha, alpha2D = plan.alpha2, zeroD = 0, oneD = 1;
  float alphaF = float(plan.alpha), alpha2F = float(plan.alpha2), zeroF = 0,
        oneF = 1;
  const void *alpha = plan.isDouble ? (const void *)&alphaD : &alphaF;
  const void *alpha2 = plan.isDouble ? (const void *)&alpha2D : &alpha2F;
  const void *zero = plan.isDouble ? (const void *)&zeroD : &zeroF;
  cudnnStatus_t s =
      dnn.cudnnSetStream(dnn.handle, reinterpret_cast<cudaStream_t>(stream));
  const char *call = "cudnnSetStream";
  if (s == CUDNN_STATUS_SUCCESS) {
    switch (plan.kind) {
    case ConvKind::Forward:
      call = "cudnnConvolutionForward";
      s = dnn.cudnnConvolutionForward(
          dnn.handle, alpha, plan.x, ptr(input), plan.w, ptr(filter), plan.conv,
          plan.forward, ptr(workspace), workspaceBytes, zero, plan.y,
          ptr(output));
      break;
    case ConvKind::BackwardInput:
      call = "cudnnConvolutionBackwardData";
      s = dnn.cudnnConvolutionBackwardData(
          dnn.handle, alpha, plan.w, ptr(filter), plan.y, ptr(output),
          plan.conv, plan.backwardData, ptr(workspace), workspaceBytes, zero,
          plan.x, ptr(input));
      break;
    case ConvKind::BackwardFilter:
      call = "cudnnConvolutionBackwardFilter";
      s = dnn.cudnnConvolutionBackwardFilter(
          dnn.handle, alpha, plan.x, ptr(input), plan.y, ptr(output), plan.conv,
          plan.backwardFilter, ptr(workspace), workspaceBytes, zero, plan.w,
          ptr(filter));
      break;
    case ConvKind::ForwardBiasActivation:
      if (plan.identity) {
        // y = alpha conv(x, w); y += alpha2 z; y += bias.
        call = "cudnnConvolutionForward";
        if (sideInput == output) {
          error = "thunk.convolution: a fused convolution without "
                  "activation whose side input is its output";
          return failure();
        }
        s = dnn.cudnnConvolutionForward(
            dnn.handle, alpha, plan.x, ptr(input), plan.w, ptr(filter),
            plan.conv, plan.forward, ptr(workspace), workspaceBytes, zero,
            plan.y, ptr(output));
        const void *one = plan.isDouble ? (const void *)&oneD : &oneF;
        if (s == CUDNN_STATUS_SUCCESS && sideInput) {
          call = "cudnnAddTensor";
          s = dnn.cudnnAddTensor(dnn.handle, alpha2, plan.y, ptr(sideInput),
                                 one, plan.y, ptr(output));
        }
        if (s == CUDNN_STATUS_SUCCESS) {
          call = "cudnnAddTensor";
          s = dnn.cudnnAddTensor(dnn.handle, one, plan.bias, ptr(bias), one,
                                 plan.y, ptr(output));
        }
        break;
      }
      call = "cudnnConvolutionBiasActivationForward";
      // Without a side input, z is the output scaled by zero.
      s = dnn.cudnnConvolutionBiasActivationForward(
          dnn.handle, alpha, plan.x, ptr(input), plan.w, ptr(filter), plan.conv,
          plan.forward, ptr(workspace), workspaceBytes,
          sideInput ? alpha2 : zero, plan.y,
          ptr(sideInput ? sideInput : output), plan.bias, ptr(bias),
          plan.activation, plan.y, ptr(output));
      break;
    }
  }
  if (s == CUDNN_STATUS_SUCCESS)
    return success();
  error = "thunk.convolution: " + dnn.describe(call, s);
  return failure();
}
