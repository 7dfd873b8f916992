//===- ReduceWindowRewriter.cpp - scans as trees of short windows ---------===//
//
// XLA's ReduceWindowRewriter (XLA-GPU's "optimization" pipeline, base
// length 16). A reduce-window whose one non-trivial window dimension spans
// its whole dimension of length N, padded by N - 1 (or N) on one side, is
// a prefix scan (a suffix scan when the padding is high): jnp.cumsum,
// cumprod, cummax. Computed as written, every output element reduces up to
// N inputs. The rewrite splits the scan dimension into C rows of B = base
// length (padded with the init to C * B):
//
//   1. the scan of each row (a window of B),
//   2. the last element of each row (the first for a suffix scan): the row
//      totals, C of them,
//   3. the exclusive scan of the totals (a window of C; rewritten the same
//      way again when C > B),
//   4. the row scans combined with their row's exclusive total by the
//      reducer, reshaped back, transposed back and sliced to N (padded by
//      one init element for an exclusive scan, whose window is padded by N).
//
// The scan dimension is swapped with the last one first. The init value
// enters each tree level once, so the rewrite needs one that folding in
// again changes nothing: the reducer is one binary op of its parameters,
// and either the init is its identity (0 for add, 1 for multiply, ...) or
// the op is idempotent (minimum, maximum, and, or). XLA assumes this of
// every reducer; other reduce-windows are left alone here.
//
// A rank-1 reduce-window not rewritten so is computed on [N, 1] (its
// inputs reshaped, the window extended by a trivial dimension, the results
// reshaped back), as XLA does.
//
// Left alone: variadic scans, dynamic shapes, control edges, fused
// computations.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "ReductionUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

#include "llvm/Support/MathExtras.h"

#include <deque>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOREDUCEWINDOWREWRITER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// A reduce-window that is a scan along `dim`.
struct Scan {
  int64_t dim = 0, length = 0;
  bool forward = true, exclusive = false;
};
} // namespace

/// True if dimension `d` of `w` leaves the input alone.
static bool isTrivial(const WindowFields &w, int64_t d) {
  return w.size[d] == 1 && w.stride[d] == 1 && w.padLow[d] == 0 &&
         w.padHigh[d] == 0 && w.lhsDilate[d] == 1 && w.rhsDilate[d] == 1 &&
         w.reversal[d] == 0;
}

/// The scan `op` computes, if the tree rewrite takes it: one input longer
/// than `baseLength` along the scan dimension, and a reducer the rewrite
/// may fold the init into more than once.
static std::optional<Scan> matchScan(ReduceWindowOp op, int64_t baseLength,
                                     SymbolTable &symbols) {
  if (op.getInputs().size() != 2)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(op.getInputs()[0].getType());
  if (!type || !type.hasStaticShape() || type.getRank() == 0 ||
      type.getElementType() != tensorType(op.getResult()).getElementType())
    return std::nullopt;
  WindowFields w(op.getWindowAttr(), type.getRank());
  std::optional<int64_t> dim;
  for (int64_t d = 0, e = type.getRank(); d < e; ++d) {
    if (isTrivial(w, d))
      continue;
    if (dim)
      return std::nullopt;
    dim = d;
  }
  if (!dim)
    return std::nullopt;
  Scan scan;
  scan.dim = *dim;
  scan.length = type.getDimSize(*dim);
  int64_t n = scan.length, low = w.padLow[*dim], high = w.padHigh[*dim];
  if (n <= baseLength || w.size[*dim] != n || w.stride[*dim] != 1 ||
      w.lhsDilate[*dim] != 1 || w.rhsDilate[*dim] != 1 || w.reversal[*dim] != 0)
    return std::nullopt;
  if ((low == n - 1 || low == n) && high == 0) {
    scan.forward = true;
    scan.exclusive = low == n;
  } else if ((high == n - 1 || high == n) && low == 0) {
    scan.forward = false;
    scan.exclusive = high == n;
  } else {
    return std::nullopt;
  }
  Operation *reducer =
      reducerOp(symbols.lookup<ComputationOp>(op.getToApplyAttr().getAttr()));
  if (!reducer || (!isa<MinOp, MaxOp, AndOp, OrOp>(reducer) &&
                   !isIdentityOf(reducer, op.getInputs()[1])))
    return std::nullopt;
  return scan;
}

