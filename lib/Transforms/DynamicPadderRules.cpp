//===- DynamicPadderRules.cpp - hlo-dynamic-padder per instruction --------===//
//
// The rule of each instruction for hlo-dynamic-padder (DynamicPadder.cpp):
// the runtime sizes of its result's dynamic dimensions from its operands'
// (XLA's DynamicDimensionInference), and the rewrite of what would read
// padding (XLA's DynamicPadder): masks with the identity of reduced,
// contracted and padded dimensions, a concatenate along a dynamic
// dimension as dynamic-update-slices, get-dimension-size as the size.
//
//===----------------------------------------------------------------------===//

#include "DynamicPadder.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::padder;

Value Padder::mask(Value x, int64_t d, Value s, Value pad) {
  ArrayRef<int64_t> shape = shapeOf(x);
  auto indexType = RankedTensorType::get(shape, i32);
  ExpansionBuilder b(builder, loc);
  Value iota = b.create(
      IotaOp::getOperationName(), indexType, {},
      {builder.getNamedAttr("iota_dimension", builder.getI64IntegerAttr(d))});
  auto noDims =
      builder.getNamedAttr("dimensions", builder.getDenseI64ArrayAttr({}));
  Value limit =
      b.create(BroadcastOp::getOperationName(), indexType, {s}, {noDims});
  Value inside = b.compare(ComparisonDirection::LT, iota, limit);
  Value fill = b.create(
      BroadcastOp::getOperationName(),
      RankedTensorType::get(shape, getElementTypeOrSelf(pad.getType())), {pad},
      {noDims});
  return b.create(SelectOp::getOperationName(), x.getType(), {inside, x, fill});
}

Value Padder::zero(Type element) {
  ExpansionBuilder b(builder, loc);
  auto type = RankedTensorType::get({}, element);
  if (isa<FloatType, ComplexType>(element))
    return b.splatReal(type, 0.0);
  return b.splatInt(type, 0);
}

LogicalResult Padder::unsupported(Operation *op, const Twine &why) {
  return op->emitError("hlo-dynamic-padder cannot pad this ")
         << getOpcode(op) << ": " << why;
}

LogicalResult Padder::visitReshape(ReshapeOp op) {
  Value x = op.getOperand();
  Value result = op->getResult(0);
  ArrayRef<int64_t> in = shapeOf(x), out = shapeOf(result);
  // An array without elements has no padding to keep in place.
  if (llvm::is_contained(in, 0))
    return success();
  // A dynamic dimension keeps its data in place when it is the most major
  // of its group: the groups start where the prefix products meet.
  int64_t o = 0, outPrefix = 1, inPrefix = 1;
  for (int64_t d = 0, rank = in.size(); d < rank; inPrefix *= in[d], ++d) {
    Value s = size(x, d);
    if (!s)
      continue;
    while (o < static_cast<int64_t>(out.size()) &&
           (outPrefix < inPrefix ||
            (outPrefix == inPrefix && out[o] == 1 && in[d] != 1))) {
      outPrefix *= out[o];
      ++o;
    }
    if (outPrefix != inPrefix || o == static_cast<int64_t>(out.size()))
      return unsupported(op, "dimension " + Twine(d) +
                                 " is dynamic and not the most major "
                                 "dimension of its reshape group");
    // The group: in[d..d2) and out[o..o2) of equal products.
    int64_t d2 = d + 1, o2 = o + 1, inSize = in[d], outSize = out[o];
    while (inSize != outSize) {
      if (inSize < outSize)
        inSize *= in[d2++];
      else
        outSize *= out[o2++];
    }
    for (int64_t e = d + 1; e < d2; ++e)
      if (size(x, e))
        return unsupported(op, "dimensions " + Twine(d) + " and " + Twine(e) +
                                   " are dynamic in one reshape group");
    for (int64_t e = o + 1; e < o2; ++e)
      if (isDynamicDim(result.getType(), e))
        return unsupported(op, "result dimension " + Twine(e) +
                                   " is dynamic and not the most major of "
                                   "its group");
    // size(out[o]) = s * prod(in[d+1..d2)) / prod(out[o+1..o2)).
    int64_t inner = inSize / in[d], outer = outSize / out[o];
    Value t = s;
    if (inner != 1)
      t = scalar<MulOp>(t, constant(inner));
    if (outer != 1)
      t = scalar<DivOp>(t, constant(outer));
    setSize(op->getResult(0), o, t);
  }
  return success();
}

