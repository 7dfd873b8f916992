//===- GpusolverRewriter.cpp - cholesky into cuSOLVER custom calls --------===//
//
// XLA's GpusolverRewriter: cholesky(a) becomes
//   call = (a', workspace, s32[batch...] info) custom-call(a),
//          custom_call_target="__cusolver$cholesky",
//          operand_layout_constraints={a'}, backend_config={"lower":...}
//   select(broadcast(compare(gte(call, 2), broadcast(0)), EQ),
//          gte(call, 0), broadcast(NaN))
// where a' is a's shape in the Fortran layout (the two minor dimensions
// swapped in the row-major layout). Ours, too: XLA's client library's
// `Eigh` call (which XLA's EighExpander expands into Jacobi sweeps) becomes
// JAX's cuSOLVER syevd call,
//   call = (v', w, s32[batch...] info) custom-call(a),
//          custom_call_target="cusolver_syevd_ffi",
//          operand_layout_constraints={a'}, backend_config={lower = ...}
//   tuple(gte(call, 0), gte(call, 1))
// Local to each call: linear.
//
//===----------------------------------------------------------------------===//

#include "CudnnUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloFactorizationCalls.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <numeric>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOGPUSOLVERREWRITER
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

static LayoutAttr rowMajorLayout(MLIRContext *ctx, int64_t rank, bool fortran) {
  SmallVector<int64_t> m2m(rank);
  std::iota(m2m.rbegin(), m2m.rend(), 0);
  if (fortran && rank >= 2)
    std::swap(m2m[0], m2m[1]);
  return LayoutAttr::get(ctx, /*hasMinorToMajor=*/true, m2m, {}, {}, 0, 0, {},
                         StringAttr());
}

