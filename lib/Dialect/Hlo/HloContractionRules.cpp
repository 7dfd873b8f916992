//===- HloContractionRules.cpp - HLO shape rules ----------------------===//
//
// Shape rules of dot, convolution, reduce, reduce-window and
// select-and-scatter.
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
// Dot and convolution
//===----------------------------------------------------------------------===//

FailureOr<Type> mlir::hlo::inferDot(EmitErrorFn emitError, Type lhs, Type rhs,
                                    ArrayRef<int64_t> lhsBatch,
                                    ArrayRef<int64_t> lhsContract,
                                    ArrayRef<int64_t> rhsBatch,
                                    ArrayRef<int64_t> rhsContract) {
  auto l = getDims(lhs, emitError, "lhs");
  if (failed(l))
    return failure();
  auto r = getDims(rhs, emitError, "rhs");
  if (failed(r))
    return failure();
  if (lhsBatch.size() != rhsBatch.size())
    return emitError() << "lhs_batch_dims " << str(lhsBatch)
                       << " and rhs_batch_dims " << str(rhsBatch)
                       << " differ in size";
  if (lhsContract.size() != rhsContract.size())
    return emitError() << "lhs_contracting_dims " << str(lhsContract)
                       << " and rhs_contracting_dims " << str(rhsContract)
                       << " differ in size";
  SmallVector<int64_t> lAll(lhsBatch), rAll(rhsBatch);
  lAll.append(lhsContract.begin(), lhsContract.end());
  rAll.append(rhsContract.begin(), rhsContract.end());
  if (failed(checkDimList(emitError, "lhs batch+contracting dims", lAll,
                          l->size())) ||
      failed(checkDimList(emitError, "rhs batch+contracting dims", rAll,
                          r->size())))
    return failure();
  for (size_t i = 0; i < lAll.size(); ++i)
    if (!dimsCompatible((*l)[lAll[i]], (*r)[rAll[i]]))
      return emitError() << "lhs dimension " << lAll[i] << " (size "
                         << str((*l)[lAll[i]])
                         << ") does not match rhs dimension " << rAll[i]
                         << " (size " << str((*r)[rAll[i]]) << ")";
  // Result: batch dims, lhs free dims, rhs free dims.
  SmallVector<int64_t> expected;
  for (int64_t d : lhsBatch)
    expected.push_back((*l)[d]);
  for (size_t d = 0; d < l->size(); ++d)
    if (!llvm::is_contained(lAll, int64_t(d)))
      expected.push_back((*l)[d]);
  for (size_t d = 0; d < r->size(); ++d)
    if (!llvm::is_contained(rAll, int64_t(d)))
      expected.push_back((*r)[d]);
  return Type(RankedTensorType::get(expected, elementType(lhs)));
}

