//===- HloFolding.cpp - folders and canonicalization of hlo ops -----------===//
//
// `fold` hooks for identities (an op whose result is its operand) and for
// constant operands (elementwise arithmetic as XLA's evaluator computes it:
// integers wrap, f16/bf16 and narrower floats compute in f32 and round once),
// and the canonicalization patterns MLIR users expect (reshape of reshape,
// transpose of transpose, broadcast of broadcast, dynamic-slice at constant
// indices). An instruction with control predecessors is never folded away:
// its ordering edges would be lost.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::hlo;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// True if `a` and `b` have the same structure and dimensions, element
/// types aside (XLA's ShapeUtil::CompatibleIgnoringElementType).
static bool compatibleIgnoringElementType(Type a, Type b) {
  auto ta = dyn_cast<RankedTensorType>(a);
  auto tb = dyn_cast<RankedTensorType>(b);
  if (ta || tb)
    return ta && tb && ta.getShape() == tb.getShape();
  auto ua = dyn_cast<TupleType>(a);
  auto ub = dyn_cast<TupleType>(b);
  if (ua || ub)
    return ua && ub && ua.size() == ub.size() &&
           llvm::all_of(llvm::zip(ua.getTypes(), ub.getTypes()), [](auto p) {
             return compatibleIgnoringElementType(std::get<0>(p),
                                                  std::get<1>(p));
           });
  return a == b;
}

void mlir::hlo::transferInstructionAttrs(Operation *from, Operation *to) {
  if (Attribute a = from->getAttr("frontend_attributes");
      a && !to->getAttr("frontend_attributes"))
    to->setAttr("frontend_attributes", a);
  // A sharding describes a shape: as XLA's SetupDerivedInstruction, it
  // carries over only to a result of the same structure and dimensions.
  if (Attribute a = from->getAttr("sharding");
      a && !to->getAttr("sharding") && from->getNumResults() == 1 &&
      to->getNumResults() == 1 &&
      compatibleIgnoringElementType(from->getResult(0).getType(),
                                    to->getResult(0).getType()))
    to->setAttr("sharding", a);
  to->setLoc(FusedLoc::get(to->getContext(), {to->getLoc(), from->getLoc()}));
  auto src = dyn_cast<InstructionOpInterface>(from);
  auto dst = dyn_cast<InstructionOpInterface>(to);
  if (src && dst && !src.getControlPredecessors().empty())
    dst.getControlPredecessorsMutable().append(src.getControlPredecessors());
}

Operation *mlir::hlo::createInstruction(OpBuilder &builder, Location loc,
                                        StringRef name, Type type,
                                        ValueRange operands,
                                        ArrayRef<NamedAttribute> attrs) {
  OperationState state(loc, name);
  addInstructionOperands(state, operands, {});
  state.addTypes(type ? type : NoneType::get(builder.getContext()));
  state.addAttributes(attrs);
  Operation *op = Operation::create(state);
  if (!type) {
    FailureOr<Type> inferred = inferInstructionType(op);
    if (failed(inferred)) {
      op->destroy();
      return nullptr;
    }
    op->getResult(0).setType(*inferred);
  }
  return builder.insert(op);
}

FailureOr<Type> mlir::hlo::inferInstructionType(Operation *op) {
  auto infer = dyn_cast<InferTypeOpInterface>(op);
  if (!infer)
    return op->emitOpError("has no result type rule: its result type must "
                           "be given");
  SmallVector<Type, 1> types;
  if (failed(infer.inferReturnTypes(
          op->getContext(), op->getLoc(), op->getOperands(),
          op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
          op->getRegions(), types)))
    return failure();
  return types.front();
}

/// True if folding `op` away would lose nothing but the op.
static bool foldable(Operation *op) {
  auto inst = cast<InstructionOpInterface>(op);
  return inst.getControlPredecessors().empty();
}

/// `operand` if it has exactly the type `result` (layout included).
static OpFoldResult same(Operation *op, Value operand, Type result) {
  if (foldable(op) && operand.getType() == result)
    return operand;
  return {};
}

