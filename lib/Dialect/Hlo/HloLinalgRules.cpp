//===- HloLinalgRules.cpp - HLO shape rules ---------------------------===//
//
// Shape rules of top-k, FFT, Cholesky, triangular-solve, batch norm and
// the RNG ops.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "HloTypeInferenceImpl.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::detail;

//===----------------------------------------------------------------------===//
// TopK, FFT, linear algebra, batch norm, RNG
//===----------------------------------------------------------------------===//

FailureOr<Type> mlir::hlo::inferTopK(EmitErrorFn emitError, Type operand,
                                     int64_t k) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  if (in->empty())
    return emitError() << "operand must have at least one dimension";
  if (k < 0)
    return emitError() << "k (" << k << ") must be non-negative";
  int64_t last = in->back();
  if (!ShapedType::isDynamic(last) && last < k)
    return emitError() << "the last operand dimension (" << last
                       << ") must be at least k (" << k << ")";
  SmallVector<int64_t> dims(*in);
  dims.back() = k;
  MLIRContext *ctx = operand.getContext();
  return Type(TupleType::get(
      ctx, {RankedTensorType::get(dims, elementType(operand)),
            RankedTensorType::get(dims, IntegerType::get(ctx, 32))}));
}

static StringRef fftName(FftType t) { return stringifyFftType(t); }

FailureOr<Type> mlir::hlo::inferFft(EmitErrorFn emitError, Type operand,
                                    FftType type, ArrayRef<int64_t> fftLength) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  size_t fftRank = fftLength.size();
  if (fftRank < 1 || fftRank > 3)
    return emitError() << "fft_length " << str(fftLength)
                       << " must have 1 to 3 entries";
  if (in->size() < fftRank)
    return emitError() << "operand rank " << in->size()
                       << " is less than the fft rank " << fftRank;
  size_t base = in->size() - fftRank;
  Type inElt = elementType(operand);
  Type expectedElt = inElt;
  SmallVector<int64_t> expectedDims(*in);
  auto checkInnerDims = [&](size_t count) -> LogicalResult {
    for (size_t i = 0; i < count; ++i)
      if (!dimsCompatible((*in)[base + i], fftLength[i]))
        return emitError() << fftName(type) << " needs operand dimension "
                           << base + i << " (size " << str((*in)[base + i])
                           << ") to equal fft_length[" << i
                           << "] = " << fftLength[i];
    return success();
  };
  switch (type) {
  case FftType::FFT:
  case FftType::IFFT:
    if (!isa<ComplexType>(inElt))
      return emitError() << fftName(type) << " needs a complex operand, got "
                         << inElt;
    if (failed(checkInnerDims(fftRank)))
      return failure();
    break;
  case FftType::RFFT: {
    if (!inElt.isF32() && !inElt.isF64())
      return emitError() << "RFFT needs an f32 or f64 operand, got " << inElt;
    if (failed(checkInnerDims(fftRank)))
      return failure();
    expectedElt = ComplexType::get(inElt);
    expectedDims.back() = fftLength.back() / 2 + 1;
    break;
  }
  case FftType::IRFFT: {
    auto c = dyn_cast<ComplexType>(inElt);
    if (!c)
      return emitError() << "IRFFT needs a complex operand, got " << inElt;
    if (failed(checkInnerDims(fftRank - 1)))
      return failure();
    int64_t lastIn = in->back();
    if (!dimsCompatible(lastIn, fftLength.back() / 2 + 1))
      return emitError() << "IRFFT needs the last operand dimension (size "
                         << str(lastIn)
                         << ") to be fft_length.back() / 2 + 1 = "
                         << fftLength.back() / 2 + 1;
    expectedElt = c.getElementType();
    expectedDims.back() = fftLength.back();
    break;
  }
  }
  return Type(RankedTensorType::get(expectedDims, expectedElt));
}

/// `t` has rank >= 2, square minor matrices and float or complex elements.
static LogicalResult checkSquareMatrices(EmitErrorFn emitError, StringRef what,
                                         Type t) {
  auto dims = getDims(t, emitError, what);
  if (failed(dims))
    return failure();
  if (failed(verifyElementKind(emitError, what, t, kFloatOrComplexKind)))
    return failure();
  if (dims->size() < 2)
    return emitError() << what << " must have rank >= 2, got rank "
                       << dims->size();
  int64_t r = (*dims)[dims->size() - 2], c = dims->back();
  if (!dimsCompatible(r, c))
    return emitError() << what << " must be square in its two minor "
                       << "dimensions, got " << str(r) << "x" << str(c);
  return success();
}

