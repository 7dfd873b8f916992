//===- Reduce.cpp - reductions, windows and sorting -----------------------===//
//
// reduce (variadic; each output element folds its inputs in row-major
// order of the reduced dimensions, starting from the init values; float
// reductions of more than 16 elements fold in a tree, see TreeReduce),
// reduce-window (variadic; window strides, padding, base and window
// dilation; positions in the padding or in the holes of the base dilation
// are skipped, as XLA's evaluator does), select-and-scatter (the first
// element of each window that `select` prefers; padding skipped), sort
// (variadic, with the comparator; a stable merge sort, which is also a
// valid unstable sort) and topk (largest or smallest along the last
// dimension; ties keep the lower index, floats in total order).
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "Hlo/Dialect/Hlo/HloCubSortCalls.h"
#include "Hlo/Dialect/Hlo/HloTopKCalls.h"
#include "Hlo/Dialect/Hlo/HloTransformerEngineCalls.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;

/// The N results of a variadic op: arrays of the result type's elements.
static FailureOr<std::vector<Literal>> makeResults(Interp &interp,
                                                   Operation *op) {
  std::vector<Literal> results;
  Type type = op->getResult(0).getType();
  SmallVector<Type> types;
  if (auto tt = dyn_cast<TupleType>(type))
    types.assign(tt.getTypes().begin(), tt.getTypes().end());
  else
    types.push_back(type);
  for (Type t : types) {
    auto shape = getStaticShape(t);
    if (!shape)
      return FailureOr<std::vector<Literal>>(
          interp.fail(op, "results must be arrays with static shapes"));
    results.push_back(
        Literal::array(cast<RankedTensorType>(t).getElementType(), *shape));
  }
  return results;
}

static Literal packResults(std::vector<Literal> results) {
  if (results.size() == 1)
    return std::move(results[0]);
  return Literal::tuple(std::move(results));
}

namespace {
/// Folds the reduced elements of one output element of a reduce in a tree:
/// runs of up to kLeaf elements are folded in row-major order from the init
/// values, and two halves are combined by the reducer. HLO leaves the order
/// unspecified (the init value must be an identity of the reducer); a tree
/// keeps float sums accurate. A reducer computing in a float type narrower
/// than f32 computes in f32 and the result is rounded once, as XLA's CPU
/// backend does (a sequential f16 sum stalls once it outgrows the addends).
class TreeReduce {
public:
  static constexpr int64_t kLeaf = 16;

  /// Fails when the reducer cannot be found.
  LogicalResult init(Interp &interp, ReduceOp op, Operands inputs,
                     Operands inits, int64_t count) {
    auto reducer = ScalarFunction::get(interp, op, op.getToApply(),
                                       /*widen=*/true);
    if (failed(reducer))
      return failure();
    f = std::move(*reducer);
    this->inits = inits;
    int64_t depth = 2;
    for (int64_t n = count; n > kLeaf; n = (n + 1) / 2)
      ++depth;
    Type f32 = Float32Type::get(op.getContext());
    for (const Literal *in : inputs)
      partials.push_back(
          Literal::array(f.isWidened() ? f32 : in->getElementType(), {depth}));
    for (Literal &p : partials)
      partialArgs.push_back(&p);
    leafFold.emplace(f, partials, inputs);
    mergeFold.emplace(f, partials, partialArgs);
    return success();
  }

  /// Folds the input elements base + offsets[0..offsets.size()) into element
  /// `at` of `results`.
  LogicalResult run(MutableArrayRef<Literal> results, int64_t at, int64_t base,
                    ArrayRef<int64_t> offsets) {
    if (failed(fold(0, base, offsets)))
      return failure();
    for (auto [r, p] : llvm::zip(results, partials))
      convertElement(p, 0, r, at);
    return success();
  }

private:
  LogicalResult fold(int64_t slot, int64_t base, ArrayRef<int64_t> offsets) {
    if (static_cast<int64_t>(offsets.size()) <= kLeaf) {
      for (auto [p, init] : llvm::zip(partials, inits))
        convertElement(*init, 0, p, slot);
      for (int64_t offset : offsets)
        if (failed((*leafFold)(slot, base + offset)))
          return failure();
      return success();
    }
    size_t half = offsets.size() / 2;
    if (failed(fold(slot, base, offsets.take_front(half))) ||
        failed(fold(slot + 1, base, offsets.drop_front(half))))
      return failure();
    return (*mergeFold)(slot, slot + 1);
  }

