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
  if (groups.isMesh()) {
    // Checked when parsed: every group has the listed axes' devices.
    int64_t size = 1;
    for (auto [i, axis] : llvm::enumerate(groups.getMeshAxisIndex()))
      size *= groups.getMeshAxisSize()[i] ? groups.getMeshAxisSize()[i]
                                          : groups.getMeshAxisSizes()[axis];
    return std::optional<int64_t>(size);
  }
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

LogicalResult mlir::hlo::verifySourceTargetPairs(
    EmitErrorFn emitError, ArrayRef<ArrayRef<int64_t>> pairs, int64_t chunks) {
  if (chunks > 1 && pairs.size() % chunks != 0)
    return emitError() << "source_target_pairs (" << pairs.size()
                       << ") must split into " << chunks
                       << " equal chunks, one per start-index entry";
  size_t chunkSize = chunks > 1 ? pairs.size() / chunks : pairs.size();
  llvm::SmallSet<int64_t, 16> sources, targets;
  for (auto [i, p] : llvm::enumerate(pairs)) {
    if (p.size() != 2)
      return emitError() << "source_target_pairs entry " << str(p)
                         << " must be a (source, target) pair";
    if (p[0] < 0 || p[1] < 0)
      return emitError() << "source_target_pairs entry " << str(p)
                         << " has a negative id";
    if (chunkSize && i % chunkSize == 0) {
      sources.clear();
      targets.clear();
    }
    StringRef where = chunks > 1 ? " in a chunk of" : " in";
    if (!sources.insert(p[0]).second)
      return emitError() << "source " << p[0] << " appears more than once"
                         << where << " source_target_pairs";
    if (!targets.insert(p[1]).second)
      return emitError() << "target " << p[1] << " appears more than once"
                         << where << " source_target_pairs";
  }
  return success();
}

/// The number of start-index entries in `offsets` for a buffer of `rank`
/// dimensions: 1 for a tuple of `rank` integer scalars (or one-element
/// arrays, which XLA's verifier takes too), c for a tuple of c such
/// tuples.
static FailureOr<int64_t> startIndexEntries(EmitErrorFn emitError,
                                            StringRef what, Type offsets,
                                            int64_t rank) {
  auto isIndexTuple = [&](Type t) {
    auto tt = dyn_cast<TupleType>(t);
    return tt && static_cast<int64_t>(tt.size()) == rank &&
           llvm::all_of(tt.getTypes(), [](Type e) {
             auto rt = dyn_cast<RankedTensorType>(e);
             return rt && rt.hasStaticShape() && rt.getNumElements() == 1 &&
                    isa<IntegerType>(rt.getElementType());
           });
  };
  if (isIndexTuple(offsets))
    return 1;
  auto tt = dyn_cast<TupleType>(offsets);
  if (tt && tt.size() > 0 && llvm::all_of(tt.getTypes(), isIndexTuple))
    return tt.size();
  return emitError() << what << " " << offsets << " must be a tuple of " << rank
                     << " integer scalars or a tuple of such tuples";
}

bool mlir::hlo::isInPlacePermute(TypeRange operands) {
  return operands.size() == 4 &&
         llvm::any_of(operands, [](Type t) { return isa<TupleType>(t); });
}

FailureOr<InPlacePermute>
mlir::hlo::verifyInPlacePermute(EmitErrorFn emitError, TypeRange operands,
                                ArrayAttr sliceSizes) {
  InPlacePermute p;
  if (operands.size() != 4)
    return emitError() << "the in-place form takes 4 operands (input, "
                          "output, input and output start indices), not "
                       << operands.size();
  SmallVector<Type> ins = unpackTuple(operands[0]);
  SmallVector<Type> outs = unpackTuple(operands[1]);
  p.tuple = isa<TupleType>(operands[0]);
  if (p.tuple != isa<TupleType>(operands[1]) || ins.size() != outs.size())
    return emitError() << "input buffer " << operands[0]
                       << " and output buffer " << operands[1]
                       << " must both be arrays or tuples of as many arrays";
  // Per buffer, its start indices: the operand itself, or its element.
  auto offsetsOf = [&](Type offsets, size_t b) -> Type {
    if (!p.tuple)
      return offsets;
    auto tt = dyn_cast<TupleType>(offsets);
    return tt && tt.size() == ins.size() ? tt.getType(b) : Type();
  };
  for (size_t b = 0; b < ins.size(); ++b) {
    auto in = dyn_cast<RankedTensorType>(ins[b]);
    auto out = dyn_cast<RankedTensorType>(outs[b]);
    if (!in || !out || in.getElementType() != out.getElementType() ||
        in.getRank() != out.getRank() || !in.hasStaticShape() ||
        !out.hasStaticShape())
      return emitError() << "input buffer " << ins[b] << " and output buffer "
                         << outs[b]
                         << " must be static arrays of one element type "
                            "and rank";
    p.inputs.push_back(in);
    p.outputs.push_back(out);
    for (auto [what, index] :
         {std::pair<StringRef, int>{"input start indices", 2},
          {"output start indices", 3}}) {
      Type offsets = offsetsOf(operands[index], b);
      if (!offsets)
        return emitError() << what << " " << operands[index]
                           << " must have one element per buffer";
      FailureOr<int64_t> entries =
          startIndexEntries(emitError, what, offsets, in.getRank());
      if (failed(entries))
        return failure();
      if (b == 0 && index == 2)
        p.entries = *entries;
      else if (*entries != p.entries)
        return emitError() << "every buffer's input and output start "
                              "indices must have "
                           << p.entries << " entries";
    }
  }
  size_t expected = ins.size() * p.entries;
  if (sliceSizes && sliceSizes.size() != expected)
    return emitError() << "slice_sizes has " << sliceSizes.size()
                       << " lists, expected one per buffer and start-index "
                          "entry ("
                       << expected << ")";
  for (size_t i = 0; i < expected; ++i) {
    RankedTensorType in = p.inputs[i / p.entries],
                     out = p.outputs[i / p.entries];
    ArrayRef<int64_t> sizes = in.getShape();
    if (sliceSizes)
      sizes = cast<DenseI64ArrayAttr>(sliceSizes[i]).asArrayRef();
    if (static_cast<int64_t>(sizes.size()) != in.getRank())
      return emitError() << "slice_sizes list " << i << " " << str(sizes)
                         << " must have " << in.getRank() << " sizes";
    for (int64_t d = 0; d < in.getRank(); ++d)
      if (sizes[d] < 0 || sizes[d] > in.getDimSize(d) ||
          sizes[d] > out.getDimSize(d))
        return emitError() << "slice of sizes " << str(sizes)
                           << " does not fit input buffer " << in
                           << " and output buffer " << out;
    p.sliceSizes.emplace_back(sizes);
  }
  return p;
}
