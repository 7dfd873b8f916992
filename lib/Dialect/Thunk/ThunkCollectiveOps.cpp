//===- ThunkCollectiveOps.cpp - collectives of the thunk dialect ----------===//
//
// Verifiers of the collective thunks (ThunkCollectiveOps.td): device ids
// inside the program's devices, every device in one group, inputs and
// outputs whose shapes agree with what the collective makes of them.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Thunk/ThunkDialect.h"

using namespace mlir;
using namespace mlir::thunk;

/// The number of devices of the program `op` is in, if it is in one.
static std::optional<int64_t> getNumDevices(Operation *op) {
  auto program = op->getParentOfType<ProgramOp>();
  if (!program)
    return std::nullopt;
  return program.getNumReplicas() * program.getNumPartitions();
}

/// `groups` well formed: non-empty groups of device ids of the program,
/// every device in exactly one; with `equalSizes`, all of one size (which
/// `size` gets).
static LogicalResult verifyGroups(Operation *op,
                                  ArrayRef<ArrayRef<int64_t>> groups,
                                  bool equalSizes, int64_t &size) {
  if (groups.empty())
    return op->emitOpError("needs at least one group");
  size = groups.front().size();
  std::optional<int64_t> devices = getNumDevices(op);
  llvm::SmallDenseSet<int64_t> seen;
  for (ArrayRef<int64_t> group : groups) {
    if (group.empty())
      return op->emitOpError("has an empty group");
    if (equalSizes && int64_t(group.size()) != size)
      return op->emitOpError("needs groups of one size, not ")
             << size << " and " << group.size();
    for (int64_t id : group) {
      if (id < 0 || (devices && id >= *devices))
        return op->emitOpError("device id ")
               << id << " is not a device of the program ("
               << devices.value_or(0) << " devices)";
      if (!seen.insert(id).second)
        return op->emitOpError("device ") << id << " is in two groups";
    }
  }
  if (devices && int64_t(seen.size()) != *devices)
    return op->emitOpError("the groups cover ")
           << seen.size() << " of the program's " << *devices << " devices";
  return success();
}

static MemRefType typeOf(Value v) { return cast<MemRefType>(v.getType()); }

/// As many inputs as outputs, at least one.
static LogicalResult verifyOperandCounts(Operation *op, ValueRange inputs,
                                         ValueRange outputs) {
  if (inputs.empty() || inputs.size() != outputs.size())
    return op->emitOpError("needs as many outputs as inputs, at least one; "
                           "has ")
           << inputs.size() << " inputs and " << outputs.size() << " outputs";
  return success();
}

/// Output `i` has input `i`'s shape and element type, but for dimension
/// `dim` (when given), whose extent is the input's times `times` divided by
/// `divide`.
static LogicalResult verifyPairs(Operation *op, ValueRange inputs,
                                 ValueRange outputs,
                                 std::optional<int64_t> dim = std::nullopt,
                                 int64_t times = 1, int64_t divide = 1) {
  for (auto [i, pair] : llvm::enumerate(llvm::zip(inputs, outputs))) {
    MemRefType in = typeOf(std::get<0>(pair)), out = typeOf(std::get<1>(pair));
    if (in.getElementType() != out.getElementType())
      return op->emitOpError("input ")
             << i << " and output " << i << " have different element types";
    if (dim && (*dim < 0 || *dim >= in.getRank()))
      return op->emitOpError("dimension ")
             << *dim << " is out of range for input " << i << " of rank "
             << in.getRank();
    SmallVector<int64_t> expected(in.getShape());
    if (dim) {
      if (expected[*dim] * times % divide != 0)
        return op->emitOpError("dimension ")
               << *dim << " of input " << i << " (" << expected[*dim]
               << ") does not split into " << divide << " equal chunks";
      expected[*dim] = expected[*dim] * times / divide;
    }
    if (out.getShape() != ArrayRef<int64_t>(expected))
      return op->emitOpError("output ")
             << i << " must have shape [" << expected << "], not ["
             << out.getShape() << "]";
  }
  return success();
}

LogicalResult AllReduceOp::verify() {
  int64_t size;
  if (failed(verifyGroups(*this, getDeviceGroups(), false, size)) ||
      failed(verifyOperandCounts(*this, getInputs(), getOutputs())))
    return failure();
  return verifyPairs(*this, getInputs(), getOutputs());
}

LogicalResult AllGatherOp::verify() {
  int64_t size;
  if (failed(verifyGroups(*this, getDeviceGroups(), true, size)) ||
      failed(verifyOperandCounts(*this, getInputs(), getOutputs())))
    return failure();
  return verifyPairs(*this, getInputs(), getOutputs(), getDimension(), size);
}

