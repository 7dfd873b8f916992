//===- ReductionDegenerateDimRemover.cpp - size-1 dims out of reduces -----===//
//
// XLA's ReductionDegenerateDimRemover (gpu/reduction_degenerate_dim_remover):
// a reduce whose inputs have dimensions of size 1 reduces bitcasts of them
// without those dimensions (their layouts' order of the other dimensions
// kept); a bitcast restores the result's shape. A reduce over size-1
// dimensions only becomes a reshape of its input.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "ReductionUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOREDUCTIONDEGENERATEDIMREMOVER
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// `type` without its size-1 dimensions, its layout's order of the others
/// kept (XLA's ShapeUtil::DropDegenerateDimensions): a bitcast of `type`.
RankedTensorType withoutOnes(RankedTensorType type) {
  SmallVector<int64_t> shape, index(type.getRank(), -1);
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    if (size != 1) {
      index[d] = shape.size();
      shape.push_back(size);
    }
  auto layout = dyn_cast_or_null<LayoutAttr>(type.getEncoding());
  if (!layout || !layout.getHasMinorToMajor())
    return RankedTensorType::get(shape, type.getElementType());
  SmallVector<int64_t> minorToMajor;
  for (int64_t d : layout.getMinorToMajor())
    if (index[d] >= 0)
      minorToMajor.push_back(index[d]);
  return RankedTensorType::get(
      shape, type.getElementType(),
      LayoutAttr::get(type.getContext(), true, minorToMajor, {}, {},
                      layout.getElementSizeInBits(), layout.getMemorySpace(),
                      {}, StringAttr::get(type.getContext(), "")));
}

/// A bitcast of `v` to `type`.
Value bitcastTo(OpBuilder &b, Location loc, Value v, Type type) {
  if (v.getType() == type)
    return v;
  return createInstruction(b, loc, BitcastOp::getOperationName(), type, {v})
      ->getResult(0);
}

struct ReductionDegenerateDimRemoverPass
    : ChangeReportingPass<ReductionDegenerateDimRemoverPass,
                          hlo::impl::HloReductionDegenerateDimRemoverBase> {
  void run() {
    SmallVector<ReduceOp> worklist = nonFusionReduces(getOperation());
    for (ReduceOp op : worklist)
      rewrite(op);
  }

  void rewrite(ReduceOp op) {
    // A reduce over no dimension is the simplifier's (reducer(init, x)).
    if (!isPlainReduce(op) || op.getDimensions().empty())
      return;
    unsigned n = numReducedArrays(op);
    ValueRange inputs = op.getInputs().take_front(n);
    ValueRange inits = op.getInputs().drop_front(n);
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(inputs.front().getType()).getShape();
    if (!llvm::is_contained(shape, 1))
      return;
    SmallVector<int64_t> dims;
    for (int64_t d = 0, shift = 0, e = shape.size(); d < e; ++d) {
      if (shape[d] == 1)
        ++shift;
      else if (llvm::is_contained(op.getDimensions(), d))
        dims.push_back(d - shift);
    }
    SmallVector<Type> resultTypes;
    if (n == 1)
      resultTypes.push_back(op.getType());
    else
      llvm::append_range(resultTypes, cast<TupleType>(op.getType()).getTypes());

    OpBuilder b(op);
    Location loc = derivedLoc(op.getLoc());
    Value result;
    if (dims.empty()) {
      // Nothing left to add up: each result element is its input element
      // (the init value is an identity of the reducer). The result has fewer
      // dimensions than the input, so every reshape is a new instruction.
      SmallVector<Value> outs;
      for (auto [input, type] : llvm::zip(inputs, resultTypes))
        outs.push_back(
            reshapeTo(b, loc, input, cast<RankedTensorType>(type).getShape()));
      result = n == 1 ? outs.front()
                      : createInferred<TupleOp>(b, loc, outs)->getResult(0);
    } else {
      // Bitcasts, as XLA's pass makes them (after layout assignment).
      SmallVector<Value> reshaped;
      for (Value input : inputs)
        reshaped.push_back(
            bitcastTo(b, loc, input,
                      withoutOnes(cast<RankedTensorType>(input.getType()))));
      SmallVector<Type> canonical;
      for (Type type : resultTypes)
        canonical.push_back(withoutOnes(cast<RankedTensorType>(type)));
      Type reduceType = n == 1 ? canonical.front()
                               : TupleType::get(op.getContext(), canonical);
      Value reduced =
          createReduce(b, loc, op, reduceType, reshaped, inits, dims);
      if (n == 1) {
        result = bitcastTo(b, loc, reduced, resultTypes.front());
      } else {
        SmallVector<Value> outs;
        for (auto [i, type] : llvm::enumerate(resultTypes)) {
          Value element = createInferred<GetTupleElementOp>(
              b, loc, {reduced},
              {b.getNamedAttr("index", b.getI64IntegerAttr(i))});
          outs.push_back(bitcastTo(b, loc, element, type));
        }
        result = createInferred<TupleOp>(b, loc, outs)->getResult(0);
      }
    }
    replaceReduce(op, result);
    ++numRewritten;
    changed = true;
  }
};
} // namespace
