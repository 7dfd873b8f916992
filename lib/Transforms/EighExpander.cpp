//===- EighExpander.cpp - XLA's Eigh call as Jacobi sweeps ----------------===//
//
// XLA's EighExpander, which XLA-GPU 0.10.2 runs in "optimization" after its
// QR expander: the `Eigh` custom call of XLA's client library (PyTorch/XLA's
// and TF's eigh; (v, w) of the symmetric matrices one triangle of the
// operand defines, backend_config "lower,sort_eigenvalues,max_iter,tol")
// becomes HLO: the cyclic Jacobi method in parallel order. A sweep rotates
// every pair of indices once, in rounds of disjoint pairs from the
// round-robin (circle) schedule of the n indices (n - 1 rounds, n rounds
// for odd n, where one index sits each round out). One round, on whole
// matrices, with p[i] the partner of i:
//
//   t   = tan of the rotation that zeroes a[i, p[i]] (Golub and Van Loan's
//         symmetric Schur step on a[i, i], a[p[i], p[i]], a[i, p[i]])
//   c   = 1 / sqrt(1 + t^2);  s = t c, negated on the lower index of a pair
//   a  <- c a + s a[p, :]    (rows),  then  c a + s a[:, p]  (columns)
//   v  <- c v + s v[:, p]
//
// the partner rows and columns gathered by p (computed from the round
// number). Sweeps go on while some matrix of the batch has
// an off-diagonal norm above tol times its norm, at most max_iter of them
// (XLA's condition). w is the diagonal, sorted ascending with v's columns:
// always, as LAPACK's syevd (the interpreter's and cuSOLVER's reading of
// the call) returns them; XLA leaves them in the sweeps' order without
// sort_eigenvalues. XLA works on the four quadrants of the matrix and
// permutes its rows between rounds instead of gathering them; the
// rotations are the same. Complex (Hermitian) matrices take each pair's
// phase e = a[i, p[i]] / |a[i, p[i]]| into the rotation (the real step on
// |a[i, p[i]]|; rows by s e, columns by s conj(e)); the diagonal's
// imaginary part is not read, and v goes through the sort as its two
// parts (the GPU's sort kernels take integers and floats).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloFactorizationCalls.h"
#include "Hlo/Transforms/Passes.h"
#include "MatrixBuilder.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include <numeric>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOEIGHEXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The rounds of a sweep: the circle method over m = n rounded up to even
/// players.
static int64_t roundsOf(int64_t n) { return n + n % 2 - 1; }

/// The partner of each of the n indices in round `r` (an s32 scalar) of the
/// circle method: player m - 1 meets r, every other i meets (2r - i) mod
/// (m - 1); where that is player m - 1 and n is odd (no such index), i sits
/// the round out, its partner itself. Over the m - 1 rounds every two
/// indices meet once.
static Value partners(InstBuilder &ib, int64_t n, Value r) {
  OpBuilder &b = ib.getBuilder();
  Type s32 = b.getI32Type();
  auto type = RankedTensorType::get({n}, s32);
  int64_t m = n + n % 2;
  Value i = ib.create<IotaOp>(
      type, {}, {b.getNamedAttr("iota_dimension", b.getI64IntegerAttr(0))});
  Value round = ib.create<BroadcastOp>(
      type, r, {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({}))});
  Value last = ib.splat(s32, m - 1, {n});
  // 2r - i + (m - 1) >= 0 (i < m), so the remainder is the modulus.
  Value q = ib.create<AddOp>(
      type,
      {ib.create<SubtractOp>(type, {ib.create<AddOp>(type, {round, round}), i}),
       last});
  q = ib.create<RemOp>(type, {q, last});
  auto select = [&](Value c, Value x, Value y) {
    return ib.create<SelectOp>(type, {c, x, y});
  };
  Value p = select(ib.compare(i, last, ComparisonDirection::EQ), round,
                   select(ib.compare(q, i, ComparisonDirection::EQ), last, q));
  return select(ib.compare(p, ib.splat(s32, n, {n}), ComparisonDirection::GE),
                i, p);
}

namespace {
/// The gathers and reductions of a round.
class JacobiBuilder : public MatrixBuilder {
public:
  using MatrixBuilder::MatrixBuilder;

