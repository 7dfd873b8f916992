//===- GemmThunkConfig.cpp - cuBLAS custom calls as thunk.gemm ------------===//
//
// What `thunk.gemm` needs of a `__cublas$gemm` / `__cublas$lt$matmul`
// custom call: the cuBLASLt matrix layouts (from the dot dimension numbers
// and the operands' layouts), alpha, beta, the epilogue and the algorithm.
//
//===----------------------------------------------------------------------===//

#include "GemmThunkConfig.h"
#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::hlo;
namespace th = mlir::thunk;

bool GemmThunkConfig::hasBias() const {
  return epilogue == th::GemmEpilogue::Bias ||
         epilogue == th::GemmEpilogue::BiasRelu ||
         epilogue == th::GemmEpilogue::BiasGelu;
}

/// The cuBLASLt layout of dimensions `rows` and `cols` (each a group of
/// dimensions that collapse into one, listed major to minor) of `type`, in
/// batches over `batchDims` (`batch` matrices; an operand without batch
/// dimensions is read by every batch).
static FailureOr<th::MatrixLayoutAttr>
getMatrixLayout(RankedTensorType type, ArrayRef<int64_t> batchDims,
                ArrayRef<int64_t> rows, ArrayRef<int64_t> cols, int64_t batch) {
  SmallVector<int64_t> strides = getPhysicalStrides(type);
  ArrayRef<int64_t> shape = type.getShape();
  // A group's size and the stride of its most minor dimension, when its
  // dimensions (those of size 1 aside) are contiguous in the order listed;
  // {1, 0} for a group of none.
  auto collapse = [&](ArrayRef<int64_t> group)
      -> std::optional<std::pair<int64_t, int64_t>> {
    SmallVector<int64_t> dims;
    for (int64_t d : group) {
      if (d < 0 || d >= type.getRank())
        return std::nullopt;
      if (shape[d] != 1)
        dims.push_back(d);
    }
    if (dims.empty())
      return std::pair<int64_t, int64_t>{1, 0};
    int64_t size = 1;
    for (size_t i = 0; i < dims.size(); ++i) {
      if (i + 1 < dims.size() &&
          strides[dims[i]] != strides[dims[i + 1]] * shape[dims[i + 1]])
        return std::nullopt;
      size *= shape[dims[i]];
    }
    return std::pair<int64_t, int64_t>{size, strides[dims.back()]};
  };
  auto b = collapse(batchDims), r = collapse(rows), c = collapse(cols);
  if (!b || !r || !c)
    return failure();
  auto [numRows, rowStride] = *r;
  auto [numCols, colStride] = *c;
  th::MatrixOrder order;
  int64_t leading;
  if (numCols == 1 || colStride == 1) {
    order = th::MatrixOrder::RowMajor;
    leading = std::max(rowStride, numCols);
  } else if (numRows == 1 || rowStride == 1) {
    order = th::MatrixOrder::ColumnMajor;
    leading = std::max(colStride, numRows);
  } else {
    return failure();
  }
  int64_t batchStride = batchDims.empty() ? 0 : b->second;
  return th::MatrixLayoutAttr::get(type.getContext(), order, numRows, numCols,
                                   leading, batch, batchStride);
}

