//===- Linalg.cpp - dot, ragged-dot and scaled-dot ------------------------===//
//-------------------------===//
//
// dot (batch and contracting dimensions; result dims are batch, lhs free,
// rhs free), ragged-dot and scaled-dot, and XLA's cuBLAS GEMM custom calls
// (a dot plus alpha, beta * C, bias and relu from the backend_config);
// convolution is in Convolution.cpp.
// Products are accumulated in double (int64 for integer results,
// complex<double> for complex) and rounded once to the result type;
// operand_precision is ignored. Of the dot algorithms (the dot's and a
// GEMM's precision_config), dot_bf16_bf16_f32 and dot_tf32_tf32_f32 round
// f32 operands to nearest even bf16 and TF32 (10 mantissa bits) values
// first, as the tensor cores take them; the others compute as without one
// (the multi-pass ones approximate the f32 dot).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Dialect/Hlo/HloDotAlgorithm.h"
#include "Internal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <complex>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;

/// Dims of `rank` not in `a` or `b`, ascending.
static SmallVector<int64_t> freeDims(int64_t rank, ArrayRef<int64_t> a,
                                     ArrayRef<int64_t> b) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(a, d) && !llvm::is_contained(b, d))
      dims.push_back(d);
  return dims;
}

LogicalResult eval::checkDotDims(Interp &interp, Operation *op,
                                 const Literal &lhs, const Literal &rhs,
                                 const Literal &out, ArrayRef<int64_t> lb,
                                 ArrayRef<int64_t> lc, ArrayRef<int64_t> rb,
                                 ArrayRef<int64_t> rc,
                                 ArrayRef<int64_t> rhsExtra, int64_t lead) {
  auto inRange = [](ArrayRef<int64_t> dims, int64_t rank) {
    return llvm::all_of(dims, [&](int64_t d) { return d >= 0 && d < rank; });
  };
  if (!lhs.isArray() || !rhs.isArray() || lb.size() != rb.size() ||
      lc.size() != rc.size() || !inRange(lb, lhs.getRank()) ||
      !inRange(lc, lhs.getRank()) || !inRange(rb, rhs.getRank()) ||
      !inRange(rc, rhs.getRank()) || !inRange(rhsExtra, rhs.getRank()))
    return interp.fail(op, "dimension numbers do not fit the operands");
  SmallVector<int64_t> expected(out.getShape().take_front(lead));
  for (auto [l, r] : llvm::zip(lb, rb)) {
    if (lhs.getShape()[l] != rhs.getShape()[r])
      return interp.fail(op, "batch dimensions differ in size");
    expected.push_back(lhs.getShape()[l]);
  }
  for (auto [l, r] : llvm::zip(lc, rc))
    if (lhs.getShape()[l] != rhs.getShape()[r])
      return interp.fail(op, "contracting dimensions differ in size");
  for (int64_t d : freeDims(lhs.getRank(), lb, lc))
    expected.push_back(lhs.getShape()[d]);
  SmallVector<int64_t> rskip(rc);
  rskip.append(rhsExtra.begin(), rhsExtra.end());
  for (int64_t d : freeDims(rhs.getRank(), rb, rskip))
    expected.push_back(rhs.getShape()[d]);
  if (ArrayRef<int64_t>(expected) != out.getShape())
    return interp.fail(op, "the result shape does not fit the operands");
  return success();
}

