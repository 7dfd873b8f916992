//===- BlockScaling.cpp - block-scaled quantization custom calls ----------===//
//
// The custom calls of JAX's block-scaled (MX, NVFP4) formats, as XLA-GPU's
// BlockScalingRewriter defines them, computed element by element so that
// the rewrite (hlo-block-scaling-rewriter) has a reference to meet:
//
//   __op$dequantize(x, s) -> y          y[.., k] = x[.., k] * s[.., k / b]
//   __op$quantize(x) -> (q, s)          per block of b elements along the
//                                       last dimension: s = amax / 2^emax,
//                                       q = x / s
//   __op$block_scaled_dot(lhs, rhs, lhs_scale[, rhs_scale[, global]]) -> r
//       r = dot(dequantize(lhs), dequantize(rhs)) * global, contracting the
//       last dimensions (the first one is a batch dimension at rank 3)
//
// b, the block size, is the operand's last dimension over its scale's
// (or a block_scaled_dot_backend_config's block_size, where the scales are
// padded). Each value is rounded to its type as the rewrite's converts,
// multiplies and divides round it; the dot accumulates in double and
// rounds once, as dot does here.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Internal.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;

/// 2^(the exponent at which `t` overflows - 1): the largest power of two
/// of the format's range (XLA's emax of a block-scaled quantization).
static double formatEmax(Type t) {
  const llvm::fltSemantics &sem = cast<FloatType>(t).getFloatSemantics();
  return std::ldexp(1.0, llvm::APFloat::semanticsMaxExponent(sem));
}

Literal eval::scaleByBlocks(const Literal &x, const Literal &scale, Type type,
                            ArrayRef<int64_t> blocks) {
  int64_t rank = x.getRank();
  Literal y = Literal::array(type, x.getShape());
  Literal factor = Literal::array(type, {});
  SmallVector<int64_t> idx(rank, 0), sidx(rank, 0);
  for (int64_t i = 0, n = x.getNumElements(); i < n;
       ++i, nextIndex(idx, x.getShape())) {
    for (int64_t d = 0; d < rank; ++d)
      sidx[d] = idx[d] / blocks[d];
    factor.setFloat(0, scale.getFloat(scale.linearize(sidx)));
    y.setFloat(i, x.getFloat(i));
    y.setFloat(i, y.getFloat(i) * factor.getFloat(0));
  }
  return y;
}

namespace {
/// What the three calls share: the interpreter, the call and its error.
struct BlockScaling {
  Interp &interp;
  CustomCallOp op;

  LogicalResult fail(const Twine &why) {
    return interp.error(op, op.getCustomCallTarget() + ": " + why);
  }

  /// `x` scaled by `s` block by block along the last dimension, in a
  /// literal of element type `element` (each factor and the product
  /// rounded to it).
  FailureOr<Literal> dequantize(const Literal &x, const Literal &s,
                                Type element, std::optional<int64_t> block) {
    int64_t rank = x.getRank();
    if (!x.isArray() || !s.isArray() || s.getRank() != rank || rank < 1)
      return fail("a scale must have its operand's rank");
    int64_t k = x.getShape()[rank - 1], ks = s.getShape()[rank - 1];
    int64_t b = block ? *block : (ks > 0 && k % ks == 0 ? k / ks : 0);
    if (b <= 0 || (k + b - 1) / b > ks)
      return fail("the scale's last dimension does not divide the operand's "
                  "into blocks");
    for (int64_t d = 0; d + 1 < rank; ++d)
      if (s.getShape()[d] < x.getShape()[d])
        return fail("the scale is smaller than its operand");
    SmallVector<int64_t> blocks(rank, 1);
    blocks[rank - 1] = b;
    return scaleByBlocks(x, s, element, blocks);
  }

  FailureOr<Literal> runDequantize(Operands operands) {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (operands.size() != 2 || !type)
      return fail("takes (input, scale) and returns an array");
    return dequantize(*operands[0], *operands[1], type.getElementType(),
                      std::nullopt);
  }

