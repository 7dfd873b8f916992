//===- HloInferTypes.cpp - result types HLO infers ------------------------===//
//
// The ops whose result type HLO determines from their operands and
// attributes. For each, one `inferResult` function checks the operands and
// attributes and computes the result type through the shape rules of
// HloTypeInference.h; it serves three callers:
//   - `inferReturnTypes` (InferTypeOpInterface), used by the builders that
//     take no result type, by MLIR's verification of inferred types and by
//     the importer for an instruction written without a shape;
//   - the op's `verify()`, which reports the first operand error with the
//     op's name and compares the declared result (layouts ignored) with the
//     inferred one;
//   - `isCompatibleReturnTypes`, which accepts any layout, a dynamic
//     dimension for a static one and, for dot and convolution, another
//     element type (XLA's preferred element type).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "HloTypeInferenceImpl.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// Emits at `loc` (an unknown location when there is none, as for a builder
/// called without one).
struct LocError {
  MLIRContext *ctx;
  std::optional<Location> loc;
  InFlightDiagnostic operator()() const {
    return emitError(loc ? *loc : UnknownLoc::get(ctx));
  }
};
} // namespace

template <typename OpT> static auto err(OpT op) {
  return [op]() mutable { return op->emitOpError(); };
}

static ArrayRef<int64_t> orEmpty(std::optional<ArrayRef<int64_t>> v) {
  return v ? *v : ArrayRef<int64_t>();
}

static Type scalar(Type elementType) {
  return RankedTensorType::get({}, elementType);
}

static Type withElementType(Type t, Type elementType) {
  return cast<RankedTensorType>(t).clone(elementType);
}

/// `t` is an array whose elements are of one of `kinds`.
static FailureOr<Type> arrayOfKind(EmitErrorFn e, StringRef what, Type t,
                                   unsigned kinds) {
  if (failed(getDims(t, e, what)) ||
      failed(verifyElementKind(e, what, t, kinds)))
    return failure();
  return t;
}

static LogicalResult checkToken(EmitErrorFn e, StringRef what, Type t) {
  if (isa<TokenType>(t))
    return success();
  return e() << what << " must be a token, got " << t;
}

/// Defines the three entry points of an op with an `inferResult`.
#define HLO_INFERRED_OP(OpT, ANY_ELEMENT_TYPE)                                 \
  LogicalResult OpT::inferReturnTypes(MLIRContext *ctx,                        \
                                      std::optional<Location> loc, Adaptor a,  \
                                      SmallVectorImpl<Type> &types) {          \
    FailureOr<Type> t = inferResult(ctx, LocError{ctx, loc}, a);               \
    if (failed(t))                                                             \
      return failure();                                                        \
    types.push_back(*t);                                                       \
    return success();                                                          \
  }                                                                            \
  bool OpT::isCompatibleReturnTypes(TypeRange l, TypeRange r) {                \
    return l.size() == 1 && r.size() == 1 &&                                   \
           isCompatibleResult(l[0], r[0], ANY_ELEMENT_TYPE);                   \
  }                                                                            \
  LogicalResult OpT::verify() {                                                \
    FailureOr<Type> t = inferResult(getContext(), err(*this), Adaptor(*this)); \
    if (failed(t))                                                             \
      return failure();                                                        \
    return verifyInferredType(err(*this), *t, getType(), ANY_ELEMENT_TYPE);    \
  }

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// Unary ops whose result has the operand's type; `KINDS` are the element
/// types HLO accepts.
#define HLO_UNARY_SAME_TYPE(OpT, KINDS)                                        \
  static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,             \
                                     OpT::Adaptor a) {                         \
    return arrayOfKind(e, "operand", a.getOperand().getType(), KINDS);         \
  }                                                                            \
  HLO_INFERRED_OP(OpT, false)
