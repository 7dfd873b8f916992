//===- ThunkAccess.cpp - the arena bytes a thunk reads and writes ---------===//

#include "ThunkAccess.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::thunk;

/// Adds what `op` touches to `access`; within a loop, conditional or
/// command buffer (`nested`) its writes are only possible.
static void addAccess(Operation *op, function_ref<ByteRange(Value)> range,
                      bool nested, ThunkAccess &access) {
  if (op->hasTrait<OpTrait::IsTerminator>() || isa<SliceOp>(op))
    return;
  auto &writes = nested ? access.mayWrites : access.writes;
  if (op->getNumRegions()) {
    for (Region &region : op->getRegions())
      for (Operation &inner : region.getOps())
        addAccess(&inner, range, /*nested=*/true, access);
    for (Value operand : op->getOperands())
      access.reads.push_back(range(operand));
    return;
  }
  // A transpose writes its whole output without reading it (a kernel's
  // outputs may be read in general: in-place updates).
  if (auto kernel = dyn_cast<KernelOp>(op);
      kernel && kernel.getTransposeAttr()) {
    access.reads.push_back(range(kernel.getInputs()[0]));
    writes.push_back(range(kernel.getOutputs()[0]));
    return;
  }
  auto memory = dyn_cast<MemoryEffectOpInterface>(op);
  if (!memory) {
    access.any = true;
    return;
  }
  SmallVector<MemoryEffects::EffectInstance> effects;
  memory.getEffects(effects);
  for (const MemoryEffects::EffectInstance &effect : effects) {
    bool read = isa<MemoryEffects::Read>(effect.getEffect());
    if (!read && !isa<MemoryEffects::Write>(effect.getEffect()))
      continue;
    Value value = effect.getValue();
    if (!value) {
      access.any = true;
      return;
    }
    (read ? access.reads : writes).push_back(range(value));
  }
}

ThunkAccess mlir::thunk::getThunkAccess(Operation *op,
                                        function_ref<ByteRange(Value)> range) {
  ThunkAccess access;
  addAccess(op, range, /*nested=*/false, access);
  return access;
}
