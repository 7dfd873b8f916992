//===- TopkRewriter.cpp - sorts whose first k elements are read to TopK ---===//
//
// XLA's TopkRewriter (run by XLA's GPU compiler before SPMD partitioning,
// on every sort it matches): a sort of f32 or bf16 values x (alone, or with
// an s32 iota along the sort dimension) by "greater than" whose every result
// is read only by slices of its first k elements along the sort dimension
// becomes
//   topk = (T[batch, k], s32[batch, k]) custom-call(x'),
//          custom_call_target="TopK", called_computations={comparator}
// where x' is x as [batch, n], n the sorted dimension (a reshape when x has
// more than two dimensions, a transpose when the sort dimension is the
// first), and the slices read the tuple's elements (transposed and reshaped
// back). The comparators taken are XLA's NaN-safe "greater than" forms: the
// parameters compared directly (f32, bf16, s32, u32; also under
// `select(true, gt, true)` with index parameters), or their total-order
// integer keys (`select(bits < 0, bits ^ 0x7fffffff, bits)` of the float's
// bits, or its older `INT_MAX - bits` form, after a bf16 -> f32 convert or
// on the bf16's 16 bits). hlo-topk-specializer turns the custom call into
// XLA-GPU's top-k kernel where that applies; hlo-topk-decomposer turns the
// others back into a sort. Each sort is matched by its users: linear.
//
//===----------------------------------------------------------------------===//

#include "CudnnUtils.h"
#include "ExpanderUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOTOPKREWRITER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

Type elementOf(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t ? t.getElementType() : Type();
}

/// The integer value of a scalar constant (through scalar broadcasts).
std::optional<APInt> constantInt(Value v) {
  if (auto b = v.getDefiningOp<BroadcastOp>())
    v = getDataOperands(b)[0];
  auto c = v.getDefiningOp<ConstantOp>();
  auto literal = c ? dyn_cast<DenseIntElementsAttr>(c.getValue()) : nullptr;
  if (!literal || literal.getNumElements() != 1)
    return std::nullopt;
  return *literal.value_begin<APInt>();
}

bool isConstantTrue(Value v) {
  std::optional<APInt> c = constantInt(v);
  return c && c->getBitWidth() == 1 && c->isOne();
}

/// Whether `v` is parameter `n` of the comparator `body`.
bool isParameter(Value v, Block &body, unsigned n) {
  return n < body.getNumArguments() && v == body.getArgument(n);
}

/// Whether `v` is the float parameter `n` as its bits (a bitcast-convert to
/// an integer of its width): of an f32 or bf16 parameter, or of a bf16
/// parameter converted to f32.
bool isBitsOfParameter(Value v, Block &body, unsigned n) {
  auto bits = v.getDefiningOp<BitcastConvertOp>();
  if (!bits || !isa<IntegerType>(elementOf(v)))
    return false;
  Value x = getDataOperands(bits)[0];
  if (auto convert = x.getDefiningOp<ConvertOp>()) {
    Value p = getDataOperands(convert)[0];
    return elementOf(x).isF32() && elementOf(p).isBF16() &&
           isParameter(p, body, n);
  }
  return (elementOf(x).isF32() || elementOf(x).isBF16()) &&
         isParameter(x, body, n);
}

/// Whether `v` is XLA's total-order key of float parameter `n`:
/// `select(bits < 0, flipped, bits)`, flipped being `bits ^ mask` (either
/// order) or `bitcast-convert(mask - unsigned bits)`, mask all bits but the
/// sign's.
bool isTotalOrderKey(Value v, Block &body, unsigned n) {
  auto select = v.getDefiningOp<SelectOp>();
  if (!select)
    return false;
  auto ops = getDataOperands(select);
  auto negative = ops[0].getDefiningOp<CompareOp>();
  if (!negative || negative.getDirection() != ComparisonDirection::LT ||
      !isBitsOfParameter(getDataOperands(negative)[0], body, n))
    return false;
  std::optional<APInt> zero = constantInt(getDataOperands(negative)[1]);
  if (!zero || !zero->isZero() || !isBitsOfParameter(ops[2], body, n))
    return false;
  unsigned width = elementOf(ops[2]).getIntOrFloatBitWidth();
  auto isMask = [&](Value m) {
    if (auto convert = m.getDefiningOp<ConvertOp>())
      m = getDataOperands(convert)[0];
    std::optional<APInt> c = constantInt(m);
    return c && c->getBitWidth() == width && c->isMaxSignedValue();
  };
  Value flipped = ops[1];
  if (auto x = flipped.getDefiningOp<XorOp>()) {
    auto xs = getDataOperands(x);
    return (isMask(xs[1]) && isBitsOfParameter(xs[0], body, n)) ||
           (isMask(xs[0]) && isBitsOfParameter(xs[1], body, n));
  }
  auto back = flipped.getDefiningOp<BitcastConvertOp>();
  auto sub = back ? getDataOperands(back)[0].getDefiningOp<SubtractOp>()
                  : SubtractOp();
  return sub && elementOf(sub.getResult()).isUnsignedInteger() &&
         isMask(getDataOperands(sub)[0]) &&
         isBitsOfParameter(getDataOperands(sub)[1], body, n);
}

