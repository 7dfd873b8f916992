//===- LibraryCalls.cpp - cuDNN, cuSOLVER and cuBLAS trsm custom calls ----===//
//
// XLA's library custom calls, computed on the CPU:
//   - `__cudnn$convForward`: the convolution of its two operands under the
//     call's window, dim_labels and feature_group_count;
//   - `__cudnn$convBackwardInput` (dy, w) -> dx: the transposed
//     convolution. The call's dim_labels describe the forward convolution
//     dx * w -> dy (input = the result, output = operand 0), so dx is the
//     convolution of dy, base-dilated by the stride, with w reversed and its
//     feature dimensions swapped, padded low by (K - 1) * d - pad_low;
//   - `__cudnn$convBackwardFilter` (x, dy) -> dw: again a forward x * dw ->
//     dy in the call's dim_labels; dw is the convolution of x (batch and
//     feature roles swapped) with dy as kernel, window dilated by the
//     stride, feature_group_count as batch_group_count;
//   - `__cudnn$convBiasActivationForward` (x, w, bias[, side]):
//     act(conv_result_scale * conv(x, w) + bias + side_input_scale * side),
//     bias along the output feature dimension, activations kNone, kRelu,
//     kRelu6, kElu, kLeakyRelu (leakyrelu_alpha), kTanh, kSigmoid;
//   - `__cusolver$cholesky` (a) -> (factor, workspace, info): the Cholesky
//     factor of each matrix (backend_config `lower`), info 1 where it is not
//     positive definite (the factor is NaN there), 0 elsewhere;
//   - `__cublas$triangularSolve` (a, b) -> (x, scratch): triangular-solve
//     under the TriangularSolveOptions of its backend_config.
// Each returns its tuple with zero scratch/workspace. Convolutions sum in
// double and round once; the fused epilogue rounds after each step, as the
// instructions it replaces do. Integer convolutions (s8 input and filter)
// with an s8 result, or with an epilogue, compute in f32 and convert to
// the result saturating at the end, as the f32 arithmetic, clamp to
// [-128, 127] and convert XLA's fused-conv rewriter folds into them.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Internal.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;

static int64_t at(ArrayRef<int64_t> v, size_t d, int64_t dflt) {
  return d < v.size() ? v[d] : dflt;
}