  ScalarFunction f;
  Operands inits;
  std::vector<Literal> partials;
  SmallVector<const Literal *> partialArgs;
  std::optional<Fold> leafFold, mergeFold;
};
} // namespace

/// The function of a reducer `ROOT op(p0, p1)` (or `op(p1, p0)`) with op
/// add, multiply, maximum or minimum, on doubles; null for any other body.
static double (*binaryReducer(ComputationOp comp))(double, double) {
  Block &body = comp.getBody().front();
  if (body.getNumArguments() != 2 ||
      !llvm::hasSingleElement(body.without_terminator()))
    return nullptr;
  Operation &op = body.front();
  if (op.getNumOperands() != 2 || op.getNumResults() != 1 ||
      body.getTerminator()->getOperand(0) != op.getResult(0) ||
      !llvm::is_contained(op.getOperands(), body.getArgument(0)) ||
      !llvm::is_contained(op.getOperands(), body.getArgument(1)))
    return nullptr;
  return llvm::TypeSwitch<Operation *, double (*)(double, double)>(&op)
      .Case([](AddOp) { return [](double a, double b) { return a + b; }; })
      .Case([](MulOp) { return [](double a, double b) { return a * b; }; })
      .Case([](MaxOp) { return &floatMax; })
      .Case([](MinOp) { return &floatMin; })
      .Default([](Operation *) { return nullptr; });
}

/// A reduce of one f32 or f64 array by add, multiply, maximum or minimum:
/// the same fold order as the general path (row-major runs of up to
/// TreeReduce::kLeaf elements, halves combined), every step rounded to the
/// element type, without calling the reducer per element.
static void reduceFloats(Interp &interp, double (*f)(double, double),
                         const Literal &in, double init, Literal &out,
                         ArrayRef<int64_t> kept, ArrayRef<int64_t> strides,
                         ArrayRef<int64_t> offsets) {
  bool f32 = in.getElementType().isF32();
  auto step = [&](double a, double b) {
    double r = f(a, b);
    return f32 && !std::isnan(r) ? static_cast<double>(static_cast<float>(r))
                                 : r;
  };
  auto fold = [&](auto &self, int64_t base, ArrayRef<int64_t> part) -> double {
    if (static_cast<int64_t>(part.size()) <= TreeReduce::kLeaf) {
      double acc = init;
      for (int64_t offset : part)
        acc = step(acc, in.getFloat(base + offset));
      return acc;
    }
    size_t half = part.size() / 2;
    double lo = self(self, base, part.take_front(half));
    return step(lo, self(self, base, part.drop_front(half)));
  };
  ArrayRef<int64_t> outShape = out.getShape();
  parallelRows(
      interp, out.getNumElements(), static_cast<double>(in.getNumElements()),
      [&](int64_t first, int64_t last) {
        for (int64_t linear = first; linear < last; ++linear) {
          int64_t base = 0;
          int64_t rest = linear;
          for (int64_t k = static_cast<int64_t>(kept.size()) - 1; k >= 0; --k) {
            base += (rest % outShape[k]) * strides[kept[k]];
            rest /= outShape[k];
          }
          out.setFloat(linear, fold(fold, base, offsets));
        }
      });
}