LogicalResult Padder::visitConcatenate(ConcatenateOp op) {
  int64_t axis = op.getDimensions()[0];
  OperandRange inputs = getDataOperands(op);
  Value concat = op->getResult(0);
  int64_t rank = shapeOf(concat).size();
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      for (Value v : inputs)
        if (Value s = size(v, d)) {
          setSize(concat, d, s);
          break;
        }
  if (llvm::none_of(inputs, [&](Value v) { return size(v, axis); }))
    return success();
  // Each operand at the sum of the sizes before it; its padding is
  // overwritten by the next one (the sum never exceeds the bounds before
  // it, so dynamic-update-slice never moves it).
  Type type = op.getType();
  Value result =
      ExpansionBuilder(builder, loc)
          .splat(staticType(type), cast<TypedAttr>(builder.getZeroAttr(
                                       getElementTypeOrSelf(type))));
  Value offset = constant(0), zeroIndex = offset;
  for (Value v : inputs) {
    SmallVector<Value> operands = {result, v};
    for (int64_t d = 0; d < rank; ++d)
      operands.push_back(d == axis ? offset : zeroIndex);
    result = create(DynamicUpdateSliceOp::getOperationName(), type, operands);
    offset = scalar<AddOp>(offset, sizeOrBound(v, axis));
  }
  for (int64_t d = 0; d < rank; ++d)
    forward(concat, d, result, d);
  setSize(result, axis, offset);
  transferInstructionAttrs(op, result.getDefiningOp());
  op->getResult(0).replaceAllUsesWith(result);
  op.erase();
  return success();
}

void Padder::visitDot(DotOp op) {
  ArrayRef<int64_t> lhsBatch = orEmpty(op.getLhsBatchDims()),
                    rhsBatch = orEmpty(op.getRhsBatchDims()),
                    lhsContract = orEmpty(op.getLhsContractingDims()),
                    rhsContract = orEmpty(op.getRhsContractingDims());
  Value operands[2] = {op.getLhs(), op.getRhs()};
  ArrayRef<int64_t> batch[2] = {lhsBatch, rhsBatch},
                    contract[2] = {lhsContract, rhsContract};
  for (unsigned i = 0; i < 2; ++i)
    for (int64_t d : contract[i])
      if (Value s = size(operands[i], d)) {
        Value v = op->getOperand(i);
        op->setOperand(i,
                       mask(v, d, s, zero(getElementTypeOrSelf(v.getType()))));
      }
  // Result: batch dimensions, then the lhs's and the rhs's free ones.
  Value result = op->getResult(0);
  int64_t r = 0;
  for (int64_t d : lhsBatch)
    forward(operands[0], d, result, r++);
  for (unsigned i = 0; i < 2; ++i)
    for (int64_t d = 0, rank = shapeOf(operands[i]).size(); d < rank; ++d)
      if (!llvm::is_contained(batch[i], d) &&
          !llvm::is_contained(contract[i], d))
        forward(operands[i], d, result, r++);
}

LogicalResult Padder::visitConvolution(ConvolutionOp op) {
  ConvDimensionNumbersAttr dims = op.getDimLabels();
  Value lhs = op.getLhs(), rhs = op.getRhs();
  for (int64_t d : dims.getInputSpatial())
    if (size(lhs, d))
      return unsupported(op, "a spatial dimension is dynamic");
  for (int64_t d : dims.getKernelSpatial())
    if (size(rhs, d))
      return unsupported(op, "a spatial dimension is dynamic");
  if (op.getBatchGroupCount().value_or(1) != 1 &&
      size(lhs, dims.getInputBatch()))
    return unsupported(op, "the batch dimension is dynamic and grouped");
  int64_t contracted[2] = {dims.getInputFeature(), dims.getKernelInput()};
  for (unsigned i = 0; i < 2; ++i) {
    Value v = op->getOperand(i);
    if (Value s = size(v, contracted[i]))
      op->setOperand(i, mask(v, contracted[i], s,
                             zero(getElementTypeOrSelf(v.getType()))));
  }
  Value result = op->getResult(0);
  forward(lhs, dims.getInputBatch(), result, dims.getOutputBatch());
  forward(rhs, dims.getKernelOutput(), result, dims.getOutputFeature());
  return success();
}