/// A float dot on copies of the operands transposed to [batch, free,
/// contracting], so that each result element is a contiguous dot product;
/// the result's row-major order is already [batch, lhs free, rhs free].
static Literal dotReals(Interp &interp, const Literal &lhs, const Literal &rhs,
                        Literal out, ArrayRef<int64_t> lb, ArrayRef<int64_t> lc,
                        ArrayRef<int64_t> lf, ArrayRef<int64_t> rb,
                        ArrayRef<int64_t> rc, ArrayRef<int64_t> rf) {
  auto sizeOf = [](const Literal &l, ArrayRef<int64_t> dims) {
    int64_t n = 1;
    for (int64_t d : dims)
      n *= l.getShape()[d];
    return n;
  };
  int64_t batch = sizeOf(lhs, lb), m = sizeOf(lhs, lf), n = sizeOf(rhs, rf),
          k = sizeOf(lhs, lc);
  SmallVector<int64_t> lOrder(lb), rOrder(rb);
  llvm::append_range(lOrder, lf);
  llvm::append_range(lOrder, lc);
  llvm::append_range(rOrder, rf);
  llvm::append_range(rOrder, rc);
  std::vector<double> L = transposedReals(lhs, lOrder);
  std::vector<double> R = transposedReals(rhs, rOrder);
  // Rows of the result: (batch, lhs free) pairs.
  auto work = [&](int64_t first, int64_t last) {
    for (int64_t row = first; row < last; ++row) {
      const double *l = &L[row * k];
      const double *rBatch = &R[(row / std::max<int64_t>(m, 1)) * n * k];
      for (int64_t j = 0; j < n; ++j) {
        const double *r = rBatch + j * k;
        double sum = 0.0;
        for (int64_t i = 0; i < k; ++i)
          sum += l[i] * r[i];
        out.setFloat(row * n + j, sum);
      }
    }
  };
  parallelRows(interp, batch * m, static_cast<double>(batch) * m * n * k, work);
  return out;
}

FailureOr<Literal> eval::dotInto(Interp &interp, Operation *op,
                                 const Literal &lhs, const Literal &rhs,
                                 Literal out, ArrayRef<int64_t> lb,
                                 ArrayRef<int64_t> lc, ArrayRef<int64_t> rb,
                                 ArrayRef<int64_t> rc) {
  SmallVector<int64_t> lf = freeDims(lhs.getRank(), lb, lc);
  SmallVector<int64_t> rf = freeDims(rhs.getRank(), rb, rc);
  if (lb.size() != rb.size() || lc.size() != rc.size() ||
      out.getRank() != static_cast<int64_t>(lb.size() + lf.size() + rf.size()))
    return interp.error(op, "dimension numbers do not fit the shapes");
  if (lhs.getElementKind() == ElementKind::Float &&
      rhs.getElementKind() == ElementKind::Float &&
      out.getElementKind() == ElementKind::Float)
    return dotReals(interp, lhs, rhs, std::move(out), lb, lc, lf, rb, rc, rf);
  SmallVector<int64_t> ls = stridesOf(lhs.getShape());
  SmallVector<int64_t> rs = stridesOf(rhs.getShape());
  SmallVector<int64_t> contractShape, lcStride, rcStride;
  for (auto [l, r] : llvm::zip(lc, rc)) {
    contractShape.push_back(lhs.getShape()[l]);
    lcStride.push_back(ls[l]);
    rcStride.push_back(rs[r]);
  }
  int64_t contractCount = numElements(contractShape);
  Accumulator acc(out.getElementKind());
  SmallVector<int64_t> o(out.getRank(), 0), c(contractShape.size(), 0);
  for (int64_t linear = 0, e = out.getNumElements(); linear < e;
       ++linear, nextIndex(o, out.getShape())) {
    int64_t lbase = 0, rbase = 0, k = 0;
    for (auto [l, r] : llvm::zip(lb, rb)) {
      lbase += o[k] * ls[l];
      rbase += o[k] * rs[r];
      ++k;
    }
    for (int64_t d : lf)
      lbase += o[k++] * ls[d];
    for (int64_t d : rf)
      rbase += o[k++] * rs[d];
    acc.reset();
    std::fill(c.begin(), c.end(), 0);
    for (int64_t i = 0; i < contractCount; ++i, nextIndex(c, contractShape)) {
      int64_t li = lbase, ri = rbase;
      for (size_t j = 0; j < c.size(); ++j) {
        li += c[j] * lcStride[j];
        ri += c[j] * rcStride[j];
      }
      acc.add(lhs, li, rhs, ri);
    }
    acc.store(out, linear);
  }
  return std::move(out);
}

/// `x` itself, or (an f32 array and `dropped` > 0) a copy in `into` with
/// each element rounded as roundDroppingBits does.
static const Literal *roundedOperand(const Literal &x, unsigned dropped,
                                     Literal &into) {
  if (dropped == 0 || x.getFloatElements<float>().empty())
    return &x;
  into = x;
  for (float &f : into.getFloatElements<float>())
    f = roundDroppingBits(f, dropped);
  return &into;
}

