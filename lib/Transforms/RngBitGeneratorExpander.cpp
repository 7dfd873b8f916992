//===- RngBitGeneratorExpander.cpp - rng-bit-generator as HLO ops ---------===//
//
// XLA's RngBitGeneratorExpander: `rng-bit-generator(state)` becomes a call
// of a generated computation `(state) -> (new state, bits)` made of integer
// ops (iota, add, xor, shifts, multiply, converts, reshapes, concatenates),
// one per (algorithm, state type, result type). rng_default takes the
// `default-algorithm` option (philox, as XLA's GPU compiler).
//
// The bits are those of the reference interpreter (lib/Runtime/Interpreter/
// Rng.cpp, XLA's layout). The state is u64[N]; state[0] is the key.
// - three_fry (Threefry-2x32, 20 rounds): counter state[1]. A 64-bit value
//   per counter (low word first) for 64-bit elements; for narrower ones each
//   counter gives two neighbours along the first even dimension (else the
//   first largest one), the words' low bits. The counter advances by the
//   counters used.
// - philox (Philox-4x32, 10 rounds): 128-bit counter (state[1], state[2]),
//   or (state[1], state[0]) for a u64[2] state; each counter gives four
//   32-bit words in order (two 64-bit values, low word first); the counter
//   advances by the blocks used, with a carry into state[2].
// The other state elements are kept.
//
//===----------------------------------------------------------------------===//

#include "ExpanderUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLORNGBITGENERATOREXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// Builds the body of one generator computation.
class Generator {
public:
  Generator(ExpansionBuilder &b)
      : b(b), ctx(b.getBuilder().getContext()),
        u32(IntegerType::get(ctx, 32, IntegerType::Unsigned)),
        u64(IntegerType::get(ctx, 64, IntegerType::Unsigned)) {}

  /// Returns (new state, bits) for `state` of type `stateType`.
  std::pair<Value, Value> threeFry(Value state, RankedTensorType stateType,
                                   RankedTensorType bitsType);
  std::pair<Value, Value> philox(Value state, RankedTensorType stateType,
                                 RankedTensorType bitsType);

private:
  ExpansionBuilder &b;
  MLIRContext *ctx;
  Type u32, u64;

  static RankedTensorType array(ArrayRef<int64_t> shape, Type element) {
    return RankedTensorType::get(shape, element);
  }
  static ArrayRef<int64_t> shapeOf(Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  }

  Value reshape(Value v, ArrayRef<int64_t> shape) {
    if (shapeOf(v) == shape)
      return v;
    return b.create(ReshapeOp::getOperationName(),
                    array(shape, ExpansionBuilder::getElementType(v)), {v});
  }
  /// `v[0:limit]` along `dim`.
  Value sliceDim(Value v, int64_t dim, int64_t start, int64_t limit) {
    SmallVector<int64_t> starts(shapeOf(v).size(), 0), limits(shapeOf(v)),
        strides(shapeOf(v).size(), 1);
    starts[dim] = start;
    limits[dim] = limit;
    return b.create(
        SliceOp::getOperationName(), Type(), {v},
        {b.getBuilder().getNamedAttr(
            "slice", SliceAttr::get(ctx, starts, limits, strides))});
  }
  /// Element `i` of the u64[N] state as a scalar.
  Value element(Value state, int64_t i) {
    return reshape(sliceDim(state, 0, i, i + 1), {});
  }
  Value concat(ValueRange values, int64_t dim, Type type = Type()) {
    return b.create(
        ConcatenateOp::getOperationName(), type, values,
        {b.getBuilder().getNamedAttr(
            "dimensions", b.getBuilder().getDenseI64ArrayAttr({dim}))});
  }
  /// The scalar `v` broadcast to a 1-D array of `n` elements.
  Value broadcast(Value v, int64_t n) {
    return b.create(
        BroadcastOp::getOperationName(),
        array({n}, ExpansionBuilder::getElementType(v)), {v},
        {b.getBuilder().getNamedAttr("dimensions",
                                     b.getBuilder().getDenseI64ArrayAttr({}))});
  }
  /// u64[n] counting from `start` (a u64 scalar).
  Value counters(Value start, int64_t n) {
    Value iota =
        b.create(IotaOp::getOperationName(), array({n}, u64), {},
                 {b.getBuilder().getNamedAttr(
                     "iota_dimension", b.getBuilder().getI64IntegerAttr(0))});
    return b.elementwise<AddOp>({broadcast(start, n), iota});
  }
  Value add(Value x, Value y) { return b.elementwise<AddOp>({x, y}); }
  Value addConst(Value x, uint64_t c) {
    return add(x, b.splatInt(x.getType(), c));
  }
  Value xorOf(Value x, Value y) { return b.elementwise<XorOp>({x, y}); }
  Value low(Value x) { return b.convert(x, u32); }
  Value high(Value x) {
    return b.convert(
        b.elementwise<ShiftRightLogicalOp>({x, b.splatInt(x.getType(), 32)}),
        u32);
  }
  /// lo | hi << 32 of u32 arrays.
  Value join(Value lo, Value hi) {
    Value h = b.convert(hi, u64);
    return b.elementwise<OrOp>(
        {b.convert(lo, u64),
         b.elementwise<ShiftLeftOp>({h, b.splatInt(h.getType(), 32)})});
  }
  Value rotateLeft(Value v, unsigned d) {
    return b.elementwise<OrOp>(
        {b.elementwise<ShiftLeftOp>({v, b.splatInt(v.getType(), d)}),
         b.elementwise<ShiftRightLogicalOp>(
             {v, b.splatInt(v.getType(), 32 - d)})});
  }

