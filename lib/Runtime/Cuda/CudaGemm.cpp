//===- CudaGemm.cpp - thunk.gemm through cuBLASLt -------------------------===//
//
// A `thunk.gemm` becomes one cublasLtMatmul, planned once (descriptors,
// layouts and the algorithm the heuristic ranks first, or the one the
// op's `algorithm` names) and then called on every run.
//
// cuBLASLt's matrices are column major: a matrix the op stores row major
// is handed over as its transpose. When the output is row major the
// product is computed transposed (out^T = rhs^T x lhs^T), so that the
// output is column major to cuBLASLt and the op's bias, one element per
// output column, is cuBLASLt's bias, one per row of its D.
//
//===----------------------------------------------------------------------===//

#include "CudaInternal.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cstring>

using namespace mlir;
using namespace mlir::thunk;
using namespace mlir::thunk::cuda;

GemmPlan::~GemmPlan() {
  if (!lt)
    return;
  for (cublasLtMatrixLayout_t layout : {a, b, c, d})
    if (layout)
      lt->cublasLtMatrixLayoutDestroy(layout);
  if (desc)
    lt->cublasLtMatmulDescDestroy(desc);
}

/// cuBLASLt's name of an element type, if it takes it.
static std::optional<cudaDataType_t> dataType(Type t) {
  if (t.isF16())
    return CUDA_R_16F;
  if (t.isBF16())
    return CUDA_R_16BF;
  if (t.isF32())
    return CUDA_R_32F;
  if (t.isF64())
    return CUDA_R_64F;
  if (t.isInteger(8))
    return CUDA_R_8I;
  if (t.isInteger(32))
    return CUDA_R_32I;
  if (isa<Float8E4M3FNType>(t))
    return CUDA_R_8F_E4M3;
  if (isa<Float8E5M2Type>(t))
    return CUDA_R_8F_E5M2;
  if (auto complex = dyn_cast<ComplexType>(t)) {
    if (complex.getElementType().isF32())
      return CUDA_C_32F;
    if (complex.getElementType().isF64())
      return CUDA_C_64F;
  }
  return std::nullopt;
}

static Type elementOf(Value slice) {
  return cast<MemRefType>(slice.getType()).getElementType();
}

namespace {
/// A matrix of the op as cuBLASLt sees its bytes: a column-major
/// `rows` x `cols` matrix which is the op's matrix, or its transpose when
/// `transposed`.
struct ColumnMajor {
  uint64_t rows, cols;
  int64_t ld;
  bool transposed;
};
} // namespace

static ColumnMajor asColumnMajor(MatrixLayoutAttr layout) {
  bool row = layout.getOrder() == MatrixOrder::RowMajor;
  return {uint64_t(row ? layout.getCols() : layout.getRows()),
          uint64_t(row ? layout.getRows() : layout.getCols()),
          layout.getLeadingDim(), row};
}

