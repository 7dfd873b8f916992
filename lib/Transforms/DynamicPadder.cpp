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
// This file: the pass, the entry's parameters and outputs, the static
// types; DynamicPadderRules.cpp: the rule of each instruction.
//
//===----------------------------------------------------------------------===//

#include "DynamicPadder.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLODYNAMICPADDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::padder;

LayoutAttr padder::boundedLayout(Type type) {
  auto rt = dyn_cast<RankedTensorType>(type);
  auto layout = rt ? dyn_cast_or_null<LayoutAttr>(rt.getEncoding()) : nullptr;
  return layout && !layout.getBounds().empty() ? layout : nullptr;
}

bool padder::hasDynamicDims(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::any_of(tuple.getTypes(), hasDynamicDims);
  auto rt = dyn_cast<RankedTensorType>(type);
  return rt && !rt.hasStaticShape();
}

bool padder::isDynamicDim(Type type, int64_t d) {
  LayoutAttr layout = boundedLayout(type);
  return layout && layout.isBounded(d);
}

Type padder::staticType(Type type) {
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

ArrayRef<int64_t> padder::shapeOf(Value v) {
  return cast<RankedTensorType>(staticType(v.getType())).getShape();
}

void Padder::padParameters() {
  Block &body = entry.getBody().front();
  builder.setInsertionPointToStart(&body);
  for (BlockArgument arg : body.getArguments()) {
    if (!boundedLayout(arg.getType()))
      continue;
    // Padded already (XLA's optimized dumps): read only by PadToStatic.
    if (!arg.use_empty() && llvm::all_of(arg.getUsers(), [](Operation *user) {
          auto call = dyn_cast<CustomCallOp>(user);
          return call && call.getCustomCallTarget() == "PadToStatic";
        }))
      continue;
    loc = derivedLoc(arg.getLoc());
    auto type = cast<RankedTensorType>(staticType(arg.getType()));
    SmallVector<Type> types = {type};
    types.append(type.getRank(), RankedTensorType::get({}, i32));
    Value pad =
        create(CustomCallOp::getOperationName(),
               TupleType::get(builder.getContext(), types), {arg},
               {builder.getNamedAttr("custom_call_target",
                                     builder.getStringAttr("PadToStatic"))});
    auto element = [&](int64_t i) {
      return create(
          GetTupleElementOp::getOperationName(), types[i], {pad},
          {builder.getNamedAttr("index", builder.getI64IntegerAttr(i))});
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
  Value out =
      create(CustomCallOp::getOperationName(), type, operands,
             {builder.getNamedAttr("custom_call_target",
                                   builder.getStringAttr("SliceToDynamic"))});
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
    // The tuple's own element types: an element that is a parameter was
    // replaced by its padded (static) value already.
    auto types = cast<TupleType>(tuple.getType()).getTypes();
    for (auto [i, v] : llvm::enumerate(getDataOperands(tuple)))
      tuple->setOperand(i, sliceToDynamic(v, types[i]));
    keepType.insert(tuple);
    return success();
  }
  if (isa<TupleType>(root.getType()) && hasDynamicDims(root.getType()))
    return unsupported(root.getDefiningOp(),
                       "the entry's root is a tuple of dynamic values that "
                       "is not a tuple instruction");
  // The entry's result type: a root that is a parameter was replaced by its
  // padded (static) value already.
  terminator->setOperand(
      0, sliceToDynamic(root, entry.getFunctionType().getResult(0)));
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
    entry.setFunctionTypeAttr(TypeAttr::get(
        FunctionType::get(entry.getContext(), type.getInputs(),
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

namespace {
struct DynamicPadderPass
    : ChangeReportingPass<DynamicPadderPass, hlo::impl::HloDynamicPadderBase> {
  using ChangeReportingPass::ChangeReportingPass;
  void run() {
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
    entry = entryComputation(module);
    if (!entry)
      return;
    for (ComputationOp comp : reachableComputations({entry}, symbols)) {
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
      return;
    changed = true;
    if (failed(Padder(entry, sliceDynamicOutput).run()))
      return signalPassFailure();
    ++numPadded;
  }
};
} // namespace
