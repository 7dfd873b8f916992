//===- HloTransformerEngineCalls.cpp - Transformer Engine's FFI calls -----===//

#include "Hlo/Dialect/Hlo/HloTransformerEngineCalls.h"
#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;
using namespace mlir::hlo;

FailureOr<TeScaledSoftmaxCall>
mlir::hlo::readTeScaledSoftmaxCall(CustomCallOp op, std::string &why) {
  auto fail = [&](StringRef message) {
    why = message.str();
    return failure();
  };
  ValueRange inputs = op.getInputs();
  auto x = inputs.size() == 1 ? dyn_cast<RankedTensorType>(inputs[0].getType())
                              : RankedTensorType();
  if (!x || x.getRank() != 4 ||
      !isa<Float16Type, BFloat16Type, Float32Type>(x.getElementType()))
    return fail("expected one f16, bf16 or f32 array of rank 4 "
                "[batch, heads, queries, keys]");
  auto y = dyn_cast<RankedTensorType>(op.getType());
  if (!y || y.getShape() != x.getShape() ||
      y.getElementType() != x.getElementType())
    return fail("expected a result of the operand's shape and type");
  std::optional<double> scale =
      readFfiFloatOption(op.getBackendConfigAttr(), "scale_factor");
  if (!scale || !std::isfinite(*scale))
    return fail("expected a finite scale_factor in backend_config");
  return TeScaledSoftmaxCall{*scale};
}
