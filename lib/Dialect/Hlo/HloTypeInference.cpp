//===- HloTypeInference.cpp - HLO shape rules -----------------------------===//
//
// HLO's shape rules (XLA operation semantics) as functions over types and
// attribute values. Dynamic dimensions are compatible with every size.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::hlo;

bool mlir::hlo::dimsCompatible(int64_t a, int64_t b) {
  return a == b || ShapedType::isDynamic(a) || ShapedType::isDynamic(b);
}

bool mlir::hlo::shapesCompatible(Type a, Type b) {
  auto ta = dyn_cast<RankedTensorType>(a);
  auto tb = dyn_cast<RankedTensorType>(b);
  if (!ta || !tb || ta.getRank() != tb.getRank())
    return false;
  for (auto [x, y] : llvm::zip(ta.getShape(), tb.getShape()))
    if (!dimsCompatible(x, y))
      return false;
  return true;
}

FailureOr<ArrayRef<int64_t>> mlir::hlo::getDims(Type t, EmitErrorFn emitError,
                                                StringRef what) {
  if (auto rt = dyn_cast<RankedTensorType>(t))
    return rt.getShape();
  emitError() << what << " must be an array, got " << t;
  return failure();
}

static std::string str(ArrayRef<int64_t> v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i)
      s += ", ";
    s += ShapedType::isDynamic(v[i]) ? "?" : std::to_string(v[i]);
  }
  return s + "]";
}

/// Every entry is in [0, rank) and appears once.
static LogicalResult checkDimList(EmitErrorFn emitError, StringRef what,
                                  ArrayRef<int64_t> dims, int64_t rank) {
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t d : dims) {
    if (d < 0 || d >= rank)
      return emitError() << what << " " << str(dims)
                         << " has dimension " << d
                         << " out of range for rank " << rank;
    if (!seen.insert(d).second)
      return emitError() << what << " " << str(dims) << " repeats dimension "
                         << d;
  }
  return success();
}

static Type elementType(Type t) { return cast<ShapedType>(t).getElementType(); }

LogicalResult mlir::hlo::verifySameShape(EmitErrorFn emitError,
                                         ArrayRef<Type> operands, Type result,
                                         bool sameElementType) {
  if (!isa<RankedTensorType>(result))
    return emitError() << "result must be an array, got " << result;
  for (Type t : operands) {
    if (!isa<RankedTensorType>(t))
      return emitError() << "operand must be an array, got " << t;
    if (!shapesCompatible(t, result))
      return emitError() << "operand dimensions "
                         << str(cast<RankedTensorType>(t).getShape())
                         << " do not match result dimensions "
                         << str(cast<RankedTensorType>(result).getShape());
    if (sameElementType && elementType(t) != elementType(result))
      return emitError() << "operand element type " << elementType(t)
                         << " does not match result element type "
                         << elementType(result);
  }
  return success();
}

LogicalResult mlir::hlo::verifyBroadcast(EmitErrorFn emitError, Type operand,
                                         Type result, ArrayRef<int64_t> dims) {
  auto in = getDims(operand, emitError, "operand");
  auto out = getDims(result, emitError, "result");
  if (failed(in) || failed(out))
    return failure();
  if (dims.size() != in->size())
    return emitError() << "dimensions " << str(dims) << " must have one entry "
                       << "per operand dimension (" << in->size() << ")";
  if (failed(checkDimList(emitError, "dimensions", dims, out->size())))
    return failure();
  for (size_t i = 0; i < dims.size(); ++i)
    if (!dimsCompatible((*in)[i], (*out)[dims[i]]))
      return emitError() << "operand dimension " << i << " (size "
                         << (*in)[i] << ") does not match result dimension "
                         << dims[i] << " (size " << (*out)[dims[i]] << ")";
  if (elementType(operand) != elementType(result))
    return emitError() << "broadcast may not change the element type";
  return success();
}

static std::optional<int64_t> numElements(ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (ShapedType::isDynamic(d))
      return std::nullopt;
    n *= d;
  }
  return n;
}