static FailureOr<Literal> reduce(Interp &interp, ReduceOp op,
                                 Operands operands) {
  size_t n = operands.size() / 2;
  Operands inputs = operands.take_front(n), inits = operands.drop_front(n);
  auto results = makeResults(interp, op);
  auto f = ScalarFunction::get(interp, op, op.getToApply());
  if (failed(results) || failed(f))
    return failure();
  ArrayRef<int64_t> dims = op.getDimensions();
  const Literal &in0 = *inputs[0];
  SmallVector<int64_t> strides = stridesOf(in0.getShape());
  SmallVector<int64_t> kept, reducedShape;
  for (int64_t d = 0; d < in0.getRank(); ++d)
    if (!llvm::is_contained(dims, d))
      kept.push_back(d);
  for (int64_t d : dims)
    reducedShape.push_back(in0.getShape()[d]);
  // The reduced elements' offsets from the first one, in row-major order of
  // the reduced dimensions (in the order `dimensions` lists them).
  std::vector<int64_t> offsets(numElements(reducedShape));
  SmallVector<int64_t> w(reducedShape.size(), 0);
  for (int64_t i = 0, e = offsets.size(); i < e;
       ++i, nextIndex(w, reducedShape))
    for (auto [k, d] : llvm::enumerate(dims))
      offsets[i] += w[k] * strides[d];
  Type elt = in0.getElementType();
  if (n == 1 && (elt.isF32() || elt.isF64()) &&
      inits[0]->getElementType() == elt) {
    auto comp = interp.lookup(op, op.getToApply());
    if (failed(comp))
      return failure();
    if (auto fn = binaryReducer(*comp)) {
      reduceFloats(interp, fn, in0, inits[0]->getFloat(0), (*results)[0], kept,
                   strides, offsets);
      return packResults(std::move(*results));
    }
  }
  bool floats = llvm::any_of(*results, [](const Literal &r) {
    return r.getElementKind() == ElementKind::Float ||
           r.getElementKind() == ElementKind::Complex;
  });
  std::optional<TreeReduce> tree;
  if (floats && static_cast<int64_t>(offsets.size()) > TreeReduce::kLeaf &&
      failed(tree.emplace().init(interp, op, inputs, inits, offsets.size())))
    return failure();
  Fold fold(*f, *results, inputs);
  SmallVector<int64_t> o((*results)[0].getRank(), 0);
  for (int64_t linear = 0, e = (*results)[0].getNumElements(); linear < e;
       ++linear, nextIndex(o, (*results)[0].getShape())) {
    int64_t base = 0;
    for (auto [k, d] : llvm::enumerate(kept))
      base += o[k] * strides[d];
    if (tree) {
      if (failed(tree->run(*results, linear, base, offsets)))
        return failure();
      continue;
    }
    for (size_t k = 0; k < n; ++k)
      (*results)[k].copyElement(linear, *inits[k], 0);
    for (int64_t offset : offsets)
      if (failed(fold(linear, base + offset)))
        return failure();
  }
  return packResults(std::move(*results));
}

namespace {
/// A window's geometry with defaults filled in.
struct Window {
  SmallVector<int64_t> size, stride, padLow, lhsDilate, rhsDilate;

  explicit Window(WindowAttr w, int64_t rank) {
    for (int64_t d = 0; d < rank; ++d) {
      size.push_back(w ? attrAt(w.getSize(), d, 1) : 1);
      stride.push_back(w ? attrAt(w.getStride(), d, 1) : 1);
      padLow.push_back(w ? attrAt(w.getPadLow(), d, 0) : 0);
      lhsDilate.push_back(w ? attrAt(w.getLhsDilate(), d, 1) : 1);
      rhsDilate.push_back(w ? attrAt(w.getRhsDilate(), d, 1) : 1);
    }
  }

  /// The input index under output index `o` and window index `w`; false
  /// when it falls in the padding or in a hole of the base dilation.
  bool inputIndex(ArrayRef<int64_t> o, ArrayRef<int64_t> w,
                  ArrayRef<int64_t> inShape, SmallVector<int64_t> &in) const {
    for (size_t d = 0; d < o.size(); ++d) {
      int64_t p = o[d] * stride[d] + w[d] * rhsDilate[d] - padLow[d];
      if (p < 0 || p % lhsDilate[d] != 0)
        return false;
      in[d] = p / lhsDilate[d];
      if (in[d] >= inShape[d])
        return false;
    }
    return true;
  }
};
} // namespace

