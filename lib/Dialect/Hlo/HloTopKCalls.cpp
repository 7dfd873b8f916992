//===- HloTopKCalls.cpp - XLA's top-k custom calls ------------------------===//

#include "Hlo/Dialect/Hlo/HloTopKCalls.h"

#include <limits>

using namespace mlir;
using namespace mlir::hlo;

bool mlir::hlo::isTopKTarget(StringRef target) {
  return target == "TopK" || target == "__gpu$TopK";
}

FailureOr<TopKCall> mlir::hlo::readTopKCall(CustomCallOp op, std::string &why) {
  if (!isTopKTarget(op.getCustomCallTarget())) {
    why = "is not a top-k call";
    return failure();
  }
  TopKCall call;
  call.op = op;
  auto operands = getDataOperands(op);
  call.input = operands.size() == 1
                   ? dyn_cast<RankedTensorType>(operands[0].getType())
                   : RankedTensorType();
  if (!call.input || !call.input.hasStaticShape() || call.input.getRank() < 1) {
    why = "takes one static array of rank 1 or more";
    return failure();
  }
  auto tuple = dyn_cast<TupleType>(op.getResult().getType());
  if (tuple && tuple.size() == 2) {
    call.values = dyn_cast<RankedTensorType>(tuple.getType(0));
    call.indices = dyn_cast<RankedTensorType>(tuple.getType(1));
  }
  if (!call.values || !call.indices ||
      call.values.getElementType() != call.input.getElementType() ||
      !call.indices.getElementType().isInteger(32) ||
      call.values.getShape() != call.indices.getShape() ||
      call.values.getRank() != call.input.getRank() ||
      call.values.getShape().drop_back() != call.input.getShape().drop_back()) {
    why = "must give (values, s32 indices) of the operand's shape but for "
          "the last dimension";
    return failure();
  }
  call.n = call.input.getShape().back();
  call.k = call.values.getShape().back();
  call.rows = call.n ? call.input.getNumElements() / call.n : 0;
  if (call.k > call.n) {
    why = "keeps more elements of a row than it has";
    return failure();
  }
  ArrayAttr callees = op.getCalledComputationsAttr();
  call.comparator = callees && callees.size() == 1
                        ? dyn_cast<FlatSymbolRefAttr>(callees[0])
                        : FlatSymbolRefAttr();
  if (!call.comparator) {
    why = "must call one comparator computation";
    return failure();
  }
  return call;
}

bool mlir::hlo::isTopKKernelCall(const TopKCall &call, std::string &why) {
  Type t = call.input.getElementType();
  if (!t.isF32() && !t.isBF16()) {
    why = "takes f32 or bf16 elements";
    return false;
  }
  if (call.k < 1 || call.k > 16 ||
      call.n > std::numeric_limits<int32_t>::max() ||
      call.rows > std::numeric_limits<int32_t>::max()) {
    why = "keeps 1 to 16 elements of fewer than 2^31 rows of fewer than "
          "2^31";
    return false;
  }
  if (!llvm::all_of(SmallVector<Type>{call.input, call.values, call.indices},
                    hasRowMajorStrides)) {
    why = "takes arrays laid out row-major";
    return false;
  }
  return true;
}

bool mlir::hlo::comparesByTotalOrder(ComputationOp comparator) {
  WalkResult walk = comparator.walk([&](CompareOp c) {
    Type t = cast<RankedTensorType>(getDataOperands(c)[0].getType())
                 .getElementType();
    return isa<FloatType>(t) &&
                   c.getComparisonType().value_or(ComparisonType::FLOAT) !=
                       ComparisonType::TOTALORDER
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return !walk.wasInterrupted();
}