FailureOr<Type> mlir::hlo::inferCholesky(EmitErrorFn emitError, Type operand) {
  if (failed(checkSquareMatrices(emitError, "operand", operand)))
    return failure();
  return operand;
}

FailureOr<Type> mlir::hlo::inferTriangularSolve(EmitErrorFn emitError, Type a,
                                                Type b, bool leftSide,
                                                Transpose transposeA) {
  if (failed(checkSquareMatrices(emitError, "a", a)))
    return failure();
  auto bd = getDims(b, emitError, "b");
  if (failed(bd) ||
      failed(verifyElementKind(emitError, "b", b, kFloatOrComplexKind)))
    return failure();
  if (elementType(a) != elementType(b))
    return emitError() << "a and b must have the same element type, got "
                       << elementType(a) << " and " << elementType(b);
  ArrayRef<int64_t> ad = cast<RankedTensorType>(a).getShape();
  if (ad.size() != bd->size())
    return emitError() << "a (rank " << ad.size() << ") and b (rank "
                       << bd->size() << ") must have the same rank";
  size_t rank = ad.size();
  for (size_t i = 0; i + 2 < rank; ++i)
    if (!dimsCompatible(ad[i], (*bd)[i]))
      return emitError() << "batch dimension " << i << " of a (size "
                         << str(ad[i]) << ") and b (size " << str((*bd)[i])
                         << ") differ";
  size_t bDim = leftSide ? rank - 2 : rank - 1;
  if (!dimsCompatible(ad.back(), (*bd)[bDim]))
    return emitError() << "a's dimension " << rank - 1 << " (size "
                       << str(ad.back()) << ") must equal b's dimension "
                       << bDim << " (size " << str((*bd)[bDim]) << ") when "
                       << (leftSide ? "left_side" : "not left_side");
  if (transposeA == Transpose::TRANSPOSE_INVALID)
    return emitError() << "transpose_a may not be TRANSPOSE_INVALID";
  return b;
}

LogicalResult mlir::hlo::verifyBatchNorm(EmitErrorFn emitError, Type operand,
                                         TypeRange perFeature,
                                         int64_t featureIndex) {
  auto dims = getDims(operand, emitError, "operand");
  if (failed(dims) ||
      failed(verifyElementKind(emitError, "operand", operand, kFloatKind)))
    return failure();
  if (featureIndex < 0 || featureIndex >= int64_t(dims->size()))
    return emitError() << "feature_index " << featureIndex
                       << " is out of range for rank " << dims->size();
  int64_t features = (*dims)[featureIndex];
  for (Type t : perFeature) {
    auto vt = dyn_cast<RankedTensorType>(t);
    if (!vt || vt.getRank() != 1 || !dimsCompatible(vt.getDimSize(0), features))
      return emitError() << "per-feature operand of type " << t
                         << " must be rank 1 with " << str(features)
                         << " elements";
    if (failed(
            verifyElementKind(emitError, "per-feature operand", t, kFloatKind)))
      return failure();
  }
  return success();
}

LogicalResult mlir::hlo::verifyRng(EmitErrorFn emitError, TypeRange params,
                                   Type result, RngDistribution distribution) {
  if (params.size() != 2)
    return emitError() << "needs 2 distribution parameters, got "
                       << params.size();
  if (failed(getDims(result, emitError, "result")))
    return failure();
  for (Type t : params) {
    if (!isScalarArray(t))
      return emitError() << "distribution parameters must be scalars, got "
                         << t;
    if (elementType(t) != elementType(result))
      return emitError() << "distribution parameter element type "
                         << elementType(t) << " differs from the result's "
                         << elementType(result);
  }
  unsigned kinds = distribution == RngDistribution::rng_normal
                       ? unsigned(kFloatKind)
                       : unsigned(kPredKind | kIntegralKind | kFloatKind);
  return verifyElementKind(emitError, "result", result, kinds);
}

LogicalResult mlir::hlo::verifyRngBitGenerator(EmitErrorFn emitError,
                                               Type state, Type result) {
  if (failed(getDims(state, emitError, "state")))
    return failure();
  auto tt = dyn_cast<TupleType>(result);
  if (!tt || tt.size() != 2)
    return emitError() << "result must be a tuple (new state, bits), got "
                       << result;
  if (!typesCompatible(tt.getType(0), state))
    return emitError() << "new state type " << tt.getType(0)
                       << " must match the state type " << state;
  return verifyElementKind(emitError, "generated bits", tt.getType(1),
                           kIntegralKind);
}
