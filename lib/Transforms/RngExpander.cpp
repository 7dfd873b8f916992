//===- RngExpander.cpp - rng as Philox bits and a distribution ------------===//
//
// XLA's RngExpander: `rng(a, b)` becomes
//   key   = constant (seed mixed with the rng's index; xor the replica id
//           and partition id << 32 when the module has several)
//   state = rng-get-and-update-state, delta = the 32-bit words used
//   call @rng_<distribution>(key, state, a, b)
// where the generated computation takes Philox bits of the result's shape
// from `rng-bit-generator` on the state (key, counter) and maps them:
// - uniform floats: the top mantissa-width bits as an integer times
//   2^-mantissa, scaled to [a, b): `x * (b - a) + a`;
// - uniform integers: `a + d / 2 + (d - d / 2)` with d = bits rem (b - a),
//   all unsigned;
// - normal: uniform [0, 1) values over the shape split in two halves,
//   Box-Muller (`sin` and `cos` of 2 pi u1 times sqrt(-2 log u0), u0 at
//   least 1e-7), put back together; then `a + b * z`.
// f16 and bf16 rngs run in f32 (operands converted before, the result
// after). One computation per (distribution, result type, operand types).
//
//===----------------------------------------------------------------------===//

#include "ExpanderUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"

#include "mlir/IR/SymbolTable.h"

#include <cmath>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLORNGEXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// Builds the body of one rng computation.
class RngBody {
public:
  explicit RngBody(ExpansionBuilder &b)
      : b(b), ctx(b.getBuilder().getContext()) {}

  /// The rng values of `type` from Philox bits under (key, state).
  Value build(RngDistribution distribution, RankedTensorType type, Value key,
              Value state, Value lo, Value hi);

private:
  ExpansionBuilder &b;
  MLIRContext *ctx;

  NamedAttribute attr(StringRef name, Attribute value) {
    return b.getBuilder().getNamedAttr(name, value);
  }
  Type unsignedOf(Type element) {
    return IntegerType::get(ctx, element.getIntOrFloatBitWidth(),
                            IntegerType::Unsigned);
  }
  /// The scalar `v` broadcast to `shape`.
  Value broadcast(Value v, ArrayRef<int64_t> shape) {
    if (shape.empty())
      return v;
    return b.create(
        BroadcastOp::getOperationName(),
        RankedTensorType::get(shape, ExpansionBuilder::getElementType(v)), {v},
        {attr("dimensions", b.getBuilder().getDenseI64ArrayAttr({}))});
  }
  Value reshape(Value v, ArrayRef<int64_t> shape) {
    return b.create(
        ReshapeOp::getOperationName(),
        RankedTensorType::get(shape, ExpansionBuilder::getElementType(v)), {v});
  }
  Value slice(Value v, ArrayRef<int64_t> starts, ArrayRef<int64_t> limits) {
    SmallVector<int64_t> strides(starts.size(), 1);
    return b.create(
        SliceOp::getOperationName(), Type(), {v},
        {attr("slice", SliceAttr::get(ctx, starts, limits, strides))});
  }

  /// Philox bits (u32 or u64 by the width of `element`) of `shape`.
  Value bits(ArrayRef<int64_t> shape, Type element, Value key, Value state);
  /// Uniform floats in [lo, hi) of `shape` (lo, hi scalars).
  Value uniformFloat(ArrayRef<int64_t> shape, FloatType type, Value key,
                     Value state, Value lo, Value hi);
  Value uniformInt(ArrayRef<int64_t> shape, IntegerType type, Value key,
                   Value state, Value lo, Value hi);
  Value normal(ArrayRef<int64_t> shape, FloatType type, Value key, Value state);
};
} // namespace