/// A window over `rank` dimensions, trivial but in `dim` (size `size`,
/// padded by `pad` on the low side, or the high one when !`low`).
static WindowAttr scanWindow(MLIRContext *ctx, int64_t rank, int64_t dim,
                             int64_t size, int64_t pad, bool low) {
  WindowFields w(WindowAttr(), rank);
  w.size[dim] = size;
  (low ? w.padLow : w.padHigh)[dim] = pad;
  return w.toAttr(ctx);
}

namespace {
struct ReduceWindowRewriterPass
    : ChangeReportingPass<ReduceWindowRewriterPass,
                          hlo::impl::HloReduceWindowRewriterBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    // As XLA: a base length of 1 or less would never shorten a scan.
    if (baseLength <= 1)
      return;
    SymbolTable symbols(getOperation());
    std::deque<ReduceWindowOp> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](ReduceWindowOp op) { worklist.push_back(op); });
    while (!worklist.empty()) {
      ReduceWindowOp op = worklist.front();
      worklist.pop_front();
      if (hasControlEdges(op))
        continue;
      if (std::optional<Scan> scan = matchScan(op, baseLength, symbols)) {
        rewriteScan(op, *scan, symbols, worklist);
        ++numScans;
        changed = true;
      } else if (reshapeRank1(op)) {
        ++numRank1;
        changed = true;
      }
    }
  }

  /// A reduce-window of `input` with `init`, `op`'s reducer and `window`.
  static Value reduceWindow(InstBuilder &ib, ReduceWindowOp op, Value input,
                            Value init, ArrayRef<int64_t> shape,
                            WindowAttr window) {
    OpBuilder &b = ib.getBuilder();
    return ib.create<ReduceWindowOp>(
        RankedTensorType::get(shape, tensorType(input).getElementType()),
        {input, init},
        {b.getNamedAttr("window", window),
         b.getNamedAttr("to_apply", op.getToApplyAttr())});
  }

  static Value slice(InstBuilder &ib, Value v, int64_t dim, int64_t start,
                     int64_t limit) {
    RankedTensorType type = tensorType(v);
    SmallVector<int64_t> starts(type.getRank(), 0), limits(type.getShape()),
        strides(type.getRank(), 1);
    starts[dim] = start;
    limits[dim] = limit;
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] = limit - start;
    OpBuilder &b = ib.getBuilder();
    return ib.create<SliceOp>(
        RankedTensorType::get(shape, type.getElementType()), v,
        {b.getNamedAttr(
            "slice", SliceAttr::get(b.getContext(), starts, limits, strides))});
  }

  static Value pad(InstBuilder &ib, Value v, Value init, int64_t dim,
                   int64_t low, int64_t high) {
    RankedTensorType type = tensorType(v);
    SmallVector<int64_t> lows(type.getRank(), 0), highs(type.getRank(), 0),
        interior(type.getRank(), 0), shape(type.getShape());
    lows[dim] = low;
    highs[dim] = high;
    shape[dim] += low + high;
    OpBuilder &b = ib.getBuilder();
    return ib.create<PadOp>(
        RankedTensorType::get(shape, type.getElementType()), {v, init},
        {b.getNamedAttr("padding", PaddingAttr::get(b.getContext(), lows, highs,
                                                    interior))});
  }

  /// Replaces `op` by the tree of step 1-4 (file comment); the exclusive
  /// scan of the row totals joins `worklist`.
  void rewriteScan(ReduceWindowOp op, const Scan &scan, SymbolTable &symbols,
                   std::deque<ReduceWindowOp> &worklist) {
    OpBuilder b(op);
    InstBuilder ib(b, derivedLoc(op.getLoc()));
    MLIRContext *ctx = op.getContext();
    Value input = op.getInputs()[0], init = op.getInputs()[1];
    int64_t rank = tensorType(input).getRank(), last = rank - 1;
    int64_t base = baseLength, n = scan.length;

    // The scan dimension last, padded to C rows of B.
    SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    std::swap(perm[scan.dim], perm[last]);
    Value x = ib.transpose(input, perm);
    int64_t padded = llvm::alignTo(n, base), rows = padded / base;
    if (padded != n)
      x = pad(ib, x, init, last, 0, padded - n);
    SmallVector<int64_t> tiled(tensorType(x).getShape());
    tiled.back() = rows;
    tiled.push_back(base);
    x = ib.reshape(x, tiled);

    // 1. Each row's scan; 2. its total.
    Value rowScans = reduceWindow(
        ib, op, x, init, tiled,
        scanWindow(ctx, rank + 1, rank, base, base - 1, scan.forward));
    Value totals = slice(ib, rowScans, rank, scan.forward ? base - 1 : 0,
                         scan.forward ? base : 1);
    SmallVector<int64_t> totalsShape(tiled.begin(), tiled.end() - 1);
    totals = ib.reshape(totals, totalsShape);

    // 3. The exclusive scan of the totals.
    SmallVector<int64_t> exclusiveShape(totalsShape);
    exclusiveShape.back() = rows + 1;
    Value exclusive =
        reduceWindow(ib, op, totals, init, exclusiveShape,
                     scanWindow(ctx, rank, last, rows, rows, scan.forward));
    worklist.push_back(exclusive.getDefiningOp<ReduceWindowOp>());
    exclusive = slice(ib, exclusive, last, scan.forward ? 0 : 1,
                      scan.forward ? rows : rows + 1);

    // 4. Combined, and back to the shape of the input.
    auto tiledType = cast<RankedTensorType>(rowScans.getType());
    Value spread = ib.create<BroadcastOp>(
        tiledType, exclusive,
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(llvm::to_vector(
                                          llvm::seq<int64_t>(0, rank))))});
    Operation *reducer =
        reducerOp(symbols.lookup<ComputationOp>(op.getToApplyAttr().getAttr()));
    Value y =
        createInstruction(b, ib.getLoc(), reducer->getName().getStringRef(),
                          tiledType, {rowScans, spread})
            ->getResult(0);
    SmallVector<int64_t> flat(tiled.begin(), tiled.end() - 1);
    flat.back() = padded;
    y = ib.transpose(ib.reshape(y, flat), perm);
    if (padded != n)
      y = slice(ib, y, scan.dim, 0, n);
    if (scan.exclusive)
      y = pad(ib, y, init, scan.dim, scan.forward ? 1 : 0,
              scan.forward ? 0 : 1);
    y.setType(op.getType());
    replaceByNamed(op, y);
  }

  /// XLA's rank-1 rewrite: `op` computed on [N, 1]. True if it was.
  static bool reshapeRank1(ReduceWindowOp op) {
    size_t numArrays = op.getInputs().size() / 2;
    auto type = dyn_cast<RankedTensorType>(op.getInputs()[0].getType());
    if (!type || type.getRank() != 1 || !type.hasStaticShape())
      return false;
    OpBuilder b(op);
    InstBuilder ib(b, derivedLoc(op.getLoc()));
    SmallVector<Value> inputs;
    for (Value input : op.getInputs().take_front(numArrays))
      inputs.push_back(ib.reshape(input, {type.getDimSize(0), 1}));
    llvm::append_range(inputs, op.getInputs().drop_front(numArrays));
    SmallVector<Type> resultTypes, wideTypes;
    if (auto tuple = dyn_cast<TupleType>(op.getType()))
      llvm::append_range(resultTypes, tuple.getTypes());
    else
      resultTypes.push_back(op.getType());
    for (Type t : resultTypes) {
      auto array = cast<RankedTensorType>(t);
      wideTypes.push_back(RankedTensorType::get({array.getDimSize(0), 1},
                                                array.getElementType()));
    }
    // The window's fields for a second dimension are the defaults.
    WindowFields wide(op.getWindowAttr(), 2);
    Type wideType = numArrays == 1
                        ? wideTypes[0]
                        : Type(TupleType::get(op.getContext(), wideTypes));
    Value rw = ib.create<ReduceWindowOp>(
        wideType, inputs,
        {b.getNamedAttr("window", wide.toAttr(op.getContext())),
         b.getNamedAttr("to_apply", op.getToApplyAttr())});
    SmallVector<Value> results;
    for (auto [i, t] : llvm::enumerate(resultTypes)) {
      Value r = numArrays == 1 ? rw : ib.getTupleElement(rw, i);
      Value narrow = ib.reshape(r, cast<RankedTensorType>(t).getShape());
      narrow.setType(t);
      results.push_back(narrow);
    }
    replaceByNamed(op, numArrays == 1 ? results[0] : ib.tuple(results));
    return true;
  }
};
} // namespace
