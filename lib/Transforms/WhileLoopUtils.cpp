//===- WhileLoopUtils.cpp - building instructions and counted loops -------===//

#include "WhileLoopUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <complex>

using namespace mlir;
using namespace mlir::hlo;

Value InstBuilder::scalar(Type elementType, int64_t value) {
  Value &cached = scalars[{elementType, value}];
  if (cached)
    return cached;
  auto type = RankedTensorType::get({}, elementType);
  DenseElementsAttr literal;
  if (auto complex = dyn_cast<ComplexType>(elementType)) {
    auto part = cast<FloatType>(complex.getElementType());
    APFloat re(part.getFloatSemantics(), value);
    APFloat im = APFloat::getZero(part.getFloatSemantics());
    literal = DenseElementsAttr::get(type, {std::complex<APFloat>(re, im)});
  } else if (auto floatType = dyn_cast<FloatType>(elementType)) {
    APFloat v(floatType.getFloatSemantics(), value);
    literal = DenseElementsAttr::get(type, {v});
  } else {
    unsigned width = elementType.getIntOrFloatBitWidth();
    literal = DenseElementsAttr::get(
        type, {APInt(width, uint64_t(value), /*isSigned=*/true,
                     /*implicitTrunc=*/true)});
  }
  return cached =
             create<ConstantOp>(type, {}, {b.getNamedAttr("value", literal)});
}

Value InstBuilder::splat(Type elementType, int64_t value,
                         ArrayRef<int64_t> shape) {
  Value s = scalar(elementType, value);
  if (shape.empty())
    return s;
  return broadcast(s, RankedTensorType::get(shape, elementType));
}

Value InstBuilder::broadcast(Value s, Type type) {
  return create<BroadcastOp>(
      type, s, {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({}))});
}

Value InstBuilder::reshape(Value v, ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get(shape, tensorType(v).getElementType());
  if (tensorType(v).getShape() == shape)
    return v;
  return create<ReshapeOp>(type, v);
}

Value InstBuilder::transpose(Value v, ArrayRef<int64_t> perm) {
  if (isIdentityPermutation(perm))
    return v;
  RankedTensorType in = tensorType(v);
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(in.getDimSize(p));
  return create<TransposeOp>(
      RankedTensorType::get(shape, in.getElementType()), v,
      {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(perm))});
}

Value InstBuilder::convert(Value v, Type elementType) {
  RankedTensorType in = tensorType(v);
  if (in.getElementType() == elementType)
    return v;
  return create<ConvertOp>(RankedTensorType::get(in.getShape(), elementType),
                           v);
}

Value InstBuilder::element(Value v, ArrayRef<int64_t> index) {
  RankedTensorType in = tensorType(v);
  if (in.getNumElements() == 1)
    return reshape(v, {});
  SmallVector<int64_t> limits, strides(index.size(), 1), ones(index.size(), 1);
  for (int64_t i : index)
    limits.push_back(i + 1);
  Value slice = create<SliceOp>(
      RankedTensorType::get(ones, in.getElementType()), v,
      {b.getNamedAttr("slice",
                      SliceAttr::get(b.getContext(), index, limits, strides))});
  return reshape(slice, {});
}

Value InstBuilder::dynamicSlice(Value v, ValueRange starts,
                                ArrayRef<int64_t> sizes) {
  SmallVector<Value> operands{v};
  llvm::append_range(operands, starts);
  return create<DynamicSliceOp>(
      RankedTensorType::get(sizes, tensorType(v).getElementType()), operands,
      {b.getNamedAttr("dynamic_slice_sizes", b.getDenseI64ArrayAttr(sizes))});
}

Value InstBuilder::dynamicUpdateSlice(Value v, Value update,
                                      ValueRange starts) {
  SmallVector<Value> operands{v, update};
  llvm::append_range(operands, starts);
  return create<DynamicUpdateSliceOp>(v.getType(), operands);
}

Value InstBuilder::compare(Value lhs, Value rhs,
                           ComparisonDirection direction) {
  auto type = RankedTensorType::get(tensorType(lhs).getShape(), b.getI1Type());
  return create<CompareOp>(
      type, {lhs, rhs},
      {b.getNamedAttr("direction", ComparisonDirectionAttr::get(b.getContext(),
                                                                direction))});
}

