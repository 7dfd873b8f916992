//===- TopkSpecializer.cpp - TopK custom calls to XLA-GPU's top-k kernel --===//
//
// XLA-GPU's TopkSpecializer: a `TopK` custom call (hlo-topk-rewriter's)
// of f32 or bf16 values of shape [n] or [batch, n] with k <= 16 and
// n >= 1024 becomes the same call with target `__gpu$TopK` and the typed
// FFI API, which XLA runs as its top-k kernel and hlo-to-gpu emits as one
// kernel per call (TopkEmitter.cpp). The comparator stays on the call.
// Other TopK calls are left to hlo-topk-decomposer. Linear.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTopKCalls.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOTOPKSPECIALIZER
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// XLA's limits of its top-k kernel.
constexpr int64_t kMaxK = 16;
constexpr int64_t kMinN = 1024;

struct TopkSpecializerPass
    : ChangeReportingPass<TopkSpecializerPass,
                          hlo::impl::HloTopkSpecializerBase> {
  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](CustomCallOp call) {
        if (call.getCustomCallTarget() != "TopK" || !isSmallTopK(call))
          return;
        OpBuilder b(call);
        call.setCustomCallTargetAttr(b.getStringAttr("__gpu$TopK"));
        call.setApiVersionAttr(CustomCallApiVersionAttr::get(
            b.getContext(), CustomCallApiVersion::API_VERSION_TYPED_FFI));
        ++numSpecialized;
        changed = true;
      });
  }

  /// XLA's SmallBufferOptimization conditions.
  static bool isSmallTopK(CustomCallOp call) {
    std::string why;
    FailureOr<TopKCall> topk = readTopKCall(call, why);
    if (failed(topk))
      return false;
    Type element = topk->input.getElementType();
    return (element.isF32() || element.isBF16()) &&
           topk->input.getRank() <= 2 && topk->k >= 1 && topk->k <= kMaxK &&
           topk->n >= kMinN;
  }
};

} // namespace