namespace {
struct GpusolverRewriterPass
    : ChangeReportingPass<GpusolverRewriterPass,
                          hlo::impl::HloGpusolverRewriterBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation())) {
      SmallVector<CholeskyOp> ops;
      comp.walk([&](CholeskyOp c) { ops.push_back(c); });
      for (CholeskyOp op : ops)
        rewrite(op);
      SmallVector<CustomCallOp> eighs;
      comp.walk([&](CustomCallOp c) {
        if (c.getCustomCallTarget() == "Eigh")
          eighs.push_back(c);
      });
      for (CustomCallOp call : eighs)
        rewriteEigh(call);
    }
  }

  /// XLA's `Eigh` call as JAX's `cusolver_syevd_ffi` (eigenvalues
  /// ascending, as `Eigh` with sort_eigenvalues gives them).
  void rewriteEigh(CustomCallOp call) {
    std::string why;
    FailureOr<FactorizationCall> fc = readFactorizationCall(call, why);
    if (failed(fc) || hasControlPredecessors(call) ||
        isControlPredecessor(call))
      return;
    MLIRContext *ctx = call.getContext();
    OpBuilder b(call);
    Location loc = derivedLoc(call.getLoc());
    RankedTensorType at = fc->operand;
    int64_t rank = at.getRank();
    ArrayRef<int64_t> batch = at.getShape().drop_back(2);
    auto results = cast<TupleType>(call.getType()).getTypes();
    auto fortran = RankedTensorType::get(at.getShape(), at.getElementType(),
                                         rowMajorLayout(ctx, rank, true));
    Type eigenvalues = results[1];
    auto info = RankedTensorType::get(batch, IntegerType::get(ctx, 32),
                                      rowMajorLayout(ctx, batch.size(), false));
    SmallVector<NamedAttribute> attrs = {
        b.getNamedAttr("custom_call_target",
                       b.getStringAttr("cusolver_syevd_ffi")),
        b.getNamedAttr("operand_layout_constraints",
                       b.getTypeArrayAttr({fortran})),
        b.getNamedAttr("api_version",
                       CustomCallApiVersionAttr::get(
                           ctx, CustomCallApiVersion::API_VERSION_TYPED_FFI)),
        b.getNamedAttr("backend_config",
                       TextAttr::get(ctx, fc->lower ? "{algorithm = 0 : ui8, "
                                                      "lower = true}"
                                                    : "{algorithm = 0 : ui8, "
                                                      "lower = false}"))};
    Operation *syevd =
        createInstruction(b, NameLoc::get(b.getStringAttr("custom-call"), loc),
                          CustomCallOp::getOperationName(),
                          TupleType::get(ctx, {fortran, eigenvalues, info}),
                          {getDataOperands(call)[0]}, attrs);
    SmallVector<Value> elements;
    for (unsigned k = 0; k < 2; ++k) {
      Value e = createGte(b, loc, syevd->getResult(0), k);
      if (e.getType() != results[k])
        e = createInstruction(b, loc, CopyOp::getOperationName(), results[k],
                              {e})
                ->getResult(0);
      elements.push_back(e);
    }
    Operation *tuple = createInstruction(b, loc, TupleOp::getOperationName(),
                                         call.getType(), elements);
    transferInstructionAttrs(call, tuple);
    call.getResult().replaceAllUsesWith(tuple->getResult(0));
    call.erase();
    ++numEigh;
    changed = true;
  }

  void rewrite(CholeskyOp op) {
    if (hasControlPredecessors(op) || isControlPredecessor(op))
      return;
    auto at = dyn_cast<RankedTensorType>(op.getOperand().getType());
    if (!at || !at.hasStaticShape() || at.getRank() < 2 ||
        !isa<FloatType, ComplexType>(at.getElementType()))
      return;
    MLIRContext *ctx = op.getContext();
    OpBuilder b(op);
    // XLA sets the custom call's metadata; the instructions around it have
    // none, except the select that takes the cholesky's place.
    Location loc = derivedLoc(op.getLoc());
    auto named = [&](StringRef name) {
      return NameLoc::get(b.getStringAttr(name));
    };
    int64_t rank = at.getRank();
    Type et = at.getElementType();
    ArrayRef<int64_t> batch = at.getShape().drop_back(2);
    auto fortran = RankedTensorType::get(at.getShape(), et,
                                         rowMajorLayout(ctx, rank, true));
    auto workspace = RankedTensorType::get({workspaceElements}, et,
                                           rowMajorLayout(ctx, 1, false));
    auto infoType =
        RankedTensorType::get(batch, IntegerType::get(ctx, 32),
                              rowMajorLayout(ctx, batch.size(), false));
    Builder bb(ctx);
    auto config = BackendConfigAttr::parseJson(
        ctx, op.getLower().value_or(false) ? "{\"lower\":true}"
                                           : "{\"lower\":false}");
    SmallVector<NamedAttribute> attrs = {
        b.getNamedAttr("custom_call_target",
                       b.getStringAttr("__cusolver$cholesky")),
        b.getNamedAttr("operand_layout_constraints",
                       b.getTypeArrayAttr({fortran}))};
    if (config)
      attrs.push_back(b.getNamedAttr("backend_config", config));
    else
      attrs.push_back(b.getNamedAttr(
          "backend_config", b.getStringAttr(op.getLower().value_or(false)
                                                ? "{\"lower\":true}"
                                                : "{\"lower\":false}")));
    Operation *call =
        createInstruction(b, NameLoc::get(b.getStringAttr("custom-call"), loc),
                          CustomCallOp::getOperationName(),
                          TupleType::get(ctx, {fortran, workspace, infoType}),
                          {op.getOperand()}, attrs);
    Location none = UnknownLoc::get(ctx);
    Value out = createGte(b, none, call->getResult(0), 0);
    Value info = createGte(b, none, call->getResult(0), 2);
    auto s32 = RankedTensorType::get({}, IntegerType::get(ctx, 32));
    Value zero =
        createInstruction(
            b, named("constant"), ConstantOp::getOperationName(), s32, {},
            {b.getNamedAttr(
                "value", DenseElementsAttr::get(
                             s32, IntegerAttr::get(s32.getElementType(), 0)))})
            ->getResult(0);
    auto bcast = [&](Value v, Type type, ArrayRef<int64_t> dims) {
      return createInstruction(
                 b, named("broadcast"), BroadcastOp::getOperationName(), type,
                 {v},
                 {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(dims))})
          ->getResult(0);
    };
    Value zeros = bcast(zero, infoType, {});
    auto predType = [&](ArrayRef<int64_t> shape) {
      return rowMajorType(shape, IntegerType::get(ctx, 1));
    };
    Value ok =
        createInstruction(
            b, named("compare"), CompareOp::getOperationName(), predType(batch),
            {info, zeros},
            {b.getNamedAttr("direction", ComparisonDirectionAttr::get(
                                             ctx, ComparisonDirection::EQ))})
            ->getResult(0);
    SmallVector<int64_t> batchDims(batch.size());
    std::iota(batchDims.begin(), batchDims.end(), 0);
    ok = bcast(ok, predType(at.getShape()), batchDims);
    auto scalar = RankedTensorType::get({}, et);
    Attribute nanValue;
    if (auto ft = dyn_cast<FloatType>(et)) {
      nanValue = FloatAttr::get(ft, APFloat::getNaN(ft.getFloatSemantics()));
    } else {
      auto ct = cast<ComplexType>(et);
      auto part = cast<FloatType>(ct.getElementType());
      APFloat nan = APFloat::getNaN(part.getFloatSemantics());
      APFloat zeroF = APFloat::getZero(part.getFloatSemantics());
      nanValue = DenseElementsAttr::get(
          scalar,
          ArrayRef<std::complex<APFloat>>{std::complex<APFloat>(nan, zeroF)});
    }
    Value nan =
        createInstruction(
            b, named("constant"), ConstantOp::getOperationName(), scalar, {},
            {b.getNamedAttr("value",
                            isa<DenseElementsAttr>(nanValue)
                                ? nanValue
                                : DenseElementsAttr::get(scalar, nanValue))})
            ->getResult(0);
    Value nans = bcast(nan, op.getType(), {});
    Operation *select = createInstruction(
        b, NameLoc::get(b.getStringAttr("select"), loc),
        SelectOp::getOperationName(), op.getType(), {ok, out, nans});
    if (DictionaryAttr fa = op.getFrontendAttributesAttr())
      call->setAttr("frontend_attributes", fa);
    op.getResult().replaceAllUsesWith(select->getResult(0));
    op.erase();
    ++numCholesky;
    changed = true;
  }
};
} // namespace