  /// `v` [batch, n, n] with dimension `dim` (0: rows, 1: columns) read at
  /// the indices `p` [n]: result[.., i, ..] = v[.., p[i], ..].
  Value gatherMatrix(Value v, Value p, int64_t dim) {
    int64_t nb = s.batch.size();
    SmallVector<int64_t> offsets = s.dimsWith({}), sizes = s.shape({s.n, s.n});
    offsets.push_back(nb + 1 - dim);
    sizes[nb + dim] = 1;
    return gather(v, p, nb + dim, offsets, sizes, tensorType(v).getShape());
  }
  /// `d` [batch, n] read at the indices `p` [n].
  Value gatherVector(Value d, Value p) {
    int64_t nb = s.batch.size();
    SmallVector<int64_t> sizes = s.shape({1});
    return gather(d, p, nb, s.dimsWith({}), sizes, tensorType(d).getShape());
  }
  /// The diagonals of `a` [batch, n, n], [batch, n].
  Value diagonal(Value a) {
    Value eye = ib.compare(iota({s.n, s.n}, 0), iota({s.n, s.n}, 1),
                           ComparisonDirection::EQ);
    return sum(select(eye, a, splat(0, {s.n, s.n})), 1);
  }
  /// The sum of the squared magnitudes of `a`'s entries, per matrix,
  /// [batch], of the real type.
  Value sumOfSquares(Value a) { return sum(sum(absSquared(a), 1), 0); }

private:
  Value gather(Value v, Value p, int64_t dim, ArrayRef<int64_t> offsets,
               ArrayRef<int64_t> sizes, ArrayRef<int64_t> shape) {
    Value indices = ib.reshape(p, {s.n, 1});
    return ib.create<GatherOp>(
        RankedTensorType::get(shape, tensorType(v).getElementType()),
        {v, indices},
        {b.getNamedAttr("offset_dims", b.getDenseI64ArrayAttr(offsets)),
         b.getNamedAttr("collapsed_slice_dims", b.getDenseI64ArrayAttr({dim})),
         b.getNamedAttr("start_index_map", b.getDenseI64ArrayAttr({dim})),
         b.getNamedAttr("index_vector_dim", b.getI64IntegerAttr(1)),
         b.getNamedAttr("slice_sizes", b.getDenseI64ArrayAttr(sizes))});
  }
};
} // namespace

/// One round: the rotations of the pairs `p` on (a, v).
static SmallVector<Value> rotate(JacobiBuilder &jb, Value a, Value v, Value p) {
  const MatrixBatch &s = jb.s;
  InstBuilder &ib = jb.ib;
  int64_t n = s.n;
  auto real = [&](Value x) { return jb.isComplex() ? jb.re(x) : x; };
  // Each index's pair: the real diagonal entries (pp: the lower index's)
  // and g = a[i, p[i]].
  Value d = real(jb.diagonal(a));
  Value g = jb.diagonal(jb.gatherMatrix(a, p, 1));
  Value partnerDiagonal = jb.gatherVector(d, p);
  Value index = ib.create<IotaOp>(
      RankedTensorType::get({n}, jb.b.getI32Type()), {},
      {jb.b.getNamedAttr("iota_dimension", jb.b.getI64IntegerAttr(0))});
  auto batched = [&](Value x) { return jb.broadcastToBatch(x, {n}, {0}); };
  Value first = batched(ib.compare(index, p, ComparisonDirection::LT));
  Value paired = batched(ib.compare(index, p, ComparisonDirection::NE));
  Value pp = jb.select(first, d, partnerDiagonal);
  Value qq = jb.select(first, partnerDiagonal, d);
  auto realSplat = [&](int64_t x) { return ib.splat(s.real, x, s.shape({n})); };
  Value zero = realSplat(0), one = realSplat(1);
  Value size =
      ib.create<AbsOp>(RankedTensorType::get(s.shape({n}), s.real), {g});
  Value turn =
      jb.binary<AndOp>(paired, ib.compare(size, zero, ComparisonDirection::NE));
  // tau = (qq - pp) / (2 |g|); t = sign(tau) / (|tau| + sqrt(1 + tau^2)),
  // sign(0) = 1; c = 1 / sqrt(1 + t^2), s = t c.
  Value safe = jb.select(turn, size, one);
  Value tau = jb.binary<DivOp>(jb.binary<SubtractOp>(qq, pp),
                               jb.binary<AddOp>(safe, safe));
  Value root =
      jb.unary<SqrtOp>(jb.binary<AddOp>(one, jb.binary<MulOp>(tau, tau)));
  Value sign = jb.select(ib.compare(tau, zero, ComparisonDirection::GE), one,
                         jb.unary<NegOp>(one));
  Value t =
      jb.binary<DivOp>(sign, jb.binary<AddOp>(jb.unary<AbsOp>(tau), root));
  t = jb.select(turn, t, zero);
  Value c = jb.unary<RsqrtOp>(jb.binary<AddOp>(one, jb.binary<MulOp>(t, t)));
  Value sc = jb.binary<MulOp>(t, c);
  sc = jb.select(first, jb.unary<NegOp>(sc), sc);
  // g's phase e = g / |g| (its sign for real types): row i takes
  // c a[i, :] + s e a[p[i], :], column j takes c b[:, j] + s conj(e)
  // b[:, p[j]] (s negated on the lower index of each pair).
  Value phase = jb.binary<DivOp>(g, jb.fromReal(safe));
  Value rowScale = jb.binary<MulOp>(jb.fromReal(sc), phase);
  Value colScale = jb.conj(rowScale);
  Value ce = jb.fromReal(c);
  auto rows = [&](Value x) { return jb.broadcast(x, {n, n}, {0}); };
  auto cols = [&](Value x) { return jb.broadcast(x, {n, n}, {1}); };
  Value byRows = jb.binary<AddOp>(
      jb.binary<MulOp>(rows(ce), a),
      jb.binary<MulOp>(rows(rowScale), jb.gatherMatrix(a, p, 0)));
  Value next = jb.binary<AddOp>(
      jb.binary<MulOp>(cols(ce), byRows),
      jb.binary<MulOp>(cols(colScale), jb.gatherMatrix(byRows, p, 1)));
  Value nextV = jb.binary<AddOp>(
      jb.binary<MulOp>(cols(ce), v),
      jb.binary<MulOp>(cols(colScale), jb.gatherMatrix(v, p, 1)));
  // The rotated pairs' entries are zero (rounding leaves them tiny).
  Value column = jb.iota({n, n}, 1);
  Value rotated =
      jb.binary<AndOp>(ib.compare(column, jb.broadcastToBatch(p, {n, n}, {0}),
                                  ComparisonDirection::EQ),
                       rows(turn));
  next = jb.select(rotated, jb.splat(0, {n, n}), next);
  return {next, nextV};
}