LogicalResult mlir::hlo::verifyReshape(EmitErrorFn emitError, Type operand,
                                       Type result) {
  auto in = getDims(operand, emitError, "operand");
  auto out = getDims(result, emitError, "result");
  if (failed(in) || failed(out))
    return failure();
  auto a = numElements(*in), b = numElements(*out);
  if (a && b && *a != *b)
    return emitError() << "reshape of " << str(*in) << " (" << *a
                       << " elements) to " << str(*out) << " (" << *b
                       << " elements) changes the element count";
  if (elementType(operand) != elementType(result))
    return emitError() << "reshape may not change the element type";
  return success();
}

LogicalResult mlir::hlo::verifyTranspose(EmitErrorFn emitError, Type operand,
                                         Type result, ArrayRef<int64_t> perm) {
  auto in = getDims(operand, emitError, "operand");
  auto out = getDims(result, emitError, "result");
  if (failed(in) || failed(out))
    return failure();
  if (perm.size() != in->size() ||
      failed(checkDimList(emitError, "dimensions", perm, in->size())))
    return emitError() << "dimensions " << str(perm)
                       << " must be a permutation of the operand's "
                       << in->size() << " dimensions";
  if (out->size() != in->size())
    return emitError() << "result rank must equal operand rank";
  for (size_t i = 0; i < perm.size(); ++i)
    if (!dimsCompatible((*out)[i], (*in)[perm[i]]))
      return emitError() << "result dimension " << i << " (size " << (*out)[i]
                         << ") must be operand dimension " << perm[i]
                         << " (size " << (*in)[perm[i]] << ")";
  return success();
}

LogicalResult mlir::hlo::verifyReverse(EmitErrorFn emitError, Type operand,
                                       Type result, ArrayRef<int64_t> dims) {
  auto in = getDims(operand, emitError, "operand");
  if (failed(in) ||
      failed(checkDimList(emitError, "dimensions", dims, in->size())))
    return failure();
  return verifySameShape(emitError, {operand}, result, true);
}

LogicalResult mlir::hlo::verifySlice(EmitErrorFn emitError, Type operand,
                                     Type result, ArrayRef<int64_t> starts,
                                     ArrayRef<int64_t> limits,
                                     ArrayRef<int64_t> strides) {
  auto in = getDims(operand, emitError, "operand");
  auto out = getDims(result, emitError, "result");
  if (failed(in) || failed(out))
    return failure();
  if (starts.size() != in->size() || out->size() != in->size())
    return emitError() << "slice has " << starts.size()
                       << " ranges for an operand of rank " << in->size();
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t dim = (*in)[i];
    if (starts[i] < 0 || limits[i] < starts[i] ||
        (!ShapedType::isDynamic(dim) && limits[i] > dim) || strides[i] <= 0)
      return emitError() << "slice range [" << starts[i] << ":" << limits[i]
                         << ":" << strides[i] << "] is invalid for dimension "
                         << i << " of size " << dim;
    int64_t expected = (limits[i] - starts[i] + strides[i] - 1) / strides[i];
    if (!dimsCompatible((*out)[i], expected))
      return emitError() << "result dimension " << i << " is " << (*out)[i]
                         << " but the slice selects " << expected
                         << " elements";
  }
  return success();
}

LogicalResult mlir::hlo::verifyConcatenate(EmitErrorFn emitError,
                                           TypeRange operands, Type result,
                                           ArrayRef<int64_t> dims) {
  auto out = getDims(result, emitError, "result");
  if (failed(out))
    return failure();
  if (operands.empty())
    return emitError() << "needs at least one operand";
  if (dims.size() != 1)
    return emitError() << "needs exactly one concatenate dimension, got "
                       << str(dims);
  int64_t d = dims[0];
  if (d < 0 || d >= int64_t(out->size()))
    return emitError() << "dimension " << d << " is out of range for rank "
                       << out->size();
  int64_t sum = 0;
  bool dynamic = false;
  for (auto [i, t] : llvm::enumerate(operands)) {
    auto in = getDims(t, emitError, "operand");
    if (failed(in))
      return failure();
    if (in->size() != out->size())
      return emitError() << "operand " << i << " has rank " << in->size()
                         << " but the result has rank " << out->size();
    for (size_t k = 0; k < in->size(); ++k)
      if (int64_t(k) != d && !dimsCompatible((*in)[k], (*out)[k]))
        return emitError() << "operand " << i << " dimension " << k
                           << " (size " << (*in)[k]
                           << ") does not match the result (size " << (*out)[k]
                           << ")";
    dynamic |= ShapedType::isDynamic((*in)[d]);
    sum += (*in)[d];
    if (elementType(t) != elementType(result))
      return emitError() << "operand " << i << " element type differs from "
                         << "the result's";
  }
  if (!dynamic && !dimsCompatible(sum, (*out)[d]))
    return emitError() << "result dimension " << d << " is " << (*out)[d]
                       << " but the operands add up to " << sum;
  return success();
}