static FailureOr<Literal> reduceWindow(Interp &interp, ReduceWindowOp op,
                                       Operands operands) {
  size_t n = operands.size() / 2;
  Operands inputs = operands.take_front(n), inits = operands.drop_front(n);
  auto results = makeResults(interp, op);
  auto f = ScalarFunction::get(interp, op, op.getToApply());
  if (failed(results) || failed(f))
    return failure();
  const Literal &in0 = *inputs[0];
  Window window(op.getWindowAttr(), in0.getRank());
  Fold fold(*f, *results, inputs);
  Literal &out0 = (*results)[0];
  SmallVector<int64_t> o(out0.getRank(), 0), w(in0.getRank(), 0),
      src(in0.getRank(), 0);
  int64_t windowCount = numElements(window.size);
  for (int64_t linear = 0, e = out0.getNumElements(); linear < e;
       ++linear, nextIndex(o, out0.getShape())) {
    for (size_t k = 0; k < n; ++k)
      (*results)[k].copyElement(linear, *inits[k], 0);
    std::fill(w.begin(), w.end(), 0);
    for (int64_t i = 0; i < windowCount; ++i, nextIndex(w, window.size)) {
      if (!window.inputIndex(o, w, in0.getShape(), src))
        continue;
      if (failed(fold(linear, in0.linearize(src))))
        return failure();
    }
  }
  return packResults(std::move(*results));
}

static FailureOr<Literal>
selectAndScatter(Interp &interp, SelectAndScatterOp op, const Literal &operand,
                 const Literal &source, const Literal &init) {
  auto select = ScalarFunction::get(interp, op, op.getSelect());
  auto scatter = ScalarFunction::get(interp, op, op.getScatter());
  auto result = makeResult(interp, op);
  if (failed(select) || failed(scatter) || failed(result))
    return failure();
  Literal &out = *result;
  for (int64_t i = 0, e = out.getNumElements(); i < e; ++i)
    out.copyElement(i, init, 0);
  Window window(op.getWindowAttr(), operand.getRank());
  SmallVector<int64_t> s(source.getRank(), 0), w(operand.getRank(), 0),
      src(operand.getRank(), 0);
  int64_t windowCount = numElements(window.size);
  for (int64_t linear = 0, e = source.getNumElements(); linear < e;
       ++linear, nextIndex(s, source.getShape())) {
    int64_t selected = -1;
    std::fill(w.begin(), w.end(), 0);
    for (int64_t i = 0; i < windowCount; ++i, nextIndex(w, window.size)) {
      if (!window.inputIndex(s, w, operand.getShape(), src))
        continue;
      int64_t candidate = operand.linearize(src);
      if (selected < 0) {
        selected = candidate;
        continue;
      }
      const Literal *args[] = {&operand, &operand};
      int64_t idx[] = {selected, candidate};
      FailureOr<bool> keep = select->test(args, idx);
      if (failed(keep))
        return failure();
      if (!*keep)
        selected = candidate;
    }
    if (selected < 0)
      continue;
    const Literal *args[] = {&out, &source};
    int64_t idx[] = {selected, linear};
    Literal *outs[] = {&out};
    int64_t outIdx[] = {selected};
    if (failed(scatter->apply(args, idx, outs, outIdx)))
      return failure();
  }
  return std::move(out);
}

/// A stable merge sort of `order` by `less`, which may fail; never reads out
/// of bounds whatever `less` answers.
template <typename Less>
static LogicalResult mergeSort(SmallVectorImpl<int64_t> &order, Less less) {
  size_t n = order.size();
  SmallVector<int64_t> buffer(n);
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        FailureOr<bool> takeRight = less(order[j], order[i]);
        if (failed(takeRight))
          return failure();
        buffer[k++] = *takeRight ? order[j++] : order[i++];
      }
      while (i < mid)
        buffer[k++] = order[i++];
      while (j < hi)
        buffer[k++] = order[j++];
    }
    order.swap(buffer);
  }
  return success();
}