static Value expandEigh(CustomCallOp call, const FactorizationCall &fc,
                        const MatrixBatch &s, SymbolTable &symbols,
                        function_ref<FlatSymbolRefAttr(Type)> adder) {
  OpBuilder b(call);
  InstBuilder ib(b, derivedLoc(call.getLoc()));
  JacobiBuilder jb(ib, s, adder);
  auto parent = call->getParentOfType<ComputationOp>();
  int64_t n = s.n;
  Value a = getDataOperands(call)[0];
  auto plain = RankedTensorType::get(s.shape({n, n}), s.element);
  if (a.getType() != plain)
    a = ib.create<CopyOp>(plain, a);
  // The Hermitian matrix of the triangle read (a real diagonal).
  Value rowIota = jb.iota({n, n}, 0), colIota = jb.iota({n, n}, 1);
  Value inTriangle =
      ib.compare(rowIota, colIota,
                 fc.lower ? ComparisonDirection::GE : ComparisonDirection::LE);
  Value eye = ib.compare(rowIota, colIota, ComparisonDirection::EQ);
  a = jb.select(inTriangle, a, jb.adjoint(a));
  if (jb.isComplex())
    a = jb.select(eye, jb.fromReal(jb.re(a)), a);
  Value identity = jb.select(eye, jb.splat(1, {n, n}), jb.splat(0, {n, n}));
  // Sweeps while some matrix's off-diagonal norm is above tol times its
  // norm: off^2 > tol^2 total^2.
  double tol2 = fc.tolerance * fc.tolerance;
  auto goesOn = [&](InstBuilder &cb, ValueRange state) -> Value {
    JacobiBuilder c(cb, s, adder);
    Value x = state[0];
    Value total = c.sumOfSquares(x);
    Value eye = cb.compare(c.iota({s.n, s.n}, 0), c.iota({s.n, s.n}, 1),
                           ComparisonDirection::EQ);
    Value off = c.sumOfSquares(c.select(eye, c.splat(0, {s.n, s.n}), x));
    Type real = s.real;
    auto scalarType = RankedTensorType::get({}, real);
    Value tolerance = cb.create<ConstantOp>(
        scalarType, {},
        {cb.getBuilder().getNamedAttr(
            "value",
            DenseElementsAttr::get(scalarType, FloatAttr::get(real, tol2)))});
    Value bound = c.binary<MulOp>(total, c.splatScalar(tolerance, {}));
    // Any matrix of the batch: the count of those above their bound.
    Value above =
        cb.convert(cb.compare(off, bound, ComparisonDirection::GT), real);
    SmallVector<int64_t> all(s.batch.size());
    std::iota(all.begin(), all.end(), 0);
    Value count =
        all.empty()
            ? above
            : cb.create<ReduceOp>(
                  scalarType, {above, cb.scalar(real, 0)},
                  {cb.getBuilder().getNamedAttr(
                       "dimensions", cb.getBuilder().getDenseI64ArrayAttr(all)),
                   cb.getBuilder().getNamedAttr("to_apply", adder(real))});
    return cb.compare(count, cb.scalar(real, 0), ComparisonDirection::GT);
  };
  auto sweep = [&](InstBuilder &sb, Value, ValueRange state) {
    auto round = [&](InstBuilder &rb, Value r,
                     ValueRange inner) -> SmallVector<Value> {
      JacobiBuilder rj(rb, s, adder);
      return rotate(rj, inner[0], inner[1], partners(rb, n, r));
    };
    return buildCountedLoop(sb, symbols, parent, "eigh_round", roundsOf(n),
                            state, round, 2);
  };
  SmallVector<Value> result =
      buildCountedLoop(ib, symbols, parent, "eigh_sweep", fc.maxIterations,
                       {a, identity}, sweep, 2, goesOn);
  // w ascending, v's columns with them: a sort of the rows of v, keyed by
  // w along them.
  Value w = jb.diagonal(result[0]);
  if (jb.isComplex())
    w = jb.re(w);
  // Complex vectors go through the sort as their two parts (the GPU's sort
  // kernels take integers and floats).
  auto keysType = RankedTensorType::get(s.shape({n, n}), s.real);
  SmallVector<Value> operands = {jb.broadcast(w, {n, n}, {1})};
  if (jb.isComplex())
    operands.append({jb.re(result[1]), jb.im(result[1])});
  else
    operands.push_back(result[1]);
  SmallVector<Type> types(operands.size(), keysType);
  auto scalar = RankedTensorType::get({}, s.real);
  SmallVector<Type> params(2 * operands.size(), scalar);
  ComputationOp less =
      createComputation(symbols, parent, "eigh_compare", params, ib.getLoc());
  {
    OpBuilder cb = OpBuilder::atBlockEnd(&less.getBody().front());
    InstBuilder lb(cb, ib.getLoc());
    Value lt = lb.create<CompareOp>(
        RankedTensorType::get({}, cb.getI1Type()),
        {less.getArgument(0), less.getArgument(1)},
        {cb.getNamedAttr("direction",
                         ComparisonDirectionAttr::get(
                             cb.getContext(), ComparisonDirection::LT))});
    setComputationResult(less, cb, lt);
  }
  int64_t nb = s.batch.size();
  Value sorted = ib.create<SortOp>(
      TupleType::get(b.getContext(), types), operands,
      {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({nb + 1})),
       b.getNamedAttr("to_apply", FlatSymbolRefAttr::get(less)),
       b.getNamedAttr("is_stable", b.getBoolAttr(true))});
  Value v = ib.getTupleElement(sorted, 1);
  if (jb.isComplex())
    v = jb.complex(v, ib.getTupleElement(sorted, 2));
  w = ib.reshape(jb.block(ib.getTupleElement(sorted, 0), 0, 1, 0, n),
                 s.shape({n}));
  auto results = cast<TupleType>(call.getType()).getTypes();
  if (v.getType() != results[0])
    v = ib.create<CopyOp>(results[0], v);
  if (w.getType() != results[1])
    w = ib.create<CopyOp>(results[1], w);
  return ib.tuple({v, w});
}