  /// Threefry-2x32 of the u64[n] `counter` under the u64 scalar `key`.
  std::pair<Value, Value> threeFryBlocks(Value counter, Value key);
  /// Philox-4x32 of the 128-bit counters (lo, hi), u64[n] each.
  SmallVector<Value, 4> philoxBlocks(Value lo, Value hi, Value key);

  /// The flat u32 or u64 `bits` as `bitsType` (the low bits of each
  /// element, reinterpreted).
  Value finish(Value bits, RankedTensorType bitsType);
  /// The new state: `state` with `updates` (u64 scalars) from element 1 on.
  Value newState(Value state, RankedTensorType stateType,
                 ArrayRef<Value> updates);
};
} // namespace

std::pair<Value, Value> Generator::threeFryBlocks(Value counter, Value key) {
  static const unsigned rotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  int64_t n = shapeOf(counter)[0];
  Value ks[3] = {low(key), high(key), Value()};
  ks[2] = xorOf(xorOf(ks[0], ks[1]), b.splatInt(ks[0].getType(), 0x1BD11BDA));
  Value x0 = add(low(counter), broadcast(ks[0], n));
  Value x1 = add(high(counter), broadcast(ks[1], n));
  for (unsigned group = 0; group < 5; ++group) {
    for (unsigned r = 0; r < 4; ++r) {
      x0 = add(x0, x1);
      x1 = xorOf(rotateLeft(x1, rotations[(group % 2) * 4 + r]), x0);
    }
    x0 = add(x0, broadcast(ks[(group + 1) % 3], n));
    x1 = add(x1, broadcast(addConst(ks[(group + 2) % 3], group + 1), n));
  }
  return {x0, x1};
}

SmallVector<Value, 4> Generator::philoxBlocks(Value lo, Value hi, Value key) {
  int64_t n = shapeOf(lo)[0];
  SmallVector<Value, 4> c = {low(lo), high(lo), low(hi), high(hi)};
  Value k0 = low(key), k1 = high(key);
  Type wide = array({n}, u64);
  for (int round = 0; round < 10; ++round) {
    Value p0 = b.elementwise<MulOp>(
        {b.convert(c[0], u64), b.splatInt(wide, 0xD2511F53u)});
    Value p1 = b.elementwise<MulOp>(
        {b.convert(c[2], u64), b.splatInt(wide, 0xCD9E8D57u)});
    c = {xorOf(xorOf(high(p1), c[1]), broadcast(k0, n)), low(p1),
         xorOf(xorOf(high(p0), c[3]), broadcast(k1, n)), low(p0)};
    k0 = addConst(k0, 0x9E3779B9u);
    k1 = addConst(k1, 0xBB67AE85u);
  }
  return c;
}

Value Generator::finish(Value bits, RankedTensorType bitsType) {
  Type element = bitsType.getElementType();
  unsigned width = cast<IntegerType>(element).getWidth();
  Type unsignedType = IntegerType::get(ctx, width, IntegerType::Unsigned);
  bits = b.convert(bits, unsignedType); // integer converts keep low bits
  if (element == unsignedType)
    return b.create(ReshapeOp::getOperationName(), bitsType, {bits});
  bits = reshape(bits, bitsType.getShape());
  return b.create(BitcastConvertOp::getOperationName(), bitsType, {bits});
}

