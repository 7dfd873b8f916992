//===- ReduceDecomposer.cpp - reduces in their inputs' layout -------------===//
//
// XLA's ReduceDecomposer, as XLA-GPU configures it (its "hlo normalization"
// pipeline, after layout assignment): two rewrites, in two sweeps.
//
// 1. The inputs of a variadic reduce all get the first input's layout
//    (copies of the others).
// 2. A reduce the reduction emitter does not take (XLA's
//    IsReductionFromOrToContiguousDimensions over the inputs' physical
//    shape is false: the elemental emitter computes it in a loop fusion)
//    whose results are not laid out as its input without the reduced
//    dimensions computes into that layout, and copies give each result
//    the layout it had.
//
// The last new instruction takes the reduce's name.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "LayoutUtils.h"
#include "ReductionUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOREDUCEDECOMPOSER
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The result types of `op`, one per reduced array.
static SmallVector<Type> resultTypes(ReduceOp op) {
  if (auto tuple = dyn_cast<TupleType>(op.getType()))
    return SmallVector<Type>(tuple.getTypes());
  return {op.getType()};
}

static bool isDecomposable(ReduceOp op) {
  if (hasControlPredecessors(op) || isControlPredecessor(op))
    return false;
  auto plain = [](Type t) { return isStaticArray(t) && hasPlainLayout(t); };
  return llvm::all_of(op.getInputs().getTypes(), plain) &&
         llvm::all_of(resultTypes(op), plain);
}

/// XLA's IsReductionFromOrToContiguousDimensions on an input of any
/// layout: the reduced dimensions are read in the input's physical order.
static bool takenByReductionEmitter(ReduceOp op) {
  auto input = cast<RankedTensorType>(op.getInputs()[0].getType());
  SmallVector<int64_t> m2m = getMinorToMajor(input);
  SmallVector<int64_t> reduced;
  for (auto [position, d] : llvm::enumerate(llvm::reverse(m2m)))
    if (llvm::is_contained(op.getDimensions(), d))
      reduced.push_back(position);
  return isReductionFromOrToContiguousDimensions(physicalShape(input), reduced);
}

/// Rewrite 1: true if `op` was replaced.
static bool equalizeInputLayouts(ReduceOp op) {
  unsigned n = numReducedArrays(op);
  SmallVector<Value> inputs(op.getInputs().take_front(n));
  SmallVector<int64_t> first = getMinorToMajor(inputs[0].getType());
  OpBuilder b(op);
  Location loc = derivedLoc(op.getLoc());
  bool copied = false;
  for (Value &input : llvm::drop_begin(inputs)) {
    if (getMinorToMajor(input.getType()) == first)
      continue;
    input = createCopy(b, loc, input, withMinorToMajor(input.getType(), first));
    copied = true;
  }
  if (!copied)
    return false;
  Value reduce = createReduce(b, op.getLoc(), op, op.getType(), inputs,
                              op.getInputs().drop_front(n), op.getDimensions());
  replaceReduce(op, reduce);
  return true;
}

/// Rewrite 2: true if `op` was replaced.
static bool decomposeResultLayouts(ReduceOp op) {
  if (takenByReductionEmitter(op))
    return false;
  unsigned n = numReducedArrays(op);
  SmallVector<int64_t> expected = deleteDimensions(
      getMinorToMajor(op.getInputs()[0].getType()), op.getDimensions());
  SmallVector<Type> results = resultTypes(op), computed;
  bool differs = false;
  for (Type t : results) {
    computed.push_back(withMinorToMajor(t, expected));
    differs |= !sameArrayType(computed.back(), t);
  }
  if (!differs)
    return false;

  OpBuilder b(op);
  InstBuilder ib(b, derivedLoc(op.getLoc()));
  bool variadic = isa<TupleType>(op.getType());
  Type computedType =
      variadic ? Type(TupleType::get(op.getContext(), computed)) : computed[0];
  Value reduce = createReduce(b, ib.getLoc(), op, computedType,
                              op.getInputs().take_front(n),
                              op.getInputs().drop_front(n), op.getDimensions());
  SmallVector<Value> copies;
  for (auto [i, t] : llvm::enumerate(results)) {
    Value r = variadic ? ib.getTupleElement(reduce, i) : reduce;
    copies.push_back(createCopy(b, ib.getLoc(), r, t));
  }
  replaceByNamed(op, variadic ? ib.tuple(copies) : copies[0]);
  return true;
}

namespace {
struct ReduceDecomposerPass
    : ChangeReportingPass<ReduceDecomposerPass,
                          hlo::impl::HloReduceDecomposerBase> {
  void run() {
    for (ReduceOp op : nonFusionReduces(getOperation()))
      if (isDecomposable(op) && equalizeInputLayouts(op)) {
        ++numEqualized;
        changed = true;
      }
    for (ReduceOp op : nonFusionReduces(getOperation()))
      if (isDecomposable(op) && decomposeResultLayouts(op)) {
        ++numDecomposed;
        changed = true;
      }
  }
};
} // namespace
