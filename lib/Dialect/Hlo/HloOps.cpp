//===- HloOps.cpp - hlo dialect ops ---------------------------------------===//
//
// Op verifiers delegate HLO's shape rules to HloTypeInference; this file
// checks what is specific to the op (attribute arity, called computations).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace mlir::hlo;

#define GET_OP_CLASSES
#include "Hlo/Dialect/Hlo/HloOps.cpp.inc"

//===----------------------------------------------------------------------===//
// ComputationOp
//===----------------------------------------------------------------------===//

ParseResult ComputationOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &b, ArrayRef<Type> args, ArrayRef<Type> res,
                          function_interface_impl::VariadicFlag,
                          std::string &) {
    return b.getFunctionType(args, res);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void ComputationOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

Value ComputationOp::getRootValue() {
  return cast<ReturnOp>(getBody().front().getTerminator()).getRoot();
}

LogicalResult ComputationOp::verify() {
  if (getBody().empty())
    return emitOpError("needs a body");
  Block &block = getBody().front();
  if (block.getNumArguments() != getFunctionType().getNumInputs())
    return emitOpError("has ") << block.getNumArguments()
                               << " parameters but its type lists "
                               << getFunctionType().getNumInputs();
  for (auto [arg, type] :
       llvm::zip(block.getArgumentTypes(), getFunctionType().getInputs()))
    if (arg != type)
      return emitOpError("parameter type ")
             << arg << " does not match the signature's " << type;
  if (getFunctionType().getNumResults() != 1)
    return emitOpError("must have exactly one result (its ROOT)");
  auto ret = dyn_cast<ReturnOp>(block.getTerminator());
  if (!ret)
    return emitOpError("must end with hlo.return");
  if (ret.getRoot().getType() != getFunctionType().getResult(0))
    return ret.emitOpError("ROOT type ")
           << ret.getRoot().getType() << " does not match the result type "
           << getFunctionType().getResult(0);
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

template <typename OpT> static auto err(OpT op) {
  return [op]() mutable { return op->emitOpError(); };
}

/// Finds the computation `sym` refers to from `from`.
static ComputationOp lookupComputation(Operation *from, FlatSymbolRefAttr sym) {
  if (!sym)
    return {};
  return SymbolTable::lookupNearestSymbolFrom<ComputationOp>(from, sym);
}

/// Checks that `sym` names a computation and, when the caller passes them,
/// that its signature matches.
static LogicalResult
checkCallee(Operation *op, StringRef what, FlatSymbolRefAttr sym,
            std::optional<SmallVector<Type>> args = std::nullopt,
            std::optional<Type> result = std::nullopt) {
  if (!sym)
    return success();
  ComputationOp callee = lookupComputation(op, sym);
  if (!callee) {
    // Computations are resolved only once the op is inside a module.
    if (!op->getParentOfType<ModuleOp>())
      return success();
    return op->emitOpError(what) << " refers to unknown computation " << sym;
  }
  if (!args && !result)
    return success();
  return verifySignature(err(op), what, callee.getFunctionType(),
                         args ? TypeRange(*args) : TypeRange(), result);
}

static ArrayRef<int64_t> orEmpty(std::optional<ArrayRef<int64_t>> v) {
  return v ? *v : ArrayRef<int64_t>();
}

static Type scalarOf(Type t) {
  if (auto shaped = dyn_cast<ShapedType>(t))
    return RankedTensorType::get({}, shaped.getElementType());
  return t;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

#define HLO_UNARY_SAME_SHAPE(OpT)                                              \
  LogicalResult OpT::verify() {                                                \
    return verifySameShape(err(*this), {getOperand().getType()},              \
                           getType(), /*sameElementType=*/false);              \
  }
HLO_UNARY_SAME_SHAPE(AbsOp)
HLO_UNARY_SAME_SHAPE(AcosOp)
HLO_UNARY_SAME_SHAPE(AcoshOp)
HLO_UNARY_SAME_SHAPE(AsinOp)
HLO_UNARY_SAME_SHAPE(AsinhOp)
HLO_UNARY_SAME_SHAPE(AtanhOp)
HLO_UNARY_SAME_SHAPE(CbrtOp)
HLO_UNARY_SAME_SHAPE(CeilOp)
HLO_UNARY_SAME_SHAPE(ClzOp)
HLO_UNARY_SAME_SHAPE(CosOp)
HLO_UNARY_SAME_SHAPE(CoshOp)
HLO_UNARY_SAME_SHAPE(ErfOp)
HLO_UNARY_SAME_SHAPE(ExpOp)
HLO_UNARY_SAME_SHAPE(Expm1Op)
HLO_UNARY_SAME_SHAPE(FloorOp)
HLO_UNARY_SAME_SHAPE(ImagOp)
HLO_UNARY_SAME_SHAPE(IsFiniteOp)
HLO_UNARY_SAME_SHAPE(LogOp)
HLO_UNARY_SAME_SHAPE(Log1pOp)
HLO_UNARY_SAME_SHAPE(LogisticOp)
HLO_UNARY_SAME_SHAPE(NegOp)
HLO_UNARY_SAME_SHAPE(NotOp)
HLO_UNARY_SAME_SHAPE(PopcntOp)
HLO_UNARY_SAME_SHAPE(RealOp)
HLO_UNARY_SAME_SHAPE(RoundAfzOp)
HLO_UNARY_SAME_SHAPE(RoundEvenOp)
HLO_UNARY_SAME_SHAPE(RsqrtOp)
HLO_UNARY_SAME_SHAPE(SignOp)
HLO_UNARY_SAME_SHAPE(SinOp)
HLO_UNARY_SAME_SHAPE(SinhOp)
HLO_UNARY_SAME_SHAPE(SqrtOp)
HLO_UNARY_SAME_SHAPE(TanOp)
HLO_UNARY_SAME_SHAPE(TanhOp)
HLO_UNARY_SAME_SHAPE(CopyOp)
HLO_UNARY_SAME_SHAPE(ConvertOp)
#undef HLO_UNARY_SAME_SHAPE

LogicalResult BitcastConvertOp::verify() {
  auto in = dyn_cast<RankedTensorType>(getOperand().getType());
  auto out = dyn_cast<RankedTensorType>(getType());
  if (!in || !out)
    return emitOpError("operand and result must be arrays");
  unsigned inBits = in.getElementTypeBitWidth();
  unsigned outBits = out.getElementTypeBitWidth();
  if (isa<ComplexType>(in.getElementType()) ||
      isa<ComplexType>(out.getElementType()))
    return success();
  ArrayRef<int64_t> a = in.getShape(), b = out.getShape();
  if (inBits == outBits)
    return verifySameShape(err(*this), {in}, out, false);
  if (inBits > outBits) {
    // One more minor dimension of size inBits/outBits.
    if (b.size() != a.size() + 1 || !dimsCompatible(b.back(), inBits / outBits))
      return emitOpError("converting ")
             << inBits << "-bit to " << outBits
             << "-bit elements needs a minor result dimension of "
             << inBits / outBits;
    return success();
  }
  if (a.size() != b.size() + 1 || !dimsCompatible(a.back(), outBits / inBits))
    return emitOpError("converting ")
           << inBits << "-bit to " << outBits
           << "-bit elements needs a minor operand dimension of "
           << outBits / inBits;
  return success();
}

LogicalResult ReducePrecisionOp::verify() {
  if (getExponentBits() < 1)
    return emitOpError("exponent_bits must be at least 1");
  if (getMantissaBits() < 0)
    return emitOpError("mantissa_bits must be non-negative");
  return verifySameShape(err(*this), {getOperand().getType()}, getType(),
                         true);
}

#define HLO_BINARY(OpT, SAME_ELT)                                              \
  LogicalResult OpT::verify() {                                                \
    return verifySameShape(err(*this),                                         \
                           {getLhs().getType(), getRhs().getType()},           \
                           getType(), SAME_ELT);                               \
  }
HLO_BINARY(AddOp, true)
HLO_BINARY(Atan2Op, true)
HLO_BINARY(AndOp, true)
HLO_BINARY(ComplexOp, false)
HLO_BINARY(DivOp, true)
HLO_BINARY(MaxOp, true)
HLO_BINARY(MinOp, true)
HLO_BINARY(MulOp, true)
HLO_BINARY(MulhiOp, true)
HLO_BINARY(OrOp, true)
HLO_BINARY(PowOp, true)
HLO_BINARY(RemOp, true)
HLO_BINARY(ShiftLeftOp, true)
HLO_BINARY(ShiftRightArithmeticOp, true)
HLO_BINARY(ShiftRightLogicalOp, true)
HLO_BINARY(SubtractOp, true)
HLO_BINARY(XorOp, true)
#undef HLO_BINARY

LogicalResult CompareOp::verify() {
  if (failed(verifySameShape(err(*this),
                             {getLhs().getType(), getRhs().getType()},
                             getType(), false)))
    return failure();
  if (getLhs().getType() != getRhs().getType() &&
      cast<ShapedType>(getLhs().getType()).getElementType() !=
          cast<ShapedType>(getRhs().getType()).getElementType())
    return emitOpError("operands must have the same element type");
  if (!cast<ShapedType>(getType()).getElementType().isInteger(1))
    return emitOpError("result must have element type pred");
  return success();
}

/// `t` is either a scalar or has `result`'s dimensions.
static LogicalResult scalarOrSame(Operation *op, StringRef what, Type t,
                                  Type result) {
  auto tt = dyn_cast<RankedTensorType>(t);
  if (!tt)
    return op->emitOpError(what) << " must be an array";
  if (tt.getRank() == 0 || shapesCompatible(tt, result))
    return success();
  return op->emitOpError(what) << " of type " << t
                               << " must be a scalar or match the result "
                               << result;
}

LogicalResult ClampOp::verify() {
  if (failed(verifySameShape(err(*this), {getOperand().getType()}, getType(),
                             true)) ||
      failed(scalarOrSame(*this, "min", getMin().getType(), getType())) ||
      failed(scalarOrSame(*this, "max", getMax().getType(), getType())))
    return failure();
  return success();
}

LogicalResult SelectOp::verify() {
  if (failed(verifySameShape(err(*this),
                             {getOnTrue().getType(), getOnFalse().getType()},
                             getType(), true)))
    return failure();
  auto pred = dyn_cast<RankedTensorType>(getPred().getType());
  if (!pred || !pred.getElementType().isInteger(1))
    return emitOpError("predicate must be a pred array");
  return scalarOrSame(*this, "predicate", pred, getType());
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

LogicalResult BroadcastOp::verify() {
  return verifyBroadcast(err(*this), getOperand().getType(), getType(),
                         orEmpty(getDimensions()));
}
LogicalResult ReshapeOp::verify() {
  return verifyReshape(err(*this), getOperand().getType(), getType());
}
LogicalResult TransposeOp::verify() {
  return verifyTranspose(err(*this), getOperand().getType(), getType(),
                         getDimensions());
}
LogicalResult ReverseOp::verify() {
  return verifyReverse(err(*this), getOperand().getType(), getType(),
                       getDimensions());
}
LogicalResult SliceOp::verify() {
  SliceAttr s = getSlice();
  return verifySlice(err(*this), getOperand().getType(), getType(),
                     s.getStarts(), s.getLimits(), s.getStrides());
}
LogicalResult ConcatenateOp::verify() {
  return verifyConcatenate(err(*this), getInputs().getTypes(), getType(),
                           getDimensions());
}
LogicalResult PadOp::verify() {
  PaddingAttr p = getPadding();
  return verifyPad(err(*this), getOperand().getType(),
                   getPaddingValue().getType(), getType(), p.getLow(),
                   p.getHigh(), p.getInterior());
}
LogicalResult IotaOp::verify() {
  auto t = dyn_cast<RankedTensorType>(getType());
  if (!t)
    return emitOpError("result must be an array");
  if (getIotaDimension() < 0 || getIotaDimension() >= t.getRank())
    return emitOpError("iota_dimension ")
           << getIotaDimension() << " is out of range for rank "
           << t.getRank();
  return success();
}

/// The shape of a literal attribute must be the result type.
static LogicalResult verifyLiteral(Operation *op, Attribute literal,
                                   Type type) {
  if (!literal)
    return success();
  if (auto elts = dyn_cast<DenseElementsAttr>(literal)) {
    auto rt = dyn_cast<RankedTensorType>(type);
    if (!rt)
      return op->emitOpError("array literal for non-array type ") << type;
    if (elts.getType().getShape() != rt.getShape() ||
        elts.getType().getElementType() != rt.getElementType())
      return op->emitOpError("literal of type ")
             << elts.getType() << " does not match " << type;
    return success();
  }
  if (auto tuple = dyn_cast<ArrayAttr>(literal)) {
    auto tt = dyn_cast<TupleType>(type);
    if (!tt || tt.size() != tuple.size())
      return op->emitOpError("tuple literal does not match type ") << type;
    for (auto [elt, ty] : llvm::zip(tuple, tt.getTypes()))
      if (failed(verifyLiteral(op, elt, ty)))
        return failure();
    return success();
  }
  if (isa<UnitAttr>(literal))
    return success(); // An elided element of a tuple literal.
  return op->emitOpError("unsupported literal attribute ") << literal;
}

LogicalResult ConstantOp::verify() {
  return verifyLiteral(*this, getValueAttr(), getType());
}
LogicalResult DynamicSliceOp::verify() {
  return verifyDynamicSlice(err(*this), getOperand().getType(),
                            getStartIndices().getTypes(), getType(),
                            getDynamicSliceSizes());
}
LogicalResult DynamicUpdateSliceOp::verify() {
  return verifyDynamicUpdateSlice(err(*this), getOperand().getType(),
                                  getUpdate().getType(),
                                  getStartIndices().getTypes(), getType());
}

//===----------------------------------------------------------------------===//
// Tuples and calls
//===----------------------------------------------------------------------===//

LogicalResult TupleOp::verify() {
  auto tt = dyn_cast<TupleType>(getType());
  if (!tt)
    return emitOpError("result must be a tuple");
  if (TypeRange(tt.getTypes()) != getInputs().getTypes())
    return emitOpError("result type ")
           << getType() << " does not match the operand types";
  return success();
}

LogicalResult GetTupleElementOp::verify() {
  auto tt = dyn_cast<TupleType>(getOperand().getType());
  if (!tt)
    return emitOpError("operand must be a tuple, got ")
           << getOperand().getType();
  int64_t i = getIndex();
  if (i < 0 || i >= int64_t(tt.size()))
    return emitOpError("index ") << i << " is out of range for a tuple of "
                                 << tt.size() << " elements";
  if (tt.getType(i) != getType())
    return emitOpError("result type ")
           << getType() << " does not match tuple element " << i << " of type "
           << tt.getType(i);
  return success();
}

LogicalResult CallOp::verify() {
  return checkCallee(*this, "to_apply", getToApplyAttr(),
                     SmallVector<Type>(getInputs().getTypes()), getType());
}
LogicalResult FusionOp::verify() {
  return checkCallee(*this, "calls", getCallsAttr(),
                     SmallVector<Type>(getInputs().getTypes()), getType());
}
LogicalResult MapOp::verify() {
  SmallVector<Type> scalars;
  for (Type t : getInputs().getTypes())
    scalars.push_back(scalarOf(t));
  return checkCallee(*this, "to_apply", getToApplyAttr(), scalars,
                     scalarOf(getType()));
}
LogicalResult WhileOp::verify() {
  Type t = getOperand().getType();
  if (t != getType())
    return emitOpError("result type ")
           << getType() << " must equal the loop state type " << t;
  Type pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(checkCallee(*this, "condition", getConditionAttr(),
                         SmallVector<Type>{t}, pred)))
    return failure();
  return checkCallee(*this, "body", getBodyAttr(), SmallVector<Type>{t}, t);
}

LogicalResult ConditionalOp::verify() {
  auto idx = dyn_cast<RankedTensorType>(getBranchIndex().getType());
  if (!idx || idx.getRank() != 0 ||
      !(idx.getElementType().isInteger(1) ||
        idx.getElementType().isInteger(32)))
    return emitOpError("branch index must be a pred[] or s32[] scalar");
  SmallVector<FlatSymbolRefAttr> branches;
  if (auto arr = getBranchComputationsAttr()) {
    for (Attribute a : arr)
      branches.push_back(cast<FlatSymbolRefAttr>(a));
  } else if (getTrueComputationAttr() && getFalseComputationAttr()) {
    branches = {getTrueComputationAttr(), getFalseComputationAttr()};
  } else {
    return emitOpError(
        "needs branch_computations or true_/false_computation");
  }
  if (branches.size() != getBranchOperands().size())
    return emitOpError("has ") << branches.size() << " branches but "
                               << getBranchOperands().size()
                               << " branch operands";
  for (auto [i, b] : llvm::enumerate(branches))
    if (failed(checkCallee(
            *this, "branch " + std::to_string(i), b,
            SmallVector<Type>{getBranchOperands()[i].getType()}, getType())))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and sorting
//===----------------------------------------------------------------------===//

/// Splits N inputs followed by N init values.
static LogicalResult splitInputsInits(Operation *op, ValueRange all,
                                      TypeRange &inputs, TypeRange &inits) {
  if (all.empty() || all.size() % 2)
    return op->emitOpError("needs N inputs followed by N init values, got ")
           << all.size() << " operands";
  size_t n = all.size() / 2;
  inputs = TypeRange(all).take_front(n);
  inits = TypeRange(all).drop_front(n);
  return success();
}

/// to_apply of reduce/reduce-window/all-reduce: (acc..., x...) -> acc...
static LogicalResult checkReducer(Operation *op, FlatSymbolRefAttr sym,
                                  TypeRange inits) {
  SmallVector<Type> args, scalars;
  for (Type t : inits)
    scalars.push_back(scalarOf(t));
  args.append(scalars);
  args.append(scalars);
  Type result = scalars.size() == 1
                    ? scalars[0]
                    : Type(TupleType::get(op->getContext(), scalars));
  return checkCallee(op, "to_apply", sym, args, result);
}

LogicalResult ReduceOp::verify() {
  TypeRange inputs, inits;
  if (failed(splitInputsInits(*this, getInputs(), inputs, inits)) ||
      failed(verifyReduceDims(err(*this), inputs, inits, getType(),
                              getDimensions())))
    return failure();
  return checkReducer(*this, getToApplyAttr(), inits);
}

LogicalResult ReduceWindowOp::verify() {
  TypeRange inputs, inits;
  if (failed(splitInputsInits(*this, getInputs(), inputs, inits)) ||
      failed(verifyReduceWindow(err(*this), inputs, inits, getType(),
                                getWindowAttr())))
    return failure();
  return checkReducer(*this, getToApplyAttr(), inits);
}

LogicalResult SortOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one operand");
  auto first = dyn_cast<RankedTensorType>(getInputs()[0].getType());
  if (!first)
    return emitOpError("operands must be arrays");
  for (Type t : getInputs().getTypes())
    if (!shapesCompatible(t, first))
      return emitOpError("operands must have the same dimensions");
  if (getDimensions().size() != 1 || getDimensions()[0] < 0 ||
      getDimensions()[0] >= first.getRank())
    return emitOpError("needs one sort dimension within the rank");
  Type expected = getInputs().size() == 1
                      ? getInputs()[0].getType()
                      : Type(TupleType::get(getContext(),
                                            getInputs().getTypes()));
  if (expected != getType())
    return emitOpError("result type ") << getType() << " should be "
                                       << expected;
  SmallVector<Type> args;
  for (Type t : getInputs().getTypes()) {
    args.push_back(scalarOf(t));
    args.push_back(scalarOf(t));
  }
  return checkCallee(*this, "to_apply", getToApplyAttr(), args,
                     RankedTensorType::get({}, IntegerType::get(getContext(), 1)));
}

//===----------------------------------------------------------------------===//
// Linear algebra, gather/scatter, batch norm
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  return verifyDot(err(*this), getLhs().getType(), getRhs().getType(),
                   getType(), orEmpty(getLhsBatchDims()),
                   orEmpty(getLhsContractingDims()), orEmpty(getRhsBatchDims()),
                   orEmpty(getRhsContractingDims()));
}

LogicalResult ConvolutionOp::verify() {
  return verifyConvolution(err(*this), getLhs().getType(), getRhs().getType(),
                           getType(), getWindowAttr(), getDimLabels(),
                           getFeatureGroupCount().value_or(1),
                           getBatchGroupCount().value_or(1));
}

LogicalResult GatherOp::verify() {
  return verifyGather(err(*this), getOperand().getType(),
                      getStartIndices().getType(), getType(), getOffsetDims(),
                      getCollapsedSliceDims(), getStartIndexMap(),
                      getIndexVectorDim(), orEmpty(getOperandBatchingDims()),
                      orEmpty(getStartIndicesBatchingDims()), getSliceSizes());
}

LogicalResult ScatterOp::verify() {
  size_t n = getInputs().size();
  if (n < 3 || (n - 1) % 2)
    return emitOpError("needs N operands, the indices and N updates");
  size_t k = (n - 1) / 2;
  TypeRange operands = TypeRange(getInputs()).take_front(k);
  TypeRange updates = TypeRange(getInputs()).take_back(k);
  if (failed(verifyScatter(err(*this), operands, getInputs()[k].getType(),
                           updates, getType(), getUpdateWindowDims(),
                           getInsertedWindowDims(),
                           getScatterDimsToOperandDims(),
                           getIndexVectorDim())))
    return failure();
  return checkReducer(*this, getToApplyAttr(), operands);
}

/// Batch-norm: `operand` has feature_index in range and the per-feature
/// operands are rank-1 of that feature size.
static LogicalResult verifyBatchNorm(Operation *op, Value operand,
                                     ValueRange perFeature,
                                     int64_t featureIndex) {
  auto t = dyn_cast<RankedTensorType>(operand.getType());
  if (!t)
    return op->emitOpError("operand must be an array");
  if (featureIndex < 0 || featureIndex >= t.getRank())
    return op->emitOpError("feature_index ")
           << featureIndex << " is out of range for rank " << t.getRank();
  int64_t features = t.getDimSize(featureIndex);
  for (Value v : perFeature) {
    auto vt = dyn_cast<RankedTensorType>(v.getType());
    if (!vt || vt.getRank() != 1 || !dimsCompatible(vt.getDimSize(0), features))
      return op->emitOpError("per-feature operand of type ")
             << v.getType() << " must be rank 1 with " << features
             << " elements";
  }
  return success();
}

LogicalResult BatchNormTrainingOp::verify() {
  return verifyBatchNorm(*this, getOperand(), {getScale(), getOffset()},
                         getFeatureIndex());
}
LogicalResult BatchNormInferenceOp::verify() {
  if (failed(verifySameShape(err(*this), {getOperand().getType()}, getType(),
                             true)))
    return failure();
  return verifyBatchNorm(*this, getOperand(),
                         {getScale(), getOffset(), getMean(), getVariance()},
                         getFeatureIndex());
}
LogicalResult BatchNormGradOp::verify() {
  return verifyBatchNorm(*this, getOperand(),
                         {getScale(), getMean(), getVariance()},
                         getFeatureIndex());
}

//===----------------------------------------------------------------------===//
// Async (seed 001)
//===----------------------------------------------------------------------===//

/// Opcodes that have their own -start/-done forms and so may not be wrapped.
static bool hasOwnAsyncForm(Operation *op) {
  return isa<CopyOp, AllReduceOp, AllGatherOp, CollectivePermuteOp, SendOp,
             RecvOp, CopyStartOp, AllReduceStartOp, AllGatherStartOp,
             CollectivePermuteStartOp>(op);
}

/// Each start or update has exactly one user, an update or done.
static LogicalResult verifyAsyncUser(Operation *op) {
  if (!op->getResult(0).hasOneUse())
    return op->emitOpError("must have exactly one user (an async_update or "
                           "async_done), has ")
           << std::distance(op->getUsers().begin(), op->getUsers().end());
  Operation *user = *op->getUsers().begin();
  if (!isa<AsyncUpdateOp, AsyncDoneOp>(user))
    return op->emitOpError("is used by '")
           << user->getName() << "'; only async_update or async_done may";
  return success();
}

/// The operand of an update or done comes from a start or update.
static LogicalResult verifyAsyncOperand(Operation *op, Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || !isa<AsyncStartOp, AsyncUpdateOp>(def))
    return op->emitOpError("operand must be produced by async_start or "
                           "async_update");
  return success();
}

/// Walks back to the start of the chain `v` belongs to.
static AsyncStartOp findStart(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto start = dyn_cast<AsyncStartOp>(def))
      return start;
    if (auto update = dyn_cast<AsyncUpdateOp>(def)) {
      v = update.getOperand();
      continue;
    }
    break;
  }
  return {};
}

