//===- BatchNormExpander.cpp - batch norms as elementwise ops -------------===//
//
// XLA's BatchNormExpander: batch-norm-training, -inference and -grad become
// elementwise instructions, broadcasts along the feature dimension and
// reductions over every other dimension (with a scalar add computation
// made for the pass), with XLA's formulas:
//   training:  mean = E[x], var = E[x^2] - E[x]^2,
//              y = (x - mean) * rsqrt(var + eps) * scale + offset
//   inference: s = scale * rsqrt(var + eps),
//              y = x * s + (offset - mean * s)
//   grad:      d_offset = sum(dy), d_scale = sum(dy * (x - mean)) *
//              rsqrt(var + eps), dx = scale * rsqrt(var + eps) / N *
//              (N * dy - sum(dy) - (x - mean) * sum(dy * (x - mean)) /
//              (var + eps))
// Each op kind is expanded only when its option is set. N, the number of
// elements per feature, is a constant (XLA multiplies get-dimension-size
// results, which are constants for static shapes; dynamic shapes are left
// alone). Left alone as well: batch norms with control predecessors,
// operands that are not floats, and fused computations.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOBATCHNORMEXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// Builds the instructions replacing one batch norm, before it, each with
/// its metadata; remembers them to give them shardings.
class ExpansionBuilder {
public:
  ExpansionBuilder(Operation *bn, FlatSymbolRefAttr addComputation)
      : b(bn), loc(derivedLoc(bn->getLoc())), addComputation(addComputation),
        x(bn->getOperand(0)), xType(cast<RankedTensorType>(x.getType())),
        featureType(cast<RankedTensorType>(bn->getOperand(1).getType())),
        feature(cast<IntegerAttr>(bn->getAttr("feature_index")).getInt()) {
    for (int64_t d = 0, e = xType.getRank(); d < e; ++d)
      if (d != feature)
        otherDims.push_back(d);
  }

  template <typename OpT> Value binary(Value lhs, Value rhs) {
    return record(createInferred<OpT>(b, loc, {lhs, rhs}));
  }
  Value rsqrt(Value v) { return record(createInferred<RsqrtOp>(b, loc, {v})); }

  /// A scalar constant of the operand's element type.
  Value scalar(double value) {
    Type element = xType.getElementType();
    auto type = RankedTensorType::get({}, element);
    auto literal = DenseElementsAttr::get(type, FloatAttr::get(element, value));
    return record(createInstruction(b, loc, ConstantOp::getOperationName(),
                                    type, {},
                                    {b.getNamedAttr("value", literal)}));
  }

  /// `v` broadcast to `type`, its dimensions mapped to `dims`.
  Value broadcast(Value v, RankedTensorType type, ArrayRef<int64_t> dims) {
    return record(createInstruction(
        b, loc, BroadcastOp::getOperationName(), type, {v},
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(dims))}));
  }
  /// A per-feature value broadcast to the operand's shape.
  Value perElement(Value v) { return broadcast(v, xType, {feature}); }

  /// The per-feature sums of `v` (operand-shaped), from `zero`.
  Value sum(Value v, Value zero) {
    return record(createInstruction(
        b, loc, ReduceOp::getOperationName(), featureType, {v, zero},
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(otherDims)),
         b.getNamedAttr("to_apply", addComputation)}));
  }

  /// `v` divided by `count` (a scalar) elementwise.
  Value mean(Value count, Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    return binary<DivOp>(v, broadcast(count, type, {}));
  }

  /// The number of elements per feature.
  double elementsPerFeature() const {
    return static_cast<double>(xType.getNumElements() /
                               std::max<int64_t>(xType.getDimSize(feature), 1));
  }

  /// XLA's shardings for the added instructions of a batch norm sharded
  /// `sharding`: the operand's sharding (`operandSharding`) for those of the
  /// operand's shape, the unique device or replicated for the others.
  void shard(ShardingAttr sharding, ShardingAttr operandSharding) {
    MLIRContext *ctx = sharding.getContext();
    std::optional<int64_t> device = uniqueDevice(sharding);
    ShardingAttr other =
        device ? ShardingAttr::get(ctx, ShardingKind::Maximal, *device)
               : ShardingAttr::get(ctx, ShardingKind::Replicated);
    for (Operation *op : added) {
      auto type = cast<RankedTensorType>(op->getResult(0).getType());
      bool operandShaped = type.getShape() == xType.getShape() &&
                           type.getElementType() == xType.getElementType();
      op->setAttr("sharding", operandShaped ? operandSharding : other);
    }
  }

  OpBuilder b;
  Location loc;
  FlatSymbolRefAttr addComputation;
  Value x;
  RankedTensorType xType, featureType;
  int64_t feature;
  SmallVector<int64_t> otherDims;