FailureOr<Type> mlir::hlo::inferConvolution(EmitErrorFn emitError, Type lhs,
                                            Type rhs, WindowAttr window,
                                            ConvDimensionNumbersAttr dn,
                                            int64_t featureGroups,
                                            int64_t batchGroups) {
  auto l = getDims(lhs, emitError, "lhs");
  if (failed(l))
    return failure();
  auto r = getDims(rhs, emitError, "rhs");
  if (failed(r))
    return failure();
  size_t spatial = dn.getInputSpatial().size();
  if (l->size() != spatial + 2 || r->size() != spatial + 2)
    return emitError() << "dim_labels describe " << spatial + 2
                       << "-d arrays but lhs and rhs have ranks " << l->size()
                       << " and " << r->size();
  if (window && window.getSize().size() != spatial)
    return emitError() << "window has " << window.getSize().size()
                       << " dimensions but the convolution has " << spatial
                       << " spatial dimensions";
  if (!window && spatial != 0)
    return emitError() << "needs a window for its " << spatial
                       << " spatial dimensions";
  if (featureGroups < 1 || batchGroups < 1)
    return emitError() << "feature_group_count (" << featureGroups
                       << ") and batch_group_count (" << batchGroups
                       << ") must be positive";
  if (featureGroups > 1 && batchGroups > 1)
    return emitError() << "feature_group_count (" << featureGroups
                       << ") and batch_group_count (" << batchGroups
                       << ") may not both exceed 1";
  int64_t inBatch = (*l)[dn.getInputBatch()];
  int64_t inFeatures = (*l)[dn.getInputFeature()];
  int64_t kIn = (*r)[dn.getKernelInput()];
  int64_t kOut = (*r)[dn.getKernelOutput()];
  if (!ShapedType::isDynamic(inFeatures) && inFeatures % featureGroups)
    return emitError() << "input feature dimension (" << inFeatures
                       << ") must be a multiple of feature_group_count ("
                       << featureGroups << ")";
  if (!ShapedType::isDynamic(inFeatures) && !ShapedType::isDynamic(kIn) &&
      inFeatures != satMul(kIn, featureGroups))
    return emitError() << "input feature dimension (" << inFeatures
                       << ") must be kernel input features (" << kIn
                       << ") times feature_group_count (" << featureGroups
                       << ")";
  if (!ShapedType::isDynamic(kOut) && kOut % featureGroups)
    return emitError() << "kernel output features (" << kOut
                       << ") must be a multiple of feature_group_count ("
                       << featureGroups << ")";
  if (!ShapedType::isDynamic(kOut) && kOut % batchGroups)
    return emitError() << "kernel output features (" << kOut
                       << ") must be a multiple of batch_group_count ("
                       << batchGroups << ")";
  if (!ShapedType::isDynamic(inBatch) && inBatch % batchGroups)
    return emitError() << "input batch dimension (" << inBatch
                       << ") must be a multiple of batch_group_count ("
                       << batchGroups << ")";
  SmallVector<int64_t> out(spatial + 2, ShapedType::kDynamic);
  out[dn.getOutputBatch()] =
      ShapedType::isDynamic(inBatch) ? inBatch : inBatch / batchGroups;
  out[dn.getOutputFeature()] = kOut;
  for (size_t i = 0; i < spatial; ++i) {
    int64_t in = (*l)[dn.getInputSpatial()[i]];
    int64_t k = (*r)[dn.getKernelSpatial()[i]];
    auto get = [&](ArrayRef<int64_t> v, int64_t d) {
      return v.empty() ? d : v[i];
    };
    int64_t size = window.getSize()[i];
    int64_t stride = get(window.getStride(), 1);
    int64_t lo = get(window.getPadLow(), 0);
    int64_t hi = get(window.getPadHigh(), 0);
    int64_t ld = get(window.getLhsDilate(), 1);
    int64_t rd = get(window.getRhsDilate(), 1);
    if (stride < 1 || ld < 1 || rd < 1)
      return emitError() << "window stride (" << stride << "), lhs_dilate ("
                         << ld << ") and rhs_dilate (" << rd
                         << ") of spatial dimension " << i
                         << " must be positive";
    if (!dimsCompatible(size, k))
      return emitError() << "window size " << size
                         << " differs from kernel spatial dimension " << i
                         << " (size " << str(k) << ")";
    if (ShapedType::isDynamic(in))
      continue;
    int64_t dilatedIn = in == 0 ? 0 : satAdd(satMul(in - 1, ld), 1);
    int64_t dilatedK = size == 0 ? 0 : satAdd(satMul(size - 1, rd), 1);
    int64_t padded = satAdd(satAdd(dilatedIn, lo), hi);
    out[dn.getOutputSpatial()[i]] =
        padded < dilatedK ? 0 : satAdd(padded, -dilatedK) / stride + 1;
  }
  return Type(RankedTensorType::get(out, elementType(lhs)));
}