LogicalResult mlir::hlo::verifyPad(EmitErrorFn emitError, Type operand,
                                   Type padValue, Type result,
                                   ArrayRef<int64_t> low,
                                   ArrayRef<int64_t> high,
                                   ArrayRef<int64_t> interior) {
  auto in = getDims(operand, emitError, "operand");
  auto out = getDims(result, emitError, "result");
  auto pv = getDims(padValue, emitError, "padding value");
  if (failed(in) || failed(out) || failed(pv))
    return failure();
  if (!pv->empty())
    return emitError() << "padding value must be a scalar";
  if (low.size() != in->size() || out->size() != in->size())
    return emitError() << "padding has " << low.size()
                       << " dimensions for an operand of rank " << in->size();
  for (size_t i = 0; i < low.size(); ++i) {
    if (interior[i] < 0)
      return emitError() << "interior padding must be non-negative";
    int64_t d = (*in)[i];
    if (ShapedType::isDynamic(d))
      continue;
    int64_t expected =
        low[i] + high[i] + d + std::max<int64_t>(d - 1, 0) * interior[i];
    if (!dimsCompatible((*out)[i], expected))
      return emitError() << "result dimension " << i << " is " << (*out)[i]
                         << " but padding gives " << expected;
  }
  return success();
}

static LogicalResult checkIndexScalars(EmitErrorFn emitError,
                                       TypeRange indices, size_t rank) {
  if (indices.size() != rank)
    return emitError() << "needs " << rank << " start indices, got "
                       << indices.size();
  for (Type t : indices) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || rt.getRank() != 0 || !rt.getElementType().isIntOrIndex())
      return emitError() << "start index must be an integer scalar, got " << t;
  }
  return success();
}

LogicalResult mlir::hlo::verifyDynamicSlice(EmitErrorFn emitError,
                                            Type operand, TypeRange indices,
                                            Type result,
                                            ArrayRef<int64_t> sizes) {
  auto in = getDims(operand, emitError, "operand");
  auto out = getDims(result, emitError, "result");
  if (failed(in) || failed(out) ||
      failed(checkIndexScalars(emitError, indices, in->size())))
    return failure();
  if (sizes.size() != in->size())
    return emitError() << "dynamic_slice_sizes " << str(sizes)
                       << " must have one entry per operand dimension";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0 ||
        (!ShapedType::isDynamic((*in)[i]) && sizes[i] > (*in)[i]))
      return emitError() << "slice size " << sizes[i] << " of dimension " << i
                         << " exceeds the operand size " << (*in)[i];
    if (!dimsCompatible((*out)[i], sizes[i]))
      return emitError() << "result dimension " << i
                         << " must equal the slice size " << sizes[i];
  }
  return success();
}

LogicalResult mlir::hlo::verifyDynamicUpdateSlice(EmitErrorFn emitError,
                                                  Type operand, Type update,
                                                  TypeRange indices,
                                                  Type result) {
  auto in = getDims(operand, emitError, "operand");
  auto up = getDims(update, emitError, "update");
  if (failed(in) || failed(up) ||
      failed(checkIndexScalars(emitError, indices, in->size())) ||
      failed(verifySameShape(emitError, {operand}, result, true)))
    return failure();
  if (up->size() != in->size())
    return emitError() << "update rank must equal operand rank";
  for (size_t i = 0; i < up->size(); ++i)
    if (!ShapedType::isDynamic((*in)[i]) && !ShapedType::isDynamic((*up)[i]) &&
        (*up)[i] > (*in)[i])
      return emitError() << "update dimension " << i << " (size " << (*up)[i]
                         << ") exceeds the operand (size " << (*in)[i] << ")";
  return success();
}

