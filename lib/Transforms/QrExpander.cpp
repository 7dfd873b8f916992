//===- QrExpander.cpp - XLA's QR custom calls as Householder loops --------===//
//
// XLA's QrExpander: its client library's QR (PyTorch/XLA's and TF's
// linalg.qr) leaves two custom calls, which XLA-GPU expands into HLO in
// "optimization" after its scatter expander:
//
//   (a', taus) = custom-call(a), custom_call_target="Qr"
//   q = custom-call(a', taus),
//       custom_call_target="ProductOfElementaryHouseholderReflectors"
//
// `Qr` is LAPACK's geqrf on each m x n matrix of the batch: R on and above
// the diagonal of a', the Householder vectors below it (their leading 1
// implied), and their scales tau, min(m, n) per matrix. Step j of the loop
// (dlarfg, then the update of the trailing columns) on x, column j:
//
//   alpha = x[j]; s = sum of x[i]^2 for i > j
//   beta  = s == 0 ? alpha : -sign(alpha) * hypot(alpha, sqrt(s))
//   tau   = s == 0 ? 0 : (beta - alpha) / beta
//   v     = (i < j: 0, i == j: 1, i > j: x[i] / (alpha - beta))
//   a    -= tau * v (v^T a)      on the columns after j
//   a[:, j] = (i < j: x[i], i == j: beta, i > j: v[i])
//
// `ProductOfElementaryHouseholderReflectors` is orgqr: q = H_0 ... H_{r-1}
// applied to the m x n identity, H_j = I - tau_j v_j v_j^T, one loop step a
// reflector from the last. Complex matrices as zgeqrf and zungqr: beta is
// real, -sign(re alpha) * |(alpha, norm)|, tau = ((beta - re alpha) / beta,
// -im alpha / beta), no reflection where the norm and im alpha are 0, the
// reflections H_j^H = I - conj(tau_j) v_j v_j^H on a and H_j on q. Every step
// works on whole matrices under masks of the row and column iotas, so all
// shapes are static; v^T a is a multiply and a sum over the rows. XLA blocks
// the columns (128 a block) and updates the rest of the matrix once a block
// through its WY form; here each reflector updates it, the same arithmetic in
// matrix-vector steps.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "MatrixBuilder.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include <limits>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOQREXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

static constexpr StringLiteral kQrTarget = "Qr";
static constexpr StringLiteral kHouseholderProductTarget =
    "ProductOfElementaryHouseholderReflectors";

namespace {

/// The matrices of a call: the batch of m x n matrices of a float or
/// complex type and r reflectors per matrix.
struct QrShape : MatrixBatch {
  RankedTensorType matrices;
  int64_t r = 0;
};

/// The call's shape, if the expansion takes it: static arrays of a float or
/// complex type, the results XLA's calls have; the product with m >= n >= r.
std::optional<QrShape> readCall(CustomCallOp call) {
  StringRef target = call.getCustomCallTarget();
  bool product = target == kHouseholderProductTarget;
  OperandRange operands = getDataOperands(call);
  if ((!product && target != kQrTarget) ||
      operands.size() != (product ? 2u : 1u) || hasControlPredecessors(call))
    return std::nullopt;
  std::optional<MatrixBatch> batch = MatrixBatch::read(operands[0].getType());
  if (!batch)
    return std::nullopt;
  QrShape s;
  static_cast<MatrixBatch &>(s) = std::move(*batch);
  auto a = s.matrices = cast<RankedTensorType>(operands[0].getType());
  auto sameShape = [](Type t, ArrayRef<int64_t> shape, Type element) {
    auto array = dyn_cast<RankedTensorType>(t);
    return array && array.getShape() == shape &&
           array.getElementType() == element;
  };
  if (product) {
    auto taus = dyn_cast<RankedTensorType>(operands[1].getType());
    if (!taus || !taus.hasStaticShape() || taus.getRank() < 1)
      return std::nullopt;
    s.r = taus.getShape().back();
    if (!sameShape(taus, s.shape({s.r}), s.element) ||
        !sameShape(call.getType(), a.getShape(), s.element) || s.m < s.n ||
        s.r > s.n)
      return std::nullopt;
  } else {
    s.r = std::min(s.m, s.n);
    auto tuple = dyn_cast<TupleType>(call.getType());
    if (!tuple || tuple.size() != 2 ||
        !sameShape(tuple.getType(0), a.getShape(), s.element) ||
        !sameShape(tuple.getType(1), s.shape({s.r}), s.element))
      return std::nullopt;
  }
  if (s.r > std::numeric_limits<int32_t>::max())
    return std::nullopt;
  return s;
}

/// The instructions of one step, on whole matrices.
class StepBuilder : public MatrixBuilder {
public:
  using MatrixBuilder::MatrixBuilder;