private:
  Value record(Operation *op) {
    added.push_back(op);
    return op->getResult(0);
  }

  /// XLA's HloSharding::UniqueDevice.
  static std::optional<int64_t> uniqueDevice(ShardingAttr sharding) {
    if (sharding.isMaximal())
      return sharding.getDevice();
    if (!sharding.isTuple() || sharding.getTupleElements().empty())
      return std::nullopt;
    std::optional<int64_t> device;
    for (ShardingAttr element : sharding.getTupleElements()) {
      std::optional<int64_t> d = uniqueDevice(element);
      if (!d || (device && *device != *d))
        return std::nullopt;
      device = d;
    }
    return device;
  }

  SmallVector<Operation *> added;
};
} // namespace

/// The tuple (out, mean, var) of batch-norm-training.
static Value expandTraining(ExpansionBuilder &e, BatchNormTrainingOp bn) {
  Value x = e.x;
  Value zero = e.scalar(0.0);
  Value eps =
      e.broadcast(e.scalar(bn.getEpsilon().convertToDouble()), e.xType, {});
  Value count = e.scalar(e.elementsPerFeature());
  Value scale = e.perElement(bn.getScale());
  Value offset = e.perElement(bn.getOffset());
  Value squared = e.binary<MulOp>(x, x);
  Value sum = e.sum(x, zero);
  Value squaredSum = e.sum(squared, zero);
  Value mean = e.mean(count, sum);
  Value meanB = e.perElement(mean);
  Value squareMean = e.mean(count, squaredSum);
  Value meanSquare = e.binary<MulOp>(mean, mean);
  Value var = e.binary<SubtractOp>(squareMean, meanSquare);
  Value varEps = e.binary<AddOp>(e.perElement(var), eps);
  Value rsqrt = e.rsqrt(varEps);
  Value centered = e.binary<SubtractOp>(x, meanB);
  Value normalized = e.binary<MulOp>(centered, rsqrt);
  Value scaled = e.binary<MulOp>(normalized, scale);
  Value shifted = e.binary<AddOp>(scaled, offset);
  return createInferred<TupleOp>(e.b, UnknownLoc::get(bn.getContext()),
                                 {shifted, mean, var})
      .getResult();
}

/// The normalized operand of batch-norm-inference.
static Value expandInference(ExpansionBuilder &e, BatchNormInferenceOp bn) {
  Value eps = e.broadcast(e.scalar(bn.getEpsilon().convertToDouble()),
                          e.featureType, {});
  Value trueScale = e.binary<MulOp>(
      bn.getScale(), e.rsqrt(e.binary<AddOp>(bn.getVariance(), eps)));
  Value trueShift = e.binary<SubtractOp>(
      bn.getOffset(), e.binary<MulOp>(bn.getMean(), trueScale));
  return e.binary<AddOp>(e.binary<MulOp>(e.x, e.perElement(trueScale)),
                         e.perElement(trueShift));
}