HLO_UNARY_SAME_TYPE(AcosOp, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(AcoshOp, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(AsinOp, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(AsinhOp, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(AtanhOp, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(CbrtOp, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(CeilOp, kFloatKind)
HLO_UNARY_SAME_TYPE(ClzOp, kIntegralKind)
HLO_UNARY_SAME_TYPE(CosOp, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(CoshOp, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(ErfOp, kFloatKind)
HLO_UNARY_SAME_TYPE(ExpOp, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(Expm1Op, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(FloorOp, kFloatKind)
HLO_UNARY_SAME_TYPE(LogOp, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(Log1pOp, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(LogisticOp, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(NegOp, kNumericKind)
HLO_UNARY_SAME_TYPE(NotOp, kPredKind | kIntegralKind)
HLO_UNARY_SAME_TYPE(PopcntOp, kIntegralKind)
HLO_UNARY_SAME_TYPE(RoundAfzOp, kFloatKind)
HLO_UNARY_SAME_TYPE(RoundEvenOp, kFloatKind)
HLO_UNARY_SAME_TYPE(RsqrtOp, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(SignOp, kSignedKind | kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(SinOp, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(SinhOp, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(SqrtOp, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(TanOp, kFloatOrComplexKind)
HLO_UNARY_SAME_TYPE(TanhOp, kFloatOrComplexKind)
#undef HLO_UNARY_SAME_TYPE

/// abs, real and imag: a complex operand gives its component type, any other
/// operand its own type.
static FailureOr<Type> complexToReal(EmitErrorFn e, Type operand,
                                     unsigned kinds) {
  if (failed(arrayOfKind(e, "operand", operand, kinds)))
    return failure();
  Type elt = cast<RankedTensorType>(operand).getElementType();
  if (auto c = dyn_cast<ComplexType>(elt))
    return withElementType(operand, c.getElementType());
  return operand;
}
static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   AbsOp::Adaptor a) {
  return complexToReal(e, a.getOperand().getType(),
                       kSignedKind | kFloatOrComplexKind);
}
HLO_INFERRED_OP(AbsOp, false)
static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   RealOp::Adaptor a) {
  return complexToReal(e, a.getOperand().getType(), kFloatOrComplexKind);
}
HLO_INFERRED_OP(RealOp, false)
static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   ImagOp::Adaptor a) {
  return complexToReal(e, a.getOperand().getType(), kFloatOrComplexKind);
}
HLO_INFERRED_OP(ImagOp, false)

static FailureOr<Type> inferResult(MLIRContext *ctx, EmitErrorFn e,
                                   IsFiniteOp::Adaptor a) {
  Type t = a.getOperand().getType();
  if (failed(arrayOfKind(e, "operand", t, kFloatKind)))
    return failure();
  return withElementType(t, IntegerType::get(ctx, 1));
}
HLO_INFERRED_OP(IsFiniteOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn,
                                   CopyOp::Adaptor a) {
  // copy also copies tuples (shallowly).
  return a.getOperand().getType();
}
HLO_INFERRED_OP(CopyOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   ReducePrecisionOp::Adaptor a) {
  int64_t exponentBits = a.getExponentBits();
  int64_t mantissaBits = a.getMantissaBits();
  if (exponentBits < 1)
    return e() << "exponent_bits (" << exponentBits << ") must be at least 1";
  if (mantissaBits < 0)
    return e() << "mantissa_bits (" << mantissaBits << ") must be non-negative";
  return arrayOfKind(e, "operand", a.getOperand().getType(), kFloatKind);
}
HLO_INFERRED_OP(ReducePrecisionOp, false)

/// Two arrays of compatible dimensions; with `sameElementType`, of one
/// element type too. Returns the lhs type.
static FailureOr<Type> sameShapes(EmitErrorFn e, Type lhs, Type rhs,
                                  bool sameElementType) {
  auto l = getDims(lhs, e, "lhs");
  if (failed(l))
    return failure();
  auto r = getDims(rhs, e, "rhs");
  if (failed(r))
    return failure();
  if (!shapesCompatible(lhs, rhs))
    return e() << "operand dimensions " << hlo::detail::str(*l) << " and "
               << hlo::detail::str(*r) << " do not match";
  Type le = cast<RankedTensorType>(lhs).getElementType();
  Type re = cast<RankedTensorType>(rhs).getElementType();
  if (sameElementType && le != re)
    return e() << "operands must have the same element type, got " << le
               << " and " << re;
  return lhs;
}

/// Binary ops whose operands and result share one element type of `KINDS`.
#define HLO_BINARY(OpT, KINDS)                                                 \
  static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,             \
                                     OpT::Adaptor a) {                         \
    FailureOr<Type> t =                                                        \
        sameShapes(e, a.getLhs().getType(), a.getRhs().getType(), true);       \
    if (failed(t))                                                             \
      return failure();                                                        \
    return arrayOfKind(e, "operands", *t, KINDS);                              \
  }                                                                            \
  HLO_INFERRED_OP(OpT, false)
HLO_BINARY(AddOp, kAnyKind)
HLO_BINARY(Atan2Op, kFloatOrComplexKind)
HLO_BINARY(AndOp, kPredKind | kIntegralKind)
HLO_BINARY(DivOp, kNumericKind)
HLO_BINARY(MaxOp, kAnyKind)
HLO_BINARY(MinOp, kAnyKind)
HLO_BINARY(MulOp, kAnyKind)
HLO_BINARY(MulhiOp, kIntegralKind)
HLO_BINARY(OrOp, kPredKind | kIntegralKind)
HLO_BINARY(PowOp, kNumericKind)
HLO_BINARY(RemOp, kNumericKind)
HLO_BINARY(ShiftLeftOp, kIntegralKind)
HLO_BINARY(ShiftRightArithmeticOp, kIntegralKind)
HLO_BINARY(ShiftRightLogicalOp, kIntegralKind)
HLO_BINARY(SubtractOp, kNumericKind)
HLO_BINARY(XorOp, kPredKind | kIntegralKind)
#undef HLO_BINARY

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   ComplexOp::Adaptor a) {
  FailureOr<Type> t =
      sameShapes(e, a.getLhs().getType(), a.getRhs().getType(), true);
  if (failed(t))
    return failure();
  Type elt = cast<RankedTensorType>(*t).getElementType();
  if (!elt.isF32() && !elt.isF64())
    return e() << "operands must have f32 or f64 elements, got " << elt;
  return withElementType(*t, ComplexType::get(elt));
}
HLO_INFERRED_OP(ComplexOp, false)

static FailureOr<Type> inferResult(MLIRContext *ctx, EmitErrorFn e,
                                   CompareOp::Adaptor a) {
  FailureOr<Type> t =
      sameShapes(e, a.getLhs().getType(), a.getRhs().getType(), true);
  if (failed(t))
    return failure();
  return withElementType(*t, IntegerType::get(ctx, 1));
}
HLO_INFERRED_OP(CompareOp, false)

/// `t` is a scalar or an array of `operand`'s dimensions; with
/// `sameElementType`, of its element type too.
static LogicalResult scalarOrSame(EmitErrorFn e, StringRef what, Type t,
                                  Type operand, bool sameElementType) {
  auto tt = dyn_cast<RankedTensorType>(t);
  if (!tt)
    return e() << what << " must be an array, got " << t;
  if (tt.getRank() != 0 && !shapesCompatible(tt, operand))
    return e() << what << " of type " << t
               << " must be a scalar or have the dimensions of " << operand;
  Type elt = cast<RankedTensorType>(operand).getElementType();
  if (sameElementType && tt.getElementType() != elt)
    return e() << what << " element type " << tt.getElementType()
               << " differs from " << elt;
  return success();
}

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   ClampOp::Adaptor a) {
  Type t = a.getOperand().getType();
  if (failed(getDims(t, e, "operand")) ||
      failed(scalarOrSame(e, "min", a.getMin().getType(), t, true)) ||
      failed(scalarOrSame(e, "max", a.getMax().getType(), t, true)))
    return failure();
  return t;
}
HLO_INFERRED_OP(ClampOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   SelectOp::Adaptor a) {
  FailureOr<Type> t =
      sameShapes(e, a.getOnTrue().getType(), a.getOnFalse().getType(), true);
  if (failed(t))
    return failure();
  auto pred = dyn_cast<RankedTensorType>(a.getPred().getType());
  if (!pred || !pred.getElementType().isInteger(1))
    return e() << "predicate must be a pred array, got "
               << a.getPred().getType();
  if (failed(scalarOrSame(e, "predicate", pred, *t, false)))
    return failure();
  return t;
}
HLO_INFERRED_OP(SelectOp, false)

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   TransposeOp::Adaptor a) {
  return inferTranspose(e, a.getOperand().getType(), a.getDimensions());
}
HLO_INFERRED_OP(TransposeOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   ReverseOp::Adaptor a) {
  return inferReverse(e, a.getOperand().getType(), a.getDimensions());
}
HLO_INFERRED_OP(ReverseOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   SliceOp::Adaptor a) {
  SliceAttr s = a.getSlice();
  return inferSlice(e, a.getOperand().getType(), s.getStarts(), s.getLimits(),
                    s.getStrides());
}
HLO_INFERRED_OP(SliceOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   ConcatenateOp::Adaptor a) {
  return inferConcatenate(e, TypeRange(a.getInputs()), a.getDimensions());
}
HLO_INFERRED_OP(ConcatenateOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   PadOp::Adaptor a) {
  PaddingAttr p = a.getPadding();
  return inferPad(e, a.getOperand().getType(), a.getPaddingValue().getType(),
                  p.getLow(), p.getHigh(), p.getInterior());
}
HLO_INFERRED_OP(PadOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   DynamicSliceOp::Adaptor a) {
  return inferDynamicSlice(e, a.getOperand().getType(),
                           TypeRange(a.getStartIndices()),
                           a.getDynamicSliceSizes());
}
HLO_INFERRED_OP(DynamicSliceOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   DynamicUpdateSliceOp::Adaptor a) {
  return inferDynamicUpdateSlice(e, a.getOperand().getType(),
                                 a.getUpdate().getType(),
                                 TypeRange(a.getStartIndices()));
}
HLO_INFERRED_OP(DynamicUpdateSliceOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   GetDimensionSizeOp::Adaptor a) {
  return inferGetDimensionSize(e, a.getOperand().getType(), a.getDimensions());
}
HLO_INFERRED_OP(GetDimensionSizeOp, false)

//===----------------------------------------------------------------------===//
// Tuples, loops, tokens
//===----------------------------------------------------------------------===//

static FailureOr<Type> inferResult(MLIRContext *ctx, EmitErrorFn,
                                   TupleOp::Adaptor a) {
  return Type(TupleType::get(ctx, TypeRange(a.getInputs())));
}
HLO_INFERRED_OP(TupleOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   GetTupleElementOp::Adaptor a) {
  auto tt = dyn_cast<TupleType>(a.getOperand().getType());
  if (!tt)
    return e() << "operand must be a tuple, got " << a.getOperand().getType();
  int64_t i = a.getIndex();
  if (i < 0 || i >= int64_t(tt.size()))
    return e() << "index " << i << " is out of range for a tuple of "
               << tt.size() << " elements";
  return tt.getType(i);
}
HLO_INFERRED_OP(GetTupleElementOp, false)

/// Ops whose result is their (first) operand: the loop state of while, the
/// value passing an optimization barrier or a domain.
#define HLO_PASS_THROUGH(OpT)                                                  \
  static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn,               \
                                     OpT::Adaptor a) {                         \
    return a.getOperand().getType();                                           \
  }                                                                            \
  HLO_INFERRED_OP(OpT, false)
HLO_PASS_THROUGH(WhileOp)
HLO_PASS_THROUGH(OptimizationBarrierOp)
HLO_PASS_THROUGH(DomainOp)
#undef HLO_PASS_THROUGH

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   AddDependencyOp::Adaptor a) {
  if (failed(checkToken(e, "token operand", a.getToken().getType())))
    return failure();
  return a.getOperand().getType();
}
HLO_INFERRED_OP(AddDependencyOp, false)

static FailureOr<Type> inferResult(MLIRContext *ctx, EmitErrorFn e,
                                   AfterAllOp::Adaptor a) {
  for (Type t : TypeRange(a.getInputs()))
    if (failed(checkToken(e, "operand", t)))
      return failure();
  return Type(TokenType::get(ctx));
}
HLO_INFERRED_OP(AfterAllOp, false)

//===----------------------------------------------------------------------===//
// Reductions, windows, sorting
//===----------------------------------------------------------------------===//

/// Splits N inputs followed by N init values.
static LogicalResult splitInputsInits(EmitErrorFn e, ValueRange all,
                                      TypeRange &inputs, TypeRange &inits) {
  if (all.empty() || all.size() % 2)
    return e() << "needs N inputs followed by N init values, got " << all.size()
               << " operands";
  size_t n = all.size() / 2;
  inputs = TypeRange(all).take_front(n);
  inits = TypeRange(all).drop_front(n);
  return success();
}

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   ReduceOp::Adaptor a) {
  TypeRange inputs, inits;
  if (failed(splitInputsInits(e, a.getInputs(), inputs, inits)))
    return failure();
  return inferReduce(e, inputs, inits, a.getDimensions());
}
HLO_INFERRED_OP(ReduceOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   ReduceWindowOp::Adaptor a) {
  TypeRange inputs, inits;
  if (failed(splitInputsInits(e, a.getInputs(), inputs, inits)))
    return failure();
  return inferReduceWindow(e, inputs, inits, a.getWindowAttr());
}
HLO_INFERRED_OP(ReduceWindowOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   SelectAndScatterOp::Adaptor a) {
  return inferSelectAndScatter(e, a.getOperand().getType(),
                               a.getSource().getType(),
                               a.getInitValue().getType(), a.getWindow());
}
HLO_INFERRED_OP(SelectAndScatterOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   SortOp::Adaptor a) {
  return inferSort(e, TypeRange(a.getInputs()), a.getDimensions());
}
HLO_INFERRED_OP(SortOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   TopKOp::Adaptor a) {
  return inferTopK(e, a.getOperand().getType(), a.getK());
}
HLO_INFERRED_OP(TopKOp, false)

//===----------------------------------------------------------------------===//
// Linear algebra, gather/scatter, batch norm
//===----------------------------------------------------------------------===//

static LogicalResult checkPrecision(EmitErrorFn e, std::optional<ArrayAttr> p) {
  if (p && *p && !p->empty() && p->size() != 2)
    return e() << "operand_precision needs 2 entries (lhs, rhs), got "
               << p->size();
  return success();
}

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   DotOp::Adaptor a) {
  if (failed(checkPrecision(e, a.getOperandPrecision())))
    return failure();
  return inferDot(
      e, a.getLhs().getType(), a.getRhs().getType(),
      orEmpty(a.getLhsBatchDims()), orEmpty(a.getLhsContractingDims()),
      orEmpty(a.getRhsBatchDims()), orEmpty(a.getRhsContractingDims()));
}
HLO_INFERRED_OP(DotOp, true)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   ConvolutionOp::Adaptor a) {
  if (failed(checkPrecision(e, a.getOperandPrecision())))
    return failure();
  return inferConvolution(e, a.getLhs().getType(), a.getRhs().getType(),
                          a.getWindowAttr(), a.getDimLabels(),
                          a.getFeatureGroupCount().value_or(1),
                          a.getBatchGroupCount().value_or(1));
}
HLO_INFERRED_OP(ConvolutionOp, true)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   GatherOp::Adaptor a) {
  return inferGather(
      e, a.getOperand().getType(), a.getStartIndices().getType(),
      a.getOffsetDims(), a.getCollapsedSliceDims(), a.getStartIndexMap(),
      a.getIndexVectorDim(), orEmpty(a.getOperandBatchingDims()),
      orEmpty(a.getStartIndicesBatchingDims()), a.getSliceSizes());
}
HLO_INFERRED_OP(GatherOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   ScatterOp::Adaptor a) {
  size_t n = a.getInputs().size();
  if (n < 3 || (n - 1) % 2)
    return e() << "needs N operands, the indices and N updates, got " << n
               << " operands";
  size_t k = (n - 1) / 2;
  TypeRange all(a.getInputs());
  return inferScatter(e, all.take_front(k), all[k], all.take_back(k),
                      a.getUpdateWindowDims(), a.getInsertedWindowDims(),
                      a.getScatterDimsToOperandDims(), a.getIndexVectorDim(),
                      orEmpty(a.getInputBatchingDims()),
                      orEmpty(a.getScatterIndicesBatchingDims()));
}
HLO_INFERRED_OP(ScatterOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   CholeskyOp::Adaptor a) {
  return inferCholesky(e, a.getOperand().getType());
}
HLO_INFERRED_OP(CholeskyOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   TriangularSolveOp::Adaptor a) {
  return inferTriangularSolve(
      e, a.getA().getType(), a.getB().getType(),
      a.getLeftSide().value_or(false),
      a.getTransposeA().value_or(Transpose::NO_TRANSPOSE));
}
HLO_INFERRED_OP(TriangularSolveOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   FftOp::Adaptor a) {
  return inferFft(e, a.getOperand().getType(), a.getFftType(),
                  a.getFftLength());
}
HLO_INFERRED_OP(FftOp, false)

/// The (operand, per-feature, per-feature) tuple that batch-norm training
/// and grad return.
static Type batchNormTuple(MLIRContext *ctx, Type operand,
                           int64_t featureIndex) {
  auto t = cast<RankedTensorType>(operand);
  Type feature =
      RankedTensorType::get({t.getDimSize(featureIndex)}, t.getElementType());
  return TupleType::get(ctx, {t, feature, feature});
}

static FailureOr<Type> inferResult(MLIRContext *ctx, EmitErrorFn e,
                                   BatchNormTrainingOp::Adaptor a) {
  Type operand = a.getOperand().getType();
  if (failed(verifyBatchNorm(e, operand,
                             {a.getScale().getType(), a.getOffset().getType()},
                             a.getFeatureIndex())))
    return failure();
  return batchNormTuple(ctx, operand, a.getFeatureIndex());
}
HLO_INFERRED_OP(BatchNormTrainingOp, false)

static FailureOr<Type> inferResult(MLIRContext *, EmitErrorFn e,
                                   BatchNormInferenceOp::Adaptor a) {
  Type operand = a.getOperand().getType();
  if (failed(verifyBatchNorm(e, operand,
                             {a.getScale().getType(), a.getOffset().getType(),
                              a.getMean().getType(), a.getVariance().getType()},
                             a.getFeatureIndex())))
    return failure();
  return operand;
}
HLO_INFERRED_OP(BatchNormInferenceOp, false)

static FailureOr<Type> inferResult(MLIRContext *ctx, EmitErrorFn e,
                                   BatchNormGradOp::Adaptor a) {
  Type operand = a.getOperand().getType();
  if (failed(verifyBatchNorm(e, operand,
                             {a.getScale().getType(), a.getMean().getType(),
                              a.getVariance().getType()},
                             a.getFeatureIndex())))
    return failure();
  if (!typesCompatible(a.getGradOutput().getType(), operand))
    return e() << "grad_output type " << a.getGradOutput().getType()
               << " must match the operand type " << operand;
  return batchNormTuple(ctx, operand, a.getFeatureIndex());
}
HLO_INFERRED_OP(BatchNormGradOp, false)

//===----------------------------------------------------------------------===//
// State and ids
//===----------------------------------------------------------------------===//

static FailureOr<Type> inferResult(MLIRContext *ctx, EmitErrorFn,
                                   RngGetAndUpdateStateOp::Adaptor) {
  return Type(RankedTensorType::get(
      {2}, IntegerType::get(ctx, 64, IntegerType::Unsigned)));
}
HLO_INFERRED_OP(RngGetAndUpdateStateOp, false)

static FailureOr<Type> inferResult(MLIRContext *ctx, EmitErrorFn,
                                   ReplicaIdOp::Adaptor) {
  return scalar(IntegerType::get(ctx, 32, IntegerType::Unsigned));
}
HLO_INFERRED_OP(ReplicaIdOp, false)

static FailureOr<Type> inferResult(MLIRContext *ctx, EmitErrorFn,
                                   PartitionIdOp::Adaptor) {
  return scalar(IntegerType::get(ctx, 32, IntegerType::Unsigned));
}
HLO_INFERRED_OP(PartitionIdOp, false)