  /// The Householder vector of column `x` [batch, m] whose entries below
  /// row j are `below` (already scaled): 0 above j, 1 at j.
  Value reflector(Value rows, Value j, Value below) {
    Value jj = splatScalar(j, {s.m});
    return select(ib.compare(rows, jj, ComparisonDirection::GT), below,
                  select(ib.compare(rows, jj, ComparisonDirection::EQ),
                         splat(1, {s.m}), splat(0, {s.m})));
  }
  /// `matrix` - tau * v (v^H matrix), v [batch, m], tau [batch]; with
  /// `columns`, only on the columns where it holds.
  Value applyReflector(Value matrix, Value v, Value tau, Value columns) {
    Value vm = broadcast(v, {s.m, s.n}, {0});
    Value read =
        columns ? select(columns, matrix, splat(0, {s.m, s.n})) : matrix;
    Value w = sum(binary<MulOp>(conj(vm), read), 0); // [batch, n]
    Value update =
        binary<MulOp>(binary<MulOp>(vm, broadcast(w, {s.m, s.n}, {1})),
                      broadcast(tau, {s.m, s.n}, {}));
    return binary<SubtractOp>(matrix, update);
  }
};

} // namespace

/// geqrf's loop: (a', taus).
static Value expandQr(CustomCallOp call, const QrShape &s, SymbolTable &symbols,
                      function_ref<FlatSymbolRefAttr(Type)> adder) {
  OpBuilder b(call);
  InstBuilder ib(b, derivedLoc(call.getLoc()));
  // The loop's matrices have no layout (the steps' instructions have
  // none): a laid-out operand is copied in, the results copied out.
  Value a = getDataOperands(call)[0];
  auto plain = RankedTensorType::get(s.matrices.getShape(), s.element);
  if (a.getType() != plain)
    a = ib.create<CopyOp>(plain, a);
  SmallVector<Value> init = {a, ib.splat(s.element, 0, s.shape({s.r}))};
  auto body = [&](InstBuilder &bb, Value j,
                  ValueRange state) -> SmallVector<Value> {
    StepBuilder st(bb, s, adder);
    Value matrix = state[0], taus = state[1];
    Value rows = st.iota({s.m}, 0);
    Value jm = st.splatScalar(j, {s.m});
    Value x = st.column(matrix, j);
    Value alpha = st.at(x, j);
    Value below = st.select(bb.compare(rows, jm, ComparisonDirection::GT), x,
                            st.splat(0, {s.m}));
    Value sumSquares = st.sum(st.absSquared(below), 0);
    // Real scalars per matrix: alpha's parts, the norm below the diagonal.
    Value zero = bb.splat(s.real, 0, s.batch),
          one = bb.splat(s.real, 1, s.batch);
    auto isZero = [&](Value v) {
      return bb.compare(v, zero, ComparisonDirection::EQ);
    };
    Value alphaRe = st.isComplex() ? st.re(alpha) : alpha;
    Value noReflection = isZero(sumSquares);
    SmallVector<Value> parts = {st.unary<AbsOp>(alphaRe),
                                st.unary<SqrtOp>(sumSquares)};
    if (st.isComplex()) {
      Value alphaIm = st.im(alpha);
      noReflection = st.binary<AndOp>(noReflection, isZero(alphaIm));
      parts.push_back(st.unary<AbsOp>(alphaIm));
    }
    // The norm of `parts` without overflow: big * sqrt(sum (p / big)^2),
    // big the largest (0 when all are).
    Value big = parts[0];
    for (Value p : ArrayRef(parts).drop_front())
      big = st.binary<MaxOp>(big, p);
    Value scaled;
    for (Value p : parts) {
      Value q = st.binary<DivOp>(p, big);
      q = st.binary<MulOp>(q, q);
      scaled = scaled ? st.binary<AddOp>(scaled, q) : q;
    }
    Value hypot = st.select(isZero(big), zero,
                            st.binary<MulOp>(big, st.unary<SqrtOp>(scaled)));
    Value sign = st.select(bb.compare(alphaRe, zero, ComparisonDirection::LT),
                           one, st.unary<NegOp>(one));
    // beta (real); tau and the divisor alpha - beta.
    Value beta = st.binary<MulOp>(sign, hypot);
    Value tauRe = st.binary<DivOp>(st.binary<SubtractOp>(beta, alphaRe), beta);
    Value tau = tauRe, betaElement = beta, divisor;
    if (st.isComplex()) {
      Value alphaIm = st.im(alpha);
      tau = st.complex(tauRe, st.binary<DivOp>(st.unary<NegOp>(alphaIm), beta));
      betaElement = st.complex(beta, zero);
      divisor = st.complex(st.binary<SubtractOp>(alphaRe, beta), alphaIm);
    } else {
      divisor = st.binary<SubtractOp>(alpha, beta);
    }
    Value zeroElement = st.splat(0, {}), oneElement = st.splat(1, {});
    betaElement = st.select(noReflection, alpha, betaElement);
    tau = st.select(noReflection, zeroElement, tau);
    divisor = st.select(noReflection, oneElement, divisor);
    Value v = st.reflector(
        rows, j, st.binary<DivOp>(x, st.broadcast(divisor, {s.m}, {})));
    // The columns after j take the reflection; column j becomes R's
    // entries above the diagonal, beta and v below it.
    Value colsMn = st.iota({s.m, s.n}, 1);
    Value jmn = st.splatScalar(j, {s.m, s.n});
    // H_j^H on a: the conjugate scale.
    Value updated =
        st.applyReflector(matrix, v, st.conj(tau),
                          bb.compare(colsMn, jmn, ComparisonDirection::GT));
    Value newColumn =
        st.select(bb.compare(rows, jm, ComparisonDirection::LT), x,
                  st.select(bb.compare(rows, jm, ComparisonDirection::EQ),
                            st.broadcast(betaElement, {s.m}, {}), v));
    Value next = st.select(bb.compare(colsMn, jmn, ComparisonDirection::EQ),
                           st.broadcast(newColumn, {s.m, s.n}, {0}), updated);
    Value k = st.iota({s.r}, 0);
    Value nextTaus = st.select(
        bb.compare(k, st.splatScalar(j, {s.r}), ComparisonDirection::EQ),
        st.broadcast(tau, {s.r}, {}), taus);
    return {next, nextTaus};
  };
  auto parent = call->getParentOfType<ComputationOp>();
  SmallVector<Value> after =
      buildCountedLoop(ib, symbols, parent, "qr", s.r, init, body, 2);
  auto results = cast<TupleType>(call.getType()).getTypes();
  for (auto [k, v] : llvm::enumerate(after))
    if (v.getType() != results[k])
      after[k] = ib.create<CopyOp>(results[k], v);
  return ib.tuple(after);
}