LogicalResult Padder::visitPad(PadOp op) {
  PaddingAttr padding = op.getPadding();
  Value x = op.getOperand();
  for (int64_t d = 0, rank = shapeOf(x).size(); d < rank; ++d) {
    Value s = size(x, d);
    if (!s)
      continue;
    int64_t low = padding.getLow()[d], high = padding.getHigh()[d],
            interior = padding.getInterior()[d];
    if (!low && !high && !interior) {
      setSize(op->getResult(0), d, s);
      continue;
    }
    if (low < 0 || high < 0)
      return unsupported(op, "a dynamic dimension has negative padding");
    // The padding of the operand becomes padding values; the result holds
    // low + s + interior * max(s - 1, 0) + high elements.
    op->setOperand(0, mask(op->getOperand(0), d, s, op.getPaddingValue()));
    Value t = scalar<AddOp>(s, constant(low + high));
    if (interior) {
      Value gaps =
          scalar<MaxOp>(scalar<SubtractOp>(s, constant(1)), constant(0));
      t = scalar<AddOp>(t, scalar<MulOp>(gaps, constant(interior)));
    }
    setSize(op->getResult(0), d, t);
  }
  return success();
}

LogicalResult Padder::visit(Operation *op) {
  loc = derivedLoc(op->getLoc());
  builder.setInsertionPoint(op);
  // The sources of sizes.
  if (auto set = dyn_cast<SetDimensionSizeOp>(op)) {
    int64_t dim = set.getDimensions()[0];
    Value result = set->getResult(0);
    for (int64_t d = 0, rank = shapeOf(result).size(); d < rank; ++d)
      if (d != dim)
        forward(set.getOperand(), d, result, d);
    setSize(result, dim, set.getSize());
    forwarded.push_back(op);
    return success();
  }
  if (auto call = dyn_cast<CustomCallOp>(op);
      call && call.getCustomCallTarget() == "SliceToDynamic") {
    OperandRange data = getDataOperands(op);
    for (auto [d, s] : llvm::enumerate(data.drop_front()))
      setSize(call->getResult(0), d, s);
    forwarded.push_back(op);
    return success();
  }
  OperandRange data = getDataOperands(op);
  if (llvm::none_of(data, [&](Value v) { return dynamic.contains(v); }))
    return success();
  Value result = op->getNumResults() ? op->getResult(0) : Value();
  auto forwardAll = [&](Value v) {
    for (int64_t d = 0, rank = shapeOf(v).size(); d < rank; ++d)
      forward(v, d, result, d);
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](GetDimensionSizeOp get) {
        if (Value s = size(get.getOperand(), get.getDimensions()[0])) {
          get->getResult(0).replaceAllUsesWith(s);
          get.erase();
        }
        return success();
      })
      .Case([&](BroadcastOp b) {
        for (auto [i, d] : llvm::enumerate(orEmpty(b.getDimensions())))
          forward(b.getOperand(), i, result, d);
        return success();
      })
      .Case([&](TransposeOp t) {
        for (auto [i, d] : llvm::enumerate(t.getDimensions()))
          forward(t.getOperand(), d, result, i);
        return success();
      })
      .Case([&](ReverseOp r) -> LogicalResult {
        for (int64_t d : r.getDimensions())
          if (size(r.getOperand(), d))
            return unsupported(op, "a reversed dimension is dynamic");
        forwardAll(r.getOperand());
        return success();
      })
      .Case([&](SliceOp s) {
        SliceAttr slice = s.getSlice();
        ArrayRef<int64_t> bounds = shapeOf(s.getOperand());
        // Slicing part of a dynamic dimension makes it static (XLA).
        for (int64_t d = 0, rank = bounds.size(); d < rank; ++d)
          if (slice.getStarts()[d] == 0 && slice.getStrides()[d] == 1 &&
              slice.getLimits()[d] == bounds[d])
            forward(s.getOperand(), d, result, d);
        return success();
      })
      .Case([&](ReshapeOp r) { return visitReshape(r); })
      .Case([&](ConcatenateOp c) { return visitConcatenate(c); })
      .Case([&](PadOp p) { return visitPad(p); })
      .Case([&](DotOp d) {
        visitDot(d);
        return success();
      })
      .Case([&](ConvolutionOp c) { return visitConvolution(c); })
      .Case([&](ReduceOp r) -> LogicalResult {
        SmallVector<Value> inputs(data);
        unsigned n = inputs.size() / 2;
        ArrayRef<int64_t> dims = r.getDimensions();
        for (unsigned i = 0; i < n; ++i)
          for (int64_t d : dims)
            if (Value s = size(inputs[i], d))
              op->setOperand(i, mask(op->getOperand(i), d, s, inputs[n + i]));
        SmallVector<int64_t> kept;
        for (int64_t d = 0, rank = shapeOf(inputs[0]).size(); d < rank; ++d)
          if (!llvm::is_contained(dims, d))
            kept.push_back(d);
        for (auto [j, d] : llvm::enumerate(kept)) {
          if (n > 1 && size(inputs[0], d))
            return unsupported(op, "a kept dimension of a variadic reduce is "
                                   "dynamic");
          forward(inputs[0], d, result, j);
        }
        return success();
      })
      .Case([&](ReduceWindowOp r) -> LogicalResult {
        WindowAttr window = r.getWindowAttr();
        if (data.size() != 2)
          return unsupported(op, "variadic");
        for (int64_t d = 0, rank = shapeOf(data[0]).size(); d < rank; ++d) {
          if (!size(data[0], d))
            continue;
          auto at = [&](ArrayRef<int64_t> v, int64_t dflt) {
            return static_cast<size_t>(d) < v.size() ? v[d] : dflt;
          };
          if (window &&
              (at(window.getSize(), 1) != 1 || at(window.getStride(), 1) != 1 ||
               at(window.getPadLow(), 0) || at(window.getPadHigh(), 0) ||
               at(window.getLhsDilate(), 1) != 1 ||
               at(window.getRhsDilate(), 1) != 1))
            return unsupported(op, "a dynamic dimension has a window");
          forward(data[0], d, result, d);
        }
        return success();
      })
      .Case([&](SortOp s) -> LogicalResult {
        int64_t dim = s.getDimensions()[0];
        for (Value v : data)
          if (size(v, dim))
            return unsupported(op, "the sorted dimension is dynamic");
        if (data.size() != 1)
          return unsupported(op, "a variadic sort of a dynamic value");
        forwardAll(data[0]);
        return success();
      })
      .Case([&](TupleOp t) -> LogicalResult {
        if (t->hasOneUse() &&
            t->use_begin()->getOwner()->hasTrait<OpTrait::IsTerminator>())
          return success();
        return unsupported(op, "a tuple of dynamic values (only the entry's "
                               "root tuple is supported)");
      })
      .Default([&](Operation *) -> LogicalResult {
        if ((!isElementwise(op) && !isa<AllReduceOp>(op)) ||
            !isa<RankedTensorType>(result.getType()))
          return unsupported(op, "not supported with dynamic operands");
        // Elementwise: each dimension's size from an operand of the
        // result's rank that has one.
        for (int64_t d = 0, rank = shapeOf(result).size(); d < rank; ++d)
          for (Value v : data)
            if (shapeOf(v).size() == shapeOf(result).size())
              if (Value s = size(v, d)) {
                setSize(result, d, s);
                break;
              }
        return success();
      });
}