/// XLA's IsNanSafeGt: whether the comparator says "lhs value greater".
bool isNanSafeGreater(ComputationOp comparator) {
  if (!comparator || comparator.getBody().empty())
    return false;
  Block &body = comparator.getBody().front();
  auto isGreater = [&](Value v, bool direct) {
    auto gt = v.getDefiningOp<CompareOp>();
    if (!gt || gt.getDirection() != ComparisonDirection::GT)
      return false;
    Value l = getDataOperands(gt)[0], r = getDataOperands(gt)[1];
    if (isParameter(l, body, 0) && isParameter(r, body, 1)) {
      Type t = elementOf(l);
      return t.isF32() || t.isBF16() || t.isInteger(32);
    }
    return !direct && isTotalOrderKey(l, body, 0) &&
           isTotalOrderKey(r, body, 1);
  };
  Value root = comparator.getRootValue();
  if (isGreater(root, /*direct=*/false))
    return true;
  // `select(true, gt, true)` with (value, value, index, index) parameters.
  auto select = root.getDefiningOp<SelectOp>();
  if (!select || body.getNumArguments() != 4 ||
      !elementOf(body.getArgument(2)).isInteger(32))
    return false;
  auto ops = getDataOperands(select);
  return isConstantTrue(ops[0]) && isConstantTrue(ops[2]) &&
         isGreater(ops[1], /*direct=*/true);
}