/// The forward convolution each cuDNN call computes (see the file comment).
static FailureOr<Literal> cudnnConvolution(Interp &interp, CustomCallOp op,
                                           StringRef target, const Literal &a,
                                           const Literal &b, Type resultType) {
  MLIRContext *ctx = op.getContext();
  auto fail = [&](const Twine &why) -> FailureOr<Literal> {
    return interp.fail(op, target + ": " + why);
  };
  ConvDimensionNumbersAttr dn = op.getDimLabelsAttr();
  if (!dn)
    return fail("no dim_labels");
  WindowAttr w = op.getWindowAttr();
  int64_t groups = op.getFeatureGroupCount().value_or(1);
  Literal result = Literal::zeros(resultType);
  if (target == "__cudnn$convForward" ||
      target == "__cudnn$convBiasActivationForward")
    return convolution(interp, op, w, dn, groups,
                       op.getBatchGroupCount().value_or(1), a, b,
                       std::move(result));
  size_t rank = dn.getInputSpatial().size();
  ArrayRef<int64_t> size = w ? w.getSize() : ArrayRef<int64_t>();
  ArrayRef<int64_t> stride = w ? w.getStride() : ArrayRef<int64_t>();
  ArrayRef<int64_t> padLow = w ? w.getPadLow() : ArrayRef<int64_t>();
  ArrayRef<int64_t> lhsDil = w ? w.getLhsDilate() : ArrayRef<int64_t>();
  ArrayRef<int64_t> rhsDil = w ? w.getRhsDilate() : ArrayRef<int64_t>();
  for (size_t d = 0; d < rank; ++d)
    if (at(lhsDil, d, 1) != 1)
      return fail("base dilation is not supported");
  SmallVector<int64_t> ones(rank, 1), zeros(rank, 0);
  if (target == "__cudnn$convBackwardInput") {
    if (groups != 1)
      return fail("grouped backward-input convolutions are not supported");
    SmallVector<int64_t> ksize, low, dil, rev(rank, 1), lhsDilate;
    for (size_t d = 0; d < rank; ++d) {
      int64_t k = at(size, d, 1), r = at(rhsDil, d, 1);
      ksize.push_back(k);
      dil.push_back(r);
      lhsDilate.push_back(at(stride, d, 1));
      low.push_back((k - 1) * r - at(padLow, d, 0));
    }
    auto fw =
        WindowAttr::get(ctx, ksize, ones, low, zeros, lhsDilate, dil, rev);
    auto fdn = ConvDimensionNumbersAttr::get(
        ctx, dn.getOutputBatch(), dn.getOutputFeature(), dn.getOutputSpatial(),
        dn.getKernelOutput(), dn.getKernelInput(), dn.getKernelSpatial(),
        dn.getInputBatch(), dn.getInputFeature(), dn.getInputSpatial());
    return convolution(interp, op, fw, fdn, 1, 1, a, b, std::move(result));
  }
  if (target == "__cudnn$convBackwardFilter") {
    SmallVector<int64_t> ksize, low, st, dil;
    for (size_t d = 0; d < rank; ++d) {
      ksize.push_back(b.getShape()[dn.getOutputSpatial()[d]]);
      low.push_back(at(padLow, d, 0));
      st.push_back(at(rhsDil, d, 1));
      dil.push_back(at(stride, d, 1));
    }
    auto fw = WindowAttr::get(ctx, ksize, st, low, zeros, ones, dil, zeros);
    auto fdn = ConvDimensionNumbersAttr::get(
        ctx, dn.getInputFeature(), dn.getInputBatch(), dn.getInputSpatial(),
        dn.getOutputBatch(), dn.getOutputFeature(), dn.getOutputSpatial(),
        dn.getKernelInput(), dn.getKernelOutput(), dn.getKernelSpatial());
    return convolution(interp, op, fw, fdn, 1, groups, a, b, std::move(result));
  }
  return fail("unknown target");
}

static double activate(StringRef mode, double x, double alpha) {
  if (mode == "kRelu")
    return x < 0 ? 0.0 : x;
  if (mode == "kRelu6")
    return std::min(std::max(x, 0.0), 6.0);
  if (mode == "kElu")
    return x > 0 ? x : std::expm1(x);
  if (mode == "kLeakyRelu")
    return x > 0 ? x : alpha * x;
  if (mode == "kTanh")
    return std::tanh(x);
  if (mode == "kSigmoid")
    return 1.0 / (1.0 + std::exp(-x));
  return x;
}

