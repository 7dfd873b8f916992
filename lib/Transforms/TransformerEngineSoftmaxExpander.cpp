//===- TransformerEngineSoftmaxExpander.cpp - TE softmax calls as HLO -----===//
//
// hlo-transformer-engine-softmax-expander (ours): Transformer Engine's
// scaled softmax FFI call (HloTransformerEngineCalls.h), which XLA runs by
// the handler TE's library registers, becomes the HLO of what it
// computes, in f32 as TE's kernel computes it:
//
//   f   = f32[b,h,q,k] convert(x)
//   s   = multiply(f, broadcast(scale))
//   m   = f32[b,h,q] reduce(s, -inf), dimensions={3}, to_apply=max
//   e   = exponential(subtract(s, broadcast(m), dimensions={0,1,2}))
//   sum = f32[b,h,q] reduce(e, 0), dimensions={3}, to_apply=add
//   y   = convert(divide(e, broadcast(sum)))
//
// which priority fusion makes one softmax kernel as it does JAX's own
// softmax. The call's name, metadata and sharding go to `y`.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTransformerEngineCalls.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"

#include <limits>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOTRANSFORMERENGINESOFTMAXEXPANDER
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// The instructions of one expansion, before the call.
struct Expansion {
  OpBuilder b;
  Location loc;

  Value constant(double value) {
    auto type = RankedTensorType::get({}, b.getF32Type());
    auto literal =
        DenseElementsAttr::get(type, b.getFloatAttr(b.getF32Type(), value));
    return createInstruction(b, loc, ConstantOp::getOperationName(), type, {},
                             {b.getNamedAttr("value", literal)})
        ->getResult(0);
  }
  Value broadcast(Value v, RankedTensorType type, ArrayRef<int64_t> dims) {
    return createInstruction(
               b, loc, BroadcastOp::getOperationName(), type, {v},
               {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(dims))})
        ->getResult(0);
  }
  Value convert(Value v, Type element) {
    auto type = cast<RankedTensorType>(v.getType()).clone(element);
    return createInstruction(b, loc, ConvertOp::getOperationName(), type, {v},
                             {})
        ->getResult(0);
  }
  /// The rows of `v` (its last dimension) reduced by `reducer` from `init`.
  Value rows(Value v, double init, FlatSymbolRefAttr reducer) {
    auto type = cast<RankedTensorType>(v.getType());
    int64_t last = type.getRank() - 1;
    auto result = RankedTensorType::get(type.getShape().drop_back(),
                                        type.getElementType());
    return createInstruction(
               b, loc, ReduceOp::getOperationName(), result,
               {v, constant(init)},
               {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({last})),
                b.getNamedAttr("to_apply", reducer)})
        ->getResult(0);
  }
  /// A row value (`rows`) back over the rows of `type`.
  Value overRows(Value v, RankedTensorType type) {
    return broadcast(
        v, type, llvm::to_vector(llvm::seq<int64_t>(0, type.getRank() - 1)));
  }
};

struct TransformerEngineSoftmaxExpanderPass
    : ChangeReportingPass<TransformerEngineSoftmaxExpanderPass,
                          hlo::impl::HloTransformerEngineSoftmaxExpanderBase> {
  void run() {
    ModuleOp module = getOperation();
    SmallVector<std::pair<CustomCallOp, double>> calls;
    module.walk([&](CustomCallOp call) {
      std::string why;
      if (call.getCustomCallTarget() != kTeScaledSoftmaxForward ||
          hasControlEdges(call))
        return;
      if (FailureOr<TeScaledSoftmaxCall> c = readTeScaledSoftmaxCall(call, why);
          succeeded(c))
        calls.push_back({call, c->scale});
    });
    if (calls.empty())
      return;
    SymbolTable symbols(module);
    Type f32 = Float32Type::get(&getContext());
    FlatSymbolRefAttr add = createScalarAddComputation(symbols, f32);
    FlatSymbolRefAttr max = createScalarMaxComputation(symbols, f32);
    for (auto [call, scale] : calls) {
      Expansion e{OpBuilder(call), derivedLoc(call.getLoc())};
      Value x = call.getInputs()[0];
      Type element = cast<RankedTensorType>(x.getType()).getElementType();
      Value f = e.convert(x, f32);
      auto type = cast<RankedTensorType>(f.getType());
      Value s = createInferred<MulOp>(
          e.b, e.loc, {f, e.broadcast(e.constant(scale), type, {})});
      Value m = e.rows(s, -std::numeric_limits<double>::infinity(), max);
      Value shifted =
          createInferred<SubtractOp>(e.b, e.loc, {s, e.overRows(m, type)});
      Value exp = createInferred<ExpOp>(e.b, e.loc, {shifted});
      Value sum = e.rows(exp, 0.0, add);
      Value y = createInferred<DivOp>(e.b, e.loc, {exp, e.overRows(sum, type)});
      replaceByNamed(call, e.convert(y, element));
      ++numExpanded;
      changed = true;
    }
  }
};

} // namespace