static FailureOr<Literal> dot(Interp &interp, DotOp op, const Literal &lhs,
                              const Literal &rhs) {
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  unsigned dropped =
      getDroppedOperandBits(op.getAlgorithm().value_or(DotAlgorithm::Unset));
  Literal l, r;
  return dotInto(
      interp, op, *roundedOperand(lhs, dropped, l),
      *roundedOperand(rhs, dropped, r), std::move(*result),
      orEmpty(op.getLhsBatchDims()), orEmpty(op.getLhsContractingDims()),
      orEmpty(op.getRhsBatchDims()), orEmpty(op.getRhsContractingDims()));
}

/// ragged-dot(lhs, rhs, group_sizes): the lhs ragged dimension is split
/// into consecutive groups of group_sizes[i] indices (group sizes
/// [batch..., groups]: one list per element of the lhs batch dimensions).
/// Ragged non-contracting dimension: rows of group i use rhs[group i]
/// (rhs_group_dims), rows past the groups give 0. Ragged contracting dimension:
/// the result gets a leading group dimension; group i contracts only over its
/// index range. Ragged batch dimension: an ordinary dot.
static FailureOr<Literal> raggedDot(Interp &interp, RaggedDotOp op,
                                    Operands operands) {
  if (operands.size() != 3)
    return interp.error(op, "needs lhs, rhs and group_sizes");
  const Literal &lhs = *operands[0], &rhs = *operands[1], &sizes = *operands[2];
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  Literal &out = *result;
  ArrayRef<int64_t> lb = orEmpty(op.getLhsBatchDims()),
                    lc = orEmpty(op.getLhsContractingDims()),
                    rb = orEmpty(op.getRhsBatchDims()),
                    rc = orEmpty(op.getRhsContractingDims()),
                    ragged = orEmpty(op.getLhsRaggedDims()),
                    group = orEmpty(op.getRhsGroupDims());
  if (ragged.size() != 1 || !sizes.isArray() || sizes.getRank() < 1)
    return interp.error(op, "needs one ragged dimension and group sizes");
  if (!lhs.isArray() || ragged[0] < 0 || ragged[0] >= lhs.getRank())
    return interp.error(op, "lhs_ragged_dims is out of range");
  // Group sizes [groups], or [batch..., groups]: one list per element of
  // the lhs batch dimensions (a ragged batch dimension reads none).
  ArrayRef<int64_t> perBatch = sizes.getShape().drop_back();
  if (llvm::is_contained(lb, ragged[0]))
    perBatch = {};
  if (!perBatch.empty() &&
      (perBatch.size() != lb.size() ||
       llvm::any_of(llvm::enumerate(perBatch), [&](auto e) {
         return lb[e.index()] < 0 || lb[e.index()] >= lhs.getRank() ||
                lhs.getShape()[lb[e.index()]] != e.value();
       })))
    return interp.error(op, "group sizes must be [groups] or [batch..., "
                            "groups] over the lhs batch dimensions");
  int64_t rd = ragged[0];
  int64_t numGroups = sizes.getShape().back();
  // Group i of list r: [bounds[r][i], bounds[r][i+1]).
  SmallVector<SmallVector<int64_t>> bounds;
  for (int64_t r = 0, n = numElements(perBatch); r < n; ++r) {
    bounds.emplace_back(1, 0);
    for (int64_t i = 0; i < numGroups; ++i)
      bounds.back().push_back(bounds.back().back() +
                              sizes.getInt(r * numGroups + i));
  }
  bool contracting = llvm::is_contained(lc, rd);
  bool batch = llvm::is_contained(lb, rd);
  if (!contracting && !batch && group.size() != 1)
    return interp.error(op, "a ragged non-contracting dimension needs one "
                            "rhs group dimension");
  SmallVector<int64_t> rhsSkip(rc);
  if (!contracting && !batch)
    rhsSkip.push_back(group[0]);
  if (failed(checkDotDims(interp, op, lhs, rhs, out, lb, lc, rb, rc,
                          ArrayRef<int64_t>(rhsSkip).drop_front(rc.size()),
                          contracting ? 1 : 0)))
    return failure();
  if (!contracting && !batch && rhs.getShape()[group[0]] != numGroups)
    return interp.error(op, "the rhs group dimension must have one entry "
                            "per group");
  if (contracting && out.getShape()[0] != numGroups)
    return interp.error(op, "the result's leading dimension must have one "
                            "entry per group");
  SmallVector<int64_t> lf = freeDims(lhs.getRank(), lb, lc);
  SmallVector<int64_t> rf = freeDims(rhs.getRank(), rb, rhsSkip);
  int64_t lead = contracting ? 1 : 0;
  if (out.getRank() !=
      static_cast<int64_t>(lead + lb.size() + lf.size() + rf.size()))
    return interp.error(op, "dimension numbers do not fit the shapes");
  SmallVector<int64_t> ls = stridesOf(lhs.getShape());
  SmallVector<int64_t> rs = stridesOf(rhs.getShape());
  SmallVector<int64_t> contractShape;
  for (int64_t l : lc)
    contractShape.push_back(lhs.getShape()[l]);
  int64_t raggedPos = contracting ? llvm::find(lc, rd) - lc.begin() : -1;
  Accumulator acc(out.getElementKind());
  SmallVector<int64_t> o(out.getRank(), 0), c(contractShape.size(), 0);
  for (int64_t linear = 0, e = out.getNumElements(); linear < e;
       ++linear, nextIndex(o, out.getShape())) {
    int64_t lbase = 0, rbase = 0, k = lead, list = 0;
    for (auto [l, r] : llvm::zip(lb, rb)) {
      lbase += o[k] * ls[l];
      rbase += o[k] * rs[r];
      if (!perBatch.empty())
        list = list * lhs.getShape()[l] + o[k];
      ++k;
    }
    ArrayRef<int64_t> span = bounds[list];
    int64_t lo = 0, hi = 0, row = -1;
    for (int64_t d : lf) {
      if (d == rd)
        row = o[k];
      lbase += o[k++] * ls[d];
    }
    for (int64_t d : rf)
      rbase += o[k++] * rs[d];
    acc.reset();
    if (contracting) {
      lo = span[o[0]];
      hi = span[o[0] + 1];
    } else if (!batch) {
      int64_t g = 0;
      while (g < numGroups && row >= span[g + 1])
        ++g;
      if (g == numGroups) { // past the last group
        acc.store(out, linear);
        continue;
      }
      rbase += g * rs[group[0]];
    }
    std::fill(c.begin(), c.end(), 0);
    for (int64_t i = 0, n = numElements(contractShape); i < n;
         ++i, nextIndex(c, contractShape)) {
      if (contracting && (c[raggedPos] < lo || c[raggedPos] >= hi))
        continue;
      int64_t li = lbase, ri = rbase;
      for (size_t j = 0; j < c.size(); ++j) {
        li += c[j] * ls[lc[j]];
        ri += c[j] * rs[rc[j]];
      }
      acc.add(lhs, li, rhs, ri);
    }
    acc.store(out, linear);
  }
  return std::move(out);
}