Value InstBuilder::getTupleElement(Value tuple, int64_t index) {
  Type type = cast<TupleType>(tuple.getType()).getType(index);
  return create<GetTupleElementOp>(
      type, tuple, {b.getNamedAttr("index", b.getI64IntegerAttr(index))});
}

Value InstBuilder::tuple(ValueRange elements) {
  return create<TupleOp>(TupleType::get(b.getContext(), elements.getTypes()),
                         elements);
}

ComputationOp mlir::hlo::createComputation(SymbolTable &symbols,
                                           ComputationOp parent, StringRef name,
                                           TypeRange argTypes, Location loc) {
  OpBuilder b(parent.getContext()); // Detached: the symbol table inserts it.
  auto comp = ComputationOp::create(
      b, loc, name, b.getStringAttr("private"), b.getFunctionType(argTypes, {}),
      /*arg_attrs=*/nullptr,
      /*res_attrs=*/nullptr, /*entry=*/false, parent.getExecutionThreadAttr());
  symbols.insert(comp, Block::iterator(parent));
  Block *block = new Block();
  comp.getBody().push_back(block);
  for (Type t : argTypes)
    block->addArgument(t, loc);
  return comp;
}

void mlir::hlo::setComputationResult(ComputationOp comp, OpBuilder &b,
                                     Value root) {
  ReturnOp::create(b, root.getLoc(), root);
  comp.setFunctionType(
      b.getFunctionType(comp.getArgumentTypes(), {root.getType()}));
}

SmallVector<Value> mlir::hlo::buildCountedLoop(
    InstBuilder &ib, SymbolTable &symbols, ComputationOp parent, StringRef name,
    int64_t tripCount, ValueRange init, CountedLoopBody body, size_t numResults,
    LoopGoesOn goesOn) {
  MLIRContext *ctx = parent.getContext();
  Location loc = ib.getLoc();
  Type s32 = IntegerType::get(ctx, 32);
  SmallVector<Value> initState{ib.scalar(s32, 0)};
  llvm::append_range(initState, init);
  Value initTuple = ib.tuple(initState);
  Type stateType = initTuple.getType();

  // condition: i < tripCount.
  ComputationOp cond = createComputation(
      symbols, parent, (name + "_condition").str(), {stateType}, loc);
  {
    OpBuilder b = OpBuilder::atBlockEnd(&cond.getBody().front());
    InstBuilder cb(b, loc);
    Value i = cb.getTupleElement(cond.getArgument(0), 0);
    Value less =
        cb.compare(i, cb.scalar(s32, tripCount), ComparisonDirection::LT);
    if (goesOn) {
      SmallVector<Value> state;
      for (size_t k = 0; k < init.size(); ++k)
        state.push_back(cb.getTupleElement(cond.getArgument(0), k + 1));
      Value more = goesOn(cb, state);
      less = cb.create<AndOp>(less.getType(), {less, more});
    }
    setComputationResult(cond, b, less);
  }

  // body: state = body(i, state); i = i + 1.
  ComputationOp loopBody = createComputation(
      symbols, parent, (name + "_body").str(), {stateType}, loc);
  {
    OpBuilder b = OpBuilder::atBlockEnd(&loopBody.getBody().front());
    InstBuilder bb(b, loc);
    Value param = loopBody.getArgument(0);
    Value i = bb.getTupleElement(param, 0);
    SmallVector<Value> state;
    for (size_t k = 0; k < init.size(); ++k)
      state.push_back(bb.getTupleElement(param, k + 1));
    SmallVector<Value> next = body(bb, i, state);
    SmallVector<Value> nextState{
        bb.create<AddOp>(i.getType(), {i, bb.scalar(s32, 1)})};
    llvm::append_range(nextState, next);
    setComputationResult(loopBody, b, bb.tuple(nextState));
  }

  OpBuilder &b = ib.getBuilder();
  Value loop = ib.create<WhileOp>(
      stateType, initTuple,
      {b.getNamedAttr("condition", FlatSymbolRefAttr::get(cond)),
       b.getNamedAttr("body", FlatSymbolRefAttr::get(loopBody))});
  SmallVector<Value> results;
  for (size_t k = 0; k < numResults; ++k)
    results.push_back(ib.getTupleElement(loop, k + 1));
  return results;
}