Value RngBody::bits(ArrayRef<int64_t> shape, Type element, Value key,
                    Value state) {
  // Philox with key `key` and the 128-bit counter `state`: rng-bit-generator
  // on the u64[3] state (key, counter).
  Type u64 = IntegerType::get(ctx, 64, IntegerType::Unsigned);
  Value full = b.create(
      ConcatenateOp::getOperationName(), Type(), {reshape(key, {1}), state},
      {attr("dimensions", b.getBuilder().getDenseI64ArrayAttr({0}))});
  auto bitsType = RankedTensorType::get(shape, unsignedOf(element));
  auto stateType = RankedTensorType::get({3}, u64);
  Value generated =
      b.create(RngBitGeneratorOp::getOperationName(),
               TupleType::get(ctx, {stateType, bitsType}), {full},
               {attr("algorithm",
                     RngAlgorithmAttr::get(ctx, RngAlgorithm::rng_philox))});
  return b.create(GetTupleElementOp::getOperationName(), bitsType, {generated},
                  {attr("index", b.getBuilder().getI64IntegerAttr(1))});
}

Value RngBody::uniformFloat(ArrayRef<int64_t> shape, FloatType type, Value key,
                            Value state, Value lo, Value hi) {
  Value raw = bits(shape, type, key, state);
  unsigned width = type.getWidth();
  int mantissa =
      llvm::APFloat::semanticsPrecision(type.getFloatSemantics()) - 1;
  Value top = b.elementwise<ShiftRightLogicalOp>(
      {raw, b.splatInt(raw.getType(), width - mantissa)});
  Value x = b.convert(top, type);
  x = b.elementwise<MulOp>(
      {x, b.splatReal(x.getType(), std::ldexp(1.0, -mantissa))});
  Value range = b.elementwise<SubtractOp>({hi, lo});
  return b.elementwise<AddOp>(
      {b.elementwise<MulOp>({x, broadcast(range, shape)}),
       broadcast(lo, shape)});
}

Value RngBody::uniformInt(ArrayRef<int64_t> shape, IntegerType type, Value key,
                          Value state, Value lo, Value hi) {
  Value raw = bits(shape, type, key, state);
  Type u = unsignedOf(type);
  Value range = b.elementwise<SubtractOp>({b.bitcast(hi, u), b.bitcast(lo, u)});
  Value dist = b.elementwise<RemOp>({raw, broadcast(range, shape)});
  Value half =
      b.elementwise<ShiftRightLogicalOp>({dist, b.splatInt(dist.getType(), 1)});
  Value rest = b.elementwise<SubtractOp>({dist, half});
  Value sum =
      b.elementwise<AddOp>({broadcast(lo, shape), b.bitcast(half, type)});
  return b.elementwise<AddOp>({sum, b.bitcast(rest, type)});
}

Value RngBody::normal(ArrayRef<int64_t> shape, FloatType type, Value key,
                      Value state) {
  // Split a dimension (the first even one, else the first largest) in two
  // halves along a new minor-to-it dimension of size 2; a scalar is [2].
  int64_t rank = shape.size(), split = splitDimension(shape);
  SmallVector<int64_t> halfShape, concatShape;
  int64_t concatDim = 0;
  if (rank == 0) {
    halfShape = {1};
    concatShape = {2};
  } else {
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = d == split ? (shape[d] + 1) / 2 : shape[d];
      halfShape.push_back(size);
      concatShape.push_back(size);
      if (d == split) {
        halfShape.push_back(1);
        concatShape.push_back(2);
      }
    }
    concatDim = split + 1;
  }
  auto scalar = RankedTensorType::get({}, type);
  Value zero = b.splatReal(scalar, 0.0), one = b.splatReal(scalar, 1.0);
  Value u = uniformFloat(concatShape, type, key, state, zero, one);
  SmallVector<int64_t> starts(concatShape.size(), 0);
  Value u0 = slice(u, starts, halfShape);
  starts[concatDim] = 1;
  Value u1 = slice(u, starts, concatShape);
  // Box-Muller (XLA's constants are floats: 1e-7f).
  Type halfType = u0.getType();
  Value small = b.elementwise<MaxOp>(
      {u0, b.splatReal(halfType, static_cast<double>(1.0e-7f))});
  Value angle = b.elementwise<MulOp>({b.splatReal(halfType, 2.0 * M_PI), u1});
  Value radius = b.elementwise<SqrtOp>({b.elementwise<MulOp>(
      {b.splatReal(halfType, -2.0), b.elementwise<LogOp>({small})})});
  Value z0 = b.elementwise<MulOp>({b.elementwise<SinOp>({angle}), radius});
  Value z1 = b.elementwise<MulOp>({b.elementwise<CosOp>({angle}), radius});
  if (rank == 0)
    return reshape(z0, {});
  Value joined = b.create(
      ConcatenateOp::getOperationName(), Type(), {z0, z1},
      {attr("dimensions", b.getBuilder().getDenseI64ArrayAttr({concatDim}))});
  SmallVector<int64_t> evenShape(shape);
  evenShape[split] = 2 * halfShape[split];
  Value result = reshape(joined, evenShape);
  if (evenShape[split] != shape[split])
    result = slice(result, SmallVector<int64_t>(rank, 0), shape);
  return result;
}