/// scaled-dot(lhs, rhs, lhs_scale, rhs_scale): each operand times its scale
/// broadcast over blocks (scale dimension d covers dim(d) / scale_dim(d)
/// elements; a scalar scale none), then a dot accumulated in double.
static FailureOr<Literal> scaledDot(Interp &interp, ScaledDotOp op,
                                    Operands operands) {
  if (operands.size() != 4)
    return interp.error(op, "needs lhs, rhs, lhs_scale and rhs_scale");
  // Each operand and scale in their common type (getScaledDotOperandType),
  // the product rounded to it, as XLA-GPU's rewrite computes them.
  auto scaled = [&](const Literal &x,
                    const Literal &scale) -> FailureOr<Literal> {
    // A scalar scale leaves the operand unscaled (XLA's GPU rewrite).
    if (x.isArray() && scale.isArray() && scale.getRank() == 0)
      return x;
    if (!x.isArray() || !scale.isArray() || scale.getRank() != x.getRank())
      return interp.error(op, "a scale must have its operand's rank");
    for (int64_t d = 0; d < x.getRank(); ++d)
      if (scale.getShape()[d] < 1 || x.getShape()[d] % scale.getShape()[d] != 0)
        return interp.error(op, "a scale dimension must divide its "
                                "operand's dimension");
    SmallVector<int64_t> blocks;
    for (int64_t d = 0; d < x.getRank(); ++d)
      blocks.push_back(x.getShape()[d] / scale.getShape()[d]);
    return scaleByBlocks(
        x, scale,
        getScaledDotOperandType(x.getElementType(), scale.getElementType()),
        blocks);
  };
  auto lhs = scaled(*operands[0], *operands[2]);
  if (failed(lhs))
    return failure();
  auto rhs = scaled(*operands[1], *operands[3]);
  if (failed(rhs))
    return failure();
  auto result = makeResult(interp, op);
  if (failed(result) ||
      failed(checkDotDims(
          interp, op, *lhs, *rhs, *result, orEmpty(op.getLhsBatchDims()),
          orEmpty(op.getLhsContractingDims()), orEmpty(op.getRhsBatchDims()),
          orEmpty(op.getRhsContractingDims()))))
    return failure();
  return dotInto(
      interp, op, *lhs, *rhs, std::move(*result), orEmpty(op.getLhsBatchDims()),
      orEmpty(op.getLhsContractingDims()), orEmpty(op.getRhsBatchDims()),
      orEmpty(op.getRhsContractingDims()));
}