LogicalResult mlir::hlo::verifyDot(EmitErrorFn emitError, Type lhs, Type rhs,
                                   Type result, ArrayRef<int64_t> lhsBatch,
                                   ArrayRef<int64_t> lhsContract,
                                   ArrayRef<int64_t> rhsBatch,
                                   ArrayRef<int64_t> rhsContract) {
  auto l = getDims(lhs, emitError, "lhs");
  auto r = getDims(rhs, emitError, "rhs");
  auto out = getDims(result, emitError, "result");
  if (failed(l) || failed(r) || failed(out))
    return failure();
  if (lhsBatch.size() != rhsBatch.size())
    return emitError() << "lhs_batch_dims and rhs_batch_dims differ in size";
  if (lhsContract.size() != rhsContract.size())
    return emitError()
           << "lhs_contracting_dims and rhs_contracting_dims differ in size";
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
                         << (*l)[lAll[i]] << ") does not match rhs dimension "
                         << rAll[i] << " (size " << (*r)[rAll[i]] << ")";
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
  if (!shapesCompatible(result, RankedTensorType::get(expected, elementType(result))))
    return emitError() << "result dimensions " << str(*out)
                       << " do not match the dot's " << str(expected);
  return success();
}

LogicalResult mlir::hlo::verifyConvolution(
    EmitErrorFn emitError, Type lhs, Type rhs, Type result, WindowAttr window,
    ConvDimensionNumbersAttr dn, int64_t featureGroups, int64_t batchGroups) {
  auto l = getDims(lhs, emitError, "lhs");
  auto r = getDims(rhs, emitError, "rhs");
  auto out = getDims(result, emitError, "result");
  if (failed(l) || failed(r) || failed(out))
    return failure();
  size_t spatial = dn.getInputSpatial().size();
  if (l->size() != spatial + 2 || r->size() != spatial + 2 ||
      out->size() != spatial + 2)
    return emitError() << "dim_labels describe " << spatial + 2
                       << "-d arrays but lhs, rhs and result have ranks "
                       << l->size() << ", " << r->size() << ", "
                       << out->size();
  if (window && !window.getSize().empty() &&
      window.getSize().size() != spatial)
    return emitError() << "window has " << window.getSize().size()
                       << " dimensions but the convolution has " << spatial
                       << " spatial dimensions";
  if (featureGroups < 1 || batchGroups < 1)
    return emitError() << "group counts must be positive";
  int64_t inFeatures = (*l)[dn.getInputFeature()];
  int64_t kIn = (*r)[dn.getKernelInput()];
  if (!ShapedType::isDynamic(inFeatures) && !ShapedType::isDynamic(kIn) &&
      inFeatures != kIn * featureGroups)
    return emitError() << "input feature dimension (" << inFeatures
                       << ") must be kernel input features (" << kIn
                       << ") times feature_group_count (" << featureGroups
                       << ")";
  int64_t kOut = (*r)[dn.getKernelOutput()];
  if (!dimsCompatible((*out)[dn.getOutputFeature()], kOut))
    return emitError() << "output feature dimension ("
                       << (*out)[dn.getOutputFeature()]
                       << ") must equal kernel output features (" << kOut
                       << ")";
  for (size_t i = 0; i < spatial; ++i) {
    int64_t in = (*l)[dn.getInputSpatial()[i]];
    int64_t k = (*r)[dn.getKernelSpatial()[i]];
    int64_t o = (*out)[dn.getOutputSpatial()[i]];
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(k))
      continue;
    auto get = [&](ArrayRef<int64_t> v, int64_t d) {
      return v.empty() ? d : v[i];
    };
    int64_t stride = window ? get(window.getStride(), 1) : 1;
    int64_t lo = window ? get(window.getPadLow(), 0) : 0;
    int64_t hi = window ? get(window.getPadHigh(), 0) : 0;
    int64_t ld = window ? get(window.getLhsDilate(), 1) : 1;
    int64_t rd = window ? get(window.getRhsDilate(), 1) : 1;
    if (window && !window.getSize().empty() && window.getSize()[i] != k)
      return emitError() << "window size " << window.getSize()[i]
                         << " differs from kernel spatial dimension " << i
                         << " (size " << k << ")";
    if (stride < 1 || ld < 1 || rd < 1)
      return emitError() << "window strides and dilations must be positive";
    int64_t dilatedIn = in == 0 ? 0 : (in - 1) * ld + 1;
    int64_t dilatedK = k == 0 ? 0 : (k - 1) * rd + 1;
    int64_t padded = dilatedIn + lo + hi;
    int64_t expected =
        padded < dilatedK ? 0 : (padded - dilatedK) / stride + 1;
    if (!dimsCompatible(o, expected))
      return emitError() << "output spatial dimension " << i << " is " << o
                         << " but the window gives " << expected;
  }
  return success();
}

