//===- DynamicPadder.cpp - bounded dynamic dimensions to static shapes ----===//
//
// XLA's DynamicPadder, with the part of XLA's DynamicDimensionInference it
// needs. A bounded dynamic dimension (`f32[<=8]`) is held at its bound; its
// runtime size is an s32 scalar somewhere in the program. The pass finds
// that scalar for every dynamic dimension of the entry computation (from
// `set-dimension-size`, the `SliceToDynamic` custom call and, for the
// entry's parameters, a `PadToStatic` custom call it adds), carries it
// through the instructions (elementwise, broadcast, transpose, reshape,
// reduce, dot, convolution, slice, concatenate, pad, reverse, reduce-window,
// sort), and rewrites what would read the padding:
// - a reduced, contracted or windowed dimension is masked with the identity
//   (XLA's PadWithScalar: `select(iota < size, x, identity)`): the reduce's
//   init value, zero for dot and convolution, the pad value for pad;
// - a concatenate along a dynamic dimension becomes dynamic-update-slices
//   at the running sum of the sizes;
// - `get-dimension-size` becomes the size it reads, `set-dimension-size`
//   and `SliceToDynamic` their operand.
// Then every type becomes static. With `slice-dynamic-output` (XLA's
// default) the entry's dynamic results go out through `SliceToDynamic`, so
// the computation's signature stays as it was.
//
// Not supported (the pass fails with an error at the instruction, as XLA's
// does for what it cannot pad): dynamic dimensions in called computations
// (while, conditional, call, fusion), tuples other than the entry's root,
// reshapes that move a dynamic dimension's data (one that is not the most
// major of the dimensions it is grouped with), and the other opcodes.
//
//===----------------------------------------------------------------------===//

#include "ExpanderUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "llvm/ADT/TypeSwitch.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLODYNAMICPADDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// The layout of `type` if it has bounded dynamic dimensions.
LayoutAttr boundedLayout(Type type) {
  auto rt = dyn_cast<RankedTensorType>(type);
  auto layout = rt ? dyn_cast_or_null<LayoutAttr>(rt.getEncoding()) : nullptr;
  return layout && !layout.getBounds().empty() ? layout : nullptr;
}

/// True if `type` (or an element of it) has a dynamic dimension.
bool hasDynamicDims(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::any_of(tuple.getTypes(), hasDynamicDims);
  auto rt = dyn_cast<RankedTensorType>(type);
  return rt && !rt.hasStaticShape();
}

/// True if dimension `d` of `type` is a bounded dynamic dimension.
bool isDynamicDim(Type type, int64_t d) {
  LayoutAttr layout = boundedLayout(type);
  return layout && layout.isBounded(d);
}

/// `type` with its bounded dynamic dimensions at their bounds and the
/// bounds dropped from its layout (tuples element by element).
Type staticType(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return TupleType::get(type.getContext(),
                          llvm::map_to_vector(tuple.getTypes(), staticType));
  LayoutAttr layout = boundedLayout(type);
  if (!layout)
    return type;
  auto rt = cast<RankedTensorType>(type);
  SmallVector<int64_t> dims(rt.getShape());
  for (auto [d, n] : llvm::enumerate(dims))
    if (layout.isBounded(d))
      n = layout.getBounds()[d];
  StringAttr extra = layout.getExtra();
  Attribute encoding;
  if (layout.getHasMinorToMajor() || !layout.getTileSizes().empty() ||
      layout.getElementSizeInBits() || layout.getMemorySpace() ||
      (extra && !extra.getValue().empty()))
    encoding = LayoutAttr::get(
        type.getContext(), layout.getHasMinorToMajor(),
        layout.getMinorToMajor(), layout.getTileSizes(), layout.getTileData(),
        layout.getElementSizeInBits(), layout.getMemorySpace(), {}, extra);
  return RankedTensorType::get(dims, rt.getElementType(), encoding);
}

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(staticType(v.getType())).getShape();
}

/// Pads the entry computation of one module.
class Padder {
public:
  Padder(ComputationOp entry, bool sliceOutput)
      : entry(entry), sliceOutput(sliceOutput),
        builder(entry.getContext()), i32(builder.getI32Type()) {}

  LogicalResult run();

private:
  /// The runtime size of dimension `d` of `v`: null when it is the bound.
  Value size(Value v, int64_t d) const { return sizes.lookup({v, d}); }
  void setSize(Value v, int64_t d, Value s) {
    if (!s || !isDynamicDim(v.getType(), d))
      return;
    sizes[{v, d}] = s;
    dynamic.insert(v);
  }
  /// Dimension `to` of `result` has the size of dimension `from` of `v`.
  void forward(Value v, int64_t from, Value result, int64_t to) {
    setSize(result, to, size(v, from));
  }
  /// The size of dimension `d` of `v` as a value: the bound when unknown.
  Value sizeOrBound(Value v, int64_t d) {
    Value s = size(v, d);
    return s ? s : constant(shapeOf(v)[d]);
  }