/// The keys of a comparator that compares its first two parameters alone
/// (`compare(p0, p1)` by LT or GT, either way round: jnp.sort's and
/// argsort's, XLA's top-k decompositions'), as `keys`' elements ordered by
/// their own comparison: key(a) < key(b) exactly where the comparator puts
/// a before b. Nothing for other comparators.
static std::optional<SmallVector<int64_t>> orderKeys(Interp &interp, SortOp op,
                                                     const Literal &keys) {
  FailureOr<ComputationOp> comp = interp.lookup(op, op.getToApply());
  if (failed(comp))
    return std::nullopt;
  Block &body = comp->getBody().front();
  auto cmp = dyn_cast<CompareOp>(&body.front());
  if (!cmp || cmp->getNextNode() != body.getTerminator() ||
      body.getTerminator()->getOperand(0) != cmp.getResult())
    return std::nullopt;
  auto a = dyn_cast<BlockArgument>(cmp.getLhs());
  auto b = dyn_cast<BlockArgument>(cmp.getRhs());
  if (!a || !b || a.getArgNumber() + b.getArgNumber() != 1)
    return std::nullopt;
  ComparisonDirection direction = cmp.getDirection();
  if (direction != ComparisonDirection::LT &&
      direction != ComparisonDirection::GT)
    return std::nullopt;
  // Whether a larger value comes first.
  bool descending =
      (direction == ComparisonDirection::GT) == (a.getArgNumber() == 0);
  ElementKind kind = keys.getElementKind();
  bool totalOrder = cmp.getComparisonType() == ComparisonType::TOTALORDER;
  // A float compare is a strict weak order only without NaNs; with NaNs
  // the comparator runs (its answers decide the merge sort's order).
  if (kind == ElementKind::Float && !totalOrder)
    for (int64_t i = 0, e = keys.getNumElements(); i < e; ++i)
      if (std::isnan(keys.getFloat(i)))
        return std::nullopt;
  if (kind != ElementKind::Float && kind != ElementKind::Signed &&
      kind != ElementKind::Unsigned)
    return std::nullopt;
  SmallVector<int64_t> order(keys.getNumElements());
  for (int64_t i = 0, e = order.size(); i < e; ++i) {
    int64_t k;
    // (A float compare ties -0 and +0.)
    double v = kind == ElementKind::Float ? keys.getFloat(i) : 0;
    if (kind == ElementKind::Float)
      k = totalOrderKey(!totalOrder && v == 0 ? 0.0 : v);
    else if (kind == ElementKind::Signed)
      k = keys.getInt(i);
    else // unsigned order as signed: flip the sign bit
      k = static_cast<int64_t>(static_cast<uint64_t>(keys.getInt(i)) ^
                               (uint64_t(1) << 63));
    // (~k = -k - 1 reverses the order without overflow.)
    order[i] = descending ? ~k : k;
  }
  return order;
}

static FailureOr<Literal> sort(Interp &interp, SortOp op, Operands operands) {
  auto comparator = ScalarFunction::get(interp, op, op.getToApply());
  if (failed(comparator))
    return failure();
  std::optional<SmallVector<int64_t>> keyOrder =
      orderKeys(interp, op, *operands[0]);
  std::vector<Literal> results;
  for (const Literal *in : operands)
    results.push_back(*in);
  const Literal &keys = *operands[0];
  int64_t dim = op.getDimensions()[0];
  size_t n = operands.size();
  SmallVector<const Literal *> args;
  for (const Literal *in : operands) {
    args.push_back(in);
    args.push_back(in);
  }
  SmallVector<int64_t> argIdx(2 * n);
  LogicalResult status = forEachLine(
      keys.getShape(), dim, [&](int64_t base, int64_t stride, int64_t len) {
        SmallVector<int64_t> order;
        for (int64_t i = 0; i < len; ++i)
          order.push_back(base + i * stride);
        auto less = [&](int64_t a, int64_t b) -> FailureOr<bool> {
          if (keyOrder)
            return (*keyOrder)[a] < (*keyOrder)[b];
          for (size_t k = 0; k < n; ++k) {
            argIdx[2 * k] = a;
            argIdx[2 * k + 1] = b;
          }
          return comparator->test(args, argIdx);
        };
        if (failed(mergeSort(order, less)))
          return failure();
        for (size_t k = 0; k < n; ++k)
          for (int64_t i = 0; i < len; ++i)
            results[k].copyElement(base + i * stride, *operands[k], order[i]);
        return success();
      });
  if (failed(status))
    return failure();
  return packResults(std::move(results));
}