static EvalResult cudnnCall(Interp &interp, CustomCallOp op, StringRef target,
                            Operands operands) {
  auto fail = [&](const Twine &why) {
    return interp.error(op, target + ": " + why);
  };
  auto tuple = dyn_cast<TupleType>(op.getType());
  if (!tuple || tuple.size() != 2 || !isa<RankedTensorType>(tuple.getType(0)))
    return fail("the result must be the tuple (result, u8[scratch])");
  bool fused = target == "__cudnn$convBiasActivationForward";
  if (fused ? (operands.size() != 3 && operands.size() != 4)
            : operands.size() != 2)
    return fail(fused ? "expected 3 or 4 operands (input, filter, bias[, "
                        "side input])"
                      : "expected 2 operands");
  for (const Literal *l : operands)
    if (!l->isArray())
      return fail("operands must be arrays");
  // An integer result narrower than 32 bits, or one with an epilogue, is
  // computed in f32 and converted (saturating) at the end, as the f32
  // arithmetic and the clamp and convert to s8 it replaces.
  auto resultType = cast<RankedTensorType>(tuple.getType(0));
  Type resultElt = resultType.getElementType();
  bool viaF32 = isa<IntegerType>(resultElt) &&
                (fused || resultElt.getIntOrFloatBitWidth() < 32);
  Type f32 = Float32Type::get(op.getContext());
  FailureOr<Literal> conv = cudnnConvolution(
      interp, op, target, *operands[0], *operands[1],
      viaF32 ? RankedTensorType::get(resultType.getShape(), f32) : resultType);
  if (failed(conv))
    return failure();
  Literal &out = *conv;
  if (fused) {
    auto root = readBackendConfig(op.getBackendConfigAttr());
    BackendConfigAttr cfg = root ? root.getCudnnConvBackendConfig() : nullptr;
    if (!cfg)
      return fail("no typed cudnn_conv_backend_config in the backend_config");
    double scale = cfg.getDouble("conv_result_scale").value_or(1);
    double sideScale = cfg.getDouble("side_input_scale").value_or(0);
    double alpha = cfg.getDouble("leakyrelu_alpha").value_or(0);
    StringRef mode = cfg.getString("activation_mode").value_or("kNone");
    if (mode != "kNone" && mode != "kRelu" && mode != "kRelu6" &&
        mode != "kElu" && mode != "kLeakyRelu" && mode != "kTanh" &&
        mode != "kSigmoid")
      return fail("activation " + mode + " is not supported");
    if (out.getElementKind() != ElementKind::Float)
      return fail("only float results are supported");
    const Literal &bias = *operands[2];
    const Literal *side = operands.size() == 4 ? operands[3] : nullptr;
    int64_t featureDim = op.getDimLabelsAttr().getOutputFeature();
    if (bias.getRank() != 1 || bias.getShape()[0] != out.getShape()[featureDim])
      return fail("the bias must be a vector over the output features");
    if (side && side->getShape() != out.getShape())
      return fail("the side input must have the result's shape");
    SmallVector<int64_t> idx(out.getRank(), 0);
    for (int64_t i = 0, n = out.getNumElements(); i < n;
         ++i, nextIndex(idx, out.getShape())) {
      if (scale != 1.0)
        out.setFloat(i, out.getFloat(i) * scale);
      // The bias first, then the side input: the order of the usual graph
      // (XLA fuses the add nearest the conv first, and a residual add comes
      // after the bias add).
      out.setFloat(i, out.getFloat(i) + bias.getFloat(idx[featureDim]));
      if (side && sideScale != 0.0) {
        double s = side->getFloat(i);
        if (sideScale != 1.0) {
          // The multiply it replaces ran in the side input's type.
          Type sideElt = side->getElementType();
          Literal tmp = Literal::zeros(RankedTensorType::get(
              {}, isa<FloatType>(sideElt) ? sideElt : f32));
          tmp.setFloat(0, s * sideScale);
          s = tmp.getFloat(0);
        }
        out.setFloat(i, out.getFloat(i) + s);
      }
      if (mode != "kNone")
        out.setFloat(i, activate(mode, out.getFloat(i), alpha));
    }
  }
  std::vector<Literal> elements;
  if (viaF32) {
    Literal narrow = Literal::zeros(resultType);
    for (int64_t i = 0, n = out.getNumElements(); i < n; ++i)
      narrow.setFloat(i, out.getFloat(i)); // saturating, NaN -> 0
    elements.push_back(std::move(narrow));
  } else {
    elements.push_back(std::move(out));
  }
  elements.push_back(Literal::zeros(tuple.getType(1)));
  return Literal::tuple(std::move(elements));
}