//===----------------------------------------------------------------------===//
// Reductions and windows
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<int64_t>>
mlir::hlo::inferWindowOutputDims(EmitErrorFn emitError, ArrayRef<int64_t> in,
                                 WindowAttr window) {
  size_t rank = window ? window.getSize().size() : 0;
  if (rank != in.size()) {
    emitError() << "window has " << rank
                << " dimensions for an operand of rank " << in.size();
    return failure();
  }
  SmallVector<int64_t> outDims;
  for (size_t i = 0; i < rank; ++i) {
    auto get = [&](ArrayRef<int64_t> v, int64_t d) {
      return v.empty() ? d : v[i];
    };
    int64_t k = window.getSize()[i];
    int64_t stride = get(window.getStride(), 1);
    int64_t ld = get(window.getLhsDilate(), 1);
    int64_t rd = get(window.getRhsDilate(), 1);
    if (k < 1 || stride < 1 || ld < 1 || rd < 1) {
      emitError() << "window dimension " << i << " has size " << k
                  << ", stride " << stride << ", lhs_dilate " << ld
                  << " and rhs_dilate " << rd << "; all must be positive";
      return failure();
    }
    if (ShapedType::isDynamic(in[i])) {
      outDims.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t dilatedIn = in[i] == 0 ? 0 : satAdd(satMul(in[i] - 1, ld), 1);
    int64_t dilatedK = satAdd(satMul(k - 1, rd), 1);
    int64_t padded = satAdd(satAdd(dilatedIn, get(window.getPadLow(), 0)),
                            get(window.getPadHigh(), 0));
    outDims.push_back(
        padded < dilatedK ? 0 : satAdd(padded, -dilatedK) / stride + 1);
  }
  return outDims;
}

/// Inputs share their dimensions and each init value is a scalar.
static LogicalResult checkInputsAndInits(EmitErrorFn emitError,
                                         TypeRange inputs, TypeRange inits) {
  if (inputs.empty() || inputs.size() != inits.size())
    return emitError() << "needs N inputs and N init values, got "
                       << inputs.size() << " and " << inits.size();
  for (auto [i, t] : llvm::enumerate(inputs)) {
    auto dims = getDims(t, emitError, "input");
    if (failed(dims))
      return failure();
    if (!shapesCompatible(t, inputs[0]))
      return emitError() << "input " << i << " dimensions " << str(*dims)
                         << " differ from input 0's "
                         << str(cast<RankedTensorType>(inputs[0]).getShape());
    if (!isScalarArray(inits[i]))
      return emitError() << "init value " << i << " must be a scalar, got "
                         << inits[i];
  }
  return success();
}

/// One array of dimensions `dims` per init value, of its element type (a
/// tuple when there are several).
static Type reduceResults(TypeRange inits, ArrayRef<int64_t> dims) {
  SmallVector<Type> results;
  for (Type init : inits)
    results.push_back(RankedTensorType::get(dims, elementType(init)));
  return packTuple(inits[0].getContext(), results);
}

FailureOr<Type> mlir::hlo::inferReduce(EmitErrorFn emitError, TypeRange inputs,
                                       TypeRange inits,
                                       ArrayRef<int64_t> dims) {
  if (failed(checkInputsAndInits(emitError, inputs, inits)))
    return failure();
  ArrayRef<int64_t> first = cast<RankedTensorType>(inputs[0]).getShape();
  if (failed(checkDimList(emitError, "dimensions", dims, first.size())))
    return failure();
  SmallVector<int64_t> kept;
  for (size_t d = 0; d < first.size(); ++d)
    if (!llvm::is_contained(dims, int64_t(d)))
      kept.push_back(first[d]);
  return reduceResults(inits, kept);
}

FailureOr<Type> mlir::hlo::inferReduceWindow(EmitErrorFn emitError,
                                             TypeRange inputs, TypeRange inits,
                                             WindowAttr window) {
  if (failed(checkInputsAndInits(emitError, inputs, inits)))
    return failure();
  ArrayRef<int64_t> first = cast<RankedTensorType>(inputs[0]).getShape();
  auto outDims = inferWindowOutputDims(emitError, first, window);
  if (failed(outDims))
    return failure();
  return reduceResults(inits, *outDims);
}

FailureOr<Type> mlir::hlo::inferSelectAndScatter(EmitErrorFn emitError,
                                                 Type operand, Type source,
                                                 Type initValue,
                                                 WindowAttr window) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in))
    return failure();
  auto src = getDims(source, emitError, "source");
  if (failed(src))
    return failure();
  if (!isScalarArray(initValue))
    return emitError() << "init value must be a scalar, got " << initValue;
  auto windowDims = inferWindowOutputDims(emitError, *in, window);
  if (failed(windowDims))
    return failure();
  if (!shapesCompatible(
          source, RankedTensorType::get(*windowDims, elementType(source))))
    return emitError() << "source dimensions " << str(*src)
                       << " must be the window's output dimensions "
                       << str(*windowDims);
  return operand;
}