/// `type` without its layout: the type a literal attribute carries.
static RankedTensorType literalType(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  if (!t || !t.hasStaticShape())
    return {};
  return RankedTensorType::get(t.getShape(), t.getElementType());
}

static bool isIdentityPermutation(ArrayRef<int64_t> perm) {
  for (auto [i, p] : llvm::enumerate(perm))
    if (p != int64_t(i))
      return false;
  return true;
}

/// A float computation as XLA's evaluator does it: narrow floats in f32,
/// rounded once to the element type.
static APFloat inF32(APFloat a, APFloat b,
                     function_ref<APFloat(APFloat, APFloat)> fn) {
  const llvm::fltSemantics &sem = a.getSemantics();
  if (APFloat::getSizeInBits(sem) >= 32)
    return fn(a, b);
  bool lost;
  a.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
  b.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
  APFloat r = fn(a, b);
  r.convert(sem, APFloat::rmNearestTiesToEven, &lost);
  return r;
}

/// Folds a binary elementwise op of two constants with `intFn` (integers,
/// `isUnsigned` from the element type) or `floatFn`.
static Attribute
foldBinary(Operation *op, ArrayRef<Attribute> operands,
           function_ref<APInt(const APInt &, const APInt &, bool)> intFn,
           function_ref<APFloat(APFloat, APFloat)> floatFn) {
  RankedTensorType type = literalType(op->getResult(0).getType());
  if (!type || !foldable(op))
    return {};
  Type elt = type.getElementType();
  if (auto intType = dyn_cast<IntegerType>(elt)) {
    if (!intFn)
      return {};
    bool isUnsigned = intType.isUnsigned() || intType.getWidth() == 1;
    return constFoldBinaryOp<IntegerAttr, APInt, void>(
        operands, type, [&](const APInt &a, const APInt &b) {
          return intFn(a, b, isUnsigned);
        });
  }
  if (isa<FloatType>(elt) && floatFn)
    return constFoldBinaryOp<FloatAttr, APFloat, void>(
        operands, type,
        [&](const APFloat &a, const APFloat &b) { return inF32(a, b, floatFn); });
  return {};
}

/// True if `attr` is a constant whose every element is `value`.
static bool isSplatInt(Attribute attr, int64_t value) {
  auto splat = dyn_cast_or_null<SplatElementsAttr>(attr);
  if (!splat || !isa<IntegerType>(splat.getElementType()))
    return false;
  APInt v = splat.getSplatValue<APInt>();
  return v == APInt(v.getBitWidth(), value, /*isSigned=*/true);
}
static bool isSplatFloat(Attribute attr, double value) {
  auto splat = dyn_cast_or_null<SplatElementsAttr>(attr);
  return splat && isa<FloatType>(splat.getElementType()) &&
         splat.getSplatValue<APFloat>().isExactlyValue(value);
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  // x + 0 = x for integers (for floats, -0 + 0 is +0).
  if (isSplatInt(adaptor.getRhs(), 0))
    if (OpFoldResult r = same(*this, getLhs(), getType()))
      return r;
  return foldBinary(
      *this, adaptor.getOperands(),
      [](const APInt &a, const APInt &b, bool) { return a + b; },
      [](APFloat a, APFloat b) { return a + b; });
}

OpFoldResult SubtractOp::fold(FoldAdaptor adaptor) {
  if (isSplatInt(adaptor.getRhs(), 0))
    if (OpFoldResult r = same(*this, getLhs(), getType()))
      return r;
  return foldBinary(
      *this, adaptor.getOperands(),
      [](const APInt &a, const APInt &b, bool) { return a - b; },
      [](APFloat a, APFloat b) { return a - b; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (isSplatInt(adaptor.getRhs(), 1) || isSplatFloat(adaptor.getRhs(), 1.0))
    if (OpFoldResult r = same(*this, getLhs(), getType()))
      return r;
  return foldBinary(
      *this, adaptor.getOperands(),
      [](const APInt &a, const APInt &b, bool) { return a * b; },
      [](APFloat a, APFloat b) { return a * b; });
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return same(*this, getLhs(), getType());
  // XLA's maximum propagates NaN.
  return foldBinary(
      *this, adaptor.getOperands(),
      [](const APInt &a, const APInt &b, bool u) {
        return (u ? a.uge(b) : a.sge(b)) ? a : b;
      },
      [](APFloat a, APFloat b) { return llvm::maximum(a, b); });
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return same(*this, getLhs(), getType());
  return foldBinary(
      *this, adaptor.getOperands(),
      [](const APInt &a, const APInt &b, bool u) {
        return (u ? a.ule(b) : a.sle(b)) ? a : b;
      },
      [](APFloat a, APFloat b) { return llvm::minimum(a, b); });
}

OpFoldResult AndOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() || isSplatInt(adaptor.getRhs(), -1))
    if (OpFoldResult r = same(*this, getLhs(), getType()))
      return r;
  return foldBinary(
      *this, adaptor.getOperands(),
      [](const APInt &a, const APInt &b, bool) { return a & b; }, nullptr);
}