LogicalResult AsyncStartOp::verify() {
  auto tt = dyn_cast<TupleType>(getType());
  if (!tt || tt.size() < 2)
    return emitOpError("result must be a tuple ((operands), outputs, "
                       "context...)");
  auto ops = dyn_cast<TupleType>(tt.getType(0));
  if (!ops || TypeRange(ops.getTypes()) != getInputs().getTypes())
    return emitOpError("tuple element 0 must be the tuple of operand types");
  if (failed(verifyAsyncUser(*this)))
    return failure();
  ComputationOp callee = lookupComputation(*this, getCallsAttr());
  if (!callee)
    return checkCallee(*this, "calls", getCallsAttr());
  if (failed(verifySignature(err(*this), "calls", callee.getFunctionType(),
                             getInputs().getTypes(), tt.getType(1))))
    return failure();
  Value root = callee.getRootValue();
  if (Operation *rootOp = root.getDefiningOp())
    if (hasOwnAsyncForm(rootOp))
      return emitOpError("may not wrap '")
             << rootOp->getName()
             << "', which has its own -start/-done form";
  return success();
}

LogicalResult AsyncUpdateOp::verify() {
  if (failed(verifyAsyncOperand(*this, getOperand())))
    return failure();
  if (getOperand().getType() != getType())
    return emitOpError("result type must equal the operand type");
  return verifyAsyncUser(*this);
}

LogicalResult AsyncDoneOp::verify() {
  if (failed(verifyAsyncOperand(*this, getOperand())))
    return failure();
  auto tt = dyn_cast<TupleType>(getOperand().getType());
  if (!tt || tt.size() < 2 || tt.getType(1) != getType())
    return emitOpError("result type ")
           << getType() << " must be element 1 of the start's tuple";
  if (AsyncStartOp start = findStart(getOperand()))
    if (getCallsAttr() && getCallsAttr() != start.getCallsAttr())
      return emitOpError("calls ")
             << getCallsAttr() << " differs from its start's "
             << start.getCallsAttr();
  return success();
}