namespace {
struct EighExpanderPass
    : ChangeReportingPass<EighExpanderPass, hlo::impl::HloEighExpanderBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    struct Expansion {
      CustomCallOp call;
      FactorizationCall fc;
      MatrixBatch s;
    };
    SmallVector<Expansion> calls;
    for (ComputationOp comp : nonFusionComputations(module))
      comp.walk([&](CustomCallOp call) {
        if (call.getCustomCallTarget() != "Eigh" || hasControlEdges(call))
          return;
        std::string why;
        FailureOr<FactorizationCall> fc = readFactorizationCall(call, why);
        if (failed(fc))
          return;
        std::optional<MatrixBatch> s =
            MatrixBatch::read(getDataOperands(call)[0].getType());
        if (!s || s->n == 0 || s->n > INT32_MAX ||
            fc->maxIterations > INT32_MAX)
          return;
        calls.push_back({call, *fc, std::move(*s)});
      });
    ScalarAdders adder(symbols);
    for (Expansion &e : calls) {
      Value result = expandEigh(e.call, e.fc, e.s, symbols, adder);
      transferInstructionAttrs(e.call, result.getDefiningOp());
      e.call.getResult().replaceAllUsesWith(result);
      e.call.erase();
      ++numExpanded;
      changed = true;
    }
  }
};
} // namespace