OpFoldResult OrOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() || isSplatInt(adaptor.getRhs(), 0))
    if (OpFoldResult r = same(*this, getLhs(), getType()))
      return r;
  return foldBinary(
      *this, adaptor.getOperands(),
      [](const APInt &a, const APInt &b, bool) { return a | b; }, nullptr);
}

OpFoldResult XorOp::fold(FoldAdaptor adaptor) {
  if (isSplatInt(adaptor.getRhs(), 0))
    if (OpFoldResult r = same(*this, getLhs(), getType()))
      return r;
  return foldBinary(
      *this, adaptor.getOperands(),
      [](const APInt &a, const APInt &b, bool) { return a ^ b; }, nullptr);
}

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  // negate(negate(x)) = x.
  if (auto inner = getOperand().getDefiningOp<NegOp>())
    if (foldable(inner))
      if (OpFoldResult r = same(*this, inner.getOperand(), getType()))
        return r;
  RankedTensorType type = literalType(getType());
  if (!type || !foldable(*this))
    return {};
  if (isa<IntegerType>(type.getElementType()))
    return constFoldUnaryOp<IntegerAttr, APInt, void>(
        adaptor.getOperands(), type, [](const APInt &a) { return -a; });
  if (isa<FloatType>(type.getElementType()))
    return constFoldUnaryOp<FloatAttr, APFloat, void>(
        adaptor.getOperands(), type, [](const APFloat &a) { return -a; });
  return {};
}

OpFoldResult NotOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getOperand().getDefiningOp<NotOp>())
    if (foldable(inner))
      if (OpFoldResult r = same(*this, inner.getOperand(), getType()))
        return r;
  RankedTensorType type = literalType(getType());
  if (!type || !foldable(*this) || !isa<IntegerType>(type.getElementType()))
    return {};
  return constFoldUnaryOp<IntegerAttr, APInt, void>(
      adaptor.getOperands(), type, [](const APInt &a) { return ~a; });
}

OpFoldResult ConvertOp::fold(FoldAdaptor) {
  return same(*this, getOperand(), getType());
}

OpFoldResult BitcastConvertOp::fold(FoldAdaptor) {
  return same(*this, getOperand(), getType());
}

OpFoldResult SelectOp::fold(FoldAdaptor adaptor) {
  if (getOnTrue() == getOnFalse())
    return same(*this, getOnTrue(), getType());
  auto pred = dyn_cast_or_null<SplatElementsAttr>(adaptor.getPred());
  if (!pred)
    return {};
  return same(*this, pred.getSplatValue<bool>() ? getOnTrue() : getOnFalse(),
              getType());
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

OpFoldResult BitcastOp::fold(FoldAdaptor) {
  return same(*this, getOperand(), getType());
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = same(*this, getOperand(), getType()))
    return r;
  auto value = dyn_cast_or_null<DenseElementsAttr>(adaptor.getOperand());
  RankedTensorType type = literalType(getType());
  if (!value || !type || !foldable(*this))
    return {};
  return value.reshape(type);
}