Value Generator::newState(Value state, RankedTensorType stateType,
                          ArrayRef<Value> updates) {
  int64_t n = stateType.getDimSize(0);
  SmallVector<Value> parts = {sliceDim(state, 0, 0, 1)};
  for (Value v : updates)
    parts.push_back(reshape(v, {1}));
  int64_t kept = 1 + updates.size();
  if (kept < n)
    parts.push_back(sliceDim(state, 0, kept, n));
  return concat(parts, 0, stateType);
}

std::pair<Value, Value> Generator::threeFry(Value state,
                                            RankedTensorType stateType,
                                            RankedTensorType bitsType) {
  Value key = element(state, 0), counter = element(state, 1);
  ArrayRef<int64_t> shape = bitsType.getShape();
  int64_t n = bitsType.getNumElements();
  if (cast<IntegerType>(bitsType.getElementType()).getWidth() > 32) {
    auto [x0, x1] = threeFryBlocks(counters(counter, n), key);
    return {newState(state, stateType, {addConst(counter, n)}),
            finish(join(x0, x1), bitsType)};
  }
  // Narrow elements: counter pairs along `split`, iterated over `half`.
  int64_t split = splitDimension(shape);
  if (split < 0) { // a scalar: the first word of one counter
    auto [x0, x1] = threeFryBlocks(counters(counter, 1), key);
    return {newState(state, stateType, {addConst(counter, 1)}),
            finish(x0, bitsType)};
  }
  SmallVector<int64_t> half(shape);
  half[split] = (shape[split] + 1) / 2;
  int64_t numHalf = 1;
  for (int64_t d : half)
    numHalf *= d;
  auto [x0, x1] = threeFryBlocks(counters(counter, numHalf), key);
  // [.., h, 1, ..] twice -> [.., h, 2, ..] -> [.., 2h, ..].
  SmallVector<int64_t> pairShape(half);
  pairShape.insert(pairShape.begin() + split + 1, 1);
  Value pairs =
      concat({reshape(x0, pairShape), reshape(x1, pairShape)}, split + 1);
  SmallVector<int64_t> evenShape(half);
  evenShape[split] *= 2;
  Value bits = reshape(pairs, evenShape);
  if (evenShape[split] != shape[split])
    bits = sliceDim(bits, split, 0, shape[split]);
  return {newState(state, stateType, {addConst(counter, numHalf)}),
          finish(reshape(bits, {n}), bitsType)};
}

std::pair<Value, Value> Generator::philox(Value state,
                                          RankedTensorType stateType,
                                          RankedTensorType bitsType) {
  bool three = stateType.getDimSize(0) >= 3;
  Value key = element(state, 0), lo = element(state, 1);
  Value hi = three ? element(state, 2) : key;
  int64_t n = bitsType.getNumElements();
  bool wide = cast<IntegerType>(bitsType.getElementType()).getWidth() > 32;
  int64_t perBlock = wide ? 2 : 4;
  int64_t blocks = (n + perBlock - 1) / perBlock;
  // The 128-bit counters (lo + j, hi + carry).
  Value los = counters(lo, blocks);
  Value carry = b.convert(
      b.compare(ComparisonDirection::LT, los, broadcast(lo, blocks)), u64);
  Value his = add(broadcast(hi, blocks), carry);
  SmallVector<Value, 4> c = philoxBlocks(los, his, key);
  SmallVector<Value, 4> words;
  if (wide)
    words = {join(c[0], c[1]), join(c[2], c[3])};
  else
    words = c;
  for (Value &w : words)
    w = reshape(w, {blocks, 1});
  Value bits = reshape(concat(words, 1), {blocks * perBlock});
  if (blocks * perBlock != n)
    bits = sliceDim(bits, 0, 0, n);
  Value newLo = addConst(lo, blocks);
  SmallVector<Value, 2> updates = {newLo};
  if (three) {
    Value wrapped = b.compare(ComparisonDirection::LT, newLo, lo);
    updates.push_back(add(hi, b.convert(wrapped, u64)));
  }
  return {newState(state, stateType, updates), finish(bits, bitsType)};
}

/// The name of `algorithm` in computation names.
static StringRef algorithmName(RngAlgorithm algorithm) {
  return algorithm == RngAlgorithm::rng_three_fry ? "rng_three_fry"
                                                  : "rng_philox";
}

