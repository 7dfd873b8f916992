//===- CudnnCustomCallConverter.cpp - __cudnn$fusion calls as fusions -----===//
//
// XLA-GPU's CuDnnCustomCallConverter (first of XLA 0.10.2's
// "pre-spmd-partitioner" passes). JAX's `cudnn_fusion` decorator lowers a
// function to a custom call that names its computation:
//
//   custom-call(operands), custom_call_target="__cudnn$fusion",
//     called_computations={comp}
//
// which becomes the kCustom fusion XLA's cuDNN emitter takes,
//
//   fusion(operands), kind=kCustom, calls=comp',
//     backend_config={"fusion_backend_config":{"kind":"__cudnn$fusion"}}
//
// comp' a copy of comp that only the fusion calls (comp is erased when
// nothing else names it). No cuDNN fusion emitter is here:
// hlo-custom-fusion-inliner, which hlo-gpu-optimize runs after this pass,
// inlines such fusions and the computation is compiled as any other.
// Left alone: calls that do not name exactly one computation, or that
// have control edges.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCUDNNCUSTOMCALLCONVERTER
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

struct CudnnCustomCallConverterPass
    : ChangeReportingPass<CudnnCustomCallConverterPass,
                          hlo::impl::HloCudnnCustomCallConverterBase> {
  void run() {
    ModuleOp module = getOperation();
    SmallVector<CustomCallOp> calls;
    module.walk([&](CustomCallOp call) {
      ArrayAttr callees = call.getCalledComputationsAttr();
      if (call.getCustomCallTarget() == "__cudnn$fusion" && callees &&
          callees.size() == 1 && !hasControlEdges(call))
        calls.push_back(call);
    });
    if (calls.empty())
      return;
    MLIRContext *ctx = &getContext();
    SymbolTable symbols(module);
    llvm::StringMap<unsigned> suffixes;
    llvm::DenseSet<Operation *> originals;
    Attribute config = BackendConfigAttr::parseJson(
        ctx, "{\"operation_queue_id\":\"0\",\"wait_on_operation_queues\":[],"
             "\"fusion_backend_config\":{\"kind\":\"__cudnn$fusion\"},"
             "\"force_earliest_schedule\":false}");
    for (CustomCallOp call : calls) {
      auto callee = symbols.lookup<ComputationOp>(
          cast<SymbolRefAttr>(call.getCalledComputationsAttr()[0])
              .getLeafReference());
      if (!callee)
        continue;
      // The fusion's own copy of the computation.
      auto copy = cast<ComputationOp>(callee->clone());
      copy.setSymName(uniqueSymbolName(callee.getSymName(), symbols, suffixes));
      copy.setPrivate();
      symbols.insert(copy, Block::iterator(callee));
      OpBuilder b(call);
      NamedAttribute attrs[] = {
          b.getNamedAttr("calls",
                         FlatSymbolRefAttr::get(copy.getSymNameAttr())),
          b.getNamedAttr("kind",
                         FusionKindAttr::get(ctx, FusionKind::kCustom))};
      Operation *fusion = createInstruction(
          b, derivedLoc(call.getLoc()), FusionOp::getOperationName(),
          call.getType(), getDataOperands(call), attrs);
      fusion->setAttr("backend_config", config);
      replaceByNamed(call, fusion->getResult(0));
      originals.insert(callee);
      ++numConverted;
      changed = true;
    }
    eraseUnreferencedComputations(module, originals, symbols);
  }
};

} // namespace