LogicalResult mlir::hlo::verifyReduceDims(EmitErrorFn emitError,
                                          TypeRange inputs, TypeRange inits,
                                          Type result,
                                          ArrayRef<int64_t> dims) {
  auto first = getDims(inputs[0], emitError, "input");
  if (failed(first) ||
      failed(checkDimList(emitError, "dimensions", dims, first->size())))
    return failure();
  SmallVector<int64_t> kept;
  for (size_t d = 0; d < first->size(); ++d)
    if (!llvm::is_contained(dims, int64_t(d)))
      kept.push_back((*first)[d]);
  SmallVector<Type> expected;
  for (auto [i, t] : llvm::enumerate(inputs)) {
    if (!shapesCompatible(t, inputs[0]))
      return emitError() << "input " << i << " dimensions differ from input 0";
    auto init = getDims(inits[i], emitError, "init value");
    if (failed(init))
      return failure();
    if (!init->empty())
      return emitError() << "init value " << i << " must be a scalar";
    expected.push_back(RankedTensorType::get(kept, elementType(inits[i])));
  }
  ArrayRef<Type> got = result;
  SmallVector<Type> gotTypes;
  if (auto tt = dyn_cast<TupleType>(result))
    gotTypes.assign(tt.getTypes().begin(), tt.getTypes().end());
  else
    gotTypes.push_back(result);
  (void)got;
  if (gotTypes.size() != expected.size())
    return emitError() << "result must have " << expected.size()
                       << " arrays, one per input";
  for (size_t i = 0; i < expected.size(); ++i)
    if (!shapesCompatible(gotTypes[i], expected[i]) ||
        elementType(gotTypes[i]) != elementType(expected[i]))
      return emitError() << "result " << i << " of type " << gotTypes[i]
                         << " should have dimensions " << str(kept)
                         << " and element type " << elementType(expected[i]);
  return success();
}