FailureOr<std::unique_ptr<GemmPlan>>
mlir::thunk::cuda::planGemm(const CublasLt &lt, GemmOp op, int64_t workspace,
                            llvm::function_ref<uint32_t(Value)> alignment,
                            std::string &error) {
  auto plan = std::make_unique<GemmPlan>();
  plan->lt = &lt;
  auto fail = [&](const std::string &why) {
    error = "thunk.gemm: " + why;
    return failure();
  };
  auto check = [&](const char *call, cublasStatus_t s) {
    if (s == CUBLAS_STATUS_SUCCESS)
      return success();
    return fail(lt.describe(call, s));
  };
  Type inType = elementOf(op.getLhs()), outType = elementOf(op.getOut());
  std::optional<cudaDataType_t> in = dataType(inType), out = dataType(outType),
                                rhsIn = dataType(elementOf(op.getRhs()));
  if (!in || !out || !rhsIn)
    return fail("cuBLASLt takes no GEMM of these element types");
  // An fp8 output's C is its own bf16 or f16 `c`; without one (beta 0:
  // unread) it takes the bias's type, else bf16. The bias of an fp8 GEMM
  // is bf16 or f16 whatever the output.
  bool fp8Out = *out == CUDA_R_8F_E4M3 || *out == CUDA_R_8F_E5M2;
  std::optional<cudaDataType_t> biasType =
      op.getBias() ? dataType(elementOf(op.getBias())) : out;
  std::optional<cudaDataType_t> ownC =
      op.getC() ? dataType(elementOf(op.getC())) : std::nullopt;
  cudaDataType_t cType =
      !fp8Out ? *out
              : (ownC ? *ownC : (op.getBias() ? *biasType : CUDA_R_16BF));

  // The compute and scale types: cuBLAS's defaults for the operand types.
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  cudaDataType_t scale = CUDA_R_32F;
  if (outType.isInteger(32)) {
    compute = CUBLAS_COMPUTE_32I;
    scale = CUDA_R_32I;
  } else if (*out == CUDA_R_64F || *out == CUDA_C_64F) {
    compute = CUBLAS_COMPUTE_64F;
    scale = *out;
  } else if (*out == CUDA_C_32F) {
    scale = CUDA_C_32F;
  } else if (op.getTf32()) {
    compute = CUBLAS_COMPUTE_32F_FAST_TF32;
  }
  // alpha and beta in the scale type.
  auto store = [&](char *to, double re, double im) {
    std::memset(to, 0, 16);
    if (scale == CUDA_R_32I) {
      int32_t v = int32_t(re);
      std::memcpy(to, &v, 4);
    } else if (scale == CUDA_R_64F || scale == CUDA_C_64F) {
      double v[2] = {re, im};
      std::memcpy(to, v, scale == CUDA_C_64F ? 16 : 8);
    } else {
      float v[2] = {float(re), float(im)};
      std::memcpy(to, v, scale == CUDA_C_32F ? 8 : 4);
    }
  };
  store(plan->alpha, op.getAlphaReal().convertToDouble(),
        op.getAlphaImag().convertToDouble());
  store(plan->beta, op.getBeta().convertToDouble(), 0);

  ColumnMajor lhs = asColumnMajor(op.getLhsLayout());
  ColumnMajor rhs = asColumnMajor(op.getRhsLayout());
  ColumnMajor dst = asColumnMajor(op.getOutLayout());
  // D = op(A) x op(B) with D the output as cuBLASLt sees it.
  plan->swapped = dst.transposed;
  ColumnMajor a = plan->swapped ? rhs : lhs, b = plan->swapped ? lhs : rhs;
  // op(X) must be X's matrix (not swapped) or its transpose (swapped);
  // the bytes hold the matrix or its transpose.
  cublasOperation_t opA =
      a.transposed != plan->swapped ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t opB =
      b.transposed != plan->swapped ? CUBLAS_OP_T : CUBLAS_OP_N;
  if (op.getBias() && !plan->swapped)
    return fail("a bias epilogue needs a row-major output");

  if (failed(check("cublasLtMatmulDescCreate",
                   lt.cublasLtMatmulDescCreate(&plan->desc, compute, scale))))
    return failure();
  auto setDesc = [&](cublasLtMatmulDescAttributes_t attr, const void *value,
                     size_t size) {
    return check(
        "cublasLtMatmulDescSetAttribute",
        lt.cublasLtMatmulDescSetAttribute(plan->desc, attr, value, size));
  };
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  switch (op.getEpilogue()) {
  case GemmEpilogue::Default:
    break;
  case GemmEpilogue::Relu:
    epilogue = CUBLASLT_EPILOGUE_RELU;
    break;
  case GemmEpilogue::Bias:
    epilogue = CUBLASLT_EPILOGUE_BIAS;
    break;
  case GemmEpilogue::BiasRelu:
    epilogue = CUBLASLT_EPILOGUE_RELU_BIAS;
    break;
  case GemmEpilogue::Gelu:
    epilogue = CUBLASLT_EPILOGUE_GELU;
    break;
  case GemmEpilogue::BiasGelu:
    epilogue = CUBLASLT_EPILOGUE_GELU_BIAS;
    break;
  }
  if (failed(setDesc(CUBLASLT_MATMUL_DESC_TRANSA, &opA, sizeof(opA))) ||
      failed(setDesc(CUBLASLT_MATMUL_DESC_TRANSB, &opB, sizeof(opB))) ||
      failed(
          setDesc(CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue))))
    return failure();
  if (op.getBias() && failed(setDesc(CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE,
                                     &*biasType, sizeof(*biasType))))
    return failure();
  // fp8's fast accumulation (the verifier keeps it to fp8 operands).
  int8_t fastAccum = 1;
  if (op.getFastAccum() && failed(setDesc(CUBLASLT_MATMUL_DESC_FAST_ACCUM,
                                          &fastAccum, sizeof(fastAccum))))
    return failure();

  int32_t batch = int32_t(op.getOutLayout().getBatch());
  auto makeLayout = [&](cublasLtMatrixLayout_t &layout, cudaDataType_t type,
                        const ColumnMajor &m, int64_t batchStride) {
    if (failed(check("cublasLtMatrixLayoutCreate",
                     lt.cublasLtMatrixLayoutCreate(&layout, type, m.rows,
                                                   m.cols, m.ld))))
      return failure();
    if (batch == 1)
      return success();
    if (failed(check("cublasLtMatrixLayoutSetAttribute",
                     lt.cublasLtMatrixLayoutSetAttribute(
                         layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch,
                         sizeof(batch)))))
      return failure();
    return check("cublasLtMatrixLayoutSetAttribute",
                 lt.cublasLtMatrixLayoutSetAttribute(
                     layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                     &batchStride, sizeof(batchStride)));
  };
  MatrixLayoutAttr aLayout =
      plan->swapped ? op.getRhsLayout() : op.getLhsLayout();
  MatrixLayoutAttr bLayout =
      plan->swapped ? op.getLhsLayout() : op.getRhsLayout();
  cudaDataType_t aType = plan->swapped ? *rhsIn : *in;
  cudaDataType_t bType = plan->swapped ? *in : *rhsIn;
  int64_t outStride = op.getOutLayout().getBatchStride();
  if (failed(makeLayout(plan->a, aType, a, aLayout.getBatchStride())) ||
      failed(makeLayout(plan->b, bType, b, bLayout.getBatchStride())) ||
      failed(makeLayout(plan->c, cType, dst, outStride)) ||
      (cType != *out && failed(makeLayout(plan->d, *out, dst, outStride))))
    return failure();
  cublasLtMatrixLayout_t dLayout = plan->d ? plan->d : plan->c;

  // The algorithm: the heuristic's candidates for this workspace, the
  // first or the one `algorithm` names.
  plan->workspaceBytes = workspace;
  cublasLtMatmulPreference_t preference;
  if (failed(check("cublasLtMatmulPreferenceCreate",
                   lt.cublasLtMatmulPreferenceCreate(&preference))))
    return failure();
  uint64_t maxWorkspace = uint64_t(workspace);
  cublasStatus_t s = lt.cublasLtMatmulPreferenceSetAttribute(
      preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &maxWorkspace,
      sizeof(maxWorkspace));
  // The heuristic assumes 256-byte aligned matrices unless told otherwise;
  // slices inside an allocation may be less aligned.
  Value aValue = plan->swapped ? op.getRhs() : op.getLhs();
  Value bValue = plan->swapped ? op.getLhs() : op.getRhs();
  Value dValue = op.getOut();
  for (auto [attr, value] :
       {std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, aValue},
        std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, bValue},
        std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, dValue},
        std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, dValue}}) {
    uint32_t bytes = alignment(value);
    if (s == CUBLAS_STATUS_SUCCESS)
      s = lt.cublasLtMatmulPreferenceSetAttribute(preference, attr, &bytes,
                                                  sizeof(bytes));
  }
  constexpr int kCandidates = 8;
  cublasLtMatmulHeuristicResult_t results[kCandidates] = {};
  int found = 0;
  if (s == CUBLAS_STATUS_SUCCESS)
    s = lt.cublasLtMatmulAlgoGetHeuristic(lt.handle, plan->desc, plan->a,
                                          plan->b, plan->c, dLayout, preference,
                                          kCandidates, results, &found);
  lt.cublasLtMatmulPreferenceDestroy(preference);
  if (failed(check("cublasLtMatmulAlgoGetHeuristic", s)))
    return failure();
  if (found == 0)
    return fail("cuBLASLt has no algorithm for this GEMM");
  int64_t chosen = op.getAlgorithm();
  if (chosen >= found)
    return fail("algorithm " + std::to_string(chosen) + " is not among the " +
                std::to_string(found) + " cuBLASLt offers");
  plan->chosen = chosen < 0 ? 0 : chosen;
  plan->algo = results[plan->chosen].algo;
  for (int i = 0; i < found; ++i)
    plan->candidates.push_back(results[i].algo);
  return plan;
}