namespace {
struct RngBitGeneratorExpanderPass
    : ChangeReportingPass<RngBitGeneratorExpanderPass,
                          hlo::impl::HloRngBitGeneratorExpanderBase> {
  using ChangeReportingPass::ChangeReportingPass;

  /// The algorithm of rng_default, from `default-algorithm`.
  RngAlgorithm defaultKind = RngAlgorithm::rng_philox;

  LogicalResult initialize(MLIRContext *context) override {
    std::optional<RngAlgorithm> kind = symbolizeRngAlgorithm(defaultAlgorithm);
    if (!kind || *kind == RngAlgorithm::rng_default)
      return emitError(UnknownLoc::get(context))
             << "default-algorithm: '" << defaultAlgorithm
             << "' is not rng_philox or rng_three_fry";
    defaultKind = *kind;
    return success();
  }

  /// True if `op` has a u64[N >= 2] state and integer bits of 8 to 64 bits
  /// in a static shape.
  static bool isExpandable(RngBitGeneratorOp op) {
    auto state = dyn_cast<RankedTensorType>(op.getOperand().getType());
    auto tuple = dyn_cast<TupleType>(op.getType());
    if (hasControlPredecessors(op) || !state || !state.hasStaticShape() ||
        state.getRank() != 1 || state.getDimSize(0) < 2 ||
        !state.getElementType().isUnsignedInteger(64) || !tuple ||
        tuple.size() != 2 || !isStaticArray(tuple.getType(1)))
      return false;
    auto element = dyn_cast<IntegerType>(
        cast<RankedTensorType>(tuple.getType(1)).getElementType());
    return element &&
           llvm::is_contained({8u, 16u, 32u, 64u}, element.getWidth());
  }

  /// The generator computation for `algorithm` from `op`'s types, made on
  /// first use.
  ComputationOp getGenerator(RngBitGeneratorOp op, RngAlgorithm algorithm,
                             SymbolTable &symbols) {
    auto stateType = cast<RankedTensorType>(op.getOperand().getType());
    auto resultType = cast<TupleType>(op.getType());
    ComputationOp &generator =
        generators[{static_cast<int>(algorithm), stateType, resultType}];
    if (generator)
      return generator;
    OpBuilder builder(&getContext());
    Location loc = builder.getUnknownLoc();
    generator = ComputationOp::create(
        builder, loc, algorithmName(algorithm),
        builder.getStringAttr("private"),
        builder.getFunctionType({stateType}, {resultType}),
        /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr, /*entry=*/false,
        StringAttr());
    symbols.insert(generator); // renamed if the name is taken
    Block *body = new Block();
    generator.getBody().push_back(body);
    Value state = body->addArgument(
        stateType, NameLoc::get(builder.getStringAttr("state")));
    builder.setInsertionPointToEnd(body);
    ExpansionBuilder b(builder, loc);
    Generator gen(b);
    auto bitsType = cast<RankedTensorType>(resultType.getType(1));
    auto [newState, bits] = algorithm == RngAlgorithm::rng_three_fry
                                ? gen.threeFry(state, stateType, bitsType)
                                : gen.philox(state, stateType, bitsType);
    Value root =
        b.create(TupleOp::getOperationName(), resultType, {newState, bits});
    ReturnOp::create(builder, loc, root);
    ++numComputations;
    changed = true;
    return generator;
  }

  void run() {
    SymbolTable symbols(getOperation());
    SmallVector<RngBitGeneratorOp> worklist;
    getOperation().walk([&](RngBitGeneratorOp op) {
      if (isExpandable(op))
        worklist.push_back(op);
    });
    for (RngBitGeneratorOp op : worklist) {
      RngAlgorithm algorithm = op.getAlgorithm();
      if (algorithm == RngAlgorithm::rng_default)
        algorithm = defaultKind;
      ComputationOp generator = getGenerator(op, algorithm, symbols);
      OpBuilder builder(op);
      Operation *call = createInstruction(
          builder, op.getLoc(), CallOp::getOperationName(), op.getType(),
          {op.getOperand()},
          {builder.getNamedAttr(
              "to_apply", FlatSymbolRefAttr::get(generator.getNameAttr()))});
      transferInstructionAttrs(op, call);
      op.getResult().replaceAllUsesWith(call->getResult(0));
      op.erase();
      ++numExpanded;
      changed = true;
    }
    generators.clear();
  }

  /// The generators made, by (algorithm, state type, result type).
  DenseMap<std::tuple<int, Type, Type>, ComputationOp> generators;
};
} // namespace
