//===- GemmBroadcastFoldingRewriter.cpp - broadcast batch dims into GEMMs -===//
//
// XLA's GemmBroadcastFoldingRewriter: a cuBLAS GEMM custom call
// (`__cublas$gemm`, `__cublas$lt$matmul`) whose A or B operand is a
// broadcast that only prepends the GEMM's batch dimensions reads the
// broadcast's operand instead; the GemmBackendConfig then lists no batch
// dimension for that operand and its contracting dimension moves down by
// the number of batch dimensions.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOGEMMBROADCASTFOLDINGREWRITER
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct GemmBroadcastFoldingRewriterPass
    : ChangeReportingPass<GemmBroadcastFoldingRewriterPass,
                          hlo::impl::HloGemmBroadcastFoldingRewriterBase> {
  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      for (auto call : comp.getBody().getOps<CustomCallOp>())
        for (unsigned operand : {0u, 1u})
          if (fold(call, operand))
            break;
  }

  bool fold(CustomCallOp call, unsigned index) {
    StringRef target = call.getCustomCallTarget();
    if (target != "__cublas$gemm" && target != "__cublas$lt$matmul")
      return false;
    OperandRange operands = call.getInputs();
    if (operands.size() <= index)
      return false;
    auto bcast = operands[index].getDefiningOp<BroadcastOp>();
    auto root = readBackendConfig(call.getBackendConfigAttr());
    BackendConfigAttr cfg = root ? root.getGemmBackendConfig() : nullptr;
    BackendConfigAttr dn =
        cfg ? cfg.getSubConfig("dot_dimension_numbers") : nullptr;
    if (!bcast || !dn)
      return false;
    auto outType = dyn_cast<RankedTensorType>(bcast.getType());
    auto inType = dyn_cast<RankedTensorType>(bcast.getOperand().getType());
    if (!outType || !inType || !outType.hasStaticShape() ||
        !inType.hasStaticShape())
      return false;
    int64_t added = outType.getRank() - inType.getRank();
    StringRef side = index == 0 ? "lhs" : "rhs";
    ArrayRef<int64_t> batch = dn.getInts((side + "_batch_dimensions").str())
                                  .value_or(ArrayRef<int64_t>());
    ArrayRef<int64_t> contracting =
        dn.getInts((side + "_contracting_dimensions").str())
            .value_or(ArrayRef<int64_t>());
    // The broadcast adds exactly the batch dimensions, in front.
    for (int64_t d : orEmpty(bcast.getDimensions()))
      if (d < added || llvm::is_contained(batch, d))
        return false;
    if (added <= 0 || added != int64_t(batch.size()) ||
        contracting.size() != 1 ||
        int64_t(dn.getInts("lhs_batch_dimensions")
                    .value_or(ArrayRef<int64_t>())
                    .size()) != added)
      return false;
    Builder b(call.getContext());
    dn = dn.withMember((side + "_contracting_dimensions").str(),
                       b.getDenseI64ArrayAttr(contracting[0] - added))
             .withMember((side + "_batch_dimensions").str(),
                         b.getDenseI64ArrayAttr({}));
    call.setBackendConfigAttr(root.withMember(
        "gemm_backend_config", cfg.withMember("dot_dimension_numbers", dn)));
    // The broadcast stays, dead, as XLA leaves it (hlo-dce removes it).
    call->setOperand(index, bcast.getOperand());
    ++numFolded;
    changed = true;
    return true;
  }
};
} // namespace