/// The first k elements of each row (the last dimension) of `in` in a
/// stable sort by `before`, and their indices in the row, into `results`
/// (values, indices; rows of k). One pass over the row keeps the first k
/// seen so far in order: an element goes after those it is not before, so
/// that equal elements keep the row's order, and past the k-th it is
/// dropped. For a strict weak order that is the stable sort's prefix, at
/// about one comparison an element where k is small; a larger k (where the
/// insertions would cost k moves each) sorts the row.
static constexpr int64_t kMaxInsertedTopK = 128;

static FailureOr<Literal>
firstOfRows(const Literal &in, std::vector<Literal> results, int64_t k,
            function_ref<FailureOr<bool>(int64_t, int64_t)> before) {
  Literal &values = results[0], &indices = results[1];
  int64_t last = in.getRank() - 1, len = in.getShape()[last];
  int64_t row = 0;
  LogicalResult status =
      forEachLine(in.getShape(), last, [&](int64_t base, int64_t, int64_t) {
        SmallVector<int64_t> order;
        if (k > kMaxInsertedTopK) {
          for (int64_t i = 0; i < len; ++i)
            order.push_back(base + i);
          if (failed(mergeSort(order, before)))
            return failure();
        }
        for (int64_t i = base, e = base + len;
             i < e && k > 0 && k <= kMaxInsertedTopK; ++i) {
          // The first position whose element comes after i.
          size_t lo = 0, hi = order.size();
          if (hi == static_cast<size_t>(k)) {
            FailureOr<bool> kept = before(i, order.back());
            if (failed(kept))
              return failure();
            if (!*kept)
              continue;
            --hi;
          }
          while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            FailureOr<bool> after = before(i, order[mid]);
            if (failed(after))
              return failure();
            if (*after)
              hi = mid;
            else
              lo = mid + 1;
          }
          order.insert(order.begin() + lo, i);
          if (order.size() > static_cast<size_t>(k))
            order.pop_back();
        }
        for (int64_t i = 0; i < k && i < len; ++i) {
          values.copyElement(row * k + i, in, order[i]);
          indices.setInt(row * k + i, order[i] - base);
        }
        ++row;
        return success();
      });
  if (failed(status))
    return failure();
  return packResults(std::move(results));
}

static FailureOr<Literal> topK(Interp &interp, TopKOp op, const Literal &in) {
  auto results = makeResults(interp, op);
  if (failed(results) || results->size() != 2)
    return interp.error(op, "result must be a (values, indices) tuple");
  bool largest = op.getLargest().value_or(true);
  ElementKind kind = in.getElementKind();
  // a before b when a is larger (or smaller) in the key order.
  auto before = [&](int64_t a, int64_t b) -> FailureOr<bool> {
    bool greater;
    if (kind == ElementKind::Float)
      greater = totalOrderKey(in.getFloat(a)) > totalOrderKey(in.getFloat(b));
    else if (kind == ElementKind::Signed)
      greater = in.getInt(a) > in.getInt(b);
    else
      greater = static_cast<uint64_t>(in.getInt(a)) >
                static_cast<uint64_t>(in.getInt(b));
    if (largest)
      return greater;
    bool equal = kind == ElementKind::Float ? totalOrderKey(in.getFloat(a)) ==
                                                  totalOrderKey(in.getFloat(b))
                                            : in.getInt(a) == in.getInt(b);
    return !greater && !equal;
  };
  return firstOfRows(in, std::move(*results), op.getK(), before);
}

EvalResult eval::evalTransformerEngineCustomCall(Interp &interp,
                                                 CustomCallOp op,
                                                 Operands operands) {
  if (op.getCustomCallTarget() != kTeScaledSoftmaxForward)
    return std::nullopt;
  std::string why;
  FailureOr<TeScaledSoftmaxCall> call = readTeScaledSoftmaxCall(op, why);
  if (failed(call))
    return interp.error(op, kTeScaledSoftmaxForward + (": " + why));
  const Literal &in = *operands[0];
  FailureOr<Literal> result = makeResult(interp, op);
  if (failed(result))
    return failure();
  auto scale = static_cast<float>(call->scale);
  int64_t k = in.getShape().back();
  std::vector<float> row(k);
  for (int64_t at = 0, n = in.getNumElements(); at < n; at += k) {
    float max = -std::numeric_limits<float>::infinity(), sum = 0;
    for (int64_t j = 0; j < k; ++j) {
      row[j] = static_cast<float>(in.getFloat(at + j)) * scale;
      max = std::max(max, row[j]);
    }
    for (int64_t j = 0; j < k; ++j)
      sum += row[j] = std::exp(row[j] - max);
    for (int64_t j = 0; j < k; ++j)
      result->setFloat(at + j, row[j] / sum);
  }
  return std::move(*result);
}

