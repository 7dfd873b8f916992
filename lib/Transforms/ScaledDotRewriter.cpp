//===- ScaledDotRewriter.cpp - scaled-dot as a dot of scaled operands -----===//
//
// XLA-GPU's ScaledDotRewriter. `scaled-dot(lhs, rhs, lhs_scale, rhs_scale)`
// multiplies each operand by its scales, one scale per block of the
// operand (each operand dimension a multiple of the scale's), then dots
// them. cuBLAS has no such call, so the scaling becomes instructions:
//
//   t      = the type both are computed in: bf16 if both are narrower
//            than 16 bits, else their common type, f32 for two types of
//            one width, else the wider
//   x'     = convert(x, t) * reshape(broadcast(convert(scale, t)))
//   result = dot(lhs', rhs')      (the scaled-dot's dimension numbers,
//                                  precision and result type)
//
// where broadcast gives each scale dimension that is smaller than the
// operand's a block dimension after it ([.., m, k/b] -> [.., m, k/b, b]) and
// the reshape merges them back to the operand's shape. A scalar scale
// leaves its operand as it is. XLA runs it (unless Triton takes the
// scaled-dot) just before the GEMM rewriter; here it runs with the other
// dot rewrites of `hlo-optimization`, before layout assignment, so that
// the dot is laid out as any dot (the values are the same).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSCALEDDOTREWRITER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct ScaledDotRewriterPass
    : ChangeReportingPass<ScaledDotRewriterPass,
                          hlo::impl::HloScaledDotRewriterBase> {
  /// `x` scaled by `scale`, before `op`; null (after a diagnostic) if the
  /// scale does not fit.
  Value dequantize(ScaledDotOp op, Value x, Value scale) {
    auto xt = cast<RankedTensorType>(x.getType());
    auto st = cast<RankedTensorType>(scale.getType());
    if (st.getRank() == 0)
      return x;
    if (!xt.hasStaticShape() || !st.hasStaticShape()) {
      op.emitError("hlo-scaled-dot-rewriter: operands of dynamic shape");
      return Value();
    }
    OpBuilder b(op);
    Location loc = derivedLoc(op.getLoc());
    Type t = getScaledDotOperandType(xt.getElementType(), st.getElementType());
    auto create = [&](StringRef name, Type type, ValueRange operands,
                      ArrayRef<NamedAttribute> attrs = {}) {
      return createInstruction(b, loc, name, type, operands, attrs)
          ->getResult(0);
    };
    auto convert = [&](Value v) {
      auto vt = cast<RankedTensorType>(v.getType());
      return vt.getElementType() == t
                 ? v
                 : create(ConvertOp::getOperationName(),
                          RankedTensorType::get(vt.getShape(), t), {v});
    };
    Value wide = convert(x), scales = convert(scale);
    // Each scale dimension smaller than the operand's gets its block as
    // the next dimension.
    SmallVector<int64_t> shape, dims;
    for (int64_t d = 0; d < xt.getRank(); ++d) {
      dims.push_back(shape.size());
      shape.push_back(st.getDimSize(d));
      if (st.getDimSize(d) != xt.getDimSize(d))
        shape.push_back(xt.getDimSize(d) / st.getDimSize(d));
    }
    Value repeated = create(
        BroadcastOp::getOperationName(), RankedTensorType::get(shape, t),
        {scales}, {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(dims))});
    Value spread = create(ReshapeOp::getOperationName(),
                          RankedTensorType::get(xt.getShape(), t), {repeated});
    return create(MulOp::getOperationName(), spread.getType(), {wide, spread});
  }

  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation())) {
      SmallVector<ScaledDotOp> dots;
      for (ScaledDotOp op : comp.getBody().getOps<ScaledDotOp>())
        if (!hasControlEdges(op))
          dots.push_back(op);
      for (ScaledDotOp op : dots) {
        Value lhs = dequantize(op, op.getLhs(), op.getLhsScale());
        Value rhs =
            lhs ? dequantize(op, op.getRhs(), op.getRhsScale()) : Value();
        if (!rhs)
          return signalPassFailure();
        SmallVector<NamedAttribute> attrs;
        for (StringRef name :
             {"lhs_batch_dims", "lhs_contracting_dims", "rhs_batch_dims",
              "rhs_contracting_dims", "operand_precision", "algorithm"})
          if (Attribute a = op->getAttr(name))
            attrs.push_back(NamedAttribute(name, a));
        OpBuilder b(op);
        Value dot = createInstruction(b, derivedLoc(op.getLoc()),
                                      DotOp::getOperationName(), op.getType(),
                                      {lhs, rhs}, attrs)
                        ->getResult(0);
        replaceByNamed(op, dot);
        ++numRewritten;
        changed = true;
      }
    }
  }
};
} // namespace