LogicalResult mlir::thunk::cuda::runGemm(GemmPlan &plan, CUdeviceptr lhs,
                                         CUdeviceptr rhs, CUdeviceptr bias,
                                         CUdeviceptr out, CUdeviceptr workspace,
                                         const GemmExtras &extras,
                                         CUstream stream, std::string &error) {
  const CublasLt &lt = *plan.lt;
  // The bias and the fp8 scales (a and b swap with the operands).
  CUdeviceptr aScale = plan.swapped ? extras.b : extras.a;
  CUdeviceptr bScale = plan.swapped ? extras.a : extras.b;
  for (auto [attr, address] :
       {std::pair{CUBLASLT_MATMUL_DESC_BIAS_POINTER, bias},
        std::pair{CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, aScale},
        std::pair{CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, bScale},
        std::pair{CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, extras.d},
        std::pair{CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, extras.amax}}) {
    if (!address)
      continue;
    void *pointer = reinterpret_cast<void *>(address);
    if (cublasStatus_t s = lt.cublasLtMatmulDescSetAttribute(
            plan.desc, attr, &pointer, sizeof(pointer))) {
      error = "thunk.gemm: " + lt.describe("cublasLtMatmulDescSetAttribute", s);
      return failure();
    }
  }
  auto ptr = [](CUdeviceptr p) { return reinterpret_cast<void *>(p); };
  void *a = ptr(plan.swapped ? rhs : lhs), *b = ptr(plan.swapped ? lhs : rhs);
  cublasStatus_t s = lt.cublasLtMatmul(
      lt.handle, plan.desc, plan.alpha, a, plan.a, b, plan.b, plan.beta,
      ptr(extras.c ? extras.c : out), plan.c, ptr(out),
      plan.d ? plan.d : plan.c, &plan.algo, ptr(workspace), plan.workspaceBytes,
      reinterpret_cast<cudaStream_t>(stream));
  if (s == CUBLAS_STATUS_SUCCESS)
    return success();
  error = "thunk.gemm: " + lt.describe("cublasLtMatmul", s);
  return failure();
}