  FailureOr<Literal> runQuantize(Operands operands) {
    auto tuple = dyn_cast<TupleType>(op.getType());
    if (operands.size() != 1 || !tuple || tuple.size() != 2 ||
        !operands[0]->isArray())
      return fail("takes an input and returns (quantized, scale)");
    const Literal &x = *operands[0];
    auto qt = dyn_cast<RankedTensorType>(tuple.getType(0));
    auto st = dyn_cast<RankedTensorType>(tuple.getType(1));
    int64_t rank = x.getRank();
    if (!qt || !st || qt.getShape() != x.getShape() || st.getRank() != rank ||
        rank < 1 || !isa<FloatType>(qt.getElementType()))
      return fail("the results must be the input's shape and its scales");
    int64_t k = x.getShape()[rank - 1], ks = st.getDimSize(rank - 1);
    if (ks <= 0 || k % ks != 0 ||
        st.getShape().drop_back() != x.getShape().drop_back())
      return fail("the scale's last dimension does not divide the input's "
                  "into blocks");
    int64_t b = k / ks;
    Type in = x.getElementType();
    Literal q = Literal::array(qt.getElementType(), x.getShape());
    Literal s = Literal::array(st.getElementType(), st.getShape());
    Literal v = Literal::array(in, {});
    double emax = formatEmax(qt.getElementType());
    for (int64_t blk = 0, e = s.getNumElements(); blk < e; ++blk) {
      double amax = 0;
      for (int64_t j = 0; j < b; ++j) {
        double a = std::fabs(x.getFloat(blk * b + j));
        amax = std::isnan(a) || std::isnan(amax) ? NAN : std::max(amax, a);
      }
      v.setFloat(0, amax / emax);     // in the input's type
      s.setFloat(blk, v.getFloat(0)); // the scale's
      v.setFloat(0, s.getFloat(blk)); // back to the input's
      double scale = v.getFloat(0);
      for (int64_t j = 0; j < b; ++j) {
        v.setFloat(0, x.getFloat(blk * b + j) / scale);
        q.setFloat(blk * b + j, v.getFloat(0));
      }
    }
    std::vector<Literal> results;
    results.push_back(std::move(q));
    results.push_back(std::move(s));
    return Literal::tuple(std::move(results));
  }

  FailureOr<Literal> runDot(Operands operands) {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (operands.size() < 3 || operands.size() > 5 || !type)
      return fail("takes (lhs, rhs, lhs_scale[, rhs_scale[, global_scale]])"
                  " and returns an array");
    Type element = type.getElementType();
    std::optional<int64_t> block = readBlockScaledDotBlockSize(op);
    FailureOr<Literal> lhs =
        dequantize(*operands[0], *operands[2], element, block);
    if (failed(lhs))
      return failure();
    Literal rhs;
    if (operands.size() >= 4) {
      FailureOr<Literal> r =
          dequantize(*operands[1], *operands[3], element, block);
      if (failed(r))
        return failure();
      rhs = std::move(*r);
    } else {
      rhs = Literal::array(element, operands[1]->getShape());
      for (int64_t i = 0, n = rhs.getNumElements(); i < n; ++i)
        rhs.setFloat(i, operands[1]->getFloat(i));
    }
    int64_t rank = lhs->getRank();
    if ((rank != 2 && rank != 3) || rhs.getRank() != rank)
      return fail("operands must be of rank 2 or 3");
    SmallVector<int64_t> batch =
        rank == 3 ? SmallVector<int64_t>{0} : SmallVector<int64_t>{};
    SmallVector<int64_t> lc = {rank - 1}, rc = {rank - 1};
    Literal out = Literal::zeros(type);
    if (failed(checkDotDims(interp, op, *lhs, rhs, out, batch, lc, batch, rc)))
      return failure();
    FailureOr<Literal> d =
        dotInto(interp, op, *lhs, rhs, std::move(out), batch, lc, batch, rc);
    if (failed(d) || operands.size() < 5)
      return d;
    const Literal &g = *operands[4];
    if (!g.isArray() || g.getNumElements() != 1)
      return fail("the global scale must be a scalar");
    for (int64_t i = 0, n = d->getNumElements(); i < n; ++i)
      d->setFloat(i, d->getFloat(i) * g.getFloat(0));
    return d;
  }
};
} // namespace

EvalResult eval::evalBlockScalingCustomCall(Interp &interp, CustomCallOp op,
                                            Operands operands) {
  StringRef target = op.getCustomCallTarget();
  BlockScaling calls{interp, op};
  if (target == "__op$dequantize")
    return calls.runDequantize(operands);
  if (target == "__op$quantize")
    return calls.runQuantize(operands);
  if (target == "__op$block_scaled_dot")
    return calls.runDot(operands);
  return std::nullopt;
}