LogicalResult mlir::hlo::verifyReduceWindow(EmitErrorFn emitError,
                                            TypeRange inputs, TypeRange inits,
                                            Type result, WindowAttr window) {
  auto first = getDims(inputs[0], emitError, "input");
  if (failed(first))
    return failure();
  if (!window && first->empty())
    window = WindowAttr::get(inputs[0].getContext(), {}, {}, {}, {}, {}, {},
                             {});
  if (!window || window.getSize().size() != first->size())
    return emitError() << "window has "
                       << (window ? window.getSize().size() : 0)
                       << " dimensions for inputs of rank " << first->size();
  SmallVector<int64_t> outDims;
  for (size_t i = 0; i < first->size(); ++i) {
    auto get = [&](ArrayRef<int64_t> v, int64_t d) {
      return v.empty() ? d : v[i];
    };
    int64_t in = (*first)[i];
    if (ShapedType::isDynamic(in)) {
      outDims.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t ld = get(window.getLhsDilate(), 1), rd = get(window.getRhsDilate(), 1);
    int64_t dilatedIn = in == 0 ? 0 : (in - 1) * ld + 1;
    int64_t k = window.getSize()[i];
    int64_t dilatedK = k == 0 ? 0 : (k - 1) * rd + 1;
    int64_t padded =
        dilatedIn + get(window.getPadLow(), 0) + get(window.getPadHigh(), 0);
    int64_t stride = get(window.getStride(), 1);
    if (stride < 1)
      return emitError() << "window stride must be positive";
    outDims.push_back(padded < dilatedK ? 0 : (padded - dilatedK) / stride + 1);
  }
  SmallVector<Type> gotTypes;
  if (auto tt = dyn_cast<TupleType>(result))
    gotTypes.assign(tt.getTypes().begin(), tt.getTypes().end());
  else
    gotTypes.push_back(result);
  if (gotTypes.size() != inputs.size())
    return emitError() << "result must have one array per input";
  for (auto [i, t] : llvm::enumerate(gotTypes)) {
    if (!shapesCompatible(t, RankedTensorType::get(outDims, elementType(inits[i]))))
      return emitError() << "result " << i << " of type " << t
                         << " should have dimensions " << str(outDims);
  }
  return success();
}

LogicalResult mlir::hlo::verifyGather(
    EmitErrorFn emitError, Type operand, Type indices, Type result,
    ArrayRef<int64_t> offsetDims, ArrayRef<int64_t> collapsedDims,
    ArrayRef<int64_t> startIndexMap, int64_t indexVectorDim,
    ArrayRef<int64_t> operandBatchingDims,
    ArrayRef<int64_t> indicesBatchingDims, ArrayRef<int64_t> sliceSizes) {
  auto op = getDims(operand, emitError, "operand");
  auto idx = getDims(indices, emitError, "start_indices");
  auto out = getDims(result, emitError, "result");
  if (failed(op) || failed(idx) || failed(out))
    return failure();
  int64_t rank = op->size();
  if (int64_t(sliceSizes.size()) != rank)
    return emitError() << "slice_sizes " << str(sliceSizes)
                       << " must have one entry per operand dimension ("
                       << rank << ")";
  for (int64_t i = 0; i < rank; ++i)
    if (sliceSizes[i] < 0 ||
        (!ShapedType::isDynamic((*op)[i]) && sliceSizes[i] > (*op)[i]))
      return emitError() << "slice size " << sliceSizes[i] << " of dimension "
                         << i << " exceeds the operand size " << (*op)[i];
  SmallVector<int64_t> dropped(collapsedDims);
  dropped.append(operandBatchingDims.begin(), operandBatchingDims.end());
  if (failed(checkDimList(emitError, "collapsed_slice_dims+operand_batching_dims",
                          dropped, rank)) ||
      failed(checkDimList(emitError, "start_index_map", startIndexMap, rank)))
    return failure();
  for (int64_t d : collapsedDims)
    if (sliceSizes[d] > 1)
      return emitError() << "collapsed dimension " << d
                         << " must have slice size 0 or 1, got "
                         << sliceSizes[d];
  if (indexVectorDim < 0 || indexVectorDim > int64_t(idx->size()))
    return emitError() << "index_vector_dim " << indexVectorDim
                       << " is out of range for start_indices of rank "
                       << idx->size();
  int64_t indexVectorSize =
      indexVectorDim == int64_t(idx->size()) ? 1 : (*idx)[indexVectorDim];
  if (!dimsCompatible(indexVectorSize, startIndexMap.size()))
    return emitError() << "start_index_map has " << startIndexMap.size()
                       << " entries but the index vector has "
                       << indexVectorSize;
  if (operandBatchingDims.size() != indicesBatchingDims.size())
    return emitError() << "operand_batching_dims and "
                          "start_indices_batching_dims differ in size";
  int64_t batchRank = idx->size() - (indexVectorDim < int64_t(idx->size()));
  int64_t expectedRank = batchRank + offsetDims.size();
  if (int64_t(out->size()) != expectedRank)
    return emitError() << "result rank " << out->size() << " should be "
                       << expectedRank << " (batch dims + offset_dims)";
  if (int64_t(offsetDims.size()) != rank - int64_t(dropped.size()))
    return emitError() << "offset_dims has " << offsetDims.size()
                       << " entries but " << rank - int64_t(dropped.size())
                       << " operand dimensions are not collapsed";
  if (failed(checkDimList(emitError, "offset_dims", offsetDims, out->size())))
    return failure();
  // Offset dims take the non-collapsed slice sizes in order; the remaining
  // result dims are the batch dims of start_indices in order.
  size_t next = 0;
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dropped, d))
      kept.push_back(sliceSizes[d]);
  SmallVector<int64_t> batch;
  for (int64_t d = 0; d < int64_t(idx->size()); ++d)
    if (d != indexVectorDim)
      batch.push_back((*idx)[d]);
  size_t b = 0;
  SmallVector<int64_t> sortedOffsets(offsetDims);
  llvm::sort(sortedOffsets);
  for (int64_t d = 0; d < int64_t(out->size()); ++d) {
    int64_t expected = llvm::is_contained(offsetDims, d) ? kept[next++]
                                                          : batch[b++];
    if (!dimsCompatible((*out)[d], expected))
      return emitError() << "result dimension " << d << " is " << (*out)[d]
                         << " but gather gives " << expected;
  }
  return success();
}

