//===- HloCollectiveRules.cpp - HLO shape rules -----------------------===//
//
// Shape rules of the collectives.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "HloTypeInferenceImpl.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::detail;

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

FailureOr<std::optional<int64_t>>
mlir::hlo::verifyReplicaGroups(EmitErrorFn emitError, ReplicaGroupsAttr groups,
                               bool uniform) {
  if (!groups)
    return std::optional<int64_t>();
  if (groups.getIsIota()) {
    ArrayRef<int64_t> shape = groups.getIotaShape();
    if (shape.size() != 2 || shape[0] < 1 || shape[1] < 1) {
      emitError() << "iota replica groups need a positive "
                  << "[num_groups, group_size] shape, got " << str(shape);
      return failure();
    }
    ArrayRef<int64_t> perm = groups.getIotaPerm();
    SmallVector<int64_t> sorted(perm);
    llvm::sort(sorted);
    bool isPerm = perm.empty() || perm.size() == groups.getIotaReshape().size();
    for (size_t i = 0; isPerm && i < sorted.size(); ++i)
      isPerm = sorted[i] == int64_t(i);
    if (!isPerm) {
      emitError() << "iota replica groups transpose " << str(perm)
                  << " must be a permutation of the "
                  << groups.getIotaReshape().size() << " reshape dimensions";
      return failure();
    }
    return std::optional<int64_t>(shape[1]);
  }
  ArrayRef<int64_t> sizes = groups.getGroupSizes();
  if (sizes.empty())
    return std::optional<int64_t>();
  llvm::SmallSet<int64_t, 16> seen;
  for (int64_t id : groups.getIds()) {
    if (id < 0) {
      emitError() << "replica group id " << id << " is negative";
      return failure();
    }
    if (!seen.insert(id).second) {
      emitError() << "replica id " << id
                  << " appears more than once in replica_groups";
      return failure();
    }
  }
  for (int64_t s : sizes) {
    if (s < 1) {
      emitError() << "replica groups may not be empty";
      return failure();
    }
    if (uniform && s != sizes[0]) {
      emitError() << "replica groups must all have the same size, got "
                  << sizes[0] << " and " << s;
      return failure();
    }
  }
  return std::optional<int64_t>(sizes[0]);
}

/// Shared by all-gather (`gather`: the result dimension is the operand's
/// times the participants) and reduce-scatter (divided by them).
static LogicalResult verifyScaledCollective(EmitErrorFn emitError,
                                            StringRef opcode,
                                            TypeRange operands, Type result,
                                            ArrayRef<int64_t> dims,
                                            ShardCount shards, bool gather) {
  if (operands.empty())
    return emitError() << "needs at least one operand";
  SmallVector<Type> results = unpackTuple(result);
  if (operands.size() == 1)
    results = {result};
  if (results.size() != operands.size())
    return emitError() << "result must have one array per operand, got "
                       << result;
  for (auto [i, pair] : llvm::enumerate(llvm::zip(operands, results))) {
    auto [o, r] = pair;
    auto in = getDims(o, emitError, "operand");
    if (failed(in))
      return failure();
    auto out = getDims(r, emitError, "result");
    if (failed(out) || failed(checkSingleDim(emitError, dims, in->size())))
      return failure();
    int64_t d = dims[0];
    if (out->size() != in->size() || elementType(o) != elementType(r))
      return emitError() << "result " << i << " of type " << r
                         << " must have operand " << i
                         << "'s rank and element type (" << o << ")";
    for (size_t k = 0; k < in->size(); ++k) {
      int64_t a = (*in)[k], b = (*out)[k];
      if (int64_t(k) != d) {
        if (!dimsCompatible(a, b))
          return emitError() << "result " << i << " dimension " << k
                             << " (size " << str(b) << ") must equal operand "
                             << "dimension " << k << " (size " << str(a) << ")";
        continue;
      }
      if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b))
        continue;
      int64_t big = gather ? b : a, small = gather ? a : b;
      if (shards.groupSize && shards.exact) {
        int64_t n = *shards.groupSize;
        if (!gather && big % n)
          return emitError() << opcode << " dimension " << d << " (size " << big
                             << ") must be a multiple of the group "
                             << "size " << n;
        if (satMul(small, n) != big)
          return emitError()
                 << "result " << i << " dimension " << d << " is " << b
                 << " but " << opcode << " over " << n << " participants gives "
                 << (gather ? satMul(a, n) : a / n);
        continue;
      }
      // Only a multiple of the group size (or of 1) is known.
      int64_t unit = satMul(small, shards.groupSize.value_or(1));
      if (unit == 0 ? big != 0 : (big == 0 || big % unit))
        return emitError() << "result " << i << " dimension " << d << " (" << b
                           << ") and operand dimension " << d << " (" << a
                           << ") are not related by a whole multiple of "
                           << shards.groupSize.value_or(1) << " participants";
    }
  }
  return success();
}