LogicalResult ReshapeOp::canonicalize(ReshapeOp op, PatternRewriter &rewriter) {
  // reshape(reshape(x)) = reshape(x).
  auto inner = op.getOperand().getDefiningOp<ReshapeOp>();
  if (!inner || !foldable(inner))
    return failure();
  rewriter.modifyOpInPlace(
      op, [&] { op.getOperandMutable().assign(inner.getOperand()); });
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> dims =
      getDimensions() ? *getDimensions() : ArrayRef<int64_t>();
  if (isIdentityPermutation(dims))
    if (OpFoldResult r = same(*this, getOperand(), getType()))
      return r;
  // A broadcast constant is not folded into a larger literal: as in XLA
  // (HloConstantFolding leaves broadcasts alone), the literal would cost
  // memory, transfer and text for no computation saved. Only a result with
  // no more elements than the operand folds.
  auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getOperand());
  RankedTensorType type = literalType(getType());
  if (!splat || !type || !foldable(*this) ||
      type.getNumElements() > splat.getType().getNumElements())
    return {};
  return SplatElementsAttr::get(type, splat.getSplatValue<Attribute>());
}

/// The positions of `to`'s dimensions that a reshape from `from` to `to`
/// inserts when all it does is insert dimensions of size 1; nothing
/// otherwise.
static std::optional<SmallVector<int64_t>>
insertedUnitDims(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  SmallVector<int64_t> inserted;
  size_t i = 0;
  for (auto [j, size] : llvm::enumerate(to)) {
    if (i < from.size() && from[i] == size)
      ++i;
    else if (size == 1)
      inserted.push_back(j);
    else
      return std::nullopt;
  }
  if (i != from.size())
    return std::nullopt;
  return inserted;
}

/// broadcast(reshape(x)) where the reshape only inserts dimensions of size
/// 1: broadcast(x) (XLA's algebraic simplifier elides such a reshape).
static LogicalResult broadcastOfUnitReshape(BroadcastOp op,
                                            PatternRewriter &rewriter) {
  auto reshape = op.getOperand().getDefiningOp<ReshapeOp>();
  auto from = reshape
                  ? dyn_cast<RankedTensorType>(reshape.getOperand().getType())
                  : nullptr;
  auto to = reshape ? dyn_cast<RankedTensorType>(reshape.getType()) : nullptr;
  if (!from || !to || !foldable(reshape) || !op.getDimensions() ||
      !from.hasStaticShape() || !to.hasStaticShape())
    return failure();
  std::optional<SmallVector<int64_t>> inserted =
      insertedUnitDims(from.getShape(), to.getShape());
  if (!inserted || inserted->empty())
    return failure();
  SmallVector<int64_t> dims;
  for (auto [j, d] : llvm::enumerate(*op.getDimensions()))
    if (!llvm::is_contained(*inserted, int64_t(j)))
      dims.push_back(d);
  rewriter.modifyOpInPlace(op, [&] {
    op.getOperandMutable().assign(reshape.getOperand());
    op.setDimensions(dims);
  });
  return success();
}

LogicalResult BroadcastOp::canonicalize(BroadcastOp op,
                                        PatternRewriter &rewriter) {
  if (succeeded(broadcastOfUnitReshape(op, rewriter)))
    return success();
  // broadcast(broadcast(x)): operand dimension i of x lands in result
  // dimension outer[inner[i]].
  auto inner = op.getOperand().getDefiningOp<BroadcastOp>();
  if (!inner || !foldable(inner) || !op.getDimensions() ||
      !inner.getDimensions())
    return failure();
  ArrayRef<int64_t> innerDims = *inner.getDimensions();
  ArrayRef<int64_t> outerDims = *op.getDimensions();
  SmallVector<int64_t> dims;
  for (int64_t d : innerDims)
    dims.push_back(outerDims[d]);
  rewriter.modifyOpInPlace(op, [&] {
    op.getOperandMutable().assign(inner.getOperand());
    op.setDimensions(dims);
  });
  return success();
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  if (!isIdentityPermutation(getDimensions()))
    return {};
  return same(*this, getOperand(), getType());
}