LogicalResult mlir::hlo::verifyScatter(
    EmitErrorFn emitError, TypeRange operands, Type indices, TypeRange updates,
    Type result, ArrayRef<int64_t> updateWindowDims,
    ArrayRef<int64_t> insertedWindowDims,
    ArrayRef<int64_t> scatterDimsToOperandDims, int64_t indexVectorDim) {
  auto op = getDims(operands[0], emitError, "operand");
  auto idx = getDims(indices, emitError, "scatter_indices");
  if (failed(op) || failed(idx))
    return failure();
  if (indexVectorDim < 0 || indexVectorDim > int64_t(idx->size()))
    return emitError() << "index_vector_dim " << indexVectorDim
                       << " is out of range for scatter_indices of rank "
                       << idx->size();
  if (failed(checkDimList(emitError, "scatter_dims_to_operand_dims",
                          scatterDimsToOperandDims, op->size())) ||
      failed(checkDimList(emitError, "inserted_window_dims",
                          insertedWindowDims, op->size())))
    return failure();
  for (auto [i, u] : llvm::enumerate(updates)) {
    auto ud = getDims(u, emitError, "update");
    if (failed(ud))
      return failure();
    if (failed(checkDimList(emitError, "update_window_dims", updateWindowDims,
                            ud->size())))
      return failure();
  }
  SmallVector<Type> gotTypes;
  if (auto tt = dyn_cast<TupleType>(result))
    gotTypes.assign(tt.getTypes().begin(), tt.getTypes().end());
  else
    gotTypes.push_back(result);
  if (gotTypes.size() != operands.size())
    return emitError() << "result must have one array per operand";
  for (auto [t, o] : llvm::zip(gotTypes, operands))
    if (!shapesCompatible(t, o))
      return emitError() << "result type " << t
                         << " must match the operand type " << o;
  return success();
}

LogicalResult mlir::hlo::verifySignature(EmitErrorFn emitError, StringRef what,
                                         FunctionType callee,
                                         TypeRange expectedArgs,
                                         std::optional<Type> expectedResult) {
  auto sameModuloLayout = [](Type a, Type b) {
    if (a == b)
      return true;
    auto ta = dyn_cast<RankedTensorType>(a), tb = dyn_cast<RankedTensorType>(b);
    if (ta && tb)
      return ta.getShape() == tb.getShape() &&
             ta.getElementType() == tb.getElementType();
    auto ua = dyn_cast<TupleType>(a), ub = dyn_cast<TupleType>(b);
    if (!ua || !ub || ua.size() != ub.size())
      return false;
    for (auto [x, y] : llvm::zip(ua.getTypes(), ub.getTypes()))
      if (x != y && !(isa<RankedTensorType>(x) && isa<RankedTensorType>(y) &&
                      cast<RankedTensorType>(x).getShape() ==
                          cast<RankedTensorType>(y).getShape() &&
                      elementType(x) == elementType(y)))
        return false;
    return true;
  };
  if (!expectedArgs.empty() || callee.getNumInputs() == 0) {
    if (callee.getNumInputs() != expectedArgs.size())
      return emitError() << what << " computation takes "
                         << callee.getNumInputs() << " parameters, expected "
                         << expectedArgs.size();
    for (size_t i = 0; i < expectedArgs.size(); ++i)
      if (!sameModuloLayout(callee.getInput(i), expectedArgs[i]))
        return emitError() << what << " computation parameter " << i
                           << " has type " << callee.getInput(i)
                           << ", expected " << expectedArgs[i];
  }
  if (expectedResult && callee.getNumResults() == 1 &&
      !sameModuloLayout(callee.getResult(0), *expectedResult))
    return emitError() << what << " computation returns "
                       << callee.getResult(0) << ", expected "
                       << *expectedResult;
  return success();
}