  Value constant(int64_t v) {
    return ExpansionBuilder(builder, loc).splatInt(RankedTensorType::get({}, i32), v);
  }
  Value create(StringRef name, Type type, ValueRange operands,
               ArrayRef<NamedAttribute> attrs = {}) {
    return ExpansionBuilder(builder, loc).create(name, type, operands, attrs);
  }
  template <typename OpT> Value scalar(Value a, Value b) {
    return create(OpT::getOperationName(), a.getType(), {a, b});
  }
  /// XLA's PadWithScalar: `x` with the elements at or past `s` along `d`
  /// replaced by the rank-0 value `pad`.
  Value mask(Value x, int64_t d, Value s, Value pad);
  /// The rank-0 zero of `element`.
  Value zero(Type element);

  LogicalResult visit(Operation *op);
  LogicalResult unsupported(Operation *op, const Twine &why);
  LogicalResult visitReshape(ReshapeOp op);
  LogicalResult visitConcatenate(ConcatenateOp op);
  void visitDot(DotOp op);
  LogicalResult visitConvolution(ConvolutionOp op);
  LogicalResult visitPad(PadOp op);
  void padParameters();
  LogicalResult sliceOutputs();
  Value sliceToDynamic(Value v, Type type);

  ComputationOp entry;
  bool sliceOutput;
  OpBuilder builder;
  Location loc = builder.getUnknownLoc();
  Type i32;
  DenseMap<std::pair<Value, int64_t>, Value> sizes;
  DenseSet<Value> dynamic;
  /// set-dimension-size and SliceToDynamic: replaced by their operand once
  /// every type is static.
  SmallVector<Operation *> forwarded;
  /// Ops whose result keeps its dynamic type (the entry's outputs).
  DenseSet<Operation *> keepType;
};

