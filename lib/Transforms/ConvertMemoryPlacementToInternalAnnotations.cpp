//===- ConvertMemoryPlacementToInternalAnnotations.cpp - JAX's placements -===//
//
// XLA's ConvertMemoryPlacementToInternalAnnotations (its "pre-spmd-
// partitioner" pipeline): JAX writes `jax.device_put(x, memory_kind)` and
// the offloading checkpoint policies as
//
//   y = custom-call(x), custom_call_target="annotate_device_placement",
//       custom_call_has_side_effect=true,
//       frontend_attributes={_xla_buffer_placement="pinned_host"}
//
// which this pass rewrites to XLA's internal annotation of the move,
// `y = custom-call(x), custom_call_target="MoveToHost"` (`pinned_host` and
// `unpinned_host`; XLA does not tell them apart), `MoveToDevice`
// (`device`), `PinToDevice` (`pinned_device`) or `PinToDeviceSram`
// (`vmem`). The new call has no side effect, so a move nothing reads is
// dead; hlo-host-offloader turns the moves into copies between memory
// spaces.
//
//===----------------------------------------------------------------------===//

#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloMemoryAnnotations.h"
#include "Hlo/Transforms/HostOffloadPasses.h"

#include "llvm/ADT/StringSwitch.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCONVERTMEMORYPLACEMENTTOINTERNALANNOTATIONS
#include "Hlo/Transforms/HostOffloadPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// XLA's internal target for the memory kind `kind`; empty for a kind it
/// does not convert.
StringRef internalTarget(StringRef kind) {
  return llvm::StringSwitch<StringRef>(kind)
      .Cases("pinned_host", "unpinned_host", kMoveToHostTarget)
      .Case("device", kMoveToDeviceTarget)
      .Case("pinned_device", kPinToDeviceTarget)
      .Case("vmem", kPinToDeviceSramTarget)
      .Default("");
}

struct ConvertMemoryPlacementPass
    : ChangeReportingPass<
          ConvertMemoryPlacementPass,
          hlo::impl::HloConvertMemoryPlacementToInternalAnnotationsBase> {
  void run() {
    SmallVector<std::pair<CustomCallOp, StringRef>> calls;
    getOperation().walk([&](CustomCallOp call) {
      if (call.getCustomCallTarget() != kDevicePlacementTarget)
        return;
      auto attrs = call->getAttrOfType<DictionaryAttr>("frontend_attributes");
      auto kind =
          attrs ? attrs.getAs<StringAttr>(kBufferPlacementAttr) : StringAttr();
      if (!kind)
        return;
      if (StringRef target = internalTarget(kind.getValue()); !target.empty())
        calls.push_back({call, target});
    });
    for (auto [call, target] : calls) {
      OperandRange in = getDataOperands(call);
      if (in.size() != 1 || in[0].getType() != call->getResult(0).getType()) {
        call.emitError("custom call ")
            << kDevicePlacementTarget
            << " must have exactly one operand of its result's type";
        return signalPassFailure();
      }
      OpBuilder b(call);
      SmallVector<NamedAttribute> attrs = {
          b.getNamedAttr("custom_call_target", b.getStringAttr(target))};
      if (Attribute sharding = call->getAttr("sharding"))
        attrs.push_back(b.getNamedAttr("sharding", sharding));
      // XLA names the new instruction `custom-call`.
      Operation *move = createInstruction(
          b, NameLoc::get(b.getStringAttr("custom-call"), call.getLoc()),
          CustomCallOp::getOperationName(), in[0].getType(), in, attrs);
      call->getResult(0).replaceAllUsesWith(move->getResult(0));
      eraseWithDeadOperands(call);
      ++numConverted;
      changed = true;
    }
  }
};

} // namespace