/// `__cublas$gemm` / `__cublas$lt$matmul`: D = epilogue(alpha * dot(A, B) +
/// beta * C + bias) (epilogues DEFAULT, BIAS, RELU, BIAS_RELU, GELU,
/// BIAS_GELU), returned with a zero workspace as the tuple (D,
/// s8[workspace]), or as D alone where the call's result is the array (the
/// form of XLA versions before the workspace, as in ROCm dumps). Each step is
/// rounded to D's element type, as the instructions the GEMM replaces round
/// them: the rewrite keeps the values.
EvalResult eval::evalGemmCustomCall(Interp &interp, CustomCallOp op,
                                    Operands operands) {
  StringRef target = op.getCustomCallTarget();
  bool fp8 = target == "__cublas$lt$matmul$f8";
  if (target != "__cublas$gemm" && target != "__cublas$lt$matmul" && !fp8)
    return std::nullopt;
  auto fail = [&](const Twine &why) {
    return interp.error(op, target + ": " + why);
  };
  auto root = readBackendConfig(op.getBackendConfigAttr());
  BackendConfigAttr cfg = root ? root.getGemmBackendConfig() : nullptr;
  if (!cfg)
    return fail("no typed gemm_backend_config in the backend_config");
  BackendConfigAttr dn = cfg.getSubConfig("dot_dimension_numbers");
  if (!dn)
    return fail("gemm_backend_config has no dot_dimension_numbers");
  auto dims = [&](StringRef key) {
    return dn.getInts(key).value_or(ArrayRef<int64_t>());
  };
  // The amax of D (before d_scale) of fp8 GEMMs: the result is then (D,
  // f32[] amax, s8[workspace]).
  bool amax = cfg.getBool("damax_output").value_or(false);
  if (amax && !fp8)
    return fail("damax_output is for fp8 GEMMs");
  StringRef epilogue = cfg.getString("epilogue").value_or("DEFAULT");
  bool bias =
      epilogue == "BIAS" || epilogue == "BIAS_RELU" || epilogue == "BIAS_GELU";
  bool relu = epilogue == "RELU" || epilogue == "BIAS_RELU";
  bool gelu = epilogue == "GELU" || epilogue == "BIAS_GELU";
  if (!bias && !relu && !gelu && epilogue != "DEFAULT")
    return fail("epilogue " + epilogue + " is not supported");
  std::complex<double> alpha(cfg.getDouble("alpha_real").value_or(1),
                             cfg.getDouble("alpha_imag").value_or(0));
  double beta = cfg.getDouble("beta").value_or(0);
  auto tuple = dyn_cast<TupleType>(op.getType());
  if ((amax && !tuple) ||
      (tuple &&
       (tuple.size() != 2u + amax || !isa<RankedTensorType>(tuple.getType(0)) ||
        !isa<RankedTensorType>(tuple.getType(tuple.size() - 1)))))
    return fail("the result must be the array or the tuple (result, "
                "s8[workspace])");
  auto resultType =
      dyn_cast<RankedTensorType>(tuple ? tuple.getType(0) : op.getType());
  if (!resultType)
    return fail("the result must be the array or the tuple (result, "
                "s8[workspace])");
  for (const Literal *l : operands)
    if (!l->isArray())
      return fail("operands must be arrays");
  // The fp8 GEMM: (A, B, [C], a_scale, b_scale, [bias], [d_scale]), D =
  // d_scale * epilogue(alpha * (a_scale A) x (b_scale B) + beta C + bias),
  // computed in f32 and, for an fp8 D, saturated to its finite range.
  // A and B are dequantized here (as the converts and multiplies the call
  // replaces compute them) and the rest runs as for the other GEMMs.
  Type storedType = resultType.getElementType();
  Literal scaledA, scaledB, wideC, wideBias;
  std::vector<const Literal *> wide;
  size_t biasOperand = operands.size() - 1;
  double dScale = 1;
  if (fp8) {
    bool fp8Result = isa<Float8E4M3FNType, Float8E5M2Type>(storedType);
    // (XLA leaves d_scale out of an unscaled fp8 result.)
    size_t count = 4 + (beta != 0) + bias;
    bool hasDScale = fp8Result && operands.size() == count + 1;
    if (operands.size() != count + hasDScale)
      return fail("expected " + Twine(count) + " operands (A, B" +
                  (beta != 0 ? ", C" : "") + ", a_scale, b_scale" +
                  (bias ? ", bias" : "") + (fp8Result ? "[, d_scale]" : "") +
                  "), got " + Twine(operands.size()));
    size_t s = 2 + (beta != 0);
    auto scalar = [&](size_t i) -> FailureOr<double> {
      const Literal &l = *operands[i];
      if (l.getNumElements() != 1 || l.getElementKind() != ElementKind::Float) {
        (void)fail("scales must be float scalars");
        return failure();
      }
      return l.getFloat(0);
    };
    FailureOr<double> as = scalar(s), bs = scalar(s + 1);
    FailureOr<double> ds = hasDScale ? scalar(operands.size() - 1) : 1.0;
    if (failed(as) || failed(bs) || failed(ds))
      return failure();
    dScale = *ds;
    auto dequantize = [](const Literal &x, double scale, Literal &into) {
      into = Literal::array(Float32Type::get(x.getElementType().getContext()),
                            x.getShape());
      for (int64_t i = 0, e = x.getNumElements(); i < e; ++i) {
        convertElement(x, i, into, i);
        into.setFloat(i, into.getFloat(i) * scale);
      }
    };
    dequantize(*operands[0], *as, scaledA);
    dequantize(*operands[1], *bs, scaledB);
    wide = {&scaledA, &scaledB};
    // C and the bias in f32 too where D is fp8, or where they are of
    // another type (a bf16 bias of an f32 result).
    auto widened = [&](const Literal *x, Literal &into) {
      if (!fp8Result && x->getElementType() == storedType)
        return x;
      dequantize(*x, 1.0, into);
      return static_cast<const Literal *>(&into);
    };
    if (beta != 0)
      wide.push_back(widened(operands[2], wideC));
    if (bias) {
      biasOperand = s + 2;
      wide.push_back(widened(operands[s + 2], wideBias));
    }
    operands = wide;
    if (fp8Result)
      resultType = RankedTensorType::get(resultType.getShape(),
                                         Float32Type::get(op.getContext()),
                                         resultType.getEncoding());
  }
  size_t expected = 2 + (beta != 0) + bias;
  if (operands.size() != expected)
    return fail("expected " + Twine(expected) + " operands (A, B" +
                (beta != 0 ? ", C" : "") + (bias ? ", bias" : "") + "), got " +
                Twine(operands.size()));
  Literal zeros = Literal::zeros(resultType);
  SmallVector<int64_t> lb(dims("lhs_batch_dimensions")),
      lc(dims("lhs_contracting_dimensions")), rb(dims("rhs_batch_dimensions")),
      rc(dims("rhs_contracting_dimensions"));
  // An operand without the batch dimensions (folded by
  // hlo-gemm-broadcast-folding-rewriter) is read for every batch: it is
  // broadcast along leading batch dimensions here.
  const Literal *lhs = operands[0], *rhs = operands[1];
  Literal widened;
  if (lb.empty() != rb.empty()) {
    bool lhsUnbatched = lb.empty();
    const Literal &other = lhsUnbatched ? *rhs : *lhs;
    const Literal &narrow = lhsUnbatched ? *lhs : *rhs;
    SmallVector<int64_t> &batch = lhsUnbatched ? lb : rb;
    SmallVector<int64_t> &contracting = lhsUnbatched ? lc : rc;
    SmallVector<int64_t> shape;
    int64_t copies = 1;
    for (int64_t d : lhsUnbatched ? rb : lb) {
      if (d < 0 || d >= other.getRank())
        return fail("batch dimension out of range");
      shape.push_back(other.getShape()[d]);
      copies *= other.getShape()[d];
    }
    for (int64_t i = 0, e = shape.size(); i < e; ++i)
      batch.push_back(i);
    for (int64_t &d : contracting)
      d += shape.size();
    llvm::append_range(shape, narrow.getShape());
    widened = Literal::array(narrow.getElementType(), shape);
    int64_t m = narrow.getNumElements();
    for (int64_t c = 0; c < copies; ++c)
      for (int64_t i = 0; i < m; ++i)
        widened.copyElement(c * m + i, narrow, i);
    (lhsUnbatched ? lhs : rhs) = &widened;
  }
  if (failed(checkDotDims(interp, op, *lhs, *rhs, zeros, lb, lc, rb, rc)))
    return failure();
  // The algorithm of XLA's precision_config ("ALG_DOT_TF32_TF32_F32").
  Literal roundedL, roundedR;
  if (BackendConfigAttr pc = cfg.getSubConfig("precision_config")) {
    StringRef name = pc.getString("algorithm").value_or("ALG_UNSET");
    std::optional<DotAlgorithm> algorithm =
        name.consume_front("ALG_") ? symbolizeDotAlgorithm(name.lower())
                                   : std::nullopt;
    if (!algorithm)
      return fail("unknown precision_config algorithm " + name);
    unsigned dropped = getDroppedOperandBits(*algorithm);
    lhs = roundedOperand(*lhs, dropped, roundedL);
    rhs = roundedOperand(*rhs, dropped, roundedR);
  }
  FailureOr<Literal> d =
      dotInto(interp, op, *lhs, *rhs, std::move(zeros), lb, lc, rb, rc);
  if (failed(d))
    return failure();
  Literal &out = *d;
  int64_t n = out.getNumElements();
  ElementKind kind = out.getElementKind();
  // out[i] = out[i] * s + x (x from `src` element j, if any), rounded.
  auto update = [&](int64_t i, std::complex<double> s, const Literal *src,
                    int64_t j) {
    if (kind == ElementKind::Complex) {
      std::complex<double> v = out.getComplex(i);
      if (s != 1.0) {
        out.setComplex(i, v * s);
        v = out.getComplex(i);
      }
      if (src)
        out.setComplex(i, v + src->getComplex(j));
    } else if (kind == ElementKind::Float) {
      double v = out.getFloat(i);
      if (s != 1.0) {
        out.setFloat(i, v * s.real());
        v = out.getFloat(i);
      }
      if (src)
        out.setFloat(i, v + src->getFloat(j));
    } else {
      int64_t v = out.getInt(i);
      if (s != 1.0)
        v *= static_cast<int64_t>(s.real());
      out.setInt(i, src ? v + src->getInt(j) : v);
    }
  };
  if (alpha != 1.0)
    for (int64_t i = 0; i < n; ++i)
      update(i, alpha, nullptr, 0);
  if (beta != 0) {
    const Literal &c = *operands[2];
    if (c.getShape() != out.getShape() ||
        c.getElementType() != out.getElementType())
      return fail("C must have the result's shape and element type");
    Literal scaled = c;
    if (beta != 1.0)
      for (int64_t i = 0; i < n; ++i) {
        if (kind == ElementKind::Float)
          scaled.setFloat(i, c.getFloat(i) * beta);
        else if (kind == ElementKind::Complex)
          scaled.setComplex(i, c.getComplex(i) * beta);
        else
          scaled.setInt(i, c.getInt(i) * static_cast<int64_t>(beta));
      }
    for (int64_t i = 0; i < n; ++i)
      update(i, 1.0, &scaled, i);
  }
  if (bias) {
    // The bias vector runs along the result's most minor dimensions: its
    // i-th minor dimension is the result's i-th minor one.
    const Literal &v = *operands.back();
    if (kind != ElementKind::Float ||
        v.getElementType() != out.getElementType() ||
        v.getRank() > out.getRank())
      return fail("the bias must be a float vector of the result's type "
                  "and at most its rank");
    SmallVector<int64_t> outOrder = getMinorToMajor(resultType);
    SmallVector<int64_t> biasOrder =
        getMinorToMajor(op->getOperand(biasOperand).getType());
    SmallVector<int64_t> biasStrides = stridesOf(v.getShape());
    SmallVector<int64_t> map(out.getRank(), -1); // out dim -> bias stride
    for (int64_t i = 0; i < v.getRank(); ++i) {
      if (v.getShape()[biasOrder[i]] != out.getShape()[outOrder[i]])
        return fail("the bias does not match the result's minor dimensions");
      map[outOrder[i]] = biasStrides[biasOrder[i]];
    }
    SmallVector<int64_t> idx(out.getRank(), 0);
    for (int64_t i = 0; i < n; ++i, nextIndex(idx, out.getShape())) {
      int64_t j = 0;
      for (int64_t dim = 0; dim < out.getRank(); ++dim)
        if (map[dim] >= 0)
          j += idx[dim] * map[dim];
      update(i, 1.0, &v, j);
    }
  }
  if (relu) {
    if (kind != ElementKind::Float)
      return fail("relu needs a float result");
    for (int64_t i = 0; i < n; ++i) {
      double x = out.getFloat(i);
      if (x < 0)
        out.setFloat(i, 0.0);
    }
  }
  if (gelu) {
    if (kind != ElementKind::Float)
      return fail("gelu needs a float result");
    // The approximate GELU the epilogue replaces, x * 0.5 * (1 + tanh(
    // sqrt(2 / pi) * (x + 0.044715 * x^3))), one step at a time, each
    // rounded to the result's type as the instructions it replaces round.
    Literal scalar =
        Literal::zeros(RankedTensorType::get({}, resultType.getElementType()));
    auto round = [&](double v) {
      scalar.setFloat(0, v);
      return scalar.getFloat(0);
    };
    double c = round(0.044715), k = round(std::sqrt(2.0 / M_PI));
    for (int64_t i = 0; i < n; ++i) {
      double x = out.getFloat(i);
      double cube = round(round(x * x) * x);
      double t = round(std::tanh(round(round(x + round(cube * c)) * k)));
      out.setFloat(i, round(x * round(round(t + 1.0) * 0.5)));
    }
  }
  double amaxValue = 0;
  for (int64_t i = 0; amax && i < n; ++i) {
    double v = std::fabs(out.getFloat(i));
    amaxValue =
        std::isnan(v) || std::isnan(amaxValue) ? NAN : std::max(amaxValue, v);
  }
  if (fp8 && storedType != resultType.getElementType()) {
    // d_scale, then the fp8 type's saturating conversion.
    double max = isa<Float8E4M3FNType>(storedType) ? 448 : 57344;
    Literal stored = Literal::array(storedType, out.getShape());
    for (int64_t i = 0; i < n; ++i) {
      double v = out.getFloat(i) * dScale;
      stored.setFloat(i, std::isnan(v) ? v : std::clamp(v, -max, max));
    }
    out = std::move(stored);
  }
  if (!tuple)
    return std::move(out);
  std::vector<Literal> elements;
  elements.push_back(std::move(out));
  if (amax) {
    elements.push_back(Literal::zeros(tuple.getType(1)));
    elements.back().setFloat(0, amaxValue);
  }
  elements.push_back(Literal::zeros(tuple.getType(tuple.size() - 1)));
  return Literal::tuple(std::move(elements));
}

EvalResult eval::evalLinalgOp(Interp &interp, Operation *op,
                              Operands operands) {
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case([&](DotOp d) { return dot(interp, d, *operands[0], *operands[1]); })
      .Case([&](ConvolutionOp c) {
        return eval::convolution(interp, c, *operands[0], *operands[1]);
      })
      .Case([&](RaggedDotOp r) { return raggedDot(interp, r, operands); })
      .Case([&](ScaledDotOp d) { return scaledDot(interp, d, operands); })
      .Default([&](Operation *) -> EvalResult {
        return evalSolverOp(interp, op, operands);
      });
}
