//===- ReductionUtils.cpp - how XLA-GPU classifies reductions -------------===//

#include "ReductionUtils.h"
#include "LayoutUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::hlo;

bool mlir::hlo::hasDefaultLayout(Type type) {
  auto rt = dyn_cast<RankedTensorType>(type);
  if (!rt || !rt.hasStaticShape())
    return false;
  Attribute encoding = rt.getEncoding();
  if (!encoding)
    return true;
  auto layout = dyn_cast<LayoutAttr>(encoding);
  if (!layout || !layout.getTileSizes().empty() ||
      !hasNaturalElementSize(layout, rt.getElementType()) ||
      layout.getMemorySpace() != 0 ||
      (layout.getExtra() && !layout.getExtra().getValue().empty()))
    return false;
  if (!layout.getHasMinorToMajor())
    return true;
  ArrayRef<int64_t> m2m = layout.getMinorToMajor();
  int64_t rank = rt.getRank();
  if (int64_t(m2m.size()) != rank)
    return false;
  for (int64_t i = 0; i < rank; ++i)
    if (m2m[i] != rank - 1 - i)
      return false;
  return true;
}

bool mlir::hlo::isPlainReduce(ReduceOp op) {
  if (hasControlPredecessors(op) || op.getInputs().size() % 2 != 0)
    return false;
  unsigned n = numReducedArrays(op);
  for (Value input : op.getInputs().take_front(n))
    if (!hasDefaultLayout(input.getType()))
      return false;
  if (n == 1)
    return hasDefaultLayout(op.getType());
  auto tuple = dyn_cast<TupleType>(op.getType());
  return tuple && llvm::all_of(tuple.getTypes(), hasDefaultLayout);
}

/// True if the sorted set `dims` is a run of consecutive dimensions (in the
/// default layout, consecutive in memory too); true when empty.
static bool areConsecutive(ArrayRef<int64_t> dims) {
  for (size_t i = 1; i < dims.size(); ++i)
    if (dims[i] != dims[i - 1] + 1)
      return false;
  return true;
}

/// XLA's PartitionShapeByMiddleDimensions in the default layout: the
/// products of the dimensions before, in and after the run `middle`.
static std::array<int64_t, 3> partitionByMiddle(ArrayRef<int64_t> shape,
                                                ArrayRef<int64_t> middle) {
  std::array<int64_t, 3> values = {1, 1, 1};
  for (int64_t d = 0, e = shape.size(); d < e; ++d) {
    int segment = d < middle.front() ? 0 : d <= middle.back() ? 1 : 2;
    values[segment] *= shape[d];
  }
  return values;
}

ReductionDimensions mlir::hlo::getReductionKind(ArrayRef<int64_t> shape,
                                                ArrayRef<int64_t> reduced) {
  SmallVector<int64_t> sortedReduced(reduced), kept;
  llvm::sort(sortedReduced);
  for (int64_t d = 0, e = shape.size(); d < e; ++d)
    if (!llvm::is_contained(sortedReduced, d))
      kept.push_back(d);
  if (kept.empty()) {
    int64_t all = 1;
    for (int64_t s : shape)
      all *= s;
    return {true, {1, 1, all}};
  }
  if (areConsecutive(kept)) {
    std::array<int64_t, 3> p = partitionByMiddle(shape, kept);
    if (p[1] == 1)
      return {true, {1, 1, p[0] * p[2]}};
    if (p[2] == 1)
      return {false, {1, p[0], p[1]}};
    return {true, p};
  }
  std::array<int64_t, 3> p = partitionByMiddle(shape, sortedReduced);
  if (p[2] == 1)
    return {true, {1, p[0], p[1]}};
  return {false, p};
}

bool mlir::hlo::isReductionFromOrToContiguousDimensions(
    ArrayRef<int64_t> shape, ArrayRef<int64_t> reduced) {
  if (llvm::is_contained(shape, 0))
    return false;
  SmallVector<int64_t> sortedReduced(reduced), kept;
  llvm::sort(sortedReduced);
  for (int64_t d = 0, e = shape.size(); d < e; ++d)
    if (!llvm::is_contained(sortedReduced, d))
      kept.push_back(d);
  if (!areConsecutive(kept) && !areConsecutive(sortedReduced))
    return false;
  ReductionDimensions rd = getReductionKind(shape, reduced);
  // IsUnnestedReductionFasterThanElemental.
  if (rd.isRowReduction)
    return rd.dims[2] >= kWarpSize || kWarpSize % rd.dims[2] == 0;
  int64_t major = rd.dims[1], minor = rd.dims[2];
  bool preferElemental = major < kWarpSize ||
                         (major < 2 * kWarpSize && minor < kWarpSize) ||
                         (major < 4 * kWarpSize && minor < 8) ||
                         (major < 8 * kWarpSize && minor < 3);
  return !preferElemental;
}