Value Padder::mask(Value x, int64_t d, Value s, Value pad) {
  ArrayRef<int64_t> shape = shapeOf(x);
  auto indexType = RankedTensorType::get(shape, i32);
  ExpansionBuilder b(builder, loc);
  Value iota = b.create(IotaOp::getOperationName(), indexType, {},
                        {builder.getNamedAttr("iota_dimension",
                                              builder.getI64IntegerAttr(d))});
  auto noDims = builder.getNamedAttr("dimensions",
                                     builder.getDenseI64ArrayAttr({}));
  Value limit =
      b.create(BroadcastOp::getOperationName(), indexType, {s}, {noDims});
  Value inside = b.compare(ComparisonDirection::LT, iota, limit);
  Value fill = b.create(
      BroadcastOp::getOperationName(),
      RankedTensorType::get(shape, getElementTypeOrSelf(pad.getType())), {pad},
      {noDims});
  return b.create(SelectOp::getOperationName(), x.getType(),
                  {inside, x, fill});
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
           (outPrefix < inPrefix || (outPrefix == inPrefix && out[o] == 1 &&
                                     in[d] != 1))) {
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
  Value result = ExpansionBuilder(builder, loc)
                     .splat(staticType(type),
                            cast<TypedAttr>(builder.getZeroAttr(
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
        op->setOperand(i, mask(v, d, s, zero(getElementTypeOrSelf(v.getType()))));
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
      op->setOperand(
          i, mask(v, contracted[i], s, zero(getElementTypeOrSelf(v.getType()))));
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
      Value gaps = scalar<MaxOp>(scalar<SubtractOp>(s, constant(1)),
                                 constant(0));
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
          if (window && (at(window.getSize(), 1) != 1 ||
                         at(window.getStride(), 1) != 1 ||
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

void Padder::padParameters() {
  Block &body = entry.getBody().front();
  builder.setInsertionPointToStart(&body);
  for (BlockArgument arg : body.getArguments()) {
    if (!boundedLayout(arg.getType()))
      continue;
    loc = derivedLoc(arg.getLoc());
    auto type = cast<RankedTensorType>(staticType(arg.getType()));
    SmallVector<Type> types = {type};
    types.append(type.getRank(), RankedTensorType::get({}, i32));
    Value pad = create(
        CustomCallOp::getOperationName(),
        TupleType::get(builder.getContext(), types), {arg},
        {builder.getNamedAttr("custom_call_target",
                              builder.getStringAttr("PadToStatic"))});
    auto element = [&](int64_t i) {
      return create(GetTupleElementOp::getOperationName(), types[i], {pad},
                    {builder.getNamedAttr("index",
                                          builder.getI64IntegerAttr(i))});
    };
    Value padded = element(0);
    arg.replaceAllUsesExcept(padded, pad.getDefiningOp());
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (isDynamicDim(arg.getType(), d)) {
        sizes[{padded, d}] = element(1 + d);
        dynamic.insert(padded);
      }
  }
}

Value Padder::sliceToDynamic(Value v, Type type) {
  if (!boundedLayout(type))
    return v;
  if (auto call = v.getDefiningOp<CustomCallOp>();
      call && call.getCustomCallTarget() == "SliceToDynamic") {
    keepType.insert(call);
    return v;
  }
  SmallVector<Value> operands = {v};
  for (int64_t d = 0, rank = shapeOf(v).size(); d < rank; ++d)
    operands.push_back(sizeOrBound(v, d));
  Value out = create(CustomCallOp::getOperationName(), type, operands,
                     {builder.getNamedAttr("custom_call_target",
                                           builder.getStringAttr(
                                               "SliceToDynamic"))});
  keepType.insert(out.getDefiningOp());
  return out;
}

LogicalResult Padder::sliceOutputs() {
  Operation *terminator = entry.getBody().front().getTerminator();
  Value root = terminator->getOperand(0);
  loc = derivedLoc(root.getLoc());
  builder.setInsertionPoint(terminator);
  if (auto tuple = root.getDefiningOp<TupleOp>()) {
    if (!hasDynamicDims(tuple.getType()))
      return success();
    builder.setInsertionPoint(tuple);
    for (auto [i, v] : llvm::enumerate(getDataOperands(tuple)))
      tuple->setOperand(i, sliceToDynamic(v, v.getType()));
    keepType.insert(tuple);
    return success();
  }
  if (isa<TupleType>(root.getType()) && hasDynamicDims(root.getType()))
    return unsupported(root.getDefiningOp(),
                       "the entry's root is a tuple of dynamic values that "
                       "is not a tuple instruction");
  terminator->setOperand(0, sliceToDynamic(root, root.getType()));
  return success();
}

LogicalResult Padder::run() {
  Block &body = entry.getBody().front();
  padParameters();
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  for (Operation *op : ops)
    if (failed(visit(op)))
      return failure();
  if (sliceOutput && failed(sliceOutputs()))
    return failure();
  // Every type static, but the entry's parameters and outputs.
  for (Operation &op : body.without_terminator())
    if (!keepType.contains(&op))
      for (OpResult r : op.getResults())
        r.setType(staticType(r.getType()));
  if (!sliceOutput) {
    FunctionType type = entry.getFunctionType();
    entry.setFunctionTypeAttr(TypeAttr::get(FunctionType::get(
        entry.getContext(), type.getInputs(),
        llvm::map_to_vector(type.getResults(), staticType))));
  }
  for (Operation *op : forwarded) {
    if (keepType.contains(op))
      continue;
    Value from = op->getResult(0), to = op->getOperand(0);
    if (from.getType() != to.getType()) {
      builder.setInsertionPoint(op);
      loc = op->getLoc();
      to = create(CopyOp::getOperationName(), from.getType(), {to});
    }
    from.replaceAllUsesWith(to);
    op->erase();
  }
  return success();
}

struct DynamicPadderPass
    : hlo::impl::HloDynamicPadderBase<DynamicPadderPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    ComputationOp entry;
    bool any = false;
    // Dynamic dimensions must have a bound and be in the entry computation.
    auto check = [&](Operation *op, Type type, bool inEntry) {
      if (!hasDynamicDims(type))
        return true;
      any = true;
      if (!inEntry) {
        op->emitError("hlo-dynamic-padder cannot pad dynamic dimensions in a "
                      "called computation");
        return false;
      }
      if (isa<TupleType>(type) && isa<ComputationOp>(op)) {
        op->emitError("hlo-dynamic-padder cannot pad a tuple parameter with "
                      "dynamic dimensions");
        return false;
      }
      if (!isa<TupleType>(type) && !boundedLayout(type)) {
        op->emitError("hlo-dynamic-padder cannot pad a dynamic dimension "
                      "without a bound");
        return false;
      }
      return true;
    };
    // The computations the entry reaches (others are dead: left alone).
    SymbolTable symbols(module);
    for (auto comp : module.getOps<ComputationOp>())
      if (comp.getEntry())
        entry = comp;
    if (!entry)
      return markAllAnalysesPreserved();
    SmallVector<ComputationOp> reached = {entry};
    DenseSet<Operation *> seen = {entry};
    for (size_t i = 0; i < reached.size(); ++i)
      forEachCallee(reached[i], symbols, [&](ComputationOp callee) {
        if (seen.insert(callee).second)
          reached.push_back(callee);
      });
    for (ComputationOp comp : reached) {
      bool inEntry = comp == entry;
      auto checkAll = [&](Operation *op, TypeRange types) {
        return llvm::all_of(types,
                            [&](Type t) { return check(op, t, inEntry); });
      };
      if (!checkAll(comp, comp.getArgumentTypes()) ||
          llvm::any_of(comp.getBody().front(), [&](Operation &op) {
            return !checkAll(&op, op.getResultTypes());
          }))
        return signalPassFailure();
    }
    if (!any)
      return markAllAnalysesPreserved();
    if (failed(Padder(entry, sliceDynamicOutput).run()))
      return signalPassFailure();
    ++numPadded;
  }
};
} // namespace
