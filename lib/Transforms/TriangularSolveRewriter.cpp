//===- TriangularSolveRewriter.cpp - triangular-solve into cuBLAS trsm ----===//
//
// XLA's TriangularSolveRewriter: after layout assignment every
// triangular-solve of a non-fused computation becomes
//   call = (result, s8[temp]) custom-call(a, b),
//          custom_call_target="__cublas$triangularSolve",
//          backend_config={"left_side":...,"lower":...,
//                          "unit_diagonal":...,"transpose_a":"..."}
//   gte(call, 0)
// The scratch holds the two arrays of matrix pointers that cuBLAS's batched
// trsm reads: 2 * 8 bytes per matrix when there is more than one, else
// none. Local to each instruction: linear.
//
//===----------------------------------------------------------------------===//

#include "CudnnUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOTRIANGULARSOLVEREWRITER
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The TriangularSolveOptions JSON of `op`, as XLA writes it.
static std::string optionsJson(TriangularSolveOp op) {
  auto flag = [](std::optional<bool> b) {
    return b.value_or(false) ? "true" : "false";
  };
  Transpose t = op.getTransposeA().value_or(Transpose::NO_TRANSPOSE);
  return (Twine("{\"left_side\":") + flag(op.getLeftSide()) +
          ",\"lower\":" + flag(op.getLower()) +
          ",\"unit_diagonal\":" + flag(op.getUnitDiagonal()) +
          ",\"transpose_a\":\"" + stringifyTranspose(t) + "\"}")
      .str();
}

namespace {
struct TriangularSolveRewriterPass
    : ChangeReportingPass<TriangularSolveRewriterPass,
                          hlo::impl::HloTriangularSolveRewriterBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation())) {
      SmallVector<TriangularSolveOp> ops;
      comp.walk([&](TriangularSolveOp t) { ops.push_back(t); });
      for (TriangularSolveOp op : ops)
        rewrite(op);
    }
  }

  void rewrite(TriangularSolveOp op) {
    // Control edges stay with an instruction that keeps its name: the
    // thunk lowering takes the plain instruction too.
    if (hasControlPredecessors(op) || isControlPredecessor(op))
      return;
    auto bt = dyn_cast<RankedTensorType>(op.getB().getType());
    if (!bt || !bt.hasStaticShape())
      return;
    MLIRContext *ctx = op.getContext();
    OpBuilder b(op);
    int64_t batch = 1;
    for (int64_t d : bt.getShape().drop_back(2))
      batch *= d;
    int64_t tempBytes = batch > 1 ? 2 * 8 * batch : 0;
    auto temp = RankedTensorType::get(
        {tempBytes}, IntegerType::get(ctx, 8),
        LayoutAttr::get(ctx, /*hasMinorToMajor=*/true, {0}, {}, {}, 0, 0, {},
                        StringAttr()));
    std::string json = optionsJson(op);
    Attribute config = BackendConfigAttr::parseJson(ctx, json);
    if (!config)
      config = b.getStringAttr(json);
    Location loc = derivedLoc(op.getLoc());
    Operation *call = createInstruction(
        b, NameLoc::get(b.getStringAttr("triangular-solve"), loc),
        CustomCallOp::getOperationName(),
        TupleType::get(ctx, {op.getType(), temp}), {op.getA(), op.getB()},
        {b.getNamedAttr("custom_call_target",
                        b.getStringAttr("__cublas$triangularSolve")),
         b.getNamedAttr("backend_config", config)});
    if (DictionaryAttr fa = op.getFrontendAttributesAttr())
      call->setAttr("frontend_attributes", fa);
    Value result = createGte(b, loc, call->getResult(0), 0);
    op.getResult().replaceAllUsesWith(result);
    op.erase();
    ++numRewritten;
    changed = true;
  }
};
} // namespace