LogicalResult ReduceScatterOp::verify() {
  int64_t size;
  if (failed(verifyGroups(*this, getDeviceGroups(), true, size)) ||
      failed(verifyOperandCounts(*this, getInputs(), getOutputs())))
    return failure();
  return verifyPairs(*this, getInputs(), getOutputs(), getDimension(), 1,
                     size);
}

LogicalResult AllToAllOp::verify() {
  int64_t size;
  if (failed(verifyGroups(*this, getDeviceGroups(), true, size)) ||
      failed(verifyOperandCounts(*this, getInputs(), getOutputs())))
    return failure();
  if (std::optional<int64_t> dim = getDimension())
    return verifyPairs(*this, getInputs(), getOutputs(), *dim, size, size);
  // The tuple form: one input per member, every array of one type.
  if (int64_t(getInputs().size()) != size)
    return emitOpError("without a dimension needs one input per group "
                       "member (")
           << size << "), not " << getInputs().size();
  for (Value v : llvm::concat<Value>(getInputs(), getOutputs()))
    if (typeOf(v).getShape() != typeOf(getInputs()[0]).getShape() ||
        typeOf(v).getElementType() != typeOf(getInputs()[0]).getElementType())
      return emitOpError("without a dimension needs inputs and outputs of "
                         "one shape and element type");
  return success();
}

LogicalResult CollectiveBroadcastOp::verify() {
  int64_t size;
  if (failed(verifyGroups(*this, getDeviceGroups(), false, size)) ||
      failed(verifyOperandCounts(*this, getInputs(), getOutputs())))
    return failure();
  return verifyPairs(*this, getInputs(), getOutputs());
}

LogicalResult RaggedAllToAllOp::verify() {
  int64_t size;
  if (failed(verifyGroups(*this, getDeviceGroups(), false, size)))
    return failure();
  MemRefType in = getInput().getType(), out = getOutput().getType();
  if (in.getRank() < 1 || in.getRank() != out.getRank() ||
      in.getElementType() != out.getElementType() ||
      in.getShape().drop_front() != out.getShape().drop_front())
    return emitOpError("needs an input and an output of one element type "
                       "with rows of one shape (along dimension 0), not ")
           << in << " and " << out;
  MemRefType first = getInputOffsets().getType();
  auto integer = dyn_cast<IntegerType>(first.getElementType());
  if (!integer || (integer.getWidth() != 32 && integer.getWidth() != 64) ||
      first.getRank() != 1 || first.getNumElements() == 0)
    return emitOpError("needs offsets and sizes of 32- or 64-bit integers "
                       "in one non-empty dimension, not ")
           << first;
  for (Value v : getRanges())
    if (typeOf(v).getShape() != first.getShape() ||
        typeOf(v).getElementType() != first.getElementType())
      return emitOpError("needs offsets and sizes of one type, not ")
             << first << " and " << v.getType();
  int64_t entries = first.getNumElements();
  for (ArrayRef<int64_t> group : getDeviceGroups())
    if (entries % int64_t(group.size()) != 0)
      return emitOpError("has ")
             << entries << " offsets, not a multiple of the " << group.size()
             << " members of a group";
  return success();
}

LogicalResult CollectivePermuteOp::verify() {
  std::optional<int64_t> devices = getNumDevices(*this);
  llvm::SmallDenseSet<int64_t> sources, targets;
  for (Attribute a : getPairs()) {
    auto pair = cast<DenseI64ArrayAttr>(a);
    if (pair.size() != 2)
      return emitOpError("pairs must have two device ids each");
    for (int64_t id : pair.asArrayRef())
      if (id < 0 || (devices && id >= *devices))
        return emitOpError("device id ")
               << id << " is not a device of the program ("
               << devices.value_or(0) << " devices)";
    if (!sources.insert(pair[0]).second)
      return emitOpError("device ") << pair[0] << " is the source of two pairs";
    if (!targets.insert(pair[1]).second)
      return emitOpError("device ") << pair[1] << " is the target of two pairs";
  }
  if (failed(verifyOperandCounts(*this, getInputs(), getOutputs())))
    return failure();
  return verifyPairs(*this, getInputs(), getOutputs());
}

LogicalResult RngGetAndUpdateStateOp::verify() {
  MemRefType type = getTarget().getType();
  if (type.getNumElements() != 2 || !type.getElementType().isInteger(64))
    return emitOpError("needs a target of two 64-bit integers, not ") << type;
  return success();
}

LogicalResult DeviceIdOp::verify() {
  MemRefType type = getTarget().getType();
  if (type.getNumElements() != 1 || !type.getElementType().isInteger(32))
    return emitOpError("needs a target of one 32-bit integer, not ") << type;
  return success();
}