LogicalResult mlir::hlo::verifyAllGather(EmitErrorFn emitError,
                                         TypeRange operands, Type result,
                                         ArrayRef<int64_t> dims,
                                         ShardCount shards) {
  return verifyScaledCollective(emitError, "all-gather", operands, result, dims,
                                shards, /*gather=*/true);
}

LogicalResult mlir::hlo::verifyReduceScatter(EmitErrorFn emitError,
                                             TypeRange operands, Type result,
                                             ArrayRef<int64_t> dims,
                                             ShardCount shards) {
  return verifyScaledCollective(emitError, "reduce-scatter", operands, result,
                                dims, shards, /*gather=*/false);
}

LogicalResult mlir::hlo::verifyAllToAll(EmitErrorFn emitError,
                                        TypeRange operands, Type result,
                                        ArrayRef<int64_t> dims,
                                        ShardCount shards) {
  if (operands.empty())
    return emitError() << "needs at least one operand";
  for (Type t : operands)
    if (failed(getDims(t, emitError, "operand")))
      return failure();
  if (!dims.empty()) {
    if (operands.size() != 1)
      return emitError() << "with a split dimension takes one operand, got "
                         << operands.size();
    ArrayRef<int64_t> in = cast<RankedTensorType>(operands[0]).getShape();
    if (failed(checkSingleDim(emitError, dims, in.size())))
      return failure();
    int64_t size = in[dims[0]];
    if (shards.groupSize && !ShapedType::isDynamic(size) &&
        size % *shards.groupSize)
      return emitError() << "split dimension " << dims[0] << " (size " << size
                         << ") must be a multiple of the group size "
                         << *shards.groupSize;
  }
  Type expected = packTuple(result.getContext(), operands);
  // XLA's tuple form (no split dimension) makes a tuple of one operand too.
  if (dims.empty() && operands.size() == 1 &&
      typesCompatible(result, TupleType::get(result.getContext(), operands)))
    return success();
  if (!typesCompatible(result, expected))
    return emitError() << "result type " << result
                       << " must match the operand types " << expected;
  return success();
}

LogicalResult
mlir::hlo::verifySourceTargetPairs(EmitErrorFn emitError,
                                   ArrayRef<ArrayRef<int64_t>> pairs) {
  llvm::SmallSet<int64_t, 16> sources, targets;
  for (ArrayRef<int64_t> p : pairs) {
    if (p.size() != 2)
      return emitError() << "source_target_pairs entry " << str(p)
                         << " must be a (source, target) pair";
    if (p[0] < 0 || p[1] < 0)
      return emitError() << "source_target_pairs entry " << str(p)
                         << " has a negative id";
    if (!sources.insert(p[0]).second)
      return emitError() << "source " << p[0]
                         << " appears more than once in source_target_pairs";
    if (!targets.insert(p[1]).second)
      return emitError() << "target " << p[1]
                         << " appears more than once in source_target_pairs";
  }
  return success();
}