static EvalResult cusolverCholesky(Interp &interp, CustomCallOp op,
                                   Operands operands) {
  auto fail = [&](const Twine &why) {
    return interp.error(op, "__cusolver$cholesky: " + why);
  };
  auto tuple = dyn_cast<TupleType>(op.getType());
  if (!tuple || tuple.size() != 3 || operands.size() != 1 ||
      !operands[0]->isArray() || operands[0]->getRank() < 2)
    return fail("expected one matrix operand and the tuple (factor, "
                "workspace, info)");
  auto root = readBackendConfig(op.getBackendConfigAttr());
  bool lower = false;
  if (root) {
    lower = root.getBool("lower").value_or(false);
  } else if (auto text =
                 dyn_cast_or_null<StringAttr>(op.getBackendConfigAttr())) {
    lower = text.getValue().contains("\"lower\":true");
  }
  const Literal &a = *operands[0];
  Literal factor = cholesky(lower, a, Literal::zeros(tuple.getType(0)));
  Literal info = Literal::zeros(tuple.getType(2));
  int64_t rank = a.getRank();
  int64_t matrix = a.getShape()[rank - 1] * a.getShape()[rank - 2];
  if (info.getNumElements() * matrix != factor.getNumElements())
    return fail("info must have one element per matrix");
  bool complex = factor.getElementKind() == ElementKind::Complex;
  auto isNan = [&](int64_t i) {
    return complex ? std::isnan(factor.getComplex(i).real())
                   : std::isnan(factor.getFloat(i));
  };
  for (int64_t m = 0; m < info.getNumElements(); ++m)
    for (int64_t i = 0; i < matrix; ++i)
      if (isNan(m * matrix + i)) {
        info.setInt(m, 1);
        break;
      }
  std::vector<Literal> elements;
  elements.push_back(std::move(factor));
  elements.push_back(Literal::zeros(tuple.getType(1)));
  elements.push_back(std::move(info));
  return Literal::tuple(std::move(elements));
}

static EvalResult cublasTriangularSolve(Interp &interp, CustomCallOp op,
                                        Operands operands) {
  auto fail = [&](const Twine &why) {
    return interp.error(op, "__cublas$triangularSolve: " + why);
  };
  auto tuple = dyn_cast<TupleType>(op.getType());
  if (!tuple || tuple.size() != 2 || operands.size() != 2 ||
      !operands[0]->isArray() || !operands[1]->isArray() ||
      operands[1]->getRank() < 2 ||
      operands[0]->getRank() != operands[1]->getRank())
    return fail("expected operands (a, b) of one rank and the tuple "
                "(result, scratch)");
  auto config = readBackendConfig(op.getBackendConfigAttr());
  if (!config)
    return fail("backend_config must be TriangularSolveOptions JSON");
  std::optional<Transpose> trans = symbolizeTranspose(
      config.getString("transpose_a").value_or("NO_TRANSPOSE"));
  if (!trans)
    return fail("unknown transpose_a");
  std::vector<Literal> elements;
  elements.push_back(eval::triangularSolve(
      config.getBool("left_side").value_or(false),
      config.getBool("lower").value_or(false),
      config.getBool("unit_diagonal").value_or(false), *trans, *operands[0],
      *operands[1], Literal::zeros(tuple.getType(0))));
  elements.push_back(Literal::zeros(tuple.getType(1)));
  return Literal::tuple(std::move(elements));
}

EvalResult eval::evalLibraryCustomCall(Interp &interp, CustomCallOp op,
                                       Operands operands) {
  StringRef target = op.getCustomCallTarget();
  if (target == "__cudnn$convForward" ||
      target == "__cudnn$convBackwardInput" ||
      target == "__cudnn$convBackwardFilter" ||
      target == "__cudnn$convBiasActivationForward")
    return cudnnCall(interp, op, target, operands);
  if (target == "__cusolver$cholesky")
    return cusolverCholesky(interp, op, operands);
  if (target == "__cublas$triangularSolve")
    return cublasTriangularSolve(interp, op, operands);
  if (EvalResult result = evalFactorizationCall(interp, op, operands))
    return result;
  if (target.starts_with("lapack_"))
    return evalLapackCustomCall(interp, op, operands);
  return std::nullopt;
}