LogicalResult TransposeOp::canonicalize(TransposeOp op,
                                        PatternRewriter &rewriter) {
  // transpose(transpose(x)): result dimension i is x's dimension
  // inner[outer[i]].
  auto inner = op.getOperand().getDefiningOp<TransposeOp>();
  if (!inner || !foldable(inner))
    return failure();
  SmallVector<int64_t> perm;
  for (int64_t d : op.getDimensions())
    perm.push_back(inner.getDimensions()[d]);
  rewriter.modifyOpInPlace(op, [&] {
    op.getOperandMutable().assign(inner.getOperand());
    op.setDimensions(perm);
  });
  return success();
}

OpFoldResult ReverseOp::fold(FoldAdaptor) {
  auto t = dyn_cast<RankedTensorType>(getOperand().getType());
  if (!t)
    return {};
  for (int64_t d : getDimensions())
    if (t.getDimSize(d) != 1)
      return {};
  return same(*this, getOperand(), getType());
}

OpFoldResult SliceOp::fold(FoldAdaptor) {
  auto t = dyn_cast<RankedTensorType>(getOperand().getType());
  SliceAttr s = getSlice();
  if (!t || !t.hasStaticShape() ||
      ArrayRef<int64_t>(s.getLimits()) != t.getShape() ||
      llvm::any_of(s.getStarts(), [](int64_t v) { return v != 0; }) ||
      llvm::any_of(s.getStrides(), [](int64_t v) { return v != 1; }))
    return {};
  return same(*this, getOperand(), getType());
}

OpFoldResult PadOp::fold(FoldAdaptor) {
  PaddingAttr p = getPadding();
  for (ArrayRef<int64_t> v : {p.getLow(), p.getHigh(), p.getInterior()})
    if (llvm::any_of(v, [](int64_t x) { return x != 0; }))
      return {};
  return same(*this, getOperand(), getType());
}

OpFoldResult ConcatenateOp::fold(FoldAdaptor) {
  if (getInputs().size() != 1)
    return {};
  return same(*this, getInputs()[0], getType());
}

OpFoldResult GetTupleElementOp::fold(FoldAdaptor) {
  auto tuple = getOperand().getDefiningOp<TupleOp>();
  if (!tuple || getIndex() < 0 || getIndex() >= int64_t(tuple.getInputs().size()))
    return {};
  return same(*this, tuple.getInputs()[getIndex()], getType());
}

OpFoldResult DynamicSliceOp::fold(FoldAdaptor) {
  auto t = dyn_cast<RankedTensorType>(getOperand().getType());
  if (!t || !t.hasStaticShape() || getDynamicSliceSizes() != t.getShape())
    return {};
  return same(*this, getOperand(), getType());
}

LogicalResult DynamicSliceOp::canonicalize(DynamicSliceOp op,
                                           PatternRewriter &rewriter) {
  // Constant start indices: a static slice, with the indices clamped into
  // the operand as dynamic-slice clamps them.
  auto t = dyn_cast<RankedTensorType>(op.getOperand().getType());
  if (!t || !t.hasStaticShape() || !foldable(op))
    return failure();
  SmallVector<int64_t> starts, limits, strides;
  for (auto [d, index] : llvm::enumerate(op.getStartIndices())) {
    APInt v;
    if (!matchPattern(index, m_ConstantInt(&v)))
      return failure();
    int64_t size = op.getDynamicSliceSizes()[d];
    bool isUnsigned = cast<ShapedType>(index.getType())
                          .getElementType()
                          .isUnsignedInteger();
    // Unsigned indices past int64 clamp to the end, as XLA's do.
    int64_t start = !isUnsigned              ? v.getSExtValue()
                    : v.getActiveBits() < 64 ? int64_t(v.getZExtValue())
                                             : INT64_MAX;
    start = std::clamp<int64_t>(start, 0, t.getDimSize(d) - size);
    starts.push_back(start);
    limits.push_back(start + size);
    strides.push_back(1);
  }
  auto slice =
      SliceAttr::get(op.getContext(), starts, limits, strides);
  Operation *replacement = createInstruction(
      rewriter, op.getLoc(), SliceOp::getOperationName(), op.getType(),
      op.getOperand(), {rewriter.getNamedAttr("slice", slice)});
  transferInstructionAttrs(op, replacement);
  rewriter.replaceOp(op, replacement->getResults());
  return success();
}