/// orgqr's loop: q.
static Value
expandHouseholderProduct(CustomCallOp call, const QrShape &s,
                         SymbolTable &symbols,
                         function_ref<FlatSymbolRefAttr(Type)> adder) {
  OpBuilder b(call);
  InstBuilder ib(b, derivedLoc(call.getLoc()));
  Value a = getDataOperands(call)[0], taus = getDataOperands(call)[1];
  // The m x n identity (q, as the loop carries it, has no layout).
  StepBuilder top(ib, s, adder);
  Value identity =
      top.select(ib.compare(top.iota({s.m, s.n}, 0), top.iota({s.m, s.n}, 1),
                            ComparisonDirection::EQ),
                 top.splat(1, {s.m, s.n}), top.splat(0, {s.m, s.n}));
  auto body = [&](InstBuilder &bb, Value t,
                  ValueRange state) -> SmallVector<Value> {
    StepBuilder st(bb, s, adder);
    Type s32 = tensorType(t).getElementType();
    // Reflectors from the last: j = r - 1 - t.
    Value j = bb.create<SubtractOp>(t.getType(), {bb.scalar(s32, s.r - 1), t});
    Value matrix = state[0], q = state[1], tauVector = state[2];
    Value rows = st.iota({s.m}, 0);
    Value v = st.reflector(rows, j, st.column(matrix, j));
    Value next = st.applyReflector(q, v, st.at(tauVector, j), Value());
    return {matrix, next, tauVector};
  };
  auto parent = call->getParentOfType<ComputationOp>();
  SmallVector<Value> after =
      buildCountedLoop(ib, symbols, parent, "householder_product", s.r,
                       {a, identity, taus}, body, 2);
  Value q = after[1];
  if (q.getType() != call.getType())
    q = ib.create<CopyOp>(call.getType(), q);
  return q;
}

namespace {
struct QrExpanderPass
    : ChangeReportingPass<QrExpanderPass, hlo::impl::HloQrExpanderBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<std::pair<CustomCallOp, QrShape>> calls;
    for (ComputationOp comp : nonFusionComputations(module))
      comp.walk([&](CustomCallOp call) {
        if (std::optional<QrShape> s = readCall(call))
          calls.push_back({call, std::move(*s)});
      });
    ScalarAdders adder(symbols);
    for (auto &[call, s] : calls) {
      Value result = call.getCustomCallTarget() == kQrTarget
                         ? expandQr(call, s, symbols, adder)
                         : expandHouseholderProduct(call, s, symbols, adder);
      transferInstructionAttrs(call, result.getDefiningOp());
      call.getResult().replaceAllUsesWith(result);
      call.erase();
      ++numExpanded;
      changed = true;
    }
  }
};
} // namespace