EvalResult eval::evalTopKCustomCall(Interp &interp, CustomCallOp op,
                                    Operands operands) {
  StringRef target = op.getCustomCallTarget();
  if (!isTopKTarget(target))
    return std::nullopt;
  std::string why;
  FailureOr<TopKCall> call = readTopKCall(op, why);
  if (failed(call))
    return interp.error(op, target.str() + " " + why);
  const Literal &in = *operands[0];
  auto results = makeResults(interp, op);
  if (failed(results))
    return failure();
  int64_t len = call->n;
  StringRef callee = call->comparator.getValue();
  FailureOr<ComputationOp> comp = interp.lookup(op, callee);
  if (failed(comp))
    return failure();
  // The comparator takes (value, value) or (value, value, index, index).
  unsigned numParams = comp->getNumArguments();
  if (numParams != 2 && numParams != 4)
    return interp.error(op, target.str() +
                                ": the comparator must take two values, or "
                                "two values and two indices");
  auto comparator = ScalarFunction::get(interp, op, callee);
  if (failed(comparator))
    return failure();
  Literal iota =
      Literal::array(IntegerType::get(op.getContext(), 32), in.getShape());
  for (int64_t i = 0, e = iota.getNumElements(); i < e; ++i)
    iota.setInt(i, i % len);
  SmallVector<const Literal *> args = {&in, &in, &iota, &iota};
  return firstOfRows(
      in, std::move(*results), call->k, [&](int64_t a, int64_t b) {
        int64_t idx[] = {a, b, a, b};
        return comparator->test(ArrayRef(args).take_front(numParams),
                                ArrayRef(idx).take_front(numParams));
      });
}

EvalResult eval::evalCubSortCustomCall(Interp &interp, CustomCallOp op,
                                       Operands operands) {
  StringRef target = op.getCustomCallTarget();
  if (!isCubSortTarget(target))
    return std::nullopt;
  std::string why;
  FailureOr<CubSortCall> call = readCubSortCall(op, why);
  if (failed(call))
    return interp.error(op, target.str() + " " + why);
  auto results = makeResults(interp, op);
  if (failed(results))
    return failure();
  const Literal &keys = *operands[0];
  Type keyType = call->keys.getElementType();
  int64_t n = call->n;
  SmallVector<uint64_t> radix(n);
  SmallVector<int64_t> order(n);
  for (int64_t row = 0; row < call->rows; ++row) {
    int64_t base = row * n;
    for (int64_t i = 0; i < n; ++i) {
      radix[i] = cubRadixKey(keyType, keys.getBits(base + i).getZExtValue());
      order[i] = i;
    }
    // CUB's radix sorts are stable both ways.
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return call->descending ? radix[a] > radix[b] : radix[a] < radix[b];
    });
    for (unsigned arg = 0; arg < operands.size(); ++arg)
      for (int64_t i = 0; i < n; ++i)
        (*results)[arg].copyElement(base + i, *operands[arg], base + order[i]);
  }
  return packResults(std::move(*results));
}

EvalResult eval::evalReduceOp(Interp &interp, Operation *op,
                              Operands operands) {
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case([&](ReduceOp r) { return reduce(interp, r, operands); })
      .Case([&](ReduceWindowOp r) { return reduceWindow(interp, r, operands); })
      .Case([&](SelectAndScatterOp s) {
        return selectAndScatter(interp, s, *operands[0], *operands[1],
                                *operands[2]);
      })
      .Case([&](SortOp s) { return sort(interp, s, operands); })
      .Case([&](TopKOp t) { return topK(interp, t, *operands[0]); })
      .Default([](Operation *) -> EvalResult { return std::nullopt; });
}