bool mlir::hlo::reductionIsRaceFree(const ReductionDimensions &rd,
                                    int64_t minThreadsX) {
  if (rd.isRowReduction) {
    constexpr int64_t kRowTileX = 16;
    return rd.dims[2] <= minThreadsX * kRowTileX &&
           rd.dims[0] <= kBatchedReductionRaceFreeBound;
  }
  constexpr int64_t kColumnTileY = 128;
  return rd.dims[1] <= kWarpSize * kColumnTileY;
}

Value mlir::hlo::reshapeTo(OpBuilder &b, Location loc, Value v,
                           ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getShape() == shape)
    return v;
  return createInstruction(b, loc, ReshapeOp::getOperationName(),
                           RankedTensorType::get(shape, type.getElementType()),
                           {v})
      ->getResult(0);
}

Value mlir::hlo::createReduce(OpBuilder &b, Location loc, ReduceOp like,
                              Type resultType, ValueRange inputs,
                              ValueRange inits, ArrayRef<int64_t> dims) {
  SmallVector<Value> operands(inputs);
  llvm::append_range(operands, inits);
  return createInstruction(
             b, loc, ReduceOp::getOperationName(), resultType, operands,
             {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(dims)),
              b.getNamedAttr("to_apply", like.getToApplyAttr())})
      ->getResult(0);
}

void mlir::hlo::replaceReduce(ReduceOp op, Value value) {
  transferInstructionAttrs(op, value.getDefiningOp());
  op->getResult(0).replaceAllUsesWith(value);
  op.erase();
}

SmallVector<ReduceOp> mlir::hlo::nonFusionReduces(ModuleOp module) {
  SmallVector<ReduceOp> reduces;
  for (ComputationOp comp : nonFusionComputations(module))
    comp.walk([&](ReduceOp op) { reduces.push_back(op); });
  return reduces;
}

Operation *mlir::hlo::reducerOp(ComputationOp comp) {
  if (!comp || comp.getNumArguments() != 2)
    return nullptr;
  Block &body = comp.getBody().front();
  if (body.getOperations().size() != 2)
    return nullptr;
  Operation *op = &body.front();
  if (op->getNumOperands() != 2 || hasControlPredecessors(op))
    return nullptr;
  Value p0 = body.getArgument(0), p1 = body.getArgument(1);
  Value a = op->getOperand(0), b = op->getOperand(1);
  if (!((a == p0 && b == p1) || (a == p1 && b == p0)))
    return nullptr;
  return op;
}

DenseElementsAttr mlir::hlo::identityOf(Operation *reducer, Type type) {
  if (!reducer)
    return {};
  auto scalar = RankedTensorType::get({}, type);
  if (auto ft = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    std::optional<APFloat> v;
    if (isa<AddOp>(reducer))
      v = APFloat::getZero(sem);
    else if (isa<MulOp>(reducer))
      v = APFloat::getOne(sem);
    else if (isa<MaxOp, MinOp>(reducer) && APFloat::semanticsHasInf(sem))
      v = APFloat::getInf(sem, /*Negative=*/isa<MaxOp>(reducer));
    return v ? DenseElementsAttr::get(scalar, {*v}) : DenseElementsAttr();
  }
  auto it = dyn_cast<IntegerType>(type);
  if (!it)
    return {};
  bool isUnsigned = it.isUnsigned() || it.getWidth() == 1;
  unsigned w = it.getWidth();
  std::optional<APInt> v;
  if (isa<AddOp, OrOp, XorOp>(reducer))
    v = APInt::getZero(w);
  else if (isa<MulOp>(reducer))
    v = APInt(w, 1);
  else if (isa<AndOp>(reducer))
    v = APInt::getAllOnes(w);
  else if (isa<MaxOp>(reducer))
    v = isUnsigned ? APInt::getMinValue(w) : APInt::getSignedMinValue(w);
  else if (isa<MinOp>(reducer))
    v = isUnsigned ? APInt::getMaxValue(w) : APInt::getSignedMaxValue(w);
  return v ? DenseElementsAttr::get(scalar, {*v}) : DenseElementsAttr();
}

bool mlir::hlo::isIdentityOf(Operation *reducer, Value init) {
  if (auto b = init.getDefiningOp<BroadcastOp>())
    init = b.getOperand();
  Attribute attr;
  if (!reducer || !matchPattern(init, m_Constant(&attr)))
    return false;
  auto splat = dyn_cast<SplatElementsAttr>(attr);
  if (!splat)
    return false;
  Type elt = splat.getElementType();
  DenseElementsAttr identity = identityOf(reducer, elt);
  if (!identity)
    return false;
  if (isa<FloatType>(elt))
    return isa<AddOp>(reducer) ? splat.getSplatValue<APFloat>().isZero()
                               : splat.getSplatValue<APFloat>().bitwiseIsEqual(
                                     identity.getSplatValue<APFloat>());
  return splat.getSplatValue<APInt>() == identity.getSplatValue<APInt>();
}
