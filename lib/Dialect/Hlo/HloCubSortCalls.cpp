//===- HloCubSortCalls.cpp - XLA-GPU's CUB radix sort calls ---------------===//

#include "Hlo/Dialect/Hlo/HloCubSortCalls.h"
#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"

using namespace mlir;
using namespace mlir::hlo;

bool mlir::hlo::isCubSortTarget(StringRef target) {
  return target == kCubSortUnassignedTarget || target == kCubSortKeysTarget ||
         target == kCubSortPairsTarget;
}

bool mlir::hlo::isCubSortKeyType(Type t) {
  if (auto i = dyn_cast<IntegerType>(t))
    return llvm::is_contained({8u, 16u, 32u, 64u}, i.getWidth());
  return t.isF16() || t.isBF16() || t.isF32() || t.isF64();
}

bool mlir::hlo::isCubSortValueType(Type t) {
  if (auto i = dyn_cast<IntegerType>(t))
    return i.getWidth() == 1 ||
           llvm::is_contained({8u, 16u, 32u, 64u}, i.getWidth());
  return isa<FloatType>(t) && t.getIntOrFloatBitWidth() >= 8 &&
         t.getIntOrFloatBitWidth() <= 64;
}

uint64_t mlir::hlo::cubRadixKey(Type t, uint64_t bits) {
  unsigned width = t.getIntOrFloatBitWidth();
  uint64_t sign = uint64_t(1) << (width - 1);
  uint64_t all = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  bits &= all;
  if (isa<FloatType>(t))
    return (bits & sign) ? (~bits & all) : (bits | sign);
  return t.isUnsignedInteger() ? bits : (bits ^ sign);
}

FailureOr<CubSortCall> mlir::hlo::readCubSortCall(CustomCallOp op,
                                                  std::string &why) {
  StringRef target = op.getCustomCallTarget();
  if (!isCubSortTarget(target)) {
    why = "is not a CUB sort call";
    return failure();
  }
  CubSortCall call;
  call.op = op;
  call.assigned = target != kCubSortUnassignedTarget;
  auto operands = getDataOperands(op);
  auto arrayOf = [](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && t.hasStaticShape() && t.getRank() >= 1 ? t : RankedTensorType();
  };
  if (operands.size() == 1 || operands.size() == 2) {
    call.keys = arrayOf(operands[0]);
    if (operands.size() == 2)
      call.values = arrayOf(operands[1]);
  }
  if (!call.keys || (operands.size() == 2 && !call.values)) {
    why = "takes keys and optionally values, static arrays of rank 1 or more";
    return failure();
  }
  if (!isCubSortKeyType(call.keys.getElementType())) {
    why = "sorts keys of 8- to 64-bit integers, f16, bf16, f32 or f64";
    return failure();
  }
  if (call.values && (call.values.getShape() != call.keys.getShape() ||
                      !isCubSortValueType(call.values.getElementType()))) {
    why = "takes values of the keys' shape, of an 8- to 64-bit type or pred";
    return failure();
  }
  if (call.assigned &&
      (target == kCubSortPairsTarget) != static_cast<bool>(call.values)) {
    why = target == kCubSortPairsTarget ? "sorts pairs: keys and values"
                                        : "sorts keys only: one operand";
    return failure();
  }
  // Results: the operands' arrays (their layouts may differ), the scratch.
  auto tuple = dyn_cast<TupleType>(op.getResult().getType());
  unsigned numArrays = operands.size();
  bool fits = tuple && tuple.size() == numArrays + 1;
  for (unsigned i = 0; fits && i < numArrays; ++i) {
    auto result = dyn_cast<RankedTensorType>(tuple.getType(i));
    auto operand = cast<RankedTensorType>(operands[i].getType());
    fits = result && result.getShape() == operand.getShape() &&
           result.getElementType() == operand.getElementType();
  }
  auto scratch =
      fits ? dyn_cast<RankedTensorType>(tuple.getType(numArrays)) : nullptr;
  if (!scratch || scratch.getRank() != 1 || !scratch.hasStaticShape() ||
      !scratch.getElementType().isUnsignedInteger(8)) {
    why = "must give the sorted keys (and values) in their types and a u8 "
          "scratch array";
    return failure();
  }
  call.scratchBytes = scratch.getDimSize(0);
  call.n = call.keys.getShape().back();
  call.rows = call.n ? call.keys.getNumElements() / call.n : 0;
  // XLA's SortOptions (JSON) before the scratch is sized, the FFI handler's
  // attributes after.
  Attribute config = op->getAttr("backend_config");
  std::optional<bool> descending;
  std::optional<int64_t> batch;
  if (call.assigned) {
    descending = readFfiBoolOption(config, "descending");
    batch = readFfiIntOption(config, "batch_size");
  } else if (BackendConfigAttr typed = readBackendConfig(config)) {
    descending = typed.getBool("descending");
  }
  if (!descending && (call.assigned || config)) {
    why = "has no `descending` flag in its backend_config";
    return failure();
  }
  call.descending = descending.value_or(false);
  if (batch && *batch != call.rows) {
    why = "has batch_size " + std::to_string(*batch) + " for " +
          std::to_string(call.rows) + " rows";
    return failure();
  }
  return call;
}