Value RngBody::build(RngDistribution distribution, RankedTensorType type,
                     Value key, Value state, Value lo, Value hi) {
  ArrayRef<int64_t> shape = type.getShape();
  if (distribution == RngDistribution::rng_normal) {
    Value z = normal(shape, cast<FloatType>(type.getElementType()), key, state);
    return b.elementwise<AddOp>(
        {broadcast(lo, shape),
         b.elementwise<MulOp>({broadcast(hi, shape), z})});
  }
  if (auto floatType = dyn_cast<FloatType>(type.getElementType()))
    return uniformFloat(shape, floatType, key, state, lo, hi);
  return uniformInt(shape, cast<IntegerType>(type.getElementType()), key, state,
                    lo, hi);
}

namespace {
struct RngExpanderPass
    : ChangeReportingPass<RngExpanderPass, hlo::impl::HloRngExpanderBase> {
  using ChangeReportingPass::ChangeReportingPass;

  /// The element type the rng is generated in (f32 for f16 and bf16), or
  /// null if this pass leaves it alone (XLA's Philox distributions take
  /// 32- and 64-bit floats and integers).
  static Type generatedElementType(RngOp op) {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (hasControlPredecessors(op) || !type || !type.hasStaticShape() ||
        op.getInputs().size() != 2)
      return Type();
    for (Value v : op.getInputs())
      if (!isStaticArray(v.getType()) ||
          cast<RankedTensorType>(v.getType()).getRank() != 0)
        return Type();
    Type element = type.getElementType();
    if (element.isF16() || element.isBF16())
      return Float32Type::get(op.getContext());
    bool isFloat = element.isF32() || element.isF64();
    bool isInt = element.isInteger(32) || element.isInteger(64) ||
                 element.isUnsignedInteger(32) || element.isUnsignedInteger(64);
    if (op.getDistribution() == RngDistribution::rng_normal
            ? !isFloat
            : !isFloat && !isInt)
      return Type();
    return element;
  }

  ComputationOp getComputation(RngDistribution distribution,
                               RankedTensorType type, Type lo, Type hi,
                               SymbolTable &symbols) {
    ComputationOp &comp =
        computations[{static_cast<int>(distribution), type, lo, hi}];
    if (comp)
      return comp;
    MLIRContext *ctx = &getContext();
    OpBuilder builder(ctx);
    Location loc = builder.getUnknownLoc();
    Type u64 = IntegerType::get(ctx, 64, IntegerType::Unsigned);
    SmallVector<Type> argTypes = {RankedTensorType::get({}, u64),
                                  RankedTensorType::get({2}, u64), lo, hi};
    comp = ComputationOp::create(
        builder, loc,
        distribution == RngDistribution::rng_normal ? "rng_normal"
                                                    : "rng_uniform",
        builder.getStringAttr("private"),
        builder.getFunctionType(argTypes, {type}), /*arg_attrs=*/nullptr,
        /*res_attrs=*/nullptr, /*entry=*/false, StringAttr());
    symbols.insert(comp);
    Block *body = new Block();
    comp.getBody().push_back(body);
    SmallVector<Value> args;
    static const char *const names[] = {"key", "state", "a_or_mean",
                                        "b_or_sigma"};
    for (auto [t, name] : llvm::zip(argTypes, names))
      args.push_back(
          body->addArgument(t, NameLoc::get(builder.getStringAttr(name))));
    builder.setInsertionPointToEnd(body);
    ExpansionBuilder b(builder, loc);
    RngBody rng(b);
    Value result =
        rng.build(distribution, type, args[0], args[1], args[2], args[3]);
    if (result.getType() != type) // the result's layout
      result = b.create(CopyOp::getOperationName(), type, {result});
    ReturnOp::create(builder, loc, result);
    return comp;
  }

  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    auto count = [&](StringRef name) {
      auto attr = module->getAttrOfType<IntegerAttr>(name);
      return attr ? attr.getInt() : 1;
    };
    bool replicas = count("hlo.replica_count") > 1;
    bool partitions = count("hlo.num_partitions") > 1;
    SmallVector<std::pair<RngOp, Type>> worklist;
    module.walk([&](RngOp op) {
      if (Type element = generatedElementType(op))
        worklist.push_back({op, element});
    });
    uint64_t index = 0;
    for (auto [op, element] : worklist) {
      OpBuilder builder(op);
      ExpansionBuilder b(builder, op.getLoc());
      MLIRContext *ctx = &getContext();
      Type u64 = IntegerType::get(ctx, 64, IntegerType::Unsigned);
      Type u32 = IntegerType::get(ctx, 32, IntegerType::Unsigned);
      auto scalarU64 = RankedTensorType::get({}, u64);
      // The key: the seed mixed with the rng's index, XLA's
      // seed ^ ((id * 0x9E3779B97F4A7C15) >> 32), folded.
      uint64_t mixed = seed ^ ((index++ * 0x9E3779B97F4A7C15ull) >> 32);
      Value key = b.splatInt(scalarU64, mixed);
      if (replicas)
        key = b.elementwise<XorOp>(
            {key, b.convert(b.create(ReplicaIdOp::getOperationName(),
                                     RankedTensorType::get({}, u32), {}),
                            u64)});
      if (partitions) {
        Value id = b.convert(b.create(PartitionIdOp::getOperationName(),
                                      RankedTensorType::get({}, u32), {}),
                             u64);
        key = b.elementwise<XorOp>(
            {key, b.elementwise<ShiftLeftOp>({id, b.splatInt(scalarU64, 32)})});
      }
      auto type = cast<RankedTensorType>(op.getType());
      auto generated = element == type.getElementType()
                           ? type
                           : RankedTensorType::get(type.getShape(), element,
                                                   type.getEncoding());
      int64_t words =
          generated.getNumElements() * (element.getIntOrFloatBitWidth() / 32);
      Value state = b.create(
          RngGetAndUpdateStateOp::getOperationName(),
          RankedTensorType::get({2}, u64), {},
          {builder.getNamedAttr("delta", builder.getI64IntegerAttr(words))});
      Value lo = b.convert(op.getInputs()[0], element);
      Value hi = b.convert(op.getInputs()[1], element);
      ComputationOp comp = getComputation(op.getDistribution(), generated,
                                          lo.getType(), hi.getType(), symbols);
      Value result = b.create(
          CallOp::getOperationName(), generated, {key, state, lo, hi},
          {builder.getNamedAttr("to_apply",
                                FlatSymbolRefAttr::get(comp.getNameAttr()))});
      if (element != type.getElementType())
        result = b.create(ConvertOp::getOperationName(), type, {result});
      transferInstructionAttrs(op, result.getDefiningOp());
      op.getResult().replaceAllUsesWith(result);
      op.erase();
      ++numExpanded;
      changed = true;
    }
    computations.clear();
  }

  /// The computations made, by (distribution, type, operand types).
  DenseMap<std::tuple<int, Type, Type, Type>, ComputationOp> computations;
};
} // namespace