FailureOr<GemmThunkConfig> mlir::hlo::getGemmThunkConfig(CustomCallOp call) {
  auto fail = [&](const Twine &why) -> FailureOr<GemmThunkConfig> {
    return call.emitError("hlo-to-thunk: ")
           << call.getCustomCallTarget() << ": " << why;
  };
  auto root = readBackendConfig(call.getBackendConfigAttr());
  BackendConfigAttr cfg = root ? root.getGemmBackendConfig() : nullptr;
  BackendConfigAttr dn =
      cfg ? cfg.getSubConfig("dot_dimension_numbers") : nullptr;
  if (!dn)
    return fail("no gemm_backend_config with dot_dimension_numbers");
  auto dims = [&](StringRef key) {
    return SmallVector<int64_t>(dn.getInts(key).value_or(ArrayRef<int64_t>()));
  };
  SmallVector<int64_t> lb = dims("lhs_batch_dimensions"),
                       lc = dims("lhs_contracting_dimensions"),
                       rb = dims("rhs_batch_dimensions"),
                       rc = dims("rhs_contracting_dimensions");
  StringRef epilogueName = cfg.getString("epilogue").value_or("DEFAULT");
  std::optional<th::GemmEpilogue> epilogue =
      llvm::StringSwitch<std::optional<th::GemmEpilogue>>(epilogueName)
          .Case("DEFAULT", th::GemmEpilogue::Default)
          .Case("RELU", th::GemmEpilogue::Relu)
          .Case("BIAS", th::GemmEpilogue::Bias)
          .Case("BIAS_RELU", th::GemmEpilogue::BiasRelu)
          .Case("GELU", th::GemmEpilogue::Gelu)
          .Case("BIAS_GELU", th::GemmEpilogue::BiasGelu)
          .Default(std::nullopt);
  if (!epilogue)
    return fail("epilogue " + epilogueName + " is not supported");
  GemmThunkConfig config;
  config.epilogue = *epilogue;
  config.beta = cfg.getDouble("beta").value_or(0);
  config.alphaReal = cfg.getDouble("alpha_real").value_or(1);
  config.alphaImag = cfg.getDouble("alpha_imag").value_or(0);
  config.algorithm = cfg.getInt("selected_algorithm").value_or(-1);
  auto tuple = dyn_cast<TupleType>(call.getType());
  OperandRange operands = getDataOperands(call);
  bool fp8 = call.getCustomCallTarget() == "__cublas$lt$matmul$f8";
  // The dot algorithm: those cuBLAS computes as it does without one (the
  // bf16 one's operands are bf16 already), TF32, or fp8's fast
  // accumulation: XLA's runtime (IsFastAccumEnabled) takes it for
  // ALG_DOT_ANY_F8_ANY_F8_F32_FAST_ACCUM, and for an fp8 GEMM without an
  // algorithm whose operand precisions are all DEFAULT.
  StringRef algorithm = "ALG_UNSET";
  bool defaultPrecision = true;
  if (BackendConfigAttr pc = cfg.getSubConfig("precision_config")) {
    algorithm = pc.getString("algorithm").value_or("ALG_UNSET");
    if (auto precisions =
            dyn_cast_or_null<ArrayAttr>(pc.getMember("operand_precision")))
      defaultPrecision = llvm::all_of(precisions, [](Attribute p) {
        auto s = dyn_cast<StringAttr>(p);
        return s && s.getValue() == "DEFAULT";
      });
  }
  config.tf32 = algorithm == "ALG_DOT_TF32_TF32_F32";
  config.fastAccum =
      fp8 && (algorithm == "ALG_DOT_ANY_F8_ANY_F8_F32_FAST_ACCUM" ||
              (algorithm == "ALG_UNSET" && defaultPrecision));
  if (!llvm::is_contained({"ALG_UNSET", "ALG_DOT_BF16_BF16_F32",
                           "ALG_DOT_F16_F16_F32", "ALG_DOT_F32_F32_F32",
                           "ALG_DOT_F64_F64_F64", "ALG_DOT_TF32_TF32_F32",
                           "ALG_DOT_ANY_F8_ANY_F8_F32",
                           "ALG_DOT_ANY_F8_ANY_F8_F32_FAST_ACCUM"},
                          algorithm))
    return fail("precision_config algorithm " + algorithm +
                " is not supported");
  config.hasAmax = cfg.getBool("damax_output").value_or(false);
  if (config.hasAmax && (!fp8 || !tuple))
    return fail("damax_output needs an fp8 GEMM returning (D, amax, "
                "workspace)");
  Type d = tuple ? tuple.getType(0) : call.getType();
  bool fp8Out =
      fp8 && isa<Float8E4M3FNType, Float8E5M2Type>(getElementTypeOrSelf(d));
  if (fp8Out && config.beta != 0 &&
      (operands.size() < 3 ||
       !(getElementTypeOrSelf(operands[2].getType()).isBF16() ||
         getElementTypeOrSelf(operands[2].getType()).isF16())))
    return fail("an fp8 result adds a bf16 or f16 C only");
  int64_t next = 2 + (config.beta != 0);
  if (fp8) {
    config.aScale = next++;
    config.bScale = next++;
  }
  if (config.hasBias())
    config.bias = next++;
  // XLA leaves d_scale out of an unscaled fp8 result (its runtime then
  // reads the last operand, a scale of 1).
  if (fp8Out && int64_t(operands.size()) == next + 1)
    config.dScale = next++;
  if ((tuple && tuple.size() != 2u + config.hasAmax) ||
      int64_t(operands.size()) != next)
    return fail(fp8 ? "expected operands (A, B[, C], a_scale, b_scale[, "
                      "bias][, d_scale of an fp8 D]) and the result (D, "
                      "workspace) or D"
                    : "expected operands (A, B[, C][, bias]) and the result "
                      "(D, workspace) or D");
  config.hasWorkspace = bool(tuple);
  auto lhsType = dyn_cast<RankedTensorType>(operands[0].getType());
  auto rhsType = dyn_cast<RankedTensorType>(operands[1].getType());
  auto outType =
      dyn_cast<RankedTensorType>(tuple ? tuple.getType(0) : call.getType());
  if (!lhsType || !rhsType || !outType)
    return fail("operands and result must be arrays");
  // The non-contracting, non-batch dimensions of each side.
  auto free = [](RankedTensorType t, ArrayRef<int64_t> batch,
                 ArrayRef<int64_t> contracting) {
    SmallVector<int64_t> result;
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (!llvm::is_contained(batch, d) && !llvm::is_contained(contracting, d))
        result.push_back(d);
    return result;
  };
  SmallVector<int64_t> lm = free(lhsType, lb, lc), rn = free(rhsType, rb, rc);
  int64_t numBatch = std::max(lb.size(), rb.size());
  SmallVector<int64_t> ob, om, on;
  for (int64_t d = 0; d < outType.getRank(); ++d)
    (d < numBatch                        ? ob
     : d < numBatch + int64_t(lm.size()) ? om
                                         : on)
        .push_back(d);
  int64_t batch = 1;
  for (int64_t d : ob)
    batch *= outType.getShape()[d];
  auto lhsLayout = getMatrixLayout(lhsType, lb, lm, lc, batch);
  auto rhsLayout = getMatrixLayout(rhsType, rb, rc, rn, batch);
  auto outLayout = getMatrixLayout(outType, ob, om, on, batch);
  if (failed(lhsLayout) || failed(rhsLayout) || failed(outLayout))
    return fail("an operand's layout is not a (batched) matrix cuBLASLt "
                "takes");
  config.lhs = *lhsLayout;
  config.rhs = *rhsLayout;
  config.out = *outLayout;
  return config;
}