struct TopkRewriterPass
    : ChangeReportingPass<TopkRewriterPass, hlo::impl::HloTopkRewriterBase> {
  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (SortOp sort : nonFusionOpsWithoutControlEdges<SortOp>(module))
      rewrite(sort, symbols);
  }

  /// The slices reading the first k elements of every result of `sort`
  /// along `dim`, each with the result it reads (0: values, 1: indices);
  /// k, or nullopt when some user is not such a slice.
  std::optional<int64_t>
  matchSlices(SortOp sort, int64_t dim,
              SmallVectorImpl<std::pair<SliceOp, unsigned>> &slices) {
    bool variadic = sort.getInputs().size() == 2;
    std::optional<int64_t> k;
    for (Operation *user : sort->getUsers()) {
      Operation *sliceUser = user;
      unsigned result = 0;
      if (variadic) {
        auto gte = dyn_cast<GetTupleElementOp>(user);
        if (!gte || !gte->hasOneUse() || hasControlEdges(gte))
          return std::nullopt;
        result = gte.getIndex();
        sliceUser = *gte->getUsers().begin();
      }
      auto slice = dyn_cast<SliceOp>(sliceUser);
      if (!slice || hasControlEdges(slice))
        return std::nullopt;
      SliceAttr s = slice.getSlice();
      ArrayRef<int64_t> shape =
          cast<RankedTensorType>(getDataOperands(slice)[0].getType())
              .getShape();
      for (int64_t d = 0, e = shape.size(); d < e; ++d)
        if (s.getStarts()[d] != 0 || s.getStrides()[d] != 1 ||
            (d != dim && s.getLimits()[d] != shape[d]))
          return std::nullopt;
      int64_t limit = s.getLimits()[dim];
      if (k && *k != limit)
        return std::nullopt;
      k = limit;
      slices.push_back({slice, result});
    }
    return k;
  }

  void rewrite(SortOp sort, SymbolTable &symbols) {
    ValueRange inputs = sort.getInputs();
    if (inputs.size() != 1 && inputs.size() != 2)
      return;
    Value x = inputs[0];
    auto type = dyn_cast<RankedTensorType>(x.getType());
    if (!type || !type.hasStaticShape() ||
        !(type.getElementType().isF32() || type.getElementType().isBF16()) ||
        sort.getDimensions().size() != 1)
      return;
    int64_t rank = type.getRank(), dim = sort.getDimensions()[0];
    if (inputs.size() == 2 && !isIotaAlong(inputs[1], type.getShape(), dim))
      return;
    auto comparator = symbols.lookup<ComputationOp>(sort.getToApply());
    if (!isNanSafeGreater(comparator))
      return;
    // The sort dimension must be the first or the last.
    if (dim != 0 && dim != rank - 1)
      return;
    SmallVector<std::pair<SliceOp, unsigned>> slices;
    std::optional<int64_t> k = matchSlices(sort, dim, slices);
    if (!k)
      return;

    MLIRContext *ctx = &getContext();
    OpBuilder b(sort);
    Location loc = sort.getLoc();
    Type element = type.getElementType(), s32 = IntegerType::get(ctx, 32);
    auto arrayType = [&](ArrayRef<int64_t> shape, Type t) {
      return rowMajorTypeLike(type, shape, t);
    };
    int64_t n = type.getDimSize(dim);
    if (n == 0)
      return;
    int64_t batch = type.getNumElements() / n;
    ExpansionBuilder eb(b, derivedLoc(loc));
    auto transpose = [&](Value v, Type t) {
      return eb.create(
          TransposeOp::getOperationName(), t, {v},
          {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({1, 0}))});
    };
    // x as [batch, n].
    Value input = x;
    if (rank > 2)
      input = eb.create(ReshapeOp::getOperationName(),
                        arrayType(dim == 0 ? SmallVector<int64_t>{n, batch}
                                           : SmallVector<int64_t>{batch, n},
                                  element),
                        {input});
    if (rank >= 2 && dim == 0)
      input = transpose(input, arrayType({batch, n}, element));
    // The slices' types are the results' (the call's own where no
    // transpose or reshape follows it).
    Type sliced[2] = {};
    for (auto [slice, result] : slices)
      if (!sliced[result])
        sliced[result] = slice.getType();
    bool direct = rank == 1 || (rank == 2 && dim == 1);
    SmallVector<int64_t> outShape =
        rank >= 2 ? SmallVector<int64_t>{batch, *k} : SmallVector<int64_t>{*k};
    Type tuple = TupleType::get(
        ctx, {direct && sliced[0] ? sliced[0] : arrayType(outShape, element),
              direct && sliced[1] ? sliced[1] : arrayType(outShape, s32)});
    // XLA names the call `custom-call`; it keeps the sort's metadata.
    Operation *topk = createInstruction(
        b, NameLoc::get(b.getStringAttr("custom-call"), derivedLoc(loc)),
        CustomCallOp::getOperationName(), tuple, {input},
        {b.getNamedAttr("custom_call_target", b.getStringAttr("TopK")),
         b.getNamedAttr("called_computations",
                        b.getArrayAttr({FlatSymbolRefAttr::get(
                            comparator.getSymNameAttr())}))});
    // Each result read back in the slices' shape.
    Value results[2];
    for (unsigned i = 0; i < 2; ++i) {
      if (llvm::none_of(slices, [&](auto s) { return s.second == i; }))
        continue;
      Value v = createGte(b, derivedLoc(loc), topk->getResult(0), i);
      if (rank >= 2 && dim == 0)
        v = transpose(v, rank == 2 ? sliced[i]
                                   : arrayType({*k, batch}, i ? s32 : element));
      if (rank > 2)
        v = eb.create(ReshapeOp::getOperationName(), sliced[i], {v});
      results[i] = v;
    }
    for (auto [slice, result] : slices) {
      Value v = results[result];
      if (v.getType() != slice.getType())
        v = eb.create(CopyOp::getOperationName(), slice.getType(), {v});
      slice.getResult().replaceAllUsesWith(v);
    }
    for (auto [slice, result] : slices) {
      Operation *gte = getDataOperands(slice)[0].getDefiningOp();
      slice->erase();
      if (gte != sort && gte->use_empty())
        gte->erase();
    }
    if (sort->use_empty())
      eraseWithDeadOperands(sort);
    ++numRewritten;
    changed = true;
  }
};

} // namespace