/// The tuple (d_operand, d_scale, d_offset) of batch-norm-grad.
static Value expandGrad(ExpansionBuilder &e, BatchNormGradOp bn) {
  Value count = e.scalar(e.elementsPerFeature());
  Value zero = e.scalar(0.0);
  Value epsScalar = e.scalar(bn.getEpsilon().convertToDouble());
  Value epsElement = e.broadcast(epsScalar, e.xType, {});
  Value epsFeature = e.broadcast(epsScalar, e.featureType, {});
  Value dy = bn.getGradOutput();
  Value scale = e.perElement(bn.getScale());
  Value varB = e.perElement(bn.getVariance());
  Value meanB = e.perElement(bn.getMean());
  Value rsqrtB = e.rsqrt(e.binary<AddOp>(varB, epsElement));
  Value rsqrt = e.rsqrt(e.binary<AddOp>(bn.getVariance(), epsFeature));
  Value centered = e.binary<SubtractOp>(e.x, meanB);
  Value dyCentered = e.binary<MulOp>(dy, centered);
  Value sumDyCentered = e.sum(dyCentered, zero);
  Value gradOffset = e.sum(dy, zero);
  Value gradScale = e.binary<MulOp>(sumDyCentered, rsqrt);
  Value i2 = e.perElement(gradOffset);
  Value i3 = e.perElement(sumDyCentered);
  Value i4 = e.binary<MulOp>(i3, centered);
  Value i5 = e.binary<DivOp>(i4, e.binary<AddOp>(varB, epsElement));
  Value factor = e.mean(count, e.binary<MulOp>(scale, rsqrtB));
  Value i1 = e.binary<MulOp>(dy, e.broadcast(count, e.xType, {}));
  Value i6 = e.binary<SubtractOp>(e.binary<SubtractOp>(i1, i2), i5);
  Value gradOperand = e.binary<MulOp>(factor, i6);
  return createInferred<TupleOp>(e.b, UnknownLoc::get(bn.getContext()),
                                 {gradOperand, gradScale, gradOffset})
      .getResult();
}

/// True if the batch norm `op` is one this pass may expand.
static bool isExpandable(Operation *op) {
  if (hasControlPredecessors(op))
    return false;
  for (Value v : getDataOperands(op)) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape() ||
        !isa<FloatType>(type.getElementType()))
      return false;
  }
  return true;
}

namespace {
struct BatchNormExpanderPass
    : ChangeReportingPass<BatchNormExpanderPass,
                          hlo::impl::HloBatchNormExpanderBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    SmallVector<Operation *> worklist;
    for (ComputationOp comp : nonFusionComputations(module))
      for (Operation &op : comp.getBody().getOps())
        if (((isa<BatchNormTrainingOp>(op) && rewriteTrainingOp) ||
             (isa<BatchNormInferenceOp>(op) && rewriteInferenceOp) ||
             (isa<BatchNormGradOp>(op) && rewriteGradOp)) &&
            isExpandable(&op))
          worklist.push_back(&op);
    if (worklist.empty())
      return;
    SymbolTable symbols(module);
    llvm::DenseMap<Type, FlatSymbolRefAttr> addComputations;
    for (Operation *bn : worklist) {
      Type element =
          cast<RankedTensorType>(bn->getOperand(0).getType()).getElementType();
      // Inference reduces nothing: it needs no add computation.
      FlatSymbolRefAttr add;
      if (!isa<BatchNormInferenceOp>(bn)) {
        FlatSymbolRefAttr &cached = addComputations[element];
        if (!cached)
          cached = createScalarAddComputation(symbols, element);
        add = cached;
      }
      ExpansionBuilder e(bn, add);
      Value result;
      if (auto training = dyn_cast<BatchNormTrainingOp>(bn))
        result = expandTraining(e, training);
      else if (auto inference = dyn_cast<BatchNormInferenceOp>(bn))
        result = expandInference(e, inference);
      else
        result = expandGrad(e, cast<BatchNormGradOp>(bn));
      if (auto sharding = bn->getAttrOfType<ShardingAttr>("sharding")) {
        // Training and grad produce tuples: their operand-shaped
        // instructions get the sharding of the first element.
        ShardingAttr operandSharding = sharding;
        if (!isa<BatchNormInferenceOp>(bn) && sharding.isTuple() &&
            !sharding.getTupleElements().empty())
          operandSharding = sharding.getTupleElements().front();
        e.shard(sharding, operandSharding);
      }
      transferInstructionAttrs(bn, result.getDefiningOp());
      bn->getResult(0).replaceAllUsesWith(result);
      bn->erase();
      ++numExpanded;
      changed = true;
    }
  }
};
} // namespace
